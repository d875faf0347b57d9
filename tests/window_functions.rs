//! Window functions through a real `lineardb serve`, query by query beside
//! a real MariaDB 10.11: ranking, distribution, offsets, values and
//! aggregates over ROWS and RANGE frames, partitions, named windows,
//! windows over groups, and MariaDB's errors; the same rows, column types
//! and error codes.
mod common;
use common::differential::{assert_same, outcomes, Shown};
use common::mariadb::MariaDb;
use common::Server;

const SETUP: &[&str] = &[
    "CREATE TABLE t (id INT PRIMARY KEY, a INT, b INT, c VARCHAR(10), d DECIMAL(6,2))",
    "INSERT INTO t VALUES (1,1,1,'x',1.50),(2,1,2,'y',2.25),(3,2,2,'z',NULL),(4,2,3,'x',4.00), \
     (5,3,NULL,'y',0.75),(6,NULL,5,'z',3.00),(7,2,2,'w',1.00),(8,1,7,'v',9.99)",
];

const QUERIES: &[&str] = &[
    "SELECT id, ROW_NUMBER() OVER (ORDER BY id DESC) rn FROM t ORDER BY id",
    "SELECT id, a, RANK() OVER (ORDER BY a) r, DENSE_RANK() OVER (ORDER BY a) dr, \
     PERCENT_RANK() OVER (ORDER BY a) pr, CUME_DIST() OVER (ORDER BY a) cd FROM t ORDER BY id",
    "SELECT id, NTILE(3) OVER (ORDER BY id) n3, NTILE(10) OVER (ORDER BY id) n10 FROM t ORDER BY id",
    "SELECT id, a, ROW_NUMBER() OVER (PARTITION BY a ORDER BY id) rn, \
     COUNT(*) OVER (PARTITION BY a) n FROM t ORDER BY id",
    "SELECT id, LAG(b) OVER (ORDER BY id) l1, LAG(b, 2) OVER (ORDER BY id) l2, \
     LEAD(c) OVER (ORDER BY id) n1, LEAD(c, 3) OVER (PARTITION BY a ORDER BY id) n3 FROM t ORDER BY id",
    "SELECT id, FIRST_VALUE(c) OVER (PARTITION BY a ORDER BY id) f, \
     LAST_VALUE(c) OVER (PARTITION BY a ORDER BY id) l, \
     NTH_VALUE(c, 2) OVER (PARTITION BY a ORDER BY id) n FROM t ORDER BY id",
    "SELECT id, SUM(b) OVER (ORDER BY id) running, SUM(b) OVER () total, \
     MIN(c) OVER (ORDER BY id) mn, MAX(d) OVER (ORDER BY id) mx FROM t ORDER BY id",
    // (Beside the windows above MariaDB 10.11 averages over runs of equal
    // a in id order instead of over the partitions.)
    "SELECT id, AVG(d) OVER (PARTITION BY a) av FROM t ORDER BY id",
    "SELECT id, SUM(b) OVER (ORDER BY id ROWS BETWEEN 1 PRECEDING AND 1 FOLLOWING) s, \
     COUNT(b) OVER (ORDER BY id ROWS BETWEEN CURRENT ROW AND UNBOUNDED FOLLOWING) c, \
     AVG(b) OVER (ORDER BY id ROWS 2 PRECEDING) a2, \
     MAX(b) OVER (ORDER BY id ROWS BETWEEN 2 FOLLOWING AND 3 FOLLOWING) m FROM t ORDER BY id",
    "SELECT id, b, SUM(id) OVER (ORDER BY b RANGE BETWEEN 1 PRECEDING AND 1 FOLLOWING) s, \
     COUNT(*) OVER (ORDER BY b DESC RANGE BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING) c, \
     SUM(id) OVER (ORDER BY b RANGE BETWEEN CURRENT ROW AND UNBOUNDED FOLLOWING) r FROM t ORDER BY id",
    "SELECT id, d, SUM(id) OVER (ORDER BY d RANGE BETWEEN 1.5 PRECEDING AND CURRENT ROW) s FROM t ORDER BY id",
    "SELECT a, COUNT(*) n, SUM(COUNT(*)) OVER (ORDER BY a) running, \
     RANK() OVER (ORDER BY COUNT(*) DESC, a) r FROM t GROUP BY a ORDER BY a",
    "SELECT id, SUM(b) OVER w s, ROW_NUMBER() OVER (w ORDER BY id) rn FROM t \
     WINDOW w AS (PARTITION BY a) ORDER BY id",
    "SELECT id, ROW_NUMBER() OVER (ORDER BY id) rn FROM t ORDER BY rn DESC LIMIT 3",
    "SELECT DISTINCT a, COUNT(*) OVER (PARTITION BY a) n FROM t ORDER BY a",
    "SELECT id, b, SUM(b + id) OVER (PARTITION BY a + 1 ORDER BY b * 2 DESC, id) s FROM t ORDER BY id",
    "SELECT id FROM t ORDER BY ROW_NUMBER() OVER (ORDER BY c, id)",
    "SELECT * FROM (SELECT id, RANK() OVER (PARTITION BY a ORDER BY b DESC) r FROM t) x \
     WHERE r = 1 ORDER BY id",
    "SELECT id, LAG(b, -1) OVER (ORDER BY id) l FROM t ORDER BY id",
    // No ORDER BY: rows leave in the last window's sort (ties aside).
    "SELECT id, ROW_NUMBER() OVER (ORDER BY id DESC) FROM t",
    // Errors.
    "SELECT id FROM t WHERE ROW_NUMBER() OVER () > 1",
    "SELECT a FROM t GROUP BY a HAVING ROW_NUMBER() OVER () > 1",
    "SELECT RANK() OVER () FROM t",
    "SELECT ROW_NUMBER() OVER (ORDER BY id ROWS UNBOUNDED PRECEDING) FROM t",
    "SELECT SUM(ROW_NUMBER() OVER ()) OVER () FROM t",
    "SELECT SUM(b) OVER (ORDER BY c RANGE 1 PRECEDING) FROM t",
    "SELECT SUM(b) OVER (ORDER BY a, b RANGE 1 PRECEDING) FROM t",
    "SELECT NTILE(0) OVER (ORDER BY id) FROM t",
    "SELECT ROW_NUMBER() OVER w FROM t",
    "SELECT ROW_NUMBER() OVER w FROM t WINDOW w AS (), w AS (ORDER BY id)",
    "SELECT ROW_NUMBER() OVER (w ORDER BY b) FROM t WINDOW w AS (ORDER BY a)",
    "SELECT COUNT(*) OVER (ORDER BY id ROWS BETWEEN 1 PRECEDING AND CURRENT ROW EXCLUDE CURRENT ROW) FROM t",
    "SELECT GROUP_CONCAT(c) OVER () FROM t",
    "SELECT SUM(DISTINCT b) OVER () FROM t",
];

#[test]
fn window_functions_answer_as_mariadb() {
    let server = Server::start();
    let mariadb = MariaDb::start();
    let ours = outcomes(&server.url(""), "win", SETUP, QUERIES, Shown::TypesAndRows);
    let theirs = outcomes(
        &format!("mysql://root@127.0.0.1:{}/", mariadb.port),
        "win",
        SETUP,
        QUERIES,
        Shown::TypesAndRows,
    );
    assert_same(&ours, &theirs);
    // Not vacuous: results came back, and the errors are errors.
    assert!(ours[0].contains(r#"Bytes(\"8\")"#), "{}", ours[0]);
    assert!(ours.iter().filter(|o| o.contains("-> error 40")).count() >= 10);
}
