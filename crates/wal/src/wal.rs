//! The log attached to a data file: page changes, transactions and
//! checkpoints.
//!
//! Record kinds: `REDO` (a `btree` redo record: page changes and the undo
//! information of transactional ones), `COMMIT` and `ABORT` (a transaction
//! id), `CHECKPOINT` (see [`Checkpoint`]).
//!
//! A checkpoint is fuzzy: it notes the log position `redo_from` (and moves
//! the image horizon there, so every page changed later is logged whole
//! first), writes every dirty page and syncs the file while writers go on,
//! then appends a record with `redo_from`, the oldest position of a
//! transaction still running (`undo_from`), the page count and the free
//! pages, and points the data file's header at it. Recovery needs the log
//! only from `min(redo_from, undo_from)`.
use crate::locks::LockTable;
use crate::log::Log;
use crate::mvcc::{Mvcc, Started};
use crate::record::{Lsn, HEADER};
use crate::txn::Txn;
use crate::txn_waits;
use crate::{Durability, Error, LogFile};
use lineardb_btree::BTree;
use lineardb_buffer::{BufferPool, PageId, PageLog};
use lineardb_sync::{Mutex, SharedFlag, SharedWord};
use std::collections::BTreeMap;
use std::path::Path;
use std::sync::Arc;

pub(crate) const REDO: u8 = 1;
pub(crate) const COMMIT: u8 = 2;
pub(crate) const ABORT: u8 = 3;
pub(crate) const CHECKPOINT: u8 = 4;

/// Ended transactions a committer lets pile up before it purges.
const PURGE_BATCH: usize = 64;

/// Log bytes after which the background thread takes a checkpoint.
pub const CHECKPOINT_EVERY: u64 = 256 << 20;

pub(crate) fn log_error(e: Error) -> lineardb_buffer::Error {
    lineardb_buffer::Error::Log(e.to_string())
}

/// What a checkpoint record holds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Checkpoint {
    pub redo_from: Lsn,
    pub undo_from: Lsn,
    pub page_count: u64,
    pub next_txn: u64,
    pub free: Vec<PageId>,
}

impl Checkpoint {
    pub(crate) fn encode(&self) -> Vec<u8> {
        let mut b = Vec::with_capacity(40 + self.free.len() * 8);
        for v in [
            self.redo_from,
            self.undo_from,
            self.page_count,
            self.next_txn,
            self.free.len() as u64,
        ] {
            b.extend_from_slice(&v.to_le_bytes());
        }
        for p in &self.free {
            b.extend_from_slice(&p.to_le_bytes());
        }
        b
    }

    pub(crate) fn decode(b: &[u8]) -> Option<Checkpoint> {
        let word = |i: usize| -> Option<u64> {
            Some(u64::from_le_bytes(
                b.get(i * 8..i * 8 + 8)?.try_into().ok()?,
            ))
        };
        let n = word(4)? as usize;
        if b.len() != 40 + n.checked_mul(8)? {
            return None;
        }
        Some(Checkpoint {
            redo_from: word(0)?,
            undo_from: word(1)?,
            page_count: word(2)?,
            next_txn: word(3)?,
            free: (0..n).map(|i| word(5 + i)).collect::<Option<_>>()?,
        })
    }
}

/// The buffer pool's handle on the log (no reference back to the pool).
pub(crate) struct PoolLog {
    pub(crate) log: Arc<Log>,
    /// Pages with an older LSN are logged whole on their next change.
    pub(crate) horizon: SharedWord,
}

impl PageLog for PoolLog {
    fn append_redo(
        &self,
        payload: &[u8],
        oldest_delta: Lsn,
    ) -> lineardb_buffer::Result<Option<Lsn>> {
        self.log
            .append_if(REDO, payload, || oldest_delta >= self.horizon.load())
            .map_err(log_error)
    }

    fn flush_to(&self, lsn: Lsn) -> lineardb_buffer::Result<()> {
        self.log.sync_to(lsn).map_err(log_error)
    }

    fn image_horizon(&self) -> Lsn {
        self.horizon.load()
    }
}

/// What opening the log found and did.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RecoveryReport {
    /// Log range read.
    pub from: Lsn,
    pub to: Lsn,
    /// Redo records read and page changes re-done.
    pub redo_records: u64,
    pub pages_redone: u64,
    /// Transactions that had not committed, rolled back.
    pub rolled_back: u64,
    pub millis: u64,
}

impl std::fmt::Display for RecoveryReport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "recovery: read the log from LSN {} to {}: {} redo records, {} page changes re-done, {} unfinished transactions rolled back, {} ms",
            self.from, self.to, self.redo_records, self.pages_redone, self.rolled_back, self.millis
        )
    }
}

pub struct Wal {
    pub(crate) log: Arc<Log>,
    pub(crate) pool: Arc<BufferPool>,
    pages: Arc<PoolLog>,
    /// Transactions with changes, by id: the LSN before their first record.
    /// Written when a transaction first writes and when it ends.
    active: Mutex<BTreeMap<u64, Lsn>>,
    pub(crate) mvcc: Arc<Mvcc>,
    checkpointing: Mutex<()>,
    stop: SharedFlag,
    background: Mutex<Option<std::thread::JoinHandle<()>>>,
    pub(crate) locks: LockTable,
}

impl Wal {
    /// Opens (or creates) the log at `path` for the data file in `pool`,
    /// recovers — re-does what the data file lacks, rolls back transactions
    /// that did not commit — and checkpoints.
    pub fn open(
        path: &Path,
        pool: Arc<BufferPool>,
        durability: Durability,
    ) -> lineardb_buffer::Result<(Arc<Wal>, RecoveryReport)> {
        let log = Log::open(path, durability).map_err(log_error)?;
        Self::open_log(log, pool)
    }

    /// [`open`](Self::open) over any [`LogFile`] (fault injection).
    pub fn open_file(
        file: Box<dyn LogFile>,
        pool: Arc<BufferPool>,
        durability: Durability,
    ) -> lineardb_buffer::Result<(Arc<Wal>, RecoveryReport)> {
        let log = Log::open_file(file, durability).map_err(log_error)?;
        Self::open_log(log, pool)
    }

    fn open_log(
        log: Log,
        pool: Arc<BufferPool>,
    ) -> lineardb_buffer::Result<(Arc<Wal>, RecoveryReport)> {
        let started = std::time::Instant::now();
        let log = Arc::new(log);
        let found = crate::recovery::redo(&log, &pool)?;
        let end = log.end();
        let wal = Arc::new(Wal {
            pages: Arc::new(PoolLog {
                log: log.clone(),
                horizon: SharedWord::new(end),
            }),
            log,
            pool: pool.clone(),
            active: Mutex::with_class(txn_waits::TRANSACTIONS, BTreeMap::new()),
            mvcc: Arc::new(Mvcc::new(found.next_txn)),
            checkpointing: Mutex::new(()),
            stop: SharedFlag::new(false),
            background: Mutex::new(None),
            locks: LockTable::new(),
        });
        pool.attach_log(wal.pages.clone())?;
        let mut report = found.report;
        for (txn, ops) in found.losers {
            crate::txn::undo(&pool, ops.iter().rev())?;
            wal.log
                .append(ABORT, &txn.to_le_bytes())
                .map_err(log_error)?;
            report.rolled_back += 1;
        }
        wal.checkpoint()?;
        report.millis = started.elapsed().as_millis() as u64;
        Ok((wal, report))
    }

    /// A new transaction (it takes an id when it first writes).
    pub fn begin(self: &Arc<Self>) -> Txn {
        Txn::new(self.clone())
    }

    pub(crate) fn register(&self) -> Started {
        // MAX_SLOTS transactions writing at once is far past what the
        // worker pool runs; more wait for one to end.
        let started = loop {
            match self.mvcc.begin() {
                Some(s) => break s,
                None => std::thread::sleep(std::time::Duration::from_millis(1)),
            }
        };
        self.active.lock().insert(started.id, self.log.end());
        started
    }

    /// Multi-version bookkeeping: readers take their snapshots here.
    pub fn mvcc(&self) -> &Arc<Mvcc> {
        &self.mvcc
    }

    /// Purges what no snapshot needs (see [`Mvcc`]): delete marks are
    /// removed if their key still holds exactly the mark.
    pub fn purge(&self) -> lineardb_buffer::Result<usize> {
        self.mvcc.purge(|m| {
            BTree::open(self.pool.clone(), m.root).remove_if(&m.key, |v| v == m.value)?;
            Ok(())
        })
    }

    /// Frees the pages of the tree rooted at `root`, after dropping the
    /// delete marks waiting to be purged from it.
    pub fn destroy_tree(&self, root: PageId) -> lineardb_buffer::Result<()> {
        self.mvcc.forget_tree(root);
        BTree::open(self.pool.clone(), root).destroy()
    }

    /// Purges when `backlog` ended transactions (as a committer saw when
    /// it ended) have piled up; one purges, the others go on. A failed
    /// purge (the log failed) is reported; the commit that called it is
    /// durable all the same.
    pub(crate) fn purge_if_due(&self, backlog: usize) {
        if backlog >= PURGE_BATCH {
            if let Err(e) = self.purge() {
                eprintln!("lineardb: purge failed: {e}");
            }
        }
    }

    pub(crate) fn end_txn(&self, id: u64, kind: u8) -> lineardb_buffer::Result<Lsn> {
        let lsn = self.log.append(kind, &id.to_le_bytes()).map_err(log_error);
        self.active.lock().remove(&id);
        lsn
    }

    pub fn log(&self) -> &Log {
        &self.log
    }

    /// Returns once the log records up to `lsn` (a commit's, see
    /// [`Txn::commit_no_wait`](crate::Txn::commit_no_wait)) are as durable
    /// as the durability setting asks of a commit.
    pub fn wait_durable(&self, lsn: Lsn) -> lineardb_buffer::Result<()> {
        self.log.flush(lsn).map_err(log_error)
    }

    /// Whether [`wait_durable`](Self::wait_durable) would return at once.
    pub fn is_durable(&self, lsn: Lsn) -> bool {
        self.log.is_durable(lsn)
    }

    /// How long a transaction waits for a row lock (`innodb_lock_wait_timeout`).
    pub fn lock_wait_timeout(&self) -> std::time::Duration {
        self.locks.timeout()
    }

    pub fn set_lock_wait_timeout(&self, t: std::time::Duration) {
        self.locks.set_timeout(t)
    }

    pub fn durability(&self) -> Durability {
        self.log.durability()
    }

    pub fn set_durability(&self, d: Durability) {
        self.log.set_durability(d)
    }

    /// Takes a checkpoint (see the module comment). One at a time.
    pub fn checkpoint(&self) -> lineardb_buffer::Result<()> {
        let _one = self.checkpointing.lock();
        let redo_from = self.log.mark(|next| self.pages.horizon.store(next));
        self.log.sync_to(redo_from).map_err(log_error)?;
        self.pool.flush()?;
        self.pool.sync()?;
        let undo_from = self
            .active
            .lock()
            .values()
            .copied()
            .min()
            .unwrap_or(redo_from)
            .min(redo_from);
        let (page_count, free) = self.pool.allocation();
        let payload = Checkpoint {
            redo_from,
            undo_from,
            page_count,
            next_txn: self.mvcc.next_id(),
            free,
        }
        .encode();
        let end = self.log.append(CHECKPOINT, &payload).map_err(log_error)?;
        self.log.sync_to(end).map_err(log_error)?;
        let start = end - (HEADER + payload.len()) as Lsn;
        self.pool.set_checkpoint(start)?;
        // Recovery starts at the checkpoint record or earlier, never before
        // min(redo_from, undo_from): the rest of the file can go.
        self.log
            .discard_before(redo_from.min(undo_from))
            .map_err(log_error)
    }

    /// Starts the thread that syncs the log once a second (for the lazier
    /// durability modes) and checkpoints every [`CHECKPOINT_EVERY`] bytes.
    pub fn start_background(self: &Arc<Self>) {
        let wal = self.clone();
        let handle = std::thread::Builder::new()
            .name("lineardb-log".into())
            .spawn(move || wal.background_loop())
            .expect("spawn the log thread");
        *self.background.lock() = Some(handle);
    }

    fn background_loop(&self) {
        let mut ticks = 0u32;
        while !self.stop.get() {
            std::thread::sleep(std::time::Duration::from_millis(100));
            ticks += 1;
            if let Err(e) = self.purge() {
                eprintln!("lineardb: purge failed: {e}");
            }
            if ticks.is_multiple_of(10) && self.durability() != Durability::Sync {
                if let Err(e) = self.log.sync_all() {
                    eprintln!("lineardb: syncing the log failed: {e}");
                }
            }
            if self.log.end().saturating_sub(self.pool.checkpoint_lsn()) > CHECKPOINT_EVERY {
                if let Err(e) = self.checkpoint() {
                    eprintln!("lineardb: checkpoint failed: {e}");
                }
            }
        }
    }

    /// Stops the background thread and takes a last checkpoint, so the
    /// next open has nothing to re-do.
    pub fn shutdown(&self) -> lineardb_buffer::Result<()> {
        self.stop.set(true);
        if let Some(h) = self.background.lock().take() {
            let _ = h.join();
        }
        self.purge()?;
        self.checkpoint()
    }
}
