//! A client session: current database, variables, warnings, prepared
//! statements and a cache of table handles. Nothing here is shared with
//! other sessions; the engine's catalog version is read (never written)
//! to know when cached handles are stale.
use crate::error::{Result, SqlError};
use crate::execution::RunContext;
use crate::expr::{object_name, Compiler, Env, Params, ScopeColumn, SessionFacts};
use crate::names::qualify;
use crate::parser::admin::{parse_admin, Admin};
use crate::parser::parse;
use crate::planner::plan::SelectPlan;
use crate::planner::Planner;
use crate::result::{CollectSink, Column, ColumnKind, Outcome, RowSink};
use crate::SERVER_VERSION;

/// Most threads `lineardb_parallel_threads` accepts.
const MAX_PARALLEL_THREADS: u64 = 256;
/// Default `lineardb_parallel_min_rows`: below this a scan is over before
/// threads would pay off.
const DEFAULT_PARALLEL_MIN_ROWS: u64 = 50_000;
use crate::catalog::accounts::{self, Grants};
use crate::catalog::registry::{Registry, SessionSlot};
use lineardb_table::{Engine, Table, Value};
use lineardb_table::{ReadView, Reader, Txn};
use sqlparser::ast;
use std::collections::HashMap;
use std::sync::Arc;

/// The parsed statements of one COM_QUERY.
pub struct Batch {
    statements: Vec<Stmt>,
    text: String,
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

/// A prepared statement.
pub struct Prepared {
    statement: ast::Statement,
    params: Params,
    /// Compiled SELECT, if it is one, and the [`Session::plan_version`] it
    /// was planned at (re-planned when that moves).
    plan: Option<(SelectPlan, (u64, u64))>,
    pub columns: Vec<Column>,
    /// The statement's digest text, made once at prepare, and its key for
    /// the schema it last ran in.
    digest: String,
    digest_key: Option<(Option<String>, u64)>,
}

impl Prepared {
    pub fn param_count(&self) -> usize {
        self.params.count()
    }
}

pub struct Session {
    pub(crate) engine: Arc<Engine>,
    pub(crate) registry: Arc<Registry>,
    /// This session's slot in the registry (its own cache lines).
    pub(crate) slot: Arc<SessionSlot>,
    pub(crate) facts: SessionFacts,
    pub(crate) grants: Grants,
    /// Bumped when a fact a compiled plan may hold (current database,
    /// last insert id) changes: cached prepared plans are then re-planned.
    facts_version: u64,
    variables: HashMap<String, Value>,
    /// Threads a big scan may use (`lineardb_parallel_threads`).
    pub(crate) parallel_threads: usize,
    /// Fewest rows (tree estimate) a scan needs to go parallel
    /// (`lineardb_parallel_min_rows`).
    parallel_min_rows: u64,
    pub(crate) warnings: Vec<(u16, String)>,
    tables: TableCache,
    autocommit: bool,
    /// The open transaction: one that BEGIN started, or (autocommit off)
    /// the one the last change joined. Autocommit statements outside it
    /// commit on their own.
    txn: Option<Txn>,
    /// BEGIN / START TRANSACTION is in force (until COMMIT or ROLLBACK).
    explicit: bool,
    /// Takes this session's snapshots (its own view slot), from the first
    /// read on.
    reader: Option<Reader>,
    /// The snapshot of the running statement, or at REPEATABLE READ of the
    /// open transaction (taken at its first read, kept to its end).
    view: Option<ReadView>,
    /// `transaction_isolation` as MySQL spells it. READ-UNCOMMITTED reads
    /// as READ-COMMITTED, SERIALIZABLE as REPEATABLE-READ.
    isolation: &'static str,
    /// Commits do not wait for the log ([`set_deferred_durability`](Self::set_deferred_durability)).
    deferred_durability: bool,
    /// The log position a deferred commit of this session needs durable
    /// before it is reported.
    undurable: Option<u64>,
}

/// The view every current read uses (UPDATE, DELETE, the grant tables):
/// the latest version of each row, which the reader locks.
static LATEST: ReadView = ReadView::latest();

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

impl Drop for Session {
    fn drop(&mut self) {
        self.registry.unregister(&self.slot);
    }
}

pub(crate) fn text_col(name: &str) -> Column {
    Column::expr(name, ColumnKind::Text)
}

/// A session's table handles, dropped whenever the catalog version moved.
#[derive(Default)]
struct TableCache {
    version: Option<u64>,
    tables: HashMap<(String, String), Arc<Table>>,
}

impl TableCache {
    fn get(&mut self, engine: &Engine, (db, name): (String, String)) -> Result<Arc<Table>> {
        let version = engine.catalog_version();
        if self.version != Some(version) {
            self.tables.clear();
            self.version = Some(version);
        }
        let key = (db.to_ascii_lowercase(), name.to_ascii_lowercase());
        if let Some(t) = self.tables.get(&key) {
            return Ok(t.clone());
        }
        let t = engine.table(&db, &name).map_err(|e| match e {
            lineardb_table::Error::NoSuchTable(_) => SqlError::unknown_table(&db, &name),
            e => e.into(),
        })?;
        self.tables.insert(key, t.clone());
        Ok(t)
    }
}

impl Session {
    /// An embedded session with every privilege, listed in `registry`.
    pub fn new(engine: Arc<Engine>, registry: &Arc<Registry>) -> Session {
        let id = registry.reserve_id();
        Self::login(
            engine,
            registry,
            id,
            "root",
            "localhost",
            Grants::superuser(),
        )
    }

    /// Connection `id`'s session (see [`Registry::reserve_id`]): `user`
    /// from `host` with `grants` (see [`crate::authenticate`]).
    pub fn login(
        engine: Arc<Engine>,
        registry: &Arc<Registry>,
        id: u64,
        user: &str,
        host: &str,
        grants: Grants,
    ) -> Session {
        let slot = registry.register(id, user, host);
        Session {
            grants,
            engine,
            registry: registry.clone(),
            facts: SessionFacts {
                database: None,
                user: format!("{user}@{host}"),
                connection_id: slot.id,
                last_insert_id: 0,
            },
            slot,
            facts_version: 0,
            variables: HashMap::new(),
            parallel_threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
            parallel_min_rows: DEFAULT_PARALLEL_MIN_ROWS,
            warnings: Vec::new(),
            tables: TableCache::default(),
            autocommit: true,
            txn: None,
            explicit: false,
            reader: None,
            view: None,
            isolation: "REPEATABLE-READ",
            deferred_durability: false,
            undurable: None,
        }
    }

    /// With `on`, a commit does everything but wait for its log records to
    /// become durable: the caller takes the position to wait for with
    /// [`take_undurable`](Self::take_undurable) after each statement and
    /// reports the statement only once [`wait_durable`] returns for it (a
    /// server serves other clients meanwhile, so commits from many clients
    /// share one log sync without a thread waiting per commit).
    pub fn set_deferred_durability(&mut self, on: bool) {
        self.deferred_durability = on;
    }

    /// The log position a commit made by the last statement needs durable
    /// before it is reported, if it is not durable yet.
    pub fn take_undurable(&mut self) -> Option<u64> {
        let lsn = self.undurable.take()?;
        (!self.engine.wal().is_durable(lsn)).then_some(lsn)
    }

    fn commit(&mut self, txn: Txn) -> Result<()> {
        if !self.deferred_durability {
            return Ok(txn.commit()?);
        }
        if let Some(lsn) = txn.commit_no_wait()? {
            self.undurable = Some(self.undurable.map_or(lsn, |u| u.max(lsn)));
        }
        Ok(())
    }

    /// Does a snapshot last for the whole transaction (REPEATABLE READ in
    /// a transaction), rather than one statement?
    fn view_spans_transaction(&self) -> bool {
        matches!(self.isolation, "REPEATABLE-READ" | "SERIALIZABLE")
            && (self.explicit || !self.autocommit)
    }

    /// Takes the snapshot a read statement needs (or keeps the open
    /// transaction's): publishes it in this session's own slot.
    pub(crate) fn begin_read(&mut self) -> Result<()> {
        if self.view.is_none() || !self.view_spans_transaction() {
            self.view = None; // one view per reader at a time
            if self.reader.is_none() {
                self.reader = Some(self.engine.reader()?);
            }
            let own = self.txn.as_ref().map_or(0, |t| t.id_if_started());
            self.view = Some(self.reader.as_ref().expect("made").view(own));
        }
        if let (Some(v), Some(t)) = (self.view.as_mut(), self.txn.as_ref()) {
            // A transaction that wrote after its snapshot sees its changes.
            v.set_own(t.id_if_started());
        }
        Ok(())
    }

    /// Ends a read statement: its snapshot goes unless the transaction
    /// keeps it (an idle session must not hold back purge).
    pub(crate) fn end_read(&mut self) {
        if !self.view_spans_transaction() {
            self.view = None;
        }
    }

    /// Runs a read with the statement's snapshot.
    fn reading<T>(&mut self, f: impl FnOnce(&mut Self) -> Result<T>) -> Result<T> {
        self.begin_read()?;
        let r = f(self);
        self.end_read();
        r
    }

    pub fn database(&self) -> Option<&str> {
        self.facts.database.as_deref()
    }

    pub fn warning_count(&self) -> u16 {
        self.warnings.len().min(u16::MAX as usize) as u16
    }

    /// This session's slot (KILL, interrupts).
    pub fn slot(&self) -> &Arc<SessionSlot> {
        &self.slot
    }

    pub fn engine(&self) -> &Arc<Engine> {
        &self.engine
    }

    pub fn registry(&self) -> &Arc<Registry> {
        &self.registry
    }

    pub fn autocommit(&self) -> bool {
        self.autocommit
    }

    /// USE / COM_INIT_DB.
    pub fn use_database(&mut self, db: &str) -> Result<()> {
        self.require_database(db, u32::MAX)?;
        if !self.engine.database_exists(db)? {
            return Err(lineardb_table::Error::NoSuchDatabase(db.to_string()).into());
        }
        self.facts.database = Some(db.to_string());
        self.facts_changed();
        Ok(())
    }

    /// A system or session variable's value.
    pub fn variable(&self, name: &str) -> Option<Value> {
        let lower = name.to_ascii_lowercase();
        if let Some(v) = self.variables.get(&lower) {
            return Some(v.clone());
        }
        Some(match lower.as_str() {
            "version" => Value::str(SERVER_VERSION),
            "version_comment" => Value::str("lineardb"),
            "max_allowed_packet" => Value::Int(64 << 20),
            "autocommit" => Value::Int(self.autocommit as i64),
            "innodb_lock_wait_timeout" => {
                Value::Int(self.engine.wal().lock_wait_timeout().as_secs() as i64)
            }
            "innodb_flush_log_at_trx_commit" => {
                Value::Int(self.engine.wal().durability().level() as i64)
            }
            "sql_mode" => {
                Value::str("STRICT_TRANS_TABLES,ERROR_FOR_DIVISION_BY_ZERO,NO_ENGINE_SUBSTITUTION")
            }
            "character_set_client"
            | "character_set_connection"
            | "character_set_results"
            | "character_set_server" => Value::str("utf8mb4"),
            "collation_connection" | "collation_server" => Value::str("utf8mb4_general_ci"),
            "transaction_isolation" | "tx_isolation" => Value::str(self.isolation),
            "lower_case_table_names" => Value::Int(1),
            "time_zone" | "system_time_zone" => Value::str("SYSTEM"),
            "wait_timeout" | "interactive_timeout" => Value::Int(28800),
            "net_write_timeout" => Value::Int(60),
            "license" => Value::str("Apache-2.0"),
            "have_ssl" => Value::str("DISABLED"),
            "port" => Value::Int(3306),
            // No unix socket: clients that prefer one stay on TCP.
            "socket" => Value::str(""),
            "parallel_threads" | "lineardb_parallel_threads" => {
                Value::Int(self.parallel_threads as i64)
            }
            "lineardb_parallel_min_rows" => Value::UInt(self.parallel_min_rows),
            "lineardb_instrumentation" => Value::str(if lineardb_sync::wait::enabled() {
                "ON"
            } else {
                "OFF"
            }),
            _ => return None,
        })
    }

    /// `[db, name]` or `[name]` (in the current database) as (db, name).
    pub(crate) fn qualified(&self, parts: &[String]) -> Result<(String, String)> {
        qualify(self.facts.database.as_deref(), parts)
    }

    /// A table the session may use for `privilege` (a `users` bit).
    pub(crate) fn table(&mut self, parts: &[String], privilege: u32) -> Result<Arc<Table>> {
        let (db, name) = self.qualified(parts)?;
        self.require(&db, privilege, &name)?;
        self.tables.get(&self.engine, (db, name))
    }

    pub(crate) fn plan_select(&mut self, q: &ast::Query, params: &Params) -> Result<SelectPlan> {
        // Table resolution fills the session's cache while the planner
        // reads variables: the cache is moved out for the duration.
        let mut cache = std::mem::take(&mut self.tables);
        let engine = self.engine.clone();
        let db = self.facts.database.clone();
        let grants = &self.grants;
        let slot = &self.slot;
        let mut resolve = |parts: &[String]| {
            let (db, name) = qualify(db.as_deref(), parts)?;
            if !grants.allows(&db, accounts::SELECT) {
                return Err(SqlError::new(
                    1142,
                    "42000",
                    format!(
                        "SELECT command denied to user '{}'@'{}' for table '{name}'",
                        slot.user, slot.host
                    ),
                ));
            }
            cache.get(&engine, (db, name))
        };
        let vars = |n: &str| self.variable(n);
        let plan = Planner {
            params,
            facts: &self.facts,
            variable: &vars,
            resolve: &mut resolve,
            engine: &engine,
            registry: &self.registry,
        }
        .plan_query(q);
        self.tables = cache;
        plan
    }

    /// Parses the statements of a COM_QUERY (several when the client
    /// allows multi-statements).
    pub fn parse_batch(&self, sql: &str) -> Result<Batch> {
        let statements: Vec<Stmt> = match parse_admin(sql) {
            Some(a) => vec![Stmt::Admin(a)],
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
            text: sql.to_string(),
            digest_key: std::cell::Cell::new(None),
        })
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
                self.warnings.clear();
                self.slot.counters.questions.add(1);
                return self.run_admin(a, sink);
            }
        };
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
            self.warnings.clear();
        }
        self.slot.counters.questions.add(1);
        self.slot.begin("Query", Some(&batch.text));
        let start = std::time::Instant::now();
        let r = self.run(stmt, &params, &[], sink);
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
        self.slot.end();
        r
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
            Admin::CreateUser {
                account,
                password,
                if_not_exists,
            } => self.create_user(account, password, *if_not_exists),
            Admin::ShowGrants(account) => self.show_grants(account.as_ref(), sink),
            Admin::SetPassword { account, password } => {
                self.set_password(account.as_ref(), password)
            }
            Admin::ShowEngineStatus(name) => {
                if !name.eq_ignore_ascii_case("lineardb") && !name.eq_ignore_ascii_case("innodb") {
                    return Err(SqlError::new(
                        1286,
                        "42000",
                        format!("Unknown storage engine '{name}'"),
                    ));
                }
                let text = crate::catalog::perf_schema::engine_status(&self.engine, &self.registry);
                self.rows(
                    sink,
                    &["Type", "Name", "Status"],
                    vec![vec![
                        Value::str("lineardb"),
                        Value::str(""),
                        Value::str(&text),
                    ]],
                )
            }
        }
    }

    /// COM_STMT_PREPARE.
    pub fn prepare(&mut self, sql: &str) -> Result<Prepared> {
        let mut statements = parse(sql).map_err(|e| match parse_admin(sql) {
            Some(_) => SqlError::new(
                1295,
                "HY000",
                "This command is not supported in the prepared statement protocol yet",
            ),
            None => e,
        })?;
        if statements.len() != 1 {
            return Err(SqlError::syntax("a prepared statement is one statement"));
        }
        let statement = statements.pop().expect("one");
        let params = Params::of(&statement);
        let mut p = Prepared {
            statement,
            params,
            plan: None,
            columns: Vec::new(),
            digest: crate::digest::normalize(sql),
            digest_key: None,
        };
        if let ast::Statement::Query(q) = &p.statement {
            let plan = self.plan_select(q, &p.params)?;
            p.columns = plan.columns.clone();
            p.plan = Some((plan, self.plan_version()));
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
        self.warnings.clear();
        self.slot.counters.questions.add(1);
        self.slot.begin("Execute", None);
        let start = std::time::Instant::now();
        let r = self.run_prepared(p, params, sink);
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
        self.slot.end();
        r
    }

    fn run_prepared(
        &mut self,
        p: &mut Prepared,
        params: &[Value],
        sink: &mut dyn RowSink,
    ) -> Result<Outcome> {
        if let ast::Statement::Query(q) = &p.statement {
            let version = self.plan_version();
            let stale = p.plan.as_ref().is_none_or(|(_, v)| *v != version);
            if stale {
                let plan = self.plan_select(q, &p.params)?;
                p.plan = Some((plan, version));
            }
            let (plan, _) = p.plan.as_ref().expect("planned");
            self.slot.counters.com_select.add(1);
            self.reading(|s| plan.run(params, &s.run_context(s.view()), sink))?;
            return Ok(Outcome::Rows);
        }
        let stmt = p.statement.clone();
        self.run(&stmt, &p.params.clone(), params, sink)
    }

    /// Runs a data change inside the open transaction, or in one of its
    /// own that commits at once (autocommit). A statement that fails undoes
    /// its own changes only; the transaction goes on.
    fn in_transaction<T>(&mut self, f: impl FnOnce(&mut Self, &mut Txn) -> Result<T>) -> Result<T> {
        let mut txn = match self.txn.take() {
            Some(t) => t,
            None => self.engine.begin(),
        };
        let savepoint = txn.savepoint();
        let r = f(self, &mut txn);
        if matches!(&r, Err(e) if e.code == 1213) {
            // The deadlock victim: the whole transaction rolls back (InnoDB).
            self.explicit = false;
            txn.rollback()?;
            return r;
        }
        if r.is_err() {
            txn.rollback_to(savepoint)?;
        }
        if self.explicit || !self.autocommit {
            self.txn = Some(txn);
        } else if r.is_ok() {
            self.commit(txn)?;
        } else {
            txn.rollback()?;
        }
        r
    }

    /// COMMIT (or ROLLBACK) of the open transaction, if any.
    pub(crate) fn end_transaction(&mut self, commit: bool) -> Result<()> {
        self.explicit = false;
        self.view = None;
        match self.txn.take() {
            Some(t) if commit => self.commit(t)?,
            Some(t) => t.rollback()?,
            None => {}
        }
        Ok(())
    }

    /// The statement's snapshot ([`begin_read`](Self::begin_read)), or
    /// the latest versions outside a read statement.
    pub(crate) fn view(&self) -> &ReadView {
        self.view.as_ref().unwrap_or(&LATEST)
    }

    /// How plans run in this session, reading through `view`.
    pub(crate) fn run_context<'a>(&'a self, view: &'a ReadView) -> RunContext<'a> {
        RunContext {
            stop: &self.slot.kill_query,
            view,
            threads: self.parallel_threads,
            min_rows: self.parallel_min_rows,
            parallel_scans: Some(&self.slot.counters.parallel_scans),
        }
    }

    /// What a compiled plan depends on: the catalog and the session facts
    /// compiled into it as constants.
    fn plan_version(&self) -> (u64, u64) {
        (self.engine.catalog_version(), self.facts_version)
    }

    /// Records a fact change (USE, a generated id) for cached plans.
    pub(crate) fn facts_changed(&mut self) {
        self.facts_version += 1;
        self.slot.set_database(self.facts.database.as_deref());
    }

    pub(crate) fn rows(
        &self,
        sink: &mut dyn RowSink,
        columns: &[&str],
        rows: Vec<Vec<Value>>,
    ) -> Result<Outcome> {
        let cols: Vec<Column> = columns.iter().map(|c| text_col(c)).collect();
        sink.columns(&cols)?;
        for r in rows {
            sink.row(&r)?;
        }
        Ok(Outcome::Rows)
    }

    /// Runs `f` with an expression compiler over `scope` that sees this
    /// session's facts and variables (no aggregates).
    pub(crate) fn with_compiler<T>(
        &self,
        scope: &[ScopeColumn],
        params: &Params,
        f: impl FnOnce(&mut Compiler<'_>) -> Result<T>,
    ) -> Result<T> {
        let vars = |n: &str| self.variable(n);
        f(&mut Compiler {
            scope,
            params,
            facts: &self.facts,
            aggs: None,
            variable: &vars,
        })
    }

    pub(crate) fn compile_constant(
        &self,
        e: &ast::Expr,
        params: &Params,
    ) -> Result<crate::expr::Expr> {
        self.with_compiler(&[], params, |c| c.compile(e))
    }

    fn run(
        &mut self,
        stmt: &ast::Statement,
        params: &Params,
        args: &[Value],
        sink: &mut dyn RowSink,
    ) -> Result<Outcome> {
        use ast::Statement as S;
        if matches!(
            stmt,
            S::CreateDatabase { .. }
                | S::CreateTable(_)
                | S::CreateIndex(_)
                | S::AlterTable(_)
                | S::Drop { .. }
                | S::Truncate(_)
        ) {
            // DDL commits the open transaction first, as in MySQL.
            self.end_transaction(true)?;
        }
        match stmt {
            S::Query(q) => {
                self.slot.counters.com_select.add(1);
                let plan = self.plan_select(q, params)?;
                self.reading(|s| plan.run(args, &s.run_context(s.view()), sink))?;
                Ok(Outcome::Rows)
            }
            S::Insert(ins) => {
                self.slot.counters.com_insert.add(1);
                self.in_transaction(|s, txn| s.insert(txn, ins, params, args))
            }
            S::Update(u) => {
                self.slot.counters.com_update.add(1);
                self.in_transaction(|s, txn| s.update(txn, u, params, args))
            }
            S::Delete(d) => {
                self.slot.counters.com_delete.add(1);
                self.in_transaction(|s, txn| s.delete(txn, d, params, args))
            }
            S::CreateDatabase {
                db_name,
                if_not_exists,
                ..
            } => {
                let name = object_name(db_name).join(".");
                self.require_database(&name, accounts::CREATE)?;
                self.engine.create_database(&name, *if_not_exists)?;
                Ok(Outcome::done(1))
            }
            S::CreateTable(ct) => self.create_table(ct),
            S::CreateIndex(ci) => self.create_index(ci),
            S::AlterTable(at) => self.alter_table(at),
            S::Drop {
                object_type: ast::ObjectType::User,
                if_exists,
                names,
                ..
            } => self.drop_users(names, *if_exists),
            S::Drop {
                object_type: ast::ObjectType::Index,
                names,
                table: Some(table),
                ..
            } => {
                let t = self.table(&object_name(table), accounts::ALTER)?;
                for n in names {
                    let index = object_name(n).join(".");
                    self.engine
                        .drop_index(&t.def.database, &t.def.name, &index)?;
                }
                Ok(Outcome::done(0))
            }
            S::Drop {
                object_type,
                if_exists,
                names,
                ..
            } => self.drop_objects(object_type, *if_exists, names),
            S::Grant(g) => {
                self.grant_or_revoke(&g.privileges, g.objects.as_ref(), &g.grantees, true)
            }
            S::Revoke(r) => {
                self.grant_or_revoke(&r.privileges, r.objects.as_ref(), &r.grantees, false)
            }
            S::Flush { .. } => Ok(Outcome::done(0)),
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
            S::StartTransaction { .. } => {
                self.end_transaction(true)?;
                self.txn = Some(self.engine.begin());
                self.explicit = true;
                Ok(Outcome::done(0))
            }
            S::Commit { .. } => {
                self.end_transaction(true)?;
                Ok(Outcome::done(0))
            }
            S::Rollback {
                savepoint: None, ..
            } => {
                self.end_transaction(false)?;
                Ok(Outcome::done(0))
            }
            S::Set(set) => self.set(set, params, args),
            S::ShowDatabases { .. }
            | S::ShowTables { .. }
            | S::ShowVariables { .. }
            | S::ShowStatus { .. }
            | S::ShowCreate { .. }
            | S::ShowColumns { .. }
            | S::ShowProcessList { .. }
            | S::ShowVariable { .. }
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

    fn set(&mut self, set: &ast::Set, params: &Params, args: &[Value]) -> Result<Outcome> {
        let assignments: Vec<(String, &ast::Expr)> = match set {
            ast::Set::SingleAssignment {
                variable, values, ..
            } => {
                let name = object_name(variable).join(".");
                values.first().map(|v| vec![(name, v)]).unwrap_or_default()
            }
            ast::Set::MultipleAssignments { assignments } => assignments
                .iter()
                .map(|a| (object_name(&a.name).join("."), &a.value))
                .collect(),
            ast::Set::SetNames { .. } | ast::Set::SetNamesDefault {} => {
                return Ok(Outcome::done(0))
            }
            ast::Set::SetTransaction { modes, .. } => {
                // Applies to the session (MySQL's unscoped form would
                // apply to the next transaction only).
                for m in modes {
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
        for (name, value) in assignments {
            let name = name
                .trim_start_matches("@@")
                .trim_start_matches("session.")
                .trim_start_matches("SESSION.")
                .trim_start_matches("global.")
                .trim_start_matches("GLOBAL.")
                .to_ascii_lowercase();
            // A bare identifier is a keyword value (SET sql_mode = ANSI, SET autocommit = ON).
            let v = match value {
                ast::Expr::Identifier(i) => Value::str(&i.value),
                e => {
                    let x = self.compile_constant(e, params)?;
                    x.eval(
                        &[][..],
                        Env {
                            params: args,
                            aggs: &[],
                        },
                    )?
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
                    .wal()
                    .set_lock_wait_timeout(std::time::Duration::from_secs(secs));
                continue;
            }
            if name == "innodb_flush_log_at_trx_commit" {
                // A global setting: the log is shared by all sessions.
                self.require_superuser("SUPER")?;
                let d = whole(&v)
                    .and_then(lineardb_table::Durability::from_level)
                    .ok_or_else(|| bad_value(&v))?;
                self.engine.wal().set_durability(d);
                continue;
            }
            if name == "lineardb_instrumentation" {
                // Global: wait and restart recording of the whole server.
                self.require_superuser("SUPER")?;
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
        Ok(Outcome::done(0))
    }

    /// SHOW WARNINGS rows for the last statement.
    pub fn warnings(&self) -> &[(u16, String)] {
        &self.warnings
    }

    /// Runs a statement and collects its result (tests, embedded use).
    pub fn query(&mut self, sql: &str) -> Result<(Outcome, CollectSink)> {
        let mut sink = CollectSink::default();
        let o = self.execute(sql, &mut sink)?;
        Ok((o, sink))
    }
}

/// Returns once the log is durable up to `lsn` (a deferred commit's, from
/// [`Session::take_undurable`]); the error to report for the commit if the
/// log failed.
pub fn wait_durable(engine: &Engine, lsn: u64) -> Result<()> {
    Ok(engine.wal().wait_durable(lsn)?)
}
