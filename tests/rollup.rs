//! GROUP BY ... WITH ROLLUP and HAVING through a real `lineardb serve`,
//! query by query beside a real MariaDB 10.11: rollup rows after the
//! groups they sum up (keys sorted, rolled-up keys NULL, expressions of
//! them too), with HAVING, LIMIT, DISTINCT and aggregates of every kind;
//! HAVING on aliases and without grouping; MariaDB's error for ROLLUP with
//! ORDER BY. Same rows and error codes, in the same order.
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
    "SELECT a, COUNT(*), SUM(d) FROM t GROUP BY a WITH ROLLUP",
    "SELECT a, b, COUNT(*), SUM(id), MIN(c), MAX(d), AVG(b) FROM t GROUP BY a, b WITH ROLLUP",
    "SELECT c, a, SUM(b) FROM t GROUP BY c, a WITH ROLLUP",
    "SELECT a + 1 AS x, COUNT(*) FROM t GROUP BY x WITH ROLLUP",
    "SELECT a, COUNT(*) AS n FROM t GROUP BY a WITH ROLLUP HAVING n > 1",
    "SELECT a, COUNT(*) FROM t GROUP BY a WITH ROLLUP LIMIT 3",
    "SELECT DISTINCT COUNT(*) FROM t GROUP BY a WITH ROLLUP",
    "SELECT a, GROUP_CONCAT(c ORDER BY c), COUNT(DISTINCT b) FROM t GROUP BY a WITH ROLLUP",
    "SELECT COUNT(*) FROM t WHERE id > 2 GROUP BY a, c WITH ROLLUP",
    "SELECT a, COUNT(*) FROM t WHERE id > 100 GROUP BY a WITH ROLLUP",
    "SELECT * FROM (SELECT a, SUM(b) AS s FROM t GROUP BY a WITH ROLLUP) AS r WHERE a IS NULL",
    // HAVING names an alias before a column, and filters ungrouped rows.
    "SELECT id, a AS c FROM t HAVING c = 1",
    "SELECT a, COUNT(*) AS c FROM t GROUP BY a HAVING c > 1 ORDER BY a",
    "SELECT id FROM t WHERE id > 2 HAVING id < 6 ORDER BY id",
    // Errors.
    "SELECT a, COUNT(*) FROM t GROUP BY a WITH ROLLUP ORDER BY a",
];

#[test]
fn rollup_and_having_answer_as_mariadb() {
    let server = Server::start();
    let mariadb = MariaDb::start();
    let ours = outcomes(&server.url(""), "roll", SETUP, QUERIES, Shown::Rows);
    let theirs = outcomes(
        &format!("mysql://root@127.0.0.1:{}/", mariadb.port),
        "roll",
        SETUP,
        QUERIES,
        Shown::Rows,
    );
    assert_same(&ours, &theirs);
    // The grand total closes the first query.
    assert!(
        ours[0].contains(r#"[Null, Bytes(\"8\"), Bytes(\"22.49\")]"#),
        "{}",
        ours[0]
    );
    assert!(ours[14].contains("error 1221"), "{}", ours[14]);
}
