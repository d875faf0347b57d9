//! `sql_mode` beside a real MariaDB 10.11: strict by default (a value its
//! column cannot hold fails the statement), and without STRICT_TRANS_TABLES
//! or STRICT_ALL_TABLES an INSERT clamps numbers into range, cuts strings
//! and reads a number's leading digits, with MariaDB's warnings; `SET
//! sql_mode = DEFAULT` restores the default.
mod common;
use common::differential::{same_as_mariadb, Shown};
use common::mariadb::MariaDb;
use common::Server;

const SETUP: &[&str] = &[
    "CREATE TABLE nm (a TINYINT, b VARCHAR(3), c INT UNSIGNED, d DECIMAL(4,2), e INT, \
     f TEXT, h YEAR, v VARBINARY(2), t TINYTEXT)",
];

const STEPS: &[&str] = &[
    "SELECT @@sql_mode",
    "INSERT INTO nm (a) VALUES (300)",
    "SHOW WARNINGS",
    "INSERT INTO nm (b) VALUES ('abcd')",
    "SET sql_mode = ''",
    "SELECT @@sql_mode",
    "INSERT INTO nm VALUES (300, 'abcdef', -5, 123.456, '12abc', 'ok', 1900, 'xyz', NULL)",
    "SHOW WARNINGS",
    "INSERT INTO nm (a, e) VALUES (-300, 'abc'), (1, '-4.5x')",
    "SHOW WARNINGS",
    "INSERT INTO nm (a, t) VALUES (2, REPEAT('x', 300))",
    "SHOW WARNINGS",
    "SELECT a, b, c, d, e, f, h, v, LENGTH(t) FROM nm ORDER BY a",
    "SET sql_mode = DEFAULT",
    "SELECT @@sql_mode",
    "INSERT INTO nm (a) VALUES (300)",
    "SET sql_mode = 'ANSI_QUOTES,STRICT_ALL_TABLES'",
    "INSERT INTO nm (a) VALUES (300)",
    "SET sql_mode = 'ANSI_QUOTES'",
    "INSERT INTO nm (b) VALUES ('abcd')",
    "SHOW WARNINGS",
    "SELECT COUNT(*) FROM nm",
];

#[test]
fn strict_and_lenient_inserts_as_mariadb() {
    let server = Server::start();
    let mariadb = MariaDb::start();
    same_as_mariadb(&server, &mariadb, "sqm", SETUP, STEPS, Shown::Rows);
}
