//! The units a join is planned over: its inner-joined items and
//! outer-joined sides, each at its columns of the joined row.
use crate::expr::{CmpOp, Expr};
use crate::planner::plan::{JoinKind, Source};
use lineardb_table::Collation;
use sqlparser::ast;

/// One unit of the pipeline: an item (or a nested join) whose columns sit
/// at `offset..offset + width` of the joined row.
pub(super) struct Unit {
    pub(super) source: Source,
    pub(super) hints: Vec<ast::TableIndexHints>,
    pub(super) offset: usize,
    pub(super) width: usize,
    /// Inner; the inner side of an outer join; a semi or anti join's.
    pub(super) kind: JoinKind,
    /// Its own conditions (all but inner units), over the joined row.
    pub(super) on: Vec<Expr>,
}

/// The units of the joined row's columns.
pub(super) fn unit_of(units: &[Unit], col: usize) -> usize {
    units
        .iter()
        .position(|u| (u.offset..u.offset + u.width).contains(&col))
        .unwrap_or(0)
}

/// An equality between an expression over `this` unit's columns and one
/// over columns of units in `before` (which hash keys can find): (the
/// side over `before`, the side over `this`, the equality's collation).
pub(super) fn equi_sides(
    e: &Expr,
    units: &[Unit],
    this: usize,
    before: &[bool],
) -> Option<(Expr, Expr, Collation)> {
    let Expr::Cmp(CmpOp::Eq, a, b, collation) = e else {
        return None;
    };
    if e.any(&|x| matches!(x, Expr::Subquery(..))) {
        return None;
    }
    let side = |x: &Expr| -> Option<bool> {
        let cols = x.column_list();
        if cols.is_empty() {
            return None;
        }
        if cols.iter().all(|&c| unit_of(units, c) == this) {
            Some(true)
        } else if cols.iter().all(|&c| before[unit_of(units, c)]) {
            Some(false)
        } else {
            None
        }
    };
    match (side(a)?, side(b)?) {
        (false, true) => Some(((**a).clone(), (**b).clone(), *collation)),
        (true, false) => Some(((**b).clone(), (**a).clone(), *collation)),
        _ => None,
    }
}
