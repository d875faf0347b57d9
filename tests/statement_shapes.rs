//! Text statements of one shape (the same text but for its values) beside
//! a real MariaDB 10.11: from the second statement of a shape on, lineardb
//! builds the statement from the shape it parsed once and the statement's
//! own literals (`crates/sql/src/statement_cache`). Each shape below is
//! sent several times with values of other kinds, lengths and signs, and
//! every outcome — rows, column names and definitions, affected rows,
//! errors — must be MariaDB's, as it is for the first statement.
mod common;
use common::differential::{same_as_mariadb, Shown};
use common::mariadb::MariaDb;
use common::Server;

const SETUP: &[&str] = &[
    "CREATE TABLE t (id INT PRIMARY KEY, n INT, s VARCHAR(20), d DECIMAL(8,2), \
     day DATE, e ENUM('small','medium','large'), KEY k_n (n))",
    "INSERT INTO t VALUES (1, 10, 'ten', 1.50, '2020-01-02', 'large'), \
     (2, 20, '9', 2.25, '2021-03-04', 'small'), (3, NULL, 'it''s', -3.00, NULL, 'medium')",
];

/// Queries: each shape three times or more.
const QUERIES: &[&str] = &[
    "SELECT id FROM t WHERE n = 10",
    "SELECT id FROM t WHERE n = 20",
    "SELECT id FROM t WHERE n = '20'",
    "SELECT id FROM t WHERE n = 20.0",
    "SELECT id FROM t WHERE n = 2e1",
    "SELECT id FROM t WHERE n = -5",
    // A string column beside numbers and strings.
    "SELECT id FROM t WHERE s > 8 ORDER BY id",
    "SELECT id FROM t WHERE s > '8' ORDER BY id",
    "SELECT id FROM t WHERE s > 10 ORDER BY id",
    // An ENUM beside member numbers and names.
    "SELECT id FROM t WHERE e = 3",
    "SELECT id FROM t WHERE e = 1",
    "SELECT id FROM t WHERE e = 'small'",
    "SELECT id FROM t WHERE e IN (1, 3) ORDER BY id",
    "SELECT id FROM t WHERE e IN (2, 3) ORDER BY id",
    "SELECT id FROM t WHERE e IN (2, 3, 1) ORDER BY id",
    // Dates beside strings and numbers.
    "SELECT id FROM t WHERE day > '2020-06-01'",
    "SELECT id FROM t WHERE day > '2019-06-01' ORDER BY id",
    "SELECT id FROM t WHERE day > 20200601",
    // Literals of the select list, ordinals and limits keep their text.
    "SELECT 1, 'a', n + 1 FROM t WHERE id = 1",
    "SELECT 22, 'abc', n + 100 FROM t WHERE id = 2",
    "SELECT 3.5, '', n + 1.25 FROM t WHERE id = 3",
    "SELECT id, s FROM t WHERE id > 0 ORDER BY 2 LIMIT 2",
    "SELECT id, s FROM t WHERE id > 1 ORDER BY 1 LIMIT 1",
    "SELECT id, s FROM t WHERE id > 0 ORDER BY 1 DESC LIMIT 1, 1",
    // Strings: doubled quotes, escapes (parsed as written), LIKE.
    "SELECT id FROM t WHERE s = 'it''s'",
    "SELECT id FROM t WHERE s = 'ten'",
    "SELECT id FROM t WHERE s = 'it\\'s'",
    "SELECT id FROM t WHERE s LIKE 't%'",
    "SELECT id FROM t WHERE s LIKE '%s'",
    // Decimals and arithmetic.
    "SELECT id FROM t WHERE d BETWEEN 1 AND 2",
    "SELECT id FROM t WHERE d BETWEEN 1.5 AND 2.25 ORDER BY id",
    "SELECT id FROM t WHERE d BETWEEN -5 AND '1.6' ORDER BY id",
    "SELECT id FROM t WHERE n * 2 = 40",
    "SELECT id FROM t WHERE n * 2.5 = 25",
    "SELECT id FROM t WHERE n + 'x' = 10",
    // Errors of one shape.
    "SELECT id FROM t WHERE nosuch = 1",
    "SELECT id FROM t WHERE nosuch = 2",
    "SELECT id FROM t WHERE n = 1 FOR UPDATE",
    "SELECT id FROM t WHERE n = 10 FOR UPDATE",
    "SELECT id FROM t WHERE id = 2 FOR UPDATE",
];

/// Statements that do not parse: MariaDB's message, near where reading
/// stopped (a clause's reserved word where an expression was wanted), and
/// forms that read those words where they belong.
const SYNTAX_ERRORS: &[&str] = &[
    "SELECT FROM t",
    "SELECT id, FROM t",
    "SELECT * FROM t WHERE",
    "SELECT * FROM t WHERE ORDER BY id",
    "SELECT id FROM t GROUP BY ORDER BY id",
    "SELECT CASE WHEN THEN 1 END",
    "SELECT 1 + FROM t",
    "SELECT id FROM t WHERE id IN (SELECT 1 UNION SELECT 2) ORDER BY id",
    "SELECT TRIM(LEADING 'a' FROM 'aab'), EXTRACT(YEAR FROM '2020-01-01'), \
     SUBSTRING('abc' FROM 2 FOR 1), POSITION('a' IN 'ba')",
    "SELECT d.order FROM (SELECT 1 AS `order`) d",
    "SELECT 1 FROM dual WHERE 1 GROUP BY 1 HAVING 1 ORDER BY 1 LIMIT 1",
    "SET autocommit = ON",
    "SET @@session.autocommit = ON, foreign_key_checks = OFF",
    "SELECT @@autocommit, @@foreign_key_checks",
    "SET foreign_key_checks = ON",
];

/// Changes: each shape three times or more.
const CHANGES: &[&str] = &[
    "INSERT INTO t (id, n, s, d) VALUES (10, 1, 'a', 1.5)",
    "INSERT INTO t (id, n, s, d) VALUES (11, -2, 'bb''c', 22)",
    "INSERT INTO t (id, n, s, d) VALUES (12, '3', 'x', '7.125')",
    "INSERT INTO t (id, n, s, d) VALUES (12, 4, 'dup', 0)",
    "INSERT INTO t (id, n, s, d) VALUES (13, 99999999999, 'big', 0)",
    "INSERT INTO t (id, n, s, d) VALUES (14, 1, 'a string longer than twenty', 0)",
    "UPDATE t SET n = n + 1, s = 'u1' WHERE id = 10",
    "UPDATE t SET n = n + 5, s = 'u22' WHERE id = 11",
    "UPDATE t SET n = n + 1, s = 'u1' WHERE id = 999",
    "UPDATE t SET n = n + 1.5, s = 12 WHERE id = '12'",
    "UPDATE t SET d = d * 2 WHERE n > 0 ORDER BY id LIMIT 1",
    "UPDATE t SET d = d * 3 WHERE n > 1 ORDER BY id LIMIT 2",
    "DELETE FROM t WHERE id = 10",
    "DELETE FROM t WHERE id = 11",
    "DELETE FROM t WHERE id = '12'",
    "SELECT id, n, s, d FROM t ORDER BY id",
];

#[test]
fn statements_of_one_shape_answer_as_mariadb() {
    let server = Server::start();
    let mariadb = MariaDb::start();
    same_as_mariadb(
        &server,
        &mariadb,
        "shp",
        SETUP,
        QUERIES,
        Shown::NamesAndRows,
    );
    same_as_mariadb(&server, &mariadb, "shp", SETUP, QUERIES, Shown::Metadata);
    same_as_mariadb(&server, &mariadb, "shp", SETUP, CHANGES, Shown::Changes);
    same_as_mariadb(
        &server,
        &mariadb,
        "shp",
        SETUP,
        SYNTAX_ERRORS,
        Shown::Changes,
    );
}
