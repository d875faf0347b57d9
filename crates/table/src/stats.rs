//! Index statistics: how many distinct values each leading prefix of an
//! index's columns takes (InnoDB's `n_diff`), for the planner's join
//! fan-out and SHOW INDEX's Cardinality.
//!
//! ANALYZE TABLE counts them exactly over the entries a read view sees.
//! Otherwise they are estimated at first need from a sample of the tree
//! (runs of adjacent keys read at its split points, delete marks passed
//! over: the share of adjacent pairs whose prefixes differ, times the
//! entries; the whole tree when it is small), and estimated again once
//! the tree's size has moved by more than a quarter since they were taken.
//! Reading statistics loads words only; taking them stores a few words, once
//! per size change (never per row).
use crate::error::Result;
use crate::key::{skip_value, KeyColumn};
use crate::key_range::KeyRange;
use crate::tree_scan::scan_range;
use lineardb_btree::BTree;
use lineardb_sync::SharedWord;
use lineardb_txn::{ReadView, Stamp};
use std::collections::HashSet;

/// Runs read at the tree's split points when sampling.
const SAMPLE_RUNS: usize = 32;
/// Keys per sampled run.
const RUN_KEYS: usize = 128;

/// Statistics of one tree (the clustered index or a secondary index).
pub(crate) struct TreeStats {
    /// Entries the tree was estimated to hold when the counts were taken
    /// (at least 1); 0 while never taken. Written by whoever takes them.
    basis: SharedWord,
    /// `distinct[k]`: distinct values of the first k + 1 key columns.
    /// Written with `basis`.
    distinct: Vec<SharedWord>,
}

impl TreeStats {
    pub(crate) fn new(columns: usize) -> TreeStats {
        TreeStats {
            basis: SharedWord::new(0),
            distinct: (0..columns).map(|_| SharedWord::new(0)).collect(),
        }
    }

    /// Distinct values of the first `columns` key columns (1 ..= the key's
    /// columns), taken by sampling when not yet taken or stale.
    pub(crate) fn distinct(
        &self,
        tree: &BTree,
        types: &[KeyColumn],
        columns: usize,
    ) -> Result<Option<u64>> {
        if columns == 0 || columns > self.distinct.len() {
            return Ok(None);
        }
        let entries = tree.estimate_range(&[], None)?.max(1);
        let basis = self.basis.load();
        let stale = basis == 0 || entries * 4 > basis * 5 || entries * 5 < basis * 4;
        if stale {
            self.sample(tree, types, entries)?;
        }
        Ok(Some(self.distinct[columns - 1].load().max(1)))
    }

    /// Exact counts over the entries `view` sees (ANALYZE TABLE).
    pub(crate) fn count(&self, tree: &BTree, types: &[KeyColumn], view: &ReadView) -> Result<()> {
        let root = tree.root();
        let mut run = PrefixRun::new(types, self.distinct.len());
        let mut entries = 0u64;
        scan_range(tree, &KeyRange::all(), |k, v| {
            if view.resolve(root, k, v).body().is_some() {
                run.add(k);
                entries += 1;
            }
            true
        })?;
        let counts: Vec<u64> = run
            .boundaries
            .iter()
            .map(|b| if entries == 0 { 0 } else { b + 1 })
            .collect();
        let basis = tree.estimate_range(&[], None)?.max(1);
        self.publish(basis, &counts);
        Ok(())
    }

    /// Estimates from runs of keys at the tree's split points (the whole
    /// tree when it is small).
    fn sample(&self, tree: &BTree, types: &[KeyColumn], entries: u64) -> Result<()> {
        let columns = self.distinct.len();
        let mut pairs = 0u64;
        let mut boundaries = vec![0u64; columns];
        let starts = if entries as usize <= SAMPLE_RUNS * RUN_KEYS {
            vec![Vec::new()]
        } else {
            let mut s = tree.split_points(SAMPLE_RUNS)?;
            s.insert(0, Vec::new());
            s
        };
        let whole = starts.len() == 1;
        // Prefixes seen in any run: a floor for the estimate, which runs
        // inside one long stretch of a key (few distinct values) miss.
        let mut seen: Vec<HashSet<Vec<u8>>> = vec![HashSet::new(); columns];
        for start in &starts {
            let mut run = PrefixRun::new(types, columns);
            let mut c = tree.cursor(start);
            let mut read = 0usize;
            loop {
                let b = c.next_batch(RUN_KEYS)?;
                if b.is_empty() {
                    break;
                }
                for (k, v) in b.iter() {
                    read += 1;
                    if !Stamp::decode(v).0.deleted {
                        run.add(k);
                        if !whole {
                            for (set, &end) in seen.iter_mut().zip(&run.previous_ends) {
                                set.insert(k[..end].to_vec());
                            }
                        }
                    }
                }
                if !whole && read >= RUN_KEYS {
                    break;
                }
            }
            pairs += run.keys.saturating_sub(1);
            for (total, b) in boundaries.iter_mut().zip(&run.boundaries) {
                *total += b;
            }
        }
        let counts: Vec<u64> = boundaries
            .iter()
            .zip(&seen)
            .map(|(&b, seen)| {
                if whole {
                    // Every entry read: exact (but for rows deleted by
                    // transactions not yet committed).
                    b + 1
                } else if pairs == 0 {
                    (seen.len() as u64).max(1)
                } else {
                    let share = b as f64 / pairs as f64;
                    let by_share = (1.0 + share * (entries - 1) as f64).round() as u64;
                    by_share.max(seen.len() as u64)
                }
            })
            .collect();
        self.publish(entries, &counts);
        Ok(())
    }

    fn publish(&self, basis: u64, counts: &[u64]) {
        for (word, &n) in self.distinct.iter().zip(counts) {
            word.store(n);
        }
        self.basis.store(basis);
    }
}

/// Adjacent keys in key order, counting per prefix length the pairs whose
/// prefixes differ.
struct PrefixRun<'a> {
    types: &'a [KeyColumn],
    previous: Vec<u8>,
    /// End of each prefix in `previous`.
    previous_ends: Vec<usize>,
    keys: u64,
    boundaries: Vec<u64>,
}

impl<'a> PrefixRun<'a> {
    fn new(types: &'a [KeyColumn], columns: usize) -> Self {
        PrefixRun {
            types,
            previous: Vec::new(),
            previous_ends: Vec::with_capacity(columns),
            keys: 0,
            boundaries: vec![0; columns],
        }
    }

    fn add(&mut self, key: &[u8]) {
        let mut ends = Vec::with_capacity(self.boundaries.len());
        let mut pos = 0;
        for t in self.types.iter().take(self.boundaries.len()) {
            if skip_value(t, key, &mut pos).is_none() {
                pos = key.len();
            }
            ends.push(pos);
        }
        if self.keys > 0 {
            // Memcomparable keys: equal prefixes are equal bytes, and once
            // a prefix differs every longer one does.
            for (k, (&end, &previous_end)) in ends.iter().zip(&self.previous_ends).enumerate() {
                if key[..end] != self.previous[..previous_end] {
                    for b in &mut self.boundaries[k..] {
                        *b += 1;
                    }
                    break;
                }
            }
        }
        self.keys += 1;
        self.previous.clear();
        self.previous.extend_from_slice(key);
        self.previous_ends = ends;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::key::encode_value;
    use crate::types::{DataType, Value};

    fn key(a: i64, b: i64) -> Vec<u8> {
        let t = KeyColumn::new(DataType::BigInt { unsigned: false }, false);
        let mut k = Vec::new();
        encode_value(&t, &Value::Int(a), &mut k);
        encode_value(&t, &Value::Int(b), &mut k);
        k
    }

    #[test]
    fn prefix_run_counts_changes_per_prefix() {
        let t = KeyColumn::new(DataType::BigInt { unsigned: false }, false);
        let types = [t, t];
        let mut run = PrefixRun::new(&types, 2);
        for (a, b) in [(1, 1), (1, 2), (1, 2), (2, 1), (3, 1), (3, 1)] {
            run.add(&key(a, b));
        }
        // a: 1,1,1,2,3,3 → 2 changes; (a, b): 4 changes.
        assert_eq!(run.keys, 6);
        assert_eq!(run.boundaries, vec![2, 3]);
    }
}
