//! The query whose plan EXPLAIN shows for a statement: a SELECT's own, and
//! for a single-table UPDATE or DELETE the scan that finds its rows (the
//! same table, WHERE, ORDER BY and LIMIT). Multi-table changes and
//! INSERT are refused with 1235.
use crate::error::{Result, SqlError};
use sqlparser::ast;

/// What EXPLAIN describes for `statement`, and whether it changes rows
/// (MariaDB shows a changing statement's point reads as ranges).
pub(crate) fn explained_query(statement: &ast::Statement) -> Result<(Box<ast::Query>, bool)> {
    let (table, selection, order_by, limit) = match statement {
        ast::Statement::Query(q) => return Ok((q.clone(), false)),
        ast::Statement::Update(u) if u.table.joins.is_empty() && u.from.is_none() => (
            u.table.relation.to_string(),
            &u.selection,
            &u.order_by,
            &u.limit,
        ),
        ast::Statement::Delete(d) if d.tables.is_empty() && d.using.is_none() => {
            let from = match &d.from {
                ast::FromTable::WithFromKeyword(f) | ast::FromTable::WithoutKeyword(f) => f,
            };
            match from.as_slice() {
                [one] if one.joins.is_empty() => (
                    one.relation.to_string(),
                    &d.selection,
                    &d.order_by,
                    &d.limit,
                ),
                _ => return Err(refused()),
            }
        }
        _ => return Err(refused()),
    };
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
    match crate::parser::parse(&sql)?.into_iter().next() {
        Some(ast::Statement::Query(q)) => Ok((q, true)),
        _ => Err(refused()),
    }
}

fn refused() -> SqlError {
    SqlError::unsupported("EXPLAIN of a statement other than SELECT or a one-table UPDATE/DELETE")
}
