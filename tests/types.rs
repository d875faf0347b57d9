//! Column types beside a real MariaDB 10.11: FLOAT (a 4-byte float shown
//! with six significant digits), YEAR (two-digit years, the zero year),
//! BINARY (zero-padded), VARBINARY, TINY/MEDIUM/LONG TEXT and BLOB — their
//! values, wire types, character sets and limits, in SHOW CREATE TABLE and
//! SHOW COLUMNS, through the text and the binary protocol.
mod common;
use common::differential::{same_as_mariadb, Shown};
use common::mariadb::MariaDb;
use common::Server;
use mysql::prelude::*;
use mysql::{Conn, Opts};

const SETUP: &[&str] = &[
    "CREATE TABLE ft (id INT PRIMARY KEY, f FLOAT, y YEAR, b BLOB, tx TEXT, vb VARBINARY(10), \
     bn BINARY(3), c CHAR(3), tt TINYTEXT, mt MEDIUMTEXT, lb LONGBLOB, d DOUBLE, \
     f24 FLOAT(24), f53 FLOAT(53))",
    "INSERT INTO ft VALUES (1, 3.14159265, 24, 'ab', 'cd', 'ef', 'g', 'h', 'i', 'j', 'k', 1.1, \
     1.5, 2.5)",
    "INSERT INTO ft (id, f, y) VALUES (2, 1234567.8, '0'), (3, 0.1, 0), (4, 1e20, 1999), \
     (5, 123456789, 2155), (6, -2.5, '70')",
    "CREATE TABLE plain (f FLOAT, y YEAR(4), b BLOB, tx TEXT, vb VARBINARY(10), bn BINARY(3), \
     tt TINYTEXT, mt MEDIUMTEXT, lb LONGBLOB, tb TINYBLOB, mb MEDIUMBLOB, lt LONGTEXT)",
];

const STEPS: &[&str] = &[
    "SELECT * FROM ft ORDER BY id",
    "SELECT f, y FROM ft WHERE y > 2000 ORDER BY f",
    "SELECT id FROM ft WHERE f > 0.09 AND f < 0.11",
    "SELECT id, f FROM ft WHERE f = 0.1",
    "SELECT f + 1, y + 1, f * 2 FROM ft ORDER BY id",
    "SELECT LENGTH(b), HEX(bn), LENGTH(bn), CONCAT(c, '!') FROM ft WHERE id = 1",
    "SELECT id FROM ft WHERE bn = 'g'",
    "SELECT id FROM ft WHERE bn = 'g\\0\\0'",
    "INSERT INTO ft (id, y) VALUES (7, 1900)",
    "INSERT INTO ft (id, y) VALUES (8, 2156)",
    "INSERT INTO ft (id, vb) VALUES (9, 'abcdefghijk')",
    "INSERT INTO ft (id, bn) VALUES (10, 'abcd')",
    "INSERT INTO ft (id, tt) VALUES (11, REPEAT('x', 256))",
    "INSERT INTO ft (id, tt) VALUES (12, REPEAT('x', 255))",
    "SELECT id, LENGTH(tt) FROM ft WHERE id > 6 ORDER BY id",
    "SELECT * FROM plain",
];

/// Compared by their rows only (SHOW's own column types are another
/// matter).
const SHOWN: &[&str] = &["SHOW COLUMNS FROM plain", "SHOW CREATE TABLE plain"];

#[test]
fn types_show_and_store_as_mariadb_does() {
    let server = Server::start();
    let mariadb = MariaDb::start();
    same_as_mariadb(&server, &mariadb, "tys", SETUP, STEPS, Shown::TypesAndRows);
    let create = same_as_mariadb_but_engine(&server, &mariadb);
    assert!(create.contains("`f` float DEFAULT NULL"), "{create}");
}

/// SHOW COLUMNS and SHOW CREATE TABLE as MariaDB's, but for the engine's
/// name; returns lineardb's SHOW CREATE TABLE.
fn same_as_mariadb_but_engine(server: &Server, mariadb: &MariaDb) -> String {
    let ours = common::differential::outcomes(&server.url(""), "tyc", SETUP, SHOWN, Shown::Rows);
    let theirs = common::differential::outcomes(
        &format!("mysql://root@127.0.0.1:{}/", mariadb.port),
        "tyc",
        SETUP,
        SHOWN,
        Shown::Rows,
    );
    let ours: Vec<String> = ours
        .iter()
        .map(|o| o.replace("ENGINE=lineardb", "ENGINE=InnoDB"))
        .collect();
    common::differential::assert_same(&ours, &theirs);
    ours[1].clone()
}

#[test]
fn binary_protocol_sends_float_year_and_blob_as_mariadb_does() {
    let server = Server::start();
    let mariadb = MariaDb::start();
    let rows = |url: &str| -> Vec<mysql::Row> {
        let mut c = Conn::new(Opts::from_url(url).unwrap()).unwrap();
        c.query_drop("DROP DATABASE IF EXISTS tyb").unwrap();
        c.query_drop("CREATE DATABASE tyb").unwrap();
        c.query_drop("USE tyb").unwrap();
        for s in &SETUP[..3] {
            c.query_drop(*s).unwrap();
        }
        c.exec(
            "SELECT f, y, b, bn, tx, d FROM ft WHERE id <= ? ORDER BY id",
            (6,),
        )
        .unwrap()
    };
    let ours = rows(&server.url(""));
    let theirs = rows(&format!("mysql://root@127.0.0.1:{}/", mariadb.port));
    assert_eq!(ours.len(), 6);
    for (a, b) in ours.iter().zip(&theirs) {
        let (a, b) = (a.clone().unwrap(), b.clone().unwrap());
        assert_eq!(a, b);
    }
}
