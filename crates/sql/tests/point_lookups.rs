//! `WHERE pk = const` and `WHERE unique_key = const` read exactly the one
//! record they need (counted by the B-tree in this thread's slot: records
//! copied out of leaves), see the snapshot they should, and show as
//! `const` in EXPLAIN; IN lists of whole keys are point lookups too.
mod common;
use common::ints;
use lineardb_sql::{CollectSink, Session};
use lineardb_sync::thread_slot::counter_own;
use lineardb_sync::Counter;
use std::sync::Arc;

/// Runs `sql` and returns its rows and the records this thread copied out
/// of the trees meanwhile.
fn run(s: &mut Session, sql: &str) -> (Vec<Vec<Option<i64>>>, u64) {
    let before = counter_own(Counter::RecordsCopied);
    let (_, rows) = s.query(sql).unwrap();
    (ints(&rows), counter_own(Counter::RecordsCopied) - before)
}

fn explain_type(s: &mut Session, sql: &str) -> String {
    let (_, rows) = s.query(&format!("EXPLAIN {sql}")).unwrap();
    let col = rows.columns.iter().position(|c| c.name == "type").unwrap();
    rows.rows[0][col].to_text().unwrap_or_default()
}

fn setup() -> (tempfile::TempDir, Session) {
    let (dir, mut s) = common::session(32);
    s.query("CREATE DATABASE d").unwrap();
    s.query("USE d").unwrap();
    s.query(
        "CREATE TABLE t (id INT NOT NULL PRIMARY KEY, u INT, k INT NOT NULL, \
         UNIQUE KEY uu (u), KEY kk (k))",
    )
    .unwrap();
    let values: Vec<String> = (0..2000)
        .map(|i| format!("({i}, {i}, {})", i % 7))
        .collect();
    s.query(&format!("INSERT INTO t VALUES {}", values.join(", ")))
        .unwrap();
    (dir, s)
}

#[test]
fn a_point_select_reads_one_record() {
    let (_dir, mut s) = setup();
    // Warm up the session's table cache and the statement path.
    run(&mut s, "SELECT id FROM t WHERE id = 1");

    let (rows, copied) = run(&mut s, "SELECT id, u, k FROM t WHERE id = 500");
    assert_eq!(rows, vec![vec![Some(500), Some(500), Some(500 % 7)]]);
    assert_eq!(copied, 1, "one record by primary key");

    let (rows, copied) = run(&mut s, "SELECT id, k FROM t WHERE u = 700");
    assert_eq!(rows, vec![vec![Some(700), Some(0)]]);
    assert_eq!(copied, 2, "one unique-index entry, then the row");

    let (rows, copied) = run(&mut s, "SELECT id FROM t WHERE id IN (3, 1999, 5000, 7)");
    assert_eq!(rows, vec![vec![Some(3)], vec![Some(7)], vec![Some(1999)]]);
    assert_eq!(
        copied, 3,
        "one record per key found, none for the absent one"
    );

    let (rows, copied) = run(&mut s, "SELECT id FROM t WHERE id = 5000");
    assert!(rows.is_empty());
    assert_eq!(copied, 0);

    // Prepared, with the key as a parameter.
    let before = counter_own(Counter::RecordsCopied);
    let mut p = s.prepare("SELECT k FROM t WHERE id = ?").unwrap();
    let mut sink = CollectSink::default();
    s.execute_prepared(&mut p, &[lineardb_table::Value::Int(42)], &mut sink)
        .unwrap();
    assert_eq!(ints(&sink), vec![vec![Some(0)]]);
    assert_eq!(counter_own(Counter::RecordsCopied) - before, 1);

    // A range copies a batch: what the point path saves.
    let (rows, copied) = run(&mut s, "SELECT id FROM t WHERE id BETWEEN 500 AND 502");
    assert_eq!(rows.len(), 3);
    assert!(copied >= 3, "a range reads its rows ({copied})");

    assert_eq!(
        explain_type(&mut s, "SELECT * FROM t WHERE id = 5"),
        "const"
    );
    assert_eq!(explain_type(&mut s, "SELECT * FROM t WHERE u = 5"), "const");
    assert_eq!(
        explain_type(&mut s, "SELECT * FROM t WHERE id IN (5, 6)"),
        "range"
    );
    // An equality on a key that is not unique: MariaDB's `ref`.
    assert_eq!(explain_type(&mut s, "SELECT id FROM t WHERE k = 5"), "ref");
}

#[test]
fn point_lookups_see_their_snapshot() {
    let (_dir, mut a) = setup();
    let registry = lineardb_sql::Registry::new();
    let mut b = Session::new(Arc::clone(a.engine()), &registry);
    b.query("USE d").unwrap();

    a.query("BEGIN").unwrap();
    assert_eq!(run(&mut a, "SELECT id FROM t WHERE id = 10").0.len(), 1);
    // Another transaction deletes a row, moves a unique value, and gives
    // a deleted row's unique value to a new row.
    b.query("DELETE FROM t WHERE id = 10").unwrap();
    b.query("UPDATE t SET u = 5000 WHERE id = 20").unwrap();
    b.query("DELETE FROM t WHERE id = 30").unwrap();
    b.query("INSERT INTO t VALUES (3000, 30, 1)").unwrap();

    // The open snapshot sees the rows as they were.
    assert_eq!(
        run(&mut a, "SELECT id FROM t WHERE id = 10").0,
        vec![vec![Some(10)]]
    );
    assert_eq!(
        run(&mut a, "SELECT id FROM t WHERE u = 20").0,
        vec![vec![Some(20)]]
    );
    assert!(run(&mut a, "SELECT id FROM t WHERE u = 5000").0.is_empty());
    assert_eq!(
        run(&mut a, "SELECT id FROM t WHERE u = 30").0,
        vec![vec![Some(30)]]
    );
    assert!(run(&mut a, "SELECT id FROM t WHERE id = 3000").0.is_empty());
    a.query("COMMIT").unwrap();

    // A new snapshot sees the changes, past the delete-marked entries.
    assert!(run(&mut a, "SELECT id FROM t WHERE id = 10").0.is_empty());
    assert!(run(&mut a, "SELECT id FROM t WHERE u = 20").0.is_empty());
    assert_eq!(
        run(&mut a, "SELECT id FROM t WHERE u = 5000").0,
        vec![vec![Some(20)]]
    );
    assert_eq!(
        run(&mut a, "SELECT id FROM t WHERE u = 30").0,
        vec![vec![Some(3000)]]
    );
    // NULL in a unique index is no point: NULLs may repeat.
    b.query("INSERT INTO t VALUES (4000, NULL, 1), (4001, NULL, 2)")
        .unwrap();
    assert!(run(&mut a, "SELECT id FROM t WHERE u = NULL").0.is_empty());
    assert_eq!(
        run(&mut a, "SELECT id FROM t WHERE u IS NULL ORDER BY id").0,
        vec![vec![Some(4000)], vec![Some(4001)]]
    );
}
