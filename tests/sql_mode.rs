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
    "CREATE TABLE ai (id INT AUTO_INCREMENT PRIMARY KEY, v INT)",
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
    "SET sql_mode = 'NO_ENGINE_SUBSTITUTION,STRICT_ALL_TABLES'",
    "INSERT INTO nm (a) VALUES (300)",
    "SET sql_mode = 'traditional'",
    "SELECT @@sql_mode",
    "INSERT INTO nm (a) VALUES (300)",
    "SET sql_mode = 'strict_trans_tables,nonsense'",
    "SELECT @@sql_mode",
    "SET sql_mode = 'NO_ENGINE_SUBSTITUTION'",
    "INSERT INTO nm (b) VALUES ('abcd')",
    "SHOW WARNINGS",
    "SELECT COUNT(*) FROM nm",
    // Dumps keep a 0 in an AUTO_INCREMENT column with NO_AUTO_VALUE_ON_ZERO.
    "SET sql_mode = 'NO_AUTO_VALUE_ON_ZERO'",
    "SELECT @@sql_mode",
    "INSERT INTO ai VALUES (0, 1)",
    "INSERT INTO ai VALUES (NULL, 2)",
    "INSERT INTO ai (v) VALUES (3)",
    "SET sql_mode = DEFAULT",
    "INSERT INTO ai VALUES (0, 4)",
    "SELECT * FROM ai ORDER BY v",
    "SET sql_mode = 0",
    "SELECT @@sql_mode",
];

#[test]
fn strict_and_lenient_writes_as_mariadb() {
    let server = Server::start();
    let mariadb = MariaDb::start();
    common::differential::same_rows_and_messages(&server, &mariadb, "sqm", SETUP, STEPS, &[]);
}

/// NULL into NOT NULL columns and divisions by zero in each mode: outside
/// strict mode an UPDATE (single- or multi-table) or a multi-row INSERT
/// stores the column's implicit default with warning 1048, a single-row
/// INSERT fails; a division by zero warns only under
/// ERROR_FOR_DIVISION_BY_ZERO and fails an INSERT (its SELECT too) or an
/// UPDATE's values only in strict mode, a DELETE never.
#[test]
fn nulls_and_divisions_by_zero_as_mariadb() {
    let server = Server::start();
    let mariadb = MariaDb::start();
    common::differential::same_rows_and_messages(
        &server,
        &mariadb,
        "sqn",
        &[
            "CREATE TABLE m1 (a INT PRIMARY KEY, b TINYINT NOT NULL, c VARCHAR(2), d DATE NOT NULL DEFAULT '2020-01-01', e INT)",
            "CREATE TABLE m2 (a INT PRIMARY KEY, v INT)",
            "INSERT INTO m1 (a, b, c) VALUES (1, 1, 'x'), (2, 2, 'y')",
            "INSERT INTO m2 VALUES (1, 500), (2, NULL)",
        ],
        &[
            "SET sql_mode = ''",
            "INSERT INTO m1 (a, b, d) VALUES (3, NULL, '2021-01-01')",
            "INSERT INTO m1 (a, b, d) VALUES (3, NULL, '2021-01-01'), (4, 4, NULL)",
            "SHOW WARNINGS",
            "SELECT * FROM m1 ORDER BY a",
            "UPDATE m1 SET b = NULL, c = NULL, d = NULL WHERE a = 4",
            "SHOW WARNINGS",
            "UPDATE m1 SET e = 10 / 0 WHERE a = 1",
            "SHOW WARNINGS",
            "UPDATE m1 SET c = 'w' WHERE 1 / 0 IS NULL AND a < 3",
            "SHOW WARNINGS",
            "UPDATE m1 JOIN m2 ON m1.a = m2.a SET m1.b = m2.v, m1.c = 'ab'",
            "SHOW WARNINGS",
            "UPDATE m1, m2 SET m1.b = m2.v * 2 WHERE m1.a = m2.a AND m2.v > 1",
            "SHOW WARNINGS",
            "SELECT * FROM m1 ORDER BY a",
            "SET sql_mode = 'ERROR_FOR_DIVISION_BY_ZERO'",
            "UPDATE m1 SET e = 10 % 0 WHERE a = 1",
            "SHOW WARNINGS",
            "UPDATE m1 SET c = 'v' WHERE a / 0 IS NULL AND a < 3",
            "SHOW WARNINGS",
            "INSERT INTO m1 (a, b, e) VALUES (5, 5, 1 / 0)",
            "SHOW WARNINGS",
            "SET sql_mode = 'STRICT_TRANS_TABLES'",
            "INSERT INTO m1 (a, b, e) VALUES (6, 6, 1 / 0)",
            "UPDATE m1 SET b = b / 0 WHERE a = 1",
            "UPDATE m1 JOIN m2 ON m1.a = m2.a SET m1.b = m2.v",
            "SET sql_mode = DEFAULT",
            "INSERT IGNORE INTO m1 (a, b, d) VALUES (8, NULL, NULL)",
            "SHOW WARNINGS",
            "INSERT INTO m1 (a, b, e) VALUES (7, 7, 1 / 0)",
            "INSERT INTO m2 SELECT a, a / 0 FROM m1 WHERE a > 4",
            "INSERT INTO m2 SELECT a + 10, a FROM m1 WHERE a / 0 IS NULL",
            "INSERT INTO m2 (a) VALUES (1) ON DUPLICATE KEY UPDATE v = 1 / 0",
            "REPLACE INTO m2 VALUES (31, 1 / 0)",
            "UPDATE m1 SET e = (SELECT 1 / 0)",
            "DELETE FROM m1 WHERE a / 0 IS NULL AND a = 1",
            "SHOW WARNINGS",
            "DELETE FROM m1 ORDER BY a / 0 LIMIT 1",
            "SELECT * FROM m1 ORDER BY a",
            "SELECT * FROM m2 ORDER BY a",
        ],
        &[],
    );
}
