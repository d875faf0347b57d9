//! Runs a workload on N threads for a fixed time and measures it: operations
//! and rows per second, CPU time per operation (getrusage of the process) and,
//! in an `audit` build, shared writes per row and per operation.
//!
//! Each worker counts in locals and returns its totals when stopped; the only
//! shared word a worker touches is the stop flag, which it only reads.
use lineardb_sync::{audit, SharedFlag};
use std::sync::Barrier;
use std::time::{Duration, Instant};

/// What one timed run measured.
#[derive(Debug, Clone, Copy, Default)]
pub struct RunResult {
    pub ops: u64,
    pub rows: u64,
    pub seconds: f64,
    pub cpu_seconds: f64,
    /// Shared writes made by the workers' own threads (an `audit` build):
    /// background threads (log, purge, concurrent writers) are not the
    /// workload's and are not counted.
    pub shared_writes: u64,
}

impl RunResult {
    pub fn ops_per_s(&self) -> f64 {
        self.ops as f64 / self.seconds
    }
    pub fn rows_per_s(&self) -> f64 {
        self.rows as f64 / self.seconds
    }
    pub fn cpu_us_per_op(&self) -> f64 {
        self.cpu_seconds * 1e6 / self.ops.max(1) as f64
    }
}

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

/// The instrumentation settings an experiment measures each point with
/// (`--instrumentation on,off`); a single "as it is" when none was asked.
#[derive(Debug, Clone)]
pub struct Settings(Vec<Option<bool>>);

impl Settings {
    pub fn new(asked: &[bool]) -> Settings {
        if asked.is_empty() {
            Settings(vec![None])
        } else {
            Settings(asked.iter().map(|&on| Some(on)).collect())
        }
    }

    pub fn len(&self) -> usize {
        self.0.len()
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Setting `i`: on, off, or None (left as it is).
    pub fn get(&self, i: usize) -> Option<bool> {
        self.0[i]
    }

    /// The settings in the order repeat `rep` runs them: in turn, starting
    /// with a different one each repeat, so that drift of the machine
    /// favours none.
    pub fn order(&self, rep: usize) -> impl Iterator<Item = usize> + '_ {
        (0..self.0.len()).map(move |k| (k + rep) % self.0.len())
    }

    /// Case `case` as measured with setting `i`.
    pub fn case(&self, case: &str, i: usize) -> String {
        match self.0[i] {
            Some(false) if self.0.len() > 1 => format!("{case}{INSTRUMENTATION_OFF}"),
            _ => case.to_string(),
        }
    }

    /// Marks point `p` with setting `i` (`instrumentation` = 1 or 0).
    pub fn mark(&self, p: &mut crate::report::Point, i: usize) {
        if let Some(on) = self.0[i] {
            p.extra
                .insert("instrumentation".into(), if on { 1.0 } else { 0.0 });
        }
    }

    /// Switches this process's instrumentation to setting `i` until the
    /// guard is dropped (then it is as it was).
    pub fn switch(&self, i: usize) -> SwitchGuard {
        let guard = SwitchGuard(lineardb_sync::wait::enabled());
        if let Some(on) = self.0[i] {
            lineardb_sync::wait::set_enabled(on);
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
    /// repeats across thread counts (1, 2, 4, 1, 2, 4, ...) and the
    /// instrumentation settings within each, so that drift of a noisy
    /// machine does not favour one of them. `make(case, thread, seed)` makes
    /// a worker.
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
            for rep in 0..self.repeat.max(1) {
                for (i, &threads) in self.threads.iter().enumerate() {
                    for mi in modes.order(rep) {
                        let _switched = modes.switch(mi);
                        runs[mi][i].push(run(
                            threads,
                            Duration::from_secs_f64(self.seconds),
                            |t| make(ci, t, (rep * 1000 + t) as u64 + 1),
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
                    bar.suspend(|| on_point(&p));
                    points.push(p);
                }
            }
        }
        bar.finish_and_clear();
        points
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

/// Median of a non-empty slice.
pub fn median(values: &mut [f64]) -> f64 {
    values.sort_by(|a, b| a.total_cmp(b));
    let n = values.len();
    if n % 2 == 1 {
        values[n / 2]
    } else {
        (values[n / 2 - 1] + values[n / 2]) / 2.0
    }
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
