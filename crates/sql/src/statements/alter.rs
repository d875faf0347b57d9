//! ALTER TABLE and RENAME TABLE. Changes that leave every row as it is —
//! renaming the table or a column, a column's DEFAULT or comment — change
//! the definition in one catalog transaction; index changes alone build
//! or drop trees (built in parallel); changes to the rows (adding,
//! dropping, moving a column, changing its type or NULL-ability, the
//! primary key) rebuild the table (`Engine::rebuild_table`), with its
//! indexes, writers held off meanwhile.
use super::alter_columns::{duplicate_column, Reshape, RowConverter};
use super::check_constraints::{enforce, CheckSpec, CompiledChecks};
use super::ddl::{
    column_def, column_default, current_timestamp_digits, descending_parts, ident_list,
    primary_key_list, ColumnSpec,
};
use super::foreign_key_defs::{begins_a_key, quoted, resolve, ForeignKeySpec};
use crate::catalog::registry::SessionSlot;
use crate::catalog::statement_progress::{COPYING, ENABLING_KEYS};
use crate::error::{Result, SqlError};
use crate::expr::object_name;
use crate::privileges::bits::{ALTER, CREATE, DROP, INSERT};
use crate::result::Outcome;
use crate::session::Session;
use lineardb_table::types::{LONG_LEN, MEDIUM_LEN, TEXT_LEN, TINY_LEN};
use lineardb_table::{
    Collation, ColumnDefault, DataType, IndexDef, IndexSpec, RebuildStep, Table, TableDef,
};
use sqlparser::ast;
use std::sync::Arc;

impl Session {
    pub(crate) fn alter_table(&mut self, at: &ast::AlterTable) -> Result<Outcome> {
        self.alter_table_converting(at, None)
    }

    /// ALTER TABLE whose string columns then take the collation `convert`
    /// (CONVERT TO CHARACTER SET), if given.
    pub(crate) fn alter_table_converting(
        &mut self,
        at: &ast::AlterTable,
        convert: Option<Collation>,
    ) -> Result<Outcome> {
        let outcome = self.reshape_table(&at.name, at.if_exists, &at.operations, convert)?;
        // AUTO_INCREMENT = n sets the counter, down as well as up, once the
        // table is as the statement leaves it (its new name, if renamed).
        let reset = at.operations.iter().rev().find_map(|op| match op {
            ast::AlterTableOperation::AutoIncrement { value, .. } => {
                value.value.to_string().parse::<u64>().ok()
            }
            _ => None,
        });
        if let Some(n) = reset {
            let parts = altered_name(at);
            self.table(&parts, ALTER)?.reset_next_auto_increment(n)?;
        }
        Ok(outcome)
    }

    /// `ALTER TABLE table CONVERT TO …` with no other change.
    pub(crate) fn convert_table(&mut self, table: &[String], to: Collation) -> Result<Outcome> {
        let name = ast::ObjectName::from(
            table
                .iter()
                .map(|p| ast::Ident::with_quote('`', p))
                .collect::<Vec<_>>(),
        );
        self.reshape_table(&name, false, &[], Some(to))
    }

    /// ALTER TABLE's changes to the definition and the rows.
    fn reshape_table(
        &mut self,
        name: &ast::ObjectName,
        if_exists: bool,
        operations: &[ast::AlterTableOperation],
        convert: Option<Collation>,
    ) -> Result<Outcome> {
        let parts = object_name(name);
        if if_exists {
            let (db, name) = self.qualified(&parts)?;
            if !self.tables.is_temporary(&db, &name) && self.engine.table(&db, &name).is_err() {
                self.warnings
                    .push((1146, format!("Table '{db}.{name}' doesn't exist")));
                return Ok(Outcome::done(0));
            }
        }
        let mut t = self.table(&parts, ALTER)?;
        let mut r = Reshape::new(t.def().clone());
        let mut drops: Vec<String> = Vec::new();
        let mut adds: Vec<IndexSpec> = Vec::new();
        let mut new_primary_key: Option<Vec<String>> = None;
        let mut foreign_key_adds: Vec<ForeignKeySpec> = Vec::new();
        let mut check_adds: Vec<CheckSpec> = Vec::new();
        let original = r.def.clone();
        // Checked in full before anything changes.
        for op in operations {
            match op {
                ast::AlterTableOperation::AddConstraint {
                    constraint: ast::TableConstraint::PrimaryKey(p),
                    ..
                } => {
                    if !r.def.primary_key.is_empty() || new_primary_key.is_some() {
                        return Err(multiple_primary_keys());
                    }
                    new_primary_key = Some(primary_key_list(&p.columns)?);
                }
                ast::AlterTableOperation::AddConstraint {
                    constraint: ast::TableConstraint::ForeignKey(fk),
                    ..
                } => {
                    if r.def.temporary.is_some() {
                        return Err(SqlError::unsupported("FOREIGN KEY on a temporary table"));
                    }
                    foreign_key_adds.push(ForeignKeySpec::parse(fk, &r.def.database)?);
                }
                ast::AlterTableOperation::AddConstraint {
                    constraint: ast::TableConstraint::Check(c),
                    ..
                } => check_adds.push(CheckSpec::of_table(c)?),
                ast::AlterTableOperation::DropConstraint {
                    name, if_exists, ..
                } => {
                    let check = r
                        .def
                        .checks
                        .iter()
                        .position(|c| c.name.eq_ignore_ascii_case(&name.value));
                    let foreign_key = r
                        .def
                        .foreign_keys
                        .iter()
                        .position(|f| f.name.eq_ignore_ascii_case(&name.value));
                    match (check, foreign_key) {
                        (Some(i), _) => {
                            r.def.checks.remove(i);
                        }
                        (None, Some(i)) => {
                            r.def.foreign_keys.remove(i);
                        }
                        (None, None) => {
                            let missing = cannot_drop("CONSTRAINT", &name.value);
                            if !*if_exists {
                                return Err(missing);
                            }
                            self.warnings.push((missing.code, missing.message));
                        }
                    }
                }
                ast::AlterTableOperation::DropForeignKey { name, .. } => {
                    let i = r
                        .def
                        .foreign_keys
                        .iter()
                        .position(|f| f.name.eq_ignore_ascii_case(&name.value))
                        .ok_or_else(|| cannot_drop("FOREIGN KEY", &name.value))?;
                    r.def.foreign_keys.remove(i);
                }
                ast::AlterTableOperation::AddConstraint { constraint, .. } => {
                    adds.push(index_spec(constraint, &r.def, &adds)?)
                }
                ast::AlterTableOperation::AddColumn {
                    if_not_exists,
                    column_def: written,
                    column_position: position,
                    ..
                } => {
                    let spec = column_def(written, r.def.collation)?;
                    check_adds.extend(CheckSpec::of_column(&spec.def.name, &spec.checks));
                    for fk in &spec.references {
                        foreign_key_adds.push(ForeignKeySpec::parse(fk, &r.def.database)?);
                    }
                    let name = spec.def.name.clone();
                    if r.position(&name).is_ok() {
                        if *if_not_exists {
                            self.warnings.push((1060, duplicate_column(&name).message));
                            continue;
                        }
                        return Err(duplicate_column(&name));
                    }
                    let at = r.place(position, r.def.columns.len())?;
                    r.insert(at, spec.def, None);
                    if spec.primary {
                        if !r.def.primary_key.is_empty() || new_primary_key.is_some() {
                            return Err(multiple_primary_keys());
                        }
                        new_primary_key = Some(vec![name.clone()]);
                    }
                    if spec.unique {
                        adds.push(IndexSpec::from((name.clone(), vec![name], true)));
                    }
                }
                ast::AlterTableOperation::DropColumn {
                    column_names,
                    if_exists,
                    ..
                } => {
                    for column in column_names {
                        match r.position(&column.value) {
                            Ok(i) => {
                                if let Some(fk) =
                                    r.def.foreign_keys.iter().find(|f| f.columns.contains(&i))
                                {
                                    return Err(needed_index(&r.def, &fk.columns));
                                }
                                r.remove(i);
                            }
                            Err(_) => {
                                let missing = cannot_drop("COLUMN", &column.value);
                                if !*if_exists {
                                    return Err(missing);
                                }
                                self.warnings.push((missing.code, missing.message));
                            }
                        }
                    }
                }
                ast::AlterTableOperation::DropPrimaryKey { .. } => {
                    if r.def.primary_key.is_empty() {
                        return Err(cannot_drop("INDEX", "PRIMARY"));
                    }
                    r.def.primary_key.clear();
                    r.rewrites = true;
                }
                ast::AlterTableOperation::DropIndex { name } => drops.push(name.value.clone()),
                ast::AlterTableOperation::RenameTable { table_name } => {
                    let name = match table_name {
                        ast::RenameTableNameKind::As(n) | ast::RenameTableNameKind::To(n) => n,
                    };
                    let (new_db, new_name) = self.qualified(&object_name(name))?;
                    if r.def.temporary.is_some() {
                        return Err(SqlError::unsupported("renaming a temporary table"));
                    }
                    self.require_table(&new_db, &new_name, CREATE | INSERT)?;
                    r.def.database = new_db;
                    r.def.name = new_name;
                }
                ast::AlterTableOperation::RenameColumn {
                    old_column_name,
                    new_column_name,
                } => {
                    let i = r.position(&old_column_name.value)?;
                    r.check_unique_name(&new_column_name.value, Some(i))?;
                    named_by_a_check(&r.def, i)?;
                    r.def.columns[i].name = new_column_name.value.clone();
                }
                ast::AlterTableOperation::AlterColumn { column_name, op } => {
                    let i = r.position(&column_name.value)?;
                    let column = &mut r.def.columns[i];
                    match op {
                        ast::AlterColumnOperation::SetDefault { value } => {
                            let takes_now = matches!(
                                column.data_type,
                                DataType::DateTime | DataType::Timestamp
                            );
                            column.default = if takes_now
                                && current_timestamp_digits(value).is_some_and(|d| d <= column.fsp)
                            {
                                ColumnDefault::CurrentTimestamp
                            } else {
                                column_default(value)?
                            };
                        }
                        ast::AlterColumnOperation::DropDefault => {
                            column.default = ColumnDefault::None
                        }
                        other => {
                            return Err(SqlError::unsupported(format!("ALTER COLUMN … {other}")))
                        }
                    }
                }
                ast::AlterTableOperation::ChangeColumn {
                    old_name,
                    new_name,
                    data_type,
                    options,
                    column_position: position,
                } => {
                    let i = r.position(&old_name.value)?;
                    let spec = written_column(new_name, data_type, options, r.def.collation)?;
                    redefine_column(&mut r, i, spec, position, &mut new_primary_key, &mut adds)?;
                }
                ast::AlterTableOperation::ModifyColumn {
                    col_name,
                    data_type,
                    options,
                    column_position: position,
                } => {
                    let i = r.position(&col_name.value)?;
                    let spec = written_column(col_name, data_type, options, r.def.collation)?;
                    redefine_column(&mut r, i, spec, position, &mut new_primary_key, &mut adds)?;
                }
                ast::AlterTableOperation::AutoIncrement { value, .. } => {
                    let text = value.value.to_string();
                    r.def.auto_increment_start = text
                        .parse()
                        .map_err(|_| SqlError::syntax(format!("AUTO_INCREMENT = {text}")))?;
                }
                other => return Err(SqlError::unsupported(format!("ALTER TABLE {other}"))),
            }
        }
        if let Some(to) = convert {
            convert_columns(&mut r, to)?;
        }
        if r.def.columns.is_empty() {
            return Err(SqlError::new(
                1090,
                "42000",
                "You can't delete all columns with ALTER TABLE; use DROP TABLE instead",
            ));
        }
        if let Some(names) = new_primary_key {
            r.def.primary_key = names
                .iter()
                .map(|n| r.position(n).map_err(|_| unknown_key_column(n)))
                .collect::<Result<_>>()?;
            for &c in &r.def.primary_key {
                r.def.columns[c].nullable = false;
            }
            r.rewrites = true;
        }
        let renamed = !r.def.database.eq_ignore_ascii_case(&t.def().database)
            || !r.def.name.eq_ignore_ascii_case(&t.def().name);
        if renamed {
            self.require_table(&t.def().database, &t.def().name, DROP)?;
            if !self.engine.database_exists(&r.def.database)? {
                // A rename alone is a file rename to MariaDB.
                return Err(if operations.len() == 1 {
                    rename_failed(t.def(), &r.def.database, &r.def.name)
                } else {
                    SqlError::new(
                        1049,
                        "42000",
                        format!("Unknown database '{}'", r.def.database),
                    )
                });
            }
        }
        self.check_foreign_key_columns(&original, &r)?;
        // MariaDB copies the table to check a new foreign key's rows.
        let checked = !foreign_key_adds.is_empty() && self.foreign_key_checks();
        self.add_foreign_keys_to(&t, &mut r, foreign_key_adds, &drops, &mut adds)?;
        let new_checks = !check_adds.is_empty();
        // So it does to try a new table CHECK on the rows.
        let checked = checked || check_adds.iter().any(|c| c.column.is_none());
        if new_checks {
            r.def.checks = self.check_defs(&r.def, check_adds)?;
        }
        if r.rewrites {
            // MariaDB adds a column in place, without reading the rows: an
            // added column's own CHECK is not tried on them.
            let mut tried = r.def.clone();
            tried
                .checks
                .retain(|c| c.column.is_none_or(|i| r.sources[i].is_some()));
            let conditions = self.compiled_checks(&tried)?;
            return self.rewrite_table(
                t,
                r,
                Rewrite {
                    drops: &drops,
                    adds: &adds,
                    renamed,
                    checked,
                    conditions,
                },
            );
        }
        if new_checks {
            // The rows stay as they are: they must meet the new checks.
            let conditions = self.compiled_checks(&r.def)?;
            let mut failed: Option<SqlError> = None;
            t.scan_primary(
                &lineardb_txn::ReadView::latest(),
                &lineardb_table::KeyRange::all(),
                |_, row| match enforce(&conditions, &r.def, &row.values()) {
                    Ok(()) => true,
                    Err(e) => {
                        failed = Some(e);
                        false
                    }
                },
            )?;
            if let Some(e) = failed {
                return Err(e);
            }
        }
        let copied = if checked {
            t.count(&lineardb_txn::ReadView::latest(), 1)?
        } else {
            0
        };
        let mut def = r.def;
        for name in &drops {
            t = self.engine.remove_index(&t, name)?;
        }
        // Index columns are named as the statement leaves them (after its
        // renames); the build reads the table as it stands.
        for add in adds.iter_mut() {
            for c in add.columns.iter_mut() {
                let i = def
                    .columns
                    .iter()
                    .position(|d| d.name.eq_ignore_ascii_case(c))
                    .ok_or_else(|| unknown_key_column(c))?;
                *c = t.def().columns[i].name.clone();
            }
        }
        if !adds.is_empty() {
            t = self.add_indexes_in_place(&t, &adds)?;
        }
        def.indexes = t.def().indexes.clone();
        if def != *t.def() {
            self.engine.alter_definition(&t, def)?;
        }
        Ok(altered(copied, self.warnings.len()))
    }

    /// The ALTER TABLE whose changes rewrite the rows: the indexes it adds
    /// and drops are part of the new definition, built with it.
    fn rewrite_table(
        &mut self,
        t: Arc<Table>,
        mut r: Reshape,
        plan: Rewrite<'_>,
    ) -> Result<Outcome> {
        let Rewrite {
            drops,
            adds,
            renamed,
            checked,
            conditions,
        } = plan;
        let old = t.def().clone();
        for name in drops {
            let i = r
                .def
                .index_position(name)
                .ok_or_else(|| cannot_drop("INDEX", name))?;
            r.def.indexes.remove(i);
        }
        for IndexSpec {
            name,
            columns,
            unique,
            descending,
        } in adds
        {
            if r.def.index_position(name).is_some() || name.eq_ignore_ascii_case("PRIMARY") {
                return Err(SqlError::new(
                    1061,
                    "42000",
                    format!("Duplicate key name '{name}'"),
                ));
            }
            let columns = columns
                .iter()
                .map(|c| r.position(c).map_err(|_| unknown_key_column(c)))
                .collect::<Result<Vec<_>>>()?;
            r.def.indexes.push(IndexDef {
                name: name.clone(),
                columns,
                unique: *unique,
                root: 0,
                descending: descending.clone(),
            });
        }
        if let Some(c) = r.def.columns.iter().position(|c| c.auto_increment) {
            let keyed = r.def.primary_key.first() == Some(&c)
                || r.def.indexes.iter().any(|i| i.columns.first() == Some(&c));
            if !keyed {
                return Err(SqlError::new(
                    1075,
                    "42000",
                    "Incorrect table definition; there can be only one auto column and it must be defined as a key",
                ));
            }
        }
        let (name_db, name) = (r.def.database.clone(), r.def.name.clone());
        let mut def = r.def.clone();
        def.database = old.database.clone();
        def.name = old.name.clone();
        let mut converter = RowConverter {
            def: &def,
            sources: &r.sources,
            strict: self.strict_mode(),
            next_auto: def.auto_increment_start.max(1),
            checks: conditions,
            warnings: Vec::new(),
        };
        let mut failure: Option<SqlError> = None;
        let threads = self.parallel_threads;
        let slot = self.slot.clone();
        slot.enter_stage(COPYING, 1, 2, t.estimate_rows());
        let rebuilt = self.engine.rebuild_table(
            &t,
            def.clone(),
            &mut |n, row| {
                converter.convert(n, row).map_err(|e| {
                    failure = Some(e);
                    lineardb_table::Error::Invalid("a row could not be converted".into())
                })
            },
            threads,
            &|step, rows| rebuild_progress(&slot, step, rows),
        );
        let (mut t, stats) = match rebuilt {
            Ok(done) => done,
            Err(e) => return Err(failure.unwrap_or_else(|| e.into())),
        };
        let added_auto = r
            .sources
            .iter()
            .zip(&def.columns)
            .any(|(s, c)| s.is_none() && c.auto_increment);
        let warnings = std::mem::take(&mut converter.warnings);
        let next_auto = converter.next_auto;
        self.warnings.extend(warnings);
        if renamed || added_auto {
            let mut def = t.def().clone();
            def.database = name_db;
            def.name = name;
            if added_auto {
                def.auto_increment_start = def.auto_increment_start.max(next_auto);
            }
            t = self.engine.alter_definition(&t, def)?;
        }
        drop(t);
        let copied = if checked || r.converts(&old) {
            stats.rows
        } else {
            0
        };
        Ok(altered(copied, self.warnings.len()))
    }

    /// RENAME TABLE a TO b [, c TO d …]: in order, all or none.
    pub(crate) fn rename_tables(&mut self, renames: &[ast::RenameTable]) -> Result<Outcome> {
        let mut pairs = Vec::with_capacity(renames.len());
        for r in renames {
            let from = self.qualified(&object_name(&r.old_name))?;
            let to = self.qualified(&object_name(&r.new_name))?;
            if self.tables.is_temporary(&from.0, &from.1) {
                return Err(SqlError::unsupported("RENAME TABLE of a temporary table"));
            }
            self.require_table(&from.0, &from.1, ALTER | DROP)?;
            self.require_table(&to.0, &to.1, CREATE | INSERT)?;
            if !self.engine.database_exists(&to.0)? && self.engine.table(&from.0, &from.1).is_ok() {
                let t = self.engine.table(&from.0, &from.1)?;
                return Err(rename_failed(t.def(), &to.0, &to.1));
            }
            pairs.push((from, to));
        }
        self.engine.rename_tables(&pairs)?;
        Ok(Outcome::done(0))
    }
}

/// MariaDB's error for renaming a table into a database that does not
/// exist (to it, a failed file rename).
fn rename_failed(def: &TableDef, db: &str, name: &str) -> SqlError {
    SqlError::new(
        1025,
        "HY000",
        format!(
            "Error on rename of './{}/{}' to './{db}/{name}' (errno: 168 \"Unknown (generic) error from engine\")",
            def.database, def.name
        ),
    )
}

impl Session {
    /// A column of a foreign key (this table's, or another's that
    /// references it) keeps its type: MariaDB's 1832 and 1833.
    fn check_foreign_key_columns(&mut self, original: &TableDef, r: &Reshape) -> Result<()> {
        for (c, source) in r.def.columns.iter().zip(&r.sources) {
            let Some(i) = *source else {
                continue;
            };
            let before = &original.columns[i];
            if before.data_type == c.data_type {
                continue;
            }
            if let Some(fk) = original
                .foreign_keys
                .iter()
                .find(|f| f.columns.contains(&i))
            {
                return Err(SqlError::new(
                    1832,
                    "HY000",
                    format!(
                        "Cannot change column '{}': used in a foreign key constraint '{}'",
                        before.name, fk.name
                    ),
                ));
            }
            let references = self.tables.references(&self.engine)?;
            let key = (
                original.database.to_ascii_lowercase(),
                original.name.to_ascii_lowercase(),
            );
            for ((db, name), k) in references.get(&key).into_iter().flatten() {
                let child = self.engine.table(db, name)?;
                let Some(fk) = child.def().foreign_keys.get(*k) else {
                    continue;
                };
                if fk
                    .parent_columns
                    .iter()
                    .any(|p| p.eq_ignore_ascii_case(&before.name))
                {
                    return Err(SqlError::new(
                        1833,
                        "HY000",
                        format!(
                            "Cannot change column '{}': used in a foreign key constraint '{}' of table '{db}.{name}'",
                            before.name, fk.name
                        ),
                    ));
                }
            }
        }
        Ok(())
    }

    /// The FOREIGN KEYs an ALTER adds, resolved against the table as the
    /// statement leaves it (with the indexes it adds and drops); the
    /// indexes they need join `adds`. With checks on, the rows must
    /// already satisfy them (1452). Every foreign key kept must still
    /// find an index (1553).
    fn add_foreign_keys_to(
        &mut self,
        t: &Table,
        r: &mut Reshape,
        foreign_keys: Vec<ForeignKeySpec>,
        drops: &[String],
        adds: &mut Vec<IndexSpec>,
    ) -> Result<()> {
        let checks = self.foreign_key_checks();
        for spec in foreign_keys {
            let keys = keys_after(&r.def, drops, adds);
            let parent = self.parent_def(&keys, &spec.parent);
            let (fk, index) = resolve(spec, &keys, parent.as_ref(), checks)?;
            if let Some((name, columns)) = index {
                let columns = columns
                    .iter()
                    .map(|&c| r.def.columns[c].name.clone())
                    .collect();
                adds.push(IndexSpec::from((name, columns, false)));
            }
            if checks {
                let old_columns: Option<Vec<usize>> =
                    fk.columns.iter().map(|&c| r.sources[c]).collect();
                if let Some(old_columns) = old_columns {
                    let referential = self.referential(&[])?;
                    if referential.has_orphan(t, &old_columns, &fk)? {
                        let mut shown = r.def.clone();
                        shown.foreign_keys = vec![fk.clone()];
                        return Err(SqlError::new(
                            1452,
                            "23000",
                            format!(
                                "Cannot add or update a child row: a foreign key constraint fails ({})",
                                quoted(&shown, &fk, false)
                            ),
                        ));
                    }
                }
            }
            r.def.foreign_keys.push(fk);
        }
        let keys = keys_after(&r.def, drops, adds);
        for fk in &r.def.foreign_keys {
            if !begins_a_key(&keys, &fk.columns) {
                return Err(needed_index(&r.def, &fk.columns));
            }
        }
        Ok(())
    }
}

/// What an ALTER that rewrites the rows does besides its columns.
struct Rewrite<'a> {
    drops: &'a [String],
    adds: &'a [IndexSpec],
    /// The statement renames the table too.
    renamed: bool,
    /// MariaDB would copy the rows to check them (a new foreign key or
    /// table CHECK): the rows count as affected.
    checked: bool,
    /// The CHECK constraints each new row must meet.
    conditions: CompiledChecks,
}

/// Renaming a column a CHECK condition names is not done yet (its text
/// would have to follow).
fn named_by_a_check(def: &TableDef, i: usize) -> Result<()> {
    let quoted = format!("`{}`", def.columns[i].name);
    if def.checks.iter().any(|c| c.condition.contains(&quoted)) {
        return Err(SqlError::unsupported(
            "renaming a column a CHECK constraint names",
        ));
    }
    Ok(())
}

/// `def` with the statement's index drops and adds applied (columns as
/// the statement leaves them; unknown names are reported later).
fn keys_after(def: &TableDef, drops: &[String], adds: &[IndexSpec]) -> TableDef {
    let mut keys = def.clone();
    keys.indexes
        .retain(|i| !drops.iter().any(|d| d.eq_ignore_ascii_case(&i.name)));
    for add in adds {
        keys.indexes.push(IndexDef {
            name: add.name.clone(),
            columns: add
                .columns
                .iter()
                .filter_map(|c| def.column_index(c).ok())
                .collect(),
            unique: add.unique,
            root: 0,
            descending: add.descending.clone(),
        });
    }
    keys
}

/// MariaDB's 1553 for taking away the index a foreign key needs.
fn needed_index(def: &TableDef, columns: &[usize]) -> SqlError {
    let name = def
        .indexes
        .iter()
        .find(|i| i.columns.len() >= columns.len() && i.columns[..columns.len()] == *columns)
        .map_or("PRIMARY", |i| i.name.as_str());
    SqlError::new(
        1553,
        "HY000",
        format!("Cannot drop index '{name}': needed in a foreign key constraint"),
    )
}

/// The name an ALTER TABLE leaves the table with (its RENAME's, if any).
pub(crate) fn altered_name(at: &ast::AlterTable) -> Vec<String> {
    let renamed = at.operations.iter().rev().find_map(|op| match op {
        ast::AlterTableOperation::RenameTable { table_name } => match table_name {
            ast::RenameTableNameKind::As(n) | ast::RenameTableNameKind::To(n) => Some(n),
        },
        _ => None,
    });
    object_name(renamed.unwrap_or(&at.name))
}

/// CONVERT TO CHARACTER SET: every column of text (CHAR, VARCHAR, TEXT,
/// ENUM, SET, JSON) takes collation `to`, and so does the table. A TEXT
/// type grows to hold as many characters in a wider character set
/// (latin1's TEXT becomes utf8mb4's MEDIUMTEXT), as MariaDB's do; a
/// VARCHAR too long for the wider set is 1074.
fn convert_columns(r: &mut Reshape, to: Collation) -> Result<()> {
    let widest = |c: Collation| if c.charset() == "latin1" { 1u64 } else { 4 };
    for column in r.def.columns.iter_mut() {
        if !column.data_type.has_character_set() {
            continue;
        }
        let from = column.collation();
        if column.data_type.has_members() && to != Collation::default() {
            return Err(SqlError::unsupported(format!(
                "CONVERT TO CHARACTER SET {} of an ENUM or SET column",
                to.charset()
            )));
        }
        let growth = widest(to) / widest(from);
        match column.data_type {
            DataType::Text(bytes) if growth > 1 => {
                let needed = u64::from(bytes) * growth;
                column.data_type = DataType::Text(
                    [TINY_LEN, TEXT_LEN, MEDIUM_LEN]
                        .into_iter()
                        .find(|&max| u64::from(max) >= needed)
                        .unwrap_or(LONG_LEN),
                );
            }
            DataType::VarChar(n) if u64::from(n) * widest(to) > 65_535 => {
                return Err(SqlError::new(
                    1074,
                    "42000",
                    format!(
                        "Column length too big for column '{}' (max = {}); use BLOB or TEXT instead",
                        column.name,
                        65_535 / widest(to)
                    ),
                ));
            }
            _ => {}
        }
        let converted = column.clone().collate(to);
        if converted != *column {
            *column = converted;
            r.rewrites = true;
        }
    }
    r.def.collation = to;
    Ok(())
}

/// Reports a rebuild's progress in the session's slot: copying is stage 1
/// of 2, building the indexes stage 2 over the rows copied.
fn rebuild_progress(slot: &SessionSlot, step: RebuildStep, rows: u64) {
    match step {
        RebuildStep::CopyRows => slot.stage_counts().advance(rows),
        RebuildStep::BuildIndexes => {
            if slot.stage() != 2 {
                let copied = slot.stage_counts().done();
                slot.enter_stage(ENABLING_KEYS, 2, 2, copied);
            }
            slot.stage_counts().advance(rows);
        }
    }
}

/// The OK of an ALTER TABLE: rows copied, MariaDB's info line.
pub(super) fn altered(copied: u64, warnings: usize) -> Outcome {
    Outcome::Done {
        affected: copied,
        last_insert_id: 0,
        info: format!("Records: {copied}  Duplicates: 0  Warnings: {warnings}"),
    }
}

fn multiple_primary_keys() -> SqlError {
    SqlError::new(1068, "42000", "Multiple primary key defined")
}

fn unknown_key_column(name: &str) -> SqlError {
    SqlError::new(
        1072,
        "42000",
        format!("Key column '{name}' doesn't exist in table"),
    )
}

/// MariaDB's 1091 for a DROP of a column or index that is not there.
fn cannot_drop(what: &str, name: &str) -> SqlError {
    SqlError::new(
        1091,
        "42000",
        format!("Can't DROP {what} `{name}`; check that it exists"),
    )
}

/// The index an ADD names. Unnamed, it takes
/// its first column's name (`_2`, `_3`… when taken), as MariaDB names it.
fn index_spec(
    constraint: &ast::TableConstraint,
    def: &TableDef,
    added: &[IndexSpec],
) -> Result<IndexSpec> {
    let (name, columns, unique) = match constraint {
        ast::TableConstraint::Index(ix) => (ix.name.as_ref(), &ix.columns, false),
        ast::TableConstraint::Unique(u) => {
            (u.name.as_ref().or(u.index_name.as_ref()), &u.columns, true)
        }
        other => return Err(SqlError::unsupported(format!("ALTER TABLE ADD {other}"))),
    };
    let descending = descending_parts(columns);
    let columns = ident_list(columns)?;
    let name = match name {
        Some(n) => n.value.clone(),
        None => {
            let first = columns.first().cloned().unwrap_or_default();
            let taken = |n: &str| {
                def.index_position(n).is_some()
                    || added.iter().any(|a| a.name.eq_ignore_ascii_case(n))
                    || n.eq_ignore_ascii_case("PRIMARY")
            };
            let mut name = first.clone();
            let mut k = 2;
            while taken(&name) {
                name = format!("{first}_{k}");
                k += 1;
            }
            name
        }
    };
    Ok(IndexSpec {
        name,
        columns,
        unique,
        descending,
    })
}

/// A column as CHANGE / MODIFY writes it, in a table of collation
/// `table_collation` (a string without COLLATE takes the table's).
fn written_column(
    name: &ast::Ident,
    data_type: &ast::DataType,
    options: &[ast::ColumnOption],
    table_collation: lineardb_table::Collation,
) -> Result<ColumnSpec> {
    column_def(
        &ast::ColumnDef {
            name: name.clone(),
            data_type: data_type.clone(),
            options: options
                .iter()
                .map(|option| ast::ColumnOptionDef {
                    name: None,
                    option: option.clone(),
                })
                .collect(),
        },
        table_collation,
    )
}

/// CHANGE / MODIFY: column `i` defined anew (and moved); the rows are
/// rewritten when it stores its values otherwise or moves.
fn redefine_column(
    r: &mut Reshape,
    i: usize,
    spec: ColumnSpec,
    position: &Option<ast::MySQLColumnPosition>,
    new_primary_key: &mut Option<Vec<String>>,
    adds: &mut Vec<IndexSpec>,
) -> Result<()> {
    if !spec.references.is_empty() || !spec.checks.is_empty() {
        return Err(SqlError::unsupported(
            "REFERENCES or CHECK in CHANGE / MODIFY",
        ));
    }
    let name = spec.def.name.clone();
    r.check_unique_name(&name, Some(i))?;
    if !name.eq_ignore_ascii_case(&r.def.columns[i].name) {
        named_by_a_check(&r.def, i)?;
    }
    let mut column = spec.def;
    if r.def.primary_key.contains(&i) {
        // A primary key's columns are NOT NULL, said or not.
        column.nullable = false;
    }
    let old = &r.def.columns[i];
    // A new collation makes new keys; a new character set checks the
    // values (a latin1 column holds only latin1's characters).
    if column.data_type != old.data_type
        || column.fsp != old.fsp
        || column.nullable != old.nullable
        || column.auto_increment != old.auto_increment
        || column.collation() != old.collation()
    {
        r.rewrites = true;
    }
    r.def.columns[i] = column;
    if position.is_some() {
        r.move_to(i, position)?;
    }
    if spec.primary {
        if !r.def.primary_key.is_empty() || new_primary_key.is_some() {
            return Err(multiple_primary_keys());
        }
        *new_primary_key = Some(vec![name.clone()]);
    }
    if spec.unique {
        adds.push(IndexSpec::from((name.clone(), vec![name], true)));
    }
    Ok(())
}
