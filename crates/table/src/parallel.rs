//! Parallel work over key ranges (DESIGN.md invariants 4 and 5).
//!
//! A key range is cut into many more pieces than threads, at separator keys
//! taken from the tree's upper levels. Workers take pieces from a shared
//! queue — one shared write per piece, never per row — so an idle worker
//! simply takes the next piece (work stealing without per-row traffic). Each
//! worker reads its pages itself: a page not in memory is read by the worker
//! that needs it, with the kernel reading ahead for it; no I/O is handed to
//! another thread to wait on.
use crate::error::{Error, Result};
use crate::key_range::KeyRange;
use lineardb_btree::BTree;
use lineardb_sync::{Mutex, SharedWord};
use lineardb_txn::ReadView;

/// Pieces per thread a range is cut into (more pieces, better balance).
pub const PIECES_PER_THREAD: usize = 16;

/// Cuts `range` of `tree` into about `parts` pieces, in key order.
pub(crate) fn split_range(tree: &BTree, range: &KeyRange, parts: usize) -> Result<Vec<KeyRange>> {
    let points = tree.split_points(parts.max(1))?;
    let mut pieces = Vec::new();
    let mut start = range.start.clone();
    for p in points {
        if p <= start || !range.contains_upper(&p) {
            continue;
        }
        pieces.push(KeyRange {
            start: std::mem::replace(&mut start, p.clone()),
            end: Some(p),
        });
    }
    pieces.push(KeyRange {
        start,
        end: range.end.clone(),
    });
    Ok(pieces)
}

/// Runs `work(state, piece)` over `pieces` on `threads` workers, each with
/// its own `state` from `init()`; returns the states. The first error stops
/// the others at their next piece.
pub fn run_pieces<S: Send, P: Sync>(
    pieces: &[P],
    threads: usize,
    init: impl Fn() -> S + Sync,
    work: impl Fn(&mut S, &P) -> Result<()> + Sync,
) -> Result<Vec<S>> {
    // The queue head: written once per piece by the worker taking it.
    let next = SharedWord::new(0);
    let failed: Mutex<Option<Error>> = Mutex::new(None);
    let states = std::thread::scope(|s| {
        let handles: Vec<_> = (0..threads.max(1))
            .map(|_| {
                s.spawn(|| {
                    let mut state = init();
                    loop {
                        let i = next.fetch_add(1) as usize;
                        if i >= pieces.len() {
                            break;
                        }
                        if let Err(e) = work(&mut state, &pieces[i]) {
                            next.store(u64::MAX / 2);
                            failed.lock().get_or_insert(e);
                            break;
                        }
                    }
                    state
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("worker panicked"))
            .collect::<Vec<_>>()
    });
    match failed.into_inner() {
        Some(e) => Err(e),
        None => Ok(states),
    }
}

/// Counts the records of `tree` (a table's tree: stamped values) in
/// `range` that `view` sees, with `threads` workers.
pub(crate) fn count_visible(
    tree: &BTree,
    view: &ReadView,
    range: &KeyRange,
    threads: usize,
) -> Result<u64> {
    let root = tree.root();
    let counts = scan(
        tree,
        range,
        threads,
        || 0u64,
        |n, k, v| *n += view.resolve(root, k, v).body().is_some() as u64,
    )?;
    Ok(counts.into_iter().sum())
}

/// Calls `f(state, key, value)` for every entry of `tree` in `range`, on
/// `threads` workers with their own states (returned). Order across
/// pieces is not defined; within a piece it is key order.
pub(crate) fn scan<S: Send>(
    tree: &BTree,
    range: &KeyRange,
    threads: usize,
    init: impl Fn() -> S + Sync,
    f: impl Fn(&mut S, &[u8], &[u8]) + Sync,
) -> Result<Vec<S>> {
    let pieces = split_range(tree, range, threads.max(1) * PIECES_PER_THREAD)?;
    run_pieces(&pieces, threads, init, |state, piece| {
        crate::tree_scan::scan_range(tree, piece, |k, v| {
            f(state, k, v);
            true
        })
    })
}
