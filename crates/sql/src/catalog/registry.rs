//! The server's sessions, as SHOW PROCESSLIST, SHOW STATUS, KILL and
//! COM_STATISTICS see them.
//!
//! Each session owns a [`SessionSlot`] on cache lines of its own and is the
//! only writer of its counters (plain load + store, no locked add); readers
//! sum the slots when asked. The registry's list is written only when a
//! session begins or ends, so serving a statement writes nothing another
//! session writes.
use crate::catalog::statement_progress::{Stage, StageCounts};
use crate::waits;
use lineardb_sync::{LocalCounter, Mutex, SharedFlag, SharedWord};
use lineardb_table::Value;
use std::collections::HashMap;
use std::sync::{Arc, Weak};
use std::time::{Duration, Instant};

/// Statement counters of one session, written by that session only.
#[derive(Default)]
pub struct Counters {
    pub questions: LocalCounter,
    pub com_select: LocalCounter,
    pub com_insert: LocalCounter,
    pub com_update: LocalCounter,
    pub com_delete: LocalCounter,
    /// Scans that ran on several threads.
    pub parallel_scans: LocalCounter,
    /// Rows written to spill files (sorts past the memory budget).
    pub spilled_rows: LocalCounter,
}

const COUNTER_NAMES: [&str; 7] = [
    "Questions",
    "Com_select",
    "Com_insert",
    "Com_update",
    "Com_delete",
    "Lineardb_parallel_scans",
    "Lineardb_spilled_rows",
];

impl Counters {
    fn values(&self) -> [u64; 7] {
        [
            self.questions.get(),
            self.com_select.get(),
            self.com_insert.get(),
            self.com_update.get(),
            self.com_delete.get(),
            self.parallel_scans.get(),
            self.spilled_rows.get(),
        ]
    }
}

/// Hashes a digest key, which is a hash already: the key itself.
#[derive(Default)]
pub(crate) struct KeyHasher(u64);

impl std::hash::Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for b in bytes {
            self.0 = self.0.rotate_left(8) ^ *b as u64;
        }
    }
    fn write_u64(&mut self, n: u64) {
        self.0 = n;
    }
}

type DigestMap = HashMap<u64, DigestStats, std::hash::BuildHasherDefault<KeyHasher>>;

/// Latency buckets of a digest: bucket `i` holds [2^i, 2^(i+1)) ns.
const LATENCY_BUCKETS: usize = 40;

/// Statistics of one statement digest.
#[derive(Clone)]
pub(crate) struct DigestStats {
    pub schema: Option<String>,
    pub text: String,
    pub count: u64,
    pub errors: u64,
    pub sum_ns: u64,
    pub min_ns: u64,
    pub max_ns: u64,
    pub histogram: [u64; LATENCY_BUCKETS],
}

impl DigestStats {
    fn new(schema: Option<&str>, text: String) -> DigestStats {
        DigestStats {
            schema: schema.map(str::to_string),
            text,
            count: 0,
            errors: 0,
            sum_ns: 0,
            min_ns: u64::MAX,
            max_ns: 0,
            histogram: [0; LATENCY_BUCKETS],
        }
    }

    fn add(&mut self, ns: u64, error: bool) {
        self.count += 1;
        self.errors += error as u64;
        self.sum_ns += ns;
        self.min_ns = self.min_ns.min(ns);
        self.max_ns = self.max_ns.max(ns);
        let bucket = (63 - ns.max(1).leading_zeros() as usize).min(LATENCY_BUCKETS - 1);
        self.histogram[bucket] += 1;
    }

    fn merge(&mut self, o: &DigestStats) {
        self.count += o.count;
        self.errors += o.errors;
        self.sum_ns += o.sum_ns;
        self.min_ns = self.min_ns.min(o.min_ns);
        self.max_ns = self.max_ns.max(o.max_ns);
        for (a, b) in self.histogram.iter_mut().zip(&o.histogram) {
            *a += b;
        }
    }

    /// The latency (ns) below which a fraction `q` of the statements ran:
    /// the upper end of the bucket that holds that rank (at most the max).
    pub fn quantile(&self, q: f64) -> u64 {
        let rank = (q * self.count as f64).ceil().max(1.0) as u64;
        let mut seen = 0;
        for (i, n) in self.histogram.iter().enumerate() {
            seen += n;
            if seen >= rank {
                return (1u64 << (i + 1)).min(self.max_ns.max(1));
            }
        }
        self.max_ns
    }
}

/// Merges `from` into `into`, digest by digest.
fn merge_digests(into: &mut DigestMap, from: &DigestMap) {
    for (k, d) in from {
        match into.get_mut(k) {
            Some(e) => e.merge(d),
            None => {
                into.insert(*k, d.clone());
            }
        }
    }
}

/// What a session is doing, for SHOW PROCESSLIST.
struct Activity {
    database: Option<String>,
    command: &'static str,
    info: Option<String>,
    since: Instant,
    /// MariaDB's name for what the statement is doing.
    state: &'static str,
    /// The stage a long DDL is in, and how many it has (0, 0: none).
    stage: u8,
    max_stage: u8,
    /// The transaction open or running, as `information_schema.INNODB_TRX`
    /// shows it.
    transaction: Option<ShownTransaction>,
}

/// A session's transaction as INNODB_TRX shows it: one that is open after
/// a statement (BEGIN, or changes with autocommit off), or the running
/// statement's own.
#[derive(Debug, Clone, PartialEq)]
pub struct ShownTransaction {
    pub started: Instant,
    /// The id of a transaction that changed rows; 0 for one that has not.
    pub id: u64,
    pub read_only: bool,
    /// A running statement outside a transaction that locks nothing
    /// (InnoDB's `trx_autocommit_non_locking`).
    pub autocommit_non_locking: bool,
    pub isolation: &'static str,
    pub rows_locked: u64,
}

/// One session's slot. Aligned so that no two sessions share a line.
#[repr(align(128))]
pub struct SessionSlot {
    pub id: u64,
    pub user: String,
    pub host: String,
    pub(crate) counters: Counters,
    activity: Mutex<Activity>,
    /// Rows done in a long DDL's stage.
    stage_counts: StageCounts,
    /// KILL QUERY: the running statement stops at its next check.
    pub(crate) kill_query: Arc<SharedFlag>,
    /// KILL [CONNECTION]: the session ends.
    killed: SharedFlag,
    /// When the running statement passes `max_statement_time`
    /// (microseconds since the registry started; 0: no limit).
    deadline: SharedWord,
    /// The statement was stopped at its deadline.
    timed_out: SharedFlag,
    /// Wakes a connection blocked on its socket (set by the server).
    interrupt: Mutex<Option<Box<dyn Fn() + Send + Sync>>>,
    /// Statement statistics by digest key. Locked by this session once per
    /// statement (its own lock, uncontended) and by readers of
    /// `performance_schema.events_statements_summary_by_digest`.
    digests: Mutex<DigestMap>,
    /// The session's user variables (name as set, value), written by the
    /// session when a statement changes them and read by
    /// `performance_schema.user_variables_by_thread`.
    user_variables: Mutex<Vec<(String, Value)>>,
}

impl SessionSlot {
    /// Shows the session's user variables as they are now.
    pub(crate) fn show_user_variables(&self, variables: &HashMap<String, Value>) {
        let mut shown: Vec<(String, Value)> = variables
            .iter()
            .map(|(n, v)| (n.clone(), v.clone()))
            .collect();
        shown.sort_by(|a, b| a.0.cmp(&b.0));
        *self.user_variables.lock() = shown;
    }

    /// A statement begins; `isolation` (as INNODB_TRX spells it) is the
    /// session's, for the transaction of a statement that runs in its own.
    pub(crate) fn begin(
        &self,
        command: &'static str,
        info: Option<&str>,
        state: &'static str,
        isolation: &'static str,
    ) {
        // Written only when a KILL QUERY came in after the last statement.
        if self.kill_query.get() {
            self.kill_query.set(false);
        }
        let mut a = self.activity.lock();
        a.command = command;
        a.info = info.map(str::to_string);
        a.since = Instant::now();
        a.state = state;
        // A statement outside a transaction runs in its own.
        let since = a.since;
        a.transaction.get_or_insert(ShownTransaction {
            started: since,
            id: 0,
            read_only: false,
            autocommit_non_locking: true,
            isolation,
            rows_locked: 0,
        });
    }

    /// The statement ended, leaving `open` (None: no transaction is open;
    /// a transaction open before keeps its start).
    pub(crate) fn end_leaving(&self, open: Option<ShownTransaction>) {
        let mut a = self.activity.lock();
        a.command = "Sleep";
        a.info = None;
        a.state = "";
        a.stage = 0;
        a.max_stage = 0;
        a.since = Instant::now();
        a.transaction = open.map(|mut t| {
            if let Some(before) = &a.transaction {
                t.started = before.started;
            }
            t
        });
    }

    /// The running statement enters `stage` of `max_stage`, named `state`,
    /// with `total` rows to do.
    pub(crate) fn enter_stage(&self, state: &'static str, stage: u8, max_stage: u8, total: u64) {
        let mut a = self.activity.lock();
        a.state = state;
        a.stage = stage;
        a.max_stage = max_stage;
        self.stage_counts.start(total);
    }

    /// The stage the running statement is in (0: none).
    pub(crate) fn stage(&self) -> u8 {
        self.activity.lock().stage
    }

    /// Rows done so far in the running statement's stage.
    pub(crate) fn stage_counts(&self) -> &StageCounts {
        &self.stage_counts
    }

    pub(crate) fn set_database(&self, db: Option<&str>) {
        self.activity.lock().database = db.map(str::to_string);
    }

    /// Counts a statement of digest `key` that ran `ns` nanoseconds;
    /// `text` makes the digest text the first time the key is seen.
    pub(crate) fn record_statement(
        &self,
        key: u64,
        schema: Option<&str>,
        text: impl FnOnce() -> String,
        ns: u64,
        error: bool,
    ) {
        let mut d = self.digests.lock();
        d.entry(key)
            .or_insert_with(|| DigestStats::new(schema, text()))
            .add(ns, error);
    }

    /// This session's own statement counters, as SHOW SESSION STATUS
    /// gives them.
    pub(crate) fn own_counters(&self) -> impl Iterator<Item = (&'static str, u64)> {
        COUNTER_NAMES.into_iter().zip(self.counters.values())
    }

    pub fn killed(&self) -> bool {
        self.killed.get()
    }

    /// The server's way to wake this connection when it is killed.
    pub fn on_interrupt(&self, f: impl Fn() + Send + Sync + 'static) {
        *self.interrupt.lock() = Some(Box::new(f));
    }

    /// Takes over `from`'s way to wake the connection (a new login on it).
    pub(crate) fn take_interrupt(&self, from: &SessionSlot) {
        *self.interrupt.lock() = from.interrupt.lock().take();
    }
}

/// One row of SHOW PROCESSLIST.
pub struct Process {
    pub id: u64,
    pub user: String,
    pub host: String,
    pub database: Option<String>,
    pub command: &'static str,
    /// How long the command has run.
    pub elapsed: Duration,
    pub state: &'static str,
    pub info: Option<String>,
    pub stage: Stage,
    pub transaction: Option<ShownTransaction>,
}

pub struct Registry {
    started: Instant,
    next_id: SharedWord,
    slots: Mutex<Vec<Arc<SessionSlot>>>,
    /// Counters of the sessions that have ended (written at session end).
    ended: [SharedWord; COUNTER_NAMES.len()],
    /// Statement digests of the sessions that have ended.
    ended_digests: Mutex<DigestMap>,
    /// Moved by every account statement; a session reloads its grants
    /// when it finds it moved.
    accounts_version: SharedWord,
    /// Global settings: `max_allowed_packet` (bytes, for new
    /// connections), `max_connections`, and `max_statement_time` (the
    /// default of new sessions, f64 bits).
    max_allowed_packet: SharedWord,
    max_connections: SharedWord,
    max_statement_time: SharedWord,
    /// Whether the server offers TLS, and requires it.
    tls: SharedWord,
    /// The thread that stops statements at their deadline, once started.
    watchdog: std::sync::OnceLock<()>,
    /// LOCK TABLES' locks.
    pub(crate) table_locks: crate::catalog::table_locks::TableLocks,
    /// Values SET GLOBAL gave variables that have no place of their own
    /// above, by name; a new session starts with them. `globals_set` is
    /// read first, so that without any SET GLOBAL nothing takes the lock.
    global_variables: Mutex<HashMap<String, Value>>,
    globals_set: SharedFlag,
    me: Weak<Registry>,
}

/// Default `max_allowed_packet`: 64 MiB (MariaDB's is 16 MiB; a larger one
/// lets 16 MiB values through).
pub const DEFAULT_MAX_ALLOWED_PACKET: u64 = 64 << 20;

impl Default for Registry {
    fn default() -> Self {
        lineardb_sync::wait::register(waits::CLASSES);
        Registry {
            started: Instant::now(),
            next_id: SharedWord::new(1),
            slots: Mutex::with_class(waits::SESSIONS, Vec::new()),
            ended: Default::default(),
            ended_digests: Mutex::with_class(waits::SESSIONS, DigestMap::default()),
            accounts_version: SharedWord::new(0),
            max_allowed_packet: SharedWord::new(DEFAULT_MAX_ALLOWED_PACKET),
            max_connections: SharedWord::new(151),
            max_statement_time: SharedWord::new(0f64.to_bits()),
            tls: SharedWord::new(0),
            watchdog: std::sync::OnceLock::new(),
            table_locks: Default::default(),
            global_variables: Mutex::with_class(waits::SESSIONS, HashMap::new()),
            globals_set: SharedFlag::new(false),
            me: Weak::new(),
        }
    }
}

impl Registry {
    pub fn new() -> Arc<Registry> {
        Arc::new_cyclic(|me| Registry {
            me: me.clone(),
            ..Registry::default()
        })
    }

    /// Records the server's TLS settings (`have_ssl`,
    /// `require_secure_transport`).
    pub fn set_tls(&self, offered: bool, required: bool) {
        self.tls.store(offered as u64 | (required as u64) << 1);
    }

    pub(crate) fn tls_offered(&self) -> bool {
        self.tls.load() & 1 != 0
    }

    pub(crate) fn tls_required(&self) -> bool {
        self.tls.load() & 2 != 0
    }

    pub fn max_allowed_packet(&self) -> u64 {
        self.max_allowed_packet.load()
    }

    pub(crate) fn set_max_allowed_packet(&self, bytes: u64) {
        self.max_allowed_packet.store(bytes);
    }

    pub fn max_connections(&self) -> u64 {
        self.max_connections.load()
    }

    pub(crate) fn set_max_connections(&self, n: u64) {
        self.max_connections.store(n);
    }

    /// Sessions connected now.
    pub fn connections(&self) -> usize {
        self.slots.lock().len()
    }

    /// The value SET GLOBAL gave variable `name`, if any.
    pub(crate) fn global_variable(&self, name: &str) -> Option<Value> {
        if !self.globals_set.get() {
            return None;
        }
        self.global_variables.lock().get(name).cloned()
    }

    /// Every value SET GLOBAL gave (a new session's start).
    pub(crate) fn global_variables(&self) -> HashMap<String, Value> {
        if !self.globals_set.get() {
            return HashMap::new();
        }
        self.global_variables.lock().clone()
    }

    pub(crate) fn set_global_variable(&self, name: &str, value: Value) {
        self.global_variables.lock().insert(name.to_string(), value);
        self.globals_set.set(true);
    }

    pub(crate) fn max_statement_time(&self) -> f64 {
        f64::from_bits(self.max_statement_time.load())
    }

    pub(crate) fn set_max_statement_time(&self, secs: f64) {
        self.max_statement_time.store(secs.to_bits());
    }

    fn micros(&self) -> u64 {
        self.started.elapsed().as_micros() as u64
    }

    /// Stops `slot`'s running statement after `limit` (as KILL QUERY does,
    /// then reported as error 1969). A thread watches the deadlines, made
    /// the first time one is set.
    pub(crate) fn arm_deadline(&self, slot: &SessionSlot, limit: Duration) {
        slot.deadline
            .store(self.micros() + (limit.as_micros() as u64).max(1));
        self.watchdog.get_or_init(|| {
            let me = self.me.clone();
            let _ = std::thread::Builder::new()
                .name("statement-deadlines".into())
                .spawn(move || loop {
                    std::thread::sleep(Duration::from_millis(2));
                    let Some(registry) = me.upgrade() else { return };
                    let now = registry.micros();
                    for s in registry.slots.lock().iter() {
                        let d = s.deadline.load();
                        if d != 0 && now >= d {
                            s.deadline.store(0);
                            s.timed_out.set(true);
                            s.kill_query.set(true);
                        }
                    }
                });
        });
    }

    /// Ends the deadline of `slot`'s statement; whether it had passed.
    pub(crate) fn disarm_deadline(&self, slot: &SessionSlot) -> bool {
        if slot.deadline.load() != 0 {
            slot.deadline.store(0);
        }
        let passed = slot.timed_out.get();
        if passed {
            slot.timed_out.set(false);
        }
        passed
    }

    /// The account store's version (see [`accounts_changed`](Self::accounts_changed)).
    pub fn accounts_version(&self) -> u64 {
        self.accounts_version.load()
    }

    /// Records that account statements changed accounts or grants.
    pub(crate) fn accounts_changed(&self) {
        self.accounts_version.fetch_add(1);
    }

    /// A new connection id (written once per connection, not per query).
    pub fn reserve_id(&self) -> u64 {
        self.next_id.fetch_add(1)
    }

    pub(crate) fn register(&self, id: u64, user: &str, host: &str) -> Arc<SessionSlot> {
        let slot = Arc::new(SessionSlot {
            id,
            user: user.to_string(),
            host: host.to_string(),
            counters: Counters::default(),
            activity: Mutex::with_class(
                waits::SESSIONS,
                Activity {
                    database: None,
                    command: "Sleep",
                    info: None,
                    since: Instant::now(),
                    state: "",
                    stage: 0,
                    max_stage: 0,
                    transaction: None,
                },
            ),
            stage_counts: StageCounts::default(),
            kill_query: Arc::new(SharedFlag::new(false)),
            killed: SharedFlag::new(false),
            deadline: SharedWord::new(0),
            timed_out: SharedFlag::new(false),
            interrupt: Mutex::with_class(waits::SESSIONS, None),
            digests: Mutex::with_class(waits::SESSIONS, DigestMap::default()),
            user_variables: Mutex::with_class(waits::SESSIONS, Vec::new()),
        });
        self.slots.lock().push(slot.clone());
        slot
    }

    pub(crate) fn unregister(&self, slot: &SessionSlot) {
        let mut slots = self.slots.lock();
        slots.retain(|s| s.id != slot.id);
        for (from, to) in slot.counters.values().iter().zip(&self.ended) {
            to.fetch_add(*from);
        }
        drop(slots);
        merge_digests(&mut self.ended_digests.lock(), &slot.digests.lock());
    }

    /// Statement statistics by digest over live and ended sessions.
    pub(crate) fn digests(&self) -> Vec<DigestStats> {
        let mut all = self.ended_digests.lock().clone();
        let slots = self.slots.lock().clone();
        for s in &slots {
            merge_digests(&mut all, &s.digests.lock());
        }
        let mut v: Vec<DigestStats> = all.into_values().collect();
        v.sort_by_key(|d| std::cmp::Reverse(d.sum_ns));
        v
    }

    pub fn uptime_secs(&self) -> u64 {
        self.started.elapsed().as_secs()
    }

    pub fn processes(&self) -> Vec<Process> {
        let slots = self.slots.lock().clone();
        slots
            .iter()
            .map(|s| {
                let a = s.activity.lock();
                Process {
                    id: s.id,
                    user: s.user.clone(),
                    host: s.host.clone(),
                    database: a.database.clone(),
                    command: a.command,
                    elapsed: a.since.elapsed(),
                    state: a.state,
                    info: a.info.clone(),
                    stage: Stage {
                        stage: a.stage,
                        max_stage: a.max_stage,
                        percent: if a.stage == 0 {
                            0.0
                        } else {
                            s.stage_counts.percent()
                        },
                    },
                    transaction: a.transaction.clone(),
                }
            })
            .collect()
    }

    /// Each session's user variables: its id, a name and its value.
    pub(crate) fn user_variables(&self) -> Vec<(u64, String, Value)> {
        let slots = self.slots.lock().clone();
        let mut out = Vec::new();
        for s in &slots {
            for (name, value) in s.user_variables.lock().iter() {
                out.push((s.id, name.clone(), value.clone()));
            }
        }
        out
    }

    /// KILL: false if no session has that id.
    pub fn kill(&self, id: u64, query_only: bool) -> bool {
        let slot = self.slots.lock().iter().find(|s| s.id == id).cloned();
        let Some(slot) = slot else { return false };
        slot.kill_query.set(true);
        if !query_only {
            slot.killed.set(true);
            if let Some(f) = slot.interrupt.lock().as_ref() {
                f();
            }
        }
        true
    }

    /// Global status: counters summed over live and ended sessions.
    pub fn status(&self) -> Vec<(&'static str, u64)> {
        let slots = self.slots.lock().clone();
        let mut out: Vec<(&'static str, u64)> = COUNTER_NAMES
            .iter()
            .zip(&self.ended)
            .map(|(n, c)| (*n, c.load()))
            .collect();
        for s in &slots {
            for (o, v) in out.iter_mut().zip(s.counters.values()) {
                o.1 += v;
            }
        }
        let running = slots
            .iter()
            .filter(|s| s.activity.lock().command != "Sleep")
            .count() as u64;
        let questions = out[0].1;
        out.push(("Queries", questions));
        out.push(("Threads_connected", slots.len() as u64));
        out.push(("Threads_running", running));
        out.push(("Connections", self.next_id.load() - 1));
        out.push(("Uptime", self.uptime_secs()));
        out.sort_by_key(|(n, _)| *n);
        out
    }

    /// The one-line text of COM_STATISTICS (mysqladmin status).
    pub fn statistics_line(&self, open_tables: usize) -> String {
        let status = self.status();
        let get = |n: &str| status.iter().find(|(k, _)| *k == n).map_or(0, |(_, v)| *v);
        let uptime = get("Uptime");
        format!(
            "Uptime: {uptime}  Threads: {}  Questions: {}  Slow queries: 0  Opens: {open_tables}  Open tables: {open_tables}  Queries per second avg: {:.3}",
            get("Threads_connected"),
            get("Questions"),
            get("Questions") as f64 / uptime.max(1) as f64
        )
    }
}
