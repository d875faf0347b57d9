//! CREATE and DROP DATABASE (and SCHEMA, their synonym) beside MariaDB:
//! rows affected, the notes IF [NOT] EXISTS leaves (1007, 1008), the
//! character set a database is made with.
mod common;
use common::differential::{same_as_mariadb, Shown};
use common::mariadb::MariaDb;
use common::Server;

const STEPS: &[&str] = &[
    "DROP DATABASE IF EXISTS dbs_a",
    "SHOW WARNINGS",
    "CREATE DATABASE dbs_a",
    "CREATE DATABASE IF NOT EXISTS dbs_a",
    "SHOW WARNINGS",
    "CREATE DATABASE dbs_a",
    "CREATE SCHEMA IF NOT EXISTS dbs_a",
    "CREATE SCHEMA dbs_b CHARACTER SET latin1",
    "SHOW CREATE DATABASE dbs_b",
    "DROP SCHEMA dbs_b",
    "DROP DATABASE dbs_a",
    "DROP DATABASE IF EXISTS dbs_a",
    "SHOW WARNINGS",
    "DROP DATABASE dbs_a",
];

#[test]
fn databases_made_and_dropped_as_mariadbs() {
    let server = Server::start();
    let mariadb = MariaDb::start();
    same_as_mariadb(&server, &mariadb, "dbs", &[], STEPS, Shown::Changes);
}
