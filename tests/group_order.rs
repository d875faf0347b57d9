//! GROUP BY without ORDER BY lists groups by their keys (NULLs first), as
//! MariaDB 10.11 does and applications rely on: compared row by row, in
//! order, with a real MariaDB — one and several keys, expressions, HAVING,
//! LIMIT, and a table big enough to be aggregated on several threads.
mod common;
use common::differential::{same_as_mariadb, Shown};
use common::mariadb::MariaDb;
use common::Server;

const SETUP: &[&str] = &[
    "CREATE TABLE g (id INT PRIMARY KEY, k INT, s VARCHAR(10), v INT)",
    "INSERT INTO g VALUES (1, 3, 'c', 1), (2, NULL, 'a', 2), (3, 1, 'b', 3), (4, 3, 'a', 4), \
     (5, 2, NULL, 5), (6, 1, 'c', 6), (7, NULL, 'b', 7), (8, 2, 'a', 8)",
    "CREATE TABLE d (n INT PRIMARY KEY)",
    "INSERT INTO d VALUES (0),(1),(2),(3),(4),(5),(6),(7),(8),(9)",
    "CREATE TABLE big (id INT PRIMARY KEY, k INT, v INT)",
    "INSERT INTO big SELECT a.n * 10000 + b.n * 1000 + c.n * 100 + e.n * 10 + f.n, \
     (a.n * 7 + f.n * 3) % 23, a.n FROM d a, d b, d c, d e, d f",
];

const QUERIES: &[&str] = &[
    "SELECT k, COUNT(*) FROM g GROUP BY k",
    "SELECT s, SUM(v) FROM g GROUP BY s",
    "SELECT k, s, COUNT(*) FROM g GROUP BY k, s",
    "SELECT s, k, COUNT(*) FROM g GROUP BY s, k",
    "SELECT v % 3 AS m, COUNT(*) FROM g GROUP BY m",
    "SELECT k, COUNT(*) FROM g GROUP BY k HAVING COUNT(*) > 1",
    "SELECT k, MAX(v) FROM g GROUP BY k LIMIT 2",
    "SELECT k, MAX(v) FROM g GROUP BY k ORDER BY MAX(v) DESC",
    "SELECT k, COUNT(*), SUM(v) FROM big GROUP BY k",
    "SELECT v, COUNT(*) FROM big WHERE id > 1000 GROUP BY v",
];

#[test]
fn groups_come_in_key_order_as_in_mariadb() {
    let server = Server::start();
    let mariadb = MariaDb::start();
    let ours = same_as_mariadb(&server, &mariadb, "go", SETUP, QUERIES, Shown::Rows);
    assert!(
        ours[0].starts_with("SELECT k, COUNT(*) FROM g GROUP BY k -> rows [\"[Null"),
        "{}",
        ours[0]
    );
}
