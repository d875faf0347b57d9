//! A counter written by exactly one thread and read by any.
use crate::atomic::{AtomicU64, Ordering};

/// A counter written by exactly one thread (the slot's owner).
#[derive(Debug, Default)]
pub struct LocalCounter(AtomicU64);

impl LocalCounter {
    /// Adds `n`. Only the owning thread calls this, so load + store is exact
    /// and the line stays in that core's cache.
    #[inline(always)]
    pub fn add(&self, n: u64) {
        let v = self.0.load(Ordering::Relaxed);
        self.0.store(v.wrapping_add(n), Ordering::Relaxed);
    }
    /// Raises the value to `n` if it is lower (owner only).
    #[inline]
    pub fn raise(&self, n: u64) {
        if n > self.0.load(Ordering::Relaxed) {
            self.0.store(n, Ordering::Relaxed);
        }
    }
    #[inline]
    pub fn set(&self, n: u64) {
        self.0.store(n, Ordering::Relaxed);
    }
    #[inline]
    pub fn get(&self) -> u64 {
        self.0.load(Ordering::Relaxed)
    }
}
