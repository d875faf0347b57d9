//! Loaders for benchmark data.
pub mod sbtest;
pub mod tpch;
