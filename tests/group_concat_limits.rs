//! GROUP_CONCAT's bounds beside a real MariaDB 10.11: `group_concat_max_len`
//! (bytes, cut where a character starts; 4 at least), warning 1260 naming the row where
//! a result was cut, and `LIMIT [offset,] count` with and without ORDER BY
//! and DISTINCT.
mod common;
use common::differential::{same_as_mariadb, Shown};
use common::mariadb::MariaDb;
use common::Server;

const SETUP: &[&str] = &[
    "CREATE TABLE g (id INT PRIMARY KEY, k INT, s VARCHAR(10))",
    "INSERT INTO g VALUES (1,1,'aaa'),(2,1,'bbb'),(3,2,'ccc'),(4,2,'ddd'),(5,3,'e')",
];

const STEPS: &[&str] = &[
    "SET SESSION group_concat_max_len = 5",
    "SELECT k, GROUP_CONCAT(s) FROM g GROUP BY k ORDER BY k",
    "SHOW WARNINGS",
    "SELECT GROUP_CONCAT(s ORDER BY s DESC) FROM g",
    "SHOW WARNINGS",
    "SELECT GROUP_CONCAT(s SEPARATOR '--') FROM g WHERE k = 1",
    "SHOW WARNINGS",
    "SELECT @@group_concat_max_len",
    "SELECT GROUP_CONCAT(s LIMIT 2) FROM g",
    "SELECT GROUP_CONCAT(s ORDER BY s LIMIT 1, 2) FROM g",
    "SELECT GROUP_CONCAT(DISTINCT k ORDER BY k DESC LIMIT 2) FROM g",
    "SET group_concat_max_len = 3",
    "SHOW WARNINGS",
    "SELECT @@group_concat_max_len",
    "SELECT GROUP_CONCAT('éé', s) FROM g WHERE k = 3",
    "SELECT GROUP_CONCAT('éé', s, 'x') FROM g WHERE k = 3",
    "SHOW WARNINGS",
    "SET group_concat_max_len = 1000",
    "SELECT GROUP_CONCAT(s ORDER BY id DESC LIMIT 0) FROM g",
    "SELECT GROUP_CONCAT(s LIMIT 0) FROM g WHERE k = 9",
    "SELECT k, GROUP_CONCAT(s ORDER BY id DESC LIMIT 1) FROM g GROUP BY k ORDER BY k",
    "SELECT GROUP_CONCAT(s LIMIT -1) FROM g",
];

#[test]
fn group_concat_bounds_answer_as_mariadb() {
    let server = Server::start();
    let mariadb = MariaDb::start();
    let ours = same_as_mariadb(&server, &mariadb, "gc", SETUP, STEPS, Shown::Rows);
    assert_eq!(ours[2].matches("1260").count(), 2, "{}", ours[2]);
}
