//! Running a join pipeline: step by step over one joined-row buffer, each
//! step finding the matches of its item for the row the steps before made
//! (by index lookup, hash table or nested loop), NULL-extending an outer
//! step that found none, letting a semi (anti) step's row on once when it
//! found a match (none), and handing complete rows on.
use super::access::access_for_run;
use super::memory::{over_budget, value_bytes};
use super::{scan_source, RunContext, SourceRow};
use crate::error::{Result, SqlError};
use crate::expr::row_key::{encode_value, KeyMap};
use crate::expr::{compare, truth_of, Env, Row};
use crate::planner::plan::{JoinKind, JoinPlan, JoinStep, JoinStrategy, StepInput};
use lineardb_table::Value;
use std::cmp::Ordering;
use std::sync::OnceLock;

/// What a step read once and keeps for every row before it (made when
/// first needed, or before the rows come on several threads).
enum Kept {
    Rows(Vec<Vec<Value>>),
    /// Rows by the encoding of their hash-key values.
    Hashed(KeyMap<Vec<Vec<Value>>>),
}

/// A row of one item read as the joined row it will be part of.
struct Placed<'r> {
    row: &'r [Value],
    offset: usize,
}

impl Row for Placed<'_> {
    fn get(&self, col: usize) -> Value {
        col.checked_sub(self.offset)
            .and_then(|c| self.row.get(c))
            .cloned()
            .unwrap_or(Value::Null)
    }
}

/// Runs `plan`, handing each joined row to `f` until it says stop.
pub(crate) fn run_join(
    plan: &JoinPlan,
    params: &[Value],
    cx: &RunContext<'_>,
    f: &mut dyn FnMut(&[Value]) -> Result<bool>,
) -> Result<()> {
    let kept: Vec<OnceLock<Kept>> = plan.steps.iter().map(|_| OnceLock::new()).collect();
    let mut buf = vec![Value::Null; plan.width];
    let mut run = JoinRun::new(plan, params, cx, plan.steps.len());
    run.step(0, &mut buf, &kept, f)?;
    Ok(())
}

/// What the hash and nested-loop steps read once, made before threads
/// that each join part of the rows share them.
pub(crate) struct SharedSteps {
    kept: Vec<OnceLock<Kept>>,
}

impl SharedSteps {
    /// Nothing read yet.
    pub(crate) fn new(plan: &JoinPlan) -> SharedSteps {
        SharedSteps {
            kept: plan.steps.iter().map(|_| OnceLock::new()).collect(),
        }
    }

    /// Reads the items of the hash and nested-loop steps from `from` on.
    pub(crate) fn read_from(
        &self,
        plan: &JoinPlan,
        params: &[Value],
        cx: &RunContext<'_>,
        from: usize,
    ) -> Result<()> {
        let mut run = JoinRun::new(plan, params, cx, plan.steps.len());
        for (step, cell) in plan.steps.iter().zip(&self.kept).skip(from) {
            run.make_kept(step, cell)?;
        }
        Ok(())
    }
}

/// Runs the steps before `upto` (reading what they keep into `shared`),
/// handing each row they make (the columns of later steps NULL) to `f`
/// until it says stop.
pub(crate) fn join_prefix(
    plan: &JoinPlan,
    params: &[Value],
    cx: &RunContext<'_>,
    shared: &SharedSteps,
    upto: usize,
    f: &mut dyn FnMut(&[Value]) -> Result<bool>,
) -> Result<()> {
    let mut buf = vec![Value::Null; plan.width];
    let mut run = JoinRun::new(plan, params, cx, upto);
    run.step(0, &mut buf, &shared.kept, f)?;
    Ok(())
}

/// Runs the steps from `from` on for a row the steps before made (in
/// `buf`), handing each joined row to `f`; false when `f` said stop.
pub(crate) fn join_from(
    plan: &JoinPlan,
    params: &[Value],
    cx: &RunContext<'_>,
    shared: &SharedSteps,
    from: usize,
    buf: &mut Vec<Value>,
    f: &mut dyn FnMut(&[Value]) -> Result<bool>,
) -> Result<bool> {
    let mut run = JoinRun::new(plan, params, cx, plan.steps.len());
    run.step(from, buf, &shared.kept[from..], f)
}

/// Runs the steps after the first for a row of the first step's item
/// (its columns in place in `buf`, a row of `plan.width`), handing each
/// joined row to `f`; false when `f` said stop.
pub(crate) fn join_first_row(
    plan: &JoinPlan,
    params: &[Value],
    cx: &RunContext<'_>,
    shared: &SharedSteps,
    buf: &mut Vec<Value>,
    f: &mut dyn FnMut(&[Value]) -> Result<bool>,
) -> Result<bool> {
    let mut run = JoinRun::new(plan, params, cx, plan.steps.len());
    let first = &plan.steps[0];
    let env = run.env();
    for e in &first.on {
        if truth_of(&e.eval(&buf[..], env)?) != Some(true) {
            return Ok(true);
        }
    }
    run.after(0, first, buf, &shared.kept[1..], f)
}

struct JoinRun<'a> {
    plan: &'a JoinPlan,
    params: &'a [Value],
    cx: &'a RunContext<'a>,
    /// Bytes the steps keep, against the query's budget.
    memory: usize,
    /// The rows reaching this step go to the caller (the steps from here
    /// on run elsewhere).
    stop_at: usize,
}

impl<'a> JoinRun<'a> {
    /// A run of `plan`'s steps before `stop_at` (the rows reaching it go
    /// to the caller).
    fn new(
        plan: &'a JoinPlan,
        params: &'a [Value],
        cx: &'a RunContext<'a>,
        stop_at: usize,
    ) -> JoinRun<'a> {
        JoinRun {
            plan,
            params,
            cx,
            memory: 0,
            stop_at,
        }
    }

    fn env(&self) -> Env<'a> {
        Env {
            params: self.params,
            aggs: &[],
            subqueries: Some(self.cx),
        }
    }

    /// Runs step `k` and those after it for the row in `buf` (`kept`
    /// holds the states of steps `k..`); false when no more rows are
    /// wanted.
    fn step(
        &mut self,
        k: usize,
        buf: &mut Vec<Value>,
        kept: &[OnceLock<Kept>],
        f: &mut dyn FnMut(&[Value]) -> Result<bool>,
    ) -> Result<bool> {
        let plan = self.plan;
        let Some(step) = plan.steps.get(k).filter(|_| k < self.stop_at) else {
            return f(buf);
        };
        let (mine, later) = kept.split_first().expect("a state per step");
        let mut matched = false;
        // A semi or anti join wants to know of one match only.
        let first_match_only = matches!(step.kind, JoinKind::Semi | JoinKind::Anti);
        // One candidate, its columns in `buf`: checked, then the steps
        // after (false: read no more candidates).
        let mut go_on = true;
        let mut candidate = |this: &mut Self, buf: &mut Vec<Value>| -> Result<bool> {
            let env = this.env();
            for e in &step.on {
                if truth_of(&e.eval(&buf[..], env)?) != Some(true) {
                    return Ok(true);
                }
            }
            matched = true;
            if first_match_only {
                return Ok(false);
            }
            this.after(k, step, buf, later, f)
        };
        match step.strategy {
            JoinStrategy::Scan | JoinStrategy::Lookup => {
                // Read the item now, for this row (a lookup's filter reads
                // the joined row as parameters).
                let params: Vec<Value>;
                let run_params: &[Value] = match &step.input {
                    StepInput::Table {
                        correlated: true, ..
                    } => {
                        params = self.params.iter().chain(buf.iter()).cloned().collect();
                        &params
                    }
                    _ => self.params,
                };
                let rows =
                    self.read(step, run_params, buf, &mut |this, buf| candidate(this, buf))?;
                go_on = rows;
            }
            JoinStrategy::Hash => {
                let Kept::Hashed(table) = self.make_kept(step, mine)? else {
                    unreachable!("a hash step keeps a hash table")
                };
                let env = self.env();
                let mut key = Vec::new();
                let mut probe = Vec::with_capacity(step.hash_keys.len());
                let mut null = false;
                for (p, _) in &step.hash_keys {
                    let v = p.eval(&buf[..], env)?;
                    null |= !encode_value(&v, &mut key);
                    probe.push(v);
                }
                if !null {
                    if let Some(rows) = table.get(&key) {
                        for row in rows {
                            buf[step.offset..step.offset + step.width].clone_from_slice(row);
                            // Equal keys, equal values: checked again.
                            let mut equal = true;
                            for ((_, b), p) in step.hash_keys.iter().zip(&probe) {
                                let v = b.eval(&buf[..], env)?;
                                equal &= compare(p, &v) == Some(Ordering::Equal);
                            }
                            if equal && !candidate(self, buf)? {
                                go_on = false;
                                break;
                            }
                        }
                    }
                }
            }
            JoinStrategy::NestedLoop => {
                let Kept::Rows(rows) = self.make_kept(step, mine)? else {
                    unreachable!("a nested loop keeps rows")
                };
                for row in rows.iter() {
                    buf[step.offset..step.offset + step.width].clone_from_slice(row);
                    if !candidate(self, buf)? {
                        go_on = false;
                        break;
                    }
                }
            }
        }
        match step.kind {
            // (A false from the reads above only ended the search.)
            JoinKind::Semi if matched => self.after(k, step, buf, later, f),
            JoinKind::Anti if !matched => self.after(k, step, buf, later, f),
            JoinKind::Semi | JoinKind::Anti => Ok(true),
            _ if !go_on => Ok(false),
            JoinKind::LeftOuter if !matched => {
                for v in &mut buf[step.offset..step.offset + step.width] {
                    *v = Value::Null;
                }
                self.after(k, step, buf, later, f)
            }
            JoinKind::Inner | JoinKind::LeftOuter => Ok(true),
        }
    }

    /// A matched (or NULL-extended) row of step `k`: its WHERE conjuncts,
    /// then the steps after.
    fn after(
        &mut self,
        k: usize,
        step: &JoinStep,
        buf: &mut Vec<Value>,
        later: &[OnceLock<Kept>],
        f: &mut dyn FnMut(&[Value]) -> Result<bool>,
    ) -> Result<bool> {
        let env = self.env();
        for e in &step.after {
            if truth_of(&e.eval(&buf[..], env)?) != Some(true) {
                return Ok(true);
            }
        }
        self.step(k + 1, buf, later, f)
    }

    /// Reads step's item for the current row, putting each row's columns
    /// in `buf` and calling `each`; false when `each` said stop.
    fn read(
        &mut self,
        step: &JoinStep,
        params: &[Value],
        buf: &mut Vec<Value>,
        each: &mut dyn FnMut(&mut Self, &mut Vec<Value>) -> Result<bool>,
    ) -> Result<bool> {
        let cx = self.cx;
        let (offset, width) = (step.offset, step.width);
        let mut go = true;
        let mut err = None;
        // The columns a read fills: a table's, those the query reads.
        let every: Vec<usize>;
        let columns: &[usize] = match &step.input {
            StepInput::Table { source, .. } => &source.fetch,
            StepInput::Rows { .. } => {
                every = (0..width).collect();
                &every
            }
        };
        let mut visit = |row: &SourceRow<'_>| {
            for &c in columns {
                buf[offset + c] = row.get(c);
            }
            match each(self, buf) {
                Ok(true) => true,
                Ok(false) => {
                    go = false;
                    false
                }
                Err(e) => {
                    err = Some(e);
                    false
                }
            }
        };
        match &step.input {
            StepInput::Table { source, filter, .. } => {
                let run = access_for_run(source, filter.as_ref(), params)?;
                super::scan_table(source, &run, params, cx, false, &mut visit)?;
            }
            StepInput::Rows { source, filter } => {
                scan_source(source, filter.as_ref(), params, cx, false, &mut visit)?;
            }
        }
        match err {
            Some(e) => Err(e),
            None => Ok(go),
        }
    }

    /// What a hash or nested-loop step keeps, read on first use.
    fn make_kept<'k>(&mut self, step: &JoinStep, cell: &'k OnceLock<Kept>) -> Result<&'k Kept> {
        if let Some(kept) = cell.get() {
            return Ok(kept);
        }
        let kept = match step.strategy {
            JoinStrategy::Hash => Kept::Hashed(self.build_hash(step)?),
            JoinStrategy::NestedLoop => {
                let mut rows = Vec::new();
                self.read_all(step, &mut |row| {
                    rows.push(row);
                    Ok(())
                })?;
                Kept::Rows(rows)
            }
            // Read per row: nothing kept.
            JoinStrategy::Scan | JoinStrategy::Lookup => Kept::Rows(Vec::new()),
        };
        Ok(cell.get_or_init(|| kept))
    }

    /// Every row of step's item (its own filter applied), once.
    fn read_all(
        &mut self,
        step: &JoinStep,
        keep: &mut dyn FnMut(Vec<Value>) -> Result<()>,
    ) -> Result<()> {
        let mut buf = vec![Value::Null; self.plan.width];
        let (offset, width) = (step.offset, step.width);
        let budget = self.cx.memory;
        let params = self.params;
        self.read(step, params, &mut buf, &mut |this, buf| {
            let row = buf[offset..offset + width].to_vec();
            this.memory += row.iter().map(value_bytes).sum::<usize>() + 24;
            if this.memory > budget {
                return Err(over_budget("a join", budget));
            }
            keep(row)?;
            Ok(true)
        })?;
        Ok(())
    }

    /// The hash table of step's item: rows by their key values (rows with
    /// a NULL key are left out: they match nothing).
    fn build_hash(&mut self, step: &JoinStep) -> Result<KeyMap<Vec<Vec<Value>>>> {
        let mut table: KeyMap<Vec<Vec<Value>>> = KeyMap::default();
        let env = Env::new(self.params);
        let offset = step.offset;
        let mut err: Option<SqlError> = None;
        self.read_all(step, &mut |row| {
            let placed = Placed { row: &row, offset };
            let mut key = Vec::new();
            for (_, b) in &step.hash_keys {
                let v = match b.eval(&placed, env) {
                    Ok(v) => v,
                    Err(e) => {
                        err = Some(e);
                        return Ok(());
                    }
                };
                if !encode_value(&v, &mut key) {
                    return Ok(());
                }
            }
            table.entry(key).or_default().push(row);
            Ok(())
        })?;
        match err {
            Some(e) => Err(e),
            None => Ok(table),
        }
    }
}
