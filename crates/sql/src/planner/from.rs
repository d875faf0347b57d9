//! The FROM clause: each item (stored table, server table, derived table,
//! common table expression) planned with its scope, and the tree of joins
//! over them.
use super::{Planner, Resolved};
use crate::catalog::perf_schema::{SystemTable, SCHEMA as PERF_SCHEMA};
use crate::error::{Result, SqlError};
use crate::expr::{object_name, ScopeColumn};
use crate::names::scope_of;
use crate::planner::plan::{Path, Source, TableSource};
use crate::result::ColumnKind;
use sqlparser::ast;

/// One FROM item, planned.
pub(super) struct Item {
    pub source: Source,
    pub scope: Vec<ScopeColumn>,
    pub hints: Vec<ast::TableIndexHints>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum JoinOp {
    Inner,
    Left,
    Right,
    /// STRAIGHT_JOIN: the left side is read first.
    Straight,
}

/// The join condition as written.
pub(super) enum JoinCondition {
    None,
    On(Box<ast::Expr>),
    Using(Vec<String>),
    Natural,
}

/// FROM items and the joins between them, as written.
// A tree is made once per planned block, nearly always of items: they
// stay inline.
#[allow(clippy::large_enum_variant)]
pub(super) enum FromTree {
    Item(Item),
    Join {
        left: Box<FromTree>,
        right: Box<FromTree>,
        op: JoinOp,
        condition: JoinCondition,
    },
}

impl FromTree {
    /// Columns of all its items, in FROM order.
    pub(super) fn width(&self) -> usize {
        match self {
            FromTree::Item(i) => i.scope.len(),
            FromTree::Join { left, right, .. } => left.width() + right.width(),
        }
    }

    /// Its items' scopes side by side.
    pub(super) fn scope(&self, out: &mut Vec<ScopeColumn>) {
        match self {
            FromTree::Item(i) => out.extend(i.scope.iter().cloned()),
            FromTree::Join { left, right, .. } => {
                left.scope(out);
                right.scope(out);
            }
        }
    }
}

fn alias_name(alias: &Option<ast::TableAlias>) -> Option<String> {
    alias.as_ref().map(|a| a.name.value.clone())
}

impl Planner<'_> {
    /// The FROM clause as a tree (comma joins are inner joins); `None` for
    /// no FROM.
    pub(super) fn plan_from(&mut self, from: &[ast::TableWithJoins]) -> Result<Option<FromTree>> {
        let mut tree: Option<FromTree> = None;
        for twj in from {
            let mut t = FromTree::Item(self.item(&twj.relation)?);
            // `a JOIN (b, c)` comes as a nested join factor.
            if let FromTree::Item(Item {
                source: Source::Nothing,
                ..
            }) = &t
            {
                if let ast::TableFactor::NestedJoin {
                    table_with_joins, ..
                } = &twj.relation
                {
                    t = self
                        .plan_from(std::slice::from_ref(table_with_joins))?
                        .expect("one item");
                }
            }
            for j in &twj.joins {
                let right = match &j.relation {
                    ast::TableFactor::NestedJoin {
                        table_with_joins,
                        alias: None,
                    } => self
                        .plan_from(std::slice::from_ref(table_with_joins))?
                        .expect("one item"),
                    other => FromTree::Item(self.item(other)?),
                };
                use ast::JoinOperator as J;
                let (op, constraint) = match &j.join_operator {
                    J::Join(c) | J::Inner(c) => (JoinOp::Inner, Some(c)),
                    J::CrossJoin(c) => (JoinOp::Inner, Some(c)),
                    J::Left(c) | J::LeftOuter(c) => (JoinOp::Left, Some(c)),
                    J::Right(c) | J::RightOuter(c) => (JoinOp::Right, Some(c)),
                    J::StraightJoin(c) => (JoinOp::Straight, Some(c)),
                    other => {
                        return Err(SqlError::unsupported(format!("join {other:?}")));
                    }
                };
                let condition = match constraint {
                    None | Some(ast::JoinConstraint::None) => JoinCondition::None,
                    Some(ast::JoinConstraint::On(e)) => JoinCondition::On(Box::new(e.clone())),
                    Some(ast::JoinConstraint::Using(cols)) => JoinCondition::Using(
                        cols.iter()
                            .map(|c| object_name(c).last().cloned().unwrap_or_default())
                            .collect(),
                    ),
                    Some(ast::JoinConstraint::Natural) => JoinCondition::Natural,
                };
                if matches!(op, JoinOp::Left | JoinOp::Right)
                    && matches!(condition, JoinCondition::None)
                {
                    return Err(SqlError::syntax("LEFT/RIGHT JOIN needs ON or USING"));
                }
                t = FromTree::Join {
                    left: Box::new(t),
                    right: Box::new(right),
                    op,
                    condition,
                };
            }
            tree = Some(match tree {
                None => t,
                Some(left) => FromTree::Join {
                    left: Box::new(left),
                    right: Box::new(t),
                    op: JoinOp::Inner,
                    condition: JoinCondition::None,
                },
            });
        }
        Ok(tree)
    }

    /// One FROM item (a nested join comes back as `Source::Nothing` for
    /// the caller to expand).
    fn item(&mut self, factor: &ast::TableFactor) -> Result<Item> {
        match factor {
            ast::TableFactor::Table {
                name,
                alias,
                index_hints,
                args: None,
                with_hints,
                ..
            } if with_hints.is_empty() => {
                let parts = object_name(name);
                if let [one] = &parts[..] {
                    if let Some(at) = self
                        .ctes
                        .iter()
                        .rposition(|c| c.name.eq_ignore_ascii_case(one))
                    {
                        let alias = alias_name(alias).unwrap_or_else(|| one.clone());
                        return self.cte_item(at, alias);
                    }
                }
                let in_perf_schema = match &parts[..] {
                    [db, table] => Some((db.as_str(), table)),
                    [table] => self.facts.database.as_deref().map(|db| (db, table)),
                    _ => None,
                };
                if let Some((db, table)) = in_perf_schema {
                    if crate::names::is_performance_schema(db) {
                        (self.may_read_system)(PERF_SCHEMA, table)?;
                        let t = SystemTable::find(table)
                            .ok_or_else(|| SqlError::unknown_table(PERF_SCHEMA, table))?;
                        let alias = alias_name(alias).unwrap_or_else(|| table.clone());
                        let scope = t
                            .columns()
                            .iter()
                            .map(|(c, kind)| ScopeColumn {
                                stored_timestamp: false,
                                name: c.to_string(),
                                table: alias.clone(),
                                kind: *kind,
                                hidden: false,
                                numbered: None,
                                json: false,
                                origin: None,
                            })
                            .collect();
                        return Ok(Item {
                            source: Source::System(t, self.engine.clone(), self.registry.clone()),
                            scope,
                            hints: Vec::new(),
                        });
                    }
                }
                let table = match (self.resolve)(&parts, self.in_definer_view == 0)? {
                    Resolved::Table(t) => t,
                    Resolved::Information(info) => {
                        let alias = alias_name(alias)
                            .unwrap_or_else(|| parts.last().cloned().unwrap_or_default());
                        let scope = info
                            .table
                            .columns
                            .iter()
                            .map(|c| ScopeColumn {
                                stored_timestamp: false,
                                name: c.name.to_string(),
                                table: alias.clone(),
                                kind: ColumnKind::of(c.data_type),
                                hidden: false,
                                numbered: None,
                                json: false,
                                origin: Some(std::sync::Arc::new(
                                    c.column(&alias, info.table.name),
                                )),
                            })
                            .collect();
                        self.read_information_schema = true;
                        return Ok(Item {
                            source: Source::Information(info),
                            scope,
                            hints: Vec::new(),
                        });
                    }
                    Resolved::View(view) => {
                        let q = crate::parser::view_query(&view)?;
                        let alias = alias_name(alias).unwrap_or_else(|| view.name.clone());
                        let definer = usize::from(!view.invoker);
                        self.in_definer_view += definer;
                        // The view's items are named from its own text.
                        let outer_text = self.text.replace(view.query.as_str().into());
                        let item = self.derived_named(&q, alias, &view.columns, Some(&view.names));
                        self.text = outer_text;
                        self.in_definer_view -= definer;
                        return match item {
                            // The invoker may not read what the view reads.
                            Err(e) if view.invoker && matches!(e.code, 1142 | 1143) => {
                                Err(SqlError::new(
                                    1356,
                                    "HY000",
                                    format!(
                                        "View '{}.{}' references invalid table(s) or column(s) \
                                         or function(s) or definer/invoker of view lack rights \
                                         to use them",
                                        view.database, view.name
                                    ),
                                ))
                            }
                            item => item,
                        };
                    }
                };
                let alias =
                    alias_name(alias).unwrap_or_else(|| parts.last().cloned().unwrap_or_default());
                // A query's table columns carry their result description
                // (statements that change rows need none).
                let mut scope = scope_of(&table, &alias);
                for (i, c) in scope.iter_mut().enumerate() {
                    c.origin = Some(std::sync::Arc::new(crate::result::Column::stored(
                        table.def(),
                        i,
                        &alias,
                    )));
                }
                Ok(Item {
                    source: Source::Table(TableSource {
                        table,
                        alias: alias.clone(),
                        path: Path::table_scan(None),
                        others: Vec::new(),
                        fetch: Vec::new(),
                        forced: false,
                    }),
                    scope,
                    hints: index_hints.to_vec(),
                })
            }
            ast::TableFactor::Derived {
                lateral: false,
                subquery,
                alias,
                ..
            } => {
                let Some(name) = alias_name(alias) else {
                    return Err(SqlError::new(
                        1248,
                        "42000",
                        "Every derived table must have its own alias",
                    ));
                };
                let columns: Vec<String> = alias
                    .iter()
                    .flat_map(|a| &a.columns)
                    .map(|c| c.name.value.clone())
                    .collect();
                self.derived(subquery, name, &columns)
            }
            ast::TableFactor::NestedJoin { alias: None, .. } => Ok(Item {
                source: Source::Nothing,
                scope: Vec::new(),
                hints: Vec::new(),
            }),
            other => Err(SqlError::unsupported(format!("FROM {other}"))),
        }
    }

    /// A derived table (or a common table expression) named `alias`: a
    /// query block of its own, which sees no outer columns.
    pub(super) fn derived(
        &mut self,
        q: &ast::Query,
        alias: String,
        names: &[String],
    ) -> Result<Item> {
        self.derived_named(q, alias, names, None)
    }

    /// [`derived`](Self::derived), its columns named `names`, or else
    /// `kept` where as many (a view's names when it was made: the stored
    /// text names its items in its own spelling).
    fn derived_named(
        &mut self,
        q: &ast::Query,
        alias: String,
        names: &[String],
        kept: Option<&[String]>,
    ) -> Result<Item> {
        let outer = std::mem::take(&mut self.outer);
        let inner = self.plan_query(q);
        self.outer = outer;
        let mut inner = inner?;
        if let Some(kept) = kept.filter(|k| names.is_empty() && k.len() == inner.columns().len()) {
            inner.rename_columns(kept);
        }
        if !names.is_empty() {
            if names.len() != inner.columns().len() {
                return Err(SqlError::new(
                    1353,
                    "HY000",
                    "View's SELECT and view's field list have different column counts",
                ));
            }
            inner.rename_columns(names);
        }
        let mut scope: Vec<ScopeColumn> = Vec::new();
        for c in inner.columns() {
            if scope.iter().any(|s| s.name.eq_ignore_ascii_case(&c.name)) {
                return Err(SqlError::new(
                    1060,
                    "42S21",
                    format!("Duplicate column name '{}'", c.name),
                ));
            }
            scope.push(ScopeColumn {
                stored_timestamp: false,
                name: c.name.clone(),
                table: alias.clone(),
                kind: c.kind,
                hidden: false,
                numbered: c.data_type.filter(|t| t.has_members()),
                json: false,
                // MariaDB names a derived table's columns after the
                // derived table, twice.
                origin: Some(std::sync::Arc::new(crate::result::Column {
                    table: alias.clone(),
                    org_table: alias.clone(),
                    ..c.clone()
                })),
            });
        }
        Ok(Item {
            source: Source::Derived(Box::new(inner)),
            scope,
            hints: Vec::new(),
        })
    }
}
