//! The `sync` layer: every raw atomic and lock of lineardb lives here.
//!
//! - [`HybridLatch`]: optimistic / shared / exclusive on one 64-bit word, with
//!   the page states the buffer manager needs (absent, marked for eviction).
//! - [`thread_slot`]: per-thread, cache-padded, single-writer slots that hold
//!   counters, wait events and the shared-write audit; summed when read.
//! - [`wait`]: wait events, recorded only on slow paths, by classes that the
//!   layers above declare and register ([`wait_class!`], [`wait::register`]).
//! - [`audit`]: with the `audit` feature, every write this layer makes to a
//!   shared word is counted per thread.
//! - [`SharedWord`] and [`Mutex`]: audited wrappers for the few shared words
//!   other layers need (each use names its owner and why it is cold).
#![allow(clippy::disallowed_types, clippy::disallowed_methods)]

mod atomic;
pub mod audit;
mod audit_source;
pub mod blocking;
mod instrumentation;
mod latch;
mod local_counter;
mod mutex;
mod park;
pub mod racy;
pub mod thread_slot;
pub mod wait;
mod wait_class;
mod word;

pub use latch::{HybridLatch, LatchState, Version};
pub use local_counter::LocalCounter;
pub use mutex::{Condvar, Mutex, MutexGuard};
pub use racy::{RacySlice, RacySliceMut};
pub use thread_slot::Counter;
pub use wait::WaitSite;
pub use wait_class::{WaitClass, WaitClassDef};
pub use word::{SharedFlag, SharedWord};

/// Size of a cache line on the machines we target; padding unit for
/// everything written by one thread and read by others.
pub const CACHE_LINE: usize = 64;

pub use crossbeam_utils::CachePadded;
