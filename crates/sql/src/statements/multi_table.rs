//! Multi-table UPDATE and DELETE: `UPDATE t1 JOIN t2 ON ... SET t1.a =
//! t2.b`, `UPDATE t1, t2 SET ...`, `DELETE t1, t2 FROM t1 JOIN t2 ...` and
//! `DELETE FROM t1 USING t1 JOIN t2 ...`.
//!
//! The join runs as a planned query whose columns are the primary keys of
//! the tables changed and the new values (`SELECT t1.pk, t2.b FROM ...
//! WHERE ... ORDER BY ... LIMIT ...`), reading the latest rows. Every row it
//! names is locked, and the query runs again until it names no row not yet
//! locked: its answer then holds for the rows changed, which no other
//! transaction can change before this one ends (the rows only read are not
//! locked). Each row of a changed table is changed once, with the values of
//! the first joined row naming it, and all values are computed before the
//! first write, as in MariaDB (whose multi-table SET reads the values rows
//! had before the statement).
use crate::error::{Result, SqlError};
use crate::expr::{object_name, Params};
use crate::privileges::bits::{DELETE, SELECT, UPDATE};
use crate::result::Outcome;
use crate::session::Session;
use crate::statements::dml::{fit_update, updated};
use crate::statements::row_counts::count_rows;
use lineardb_sync::thread_slot::IndexOp;
use lineardb_table::{Table, Value};
use lineardb_txn::{ReadView, Txn};
use sqlparser::ast;
use std::collections::HashSet;
use std::sync::Arc;

/// Whether an UPDATE names more than one table.
pub(crate) fn is_multi_table_update(u: &ast::Update) -> bool {
    !u.table.joins.is_empty() || u.from.is_some()
}

/// Whether a DELETE names more than one table (or the multi-table forms).
pub(crate) fn is_multi_table_delete(d: &ast::Delete) -> bool {
    let from = match &d.from {
        ast::FromTable::WithFromKeyword(t) | ast::FromTable::WithoutKeyword(t) => t,
    };
    !listed_targets(d).is_empty()
        || d.using.is_some()
        || from.len() != 1
        || from.iter().any(|t| !t.joins.is_empty())
}

/// The tables named before FROM in `DELETE t1, t2 FROM ...`. The parser
/// reads the modifiers of `DELETE LOW_PRIORITY FROM t` and `DELETE QUICK
/// FROM t` as such a name; neither changes what InnoDB does (IGNORE, which
/// would, is refused before).
fn listed_targets(d: &ast::Delete) -> &[ast::ObjectName] {
    match d.tables.as_slice() {
        [one] if is_delete_modifier(one) => &[],
        all => all,
    }
}

/// Whether a name the parser read before a DELETE's FROM is one of MariaDB's
/// modifiers.
pub(crate) fn is_delete_modifier(name: &ast::ObjectName) -> bool {
    match name.0.as_slice() {
        [ast::ObjectNamePart::Identifier(i)] if i.quote_style.is_none() => {
            ["LOW_PRIORITY", "QUICK", "IGNORE"]
                .iter()
                .any(|m| i.value.eq_ignore_ascii_case(m))
        }
        _ => false,
    }
}

/// A table the FROM clause names, by the name its columns are qualified with.
struct Reference {
    /// The alias, else the table's name.
    name: String,
    /// `[db, table]` or `[table]` as written; none for a derived table.
    parts: Option<Vec<String>>,
    aliased: bool,
}

fn references(from: &[ast::TableWithJoins]) -> Result<Vec<Reference>> {
    fn factor(f: &ast::TableFactor, out: &mut Vec<Reference>) {
        match f {
            ast::TableFactor::Table { name, alias, .. } => {
                let parts = object_name(name);
                out.push(Reference {
                    name: alias
                        .as_ref()
                        .map(|a| a.name.value.clone())
                        .or_else(|| parts.last().cloned())
                        .unwrap_or_default(),
                    parts: Some(parts),
                    aliased: alias.is_some(),
                });
            }
            ast::TableFactor::NestedJoin {
                table_with_joins, ..
            } => joins(table_with_joins, out),
            ast::TableFactor::Derived { alias, .. } => out.push(Reference {
                name: alias
                    .as_ref()
                    .map(|a| a.name.value.clone())
                    .unwrap_or_default(),
                parts: None,
                aliased: true,
            }),
            _ => {}
        }
    }
    fn joins(t: &ast::TableWithJoins, out: &mut Vec<Reference>) {
        factor(&t.relation, out);
        for j in &t.joins {
            factor(&j.relation, out);
        }
    }
    let mut out = Vec::new();
    for t in from {
        joins(t, &mut out);
    }
    for (i, r) in out.iter().enumerate() {
        if out[..i].iter().any(|o| o.name == r.name) {
            return Err(SqlError::new(
                1066,
                "42000",
                format!("Not unique table/alias: '{}'", r.name),
            ));
        }
    }
    Ok(out)
}

/// A row's primary key and its new values (none: a column kept).
type RowChange = (Vec<u8>, Vec<Option<Value>>);

/// A table the statement changes, as one of its references.
struct Target {
    reference: usize,
    table: Arc<Table>,
}

/// A query text's identifier (MariaDB's backquotes).
fn ident(s: &str) -> ast::Ident {
    ast::Ident::with_quote('`', s)
}

impl Session {
    pub(crate) fn multi_table_update(
        &mut self,
        txn: &mut Txn,
        u: &ast::Update,
        params: &Params,
        args: &[Value],
    ) -> Result<Outcome> {
        let mut from = vec![u.table.clone()];
        if let Some(ast::UpdateTableFromKind::BeforeSet(rest)) = &u.from {
            from.extend(rest.iter().cloned());
        }
        let refs = references(&from)?;
        // Each assignment as (target, column).
        let mut targets: Vec<Target> = Vec::new();
        let mut sets: Vec<(usize, usize)> = Vec::new();
        for a in &u.assignments {
            let ast::AssignmentTarget::ColumnName(n) = &a.target else {
                return Err(SqlError::unsupported("tuple assignment"));
            };
            if matches!(&a.value, ast::Expr::Identifier(i) if i.value.eq_ignore_ascii_case("DEFAULT"))
            {
                return Err(SqlError::unsupported("UPDATE ... SET column = DEFAULT"));
            }
            let parts = object_name(n);
            let (reference, column) = self.set_target(&refs, &parts)?;
            let target = match targets.iter().position(|t| t.reference == reference) {
                Some(i) => i,
                None => {
                    let table = self.changed_table(&refs[reference], "UPDATE", UPDATE)?;
                    targets.push(Target { reference, table });
                    targets.len() - 1
                }
            };
            sets.push((target, column));
        }
        let values: Vec<ast::Expr> = u.assignments.iter().map(|a| a.value.clone()).collect();
        let query = join_query(
            &refs,
            &targets,
            &from,
            values,
            u.selection.as_ref(),
            &u.order_by,
            u.limit.as_ref(),
        )?;
        let rows = self.lock_joined_rows(txn, &query, &targets, params, args)?;
        // The new values of each changed row, from the first joined row
        // naming it.
        let keys_width: usize = targets
            .iter()
            .map(|t| t.table.def().primary_key.len())
            .sum();
        let mut changes: Vec<Vec<RowChange>> = vec![Vec::new(); targets.len()];
        let mut seen: Vec<HashSet<Vec<u8>>> = vec![HashSet::new(); targets.len()];
        for row in &rows {
            let mut at = 0;
            for (k, target) in targets.iter().enumerate() {
                let width = target.table.def().primary_key.len();
                let key = &row[at..at + width];
                at += width;
                let Some(pk) = encode_key(&target.table, key)? else {
                    continue;
                };
                if !seen[k].insert(pk.clone()) {
                    continue;
                }
                let mut new = vec![None; target.table.def().columns.len()];
                for (i, &(t, column)) in sets.iter().enumerate() {
                    if t == k {
                        new[column] = Some(row[keys_width + i].clone());
                    }
                }
                super::auto_timestamp::given_in_zone(
                    target.table.def(),
                    &mut new,
                    self.facts.time_zone,
                );
                changes[k].push((pk, new));
            }
        }
        let tables: Vec<&Table> = targets.iter().map(|x| &*x.table).collect();
        let fk = self.referential(&tables)?;
        let mut matched = 0u64;
        let mut changed = 0u64;
        // UPDATE IGNORE: rows refused are passed over, values adjusted.
        let ignore = matches!(u.or, Some(ast::SqliteOnConflict::Ignore));
        let strict = self.strict_mode() && !ignore;
        let mut warnings = Vec::new();
        for (k, (target, rows)) in targets.iter().zip(changes).enumerate() {
            let t = &target.table;
            let mut n = 0;
            let order: Vec<usize> = sets.iter().filter(|s| s.0 == k).map(|s| s.1).collect();
            for (pk, mut new) in rows {
                // Locked: only this statement changes it (through another
                // alias of the same table, whose change it keeps).
                let Some(old) = t.get_by_key(&ReadView::latest(), &pk)? else {
                    continue;
                };
                matched += 1;
                fit_update(
                    t.def(),
                    order.iter().copied(),
                    &mut new,
                    matched,
                    (&mut warnings, !strict),
                )?;
                let differs = new
                    .iter()
                    .zip(&old)
                    .any(|(n, o)| n.as_ref().is_some_and(|n| n != o));
                super::auto_timestamp::touch(t.def(), &old, &mut new);
                let savepoint = ignore.then(|| txn.savepoint());
                match (fk.update_row(txn, t, &pk, &old, new), savepoint) {
                    (Ok(()), _) => n += u64::from(differs),
                    (Err(e), Some(savepoint)) => {
                        let _check = super::dml::skipped_row(e, &mut warnings)?;
                        txn.rollback_to(savepoint)?;
                        // MariaDB's multi-table UPDATE counts a row passed
                        // over as changed.
                        n += u64::from(differs);
                    }
                    (Err(e), None) => return Err(e),
                }
            }
            changed += n;
            count_rows(t, IndexOp::Update, n);
        }
        self.warnings.extend(warnings);
        let warned = self.warnings.len() + self.pending_expression_warnings();
        Ok(updated(matched, changed, warned, self.found_rows))
    }

    pub(crate) fn multi_table_delete(
        &mut self,
        txn: &mut Txn,
        d: &ast::Delete,
        params: &Params,
        args: &[Value],
    ) -> Result<Outcome> {
        if !d.order_by.is_empty() || d.limit.is_some() {
            let clause = if d.order_by.is_empty() {
                "LIMIT"
            } else {
                "ORDER BY"
            };
            return Err(SqlError::syntax_near(clause));
        }
        let listed = match &d.from {
            ast::FromTable::WithFromKeyword(t) | ast::FromTable::WithoutKeyword(t) => t,
        };
        // `DELETE t1, t2 FROM <refs>` or `DELETE FROM t1, t2 USING <refs>`.
        let (names, from): (Vec<Vec<String>>, &[ast::TableWithJoins]) = match &d.using {
            Some(using) => {
                let mut names = Vec::new();
                for t in listed {
                    match &t.relation {
                        ast::TableFactor::Table {
                            name, alias: None, ..
                        } if t.joins.is_empty() => names.push(object_name(name)),
                        _ => return Err(SqlError::syntax_near("USING")),
                    }
                }
                (names, using)
            }
            None if listed_targets(d).is_empty() => (
                listed
                    .iter()
                    .filter_map(|t| match &t.relation {
                        ast::TableFactor::Table { name, .. } => Some(object_name(name)),
                        _ => None,
                    })
                    .collect(),
                listed,
            ),
            None => (listed_targets(d).iter().map(object_name).collect(), listed),
        };
        let refs = references(from)?;
        let mut targets: Vec<Target> = Vec::new();
        for parts in &names {
            let reference = self.delete_target(&refs, parts)?;
            if targets.iter().all(|t| t.reference != reference) {
                let table = self.changed_table(&refs[reference], "DELETE", DELETE)?;
                targets.push(Target { reference, table });
            }
        }
        let query = join_query(
            &refs,
            &targets,
            from,
            Vec::new(),
            d.selection.as_ref(),
            &[],
            None,
        )?;
        let rows = self.lock_joined_rows(txn, &query, &targets, params, args)?;
        let fk = self.referential(&[])?;
        let mut deleted = 0u64;
        let mut gone: HashSet<(u64, Vec<u8>)> = HashSet::new();
        for (k, target) in targets.iter().enumerate() {
            let t = &target.table;
            let at: usize = targets[..k]
                .iter()
                .map(|t| t.table.def().primary_key.len())
                .sum();
            let width = t.def().primary_key.len();
            let mut n = 0;
            for row in &rows {
                let Some(pk) = encode_key(t, &row[at..at + width])? else {
                    continue;
                };
                if !gone.insert((t.def().primary_root, pk.clone())) {
                    continue;
                }
                if let Some(old) = t.get_by_key(&ReadView::latest(), &pk)? {
                    fk.delete_row(txn, t, &pk, &old)?;
                    n += 1;
                }
            }
            deleted += n;
            count_rows(t, IndexOp::Delete, n);
        }
        Ok(Outcome::done(deleted))
    }

    /// The reference and column an UPDATE's `SET` names.
    fn set_target(&mut self, refs: &[Reference], parts: &[String]) -> Result<(usize, usize)> {
        let unknown = || {
            SqlError::new(
                1054,
                "42S22",
                format!("Unknown column '{}' in 'SET'", parts.join(".")),
            )
        };
        let (column, candidates): (&str, Vec<usize>) = match parts {
            [column] => (column, (0..refs.len()).collect()),
            [qualifier, column] => (
                column,
                (0..refs.len())
                    .filter(|&i| refs[i].name == *qualifier)
                    .collect(),
            ),
            [db, table, column] => (
                column,
                (0..refs.len())
                    .filter(|&i| {
                        !refs[i].aliased
                            && refs[i]
                                .parts
                                .as_ref()
                                .is_some_and(|p| self.same_table(p, &[db.clone(), table.clone()]))
                    })
                    .collect(),
            ),
            _ => return Err(unknown()),
        };
        // A qualified target names its table: what that table is not
        // (derived, a view, unreadable) is the answer. An unqualified one
        // is looked for among the tables the session may read only, so an
        // answer tells nothing of another table's columns.
        let qualified = parts.len() > 1;
        let mut found = None;
        for i in candidates {
            let Some(table_parts) = &refs[i].parts else {
                if qualified {
                    return Err(SqlError::not_updatable(&refs[i].name, "UPDATE"));
                }
                continue;
            };
            let table = match self.referenced_table(table_parts) {
                Ok(Some(table)) => table,
                Ok(None) if qualified => {
                    return Err(SqlError::unsupported(
                        "UPDATE of a view joined to other tables",
                    ))
                }
                Err(e) if qualified => return Err(e),
                _ => continue,
            };
            if let Ok(c) = table.def().column_index(column) {
                if found.is_some() {
                    return Err(SqlError::new(
                        1052,
                        "23000",
                        format!("Column '{column}' in SET is ambiguous"),
                    ));
                }
                found = Some((i, c));
            }
        }
        found.ok_or_else(unknown)
    }

    /// The reference a multi-table DELETE's target `parts` names.
    fn delete_target(&self, refs: &[Reference], parts: &[String]) -> Result<usize> {
        let found = match parts {
            [name] => refs.iter().position(|r| r.name == *name),
            _ => refs.iter().position(|r| {
                !r.aliased && r.parts.as_ref().is_some_and(|p| self.same_table(p, parts))
            }),
        };
        found.ok_or_else(|| {
            SqlError::new(
                1109,
                "42S02",
                format!(
                    "Unknown table '{}' in MULTI DELETE",
                    parts.last().map_or("", String::as_str)
                ),
            )
        })
    }

    fn same_table(&self, a: &[String], b: &[String]) -> bool {
        matches!((self.qualified(a), self.qualified(b)), (Ok(x), Ok(y)) if x == y)
    }

    /// A base table the FROM clause names, which the session may read (as
    /// the join query will); none for a view.
    fn referenced_table(&mut self, parts: &[String]) -> Result<Option<Arc<Table>>> {
        let (db, name) = self.qualified(parts)?;
        if self.engine.view(&db, &name)?.is_some() {
            return Ok(None);
        }
        self.table(parts, SELECT).map(Some)
    }

    /// The table of a reference that a statement changes, with `privilege`
    /// on it.
    fn changed_table(
        &mut self,
        reference: &Reference,
        statement: &str,
        privilege: u64,
    ) -> Result<Arc<Table>> {
        let Some(parts) = &reference.parts else {
            return Err(SqlError::not_updatable(&reference.name, statement));
        };
        let (db, name) = self.qualified(parts)?;
        if self.engine.view(&db, &name)?.is_some() {
            return Err(SqlError::unsupported(format!(
                "{statement} of a view joined to other tables"
            )));
        }
        let table = self.table(parts, privilege)?;
        if table.def().primary_key.is_empty() {
            return Err(SqlError::unsupported(format!(
                "multi-table {statement} of a table without a primary key"
            )));
        }
        Ok(table)
    }

    /// The rows of the join `query`, run until every row of a changed
    /// table it names is locked by `txn`.
    fn lock_joined_rows(
        &mut self,
        txn: &mut Txn,
        query: &ast::Query,
        targets: &[Target],
        params: &Params,
        args: &[Value],
    ) -> Result<Vec<Vec<Value>>> {
        let plan = self.plan_select(query, params)?;
        self.note_plan(&plan);
        if self.safe_updates() && !plan.reads_by_key() {
            return Err(super::dml::unsafe_update());
        }
        let mut locked: HashSet<(u64, Vec<u8>)> = HashSet::new();
        // Only the last run's warnings are the statement's.
        let before = crate::expr::warnings::take();
        loop {
            crate::expr::warnings::take();
            let mut sink = crate::result::CollectSink::default();
            // A current read: the latest rows, locked before they change.
            plan.run(args, &self.run_context(&ReadView::latest()), &mut sink)?;
            let mut more = false;
            for row in &sink.rows {
                let mut at = 0;
                for target in targets {
                    let t = &target.table;
                    let width = t.def().primary_key.len();
                    let key = &row[at..at + width];
                    at += width;
                    let Some(pk) = encode_key(t, key)? else {
                        continue;
                    };
                    if locked.insert((t.def().primary_root, pk.clone())) {
                        t.lock_key(txn, &pk)?;
                        more = true;
                    }
                }
            }
            if !more {
                crate::expr::warnings::put_back(before);
                return Ok(sink.rows);
            }
        }
    }
}

/// `SELECT <targets' primary keys>, <values> FROM <from> WHERE ... ORDER BY
/// ... LIMIT ...`.
fn join_query(
    refs: &[Reference],
    targets: &[Target],
    from: &[ast::TableWithJoins],
    values: Vec<ast::Expr>,
    selection: Option<&ast::Expr>,
    order_by: &[ast::OrderByExpr],
    limit: Option<&ast::Expr>,
) -> Result<ast::Query> {
    let mut stmts = crate::parser::dialect::parse_sql("SELECT 1 FROM t")?;
    let Some(ast::Statement::Query(mut q)) = stmts.pop() else {
        return Err(SqlError::internal("SELECT did not parse"));
    };
    let mut projection = Vec::new();
    for target in targets {
        let def = target.table.def();
        let qualifier = &refs[target.reference].name;
        for &c in &def.primary_key {
            projection.push(ast::SelectItem::UnnamedExpr(ast::Expr::CompoundIdentifier(
                vec![ident(qualifier), ident(&def.columns[c].name)],
            )));
        }
    }
    projection.extend(values.into_iter().map(ast::SelectItem::UnnamedExpr));
    if let ast::SetExpr::Select(s) = q.body.as_mut() {
        s.projection = projection;
        s.from = from.to_vec();
        s.selection = selection.cloned();
    }
    if !order_by.is_empty() {
        q.order_by = Some(ast::OrderBy {
            kind: ast::OrderByKind::Expressions(order_by.to_vec()),
            interpolate: None,
        });
    }
    q.limit_clause = limit.map(|l| ast::LimitClause::LimitOffset {
        limit: Some(l.clone()),
        offset: None,
        limit_by: Vec::new(),
    });
    Ok(*q)
}

/// The primary key of a joined row's key columns; none when they are NULL
/// (an outer join's missing row).
fn encode_key(table: &Table, key: &[Value]) -> Result<Option<Vec<u8>>> {
    if key.iter().any(|v| matches!(v, Value::Null)) {
        return Ok(None);
    }
    Ok(Some(table.encode_primary_key(key)?))
}
