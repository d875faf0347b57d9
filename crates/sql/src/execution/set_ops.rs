//! UNION, EXCEPT and INTERSECT, rows compared by their values (NULLs
//! equal), duplicates removed unless ALL. UNION streams both sides through
//! (keeping only the keys seen for DISTINCT); EXCEPT and INTERSECT read
//! both sides in full.
use super::memory::{over_budget, value_bytes};
use super::RunContext;
use crate::error::Result;
use crate::expr::row_key::{row_key, KeyMap, KeySet};
use crate::planner::plan::{SetOpPlan, SetOperator};
use crate::result::{CollectSink, Column, RowSink};
use lineardb_table::Value;

impl SetOpPlan {
    pub(crate) fn run(
        &self,
        params: &[Value],
        cx: &RunContext<'_>,
        sink: &mut dyn RowSink,
    ) -> Result<()> {
        sink.columns(&self.columns)?;
        if self.op == SetOperator::Union {
            // Rows stream through: UNION ALL holds none, UNION its keys.
            let mut through = Through {
                sink,
                seen: (!self.all).then(KeySet::default),
                bytes: 0,
                memory: cx.memory,
            };
            self.left.run(params, cx, &mut through)?;
            return self.right.run(params, cx, &mut through);
        }
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
                    SetOperator::Except => "EXCEPT",
                    _ => "INTERSECT",
                },
                cx.memory,
            ));
        }
        let (op, all) = (self.op, self.all);
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
        Ok(())
    }
}

/// The sink both sides of a UNION send to: rows go on to the union's sink
/// (the sides' own column lists do not); for UNION DISTINCT only those of
/// a key not seen before, the keys counted against the budget.
struct Through<'a> {
    sink: &'a mut dyn RowSink,
    seen: Option<KeySet>,
    bytes: usize,
    memory: usize,
}

impl RowSink for Through<'_> {
    fn columns(&mut self, _: &[Column]) -> Result<()> {
        Ok(())
    }

    fn row(&mut self, row: &[Value]) -> Result<()> {
        if let Some(seen) = &mut self.seen {
            let key = row_key(row);
            let bytes = key.len() + 32;
            if !seen.insert(key) {
                return Ok(());
            }
            self.bytes += bytes;
            if self.bytes > self.memory {
                return Err(over_budget("UNION", self.memory));
            }
        }
        self.sink.row(row)
    }
}
