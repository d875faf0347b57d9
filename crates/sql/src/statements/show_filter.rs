//! `LIKE` and `WHERE` of the SHOW statements, applied to the rows they
//! list. `LIKE` matches the first column; `WHERE` is evaluated on each row
//! with the result's column names. Comparisons are case-insensitive, as
//! MariaDB's (utf8mb3_general_ci) are for these rows. A condition outside
//! what is evaluated here is refused with 1235, never dropped.
use crate::error::{Result, SqlError};
use crate::expr::truth_of;
use lineardb_table::Value;
use sqlparser::ast;

/// The filter of a SHOW statement's options; 1235 for the options MariaDB
/// has no counterpart of (`STARTS WITH`, `LIMIT`).
pub(crate) fn options_filter(
    options: &ast::ShowStatementOptions,
) -> Result<Option<&ast::ShowStatementFilter>> {
    if options.starts_with.is_some() || options.limit.is_some() || options.limit_from.is_some() {
        return Err(SqlError::unsupported("SHOW ... STARTS WITH / LIMIT"));
    }
    Ok(match &options.filter_position {
        Some(ast::ShowStatementFilterPosition::Infix(f))
        | Some(ast::ShowStatementFilterPosition::Suffix(f)) => Some(f),
        None => None,
    })
}

/// The first column's name of SHOW DATABASES and SHOW TABLES: MariaDB
/// adds a LIKE filter's pattern to it (`Database (%s)`).
pub(crate) fn listing_header(name: &str, filter: Option<&ast::ShowStatementFilter>) -> String {
    match filter {
        Some(ast::ShowStatementFilter::Like(pattern)) => format!("{name} ({pattern})"),
        _ => name.to_string(),
    }
}

/// The rows `filter` keeps (`columns` names each row's values).
pub(crate) fn filter_rows(
    filter: Option<&ast::ShowStatementFilter>,
    columns: &[&str],
    rows: Vec<Vec<Value>>,
) -> Result<Vec<Vec<Value>>> {
    let Some(filter) = filter else {
        return Ok(rows);
    };
    let mut kept = Vec::with_capacity(rows.len());
    for row in rows {
        let keep = match filter {
            ast::ShowStatementFilter::Like(pattern) => {
                row.first().is_some_and(|v| like_ci(&text(v), pattern))
            }
            ast::ShowStatementFilter::Where(e) => truth_of(&eval(e, columns, &row)?) == Some(true),
            other => return Err(SqlError::unsupported(format!("SHOW ... {other}"))),
        };
        if keep {
            kept.push(row);
        }
    }
    Ok(kept)
}

/// Whether `name` is matched by a `LIKE` `pattern`, case-insensitively.
pub(crate) fn like_ci(name: &str, pattern: &str) -> bool {
    crate::expr::like(
        name.to_lowercase().as_bytes(),
        pattern.to_lowercase().as_bytes(),
    )
}

fn text(v: &Value) -> String {
    v.to_text().unwrap_or_default()
}

fn number(s: &str) -> Option<f64> {
    s.trim().parse().ok()
}

fn boolean(b: Option<bool>) -> Value {
    b.map_or(Value::Null, |b| Value::Int(b as i64))
}

/// Compares two values: numerically when both read as numbers, else as
/// text without regard to case.
fn compare(a: &Value, b: &Value) -> Option<std::cmp::Ordering> {
    if matches!(a, Value::Null) || matches!(b, Value::Null) {
        return None;
    }
    let (a, b) = (text(a), text(b));
    match (number(&a), number(&b)) {
        (Some(x), Some(y)) => x.partial_cmp(&y),
        _ => Some(a.to_lowercase().cmp(&b.to_lowercase())),
    }
}

fn eval(e: &ast::Expr, columns: &[&str], row: &[Value]) -> Result<Value> {
    use ast::{BinaryOperator as B, Expr as E};
    let refused = || SqlError::unsupported(format!("SHOW ... WHERE {e}"));
    Ok(match e {
        E::Nested(inner) => eval(inner, columns, row)?,
        E::Identifier(id) => {
            let i = columns
                .iter()
                .position(|c| c.eq_ignore_ascii_case(&id.value))
                .ok_or_else(|| {
                    SqlError::new(
                        1054,
                        "42S22",
                        format!("Unknown column '{}' in 'WHERE'", id.value),
                    )
                })?;
            row.get(i).cloned().unwrap_or(Value::Null)
        }
        E::Value(v) => match &v.value {
            ast::Value::SingleQuotedString(s) | ast::Value::DoubleQuotedString(s) => Value::str(s),
            ast::Value::Number(n, _) => Value::str(n),
            ast::Value::Null => Value::Null,
            ast::Value::Boolean(b) => Value::Int(*b as i64),
            _ => return Err(refused()),
        },
        E::UnaryOp {
            op: ast::UnaryOperator::Not,
            expr,
        } => boolean(truth_of(&eval(expr, columns, row)?).map(|b| !b)),
        E::IsNull(inner) => Value::Int(matches!(eval(inner, columns, row)?, Value::Null) as i64),
        E::IsNotNull(inner) => {
            Value::Int(!matches!(eval(inner, columns, row)?, Value::Null) as i64)
        }
        E::BinaryOp { left, op, right } => {
            let l = eval(left, columns, row)?;
            let r = eval(right, columns, row)?;
            use std::cmp::Ordering::*;
            match op {
                B::And => boolean(match (truth_of(&l), truth_of(&r)) {
                    (Some(false), _) | (_, Some(false)) => Some(false),
                    (Some(true), Some(true)) => Some(true),
                    _ => None,
                }),
                B::Or => boolean(match (truth_of(&l), truth_of(&r)) {
                    (Some(true), _) | (_, Some(true)) => Some(true),
                    (Some(false), Some(false)) => Some(false),
                    _ => None,
                }),
                B::Eq => boolean(compare(&l, &r).map(|o| o == Equal)),
                B::NotEq => boolean(compare(&l, &r).map(|o| o != Equal)),
                B::Lt => boolean(compare(&l, &r).map(|o| o == Less)),
                B::LtEq => boolean(compare(&l, &r).map(|o| o != Greater)),
                B::Gt => boolean(compare(&l, &r).map(|o| o == Greater)),
                B::GtEq => boolean(compare(&l, &r).map(|o| o != Less)),
                _ => return Err(refused()),
            }
        }
        E::InList {
            expr,
            list,
            negated,
        } => {
            let v = eval(expr, columns, row)?;
            let mut found = Some(false);
            for item in list {
                match compare(&v, &eval(item, columns, row)?) {
                    Some(std::cmp::Ordering::Equal) => {
                        found = Some(true);
                        break;
                    }
                    None => found = None,
                    Some(_) => {}
                }
            }
            boolean(found.map(|f| f != *negated))
        }
        E::Like {
            negated,
            expr,
            pattern,
            escape_char: None,
            any: false,
        } => {
            let v = eval(expr, columns, row)?;
            let p = eval(pattern, columns, row)?;
            if matches!(v, Value::Null) || matches!(p, Value::Null) {
                Value::Null
            } else {
                Value::Int((like_ci(&text(&v), &text(&p)) != *negated) as i64)
            }
        }
        _ => return Err(refused()),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kept(sql: &str) -> Result<Vec<String>> {
        let stmt = crate::parser::dialect::parse_sql(sql).unwrap().remove(0);
        let ast::Statement::ShowTables { show_options, .. } = stmt else {
            panic!("{sql}")
        };
        let rows = [("t1", "BASE TABLE"), ("T2", "VIEW"), ("x", "BASE TABLE")]
            .iter()
            .map(|(a, b)| vec![Value::str(a), Value::str(b)])
            .collect();
        let filter = options_filter(&show_options)?;
        Ok(filter_rows(filter, &["Tables_in_d", "Table_type"], rows)?
            .iter()
            .map(|r| text(&r[0]))
            .collect())
    }

    #[test]
    fn like_matches_the_first_column_and_where_any() {
        assert_eq!(kept("SHOW TABLES LIKE 't%'").unwrap(), ["t1", "T2"]);
        assert_eq!(
            kept("SHOW FULL TABLES WHERE Table_type = 'base table'").unwrap(),
            ["t1", "x"]
        );
        assert_eq!(
            kept("SHOW TABLES WHERE Tables_in_d IN ('x', 't2') AND NOT Table_type LIKE 'V%'")
                .unwrap(),
            ["x"]
        );
        assert_eq!(kept("SHOW TABLES").unwrap().len(), 3);
    }

    #[test]
    fn a_string_condition_is_true_by_its_numeric_prefix() {
        // As MariaDB: '1abc' and ' 2x' are true, 'abc' false.
        assert_eq!(kept("SHOW TABLES WHERE '1abc'").unwrap().len(), 3);
        assert_eq!(
            kept("SHOW TABLES WHERE ' 2x' AND Tables_in_d = 'x'").unwrap(),
            ["x"]
        );
        assert!(kept("SHOW TABLES WHERE 'abc'").unwrap().is_empty());
    }

    #[test]
    fn what_is_not_evaluated_is_refused() {
        assert_eq!(
            kept("SHOW TABLES WHERE Tables_in_d + 1 = 2")
                .unwrap_err()
                .code,
            1235
        );
        assert_eq!(kept("SHOW TABLES WHERE nope = 1").unwrap_err().code, 1054);
    }
}
