//! `--compare embedded`: seed 001's scans in process against LMDB (`heed`)
//! and SQLite (`rusqlite`, bundled) on the same rows, set up as in
//! `bench/ANCHORS.md`.
//!
//! - LMDB: database `rows` (key: id, u32 big-endian; value: k ++ length of
//!   c in one byte ++ c ++ pad) and `k_1` (key: k ++ id, both big-endian;
//!   empty value), written with appends in key order; a new read
//!   transaction per query.
//! - SQLite: `sbtest1(id INTEGER PRIMARY KEY, k, c, pad)` with index `k_1`
//!   on k, WAL journal, 1 GiB mmap; a connection per thread, prepared
//!   statements, autocommit.
//!
//! The queries are lineardb's: `pk_N` = SUM(k) of `id BETWEEN x AND
//! x+N-1`, `covering_N` = SUM(id) of `k BETWEEN ...` through k_1,
//! `noncovering_N` = SUM(LENGTH(c)) of `k BETWEEN ...` through k_1.
use crate::harness::{Matrix, Worker};
use crate::report::Point;
use heed::types::Bytes;
use heed::{Database, Env, EnvOpenOptions, PutFlags};
use lineardb_load::sbtest;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use std::hint::black_box;
use std::ops::Bound;
use std::path::Path;

/// The scans of seed 001.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scan {
    Pk,
    Covering,
    NonCovering,
}

/// LMDB loaded with `rows` sbtest rows.
pub struct Lmdb {
    env: Env,
    rows: Database<Bytes, Bytes>,
    k_1: Database<Bytes, Bytes>,
}

impl Lmdb {
    /// Loads rows 1..=`n` (the generator of `seed`) into a new environment
    /// in `dir`.
    pub fn load(dir: &Path, n: u32, seed: u64) -> anyhow::Result<Lmdb> {
        std::fs::create_dir_all(dir)?;
        // SAFETY: heed requires that the environment's files are not opened
        // twice in one process and not changed by others while mapped; the
        // directory is this run's own.
        let env = unsafe {
            EnvOpenOptions::new()
                .map_size(16 << 30)
                .max_dbs(2)
                .open(dir)?
        };
        let mut w = env.write_txn()?;
        let rows: Database<Bytes, Bytes> = env.create_database(&mut w, Some("rows"))?;
        let k_1: Database<Bytes, Bytes> = env.create_database(&mut w, Some("k_1"))?;
        let mut entries = Vec::with_capacity(n as usize);
        let mut value = Vec::new();
        for r in sbtest::rows(n, seed) {
            value.clear();
            value.extend_from_slice(&r.k.to_be_bytes());
            value.push(r.c.len() as u8);
            value.extend_from_slice(r.c.as_bytes());
            value.extend_from_slice(r.pad.as_bytes());
            rows.put_with_flags(&mut w, PutFlags::APPEND, &r.id.to_be_bytes(), &value)?;
            entries.push((r.k, r.id));
        }
        entries.sort_unstable();
        for (k, id) in entries {
            let mut key = [0u8; 8];
            key[..4].copy_from_slice(&k.to_be_bytes());
            key[4..].copy_from_slice(&id.to_be_bytes());
            k_1.put_with_flags(&mut w, PutFlags::APPEND, &key, &[])?;
        }
        w.commit()?;
        Ok(Lmdb { env, rows, k_1 })
    }

    /// One query of `kind` over `[x, x + len)`; returns (rows, sum).
    pub fn query(&self, kind: Scan, x: u32, len: u32) -> anyhow::Result<(u64, i64)> {
        let t = self.env.read_txn()?;
        let (lo, hi) = (x.to_be_bytes(), (x + len - 1).to_be_bytes());
        let (mut rows, mut sum) = (0u64, 0i64);
        match kind {
            Scan::Pk => {
                let range = (Bound::Included(&lo[..]), Bound::Included(&hi[..]));
                for e in self.rows.range(&t, &range)? {
                    let (_, v) = e?;
                    sum += u32::from_be_bytes(v[..4].try_into()?) as i64;
                    rows += 1;
                }
            }
            Scan::Covering | Scan::NonCovering => {
                // Entries k ++ id with lo <= k <= hi.
                let end = (x + len).to_be_bytes();
                let range = (Bound::Included(&lo[..]), Bound::Excluded(&end[..]));
                for e in self.k_1.range(&t, &range)? {
                    let (key, _) = e?;
                    let id = &key[4..8];
                    if kind == Scan::Covering {
                        sum += u32::from_be_bytes(id.try_into()?) as i64;
                    } else if let Some(v) = self.rows.get(&t, id)? {
                        sum += v[4] as i64; // LENGTH(c)
                    }
                    rows += 1;
                }
            }
        }
        Ok((rows, sum))
    }
}

/// SQLite loaded with `rows` sbtest rows; connections open its file.
pub struct Sqlite {
    path: std::path::PathBuf,
}

impl Sqlite {
    /// Loads rows 1..=`n` (the generator of `seed`) into a new database
    /// file in `dir`, then builds index k_1.
    pub fn load(dir: &Path, n: u32, seed: u64) -> anyhow::Result<Sqlite> {
        std::fs::create_dir_all(dir)?;
        let path = dir.join("sbtest.sqlite");
        let _ = std::fs::remove_file(&path);
        let mut c = rusqlite::Connection::open(&path)?;
        c.pragma_update(None, "journal_mode", "WAL")?;
        c.pragma_update(None, "synchronous", "OFF")?;
        c.execute_batch(
            "CREATE TABLE sbtest1(id INTEGER PRIMARY KEY, k INTEGER NOT NULL, \
             c TEXT NOT NULL, pad TEXT NOT NULL)",
        )?;
        let t = c.transaction()?;
        {
            let mut insert = t.prepare("INSERT INTO sbtest1 VALUES (?1, ?2, ?3, ?4)")?;
            for r in sbtest::rows(n, seed) {
                insert.execute(rusqlite::params![r.id, r.k, r.c, r.pad])?;
            }
        }
        t.commit()?;
        c.execute_batch("CREATE INDEX k_1 ON sbtest1(k)")?;
        Ok(Sqlite { path })
    }

    /// A connection for one thread.
    pub fn connect(&self) -> anyhow::Result<rusqlite::Connection> {
        let c = rusqlite::Connection::open(&self.path)?;
        c.pragma_update(None, "mmap_size", 1i64 << 30)?;
        Ok(c)
    }
}

const SQLITE_QUERIES: [(Scan, &str); 3] = [
    (
        Scan::Pk,
        "SELECT COUNT(*), SUM(k) FROM sbtest1 WHERE id BETWEEN ?1 AND ?2",
    ),
    (
        Scan::Covering,
        "SELECT COUNT(*), SUM(id) FROM sbtest1 INDEXED BY k_1 WHERE k BETWEEN ?1 AND ?2",
    ),
    (
        Scan::NonCovering,
        "SELECT COUNT(*), SUM(LENGTH(c)) FROM sbtest1 INDEXED BY k_1 WHERE k BETWEEN ?1 AND ?2",
    ),
];

/// One SQLite query of `kind` over `[x, x + len)`; returns (rows, sum).
pub fn sqlite_query(
    c: &rusqlite::Connection,
    kind: Scan,
    x: u32,
    len: u32,
) -> anyhow::Result<(u64, i64)> {
    let sql = SQLITE_QUERIES
        .iter()
        .find(|(k, _)| *k == kind)
        .map(|(_, q)| *q)
        .expect("every scan has a query");
    let mut s = c.prepare_cached(sql)?;
    let (rows, sum): (i64, Option<i64>) = s.query_row(rusqlite::params![x, x + len - 1], |r| {
        Ok((r.get(0)?, r.get(1)?))
    })?;
    Ok((rows as u64, sum.unwrap_or(0)))
}

/// One thread's scans on an embedded store: `query(kind, x, len)` returns
/// (rows, sum) of the rows `[x, x + len)`.
struct ScanWorker<Q> {
    query: Q,
    kind: Scan,
    len: u32,
    rows: u32,
    rng: SmallRng,
}

impl<Q: FnMut(Scan, u32, u32) -> (u64, i64) + Send> Worker for ScanWorker<Q> {
    fn op(&mut self) -> u64 {
        let x = self.rng.gen_range(1..=(self.rows - self.len + 1).max(1));
        let (rows, sum) = (self.query)(self.kind, x, self.len);
        black_box(sum);
        rows
    }
}

/// Runs the cases on one system; `query()` makes a thread's query
/// function.
fn run_scans<'a, Q>(
    system: &str,
    matrix: &Matrix,
    cases: &[(String, Scan, u32)],
    rows: u32,
    query: impl Fn() -> Q + Sync,
    on_point: &mut dyn FnMut(&Point),
) -> Vec<Point>
where
    Q: FnMut(Scan, u32, u32) -> (u64, i64) + Send + 'a,
{
    let names: Vec<String> = cases.iter().map(|c| c.0.clone()).collect();
    let m = Matrix {
        system: Some(system.into()),
        ..matrix.clone()
    };
    m.run(
        &names,
        |ci, _t, seed| {
            let (_, kind, len) = cases[ci];
            Box::new(ScanWorker {
                query: query(),
                kind,
                len,
                rows,
                rng: SmallRng::seed_from_u64(seed),
            })
        },
        on_point,
    )
}

/// Runs the cases (name, scan, rows per query) on LMDB and on SQLite,
/// loading `rows` rows of `seed` into `dir` first.
pub fn seed001_scans(
    matrix: &Matrix,
    dir: &Path,
    rows: u32,
    seed: u64,
    cases: &[(String, Scan, u32)],
    log: &mut dyn FnMut(&str),
    mut on_point: impl FnMut(&Point),
) -> anyhow::Result<Vec<Point>> {
    let mut loaded = |system: &str, start: std::time::Instant| {
        log(&format!(
            "{system}: loaded {rows} rows and k_1 in {:.1} s",
            start.elapsed().as_secs_f64()
        ))
    };
    let start = std::time::Instant::now();
    let lmdb = Lmdb::load(&dir.join("lmdb"), rows, seed)?;
    loaded("lmdb", start);
    let mut points = run_scans(
        "lmdb",
        matrix,
        cases,
        rows,
        || |kind, x, len| lmdb.query(kind, x, len).expect("LMDB query"),
        &mut on_point,
    );
    drop(lmdb);
    let start = std::time::Instant::now();
    let sqlite = Sqlite::load(&dir.join("sqlite"), rows, seed)?;
    loaded("sqlite", start);
    points.extend(run_scans(
        "sqlite",
        matrix,
        cases,
        rows,
        || {
            let conn = sqlite.connect().expect("a SQLite connection");
            move |kind, x, len| sqlite_query(&conn, kind, x, len).expect("SQLite query")
        },
        &mut on_point,
    ));
    Ok(points)
}

/// Seed 000's lineitem in SQLite: every row of lineardb's `table` copied
/// into `lineitem` (`WITHOUT ROWID`, clustered on the primary key
/// (l_orderkey, l_linenumber) as in lineardb and InnoDB), decimals stored as
/// the same scaled integers lineardb keeps and dates as days since 1970
/// (so both compute Q6 exactly alike), then index `i_l_shipdate`.
pub struct SqliteLineitem {
    path: std::path::PathBuf,
}

/// Q6 of one month in SQLite: through `i_l_shipdate` or by a table scan.
const SQLITE_Q6: [&str; 2] = [
    "SELECT SUM(l_extendedprice * l_discount) FROM lineitem INDEXED BY i_l_shipdate \
     WHERE l_shipdate >= ?1 AND l_shipdate < ?2 AND l_discount BETWEEN 4 AND 6 \
     AND l_quantity < 2500",
    "SELECT SUM(l_extendedprice * l_discount) FROM lineitem NOT INDEXED \
     WHERE l_shipdate >= ?1 AND l_shipdate < ?2 AND l_discount BETWEEN 4 AND 6 \
     AND l_quantity < 2500",
];

impl SqliteLineitem {
    pub fn load(
        dir: &Path,
        table: &lineardb_table::Table,
        view: &lineardb_txn::ReadView,
    ) -> anyhow::Result<SqliteLineitem> {
        use lineardb_table::Value;
        std::fs::create_dir_all(dir)?;
        let path = dir.join("lineitem.sqlite");
        let _ = std::fs::remove_file(&path);
        let mut c = rusqlite::Connection::open(&path)?;
        c.pragma_update(None, "journal_mode", "WAL")?;
        c.pragma_update(None, "synchronous", "OFF")?;
        let columns: Vec<String> = table.def().columns.iter().map(|c| c.name.clone()).collect();
        c.execute_batch(&format!(
            "CREATE TABLE lineitem({}, PRIMARY KEY (l_orderkey, l_linenumber)) WITHOUT ROWID",
            columns.join(", ")
        ))?;
        let t = c.transaction()?;
        {
            let marks: Vec<String> = (1..=columns.len()).map(|i| format!("?{i}")).collect();
            let mut insert = t.prepare(&format!(
                "INSERT INTO lineitem VALUES ({})",
                marks.join(", ")
            ))?;
            let mut failed = None;
            table.scan_primary(view, &lineardb_table::KeyRange::all(), |_, row| {
                let values: Vec<rusqlite::types::Value> = row
                    .values()
                    .into_iter()
                    .map(|v| match v {
                        Value::Int(i) => rusqlite::types::Value::Integer(i),
                        Value::UInt(u) => rusqlite::types::Value::Integer(u as i64),
                        Value::Decimal(d) => rusqlite::types::Value::Integer(
                            d.unscaled_i128().unwrap_or_default() as i64,
                        ),
                        Value::Date(d) => rusqlite::types::Value::Integer(d as i64),
                        Value::Double(f) => rusqlite::types::Value::Real(f),
                        Value::Bytes(b) => {
                            rusqlite::types::Value::Text(String::from_utf8_lossy(&b).into_owned())
                        }
                        Value::DateTime(t) | Value::Time(t) => rusqlite::types::Value::Integer(t),
                        Value::Null => rusqlite::types::Value::Null,
                    })
                    .collect();
                match insert.execute(rusqlite::params_from_iter(values)) {
                    Ok(_) => true,
                    Err(e) => {
                        failed = Some(e);
                        false
                    }
                }
            })?;
            if let Some(e) = failed {
                return Err(e.into());
            }
        }
        t.commit()?;
        c.execute_batch("CREATE INDEX i_l_shipdate ON lineitem(l_shipdate)")?;
        Ok(SqliteLineitem { path })
    }

    /// A connection for one thread.
    pub fn connect(&self) -> anyhow::Result<rusqlite::Connection> {
        let c = rusqlite::Connection::open(&self.path)?;
        c.pragma_update(None, "mmap_size", 4i64 << 30)?;
        Ok(c)
    }
}

/// Q6 of the days `[first, next)` on `c`, through the index or by a table
/// scan: the revenue at scale 4, as lineardb computes it.
pub fn sqlite_q6(
    c: &rusqlite::Connection,
    first: i32,
    next: i32,
    index: bool,
) -> anyhow::Result<i128> {
    let mut s = c.prepare_cached(SQLITE_Q6[if index { 0 } else { 1 }])?;
    let sum: Option<i64> = s.query_row(rusqlite::params![first, next], |r| r.get(0))?;
    Ok(sum.unwrap_or(0) as i128)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The three systems answer every query alike (checked against a model
    /// of the rows).
    #[test]
    fn lmdb_and_sqlite_answer_like_the_rows() {
        let dir = tempfile::tempdir().unwrap();
        let n = 3000;
        let all: Vec<sbtest::Row> = sbtest::rows(n, 7).collect();
        let lmdb = Lmdb::load(&dir.path().join("lmdb"), n, 7).unwrap();
        let sqlite = Sqlite::load(&dir.path().join("sqlite"), n, 7).unwrap();
        let conn = sqlite.connect().unwrap();
        let mut rng = SmallRng::seed_from_u64(1);
        for _ in 0..200 {
            let len = [1, 10, 100][rng.gen_range(0..3)];
            let x = rng.gen_range(1..=n - len + 1);
            let in_k = |r: &&sbtest::Row| r.k >= x && r.k < x + len;
            let expect = [
                (
                    Scan::Pk,
                    (
                        len as u64,
                        all[x as usize - 1..][..len as usize]
                            .iter()
                            .map(|r| r.k as i64)
                            .sum::<i64>(),
                    ),
                ),
                (
                    Scan::Covering,
                    (
                        all.iter().filter(in_k).count() as u64,
                        all.iter().filter(in_k).map(|r| r.id as i64).sum(),
                    ),
                ),
                (
                    Scan::NonCovering,
                    (
                        all.iter().filter(in_k).count() as u64,
                        all.iter().filter(in_k).map(|r| r.c.len() as i64).sum(),
                    ),
                ),
            ];
            for (kind, want) in expect {
                assert_eq!(lmdb.query(kind, x, len).unwrap(), want, "lmdb {kind:?}");
                assert_eq!(
                    sqlite_query(&conn, kind, x, len).unwrap(),
                    want,
                    "sqlite {kind:?}"
                );
            }
        }
    }
}
