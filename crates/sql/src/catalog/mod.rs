//! What the server knows besides user tables: accounts and grants, the
//! registry of sessions, information_schema and performance_schema.
pub(crate) mod account_name;
pub(crate) mod accounts;
pub(crate) mod authentication;
pub(crate) mod definitions;
pub(crate) mod information_schema;
pub(crate) mod perf_schema;
pub(crate) mod registry;
pub(crate) mod system_variables;
pub(crate) mod table_locks;
