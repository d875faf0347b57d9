//! What the server knows besides user tables: accounts and grants, the
//! registry of sessions, information_schema and performance_schema.
pub(crate) mod account_name;
pub(crate) mod accounts;
pub(crate) mod authentication;
pub(crate) mod definitions;
pub(crate) mod information_schema;
pub(crate) mod perf_schema;
pub(crate) mod registry;
pub(crate) mod statement_progress;
pub(crate) mod system_variables;
pub(crate) mod table_locks;

/// The storage engine's name wherever MariaDB shows one (SHOW CREATE
/// TABLE, information_schema.TABLES and ENGINES, SHOW TABLE STATUS,
/// `default_storage_engine`): MariaDB's default engine's. Applications
/// key behaviour on it (Django creates no index of its own for a foreign
/// key of an InnoDB table and reads index order only there), and a dump
/// naming another engine does not load back into MariaDB (1286). `ENGINE=
/// lineardb` is still taken in CREATE TABLE.
pub(crate) const ENGINE_NAME: &str = "InnoDB";
