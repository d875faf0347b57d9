//! The redo log's wait classes (registered by whoever opens the engine:
//! [`CLASSES`] through `lineardb_sync::wait::register`).
use lineardb_sync::{wait_class, WaitClass};

/// Appending to the log buffer.
pub const LOG_BUFFER: WaitClass = wait_class!("wait/synch/mutex/log/buffer");
/// A commit waiting for another thread's log write or sync (group commit).
pub const LOG_COMMIT: WaitClass = wait_class!("wait/synch/cond/log/commit");
/// Writing the log file.
pub const IO_LOG_WRITE: WaitClass = wait_class!("wait/io/file/log/write");
/// fsync of the log file.
pub const IO_LOG_SYNC: WaitClass = wait_class!("wait/io/file/log/sync");

/// The log's list of running transactions (a transaction's first write
/// and its end; checkpoints read it).
pub const RUNNING_TXNS: WaitClass = wait_class!("wait/synch/mutex/log/running_txns");

/// Every class above, in the order summaries list them.
pub const CLASSES: &[WaitClass] = &[
    LOG_BUFFER,
    LOG_COMMIT,
    IO_LOG_WRITE,
    IO_LOG_SYNC,
    RUNNING_TXNS,
];
