//! Dispatch: a statement (text or prepared) parsed, its family chosen and
//! run, counted and timed.
use crate::error::{Result, SqlError};
use crate::expr::{object_name, Params};
use crate::parser::admin::{parse_admin, Admin};
use crate::parser::parse;
use crate::parser::view_ddl::ViewDdl;
use crate::result::{CollectSink, Outcome, RowSink};
use crate::session::{Prepared, Session};
use crate::statements::multi_table::{is_multi_table_delete, is_multi_table_update};
use lineardb_table::Value;
use sqlparser::ast;

/// The parsed statements of one COM_QUERY.
pub struct Batch {
    statements: Vec<Stmt>,
    text: std::sync::Arc<str>,
    /// The text the statements' positions refer to where it is not `text`:
    /// a shape's (see [`crate::statement_cache`]), whose select lists are
    /// `text`'s own.
    parsed_text: Option<std::sync::Arc<str>>,
    /// The text's digest key and the schema it was made in, made by the
    /// first statement that records it (a later one in another schema, after
    /// a USE, makes it again).
    digest_key: std::cell::Cell<Option<(u64, u64)>>,
}

enum Stmt {
    Sql(Box<ast::Statement>),
    Admin(Admin),
}

impl Batch {
    pub fn len(&self) -> usize {
        self.statements.len()
    }
    pub fn is_empty(&self) -> bool {
        self.statements.is_empty()
    }
}

impl Session {
    /// Parses the statements of a COM_QUERY (several when the client
    /// allows multi-statements).
    pub fn parse_batch(&mut self, sql: &str) -> Result<Batch> {
        if let Some((statement, parsed_text)) = self.shaped_statement(sql) {
            return Ok(Batch {
                statements: vec![Stmt::Sql(Box::new(statement))],
                text: sql.into(),
                parsed_text: Some(parsed_text),
                digest_key: std::cell::Cell::new(None),
            });
        }
        let statements: Vec<Stmt> = match parse_admin(sql) {
            // A statement the SQL parser does not read, with others after
            // it: a batch the caller runs statement by statement (and
            // without multi-statements MariaDB's error near the second).
            Some(_)
                if crate::parser::dialect::statement_texts(sql)
                    .is_some_and(|parts| parts.len() > 1) =>
            {
                return Err(crate::parser::dialect::second_statement_error(sql));
            }
            Some(a) => vec![Stmt::Admin(a?)],
            None => parse(sql)?
                .into_iter()
                .map(|s| Stmt::Sql(Box::new(s)))
                .collect(),
        };
        if statements.is_empty() {
            return Err(SqlError::new(1065, "42000", "Query was empty"));
        }
        Ok(Batch {
            statements,
            text: sql.into(),
            parsed_text: None,
            digest_key: std::cell::Cell::new(None),
        })
    }

    /// `sql` made from the parsed statement of its shape (see
    /// [`crate::statement_cache`]) and the shape's text, where the session
    /// sent that shape before; `None` where it is to be parsed as written.
    fn shaped_statement(&mut self, sql: &str) -> Option<(ast::Statement, std::sync::Arc<str>)> {
        let lifted = crate::statement_cache::lift(sql)?;
        let shape = self.statement_cache.shape_of(&lifted)?;
        Some((shape.with_values(lifted.values)?, shape.text.clone()))
    }

    /// Runs statement `i` of a batch, sending any result set to `sink`.
    pub fn execute_in(
        &mut self,
        batch: &Batch,
        i: usize,
        sink: &mut dyn RowSink,
    ) -> Result<Outcome> {
        let stmt = match &batch.statements[i] {
            Stmt::Sql(s) => s,
            Stmt::Admin(a) => {
                self.start_report();
                self.refresh_grants()?;
                self.clear_diagnostics();
                self.showing_diagnostics = false;
                self.slot.counters.questions.add(1);
                // Items of a view's query are named from its text.
                self.statement_text = Some(batch.text.clone());
                let state = match a {
                    Admin::AlterTable(_) => crate::catalog::statement_progress::ALTERING,
                    _ => "starting",
                };
                let isolation = crate::catalog::system_variables::shown_isolation(self.isolation);
                self.slot
                    .begin("Query", Some(&batch.text), state, isolation);
                let r = self.run_admin(a, sink);
                self.end_statement();
                self.drop_notes_if_off();
                return self.noting_error(r);
            }
        };
        self.start_report();
        crate::parser::unsupported::refuse_ignored(stmt)?;
        let params = Params::of(stmt);
        if params.count() > 0 {
            return Err(SqlError::syntax("'?' outside a prepared statement"));
        }
        // SHOW WARNINGS reports the previous statement's warnings.
        let diagnostics = matches!(stmt.as_ref(), ast::Statement::ShowVariable { variable }
        if variable.last().is_some_and(|w| {
            w.value.eq_ignore_ascii_case("WARNINGS") || w.value.eq_ignore_ascii_case("ERRORS")
        }));
        if !diagnostics {
            self.clear_diagnostics();
        }
        self.showing_diagnostics = diagnostics;
        self.refresh_grants()?;
        self.slot.counters.questions.add(1);
        self.slot.begin(
            "Query",
            Some(&batch.text),
            crate::catalog::statement_progress::state_of(stmt),
            crate::catalog::system_variables::shown_isolation(self.isolation),
        );
        self.statement_text = Some(batch.parsed_text.as_ref().unwrap_or(&batch.text).clone());
        let start = std::time::Instant::now();
        crate::expr::warnings::take();
        crate::execution::recursive::take_cut_short();
        crate::expr::group_concat::take_cut_rows();
        crate::function::random::start_statement();
        let stop = self.slot.kill_query.clone();
        let r = {
            crate::expr::statement_results::start(self.row_count, self.facts.last_insert_id);
            crate::expr::clock::with_statement_time(self.facts.time_zone, || {
                crate::expr::with_stop(&stop, || self.limited(|s| s.run(stmt, &params, &[], sink)))
            })
        };
        self.warn_from_execution();
        if lineardb_sync::wait::enabled() {
            // The key is made from the text without making the digest text;
            // the text is made only for a key this session has not seen.
            let schema = self.facts.database.as_deref();
            let schema_id = crate::digest::key(schema, "");
            let key = match batch.digest_key.get() {
                Some((made_in, key)) if made_in == schema_id => key,
                _ => {
                    let key = crate::digest::key_of(schema, &batch.text);
                    batch.digest_key.set(Some((schema_id, key)));
                    key
                }
            };
            let ns = start.elapsed().as_nanos() as u64;
            self.slot.record_statement(
                key,
                schema,
                || crate::digest::normalize(&batch.text),
                ns,
                r.is_err(),
            );
        }
        self.end_statement();
        self.noting_error(r)
    }

    /// Runs one statement, sending any result set to `sink`.
    pub fn execute(&mut self, sql: &str, sink: &mut dyn RowSink) -> Result<Outcome> {
        let batch = self.parse_batch(sql)?;
        if batch.len() > 1 {
            return Err(SqlError::syntax(
                "several statements in one query (the client did not enable multi-statements)",
            ));
        }
        self.execute_in(&batch, 0, sink)
    }

    fn run_admin(&mut self, a: &Admin, sink: &mut dyn RowSink) -> Result<Outcome> {
        match a {
            Admin::CheckTable(tables) => self.maintain("check", tables, sink),
            Admin::AnalyzeTable(tables) => self.maintain("analyze", tables, sink),
            Admin::ShowEngineStatus(name) => self.show_engine_status(name, sink),
            Admin::Account(statement) => self.account_statement(statement, sink),
            Admin::Prepare { name, text } => self.prepare_named(name, text),
            Admin::DropPrepare(name) => self.deallocate_named(name),
            Admin::View(v) => {
                self.global_read_lock_allows_change()?;
                self.define_view(v)
            }
            Admin::StartTransaction {
                consistent_snapshot,
                read_only,
            } => self.start_transaction(*consistent_snapshot, *read_only),
            Admin::LockTables(tables) => self.lock_tables(tables),
            Admin::UnlockTables => self.unlock_tables(),
            Admin::FlushTable { tables, read_lock } => {
                self.require_global(crate::privileges::bits::RELOAD, "RELOAD")?;
                if *read_lock {
                    self.flush_tables_with_read_lock(tables)
                } else {
                    Ok(Outcome::done(0))
                }
            }
            Admin::ShowUnmade(kind) => self.show_no_objects(*kind, sink),
            Admin::ShowTableStatus(options) => self.show_table_status(options, sink),
            Admin::ShowOpenTables(options) => self.show_open_tables(options, sink),
            Admin::ShowIndex(options) => self.show_index(options, sink),
            Admin::ShowCreateDatabase {
                name,
                if_not_exists,
            } => self.show_create_database(name, *if_not_exists, sink),
            Admin::Do(expressions) => self.evaluate_and_drop(expressions),
            Admin::Signal(signal) => self.signal(signal),
            Admin::SetStatement {
                assignments,
                statement,
            } => self.set_for_statement(assignments, statement, sink),
            Admin::AlterTable(alter) => {
                self.global_read_lock_allows_change()?;
                self.alter_table_mixed(alter)
            }
            Admin::LoadData(load) => self.load_data(load, sink),
            Admin::SelectExport(export) => self.select_export(export),
            Admin::KeysSwitch(parts) => {
                // Keys are kept as rows come, as InnoDB keeps them (which
                // MariaDB accepts without a note): only the table is checked.
                self.table(parts, crate::privileges::bits::ALTER)?;
                Ok(Outcome::done(0))
            }
        }
    }

    /// COM_STMT_PREPARE.
    pub fn prepare(&mut self, sql: &str) -> Result<Prepared> {
        let mut statements = parse(sql).map_err(|e| match parse_admin(sql) {
            Some(_) => crate::statements::prepared::not_preparable(),
            None => e,
        })?;
        if statements.len() != 1 {
            return Err(crate::parser::dialect::second_statement_error(sql));
        }
        let statement = statements.pop().expect("one");
        let text: std::sync::Arc<str> = sql.into();
        self.statement_text = Some(text.clone());
        if matches!(
            statement,
            ast::Statement::Execute { .. } | ast::Statement::Deallocate { .. }
        ) {
            return Err(crate::statements::prepared::not_preparable());
        }
        crate::parser::unsupported::refuse_ignored(&statement)?;
        let params = Params::of(&statement);
        let mut p = Prepared {
            statement,
            params,
            plan: None,
            columns: Vec::new(),
            digest: crate::digest::normalize(sql),
            digest_key: None,
            assigns: false,
            typed_by_parameters: false,
            text,
        };
        p.assigns =
            !matches!(p.statement, ast::Statement::Set(_)) && assigns_user_variables(&p.statement);
        let statement = p.statement.clone();
        if let ast::Statement::Query(q) = &statement {
            if selects_into(q) {
                // Runs as a statement (no result set to describe).
            } else if q.locks.is_empty() {
                let plan = self.assigning_variables(p.assigns, |s| s.plan_select(q, &p.params))?;
                p.typed_by_parameters = plan.types_results_by_parameters(p.params.count());
                p.columns = plan.columns().to_vec();
                p.plan = Some((plan, self.kept_plan_version()));
            } else {
                // A locking read is planned when it runs (over its locked rows).
                let bare = crate::statements::locking_read::without_locks(q);
                p.columns = self.plan_select(&bare, &p.params)?.columns().to_vec();
            }
        } else if let Some(columns) = self.returning_columns(&statement, &p.params)? {
            p.columns = columns;
        }
        Ok(p)
    }

    /// COM_STMT_EXECUTE.
    pub fn execute_prepared(
        &mut self,
        p: &mut Prepared,
        params: &[Value],
        sink: &mut dyn RowSink,
    ) -> Result<Outcome> {
        if params.len() != p.params.count() {
            return Err(SqlError::new(
                1210,
                "HY000",
                "Incorrect arguments to mysqld_stmt_execute",
            ));
        }
        self.clear_diagnostics();
        self.start_report();
        self.showing_diagnostics = false;
        self.refresh_grants()?;
        self.slot.counters.questions.add(1);
        self.slot.begin(
            "Execute",
            None,
            crate::catalog::statement_progress::state_of(&p.statement),
            crate::catalog::system_variables::shown_isolation(self.isolation),
        );
        let start = std::time::Instant::now();
        crate::expr::warnings::take();
        crate::execution::recursive::take_cut_short();
        crate::expr::group_concat::take_cut_rows();
        crate::function::random::start_statement();
        let stop = self.slot.kill_query.clone();
        let r = {
            crate::expr::statement_results::start(self.row_count, self.facts.last_insert_id);
            crate::expr::clock::with_statement_time(self.facts.time_zone, || {
                crate::expr::with_stop(&stop, || self.limited(|s| s.run_prepared(p, params, sink)))
            })
        };
        self.warn_from_execution();
        if lineardb_sync::wait::enabled() {
            let schema = self.facts.database.as_deref();
            let key = match &p.digest_key {
                Some((s, k)) if s.as_deref() == schema => *k,
                _ => {
                    let k = crate::digest::key(schema, &p.digest);
                    p.digest_key = Some((schema.map(str::to_string), k));
                    k
                }
            };
            let ns = start.elapsed().as_nanos() as u64;
            self.slot
                .record_statement(key, schema, || p.digest.clone(), ns, r.is_err());
        }
        self.end_statement();
        self.noting_error(r)
    }

    /// Runs prepared `p`, an INSERT, REPLACE, UPDATE or DELETE, once for
    /// each row of parameters in `rows`, as one statement (MariaDB's
    /// COM_STMT_BULK_EXECUTE): the rows before one that fails are undone,
    /// and under autocommit the whole commits once. The outcome counts the
    /// rows all the runs changed; its id is the first one generated.
    pub fn execute_prepared_bulk(
        &mut self,
        p: &mut Prepared,
        rows: &[Vec<Value>],
        sink: &mut dyn RowSink,
    ) -> Result<Outcome> {
        use ast::Statement as S;
        if !matches!(p.statement, S::Insert(_) | S::Update(_) | S::Delete(_)) {
            return Err(SqlError::unsupported(
                "bulk execution of a statement other than INSERT, REPLACE, UPDATE or DELETE",
            ));
        }
        let opened = self.txn.is_none();
        let txn = self
            .txn
            .get_or_insert_with(|| self.engine.begin_for(self.slot.id));
        let savepoint = txn.savepoint();
        // Each run keeps the transaction open for the next.
        let explicit = std::mem::replace(&mut self.explicit, true);
        let (mut affected, mut first_id) = (0u64, 0u64);
        let mut failed = None;
        for row in rows {
            match self.execute_prepared(p, row, sink) {
                Ok(Outcome::Done {
                    affected: a,
                    last_insert_id,
                    ..
                }) => {
                    affected += a;
                    if first_id == 0 {
                        first_id = last_insert_id;
                    }
                }
                Ok(Outcome::Rows) => {}
                Err(e) => {
                    failed = Some(e);
                    break;
                }
            }
        }
        self.explicit = explicit;
        if let Some(e) = failed {
            // (A deadlock has rolled the whole transaction back already.)
            if let Some(txn) = self.txn.as_mut() {
                txn.rollback_to(savepoint)?;
            }
            if opened && !self.explicit && self.autocommit {
                self.end_transaction(false)?;
            }
            return Err(e);
        }
        if opened && !self.explicit && self.autocommit {
            self.end_transaction(true)?;
        }
        Ok(Outcome::Done {
            affected,
            last_insert_id: first_id,
            info: String::new(),
        })
    }

    pub(crate) fn run_prepared(
        &mut self,
        p: &mut Prepared,
        params: &[Value],
        sink: &mut dyn RowSink,
    ) -> Result<Outcome> {
        self.statement_text = Some(p.text.clone());
        self.assigning_variables(p.assigns, |s| s.run_prepared_statement(p, params, sink))
    }

    fn run_prepared_statement(
        &mut self,
        p: &mut Prepared,
        params: &[Value],
        sink: &mut dyn RowSink,
    ) -> Result<Outcome> {
        if let ast::Statement::Query(q) = &p.statement {
            let limited = self.with_select_limit(q);
            if selects_into(q) || matches!(limited, std::borrow::Cow::Owned(_)) {
                // Planned for this run (what `sql_select_limit` is now).
                let q = limited.into_owned();
                return self.select(&q, &p.params.clone(), params, sink);
            }
            if !q.locks.is_empty() {
                return self.locking_select(q, &p.params, params, sink, Some(&mut p.plan));
            }
            let version = self.plan_version();
            let mut stale = p.plan.as_ref().is_none_or(|(_, v)| *v != version);
            if p.typed_by_parameters {
                let kinds = crate::expr::Params::kinds_of(params);
                if p.params.kinds() != kinds.as_slice() {
                    p.params.set_kinds(kinds);
                    stale = true;
                }
            }
            if stale {
                let plan = self.plan_select(q, &p.params)?;
                p.plan = Some((plan, self.kept_plan_version()));
            }
            let (plan, _) = p.plan.as_ref().expect("planned");
            self.note_plan(plan);
            self.slot.counters.com_select.add(1);
            self.reading(|s| plan.run(params, &s.run_context(s.view()), sink))?;
            return Ok(Outcome::Rows);
        }
        let stmt = p.statement.clone();
        self.run(&stmt, &p.params.clone(), params, sink)
    }

    pub(crate) fn run(
        &mut self,
        stmt: &ast::Statement,
        params: &Params,
        args: &[Value],
        sink: &mut dyn RowSink,
    ) -> Result<Outcome> {
        // `:=` only comes from those characters in the text.
        let assigns = self
            .statement_text
            .as_deref()
            .is_none_or(|t| t.contains(":="))
            && assigns_user_variables(stmt);
        // A statement that met a table DDL had just replaced (1412, before
        // it changed or sent anything: its changes were undone) runs again
        // on the new table.
        let mut attempts = 0;
        loop {
            let r =
                self.assigning_variables(assigns, |s| s.run_statement(stmt, params, args, sink));
            match r {
                Err(e) if e.code == 1412 && attempts < 100 => {
                    attempts += 1;
                    // The failed attempt's warnings are not the statement's.
                    crate::expr::warnings::take();
                    std::thread::sleep(std::time::Duration::from_millis(attempts));
                }
                r => return r,
            }
        }
    }

    /// Runs `f` for a statement; one that `assigns` user variables (`:=`)
    /// runs on one thread with the session's variables in reach of its
    /// rows ([`user_variables`](crate::expr::user_variables)).
    fn assigning_variables<T>(
        &mut self,
        assigns: bool,
        f: impl FnOnce(&mut Self) -> Result<T>,
    ) -> Result<T> {
        if !assigns || crate::expr::user_variables::assigning() {
            return f(self);
        }
        let mut variables = std::mem::take(&mut self.facts.user_variables);
        let threads = std::mem::replace(&mut self.parallel_threads, 1);
        let r = crate::expr::user_variables::run_assigning(&mut variables, || f(self));
        self.parallel_threads = threads;
        self.facts.user_variables = variables;
        self.slot.show_user_variables(&self.facts.user_variables);
        // Plans kept by prepared statements read variables as constants.
        self.facts_changed();
        r
    }

    pub(crate) fn run_statement(
        &mut self,
        stmt: &ast::Statement,
        params: &Params,
        args: &[Value],
        sink: &mut dyn RowSink,
    ) -> Result<Outcome> {
        use ast::Statement as S;
        if matches!(stmt, S::Insert(_) | S::Update(_) | S::Delete(_)) {
            if let Some((on_table, check)) = self.through_view(stmt)? {
                let outer = std::mem::replace(&mut self.view_check, check);
                let r = self.run_statement(&on_table, params, args, sink);
                self.view_check = outer;
                return r;
            }
        }
        let ddl = match stmt {
            // CREATE and DROP TEMPORARY TABLE leave the transaction open.
            S::CreateTable(ct) => !ct.temporary,
            S::Drop { temporary, .. } => !temporary,
            S::CreateDatabase { .. }
            | S::CreateIndex(_)
            | S::AlterTable(_)
            | S::RenameTable(_)
            | S::Truncate(_)
            | S::CreateView(_) => true,
            _ => false,
        };
        if ddl {
            self.global_read_lock_allows_change()?;
            // DDL commits the open transaction first, as in MySQL.
            self.end_transaction(true)?;
        }
        // An INSERT or UPDATE in strict mode fails on a division by zero
        // anywhere in it (its WHERE, its SELECT too), as MariaDB's does; a
        // DELETE, or IGNORE, only warns.
        let writes = match stmt {
            S::Insert(ins) => !ins.ignore,
            S::Update(u) => !matches!(u.or, Some(ast::SqliteOnConflict::Ignore)),
            _ => false,
        };
        let _division =
            crate::expr::warnings::division_by_zero_fails(writes && self.division_by_zero_fails());
        match stmt {
            S::Query(q) => {
                let q = self.with_select_limit(q);
                self.select(&q, params, args, sink)
            }
            S::Insert(ins) => {
                self.slot.counters.com_insert.add(1);
                self.changing_returning(sink, |s, txn, returned| {
                    s.insert(txn, ins, params, args, returned)
                        .and_then(|n| s.fail_on_truncation(writes).map(|()| n))
                })
            }
            S::Update(u) => {
                self.slot.counters.com_update.add(1);
                if is_multi_table_update(u) {
                    self.changing_rows(|s, txn| {
                        s.multi_table_update(txn, u, params, args)
                            .and_then(|n| s.fail_on_truncation(writes).map(|()| n))
                    })
                } else {
                    self.changing_rows(|s, txn| {
                        s.update(txn, u, params, args)
                            .and_then(|n| s.fail_on_truncation(writes).map(|()| n))
                    })
                }
            }
            S::Delete(d) => {
                self.slot.counters.com_delete.add(1);
                if is_multi_table_delete(d) {
                    self.changing_rows(|s, txn| s.multi_table_delete(txn, d, params, args))
                } else {
                    self.changing_returning(sink, |s, txn, returned| {
                        s.delete(txn, d, params, args, returned)
                    })
                }
            }
            S::CreateDatabase {
                db_name,
                if_not_exists,
                default_charset,
                default_collation,
                ..
            } => self.create_database(
                db_name,
                *if_not_exists,
                default_charset.as_deref(),
                default_collation.as_deref(),
            ),
            S::CreateTable(ct) => self.create_table(ct),
            S::CreateView(cv) => self.define_view(&ViewDdl::of_create(cv)?),
            S::Drop {
                object_type: ast::ObjectType::View,
                if_exists,
                names,
                cascade: false,
                restrict: false,
                ..
            } => self.drop_views(*if_exists, names),
            S::CreateIndex(ci) => self.create_index(ci),
            S::AlterTable(at) => self.alter_table(at),
            S::RenameTable(renames) => self.rename_tables(renames),
            S::Drop {
                object_type: ast::ObjectType::Index,
                names,
                table: Some(table),
                ..
            } => self.drop_index(table, names),
            S::Drop {
                object_type,
                if_exists,
                temporary,
                names,
                ..
            } => self.drop_objects(object_type, *if_exists, *temporary, names),
            S::Flush {
                object_type,
                read_lock,
                export,
                tables,
                ..
            } => {
                self.require_global(crate::privileges::bits::RELOAD, "RELOAD")?;
                match (object_type, *read_lock || *export) {
                    (ast::FlushType::Tables, true) if *export && tables.is_empty() => {
                        Err(SqlError::syntax_near(""))
                    }
                    (ast::FlushType::Tables, true) => {
                        let tables: Vec<Vec<String>> = tables.iter().map(object_name).collect();
                        self.flush_tables_with_read_lock(&tables)
                    }
                    // The rest flush caches and logs lineardb keeps in
                    // step already, or statistics it does not reset.
                    _ => Ok(Outcome::done(0)),
                }
            }
            S::Truncate(tr) => self.truncate(tr),
            S::Use(u) => {
                let name = match u {
                    ast::Use::Object(n) | ast::Use::Database(n) | ast::Use::Schema(n) => {
                        object_name(n).join(".")
                    }
                    other => return Err(SqlError::unsupported(other.to_string())),
                };
                self.use_database(&name)?;
                Ok(Outcome::done(0))
            }
            S::Execute {
                name,
                parameters,
                using,
                has_parentheses: false,
                into,
                output: false,
                default: false,
                immediate: false,
            } if into.is_empty() => self.execute_named(name.as_ref(), parameters, using, sink),
            S::Execute { .. } => Err(SqlError::syntax_near("EXECUTE")),
            S::Deallocate {
                name,
                prepare: true,
            } => self.deallocate_named(&name.value),
            S::Deallocate { name, .. } => Err(SqlError::syntax_near(name)),
            // Its modes (READ ONLY, ...) are read by `parse_admin`; MariaDB's
            // START TRANSACTION has no ISOLATION LEVEL.
            S::StartTransaction { modes, .. } if !modes.is_empty() => {
                Err(SqlError::syntax_near(modes[0].to_string()))
            }
            S::StartTransaction { .. } => self.start_transaction(false, false),
            S::Commit { chain, .. } => self.end_and_chain(true, *chain),
            S::Rollback {
                savepoint: None,
                chain,
            } => self.end_and_chain(false, *chain),
            S::Rollback {
                savepoint: Some(name),
                chain: false,
            } => self.rollback_to_savepoint(&name.value),
            S::Savepoint { name } => self.savepoint(&name.value),
            S::ReleaseSavepoint { name } => self.release_savepoint(&name.value),
            S::Set(set) => self.set(set, params, args),
            S::ShowDatabases { .. }
            | S::ShowTables { .. }
            | S::ShowVariables { .. }
            | S::ShowStatus { .. }
            | S::ShowCreate { .. }
            | S::ShowColumns { .. }
            | S::ShowProcessList { .. }
            | S::ShowVariable { .. }
            | S::ShowCharset(_)
            | S::ExplainTable { .. }
            | S::ShowCollation { .. }
            | S::Explain { .. } => self.show(stmt, params, sink),
            S::Kill { modifier, id } => {
                self.kill(*id, matches!(modifier, Some(ast::KillType::Query)))
            }
            S::Analyze(a) => {
                let Some(name) = &a.table_name else {
                    return Err(SqlError::syntax("ANALYZE TABLE <table>"));
                };
                self.maintain("analyze", &[object_name(name)], sink)
            }
            other => Err(SqlError::unsupported(
                other
                    .to_string()
                    .split_whitespace()
                    .take(3)
                    .collect::<Vec<_>>()
                    .join(" "),
            )),
        }
    }

    /// Runs a statement under `max_statement_time`: one stopped at its
    /// deadline fails with 1969.
    fn limited(&mut self, f: impl FnOnce(&mut Self) -> Result<Outcome>) -> Result<Outcome> {
        if self.max_statement_time <= 0.0 {
            return f(self);
        }
        let limit = std::time::Duration::from_secs_f64(self.max_statement_time.min(1e9));
        self.registry.arm_deadline(&self.slot, limit);
        let r = f(self);
        let passed = self.registry.disarm_deadline(&self.slot);
        match r {
            Err(e) if passed && e.code == 1317 => Err(SqlError::new(
                1969,
                "70100",
                "Query execution was interrupted (max_statement_time exceeded)",
            )),
            r => r,
        }
    }

    /// DO: `expressions` run as a SELECT's items (its time, KILL QUERY,
    /// warnings and `:=` as any statement's), their values dropped.
    fn evaluate_and_drop(&mut self, expressions: &str) -> Result<Outcome> {
        let mut statements = crate::parser::dialect::parse_sql(&format!("SELECT {expressions}"))?;
        let (Some(stmt), true) = (statements.pop(), statements.is_empty()) else {
            return Err(SqlError::syntax("DO takes expressions"));
        };
        let params = Params::of(&stmt);
        if params.count() > 0 {
            return Err(SqlError::syntax("'?' outside a prepared statement"));
        }
        let stop = self.slot.kill_query.clone();
        let mut values = CollectSink::default();
        let r = crate::expr::clock::with_statement_time(self.facts.time_zone, || {
            crate::expr::with_stop(&stop, || self.run(&stmt, &params, &[], &mut values))
        });
        self.warn_from_execution();
        r.map(|_| Outcome::done(0))
    }

    /// Ends a statement: its error noted for SHOW ERRORS, the id
    /// LAST_INSERT_ID(expr) gave taken (and reported as the statement's),
    /// ROW_COUNT() for the next statement.
    fn noting_error(&mut self, mut r: Result<Outcome>) -> Result<Outcome> {
        if let Some(id) = crate::expr::statement_results::take_given_id() {
            self.facts.last_insert_id = id;
            self.facts_changed();
            if let Ok(Outcome::Done { last_insert_id, .. }) = &mut r {
                *last_insert_id = id;
            }
        }
        self.row_count = match &r {
            Ok(Outcome::Done { affected, .. }) => *affected as i64,
            Ok(Outcome::Rows) | Err(_) => -1,
        };
        if let Err(e) = &r {
            self.error = Some((e.code, e.message.clone()));
        }
        r
    }

    /// The warnings the statement's expressions raised (up to
    /// `max_error_count`, 64; a division by zero's only under
    /// ERROR_FOR_DIVISION_BY_ZERO), 1931 for a recursive CTE cut short.
    pub(crate) fn warn_from_execution(&mut self) {
        let mut raised = crate::expr::warnings::take();
        if !raised.is_empty() {
            if !self.division_by_zero_reported() {
                raised.retain(|w| w.0 != crate::expr::warnings::DIVISION_BY_ZERO);
            }
            let room = 64usize.saturating_sub(self.warnings.len());
            self.warnings.extend(raised.into_iter().take(room));
        }
        for row in crate::expr::group_concat::take_cut_rows() {
            if self.warnings.len() < 64 {
                self.warnings
                    .push((1260, format!("Row {row} was cut by GROUP_CONCAT()")));
            }
        }
        self.drop_notes_if_off();
        if let Some(max) = crate::execution::recursive::take_cut_short() {
            self.warnings.push((
                1931,
                format!(
                    "Query execution was interrupted. The query exceeded \
                     max_recursive_iterations = {max}. The query result may be incomplete"
                ),
            ));
        }
    }

    /// An INSERT or UPDATE (`writes`) in strict mode fails with the first
    /// string its expressions read as a number that was not wholly one
    /// (MariaDB's 1292), undoing its changes; elsewhere that is a warning.
    pub(crate) fn fail_on_truncation(&self, writes: bool) -> Result<()> {
        if !writes {
            return Ok(());
        }
        match crate::expr::warnings::pending_truncation() {
            Some((code, message)) if self.strict_mode() => {
                crate::expr::warnings::take();
                Err(SqlError::new(code, "22007", message))
            }
            _ => Ok(()),
        }
    }

    /// With `sql_notes = 0`, notes are not kept (dumps turn them off).
    fn drop_notes_if_off(&mut self) {
        // (Most statements raise none: the variable is read only for some.)
        if self.warnings.is_empty() {
            return;
        }
        if self
            .variable("sql_notes")
            .is_some_and(|v| v.as_f64() == Some(0.0))
        {
            self.warnings
                .retain(|(code, _)| !crate::expr::warnings::is_note(*code));
        }
    }

    /// Runs a statement and collects its result (tests, embedded use).
    pub fn query(&mut self, sql: &str) -> Result<(Outcome, CollectSink)> {
        let mut sink = CollectSink::default();
        let o = self.execute(sql, &mut sink)?;
        Ok((o, sink))
    }
}

/// Whether `stmt` assigns a user variable (`@name := value`) anywhere.
fn assigns_user_variables(stmt: &ast::Statement) -> bool {
    use std::ops::ControlFlow;
    if matches!(stmt, ast::Statement::Set(_)) {
        // SET's own `:=` is its `=`.
        return false;
    }
    ast::visit_expressions(stmt, |e| match e {
        ast::Expr::BinaryOp {
            op: ast::BinaryOperator::Assignment,
            ..
        } => ControlFlow::Break(()),
        _ => ControlFlow::Continue(()),
    })
    .is_break()
}

/// Whether a query is `SELECT ... INTO @variables`.
pub(crate) fn selects_into(q: &ast::Query) -> bool {
    matches!(q.body.as_ref(), ast::SetExpr::Select(s) if s.into.is_some())
}
