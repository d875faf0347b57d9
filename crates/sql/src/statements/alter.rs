//! ALTER TABLE and RENAME TABLE. Index changes build or drop trees (built
//! in parallel); changes that leave every row as it is — renaming the
//! table or a column, a column's DEFAULT or comment — change the
//! definition in one catalog transaction. Changes that would rewrite the
//! rows (adding, dropping, moving a column, changing its type) are not
//! done yet and say so (1235).
use super::ddl::{column_def, column_default, current_timestamp_digits, ident_list};
use crate::error::{Result, SqlError};
use crate::expr::object_name;
use crate::privileges::bits::{ALTER, CREATE, DROP, INSERT};
use crate::result::Outcome;
use crate::session::Session;
use lineardb_table::{ColumnDefault, DataType, TableDef};
use sqlparser::ast;

/// An index ALTER TABLE adds: name, columns, unique.
type IndexSpec = (String, Vec<String>, bool);

impl Session {
    pub(crate) fn alter_table(&mut self, at: &ast::AlterTable) -> Result<Outcome> {
        let parts = object_name(&at.name);
        let mut t = self.table(&parts, ALTER)?;
        let mut def = t.def().clone();
        let mut drops: Vec<String> = Vec::new();
        let mut adds: Vec<IndexSpec> = Vec::new();
        // Checked in full before anything changes.
        for op in &at.operations {
            match op {
                ast::AlterTableOperation::AddConstraint { constraint, .. } => {
                    adds.push(index_spec(constraint, adds.len())?)
                }
                ast::AlterTableOperation::DropIndex { name } => drops.push(name.value.clone()),
                ast::AlterTableOperation::RenameTable { table_name } => {
                    let name = match table_name {
                        ast::RenameTableNameKind::As(n) | ast::RenameTableNameKind::To(n) => n,
                    };
                    let (new_db, new_name) = self.qualified(&object_name(name))?;
                    if def.temporary.is_some() {
                        return Err(SqlError::unsupported("renaming a temporary table"));
                    }
                    self.require_table(&new_db, &new_name, CREATE | INSERT)?;
                    def.database = new_db;
                    def.name = new_name;
                }
                ast::AlterTableOperation::RenameColumn {
                    old_column_name,
                    new_column_name,
                } => {
                    let i = column_position(&def, &old_column_name.value)?;
                    rename_column(&mut def, i, &new_column_name.value)?;
                }
                ast::AlterTableOperation::AlterColumn { column_name, op } => {
                    let i = column_position(&def, &column_name.value)?;
                    let column = &mut def.columns[i];
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
                    let i = column_position(&def, &old_name.value)?;
                    redefine_column(&mut def, i, new_name, data_type, options, position)?;
                }
                ast::AlterTableOperation::ModifyColumn {
                    col_name,
                    data_type,
                    options,
                    column_position: position,
                } => {
                    let i = column_position(&def, &col_name.value)?;
                    redefine_column(&mut def, i, col_name, data_type, options, position)?;
                }
                ast::AlterTableOperation::AutoIncrement { value, .. } => {
                    let text = value.value.to_string();
                    def.auto_increment_start = text
                        .parse()
                        .map_err(|_| SqlError::syntax(format!("AUTO_INCREMENT = {text}")))?;
                }
                other => return Err(SqlError::unsupported(format!("ALTER TABLE {other}"))),
            }
        }
        let renamed = !def.database.eq_ignore_ascii_case(&t.def().database)
            || !def.name.eq_ignore_ascii_case(&t.def().name);
        if renamed {
            self.require_table(&t.def().database, &t.def().name, DROP)?;
            if !self.engine.database_exists(&def.database)? {
                // A rename alone is a file rename to MariaDB.
                return Err(if at.operations.len() == 1 {
                    rename_failed(t.def(), &def.database, &def.name)
                } else {
                    SqlError::new(
                        1049,
                        "42000",
                        format!("Unknown database '{}'", def.database),
                    )
                });
            }
        }
        for name in &drops {
            t = self.engine.remove_index(&t, name)?;
        }
        // Index columns are named as the statement leaves them (after its
        // renames); the build reads the table as it stands.
        for (_, columns, _) in adds.iter_mut() {
            for c in columns.iter_mut() {
                let i = def
                    .columns
                    .iter()
                    .position(|d| d.name.eq_ignore_ascii_case(c))
                    .ok_or_else(|| {
                        SqlError::new(
                            1072,
                            "42000",
                            format!("Key column '{c}' doesn't exist in table"),
                        )
                    })?;
                *c = t.def().columns[i].name.clone();
            }
        }
        if !adds.is_empty() {
            // Index builds use the session's parallel threads (default: the
            // cores).
            let threads = self.parallel_threads;
            t = self.engine.add_indexes(&t, &adds, threads, &|_| {})?.0;
        }
        def.indexes = t.def().indexes.clone();
        if def != *t.def() {
            self.engine.alter_definition(&t, def)?;
        }
        Ok(Outcome::done(0))
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

/// The index an ADD names: (name, columns, unique).
fn index_spec(constraint: &ast::TableConstraint, added: usize) -> Result<IndexSpec> {
    match constraint {
        ast::TableConstraint::Index(ix) => Ok((
            ix.name
                .as_ref()
                .map(|n| n.value.clone())
                .unwrap_or_else(|| format!("idx_{}", added + 1)),
            ident_list(&ix.columns)?,
            false,
        )),
        ast::TableConstraint::Unique(u) => Ok((
            u.name
                .as_ref()
                .or(u.index_name.as_ref())
                .map(|n| n.value.clone())
                .unwrap_or_else(|| format!("uniq_{}", added + 1)),
            ident_list(&u.columns)?,
            true,
        )),
        other => Err(SqlError::unsupported(format!("ALTER TABLE ADD {other}"))),
    }
}

/// The position of column `name` in `def`, else MariaDB's 1054.
fn column_position(def: &TableDef, name: &str) -> Result<usize> {
    def.columns
        .iter()
        .position(|c| c.name.eq_ignore_ascii_case(name))
        .ok_or_else(|| {
            SqlError::new(
                1054,
                "42S22",
                format!("Unknown column '{name}' in '{}'", def.name),
            )
        })
}

/// Names column `i` `new_name` (1060 when another column has it).
fn rename_column(def: &mut TableDef, i: usize, new_name: &str) -> Result<()> {
    if def
        .columns
        .iter()
        .enumerate()
        .any(|(j, c)| j != i && c.name.eq_ignore_ascii_case(new_name))
    {
        return Err(SqlError::new(
            1060,
            "42S21",
            format!("Duplicate column name '{new_name}'"),
        ));
    }
    def.columns[i].name = new_name.to_string();
    Ok(())
}

/// CHANGE / MODIFY: column `i` defined anew, which must store its values
/// as before (same type, same NULL-ability, same place) until rows can be
/// rewritten.
fn redefine_column(
    def: &mut TableDef,
    i: usize,
    name: &ast::Ident,
    data_type: &ast::DataType,
    options: &[ast::ColumnOption],
    position: &Option<ast::MySQLColumnPosition>,
) -> Result<()> {
    let written = ast::ColumnDef {
        name: name.clone(),
        data_type: data_type.clone(),
        options: options
            .iter()
            .map(|option| ast::ColumnOptionDef {
                name: None,
                option: option.clone(),
            })
            .collect(),
    };
    let spec = column_def(&written)?;
    let old = &def.columns[i];
    let in_key = def.primary_key.contains(&i);
    let rewrites = spec.def.data_type != old.data_type
        || spec.def.fsp != old.fsp
        || (spec.def.nullable != old.nullable && !in_key)
        || spec.def.auto_increment != old.auto_increment
        || position.is_some()
        || spec.primary
        || spec.unique;
    if rewrites {
        return Err(SqlError::unsupported(
            "ALTER TABLE changing a column's type, NULL-ability or place, or adding a key with it",
        ));
    }
    rename_column(def, i, &name.value)?;
    let column = &mut def.columns[i];
    column.default = spec.def.default;
    column.on_update_now = spec.def.on_update_now;
    column.comment = spec.def.comment;
    column.display_width = spec.def.display_width;
    Ok(())
}
