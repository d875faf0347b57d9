//! Name scopes: the columns of a table under an alias, table names
//! qualified by the current database.
use crate::error::{Result, SqlError};
use crate::expr::ScopeColumn;
use crate::result::ColumnKind;
use lineardb_table::{Table, TableDef};

/// The columns of `table`, named under `alias`.
pub(crate) fn scope_of(table: &Table, alias: &str) -> Vec<ScopeColumn> {
    scope_of_def(table.def(), alias)
}

/// The columns of a table of definition `def`, named under `alias`.
pub(crate) fn scope_of_def(def: &TableDef, alias: &str) -> Vec<ScopeColumn> {
    def.columns
        .iter()
        .enumerate()
        .map(|(i, c)| ScopeColumn {
            stored_timestamp: c.data_type == lineardb_table::DataType::Timestamp,
            name: c.name.clone(),
            table: alias.to_string(),
            kind: ColumnKind::of_column(c),
            hidden: false,
            numbered: c.data_type.has_members().then_some(c.data_type),
            json: crate::result::declared_json(def, i),
            origin: None,
        })
        .collect()
}

/// `[db, name]` or `[name]` (in `current`) as (db, name).
pub(crate) fn qualify(current: Option<&str>, parts: &[String]) -> Result<(String, String)> {
    match parts {
        [name] => Ok((
            current.ok_or_else(SqlError::no_database)?.to_string(),
            name.clone(),
        )),
        [db, name] => Ok((db.clone(), name.clone())),
        _ => Err(SqlError::syntax(format!(
            "bad table name {}",
            parts.join(".")
        ))),
    }
}

/// `information_schema`, which every account sees.
pub(crate) fn is_information_schema(db: &str) -> bool {
    db.eq_ignore_ascii_case("information_schema")
}

pub(crate) fn is_performance_schema(db: &str) -> bool {
    db.eq_ignore_ascii_case(crate::catalog::perf_schema::SCHEMA)
}

/// Schemas no statement may drop: the server's own.
pub(crate) fn is_system_schema(db: &str) -> bool {
    is_information_schema(db)
        || db.eq_ignore_ascii_case("performance_schema")
        || db.eq_ignore_ascii_case("mysql")
}
