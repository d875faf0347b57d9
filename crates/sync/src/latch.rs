//! The hybrid latch: optimistic, shared and exclusive modes on one 64-bit word.
//!
//! Layout of the word:
//! ```text
//!  63      56 55  54                                   0
//! +----------+---+--------------------------------------+
//! |  state   | P |               version                |
//! +----------+---+--------------------------------------+
//! ```
//! `state`: 0 absent (page not in memory; a zeroed word is an absent page),
//! 1 unlocked, 1+n held shared by n threads (n <= `MAX_SHARED`), 254 marked
//! (unlocked, and an eviction candidate), 255 exclusive. `P`: some thread is
//! parked on this latch. `version`: bumped when an exclusive holder releases.
//!
//! Invariants:
//! - The version changes only on exclusive release, so an optimistic reader
//!   that sees the same version, not exclusive and not absent, before and after
//!   its reads, read a state no writer touched (seqlock).
//! - Readers write the word only to clear a mark, and only when it is set
//!   (a "reference bit written only if not already set", DESIGN.md inv. 1).
//! - Shared holders do not change the version: optimistic readers are not
//!   disturbed by them.
use crate::atomic::{fence, spin_hint, yield_now, AtomicU64, Ordering};
use crate::audit;
use crate::park;
use crate::wait::{WaitSite, WaitTimer};

const STATE_SHIFT: u32 = 56;
const PARKED: u64 = 1 << 55;
const VERSION_MASK: u64 = PARKED - 1;

const ABSENT: u64 = 0;
const UNLOCKED: u64 = 1;
/// Most shared holders at once; more wait.
pub const MAX_SHARED: u64 = 250;
const MARKED: u64 = 254;
const EXCLUSIVE: u64 = 255;

#[inline(always)]
fn state(word: u64) -> u64 {
    word >> STATE_SHIFT
}
#[inline(always)]
fn version(word: u64) -> u64 {
    word & VERSION_MASK
}
#[inline(always)]
const fn make(state: u64, version: u64) -> u64 {
    (state << STATE_SHIFT) | (version & VERSION_MASK)
}

/// What an optimistic start found instead of a readable latch.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LatchState {
    Absent,
    Unlocked,
    Shared(u8),
    Marked,
    Exclusive,
}

/// A version observed by an optimistic reader, to validate against later.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Version(u64);

impl Version {
    pub fn get(self) -> u64 {
        self.0
    }
}

/// Spins before parking: short, because with more threads than cores the
/// holder may be the one not running.
const SPINS: u32 = if cfg!(loom) { 0 } else { 8 };
const YIELDS: u32 = if cfg!(loom) { 0 } else { 2 };

/// `repr(transparent)`: a zeroed word is a valid (absent) latch, so latches
/// can live in zero-filled memory such as a fresh page table.
#[derive(Debug)]
#[repr(transparent)]
pub struct HybridLatch {
    word: AtomicU64,
}

impl Default for HybridLatch {
    fn default() -> Self {
        Self::new_unlocked()
    }
}

impl HybridLatch {
    /// An unlocked latch at version 0.
    #[cfg(not(loom))]
    pub const fn new_unlocked() -> Self {
        Self {
            word: AtomicU64::new(make(UNLOCKED, 0)),
        }
    }
    #[cfg(loom)]
    pub fn new_unlocked() -> Self {
        Self {
            word: AtomicU64::new(make(UNLOCKED, 0)),
        }
    }
    /// An absent latch (the state of a zeroed word).
    #[cfg(not(loom))]
    pub const fn new_absent() -> Self {
        Self {
            word: AtomicU64::new(0),
        }
    }
    #[cfg(loom)]
    pub fn new_absent() -> Self {
        Self {
            word: AtomicU64::new(0),
        }
    }

    /// The current state, for diagnostics and for the evictor.
    pub fn state(&self) -> LatchState {
        decode(self.word.load(Ordering::Acquire))
    }

    /// The current version bits.
    pub fn version(&self) -> u64 {
        version(self.word.load(Ordering::Acquire))
    }

    /// Starts an optimistic read without waiting. Clears an eviction mark
    /// (the only write a reader may make, and only when the mark is set).
    #[inline]
    pub fn try_optimistic(&self) -> Result<Version, LatchState> {
        let w = self.word.load(Ordering::Acquire);
        let s = state(w);
        if s == EXCLUSIVE || s == ABSENT {
            return Err(decode(w));
        }
        if s == MARKED {
            self.unmark(w);
        }
        Ok(Version(version(w)))
    }

    /// Starts an optimistic read, waiting while an exclusive holder works.
    /// Returns `Err(LatchState::Absent)` if the latch is (or becomes) absent.
    #[inline]
    pub fn optimistic_or_wait(&self, site: WaitSite) -> Result<Version, LatchState> {
        match self.try_optimistic() {
            Ok(v) => Ok(v),
            Err(LatchState::Absent) => Err(LatchState::Absent),
            Err(_) => self.optimistic_slow(site),
        }
    }

    #[cold]
    fn optimistic_slow(&self, site: WaitSite) -> Result<Version, LatchState> {
        loop {
            self.wait_while(site, |w| state(w) == EXCLUSIVE);
            match self.try_optimistic() {
                Ok(v) => return Ok(v),
                Err(LatchState::Absent) => return Err(LatchState::Absent),
                Err(_) => continue,
            }
        }
    }

    /// True if nothing was written under the latch since `v` was observed.
    /// Call after the reads it protects.
    #[inline]
    pub fn validate(&self, v: Version) -> bool {
        // Orders the protected (relaxed) reads before the re-check (seqlock).
        fence(Ordering::Acquire);
        let w = self.word.load(Ordering::Relaxed);
        let s = state(w);
        version(w) == v.0 && s != EXCLUSIVE && s != ABSENT
    }

    /// Takes the latch in shared mode, waiting if it is exclusive.
    /// Returns `Err(Absent)` if it is absent.
    pub fn lock_shared(&self, site: WaitSite) -> Result<(), LatchState> {
        loop {
            let w = self.word.load(Ordering::Relaxed);
            let s = state(w);
            let next = match s {
                ABSENT => return Err(LatchState::Absent),
                UNLOCKED | MARKED => make(UNLOCKED + 1, version(w)) | (w & PARKED),
                s if s > UNLOCKED && s < UNLOCKED + MAX_SHARED => w + (1 << STATE_SHIFT),
                _ => {
                    self.wait_while(site, |w| {
                        let s = state(w);
                        s == EXCLUSIVE || s == UNLOCKED + MAX_SHARED
                    });
                    continue;
                }
            };
            audit::record(audit::Source::LatchShared, 1);
            if self
                .word
                .compare_exchange_weak(w, next, Ordering::Acquire, Ordering::Relaxed)
                .is_ok()
            {
                return Ok(());
            }
        }
    }

    /// Releases a shared hold.
    pub fn unlock_shared(&self) {
        loop {
            let w = self.word.load(Ordering::Relaxed);
            let s = state(w);
            debug_assert!(
                s > UNLOCKED && s <= UNLOCKED + MAX_SHARED,
                "not held shared"
            );
            let last = s == UNLOCKED + 1;
            let next = if last {
                make(UNLOCKED, version(w))
            } else {
                w - (1 << STATE_SHIFT)
            };
            audit::record(audit::Source::LatchShared, 1);
            if self
                .word
                .compare_exchange_weak(w, next, Ordering::Release, Ordering::Relaxed)
                .is_ok()
            {
                if last && w & PARKED != 0 {
                    park::unpark_all(self.addr());
                }
                return;
            }
        }
    }

    /// Takes the latch exclusively, waiting for holders to leave.
    /// Returns `Err(Absent)` if it is absent.
    pub fn lock_exclusive(&self, site: WaitSite) -> Result<(), LatchState> {
        loop {
            let w = self.word.load(Ordering::Relaxed);
            match state(w) {
                ABSENT => return Err(LatchState::Absent),
                UNLOCKED | MARKED => {
                    if self.cas_exclusive(w) {
                        return Ok(());
                    }
                }
                _ => self.wait_while(site, |w| {
                    let s = state(w);
                    s != UNLOCKED && s != MARKED && s != ABSENT
                }),
            }
        }
    }

    /// Turns an optimistic read at version `v` into an exclusive hold if no
    /// one wrote or holds the latch since. Never waits.
    #[inline]
    pub fn try_upgrade(&self, v: Version) -> bool {
        let w = self.word.load(Ordering::Relaxed);
        let s = state(w);
        version(w) == v.0 && (s == UNLOCKED || s == MARKED) && self.cas_exclusive(w)
    }

    /// Takes an absent latch exclusively (to load or create what it guards).
    /// Returns the version it had, or `None` if it was not absent.
    pub fn try_lock_absent(&self) -> Option<u64> {
        let w = self.word.load(Ordering::Relaxed);
        if state(w) != ABSENT {
            return None;
        }
        if self.cas_exclusive(w) {
            Some(version(w))
        } else {
            None
        }
    }

    /// Marks an unlocked latch as an eviction candidate. Returns true if marked
    /// now or already.
    pub fn try_mark(&self) -> bool {
        let w = self.word.load(Ordering::Relaxed);
        match state(w) {
            MARKED => true,
            UNLOCKED => {
                audit::record(audit::Source::LatchExclusive, 1);
                self.word
                    .compare_exchange(
                        w,
                        make(MARKED, version(w)),
                        Ordering::Relaxed,
                        Ordering::Relaxed,
                    )
                    .is_ok()
            }
            _ => false,
        }
    }

    /// Takes a latch that is still marked exclusively (the evictor's claim:
    /// no reader touched it since it was marked).
    pub fn try_lock_marked(&self) -> bool {
        let w = self.word.load(Ordering::Relaxed);
        state(w) == MARKED && self.cas_exclusive(w)
    }

    /// Releases an exclusive hold and bumps the version.
    pub fn unlock_exclusive(&self) {
        self.release_exclusive_to(UNLOCKED);
    }

    /// Releases an exclusive hold, leaving the latch absent (evicted or
    /// freed), and bumps the version so that optimistic readers restart.
    pub fn unlock_exclusive_to_absent(&self) {
        self.release_exclusive_to(ABSENT);
    }

    /// Releases an exclusive hold without bumping the version: for a holder
    /// that changed nothing (a loader that failed, an evictor that gave up).
    pub fn unlock_exclusive_unchanged(&self, absent: bool) {
        let w = self.word.load(Ordering::Relaxed);
        debug_assert_eq!(state(w), EXCLUSIVE);
        let next = make(if absent { ABSENT } else { UNLOCKED }, version(w));
        audit::record(audit::Source::LatchExclusive, 1);
        let old = self.word.swap(next, Ordering::Release);
        if old & PARKED != 0 {
            park::unpark_all(self.addr());
        }
    }

    fn release_exclusive_to(&self, to: u64) {
        let w = self.word.load(Ordering::Relaxed);
        debug_assert_eq!(state(w), EXCLUSIVE, "not held exclusively");
        // Only the holder changes state and version; others may only set P,
        // so a swap computed from this load is exact.
        let next = make(to, version(w) + 1);
        audit::record(audit::Source::LatchExclusive, 1);
        let old = self.word.swap(next, Ordering::Release);
        if old & PARKED != 0 {
            park::unpark_all(self.addr());
        }
    }

    #[inline]
    fn cas_exclusive(&self, w: u64) -> bool {
        audit::record(audit::Source::LatchExclusive, 1);
        let next = make(EXCLUSIVE, version(w)) | (w & PARKED);
        if self
            .word
            .compare_exchange(w, next, Ordering::Acquire, Ordering::Relaxed)
            .is_ok()
        {
            // Writes made under the latch must not become visible before the
            // state change does (seqlock writer side).
            fence(Ordering::Release);
            true
        } else {
            false
        }
    }

    fn unmark(&self, w: u64) {
        audit::record(audit::Source::LatchExclusive, 1);
        let _ = self.word.compare_exchange(
            w,
            make(UNLOCKED, version(w)) | (w & PARKED),
            Ordering::Relaxed,
            Ordering::Relaxed,
        );
    }

    fn addr(&self) -> usize {
        self as *const Self as usize
    }

    /// Waits while `blocked(word)`: a few spins, a few yields, then parks.
    /// Recorded as a wait at `site` (slow path only).
    #[cold]
    fn wait_while(&self, site: WaitSite, blocked: impl Fn(u64) -> bool) {
        let _timer = WaitTimer::start(site);
        let mut round = 0u32;
        loop {
            let w = self.word.load(Ordering::Relaxed);
            if !blocked(w) {
                return;
            }
            if round < SPINS {
                for _ in 0..(4u32 << round) {
                    spin_hint();
                }
            } else if round < SPINS + YIELDS {
                yield_now();
            } else {
                if w & PARKED == 0 {
                    audit::record(audit::Source::LatchPark, 1);
                    if self
                        .word
                        .compare_exchange(w, w | PARKED, Ordering::Relaxed, Ordering::Relaxed)
                        .is_err()
                    {
                        continue;
                    }
                }
                park::park(self.addr(), || {
                    let w = self.word.load(Ordering::Relaxed);
                    w & PARKED != 0 && blocked(w)
                });
            }
            round = round.saturating_add(1);
        }
    }
}

fn decode(w: u64) -> LatchState {
    match state(w) {
        ABSENT => LatchState::Absent,
        UNLOCKED => LatchState::Unlocked,
        MARKED => LatchState::Marked,
        EXCLUSIVE => LatchState::Exclusive,
        s => LatchState::Shared((s - UNLOCKED) as u8),
    }
}

#[cfg(all(test, not(loom)))]
mod tests {
    use super::*;
    use std::sync::Arc;

    const SITE: WaitSite = WaitSite::class(crate::wait_class!("wait/test/latch"));

    #[test]
    fn optimistic_read_fails_after_exclusive_release() {
        let l = HybridLatch::new_unlocked();
        let v = l.try_optimistic().unwrap();
        assert!(l.validate(v));
        l.lock_exclusive(SITE).unwrap();
        assert!(!l.validate(v), "exclusive holder present");
        l.unlock_exclusive();
        assert!(!l.validate(v), "version bumped");
        let v2 = l.try_optimistic().unwrap();
        assert_eq!(v2.get(), v.get() + 1);
    }

    #[test]
    fn shared_holders_do_not_disturb_optimistic_readers() {
        let l = HybridLatch::new_unlocked();
        let v = l.try_optimistic().unwrap();
        l.lock_shared(SITE).unwrap();
        l.lock_shared(SITE).unwrap();
        assert_eq!(l.state(), LatchState::Shared(2));
        assert!(l.validate(v));
        assert!(!l.try_upgrade(v), "cannot upgrade while shared is held");
        l.unlock_shared();
        l.unlock_shared();
        assert!(l.try_upgrade(v));
        l.unlock_exclusive();
    }

    #[test]
    fn marks_are_cleared_by_readers_and_claimed_by_the_evictor() {
        let l = HybridLatch::new_unlocked();
        assert!(l.try_mark());
        assert_eq!(l.state(), LatchState::Marked);
        let v = l.try_optimistic().unwrap();
        assert_eq!(l.state(), LatchState::Unlocked);
        assert!(!l.try_lock_marked());
        assert!(l.try_mark());
        assert!(l.try_lock_marked());
        l.unlock_exclusive_to_absent();
        assert!(!l.validate(v));
        assert_eq!(l.try_optimistic(), Err(LatchState::Absent));
        assert!(l.try_lock_absent().is_some());
        l.unlock_exclusive();
        assert!(l.try_optimistic().is_ok());
    }

    #[test]
    fn exclusive_excludes_across_threads_and_parks() {
        let l = Arc::new(HybridLatch::new_unlocked());
        let counter = Arc::new(crate::Mutex::new(0u64));
        let shared = Arc::new(crate::SharedWord::new(0));
        let threads: Vec<_> = (0..16)
            .map(|_| {
                let (l, shared) = (l.clone(), shared.clone());
                let _ = &counter;
                std::thread::spawn(move || {
                    for _ in 0..2000 {
                        l.lock_exclusive(SITE).unwrap();
                        // Non-atomic-style increment: load then store; correct
                        // only under mutual exclusion.
                        let v = shared.load();
                        shared.store(v + 1);
                        l.unlock_exclusive();
                    }
                })
            })
            .collect();
        for t in threads {
            t.join().unwrap();
        }
        assert_eq!(shared.load(), 32000);
        assert_eq!(l.version(), 32000);
    }
}
