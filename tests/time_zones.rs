//! Time zones beside a real MariaDB 10.11, both servers run in the same
//! system zone (`TZ`): a zone with summer time (Central European) and one
//! with a fixed offset (India's, +05:30). A session's `time_zone` (SYSTEM
//! or an offset) is the zone NOW(), CURDATE(), FROM_UNIXTIME() and
//! UNIX_TIMESTAMP() work in and TIMESTAMP columns are read and written in:
//! their values stay the same instants whatever zone a session writes and
//! reads them in; DATETIME columns keep what they are given. TIMESTAMP's
//! range (1970-01-01 00:00:01 to 2038-01-19 03:14:07 UTC) is checked in
//! the session's zone; key lookups and ranges over a TIMESTAMP index, joins,
//! subqueries, UPDATE, INSERT … SELECT, ON DUPLICATE KEY UPDATE and views
//! see the session's times. `mariadb-dump` (which sets `time_zone` to
//! +00:00) of a table with TIMESTAMP columns writes MariaDB's lines and
//! restores the same instants.
mod common;
use common::differential::{same_as_mariadb, Shown};
use common::mariadb::MariaDb;
use common::{tool, Server};
use std::process::Command;

/// Central European time with its summer time, as a POSIX rule (no time
/// zone files needed).
const CENTRAL_EUROPE: &str = "CET-1CEST,M3.5.0,M10.5.0/3";
/// India's time: +05:30 all year.
const INDIA: &str = "IST-5:30";

const SETUP: &[&str] = &[
    "CREATE TABLE ev (id INT PRIMARY KEY, at TIMESTAMP(3) NULL, k TIMESTAMP NULL, \
     d DATETIME NULL, note VARCHAR(20), KEY (k))",
    "CREATE TABLE other (id INT PRIMARY KEY, k TIMESTAMP NULL)",
];

const STATEMENTS: &[&str] = &[
    "SELECT @@time_zone, @@session.time_zone",
    "SET time_zone = '+05:30'",
    "SELECT @@time_zone",
    // NOW() and CURDATE() in the session's zone.
    "SELECT TIMESTAMPDIFF(MINUTE, UTC_TIMESTAMP(), NOW()), CURDATE() = DATE(NOW())",
    "INSERT INTO ev VALUES (1, '2020-01-01 10:00:00.125', '2020-01-01 10:00:00', \
     '2020-01-01 10:00:00', 'winter'), \
     (2, '2021-07-01 12:30:00', '2021-07-01 12:30:00', '2021-07-01 12:30:00', 'summer'), \
     (3, '1970-01-01 05:30:01', '1970-01-01 05:30:01', '1970-01-01 05:30:01', 'first'), \
     (4, '2038-01-19 08:44:07', '2038-01-19 08:44:07', NULL, 'last'), \
     (5, 0, 0, 0, 'zero'), (6, NULL, NULL, NULL, 'null')",
    "SELECT id, at, k, d, UNIX_TIMESTAMP(k), UNIX_TIMESTAMP(at) FROM ev ORDER BY id",
    // Out of TIMESTAMP's range in this zone (MariaDB's 1292; the message
    // names the time in the server's zone here).
    "INSERT INTO ev (id, k) VALUES (7, '1970-01-01 05:30:00')",
    "INSERT INTO ev (id, k) VALUES (7, '2038-01-19 08:44:08')",
    "INSERT INTO ev (id, k) VALUES (7, 20380119084408)",
    "SET sql_mode = ''",
    "INSERT INTO ev (id, k, note) VALUES (8, '2038-01-19 08:44:08', 'past the last')",
    "SHOW WARNINGS",
    "SET sql_mode = DEFAULT",
    "SET time_zone = '+00:00'",
    "SELECT id, at, k, d, UNIX_TIMESTAMP(k), UNIX_TIMESTAMP(at) FROM ev ORDER BY id",
    "INSERT INTO ev (id, k) VALUES (7, '1970-01-01 00:00:00')",
    "INSERT INTO ev (id, k, note) VALUES (7, '1970-01-01 00:00:01', 'utc first')",
    "SET time_zone = 'SYSTEM'",
    "SELECT id, at, k, d FROM ev ORDER BY id",
    "SET time_zone = '-08:00'",
    "SELECT id, at, k, d FROM ev ORDER BY k, id",
    // Lookups and ranges through the TIMESTAMP key, in the session's zone.
    "SELECT id FROM ev WHERE k = '2019-12-31 20:30:00'",
    "SELECT id FROM ev WHERE k = 20191231203000",
    "SELECT id FROM ev WHERE k > '2020-01-01' ORDER BY id",
    "SELECT id FROM ev WHERE k BETWEEN '2019-12-31 20:00:00' AND '2021-07-01 00:00:00' ORDER BY id",
    "SELECT id FROM ev WHERE k IN ('2019-12-31 20:30:00', '2021-07-01 00:00:00') ORDER BY id",
    "SELECT id FROM ev WHERE k < '1970-01-01' ORDER BY id",
    "SELECT id FROM ev WHERE at >= '2019-12-31 20:30:00.125' ORDER BY id",
    "SELECT MIN(k), MAX(k), COUNT(DISTINCT k) FROM ev",
    "SELECT DATE(k), COUNT(*) FROM ev GROUP BY DATE(k) ORDER BY 1",
    "SELECT id, k = d, k > d FROM ev ORDER BY id",
    // Functions of the session's zone.
    "SELECT FROM_UNIXTIME(0), FROM_UNIXTIME(1577836800), UNIX_TIMESTAMP('2020-01-01 00:00:00')",
    "SELECT CONVERT_TZ('2021-07-01 12:00:00', 'SYSTEM', '+00:00'), \
     CONVERT_TZ('2021-01-01 12:00:00', '+00:00', 'SYSTEM'), \
     CONVERT_TZ('2021-01-01 12:00:00', '-08:00', '+05:30')",
    "SELECT TIMESTAMPDIFF(MINUTE, UTC_TIMESTAMP(), NOW())",
    // Changes in the session's zone.
    "UPDATE ev SET k = k + INTERVAL 1 HOUR WHERE id = 1",
    "UPDATE ev SET d = k WHERE id = 2",
    "SELECT id, k, d FROM ev WHERE id IN (1, 2) ORDER BY id",
    "INSERT INTO other SELECT id, k FROM ev WHERE k IS NOT NULL",
    "SELECT o.id, o.k, e.note FROM other o JOIN ev e ON o.k = e.k ORDER BY o.id, e.note",
    "SELECT id, (SELECT o.k FROM other o WHERE o.id = ev.id) = k FROM ev ORDER BY id",
    "SELECT id FROM ev WHERE k = (SELECT k FROM other WHERE id = 2)",
    "INSERT INTO other VALUES (1, '2000-01-01 00:00:00') ON DUPLICATE KEY UPDATE k = VALUES(k)",
    "UPDATE other o JOIN ev e ON o.id = e.id SET o.k = e.at WHERE e.id = 2",
    "SET time_zone = '+05:30'",
    "SELECT id, k FROM other ORDER BY id",
    "CREATE VIEW recent AS SELECT id, k FROM ev WHERE k > '2021-01-01'",
    "SELECT * FROM recent",
    "SET time_zone = '+01:00'",
    "SELECT * FROM recent",
    "SELECT * FROM (SELECT id, k FROM ev) d WHERE k = '2020-01-01 12:00:00'",
    // Zones MariaDB refuses without time zone tables, and offsets out of
    // range.
    "SET time_zone = 'Europe/Paris'",
    "SET time_zone = '+13:01'",
    "SET time_zone = '-13:00'",
    "SET time_zone = '+1:0'",
    "SELECT @@time_zone",
    "SET time_zone = DEFAULT",
    "SELECT @@time_zone",
];

/// The statements whose messages differ from MariaDB's (a time out of
/// TIMESTAMP's range given in another zone than the server's is named as
/// a time of the server's zone), compared by their codes only.
const NAMED_IN_THE_SERVERS_ZONE: &[&str] = &[
    "INSERT INTO ev (id, k) VALUES (7, '1970-01-01 05:30:00')",
    "INSERT INTO ev (id, k) VALUES (7, '2038-01-19 08:44:08')",
    "INSERT INTO ev (id, k) VALUES (7, 20380119084408)",
    "INSERT INTO ev (id, k) VALUES (7, '1970-01-01 00:00:00')",
];

fn same_in_zone(tz: &str, db: &str) {
    let server = Server::start_in_zone(tz);
    let mariadb = MariaDb::start_in_zone(tz);
    same_as_mariadb(&server, &mariadb, db, SETUP, STATEMENTS, Shown::Rows);
    // Affected rows, warnings and messages, but for the messages above
    // (their statements still run, for what follows).
    let ours = common::differential::outcomes(
        &server.url(""),
        &format!("{db}_m"),
        SETUP,
        STATEMENTS,
        Shown::Changes,
    );
    let theirs = common::differential::outcomes(
        &format!("mysql://root@127.0.0.1:{}/", mariadb.port),
        &format!("{db}_m"),
        SETUP,
        STATEMENTS,
        Shown::Changes,
    );
    let kept = |outcomes: Vec<String>| -> Vec<String> {
        outcomes
            .into_iter()
            .zip(STATEMENTS)
            .map(|(o, s)| match NAMED_IN_THE_SERVERS_ZONE.contains(s) {
                true => o.split(" Incorrect").next().unwrap_or_default().to_string(),
                false => o,
            })
            .collect()
    };
    common::differential::assert_same(&kept(ours), &kept(theirs));
}

#[test]
fn sessions_zones_in_a_zone_with_summer_time() {
    same_in_zone(CENTRAL_EUROPE, "tz_summer");
}

#[test]
fn sessions_zones_in_a_zone_of_one_offset() {
    same_in_zone(INDIA, "tz_fixed");
}

/// `mariadb-dump`'s INSERT lines for database `db` at `port`.
fn dumped_rows(port: u16, db: &str) -> Vec<String> {
    let out = Command::new(tool("mariadb-dump"))
        .args(["-h", "127.0.0.1", "-P", &port.to_string(), "-u", "root"])
        .args(["--skip-extended-insert", db])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", common::text(&out.stderr));
    common::text(&out.stdout)
        .lines()
        .filter(|l| l.starts_with("INSERT") || l.contains("TIME_ZONE"))
        .map(str::to_string)
        .collect()
}

#[test]
fn a_dump_in_utc_restores_the_same_instants() {
    let server = Server::start_in_zone(CENTRAL_EUROPE);
    let mariadb = MariaDb::start_in_zone(CENTRAL_EUROPE);
    let rows = [
        "CREATE TABLE ev (id INT PRIMARY KEY, at TIMESTAMP(3) NULL, d DATETIME NULL)",
        "INSERT INTO ev VALUES (1, '2020-01-01 10:00:00.125', '2020-01-01 10:00:00'), \
         (2, '2021-07-01 12:30:00', '2021-07-01 12:30:00'), (3, 0, 0)",
    ];
    let mariadb_url = format!("mysql://root@127.0.0.1:{}/", mariadb.port);
    for url in [server.url(""), mariadb_url] {
        let statements: Vec<String> = [
            "DROP DATABASE IF EXISTS dumped",
            "CREATE DATABASE dumped",
            "USE dumped",
        ]
        .iter()
        .map(|s| s.to_string())
        .chain(rows.iter().map(|s| s.to_string()))
        .collect();
        use mysql::prelude::Queryable;
        let mut c = mysql::Conn::new(mysql::Opts::from_url(&url).unwrap()).unwrap();
        for s in &statements {
            c.query_drop(s).unwrap();
        }
    }
    let ours = dumped_rows(server.port, "dumped");
    assert_eq!(ours, dumped_rows(mariadb.port, "dumped"));
    assert!(
        ours.iter().any(|l| l.contains("'2020-01-01 09:00:00.125'")),
        "{ours:?}"
    );
    // Restored into a fresh database, the same instants in SYSTEM's zone.
    let dump = Command::new(tool("mariadb-dump"))
        .args([
            "-h",
            "127.0.0.1",
            "-P",
            &server.port.to_string(),
            "-u",
            "root",
            "dumped",
        ])
        .output()
        .unwrap();
    assert!(dump.status.success());
    server.sql("CREATE DATABASE restored");
    let mut load = server.mysql_cli();
    load.arg("restored").stdin(std::process::Stdio::piped());
    let mut child = load.spawn().unwrap();
    use std::io::Write;
    child.stdin.take().unwrap().write_all(&dump.stdout).unwrap();
    assert!(child.wait().unwrap().success());
    let query = "SELECT id, at, d FROM ev ORDER BY id";
    assert_eq!(
        server.sql(&format!("USE restored; {query}")),
        server.sql(&format!("USE dumped; {query}"))
    );
    assert!(server
        .sql(&format!("USE restored; {query}"))
        .contains("2021-07-01 12:30:00.000"));
}
