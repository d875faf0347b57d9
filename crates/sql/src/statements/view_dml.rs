//! Rows changed through a view. An INSERT, UPDATE or DELETE whose target
//! is a view that reads one table (through any depth of such views) is
//! the same statement on that table: the view's columns become the
//! expressions they stand for, and an UPDATE's or DELETE's WHERE gains
//! the views' conditions. WITH CHECK OPTION becomes a condition every row
//! written must meet (1369): with CASCADED, the conditions of the view
//! named and of every view below it; with LOCAL, the named view's own;
//! a view named without one checks nothing, as MariaDB's.
//!
//! What MariaDB allows and this does not merge yet (a view of a join, a
//! view whose WHERE holds a subquery, RETURNING through a view) is 1235.
use crate::error::{Result, SqlError};
use crate::expr::object_name;
use crate::names::qualify;
use crate::session::{Session, ViewCheck};
use crate::statements::views::updatable;
use lineardb_table::ViewDef;
use sqlparser::ast::{self, VisitMut, VisitorMut};
use std::ops::ControlFlow;

/// How deep views over views may go.
const MAX_DEPTH: usize = 64;

/// A view merged down to the table it reads.
struct Merged {
    /// The view as the statement names it (for errors).
    name: String,
    label: String,
    /// The table the views read: (database, name).
    base: (String, String),
    /// The view's columns, each the expression (over the base table's
    /// columns, unqualified) it stands for.
    columns: Vec<(String, ast::Expr)>,
    /// Every level's WHERE, over the base table's columns.
    condition: Option<ast::Expr>,
    /// What CHECK OPTION asks rows to meet.
    check: Option<ast::Expr>,
}

impl Merged {
    fn column(&self, name: &str) -> Option<&ast::Expr> {
        self.columns
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, e)| e)
    }

    /// The base column view column `name` is, if it is one.
    fn base_column(&self, name: &str) -> Option<ast::Ident> {
        match self.column(name)? {
            ast::Expr::Identifier(i) => Some(i.clone()),
            _ => None,
        }
    }

    fn base_name(&self) -> ast::ObjectName {
        ast::ObjectName::from(vec![quoted(&self.base.0), quoted(&self.base.1)])
    }
}

fn quoted(name: &str) -> ast::Ident {
    ast::Ident::with_quote('`', name)
}

fn and(a: Option<ast::Expr>, b: Option<ast::Expr>) -> Option<ast::Expr> {
    match (a, b) {
        (Some(a), Some(b)) => Some(ast::Expr::BinaryOp {
            left: Box::new(nested(a)),
            op: ast::BinaryOperator::And,
            right: Box::new(nested(b)),
        }),
        (a, None) => a,
        (None, b) => b,
    }
}

fn nested(e: ast::Expr) -> ast::Expr {
    match e {
        e @ (ast::Expr::Identifier(_)
        | ast::Expr::CompoundIdentifier(_)
        | ast::Expr::Nested(_)
        | ast::Expr::Value(_)) => e,
        e => ast::Expr::Nested(Box::new(e)),
    }
}

fn unknown_column(name: &str, clause: &str) -> SqlError {
    SqlError::new(
        1054,
        "42S22",
        format!("Unknown column '{name}' in '{clause}'"),
    )
}

/// Replaces the identifiers of an expression with the expressions of the
/// columns they name: those unqualified or qualified by `qualifiers` (the
/// view as the statement names it), outside subqueries; inside one, the
/// qualified ones only (an unqualified name there is the subquery's).
struct Substitute<'a> {
    columns: &'a [(String, ast::Expr)],
    /// The names a qualified reference may give the view: `[name]` or
    /// `[db, name]` forms, compared without case.
    qualifiers: &'a [Vec<String>],
    clause: &'a str,
    depth: usize,
    error: Option<SqlError>,
}

impl Substitute<'_> {
    fn lookup(&self, name: &str) -> Option<ast::Expr> {
        self.columns
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, e)| nested(e.clone()))
    }

    fn names_view(&self, qualifier: &[ast::Ident]) -> bool {
        self.qualifiers.iter().any(|q| {
            q.len() == qualifier.len()
                && q.iter()
                    .zip(qualifier)
                    .all(|(a, b)| a.eq_ignore_ascii_case(&b.value))
        })
    }
}

impl VisitorMut for Substitute<'_> {
    type Break = ();

    fn pre_visit_query(&mut self, _: &mut ast::Query) -> ControlFlow<()> {
        self.depth += 1;
        ControlFlow::Continue(())
    }

    fn post_visit_query(&mut self, _: &mut ast::Query) -> ControlFlow<()> {
        self.depth -= 1;
        ControlFlow::Continue(())
    }

    fn post_visit_expr(&mut self, e: &mut ast::Expr) -> ControlFlow<()> {
        let replacement = match e {
            // DEFAULT (a column's default) is written as a name.
            ast::Expr::Identifier(i)
                if i.quote_style.is_none() && i.value.eq_ignore_ascii_case("DEFAULT") =>
            {
                return ControlFlow::Continue(())
            }
            ast::Expr::Identifier(i) if self.depth == 0 => match self.lookup(&i.value) {
                Some(r) => r,
                None => {
                    self.error = Some(unknown_column(&i.value, self.clause));
                    return ControlFlow::Break(());
                }
            },
            ast::Expr::CompoundIdentifier(parts) if parts.len() >= 2 => {
                let (column, qualifier) = parts.split_last().expect("two parts");
                if self.names_view(qualifier) {
                    match self.lookup(&column.value) {
                        Some(r) => r,
                        None => {
                            let name: Vec<&str> = parts.iter().map(|p| p.value.as_str()).collect();
                            self.error = Some(unknown_column(&name.join("."), self.clause));
                            return ControlFlow::Break(());
                        }
                    }
                } else if self.depth == 0 {
                    let name: Vec<&str> = parts.iter().map(|p| p.value.as_str()).collect();
                    self.error = Some(unknown_column(&name.join("."), self.clause));
                    return ControlFlow::Break(());
                } else {
                    return ControlFlow::Continue(());
                }
            }
            _ => return ControlFlow::Continue(()),
        };
        *e = replacement;
        ControlFlow::Continue(())
    }
}

fn substitute(
    e: &ast::Expr,
    columns: &[(String, ast::Expr)],
    qualifiers: &[Vec<String>],
    clause: &str,
) -> Result<ast::Expr> {
    let mut e = e.clone();
    let mut s = Substitute {
        columns,
        qualifiers,
        clause,
        depth: 0,
        error: None,
    };
    let _ = e.visit(&mut s);
    match s.error {
        Some(err) => Err(err),
        None => Ok(e),
    }
}

/// Qualifies the base table's column names of `e` with `table`, so that
/// they keep naming its columns inside a subquery of the statement.
fn qualified_by(e: &ast::Expr, table: &str) -> ast::Expr {
    let mut e = e.clone();
    let _ = ast::visit_expressions_mut(&mut e, |x| {
        if let ast::Expr::Identifier(i) = x {
            *x = ast::Expr::CompoundIdentifier(vec![quoted(table), i.clone()]);
        }
        ControlFlow::<()>::Continue(())
    });
    e
}

fn has_subquery(e: &ast::Expr) -> bool {
    let mut found = false;
    let _ = ast::visit_expressions(e, |x| {
        if matches!(
            x,
            ast::Expr::Subquery(_) | ast::Expr::Exists { .. } | ast::Expr::InSubquery { .. }
        ) {
            found = true;
        }
        ControlFlow::<()>::Continue(())
    });
    found
}

/// The table a statement changes, as written, if it is one table.
fn target(stmt: &ast::Statement) -> Option<&ast::ObjectName> {
    match stmt {
        ast::Statement::Insert(ins) => match &ins.table {
            ast::TableObject::TableName(n) => Some(n),
            _ => None,
        },
        ast::Statement::Update(u) if u.table.joins.is_empty() && u.from.is_none() => {
            match &u.table.relation {
                ast::TableFactor::Table { name, .. } => Some(name),
                _ => None,
            }
        }
        ast::Statement::Delete(d) if d.tables.is_empty() && d.using.is_none() => {
            let from = match &d.from {
                ast::FromTable::WithFromKeyword(t) | ast::FromTable::WithoutKeyword(t) => t,
            };
            match from.as_slice() {
                [twj] if twj.joins.is_empty() => match &twj.relation {
                    ast::TableFactor::Table { name, .. } => Some(name),
                    _ => None,
                },
                _ => None,
            }
        }
        _ => None,
    }
}

impl Session {
    /// The statement on a table that `stmt`, an INSERT, UPDATE or DELETE
    /// of a view, stands for, and the CHECK OPTION its rows must meet;
    /// `None` when `stmt` changes no view.
    pub(crate) fn through_view(
        &mut self,
        stmt: &ast::Statement,
    ) -> Result<Option<(ast::Statement, Option<ViewCheck>)>> {
        let Some(name) = target(stmt) else {
            return Ok(None);
        };
        let parts = object_name(name);
        let (db, view_name) = self.qualified(&parts)?;
        if self.tables.holds(&self.engine, &db, &view_name)
            || self.tables.is_temporary(&db, &view_name)
        {
            return Ok(None);
        }
        let Some(view) = self.engine.view(&db, &view_name)? else {
            return Ok(None);
        };
        let (statement, privilege) = match stmt {
            ast::Statement::Insert(_) => ("INSERT", crate::privileges::bits::INSERT),
            ast::Statement::Update(_) => ("UPDATE", crate::privileges::bits::UPDATE),
            _ => ("DELETE", crate::privileges::bits::DELETE),
        };
        // The view's privilege first, so a refusal names it; the table's
        // are checked as the statement on it runs.
        self.access().require_table(&db, &view_name, privilege)?;
        let listed = match stmt {
            ast::Statement::Insert(ins) => !ins.columns.is_empty() || !ins.assignments.is_empty(),
            _ => true,
        };
        let merged = self.merge_view(&db, view, statement, listed)?;
        let check = merged.check.clone().map(|condition| ViewCheck {
            table: (
                merged.base.0.to_ascii_lowercase(),
                merged.base.1.to_ascii_lowercase(),
            ),
            label: merged.label.clone(),
            condition,
        });
        let rewritten = match stmt {
            ast::Statement::Insert(ins) => {
                ast::Statement::Insert(self.insert_into(ins, &merged, &db)?)
            }
            ast::Statement::Update(u) => ast::Statement::Update(update_of(u, &merged, &db)?),
            ast::Statement::Delete(d) => ast::Statement::Delete(delete_from(d, &merged, &db)?),
            _ => unreachable!("target() takes these only"),
        };
        Ok(Some((rewritten, check)))
    }

    /// View `view` of database `db` merged down to its table, for a
    /// `statement` through it.
    /// `listed`: an INSERT names its columns.
    fn merge_view(
        &mut self,
        db: &str,
        view: ViewDef,
        statement: &str,
        listed: bool,
    ) -> Result<Merged> {
        let name = view.name.clone();
        let label = format!(
            "`{}`.`{}`",
            db.replace('`', "``"),
            view.name.replace('`', "``")
        );
        let check_option = view.check_option.clone();
        // The views from the one named down, each with its SELECT.
        let mut levels: Vec<(ViewDef, ast::Select, Vec<Vec<String>>)> = Vec::new();
        let mut current = view;
        let base = loop {
            let q = crate::parser::view_query(&current)?;
            if !updatable(&q, &current.algorithm) {
                return Err(SqlError::not_updatable(&name, statement));
            }
            let ast::SetExpr::Select(select) = *q.body else {
                return Err(SqlError::not_updatable(&name, statement));
            };
            let [from] = select.from.as_slice() else {
                return Err(join_view(db, &name, statement, listed));
            };
            if !from.joins.is_empty() {
                return Err(join_view(db, &name, statement, listed));
            }
            let ast::TableFactor::Table {
                name: table,
                alias,
                args: None,
                ..
            } = &from.relation
            else {
                return Err(SqlError::not_updatable(&name, statement));
            };
            if select.selection.as_ref().is_some_and(has_subquery) {
                return Err(SqlError::unsupported(format!(
                    "{statement} through a view whose WHERE holds a subquery"
                )));
            }
            let (table_db, table_name) = qualify(Some(&current.database), &object_name(table))?;
            let names = qualifiers(table, alias.as_ref(), &table_db);
            levels.push((current, *select, names));
            if levels.len() > MAX_DEPTH {
                return Err(SqlError::not_updatable(&name, statement));
            }
            match self.engine.view(&table_db, &table_name)? {
                Some(inner) => current = inner,
                None => break (table_db, table_name),
            }
        };
        let table = self.tables.get(&self.engine, base.clone())?;
        // From the table up: each level's columns over the table's.
        let mut columns: Vec<(String, ast::Expr)> = table
            .def()
            .columns
            .iter()
            .map(|c| (c.name.clone(), ast::Expr::Identifier(quoted(&c.name))))
            .collect();
        let (mut condition, mut check) = (None, None);
        let levels_count = levels.len();
        for (depth, (level, select, q)) in levels.into_iter().rev().enumerate() {
            let invalid = |_| view_invalid(&level.database, &level.name);
            let mut exprs = Vec::new();
            for item in &select.projection {
                match item {
                    ast::SelectItem::UnnamedExpr(e) => {
                        let name = match e {
                            ast::Expr::Identifier(i) => i.value.clone(),
                            ast::Expr::CompoundIdentifier(p) => {
                                p.last().map(|i| i.value.clone()).unwrap_or_default()
                            }
                            e => e.to_string(),
                        };
                        exprs.push((
                            name,
                            substitute(e, &columns, &q, "field list").map_err(invalid)?,
                        ));
                    }
                    ast::SelectItem::ExprWithAlias { expr, alias } => exprs.push((
                        alias.value.clone(),
                        substitute(expr, &columns, &q, "field list").map_err(invalid)?,
                    )),
                    ast::SelectItem::Wildcard(_) | ast::SelectItem::QualifiedWildcard(..) => {
                        exprs.extend(columns.iter().cloned())
                    }
                    ast::SelectItem::ExprWithAliases { .. } => {
                        return Err(SqlError::not_updatable(&name, statement))
                    }
                }
            }
            // The names the view gives its columns win.
            let given = if level.names.len() == exprs.len() {
                &level.names
            } else {
                &level.columns
            };
            if given.len() == exprs.len() {
                for ((n, _), g) in exprs.iter_mut().zip(given) {
                    n.clone_from(g);
                }
            }
            let own = select
                .selection
                .as_ref()
                .map(|w| substitute(w, &columns, &q, "WHERE"))
                .transpose()
                .map_err(invalid)?;
            if depth + 1 == levels_count {
                check = match check_option.as_str() {
                    "CASCADED" => and(condition.clone(), own.clone()),
                    "LOCAL" => own.clone(),
                    _ => None,
                };
            }
            condition = and(condition, own);
            columns = exprs;
        }
        Ok(Merged {
            name,
            label,
            base,
            columns,
            condition,
            check,
        })
    }

    /// INSERT or REPLACE into the view as into its table: the columns
    /// named (all the view's when none are) must each be a column of it.
    fn insert_into(&self, ins: &ast::Insert, merged: &Merged, db: &str) -> Result<ast::Insert> {
        let ast::TableObject::TableName(name) = &ins.table else {
            return Err(SqlError::internal("an INSERT into a view without its name"));
        };
        let qualifiers = &qualifiers(name, None, db);
        if ins.returning.is_some() || ins.insert_alias.is_some() {
            return Err(SqlError::unsupported(
                "INSERT … RETURNING or a row alias through a view",
            ));
        }
        let base_column = |name: &str| -> Result<ast::Ident> {
            if merged.column(name).is_none() {
                return Err(unknown_column(name, "INSERT INTO"));
            }
            merged
                .base_column(name)
                .ok_or_else(|| SqlError::not_updatable(&merged.name, "INSERT"))
        };
        let mut out = ins.clone();
        out.table = ast::TableObject::TableName(merged.base_name());
        out.table_alias = None;
        out.columns = if ins.columns.is_empty() && ins.assignments.is_empty() {
            merged
                .columns
                .iter()
                .map(|(n, _)| base_column(n).map(|i| ast::ObjectName::from(vec![i])))
                .collect::<Result<_>>()?
        } else {
            ins.columns
                .iter()
                .map(|c| {
                    let n = object_name(c);
                    base_column(n.last().map_or("", String::as_str))
                        .map(|i| ast::ObjectName::from(vec![i]))
                })
                .collect::<Result<_>>()?
        };
        out.assignments = ins
            .assignments
            .iter()
            .map(|a| assigned(a, merged, &merged.columns, qualifiers, "INSERT INTO", "SET"))
            .collect::<Result<_>>()?;
        if let Some(ast::OnInsert::DuplicateKeyUpdate(assignments)) = &ins.on {
            out.on = Some(ast::OnInsert::DuplicateKeyUpdate(
                assignments
                    .iter()
                    .map(|a| assigned(a, merged, &merged.columns, qualifiers, "SELECT", "SELECT"))
                    .collect::<Result<_>>()?,
            ));
        }
        Ok(out)
    }
}

/// An assignment to a view's column as one to its table's.
fn assigned(
    a: &ast::Assignment,
    merged: &Merged,
    values: &[(String, ast::Expr)],
    qualifiers: &[Vec<String>],
    target_clause: &str,
    value_clause: &str,
) -> Result<ast::Assignment> {
    let ast::AssignmentTarget::ColumnName(n) = &a.target else {
        return Err(SqlError::unsupported("a tuple assignment through a view"));
    };
    let parts = object_name(n);
    let (column, qualifier) = parts.split_last().expect("a name has a part");
    if !qualifier.is_empty() && !qualifiers.iter().any(|q| same(q, qualifier)) {
        return Err(unknown_column(&parts.join("."), target_clause));
    }
    if merged.column(column).is_none() {
        return Err(unknown_column(column, target_clause));
    }
    let Some(base) = merged.base_column(column) else {
        return Err(SqlError::new(
            1348,
            "HY000",
            format!("Column '{column}' is not updatable"),
        ));
    };
    Ok(ast::Assignment {
        target: ast::AssignmentTarget::ColumnName(ast::ObjectName::from(vec![base])),
        value: substitute(&a.value, values, qualifiers, value_clause)?,
    })
}

fn same(a: &[String], b: &[String]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x.eq_ignore_ascii_case(y))
}

/// The names a statement's qualified references may give the view:
/// its alias, or its name alone or with its database.
fn qualifiers(
    name: &ast::ObjectName,
    alias: Option<&ast::TableAlias>,
    db: &str,
) -> Vec<Vec<String>> {
    if let Some(a) = alias {
        return vec![vec![a.name.value.clone()]];
    }
    let parts = object_name(name);
    let table = parts.last().cloned().unwrap_or_default();
    vec![vec![table.clone()], vec![db.to_string(), table]]
}

/// The view's columns and condition as the table's, qualified by its
/// name, for a statement whose WHERE may hold subqueries.
fn qualified_merge(merged: &Merged) -> (Vec<(String, ast::Expr)>, Option<ast::Expr>) {
    let table = &merged.base.1;
    let columns = merged
        .columns
        .iter()
        .map(|(n, e)| (n.clone(), qualified_by(e, table)))
        .collect();
    let condition = merged.condition.as_ref().map(|c| qualified_by(c, table));
    (columns, condition)
}

/// The clause an unknown name in the statement's WHERE is reported in:
/// MariaDB names FROM when the view has a WHERE of its own.
fn where_clause(merged: &Merged) -> &'static str {
    if merged.condition.is_some() {
        "FROM"
    } else {
        "WHERE"
    }
}

fn update_of(u: &ast::Update, merged: &Merged, db: &str) -> Result<ast::Update> {
    if u.returning.is_some() {
        return Err(SqlError::unsupported("UPDATE … RETURNING"));
    }
    let ast::TableFactor::Table { name, alias, .. } = &u.table.relation else {
        return Err(SqlError::internal("an UPDATE of a view without its name"));
    };
    let q = qualifiers(name, alias.as_ref(), db);
    let (columns, condition) = qualified_merge(merged);
    let mut out = u.clone();
    if let ast::TableFactor::Table { name, alias, .. } = &mut out.table.relation {
        *name = merged.base_name();
        *alias = None;
    }
    out.assignments = u
        .assignments
        .iter()
        .map(|a| assigned(a, merged, &columns, &q, "SET", "SET"))
        .collect::<Result<_>>()?;
    (out.selection, out.order_by) = filter_and_order(
        (u.selection.as_ref(), &u.order_by),
        merged,
        (&columns, condition),
        &q,
    )?;
    Ok(out)
}

/// An UPDATE's or DELETE's WHERE, with the views' `condition` ANDed, and
/// its ORDER BY, over the table's `columns`.
fn filter_and_order(
    (selection, order_by): (Option<&ast::Expr>, &[ast::OrderByExpr]),
    merged: &Merged,
    (columns, condition): (&[(String, ast::Expr)], Option<ast::Expr>),
    q: &[Vec<String>],
) -> Result<(Option<ast::Expr>, Vec<ast::OrderByExpr>)> {
    let own = selection
        .map(|w| substitute(w, columns, q, where_clause(merged)))
        .transpose()?;
    let order = order_by
        .iter()
        .map(|o| {
            let mut o = o.clone();
            o.expr = substitute(&o.expr, columns, q, "ORDER BY")?;
            Ok(o)
        })
        .collect::<Result<_>>()?;
    Ok((and(own, condition), order))
}

fn delete_from(d: &ast::Delete, merged: &Merged, db: &str) -> Result<ast::Delete> {
    if d.returning.is_some() {
        return Err(SqlError::unsupported("DELETE … RETURNING through a view"));
    }
    let mut out = d.clone();
    let from = match &mut out.from {
        ast::FromTable::WithFromKeyword(t) | ast::FromTable::WithoutKeyword(t) => t,
    };
    let ast::TableFactor::Table { name, alias, .. } = &mut from[0].relation else {
        return Err(SqlError::internal("a DELETE of a view without its name"));
    };
    let q = qualifiers(name, alias.as_ref(), db);
    *name = merged.base_name();
    *alias = None;
    let (columns, condition) = qualified_merge(merged);
    (out.selection, out.order_by) = filter_and_order(
        (d.selection.as_ref(), &d.order_by),
        merged,
        (&columns, condition),
        &q,
    )?;
    Ok(out)
}

/// A view of a join: MariaDB's own errors where it refuses the statement
/// too; the changes it makes of one of the join's tables are not merged
/// yet.
fn join_view(db: &str, name: &str, statement: &str, listed: bool) -> SqlError {
    match statement {
        "INSERT" if !listed => SqlError::new(
            1394,
            "HY000",
            format!("Can not insert into join view '{db}.{name}' without fields list"),
        ),
        "DELETE" => SqlError::new(
            1395,
            "HY000",
            format!("Can not delete from join view '{db}.{name}'"),
        ),
        _ => SqlError::unsupported(format!("{statement} through a view of a join")),
    }
}

/// 1356: a view that no longer reads as it did.
fn view_invalid(db: &str, name: &str) -> SqlError {
    SqlError::new(
        1356,
        "HY000",
        format!(
            "View '{db}.{name}' references invalid table(s) or column(s) or function(s) or definer/invoker of view lack rights to use them"
        ),
    )
}
