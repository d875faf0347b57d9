//! Snapshots and purge at the table layer: a snapshot keeps seeing the rows
//! later transactions delete or change, on every access path; purge
//! removes delete marks only once no snapshot can see them; a row deleted
//! and inserted again in one transaction is one row.
use lineardb_table::{
    ColumnDef, DataType, Engine, EngineConfig, KeyRange, Table, TableSpec, Value,
};
use lineardb_txn::ReadView;
use std::sync::Arc;

fn make_table(engine: &Engine) -> Arc<Table> {
    engine.create_database("db", true).unwrap();
    engine
        .create_table(
            TableSpec::new("db", "t")
                .column(ColumnDef::new("id", DataType::Int { unsigned: false }).not_null())
                .column(ColumnDef::new("k", DataType::Int { unsigned: false }).not_null())
                .primary_key(&["id"])
                .index("k_1", &["k"], false),
        )
        .unwrap()
}

/// (id, k) of every row `view` sees, by each access path, sorted by id.
fn rows(t: &Table, view: &ReadView) -> [Vec<(i64, i64)>; 4] {
    let mut by_pk = Vec::new();
    t.scan_primary(view, &KeyRange::all(), |_, r| {
        by_pk.push((r.int(0), r.int(1)));
        true
    })
    .unwrap();
    let all_k = KeyRange::all();
    let mut covering = Vec::new();
    t.scan_index(view, 0, &all_k, |e| {
        let (Some(Value::Int(id)), Some(Value::Int(k))) = (e.column(0), e.column(1)) else {
            panic!("entry columns");
        };
        covering.push((id, k));
        true
    })
    .unwrap();
    let mut ordered = Vec::new();
    t.scan_index_rows(view, 0, &all_k, |r| {
        ordered.push((r.int(0), r.int(1)));
        true
    })
    .unwrap();
    let mut swept = Vec::new();
    t.scan_index_rows_unordered(view, 0, &all_k, |r| {
        swept.push((r.int(0), r.int(1)));
        true
    })
    .unwrap();
    let mut out = [by_pk, covering, ordered, swept];
    for v in &mut out {
        v.sort();
    }
    out
}

/// Records in a tree, delete marks included.
fn records(t: &Table) -> (u64, u64) {
    (
        t.tree_records(None).unwrap(),
        t.tree_records(Some(0)).unwrap(),
    )
}

#[test]
fn snapshots_outlive_deletes_until_purge() {
    let dir = tempfile::tempdir().unwrap();
    let engine = Engine::open(&dir.path().join("m.ldb"), EngineConfig::default()).unwrap();
    let t = make_table(&engine);
    let mut txn = engine.begin();
    for id in 0..100 {
        t.insert(
            &mut txn,
            vec![Some(Value::Int(id)), Some(Value::Int(id * 10))],
        )
        .unwrap();
    }
    txn.commit().unwrap();
    let before: Vec<(i64, i64)> = (0..100).map(|id| (id, id * 10)).collect();

    let old = engine.snapshot().unwrap();
    let mut txn = engine.begin();
    for id in 0..50 {
        assert!(t
            .delete_by_key(&mut txn, &t.encode_primary_key(&[Value::Int(id)]).unwrap())
            .unwrap());
    }
    for id in 50..75 {
        let pk = t.encode_primary_key(&[Value::Int(id)]).unwrap();
        assert!(t
            .update_by_key(&mut txn, &pk, vec![None, Some(Value::Int(-id))])
            .unwrap());
    }
    // Uncommitted: the old snapshot and a new one see none of it.
    let fresh = engine.snapshot().unwrap();
    for got in rows(&t, &fresh) {
        assert_eq!(got, before);
    }
    drop(fresh);
    txn.commit().unwrap();
    let after: Vec<(i64, i64)> = (50..100)
        .map(|id| (id, if id < 75 { -id } else { id * 10 }))
        .collect();
    for got in rows(&t, &old) {
        assert_eq!(got, before, "the old snapshot");
    }
    let now = engine.snapshot().unwrap();
    for got in rows(&t, &now) {
        assert_eq!(got, after, "a new snapshot");
    }
    assert_eq!(t.count(&old, 2).unwrap(), 100);
    assert_eq!(t.count(&now, 2).unwrap(), 50);
    drop(now);

    // The old snapshot holds the marks: 50 deleted rows, 75 dead entries
    // (50 deleted, 25 moved).
    engine.purge().unwrap();
    assert_eq!(records(&t), (100, 125));
    for got in rows(&t, &old) {
        assert_eq!(got, before, "the old snapshot after a purge");
    }
    drop(old);
    engine.purge().unwrap();
    assert_eq!(records(&t), (50, 50));
    assert_eq!(t.check().unwrap(), 50);
    for got in rows(&t, &ReadView::latest()) {
        assert_eq!(got, after);
    }
}

#[test]
fn delete_then_insert_in_one_transaction_is_one_row() {
    let dir = tempfile::tempdir().unwrap();
    let engine = Engine::open(&dir.path().join("m.ldb"), EngineConfig::default()).unwrap();
    let t = make_table(&engine);
    let mut txn = engine.begin();
    t.insert(&mut txn, vec![Some(Value::Int(1)), Some(Value::Int(5))])
        .unwrap();
    txn.commit().unwrap();
    let old = engine.snapshot().unwrap();
    let mut txn = engine.begin();
    let pk = t.encode_primary_key(&[Value::Int(1)]).unwrap();
    assert!(t.delete_by_key(&mut txn, &pk).unwrap());
    t.insert(&mut txn, vec![Some(Value::Int(1)), Some(Value::Int(6))])
        .unwrap();
    // A duplicate of the live row is still refused.
    let dup = t
        .insert(&mut txn, vec![Some(Value::Int(1)), Some(Value::Int(7))])
        .unwrap_err();
    assert_eq!(dup.mysql_code(), 1062);
    txn.commit().unwrap();
    for got in rows(&t, &old) {
        assert_eq!(got, vec![(1, 5)]);
    }
    drop(old);
    engine.purge().unwrap();
    for got in rows(&t, &ReadView::latest()) {
        assert_eq!(got, vec![(1, 6)]);
    }
    assert_eq!(records(&t), (1, 1));
    assert_eq!(t.check().unwrap(), 1);
    // Closing purges and checkpoints; a reopened table is the same.
    engine.close().unwrap();
    drop(t);
    drop(engine);
    let engine = Engine::open(&dir.path().join("m.ldb"), EngineConfig::default()).unwrap();
    let t = engine.table("db", "t").unwrap();
    let view = engine.snapshot().unwrap();
    for got in rows(&t, &view) {
        assert_eq!(got, vec![(1, 6)]);
    }
}
