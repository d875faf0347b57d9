//! Off-page values at the table layer: rows far larger than a page are
//! stored and read back byte-exact on every access path; a snapshot keeps
//! reading the values later transactions replace or delete; rollback,
//! purge and an update that leaves a value alone keep the blob tree exact;
//! a reopened engine reads them all and stores new ones beside them.
use lineardb_table::{
    ColumnDef, DataType, Engine, EngineConfig, KeyRange, Table, TableSpec, Value,
};
use lineardb_txn::ReadView;
use std::collections::BTreeMap;
use std::sync::Arc;

fn make_table(engine: &Engine) -> Arc<Table> {
    engine.create_database("db", true).unwrap();
    engine
        .create_table(
            TableSpec::new("db", "t")
                .column(ColumnDef::new("id", DataType::Int { unsigned: false }).not_null())
                .column(ColumnDef::new("body", DataType::Blob(u32::MAX)))
                .column(ColumnDef::new("note", DataType::VarChar(20)))
                .column(ColumnDef::new("text", DataType::Text(65_535)))
                .primary_key(&["id"])
                .index("by_note", &["note"], false),
        )
        .unwrap()
}

/// Deterministic bytes of length `len` that differ by `seed`.
fn data(len: usize, seed: u64) -> Vec<u8> {
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

fn row(id: i64, body: Vec<u8>, note: &str, text_len: usize) -> Vec<Option<Value>> {
    vec![
        Some(Value::Int(id)),
        Some(Value::Bytes(body)),
        Some(Value::str(note)),
        Some(Value::Bytes(vec![b'x'; text_len])),
    ]
}

type Rows = BTreeMap<i64, (Vec<u8>, String, usize)>;

/// (body, note, text length) by id as `view` sees them, by every access
/// path; all paths must agree.
fn read_all(t: &Table, view: &ReadView) -> Rows {
    let decode = |r: lineardb_table::RowRef<'_>| {
        let Value::Bytes(body) = r.value(1) else {
            panic!("body")
        };
        let Value::Bytes(note) = r.value(2) else {
            panic!("note")
        };
        let Value::Bytes(text) = r.value(3) else {
            panic!("text")
        };
        (
            r.int(0),
            (body, String::from_utf8(note).unwrap(), text.len()),
        )
    };
    let mut by_pk = Rows::new();
    t.scan_primary(view, &KeyRange::all(), |_, r| {
        let (id, v) = decode(r);
        by_pk.insert(id, v);
        true
    })
    .unwrap();
    let mut ordered = Rows::new();
    t.scan_index_rows(view, 0, &KeyRange::all(), |r| {
        let (id, v) = decode(r);
        ordered.insert(id, v);
        true
    })
    .unwrap();
    let mut swept = Rows::new();
    t.scan_index_rows_unordered(view, 0, &KeyRange::all(), |r| {
        let (id, v) = decode(r);
        swept.insert(id, v);
        true
    })
    .unwrap();
    let parallel: Rows = t
        .parallel_scan_primary(view, &KeyRange::all(), 2, Rows::new, |s, _, r| {
            let (id, v) = decode(r);
            s.insert(id, v);
        })
        .unwrap()
        .into_iter()
        .flatten()
        .collect();
    let mut by_key = Rows::new();
    for &id in by_pk.keys() {
        let pk = t.encode_primary_key(&[Value::Int(id)]).unwrap();
        let got = t.with_row(view, &pk, decode).unwrap().unwrap();
        by_key.insert(got.0, got.1);
    }
    assert!(by_pk == ordered, "scan_index_rows differs");
    assert!(by_pk == swept, "scan_index_rows_unordered differs");
    assert!(by_pk == parallel, "parallel_scan_primary differs");
    assert!(by_pk == by_key, "with_row differs");
    by_pk
}

fn assert_rows(t: &Table, view: &ReadView, want: &Rows, when: &str) {
    let got = read_all(t, view);
    assert_eq!(
        got.keys().collect::<Vec<_>>(),
        want.keys().collect::<Vec<_>>(),
        "{when}: ids"
    );
    for (id, w) in want {
        assert!(got[id] == *w, "{when}: row {id} differs");
    }
}

const SIZES: [usize; 6] = [0, 100, 5_000, 70_000, 100_000, 3_000_000];

#[test]
fn large_values_round_trip_through_snapshots_rollback_purge_and_reopen() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("blobs.ldb");
    let engine = Engine::open(&path, EngineConfig::default()).unwrap();
    let t = make_table(&engine);
    let mut want = Rows::new();
    let mut txn = engine.begin();
    for (i, &len) in SIZES.iter().enumerate() {
        let id = i as i64;
        let text = (len / 2).min(65_535);
        t.insert(&mut txn, row(id, data(len, id as u64), "n", text))
            .unwrap();
        want.insert(id, (data(len, id as u64), "n".into(), text));
    }
    txn.commit().unwrap();
    assert_rows(&t, &ReadView::latest(), &want, "after insert");
    let stored = t.blob_records().unwrap();
    assert!(stored > 0, "large values went off-page");

    // A rolled-back insert leaves no chunk behind.
    let mut txn = engine.begin();
    t.insert(&mut txn, row(100, data(1_000_000, 100), "r", 0))
        .unwrap();
    assert!(t.blob_records().unwrap() > stored);
    txn.rollback().unwrap();
    assert_eq!(t.blob_records().unwrap(), stored, "after rollback");
    assert_rows(&t, &ReadView::latest(), &want, "after rollback");

    // An update of another column keeps the off-page values as they are.
    let mut txn = engine.begin();
    let pk5 = t.encode_primary_key(&[Value::Int(5)]).unwrap();
    assert!(t
        .update_by_key(
            &mut txn,
            &pk5,
            vec![None, None, Some(Value::str("m")), None]
        )
        .unwrap());
    txn.commit().unwrap();
    engine.purge().unwrap();
    want.get_mut(&5).unwrap().1 = "m".into();
    assert_eq!(
        t.blob_records().unwrap(),
        stored,
        "an unchanged value stays"
    );
    assert_rows(&t, &ReadView::latest(), &want, "after update of note");

    // A snapshot keeps the values a later transaction replaces or deletes.
    let old = engine.snapshot().unwrap();
    let mut txn = engine.begin();
    let pk4 = t.encode_primary_key(&[Value::Int(4)]).unwrap();
    assert!(t
        .update_by_key(
            &mut txn,
            &pk4,
            vec![None, Some(Value::Bytes(data(200_000, 44))), None, None]
        )
        .unwrap());
    assert!(t.delete_by_key(&mut txn, &pk5).unwrap());
    txn.commit().unwrap();
    engine.purge().unwrap();
    assert_rows(&t, &old, &want, "the old snapshot after purge");
    let mut now = want.clone();
    now.get_mut(&4).unwrap().0 = data(200_000, 44);
    now.remove(&5);
    assert_rows(
        &t,
        &ReadView::latest(),
        &now,
        "latest after update and delete",
    );
    drop(old);
    engine.purge().unwrap();
    assert_rows(
        &t,
        &ReadView::latest(),
        &now,
        "latest after the snapshot went",
    );
    let live = t.blob_records().unwrap();
    assert!(live < stored, "the deleted 3 MB value's chunks are purged");
    assert_eq!(t.check().unwrap(), now.len() as u64);

    // Reopened: every value is there, and new ones get ids of their own.
    engine.close().unwrap();
    drop(t);
    drop(engine);
    let engine = Engine::open(&path, EngineConfig::default()).unwrap();
    let t = engine.table("db", "t").unwrap();
    assert_rows(&t, &ReadView::latest(), &now, "after reopen");
    let mut txn = engine.begin();
    t.insert(&mut txn, row(6, data(500_000, 6), "n", 65_535))
        .unwrap();
    txn.commit().unwrap();
    now.insert(6, (data(500_000, 6), "n".into(), 65_535));
    assert_rows(&t, &ReadView::latest(), &now, "after an insert past reopen");

    // Deleting every row leaves no chunk once purged.
    let mut txn = engine.begin();
    for id in now.keys() {
        let pk = t.encode_primary_key(&[Value::Int(*id)]).unwrap();
        assert!(t.delete_by_key(&mut txn, &pk).unwrap());
    }
    txn.commit().unwrap();
    engine.purge().unwrap();
    assert_eq!(t.blob_records().unwrap(), 0, "no chunk outlives its rows");
    assert_eq!(t.check().unwrap(), 0);
}

#[test]
fn a_row_too_large_in_indexed_columns_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let engine = Engine::open(&dir.path().join("k.ldb"), EngineConfig::default()).unwrap();
    engine.create_database("db", true).unwrap();
    // Every string column is indexed: none may go off-page.
    let names = ["a", "b", "c", "d", "e"];
    let mut spec = TableSpec::new("db", "k")
        .column(ColumnDef::new("id", DataType::Int { unsigned: false }).not_null())
        .primary_key(&["id"]);
    for n in names {
        spec = spec
            .column(ColumnDef::new(n, DataType::VarChar(250)))
            .index(&format!("k{n}"), &[n], false);
    }
    let t = engine.create_table(spec).unwrap();
    let wide = |id: i64, s: &str| -> Vec<Option<Value>> {
        std::iter::once(Some(Value::Int(id)))
            .chain(names.iter().map(|_| Some(Value::str(s))))
            .collect()
    };
    let mut txn = engine.begin();
    let err = t.insert(&mut txn, wide(1, &"😀".repeat(250))).unwrap_err();
    assert_eq!(err.mysql_code(), 1118, "{err}");
    t.insert(&mut txn, wide(2, &"y".repeat(250))).unwrap();
    txn.commit().unwrap();
    assert_eq!(t.blob_records().unwrap(), 0);
    assert_eq!(t.check().unwrap(), 1);
}
