//! `ANALYZE <statement>`: what each read of a table (or derived table) in a
//! plan did while the statement ran — how often it was read, the rows it
//! gave, how many passed the conditions checked there, and the time spent
//! in it (the time of the steps it hands rows to left out). Reads are
//! named by the plan node they read, which EXPLAIN's lines name too.
use lineardb_sync::Mutex;
use std::collections::HashMap;
use std::time::Duration;

/// What the reads of one plan node did, summed.
#[derive(Clone, Copy, Default, Debug, PartialEq)]
pub(crate) struct ReadStats {
    /// Times it was read (a lookup's: once per row before it).
    pub loops: u64,
    /// Rows the reads gave, before the conditions checked there.
    pub rows: u64,
    /// Rows that passed those conditions.
    pub passed: u64,
    pub time: Duration,
}

impl ReadStats {
    /// Rows per read (MariaDB's `r_rows`).
    pub(crate) fn rows_per_loop(&self) -> f64 {
        if self.loops == 0 {
            0.0
        } else {
            self.rows as f64 / self.loops as f64
        }
    }

    /// The share of rows that passed, in percent (`r_filtered`): 100 when
    /// none came.
    pub(crate) fn filtered(&self) -> f64 {
        if self.rows == 0 {
            100.0
        } else {
            self.passed as f64 * 100.0 / self.rows as f64
        }
    }
}

/// The reads of one statement's plan, by plan node (its address; the plan
/// outlives the statement's run and its description).
#[derive(Default)]
pub(crate) struct AnalyzeStats {
    reads: Mutex<HashMap<usize, ReadStats>>,
}

impl AnalyzeStats {
    /// What the reads of `node` did; None when it was never read.
    pub(crate) fn of(&self, node: usize) -> Option<ReadStats> {
        self.reads.lock().get(&node).copied()
    }

    /// Adds a read of `node`: the rows it gave (before its conditions),
    /// those that passed, the time it took (without the steps it handed
    /// rows to).
    pub(crate) fn record(&self, node: usize, rows: u64, passed: u64, time: Duration) {
        let mut reads = self.reads.lock();
        let s = reads.entry(node).or_default();
        s.loops += 1;
        s.rows += rows;
        s.passed += passed;
        s.time += time;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_are_summed_per_node() {
        let stats = AnalyzeStats::default();
        for _ in 0..4 {
            stats.record(7, 10, 4, Duration::from_millis(1));
        }
        let s = stats.of(7).unwrap();
        assert_eq!((s.loops, s.rows, s.passed), (4, 40, 16));
        assert_eq!(s.time, Duration::from_millis(4));
        assert_eq!(s.rows_per_loop(), 10.0);
        assert_eq!(s.filtered(), 40.0);
        assert_eq!(stats.of(8), None);
        assert_eq!(ReadStats::default().filtered(), 100.0);
        assert_eq!(ReadStats::default().rows_per_loop(), 0.0);
    }
}
