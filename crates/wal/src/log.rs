//! The log: append, group commit, open with recovery of the valid prefix.
//!
//! ```text
//! 0      8 bytes magic "LDBREDO1"
//! 8      u32 format version
//! 12     u64 LSN of the first record kept: records before it were
//!        discarded (their bytes are a hole in the file; see `discard_before`)
//! 4096   records, back to back (see record.rs); LSN = file offset
//! ```
use crate::file::{LogFile, OsFile};
use crate::record::{decode, encode, Decoded, Lsn, Record, HEADER, MAX_RECORD};
use crate::waits;
use crate::{Error, Result};
use lineardb_sync::wait::{WaitSite, WaitTimer};
use lineardb_sync::{Condvar, LocalCounter, Mutex, SharedFlag, SharedWord};
use std::path::Path;

const MAGIC: &[u8; 8] = b"LDBREDO1";
const FORMAT: u32 = 1;
/// Bytes before the first record.
pub(crate) const FILE_HEADER: u64 = 4096;
/// Bytes read at a time when scanning the log.
const READ_CHUNK: usize = 1 << 20;
/// The file is extended with zeros this far ahead of the records, and the
/// extension synced once: a commit's sync then writes data only, not the
/// file size (an fdatasync of a growing file also commits the file
/// system's journal — most of a commit's cost, measured under sysbench
/// oltp_insert).
const PREALLOCATE: u64 = 16 << 20;
/// Preallocated bytes kept for what must be logged once begun (the rest of
/// a page split, rollbacks, COMMIT/ABORT and checkpoint records): a new
/// change starts only with this much room ahead (see [`Log::has_room`]).
const ROOM_RESERVE: u64 = PREALLOCATE / 4;
/// The smallest extension tried when a whole [`PREALLOCATE`] step does not fit.
const SMALLEST_EXTENSION: u64 = 1 << 20;

/// When a commit's records reach the disk (MySQL's
/// `innodb_flush_log_at_trx_commit`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Durability {
    /// 1: written and synced before the commit returns (the default).
    Sync,
    /// 2: written at commit (survives the process dying), synced by
    /// [`Log::sync_all`] (survives the machine only up to the last sync).
    WriteOnly,
    /// 0: written and synced only by [`Log::sync_all`].
    Lazy,
}

impl Durability {
    /// MySQL's `innodb_flush_log_at_trx_commit` value for this mode.
    pub fn level(self) -> u64 {
        match self {
            Durability::Lazy => 0,
            Durability::Sync => 1,
            Durability::WriteOnly => 2,
        }
    }

    /// The mode for an `innodb_flush_log_at_trx_commit` value.
    pub fn from_level(n: u64) -> Option<Durability> {
        match n {
            0 => Some(Durability::Lazy),
            1 => Some(Durability::Sync),
            2 => Some(Durability::WriteOnly),
            _ => None,
        }
    }
}

/// Log positions and work done, for status output and tests.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LogStats {
    /// LSN after the last appended record.
    pub appended: Lsn,
    /// LSN up to which the file has the records.
    pub written: Lsn,
    /// LSN up to which the file is synced.
    pub synced: Lsn,
    /// Syncs done: fewer than commits when commits are grouped.
    pub syncs: u64,
}

/// Appended records not yet written: `bytes` start at LSN `base`.
struct Pending {
    bytes: Vec<u8>,
    base: Lsn,
    next: Lsn,
}

pub struct Log {
    file: Box<dyn LogFile>,
    /// The [`Durability`] as 0, 1, 2 (MySQL's numbering); settable at run time.
    durability: SharedWord,
    /// Appenders copy their records in here (a short critical section per
    /// record: writers only; readers never append).
    pending: Mutex<Pending>,
    /// Held by the one thread writing and syncing for everyone; guards the
    /// spare buffer swapped with `pending.bytes`.
    flusher: Mutex<Vec<u8>>,
    /// Flushes finished (bumped under `flushed_lock` by each flusher);
    /// committers that found the flusher busy sleep on `flushed` until it
    /// changes, then look again.
    flush_round: Mutex<u64>,
    flushed: Condvar,
    /// Written and synced positions: written only by the flusher's holder,
    /// read by committers waiting for their LSN.
    written: SharedWord,
    synced: SharedWord,
    syncs: LocalCounter,
    /// File length reached by preallocation (zeros past the records).
    /// Written under the flusher lock.
    allocated: SharedWord,
    /// The LSN past the last appended record (`pending.next`, readable
    /// without the lock). Written under the pending lock.
    appended: SharedWord,
    poisoned: SharedFlag,
    why: Mutex<String>,
    /// The first record kept (the header's field).
    first: SharedWord,
}

impl Log {
    /// Opens the log at `path`, creating it if missing. An existing log is
    /// read to its last whole, valid record and cut there.
    pub fn open(path: &Path, durability: Durability) -> Result<Log> {
        let exists = path.exists();
        let file = OsFile::open(path)?;
        if !exists {
            if let Some(dir) = path.parent() {
                // The new file's name must be durable too.
                std::fs::File::open(dir)?.sync_all()?;
            }
        }
        Self::open_file(Box::new(file), durability)
    }

    /// [`open`](Self::open) over any [`LogFile`] (fault injection).
    pub fn open_file(file: Box<dyn LogFile>, durability: Durability) -> Result<Log> {
        if file.len()? == 0 {
            let mut h = vec![0u8; FILE_HEADER as usize];
            h[..8].copy_from_slice(MAGIC);
            h[8..12].copy_from_slice(&FORMAT.to_le_bytes());
            h[12..20].copy_from_slice(&FILE_HEADER.to_le_bytes());
            file.write_all_at(&h, 0)?;
            file.sync()?;
        }
        let mut h = [0u8; 20];
        read_exact_at(file.as_ref(), &mut h, 0)?;
        let first = u64::from_le_bytes(h[12..20].try_into().expect("8 bytes")).max(FILE_HEADER);
        if &h[..8] != MAGIC {
            return Err(Error::BadFile("bad magic".into()));
        }
        let format = u32::from_le_bytes(h[8..12].try_into().expect("4 bytes"));
        if format != FORMAT {
            return Err(Error::BadFile(format!(
                "format {format}, expected {FORMAT}"
            )));
        }
        let log = Log {
            file,
            durability: SharedWord::new(durability.level()),
            pending: Mutex::with_class(
                waits::LOG_BUFFER,
                Pending {
                    bytes: Vec::new(),
                    base: FILE_HEADER,
                    next: FILE_HEADER,
                },
            ),
            flusher: Mutex::with_class(waits::LOG_COMMIT, Vec::new()),
            flush_round: Mutex::with_class(waits::LOG_COMMIT, 0),
            flushed: Condvar::new(),
            written: SharedWord::new(FILE_HEADER),
            synced: SharedWord::new(FILE_HEADER),
            syncs: LocalCounter::default(),
            allocated: SharedWord::new(0),
            appended: SharedWord::new(FILE_HEADER),
            poisoned: SharedFlag::new(false),
            why: Mutex::new(String::new()),
            first: SharedWord::new(first),
        };
        // Find the end of the valid prefix; zero what follows (a torn
        // tail, then preallocated zeros) in place: no stale record may
        // follow the next ones written there, and the space is kept (a
        // full disk may have none to give back).
        let mut end = first;
        for r in log.scan(first, u64::MAX) {
            end = r?.lsn;
        }
        let len = log.file.len()?.max(end);
        log.allocated.store(end);
        log.preallocate(len)?;
        {
            let mut p = log.pending.lock();
            p.base = end;
            p.next = end;
        }
        log.written.store(end);
        log.synced.store(end);
        log.appended.store(end);
        // Room ahead if the disk has it; if not, writers get a full-disk
        // error until it has (see `make_room`).
        let step = end.div_ceil(PREALLOCATE) * PREALLOCATE + PREALLOCATE;
        if len < step {
            let _ = log.extend(step, end + ROOM_RESERVE);
        }
        Ok(log)
    }

    /// Appends a record (buffered; see [`flush`](Self::flush)); returns
    /// the LSN just past it.
    pub fn append(&self, kind: u8, payload: &[u8]) -> Result<Lsn> {
        Ok(self
            .append_if(kind, payload, || true)?
            .expect("unconditional"))
    }

    /// Appends a record if `ok()`, evaluated under the lock that orders
    /// appends, says so; `None` if it did not.
    pub fn append_if(
        &self,
        kind: u8,
        payload: &[u8],
        ok: impl FnOnce() -> bool,
    ) -> Result<Option<Lsn>> {
        self.check()?;
        if payload.len() > MAX_RECORD {
            return Err(Error::TooLarge(payload.len()));
        }
        let mut p = self.pending.lock();
        if !ok() {
            return Ok(None);
        }
        let start = p.next;
        p.next = encode(start, kind, payload, &mut p.bytes);
        self.appended.store(p.next);
        Ok(Some(p.next))
    }

    /// Runs `f` with the LSN the next record will start at, under the lock
    /// that orders appends (so no record is appended meanwhile); returns it.
    pub fn mark(&self, f: impl FnOnce(Lsn)) -> Lsn {
        let p = self.pending.lock();
        f(p.next);
        p.next
    }

    /// The LSN the next record will start at.
    pub fn end(&self) -> Lsn {
        self.pending.lock().next
    }

    /// The current [`Durability`].
    pub fn durability(&self) -> Durability {
        Durability::from_level(self.durability.load()).unwrap_or(Durability::Sync)
    }

    /// Changes when commits reach the disk (takes effect for later commits).
    pub fn set_durability(&self, d: Durability) {
        self.durability.store(d.level());
    }

    /// Returns once the records up to `lsn` are written and synced,
    /// whatever the durability (the buffer pool's write-ahead rule).
    pub fn sync_to(&self, lsn: Lsn) -> Result<()> {
        self.flush_to(lsn, true)
    }

    /// Returns once the records up to `lsn` are as durable as the log's
    /// [`Durability`] asks for a commit. One caller writes (and syncs) all
    /// that is buffered; callers arriving meanwhile find their records
    /// done when it releases the lock (group commit).
    pub fn flush(&self, lsn: Lsn) -> Result<()> {
        match self.durability() {
            Durability::Lazy => self.check(),
            Durability::WriteOnly => self.flush_to(lsn, false),
            Durability::Sync => self.flush_to(lsn, true),
        }
    }

    /// Whether the records up to `lsn` are already as durable as a commit
    /// needs ([`flush`](Self::flush) would return at once).
    pub fn is_durable(&self, lsn: Lsn) -> bool {
        match self.durability() {
            Durability::Lazy => true,
            Durability::WriteOnly => self.written.load() >= lsn,
            Durability::Sync => self.synced.load() >= lsn,
        }
    }

    /// Whether a thread is writing (and syncing) the log now: a commit
    /// appended meanwhile is made durable only by the next write.
    pub fn is_flushing(&self) -> bool {
        self.flusher.is_locked()
    }

    /// Writes and syncs everything appended so far (a checkpoint, a
    /// shutdown, or the once-a-second sync of the lazier modes).
    pub fn sync_all(&self) -> Result<()> {
        let end = self.pending.lock().next;
        self.flush_to(end, true)
    }

    fn flush_to(&self, lsn: Lsn, sync: bool) -> Result<()> {
        let done = |s: &Self| {
            if sync {
                s.synced.load() >= lsn
            } else {
                s.written.load() >= lsn
            }
        };
        if done(self) {
            return self.check();
        }
        lineardb_sync::blocking::about_to_block();
        loop {
            if done(self) {
                return self.check();
            }
            self.check()?;
            let round = *self.flush_round.lock();
            if let Some(mut spare) = self.flusher.try_lock() {
                let r = self.write_pending(&mut spare, sync);
                self.release_flusher(spare);
                r?;
                continue;
            }
            // Someone is flushing: sleep until that flush ends (the round
            // moves), then look again. Waiters are woken together, so one
            // of them takes the next flush for all who arrived meanwhile
            // (group commit) without a hand-over from waiter to waiter.
            let mut r = self.flush_round.lock();
            if *r == round {
                let _wait = WaitTimer::start(WaitSite::class(waits::LOG_COMMIT));
                while *r == round {
                    self.flushed.wait(&mut r);
                }
            }
        }
    }

    /// Writes everything appended so far (and syncs it if `sync`). The
    /// caller holds the flusher lock (`spare`).
    fn write_pending(&self, spare: &mut Vec<u8>, sync: bool) -> Result<()> {
        self.check()?;
        let base = {
            let mut p = self.pending.lock();
            std::mem::swap(&mut p.bytes, spare);
            let base = p.base;
            p.base = p.next;
            base
        };
        if !spare.is_empty() {
            let end = base + spare.len() as Lsn;
            if end > self.allocated.load() {
                // Past the reserve [`has_room`](Self::has_room) keeps: the
                // last resort, for records that had to be logged.
                let to = end.div_ceil(PREALLOCATE) * PREALLOCATE + PREALLOCATE;
                if let Err(e) = self.preallocate(to) {
                    return Err(self.poison(format!("extending the log to {end}: {e}")));
                }
            }
            let r = {
                let _io = WaitTimer::start(WaitSite::class(waits::IO_LOG_WRITE));
                self.file.write_all_at(spare, base)
            };
            let end = base + spare.len() as Lsn;
            spare.clear();
            if let Err(e) = r {
                return Err(self.poison(format!("write at LSN {base}: {e}")));
            }
            self.written.store(end);
        }
        if sync && self.synced.load() < self.written.load() {
            let target = self.written.load();
            let synced = {
                let _io = WaitTimer::start(WaitSite::class(waits::IO_LOG_SYNC));
                self.file.sync()
            };
            if let Err(e) = synced {
                return Err(self.poison(format!("sync to LSN {target}: {e}")));
            }
            self.syncs.add(1);
            self.synced.store(target);
        }
        Ok(())
    }

    /// Whether a new change may be logged: the preallocated file has
    /// [`ROOM_RESERVE`] bytes past the records appended so far. Writers
    /// ask before they change anything ([`make_room`](Self::make_room)
    /// when not), so a full disk fails a statement before it starts
    /// instead of the log under changes already made.
    pub fn has_room(&self) -> bool {
        self.appended.load() + ROOM_RESERVE <= self.allocated.load()
    }

    /// Extends the preallocated file until [`has_room`](Self::has_room)
    /// holds: a whole step ahead if the disk has it, else the least that
    /// does. A full disk is an error here, not a poisoned log: nothing
    /// depends on the space yet.
    pub fn make_room(&self) -> Result<()> {
        self.check()?;
        let one = self.flusher.lock();
        let r = if self.has_room() {
            Ok(())
        } else {
            let need = self.appended.load() + ROOM_RESERVE;
            let step = need.div_ceil(PREALLOCATE) * PREALLOCATE + PREALLOCATE;
            self.extend(step, need).map_err(Error::from)
        };
        self.release_flusher(one);
        r
    }

    /// Preallocates up to `step` if the disk has it, else up to `need`
    /// rounded to [`SMALLEST_EXTENSION`]. The caller holds the flusher
    /// lock (or is opening the log).
    fn extend(&self, step: Lsn, need: Lsn) -> std::io::Result<()> {
        if self.preallocate(step).is_ok() {
            return Ok(());
        }
        self.preallocate(need.div_ceil(SMALLEST_EXTENSION) * SMALLEST_EXTENSION)
    }

    /// Writes zeros from the allocated end to `to` and syncs them (file
    /// size included). Zeros never decode as a record, so a scan of the
    /// log still stops at the last record written. The caller holds the
    /// flusher lock (or is opening the log).
    fn preallocate(&self, to: Lsn) -> std::io::Result<()> {
        let _io = WaitTimer::start(WaitSite::class(waits::IO_LOG_WRITE));
        let from = self.allocated.load();
        let zeros = vec![0u8; 1 << 20];
        let mut at = from;
        while at < to {
            let n = (to - at).min(zeros.len() as u64) as usize;
            self.file.write_all_at(&zeros[..n], at)?;
            at += n as u64;
        }
        self.file.sync()?;
        self.allocated.store(to);
        Ok(())
    }

    /// The first record the log still has.
    pub fn first(&self) -> Lsn {
        self.first.load()
    }

    /// Gives back the disk space of the records before `lsn` (a record
    /// boundary no reader needs to go back past: a checkpoint's start).
    /// The header moves first and is synced, then the bytes become a hole
    /// (`FALLOC_FL_PUNCH_HOLE`); LSNs keep meaning file offsets.
    pub fn discard_before(&self, lsn: Lsn) -> Result<()> {
        let one = self.flusher.lock();
        let r = self.discard_locked(lsn);
        self.release_flusher(one);
        r
    }

    /// Releases the flusher lock and wakes the committers waiting for it
    /// to be released (every holder must end this way: a waiter sleeps
    /// until the round moves).
    fn release_flusher(&self, held: lineardb_sync::MutexGuard<'_, Vec<u8>>) {
        drop(held);
        *self.flush_round.lock() += 1;
        self.flushed.notify_all();
    }

    fn discard_locked(&self, lsn: Lsn) -> Result<()> {
        self.check()?;
        if lsn <= self.first.load() || lsn > self.written.load() {
            return Ok(());
        }
        self.file.write_all_at(&lsn.to_le_bytes(), 12)?;
        self.file.sync()?;
        self.first.store(lsn);
        let hole_end = lsn / 4096 * 4096;
        if hole_end > FILE_HEADER {
            self.file.punch_hole(FILE_HEADER, hole_end - FILE_HEADER)?;
        }
        Ok(())
    }

    fn check(&self) -> Result<()> {
        if self.poisoned.get() {
            return Err(Error::Poisoned(self.why.lock().clone()));
        }
        Ok(())
    }

    fn poison(&self, why: String) -> Error {
        *self.why.lock() = why.clone();
        self.poisoned.set(true);
        Error::Poisoned(why)
    }

    pub fn stats(&self) -> LogStats {
        LogStats {
            appended: self.pending.lock().next,
            written: self.written.load(),
            synced: self.synced.load(),
            syncs: self.syncs.get(),
        }
    }

    /// The records from LSN `from` (a record's start: the header size or a
    /// record's end LSN) up to what is written, in order.
    pub fn records(&self, from: Lsn) -> Records<'_> {
        self.scan(from.max(self.first.load()), self.written.load())
    }

    fn scan(&self, from: Lsn, end: Lsn) -> Records<'_> {
        Records {
            file: self.file.as_ref(),
            pos: from,
            end,
            buf: Vec::new(),
            at: 0,
            eof: false,
        }
    }
}

fn read_exact_at(file: &dyn LogFile, buf: &mut [u8], offset: u64) -> Result<()> {
    let mut done = 0;
    while done < buf.len() {
        match file.read_at(&mut buf[done..], offset + done as u64)? {
            0 => return Err(Error::BadFile("file shorter than its header".into())),
            n => done += n,
        }
    }
    Ok(())
}

/// Iterator over whole, valid records; ends at the first torn or invalid
/// one (or at the end given).
pub struct Records<'a> {
    file: &'a dyn LogFile,
    /// LSN (= file offset) of `buf[at]`.
    pos: Lsn,
    end: Lsn,
    buf: Vec<u8>,
    at: usize,
    eof: bool,
}

impl Records<'_> {
    /// Reads more of the file after what is buffered.
    fn fill(&mut self, need: usize) -> Result<()> {
        self.buf.drain(..self.at);
        self.at = 0;
        while self.buf.len() < need && !self.eof {
            let have = self.buf.len();
            let want = need.max(READ_CHUNK);
            self.buf.resize(have + want, 0);
            let n = self
                .file
                .read_at(&mut self.buf[have..], self.pos + have as u64)?;
            self.buf.truncate(have + n);
            if n == 0 {
                self.eof = true;
            }
        }
        Ok(())
    }
}

impl Iterator for Records<'_> {
    type Item = Result<Record>;

    fn next(&mut self) -> Option<Result<Record>> {
        loop {
            if self.pos >= self.end {
                return None;
            }
            match decode(self.pos, &self.buf[self.at..]) {
                Decoded::Record(r) => {
                    if r.lsn > self.end {
                        return None;
                    }
                    self.at += (r.lsn - self.pos) as usize;
                    self.pos = r.lsn;
                    return Some(Ok(r));
                }
                Decoded::Invalid => return None,
                Decoded::Short { need } => {
                    if self.eof {
                        return None;
                    }
                    if let Err(e) = self.fill(need.max(HEADER)) {
                        return Some(Err(e));
                    }
                }
            }
        }
    }
}
