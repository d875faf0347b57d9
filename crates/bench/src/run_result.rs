//! What one timed run of a workload measured.

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
