//! CREATE [OR REPLACE] VIEW, ALTER VIEW and DROP VIEW. A view is stored as the text of
//! its query with every table qualified by database (so that it reads the
//! same tables from any current database); it is planned as a derived
//! table wherever it is named, with its definer's rights on the tables it
//! reads.
use crate::catalog::accounts::Accounts;
use crate::error::{Result, SqlError};
use crate::expr::{object_name, Params};
use crate::parser::view_ddl::{Algorithm, CheckOption, Definer, ViewDdl};
use crate::privileges::bits::{CREATE_VIEW, DROP, SUPER};
use crate::result::Outcome;
use crate::session::Session;
use lineardb_table::ViewDef;
use sqlparser::ast;
use std::ops::ControlFlow;

impl Session {
    /// CREATE [OR REPLACE] VIEW and ALTER VIEW. ALTER keeps the clauses
    /// it does not give (ALGORITHM, DEFINER, SQL SECURITY), as MariaDB's.
    pub(crate) fn define_view(&mut self, v: &ViewDdl) -> Result<Outcome> {
        // DDL commits the open transaction first.
        self.end_transaction(true)?;
        let (db, name) = self.qualified(&object_name(&v.name))?;
        self.require_table(&db, &name, CREATE_VIEW)?;
        if v.or_replace || v.alter {
            self.require_table(&db, &name, DROP)?;
        }
        let old = if v.alter {
            match self.engine.view(&db, &name)? {
                Some(old) => Some(old),
                None if self.engine.table(&db, &name).is_ok() => {
                    return Err(SqlError::new(
                        1347,
                        "HY000",
                        format!("'{db}.{name}' is not of type 'VIEW'"),
                    ));
                }
                None => return Err(SqlError::unknown_table(&db, &name)),
            }
        } else {
            None
        };
        let definer = match &v.definer {
            None => match &old {
                // (Keeping another account takes SUPER: checked below.)
                Some(old) => old.definer.clone(),
                None => self.current_user_quoted(),
            },
            Some(Definer::CurrentUser) => self.current_user_quoted(),
            Some(Definer::Account(a)) => {
                if Accounts::load(&self.engine)?.find(a).is_none() {
                    let note = unknown_definer(a);
                    self.warnings.push((note.code, note.message));
                }
                definer_text(&a.user, &a.host)
            }
        };
        let algorithm = v
            .algorithm
            .map(|a| a.name().to_string())
            .or_else(|| old.as_ref().map(|o| o.algorithm.clone()))
            .unwrap_or_else(|| Algorithm::Undefined.name().to_string());
        let invoker = v
            .invoker
            .or_else(|| old.as_ref().map(|o| o.invoker))
            .unwrap_or(false);
        let mut query = (*v.query).clone();
        qualify_tables(&mut query, &db);
        // Other sessions could not read a temporary table (MariaDB: 1352).
        let mut temporary = None;
        let _ = ast::visit_relations(&query, |n| {
            if let [ast::ObjectNamePart::Identifier(d), ast::ObjectNamePart::Identifier(t)] =
                n.0.as_slice()
            {
                if self.tables.is_temporary(&d.value, &t.value) {
                    temporary = Some(t.value.clone());
                    return ControlFlow::Break(());
                }
            }
            ControlFlow::Continue(())
        });
        if let Some(t) = temporary {
            return Err(SqlError::new(
                1352,
                "HY000",
                format!("View's SELECT refers to a temporary table '{t}'"),
            ));
        }
        // Planned now: unknown tables and columns fail here, and the
        // creator must be able to read what the view reads.
        let plan = self.plan_select(&query, &Params::default()).map_err(|e| {
            // MariaDB names no privilege here: the creator needs one on
            // each column the view reads.
            match (e.code, e.message.split_once(" for table ")) {
                (1142, Some((_, table))) => SqlError::new(
                    1142,
                    "42000",
                    format!(
                        "ANY command denied to user '{}'@'{}' for table {table}",
                        self.slot.user,
                        self.account_host()
                    ),
                ),
                _ => e,
            }
        })?;
        let mut names: Vec<String> = plan.columns().iter().map(|c| c.name.clone()).collect();
        if !v.columns.is_empty() {
            if v.columns.len() != names.len() {
                return Err(SqlError::new(
                    1353,
                    "HY000",
                    "View's SELECT and view's field list have different column counts",
                ));
            }
            names = v.columns.clone();
        }
        // Another account as the definer takes SUPER (checked after what
        // the query reads, as MariaDB does).
        if definer != self.current_user_quoted() {
            self.require_global(SUPER, "SUPER, SET USER")?;
        }
        for (i, n) in names.iter().enumerate() {
            if names[..i].iter().any(|m| m.eq_ignore_ascii_case(n)) {
                return Err(SqlError::new(
                    1060,
                    "42S21",
                    format!("Duplicate column name '{n}'"),
                ));
            }
        }
        if v.check != CheckOption::None && !updatable(&query, &algorithm) {
            return Err(SqlError::new(
                1368,
                "HY000",
                format!("CHECK OPTION on non-updatable view `{db}`.`{name}`"),
            ));
        }
        let def = ViewDef {
            database: db,
            name,
            query: query.to_string(),
            columns: v.columns.clone(),
            names,
            definer,
            algorithm,
            invoker,
            check_option: v.check.name().to_string(),
        };
        if v.alter {
            if !self.engine.alter_view(def.clone())? {
                return Err(SqlError::unknown_table(&def.database, &def.name));
            }
            return Ok(Outcome::done(0));
        }
        if v.if_not_exists && self.engine.view(&def.database, &def.name)?.is_some() {
            let note = SqlError::new(
                1050,
                "42S01",
                format!("Table '{}' already exists", def.name),
            );
            self.warnings.push((note.code, note.message));
            return Ok(Outcome::done(0));
        }
        self.engine.create_view(def, v.or_replace)?;
        Ok(Outcome::done(0))
    }

    /// The session's account as a definer: `` `user`@`host pattern` ``.
    pub(crate) fn current_user_quoted(&self) -> String {
        definer_text(&self.slot.user, self.account_host())
    }

    /// DROP VIEW [IF EXISTS] names: each one there is dropped; a missing
    /// one is error 4092 once the others are dropped (a note with IF
    /// EXISTS).
    pub(crate) fn drop_views(
        &mut self,
        if_exists: bool,
        names: &[ast::ObjectName],
    ) -> Result<Outcome> {
        let mut missing = Vec::new();
        for n in names {
            let (db, name) = self.qualified(&object_name(n))?;
            self.require_table(&db, &name, DROP)?;
            if !self.engine.drop_view(&db, &name)? {
                missing.push(format!("{db}.{name}"));
            }
        }
        if missing.is_empty() {
            return Ok(Outcome::done(0));
        }
        let e = SqlError::new(
            4092,
            "42S02",
            format!("Unknown VIEW: '{}'", missing.join(",")),
        );
        if if_exists {
            self.warnings.push((e.code, e.message));
            return Ok(Outcome::done(0));
        }
        Err(e)
    }
}

/// Error 1449 unless view `v`'s definer is an account (a DEFINER view reads
/// with its rights).
pub(crate) fn require_definer(engine: &lineardb_table::Engine, v: &ViewDef) -> Result<()> {
    let account = v
        .definer
        .strip_prefix('`')
        .and_then(|d| d.strip_suffix('`'))
        .and_then(|d| d.split_once("`@`"))
        .map(|(user, host)| crate::catalog::account_name::Account {
            user: user.to_string(),
            host: host.to_string(),
        });
    match account {
        Some(a) if Accounts::load(engine)?.find(&a).is_none() => Err(unknown_definer(&a)),
        _ => Ok(()),
    }
}

/// A definer as views store it: `` `user`@`host` ``.
pub(crate) fn definer_text(user: &str, host: &str) -> String {
    format!("`{user}`@`{host}`")
}

/// 1449: a note when a view is made, an error when it is read.
fn unknown_definer(a: &crate::catalog::account_name::Account) -> SqlError {
    SqlError::new(
        1449,
        "HY000",
        format!(
            "The user specified as a definer ('{}'@'{}') does not exist",
            a.user, a.host
        ),
    )
}

/// Qualifies the query's unqualified table names with `db` (names of its
/// common table expressions excepted).
fn qualify_tables(q: &mut ast::Query, db: &str) {
    let mut ctes: Vec<String> = Vec::new();
    collect_ctes(q, &mut ctes);
    let _ = ast::visit_relations_mut(q, |name| {
        if let [ast::ObjectNamePart::Identifier(id)] = name.0.as_slice() {
            if !ctes.iter().any(|c| c.eq_ignore_ascii_case(&id.value)) {
                name.0.insert(
                    0,
                    ast::ObjectNamePart::Identifier(ast::Ident::with_quote('`', db)),
                );
            }
        }
        ControlFlow::<()>::Continue(())
    });
}

fn collect_ctes(q: &ast::Query, out: &mut Vec<String>) {
    if let Some(w) = &q.with {
        for c in &w.cte_tables {
            out.push(c.alias.name.value.clone());
            collect_ctes(&c.query, out);
        }
    }
}

/// Whether MariaDB would let rows be changed through a view of `query`
/// (the views WITH CHECK OPTION may name): one SELECT over tables, without
/// DISTINCT, grouping, aggregates, windows, LIMIT or a subquery among its
/// columns, and not ALGORITHM=TEMPTABLE.
pub(crate) fn updatable(query: &ast::Query, algorithm: &str) -> bool {
    let ast::SetExpr::Select(select) = query.body.as_ref() else {
        return false;
    };
    if algorithm == Algorithm::TempTable.name()
        || query.with.is_some()
        || query.limit_clause.is_some()
        || select.from.is_empty()
        || select.distinct.is_some()
        || select.having.is_some()
        || !matches!(&select.group_by, ast::GroupByExpr::Expressions(e, _) if e.is_empty())
    {
        return false;
    }
    let mut plain = true;
    for item in &select.projection {
        let _ = ast::visit_expressions(item, |e| {
            match e {
                ast::Expr::Function(f)
                    if f.over.is_some() || crate::function::is_aggregate(&f.name.to_string()) =>
                {
                    plain = false
                }
                ast::Expr::Subquery(_)
                | ast::Expr::Exists { .. }
                | ast::Expr::InSubquery { .. } => plain = false,
                _ => {}
            }
            ControlFlow::<()>::Continue(())
        });
    }
    plain
}
