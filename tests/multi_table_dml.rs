//! Multi-table UPDATE and DELETE through a real `lineardb serve`, statement
//! by statement beside a real MariaDB 10.11: JOIN and comma forms, LEFT
//! JOIN targets, self joins, each row changed once with its first joined
//! row's values, SET reading the values rows had before the statement,
//! ORDER BY and LIMIT on UPDATE, both DELETE forms; MariaDB's errors
//! (1052, 1054, 1064, 1066, 1109, 1288). Then concurrent joined updates of
//! one counter from several connections: no update lost.
mod common;
use common::differential::{same_as_mariadb, Shown};
use common::mariadb::MariaDb;
use common::Server;
use mysql::prelude::*;
use mysql::{Conn, Opts};

const STEPS: &[&str] = &[
    "CREATE TABLE t1 (id INT PRIMARY KEY, a INT, b INT)",
    "CREATE TABLE t2 (id INT PRIMARY KEY, x INT, y INT)",
    "CREATE TABLE t3 (v INT PRIMARY KEY)",
    "INSERT INTO t1 VALUES (1,10,0),(2,20,0),(3,30,0)",
    "INSERT INTO t2 VALUES (1,100,0),(2,200,0),(4,400,0),(5,1,0)",
    "INSERT INTO t3 VALUES (1),(2)",
    "UPDATE t1, t2 SET t1.b = t2.x, t2.y = t1.a WHERE t1.id = t2.id",
    "SELECT * FROM t1 ORDER BY id",
    "SELECT * FROM t2 ORDER BY id",
    // SET reads the values the row had before the statement.
    "UPDATE t1 JOIN t2 ON t1.id = t2.id SET t1.a = t1.a + 1, t1.b = t1.a",
    "SELECT * FROM t1 ORDER BY id",
    // A row joined twice is changed once.
    "UPDATE t1 JOIN t3 ON t3.v <= t1.id SET t1.a = t1.a + 100",
    "SELECT * FROM t1 ORDER BY id",
    "UPDATE t1 JOIN t2 ON t1.id = t2.id SET t1.a = 50 ORDER BY t1.id LIMIT 1",
    "UPDATE t1 JOIN t2 ON t1.id = t2.id SET t1.a = 60 ORDER BY t1.id DESC LIMIT 1",
    "SELECT * FROM t1 ORDER BY id",
    "UPDATE t1 AS a JOIN t1 AS b ON a.id = b.id + 1 SET a.b = b.a",
    "SELECT * FROM t1 ORDER BY id",
    "UPDATE t1 LEFT JOIN t2 ON t1.id = t2.id SET t2.y = 7, t1.b = 9",
    "SELECT * FROM t1 ORDER BY id",
    "SELECT * FROM t2 ORDER BY id",
    "UPDATE t1 JOIN t2 ON t1.id = t2.id SET t1.a = (SELECT COUNT(*) FROM t2), \
     t2.x = (SELECT MAX(id) FROM t1)",
    "UPDATE t1 JOIN t2 ON t1.id = t2.id SET t1.b = 9 WHERE t2.y = 7",
    "UPDATE t1 AS a SET a.a = 5 WHERE a.id = 3",
    "UPDATE t1 AS a SET a.b = 6 WHERE a.a = 5 ORDER BY a.id LIMIT 1",
    "SELECT * FROM t1 ORDER BY id",
    "SELECT * FROM t2 ORDER BY id",
    // Errors change nothing.
    "UPDATE t1 JOIN t2 ON t1.id = t2.id SET zz = 1",
    "UPDATE t1 JOIN t2 ON t1.id = t2.id SET t1.zz = 1",
    "UPDATE t1 JOIN t2 ON t1.id = t2.id SET t9.a = 1",
    "UPDATE t1 JOIN t2 ON t1.id = t2.id SET id = 1",
    "UPDATE (SELECT * FROM t1) AS d JOIN t2 ON d.id = t2.id SET d.a = 1",
    "UPDATE t1, t1 SET t1.a = 1",
    "UPDATE t1 JOIN nosuch ON t1.id = nosuch.id SET t1.a = 1",
    "UPDATE t1 AS a JOIN t1 AS b ON a.id = b.id + 1 SET a.id = b.id",
    "DELETE t3 FROM t1 JOIN t2 ON t1.id = t2.id",
    "DELETE t2 FROM t2 AS a",
    "SELECT * FROM t1 ORDER BY id",
    "SELECT * FROM t2 ORDER BY id",
    "DELETE t1, t2 FROM t1 JOIN t2 ON t1.id = t2.id WHERE t1.id = 1",
    "SELECT * FROM t1 ORDER BY id",
    "SELECT * FROM t2 ORDER BY id",
    "DELETE FROM t1, t2 USING t1 JOIN t2 ON t1.id = t2.id WHERE t1.id = 2",
    "DELETE a FROM t2 AS a LEFT JOIN t1 AS b ON a.id = b.id WHERE b.id IS NULL",
    "SELECT * FROM t1 ORDER BY id",
    "SELECT * FROM t2 ORDER BY id",
    "DELETE mt.t1 FROM t1 JOIN t3 ON t3.v < t1.id",
    "SELECT * FROM t1 ORDER BY id",
];

/// Syntax errors (their texts quote the statement, compared by code).
const SYNTAX_ERRORS: &[&str] = &[
    "UPDATE t1, t2 SET t1.a = 1 FROM t3",
    "UPDATE t1 FROM t2 SET t1.a = 1",
    "UPDATE t1 SET t1.a = 1 FROM t3",
    "DELETE t1 FROM t1 JOIN t2 ON t1.id = t2.id ORDER BY t1.id",
    "DELETE t1 FROM t1 JOIN t2 ON t1.id = t2.id LIMIT 1",
    "DELETE FROM t1 AS a WHERE a.id = 1",
    "SELECT * FROM t1",
];

#[test]
fn multi_table_update_and_delete_answer_as_mariadb() {
    let server = Server::start();
    let mariadb = MariaDb::start();
    let ours = same_as_mariadb(&server, &mariadb, "mt", &[], STEPS, Shown::Changes);
    let setup = &STEPS[..6];
    same_as_mariadb(&server, &mariadb, "mt", setup, SYNTAX_ERRORS, Shown::Rows);
    assert!(ours[6].contains("affected 4"), "{}", ours[6]);
}

#[test]
fn concurrent_joined_updates_lose_nothing() {
    let server = Server::start();
    let mut c = Conn::new(Opts::from_url(&server.url("")).unwrap()).unwrap();
    c.query_drop("CREATE DATABASE mtc").unwrap();
    c.query_drop("CREATE TABLE mtc.counter (id INT PRIMARY KEY, n INT)")
        .unwrap();
    c.query_drop("CREATE TABLE mtc.step (id INT PRIMARY KEY, counter_id INT, inc INT)")
        .unwrap();
    c.query_drop("INSERT INTO mtc.counter VALUES (1, 0), (2, 0)")
        .unwrap();
    c.query_drop("INSERT INTO mtc.step VALUES (1, 1, 1), (2, 2, 3)")
        .unwrap();
    const THREADS: usize = 4;
    const UPDATES: usize = 50;
    let url = server.url("mtc");
    let workers: Vec<_> = (0..THREADS)
        .map(|_| {
            let url = url.clone();
            std::thread::spawn(move || {
                let mut c = Conn::new(Opts::from_url(&url).unwrap()).unwrap();
                for _ in 0..UPDATES {
                    c.query_drop(
                        "UPDATE counter, step SET counter.n = counter.n + step.inc \
                         WHERE counter.id = step.counter_id",
                    )
                    .unwrap();
                }
            })
        })
        .collect();
    for w in workers {
        w.join().unwrap();
    }
    let counts: Vec<(i64, i64)> = c
        .query("SELECT id, n FROM mtc.counter ORDER BY id")
        .unwrap();
    let n = (THREADS * UPDATES) as i64;
    assert_eq!(counts, vec![(1, n), (2, 3 * n)]);
}

#[test]
fn set_columns_are_looked_for_only_in_readable_tables() {
    let server = Server::start();
    let mut root = Conn::new(Opts::from_url(&server.url("")).unwrap()).unwrap();
    for sql in [
        "CREATE DATABASE mtp",
        "CREATE TABLE mtp.t1 (id INT PRIMARY KEY, a INT)",
        "CREATE TABLE mtp.secret (id INT PRIMARY KEY, a INT)",
        "INSERT INTO mtp.t1 VALUES (1, 1)",
        "INSERT INTO mtp.secret VALUES (1, 7)",
        "CREATE USER mtu IDENTIFIED BY 'pw'",
        "GRANT SELECT, UPDATE ON mtp.t1 TO mtu",
    ] {
        root.query_drop(sql).unwrap();
    }
    let url = server.url("mtp").replacen("root@", "mtu:pw@", 1);
    let mut c = Conn::new(Opts::from_url(&url).unwrap()).unwrap();
    // `a` is in both tables: an "ambiguous" answer would tell that the
    // unreadable table has it. The join reads that table: denied.
    let e = c
        .query_drop("UPDATE t1 JOIN secret ON t1.id = secret.id SET a = 2")
        .unwrap_err();
    assert!(
        matches!(&e, mysql::Error::MySqlError(m) if m.code == 1142),
        "{e}"
    );
    let e = c
        .query_drop("UPDATE t1 JOIN secret ON t1.id = secret.id SET secret.a = 2")
        .unwrap_err();
    assert!(
        matches!(&e, mysql::Error::MySqlError(m) if m.code == 1142),
        "{e}"
    );
    let rows: Vec<(i64, i64)> = root.query("SELECT id, a FROM mtp.secret").unwrap();
    assert_eq!(rows, vec![(1, 7)]);
}
