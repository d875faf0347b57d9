//! Limits, through a real server: numeric overflow and division by zero
//! (compared with MariaDB 10.11 itself), max_allowed_packet (1153, then the
//! connection closes; the server stays up), max_connections (1040) and
//! max_statement_time (1969).
mod common;

use common::mariadb::MariaDb;
use common::Server;
use mysql::prelude::Queryable;
use mysql::{Conn, Opts, OptsBuilder};

fn connect(port: u16) -> Conn {
    Conn::new(Opts::from_url(&format!("mysql://root@127.0.0.1:{port}/")).unwrap()).unwrap()
}

/// A statement's rows or error code, then the codes of its warnings.
fn outcome(c: &mut Conn, sql: &str) -> String {
    let result = match c.query::<mysql::Row, _>(sql) {
        Ok(rows) => format!(
            "{:?}",
            rows.iter()
                .map(|r| (0..r.len())
                    .map(|i| format!("{:?}", r.as_ref(i).unwrap()))
                    .collect::<Vec<_>>())
                .collect::<Vec<_>>()
        ),
        Err(mysql::Error::MySqlError(e)) => format!("ERROR {} ({})", e.code, e.state),
        Err(e) => panic!("{sql}: {e}"),
    };
    let warnings: Vec<u16> = c
        .query_map("SHOW WARNINGS", |(_, code, _): (String, u16, String)| code)
        .unwrap();
    format!("{result} warnings {warnings:?}")
}

const PROBES: &[&str] = &[
    "SELECT 1e308 * 10",
    "SELECT 2e300 * 2e300",
    "SELECT 9223372036854775807 + 1",
    "SELECT -9223372036854775808 - 1",
    "SELECT 18446744073709551615 + 1",
    "SELECT 5 * 4611686018427387904",
    "SELECT -9223372036854775808",
    "SELECT 1 / 0",
    "SELECT 1 DIV 0",
    "SELECT 1.5 / 0",
    "SELECT 1e0 / 0",
    "SELECT 7 % 0",
    "INSERT INTO lim.t VALUES (1, 1 / 0)",
    "INSERT INTO lim.t VALUES (2, 2)",
    "UPDATE lim.t SET b = 1 / 0",
    "UPDATE lim.t SET b = 3 WHERE (1 / 0) IS NULL",
    "SELECT * FROM lim.t",
];

#[test]
fn overflow_and_division_by_zero_match_mariadb() {
    let mariadb = MariaDb::start();
    let lineardb = Server::start();
    for port in [mariadb.port, lineardb.port] {
        let mut c = connect(port);
        c.query_drop("CREATE DATABASE lim").unwrap();
        c.query_drop("CREATE TABLE lim.t (a INT PRIMARY KEY, b INT)")
            .unwrap();
    }
    let mut differences = Vec::new();
    for sql in PROBES {
        // Each on a connection of its own: MariaDB keeps the warnings of a
        // statement that used no table through the next such statement.
        let expected = outcome(&mut connect(mariadb.port), sql);
        let got = outcome(&mut connect(lineardb.port), sql);
        if expected != got {
            differences.push(format!("{sql}\n  MariaDB:  {expected}\n  lineardb: {got}"));
        }
    }
    assert!(
        differences.is_empty(),
        "{} of {} differ:\n{}",
        differences.len(),
        PROBES.len(),
        differences.join("\n")
    );
}

#[test]
fn an_oversized_packet_gets_1153_and_the_server_stays_up() {
    let server = Server::start();
    let mut root = connect(server.port);
    assert!(matches!(
        root.query_drop("SET max_allowed_packet = 4096"),
        Err(mysql::Error::MySqlError(e)) if e.code == 1621
    ));
    root.query_drop("SET GLOBAL max_allowed_packet = 4096")
        .unwrap();
    let big = format!("SELECT LENGTH('{}');\nSELECT 1;\n", "x".repeat(10_000));
    // New connections take the new limit. The `mysql` client (its own
    // limit raised) sends the packet; the Rust driver would refuse to.
    let out = server
        .mysql_cli()
        .args(["--max-allowed-packet=1G", "--force"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .and_then(|mut child| {
            use std::io::Write;
            child.stdin.take().unwrap().write_all(big.as_bytes())?;
            child.wait_with_output()
        })
        .unwrap();
    let err = common::text(&out.stderr);
    assert!(
        err.contains(
            "ERROR 1153 (08S01) at line 1: Got a packet bigger than 'max_allowed_packet' bytes"
        ),
        "{err}"
    );
    // That connection was closed: the next statement had to reconnect or
    // failed; either way the server goes on serving.
    root.query_drop("SET GLOBAL max_allowed_packet = 67108864")
        .unwrap();
    let mut c = connect(server.port);
    let n: u64 = c
        .query_first(format!("SELECT LENGTH('{}')", "x".repeat(10_000)))
        .unwrap()
        .unwrap();
    assert_eq!(n, 10_000);
}

#[test]
fn connections_beyond_max_connections_get_1040() {
    let server = Server::start();
    let mut root = connect(server.port);
    root.query_drop("SET GLOBAL max_connections = 10").unwrap();
    let mut held: Vec<Conn> = (0..9).map(|_| connect(server.port)).collect();
    let opts = OptsBuilder::new()
        .ip_or_hostname(Some("127.0.0.1"))
        .tcp_port(server.port)
        .user(Some("root"));
    match Conn::new(opts.clone()) {
        Err(mysql::Error::MySqlError(e)) => assert_eq!(e.code, 1040, "{}", e.message),
        Err(e) => panic!("not 1040: {e}"),
        Ok(_) => panic!("an 11th connection was let in"),
    }
    held.pop();
    // A place is free again once the server has seen the disconnect.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(5);
    let mut c = loop {
        match Conn::new(opts.clone()) {
            Ok(c) => break c,
            Err(_) if std::time::Instant::now() < deadline => {
                std::thread::sleep(std::time::Duration::from_millis(20))
            }
            Err(e) => panic!("no place after a disconnect: {e}"),
        }
    };
    assert_eq!(c.query_first::<u8, _>("SELECT 1").unwrap(), Some(1));
}

#[test]
fn statements_past_max_statement_time_get_1969() {
    let server = Server::start();
    let mut c = connect(server.port);
    c.query_drop("SET max_statement_time = 0.2").unwrap();
    let start = std::time::Instant::now();
    match c.query_first::<u8, _>("SELECT SLEEP(5)") {
        Err(mysql::Error::MySqlError(e)) => assert_eq!((e.code, e.state.as_str()), (1969, "70100")),
        other => panic!("not stopped: {other:?}"),
    }
    assert!(start.elapsed() < std::time::Duration::from_secs(3));
    // The session goes on; a quick statement is not stopped.
    assert_eq!(c.query_first::<u8, _>("SELECT 1").unwrap(), Some(1));
    c.query_drop("SET max_statement_time = 0").unwrap();
    assert_eq!(
        c.query_first::<u8, _>("SELECT SLEEP(0.3)").unwrap(),
        Some(0)
    );
}

#[test]
fn a_query_over_its_memory_budget_spills_or_fails_cleanly() {
    let server = Server::start();
    let mut c = connect(server.port);
    c.query_drop("CREATE DATABASE mem").unwrap();
    c.query_drop("CREATE TABLE mem.t (id INT PRIMARY KEY, s VARCHAR(100))")
        .unwrap();
    let values: Vec<String> = (0..3000)
        .map(|i| format!("({i}, '{}')", "x".repeat(80)))
        .collect();
    c.query_drop(format!("INSERT INTO mem.t VALUES {}", values.join(",")))
        .unwrap();
    c.query_drop("SET lineardb_query_memory = 65536").unwrap();
    // Sorts, groups and DISTINCT spill to temporary files.
    for sql in [
        "SELECT * FROM mem.t ORDER BY s, id",
        "SELECT id, COUNT(*) FROM mem.t GROUP BY id",
        "SELECT DISTINCT id, s FROM mem.t",
    ] {
        let rows: Vec<mysql::Row> = c.query(sql).unwrap();
        assert_eq!(rows.len(), 3000, "{sql}");
    }
    // What does not spill yet fails with 1038.
    for sql in ["SELECT id, ROW_NUMBER() OVER (ORDER BY s, id) FROM mem.t"] {
        match c.query::<mysql::Row, _>(sql) {
            Err(mysql::Error::MySqlError(e)) => assert_eq!(e.code, 1038, "{sql}: {}", e.message),
            other => panic!("{sql} ran over its budget: {:?}", other.map(|r| r.len())),
        }
    }
    // Small results still run under the budget, and the session goes on.
    let n: u64 = c
        .query_first("SELECT COUNT(*) FROM mem.t")
        .unwrap()
        .unwrap();
    assert_eq!(n, 3000);
    c.query_drop("SET lineardb_query_memory = 1073741824")
        .unwrap();
    let rows: Vec<mysql::Row> = c.query("SELECT * FROM mem.t ORDER BY s, id").unwrap();
    assert_eq!(rows.len(), 3000);
}
