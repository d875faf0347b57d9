//! The log attached to a data file: page changes, the ends of
//! transactions, and checkpoints.
//!
//! A checkpoint is fuzzy: it notes the log position `redo_from` (and moves
//! the image horizon there, so every page changed later is logged whole
//! first), writes every dirty page and syncs the file while writers go on,
//! then appends a record with `redo_from`, the oldest position of a
//! transaction still running (`undo_from`), the page count and the free
//! pages, and points the data file's header at it. Recovery needs the log
//! only from `min(redo_from, undo_from)`.
//!
//! Transactions themselves (ids, snapshots, row locks) belong to the layer
//! above (`lineardb-txn`); the log only learns when one first writes
//! ([`Wal::txn_started`]) and when it ends ([`Wal::txn_ended`]), which is
//! all a checkpoint needs to know.
use crate::checkpoint::Checkpoint;
use crate::log::Log;
use crate::record::{Lsn, ABORT, CHECKPOINT, COMMIT, HEADER, REDO};
use crate::recovery::RecoveryReport;
use crate::{log_error, Durability, LogFile};
use lineardb_buffer::{BufferPool, PageLog};
use lineardb_sync::{Mutex, SharedFlag, SharedWord};
use std::collections::BTreeMap;
use std::path::Path;
use std::sync::Arc;

/// Log bytes after which the background thread takes a checkpoint.
pub const CHECKPOINT_EVERY: u64 = 256 << 20;

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

/// The transactions that have written, for checkpoints.
struct Running {
    /// By id: the log position before the transaction's first record.
    first_lsn: BTreeMap<u64, Lsn>,
    /// Past every id that has written (or that recovery found): where ids
    /// start again after a restart.
    next_id: u64,
}

pub struct Wal {
    log: Arc<Log>,
    pool: Arc<BufferPool>,
    pages: Arc<PoolLog>,
    /// Written when a transaction first writes and when it ends.
    running: Mutex<Running>,
    checkpointing: Mutex<()>,
    /// One writer at a time extends the log when it runs short of room.
    making_room: Mutex<()>,
    stop: SharedFlag,
    background: Mutex<Option<std::thread::JoinHandle<()>>>,
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
            running: Mutex::with_class(
                crate::waits::RUNNING_TXNS,
                Running {
                    first_lsn: BTreeMap::new(),
                    next_id: found.next_txn.max(1),
                },
            ),
            checkpointing: Mutex::new(()),
            making_room: Mutex::new(()),
            stop: SharedFlag::new(false),
            background: Mutex::new(None),
        });
        pool.attach_log(wal.pages.clone())?;
        let mut report = found.report;
        for (txn, ops) in found.losers {
            crate::undo::apply_undo(&pool, ops.iter().rev())?;
            wal.log
                .append(ABORT, &txn.to_le_bytes())
                .map_err(log_error)?;
            report.rolled_back += 1;
        }
        wal.checkpoint()?;
        report.millis = started.elapsed().as_millis() as u64;
        Ok((wal, report))
    }

    /// The data file's pages.
    pub fn pool(&self) -> &Arc<BufferPool> {
        &self.pool
    }

    /// Where transaction ids go on: past every id the log has seen.
    pub fn next_txn_id(&self) -> u64 {
        self.running.lock().next_id
    }

    /// Transaction `id` is about to write its first record: checkpoints
    /// keep the log from here until it ends.
    pub fn txn_started(&self, id: u64) {
        let mut running = self.running.lock();
        running.first_lsn.insert(id, self.log.end());
        running.next_id = running.next_id.max(id + 1);
    }

    /// Transaction `id` ended: appends its COMMIT (or ABORT) record and
    /// returns the LSN the record ends at (see [`wait_durable`](Self::wait_durable)).
    pub fn txn_ended(&self, id: u64, committed: bool) -> lineardb_buffer::Result<Lsn> {
        let kind = if committed { COMMIT } else { ABORT };
        let lsn = self.log.append(kind, &id.to_le_bytes()).map_err(log_error);
        self.running.lock().first_lsn.remove(&id);
        lsn
    }

    /// Makes sure the log has room for a new change before it is made
    /// (see [`Log::has_room`]); a full disk is error `DiskFull` for that
    /// change and the log stays usable. When the disk has no room left to
    /// extend the log, a checkpoint gives back the space of the records
    /// before it, then the log tries again. (New pages have their own
    /// check: `BufferPool::allocate` reserves their space.)
    pub fn reserve_room(&self) -> lineardb_buffer::Result<()> {
        if self.log.has_room() {
            return Ok(());
        }
        let _one = self.making_room.lock();
        if self.log.make_room().is_ok() {
            return Ok(());
        }
        self.checkpoint()?;
        self.log.make_room().map_err(log_error)
    }

    pub fn log(&self) -> &Log {
        &self.log
    }

    /// Returns once the log records up to `lsn` (a commit's) are as
    /// durable as the durability setting asks of a commit.
    pub fn wait_durable(&self, lsn: Lsn) -> lineardb_buffer::Result<()> {
        self.log.flush(lsn).map_err(log_error)
    }

    /// Whether [`wait_durable`](Self::wait_durable) would return at once.
    pub fn is_durable(&self, lsn: Lsn) -> bool {
        self.log.is_durable(lsn)
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
        let (undo_from, next_txn) = {
            let running = self.running.lock();
            let oldest = running.first_lsn.values().copied().min();
            (oldest.unwrap_or(redo_from).min(redo_from), running.next_id)
        };
        let (page_count, free) = self.pool.allocation();
        let payload = Checkpoint {
            redo_from,
            undo_from,
            page_count,
            next_txn,
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
    /// durability modes), checkpoints every [`CHECKPOINT_EVERY`] bytes, and
    /// calls `tick` every 100 ms (the layer above purges there).
    pub fn start_background(self: &Arc<Self>, tick: impl Fn() + Send + 'static) {
        let wal = self.clone();
        let handle = std::thread::Builder::new()
            .name("lineardb-log".into())
            .spawn(move || wal.background_loop(tick))
            .expect("spawn the log thread");
        *self.background.lock() = Some(handle);
    }

    fn background_loop(&self, tick: impl Fn()) {
        let mut ticks = 0u32;
        while !self.stop.get() {
            std::thread::sleep(std::time::Duration::from_millis(100));
            ticks += 1;
            tick();
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

    /// Stops the background thread (and so its calls of `tick`).
    pub fn stop_background(&self) {
        self.stop.set(true);
        if let Some(h) = self.background.lock().take() {
            let _ = h.join();
        }
    }

    /// Stops the background thread and takes a last checkpoint, so the
    /// next open has nothing to re-do.
    pub fn shutdown(&self) -> lineardb_buffer::Result<()> {
        self.stop_background();
        self.checkpoint()
    }
}
