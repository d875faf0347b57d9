//! Set operations (UNION, EXCEPT, INTERSECT, with ALL or DISTINCT) and a
//! parenthesised query's own ORDER BY / LIMIT: the result's sort and limit
//! are a SELECT block over it as a derived table.
use super::select::{limit_offset, select_position};
use super::Planner;
use crate::error::{Result, SqlError};
use crate::expr::{Expr, ScopeColumn};
use crate::planner::plan::{QueryPlan, SelectPlan, SetOpPlan, SetOperator, Source};
use crate::result::Column;
use sqlparser::ast;

impl Planner<'_> {
    /// A query whose body is a set operation or a parenthesised query.
    pub(super) fn plan_set_query(&mut self, q: &ast::Query) -> Result<QueryPlan> {
        let body = self.plan_set_expr(&q.body)?;
        if q.order_by.is_none() && q.limit_clause.is_none() {
            return Ok(body);
        }
        let columns: Vec<Column> = body.columns().to_vec();
        let scope: Vec<ScopeColumn> = columns
            .iter()
            .map(|c| ScopeColumn {
                stored_timestamp: false,
                name: c.name.clone(),
                table: String::new(),
                kind: c.kind,
                hidden: false,
                numbered: None,
                json: false,
                origin: Some(std::sync::Arc::new(c.clone())),
            })
            .collect();
        let mut c = self.compiler(&scope);
        let mut order_by = Vec::new();
        if let Some(ast::OrderBy {
            kind: ast::OrderByKind::Expressions(list),
            ..
        }) = &q.order_by
        {
            for o in list {
                let desc = matches!(o.options.sort, Some(ast::OrderBySort::Desc));
                let x = match &o.expr {
                    ast::Expr::Value(v) if matches!(v.value, ast::Value::Number(..)) => {
                        Expr::Col(select_position(&v.value, columns.len(), "order clause")?)
                    }
                    e => c.compile(e)?,
                };
                let kind = x.kind(&scope, &[]);
                order_by.push((crate::expr::sort_keyed(x, kind), desc));
            }
        }
        let (limit, offset) = limit_offset(&mut c, q.limit_clause.as_ref())?;
        Ok(QueryPlan::Select(SelectPlan {
            source: Source::Derived(Box::new(body)),
            filter: None,
            group_by: Vec::new(),
            aggs: Vec::new(),
            having: None,
            projection: (0..columns.len()).map(Expr::Col).collect(),
            columns,
            order_by,
            distinct: false,
            limit,
            offset,
            aggregate: false,
            hints: Default::default(),
            group_row_columns: Vec::new(),
            window: None,
            rollup: false,
        }))
    }

    fn plan_set_expr(&mut self, e: &ast::SetExpr) -> Result<QueryPlan> {
        match e {
            ast::SetExpr::Select(s) => Ok(QueryPlan::Select(self.plan_select(s, None, None)?)),
            ast::SetExpr::Query(q) => self.plan_query(q),
            ast::SetExpr::SetOperation {
                op,
                set_quantifier,
                left,
                right,
            } => {
                let left = self.plan_set_expr(left)?;
                let right = self.plan_set_expr(right)?;
                let op = match op {
                    ast::SetOperator::Union => SetOperator::Union,
                    ast::SetOperator::Except | ast::SetOperator::Minus => SetOperator::Except,
                    ast::SetOperator::Intersect => SetOperator::Intersect,
                };
                let all = match set_quantifier {
                    ast::SetQuantifier::All => true,
                    ast::SetQuantifier::Distinct | ast::SetQuantifier::None => false,
                    other => return Err(SqlError::unsupported(format!("{op:?} {other}"))),
                };
                if left.columns().len() != right.columns().len() {
                    return Err(SqlError::new(
                        1222,
                        "21000",
                        "The used SELECT statements have a different number of columns",
                    ));
                }
                let columns = left
                    .columns()
                    .iter()
                    .zip(right.columns())
                    .map(|(l, r)| crate::expr::result_type::union_column(l, r, all))
                    .collect();
                Ok(QueryPlan::SetOp(Box::new(SetOpPlan {
                    op,
                    all,
                    left: Box::new(left),
                    right: Box::new(right),
                    columns,
                })))
            }
            other => Err(SqlError::unsupported(format!("{other} as a query"))),
        }
    }
}
