//! SELECT: planning (access path from the WHERE clause and index hints)
//! and execution (scan, filter, aggregate, sort, limit), streaming rows to
//! a [`RowSink`].
use crate::catalog::perf_schema::SystemTable;
use crate::catalog::registry::Registry;
use crate::error::{Result, SqlError};
use crate::expr::{
    compare, object_name, truth_of, Acc, AggFunc, AggSpec, CmpOp, Compiler, Env, Expr, Params, Row,
    ScopeColumn, SessionFacts,
};
use crate::result::{Column, ColumnKind, RowSink};
use crate::row_filter::RowFilter;
use lineardb_sync::{LocalCounter, SharedFlag};
use lineardb_table::{BTree, Engine, KeyRange, ReadView, Table, Value};
use sqlparser::ast;
use std::cmp::Ordering;
use std::ops::Bound;
use std::sync::Arc;

/// Where rows come from.
pub(crate) enum Source {
    /// No FROM: one empty row.
    Nothing,
    Table(TableSource),
    Derived(Box<SelectPlan>),
    /// A `performance_schema` table: rows made when the query runs.
    System(SystemTable, Arc<Engine>, Arc<Registry>),
}

/// The access path chosen for a table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Access {
    /// Clustered index (range or full scan).
    Primary,
    /// Secondary index `i`, reading only the entry (covering).
    Covering(usize),
    /// Secondary index `i`, then the row by primary key (batched).
    NonCovering(usize),
}

pub(crate) struct TableSource {
    pub table: Arc<Table>,
    /// The access path the WHERE clause suits best (most equalities, then a
    /// range; the primary key on ties).
    pub path: Path,
    /// Other indexes the WHERE clause constrains; at run time the trees'
    /// range estimates pick among `path` and these (none when forced).
    pub others: Vec<Path>,
    /// Table columns the query reads (decoded from covering entries).
    pub fetch: Vec<usize>,
    /// The access path was fixed by FORCE INDEX.
    pub forced: bool,
}

/// One way to read a table: an index and what the WHERE clause says about
/// its leading columns.
#[derive(Debug, Clone)]
pub(crate) struct Path {
    pub access: Access,
    /// Key predicates on the index's columns, in index order: equalities on
    /// a prefix, then at most one range.
    pub key: KeyPredicate,
    /// The WHERE clause without the conjuncts the key ranges already
    /// guarantee; applies only when the ranges are built exactly (see
    /// `key_ranges`), otherwise the whole filter does.
    pub residual: Option<Expr>,
}

impl Path {
    fn table_scan(filter: Option<Expr>) -> Path {
        Path {
            access: Access::Primary,
            key: KeyPredicate::default(),
            residual: filter,
        }
    }
}

/// One alternative range: (low, inclusive), (high, inclusive); `None`
/// for no bound on that side.
pub(crate) type RangeAlt = (Option<(Expr, bool)>, Option<(Expr, bool)>);

/// What the WHERE clause says about the chosen index's leading columns.
#[derive(Debug, Clone, Default)]
pub(crate) struct KeyPredicate {
    /// `col = expr` for the first `eq.len()` key columns.
    pub eq: Vec<Expr>,
    /// Alternatives on the next column (IN list, OR of ranges): each
    /// (low, high) with inclusive flags; empty = no range.
    pub ranges: Vec<RangeAlt>,
}

pub(crate) struct SelectPlan {
    pub source: Source,
    pub filter: Option<Expr>,
    pub group_by: Vec<Expr>,
    pub aggs: Vec<AggSpec>,
    pub having: Option<Expr>,
    pub projection: Vec<Expr>,
    pub columns: Vec<Column>,
    /// Sort keys (evaluated like the projection) and descending flags.
    pub order_by: Vec<(Expr, bool)>,
    pub distinct: bool,
    pub limit: Option<Expr>,
    pub offset: Option<Expr>,
    /// Is this an aggregate query (one output row per group)?
    pub aggregate: bool,
    /// Optimizer hints that override the session's parallel-scan settings
    /// for this statement: (threads, fewest rows).
    pub parallel_hint: (Option<usize>, Option<u64>),
}

/// Context for planning a SELECT.
pub(crate) struct Planner<'a> {
    pub params: &'a Params,
    pub facts: &'a SessionFacts,
    pub variable: &'a dyn Fn(&str) -> Option<Value>,
    pub resolve: &'a mut dyn FnMut(&[String]) -> Result<Arc<Table>>,
    /// For `performance_schema` tables.
    pub engine: &'a Arc<Engine>,
    pub registry: &'a Arc<Registry>,
}

/// The columns of `table`, named under `alias`.
pub(crate) fn scope_of(table: &Table, alias: &str) -> Vec<ScopeColumn> {
    table
        .def
        .columns
        .iter()
        .map(|c| ScopeColumn {
            name: c.name.clone(),
            table: alias.to_string(),
            kind: ColumnKind::of(c.data_type),
        })
        .collect()
}

/// The conjuncts of a WHERE clause.
pub(crate) fn conjuncts<'e>(e: &'e Expr, out: &mut Vec<&'e Expr>) {
    match e {
        Expr::And(a, b) => {
            conjuncts(a, out);
            conjuncts(b, out);
        }
        other => out.push(other),
    }
}

/// Ranges a conjunct puts on column `col`, as alternatives; `None` if it
/// says nothing usable about it.
fn ranges_on(e: &Expr, col: usize) -> Option<Vec<RangeAlt>> {
    let is_col = |x: &Expr| matches!(x, Expr::Col(c) if *c == col);
    match e {
        Expr::Cmp(op, a, b) if is_col(a) && b.is_constant() => range_for(*op, (**b).clone()),
        Expr::Cmp(op, a, b) if is_col(b) && a.is_constant() => {
            let flipped = match op {
                CmpOp::Lt => CmpOp::Gt,
                CmpOp::Le => CmpOp::Ge,
                CmpOp::Gt => CmpOp::Lt,
                CmpOp::Ge => CmpOp::Le,
                o => *o,
            };
            range_for(flipped, (**a).clone())
        }
        Expr::Between(x, lo, hi, false) if is_col(x) && lo.is_constant() && hi.is_constant() => {
            Some(vec![(
                Some(((**lo).clone(), true)),
                Some(((**hi).clone(), true)),
            )])
        }
        Expr::InList(x, list, false) if is_col(x) && list.iter().all(Expr::is_constant) => Some(
            list.iter()
                .map(|v| (Some((v.clone(), true)), Some((v.clone(), true))))
                .collect(),
        ),
        Expr::Or(a, b) => {
            let mut l = ranges_on(a, col)?;
            l.extend(ranges_on(b, col)?);
            Some(l)
        }
        _ => None,
    }
}

fn range_for(op: CmpOp, v: Expr) -> Option<Vec<RangeAlt>> {
    Some(vec![match op {
        CmpOp::Eq => (Some((v.clone(), true)), Some((v, true))),
        CmpOp::Lt => (None, Some((v, false))),
        CmpOp::Le => (None, Some((v, true))),
        CmpOp::Gt => (Some((v, false)), None),
        CmpOp::Ge => (Some((v, true)), None),
        CmpOp::Ne | CmpOp::NullSafeEq => return None,
    }])
}

fn is_point(alts: &[RangeAlt]) -> Option<Expr> {
    match alts {
        [(Some((a, true)), Some((b, true)))] if format!("{a:?}") == format!("{b:?}") => {
            Some(a.clone())
        }
        _ => None,
    }
}

/// The key predicate a WHERE clause gives an index with these columns,
/// and the conjuncts it came from as (key column position, index into
/// `filter`). On the range column, a lower bound and an upper bound from
/// two conjuncts (`c >= a AND c < b`) make one range.
fn key_predicate(filter: &[&Expr], key_columns: &[usize]) -> (KeyPredicate, Vec<(usize, usize)>) {
    let mut kp = KeyPredicate::default();
    let mut used = Vec::new();
    for (pos, &c) in key_columns.iter().enumerate() {
        let found: Vec<(usize, Vec<RangeAlt>)> = filter
            .iter()
            .enumerate()
            .filter_map(|(i, e)| ranges_on(e, c).map(|r| (i, r)))
            .collect();
        if let Some((i, v)) = found.iter().find_map(|(i, r)| is_point(r).map(|v| (*i, v))) {
            kp.eq.push(v);
            used.push((pos, i));
            continue;
        }
        // One-sided single ranges: the first lower and first upper bound.
        let lower = found
            .iter()
            .find(|(_, r)| matches!(r.as_slice(), [(Some(_), None)]));
        let upper = found
            .iter()
            .find(|(_, r)| matches!(r.as_slice(), [(None, Some(_))]));
        match (lower, upper) {
            (Some((li, l)), Some((ui, u))) => {
                kp.ranges = vec![(l[0].0.clone(), u[0].1.clone())];
                used.push((pos, *li));
                used.push((pos, *ui));
            }
            _ => {
                // Else a bounded single range, else whatever came first.
                let pick = found
                    .iter()
                    .position(|(_, r)| matches!(r.as_slice(), [(Some(_), Some(_))]))
                    .unwrap_or(0);
                if let Some((i, r)) = found.into_iter().nth(pick) {
                    kp.ranges = r;
                    used.push((pos, i));
                }
            }
        }
        break;
    }
    (kp, used)
}

/// Is the conjunct that put `alts` on column `col` fully guaranteed by the
/// key range built from it? Key order equals SQL order for numbers and
/// dates (string comparison may differ through padding); a range open
/// below also admits NULL keys, which the conjunct rejects.
fn implied_by_range(table: &Table, col: usize, alts: &[RangeAlt]) -> bool {
    let def = &table.def.columns[col];
    let ordered_like_sql = !matches!(
        def.data_type,
        lineardb_table::DataType::Char(_) | lineardb_table::DataType::VarChar(_)
    );
    ordered_like_sql && (!def.nullable || alts.iter().all(|(lo, _)| lo.is_some()))
}

impl KeyPredicate {
    /// How selective it looks: (equalities, has a range). Bigger is better.
    fn strength(&self) -> (usize, bool) {
        (self.eq.len(), !self.ranges.is_empty())
    }
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
        let having = select.having.as_ref().map(|e| c.compile(e)).transpose()?;
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
                    if ts.table.def.columns.get(*c).is_some_and(|d| !d.nullable) {
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
                    let def = &ts.table.def.columns[*i];
                    col.org_name = def.name.clone();
                    col.table = scope[*i].table.clone();
                    col.schema = ts.table.def.database.clone();
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
            let mut needed = vec![false; ts.table.def.columns.len()];
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

/// Most other indexes weighed by range estimates at run time.
const MAX_RUNTIME_CHOICES: usize = 3;

/// Picks the access path: index hints first, then the index whose leading
/// columns the WHERE clause constrains most (equalities, then a range),
/// the primary key winning ties; covering when the index holds every
/// column the query reads.
fn choose_access(
    ts: &mut TableSource,
    filter: Option<&Expr>,
    needed: &[bool],
    hints: &[ast::TableIndexHints],
) -> Result<()> {
    let table = &ts.table;
    let mut parts = Vec::new();
    if let Some(f) = filter {
        conjuncts(f, &mut parts);
    }
    let index_by_name = |n: &str| -> Result<Option<usize>> {
        if n.eq_ignore_ascii_case("PRIMARY") {
            return Ok(None);
        }
        table.def.index_position(n).map(Some).ok_or_else(|| {
            SqlError::new(
                1176,
                "42000",
                format!("Key '{n}' doesn't exist in table '{}'", table.def.name),
            )
        })
    };
    // Candidates: None = primary, Some(i) = secondary i.
    let mut candidates: Vec<Option<usize>> = std::iter::once(None)
        .chain((0..table.indexes.len()).map(Some))
        .collect();
    let mut forced = false;
    for h in hints {
        let named: Vec<Option<usize>> = h
            .index_names
            .iter()
            .map(|n| index_by_name(&n.value))
            .collect::<Result<_>>()?;
        match h.hint_type {
            ast::TableIndexHintType::Ignore => candidates.retain(|c| !named.contains(c)),
            ast::TableIndexHintType::Use | ast::TableIndexHintType::Force => {
                if !named.is_empty() {
                    candidates.retain(|c| named.contains(c));
                }
                forced |= h.hint_type == ast::TableIndexHintType::Force;
            }
        }
    }
    let pk_cols = &table.def.primary_key;
    let columns_of = |c: Option<usize>| -> Vec<usize> {
        match c {
            None => pk_cols.clone(),
            Some(i) => table.def.indexes[i].columns.clone(),
        }
    };
    // (index or None for the primary key, its key predicate, conjuncts used)
    type Candidate = (Option<usize>, KeyPredicate, Vec<(usize, usize)>);
    let mut found: Vec<Candidate> = candidates
        .iter()
        .map(|&cand| {
            let (kp, used) = key_predicate(&parts, &columns_of(cand));
            (cand, kp, used)
        })
        .collect();
    // Strongest first; the primary key (listed first) wins ties.
    found.sort_by_key(|(_, kp, _)| std::cmp::Reverse(kp.strength()));
    let usable = |kp: &KeyPredicate| kp.strength() != (0, false);
    let path_of = |(choice, kp, used): Candidate| {
        // Conjuncts the key range guarantees need no evaluation per row.
        let key_cols = columns_of(choice);
        let implied: Vec<usize> = used
            .iter()
            .filter(|&&(pos, _)| {
                let alts = if pos < kp.eq.len() {
                    Vec::new() // an equality: bounded on both sides
                } else {
                    kp.ranges.clone()
                };
                implied_by_range(table, key_cols[pos], &alts)
            })
            .map(|&(_, conjunct)| conjunct)
            .collect();
        let residual = parts
            .iter()
            .enumerate()
            .filter(|(i, _)| !implied.contains(i))
            .map(|(_, e)| (*e).clone())
            .reduce(|a, b| Expr::And(Box::new(a), Box::new(b)));
        let access = match choice {
            None => Access::Primary,
            Some(i) => {
                let def = &table.def.indexes[i];
                let covered = needed
                    .iter()
                    .enumerate()
                    .all(|(c, &n)| !n || def.columns.contains(&c) || pk_cols.contains(&c));
                if covered && !pk_cols.is_empty() {
                    Access::Covering(i)
                } else {
                    Access::NonCovering(i)
                }
            }
        };
        Path {
            access,
            key: kp,
            residual,
        }
    };
    let mut found = found.into_iter();
    let whole = filter.cloned();
    ts.path = match found.next() {
        // Without a usable predicate, a secondary index is used only when
        // forced (a full index scan); otherwise the table is scanned.
        Some(best) if usable(&best.1) || (forced && best.0.is_some()) => path_of(best),
        _ => Path::table_scan(whole),
    };
    ts.others = if forced {
        Vec::new()
    } else {
        found
            .filter(|(_, kp, _)| usable(kp))
            .take(MAX_RUNTIME_CHOICES)
            .map(path_of)
            .collect()
    };
    ts.fetch = (0..needed.len()).filter(|&c| needed[c]).collect();
    ts.forced = forced;
    Ok(())
}

/// One source row handed to the pipeline.
enum SourceRow<'r> {
    Row(lineardb_table::RowRef<'r>),
    Values(&'r [Value]),
}

/// A per-row filter: a table source's, prepared for its stored rows, or
/// another source's expression.
#[derive(Clone, Copy)]
enum Filter<'f> {
    Table(&'f RowFilter),
    Expr(&'f Expr),
}

impl SourceRow<'_> {
    /// Whether the row passes `filter` (a stored row through the range
    /// checks first).
    #[inline(always)]
    fn passes(&self, filter: Filter<'_>, env: Env<'_>) -> Result<bool> {
        match (filter, self) {
            (Filter::Table(f), SourceRow::Row(r)) => {
                if !f.passes_checks(r) {
                    return Ok(false);
                }
                f.passes_rest(r, env)
            }
            (Filter::Table(f), SourceRow::Values(v)) => f.passes(*v, env),
            (Filter::Expr(e), row) => Ok(truth_of(&e.eval(row, env)?) == Some(true)),
        }
    }
}

impl Row for SourceRow<'_> {
    #[inline]
    fn get(&self, col: usize) -> Value {
        match self {
            SourceRow::Row(r) => r.value(col),
            SourceRow::Values(v) => Row::get(*v, col),
        }
    }
}

/// Builds the key ranges to scan for the chosen index; `None` if a bound
/// could not be turned into a key (the scan then covers everything and
/// the filter decides).
fn key_ranges(t: &Table, path: &Path, env: Env<'_>) -> Result<Option<Vec<KeyRange>>> {
    let (types, cols): (Vec<lineardb_table::KeyColumn>, Vec<usize>) = match path.access {
        Access::Primary => (t.primary_key_types().to_vec(), t.def.primary_key.clone()),
        Access::Covering(i) | Access::NonCovering(i) => {
            (t.index_types(i).to_vec(), t.def.indexes[i].columns.clone())
        }
    };
    let empty: &[Value] = &[];
    let coerce = |pos: usize, e: &Expr| -> Result<Option<Value>> {
        let v = e.eval(empty, env)?;
        if v.is_null() {
            return Ok(None);
        }
        let col = &t.def.columns[cols[pos]];
        match col.data_type.coerce(v.clone(), &col.name) {
            Ok(k) if compare(&k, &v) == Some(Ordering::Equal) => Ok(Some(k)),
            _ => Err(SqlError::internal("inexact")),
        }
    };
    let mut eq = Vec::new();
    for (i, e) in path.key.eq.iter().enumerate() {
        match coerce(i, e) {
            Ok(Some(v)) => eq.push(v),
            Ok(None) => return Ok(Some(Vec::new())), // col = NULL: nothing
            Err(_) => return Ok(None),
        }
    }
    if path.key.ranges.is_empty() {
        if eq.is_empty() {
            return Ok(Some(vec![KeyRange::all()]));
        }
        return Ok(Some(vec![KeyRange::from_values(
            &types,
            Bound::Included(&eq),
            Bound::Included(&eq),
        )]));
    }
    let pos = eq.len();
    let mut out = Vec::new();
    for (lo, hi) in &path.key.ranges {
        let bound = |b: &Option<(Expr, bool)>| -> Result<Option<Option<(Value, bool)>>> {
            match b {
                None => Ok(Some(None)),
                Some((e, inc)) => match coerce(pos, e) {
                    Ok(Some(v)) => Ok(Some(Some((v, *inc)))),
                    Ok(None) => Ok(None),
                    Err(_) => Err(SqlError::internal("inexact")),
                },
            }
        };
        let (l, h) = match (bound(lo), bound(hi)) {
            (Ok(Some(l)), Ok(Some(h))) => (l, h),
            (Ok(None), _) | (_, Ok(None)) => continue, // NULL bound: no rows
            _ => return Ok(None),
        };
        let (lo_end, hi_end) = (range_end(&eq, l), range_end(&eq, h));
        out.push(KeyRange::from_values(
            &types,
            as_bound(&lo_end),
            as_bound(&hi_end),
        ));
    }
    // Alternatives in key order, overlaps merged (each row once).
    out.sort_by(|a, b| a.start.cmp(&b.start));
    let mut merged: Vec<KeyRange> = Vec::new();
    for r in out {
        if let Some(last) = merged.last_mut() {
            let overlaps = match &last.end {
                None => true,
                Some(e) => r.start <= *e,
            };
            if overlaps {
                last.end = match (&last.end, &r.end) {
                    (None, _) | (_, None) => None,
                    (Some(a), Some(b)) => Some(a.max(b).clone()),
                };
                continue;
            }
        }
        merged.push(r);
    }
    Ok(Some(merged))
}

/// One end of a key range: the equality prefix `eq` followed by the range
/// column's bound, if any, and whether it is inclusive; `None` = unbounded.
fn range_end(eq: &[Value], end: Option<(Value, bool)>) -> Option<(Vec<Value>, bool)> {
    match end {
        None if eq.is_empty() => None,
        None => Some((eq.to_vec(), true)),
        Some((v, inclusive)) => {
            let mut values = eq.to_vec();
            values.push(v);
            Some((values, inclusive))
        }
    }
}

fn as_bound(end: &Option<(Vec<Value>, bool)>) -> Bound<&[Value]> {
    match end {
        None => Bound::Unbounded,
        Some((values, true)) => Bound::Included(values),
        Some((values, false)) => Bound::Excluded(values),
    }
}

/// Group state: the group's key values, a representative row's projection
/// inputs and the accumulators.
struct Group {
    first_row: Vec<Value>,
    accs: Vec<Acc>,
}

/// Groups in order of first appearance, found by their encoded key.
#[derive(Default)]
struct Groups {
    index: std::collections::HashMap<Vec<u8>, usize>,
    list: Vec<Group>,
}

impl Groups {
    /// Folds another thread's groups into these (same plan, same keys).
    fn merge(&mut self, other: Groups) -> Result<()> {
        if self.list.is_empty() {
            *self = other;
            return Ok(());
        }
        if self.index.is_empty() {
            // No GROUP BY: at most one group each.
            if let (Some(mine), Some(theirs)) =
                (self.list.first_mut(), other.list.into_iter().next())
            {
                for (a, b) in mine.accs.iter_mut().zip(theirs.accs) {
                    a.merge(b)?;
                }
            }
            return Ok(());
        }
        let mut by_position: Vec<(Vec<u8>, usize)> = other.index.into_iter().collect();
        by_position.sort_by_key(|(_, i)| *i);
        let mut theirs: Vec<Option<Group>> = other.list.into_iter().map(Some).collect();
        for (key, i) in by_position {
            let g = theirs[i].take().expect("each group once");
            match self.index.get(&key) {
                Some(&j) => {
                    for (a, b) in self.list[j].accs.iter_mut().zip(g.accs) {
                        a.merge(b)?;
                    }
                }
                None => {
                    self.index.insert(key, self.list.len());
                    self.list.push(g);
                }
            }
        }
        Ok(())
    }
}

impl SelectPlan {
    /// Runs the plan, sending columns and rows to `sink`.
    /// Stops with error 1317 when `cx.stop` is set (KILL QUERY).
    pub fn run(&self, params: &[Value], cx: &RunContext<'_>, sink: &mut dyn RowSink) -> Result<()> {
        sink.columns(&self.columns)?;
        let env = Env { params, aggs: &[] };
        let int_of = |e: &Option<Expr>| -> Result<Option<u64>> {
            e.as_ref()
                .map(|e| match e.eval(&[][..], env)? {
                    Value::Int(i) if i >= 0 => Ok(i as u64),
                    Value::UInt(u) => Ok(u),
                    Value::Bytes(b) => String::from_utf8_lossy(&b)
                        .trim()
                        .parse::<u64>()
                        .map_err(|_| SqlError::syntax("bad LIMIT")),
                    _ => Err(SqlError::syntax(
                        "LIMIT and OFFSET take non-negative integers",
                    )),
                })
                .transpose()
        };
        let limit = int_of(&self.limit)?.unwrap_or(u64::MAX);
        let offset = int_of(&self.offset)?.unwrap_or(0);
        let mut out = Output::new(self, limit, offset);
        if limit == 0 {
            return Ok(());
        }
        // Key ranges, access path and per-row filter, decided once.
        let table_run = match &self.source {
            Source::Table(ts) => Some(access_for_run(ts, self.filter.as_ref(), params)?),
            _ => None,
        };
        let table_run = table_run.as_ref();
        if self.aggregate {
            let cx = RunContext {
                threads: self.parallel_hint.0.unwrap_or(cx.threads),
                min_rows: self.parallel_hint.1.unwrap_or(cx.min_rows),
                ..*cx
            };
            let parallel = match table_run {
                Some(run) => self.parallel_aggregate(params, &cx, run)?,
                None => None,
            };
            let mut groups = match parallel {
                Some(groups) => groups,
                None => {
                    let mut groups = Groups::default();
                    let mut key = Vec::new();
                    self.scan_fallible(params, &cx, table_run, &mut |row| {
                        self.accumulate(row, env, &mut groups, &mut key)
                            .map(|()| true)
                    })?;
                    groups
                }
            };
            if groups.list.is_empty() && self.group_by.is_empty() {
                // No rows and no GROUP BY: one row of empty aggregates.
                groups.list.push(Group {
                    first_row: Vec::new(),
                    accs: self.aggs.iter().map(Acc::new).collect(),
                });
            }
            for g in &groups.list {
                let aggs: Vec<Value> = g.accs.iter().map(Acc::finish).collect();
                let genv = Env {
                    params,
                    aggs: &aggs,
                };
                if let Some(h) = &self.having {
                    if truth_of(&h.eval(&g.first_row[..], genv)?) != Some(true) {
                        continue;
                    }
                }
                if !out.push(&g.first_row[..], genv, sink)? {
                    break;
                }
            }
        } else {
            self.scan_fallible(params, cx, table_run, &mut |row| out.push(row, env, sink))?;
        }
        out.finish(sink)
    }

    /// Aggregates a big table scan on several threads: the key range is cut
    /// into pieces (parallel::split_range), each thread filters and
    /// aggregates the pieces it takes into groups of its own, and the
    /// groups are merged at the end. `None` when the plan does not qualify:
    /// one thread allowed, a small range (tree estimate), non-covering
    /// access, DISTINCT aggregates, or a GROUP BY whose output order would
    /// then depend on the threads (no ORDER BY).
    fn parallel_aggregate(
        &self,
        params: &[Value],
        cx: &RunContext<'_>,
        run: &TableRun,
    ) -> Result<Option<Groups>> {
        let Source::Table(ts) = &self.source else {
            return Ok(None);
        };
        if cx.threads <= 1
            || (!self.group_by.is_empty() && self.order_by.is_empty())
            || self.aggs.iter().any(|a| a.distinct)
        {
            return Ok(None);
        }
        let env = Env { params, aggs: &[] };
        let (ranges, access, filter) = (&run.ranges, run.access, run.filter.as_ref());
        if matches!(access, Access::NonCovering(_))
            || estimate(&ts.table, access, ranges) < cx.min_rows
        {
            return Ok(None);
        }
        if let Some(c) = cx.parallel_scans {
            c.add(1);
        }
        let tree = tree_of(&ts.table, access);
        let mut pieces = Vec::new();
        for r in ranges {
            pieces.extend(lineardb_table::parallel::split_range(
                tree,
                r,
                cx.threads * lineardb_table::parallel::PIECES_PER_THREAD,
            )?);
        }
        // Each worker: its groups, its key buffer, the first error it met.
        type State = (Groups, Vec<u8>, Option<SqlError>);
        let states = lineardb_table::parallel::run_pieces(
            &pieces,
            cx.threads,
            || -> State { (Groups::default(), Vec::new(), None) },
            |(groups, key, err), piece| {
                if err.is_some() {
                    return Ok(());
                }
                let mut seen = 0u32;
                let mut pass = |row: &SourceRow<'_>| -> bool {
                    seen = seen.wrapping_add(1);
                    if seen.is_multiple_of(1024) && cx.stop.get() {
                        *err = Some(SqlError::interrupted());
                        return false;
                    }
                    if let Some(f) = filter {
                        match row.passes(Filter::Table(f), env) {
                            Ok(true) => {}
                            Ok(false) => return true,
                            Err(e) => {
                                *err = Some(e);
                                return false;
                            }
                        }
                    }
                    match self.accumulate(row, env, groups, key) {
                        Ok(()) => true,
                        Err(e) => {
                            *err = Some(e);
                            false
                        }
                    }
                };
                if let Err(e) = scan_range(cx.view, ts, access, true, piece, &mut pass) {
                    *err = Some(e);
                }
                Ok(())
            },
        )?;
        let mut merged = Groups::default();
        for (groups, _, err) in states {
            if let Some(e) = err {
                return Err(e);
            }
            merged.merge(groups)?;
        }
        if cx.stop.get() {
            return Err(SqlError::interrupted());
        }
        Ok(Some(merged))
    }

    /// Adds one row to its group (the only group without GROUP BY).
    fn accumulate(
        &self,
        row: &SourceRow<'_>,
        env: Env<'_>,
        groups: &mut Groups,
        key: &mut Vec<u8>,
    ) -> Result<()> {
        let existing = if self.group_by.is_empty() {
            (!groups.list.is_empty()).then_some(0)
        } else {
            key.clear();
            for g in &self.group_by {
                let v = g.eval(row, env)?;
                key.push(v.is_null() as u8);
                let t = v.to_text().unwrap_or_default();
                key.extend_from_slice(&(t.len() as u32).to_le_bytes());
                key.extend_from_slice(t.as_bytes());
            }
            let found = groups.index.get(key.as_slice()).copied();
            if found.is_none() {
                groups.index.insert(key.clone(), groups.list.len());
            }
            found
        };
        let g = match existing {
            Some(i) => &mut groups.list[i],
            None => {
                let width = self.columns_in_scope();
                groups.list.push(Group {
                    first_row: (0..width).map(|c| row.get(c)).collect(),
                    accs: self.aggs.iter().map(Acc::new).collect(),
                });
                groups.list.last_mut().expect("pushed")
            }
        };
        for (acc, spec) in g.accs.iter_mut().zip(&self.aggs) {
            match (&spec.func, &spec.arg) {
                (AggFunc::CountStar, _) | (_, None) => acc.add(&Value::Int(1))?,
                (_, Some(e)) => acc.add(&e.eval(row, env)?)?,
            }
        }
        Ok(())
    }

    fn columns_in_scope(&self) -> usize {
        match &self.source {
            Source::Nothing => 0,
            Source::Table(t) => t.table.def.columns.len(),
            Source::Derived(p) => p.columns.len(),
            Source::System(t, ..) => t.columns().len(),
        }
    }

    /// [`scan`](Self::scan) with a row handler that can fail: `Ok(false)`
    /// stops the scan, an error stops it and is returned.
    fn scan_fallible(
        &self,
        params: &[Value],
        cx: &RunContext<'_>,
        table_run: Option<&TableRun>,
        f: &mut dyn FnMut(&SourceRow<'_>) -> Result<bool>,
    ) -> Result<()> {
        let mut err = None;
        self.scan(params, cx, table_run, &mut |row| match f(row) {
            Ok(more) => more,
            Err(e) => {
                err = Some(e);
                false
            }
        })?;
        err.map_or(Ok(()), Err)
    }

    /// Feeds the rows that pass the WHERE clause to `f` until it says stop.
    /// `table_run` is the table source's plan for this execution.
    fn scan(
        &self,
        params: &[Value],
        cx: &RunContext<'_>,
        table_run: Option<&TableRun>,
        f: &mut dyn FnMut(&SourceRow<'_>) -> bool,
    ) -> Result<()> {
        let stop = cx.stop;
        let env = Env { params, aggs: &[] };
        // From a table, only the conjuncts the key ranges do not guarantee
        // are evaluated per row.
        let filter = match table_run {
            Some(run) => run.filter.as_ref().map(Filter::Table),
            None => self.filter.as_ref().map(Filter::Expr),
        };
        let mut err: Option<SqlError> = None;
        let mut seen = 0u32;
        let mut pass = |row: &SourceRow<'_>| -> bool {
            seen = seen.wrapping_add(1);
            if seen.is_multiple_of(1024) && stop.get() {
                err = Some(SqlError::interrupted());
                return false;
            }
            if let Some(filter) = filter {
                match row.passes(filter, env) {
                    Ok(true) => {}
                    Ok(false) => return true,
                    Err(e) => {
                        err = Some(e);
                        return false;
                    }
                }
            }
            f(row)
        };
        match &self.source {
            Source::Nothing => {
                pass(&SourceRow::Values(&[]));
            }
            Source::System(t, engine, registry) => {
                for r in &t.rows(engine, registry) {
                    if !pass(&SourceRow::Values(r)) {
                        break;
                    }
                }
            }
            Source::Derived(inner) => {
                let mut rows = crate::result::CollectSink::default();
                inner.run(
                    params,
                    &RunContext {
                        stop,
                        view: cx.view,
                        threads: 1,
                        min_rows: u64::MAX,
                        parallel_scans: None,
                    },
                    &mut rows,
                )?;
                for r in &rows.rows {
                    if !pass(&SourceRow::Values(r)) {
                        break;
                    }
                }
            }
            Source::Table(ts) => {
                let TableRun { ranges, access, .. } = table_run.expect("built by run");
                // Rows may come in primary-key order when nothing depends on order.
                let unordered = self.aggregate && self.group_by.is_empty();
                for r in ranges {
                    if !scan_range(cx.view, ts, *access, unordered, r, &mut pass)? {
                        break;
                    }
                }
            }
        }
        match err {
            Some(e) => Err(e),
            None if stop.get() => Err(SqlError::interrupted()),
            None => Ok(()),
        }
    }
}

/// How a plan runs: the KILL QUERY flag it watches and the threads a big
/// scan may use (the session's `lineardb_parallel_threads`).
pub(crate) struct RunContext<'a> {
    pub stop: &'a SharedFlag,
    /// The snapshot the plan reads.
    pub view: &'a ReadView,
    pub threads: usize,
    /// Fewest rows (estimated from the tree) worth a parallel scan.
    pub min_rows: u64,
    /// Counts the scans that ran in parallel (the session's own counter).
    pub parallel_scans: Option<&'a LocalCounter>,
}

/// A non-covering scan estimated to read more than this fraction of the
/// table (1 / N) reads the table instead: a primary-key lookup per row
/// costs about as much as reading N rows in key order.
const LOOKUPS_PER_SEQUENTIAL_ROW: u64 = 10;
/// Ranges this small keep their index even in a tiny table (both ways are
/// cheap there, and the index is what EXPLAIN readers expect).
const SMALL_RANGE: u64 = 64;

/// What one execution reads from its table.
pub(crate) struct TableRun {
    ranges: Vec<KeyRange>,
    access: Access,
    /// The WHERE conjuncts left to evaluate per row, parameters bound.
    filter: Option<RowFilter>,
}

/// What one execution of a table source reads: key ranges, access path,
/// and the part of the WHERE clause left to evaluate per row (bound to the
/// parameters). When the WHERE clause constrains several indexes (and no
/// index is forced), the trees' range estimates pick the cheapest, a
/// non-covering row costing [`LOOKUPS_PER_SEQUENTIAL_ROW`] rows; a table
/// scan replaces a path whose ranges cannot be built exactly, or an
/// unforced non-covering scan that costs more than reading the table.
fn access_for_run(
    ts: &TableSource,
    full_filter: Option<&Expr>,
    params: &[Value],
) -> Result<TableRun> {
    let env = Env { params, aggs: &[] };
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
        let mut best = chosen.map(|(r, p)| (cost(p.access, &r), r, p));
        for other in &ts.others {
            if let Some(r) = key_ranges(t, other, env)? {
                let c = cost(other.access, &r);
                if best.as_ref().is_none_or(|(b, _, _)| c < *b) {
                    best = Some((c, r, other));
                }
            }
        }
        chosen = best.map(|(_, r, p)| (r, p));
    }
    let table_scan = || (vec![KeyRange::all()], Access::Primary, full_filter);
    let (ranges, access, filter) = match chosen {
        Some((r, path)) => {
            let too_many = matches!(path.access, Access::NonCovering(_)) && !ts.forced && {
                let rows = estimate(t, path.access, &r);
                rows > SMALL_RANGE
                    && rows.saturating_mul(LOOKUPS_PER_SEQUENTIAL_ROW)
                        > t.primary.estimate_range(&[], None).unwrap_or(u64::MAX)
            };
            if too_many {
                table_scan()
            } else {
                (r, path.access, path.residual.as_ref())
            }
        }
        None => table_scan(),
    };
    Ok(TableRun {
        ranges,
        access,
        filter: filter.map(|f| RowFilter::new(bind_to_table(f, params, t), t.layout.types())),
    })
}

/// `filter` for one execution over `table` (see [`Expr::bind`]).
fn bind_to_table(filter: &Expr, params: &[Value], table: &Table) -> Expr {
    let kind_of = |c: usize| {
        table
            .def
            .columns
            .get(c)
            .map_or(ColumnKind::Text, |d| ColumnKind::of(d.data_type))
    };
    filter.bind(params, &kind_of)
}

/// The tree an access path reads first.
fn tree_of(t: &Table, access: Access) -> &BTree {
    match access {
        Access::Primary => &t.primary,
        Access::Covering(i) | Access::NonCovering(i) => &t.indexes[i].tree,
    }
}

/// Estimated entries of `ranges` in the access path's tree.
fn estimate(t: &Table, access: Access, ranges: &[KeyRange]) -> u64 {
    let tree = tree_of(t, access);
    ranges
        .iter()
        .map(|r| tree.estimate_range(&r.start, r.end.as_deref()).unwrap_or(0))
        .sum()
}

/// Scans one key range of `ts` through `access`, handing each row to
/// `pass` until it returns false; returns whether to go on.
fn scan_range(
    view: &ReadView,
    ts: &TableSource,
    access: Access,
    unordered: bool,
    r: &KeyRange,
    pass: &mut dyn FnMut(&SourceRow<'_>) -> bool,
) -> Result<bool> {
    let t = &ts.table;
    let mut go = true;
    match access {
        Access::Primary => t.scan_primary(view, r, |_, row| {
            go = pass(&SourceRow::Row(row));
            go
        })?,
        Access::NonCovering(i) if unordered => t.scan_index_rows_unordered(view, i, r, |row| {
            go = pass(&SourceRow::Row(row));
            go
        })?,
        Access::NonCovering(i) => t.scan_index_rows(view, i, r, |row| {
            go = pass(&SourceRow::Row(row));
            go
        })?,
        Access::Covering(i) => {
            // Only the columns the query reads are decoded.
            let mut vals = vec![Value::Null; t.def.columns.len()];
            t.scan_index(view, i, r, |e| {
                for &c in &ts.fetch {
                    vals[c] = e.column(c).unwrap_or(Value::Null);
                }
                go = pass(&SourceRow::Values(&vals));
                go
            })?
        }
    }
    Ok(go)
}

/// Projection, DISTINCT, ORDER BY, OFFSET and LIMIT over produced rows.
struct Output<'p> {
    plan: &'p SelectPlan,
    limit: u64,
    offset: u64,
    sent: u64,
    skipped: u64,
    /// Rows held for sorting or DISTINCT: (sort keys, row).
    held: Vec<(Vec<Value>, Vec<Value>)>,
    seen: std::collections::HashSet<Vec<u8>>,
}

impl<'p> Output<'p> {
    fn new(plan: &'p SelectPlan, limit: u64, offset: u64) -> Self {
        Output {
            plan,
            limit,
            offset,
            sent: 0,
            skipped: 0,
            held: Vec::new(),
            seen: Default::default(),
        }
    }

    /// Takes one row; false when no more are wanted.
    fn push<R: Row + ?Sized>(
        &mut self,
        row: &R,
        env: Env<'_>,
        sink: &mut dyn RowSink,
    ) -> Result<bool> {
        let values: Vec<Value> = self
            .plan
            .projection
            .iter()
            .map(|e| e.eval(row, env))
            .collect::<Result<_>>()?;
        if !self.plan.order_by.is_empty() {
            let keys = self
                .plan
                .order_by
                .iter()
                .map(|(e, _)| e.eval(row, env))
                .collect::<Result<_>>()?;
            self.held.push((keys, values));
            return Ok(true);
        }
        if self.plan.distinct && !self.seen.insert(distinct_key(&values)) {
            return Ok(true);
        }
        self.emit(&values, sink)
    }

    fn emit(&mut self, values: &[Value], sink: &mut dyn RowSink) -> Result<bool> {
        if self.skipped < self.offset {
            self.skipped += 1;
            return Ok(true);
        }
        sink.row(values)?;
        self.sent += 1;
        Ok(self.sent < self.limit)
    }

    fn finish(mut self, sink: &mut dyn RowSink) -> Result<()> {
        if self.plan.order_by.is_empty() {
            return Ok(());
        }
        let desc: Vec<bool> = self.plan.order_by.iter().map(|(_, d)| *d).collect();
        let mut held = std::mem::take(&mut self.held);
        held.sort_by(|a, b| {
            for (i, d) in desc.iter().enumerate() {
                let o = match (a.0[i].is_null(), b.0[i].is_null()) {
                    (true, true) => Ordering::Equal,
                    (true, false) => Ordering::Less,
                    (false, true) => Ordering::Greater,
                    _ => compare(&a.0[i], &b.0[i]).unwrap_or(Ordering::Equal),
                };
                let o = if *d { o.reverse() } else { o };
                if o != Ordering::Equal {
                    return o;
                }
            }
            Ordering::Equal
        });
        for (_, values) in held {
            if self.plan.distinct && !self.seen.insert(distinct_key(&values)) {
                continue;
            }
            if !self.emit(&values, sink)? {
                break;
            }
        }
        Ok(())
    }
}

fn distinct_key(values: &[Value]) -> Vec<u8> {
    let mut k = Vec::new();
    for v in values {
        k.push(v.is_null() as u8);
        let t = v.to_text().unwrap_or_default();
        k.extend_from_slice(&(t.len() as u32).to_le_bytes());
        k.extend_from_slice(t.as_bytes());
    }
    k
}

/// What EXPLAIN shows for a plan: (access type, key, covering) — the path
/// an execution with these parameters takes (range estimates included).
pub(crate) fn explain(plan: &SelectPlan, params: &[Value]) -> (String, String, bool) {
    match &plan.source {
        Source::Nothing => ("".into(), "".into(), false),
        Source::Derived(_) => ("derived".into(), "".into(), false),
        Source::System(..) => ("ALL".into(), "".into(), false),
        Source::Table(ts) => {
            let (ranged, access) = match access_for_run(ts, plan.filter.as_ref(), params) {
                Ok(run) => (run.ranges != [KeyRange::all()], run.access),
                Err(_) => (
                    !ts.path.key.eq.is_empty() || !ts.path.key.ranges.is_empty(),
                    ts.path.access,
                ),
            };
            let kind = if ranged { "range" } else { "ALL" };
            match access {
                Access::Primary => (
                    kind.into(),
                    if ranged { "PRIMARY".into() } else { "".into() },
                    false,
                ),
                Access::Covering(i) => (
                    if ranged { "range" } else { "index" }.into(),
                    ts.table.def.indexes[i].name.clone(),
                    true,
                ),
                Access::NonCovering(i) => (
                    if ranged { "range" } else { "index" }.into(),
                    ts.table.def.indexes[i].name.clone(),
                    false,
                ),
            }
        }
    }
}
