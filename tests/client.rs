//! The Rust `mysql` client crate against a real `lineardb serve`: text and
//! binary protocol, a round trip of every column type, NULLs, errors with
//! their codes (the connection stays usable), multi-statement queries,
//! SHOW PROCESSLIST, KILL QUERY and KILL CONNECTION.
mod common;
use common::Server;
use mysql::consts::ColumnType;
use mysql::prelude::*;
use mysql::{Conn, Opts, Params, Row, Value};

fn connect(server: &Server, db: &str) -> Conn {
    Conn::new(Opts::from_url(&server.url(db)).unwrap()).unwrap()
}

/// A value as text, the same for both protocols (the column type says how
/// a binary date prints).
fn canon(row: &Row, i: usize) -> String {
    let ty = row.columns_ref()[i].column_type();
    match row.as_ref(i).unwrap() {
        Value::NULL => "NULL".into(),
        Value::Bytes(b) => String::from_utf8_lossy(b).into_owned(),
        Value::Int(n) => n.to_string(),
        Value::UInt(n) => n.to_string(),
        Value::Float(x) => x.to_string(),
        // MySQL prints doubles in the shortest form, with an exponent
        // where the plain form would be long.
        Value::Double(x) if x.to_string().len() > 20 => format!("{x:e}"),
        Value::Double(x) => x.to_string(),
        Value::Date(y, mo, d, h, mi, s, us) => {
            if ty == ColumnType::MYSQL_TYPE_DATE {
                format!("{y:04}-{mo:02}-{d:02}")
            } else if *us == 0 {
                format!("{y:04}-{mo:02}-{d:02} {h:02}:{mi:02}:{s:02}")
            } else {
                format!("{y:04}-{mo:02}-{d:02} {h:02}:{mi:02}:{s:02}.{us:06}")
            }
        }
        Value::Time(..) => panic!("no TIME columns here"),
    }
}

fn canon_rows(rows: &[Row]) -> Vec<Vec<String>> {
    rows.iter()
        .map(|r| (0..r.len()).map(|i| canon(r, i)).collect())
        .collect()
}

const CREATE: &str = "CREATE TABLE every_type (
    id INT NOT NULL PRIMARY KEY,
    ti TINYINT, si SMALLINT UNSIGNED, mi MEDIUMINT, i INT, bi BIGINT,
    bu BIGINT UNSIGNED, de DECIMAL(12,3), do DOUBLE, da DATE, dt DATETIME,
    ch CHAR(5), vc VARCHAR(20), tx TEXT)";

#[test]
fn every_type_round_trips_in_both_protocols() {
    let server = Server::start();
    let mut c = connect(&server, "");
    c.query_drop("CREATE DATABASE types").unwrap();
    c.select_db("types").unwrap();
    c.query_drop(CREATE).unwrap();
    // Row 1 through the text protocol, row 2 bound as typed parameters
    // (binary protocol), row 3 all NULL.
    c.query_drop(
        "INSERT INTO every_type VALUES (1, -128, 65535, -8388608, -2147483648, \
         -9223372036854775808, 18446744073709551615, -123456789.125, 2.5, \
         '1999-12-31', '2024-02-29 23:59:58', 'abc', 'héllo wörld', 'a\\'quote')",
    )
    .unwrap();
    c.exec_drop(
        "INSERT INTO every_type VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        vec![
            Value::Int(2),
            Value::Int(127),
            Value::UInt(0),
            Value::Int(8388607),
            Value::Int(2147483647),
            Value::Int(9223372036854775807),
            Value::UInt(0),
            Value::Bytes(b"0.001".to_vec()),
            Value::Double(-1.0e-300),
            Value::Date(2000, 2, 29, 0, 0, 0, 0),
            Value::Date(1970, 1, 1, 0, 0, 1, 0),
            Value::Bytes(b"xy".to_vec()),
            Value::Bytes("日本".as_bytes().to_vec()),
            Value::Bytes(vec![b'z'; 1000]),
        ],
    )
    .unwrap();
    let mut nulls = vec![Value::Int(3)];
    nulls.extend(std::iter::repeat_n(Value::NULL, 13));
    c.exec_drop(
        "INSERT INTO every_type VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        nulls,
    )
    .unwrap();

    let long = "z".repeat(1000);
    let expected = vec![
        vec![
            "1",
            "-128",
            "65535",
            "-8388608",
            "-2147483648",
            "-9223372036854775808",
            "18446744073709551615",
            "-123456789.125",
            "2.5",
            "1999-12-31",
            "2024-02-29 23:59:58",
            "abc",
            "héllo wörld",
            "a'quote",
        ],
        vec![
            "2",
            "127",
            "0",
            "8388607",
            "2147483647",
            "9223372036854775807",
            "0",
            "0.001",
            "-1e-300",
            "2000-02-29",
            "1970-01-01 00:00:01",
            "xy",
            "日本",
            &long,
        ],
        std::iter::once("3")
            .chain(std::iter::repeat_n("NULL", 13))
            .collect(),
    ];
    let text_rows: Vec<Row> = c.query("SELECT * FROM every_type ORDER BY id").unwrap();
    assert_eq!(canon_rows(&text_rows), expected);
    let binary_rows: Vec<Row> = c
        .exec("SELECT * FROM every_type WHERE id >= ? ORDER BY id", (1,))
        .unwrap();
    assert_eq!(canon_rows(&binary_rows), expected);
    // Binary results carry native types.
    assert_eq!(binary_rows[0].as_ref(1), Some(&Value::Int(-128)));
    assert_eq!(
        binary_rows[0].as_ref(6),
        Some(&Value::UInt(18446744073709551615))
    );
    assert_eq!(binary_rows[0].as_ref(8), Some(&Value::Double(2.5)));
    // Typed reads through the crate's conversions.
    let (i, d, s): (i32, f64, String) = c
        .exec_first("SELECT i, do, vc FROM every_type WHERE id = ?", (2,))
        .unwrap()
        .unwrap();
    assert_eq!((i, d, s.as_str()), (2147483647, -1.0e-300, "日本"));
    // NULL parameters compare as SQL NULL.
    let none: Vec<Row> = c
        .exec(
            "SELECT id FROM every_type WHERE i = ?",
            Params::Positional(vec![Value::NULL]),
        )
        .unwrap();
    assert!(none.is_empty());
    let null_count: i64 = c
        .query_first("SELECT COUNT(*) FROM every_type WHERE vc IS NULL")
        .unwrap()
        .unwrap();
    assert_eq!(null_count, 1);
    // A prepared statement is reused with new parameter values.
    let stmt = c.prep("SELECT vc FROM every_type WHERE id = ?").unwrap();
    for (id, want) in [(1, "héllo wörld"), (2, "日本"), (1, "héllo wörld")] {
        let v: Option<String> = c.exec_first(&stmt, (id,)).unwrap();
        assert_eq!(v.as_deref(), Some(want));
    }
    c.close(stmt).unwrap();
}

/// (statement, MySQL error code, SQLSTATE)
const FAILURES: &[(&str, u16, &str)] = &[
    ("SELEC 1", 1064, "42000"),
    ("SELECT * FROM nosuch", 1146, "42S02"),
    ("SELECT nosuch FROM t", 1054, "42S22"),
    ("INSERT INTO t VALUES (1, 'dup', 1)", 1062, "23000"),
    ("INSERT INTO t VALUES (9, NULL, 1)", 1048, "23000"),
    ("INSERT INTO t VALUES (9, 'x', 300)", 1264, "22003"),
    (
        "INSERT INTO t VALUES (9, 'this is too long', 1)",
        1406,
        "22001",
    ),
    ("USE nodb", 1049, "42000"),
    ("CREATE TABLE t (a INT)", 1050, "42S01"),
    ("DROP TABLE nosuch", 1051, "42S02"),
    ("SELECT GROUP_CONCAT(name) OVER () FROM t", 1235, "42000"),
    ("KILL 987654", 1094, "HY000"),
    ("INSERT INTO t VALUES (1)", 1136, "21S01"),
];

/// INSERT IGNORE counts the rows it skipped for a duplicate key, as MariaDB
/// does in its info text ("Records: 3  Duplicates: 1  Warnings: 1").
#[test]
fn insert_ignore_reports_its_duplicates() {
    let server = Server::start();
    let mut c = connect(&server, "");
    c.query_drop("CREATE DATABASE d").unwrap();
    c.select_db("d").unwrap();
    c.query_drop("CREATE TABLE t (a INT PRIMARY KEY)").unwrap();
    c.query_drop("INSERT IGNORE INTO t VALUES (1), (1), (2)")
        .unwrap();
    assert_eq!(c.info_str(), "Records: 3  Duplicates: 1  Warnings: 1");
    c.query_drop("INSERT IGNORE INTO t SELECT 2 UNION SELECT 3")
        .unwrap();
    assert_eq!(c.info_str(), "Records: 2  Duplicates: 1  Warnings: 1");
}

#[test]
fn now_is_the_statements_start_in_every_protocol() {
    let server = Server::start();
    let mut c = connect(&server, "");
    // One value for the whole statement: SYSDATE() after a sleep differs.
    let (same, later): (i64, i64) = c
        .query_first("SELECT NOW() = CURRENT_TIMESTAMP, SLEEP(1.1) + (SYSDATE() > NOW())")
        .unwrap()
        .unwrap();
    assert_eq!((same, later), (1, 1));
    // A prepared statement's plan is kept; its NOW() is each execution's.
    let stmt = c
        .prep("SELECT UNIX_TIMESTAMP(), CURDATE() = CAST(NOW() AS DATE)")
        .unwrap();
    let (first, today): (i64, i64) = c.exec_first(&stmt, ()).unwrap().unwrap();
    std::thread::sleep(std::time::Duration::from_millis(1100));
    let (second, _): (i64, i64) = c.exec_first(&stmt, ()).unwrap().unwrap();
    assert!(second > first, "{first} then {second}");
    let wall = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs() as i64;
    assert!((wall - second).abs() <= 2, "{second} against {wall}");
    assert_eq!(today, 1);
    c.query_drop("CREATE DATABASE tm").unwrap();
    c.query_drop("CREATE TABLE tm.t (id INT PRIMARY KEY, d DATETIME)")
        .unwrap();
    c.query_drop("INSERT INTO tm.t VALUES (1, NOW()), (2, CURRENT_TIMESTAMP)")
        .unwrap();
    let n: i64 = c
        .query_first("SELECT COUNT(*) FROM tm.t WHERE d = NOW() - INTERVAL 0 SECOND OR d < NOW()")
        .unwrap()
        .unwrap();
    assert_eq!(n, 2);
    // NOW(3): three digits of a second as text, in whole milliseconds as
    // a binary value; NOW(7) is 1426.
    let text: String = c.query_first("SELECT NOW(3)").unwrap().unwrap();
    assert_eq!(text.len(), 23, "{text}");
    let stmt = c.prep("SELECT NOW(3), NOW(6) >= NOW(3)").unwrap();
    let row: Row = c.exec_first(&stmt, ()).unwrap().unwrap();
    match row.as_ref(0) {
        Some(Value::Date(_, _, _, _, _, _, us)) => assert_eq!(us % 1000, 0, "{us}"),
        other => panic!("{other:?}"),
    }
    assert_eq!(row.get::<i64, _>(1), Some(1));
    let e = c.query_drop("SELECT NOW(7)").unwrap_err();
    assert!(
        matches!(e, mysql::Error::MySqlError(ref m) if m.code == 1426),
        "{e}"
    );
}

#[test]
fn user_variables_are_set_and_read() {
    let server = Server::start();
    let mut c = connect(&server, "");
    c.query_drop("SET @a = 1, @S = 'x', @n = NULL, @d = 1.50")
        .unwrap();
    let row: (i64, String, Option<i64>, String, Option<i64>) = c
        .query_first("SELECT @A + 1, @s, @n, CONCAT(@s, @d), @never")
        .unwrap()
        .unwrap();
    assert_eq!(row, (2, "x".into(), None, "x1.50".into(), None));
    // As mysqldump writes them.
    c.query_drop("SET @OLD_SQL_MODE=@@SQL_MODE, @x = @a + 10")
        .unwrap();
    let (mode, x): (String, i64) = c
        .query_first("SELECT @OLD_SQL_MODE = @@SQL_MODE, @x")
        .map(|r: Option<(i64, i64)>| r.map(|(m, x)| (m.to_string(), x)).unwrap())
        .unwrap();
    assert_eq!((mode.as_str(), x), ("1", 11));
    // A prepared statement reads the value at each execution.
    let stmt = c.prep("SELECT @a * 2").unwrap();
    assert_eq!(c.exec_first::<i64, _, _>(&stmt, ()).unwrap(), Some(2));
    c.query_drop("SET @a = 21").unwrap();
    assert_eq!(c.exec_first::<i64, _, _>(&stmt, ()).unwrap(), Some(42));
    let e = c.query_drop("SET @c = abc").unwrap_err();
    assert!(
        matches!(e, mysql::Error::MySqlError(ref m) if m.code == 1054),
        "{e}"
    );
    // Assigned inside a statement, kept after it.
    let five: i64 = c.query_first("SELECT @c := 5").unwrap().unwrap();
    let six: i64 = c.query_first("SELECT @c + 1").unwrap().unwrap();
    assert_eq!((five, six), (5, 6));
}

#[test]
fn errors_carry_codes_and_leave_the_connection_usable() {
    let server = Server::start();
    let mut c = connect(&server, "");
    c.query_drop("CREATE DATABASE e").unwrap();
    c.select_db("e").unwrap();
    c.query_drop(
        "CREATE TABLE t (id INT PRIMARY KEY, name VARCHAR(5) NOT NULL, n TINYINT UNSIGNED)",
    )
    .unwrap();
    c.query_drop("INSERT INTO t VALUES (1, 'one', 1)").unwrap();
    for &(sql, code, state) in FAILURES {
        match c.query_drop(sql) {
            Err(mysql::Error::MySqlError(e)) => {
                assert_eq!((e.code, e.state.as_str()), (code, state), "{sql}: {e}")
            }
            other => panic!("{sql}: expected error {code}, got {other:?}"),
        }
        // Same through the binary protocol where the statement prepares.
        if let Ok(stmt) = c.prep(sql) {
            match c.exec_drop(&stmt, ()) {
                Err(mysql::Error::MySqlError(e)) => assert_eq!(e.code, code, "{sql}"),
                other => panic!("prepared {sql}: expected error {code}, got {other:?}"),
            }
        }
        let one: i64 = c.query_first("SELECT 1").unwrap().unwrap();
        assert_eq!(one, 1);
    }
    // Nothing the failures touched changed.
    let rows: Vec<(i32, String, u8)> = c.query("SELECT * FROM t").unwrap();
    assert_eq!(rows, vec![(1, "one".to_string(), 1)]);
}

#[test]
fn multi_statements_processlist_and_kill() {
    let server = Server::start();
    let mut c = connect(&server, "");
    // Several statements in one COM_QUERY: one result each.
    let mut results = c
        .query_iter("CREATE DATABASE k; USE k; SELECT 1 AS a; SELECT 2 AS b, 3 AS c")
        .unwrap();
    let mut sets = Vec::new();
    while let Some(set) = results.iter() {
        let rows: Vec<Row> = set.map(|r| r.unwrap()).collect();
        sets.push(canon_rows(&rows));
    }
    drop(results);
    assert_eq!(
        sets,
        vec![
            vec![],
            vec![],
            vec![vec!["1".to_string()]],
            vec![vec!["2".to_string(), "3".to_string()]]
        ]
    );
    // An error stops the batch: the statement after it never runs.
    let _ = c.query_drop("SELECT 1; SELECT * FROM nosuch; CREATE TABLE never (a INT PRIMARY KEY)");
    let tables: Vec<String> = c.query("SHOW TABLES FROM k").unwrap();
    assert!(tables.is_empty(), "{tables:?}");

    c.query_drop("CREATE TABLE big (id INT PRIMARY KEY, c VARCHAR(60))")
        .unwrap();
    for chunk in 0..50 {
        let values: Vec<String> = (0..2000)
            .map(|i| {
                format!(
                    "({}, 'row {} xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx')",
                    chunk * 2000 + i,
                    i
                )
            })
            .collect();
        c.query_drop(format!("INSERT INTO big VALUES {}", values.join(",")))
            .unwrap();
    }
    let victim_id: u64 = c.query_first("SELECT CONNECTION_ID()").unwrap().unwrap();
    let url = server.url("k");
    // A long scan in this connection; another one kills it.
    let killer = std::thread::spawn(move || {
        let mut k = Conn::new(Opts::from_url(&url).unwrap()).unwrap();
        for _ in 0..2000 {
            let procs: Vec<Row> = k.query("SHOW FULL PROCESSLIST").unwrap();
            let running = procs.iter().any(|p| {
                canon(p, 0) == victim_id.to_string()
                    && canon(p, 4) == "Query"
                    && canon(p, 7).contains("REPEAT")
            });
            if running {
                k.query_drop(format!("KILL QUERY {victim_id}")).unwrap();
                return true;
            }
            std::thread::sleep(std::time::Duration::from_millis(2));
        }
        false
    });
    let mut killed = false;
    for _ in 0..20 {
        // Collect the rows: the error comes after the result's header.
        match c.query::<Row, _>(
            "SELECT COUNT(*) FROM big WHERE REPEAT(c, 200) LIKE '%zzz%' AND REPEAT(c, 200) LIKE '%yyy%'",
        ) {
            Err(mysql::Error::MySqlError(e)) => {
                assert_eq!((e.code, e.state.as_str()), (1317, "70100"));
                killed = true;
                break;
            }
            Err(e) => panic!("{e}"),
            Ok(_) if killer.is_finished() => break,
            Ok(_) => {}
        }
    }
    assert!(
        killer.join().unwrap(),
        "the scan never showed in SHOW PROCESSLIST"
    );
    assert!(killed, "KILL QUERY did not stop the scan");
    // The connection survives KILL QUERY.
    let n: i64 = c.query_first("SELECT COUNT(*) FROM big").unwrap().unwrap();
    assert_eq!(n, 100_000);
    // KILL CONNECTION ends it.
    let mut other = connect(&server, "k");
    other.query_drop(format!("KILL {victim_id}")).unwrap();
    assert!(c.query_drop("SELECT 1").is_err());
    // The killed session leaves the list once its connection is closed
    // (by the worker that sees the socket shut down: soon, not at once).
    let mut gone = false;
    for _ in 0..400 {
        let procs: Vec<Row> = other.query("SHOW PROCESSLIST").unwrap();
        if procs.iter().all(|p| canon(p, 0) != victim_id.to_string()) {
            gone = true;
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    assert!(gone, "the killed session is still listed");
    let status: Vec<(String, String)> =
        other.query("SHOW GLOBAL STATUS LIKE 'Com_select'").unwrap();
    assert_eq!(status.len(), 1);
    assert!(status[0].1.parse::<u64>().unwrap() >= 5);
}

/// With one worker, a long query holds it; the stall monitor starts
/// another, so other connections keep being served, and KILL QUERY still
/// reaches the long one.
#[test]
fn a_long_query_does_not_hold_up_other_connections() {
    let server = Server::start_with(&["--workers", "1"]);
    let mut c = connect(&server, "");
    c.query_drop("CREATE DATABASE w").unwrap();
    c.query_drop("CREATE TABLE w.big (id INT PRIMARY KEY, c VARCHAR(60))")
        .unwrap();
    for chunk in 0..25 {
        let values: Vec<String> = (0..2000)
            .map(|i| {
                format!(
                    "({}, 'row {i} xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx')",
                    chunk * 2000 + i
                )
            })
            .collect();
        c.query_drop(format!("INSERT INTO w.big VALUES {}", values.join(",")))
            .unwrap();
    }
    let long_id: u64 = c.query_first("SELECT CONNECTION_ID()").unwrap().unwrap();
    // Minutes of work per row range: it is still running when killed.
    let long = std::thread::spawn(move || {
        c.query::<Row, _>("SELECT COUNT(*) FROM w.big WHERE REPEAT(c, 40000) LIKE '%zzz%'")
    });
    let mut other = connect(&server, "w");
    let running = |other: &mut Conn| {
        let procs: Vec<Row> = other.query("SHOW FULL PROCESSLIST").unwrap();
        procs
            .iter()
            .any(|p| canon(p, 0) == long_id.to_string() && canon(p, 7).contains("REPEAT"))
    };
    let mut seen = false;
    for _ in 0..500 {
        if running(&mut other) {
            seen = true;
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    assert!(seen, "the long query never showed up");
    for i in 0..200u32 {
        let v: u32 = other
            .query_first(format!("SELECT {i} + 1"))
            .unwrap()
            .unwrap();
        assert_eq!(v, i + 1);
    }
    let n: u64 = other
        .query_first("SELECT COUNT(*) FROM big WHERE id < 100")
        .unwrap()
        .unwrap();
    assert_eq!(n, 100);
    assert!(
        running(&mut other) && !long.is_finished(),
        "the long query ended before the others were served: nothing was shown"
    );
    other.query_drop(format!("KILL QUERY {long_id}")).unwrap();
    match long.join().unwrap() {
        Err(mysql::Error::MySqlError(e)) => assert_eq!(e.code, 1317),
        other => panic!("expected 1317, got {other:?}"),
    }
}

/// A second server on a data directory in use waits for the first to let
/// go of it (a restart while the old process is still flushing), then
/// serves the same data.
#[test]
fn a_second_server_waits_for_the_data_directory() {
    let dir = tempfile::tempdir().unwrap();
    let datadir = dir.path().join("data");
    let first = Server::start_at(&datadir, &[]);
    first.sql("CREATE DATABASE kept");
    let path = datadir.clone();
    let second = std::thread::spawn(move || Server::start_at(&path, &[]));
    std::thread::sleep(std::time::Duration::from_millis(1500));
    assert!(!second.is_finished(), "the second server did not wait");
    drop(first);
    let second = second.join().unwrap();
    assert!(second.sql("SHOW DATABASES").contains("kept"));
}

/// Row locks: concurrent increments of one row lose none; two transactions
/// that wait for each other end with exactly one deadlock victim (1213),
/// whose changes are rolled back while the other commits.
#[test]
fn row_locks_prevent_lost_updates_and_break_deadlocks() {
    let server = Server::start();
    server.sql(
        "CREATE DATABASE iso; CREATE TABLE iso.c (id INT PRIMARY KEY, n INT NOT NULL); \
         INSERT INTO iso.c VALUES (1, 0), (2, 0), (3, 0)",
    );
    // Lost updates: 4 connections x 200 increments, by key and by range.
    std::thread::scope(|s| {
        for t in 0..4 {
            let server = &server;
            s.spawn(move || {
                let mut c = connect(server, "iso");
                for i in 0..200 {
                    if (t + i) % 2 == 0 {
                        c.query_drop("UPDATE c SET n = n + 1 WHERE id = 1").unwrap();
                    } else {
                        c.query_drop("UPDATE c SET n = n + 1 WHERE id >= 1 AND id < 2")
                            .unwrap();
                    }
                }
            });
        }
    });
    assert_eq!(
        server.sql("SELECT n FROM iso.c WHERE id = 1").trim(),
        "n\n800"
    );
    // A deadlock: a holds 2 and wants 3, b holds 3 and wants 2.
    let mut a = connect(&server, "iso");
    let mut b = connect(&server, "iso");
    a.query_drop("BEGIN").unwrap();
    b.query_drop("BEGIN").unwrap();
    a.query_drop("UPDATE c SET n = 10 WHERE id = 2").unwrap();
    b.query_drop("UPDATE c SET n = 20 WHERE id = 3").unwrap();
    let waiter = std::thread::spawn(move || {
        let r = a.query_drop("UPDATE c SET n = 11 WHERE id = 3");
        (r, a)
    });
    std::thread::sleep(std::time::Duration::from_millis(200));
    let rb = b.query_drop("UPDATE c SET n = 21 WHERE id = 2");
    let (ra, mut a) = waiter.join().unwrap();
    let code = |r: &mysql::Result<()>| match r {
        Err(mysql::Error::MySqlError(e)) => Some(e.code),
        _ => None,
    };
    let codes = [code(&ra), code(&rb)];
    assert_eq!(
        codes.iter().filter(|c| **c == Some(1213)).count(),
        1,
        "exactly one victim: {codes:?}"
    );
    assert!(codes.contains(&None), "the other goes on: {codes:?}");
    // The survivor commits; the victim's first change is gone.
    let (survivor, want) = if codes[0].is_none() {
        (&mut a, "2\t10\n3\t11")
    } else {
        (&mut b, "2\t21\n3\t20")
    };
    survivor.query_drop("COMMIT").unwrap();
    let got = server.sql("SELECT id, n FROM iso.c WHERE id IN (2, 3) ORDER BY id");
    assert_eq!(got.trim(), format!("id\tn\n{want}"));
}

/// An UPDATE that waited for a row lock checks its WHERE clause again on
/// the row as it is then: here the row it found (through another
/// transaction's uncommitted change) no longer matches after that
/// transaction rolls back, and is left alone.
#[test]
fn a_locked_row_is_checked_again_before_it_changes() {
    let server = Server::start();
    server.sql(
        "CREATE DATABASE rc; CREATE TABLE rc.c (id INT PRIMARY KEY, n INT NOT NULL); \
         INSERT INTO rc.c VALUES (1, 20), (2, 30)",
    );
    let mut a = connect(&server, "rc");
    a.query_drop("BEGIN").unwrap();
    a.query_drop("UPDATE c SET n = 5 WHERE id = 1").unwrap();
    let port_server = &server;
    std::thread::scope(|s| {
        let waiter = s.spawn(move || {
            let mut b = connect(port_server, "rc");
            b.query_drop("UPDATE c SET n = n + 100 WHERE n = 5")
                .unwrap();
            b.affected_rows()
        });
        std::thread::sleep(std::time::Duration::from_millis(200));
        a.query_drop("ROLLBACK").unwrap();
        assert_eq!(waiter.join().unwrap(), 0, "the row no longer matched");
    });
    assert_eq!(
        server.sql("SELECT id, n FROM rc.c ORDER BY id").trim(),
        "id\tn\n1\t20\n2\t30"
    );
}

/// A connection to lineardb, then one to MariaDB, each with a fresh
/// database `db` in use.
fn both_servers(server: &Server, mariadb: &common::mariadb::MariaDb, db: &str) -> Vec<Conn> {
    [
        server.url(""),
        format!("mysql://root@127.0.0.1:{}/", mariadb.port),
    ]
    .iter()
    .map(|url| {
        let mut c = Conn::new(Opts::from_url(url).unwrap()).unwrap();
        c.query_drop(format!("DROP DATABASE IF EXISTS {db}"))
            .unwrap();
        c.query_drop(format!("CREATE DATABASE {db}")).unwrap();
        c.query_drop(format!("USE {db}")).unwrap();
        c
    })
    .collect()
}

/// A statement's error code, if it failed.
fn code_of(r: mysql::Result<()>) -> Result<(), u16> {
    r.map_err(|e| match e {
        mysql::Error::MySqlError(e) => e.code,
        other => panic!("{other}"),
    })
}

/// COM_RESET_CONNECTION (the driver's `reset`) on lineardb and on MariaDB:
/// the open transaction rolls back, temporary tables, user variables,
/// session variables and prepared statements are gone, the database and
/// the connection id stay.
#[test]
fn reset_connection_starts_the_session_afresh() {
    let server = Server::start();
    let mariadb = common::mariadb::MariaDb::start();
    let mut seen = Vec::new();
    for mut c in both_servers(&server, &mariadb, "rc") {
        c.query_drop("CREATE TABLE t (a INT)").unwrap();
        c.query_drop("CREATE TEMPORARY TABLE tmp (b INT)").unwrap();
        c.query_drop("SET @v = 5, SESSION wait_timeout = 100, autocommit = 0")
            .unwrap();
        c.query_drop("INSERT INTO t VALUES (1)").unwrap();
        c.query_drop("PREPARE s FROM 'SELECT 1'").unwrap();
        let id: u64 = c.query_first("SELECT CONNECTION_ID()").unwrap().unwrap();
        c.reset().unwrap();
        let after: (Option<i64>, u64, i64, Option<String>, u64) = c
            .query_first(
                "SELECT @v, @@wait_timeout = @@global.wait_timeout, @@autocommit, DATABASE(), \
                 CONNECTION_ID()",
            )
            .unwrap()
            .unwrap();
        assert_eq!(after.4, id, "the connection id stays");
        let rows: i64 = c.query_first("SELECT COUNT(*) FROM t").unwrap().unwrap();
        let tmp = code_of(c.query_drop("SELECT * FROM tmp"));
        let prepared = code_of(c.query_drop("EXECUTE s"));
        seen.push(format!(
            "{:?} rows {rows} tmp {tmp:?} prepared {prepared:?}",
            (after.0, after.1, after.2, after.3)
        ));
    }
    assert_eq!(seen[0], seen[1], "lineardb, then MariaDB");
    assert_eq!(
        seen[0],
        "(None, 1, 1, Some(\"rc\")) rows 0 tmp Err(1146) prepared Err(1243)"
    );
}

/// COM_CHANGE_USER (the driver's `change_user`) on lineardb and on
/// MariaDB: the connection becomes the other account's, in the database
/// asked for, with that account's privileges; a wrong password is 1045.
#[test]
fn change_user_logs_in_another_account() {
    let server = Server::start();
    let mariadb = common::mariadb::MariaDb::start();
    let mut seen = Vec::new();
    for mut c in both_servers(&server, &mariadb, "cu") {
        c.query_drop("DROP USER IF EXISTS 'changed'@'%'").unwrap();
        c.query_drop("CREATE USER 'changed'@'%' IDENTIFIED BY 'pw'")
            .unwrap();
        c.query_drop("GRANT SELECT ON cu.* TO 'changed'@'%'")
            .unwrap();
        c.query_drop("CREATE TABLE cu.t (a INT)").unwrap();
        c.query_drop("SET @v = 1").unwrap();
        let id: u64 = c.query_first("SELECT CONNECTION_ID()").unwrap().unwrap();
        c.change_user(
            mysql::ChangeUserOpts::default()
                .with_user(Some("changed".into()))
                .with_pass(Some("pw".into()))
                .with_db_name(Some("cu".into())),
        )
        .unwrap();
        let (user, db, v, same): (String, Option<String>, Option<i64>, bool) = c
            .query_first(format!(
                "SELECT CURRENT_USER(), DATABASE(), @v, CONNECTION_ID() = {id}"
            ))
            .unwrap()
            .unwrap();
        let insert = code_of(c.query_drop("INSERT INTO t VALUES (1)"));
        let wrong = c.change_user(
            mysql::ChangeUserOpts::default()
                .with_user(Some("changed".into()))
                .with_pass(Some("nope".into())),
        );
        let wrong = match wrong {
            Err(mysql::Error::MySqlError(e)) => e.code,
            other => panic!("{other:?}"),
        };
        seen.push(format!("{user} {db:?} {v:?} {same} {insert:?} {wrong}"));
    }
    assert_eq!(seen[0], seen[1], "lineardb, then MariaDB");
    assert_eq!(seen[0], "changed@% Some(\"cu\") None true Err(1142) 1045");
}
