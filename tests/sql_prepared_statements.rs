//! SQL prepared statements (PREPARE ... FROM 'text' | @variable, EXECUTE
//! ... USING, EXECUTE IMMEDIATE, DEALLOCATE / DROP PREPARE) through a real
//! `lineardb serve`, statement by statement beside a real MariaDB 10.11:
//! the same rows, column names, affected rows and info, and the same errors
//! (1210, 1243, 1295, a failed PREPARE dropping the statement of its name).
mod common;
use common::differential::{same_as_mariadb, Shown};
use common::mariadb::MariaDb;
use common::Server;

const SETUP: &[&str] = &[
    "CREATE TABLE t (id INT PRIMARY KEY, v INT)",
    "INSERT INTO t VALUES (1, 10), (2, 20), (3, 30)",
];

const STEPS: &[&str] = &[
    "PREPARE s FROM 'SELECT ? + 1 AS x, v FROM t WHERE id = ?'",
    "SET @a = 5, @id = 2",
    "EXECUTE s USING @a, @id",
    "EXECUTE s USING 1, 3",
    "EXECUTE s USING @nosuch, 1",
    "SET @q = 'SELECT id FROM t WHERE id > ? ORDER BY id DESC'",
    "PREPARE s2 FROM @q",
    "EXECUTE s2 USING 1",
    "DEALLOCATE PREPARE s2",
    "PREPARE Ins FROM 'INSERT INTO t VALUES (?, ?)'",
    "EXECUTE ins USING 4, 40",
    "EXECUTE INS USING 5, 50",
    "DROP PREPARE ins",
    "PREPARE up FROM 'UPDATE t SET v = v + ? WHERE id > ?'",
    "EXECUTE up USING 100, 3",
    "SELECT * FROM t ORDER BY id",
    "EXECUTE IMMEDIATE 'SELECT ? * 2 AS doubled' USING 21",
    "SET @n = 'SELECT COUNT(*) FROM t'",
    "EXECUTE IMMEDIATE @n",
    "PREPARE nl FROM 'SELECT \\'a\\\\nb\\' AS s'",
    "EXECUTE nl",
    // A PREPARE that fails leaves no statement of its name.
    "PREPARE s FROM 'SELECT 1 FROM nosuch'",
    "SELECT * FROM t ORDER BY id",
];

/// Errors, compared by code (their texts quote the statement).
const ERRORS: &[&str] = &[
    "PREPARE s FROM 'SELECT ?, ?'",
    "EXECUTE s USING 1",
    "EXECUTE s USING 1, 2, 3",
    "EXECUTE nosuch",
    "DEALLOCATE PREPARE nosuch",
    "DROP PREPARE nosuch",
    "PREPARE p FROM 'SELECT 1; SELECT 2'",
    "PREPARE p FROM 'PREPARE x FROM ''SELECT 1'''",
    "PREPARE p FROM 'EXECUTE s'",
    "PREPARE p FROM 'DEALLOCATE PREPARE s'",
    "SET @null = NULL",
    "PREPARE p FROM @null",
    "EXECUTE s(1, 2)",
    "DEALLOCATE s",
    "PREPARE s FROM 'SELECT nosuch'",
    "EXECUTE s USING 1, 2",
];

#[test]
fn sql_prepared_statements_answer_as_mariadb() {
    let server = Server::start();
    let mariadb = MariaDb::start();
    let ours = same_as_mariadb(&server, &mariadb, "ps", SETUP, STEPS, Shown::Changes);
    same_as_mariadb(&server, &mariadb, "ps", SETUP, STEPS, Shown::NamesAndRows);
    let ours_errors = same_as_mariadb(&server, &mariadb, "ps", SETUP, ERRORS, Shown::Rows);
    assert!(ours[2].contains(r#"Bytes(\"6\")"#), "{}", ours[2]);
    assert!(ours_errors[1].contains("error 1210"), "{}", ours_errors[1]);
}
