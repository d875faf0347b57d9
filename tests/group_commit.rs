//! Group commit through the server: a worker does not wait for the log
//! while other clients have requests, so commits are parked and replied to
//! once the log is durable. Checked against a log file that syncs slowly
//! and then fails: every acknowledged commit was synced, and once syncs
//! fail no commit is acknowledged. A full disk under the log: commits fail
//! with 1021, the server stays up for reads, and a restart has every
//! acknowledged commit and none of the failed ones.
use lineardb_table::{Engine, EngineConfig};
use lineardb_wal::{FaultPlan, FaultyFile};
use mysql::prelude::Queryable;
use std::path::Path;
use std::sync::Arc;

const CLIENTS: usize = 8;
const COMMITS_PER_CLIENT: usize = 40;

fn open_faulty(path: &Path, plan: &Arc<FaultPlan>) -> Engine {
    let log = FaultyFile::open(&path.with_extension("redo"), plan).unwrap();
    let pool = EngineConfig {
        page_size: 16384,
        pool_bytes: 64 << 20,
        max_pages: 1 << 20,
    };
    Engine::open_with_log(path, pool, Box::new(log)).unwrap()
}

fn connect(port: u16) -> mysql::Conn {
    let opts = mysql::OptsBuilder::new()
        .ip_or_hostname(Some("127.0.0.1"))
        .tcp_port(port)
        .user(Some("root"))
        .db_name(Some("gc"));
    mysql::Conn::new(opts).unwrap()
}

type Client = std::thread::JoinHandle<Vec<mysql::Result<()>>>;

/// Each client connects, then (all connected) commits `per_client` times:
/// prepared autocommit inserts and BEGIN ... COMMIT in turn. Returns the
/// clients once all have connected.
fn commit_from_clients(port: u16, base: i64, per_client: usize) -> Vec<Client> {
    let ready = Arc::new(std::sync::Barrier::new(CLIENTS + 1));
    let threads = (0..CLIENTS)
        .map(|c| {
            let ready = ready.clone();
            std::thread::spawn(move || {
                let mut conn = connect(port);
                ready.wait();
                (0..per_client)
                    .map(|i| {
                        let id = base + (c * per_client + i) as i64;
                        if i % 2 == 0 {
                            conn.exec_drop("INSERT INTO t VALUES (?, ?)", (id, c as i64))
                        } else {
                            conn.query_drop("BEGIN")?;
                            conn.query_drop(format!("INSERT INTO t VALUES ({id}, {c})"))?;
                            conn.query_drop("COMMIT")
                        }
                    })
                    .collect::<Vec<_>>()
            })
        })
        .collect();
    ready.wait();
    threads
}

fn outcomes(threads: Vec<Client>) -> Vec<mysql::Result<()>> {
    threads
        .into_iter()
        .flat_map(|t| t.join().unwrap())
        .collect()
}

#[test]
fn commits_are_acknowledged_only_once_durable() {
    let dir = tempfile::tempdir().unwrap();
    let plan = Arc::new(FaultPlan::default());
    let engine = Arc::new(open_faulty(&dir.path().join("gc.ldb"), &plan));
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    {
        let engine = engine.clone();
        // Two workers: fewer than the clients, as on a real server.
        std::thread::spawn(move || lineardb_server::serve(listener, engine, 2, None));
    }
    let opts = mysql::OptsBuilder::new()
        .ip_or_hostname(Some("127.0.0.1"))
        .tcp_port(port)
        .user(Some("root"));
    let mut admin = mysql::Conn::new(opts).unwrap();
    admin.query_drop("CREATE DATABASE gc").unwrap();
    admin
        .query_drop("CREATE TABLE gc.t (id BIGINT PRIMARY KEY, c BIGINT)")
        .unwrap();

    // A slow disk: while one sync runs, the other clients' commits pile up
    // and are made durable together.
    plan.sync_delay_us.store(3_000);
    let syncs_before = plan.syncs.get();
    let clients = commit_from_clients(port, 0, COMMITS_PER_CLIENT);
    let results = outcomes(clients);
    let commits = results.len();
    for r in &results {
        assert!(r.is_ok(), "a commit failed on a good disk: {r:?}");
    }
    let syncs = (plan.syncs.get() - syncs_before) as usize;
    assert!(
        syncs * 2 <= commits,
        "{commits} commits took {syncs} syncs: commits were not grouped"
    );
    let count: i64 = admin
        .query_first("SELECT COUNT(*) FROM gc.t")
        .unwrap()
        .unwrap();
    assert_eq!(count as usize, commits);

    // Every client commits once more while a (slow) sync is under way,
    // and that sync fails: the commits parked meanwhile are known durable
    // only through a sync that never succeeds, so none may be
    // acknowledged.
    plan.sync_delay_us.store(300_000);
    let clients = commit_from_clients(port, 1_000_000, 1);
    std::thread::sleep(std::time::Duration::from_millis(100));
    plan.fail_sync.set(true);
    let results = outcomes(clients);
    assert_eq!(results.len(), CLIENTS);
    for r in &results {
        match r {
            Err(mysql::Error::MySqlError(e)) => assert_eq!(e.code, 1030, "{e}"),
            other => panic!("a commit whose sync failed was answered {other:?}"),
        }
    }
    // Reads go on; nothing acknowledged before is missing.
    let count: i64 = admin
        .query_first("SELECT COUNT(*) FROM gc.t WHERE id < 1000000")
        .unwrap()
        .unwrap();
    assert_eq!(count as usize, commits);
}

#[test]
fn a_full_disk_fails_commits_with_1021_and_loses_nothing_acknowledged() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("full.ldb");
    let plan = Arc::new(FaultPlan::default());
    {
        let engine = Arc::new(open_faulty(&path, &plan));
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let port = listener.local_addr().unwrap().port();
        {
            let engine = engine.clone();
            std::thread::spawn(move || lineardb_server::serve(listener, engine, 2, None));
        }
        let opts = mysql::OptsBuilder::new()
            .ip_or_hostname(Some("127.0.0.1"))
            .tcp_port(port)
            .user(Some("root"));
        let mut c = mysql::Conn::new(opts).unwrap();
        c.query_drop("CREATE DATABASE gc").unwrap();
        c.query_drop("CREATE TABLE gc.t (id BIGINT PRIMARY KEY, c BIGINT)")
            .unwrap();
        c.query_drop("INSERT INTO gc.t VALUES (1, 1), (2, 2)")
            .unwrap();
        plan.disk_full.set(true);
        for sql in [
            "INSERT INTO gc.t VALUES (3, 3)",
            "UPDATE gc.t SET c = 9 WHERE id = 1",
        ] {
            match c.query_drop(sql) {
                Err(mysql::Error::MySqlError(e)) => {
                    assert_eq!((e.code, e.state.as_str()), (1021, "HY000"), "{sql}: {e}")
                }
                other => panic!("{sql} on a full disk: {other:?}"),
            }
        }
        // The server stays up and reads go on (a commit becomes visible
        // before it is durable, as in InnoDB, so the failed ones may be
        // seen until the restart); writes keep failing.
        let rows: Vec<(i64, i64)> = c.query("SELECT id, c FROM gc.t ORDER BY id").unwrap();
        assert!(rows.contains(&(2, 2)), "{rows:?}");
        let mut other = mysql::Conn::new(
            mysql::OptsBuilder::new()
                .ip_or_hostname(Some("127.0.0.1"))
                .tcp_port(port)
                .user(Some("root")),
        )
        .unwrap();
        assert!(other
            .query_first::<i64, _>("SELECT COUNT(*) FROM gc.t")
            .unwrap()
            .is_some());
        plan.disk_full.set(false);
        match other.query_drop("INSERT INTO gc.t VALUES (4, 4)") {
            Err(mysql::Error::MySqlError(e)) => assert_eq!(e.code, 1021, "{e}"),
            r => panic!("a write after the log failed: {r:?}"),
        }
        // The process goes on; the engine is dropped without a clean close
        // (the log is poisoned), as a crash would leave it.
        std::mem::forget(engine);
    }
    // Space again: a start from the files as they are (copied: the failed
    // engine still holds its own) recovers everything acknowledged and
    // nothing that failed.
    let copy = tempfile::tempdir().unwrap();
    let restarted = copy.path().join("full.ldb");
    std::fs::copy(&path, &restarted).unwrap();
    std::fs::copy(
        path.with_extension("redo"),
        restarted.with_extension("redo"),
    )
    .unwrap();
    let engine = open_faulty(&restarted, &plan);
    let t = engine.table("gc", "t").unwrap();
    assert_eq!(t.estimate_rows(), 2);
    let mut s = lineardb_sql::Session::new(Arc::new(engine), &lineardb_sql::Registry::new());
    let (_, rows) = s.query("SELECT id, c FROM gc.t ORDER BY id").unwrap();
    assert_eq!(
        rows.rows,
        vec![
            vec![lineardb_table::Value::Int(1), lineardb_table::Value::Int(1)],
            vec![lineardb_table::Value::Int(2), lineardb_table::Value::Int(2)],
        ]
    );
}
