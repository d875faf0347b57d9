//! The `bench` layer: the workloads of the seeds, their data, and reports.
pub mod chart;
pub mod counters;
pub mod dbt3;
pub mod embedded;
pub mod engine;
pub mod harness;
pub mod progress;
pub mod report;
pub mod results;
pub mod run_result;
pub mod seeds;
pub mod stats;
pub mod sysbench;
pub mod tpcc;
