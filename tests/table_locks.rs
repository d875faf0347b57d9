//! LOCK TABLES, UNLOCK TABLES, savepoints and the transaction modes dump
//! tools use: one session's statements beside MariaDB's (errors 1099,
//! 1100, 1305, 1792), and two sessions, where a table locked by one holds
//! the other's statements until it is unlocked.
mod common;
use common::differential::{same_as_mariadb, Shown};
use common::mariadb::MariaDb;
use common::Server;
use mysql::prelude::*;
use std::time::{Duration, Instant};

const SETUP: &[&str] = &[
    "CREATE TABLE t (a INT PRIMARY KEY)",
    "CREATE TABLE u (a INT PRIMARY KEY)",
    "INSERT INTO t VALUES (1)",
    "CREATE VIEW tv AS SELECT a FROM t",
];

const STEPS: &[&str] = &[
    "LOCK TABLES t READ",
    "SELECT * FROM t",
    "SELECT * FROM u",
    "INSERT INTO t VALUES (2)",
    // SHOW OPEN TABLES: In_use counts the table's locks.
    "SHOW OPEN TABLES FROM tl WHERE In_use > 0",
    "SHOW OPEN TABLES FROM tl LIKE 't'",
    "SHOW OPEN TABLES FROM tl LIKE 'nosuch'",
    "LOCK TABLES t WRITE, u READ",
    "SHOW OPEN TABLES FROM tl LIKE 'u'",
    "INSERT INTO t VALUES (2)",
    "SELECT COUNT(*) FROM t JOIN u",
    "DELETE FROM u",
    "SELECT * FROM tv",
    "UNLOCK TABLES",
    "SHOW OPEN TABLES FROM tl WHERE In_use > 0",
    "LOCK TABLES tv READ",
    "SELECT * FROM tv ORDER BY a",
    "UNLOCK TABLES",
    "LOCK TABLE t AS x READ LOCAL",
    "LOCK TABLES nosuch READ",
    "UNLOCK TABLES",
    "SELECT * FROM u",
    // Savepoints.
    "SAVEPOINT nowhere",
    "ROLLBACK TO SAVEPOINT nowhere",
    "START TRANSACTION",
    "INSERT INTO u VALUES (1)",
    "SAVEPOINT s1",
    "INSERT INTO u VALUES (2)",
    "SAVEPOINT s2",
    "INSERT INTO u VALUES (3)",
    "ROLLBACK TO SAVEPOINT s2",
    "SELECT * FROM u ORDER BY a",
    "ROLLBACK TO s1",
    "RELEASE SAVEPOINT s2",
    "RELEASE SAVEPOINT s1",
    "COMMIT AND CHAIN",
    "INSERT INTO u VALUES (5)",
    "ROLLBACK",
    "SELECT * FROM u ORDER BY a",
    // With autocommit off, SAVEPOINT starts the transaction.
    "SET autocommit = 0",
    "SAVEPOINT s0",
    "INSERT INTO u VALUES (7)",
    "ROLLBACK TO SAVEPOINT s0",
    "SELECT COUNT(*) FROM u WHERE a = 7",
    "COMMIT",
    "SET autocommit = 1",
    // READ ONLY transactions and the modes dumps send.
    "START TRANSACTION READ ONLY",
    "INSERT INTO u VALUES (6)",
    "SELECT COUNT(*) FROM u",
    "COMMIT",
    "START TRANSACTION /*!40100 WITH CONSISTENT SNAPSHOT */, READ WRITE",
    "INSERT INTO u VALUES (6)",
    "COMMIT",
    "START TRANSACTION READ ONLY, READ WRITE",
    "SELECT * FROM u ORDER BY a",
];

#[test]
fn one_sessions_table_locks_as_mariadb() {
    let server = Server::start();
    let mariadb = MariaDb::start();
    same_as_mariadb(&server, &mariadb, "tl", SETUP, STEPS, Shown::Rows);
}

fn connect(server: &Server) -> mysql::Conn {
    mysql::Conn::new(mysql::Opts::from_url(&server.url("tlc")).unwrap()).unwrap()
}

/// Runs `sql` on another connection; how long it took, when it ended and
/// its rows.
fn elsewhere(
    server: &Server,
    sql: &'static str,
) -> std::thread::JoinHandle<(Duration, Instant, Vec<i64>)> {
    let mut c = connect(server);
    std::thread::spawn(move || {
        let start = Instant::now();
        let rows: Vec<i64> = c.query(sql).unwrap();
        (start.elapsed(), Instant::now(), rows)
    })
}

#[test]
fn a_locked_table_holds_other_sessions() {
    let server = Server::start();
    server.sql("CREATE DATABASE tlc");
    server.sql("CREATE TABLE tlc.t (a INT PRIMARY KEY)");
    server.sql("INSERT INTO tlc.t VALUES (1)");
    let mut a = connect(&server);
    let hold = Duration::from_millis(400);

    // WRITE: another session's read waits, then sees the holder's row.
    a.query_drop("LOCK TABLES t WRITE").unwrap();
    let reader = elsewhere(&server, "SELECT a FROM t ORDER BY a");
    std::thread::sleep(hold);
    a.query_drop("INSERT INTO t VALUES (2)").unwrap();
    let released = Instant::now();
    a.query_drop("UNLOCK TABLES").unwrap();
    // It ended after the lock went (not merely a while after it began:
    // its thread may start late on a busy machine).
    let (_, ended, rows) = reader.join().unwrap();
    assert!(ended >= released, "the read did not wait for UNLOCK TABLES");
    assert_eq!(rows, vec![1, 2]);

    // READ: another session reads at once; its change waits.
    a.query_drop("LOCK TABLES t READ").unwrap();
    let (waited, _, rows) = elsewhere(&server, "SELECT a FROM t ORDER BY a")
        .join()
        .unwrap();
    assert!(waited < hold, "a read under a READ lock waited {waited:?}");
    assert_eq!(rows, vec![1, 2]);
    let writer = elsewhere(&server, "INSERT INTO t VALUES (3)");
    std::thread::sleep(hold);
    assert_eq!(
        a.query::<i64, _>("SELECT COUNT(*) FROM t").unwrap(),
        vec![2]
    );
    let released = Instant::now();
    a.query_drop("UNLOCK TABLES").unwrap();
    let (_, ended, _) = writer.join().unwrap();
    assert!(
        ended >= released,
        "the change did not wait for UNLOCK TABLES"
    );

    // A session's end lets its locks go.
    a.query_drop("LOCK TABLES t WRITE").unwrap();
    let reader = elsewhere(&server, "SELECT COUNT(*) FROM t");
    std::thread::sleep(hold);
    let released = Instant::now();
    drop(a);
    let (_, ended, rows) = reader.join().unwrap();
    assert!(
        ended >= released,
        "the read did not wait for the session's end"
    );
    assert_eq!(rows, vec![3]);
}

/// Two sessions' statements around FLUSH TABLES WITH READ LOCK: `a` takes
/// the lock (or a table's READ lock), `b` is another session.
const GLOBAL_READ_LOCK: &[(char, &str)] = &[
    ('a', "FLUSH TABLES WITH READ LOCK"),
    ('a', "SELECT a FROM g.t"),
    ('b', "SELECT a FROM g.t"),
    ('a', "INSERT INTO g.t VALUES (2)"),
    ('a', "CREATE TABLE g.u (a INT)"),
    ('a', "DROP DATABASE g"),
    ('a', "CREATE USER gx"),
    ('b', "INSERT INTO g.t VALUES (3)"),
    ('b', "UPDATE g.t SET a = 5 WHERE a = 9"),
    ('b', "CREATE TABLE g.u (a INT)"),
    ('b', "CREATE DATABASE g2"),
    ('b', "LOCK TABLES g.t WRITE"),
    ('b', "LOCK TABLES g.t READ"),
    ('b', "UNLOCK TABLES"),
    ('b', "FLUSH TABLES WITH READ LOCK"),
    ('b', "UNLOCK TABLES"),
    ('a', "FLUSH TABLES WITH READ LOCK"),
    ('a', "SET @x = 1"),
    ('a', "UNLOCK TABLES"),
    ('b', "INSERT INTO g.t VALUES (4)"),
    // It commits the open transaction first.
    ('a', "BEGIN"),
    ('a', "INSERT INTO g.t VALUES (6)"),
    ('a', "FLUSH TABLES WITH READ LOCK"),
    ('b', "SELECT a FROM g.t ORDER BY a"),
    ('a', "UNLOCK TABLES"),
    ('a', "LOCK TABLES g.t READ"),
    ('a', "FLUSH TABLES WITH READ LOCK"),
    ('a', "UNLOCK TABLES"),
    // With tables named: their READ locks, as LOCK TABLES takes them.
    ('a', "FLUSH TABLES g.t WITH READ LOCK"),
    ('a', "SELECT a FROM g.t ORDER BY a"),
    ('a', "INSERT INTO g.t VALUES (7)"),
    ('b', "INSERT INTO g.t VALUES (8)"),
    ('b', "INSERT INTO g.v VALUES (8)"),
    ('a', "UNLOCK TABLES"),
    ('a', "FLUSH TABLE g.t, g.v WITH READ LOCK"),
    ('b', "INSERT INTO g.v VALUES (9)"),
    ('a', "UNLOCK TABLES"),
    ('a', "FLUSH TABLES g.nosuch WITH READ LOCK"),
    ('a', "FLUSH TABLES g.t FOR EXPORT"),
    ('b', "DELETE FROM g.t"),
    ('a', "UNLOCK TABLES"),
    ('a', "FLUSH TABLES FOR EXPORT"),
    ('a', "FLUSH TABLE"),
    ('a', "FLUSH TABLES"),
    ('b', "SELECT a FROM g.t ORDER BY a"),
    ('b', "SELECT a FROM g.v ORDER BY a"),
];

/// Each step's outcome on the server at `url`: its rows, or its error's
/// code.
fn two_session_outcomes(url: &str, steps: &[(char, &str)]) -> Vec<String> {
    let opts = mysql::Opts::from_url(url).unwrap();
    let mut setup = mysql::Conn::new(opts.clone()).unwrap();
    for s in [
        "DROP DATABASE IF EXISTS g",
        "DROP DATABASE IF EXISTS g2",
        "CREATE DATABASE g",
        "CREATE TABLE g.t (a INT PRIMARY KEY)",
        "CREATE TABLE g.v (a INT PRIMARY KEY)",
        "INSERT INTO g.t VALUES (1)",
    ] {
        setup.query_drop(s).unwrap();
    }
    let mut a = mysql::Conn::new(opts.clone()).unwrap();
    let mut b = mysql::Conn::new(opts).unwrap();
    for c in [&mut a, &mut b] {
        c.query_drop("SET SESSION lock_wait_timeout = 1").unwrap();
    }
    steps
        .iter()
        .map(|(who, sql)| {
            let c = if *who == 'a' { &mut a } else { &mut b };
            let outcome = match c.query::<mysql::Row, _>(*sql) {
                Ok(rows) => format!(
                    "{:?}",
                    rows.into_iter()
                        .map(|r| r.unwrap().into_iter().map(|v| format!("{v:?}")).collect())
                        .collect::<Vec<Vec<String>>>()
                ),
                Err(mysql::Error::MySqlError(e)) => format!("error {}", e.code),
                Err(e) => panic!("{sql}: {e}"),
            };
            format!("{who}: {sql} -> {outcome}")
        })
        .collect()
}

#[test]
fn the_global_read_lock_holds_changes_as_mariadbs_does() {
    let server = Server::start();
    let mariadb = MariaDb::start();
    let ours = two_session_outcomes(&server.url(""), GLOBAL_READ_LOCK);
    let theirs = two_session_outcomes(
        &format!("mysql://root@127.0.0.1:{}/", mariadb.port),
        GLOBAL_READ_LOCK,
    );
    common::differential::assert_same(&ours, &theirs);
    assert!(ours.iter().any(|o| o.ends_with("error 1223")));
    assert!(ours.iter().any(|o| o.ends_with("error 1205")));
}

#[test]
fn a_change_waits_for_the_global_read_lock() {
    let server = Server::start();
    server.sql("CREATE DATABASE tlc");
    server.sql("CREATE TABLE tlc.t (a INT PRIMARY KEY)");
    let mut a = connect(&server);
    let hold = Duration::from_millis(400);
    a.query_drop("FLUSH TABLES WITH READ LOCK").unwrap();
    let writer = elsewhere(&server, "INSERT INTO t VALUES (1)");
    std::thread::sleep(hold);
    assert_eq!(
        a.query::<i64, _>("SELECT COUNT(*) FROM t").unwrap(),
        vec![0]
    );
    let released = Instant::now();
    a.query_drop("UNLOCK TABLES").unwrap();
    let (_, ended, _) = writer.join().unwrap();
    assert!(
        ended >= released,
        "the INSERT did not wait for UNLOCK TABLES"
    );

    // A session's end lets it go.
    a.query_drop("FLUSH TABLES WITH READ LOCK").unwrap();
    let writer = elsewhere(&server, "INSERT INTO t VALUES (2)");
    std::thread::sleep(hold);
    let released = Instant::now();
    drop(a);
    let (_, ended, _) = writer.join().unwrap();
    assert!(
        ended >= released,
        "the INSERT did not wait for the session's end"
    );
    let mut c = connect(&server);
    assert_eq!(
        c.query::<i64, _>("SELECT COUNT(*) FROM t").unwrap(),
        vec![2]
    );
}
