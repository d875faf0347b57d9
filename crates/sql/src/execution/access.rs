//! What one execution of a table source reads: key ranges, access path (by
//! range estimates) and the row filter bound to the parameters.
use crate::error::Result;
use crate::expr::{Env, Expr};
use crate::planner::key_ranges::key_ranges;
use crate::planner::plan::{Access, TableSource};
use crate::planner::row_filter::RowFilter;
use crate::result::ColumnKind;
use lineardb_table::{KeyRange, Table, Value};

/// A non-covering scan estimated to read more than this fraction of the
/// table (1 / N) reads the table instead: a primary-key lookup per row
/// costs about as much as reading N rows in key order.
const LOOKUPS_PER_SEQUENTIAL_ROW: u64 = 10;
/// Ranges this small keep their index even in a tiny table (both ways are
/// cheap there, and the index is what EXPLAIN readers expect).
const SMALL_RANGE: u64 = 64;

/// What one execution reads from its table.
pub(crate) struct TableRun {
    pub ranges: Vec<KeyRange>,
    pub access: Access,
    /// Each range is one whole key of a unique key: read by point lookups.
    pub points: bool,
    /// The WHERE conjuncts left to evaluate per row, parameters bound.
    pub filter: Option<RowFilter>,
}

/// What one execution of a table source reads: key ranges, access path,
/// and the part of the WHERE clause left to evaluate per row (bound to the
/// parameters). When the WHERE clause constrains several indexes (and no
/// index is forced), the trees' range estimates pick the cheapest, a
/// non-covering row costing [`LOOKUPS_PER_SEQUENTIAL_ROW`] rows; a table
/// scan replaces a path whose ranges cannot be built exactly, or an
/// unforced non-covering scan that costs more than reading the table.
pub(crate) fn access_for_run(
    ts: &TableSource,
    full_filter: Option<&Expr>,
    params: &[Value],
) -> Result<TableRun> {
    let env = Env::new(params);
    let t = &ts.table;
    // Rows an access path reads, weighted by what a row costs it.
    let cost = |access: Access, ranges: &[KeyRange]| {
        let rows = estimate(t, access, ranges);
        match access {
            Access::NonCovering(_) => rows.saturating_mul(LOOKUPS_PER_SEQUENTIAL_ROW),
            _ => rows,
        }
    };
    let mut chosen = key_ranges(t, &ts.path, env)?.map(|r| (r, &ts.path));
    if !ts.others.is_empty() {
        let mut best = chosen.map(|(r, p)| (cost(p.access, &r.0), r, p));
        for other in &ts.others {
            if let Some(r) = key_ranges(t, other, env)? {
                let c = cost(other.access, &r.0);
                if best.as_ref().is_none_or(|(b, _, _)| c < *b) {
                    best = Some((c, r, other));
                }
            }
        }
        chosen = best.map(|(_, r, p)| (r, p));
    }
    let table_scan = || (vec![KeyRange::all()], Access::Primary, false, full_filter);
    let (ranges, access, points, filter) = match chosen {
        Some(((r, points), path)) => {
            // Points on a unique key read their rows by point lookups: never
            // more than a table scan.
            let too_many =
                !points && matches!(path.access, Access::NonCovering(_)) && !ts.forced && {
                    let rows = estimate(t, path.access, &r);
                    rows > SMALL_RANGE
                        && rows.saturating_mul(LOOKUPS_PER_SEQUENTIAL_ROW) > t.estimate_rows()
                };
            if too_many {
                table_scan()
            } else {
                (r, path.access, points, path.residual.as_ref())
            }
        }
        None => table_scan(),
    };
    Ok(TableRun {
        ranges,
        access,
        points,
        filter: filter.map(|f| RowFilter::new(bind_to_table(f, params, t), t.layout().types())),
    })
}

/// `filter` for one execution over `table` (see [`Expr::bind`]).
pub(crate) fn bind_to_table(filter: &Expr, params: &[Value], table: &Table) -> Expr {
    let kind_of = |c: usize| {
        table
            .def()
            .columns
            .get(c)
            .map_or(ColumnKind::TEXT, ColumnKind::of_column)
    };
    filter.bind(params, &kind_of)
}

/// Estimated entries of `ranges` in the tree the access path reads first.
pub(crate) fn estimate(t: &Table, access: Access, ranges: &[KeyRange]) -> u64 {
    t.estimate_entries(access.index(), ranges)
}
