//! SET of session and global variables (and SET TRANSACTION, SET NAMES).
use crate::error::{Result, SqlError};
use crate::expr::{object_name, Env, Params};
use crate::result::Outcome;
use crate::session::Session;
use lineardb_table::Value;
use sqlparser::ast;

/// Most threads `lineardb_parallel_threads` accepts.
const MAX_PARALLEL_THREADS: u64 = 256;

/// MySQL's name for an isolation level given in any usual spelling.
fn isolation_name(v: &str) -> Option<&'static str> {
    match v.to_ascii_uppercase().replace([' ', '_'], "-").as_str() {
        "READ-UNCOMMITTED" => Some("READ-UNCOMMITTED"),
        "READ-COMMITTED" => Some("READ-COMMITTED"),
        "REPEATABLE-READ" => Some("REPEATABLE-READ"),
        "SERIALIZABLE" => Some("SERIALIZABLE"),
        _ => None,
    }
}

impl Session {
    pub(crate) fn set(
        &mut self,
        set: &ast::Set,
        params: &Params,
        args: &[Value],
    ) -> Result<Outcome> {
        let is_global = |scope: &Option<ast::ContextModifier>, name: &str| {
            matches!(scope, Some(ast::ContextModifier::Global))
                || name.to_ascii_lowercase().starts_with("@@global.")
                || name.to_ascii_lowercase().starts_with("global.")
        };
        let assignments: Vec<(String, &ast::Expr, bool)> = match set {
            ast::Set::SingleAssignment {
                variable,
                values,
                scope,
                ..
            } => {
                let name = object_name(variable).join(".");
                let global = is_global(scope, &name);
                values
                    .first()
                    .map(|v| vec![(name, v, global)])
                    .unwrap_or_default()
            }
            ast::Set::MultipleAssignments { assignments } => assignments
                .iter()
                .map(|a| {
                    let name = object_name(&a.name).join(".");
                    let global = is_global(&a.scope, &name);
                    (name, &a.value, global)
                })
                .collect(),
            ast::Set::SetNames { .. } | ast::Set::SetNamesDefault {} => {
                return Ok(Outcome::done(0))
            }
            ast::Set::SetTransaction { modes, .. } => {
                // Applies to the session (MySQL's unscoped form would
                // apply to the next transaction only).
                for m in modes {
                    if let ast::TransactionMode::AccessMode(ast::TransactionAccessMode::ReadOnly) =
                        m
                    {
                        return Err(SqlError::unsupported("SET TRANSACTION READ ONLY"));
                    }
                    if let ast::TransactionMode::IsolationLevel(l) = m {
                        use ast::TransactionIsolationLevel as L;
                        self.isolation = match l {
                            L::ReadUncommitted => "READ-UNCOMMITTED",
                            L::ReadCommitted => "READ-COMMITTED",
                            L::RepeatableRead => "REPEATABLE-READ",
                            L::Serializable | L::Snapshot => "SERIALIZABLE",
                        };
                    }
                }
                return Ok(Outcome::done(0));
            }
            other => return Err(SqlError::unsupported(other.to_string())),
        };
        // Plans kept by prepared statements read variables as constants.
        self.facts_changed();
        let mut assigned = Vec::new();
        for (name, value, global) in assignments {
            if let Some(user) = name.strip_prefix('@').filter(|n| !n.starts_with('@')) {
                let v = match value {
                    ast::Expr::Identifier(i) if !i.value.starts_with('@') => {
                        return Err(SqlError::new(
                            1054,
                            "42S22",
                            format!("Unknown column '{}' in 'SET'", i.value),
                        ));
                    }
                    e if super::dml_subqueries::has_subquery(e) => {
                        self.value_of_query(e, params, args)?
                    }
                    e => {
                        let x = self.compile_constant(e, params)?;
                        x.eval(&[][..], Env::new(args))?
                    }
                };
                // Every value is read before any is assigned, as in
                // MariaDB (`SET @a = 5, @b = @a` reads the old @a).
                assigned.push((user.to_ascii_lowercase(), v));
                continue;
            }
            let name = name
                .trim_start_matches("@@")
                .trim_start_matches("session.")
                .trim_start_matches("SESSION.")
                .trim_start_matches("global.")
                .trim_start_matches("GLOBAL.")
                .to_ascii_lowercase();
            // SET x = DEFAULT: the variable's own value again.
            if matches!(value, ast::Expr::Identifier(i) if i.value.eq_ignore_ascii_case("DEFAULT"))
                && !matches!(
                    name.as_str(),
                    "autocommit" | "transaction_isolation" | "tx_isolation"
                )
            {
                self.variables.remove(&name);
                continue;
            }
            // A bare identifier is a keyword value (SET sql_mode = ANSI, SET
            // autocommit = ON); `@name` and `@@name` are variables' values.
            let v = match value {
                ast::Expr::Identifier(i) if !i.value.starts_with('@') => Value::str(&i.value),
                e => {
                    let x = self.compile_constant(e, params)?;
                    x.eval(&[][..], Env::new(args))?
                }
            };
            if name == "autocommit" {
                let on = match &v {
                    Value::Bytes(b) => b.eq_ignore_ascii_case(b"on") || b == b"1",
                    other => crate::expr::truth_of(other) == Some(true),
                };
                if on && !self.autocommit {
                    // Turning autocommit on commits the open transaction.
                    self.end_transaction(true)?;
                }
                self.autocommit = on;
                continue;
            }
            if name == "transaction_isolation" || name == "tx_isolation" {
                let text = v.to_text().unwrap_or_default();
                self.isolation = isolation_name(&text).ok_or_else(|| {
                    SqlError::new(
                        1231,
                        "42000",
                        format!("Variable '{name}' can't be set to the value of '{text}'"),
                    )
                })?;
                continue;
            }
            let bad_value = |v: &Value| {
                SqlError::new(
                    1231,
                    "42000",
                    format!(
                        "Variable '{name}' can't be set to the value of '{}'",
                        v.to_text().unwrap_or_else(|| "NULL".into())
                    ),
                )
            };
            let whole = |v: &Value| match v {
                Value::Int(n) if *n >= 0 => Some(*n as u64),
                Value::UInt(n) => Some(*n),
                _ => None,
            };
            if name == "max_allowed_packet" || name == "max_connections" {
                if !global {
                    return Err(SqlError::new(
                        1621,
                        "HY000",
                        format!("SESSION variable '{name}' is read-only. Use SET GLOBAL to assign the value"),
                    ));
                }
                self.require_global(crate::privileges::bits::SUPER, "SUPER")?;
                let n = whole(&v).ok_or_else(|| bad_value(&v))?;
                if name == "max_allowed_packet" {
                    // MariaDB's range, in whole KiB.
                    self.registry
                        .set_max_allowed_packet(n.clamp(1024, 1 << 30) / 1024 * 1024);
                } else {
                    self.registry.set_max_connections(n.clamp(10, 100_000));
                }
                continue;
            }
            if name == "max_statement_time" {
                let secs = match &v {
                    Value::Int(n) if *n >= 0 => *n as f64,
                    Value::UInt(n) => *n as f64,
                    Value::Decimal(_) | Value::Double(_) => v
                        .as_f64()
                        .filter(|f| *f >= 0.0)
                        .ok_or_else(|| bad_value(&v))?,
                    _ => return Err(bad_value(&v)),
                };
                if global {
                    self.require_global(crate::privileges::bits::SUPER, "SUPER")?;
                    self.registry.set_max_statement_time(secs);
                } else {
                    self.max_statement_time = secs;
                }
                continue;
            }
            if name == "lineardb_query_memory" {
                self.query_memory = whole(&v)
                    .filter(|n| *n >= 1024)
                    .ok_or_else(|| bad_value(&v))? as usize;
                continue;
            }
            if name == "lineardb_parallel_threads" || name == "parallel_threads" {
                self.parallel_threads = whole(&v)
                    .filter(|n| (1..=MAX_PARALLEL_THREADS).contains(n))
                    .ok_or_else(|| bad_value(&v))? as usize;
                continue;
            }
            if name == "innodb_lock_wait_timeout" {
                // Global here (one lock table for all sessions).
                let secs = whole(&v)
                    .filter(|n| (1..=1_073_741_824).contains(n))
                    .ok_or_else(|| bad_value(&v))?;
                self.engine
                    .set_lock_wait_timeout(std::time::Duration::from_secs(secs));
                continue;
            }
            if name == "innodb_flush_log_at_trx_commit" {
                // A global setting: the log is shared by all sessions.
                self.require_global(crate::privileges::bits::SUPER, "SUPER")?;
                let level = whole(&v).ok_or_else(|| bad_value(&v))?;
                if !self.engine.set_flush_log_at_trx_commit(level) {
                    return Err(bad_value(&v));
                }
                continue;
            }
            if name == "lineardb_instrumentation" {
                // Global: wait and restart recording of the whole server.
                self.require_global(crate::privileges::bits::SUPER, "SUPER")?;
                let on = match &v {
                    Value::Bytes(b) if b.eq_ignore_ascii_case(b"on") => Some(true),
                    Value::Bytes(b) if b.eq_ignore_ascii_case(b"off") => Some(false),
                    Value::Int(0) => Some(false),
                    Value::Int(1) => Some(true),
                    _ => None,
                };
                lineardb_sync::wait::set_enabled(on.ok_or_else(|| bad_value(&v))?);
                continue;
            }
            if name == "group_concat_max_len" {
                // MariaDB's range: below 4 is 4, with a warning.
                let n = whole(&v).ok_or_else(|| bad_value(&v))?;
                if n < 4 {
                    self.warnings.push((
                        1292,
                        format!("Truncated incorrect group_concat_max_len value: '{n}'"),
                    ));
                }
                self.variables
                    .insert(name, Value::UInt(n.clamp(4, u64::from(u32::MAX))));
                continue;
            }
            if name == "sql_mode" {
                let text = match &v {
                    Value::Int(0) | Value::UInt(0) => String::new(),
                    Value::Bytes(_) => v.to_text().unwrap_or_default(),
                    _ => return Err(bad_value(&v)),
                };
                let mode = crate::statements::lenient::normalize_sql_mode(&text)?;
                self.variables.insert(name, Value::str(&mode));
                continue;
            }
            if let Some((_, default)) = crate::session::UNFOLLOWED.iter().find(|(n, _)| *n == name)
            {
                // A switch's value may be written ON or OFF.
                let v = match &v {
                    Value::Bytes(b) if b.eq_ignore_ascii_case(b"on") => Value::Int(1),
                    Value::Bytes(b) if b.eq_ignore_ascii_case(b"off") => Value::Int(0),
                    v => v.clone(),
                };
                let same = match (default.value(), &v) {
                    (d, Value::Bytes(b)) => d.to_text().is_some_and(|t| t.as_bytes() == &b[..]),
                    (d, v) => d.sql_cmp(v) == Some(std::cmp::Ordering::Equal),
                };
                if !same {
                    return Err(SqlError::unsupported(format!(
                        "{name} = {}",
                        v.to_text().unwrap_or_else(|| "NULL".into())
                    )));
                }
                continue;
            }
            if name == "lineardb_parallel_min_rows" {
                self.parallel_min_rows = whole(&v).ok_or_else(|| bad_value(&v))?;
                continue;
            }
            if self.variable(&name).is_none() {
                self.warnings.push((
                    1193,
                    format!("Unknown system variable '{name}' (stored, no effect)"),
                ));
            }
            self.variables.insert(name, v);
        }
        self.facts.user_variables.extend(assigned);
        Ok(Outcome::done(0))
    }
}

impl Session {
    /// The value of an expression holding a subquery (`SET @v = (SELECT
    /// ...)`), run as `SELECT expr`.
    fn value_of_query(&mut self, e: &ast::Expr, params: &Params, args: &[Value]) -> Result<Value> {
        let mut stmts = crate::parser::dialect::parse_sql("SELECT 1")?;
        let Some(ast::Statement::Query(mut q)) = stmts.pop() else {
            return Err(SqlError::internal("SELECT did not parse"));
        };
        if let ast::SetExpr::Select(s) = q.body.as_mut() {
            s.projection = vec![ast::SelectItem::UnnamedExpr(e.clone())];
        }
        let mut sink = crate::result::CollectSink::default();
        self.select(&q, params, args, &mut sink)?;
        Ok(sink
            .rows
            .pop()
            .and_then(|mut r| r.pop())
            .unwrap_or(Value::Null))
    }
}
