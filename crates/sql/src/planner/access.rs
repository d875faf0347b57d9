//! Access-path choice: the key predicate a WHERE clause gives each index,
//! and the index a table source reads.
use crate::error::{Result, SqlError};
use crate::expr::{clock, conjuncts, CmpOp, Expr, Func};
use crate::planner::plan::{Access, KeyPredicate, Path, RangeAlt, TableSource};
use lineardb_table::{Collation, Table, TableDef};
use sqlparser::ast;

/// Ranges a conjunct puts on column `col`, as alternatives; `None` if it
/// says nothing usable about it. A string column keyed in collation
/// `keyed_in` takes ranges only from comparisons in that collation (a key
/// of another collation would miss rows that compare equal).
fn ranges_on(e: &Expr, col: usize, keyed_in: Option<Collation>) -> Option<Vec<RangeAlt>> {
    let is_col = |x: &Expr| read_as(x, col).is_some();
    let keyed = |c: &Collation| keyed_in.is_none_or(|k| k == *c);
    // A bound as the key holds it: a time of the session's zone as a
    // stored TIMESTAMP (a time of the server's).
    let zone = zone_of_conjunct(e, col);
    let bound = |v: &Expr| match zone {
        Some(z) => Expr::Func(Func::ToStoredTimestamp(z), vec![v.clone()]),
        None => v.clone(),
    };
    match e {
        Expr::Cmp(op, a, b, c) if is_col(a) && b.is_constant() && keyed(c) => {
            range_for(*op, bound(b))
        }
        Expr::Cmp(op, a, b, c) if is_col(b) && a.is_constant() && keyed(c) => {
            let flipped = match op {
                CmpOp::Lt => CmpOp::Gt,
                CmpOp::Le => CmpOp::Ge,
                CmpOp::Gt => CmpOp::Lt,
                CmpOp::Ge => CmpOp::Le,
                o => *o,
            };
            range_for(flipped, bound(a))
        }
        Expr::Between(x, lo, hi, false, c)
            if is_col(x) && lo.is_constant() && hi.is_constant() && keyed(c) =>
        {
            Some(vec![(Some((bound(lo), true)), Some((bound(hi), true)))])
        }
        Expr::InList(x, list, false, c)
            if is_col(x) && list.iter().all(Expr::is_constant) && keyed(c) =>
        {
            Some(
                list.iter()
                    .map(|v| (Some((bound(v), true)), Some((bound(v), true))))
                    .collect(),
            )
        }
        Expr::Or(a, b) => {
            let mut l = ranges_on(a, col, keyed_in)?;
            l.extend(ranges_on(b, col, keyed_in)?);
            Some(l)
        }
        _ => None,
    }
}

/// How `x` reads key column `col`: `Some(None)` as it is stored,
/// `Some(Some(zone))` as a stored TIMESTAMP read in a session's `zone`
/// where that is an exact shift of the stored times (the server's zone has
/// one offset all year), so that its ranges are ranges of the key; None
/// if `x` is not the column.
fn read_as(x: &Expr, col: usize) -> Option<Option<clock::Zone>> {
    match x {
        Expr::Col(c) if *c == col => Some(None),
        Expr::Func(Func::FromStoredTimestamp(zone), args)
            if matches!(args[0], Expr::Col(c) if c == col) && clock::server_zone_is_fixed() =>
        {
            Some(Some(*zone))
        }
        _ => None,
    }
}

/// The session zone in which conjunct `e` reads column `col` (a stored
/// TIMESTAMP converted), if it does.
fn zone_of_conjunct(e: &Expr, col: usize) -> Option<clock::Zone> {
    match e {
        Expr::Cmp(_, a, b, _) => read_as(a, col).or(read_as(b, col)).flatten(),
        Expr::Between(x, ..) | Expr::InList(x, ..) => read_as(x, col).flatten(),
        _ => None,
    }
}

/// Whether conjunct `e` reads a stored TIMESTAMP in a session's zone: its
/// key range comes through a conversion of its bounds, and the conjunct is
/// still checked on each row.
fn reads_in_zone(e: &Expr) -> bool {
    e.any(&|x| matches!(x, Expr::Func(Func::FromStoredTimestamp(_), _)))
}

fn range_for(op: CmpOp, v: Expr) -> Option<Vec<RangeAlt>> {
    Some(vec![match op {
        CmpOp::Eq => (Some((v.clone(), true)), Some((v, true))),
        CmpOp::Lt => (None, Some((v, false))),
        CmpOp::Le => (None, Some((v, true))),
        CmpOp::Gt => (Some((v, false)), None),
        CmpOp::Ge => (Some((v, true)), None),
        CmpOp::Ne | CmpOp::NullSafeEq => return None,
    }])
}

fn is_point(alts: &[RangeAlt]) -> Option<Expr> {
    match alts {
        [(Some((a, true)), Some((b, true)))] if format!("{a:?}") == format!("{b:?}") => {
            Some(a.clone())
        }
        _ => None,
    }
}

/// The key predicate a WHERE clause gives an index with these columns,
/// and the conjuncts it came from as (key column position, index into
/// `filter`). On the range column, a lower bound and an upper bound from
/// two conjuncts (`c >= a AND c < b`) make one range.
fn key_predicate(
    filter: &[&Expr],
    key_columns: &[usize],
    def: &TableDef,
) -> (KeyPredicate, Vec<(usize, usize)>) {
    let mut kp = KeyPredicate::default();
    let mut used = Vec::new();
    for (pos, &c) in key_columns.iter().enumerate() {
        let column = &def.columns[c];
        let keyed_in = column.data_type.is_string().then(|| column.collation());
        let found: Vec<(usize, Vec<RangeAlt>)> = filter
            .iter()
            .enumerate()
            .filter_map(|(i, e)| ranges_on(e, c, keyed_in).map(|r| (i, r)))
            .collect();
        if let Some((i, v)) = found.iter().find_map(|(i, r)| is_point(r).map(|v| (*i, v))) {
            kp.eq.push(v);
            used.push((pos, i));
            continue;
        }
        // One-sided single ranges: the first lower and first upper bound.
        let lower = found
            .iter()
            .find(|(_, r)| matches!(r.as_slice(), [(Some(_), None)]));
        let upper = found
            .iter()
            .find(|(_, r)| matches!(r.as_slice(), [(None, Some(_))]));
        match (lower, upper) {
            (Some((li, l)), Some((ui, u))) => {
                kp.ranges = vec![(l[0].0.clone(), u[0].1.clone())];
                used.push((pos, *li));
                used.push((pos, *ui));
            }
            _ => {
                // Else a bounded single range, else whatever came first.
                let pick = found
                    .iter()
                    .position(|(_, r)| matches!(r.as_slice(), [(Some(_), Some(_))]))
                    .unwrap_or(0);
                if let Some((i, r)) = found.into_iter().nth(pick) {
                    kp.ranges = r;
                    used.push((pos, i));
                }
            }
        }
        break;
    }
    (kp, used)
}

/// Is the conjunct that put `alts` on column `col` fully guaranteed by the
/// key range built from it? Key order equals SQL order for numbers and
/// dates (string comparison may differ through padding); a range open
/// below also admits NULL keys, which the conjunct rejects.
fn implied_by_range(table: &Table, col: usize, alts: &[RangeAlt]) -> bool {
    let def = &table.def().columns[col];
    let ordered_like_sql = !def.data_type.is_string();
    ordered_like_sql && (!def.nullable || alts.iter().all(|(lo, _)| lo.is_some()))
}

impl KeyPredicate {
    /// How selective it looks: (equalities, has a range). Bigger is better.
    fn strength(&self) -> (usize, bool) {
        (self.eq.len(), !self.ranges.is_empty())
    }
}

/// Most other indexes weighed by range estimates at run time.
const MAX_RUNTIME_CHOICES: usize = 3;

/// Picks the access path: index hints first, then the index whose leading
/// columns the WHERE clause constrains most (equalities, then a range),
/// the primary key winning ties; covering when the index holds every
/// column the query reads.
pub(crate) fn choose_access(
    ts: &mut TableSource,
    filter: Option<&Expr>,
    needed: &[bool],
    hints: &[ast::TableIndexHints],
) -> Result<()> {
    let table = &ts.table;
    let mut parts = Vec::new();
    if let Some(f) = filter {
        conjuncts(f, &mut parts);
    }
    let index_by_name = |n: &str| -> Result<Option<usize>> {
        if n.eq_ignore_ascii_case("PRIMARY") {
            return Ok(None);
        }
        table.def().index_position(n).map(Some).ok_or_else(|| {
            SqlError::new(
                1176,
                "42000",
                format!("Key '{n}' doesn't exist in table '{}'", table.def().name),
            )
        })
    };
    // Candidates: None = primary, Some(i) = secondary i.
    let mut candidates: Vec<Option<usize>> = std::iter::once(None)
        .chain((0..table.def().indexes.len()).map(Some))
        .collect();
    let mut forced = false;
    for h in hints {
        let named: Vec<Option<usize>> = h
            .index_names
            .iter()
            .map(|n| index_by_name(&n.value))
            .collect::<Result<_>>()?;
        match h.hint_type {
            ast::TableIndexHintType::Ignore => candidates.retain(|c| !named.contains(c)),
            ast::TableIndexHintType::Use | ast::TableIndexHintType::Force => {
                if !named.is_empty() {
                    candidates.retain(|c| named.contains(c));
                }
                forced |= h.hint_type == ast::TableIndexHintType::Force;
            }
        }
    }
    let pk_cols = &table.def().primary_key;
    let columns_of = |c: Option<usize>| -> Vec<usize> {
        match c {
            None => pk_cols.clone(),
            Some(i) => table.def().indexes[i].columns.clone(),
        }
    };
    // (index or None for the primary key, its key predicate, conjuncts used)
    type Candidate = (Option<usize>, KeyPredicate, Vec<(usize, usize)>);
    let mut found: Vec<Candidate> = candidates
        .iter()
        .map(|&cand| {
            let (kp, used) = key_predicate(&parts, &columns_of(cand), table.def());
            (cand, kp, used)
        })
        .collect();
    // Strongest first; the primary key (listed first) wins ties.
    found.sort_by_key(|(_, kp, _)| std::cmp::Reverse(kp.strength()));
    let usable = |kp: &KeyPredicate| kp.strength() != (0, false);
    let path_of = |(choice, kp, used): Candidate| {
        // Conjuncts the key range guarantees need no evaluation per row.
        let key_cols = columns_of(choice);
        let implied: Vec<usize> = used
            .iter()
            .filter(|&&(pos, conjunct)| {
                let alts = if pos < kp.eq.len() {
                    Vec::new() // an equality: bounded on both sides
                } else {
                    kp.ranges.clone()
                };
                implied_by_range(table, key_cols[pos], &alts) && !reads_in_zone(parts[conjunct])
            })
            .map(|&(_, conjunct)| conjunct)
            .collect();
        let residual = parts
            .iter()
            .enumerate()
            .filter(|(i, _)| !implied.contains(i))
            .map(|(_, e)| (*e).clone())
            .reduce(|a, b| Expr::And(Box::new(a), Box::new(b)));
        let access = match choice {
            None => Access::Primary,
            Some(i) => {
                let covered = needed
                    .iter()
                    .enumerate()
                    .all(|(c, &n)| !n || table.def().index_gives(i, c));
                if covered && !pk_cols.is_empty() {
                    Access::Covering(i)
                } else {
                    Access::NonCovering(i)
                }
            }
        };
        Path {
            access,
            key: kp,
            residual,
        }
    };
    let mut found = found.into_iter();
    let whole = filter.cloned();
    ts.path = match found.next() {
        // Without a usable predicate, a secondary index is used only when
        // forced (a full index scan); otherwise the table is scanned.
        Some(best) if usable(&best.1) || (forced && best.0.is_some()) => path_of(best),
        _ => Path::table_scan(whole),
    };
    ts.others = if forced {
        Vec::new()
    } else {
        found
            .filter(|(_, kp, _)| usable(kp))
            .take(MAX_RUNTIME_CHOICES)
            .map(path_of)
            .collect()
    };
    ts.fetch = (0..needed.len()).filter(|&c| needed[c]).collect();
    ts.forced = forced;
    Ok(())
}
