//! Recovery, first half: rebuild the page count and free list, re-do page
//! changes, and find the transactions that did not end. (The second half,
//! rolling those back, runs through the trees once the log is attached:
//! `Wal::open`.)
//!
//! Pass 1 reads the log from `min(redo_from, undo_from)` of the last
//! checkpoint: it replays page allocation (FREE / in use) onto the
//! checkpoint's free list, and collects each transaction's undo operations
//! until its COMMIT or ABORT. Pass 2 re-does every redo record from
//! `redo_from` on pages whose LSN is older (pages free at the end are
//! skipped: nothing reaches them). A page a bulk build wrote straight to
//! the file (an ALLOC operation at LSN `a`) skips the records older than
//! `a`: they describe an earlier life of the page (freed, then reused by
//! the build), and re-doing them would overwrite the build's content,
//! which is on disk only.
use crate::checkpoint::Checkpoint;
use crate::log::{Log, FILE_HEADER};
use crate::log_error;
use crate::record::{Lsn, ABORT, CHECKPOINT, COMMIT, HEADER, REDO};
use lineardb_btree::redo::{self, PageEffect, UndoOp};
use lineardb_buffer::{BufferPool, Error, PageId, Result};
use std::collections::{BTreeMap, BTreeSet, HashMap};

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

pub(crate) struct Redone {
    pub report: RecoveryReport,
    /// Unfinished transactions and their undo operations, in log order.
    pub losers: BTreeMap<u64, Vec<UndoOp>>,
    pub next_txn: u64,
}

fn read_checkpoint(log: &Log, at: u64) -> Result<Checkpoint> {
    let bad = |why: &str| Error::Log(format!("checkpoint record at LSN {at}: {why}"));
    let rec = log
        .records(at)
        .next()
        .ok_or_else(|| bad("missing (is this the data file's log?)"))?
        .map_err(log_error)?;
    if rec.kind != CHECKPOINT {
        return Err(bad("not a checkpoint"));
    }
    Checkpoint::decode(&rec.payload).ok_or_else(|| bad("malformed"))
}

pub(crate) fn redo(log: &Log, pool: &BufferPool) -> Result<Redone> {
    let page_size = pool.page_size();
    let ckpt = match pool.checkpoint_lsn() {
        0 => {
            let (page_count, free) = pool.allocation();
            Checkpoint {
                redo_from: FILE_HEADER,
                undo_from: FILE_HEADER,
                page_count,
                next_txn: 1,
                free,
            }
        }
        at => read_checkpoint(log, at)?,
    };
    let from = ckpt.redo_from.min(ckpt.undo_from);
    let mut page_count = ckpt.page_count;
    let mut free: BTreeSet<PageId> = ckpt.free.iter().copied().collect();
    let mut built_at: HashMap<PageId, u64> = HashMap::new();
    let mut active: BTreeMap<u64, Vec<UndoOp>> = BTreeMap::new();
    let mut next_txn = ckpt.next_txn;
    let mut report = RecoveryReport {
        from,
        to: from,
        ..Default::default()
    };
    for rec in log.records(from) {
        let rec = rec.map_err(log_error)?;
        let start = rec.lsn - (HEADER + rec.payload.len()) as u64;
        report.to = rec.lsn;
        match rec.kind {
            REDO => {
                if start >= ckpt.redo_from {
                    report.redo_records += 1;
                    for (pid, effect) in redo::effects(&rec.payload, page_size)? {
                        page_count = page_count.max(pid + 1);
                        match effect {
                            PageEffect::Freed => free.insert(pid),
                            PageEffect::InUse => free.remove(&pid),
                            PageEffect::Built => {
                                built_at.insert(pid, rec.lsn);
                                free.remove(&pid)
                            }
                        };
                    }
                }
                for u in redo::undo_ops(&rec.payload, page_size)? {
                    next_txn = next_txn.max(u.txn + 1);
                    active.entry(u.txn).or_default().push(u);
                }
            }
            COMMIT | ABORT => {
                if let Ok(b) = <[u8; 8]>::try_from(rec.payload.as_slice()) {
                    let txn = u64::from_le_bytes(b);
                    next_txn = next_txn.max(txn + 1);
                    active.remove(&txn);
                }
            }
            _ => {}
        }
    }
    pool.set_allocation(page_count, free.iter().copied().collect())?;
    for rec in log.records(ckpt.redo_from) {
        let rec = rec.map_err(log_error)?;
        if rec.kind == REDO {
            let skip = |pid: PageId| {
                free.contains(&pid) || built_at.get(&pid).is_some_and(|&at| rec.lsn < at)
            };
            report.pages_redone += redo::apply(pool, rec.lsn, &rec.payload, &skip)? as u64;
        }
    }
    Ok(Redone {
        report,
        losers: active,
        next_txn,
    })
}
