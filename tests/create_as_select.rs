//! CREATE TABLE … SELECT beside a real MariaDB 10.11: the columns the
//! query gives (a stored column's type, NULL-ability and default; defined
//! columns first, a defined column of the query's name keeping its
//! definition), keys defined with it, the rows, a failure that leaves no
//! table, IF NOT EXISTS, temporary tables.
mod common;
use common::differential::same_rows_and_messages;
use common::mariadb::MariaDb;
use common::Server;

const SETUP: &[&str] = &[
    "CREATE TABLE s (id INT PRIMARY KEY AUTO_INCREMENT, a VARCHAR(10) NOT NULL DEFAULT 'x', \
     b DECIMAL(6,2), d DATETIME(3), k INT, KEY (k))",
    "INSERT INTO s (a, b, d, k) VALUES ('p', 1.5, '2024-01-02 03:04:05.678', 3), \
     ('q', NULL, NULL, 4), ('r', 2.25, NULL, NULL)",
];

const STEPS: &[&str] = &[
    "CREATE TABLE c1 AS SELECT * FROM s",
    "SHOW CREATE TABLE c1",
    "SELECT * FROM c1 ORDER BY id",
    "CREATE TABLE c3 (id INT PRIMARY KEY, extra INT DEFAULT 7) SELECT id, a FROM s",
    "SHOW CREATE TABLE c3",
    "SELECT * FROM c3 ORDER BY id",
    "CREATE TABLE c4 (PRIMARY KEY (id), KEY ka (a)) SELECT id, a FROM s WHERE k > 3",
    "SHOW CREATE TABLE c4",
    "SELECT * FROM c4",
    "CREATE TABLE c4 SELECT 1",
    "CREATE TABLE IF NOT EXISTS c4 SELECT 1 AS id, 'x' AS a",
    "SELECT * FROM c4",
    "CREATE TABLE c5 SELECT k FROM s UNION SELECT 9",
    "SELECT * FROM c5 ORDER BY k",
    // A row the table refuses: no table is left.
    "CREATE TABLE c6 (id INT PRIMARY KEY) SELECT k AS id FROM s",
    "SELECT * FROM c6",
    "CREATE TABLE c7 (id TINYINT) SELECT id * 100 AS id FROM s",
    "SELECT * FROM c7",
    "CREATE TABLE c8 SELECT a, COUNT(*) AS n FROM s GROUP BY a",
    "SELECT * FROM c8 ORDER BY a",
    "CREATE TEMPORARY TABLE c9 SELECT id, a FROM s WHERE id = 2",
    "SELECT * FROM c9",
    "INSERT INTO c1 (id, a) VALUES (10, 'z')",
    "SELECT COUNT(*) FROM c1",
];

#[test]
fn create_table_as_select_as_mariadb_does() {
    let server = Server::start();
    let mariadb = MariaDb::start();
    same_rows_and_messages(&server, &mariadb, "cas", SETUP, STEPS, &[]);
}
