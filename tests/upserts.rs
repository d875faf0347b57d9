//! INSERT ... ON DUPLICATE KEY UPDATE through a real `lineardb serve`,
//! statement by statement beside a real MariaDB 10.11: duplicates of the
//! primary key and of a unique index, VALUES(col), several rows colliding
//! within one statement, INSERT ... SELECT; UPDATE IGNORE (rows a key, a
//! CHECK or a foreign key refuses passed over, values adjusted); the same
//! affected rows, info, errors, warnings and final rows.
mod common;
use common::differential::{assert_same, outcomes, Shown};
use common::mariadb::MariaDb;
use common::Server;

const STEPS: &[&str] = &[
    "CREATE TABLE t (id INT PRIMARY KEY, u INT, v VARCHAR(10), n INT DEFAULT 0, UNIQUE KEY uu (u))",
    "INSERT INTO t VALUES (1,10,'a',0),(2,20,'b',0)",
    "INSERT INTO t VALUES (1,99,'x',0) ON DUPLICATE KEY UPDATE n = n + 1",
    // A duplicate of the unique index updates the row holding it.
    "INSERT INTO t VALUES (3,20,'y',5) ON DUPLICATE KEY UPDATE v = VALUES(v), n = VALUES(n) + n",
    "INSERT INTO t (id, u, v) VALUES (4,40,'d'),(4,41,'e'),(1,50,'f') ON DUPLICATE KEY UPDATE v = CONCAT(v, VALUES(v)), u = VALUES(u)",
    "INSERT INTO t VALUES (1,50,'f',0) ON DUPLICATE KEY UPDATE v = v",
    // The update itself collides: 1062, nothing changed.
    "INSERT INTO t VALUES (5,50,'g',0) ON DUPLICATE KEY UPDATE id = 2",
    "INSERT INTO t SELECT id + 10, u, v, n FROM t WHERE id = 2 ON DUPLICATE KEY UPDATE n = 100",
    "INSERT INTO t (id, u, v) SELECT id, u + 1000, v FROM t WHERE id < 3 ON DUPLICATE KEY UPDATE v = CONCAT(VALUES(v), '!')",
    "SELECT * FROM t ORDER BY id",
];

#[test]
fn on_duplicate_key_update_answers_as_mariadb() {
    let server = Server::start();
    let mariadb = MariaDb::start();
    let ours = outcomes(&server.url(""), "up", &[], STEPS, Shown::Changes);
    let theirs = outcomes(
        &format!("mysql://root@127.0.0.1:{}/", mariadb.port),
        "up",
        &[],
        STEPS,
        Shown::Changes,
    );
    assert_same(&ours, &theirs);
    assert!(ours[2].contains("affected 2"), "{}", ours[2]);
    assert!(ours[6].contains("error 1062"), "{}", ours[6]);
}

/// REPLACE colliding on a unique key and on several keys, and the ids
/// statements report: an explicit AUTO_INCREMENT value, INSERT IGNORE of
/// a duplicate, ON DUPLICATE KEY UPDATE of a row, LAST_INSERT_ID(expr),
/// ROW_COUNT().
const REPLACES_AND_IDS: &[&str] = &[
    "CREATE TABLE r (id INT AUTO_INCREMENT PRIMARY KEY, k VARCHAR(5) UNIQUE, m INT UNIQUE, v INT)",
    "INSERT INTO r (k, m, v) VALUES ('a', 1, 1), ('b', 2, 2), ('c', 3, 3)",
    "SELECT LAST_INSERT_ID(), ROW_COUNT()",
    "REPLACE INTO r (k, m, v) VALUES ('a', 10, 5)",
    "SELECT ROW_COUNT()",
    // One new row over two old ones (on k and on m).
    "REPLACE INTO r (id, k, m, v) VALUES (50, 'b', 3, 6)",
    "SELECT * FROM r ORDER BY id",
    "INSERT INTO r (id, k, m, v) VALUES (100, 'f', 100, 6)",
    "INSERT IGNORE INTO r (k, m, v) VALUES ('f', 101, 7)",
    "SELECT LAST_INSERT_ID()",
    "INSERT INTO r (k, m, v) VALUES ('f', 102, 8) ON DUPLICATE KEY UPDATE v = 9",
    "INSERT INTO r (k, m, v) VALUES ('f', 102, 9) ON DUPLICATE KEY UPDATE v = 9",
    "SELECT LAST_INSERT_ID(42), LAST_INSERT_ID()",
    "SELECT LAST_INSERT_ID()",
    "UPDATE r SET v = LAST_INSERT_ID(v + 100) WHERE id = 100",
    "SELECT LAST_INSERT_ID(), ROW_COUNT()",
    "DELETE FROM r WHERE id > 1000",
    "SELECT ROW_COUNT()",
];

#[test]
fn replace_and_insert_ids_answer_as_mariadb() {
    let server = Server::start();
    let mariadb = MariaDb::start();
    let run = |url: &str| outcomes(url, "ids", &[], REPLACES_AND_IDS, Shown::ChangesAndIds);
    let ours = run(&server.url(""));
    assert_same(
        &ours,
        &run(&format!("mysql://root@127.0.0.1:{}/", mariadb.port)),
    );
    assert!(ours[7].contains("id Some(100)"), "{}", ours[7]);
}

const UPDATE_IGNORE: &[&str] = &[
    "CREATE TABLE p (id INT PRIMARY KEY)",
    "INSERT INTO p VALUES (1), (2)",
    "CREATE TABLE t (id INT PRIMARY KEY, u INT UNIQUE, a TINYINT, pid INT, c INT CHECK (c >= 0), \
     FOREIGN KEY (pid) REFERENCES p (id))",
    "INSERT INTO t VALUES (1, 10, 1, 1, 1), (2, 20, 2, 2, 2), (3, 30, 3, 1, 3)",
    "UPDATE IGNORE t SET u = 10 WHERE id = 2",
    "SHOW WARNINGS",
    "UPDATE IGNORE t SET u = u + 10",
    "SHOW WARNINGS",
    "UPDATE IGNORE t SET a = a * 100",
    "SHOW WARNINGS",
    "UPDATE IGNORE t SET pid = 5 WHERE id = 1",
    "SHOW WARNINGS",
    "UPDATE IGNORE t SET c = c - 2",
    "SHOW WARNINGS",
    "SELECT * FROM t ORDER BY id",
    "UPDATE LOW_PRIORITY t SET a = 1 WHERE id = 1",
    "UPDATE LOW_PRIORITY IGNORE t SET a = 2 WHERE id = 1",
    "UPDATE IGNORE LOW_PRIORITY t SET a = 3 WHERE id = 1",
    "UPDATE  IGNORE\n t SET a = 4 WHERE id = 1",
    "UPDATE IGNORE t SET u = 1 / 0 WHERE id = 3",
    "SHOW WARNINGS",
    "UPDATE IGNORE t JOIN p ON p.id = t.pid SET t.a = 9, t.u = 20",
    "SHOW WARNINGS",
    "UPDATE IGNORE p SET id = 3 WHERE id = 1",
    "SHOW WARNINGS",
    "UPDATE t SET c = -1",
    "SELECT * FROM t ORDER BY id",
];

#[test]
fn update_ignore_answers_as_mariadb() {
    let server = Server::start();
    let mariadb = MariaDb::start();
    let run = |url: &str| outcomes(url, "upi", &[], UPDATE_IGNORE, Shown::Changes);
    assert_same(
        &run(&server.url("")),
        &run(&format!("mysql://root@127.0.0.1:{}/", mariadb.port)),
    );
}

const SET_DEFAULT: &[&str] = &[
    "CREATE TABLE t (id INT PRIMARY KEY, a INT DEFAULT 5, b VARCHAR(5) NOT NULL, \
     c DATETIME DEFAULT CURRENT_TIMESTAMP, d INT, e INT NOT NULL DEFAULT 7)",
    "INSERT INTO t (id, b, d) VALUES (1, 'x', 3)",
    "UPDATE t SET a = 9, d = 9, e = 0, c = NULL",
    "UPDATE t SET a = DEFAULT, d = DEFAULT, e = DEFAULT, c = DEFAULT WHERE id = 1",
    "SELECT id, a, b, d, e, c IS NOT NULL FROM t",
    "UPDATE t SET b = DEFAULT",
    "CREATE TABLE b (id INT PRIMARY KEY, x BIT(4) DEFAULT b'101', j VARCHAR(10) DEFAULT 'it''s', \
     k DECIMAL(5,2) DEFAULT 1.50, ts TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3))",
    "INSERT INTO b (id) VALUES (1)",
    "UPDATE b SET x = 0, j = 'z', k = 0",
    "UPDATE b SET x = DEFAULT, j = DEFAULT, k = DEFAULT, ts = DEFAULT",
    "SELECT id, x + 0, j, k, ts > '2020-01-01' FROM b",
    "SET sql_mode = ''",
    "UPDATE t SET b = DEFAULT",
];

/// UPDATE … SET column = DEFAULT: the column's default, NULL, the
/// statement's time; 1364 for a NOT NULL column without one, strict or not.
#[test]
fn update_to_defaults_answers_as_mariadb() {
    let server = Server::start();
    let mariadb = MariaDb::start();
    let run = |url: &str| outcomes(url, "upd", &[], SET_DEFAULT, Shown::Changes);
    assert_same(
        &run(&server.url("")),
        &run(&format!("mysql://root@127.0.0.1:{}/", mariadb.port)),
    );
}

/// The AUTO_INCREMENT values statements hand out, as InnoDB hands them
/// out in MariaDB 10.11: a multi-row VALUES reserves one per row at once
/// (a row ON DUPLICATE KEY UPDATE or IGNORE turns away gives its value to
/// the next row; what is left over stays used), an INSERT … SELECT
/// reserves 1, then 2, then 4, and an explicit value moves the next one
/// past it.
const AUTO_INCREMENT_STEPS: &[&str] = &[
    "CREATE TABLE a (id BIGINT AUTO_INCREMENT PRIMARY KEY, k VARCHAR(10) UNIQUE, v INT NOT NULL)",
    "INSERT INTO a (k, v) VALUES ('a', 1)",
    "INSERT INTO a (k, v) VALUES ('b', 2), ('c', 3), ('d', 4)",
    "INSERT INTO a (k, v) VALUES ('a', 1) ON DUPLICATE KEY UPDATE v = VALUES(v) + 1",
    "INSERT INTO a (k, v) VALUES ('h', 8) ON DUPLICATE KEY UPDATE v = 0",
    "INSERT INTO a (k, v) VALUES ('a', 9), ('b', 9), ('i', 9) ON DUPLICATE KEY UPDATE v = VALUES(v)",
    "INSERT INTO a (k, v) VALUES ('x', 9), ('b', 9), ('y', 9) ON DUPLICATE KEY UPDATE v = VALUES(v)",
    "INSERT IGNORE INTO a (k, v) VALUES ('x', 9), ('z', 9)",
    "INSERT INTO a (k, v) SELECT CONCAT(k, '2'), v FROM a WHERE k IN ('a', 'b', 'c', 'd')",
    "INSERT INTO a (k, v) VALUES ('m', 1), ('n', NULL), ('o', 1)",
    "INSERT INTO a (k, v) VALUES ('p', 1)",
    "INSERT INTO a (id, k, v) VALUES (NULL, 'q', 1), (200, 'r', 1), (NULL, 's', 1)",
    "INSERT INTO a (k, v) VALUES ('t', 1)",
    "SELECT id, k, v FROM a ORDER BY id",
    "SELECT AUTO_INCREMENT FROM information_schema.TABLES WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = 'a'",
];

#[test]
fn auto_increment_values_are_handed_out_as_mariadb_hands_them() {
    let server = Server::start();
    let mariadb = MariaDb::start();
    let ours = outcomes(
        &server.url(""),
        "ai",
        &[],
        AUTO_INCREMENT_STEPS,
        Shown::ChangesAndIds,
    );
    let theirs = outcomes(
        &format!("mysql://root@127.0.0.1:{}/", mariadb.port),
        "ai",
        &[],
        AUTO_INCREMENT_STEPS,
        Shown::ChangesAndIds,
    );
    assert_same(&ours, &theirs);
}
