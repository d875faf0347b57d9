//! The window stage's plan: window functions, the select list and ORDER
//! BY rewritten to read the stage row, whose columns are the input row's,
//! then the group's aggregates, then the window functions' values.
use crate::expr::window::WindowFunc;
use crate::expr::{AggSpec, Expr, Params, ScopeColumn};
use crate::planner::plan::WindowPlan;
use crate::result::ColumnKind;

/// The window stage for `funcs` (compiled over `scope` with `aggs`), and
/// the kinds of the select list's values (parameters typed by the values
/// bound, as `params` has them).
pub(super) fn window_plan(
    params: &Params,
    scope: &[ScopeColumn],
    aggs: &[AggSpec],
    funcs: &[WindowFunc],
    projection: &[Expr],
    order_by: &[(Expr, bool)],
) -> (WindowPlan, Vec<ColumnKind>) {
    let width = scope.len();
    let to_stage_row = |e: &Expr| {
        e.rewrite(&|x| match x {
            Expr::Agg(i) => Some(Expr::Col(width + i)),
            Expr::Window(i) => Some(Expr::Col(width + aggs.len() + i)),
            _ => None,
        })
    };
    let funcs: Vec<WindowFunc> = funcs.iter().map(|f| f.map_exprs(&to_stage_row)).collect();
    let projection: Vec<Expr> = projection.iter().map(to_stage_row).collect();
    let order_by: Vec<(Expr, bool)> = order_by
        .iter()
        .map(|(e, d)| (to_stage_row(e), *d))
        .collect();
    // The stage row's columns as a scope, for the kinds of what reads it.
    let column = |kind: ColumnKind| ScopeColumn {
        stored_timestamp: false,
        name: String::new(),
        table: String::new(),
        kind,
        hidden: true,
        numbered: None,
        json: false,
        origin: None,
    };
    let mut stage_scope: Vec<ScopeColumn> = scope.to_vec();
    for i in 0..aggs.len() {
        stage_scope.push(column(Expr::Agg(i).kind(scope, aggs)));
    }
    for f in &funcs {
        let kind = f.kind_with(
            |e| e.kind(&stage_scope, &[]),
            |spec| Expr::Agg(0).kind(&stage_scope, std::slice::from_ref(spec)),
        );
        stage_scope.push(column(kind));
    }
    let kinds = projection
        .iter()
        .map(|e| params.typed(e).kind(&stage_scope, &[]))
        .collect();
    let all = || {
        projection
            .iter()
            .chain(order_by.iter().map(|(e, _)| e))
            .chain(funcs.iter().flat_map(WindowFunc::exprs))
    };
    // A correlated subquery hands the whole input row to its query.
    let kept = if all().any(Expr::has_correlated_subquery) {
        (0..width).collect()
    } else {
        let mut kept = Vec::new();
        all().for_each(|e| e.columns(&mut |c| kept.push(c)));
        kept.retain(|&c| c < width);
        kept.sort_unstable();
        kept.dedup();
        kept
    };
    let order = computation_order(&funcs);
    let plan = WindowPlan {
        order,
        funcs,
        kept,
        width,
        aggs: aggs.len(),
        projection,
        order_by,
    };
    (plan, kinds)
}

// Window functions are computed in MariaDB's order (sql_window.cc sorts
// them so that those sharing a sort are adjacent); rows leave the stage
// in the last one's sort, so a query without ORDER BY lists its rows as
// MariaDB does. Comparisons give -2/2 (less/greater) or -1/1 (less/
// greater, one list a prefix of the other), 0 when equal.

/// One PARTITION BY or ORDER BY element against another: columns by their
/// place, other expressions by their function's place (`weight`).
fn compare_elements(a: &(Expr, bool), wa: usize, b: &(Expr, bool), wb: usize) -> i32 {
    if a == b {
        return 0;
    }
    let cmp: i64 = match (&a.0, &b.0) {
        (Expr::Col(x), Expr::Col(y)) => *x as i64 - *y as i64,
        (Expr::Col(_), _) | (_, Expr::Col(_)) => return -2,
        _ => wa as i64 - wb as i64,
    };
    match cmp.cmp(&0) {
        std::cmp::Ordering::Equal if a.1 == b.1 => 0,
        std::cmp::Ordering::Equal => {
            if a.1 {
                2
            } else {
                -2
            }
        }
        std::cmp::Ordering::Greater => 2,
        std::cmp::Ordering::Less => -2,
    }
}

/// Two lists, constants passed over.
fn compare_lists(a: &[(Expr, bool)], wa: usize, b: &[(Expr, bool)], wb: usize) -> i32 {
    let constant = |e: &(Expr, bool)| matches!(e.0, Expr::Lit(_) | Expr::Param(_));
    let (mut i, mut j) = (0, 0);
    while i < a.len() && j < b.len() {
        while i < a.len() && constant(&a[i]) {
            i += 1;
        }
        while j < b.len() && constant(&b[j]) {
            j += 1;
        }
        if i == a.len() || j == b.len() {
            break;
        }
        let cmp = compare_elements(&a[i], wa, &b[j], wb);
        if cmp != 0 {
            return cmp;
        }
        i += 1;
        j += 1;
    }
    if i < a.len() {
        1
    } else if j < b.len() {
        -1
    } else {
        0
    }
}

fn compare_funcs(f: &WindowFunc, wf: usize, g: &WindowFunc, wg: usize) -> i32 {
    let partition = |x: &WindowFunc| -> Vec<(Expr, bool)> {
        x.partition_by.iter().map(|e| (e.clone(), false)).collect()
    };
    let (pf, pg) = (partition(f), partition(g));
    let cmp = compare_lists(&pf, wf, &pg, wg);
    if cmp == 0 {
        return compare_lists(&f.order_by, wf, &g.order_by, wg);
    }
    if cmp.abs() == 2 {
        return cmp;
    }
    // One partition list begins the other.
    let joined = |p: Vec<(Expr, bool)>, x: &WindowFunc| -> Vec<(Expr, bool)> {
        p.into_iter().chain(x.order_by.iter().cloned()).collect()
    };
    let (nf, ng) = (pf.len(), pg.len());
    let cmp = compare_lists(&joined(pf, f), wf, &joined(pg, g), wg);
    if cmp.abs() <= 1 {
        if nf < ng {
            1
        } else {
            -1
        }
    } else {
        cmp
    }
}

/// The functions' slots in the order they are computed: a bubble sort
/// with MariaDB's comparison.
fn computation_order(funcs: &[WindowFunc]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..funcs.len()).collect();
    let mut swapped = true;
    while swapped {
        swapped = false;
        for k in 1..order.len() {
            let (a, b) = (order[k - 1], order[k]);
            if compare_funcs(&funcs[a], a, &funcs[b], b) > 0 {
                order.swap(k - 1, k);
                swapped = true;
            }
        }
    }
    order
}
