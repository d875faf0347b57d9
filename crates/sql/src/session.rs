//! A client session: current database, variables, warnings, prepared
//! statements and a cache of table handles. Nothing here is shared with
//! other sessions; the engine's catalog version is read (never written)
//! to know when cached handles are stale.
use crate::catalog::registry::{Registry, SessionSlot};
use crate::catalog::system_variables::{self, Scope};
use crate::catalog::table_locks::{LockMode, TableLocks, TableName};
use crate::error::{Result, SqlError};
use crate::expr::{Params, SessionFacts};
use crate::names::qualify;
use crate::planner::plan::QueryPlan;
use crate::privileges::grants::Grants;
use crate::result::Column;
use crate::SERVER_VERSION;
use lineardb_table::{Engine, Table, Value};
use lineardb_txn::{ReadView, Reader, Txn};
use sqlparser::ast;
use std::collections::{HashMap, HashSet};
use std::sync::Arc;

/// Default `lineardb_parallel_min_rows`: below this a scan is over before
/// threads would pay off.
const DEFAULT_PARALLEL_MIN_ROWS: u64 = 50_000;

/// Default `lineardb_query_memory`: 1 GiB.
const DEFAULT_QUERY_MEMORY: usize = 1 << 30;

/// A prepared statement.
pub struct Prepared {
    pub(crate) statement: ast::Statement,
    pub(crate) params: Params,
    /// Compiled SELECT, if it is one, and the [`Session::plan_version`] it
    /// was planned at (re-planned when that moves).
    pub(crate) plan: Option<(QueryPlan, (u64, u64))>,
    pub columns: Vec<Column>,
    /// The statement's digest text, made once at prepare, and its key for
    /// the schema it last ran in.
    pub(crate) digest: String,
    pub(crate) digest_key: Option<(Option<String>, u64)>,
    /// The text the statement was parsed from.
    pub(crate) text: Arc<str>,
    /// Whether it assigns user variables (`:=`).
    pub(crate) assigns: bool,
    /// Whether its result columns are typed by the values bound to its
    /// parameters (`SELECT ? + 1`): planned again when their kinds change.
    pub(crate) typed_by_parameters: bool,
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
    /// Replaced by a reset session that holds its slot now (its end
    /// leaves the slot registered).
    detached: bool,
    pub(crate) facts: SessionFacts,
    pub(crate) grants: Grants,
    /// The account store version `grants` were read at.
    pub(crate) grants_version: u64,
    /// Bumped when a fact a compiled plan may hold (current database,
    /// last insert id) changes: cached prepared plans are then re-planned.
    pub(crate) facts_version: u64,
    /// Whether the plan last made holds `information_schema` rows.
    pub(crate) planned_information_schema: bool,
    /// The CHECK OPTION of the view the running statement changes rows
    /// through.
    pub(crate) view_check: Option<ViewCheck>,
    pub(crate) variables: HashMap<String, Value>,
    /// The text of the statement running (its select lists are named from
    /// it).
    pub(crate) statement_text: Option<Arc<str>>,
    /// SQL prepared statements (PREPARE name FROM ...), by lowercase name.
    pub(crate) named_statements: HashMap<String, Prepared>,
    /// Text statements' shapes, prepared once (see [`crate::statement_cache`]).
    pub(crate) statement_cache: crate::statement_cache::StatementCache,
    /// Threads a big scan may use (`lineardb_parallel_threads`).
    pub(crate) parallel_threads: usize,
    /// Fewest rows (tree estimate) a scan needs to go parallel
    /// (`lineardb_parallel_min_rows`).
    pub(crate) parallel_min_rows: u64,
    pub(crate) warnings: Vec<(u16, String)>,
    /// What the reply to the statement running (or last run) reports
    /// besides its result: flags of the server status and the session
    /// state it changed.
    pub(crate) report: StatementReport,
    /// The error the last statement failed with, which SHOW WARNINGS and
    /// SHOW ERRORS list after its warnings, as MariaDB does.
    pub(crate) error: Option<(u16, String)>,
    /// The last statement was SHOW WARNINGS or SHOW ERRORS: it kept the
    /// warnings but reports none of its own.
    pub(crate) showing_diagnostics: bool,
    pub(crate) tables: TableCache,
    pub(crate) autocommit: bool,
    /// The open transaction: one that BEGIN started, or (autocommit off)
    /// the one the last change joined. Autocommit statements outside it
    /// commit on their own.
    pub(crate) txn: Option<Txn>,
    /// BEGIN / START TRANSACTION is in force (until COMMIT or ROLLBACK).
    pub(crate) explicit: bool,
    /// START TRANSACTION READ ONLY is in force: changes of rows are 1792.
    pub(crate) read_only_transaction: bool,
    /// The open transaction's savepoints, oldest first: name and the
    /// transaction's undo position when set.
    pub(crate) savepoints: Vec<(String, usize)>,
    /// The tables LOCK TABLES holds (database and name lowercase), while
    /// it is in force: statements may use those only.
    pub(crate) locked_tables: Option<HashMap<TableName, LockMode>>,
    /// Takes this session's snapshots (its own view slot), from the first
    /// read on.
    pub(crate) reader: Option<Reader>,
    /// The snapshot of the running statement, or at REPEATABLE READ of the
    /// open transaction (taken at its first read, kept to its end).
    pub(crate) view: Option<ReadView>,
    /// `transaction_isolation` as MySQL spells it. READ-UNCOMMITTED reads
    /// as READ-COMMITTED, SERIALIZABLE as REPEATABLE-READ.
    pub(crate) isolation: &'static str,
    /// SET TRANSACTION ISOLATION LEVEL without SESSION: the level of the
    /// next transaction only (the session's again once it ends).
    pub(crate) next_isolation: Option<&'static str>,
    /// `max_statement_time` in seconds (0: no limit): a statement running
    /// longer is stopped with error 1969.
    pub(crate) max_statement_time: f64,
    /// `sql_select_limit` when set below its default: the most rows a
    /// client's SELECT without a LIMIT of its own returns.
    pub(crate) select_limit: Option<u64>,
    /// `lineardb_query_memory`: bytes one query may hold for ORDER BY,
    /// DISTINCT and GROUP BY (per thread) before it fails with 1038.
    pub(crate) query_memory: usize,
    /// The previous statement's warnings and errors, counted
    /// (`@@warning_count`, `@@error_count`).
    pub(crate) previous_diagnostics: (u64, u64),
    /// The client asked for found rows (CLIENT_FOUND_ROWS): an UPDATE
    /// reports the rows it matched, not only those it changed.
    pub(crate) found_rows: bool,
    /// Rows the last statement changed (ROW_COUNT() in the next one).
    pub(crate) row_count: i64,
    /// The connection's TLS version and cipher, if it uses TLS.
    pub(crate) tls: Option<(String, String)>,
    /// Commits do not wait for the log ([`set_deferred_durability`](Self::set_deferred_durability)).
    pub(crate) deferred_durability: bool,
    /// The log position a deferred commit of this session needs durable
    /// before it is reported.
    pub(crate) undurable: Option<u64>,
}

/// The view every current read uses (UPDATE, DELETE, the grant tables):
/// the latest version of each row, which the reader locks.
static LATEST: ReadView = ReadView::latest();

impl Drop for Session {
    fn drop(&mut self) {
        if let Some(owner) = self.tables.temporary_owner() {
            // Its transaction first: it may have written to them.
            if let Some(txn) = self.txn.take() {
                let _ = txn.rollback();
            }
            let dropped = self.tables.free_dropped(&self.engine).and_then(|()| {
                self.engine
                    .drop_temporary_tables(owner)
                    .map_err(SqlError::from)
            });
            if let Err(e) = dropped {
                // The next start discards them.
                eprintln!("lineardb: dropping a session's temporary tables failed: {e}");
            }
        }
        if self.locked_tables.is_some() || self.registry.table_locks.holds_global_read(self.slot.id)
        {
            self.registry.table_locks.release(self.slot.id);
        }
        if !self.detached {
            self.registry.unregister(&self.slot);
        }
    }
}

/// A view's CHECK OPTION that the rows a statement writes through it must
/// meet: the condition (over the base table's columns) and the view whose
/// error it is.
pub(crate) struct ViewCheck {
    /// The base table (database, name), lowercase.
    pub table: (String, String),
    pub label: String,
    pub condition: sqlparser::ast::Expr,
}

/// A session's table handles, dropped whenever the catalog version moved,
/// and the names of its temporary tables, which shadow permanent tables of
/// the same names.
#[derive(Default)]
pub(crate) struct TableCache {
    version: Option<u64>,
    tables: HashMap<(String, String), Arc<Table>>,
    /// The session's temporary tables (db and name lowercase) and their
    /// owner id in the engine, taken at the first one.
    temporary: HashSet<(String, String)>,
    owner: Option<u64>,
    /// Temporary tables dropped while a transaction was open: their trees
    /// are freed when it ends (its undo may still need them).
    dropped: Vec<Arc<Table>>,
    /// Per parent table (db and name lowercase): the tables whose foreign
    /// keys reference it, and which key; made when first asked after a
    /// catalog change.
    references: Option<Arc<References>>,
}

/// Per parent table (db and name lowercase): the tables whose foreign
/// keys reference it (db, name), and which key of theirs.
pub(crate) type References = HashMap<(String, String), Vec<((String, String), usize)>>;

fn lowercase(db: &str, name: &str) -> (String, String) {
    (db.to_ascii_lowercase(), name.to_ascii_lowercase())
}

impl TableCache {
    pub(crate) fn get(
        &mut self,
        engine: &Engine,
        (db, name): (String, String),
    ) -> Result<Arc<Table>> {
        self.refresh(engine);
        let key = lowercase(&db, &name);
        if let Some(t) = self.tables.get(&key) {
            return Ok(t.clone());
        }
        let temporary = match self.owner {
            Some(owner) if self.temporary.contains(&key) => {
                engine.temporary_table(owner, &db, &name)
            }
            _ => None,
        };
        let t = match temporary {
            Some(t) => t,
            // A table of a database that does not exist is a table that
            // does not exist (1146), as in MariaDB.
            None => engine.table(&db, &name).map_err(|e| match e {
                lineardb_table::Error::NoSuchTable(_)
                    if engine.view(&db, &name).ok().flatten().is_some() =>
                {
                    // Only queries read views yet.
                    SqlError::unsupported("this statement on a view")
                }
                lineardb_table::Error::NoSuchTable(_)
                | lineardb_table::Error::NoSuchDatabase(_) => SqlError::unknown_table(&db, &name),
                e => e.into(),
            })?,
        };
        self.tables.insert(key, t.clone());
        Ok(t)
    }

    /// Whether `db.name` is a table the session has open now (so no view):
    /// what an INSERT, UPDATE or DELETE asks before looking for a view.
    pub(crate) fn holds(&mut self, engine: &Engine, db: &str, name: &str) -> bool {
        self.refresh(engine);
        !self.tables.is_empty() && self.tables.contains_key(&lowercase(db, name))
    }

    /// Forgets what a catalog change may have changed.
    fn refresh(&mut self, engine: &Engine) {
        let version = engine.catalog_version();
        if self.version != Some(version) {
            self.tables.clear();
            self.references = None;
            self.version = Some(version);
        }
    }

    /// Per parent table, the foreign keys that reference it.
    pub(crate) fn references(&mut self, engine: &Engine) -> Result<Arc<References>> {
        self.refresh(engine);
        if let Some(r) = &self.references {
            return Ok(r.clone());
        }
        let mut references = References::new();
        for def in engine.all_table_defs()? {
            for (k, fk) in def.foreign_keys.iter().enumerate() {
                references
                    .entry(lowercase(&fk.parent_database, &fk.parent_table))
                    .or_default()
                    .push(((def.database.clone(), def.name.clone()), k));
            }
        }
        let references = Arc::new(references);
        self.references = Some(references.clone());
        Ok(references)
    }

    /// Whether `db.name` names one of the session's temporary tables.
    pub(crate) fn is_temporary(&self, db: &str, name: &str) -> bool {
        !self.temporary.is_empty() && self.temporary.contains(&lowercase(db, name))
    }

    /// The session's owner id for temporary tables (taken from the engine
    /// at the first one).
    pub(crate) fn owner(&mut self, engine: &Engine) -> u64 {
        *self.owner.get_or_insert_with(|| engine.temporary_owner())
    }

    pub(crate) fn add_temporary(&mut self, db: &str, name: &str) {
        self.temporary.insert(lowercase(db, name));
    }

    /// The owner id, if the session ever made a temporary table.
    pub(crate) fn temporary_owner(&self) -> Option<u64> {
        self.owner
    }

    /// Drops the session's temporary table `db.name`: at once, or, with
    /// `in_transaction`, takes its name now and frees it at
    /// [`free_dropped`](Self::free_dropped).
    pub(crate) fn drop_temporary(
        &mut self,
        engine: &Engine,
        db: &str,
        name: &str,
        in_transaction: bool,
    ) -> Result<()> {
        let t = self.get(engine, (db.to_string(), name.to_string()))?;
        self.temporary.remove(&lowercase(db, name));
        if in_transaction {
            engine.detach_temporary(&t);
            self.dropped.push(t);
            return Ok(());
        }
        Ok(engine.remove_table(&t)?)
    }

    /// Frees the temporary tables dropped during the transaction that
    /// just ended.
    pub(crate) fn free_dropped(&mut self, engine: &Engine) -> Result<()> {
        for t in std::mem::take(&mut self.dropped) {
            engine.remove_table(&t)?;
        }
        Ok(())
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
        Session::in_slot(engine, registry, slot, grants)
    }

    /// A new session of the login `slot` holds.
    fn in_slot(
        engine: Arc<Engine>,
        registry: &Arc<Registry>,
        slot: Arc<SessionSlot>,
        grants: Grants,
    ) -> Session {
        let (user, host) = (slot.user.clone(), slot.host.clone());
        let account = grants.account.as_ref().map_or_else(
            || format!("{user}@{host}"),
            |a| format!("{}@{}", a.user, a.host),
        );
        let file_privilege = grants.global & crate::privileges::bits::FILE != 0;
        Session {
            grants,
            grants_version: registry.accounts_version(),
            engine,
            registry: registry.clone(),
            facts: SessionFacts {
                database: None,
                user: format!("{user}@{host}"),
                account,
                connection_id: slot.id,
                last_insert_id: 0,
                file_privilege,
                max_allowed_packet: registry.max_allowed_packet(),
                connection_collation: lineardb_table::Collation::default(),
                user_variables: Default::default(),
                time_zone: Default::default(),
            },
            slot,
            facts_version: 0,
            planned_information_schema: false,
            view_check: None,
            variables: HashMap::new(),
            named_statements: HashMap::new(),
            statement_cache: Default::default(),
            statement_text: None,
            parallel_threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
            parallel_min_rows: DEFAULT_PARALLEL_MIN_ROWS,
            warnings: Vec::new(),
            report: StatementReport::default(),
            error: None,
            showing_diagnostics: false,
            tables: TableCache::default(),
            autocommit: true,
            txn: None,
            explicit: false,
            read_only_transaction: false,
            savepoints: Vec::new(),
            locked_tables: None,
            reader: None,
            view: None,
            isolation: "REPEATABLE-READ",
            next_isolation: None,
            max_statement_time: registry.max_statement_time(),
            select_limit: None,
            tls: None,
            query_memory: DEFAULT_QUERY_MEMORY,
            previous_diagnostics: (0, 0),
            found_rows: false,
            row_count: 0,
            deferred_durability: false,
            undurable: None,
            detached: false,
        }
        .starting_from_global_values()
    }

    /// COM_CHANGE_USER: a new login of `user` from `host` with `grants`
    /// on this connection (its id stays), in no database; the session
    /// before it ends as at a disconnect.
    pub fn change_user(&mut self, user: &str, host: &str, grants: Grants) {
        self.registry.unregister(&self.slot);
        let slot = self.registry.register(self.slot.id, user, host);
        slot.take_interrupt(&self.slot);
        let fresh = Session::in_slot(self.engine.clone(), &self.registry.clone(), slot, grants);
        self.replaced_by(fresh);
    }

    /// Makes `fresh` this connection's session (with the connection's
    /// own settings: found rows, TLS, durability and what waits for the
    /// log); the session before ends as at a disconnect but leaves the
    /// slot registered (the fresh one holds it, or it is gone already).
    fn replaced_by(&mut self, mut fresh: Session) {
        fresh.found_rows = self.found_rows;
        fresh.tls = self.tls.clone();
        fresh.deferred_durability = self.deferred_durability;
        fresh.undurable = self.undurable;
        let mut old = std::mem::replace(self, fresh);
        old.detached = true;
    }

    /// The host the client connects from.
    pub fn client_host(&self) -> String {
        self.slot.host.clone()
    }

    /// Whether the connection runs over TLS.
    pub fn secure(&self) -> bool {
        self.tls.is_some()
    }

    /// COM_RESET_CONNECTION: the session as a new login of the same
    /// account would start it, in the same database, under the same
    /// connection id: its transaction rolled back, its temporary tables
    /// dropped, its table locks released, its variables, user variables and
    /// prepared statements gone.
    pub fn reset(&mut self) {
        let mut fresh = Session::in_slot(
            self.engine.clone(),
            &self.registry.clone(),
            self.slot.clone(),
            self.grants.clone(),
        );
        fresh.facts.database = self.facts.database.clone();
        self.replaced_by(fresh);
    }

    /// The session with the values SET GLOBAL gave the variables a
    /// session has its own value of, as MariaDB starts a session: each put
    /// where it lives, as SET puts it.
    fn starting_from_global_values(mut self) -> Session {
        for (name, value) in self.registry.global_variables() {
            let Some(def) = system_variables::definition(&name) else {
                continue;
            };
            if def.scope != Scope::Both {
                continue;
            }
            // The values were checked by SET GLOBAL.
            let placed = system_variables::treatment(&name)
                == system_variables::Treatment::Followed
                && self.follow(&name, &value, false).unwrap_or(false);
            if !placed {
                self.variables.insert(name, value);
            }
        }
        self
    }

    /// Starts a statement's diagnostics: the previous statement's are
    /// counted, then dropped.
    pub(crate) fn clear_diagnostics(&mut self) {
        let errors = self.error.is_some() as u64;
        self.previous_diagnostics = (self.warnings.len() as u64 + errors, errors);
        self.warnings.clear();
        self.error = None;
    }

    /// Records that the connection runs over TLS (`Ssl_version`,
    /// `Ssl_cipher`).
    pub fn set_tls(&mut self, version: String, cipher: String) {
        self.tls = Some((version, cipher));
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
        (!self.engine.is_durable(lsn)).then_some(lsn)
    }

    pub fn database(&self) -> Option<&str> {
        self.facts.database.as_deref()
    }

    /// What the last statement's reply reports besides its result.
    pub fn statement_report(&self) -> &StatementReport {
        &self.report
    }

    /// A statement starts: its reply reports nothing yet.
    pub(crate) fn start_report(&mut self) {
        if self.report != StatementReport::default() {
            self.report = StatementReport::default();
        }
    }

    /// A plan that reads a stored table whole is about to run.
    pub(crate) fn note_plan(&mut self, plan: &crate::planner::plan::QueryPlan) {
        if plan.reads_a_table_whole() {
            self.report.no_index_used = true;
        }
    }

    /// A session variable was set: reported to the client when
    /// `session_track_system_variables` names it (or is `*`).
    pub(crate) fn note_variable_set(&mut self, name: &str, shown: String) {
        let tracked = self
            .variable("session_track_system_variables")
            .and_then(|v| v.to_text())
            .unwrap_or_default();
        let tracks = tracked
            .split(',')
            .any(|t| t.trim() == "*" || t.trim().eq_ignore_ascii_case(name));
        if tracks {
            self.report.changed_variables.retain(|(n, _)| n != name);
            self.report
                .changed_variables
                .push((name.to_string(), shown));
        }
    }

    /// The warnings the last statement reports with its result.
    pub fn warning_count(&self) -> u16 {
        if self.showing_diagnostics {
            return 0;
        }
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

    /// CLIENT_FOUND_ROWS: UPDATE reports rows matched.
    pub fn set_found_rows(&mut self, on: bool) {
        self.found_rows = on;
    }

    /// Whether a transaction is open (COMMIT would end one), and whether
    /// it is READ ONLY: the server status flags IN_TRANS and
    /// IN_TRANS_READONLY drivers read to decide whether to send COMMIT.
    pub fn open_transaction(&self) -> Option<bool> {
        let open =
            self.explicit || (!self.autocommit && (self.txn.is_some() || self.view.is_some()));
        open.then_some(self.read_only_transaction)
    }

    /// The statement ended: the session's slot shows it idle, and the
    /// transaction it leaves open (INNODB_TRX).
    pub(crate) fn end_statement(&self) {
        let open =
            self.open_transaction()
                .map(|read_only| crate::catalog::registry::ShownTransaction {
                    started: std::time::Instant::now(),
                    id: self.txn.as_ref().map_or(0, Txn::id_if_started),
                    read_only,
                    autocommit_non_locking: false,
                    isolation: crate::catalog::system_variables::shown_isolation(self.isolation),
                    rows_locked: self.txn.as_ref().map_or(0, |t| t.locks_held() as u64),
                });
        self.slot.end_leaving(open);
    }

    /// USE / COM_INIT_DB.
    pub fn use_database(&mut self, db: &str) -> Result<()> {
        self.require_database_visible(db)?;
        // The server's own schemas are no databases of the engine; their
        // names are kept as MariaDB spells them.
        let db = if crate::names::is_information_schema(db) {
            crate::catalog::information_schema::SCHEMA
        } else if crate::names::is_performance_schema(db) {
            crate::catalog::perf_schema::SCHEMA
        } else if self.engine.database_exists(db)? {
            db
        } else {
            return Err(lineardb_table::Error::NoSuchDatabase(db.to_string()).into());
        };
        self.facts.database = Some(db.to_string());
        self.facts_changed();
        Ok(())
    }

    /// A system variable's value in this session (its session value, or
    /// the server's for a global-only variable); `None` for a name
    /// lineardb does not know.
    pub fn variable(&self, name: &str) -> Option<Value> {
        let lower = name.to_ascii_lowercase();
        let def = system_variables::definition(&lower)?;
        // A variable the session keeps in a place of its own reads from
        // there: what statements follow is what it shows.
        if let Some(v) = self.session_fact(&lower) {
            return Some(v);
        }
        if let Some(v) = self.variables.get(&lower) {
            return Some(v.clone());
        }
        if let Some(v) = self.server_fact(&lower) {
            return Some(v);
        }
        if def.scope == Scope::Global {
            if let Some(v) = self.registry.global_variable(&lower) {
                return Some(v);
            }
        }
        Some(def.default_value())
    }

    /// `@@name`, `@@session.name`, `@@local.name` or `@@global.name`
    /// (`written` without the `@@`): 1193 for an unknown name, 1238 for
    /// a scope the variable does not have.
    pub(crate) fn system_variable(&self, written: &str) -> Result<Value> {
        let (scope, name) = match written.split_once('.') {
            Some((s, n)) if s.eq_ignore_ascii_case("global") => (Some(Scope::Global), n),
            Some((s, n))
                if s.eq_ignore_ascii_case("session") || s.eq_ignore_ascii_case("local") =>
            {
                (Some(Scope::Session), n)
            }
            _ => (None, written),
        };
        let lower = name.to_ascii_lowercase();
        let def =
            system_variables::definition(&lower).ok_or_else(|| system_variables::unknown(name))?;
        let wrong_scope = |what: &str| {
            SqlError::new(
                1238,
                "HY000",
                format!("Variable '{lower}' is a {what} variable"),
            )
        };
        match (scope, def.scope) {
            (Some(Scope::Global), Scope::Session) => Err(wrong_scope("SESSION")),
            (Some(Scope::Session), Scope::Global) => Err(wrong_scope("GLOBAL")),
            (Some(Scope::Global), _) => Ok(self.global_value(def)),
            _ => Ok(self.variable(&lower).unwrap_or(Value::Null)),
        }
    }

    /// A variable's server-wide value (`@@global.name`).
    pub(crate) fn global_value(&self, def: &system_variables::Definition) -> Value {
        self.server_fact(def.name)
            .or_else(|| self.registry.global_variable(def.name))
            .unwrap_or_else(|| def.default_value())
    }

    /// Values that are this session's own.
    fn session_fact(&self, name: &str) -> Option<Value> {
        Some(match name {
            "autocommit" => Value::Int(self.autocommit as i64),
            "max_statement_time" => system_variables::double_value(self.max_statement_time),
            "transaction_isolation" | "tx_isolation" => Value::str(self.isolation),
            // The current database's default (the server's without one).
            "collation_database" | "character_set_database"
                if !self.variables.contains_key(name) =>
            {
                let c = self
                    .facts
                    .database
                    .as_deref()
                    .and_then(|db| self.engine.database_collation(db).ok())
                    .unwrap_or_default();
                Value::str(if name == "collation_database" {
                    c.name()
                } else {
                    c.charset()
                })
            }
            "lineardb_parallel_threads" => Value::UInt(self.parallel_threads as u64),
            "lineardb_parallel_min_rows" => Value::UInt(self.parallel_min_rows),
            "lineardb_query_memory" => Value::UInt(self.query_memory as u64),
            "warning_count" => Value::UInt(self.previous_diagnostics.0),
            "error_count" => Value::UInt(self.previous_diagnostics.1),
            "last_insert_id" | "identity" => Value::UInt(self.facts.last_insert_id),
            "timestamp" => Value::Decimal(lineardb_table::Dec::new(
                i128::from(crate::expr::clock::statement_utc()),
                6,
            )),
            _ => return None,
        })
    }

    /// Facts of the server and the engine that differ from MariaDB's
    /// defaults, or that lineardb keeps in places of their own.
    fn server_fact(&self, name: &str) -> Option<Value> {
        Some(match name {
            "version" => Value::str(SERVER_VERSION),
            "version_comment" => Value::str("lineardb"),
            "max_allowed_packet" => Value::UInt(self.registry.max_allowed_packet()),
            "max_connections" => Value::UInt(self.registry.max_connections()),
            "innodb_lock_wait_timeout" => Value::UInt(self.engine.lock_wait_timeout().as_secs()),
            "innodb_flush_log_at_trx_commit" => Value::UInt(self.engine.flush_log_at_trx_commit()),
            "lower_case_table_names" => Value::UInt(1),
            "license" => Value::str("Apache-2.0"),
            "have_ssl" | "have_openssl" => Value::str(if self.registry.tls_offered() {
                "YES"
            } else {
                "DISABLED"
            }),
            "require_secure_transport" => Value::Int(self.registry.tls_required() as i64),
            "port" => Value::UInt(3306),
            // No unix socket: clients that prefer one stay on TCP.
            "socket" => Value::str(""),
            "hostname" => Value::str("localhost"),
            "have_query_cache" => Value::str("NO"),
            "version_compile_os" => Value::str(std::env::consts::OS),
            "version_compile_machine" => Value::str(std::env::consts::ARCH),
            "default_storage_engine" | "storage_engine" => Value::str(crate::catalog::ENGINE_NAME),
            "log_bin" => Value::Int(0),
            "performance_schema" => Value::Int(1),
            "character_set_system" => Value::str("utf8mb4"),
            "system_time_zone" => Value::str(&crate::expr::clock::system_zone_name()),
            "lineardb_instrumentation" => Value::Int(lineardb_sync::wait::enabled() as i64),
            _ => return None,
        })
    }

    /// `[db, name]` or `[name]` (in the current database) as (db, name).
    pub(crate) fn qualified(&self, parts: &[String]) -> Result<(String, String)> {
        qualify(self.facts.database.as_deref(), parts)
    }

    /// A table the session may use for `privilege` (a
    /// [`bits`](crate::privileges::bits) bit, on the whole table).
    pub(crate) fn table(&mut self, parts: &[String], privilege: u64) -> Result<Arc<Table>> {
        let (db, name) = self.qualified(parts)?;
        // A session's temporary table is its own: no further checks, as
        // in MariaDB.
        if !self.tables.is_temporary(&db, &name) {
            self.require_table(&db, &name, privilege)?;
            self.table_lock_allows(&db, &name, privilege != crate::privileges::bits::SELECT)?;
        }
        self.tables.get(&self.engine, (db, name))
    }

    /// A table the session may show: its definition (SHOW CREATE TABLE,
    /// else 1142 for `SHOW`) or, `columns`, its columns and indexes (SHOW
    /// COLUMNS, SHOW INDEX, else 1142 for `SELECT`).
    pub(crate) fn table_to_show(&mut self, parts: &[String], columns: bool) -> Result<Arc<Table>> {
        let (db, name) = self.qualified(parts)?;
        let (allowed, command) = if columns {
            (self.grants.may_describe(&db, &name), "SELECT")
        } else {
            (self.grants.may_show_definition(&db, &name), "SHOW")
        };
        if !allowed && !self.tables.is_temporary(&db, &name) {
            return Err(self.access().table_denied(command, &db, &name));
        }
        self.tables.get(&self.engine, (db, name))
    }

    /// A table the session may change `columns` of with `privilege`
    /// (INSERT, UPDATE): the table's grant, or a column grant on each.
    pub(crate) fn table_columns(
        &mut self,
        parts: &[String],
        privilege: u64,
        columns: impl FnOnce(&Table) -> Vec<String>,
    ) -> Result<Arc<Table>> {
        let (db, name) = self.qualified(parts)?;
        if self.tables.is_temporary(&db, &name) {
            return self.tables.get(&self.engine, (db, name));
        }
        self.table_lock_allows(&db, &name, true)?;
        if self.grants.on_table(&db, &name) & privilege != 0 {
            return self.tables.get(&self.engine, (db, name));
        }
        if !self.grants.has_column_grants(&db, &name, privilege) {
            self.require_table(&db, &name, privilege)?;
        }
        let t = self.tables.get(&self.engine, (db.clone(), name.clone()))?;
        let columns = columns(&t);
        self.require_columns(&db, &name, privilege, columns.iter().map(String::as_str))?;
        Ok(t)
    }

    /// Whether this statement may use permanent table `db`.`name`
    /// (changing it when `write`) as LOCK TABLES has it: under the
    /// session's own LOCK TABLES, a table it locked (1100), WRITE-locked
    /// to be changed (1099); else after other sessions' table locks that
    /// stand in the way are released ([`TableLocks::wait_for`]).
    pub(crate) fn table_lock_allows(&self, db: &str, name: &str, write: bool) -> Result<()> {
        table_lock_allows(
            self.locked_tables.as_ref(),
            &self.registry.table_locks,
            self.slot.id,
            (db, name),
            write,
            self.table_lock_wait(),
        )
    }

    /// How long a statement waits for other sessions' table locks and
    /// global read lock: `lock_wait_timeout` (MariaDB's metadata-lock
    /// wait; row locks wait `innodb_lock_wait_timeout`).
    pub(crate) fn table_lock_wait(&self) -> std::time::Duration {
        let secs = self
            .variable("lock_wait_timeout")
            .and_then(|v| v.to_text())
            .and_then(|t| t.parse::<u64>().ok())
            .unwrap_or(86_400);
        std::time::Duration::from_secs(secs)
    }

    /// Whether this statement may change the catalog or the accounts (a
    /// table, a view, a database, a user) past the global read lock
    /// ([`TableLocks::wait_to_change`]).
    pub(crate) fn global_read_lock_allows_change(&self) -> Result<()> {
        self.registry
            .table_locks
            .wait_to_change(self.slot.id, self.table_lock_wait())
    }

    /// The statement's snapshot ([`begin_read`](Self::begin_read)), or
    /// the latest versions outside a read statement.
    pub(crate) fn view(&self) -> &ReadView {
        self.view.as_ref().unwrap_or(&LATEST)
    }

    /// What a compiled plan depends on: the catalog and the session facts
    /// compiled into it as constants.
    pub(crate) fn plan_version(&self) -> (u64, u64) {
        (self.engine.catalog_version(), self.facts_version)
    }

    /// The version a plan just made is kept at: one no later version
    /// equals for a plan holding `information_schema` rows (made again
    /// each run).
    pub(crate) fn kept_plan_version(&self) -> (u64, u64) {
        if self.planned_information_schema {
            (u64::MAX, u64::MAX)
        } else {
            self.plan_version()
        }
    }

    /// Records a fact change (USE, a generated id) for cached plans.
    pub(crate) fn facts_changed(&mut self) {
        self.facts_version += 1;
        self.slot.set_database(self.facts.database.as_deref());
    }

    /// SHOW WARNINGS rows for the last statement.
    pub fn warnings(&self) -> &[(u16, String)] {
        &self.warnings
    }
}

/// Returns once the log is durable up to `lsn` (a deferred commit's, from
/// [`Session::take_undurable`]); the error to report for the commit if the
/// log failed.
pub fn wait_durable(engine: &Engine, lsn: u64) -> Result<()> {
    Ok(engine.wait_durable(lsn)?)
}

/// [`Session::table_lock_allows`], from the parts of a session it reads
/// (the planner's table resolution holds the session itself).
pub(crate) fn table_lock_allows(
    locked: Option<&HashMap<TableName, LockMode>>,
    locks: &TableLocks,
    session: u64,
    (db, name): (&str, &str),
    write: bool,
    timeout: std::time::Duration,
) -> Result<()> {
    if locked.is_none() && locks.none_held() {
        return Ok(());
    }
    let key = lowercase(db, name);
    match locked.map(|l| l.get(&key)) {
        Some(None) => Err(SqlError::new(
            1100,
            "HY000",
            format!("Table '{name}' was not locked with LOCK TABLES"),
        )),
        Some(Some(LockMode::Read)) if write => Err(SqlError::new(
            1099,
            "HY000",
            format!("Table '{name}' was locked with a READ lock and can't be updated"),
        )),
        Some(Some(_)) => Ok(()),
        None => locks.wait_for(session, &key, write, timeout),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every variable answers, in both scopes it has.
    #[test]
    fn every_variable_has_a_value() {
        let dir = tempfile::tempdir().unwrap();
        let engine = Arc::new(
            Engine::open(
                &dir.path().join("t.ldb"),
                lineardb_table::EngineConfig::default(),
            )
            .unwrap(),
        );
        let session = Session::new(engine, &Registry::new());
        for def in system_variables::all() {
            assert!(session.variable(def.name).is_some(), "{}", def.name);
            if def.scope != Scope::Session {
                session
                    .system_variable(&format!("global.{}", def.name))
                    .unwrap();
            }
        }
        assert_eq!(session.system_variable("no_such").unwrap_err().code, 1193);
        assert_eq!(
            session
                .system_variable("session.max_connections")
                .unwrap_err()
                .code,
            1238
        );
    }
}

/// What a statement's reply reports besides its result: the status flags
/// MariaDB sets for a statement (SERVER_QUERY_NO_INDEX_USED,
/// SERVER_STATUS_DB_DROPPED) and the tracked session variables it set.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct StatementReport {
    /// It read a stored table whole, by no key.
    pub no_index_used: bool,
    /// It dropped a database.
    pub database_dropped: bool,
    /// Tracked session variables it set, each with its value as shown, in
    /// the order set.
    pub changed_variables: Vec<(String, String)>,
}
