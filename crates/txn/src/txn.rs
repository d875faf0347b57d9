//! Transactions: an id taken at the first change, the undo list kept in
//! memory for ROLLBACK (the same information is in the log for recovery),
//! COMMIT made durable as the log's durability setting says.
//!
//! Undo operations put back the value a key had, or remove a key that was
//! absent: applying one twice is the same as once, so recovery can roll a
//! transaction back even if it was partly rolled back before the crash.
//! Changed rows are locked until the transaction ends (see `locks.rs`); the
//! locks are released once the COMMIT record is appended, before it is
//! synced: a transaction that then changes the row commits after it in the
//! log, so it can never be durable without it. Reads take no locks: they
//! read through a [`crate::ReadView`], which sees the value each change
//! replaced (recorded, before the change is visible, in the transaction's
//! versions: see `mvcc.rs`).
use crate::error::Result;
use crate::manager::Transactions;
use crate::mvcc::{Mark, Stamp, Started};
use lineardb_btree::redo::UndoOp;
use lineardb_btree::BTree;
use lineardb_buffer::PageId;
use lineardb_wal::{apply_undo, Lsn};
use std::sync::Arc;

pub struct Txn {
    txns: Arc<Transactions>,
    /// The id, MVCC slot and versions, from the first change on.
    started: Option<Started>,
    undo: Vec<UndoOp>,
    /// Delete marks made, with the undo position of each (a rollback to
    /// a savepoint drops the later ones).
    marks: Vec<(usize, Mark)>,
    /// Keys locked, released when the transaction ends.
    locks: Vec<Vec<u8>>,
    /// What upper layers hold until the transaction ends (a table's
    /// write gate), by their key; released at commit, rollback or drop,
    /// whether or not anything changed.
    holds: Vec<(u64, Box<dyn FnOnce() + Send>)>,
    /// Who runs it (a session's id; 0: none named), shown with its lock
    /// waits.
    owner: u64,
}

impl Txn {
    /// A new transaction on `txns` (it takes an id when it first writes).
    pub fn begin(txns: &Arc<Transactions>) -> Txn {
        Txn::begin_for(txns, 0)
    }

    /// A new transaction run by `owner` (a session's id), which its lock
    /// waits name ([`Transactions::lock_waits`]).
    pub fn begin_for(txns: &Arc<Transactions>, owner: u64) -> Txn {
        Txn {
            txns: txns.clone(),
            started: None,
            undo: Vec::new(),
            marks: Vec::new(),
            locks: Vec::new(),
            holds: Vec::new(),
            owner,
        }
    }

    /// The row locks it holds.
    pub fn locks_held(&self) -> usize {
        self.locks.len()
    }

    /// How long a wait for another transaction may last.
    pub fn lock_wait_timeout(&self) -> std::time::Duration {
        self.txns.lock_wait_timeout()
    }

    /// Whether the transaction holds `key` (see [`Txn::hold_until_end`]).
    pub fn holds(&self, key: u64) -> bool {
        self.holds.iter().any(|(k, _)| *k == key)
    }

    /// Keeps `key` held until the transaction ends, then calls `release`.
    pub fn hold_until_end(&mut self, key: u64, release: Box<dyn FnOnce() + Send>) {
        self.holds.push((key, release));
    }

    fn release_holds(&mut self) {
        for (_, release) in self.holds.drain(..) {
            release();
        }
    }

    /// The id to tag changes with; the first call starts the transaction
    /// in the log's bookkeeping (reads never call it).
    pub fn id(&mut self) -> u64 {
        self.started.get_or_insert_with(|| self.txns.register()).id
    }

    /// The id if the transaction has changed anything (0 otherwise).
    pub fn id_if_started(&self) -> u64 {
        self.started.as_ref().map_or(0, |s| s.id)
    }

    /// Locks row `key` of the tree rooted at `root` until the transaction
    /// ends, waiting for another transaction that holds it.
    pub fn lock(&mut self, root: PageId, key: &[u8]) -> Result<()> {
        let id = self.id();
        let mut k = Vec::with_capacity(8 + key.len());
        k.extend_from_slice(&root.to_le_bytes());
        k.extend_from_slice(key);
        if self.txns.locks.lock(id, self.owner, &k)? {
            self.locks.push(k);
        }
        Ok(())
    }

    /// Locks row `key` of the tree rooted at `root` until the transaction
    /// ends if no other transaction holds it; false (nothing locked) if
    /// another does. Never waits.
    pub fn try_lock(&mut self, root: PageId, key: &[u8]) -> bool {
        let id = self.id();
        let mut k = Vec::with_capacity(8 + key.len());
        k.extend_from_slice(&root.to_le_bytes());
        k.extend_from_slice(key);
        match self.txns.locks.try_lock(id, &k) {
            Some(true) => {
                self.locks.push(k);
                true
            }
            Some(false) => true,
            None => false,
        }
    }

    /// Inserts or replaces `key -> value` in `tree` as part of this
    /// transaction (logged with its undo, remembered for ROLLBACK).
    pub fn put(&mut self, tree: &BTree, key: &[u8], value: &[u8]) -> Result<()> {
        self.put_if(tree, key, value, |_| true)?;
        Ok(())
    }

    /// [`put`](Self::put) if `accept(current value)`; false if refused.
    fn put_if(
        &mut self,
        tree: &BTree,
        key: &[u8],
        value: &[u8],
        accept: impl Fn(Option<&[u8]>) -> bool,
    ) -> Result<bool> {
        self.txns.wal().reserve_room()?;
        let id = self.id();
        let versions = &self.started.as_ref().expect("started").versions;
        let root = tree.root();
        let done = tree.put_tx_if(key, value, id, |old| {
            let ok = accept(old);
            if ok {
                versions.record_first(root, key, old);
            }
            ok
        })?;
        match done {
            Some(old) => {
                self.record(root, key, old);
                Ok(true)
            }
            None => Ok(false),
        }
    }

    /// Inserts `key -> value` into `tree` (a table's tree: stamped values)
    /// if `key` is absent or holds a delete mark; false (and nothing
    /// changed) if it holds a row.
    pub fn insert_new(&mut self, tree: &BTree, key: &[u8], value: &[u8]) -> Result<bool> {
        self.put_if(tree, key, value, |old| {
            old.is_none_or(|v| Stamp::decode(v).0.deleted)
        })
    }

    /// Marks `key` of a table's tree deleted (the record stays for the
    /// snapshots that still see it; purge removes it after the
    /// transaction ends and every snapshot sees that). False if absent.
    pub fn delete_mark(&mut self, tree: &BTree, key: &[u8]) -> Result<bool> {
        let id = self.id();
        let mark = Stamp {
            trx: id,
            deleted: true,
        }
        .to_vec();
        let done = self.put_if(tree, key, &mark, |old| {
            old.is_some_and(|v| !Stamp::decode(v).0.deleted)
        })?;
        if done {
            let at = self.undo.len() - 1;
            self.marks.push((
                at,
                Mark {
                    root: tree.root(),
                    key: key.to_vec(),
                    value: mark,
                },
            ));
        }
        Ok(done)
    }

    /// Removes `key` from `tree` (an unstamped tree: the catalog); true
    /// if it was there.
    pub fn remove(&mut self, tree: &BTree, key: &[u8]) -> Result<bool> {
        self.txns.wal().reserve_room()?;
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
            txn: self.id_if_started(),
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
        let r = apply_undo(self.txns.wal().pool(), self.undo[savepoint..].iter().rev());
        self.undo.truncate(savepoint);
        self.marks.retain(|(at, _)| *at < savepoint);
        Ok(r?)
    }

    /// Commits: returns once the commit is as durable as the log's mode asks.
    pub fn commit(mut self) -> Result<()> {
        self.finish_commit()
    }

    /// Commits without waiting for the log: the transaction is committed
    /// for every other transaction (its locks are released, new views see
    /// it) and returns the LSN its commit record ends at, to be passed to
    /// [`Transactions::wait_durable`] before the commit is reported to anyone. A
    /// server uses it to serve other clients while the log syncs. `None`
    /// when the transaction changed nothing.
    pub fn commit_no_wait(mut self) -> Result<Option<Lsn>> {
        self.commit_in_memory()
    }

    fn finish_commit(&mut self) -> Result<()> {
        if let Some(lsn) = self.commit_in_memory()? {
            self.txns.wal().wait_durable(lsn)?;
        }
        Ok(())
    }

    fn commit_in_memory(&mut self) -> Result<Option<Lsn>> {
        let Some(s) = self.started.as_ref() else {
            self.release_holds();
            return Ok(None);
        };
        let lsn = match self.txns.wal().txn_ended(s.id, true) {
            Ok(lsn) => lsn,
            Err(e) => {
                // No COMMIT record, no commit: undone in memory too, so no
                // reader sees what recovery will roll back.
                let _ = self.finish_rollback();
                return Err(e.into());
            }
        };
        let s = self.started.take().expect("started");
        self.undo.clear();
        // Views taken from now on see the transaction committed; its
        // versions and delete marks wait for purge.
        let marks = std::mem::take(&mut self.marks);
        let backlog = self
            .txns
            .mvcc
            .end(s.id, s.slot, marks.into_iter().map(|(_, m)| m).collect());
        self.txns.locks.release(&std::mem::take(&mut self.locks));
        self.release_holds();
        self.txns.purge_if_due(backlog);
        Ok(Some(lsn))
    }

    /// Undoes every change and ends the transaction.
    pub fn rollback(mut self) -> Result<()> {
        self.finish_rollback()
    }

    fn finish_rollback(&mut self) -> Result<()> {
        let Some(s) = self.started.as_ref().map(|s| (s.id, s.slot)) else {
            self.release_holds();
            return Ok(());
        };
        let r = self.rollback_to(0);
        self.started = None;
        let ended = self.txns.wal().txn_ended(s.0, false);
        self.txns.mvcc.end(s.0, s.1, Vec::new());
        self.txns.locks.release(&std::mem::take(&mut self.locks));
        self.release_holds();
        r.and(ended.map(|_| ()).map_err(Into::into))
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
