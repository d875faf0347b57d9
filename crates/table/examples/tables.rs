//! The table layer from Rust, without SQL: a table with a primary key and
//! two secondary indexes, inserts with typed errors, point and range reads
//! by every access path, an index built afterwards in parallel, a parallel
//! count, and a consistency check.
//!
//! `cargo run --release -p lineardb-table --example tables`
use lineardb_table::{ColumnDef, DataType, Engine, KeyRange, Result, TableSpec, Value};
use std::ops::Bound;

fn main() -> Result<()> {
    let dir = std::env::temp_dir().join(format!("lineardb-tables-{}", std::process::id()));
    std::fs::create_dir_all(&dir).map_err(lineardb_btree::Error::from)?;
    let engine = Engine::open(&dir.join("shop.ldb"), Default::default())?;
    engine.create_database("shop", true)?;
    let orders = engine.create_table(
        TableSpec::new("shop", "orders")
            .column(ColumnDef::new("id", DataType::Int { unsigned: false }).auto_increment())
            .column(ColumnDef::new("customer", DataType::VarChar(32)).not_null())
            .column(
                ColumnDef::new(
                    "total",
                    DataType::Decimal {
                        precision: 10,
                        scale: 2,
                    },
                )
                .not_null(),
            )
            .column(ColumnDef::new("placed", DataType::Date).not_null())
            .primary_key(&["id"])
            .index("by_customer", &["customer"], false),
    )?;

    // Inserts: None means "the column's default" (AUTO_INCREMENT here).
    let customers = ["ann", "bob", "cid", "dee"];
    let mut txn = engine.begin();
    for i in 0..10_000 {
        let total = Value::str(&format!("{}.{:02}", 10 + i % 90, i % 100));
        let day = Value::str(&format!("2026-{:02}-{:02}", 1 + i % 12, 1 + i % 28));
        orders.insert(
            &mut txn,
            vec![
                None,
                Some(Value::str(customers[i % 4])),
                Some(total),
                Some(day),
            ],
        )?;
    }
    txn.commit()?;
    let mut txn = engine.begin();
    // Bad input gets a typed error with its MySQL code; nothing changes.
    let err = orders
        .insert(
            &mut txn,
            vec![
                Some(Value::Int(5)),
                Some(Value::str("eve")),
                Some(Value::str("1")),
                Some(Value::str("2026-01-01")),
            ],
        )
        .unwrap_err();
    println!(
        "duplicate id: error {} ({}) {err}",
        err.mysql_code(),
        err.sqlstate()
    );

    // Point read by primary key.
    // Reads see a snapshot: what was committed when it was taken.
    let view = engine.snapshot()?;
    let row = orders.get(&view, &[Value::Int(42)])?.expect("order 42");
    println!(
        "order 42: {:?}",
        row.iter().map(|v| v.to_text()).collect::<Vec<_>>()
    );

    // PK range: SUM(total) for ids 100..=199, reading the column in place.
    let pk = KeyRange::from_values(
        orders.primary_key_types(),
        Bound::Included(&[Value::Int(100)]),
        Bound::Included(&[Value::Int(199)]),
    );
    let mut cents = 0i128;
    orders.scan_primary(&view, &pk, |_, r| {
        cents += r.decimal(2).expect("a DECIMAL(10,2)");
        true
    })?;
    println!(
        "sum of totals, ids 100..=199: {}",
        lineardb_table::Dec::new(cents, 2)
    );

    // Add an index on `placed` afterwards, built by 2 threads in one pass.
    let (orders, stats) = engine.create_indexes(
        "shop",
        "orders",
        &[("by_day".into(), vec!["placed".into()], false)],
        2,
        &|_| {},
    )?;
    println!("built by_day over {} rows", stats.rows);

    // Covering scan: ids of bob's orders come from the index alone.
    let by_customer = orders.index("by_customer")?;
    let bob = KeyRange::from_values(
        orders.index_types(by_customer),
        Bound::Included(&[Value::str("bob")]),
        Bound::Included(&[Value::str("bob")]),
    );
    let mut n = 0;
    orders.scan_index(&view, by_customer, &bob, |e| {
        n += e.column(0).is_some() as u32;
        true
    })?;
    println!("bob has {n} orders");

    // Non-covering scan: totals of March orders (batched primary-key lookups).
    let by_day = orders.index("by_day")?;
    let march = KeyRange::from_values(
        orders.index_types(by_day),
        Bound::Included(&[Value::Date(
            lineardb_table::types::parse_date("2026-03-01").unwrap(),
        )]),
        Bound::Excluded(&[Value::Date(
            lineardb_table::types::parse_date("2026-04-01").unwrap(),
        )]),
    );
    let mut march_cents = 0i128;
    orders.scan_index_rows(&view, by_day, &march, |r| {
        march_cents += r.decimal(2).expect("a DECIMAL(10,2)");
        true
    })?;
    println!(
        "March revenue: {}",
        lineardb_table::Dec::new(march_cents, 2)
    );

    println!(
        "rows: {} (parallel count), check: {} rows consistent",
        orders.count(&view, 2)?,
        orders.check()?
    );
    engine.close()?;
    std::fs::remove_dir_all(&dir).ok();
    Ok(())
}
