//! Running a recursive CTE: the anchors' rows, then iterations of the
//! recursive parts, each over the rows the previous one added (UNION
//! keeps a row once: an iteration adds only rows not seen before), until
//! an iteration adds none or `max_recursive_iterations` have run.
use crate::error::{Result, SqlError};
use crate::execution::memory::{over_budget, value_bytes};
use crate::execution::RunContext;
use crate::expr::row_key::{collations_of, encode_row, KeySet};
use crate::planner::plan::RecursivePlan;
use crate::result::CollectSink;
use lineardb_table::Value;

thread_local! {
    /// The `max_recursive_iterations` a recursive CTE stopped at since the
    /// last [`take_cut_short`] (the statement warns with 1931).
    static CUT_SHORT: std::cell::Cell<Option<u64>> = const { std::cell::Cell::new(None) };
}

/// The iteration limit a recursive CTE of this thread's statement met.
pub(crate) fn take_cut_short() -> Option<u64> {
    CUT_SHORT.with(|c| c.take())
}

/// The CTE's rows.
pub(super) fn run_recursive(
    plan: &RecursivePlan,
    params: &[Value],
    cx: &RunContext<'_>,
) -> Result<Vec<Vec<Value>>> {
    let cx = RunContext {
        threads: 1,
        min_rows: u64::MAX,
        parallel_scans: None,
        ..*cx
    };
    let mut seen = KeySet::default();
    // Rows are equal as the anchor's columns' collations say.
    let collations = collations_of(
        plan.anchors
            .first()
            .map_or(&[][..], |a| a.columns())
            .iter()
            .map(|c| c.kind),
    );
    let mut key = Vec::new();
    let mut all: Vec<Vec<Value>> = Vec::new();
    let mut bytes = 0usize;
    // Keeps the rows not seen before (all of them under UNION ALL).
    let mut keep = |rows: Vec<Vec<Value>>, all: &mut Vec<Vec<Value>>| -> Result<Vec<Vec<Value>>> {
        let mut added = Vec::new();
        for row in rows {
            if plan.distinct {
                key.clear();
                encode_row(&row, &collations, &mut key);
                if !seen.insert(key.clone()) {
                    continue;
                }
                bytes += key.len();
            }
            bytes += row.iter().map(value_bytes).sum::<usize>() * 2;
            if bytes > cx.memory {
                return Err(over_budget("a recursive CTE", cx.memory));
            }
            all.push(row.clone());
            added.push(row);
        }
        Ok(added)
    };
    let mut last = Vec::new();
    for anchor in &plan.anchors {
        let mut sink = CollectSink::default();
        anchor.run(params, &cx, &mut sink)?;
        last.extend(keep(sink.rows, &mut all)?);
    }
    let mut iterations = 0u64;
    while !last.is_empty() {
        if cx.stop.get() {
            return Err(SqlError::interrupted());
        }
        if iterations == plan.max_iterations {
            CUT_SHORT.with(|c| c.set(Some(plan.max_iterations)));
            break;
        }
        iterations += 1;
        *plan.rows.rows.lock() = std::mem::take(&mut last);
        let mut produced = Vec::new();
        for step in &plan.steps {
            let mut sink = CollectSink::default();
            step.run(params, &cx, &mut sink)?;
            produced.extend(sink.rows);
        }
        last = keep(produced, &mut all)?;
    }
    plan.rows.rows.lock().clear();
    Ok(all)
}
