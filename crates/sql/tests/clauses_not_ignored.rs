//! UPDATE and DELETE with ORDER BY and LIMIT change exactly the rows
//! MariaDB changes; the forms not implemented (DELETE IGNORE, UPDATE …
//! RETURNING, DEFAULT in a multi-table UPDATE) fail with 1235 and change
//! nothing.
mod common;
use common::ints;
use lineardb_sql::{CollectSink, Outcome, Session};
use lineardb_table::Value;

fn setup() -> (tempfile::TempDir, Session) {
    let (dir, mut s) = common::session(32);
    s.query("CREATE DATABASE d").unwrap();
    s.query("USE d").unwrap();
    s.query("CREATE TABLE t (id INT PRIMARY KEY, v INT NOT NULL, KEY kv (v))")
        .unwrap();
    // v: 10, 20, ..., 100 on ids 1..10, in reverse id order.
    let values: Vec<String> = (1..=10)
        .map(|i| format!("({i}, {})", (11 - i) * 10))
        .collect();
    s.query(&format!("INSERT INTO t VALUES {}", values.join(", ")))
        .unwrap();
    (dir, s)
}

fn affected(s: &mut Session, sql: &str) -> u64 {
    match s.query(sql).unwrap().0 {
        Outcome::Done { affected, .. } => affected,
        Outcome::Rows => panic!("{sql} returned rows"),
    }
}

fn ids(s: &mut Session) -> Vec<i64> {
    let (_, rows) = s.query("SELECT id FROM t ORDER BY id").unwrap();
    ints(&rows).into_iter().map(|r| r[0].unwrap()).collect()
}

fn pairs(s: &mut Session) -> Vec<(i64, i64)> {
    let (_, rows) = s.query("SELECT id, v FROM t ORDER BY id").unwrap();
    ints(&rows)
        .into_iter()
        .map(|r| (r[0].unwrap(), r[1].unwrap()))
        .collect()
}

#[test]
fn delete_with_order_by_and_limit_deletes_exactly_those_rows() {
    let (_dir, mut s) = setup();
    assert_eq!(affected(&mut s, "DELETE FROM t ORDER BY id LIMIT 1"), 1);
    assert_eq!(ids(&mut s), (2..=10).collect::<Vec<_>>());
    // The two highest v among v > 20: ids 2 and 3 (v 90, 80).
    assert_eq!(
        affected(&mut s, "DELETE FROM t WHERE v > 20 ORDER BY v DESC LIMIT 2"),
        2
    );
    assert_eq!(ids(&mut s), (4..=10).collect::<Vec<_>>());
    // LIMIT without ORDER BY: exactly that many, whichever they are.
    assert_eq!(affected(&mut s, "DELETE FROM t WHERE id > 4 LIMIT 3"), 3);
    assert_eq!(ids(&mut s).len(), 4);
    assert_eq!(affected(&mut s, "DELETE FROM t LIMIT 0"), 0);
    assert_eq!(ids(&mut s).len(), 4);
    // A LIMIT past the matching rows deletes those.
    assert_eq!(affected(&mut s, "DELETE FROM t WHERE id < 100 LIMIT 50"), 4);
    assert!(ids(&mut s).is_empty());
}

#[test]
fn update_with_order_by_and_limit_changes_exactly_those_rows() {
    let (_dir, mut s) = setup();
    assert_eq!(
        affected(&mut s, "UPDATE t SET v = v + 1000 ORDER BY id DESC LIMIT 3"),
        3
    );
    let changed: Vec<i64> = pairs(&mut s)
        .into_iter()
        .filter(|&(_, v)| v > 1000)
        .map(|(id, _)| id)
        .collect();
    assert_eq!(changed, vec![8, 9, 10]);
    assert_eq!(
        affected(&mut s, "UPDATE t SET v = 0 WHERE id > 0 LIMIT 0"),
        0
    );
    assert!(pairs(&mut s).iter().all(|&(_, v)| v != 0));
    // Shifting a key upwards works in descending order (ascending would
    // collide with the next row, as in MariaDB).
    assert_eq!(
        affected(&mut s, "UPDATE t SET id = id + 1 ORDER BY id DESC"),
        10
    );
    assert_eq!(ids(&mut s), (2..=11).collect::<Vec<_>>());
    let e = s.query("UPDATE t SET id = id + 1 ORDER BY id").unwrap_err();
    assert_eq!(e.code, 1062);
    assert_eq!(
        ids(&mut s),
        (2..=11).collect::<Vec<_>>(),
        "the failed statement changed nothing"
    );
    // Prepared, with the limit as a parameter.
    let mut p = s
        .prepare("UPDATE t SET v = -1 WHERE id > ? ORDER BY id LIMIT ?")
        .unwrap();
    let mut sink = CollectSink::default();
    let o = s
        .execute_prepared(&mut p, &[Value::Int(5), Value::Int(2)], &mut sink)
        .unwrap();
    assert!(matches!(o, Outcome::Done { affected: 2, .. }));
    let minus: Vec<i64> = pairs(&mut s)
        .into_iter()
        .filter(|&(_, v)| v == -1)
        .map(|(id, _)| id)
        .collect();
    assert_eq!(minus, vec![6, 7]);
}

#[test]
fn a_table_without_a_primary_key_takes_limit_not_order_by() {
    let (_dir, mut s) = setup();
    s.query("CREATE TABLE np (a INT, b INT)").unwrap();
    s.query("INSERT INTO np VALUES (1, 1), (2, 2), (3, 3), (4, 4)")
        .unwrap();
    assert_eq!(affected(&mut s, "DELETE FROM np WHERE a > 1 LIMIT 2"), 2);
    let (_, rows) = s.query("SELECT COUNT(*) FROM np").unwrap();
    assert_eq!(ints(&rows), vec![vec![Some(2)]]);
    let e = s.query("DELETE FROM np ORDER BY a LIMIT 1").unwrap_err();
    assert_eq!(e.code, 1235);
    let (_, rows) = s.query("SELECT COUNT(*) FROM np").unwrap();
    assert_eq!(ints(&rows), vec![vec![Some(2)]]);
}

#[test]
fn forms_not_implemented_fail_with_1235_and_change_nothing() {
    let (_dir, mut s) = setup();
    s.query("CREATE TABLE u (id INT PRIMARY KEY, w INT)")
        .unwrap();
    s.query("INSERT INTO u VALUES (1, 5), (2, 6)").unwrap();
    let before = pairs(&mut s);
    for sql in [
        "DELETE IGNORE FROM t WHERE id = 1",
        "UPDATE t JOIN u ON t.id = u.id SET t.v = DEFAULT",
        "UPDATE t SET id = id WHERE id = 1 RETURNING id",
    ] {
        match s.query(sql) {
            Err(e) => assert_eq!(e.code, 1235, "{sql}: {}", e.message),
            Ok(_) => panic!("{sql} ran"),
        }
        assert_eq!(pairs(&mut s), before, "{sql} changed rows");
    }
    // UPDATE's modifiers are read off the text: LOW_PRIORITY (it only
    // orders table-lock waits) changes exactly the rows the join names.
    assert_eq!(
        affected(
            &mut s,
            "UPDATE LOW_PRIORITY t, u SET t.v = u.w WHERE t.id = u.id"
        ),
        2
    );
    let mut after = before.clone();
    after[0].1 = 5;
    after[1].1 = 6;
    assert_eq!(pairs(&mut s), after);
}
