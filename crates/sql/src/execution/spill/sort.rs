//! Sorting past the memory budget: the rows held are sorted and written
//! to a spill file as a run whenever they outgrow the budget; the runs and
//! the last rows held are merged back in order. Ties keep the order rows
//! came in (as the in-memory sort, which is stable). With a row limit
//! (ORDER BY … LIMIT) only the first rows are kept, and nothing spills
//! unless that many rows outgrow the budget.
use super::file::{SpillReader, SpillWriter};
use crate::error::Result;
use crate::execution::memory::value_bytes;
use crate::expr::{sort_order, KeyOrder};
use lineardb_table::Value;
use std::cmp::Ordering;

/// A row to sort: its sort keys, and the row.
pub(crate) type Keyed = (Vec<Value>, Vec<Value>);

/// Runs merged in one pass at most: each holds an open file and a read
/// buffer, so past this many they are merged into one first.
const MAX_RUNS: usize = 64;

/// Rows held before a limited sort cuts them back to its limit.
const KEEP_SLACK: usize = 4096;

pub(crate) struct SortBuffer {
    desc: Vec<KeyOrder>,
    held: Vec<Keyed>,
    bytes: usize,
    memory: usize,
    keep: Option<usize>,
    runs: Vec<SpillReader>,
    spilled: u64,
}

impl SortBuffer {
    /// Sorts by keys compared with `desc` (one flag per key), holding
    /// about `memory` bytes at most; `keep`: only that many first rows are
    /// wanted.
    pub(crate) fn new(desc: Vec<KeyOrder>, memory: usize, keep: Option<usize>) -> SortBuffer {
        SortBuffer {
            desc,
            held: Vec::new(),
            bytes: 0,
            memory,
            keep,
            runs: Vec::new(),
            spilled: 0,
        }
    }

    /// Rows written to spill files so far.
    pub(crate) fn spilled(&self) -> u64 {
        self.spilled
    }

    #[inline]
    pub(crate) fn push(&mut self, keys: Vec<Value>, values: Vec<Value>) -> Result<()> {
        self.bytes += row_bytes(&keys, &values);
        self.held.push((keys, values));
        if self.keep.is_none() && self.bytes <= self.memory {
            return Ok(());
        }
        self.make_room()
    }

    /// Cuts the rows held back to the limit, or spills them, as needed.
    #[inline(never)]
    fn make_room(&mut self) -> Result<()> {
        if let Some(keep) = self.keep {
            // Cut back when twice the rows wanted are held (amortized: one
            // sort per `keep` rows), or sooner when they outgrow the budget.
            let twice = self.held.len() >= keep.saturating_mul(2);
            let full = twice && (self.held.len() >= KEEP_SLACK || self.bytes > self.memory);
            if full {
                self.sort_held();
                self.held.truncate(keep);
                self.bytes = self.held.iter().map(|(k, v)| row_bytes(k, v)).sum();
            }
        }
        if self.bytes > self.memory {
            self.spill_run()?;
        }
        Ok(())
    }

    /// The rows in order, the rows spilled added to `counter`.
    pub(crate) fn finish_counted(
        self,
        counter: Option<&lineardb_sync::LocalCounter>,
    ) -> Result<Sorted> {
        if let Some(c) = counter {
            c.add(self.spilled);
        }
        self.finish()
    }

    /// The rows in order.
    pub(crate) fn finish(mut self) -> Result<Sorted> {
        self.sort_held();
        if let Some(keep) = self.keep {
            // No row past the first `keep` held can be among the first
            // `keep` of all.
            self.held.truncate(keep);
        }
        let left = self.keep.unwrap_or(usize::MAX);
        if self.runs.is_empty() {
            return Ok(Sorted {
                rows: Rows::Held(self.held.into_iter()),
                left,
            });
        }
        let mut sources: Vec<Source> = self.runs.into_iter().map(Source::Run).collect();
        sources.push(Source::Held(self.held.into_iter()));
        Ok(Sorted {
            rows: Rows::Merged(Merge::new(sources, self.desc)?),
            left,
        })
    }

    fn sort_held(&mut self) {
        let desc = &self.desc;
        self.held.sort_by(|a, b| sort_order(&a.0, &b.0, desc));
    }

    /// Writes the rows held as one sorted run.
    fn spill_run(&mut self) -> Result<()> {
        self.sort_held();
        if let Some(keep) = self.keep {
            self.held.truncate(keep);
        }
        let mut w = SpillWriter::create()?;
        let mut row = Vec::new();
        for (keys, values) in self.held.drain(..) {
            row.clear();
            row.extend(keys);
            row.extend(values);
            w.write(&row)?;
            self.spilled += 1;
        }
        self.bytes = 0;
        self.runs.push(w.finish()?);
        if self.runs.len() >= MAX_RUNS {
            // The runs came before every row held: merged into one, they
            // still do.
            let sources = self.runs.drain(..).map(Source::Run).collect();
            let mut merge = Merge::new(sources, self.desc.clone())?;
            let mut w = SpillWriter::create()?;
            while let Some((keys, values)) = merge.next_row()? {
                row.clear();
                row.extend(keys);
                row.extend(values);
                w.write(&row)?;
            }
            self.runs.push(w.finish()?);
        }
        Ok(())
    }
}

#[inline]
fn row_bytes(keys: &[Value], values: &[Value]) -> usize {
    keys.iter().chain(values).map(value_bytes).sum::<usize>()
        + 2 * std::mem::size_of::<Vec<Value>>()
}

/// Sorted rows, read once.
pub(crate) struct Sorted {
    rows: Rows,
    /// Rows still wanted (the sort's limit).
    left: usize,
}

enum Rows {
    Held(std::vec::IntoIter<Keyed>),
    Merged(Merge),
}

impl Sorted {
    #[inline]
    pub(crate) fn next_row(&mut self) -> Result<Option<Keyed>> {
        if self.left == 0 {
            return Ok(None);
        }
        self.left -= 1;
        match &mut self.rows {
            Rows::Held(rows) => Ok(rows.next()),
            Rows::Merged(m) => m.next_row(),
        }
    }
}

/// One sorted input of a merge.
enum Source {
    Run(SpillReader),
    Held(std::vec::IntoIter<Keyed>),
}

impl Source {
    fn next_row(&mut self, keys: usize) -> Result<Option<Keyed>> {
        match self {
            Source::Held(rows) => Ok(rows.next()),
            Source::Run(r) => Ok(r.next_row()?.map(|mut row| {
                let values = row.split_off(keys.min(row.len()));
                (row, values)
            })),
        }
    }
}

/// Sorted sources merged: a binary heap of the sources by their next row,
/// ties to the earlier source.
pub(crate) struct Merge {
    desc: Vec<KeyOrder>,
    sources: Vec<Source>,
    /// Each source's next row (None once it is used up).
    heads: Vec<Option<Keyed>>,
    /// Sources with a next row, as a min-heap on (head, source).
    heap: Vec<usize>,
}

impl Merge {
    fn new(mut sources: Vec<Source>, desc: Vec<KeyOrder>) -> Result<Merge> {
        let mut heads = Vec::with_capacity(sources.len());
        for s in &mut sources {
            heads.push(s.next_row(desc.len())?);
        }
        let mut m = Merge {
            desc,
            heap: (0..sources.len()).filter(|&i| heads[i].is_some()).collect(),
            sources,
            heads,
        };
        for i in (0..m.heap.len() / 2).rev() {
            m.sift_down(i);
        }
        Ok(m)
    }

    fn next_row(&mut self) -> Result<Option<Keyed>> {
        let Some(&top) = self.heap.first() else {
            return Ok(None);
        };
        let next = self.sources[top].next_row(self.desc.len())?;
        let row = std::mem::replace(&mut self.heads[top], next);
        if self.heads[top].is_none() {
            let last = self.heap.pop().expect("the heap holds top");
            if !self.heap.is_empty() {
                self.heap[0] = last;
            }
        }
        self.sift_down(0);
        Ok(row)
    }

    /// Whether source a's head comes before source b's.
    fn before(&self, a: usize, b: usize) -> bool {
        let (Some(x), Some(y)) = (&self.heads[a], &self.heads[b]) else {
            unreachable!("sources in the heap have a head")
        };
        match sort_order(&x.0, &y.0, &self.desc) {
            Ordering::Less => true,
            Ordering::Greater => false,
            Ordering::Equal => a < b,
        }
    }

    fn sift_down(&mut self, mut i: usize) {
        loop {
            let (l, r) = (2 * i + 1, 2 * i + 2);
            let mut first = i;
            if l < self.heap.len() && self.before(self.heap[l], self.heap[first]) {
                first = l;
            }
            if r < self.heap.len() && self.before(self.heap[r], self.heap[first]) {
                first = r;
            }
            if first == i {
                return;
            }
            self.heap.swap(i, first);
            i = first;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sorted_by_buffer(
        rows: &[(i64, i64)],
        memory: usize,
        keep: Option<usize>,
    ) -> (Vec<(i64, i64)>, u64) {
        let mut b = SortBuffer::new(vec![KeyOrder::BYTES], memory, keep);
        for &(k, v) in rows {
            b.push(vec![Value::Int(k)], vec![Value::Int(v)]).unwrap();
        }
        let spilled = b.spilled();
        let mut s = b.finish().unwrap();
        let mut out = Vec::new();
        while let Some((k, v)) = s.next_row().unwrap() {
            let (Value::Int(k), Value::Int(v)) = (&k[0], &v[0]) else {
                panic!("ints")
            };
            out.push((*k, *v));
        }
        (out, spilled)
    }

    /// Keys with many ties, each row numbered in arrival order.
    fn rows(n: i64) -> Vec<(i64, i64)> {
        (0..n).map(|i| ((i * 7919) % 101, i)).collect()
    }

    #[test]
    fn spilled_runs_merge_into_a_stable_sort() {
        let input = rows(20_000);
        let mut expected = input.clone();
        expected.sort_by_key(|&(k, _)| k);
        // Small enough for hundreds of runs: merged into one on the way.
        let (out, spilled) = sorted_by_buffer(&input, 4 << 10, None);
        assert!(spilled > 0);
        assert!(out == expected);
        let (out, spilled) = sorted_by_buffer(&input, 1 << 30, None);
        assert_eq!(spilled, 0);
        assert!(out == expected);
    }

    #[test]
    fn a_limit_keeps_the_first_rows_of_the_stable_sort() {
        let input = rows(50_000);
        let mut expected = input.clone();
        expected.sort_by_key(|&(k, _)| k);
        for keep in [0, 1, 10, 3000, 60_000] {
            let (out, spilled) = sorted_by_buffer(&input, 1 << 30, Some(keep));
            assert_eq!(spilled, 0);
            assert!(out == expected[..keep.min(expected.len())], "keep {keep}");
            let (out, _) = sorted_by_buffer(&input, 64 << 10, Some(keep));
            assert!(
                out == expected[..keep.min(expected.len())],
                "keep {keep}, spilling"
            );
        }
    }
}
