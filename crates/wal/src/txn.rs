//! Transactions: an id taken at the first change, the undo list kept in
//! memory for ROLLBACK (the same information is in the log for recovery),
//! COMMIT made durable as the log's [`crate::Durability`] says.
//!
//! Undo operations put back the value a key had, or remove a key that was
//! absent: applying one twice is the same as once, so recovery can roll a
//! transaction back even if it was partly rolled back before the crash.
//! Changed rows are locked until the transaction ends (see `locks.rs`); the
//! locks are released once the COMMIT record is appended, before it is
//! synced: a transaction that then changes the row commits after it in the
//! log, so it can never be durable without it. Reads take no locks and
//! see uncommitted changes (snapshot reads are not built yet).
use crate::locks::LockError;
use crate::wal::{log_error, Wal, ABORT, COMMIT};
use lineardb_btree::redo::UndoOp;
use lineardb_btree::BTree;
use lineardb_buffer::{BufferPool, PageId, Result};
use std::sync::Arc;

pub struct Txn {
    wal: Arc<Wal>,
    /// 0 until the first change.
    id: u64,
    undo: Vec<UndoOp>,
    /// Keys locked, released when the transaction ends.
    locks: Vec<Vec<u8>>,
}

/// Applies undo operations in the order given (callers pass them newest
/// first). The changes are logged without undo information of their own.
pub(crate) fn undo<'a>(
    pool: &Arc<BufferPool>,
    ops: impl Iterator<Item = &'a UndoOp>,
) -> Result<()> {
    for op in ops {
        let tree = BTree::open(pool.clone(), op.root);
        match &op.old {
            Some(v) => {
                tree.put(&op.key, v)?;
            }
            None => {
                tree.remove(&op.key)?;
            }
        }
    }
    Ok(())
}

impl Txn {
    pub(crate) fn new(wal: Arc<Wal>) -> Txn {
        Txn {
            wal,
            id: 0,
            undo: Vec::new(),
            locks: Vec::new(),
        }
    }

    /// The id to tag changes with; the first call starts the transaction
    /// in the log's bookkeeping (reads never call it).
    pub fn id(&mut self) -> u64 {
        if self.id == 0 {
            self.id = self.wal.register();
        }
        self.id
    }

    /// Locks row `key` of the tree rooted at `root` until the transaction
    /// ends, waiting for another transaction that holds it.
    pub fn lock(&mut self, root: PageId, key: &[u8]) -> Result<(), LockError> {
        let id = self.id();
        let mut k = Vec::with_capacity(8 + key.len());
        k.extend_from_slice(&root.to_le_bytes());
        k.extend_from_slice(key);
        if self.wal.locks.lock(id, &k)? {
            self.locks.push(k);
        }
        Ok(())
    }

    /// Inserts or replaces `key -> value` in `tree` as part of this
    /// transaction (logged with its undo, remembered for ROLLBACK).
    pub fn put(&mut self, tree: &BTree, key: &[u8], value: &[u8]) -> Result<()> {
        let old = tree.put_tx(key, value, self.id())?;
        self.record(tree.root(), key, old);
        Ok(())
    }

    /// Inserts `key -> value` into `tree` if `key` is absent; false (and
    /// nothing changed) if it exists.
    pub fn insert_new(&mut self, tree: &BTree, key: &[u8], value: &[u8]) -> Result<bool> {
        let inserted = tree.insert_new_tx(key, value, self.id())?;
        if inserted {
            self.record(tree.root(), key, None);
        }
        Ok(inserted)
    }

    /// Removes `key` from `tree`; true if it was there.
    pub fn remove(&mut self, tree: &BTree, key: &[u8]) -> Result<bool> {
        let old = tree.remove_tx(key, self.id())?;
        let found = old.is_some();
        if found {
            self.record(tree.root(), key, old);
        }
        Ok(found)
    }

    /// Remembers how to undo a change made with [`id`](Self::id): put
    /// `old` back under `key` in the tree rooted at `root` (or remove `key`).
    fn record(&mut self, root: PageId, key: &[u8], old: Option<Vec<u8>>) {
        self.undo.push(UndoOp {
            txn: self.id,
            root,
            key: key.to_vec(),
            old,
        });
    }

    /// A point to roll back to (a statement's start).
    pub fn savepoint(&self) -> usize {
        self.undo.len()
    }

    /// Undoes the changes made since `savepoint`.
    pub fn rollback_to(&mut self, savepoint: usize) -> Result<()> {
        if savepoint >= self.undo.len() {
            return Ok(());
        }
        let r = undo(&self.wal.pool, self.undo[savepoint..].iter().rev());
        self.undo.truncate(savepoint);
        r
    }

    /// Commits: returns once the commit is as durable as the log's mode asks.
    pub fn commit(mut self) -> Result<()> {
        self.finish_commit()
    }

    fn finish_commit(&mut self) -> Result<()> {
        if self.id == 0 {
            return Ok(());
        }
        let id = std::mem::take(&mut self.id);
        self.undo.clear();
        let lsn = self.wal.end_txn(id, COMMIT);
        self.wal.locks.release(&std::mem::take(&mut self.locks));
        self.wal.log.flush(lsn?).map_err(log_error)
    }

    /// Undoes every change and ends the transaction.
    pub fn rollback(mut self) -> Result<()> {
        self.finish_rollback()
    }

    fn finish_rollback(&mut self) -> Result<()> {
        if self.id == 0 {
            return Ok(());
        }
        let r = self.rollback_to(0);
        let id = std::mem::take(&mut self.id);
        let ended = self.wal.end_txn(id, ABORT);
        self.wal.locks.release(&std::mem::take(&mut self.locks));
        r.and(ended.map(|_| ()))
    }
}

impl Drop for Txn {
    /// A transaction dropped without COMMIT (a connection closed mid-way)
    /// rolls back.
    fn drop(&mut self) {
        if let Err(e) = self.finish_rollback() {
            eprintln!("lineardb: rolling back transaction failed: {e}");
        }
    }
}
