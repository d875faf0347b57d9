//! Shared-write audit (DESIGN.md "Measured, not asserted").
//!
//! With the `audit` feature every write that a `sync` wrapper makes to a
//! shared word (a latch word, a [`crate::SharedWord`], a [`crate::Mutex`]) adds
//! one to the writing thread's own slot. Without the feature, [`record`]
//! compiles to nothing. Writes to a thread's own slot are not counted: they are
//! the single-writer lines the design asks for.

/// True when this build counts shared writes.
pub const ENABLED: bool = cfg!(feature = "audit");

pub use crate::audit_source::{Source, SOURCE_COUNT};

/// Count `n` writes to shared words made by `source` on the current thread.
#[inline(always)]
pub fn record(source: Source, n: u64) {
    #[cfg(all(feature = "audit", not(loom)))]
    crate::thread_slot::with(|slot| slot.shared_writes[source as usize].add(n));
    #[cfg(not(all(feature = "audit", not(loom))))]
    let _ = (source, n);
}

/// Shared writes made so far by the current thread (0 without `audit`).
pub fn thread_total() -> u64 {
    #[cfg(not(loom))]
    {
        crate::thread_slot::with(|slot| slot.shared_writes.iter().map(|c| c.get()).sum())
    }
    #[cfg(loom)]
    {
        0
    }
}

/// Shared writes made so far by all threads, living and ended (0 without `audit`).
pub fn global_total() -> u64 {
    by_source().iter().map(|(_, n)| n).sum()
}

/// Shared writes made so far by all threads, per source (0 without `audit`).
pub fn by_source() -> [(Source, u64); SOURCE_COUNT] {
    let mut out = Source::ALL.map(|s| (s, 0u64));
    #[cfg(not(loom))]
    crate::thread_slot::for_each(|slot| {
        for (s, n) in out.iter_mut() {
            *n += slot.shared_writes[*s as usize].get();
        }
    });
    out
}
