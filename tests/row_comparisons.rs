//! Row constructors beside a real MariaDB 10.11: `(a, b) = (c, d)` and the
//! other comparisons, `ROW(…)`, nested rows, `(a, b) [NOT] IN ((…), …)` and
//! `(a, b) [NOT] IN (SELECT …)` (uncorrelated, correlated, prepared), with
//! NULL elements, in WHERE, in the select list and in UPDATE and DELETE,
//! and MariaDB's errors for rows of different sizes (1241) and a row beside
//! a single value (4078).
mod common;
use common::differential::{same_as_mariadb, Shown};
use common::mariadb::MariaDb;
use common::Server;

const SETUP: &[&str] = &[
    "CREATE TABLE t (a INT, b VARCHAR(5), c INT, PRIMARY KEY (a, b))",
    "INSERT INTO t VALUES (1, 'x', 10), (1, 'y', 20), (2, 'x', 30), (2, 'y', NULL), (3, 'z', 50)",
    "CREATE TABLE u (p INT, q VARCHAR(5))",
    "INSERT INTO u VALUES (1, 'X'), (2, 'y'), (NULL, 'z'), (3, NULL)",
];

const STEPS: &[&str] = &[
    "SELECT (1, 2) = (1, 2, 3)",
    "SELECT (1, 2) = 1",
    "SELECT 1 = (1, 2)",
    "SELECT 'a' < (1, 2)",
    "SELECT (1, 2)",
    "SELECT (1, 2) IN ((1, 2), 3)",
    "SELECT 1 IN ((1, 2), (1))",
    "SELECT (1, 2) IS NULL",
    "SELECT 1 FROM dual WHERE (1, 2) BETWEEN (0, 0) AND (3, 3)",
    "SELECT (1, 2) LIKE (1, 2)",
    "SELECT COALESCE((1, 2))",
    "SELECT (1, NULL) < (2, 1), (NULL, 1) < (1, 2), (1, NULL) < (1, 2), (1, 2) <= (1, 2), \
     (2, NULL) > (1, 5), (1, NULL) <> (2, 2), (NULL, 1) = (2, 2)",
    "SELECT (1, 2) >= (1, 2), (1, 2) > (1, 2), (1, 3) > (1, 2), (0, 9) >= (1, 0), \
     (1, 2) <=> (1, 2), (NULL, 2) <=> (NULL, 2), (NULL, 2) <=> (1, 2)",
    "SELECT ((1, 2), 3) = ((1, 2), 3), (1, (2, 3)) < (1, (2, 4))",
    "SELECT ROW(1, 2) = (1, 2), (1, 2) IN (ROW(1, 2))",
    "SELECT (1, 2) NOT IN ((1, 3), (2, 2)), (1, NULL) NOT IN ((1, 3)), (1, NULL) IN ((1, 3), (1, 2))",
    "SELECT (1, 'a') = (1, 'A'), (1, 'a') = (1, BINARY 'A')",
    "SELECT * FROM t WHERE (a, b) = (1, 'y')",
    "SELECT * FROM t WHERE (a, b) IN ((1, 'x'), (2, 'y'), (9, 'q')) ORDER BY a, b",
    "SELECT * FROM t WHERE (a, b) > (1, 'x') ORDER BY a, b",
    "SELECT * FROM t WHERE (a, b) <= (2, 'x') ORDER BY a, b",
    "SELECT * FROM t WHERE (a, c) NOT IN ((1, 10), (2, 30)) ORDER BY a, b",
    "SELECT a, (a, c) = (2, NULL), (a, c) <> (3, 50) FROM t ORDER BY a, b",
    "SELECT * FROM t WHERE ROW(a, b) >= ROW(2, 'y') ORDER BY a, b",
    "SELECT (a, b) FROM t",
    "SELECT * FROM t WHERE (a, b) IN (SELECT p, q FROM u) ORDER BY a, b",
    "SELECT * FROM t WHERE (a, b) NOT IN (SELECT p, q FROM u) ORDER BY a, b",
    "SELECT a, b, (a, b) IN (SELECT p, q FROM u) FROM t ORDER BY a, b",
    "SELECT a, b, (a, b) NOT IN (SELECT p, q FROM u WHERE p IS NOT NULL AND q IS NOT NULL) \
     FROM t ORDER BY a, b",
    "SELECT * FROM t WHERE (a, b) IN (SELECT p, q FROM u WHERE u.p = t.a) ORDER BY a, b",
    "SELECT * FROM t WHERE (a, b) IN (SELECT p FROM u)",
    "SELECT * FROM t WHERE (a, b, c) IN (SELECT p, q FROM u)",
    "SELECT * FROM t WHERE (a, c) IN (SELECT a, c + 0 FROM t WHERE c > 20) ORDER BY a, b",
    "SELECT (1, 2) IN (SELECT 1, 2), (1, 2) IN (SELECT 1, 3), (1, NULL) IN (SELECT 1, 2), \
     (1, 2) IN (SELECT 1, 2 FROM dual WHERE 0)",
    "PREPARE s FROM 'SELECT COUNT(*) FROM t WHERE (a, b) IN (SELECT p, q FROM u WHERE p = ?)'",
    "SET @x = 2",
    "EXECUTE s USING @x",
    "UPDATE t SET c = c + 1 WHERE (a, b) IN ((1, 'x'), (3, 'z'))",
    "DELETE FROM t WHERE (a, b) = (2, 'x')",
    "SELECT * FROM t ORDER BY a, b",
];

#[test]
fn row_constructors_compare_as_in_mariadb() {
    let server = Server::start();
    let mariadb = MariaDb::start();
    same_as_mariadb(&server, &mariadb, "rowcmp", SETUP, STEPS, Shown::Changes);
}
