//! Wait events: every latch class and every kind of I/O, recorded only on slow
//! paths (a failed optimistic validation is a *restart*, a blocked latch or an
//! I/O is a *wait*), per thread, with per-page samples (DESIGN.md invariant 3).
use std::time::Instant;

pub use crate::wait_class::{
    register, registered, WaitClass, WaitClassDef, MAX_WAIT_CLASSES, OTHER_MUTEX,
};

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

#[cfg(not(loom))]
pub use crate::instrumentation::{enabled, set_enabled};

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
    s.what
        .set(site.class.index() as u64 | ((is_wait as u64) << 8));
}

/// Records a failed optimistic validation at `site`.
#[cold]
pub fn record_restart(site: WaitSite) {
    #[cfg(not(loom))]
    if enabled() {
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
    if enabled() {
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

/// Sums the wait table over all threads: every registered class, in
/// registration order.
pub fn summary() -> Vec<(WaitClass, WaitSummary)> {
    let mut out: Vec<(WaitClass, WaitSummary)> = registered()
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
    let classes = registered();
    let mut v: Vec<_> = map
        .into_iter()
        .filter(|((_, c), _)| *c < classes.len())
        .map(|((p, c), (r, w))| (p, classes[c], r, w))
        .collect();
    v.sort_by_key(|e| std::cmp::Reverse(e.2 + e.3));
    v
}

#[cfg(all(test, not(loom)))]
mod tests {
    use super::*;

    const TESTED: WaitClass = crate::wait_class!("wait/test/summed");

    #[test]
    fn waits_and_restarts_are_summed() {
        register(&[TESTED]);
        let before = summary();
        std::thread::spawn(|| {
            record_restart(WaitSite::new(TESTED, 7));
            record_wait(WaitSite::new(TESTED, 7), 1000);
        })
        .join()
        .unwrap();
        let after = summary();
        let i = TESTED.index();
        assert_eq!(after[i].0, TESTED);
        assert_eq!(after[i].1.restarts - before[i].1.restarts, 1);
        assert_eq!(after[i].1.waits - before[i].1.waits, 1);
        assert!(after[i].1.max_ns >= 1000);
    }
}
