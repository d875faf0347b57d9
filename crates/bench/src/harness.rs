//! Runs a workload on N threads for a fixed time and measures it: operations
//! and rows per second, CPU time per operation (getrusage of the process) and,
//! in an `audit` build, shared writes per row and per operation.
//!
//! Each worker counts in locals and returns its totals when stopped; the only
//! shared word a worker touches is the stop flag, which it only reads.
use crate::run_result::RunResult;
use crate::stats::{median, median_interval};
use lineardb_sync::{audit, SharedFlag};
use std::sync::Barrier;
use std::time::{Duration, Instant};

/// Process CPU time (user + system) in seconds.
pub fn process_cpu_seconds() -> f64 {
    // SAFETY: getrusage writes into the zeroed struct we pass; no other effect.
    let mut u: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: as above; RUSAGE_SELF is always valid.
    unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut u) };
    let tv = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 / 1e6;
    tv(u.ru_utime) + tv(u.ru_stime)
}

/// A worker: `op()` does one operation and returns the rows it touched.
pub trait Worker: Send {
    fn op(&mut self) -> u64;
}

impl Worker for Box<dyn Worker + '_> {
    #[inline]
    fn op(&mut self) -> u64 {
        (**self).op()
    }
}

/// What a thread-scaling experiment runs: named cases, thread counts, and
/// how long and how often.
#[derive(Debug, Clone)]
pub struct Matrix {
    pub experiment: String,
    /// The system measured, when the experiment compares several: points
    /// carry it and their case names start with it.
    pub system: Option<String>,
    pub threads: Vec<usize>,
    pub seconds: f64,
    pub repeat: usize,
    /// Instrumentation settings to measure each point with (waits, hot
    /// pages, digests: [`lineardb_sync::wait::set_enabled`]), alternated
    /// within each repeat; empty: leave it as it is. With both, points
    /// measured with it off get [`INSTRUMENTATION_OFF`] after their case.
    pub instrumentation: Vec<bool>,
}

/// What a case measured with the instrumentation off is called after its
/// name, when the experiment measures both settings.
pub const INSTRUMENTATION_OFF: &str = ", instrumentation off";

/// What a case measured as "off" in a control run
/// ([`Settings::new`] with `on,on`) is called after its name.
pub const INSTRUMENTATION_CONTROL: &str = ", instrumentation on (control)";

/// The instrumentation settings an experiment measures each point with
/// (`--instrumentation on,off`); a single "as it is" when none was asked.
/// `on,on` asks for a control: measured exactly as `on,off`, but the
/// slices and runs marked off keep the instrumentation on, so that their
/// ratio shows the spread the method gives with nothing to find.
#[derive(Debug, Clone)]
pub struct Settings {
    settings: Vec<Option<bool>>,
    control: bool,
}

impl Settings {
    pub fn new(asked: &[bool]) -> Settings {
        let control = asked == [true, true];
        let settings = if asked.is_empty() {
            vec![None]
        } else if control {
            vec![Some(true), Some(false)]
        } else {
            asked.iter().map(|&on| Some(on)).collect()
        };
        Settings { settings, control }
    }

    /// What the switch is set to for a slice or run marked `on`.
    pub fn switch_value(&self, on: bool) -> bool {
        on || self.control
    }

    pub fn len(&self) -> usize {
        self.settings.len()
    }

    pub fn is_empty(&self) -> bool {
        self.settings.is_empty()
    }

    /// Setting `i`: on, off (in a control: marked off), or None (left as
    /// it is).
    pub fn get(&self, i: usize) -> Option<bool> {
        self.settings[i]
    }

    /// The settings in the order repeat `rep` runs them: in turn, starting
    /// with a different one each repeat, so that drift of the machine
    /// favours none.
    pub fn order(&self, rep: usize) -> impl Iterator<Item = usize> + '_ {
        (0..self.len()).map(move |k| (k + rep) % self.len())
    }

    /// Case `case` as measured with setting `i`.
    pub fn case(&self, case: &str, i: usize) -> String {
        match self.settings[i] {
            Some(false) if self.control => format!("{case}{INSTRUMENTATION_CONTROL}"),
            Some(false) if self.len() > 1 => format!("{case}{INSTRUMENTATION_OFF}"),
            _ => case.to_string(),
        }
    }

    /// The indexes of the settings on and off, when both are asked for.
    pub fn on_off(&self) -> Option<(usize, usize)> {
        let on = self.settings.iter().position(|&s| s == Some(true))?;
        let off = self.settings.iter().position(|&s| s == Some(false))?;
        Some((on, off))
    }

    /// Whether this is a control (`on,on`).
    pub fn is_control(&self) -> bool {
        self.control
    }

    /// Marks point `p` with setting `i` (`instrumentation` = 1 or 0, and
    /// `control` = 1 in a control).
    pub fn mark(&self, p: &mut crate::report::Point, i: usize) {
        if let Some(on) = self.settings[i] {
            p.extra
                .insert("instrumentation".into(), if on { 1.0 } else { 0.0 });
        }
        if self.control {
            p.extra.insert("control".into(), 1.0);
        }
    }

    /// Switches this process's instrumentation to setting `i` until the
    /// guard is dropped (then it is as it was).
    pub fn switch(&self, i: usize) -> SwitchGuard {
        let guard = SwitchGuard(lineardb_sync::wait::enabled());
        if let Some(on) = self.settings[i] {
            lineardb_sync::wait::set_enabled(self.switch_value(on));
        }
        guard
    }
}

/// Puts the instrumentation back as it was when dropped.
pub struct SwitchGuard(bool);

impl Drop for SwitchGuard {
    fn drop(&mut self) {
        lineardb_sync::wait::set_enabled(self.0);
    }
}

impl Matrix {
    /// Runs each case at each thread count, `repeat` times, interleaving the
    /// repeats across thread counts (1, 2, 4, 1, 2, 4, ...), so that drift
    /// of a noisy machine does not favour one of them. With the
    /// instrumentation both on and off, each run switches it every slice
    /// ([`run_alternating`], twice `seconds` long: the time of the two
    /// separate runs), unless the case's operations are too long for
    /// [`MIN_PAIRS`] pairs of slices; then the settings get separate runs in
    /// turn.
    /// `make(case, thread, seed)` makes a worker.
    pub fn run<'a>(
        &self,
        cases: &[String],
        make: impl Fn(usize, usize, u64) -> Box<dyn Worker + 'a> + Sync,
        mut on_point: impl FnMut(&crate::report::Point),
    ) -> Vec<crate::report::Point> {
        let modes = Settings::new(&self.instrumentation);
        let mut points = Vec::new();
        let total = cases.len() * self.repeat.max(1) * self.threads.len() * modes.len();
        let bar = crate::progress::runs(total as u64, &self.experiment);
        for (ci, case) in cases.iter().enumerate() {
            let mut runs: Vec<Vec<Vec<RunResult>>> =
                vec![vec![Vec::new(); self.threads.len()]; modes.len()];
            // Per thread count, when alternating: the slices (length and
            // pairs, or None: separate runs) and what the runs gave.
            let mut plans: Vec<Option<Option<(Duration, usize)>>> = vec![None; self.threads.len()];
            let mut alternated: Vec<Vec<Alternated>> = vec![Vec::new(); self.threads.len()];
            for rep in 0..self.repeat.max(1) {
                for (i, &threads) in self.threads.iter().enumerate() {
                    let seed = |t: usize| (rep * 1000 + t) as u64 + 1;
                    if let Some((on, off)) = modes.on_off() {
                        let plan = *plans[i].get_or_insert_with(|| {
                            // A short unmeasured run tells how long one
                            // operation takes (and warms the caches).
                            let probe = run(threads, Duration::from_millis(300), |t| {
                                make(ci, t, seed(t))
                            });
                            let op_seconds =
                                probe.seconds * threads as f64 / probe.ops.max(1) as f64;
                            slice_plan(op_seconds, SLICE, self.seconds)
                        });
                        if let Some((slice, pairs)) = plan {
                            // Puts the switch back as it was afterwards.
                            let _restore = modes.switch(on);
                            let settings = slice_settings(pairs, seed(threads));
                            let a = run_alternating(threads, &modes, &settings, slice, |t| {
                                make(ci, t, seed(t))
                            });
                            runs[on][i].push(a.on);
                            runs[off][i].push(a.off);
                            alternated[i].push(a);
                            bar.inc(modes.len() as u64);
                            continue;
                        }
                    }
                    for mi in modes.order(rep) {
                        let _switched = modes.switch(mi);
                        runs[mi][i].push(run(
                            threads,
                            Duration::from_secs_f64(self.seconds),
                            |t| make(ci, t, seed(t)),
                        ));
                        bar.inc(1);
                    }
                }
            }
            for (mi, runs) in runs.iter().enumerate() {
                let mut one_thread: Option<f64> = None;
                let name = modes.case(case, mi);
                for (i, &threads) in self.threads.iter().enumerate() {
                    let m = crate::report::Measurement::from_runs(&runs[i]);
                    if threads == 1 {
                        one_thread = Some(m.ops_per_s);
                    }
                    let mut p = crate::report::Point {
                        experiment: self.experiment.clone(),
                        system: self.system.clone(),
                        case: match &self.system {
                            Some(s) => format!("{s} {name}"),
                            None => name.clone(),
                        },
                        threads,
                        ratio_to_1_thread: one_thread.map(|b| m.ops_per_s / b),
                        m,
                        extra: Default::default(),
                    };
                    modes.mark(&mut p, mi);
                    if modes.get(mi) == Some(true) {
                        mark_alternated(&mut p, &alternated[i]);
                    }
                    bar.suspend(|| on_point(&p));
                    points.push(p);
                }
            }
        }
        bar.finish_and_clear();
        points
    }
}

/// Puts on the point measured with the instrumentation on what the
/// alternating runs of it gave, when there were any: `on_off`, the median
/// over the runs of each run's on / off; `on_off_pairs` with
/// `on_off_low`..`on_off_high`, the median of the pair ratios of all runs
/// and its 95% interval; `pairs`, how many; `rows_on_off_pairs` with
/// `rows_on_off_low`..`rows_on_off_high`, the same for rows read per second
/// ([`Alternated::row_pair_ratios`]) when the slices counted rows.
pub fn mark_alternated(p: &mut crate::report::Point, runs: &[Alternated]) {
    if runs.is_empty() {
        return;
    }
    let mut ratios: Vec<f64> = runs.iter().map(Alternated::ratio).collect();
    p.extra.insert("on_off".into(), median(&mut ratios));
    let mut mark = |prefix: &str, ratios: &mut Vec<f64>| {
        if let Some((m, low, high)) = median_interval(ratios) {
            p.extra.insert(format!("{prefix}on_off_pairs"), m);
            p.extra.insert(format!("{prefix}on_off_low"), low);
            p.extra.insert(format!("{prefix}on_off_high"), high);
        }
    };
    let mut pair_ratios: Vec<f64> = runs
        .iter()
        .flat_map(|a| a.pair_ratios.iter().copied())
        .collect();
    mark("", &mut pair_ratios);
    let mut row_ratios: Vec<f64> = runs
        .iter()
        .flat_map(|a| a.row_pair_ratios.iter().copied())
        .collect();
    mark("rows_", &mut row_ratios);
    if !pair_ratios.is_empty() {
        p.extra.insert("pairs".into(), pair_ratios.len() as f64);
    }
}

/// Runs `threads` workers made by `make(thread_index)` for `duration`.
pub fn run<W, F>(threads: usize, duration: Duration, make: F) -> RunResult
where
    W: Worker,
    F: Fn(usize) -> W + Sync,
{
    let stop = SharedFlag::new(false);
    let barrier = Barrier::new(threads + 1);
    std::thread::scope(|s| {
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                let (stop, barrier, make) = (&stop, &barrier, &make);
                s.spawn(move || {
                    let mut w = make(t);
                    barrier.wait();
                    let writes0 = audit::thread_total();
                    let start = Instant::now();
                    let (mut ops, mut rows) = (0u64, 0u64);
                    // The flag is checked after every operation: slow ones (a
                    // table scan) must not run on long past the end. It is a
                    // line nobody writes until the end, so the check stays in
                    // this core's cache.
                    while !stop.get() {
                        rows += w.op();
                        ops += 1;
                    }
                    let end = Instant::now();
                    (ops, rows, start, end, audit::thread_total() - writes0)
                })
            })
            .collect();
        let cpu0 = process_cpu_seconds();
        barrier.wait();
        std::thread::sleep(duration);
        stop.set(true);
        let mut r = RunResult::default();
        // The measured window runs from the first worker's start to the last
        // worker's stop: with more threads than cores this thread may be
        // scheduled late, so its own clock readings would be wrong.
        let mut first: Option<Instant> = None;
        let mut last: Option<Instant> = None;
        for h in handles {
            let (ops, rows, start, end, writes) = h.join().expect("worker panicked");
            r.ops += ops;
            r.rows += rows;
            r.shared_writes += writes;
            first = Some(first.map_or(start, |f| f.min(start)));
            last = Some(last.map_or(end, |l| l.max(end)));
        }
        r.seconds = match (first, last) {
            (Some(f), Some(l)) => (l - f).as_secs_f64(),
            _ => duration.as_secs_f64(),
        };
        r.cpu_seconds = process_cpu_seconds() - cpu0;
        r
    })
}

/// One slice of a run in which the instrumentation was switched on and off
/// in turn ([`run_alternating`], and the server runs of `sysbench`).
#[derive(Debug, Clone, Copy, Default)]
pub struct Slice {
    pub on: bool,
    pub ops: u64,
    pub rows: u64,
    pub seconds: f64,
    pub cpu_seconds: f64,
    pub shared_writes: u64,
}

/// How long a slice of an alternating run lasts at least in process: long
/// against one operation (see [`slice_plan`]) and short against the drift
/// of a shared machine, which then moves both settings alike.
pub const SLICE: Duration = Duration::from_millis(200);

/// Pairs of slices at least in an alternating run; a case whose operations
/// are too long for that many is measured in separate runs per setting
/// instead.
pub const MIN_PAIRS: usize = 5;

/// The slices of an alternating run worth `seconds` per setting, for
/// operations of `op_seconds` each (per worker): their length — at least
/// `shortest`, and 50 operations per worker, so that the operations that
/// straddle a switch (counted where they end) are a small share — and how
/// many pairs fit; None when fewer than [`MIN_PAIRS`] do.
pub fn slice_plan(op_seconds: f64, shortest: Duration, seconds: f64) -> Option<(Duration, usize)> {
    let slice = shortest.max(Duration::from_secs_f64(50.0 * op_seconds));
    let pairs = (seconds / slice.as_secs_f64()) as usize;
    (pairs >= MIN_PAIRS).then_some((slice, pairs))
}

/// The settings (on: true) of the slices of an alternating run: pairs of
/// one slice on and one off, each pair in an order drawn from `seed`. A
/// fixed order would let anything periodic on the machine (a task once a
/// second against slices of half a second) fall on one setting every time.
pub fn slice_settings(pairs: usize, seed: u64) -> Vec<bool> {
    use rand::{Rng, SeedableRng};
    let mut rng = rand::rngs::SmallRng::seed_from_u64(seed);
    (0..pairs)
        .flat_map(|_| {
            let on_first: bool = rng.gen();
            [on_first, !on_first]
        })
        .collect()
}

/// A run with the instrumentation switched on and off in turn, summed per
/// setting.
#[derive(Debug, Clone, Default)]
pub struct Alternated {
    pub on: RunResult,
    pub off: RunResult,
    /// For each pair of slices ([`slice_settings`]): the throughput of its
    /// slice with the instrumentation on over that of its slice with it off.
    pub pair_ratios: Vec<f64>,
    /// The same in rows read per second, for pairs whose slices both read
    /// rows. Where the rows per operation vary widely (a range scan over a
    /// skewed key), the operations a slice finishes swing with how many
    /// long ones fell in it, and rows per second measures the same ratio
    /// with far less noise.
    pub row_pair_ratios: Vec<f64>,
}

impl Alternated {
    pub fn from_slices(slices: &[Slice]) -> Alternated {
        let mut a = Alternated::default();
        for s in slices {
            let r = if s.on { &mut a.on } else { &mut a.off };
            r.ops += s.ops;
            r.rows += s.rows;
            r.seconds += s.seconds;
            r.cpu_seconds += s.cpu_seconds;
            r.shared_writes += s.shared_writes;
        }
        let rate = |n: u64, s: &Slice| n as f64 / s.seconds;
        for pair in slices.chunks_exact(2) {
            let (on, off) = match pair {
                [a, b] if a.on && !b.on => (a, b),
                [a, b] if b.on && !a.on => (b, a),
                _ => continue,
            };
            if on.seconds <= 0.0 || off.seconds <= 0.0 {
                continue;
            }
            if off.ops > 0 {
                a.pair_ratios.push(rate(on.ops, on) / rate(off.ops, off));
            }
            if on.rows > 0 && off.rows > 0 {
                a.row_pair_ratios
                    .push(rate(on.rows, on) / rate(off.rows, off));
            }
        }
        a
    }

    /// Throughput with it on over throughput with it off.
    pub fn ratio(&self) -> f64 {
        self.on.ops_per_s() / self.off.ops_per_s()
    }
}

/// Runs `threads` workers made by `make(thread_index)` for one slice of
/// `slice` per entry of `settings`, with the instrumentation switched to
/// each entry in turn (as `modes` says: [`Settings::switch_value`]), after
/// one unmeasured slice of warm-up, and measures each slice. An operation
/// counts in the slice it ends in. The switch is left as the last slice
/// had it.
pub fn run_alternating<W, F>(
    threads: usize,
    modes: &Settings,
    settings: &[bool],
    slice: Duration,
    make: F,
) -> Alternated
where
    W: Worker,
    F: Fn(usize) -> W + Sync,
{
    let slices = settings.len();
    let on_in = |k: usize| settings[k];
    let switch_to = |k: usize| lineardb_sync::wait::set_enabled(modes.switch_value(on_in(k)));
    // What the workers count in: 0 the warm-up, k slice k - 1, `slices` + 1
    // stop. Written once per slice by this thread, read by the workers
    // after every operation.
    let phase = lineardb_sync::SharedWord::new(0);
    let barrier = Barrier::new(threads + 1);
    switch_to(0);
    std::thread::scope(|s| {
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                let (phase, barrier, make) = (&phase, &barrier, &make);
                s.spawn(move || {
                    let mut w = make(t);
                    // (ops, rows, shared writes) per phase: the warm-up,
                    // then one per slice.
                    let mut counts = vec![(0u64, 0u64, 0u64); slices + 1];
                    barrier.wait();
                    let mut current = 0usize;
                    let mut writes0 = audit::thread_total();
                    loop {
                        let rows = w.op();
                        let now = phase.load() as usize;
                        if now != current {
                            let writes = audit::thread_total();
                            counts[current].2 += writes - writes0;
                            writes0 = writes;
                            current = now;
                        }
                        if current > slices {
                            break;
                        }
                        counts[current].0 += 1;
                        counts[current].1 += rows;
                    }
                    counts
                })
            })
            .collect();
        barrier.wait();
        // One slice of warm-up, not measured: with more threads than cores
        // the workers take a while to all be running.
        std::thread::sleep(slice);
        let mut bounds = vec![(Instant::now(), process_cpu_seconds())];
        phase.store(1);
        let start = bounds[0].0;
        for k in 1..=slices {
            let until = start + slice * k as u32;
            if let Some(d) = until.checked_duration_since(Instant::now()) {
                std::thread::sleep(d);
            }
            if k < slices {
                switch_to(k);
            }
            bounds.push((Instant::now(), process_cpu_seconds()));
            phase.store(k as u64 + 1);
        }
        let mut per_slice: Vec<Slice> = (0..slices)
            .map(|k| Slice {
                on: on_in(k),
                seconds: (bounds[k + 1].0 - bounds[k].0).as_secs_f64(),
                cpu_seconds: bounds[k + 1].1 - bounds[k].1,
                ..Slice::default()
            })
            .collect();
        for h in handles {
            let counts = h.join().expect("worker panicked");
            for (s, c) in per_slice.iter_mut().zip(&counts[1..]) {
                s.ops += c.0;
                s.rows += c.1;
                s.shared_writes += c.2;
            }
        }
        Alternated::from_slices(&per_slice)
    })
}

/// A data directory: the one given, or a temporary one here, removed when
/// dropped.
pub struct DataDir {
    pub path: std::path::PathBuf,
    _tmp: Option<tempfile::TempDir>,
}

impl DataDir {
    pub fn new(given: &Option<std::path::PathBuf>) -> anyhow::Result<DataDir> {
        Ok(match given {
            Some(d) => {
                std::fs::create_dir_all(d)?;
                DataDir {
                    path: d.clone(),
                    _tmp: None,
                }
            }
            None => {
                let t = tempfile::Builder::new()
                    .prefix("lineardb-bench")
                    .tempdir_in(".")?;
                DataDir {
                    path: t.path().to_path_buf(),
                    _tmp: Some(t),
                }
            }
        })
    }

    /// The path of `file` in this directory, with any old file removed.
    pub fn fresh_file(&self, file: &str) -> anyhow::Result<std::path::PathBuf> {
        let path = self.path.join(file);
        if path.exists() {
            std::fs::remove_file(&path)?;
        }
        Ok(path)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn slice(on: bool, ops: u64, seconds: f64) -> Slice {
        Slice {
            on,
            ops,
            seconds,
            ..Slice::default()
        }
    }

    #[test]
    fn pairs_compare_their_own_two_slices() {
        // On runs at 90% of off; the machine speeds up by 10% a pair, and
        // the pairs come in both orders.
        let slices: Vec<Slice> = (0..8)
            .map(|k| {
                let on = (k == 1) || (k == 2) || (k == 5) || (k == 6);
                let rate = (1000.0 + 100.0 * (k / 2) as f64) * if on { 0.9 } else { 1.0 };
                slice(on, rate as u64, 1.0)
            })
            .collect();
        let a = Alternated::from_slices(&slices);
        assert_eq!(a.on.ops, 900 + 990 + 1080 + 1170);
        assert_eq!(a.off.ops, 1000 + 1100 + 1200 + 1300);
        assert_eq!(a.on.seconds, 4.0);
        assert_eq!(a.pair_ratios.len(), 4);
        for r in &a.pair_ratios {
            assert!((r - 0.9).abs() < 0.002, "{r}");
        }
    }

    #[test]
    fn pairs_without_both_settings_or_operations_give_no_ratio() {
        let slices = [
            slice(true, 10, 1.0),
            slice(true, 10, 1.0),
            slice(false, 0, 1.0),
            slice(true, 10, 1.0),
        ];
        assert!(Alternated::from_slices(&slices).pair_ratios.is_empty());
    }

    #[test]
    fn rows_per_second_pairs_see_through_a_varying_query_mix() {
        // On reads rows at 95% of off's rate, but each slice finishes a
        // different number of queries: some long ones (1000 rows), many
        // short ones (1 row), in proportions that change every slice.
        let long_queries = [3u64, 9, 1, 7, 5, 2];
        let slices: Vec<Slice> = long_queries
            .iter()
            .enumerate()
            .map(|(k, &long)| {
                let on = k % 4 == 0 || k % 4 == 3;
                let rows = if on { 9_500 } else { 10_000 };
                Slice {
                    on,
                    ops: long + (rows - 1000 * long),
                    rows,
                    seconds: 1.0,
                    ..Slice::default()
                }
            })
            .collect();
        let a = Alternated::from_slices(&slices);
        assert_eq!(a.row_pair_ratios.len(), 3);
        for r in &a.row_pair_ratios {
            assert!((r - 0.95).abs() < 1e-9, "{r}");
        }
        let spread = a.pair_ratios.iter().any(|r| (r - 0.95).abs() > 0.2);
        assert!(spread, "queries per second swing: {:?}", a.pair_ratios);
        // Slices that read no rows give no rows ratio.
        let none = [slice(true, 10, 1.0), slice(false, 10, 1.0)];
        let a = Alternated::from_slices(&none);
        assert_eq!((a.pair_ratios.len(), a.row_pair_ratios.len()), (1, 0));
    }

    #[test]
    fn slice_settings_pair_one_on_with_one_off_in_both_orders() {
        let s = slice_settings(200, 7);
        assert_eq!(s.len(), 400);
        assert!(s.chunks(2).all(|p| p[0] != p[1]));
        let on_first = s.chunks(2).filter(|p| p[0]).count();
        assert!((60..=140).contains(&on_first), "{on_first} of 200");
        assert_eq!(s, slice_settings(200, 7), "the same seed, the same order");
    }

    #[test]
    fn slice_plans_fit_fifty_operations_per_slice_or_give_up() {
        let ms = Duration::from_millis;
        assert_eq!(slice_plan(0.001, SLICE, 5.0), Some((ms(200), 25)));
        assert_eq!(slice_plan(0.01, SLICE, 5.0), Some((ms(500), 10)));
        assert_eq!(slice_plan(0.01, ms(500), 2.5), Some((ms(500), 5)));
        assert_eq!(slice_plan(0.01, ms(500), 2.4), None);
        assert_eq!(slice_plan(0.5, SLICE, 5.0), None);
    }

    /// A worker twice as slow while the instrumentation is on.
    struct SlowWhenOn;

    impl Worker for SlowWhenOn {
        fn op(&mut self) -> u64 {
            let rounds = if lineardb_sync::wait::enabled() { 2 } else { 1 };
            let mut x = 1u64;
            for _ in 0..rounds * 20_000 {
                x = std::hint::black_box(x.wrapping_mul(6364136223846793005).wrapping_add(1));
            }
            std::hint::black_box(x);
            1
        }
    }

    #[test]
    fn alternating_run_counts_each_setting_apart_and_a_control_finds_nothing() {
        // One test: both runs flip the process-wide switch.
        let before = lineardb_sync::wait::enabled();
        let alternate = |asked: &[bool]| {
            run_alternating(
                2,
                &Settings::new(asked),
                &slice_settings(6, 1),
                Duration::from_millis(50),
                |_| SlowWhenOn,
            )
        };
        let (a, control) = (alternate(&[true, false]), alternate(&[true, true]));
        lineardb_sync::wait::set_enabled(before);
        assert!(a.on.ops > 0 && a.off.ops > 0);
        assert!(a.on.seconds > 0.2 && a.off.seconds > 0.2, "{a:?}");
        // Half the speed with it on (loosely: the machine may be busy).
        let r = a.ratio();
        assert!(r > 0.3 && r < 0.8, "on / off {r}");
        let mut local = a.pair_ratios.clone();
        assert!(median(&mut local) < 0.8, "{local:?}");
        // The control keeps it on in the slices marked off: same speed.
        let r = control.ratio();
        assert!(r > 0.8 && r < 1.25, "control on / on {r}");
    }

    #[test]
    fn a_control_is_on_and_off_in_name_only() {
        let control = Settings::new(&[true, true]);
        assert!(control.is_control());
        assert_eq!(control.on_off(), Some((0, 1)));
        assert!(control.switch_value(false) && control.switch_value(true));
        assert_eq!(control.case("q", 1), "q, instrumentation on (control)");
        let on_off = Settings::new(&[true, false]);
        assert!(!on_off.is_control() && !on_off.switch_value(false));
        assert_eq!(on_off.case("q", 1), "q, instrumentation off");
    }
}
