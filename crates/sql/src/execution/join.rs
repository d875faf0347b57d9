//! Running a join pipeline: step by step over one joined-row buffer, each
//! step finding the matches of its item for the row the steps before made
//! (by index lookup, hash table or nested loop), NULL-extending an outer
//! step that found none, letting a semi (anti) step's row on once when it
//! found a match (none), and handing complete rows on.
use super::access::access_for_run;
use super::memory::{over_budget, value_bytes};
use super::spill::file::SpillReader;
use super::spill::partition::Partitions;
use super::{scan_source, RunContext, SourceRow};
use crate::error::Result;
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
    /// A hash step's rows went to partition files (the run holds them).
    Spilled,
    /// A nested loop's rows do not fit the budget: read for every row.
    Reread,
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
    run.may_spill = true;
    if run.step(0, &mut buf, &kept, f)? {
        run.join_spilled(&kept, f)?;
    }
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
        for (k, (step, cell)) in plan.steps.iter().zip(&self.kept).enumerate().skip(from) {
            run.make_kept(k, step, cell)?;
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
    /// Whether a hash step over the budget may go to files (only a run of
    /// the whole join on one thread may; threads that share the steps
    /// give way to one thread instead).
    may_spill: bool,
    /// The hash steps that went to files, by step: their rows and the rows
    /// that probe them, joined once the steps before have run.
    spilled: Vec<Option<HashSpill>>,
}

/// A hash step past the budget: its item's rows and the rows reaching the
/// step (the columns of the steps before), in partitions by key.
struct HashSpill {
    build: Partitions,
    probe: Partitions,
}

/// What one candidate found by a step's read goes through (its ON
/// conditions, then the steps after); false: read no more candidates.
type Candidate<'c, 'a> = dyn FnMut(&mut JoinRun<'a>, &mut Vec<Value>) -> Result<bool> + 'c;

/// How a step's candidates for one row are found: each goes to the
/// candidate handler given; false when it said stop.
type Find<'c, 'a> =
    dyn FnMut(&mut JoinRun<'a>, &mut Vec<Value>, &mut Candidate<'_, 'a>) -> Result<bool> + 'c;

/// How many times a partition past the budget is cut again before the
/// join gives up (rows of one key that do not fit stay together).
const MAX_CUTS: u64 = 3;

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
            may_spill: false,
            spilled: plan.steps.iter().map(|_| None).collect(),
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
        match step.strategy {
            JoinStrategy::Scan | JoinStrategy::Lookup => {
                let mut find =
                    |this: &mut Self, buf: &mut Vec<Value>, c: &mut Candidate<'_, 'a>| {
                        this.read_for_row(step, buf, c)
                    };
                self.match_rows(k, buf, later, f, &mut find, Pass::Whole)
            }
            JoinStrategy::Hash => {
                let kept = self.make_kept(k, step, mine)?;
                let key = self.probe_key(step, buf)?;
                match (kept, key) {
                    (Kept::Hashed(table), Some(key)) => {
                        let mut find =
                            |this: &mut Self, buf: &mut Vec<Value>, c: &mut Candidate<'_, 'a>| {
                                this.probe(step, table, &key, buf, c)
                            };
                        self.match_rows(k, buf, later, f, &mut find, Pass::Whole)
                    }
                    // The row waits in the key's partition.
                    (Kept::Spilled, Some(key)) => {
                        let spill = self.spilled[k].as_mut().expect("spilled step");
                        let before: Vec<Value> = self.plan.steps[..k]
                            .iter()
                            .flat_map(|s| buf[s.offset..s.offset + s.width].iter().cloned())
                            .collect();
                        spill.probe.write(&key, &before)?;
                        Ok(true)
                    }
                    // A NULL key matches nothing.
                    (_, None) => {
                        self.match_rows(k, buf, later, f, &mut |_, _, _| Ok(true), Pass::Whole)
                    }
                    (Kept::Rows(_) | Kept::Reread, Some(_)) => {
                        unreachable!("a hash step keeps a hash table")
                    }
                }
            }
            JoinStrategy::NestedLoop => match self.make_kept(k, step, mine)? {
                Kept::Rows(rows) => {
                    let mut find =
                        |this: &mut Self, buf: &mut Vec<Value>, c: &mut Candidate<'_, 'a>| {
                            for row in rows.iter() {
                                buf[step.offset..step.offset + step.width].clone_from_slice(row);
                                if !c(this, buf)? {
                                    return Ok(false);
                                }
                            }
                            Ok(true)
                        };
                    self.match_rows(k, buf, later, f, &mut find, Pass::Whole)
                }
                // Too big to keep: read again for every row.
                Kept::Reread => {
                    let mut find =
                        |this: &mut Self, buf: &mut Vec<Value>, c: &mut Candidate<'_, 'a>| {
                            let params = this.params;
                            this.read(step, params, buf, c)
                        };
                    self.match_rows(k, buf, later, f, &mut find, Pass::Whole)
                }
                Kept::Hashed(_) | Kept::Spilled => unreachable!("a nested loop keeps rows"),
            },
        }
    }

    /// Step `k` for the row in `buf`, its candidates (those of `pass`)
    /// found by `find` (false from `find`: the candidates it handed on
    /// said stop): each candidate meeting the ON conditions goes on to the
    /// steps after; an outer step with no match NULL-extends the row, a
    /// semi (anti) step lets it on once when something (nothing) matched.
    fn match_rows(
        &mut self,
        k: usize,
        buf: &mut Vec<Value>,
        later: &[OnceLock<Kept>],
        f: &mut dyn FnMut(&[Value]) -> Result<bool>,
        find: &mut Find<'_, 'a>,
        pass: Pass<'_>,
    ) -> Result<bool> {
        let step = &self.plan.steps[k];
        let (matched_before, last) = match &pass {
            Pass::Whole => (false, true),
            Pass::Part { matched, last } => (**matched, *last),
        };
        // A semi or anti step is decided by its first match.
        let first_match_only = matches!(step.kind, JoinKind::Semi | JoinKind::Anti);
        if first_match_only && matched_before {
            return Ok(true);
        }
        let mut matched = false;
        let go_on = find(self, buf, &mut |this, buf| {
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
        })?;
        if let Pass::Part { matched: m, .. } = pass {
            *m |= matched;
        }
        let matched_ever = matched || matched_before;
        match step.kind {
            // (A false from the reads above only ended the search.)
            JoinKind::Semi if matched => self.after(k, step, buf, later, f),
            JoinKind::Anti if last && !matched_ever => self.after(k, step, buf, later, f),
            JoinKind::Semi | JoinKind::Anti => Ok(true),
            _ if !go_on => Ok(false),
            JoinKind::LeftOuter if last && !matched_ever => {
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

    /// Reads a scan or lookup step's item for the row in `buf` (a lookup's
    /// filter reads the joined row as parameters).
    fn read_for_row(
        &mut self,
        step: &JoinStep,
        buf: &mut Vec<Value>,
        candidate: &mut Candidate<'_, 'a>,
    ) -> Result<bool> {
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
        self.read(step, run_params, buf, candidate)
    }

    /// The hash key of the row in `buf` for `step`; None when a key value
    /// is NULL (it matches nothing).
    fn probe_key(&self, step: &JoinStep, buf: &[Value]) -> Result<Option<Vec<u8>>> {
        let env = self.env();
        let mut key = Vec::new();
        for (p, _, collation) in &step.hash_keys {
            if !encode_value(&p.eval(buf, env)?, *collation, &mut key) {
                return Ok(None);
            }
        }
        Ok(Some(key))
    }

    /// Hands the rows of `table` under `key` (the row in `buf`'s) to
    /// `candidate`, each in its place in `buf`; false when it said stop.
    fn probe(
        &mut self,
        step: &JoinStep,
        table: &KeyMap<Vec<Vec<Value>>>,
        key: &[u8],
        buf: &mut Vec<Value>,
        candidate: &mut Candidate<'_, 'a>,
    ) -> Result<bool> {
        let Some(rows) = table.get(key) else {
            return Ok(true);
        };
        let env = self.env();
        let probe = step
            .hash_keys
            .iter()
            .map(|(p, ..)| p.eval(&buf[..], env))
            .collect::<Result<Vec<Value>>>()?;
        for row in rows {
            buf[step.offset..step.offset + step.width].clone_from_slice(row);
            // Equal keys, equal values: checked again.
            let mut equal = true;
            for ((_, b, collation), p) in step.hash_keys.iter().zip(&probe) {
                let v = b.eval(&buf[..], env)?;
                equal &= compare(p, &v, *collation) == Some(Ordering::Equal);
            }
            if equal && !candidate(self, buf)? {
                return Ok(false);
            }
        }
        Ok(true)
    }

    /// Joins the hash steps that went to files, first to last (a row of
    /// one may go on to a later one's files): partition by partition, the
    /// item's rows of the partition into a hash table, then the rows that
    /// probe it; false when no more rows are wanted.
    fn join_spilled(
        &mut self,
        kept: &[OnceLock<Kept>],
        f: &mut dyn FnMut(&[Value]) -> Result<bool>,
    ) -> Result<bool> {
        for k in 0..self.plan.steps.len() {
            let Some(spill) = self.spilled[k].take() else {
                continue;
            };
            if let Some(c) = self.cx.spilled_rows {
                c.add(spill.build.rows() + spill.probe.rows());
            }
            let mut pending: Vec<Pending> = Vec::new();
            push_partitions(&mut pending, 0, spill)?;
            while let Some(partition) = pending.pop() {
                if !self.join_partition(k, partition, &mut pending, &kept[k + 1..], f)? {
                    return Ok(false);
                }
            }
        }
        Ok(true)
    }

    /// Joins one partition of spilled hash step `k`: its item's rows into
    /// a hash table, then its probe rows through it. A partition past the
    /// budget is cut again (onto `pending`); one that cannot be (cut
    /// `MAX_CUTS` times, or its rows share one key) is joined a budget's
    /// worth of its item's rows at a time, the probe rows read once for
    /// each, remembering which found a match (for outer, semi and anti
    /// steps). False when no more rows are wanted.
    fn join_partition(
        &mut self,
        k: usize,
        (cuts, build, probe): Pending,
        pending: &mut Vec<Pending>,
        later: &[OnceLock<Kept>],
        f: &mut dyn FnMut(&[Value]) -> Result<bool>,
    ) -> Result<bool> {
        let Some(mut probe) = probe else {
            // Nothing probes these rows.
            return Ok(true);
        };
        let step = &self.plan.steps[k];
        let mut build = build;
        let mut buf = vec![Value::Null; self.plan.width];
        // Which probe rows found a match in earlier parts (by position).
        let mut matched: Vec<bool> = Vec::new();
        let mut first_part = true;
        loop {
            let mut table: KeyMap<Vec<Vec<Value>>> = KeyMap::default();
            let mut bytes = 0;
            let mut more = false;
            if let Some(build) = &mut build {
                while let Some((key, row)) = build.next_keyed()? {
                    bytes += row_bytes(&row);
                    table.entry(key).or_default().push(row);
                    if self.memory + bytes > self.cx.memory {
                        more = true;
                        break;
                    }
                }
            }
            if more && first_part && cuts < MAX_CUTS && table.len() > 1 {
                let build = build.as_mut().expect("rows were read");
                let mut again = HashSpill {
                    build: Partitions::new(cuts + 1),
                    probe: Partitions::new(cuts + 1),
                };
                again.build.write_table(table)?;
                while let Some((key, row)) = build.next_keyed()? {
                    again.build.write(&key, &row)?;
                }
                while let Some((key, row)) = probe.next_keyed()? {
                    again.probe.write(&key, &row)?;
                }
                if let Some(c) = self.cx.spilled_rows {
                    c.add(again.build.rows() + again.probe.rows());
                }
                return push_partitions(pending, cuts + 1, again).map(|()| true);
            }
            let whole = first_part && !more;
            let mut position = 0;
            while let Some((key, before)) = probe.next_keyed()? {
                let mut values = before.into_iter();
                for s in &self.plan.steps[..k] {
                    for (slot, v) in buf[s.offset..s.offset + s.width]
                        .iter_mut()
                        .zip(&mut values)
                    {
                        *slot = v;
                    }
                }
                let table = &table;
                let mut find =
                    |this: &mut Self, buf: &mut Vec<Value>, c: &mut Candidate<'_, 'a>| {
                        this.probe(step, table, &key, buf, c)
                    };
                let go_on = if whole {
                    self.match_rows(k, &mut buf, later, f, &mut find, Pass::Whole)?
                } else {
                    if matched.len() <= position {
                        matched.push(false);
                    }
                    let pass = Pass::Part {
                        matched: &mut matched[position],
                        last: !more,
                    };
                    self.match_rows(k, &mut buf, later, f, &mut find, pass)?
                };
                if !go_on {
                    return Ok(false);
                }
                position += 1;
            }
            if !more {
                return Ok(true);
            }
            probe.rewind()?;
            first_part = false;
        }
    }

    /// Reads step's item for the current row, putting each row's columns
    /// in `buf` and calling `each`; false when `each` said stop.
    fn read(
        &mut self,
        step: &JoinStep,
        params: &[Value],
        buf: &mut Vec<Value>,
        each: &mut Candidate<'_, 'a>,
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

    /// What hash or nested-loop step `k` keeps, read on first use.
    fn make_kept<'k>(
        &mut self,
        k: usize,
        step: &JoinStep,
        cell: &'k OnceLock<Kept>,
    ) -> Result<&'k Kept> {
        if let Some(kept) = cell.get() {
            return Ok(kept);
        }
        let kept = match step.strategy {
            JoinStrategy::Hash => match self.build_hash(step)? {
                Built::Table(table) => Kept::Hashed(table),
                Built::Spilled(spill) => {
                    self.spilled[k] = Some(*spill);
                    Kept::Spilled
                }
            },
            JoinStrategy::NestedLoop => {
                let mut rows = Vec::new();
                let fits = self.read_all(step, &mut |row| {
                    rows.push(row);
                    Ok(())
                })?;
                if fits {
                    Kept::Rows(rows)
                } else {
                    Kept::Reread
                }
            }
            // Read per row: nothing kept.
            JoinStrategy::Scan | JoinStrategy::Lookup => Kept::Rows(Vec::new()),
        };
        Ok(cell.get_or_init(|| kept))
    }

    /// Every row of step's item (its own filter applied), once, while they
    /// fit the budget: false (and the memory they took given back) when
    /// they do not and the run may spill, the error 1038 when it may not.
    fn read_all(
        &mut self,
        step: &JoinStep,
        keep: &mut dyn FnMut(Vec<Value>) -> Result<()>,
    ) -> Result<bool> {
        let mut buf = vec![Value::Null; self.plan.width];
        let (offset, width) = (step.offset, step.width);
        let budget = self.cx.memory;
        let params = self.params;
        let start = self.memory;
        let mut fits = true;
        self.read(step, params, &mut buf, &mut |this, buf| {
            let row = buf[offset..offset + width].to_vec();
            this.memory += row_bytes(&row);
            if this.memory > budget {
                if !this.may_spill {
                    return Err(over_budget("a join", budget));
                }
                fits = false;
                return Ok(false);
            }
            keep(row)?;
            Ok(true)
        })?;
        if !fits {
            self.memory = start;
        }
        Ok(fits)
    }

    /// The hash table of step's item: rows by their key values (rows with
    /// a NULL key are left out: they match nothing). Past the budget (when
    /// the run may spill), every row goes to a partition file instead.
    fn build_hash(&mut self, step: &JoinStep) -> Result<Built> {
        let mut table: KeyMap<Vec<Vec<Value>>> = KeyMap::default();
        let mut spill: Option<Box<HashSpill>> = None;
        let mut buf = vec![Value::Null; self.plan.width];
        let (offset, width) = (step.offset, step.width);
        let (budget, start) = (self.cx.memory, self.memory);
        let env = Env::new(self.params);
        let params = self.params;
        self.read(step, params, &mut buf, &mut |this, buf| {
            let row = buf[offset..offset + width].to_vec();
            let placed = Placed { row: &row, offset };
            let mut key = Vec::new();
            for (_, b, collation) in &step.hash_keys {
                if !encode_value(&b.eval(&placed, env)?, *collation, &mut key) {
                    return Ok(true);
                }
            }
            if let Some(spill) = &mut spill {
                spill.build.write(&key, &row)?;
                return Ok(true);
            }
            this.memory += row_bytes(&row);
            table.entry(key).or_default().push(row);
            if this.memory > budget {
                if !this.may_spill {
                    return Err(over_budget("a join", budget));
                }
                let mut to_files = Box::new(HashSpill {
                    build: Partitions::new(0),
                    probe: Partitions::new(0),
                });
                to_files.build.write_table(std::mem::take(&mut table))?;
                this.memory = start;
                spill = Some(to_files);
            }
            Ok(true)
        })?;
        Ok(match spill {
            Some(spill) => Built::Spilled(spill),
            None => Built::Table(table),
        })
    }
}

/// A partition of a spilled hash step waiting to be joined: how many
/// times it was cut, its item's rows, the rows that probe them (None:
/// none landed there).
type Pending = (u64, Option<SpillReader>, Option<SpillReader>);

/// Which of a step's candidates a call of
/// [`JoinRun::match_rows`] sees.
enum Pass<'m> {
    /// All of them.
    Whole,
    /// A part: whether the row matched in an earlier part, set when it
    /// matches in this one; `last` for the last part (where an outer step
    /// NULL-extends and an anti step lets on the rows that never matched).
    Part { matched: &'m mut bool, last: bool },
}

/// A hash step's item, read.
enum Built {
    Table(KeyMap<Vec<Vec<Value>>>),
    Spilled(Box<HashSpill>),
}

/// About the memory a kept row takes.
fn row_bytes(row: &[Value]) -> usize {
    row.iter().map(value_bytes).sum::<usize>() + 24
}

/// Puts `spill`'s partitions (cut `cuts` times) on `pending`, the first
/// on top.
fn push_partitions(pending: &mut Vec<Pending>, cuts: u64, spill: HashSpill) -> Result<()> {
    let build = spill.build.finish()?;
    let probe = spill.probe.finish()?;
    for (b, p) in build.into_iter().zip(probe).rev() {
        pending.push((cuts, b, p));
    }
    Ok(())
}
