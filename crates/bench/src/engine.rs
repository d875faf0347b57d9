//! `lineardb bench engine`: the storage core alone, on data shaped like
//! sysbench's sbtest (seed 001): a primary tree (id -> k, c, pad) and an
//! index tree ((k, id) -> nothing). Cases: point lookups, PK range scans of
//! 10 and 1000 entries, covering scans of the index, and non-covering scans
//! (index range, then a sorted batch of primary lookups).
use crate::harness::{self, Worker};
use crate::report::Point;
use lineardb_btree::{BTree, Cursor, PoolConfig, Store};
use lineardb_load::sbtest;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use std::hint::black_box;
use std::path::PathBuf;
use std::time::Instant;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Case {
    Point,
    PkRange(usize),
    Covering(usize),
    NonCovering(usize),
}

impl Case {
    pub const ALL: [Case; 7] = [
        Case::Point,
        Case::PkRange(10),
        Case::PkRange(1000),
        Case::Covering(10),
        Case::Covering(1000),
        Case::NonCovering(10),
        Case::NonCovering(1000),
    ];

    pub fn name(self) -> String {
        match self {
            Case::Point => "point".into(),
            Case::PkRange(n) => format!("pk_range_{n}"),
            Case::Covering(n) => format!("covering_{n}"),
            Case::NonCovering(n) => format!("noncovering_{n}"),
        }
    }
}

#[derive(Debug, Clone)]
pub struct EngineOptions {
    pub rows: u32,
    pub threads: Vec<usize>,
    pub seconds: f64,
    pub repeat: usize,
    pub cases: Vec<Case>,
    pub datadir: Option<PathBuf>,
    pub pool_bytes: usize,
    /// Instrumentation settings to measure with (see [`harness::Matrix`]).
    pub instrumentation: Vec<bool>,
}

impl Default for EngineOptions {
    fn default() -> Self {
        EngineOptions {
            rows: 1_000_000,
            threads: vec![1, 2, 4, 32],
            seconds: 2.0,
            repeat: 3,
            cases: Case::ALL.to_vec(),
            datadir: None,
            pool_bytes: 1 << 30,
            instrumentation: Vec::new(),
        }
    }
}

/// The loaded trees.
pub struct EngineData {
    pub store: Store,
    pub primary: BTree,
    pub index: BTree,
    pub rows: u32,
    _dir: harness::DataDir,
}

/// Makes the data: rows generated in id order, bulk-loaded into the primary
/// tree; (k, id) pairs sorted and bulk-loaded into the index tree.
pub fn prepare(opts: &EngineOptions, log: &mut dyn FnMut(&str)) -> anyhow::Result<EngineData> {
    let dir = harness::DataDir::new(&opts.datadir)?;
    let path = dir.fresh_file("engine.ldb")?;
    let t0 = Instant::now();
    let cfg = PoolConfig {
        pool_bytes: opts.pool_bytes,
        ..PoolConfig::default()
    };
    let store = Store::create(&path, cfg)?;
    let primary = store.create_tree("sbtest1")?;
    let index = store.create_tree("sbtest1.k_1")?;
    let mut pairs = Vec::with_capacity(opts.rows as usize);
    primary.bulk_load(sbtest::rows(opts.rows, 42).map(|r| {
        pairs.push((r.k, r.id));
        (r.id.to_be_bytes(), sbtest::primary_value(&r))
    }))?;
    pairs.sort_unstable();
    index.bulk_load(pairs.iter().map(|(k, id)| (index_key(*k, *id), [0u8; 0])))?;
    log(&format!(
        "loaded {} rows into {} ({} pages of {} KiB) in {:.1} s",
        opts.rows,
        path.display(),
        store.pool().stats().page_count,
        store.pool().page_size() / 1024,
        t0.elapsed().as_secs_f64()
    ));
    Ok(EngineData {
        store,
        primary,
        index,
        rows: opts.rows,
        _dir: dir,
    })
}

fn index_key(k: u32, id: u32) -> [u8; 8] {
    let mut key = [0u8; 8];
    key[..4].copy_from_slice(&k.to_be_bytes());
    key[4..].copy_from_slice(&id.to_be_bytes());
    key
}

struct CaseWorker<'a> {
    case: Case,
    data: &'a EngineData,
    rng: SmallRng,
    primary: Cursor<'a>,
    index: Cursor<'a>,
    value: Vec<u8>,
    ids: Vec<[u8; 4]>,
}

impl<'a> CaseWorker<'a> {
    fn new(case: Case, data: &'a EngineData, seed: u64) -> Self {
        CaseWorker {
            case,
            data,
            rng: SmallRng::seed_from_u64(seed),
            primary: data.primary.cursor(b""),
            index: data.index.cursor(b""),
            value: Vec::new(),
            ids: Vec::new(),
        }
    }

    fn scan(
        cursor: &mut Cursor<'_>,
        start: &[u8],
        n: usize,
        mut f: impl FnMut(&[u8], &[u8]),
    ) -> u64 {
        cursor.seek(start);
        let mut left = n;
        while left > 0 {
            let b = cursor.next_batch(left).expect("scan failed");
            if b.is_empty() {
                break;
            }
            for (k, v) in b.iter() {
                f(k, v);
            }
            left -= b.len();
        }
        (n - left) as u64
    }
}

impl Worker for CaseWorker<'_> {
    #[inline]
    fn op(&mut self) -> u64 {
        let n_rows = self.data.rows;
        match self.case {
            Case::Point => {
                let id: u32 = self.rng.gen_range(1..=n_rows);
                let found = self
                    .data
                    .primary
                    .get_into(&id.to_be_bytes(), &mut self.value)
                    .expect("lookup failed");
                black_box(found && self.value.len() > 4);
                1
            }
            Case::PkRange(n) => {
                let start: u32 = self
                    .rng
                    .gen_range(1..=n_rows.saturating_sub(n as u32).max(1));
                let mut sum = 0u64;
                let rows = Self::scan(&mut self.primary, &start.to_be_bytes(), n, |_, v| {
                    sum += u32::from_be_bytes(v[..4].try_into().unwrap()) as u64;
                });
                black_box(sum);
                rows
            }
            Case::Covering(n) => {
                let k: u32 = self.rng.gen_range(1..=n_rows);
                let mut sum = 0u64;
                let rows = Self::scan(&mut self.index, &index_key(k, 0), n, |key, _| {
                    sum += u32::from_be_bytes(key[4..8].try_into().unwrap()) as u64;
                });
                black_box(sum);
                rows
            }
            Case::NonCovering(n) => {
                let k: u32 = self.rng.gen_range(1..=n_rows);
                let ids = &mut self.ids;
                ids.clear();
                Self::scan(&mut self.index, &index_key(k, 0), n, |key, _| {
                    ids.push(key[4..8].try_into().unwrap());
                });
                ids.sort_unstable();
                let mut sum = 0u64;
                let mut rows = 0u64;
                self.data
                    .primary
                    .get_sorted(ids, |_, v| {
                        sum += (v.len() - 4) as u64;
                        rows += 1;
                    })
                    .expect("lookup failed");
                black_box(sum);
                rows
            }
        }
    }
}

/// Runs every case at every thread count, `repeat` times each.
pub fn run(opts: &EngineOptions, data: &EngineData, on_point: impl FnMut(&Point)) -> Vec<Point> {
    let matrix = harness::Matrix {
        experiment: "engine".into(),
        system: None,
        threads: opts.threads.clone(),
        seconds: opts.seconds,
        repeat: opts.repeat,
        instrumentation: opts.instrumentation.clone(),
    };
    let names: Vec<String> = opts.cases.iter().map(|c| c.name()).collect();
    matrix.run(
        &names,
        |ci, _t, seed| Box::new(CaseWorker::new(opts.cases[ci], data, seed)),
        on_point,
    )
}
