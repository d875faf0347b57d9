//! SELECT planning: from the syntax tree to a [`SelectPlan`] (row source,
//! access path from the WHERE clause and index hints, output stages).
pub(crate) mod access;
pub(crate) mod key_ranges;
pub(crate) mod plan;
pub(crate) mod row_filter;
use crate::catalog::perf_schema::SystemTable;
use crate::catalog::registry::Registry;
use crate::error::{Result, SqlError};
use crate::expr::{object_name, AggFunc, Compiler, Expr, Params, ScopeColumn, SessionFacts};
use crate::names::scope_of;
use crate::planner::access::choose_access;
use crate::planner::plan::{Path, SelectPlan, Source, TableSource};
use crate::result::Column;
use lineardb_table::{Engine, Table, Value};
use sqlparser::ast;
use std::sync::Arc;

/// Context for planning a SELECT.
pub(crate) struct Planner<'a> {
    pub params: &'a Params,
    pub facts: &'a SessionFacts,
    pub variable: &'a dyn Fn(&str) -> Option<Value>,
    /// A stored table the session may read, by name.
    pub resolve: &'a mut dyn FnMut(&[String]) -> Result<Arc<Table>>,
    /// Whether the session may read a server table (schema, name).
    pub may_read_system: &'a dyn Fn(&str, &str) -> Result<()>,
    /// For `performance_schema` tables.
    pub engine: &'a Arc<Engine>,
    pub registry: &'a Arc<Registry>,
}

impl Planner<'_> {
    /// The source and scope of a stored table named `parts`.
    fn table_factor(
        &mut self,
        parts: &[String],
        alias: &Option<ast::TableAlias>,
        index_hints: &[ast::TableIndexHints],
    ) -> Result<(Source, Vec<ScopeColumn>, Vec<ast::TableIndexHints>)> {
        let table = (self.resolve)(parts)?;
        let alias = alias
            .as_ref()
            .map(|a| a.name.value.clone())
            .unwrap_or_else(|| parts.last().cloned().unwrap_or_default());
        let scope = scope_of(&table, &alias);
        Ok((
            Source::Table(TableSource {
                table,
                path: Path::table_scan(None),
                others: Vec::new(),
                fetch: Vec::new(),
                forced: false,
            }),
            scope,
            index_hints.to_vec(),
        ))
    }

    pub fn plan_query(&mut self, q: &ast::Query) -> Result<SelectPlan> {
        let ast::SetExpr::Select(select) = q.body.as_ref() else {
            return match q.body.as_ref() {
                ast::SetExpr::Query(inner) => self.plan_query(inner),
                _ => Err(SqlError::unsupported("UNION / VALUES as a query")),
            };
        };
        let (source, scope, hints): (Source, Vec<ScopeColumn>, Vec<ast::TableIndexHints>) =
            match select.from.as_slice() {
                [] => (Source::Nothing, Vec::new(), Vec::new()),
                [twj] if twj.joins.is_empty() => match &twj.relation {
                    ast::TableFactor::Table {
                        name,
                        alias,
                        index_hints,
                        ..
                    } => {
                        let parts = object_name(name);
                        if let [db, name] = &parts[..] {
                            if db.eq_ignore_ascii_case(crate::catalog::perf_schema::SCHEMA) {
                                (self.may_read_system)(crate::catalog::perf_schema::SCHEMA, name)?;
                                let t = SystemTable::find(name).ok_or_else(|| {
                                    SqlError::unknown_table(
                                        crate::catalog::perf_schema::SCHEMA,
                                        name,
                                    )
                                })?;
                                let alias = alias
                                    .as_ref()
                                    .map(|a| a.name.value.clone())
                                    .unwrap_or_else(|| name.clone());
                                let scope = t
                                    .columns()
                                    .iter()
                                    .map(|(c, kind)| ScopeColumn {
                                        name: c.to_string(),
                                        table: alias.clone(),
                                        kind: *kind,
                                    })
                                    .collect();
                                (
                                    Source::System(t, self.engine.clone(), self.registry.clone()),
                                    scope,
                                    Vec::new(),
                                )
                            } else {
                                self.table_factor(&parts, alias, index_hints)?
                            }
                        } else {
                            self.table_factor(&parts, alias, index_hints)?
                        }
                    }
                    ast::TableFactor::Derived {
                        subquery, alias, ..
                    } => {
                        let inner = self.plan_query(subquery)?;
                        let alias = alias
                            .as_ref()
                            .map(|a| a.name.value.clone())
                            .unwrap_or_default();
                        let scope = inner
                            .columns
                            .iter()
                            .map(|c| ScopeColumn {
                                name: c.name.clone(),
                                table: alias.clone(),
                                kind: c.kind,
                            })
                            .collect();
                        (Source::Derived(Box::new(inner)), scope, Vec::new())
                    }
                    other => return Err(SqlError::unsupported(format!("FROM {other}"))),
                },
                _ => return Err(SqlError::unsupported("joins")),
            };
        let mut c = Compiler {
            scope: &scope,
            params: self.params,
            facts: self.facts,
            aggs: None,
            variable: self.variable,
        };
        let filter = select
            .selection
            .as_ref()
            .map(|e| c.compile(e))
            .transpose()?;
        let group_by = match &select.group_by {
            ast::GroupByExpr::Expressions(list, _) => list
                .iter()
                .map(|e| c.compile(e))
                .collect::<Result<Vec<_>>>()?,
            ast::GroupByExpr::All(_) => return Err(SqlError::unsupported("GROUP BY ALL")),
        };
        c.aggs = Some(Vec::new());
        let mut projection = Vec::new();
        let mut names = Vec::new();
        let mut origins: Vec<Option<usize>> = Vec::new();
        for item in &select.projection {
            match item {
                ast::SelectItem::UnnamedExpr(e) => {
                    let x = c.compile(e)?;
                    origins.push(match x {
                        Expr::Col(i) => Some(i),
                        _ => None,
                    });
                    names.push(match e {
                        ast::Expr::Identifier(i) => i.value.clone(),
                        ast::Expr::CompoundIdentifier(p) => {
                            p.last().map(|i| i.value.clone()).unwrap_or_default()
                        }
                        other => other.to_string(),
                    });
                    projection.push(x);
                }
                ast::SelectItem::ExprWithAlias { expr, alias } => {
                    let x = c.compile(expr)?;
                    origins.push(match x {
                        Expr::Col(i) => Some(i),
                        _ => None,
                    });
                    names.push(alias.value.clone());
                    projection.push(x);
                }
                ast::SelectItem::ExprWithAliases { .. } => {
                    return Err(SqlError::unsupported("several aliases for one expression"))
                }
                ast::SelectItem::Wildcard(_) | ast::SelectItem::QualifiedWildcard(..) => {
                    for (i, s) in scope.iter().enumerate() {
                        projection.push(Expr::Col(i));
                        names.push(s.name.clone());
                        origins.push(Some(i));
                    }
                }
            }
        }
        // HAVING may name a select-list alias (one that is not a column).
        let having = select.having.as_ref().map(|e| {
            let mut e = e.clone();
            let _ = ast::visit_expressions_mut(&mut e, |x| {
                if let ast::Expr::Identifier(i) = x {
                    let is_column = scope.iter().any(|s| s.name.eq_ignore_ascii_case(&i.value));
                    let aliased = select.projection.iter().find_map(|p| match p {
                        ast::SelectItem::ExprWithAlias { expr, alias }
                            if alias.value.eq_ignore_ascii_case(&i.value) =>
                        {
                            Some(expr.clone())
                        }
                        _ => None,
                    });
                    if let (false, Some(expr)) = (is_column, aliased) {
                        *x = ast::Expr::Nested(Box::new(expr));
                    }
                }
                std::ops::ControlFlow::<()>::Continue(())
            });
            e
        });
        let having = having.as_ref().map(|e| c.compile(e)).transpose()?;
        let mut order_by = Vec::new();
        if let Some(ob) = &q.order_by {
            if let ast::OrderByKind::Expressions(list) = &ob.kind {
                for o in list {
                    let desc = matches!(o.options.sort, Some(ast::OrderBySort::Desc));
                    // ORDER BY alias, or position.
                    let x = match &o.expr {
                        ast::Expr::Identifier(i)
                            if names.iter().any(|n| n.eq_ignore_ascii_case(&i.value))
                                && c.column(None, &i.value).is_err() =>
                        {
                            let p = names
                                .iter()
                                .position(|n| n.eq_ignore_ascii_case(&i.value))
                                .unwrap();
                            projection[p].clone()
                        }
                        ast::Expr::Value(v) if matches!(v.value, ast::Value::Number(..)) => {
                            let n: usize = v.value.to_string().parse().unwrap_or(0);
                            if n == 0 || n > projection.len() {
                                return Err(SqlError::new(
                                    1054,
                                    "42S22",
                                    format!("Unknown column '{n}' in 'order clause'"),
                                ));
                            }
                            projection[n - 1].clone()
                        }
                        e => c.compile(e)?,
                    };
                    order_by.push((x, desc));
                }
            }
        }
        let mut aggs = c.aggs.take().unwrap_or_default();
        if let Source::Table(ts) = &source {
            // COUNT(c) of a NOT NULL column counts rows: it reads nothing.
            for a in &mut aggs {
                if let (AggFunc::Count, false, Some(Expr::Col(c))) = (&a.func, a.distinct, &a.arg) {
                    if ts.table.def().columns.get(*c).is_some_and(|d| !d.nullable) {
                        a.func = AggFunc::CountStar;
                        a.arg = None;
                    }
                }
            }
        }
        let aggregate = !aggs.is_empty() || !group_by.is_empty();
        let (limit, offset) = match &q.limit_clause {
            None => (None, None),
            Some(ast::LimitClause::LimitOffset { limit, offset, .. }) => (
                limit.as_ref().map(|e| c.compile(e)).transpose()?,
                offset.as_ref().map(|o| c.compile(&o.value)).transpose()?,
            ),
            Some(ast::LimitClause::OffsetCommaLimit { offset, limit }) => {
                (Some(c.compile(limit)?), Some(c.compile(offset)?))
            }
        };
        let columns = projection
            .iter()
            .zip(&names)
            .zip(&origins)
            .map(|((x, n), o)| {
                let mut col = Column::expr(n, x.kind(&scope, &aggs));
                if let (Some(i), Source::Table(ts)) = (o, &source) {
                    let def = &ts.table.def().columns[*i];
                    col.org_name = def.name.clone();
                    col.table = scope[*i].table.clone();
                    col.schema = ts.table.def().database.clone();
                    col.nullable = def.nullable;
                    col.length = match def.data_type {
                        lineardb_table::DataType::Char(n)
                        | lineardb_table::DataType::VarChar(n) => n,
                        _ => col.length,
                    };
                }
                col
            })
            .collect();
        let mut plan = SelectPlan {
            source,
            filter,
            group_by,
            aggs,
            having,
            projection,
            columns,
            order_by,
            distinct: matches!(select.distinct, Some(ast::Distinct::Distinct)),
            limit,
            offset,
            aggregate,
            parallel_hint: parallel_hints(&select.optimizer_hints),
        };
        if let Source::Table(ts) = &mut plan.source {
            let mut needed = vec![false; ts.table.def().columns.len()];
            let mut mark = |c: usize| {
                if c < needed.len() {
                    needed[c] = true
                }
            };
            plan.filter.iter().for_each(|e| e.columns(&mut mark));
            plan.group_by.iter().for_each(|e| e.columns(&mut mark));
            plan.projection.iter().for_each(|e| e.columns(&mut mark));
            plan.order_by.iter().for_each(|(e, _)| e.columns(&mut mark));
            plan.aggs
                .iter()
                .for_each(|a| a.arg.iter().for_each(|e| e.columns(&mut mark)));
            plan.having.iter().for_each(|e| e.columns(&mut mark));
            choose_access(ts, plan.filter.as_ref(), &needed, &hints)?;
        }
        Ok(plan)
    }
}

/// The parallel-scan settings a statement's optimizer hints give:
/// `/*+ SET_VAR(lineardb_parallel_threads = N) */`,
/// `SET_VAR(lineardb_parallel_min_rows = N)`, and `PARALLEL(N)` (N threads
/// whatever the size). Other hints (RESOURCE_GROUP, join order...) are
/// accepted and have no effect.
fn parallel_hints(hints: &[ast::OptimizerHint]) -> (Option<usize>, Option<u64>) {
    let (mut threads, mut min_rows) = (None, None);
    for h in hints.iter().filter(|h| h.prefix.is_empty()) {
        let mut rest = h.text.as_str();
        // NAME ( ARGS ) repeated.
        while let Some(open) = rest.find('(') {
            let name = rest[..open].trim().to_ascii_uppercase();
            let Some(close) = rest[open..].find(')') else {
                break;
            };
            let args = &rest[open + 1..open + close];
            rest = &rest[open + close + 1..];
            let number = |t: &str| t.trim().parse::<u64>().ok();
            match name.as_str() {
                "PARALLEL" => {
                    if let Some(n) = number(args).filter(|n| (1..=256).contains(n)) {
                        threads = Some(n as usize);
                        min_rows = Some(0);
                    }
                }
                "SET_VAR" => {
                    let Some((var, value)) = args.split_once('=') else {
                        continue;
                    };
                    match var.trim().to_ascii_lowercase().as_str() {
                        "lineardb_parallel_threads" => {
                            threads = number(value)
                                .filter(|n| (1..=256).contains(n))
                                .map(|n| n as usize)
                                .or(threads)
                        }
                        "lineardb_parallel_min_rows" => min_rows = number(value).or(min_rows),
                        _ => {}
                    }
                }
                _ => {}
            }
        }
    }
    (threads, min_rows)
}
