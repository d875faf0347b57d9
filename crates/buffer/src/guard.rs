//! Page guards. The mode is in the type: an [`OptimisticGuard`] only reads
//! (and must validate before trusting what it read); an [`ExclusiveGuard`]
//! holds the page's latch and may write.
//!
//! Guards reach the pool that made them through [`GuardedPages`], which the
//! pool implements: the pool hands out guards, a guard names no pool type.
//! Only the pool makes guards (their fields are private to this crate), so
//! a guard's frame always lies in that pool's frame arena.
use crate::{Interrupt, PageId};
use lineardb_sync::{wait, HybridLatch, RacySlice, RacySliceMut, Version, WaitClass, WaitSite};

/// What a guard needs of the pool that made it.
pub trait GuardedPages {
    /// The latch of `pid`, a page this pool made a guard for.
    fn latch(&self, pid: PageId) -> &HybridLatch;
    /// Bytes per page (the length of every frame).
    fn page_size(&self) -> usize;
    /// Marks `pid`, held exclusively, dirty.
    fn mark_dirty(&self, pid: PageId);
    /// Frees `pid`, held exclusively, and releases its latch.
    fn free_locked(&self, pid: PageId);
}

/// An optimistic read of a page: holds nothing, writes nothing.
pub struct OptimisticGuard<'a, P: GuardedPages> {
    pub(crate) pool: &'a P,
    pub(crate) pid: PageId,
    pub(crate) version: Version,
    pub(crate) frame: *const u8,
    pub(crate) class: WaitClass,
}

impl<'a, P: GuardedPages> OptimisticGuard<'a, P> {
    pub fn pid(&self) -> PageId {
        self.pid
    }

    /// The page's bytes, possibly changing under the reader until validated.
    #[inline]
    pub fn page(&self) -> RacySlice<'a> {
        // SAFETY: `frame` points into the pool's frame arena, which stays
        // mapped while the pool lives ('a), and all access to frames is atomic.
        unsafe { RacySlice::new(self.frame, self.pool.page_size()) }
    }

    /// True if no writer touched the page since the guard was taken.
    #[inline]
    pub fn is_valid(&self) -> bool {
        self.pool.latch(self.pid).validate(self.version)
    }

    /// `Ok` if the reads made through this guard saw a consistent page;
    /// otherwise records a restart and returns `Interrupt::Restart`.
    #[inline]
    pub fn validate(&self) -> Result<(), Interrupt> {
        if self.is_valid() {
            Ok(())
        } else {
            wait::record_restart(WaitSite::new(self.class, self.pid));
            Err(Interrupt::Restart)
        }
    }

    /// Turns the read into an exclusive hold if the page did not change.
    pub fn upgrade(self) -> Result<ExclusiveGuard<'a, P>, Interrupt> {
        if self.pool.latch(self.pid).try_upgrade(self.version) {
            self.pool.mark_dirty(self.pid);
            Ok(ExclusiveGuard {
                pool: self.pool,
                pid: self.pid,
                frame: self.frame as *mut u8,
            })
        } else {
            wait::record_restart(WaitSite::new(self.class, self.pid));
            Err(Interrupt::Restart)
        }
    }
}

/// An exclusive hold on a resident page. Dropping it releases the latch and
/// bumps the page's version.
pub struct ExclusiveGuard<'a, P: GuardedPages> {
    pub(crate) pool: &'a P,
    pub(crate) pid: PageId,
    pub(crate) frame: *mut u8,
}

impl<P: GuardedPages> ExclusiveGuard<'_, P> {
    pub fn pid(&self) -> PageId {
        self.pid
    }

    pub fn page(&self) -> RacySlice<'_> {
        // SAFETY: as for OptimisticGuard::page.
        unsafe { RacySlice::new(self.frame, self.pool.page_size()) }
    }

    pub fn page_mut(&mut self) -> RacySliceMut<'_> {
        // SAFETY: as for `page`, and this guard holds the exclusive latch, so
        // it is the only writer of the frame.
        unsafe { RacySliceMut::new(self.frame, self.pool.page_size()) }
    }

    /// LSN of the last logged change to this page.
    pub fn lsn(&self) -> u64 {
        self.page().u64_at(crate::PAGE_LSN_OFFSET)
    }

    /// Stamps the page with the LSN of the record that logged its change
    /// (while the change is still latched, so page LSNs follow log order).
    pub fn set_lsn(&mut self, lsn: u64) {
        self.page_mut().set_u64(crate::PAGE_LSN_OFFSET, lsn);
    }

    /// Returns the page to the free list (consumes the hold).
    pub fn free(self) {
        let pool = self.pool;
        let pid = self.pid;
        std::mem::forget(self);
        pool.free_locked(pid);
    }
}

impl<P: GuardedPages> Drop for ExclusiveGuard<'_, P> {
    fn drop(&mut self) {
        self.pool.latch(self.pid).unlock_exclusive();
    }
}
