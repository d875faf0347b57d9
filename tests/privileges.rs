//! The privilege matrix, against MariaDB 10.11 itself: for each grant an
//! account may hold and each statement it may try, lineardb and a private
//! MariaDB server must both allow it, or both refuse it with the same error
//! code (and, for the access-denied errors, the same message). Every pair
//! starts from the same fixture on both servers.
mod common;

use common::mariadb::MariaDb;
use common::Server;
use mysql::prelude::Queryable;
use mysql::{Conn, Opts};

/// What each account holds besides USAGE.
const GRANTS: &[&str] = &[
    "USAGE ON *.*",
    "SELECT ON pm.*",
    "INSERT ON pm.*",
    "UPDATE ON pm.*",
    "DELETE ON pm.*",
    "CREATE ON pm.*",
    "DROP ON pm.*",
    "INDEX ON pm.*",
    "ALTER ON pm.*",
    "ALL PRIVILEGES ON pm.*",
    "SELECT ON pm.* WITH GRANT OPTION",
    "SELECT ON pm.t",
    "INSERT ON pm.t",
    "UPDATE ON pm.t",
    "DELETE ON pm.t",
    "DROP ON pm.t",
    "ALTER ON pm.t",
    "INDEX ON pm.t",
    "SELECT (a) ON pm.t",
    "INSERT (id, a) ON pm.t",
    "UPDATE (a) ON pm.t",
    "SELECT ON *.*",
    "CREATE USER ON *.*",
    "RELOAD ON *.*",
    "PROCESS ON *.*",
    "SUPER ON *.*",
    "SHOW DATABASES ON *.*",
    "SELECT ON pm.vd",
    "SELECT ON pm.vi",
    "CREATE VIEW ON pm.*",
    "CREATE VIEW, DROP ON pm.*",
    "SHOW VIEW ON pm.*",
    "BINLOG MONITOR ON *.*",
    "SLAVE MONITOR ON *.*",
];

/// What the account tries.
const STATEMENTS: &[&str] = &[
    "SELECT * FROM pm.t",
    "SELECT a FROM pm.t",
    "SELECT b FROM pm.t",
    "SELECT id FROM pm.t WHERE a = 1",
    "SELECT * FROM other.t",
    "SELECT COUNT(*) FROM mysql.global_priv",
    "INSERT INTO pm.t VALUES (9, 9, 9)",
    "INSERT INTO pm.t (id, a) VALUES (8, 8)",
    "UPDATE pm.t SET a = 5",
    "UPDATE pm.t SET b = 5",
    "DELETE FROM pm.t",
    "CREATE TABLE pm.n (x INT PRIMARY KEY)",
    "DROP TABLE pm.t",
    "TRUNCATE TABLE pm.t",
    "ALTER TABLE pm.t ADD INDEX ic (b)",
    "CREATE INDEX ib ON pm.t (b)",
    "DROP INDEX ia ON pm.t",
    "CREATE DATABASE pm2",
    "DROP DATABASE pm",
    "DROP DATABASE other",
    "DROP DATABASE mysql",
    "USE pm",
    "USE other",
    "SHOW TABLES FROM pm",
    "SHOW CREATE TABLE pm.t",
    "SHOW COLUMNS FROM pm.t",
    "SHOW INDEX FROM pm.t",
    "SHOW CREATE TABLE other.t",
    "CREATE USER x1",
    "DROP USER victim",
    "SET PASSWORD FOR victim = PASSWORD('v')",
    "GRANT SELECT ON pm.* TO victim",
    "GRANT SELECT ON pm.t TO victim",
    "GRANT SELECT ON *.* TO victim",
    "SHOW GRANTS FOR victim",
    "SHOW GRANTS",
    "FLUSH TABLES",
    "SHOW ENGINE INNODB STATUS",
    "SET GLOBAL innodb_flush_log_at_trx_commit = 1",
    "SET GLOBAL wait_timeout = 28800",
    "SHOW MASTER STATUS",
    "SHOW SLAVE STATUS",
    "SHOW BINARY LOGS",
    "SELECT * FROM performance_schema.events_statements_summary_by_digest",
    // Views: a DEFINER view reads with its definer's rights, an INVOKER one
    // with the reader's.
    "SELECT * FROM pm.vd",
    "SELECT * FROM pm.vi",
    "CREATE VIEW pm.v2 AS SELECT 1 AS one",
    "CREATE VIEW pm.v2 AS SELECT a FROM pm.t",
    "CREATE OR REPLACE VIEW pm.vd AS SELECT b FROM pm.t",
    "ALTER VIEW pm.vd AS SELECT b FROM pm.t",
    "CREATE DEFINER=root@localhost VIEW pm.v3 AS SELECT 1 AS one",
    "SHOW CREATE VIEW pm.vd",
    "DROP VIEW pm.vd",
];

const FIXTURE: &[&str] = &[
    "DROP DATABASE IF EXISTS pm",
    "DROP DATABASE IF EXISTS pm2",
    "DROP DATABASE IF EXISTS other",
    "DROP USER IF EXISTS u, x1, victim",
    "CREATE DATABASE pm",
    "CREATE DATABASE other",
    "CREATE TABLE pm.t (id INT PRIMARY KEY, a INT, b INT, KEY ia (a))",
    "INSERT INTO pm.t VALUES (1, 1, 1), (2, 2, 2)",
    "CREATE TABLE other.t (id INT PRIMARY KEY)",
    "CREATE USER victim",
    "CREATE USER u IDENTIFIED BY 'pw'",
    "CREATE DEFINER=root@localhost VIEW pm.vd AS SELECT a FROM pm.t",
    "CREATE DEFINER=root@localhost SQL SECURITY INVOKER VIEW pm.vi AS SELECT a FROM pm.t",
];

#[derive(Debug, PartialEq)]
enum Outcome {
    Allowed,
    /// Error code, and the message for the access-denied errors.
    Refused(u16, Option<String>),
}

fn root(port: u16) -> Conn {
    Conn::new(Opts::from_url(&format!("mysql://root@127.0.0.1:{port}/")).unwrap()).unwrap()
}

/// Sets up the fixture and the account on one server, then runs `statement`
/// as that account.
fn attempt(port: u16, grant: &str, statement: &str) -> Outcome {
    let mut r = root(port);
    for sql in FIXTURE {
        r.query_drop(sql).unwrap_or_else(|e| panic!("{sql}: {e}"));
    }
    let g = format!("GRANT {grant}");
    let (privileges, on) = g.split_once(" ON ").unwrap();
    let (level, option) = match on.split_once(" WITH ") {
        Some((l, o)) => (l, format!(" WITH {o}")),
        None => (on, String::new()),
    };
    r.query_drop(format!("{privileges} ON {level} TO u{option}"))
        .unwrap_or_else(|e| panic!("{grant}: {e}"));
    let mut u =
        Conn::new(Opts::from_url(&format!("mysql://u:pw@127.0.0.1:{port}/")).unwrap()).unwrap();
    match u.query_drop(statement) {
        Ok(()) => Outcome::Allowed,
        Err(mysql::Error::MySqlError(e)) => {
            let message = matches!(e.code, 1044 | 1045 | 1142 | 1143 | 1227).then_some(e.message);
            Outcome::Refused(e.code, message)
        }
        Err(e) => panic!("{grant} / {statement}: {e}"),
    }
}

#[test]
fn privilege_matrix_matches_mariadb() {
    let mariadb = MariaDb::start();
    let lineardb = Server::start();
    let mut differences = Vec::new();
    let mut allowed = 0;
    let mut refused = 0;
    for grant in GRANTS {
        for statement in STATEMENTS {
            let expected = attempt(mariadb.port, grant, statement);
            let got = attempt(lineardb.port, grant, statement);
            match &expected {
                Outcome::Allowed => allowed += 1,
                Outcome::Refused(..) => refused += 1,
            }
            if got != expected {
                differences.push(format!(
                    "GRANT {grant}; {statement}\n  MariaDB:  {expected:?}\n  lineardb: {got:?}"
                ));
            }
        }
    }
    eprintln!(
        "{} pairs: MariaDB allowed {allowed}, refused {refused}; {} differ",
        GRANTS.len() * STATEMENTS.len(),
        differences.len()
    );
    if let Ok(path) = std::env::var("PRIVILEGE_MATRIX_REPORT") {
        std::fs::write(path, differences.join("\n")).unwrap();
    }
    assert!(
        differences.is_empty(),
        "{} of {} pairs differ from MariaDB:\n{}",
        differences.len(),
        GRANTS.len() * STATEMENTS.len(),
        differences.join("\n")
    );
}
