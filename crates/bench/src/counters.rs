//! Seed 002: what a cache line updated by every thread costs. Each case
//! counts events from every thread in a different way; updates/s against
//! threads shows which ones scale:
//!
//! - `shared_atomic`: one counter every thread increments (an atomic add
//!   on one line: InnoDB's global statistics, the block mutex);
//! - `false_sharing`: a counter per thread, but eight of them in one line
//!   (the line still moves between cores on every update);
//! - `per_thread_padded`: a counter per thread on its own line, summed
//!   when read (what lineardb's counters do);
//! - `check_then_set`: a shared flag set only when it changes (the seed's
//!   fix for a bitmap updated per message: after the first set every
//!   thread only reads the line).
use crate::harness::{Matrix, Worker};
use crate::report::Point;
use crate::seeds::SeedOptions;
use lineardb_sync::{CachePadded, LocalCounter, SharedFlag, SharedWord};
use std::hint::black_box;

/// Updates per operation (the harness checks its stop flag per operation).
const UPDATES_PER_OP: u64 = 64;

pub const CASES: [&str; 4] = [
    "shared_atomic",
    "false_sharing",
    "per_thread_padded",
    "check_then_set",
];

/// Eight counters in one cache line.
#[repr(align(64))]
#[derive(Default)]
struct OneLine([SharedWord; 8]);

#[derive(Default)]
struct Counters {
    shared: CachePadded<SharedWord>,
    line: OneLine,
    padded: Vec<CachePadded<LocalCounter>>,
    flag: CachePadded<SharedFlag>,
}

struct Updater<'a> {
    case: usize,
    thread: usize,
    c: &'a Counters,
}

impl Worker for Updater<'_> {
    #[inline(never)]
    fn op(&mut self) -> u64 {
        let c = self.c;
        for _ in 0..UPDATES_PER_OP {
            match self.case {
                0 => {
                    c.shared.fetch_add(1);
                }
                1 => {
                    c.line.0[self.thread % 8].fetch_add(1);
                }
                2 => c.padded[self.thread].add(1),
                _ => {
                    if !c.flag.get() {
                        c.flag.set(true);
                    }
                }
            }
            black_box(c);
        }
        UPDATES_PER_OP
    }
}

/// Runs the cases at the option's thread counts; rows/s is updates/s.
pub fn seed002_counters(o: &SeedOptions, on_point: impl FnMut(&Point)) -> Vec<Point> {
    let max_threads = o.threads.iter().copied().max().unwrap_or(1);
    let counters = Counters {
        padded: (0..max_threads).map(|_| CachePadded::default()).collect(),
        ..Counters::default()
    };
    let cases: Vec<String> = CASES
        .iter()
        .filter(|c| o.cases.is_empty() || o.cases.iter().any(|x| x == *c))
        .map(|c| c.to_string())
        .collect();
    let matrix = Matrix {
        experiment: "seed002-counters".into(),
        system: None,
        threads: o.threads.clone(),
        seconds: o.seconds,
        repeat: o.repeat,
        instrumentation: o.instrumentation.clone(),
    };
    let c = &counters;
    matrix.run(
        &cases,
        |ci, thread, _| {
            let case = CASES
                .iter()
                .position(|n| *n == cases[ci])
                .expect("a known case");
            Box::new(Updater { case, thread, c })
        },
        on_point,
    )
}
