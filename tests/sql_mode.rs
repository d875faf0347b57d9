//! `sql_mode` beside a real MariaDB 10.11: strict by default (a value its
//! column cannot hold fails the statement), and without STRICT_TRANS_TABLES
//! or STRICT_ALL_TABLES an INSERT or an UPDATE clamps numbers into range,
//! cuts strings and reads a number's leading digits, with MariaDB's
//! warnings and info; `SET sql_mode = DEFAULT` restores the default.
mod common;
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
    "UPDATE nm SET a = a * 10, d = 999.999, b = CONCAT(b, 'xyz') WHERE a > 100",
    "SHOW WARNINGS",
    "UPDATE nm SET e = '7x', h = 3000, c = -1",
    "SHOW WARNINGS",
    "UPDATE nm SET a = 1000 WHERE a = 1 LIMIT 1",
    "SELECT a, b, c, d, e, f, h, v, LENGTH(t) FROM nm ORDER BY a",
    "SET sql_mode = DEFAULT",
    "UPDATE nm SET a = 1000 WHERE a = 127",
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
fn strict_and_lenient_writes_as_mariadb() {
    let server = Server::start();
    let mariadb = MariaDb::start();
    common::differential::same_rows_and_messages(&server, &mariadb, "sqm", SETUP, STEPS, &[]);
}
