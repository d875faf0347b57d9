//! Derived tables and views read by a block, merged into it where that
//! changes no result (a plain derived query under a block without WHERE)
//! and materialised otherwise: the rows must be MariaDB's either way —
//! grouping over a merged join (on one thread and on several), aliases of
//! expressions, NULLs, DISTINCT / LIMIT / GROUP BY inside, nested derived
//! tables, subqueries inside and outside.
mod common;
use common::differential::{same_as_mariadb, Shown};
use common::mariadb::MariaDb;
use common::Server;

const SETUP: &[&str] = &[
    "CREATE TABLE o (id INT PRIMARY KEY, cust INT, total INT, day DATE)",
    "INSERT INTO o VALUES (1, 10, 100, '2024-01-05'), (2, 10, 200, '2024-02-01'), \
     (3, 20, NULL, '2024-02-09'), (4, NULL, 400, '2025-03-01'), (5, 30, 500, '2025-03-02')",
    "CREATE TABLE c (cid INT PRIMARY KEY, name VARCHAR(10), nation INT)",
    "INSERT INTO c VALUES (10, 'ann', 1), (20, 'bob', 2), (30, 'cy', 1), (40, 'dee', NULL)",
    "CREATE TABLE d (n INT PRIMARY KEY)",
    "INSERT INTO d VALUES (0),(1),(2),(3),(4),(5),(6),(7),(8),(9)",
    "CREATE TABLE big (id INT PRIMARY KEY, k INT, v INT)",
    "INSERT INTO big SELECT a.n * 10000 + b.n * 1000 + e.n * 100 + f.n * 10 + g.n, \
     (a.n * 7 + g.n * 3) % 11, a.n FROM d a, d b, d e, d f, d g",
    "CREATE VIEW sales AS SELECT c.name, c.nation, o.total, YEAR(o.day) AS y \
     FROM o JOIN c ON c.cid = o.cust",
];

const QUERIES: &[&str] = &[
    // Merged: grouping over the derived join, expressions by alias.
    "SELECT nation, y, SUM(total), COUNT(*) FROM (SELECT c.nation, o.total, YEAR(o.day) AS y \
     FROM o, c WHERE c.cid = o.cust) s GROUP BY nation, y ORDER BY nation, y",
    "SELECT name, SUM(total) FROM sales GROUP BY name ORDER BY name",
    "SELECT COUNT(*), SUM(t2) FROM (SELECT total * 2 AS t2 FROM o) x",
    "SELECT y, COUNT(*) FROM (SELECT YEAR(day) AS y, total FROM o WHERE total > 150) x \
     GROUP BY y",
    "SELECT * FROM (SELECT id, total + 1 AS t FROM o) x ORDER BY id",
    "SELECT k, COUNT(*), SUM(v2) FROM (SELECT b1.k, b1.v + b2.v AS v2 FROM big b1 \
     JOIN big b2 ON b2.id = b1.id + 1) j GROUP BY k",
    "SELECT c2, COUNT(*) FROM (SELECT cust % 20 AS c2 FROM o) x GROUP BY c2",
    // Not merged: a WHERE outside, DISTINCT, LIMIT, grouping inside.
    "SELECT * FROM (SELECT id, total FROM o) x WHERE total > 150 ORDER BY id",
    "SELECT COUNT(*) FROM (SELECT DISTINCT cust FROM o) x",
    "SELECT SUM(total) FROM (SELECT total FROM o ORDER BY id LIMIT 2) x",
    "SELECT MAX(s) FROM (SELECT cust, SUM(total) AS s FROM o GROUP BY cust) x",
    "SELECT cnt, COUNT(*) FROM (SELECT k, COUNT(*) AS cnt FROM big GROUP BY k) x \
     GROUP BY cnt ORDER BY cnt",
    // Nested, and subqueries inside and outside.
    "SELECT SUM(t) FROM (SELECT t FROM (SELECT total AS t FROM o) a) b",
    "SELECT name, (SELECT COUNT(*) FROM o WHERE o.cust = x.cid) FROM \
     (SELECT cid, name FROM c) x ORDER BY name",
    "SELECT nation, COUNT(*) FROM (SELECT nation FROM c WHERE EXISTS \
     (SELECT * FROM o WHERE o.cust = c.cid)) x GROUP BY nation",
    "SELECT COUNT(*) FROM (SELECT id FROM o WHERE total > (SELECT AVG(total) FROM o)) x",
];

#[test]
fn derived_tables_merged_or_not_give_mariadbs_rows() {
    let server = Server::start();
    let mariadb = MariaDb::start();
    let ours = same_as_mariadb(&server, &mariadb, "dt", SETUP, QUERIES, Shown::Rows);
    assert!(
        ours[2].ends_with(r#"rows ["[Bytes(\"5\"), Bytes(\"2400\")]"]"#),
        "{}",
        ours[2]
    );
}
