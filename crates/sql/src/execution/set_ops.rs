//! UNION, EXCEPT and INTERSECT: both sides read in full, rows compared by
//! their values (NULLs equal), duplicates removed unless ALL.
use super::memory::{over_budget, value_bytes};
use super::RunContext;
use crate::error::Result;
use crate::expr::row_key::{row_key, KeyMap, KeySet};
use crate::planner::plan::{SetOpPlan, SetOperator};
use crate::result::{CollectSink, RowSink};
use lineardb_table::Value;

impl SetOpPlan {
    pub(crate) fn run(
        &self,
        params: &[Value],
        cx: &RunContext<'_>,
        sink: &mut dyn RowSink,
    ) -> Result<()> {
        sink.columns(&self.columns)?;
        let mut left = CollectSink::default();
        self.left.run(params, cx, &mut left)?;
        let mut right = CollectSink::default();
        self.right.run(params, cx, &mut right)?;
        let bytes: usize = left
            .rows
            .iter()
            .chain(&right.rows)
            .flatten()
            .map(value_bytes)
            .sum();
        if bytes > cx.memory {
            return Err(over_budget(
                match self.op {
                    SetOperator::Union => "UNION",
                    SetOperator::Except => "EXCEPT",
                    SetOperator::Intersect => "INTERSECT",
                },
                cx.memory,
            ));
        }
        match (self.op, self.all) {
            (SetOperator::Union, true) => {
                for r in left.rows.iter().chain(&right.rows) {
                    sink.row(r)?;
                }
            }
            (SetOperator::Union, false) => {
                let mut seen = KeySet::default();
                for r in left.rows.iter().chain(&right.rows) {
                    if seen.insert(row_key(r)) {
                        sink.row(r)?;
                    }
                }
            }
            (op, all) => {
                // How many times each row of the right side occurs.
                let mut counts: KeyMap<usize> = KeyMap::default();
                for r in &right.rows {
                    *counts.entry(row_key(r)).or_default() += 1;
                }
                let mut seen = KeySet::default();
                for r in &left.rows {
                    let key = row_key(r);
                    let in_right = counts.get_mut(&key);
                    let emit = match (op, in_right) {
                        (SetOperator::Except, None) => true,
                        (SetOperator::Except, Some(n)) if all && *n == 0 => true,
                        (SetOperator::Except, Some(n)) => {
                            if all {
                                *n -= 1;
                            }
                            false
                        }
                        (SetOperator::Intersect, Some(n)) if *n > 0 => {
                            if all {
                                *n -= 1;
                            }
                            true
                        }
                        _ => false,
                    };
                    if emit && (all || seen.insert(key)) {
                        sink.row(r)?;
                    }
                }
            }
        }
        Ok(())
    }
}
