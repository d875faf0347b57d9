//! `sysbench-oltp`: stock sysbench (`oltp_point_select`, `oltp_read_only`,
//! `oltp_read_write`) against a `lineardb serve` this experiment starts,
//! and with `--compare mariadb` against a private MariaDB server started
//! the same way (its own data directory, socket and port; the settings of
//! `bench/ANCHORS.md`: 4 GiB pool, adaptive hash index off, performance
//! schema off) — the same client, script, data and thread counts for both.
//! Server CPU per query comes from the server process's own counters.
use crate::report::{Measurement, Point};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

pub const WORKLOADS: [&str; 3] = ["oltp_point_select", "oltp_read_only", "oltp_read_write"];

/// What one run of the experiment measures.
#[derive(Debug, Clone)]
pub struct SysbenchOptions {
    pub threads: Vec<usize>,
    pub seconds: f64,
    pub repeat: usize,
    pub rows: u32,
    pub workloads: Vec<String>,
    /// Systems, in order: "lineardb" and/or "mariadb".
    pub systems: Vec<String>,
    /// Working folder: data directories and server logs.
    pub work: PathBuf,
    /// The `lineardb` binary to serve with.
    pub lineardb: PathBuf,
    pub pool_mib: usize,
    /// When commits reach the disk, the same on both servers (MySQL's
    /// `innodb_flush_log_at_trx_commit`: 1 synced per commit, 2 written
    /// per commit and synced once a second, as in ANCHORS.md).
    pub flush_at_commit: u8,
}

/// A server this experiment started; stopped (SIGTERM, then waited for)
/// when dropped.
struct Server {
    child: Child,
    port: u16,
}

impl Drop for Server {
    fn drop(&mut self) {
        // SAFETY: kill takes no pointers; the pid is our own child's.
        unsafe { libc::kill(self.child.id() as i32, libc::SIGTERM) };
        let deadline = Instant::now() + Duration::from_secs(60);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Server {
    /// CPU seconds (user + system) the server has used so far.
    fn cpu_seconds(&self) -> f64 {
        let stat =
            std::fs::read_to_string(format!("/proc/{}/stat", self.child.id())).unwrap_or_default();
        // Fields after the parenthesised command name; utime and stime are
        // the 14th and 15th fields of the line.
        let rest = stat.rsplit_once(')').map_or("", |(_, r)| r);
        let f: Vec<&str> = rest.split_whitespace().collect();
        let ticks = |i: usize| f.get(i).and_then(|v| v.parse::<f64>().ok()).unwrap_or(0.0);
        // SAFETY: sysconf takes no pointers.
        let hz = unsafe { libc::sysconf(libc::_SC_CLK_TCK) }.max(1) as f64;
        (ticks(11) + ticks(12)) / hz
    }
}

fn free_port() -> anyhow::Result<u16> {
    Ok(std::net::TcpListener::bind("127.0.0.1:0")?
        .local_addr()?
        .port())
}

fn wait_until_serving(port: u16, child: &mut Child, what: &str) -> anyhow::Result<()> {
    let deadline = Instant::now() + Duration::from_secs(120);
    while Instant::now() < deadline {
        if let Ok(Some(status)) = child.try_wait() {
            anyhow::bail!("{what} exited before serving ({status})");
        }
        let ok = Command::new("mysql")
            .args([
                "-h127.0.0.1",
                &format!("-P{port}"),
                "-uroot",
                "-e",
                "SELECT 1",
            ])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success());
        if ok {
            return Ok(());
        }
        std::thread::sleep(Duration::from_millis(200));
    }
    anyhow::bail!("{what} did not start serving on port {port}")
}

fn start_lineardb(o: &SysbenchOptions) -> anyhow::Result<Server> {
    let port = free_port()?;
    let data = o.work.join("lineardb-data");
    let log = std::fs::File::create(o.work.join("lineardb.log"))?;
    let mut child = Command::new(&o.lineardb)
        .args(["serve", "--port", &port.to_string()])
        .args(["--pool-mib", &o.pool_mib.to_string()])
        .args(["--flush-log-at-trx-commit", &o.flush_at_commit.to_string()])
        .arg("--datadir")
        .arg(&data)
        .stdout(log.try_clone()?)
        .stderr(log)
        .spawn()?;
    wait_until_serving(port, &mut child, "lineardb serve")?;
    Ok(Server { child, port })
}

fn start_mariadb(o: &SysbenchOptions) -> anyhow::Result<Server> {
    let port = free_port()?;
    let dir = o.work.join("mariadb");
    std::fs::create_dir_all(&dir)?;
    let data = dir.join("data");
    let cnf = dir.join("my.cnf");
    std::fs::write(
        &cnf,
        format!(
            "[mysqld]\ndatadir={}\nsocket={}\nport={port}\nbind-address=127.0.0.1\nuser=root\n\
             innodb_buffer_pool_size={}M\ninnodb_log_file_size=1G\n\
             innodb_flush_log_at_trx_commit={}\ninnodb_adaptive_hash_index=OFF\n\
             performance_schema=OFF\nmax_connections=500\nskip-log-bin\n",
            data.display(),
            dir.join("mariadb.sock").display(),
            o.pool_mib,
            o.flush_at_commit,
        ),
    )?;
    if !data.exists() {
        let out = Command::new("mariadb-install-db")
            .arg(format!("--defaults-file={}", cnf.display()))
            .arg("--auth-root-authentication-method=normal")
            .output()
            .map_err(|e| {
                anyhow::anyhow!("mariadb-install-db: {e} (is mariadb-server installed?)")
            })?;
        if !out.status.success() {
            anyhow::bail!(
                "mariadb-install-db failed: {}",
                String::from_utf8_lossy(&out.stderr)
            );
        }
    }
    let log = std::fs::File::create(dir.join("mariadbd.log"))?;
    let mut child = Command::new("mariadbd")
        .arg(format!("--defaults-file={}", cnf.display()))
        .stdout(log.try_clone()?)
        .stderr(log)
        .spawn()
        .map_err(|e| anyhow::anyhow!("mariadbd: {e} (is mariadb-server installed?)"))?;
    wait_until_serving(port, &mut child, "mariadbd")?;
    Ok(Server { child, port })
}

fn sysbench(port: u16, args: &[String]) -> anyhow::Result<String> {
    let out = Command::new("sysbench")
        .args(args)
        .args([
            "--db-driver=mysql",
            "--mysql-host=127.0.0.1",
            &format!("--mysql-port={port}"),
            "--mysql-user=root",
            "--mysql-db=sbtest",
        ])
        .output()
        .map_err(|e| anyhow::anyhow!("sysbench: {e} (is sysbench installed?)"))?;
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    if !out.status.success() {
        anyhow::bail!(
            "sysbench {} failed: {}{}",
            args.join(" "),
            text,
            String::from_utf8_lossy(&out.stderr)
        );
    }
    Ok(text)
}

/// `queries:` total of a sysbench report (the line `queries: N (X per sec.)`).
pub fn queries(report: &str) -> Option<u64> {
    report
        .lines()
        .find_map(|l| l.trim().strip_prefix("queries:"))
        .and_then(|r| r.split_whitespace().next()?.parse().ok())
}

/// Runs the workloads on each system; one point per (system/workload,
/// threads). `log` gets progress lines.
pub fn sysbench_oltp(
    o: &SysbenchOptions,
    log: &mut dyn FnMut(&str),
    mut on_point: impl FnMut(&Point),
) -> anyhow::Result<Vec<Point>> {
    std::fs::create_dir_all(&o.work)?;
    let mut points = Vec::new();
    for system in &o.systems {
        log(&format!("{system}: starting the server"));
        let server = match system.as_str() {
            "lineardb" => start_lineardb(o)?,
            "mariadb" => start_mariadb(o)?,
            other => anyhow::bail!("unknown system {other:?} (lineardb, mariadb)"),
        };
        let port = server.port;
        let table = [
            "--tables=1".to_string(),
            format!("--table-size={}", o.rows),
            "--rand-type=uniform".to_string(),
        ];
        let status = Command::new("mysql")
            .args(["-h127.0.0.1", &format!("-P{port}"), "-uroot", "-e"])
            .arg("DROP DATABASE IF EXISTS sbtest; CREATE DATABASE sbtest")
            .status()?;
        anyhow::ensure!(status.success(), "{system}: cannot create database sbtest");
        log(&format!("{system}: loading {} rows", o.rows));
        let mut prepare: Vec<String> = table.to_vec();
        prepare.extend([
            "--threads=2".to_string(),
            "oltp_read_only".into(),
            "prepare".into(),
        ]);
        sysbench(port, &prepare)?;
        for workload in &o.workloads {
            // One unmeasured second first: caches warm, as in every run after.
            let mut warm: Vec<String> = table.to_vec();
            warm.extend([
                "--threads=2".to_string(),
                "--time=1".into(),
                "--mysql-ignore-errors=1213,1205".into(),
                workload.clone(),
                "run".into(),
            ]);
            sysbench(port, &warm)?;
            let mut runs: Vec<Vec<(f64, f64)>> = vec![Vec::new(); o.threads.len()];
            for _ in 0..o.repeat.max(1) {
                for (i, &t) in o.threads.iter().enumerate() {
                    let mut args: Vec<String> = table.to_vec();
                    args.extend([
                        format!("--threads={t}"),
                        format!("--time={}", o.seconds.max(1.0).round() as u64),
                        "--mysql-ignore-errors=1213,1205".into(),
                        workload.clone(),
                        "run".into(),
                    ]);
                    let cpu0 = server.cpu_seconds();
                    let report = sysbench(port, &args)?;
                    let cpu = server.cpu_seconds() - cpu0;
                    let q = queries(&report)
                        .ok_or_else(|| anyhow::anyhow!("no query count in: {report}"))?;
                    let run_secs = o.seconds.max(1.0).round();
                    runs[i].push((q as f64 / run_secs, cpu * 1e6 / q.max(1) as f64));
                }
            }
            let mut one_thread = None;
            for (i, &t) in o.threads.iter().enumerate() {
                let mut qps: Vec<f64> = runs[i].iter().map(|r| r.0).collect();
                let mut cpu: Vec<f64> = runs[i].iter().map(|r| r.1).collect();
                let m = Measurement {
                    runs: runs[i].len(),
                    ops_per_s: crate::harness::median(&mut qps),
                    ops_per_s_min: qps.iter().cloned().fold(f64::INFINITY, f64::min),
                    ops_per_s_max: qps.iter().cloned().fold(0.0, f64::max),
                    rows_per_s: 0.0,
                    cpu_us_per_op: crate::harness::median(&mut cpu),
                    shared_writes_per_row: None,
                    shared_writes_per_op: None,
                };
                if t == 1 {
                    one_thread = Some(m.ops_per_s);
                }
                let p = Point {
                    experiment: "sysbench-oltp".into(),
                    system: Some(system.clone()),
                    case: format!("{system} {workload}"),
                    threads: t,
                    ratio_to_1_thread: one_thread.map(|b| m.ops_per_s / b),
                    m,
                    extra: Default::default(),
                };
                on_point(&p);
                points.push(p);
            }
        }
        drop(server);
    }
    Ok(points)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn query_counts_are_read_from_reports() {
        let report = "SQL statistics:\n    queries performed:\n        read: 1400\n    transactions:  100 (9.9 per sec.)\n    queries:                             1600   (159.8 per sec.)\n";
        assert_eq!(queries(report), Some(1600));
        assert_eq!(queries("nothing here"), None);
    }
}
