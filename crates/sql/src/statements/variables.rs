//! SET of session and global variables (and SET TRANSACTION, SET NAMES).
use crate::catalog::system_variables::{
    self, isolation_name, not_allowed, wrong_type, Scope, Treatment,
};
use crate::error::{Result, SqlError};
use crate::expr::{object_name, Env, Params};
use crate::result::Outcome;
use crate::session::Session;
use lineardb_table::Value;
use sqlparser::ast;

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
            // The connection stays in utf8mb4: its aliases (and binary,
            // which asks for no conversion) are taken; another character
            // set or collation would change what is sent and compared.
            ast::Set::SetNames {
                charset_name,
                collation_name,
            } => {
                let charset = charset_name.value.to_ascii_lowercase();
                let collation = collation_name.as_deref().map(str::to_ascii_lowercase);
                let utf8 = matches!(charset.as_str(), "utf8mb4" | "utf8" | "utf8mb3" | "binary");
                let compared = match collation.as_deref() {
                    None => Some(lineardb_table::Collation::default()),
                    Some(c) => connection_collation(c),
                };
                let Some(compared) = compared.filter(|_| utf8) else {
                    return Err(SqlError::unsupported(format!(
                        "SET NAMES {}{}",
                        charset_name.value,
                        collation_name
                            .as_deref()
                            .map(|c| format!(" COLLATE {c}"))
                            .unwrap_or_default()
                    )));
                };
                // What the connection's variables then say, as MariaDB's.
                let shown = match charset.as_str() {
                    "utf8" | "utf8mb3" => "utf8mb3",
                    other => other,
                };
                for name in [
                    "character_set_client",
                    "character_set_connection",
                    "character_set_results",
                ] {
                    self.variables.insert(name.to_string(), Value::str(shown));
                    self.note_variable_set(name, shown.to_string());
                }
                // COLLATE names the connection's collation; without it, the
                // character set's default. (binary asks for no conversion:
                // literals stay utf8mb4's.)
                if charset != "binary" {
                    let collation_name = match (charset.as_str(), collation.as_deref()) {
                        (_, Some(c)) => c.to_string(),
                        ("utf8" | "utf8mb3", None) => "utf8mb3_general_ci".to_string(),
                        (_, None) => compared.name().to_string(),
                    };
                    self.variables.insert(
                        "collation_connection".to_string(),
                        Value::str(&collation_name),
                    );
                    self.facts.connection_collation = compared;
                }
                self.facts_changed();
                return Ok(Outcome::done(0));
            }
            ast::Set::SetNamesDefault {} => return Ok(Outcome::done(0)),
            ast::Set::SetTransaction { modes, session, .. } => {
                // SESSION: the session's level; without it, the next
                // transaction's, not while one is open (MariaDB's 1568).
                if !session && (self.explicit || self.txn.is_some()) {
                    return Err(SqlError::new(
                        1568,
                        "25001",
                        "Transaction characteristics can't be changed while a transaction is in progress",
                    ));
                }
                for m in modes {
                    if let ast::TransactionMode::AccessMode(ast::TransactionAccessMode::ReadOnly) =
                        m
                    {
                        return Err(SqlError::unsupported("SET TRANSACTION READ ONLY"));
                    }
                    if let ast::TransactionMode::IsolationLevel(l) = m {
                        use ast::TransactionIsolationLevel as L;
                        let level = match l {
                            L::ReadUncommitted => "READ-UNCOMMITTED",
                            L::ReadCommitted => "READ-COMMITTED",
                            L::RepeatableRead => "REPEATABLE-READ",
                            L::Serializable | L::Snapshot => "SERIALIZABLE",
                        };
                        if *session {
                            self.isolation = level;
                        } else {
                            self.next_isolation = Some(level);
                        }
                    }
                }
                return Ok(Outcome::done(0));
            }
            other => return Err(SqlError::unsupported(other.to_string())),
        };
        // Plans kept by prepared statements read variables as constants.
        self.facts_changed();
        let mut assigned = Vec::new();
        // Session variables set, reported once all are (the tracked list
        // may be among them).
        let mut noted = Vec::new();
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
            let written = name.trim_start_matches("@@");
            let (global, name) = match written.split_once('.') {
                Some((scope, n)) if scope.eq_ignore_ascii_case("global") => (true, n),
                Some((scope, n))
                    if scope.eq_ignore_ascii_case("session")
                        || scope.eq_ignore_ascii_case("local") =>
                {
                    (false, n)
                }
                _ => (global, written),
            };
            let name = name.to_ascii_lowercase();
            let def = system_variables::definition(&name)
                .ok_or_else(|| system_variables::unknown(&name))?;
            if def.read_only {
                return Err(SqlError::new(
                    1238,
                    "HY000",
                    format!("Variable '{name}' is a read only variable"),
                ));
            }
            match (global, def.scope) {
                (true, Scope::Session) => {
                    return Err(SqlError::new(
                        1228,
                        "HY000",
                        format!(
                        "Variable '{name}' is a SESSION variable and can't be used with SET GLOBAL"
                    ),
                    ))
                }
                (false, Scope::Global) => {
                    return Err(SqlError::new(
                        1229,
                        "HY000",
                        format!(
                        "Variable '{name}' is a GLOBAL variable and should be set with SET GLOBAL"
                    ),
                    ))
                }
                _ => {}
            }
            if global {
                self.require_global(crate::privileges::bits::SUPER, "SUPER")?;
            }
            // SET x = DEFAULT: a session's variable takes the server's
            // value, the server's its compiled-in default.
            let v = if matches!(value, ast::Expr::Identifier(i) if i.value.eq_ignore_ascii_case("DEFAULT"))
            {
                if global || def.scope == Scope::Global {
                    def.default_value()
                } else {
                    self.global_value(def)
                }
            } else {
                // A bare identifier is a keyword value (SET sql_mode =
                // ANSI, SET autocommit = ON); `@name` and `@@name` are
                // variables' values.
                match value {
                    ast::Expr::Identifier(i) if !i.value.starts_with('@') => Value::str(&i.value),
                    e => {
                        let x = self.compile_constant(e, params)?;
                        x.eval(&[][..], Env::new(args))?
                    }
                }
            };
            let v = if name == "sql_mode" {
                // Named combinations (ANSI, TRADITIONAL) expand.
                let text = match &v {
                    Value::Int(0) | Value::UInt(0) => String::new(),
                    Value::Bytes(_) => v.to_text().unwrap_or_default(),
                    Value::Int(_) | Value::UInt(_) => def
                        .checked(&v, &Value::Null, &mut self.warnings)?
                        .to_text()
                        .unwrap_or_default(),
                    Value::Null => return Err(not_allowed(&name, "NULL")),
                    _ => return Err(wrong_type(&name)),
                };
                Value::str(&crate::statements::lenient::normalize_sql_mode(&text)?)
            } else {
                let current = if global {
                    self.global_value(def)
                } else {
                    self.variable(&name).unwrap_or(Value::Null)
                };
                def.checked(&v, &current, &mut self.warnings)?
            };
            if !global {
                noted.push((name.clone(), def.shown(&v)));
            }
            match system_variables::treatment(&name) {
                Treatment::Unfollowed if v != def.default_value() => {
                    return Err(SqlError::unsupported(format!("{name} = {}", def.shown(&v))));
                }
                // Kept where it lives (or refused) by `follow`.
                Treatment::Followed if self.follow(&name, &v, global)? => continue,
                _ => {}
            }
            if global {
                self.registry.set_global_variable(&name, v);
            } else {
                self.variables.insert(name, v);
            }
        }
        if !assigned.is_empty() {
            self.facts.user_variables.extend(assigned);
            self.slot.show_user_variables(&self.facts.user_variables);
        }
        for (name, shown) in noted {
            self.note_variable_set(&name, shown);
        }
        Ok(Outcome::done(0))
    }
}

impl Session {
    /// Puts `value` (checked) where a followed variable lives when it has
    /// a place of its own, or refuses a value lineardb cannot follow;
    /// `false` when the variable is kept as any other.
    pub(crate) fn follow(&mut self, name: &str, value: &Value, global: bool) -> Result<bool> {
        let whole = || match value {
            Value::Int(n) => *n as u64,
            Value::UInt(n) => *n,
            _ => 0,
        };
        match name {
            "autocommit" if !global => {
                let on = *value == Value::Int(1);
                if on && !self.autocommit {
                    // Turning autocommit on commits the open transaction.
                    self.end_transaction(true)?;
                }
                self.autocommit = on;
            }
            "transaction_isolation" | "tx_isolation" if !global => {
                let text = value.to_text().unwrap_or_default();
                self.isolation = isolation_name(&text).ok_or_else(|| not_allowed(name, &text))?;
            }
            "max_allowed_packet" if !global => {
                return Err(SqlError::new(
                    1621,
                    "HY000",
                    format!("SESSION variable '{name}' is read-only. Use SET GLOBAL to assign the value"),
                ));
            }
            // MariaDB's range, in whole KiB.
            "max_allowed_packet" => self.registry.set_max_allowed_packet(whole() / 1024 * 1024),
            "max_connections" => self.registry.set_max_connections(whole()),
            "max_statement_time" => {
                let secs = value.as_f64().unwrap_or(0.0);
                if global {
                    self.registry.set_max_statement_time(secs);
                } else {
                    self.max_statement_time = secs;
                }
            }
            // Kept as any other too (what @@sql_select_limit shows).
            "sql_select_limit" if !global => {
                self.select_limit = (whole() != u64::MAX).then(whole);
                return Ok(false);
            }
            "lineardb_query_memory" if !global => self.query_memory = whole() as usize,
            "lineardb_parallel_threads" if !global => self.parallel_threads = whole() as usize,
            "lineardb_parallel_min_rows" if !global => self.parallel_min_rows = whole(),
            // Global here: one lock table and one log for all sessions.
            "innodb_lock_wait_timeout" => self
                .engine
                .set_lock_wait_timeout(std::time::Duration::from_secs(whole().max(1))),
            "innodb_flush_log_at_trx_commit" => {
                if !self.engine.set_flush_log_at_trx_commit(whole()) {
                    return Err(not_allowed(name, &whole().to_string()));
                }
            }
            "lineardb_instrumentation" => lineardb_sync::wait::set_enabled(*value == Value::Int(1)),
            "time_zone" => {
                let text = value.to_text().unwrap_or_default();
                let (shown, zone) = crate::expr::clock::time_zone(&text)?;
                if global {
                    self.registry.set_global_variable(name, Value::str(&shown));
                } else {
                    self.variables.insert(name.to_string(), Value::str(&shown));
                    if self.facts.time_zone != zone {
                        self.facts.time_zone = zone;
                        self.facts_changed();
                    }
                }
            }
            // String literals are in the connection's collation: one of
            // utf8mb4's (the connection's character set stays utf8mb4).
            "collation_connection" => {
                let text = value.to_text().unwrap_or_default().to_ascii_lowercase();
                let Some(collation) = connection_collation(&text) else {
                    return Err(SqlError::unsupported(format!("{name} = {text}")));
                };
                if !global {
                    self.facts.connection_collation = collation;
                    self.facts_changed();
                }
                return Ok(false);
            }
            // What LOAD DATA reads a file's text as (dump and import tools
            // set binary): its bytes as they are either way.
            "character_set_database" => {
                let text = value.to_text().unwrap_or_default().to_ascii_lowercase();
                if !matches!(text.as_str(), "utf8mb4" | "utf8" | "utf8mb3" | "binary") {
                    return Err(SqlError::unsupported(format!("{name} = {text}")));
                }
                return Ok(false);
            }
            "character_set_client" | "character_set_connection" | "character_set_results" => {
                let text = value.to_text();
                let utf8 = match text.as_deref().map(str::to_ascii_lowercase).as_deref() {
                    None => name == "character_set_results",
                    Some("utf8mb4" | "utf8" | "utf8mb3") => true,
                    Some("binary") => name == "character_set_results",
                    Some(_) => false,
                };
                if !utf8 {
                    return Err(SqlError::unsupported(format!(
                        "{name} = {}",
                        text.unwrap_or_else(|| "NULL".into())
                    )));
                }
                return Ok(false);
            }
            _ => return Ok(false),
        }
        Ok(true)
    }

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

/// The collation `name` names when it is one the connection may be in:
/// utf8mb4's (utf8's general_ci names read as utf8mb4_general_ci).
fn connection_collation(name: &str) -> Option<lineardb_table::Collation> {
    match name {
        "utf8_general_ci" | "utf8mb3_general_ci" => Some(lineardb_table::Collation::default()),
        other => lineardb_table::Collation::named(other).filter(|c| c.charset() == "utf8mb4"),
    }
}
