//! The key ranges of an access path for one execution, from its key
//! predicate and the parameters.
use crate::error::{Result, SqlError};
use crate::expr::{compare, Env, Expr};
use crate::planner::plan::{Access, Path};
use lineardb_table::{Collation, KeyRange, Table, Value};
use std::cmp::Ordering;
use std::ops::Bound;

/// Builds the key ranges to scan for the chosen index; `None` if a bound
/// could not be turned into a key (the scan then covers everything and
/// the filter decides). With the ranges, whether each is one whole key of
/// a unique key (the primary key, or a unique index with NULL-free values):
/// then each holds at most one row, fetched by a point lookup.
pub(crate) fn key_ranges(
    t: &Table,
    path: &Path,
    env: Env<'_>,
) -> Result<Option<(Vec<KeyRange>, bool)>> {
    let (types, cols): (Vec<lineardb_table::KeyColumn>, Vec<usize>) = match path.access {
        Access::Primary => (t.primary_key_types().to_vec(), t.def().primary_key.clone()),
        Access::Covering(i) | Access::NonCovering(i) => (
            t.index_types(i).to_vec(),
            t.def().indexes[i].columns.clone(),
        ),
    };
    let unique = match path.access {
        Access::Primary => !t.def().primary_key.is_empty(),
        Access::Covering(i) | Access::NonCovering(i) => t.def().indexes[i].unique,
    };
    let empty: &[Value] = &[];
    let coerce = |pos: usize, e: &Expr| -> Result<Option<Value>> {
        let v = e.eval(empty, env)?;
        if v.is_null() {
            return Ok(None);
        }
        let col = &t.def().columns[cols[pos]];
        match col.data_type.coerce(v.clone(), &col.name) {
            Ok(k) if compare(&k, &v, Collation::Binary) == Some(Ordering::Equal) => Ok(Some(k)),
            _ => Err(SqlError::internal("inexact")),
        }
    };
    let mut eq = Vec::new();
    for (i, e) in path.key.eq.iter().enumerate() {
        match coerce(i, e) {
            Ok(Some(v)) => eq.push(v),
            Ok(None) => return Ok(Some((Vec::new(), false))), // col = NULL: nothing
            Err(_) => return Ok(None),
        }
    }
    if path.key.ranges.is_empty() {
        if eq.is_empty() {
            return Ok(Some((vec![KeyRange::all()], false)));
        }
        let point = unique && eq.len() == types.len();
        return Ok(Some((
            vec![KeyRange::from_values(
                &types,
                Bound::Included(&eq),
                Bound::Included(&eq),
            )],
            point,
        )));
    }
    let pos = eq.len();
    // Points: the range column is the key's last and each alternative is
    // one value (an IN list on it).
    let mut points = unique && pos + 1 == types.len();
    let mut out = Vec::new();
    for (lo, hi) in &path.key.ranges {
        let bound = |b: &Option<(Expr, bool)>| -> Result<Option<Option<(Value, bool)>>> {
            match b {
                None => Ok(Some(None)),
                Some((e, inc)) => match coerce(pos, e) {
                    Ok(Some(v)) => Ok(Some(Some((v, *inc)))),
                    Ok(None) => Ok(None),
                    Err(_) => Err(SqlError::internal("inexact")),
                },
            }
        };
        let (l, h) = match (bound(lo), bound(hi)) {
            (Ok(Some(l)), Ok(Some(h))) => (l, h),
            (Ok(None), _) | (_, Ok(None)) => continue, // NULL bound: no rows
            _ => return Ok(None),
        };
        // An ENUM or SET keys by member number but compares as text: only
        // single values are looked up by key.
        let single = matches!((&l, &h), (Some((a, true)), Some((b, true)))
            if compare(a, b, Collation::Binary) == Some(Ordering::Equal));
        if t.def().columns[cols[pos]].data_type.has_members() && !single {
            return Ok(None);
        }
        points &= match (&l, &h) {
            (Some((a, true)), Some((b, true))) => {
                compare(a, b, Collation::Binary) == Some(Ordering::Equal)
            }
            _ => false,
        };
        let (lo_end, hi_end) = (range_end(&eq, l), range_end(&eq, h));
        out.push(KeyRange::from_values(
            &types,
            as_bound(&lo_end),
            as_bound(&hi_end),
        ));
    }
    // Alternatives in key order, overlaps merged (each row once). Points
    // stay one key each (neighbouring integers make touching ranges);
    // only repeated keys merge.
    out.sort_by(|a, b| a.start.cmp(&b.start));
    let mut merged: Vec<KeyRange> = Vec::new();
    for r in out {
        if let Some(last) = merged.last_mut() {
            let overlaps = match &last.end {
                _ if points => r.start == last.start,
                None => true,
                Some(e) => r.start <= *e,
            };
            if overlaps {
                last.end = match (&last.end, &r.end) {
                    (None, _) | (_, None) => None,
                    (Some(a), Some(b)) => Some(a.max(b).clone()),
                };
                continue;
            }
        }
        merged.push(r);
    }
    Ok(Some((merged, points)))
}

/// One end of a key range: the equality prefix `eq` followed by the range
/// column's bound, if any, and whether it is inclusive; `None` = unbounded.
fn range_end(eq: &[Value], end: Option<(Value, bool)>) -> Option<(Vec<Value>, bool)> {
    match end {
        None if eq.is_empty() => None,
        None => Some((eq.to_vec(), true)),
        Some((v, inclusive)) => {
            let mut values = eq.to_vec();
            values.push(v);
            Some((values, inclusive))
        }
    }
}

fn as_bound(end: &Option<(Vec<Value>, bool)>) -> Bound<&[Value]> {
    match end {
        None => Bound::Unbounded,
        Some((values, true)) => Bound::Included(values),
        Some((values, false)) => Bound::Excluded(values),
    }
}
