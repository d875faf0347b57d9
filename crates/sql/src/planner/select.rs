//! One SELECT block: its FROM items (one, or joined), WHERE, grouping,
//! select list, HAVING, ORDER BY and LIMIT.
use super::join::{build_join, PreparedJoin};
use super::{derived_merge, semi_join};
use super::{run_hints, Planner};
use crate::error::{Result, SqlError};
use crate::expr::window;
use crate::expr::{conjuncts, factor_or, AggFunc, Compiler, Expr, ScopeColumn};
use crate::planner::access::choose_access;
use crate::planner::from::{FromTree, Item};
use crate::planner::item_names;
use crate::planner::plan::{SelectPlan, Source};
use crate::planner::window::window_plan;
use crate::result::Column;
use sqlparser::ast;

/// The place in the select list (from 0) of `ORDER BY n` / `GROUP BY n`;
/// 1054 naming `clause` when there is none.
pub(super) fn select_position(n: &ast::Value, count: usize, clause: &str) -> Result<usize> {
    let n: usize = n.to_string().parse().unwrap_or(0);
    if n == 0 || n > count {
        return Err(SqlError::new(
            1054,
            "42S22",
            format!("Unknown column '{n}' in '{clause}'"),
        ));
    }
    Ok(n - 1)
}

/// LIMIT and OFFSET, compiled.
pub(super) fn limit_offset(
    c: &mut Compiler<'_>,
    clause: Option<&ast::LimitClause>,
) -> Result<(Option<Expr>, Option<Expr>)> {
    Ok(match clause {
        None => (None, None),
        Some(ast::LimitClause::LimitOffset { limit, offset, .. }) => (
            limit.as_ref().map(|e| c.compile(e)).transpose()?,
            offset.as_ref().map(|o| c.compile(&o.value)).transpose()?,
        ),
        Some(ast::LimitClause::OffsetCommaLimit { offset, limit }) => {
            (Some(c.compile(limit)?), Some(c.compile(offset)?))
        }
    })
}

/// ONLY_FULL_GROUP_BY as MariaDB checks it: a select-list item that is
/// not one of the GROUP BY expressions reads, outside aggregates, only
/// columns that are (1055 names the first other); without GROUP BY, an
/// aggregate query's items read no column outside aggregates (1140). Only
/// stored tables' columns are checked (MariaDB lets a derived table's
/// through), which `database_of` tells (their database).
fn check_full_group_by(
    projection: &[Expr],
    group_by: &[Expr],
    scope: &[ScopeColumn],
    database_of: &dyn Fn(usize) -> Option<String>,
) -> Result<()> {
    let grouped = |x: &Expr| {
        group_by
            .iter()
            .any(|g| g.unmarked().without_zone() == x.without_zone())
    };
    for x in projection.iter().filter(|x| !grouped(x)) {
        let mut outside = None;
        x.columns(&mut |i| {
            if outside.is_none() && !grouped(&Expr::Col(i)) {
                outside = database_of(i).map(|db| (db, i));
            }
        });
        let Some((db, i)) = outside else {
            continue;
        };
        if group_by.is_empty() {
            return Err(SqlError::new(
                1140,
                "42000",
                "Mixing of GROUP columns (MIN(),MAX(),COUNT(),...) with no GROUP columns is \
                 illegal if there is no GROUP BY clause",
            ));
        }
        return Err(SqlError::new(
            1055,
            "42000",
            format!(
                "'{db}.{}.{}' isn't in GROUP BY",
                scope[i].table, scope[i].name
            ),
        ));
    }
    Ok(())
}

impl Planner<'_> {
    /// Whether sql_mode holds ONLY_FULL_GROUP_BY.
    fn only_full_group_by(&self) -> bool {
        (self.variable)("sql_mode")
            .ok()
            .and_then(|v| v.to_text())
            .is_some_and(|m| m.split(',').any(|f| f == "ONLY_FULL_GROUP_BY"))
    }

    pub(super) fn plan_select(
        &mut self,
        select: &ast::Select,
        order: Option<&ast::OrderBy>,
        limit_clause: Option<&ast::LimitClause>,
    ) -> Result<SelectPlan> {
        let tree = self.plan_from(&select.from)?;
        // One item: its source and scope as they are; several: the joined
        // row's scope, the join planned once the query's columns are known.
        let (mut source, scope, hints, prepared) = match tree {
            None => (Source::Nothing, Vec::new(), Vec::new(), None),
            Some(FromTree::Item(Item {
                source,
                scope,
                hints,
            })) => (source, scope, hints, None),
            Some(tree) => {
                let (mut prepared, scope) = self.prepare_join(tree)?;
                if select
                    .select_modifiers
                    .as_ref()
                    .is_some_and(|m| m.straight_join)
                {
                    prepared.keep_written_order();
                }
                (Source::Nothing, scope, Vec::new(), Some(prepared))
            }
        };
        let scope: &[ScopeColumn] = &scope;
        let text = self.text.clone();
        let mut item_texts: Option<Option<Vec<&str>>> = None;
        let mut c = self.compiler(scope);
        let filter = select
            .selection
            .as_ref()
            .map(|e| c.compile(e).map(factor_or))
            .transpose()
            .map_err(|e| e.in_clause("WHERE"))?;
        c.aggs = Some(Vec::new());
        // Window functions stand in the select list and ORDER BY only.
        window::check_named(&select.named_window)?;
        c.windows = Some(window::Windows {
            funcs: Vec::new(),
            named: select.named_window.clone(),
        });
        let mut projection = Vec::new();
        let mut names = Vec::new();
        let mut origins: Vec<Option<usize>> = Vec::new();
        for (n, item) in select.projection.iter().enumerate() {
            match item {
                ast::SelectItem::UnnamedExpr(e) => {
                    let x = c.compile(e).map_err(|e| e.in_clause("SELECT"))?;
                    origins.push(match x {
                        Expr::Col(i) => Some(i),
                        _ => None,
                    });
                    let text = text.as_deref();
                    let segment = match text {
                        Some(t) if item_names::needs_text(e) => item_texts
                            .get_or_insert_with(|| item_names::item_texts(t, select))
                            .as_ref()
                            .map(|all| all[n]),
                        _ => None,
                    };
                    names.push(item_names::item_name(e, text, segment));
                    projection.push(x);
                }
                ast::SelectItem::ExprWithAlias { expr, alias } => {
                    let x = c.compile(expr).map_err(|e| e.in_clause("SELECT"))?;
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
                ast::SelectItem::Wildcard(_) => {
                    if scope.is_empty() {
                        return Err(SqlError::new(1096, "HY000", "No tables used"));
                    }
                    for (i, s) in scope.iter().enumerate().filter(|(_, s)| !s.hidden) {
                        projection.push(c.column_ref(i));
                        names.push(s.name.clone());
                        origins.push(Some(i));
                    }
                }
                ast::SelectItem::QualifiedWildcard(kind, _) => {
                    let table = match kind {
                        ast::SelectItemQualifiedWildcardKind::ObjectName(n) => {
                            crate::expr::object_name(n)
                                .last()
                                .cloned()
                                .unwrap_or_default()
                        }
                        other => return Err(SqlError::unsupported(format!("{other}.*"))),
                    };
                    let mut any = false;
                    for (i, s) in scope.iter().enumerate() {
                        if s.table.eq_ignore_ascii_case(&table) {
                            any = true;
                            projection.push(c.column_ref(i));
                            names.push(s.name.clone());
                            origins.push(Some(i));
                        }
                    }
                    if !any {
                        return Err(SqlError::new(
                            1051,
                            "42S02",
                            format!("Unknown table '{table}'"),
                        ));
                    }
                }
            }
        }
        // GROUP BY: a column, else a select-list alias, or a position.
        let saved_aggs = c.aggs.take();
        let saved_windows = c.windows.take();
        let mut group_by = Vec::new();
        let rollup;
        match &select.group_by {
            ast::GroupByExpr::Expressions(list, modifiers) => {
                rollup = !modifiers.is_empty();
                if rollup && order.is_some() {
                    return Err(SqlError::new(
                        1221,
                        "HY000",
                        "Incorrect usage of CUBE/ROLLUP and ORDER BY",
                    ));
                }
                for e in list {
                    let x = match e {
                        ast::Expr::Identifier(i)
                            if c.column(None, &i.value).is_err()
                                && names.iter().any(|n| n.eq_ignore_ascii_case(&i.value)) =>
                        {
                            let p = names
                                .iter()
                                .position(|n| n.eq_ignore_ascii_case(&i.value))
                                .expect("found");
                            projection[p].clone()
                        }
                        ast::Expr::Value(v) if matches!(v.value, ast::Value::Number(..)) => {
                            let n = select_position(&v.value, projection.len(), "group statement")?;
                            projection[n].clone()
                        }
                        e => c.compile(e).map_err(|e| e.in_clause("GROUP BY"))?,
                    };
                    if x.any(&|e| matches!(e, Expr::Window(_))) {
                        return Err(window::misplaced());
                    }
                    if x.any(&|e| matches!(e, Expr::Agg(_))) {
                        return Err(SqlError::new(
                            1056,
                            "42000",
                            format!("Can't group on '{e}'"),
                        ));
                    }
                    // Grouped by the collation's equality (keys as bytes).
                    let kind = x.kind(c.scope, &[]);
                    group_by.push(crate::expr::order_keyed(x, kind, c.scope));
                }
            }
            ast::GroupByExpr::All(_) => return Err(SqlError::unsupported("GROUP BY ALL")),
        }
        c.aggs = saved_aggs;
        // HAVING may name a select-list alias, which MariaDB prefers to a
        // column of the same name.
        let having = select.having.as_ref().map(|e| {
            let mut e = e.clone();
            let _ = ast::visit_expressions_mut(&mut e, |x| {
                if let ast::Expr::Identifier(i) = x {
                    let aliased = select.projection.iter().find_map(|p| match p {
                        ast::SelectItem::ExprWithAlias { expr, alias }
                            if alias.value.eq_ignore_ascii_case(&i.value) =>
                        {
                            Some(expr.clone())
                        }
                        _ => None,
                    });
                    if let Some(expr) = aliased {
                        *x = ast::Expr::Nested(Box::new(expr));
                    }
                }
                std::ops::ControlFlow::<()>::Continue(())
            });
            e
        });
        let having = having
            .as_ref()
            .map(|e| c.compile(e))
            .transpose()
            .map_err(|e| e.in_clause("HAVING"))?;
        c.windows = saved_windows;
        let mut order_by = Vec::new();
        if let Some(ob) = order {
            if let ast::OrderByKind::Expressions(list) = &ob.kind {
                for o in list {
                    let desc = matches!(o.options.sort, Some(ast::OrderBySort::Desc));
                    // ORDER BY alias, or position.
                    let x = match &o.expr {
                        ast::Expr::Identifier(i)
                            if names.iter().any(|n| n.eq_ignore_ascii_case(&i.value)) =>
                        {
                            let p = names
                                .iter()
                                .position(|n| n.eq_ignore_ascii_case(&i.value))
                                .unwrap();
                            projection[p].clone()
                        }
                        ast::Expr::Value(v) if matches!(v.value, ast::Value::Number(..)) => {
                            let n = select_position(&v.value, projection.len(), "order clause")?;
                            projection[n].clone()
                        }
                        e => c.compile(e).map_err(|e| e.in_clause("ORDER BY"))?,
                    };
                    let kind = x.kind(c.scope, c.aggs.as_deref().unwrap_or(&[]));
                    order_by.push((crate::expr::order_keyed(x, kind, c.scope), desc));
                }
            }
        }
        let windows = c.windows.take().map(|w| w.funcs).unwrap_or_default();
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
        let (limit, offset) = limit_offset(&mut c, limit_clause)?;
        drop(c);
        if aggregate && self.only_full_group_by() {
            let database_of = |col: usize| match (&source, &prepared) {
                (Source::Table(t), _) => Some(t.table.def().database.clone()),
                (_, Some(join)) => join.base_table_database(col),
                _ => None,
            };
            check_full_group_by(&projection, &group_by, scope, &database_of)?;
        }
        let (window, kinds) = if windows.is_empty() {
            let kinds: Vec<_> = projection
                .iter()
                .map(|x| self.params.typed(x).kind(scope, &aggs))
                .collect();
            (None, kinds)
        } else {
            let (w, kinds) =
                window_plan(self.params, scope, &aggs, &windows, &projection, &order_by);
            (Some(Box::new(w)), kinds)
        };
        let columns = projection
            .iter()
            .zip(&names)
            .zip(&origins)
            .zip(kinds)
            .map(|(((x, n), o), kind)| {
                // A column as it is shows what it is where it comes from;
                // an expression, the type MariaDB gives it.
                match o.and_then(|i| scope[i].origin.as_deref()) {
                    Some(origin) => Column {
                        name: n.clone(),
                        kind,
                        ..origin.clone()
                    },
                    None => {
                        let described = self.params.typed(x).describe(scope, &aggs);
                        let integer = |k| {
                            matches!(
                                k,
                                crate::result::ColumnKind::Int | crate::result::ColumnKind::UInt
                            )
                        };
                        if described.kind == kind {
                            Column {
                                name: n.clone(),
                                ..described
                            }
                        } else if integer(described.kind) && integer(kind) {
                            // An integer is sent in the width its type
                            // says: a narrow one must keep its sign.
                            let kind = if described.wire.is_narrow() {
                                described.kind
                            } else {
                                kind
                            };
                            Column {
                                name: n.clone(),
                                kind,
                                ..described
                            }
                        } else {
                            Column::expr(n, kind)
                        }
                    }
                }
            })
            .collect::<Vec<Column>>();
        // Without GROUP BY an aggregate query of no row still makes one:
        // what is not an aggregate of it may be NULL.
        let mut columns = columns;
        if aggregate && group_by.is_empty() {
            for (c, x) in columns.iter_mut().zip(&projection) {
                let mut reads = false;
                x.columns(&mut |_| reads = true);
                if reads {
                    c.nullable = true;
                }
            }
        }
        let mut plan = SelectPlan {
            source: std::mem::replace(&mut source, Source::Nothing),
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
            hints: run_hints(&select.optimizer_hints),
            group_row_columns: Vec::new(),
            window,
            rollup,
        };
        plan.group_row_columns = plan.columns_groups_keep(&windows);
        // Correlated [NOT] EXISTS conjuncts become semi (anti) joins, a
        // single FROM item the join's first unit.
        let mut prepared = prepared;
        let mut semi_scope: Option<Vec<ScopeColumn>> = None;
        if self.semi_joins
            && (prepared.is_some() || matches!(plan.source, Source::Table(_) | Source::Derived(_)))
        {
            let (rest, semis) = semi_join::decorrelate(plan.filter.take(), self.base, scope.len());
            plan.filter = rest;
            if !semis.is_empty() {
                let mut join = match prepared.take() {
                    Some(join) => join,
                    None => PreparedJoin::single(
                        std::mem::replace(&mut plan.source, Source::Nothing),
                        hints.clone(),
                        scope.len(),
                    ),
                };
                let mut joined = scope.to_vec();
                for semi in semis {
                    let width = semi.scope.len();
                    join.push_semi_join(semi.source(), semi.offset, width, semi.anti, semi.on);
                    joined.extend(semi.scope);
                }
                prepared = Some(join);
                semi_scope = Some(joined);
            }
        }
        if let Some(prepared) = prepared {
            let scope = semi_scope.as_deref().unwrap_or(scope);
            // The joined row's columns the query reads decide covering
            // reads; WHERE conjuncts go to the steps that can check them.
            let mut needed = vec![false; scope.len()];
            let mut mark = |c: usize| {
                if c < needed.len() {
                    needed[c] = true
                }
            };
            plan.group_by.iter().for_each(|e| e.columns(&mut mark));
            plan.projection.iter().for_each(|e| e.columns(&mut mark));
            plan.order_by.iter().for_each(|(e, _)| e.columns(&mut mark));
            plan.aggs
                .iter()
                .for_each(|a| a.exprs().for_each(|e| e.columns(&mut mark)));
            plan.having.iter().for_each(|e| e.columns(&mut mark));
            windows
                .iter()
                .for_each(|f| f.exprs().for_each(|e| e.columns(&mut mark)));
            let mut parts = Vec::new();
            if let Some(f) = &plan.filter {
                conjuncts(f, &mut parts);
            }
            let where_conjuncts: Vec<Expr> = parts.into_iter().cloned().collect();
            where_conjuncts.iter().for_each(|e| e.columns(&mut mark));
            let join = build_join(prepared, where_conjuncts, &needed, scope, self.base)?;
            plan.source = Source::Join(Box::new(join));
            plan.filter = None;
        }
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
                .for_each(|a| a.exprs().for_each(|e| e.columns(&mut mark)));
            plan.having.iter().for_each(|e| e.columns(&mut mark));
            windows
                .iter()
                .for_each(|f| f.exprs().for_each(|e| e.columns(&mut mark)));
            choose_access(ts, plan.filter.as_ref(), &needed, &hints)?;
        }
        derived_merge::merge_derived(&mut plan);
        Ok(plan)
    }
}
