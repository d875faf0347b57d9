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
pub fn apply_undo<'a>(pool: &Arc<BufferPool>, ops: impl Iterator<Item = &'a UndoOp>) -> Result<()> {
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
