//! The server's sessions, as SHOW PROCESSLIST, SHOW STATUS, KILL and
//! COM_STATISTICS see them.
//!
//! Each session owns a [`SessionSlot`] on cache lines of its own and is the
//! only writer of its counters (plain load + store, no locked add); readers
//! sum the slots when asked. The registry's list is written only when a
//! session begins or ends, so serving a statement writes nothing another
//! session writes.
use lineardb_sync::{LocalCounter, Mutex, SharedFlag, SharedWord};
use std::sync::Arc;
use std::time::Instant;

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
}

const COUNTER_NAMES: [&str; 6] = [
    "Questions",
    "Com_select",
    "Com_insert",
    "Com_update",
    "Com_delete",
    "Lineardb_parallel_scans",
];

impl Counters {
    fn values(&self) -> [u64; 6] {
        [
            self.questions.get(),
            self.com_select.get(),
            self.com_insert.get(),
            self.com_update.get(),
            self.com_delete.get(),
            self.parallel_scans.get(),
        ]
    }
}

/// What a session is doing, for SHOW PROCESSLIST.
struct Activity {
    database: Option<String>,
    command: &'static str,
    info: Option<String>,
    since: Instant,
}

/// One session's slot. Aligned so that no two sessions share a line.
#[repr(align(128))]
pub struct SessionSlot {
    pub id: u64,
    pub user: String,
    pub host: String,
    pub(crate) counters: Counters,
    activity: Mutex<Activity>,
    /// KILL QUERY: the running statement stops at its next check.
    pub(crate) kill_query: SharedFlag,
    /// KILL [CONNECTION]: the session ends.
    killed: SharedFlag,
    /// Wakes a connection blocked on its socket (set by the server).
    interrupt: Mutex<Option<Box<dyn Fn() + Send + Sync>>>,
}

impl SessionSlot {
    pub(crate) fn begin(&self, command: &'static str, info: Option<&str>) {
        // Written only when a KILL QUERY came in after the last statement.
        if self.kill_query.get() {
            self.kill_query.set(false);
        }
        let mut a = self.activity.lock();
        a.command = command;
        a.info = info.map(str::to_string);
        a.since = Instant::now();
    }

    pub(crate) fn end(&self) {
        let mut a = self.activity.lock();
        a.command = "Sleep";
        a.info = None;
        a.since = Instant::now();
    }

    pub(crate) fn set_database(&self, db: Option<&str>) {
        self.activity.lock().database = db.map(str::to_string);
    }

    pub fn killed(&self) -> bool {
        self.killed.get()
    }

    /// The server's way to wake this connection when it is killed.
    pub fn on_interrupt(&self, f: impl Fn() + Send + Sync + 'static) {
        *self.interrupt.lock() = Some(Box::new(f));
    }
}

/// One row of SHOW PROCESSLIST.
pub struct Process {
    pub id: u64,
    pub user: String,
    pub host: String,
    pub database: Option<String>,
    pub command: &'static str,
    pub seconds: u64,
    pub info: Option<String>,
}

pub struct Registry {
    started: Instant,
    next_id: SharedWord,
    slots: Mutex<Vec<Arc<SessionSlot>>>,
    /// Counters of the sessions that have ended (written at session end).
    ended: [SharedWord; COUNTER_NAMES.len()],
}

impl Default for Registry {
    fn default() -> Self {
        Registry {
            started: Instant::now(),
            next_id: SharedWord::new(1),
            slots: Mutex::new(Vec::new()),
            ended: Default::default(),
        }
    }
}

impl Registry {
    pub fn new() -> Arc<Registry> {
        Arc::new(Registry::default())
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
            activity: Mutex::new(Activity {
                database: None,
                command: "Sleep",
                info: None,
                since: Instant::now(),
            }),
            kill_query: SharedFlag::new(false),
            killed: SharedFlag::new(false),
            interrupt: Mutex::new(None),
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
                    seconds: a.since.elapsed().as_secs(),
                    info: a.info.clone(),
                }
            })
            .collect()
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
