//! The transaction manager of a database: transactions start on it
//! ([`crate::Txn::begin`]) and it hands out snapshot readers, owns the MVCC bookkeeping and the row-lock table, and
//! purges what no snapshot needs any more. It sits on the log: a
//! transaction's first write and its end are told to the [`Wal`], which
//! keeps what checkpoints and recovery need.
use crate::error::Result;
use crate::locks::LockTable;
use crate::mvcc::{Mvcc, Reader, Started};
use lineardb_btree::BTree;
use lineardb_buffer::PageId;
use lineardb_wal::Wal;
use std::sync::Arc;
use std::time::Duration;

/// Ended transactions a committer lets pile up before it purges.
const PURGE_BATCH: usize = 64;

pub struct Transactions {
    wal: Arc<Wal>,
    pub(crate) mvcc: Arc<Mvcc>,
    pub(crate) locks: LockTable,
}

impl Transactions {
    /// The transactions of the database whose log is `wal` (just opened:
    /// ids go on past every id it has seen). Starts the log's background
    /// thread, which purges every 100 ms.
    pub fn start(wal: Arc<Wal>) -> Arc<Transactions> {
        let txns = Arc::new(Transactions {
            mvcc: Arc::new(Mvcc::new(wal.next_txn_id())),
            locks: LockTable::new(),
            wal,
        });
        let weak = Arc::downgrade(&txns);
        txns.wal.start_background(move || {
            if let Some(txns) = weak.upgrade() {
                if let Err(e) = txns.purge() {
                    eprintln!("lineardb: purge failed: {e}");
                }
            }
        });
        txns
    }

    /// The log under the transactions.
    pub fn wal(&self) -> &Arc<Wal> {
        &self.wal
    }

    /// A handle that takes snapshots (one per session or reading thread);
    /// `None` when every reader slot is taken.
    pub fn reader(&self) -> Option<Reader> {
        self.mvcc.reader()
    }

    pub(crate) fn register(&self) -> Started {
        // MAX_SLOTS transactions writing at once is far past what the
        // worker pool runs; more wait for one to end.
        let started = loop {
            match self.mvcc.begin() {
                Some(s) => break s,
                None => std::thread::sleep(Duration::from_millis(1)),
            }
        };
        self.wal.txn_started(started.id);
        started
    }

    /// Purges what no snapshot needs (see `mvcc.rs`): delete marks are
    /// removed if their key still holds exactly the mark.
    pub fn purge(&self) -> Result<usize> {
        Ok(self.mvcc.purge(|m| {
            BTree::open(self.wal.pool().clone(), m.root).remove_if(&m.key, |v| v == m.value)?;
            Ok(())
        })?)
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

    /// Frees the pages of the tree rooted at `root`, after dropping the
    /// delete marks waiting to be purged from it.
    pub fn destroy_tree(&self, root: PageId) -> Result<()> {
        self.mvcc.forget_tree(root);
        Ok(BTree::open(self.wal.pool().clone(), root).destroy()?)
    }

    /// How long a transaction waits for a row lock (`innodb_lock_wait_timeout`).
    /// The transactions waiting for row locks now.
    pub fn lock_waits(&self) -> Vec<crate::LockWait> {
        self.locks.waits()
    }

    pub fn lock_wait_timeout(&self) -> Duration {
        self.locks.timeout()
    }

    pub fn set_lock_wait_timeout(&self, t: Duration) {
        self.locks.set_timeout(t)
    }

    /// Stops the background thread, purges, and takes a last checkpoint,
    /// so the next open has nothing to re-do.
    pub fn shutdown(&self) -> Result<()> {
        self.wal.stop_background();
        self.purge()?;
        Ok(self.wal.checkpoint()?)
    }
}
