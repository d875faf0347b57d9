//! `performance_schema`: read-only tables over the engine's own
//! instrumentation, with MySQL's names and columns where MySQL has the
//! table. Their rows are made when a query runs (summed from the per-thread
//! slots at that moment); nothing is kept or written for them between
//! queries. Timers are in picoseconds, as in MySQL.
use crate::catalog::registry::Registry;
use crate::result::ColumnKind;
use lineardb_sync::thread_slot::IndexOp;
use lineardb_sync::{audit, wait, Counter};
use lineardb_table::{Engine, Value};

/// The database name the tables live in.
pub(crate) const SCHEMA: &str = "performance_schema";

/// A table of `performance_schema`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum SystemTable {
    /// `events_waits_summary_global_by_event_name`: one row per wait
    /// class: waits (COUNT_STAR), their time, and lineardb's restarts
    /// (failed optimistic reads, which cost a retry but no wait).
    WaitsByEventName,
    /// `lineardb_hot_pages`: sampled slow-path events per page, with the
    /// page's tree (`db.table.index`) and level, most events first.
    HotPages,
    /// `events_statements_summary_by_digest`: statements grouped by their
    /// text with literals replaced, counts, latency (sum, min, average,
    /// max, 95th and 99th percentile from a log2 histogram) and errors.
    StatementsByDigest,
    /// `table_io_waits_summary_by_index_usage`: row operations per index
    /// (a row with INDEX_NAME NULL per table for inserts), counted per
    /// thread. Entries read are counted per batch; lineardb does not time
    /// single row operations, so the table has MySQL's count columns only.
    TableIoByIndex,
    /// `lineardb_shared_writes`: writes to memory other threads read, by
    /// what made them (latches, mutexes, shared words), and per row read.
    /// Counted only by a build with the `audit` feature (COUNTED = 'NO'
    /// otherwise).
    SharedWrites,
    /// `user_variables_by_thread`: every session's user variables, its
    /// connection id as THREAD_ID (lineardb has no other thread ids).
    UserVariablesByThread,
}

const WAITS_COLUMNS: [(&str, ColumnKind); 6] = [
    ("EVENT_NAME", ColumnKind::TEXT),
    ("COUNT_STAR", ColumnKind::UInt),
    ("SUM_TIMER_WAIT", ColumnKind::UInt),
    ("AVG_TIMER_WAIT", ColumnKind::UInt),
    ("MAX_TIMER_WAIT", ColumnKind::UInt),
    ("COUNT_RESTARTS", ColumnKind::UInt),
];

const HOT_PAGES_COLUMNS: [(&str, ColumnKind); 6] = [
    ("PAGE_ID", ColumnKind::UInt),
    ("TREE_NAME", ColumnKind::TEXT),
    ("LEVEL", ColumnKind::Int),
    ("EVENT_NAME", ColumnKind::TEXT),
    ("RESTARTS", ColumnKind::UInt),
    ("WAITS", ColumnKind::UInt),
];

const DIGEST_COLUMNS: [(&str, ColumnKind); 11] = [
    ("SCHEMA_NAME", ColumnKind::TEXT),
    ("DIGEST", ColumnKind::TEXT),
    ("DIGEST_TEXT", ColumnKind::TEXT),
    ("COUNT_STAR", ColumnKind::UInt),
    ("SUM_TIMER_WAIT", ColumnKind::UInt),
    ("MIN_TIMER_WAIT", ColumnKind::UInt),
    ("AVG_TIMER_WAIT", ColumnKind::UInt),
    ("MAX_TIMER_WAIT", ColumnKind::UInt),
    ("SUM_ERRORS", ColumnKind::UInt),
    ("QUANTILE_95", ColumnKind::UInt),
    ("QUANTILE_99", ColumnKind::UInt),
];

const TABLE_IO_COLUMNS: [(&str, ColumnKind); 11] = [
    ("OBJECT_TYPE", ColumnKind::TEXT),
    ("OBJECT_SCHEMA", ColumnKind::TEXT),
    ("OBJECT_NAME", ColumnKind::TEXT),
    ("INDEX_NAME", ColumnKind::TEXT),
    ("COUNT_STAR", ColumnKind::UInt),
    ("COUNT_READ", ColumnKind::UInt),
    ("COUNT_WRITE", ColumnKind::UInt),
    ("COUNT_FETCH", ColumnKind::UInt),
    ("COUNT_INSERT", ColumnKind::UInt),
    ("COUNT_UPDATE", ColumnKind::UInt),
    ("COUNT_DELETE", ColumnKind::UInt),
];

const SHARED_WRITES_COLUMNS: [(&str, ColumnKind); 4] = [
    ("SOURCE", ColumnKind::TEXT),
    ("COUNTED", ColumnKind::TEXT),
    ("WRITES", ColumnKind::UInt),
    ("WRITES_PER_ROW_READ", ColumnKind::Double),
];

const USER_VARIABLES_COLUMNS: [(&str, ColumnKind); 3] = [
    ("THREAD_ID", ColumnKind::UInt),
    ("VARIABLE_NAME", ColumnKind::TEXT),
    (
        "VARIABLE_VALUE",
        ColumnKind::Text(lineardb_table::Collation::Binary),
    ),
];

impl SystemTable {
    /// The table called `name` (any case).
    pub(crate) fn find(name: &str) -> Option<SystemTable> {
        let n = name.to_ascii_lowercase();
        match n.as_str() {
            "events_waits_summary_global_by_event_name" => Some(SystemTable::WaitsByEventName),
            "lineardb_hot_pages" => Some(SystemTable::HotPages),
            "events_statements_summary_by_digest" => Some(SystemTable::StatementsByDigest),
            "table_io_waits_summary_by_index_usage" => Some(SystemTable::TableIoByIndex),
            "lineardb_shared_writes" => Some(SystemTable::SharedWrites),
            "user_variables_by_thread" => Some(SystemTable::UserVariablesByThread),
            _ => None,
        }
    }

    /// Its name in `performance_schema`.
    pub(crate) fn name(self) -> &'static str {
        match self {
            SystemTable::WaitsByEventName => "events_waits_summary_global_by_event_name",
            SystemTable::HotPages => "lineardb_hot_pages",
            SystemTable::StatementsByDigest => "events_statements_summary_by_digest",
            SystemTable::TableIoByIndex => "table_io_waits_summary_by_index_usage",
            SystemTable::SharedWrites => "lineardb_shared_writes",
            SystemTable::UserVariablesByThread => "user_variables_by_thread",
        }
    }

    /// Every table, for SHOW TABLES.
    pub(crate) fn names() -> [&'static str; 6] {
        [
            "events_statements_summary_by_digest",
            "events_waits_summary_global_by_event_name",
            "lineardb_hot_pages",
            "lineardb_shared_writes",
            "table_io_waits_summary_by_index_usage",
            "user_variables_by_thread",
        ]
    }

    pub(crate) fn columns(self) -> &'static [(&'static str, ColumnKind)] {
        match self {
            SystemTable::WaitsByEventName => &WAITS_COLUMNS,
            SystemTable::HotPages => &HOT_PAGES_COLUMNS,
            SystemTable::StatementsByDigest => &DIGEST_COLUMNS,
            SystemTable::TableIoByIndex => &TABLE_IO_COLUMNS,
            SystemTable::SharedWrites => &SHARED_WRITES_COLUMNS,
            SystemTable::UserVariablesByThread => &USER_VARIABLES_COLUMNS,
        }
    }

    /// The rows now.
    pub(crate) fn rows(self, engine: &Engine, registry: &Registry) -> Vec<Vec<Value>> {
        match self {
            SystemTable::TableIoByIndex => table_io_rows(engine),
            SystemTable::UserVariablesByThread => registry
                .user_variables()
                .into_iter()
                .map(|(id, name, value)| {
                    let text = match &value {
                        Value::Null => Value::Null,
                        Value::Bytes(_) => value.clone(),
                        v => v.to_text().map_or(Value::Null, |t| Value::str(&t)),
                    };
                    vec![Value::UInt(id), Value::str(&name), text]
                })
                .collect(),
            SystemTable::SharedWrites => {
                let rows_read = lineardb_sync::thread_slot::counter_total(Counter::RowsRead);
                let counted = Value::str(if audit::ENABLED { "YES" } else { "NO" });
                audit::by_source()
                    .into_iter()
                    .map(|(source, writes)| {
                        vec![
                            Value::str(source.name()),
                            counted.clone(),
                            Value::UInt(writes),
                            if rows_read == 0 {
                                Value::Null
                            } else {
                                Value::Double(writes as f64 / rows_read as f64)
                            },
                        ]
                    })
                    .collect()
            }
            SystemTable::StatementsByDigest => registry
                .digests()
                .into_iter()
                .map(|d| {
                    let ps = |ns: u64| Value::UInt(ns.saturating_mul(1000));
                    vec![
                        d.schema.as_deref().map_or(Value::Null, Value::str),
                        Value::str(&format!(
                            "{:016x}",
                            crate::digest::key(d.schema.as_deref(), &d.text)
                        )),
                        Value::str(&d.text),
                        Value::UInt(d.count),
                        ps(d.sum_ns),
                        ps(d.min_ns),
                        ps(d.sum_ns / d.count.max(1)),
                        ps(d.max_ns),
                        Value::UInt(d.errors),
                        ps(d.quantile(0.95)),
                        ps(d.quantile(0.99)),
                    ]
                })
                .collect(),
            SystemTable::WaitsByEventName => wait::summary()
                .into_iter()
                .map(|(class, s)| {
                    vec![
                        Value::str(class.name()),
                        Value::UInt(s.waits),
                        Value::UInt(s.wait_ns * 1000),
                        Value::UInt(s.wait_ns * 1000 / s.waits.max(1)),
                        Value::UInt(s.max_ns * 1000),
                        Value::UInt(s.restarts),
                    ]
                })
                .collect(),
            SystemTable::HotPages => {
                let trees = engine.tree_names().unwrap_or_default();
                wait::hot_pages()
                    .into_iter()
                    .map(|(page, class, restarts, waits)| {
                        let (tree, level) = match engine.page_owner(page) {
                            Some((id, level)) => (
                                trees
                                    .get(&id)
                                    .cloned()
                                    .unwrap_or_else(|| format!("tree {id}")),
                                Value::Int(level as i64),
                            ),
                            None => (String::new(), Value::Null),
                        };
                        vec![
                            Value::UInt(page),
                            Value::str(&tree),
                            level,
                            Value::str(class.name()),
                            Value::UInt(restarts),
                            Value::UInt(waits),
                        ]
                    })
                    .collect()
            }
        }
    }
}

/// The id under which row operations on a table itself (its row with
/// INDEX_NAME NULL: inserts) are counted: its primary root with the top bit
/// set (page ids never reach it).
pub(crate) fn table_io_id(primary_root: u64) -> u64 {
    primary_root | 1 << 63
}

/// Rows of `table_io_waits_summary_by_index_usage`: every index of every
/// table (unused ones with zeros, so that they can be found), and per table
/// a row without index for its inserts. Counts are keyed by the tree's root
/// page: a tree made on the pages of a dropped one continues its counts
/// (threads' slots are written only by their owners, so a DROP cannot
/// clear them).
fn table_io_rows(engine: &Engine) -> Vec<Vec<Value>> {
    let counts = lineardb_sync::thread_slot::index_totals();
    let mut out = Vec::new();
    let mut row = |db: &str, table: &str, index: Option<&str>, id: u64| {
        let c = counts.get(&id).copied().unwrap_or_default();
        let [fetch, insert, update, delete] = c.map(Value::UInt);
        let read = c[IndexOp::Fetch as usize];
        let write =
            c[IndexOp::Insert as usize] + c[IndexOp::Update as usize] + c[IndexOp::Delete as usize];
        out.push(vec![
            Value::str("TABLE"),
            Value::str(db),
            Value::str(table),
            index.map_or(Value::Null, Value::str),
            Value::UInt(read + write),
            Value::UInt(read),
            Value::UInt(write),
            fetch,
            insert,
            update,
            delete,
        ]);
    };
    for def in engine.all_table_defs().unwrap_or_default() {
        let (db, name) = (&def.database, &def.name);
        row(db, name, Some("PRIMARY"), def.primary_root);
        for i in &def.indexes {
            row(db, name, Some(&i.name), i.root);
        }
        row(db, name, None, table_io_id(def.primary_root));
    }
    out
}

/// The text of `SHOW ENGINE LINEARDB STATUS`: the buffer pool, the log,
/// row and version counters, every wait class and the hottest pages.
pub(crate) fn engine_status(engine: &Engine, registry: &Registry) -> String {
    use lineardb_sync::{thread_slot::counter_total, Counter};
    use std::fmt::Write as _;
    let mut s = String::new();
    let pool = engine.pool_stats();
    let log = engine.log_stats();
    let c = counter_total;
    let _ = writeln!(s, "\n=====================================\nlineardb engine status\n=====================================");
    let _ = writeln!(s, "BUFFER POOL");
    let _ = writeln!(
        s,
        "page size {}, frames {}, resident {}, file pages {}, free file pages {}",
        pool.page_size, pool.frames, pool.resident, pool.page_count, pool.free_pages
    );
    let _ = writeln!(
        s,
        "pages read {}, written {}, evicted {}, read-ahead hints {}",
        c(Counter::PagesRead),
        c(Counter::PagesWritten),
        c(Counter::PagesEvicted),
        c(Counter::ReadAheadHints)
    );
    let _ = writeln!(s, "LOG");
    let _ = writeln!(
        s,
        "syncs {}, bytes written {}, flush at commit {}",
        log.syncs,
        log.written,
        engine.flush_log_at_trx_commit()
    );
    let _ = writeln!(s, "ROW OPERATIONS");
    let _ = writeln!(
        s,
        "read {}, inserted {}, updated {}, deleted {}; older versions looked up {}",
        c(Counter::RowsRead),
        c(Counter::RowsInserted),
        c(Counter::RowsUpdated),
        c(Counter::RowsDeleted),
        c(Counter::OlderVersions)
    );
    let _ = writeln!(
        s,
        "WAITS (instrumentation {}): event, waits, wait µs, max µs, restarts",
        if wait::enabled() { "on" } else { "off" }
    );
    for (class, w) in wait::summary() {
        let _ = writeln!(
            s,
            "{} {} {:.1} {:.1} {}",
            class.name(),
            w.waits,
            w.wait_ns as f64 / 1e3,
            w.max_ns as f64 / 1e3,
            w.restarts
        );
    }
    let _ = writeln!(s, "HOT PAGES: page, tree, level, event, restarts, waits");
    for row in SystemTable::HotPages.rows(engine, registry).iter().take(10) {
        let cells: Vec<String> = row
            .iter()
            .map(|v| v.to_text().unwrap_or_else(|| "-".into()))
            .collect();
        let _ = writeln!(s, "{}", cells.join(" "));
    }
    s
}
