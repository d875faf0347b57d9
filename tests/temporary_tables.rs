//! Temporary tables through the server, against MariaDB 10.11 itself: the
//! same steps, by several sessions and accounts, on lineardb and on a
//! private MariaDB must give the same rows, errors and warnings. Then what
//! only lineardb can be asked: a temporary table is gone when its session
//! ends, and after kill -9 and a restart nothing of it is left while the
//! permanent tables it shadowed keep every committed row.
mod common;

use common::mariadb::MariaDb;
use common::Server;
use mysql::prelude::Queryable;
use mysql::{Conn, Opts};
use std::collections::HashMap;

fn connect(port: u16, user: &str) -> Conn {
    let url = format!("mysql://{user}@127.0.0.1:{port}/");
    Conn::new(Opts::from_url(&url).unwrap()).unwrap()
}

fn text(v: &mysql::Value) -> String {
    match v {
        mysql::Value::NULL => "NULL".into(),
        mysql::Value::Bytes(b) => String::from_utf8_lossy(b).into_owned(),
        other => other.as_sql(true),
    }
}

/// A step's outcome: its rows (or the error code), then its warnings.
fn outcome(c: &mut Conn, sql: &str) -> String {
    let prepared = sql.strip_prefix("PREPARED ");
    let result: Result<Vec<mysql::Row>, mysql::Error> = match prepared {
        Some(sql) => c.exec(sql, ()),
        None => c.query(sql),
    };
    let mut out = match result {
        Ok(rows) => rows
            .into_iter()
            .map(|r| r.unwrap().iter().map(text).collect::<Vec<_>>().join("|"))
            .collect::<Vec<_>>()
            .join("; "),
        Err(mysql::Error::MySqlError(e)) => format!("error {}", e.code),
        Err(e) => format!("client error {e}"),
    };
    if c.warnings() > 0 {
        let warnings: Vec<mysql::Row> = c.query("SHOW WARNINGS").unwrap();
        for w in warnings {
            out += &format!(
                " [{}]",
                w.unwrap().iter().map(text).collect::<Vec<_>>().join(" ")
            );
        }
    }
    out
}

/// Runs `steps` (session name, statement) on the server at `port`; the
/// sessions are opened as their accounts (`sessions`: name → user) on
/// first use. Returns each step's outcome.
fn run(
    port: u16,
    setup: &[&str],
    sessions: &[(&str, &str)],
    steps: &[(&str, &str)],
) -> Vec<String> {
    let mut root = connect(port, "root");
    for s in setup {
        root.query_drop(s).unwrap_or_else(|e| panic!("{s}: {e}"));
    }
    let users: HashMap<&str, &str> = sessions.iter().copied().collect();
    let mut open: HashMap<&str, Conn> = HashMap::new();
    steps
        .iter()
        .map(|(session, sql)| {
            let c = open
                .entry(session)
                .or_insert_with(|| connect(port, users[session]));
            format!("{session}: {sql} -> {}", outcome(c, sql))
        })
        .collect()
}

fn same_on_both(setup: &[&str], sessions: &[(&str, &str)], steps: &[(&str, &str)]) {
    let mariadb = MariaDb::start();
    let lineardb = Server::start();
    let expected = run(mariadb.port, setup, sessions, steps);
    let got = run(lineardb.port, setup, sessions, steps);
    let differ: Vec<String> = expected
        .iter()
        .zip(&got)
        .filter(|(e, g)| e != g)
        .map(|(e, g)| format!("MariaDB  {e}\nlineardb {g}"))
        .collect();
    assert!(differ.is_empty(), "{}", differ.join("\n"));
}

const SETUP: &[&str] = &[
    "DROP DATABASE IF EXISTS tt",
    "CREATE DATABASE tt",
    "CREATE TABLE tt.t (id INT PRIMARY KEY, v INT)",
    "INSERT INTO tt.t VALUES (1, 10), (2, 20)",
    "CREATE TABLE tt.u (id INT PRIMARY KEY)",
];

#[test]
fn private_shadowing_and_transactional_as_on_mariadb() {
    let steps: &[(&str, &str)] = &[
        ("a", "USE tt"),
        ("b", "USE tt"),
        ("a", "PREPARED SELECT COUNT(*) FROM t"),
        (
            "a",
            "CREATE TEMPORARY TABLE t (id INT PRIMARY KEY, w VARCHAR(10), KEY kw (w))",
        ),
        ("a", "INSERT INTO t VALUES (5, 'a'), (6, 'b'), (7, 'c')"),
        // The session's temporary table shadows the permanent one, for
        // plain, qualified and prepared statements; others see theirs.
        ("a", "SELECT * FROM t ORDER BY id"),
        ("a", "SELECT * FROM tt.t ORDER BY id"),
        ("a", "PREPARED SELECT COUNT(*) FROM t"),
        ("b", "SELECT * FROM t ORDER BY id"),
        ("a", "SHOW TABLES"),
        // A view may not read a temporary table (1352); a join may.
        ("a", "CREATE VIEW v AS SELECT id FROM t"),
        (
            "a",
            "SELECT t.id, u.id FROM t LEFT JOIN tt.t u ON u.id = t.id - 4 ORDER BY 1",
        ),
        ("b", "CREATE TEMPORARY TABLE t (id INT PRIMARY KEY)"),
        ("b", "SELECT COUNT(*) FROM t"),
        ("a", "SELECT COUNT(*) FROM t"),
        ("a", "CREATE TEMPORARY TABLE t (x INT)"),
        ("a", "CREATE TEMPORARY TABLE IF NOT EXISTS t (x INT)"),
        // CREATE and DROP TEMPORARY TABLE do not commit; the changes to
        // both kinds of table roll back together.
        ("a", "BEGIN"),
        ("a", "INSERT INTO t VALUES (8, 'd')"),
        ("a", "INSERT INTO u VALUES (1)"),
        ("a", "CREATE TEMPORARY TABLE t2 (a INT)"),
        ("a", "INSERT INTO t2 VALUES (1)"),
        ("a", "DROP TEMPORARY TABLE t2"),
        ("a", "ROLLBACK"),
        ("a", "SELECT * FROM t ORDER BY id"),
        ("a", "SELECT COUNT(*) FROM u"),
        ("a", "SELECT * FROM t2"),
        // DML, indexes and TRUNCATE on the temporary table.
        ("a", "UPDATE t SET w = 'z' WHERE id = 5"),
        ("a", "DELETE FROM t ORDER BY id DESC LIMIT 1"),
        ("a", "CREATE INDEX kwid ON t (w, id)"),
        ("a", "ALTER TABLE t DROP INDEX kw"),
        ("a", "SELECT id FROM t WHERE w = 'z'"),
        ("a", "INSERT INTO t VALUES (5, 'dup')"),
        ("a", "SELECT * FROM t ORDER BY id"),
        ("a", "TRUNCATE TABLE t"),
        ("a", "SELECT COUNT(*) FROM t"),
        // DROP TABLE takes the temporary table first, then the permanent.
        ("a", "DROP TABLE t"),
        ("a", "SELECT * FROM t ORDER BY id"),
        ("a", "DROP TEMPORARY TABLE t"),
        ("a", "DROP TEMPORARY TABLE IF EXISTS t"),
        ("a", "SELECT * FROM t ORDER BY id"),
        ("b", "DROP TABLE t"),
        ("b", "SELECT * FROM t ORDER BY id"),
        // A database that does not exist may hold a temporary table.
        ("a", "CREATE TEMPORARY TABLE nodb.x (a INT)"),
        ("a", "INSERT INTO nodb.x VALUES (1), (2)"),
        ("a", "SELECT SUM(a) FROM nodb.x"),
        ("a", "SHOW DATABASES LIKE 'nodb'"),
        ("b", "SELECT * FROM nodb.x"),
    ];
    same_on_both(SETUP, &[("a", "root"), ("b", "root")], steps);
}

#[test]
fn privileges_as_on_mariadb() {
    let mut setup = SETUP.to_vec();
    setup.extend([
        "DROP USER IF EXISTS tmpu, tmpv",
        "CREATE USER tmpu",
        "GRANT CREATE TEMPORARY TABLES ON tt.* TO tmpu",
        "CREATE USER tmpv",
        "GRANT SELECT ON tt.* TO tmpv",
    ]);
    let steps: &[(&str, &str)] = &[
        ("u", "USE tt"),
        ("u", "SELECT * FROM t"),
        // Once made, a temporary table is its session's own: no checks.
        ("u", "CREATE TEMPORARY TABLE x (a INT PRIMARY KEY, b INT)"),
        ("u", "INSERT INTO x VALUES (1, 2), (3, 4)"),
        ("u", "UPDATE x SET b = 5 WHERE a = 1"),
        ("u", "DELETE FROM x WHERE a = 3"),
        ("u", "CREATE INDEX ib ON x (b)"),
        ("u", "SELECT * FROM x"),
        ("u", "SHOW COLUMNS FROM x LIKE 'none'"),
        ("u", "TRUNCATE TABLE x"),
        ("u", "DROP TABLE x"),
        ("u", "CREATE TEMPORARY TABLE t (a INT)"),
        ("u", "INSERT INTO t VALUES (7)"),
        ("u", "SELECT * FROM t"),
        ("u", "DROP TEMPORARY TABLE t"),
        ("u", "SELECT * FROM t"),
        ("u", "CREATE TABLE y (a INT)"),
        ("u", "CREATE TEMPORARY TABLE other.z (a INT)"),
        ("v", "CREATE TEMPORARY TABLE tt.x (a INT)"),
        ("v", "SELECT * FROM tt.t ORDER BY id"),
    ];
    same_on_both(&setup, &[("u", "tmpu"), ("v", "tmpv")], steps);
}

fn count(c: &mut Conn, sql: &str) -> i64 {
    c.query_first(sql).unwrap().unwrap()
}

/// The temporary tables of every session (a lineardb status variable).
fn temporary_tables(c: &mut Conn) -> u64 {
    let row: (String, u64) = c
        .query_first("SHOW STATUS LIKE 'Lineardb_temporary_tables'")
        .unwrap()
        .unwrap();
    row.1
}

#[test]
fn gone_when_the_session_ends_and_after_kill_9() {
    let dir = tempfile::tempdir().unwrap();
    let datadir = dir.path().join("data");
    let server = Server::start_at(&datadir, &[]);
    let mut root = connect(server.port, "root");
    for s in SETUP {
        root.query_drop(s).unwrap();
    }
    // Ended sessions' tables are dropped: a new session never sees them.
    {
        let mut a = connect(server.port, "root");
        a.query_drop("CREATE TEMPORARY TABLE tt.t (id INT PRIMARY KEY)")
            .unwrap();
        a.query_drop("INSERT INTO tt.t VALUES (100), (101), (102)")
            .unwrap();
        assert_eq!(count(&mut a, "SELECT COUNT(*) FROM tt.t"), 3);
        assert_eq!(temporary_tables(&mut root), 1);
        let create: (String, String) = a.query_first("SHOW CREATE TABLE tt.t").unwrap().unwrap();
        assert!(
            create.1.starts_with("CREATE TEMPORARY TABLE `t`"),
            "{}",
            create.1
        );
    }
    // The server drops them once it sees the connection closed.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    while temporary_tables(&mut root) != 0 {
        assert!(std::time::Instant::now() < deadline, "still there");
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    assert_eq!(count(&mut root, "SELECT COUNT(*) FROM tt.t"), 2);
    // A crash with temporary tables holding committed rows, one of them
    // in the middle of a transaction.
    let mut b = connect(server.port, "root");
    b.query_drop("CREATE TEMPORARY TABLE tt.t (id INT PRIMARY KEY, pad VARCHAR(100))")
        .unwrap();
    b.query_drop("CREATE TEMPORARY TABLE tt.scratch (id INT PRIMARY KEY)")
        .unwrap();
    let rows: Vec<String> = (0..2000)
        .map(|i| format!("({i}, REPEAT('p', 90))"))
        .collect();
    b.query_drop(format!("INSERT INTO tt.t VALUES {}", rows.join(",")))
        .unwrap();
    b.query_drop("CREATE TEMPORARY TABLE tt.gone (id INT PRIMARY KEY)")
        .unwrap();
    b.query_drop("BEGIN").unwrap();
    b.query_drop("INSERT INTO tt.scratch VALUES (1)").unwrap();
    // Dropped inside the open transaction after it changed the table: the
    // undo recovery runs must still find the table's trees.
    b.query_drop("INSERT INTO tt.gone VALUES (1)").unwrap();
    b.query_drop("DROP TEMPORARY TABLE tt.gone").unwrap();
    b.query_drop("CREATE TEMPORARY TABLE tt.gone (id INT PRIMARY KEY)")
        .unwrap();
    b.query_drop("INSERT INTO tt.gone VALUES (2)").unwrap();
    root.query_drop("INSERT INTO tt.t VALUES (3, 30)").unwrap();
    assert_eq!(temporary_tables(&mut root), 3);
    server.kill9();
    let server = Server::start_at(&datadir, &[]);
    let mut c = connect(server.port, "root");
    // The permanent tables have every committed row and nothing else.
    let rows: Vec<(i64, i64)> = c.query("SELECT id, v FROM tt.t ORDER BY id").unwrap();
    assert_eq!(rows, vec![(1, 10), (2, 20), (3, 30)]);
    assert_eq!(count(&mut c, "SELECT COUNT(*) FROM tt.u"), 0);
    assert_eq!(temporary_tables(&mut c), 0);
    let tables: Vec<String> = c.query("SHOW TABLES FROM tt").unwrap();
    assert_eq!(tables, vec!["t", "u"]);
    // Nothing is left to shadow them, and the names are free again.
    let e = c.query_drop("SELECT * FROM tt.scratch").unwrap_err();
    assert!(e.to_string().contains("1146"), "{e}");
    c.query_drop("CREATE TEMPORARY TABLE tt.scratch (id INT PRIMARY KEY)")
        .unwrap();
    assert_eq!(count(&mut c, "SELECT COUNT(*) FROM tt.scratch"), 0);
}
