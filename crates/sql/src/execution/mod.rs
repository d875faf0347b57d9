//! SELECT execution: a [`SelectPlan`] run with parameters (scan, filter,
//! aggregate, sort, limit), streaming rows to a [`RowSink`].
pub(crate) mod access;
pub(crate) mod analyze;
mod join;
mod memory;
mod output;
pub(crate) mod recursive;
mod set_ops;
mod spill;
pub(crate) mod subqueries;
mod window;
use crate::error::{Result, SqlError};
use crate::execution::access::{access_for_run, estimate, TableRun};
use crate::execution::memory::value_bytes;
use crate::execution::output::Output;
use crate::execution::spill::sort::{SortBuffer, Sorted};
use crate::expr::row_key::{encode_value, KeyMap};
use crate::expr::warnings;
use crate::expr::{sort_order, truth_of, Acc, AggFunc, Env, Expr, KeyOrder, Row};
use crate::planner::plan::{
    Access, InformationSource, JoinPlan, QueryPlan, SelectPlan, Source, StepInput, TableSource,
};
use crate::planner::row_filter::RowFilter;
use crate::result::RowSink;
use lineardb_sync::{LocalCounter, SharedFlag};
use lineardb_table::{KeyRange, Value};
use lineardb_txn::ReadView;
use subqueries::SubqueryCache;

/// One source row handed to the pipeline.
enum SourceRow<'r> {
    Row(lineardb_table::RowRef<'r>),
    Values(&'r [Value]),
}

/// A per-row filter: a table source's, prepared for its stored rows, or
/// another source's expression.
#[derive(Clone, Copy)]
enum Filter<'f> {
    Table(&'f RowFilter),
    Expr(&'f Expr),
}

impl SourceRow<'_> {
    /// Whether the row passes `filter` (a stored row through the range
    /// checks first).
    #[inline(always)]
    fn passes(&self, filter: Filter<'_>, env: Env<'_>) -> Result<bool> {
        match (filter, self) {
            (Filter::Table(f), SourceRow::Row(r)) => {
                if !f.passes_checks(r) {
                    return Ok(false);
                }
                f.passes_rest(r, env)
            }
            (Filter::Table(f), SourceRow::Values(v)) => f.passes(*v, env),
            (Filter::Expr(e), row) => Ok(truth_of(&e.eval(row, env)?) == Some(true)),
        }
    }
}

impl Row for SourceRow<'_> {
    #[inline]
    fn get(&self, col: usize) -> Value {
        match self {
            SourceRow::Row(r) => r.value(col),
            SourceRow::Values(v) => Row::get(*v, col),
        }
    }
}

/// A group's kept columns read as its first row (the others NULL).
struct GroupRow<'g> {
    values: &'g [Value],
    /// The columns `values` holds, ascending.
    columns: &'g [usize],
}

impl Row for GroupRow<'_> {
    fn get(&self, col: usize) -> Value {
        match self.columns.binary_search(&col) {
            // (A group made for no rows holds nothing.)
            Ok(i) => self.values.get(i).cloned().unwrap_or(Value::Null),
            Err(_) => Value::Null,
        }
    }
}

/// Group state: the group's key values, a representative row's projection
/// inputs and the accumulators.
struct Group {
    first_row: Vec<Value>,
    accs: Vec<Acc>,
    /// How many GROUP BY keys it is grouped by: all of them, or fewer for
    /// a ROLLUP row.
    level: usize,
}

/// Groups in order of first appearance, found by their encoded key.
#[derive(Default)]
struct Groups {
    index: KeyMap<usize>,
    /// WITH ROLLUP: per number of keys, the groups by that key prefix.
    rollup_index: Vec<KeyMap<usize>>,
    list: Vec<Group>,
    /// About what the groups hold, for the memory budget.
    bytes: usize,
    /// Past the budget, rows of groups not held go to a spill file
    /// (GROUP BY without ROLLUP on one thread); else the query fails.
    may_spill: bool,
    spill: Option<GroupSpill>,
}

/// The rows of groups that did not fit, sorted by group: their GROUP BY
/// values, then the encoded key (groups equal as values but not as keys,
/// 1 and '1', stay apart).
struct GroupSpill {
    rows: SortBuffer,
    /// The columns the aggregation reads, kept of each row (others NULL).
    columns: Vec<usize>,
    width: usize,
}

impl Groups {
    /// Folds another thread's groups into these (same plan, same keys).
    fn merge(&mut self, other: Groups) -> Result<()> {
        if self.list.is_empty() {
            *self = other;
            return Ok(());
        }
        if self.index.is_empty() {
            // No GROUP BY: at most one group each.
            if let (Some(mine), Some(theirs)) =
                (self.list.first_mut(), other.list.into_iter().next())
            {
                for (a, b) in mine.accs.iter_mut().zip(theirs.accs) {
                    a.merge(b)?;
                }
            }
            return Ok(());
        }
        let mut by_position: Vec<(Vec<u8>, usize)> = other.index.into_iter().collect();
        by_position.sort_by_key(|(_, i)| *i);
        let mut theirs: Vec<Option<Group>> = other.list.into_iter().map(Some).collect();
        for (key, i) in by_position {
            let g = theirs[i].take().expect("each group once");
            match self.index.get(&key) {
                Some(&j) => {
                    for (a, b) in self.list[j].accs.iter_mut().zip(g.accs) {
                        a.merge(b)?;
                    }
                }
                None => {
                    self.index.insert(key, self.list.len());
                    self.list.push(g);
                }
            }
        }
        Ok(())
    }
}

impl SelectPlan {
    /// How spilled groups sort: by their GROUP BY values (each in its
    /// collation), then their key's bytes.
    fn group_orders(&self) -> Vec<KeyOrder> {
        self.group_by
            .iter()
            .map(|g| KeyOrder::of(g, false))
            .chain([KeyOrder::BYTES])
            .collect()
    }

    /// Runs the plan, sending columns and rows to `sink` (through
    /// [`QueryPlan::run`], which gives `cx` its subquery cache).
    /// Stops with error 1317 when `cx.stop` is set (KILL QUERY).
    fn run(&self, params: &[Value], cx: &RunContext<'_>, sink: &mut dyn RowSink) -> Result<()> {
        let hinted;
        let cx = match self.hints.memory {
            Some(memory) => {
                hinted = RunContext { memory, ..*cx };
                &hinted
            }
            None => cx,
        };
        sink.columns(&self.columns)?;
        let env = cx.env(params);
        let int_of = |e: &Option<Expr>| -> Result<Option<u64>> {
            e.as_ref()
                .map(|e| match e.eval(&[][..], env)? {
                    Value::Int(i) if i >= 0 => Ok(i as u64),
                    Value::UInt(u) => Ok(u),
                    Value::Bytes(b) => String::from_utf8_lossy(&b)
                        .trim()
                        .parse::<u64>()
                        .map_err(|_| SqlError::syntax("bad LIMIT")),
                    _ => Err(SqlError::syntax(
                        "LIMIT and OFFSET take non-negative integers",
                    )),
                })
                .transpose()
        };
        let limit = int_of(&self.limit)?.unwrap_or(u64::MAX);
        let offset = int_of(&self.offset)?.unwrap_or(0);
        let mut out = Output::new(self, limit, offset, cx.memory, cx.spilled_rows);
        if limit == 0 {
            return Ok(());
        }
        // Key ranges, access path and per-row filter, decided once.
        let table_run = match &self.source {
            Source::Table(ts) => Some(access_for_run(ts, self.filter.as_ref(), params)?),
            _ => None,
        };
        let table_run = table_run.as_ref();
        if self.aggregate {
            let cx = RunContext {
                threads: self.hints.threads.unwrap_or(cx.threads),
                min_rows: self.hints.min_rows.unwrap_or(cx.min_rows),
                ..*cx
            };
            // Threads over the budget give way to one thread, which spills.
            let parallel = match self.parallel_aggregate(params, &cx, table_run) {
                Err(e) if e.code == crate::execution::memory::OVER_BUDGET => None,
                other => other?,
            };
            let mut groups = match parallel {
                Some(groups) => groups,
                None => {
                    let mut groups = Groups {
                        may_spill: !self.rollup && !self.group_by.is_empty(),
                        ..Groups::default()
                    };
                    let mut key = Vec::new();
                    self.scan_fallible(params, &cx, table_run, &mut |row| {
                        self.accumulate(row, env, &mut groups, &mut key, cx.memory)
                            .map(|()| true)
                    })?;
                    groups
                }
            };
            if let Some(spill) = groups.spill.take() {
                if let Some(c) = cx.spilled_rows {
                    c.add(spill.rows.spilled());
                }
                self.emit_spilled_groups(groups, spill, env, &mut out, sink)?;
                return out.finish(env, sink);
            }
            if groups.list.is_empty() && self.group_by.is_empty() {
                // No rows and no GROUP BY: one row of empty aggregates.
                groups.list.push(Group {
                    first_row: Vec::new(),
                    accs: self.aggs.iter().map(Acc::new).collect(),
                    level: 0,
                });
            }
            // MariaDB lists groups by their keys when no ORDER BY says
            // otherwise (applications rely on it), rollup rows after the
            // groups they sum up.
            if self.rollup || (!self.group_by.is_empty() && self.order_by.is_empty()) {
                self.sort_for_rollup(&mut groups.list, env)?;
            }
            for g in &groups.list {
                if !self.emit_group(g, env, &mut out, sink)? {
                    break;
                }
            }
        } else {
            // HAVING without grouping filters the rows (after WHERE).
            let having = self.having.as_ref();
            // Threads over the budget (a hash join's table) give way to
            // one thread, which spills.
            let parallel = match self.parallel_rows(params, cx, table_run) {
                Err(e) if e.code == crate::execution::memory::OVER_BUDGET => None,
                other => other?,
            };
            if let Some(rows) = parallel {
                for row in &rows {
                    let row = SourceRow::Values(row);
                    if let Some(h) = having {
                        if truth_of(&h.eval(&row, env)?) != Some(true) {
                            continue;
                        }
                    }
                    if !out.push(&row, env, sink)? {
                        break;
                    }
                }
                return out.finish(env, sink);
            }
            self.scan_fallible(params, cx, table_run, &mut |row| {
                if let Some(h) = having {
                    if truth_of(&h.eval(row, env)?) != Some(true) {
                        return Ok(true);
                    }
                }
                out.push(row, env, sink)
            })?;
        }
        out.finish(env, sink)
    }

    /// Aggregates a big table scan on several threads: the key range is cut
    /// into pieces (parallel::split_range), each thread filters and
    /// aggregates the pieces it takes into groups of its own, and the
    /// groups are merged at the end. A join runs so when its first step
    /// scans a table: each thread joins the rows of its pieces, the items
    /// of the hash and nested-loop steps read once beforehand and shared.
    /// `None` when the plan does not qualify: one thread allowed, a small
    /// range (tree estimate), non-covering access, DISTINCT aggregates
    /// other than COUNT, GROUP_CONCAT, or ROLLUP. (Groups are listed by their keys or the ORDER BY either way:
    /// the threads do not show.)
    fn parallel_aggregate(
        &self,
        params: &[Value],
        cx: &RunContext<'_>,
        table_run: Option<&TableRun>,
    ) -> Result<Option<Groups>> {
        if cx.threads <= 1 || self.rollup || !self.aggs.iter().all(|a| a.merges()) {
            return Ok(None);
        }
        match (&self.source, table_run) {
            (Source::Table(ts), Some(run)) => {
                if !self.worth_pieces(cx, ts, run) {
                    return Ok(None);
                }
                let exprs = self
                    .filter
                    .iter()
                    .chain(self.aggs.iter().flat_map(|a| a.exprs()));
                subqueries::run_uncorrelated(exprs, params, cx)?;
                self.aggregate_pieces(params, cx, ts, run, None)
            }
            (Source::Join(join), _) => {
                let exprs = join_exprs(join)
                    .chain(&self.filter)
                    .chain(self.aggs.iter().flat_map(|a| a.exprs()));
                let first = &join.steps[0];
                if let StepInput::Table {
                    source: ts,
                    filter,
                    correlated: false,
                } = &first.input
                {
                    let run = access_for_run(ts, filter.as_ref(), params)?;
                    if self.worth_pieces(cx, ts, &run) && self.filter.is_none() {
                        subqueries::run_uncorrelated(exprs, params, cx)?;
                        let shared = join::SharedSteps::new(join);
                        shared.read_from(join, params, cx, 1)?;
                        return self.aggregate_pieces(params, cx, ts, &run, Some((join, &shared)));
                    }
                }
                self.aggregate_join_prefix(params, cx, join, exprs)
            }
            _ => Ok(None),
        }
    }

    /// A join whose first step reads too few rows to cut into pieces, but
    /// which is estimated to make many: the first steps run here until
    /// they have made enough rows to share out, then threads run the rest
    /// of the join for parts of those rows (a block's WHERE clause on the
    /// joined row keeps it on one thread).
    fn aggregate_join_prefix<'e>(
        &self,
        params: &[Value],
        cx: &RunContext<'_>,
        join: &JoinPlan,
        exprs: impl Iterator<Item = &'e Expr>,
    ) -> Result<Option<Groups>> {
        let estimates: Vec<f64> = join
            .steps
            .iter()
            .map(|s| s.estimated_rows.max(1.0))
            .collect();
        let total: f64 = estimates.iter().product();
        if join.steps.len() < 2 || self.filter.is_some() || total < cx.min_rows as f64 {
            return Ok(None);
        }
        // The prefix: enough rows for every thread to take several parts.
        let wanted = (cx.threads * lineardb_table::parallel::PIECES_PER_THREAD) as f64;
        let (mut upto, mut rows) = (1, estimates[0]);
        while rows < wanted && upto + 1 < join.steps.len() {
            rows *= estimates[upto];
            upto += 1;
        }
        subqueries::run_uncorrelated(exprs, params, cx)?;
        let shared = join::SharedSteps::new(join);
        // Only the prefix steps' columns are kept (the rest are NULL).
        let columns: Vec<usize> = join.steps[..upto]
            .iter()
            .flat_map(|s| s.offset..s.offset + s.width)
            .collect();
        let mut prefix: Vec<Vec<Value>> = Vec::new();
        let mut bytes = 0usize;
        // The estimates may be far off: past a share of the query's memory
        // the join runs on one thread instead, as it would have.
        let mut too_many = false;
        join::join_prefix(join, params, cx, &shared, upto, &mut |row| {
            let kept: Vec<Value> = columns.iter().map(|&c| row[c].clone()).collect();
            bytes += kept.iter().map(value_bytes).sum::<usize>() + 24;
            if bytes > cx.memory / 4 {
                too_many = true;
                return Ok(false);
            }
            prefix.push(kept);
            Ok(true)
        })?;
        if too_many {
            return Ok(None);
        }
        shared.read_from(join, params, cx, upto)?;
        if let Some(c) = cx.parallel_scans {
            c.add(1);
        }
        let parts =
            (prefix.len() / (cx.threads * lineardb_table::parallel::PIECES_PER_THREAD)).max(1);
        let pieces: Vec<std::ops::Range<usize>> = (0..prefix.len())
            .step_by(parts)
            .map(|start| start..(start + parts).min(prefix.len()))
            .collect();
        let env = cx.env(params);
        type State = (
            Groups,
            Vec<u8>,
            Option<SqlError>,
            Vec<Value>,
            Vec<warnings::Warning>,
        );
        let statement_clock = crate::expr::clock::statement_clock();
        let statement_results = crate::expr::statement_results::current();
        let division_fails = warnings::division_fails();
        let states = lineardb_table::parallel::run_pieces(
            &pieces,
            cx.threads,
            || -> State {
                crate::expr::clock::adopt(statement_clock);
                crate::expr::statement_results::adopt(statement_results);
                warnings::adopt_division_fails(division_fails);
                (Groups::default(), Vec::new(), None, Vec::new(), Vec::new())
            },
            |(groups, key, err, buf, warned), piece| {
                if err.is_some() || cx.stop.get() {
                    return Ok(());
                }
                for row in &prefix[piece.clone()] {
                    buf.clear();
                    buf.resize(join.width, Value::Null);
                    for (&c, v) in columns.iter().zip(row) {
                        buf[c] = v.clone();
                    }
                    let joined = join::join_from(join, params, cx, &shared, upto, buf, &mut |r| {
                        self.accumulate(&SourceRow::Values(r), env, groups, key, cx.memory)
                            .map(|()| true)
                    });
                    if let Err(e) = joined {
                        *err = Some(e);
                        break;
                    }
                }
                warned.extend(warnings::take());
                Ok(())
            },
        )?;
        // The workers' warnings become the statement's.
        let states: Vec<_> = states
            .into_iter()
            .map(|(g, _, e, _, warned)| {
                warnings::extend(warned);
                (g, e)
            })
            .collect();
        merge_groups(states.into_iter(), cx).map(Some)
    }

    /// Whether a scan through `run` is worth cutting into pieces.
    fn worth_pieces(&self, cx: &RunContext<'_>, ts: &TableSource, run: &TableRun) -> bool {
        !matches!(run.access, Access::NonCovering(_))
            && !run.points
            && estimate(&ts.table, run.access, &run.ranges) >= cx.min_rows
    }

    /// [`parallel_aggregate`](Self::parallel_aggregate)'s threads over the
    /// pieces of `ts` through `run`; with `join`, each row of the table is
    /// the first step's and is joined first.
    fn aggregate_pieces(
        &self,
        params: &[Value],
        cx: &RunContext<'_>,
        ts: &TableSource,
        run: &TableRun,
        join: Option<(&JoinPlan, &join::SharedSteps)>,
    ) -> Result<Option<Groups>> {
        let env = cx.env(params);
        let states = self.scan_pieces(
            params,
            cx,
            ts,
            run,
            join,
            || (Groups::default(), Vec::new()),
            |(groups, key), _, row| self.accumulate(row, env, groups, key, cx.memory),
        )?;
        merge_groups(states.into_iter().map(|((g, _), e)| (g, e)), cx).map(Some)
    }

    /// The rows of a big scan (or of a join whose first step is one) that
    /// pass the WHERE clause, gathered on several threads when whoever
    /// runs the plan keeps all its rows anyway (a subquery's, a derived
    /// table's) and no LIMIT may end it early; in the order one thread
    /// would make them (pieces are key ranges in order).
    fn parallel_rows(
        &self,
        params: &[Value],
        cx: &RunContext<'_>,
        table_run: Option<&TableRun>,
    ) -> Result<Option<Vec<Vec<Value>>>> {
        if !cx.rows_kept || cx.threads <= 1 || self.limit.is_some() || self.offset.is_some() {
            return Ok(None);
        }
        type Pieces = Vec<(usize, Vec<Vec<Value>>)>;
        let keep = |rows: &mut Pieces, piece: usize, row: &SourceRow<'_>, width: usize| {
            if rows.last().is_none_or(|(p, _)| *p != piece) {
                rows.push((piece, Vec::new()));
            }
            let values = (0..width).map(|c| row.get(c)).collect();
            rows.last_mut().expect("pushed").1.push(values);
            Ok(())
        };
        let states = match (&self.source, table_run) {
            (Source::Table(ts), Some(run)) if self.worth_pieces(cx, ts, run) => {
                subqueries::run_uncorrelated(self.filter.iter(), params, cx)?;
                let width = ts.table.def().columns.len();
                self.scan_pieces(
                    params,
                    cx,
                    ts,
                    run,
                    None,
                    Pieces::new,
                    |rows, piece, row| keep(rows, piece, row, width),
                )?
            }
            (Source::Join(join), _) if self.filter.is_none() => {
                let StepInput::Table {
                    source: ts,
                    filter,
                    correlated: false,
                } = &join.steps[0].input
                else {
                    return Ok(None);
                };
                let run = access_for_run(ts, filter.as_ref(), params)?;
                if !self.worth_pieces(cx, ts, &run) {
                    return Ok(None);
                }
                subqueries::run_uncorrelated(join_exprs(join), params, cx)?;
                let shared = join::SharedSteps::new(join);
                shared.read_from(join, params, cx, 1)?;
                let width = join.width;
                self.scan_pieces(
                    params,
                    cx,
                    ts,
                    &run,
                    Some((join, &shared)),
                    Pieces::new,
                    |rows, piece, row| keep(rows, piece, row, width),
                )?
            }
            _ => return Ok(None),
        };
        let mut pieces: Pieces = Vec::new();
        for (rows, err) in states {
            if let Some(e) = err {
                return Err(e);
            }
            pieces.extend(rows);
        }
        if cx.stop.get() {
            return Err(SqlError::interrupted());
        }
        pieces.sort_by_key(|(p, _)| *p);
        Ok(Some(
            pieces.into_iter().flat_map(|(_, rows)| rows).collect(),
        ))
    }

    /// Threads over the pieces of `ts` through `run`, each with a state
    /// from `init` that `consume` gives the rows passing the table's filter
    /// (with `join`, the joined rows each of them makes), with the piece's
    /// number; the states, each with the first error its thread met.
    #[allow(clippy::too_many_arguments)]
    fn scan_pieces<S: Send>(
        &self,
        params: &[Value],
        cx: &RunContext<'_>,
        ts: &TableSource,
        run: &TableRun,
        join: Option<(&JoinPlan, &join::SharedSteps)>,
        init: impl Fn() -> S + Sync,
        consume: impl Fn(&mut S, usize, &SourceRow<'_>) -> Result<()> + Sync,
    ) -> Result<Vec<(S, Option<SqlError>)>> {
        let env = cx.env(params);
        let (ranges, access, filter) = (&run.ranges, run.access, run.filter.as_ref());
        if let Some(c) = cx.parallel_scans {
            c.add(1);
        }
        let mut pieces = Vec::new();
        for r in ranges {
            pieces.extend(ts.table.split_range(
                access.index(),
                r,
                cx.threads * lineardb_table::parallel::PIECES_PER_THREAD,
            )?);
        }
        let pieces: Vec<(usize, KeyRange)> = pieces.into_iter().enumerate().collect();
        // Each worker: its state, the first error it met, its joined row.
        let width = join.map_or(0, |(j, _)| j.width);
        let statement_clock = crate::expr::clock::statement_clock();
        let statement_results = crate::expr::statement_results::current();
        let division_fails = warnings::division_fails();
        let states = lineardb_table::parallel::run_pieces(
            &pieces,
            cx.threads,
            || {
                // NOW() in a worker reads its statement's time, a division
                // by zero fails as in the statement's thread.
                crate::expr::clock::adopt(statement_clock);
                crate::expr::statement_results::adopt(statement_results);
                warnings::adopt_division_fails(division_fails);
                (
                    init(),
                    None::<SqlError>,
                    vec![Value::Null; width],
                    Vec::<warnings::Warning>::new(),
                )
            },
            |(state, err, joined, warned), (number, piece)| {
                if err.is_some() {
                    return Ok(());
                }
                let mut seen = 0u32;
                let mut pass = |row: &SourceRow<'_>| -> bool {
                    seen = seen.wrapping_add(1);
                    if seen.is_multiple_of(1024) && cx.stop.get() {
                        *err = Some(SqlError::interrupted());
                        return false;
                    }
                    if let Some(f) = filter {
                        match row.passes(Filter::Table(f), env) {
                            Ok(true) => {}
                            Ok(false) => return true,
                            Err(e) => {
                                *err = Some(e);
                                return false;
                            }
                        }
                    }
                    let done = match join {
                        None => consume(state, *number, row),
                        Some((plan, shared)) => {
                            let first = &plan.steps[0];
                            let StepInput::Table { source, .. } = &first.input else {
                                unreachable!("the first step scans a table")
                            };
                            for &c in &source.fetch {
                                joined[first.offset + c] = row.get(c);
                            }
                            join::join_first_row(plan, params, cx, shared, joined, &mut |r| {
                                consume(state, *number, &SourceRow::Values(r)).map(|()| true)
                            })
                            .map(|_| ())
                        }
                    };
                    match done {
                        Ok(()) => true,
                        Err(e) => {
                            *err = Some(e);
                            false
                        }
                    }
                };
                if let Err(e) = scan_range(cx.view, ts, access, true, piece, &mut pass) {
                    *err = Some(e);
                }
                warned.extend(warnings::take());
                Ok(())
            },
        )?;
        // The workers' warnings become the statement's.
        Ok(states
            .into_iter()
            .map(|(s, e, _, warned)| {
                warnings::extend(warned);
                (s, e)
            })
            .collect())
    }

    /// Adds one row to its group (the only group without GROUP BY), and
    /// under ROLLUP to the group of each prefix of its keys.
    fn accumulate(
        &self,
        row: &SourceRow<'_>,
        env: Env<'_>,
        groups: &mut Groups,
        key: &mut Vec<u8>,
        memory: usize,
    ) -> Result<()> {
        // Under ROLLUP: where each key's encoding ends.
        let mut ends = Vec::new();
        let existing = if self.group_by.is_empty() {
            (!groups.list.is_empty()).then_some(0)
        } else {
            key.clear();
            for g in &self.group_by {
                // Groups by value: NULLs together, 1 with 1.0; strings in
                // their collation (which `sort_keyed` marks).
                let collation = KeyOrder::of(g, false).collation;
                let added = encode_value(&g.eval(row, env)?, collation, key);
                if !added {
                    key.push(0);
                }
                if self.rollup {
                    ends.push(key.len());
                }
            }
            let found = groups.index.get(key.as_slice()).copied();
            if found.is_none() {
                if groups.may_spill && groups.bytes > memory / 4 * 3 {
                    return self.spill_row(row, env, groups, key, memory);
                }
                groups.index.insert(key.clone(), groups.list.len());
            }
            found
        };
        let n = self.group_by.len();
        let i = match existing {
            Some(i) => i,
            None => self.new_group(row, groups, key.len(), n, memory)?,
        };
        self.add_to_group(&mut groups.list[i].accs, row, env)?;
        if self.rollup {
            groups.rollup_index.resize_with(n, Default::default);
            for level in 0..n {
                let prefix = &key[..level.checked_sub(1).map_or(0, |l| ends[l])];
                let i = match groups.rollup_index[level].get(prefix) {
                    Some(&i) => i,
                    None => {
                        let i = self.new_group(row, groups, prefix.len(), level, memory)?;
                        groups.rollup_index[level].insert(prefix.to_vec(), i);
                        i
                    }
                };
                self.add_to_group(&mut groups.list[i].accs, row, env)?;
            }
        }
        Ok(())
    }

    /// A new group for `row` at `level` (of the GROUP BY keys; fewer is a
    /// ROLLUP row, which reads the columns of the keys it rolls up as
    /// NULL); its place in the list.
    fn new_group(
        &self,
        row: &SourceRow<'_>,
        groups: &mut Groups,
        key_len: usize,
        level: usize,
        memory: usize,
    ) -> Result<usize> {
        // The group keeps the columns its output reads.
        let mut first_row: Vec<Value> =
            self.group_row_columns.iter().map(|&c| row.get(c)).collect();
        if level < self.group_by.len() {
            let mut kept = Vec::new();
            self.group_by[..level]
                .iter()
                .for_each(|e| e.columns(&mut |c| kept.push(c)));
            let mut rolled = Vec::new();
            self.group_by[level..]
                .iter()
                .for_each(|e| e.columns(&mut |c| rolled.push(c)));
            for c in rolled.into_iter().filter(|c| !kept.contains(c)) {
                if let Ok(i) = self.group_row_columns.binary_search(&c) {
                    first_row[i] = Value::Null;
                }
            }
        }
        groups.bytes += key_len
            + self.aggs.len() * std::mem::size_of::<Acc>()
            + first_row.iter().map(value_bytes).sum::<usize>();
        if groups.bytes > memory && !groups.may_spill {
            return Err(crate::execution::memory::over_budget("GROUP BY", memory));
        }
        groups.list.push(Group {
            first_row,
            accs: self.aggs.iter().map(Acc::new).collect(),
            level,
        });
        Ok(groups.list.len() - 1)
    }

    /// Sends one group's row (if it passes HAVING); false when no more
    /// are wanted.
    fn emit_group(
        &self,
        g: &Group,
        env: Env<'_>,
        out: &mut Output<'_>,
        sink: &mut dyn RowSink,
    ) -> Result<bool> {
        let aggs: Vec<Value> = g.accs.iter().map(Acc::finish).collect();
        let genv = Env { aggs: &aggs, ..env };
        let first_row = GroupRow {
            values: &g.first_row,
            columns: &self.group_row_columns,
        };
        if let Some(h) = &self.having {
            if truth_of(&h.eval(&first_row, genv)?) != Some(true) {
                return Ok(true);
            }
        }
        out.push(&first_row, genv, sink)
    }

    /// Sends a row of a group not held (the groups held fill the budget)
    /// to the spill file, with the columns the aggregation reads.
    fn spill_row(
        &self,
        row: &SourceRow<'_>,
        env: Env<'_>,
        groups: &mut Groups,
        key: &[u8],
        memory: usize,
    ) -> Result<()> {
        let spill = groups.spill.get_or_insert_with(|| {
            let mut columns = self.group_row_columns.clone();
            for e in self
                .group_by
                .iter()
                .chain(self.aggs.iter().flat_map(|a| a.exprs()))
            {
                e.columns(&mut |c| columns.push(c));
            }
            columns.sort_unstable();
            columns.dedup();
            let width = columns.last().map_or(0, |c| c + 1);
            GroupSpill {
                rows: SortBuffer::new(self.group_orders(), memory / 4, None),
                columns,
                width,
            }
        });
        let mut keys = Vec::with_capacity(self.group_by.len() + 1);
        for g in &self.group_by {
            keys.push(g.eval(row, env)?);
        }
        keys.push(Value::Bytes(key.to_vec()));
        let mut values = vec![Value::Null; spill.width];
        for &c in &spill.columns {
            values[c] = row.get(c);
        }
        spill.rows.push(keys, values)
    }

    /// Sends the groups held and those of the spilled rows, in the order
    /// of their GROUP BY values (MariaDB's order without ORDER BY): the
    /// held groups sorted, merged with the spilled rows sorted by group;
    /// a held group takes the spilled rows of its key, the rows of any
    /// other key make a group of their own, one at a time.
    fn emit_spilled_groups(
        &self,
        groups: Groups,
        spill: GroupSpill,
        env: Env<'_>,
        out: &mut Output<'_>,
        sink: &mut dyn RowSink,
    ) -> Result<()> {
        let desc = self.group_orders();
        let mut held: Vec<(Vec<Value>, Option<Group>)> = Vec::with_capacity(groups.list.len());
        let mut list: Vec<Option<Group>> = groups.list.into_iter().map(Some).collect();
        for (key, i) in groups.index {
            let g = list[i].take().expect("one key per group");
            let row = GroupRow {
                values: &g.first_row,
                columns: &self.group_row_columns,
            };
            let mut keys = Vec::with_capacity(desc.len());
            for e in &self.group_by {
                keys.push(e.eval(&row, env)?);
            }
            keys.push(Value::Bytes(key));
            held.push((keys, Some(g)));
        }
        held.sort_by(|a, b| sort_order(&a.0, &b.0, &desc));
        let mut spilled: Sorted = spill.rows.finish()?;
        let mut next = spilled.next_row()?;
        let mut held = held.into_iter().peekable();
        loop {
            let from_held = match (held.peek(), &next) {
                (None, None) => return Ok(()),
                (Some(_), None) => true,
                (None, Some(_)) => false,
                (Some((h, _)), Some((s, _))) => sort_order(h, s, &desc).is_le(),
            };
            let (keys, mut group) = if from_held {
                let (keys, g) = held.next().expect("peeked");
                (keys, g.expect("taken once"))
            } else {
                let (keys, row) = next.as_ref().expect("checked");
                let row = SourceRow::Values(row);
                let group = Group {
                    first_row: self.group_row_columns.iter().map(|&c| row.get(c)).collect(),
                    accs: self.aggs.iter().map(Acc::new).collect(),
                    level: self.group_by.len(),
                };
                (keys.clone(), group)
            };
            // The spilled rows of this key (the last sort key).
            while let Some((k, row)) = &next {
                if k.last() != keys.last() {
                    break;
                }
                self.add_to_group(&mut group.accs, &SourceRow::Values(row), env)?;
                next = spilled.next_row()?;
            }
            if !self.emit_group(&group, env, out, sink)? {
                return Ok(());
            }
        }
    }

    /// Adds one row to a group's aggregates.
    #[inline]
    fn add_to_group(&self, accs: &mut [Acc], row: &SourceRow<'_>, env: Env<'_>) -> Result<()> {
        for (acc, spec) in accs.iter_mut().zip(&self.aggs) {
            if spec.takes_rows() {
                let mut args = Vec::with_capacity(1 + spec.more.len());
                for e in spec.arg.iter().chain(&spec.more) {
                    args.push(e.eval(row, env)?);
                }
                let mut keys = Vec::with_capacity(spec.order.len());
                for (e, _) in &spec.order {
                    keys.push(e.eval(row, env)?);
                }
                acc.add_row(&args, keys)?;
                continue;
            }
            match (&spec.func, &spec.arg) {
                (AggFunc::CountStar, _) | (_, None) => acc.add(&Value::Int(1))?,
                (_, Some(e)) => acc.add(&e.eval(row, env)?)?,
            }
        }
        Ok(())
    }

    /// Orders groups as MariaDB lists GROUP BY without ORDER BY and WITH
    /// ROLLUP: by their keys, NULLs first, each rollup row after the groups
    /// it sums up.
    fn sort_for_rollup(&self, list: &mut Vec<Group>, env: Env<'_>) -> Result<()> {
        let mut keyed = Vec::with_capacity(list.len());
        for g in list.drain(..) {
            let row = GroupRow {
                values: &g.first_row,
                columns: &self.group_row_columns,
            };
            let keys = self
                .group_by
                .iter()
                .map(|e| e.eval(&row, env))
                .collect::<Result<Vec<_>>>()?;
            keyed.push((keys, g));
        }
        keyed.sort_by(|(a, ga), (b, gb)| {
            for i in 0..self.group_by.len() {
                let o = match (i < ga.level, i < gb.level) {
                    (true, true) => sort_order(
                        &a[i..=i],
                        &b[i..=i],
                        &[KeyOrder::of(&self.group_by[i], false)],
                    ),
                    // A rolled-up key comes after every value.
                    (true, false) => std::cmp::Ordering::Less,
                    (false, true) => std::cmp::Ordering::Greater,
                    (false, false) => std::cmp::Ordering::Equal,
                };
                if o != std::cmp::Ordering::Equal {
                    return o;
                }
            }
            std::cmp::Ordering::Equal
        });
        list.extend(keyed.into_iter().map(|(_, g)| g));
        Ok(())
    }

    /// [`scan`](Self::scan) with a row handler that can fail: `Ok(false)`
    /// stops the scan, an error stops it and is returned.
    fn scan_fallible(
        &self,
        params: &[Value],
        cx: &RunContext<'_>,
        table_run: Option<&TableRun>,
        f: &mut dyn FnMut(&SourceRow<'_>) -> Result<bool>,
    ) -> Result<()> {
        let mut err = None;
        self.scan(params, cx, table_run, &mut |row| match f(row) {
            Ok(more) => more,
            Err(e) => {
                err = Some(e);
                false
            }
        })?;
        err.map_or(Ok(()), Err)
    }

    /// Feeds the rows that pass the WHERE clause to `f` until it says stop.
    /// `table_run` is the table source's plan for this execution.
    fn scan(
        &self,
        params: &[Value],
        cx: &RunContext<'_>,
        table_run: Option<&TableRun>,
        f: &mut dyn FnMut(&SourceRow<'_>) -> bool,
    ) -> Result<()> {
        match (&self.source, table_run) {
            (Source::Table(ts), Some(run)) => {
                // Rows may come in primary-key order when nothing depends on order.
                let unordered = self.aggregate && self.group_by.is_empty();
                scan_table(ts, run, params, cx, unordered, f)
            }
            (source, _) => scan_other(source, self.filter.as_ref(), params, cx, f),
        }
    }
}

/// The expressions a join's steps evaluate.
fn join_exprs(join: &JoinPlan) -> impl Iterator<Item = &Expr> {
    join.steps.iter().flat_map(|s| {
        let filter = match &s.input {
            StepInput::Table { filter, .. } | StepInput::Rows { filter, .. } => filter,
        };
        filter.iter().chain(&s.on).chain(&s.after)
    })
}

/// The groups of several threads as one; the first error one met, or
/// 1317 when the statement was killed meanwhile.
fn merge_groups(
    states: impl Iterator<Item = (Groups, Option<SqlError>)>,
    cx: &RunContext<'_>,
) -> Result<Groups> {
    let mut merged = Groups::default();
    for (groups, err) in states {
        if let Some(e) = err {
            return Err(e);
        }
        merged.merge(groups)?;
    }
    if cx.stop.get() {
        return Err(SqlError::interrupted());
    }
    Ok(merged)
}

/// Feeds the rows of `source` that pass `filter` to `f` until it says stop.
fn scan_source(
    source: &Source,
    filter: Option<&Expr>,
    params: &[Value],
    cx: &RunContext<'_>,
    unordered: bool,
    f: &mut dyn FnMut(&SourceRow<'_>) -> bool,
) -> Result<()> {
    match source {
        Source::Table(ts) => {
            let run = access_for_run(ts, filter, params)?;
            scan_table(ts, &run, params, cx, unordered, f)
        }
        other => scan_other(other, filter, params, cx, f),
    }
}

/// Wraps a row handler with the stop flag's check and a filter; an error
/// stops the scan and is kept.
struct Filtered<'f, 'e> {
    filter: Option<Filter<'f>>,
    env: Env<'e>,
    stop: &'f SharedFlag,
    /// Rows offered (the stop flag is checked every 1024).
    seen: u64,
    err: Option<SqlError>,
}

impl<'f> Filtered<'f, 'f> {
    /// Rows of a read under `cx` through `filter` (None: all pass).
    fn new(filter: Option<Filter<'f>>, cx: &'f RunContext<'_>, params: &'f [Value]) -> Self {
        Filtered {
            filter,
            env: cx.env(params),
            stop: cx.stop,
            seen: 0,
            err: None,
        }
    }
}

impl Filtered<'_, '_> {
    #[inline(always)]
    fn pass(&mut self, row: &SourceRow<'_>, f: &mut dyn FnMut(&SourceRow<'_>) -> bool) -> bool {
        self.seen = self.seen.wrapping_add(1);
        if self.seen.is_multiple_of(1024) && self.stop.get() {
            self.err = Some(SqlError::interrupted());
            return false;
        }
        if let Some(filter) = self.filter {
            match row.passes(filter, self.env) {
                Ok(true) => {}
                Ok(false) => return true,
                Err(e) => {
                    self.err = Some(e);
                    return false;
                }
            }
        }
        f(row)
    }

    fn finish(self) -> Result<()> {
        match self.err {
            Some(e) => Err(e),
            None if self.stop.get() => Err(SqlError::interrupted()),
            None => Ok(()),
        }
    }
}

/// A stored table's rows through `run` (its ranges, access path and
/// per-row filter for this execution).
fn scan_table(
    ts: &TableSource,
    run: &TableRun,
    params: &[Value],
    cx: &RunContext<'_>,
    unordered: bool,
    f: &mut dyn FnMut(&SourceRow<'_>) -> bool,
) -> Result<()> {
    match cx.analyze {
        Some(stats) => measured(stats, node_of(ts), f, |f| {
            scan_table_rows(ts, run, params, cx, unordered, f)
        }),
        None => scan_table_rows(ts, run, params, cx, unordered, f).map(|_| ()),
    }
}

/// Runs `read` of plan node `node` for ANALYZE, counting the rows it
/// hands to `f` and the time it takes outside `f`; `read` returns the rows
/// it read before its own conditions.
fn measured(
    stats: &analyze::AnalyzeStats,
    node: usize,
    f: &mut dyn FnMut(&SourceRow<'_>) -> bool,
    read: impl FnOnce(&mut dyn FnMut(&SourceRow<'_>) -> bool) -> Result<u64>,
) -> Result<()> {
    let start = std::time::Instant::now();
    let mut passed = 0u64;
    let mut inside = std::time::Duration::ZERO;
    let rows = read(&mut |row: &SourceRow<'_>| {
        passed += 1;
        let at = std::time::Instant::now();
        let go = f(row);
        inside += at.elapsed();
        go
    })?;
    stats.record(node, rows, passed, start.elapsed().saturating_sub(inside));
    Ok(())
}

/// Where `ANALYZE` counts the reads of a plan node (EXPLAIN's lines name
/// the same).
pub(crate) fn node_of<T>(node: &T) -> usize {
    node as *const T as usize
}

/// [`scan_table`]'s rows; the rows read, before the filter.
fn scan_table_rows(
    ts: &TableSource,
    run: &TableRun,
    params: &[Value],
    cx: &RunContext<'_>,
    unordered: bool,
    f: &mut dyn FnMut(&SourceRow<'_>) -> bool,
) -> Result<u64> {
    // Only the conjuncts the key ranges do not guarantee are evaluated per row.
    let mut w = Filtered::new(run.filter.as_ref().map(Filter::Table), cx, params);
    let mut pass = |row: &SourceRow<'_>| w.pass(row, f);
    for r in &run.ranges {
        let go = if run.points {
            point_lookup(cx.view, ts, run.access, r, &mut pass)?
        } else {
            scan_range(cx.view, ts, run.access, unordered, r, &mut pass)?
        };
        if !go {
            break;
        }
    }
    let seen = w.seen;
    w.finish().map(|()| seen)
}

/// Rows of a source other than a stored table, through `filter`.
fn scan_other(
    source: &Source,
    filter: Option<&Expr>,
    params: &[Value],
    cx: &RunContext<'_>,
    f: &mut dyn FnMut(&SourceRow<'_>) -> bool,
) -> Result<()> {
    match (cx.analyze, source) {
        // (A join's and a table's reads count themselves.)
        (Some(stats), source) if !matches!(source, Source::Join(_) | Source::Table(_)) => {
            measured(stats, node_of(source), f, |f| {
                scan_other_rows(source, filter, params, cx, f)
            })
        }
        _ => scan_other_rows(source, filter, params, cx, f).map(|_| ()),
    }
}

/// [`scan_other`]'s rows; the rows read, before the filter.
fn scan_other_rows(
    source: &Source,
    filter: Option<&Expr>,
    params: &[Value],
    cx: &RunContext<'_>,
    f: &mut dyn FnMut(&SourceRow<'_>) -> bool,
) -> Result<u64> {
    let mut w = Filtered::new(filter.map(Filter::Expr), cx, params);
    match source {
        Source::Nothing => {
            w.pass(&SourceRow::Values(&[]), f);
        }
        Source::Rows(rows) | Source::Information(InformationSource { rows, .. }) => {
            for r in rows {
                if !w.pass(&SourceRow::Values(r), f) {
                    break;
                }
            }
        }
        Source::System(t, engine, registry) => {
            for r in &t.rows(engine, registry) {
                if !w.pass(&SourceRow::Values(r), f) {
                    break;
                }
            }
        }
        Source::Derived(inner) => {
            // (A big aggregate inside may run on several threads.)
            let mut rows = crate::result::CollectSink::default();
            inner.run(
                params,
                &RunContext {
                    rows_kept: true,
                    ..*cx
                },
                &mut rows,
            )?;
            for r in &rows.rows {
                if !w.pass(&SourceRow::Values(r), f) {
                    break;
                }
            }
        }
        Source::Recursive(plan) => {
            for r in &recursive::run_recursive(plan, params, cx)? {
                if !w.pass(&SourceRow::Values(r), f) {
                    break;
                }
            }
        }
        Source::WorkTable(rows) => {
            let rows = rows.rows.lock().clone();
            for r in &rows {
                if !w.pass(&SourceRow::Values(r), f) {
                    break;
                }
            }
        }
        Source::Join(plan) => {
            join::run_join(plan, params, cx, &mut |row| {
                Ok(w.pass(&SourceRow::Values(row), f))
            })?;
        }
        Source::Table(ts) => {
            let run = access_for_run(ts, filter, params)?;
            // (Counted by `scan_table` under ANALYZE.)
            return scan_table(ts, &run, params, cx, false, f).map(|()| 0);
        }
    }
    let seen = w.seen;
    w.finish().map(|()| seen)
}

/// How a plan runs: the KILL QUERY flag it watches and the threads a big
/// scan may use (the session's `lineardb_parallel_threads`).
pub(crate) struct RunContext<'a> {
    pub stop: &'a SharedFlag,
    /// The snapshot the plan reads.
    pub view: &'a ReadView,
    pub threads: usize,
    /// Fewest rows (estimated from the tree) worth a parallel scan.
    pub min_rows: u64,
    /// Counts the scans that ran in parallel (the session's own counter).
    pub parallel_scans: Option<&'a LocalCounter>,
    /// Counts the rows written to spill files (the session's own counter).
    pub spilled_rows: Option<&'a LocalCounter>,
    /// Bytes a query may hold in rows for ORDER BY and DISTINCT, in groups
    /// (per thread) and in a join's hash tables — `lineardb_query_memory`;
    /// beyond it sorts, groups, DISTINCT, hash joins, set operations and
    /// window functions spill to files, a nested loop reads its table
    /// again for every row, and what cannot spill (one window partition,
    /// a recursive CTE's rows) fails cleanly rather than take the server's
    /// memory.
    pub memory: usize,
    /// Subquery results kept for this execution (set by the outermost
    /// run).
    pub subqueries: Option<&'a SubqueryCache>,
    /// Whoever runs the plan keeps all its rows (a subquery's, a derived
    /// table's): a big scan may gather them on several threads first.
    pub rows_kept: bool,
    /// `ANALYZE <statement>`: where each table read counts what it did
    /// (the plan then runs on one thread).
    pub analyze: Option<&'a analyze::AnalyzeStats>,
}

impl RunContext<'_> {
    /// The evaluation environment for `params`, with this context running
    /// subqueries.
    pub(crate) fn env<'e>(&'e self, params: &'e [Value]) -> Env<'e> {
        Env {
            params,
            aggs: &[],
            subqueries: Some(self),
        }
    }
}

impl QueryPlan {
    /// Runs the query, sending columns and rows to `sink`.
    pub fn run(&self, params: &[Value], cx: &RunContext<'_>, sink: &mut dyn RowSink) -> Result<()> {
        if cx.subqueries.is_none() {
            let cache = SubqueryCache::default();
            let cx = RunContext {
                subqueries: Some(&cache),
                ..*cx
            };
            return self.run(params, &cx, sink);
        }
        match self {
            QueryPlan::Select(s) => s.run(params, cx, sink),
            QueryPlan::SetOp(s) => s.run(params, cx, sink),
        }
    }
}

/// Reads the one row of a point range (a whole key of the primary key or
/// of a unique index) by a point lookup, handing it to `pass`; returns
/// whether to go on.
fn point_lookup(
    view: &ReadView,
    ts: &TableSource,
    access: Access,
    r: &KeyRange,
    pass: &mut dyn FnMut(&SourceRow<'_>) -> bool,
) -> Result<bool> {
    let t = &ts.table;
    let visit = |row: lineardb_table::RowRef<'_>| pass(&SourceRow::Row(row));
    let go = match access.index() {
        None => t.with_row(view, &r.start, visit)?,
        Some(i) => t.with_unique_row(view, i, &r.start, visit)?,
    };
    Ok(go.unwrap_or(true))
}

/// Scans one key range of `ts` through `access`, handing each row to
/// `pass` until it returns false; returns whether to go on.
fn scan_range(
    view: &ReadView,
    ts: &TableSource,
    access: Access,
    unordered: bool,
    r: &KeyRange,
    pass: &mut dyn FnMut(&SourceRow<'_>) -> bool,
) -> Result<bool> {
    let t = &ts.table;
    let mut go = true;
    match access {
        Access::Primary => t.scan_primary(view, r, |_, row| {
            go = pass(&SourceRow::Row(row));
            go
        })?,
        Access::NonCovering(i) if unordered => t.scan_index_rows_unordered(view, i, r, |row| {
            go = pass(&SourceRow::Row(row));
            go
        })?,
        Access::NonCovering(i) => t.scan_index_rows(view, i, r, |row| {
            go = pass(&SourceRow::Row(row));
            go
        })?,
        Access::Covering(i) => {
            // Only the columns the query reads are decoded.
            let mut vals = vec![Value::Null; t.def().columns.len()];
            t.scan_index(view, i, r, |e| {
                for &c in &ts.fetch {
                    vals[c] = e.column(c).unwrap_or(Value::Null);
                }
                go = pass(&SourceRow::Values(&vals));
                go
            })?
        }
    }
    Ok(go)
}
