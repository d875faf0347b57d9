//! What EXPLAIN describes for a statement, as MariaDB does: a SELECT's own
//! plan; for a one-table UPDATE or DELETE the scan that finds its rows
//! (the same table, WHERE, ORDER BY and LIMIT); for a multi-table UPDATE
//! or DELETE the join that finds them; for INSERT (REPLACE) … SELECT the
//! SELECT's plan, and for INSERT … VALUES one line naming the table.
use crate::error::{Result, SqlError};
use sqlparser::ast;

/// What EXPLAIN shows for a statement.
pub(crate) enum Explained {
    /// The plan of a query; `changes` for a one-table UPDATE or DELETE
    /// (MariaDB shows its point reads as ranges).
    Query {
        query: Box<ast::Query>,
        changes: bool,
    },
    /// INSERT … VALUES: MariaDB's one `INSERT` line for the table.
    InsertValues { table: String },
}

/// What EXPLAIN describes for `statement`.
pub(crate) fn explained(statement: &ast::Statement) -> Result<Explained> {
    let query = |query: Box<ast::Query>, changes| Ok(Explained::Query { query, changes });
    match statement {
        ast::Statement::Query(q) => query(q.clone(), false),
        ast::Statement::Insert(i) => match &i.source {
            Some(q) if !matches!(q.body.as_ref(), ast::SetExpr::Values(_)) => {
                query(q.clone(), false)
            }
            _ => {
                let name = i.table.to_string();
                let table = name.rsplit('.').next().unwrap_or(&name);
                Ok(Explained::InsertValues {
                    table: table.trim_matches('`').to_string(),
                })
            }
        },
        ast::Statement::Update(u) if u.table.joins.is_empty() && u.from.is_none() => query(
            single_table_scan(
                &u.table.relation.to_string(),
                &u.selection,
                &u.order_by,
                &u.limit,
            )?,
            true,
        ),
        ast::Statement::Update(u) => {
            let mut tables = vec![u.table.to_string()];
            if let Some(ast::UpdateTableFromKind::BeforeSet(rest)) = &u.from {
                tables.extend(rest.iter().map(ToString::to_string));
            }
            query(join_scan(&tables, &u.selection)?, false)
        }
        ast::Statement::Delete(d) => {
            let from = match &d.from {
                ast::FromTable::WithFromKeyword(f) | ast::FromTable::WithoutKeyword(f) => f,
            };
            match (from.as_slice(), &d.using) {
                ([one], None) if d.tables.is_empty() && one.joins.is_empty() => query(
                    single_table_scan(
                        &one.relation.to_string(),
                        &d.selection,
                        &d.order_by,
                        &d.limit,
                    )?,
                    true,
                ),
                // DELETE t FROM t JOIN … / DELETE FROM t USING t JOIN …:
                // the join is what follows FROM, or USING.
                (_, Some(using)) => {
                    let tables: Vec<String> = using.iter().map(ToString::to_string).collect();
                    query(join_scan(&tables, &d.selection)?, false)
                }
                (from, None) => {
                    let tables: Vec<String> = from.iter().map(ToString::to_string).collect();
                    query(join_scan(&tables, &d.selection)?, false)
                }
            }
        }
        _ => Err(SqlError::unsupported(
            "EXPLAIN of a statement other than SELECT, INSERT, REPLACE, UPDATE or DELETE",
        )),
    }
}

/// The scan a one-table UPDATE or DELETE runs to find its rows.
fn single_table_scan(
    table: &str,
    selection: &Option<ast::Expr>,
    order_by: &[ast::OrderByExpr],
    limit: &Option<ast::Expr>,
) -> Result<Box<ast::Query>> {
    let mut sql = format!("SELECT * FROM {table}");
    if let Some(w) = selection {
        sql.push_str(&format!(" WHERE {w}"));
    }
    if !order_by.is_empty() {
        let keys: Vec<String> = order_by.iter().map(ToString::to_string).collect();
        sql.push_str(&format!(" ORDER BY {}", keys.join(", ")));
    }
    if let Some(l) = limit {
        sql.push_str(&format!(" LIMIT {l}"));
    }
    parsed_query(&sql)
}

/// The join a multi-table UPDATE or DELETE runs to find its rows.
fn join_scan(tables: &[String], selection: &Option<ast::Expr>) -> Result<Box<ast::Query>> {
    let mut sql = format!("SELECT * FROM {}", tables.join(", "));
    if let Some(w) = selection {
        sql.push_str(&format!(" WHERE {w}"));
    }
    parsed_query(&sql)
}

fn parsed_query(sql: &str) -> Result<Box<ast::Query>> {
    match crate::parser::parse(sql)?.into_iter().next() {
        Some(ast::Statement::Query(q)) => Ok(q),
        _ => Err(SqlError::unsupported("EXPLAIN of this statement")),
    }
}
