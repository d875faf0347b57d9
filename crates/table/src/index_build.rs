//! Parallel index build (seed 003): one parallel scan of the clustered
//! index feeds every new index at once; each worker keeps, per index, a run
//! of encoded keys in its own memory and sorts it; the runs are merged and
//! bulk-loaded bottom-up. Workers share nothing per row: the work queue is
//! written once per key range, and progress is published once per range.
use crate::error::Result;
use crate::key::{encode_row_column, KeyColumn};
use crate::key_range::KeyRange;
use crate::parallel::{run_pieces, split_range, PIECES_PER_THREAD};
use crate::schema::IndexDef;
use crate::table::Table;
use lineardb_btree::BTree;
use lineardb_sync::SharedWord;
use lineardb_txn::Stamp;
use std::time::Instant;

/// Timings of a build.
#[derive(Debug, Clone, Copy, Default)]
pub struct BuildStats {
    pub rows: u64,
    /// Scan, key extraction and run sorting (parallel).
    pub scan_sort_seconds: f64,
    /// Merge of the runs and bulk load (one index per worker).
    pub merge_load_seconds: f64,
}

/// Keys of one index collected by one worker.
#[derive(Default)]
struct Run {
    data: Vec<u8>,
    /// (first 16 bytes big-endian, offset, length); sorted by key.
    keys: Vec<(u128, u32, u32)>,
}

impl Run {
    /// Position of the first key `>= key`.
    fn lower_bound(&self, key: &[u8]) -> usize {
        let (mut lo, mut hi) = (0, self.keys.len());
        while lo < hi {
            let mid = (lo + hi) / 2;
            if self.key(mid) < key {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        lo
    }

    fn push(&mut self, start: usize) {
        let len = self.data.len() - start;
        let mut p = [0u8; 16];
        let n = len.min(16);
        p[..n].copy_from_slice(&self.data[start..start + n]);
        self.keys
            .push((u128::from_be_bytes(p), start as u32, len as u32));
    }

    fn key(&self, i: usize) -> &[u8] {
        let (_, off, len) = self.keys[i];
        &self.data[off as usize..(off + len) as usize]
    }

    fn sort(&mut self) {
        let data = &self.data;
        // Equal prefixes of keys that both fit in 16 bytes: the shorter is a
        // prefix of the longer (zero padding), so it sorts first.
        self.keys.sort_unstable_by(|a, b| {
            a.0.cmp(&b.0).then_with(|| {
                if a.2 <= 16 && b.2 <= 16 {
                    return a.2.cmp(&b.2);
                }
                data[a.1 as usize..(a.1 + a.2) as usize]
                    .cmp(&data[b.1 as usize..(b.1 + b.2) as usize])
            })
        });
    }
}

/// A key out of a run: short keys (<= 16 bytes) are rebuilt from the
/// sorted prefix, so merging them never touches the run's data buffer
/// (which, in sorted order, would be a cache miss per key).
pub(crate) enum KeyBytes<'a> {
    Inline([u8; 16], u8),
    Slice(&'a [u8]),
}

impl AsRef<[u8]> for KeyBytes<'_> {
    fn as_ref(&self) -> &[u8] {
        match self {
            KeyBytes::Inline(b, n) => &b[..*n as usize],
            KeyBytes::Slice(s) => s,
        }
    }
}

/// Merges sorted runs (each between `pos` and `end`) into one sorted stream.
struct Merge<'a> {
    runs: &'a [Run],
    pos: Vec<usize>,
    end: Vec<usize>,
}

impl<'a> Iterator for Merge<'a> {
    type Item = (KeyBytes<'a>, [u8; 1]);

    fn next(&mut self) -> Option<Self::Item> {
        let mut best: Option<usize> = None;
        for r in 0..self.runs.len() {
            if self.pos[r] >= self.end[r] {
                continue;
            }
            best = match best {
                None => Some(r),
                Some(b) => {
                    let (x, y) = (
                        &self.runs[r].keys[self.pos[r]],
                        &self.runs[b].keys[self.pos[b]],
                    );
                    let less = x.0 < y.0
                        || (x.0 == y.0
                            && self.runs[r].key(self.pos[r]) < self.runs[b].key(self.pos[b]));
                    Some(if less { r } else { b })
                }
            };
        }
        let b = best?;
        let run = &self.runs[b];
        let (prefix, _, len) = run.keys[self.pos[b]];
        let k = if len <= 16 {
            KeyBytes::Inline(prefix.to_be_bytes(), len as u8)
        } else {
            KeyBytes::Slice(run.key(self.pos[b]))
        };
        self.pos[b] += 1;
        // Stamp of transaction 0, live: visible to every snapshot.
        Some((k, [0]))
    }
}

/// About `parts - 1` distinct, ascending keys that cut the union of `runs`
/// into parts of similar size (sampled at even positions of each run).
fn choose_splitters(runs: &[Run], parts: usize) -> Vec<Vec<u8>> {
    if parts <= 1 {
        return Vec::new();
    }
    let mut sample: Vec<&[u8]> = Vec::new();
    for r in runs {
        let n = r.keys.len();
        for j in 1..parts {
            if n > 0 {
                sample.push(r.key(n * j / parts));
            }
        }
    }
    sample.sort_unstable();
    sample.dedup();
    let mut out: Vec<Vec<u8>> = Vec::new();
    for j in 1..parts {
        if let Some(k) = sample.get(sample.len() * j / parts) {
            if out.last().is_none_or(|l| l.as_slice() < *k) {
                out.push(k.to_vec());
            }
        }
    }
    out
}

/// Builds the indexes `defs` (their trees, rooted at `def.root`, empty) of
/// `table` with `threads` workers. `progress` receives rows scanned so far,
/// once per key range.
pub fn build_indexes(
    table: &Table,
    defs: &[IndexDef],
    threads: usize,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<BuildStats> {
    let t0 = Instant::now();
    let pool = table.primary.pool().clone();
    let types: Vec<Vec<KeyColumn>> = defs
        .iter()
        .map(|d| {
            d.columns
                .iter()
                .map(|&c| crate::table::key_column(&table.def, c))
                .collect()
        })
        .collect();
    let pieces = split_range(
        &table.primary,
        &KeyRange::all(),
        threads.max(1) * PIECES_PER_THREAD,
    )?;
    // Rows scanned: written once per piece.
    let scanned = SharedWord::new(0);
    let mut per_worker: Vec<(Vec<Run>, u64)> = run_pieces(
        &pieces,
        threads,
        || {
            (
                (0..defs.len()).map(|_| Run::default()).collect::<Vec<_>>(),
                0u64,
            )
        },
        |(runs, rows), piece| {
            let mut n = 0u64;
            // An indexed column may hold values kept off-page from before.
            let view = lineardb_txn::ReadView::latest();
            let blobs = table.blob_reader(&view);
            crate::tree_scan::scan_range(&table.primary, piece, |pk, v| {
                // The latest row; delete marks have no entries.
                let (stamp, at) = Stamp::decode(v);
                if stamp.deleted {
                    return true;
                }
                let row = table.layout.row_with(&v[at..], blobs.as_ref());
                for (i, def) in defs.iter().enumerate() {
                    let run = &mut runs[i];
                    let start = run.data.len();
                    for (t, &col) in types[i].iter().zip(&def.columns) {
                        encode_row_column(t, &row, col, &mut run.data);
                    }
                    run.data.extend_from_slice(pk);
                    run.push(start);
                }
                n += 1;
                true
            })?;
            if let Some(b) = &blobs {
                b.check()?;
            }
            *rows += n;
            progress(scanned.fetch_add(n) + n);
            Ok(())
        },
    )?;
    // Sort each worker's runs, in parallel (one worker's runs per thread).
    std::thread::scope(|s| {
        for (runs, _) in per_worker.iter_mut() {
            s.spawn(move || runs.iter_mut().for_each(Run::sort));
        }
    });
    let rows: u64 = per_worker.iter().map(|(_, n)| n).sum();
    let scan_sort_seconds = t0.elapsed().as_secs_f64();
    let t1 = Instant::now();
    // Regroup: runs of index i from every worker.
    let mut by_index: Vec<Vec<Run>> = (0..defs.len()).map(|_| Vec::new()).collect();
    for (runs, _) in per_worker.drain(..) {
        for (i, r) in runs.into_iter().enumerate() {
            by_index[i].push(r);
        }
    }
    // Each index is cut into parts at splitter keys sampled from the runs;
    // the parts' leaves are built by all workers at once, so the load
    // phase scales with threads whatever the number of indexes.
    let parts_per_index = if threads <= 1 { 1 } else { threads * 4 };
    for (i, runs) in by_index.iter().enumerate() {
        let splitters = choose_splitters(runs, parts_per_index);
        let mut bounds: Vec<Vec<usize>> = vec![vec![0; runs.len()]];
        for sp in &splitters {
            bounds.push(runs.iter().map(|r| r.lower_bound(sp)).collect());
        }
        bounds.push(runs.iter().map(|r| r.keys.len()).collect());
        let parts: Vec<Merge<'_>> = bounds
            .windows(2)
            .map(|w| Merge {
                runs,
                pos: w[0].clone(),
                end: w[1].clone(),
            })
            .collect();
        let tree = BTree::open(pool.clone(), defs[i].root);
        tree.bulk_load_parts(parts, &splitters, threads)?;
    }
    Ok(BuildStats {
        rows,
        scan_sort_seconds,
        merge_load_seconds: t1.elapsed().as_secs_f64(),
    })
}
