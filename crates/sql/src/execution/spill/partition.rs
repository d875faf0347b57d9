//! Rows cut into partitions by the hash of their keys, a file each: rows
//! of equal keys land in the same partition, so that a hash join past its
//! budget can join one partition at a time. A partition still too big is
//! cut again with another salt.
use super::file::{SpillReader, SpillWriter};
use crate::error::Result;
use crate::expr::row_key::KeyMap;
use lineardb_table::Value;
use std::hash::{Hash, Hasher};

/// Partitions per cut.
pub(crate) const FANOUT: usize = 32;

/// I/O buffer per partition file (`FANOUT` of them are open at once).
const BUFFER: usize = 16 << 10;

/// Rows being written to their partitions.
pub(crate) struct Partitions {
    /// Made when a row first lands in it.
    files: Vec<Option<SpillWriter>>,
    salt: u64,
}

impl Partitions {
    /// `FANOUT` empty partitions; rows are placed by their key hashed with
    /// `salt` (a partition cut again takes another).
    pub(crate) fn new(salt: u64) -> Partitions {
        Partitions {
            files: (0..FANOUT).map(|_| None).collect(),
            salt,
        }
    }

    /// Writes `values` with `key` to the key's partition.
    pub(crate) fn write(&mut self, key: &[u8], values: &[Value]) -> Result<()> {
        let file = &mut self.files[partition_of(key, self.salt)];
        if file.is_none() {
            *file = Some(SpillWriter::with_buffer(BUFFER)?);
        }
        file.as_mut().expect("made above").write_keyed(key, values)
    }

    /// Writes every row of a hash table (rows by key).
    pub(crate) fn write_table(&mut self, table: KeyMap<Vec<Vec<Value>>>) -> Result<()> {
        for (key, rows) in table {
            for row in rows {
                self.write(&key, &row)?;
            }
        }
        Ok(())
    }

    /// Rows written so far.
    pub(crate) fn rows(&self) -> u64 {
        self.files.iter().flatten().map(SpillWriter::rows).sum()
    }

    /// The partitions, to be read back (None: no row landed there).
    pub(crate) fn finish(self) -> Result<Vec<Option<SpillReader>>> {
        self.files
            .into_iter()
            .map(|f| f.map(SpillWriter::finish).transpose())
            .collect()
    }
}

/// The partition of `key` under `salt`.
fn partition_of(key: &[u8], salt: u64) -> usize {
    // Fixed keys: the same key lands in the same partition on both sides
    // of a join.
    let mut h = std::hash::DefaultHasher::new();
    salt.hash(&mut h);
    key.hash(&mut h);
    (h.finish() % FANOUT as u64) as usize
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn equal_keys_share_a_partition_and_salts_spread_them_again() {
        let mut parts = Partitions::new(0);
        for i in 0..2000i64 {
            let key = (i % 100).to_le_bytes();
            parts.write(&key, &[Value::Int(i)]).unwrap();
        }
        assert_eq!(parts.rows(), 2000);
        let mut seen = std::collections::HashMap::new();
        let mut used = 0;
        for (p, reader) in parts.finish().unwrap().into_iter().enumerate() {
            let Some(mut reader) = reader else { continue };
            used += 1;
            let mut last = -1;
            while let Some((key, row)) = reader.next_keyed().unwrap() {
                let Value::Int(i) = row[0] else { panic!() };
                assert!(i > last, "rows come back in the order written");
                last = i;
                assert_eq!(key, (i % 100).to_le_bytes());
                assert_eq!(*seen.entry(key).or_insert(p), p, "a key in two partitions");
            }
        }
        assert_eq!(seen.len(), 100);
        assert!(used > FANOUT / 2, "100 keys over {used} partitions");
        // Keys of one partition spread over several under another salt.
        let one: Vec<_> = seen.iter().filter(|(_, p)| **p == 0).collect();
        let again: std::collections::HashSet<usize> =
            one.iter().map(|(k, _)| partition_of(k, 1)).collect();
        assert!(one.len() < 2 || again.len() > 1);
    }
}
