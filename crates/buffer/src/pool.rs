//! The buffer pool.
//!
//! Page table: an array of [`PageEntry`] indexed by page id in a zero-filled
//! mapping sized for `max_pages` (untouched parts cost nothing). Each entry is
//! the page's [`HybridLatch`] (absent = not in memory) and a frame word
//! (frame index + 1, dirty and freed bits) that changes only under the page's
//! exclusive latch. A reader finds a page with two loads from one cache line:
//! no hash table, no pin count.
//!
//! Frames: a fixed array of page-sized slots, mapped for the pool's life so a
//! stale reader never faults. `frame_owner` maps a frame back to its page for
//! the clock.
//!
//! Eviction is a clock over frames: an unlocked page is marked; a page still
//! marked on the next pass (no reader cleared the mark) is taken exclusively,
//! written back if dirty and made absent. Readers clear a mark only if set.
//!
//! Shared words written here, all off the per-row read path:
//! `clock` (evicting threads), `page_count` and the free lists (allocation),
//! the frame words (writers and loaders of that page).
use crate::arena::Arena;
use crate::file::{self, DataFile, FileHeader};
use crate::guard::{ExclusiveGuard, OptimisticGuard};
use crate::log::{Lsn, PageLog};
use crate::page_entry::{PageEntry, FRAME_DIRTY, FRAME_FREED, FRAME_INDEX};
use crate::spare::{using_spare_pages, SPARE_PAGES};
use crate::waits;
use crate::{Error, FaultPlan, Interrupt, PageId, Result, HEADER_PAGE, PAGE_LSN_OFFSET};
use lineardb_sync::thread_slot::{count, Counter};
use lineardb_sync::wait::WaitTimer;
use lineardb_sync::{
    LatchState, Mutex, RacySlice, RacySliceMut, SharedFlag, SharedWord, WaitClass, WaitSite,
};
use std::path::Path;
use std::sync::{Arc, OnceLock};

/// Free-chain page layout: next pid at 16, count at 24, pids from 32.
const CHAIN_NEXT: usize = 16;
const CHAIN_COUNT: usize = 24;
const CHAIN_PIDS: usize = 32;

#[derive(Debug, Clone)]
pub struct PoolConfig {
    /// Bytes per page (power of two, 512..=32768); fixed when the file is made.
    pub page_size: usize,
    /// Bytes of frames; the pool holds `pool_bytes / page_size` pages.
    pub pool_bytes: usize,
    /// Largest page count the file may reach (sizes the page table mapping).
    pub max_pages: u64,
}

impl Default for PoolConfig {
    fn default() -> Self {
        PoolConfig {
            page_size: 16 * 1024,
            pool_bytes: 1 << 30,
            max_pages: 1 << 26,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PoolStats {
    pub page_size: usize,
    pub frames: usize,
    pub resident: usize,
    pub page_count: u64,
    pub free_pages: usize,
}

pub struct BufferPool {
    file: DataFile,
    page_size: usize,
    table: Arena,
    capacity: u64,
    frames: Arena,
    nframes: usize,
    frame_owner: Box<[SharedWord]>,
    free_frames: Mutex<Vec<u32>>,
    clock: SharedWord,
    page_count: SharedWord,
    free_pages: Mutex<Vec<PageId>>,
    closed: SharedFlag,
    /// The redo log, once one is attached: pages are written back only
    /// after the log is durable up to their LSN.
    log: OnceLock<Arc<dyn PageLog>>,
    /// Start LSN of the last checkpoint record (kept in the file header).
    checkpoint: SharedWord,
}

impl BufferPool {
    /// Creates a new data file (it must not exist).
    pub fn create(path: &Path, cfg: PoolConfig) -> Result<BufferPool> {
        if !file::valid_page_size(cfg.page_size) {
            return Err(Error::Invalid(format!(
                "page size {} is not a power of two in 512..=32768",
                cfg.page_size
            )));
        }
        let file = DataFile::create(path, cfg.page_size)?;
        let pool = Self::with_file(file, &cfg, 1)?;
        pool.file.write_header(&pool.header(0))?;
        Ok(pool)
    }

    /// Opens an existing data file; the page size comes from its header.
    pub fn open(path: &Path, cfg: PoolConfig) -> Result<BufferPool> {
        let (file, header) = DataFile::open(path)?;
        let cfg = PoolConfig {
            page_size: header.page_size,
            ..cfg
        };
        let pool = Self::with_file(file, &cfg, header.page_count)?;
        pool.checkpoint.store(header.checkpoint);
        pool.load_free_chain(header.free_head)?;
        Ok(pool)
    }

    fn with_file(file: DataFile, cfg: &PoolConfig, page_count: u64) -> Result<BufferPool> {
        let page_size = file.page_size();
        let nframes = (cfg.pool_bytes / page_size).max(8);
        if nframes > FRAME_INDEX as usize - 1 {
            return Err(Error::Invalid("pool too large".into()));
        }
        let capacity = cfg.max_pages.max(page_count);
        let table = Arena::new(capacity as usize * std::mem::size_of::<PageEntry>())?;
        let frames = Arena::new(nframes * page_size)?;
        Ok(BufferPool {
            file,
            page_size,
            table,
            capacity,
            frames,
            nframes,
            frame_owner: (0..nframes).map(|_| SharedWord::new(0)).collect(),
            free_frames: Mutex::with_class(waits::EVICTION, (0..nframes as u32).rev().collect()),
            clock: SharedWord::new(0),
            page_count: SharedWord::new(page_count),
            free_pages: Mutex::with_class(waits::PAGE_ALLOC, Vec::new()),
            closed: SharedFlag::new(false),
            log: OnceLock::new(),
            checkpoint: SharedWord::new(0),
        })
    }

    pub fn page_size(&self) -> usize {
        self.page_size
    }

    pub fn stats(&self) -> PoolStats {
        PoolStats {
            page_size: self.page_size,
            frames: self.nframes,
            resident: self.frame_owner.iter().filter(|o| o.load() != 0).count(),
            page_count: self.page_count.load(),
            free_pages: self.free_pages.lock().len(),
        }
    }

    fn header(&self, free_head: PageId) -> FileHeader {
        FileHeader {
            page_size: self.page_size,
            page_count: self.page_count.load(),
            free_head,
            checkpoint: self.checkpoint.load(),
        }
    }

    /// Attaches the redo log (once). From now on a dirty page is written
    /// only after the log is durable up to the page's LSN.
    pub fn attach_log(&self, log: Arc<dyn PageLog>) -> Result<()> {
        self.log
            .set(log)
            .map_err(|_| Error::Invalid("a log is already attached".into()))
    }

    /// The attached redo log, if any.
    #[inline]
    pub fn log(&self) -> Option<&dyn PageLog> {
        self.log.get().map(|l| l.as_ref())
    }

    /// Start LSN of the last checkpoint record, as the file header says.
    pub fn checkpoint_lsn(&self) -> Lsn {
        self.checkpoint.load()
    }

    /// Records a completed checkpoint in the file header and syncs the file.
    /// The caller has written every page dirtied before the checkpoint's
    /// start and synced them ([`flush`](Self::flush), [`sync`](Self::sync)).
    pub fn set_checkpoint(&self, lsn: Lsn) -> Result<()> {
        self.checkpoint.store(lsn);
        self.file.write_header(&self.header(0))?;
        self.sync()
    }

    /// Injects the faults of `plan` into the data file's later writes,
    /// syncs and space reservations (fault-injection tests).
    pub fn inject_faults(&self, plan: Arc<FaultPlan>) {
        self.file.inject_faults(plan);
    }

    /// Syncs the data file.
    pub fn sync(&self) -> Result<()> {
        let _timer = WaitTimer::start(WaitSite::class(waits::IO_SYNC));
        self.file.sync()
    }

    /// The page count and the free pages (for a checkpoint record).
    pub fn allocation(&self) -> (u64, Vec<PageId>) {
        let free = self.free_pages.lock();
        (self.page_count.load(), free.clone())
    }

    /// Replaces the page count and the free list with those recovery
    /// rebuilt from the log. Only before any page is in use.
    pub fn set_allocation(&self, page_count: u64, free: Vec<PageId>) -> Result<()> {
        if page_count > self.capacity {
            return Err(Error::FileFull(self.capacity));
        }
        let mut list = self.free_pages.lock();
        for &pid in list.iter() {
            self.entry(pid)?.frame.store(0);
        }
        for &pid in &free {
            if pid >= page_count || pid == HEADER_PAGE {
                return Err(Error::Corrupt {
                    page: pid,
                    reason: "free page beyond the page count".into(),
                });
            }
            self.entry(pid)?.frame.store(FRAME_FREED);
        }
        *list = free;
        self.page_count.store(page_count);
        Ok(())
    }

    /// Takes `pid` exclusively for recovery to overwrite with a logged
    /// image: a page not in memory is *not* read (the copy on disk may be
    /// torn), its frame is zeroed instead.
    pub fn overwrite(&self, pid: PageId) -> Result<ExclusiveGuard<'_>> {
        let entry = self.entry(pid)?;
        if pid >= self.page_count.load() {
            return Err(Error::Corrupt {
                page: pid,
                reason: "logged page beyond the page count".into(),
            });
        }
        loop {
            if entry.latch.state() != LatchState::Absent {
                match self.exclusive(pid, waits::PAGE) {
                    Ok(g) => return Ok(g),
                    Err(Interrupt::Restart) => continue,
                    Err(Interrupt::Error(e)) => return Err(e),
                }
            }
            if entry.latch.try_lock_absent().is_none() {
                std::thread::yield_now();
                continue;
            }
            return self.zeroed_frame(pid);
        }
    }

    /// Gives `pid`, whose absent latch the caller holds, a zeroed dirty
    /// frame, and holds it exclusively. On failure the latch is released.
    fn zeroed_frame(&self, pid: PageId) -> Result<ExclusiveGuard<'_>> {
        let entry = self.entry_unchecked(pid);
        let frame = match self.take_frame() {
            Ok(f) => f,
            Err(e) => {
                entry.latch.unlock_exclusive_unchanged(true);
                return Err(e);
            }
        };
        let mut mem = self.frame_mut(frame);
        let zeros = [0u8; 512];
        for off in (0..self.page_size).step_by(512) {
            mem.write(off, &zeros);
        }
        entry.frame.store((frame as u64 + 1) | FRAME_DIRTY);
        self.frame_owner[frame].store(pid + 1);
        Ok(ExclusiveGuard {
            entry,
            pid,
            frame: self.frame_ptr(frame),
            page_size: self.page_size,
        })
    }

    #[inline(always)]
    fn entry_unchecked(&self, pid: PageId) -> &PageEntry {
        debug_assert!(pid < self.capacity);
        // SAFETY: pid < capacity (checked by every caller through `entry`, or
        // the pid came from a guard made by it); the table mapping is zeroed,
        // lives as long as the pool, and a zeroed PageEntry is valid (absent
        // latch, no frame). Entries are only accessed atomically.
        unsafe { &*(self.table.ptr() as *const PageEntry).add(pid as usize) }
    }

    #[inline(always)]
    fn entry(&self, pid: PageId) -> Result<&PageEntry> {
        if pid >= self.capacity || pid == HEADER_PAGE {
            return Err(Error::Corrupt {
                page: pid,
                reason: "page id out of range".into(),
            });
        }
        Ok(self.entry_unchecked(pid))
    }

    #[inline(always)]
    fn frame_ptr(&self, frame: usize) -> *mut u8 {
        debug_assert!(frame < self.nframes);
        // SAFETY: frame < nframes, so the offset stays inside the frame arena.
        unsafe { self.frames.ptr().add(frame * self.page_size) }
    }

    fn frame_mut(&self, frame: usize) -> RacySliceMut<'_> {
        // SAFETY: callers hold the exclusive latch of the page owning `frame`
        // (or own a frame no page uses yet); frames are only accessed atomically.
        unsafe { RacySliceMut::new(self.frame_ptr(frame), self.page_size) }
    }

    fn frame_read(&self, frame: usize) -> RacySlice<'_> {
        // SAFETY: frames stay mapped while the pool lives; atomic access only.
        unsafe { RacySlice::new(self.frame_ptr(frame), self.page_size) }
    }

    /// Asks the CPU to fetch the first `bytes` and the last `tail` bytes of
    /// page `pid` into cache if the page is in memory (a hint: reads nothing
    /// it relies on, writes nothing).
    #[inline]
    pub fn prefetch_page(&self, pid: PageId, bytes: usize, tail: usize) {
        if pid >= self.capacity {
            return;
        }
        let frame = (self.entry_unchecked(pid).frame.load() & FRAME_INDEX) as usize;
        if frame == 0 || frame > self.nframes {
            return;
        }
        let page = self.frame_read(frame - 1);
        for off in (0..bytes.min(self.page_size)).step_by(64) {
            page.prefetch(off);
        }
        for off in (self.page_size.saturating_sub(tail)..self.page_size).step_by(64) {
            page.prefetch(off);
        }
    }

    /// True if `pid` is in memory now (a single load; may change at once).
    #[inline]
    pub fn is_resident(&self, pid: PageId) -> bool {
        pid < self.capacity && self.entry_unchecked(pid).latch.state() != LatchState::Absent
    }

    /// Starts an optimistic read of `pid`, loading it if it is not resident.
    #[inline]
    pub fn optimistic(
        &self,
        pid: PageId,
        class: WaitClass,
    ) -> std::result::Result<OptimisticGuard<'_>, Interrupt> {
        let entry = self.entry(pid)?;
        loop {
            match entry.latch.optimistic_or_wait(WaitSite::new(class, pid)) {
                Ok(version) => {
                    let frame = (entry.frame.load() & FRAME_INDEX) as usize;
                    // A stale frame word is caught by validation; it must only
                    // never send the reader outside the arena.
                    if frame == 0 || frame > self.nframes {
                        if !entry.latch.validate(version) {
                            continue;
                        }
                        return Err(Error::Corrupt {
                            page: pid,
                            reason: "resident page without a frame".into(),
                        }
                        .into());
                    }
                    return Ok(OptimisticGuard {
                        entry,
                        pid,
                        version,
                        frame: self.frame_ptr(frame - 1),
                        page_size: self.page_size,
                        class,
                    });
                }
                Err(_) => self.load(pid, class)?,
            }
        }
    }

    /// Takes `pid` exclusively, waiting for other holders and loading it if needed.
    pub fn exclusive(
        &self,
        pid: PageId,
        class: WaitClass,
    ) -> std::result::Result<ExclusiveGuard<'_>, Interrupt> {
        let entry = self.entry(pid)?;
        loop {
            match entry.latch.lock_exclusive(WaitSite::new(class, pid)) {
                Ok(()) => {
                    let frame = (entry.frame.load() & FRAME_INDEX) as usize;
                    self.mark_dirty(pid);
                    return Ok(ExclusiveGuard {
                        entry,
                        pid,
                        frame: self.frame_ptr(frame - 1),
                        page_size: self.page_size,
                    });
                }
                Err(_) => self.load(pid, class)?,
            }
        }
    }

    pub(crate) fn mark_dirty(&self, pid: PageId) {
        self.entry_unchecked(pid).mark_dirty();
    }

    /// Returns the held page to the free list (consumes the hold).
    pub fn free_page(&self, g: ExclusiveGuard<'_>) {
        let pid = g.pid();
        std::mem::forget(g);
        self.free_locked(pid);
    }

    /// Brings an absent page into a frame. Returns `Restart` if the page is
    /// free (a stale reader followed an old link), `Ok` once the page is
    /// resident or being made resident by another thread.
    #[cold]
    fn load(&self, pid: PageId, class: WaitClass) -> std::result::Result<(), Interrupt> {
        let entry = self.entry(pid)?;
        if pid >= self.page_count.load() {
            return Err(Interrupt::Restart);
        }
        if entry.latch.try_lock_absent().is_none() {
            // Another thread is loading it (or it is resident now): retry.
            if entry.latch.state() == LatchState::Exclusive {
                let _ = entry.latch.optimistic_or_wait(WaitSite::new(class, pid));
            }
            return Ok(());
        }
        if entry.frame.load() & FRAME_FREED != 0 {
            entry.latch.unlock_exclusive_unchanged(true);
            return Err(Interrupt::Restart);
        }
        let frame = match self.take_frame() {
            Ok(f) => f,
            Err(e) => {
                entry.latch.unlock_exclusive_unchanged(true);
                return Err(e.into());
            }
        };
        let result = {
            let _timer = WaitTimer::start(WaitSite::new(waits::IO_READ, pid));
            // SAFETY: we hold the page's exclusive latch and own `frame`
            // (taken from the free list or evicted for us): no Rust code
            // writes it during the read.
            unsafe { self.file.read_raw(pid, self.frame_ptr(frame)) }.and_then(|()| {
                // SAFETY: nothing writes the frame while we hold it.
                file::verify(pid, unsafe { self.frame_read(frame).as_plain() })
            })
        };
        if let Err(e) = result {
            self.free_frames.lock().push(frame as u32);
            entry.latch.unlock_exclusive_unchanged(true);
            return Err(e.into());
        }
        count_pages_read(1);
        entry.frame.store(frame as u64 + 1);
        self.frame_owner[frame].store(pid + 1);
        entry.latch.unlock_exclusive();
        Ok(())
    }

    /// A free frame, evicting a page if none is free.
    fn take_frame(&self) -> Result<usize> {
        if let Some(f) = self.free_frames.lock().pop() {
            return Ok(f as usize);
        }
        let _timer = WaitTimer::start(WaitSite::class(waits::EVICTION));
        // Two passes mark then evict; allow a few more before giving up.
        for _ in 0..(self.nframes * 8) {
            let hand = (self.clock.fetch_add(1) % self.nframes as u64) as usize;
            let owner = self.frame_owner[hand].load();
            if owner == 0 {
                if let Some(f) = self.free_frames.lock().pop() {
                    return Ok(f as usize);
                }
                continue;
            }
            let pid = owner - 1;
            let entry = self.entry_unchecked(pid);
            // Second chance: a page is marked on one pass and evicted on the
            // next only if no reader cleared the mark in between.
            match entry.latch.state() {
                LatchState::Unlocked => {
                    entry.latch.try_mark();
                    continue;
                }
                LatchState::Marked if entry.latch.try_lock_marked() => {}
                _ => continue,
            }
            let w = entry.frame.load();
            if (w & FRAME_INDEX) as usize != hand + 1 {
                entry.latch.unlock_exclusive_unchanged(false);
                continue;
            }
            if w & FRAME_DIRTY != 0 {
                if let Err(e) = self.write_back(pid, hand) {
                    entry.latch.unlock_exclusive_unchanged(false);
                    return Err(e);
                }
            }
            entry.frame.store(0);
            self.frame_owner[hand].store(0);
            entry.latch.unlock_exclusive_to_absent();
            count(Counter::PagesEvicted, 1);
            return Ok(hand);
        }
        Err(Error::PoolExhausted)
    }

    /// Writes the frame of `pid` to the file. The caller holds the page's latch
    /// (shared or exclusive), so no one writes the frame meanwhile.
    fn write_back(&self, pid: PageId, frame: usize) -> Result<()> {
        let _timer = WaitTimer::start(WaitSite::new(waits::IO_WRITE, pid));
        // SAFETY: no writer runs while the caller holds the page's latch.
        let mut copy = unsafe { self.frame_read(frame).as_plain() }.to_vec();
        if let Some(log) = self.log() {
            let lsn = u64::from_ne_bytes(
                copy[PAGE_LSN_OFFSET..PAGE_LSN_OFFSET + 8]
                    .try_into()
                    .expect("8 bytes"),
            );
            if lsn != 0 {
                log.flush_to(lsn)?;
            }
        }
        self.file.write_sealed(pid, &mut copy)?;
        count(Counter::PagesWritten, 1);
        Ok(())
    }

    /// Allocates a page (reusing a freed one first), zeroed and held
    /// exclusively. Its disk space is reserved first: a full disk fails
    /// the allocation (`DiskFull`), before the caller changes anything.
    pub fn allocate(&self) -> Result<ExclusiveGuard<'_>> {
        let _timer = WaitTimer::start(WaitSite::class(waits::PAGE_ALLOC));
        let pid = match self.free_pages.lock().pop() {
            Some(pid) => pid,
            None => {
                let pid = self.page_count.fetch_add(1);
                if pid >= self.capacity {
                    return Err(Error::FileFull(self.capacity));
                }
                pid
            }
        };
        // Pages for new work leave SPARE_PAGES reserved past them, for
        // the rollbacks of work already begun (see `with_spare_pages`).
        let spare = if using_spare_pages() { 0 } else { SPARE_PAGES };
        if let Err(e) = self.file.reserve(pid + spare) {
            self.free_pages.lock().push(pid);
            return Err(e);
        }
        let entry = self.entry(pid)?;
        // A stale loader may hold the absent latch for a moment: wait it out.
        while entry.latch.try_lock_absent().is_none() {
            std::thread::yield_now();
        }
        self.zeroed_frame(pid).inspect_err(|_| {
            self.free_pages.lock().push(pid);
        })
    }

    /// Frees a page held exclusively (called through `ExclusiveGuard::free`).
    fn free_locked(&self, pid: PageId) {
        let entry = self.entry_unchecked(pid);
        let frame = (entry.frame.load() & FRAME_INDEX) as usize - 1;
        self.frame_owner[frame].store(0);
        entry.frame.store(FRAME_FREED);
        entry.latch.unlock_exclusive_to_absent();
        self.free_frames.lock().push(frame as u32);
        self.free_pages.lock().push(pid);
    }

    /// Reads ahead for a scan: of `pids`, those not in memory are read now,
    /// by this thread, in runs of consecutive pages (one `preadv` each), so
    /// a scan's I/O is large and sequential and never waits on another
    /// thread (DESIGN.md invariant 4).
    pub fn read_ahead(&self, pids: &[PageId]) {
        let mut i = 0;
        while i < pids.len() {
            let mut j = i + 1;
            while j < pids.len() && pids[j] == pids[j - 1] + 1 {
                j += 1;
            }
            if let Ok(n) = self.load_run(pids[i], j - i) {
                if n > 0 {
                    count(Counter::ReadAheadHints, 1);
                }
            }
            i = j;
        }
    }

    /// Loads up to `max` consecutive absent pages from `first`, stopping at
    /// the first one that is resident, free or being loaded. Returns how many
    /// it loaded. Failures are left for the thread that needs the page.
    fn load_run(&self, first: PageId, max: usize) -> Result<usize> {
        let count = self.page_count.load();
        // A run may take at most 1/16 of the pool, so that concurrent scans
        // and other readers always find frames.
        let max = max.min(self.nframes / 16).max(1);
        let mut locked: Vec<PageId> = Vec::with_capacity(max);
        for pid in first..first + max as u64 {
            if pid >= count || pid == HEADER_PAGE || pid >= self.capacity {
                break;
            }
            let entry = self.entry_unchecked(pid);
            if entry.latch.try_lock_absent().is_none() {
                break;
            }
            if entry.frame.load() & FRAME_FREED != 0 {
                entry.latch.unlock_exclusive_unchanged(true);
                break;
            }
            locked.push(pid);
        }
        if locked.is_empty() {
            return Ok(0);
        }
        let release_all = |pids: &[PageId]| {
            for &p in pids {
                self.entry_unchecked(p)
                    .latch
                    .unlock_exclusive_unchanged(true);
            }
        };
        let mut frames = Vec::with_capacity(locked.len());
        for _ in &locked {
            match self.take_frame() {
                Ok(f) => frames.push(f),
                Err(e) => {
                    self.free_frames
                        .lock()
                        .extend(frames.iter().map(|&f| f as u32));
                    release_all(&locked);
                    return Err(e);
                }
            }
        }
        let ptrs: Vec<*mut u8> = frames.iter().map(|&f| self.frame_ptr(f)).collect();
        let read = {
            let _timer = WaitTimer::start(WaitSite::new(waits::IO_READ, first));
            // SAFETY: we hold the exclusive latch of every page in the run and
            // own every frame (free or evicted for us); frames are page-aligned.
            unsafe { self.file.read_many_raw(first, &ptrs) }
        };
        if let Err(e) = read {
            self.free_frames
                .lock()
                .extend(frames.iter().map(|&f| f as u32));
            release_all(&locked);
            return Err(e);
        }
        let mut loaded = 0;
        for (&pid, &frame) in locked.iter().zip(&frames) {
            let entry = self.entry_unchecked(pid);
            // SAFETY: the frame is ours and nothing writes it.
            if file::verify(pid, unsafe { self.frame_read(frame).as_plain() }).is_err() {
                self.free_frames.lock().push(frame as u32);
                entry.latch.unlock_exclusive_unchanged(true);
                continue;
            }
            entry.frame.store(frame as u64 + 1);
            self.frame_owner[frame].store(pid + 1);
            entry.latch.unlock_exclusive();
            loaded += 1;
        }
        count_pages_read(loaded as u64);
        Ok(loaded)
    }

    /// Writes every dirty page to the file (pages stay resident).
    pub fn flush(&self) -> Result<()> {
        for frame in 0..self.nframes {
            let owner = self.frame_owner[frame].load();
            if owner == 0 {
                continue;
            }
            let pid = owner - 1;
            let entry = self.entry_unchecked(pid);
            if entry
                .latch
                .lock_shared(WaitSite::new(waits::PAGE, pid))
                .is_err()
            {
                continue;
            }
            let w = entry.frame.load();
            let result = if (w & FRAME_INDEX) as usize == frame + 1 && w & FRAME_DIRTY != 0 {
                self.write_back(pid, frame).map(|()| {
                    // Holding shared: no writer can set the bit meanwhile.
                    entry.frame.store(w & !FRAME_DIRTY);
                })
            } else {
                Ok(())
            };
            entry.latch.unlock_shared();
            result?;
        }
        Ok(())
    }

    /// Flushes everything, records the free pages and the page count in the
    /// file, and syncs it. After `close` the file reopens with all data
    /// (with a log attached, the caller checkpoints first).
    pub fn close(&self) -> Result<()> {
        if self.closed.get() {
            return Ok(());
        }
        self.flush()?;
        let free_head = self.write_free_chain()?;
        self.file.write_header(&self.header(free_head))?;
        self.sync()?;
        self.closed.set(true);
        Ok(())
    }

    /// Stores the free-page list in a chain of free pages; returns its head.
    fn write_free_chain(&self) -> Result<PageId> {
        let mut free = self.free_pages.lock().clone();
        free.sort_unstable();
        let per_page = (self.page_size - CHAIN_PIDS) / 8;
        let mut head: PageId = 0;
        let mut page = vec![0u8; self.page_size];
        while let Some(chain_pid) = free.pop() {
            let take = free.len().min(per_page);
            let pids: Vec<PageId> = free.drain(free.len() - take..).collect();
            page.fill(0);
            page[CHAIN_NEXT..CHAIN_NEXT + 8].copy_from_slice(&head.to_le_bytes());
            page[CHAIN_COUNT..CHAIN_COUNT + 4].copy_from_slice(&(pids.len() as u32).to_le_bytes());
            for (i, p) in pids.iter().enumerate() {
                let off = CHAIN_PIDS + i * 8;
                page[off..off + 8].copy_from_slice(&p.to_le_bytes());
            }
            self.file.write_sealed(chain_pid, &mut page)?;
            head = chain_pid;
        }
        Ok(head)
    }

    fn load_free_chain(&self, mut head: PageId) -> Result<()> {
        let mut free = Vec::new();
        let mut page = vec![0u8; self.page_size];
        let page_count = self.page_count.load();
        while head != 0 {
            if head >= page_count || free.len() as u64 > page_count {
                return Err(Error::Corrupt {
                    page: head,
                    reason: "free-page chain is broken".into(),
                });
            }
            self.file.read_into(head, &mut page)?;
            file::verify(head, &page)?;
            free.push(head);
            let n =
                u32::from_le_bytes(page[CHAIN_COUNT..CHAIN_COUNT + 4].try_into().unwrap()) as usize;
            for i in 0..n.min((self.page_size - CHAIN_PIDS) / 8) {
                let off = CHAIN_PIDS + i * 8;
                free.push(u64::from_le_bytes(page[off..off + 8].try_into().unwrap()));
            }
            head = u64::from_le_bytes(page[CHAIN_NEXT..CHAIN_NEXT + 8].try_into().unwrap());
        }
        for &pid in &free {
            self.entry(pid)?.frame.store(FRAME_FREED);
        }
        *self.free_pages.lock() = free;
        Ok(())
    }
}

fn count_pages_read(n: u64) {
    count(Counter::PagesRead, n);
}

impl Drop for BufferPool {
    fn drop(&mut self) {
        if !self.closed.get() {
            if let Err(e) = self.close() {
                eprintln!("lineardb: closing the data file failed: {e}");
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cfg(frames: usize) -> PoolConfig {
        PoolConfig {
            page_size: 4096,
            pool_bytes: 4096 * frames,
            max_pages: 1 << 16,
        }
    }

    fn stamp(pool: &BufferPool, n: u64) -> Vec<PageId> {
        (0..n)
            .map(|i| {
                let mut g = pool.allocate().unwrap();
                let pid = g.pid();
                g.page_mut().set_u64(64, pid * 1000 + i);
                pid
            })
            .collect()
    }

    fn read_u64(pool: &BufferPool, pid: PageId) -> u64 {
        loop {
            let g = pool.optimistic(pid, waits::PAGE).unwrap();
            let v = g.page().u64_at(64);
            if g.is_valid() {
                return v;
            }
        }
    }

    #[test]
    fn pages_survive_eviction_and_reopen() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("p.ldb");
        let pids = {
            // 16 frames for 200 pages: allocation itself must evict.
            let pool = BufferPool::create(&path, cfg(16)).unwrap();
            let pids = stamp(&pool, 200);
            for (i, &pid) in pids.iter().enumerate() {
                assert_eq!(read_u64(&pool, pid), pid * 1000 + i as u64);
            }
            assert!(pool.stats().resident <= 16);
            pool.close().unwrap();
            pids
        };
        // A run may take 1/16 of the pool: 256 frames allow the 10-page run.
        let pool = BufferPool::open(&path, cfg(256)).unwrap();
        assert_eq!(pool.stats().page_count, 201);
        // Read ahead in runs (one preadv each), then check every page.
        pool.read_ahead(&pids[10..20]);
        for &pid in &pids[10..20] {
            assert!(pool.is_resident(pid));
        }
        for (i, &pid) in pids.iter().enumerate() {
            assert_eq!(read_u64(&pool, pid), pid * 1000 + i as u64);
        }
    }

    #[test]
    fn freed_pages_are_reused_and_remembered_across_reopen() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("f.ldb");
        {
            let pool = BufferPool::create(&path, cfg(32)).unwrap();
            let pids = stamp(&pool, 50);
            for &pid in &pids[..20] {
                pool.free_page(pool.exclusive(pid, waits::PAGE).ok().unwrap());
            }
            assert_eq!(pool.stats().free_pages, 20);
            let again = pool.allocate().unwrap().pid();
            assert!(pids[..20].contains(&again), "a freed page is reused first");
            pool.close().unwrap();
        }
        let pool = BufferPool::open(&path, cfg(32)).unwrap();
        assert_eq!(pool.stats().free_pages, 19);
        let before = pool.stats().page_count;
        for _ in 0..19 {
            pool.allocate().unwrap();
        }
        assert_eq!(
            pool.stats().page_count,
            before,
            "free pages are used before the file grows"
        );
    }

    #[test]
    fn a_file_in_use_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("l.ldb");
        let pool = BufferPool::create(&path, cfg(8)).unwrap();
        assert!(matches!(
            BufferPool::open(&path, cfg(8)),
            Err(Error::InUse(_))
        ));
        pool.close().unwrap();
        drop(pool);
        let again = BufferPool::open(&path, cfg(8)).unwrap();
        assert!(matches!(
            BufferPool::open(&path, cfg(8)),
            Err(Error::InUse(_))
        ));
        drop(again);
    }

    #[test]
    fn invalid_page_sizes_and_ids_are_refused() {
        let dir = tempfile::tempdir().unwrap();
        let bad = PoolConfig {
            page_size: 3000,
            ..cfg(8)
        };
        assert!(BufferPool::create(&dir.path().join("x.ldb"), bad).is_err());
        let pool = BufferPool::create(&dir.path().join("y.ldb"), cfg(8)).unwrap();
        assert!(matches!(
            pool.optimistic(HEADER_PAGE, waits::PAGE),
            Err(Interrupt::Error(Error::Corrupt { .. }))
        ));
        assert!(matches!(
            pool.optimistic(1 << 40, waits::PAGE),
            Err(Interrupt::Error(Error::Corrupt { .. }))
        ));
    }
}
