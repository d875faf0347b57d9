//! Wait events: every latch class and every kind of I/O, recorded only on slow
//! paths (a failed optimistic validation is a *restart*, a blocked latch or an
//! I/O is a *wait*), per thread, with per-page samples (DESIGN.md invariant 3).
use std::time::Instant;

/// What a thread waited for. The list is fixed so that per-thread tables are
/// plain arrays.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[repr(usize)]
pub enum WaitClass {
    /// Latch of a B-tree inner page.
    TreeInner,
    /// Latch of a B-tree leaf page.
    TreeLeaf,
    /// Latch of a page whose role the caller does not know.
    Page,
    /// Reading a page from the data file.
    IoRead,
    /// Writing a page to the data file.
    IoWrite,
    /// fsync of the data file.
    IoSync,
    /// Finding a free frame (eviction).
    Eviction,
    /// Page allocation and the free-page list.
    PageAlloc,
    /// Appending to the log buffer.
    LogBuffer,
    /// A commit waiting for another thread's log write or sync (group commit).
    LogCommit,
    /// Writing the log file.
    IoLogWrite,
    /// fsync of the log file.
    IoLogSync,
    /// The table catalog (opening, creating, dropping tables).
    Catalog,
    /// The session registry (connect, disconnect, reading its tables).
    Sessions,
    /// The row-lock table's mutex.
    LockTable,
    /// A transaction waiting for another's row lock.
    RowLock,
    /// Transaction and snapshot bookkeeping (begin, commit, purge).
    Transactions,
    /// A mutex of no class above (the server's worker roster, build jobs).
    OtherMutex,
}

pub const WAIT_CLASS_COUNT: usize = 18;

impl WaitClass {
    pub const ALL: [WaitClass; WAIT_CLASS_COUNT] = [
        WaitClass::TreeInner,
        WaitClass::TreeLeaf,
        WaitClass::Page,
        WaitClass::IoRead,
        WaitClass::IoWrite,
        WaitClass::IoSync,
        WaitClass::Eviction,
        WaitClass::PageAlloc,
        WaitClass::LogBuffer,
        WaitClass::LogCommit,
        WaitClass::IoLogWrite,
        WaitClass::IoLogSync,
        WaitClass::Catalog,
        WaitClass::Sessions,
        WaitClass::LockTable,
        WaitClass::RowLock,
        WaitClass::Transactions,
        WaitClass::OtherMutex,
    ];

    /// Name in performance_schema style.
    pub fn name(self) -> &'static str {
        match self {
            WaitClass::TreeInner => "wait/synch/latch/btree/inner_page",
            WaitClass::TreeLeaf => "wait/synch/latch/btree/leaf_page",
            WaitClass::Page => "wait/synch/latch/buffer/page",
            WaitClass::IoRead => "wait/io/file/data/read",
            WaitClass::IoWrite => "wait/io/file/data/write",
            WaitClass::IoSync => "wait/io/file/data/sync",
            WaitClass::Eviction => "wait/synch/buffer/eviction",
            WaitClass::PageAlloc => "wait/synch/buffer/page_alloc",
            WaitClass::LogBuffer => "wait/synch/mutex/log/buffer",
            WaitClass::LogCommit => "wait/synch/cond/log/commit",
            WaitClass::IoLogWrite => "wait/io/file/log/write",
            WaitClass::IoLogSync => "wait/io/file/log/sync",
            WaitClass::Catalog => "wait/synch/mutex/catalog",
            WaitClass::Sessions => "wait/synch/mutex/sessions",
            WaitClass::LockTable => "wait/synch/mutex/lock_table",
            WaitClass::RowLock => "wait/lock/row",
            WaitClass::Transactions => "wait/synch/mutex/trx",
            WaitClass::OtherMutex => "wait/synch/mutex/other",
        }
    }
}

/// Where a wait happens: its class and the page (or `u64::MAX` for none).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WaitSite {
    pub class: WaitClass,
    pub page: u64,
}

impl WaitSite {
    pub const fn new(class: WaitClass, page: u64) -> Self {
        Self { class, page }
    }
    pub const fn class(class: WaitClass) -> Self {
        Self {
            class,
            page: u64::MAX,
        }
    }
}

/// Runtime switch for wait recording. Read only on slow paths (a restart,
/// a blocked latch, an I/O), so it costs nothing on the fast path.
#[cfg(not(loom))]
static ENABLED: crate::SharedFlag = crate::SharedFlag::new(true);

/// Turns wait and restart recording on or off at run time.
#[cfg(not(loom))]
pub fn set_enabled(on: bool) {
    ENABLED.set(on);
}

/// Whether waits are being recorded.
#[cfg(not(loom))]
pub fn enabled() -> bool {
    ENABLED.get()
}

/// One page event in every `SAMPLE_EVERY` is kept in the thread's ring.
const SAMPLE_EVERY: u64 = 4;

#[cfg(not(loom))]
fn sample(slot: &crate::thread_slot::ThreadSlot, site: WaitSite, is_wait: bool) {
    if site.page == u64::MAX {
        return;
    }
    let clock = slot.sample_clock.get();
    slot.sample_clock.set(clock + 1);
    if !clock.is_multiple_of(SAMPLE_EVERY) {
        return;
    }
    let i = ((clock / SAMPLE_EVERY) as usize) % crate::thread_slot::PAGE_SAMPLES;
    let s = &slot.samples[i];
    s.page_plus_one.set(site.page.wrapping_add(1));
    s.what.set(site.class as u64 | ((is_wait as u64) << 8));
}

/// Records a failed optimistic validation at `site`.
#[cold]
pub fn record_restart(site: WaitSite) {
    #[cfg(not(loom))]
    if ENABLED.get() {
        crate::thread_slot::with(|slot| {
            slot.wait(site.class).restarts.add(1);
            sample(slot, site, false);
        });
    }
    #[cfg(loom)]
    let _ = site;
}

/// Records a finished wait of `nanos` at `site`.
#[cold]
pub fn record_wait(site: WaitSite, nanos: u64) {
    #[cfg(not(loom))]
    if ENABLED.get() {
        crate::thread_slot::with(|slot| {
            let cell = slot.wait(site.class);
            cell.waits.add(1);
            cell.wait_ns.add(nanos);
            cell.max_ns.raise(nanos);
            sample(slot, site, true);
        });
    }
    #[cfg(loom)]
    let _ = (site, nanos);
}

/// Times a slow-path wait; records it when dropped.
pub struct WaitTimer {
    site: WaitSite,
    start: Instant,
}

impl WaitTimer {
    #[cold]
    pub fn start(site: WaitSite) -> Self {
        Self {
            site,
            start: Instant::now(),
        }
    }
}

impl Drop for WaitTimer {
    fn drop(&mut self) {
        record_wait(self.site, self.start.elapsed().as_nanos() as u64);
    }
}

/// Totals of one wait class over all threads.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct WaitSummary {
    pub waits: u64,
    pub wait_ns: u64,
    pub max_ns: u64,
    pub restarts: u64,
}

/// Sums the wait table over all threads.
pub fn summary() -> Vec<(WaitClass, WaitSummary)> {
    let mut out: Vec<(WaitClass, WaitSummary)> = WaitClass::ALL
        .iter()
        .map(|c| (*c, WaitSummary::default()))
        .collect();
    #[cfg(not(loom))]
    crate::thread_slot::for_each(|slot| {
        for (class, sum) in out.iter_mut() {
            let cell = slot.wait(*class);
            sum.waits += cell.waits.get();
            sum.wait_ns += cell.wait_ns.get();
            sum.max_ns = sum.max_ns.max(cell.max_ns.get());
            sum.restarts += cell.restarts.get();
        }
    });
    out
}

/// Sampled slow-path events per page: (page, class, restarts, waits), most first.
pub fn hot_pages() -> Vec<(u64, WaitClass, u64, u64)> {
    use std::collections::HashMap;
    let mut map: HashMap<(u64, usize), (u64, u64)> = HashMap::new();
    #[cfg(not(loom))]
    crate::thread_slot::for_each(|slot| {
        for s in slot.samples.iter() {
            let p = s.page_plus_one.get();
            if p == 0 {
                continue;
            }
            let what = s.what.get();
            let e = map.entry((p - 1, (what & 0xff) as usize)).or_insert((0, 0));
            if what & 0x100 != 0 {
                e.1 += 1;
            } else {
                e.0 += 1;
            }
        }
    });
    let mut v: Vec<_> = map
        .into_iter()
        .filter(|((_, c), _)| *c < WAIT_CLASS_COUNT)
        .map(|((p, c), (r, w))| (p, WaitClass::ALL[c], r, w))
        .collect();
    v.sort_by_key(|e| std::cmp::Reverse(e.2 + e.3));
    v
}

#[cfg(all(test, not(loom)))]
mod tests {
    use super::*;

    #[test]
    fn waits_and_restarts_are_summed() {
        let before = summary();
        std::thread::spawn(|| {
            record_restart(WaitSite::new(WaitClass::PageAlloc, 7));
            record_wait(WaitSite::new(WaitClass::PageAlloc, 7), 1000);
        })
        .join()
        .unwrap();
        let after = summary();
        let i = WaitClass::PageAlloc as usize;
        assert_eq!(after[i].1.restarts - before[i].1.restarts, 1);
        assert_eq!(after[i].1.waits - before[i].1.waits, 1);
        assert!(after[i].1.max_ns >= 1000);
    }
}
