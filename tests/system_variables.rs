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
        "SET sql_auto_is_null = 1",
        "SET auto_increment_increment = 2",
        "SET GLOBAL read_only = 1",
        "SET tx_read_only = 1",
        "SET TRANSACTION READ ONLY",
        "SET NAMES latin1",
        "SET NAMES utf8mb4 COLLATE utf8mb4_unicode_520_ci",
        "SET collation_connection = latin1_swedish_ci",
    ] {
        let out = server.mysql_cli().args(["-e", set]).output().unwrap();
        let err = common::text(&out.stderr);
        assert!(err.contains("ERROR 1235"), "{set}: {err}");
    }
    // Nothing was kept.
    let shown = server.sql("SELECT @@sql_safe_updates, @@auto_increment_increment, @@read_only");
    assert!(shown.ends_with("0\t1\t0\n"), "{shown}");
}

/// Scopes (1228, 1229, 1238), read-only variables (1238), unknown names
/// (1193), values of the wrong type (1232) or not allowed (1231), numbers
/// brought within range (1292), SET GLOBAL beside the session's value,
/// DEFAULT, and the names `@@scope.name` items get.
const SCOPES_AND_CHECKS: &[&str] = &[
    "SELECT @@session.max_connections",
    "SELECT @@global.timestamp",
    "SET SESSION max_connections = 10",
    "SET GLOBAL timestamp = 10",
    "SET @@session.version = 'x'",
    "SET version_comment = 'x'",
    "SET foo_bar = 1",
    "SELECT @@foo_bar",
    "SELECT @@global.foo_bar",
    "SET sort_buffer_size = 'abc'",
    "SET sort_buffer_size = -5",
    "SHOW WARNINGS",
    "SELECT @@sort_buffer_size",
    "SET autocommit = 2",
    "SET autocommit = 1.5",
    "SET sql_mode = 'ansi_quotes,foo'",
    "SET tx_isolation = 1",
    "SELECT @@tx_isolation, @@long_query_time, @@identity, @@autocommit, @@max_connections",
    "SET tx_isolation = 'repeatable-read'",
    "SET optimizer_switch = 'index_merge=off,mrr=on'",
    "SELECT @@optimizer_switch",
    "SET optimizer_switch = 'default'",
    "SELECT @@optimizer_switch",
    "SET optimizer_switch = 'no_such_flag=on'",
    "SELECT 1/0",
    "SELECT @@warning_count, @@error_count",
    "SET time_zone = 'Europe/Paris'",
    "SET time_zone = '+14:00'",
    "SET time_zone = 'SYSTEM'",
    "SELECT @@time_zone, @@global.time_zone, @@session.time_zone, @@local.time_zone",
    "SET session_track_schema = 1, net_write_timeout = 600, wait_timeout = 100",
    "SELECT @@net_write_timeout, @@wait_timeout, @@global.wait_timeout, @@GLOBAL.net_write_timeout",
    "SET GLOBAL sort_buffer_size = 100000",
    "SELECT @@sort_buffer_size, @@global.sort_buffer_size",
    "SET sort_buffer_size = DEFAULT",
    "SELECT @@sort_buffer_size",
    "SET GLOBAL sort_buffer_size = DEFAULT",
    "SELECT @@global.sort_buffer_size",
    "SET character_set_results = NULL",
    "SELECT @@character_set_results",
    "SET NAMES utf8mb4",
    "SET sql_mode = traditional",
    "SELECT @@sql_mode",
    "SET sql_mode = DEFAULT",
    "SHOW VARIABLES LIKE 'sql_mode'",
    "SHOW GLOBAL VARIABLES LIKE 'timestamp'",
    "SHOW VARIABLES LIKE 'autocommi_'",
    "SHOW VARIABLES LIKE 'long_query_time'",
    "SHOW GLOBAL VARIABLES LIKE 'wait_timeout'",
    "SET unique_checks = 0, foreign_key_checks = OFF",
    "SELECT @@unique_checks, @@foreign_key_checks",
    "SHOW VARIABLES WHERE Variable_name IN ('unique_checks', 'foreign_key_checks')",
    "SET unique_checks = DEFAULT, foreign_key_checks = DEFAULT",
    "SET max_allowed_packet = 1000000",
    "SELECT @@global.max_allowed_packet > 1000, @@max_allowed_packet > 1000",
    "SET GLOBAL max_connections = 5",
    "SELECT @@max_connections",
    "SET GLOBAL max_connections = 151",
    "SET @@SESSION.sql_notes = 1, @@local.net_read_timeout = 30",
    "SELECT @@net_read_timeout",
    "SELECT VARIABLE_VALUE FROM information_schema.GLOBAL_VARIABLES \
     WHERE VARIABLE_NAME = 'WAIT_TIMEOUT'",
    "SELECT VARIABLE_VALUE FROM information_schema.SESSION_VARIABLES \
     WHERE VARIABLE_NAME = 'WAIT_TIMEOUT'",
    // Without SESSION: the next transaction's level, not the session's;
    // not while a transaction is open (1568).
    "SET TRANSACTION ISOLATION LEVEL READ COMMITTED",
    "SELECT @@tx_isolation",
    "START TRANSACTION",
    "SET TRANSACTION ISOLATION LEVEL SERIALIZABLE",
    "ROLLBACK",
    "SET SESSION TRANSACTION ISOLATION LEVEL READ COMMITTED",
    "SELECT @@tx_isolation",
    "SET SESSION TRANSACTION ISOLATION LEVEL REPEATABLE READ",
    "SELECT @@tx_isolation",
    "SET CHARACTER SET utf8mb4",
    "SET CHARSET utf8mb4",
    "SELECT @@character_set_client, @@character_set_results",
    // SET STATEMENT … FOR: the variables hold for the statement alone,
    // also when it fails.
    "SET STATEMENT max_statement_time=10 FOR SELECT @@max_statement_time",
    "SELECT @@max_statement_time",
    "SET STATEMENT sql_mode='', max_statement_time=5 FOR SELECT @@sql_mode, @@max_statement_time",
    "SELECT @@sql_mode",
    "SET STATEMENT max_statement_time=10 FOR SELECT nope",
    "SELECT @@max_statement_time",
    "SET STATEMENT max_statement_time=10",
    "SET STATEMENT nosuchvar=1 FOR SELECT 1",
    // The statement's warnings outlive the variables' restoring.
    "SET STATEMENT sql_mode='' FOR SELECT 1 + 'x'",
    "SHOW WARNINGS",
    "SELECT @@sql_mode",
];

#[test]
fn scopes_types_and_errors_as_mariadb() {
    let server = Server::start();
    let mariadb = MariaDb::start();
    same_as_mariadb(
        &server,
        &mariadb,
        "sv",
        &[],
        SCOPES_AND_CHECKS,
        Shown::NamesAndRows,
    );
}

/// A session starts with the values SET GLOBAL gave; sessions already
/// running keep theirs.
#[test]
fn new_sessions_start_from_global_values() {
    let server = Server::start();
    let shown = server.sql(
        "SET GLOBAL wait_timeout = 77, GLOBAL sql_mode = 'NO_ENGINE_SUBSTITUTION'; \
         SELECT @@wait_timeout, @@sql_mode",
    );
    assert!(shown.ends_with("28800\tSTRICT_TRANS_TABLES,ERROR_FOR_DIVISION_BY_ZERO,NO_AUTO_CREATE_USER,NO_ENGINE_SUBSTITUTION\n"), "{shown}");
    let shown = server.sql("SELECT @@wait_timeout, @@sql_mode");
    assert!(shown.ends_with("77\tNO_ENGINE_SUBSTITUTION\n"), "{shown}");
    // A variable with a place of its own in the session is put there.
    server.sql("SET GLOBAL lineardb_parallel_threads = 3");
    let shown =
        server.sql("SELECT @@lineardb_parallel_threads, @@global.lineardb_parallel_threads");
    assert!(shown.ends_with("3\t3\n"), "{shown}");
}

/// `sql_select_limit` bounds the rows of a client's SELECT that has no
/// LIMIT of its own (a set operation's too), not those of its subqueries
/// or of the SELECT an INSERT or CREATE TABLE reads; `DEFAULT` lifts it.
#[test]
fn select_limit_as_mariadb() {
    let server = Server::start();
    let mariadb = MariaDb::start();
    same_as_mariadb(
        &server,
        &mariadb,
        "selim",
        &[
            "CREATE TABLE sl (a INT PRIMARY KEY, b VARCHAR(3))",
            "INSERT INTO sl VALUES (1, 'a'), (2, 'b'), (3, 'c'), (4, 'd')",
        ],
        &[
            "SET sql_select_limit = 2",
            "SELECT @@sql_select_limit",
            "SELECT * FROM sl ORDER BY a",
            "SELECT * FROM sl ORDER BY a LIMIT 3",
            "SELECT * FROM sl ORDER BY a LIMIT 1, 3",
            "SELECT * FROM (SELECT * FROM sl) x ORDER BY a",
            "SELECT (SELECT COUNT(*) FROM (SELECT a FROM sl) y)",
            "SELECT a FROM sl WHERE a IN (SELECT a FROM sl) ORDER BY a",
            "SELECT a FROM sl UNION SELECT 5 ORDER BY a",
            "(SELECT a FROM sl ORDER BY a) LIMIT 3",
            "CREATE TABLE sl2 SELECT * FROM sl",
            "SELECT COUNT(*) FROM sl2",
            "INSERT INTO sl2 SELECT * FROM sl",
            "SELECT COUNT(*) FROM sl2",
            "SELECT * FROM sl WHERE a > 1 ORDER BY a FOR UPDATE",
            "SET sql_select_limit = 0",
            "SELECT * FROM sl",
            "SET STATEMENT sql_select_limit = 1 FOR SELECT * FROM sl ORDER BY a",
            "SET sql_select_limit = DEFAULT",
            "SELECT @@sql_select_limit",
            "SELECT * FROM sl ORDER BY a",
        ],
        Shown::NamesAndRows,
    );
}

/// `sql_safe_updates` (MySQL Workbench turns it on): 1175 for a DELETE
/// without WHERE, and for an UPDATE or DELETE without LIMIT that finds its
/// rows by no key; what finds them by a key or is limited runs.
#[test]
fn safe_updates_as_mariadb() {
    let server = Server::start();
    let mariadb = MariaDb::start();
    same_as_mariadb(
        &server,
        &mariadb,
        "safeup",
        &[
            "CREATE TABLE su (id INT PRIMARY KEY, k INT, v INT, KEY (k))",
            "CREATE TABLE nokey (a INT, b INT)",
            "INSERT INTO su VALUES (1, 1, 1), (2, 2, 2), (3, 3, 3), (4, 4, 4)",
            "INSERT INTO nokey VALUES (1, 1), (2, 2)",
        ],
        &[
            "SET SQL_SAFE_UPDATES = 1",
            "SELECT @@sql_safe_updates",
            "UPDATE su SET v = 0",
            "UPDATE su SET v = 0 WHERE v = 1",
            "UPDATE su SET v = 0 WHERE 1 = 1",
            "UPDATE su SET v = 0 WHERE id > 0 OR v = 1",
            "UPDATE su SET v = 10 WHERE id = 1",
            "UPDATE su SET v = 11 WHERE k > 3",
            "UPDATE su SET v = 12 WHERE id IN (2, 3)",
            "UPDATE su SET v = 13 WHERE v = 12 LIMIT 1",
            "UPDATE su SET v = 14 LIMIT 1",
            "DELETE FROM su",
            "DELETE FROM su LIMIT 1",
            "DELETE FROM su WHERE v = 99",
            "DELETE FROM su WHERE id + 0 = 4",
            "DELETE FROM su WHERE v = 99 LIMIT 1",
            "DELETE FROM su WHERE id = 4",
            "UPDATE nokey SET b = 0 WHERE a = 1",
            "DELETE FROM nokey WHERE a = 1 LIMIT 1",
            "UPDATE su a JOIN su b ON a.id = b.id SET a.v = 1",
            "UPDATE su a JOIN su b ON a.id = b.id SET a.v = 20 WHERE a.id = 1",
            "DELETE a FROM su a JOIN su b ON a.id = b.id",
            "SELECT * FROM su ORDER BY id",
            "SELECT * FROM nokey ORDER BY a",
            "SET sql_safe_updates = OFF",
            "UPDATE su SET v = 0",
            "SET sql_safe_updates = DEFAULT",
            "SELECT @@sql_safe_updates",
        ],
        Shown::Changes,
    );
}

/// `collation_connection` (SET NAMES … COLLATE, as PHP frameworks send at
/// connect): string literals compare in it, a column's collation wins
/// over it, and the variables show it.
#[test]
fn connection_collation_as_mariadb() {
    let server = Server::start();
    let mariadb = MariaDb::start();
    same_as_mariadb(
        &server,
        &mariadb,
        "conncoll",
        &[
            "CREATE TABLE cc (id INT PRIMARY KEY, name VARCHAR(10), KEY (name))",
            "INSERT INTO cc VALUES (1, 'abc'), (2, 'ss'), (3, 'ß')",
        ],
        &[
            "SET NAMES utf8mb4 COLLATE utf8mb4_unicode_ci",
            "SELECT @@collation_connection, @@character_set_connection, @@character_set_client",
            "SELECT COLLATION('a'), 'ß' = 'ss', 'a' = 'A', 'b' > 'A', COLLATION(CONCAT('a', 'b'))",
            "SELECT COLLATION(name), name = 'ABC' FROM cc ORDER BY id",
            "SELECT id FROM cc WHERE name = 'ß' ORDER BY id",
            "SELECT id FROM cc WHERE name = 'ABC' ORDER BY id",
            "CREATE TABLE cc2 AS SELECT 'x' AS s",
            "SELECT COLLATION(s) FROM cc2",
            "SET collation_connection = utf8mb4_bin",
            "SELECT @@collation_connection, 'a' = 'A', COLLATION('x')",
            "SET NAMES utf8mb4",
            "SELECT @@collation_connection, 'ß' = 'ss', COLLATION('x')",
            "SET NAMES utf8",
            "SELECT @@collation_connection",
            "SET collation_connection = utf8mb4_unicode_ci",
            "SELECT 'ß' = 'ss', 'ß' IN ('ss', 'x'), STRCMP('ß', 'ss')",
            "SET collation_connection = DEFAULT",
            "SELECT @@collation_connection, 'ß' = 'ss'",
        ],
        Shown::Rows,
    );
}
