//! Aggregates over joins on several threads: a big first table cut into
//! pieces (hash tables of the later steps built once and shared), and a
//! small first table whose rows, joined to enough rows by the first steps,
//! are shared out to threads running the rest of the join. The groups
//! must be MariaDB's, COUNT(DISTINCT) merged across threads included, and
//! the server's Lineardb_parallel_scans must show the threads were used
//! (a hint, a comment to MariaDB, lowers the size that earns them). The
//! rows a subquery or a derived table keeps are gathered on threads too,
//! in the order one thread would make them.
mod common;
use common::differential::{same_as_mariadb, Shown};
use common::mariadb::MariaDb;
use common::Server;
use mysql::prelude::*;

const SETUP: &[&str] = &[
    "CREATE TABLE d (n INT PRIMARY KEY)",
    "INSERT INTO d VALUES (0),(1),(2),(3),(4),(5),(6),(7),(8),(9)",
    "CREATE TABLE big (id INT PRIMARY KEY, k INT, g INT, v INT, INDEX (k))",
    "INSERT INTO big SELECT a.n * 10000 + b.n * 1000 + c.n * 100 + e.n * 10 + f.n, \
     (a.n * 7 + f.n * 3 + c.n) % 10, (b.n + e.n) % 4, a.n * 10 + c.n FROM d a, d b, d c, d e, d f",
    "CREATE TABLE kind (k INT PRIMARY KEY, name VARCHAR(10), w INT)",
    "INSERT INTO kind VALUES (0, 'zero', 1), (1, 'one', 2), (2, 'two', 3), (3, 'three', 1), \
     (4, 'four', 2), (5, 'five', 3), (6, 'six', 1), (7, 'seven', 2), (8, 'eight', 3), (9, NULL, 1)",
    "CREATE TABLE tag (g INT, label VARCHAR(5))",
    "INSERT INTO tag VALUES (0, 'a'), (1, 'b'), (2, 'c'), (3, 'd'), (1, 'bb')",
];

const QUERIES: &[&str] = &[
    // A small table first: its rows joined by index to the big one.
    "SELECT /*+ SET_VAR(lineardb_parallel_min_rows = 1000) */ kind.name, COUNT(*), SUM(big.v), MIN(big.id), MAX(big.v), COUNT(DISTINCT big.g) \
     FROM kind JOIN big ON big.k = kind.k WHERE kind.w < 3 GROUP BY kind.name",
    "SELECT /*+ SET_VAR(lineardb_parallel_min_rows = 1000) */ kind.w, COUNT(DISTINCT big.v), AVG(big.v) FROM kind, big WHERE big.k = kind.k \
     GROUP BY kind.w",
    "SELECT /*+ SET_VAR(lineardb_parallel_min_rows = 1000) */ COUNT(*), SUM(big.v) FROM kind, big WHERE big.k = kind.k AND kind.name IS NOT NULL",
    // A big table first, a hash table of a small one shared by the threads.
    "SELECT /*+ SET_VAR(lineardb_parallel_min_rows = 1000) */ tag.label, COUNT(*), SUM(v) FROM big JOIN tag ON tag.g = big.g GROUP BY tag.label",
    "SELECT /*+ SET_VAR(lineardb_parallel_min_rows = 1000) */ big.g, COUNT(DISTINCT big.k), COUNT(*) FROM big, tag WHERE tag.g = big.g \
     AND tag.label <> 'bb' GROUP BY big.g",
    // Semi and anti joins under the threads.
    "SELECT /*+ SET_VAR(lineardb_parallel_min_rows = 1000) */ g, COUNT(*) FROM big WHERE EXISTS (SELECT * FROM tag WHERE tag.g = big.g \
     AND tag.label = 'bb') GROUP BY g",
    "SELECT /*+ SET_VAR(lineardb_parallel_min_rows = 1000) */ COUNT(*), SUM(v) FROM big WHERE NOT EXISTS (SELECT * FROM kind WHERE \
     kind.k = big.k AND kind.w = 1)",
    // An uncorrelated subquery the threads read (run once beforehand).
    "SELECT /*+ SET_VAR(lineardb_parallel_min_rows = 1000) */ kind.name, COUNT(*) FROM kind, big WHERE big.k = kind.k AND big.v > \
     (SELECT AVG(v) FROM big) GROUP BY kind.name",
    // Rows a subquery or a derived table keeps, gathered on threads.
    "SELECT COUNT(*), SUM(w) FROM kind WHERE kind.k IN (SELECT k FROM big WHERE v > 50 AND g = 1)",
    "SELECT k, COUNT(*) FROM (SELECT DISTINCT k, g FROM big WHERE v < 80) d2 GROUP BY k",
    "SELECT COUNT(*) FROM (SELECT big.id, tag.label FROM big JOIN tag ON tag.g = big.g \
     ORDER BY big.id LIMIT 100000) j WHERE label LIKE 'b%'",
];

#[test]
fn aggregates_over_joins_on_threads_give_mariadbs_groups() {
    let server = Server::start();
    let mariadb = MariaDb::start();
    let mut c = mysql::Conn::new(mysql::Opts::from_url(&server.url("")).unwrap()).unwrap();
    let scans = |c: &mut mysql::Conn| -> u64 {
        let row: Option<(String, u64)> = c
            .query_first("SHOW GLOBAL STATUS LIKE 'Lineardb_parallel_scans'")
            .unwrap();
        row.unwrap().1
    };
    let before = scans(&mut c);
    let ours = same_as_mariadb(&server, &mariadb, "pj", SETUP, QUERIES, Shown::Rows);
    let after = scans(&mut c);
    assert!(
        after - before >= QUERIES.len() as u64,
        "{} parallel scans for {} queries",
        after - before,
        QUERIES.len()
    );
    assert!(
        ours[2].contains("100000") || ours[2].contains("90000"),
        "{}",
        ours[2]
    );
}
