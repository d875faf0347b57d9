//! Audited shared words for the few places outside `sync` that need one.
//!
//! Every use site must say who writes the word and why it is off the read
//! path (DESIGN.md invariant 6). Writes are counted by the audit.
use crate::atomic::{AtomicBool, AtomicU64, Ordering};
use crate::audit;

/// A 64-bit word shared between threads.
/// `repr(transparent)`: zero-filled memory is a valid word of value 0.
#[derive(Debug, Default)]
#[repr(transparent)]
pub struct SharedWord(AtomicU64);

impl SharedWord {
    #[cfg(not(loom))]
    pub const fn new(value: u64) -> Self {
        Self(AtomicU64::new(value))
    }
    #[cfg(loom)]
    pub fn new(value: u64) -> Self {
        Self(AtomicU64::new(value))
    }
    #[inline]
    pub fn load(&self) -> u64 {
        self.0.load(Ordering::Acquire)
    }
    #[inline]
    pub fn store(&self, value: u64) {
        audit::record(audit::Source::Word, 1);
        self.0.store(value, Ordering::Release);
    }
    /// Adds `n` and returns the previous value.
    #[inline]
    pub fn fetch_add(&self, n: u64) -> u64 {
        audit::record(audit::Source::Word, 1);
        self.0.fetch_add(n, Ordering::AcqRel)
    }
    #[inline]
    pub fn fetch_max(&self, n: u64) -> u64 {
        audit::record(audit::Source::Word, 1);
        self.0.fetch_max(n, Ordering::AcqRel)
    }
    /// Sequentially consistent load, store and add: for the few protocols
    /// that order a store before a load of another word (a writer
    /// announcing itself before taking an id, a reader publishing its
    /// snapshot before reading who is active).
    #[inline]
    pub fn load_seq_cst(&self) -> u64 {
        self.0.load(Ordering::SeqCst)
    }
    #[inline]
    pub fn store_seq_cst(&self, value: u64) {
        audit::record(audit::Source::Word, 1);
        self.0.store(value, Ordering::SeqCst);
    }
    #[inline]
    pub fn fetch_add_seq_cst(&self, n: u64) -> u64 {
        audit::record(audit::Source::Word, 1);
        self.0.fetch_add(n, Ordering::SeqCst)
    }
    #[inline]
    pub fn compare_exchange(&self, current: u64, new: u64) -> Result<u64, u64> {
        audit::record(audit::Source::Word, 1);
        self.0
            .compare_exchange(current, new, Ordering::AcqRel, Ordering::Acquire)
    }
}

/// A shared boolean (stop flags, "shutting down"): written rarely, read often.
#[derive(Debug, Default)]
pub struct SharedFlag(AtomicBool);

impl SharedFlag {
    #[cfg(not(loom))]
    pub const fn new(value: bool) -> Self {
        Self(AtomicBool::new(value))
    }
    #[cfg(loom)]
    pub fn new(value: bool) -> Self {
        Self(AtomicBool::new(value))
    }
    #[inline]
    pub fn get(&self) -> bool {
        self.0.load(Ordering::Acquire)
    }
    pub fn set(&self, value: bool) {
        audit::record(audit::Source::Word, 1);
        self.0.store(value, Ordering::Release);
    }
}
