//! The window stage: holds the rows that pass WHERE, GROUP BY and HAVING,
//! sorts them by each window's PARTITION BY and ORDER BY, computes every
//! window function per partition, and hands the rows on (in the last
//! window's order) to the output stage.
//!
//! Past the memory budget the rows go to an external sort by the first
//! window's keys instead; each window's functions are then computed one
//! partition at a time as the sorted rows come back (a single partition
//! must fit the budget), the rows sorted again by the next window's keys.
//!
//! A held row is the stage row of [`WindowPlan`]: the input row's columns
//! (those read), then the group's aggregate values, then one slot per
//! window function.
use crate::error::{Result, SqlError};
use crate::execution::memory::{over_budget, value_bytes};
use crate::execution::spill::sort::SortBuffer;
use crate::expr::window::{Bound, FrameUnits, WindowFunc, WindowKind};
use crate::expr::{arith, compare, sort_order, Acc, ArithOp, Env, Expr, KeyOrder, Row};
use crate::planner::plan::WindowPlan;
use lineardb_sync::LocalCounter;
use lineardb_table::{Collation, Dec, Value};
use std::cmp::Ordering;

pub(crate) struct WindowStage<'p> {
    plan: &'p WindowPlan,
    rows: Vec<Vec<Value>>,
    bytes: usize,
    memory: usize,
    /// Past the budget: every row, sorted by the first window's keys.
    spill: Option<SortBuffer>,
}

impl<'p> WindowStage<'p> {
    pub(crate) fn new(plan: &'p WindowPlan, memory: usize) -> Self {
        WindowStage {
            plan,
            rows: Vec::new(),
            bytes: 0,
            memory,
            spill: None,
        }
    }

    /// Keeps one input row (with its group's aggregates in `env`).
    pub(crate) fn hold<R: Row + ?Sized>(&mut self, row: &R, env: Env<'_>) -> Result<()> {
        let p = self.plan;
        let mut values = vec![Value::Null; p.width + p.aggs + p.funcs.len()];
        for &c in &p.kept {
            values[c] = row.get(c);
        }
        for (i, v) in env.aggs.iter().enumerate().take(p.aggs) {
            values[p.width + i] = v.clone();
        }
        let env = Env { aggs: &[], ..env };
        let first = self.first_window();
        if let Some(spill) = &mut self.spill {
            return spill.push(window_keys(first, &values, env)?, values);
        }
        self.bytes += values.iter().map(value_bytes).sum::<usize>();
        self.rows.push(values);
        if self.bytes > self.memory {
            let mut spill = SortBuffer::new(window_desc(first), self.memory / 2, None);
            for values in std::mem::take(&mut self.rows) {
                spill.push(window_keys(first, &values, env)?, values)?;
            }
            self.spill = Some(spill);
        }
        Ok(())
    }

    /// The window computed first.
    fn first_window(&self) -> &'p WindowFunc {
        &self.plan.funcs[self.plan.order[0]]
    }

    /// Computes the window functions and sends each row, in output order,
    /// to `emit` until it answers false. `spilled` counts the rows written
    /// to spill files.
    pub(crate) fn finish(
        mut self,
        env: Env<'_>,
        spilled: Option<&LocalCounter>,
        emit: &mut dyn FnMut(&[Value]) -> Result<bool>,
    ) -> Result<()> {
        if let Some(spill) = self.spill.take() {
            return self.finish_spilled(spill, env, spilled, emit);
        }
        for row in self.compute_held(env)? {
            if !emit(&row)? {
                break;
            }
        }
        Ok(())
    }

    /// The rows held in memory, their functions computed, in output order.
    fn compute_held(mut self, env: Env<'_>) -> Result<Vec<Vec<Value>>> {
        let p = self.plan;
        let n = self.rows.len();
        let mut order: Vec<usize> = (0..n).collect();
        let mut keys: Vec<Vec<Value>> = Vec::new();
        let mut sorted_by: Option<&WindowFunc> = None;
        for &slot in &p.order {
            let f = &p.funcs[slot];
            if !sorted_by.is_some_and(|s| same_window(s, f)) {
                keys = self
                    .rows
                    .iter()
                    .map(|r| window_keys(f, r, env))
                    .collect::<Result<_>>()?;
                let desc = window_desc(f);
                order.sort_by(|a, b| sort_order(&keys[*a], &keys[*b], &desc));
                sorted_by = Some(f);
            }
            let np = f.partition_by.len();
            let all_asc = window_desc(f)[..np].to_vec();
            let mut start = 0;
            while start < n {
                let first = &keys[order[start]][..np];
                let mut end = start + 1;
                while end < n
                    && sort_order(first, &keys[order[end]][..np], &all_asc) == Ordering::Equal
                {
                    end += 1;
                }
                let part = &order[start..end];
                let values = Partition {
                    rows: &self.rows,
                    part,
                    keys: &keys,
                    np,
                    env,
                }
                .compute(f)?;
                let at = p.width + p.aggs + slot;
                for (&r, v) in part.iter().zip(values) {
                    self.rows[r][at] = v;
                }
                start = end;
            }
        }
        let mut rows = std::mem::take(&mut self.rows);
        Ok(order
            .into_iter()
            .map(|r| std::mem::take(&mut rows[r]))
            .collect())
    }

    /// The spilled rows: per window (the slots that share its PARTITION BY
    /// and ORDER BY), the sorted rows read one partition at a time, its
    /// functions computed, the rows sorted again for the next window or
    /// sent.
    fn finish_spilled(
        self,
        spill: SortBuffer,
        env: Env<'_>,
        spilled: Option<&LocalCounter>,
        emit: &mut dyn FnMut(&[Value]) -> Result<bool>,
    ) -> Result<()> {
        let p = self.plan;
        // Slots grouped by window, in computing order.
        let mut windows: Vec<Vec<usize>> = Vec::new();
        for &slot in &p.order {
            match windows.last_mut() {
                Some(w) if same_window(&p.funcs[w[0]], &p.funcs[slot]) => w.push(slot),
                _ => windows.push(vec![slot]),
            }
        }
        let mut input = spill;
        for (w, slots) in windows.iter().enumerate() {
            let f = &p.funcs[slots[0]];
            let next = windows.get(w + 1).map(|s| &p.funcs[s[0]]);
            let mut output = next.map(|n| SortBuffer::new(window_desc(n), self.memory / 2, None));
            let mut sorted = input.finish_counted(spilled)?;
            let np = f.partition_by.len();
            let all_asc = window_desc(f)[..np].to_vec();
            // The partition being read: keys and rows.
            let mut keys: Vec<Vec<Value>> = Vec::new();
            let mut rows: Vec<Vec<Value>> = Vec::new();
            let mut bytes = 0;
            let mut done = false;
            loop {
                let row = sorted.next_row()?;
                let ends = match (&row, keys.first()) {
                    (_, None) => false,
                    (None, Some(_)) => true,
                    (Some((k, _)), Some(first)) => {
                        sort_order(&first[..np], &k[..np], &all_asc) != Ordering::Equal
                    }
                };
                if ends {
                    let part: Vec<usize> = (0..rows.len()).collect();
                    for &slot in slots {
                        let values = Partition {
                            rows: &rows,
                            part: &part,
                            keys: &keys,
                            np,
                            env,
                        }
                        .compute(&p.funcs[slot])?;
                        let at = p.width + p.aggs + slot;
                        for (r, v) in rows.iter_mut().zip(values) {
                            r[at] = v;
                        }
                    }
                    for r in rows.drain(..) {
                        match (&mut output, next) {
                            (Some(out), Some(n)) => out.push(window_keys(n, &r, env)?, r)?,
                            _ => {
                                if !done && !emit(&r)? {
                                    done = true;
                                }
                            }
                        }
                    }
                    keys.clear();
                    bytes = 0;
                    if done {
                        return Ok(());
                    }
                }
                let Some((k, r)) = row else {
                    break;
                };
                bytes += k.iter().chain(&r).map(value_bytes).sum::<usize>();
                if bytes > self.memory {
                    return Err(over_budget("a window partition", self.memory));
                }
                keys.push(k);
                rows.push(r);
            }
            match output {
                Some(out) => input = out,
                None => break,
            }
        }
        Ok(())
    }
}

/// Whether two window functions share PARTITION BY and ORDER BY (one sort
/// serves both).
fn same_window(a: &WindowFunc, b: &WindowFunc) -> bool {
    a.partition_by == b.partition_by && a.order_by == b.order_by
}

/// A window's sort keys of a stage row: PARTITION BY values, then ORDER BY
/// values.
fn window_keys(f: &WindowFunc, row: &[Value], env: Env<'_>) -> Result<Vec<Value>> {
    f.partition_by
        .iter()
        .chain(f.order_by.iter().map(|(e, _)| e))
        .map(|e| e.eval(row, env))
        .collect()
}

/// How a window's keys order, matching [`window_keys`].
fn window_desc(f: &WindowFunc) -> Vec<KeyOrder> {
    f.partition_by
        .iter()
        .map(|e| KeyOrder::of(e, false))
        .chain(f.order_by.iter().map(|(e, d)| KeyOrder::of(e, *d)))
        .collect()
}

/// One partition of one window function: its rows in window order.
struct Partition<'a> {
    rows: &'a [Vec<Value>],
    /// Row indices in window order.
    part: &'a [usize],
    /// Per row: PARTITION BY values, then ORDER BY values.
    keys: &'a [Vec<Value>],
    np: usize,
    env: Env<'a>,
}

impl Partition<'_> {
    fn row(&self, k: usize) -> &[Value] {
        &self.rows[self.part[k]]
    }

    fn order_keys(&self, k: usize) -> &[Value] {
        &self.keys[self.part[k]][self.np..]
    }

    /// For each position, the first and one-past-last position of its
    /// peers (rows equal in ORDER BY).
    fn peers(&self, f: &WindowFunc) -> Vec<(usize, usize)> {
        let n = self.part.len();
        let mut out = vec![(0, 0); n];
        let width = self.order_keys(0).len();
        let asc: Vec<KeyOrder> = f
            .order_by
            .iter()
            .map(|(e, _)| KeyOrder::of(e, false))
            .collect();
        debug_assert_eq!(asc.len(), width);
        let mut s = 0;
        while s < n {
            let mut e = s + 1;
            while e < n
                && sort_order(self.order_keys(s), self.order_keys(e), &asc) == Ordering::Equal
            {
                e += 1;
            }
            out[s..e].fill((s, e));
            s = e;
        }
        out
    }

    /// Values of `e` per position.
    fn eval_each(&self, e: &Expr) -> Result<Vec<Value>> {
        (0..self.part.len())
            .map(|k| e.eval(self.row(k), self.env))
            .collect()
    }

    fn compute(&self, f: &WindowFunc) -> Result<Vec<Value>> {
        let n = self.part.len();
        let int = |v: Value| -> i64 {
            match v {
                Value::Int(i) => i,
                Value::UInt(u) => u.min(i64::MAX as u64) as i64,
                other => other.as_f64().map_or(0, |x| x.round() as i64),
            }
        };
        Ok(match &f.kind {
            WindowKind::RowNumber => (1..=n as i64).map(Value::Int).collect(),
            WindowKind::Rank => self
                .peers(f)
                .into_iter()
                .map(|(s, _)| Value::Int(s as i64 + 1))
                .collect(),
            WindowKind::DenseRank => {
                let mut rank = 0;
                let mut last = usize::MAX;
                self.peers(f)
                    .into_iter()
                    .map(|(s, _)| {
                        if s != last {
                            rank += 1;
                            last = s;
                        }
                        Value::Int(rank)
                    })
                    .collect()
            }
            WindowKind::PercentRank => self
                .peers(f)
                .into_iter()
                .map(|(s, _)| {
                    let r = if n > 1 {
                        s as f64 / (n - 1) as f64
                    } else {
                        0.0
                    };
                    ten_places(r)
                })
                .collect(),
            WindowKind::CumeDist => self
                .peers(f)
                .into_iter()
                .map(|(_, e)| ten_places(e as f64 / n as f64))
                .collect(),
            WindowKind::Ntile => {
                let buckets = self.eval_each(&f.args[0])?;
                let mut out = Vec::with_capacity(n);
                for (k, b) in buckets.into_iter().enumerate() {
                    let b = if b.is_null() { 0 } else { int(b) };
                    if b <= 0 {
                        return Err(SqlError::new(
                            4024,
                            "HY000",
                            "Argument of NTILE must be greater than 0",
                        ));
                    }
                    out.push(Value::Int(ntile(k, n, b as usize) as i64));
                }
                out
            }
            WindowKind::Lag | WindowKind::Lead => {
                let values = self.eval_each(&f.args[0])?;
                let offsets = match f.args.get(1) {
                    Some(e) => self.eval_each(e)?.into_iter().map(int).collect(),
                    None => vec![1; n],
                };
                let sign = if f.kind == WindowKind::Lag { -1 } else { 1 };
                (0..n)
                    .map(|k| {
                        let at = k as i64 + sign * offsets[k];
                        if (0..n as i64).contains(&at) {
                            values[at as usize].clone()
                        } else {
                            Value::Null
                        }
                    })
                    .collect()
            }
            _ => self.framed(f)?,
        })
    }

    /// Functions over each row's frame.
    fn framed(&self, f: &WindowFunc) -> Result<Vec<Value>> {
        let n = self.part.len();
        let frames = self.frames(f)?;
        // (COUNT(*) has no argument.)
        let values = match f.args.first() {
            Some(e) => self.eval_each(e)?,
            None => Vec::new(),
        };
        let mut out = Vec::with_capacity(n);
        match &f.kind {
            WindowKind::FirstValue | WindowKind::LastValue => {
                for &(s, e) in &frames {
                    out.push(match (s < e, &f.kind) {
                        (false, _) => Value::Null,
                        (true, WindowKind::FirstValue) => values[s].clone(),
                        (true, _) => values[e - 1].clone(),
                    });
                }
            }
            WindowKind::NthValue => {
                let nth = self.eval_each(&f.args[1])?;
                for (k, &(s, e)) in frames.iter().enumerate() {
                    let i = match &nth[k] {
                        Value::Null => 0,
                        v => v.as_f64().unwrap_or(0.0) as i64,
                    };
                    let at = s as i64 + i - 1;
                    out.push(if i >= 1 && at < e as i64 {
                        values[at as usize].clone()
                    } else {
                        Value::Null
                    });
                }
            }
            WindowKind::Aggregate(_) => {
                let spec = f.agg.as_ref().expect("an aggregate's spec");
                let star =
                    spec.arg.is_none() || matches!(spec.func, crate::expr::AggFunc::CountStar);
                let input = |k: usize| {
                    if star {
                        Value::Int(1)
                    } else {
                        values[k].clone()
                    }
                };
                let from_start = matches!(f.frame.start, Bound::UnboundedPreceding);
                let to_end = matches!(f.frame.end, Bound::UnboundedFollowing);
                if from_start {
                    // Frame ends never move back: add rows as they come in.
                    let mut acc = Acc::new(spec);
                    let mut added = 0;
                    for &(_, e) in &frames {
                        while added < e {
                            acc.add(&input(added))?;
                            added += 1;
                        }
                        out.push(acc.finish());
                    }
                } else if to_end {
                    // Frame starts never move back: from the last row.
                    let mut acc = Acc::new(spec);
                    let mut added = n;
                    let mut rev = Vec::with_capacity(n);
                    for &(s, _) in frames.iter().rev() {
                        while added > s {
                            added -= 1;
                            acc.add(&input(added))?;
                        }
                        rev.push(acc.finish());
                    }
                    rev.reverse();
                    out = rev;
                } else {
                    for &(s, e) in &frames {
                        let mut acc = Acc::new(spec);
                        for k in s..e.max(s) {
                            acc.add(&input(k))?;
                        }
                        out.push(acc.finish());
                    }
                }
            }
            other => {
                return Err(SqlError::internal(format!(
                    "{other:?} is not a framed function"
                )))
            }
        }
        Ok(out)
    }

    /// Each position's frame as `start..end` positions (empty when
    /// `start >= end`).
    fn frames(&self, f: &WindowFunc) -> Result<Vec<(usize, usize)>> {
        let n = self.part.len();
        let constant = |e: &Expr| e.eval(&[][..], self.env);
        let start_offset = f.frame.start.offset().map(constant).transpose()?;
        let end_offset = f.frame.end.offset().map(constant).transpose()?;
        let peers = match f.frame.units {
            FrameUnits::Range => self.peers(f),
            FrameUnits::Rows => Vec::new(),
        };
        let desc = f.order_by.first().is_some_and(|(_, d)| *d);
        let mut out = Vec::with_capacity(n);
        for k in 0..n {
            let (s, e) = match f.frame.units {
                FrameUnits::Rows => {
                    let rows = |b: &Bound, offset: &Option<Value>| -> i64 {
                        let m = offset.clone().map_or(0, |v| match v {
                            Value::Int(i) => i,
                            Value::UInt(u) => u.min(i64::MAX as u64) as i64,
                            other => other.as_f64().unwrap_or(0.0) as i64,
                        });
                        match b {
                            Bound::UnboundedPreceding => i64::MIN / 2,
                            Bound::Preceding(_) => k as i64 - m,
                            Bound::CurrentRow => k as i64,
                            Bound::Following(_) => k as i64 + m,
                            Bound::UnboundedFollowing => i64::MAX / 2,
                        }
                    };
                    let s = rows(&f.frame.start, &start_offset).clamp(0, n as i64);
                    let e = (rows(&f.frame.end, &end_offset) + 1).clamp(0, n as i64);
                    (s as usize, e as usize)
                }
                FrameUnits::Range => {
                    let s =
                        self.range_bound(&f.frame.start, &start_offset, k, &peers, desc, true)?;
                    let e = self.range_bound(&f.frame.end, &end_offset, k, &peers, desc, false)?;
                    (s, e)
                }
            };
            out.push((s, e));
        }
        Ok(out)
    }

    /// A RANGE frame's start (`is_start`) or end (one past) position for
    /// the row at `k`.
    fn range_bound(
        &self,
        bound: &Bound,
        offset: &Option<Value>,
        k: usize,
        peers: &[(usize, usize)],
        desc: bool,
        is_start: bool,
    ) -> Result<usize> {
        let n = self.part.len();
        let (first_peer, past_peers) = peers[k];
        let (preceding, m) = match (bound, offset) {
            (Bound::UnboundedPreceding, _) => return Ok(0),
            (Bound::UnboundedFollowing, _) => return Ok(n),
            (Bound::CurrentRow, _) => return Ok(if is_start { first_peer } else { past_peers }),
            (Bound::Preceding(_), Some(m)) => (true, m),
            (Bound::Following(_), Some(m)) => (false, m),
            _ => return Err(SqlError::internal("a frame offset without its value")),
        };
        let v = &self.order_keys(k)[0];
        if v.is_null() {
            // NULLs are each other's peers and no value's neighbours.
            return Ok(if is_start { first_peer } else { past_peers });
        }
        // Moving back in window order is down the values when ascending.
        let toward_lower = preceding != desc;
        let target = arith(
            if toward_lower {
                ArithOp::Sub
            } else {
                ArithOp::Add
            },
            v,
            m,
        )?;
        let key = |j: usize| &self.order_keys(j)[0];
        // Ascending order has NULLs first, descending last.
        let position = if is_start {
            // The first row at or past `target` in window order.
            first_failing(n, |j| {
                let kj = key(j);
                match (desc, kj.is_null()) {
                    (false, true) => true,
                    (true, true) => false,
                    (false, false) => {
                        compare(kj, &target, Collation::Binary) == Some(Ordering::Less)
                    }
                    (true, false) => {
                        compare(kj, &target, Collation::Binary) == Some(Ordering::Greater)
                    }
                }
            })
        } else {
            // One past the last row not beyond `target` in window order.
            first_failing(n, |j| {
                let kj = key(j);
                match (desc, kj.is_null()) {
                    (false, true) => true,
                    (true, true) => false,
                    (false, false) => {
                        compare(kj, &target, Collation::Binary) != Some(Ordering::Greater)
                    }
                    (true, false) => {
                        compare(kj, &target, Collation::Binary) != Some(Ordering::Less)
                    }
                }
            })
        };
        Ok(position)
    }
}

/// The first of positions `0..n` where `pred` fails (it holds for a
/// prefix).
fn first_failing(n: usize, pred: impl Fn(usize) -> bool) -> usize {
    let (mut lo, mut hi) = (0, n);
    while lo < hi {
        let mid = lo + (hi - lo) / 2;
        if pred(mid) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    lo
}

/// NTILE's bucket (from 1) for position `k` of `n` rows in `b` buckets:
/// the first `n % b` buckets hold one row more.
fn ntile(k: usize, n: usize, b: usize) -> usize {
    let size = n / b;
    let bigger = n % b;
    if size == 0 {
        return k + 1;
    }
    let in_bigger = bigger * (size + 1);
    if k < in_bigger {
        k / (size + 1) + 1
    } else {
        (k - in_bigger) / size + bigger + 1
    }
}

/// PERCENT_RANK and CUME_DIST: doubles MariaDB sends with ten decimals
/// (as text "0.5000000000"); kept as that exact decimal, sent in a DOUBLE
/// column.
fn ten_places(x: f64) -> Value {
    Value::Decimal(Dec::new((x * 1e10).round() as i128, 10))
}

#[cfg(test)]
mod tests {
    use super::ntile;

    #[test]
    fn ntile_gives_the_first_buckets_the_extra_rows() {
        let buckets: Vec<usize> = (0..6).map(|k| ntile(k, 6, 4)).collect();
        assert_eq!(buckets, [1, 1, 2, 2, 3, 4]);
        let buckets: Vec<usize> = (0..3).map(|k| ntile(k, 3, 5)).collect();
        assert_eq!(buckets, [1, 2, 3]);
    }
}
