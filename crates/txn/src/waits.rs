//! The wait classes of transactions, snapshots and row locks (registered by
//! whoever opens the engine: [`CLASSES`] through
//! `lineardb_sync::wait::register`).
use lineardb_sync::{wait_class, WaitClass};

/// The row-lock table's mutex.
pub const LOCK_TABLE: WaitClass = wait_class!("wait/synch/mutex/lock_table");
/// A transaction waiting for another's row lock.
pub const ROW_LOCK: WaitClass = wait_class!("wait/lock/row");
/// Transaction and snapshot bookkeeping (begin, commit, purge).
pub const TRANSACTIONS: WaitClass = wait_class!("wait/synch/mutex/trx");

/// Every class above, in the order summaries list them.
pub const CLASSES: &[WaitClass] = &[LOCK_TABLE, ROW_LOCK, TRANSACTIONS];
