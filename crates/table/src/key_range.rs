//! Ranges of encoded keys, the unit every scan and every parallel piece
//! works on.
use crate::key::{encode_value, prefix_end, KeyColumn};
use crate::types::Value;
use std::ops::Bound;

/// A range of encoded keys: `[start, end)`, `end = None` for no bound.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeyRange {
    pub start: Vec<u8>,
    pub end: Option<Vec<u8>>,
}

impl KeyRange {
    pub fn all() -> KeyRange {
        KeyRange {
            start: Vec::new(),
            end: None,
        }
    }

    /// The keys whose leading columns lie between `lo` and `hi`, each a
    /// prefix of the key's columns (so `lo = [5]` on a two-column key
    /// means "first column >= 5").
    pub fn from_values(types: &[KeyColumn], lo: Bound<&[Value]>, hi: Bound<&[Value]>) -> KeyRange {
        let enc = |vals: &[Value]| {
            let mut out = Vec::new();
            for (t, v) in types.iter().zip(vals) {
                encode_value(t, v, &mut out);
            }
            out
        };
        let start = match lo {
            Bound::Unbounded => Vec::new(),
            Bound::Included(v) => enc(v),
            Bound::Excluded(v) => match prefix_end(&enc(v)) {
                Some(k) => k,
                None => {
                    return KeyRange {
                        start: vec![0xff; 16],
                        end: Some(Vec::new()),
                    }
                }
            },
        };
        let end = match hi {
            Bound::Unbounded => None,
            Bound::Included(v) => prefix_end(&enc(v)),
            Bound::Excluded(v) => Some(enc(v)),
        };
        KeyRange { start, end }
    }

    #[inline]
    pub fn contains_upper(&self, key: &[u8]) -> bool {
        self.end.as_deref().is_none_or(|e| key < e)
    }
}
