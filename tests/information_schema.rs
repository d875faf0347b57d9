//! `information_schema` beside a real MariaDB 10.11: the tables' columns
//! (names, types, nullability, as MariaDB's own COLUMNS lists them and as
//! the wire describes them), their rows for a database of tables, keys,
//! constraints and a view, queries that join and filter them as ORMs and
//! dump tools do, and rows filtered by the account's privileges.
mod common;
use common::differential::{assert_same, outcomes, same_as_mariadb, Shown};
use common::mariadb::MariaDb;
use common::Server;

/// The tables lineardb gives rows for.
const TABLES: &[&str] = &[
    "SCHEMATA",
    "TABLES",
    "COLUMNS",
    "STATISTICS",
    "VIEWS",
    "TABLE_CONSTRAINTS",
    "KEY_COLUMN_USAGE",
    "REFERENTIAL_CONSTRAINTS",
    "CHECK_CONSTRAINTS",
    "PARTITIONS",
    "CHARACTER_SETS",
    "COLLATIONS",
    "COLLATION_CHARACTER_SET_APPLICABILITY",
    "ENGINES",
    "PLUGINS",
    "PROCESSLIST",
    "USER_PRIVILEGES",
    "SCHEMA_PRIVILEGES",
    "TABLE_PRIVILEGES",
    "COLUMN_PRIVILEGES",
    "ROUTINES",
    "PARAMETERS",
    "TRIGGERS",
    "EVENTS",
    "SESSION_VARIABLES",
    "GLOBAL_VARIABLES",
    "SESSION_STATUS",
    "GLOBAL_STATUS",
    "KEYWORDS",
    "INNODB_METRICS",
    "INNODB_TRX",
    "INNODB_LOCKS",
    "INNODB_LOCK_WAITS",
];

const SETUP: &[&str] = &[
    "CREATE TABLE p (id INT PRIMARY KEY AUTO_INCREMENT, code VARCHAR(10) NOT NULL UNIQUE, \
     name VARCHAR(50) DEFAULT 'n''x', created TIMESTAMP(3) DEFAULT CURRENT_TIMESTAMP(3) \
     ON UPDATE CURRENT_TIMESTAMP(3), price DECIMAL(10,2), f FLOAT, d DOUBLE NOT NULL DEFAULT 1.5, \
     b BLOB, t TEXT COMMENT 'a text', e ENUM('a','b') NOT NULL, s SET('x','y'), bi BIGINT UNSIGNED, \
     ti TINYINT(1), y YEAR, dt DATE, tm TIME(2), bn BINARY(4), vb VARBINARY(9), j JSON, \
     l LONGTEXT, bt BIT(5), KEY k_name (name, code)) COMMENT 'parents'",
    "CREATE TABLE c (id INT NOT NULL, pid INT, qty SMALLINT DEFAULT 0, PRIMARY KEY (id), \
     CONSTRAINT fk_p FOREIGN KEY (pid) REFERENCES p (id) ON DELETE CASCADE, \
     CONSTRAINT chk_q CHECK (qty >= 0), UNIQUE KEY u_pq (pid, qty)) DEFAULT CHARSET=latin1",
    "CREATE VIEW v AS SELECT id, code FROM p WHERE id > 1",
    "CREATE VIEW vx (n, dd, nm, en, pr) AS SELECT id + 1, d * 2, name, e, price * 2 FROM p",
    "INSERT INTO p (code, e) VALUES ('a', 'a'), ('b', 'b')",
];

const STEPS: &[&str] = &[
    "SELECT * FROM information_schema.SCHEMATA WHERE SCHEMA_NAME = 'isx'",
    "SELECT TABLE_CATALOG, TABLE_SCHEMA, TABLE_NAME, TABLE_TYPE, ROW_FORMAT, TABLE_ROWS, \
     AUTO_INCREMENT, TABLE_COLLATION, CHECKSUM, CREATE_OPTIONS, TABLE_COMMENT, TEMPORARY \
     FROM information_schema.TABLES WHERE TABLE_SCHEMA = 'isx' ORDER BY TABLE_NAME",
    "SELECT * FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = 'isx' \
     ORDER BY TABLE_NAME, ORDINAL_POSITION",
    "SELECT TABLE_CATALOG, TABLE_SCHEMA, TABLE_NAME, NON_UNIQUE, INDEX_SCHEMA, INDEX_NAME, \
     SEQ_IN_INDEX, COLUMN_NAME, COLLATION, SUB_PART, PACKED, NULLABLE, INDEX_TYPE, COMMENT, \
     INDEX_COMMENT, IGNORED FROM information_schema.STATISTICS WHERE TABLE_SCHEMA = 'isx' \
     ORDER BY TABLE_NAME, INDEX_NAME, SEQ_IN_INDEX",
    "SELECT TABLE_CATALOG, TABLE_SCHEMA, TABLE_NAME, VIEW_DEFINITION, CHECK_OPTION, IS_UPDATABLE, \
     DEFINER, SECURITY_TYPE, ALGORITHM FROM information_schema.VIEWS WHERE TABLE_SCHEMA = 'isx'",
    "SELECT * FROM information_schema.TABLE_CONSTRAINTS WHERE TABLE_SCHEMA = 'isx' \
     ORDER BY TABLE_NAME, CONSTRAINT_NAME",
    "SELECT * FROM information_schema.KEY_COLUMN_USAGE WHERE TABLE_SCHEMA = 'isx' \
     ORDER BY TABLE_NAME, CONSTRAINT_NAME, ORDINAL_POSITION",
    "SELECT * FROM information_schema.REFERENTIAL_CONSTRAINTS WHERE CONSTRAINT_SCHEMA = 'isx'",
    "SELECT * FROM information_schema.CHECK_CONSTRAINTS WHERE CONSTRAINT_SCHEMA = 'isx' \
     ORDER BY TABLE_NAME, CONSTRAINT_NAME",
    "SELECT TABLE_SCHEMA, TABLE_NAME, PARTITION_NAME, PARTITION_METHOD, TABLE_ROWS, \
     PARTITION_COMMENT, NODEGROUP FROM information_schema.PARTITIONS WHERE TABLE_SCHEMA = 'isx' \
     ORDER BY TABLE_NAME",
    // Reflection as ORMs query it: a join of the constraint tables.
    "SELECT kcu.CONSTRAINT_NAME, kcu.COLUMN_NAME, kcu.REFERENCED_TABLE_NAME, \
     kcu.REFERENCED_COLUMN_NAME, rc.UPDATE_RULE, rc.DELETE_RULE \
     FROM information_schema.KEY_COLUMN_USAGE kcu JOIN information_schema.REFERENTIAL_CONSTRAINTS rc \
     ON rc.CONSTRAINT_SCHEMA = kcu.CONSTRAINT_SCHEMA AND rc.CONSTRAINT_NAME = kcu.CONSTRAINT_NAME \
     WHERE kcu.TABLE_SCHEMA = DATABASE() AND kcu.TABLE_NAME = 'c'",
    "SELECT TABLE_NAME, COUNT(*), MAX(ORDINAL_POSITION) FROM information_schema.COLUMNS \
     WHERE TABLE_SCHEMA = 'isx' AND TABLE_NAME IN ('p', 'c') GROUP BY TABLE_NAME ORDER BY 1",
    "SELECT COUNT(*) FROM information_schema.TABLES t WHERE t.TABLE_SCHEMA = 'isx' \
     AND t.TABLE_TYPE = 'BASE TABLE' AND EXISTS (SELECT 1 FROM information_schema.STATISTICS s \
     WHERE s.TABLE_SCHEMA = t.TABLE_SCHEMA AND s.TABLE_NAME = t.TABLE_NAME AND s.NON_UNIQUE = 1)",
    "SELECT ENGINE FROM information_schema.ENGINES WHERE ENGINE = 'nosuch'",
    "SELECT * FROM information_schema.COLLATIONS WHERE COLLATION_NAME IN \
     ('utf8mb4_general_ci', 'utf8mb4_bin', 'utf8mb4_unicode_ci', 'latin1_swedish_ci', 'binary') \
     ORDER BY ID",
    "SELECT * FROM information_schema.CHARACTER_SETS WHERE CHARACTER_SET_NAME IN \
     ('utf8mb4', 'latin1', 'binary') ORDER BY 1",
    "SELECT * FROM information_schema.COLLATION_CHARACTER_SET_APPLICABILITY \
     WHERE COLLATION_NAME = 'latin1_bin'",
    "SELECT COUNT(*) FROM information_schema.ROUTINES WHERE ROUTINE_SCHEMA = 'isx'",
    "SELECT COUNT(*) FROM information_schema.TRIGGERS WHERE TRIGGER_SCHEMA = 'isx'",
    "SELECT USER, DB, COMMAND, INFO FROM information_schema.PROCESSLIST WHERE ID = CONNECTION_ID()",
    "SELECT * FROM information_schema.nosuch",
    // Status variables (their values move: compared as what they are).
    "SELECT VARIABLE_NAME, VARIABLE_VALUE > 0 FROM information_schema.GLOBAL_STATUS \
     WHERE VARIABLE_NAME IN ('QUESTIONS', 'CONNECTIONS', 'INNODB_PAGE_SIZE') ORDER BY 1",
    "SELECT VARIABLE_VALUE >= 0 FROM information_schema.GLOBAL_STATUS WHERE VARIABLE_NAME = 'UPTIME'",
    "SELECT VARIABLE_NAME, VARIABLE_VALUE FROM information_schema.SESSION_STATUS \
     WHERE VARIABLE_NAME LIKE 'COM\\_UPDATE' OR VARIABLE_NAME = 'COM_DELETE' ORDER BY 1",
    "SELECT s.VARIABLE_VALUE = g.VARIABLE_VALUE FROM information_schema.SESSION_STATUS s \
     JOIN information_schema.GLOBAL_STATUS g USING (VARIABLE_NAME) \
     WHERE VARIABLE_NAME = 'INNODB_PAGE_SIZE'",
    "SELECT COUNT(*), COUNT(DISTINCT WORD) FROM information_schema.KEYWORDS",
    "SELECT WORD FROM information_schema.KEYWORDS WHERE WORD IN \
     ('SELECT', 'ACCESSIBLE', '&&', 'ZEROFILL', 'RETURNING', 'nosuch') ORDER BY 1",
    // The engine's metrics lineardb measures, as InnoDB defines them.
    "SELECT NAME, SUBSYSTEM, IF(TYPE = 'value', COUNT > 0, COUNT >= 0), MIN_COUNT IS NULL, \
     IF(TYPE = 'value', AVG_COUNT IS NULL, AVG_COUNT IS NULL OR AVG_COUNT >= 0), \
     TIME_ENABLED <= NOW(), TIME_DISABLED, TIME_RESET, ENABLED, TYPE, COMMENT \
     FROM information_schema.INNODB_METRICS WHERE NAME IN ('buffer_pool_size', \
     'buffer_pool_pages_total', 'innodb_page_size', 'buffer_pool_reads') ORDER BY NAME",
    "SELECT COUNT(*) FROM information_schema.INNODB_METRICS WHERE NAME IN ('buffer_pool_pages_data', \
     'buffer_pool_pages_free', 'buffer_pages_read', 'buffer_pages_written', \
     'os_log_bytes_written', 'log_writes') AND ENABLED = 1 AND COUNT = COUNT_RESET",
    // SHOW statements made from the same rows.
    "SHOW CHARACTER SET LIKE 'utf8mb4'",
    "SHOW CHARSET WHERE Maxlen = 4 AND Charset LIKE 'utf8%'",
    "SHOW COLLATION WHERE Collation IN ('utf8mb4_bin', 'latin1_bin', 'binary')",
    "SHOW COLLATION LIKE 'utf8mb4_general_ci'",
];

/// SHOW statements tools send for a table's shape, compared with their
/// column names.
const SHOWN: &[&str] = &[
    "SHOW FULL COLUMNS FROM p",
    "SHOW FULL COLUMNS FROM c LIKE 'q%'",
    "DESCRIBE c",
    "DESC p",
    "EXPLAIN c",
    "SHOW CREATE DATABASE isx",
    "SHOW CREATE SCHEMA IF NOT EXISTS isx",
    "SHOW CREATE DATABASE nosuch",
    "SHOW TABLE STATUS WHERE Name = 'nosuch'",
    "SHOW TABLE STATUS FROM isx LIKE 'v'",
    // SHOW INDEX with WHERE (CARDINALITY is an estimate: unique keys only).
    "SHOW INDEXES FROM p WHERE (Non_unique = 0)",
    "SHOW KEYS FROM p IN isx WHERE Key_name = 'code' AND Seq_in_index = 1",
    "SHOW INDEX IN isx.p WHERE Column_name LIKE 'i%'",
    "SHOW INDEX FROM v",
];

#[test]
fn information_schema_rows_as_mariadb_gives_them() {
    let server = Server::start();
    let mariadb = MariaDb::start();
    same_as_mariadb(&server, &mariadb, "isx", SETUP, STEPS, Shown::Rows);
    same_as_mariadb(&server, &mariadb, "isx", SETUP, SHOWN, Shown::NamesAndRows);
}

#[test]
fn information_schema_columns_as_mariadb_defines_them() {
    let server = Server::start();
    let mariadb = MariaDb::start();
    let listed = TABLES
        .iter()
        .map(|t| format!("'{t}'"))
        .collect::<Vec<_>>()
        .join(", ");
    let definitions = format!(
        "SELECT TABLE_NAME, COLUMN_NAME, ORDINAL_POSITION, COLUMN_TYPE, IS_NULLABLE, DATA_TYPE, \
         NUMERIC_PRECISION, DATETIME_PRECISION FROM information_schema.COLUMNS \
         WHERE TABLE_SCHEMA = 'information_schema' AND TABLE_NAME IN ({listed}) \
         AND (TABLE_NAME, COLUMN_NAME) NOT IN (('INNODB_METRICS', 'TYPE'), \
         ('INNODB_LOCKS', 'lock_mode'), ('INNODB_LOCKS', 'lock_type'), \
         ('INNODB_TRX', 'trx_isolation_level')) \
         ORDER BY TABLE_NAME, ORDINAL_POSITION"
    );
    let mut steps = vec![definitions];
    // What the wire says of each table's columns: names and types.
    steps.extend(
        TABLES
            .iter()
            .filter(|t| !["INNODB_METRICS", "INNODB_LOCKS", "INNODB_TRX"].contains(*t))
            .map(|t| format!("SELECT * FROM information_schema.{t} LIMIT 0")),
    );
    // INNODB_METRICS.TYPE, INNODB_LOCKS.lock_mode and lock_type and
    // INNODB_TRX.trx_isolation_level are VARCHARs here (MariaDB's are ENUMs).
    steps.push(
        "SELECT lock_id, lock_trx_id, lock_table, lock_index, lock_space, lock_page, lock_rec, \
         lock_data FROM information_schema.INNODB_LOCKS LIMIT 0"
            .to_string(),
    );
    steps.push(
        "SELECT trx_id, trx_state, trx_started, trx_requested_lock_id, trx_wait_started, \
         trx_weight, trx_mysql_thread_id, trx_query, trx_operation_state, trx_tables_in_use, \
         trx_tables_locked, trx_lock_structs, trx_lock_memory_bytes, trx_rows_locked, \
         trx_rows_modified, trx_concurrency_tickets, trx_unique_checks, \
         trx_foreign_key_checks, trx_last_foreign_key_error, trx_is_read_only, \
         trx_autocommit_non_locking FROM information_schema.INNODB_TRX LIMIT 0"
            .to_string(),
    );
    steps.push(
        "SELECT NAME, SUBSYSTEM, COUNT, MAX_COUNT, MIN_COUNT, AVG_COUNT, COUNT_RESET, \
         MAX_COUNT_RESET, MIN_COUNT_RESET, AVG_COUNT_RESET, TIME_ENABLED, TIME_DISABLED, \
         TIME_ELAPSED, TIME_RESET, ENABLED, COMMENT FROM information_schema.INNODB_METRICS LIMIT 0"
            .to_string(),
    );
    let steps: Vec<&str> = steps.iter().map(String::as_str).collect();
    same_as_mariadb(&server, &mariadb, "isc", &[], &steps[..1], Shown::Rows);
    for shown in [Shown::NamesAndRows, Shown::TypesAndRows] {
        same_as_mariadb(&server, &mariadb, "isc", &[], &steps[1..], shown);
    }
}

/// An account sees the databases, tables and columns it has privileges
/// on, and nothing of the rest.
#[test]
fn information_schema_rows_follow_privileges() {
    let server = Server::start();
    let mariadb = MariaDb::start();
    let setup = [
        "CREATE TABLE seen (a INT PRIMARY KEY, b INT)",
        "CREATE TABLE hidden (a INT PRIMARY KEY)",
        "DROP USER IF EXISTS 'isu'@'%'",
        "CREATE USER 'isu'@'%'",
        "GRANT SELECT (b) ON isp.seen TO 'isu'@'%'",
        "GRANT INSERT (a, b), UPDATE (b) ON isp.seen TO 'isu'@'%'",
        "GRANT DELETE ON isp.seen TO 'isu'@'%' WITH GRANT OPTION",
        "GRANT SELECT, INSERT, CREATE VIEW ON isq.* TO 'isu'@'%'",
        "GRANT PROCESS, RELOAD ON *.* TO 'isu'@'%'",
    ];
    let as_root = |url: &str| outcomes(url, "isp", &setup, &[], Shown::Rows);
    as_root(&server.url(""));
    as_root(&format!("mysql://root@127.0.0.1:{}/", mariadb.port));
    let steps = [
        "SELECT SCHEMA_NAME FROM information_schema.SCHEMATA WHERE SCHEMA_NAME = 'isp'",
        "SELECT TABLE_NAME FROM information_schema.TABLES WHERE TABLE_SCHEMA = 'isp'",
        "SELECT COLUMN_NAME, PRIVILEGES FROM information_schema.COLUMNS \
         WHERE TABLE_SCHEMA = 'isp' ORDER BY TABLE_NAME, ORDINAL_POSITION",
        "SELECT INDEX_NAME FROM information_schema.STATISTICS WHERE TABLE_SCHEMA = 'isp'",
        // Its own grants, one row per privilege.
        "SELECT * FROM information_schema.USER_PRIVILEGES",
        "SELECT * FROM information_schema.SCHEMA_PRIVILEGES ORDER BY PRIVILEGE_TYPE",
        "SELECT * FROM information_schema.TABLE_PRIVILEGES",
        "SELECT * FROM information_schema.COLUMN_PRIVILEGES ORDER BY COLUMN_NAME, PRIVILEGE_TYPE",
        // Nothing but reading: 1044 names the account's host pattern.
        "CREATE TABLE information_schema.t (a INT)",
        "USE performance_schema",
    ];
    let as_user = |port: u16| {
        use mysql::prelude::*;
        let mut c = mysql::Conn::new(
            mysql::Opts::from_url(&format!("mysql://isu@127.0.0.1:{port}/")).unwrap(),
        )
        .unwrap();
        steps
            .iter()
            .map(|s| {
                let rows: Vec<mysql::Row> = match c.query(*s) {
                    Ok(rows) => rows,
                    Err(e) => return format!("{s} -> {e}"),
                };
                let rows: Vec<Vec<String>> = rows
                    .into_iter()
                    .map(|r| r.unwrap().into_iter().map(|v| format!("{v:?}")).collect())
                    .collect();
                format!("{s} -> {rows:?}")
            })
            .collect::<Vec<String>>()
    };
    assert_same(&as_user(server.port), &as_user(mariadb.port));
}

/// The server's own schemas: listed, entered with USE, read without a
/// database name once there, closed to changes (1044, 1142), and the
/// `mysql` schema's tables and its `user` view as tools read them.
#[test]
fn system_schemas_as_mariadb_gives_them() {
    let server = Server::start();
    let mariadb = MariaDb::start();
    let steps = [
        "SHOW DATABASES LIKE '%schema'",
        "SHOW DATABASES LIKE 'mysql'",
        "SELECT SCHEMA_NAME FROM information_schema.SCHEMATA \
         WHERE SCHEMA_NAME IN ('mysql', 'performance_schema', 'information_schema') ORDER BY 1",
        "CREATE TABLE information_schema.t (a INT)",
        "CREATE TABLE performance_schema.t (a INT)",
        "DROP TABLE information_schema.TABLES",
        "USE information_schema",
        "SELECT DATABASE()",
        "SHOW TABLES LIKE 'KEY_COLUMN%'",
        "SELECT COUNT(*) FROM SCHEMATA WHERE SCHEMA_NAME = 'information_schema'",
        "CREATE TABLE t (a INT)",
        "USE INFORMATION_SCHEMA",
        "SELECT DATABASE()",
        "USE performance_schema",
        "SELECT DATABASE()",
        "USE mysql",
        "SELECT Host, User, Select_priv, Grant_priv, Create_tablespace_priv, ssl_type, \
         ssl_cipher, max_questions, max_user_connections, password_expired, is_role, \
         default_role, max_statement_time FROM user WHERE User = 'root' AND Host = 'localhost'",
        "SELECT 1 FROM mysql.user LIMIT 1",
        "SELECT COUNT(*) FROM roles_mapping",
        "SELECT * FROM mysql.innodb_index_stats WHERE database_name = 'nosuch'",
        "SELECT * FROM mysql.procs_priv WHERE Db = 'nosuch'",
        "SHOW TABLES FROM mysql LIKE 'proc%'",
        "SHOW FULL TABLES FROM mysql LIKE 'user'",
        "SHOW TABLES FROM mysql LIKE 'columns_p%'",
    ];
    same_as_mariadb(&server, &mariadb, "iss", &[], &steps, Shown::NamesAndRows);
}

/// What a row-lock wait shows in INNODB_TRX, INNODB_LOCK_WAITS and
/// INNODB_LOCKS, joined as tools join them ("who blocks whom"), on
/// lineardb and on MariaDB: the waiting UPDATE in LOCK WAIT for the
/// transaction holding the row, the locks on the table's primary key, and
/// nothing once the holder rolls back.
fn lock_wait_outcomes(url: &str) -> Vec<String> {
    use mysql::prelude::*;
    let opts = mysql::Opts::from_url(url).unwrap();
    let mut c = mysql::Conn::new(opts.clone()).unwrap();
    for s in [
        "DROP DATABASE IF EXISTS lw",
        "CREATE DATABASE lw",
        "CREATE TABLE lw.t (id INT PRIMARY KEY, v INT)",
        "INSERT INTO lw.t VALUES (1, 1), (2, 2)",
    ] {
        c.query_drop(s).unwrap();
    }
    let mut holder = mysql::Conn::new(opts.clone()).unwrap();
    let holder_id: u64 = holder
        .query_first("SELECT CONNECTION_ID()")
        .unwrap()
        .unwrap();
    holder.query_drop("BEGIN").unwrap();
    holder
        .query_drop("UPDATE lw.t SET v = 10 WHERE id = 1")
        .unwrap();
    let mut waiter = mysql::Conn::new(opts).unwrap();
    let waiter_id: u64 = waiter
        .query_first("SELECT CONNECTION_ID()")
        .unwrap()
        .unwrap();
    let waiting = std::thread::spawn(move || {
        waiter
            .query_drop("UPDATE lw.t SET v = 20 WHERE id = 1")
            .map_err(|e| e.to_string())
    });
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    std::thread::sleep(std::time::Duration::from_millis(250));
    while c
        .query_first::<u64, _>("SELECT COUNT(*) FROM information_schema.INNODB_LOCK_WAITS")
        .unwrap()
        != Some(1)
    {
        assert!(std::time::Instant::now() < deadline, "no lock wait shown");
        std::thread::sleep(std::time::Duration::from_millis(250));
    }
    let mut out = Vec::new();
    // InnoDB refreshes what these tables show only when they were not
    // read for 0.1 s: each read waits longer than that.
    let rows = |c: &mut mysql::Conn, sql: String| -> String {
        std::thread::sleep(std::time::Duration::from_millis(250));
        let rows: Vec<mysql::Row> = c.query(sql).unwrap();
        format!(
            "{:?}",
            rows.into_iter()
                .map(|r| r.unwrap().into_iter().map(|v| format!("{v:?}")).collect())
                .collect::<Vec<Vec<String>>>()
        )
    };
    out.push(rows(
        &mut c,
        format!(
            "SELECT r.trx_mysql_thread_id = {waiter_id}, b.trx_mysql_thread_id = {holder_id}, \
             r.trx_state, b.trx_state, r.trx_query, r.trx_requested_lock_id = \
             w.requested_lock_id, r.trx_wait_started IS NOT NULL, b.trx_wait_started, \
             b.trx_is_read_only, r.trx_autocommit_non_locking, \
             b.trx_started <= r.trx_wait_started, \
             l.lock_trx_id = w.requesting_trx_id, l.lock_mode, l.lock_type, l.lock_table, \
             l.lock_index, h.lock_trx_id = w.blocking_trx_id, h.lock_table \
             FROM information_schema.INNODB_LOCK_WAITS w \
             JOIN information_schema.INNODB_TRX r ON r.trx_id = w.requesting_trx_id \
             JOIN information_schema.INNODB_TRX b ON b.trx_id = w.blocking_trx_id \
             JOIN information_schema.INNODB_LOCKS l ON l.lock_id = w.requested_lock_id \
             JOIN information_schema.INNODB_LOCKS h ON h.lock_id = w.blocking_lock_id"
        ),
    ));
    out.push(rows(
        &mut c,
        "SELECT COUNT(*) FROM information_schema.INNODB_LOCKS".to_string(),
    ));
    holder.query_drop("ROLLBACK").unwrap();
    waiting.join().unwrap().unwrap();
    out.push(rows(
        &mut c,
        format!(
            "SELECT COUNT(*) FROM information_schema.INNODB_TRX \
             WHERE trx_mysql_thread_id IN ({holder_id}, {waiter_id})"
        ),
    ));
    out.push(rows(
        &mut c,
        "SELECT COUNT(*) FROM information_schema.INNODB_LOCK_WAITS".to_string(),
    ));
    // An open transaction that changed rows shows, running.
    holder.query_drop("BEGIN").unwrap();
    holder
        .query_drop("UPDATE lw.t SET v = 11 WHERE id = 2")
        .unwrap();
    out.push(rows(
        &mut c,
        format!(
            "SELECT trx_state, trx_query, trx_is_read_only, trx_autocommit_non_locking, \
             trx_isolation_level, trx_wait_started FROM information_schema.INNODB_TRX \
             WHERE trx_mysql_thread_id = {holder_id}"
        ),
    ));
    holder.query_drop("COMMIT").unwrap();
    out
}

#[test]
fn row_lock_waits_show_in_innodb_tables_as_in_mariadb() {
    let server = Server::start();
    let mariadb = MariaDb::start();
    let ours = lock_wait_outcomes(&server.url(""));
    let theirs = lock_wait_outcomes(&format!("mysql://root@127.0.0.1:{}/", mariadb.port));
    assert_same(&ours, &theirs);
}
