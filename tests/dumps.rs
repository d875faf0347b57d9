//! Dumps as users make them: `mariadb-dump` of a lineardb database (every
//! column type, keys, a foreign key, a CHECK, a view, 100,000 rows),
//! restored with the `mariadb` client into a fresh database, must give the
//! same rows and definitions; with `--single-transaction` (savepoints) and
//! with routines, events and triggers asked for too; and a dump MariaDB
//! made of the same database must load into lineardb with MariaDB's rows.
//! `mariadb-dump --tab` (the server writes each table's rows with SELECT …
//! INTO OUTFILE) writes the same data files as MariaDB's, and they load
//! back with `mariadb-import`.
mod common;
use common::mariadb::MariaDb;
use common::{text, tool, Server};
use std::process::{Command, Stdio};

const SCHEMA: &[&str] = &[
    "CREATE TABLE p (id INT PRIMARY KEY AUTO_INCREMENT, code VARCHAR(10) NOT NULL UNIQUE, \
     name VARCHAR(50) DEFAULT 'n''x', created DATETIME(3) DEFAULT '2024-01-02 03:04:05.678', \
     price DECIMAL(12,2), f FLOAT, d DOUBLE NOT NULL DEFAULT 1.5, b BLOB, t TEXT COMMENT 'a text', \
     e ENUM('a','b') NOT NULL, s SET('x','y'), bi BIGINT UNSIGNED, ti TINYINT(1), y YEAR, dt DATE, \
     tm TIME(2), bn BINARY(4), vb VARBINARY(9), j JSON, bt BIT(5), KEY k_name (name, code)) \
     COMMENT 'parents'",
    "CREATE TABLE c (id INT NOT NULL, pid INT, qty INT DEFAULT 0, note VARCHAR(20), \
     PRIMARY KEY (id), CONSTRAINT fk_p FOREIGN KEY (pid) REFERENCES p (id) ON DELETE CASCADE, \
     CONSTRAINT chk_q CHECK (qty >= 0), UNIQUE KEY u_pq (pid, qty)) DEFAULT CHARSET=latin1",
    "CREATE VIEW v AS SELECT id, code FROM p WHERE id > 1",
    "INSERT INTO p (code, name, price, f, d, b, t, e, s, bi, ti, y, dt, tm, bn, vb, j, bt) VALUES \
     ('a', 'it''s', 12.5, 1.25, -2.5e-3, x'00ff27', 'tab\\there', 'a', 'x,y', 18446744073709551615, \
     1, 2024, '2024-02-29', '-838:59:59', 'ab', x'0a0d5c', '{\"k\": [1, \"é\"]}', b'10101'), \
     ('b', NULL, NULL, NULL, 0, NULL, NULL, 'b', '', 0, 0, NULL, NULL, NULL, NULL, '', NULL, NULL)",
    "CREATE TABLE digits (i INT PRIMARY KEY)",
    "INSERT INTO digits VALUES (0), (1), (2), (3), (4), (5), (6), (7), (8), (9)",
    "INSERT INTO c SELECT n, 1 + n % 2, n, CONCAT('row ', n) FROM (SELECT \
     a.i * 10000 + b.i * 1000 + c.i * 100 + d.i * 10 + e.i + 1 AS n \
     FROM digits a, digits b, digits c, digits d, digits e) AS numbers",
    "DROP TABLE digits",
];

/// What is compared between the two databases.
const CHECKS: &[&str] = &[
    "SELECT * FROM p ORDER BY id",
    "SELECT COUNT(*), SUM(qty), MAX(note), SUM(CRC32(CONCAT(id, pid, qty, note))) FROM c",
    "SELECT * FROM c WHERE id % 9973 = 0 ORDER BY id",
    // Every row, byte for byte as the client prints it.
    "SELECT * FROM c ORDER BY id",
    "SELECT * FROM v ORDER BY id",
    "SHOW CREATE TABLE p",
    "SHOW CREATE TABLE c",
    "SHOW CREATE VIEW v",
];

fn client(port: u16) -> Command {
    let mut c = Command::new(tool("mariadb"));
    c.args(["-h", "127.0.0.1", "-P", &port.to_string(), "-u", "root"]);
    c
}

fn run(port: u16, db: &str, sql: &str) -> String {
    let out = client(port).args([db, "-e", sql]).output().unwrap();
    assert!(out.status.success(), "{sql}: {}", text(&out.stderr));
    text(&out.stdout)
}

fn dump(port: u16, db: &str, options: &[&str]) -> Vec<u8> {
    let out = Command::new(tool("mariadb-dump"))
        .args(["-h", "127.0.0.1", "-P", &port.to_string(), "-u", "root"])
        .args(options)
        .arg(db)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "mariadb-dump {options:?}: {}",
        text(&out.stderr)
    );
    out.stdout
}

fn restore(port: u16, db: &str, dump: &[u8]) {
    run(
        port,
        "",
        &format!("DROP DATABASE IF EXISTS {db}; CREATE DATABASE {db}"),
    );
    feed(port, db, dump);
}

/// `script` through the `mariadb` client into `db`, which must take it.
fn feed(port: u16, db: &str, script: &[u8]) {
    let mut child = client(port)
        .arg(db)
        .stdin(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    use std::io::Write;
    child.stdin.take().unwrap().write_all(script).unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "restoring: {}", text(&out.stderr));
}

fn checks(port: u16, db: &str) -> Vec<String> {
    CHECKS.iter().map(|q| run(port, db, q)).collect()
}

fn create(port: u16, db: &str) {
    run(
        port,
        "",
        &format!("DROP DATABASE IF EXISTS {db}; CREATE DATABASE {db}"),
    );
    for s in SCHEMA {
        run(port, db, s);
    }
}

#[test]
fn a_dump_restores_the_same_database() {
    let server = Server::start();
    create(server.port, "src");
    let original = checks(server.port, "src");
    assert!(original[1].contains("100000"), "{}", original[1]);
    assert_eq!(
        original[3].lines().count(),
        100_001,
        "a header and every row"
    );
    for options in [
        &[][..],
        &["--single-transaction"][..],
        &["--routines", "--events", "--triggers", "--hex-blob"][..],
    ] {
        let made = dump(server.port, "src", options);
        restore(server.port, "restored", &made);
        let again = checks(server.port, "restored");
        for (q, (a, b)) in CHECKS.iter().zip(original.iter().zip(&again)) {
            assert_eq!(a, b, "{q} after a dump with {options:?}");
        }
    }
}

#[test]
fn a_dump_mariadb_made_loads() {
    let server = Server::start();
    let mariadb = MariaDb::start();
    create(mariadb.port, "src");
    let made = dump(mariadb.port, "src", &[]);
    restore(server.port, "from_mariadb", &made);
    // Rows as MariaDB has them (definitions differ in ENGINE only).
    for q in &CHECKS[..5] {
        assert_eq!(
            run(mariadb.port, "src", q),
            run(server.port, "from_mariadb", q),
            "{q}"
        );
    }
}

/// The data files (`*.txt`) of a `--tab` dump into `dir`, by name.
fn tab_dump(port: u16, db: &str, dir: &std::path::Path) -> Vec<(String, Vec<u8>)> {
    let tab = format!("--tab={}", dir.display());
    dump(port, db, &[&tab]);
    let mut files: Vec<(String, Vec<u8>)> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "txt"))
        .map(|p| {
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            (name, std::fs::read(&p).unwrap())
        })
        .collect();
    files.sort();
    files
}

#[test]
fn a_tab_dump_writes_mariadb_data_files_and_loads_back() {
    let server = Server::start();
    let mariadb = MariaDb::start();
    create(server.port, "src");
    create(mariadb.port, "src");
    let (ours, theirs) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let files = tab_dump(server.port, "src", ours.path());
    let names: Vec<&str> = files.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(names, ["c.txt", "p.txt"]);
    assert_eq!(files[0].1.iter().filter(|&&b| b == b'\n').count(), 100_000);
    for ((name, a), (_, b)) in files
        .iter()
        .zip(&tab_dump(mariadb.port, "src", theirs.path()))
    {
        assert!(
            a == b,
            "{name} differs from MariaDB's:\n{}\n{}",
            text(&a[..a.len().min(600)]),
            text(&b[..b.len().min(600)])
        );
    }
    // Written again into a fresh database: the definitions (the parent
    // before the table that refers to it, then the view), then the rows.
    run(
        server.port,
        "",
        "DROP DATABASE IF EXISTS tabbed; CREATE DATABASE tabbed",
    );
    for table in ["p", "c", "v"] {
        let definition = std::fs::read(ours.path().join(format!("{table}.sql"))).unwrap();
        feed(server.port, "tabbed", &definition);
    }
    for table in ["p", "c"] {
        let out = Command::new(tool("mariadb-import"))
            .args([
                "-h",
                "127.0.0.1",
                "-P",
                &server.port.to_string(),
                "-u",
                "root",
            ])
            .arg("tabbed")
            .arg(ours.path().join(format!("{table}.txt")))
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "importing {table}: {}",
            text(&out.stderr)
        );
    }
    let original = checks(server.port, "src");
    let again = checks(server.port, "tabbed");
    for (q, (a, b)) in CHECKS.iter().zip(original.iter().zip(&again)) {
        assert_eq!(a, b, "{q} after a --tab dump");
    }
}
