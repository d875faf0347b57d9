//! Snapshot reads against a real `lineardb serve`, through the `mysql`
//! client crate: no dirty reads, no non-repeatable reads at REPEATABLE
//! READ (READ COMMITTED sees each statement's commits), a transaction sees
//! its own changes, every access path (primary key, table scan, covering
//! and non-covering secondary index) returns each visible row exactly
//! once while rows move in the index, and concurrent transfers keep a
//! constant total for every snapshot.
mod common;
use common::Server;
use mysql::prelude::*;
use mysql::{Conn, Opts};

fn connect(server: &Server, db: &str) -> Conn {
    Conn::new(Opts::from_url(&server.url(db)).unwrap()).unwrap()
}

/// The rows of table `t` as each access path returns them:
/// (primary key point reads, table scan, covering scan, non-covering scan).
fn reads(c: &mut Conn) -> Vec<String> {
    let q = |c: &mut Conn, sql: &str| -> String {
        let rows: Vec<(i64, i64)> = c.query(sql).unwrap();
        rows.iter()
            .map(|(a, b)| format!("{a}:{b}"))
            .collect::<Vec<_>>()
            .join(" ")
    };
    let mut points = Vec::new();
    for id in 1..=6 {
        let r: Option<(i64, i64)> = c
            .exec_first("SELECT id, k FROM t WHERE id = ?", (id,))
            .unwrap();
        if let Some((a, b)) = r {
            points.push(format!("{a}:{b}"));
        }
    }
    vec![
        points.join(" "),
        q(c, "SELECT id, k FROM t IGNORE INDEX (k_1) ORDER BY id"),
        q(
            c,
            "SELECT id, k FROM t FORCE INDEX (k_1) WHERE k BETWEEN 0 AND 1000 ORDER BY id",
        ),
        q(
            c,
            "SELECT id, k + LENGTH(c) * 0 FROM t FORCE INDEX (k_1) WHERE k BETWEEN 0 AND 1000 ORDER BY id",
        ),
    ]
}

fn all_paths(c: &mut Conn, want: &str) {
    for (i, got) in reads(c).into_iter().enumerate() {
        assert_eq!(got, want, "access path {i}");
    }
}

fn setup(server: &Server) {
    server.sql(
        "CREATE DATABASE iso; \
         CREATE TABLE iso.t (id INT PRIMARY KEY, k INT NOT NULL, c VARCHAR(20) NOT NULL, KEY k_1 (k)); \
         INSERT INTO iso.t VALUES (1, 10, 'a'), (2, 20, 'b'), (3, 30, 'c'), (4, 40, 'd')",
    );
}

const BEFORE: &str = "1:10 2:20 3:30 4:40";
const AFTER: &str = "1:15 3:30 4:5 5:50";

/// Moves row 1 and 4 in the index, deletes 2, inserts 5.
fn change(c: &mut Conn) {
    c.query_drop("UPDATE t SET k = 15 WHERE id = 1").unwrap();
    c.query_drop("UPDATE t SET k = 5 WHERE id = 4").unwrap();
    c.query_drop("DELETE FROM t WHERE id = 2").unwrap();
    c.query_drop("INSERT INTO t VALUES (5, 50, 'e')").unwrap();
}

#[test]
fn no_dirty_reads_and_a_transaction_sees_its_own_changes() {
    let server = Server::start();
    setup(&server);
    let mut writer = connect(&server, "iso");
    let mut reader = connect(&server, "iso");
    writer.query_drop("BEGIN").unwrap();
    change(&mut writer);
    all_paths(&mut reader, BEFORE);
    all_paths(&mut writer, AFTER);
    writer.query_drop("COMMIT").unwrap();
    all_paths(&mut reader, AFTER);
    // A rolled-back change is never seen, before or after.
    writer.query_drop("BEGIN").unwrap();
    writer
        .query_drop("UPDATE t SET k = 99 WHERE id = 3")
        .unwrap();
    all_paths(&mut reader, AFTER);
    writer.query_drop("ROLLBACK").unwrap();
    all_paths(&mut reader, AFTER);
    all_paths(&mut writer, AFTER);
}

#[test]
fn repeatable_read_keeps_its_snapshot_and_read_committed_does_not() {
    let server = Server::start();
    setup(&server);
    let mut writer = connect(&server, "iso");
    let mut rr = connect(&server, "iso");
    let mut rc = connect(&server, "iso");
    rc.query_drop("SET SESSION transaction_isolation = 'READ-COMMITTED'")
        .unwrap();
    let iso: String = rc
        .query_first("SELECT @@transaction_isolation")
        .unwrap()
        .unwrap();
    assert_eq!(iso, "READ-COMMITTED");
    rr.query_drop("START TRANSACTION").unwrap();
    rc.query_drop("START TRANSACTION").unwrap();
    all_paths(&mut rr, BEFORE);
    all_paths(&mut rc, BEFORE);
    change(&mut writer); // autocommit: four committed transactions
    all_paths(&mut rr, BEFORE);
    all_paths(&mut rc, AFTER);
    // The snapshot's transaction changes a row: it sees that change on
    // top of its snapshot (row 3), and still not the others' changes.
    rr.query_drop("UPDATE t SET k = 33 WHERE id = 3").unwrap();
    all_paths(&mut rr, "1:10 2:20 3:33 4:40");
    rr.query_drop("COMMIT").unwrap();
    all_paths(&mut rr, "1:15 3:33 4:5 5:50");
    rc.query_drop("COMMIT").unwrap();
    // autocommit = 0 opens a transaction at the first statement; its
    // snapshot lasts until COMMIT.
    rr.query_drop("SET autocommit = 0").unwrap();
    all_paths(&mut rr, "1:15 3:33 4:5 5:50");
    writer
        .query_drop("UPDATE t SET k = 1 WHERE id = 1")
        .unwrap();
    all_paths(&mut rr, "1:15 3:33 4:5 5:50");
    rr.query_drop("COMMIT").unwrap();
    all_paths(&mut rr, "1:1 3:33 4:5 5:50");
}

/// SET TRANSACTION ISOLATION LEVEL without SESSION sets the next
/// transaction's level only: it reads each statement's commits, the one
/// after keeps its snapshot again.
#[test]
fn set_transaction_sets_the_next_transaction_only() {
    let server = Server::start();
    setup(&server);
    let mut writer = connect(&server, "iso");
    let mut reader = connect(&server, "iso");
    reader
        .query_drop("SET TRANSACTION ISOLATION LEVEL READ COMMITTED")
        .unwrap();
    reader.query_drop("START TRANSACTION").unwrap();
    all_paths(&mut reader, BEFORE);
    change(&mut writer);
    all_paths(&mut reader, AFTER);
    reader.query_drop("COMMIT").unwrap();
    reader.query_drop("START TRANSACTION").unwrap();
    all_paths(&mut reader, AFTER);
    writer
        .query_drop("UPDATE t SET k = 1 WHERE id = 1")
        .unwrap();
    all_paths(&mut reader, AFTER);
    reader.query_drop("COMMIT").unwrap();
}

/// Transfers between accounts keep the total; every snapshot, on every
/// access path, sees the same total while they run.
#[test]
fn snapshots_see_a_constant_total_under_concurrent_transfers() {
    let server = Server::start();
    server.sql(
        "CREATE DATABASE bank; \
         CREATE TABLE bank.acct (id INT PRIMARY KEY, bal INT NOT NULL, KEY bal_1 (bal))",
    );
    let mut setup = connect(&server, "bank");
    let values: Vec<String> = (1..=50).map(|i| format!("({i}, 1000)")).collect();
    setup
        .query_drop(format!("INSERT INTO acct VALUES {}", values.join(",")))
        .unwrap();
    let stop = lineardb_sync::SharedFlag::new(false);
    std::thread::scope(|s| {
        for w in 0..2u64 {
            let (server, stop) = (&server, &stop);
            s.spawn(move || {
                let mut c = connect(server, "bank");
                let mut x = w * 7919 + 1;
                let mut n = 0;
                while !stop.get() || n < 20 {
                    x = x
                        .wrapping_mul(6364136223846793005)
                        .wrapping_add(1442695040888963407);
                    let (a, b) = ((x >> 33) % 50 + 1, (x >> 13) % 50 + 1);
                    let amount = (x >> 50) % 100;
                    c.query_drop("BEGIN").unwrap();
                    let r = c
                        .exec_drop("UPDATE acct SET bal = bal - ? WHERE id = ?", (amount, a))
                        .and_then(|_| {
                            c.exec_drop("UPDATE acct SET bal = bal + ? WHERE id = ?", (amount, b))
                        });
                    match r {
                        Ok(()) => c.query_drop("COMMIT").unwrap(),
                        // A deadlock victim is rolled back whole: retry.
                        Err(mysql::Error::MySqlError(e)) if e.code == 1213 => {}
                        Err(e) => panic!("transfer: {e}"),
                    }
                    n += 1;
                }
            });
        }
        let totals = [
            "SELECT SUM(bal) FROM acct",
            "SELECT SUM(bal) FROM acct FORCE INDEX (bal_1) WHERE bal > -1000000",
            "SELECT SUM(bal + id * 0) FROM acct FORCE INDEX (bal_1) WHERE bal > -1000000",
            "SELECT SUM(bal) FROM acct WHERE id BETWEEN 1 AND 50",
        ];
        // Stops the writers however the checks end (a failed assertion
        // too: the scope waits for them).
        struct StopOnDrop<'a>(&'a lineardb_sync::SharedFlag);
        impl Drop for StopOnDrop<'_> {
            fn drop(&mut self) {
                self.0.set(true);
            }
        }
        let _stop_writers = StopOnDrop(&stop);
        let mut c = connect(&server, "bank");
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(3);
        let mut checks = 0;
        while std::time::Instant::now() < deadline {
            for q in totals {
                let total: i64 = c.query_first(q).unwrap().unwrap();
                assert_eq!(total, 50_000, "{q}");
                checks += 1;
            }
            // One snapshot across statements: the rows it reads one by one
            // add up too.
            c.query_drop("START TRANSACTION").unwrap();
            let mut sum = 0i64;
            for id in 1..=50 {
                let b: i64 = c
                    .exec_first("SELECT bal FROM acct WHERE id = ?", (id,))
                    .unwrap()
                    .unwrap();
                sum += b;
            }
            c.query_drop("COMMIT").unwrap();
            assert_eq!(sum, 50_000, "point reads of one snapshot");
        }
        assert!(checks > 20, "{checks} checks");
    });
    assert!(server.sql("CHECK TABLE bank.acct").contains("OK"));
}
