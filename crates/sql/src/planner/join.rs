//! Joins: the FROM tree flattened into units (inner-joined items, and
//! outer-joined sides as single units), its conditions compiled over the
//! joined row, then a pipeline of steps: an order by estimated size, each
//! condition placed at the first step that can check it, and for each
//! step the cheapest way to find its matches (index lookup, hash table,
//! nested loop).
use super::from::{FromTree, JoinCondition, JoinOp};
use super::join_order::{estimate_unit, JoinCosts, OrderedUnit, UnitEstimate};
use super::join_unit::{equi_sides, unit_of, Unit};
use super::Planner;
use crate::error::{Result, SqlError};
use crate::expr::{and_all, conjuncts, disjuncts, CmpOp, Expr, ScopeColumn};
use crate::planner::access::choose_access;
use crate::planner::plan::{JoinKind, JoinPlan, JoinStep, JoinStrategy, Path, Source, StepInput};
use crate::result::ColumnKind;
use lineardb_table::Collation;
use sqlparser::ast;

/// A join condition before compilation.
enum Condition {
    Written(Box<ast::Expr>),
    Made(Expr),
}

/// The joined FROM clause, its conditions compiled.
pub(super) struct PreparedJoin {
    units: Vec<Unit>,
    /// Conditions of inner joins (ON, USING), over the joined row.
    conditions: Vec<Expr>,
    /// STRAIGHT_JOIN: units keep their written order.
    straight: bool,
}

impl PreparedJoin {
    /// The database of the stored table joined-row column `col` comes
    /// from; None for a derived table's, a view's or a nested join's.
    pub(super) fn base_table_database(&self, col: usize) -> Option<String> {
        match &self.units[crate::planner::join_unit::unit_of(&self.units, col)].source {
            crate::planner::plan::Source::Table(t) => Some(t.table.def().database.clone()),
            _ => None,
        }
    }

    /// `SELECT STRAIGHT_JOIN`: the units are read in their written order.
    pub(super) fn keep_written_order(&mut self) {
        self.straight = true;
    }

    /// One FROM item as a join of one unit (to which semi joins are added).
    pub(super) fn single(
        source: Source,
        hints: Vec<ast::TableIndexHints>,
        width: usize,
    ) -> PreparedJoin {
        PreparedJoin {
            units: vec![Unit {
                source,
                hints,
                offset: 0,
                width,
                kind: JoinKind::Inner,
                on: Vec::new(),
            }],
            conditions: Vec::new(),
            straight: false,
        }
    }

    /// Adds a semi (anti) join's table after every other unit, its
    /// columns at `offset`, `on` its conditions over the joined row.
    pub(super) fn push_semi_join(
        &mut self,
        source: Source,
        offset: usize,
        width: usize,
        anti: bool,
        on: Vec<Expr>,
    ) {
        self.units.push(Unit {
            source,
            hints: Vec::new(),
            offset,
            width,
            kind: if anti { JoinKind::Anti } else { JoinKind::Semi },
            on,
        });
    }
}

impl Planner<'_> {
    /// Flattens a FROM tree of several items and compiles its join
    /// conditions; returns the joined row's scope.
    pub(super) fn prepare_join(
        &mut self,
        tree: FromTree,
    ) -> Result<(PreparedJoin, Vec<ScopeColumn>)> {
        let mut scope = Vec::new();
        tree.scope(&mut scope);
        let mut units = Vec::new();
        let mut conditions = Vec::new();
        let mut unit_conditions: Vec<(usize, Vec<Condition>)> = Vec::new();
        let mut straight = false;
        self.flatten(
            tree,
            0,
            &mut scope,
            &mut units,
            &mut conditions,
            &mut unit_conditions,
            &mut straight,
        )?;
        let mut compiled = Vec::new();
        let compile = |planner: &mut Self, c: Condition| -> Result<Expr> {
            match c {
                Condition::Made(e) => Ok(e),
                Condition::Written(e) => planner
                    .compiler(&scope)
                    .compile(&e)
                    .map_err(|e| e.in_clause("ON")),
            }
        };
        for c in conditions {
            compiled.push(compile(self, c)?);
        }
        for (u, conds) in unit_conditions {
            for c in conds {
                let e = compile(self, c)?;
                units[u].on.push(e);
            }
        }
        Ok((
            PreparedJoin {
                units,
                conditions: compiled,
                straight,
            },
            scope,
        ))
    }

    /// Adds the units of `tree` (its columns from `offset`) in the order
    /// they may run: an outer join's preserved side first.
    #[allow(clippy::too_many_arguments)]
    fn flatten(
        &mut self,
        tree: FromTree,
        offset: usize,
        scope: &mut [ScopeColumn],
        units: &mut Vec<Unit>,
        conditions: &mut Vec<Condition>,
        unit_conditions: &mut Vec<(usize, Vec<Condition>)>,
        straight: &mut bool,
    ) -> Result<()> {
        match tree {
            FromTree::Item(item) => {
                units.push(Unit {
                    width: item.scope.len(),
                    source: item.source,
                    hints: item.hints,
                    offset,
                    kind: JoinKind::Inner,
                    on: Vec::new(),
                });
                Ok(())
            }
            FromTree::Join {
                left,
                right,
                op,
                condition,
            } => {
                let (lw, rw) = (left.width(), right.width());
                let (lo, ro) = (offset, offset + lw);
                // Positions fixed, the USING pairs can be resolved now;
                // nested joins' pairs were marked when they were flattened
                // (inner) or are marked below (groups).
                match op {
                    JoinOp::Inner | JoinOp::Straight => {
                        *straight |= op == JoinOp::Straight;
                        self.flatten(
                            *left,
                            lo,
                            scope,
                            units,
                            conditions,
                            unit_conditions,
                            straight,
                        )?;
                        self.flatten(
                            *right,
                            ro,
                            scope,
                            units,
                            conditions,
                            unit_conditions,
                            straight,
                        )?;
                        conditions
                            .extend(join_conditions(condition, scope, lo, lw, ro, rw, false)?);
                    }
                    JoinOp::Left => {
                        self.flatten(
                            *left,
                            lo,
                            scope,
                            units,
                            conditions,
                            unit_conditions,
                            straight,
                        )?;
                        self.group_unit(*right, ro, scope, units)?;
                        outer_side(&mut scope[ro..ro + rw]);
                        let conds = join_conditions(condition, scope, lo, lw, ro, rw, false)?;
                        unit_conditions.push((units.len() - 1, conds));
                    }
                    JoinOp::Right => {
                        self.flatten(
                            *right,
                            ro,
                            scope,
                            units,
                            conditions,
                            unit_conditions,
                            straight,
                        )?;
                        self.group_unit(*left, lo, scope, units)?;
                        outer_side(&mut scope[lo..lo + lw]);
                        let conds = join_conditions(condition, scope, lo, lw, ro, rw, true)?;
                        unit_conditions.push((units.len() - 1, conds));
                    }
                }
                Ok(())
            }
        }
    }

    /// The inner side of an outer join as one unit: an item, or a nested
    /// join planned on its own.
    fn group_unit(
        &mut self,
        tree: FromTree,
        offset: usize,
        scope: &mut [ScopeColumn],
        units: &mut Vec<Unit>,
    ) -> Result<()> {
        let (source, hints, width) = match tree {
            FromTree::Item(item) => (item.source, item.hints, item.scope.len()),
            tree => {
                let (prepared, local) = self.prepare_join(tree)?;
                let all = vec![true; local.len()];
                let plan = build_join(prepared, Vec::new(), &all, &local, self.base)?;
                scope[offset..offset + local.len()].clone_from_slice(&local);
                (Source::Join(Box::new(plan)), Vec::new(), local.len())
            }
        };
        units.push(Unit {
            source,
            hints,
            offset,
            width,
            kind: JoinKind::LeftOuter,
            on: Vec::new(),
        });
        Ok(())
    }
}

/// The conditions of one join: ON as written, or the equalities of USING /
/// NATURAL (marking the column that is not shown: the right one, or the
/// left one of a RIGHT JOIN).
fn join_conditions(
    condition: JoinCondition,
    scope: &mut [ScopeColumn],
    lo: usize,
    lw: usize,
    ro: usize,
    rw: usize,
    right_join: bool,
) -> Result<Vec<Condition>> {
    let names: Vec<String> = match condition {
        JoinCondition::None => return Ok(Vec::new()),
        JoinCondition::On(e) => return Ok(vec![Condition::Written(e)]),
        JoinCondition::Using(names) => names,
        JoinCondition::Natural => {
            let mut common = Vec::new();
            for c in scope[lo..lo + lw].iter().filter(|c| !c.hidden) {
                if scope[ro..ro + rw]
                    .iter()
                    .any(|r| !r.hidden && r.name.eq_ignore_ascii_case(&c.name))
                    && !common
                        .iter()
                        .any(|n: &String| n.eq_ignore_ascii_case(&c.name))
                {
                    common.push(c.name.clone());
                }
            }
            common
        }
    };
    let find = |scope: &[ScopeColumn], from: usize, width: usize, name: &str| -> Result<usize> {
        let mut found = None;
        for (i, c) in scope[from..from + width].iter().enumerate() {
            if !c.hidden && c.name.eq_ignore_ascii_case(name) {
                if found.is_some() {
                    return Err(SqlError::new(
                        1052,
                        "23000",
                        format!("Column '{name}' in from clause is ambiguous"),
                    ));
                }
                found = Some(from + i);
            }
        }
        found.ok_or_else(|| {
            SqlError::new(
                1054,
                "42S22",
                format!("Unknown column '{name}' in 'from clause'"),
            )
        })
    };
    let mut out = Vec::new();
    for n in names {
        let (l, r) = (find(scope, lo, lw, &n)?, find(scope, ro, rw, &n)?);
        if right_join {
            scope[l].hidden = true;
        } else {
            scope[r].hidden = true;
        }
        let collation = column_collation(scope, l);
        out.push(Condition::Made(Expr::Cmp(
            CmpOp::Eq,
            Box::new(Expr::Col(l)),
            Box::new(Expr::Col(r)),
            collation,
        )));
    }
    Ok(out)
}

/// The columns of an outer join's inner side: NULL where no row matched.
fn outer_side(columns: &mut [ScopeColumn]) {
    for c in columns {
        if let Some(origin) = c.origin.as_mut() {
            std::sync::Arc::make_mut(origin).nullable = true;
        }
    }
}

/// The collation column `c` of `scope` compares in.
fn column_collation(scope: &[ScopeColumn], c: usize) -> Collation {
    scope
        .get(c)
        .and_then(|s| s.kind.collation())
        .unwrap_or_default()
}

/// Column equalities `a = c` that `a = b AND b = c` imply, for columns of
/// one kind (comparison across kinds is not transitive) in different
/// units, not already written.
fn implied_equalities(conditions: &[Expr], scope: &[ScopeColumn], units: &[Unit]) -> Vec<Expr> {
    let mut pairs: Vec<(usize, usize)> = Vec::new();
    for e in conditions {
        if let Expr::Cmp(CmpOp::Eq, a, b, _) = e {
            if let (Expr::Col(x), Expr::Col(y)) = (a.as_ref(), b.as_ref()) {
                let same_kind = scope.get(*x).map(|c| c.kind) == scope.get(*y).map(|c| c.kind);
                if x != y && same_kind {
                    pairs.push(((*x).min(*y), (*x).max(*y)));
                }
            }
        }
    }
    // Classes of equal columns (a few, small: a quadratic merge will do).
    let mut classes: Vec<Vec<usize>> = Vec::new();
    for &(x, y) in &pairs {
        let cx = classes.iter().position(|c| c.contains(&x));
        let cy = classes.iter().position(|c| c.contains(&y));
        match (cx, cy) {
            (Some(i), Some(j)) if i != j => {
                let merged = classes.remove(i.max(j));
                classes[i.min(j)].extend(merged);
            }
            (Some(_), Some(_)) => {}
            (Some(i), None) => classes[i].push(y),
            (None, Some(j)) => classes[j].push(x),
            (None, None) => classes.push(vec![x, y]),
        }
    }
    let mut out = Vec::new();
    for class in classes.iter().filter(|c| c.len() > 2) {
        for (i, &x) in class.iter().enumerate() {
            for &y in &class[i + 1..] {
                let (x, y) = (x.min(y), x.max(y));
                if unit_of(units, x) != unit_of(units, y) && !pairs.contains(&(x, y)) {
                    // Columns of one kind: of one collation too.
                    out.push(Expr::Cmp(
                        CmpOp::Eq,
                        Box::new(Expr::Col(x)),
                        Box::new(Expr::Col(y)),
                        column_collation(scope, x),
                    ));
                }
            }
        }
    }
    out
}

/// What OR `e` implies on unit `u` alone: the OR of each alternative's
/// conjuncts that read only `u`; `None` if an alternative has none.
fn implied_on(e: &Expr, units: &[Unit], u: usize) -> Option<Expr> {
    let mut alternatives = Vec::new();
    disjuncts(e, &mut alternatives);
    let mut implied: Option<Expr> = None;
    for alt in alternatives {
        let mut parts = Vec::new();
        conjuncts(alt, &mut parts);
        let own: Vec<Expr> = parts
            .into_iter()
            .filter(|p| {
                let cols = p.column_list();
                !cols.is_empty()
                    && !p.any(&|x| matches!(x, Expr::Subquery(..)))
                    && cols.iter().all(|&c| unit_of(units, c) == u)
            })
            .cloned()
            .collect();
        let one = and_all(own)?;
        implied = Some(match implied {
            None => one,
            Some(i) => Expr::Or(Box::new(i), Box::new(one)),
        });
    }
    implied
}

/// Builds the step pipeline of a prepared join with the WHERE clause's
/// conjuncts; `needed` marks the joined row's columns the query reads.
pub(super) fn build_join(
    prepared: PreparedJoin,
    where_conjuncts: Vec<Expr>,
    needed: &[bool],
    scope: &[ScopeColumn],
    base: usize,
) -> Result<JoinPlan> {
    let PreparedJoin {
        mut units,
        conditions,
        straight,
    } = prepared;
    let width: usize = units.iter().map(|u| u.offset + u.width).max().unwrap_or(0);
    // Inner conditions and WHERE conjuncts alike.
    let mut inner: Vec<Expr> = Vec::new();
    for c in conditions.iter().chain(&where_conjuncts) {
        let mut parts = Vec::new();
        conjuncts(c, &mut parts);
        inner.extend(parts.into_iter().cloned());
    }
    // Conditions checked on the joined row read its columns too.
    let mut needed = needed.to_vec();
    for e in inner.iter().chain(units.iter().flat_map(|u| &u.on)) {
        e.columns(&mut |c| {
            if c < needed.len() {
                needed[c] = true
            }
        });
    }
    let needed = &needed[..];
    // Which units each inner conjunct reads.
    let reads = |e: &Expr, units: &[Unit]| -> Vec<usize> {
        let mut us: Vec<usize> = e.column_list().iter().map(|&c| unit_of(units, c)).collect();
        us.sort_unstable();
        us.dedup();
        us
    };
    // Equalities that follow from others (a = b and b = c give a = c,
    // between columns of one kind): a join path the written conditions
    // only imply (TPC-H Q5: customer to nation through supplier).
    let derived = implied_equalities(&inner, scope, &units);
    inner.extend(derived);
    // Conditions an OR of several units implies on one of them (each
    // alternative's conditions on that unit alone, ORed): checked early
    // where they are cheap, the OR itself still checked in full.
    let mut implied: Vec<Expr> = Vec::new();
    for e in inner
        .iter()
        .filter(|e| matches!(e, Expr::Or(..)) && reads(e, &units).len() > 1)
    {
        implied.extend((0..units.len()).filter_map(|u| implied_on(e, &units, u)));
    }
    inner.extend(implied);
    // The order: the leading inner units greedily, each time the unit
    // that keeps the estimated rows so far smallest (the first by its own
    // estimate); outer units and what follows them as written.
    let reorderable = if straight {
        0
    } else {
        units
            .iter()
            .position(|u| u.kind != JoinKind::Inner)
            .unwrap_or(units.len())
    };
    let local_conditions = |i: usize, units: &[Unit]| -> Vec<&Expr> {
        inner
            .iter()
            .filter(|e| {
                let r = reads(e, units);
                r.len() == 1 && r[0] == i
            })
            .collect()
    };
    let estimates: Vec<UnitEstimate> = (0..units.len())
        .map(|i| {
            let u = &units[i];
            estimate_unit(
                u,
                &local_conditions(i, &units),
                &needed[u.offset..u.offset + u.width],
            )
        })
        .collect();
    let costs = JoinCosts {
        units: &units,
        conditions: &inner,
        estimates: &estimates,
        needed,
    };
    let mut order = costs.best_order(reorderable);
    // Outer units and what follows them: as written, looked up where an
    // index serves.
    order.extend((reorderable..units.len()).map(|unit| OrderedUnit { unit, lookup: true }));
    // Rows each step is estimated to find per row before it (EXPLAIN).
    let mut placed = vec![false; units.len()];
    let mut estimated = Vec::with_capacity(order.len());
    for (r, step) in order.iter().enumerate() {
        let i = step.unit;
        estimated.push(if r == 0 {
            estimates[i].rows
        } else {
            let conditions: Vec<Expr> = inner.iter().chain(&units[i].on).cloned().collect();
            JoinCosts {
                conditions: &conditions,
                ..costs
            }
            .rows_per_row(&placed, i)
        });
        placed[i] = true;
    }
    let lookups: Vec<bool> = order.iter().map(|s| s.lookup).collect();
    let order: Vec<usize> = order.iter().map(|s| s.unit).collect();
    // Each unit's position in the order.
    let mut rank = vec![0; units.len()];
    for (r, &u) in order.iter().enumerate() {
        rank[u] = r;
    }
    // Inner conjuncts: at the step of the last unit they read (a
    // correlated subquery at the last step); outer units' ON conditions
    // at their own step.
    let last = order.len() - 1;
    let mut step_on: Vec<Vec<Expr>> = vec![Vec::new(); units.len()];
    let mut step_after: Vec<Vec<Expr>> = vec![Vec::new(); units.len()];
    for e in inner {
        let r = if e.has_correlated_subquery() {
            last
        } else {
            reads(&e, &units)
                .iter()
                .map(|&u| rank[u])
                .max()
                .unwrap_or(0)
        };
        let u = order[r];
        if units[u].kind != JoinKind::Inner {
            step_after[r].push(e);
        } else {
            step_on[r].push(e);
        }
    }
    for (r, &u) in order.iter().enumerate() {
        step_on[r].append(&mut units[u].on);
    }
    let mut steps = Vec::with_capacity(units.len());
    let mut before = vec![false; units.len()];
    let mut taken: Vec<Option<Unit>> = units.into_iter().map(Some).collect();
    // Units by index for the helpers, while sources move into steps.
    let shapes: Vec<Unit> = taken
        .iter()
        .map(|u| {
            let u = u.as_ref().expect("all");
            Unit {
                source: Source::Nothing,
                hints: Vec::new(),
                offset: u.offset,
                width: u.width,
                kind: u.kind,
                on: Vec::new(),
            }
        })
        .collect();
    for (r, &ui) in order.iter().enumerate() {
        let unit = taken[ui].take().expect("each unit once");
        let on = std::mem::take(&mut step_on[r]);
        let after = std::mem::take(&mut step_after[r]);
        let mut step = plan_step(
            unit,
            ui,
            Conditions { on, after },
            &shapes,
            &before,
            needed,
            scope,
            base,
            match r {
                0 => Finding::First,
                _ if lookups[r] => Finding::Lookup,
                _ => Finding::ReadOnce,
            },
        )?;
        step.estimated_rows = estimated[r];
        steps.push(step);
        before[ui] = true;
    }
    Ok(JoinPlan { width, steps })
}

/// How the join order chose to find a step's matches.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Finding {
    /// The first step: read once.
    First,
    /// By index lookups with the joined row's values, where an index serves.
    Lookup,
    /// Read once and hashed (looked up still when no equality can be hashed
    /// or an index hint names the index).
    ReadOnce,
}

/// A step's conditions: to match, and after matching.
struct Conditions {
    on: Vec<Expr>,
    after: Vec<Expr>,
}

/// One step: the unit's conditions split into what its own read can
/// apply (a table's filter, with the joined row as parameters), hash keys,
/// and what is checked on the joined row.
#[allow(clippy::too_many_arguments)]
fn plan_step(
    unit: Unit,
    index: usize,
    Conditions { on, after }: Conditions,
    shapes: &[Unit],
    before: &[bool],
    needed: &[bool],
    scope: &[ScopeColumn],
    base: usize,
    finding: Finding,
) -> Result<JoinStep> {
    let first = finding == Finding::First;
    let (offset, width) = (unit.offset, unit.width);
    let own = |e: &Expr| {
        e.column_list()
            .iter()
            .all(|&c| (offset..offset + width).contains(&c))
    };
    // Over the unit's own columns; other columns become parameters.
    let to_local = |e: &Expr| -> Expr {
        e.rewrite(&|x| match x {
            Expr::Col(c) if (offset..offset + width).contains(c) => Some(Expr::Col(c - offset)),
            Expr::Col(c) => Some(Expr::Param(base + c)),
            _ => None,
        })
    };
    let pushable = |e: &Expr| !e.has_correlated_subquery();
    let local_needed: Vec<bool> = needed[offset..offset + width].to_vec();
    match unit.source {
        Source::Table(mut ts) => {
            // First try a lookup: every pushable condition in the table's
            // filter, the joined row's columns as parameters.
            let (push, keep): (Vec<Expr>, Vec<Expr>) = on.into_iter().partition(|e| pushable(e));
            if !first {
                let filter = and_all(push.iter().map(to_local));
                choose_access(&mut ts, filter.as_ref(), &local_needed, &unit.hints)?;
                let reads_row = |p: &Path| {
                    p.key
                        .eq
                        .iter()
                        .any(|e| e.any(&|x| matches!(x, Expr::Param(i) if *i >= base)))
                };
                let hashable = || {
                    push.iter()
                        .any(|e| !own(e) && hash_key(e, shapes, index, before, scope).is_some())
                };
                let lookup = finding == Finding::Lookup || !unit.hints.is_empty() || !hashable();
                if lookup && reads_row(&ts.path) {
                    ts.others.clear();
                    return Ok(JoinStep {
                        input: StepInput::Table {
                            source: ts,
                            filter,
                            correlated: true,
                        },
                        offset,
                        width,
                        kind: unit.kind,
                        on: keep,
                        after,
                        hash_keys: Vec::new(),
                        strategy: JoinStrategy::Lookup,
                        estimated_rows: 0.0,
                    });
                }
            }
            // Else its own conditions filter a read made once; equalities
            // with the steps before become hash keys.
            let (local, cross): (Vec<Expr>, Vec<Expr>) = push.into_iter().partition(|e| own(e));
            let filter = and_all(local.iter().map(to_local));
            choose_access(&mut ts, filter.as_ref(), &local_needed, &unit.hints)?;
            let (hash_keys, rest) = hash_keys(cross, shapes, index, before, scope);
            let mut on = rest;
            on.extend(keep);
            Ok(JoinStep {
                input: StepInput::Table {
                    source: ts,
                    filter,
                    correlated: false,
                },
                offset,
                width,
                kind: unit.kind,
                on,
                after,
                strategy: read_once(first, &hash_keys),
                hash_keys,
                estimated_rows: 0.0,
            })
        }
        source => {
            let (local, cross): (Vec<Expr>, Vec<Expr>) =
                on.into_iter().partition(|e| pushable(e) && own(e));
            let filter = and_all(local.iter().map(to_local));
            let (hash_keys, on) = hash_keys(cross, shapes, index, before, scope);
            Ok(JoinStep {
                input: StepInput::Rows { source, filter },
                offset,
                width,
                kind: unit.kind,
                on,
                after,
                strategy: read_once(first, &hash_keys),
                hash_keys,
                estimated_rows: 0.0,
            })
        }
    }
}

/// How a step whose item is read once finds its matches: the first step
/// scans; a later one probes a hash table when it has keys, else loops.
fn read_once(first: bool, hash_keys: &[(Expr, Expr, Collation)]) -> JoinStrategy {
    if first {
        JoinStrategy::Scan
    } else if hash_keys.is_empty() {
        JoinStrategy::NestedLoop
    } else {
        JoinStrategy::Hash
    }
}

/// Splits conditions into hash keys (equalities between the steps before
/// and this unit, of kinds that compare as their encodings do) and the
/// rest.
fn hash_keys(
    conditions: Vec<Expr>,
    shapes: &[Unit],
    index: usize,
    before: &[bool],
    scope: &[ScopeColumn],
) -> (Vec<(Expr, Expr, Collation)>, Vec<Expr>) {
    let mut keys = Vec::new();
    let mut rest = Vec::new();
    for e in conditions {
        match hash_key(&e, shapes, index, before, scope) {
            Some(key) => keys.push(key),
            None => rest.push(e),
        }
    }
    (keys, rest)
}

/// `e` as a hash key: (over the steps before, over unit `index`), for an
/// equality whose sides' kinds hash alike.
fn hash_key(
    e: &Expr,
    shapes: &[Unit],
    index: usize,
    before: &[bool],
    scope: &[ScopeColumn],
) -> Option<(Expr, Expr, Collation)> {
    equi_sides(e, shapes, index, before).filter(|(probe, build, _)| {
        hashable_together(probe.kind(scope, &[]), build.kind(scope, &[]))
    })
}

/// Kinds whose values a hash key may hold on both sides: equal keys for
/// equal values (numbers with numbers, dates with dates, text with text).
fn hashable_together(a: ColumnKind, b: ColumnKind) -> bool {
    use ColumnKind as K;
    let numeric = |k| matches!(k, K::Int | K::UInt | K::Decimal { .. } | K::Double);
    let date = |k| matches!(k, K::Date | K::DateTime);
    let text = |k| matches!(k, K::Text(_));
    (numeric(a) && numeric(b)) || (date(a) && date(b)) || (text(a) && text(b))
}
