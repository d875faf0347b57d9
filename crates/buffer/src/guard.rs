//! Page guards. The mode is in the type: an [`OptimisticGuard`] only reads
//! (and must validate before trusting what it read); an [`ExclusiveGuard`]
//! holds the page's latch and may write.
use crate::page_entry::PageEntry;
use crate::{Interrupt, PageId};
use lineardb_sync::{wait, RacySlice, RacySliceMut, Version, WaitClass, WaitSite};

/// An optimistic read of a page: holds nothing, writes nothing.
pub struct OptimisticGuard<'a> {
    pub(crate) entry: &'a PageEntry,
    pub(crate) pid: PageId,
    pub(crate) version: Version,
    pub(crate) frame: *const u8,
    pub(crate) page_size: usize,
    pub(crate) class: WaitClass,
}

impl<'a> OptimisticGuard<'a> {
    pub fn pid(&self) -> PageId {
        self.pid
    }

    /// The page's bytes, possibly changing under the reader until validated.
    #[inline]
    pub fn page(&self) -> RacySlice<'a> {
        // SAFETY: `frame` points to `page_size` bytes in the pool's frame
        // arena, which stays mapped while the pool lives ('a), and all
        // access to frames is atomic.
        unsafe { RacySlice::new(self.frame, self.page_size) }
    }

    /// True if no writer touched the page since the guard was taken.
    #[inline]
    pub fn is_valid(&self) -> bool {
        self.entry.latch.validate(self.version)
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
    pub fn upgrade(self) -> Result<ExclusiveGuard<'a>, Interrupt> {
        if self.entry.latch.try_upgrade(self.version) {
            self.entry.mark_dirty();
            Ok(ExclusiveGuard {
                entry: self.entry,
                pid: self.pid,
                frame: self.frame as *mut u8,
                page_size: self.page_size,
            })
        } else {
            wait::record_restart(WaitSite::new(self.class, self.pid));
            Err(Interrupt::Restart)
        }
    }
}

/// An exclusive hold on a resident page. Dropping it releases the latch and
/// bumps the page's version.
pub struct ExclusiveGuard<'a> {
    pub(crate) entry: &'a PageEntry,
    pub(crate) pid: PageId,
    pub(crate) frame: *mut u8,
    pub(crate) page_size: usize,
}

impl<'a> ExclusiveGuard<'a> {
    pub fn pid(&self) -> PageId {
        self.pid
    }

    pub fn page(&self) -> RacySlice<'_> {
        // SAFETY: as for OptimisticGuard::page.
        unsafe { RacySlice::new(self.frame, self.page_size) }
    }

    pub fn page_mut(&mut self) -> RacySliceMut<'_> {
        // SAFETY: as for `page`, and this guard holds the exclusive latch, so
        // it is the only writer of the frame.
        unsafe { RacySliceMut::new(self.frame, self.page_size) }
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
}

impl Drop for ExclusiveGuard<'_> {
    fn drop(&mut self) {
        self.entry.latch.unlock_exclusive();
    }
}
