//! The checkpoint record: where recovery starts reading the log, and the
//! allocation state and transaction ids it starts from.
use crate::record::Lsn;
use lineardb_buffer::PageId;

/// What a checkpoint record holds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Checkpoint {
    pub redo_from: Lsn,
    pub undo_from: Lsn,
    pub page_count: u64,
    pub next_txn: u64,
    pub free: Vec<PageId>,
}

impl Checkpoint {
    pub(crate) fn encode(&self) -> Vec<u8> {
        let mut b = Vec::with_capacity(40 + self.free.len() * 8);
        for v in [
            self.redo_from,
            self.undo_from,
            self.page_count,
            self.next_txn,
            self.free.len() as u64,
        ] {
            b.extend_from_slice(&v.to_le_bytes());
        }
        for p in &self.free {
            b.extend_from_slice(&p.to_le_bytes());
        }
        b
    }

    pub(crate) fn decode(b: &[u8]) -> Option<Checkpoint> {
        let word = |i: usize| -> Option<u64> {
            Some(u64::from_le_bytes(
                b.get(i * 8..i * 8 + 8)?.try_into().ok()?,
            ))
        };
        let n = word(4)? as usize;
        if b.len() != 40 + n.checked_mul(8)? {
            return None;
        }
        Some(Checkpoint {
            redo_from: word(0)?,
            undo_from: word(1)?,
            page_count: word(2)?,
            next_txn: word(3)?,
            free: (0..n).map(|i| word(5 + i)).collect::<Option<_>>()?,
        })
    }
}
