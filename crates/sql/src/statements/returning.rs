//! RETURNING of INSERT, REPLACE and DELETE (MariaDB's): the rows the
//! statement wrote or removed, each through the RETURNING list, sent as a
//! result set once the statement has succeeded — and, outside a
//! transaction, once its commit is durable, since the rows are what the
//! client learns of it.
use crate::error::{Result, SqlError};
use crate::expr::{Env, Expr, Params};
use crate::planner::item_names::item_name;
use crate::result::{CollectSink, Column, Outcome, RowSink};
use crate::session::Session;
use lineardb_table::{Table, Value};
use lineardb_txn::Txn;
use sqlparser::ast;

/// A RETURNING list compiled over a table's rows.
pub(super) struct Returning {
    columns: Vec<Column>,
    items: Vec<Expr>,
    /// The rows made so far.
    rows: Vec<Vec<Value>>,
}

impl Returning {
    /// Adds the RETURNING list's values for `row`, a row of the table.
    pub(super) fn add(&mut self, row: &[Value], env: Env<'_>) -> Result<()> {
        let values = self
            .items
            .iter()
            .map(|x| x.eval(row, env))
            .collect::<Result<Vec<_>>>()?;
        self.rows.push(values);
        Ok(())
    }

    pub(super) fn into_rows(self) -> CollectSink {
        CollectSink {
            columns: self.columns,
            rows: self.rows,
        }
    }
}

impl Session {
    /// The RETURNING list `items` compiled over the rows of `table`: `*`
    /// and `table.*` are its columns as they are stored.
    pub(super) fn returning(
        &self,
        table: &Table,
        items: &[ast::SelectItem],
        params: &Params,
    ) -> Result<Returning> {
        let def = table.def();
        // Each column's origin is the stored column, which an expression's
        // description reads (its length, NOT NULL).
        let mut scope = crate::names::scope_of(table, &def.name);
        for (i, c) in scope.iter_mut().enumerate() {
            c.origin = Some(std::sync::Arc::new(Column::stored(def, i, &def.name)));
        }
        let mut columns = Vec::new();
        let mut compiled = Vec::new();
        let text = self.statement_text.clone();
        let texts = text
            .as_deref()
            .and_then(|t| crate::planner::item_names::returning_texts(t, items));
        for (n, item) in items.iter().enumerate() {
            let (e, alias) = match item {
                ast::SelectItem::Wildcard(_) | ast::SelectItem::QualifiedWildcard(..) => {
                    if let ast::SelectItem::QualifiedWildcard(
                        ast::SelectItemQualifiedWildcardKind::ObjectName(name),
                        _,
                    ) = item
                    {
                        let named = crate::expr::object_name(name);
                        if !named
                            .last()
                            .is_some_and(|n| n.eq_ignore_ascii_case(&def.name))
                        {
                            let qualified = match &named[..] {
                                [table] => format!("{}.{table}", def.database),
                                _ => named.join("."),
                            };
                            return Err(SqlError::new(
                                1051,
                                "42S02",
                                format!("Unknown table '{qualified}'"),
                            ));
                        }
                    }
                    for i in 0..def.columns.len() {
                        columns.push(Column::stored(def, i, &def.name));
                        compiled.push(Expr::Col(i));
                    }
                    continue;
                }
                ast::SelectItem::UnnamedExpr(e) => (e, None),
                ast::SelectItem::ExprWithAlias { expr, alias } => (expr, Some(&alias.value)),
                ast::SelectItem::ExprWithAliases { .. } => {
                    return Err(SqlError::unsupported("RETURNING expr AS (a, b)"))
                }
            };
            let x = self
                .with_compiler(&scope, params, |c| c.compile(e))
                .map_err(|e| e.in_clause("RETURNING"))?;
            let segment = texts.as_ref().map(|t| t[n]);
            let name = alias
                .cloned()
                .unwrap_or_else(|| item_name(e, text.as_deref(), segment));
            let column = match &x {
                Expr::Col(i) => Column {
                    name,
                    ..Column::stored(def, *i, &def.name)
                },
                other => Column {
                    name,
                    ..other.describe(&scope, &[])
                },
            };
            columns.push(column);
            compiled.push(x);
        }
        Ok(Returning {
            columns,
            items: compiled,
            rows: Vec::new(),
        })
    }

    /// Runs a change that may return rows (RETURNING): `change` leaves
    /// them in its last argument; they go to `sink` once the change
    /// succeeded.
    pub(crate) fn changing_returning(
        &mut self,
        sink: &mut dyn RowSink,
        change: impl FnOnce(&mut Self, &mut Txn, &mut Option<CollectSink>) -> Result<Outcome>,
    ) -> Result<Outcome> {
        let mut returned = None;
        let done = self.changing_rows(|s, txn| change(s, txn, &mut returned))?;
        match returned {
            Some(rows) => self.send_returned(rows, sink),
            None => Ok(done),
        }
    }

    /// The reply of a statement that returned rows: they go to `sink` once
    /// its commit (if it made one) is durable.
    fn send_returned(&mut self, returned: CollectSink, sink: &mut dyn RowSink) -> Result<Outcome> {
        if let Some(lsn) = self.take_undurable() {
            crate::session::wait_durable(self.engine(), lsn)?;
        }
        sink.columns(&returned.columns)?;
        for row in &returned.rows {
            sink.row(row)?;
        }
        Ok(Outcome::Rows)
    }
}

impl Session {
    /// The result columns of an INSERT, REPLACE or DELETE with RETURNING
    /// (a prepared statement describes them); `None` for other statements.
    pub(crate) fn returning_columns(
        &mut self,
        statement: &ast::Statement,
        params: &Params,
    ) -> Result<Option<Vec<Column>>> {
        let (name, items) = match statement {
            ast::Statement::Insert(ast::Insert {
                table: ast::TableObject::TableName(name),
                returning: Some(items),
                ..
            }) => (name, items),
            ast::Statement::Delete(ast::Delete {
                from: ast::FromTable::WithFromKeyword(from) | ast::FromTable::WithoutKeyword(from),
                returning: Some(items),
                ..
            }) => match from.as_slice() {
                [ast::TableWithJoins {
                    relation: ast::TableFactor::Table { name, .. },
                    joins,
                }] if joins.is_empty() => (name, items),
                _ => return Ok(None),
            },
            _ => return Ok(None),
        };
        let table = self.table(
            &crate::expr::object_name(name),
            crate::privileges::bits::SELECT,
        )?;
        Ok(Some(self.returning(&table, items, params)?.columns))
    }
}
