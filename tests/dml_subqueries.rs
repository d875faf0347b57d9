//! UPDATE and DELETE with subqueries through a real `lineardb serve`,
//! statement by statement beside a real MariaDB 10.11: IN, EXISTS and
//! scalar subqueries in WHERE and SET, correlated or not, over another
//! table or the one being changed (read as the statement found it), with
//! ORDER BY and LIMIT, and the errors of a subquery of several rows or
//! columns; the same affected rows, info, errors and final rows.
mod common;
use common::differential::{assert_same, outcomes, Shown};
use common::mariadb::MariaDb;
use common::Server;

const STEPS: &[&str] = &[
    "CREATE TABLE u (id INT PRIMARY KEY, t_id INT)",
    "INSERT INTO u VALUES (1,1),(2,3),(3,9)",
    "CREATE TABLE t (id INT PRIMARY KEY, a INT, b INT, c VARCHAR(10))",
    "INSERT INTO t VALUES (1,1,1,'x'),(2,1,2,'y'),(3,2,2,'z'),(4,2,3,'x'),(5,3,NULL,'y'), \
     (6,NULL,5,'z'),(7,2,2,'w'),(8,1,7,'v'),(9,4,4,'u'),(10,4,1,'t')",
    // The table being changed, read as the statement found it.
    "DELETE FROM t WHERE a IN (SELECT a FROM t WHERE b = 2) AND id > 1 AND id < 8",
    "SELECT * FROM t ORDER BY id",
    "UPDATE t SET b = (SELECT MAX(id) FROM u) WHERE id IN (SELECT t_id FROM u)",
    "UPDATE t SET b = (SELECT COUNT(*) FROM t AS x WHERE x.a = t.a)",
    "SELECT * FROM t ORDER BY id",
    "UPDATE t SET b = b + (SELECT SUM(b) FROM t AS x) WHERE id < 9",
    "SELECT * FROM t ORDER BY id",
    "UPDATE t SET c = 'n' WHERE NOT EXISTS (SELECT 1 FROM u WHERE u.t_id = t.id) ORDER BY id DESC LIMIT 2",
    "DELETE FROM t WHERE EXISTS (SELECT 1 FROM u WHERE u.t_id = t.id) ORDER BY id DESC LIMIT 1",
    "SELECT * FROM t ORDER BY id",
    "DELETE FROM t WHERE id = (SELECT MAX(id) FROM t)",
    "UPDATE t SET a = a * 10 WHERE b > ALL (SELECT t_id FROM u WHERE t_id < 9)",
    "SELECT * FROM t ORDER BY id",
    // Errors leave every row as it was.
    "UPDATE t SET c = (SELECT id FROM u)",
    "UPDATE t SET a = (SELECT 1, 2) WHERE id = 1",
    "DELETE FROM t WHERE id = (SELECT id FROM u)",
    "SELECT * FROM t ORDER BY id",
];

#[test]
fn update_and_delete_with_subqueries_answer_as_mariadb() {
    let server = Server::start();
    let mariadb = MariaDb::start();
    let ours = outcomes(&server.url(""), "dsub", &[], STEPS, Shown::Changes);
    let theirs = outcomes(
        &format!("mysql://root@127.0.0.1:{}/", mariadb.port),
        "dsub",
        &[],
        STEPS,
        Shown::Changes,
    );
    assert_same(&ours, &theirs);
    assert!(ours[4].contains("affected 4"), "{}", ours[4]);
    assert!(ours[17].contains("error 1242"), "{}", ours[17]);
}
