//! INNODB_METRICS: the storage engine's counters under InnoDB's metric
//! names, for the ones lineardb measures. Each is read from the server's
//! status variables (SHOW GLOBAL STATUS), so the two never disagree.
use super::InfoContext;
use lineardb_table::Value;

/// How a metric's value behaves: a count since the server started
/// (`status_counter`), or a level read now (`value`).
#[derive(Clone, Copy, PartialEq)]
enum MetricType {
    StatusCounter,
    Value,
}

/// A metric: its name, subsystem, type, InnoDB's comment, and the status
/// variable its count is read from.
struct Metric {
    name: &'static str,
    subsystem: &'static str,
    metric_type: MetricType,
    comment: &'static str,
    status: &'static str,
}

const METRICS: [Metric; 9] = [
    Metric {
        name: "buffer_pool_reads",
        subsystem: "buffer",
        metric_type: MetricType::StatusCounter,
        comment: "Number of reads directly from disk (innodb_buffer_pool_reads)",
        status: "Innodb_buffer_pool_reads",
    },
    Metric {
        name: "buffer_pool_pages_total",
        subsystem: "buffer",
        metric_type: MetricType::Value,
        comment: "Total buffer pool size in pages (innodb_buffer_pool_pages_total)",
        status: "Innodb_buffer_pool_pages_total",
    },
    Metric {
        name: "buffer_pool_pages_data",
        subsystem: "buffer",
        metric_type: MetricType::Value,
        comment: "Buffer pages containing data (innodb_buffer_pool_pages_data)",
        status: "Innodb_buffer_pool_pages_data",
    },
    Metric {
        name: "buffer_pool_pages_free",
        subsystem: "buffer",
        metric_type: MetricType::Value,
        comment: "Buffer pages currently free (innodb_buffer_pool_pages_free)",
        status: "Innodb_buffer_pool_pages_free",
    },
    Metric {
        name: "buffer_pages_read",
        subsystem: "buffer",
        metric_type: MetricType::StatusCounter,
        comment: "Number of pages read (innodb_pages_read)",
        status: "Innodb_buffer_pool_reads",
    },
    Metric {
        name: "buffer_pages_written",
        subsystem: "buffer",
        metric_type: MetricType::StatusCounter,
        comment: "Number of pages written (innodb_pages_written)",
        status: "Innodb_buffer_pool_pages_flushed",
    },
    Metric {
        name: "os_log_bytes_written",
        subsystem: "os",
        metric_type: MetricType::StatusCounter,
        comment: "Bytes of log written (innodb_os_log_written)",
        status: "Lineardb_log_written",
    },
    Metric {
        name: "log_writes",
        subsystem: "recovery",
        metric_type: MetricType::StatusCounter,
        comment: "Number of log writes (innodb_log_writes)",
        status: "Lineardb_log_syncs",
    },
    Metric {
        name: "innodb_page_size",
        subsystem: "server",
        metric_type: MetricType::Value,
        comment: "InnoDB page size in bytes (innodb_page_size)",
        status: "Innodb_page_size",
    },
];

/// INNODB_METRICS' rows: each metric enabled since the server started, as
/// InnoDB's enabled metrics show (a counter's minimum NULL and its average
/// per second of uptime, none in its first second; a level's minimum and maximum its value now).
pub(super) fn innodb_metrics(cx: &InfoContext<'_>) -> Vec<Vec<Value>> {
    let status = (cx.status)(true);
    let read = |name: &str| {
        status
            .iter()
            .find(|(n, _)| *n == name)
            .and_then(|(_, v)| v.parse::<u64>().ok())
            .unwrap_or(0)
    };
    let uptime = cx.registry.uptime_secs();
    let now = crate::expr::clock::now_utc();
    let started = now - now.rem_euclid(1_000_000) - uptime as i64 * 1_000_000;
    let enabled_at = Value::DateTime(crate::expr::clock::session_local(started));
    let mut rows: Vec<Vec<Value>> = METRICS
        .iter()
        .map(|m| {
            let count = read(m.status);
            metric_row(
                m.name,
                m.subsystem,
                m.metric_type,
                m.comment,
                count,
                uptime,
                &enabled_at,
            )
        })
        .collect();
    // The pool's size in bytes, as InnoDB's server subsystem gives it.
    let pool_bytes = read("Innodb_buffer_pool_pages_total") * read("Innodb_page_size");
    rows.insert(
        0,
        metric_row(
            "buffer_pool_size",
            "server",
            MetricType::Value,
            "Server buffer pool size (all buffer pools) in bytes",
            pool_bytes,
            uptime,
            &enabled_at,
        ),
    );
    rows
}

fn metric_row(
    name: &str,
    subsystem: &str,
    metric_type: MetricType,
    comment: &str,
    count: u64,
    uptime: u64,
    enabled_at: &Value,
) -> Vec<Value> {
    let count_value = Value::Int(count as i64);
    let (min, avg) = match metric_type {
        // No average before a second has passed.
        MetricType::StatusCounter if uptime == 0 => (Value::Null, Value::Null),
        MetricType::StatusCounter => (Value::Null, Value::Double(count as f64 / uptime as f64)),
        MetricType::Value => (count_value.clone(), Value::Null),
    };
    vec![
        Value::str(name),
        Value::str(subsystem),
        count_value.clone(),
        count_value.clone(),
        min.clone(),
        avg,
        count_value.clone(),
        count_value,
        min,
        Value::Null,
        enabled_at.clone(),
        Value::Null,
        Value::Int(uptime as i64),
        Value::Null,
        Value::Int(1),
        Value::str(match metric_type {
            MetricType::StatusCounter => "status_counter",
            MetricType::Value => "value",
        }),
        Value::str(comment),
    ]
}
