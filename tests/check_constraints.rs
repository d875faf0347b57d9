//! CHECK constraints beside a real MariaDB 10.11: a column's and the
//! table's, as SHOW CREATE TABLE prints them, rows refused (4025, with the
//! constraint's name) on INSERT and UPDATE, NULL passing, ALTER TABLE ADD
//! CONSTRAINT over existing rows, ADD COLUMN with a CHECK (as Django
//! writes its positive integer fields), DROP CONSTRAINT,
//! `check_constraint_checks = 0`, and the conditions a CHECK may not hold
//! (1054, 1901, 1970); a row refused takes no AUTO_INCREMENT value.
mod common;
use common::differential::same_rows_and_messages;
use common::mariadb::MariaDb;
use common::Server;

const SETUP: &[&str] = &[
    "CREATE TABLE dj (id INT PRIMARY KEY)",
    "INSERT INTO dj VALUES (1), (2)",
];

const STEPS: &[&str] = &[
    "CREATE TABLE t (id INT, v INT CHECK (v > 0), age INT UNSIGNED NOT NULL CHECK (`age` >= 0), \
     s VARCHAR(5) CHECK (s IN ('a','b')), n VARCHAR(9) CHECK (CHAR_LENGTH(n) > 2 AND n <> 'xyz'), \
     CONSTRAINT ck CHECK (id < 100), CHECK (id + v <> 7), \
     CONSTRAINT c2 CHECK (id IS NOT NULL OR v BETWEEN 1 AND 5))",
    "SHOW CREATE TABLE t",
    "INSERT INTO t (id, v, age) VALUES (1, 0, 1)",
    "INSERT INTO t (id, v, age) VALUES (200, 1, 1)",
    "INSERT INTO t (id, v, age) VALUES (3, 4, 1)",
    "INSERT INTO t (id, v, age, s) VALUES (1, 1, 1, 'c')",
    "INSERT INTO t (id, v, age) VALUES (NULL, NULL, 1)",
    "INSERT INTO t (id, v, age, n) VALUES (1, 1, 1, 'ab')",
    "INSERT INTO t (id, v, age, n) VALUES (1, 1, 1, 'abc')",
    "UPDATE t SET v = -1",
    "UPDATE t SET v = 2 WHERE id = 1",
    "SELECT * FROM t ORDER BY id",
    "ALTER TABLE t ADD CONSTRAINT c3 CHECK (v < 10)",
    "ALTER TABLE t ADD CONSTRAINT c4 CHECK (v < 2)",
    "ALTER TABLE t DROP CONSTRAINT c3",
    "ALTER TABLE t DROP CONSTRAINT nope",
    "ALTER TABLE t DROP CONSTRAINT IF EXISTS nope",
    "SHOW CREATE TABLE t",
    "SET check_constraint_checks = 0",
    "INSERT INTO t (id, v, age) VALUES (1, -5, 1)",
    "SET check_constraint_checks = 1",
    "SELECT * FROM t ORDER BY id, v",
    "CREATE TABLE u (a INT, CONSTRAINT ck CHECK (a > 0))",
    "CREATE TABLE u2 (a INT CHECK (b > 0))",
    "CREATE TABLE u3 (a INT CHECK (a > (SELECT 1)))",
    "CREATE TABLE u4 (a INT CHECK (a > RAND()))",
    "ALTER TABLE dj ADD COLUMN age INTEGER UNSIGNED DEFAULT 0 NOT NULL CHECK (age >= 0)",
    "SHOW CREATE TABLE dj",
    "INSERT INTO dj VALUES (3, 5)",
    "UPDATE dj SET age = age - 1 WHERE id = 3",
    "SELECT * FROM dj ORDER BY id",
    "ALTER TABLE dj ADD COLUMN w INT NOT NULL DEFAULT 0 CHECK (w > 0)",
    "SHOW CREATE TABLE dj",
    "INSERT INTO dj (id) VALUES (4)",
    "ALTER TABLE dj MODIFY age BIGINT UNSIGNED NOT NULL DEFAULT 0",
    "ALTER TABLE dj DROP COLUMN w",
    "SHOW CREATE TABLE dj",
    // A row refused takes no AUTO_INCREMENT value.
    "CREATE TABLE ai (id INT PRIMARY KEY AUTO_INCREMENT, a INT CHECK (a > 0))",
    "INSERT INTO ai (a) VALUES (1)",
    "INSERT INTO ai (a) VALUES (-1)",
    "INSERT INTO ai (id, a) VALUES (10, -1)",
    "INSERT INTO ai SET a = -2",
    "INSERT INTO ai SET a = 2",
    "SELECT * FROM ai ORDER BY id",
];

#[test]
fn check_constraints_as_mariadb_keeps_them() {
    let server = Server::start();
    let mariadb = MariaDb::start();
    same_rows_and_messages(&server, &mariadb, "cks", SETUP, STEPS, &[]);
}
