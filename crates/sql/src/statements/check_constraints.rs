//! CHECK constraints as MariaDB keeps them: a column's CHECK (named for
//! the column, shown with it; its error names `table.column`) and the
//! table's (`CONSTRAINT name CHECK (…)`, unnamed ones `CONSTRAINT_<n>`).
//! A row that makes a condition false is refused (4025); NULL passes.
//! Conditions may not hold subqueries (1970) or functions whose value
//! changes between calls (1901), and name only the table's columns
//! (1054). The text is kept as MariaDB prints it: identifiers quoted,
//! keywords and function names in lower case.
use crate::error::{Result, SqlError};
use crate::expr::{Env, Expr};
use crate::session::Session;
use lineardb_table::{CheckDef, TableDef, Value};
use sqlparser::ast;

/// A CHECK as written.
pub(crate) struct CheckSpec {
    pub name: Option<String>,
    /// For a column's CHECK, the column's name.
    pub column: Option<String>,
    pub condition: ast::Expr,
}

impl CheckSpec {
    /// A table's `[CONSTRAINT name] CHECK (…)`; `NOT ENFORCED` (which
    /// MariaDB does not take) is refused rather than enforced.
    pub fn of_table(c: &ast::CheckConstraint) -> Result<CheckSpec> {
        enforced(c)?;
        Ok(CheckSpec {
            name: c.name.as_ref().map(|n| n.value.clone()),
            column: None,
            condition: c.expr.as_ref().clone(),
        })
    }

    /// A column's CHECK conditions.
    pub fn of_column(column: &str, conditions: &[ast::Expr]) -> Vec<CheckSpec> {
        conditions
            .iter()
            .map(|condition| CheckSpec {
                name: None,
                column: Some(column.to_string()),
                condition: condition.clone(),
            })
            .collect()
    }
}

/// Refuses a CHECK's clauses that are not kept (`NOT ENFORCED`,
/// `NO INHERIT`).
pub(crate) fn enforced(c: &ast::CheckConstraint) -> Result<()> {
    if c.enforced == Some(false) || c.no_inherit {
        return Err(SqlError::unsupported(format!(
            "CHECK … {}",
            if c.no_inherit {
                "NO INHERIT"
            } else {
                "NOT ENFORCED"
            }
        )));
    }
    Ok(())
}

/// A table's conditions compiled for a statement: (the name its error
/// shows, the condition).
pub(crate) type CompiledChecks = Vec<(String, Expr)>;

impl Session {
    /// The definitions of `specs` for the table `def` (whose columns are
    /// final), after its own checks.
    pub(crate) fn check_defs(
        &self,
        def: &TableDef,
        specs: Vec<CheckSpec>,
    ) -> Result<Vec<CheckDef>> {
        let mut checks = def.checks.clone();
        for spec in specs {
            let label = spec
                .column
                .clone()
                .or(spec.name.clone())
                .unwrap_or_default();
            refuse_what_checks_cannot_hold(&spec.condition, &label)?;
            // Compiled once to find unknown columns.
            let scope = crate::names::scope_of_def(def, &def.name);
            self.with_compiler(&scope, &Default::default(), |c| c.compile(&spec.condition))
                .map_err(|e| match e.code {
                    1054 => SqlError::new(
                        1054,
                        "42S22",
                        e.message.replace("in 'field list'", "in 'CHECK'"),
                    ),
                    _ => e,
                })?;
            let column = match &spec.column {
                Some(c) => Some(def.column_index(c)?),
                None => None,
            };
            let name = match (spec.name, &spec.column) {
                (Some(n), _) => n,
                (None, Some(c)) => c.clone(),
                (None, None) => {
                    let mut k = 1;
                    while checks.iter().any(|c| c.name == format!("CONSTRAINT_{k}")) {
                        k += 1;
                    }
                    format!("CONSTRAINT_{k}")
                }
            };
            if column.is_none()
                && checks
                    .iter()
                    .any(|c| c.column.is_none() && c.name.eq_ignore_ascii_case(&name))
            {
                return Err(SqlError::new(
                    1826,
                    "HY000",
                    format!("Duplicate CHECK constraint name '{name}'"),
                ));
            }
            checks.push(CheckDef {
                name,
                column,
                condition: text(&spec.condition),
            });
        }
        // The columns' checks first, in column order, as MariaDB lists them.
        checks.sort_by_key(|c| c.column.map_or(usize::MAX, |i| i));
        Ok(checks)
    }

    /// `def`'s checks compiled over its columns (empty when it has none or
    /// `check_constraint_checks` is off).
    pub(crate) fn compiled_checks(&self, def: &TableDef) -> Result<CompiledChecks> {
        if def.checks.is_empty() || !self.check_constraint_checks() {
            return Ok(Vec::new());
        }
        let scope = crate::names::scope_of_def(def, &def.name);
        def.checks
            .iter()
            .map(|c| {
                let condition = parse(&c.condition)?;
                let e =
                    self.with_compiler(&scope, &Default::default(), |k| k.compile(&condition))?;
                let label = match c.column {
                    Some(_) => format!("{}.{}", def.name, c.name),
                    None => c.name.clone(),
                };
                Ok((label, e))
            })
            .collect()
    }

    fn check_constraint_checks(&self) -> bool {
        !matches!(
            self.variable("check_constraint_checks"),
            Some(Value::Int(0) | Value::UInt(0))
        ) && !matches!(self.variable("check_constraint_checks"), Some(Value::Bytes(b)) if b.eq_ignore_ascii_case(b"off"))
    }
}

/// Refuses `row` of `def` if it makes one of `checks` false (4025).
pub(crate) fn enforce(checks: &CompiledChecks, def: &TableDef, row: &[Value]) -> Result<()> {
    for (label, condition) in checks {
        let v = condition.eval(row, Env::new(&[]))?;
        if crate::expr::truth_of(&v) == Some(false) {
            return Err(SqlError::new(
                4025,
                "23000",
                format!(
                    "CONSTRAINT `{label}` failed for `{}`.`{}`",
                    def.database, def.name
                ),
            ));
        }
    }
    Ok(())
}

/// A stored condition parsed again.
fn parse(text: &str) -> Result<ast::Expr> {
    Ok(crate::parser::dialect::parser(text)?.parse_expr()?)
}

/// MariaDB's 1970 (subqueries) and 1901 (functions whose value changes).
fn refuse_what_checks_cannot_hold(e: &ast::Expr, label: &str) -> Result<()> {
    use std::ops::ControlFlow;
    const CHANGING: &[&str] = &[
        "RAND",
        "NOW",
        "CURRENT_TIMESTAMP",
        "SYSDATE",
        "CURDATE",
        "CURRENT_DATE",
        "CURTIME",
        "CURRENT_TIME",
        "UUID",
        "UUID_SHORT",
        "CONNECTION_ID",
        "USER",
        "CURRENT_USER",
        "DATABASE",
        "LAST_INSERT_ID",
        "UNIX_TIMESTAMP",
        "UTC_TIMESTAMP",
        "UTC_DATE",
        "UTC_TIME",
        "LOCALTIME",
        "LOCALTIMESTAMP",
        "RANDOM_BYTES",
        "FOUND_ROWS",
        "ROW_COUNT",
    ];
    let mut found: Option<SqlError> = None;
    let _ = ast::visit_expressions(e, |x| {
        match x {
            ast::Expr::Subquery(_) | ast::Expr::Exists { .. } | ast::Expr::InSubquery { .. } => {
                found = Some(SqlError::new(
                    1970,
                    "HY000",
                    "CHECK does not support subqueries or stored functions",
                ));
                return ControlFlow::Break(());
            }
            ast::Expr::Function(f) => {
                let name = f.name.to_string().to_ascii_uppercase();
                if CHANGING.contains(&name.as_str()) {
                    found = Some(SqlError::new(
                        1901,
                        "HY000",
                        format!(
                            "Function or expression '{}()' cannot be used in the CHECK clause of `{label}`",
                            name.to_ascii_lowercase()
                        ),
                    ));
                    return ControlFlow::Break(());
                }
            }
            _ => {}
        }
        ControlFlow::Continue(())
    });
    match found {
        Some(e) => Err(e),
        None => Ok(()),
    }
}

/// A condition as MariaDB prints it (the forms conditions use; others as
/// the parser prints them).
pub(crate) fn text(e: &ast::Expr) -> String {
    use ast::Expr as E;
    match e {
        E::Identifier(i) => format!("`{}`", i.value),
        E::CompoundIdentifier(parts) => {
            format!("`{}`", parts.last().map_or("", |p| p.value.as_str()))
        }
        E::Value(v) => match &v.value {
            ast::Value::SingleQuotedString(s) | ast::Value::DoubleQuotedString(s) => {
                format!("'{}'", s.replace('\\', "\\\\").replace('\'', "\\'"))
            }
            ast::Value::Null => "NULL".into(),
            ast::Value::Boolean(b) => (if *b { "1" } else { "0" }).into(),
            other => other.to_string(),
        },
        E::Nested(inner) => format!("({})", text(inner)),
        E::BinaryOp { left, op, right } => {
            let op = match op {
                ast::BinaryOperator::And => "and".to_string(),
                ast::BinaryOperator::Or => "or".to_string(),
                ast::BinaryOperator::Xor => "xor".to_string(),
                other => other.to_string().to_ascii_lowercase(),
            };
            format!("{} {op} {}", text(left), text(right))
        }
        E::UnaryOp { op, expr } => match op {
            ast::UnaryOperator::Not => format!("!{}", text(expr)),
            ast::UnaryOperator::Minus => format!("-{}", text(expr)),
            other => format!("{other}{}", text(expr)),
        },
        E::IsNull(x) => format!("{} is null", text(x)),
        E::IsNotNull(x) => format!("{} is not null", text(x)),
        E::Between {
            expr,
            negated,
            low,
            high,
        } => format!(
            "{} {}between {} and {}",
            text(expr),
            if *negated { "not " } else { "" },
            text(low),
            text(high)
        ),
        E::InList {
            expr,
            list,
            negated,
        } => format!(
            "{} {}in ({})",
            text(expr),
            if *negated { "not " } else { "" },
            list.iter().map(text).collect::<Vec<_>>().join(",")
        ),
        E::Like {
            negated,
            expr,
            pattern,
            escape_char: None,
            ..
        } => format!(
            "{} {}like {}",
            text(expr),
            if *negated { "not " } else { "" },
            text(pattern)
        ),
        E::Function(f) => match &f.args {
            ast::FunctionArguments::List(list)
                if list.duplicate_treatment.is_none() && list.clauses.is_empty() =>
            {
                let args: Vec<String> = list
                    .args
                    .iter()
                    .map(|a| match a {
                        ast::FunctionArg::Unnamed(ast::FunctionArgExpr::Expr(x)) => text(x),
                        other => other.to_string(),
                    })
                    .collect();
                format!(
                    "{}({})",
                    f.name.to_string().to_ascii_lowercase(),
                    args.join(",")
                )
            }
            _ => e.to_string(),
        },
        other => other.to_string(),
    }
}

/// A column's CHECK as SHOW CREATE TABLE prints it after the column.
pub(crate) fn shown_with_column(def: &TableDef, column: usize) -> Option<String> {
    def.checks
        .iter()
        .find(|c| c.column == Some(column))
        .map(|c| format!(" CHECK ({})", c.condition))
}

/// The table's CHECK lines of SHOW CREATE TABLE.
pub(crate) fn shown(def: &TableDef) -> Vec<String> {
    def.checks
        .iter()
        .filter(|c| c.column.is_none())
        .map(|c| format!("  CONSTRAINT `{}` CHECK ({})", c.name, c.condition))
        .collect()
}
