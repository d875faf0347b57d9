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
    // A wrong date or time outside strict mode is the zero one (1265).
    "CREATE TABLE dz (id INT, d DATE, dt DATETIME, t TIME, ts TIMESTAMP NULL)",
    "INSERT INTO dz VALUES (1, '2020-13-45', '2020-13-45 10:00:00', '99:99:99', 'x')",
    "SHOW WARNINGS",
    "INSERT INTO dz VALUES (2, 'abc', '2020-02-30 25:00:00', '12:60:00', '2020-02-30')",
    "SHOW WARNINGS",
    "INSERT INTO dz VALUES (3, '2020-01-02', '2020-01-01', '10:00:00', '2020-01-01 10:00:00')",
    "UPDATE dz SET d = '2021-99-99', t = 'nope' WHERE id = 1",
    "SHOW WARNINGS",
    "SELECT * FROM dz ORDER BY id",
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

/// A string read as a number that is not wholly one: warning 1292 naming
/// how it was read (DOUBLE in arithmetic and functions, DECIMAL beside an
/// integer, INTEGER where an integer is wanted), a note when spaces alone
/// follow the number, the text cut past 128 bytes; an INSERT or UPDATE in
/// strict mode fails with it (its WHERE too), a DELETE or IGNORE warns.
#[test]
fn strings_read_as_numbers_as_mariadb() {
    let server = Server::start();
    let mariadb = MariaDb::start();
    common::differential::same_rows_and_messages(
        &server,
        &mariadb,
        "sqt",
        &[
            "CREATE TABLE tn (id INT PRIMARY KEY, a INT, s VARCHAR(10), d DECIMAL(5,2))",
            "CREATE TABLE tk (a INT, s VARCHAR(10))",
            "INSERT INTO tn VALUES (1, 1, 'x', 1.5), (2, 2, '2', 2.5), (3, 3, ' 3 ', 0)",
            "INSERT INTO tk VALUES (1, 'x'), (2, '2')",
        ],
        &[
            "SELECT 1 + 'x'",
            "SHOW WARNINGS",
            "SELECT 1 + '1 ', 1 + ' 1', 1 + '', 1 + '  ', 1 + '1e', 1 + '0x10', 1 + '1e3'",
            "SHOW WARNINGS",
            "SELECT 'a' + 'b', -'x', ABS('x'), CEIL('1.5x'), ROUND('x'), 'x' AND 1, IF('x', 1, 2)",
            "SHOW WARNINGS",
            "SELECT 'x' = 0, 'x' < 1, 'x' = 1.5, 'x' = 1e0, 'x' IN (1, 2), 1 BETWEEN 'a' AND 2",
            "SHOW WARNINGS",
            "SELECT 'x' | 1",
            "SHOW WARNINGS",
            "SELECT SUM('x'), AVG('1y'), SUM(s), AVG(s) FROM tn",
            "SHOW WARNINGS",
            "SELECT CAST('x' AS SIGNED), CAST('1.5x' AS SIGNED), CAST('1e3' AS SIGNED), \
             CAST('2.7' AS UNSIGNED), CAST(' 1 ' AS SIGNED)",
            "SHOW WARNINGS",
            "SELECT CAST('1x' AS DECIMAL), CAST('1 ' AS DECIMAL(5,2)), CAST('x' AS DOUBLE)",
            "SHOW WARNINGS",
            "SELECT 1 + REPEAT('x', 128), 1 + REPEAT('y', 129), 1 + REPEAT('é', 200)",
            "SHOW WARNINGS",
            "SELECT 1 + 'a''b', 1 + 'é', 1 + X'41'",
            "SHOW WARNINGS",
            "SELECT CAST('x' AS DATE), CAST('2020-13-01' AS DATETIME), TIMESTAMP('y')",
            "SHOW WARNINGS",
            "SELECT id FROM tn WHERE a = 'x'",
            "SHOW WARNINGS",
            "SELECT id FROM tn WHERE s = 2",
            "SHOW WARNINGS",
            "SELECT id FROM tn WHERE a = '1 '",
            "SHOW WARNINGS",
            "SELECT id FROM tn WHERE a = '1abc'",
            "SHOW WARNINGS",
            "SELECT id FROM tn WHERE a = '1.0' OR a = ' 2'",
            "SHOW WARNINGS",
            "SELECT id, s + 0 FROM tn ORDER BY id",
            "SHOW WARNINGS",
            "UPDATE tn SET a = a WHERE a = 'x'",
            "SHOW WARNINGS",
            "UPDATE tn SET a = a WHERE s = 2",
            "UPDATE tk SET a = a WHERE a = 'x'",
            "UPDATE tn SET a = a + 'x'",
            "SHOW WARNINGS",
            "INSERT INTO tn VALUES (4, 1 + 'x', 'y', 0)",
            "INSERT INTO tn SELECT id + 10, 1 + s, 'q', 0 FROM tn",
            "INSERT IGNORE INTO tn VALUES (5, 1 + 'x', 'y', 0)",
            "SHOW WARNINGS",
            "DELETE FROM tn WHERE a = 'x'",
            "SHOW WARNINGS",
            "SELECT * FROM tn ORDER BY id",
            "SET sql_mode = ''",
            "UPDATE tn SET a = a WHERE a = 'x'",
            "SHOW WARNINGS",
            "UPDATE tk SET a = a WHERE a = 'x'",
            "SHOW WARNINGS",
            "INSERT INTO tn VALUES (6, 1 + 'x', 'y', 0)",
            "SHOW WARNINGS",
            "SET STATEMENT sql_mode = '' FOR SELECT 1 + 'z'",
            "SHOW WARNINGS",
            "SELECT * FROM tn ORDER BY id",
        ],
        &[],
    );
}

/// ONLY_FULL_GROUP_BY: a select-list column neither grouped nor
/// aggregated is 1055 (1140 without GROUP BY), as MariaDB checks it; a
/// derived table's columns and ORDER BY are not checked.
#[test]
fn only_full_group_by_as_mariadb() {
    let server = Server::start();
    let mariadb = MariaDb::start();
    common::differential::same_rows_and_messages(
        &server,
        &mariadb,
        "ofgb",
        &[
            "CREATE TABLE g (id INT PRIMARY KEY, a INT, b INT, c VARCHAR(5))",
            "CREATE TABLE h (id INT PRIMARY KEY, a INT)",
            "INSERT INTO g VALUES (1, 1, 1, 'x'), (2, 1, 2, 'y'), (3, 2, 3, 'z')",
            "INSERT INTO h VALUES (1, 1), (2, 2)",
        ],
        &[
            "SELECT a, b FROM g GROUP BY a ORDER BY a",
            "SET sql_mode = CONCAT(@@sql_mode, ',ONLY_FULL_GROUP_BY')",
            "SELECT a, b FROM g GROUP BY a",
            "SELECT a, COUNT(*) FROM g GROUP BY a ORDER BY a",
            "SELECT a + 1, COUNT(*) FROM g GROUP BY a ORDER BY 1",
            "SELECT a, COUNT(*) FROM g",
            "SELECT MAX(b), a + 0 FROM g",
            "SELECT COUNT(*), MAX(b), 1, 'x' FROM g",
            "SELECT a AS x, SUM(b) FROM g GROUP BY x ORDER BY x",
            "SELECT id, a FROM g GROUP BY id",
            "SELECT x.a, x.b FROM g x GROUP BY x.a",
            "SELECT CONCAT(a, b) FROM g GROUP BY a",
            "SELECT a + b FROM g GROUP BY a + b ORDER BY 1",
            "SELECT a, b + 1 FROM g GROUP BY a, b ORDER BY 1, 2",
            "SELECT a FROM g GROUP BY a ORDER BY b",
            "SELECT a, c FROM (SELECT a, c FROM g) d GROUP BY a ORDER BY a",
            "SELECT g.a, h.id FROM g JOIN h ON h.a = g.a GROUP BY g.a",
            "SELECT g.a, COUNT(h.id) FROM g JOIN h ON h.a = g.a GROUP BY g.a ORDER BY 1",
            "SELECT a, COUNT(*) c FROM g GROUP BY 1 ORDER BY 1",
            "SET sql_mode = DEFAULT",
            "SELECT COUNT(*) FROM (SELECT a, b FROM g GROUP BY a) t",
        ],
        &[],
    );
}

/// A DECIMAL column stores a value with more places than it keeps rounded,
/// with note 1265 when non-zero digits go (in strict mode too), for
/// numbers, DOUBLEs and number texts, in INSERT and UPDATE.
#[test]
fn decimals_rounded_with_notes_as_mariadb() {
    let server = Server::start();
    let mariadb = MariaDb::start();
    common::differential::same_rows_and_messages(
        &server,
        &mariadb,
        "decnote",
        &["CREATE TABLE dn (id INT PRIMARY KEY, d DECIMAL(5,1), e DECIMAL(6,2))"],
        &[
            "INSERT INTO dn VALUES (1, 1.25, 2.345)",
            "SHOW WARNINGS",
            "INSERT INTO dn VALUES (2, 1.20, 2.340)",
            "SHOW WARNINGS",
            "INSERT INTO dn VALUES (3, '1.26', 1.5e0)",
            "SHOW WARNINGS",
            "INSERT INTO dn VALUES (4, 1.2345e0, 1)",
            "SHOW WARNINGS",
            "INSERT INTO dn (id, e) VALUES (8, '7.777')",
            "SHOW WARNINGS",
            "UPDATE dn SET d = 9.99 WHERE id = 1",
            "SHOW WARNINGS",
            "UPDATE dn SET e = e / 3 WHERE id IN (1, 2)",
            "SHOW WARNINGS",
            "INSERT INTO dn VALUES (5, 1.25, 1), (6, 3.33, 4.444)",
            "SHOW WARNINGS",
            "SET sql_mode = ''",
            "INSERT INTO dn VALUES (7, 1.25, 'x')",
            "SHOW WARNINGS",
            "SELECT * FROM dn ORDER BY id",
        ],
        &[],
    );
}
