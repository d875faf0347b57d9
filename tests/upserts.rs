//! INSERT ... ON DUPLICATE KEY UPDATE through a real `lineardb serve`,
//! statement by statement beside a real MariaDB 10.11: duplicates of the
//! primary key and of a unique index, VALUES(col), several rows colliding
//! within one statement, INSERT ... SELECT; the same affected rows, info,
//! errors and final rows.
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
