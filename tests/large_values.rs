//! Values larger than a page, through the server: TEXT, BLOB and long
//! VARCHAR values kept off-page give MariaDB's results for inserts,
//! updates, deletes, rollbacks, functions over them, ALTER TABLE that
//! copies them and an index built beside them; a 16 MB LONGBLOB round-trips
//! byte-exact through the text and the binary protocol and survives a
//! kill -9, while an uncommitted one is gone after it; a snapshot keeps
//! reading the value another connection replaced.
mod common;
use common::differential::same_rows_and_messages;
use common::mariadb::MariaDb;
use common::Server;
use mysql::prelude::*;
use mysql::{Conn, Opts};

const SETUP: &[&str] = &[
    "CREATE TABLE docs (id INT PRIMARY KEY, title VARCHAR(100), body LONGTEXT, \
     raw MEDIUMBLOB, extra VARCHAR(5000), n INT, KEY (title))",
    "INSERT INTO docs VALUES (1, 'small', 'short body', 'ab', 'e', 1)",
    "INSERT INTO docs VALUES (2, 'big', REPEAT('lorem ipsum ', 20000), REPEAT(x'00ff', 50000), \
     REPEAT('é', 5000), 2)",
    "INSERT INTO docs VALUES (3, 'huge', REPEAT(CONCAT('line ', 'of text', CHAR(10)), 100000), \
     NULL, REPEAT('x', 4000), 3)",
];

const STEPS: &[&str] = &[
    "SELECT id, title, LENGTH(body), CHAR_LENGTH(body), MD5(body), LENGTH(raw), MD5(raw), \
     CHAR_LENGTH(extra), n FROM docs ORDER BY id",
    "SELECT id, LEFT(body, 20), RIGHT(body, 12), SUBSTRING(body, 100001, 15), LEFT(HEX(raw), 8) \
     FROM docs ORDER BY id",
    "SELECT id FROM docs WHERE body LIKE '%ipsum lorem%' ORDER BY id",
    "SELECT id FROM docs WHERE body = REPEAT('lorem ipsum ', 20000)",
    "SELECT COUNT(*), SUM(LENGTH(body)), MAX(LENGTH(extra)) FROM docs",
    "SELECT title, n FROM docs WHERE n > 1 ORDER BY n",
    "UPDATE docs SET n = n + 10 WHERE id = 2",
    "SELECT id, n, MD5(body), MD5(raw) FROM docs ORDER BY id",
    "UPDATE docs SET body = CONCAT(body, 'tail') WHERE id = 2",
    "SELECT id, LENGTH(body), RIGHT(body, 8), MD5(raw) FROM docs ORDER BY id",
    "UPDATE docs SET body = 'now short', raw = REPEAT('r', 70000) WHERE id = 3",
    "SELECT id, LENGTH(body), body = 'now short', LENGTH(raw) FROM docs ORDER BY id",
    "START TRANSACTION",
    "INSERT INTO docs VALUES (4, 'gone', REPEAT('z', 300000), NULL, NULL, 4)",
    "UPDATE docs SET body = REPEAT('w', 200000) WHERE id = 1",
    "SELECT id, LENGTH(body) FROM docs ORDER BY id",
    "ROLLBACK",
    "SELECT id, LENGTH(body), MD5(body) FROM docs ORDER BY id",
    "INSERT INTO docs SELECT id + 10, title, body, raw, extra, n FROM docs",
    "SELECT id, LENGTH(body), MD5(body), LENGTH(raw) FROM docs ORDER BY id",
    "DELETE FROM docs WHERE id > 10 AND LENGTH(body) > 1000",
    "SELECT id, LENGTH(body) FROM docs ORDER BY id",
    "ALTER TABLE docs ADD COLUMN added INT DEFAULT 7 FIRST",
    "SELECT added, id, LENGTH(body), MD5(body), MD5(raw), LENGTH(extra) FROM docs ORDER BY id",
    "ALTER TABLE docs MODIFY extra VARCHAR(6000)",
    "ALTER TABLE docs ADD INDEX (n)",
    "SELECT id, MD5(extra) FROM docs ORDER BY id",
    "SELECT d1.id, d2.id FROM docs d1 JOIN docs d2 ON d1.body = d2.body ORDER BY 1, 2",
    "SELECT id, LENGTH(GROUP_CONCAT(body)) FROM docs GROUP BY id ORDER BY id",
    "UPDATE docs SET title = REPEAT('t', 101) WHERE id = 1",
    "DELETE FROM docs WHERE id = 2",
    "SELECT id, LENGTH(body) FROM docs ORDER BY id",
    "TRUNCATE TABLE docs",
    "INSERT INTO docs (id, body) VALUES (5, REPEAT('q', 100000))",
    "SELECT id, LENGTH(body), LENGTH(raw) FROM docs",
    "CHECK TABLE docs",
];

#[test]
fn large_values_match_mariadb() {
    let server = Server::start();
    let mariadb = MariaDb::start();
    same_rows_and_messages(
        &server,
        &mariadb,
        "large_values",
        SETUP,
        STEPS,
        &["CHECK TABLE docs"],
    );
}

/// Deterministic bytes, every value 0..=255.
fn noise(len: usize, seed: u64) -> Vec<u8> {
    let mut x = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    (0..len)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x as u8
        })
        .collect()
}

#[test]
fn a_16_mb_longblob_round_trips_and_survives_kill_9() {
    let dir = tempfile::tempdir().unwrap();
    let datadir = dir.path().join("data");
    let server = Server::start_at(&datadir, &[]);
    let mut c = Conn::new(Opts::from_url(&server.url("")).unwrap()).unwrap();
    c.query_drop("CREATE DATABASE lob").unwrap();
    c.query_drop("USE lob").unwrap();
    c.query_drop("CREATE TABLE b (id INT PRIMARY KEY, v LONGBLOB)")
        .unwrap();
    let big = noise(16 << 20, 1);
    // Binary protocol: the value travels as bytes.
    c.exec_drop("INSERT INTO b VALUES (?, ?)", (1, &big))
        .unwrap();
    // Text protocol: the value travels as a hex literal.
    let other = noise(3 << 20, 2);
    let hex: String = other.iter().map(|b| format!("{b:02x}")).collect();
    c.query_drop(format!("INSERT INTO b VALUES (2, x'{hex}')"))
        .unwrap();
    let read = |c: &mut Conn, id: i32| -> Vec<u8> {
        let text: Option<Vec<u8>> = c
            .query_first(format!("SELECT v FROM b WHERE id = {id}"))
            .unwrap();
        let binary: Option<Vec<u8>> = c.exec_first("SELECT v FROM b WHERE id = ?", (id,)).unwrap();
        assert!(text == binary, "text and binary protocol agree");
        text.expect("row")
    };
    assert!(read(&mut c, 1) == big, "16 MB value byte-exact");
    assert!(read(&mut c, 2) == other, "3 MB value byte-exact");
    // An uncommitted value is in flight when the server dies.
    let mut open = Conn::new(Opts::from_url(&server.url("lob")).unwrap()).unwrap();
    open.query_drop("START TRANSACTION").unwrap();
    open.exec_drop("INSERT INTO b VALUES (?, ?)", (3, noise(5 << 20, 3)))
        .unwrap();
    open.exec_drop("UPDATE b SET v = ? WHERE id = 2", (noise(1 << 20, 4),))
        .unwrap();
    drop(c);
    server.kill9();

    let server = Server::start_at(&datadir, &[]);
    let mut c = Conn::new(Opts::from_url(&server.url("lob")).unwrap()).unwrap();
    assert!(read(&mut c, 1) == big, "16 MB value after kill -9");
    assert!(read(&mut c, 2) == other, "the uncommitted update is gone");
    let ids: Vec<i32> = c.query("SELECT id FROM b ORDER BY id").unwrap();
    assert_eq!(ids, vec![1, 2], "the uncommitted insert is gone");
    let check: Vec<(String, String, String, String)> = c.query("CHECK TABLE b").unwrap();
    assert_eq!(check[0].3, "OK");
    // New values after recovery are stored beside the old ones.
    let next = noise(2 << 20, 5);
    c.exec_drop("INSERT INTO b VALUES (?, ?)", (4, &next))
        .unwrap();
    assert!(read(&mut c, 4) == next);
    assert!(read(&mut c, 1) == big);
}

#[test]
fn a_snapshot_keeps_reading_a_replaced_value() {
    let server = Server::start();
    let mut w = Conn::new(Opts::from_url(&server.url("")).unwrap()).unwrap();
    w.query_drop("CREATE DATABASE snap").unwrap();
    w.query_drop("USE snap").unwrap();
    w.query_drop("CREATE TABLE s (id INT PRIMARY KEY, v LONGTEXT)")
        .unwrap();
    w.query_drop("INSERT INTO s VALUES (1, REPEAT('a', 500000)), (2, REPEAT('b', 500000))")
        .unwrap();
    let mut r = Conn::new(Opts::from_url(&server.url("snap")).unwrap()).unwrap();
    // REPEATABLE READ: the first read takes the snapshot.
    r.query_drop("START TRANSACTION").unwrap();
    let before: Vec<(i32, u64, String)> = r
        .query("SELECT id, LENGTH(v), MD5(v) FROM s ORDER BY id")
        .unwrap();
    w.query_drop("UPDATE s SET v = REPEAT('c', 700000) WHERE id = 1")
        .unwrap();
    w.query_drop("DELETE FROM s WHERE id = 2").unwrap();
    // Purge runs on its own; the snapshot must outlive it.
    std::thread::sleep(std::time::Duration::from_millis(300));
    let during: Vec<(i32, u64, String)> = r
        .query("SELECT id, LENGTH(v), MD5(v) FROM s ORDER BY id")
        .unwrap();
    assert_eq!(during, before, "the snapshot reads the old values");
    r.query_drop("COMMIT").unwrap();
    let after: Vec<(i32, u64)> = r.query("SELECT id, LENGTH(v) FROM s ORDER BY id").unwrap();
    assert_eq!(after, vec![(1, 700000)]);
}

/// A string literal's bytes as `mariadb-dump` writes them without
/// `--hex-blob`: raw, with NUL, quote, backslash and line ends escaped.
fn dump_escaped(bytes: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    for &b in bytes {
        match b {
            0 => out.extend_from_slice(b"\\0"),
            b'\'' => out.extend_from_slice(b"\\'"),
            b'\\' => out.extend_from_slice(b"\\\\"),
            b'\n' => out.extend_from_slice(b"\\n"),
            b'\r' => out.extend_from_slice(b"\\r"),
            0x1a => out.extend_from_slice(b"\\Z"),
            b => out.push(b),
        }
    }
    out
}

#[test]
fn raw_bytes_in_query_text_are_kept() {
    use std::io::Write;
    let server = Server::start();
    server.sql("CREATE DATABASE rawb");
    server.sql("CREATE TABLE rawb.r (id INT PRIMARY KEY, v BLOB)");
    // Every byte value, then bytes that happen to spell a character of
    // plane 16's private use area, as a dump restored by the client sends.
    let mut all: Vec<u8> = (0..=255u8).collect();
    all.extend_from_slice("\u{10FF41}\u{10FFFF}é".as_bytes());
    all.extend_from_slice(&[0xF4, 0x8F, 0xBD]);
    let mut script = b"INSERT INTO rawb.r VALUES (1, '".to_vec();
    script.extend_from_slice(&dump_escaped(&all));
    script.extend_from_slice(b"'), (2, _binary '");
    script.extend_from_slice(&dump_escaped(&all));
    script.extend_from_slice(b"');\n");
    let mut client = server
        .mysql_cli()
        .arg("--binary-mode")
        .stdin(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    client.stdin.take().unwrap().write_all(&script).unwrap();
    assert!(client.wait().unwrap().success());
    let mut c = Conn::new(Opts::from_url(&server.url("rawb")).unwrap()).unwrap();
    let rows: Vec<(i32, Vec<u8>)> = c.query("SELECT id, v FROM r ORDER BY id").unwrap();
    assert_eq!(rows.len(), 2);
    for (id, v) in rows {
        assert!(v == all, "row {id}: the bytes sent are the bytes stored");
    }
}
