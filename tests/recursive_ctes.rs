//! WITH RECURSIVE through a real `lineardb serve`, query by query beside
//! a real MariaDB 10.11: counting, UNION against UNION ALL (a cycle ends
//! under UNION), walking a tree and a graph stored in tables, several
//! anchors, CTEs after and joined with a recursive one, column lists,
//! max_recursive_iterations and its warning, and MariaDB's errors; the
//! same rows, warnings and error codes.
mod common;
use common::differential::{assert_same, outcomes, Shown};
use common::mariadb::MariaDb;
use common::Server;

const SETUP: &[&str] = &[
    "CREATE TABLE emp (id INT PRIMARY KEY, boss INT, name VARCHAR(10))",
    "INSERT INTO emp VALUES (1,NULL,'ann'),(2,1,'bob'),(3,1,'cat'),(4,2,'dan'),(5,4,'eve'),(6,3,'fay'),(7,NULL,'gus'),(8,7,'hal')",
    "CREATE TABLE edge (a INT, b INT, PRIMARY KEY (a, b))",
    "INSERT INTO edge VALUES (1,2),(2,3),(3,1),(3,4),(5,6)",
];

const QUERIES: &[&str] = &[
    "WITH RECURSIVE r (n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE n < 10) SELECT SUM(n), COUNT(*) FROM r",
    "WITH RECURSIVE f (n, fact) AS (SELECT 1, 1 UNION ALL SELECT n + 1, fact * (n + 1) FROM f WHERE n < 12) \
     SELECT * FROM f ORDER BY n",
    // A tree: each employee with its depth and the root above it. (Not a
    // path of names: MariaDB holds recursive rows to the anchor's column
    // lengths, which lineardb does not keep yet.)
    "WITH RECURSIVE chain (id, name, depth, root) AS ( \
       SELECT id, name, 0, id FROM emp WHERE boss IS NULL \
       UNION ALL \
       SELECT e.id, e.name, c.depth + 1, c.root FROM emp e JOIN chain c ON e.boss = c.id) \
     SELECT * FROM chain ORDER BY id",
    // A graph with a cycle: UNION keeps each row once, so it ends.
    "WITH RECURSIVE reach (n) AS (SELECT 1 UNION SELECT edge.b FROM edge JOIN reach ON edge.a = reach.n) \
     SELECT n FROM reach ORDER BY n",
    "WITH RECURSIVE reach (n) AS (SELECT 1 UNION SELECT 5 UNION SELECT edge.b FROM reach, edge WHERE edge.a = reach.n) \
     SELECT n FROM reach ORDER BY n",
    "WITH RECURSIVE r (n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE n < 3), \
     s (m) AS (SELECT n * 10 FROM r) SELECT * FROM s JOIN r ON s.m = r.n * 10 ORDER BY m",
    "WITH RECURSIVE a (n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM a WHERE n < 4) \
     SELECT x.n, y.n FROM a x JOIN a y ON y.n = x.n + 1 ORDER BY x.n",
    "SELECT name FROM emp WHERE id IN (WITH RECURSIVE d (id) AS (SELECT 2 UNION ALL \
     SELECT emp.id FROM emp JOIN d ON emp.boss = d.id) SELECT id FROM d) ORDER BY name",
    "WITH RECURSIVE r (n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM (SELECT n FROM r) AS x WHERE n < 4) SELECT * FROM r ORDER BY n",
    "SET max_recursive_iterations = 5",
    "WITH RECURSIVE r (n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r) SELECT * FROM r",
    "SHOW WARNINGS",
    "SET max_recursive_iterations = 1000",
    // Errors.
    "WITH RECURSIVE r (n) AS (SELECT n FROM r) SELECT * FROM r",
    "WITH RECURSIVE r (n) AS (SELECT 1 UNION ALL SELECT COUNT(*) FROM r) SELECT * FROM r",
    "WITH RECURSIVE r (n) AS (SELECT 1 UNION ALL SELECT r.n + 1 FROM r, r AS r2 WHERE r.n < 3) SELECT * FROM r",
    "WITH RECURSIVE r (a, b) AS (SELECT 1, 2 UNION ALL SELECT a + 1 FROM r WHERE a < 3) SELECT * FROM r",
    "WITH RECURSIVE r (n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE n < 3 UNION SELECT 7) SELECT * FROM r",
    "WITH r (a, b) AS (SELECT 1) SELECT * FROM r",
    "WITH r (n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE n < 3) SELECT * FROM r",
];

#[test]
fn recursive_ctes_answer_as_mariadb() {
    let server = Server::start();
    let mariadb = MariaDb::start();
    let ours = outcomes(&server.url(""), "rec", SETUP, QUERIES, Shown::Rows);
    let theirs = outcomes(
        &format!("mysql://root@127.0.0.1:{}/", mariadb.port),
        "rec",
        SETUP,
        QUERIES,
        Shown::Rows,
    );
    assert_same(&ours, &theirs);
    assert!(ours[0].contains(r#"Bytes(\"55\")"#), "{}", ours[0]);
    assert!(ours[11].contains("1931"), "{}", ours[11]);
}
