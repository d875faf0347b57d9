//! Loaders for benchmark data.
pub mod sbtest;
