//! Record framing.
//!
//! ```text
//! 0   u32 payload length
//! 4   u32 crc32 of (end LSN, kind, payload)
//! 8   u8  kind (the caller's)
//! 9   payload
//! ```
//! The checksum covers the record's own end LSN, so bytes of an older log
//! that happen to sit at the same offset never validate as a record here.

/// A position in the log: bytes written since the log was created, plus the
/// header. Record LSNs are the positions just past them.
pub type Lsn = u64;

pub(crate) const HEADER: usize = 9;

/// Record kinds: a `btree` redo record (page changes and the undo
/// information of transactional ones), the end of a transaction (its id),
/// a checkpoint (see `checkpoint.rs`).
pub(crate) const REDO: u8 = 1;
pub(crate) const COMMIT: u8 = 2;
pub(crate) const ABORT: u8 = 3;
pub(crate) const CHECKPOINT: u8 = 4;

/// Largest payload of one record.
pub const MAX_RECORD: usize = 16 << 20;

/// One record read back from the log.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Record {
    /// The LSN just past the record.
    pub lsn: Lsn,
    pub kind: u8,
    pub payload: Vec<u8>,
}

fn checksum(end: Lsn, kind: u8, payload: &[u8]) -> u32 {
    let mut h = crc32fast::Hasher::new();
    h.update(&end.to_le_bytes());
    h.update(&[kind]);
    h.update(payload);
    h.finalize()
}

/// Appends the framed record that starts at `start` to `out`; returns its
/// end LSN.
pub(crate) fn encode(start: Lsn, kind: u8, payload: &[u8], out: &mut Vec<u8>) -> Lsn {
    let end = start + (HEADER + payload.len()) as Lsn;
    out.extend_from_slice(&(payload.len() as u32).to_le_bytes());
    out.extend_from_slice(&checksum(end, kind, payload).to_le_bytes());
    out.push(kind);
    out.extend_from_slice(payload);
    end
}

/// What `bytes` (which start at LSN `start`) begin with.
pub(crate) enum Decoded {
    Record(Record),
    /// Not enough bytes for a whole record (a torn tail, or read more).
    Short {
        need: usize,
    },
    /// Bytes that are not a record of this log (a torn or stale tail).
    Invalid,
}

pub(crate) fn decode(start: Lsn, bytes: &[u8]) -> Decoded {
    if bytes.len() < HEADER {
        return Decoded::Short { need: HEADER };
    }
    let len = u32::from_le_bytes(bytes[0..4].try_into().expect("4 bytes")) as usize;
    if len > MAX_RECORD {
        return Decoded::Invalid;
    }
    if bytes.len() < HEADER + len {
        return Decoded::Short { need: HEADER + len };
    }
    let crc = u32::from_le_bytes(bytes[4..8].try_into().expect("4 bytes"));
    let kind = bytes[8];
    let payload = &bytes[HEADER..HEADER + len];
    let end = start + (HEADER + len) as Lsn;
    if checksum(end, kind, payload) != crc {
        return Decoded::Invalid;
    }
    Decoded::Record(Record {
        lsn: end,
        kind,
        payload: payload.to_vec(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn records_round_trip_and_damage_is_seen() {
        let mut buf = Vec::new();
        let a = encode(100, 7, b"hello", &mut buf);
        let b = encode(a, 8, b"", &mut buf);
        assert_eq!(a, 100 + 9 + 5);
        assert_eq!(b, a + 9);
        let Decoded::Record(r) = decode(100, &buf) else {
            panic!()
        };
        assert_eq!((r.lsn, r.kind, r.payload.as_slice()), (a, 7, &b"hello"[..]));
        let Decoded::Record(r) = decode(a, &buf[(a - 100) as usize..]) else {
            panic!()
        };
        assert_eq!((r.lsn, r.kind), (b, 8));
        // The same bytes at another position are not a record.
        assert!(matches!(decode(101, &buf), Decoded::Invalid));
        for cut in 0..14 {
            assert!(
                matches!(decode(100, &buf[..cut]), Decoded::Short { .. }),
                "{cut}"
            );
        }
        let mut bad = buf.clone();
        bad[12] ^= 1;
        assert!(matches!(decode(100, &bad), Decoded::Invalid));
    }
}
