//! Running the subqueries of expressions: each with the statement's
//! snapshot and limits, its rows kept for the rest of the execution (an
//! uncorrelated one runs once; a correlated one once per distinct outer
//! values, up to a bound on what is kept).
use super::RunContext;
use crate::error::{Result, SqlError};
use crate::expr::row_key::{row_key, KeyHasher};
use crate::expr::subquery::{Subquery, SubqueryRows, SubqueryRunner};
use crate::planner::plan::QueryPlan;
use crate::result::{Column, RowSink};
use lineardb_sync::Mutex;
use lineardb_table::{Collation, Value};
use std::collections::HashMap;
use std::sync::{Arc, OnceLock};

/// Results kept per (subquery, parameters) for one execution.
#[derive(Default)]
pub(crate) struct SubqueryCache {
    /// An uncorrelated subquery's rows by its id, set once: read per row
    /// without a lock (or any write). Made when a subquery first runs, so
    /// that a statement without one pays nothing for it.
    uncorrelated: OnceLock<Box<[OnceLock<SharedRows>; UNCORRELATED_SLOTS]>>,
    // A statement's own structure, touched only by the threads running
    // that statement (and only for correlated subqueries, or more
    // uncorrelated ones than there are slots).
    results: Mutex<CacheState>,
}

/// Uncorrelated subqueries (by id, from 1) kept in lock-free slots.
const UNCORRELATED_SLOTS: usize = 16;

impl SubqueryCache {
    fn slot(&self, sub: &Subquery) -> Option<&OnceLock<SharedRows>> {
        if sub.correlated {
            return None;
        }
        let slots = self.uncorrelated.get_or_init(Default::default);
        slots.get(sub.id)
    }
}

/// A subquery's rows, shared by the evaluations that asked for them.
type SharedRows = Arc<SubqueryRows>;

#[derive(Default)]
struct CacheState {
    /// By (subquery id, encoded parameters).
    rows: HashMap<(usize, Vec<u8>), SharedRows, KeyHasher>,
    /// About the memory the kept rows take.
    bytes: usize,
}

/// Kept results of correlated subqueries stop growing past this share of
/// the query's memory (further runs are not kept).
const CACHE_SHARE: usize = 4;

/// Marks the end [`Rows`] wants after its first row.
const ENOUGH: u16 = 0;

/// Keeps rows; stops after the first when one is enough.
struct Rows {
    rows: Vec<Vec<Value>>,
    first_only: bool,
}

impl RowSink for Rows {
    fn columns(&mut self, _: &[Column]) -> Result<()> {
        Ok(())
    }
    fn row(&mut self, row: &[Value]) -> Result<()> {
        self.rows.push(row.to_vec());
        if self.first_only {
            return Err(SqlError::new(ENOUGH, "00000", "enough rows"));
        }
        Ok(())
    }
}

impl SubqueryRunner for RunContext<'_> {
    fn kept(&self, sub: &Subquery) -> Option<SharedRows> {
        self.kept_for(sub, &(sub.id, Vec::new()))
    }

    fn rows(&self, sub: &Subquery, params: &[Value]) -> Result<SharedRows> {
        let key = (
            sub.id,
            if sub.correlated {
                // The parameters before the row, and the row's columns it
                // reads: the same for every row that gives it the same
                // answer.
                let before = params.iter().take(sub.base).cloned();
                let read = sub
                    .row_refs
                    .iter()
                    .map(|&c| params.get(sub.base + c).cloned().unwrap_or(Value::Null));
                // Parameters as they are: byte-equal strings only.
                let values: Vec<Value> = before.chain(read).collect();
                row_key(&values, &vec![Collation::Binary; values.len()])
            } else {
                Vec::new()
            },
        );
        if let Some(hit) = self.kept_for(sub, &key) {
            return Ok(hit);
        }
        let plan = sub
            .plan
            .as_any()
            .downcast_ref::<QueryPlan>()
            .ok_or_else(|| SqlError::internal("subquery without a plan"))?;
        let mut sink = Rows {
            rows: Vec::new(),
            first_only: sub.first_row_only,
        };
        // All of a subquery's rows are kept (unless one is enough).
        let cx = RunContext {
            rows_kept: !sub.first_row_only,
            ..*self
        };
        match plan.run(params, &cx, &mut sink) {
            Ok(()) => {}
            Err(e) if e.code == ENOUGH => {}
            Err(e) => return Err(e),
        }
        let rows = Arc::new(SubqueryRows::new(sink.rows));
        if let Some(slot) = self.subqueries.and_then(|c| c.slot(sub)) {
            // Another thread of the statement may have set it meanwhile:
            // the same rows either way.
            let _ = slot.set(rows.clone());
        } else if let Some(cache) = self.subqueries {
            let bytes: usize = rows
                .rows
                .iter()
                .flatten()
                .map(super::memory::value_bytes)
                .sum::<usize>()
                + key.1.len()
                + 64;
            let mut state = cache.results.lock();
            if !sub.correlated || state.bytes + bytes <= self.memory / CACHE_SHARE {
                state.bytes += bytes;
                state.rows.insert(key, rows.clone());
            }
        }
        Ok(rows)
    }
}

impl RunContext<'_> {
    /// The kept rows of `sub` for `key`, if any.
    fn kept_for(&self, sub: &Subquery, key: &(usize, Vec<u8>)) -> Option<SharedRows> {
        let cache = self.subqueries?;
        if let Some(slot) = cache.slot(sub) {
            return slot.get().cloned();
        }
        cache.results.lock().rows.get(key).cloned()
    }
}

/// Runs the uncorrelated subqueries in `exprs` now, so that threads about
/// to evaluate them find their rows kept rather than each running them.
pub(crate) fn run_uncorrelated<'e>(
    exprs: impl Iterator<Item = &'e crate::expr::Expr>,
    params: &[Value],
    cx: &RunContext<'_>,
) -> Result<()> {
    let mut subs = Vec::new();
    exprs.for_each(|e| e.subqueries(&mut subs));
    for sub in subs.into_iter().filter(|s| !s.correlated) {
        // The block's parameters, as an evaluation would pass them.
        let mut p: Vec<Value> = params.iter().take(sub.base).cloned().collect();
        p.resize(sub.base, Value::Null);
        cx.rows(sub, &p)?;
    }
    Ok(())
}
