//! Decorrelation of `[NOT] EXISTS (SELECT … FROM t WHERE …)`: a WHERE
//! conjunct whose correlated subquery reads one table through a plain
//! WHERE clause becomes a semi (anti) join of that table, its WHERE clause
//! the join's conditions. The join then finds matches the way any step
//! does (an index lookup per row, or a hash table built once) and stops at
//! the first, where the subquery ran as a query of its own for every
//! distinct outer row.
use crate::expr::subquery::SubqueryTest;
use crate::expr::{conjuncts, Expr, ScopeColumn};
use crate::planner::plan::{QueryPlan, Source, TableSource};
use std::sync::Arc;

/// A conjunct turned into a semi or anti join.
pub(super) struct SemiJoin {
    pub table: Arc<lineardb_table::Table>,
    /// Its name in the subquery.
    pub alias: String,
    /// The table's columns, at the end of the joined row.
    pub scope: Vec<ScopeColumn>,
    /// Where they start in the joined row.
    pub offset: usize,
    /// The subquery's WHERE conjuncts over the joined row.
    pub on: Vec<Expr>,
    /// NOT EXISTS.
    pub anti: bool,
}

impl SemiJoin {
    /// The table as a FROM item's source (its access chosen with the join).
    pub(super) fn source(&self) -> Source {
        Source::Table(TableSource {
            table: self.table.clone(),
            alias: self.alias.clone(),
            path: crate::planner::plan::Path::table_scan(None),
            others: Vec::new(),
            fetch: Vec::new(),
            forced: false,
        })
    }
}

/// Splits `filter` (over a block's row of `width` columns, whose first
/// column is parameter `base` of its subqueries) into the conjuncts that
/// stay and the semi joins the others become, their columns placed after
/// the row's in turn.
pub(super) fn decorrelate(
    filter: Option<Expr>,
    base: usize,
    width: usize,
) -> (Option<Expr>, Vec<SemiJoin>) {
    let Some(filter) = filter else {
        return (None, Vec::new());
    };
    let mut parts = Vec::new();
    conjuncts(&filter, &mut parts);
    if !parts
        .iter()
        .any(|p| semi_join_of(p, base, width, width).is_some())
    {
        return (Some(filter), Vec::new());
    }
    let mut kept = Vec::new();
    let mut semis: Vec<SemiJoin> = Vec::new();
    let mut end = width;
    for p in parts {
        match semi_join_of(p, base, width, end) {
            Some(s) => {
                end += s.scope.len();
                semis.push(s);
            }
            None => kept.push(p.clone()),
        }
    }
    (crate::expr::and_all(kept), semis)
}

/// The semi join a conjunct stands for, its columns at `offset`: a
/// correlated `[NOT] EXISTS` over one stored table with no grouping,
/// limit, index hint or subquery of its own, reading no parameter past
/// the block's row.
fn semi_join_of(e: &Expr, base: usize, width: usize, offset: usize) -> Option<SemiJoin> {
    let (sub, anti) = match e {
        Expr::Subquery(sub, SubqueryTest::Exists) => (sub, false),
        Expr::Not(inner) => match inner.as_ref() {
            Expr::Subquery(sub, SubqueryTest::Exists) => (sub, true),
            _ => return None,
        },
        _ => return None,
    };
    if !sub.correlated || sub.base != base || sub.width != width {
        return None;
    }
    let QueryPlan::Select(s) = sub.plan.as_any().downcast_ref::<QueryPlan>()? else {
        return None;
    };
    let Source::Table(ts) = &s.source else {
        return None;
    };
    if s.aggregate
        || s.having.is_some()
        || s.window.is_some()
        || s.limit.is_some()
        || s.offset.is_some()
        || ts.forced
    {
        return None;
    }
    let filter = s.filter.as_ref()?;
    let foreign = |x: &Expr| match x {
        Expr::Subquery(..) | Expr::Agg(_) | Expr::Window(_) => true,
        Expr::Param(p) => *p >= base + width,
        _ => false,
    };
    if filter.any(&foreign) {
        return None;
    }
    // The table's columns after the row; the row's (parameters of the
    // subquery) at their places in it.
    let joined = filter.rewrite(&|x| match x {
        Expr::Col(c) => Some(Expr::Col(offset + c)),
        Expr::Param(p) if (base..base + width).contains(p) => Some(Expr::Col(p - base)),
        _ => None,
    });
    let mut on = Vec::new();
    conjuncts(&joined, &mut on);
    // Not a name a query can write: nothing reads these columns.
    let mut scope = crate::names::scope_of(&ts.table, "");
    scope.iter_mut().for_each(|c| c.hidden = true);
    Some(SemiJoin {
        table: ts.table.clone(),
        alias: ts.alias.clone(),
        scope,
        offset,
        on: on.into_iter().cloned().collect(),
        anti,
    })
}
