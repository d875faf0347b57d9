//! Running the subqueries of expressions: each with the statement's
//! snapshot and limits, its rows kept for the rest of the execution (an
//! uncorrelated one runs once; a correlated one once per distinct outer
//! values, up to a bound on what is kept).
use super::row_key::row_key;
use super::RunContext;
use crate::error::{Result, SqlError};
use crate::expr::subquery::{Subquery, SubqueryRows, SubqueryRunner};
use crate::planner::plan::QueryPlan;
use crate::result::{Column, RowSink};
use lineardb_sync::Mutex;
use lineardb_table::Value;
use std::collections::HashMap;
use std::sync::Arc;

/// Results kept per (subquery, parameters) for one execution.
#[derive(Default)]
pub(crate) struct SubqueryCache {
    // A statement's own structure, touched only by the threads running
    // that statement (and only when it has subqueries).
    results: Mutex<CacheState>,
}

/// A subquery's rows, shared by the evaluations that asked for them.
type SharedRows = Arc<SubqueryRows>;

#[derive(Default)]
struct CacheState {
    /// By (subquery id, encoded parameters).
    rows: HashMap<(usize, Vec<u8>), SharedRows>,
    /// About the memory the kept rows take.
    bytes: usize,
}

/// Kept results of correlated subqueries stop growing past this share of
/// the query's memory (further runs are not kept).
const CACHE_SHARE: usize = 4;

/// Marks the end wanted by [`FirstRow`].
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
        let cache = self.subqueries?;
        let state = cache.results.lock();
        state.rows.get(&(sub.id, Vec::new())).cloned()
    }

    fn rows(&self, sub: &Subquery, params: &[Value]) -> Result<SharedRows> {
        let key = (
            sub.id,
            if sub.correlated {
                row_key(params)
            } else {
                Vec::new()
            },
        );
        if let Some(cache) = self.subqueries {
            let state = cache.results.lock();
            if let Some(hit) = state.rows.get(&key) {
                return Ok(hit.clone());
            }
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
        match plan.run(params, self, &mut sink) {
            Ok(()) => {}
            Err(e) if e.code == ENOUGH => {}
            Err(e) => return Err(e),
        }
        let rows = Arc::new(SubqueryRows::new(sink.rows));
        if let Some(cache) = self.subqueries {
            let bytes: usize = rows
                .rows
                .iter()
                .flatten()
                .map(super::output::value_bytes)
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
