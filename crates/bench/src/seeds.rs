//! The experiments of the seeds, through the table layer (in-process).
//!
//! - `seed001-scans`: PK, covering and non-covering range scans of 10 and
//!   1000 rows on sbtest (the queries of ANCHORS.md).
//! - `seed000-q6`: TPC-H Q6, one-month variant, index plan vs table scan.
//! - `seed003-create-index`: three secondary indexes on lineitem in one
//!   statement, 1 and 2 build threads, instrumentation on and off.
//! - `seed004-cold-count`: COUNT(*) of a table several times larger than the
//!   pool, page cache dropped, against `dd`'s sequential read bandwidth.
use crate::embedded::Scan;
use crate::harness::{DataDir, Matrix, Worker};
use crate::report::{Measurement, Point};
use lineardb_load::{sbtest, tpch};
use lineardb_table::{Engine, EngineConfig, KeyRange, Table, Value};
use lineardb_txn::{ReadView, Reader};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use std::hint::black_box;
use std::ops::Bound;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

/// Options shared by the seed experiments.
#[derive(Debug, Clone)]
pub struct SeedOptions {
    pub threads: Vec<usize>,
    pub seconds: f64,
    pub repeat: usize,
    pub datadir: Option<PathBuf>,
    pub pool_bytes: usize,
    /// sbtest rows.
    pub rows: u32,
    /// TPC-H scale factor.
    pub sf: f64,
    /// Threads for loading and index builds.
    pub load_threads: usize,
    /// Cases to run (empty: all).
    pub cases: Vec<String>,
    /// Writer threads changing rows while the readers are measured
    /// (seed001-scans): each commits `UPDATE sbtest1 SET k = k + 1 WHERE
    /// id = ?` transactions on random rows, moving them in index k_1.
    pub writers: usize,
    /// seed001-scans: also run the scans on LMDB and SQLite (same rows).
    pub embedded: bool,
    /// Instrumentation settings to measure with (see [`Matrix`]).
    pub instrumentation: Vec<bool>,
}

impl SeedOptions {
    fn wants(&self, case: &str) -> bool {
        self.cases.is_empty() || self.cases.iter().any(|c| c == case)
    }
}

impl DataDir {
    /// A fresh data file in this directory (an old one is removed).
    pub fn fresh_engine(&self, file: &str, pool_bytes: usize) -> anyhow::Result<(Engine, PathBuf)> {
        let path = self.fresh_file(file)?;
        let engine = Engine::open(
            &path,
            EngineConfig {
                pool_bytes,
                ..EngineConfig::default()
            },
        )?;
        Ok((engine, path))
    }
}

fn matrix(name: &str, o: &SeedOptions) -> Matrix {
    Matrix {
        experiment: name.into(),
        system: None,
        threads: o.threads.clone(),
        seconds: o.seconds,
        repeat: o.repeat,
        instrumentation: o.instrumentation.clone(),
    }
}

// ---------------------------------------------------------------- seed 001

struct ScanWorker<'a> {
    table: &'a Table,
    /// Takes a snapshot per query, as a session does.
    reader: Reader,
    kind: Scan,
    n: i64,
    rows: i64,
    rng: SmallRng,
}

impl Worker for ScanWorker<'_> {
    fn op(&mut self) -> u64 {
        let x = self.rng.gen_range(1..=(self.rows - self.n + 1).max(1));
        let (lo, hi) = ([Value::Int(x)], [Value::Int(x + self.n - 1)]);
        // `id BETWEEN ? AND ?` on the primary key, `k BETWEEN ? AND ?` on k_1.
        let key = match self.kind {
            Scan::Pk => self.table.primary_key_types(),
            Scan::Covering | Scan::NonCovering => self.table.index_types(0),
        };
        let r = KeyRange::from_values(key, Bound::Included(&lo), Bound::Included(&hi));
        let mut rows = 0u64;
        let mut sum = 0i64;
        let view = self.reader.view(0);
        let scanned = match self.kind {
            // SELECT SUM(k) FROM sbtest1 WHERE id BETWEEN ? AND ?
            Scan::Pk => self.table.scan_primary(&view, &r, |_, row| {
                sum += row.int(1);
                rows += 1;
                true
            }),
            // SELECT SUM(id) FROM sbtest1 FORCE INDEX(k_1) WHERE k BETWEEN ? AND ?
            Scan::Covering => self.table.scan_index(&view, 0, &r, |e| {
                if let Some(Value::Int(id)) = e.column(0) {
                    sum += id;
                }
                rows += 1;
                true
            }),
            // SELECT SUM(LENGTH(c)) FROM sbtest1 FORCE INDEX(k_1) WHERE k BETWEEN ? AND ?
            Scan::NonCovering => self.table.scan_index_rows(&view, 0, &r, |row| {
                sum += row.bytes(2).len() as i64;
                rows += 1;
                true
            }),
        };
        scanned.expect("scan");
        black_box(sum);
        rows
    }
}

/// sbtest with `rows` rows and index k_1.
pub fn load_sbtest(
    o: &SeedOptions,
    dir: &DataDir,
    log: &mut dyn FnMut(&str),
) -> anyhow::Result<(Engine, Arc<Table>)> {
    let t0 = Instant::now();
    let (engine, _) = dir.fresh_engine("sbtest.ldb", o.pool_bytes)?;
    let table = sbtest::load(
        &engine,
        "sbtest",
        "sbtest1",
        o.rows,
        o.load_threads,
        SBTEST_SEED,
    )?;
    log(&format!(
        "loaded sbtest1: {} rows with index k_1 in {:.1} s",
        o.rows,
        t0.elapsed().as_secs_f64()
    ));
    Ok((engine, table))
}

/// The seed of the sbtest rows every system of seed 001 loads.
const SBTEST_SEED: u64 = 42;

pub fn seed001_scans(
    o: &SeedOptions,
    log: &mut dyn FnMut(&str),
    mut on_point: impl FnMut(&Point),
) -> anyhow::Result<Vec<Point>> {
    let dir = DataDir::new(&o.datadir)?;
    let (engine, table) = load_sbtest(o, &dir, log)?;
    let kinds = [
        (Scan::Pk, "pk"),
        (Scan::Covering, "covering"),
        (Scan::NonCovering, "noncovering"),
    ];
    let mut cases = Vec::new();
    let mut names = Vec::new();
    for n in [10i64, 1000] {
        for (k, name) in kinds {
            let case = format!("{name}_{n}");
            if o.wants(&case) {
                cases.push((k, n));
                names.push(case);
            }
        }
    }
    let stop = lineardb_sync::SharedFlag::new(false);
    let committed = lineardb_sync::SharedWord::new(0);
    let older0 = lineardb_sync::thread_slot::counter_total(lineardb_sync::Counter::OlderVersions);
    let points = std::thread::scope(|s| {
        for w in 0..o.writers {
            let (engine, table, stop, committed) = (&engine, &table, &stop, &committed);
            s.spawn(move || {
                let mut rng = SmallRng::seed_from_u64(1000 + w as u64);
                let mut n = 0;
                while !stop.get() {
                    let id = rng.gen_range(1..=o.rows as i64);
                    let pk = table.encode_primary_key(&[Value::Int(id)]).expect("key");
                    let mut txn = engine.begin();
                    let Ok(Some(row)) = table.lock_row(&mut txn, &pk) else {
                        continue; // a lock wait timed out: try another row
                    };
                    let Value::Int(k) = row[1] else {
                        panic!("k is an INT");
                    };
                    table
                        .update_row(
                            &mut txn,
                            &pk,
                            &row,
                            vec![None, Some(Value::Int(k + 1)), None, None],
                        )
                        .expect("update");
                    txn.commit().expect("commit");
                    n += 1;
                }
                committed.fetch_add(n);
            });
        }
        let points = scan_points(o, &engine, &table, &names, &cases, &mut on_point);
        stop.set(true);
        points
    });
    if o.writers > 0 {
        let older =
            lineardb_sync::thread_slot::counter_total(lineardb_sync::Counter::OlderVersions)
                - older0;
        log(&format!(
            "{} writer threads committed {} transactions during the runs; readers looked up {} older row versions",
            o.writers,
            committed.load(),
            older
        ));
    }
    engine.close()?;
    let mut points = points;
    if o.embedded {
        let cases: Vec<(String, Scan, u32)> = (names.iter().zip(&cases))
            .map(|(name, &(k, n))| (name.clone(), k, n as u32))
            .collect();
        points.extend(crate::embedded::seed001_scans(
            &matrix("seed001-scans", o),
            &dir.path,
            o.rows,
            SBTEST_SEED,
            &cases,
            log,
            on_point,
        )?);
    }
    Ok(points)
}

fn scan_points(
    o: &SeedOptions,
    engine: &Engine,
    table: &Table,
    names: &[String],
    cases: &[(Scan, i64)],
    on_point: impl FnMut(&Point),
) -> Vec<Point> {
    let mut m = matrix("seed001-scans", o);
    if o.embedded {
        m.system = Some("lineardb".into());
    }
    m.run(
        names,
        |ci, _t, seed| {
            let (kind, n) = cases[ci];
            Box::new(ScanWorker {
                table,
                reader: engine.reader().expect("a reader slot"),
                kind,
                n,
                rows: o.rows as i64,
                rng: SmallRng::seed_from_u64(seed),
            })
        },
        on_point,
    )
}

// ---------------------------------------------------------------- seed 000

/// lineitem at `o.sf` with an index on l_shipdate.
pub fn load_lineitem(
    o: &SeedOptions,
    dir: &DataDir,
    indexes: bool,
    log: &mut dyn FnMut(&str),
) -> anyhow::Result<(Engine, Arc<Table>, PathBuf)> {
    let t0 = Instant::now();
    let (engine, path) = dir.fresh_engine("tpch.ldb", o.pool_bytes)?;
    // About 6M rows per unit of scale factor (TPC-H: 1.5M orders of 1-7 lines).
    let bar = crate::progress::rows((6_000_000.0 * o.sf) as u64, "loading lineitem");
    let table = tpch::load_lineitem(&engine, "tpch", o.sf, o.load_threads, &|n| {
        bar.set_position(n)
    })?;
    bar.finish_and_clear();
    log(&format!(
        "loaded lineitem SF {}: {} rows in {:.1} s",
        o.sf,
        table.count(&ReadView::latest(), o.load_threads)?,
        t0.elapsed().as_secs_f64()
    ));
    if !indexes {
        return Ok((engine, table, path));
    }
    let t1 = Instant::now();
    let (table, _) = engine.create_indexes(
        "tpch",
        "lineitem",
        &[("i_l_shipdate".into(), vec!["l_shipdate".into()], false)],
        o.load_threads,
        &|_| {},
    )?;
    log(&format!(
        "built index on l_shipdate in {:.1} s",
        t1.elapsed().as_secs_f64()
    ));
    Ok((engine, table, path))
}

const L_QUANTITY: usize = 4;
const L_EXTENDEDPRICE: usize = 5;
const L_DISCOUNT: usize = 6;
const L_SHIPDATE: usize = 10;

/// Q6 for the month starting at `first` (days since 1970), by the index on
/// l_shipdate (`index = true`) or a table scan. Returns revenue * 10^4.
pub fn q6_month(table: &Table, view: &ReadView, first: i32, next: i32, index: bool) -> i128 {
    let mut revenue: i128 = 0;
    let mut add = |row: lineardb_table::RowRef<'_>| {
        // DECIMAL(15,2) columns: an i128 each.
        let cents = |c| row.decimal(c).unwrap_or_default();
        let disc = cents(L_DISCOUNT);
        if (4..=6).contains(&disc) && cents(L_QUANTITY) < 2500 {
            revenue += cents(L_EXTENDEDPRICE) * disc;
        }
    };
    if index {
        let r = KeyRange::from_values(
            table.index_types(0),
            Bound::Included(&[Value::Date(first)]),
            Bound::Excluded(&[Value::Date(next)]),
        );
        table
            .scan_index_rows_unordered(view, 0, &r, |row| {
                add(row);
                true
            })
            .expect("scan");
    } else {
        table
            .scan_primary(view, &KeyRange::all(), |_, row| {
                let d = row.int(L_SHIPDATE) as i32;
                if d >= first && d < next {
                    add(row);
                }
                true
            })
            .expect("scan");
    }
    revenue
}

fn month_bounds(year: i32, month: u32) -> (i32, i32) {
    let first = lineardb_table::types::days_from_civil(year, month, 1);
    let next = if month == 12 {
        lineardb_table::types::days_from_civil(year + 1, 1, 1)
    } else {
        lineardb_table::types::days_from_civil(year, month + 1, 1)
    };
    (first, next)
}

struct Q6Worker<'a> {
    table: &'a Table,
    reader: Reader,
    index: bool,
    rng: SmallRng,
}

impl Worker for Q6Worker<'_> {
    fn op(&mut self) -> u64 {
        let (first, next) =
            month_bounds(self.rng.gen_range(1993..=1997), self.rng.gen_range(1..=12));
        let view = self.reader.view(0);
        black_box(q6_month(self.table, &view, first, next, self.index));
        1
    }
}

pub fn seed000_q6(
    o: &SeedOptions,
    log: &mut dyn FnMut(&str),
    on_point: impl FnMut(&Point),
) -> anyhow::Result<Vec<Point>> {
    let dir = DataDir::new(&o.datadir)?;
    let (engine, table, _) = load_lineitem(o, &dir, true, log)?;
    let (first, next) = month_bounds(1997, 1);
    let view = engine.snapshot()?;
    let by_index = q6_month(&table, &view, first, next, true);
    let by_scan = q6_month(&table, &view, first, next, false);
    drop(view);
    log(&format!(
        "Q6 1997-01: index plan {} / table scan {} (at SF 1 the answer is 9584789.4683)",
        lineardb_table::Dec::new(by_index, 4),
        lineardb_table::Dec::new(by_scan, 4)
    ));
    anyhow::ensure!(by_index == by_scan, "index plan and table scan disagree");
    let names: Vec<String> = ["index", "table_scan"]
        .into_iter()
        .filter(|c| o.wants(c))
        .map(String::from)
        .collect();
    let mut on_point = on_point;
    let mut m = matrix("seed000-q6", o);
    if o.embedded {
        m.system = Some("lineardb".into());
    }
    let mut points = m.run(
        &names,
        |ci, _t, seed| {
            Box::new(Q6Worker {
                table: &table,
                reader: engine.reader().expect("a reader slot"),
                index: names[ci] == "index",
                rng: SmallRng::seed_from_u64(seed),
            })
        },
        &mut on_point,
    );
    if o.embedded {
        // The same rows in SQLite, the same months, the same arithmetic.
        let t0 = Instant::now();
        let view = engine.snapshot()?;
        let sqlite =
            crate::embedded::SqliteLineitem::load(&dir.path.join("sqlite"), &table, &view)?;
        drop(view);
        log(&format!(
            "sqlite: copied lineitem and built i_l_shipdate in {:.1} s",
            t0.elapsed().as_secs_f64()
        ));
        let conn = sqlite.connect()?;
        for index in [true, false] {
            let got = crate::embedded::sqlite_q6(&conn, first, next, index)?;
            anyhow::ensure!(got == by_index, "SQLite Q6 {got} != lineardb {by_index}");
        }
        drop(conn);
        let m = Matrix {
            system: Some("sqlite".into()),
            ..matrix("seed000-q6", o)
        };
        points.extend(m.run(
            &names,
            |ci, _t, seed| {
                Box::new(SqliteQ6Worker {
                    conn: sqlite.connect().expect("a SQLite connection"),
                    index: names[ci] == "index",
                    rng: SmallRng::seed_from_u64(seed),
                })
            },
            &mut on_point,
        ));
    }
    engine.close()?;
    Ok(points)
}

/// Q6 of a random month in SQLite (see [`Q6Worker`]).
struct SqliteQ6Worker {
    conn: rusqlite::Connection,
    index: bool,
    rng: SmallRng,
}

impl Worker for SqliteQ6Worker {
    fn op(&mut self) -> u64 {
        let (first, next) =
            month_bounds(self.rng.gen_range(1993..=1997), self.rng.gen_range(1..=12));
        black_box(
            crate::embedded::sqlite_q6(&self.conn, first, next, self.index).expect("SQLite Q6"),
        );
        1
    }
}

// ---------------------------------------------------------------- seed 003

fn single_point(
    experiment: &str,
    case: &str,
    threads: usize,
    ops_per_s: f64,
    extra: &[(&str, f64)],
) -> Point {
    Point {
        experiment: experiment.into(),
        system: None,
        case: case.into(),
        threads,
        ratio_to_1_thread: None,
        m: Measurement {
            runs: 1,
            ops_per_s,
            ops_per_s_min: ops_per_s,
            ops_per_s_max: ops_per_s,
            rows_per_s: 0.0,
            cpu_us_per_op: 0.0,
            shared_writes_per_row: None,
            shared_writes_per_op: None,
        },
        extra: extra.iter().map(|(k, v)| (k.to_string(), *v)).collect(),
    }
}

pub fn seed003_create_index(
    o: &SeedOptions,
    log: &mut dyn FnMut(&str),
    mut on_point: impl FnMut(&Point),
) -> anyhow::Result<Vec<Point>> {
    let dir = DataDir::new(&o.datadir)?;
    let (engine, table, _) = load_lineitem(o, &dir, false, log)?;
    let rows = table.count(&ReadView::latest(), o.load_threads)? as f64;
    drop(table);
    let specs: Vec<(String, Vec<String>, bool)> = ["l_shipdate", "l_partkey", "l_suppkey"]
        .iter()
        .map(|c| (format!("i_{c}"), vec![c.to_string()], false))
        .collect();
    // The builds per (threads, instrumentation on); the two settings of one
    // repeat are built one after the other, so the i-th of each make a pair.
    let mut builds: std::collections::BTreeMap<(usize, bool), Vec<Build>> = Default::default();
    let threads: Vec<usize> = o.threads.clone();
    // One untimed build first: the first build also pays for faulting in
    // the pool's memory, which later builds reuse.
    {
        let t0 = Instant::now();
        drop(engine.create_indexes("tpch", "lineitem", &specs, o.load_threads, &|_| {})?);
        for (name, _, _) in &specs {
            engine.drop_index("tpch", "lineitem", name)?;
        }
        log(&format!(
            "  warm-up build: {:.2} s",
            t0.elapsed().as_secs_f64()
        ));
    }
    // Always both settings: instrumentation on (index 0) and off (1), or
    // the control (`--instrumentation on,on`: "off" kept on).
    let asked = crate::harness::Settings::new(&o.instrumentation);
    let settings = if asked.is_control() {
        asked
    } else {
        crate::harness::Settings::new(&[true, false])
    };
    for rep in 0..o.repeat.max(1) {
        for &t in &threads {
            for mi in settings.order(rep) {
                let instr = settings.get(mi) == Some(true);
                let (secs, cpu, events, table, stats) = {
                    let _switched = settings.switch(mi);
                    let events0 = wait_events();
                    let cpu0 = crate::harness::process_cpu_seconds();
                    let t0 = Instant::now();
                    let (table, stats) =
                        engine.create_indexes("tpch", "lineitem", &specs, t, &|_| {})?;
                    let secs = t0.elapsed().as_secs_f64();
                    let cpu = crate::harness::process_cpu_seconds() - cpu0;
                    (secs, cpu, wait_events() - events0, table, stats)
                };
                log(&format!(
                    "  {t} thread(s), instrumentation {}: {secs:.2} s (scan+sort {:.2} s, merge+load {:.2} s)",
                    if instr { "on" } else { "off" },
                    stats.scan_sort_seconds,
                    stats.merge_load_seconds
                ));
                builds.entry((t, instr)).or_default().push(Build {
                    seconds: secs,
                    cpu_seconds: cpu,
                    wait_events: events as f64,
                });
                drop(table);
                for (name, _, _) in &specs {
                    engine.drop_index("tpch", "lineitem", name)?;
                }
            }
        }
    }
    let mut points = Vec::new();
    let median_of = |v: &[Build], f: fn(&Build) -> f64| {
        crate::stats::median(&mut v.iter().map(f).collect::<Vec<f64>>())
    };
    let one = builds.get(&(1, true)).map(|v| median_of(v, |b| b.seconds));
    for ((t, instr), v) in builds.iter() {
        let secs = median_of(v, |b| b.seconds);
        let cpu = median_of(v, |b| b.cpu_seconds);
        let mut p = single_point(
            "seed003-create-index",
            &settings.case("create_index", usize::from(!*instr)),
            *t,
            1.0 / secs,
            &[
                ("seconds", secs),
                ("cpu_seconds", cpu),
                ("rows_per_s_built", rows * 3.0 / secs),
                ("wait_events_per_build", median_of(v, |b| b.wait_events)),
            ],
        );
        p.m.runs = v.len();
        p.m.cpu_us_per_op = cpu * 1e6;
        if let (true, Some(off)) = (*instr, builds.get(&(*t, false))) {
            // Paired builds: on / off as throughput (off's time over on's),
            // and CPU with it on over CPU with it off.
            let mut speed: Vec<f64> = v
                .iter()
                .zip(off)
                .map(|(on, off)| off.seconds / on.seconds)
                .collect();
            let mut cpu: Vec<f64> = v
                .iter()
                .zip(off)
                .map(|(on, off)| on.cpu_seconds / off.cpu_seconds)
                .collect();
            if let Some((m, low, high)) = crate::stats::median_interval(&mut speed) {
                p.extra.insert("on_off_pairs".into(), m);
                p.extra.insert("on_off_low".into(), low);
                p.extra.insert("on_off_high".into(), high);
                p.extra.insert("pairs".into(), speed.len() as f64);
            }
            p.extra
                .insert("cpu_on_over_off".into(), crate::stats::median(&mut cpu));
        }
        p.ratio_to_1_thread = one.map(|o| o / secs);
        // Index entries written per second (three per row): the chart's
        // throughput.
        p.m.rows_per_s = rows * 3.0 / secs;
        on_point(&p);
        points.push(p);
    }
    engine.close()?;
    Ok(points)
}

/// One timed CREATE INDEX of seed 003.
struct Build {
    seconds: f64,
    cpu_seconds: f64,
    /// Wait events and restarts recorded while it ran.
    wait_events: f64,
}

/// Wait events and restarts recorded so far, all classes and threads.
fn wait_events() -> u64 {
    lineardb_sync::wait::summary()
        .iter()
        .map(|(_, w)| w.waits + w.restarts)
        .sum()
}

// ---------------------------------------------------------------- seed 004

/// Drops a file's pages from the OS page cache.
pub(crate) fn drop_page_cache(path: &Path) -> std::io::Result<()> {
    use std::os::unix::io::AsRawFd;
    let f = std::fs::File::open(path)?;
    f.sync_all()?;
    // SAFETY: plain integer arguments on a valid descriptor.
    unsafe { libc::posix_fadvise(f.as_raw_fd(), 0, 0, libc::POSIX_FADV_DONTNEED) };
    Ok(())
}

/// Sequential read bandwidth of `path` with `dd` (O_DIRECT), bytes/s.
fn dd_bandwidth(path: &Path) -> anyhow::Result<f64> {
    drop_page_cache(path)?;
    let len = std::fs::metadata(path)?.len() as f64;
    let t0 = Instant::now();
    let out = std::process::Command::new("dd")
        .arg(format!("if={}", path.display()))
        .args(["of=/dev/null", "bs=1M", "iflag=direct"])
        .output()?;
    anyhow::ensure!(
        out.status.success(),
        "dd failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    Ok(len / t0.elapsed().as_secs_f64())
}

pub fn seed004_cold_count(
    o: &SeedOptions,
    log: &mut dyn FnMut(&str),
    mut on_point: impl FnMut(&Point),
) -> anyhow::Result<Vec<Point>> {
    let dir = DataDir::new(&o.datadir)?;
    let path = {
        let (engine, path) = dir.fresh_engine("cold.ldb", 2 << 30)?;
        let t0 = Instant::now();
        sbtest::load_rows(&engine, "sbtest", "sbtest1", o.rows, 42)?;
        engine.close()?;
        log(&format!(
            "loaded {} rows in {:.1} s",
            o.rows,
            t0.elapsed().as_secs_f64()
        ));
        path
    };
    let file_bytes = std::fs::metadata(&path)?.len() as f64;
    log(&format!(
        "data file {:.0} MiB, pool {:.0} MiB",
        file_bytes / 1048576.0,
        o.pool_bytes as f64 / 1048576.0
    ));
    let modes = crate::harness::Settings::new(&o.instrumentation);
    // Seconds per (setting, threads).
    let mut results: std::collections::BTreeMap<(usize, usize), Vec<f64>> = Default::default();
    let mut dd = Vec::new();
    for rep in 0..o.repeat.max(1) {
        dd.push(dd_bandwidth(&path)?);
        for &t in &o.threads {
            for mi in modes.order(rep) {
                let _switched = modes.switch(mi);
                drop_page_cache(&path)?;
                let engine = Engine::open(
                    &path,
                    EngineConfig {
                        pool_bytes: o.pool_bytes,
                        ..EngineConfig::default()
                    },
                )?;
                let table = engine.table("sbtest", "sbtest1")?;
                let t0 = Instant::now();
                let n = table.count(&engine.snapshot()?, t)?;
                let secs = t0.elapsed().as_secs_f64();
                anyhow::ensure!(n == o.rows as u64, "count {n} != {}", o.rows);
                results.entry((mi, t)).or_default().push(secs);
                drop(table);
                drop(engine);
            }
        }
    }
    let dd_bw = crate::stats::median(&mut dd);
    log(&format!(
        "dd (O_DIRECT, 1 MiB blocks): {:.0} MiB/s",
        dd_bw / 1048576.0
    ));
    let mut points = Vec::new();
    for mi in 0..modes.len() {
        let one = results
            .get(&(mi, 1))
            .map(|v| crate::stats::median(&mut v.clone()));
        let case = modes.case("count_star", mi);
        for ((_, t), v) in results.iter_mut().filter(|((m, _), _)| *m == mi) {
            let secs = crate::stats::median(v);
            let bw = file_bytes / secs;
            let mut p = single_point(
                "seed004-cold-count",
                &case,
                *t,
                1.0 / secs,
                &[
                    ("seconds", secs),
                    ("mib_per_s", bw / 1048576.0),
                    ("dd_mib_per_s", dd_bw / 1048576.0),
                    ("share_of_dd", bw / dd_bw),
                ],
            );
            p.m.rows_per_s = o.rows as f64 / secs;
            p.ratio_to_1_thread = one.map(|o| o / secs);
            modes.mark(&mut p, mi);
            on_point(&p);
            points.push(p);
        }
    }
    Ok(points)
}
