//! WITH RECURSIVE: a CTE whose query names itself is planned as its
//! anchors (the UNION's parts that do not name it, first) and its
//! recursive parts, in which the name reads the rows of the previous
//! iteration (a [`WorkTable`] the executor fills); execution::recursive
//! runs them until an iteration adds no row.
use super::{Cte, CteBody, Planner};
use crate::error::{Result, SqlError};
use crate::expr::ScopeColumn;
use crate::planner::from::Item;
use crate::planner::plan::{QueryPlan, RecursivePlan, Source, WorkTable};
use lineardb_table::Value;
use sqlparser::ast;
use std::ops::ControlFlow;
use std::sync::Arc;

/// Whether `q` names `name` as a table anywhere.
pub(super) fn names_itself(q: &ast::Query, name: &str) -> bool {
    let mut found = false;
    let _ = ast::visit_relations(q, |r| {
        found |= matches!(&r.0[..], [ast::ObjectNamePart::Identifier(i)]
            if i.value.eq_ignore_ascii_case(name));
        ControlFlow::<()>::Continue(())
    });
    found
}

/// MariaDB's error for a recursive part it cannot compute.
pub(crate) fn restrictions_violated(name: &str) -> SqlError {
    SqlError::new(
        4008,
        "HY000",
        format!("Restrictions imposed on recursive definitions are violated for table '{name}'"),
    )
}

/// MariaDB's error for a WITH column list of the wrong length.
pub(crate) fn column_count_mismatch() -> SqlError {
    SqlError::new(
        4002,
        "HY000",
        "WITH column list and SELECT field list have different column counts",
    )
}

fn different_column_counts() -> SqlError {
    SqlError::new(
        1222,
        "21000",
        "The used SELECT statements have a different number of columns",
    )
}

/// The parts of a chain of UNIONs, in order, and their quantifiers.
fn union_parts<'q>(
    body: &'q ast::SetExpr,
    parts: &mut Vec<&'q ast::SetExpr>,
    quantifiers: &mut Vec<ast::SetQuantifier>,
) -> Result<()> {
    match body {
        ast::SetExpr::SetOperation {
            op: ast::SetOperator::Union,
            set_quantifier,
            left,
            right,
        } => {
            union_parts(left, parts, quantifiers)?;
            quantifiers.push(*set_quantifier);
            union_parts(right, parts, quantifiers)
        }
        ast::SetExpr::SetOperation { .. } => Err(SqlError::unsupported(
            "EXCEPT or INTERSECT in a recursive CTE",
        )),
        other => {
            parts.push(other);
            Ok(())
        }
    }
}

/// Whether a recursive part aggregates or groups (which MariaDB refuses).
fn aggregates(part: &ast::SetExpr) -> bool {
    let ast::SetExpr::Select(s) = part else {
        return false;
    };
    let grouped = !matches!(&s.group_by, ast::GroupByExpr::Expressions(l, _) if l.is_empty());
    let mut found = grouped || s.having.is_some();
    for item in &s.projection {
        let _ = ast::visit_expressions(item, |e| {
            if let ast::Expr::Function(f) = e {
                found |= f.over.is_none() && crate::function::is_aggregate(&f.name.to_string());
            }
            ControlFlow::<()>::Continue(())
        });
    }
    found
}

impl Planner<'_> {
    /// The recursive CTE `name` (column list `columns`, query `q`), read
    /// as `alias`.
    pub(super) fn recursive_cte(
        &mut self,
        name: &str,
        columns: &[String],
        q: &ast::Query,
        alias: String,
    ) -> Result<Item> {
        if q.order_by.is_some() || q.limit_clause.is_some() {
            return Err(SqlError::unsupported(
                "global ORDER_BY/LIMIT in recursive CTE spec",
            ));
        }
        let mut parts = Vec::new();
        let mut quantifiers = Vec::new();
        union_parts(&q.body, &mut parts, &mut quantifiers)?;
        let all = quantifiers
            .iter()
            .filter(|q| matches!(q, ast::SetQuantifier::All))
            .count();
        if all != 0 && all != quantifiers.len() {
            return Err(SqlError::unsupported(
                "mix of ALL and DISTINCT UNION operations in recursive CTE spec",
            ));
        }
        let as_query = |part: &ast::SetExpr| {
            let mut one = q.clone();
            one.with = None;
            one.body = Box::new(part.clone());
            one
        };
        let recursive: Vec<bool> = parts
            .iter()
            .map(|p| names_itself(&as_query(p), name))
            .collect();
        let anchors = recursive.iter().take_while(|r| !**r).count();
        if recursive.iter().all(|r| *r) {
            return Err(SqlError::new(
                4005,
                "HY000",
                format!("No anchors for recursive WITH element '{name}'"),
            ));
        }
        if recursive[anchors..].iter().any(|r| !r) {
            return Err(SqlError::unsupported(
                "an anchor after the recursive part of a recursive CTE",
            ));
        }
        // The block's outer columns are not the CTE's.
        let outer = std::mem::take(&mut self.outer);
        let planned = self.plan_recursive_parts(name, columns, &parts, anchors, &as_query);
        self.outer = outer;
        let plan = RecursivePlan {
            distinct: all == 0,
            max_iterations: match (self.variable)("max_recursive_iterations").ok() {
                Some(Value::Int(n)) if n >= 0 => n as u64,
                Some(Value::UInt(n)) => n,
                _ => 1000,
            },
            ..planned?
        };
        let scope = plan.anchors[0]
            .columns()
            .iter()
            .map(|c| ScopeColumn {
                stored_timestamp: false,
                name: c.name.clone(),
                table: alias.clone(),
                kind: c.kind,
                hidden: false,
                numbered: None,
                json: false,
                origin: None,
            })
            .collect();
        Ok(Item {
            source: Source::Recursive(Box::new(plan)),
            scope,
            hints: Vec::new(),
        })
    }

    fn plan_recursive_parts(
        &mut self,
        name: &str,
        columns: &[String],
        parts: &[&ast::SetExpr],
        anchors: usize,
        as_query: &dyn Fn(&ast::SetExpr) -> ast::Query,
    ) -> Result<RecursivePlan> {
        let mut anchor_plans = Vec::new();
        for part in &parts[..anchors] {
            anchor_plans.push(self.plan_query(&as_query(part))?);
        }
        let width = anchor_plans[0].columns().len();
        if !columns.is_empty() {
            if columns.len() != width {
                return Err(column_count_mismatch());
            }
            anchor_plans[0].rename_columns(columns);
        }
        if anchor_plans.iter().any(|p| p.columns().len() != width) {
            return Err(different_column_counts());
        }
        let rows = Arc::new(WorkTable::default());
        self.ctes.push(Cte {
            name: name.to_string(),
            columns: Vec::new(),
            body: CteBody::Working {
                rows: rows.clone(),
                scope: anchor_plans[0]
                    .columns()
                    .iter()
                    .map(|c| (c.name.clone(), c.kind))
                    .collect(),
                references: 0,
            },
        });
        let steps = self.plan_steps(name, &parts[anchors..], width, as_query);
        self.ctes.pop();
        Ok(RecursivePlan {
            anchors: anchor_plans,
            steps: steps?,
            rows,
            distinct: false,
            max_iterations: 0,
        })
    }

    /// The recursive parts, each reading the CTE once (the innermost CTE in
    /// scope is its work table).
    fn plan_steps(
        &mut self,
        name: &str,
        parts: &[&ast::SetExpr],
        width: usize,
        as_query: &dyn Fn(&ast::SetExpr) -> ast::Query,
    ) -> Result<Vec<QueryPlan>> {
        let mut steps = Vec::new();
        for part in parts {
            if aggregates(part) {
                return Err(restrictions_violated(name));
            }
            let plan = self.plan_query(&as_query(part))?;
            let references = match self.ctes.last_mut().map(|c| &mut c.body) {
                Some(CteBody::Working { references, .. }) => std::mem::take(references),
                _ => 0,
            };
            if references != 1 {
                return Err(restrictions_violated(name));
            }
            if plan.columns().len() != width {
                return Err(different_column_counts());
            }
            steps.push(plan);
        }
        Ok(steps)
    }
}
