//! Subqueries in UPDATE and DELETE. The rows to change are found by a
//! planned query (subqueries run there, before anything changes); new
//! values that read a subquery are compiled with a planner and computed
//! for every row before the first is written, so subqueries over the
//! table being changed read it as the statement found it, as in MariaDB.
use crate::error::Result;
use crate::expr::{Expr, Params};
use crate::session::Session;
use lineardb_table::Table;
use sqlparser::ast;
use std::ops::ControlFlow;
use std::sync::Arc;

/// Whether a subquery stands anywhere in `e`.
pub(super) fn has_subquery(e: &ast::Expr) -> bool {
    let mut found = false;
    let _ = ast::visit_expressions(e, |x| {
        found |= matches!(
            x,
            ast::Expr::Subquery(_) | ast::Expr::InSubquery { .. } | ast::Expr::Exists { .. }
        );
        ControlFlow::<()>::Continue(())
    });
    found
}

/// The conjuncts of an AND chain (parentheses looked through).
pub(super) fn ast_conjuncts<'a>(e: &'a ast::Expr, out: &mut Vec<&'a ast::Expr>) {
    match e {
        ast::Expr::BinaryOp {
            left,
            op: ast::BinaryOperator::And,
            right,
        } => {
            ast_conjuncts(left, out);
            ast_conjuncts(right, out);
        }
        ast::Expr::Nested(inner) => ast_conjuncts(inner, out),
        other => out.push(other),
    }
}

/// The part of a WHERE clause a locked row is checked against again: its
/// conjuncts without subqueries (those ran when the rows were found; run
/// again after earlier rows changed they could see this statement's own
/// changes).
pub(super) fn recheck_selection(selection: &ast::Expr) -> Option<ast::Expr> {
    let mut parts = Vec::new();
    ast_conjuncts(selection, &mut parts);
    parts
        .into_iter()
        .filter(|e| !has_subquery(e))
        .cloned()
        .reduce(|a, b| ast::Expr::BinaryOp {
            left: Box::new(a),
            op: ast::BinaryOperator::And,
            right: Box::new(b),
        })
}

impl Session {
    /// Compiles `exprs` over the rows of `table` (named `alias`) with a
    /// planner, so that they may hold subqueries; column grants are
    /// checked as for `SELECT exprs FROM table WHERE selection`.
    pub(super) fn compile_with_planner(
        &mut self,
        table: &Arc<Table>,
        alias: Option<&str>,
        exprs: &[&ast::Expr],
        selection: Option<&ast::Expr>,
        params: &Params,
    ) -> Result<Vec<Expr>> {
        let name = alias.unwrap_or(&table.def().name).to_string();
        let scope = crate::names::scope_of(table, &name);
        // The query whose columns column grants are checked against.
        let mut stmts = crate::parser::dialect::parse_sql("SELECT 1 FROM t")?;
        let Some(ast::Statement::Query(mut q)) = stmts.pop() else {
            return Err(crate::error::SqlError::internal("SELECT did not parse"));
        };
        if let ast::SetExpr::Select(s) = q.body.as_mut() {
            s.projection = exprs
                .iter()
                .map(|e| ast::SelectItem::UnnamedExpr((*e).clone()))
                .collect();
            s.selection = selection.cloned();
        }
        self.with_planner(&q, params, |planner| {
            let mut c = planner.compiler(&scope);
            exprs.iter().map(|e| c.compile(e)).collect()
        })
    }
}
