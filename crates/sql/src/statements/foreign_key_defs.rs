//! FOREIGN KEY definitions, as InnoDB takes them: the constraint's name
//! (given, else `<table>_ibfk_<n>`), an index on the child's columns when
//! no key begins with them (named for the constraint, else the first
//! column), and a parent key that begins with the referenced columns, of
//! compatible types — else 1005 (errno 150). With `foreign_key_checks`
//! off the parent may be missing. SHOW CREATE TABLE prints them as
//! MariaDB does.
use crate::error::{Result, SqlError};
use crate::expr::object_name;
use crate::session::Session;
use lineardb_table::{
    ColumnDef, DataType, ForeignKeyDef, ReferentialAction, TableDef, TableSpec, Value,
};
use sqlparser::ast;

/// A FOREIGN KEY clause, parsed.
pub(crate) struct ForeignKeySpec {
    /// `CONSTRAINT name`, else the index name after FOREIGN KEY.
    pub name: Option<String>,
    pub columns: Vec<String>,
    /// (database, table); the database is the child's when not given.
    pub parent: (String, String),
    pub parent_columns: Vec<String>,
    pub on_delete: ReferentialAction,
    pub on_update: ReferentialAction,
}

impl ForeignKeySpec {
    pub fn parse(fk: &ast::ForeignKeyConstraint, database: &str) -> Result<ForeignKeySpec> {
        let parts = object_name(&fk.foreign_table);
        let parent = match parts.as_slice() {
            [name] => (database.to_string(), name.clone()),
            [db, name] => (db.clone(), name.clone()),
            _ => return Err(SqlError::syntax(format!("REFERENCES {}", fk.foreign_table))),
        };
        let action = |a: &Option<ast::ReferentialAction>| -> Result<ReferentialAction> {
            Ok(match a {
                None | Some(ast::ReferentialAction::Restrict) => ReferentialAction::Restrict,
                Some(ast::ReferentialAction::NoAction) => ReferentialAction::NoAction,
                Some(ast::ReferentialAction::Cascade) => ReferentialAction::Cascade,
                Some(ast::ReferentialAction::SetNull) => ReferentialAction::SetNull,
                Some(other) => {
                    return Err(SqlError::unsupported(format!("ON DELETE/UPDATE {other}")))
                }
            })
        };
        // MATCH is parsed and ignored by InnoDB, as here; DEFERRABLE and
        // the like MariaDB does not take.
        if let Some(c) = &fk.characteristics {
            return Err(SqlError::unsupported(format!("FOREIGN KEY … {c}")));
        }
        if fk.columns.len() != fk.referred_columns.len() || fk.columns.is_empty() {
            return Err(SqlError::new(
                1239,
                "42000",
                format!(
                    "Incorrect foreign key definition for '{}': Key reference and table reference don't match",
                    fk.name.as_ref().map_or("foreign key without name", |n| n.value.as_str())
                ),
            ));
        }
        Ok(ForeignKeySpec {
            name: fk
                .name
                .as_ref()
                .or(fk.index_name.as_ref())
                .map(|n| n.value.clone()),
            columns: fk.columns.iter().map(|c| c.value.clone()).collect(),
            parent,
            parent_columns: fk
                .referred_columns
                .iter()
                .map(|c| c.value.clone())
                .collect(),
            on_delete: action(&fk.on_delete)?,
            on_update: action(&fk.on_update)?,
        })
    }
}

/// An index a foreign key needs on the child: name, column positions.
pub(crate) type NeededIndex = (String, Vec<usize>);

/// InnoDB's refusal of a FOREIGN KEY it cannot keep.
pub(crate) fn incorrectly_formed(db: &str, table: &str) -> SqlError {
    SqlError::new(
        1005,
        "HY000",
        format!(
            "Can't create table `{db}`.`{table}` (errno: 150 \"Foreign key constraint is incorrectly formed\")"
        ),
    )
}

/// The child's side resolved: `child` is the table being defined (its
/// columns, primary key and indexes as they will be); `parent` the
/// referenced table's definition (`None`: it does not exist, allowed
/// only with checks off; the child itself when it references itself).
/// Returns the definition and, when no key of the child begins with its
/// columns, the index to add (name, columns).
pub(crate) fn resolve(
    spec: ForeignKeySpec,
    child: &TableDef,
    parent: Option<&TableDef>,
    checks: bool,
) -> Result<(ForeignKeyDef, Option<NeededIndex>)> {
    let formed = || incorrectly_formed(&child.database, &child.name);
    let columns = spec
        .columns
        .iter()
        .map(|c| {
            child.column_index(c).map_err(|_| {
                SqlError::new(
                    1072,
                    "42000",
                    format!("Key column '{c}' doesn't exist in table"),
                )
            })
        })
        .collect::<Result<Vec<_>>>()?;
    let taken = |name: &str| {
        child
            .foreign_keys
            .iter()
            .any(|f| f.name.eq_ignore_ascii_case(name))
    };
    let name = match &spec.name {
        Some(n) => {
            if taken(n) {
                return Err(SqlError::new(
                    1826,
                    "HY000",
                    format!("Duplicate FOREIGN KEY constraint name '{n}'"),
                ));
            }
            n.clone()
        }
        None => {
            let mut k = child.foreign_keys.len() + 1;
            while taken(&format!("{}_ibfk_{k}", child.name)) {
                k += 1;
            }
            format!("{}_ibfk_{k}", child.name)
        }
    };
    let sets_null = [spec.on_delete, spec.on_update].contains(&ReferentialAction::SetNull);
    if sets_null && columns.iter().any(|&c| !child.columns[c].nullable) {
        return Err(formed());
    }
    match parent {
        Some(p) => {
            let parent_columns = spec
                .parent_columns
                .iter()
                .map(|c| p.column_index(c).map_err(|_| formed()))
                .collect::<Result<Vec<_>>>()?;
            if !begins_a_key(p, &parent_columns) {
                return Err(formed());
            }
            for (&c, &pc) in columns.iter().zip(&parent_columns) {
                if !compatible(&child.columns[c], &p.columns[pc]) {
                    return Err(formed());
                }
            }
        }
        None if checks => return Err(formed()),
        None => {}
    }
    let index = (!begins_a_key(child, &columns)).then(|| {
        let first = &child.columns[columns[0]].name;
        let base = spec.name.clone().unwrap_or_else(|| first.clone());
        let mut index_name = base.clone();
        let mut k = 2;
        while child.index_position(&index_name).is_some() {
            index_name = format!("{base}_{k}");
            k += 1;
        }
        (index_name, columns.clone())
    });
    Ok((
        ForeignKeyDef {
            name,
            columns,
            parent_database: spec.parent.0,
            parent_table: spec.parent.1,
            parent_columns: spec.parent_columns,
            on_delete: spec.on_delete,
            on_update: spec.on_update,
        },
        index,
    ))
}

/// Whether the primary key or an index of `def` begins with `columns`.
pub(crate) fn begins_a_key(def: &TableDef, columns: &[usize]) -> bool {
    std::iter::once(&def.primary_key)
        .chain(def.indexes.iter().map(|i| &i.columns))
        .any(|k| k.len() >= columns.len() && k[..columns.len()] == *columns)
}

/// InnoDB's rule: the same integer type and sign, strings with strings
/// (lengths may differ), else the same type.
fn compatible(a: &ColumnDef, b: &ColumnDef) -> bool {
    let text = |t: &DataType| matches!(t, DataType::Char(_) | DataType::VarChar(_));
    let bytes = |t: &DataType| matches!(t, DataType::Binary(_) | DataType::VarBinary(_));
    match (&a.data_type, &b.data_type) {
        (x, y) if text(x) && text(y) => true,
        (x, y) if bytes(x) && bytes(y) => true,
        (x, y) => x == y,
    }
}

/// The CONSTRAINT lines of SHOW CREATE TABLE.
pub(crate) fn shown(def: &TableDef) -> Vec<String> {
    def.foreign_keys
        .iter()
        .map(|fk| format!("  {}", clause(def, fk, false)))
        .collect()
}

/// `CONSTRAINT … FOREIGN KEY (…) REFERENCES … (…) [ON …]` as MariaDB
/// writes it; the parent with its database when asked or when it is in
/// another one.
fn clause(def: &TableDef, fk: &ForeignKeyDef, parent_with_database: bool) -> String {
    let columns: Vec<String> = fk
        .columns
        .iter()
        .map(|&c| format!("`{}`", def.columns[c].name))
        .collect();
    let parent_columns: Vec<String> = fk.parent_columns.iter().map(|c| format!("`{c}`")).collect();
    let parent = if parent_with_database || !fk.parent_database.eq_ignore_ascii_case(&def.database)
    {
        format!("`{}`.`{}`", fk.parent_database, fk.parent_table)
    } else {
        format!("`{}`", fk.parent_table)
    };
    let mut s = format!(
        "CONSTRAINT `{}` FOREIGN KEY ({}) REFERENCES {parent} ({})",
        fk.name,
        columns.join(", "),
        parent_columns.join(", ")
    );
    for (what, action) in [("DELETE", fk.on_delete), ("UPDATE", fk.on_update)] {
        if let Some(a) = action_text(action) {
            s.push_str(&format!(" ON {what} {a}"));
        }
    }
    s
}

/// An action as MariaDB prints it (RESTRICT, the default, is not).
pub(crate) fn action_text(a: ReferentialAction) -> Option<&'static str> {
    match a {
        ReferentialAction::Restrict => None,
        ReferentialAction::NoAction => Some("NO ACTION"),
        ReferentialAction::Cascade => Some("CASCADE"),
        ReferentialAction::SetNull => Some("SET NULL"),
    }
}

/// The constraint as MariaDB's 1451/1452/1701 messages quote it.
pub(crate) fn quoted(def: &TableDef, fk: &ForeignKeyDef, parent_with_database: bool) -> String {
    format!(
        "`{}`.`{}`, {}",
        def.database,
        def.name,
        clause(def, fk, parent_with_database)
    )
}

impl Session {
    /// Whether `foreign_key_checks` is on (the default).
    pub(crate) fn foreign_key_checks(&self) -> bool {
        match self.variable("foreign_key_checks") {
            Some(Value::Int(0) | Value::UInt(0)) => false,
            Some(Value::Bytes(b)) => !b.eq_ignore_ascii_case(b"off") && b != b"0",
            _ => true,
        }
    }

    /// The definition `def` of a table referencing `parent`: the child
    /// itself when it references itself, else the stored table's.
    pub(crate) fn parent_def(
        &mut self,
        def: &TableDef,
        parent: &(String, String),
    ) -> Option<TableDef> {
        if parent.0.eq_ignore_ascii_case(&def.database) && parent.1.eq_ignore_ascii_case(&def.name)
        {
            return Some(def.clone());
        }
        self.engine
            .table(&parent.0, &parent.1)
            .ok()
            .map(|t| t.def().clone())
    }

    /// A foreign key of another table that references `db.name`: the
    /// child's definition and the key.
    pub(crate) fn referenced_by(
        &mut self,
        db: &str,
        name: &str,
    ) -> Result<Option<(TableDef, ForeignKeyDef)>> {
        let references = self.tables.references(&self.engine)?;
        let key = (db.to_ascii_lowercase(), name.to_ascii_lowercase());
        for ((child_db, child_name), k) in references.get(&key).into_iter().flatten() {
            let child = (
                child_db.to_ascii_lowercase(),
                child_name.to_ascii_lowercase(),
            );
            if child == key {
                continue;
            }
            let t = self.engine.table(child_db, child_name)?;
            if let Some(fk) = t.def().foreign_keys.get(*k) {
                return Ok(Some((t.def().clone(), fk.clone())));
            }
        }
        Ok(None)
    }

    /// CREATE TABLE's FOREIGN KEYs, resolved into `spec` (with the
    /// indexes they need).
    pub(crate) fn add_foreign_keys(
        &mut self,
        spec: &mut TableSpec,
        foreign_keys: Vec<ForeignKeySpec>,
    ) -> Result<()> {
        let checks = self.foreign_key_checks();
        for fk in foreign_keys {
            let child = spec_def(spec);
            let parent = self.parent_def(&child, &fk.parent);
            let (def, index) = resolve(fk, &child, parent.as_ref(), checks)?;
            if let Some((name, columns)) = index {
                let columns = columns
                    .iter()
                    .map(|&c| spec.columns[c].name.clone())
                    .collect();
                spec.indexes.push((name, columns, false).into());
            }
            spec.foreign_keys.push(def);
        }
        Ok(())
    }
}

/// The definition a spec will make (keys by position; trees not yet).
pub(crate) fn spec_def(spec: &TableSpec) -> TableDef {
    let position = |name: &String| {
        spec.columns
            .iter()
            .position(|c| c.name.eq_ignore_ascii_case(name))
    };
    TableDef {
        database: spec.database.clone(),
        name: spec.name.clone(),
        columns: spec.columns.clone(),
        primary_key: spec.primary_key.iter().filter_map(position).collect(),
        primary_root: 0,
        blob_root: 0,
        indexes: spec
            .indexes
            .iter()
            .map(|i| lineardb_table::IndexDef {
                name: i.name.clone(),
                columns: i.columns.iter().filter_map(position).collect(),
                unique: i.unique,
                root: 0,
                descending: i.descending.clone(),
            })
            .collect(),
        temporary: None,
        auto_increment_start: 0,
        comment: String::new(),
        storage_options: Vec::new(),
        collation: Default::default(),
        foreign_keys: spec.foreign_keys.clone(),
        checks: spec.checks.clone(),
    }
}
