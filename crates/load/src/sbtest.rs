//! sysbench 1.0.20's sbtest tables (oltp_common.lua):
//!
//! ```sql
//! CREATE TABLE sbtest1 (id INT NOT NULL AUTO_INCREMENT, k INT NOT NULL DEFAULT 0,
//!   c CHAR(120) NOT NULL DEFAULT '', pad CHAR(60) NOT NULL DEFAULT '',
//!   PRIMARY KEY (id), KEY k_1 (k))
//! ```
//! `k` is uniform in 1..=table_size; `c` and `pad` are groups of 11 random
//! digits joined by '-' (10 and 5 groups). The loader bulk-loads the rows in
//! id order, then builds `k_1` with the parallel index build, as sysbench's
//! `prepare` creates the secondary index after inserting.
use lineardb_table::ColumnDef;
use lineardb_table::Result;
use lineardb_table::Table;
use lineardb_table::{DataType, Value};
use lineardb_table::{Engine, TableSpec};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use std::sync::Arc;

pub const C_LEN: usize = 120;
pub const PAD_LEN: usize = 60;

/// sysbench's `sb_rand_str("###########-###...")`: digit groups of 11 joined by '-'.
pub fn digits_string(rng: &mut SmallRng, groups: usize) -> String {
    let mut s = String::with_capacity(groups * 12);
    for g in 0..groups {
        if g > 0 {
            s.push('-');
        }
        for _ in 0..11 {
            s.push((b'0' + rng.gen_range(0..10u8)) as char);
        }
    }
    s
}

/// One sbtest row.
pub struct Row {
    pub id: u32,
    pub k: u32,
    pub c: String,
    pub pad: String,
}

/// The rows 1..=n in id order, deterministic for a seed.
pub fn rows(n: u32, seed: u64) -> impl Iterator<Item = Row> {
    let mut rng = SmallRng::seed_from_u64(seed);
    (1..=n).map(move |id| Row {
        id,
        k: rng.gen_range(1..=n),
        c: digits_string(&mut rng, 10),
        pad: digits_string(&mut rng, 5),
    })
}

/// The sbtest table definition, without its secondary index.
pub fn spec(db: &str, name: &str) -> TableSpec {
    TableSpec::new(db, name)
        .column(ColumnDef::new("id", DataType::Int { unsigned: false }).auto_increment())
        .column(
            ColumnDef::new("k", DataType::Int { unsigned: false })
                .not_null()
                .default_value("0"),
        )
        .column(
            ColumnDef::new("c", DataType::Char(120))
                .not_null()
                .default_value(""),
        )
        .column(
            ColumnDef::new("pad", DataType::Char(60))
                .not_null()
                .default_value(""),
        )
        .primary_key(&["id"])
}

/// Creates `db.name` with `rows` rows and the index `k_1`, built with
/// `threads` workers. The database is created if needed.
pub fn load(
    engine: &Engine,
    db: &str,
    name: &str,
    rows: u32,
    threads: usize,
    seed: u64,
) -> Result<Arc<Table>> {
    load_rows(engine, db, name, rows, seed)?;
    let (table, _) = engine.create_indexes(
        db,
        name,
        &[("k_1".into(), vec!["k".into()], false)],
        threads,
        &|_| {},
    )?;
    Ok(table)
}

/// Creates `db.name` (database too, if needed) with `rows` rows and no
/// secondary index, bulk-loaded in id order.
pub fn load_rows(
    engine: &Engine,
    db: &str,
    name: &str,
    rows: u32,
    seed: u64,
) -> Result<Arc<Table>> {
    engine.create_database(db, true)?;
    let table = engine.create_table(spec(db, name))?;
    table.bulk_load(self::rows(rows, seed).map(|r| {
        vec![
            Value::Int(r.id as i64),
            Value::Int(r.k as i64),
            Value::Bytes(r.c.into_bytes()),
            Value::Bytes(r.pad.into_bytes()),
        ]
    }))?;
    Ok(table)
}

/// Primary-tree value of the engine bench: k (4 bytes, big-endian), c, pad.
pub fn primary_value(row: &Row) -> Vec<u8> {
    let mut v = Vec::with_capacity(4 + C_LEN + PAD_LEN);
    v.extend_from_slice(&row.k.to_be_bytes());
    v.extend_from_slice(row.c.as_bytes());
    v.extend_from_slice(row.pad.as_bytes());
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_have_sysbench_shapes() {
        let rows: Vec<Row> = rows(1000, 1).collect();
        assert_eq!(rows.len(), 1000);
        for r in &rows {
            assert_eq!(r.c.len(), C_LEN - 1, "10 groups of 11 digits and 9 dashes");
            assert_eq!(r.pad.len(), PAD_LEN - 1);
            assert!((1..=1000).contains(&r.k));
            assert!(r
                .c
                .split('-')
                .all(|g| g.len() == 11 && g.bytes().all(|b| b.is_ascii_digit())));
        }
    }
}
