//! The order of a join's inner units and how each finds its matches, by
//! estimated cost: rows from table statistics (row counts, the distinct
//! values of index prefixes, key-range estimates), and what reading them
//! costs — a tree descent per index lookup and per non-covering match,
//! little per row of a scan or a range, a hash table's build and probes.
use super::join_unit::{equi_sides, Unit};
use crate::expr::{and_all, Env, Expr};
use crate::planner::access::choose_access;
use crate::planner::key_ranges::key_ranges;
use crate::planner::plan::{Access, Path, Source, TableSource};
use lineardb_table::{KeyRange, Table};

/// Costs, in descents of a tree to one key (a random lookup, about 0.35 µs
/// in memory), as measured on TPC-H SF 1 tables.
mod cost {
    /// Finding a key: one descent.
    pub const SEEK: f64 = 1.0;
    /// The next entry of a range or of a lookup's matches.
    pub const NEXT: f64 = 0.1;
    /// The row behind a non-covering index entry (a primary key lookup,
    /// batched and prefetched).
    pub const FETCH: f64 = 0.7;
    /// A row of a table scan.
    pub const SCANNED: f64 = 0.15;
    /// A row put in a hash table (copied out, its key encoded, stored).
    pub const BUILT: f64 = 2.0;
    /// A row looking in a hash table.
    pub const PROBED: f64 = 0.4;
    /// A joined row made (conditions checked, handed on).
    pub const MADE: f64 = 0.6;
}

/// Most units whose orders are all weighed (left-deep, by dynamic
/// programming over subsets); more are ordered greedily.
const EXHAUSTIVE_UNITS: usize = 10;

/// What a unit gives read once with its own conditions.
pub(super) struct UnitEstimate {
    /// Rows it gives.
    pub rows: f64,
    /// What reading them costs (a scan, or its index's ranges).
    pub read: f64,
}

/// A step of a join order: unit `unit`, found by index lookups (else read
/// once: scanned, or hashed when an equality connects it).
#[derive(Debug, Clone, Copy)]
pub(super) struct OrderedUnit {
    pub unit: usize,
    pub lookup: bool,
}

/// The join's units, conditions and estimates the costs are weighed over.
pub(super) struct JoinCosts<'a> {
    pub units: &'a [Unit],
    /// Inner conditions over the joined row.
    pub conditions: &'a [Expr],
    /// Per unit, read alone.
    pub estimates: &'a [UnitEstimate],
    /// The joined row's columns the query reads.
    pub needed: &'a [bool],
}

/// Joining a unit after others: its cost and the rows after it.
#[derive(Clone, Copy)]
struct StepCost {
    cost: f64,
    rows: f64,
    lookup: bool,
}

impl JoinCosts<'_> {
    /// The cheapest left-deep order of the first `n` units (over every
    /// subset, the cheapest order of it extended by a unit an equality
    /// connects to it; a cross product only when none is), and whether
    /// each step looks its matches up by index.
    pub(super) fn best_order(&self, n: usize) -> Vec<OrderedUnit> {
        if n == 0 {
            return Vec::new();
        }
        let placed_of = |set: usize| -> Vec<bool> {
            (0..self.units.len())
                .map(|u| u < n && set & (1 << u) != 0)
                .collect()
        };
        let start = |i: usize| StepCost {
            cost: self.estimates[i].read + self.estimates[i].rows * cost::MADE,
            rows: self.estimates[i].rows,
            lookup: false,
        };
        if n > EXHAUSTIVE_UNITS {
            // Greedy: the connected unit that costs least next.
            let mut order = Vec::new();
            let mut set = 0usize;
            let mut rows = 1.0;
            while order.len() < n {
                let placed = placed_of(set);
                let open = (0..n).filter(|&i| set & (1 << i) == 0);
                let (next, step) = open
                    .map(|i| {
                        let step = if set == 0 {
                            start(i)
                        } else {
                            self.step(&placed, rows, i)
                        };
                        (i, step, set != 0 && self.connected(&placed, i))
                    })
                    .min_by(|a, b| b.2.cmp(&a.2).then(a.1.cost.total_cmp(&b.1.cost)))
                    .map(|(i, step, _)| (i, step))
                    .expect("a unit left");
                rows = step.rows;
                set |= 1 << next;
                order.push(OrderedUnit {
                    unit: next,
                    lookup: step.lookup,
                });
            }
            return order;
        }
        // best[set]: the cheapest order of `set`, ending with its last step.
        let full = (1usize << n) - 1;
        let mut best: Vec<Option<(StepCost, usize)>> = vec![None; full + 1];
        for i in 0..n {
            best[1 << i] = Some((start(i), i));
        }
        for set in 1..=full {
            let Some((so_far, _)) = best[set] else {
                continue;
            };
            let placed = placed_of(set);
            let open: Vec<usize> = (0..n).filter(|&i| set & (1 << i) == 0).collect();
            let any_connected = open.iter().any(|&i| self.connected(&placed, i));
            for i in open {
                if any_connected && !self.connected(&placed, i) {
                    continue;
                }
                let step = self.step(&placed, so_far.rows, i);
                let next = set | (1 << i);
                let total = StepCost {
                    cost: so_far.cost + step.cost,
                    ..step
                };
                if best[next].is_none_or(|(b, _)| total.cost < b.cost) {
                    best[next] = Some((total, i));
                }
            }
        }
        // Walk back from the full set.
        let mut order = Vec::with_capacity(n);
        let mut set = full;
        while set != 0 {
            let (step, last) = best[set].expect("every subset reached");
            order.push(OrderedUnit {
                unit: last,
                lookup: step.lookup,
            });
            set &= !(1 << last);
        }
        order.reverse();
        order
    }

    /// Rows of unit `i` each row of the units `placed` is estimated to
    /// meet, after its own conditions.
    pub(super) fn rows_per_row(&self, placed: &[bool], i: usize) -> f64 {
        (fan_out(self.units, self.conditions, i, placed) * self.share(i)).max(1.0)
    }

    /// Whether an equality joins unit `i` to the units `placed`.
    fn connected(&self, placed: &[bool], i: usize) -> bool {
        self.conditions
            .iter()
            .any(|e| equi_sides(e, self.units, i, placed).is_some())
    }

    /// The share of unit `i`'s rows its own conditions keep.
    fn share(&self, i: usize) -> f64 {
        self.estimates[i].rows / table_rows(&self.units[i]).max(1.0)
    }

    /// Joining unit `i` to the units `placed`, which make `rows` rows: by
    /// index lookups per row where an index leads with columns the
    /// equalities bind, or by reading it once (hashed when connected) —
    /// whichever costs less — plus the rows it makes.
    fn step(&self, placed: &[bool], rows: f64, i: usize) -> StepCost {
        let own = &self.estimates[i];
        let matches = fan_out(self.units, self.conditions, i, placed);
        let after = (rows * matches * self.share(i)).max(1.0);
        let read_once = own.read + own.rows * cost::BUILT + rows * cost::PROBED;
        let lookup = self.lookup_cost(placed, i).map(|(per_key, covering)| {
            let per_match = cost::NEXT + if covering { 0.0 } else { cost::FETCH };
            rows * (cost::SEEK + per_key * per_match)
        });
        let (access, lookup) = match lookup {
            Some(l) if l < read_once => (l, true),
            _ => (read_once, false),
        };
        StepCost {
            cost: access + after * cost::MADE,
            rows: after,
            lookup,
        }
    }

    /// For an index of unit `i`'s table whose leading columns equalities
    /// with the units `placed` bind: the rows one key matches and whether
    /// the index holds every column the query reads of the table.
    fn lookup_cost(&self, placed: &[bool], i: usize) -> Option<(f64, bool)> {
        let u = &self.units[i];
        let Source::Table(ts) = &u.source else {
            return None;
        };
        let bound = bound_columns(self.units, self.conditions, i, placed);
        let (per_key, index) = best_key(&ts.table, &bound)?;
        let def = ts.table.def();
        let covering = match index {
            None => true,
            Some(ix) => self.needed[u.offset..u.offset + u.width]
                .iter()
                .enumerate()
                .all(|(c, &n)| !n || def.index_gives(ix, c)),
        };
        Some((per_key, covering))
    }
}

/// Rows of a unit before any condition (a guess for what is not a table).
pub(super) fn table_rows(u: &Unit) -> f64 {
    match &u.source {
        Source::Table(ts) => ts.table.estimate_entries(None, &[KeyRange::all()]) as f64,
        Source::Join(j) => 1000.0 * j.steps.len() as f64,
        _ => 1000.0,
    }
}

/// What a unit gives after `conditions` on it alone, and what reading it
/// costs: for a table whose index (or primary key) the constant
/// conditions bound, the tree's estimate of the key ranges, times the
/// guessed share the other conditions keep; else the guessed shares of
/// the table's rows, read by a scan. `needed`: the unit's columns the
/// query reads.
pub(super) fn estimate_unit(u: &Unit, conditions: &[&Expr], needed: &[bool]) -> UnitEstimate {
    let guess = |conds: &mut dyn Iterator<Item = &&Expr>| -> f64 {
        conds.map(|e| selectivity(e)).product()
    };
    let all_rows = table_rows(u);
    let by_guess = UnitEstimate {
        rows: (all_rows * guess(&mut conditions.iter())).max(1.0),
        read: all_rows * cost::SCANNED,
    };
    let Source::Table(ts) = &u.source else {
        return by_guess;
    };
    let local: Vec<Expr> = conditions
        .iter()
        .map(|e| {
            e.rewrite(&|x| match x {
                Expr::Col(c) => Some(Expr::Col(c.saturating_sub(u.offset))),
                _ => None,
            })
        })
        .collect();
    let Some(filter) = and_all(local.iter().cloned()) else {
        return by_guess;
    };
    let mut probe = TableSource {
        table: ts.table.clone(),
        alias: ts.alias.clone(),
        path: Path::table_scan(None),
        others: Vec::new(),
        fetch: Vec::new(),
        forced: false,
    };
    if choose_access(&mut probe, Some(&filter), needed, &[]).is_err() {
        return by_guess;
    }
    let leading = match probe.path.access {
        Access::Primary => ts.table.def().primary_key.first().copied(),
        Access::Covering(i) | Access::NonCovering(i) => {
            ts.table.def().indexes[i].columns.first().copied()
        }
    };
    let (Some(leading), false) = (
        leading,
        probe.path.key.eq.is_empty() && probe.path.key.ranges.is_empty(),
    ) else {
        return by_guess;
    };
    let Ok(Some((ranges, _))) = key_ranges(&ts.table, &probe.path, Env::new(&[])) else {
        return by_guess;
    };
    let in_ranges = ts
        .table
        .estimate_entries(probe.path.access.index(), &ranges) as f64;
    let rest = guess(
        &mut conditions
            .iter()
            .zip(&local)
            .filter_map(|(c, l)| (!l.column_list().contains(&leading)).then_some(c)),
    );
    let per_entry = cost::NEXT
        + match probe.path.access {
            Access::NonCovering(_) => cost::FETCH,
            _ => 0.0,
        };
    UnitEstimate {
        rows: (in_ranges * rest).clamp(1.0, by_guess.rows.max(1.0) * 10.0),
        read: ranges.len() as f64 * cost::SEEK + in_ranges * per_entry,
    }
}

/// The share of rows a condition is guessed to keep (System R's defaults:
/// an equality a tenth, a range a third; AND multiplies, OR adds).
fn selectivity(e: &Expr) -> f64 {
    use crate::expr::CmpOp as Op;
    match e {
        Expr::Cmp(Op::Eq | Op::NullSafeEq, ..) => 0.1,
        Expr::Cmp(Op::Ne, ..) => 0.9,
        Expr::Cmp(..) => 1.0 / 3.0,
        Expr::Between(_, _, _, false, _) => 0.25,
        Expr::InList(_, list, false, _) => (0.1 * list.len() as f64).min(0.5),
        Expr::Like(_, _, false, _) => 0.25,
        Expr::IsNull(_, false) => 0.1,
        Expr::And(a, b) => selectivity(a) * selectivity(b),
        Expr::Or(a, b) => {
            let (x, y) = (selectivity(a), selectivity(b));
            x + y - x * y
        }
        Expr::Not(a) => 1.0 - selectivity(a),
        _ => 0.5,
    }
}

/// The primary key of a unit's table, in the joined row's positions.
fn primary_key(u: &Unit) -> Vec<usize> {
    match &u.source {
        Source::Table(ts) => ts
            .table
            .def()
            .primary_key
            .iter()
            .map(|c| c + u.offset)
            .collect(),
        _ => Vec::new(),
    }
}

/// The equalities joining unit `i` to the units `placed` whose side on
/// `i` is a column: (that column, the other side's column if it is one).
/// None when no equality connects `i` to the placed units.
fn equal_columns(
    units: &[Unit],
    conditions: &[Expr],
    i: usize,
    placed: &[bool],
) -> Option<Vec<(usize, Option<usize>)>> {
    let mut pairs = Vec::new();
    let mut connected = false;
    for e in conditions {
        if let Some((probe, build, _)) = equi_sides(e, units, i, placed) {
            connected = true;
            if let Expr::Col(b) = build {
                let p = match probe {
                    Expr::Col(p) => Some(p),
                    _ => None,
                };
                pairs.push((b, p));
            }
        }
    }
    connected.then_some(pairs)
}

/// Unit `i`'s table columns that column equalities with the units
/// `placed` bind.
fn bound_columns(units: &[Unit], conditions: &[Expr], i: usize, placed: &[bool]) -> Vec<usize> {
    equal_columns(units, conditions, i, placed)
        .unwrap_or_default()
        .iter()
        .map(|(b, _)| b - units[i].offset)
        .collect()
}

/// Rows of unit `i` each row of the placed units is guessed to meet: from
/// index statistics when an index leads with columns the equalities bind;
/// else its rows over the other side's when they fix the other side's
/// primary key (a foreign key), a tenth of its rows for other equalities,
/// all of them without any.
fn fan_out(units: &[Unit], conditions: &[Expr], i: usize, placed: &[bool]) -> f64 {
    let rows = table_rows(&units[i]);
    let Some(pairs) = equal_columns(units, conditions, i, placed) else {
        return rows;
    };
    if let Source::Table(ts) = &units[i].source {
        let bound: Vec<usize> = pairs.iter().map(|(b, _)| b - units[i].offset).collect();
        if let Some((per_key, _)) = best_key(&ts.table, &bound) {
            return per_key.max(1.0);
        }
    }
    let mut best = rows / 10.0;
    for (j, u) in units.iter().enumerate().filter(|(j, _)| placed[*j]) {
        let other = primary_key(u);
        if !other.is_empty()
            && other
                .iter()
                .all(|c| pairs.iter().any(|(_, p)| *p == Some(*c)))
        {
            best = best.min(rows / table_rows(&units[j]).max(1.0));
        }
    }
    best.max(1.0)
}

/// Of the indexes of `table` (None: the primary key) whose leading
/// columns `bound` binds, the one whose key matches the fewest rows, and
/// that number: one for a whole unique key, else the rows over the
/// distinct values of the bound prefix (index statistics).
fn best_key(table: &Table, bound: &[usize]) -> Option<(f64, Option<usize>)> {
    let def = table.def();
    let rows = table.estimate_rows() as f64;
    let keys = std::iter::once((None, &def.primary_key, true)).chain(
        def.indexes
            .iter()
            .enumerate()
            .map(|(i, ix)| (Some(i), &ix.columns, ix.unique)),
    );
    let mut best: Option<(f64, Option<usize>)> = None;
    for (index, columns, unique) in keys {
        let leading = columns.iter().take_while(|c| bound.contains(c)).count();
        if leading == 0 {
            continue;
        }
        let per_key = if leading == columns.len() && unique {
            1.0
        } else {
            match table.distinct_keys(index, leading) {
                Ok(Some(distinct)) => rows / distinct as f64,
                _ => continue,
            }
        };
        if best.is_none_or(|(b, _)| per_key < b) {
            best = Some((per_key, index));
        }
    }
    best
}
