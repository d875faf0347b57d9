//! `information_schema`: read-only tables with MariaDB 10.11's names and
//! columns, their rows made from the catalog when a query plans them and
//! filtered by what the session's account may see (as MariaDB filters
//! them). Queries read them as any table: joins, WHERE, ORDER BY.
//!
//! A table lineardb has no rows for yet is error 1235 rather than empty;
//! tables of objects lineardb does not have (routines, triggers, events,
//! partitions, roles) are empty, as they are in a MariaDB without them.
mod columns;
mod engine_metrics;
mod keywords;
mod privileges;
mod schema_objects;
mod server_objects;
mod transactions;

pub(crate) use schema_objects::column_key;

use crate::catalog::registry::Registry;
use crate::error::{Result, SqlError};
use crate::privileges::grants::Grants;
use lineardb_table::{DataType, Engine, Value};

/// The database name the tables live in.
pub(crate) const SCHEMA: &str = "information_schema";

/// A column of an `information_schema` table.
#[derive(Debug, Clone, Copy)]
pub(crate) struct InfoColumn {
    pub name: &'static str,
    pub data_type: DataType,
    /// An integer's display width (`bigint(21)`); None for the type's own.
    pub width: Option<u32>,
    /// A DATETIME's fractional digits.
    pub fsp: u8,
    pub nullable: bool,
}

impl InfoColumn {
    /// The column as a result shows it, seen as a column of `table`.
    pub(crate) fn column(&self, table: &str, org_table: &str) -> crate::result::Column {
        let mut col =
            crate::result::Column::expr(self.name, crate::result::ColumnKind::of(self.data_type));
        col.org_name = self.name.to_string();
        col.table = table.to_string();
        col.org_table = org_table.to_string();
        col.schema = SCHEMA.to_string();
        col.nullable = self.nullable;
        col.data_type = Some(self.data_type);
        col.fsp = self.fsp;
        col.length = crate::result::display_length(self.data_type, self.width, self.fsp);
        col
    }
}

/// An `information_schema` table: its name as MariaDB spells it and its
/// columns.
#[derive(Debug, Clone, Copy)]
pub(crate) struct InfoTable {
    pub name: &'static str,
    pub columns: &'static [InfoColumn],
}

/// What a table's rows are made from: the catalog and the session's
/// account.
pub(crate) struct InfoContext<'a> {
    pub engine: &'a Engine,
    pub registry: &'a Registry,
    pub grants: &'a Grants,
    /// The session's user: PROCESSLIST shows only its threads to an
    /// account without PROCESS.
    pub user: &'a str,
    /// The session's id (its own statement reading these tables is no
    /// transaction of INNODB_TRX).
    pub session: u64,
    /// A view's VIEW_DEFINITION (its canonical text, every table named
    /// with its database) and whether rows may be changed through it.
    pub view_definition: &'a dyn Fn(&lineardb_table::ViewDef) -> (String, bool),
    /// A view's columns as the table it reads as would have them; `None`
    /// when it cannot be planned now.
    pub view_columns:
        &'a dyn Fn(&lineardb_table::ViewDef) -> Option<Vec<lineardb_table::ColumnDef>>,
    /// The system variables and their values as SHOW [GLOBAL] VARIABLES
    /// gives them.
    pub variables: &'a dyn Fn(bool) -> Vec<Vec<Value>>,
    /// The status variables and their values as SHOW [GLOBAL] STATUS gives
    /// them.
    pub status: &'a dyn Fn(bool) -> Vec<(&'static str, String)>,
}

impl InfoTable {
    /// The table called `name` (any case).
    pub(crate) fn find(name: &str) -> Option<InfoTable> {
        columns::TABLES
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|&(name, columns)| InfoTable { name, columns })
    }

    /// The table called `name`, one this module defines (SHOW statements
    /// made from information_schema name theirs).
    pub(crate) fn named(name: &str) -> InfoTable {
        InfoTable::find(name).expect("an information_schema table")
    }

    /// Every table, by name.
    pub(crate) fn all() -> impl Iterator<Item = InfoTable> {
        columns::TABLES
            .iter()
            .map(|&(name, columns)| InfoTable { name, columns })
    }

    /// Its rows now, in column order.
    pub(crate) fn rows(self, cx: &InfoContext<'_>) -> Result<Vec<Vec<Value>>> {
        use schema_objects as s;
        use server_objects as v;
        Ok(match self.name {
            "SCHEMATA" => s::schemata(cx)?,
            "TABLES" => s::tables(cx)?,
            "COLUMNS" => s::columns(cx)?,
            "STATISTICS" => s::statistics(cx)?,
            "VIEWS" => s::views(cx)?,
            "TABLE_CONSTRAINTS" => s::table_constraints(cx)?,
            "KEY_COLUMN_USAGE" => s::key_column_usage(cx)?,
            "REFERENTIAL_CONSTRAINTS" => s::referential_constraints(cx)?,
            "CHECK_CONSTRAINTS" => s::check_constraints(cx)?,
            "PARTITIONS" => s::partitions(cx)?,
            "CHARACTER_SETS" => v::character_sets(),
            "COLLATIONS" => v::collations(),
            "COLLATION_CHARACTER_SET_APPLICABILITY" => v::collation_applicability(),
            "ENGINES" => v::engines(),
            "PLUGINS" => v::plugins(),
            "USER_PRIVILEGES" => privileges::user_privileges(cx)?,
            "SCHEMA_PRIVILEGES" => privileges::schema_privileges(cx)?,
            "TABLE_PRIVILEGES" => privileges::table_privileges(cx)?,
            "COLUMN_PRIVILEGES" => privileges::column_privileges(cx)?,
            "PROCESSLIST" => v::processlist(cx),
            "SESSION_VARIABLES" | "GLOBAL_VARIABLES" => {
                (cx.variables)(self.name == "GLOBAL_VARIABLES")
                    .into_iter()
                    .map(|mut r| {
                        r[0] = Value::str(&r[0].to_text().unwrap_or_default().to_ascii_uppercase());
                        r
                    })
                    .collect()
            }
            "SESSION_STATUS" | "GLOBAL_STATUS" => (cx.status)(self.name == "GLOBAL_STATUS")
                .into_iter()
                .map(|(name, value)| {
                    vec![Value::str(&name.to_ascii_uppercase()), Value::str(&value)]
                })
                .collect(),
            "KEYWORDS" => keywords::KEYWORDS
                .iter()
                .map(|w| vec![Value::str(w)])
                .collect(),
            // The INNODB_ tables need PROCESS, as in MariaDB.
            "INNODB_METRICS" | "INNODB_TRX" | "INNODB_LOCKS" | "INNODB_LOCK_WAITS"
                if cx.grants.global & crate::privileges::bits::PROCESS == 0 =>
            {
                return Err(SqlError::new(
                    1227,
                    "42000",
                    "Access denied; you need (at least one of) the PROCESS privilege(s) for \
                     this operation",
                ))
            }
            "INNODB_METRICS" => engine_metrics::innodb_metrics(cx),
            "INNODB_TRX" => transactions::innodb_trx(cx),
            "INNODB_LOCKS" => transactions::innodb_locks(cx),
            "INNODB_LOCK_WAITS" => transactions::innodb_lock_waits(cx),
            // Objects lineardb does not have (FILES: tablespace files,
            // empty in MariaDB too but for NDB).
            "ROUTINES" | "PARAMETERS" | "TRIGGERS" | "EVENTS" | "APPLICABLE_ROLES"
            | "ENABLED_ROLES" | "PROFILING" | "FILES" => Vec::new(),
            other => return Err(SqlError::unsupported(format!("information_schema.{other}"))),
        })
    }
}

/// Column grants' and table grants' names, as MariaDB lists a column's
/// PRIVILEGES.
pub(crate) fn column_privilege_names(bits: u64) -> String {
    use crate::privileges::bits::{INSERT, REFERENCES, SELECT, UPDATE};
    [
        (SELECT, "select"),
        (INSERT, "insert"),
        (UPDATE, "update"),
        (REFERENCES, "references"),
    ]
    .iter()
    .filter(|(b, _)| bits & b != 0)
    .map(|(_, n)| *n)
    .collect::<Vec<_>>()
    .join(",")
}
