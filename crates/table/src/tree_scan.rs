//! Reading a tree in batches: how many entries a scan copies out at once,
//! and the batched range scan that every table read is built on (entries
//! read are counted once per batch, in the reading thread's slot).
use crate::error::Result;
use crate::key_range::KeyRange;
use lineardb_btree::BTree;

/// Largest batch a scan copies out of the tree at once (and the most
/// primary keys a non-covering scan looks up together).
pub const LOOKUP_BATCH: usize = 256;

/// Most primary keys one sweep of an unordered non-covering scan sorts and
/// looks up together (see `Table::scan_index_rows_unordered`).
pub const SWEEP_BATCH: usize = 1 << 16;

/// Batch sizes of a scan: small first (a 10-row range must not copy a
/// whole leaf), growing 4x per batch up to [`LOOKUP_BATCH`].
pub(crate) struct BatchSize(usize);

impl Default for BatchSize {
    fn default() -> Self {
        BatchSize(16)
    }
}

impl BatchSize {
    pub(crate) fn next(&mut self) -> usize {
        let n = self.0;
        self.0 = (n * 4).min(LOOKUP_BATCH);
        n
    }
}

/// Calls `f(key, value)` on the entries of `tree` in `range`, in key order,
/// until it returns false. Batches start small and grow (see [`BatchSize`]).
pub(crate) fn scan_range(
    tree: &BTree,
    range: &KeyRange,
    mut f: impl FnMut(&[u8], &[u8]) -> bool,
) -> Result<()> {
    let mut c = tree.cursor(&range.start);
    let mut batch = BatchSize::default();
    loop {
        let b = c.next_batch(batch.next())?;
        if b.is_empty() {
            return Ok(());
        }
        let all_in = batch_inside(b, range);
        // Entries read count up to the first past the range or the one `f`
        // stopped at (once per batch, in this thread's slot).
        let mut read = b.len();
        let mut stop = false;
        for (i, (k, v)) in b.iter().enumerate() {
            if !(all_in || range.contains_upper(k)) {
                (read, stop) = (i, true);
                break;
            }
            if !f(k, v) {
                (read, stop) = (i + 1, true);
                break;
            }
        }
        count_fetch(tree.root(), read as u64);
        if stop {
            return Ok(());
        }
    }
}

/// Counts `n` entries read from the tree rooted at `root` (`SHOW STATUS`
/// rows read and the index's fetches; this thread's slot).
#[inline]
pub(crate) fn count_fetch(root: u64, n: u64) {
    lineardb_sync::thread_slot::count_rows(root, lineardb_sync::thread_slot::IndexOp::Fetch, n);
}

/// True if every key of `batch` is below `range`'s end: the batch is
/// sorted, so its last key decides (one comparison per batch instead of
/// one per entry).
#[inline]
pub(crate) fn batch_inside(batch: &lineardb_btree::Batch, range: &KeyRange) -> bool {
    batch.is_empty() || range.contains_upper(batch.key(batch.len() - 1))
}
