//! Per-thread slots: counters, wait events and the audit, each written by one
//! thread only (relaxed load + store, never a read-modify-write on a shared
//! line) and summed over all slots when read (DESIGN.md invariant 2).
//!
//! A thread takes a slot on first use and gives it back when it ends; a slot
//! keeps its totals, so a later thread continues them and sums stay exact.
use crate::atomic::{AtomicBool, Ordering};
use crate::audit_source::SOURCE_COUNT;
pub use crate::local_counter::LocalCounter;
use crate::wait_class::{WaitClass, MAX_WAIT_CLASSES};
use crossbeam_utils::CachePadded;

/// Engine-wide event counters, kept per thread.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(usize)]
pub enum Counter {
    /// Pages read from the data file.
    PagesRead,
    /// Pages written to the data file.
    PagesWritten,
    /// Pages evicted from the pool.
    PagesEvicted,
    /// Read-ahead hints given to the kernel.
    ReadAheadHints,
    /// Older row versions a snapshot read had to look up (the row had
    /// changed since the snapshot).
    OlderVersions,
    /// Rows and index entries read by scans and lookups (counted per batch).
    RowsRead,
    /// Rows inserted, updated, deleted.
    RowsInserted,
    RowsUpdated,
    RowsDeleted,
    /// Records (key and value) copied out of B-tree leaves by lookups and
    /// cursors: what a read really took from the pages.
    RecordsCopied,
}

pub const COUNTER_COUNT: usize = 10;

impl Counter {
    pub const ALL: [Counter; COUNTER_COUNT] = [
        Counter::PagesRead,
        Counter::PagesWritten,
        Counter::PagesEvicted,
        Counter::ReadAheadHints,
        Counter::OlderVersions,
        Counter::RowsRead,
        Counter::RowsInserted,
        Counter::RowsUpdated,
        Counter::RowsDeleted,
        Counter::RecordsCopied,
    ];
    pub fn name(self) -> &'static str {
        match self {
            Counter::PagesRead => "pages_read",
            Counter::PagesWritten => "pages_written",
            Counter::PagesEvicted => "pages_evicted",
            Counter::ReadAheadHints => "read_ahead_hints",
            Counter::OlderVersions => "older_versions",
            Counter::RowsRead => "rows_read",
            Counter::RowsInserted => "rows_inserted",
            Counter::RowsUpdated => "rows_updated",
            Counter::RowsDeleted => "rows_deleted",
            Counter::RecordsCopied => "records_copied",
        }
    }
}

/// Wait statistics of one class in one thread.
#[derive(Debug, Default)]
pub struct WaitCell {
    /// Blocked waits (spun or parked until a latch was free, or did I/O).
    pub waits: LocalCounter,
    /// Total nanoseconds spent in those waits.
    pub wait_ns: LocalCounter,
    /// Longest single wait in nanoseconds.
    pub max_ns: LocalCounter,
    /// Optimistic reads that failed validation and restarted.
    pub restarts: LocalCounter,
}

/// Number of per-page samples a slot keeps (a ring).
pub const PAGE_SAMPLES: usize = 64;

/// One sampled slow-path event on a page.
#[derive(Debug, Default)]
pub struct PageSample {
    /// Page id + 1 (0 = empty).
    pub page_plus_one: LocalCounter,
    /// [`WaitClass::index`] in the low byte, 1 in bit 8 for a wait (0 = restart).
    pub what: LocalCounter,
}

/// Row operations on one index, counted per thread.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(usize)]
pub enum IndexOp {
    /// Entries read (counted per batch).
    Fetch,
    Insert,
    Update,
    Delete,
}

pub const INDEX_OP_COUNT: usize = 4;

impl IndexOp {
    /// The engine-wide counter (`SHOW STATUS`) the operation also adds to.
    pub fn counter(self) -> Counter {
        match self {
            IndexOp::Fetch => Counter::RowsRead,
            IndexOp::Insert => Counter::RowsInserted,
            IndexOp::Update => Counter::RowsUpdated,
            IndexOp::Delete => Counter::RowsDeleted,
        }
    }
}

/// Indexes a slot counts separately; a thread that touches more shares the
/// last cell among the rest (`OTHER_INDEXES`).
pub const INDEX_CELLS: usize = 128;

/// The id under which row operations on indexes beyond a slot's
/// `INDEX_CELLS` are counted.
pub const OTHER_INDEXES: u64 = u64::MAX - 1;

/// The row operations of one thread on one index.
#[derive(Debug, Default)]
pub struct IndexCell {
    /// Index id + 1 (0 = free cell).
    pub id_plus_one: LocalCounter,
    pub ops: [LocalCounter; INDEX_OP_COUNT],
}

/// Everything one thread records. Only its owner writes it.
#[derive(Debug)]
pub struct ThreadSlot {
    /// Shared writes by [`crate::audit::Source`] (an `audit` build).
    pub shared_writes: [LocalCounter; SOURCE_COUNT],
    pub counters: [LocalCounter; COUNTER_COUNT],
    /// Waits by class ([`WaitClass::index`]).
    pub waits: [WaitCell; MAX_WAIT_CLASSES],
    pub samples: [PageSample; PAGE_SAMPLES],
    /// Slow-path events seen; drives sampling and the ring position.
    pub sample_clock: LocalCounter,
    /// Row operations per index (open addressing on the index id).
    pub indexes: [IndexCell; INDEX_CELLS],
    in_use: AtomicBool,
}

impl Default for ThreadSlot {
    fn default() -> Self {
        Self {
            shared_writes: Default::default(),
            counters: Default::default(),
            waits: Default::default(),
            samples: std::array::from_fn(|_| PageSample::default()),
            sample_clock: LocalCounter::default(),
            indexes: std::array::from_fn(|_| IndexCell::default()),
            in_use: AtomicBool::new(false),
        }
    }
}

impl ThreadSlot {
    #[inline]
    pub fn counter(&self, c: Counter) -> &LocalCounter {
        &self.counters[c as usize]
    }
    #[inline]
    pub fn wait(&self, class: WaitClass) -> &WaitCell {
        &self.waits[class.index()]
    }
    /// The cell counting index `id` (taking a free one on first use).
    #[inline]
    fn index_cell(&self, id: u64) -> &IndexCell {
        let want = id.wrapping_add(1);
        // Fibonacci hashing spreads consecutive page ids over the cells.
        let start = (id.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - INDEX_CELLS.trailing_zeros()))
            as usize;
        for probe in 0..INDEX_CELLS - 1 {
            let cell = &self.indexes[(start + probe) % (INDEX_CELLS - 1)];
            match cell.id_plus_one.get() {
                0 => {
                    cell.id_plus_one.set(want);
                    return cell;
                }
                v if v == want => return cell,
                _ => {}
            }
        }
        let other = &self.indexes[INDEX_CELLS - 1];
        other.id_plus_one.set(OTHER_INDEXES + 1);
        other
    }
}

#[cfg(not(loom))]
mod registry {
    use super::*;
    use std::sync::Mutex;

    /// All slots ever made. Taken only when a thread starts or ends and when
    /// totals are read: never on a per-row or per-page path.
    static SLOTS: Mutex<Vec<&'static CachePadded<ThreadSlot>>> = Mutex::new(Vec::new());

    pub(super) struct Handle(pub(super) &'static CachePadded<ThreadSlot>);

    impl Handle {
        pub(super) fn acquire() -> Handle {
            let mut slots = SLOTS.lock().unwrap_or_else(|e| e.into_inner());
            for slot in slots.iter() {
                if slot
                    .in_use
                    .compare_exchange(false, true, Ordering::Acquire, Ordering::Relaxed)
                    .is_ok()
                {
                    return Handle(slot);
                }
            }
            let slot: &'static CachePadded<ThreadSlot> =
                Box::leak(Box::new(CachePadded::new(ThreadSlot::default())));
            slot.in_use.store(true, Ordering::Relaxed);
            slots.push(slot);
            Handle(slot)
        }
    }

    impl Drop for Handle {
        fn drop(&mut self) {
            self.0.in_use.store(false, Ordering::Release);
        }
    }

    thread_local! {
        pub(super) static SLOT: Handle = Handle::acquire();
    }

    pub(super) fn for_each(mut f: impl FnMut(&ThreadSlot)) {
        let slots = SLOTS.lock().unwrap_or_else(|e| e.into_inner());
        for slot in slots.iter() {
            f(slot);
        }
    }
}

/// Runs `f` on the current thread's slot.
#[cfg(not(loom))]
#[inline]
pub fn with<R>(f: impl FnOnce(&ThreadSlot) -> R) -> R {
    registry::SLOT.with(|h| f(h.0))
}

/// Sums `f` over every slot (living and ended threads).
#[cfg(not(loom))]
pub fn sum(f: impl Fn(&ThreadSlot) -> u64) -> u64 {
    let mut total = 0u64;
    registry::for_each(|s| total = total.wrapping_add(f(s)));
    total
}

/// Visits every slot (for readers that need more than a sum).
#[cfg(not(loom))]
pub fn for_each(f: impl FnMut(&ThreadSlot)) {
    registry::for_each(f)
}

/// Adds `n` to counter `c` of the current thread.
#[inline]
pub fn count(c: Counter, n: u64) {
    #[cfg(not(loom))]
    with(|s| s.counter(c).add(n));
    #[cfg(loom)]
    let _ = (c, n);
}

/// Adds `n` rows to operation `op` of index `id` (the per-index table, only
/// while the instrumentation is on: [`crate::instrumentation::enabled`]) and to the
/// operation's engine-wide counter ([`IndexOp::counter`], always, as MySQL's
/// status counters).
#[inline]
pub fn count_rows(id: u64, op: IndexOp, n: u64) {
    #[cfg(not(loom))]
    with(|s| {
        s.counter(op.counter()).add(n);
        if crate::instrumentation::enabled() {
            s.index_cell(id).ops[op as usize].add(n);
        }
    });
    #[cfg(loom)]
    let _ = (id, op, n);
}

/// Row operations per index id over all threads ([`OTHER_INDEXES`] for
/// those no cell was free for).
pub fn index_totals() -> std::collections::HashMap<u64, [u64; INDEX_OP_COUNT]> {
    let mut out = std::collections::HashMap::new();
    #[cfg(not(loom))]
    for_each(|slot| {
        for cell in slot.indexes.iter() {
            let id = cell.id_plus_one.get();
            if id == 0 {
                continue;
            }
            let e: &mut [u64; INDEX_OP_COUNT] = out.entry(id - 1).or_default();
            for (t, c) in e.iter_mut().zip(cell.ops.iter()) {
                *t += c.get();
            }
        }
    });
    out
}

/// Counter `c` of the current thread alone.
pub fn counter_own(c: Counter) -> u64 {
    #[cfg(not(loom))]
    {
        with(|s| s.counter(c).get())
    }
    #[cfg(loom)]
    {
        let _ = c;
        0
    }
}

/// Total of counter `c` over all threads.
pub fn counter_total(c: Counter) -> u64 {
    #[cfg(not(loom))]
    {
        sum(|s| s.counter(c).get())
    }
    #[cfg(loom)]
    {
        let _ = c;
        0
    }
}

#[cfg(all(test, not(loom)))]
mod tests {
    use super::*;

    #[test]
    fn counters_sum_over_threads_and_survive_thread_exit() {
        let before = counter_total(Counter::ReadAheadHints);
        let handles: Vec<_> = (0..4)
            .map(|_| {
                std::thread::spawn(|| {
                    for _ in 0..1000 {
                        count(Counter::ReadAheadHints, 1);
                    }
                })
            })
            .collect();
        for h in handles {
            h.join().unwrap();
        }
        assert_eq!(counter_total(Counter::ReadAheadHints) - before, 4000);
    }

    #[test]
    fn index_operations_sum_over_threads_and_overflow_into_other() {
        let base = 1u64 << 40;
        let before = index_totals();
        let handles: Vec<_> = (0..3)
            .map(|_| {
                std::thread::spawn(move || {
                    // More indexes than cells: the rest land in OTHER_INDEXES.
                    for id in base..base + INDEX_CELLS as u64 + 10 {
                        count_rows(id, IndexOp::Fetch, 2);
                        count_rows(id, IndexOp::Delete, 1);
                    }
                })
            })
            .collect();
        for h in handles {
            h.join().unwrap();
        }
        let after = index_totals();
        let delta = |id: u64, op: IndexOp| {
            after.get(&id).map_or(0, |c| c[op as usize])
                - before.get(&id).map_or(0, |c| c[op as usize])
        };
        let mut fetched = 0;
        let mut deleted = 0;
        for id in (base..base + INDEX_CELLS as u64 + 10).chain([OTHER_INDEXES]) {
            fetched += delta(id, IndexOp::Fetch);
            deleted += delta(id, IndexOp::Delete);
        }
        assert_eq!(fetched, 3 * 2 * (INDEX_CELLS as u64 + 10));
        assert_eq!(deleted, 3 * (INDEX_CELLS as u64 + 10));
        assert_eq!(delta(base, IndexOp::Fetch), 6);
    }

    #[test]
    fn slots_are_padded_to_cache_lines() {
        assert!(std::mem::align_of::<CachePadded<ThreadSlot>>() >= crate::CACHE_LINE);
    }
}
