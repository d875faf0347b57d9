//! Merging a derived table into the block that reads it (MariaDB's
//! `derived_merge`): `SELECT … FROM (SELECT exprs FROM … WHERE c) d WHERE
//! w GROUP BY …` runs as one block over the derived table's FROM clause,
//! its columns replaced by the expressions that make them. The rows are
//! not materialised, and the block's aggregation sees the join itself
//! (which may then run on several threads).
use crate::expr::Expr;
use crate::planner::plan::{QueryPlan, SelectPlan, Source};

/// Merges `plan`'s derived table into it when that changes no result:
/// the derived query is one plain block (no grouping, DISTINCT, LIMIT,
/// window or HAVING) and `plan` has no WHERE clause (the derived query's
/// access paths were chosen for its own), no window and no subquery that
/// reads its row.
pub(super) fn merge_derived(plan: &mut SelectPlan) {
    let Source::Derived(inner) = &plan.source else {
        return;
    };
    let QueryPlan::Select(inner) = inner.as_ref() else {
        return;
    };
    if inner.aggregate
        || inner.distinct
        || inner.limit.is_some()
        || inner.offset.is_some()
        || inner.window.is_some()
        || inner.having.is_some()
        || plan.window.is_some()
        || plan.filter.is_some()
        || matches!(
            inner.source,
            Source::Rows(_) | Source::Information(_) | Source::WorkTable(_)
        )
    {
        return;
    }
    // Expressions that read the derived row other than through columns.
    let mut reads_row = false;
    each_expr(plan, &mut |e| reads_row |= e.has_correlated_subquery());
    if reads_row {
        return;
    }
    let Source::Derived(inner) = std::mem::replace(&mut plan.source, Source::Nothing) else {
        unreachable!("checked above")
    };
    let QueryPlan::Select(inner) = *inner else {
        unreachable!("checked above")
    };
    let made = &inner.projection;
    let replace = |e: &Expr| -> Expr {
        e.rewrite(&|x| match x {
            Expr::Col(c) => Some(
                made.get(*c)
                    .cloned()
                    .unwrap_or(Expr::Lit(lineardb_table::Value::Null)),
            ),
            _ => None,
        })
    };
    plan.filter = inner.filter.clone();
    for e in plan
        .projection
        .iter_mut()
        .chain(&mut plan.group_by)
        .chain(plan.having.iter_mut())
        .chain(plan.order_by.iter_mut().map(|(e, _)| e))
    {
        *e = replace(e);
    }
    for a in &mut plan.aggs {
        for e in a
            .arg
            .iter_mut()
            .chain(&mut a.more)
            .chain(a.order.iter_mut().map(|(e, _)| e))
        {
            *e = replace(e);
        }
    }
    if plan.hints == Default::default() {
        plan.hints = inner.hints;
    }
    plan.source = inner.source;
    plan.group_row_columns = plan.columns_groups_keep(&[]);
}

/// Every expression of a block outside its FROM clause.
fn each_expr(plan: &SelectPlan, f: &mut dyn FnMut(&Expr)) {
    plan.filter.iter().for_each(&mut *f);
    plan.projection.iter().for_each(&mut *f);
    plan.group_by.iter().for_each(&mut *f);
    plan.having.iter().for_each(&mut *f);
    plan.order_by.iter().for_each(|(e, _)| f(e));
    plan.aggs.iter().flat_map(|a| a.exprs()).for_each(&mut *f);
}
