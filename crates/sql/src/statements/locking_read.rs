//! Locking reads: SELECT ... FOR UPDATE, FOR SHARE and LOCK IN SHARE MODE,
//! with NOWAIT or SKIP LOCKED. InnoDB's reads of the rows as they are now
//! (not the snapshot), each locked until the transaction ends.
//!
//! The rows are found as an UPDATE finds them (the latest versions, in
//! ORDER BY order), locked one by one and read again under the lock, checked
//! against the WHERE clause once more, up to LIMIT + OFFSET when nothing is
//! aggregated; the query then runs over exactly those rows. One base table
//! only, without subqueries (1235 otherwise). A shared lock is taken as an
//! exclusive one: two FOR SHARE readers of a row wait for each other where
//! InnoDB would let both through (stricter, never wrong).
use super::dml::Targets;
use crate::error::{Result, SqlError};
use crate::expr::{Env, Params};
use crate::planner::plan::{QueryPlan, Source};
use crate::result::{Outcome, RowSink};
use crate::session::Session;
use lineardb_table::Value;
use lineardb_txn::{LockError, ReadView};
use sqlparser::ast;
use std::ops::ControlFlow;

/// What a locking read does when another transaction holds a row.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Busy {
    Wait,
    /// NOWAIT: the statement fails with 1205 at once.
    Fail,
    /// SKIP LOCKED: the row is left out.
    Skip,
}

/// The locking clause of a top-level SELECT that lineardb runs: one, without
/// `OF` (1235 otherwise).
pub(crate) fn check_lock_clause(locks: &[ast::LockClause]) -> Result<()> {
    match locks {
        [] => Ok(()),
        [one] if one.of.is_none() => Ok(()),
        [_] => Err(SqlError::unsupported("FOR UPDATE OF / FOR SHARE OF")),
        _ => Err(SqlError::unsupported("several locking clauses")),
    }
}

/// `q` without its locking clause.
pub(crate) fn without_locks(q: &ast::Query) -> ast::Query {
    let mut bare = q.clone();
    bare.locks.clear();
    bare
}

impl Session {
    /// Runs a SELECT with a locking clause, sending its rows to `sink`.
    /// `kept`: a prepared statement's plan of the query, made here when
    /// missing or stale and kept for its next run.
    pub(crate) fn locking_select(
        &mut self,
        q: &ast::Query,
        params: &Params,
        args: &[Value],
        sink: &mut dyn RowSink,
        mut kept: Option<&mut Option<(QueryPlan, (u64, u64))>>,
    ) -> Result<Outcome> {
        check_lock_clause(&q.locks)?;
        let busy = match q.locks[0].nonblock {
            None => Busy::Wait,
            Some(ast::NonBlock::Nowait) => Busy::Fail,
            Some(ast::NonBlock::SkipLocked) => Busy::Skip,
        };
        if has_subquery(q) {
            return Err(SqlError::unsupported("a locking read with subqueries"));
        }
        let ast::SetExpr::Select(select) = q.body.as_ref() else {
            return Err(SqlError::unsupported("a locking read of a set operation"));
        };
        let alias = match select.from.as_slice() {
            [twj] if twj.joins.is_empty() => match &twj.relation {
                ast::TableFactor::Table { alias, .. } => {
                    alias.as_ref().map(|a| a.name.value.clone())
                }
                _ => None,
            },
            _ => None,
        };
        self.slot.counters.com_select.add(1);
        let version = self.plan_version();
        let mut plan = match kept.as_ref().and_then(|k| k.as_ref()) {
            Some((_, v)) if *v == version => kept
                .as_mut()
                .and_then(|k| k.take())
                .map(|(plan, _)| plan)
                .expect("a kept plan"),
            // Planned as it is: the planner lets the clause through.
            _ => self.with_planner(q, params, |p| {
                p.semi_joins = false;
                p.locking_read = true;
                p.plan_query(q)
            })?,
        };
        let r = self.lock_and_run(q, select, alias, busy, &mut plan, params, args, sink);
        if let Some(kept) = kept {
            *kept = Some((plan, self.kept_plan_version()));
        }
        r
    }

    /// Locks the rows `plan`'s query (`q`, whose SELECT is `select`) reads
    /// and runs the plan over them; the plan is left as it was.
    #[allow(clippy::too_many_arguments)]
    fn lock_and_run(
        &mut self,
        q: &ast::Query,
        select: &ast::Select,
        alias: Option<String>,
        busy: Busy,
        plan: &mut QueryPlan,
        params: &Params,
        args: &[Value],
        sink: &mut dyn RowSink,
    ) -> Result<Outcome> {
        let QueryPlan::Select(sel) = plan else {
            return Err(SqlError::unsupported("a locking read of a set operation"));
        };
        let Source::Table(ts) = &sel.source else {
            return Err(SqlError::unsupported(
                "a locking read of a join, a view or a derived table",
            ));
        };
        let table = ts.table.clone();
        // Rows past LIMIT + OFFSET are neither read nor locked when each
        // row is one output row.
        let per_row = !sel.aggregate && !sel.distinct;
        let env = Env::new(args);
        let count = |e: &Option<crate::expr::Expr>| -> Result<Option<u64>> {
            let empty: &[Value] = &[];
            Ok(match e.as_ref().map(|e| e.eval(empty, env)).transpose()? {
                Some(Value::Int(i)) => Some(i.max(0) as u64),
                Some(Value::UInt(u)) => Some(u),
                _ => None,
            })
        };
        let wanted = match (per_row, count(&sel.limit)?) {
            (true, Some(limit)) => limit.saturating_add(count(&sel.offset)?.unwrap_or(0)),
            _ => u64::MAX,
        };
        let order_by: Vec<ast::OrderByExpr> = match q.order_by.as_ref().map(|o| &o.kind) {
            Some(ast::OrderByKind::Expressions(e)) => e.clone(),
            Some(ast::OrderByKind::All(_)) => {
                return Err(SqlError::unsupported("ORDER BY ALL"));
            }
            None => Vec::new(),
        };
        let selection = select.selection.as_ref();
        let rows = self.in_transaction(|s, txn| {
            // A waiting read whose WHERE clause fixes the primary key locks
            // that row alone, as an UPDATE does: no search. NOWAIT and SKIP
            // LOCKED search, then try each row's lock without waiting.
            let targets = if busy == Busy::Wait {
                s.targets(
                    txn,
                    (&table, alias.as_deref()),
                    selection,
                    &order_by,
                    params,
                    args,
                )?
            } else {
                Targets {
                    keys: s.matching_keys(
                        &table,
                        alias.as_deref(),
                        selection,
                        &order_by,
                        params,
                        args,
                    )?,
                    filter: s.row_filter(&table, alias.as_deref(), selection, params)?,
                    searched: true,
                }
            };
            let mut rows = Vec::new();
            for pk in &targets.keys {
                if rows.len() as u64 >= wanted {
                    break;
                }
                let row = match busy {
                    Busy::Wait => targets.lock_matching(txn, &table, pk, env)?,
                    _ if table.try_lock_key(txn, pk)? => {
                        match table.get_by_key(&ReadView::latest(), pk)? {
                            Some(row) => targets.still_matching(row, env)?,
                            None => None,
                        }
                    }
                    Busy::Skip => continue,
                    _ => return Err(lineardb_txn::Error::from(LockError::Timeout).into()),
                };
                rows.extend(row);
            }
            Ok(rows)
        })?;
        let searched = std::mem::replace(&mut sel.source, Source::Rows(rows));
        let r = plan.run(args, &self.run_context(&ReadView::latest()), sink);
        if let QueryPlan::Select(sel) = plan {
            sel.source = searched;
        }
        r.map(|()| Outcome::Rows)
    }
}

/// Whether `q` holds a query inside it.
fn has_subquery(q: &ast::Query) -> bool {
    use sqlparser::ast::{Visit, Visitor};
    struct Count(usize);
    impl Visitor for Count {
        type Break = ();
        fn pre_visit_query(&mut self, _: &ast::Query) -> ControlFlow<()> {
            self.0 += 1;
            if self.0 > 1 {
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        }
    }
    q.visit(&mut Count(0)).is_break()
}
