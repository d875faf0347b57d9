//! System variables drivers and tools read when they connect, beside
//! MariaDB's values; those that change what statements do and that
//! lineardb does not follow read as their defaults and refuse another
//! value (1235) rather than keep it and ignore it.
mod common;
use common::differential::{same_as_mariadb, Shown};
use common::mariadb::MariaDb;
use common::Server;

const READ: &[&str] = &[
    "SELECT @@auto_increment_increment, @@auto_increment_offset, @@init_connect, \
     @@net_buffer_length, @@protocol_version, @@sql_select_limit, @@sql_safe_updates, \
     @@sql_auto_is_null, @@read_only, @@log_bin, @@server_id, @@query_cache_type",
    "SELECT @@session.tx_read_only, @@autocommit, @@sql_notes",
    "START TRANSACTION READ ONLY",
    "SELECT @@tx_read_only",
    "COMMIT",
    "SELECT @@tx_read_only",
    // Set to the value they have: accepted.
    "SET sql_safe_updates = 0, auto_increment_increment = 1, sql_select_limit = DEFAULT",
    "SET sql_safe_updates = OFF, sql_auto_is_null = off",
    "SET @saved = @@sql_mode, sql_mode = 'TRADITIONAL'",
    "SET sql_mode = @saved",
    "SELECT @@sql_mode = @saved",
    "SET sql_notes = 0",
    "DROP TABLE IF EXISTS nosuch",
    "SHOW WARNINGS",
    "SET sql_notes = 1",
    "DROP TABLE IF EXISTS nosuch",
    "SHOW WARNINGS",
    // As SHOW VARIABLES and information_schema list them.
    "SHOW VARIABLES LIKE 'autocommit'",
    "SHOW SESSION VARIABLES WHERE Variable_name IN ('foreign_key_checks', 'sql_notes', \
     'net_buffer_length', 'sql_safe_updates', 'tx_isolation', 'unique_checks')",
    "SELECT * FROM information_schema.SESSION_VARIABLES \
     WHERE VARIABLE_NAME IN ('AUTOCOMMIT', 'SQL_NOTES', 'INIT_CONNECT', 'LOG_BIN') \
     ORDER BY VARIABLE_NAME",
    "SELECT VARIABLE_VALUE FROM information_schema.GLOBAL_VARIABLES \
     WHERE VARIABLE_NAME = 'PROTOCOL_VERSION'",
];

#[test]
fn variables_read_as_mariadb() {
    let server = Server::start();
    let mariadb = MariaDb::start();
    same_as_mariadb(&server, &mariadb, "sv", &[], READ, Shown::Rows);
}

#[test]
fn variables_not_followed_refuse_other_values() {
    let server = Server::start();
    for set in [
        "SET sql_safe_updates = 1",
        "SET auto_increment_increment = 2",
        "SET SESSION sql_select_limit = 10",
        "SET GLOBAL read_only = 1",
        "SET tx_read_only = 1",
        "SET TRANSACTION READ ONLY",
    ] {
        let out = server.mysql_cli().args(["-e", set]).output().unwrap();
        let err = common::text(&out.stderr);
        assert!(err.contains("ERROR 1235"), "{set}: {err}");
    }
    // Nothing was kept.
    let shown = server.sql("SELECT @@sql_safe_updates, @@auto_increment_increment, @@read_only");
    assert!(shown.ends_with("0\t1\t0\n"), "{shown}");
}
