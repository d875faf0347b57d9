//! TPC-C through the servers: Percona's sysbench-tpcc scripts
//! (`bench/sysbench-tpcc`, unmodified, foreign keys included) load `W`
//! warehouses into lineardb and, with `--compare mariadb`, into a private
//! MariaDB with the same durability (`innodb_flush_log_at_trx_commit` and
//! lineardb's `--flush-log-at-trx-commit` alike); each run is followed by
//! the scripts' consistency checks, and a failed check fails the bench.
//!
//! tpmC is counted, not estimated from the transaction mix: the New-Order
//! transactions committed in a run are what the districts' `d_next_o_id`
//! advanced by (each committed New-Order takes one id; a rolled-back one,
//! 1% by the specification, takes none).

use crate::report::{Measurement, Point};
use crate::sysbench::{mysql, start_system, SysbenchOptions};
use std::path::{Path, PathBuf};
use std::process::Command;

const SCRIPTS: [(&str, &str); 4] = [
    (
        "tpcc.lua",
        include_str!("../../../bench/sysbench-tpcc/tpcc.lua"),
    ),
    (
        "tpcc_common.lua",
        include_str!("../../../bench/sysbench-tpcc/tpcc_common.lua"),
    ),
    (
        "tpcc_run.lua",
        include_str!("../../../bench/sysbench-tpcc/tpcc_run.lua"),
    ),
    (
        "tpcc_check.lua",
        include_str!("../../../bench/sysbench-tpcc/tpcc_check.lua"),
    ),
];

/// The database the scripts load into.
const DATABASE: &str = "tpcc";

pub struct TpccOptions {
    /// Servers, threads, seconds, runs and durability (its `rows`,
    /// `workloads` and `instrumentation` are not read).
    pub servers: SysbenchOptions,
    pub warehouses: u32,
}

/// One run's figures.
struct TpccRun {
    transactions_per_s: f64,
    new_orders: u64,
    seconds: f64,
    p95_ms: f64,
    server_cpu_s: f64,
    transactions: u64,
}

fn write_scripts(work: &Path) -> anyhow::Result<PathBuf> {
    let dir = work.join("tpcc-scripts");
    std::fs::create_dir_all(&dir)?;
    for (name, text) in SCRIPTS {
        let path = dir.join(name);
        std::fs::write(&path, text)?;
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755))?;
    }
    Ok(dir)
}

/// The scripts' command against the server on `port`.
fn tpcc(scripts: &Path, port: u16, warehouses: u32, args: &[String]) -> anyhow::Result<String> {
    let out = Command::new("sysbench")
        .current_dir(scripts)
        .arg("./tpcc.lua")
        .args([
            "--db-driver=mysql".to_string(),
            "--mysql-host=127.0.0.1".into(),
            format!("--mysql-port={port}"),
            "--mysql-user=root".into(),
            format!("--mysql-db={DATABASE}"),
            "--tables=1".into(),
            format!("--scale={warehouses}"),
        ])
        .args(args)
        .output()
        .map_err(|e| anyhow::anyhow!("sysbench: {e} (is sysbench installed?)"))?;
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    if !out.status.success() {
        anyhow::bail!(
            "tpcc.lua {} failed: {text}{}",
            args.join(" "),
            String::from_utf8_lossy(&out.stderr)
        );
    }
    Ok(text)
}

/// The figure after `label` in a sysbench report (`transactions:   123 (…)`).
fn figure(report: &str, label: &str) -> Option<f64> {
    report
        .lines()
        .find_map(|l| l.trim().strip_prefix(label))
        .and_then(|r| r.split_whitespace().next()?.parse().ok())
}

/// New-Order ids handed out so far (the districts' next order ids).
fn next_order_ids(port: u16) -> anyhow::Result<u64> {
    let sum = mysql(
        port,
        &format!("SELECT SUM(d_next_o_id) FROM {DATABASE}.district1"),
    )?;
    sum.parse()
        .map_err(|_| anyhow::anyhow!("no order ids: {sum:?}"))
}

/// Loads the warehouses unless the database holds them already.
fn prepare(
    o: &TpccOptions,
    scripts: &Path,
    port: u16,
    log: &mut dyn FnMut(&str),
) -> anyhow::Result<()> {
    let loaded = mysql(port, &format!("SELECT COUNT(*) FROM {DATABASE}.warehouse1"))
        .ok()
        .and_then(|n| n.parse::<u32>().ok());
    if loaded == Some(o.warehouses) {
        return Ok(());
    }
    log(&format!("loading {} warehouse(s)", o.warehouses));
    mysql(
        port,
        &format!("DROP DATABASE IF EXISTS {DATABASE}; CREATE DATABASE {DATABASE}"),
    )?;
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let threads = (o.warehouses as usize).clamp(1, cores);
    tpcc(
        scripts,
        port,
        o.warehouses,
        &[format!("--threads={threads}"), "prepare".into()],
    )?;
    Ok(())
}

/// The scripts' consistency checks; an error naming any that failed, or
/// if none ran.
fn check(o: &TpccOptions, scripts: &Path, port: u16) -> anyhow::Result<()> {
    let report = tpcc(
        scripts,
        port,
        o.warehouses,
        &["--threads=1".into(), "check".into()],
    )?;
    let failed: Vec<&str> = report.lines().filter(|l| l.contains("FAILED")).collect();
    anyhow::ensure!(
        failed.is_empty(),
        "consistency checks failed:\n{}",
        failed.join("\n")
    );
    anyhow::ensure!(
        report.lines().any(|l| l.ends_with("PASSED")),
        "no consistency check ran:\n{report}"
    );
    Ok(())
}

/// Runs TPC-C on each system at each thread count; one point per
/// (system, threads), medians of the runs.
pub fn run(
    o: &TpccOptions,
    log: &mut dyn FnMut(&str),
    mut on_point: impl FnMut(&Point),
) -> anyhow::Result<Vec<Point>> {
    let s = &o.servers;
    let scripts = write_scripts(&s.work)?;
    let mut points = Vec::new();
    let total = s.systems.len() * s.threads.len() * s.repeat.max(1);
    let bar = crate::progress::runs(total as u64, &s.experiment);
    let log = &mut |m: &str| bar.suspend(|| log(m));
    for system in &s.systems {
        log(&format!("{system}: starting the server"));
        let server = start_system(s, system)?;
        let port = server.port;
        prepare(o, &scripts, port, log)?;
        let secs = s.seconds.max(1.0).round() as u64;
        let mut runs: Vec<Vec<TpccRun>> = (0..s.threads.len()).map(|_| Vec::new()).collect();
        for _ in 0..s.repeat.max(1) {
            for (i, &t) in s.threads.iter().enumerate() {
                let ids = next_order_ids(port)?;
                let cpu = server.cpu_seconds();
                let report = tpcc(
                    &scripts,
                    port,
                    o.warehouses,
                    &[
                        format!("--threads={t}"),
                        format!("--time={secs}"),
                        "--report-interval=0".into(),
                        "run".into(),
                    ],
                )?;
                let server_cpu_s = server.cpu_seconds() - cpu;
                let new_orders = next_order_ids(port)? - ids;
                let seconds = report
                    .lines()
                    .find_map(|l| l.trim().strip_prefix("total time:"))
                    .and_then(|r| r.trim().trim_end_matches('s').parse::<f64>().ok())
                    .unwrap_or(secs as f64);
                let transactions = figure(&report, "transactions:")
                    .ok_or_else(|| anyhow::anyhow!("no transaction count in: {report}"))?;
                check(o, &scripts, port)?;
                runs[i].push(TpccRun {
                    transactions_per_s: transactions / seconds,
                    new_orders,
                    seconds,
                    p95_ms: figure(&report, "95th percentile:").unwrap_or(f64::NAN),
                    server_cpu_s,
                    transactions: transactions as u64,
                });
                bar.inc(1);
            }
        }
        let mut one_thread = None;
        for (i, &t) in s.threads.iter().enumerate() {
            let r = &runs[i];
            let median = |f: &dyn Fn(&TpccRun) -> f64| {
                let mut v: Vec<f64> = r.iter().map(f).collect();
                crate::stats::median(&mut v)
            };
            let tps: Vec<f64> = r.iter().map(|x| x.transactions_per_s).collect();
            let m = Measurement {
                runs: r.len(),
                ops_per_s: median(&|x| x.transactions_per_s),
                ops_per_s_min: tps.iter().cloned().fold(f64::INFINITY, f64::min),
                ops_per_s_max: tps.iter().cloned().fold(0.0, f64::max),
                rows_per_s: 0.0,
                cpu_us_per_op: median(&|x| x.server_cpu_s * 1e6 / x.transactions.max(1) as f64),
                shared_writes_per_row: None,
                shared_writes_per_op: None,
            };
            if t == 1 {
                one_thread = Some(m.ops_per_s);
            }
            let mut p = Point {
                experiment: s.experiment.clone(),
                system: Some(system.clone()),
                case: format!("{system} tpcc w{}", o.warehouses),
                threads: t,
                ratio_to_1_thread: one_thread.map(|b| m.ops_per_s / b),
                m,
                extra: Default::default(),
            };
            p.extra.insert(
                "tpmC".into(),
                median(&|x| x.new_orders as f64 * 60.0 / x.seconds),
            );
            p.extra.insert("p95_ms".into(), median(&|x| x.p95_ms));
            p.extra.insert("warehouses".into(), o.warehouses as f64);
            bar.suspend(|| on_point(&p));
            points.push(p);
        }
        drop(server);
    }
    bar.finish_and_clear();
    Ok(points)
}
