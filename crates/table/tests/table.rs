//! The table layer against real files: typed errors that leave the table
//! unchanged, random DML checked against a model and by `check`, restart,
//! access paths, and parallel scans equal to serial ones.
use lineardb_table::{
    Collation, ColumnDef, DataType, Engine, EngineConfig, KeyRange, TableSpec, Value,
};
use lineardb_txn::ReadView;
use proptest::prelude::*;
use std::collections::BTreeMap;
use std::ops::Bound;

fn int() -> DataType {
    DataType::Int { unsigned: false }
}

fn small_pool() -> EngineConfig {
    EngineConfig {
        page_size: 4096,
        pool_bytes: 4096 * 64,
        max_pages: 1 << 20,
    }
}

fn people(engine: &Engine) -> std::sync::Arc<lineardb_table::Table> {
    engine.create_database("db", true).unwrap();
    engine
        .create_table(
            TableSpec::new("db", "people")
                .column(ColumnDef::new("id", int()).auto_increment())
                .column(ColumnDef::new("email", DataType::VarChar(20)))
                .column(ColumnDef::new("age", DataType::TinyInt { unsigned: true }).not_null())
                .column(
                    ColumnDef::new(
                        "score",
                        DataType::Decimal {
                            precision: 6,
                            scale: 2,
                        },
                    )
                    .default_value("1.50"),
                )
                .column(ColumnDef::new("born", DataType::Date))
                .primary_key(&["id"])
                .index("email", &["email"], true)
                .index("age", &["age"], false),
        )
        .unwrap()
}

#[test]
fn bad_rows_get_mysql_errors_and_change_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let engine = Engine::open(&dir.path().join("t.ldb"), small_pool()).unwrap();
    let t = people(&engine);
    let mut txn = engine.begin();
    let row = |id: Option<i64>, email: &str, age: i64| {
        vec![
            id.map(Value::Int),
            Some(Value::str(email)),
            Some(Value::Int(age)),
            None,
            Some(Value::str("1990-05-17")),
        ]
    };
    assert_eq!(t.insert(&mut txn, row(None, "a@x", 30)).unwrap(), Some(1));
    assert_eq!(t.insert(&mut txn, row(None, "b@x", 40)).unwrap(), Some(2));
    let cases: Vec<(Vec<Option<Value>>, u16, &str)> = vec![
        (row(Some(1), "c@x", 20), 1062, "23000"),
        (row(None, "a@x", 20), 1062, "23000"),
        (row(None, "d@x", 256), 1264, "22003"),
        (
            row(None, "this-address-is-far-too-long@x", 20),
            1406,
            "22001",
        ),
        (
            vec![None, Some(Value::str("e@x")), Some(Value::Null), None, None],
            1048,
            "23000",
        ),
        (
            vec![
                None,
                Some(Value::str("f@x")),
                Some(Value::Int(1)),
                Some(Value::str("12345.6")),
                None,
            ],
            1264,
            "22003",
        ),
        (
            vec![None, Some(Value::str("g@x")), None, None, None],
            1364,
            "HY000",
        ),
        (
            vec![
                None,
                Some(Value::str("h@x")),
                Some(Value::Int(1)),
                None,
                Some(Value::str("1997-02-30")),
            ],
            1292,
            "22007",
        ),
    ];
    for (r, code, state) in cases {
        let e = t.insert(&mut txn, r).unwrap_err();
        assert_eq!((e.mysql_code(), e.sqlstate()), (code, state), "{e}");
    }
    assert_eq!(t.check().unwrap(), 2);
    let got = t
        .get(&ReadView::latest(), &[Value::Int(1)])
        .unwrap()
        .unwrap();
    assert_eq!(got[3], Value::Decimal(lineardb_table::Dec::new(150, 2)));
    assert_eq!(got[4].to_text().unwrap(), "1990-05-17");
    // An update that would duplicate a unique value fails and changes nothing.
    let pk = t.encode_primary_key(&[Value::Int(2)]).unwrap();
    let e = t
        .update_by_key(
            &mut txn,
            &pk,
            vec![None, Some(Value::str("a@x")), None, None, None],
        )
        .unwrap_err();
    assert_eq!(e.mysql_code(), 1062);
    assert_eq!(
        t.get(&ReadView::latest(), &[Value::Int(2)])
            .unwrap()
            .unwrap()[1],
        Value::str("b@x")
    );
    // NULLs do not collide in a unique index.
    t.insert(&mut txn, vec![None, None, Some(Value::Int(1)), None, None])
        .unwrap();
    t.insert(&mut txn, vec![None, None, Some(Value::Int(1)), None, None])
        .unwrap();
    assert_eq!(t.check().unwrap(), 4);
    let e = engine
        .create_table(TableSpec::new("db", "people").column(ColumnDef::new("x", int())))
        .err()
        .unwrap();
    assert_eq!(e.mysql_code(), 1050);
    assert_eq!(engine.table("db", "nope").err().unwrap().mysql_code(), 1146);
    assert_eq!(engine.table("nodb", "t").err().unwrap().mysql_code(), 1049);
}

#[derive(Debug, Clone)]
enum Op {
    Insert(i64, u8, Option<u8>),
    Update(i64, u8, Option<u8>),
    Delete(i64),
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        4 => (0i64..300, 0u8..20, prop::option::of(0u8..60)).prop_map(|(a, b, c)| Op::Insert(a, b, c)),
        2 => (0i64..300, 0u8..20, prop::option::of(0u8..60)).prop_map(|(a, b, c)| Op::Update(a, b, c)),
        1 => (0i64..300).prop_map(Op::Delete),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    /// Random inserts, updates and deletes keep every index consistent with
    /// the clustered index and with a model; unique violations are refused.
    #[test]
    fn secondary_indexes_follow_the_rows(ops in prop::collection::vec(op(), 1..400)) {
        let dir = tempfile::tempdir().unwrap();
        let engine = Engine::open(&dir.path().join("p.ldb"), small_pool()).unwrap();
        engine.create_database("db", false).unwrap();
        let t = engine.create_table(TableSpec::new("db", "t")
            .column(ColumnDef::new("id", int()).not_null())
            .column(ColumnDef::new("grp", int()).not_null())
            .column(ColumnDef::new("tag", DataType::VarChar(8)))
            .primary_key(&["id"])
            .index("grp", &["grp"], false)
            .index("tag", &["tag"], true)).unwrap();
        let mut txn = engine.begin();
        let mut model: BTreeMap<i64, (i64, Option<String>)> = BTreeMap::new();
        let tag = |x: Option<u8>| x.map(|v| format!("t{v}"));
        let tag_taken = |m: &BTreeMap<i64, (i64, Option<String>)>, tg: &Option<String>, except: i64| {
            tg.is_some() && m.iter().any(|(id, (_, t2))| *id != except && t2 == tg)
        };
        for op in ops {
            match op {
                Op::Insert(id, g, tg) => {
                    let tg = tag(tg);
                    let r = t.insert(&mut txn, vec![Some(Value::Int(id)), Some(Value::Int(g as i64)), Some(tg.clone().map_or(Value::Null, |s| Value::str(&s)))]);
                    let ok = !model.contains_key(&id) && !tag_taken(&model, &tg, id);
                    prop_assert_eq!(r.is_ok(), ok, "{:?}", r);
                    if ok { model.insert(id, (g as i64, tg)); } else { prop_assert_eq!(r.unwrap_err().mysql_code(), 1062); }
                }
                Op::Update(id, g, tg) => {
                    let tg = tag(tg);
                    let pk = t.encode_primary_key(&[Value::Int(id)]).unwrap();
                    let r = t.update_by_key(&mut txn, &pk, vec![None, Some(Value::Int(g as i64)), Some(tg.clone().map_or(Value::Null, |s| Value::str(&s)))]);
                    if !model.contains_key(&id) {
                        prop_assert!(!r.unwrap());
                    } else if tag_taken(&model, &tg, id) {
                        prop_assert_eq!(r.unwrap_err().mysql_code(), 1062);
                    } else {
                        prop_assert!(r.unwrap());
                        model.insert(id, (g as i64, tg));
                    }
                }
                Op::Delete(id) => {
                    let pk = t.encode_primary_key(&[Value::Int(id)]).unwrap();
                    prop_assert_eq!(t.delete_by_key(&mut txn, &pk).unwrap(), model.remove(&id).is_some());
                }
            }
        }
        prop_assert_eq!(t.check().unwrap(), model.len() as u64);
        // Non-covering scan of grp in [5, 9] returns the model's rows in (grp, id) order.
        let types = t.index_types(0).to_vec();
        let range = KeyRange::from_values(&types, Bound::Included(&[Value::Int(5)]), Bound::Included(&[Value::Int(9)]));
        let mut got = Vec::new();
        t.scan_index_rows(&ReadView::latest(), 0, &range, |r| { got.push((r.int(1), r.int(0))); true }).unwrap();
        let mut want: Vec<(i64, i64)> = model.iter().filter(|(_, (g, _))| (5..=9).contains(g)).map(|(id, (g, _))| (*g, *id)).collect();
        want.sort();
        prop_assert_eq!(got, want.clone());
        // The unordered (sweep) form returns the same rows in key order of
        // the primary key.
        let mut swept = Vec::new();
        t.scan_index_rows_unordered(&ReadView::latest(), 0, &range, |r| { swept.push((r.int(1), r.int(0))); true }).unwrap();
        prop_assert!(swept.windows(2).all(|w| w[0].1 < w[1].1));
        swept.sort();
        prop_assert_eq!(swept, want.clone());
        // The covering scan sees the same (grp, id) pairs from the index alone.
        let mut cov = Vec::new();
        t.scan_index(&ReadView::latest(), 0, &range, |e| {
            let g = match e.column(1) { Some(Value::Int(g)) => g, _ => -1 };
            let id = match e.column(0) { Some(Value::Int(i)) => i, _ => -1 };
            cov.push((g, id));
            true
        }).unwrap();
        prop_assert_eq!(cov, want);
    }
}

#[test]
fn catalog_and_data_survive_restart() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("r.ldb");
    {
        let engine = Engine::open(&path, small_pool()).unwrap();
        let t = people(&engine);
        let mut txn = engine.begin();
        for i in 0..500 {
            t.insert(
                &mut txn,
                vec![
                    None,
                    Some(Value::str(&format!("u{i}@x"))),
                    Some(Value::Int(i % 90)),
                    None,
                    None,
                ],
            )
            .unwrap();
        }
        txn.commit().unwrap();
        engine.create_database("other", false).unwrap();
        engine.close().unwrap();
    }
    let engine = Engine::open(&path, small_pool()).unwrap();
    assert_eq!(engine.databases().unwrap(), vec!["db", "other"]);
    assert_eq!(engine.tables("db").unwrap(), vec!["people"]);
    let t = engine.table("db", "people").unwrap();
    let mut txn = engine.begin();
    assert_eq!(t.def().indexes.len(), 2);
    assert_eq!(t.check().unwrap(), 500);
    assert_eq!(
        t.get(&ReadView::latest(), &[Value::Int(77)])
            .unwrap()
            .unwrap()[1],
        Value::str("u76@x")
    );
    // AUTO_INCREMENT continues after the largest id.
    assert_eq!(
        t.insert(
            &mut txn,
            vec![
                None,
                Some(Value::str("new@x")),
                Some(Value::Int(1)),
                None,
                None
            ]
        )
        .unwrap(),
        Some(501)
    );
    txn.commit().unwrap();
    engine.drop_table("db", "people", false).unwrap();
    assert!(engine.tables("db").unwrap().is_empty());
}

#[test]
fn parallel_scan_and_count_equal_serial_with_a_small_pool() {
    let dir = tempfile::tempdir().unwrap();
    let engine = Engine::open(&dir.path().join("s.ldb"), small_pool()).unwrap();
    let t = lineardb_load::sbtest::load(&engine, "sb", "sbtest1", 20_000, 2, 7).unwrap();
    assert!(
        engine.pool_stats().page_count > 64 * 4,
        "the table is several times the pool"
    );
    assert_eq!(t.check().unwrap(), 20_000);
    let mut serial = Vec::new();
    t.scan_primary(&ReadView::latest(), &KeyRange::all(), |k, r| {
        serial.push((k.to_vec(), r.int(1)));
        true
    })
    .unwrap();
    assert_eq!(serial.len(), 20_000);
    for threads in 1..=8 {
        let parts = t
            .parallel_scan_primary(
                &ReadView::latest(),
                &KeyRange::all(),
                threads,
                Vec::new,
                |acc, k, r| acc.push((k.to_vec(), r.int(1))),
            )
            .unwrap();
        let mut all: Vec<_> = parts.into_iter().flatten().collect();
        all.sort();
        assert_eq!(all, serial, "{threads} workers");
        assert_eq!(t.count(&ReadView::latest(), threads).unwrap(), 20_000);
    }
    // Covering and non-covering scans over k agree on the ids.
    let types = t.index_types(0).to_vec();
    let range = KeyRange::from_values(
        &types,
        Bound::Included(&[Value::Int(100)]),
        Bound::Excluded(&[Value::Int(2000)]),
    );
    let mut a = Vec::new();
    t.scan_index(&ReadView::latest(), 0, &range, |e| {
        a.push(e.column(0).unwrap());
        true
    })
    .unwrap();
    let mut b = Vec::new();
    t.scan_index_rows(&ReadView::latest(), 0, &range, |r| {
        assert!((100..2000).contains(&r.int(1)));
        assert_eq!(r.bytes(2).len(), 119);
        b.push(r.value(0));
        true
    })
    .unwrap();
    assert!(a.len() > 1000);
    assert_eq!(a, b);
    // The sweep form, with a pool smaller than the table, returns the same
    // rows (in primary-key order) and stops when asked.
    let mut c = Vec::new();
    t.scan_index_rows_unordered(&ReadView::latest(), 0, &range, |r| {
        c.push(r.value(0));
        true
    })
    .unwrap();
    let mut sorted_b = b.clone();
    sorted_b.sort_by_key(|v| match v {
        Value::Int(i) => *i,
        _ => unreachable!(),
    });
    assert_eq!(c, sorted_b);
    let mut seen = 0;
    t.scan_index_rows_unordered(&ReadView::latest(), 0, &range, |_| {
        seen += 1;
        seen < 10
    })
    .unwrap();
    assert_eq!(seen, 10);
}

/// A covering scan reads every column an entry holds, whatever precedes it
/// in the key: fixed-width NOT NULL parts (read at a known offset), a
/// nullable part or a string (found by walking the key), composite primary
/// keys; each compared with the row itself.
#[test]
fn index_entries_give_every_column_they_hold() {
    let dir = tempfile::tempdir().unwrap();
    let engine = Engine::open(&dir.path().join("e.ldb"), EngineConfig::default()).unwrap();
    engine.create_database("db", true).unwrap();
    let t = engine
        .create_table(
            TableSpec::new("db", "t")
                .column(ColumnDef::new("a", DataType::Int { unsigned: false }).not_null())
                .column(ColumnDef::new("b", DataType::SmallInt { unsigned: true }).not_null())
                .column(ColumnDef::new("n", DataType::BigInt { unsigned: false }))
                // A byte collation: its keys give the string back.
                .column(
                    ColumnDef::new("s", DataType::VarChar(20))
                        .not_null()
                        .collate(Collation::Utf8mb4NopadBin),
                )
                .column(ColumnDef::new("d", DataType::Date).not_null())
                .primary_key(&["a", "b"])
                .index("fixed", &["d", "b"], false)
                .index("nullable_first", &["n", "d"], false)
                .index("string_first", &["s", "n"], false),
        )
        .unwrap();
    let mut txn = engine.begin();
    for i in 0..300i64 {
        t.insert(
            &mut txn,
            vec![
                Some(Value::Int(i / 7 - 20)),
                Some(Value::Int(i % 7 * 9000)),
                Some(if i % 3 == 0 {
                    Value::Null
                } else {
                    Value::Int(i * -1_000_000_007)
                }),
                Some(Value::Bytes(
                    format!("s{}", i * 37 % 101)
                        .repeat((i % 4) as usize)
                        .into_bytes(),
                )),
                Some(Value::Date(i as i32 * 13 - 2000)),
            ],
        )
        .unwrap();
    }
    txn.commit().unwrap();
    let view = ReadView::latest();
    let mut rows = std::collections::HashMap::new();
    t.scan_primary(&view, &KeyRange::all(), |_, r| {
        let v = r.values();
        rows.insert((format!("{:?}", v[0]), format!("{:?}", v[1])), v);
        true
    })
    .unwrap();
    assert_eq!(rows.len(), 300);
    let held: [&[usize]; 3] = [&[4, 1, 0], &[2, 4, 0, 1], &[3, 2, 0, 1]];
    for (index, columns) in held.iter().enumerate() {
        let mut seen = 0;
        t.scan_index(&view, index, &KeyRange::all(), |e| {
            let pk = (
                format!("{:?}", e.column(0).unwrap()),
                format!("{:?}", e.column(1).unwrap()),
            );
            let row = &rows[&pk];
            for &c in *columns {
                assert_eq!(
                    e.column(c).as_ref(),
                    Some(&row[c]),
                    "index {index} column {c}"
                );
            }
            seen += 1;
            true
        })
        .unwrap();
        assert_eq!(seen, 300, "index {index}");
    }
}

fn pages_in_use(engine: &Engine) -> u64 {
    let s = engine.pool_stats();
    s.page_count - s.free_pages as u64
}

#[test]
fn temporary_tables_are_private_and_gone_after_a_restart() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("tmp.ldb");
    let temporary = |engine: &Engine, connection: u64, db: &str| {
        engine
            .create_table(
                TableSpec::new(db, "people")
                    .temporary(connection)
                    .column(ColumnDef::new("n", int()))
                    .index("by_n", &["n"], false),
            )
            .unwrap()
    };
    let in_use_before;
    {
        let engine = Engine::open(&path, small_pool()).unwrap();
        let permanent = people(&engine);
        engine.checkpoint().unwrap();
        in_use_before = pages_in_use(&engine);
        // Two connections' tables of the permanent table's name, and one
        // in a database that does not exist.
        let mine = temporary(&engine, 7, "db");
        let theirs = temporary(&engine, 8, "db");
        temporary(&engine, 7, "nowhere");
        let again = engine.create_table(TableSpec::new("db", "people").temporary(7));
        assert!(matches!(again, Err(lineardb_table::Error::TableExists(_))));
        let mut txn = engine.begin();
        for n in 0..3000 {
            mine.insert(&mut txn, vec![Some(Value::Int(n))]).unwrap();
        }
        theirs.insert(&mut txn, vec![Some(Value::Int(1))]).unwrap();
        txn.commit().unwrap();
        assert_eq!(mine.check().unwrap(), 3000);
        assert_eq!(theirs.check().unwrap(), 1);
        // The permanent table is untouched and the only one listed.
        assert_eq!(engine.tables("db").unwrap(), vec!["people"]);
        assert_eq!(engine.table("db", "people").unwrap().def().columns.len(), 5);
        assert_eq!(permanent.check().unwrap(), 0);
        let found = engine.temporary_table(7, "DB", "People").unwrap();
        assert_eq!(found.def().temporary.map(|t| t.owner), Some(7));
        assert!(engine.temporary_table(9, "db", "people").is_none());
        // DDL by handle keeps the table temporary.
        let mine = engine.truncate(&found).unwrap();
        assert_eq!(mine.check().unwrap(), 0);
        let (mine, _) = engine
            .add_indexes(&mine, &[("n2".into(), vec!["n".into()], false)], 1, &|_| {})
            .unwrap();
        assert_eq!(
            engine
                .temporary_table(7, "db", "people")
                .unwrap()
                .def()
                .indexes
                .len(),
            2
        );
        engine.remove_index(&mine, "n2").unwrap();
        // A detached table keeps its trees while its name goes to another.
        let first = engine.temporary_table(7, "nowhere", "people").unwrap();
        let mut txn = engine.begin();
        first.insert(&mut txn, vec![Some(Value::Int(1))]).unwrap();
        engine.detach_temporary(&first);
        assert!(engine.temporary_table(7, "nowhere", "people").is_none());
        let second = temporary(&engine, 7, "nowhere");
        second.insert(&mut txn, vec![Some(Value::Int(2))]).unwrap();
        txn.rollback().unwrap();
        engine.remove_table(&first).unwrap();
        let found = engine.temporary_table(7, "nowhere", "people").unwrap();
        assert_eq!(found.def().temporary, second.def().temporary);
        assert_eq!(found.check().unwrap(), 0);
        // A connection's end drops its tables only.
        engine.drop_temporary_tables(8).unwrap();
        assert!(engine.temporary_table(8, "db", "people").is_none());
        assert!(engine.temporary_table(7, "db", "people").is_some());
        assert!(pages_in_use(&engine) > in_use_before);
        // Closed with connection 7's tables still there (as a crash would).
        engine.close().unwrap();
    }
    let engine = Engine::open(&path, small_pool()).unwrap();
    assert!(engine.temporary_table(7, "db", "people").is_none());
    assert!(engine.temporary_table(7, "nowhere", "people").is_none());
    assert_eq!(engine.tables("db").unwrap(), vec!["people"]);
    assert!(!engine.database_exists("nowhere").unwrap());
    // Their pages are free again.
    engine.checkpoint().unwrap();
    assert_eq!(pages_in_use(&engine), in_use_before);
    temporary(&engine, 7, "db");
}

/// A definition longer than a tree entry (many columns on small pages) is
/// stored in parts: it survives a restart, a rename and a swap with a short
/// one, and dropping it leaves nothing that a table of the same name reads.
#[test]
fn definitions_longer_than_a_page_entry_are_kept_whole() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("w.ldb");
    let wide = |name: &str, columns: usize| {
        (0..columns).fold(
            TableSpec::new("db", name)
                .column(ColumnDef::new("id", int()))
                .primary_key(&["id"]),
            |spec, i| spec.column(ColumnDef::new(&format!("column_{i}"), int())),
        )
    };
    {
        let engine = Engine::open(&path, small_pool()).unwrap();
        engine.create_database("db", false).unwrap();
        let t = engine.create_table(wide("wide", 150)).unwrap();
        let mut txn = engine.begin();
        let row = (0..151).map(|i| Some(Value::Int(i))).collect();
        t.insert(&mut txn, row).unwrap();
        txn.commit().unwrap();
        engine.create_table(wide("narrow", 2)).unwrap();
        let name = |n: &str| ("db".to_string(), n.to_string());
        engine
            .rename_tables(&[
                (name("wide"), name("swap")),
                (name("narrow"), name("wide")),
                (name("swap"), name("narrow")),
            ])
            .unwrap();
        engine.close().unwrap();
    }
    {
        let engine = Engine::open(&path, small_pool()).unwrap();
        assert_eq!(engine.tables("db").unwrap(), vec!["narrow", "wide"]);
        assert_eq!(engine.table("db", "wide").unwrap().def().columns.len(), 3);
        let t = engine.table("db", "narrow").unwrap();
        assert_eq!(t.def().columns.len(), 151);
        assert_eq!(t.def().columns[150].name, "column_149");
        let row = t
            .get(&ReadView::latest(), &[Value::Int(0)])
            .unwrap()
            .unwrap();
        assert_eq!(row[150], Value::Int(150));
        engine.drop_table("db", "narrow", false).unwrap();
        engine.create_table(wide("narrow", 1)).unwrap();
        engine.close().unwrap();
    }
    let engine = Engine::open(&path, small_pool()).unwrap();
    assert_eq!(engine.table("db", "narrow").unwrap().def().columns.len(), 2);
    assert_eq!(engine.all_table_defs().unwrap().len(), 2);
}
