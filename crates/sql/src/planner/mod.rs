//! Query planning: from the syntax tree to a [`QueryPlan`]: query blocks
//! (FROM items and joins, access paths from the WHERE clause and index
//! hints, output stages), set operations, subqueries.
pub(crate) mod access;
mod cte;
mod derived_merge;
mod from;
pub(crate) mod item_names;
mod join;
mod join_order;
mod join_unit;
pub(crate) mod key_ranges;
pub(crate) mod plan;
mod recursive;
pub(crate) mod row_filter;
mod select;
mod semi_join;
mod set_ops;
mod window;
use crate::catalog::registry::Registry;
use crate::error::{Result, SqlError};
use crate::expr::subquery::{PlannedSubquery, SubqueryPlanner};
use crate::expr::{Compiler, Params, ScopeColumn, SessionFacts};
use crate::planner::plan::{InformationSource, QueryPlan};
use lineardb_table::{Engine, Table, Value, ViewDef};
use sqlparser::ast;
use std::sync::Arc;

/// Context for planning a query.
pub(crate) struct Planner<'a> {
    pub params: &'a Params,
    pub facts: &'a SessionFacts,
    pub variable: &'a dyn Fn(&str) -> Result<Value>,
    /// A stored table or view by name: one the session may read, or with
    /// `false`, any (what a view reads, with its definer's rights).
    pub resolve: &'a mut dyn FnMut(&[String], bool) -> Result<Resolved>,
    /// SQL SECURITY DEFINER views being planned around the current block:
    /// their tables are read with the definer's rights, unchecked (an
    /// INVOKER view's tables are checked against the session's, unless a
    /// DEFINER view holds it).
    pub in_definer_view: usize,
    /// Whether the session may read a server table (schema, name).
    pub may_read_system: &'a dyn Fn(&str, &str) -> Result<()>,
    /// For `performance_schema` tables.
    pub engine: &'a Arc<Engine>,
    pub registry: &'a Arc<Registry>,
    /// Parameters the block being planned runs with.
    pub base: usize,
    /// The blocks around the one being planned, innermost last.
    pub outer: Vec<OuterBlock>,
    /// The lowest parameter an outer column resolved to since the last
    /// subquery began (what decides whether it is correlated).
    pub outer_used: Option<usize>,
    /// Every parameter an outer column resolved to since the last
    /// subquery began (the columns of the rows around it it reads).
    pub outer_refs: Vec<usize>,
    /// Subqueries planned so far (their ids).
    pub subqueries: usize,
    /// Common table expressions in scope (WITH), innermost last.
    pub ctes: Vec<Cte>,
    /// The text the statement being planned was parsed from (select-list
    /// items are named from it); none: names from the syntax tree.
    pub text: Option<Arc<str>>,
    /// Correlated `[NOT] EXISTS` conjuncts may become semi (anti) joins
    /// (not in a locking read, which reads one table by itself).
    pub semi_joins: bool,
    /// The query planned is a locking read's, whose locking clause its
    /// caller carries out: the clause of the top query is let through.
    pub locking_read: bool,
    /// Whether the plan holds `information_schema` rows made when it was
    /// planned (a prepared statement's plan is then made again each run).
    pub read_information_schema: bool,
}

/// A common table expression in scope.
pub(crate) struct Cte {
    pub name: String,
    /// Its column list (`WITH name (a, b) AS ...`), or none.
    pub columns: Vec<String>,
    pub body: CteBody,
}

pub(crate) enum CteBody {
    /// A query planned where it is named (a recursive one when it names
    /// itself under WITH RECURSIVE).
    Query {
        query: Box<ast::Query>,
        recursive: bool,
    },
    /// Inside a recursive CTE's recursive part: the rows of the last
    /// iteration, its columns, and the references made to it so far.
    Working {
        rows: Arc<plan::WorkTable>,
        scope: Vec<(String, crate::result::ColumnKind)>,
        references: usize,
    },
}

/// What a name in FROM is.
pub(crate) enum Resolved {
    Table(Arc<Table>),
    View(ViewDef),
    /// An `information_schema` table and its rows now.
    Information(InformationSource),
}

/// A query block's row, seen from its subqueries.
pub(crate) struct OuterBlock {
    pub scope: Vec<ScopeColumn>,
    /// Its row's first column is this parameter of the subquery.
    pub base: usize,
}

impl<'a> Planner<'a> {
    /// A planner for a statement's top block.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn new(
        params: &'a Params,
        facts: &'a SessionFacts,
        variable: &'a dyn Fn(&str) -> Result<Value>,
        resolve: &'a mut dyn FnMut(&[String], bool) -> Result<Resolved>,
        may_read_system: &'a dyn Fn(&str, &str) -> Result<()>,
        engine: &'a Arc<Engine>,
        registry: &'a Arc<Registry>,
    ) -> Planner<'a> {
        Planner {
            params,
            facts,
            variable,
            resolve,
            in_definer_view: 0,
            may_read_system,
            engine,
            registry,
            base: params.count(),
            outer: Vec::new(),
            outer_used: None,
            outer_refs: Vec::new(),
            subqueries: 0,
            ctes: Vec::new(),
            text: None,
            semi_joins: true,
            locking_read: false,
            read_information_schema: false,
        }
    }

    /// A compiler over `scope` for the block being planned.
    pub(crate) fn compiler<'c>(&'c mut self, scope: &'c [ScopeColumn]) -> Compiler<'c> {
        Compiler {
            scope,
            params: self.params,
            facts: self.facts,
            aggs: None,
            windows: None,
            variable: self.variable,
            base: self.base,
            planner: Some(self),
        }
    }

    pub fn plan_query(&mut self, q: &ast::Query) -> Result<QueryPlan> {
        let pushed = match &q.with {
            Some(with) => {
                for cte in &with.cte_tables {
                    let name = cte.alias.name.value.clone();
                    let recursive = with.recursive && recursive::names_itself(&cte.query, &name);
                    self.ctes.push(Cte {
                        columns: cte
                            .alias
                            .columns
                            .iter()
                            .map(|c| c.name.value.clone())
                            .collect(),
                        name,
                        body: CteBody::Query {
                            query: cte.query.clone(),
                            recursive,
                        },
                    });
                }
                with.cte_tables.len()
            }
            None => 0,
        };
        let r = self.plan_body(q);
        self.ctes.truncate(self.ctes.len() - pushed);
        r
    }

    fn plan_body(&mut self, q: &ast::Query) -> Result<QueryPlan> {
        // (The statement gate refuses these first; a stored view's query
        // does not pass it again.)
        let locking_read = std::mem::take(&mut self.locking_read);
        if q.fetch.is_some() || (!q.locks.is_empty() && !locking_read) {
            return Err(SqlError::unsupported("FETCH / locking clause here"));
        }
        match q.body.as_ref() {
            ast::SetExpr::Select(select) => Ok(QueryPlan::Select(self.plan_select(
                select,
                q.order_by.as_ref(),
                q.limit_clause.as_ref(),
            )?)),
            ast::SetExpr::Query(inner) if q.order_by.is_none() && q.limit_clause.is_none() => {
                self.plan_query(inner)
            }
            ast::SetExpr::SetOperation { .. } | ast::SetExpr::Query(_) => self.plan_set_query(q),
            other => Err(SqlError::unsupported(format!("{other} as a query"))),
        }
    }
}

impl SubqueryPlanner for Planner<'_> {
    fn plan_subquery(
        &mut self,
        q: &ast::Query,
        scope: &[ScopeColumn],
        base: usize,
    ) -> Result<PlannedSubquery> {
        let saved_base = self.base;
        let saved_used = self.outer_used.take();
        let saved_refs = std::mem::take(&mut self.outer_refs);
        self.outer.push(OuterBlock {
            scope: scope.to_vec(),
            base,
        });
        self.base = base + scope.len();
        let plan = self.plan_query(q);
        self.outer.pop();
        self.base = saved_base;
        let used = self.outer_used.take();
        let refs = std::mem::replace(&mut self.outer_refs, saved_refs);
        // Its reads of blocks beyond the enclosing one are that block's too.
        self.outer_refs.extend(refs.iter().filter(|&&p| p < base));
        let mut row_refs: Vec<usize> = refs
            .iter()
            .filter(|&&p| (base..base + scope.len()).contains(&p))
            .map(|p| p - base)
            .collect();
        row_refs.sort_unstable();
        row_refs.dedup();
        // References to blocks beyond the enclosing one make it correlated too.
        self.outer_used = match (saved_used, used.filter(|&u| u < base)) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        let plan = plan?;
        self.subqueries += 1;
        // A subquery that reads a table may find no row: its value may be
        // NULL, and a positive literal's length gets a place for a sign
        // (MariaDB's).
        let first_column = plan.columns().first().map(|c| {
            let mut c = c.clone();
            if !plan.reads_no_table() {
                c.nullable = true;
                if std::mem::take(&mut c.unsigned_length) {
                    c.length += 1;
                }
            }
            c
        });
        Ok(PlannedSubquery {
            columns: plan.columns().iter().map(|c| c.kind).collect(),
            first_column,
            plan: Arc::new(plan),
            id: self.subqueries,
            correlated: used.is_some_and(|u| u < base + scope.len()),
            row_refs,
        })
    }

    fn outer_column(&mut self, table: Option<&str>, name: &str) -> Option<Result<(usize, bool)>> {
        for block in self.outer.iter().rev() {
            let mut found = None;
            for (i, c) in block.scope.iter().enumerate() {
                if c.name.eq_ignore_ascii_case(name)
                    && !(c.hidden && table.is_none())
                    && table.is_none_or(|t| c.table.eq_ignore_ascii_case(t))
                {
                    if found.is_some() {
                        return Some(Err(SqlError::new(
                            1052,
                            "23000",
                            format!("Column '{name}' in where clause is ambiguous"),
                        )));
                    }
                    found = Some((block.base + i, c.stored_timestamp));
                }
            }
            if let Some((p, stored_timestamp)) = found {
                self.outer_used = Some(self.outer_used.map_or(p, |u| u.min(p)));
                self.outer_refs.push(p);
                return Some(Ok((p, stored_timestamp)));
            }
        }
        None
    }
}

/// The settings a statement's optimizer hints give:
/// `/*+ SET_VAR(lineardb_parallel_threads = N) */`,
/// `SET_VAR(lineardb_parallel_min_rows = N)`, `PARALLEL(N)` (N threads
/// whatever the size) and `SET_VAR(lineardb_query_memory = N)`. Other
/// hints (RESOURCE_GROUP, join order...) are accepted and have no effect.
fn run_hints(hints: &[ast::OptimizerHint]) -> plan::RunHints {
    let (mut threads, mut min_rows, mut memory) = (None, None, None);
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
                        "lineardb_query_memory" => {
                            memory = number(value)
                                .filter(|n| *n >= 1024)
                                .map(|n| usize::try_from(n).unwrap_or(usize::MAX))
                                .or(memory)
                        }
                        _ => {}
                    }
                }
                _ => {}
            }
        }
    }
    plan::RunHints {
        threads,
        min_rows,
        memory,
    }
}
