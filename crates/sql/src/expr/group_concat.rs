//! GROUP_CONCAT: per group, the text of each row's arguments (rows with a
//! NULL argument left out), DISTINCT by value, ordered by the call's own
//! ORDER BY (a stable sort: ties keep the order rows came in), LIMIT
//! [offset,] count of them, joined by the SEPARATOR (',' by default), and
//! cut at `group_concat_max_len` bytes (on a character's boundary) with
//! warning 1260, as in MariaDB. Without ORDER BY a group keeps no more rows than its result can
//! show.
use super::row_key::{encode_row_in, KeySet};
use super::{sort_order, KeyOrder, Result};
use lineardb_table::{Collation, Value};
use std::cell::{Cell, RefCell};

thread_local! {
    /// Rows of the statement's GROUP_CONCAT groups finished so far (where
    /// the next group's rows are numbered from).
    static ROWS_BEFORE: Cell<u64> = const { Cell::new(0) };
    /// The rows at which a result was cut since the last [`take_cut_rows`].
    static CUT_ROWS: RefCell<Vec<u64>> = const { RefCell::new(Vec::new()) };
}

/// The rows (numbered through the statement) whose GROUP_CONCAT results
/// were cut since the last call; starts the numbering again.
pub(crate) fn take_cut_rows() -> Vec<u64> {
    ROWS_BEFORE.with(|r| r.set(0));
    CUT_ROWS.with(|c| std::mem::take(&mut *c.borrow_mut()))
}

/// What bounds a GROUP_CONCAT result.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Bounds {
    /// `group_concat_max_len`: the most bytes of a result.
    pub max_len: u64,
    /// LIMIT: rows skipped, then the most rows joined.
    pub offset: u64,
    pub count: u64,
}

impl Default for Bounds {
    fn default() -> Bounds {
        Bounds {
            max_len: 1_048_576,
            offset: 0,
            count: u64::MAX,
        }
    }
}

#[derive(Debug, Clone)]
pub(crate) struct GroupConcat {
    /// Each kept row: its ORDER BY keys and its text.
    items: Vec<(Vec<Value>, Vec<u8>)>,
    /// DISTINCT: the argument rows seen, and the collation they compare in.
    seen: Option<(KeySet, Collation)>,
    /// Descending flags of the ORDER BY keys.
    descending: Vec<KeyOrder>,
    separator: Vec<u8>,
    bounds: Bounds,
    /// Rows added (kept or not).
    rows: u64,
    /// Bytes of the kept rows' texts and separators.
    bytes: u64,
}

impl GroupConcat {
    /// `distinct`: DISTINCT, strings equal in this collation once.
    pub(crate) fn new(
        distinct: Option<Collation>,
        descending: Vec<KeyOrder>,
        separator: Vec<u8>,
        bounds: Bounds,
    ) -> GroupConcat {
        GroupConcat {
            items: Vec::new(),
            seen: distinct.map(|c| (KeySet::default(), c)),
            descending,
            separator,
            bounds,
            rows: 0,
            bytes: 0,
        }
    }

    /// Adds one row's arguments and ORDER BY keys.
    pub(crate) fn add(&mut self, args: &[Value], keys: Vec<Value>) -> Result<()> {
        if args.iter().any(Value::is_null) {
            return Ok(());
        }
        if let Some((seen, collation)) = &mut self.seen {
            let mut key = Vec::new();
            encode_row_in(args, *collation, &mut key);
            if !seen.insert(key) {
                return Ok(());
            }
        }
        self.rows += 1;
        let unordered = self.descending.is_empty();
        let kept = self.items.len() as u64;
        // Unordered, a row past LIMIT or past the most bytes shows
        // nothing (the first row past the length is kept: it is cut).
        if unordered
            && (kept >= self.bounds.offset.saturating_add(self.bounds.count)
                || self.bytes > self.bounds.max_len)
        {
            return Ok(());
        }
        let mut text = Vec::new();
        for v in args {
            match v {
                Value::Bytes(b) => text.extend_from_slice(b),
                other => text.extend_from_slice(other.to_text().unwrap_or_default().as_bytes()),
            }
        }
        if unordered && kept >= self.bounds.offset {
            self.bytes += text.len() as u64;
            if kept > self.bounds.offset {
                self.bytes += self.separator.len() as u64;
            }
        }
        self.items.push((keys, text));
        Ok(())
    }

    /// The joined text; NULL when no row counted.
    pub(crate) fn finish(&self) -> Value {
        let before = ROWS_BEFORE.with(|r| r.replace(r.get() + self.rows));
        let mut order: Vec<&(Vec<Value>, Vec<u8>)> = self.items.iter().collect();
        if !self.descending.is_empty() {
            order.sort_by(|a, b| sort_order(&a.0, &b.0, &self.descending));
        }
        let shown = order
            .into_iter()
            .enumerate()
            .skip(self.bounds.offset.min(usize::MAX as u64) as usize)
            .take(self.bounds.count.min(usize::MAX as u64) as usize);
        if self.items.is_empty() {
            return Value::Null;
        }
        // Rows all past LIMIT join to ''.
        let mut out = Vec::new();
        for (n, (i, (_, text))) in shown.enumerate() {
            if n > 0 {
                out.extend_from_slice(&self.separator);
            }
            out.extend_from_slice(text);
            if out.len() as u64 > self.bounds.max_len {
                // The last character's start at or before the limit.
                let mut end = self.bounds.max_len as usize;
                while end > 0 && (out[end] & 0xC0) == 0x80 {
                    end -= 1;
                }
                out.truncate(end);
                CUT_ROWS.with(|c| c.borrow_mut().push(before + i as u64 + 1));
                break;
            }
        }
        Value::Bytes(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn joins_in_order_skips_nulls_and_duplicates() {
        let mut g = GroupConcat::new(
            Some(Collation::default()),
            vec![KeyOrder::bytes(true)],
            b"|".to_vec(),
            Bounds::default(),
        );
        for (v, k) in [(1, 5), (2, 7), (1, 9), (3, 6)] {
            g.add(&[Value::Int(v)], vec![Value::Int(k)]).unwrap();
        }
        g.add(&[Value::Null], vec![Value::Int(1)]).unwrap();
        // 1 (again) is left out; by key descending: 2 (7), 3 (6), 1 (5).
        assert_eq!(g.finish(), Value::Bytes(b"2|3|1".to_vec()));
        assert_eq!(
            GroupConcat::new(None, vec![], b",".to_vec(), Bounds::default()).finish(),
            Value::Null
        );
    }

    #[test]
    fn cuts_at_the_most_characters_and_limits_rows() {
        take_cut_rows();
        let bounds = Bounds {
            max_len: 5,
            ..Bounds::default()
        };
        let mut g = GroupConcat::new(None, vec![], b",".to_vec(), bounds.clone());
        for s in ["aaa", "bbb", "ccc"] {
            g.add(&[Value::str(s)], Vec::new()).unwrap();
        }
        assert_eq!(g.finish(), Value::str("aaa,b"));
        assert_eq!(take_cut_rows(), vec![2]);
        // Bytes, cut where a character starts.
        let mut g = GroupConcat::new(None, vec![], b",".to_vec(), bounds);
        g.add(&[Value::str("ééé")], Vec::new()).unwrap();
        g.add(&[Value::str("é")], Vec::new()).unwrap();
        assert_eq!(g.finish(), Value::str("éé"));
        assert_eq!(take_cut_rows(), vec![1]);
        let limited = Bounds {
            offset: 1,
            count: 2,
            ..Bounds::default()
        };
        let mut g = GroupConcat::new(None, vec![KeyOrder::bytes(false)], b",".to_vec(), limited);
        for k in [4, 1, 3, 2] {
            g.add(&[Value::Int(k)], vec![Value::Int(k)]).unwrap();
        }
        assert_eq!(g.finish(), Value::str("2,3"));
        assert!(take_cut_rows().is_empty());
    }
}
