//! The redo log (DESIGN.md layer `wal`).
//!
//! An append-only file of framed records. A record's *LSN* is the log
//! position just past it: a transaction that commits with a record ending at
//! LSN `l` is durable once the log is synced to `l`. Writers append under a
//! short lock (a copy into the log buffer); committers call
//! [`Log::flush`], and one of them — whoever takes the flush lock first —
//! writes and syncs everything buffered so far for all of them (group
//! commit). On open, the log is read from the start and cut at the first
//! record that is incomplete or fails its checksum: a torn tail from a
//! crash never reaches recovery.
//!
//! After a failed write or sync the log refuses all further work
//! (`Error::Poisoned`): the kernel may have dropped the dirty pages a
//! failed fsync was about, so retrying it could report success for data
//! that is gone. The database reopens (and recovers) to go on.
//!
//! [`Wal`] attaches a log to a data file: the `btree` layer's redo records
//! of page changes (with the undo information of transactional changes),
//! COMMIT and ABORT records, fuzzy checkpoints, and recovery on open
//! (re-doing page changes, rolling back unfinished transactions).
//! Transactions, snapshots and row locks are the `txn` layer's, above.
mod checkpoint;
mod file;
mod log;
mod record;
mod recovery;
mod undo;
pub mod waits;
mod wal;

pub use file::{FaultPlan, FaultyFile, LogFile, OsFile};
pub use log::{Durability, Log, LogStats, Records};
pub use record::{Lsn, Record, MAX_RECORD};
pub use recovery::RecoveryReport;
pub use undo::apply_undo;
pub use wal::{Wal, CHECKPOINT_EVERY};

/// What can go wrong with the log.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error("log I/O error: {0}")]
    Io(#[from] std::io::Error),
    #[error("not a lineardb log: {0}")]
    BadFile(String),
    #[error("log record of {0} bytes is larger than {max}", max = MAX_RECORD)]
    TooLarge(usize),
    #[error("the log failed earlier ({0}); reopen the database to recover")]
    Poisoned(String),
}

pub type Result<T, E = Error> = std::result::Result<T, E>;

/// A log failure as the storage layers report it.
pub(crate) fn log_error(e: Error) -> lineardb_buffer::Error {
    // ENOSPC, now or as the reason the log was poisoned earlier (kept as
    // the OS's text in the reason).
    let disk_full = match &e {
        Error::Io(io) => io.raw_os_error() == Some(28),
        Error::Poisoned(why) => why.contains("(os error 28)"),
        _ => false,
    };
    if disk_full {
        return lineardb_buffer::Error::DiskFull(e.to_string());
    }
    lineardb_buffer::Error::Log(e.to_string())
}
