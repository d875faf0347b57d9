//! `lineardb top`: a running server's top waits, hot pages and statements,
//! refreshed — read from its `performance_schema` tables over the MySQL
//! protocol, so it works against any lineardb server it can log in to.
use mysql::prelude::Queryable;
use std::collections::HashMap;
use std::fmt::Write as _;
use std::time::{Duration, Instant};

#[derive(clap::Args)]
pub struct TopArgs {
    #[arg(long, default_value = "127.0.0.1")]
    host: String,
    #[arg(long, default_value_t = 3306)]
    port: u16,
    #[arg(long, default_value = "root")]
    user: String,
    #[arg(long, default_value = "")]
    password: String,
    /// Seconds between refreshes.
    #[arg(long, default_value_t = 2.0)]
    interval: f64,
    /// Rows per table.
    #[arg(long, default_value_t = 10)]
    rows: usize,
    /// Print the totals once and exit.
    #[arg(long)]
    once: bool,
}

/// Totals of one refresh, by event name and by digest text.
#[derive(Default)]
struct Totals {
    waits: HashMap<String, (u64, u64, u64)>,
    statements: HashMap<String, u64>,
}

pub fn top(a: &TopArgs) -> anyhow::Result<()> {
    let opts = mysql::OptsBuilder::new()
        .ip_or_hostname(Some(a.host.clone()))
        .tcp_port(a.port)
        .user(Some(a.user.clone()))
        .pass(Some(a.password.clone()));
    let mut c = mysql::Conn::new(opts)?;
    let mut last: Option<(Totals, Instant)> = None;
    loop {
        let (screen, totals) = refresh(&mut c, a, last.as_ref())?;
        if a.once {
            print!("{screen}");
            return Ok(());
        }
        // Clear the terminal, then draw.
        print!("\x1b[2J\x1b[H{screen}");
        use std::io::Write;
        std::io::stdout().flush()?;
        last = Some((totals, Instant::now()));
        std::thread::sleep(Duration::from_secs_f64(a.interval.max(0.1)));
    }
}

/// One screen: per table, totals (first screen) or rates since `last`.
fn refresh(
    c: &mut mysql::Conn,
    a: &TopArgs,
    last: Option<&(Totals, Instant)>,
) -> anyhow::Result<(String, Totals)> {
    let secs = last.map(|(_, t)| t.elapsed().as_secs_f64().max(1e-3));
    let mut out = String::new();
    let mut totals = Totals::default();
    let status: Vec<(String, String)> = c.query(
        "SHOW GLOBAL STATUS WHERE Variable_name IN ('Questions', 'Threads_connected', \
         'Innodb_rows_read', 'Innodb_buffer_pool_reads', 'Uptime')",
    )?;
    let line: Vec<String> = status.iter().map(|(k, v)| format!("{k} {v}")).collect();
    let _ = writeln!(
        out,
        "lineardb top — {}:{} — {}\n",
        a.host,
        a.port,
        line.join(", ")
    );

    let waits: Vec<(String, u64, u64, u64, u64)> = c.query(
        "SELECT EVENT_NAME, COUNT_STAR, SUM_TIMER_WAIT, MAX_TIMER_WAIT, COUNT_RESTARTS \
         FROM performance_schema.events_waits_summary_global_by_event_name",
    )?;
    let mut rows: Vec<(String, f64, f64, f64)> = Vec::new();
    for (name, count, sum_ps, _max, restarts) in waits {
        let (c0, s0, r0) = last
            .and_then(|(t, _)| t.waits.get(&name).copied())
            .unwrap_or((0, 0, 0));
        let per = |now: u64, then: u64| {
            let d = now.saturating_sub(then) as f64;
            secs.map_or(d, |s| d / s)
        };
        rows.push((
            name.clone(),
            per(count, c0),
            per(sum_ps, s0) / 1e6,
            per(restarts, r0),
        ));
        totals.waits.insert(name, (count, sum_ps, restarts));
    }
    rows.sort_by(|x, y| (y.1 + y.3).total_cmp(&(x.1 + x.3)));
    let unit = if secs.is_some() { "/s" } else { "" };
    let _ = writeln!(
        out,
        "{:<40} {:>14} {:>16} {:>14}",
        "WAIT EVENT",
        format!("waits{unit}"),
        format!("wait µs{unit}"),
        format!("restarts{unit}")
    );
    for (name, waits, us, restarts) in rows.iter().take(a.rows) {
        let _ = writeln!(out, "{name:<40} {waits:>14.0} {us:>16.1} {restarts:>14.0}");
    }

    let pages: Vec<(u64, String, Option<i64>, String, u64, u64)> = c.query(format!(
        "SELECT PAGE_ID, TREE_NAME, LEVEL, EVENT_NAME, RESTARTS, WAITS \
         FROM performance_schema.lineardb_hot_pages \
         ORDER BY RESTARTS + WAITS DESC LIMIT {}",
        a.rows
    ))?;
    let _ = writeln!(
        out,
        "\n{:>10} {:<32} {:>5} {:<34} {:>9} {:>9}",
        "PAGE", "TREE", "LEVEL", "EVENT", "RESTARTS", "WAITS"
    );
    for (page, tree, level, event, restarts, waits) in pages {
        let level = level.map_or("-".to_string(), |l| l.to_string());
        let _ = writeln!(
            out,
            "{page:>10} {tree:<32} {level:>5} {event:<34} {restarts:>9} {waits:>9}"
        );
    }

    let statements: Vec<(String, u64, u64, u64)> = c.query(
        "SELECT DIGEST_TEXT, COUNT_STAR, AVG_TIMER_WAIT, QUANTILE_99 \
         FROM performance_schema.events_statements_summary_by_digest",
    )?;
    let mut rows: Vec<(String, f64, f64, f64)> = Vec::new();
    for (text, count, avg_ps, p99_ps) in statements {
        let before = last
            .and_then(|(t, _)| t.statements.get(&text).copied())
            .unwrap_or(0);
        let d = count.saturating_sub(before) as f64;
        let rate = secs.map_or(d, |s| d / s);
        rows.push((text.clone(), rate, avg_ps as f64 / 1e6, p99_ps as f64 / 1e6));
        totals.statements.insert(text, count);
    }
    rows.sort_by(|x, y| (y.1 * y.2).total_cmp(&(x.1 * x.2)));
    let _ = writeln!(
        out,
        "\n{:>12} {:>10} {:>10}  STATEMENT",
        format!("count{unit}"),
        "avg µs",
        "p99 µs"
    );
    for (text, rate, avg, p99) in rows.iter().take(a.rows) {
        let text: String = text.chars().take(90).collect();
        let _ = writeln!(out, "{rate:>12.0} {avg:>10.1} {p99:>10.1}  {text}");
    }
    Ok((out, totals))
}
