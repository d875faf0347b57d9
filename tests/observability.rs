//! Instrumentation through SQL against a real `lineardb serve`: contention
//! made on purpose (writers changing rows of one leaf while readers scan
//! it) shows up as that page, named by its tree, at the top of
//! `performance_schema.lineardb_hot_pages`, and as the leaf latch at the top
//! of `events_waits_summary_global_by_event_name`; the runtime switch stops
//! the recording.
mod common;
use common::Server;
use lineardb_sync::SharedFlag;
use mysql::prelude::*;
use mysql::{Conn, Opts};
use std::collections::HashMap;
use std::time::{Duration, Instant};

fn connect(server: &Server, db: &str) -> Conn {
    Conn::new(Opts::from_url(&server.url(db)).unwrap()).unwrap()
}

/// A new server, and a connection using its new database `db` that holds
/// the table `create` makes.
fn server_with_table(db: &str, create: &str) -> (Server, Conn) {
    server_with_table_and(db, create, &[])
}

/// [`server_with_table`] with more `serve` options.
fn server_with_table_and(db: &str, create: &str, serve: &[&str]) -> (Server, Conn) {
    let server = Server::start_with(serve);
    let mut c = connect(&server, "");
    c.query_drop(format!("CREATE DATABASE {db}")).unwrap();
    c.query_drop(format!("USE {db}")).unwrap();
    c.query_drop(create).unwrap();
    (server, c)
}

/// (restarts + waits) of the leaf latch class.
fn leaf_events(c: &mut Conn) -> u64 {
    let (waits, restarts): (u64, u64) = c
        .query_first(
            "SELECT COUNT_STAR, COUNT_RESTARTS FROM \
             performance_schema.events_waits_summary_global_by_event_name \
             WHERE EVENT_NAME = 'wait/synch/latch/btree/leaf_page'",
        )
        .unwrap()
        .unwrap();
    waits + restarts
}

#[test]
fn a_contended_leaf_tops_the_hot_pages_and_the_waits() {
    // A table that fits one leaf, and a big one read alongside for contrast.
    // Commits are not synced one by one (the log is written and synced once
    // a second): every synced commit would be a log wait, and the contention
    // made here is on the leaf.
    let (server, mut admin) = server_with_table_and(
        "obs",
        "CREATE TABLE hot (id INT PRIMARY KEY, v INT NOT NULL)",
        &["--flush-log-at-trx-commit", "0"],
    );
    let values: Vec<String> = (1..=40).map(|i| format!("({i}, 0)")).collect();
    admin
        .query_drop(format!("INSERT INTO hot VALUES {}", values.join(",")))
        .unwrap();
    admin
        .query_drop("CREATE TABLE cold (id INT PRIMARY KEY, v INT NOT NULL)")
        .unwrap();
    for chunk in (1..=20_000).collect::<Vec<i32>>().chunks(1000) {
        let values: Vec<String> = chunk.iter().map(|i| format!("({i}, {i})")).collect();
        admin
            .query_drop(format!("INSERT INTO cold VALUES {}", values.join(",")))
            .unwrap();
    }

    let stop = SharedFlag::new(false);
    std::thread::scope(|s| {
        for w in 0..2 {
            let (server, stop) = (&server, &stop);
            s.spawn(move || {
                let mut c = connect(server, "obs");
                let mut i = 0;
                while !stop.get() {
                    let id = (i * 7 + w) % 40 + 1;
                    c.exec_drop("UPDATE hot SET v = v + 1 WHERE id = ?", (id,))
                        .unwrap();
                    i += 1;
                }
            });
        }
        for _ in 0..2 {
            let (server, stop) = (&server, &stop);
            s.spawn(move || {
                let mut c = connect(server, "obs");
                while !stop.get() {
                    let _: Option<i64> = c.query_first("SELECT SUM(v) FROM hot").unwrap();
                    let _: Option<i64> = c
                        .query_first("SELECT SUM(v) FROM cold WHERE id BETWEEN 100 AND 200")
                        .unwrap();
                }
            });
        }
        // Run until the leaf has been contended often enough to sample. The
        // workers stop however this ends (a failed check here included).
        struct StopOnDrop<'a>(&'a SharedFlag);
        impl Drop for StopOnDrop<'_> {
            fn drop(&mut self) {
                self.0.set(true);
            }
        }
        let _stop_workers = StopOnDrop(&stop);
        let mut c = connect(&server, "obs");
        let deadline = Instant::now() + Duration::from_secs(60);
        while leaf_events(&mut c) < 200 && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(200));
        }
        stop.set(true);
    });

    let mut c = connect(&server, "obs");
    let top: Vec<(u64, String, i64, String, u64, u64)> = c
        .query(
            "SELECT PAGE_ID, TREE_NAME, LEVEL, EVENT_NAME, RESTARTS, WAITS \
             FROM performance_schema.lineardb_hot_pages \
             ORDER BY RESTARTS + WAITS DESC LIMIT 3",
        )
        .unwrap();
    assert!(!top.is_empty(), "no hot page recorded");
    let (_, tree, level, event, restarts, waits) = &top[0];
    assert_eq!(tree, "obs.hot.PRIMARY", "{top:?}");
    assert_eq!(*level, 0, "{top:?}");
    assert_eq!(event, "wait/synch/latch/btree/leaf_page", "{top:?}");
    assert!(restarts + waits > 0);

    let events: Vec<(String, u64, u64)> = c
        .query(
            "SELECT EVENT_NAME, COUNT_STAR, COUNT_RESTARTS FROM \
             performance_schema.events_waits_summary_global_by_event_name \
             ORDER BY COUNT_STAR + COUNT_RESTARTS DESC",
        )
        .unwrap();
    let classes = lineardb_table::waits::ENGINE_CLASSES
        .iter()
        .map(|c| c.len())
        .sum::<usize>()
        + lineardb_sql::waits::CLASSES.len();
    assert_eq!(events.len(), classes, "{events:?}");
    assert_eq!(
        events[0].0, "wait/synch/latch/btree/leaf_page",
        "{events:?}"
    );

    // Switched off, the same contention records nothing.
    c.query_drop("SET GLOBAL lineardb_instrumentation = OFF")
        .unwrap();
    // A switch reads 0 or 1, as MariaDB's do.
    let off: String = c
        .query_first("SELECT @@lineardb_instrumentation")
        .unwrap()
        .unwrap();
    assert_eq!(off, "0");
    let before = leaf_events(&mut c);
    std::thread::scope(|s| {
        for w in 0..2 {
            let server = &server;
            s.spawn(move || {
                let mut c = connect(server, "obs");
                for i in 0..300 {
                    c.exec_drop("UPDATE hot SET v = v + 1 WHERE id = ?", ((i + w) % 40 + 1,))
                        .unwrap();
                    let _: Option<i64> = c.query_first("SELECT SUM(v) FROM hot").unwrap();
                }
            });
        }
    });
    assert_eq!(leaf_events(&mut c), before);
    c.query_drop("SET GLOBAL lineardb_instrumentation = ON")
        .unwrap();

    // Unknown tables of the schema are errors with MySQL's code.
    let err = c
        .query_drop("SELECT * FROM performance_schema.no_such_table")
        .unwrap_err();
    assert!(err.to_string().contains("1146"), "{err}");
}

/// Statements are counted by digest: N point selects with different ids
/// are one digest with COUNT_STAR = N, as text and as a prepared statement;
/// errors count in SUM_ERRORS; the latencies are ordered.
#[test]
fn statements_are_counted_by_digest() {
    let (server, mut c) =
        server_with_table("dg", "CREATE TABLE t (id INT PRIMARY KEY, v VARCHAR(10))");
    c.query_drop("INSERT INTO t VALUES (1, 'a'), (2, 'b'), (3, 'c')")
        .unwrap();
    for i in 0..37 {
        let _: Option<String> = c
            .query_first(format!("SELECT v FROM t WHERE id = {}", i % 3 + 1))
            .unwrap();
    }
    let stmt = c.prep("SELECT v FROM t WHERE id = ?").unwrap();
    for i in 0..23 {
        let _: Option<String> = c.exec_first(&stmt, (i % 3 + 1,)).unwrap();
    }
    for _ in 0..4 {
        assert!(c.query_drop("SELECT v FROM t WHERE nope = 'x'").is_err());
    }
    let row = |c: &mut Conn, text: &str| -> (String, u64, u64, u64, u64, u64, u64, u64) {
        c.exec_first(
            "SELECT SCHEMA_NAME, COUNT_STAR, SUM_ERRORS, MIN_TIMER_WAIT, AVG_TIMER_WAIT, \
             MAX_TIMER_WAIT, QUANTILE_95, QUANTILE_99 \
             FROM performance_schema.events_statements_summary_by_digest \
             WHERE DIGEST_TEXT = ?",
            (text,),
        )
        .unwrap()
        .unwrap_or_else(|| panic!("no digest {text:?}"))
    };
    let (schema, count, errors, min, avg, max, p95, p99) =
        row(&mut c, "SELECT v FROM t WHERE id = ?");
    assert_eq!(schema, "dg");
    // 37 text statements and 23 executions have the same digest text.
    assert_eq!(count, 60);
    assert_eq!(errors, 0);
    assert!(0 < min && min <= avg && avg <= max, "{min} {avg} {max}");
    assert!(p95 <= p99 && p99 <= max, "{p95} {p99} {max}");
    let (_, count, errors, ..) = row(&mut c, "SELECT v FROM t WHERE nope = ?");
    assert_eq!((count, errors), (4, 4));
    // A session that ended keeps its statements in the table.
    drop(c);
    let mut c = connect(&server, "dg");
    let (_, count, ..) = row(&mut c, "SELECT v FROM t WHERE id = ?");
    assert_eq!(count, 60);

    // `lineardb top --once` shows the same, with the waits and hot pages.
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_lineardb"))
        .args(["top", "--once", "--port", &server.port.to_string()])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let screen = String::from_utf8_lossy(&out.stdout);
    assert!(screen.contains("WAIT EVENT"), "{screen}");
    assert!(screen.contains("TREE"), "{screen}");
    let line = screen
        .lines()
        .find(|l| l.ends_with("SELECT v FROM t WHERE id = ?"))
        .unwrap_or_else(|| panic!("no digest line in:\n{screen}"));
    assert_eq!(line.split_whitespace().next(), Some("60"), "{line}");

    // SHOW STATUS filtered by WHERE on the name.
    let names: Vec<(String, String)> = c
        .query("SHOW GLOBAL STATUS WHERE Variable_name IN ('Questions', 'Uptime') OR Variable_name LIKE 'innodb_rows_ins%'")
        .unwrap();
    let names: Vec<&str> = names.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(names, ["Innodb_rows_inserted", "Questions", "Uptime"]);
}

/// `SHOW GLOBAL STATUS` counts rows read, inserted, updated and deleted, and
/// shows the buffer pool's size.
#[test]
fn status_counts_rows_by_operation() {
    let (_server, mut c) =
        server_with_table("st", "CREATE TABLE t (id INT PRIMARY KEY, v INT NOT NULL)");
    let status = |c: &mut Conn| -> std::collections::HashMap<String, u64> {
        let rows: Vec<(String, String)> = c.query("SHOW GLOBAL STATUS").unwrap();
        rows.into_iter()
            .filter_map(|(k, v)| Some((k, v.parse().ok()?)))
            .collect()
    };
    let before = status(&mut c);
    let values: Vec<String> = (1..=500).map(|i| format!("({i}, {i})")).collect();
    c.query_drop(format!("INSERT INTO t VALUES {}", values.join(",")))
        .unwrap();
    c.query_drop("UPDATE t SET v = v + 1 WHERE id <= 30")
        .unwrap();
    c.query_drop("DELETE FROM t WHERE id > 490").unwrap();
    let n: u64 = c.query_first("SELECT COUNT(*) FROM t").unwrap().unwrap();
    assert_eq!(n, 490);
    let after = status(&mut c);
    let delta = |k: &str| after[k] - before[k];
    assert_eq!(delta("Innodb_rows_inserted"), 500);
    assert_eq!(delta("Innodb_rows_updated"), 30);
    assert_eq!(delta("Innodb_rows_deleted"), 10);
    // The full count reads every row; UPDATE and DELETE read theirs too.
    assert!(
        delta("Innodb_rows_read") >= 490 + 30 + 10,
        "{}",
        delta("Innodb_rows_read")
    );
    assert!(after["Innodb_buffer_pool_pages_total"] > 0);
    assert!(after["Innodb_buffer_pool_pages_data"] > 0);
    assert_eq!(after["Innodb_page_size"], 16384);

    // SHOW ENGINE LINEARDB STATUS: the same figures as one text.
    let (kind, _, text): (String, String, String) = c
        .query_first("SHOW ENGINE LINEARDB STATUS")
        .unwrap()
        .unwrap();
    assert_eq!(kind, "lineardb");
    for part in [
        "BUFFER POOL",
        "LOG",
        "inserted 500, updated 30, deleted 10",
        "HOT PAGES",
    ] {
        assert!(text.contains(part), "{part} missing from:\n{text}");
    }
    let err = c.query_drop("SHOW ENGINE MYISAM STATUS").unwrap_err();
    assert!(err.to_string().contains("1286"), "{err}");
}

/// Row operations of one table from `table_io_waits_summary_by_index_usage`:
/// index name ("" for the table's own row) -> (fetch, insert, update,
/// delete, star).
fn index_usage(c: &mut Conn, db: &str, table: &str) -> HashMap<String, [u64; 5]> {
    let rows: Vec<(Option<String>, u64, u64, u64, u64, u64)> = c
        .exec(
            "SELECT INDEX_NAME, COUNT_FETCH, COUNT_INSERT, COUNT_UPDATE, COUNT_DELETE, \
             COUNT_STAR FROM performance_schema.table_io_waits_summary_by_index_usage \
             WHERE OBJECT_SCHEMA = ? AND OBJECT_NAME = ?",
            (db, table),
        )
        .unwrap();
    rows.into_iter()
        .map(|(i, f, ins, u, d, s)| (i.unwrap_or_default(), [f, ins, u, d, s]))
        .collect()
}

/// Entries read are counted on the index that read them, inserts on the
/// table, updates and deletes on its primary index; an index nothing used
/// shows zeros.
#[test]
fn index_usage_counts_rows_per_index() {
    let (_server, mut c) = server_with_table(
        "iu",
        "CREATE TABLE t (id INT PRIMARY KEY, k INT NOT NULL, v INT NOT NULL, \
         KEY k (k), KEY unused (v))",
    );
    let values: Vec<String> = (1..=500).map(|i| format!("({i}, {i}, {i})")).collect();
    c.query_drop(format!("INSERT INTO t VALUES {}", values.join(",")))
        .unwrap();
    let start = index_usage(&mut c, "iu", "t");
    let mut names: Vec<&str> = start.keys().map(String::as_str).collect();
    names.sort();
    assert_eq!(names, ["", "PRIMARY", "k", "unused"]);
    assert_eq!(start[""][1], 500, "inserts count on the table's own row");

    for id in 1..=40 {
        let v: Option<i64> = c
            .exec_first("SELECT v FROM t WHERE id = ?", (id * 7,))
            .unwrap();
        assert_eq!(v, Some(id * 7));
    }
    let after_points = index_usage(&mut c, "iu", "t");
    assert_eq!(after_points["PRIMARY"][0] - start["PRIMARY"][0], 40);
    for from in [10, 100, 200, 300, 400] {
        let ids: Vec<i64> = c
            .exec("SELECT id FROM t WHERE k BETWEEN ? AND ?", (from, from + 9))
            .unwrap();
        assert_eq!(ids.len(), 10);
    }
    let after_ranges = index_usage(&mut c, "iu", "t");
    assert_eq!(after_ranges["k"][0] - after_points["k"][0], 50);
    assert_eq!(after_ranges["PRIMARY"], after_points["PRIMARY"]);

    c.query_drop("UPDATE t SET v = v + 1000 WHERE id <= 30")
        .unwrap();
    c.query_drop("DELETE FROM t WHERE id > 490").unwrap();
    let end = index_usage(&mut c, "iu", "t");
    assert_eq!(end["PRIMARY"][2] - start["PRIMARY"][2], 30);
    assert_eq!(end["PRIMARY"][3] - start["PRIMARY"][3], 10);
    assert_eq!(end["unused"], [0; 5], "no statement used the index on v");
    assert_eq!(end[""][1], 500);

    // Switched off, the per-index table stands still; the status counters
    // (always on, as MySQL's) go on counting.
    let rows_read = |c: &mut Conn| -> u64 {
        let row: Option<(String, u64)> = c
            .query_first("SHOW GLOBAL STATUS LIKE 'Innodb_rows_read'")
            .unwrap();
        row.unwrap().1
    };
    c.query_drop("SET GLOBAL lineardb_instrumentation = OFF")
        .unwrap();
    let read_before = rows_read(&mut c);
    for id in 1..=20 {
        let v: Option<i64> = c.exec_first("SELECT v FROM t WHERE id = ?", (id,)).unwrap();
        assert!(v.is_some());
    }
    assert_eq!(index_usage(&mut c, "iu", "t"), end);
    assert!(rows_read(&mut c) - read_before >= 20);
    c.query_drop("SET GLOBAL lineardb_instrumentation = ON")
        .unwrap();
}

/// (COUNT_STAR, SUM_TIMER_WAIT) of one wait event.
fn wait_event(c: &mut Conn, name: &str) -> (u64, u64) {
    c.exec_first(
        "SELECT COUNT_STAR, SUM_TIMER_WAIT FROM \
         performance_schema.events_waits_summary_global_by_event_name WHERE EVENT_NAME = ?",
        (name,),
    )
    .unwrap()
    .unwrap_or_else(|| panic!("no event {name}"))
}

/// A transaction blocked on another's row lock shows as `wait/lock/row`
/// with the time it waited; commits show the log's write and sync.
#[test]
fn row_lock_and_log_waits_are_recorded() {
    let (server, mut a) =
        server_with_table("rl", "CREATE TABLE t (id INT PRIMARY KEY, v INT NOT NULL)");
    a.query_drop("INSERT INTO t VALUES (1, 0)").unwrap();
    let mut names: Vec<String> = a
        .query(
            "SELECT EVENT_NAME FROM performance_schema.events_waits_summary_global_by_event_name",
        )
        .unwrap();
    names.sort();
    for class in [
        "wait/io/file/log/sync",
        "wait/io/file/log/write",
        "wait/lock/row",
        "wait/synch/cond/log/commit",
        "wait/synch/mutex/catalog",
        "wait/synch/mutex/lock_table",
        "wait/synch/mutex/log/buffer",
        "wait/synch/mutex/sessions",
        "wait/synch/mutex/trx",
    ] {
        assert!(names.iter().any(|n| n == class), "{class} not in {names:?}");
    }

    let row0 = wait_event(&mut a, "wait/lock/row");
    let sync0 = wait_event(&mut a, "wait/io/file/log/sync");
    let write0 = wait_event(&mut a, "wait/io/file/log/write");
    a.query_drop("BEGIN").unwrap();
    a.query_drop("UPDATE t SET v = 1 WHERE id = 1").unwrap();
    let hold = Duration::from_millis(300);
    std::thread::scope(|s| {
        let blocked = s.spawn(|| {
            let mut b = connect(&server, "rl");
            let t = Instant::now();
            b.query_drop("UPDATE t SET v = 2 WHERE id = 1").unwrap();
            t.elapsed()
        });
        std::thread::sleep(hold);
        a.query_drop("COMMIT").unwrap();
        assert!(blocked.join().unwrap() >= hold / 2);
    });
    let row1 = wait_event(&mut a, "wait/lock/row");
    assert!(row1.0 > row0.0, "{row0:?} -> {row1:?}");
    // At least half the hold, in picoseconds.
    assert!(
        row1.1 - row0.1 >= hold.as_nanos() as u64 / 2 * 1000,
        "{row0:?} -> {row1:?}"
    );
    // The server syncs at every commit (flush at commit 1): both commits
    // wrote and synced the log.
    let sync1 = wait_event(&mut a, "wait/io/file/log/sync");
    let write1 = wait_event(&mut a, "wait/io/file/log/write");
    assert!(
        sync1.0 > sync0.0 && sync1.1 > sync0.1,
        "{sync0:?} -> {sync1:?}"
    );
    assert!(write1.0 > write0.0, "{write0:?} -> {write1:?}");
    let v: i64 = a.query_first("SELECT v FROM t").unwrap().unwrap();
    assert_eq!(v, 2);
}

/// `lineardb_shared_writes` lists every source of shared writes, and says
/// whether this build counts them (the `audit` feature).
#[test]
fn shared_writes_table_lists_every_source() {
    let (_server, mut c) =
        server_with_table("sw", "CREATE TABLE t (id INT PRIMARY KEY, v INT NOT NULL)");
    let values: Vec<String> = (1..=100).map(|i| format!("({i}, {i})")).collect();
    c.query_drop(format!("INSERT INTO t VALUES {}", values.join(",")))
        .unwrap();
    let rows: Vec<(String, String, u64)> = c
        .query("SELECT SOURCE, COUNTED, WRITES FROM performance_schema.lineardb_shared_writes")
        .unwrap();
    let sources: Vec<&str> = rows.iter().map(|r| r.0.as_str()).collect();
    assert_eq!(
        sources,
        [
            "latch/shared",
            "latch/exclusive",
            "latch/park",
            "mutex",
            "shared_word"
        ]
    );
    let counted = &rows[0].1;
    assert!(rows.iter().all(|r| &r.1 == counted));
    match counted.as_str() {
        // Inserting took exclusive latches on the tree's pages.
        "YES" => assert!(rows[1].2 > 0, "{rows:?}"),
        "NO" => assert!(rows.iter().all(|r| r.2 == 0), "{rows:?}"),
        other => panic!("COUNTED {other}"),
    }
}

/// SHOW [SESSION] STATUS gives the session's own statement counters, SHOW
/// GLOBAL STATUS the server's, as MariaDB does: a session's counters move
/// by its own statements only, whatever other sessions run.
#[test]
fn session_status_counts_the_sessions_own_statements() {
    let server = Server::start();
    let mariadb = common::mariadb::MariaDb::start();
    let moves = |url: &str| -> Vec<i64> {
        let mut c = Conn::new(Opts::from_url(url).unwrap()).unwrap();
        let mut other = Conn::new(Opts::from_url(url).unwrap()).unwrap();
        let counters = |c: &mut Conn, scope: &str| -> Vec<i64> {
            let rows: Vec<(String, i64)> = c
                .query(format!(
                    "SHOW {scope} STATUS WHERE Variable_name IN ('Com_select', 'Questions')"
                ))
                .unwrap();
            rows.into_iter().map(|(_, v)| v).collect()
        };
        let before = counters(&mut c, "SESSION");
        for _ in 0..5 {
            other.query_drop("SELECT 1").unwrap();
        }
        c.query_drop("SELECT 1").unwrap();
        c.query_drop("SELECT 2").unwrap();
        let after = counters(&mut c, "");
        let global = counters(&mut c, "GLOBAL");
        assert!(
            global[1] > after[1],
            "{url}: global {global:?}, session {after:?}"
        );
        before.iter().zip(&after).map(|(b, a)| a - b).collect()
    };
    let ours = moves(&server.url(""));
    let theirs = moves(&format!("mysql://root@127.0.0.1:{}/", mariadb.port));
    assert_eq!(ours, theirs);
    // Two SELECTs; two SELECTs and a SHOW.
    assert_eq!(ours, [2, 3]);
}

/// `performance_schema.user_variables_by_thread` lists each session's user
/// variables as they are now: set by SET, by `:=` and by a prepared
/// statement's `:=`, with other sessions' alongside; a session that ended
/// has none.
#[test]
fn user_variables_by_thread_shows_each_sessions_variables() {
    let server = Server::start();
    let mut a = connect(&server, "");
    let mut b = connect(&server, "");
    let a_id: u64 = a.query_first("SELECT CONNECTION_ID()").unwrap().unwrap();
    let b_id: u64 = b.query_first("SELECT CONNECTION_ID()").unwrap().unwrap();
    a.query_drop("SET @n = 1, @s = 'x', @z = NULL, @d = 1.5")
        .unwrap();
    let _: Option<u64> = a.query_first("SELECT @m := 7").unwrap();
    let stmt = b.prep("SELECT @p := ?").unwrap();
    let _: Option<u64> = b.exec_first(&stmt, (42,)).unwrap();
    let rows = |c: &mut Conn| -> Vec<(u64, String, Option<String>)> {
        c.query(
            "SELECT THREAD_ID, VARIABLE_NAME, VARIABLE_VALUE \
             FROM performance_schema.user_variables_by_thread \
             ORDER BY THREAD_ID, VARIABLE_NAME",
        )
        .unwrap()
    };
    let s = |v: &str| Some(v.to_string());
    let expected = vec![
        (a_id, "d".to_string(), s("1.5")),
        (a_id, "m".to_string(), s("7")),
        (a_id, "n".to_string(), s("1")),
        (a_id, "s".to_string(), s("x")),
        (a_id, "z".to_string(), None),
        (b_id, "p".to_string(), s("42")),
    ];
    assert_eq!(rows(&mut a), expected);
    a.query_drop("SET @n = 'changed'").unwrap();
    assert!(rows(&mut b).contains(&(a_id, "n".to_string(), s("changed"))));
    drop(a);
    // The ended session's are gone (its connection closes asynchronously).
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let now = rows(&mut b);
        if now == vec![(b_id, "p".to_string(), s("42"))] {
            break;
        }
        assert!(Instant::now() < deadline, "{now:?}");
        std::thread::sleep(Duration::from_millis(50));
    }
}
