//! Row constructors compared: `(a, b) = (c, d)`, `<>`, `<`, `<=`, `>`,
//! `>=`, `<=>`, and `(a, b) [NOT] IN ((c, d), …)`, written `(…)` or
//! `ROW(…)`, nested rows included. Each is rewritten into comparisons of
//! the rows' elements before it is compiled, with MariaDB's answers
//! (`Arg_comparator::compare_row`):
//!
//! - `=` is every element equal: an explicit difference anywhere is 0,
//!   else a NULL element makes it NULL (the three-valued AND of the
//!   element comparisons); `<>` is its negation, `<=>` the AND of `<=>`s;
//! - `<`, `<=`, `>`, `>=` compare element by element up to the first that
//!   differs, and are NULL when a NULL comes first
//!   (`a1 < b1 OR (a1 = b1 AND (a2 < b2 OR …))`, the last element with the
//!   operator itself);
//! - IN is an OR of row equalities, so a row matched by none with a NULL
//!   comparison among them is NULL, as in MariaDB (with each element IN
//!   its column of the list beside it, which changes no answer and gives
//!   the rows' keys to the access planner).
//!
//! Rows of different sizes are 1241; a row beside a single value is 4078.
use crate::error::{Result, SqlError};
use sqlparser::ast::{self, BinaryOperator as B};

/// The elements of `e` if it is a row constructor: `(a, b, …)` or
/// `ROW(a, b, …)`.
pub(super) fn row_elements(e: &ast::Expr) -> Option<Vec<&ast::Expr>> {
    match e {
        ast::Expr::Tuple(items) => Some(items.iter().collect()),
        ast::Expr::Nested(inner) => row_elements(inner),
        ast::Expr::Function(f) if f.name.to_string().eq_ignore_ascii_case("ROW") => {
            let ast::FunctionArguments::List(list) = &f.args else {
                return None;
            };
            if list.duplicate_treatment.is_some() || !list.clauses.is_empty() {
                return None;
            }
            list.args
                .iter()
                .map(|a| match a {
                    ast::FunctionArg::Unnamed(ast::FunctionArgExpr::Expr(x)) => Some(x),
                    _ => None,
                })
                .collect()
        }
        _ => None,
    }
}

/// Error 1241: a row where `n` columns are wanted.
pub(super) fn operand_columns(n: usize) -> SqlError {
    SqlError::new(
        1241,
        "21000",
        format!("Operand should contain {n} column(s)"),
    )
}

/// Error 4078: a row beside a single value of type `scalar`.
fn row_beside_scalar(row_first: bool, scalar: &str, operation: &str) -> SqlError {
    let (l, r) = if row_first {
        ("row", scalar)
    } else {
        (scalar, "row")
    };
    SqlError::new(
        4078,
        "HY000",
        format!("Illegal parameter data types {l} and {r} for operation '{operation}'"),
    )
}

fn binary(left: &ast::Expr, op: B, right: &ast::Expr) -> ast::Expr {
    ast::Expr::BinaryOp {
        left: Box::new(left.clone()),
        op,
        right: Box::new(right.clone()),
    }
}

fn joined(op: B, mut parts: Vec<ast::Expr>) -> ast::Expr {
    let last = parts.pop().expect("a row has an element");
    parts
        .into_iter()
        .rev()
        .fold(last, |acc, p| ast::Expr::BinaryOp {
            left: Box::new(ast::Expr::Nested(Box::new(p))),
            op: op.clone(),
            right: Box::new(ast::Expr::Nested(Box::new(acc))),
        })
}

fn not(e: ast::Expr) -> ast::Expr {
    ast::Expr::UnaryOp {
        op: ast::UnaryOperator::Not,
        expr: Box::new(ast::Expr::Nested(Box::new(e))),
    }
}

/// `left op right` as comparisons of elements when either side is a row
/// (`None` when neither is). `scalar_type` names a single value's type for
/// error 4078.
pub(super) fn comparison(
    left: &ast::Expr,
    op: &B,
    right: &ast::Expr,
    scalar_type: &mut dyn FnMut(&ast::Expr) -> Result<String>,
) -> Result<Option<ast::Expr>> {
    let operation = match op {
        B::Eq => "=",
        B::NotEq => "<>",
        B::Lt => "<",
        B::LtEq => "<=",
        B::Gt => ">",
        B::GtEq => ">=",
        B::Spaceship => "<=>",
        _ => return Ok(None),
    };
    let (l, r) = match (row_elements(left), row_elements(right)) {
        (None, None) => return Ok(None),
        (Some(_), None) => return Err(row_beside_scalar(true, &scalar_type(right)?, operation)),
        (None, Some(_)) => return Err(row_beside_scalar(false, &scalar_type(left)?, operation)),
        (Some(l), Some(r)) => (l, r),
    };
    if l.len() != r.len() {
        return Err(operand_columns(l.len()));
    }
    let pairs = l.iter().zip(&r);
    Ok(Some(match op {
        B::Eq | B::Spaceship => joined(
            B::And,
            pairs.map(|(a, b)| binary(a, op.clone(), b)).collect(),
        ),
        B::NotEq => not(joined(
            B::And,
            pairs.map(|(a, b)| binary(a, B::Eq, b)).collect(),
        )),
        _ => {
            let strict = match op {
                B::Lt | B::LtEq => B::Lt,
                _ => B::Gt,
            };
            let n = l.len();
            let mut acc = binary(l[n - 1], op.clone(), r[n - 1]);
            for i in (0..n - 1).rev() {
                let equal_then = ast::Expr::BinaryOp {
                    left: Box::new(binary(l[i], B::Eq, r[i])),
                    op: B::And,
                    right: Box::new(ast::Expr::Nested(Box::new(acc))),
                };
                acc = ast::Expr::BinaryOp {
                    left: Box::new(binary(l[i], strict.clone(), r[i])),
                    op: B::Or,
                    right: Box::new(ast::Expr::Nested(Box::new(equal_then))),
                };
            }
            acc
        }
    }))
}

/// `expr [NOT] IN (list)` as an OR of row equalities when `expr` or an
/// item of the list is a row (`None` when none is).
pub(super) fn in_list(
    expr: &ast::Expr,
    list: &[ast::Expr],
    negated: bool,
    scalar_type: &mut dyn FnMut(&ast::Expr) -> Result<String>,
) -> Result<Option<ast::Expr>> {
    let Some(row) = row_elements(expr) else {
        return match list.iter().any(|i| row_elements(i).is_some()) {
            true => Err(row_beside_scalar(false, &scalar_type(expr)?, "in")),
            false => Ok(None),
        };
    };
    let mut tests = Vec::with_capacity(list.len());
    let mut columns: Vec<Vec<ast::Expr>> = vec![Vec::with_capacity(list.len()); row.len()];
    for item in list {
        match row_elements(item) {
            None => return Err(row_beside_scalar(true, &scalar_type(item)?, "in")),
            Some(i) if i.len() != row.len() => return Err(operand_columns(row.len())),
            Some(i) => {
                tests.push(binary(expr, B::Eq, item));
                for (column, x) in columns.iter_mut().zip(i) {
                    column.push(x.clone());
                }
            }
        }
    }
    let any = joined(B::Or, tests);
    if negated {
        return Ok(Some(not(any)));
    }
    if list.len() == 1 {
        return Ok(Some(any));
    }
    // Each element IN its column of the list, ANDed before the rows'
    // OR: implied by it (TRUE or NULL wherever the OR is), so the answer
    // is the same, and it gives the access planner key ranges.
    let mut parts: Vec<ast::Expr> = row
        .iter()
        .zip(columns)
        .map(|(x, column)| ast::Expr::InList {
            expr: Box::new((*x).clone()),
            list: column,
            negated: false,
        })
        .collect();
    parts.push(any);
    Ok(Some(joined(B::And, parts)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(sql: &str) -> ast::Expr {
        match crate::parser::dialect::parse_sql(&format!("SELECT {sql}"))
            .unwrap()
            .pop()
            .unwrap()
        {
            ast::Statement::Query(q) => match *q.body {
                ast::SetExpr::Select(s) => match &s.projection[0] {
                    ast::SelectItem::UnnamedExpr(e) => e.clone(),
                    other => panic!("{other:?}"),
                },
                other => panic!("{other:?}"),
            },
            other => panic!("{other:?}"),
        }
    }

    fn expanded(sql: &str) -> Result<Option<String>> {
        let e = parse(sql);
        let mut ty = |_: &ast::Expr| Ok("int".to_string());
        Ok(match &e {
            ast::Expr::BinaryOp { left, op, right } => comparison(left, op, right, &mut ty)?,
            ast::Expr::InList {
                expr,
                list,
                negated,
            } => in_list(expr, list, *negated, &mut ty)?,
            _ => None,
        }
        .map(|e| e.to_string()))
    }

    #[test]
    fn rows_become_comparisons_of_their_elements() {
        assert_eq!(
            expanded("(a, b) = (1, 2)").unwrap().unwrap(),
            "(a = 1) AND (b = 2)"
        );
        assert_eq!(
            expanded("(a, b) < ROW(1, 2)").unwrap().unwrap(),
            "a < 1 OR (a = 1 AND (b < 2))"
        );
        assert_eq!(
            expanded("(a, b) IN ((1, 2), (3, 4))").unwrap().unwrap(),
            "(a IN (1, 3)) AND ((b IN (2, 4)) AND (((a, b) = (1, 2)) OR ((a, b) = (3, 4))))"
        );
        assert_eq!(
            expanded("(a, b) NOT IN ((1, 2), (3, 4))").unwrap().unwrap(),
            "NOT (((a, b) = (1, 2)) OR ((a, b) = (3, 4)))"
        );
        assert_eq!(expanded("a = 1").unwrap(), None);
    }

    #[test]
    fn mismatched_rows_are_mariadb_errors() {
        assert_eq!(expanded("(1, 2) = (1, 2, 3)").unwrap_err().code, 1241);
        assert_eq!(expanded("(1, 2) = 1").unwrap_err().code, 4078);
        assert_eq!(expanded("1 IN ((1, 2), 1)").unwrap_err().code, 4078);
        assert_eq!(expanded("(1, 2) IN ((1, 2), (1))").unwrap_err().code, 4078);
    }
}
