//! Off-page values: a string column too long for its row is kept in the
//! table's *blob tree* and the row holds a [`BlobRef`] to it (the TOAST
//! idea: a tree keyed by value id and chunk number).
//!
//! Chunks are entries of a table tree like any other — stamped, written
//! and delete-marked by the row's transaction, logged with their undo,
//! purged when no snapshot needs them — so rollback, recovery and MVCC
//! need nothing of their own. A value id is never taken twice while
//! anything can reach it. Why chunks stay readable for exactly the
//! snapshots that see a row version pointing at them: the chunks are
//! written by the transaction that first stores the value, which every
//! view seeing such a row version sees; they are delete-marked by the
//! transaction whose row version stops pointing at them, which no view
//! seeing an older version sees, so those views read the chunks' older
//! versions as they read an older row.
use crate::error::{Error, Result};
use lineardb_btree::BTree;
use lineardb_txn::{ReadView, Stamp, Txn};
use std::cell::Cell;

/// Where an off-page value is: its id in the blob tree and its length.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct BlobRef {
    pub id: u64,
    pub len: u64,
}

impl BlobRef {
    /// Bytes of an encoded reference.
    pub const LEN: usize = 16;

    pub fn encode(self, out: &mut Vec<u8>) {
        out.extend_from_slice(&self.id.to_le_bytes());
        out.extend_from_slice(&self.len.to_le_bytes());
    }

    pub fn decode(b: &[u8]) -> Option<BlobRef> {
        let b: &[u8; Self::LEN] = b.get(..Self::LEN)?.try_into().ok()?;
        Some(BlobRef {
            id: u64::from_le_bytes(b[..8].try_into().ok()?),
            len: u64::from_le_bytes(b[8..].try_into().ok()?),
        })
    }
}

/// Key of chunk `n` of value `id`: both big-endian, so a value's chunks
/// are adjacent and in order.
fn chunk_key(id: u64, n: u32) -> [u8; 12] {
    let mut k = [0u8; 12];
    k[..8].copy_from_slice(&id.to_be_bytes());
    k[8..].copy_from_slice(&n.to_be_bytes());
    k
}

/// The value id a chunk key belongs to.
pub(crate) fn id_of_key(key: &[u8]) -> Option<u64> {
    Some(u64::from_be_bytes(key.get(..8)?.try_into().ok()?))
}

/// Bytes of a value per chunk: a chunk entry (key, stamp, bytes) is as
/// large as the tree takes.
fn chunk_len(tree: &BTree) -> usize {
    tree.max_entry_len() - 12 - Stamp::MAX_LEN
}

/// Cuts `data` into the chunk entries of value `id` (stamped for `trx`)
/// and hands each to `put` with its key.
fn put_chunks(
    tree: &BTree,
    id: u64,
    data: &[u8],
    trx: u64,
    mut put: impl FnMut(&[u8], &[u8]) -> Result<()>,
) -> Result<()> {
    let mut entry = Vec::with_capacity(tree.max_entry_len());
    for (n, chunk) in data.chunks(chunk_len(tree)).enumerate() {
        entry.clear();
        Stamp::live(trx).encode(&mut entry);
        entry.extend_from_slice(chunk);
        put(&chunk_key(id, n as u32), &entry)?;
    }
    Ok(())
}

/// Stores `data` as value `id`, written by `txn`.
pub(crate) fn write(txn: &mut Txn, tree: &BTree, id: u64, data: &[u8]) -> Result<()> {
    let trx = txn.id();
    put_chunks(tree, id, data, trx, |k, e| Ok(txn.put(tree, k, e)?))
}

/// Stores `data` as value `id` of a tree nothing references yet (a table
/// being rebuilt): chunks of transaction 0, without undo.
pub(crate) fn write_loaded(tree: &BTree, id: u64, data: &[u8]) -> Result<()> {
    put_chunks(tree, id, data, 0, |k, e| {
        tree.put(k, e)?;
        Ok(())
    })
}

/// Delete-marks the chunks of `r` for `txn` (purge removes them once no
/// snapshot can read them).
pub(crate) fn delete(txn: &mut Txn, tree: &BTree, r: BlobRef) -> Result<()> {
    let chunks = (r.len as usize).div_ceil(chunk_len(tree));
    for n in 0..chunks {
        txn.delete_mark(tree, &chunk_key(r.id, n as u32))?;
    }
    Ok(())
}

/// Reads off-page values for the rows of one scan, as one snapshot sees
/// them. A row's column is read through [`RowRef`](crate::RowRef), which
/// cannot fail; a failed read is kept here and the scan returns it.
pub(crate) struct Blobs<'a> {
    tree: &'a BTree,
    view: &'a ReadView,
    failed: Cell<Option<Error>>,
}

impl<'a> Blobs<'a> {
    pub(crate) fn new(tree: &'a BTree, view: &'a ReadView) -> Blobs<'a> {
        Blobs {
            tree,
            view,
            failed: Cell::new(None),
        }
    }

    /// The bytes of `r`; `None` after a failure (kept for
    /// [`check`](Self::check)).
    pub(crate) fn read(&self, r: BlobRef) -> Option<Vec<u8>> {
        match self.try_read(r) {
            Ok(b) => Some(b),
            Err(e) => {
                self.failed.set(Some(e));
                None
            }
        }
    }

    fn try_read(&self, r: BlobRef) -> Result<Vec<u8>> {
        let mut out = Vec::with_capacity(r.len as usize);
        let root = self.tree.root();
        let mut cursor = self.tree.cursor(&chunk_key(r.id, 0));
        let per_batch = (r.len as usize).div_ceil(chunk_len(self.tree)).clamp(1, 64);
        'chunks: while (out.len() as u64) < r.len {
            let batch = cursor.next_batch(per_batch)?;
            if batch.is_empty() {
                break;
            }
            for (k, v) in batch.iter() {
                if id_of_key(k) != Some(r.id) {
                    break 'chunks;
                }
                if let Some(body) = self.view.resolve(root, k, v).body() {
                    out.extend_from_slice(body);
                }
            }
        }
        if out.len() as u64 != r.len {
            return Err(Error::Storage(lineardb_buffer::Error::Invalid(format!(
                "off-page value {} holds {} of its {} bytes",
                r.id,
                out.len(),
                r.len
            ))));
        }
        Ok(out)
    }

    /// The first failed read, if any (then the scan fails with it).
    pub(crate) fn check(&self) -> Result<()> {
        match self.failed.take() {
            Some(e) => Err(e),
            None => Ok(()),
        }
    }
}
