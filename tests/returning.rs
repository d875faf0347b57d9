//! INSERT, REPLACE and DELETE … RETURNING beside MariaDB: the rows written
//! or removed through the RETURNING list (columns, `*`, expressions and
//! their names), their column definitions, errors, and the statement's
//! effect; and over the binary protocol, prepared with parameters.
mod common;
use common::differential::{same_as_mariadb, Shown};
use common::mariadb::MariaDb;
use common::Server;
use mysql::prelude::*;
use mysql::{Conn, Opts, Value};

const SETUP: &[&str] = &[
    "CREATE TABLE t (id INT AUTO_INCREMENT PRIMARY KEY, v VARCHAR(10), \
     n DECIMAL(5,2) NOT NULL DEFAULT 1.5, UNIQUE KEY (v))",
];

const STATEMENTS: &[&str] = &[
    "INSERT INTO t (v) VALUES ('a'), ('b') RETURNING id, v, CONCAT(v, 'x') AS c, n*2, t.*",
    "INSERT INTO t (v) VALUES ('c') RETURNING *",
    "INSERT INTO t (v) SELECT CONCAT(v, v) FROM t WHERE id < 3 RETURNING id, UPPER(v)",
    "REPLACE INTO t (id, v) VALUES (1, 'z') RETURNING id, v",
    "INSERT IGNORE INTO t (id, v) VALUES (1, 'dup'), (10, 'ten') RETURNING id",
    "INSERT INTO t (v) VALUES ('a') RETURNING id",
    "INSERT INTO t (v) VALUES ('q') RETURNING nosuch",
    "INSERT INTO t (v) VALUES ('q') RETURNING u.*",
    "SELECT * FROM t ORDER BY id",
    "DELETE FROM t WHERE id > 5 RETURNING id, v",
    "DELETE FROM t WHERE id = 99 RETURNING id",
    "DELETE FROM t ORDER BY id DESC LIMIT 1 RETURNING *",
    "SELECT * FROM t ORDER BY id",
    // ON DUPLICATE KEY UPDATE: a row updated returns as it is left;
    // VALUE(col) is VALUES(col).
    "INSERT INTO t (id, v) VALUES (1, 'w'), (30, 'thirty') \
     ON DUPLICATE KEY UPDATE v = CONCAT(VALUE(v), '!') RETURNING id, v, n",
    "SELECT * FROM t ORDER BY id",
];

#[test]
fn returning_rows_as_mariadbs() {
    let server = Server::start();
    let mariadb = MariaDb::start();
    same_as_mariadb(
        &server,
        &mariadb,
        "ret_rows",
        SETUP,
        STATEMENTS,
        Shown::NamesAndRows,
    );
    same_as_mariadb(
        &server,
        &mariadb,
        "ret_meta",
        SETUP,
        STATEMENTS,
        Shown::Metadata,
    );
    same_as_mariadb(
        &server,
        &mariadb,
        "ret_changes",
        SETUP,
        STATEMENTS,
        Shown::Changes,
    );
}

/// Prepared (binary protocol) with parameters: the rows come back typed
/// as MariaDB's, and a bare parameter in the list is typed by its value.
#[test]
fn prepared_returning_as_mariadbs() {
    let server = Server::start();
    let mariadb = MariaDb::start();
    let run = |url: String| -> Vec<String> {
        let mut c = Conn::new(Opts::from_url(&url).unwrap()).unwrap();
        c.query_drop("DROP DATABASE IF EXISTS ret_prep").unwrap();
        c.query_drop("CREATE DATABASE ret_prep").unwrap();
        c.query_drop("USE ret_prep").unwrap();
        c.query_drop(SETUP[0]).unwrap();
        let mut seen = Vec::new();
        for (sql, params) in [
            (
                "INSERT INTO t (v, n) VALUES (?, ?) RETURNING id, v, n, ?",
                vec![Value::from("p"), Value::from(2.5), Value::from(7)],
            ),
            (
                "DELETE FROM t WHERE v = ? RETURNING id, n",
                vec![Value::from("p")],
            ),
        ] {
            let rows: Vec<mysql::Row> = c.exec(sql, params).unwrap();
            for r in rows {
                let columns: Vec<String> = r
                    .columns_ref()
                    .iter()
                    .map(|c| {
                        format!(
                            "{}:{:?}:{}",
                            c.name_str(),
                            c.column_type(),
                            c.column_length()
                        )
                    })
                    .collect();
                seen.push(format!("{sql}: {columns:?} {:?}", r.unwrap()));
            }
        }
        seen
    };
    let ours = run(server.url(""));
    let theirs = run(format!("mysql://root@127.0.0.1:{}/", mariadb.port));
    assert_eq!(ours, theirs);
    assert_eq!(ours.len(), 2);
}
