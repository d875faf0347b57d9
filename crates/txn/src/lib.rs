//! Transactions (DESIGN.md layer `txn`): ids, MVCC read views over stamped
//! values, the in-memory undo of each transaction, and row locks.
//!
//! The layer sits on the redo log (`lineardb-wal`): a transaction tells the
//! log when it first writes and when it ends, and its changes go to the
//! trees through `btree`'s logged, undo-carrying operations. Reads take a
//! [`ReadView`] from a [`Reader`] and never wait for writers.
mod error;
mod locks;
mod manager;
mod mvcc;
mod txn;
pub mod waits;

pub use error::{Error, Result};
pub use locks::{LockError, LockWait, DEFAULT_LOCK_WAIT_TIMEOUT};
pub use manager::Transactions;
pub use mvcc::{ReadView, Reader, Stamp, Version};
pub use txn::Txn;
