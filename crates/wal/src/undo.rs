//! Applying undo operations: the rollback of a transaction, by its owner
//! (ROLLBACK, a failed statement) or by recovery (a transaction the crash
//! left unfinished).
use lineardb_btree::redo::UndoOp;
use lineardb_btree::BTree;
use lineardb_buffer::{BufferPool, Result};
use std::sync::Arc;

/// Applies undo operations in the order given (callers pass them newest
/// first). The changes are logged without undo information of their own.
/// Each operation puts back the value a key had, or removes a key that was
/// absent: applying one twice is the same as once.
///
/// An operation that fails (the log failed: its record could not be
/// appended, though the page changed) does not stop the others: every
/// change is undone in memory, so no reader sees it, and the first error
/// is returned. The log refuses all later work then, and recovery rolls
/// the transaction back again from what the log has. New pages the undo
/// needs come from the spare ones a full disk keeps for it.
pub fn apply_undo<'a>(pool: &Arc<BufferPool>, ops: impl Iterator<Item = &'a UndoOp>) -> Result<()> {
    lineardb_buffer::with_spare_pages(|| undo_all(pool, ops))
}

fn undo_all<'a>(pool: &Arc<BufferPool>, ops: impl Iterator<Item = &'a UndoOp>) -> Result<()> {
    let mut first_error = None;
    for op in ops {
        let tree = BTree::open(pool.clone(), op.root);
        let r = match &op.old {
            Some(v) => tree.put(&op.key, v).map(|_| ()),
            None => tree.remove(&op.key).map(|_| ()),
        };
        if let Err(e) = r {
            first_error.get_or_insert(e);
        }
    }
    first_error.map_or(Ok(()), Err)
}
