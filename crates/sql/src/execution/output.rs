//! The output stages of a SELECT over produced rows: window functions,
//! projection, DISTINCT, ORDER BY, OFFSET and LIMIT.
use crate::error::Result;
use crate::execution::spill::sort::SortBuffer;
use crate::execution::window::WindowStage;
use crate::expr::row_key::{collations_of, encode_row, KeySet};
use crate::expr::{Env, Expr, KeyOrder, Row};
use crate::planner::plan::SelectPlan;
use crate::result::RowSink;
use lineardb_sync::LocalCounter;
use lineardb_table::{Collation, Value};

/// Window functions, projection, DISTINCT, ORDER BY, OFFSET and LIMIT
/// over produced rows.
pub(crate) struct Output<'p> {
    plan: &'p SelectPlan,
    /// The select list and ORDER BY keys (the window stage's when there
    /// is one: they read its rows).
    projection: &'p [Expr],
    order_by: &'p [(Expr, bool)],
    /// Holds every row until the window functions are computed.
    window: Option<WindowStage<'p>>,
    limit: u64,
    offset: u64,
    sent: u64,
    skipped: u64,
    /// The rows to sort (ORDER BY), spilled to files past the budget
    /// (boxed: most queries sort nothing, and Output moves).
    sort: Option<Box<SortBuffer>>,
    /// The row keys of the DISTINCT rows sent (or held) so far.
    seen: KeySet,
    /// DISTINCT past the budget: rows not among those sent, with their
    /// row key and place, sorted to find each key's first row.
    distinct_spill: Option<Box<SortBuffer>>,
    /// Rows sent to `distinct_spill` so far (their places).
    arrivals: u64,
    /// The key being looked up (kept to reuse its buffer).
    key: Vec<u8>,
    /// DISTINCT: rows are equal as their columns' collations say.
    collations: Vec<Collation>,
    /// About what `seen` takes, and the most it may.
    bytes: usize,
    memory: usize,
    /// Counts the rows the sort spills.
    spilled_rows: Option<&'p LocalCounter>,
}

impl<'p> Output<'p> {
    pub(crate) fn new(
        plan: &'p SelectPlan,
        limit: u64,
        offset: u64,
        memory: usize,
        spilled_rows: Option<&'p LocalCounter>,
    ) -> Self {
        let (projection, order_by) = match &plan.window {
            Some(w) => (&w.projection[..], &w.order_by[..]),
            None => (&plan.projection[..], &plan.order_by[..]),
        };
        // Without DISTINCT, only the first offset + limit sorted rows are
        // sent (DISTINCT drops rows after the sort, so it needs them all).
        let keep = (limit != u64::MAX && !plan.distinct)
            .then(|| usize::try_from(offset.saturating_add(limit)).unwrap_or(usize::MAX));
        Output {
            plan,
            projection,
            order_by,
            sort: (!order_by.is_empty()).then(|| {
                let desc = order_by.iter().map(|(e, d)| KeyOrder::of(e, *d)).collect();
                Box::new(SortBuffer::new(desc, memory, keep))
            }),
            window: plan.window.as_deref().map(|w| WindowStage::new(w, memory)),
            limit,
            offset,
            sent: 0,
            skipped: 0,
            seen: Default::default(),
            distinct_spill: None,
            arrivals: 0,
            key: Vec::new(),
            collations: match plan.distinct {
                true => collations_of(plan.columns.iter().map(|c| c.kind)),
                false => Vec::new(),
            },
            bytes: 0,
            memory,
            spilled_rows,
        }
    }

    /// Takes one row; false when no more are wanted.
    #[inline]
    pub(crate) fn push<R: Row + ?Sized>(
        &mut self,
        row: &R,
        env: Env<'_>,
        sink: &mut dyn RowSink,
    ) -> Result<bool> {
        if let Some(w) = &mut self.window {
            w.hold(row, env)?;
            return Ok(true);
        }
        self.project(row, env, sink)
    }

    /// Projects one row (and sorts or sends it).
    #[inline]
    fn project<R: Row + ?Sized>(
        &mut self,
        row: &R,
        env: Env<'_>,
        sink: &mut dyn RowSink,
    ) -> Result<bool> {
        let values = eval_all(self.projection.iter(), row, env)?;
        if let Some(sort) = &mut self.sort {
            // The keys' collations are in the sort's orders: evaluated
            // without their marks.
            let keys = eval_all(self.order_by.iter().map(|(e, _)| e.unmarked()), row, env)?;
            sort.push(keys, values)?;
            return Ok(true);
        }
        if self.plan.distinct {
            return self.distinct_row(values, sink);
        }
        self.emit(&values, sink)
    }

    /// DISTINCT: sends `values` when no equal row came before. Past the
    /// budget the keys sent so far stay, and rows of other keys go to a
    /// file, to be sent at the end (each key's first row, in the order
    /// they came).
    fn distinct_row(&mut self, values: Vec<Value>, sink: &mut dyn RowSink) -> Result<bool> {
        if let Some(spill) = &mut self.distinct_spill {
            self.key.clear();
            encode_row(&values, &self.collations, &mut self.key);
            if !self.seen.contains(self.key.as_slice()) {
                self.arrivals += 1;
                let keys = vec![Value::Bytes(self.key.clone()), Value::UInt(self.arrivals)];
                spill.push(keys, values)?;
            }
            return Ok(true);
        }
        if !self.first_time(&values) {
            return Ok(true);
        }
        self.bytes += self.key.len() + 32;
        if self.bytes > self.memory {
            self.distinct_spill = Some(Box::new(SortBuffer::new(
                vec![KeyOrder::BYTES; 2],
                self.memory / 4,
                None,
            )));
        }
        self.emit(&values, sink)
    }

    /// Sends the first row of each key that went to the DISTINCT spill
    /// file, in the order the rows came: sorted by (key, place), the first
    /// of each key kept, then sorted by place.
    fn finish_distinct_spill(&mut self, spill: SortBuffer, sink: &mut dyn RowSink) -> Result<()> {
        let mut by_key = spill.finish_counted(self.spilled_rows)?;
        let mut firsts = SortBuffer::new(vec![KeyOrder::BYTES], self.memory / 4, None);
        let mut last_key: Option<Value> = None;
        while let Some((mut keys, values)) = by_key.next_row()? {
            let place = keys.pop().expect("key and place");
            let key = keys.pop().expect("key and place");
            if last_key.as_ref() == Some(&key) {
                continue;
            }
            last_key = Some(key);
            firsts.push(vec![place], values)?;
        }
        let mut in_order = firsts.finish_counted(self.spilled_rows)?;
        while let Some((_, values)) = in_order.next_row()? {
            if !self.emit(&values, sink)? {
                break;
            }
        }
        Ok(())
    }

    /// Whether no equal row came before `values` (NULLs equal, values
    /// compared as values: 1 and 1.0 are one row); remembers it.
    fn first_time(&mut self, values: &[Value]) -> bool {
        self.key.clear();
        encode_row(values, &self.collations, &mut self.key);
        if self.seen.contains(self.key.as_slice()) {
            return false;
        }
        self.seen.insert(self.key.clone());
        true
    }

    pub(crate) fn emit(&mut self, values: &[Value], sink: &mut dyn RowSink) -> Result<bool> {
        if self.skipped < self.offset {
            self.skipped += 1;
            return Ok(true);
        }
        sink.row(values)?;
        self.sent += 1;
        Ok(self.sent < self.limit)
    }

    /// Sends what is held: window rows, then sorted rows. `env` gives the
    /// statement's parameters and subqueries.
    pub(crate) fn finish(mut self, env: Env<'_>, sink: &mut dyn RowSink) -> Result<()> {
        if let Some(w) = self.window.take() {
            let env = Env { aggs: &[], ..env };
            let spilled = self.spilled_rows;
            let mut more = true;
            w.finish(env, spilled, &mut |row| {
                more = self.project(row, env, sink)?;
                Ok(more)
            })?;
            if !more {
                return Ok(());
            }
        }
        if let Some(spill) = self.distinct_spill.take() {
            return self.finish_distinct_spill(*spill, sink);
        }
        let Some(sort) = self.sort.take() else {
            return Ok(());
        };
        let mut sorted = (*sort).finish_counted(self.spilled_rows)?;
        while let Some((_, values)) = sorted.next_row()? {
            // DISTINCT after the sort: the first of equal rows in sorted
            // order, its keys within the budget as without ORDER BY.
            let more = if self.plan.distinct {
                self.distinct_row(values, sink)?
            } else {
                self.emit(&values, sink)?
            };
            if !more {
                break;
            }
        }
        match self.distinct_spill.take() {
            Some(spill) => self.finish_distinct_spill(*spill, sink),
            None => Ok(()),
        }
    }
}

/// The values of `exprs` over `row`.
#[inline]
fn eval_all<'e, R: Row + ?Sized>(
    exprs: impl ExactSizeIterator<Item = &'e Expr>,
    row: &R,
    env: Env<'_>,
) -> Result<Vec<Value>> {
    let mut values = Vec::with_capacity(exprs.len());
    for e in exprs {
        values.push(e.eval(row, env)?);
    }
    Ok(values)
}
