//! Column names of select-list items without an alias, beside a real
//! MariaDB 10.11: columns as written, string literals by their value,
//! TRUE/FALSE/NULL in capitals, numbers and expressions by their text in
//! the statement (spacing, parentheses and inner comments kept), through
//! derived tables, UNION and views.
mod common;
use common::differential::{same_as_mariadb, Shown};
use common::mariadb::MariaDb;
use common::Server;

const SETUP: &[&str] = &[
    "CREATE TABLE t1 (id INT PRIMARY KEY, a INT, b INT)",
    "INSERT INTO t1 VALUES (1, 10, 100)",
];

const QUERIES: &[&str] = &[
    "SELECT ID, t1.A, `id`, a AS Al FROM t1",
    "SELECT count( * ), Count(*)  ,  concat('a' , 'b'), a  +  1 FROM t1 GROUP BY a",
    "SELECT (1), ((a)), (a+1), (-5), -5, - 5, -a, +a, + 5 FROM t1",
    "SELECT 1.50, 1e3, .5, 5., 0x41, x'41', NULL, null, true, FALSE FROM t1",
    "SELECT 'it''s', \"dq\", 'a' 'b', (('s')), '', 'x\\ty' FROM t1",
    "SELECT 1 /* c */ + 2, sum(a)/*c*/, a/*c*/ FROM t1",
    "SELECT (SELECT 1), b BETWEEN 1 AND 2, CAST(a AS CHAR), CASE WHEN a THEN 1 END FROM t1",
    "SELECT\n  a\n  +\n  1, concat(a,\n b) FROM t1",
    "SELECT DISTINCT a + 0 FROM t1",
    "SELECT * FROM (SELECT 1+1, 'abc', a*2 FROM t1) AS d",
    "SELECT 1+1 UNION SELECT 2",
    "SELECT a+b FROM t1 ORDER BY `a+b`",
];

#[test]
fn unnamed_items_are_named_as_in_mariadb() {
    let server = Server::start();
    let mariadb = MariaDb::start();
    let ours = same_as_mariadb(&server, &mariadb, "cn", SETUP, QUERIES, Shown::NamesAndRows);
    assert!(ours[1].contains("\"count( * )\""), "{}", ours[1]);
}
