//! GROUP_CONCAT: per group, the text of each row's arguments (rows with a
//! NULL argument left out), DISTINCT by value, ordered by the call's own
//! ORDER BY (a stable sort: ties keep the order rows came in), joined by
//! the SEPARATOR (',' by default).
use super::row_key::{encode_row, KeySet};
use super::{sort_order, Result};
use lineardb_table::Value;

#[derive(Debug, Clone)]
pub(crate) struct GroupConcat {
    /// Each kept row: its ORDER BY keys and its text.
    items: Vec<(Vec<Value>, Vec<u8>)>,
    /// DISTINCT: the argument rows seen.
    seen: Option<KeySet>,
    /// Descending flags of the ORDER BY keys.
    descending: Vec<bool>,
    separator: Vec<u8>,
}

impl GroupConcat {
    pub(crate) fn new(distinct: bool, descending: Vec<bool>, separator: Vec<u8>) -> GroupConcat {
        GroupConcat {
            items: Vec::new(),
            seen: distinct.then(KeySet::default),
            descending,
            separator,
        }
    }

    /// Adds one row's arguments and ORDER BY keys.
    pub(crate) fn add(&mut self, args: &[Value], keys: Vec<Value>) -> Result<()> {
        if args.iter().any(Value::is_null) {
            return Ok(());
        }
        if let Some(seen) = &mut self.seen {
            let mut key = Vec::new();
            encode_row(args, &mut key);
            if !seen.insert(key) {
                return Ok(());
            }
        }
        let mut text = Vec::new();
        for v in args {
            match v {
                Value::Bytes(b) => text.extend_from_slice(b),
                other => text.extend_from_slice(other.to_text().unwrap_or_default().as_bytes()),
            }
        }
        self.items.push((keys, text));
        Ok(())
    }

    /// The joined text; NULL when no row counted.
    pub(crate) fn finish(&self) -> Value {
        if self.items.is_empty() {
            return Value::Null;
        }
        let mut order: Vec<&(Vec<Value>, Vec<u8>)> = self.items.iter().collect();
        if !self.descending.is_empty() {
            order.sort_by(|a, b| sort_order(&a.0, &b.0, &self.descending));
        }
        let mut out = Vec::new();
        for (i, (_, text)) in order.into_iter().enumerate() {
            if i > 0 {
                out.extend_from_slice(&self.separator);
            }
            out.extend_from_slice(text);
        }
        Value::Bytes(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn joins_in_order_skips_nulls_and_duplicates() {
        let mut g = GroupConcat::new(true, vec![true], b"|".to_vec());
        for (v, k) in [(1, 5), (2, 7), (1, 9), (3, 6)] {
            g.add(&[Value::Int(v)], vec![Value::Int(k)]).unwrap();
        }
        g.add(&[Value::Null], vec![Value::Int(1)]).unwrap();
        // 1 (again) is left out; by key descending: 2 (7), 3 (6), 1 (5).
        assert_eq!(g.finish(), Value::Bytes(b"2|3|1".to_vec()));
        assert_eq!(
            GroupConcat::new(false, vec![], b",".to_vec()).finish(),
            Value::Null
        );
    }
}
