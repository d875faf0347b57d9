//! Catalog entries of any length. A B-tree entry holds at most about a
//! quarter page, and the definition of a table of many columns (or of a
//! long view) is longer than that. A value that fits is stored as it is;
//! a longer one is stored as a header (a marker byte, the number of parts,
//! the value's length and checksum) under its key, and its parts as
//! entries of their own under `C<key><part number>`, all in the writer's
//! transaction.
//!
//! Values stored whole never start with the marker byte (0): definitions
//! are JSON and a database's entry starts with its name.
//!
//! Readers do not take the DDL lock. A reader that meets a long value
//! while a DDL statement rewrites it sees parts that do not match the
//! header's checksum, and reads it again.
use crate::error::{Error, Result};
use lineardb_btree::BTree;
use lineardb_buffer::PageId;
use lineardb_txn::Txn;
use std::time::Duration;

/// The first byte of a header.
const MARK: u8 = 0;
/// Marker, part count (u32), value length (u32), checksum (u64).
const HEADER_LEN: usize = 1 + 4 + 4 + 8;
/// How long a reader waits for a writer to finish a long value before it
/// reports the entry as damaged.
const TORN_READ_RETRIES: u32 = 10_000;

/// The catalog's tree, seen as entries of any length.
pub(super) struct CatalogEntries {
    tree: BTree,
}

struct Header {
    parts: u32,
    len: u32,
    checksum: u64,
}

impl Header {
    fn parse(value: &[u8]) -> Option<Header> {
        if value.len() != HEADER_LEN || value[0] != MARK {
            return None;
        }
        let u32_at = |at: usize| u32::from_le_bytes(value[at..at + 4].try_into().expect("4 bytes"));
        Some(Header {
            parts: u32_at(1),
            len: u32_at(5),
            checksum: u64::from_le_bytes(value[9..17].try_into().expect("8 bytes")),
        })
    }

    fn encode(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(HEADER_LEN);
        out.push(MARK);
        out.extend_from_slice(&self.parts.to_le_bytes());
        out.extend_from_slice(&self.len.to_le_bytes());
        out.extend_from_slice(&self.checksum.to_le_bytes());
        out
    }
}

/// FNV-1a: enough to tell a value from parts of two different writes.
fn checksum(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ b as u64).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

fn part_key(key: &[u8], part: u32) -> Vec<u8> {
    let mut k = Vec::with_capacity(key.len() + 5);
    k.push(b'C');
    k.extend_from_slice(key);
    k.extend_from_slice(&part.to_be_bytes());
    k
}

impl CatalogEntries {
    pub(super) fn new(tree: BTree) -> CatalogEntries {
        CatalogEntries { tree }
    }

    pub(super) fn root(&self) -> PageId {
        self.tree.root()
    }

    /// The value of `key`, whole.
    pub(super) fn get(&self, key: &[u8]) -> Result<Option<Vec<u8>>> {
        for _ in 0..TORN_READ_RETRIES {
            let Some(raw) = self.tree.get(key)? else {
                return Ok(None);
            };
            let Some(header) = Header::parse(&raw) else {
                return Ok(Some(raw));
            };
            if let Some(value) = self.assemble(key, &header)? {
                return Ok(Some(value));
            }
            std::thread::sleep(Duration::from_millis(1));
        }
        Err(Error::Invalid(format!(
            "catalog entry {} does not match its parts",
            String::from_utf8_lossy(key)
        )))
    }

    /// The parts of a long value joined; None if they are not the ones its
    /// header describes (a writer is between them).
    fn assemble(&self, key: &[u8], header: &Header) -> Result<Option<Vec<u8>>> {
        let mut value = Vec::with_capacity(header.len as usize);
        for part in 0..header.parts {
            match self.tree.get(&part_key(key, part))? {
                Some(bytes) => value.extend_from_slice(&bytes),
                None => return Ok(None),
            }
        }
        Ok(
            (value.len() == header.len as usize && checksum(&value) == header.checksum)
                .then_some(value),
        )
    }

    /// Calls `f` with each entry whose key starts with `prefix` (and the
    /// ones after it, until `f` returns false), values whole.
    pub(super) fn scan(
        &self,
        prefix: &[u8],
        mut f: impl FnMut(&[u8], &[u8]) -> bool,
    ) -> Result<()> {
        let mut failed = None;
        self.tree.scan(prefix, |k, v| {
            if Header::parse(v).is_none() {
                return f(k, v);
            }
            match self.get(k) {
                Ok(Some(whole)) => f(k, &whole),
                // Removed since the scan read it.
                Ok(None) => true,
                Err(e) => {
                    failed = Some(e);
                    false
                }
            }
        })?;
        failed.map_or(Ok(()), Err)
    }

    /// Sets `key` to `value` in `txn`.
    pub(super) fn put(&self, txn: &mut Txn, key: &[u8], value: &[u8]) -> Result<()> {
        debug_assert!(
            value.first() != Some(&MARK),
            "a whole value never starts with the marker"
        );
        let old_parts = self.parts_of(key)?;
        if key.len() + value.len() <= self.tree.max_entry_len() {
            txn.put(&self.tree, key, value)?;
            return self.remove_parts(txn, key, 0, old_parts);
        }
        let part_len = self.tree.max_entry_len() - (key.len() + 5);
        let mut parts = 0u32;
        for chunk in value.chunks(part_len) {
            txn.put(&self.tree, &part_key(key, parts), chunk)?;
            parts += 1;
        }
        self.remove_parts(txn, key, parts, old_parts)?;
        let len = u32::try_from(value.len())
            .map_err(|_| Error::Invalid("catalog entry longer than 4 GB".into()))?;
        let header = Header {
            parts,
            len,
            checksum: checksum(value),
        };
        txn.put(&self.tree, key, &header.encode())?;
        Ok(())
    }

    /// Removes `key` (and its parts) in `txn`.
    pub(super) fn remove(&self, txn: &mut Txn, key: &[u8]) -> Result<()> {
        let old_parts = self.parts_of(key)?;
        txn.remove(&self.tree, key)?;
        self.remove_parts(txn, key, 0, old_parts)
    }

    /// How many parts `key`'s value has now (0 when it is stored whole).
    fn parts_of(&self, key: &[u8]) -> Result<u32> {
        Ok(self
            .tree
            .get(key)?
            .and_then(|v| Header::parse(&v))
            .map_or(0, |h| h.parts))
    }

    fn remove_parts(&self, txn: &mut Txn, key: &[u8], from: u32, to: u32) -> Result<()> {
        for part in from..to {
            txn.remove(&self.tree, &part_key(key, part))?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn headers_round_trip_and_whole_values_are_not_headers() {
        let h = Header {
            parts: 3,
            len: 9000,
            checksum: checksum(b"abc"),
        };
        let parsed = Header::parse(&h.encode()).expect("a header");
        assert_eq!(
            (parsed.parts, parsed.len, parsed.checksum),
            (3, 9000, h.checksum)
        );
        assert!(Header::parse(br#"{"name":"t","columns":[]}"#).is_none());
        assert!(Header::parse(b"db\0utf8mb4_bin").is_none());
    }

    #[test]
    fn part_keys_sort_in_part_order_outside_the_other_prefixes() {
        let key = b"Tdb\0t";
        assert!(part_key(key, 1) < part_key(key, 2));
        assert!(part_key(key, 255) < part_key(key, 256));
        assert_eq!(part_key(key, 0)[0], b'C');
    }
}
