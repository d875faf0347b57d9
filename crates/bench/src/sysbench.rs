//! Experiments through sysbench: stock `oltp_point_select`,
//! `oltp_read_only` and `oltp_read_write` (`sysbench-oltp`), and the
//! repository's scan and Q6 scripts (`seed001-scans`, `seed000-q6` with
//! `--sysbench` or `--compare mariadb`), against a `lineardb serve` this
//! module starts, and with `--compare mariadb` against a private MariaDB
//! server started the same way (its own data directory, socket and port; the
//! settings of `bench/ANCHORS.md`: adaptive hash index off, performance
//! schema off) — the same client, script, data and thread counts for both.
//! Server CPU per query comes from the server process's own counters.
use crate::report::{Measurement, Point};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

pub const WORKLOADS: [&str; 3] = ["oltp_point_select", "oltp_read_only", "oltp_read_write"];

/// The repository's sysbench scripts, written into the working folder so
/// that the binary runs them wherever it is started.
const SCRIPTS: [(&str, &str); 4] = [
    (
        "scan_pk.lua",
        include_str!("../../../bench/sysbench/scan_pk.lua"),
    ),
    (
        "scan_covering.lua",
        include_str!("../../../bench/sysbench/scan_covering.lua"),
    ),
    (
        "scan_noncovering.lua",
        include_str!("../../../bench/sysbench/scan_noncovering.lua"),
    ),
    (
        "q6_month.lua",
        include_str!("../../../bench/sysbench/q6_month.lua"),
    ),
];

/// The table a workload reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dataset {
    /// `sbtest.sbtest1` as sysbench's `prepare` makes it (`rows` rows).
    Sbtest,
    /// `sbtest.lineitem` as `q6_month.lua prepare` makes it.
    Lineitem,
}

/// One measured case: a script (stock or the repository's) and its options.
#[derive(Debug, Clone)]
pub struct Workload {
    pub name: String,
    pub script: String,
    pub args: Vec<String>,
    pub data: Dataset,
}

impl Workload {
    /// A stock OLTP script on sbtest.
    pub fn oltp(script: &str) -> Workload {
        Workload {
            name: script.into(),
            script: script.into(),
            args: Vec::new(),
            data: Dataset::Sbtest,
        }
    }

    /// Seed 001's scans: PK, covering and non-covering ranges of 10 and
    /// 1000 rows (the non-covering one reads column c of every row).
    pub fn scans() -> Vec<Workload> {
        let mut v = Vec::new();
        for n in [10, 1000] {
            for (kind, extra) in [
                ("pk", None),
                ("covering", None),
                ("noncovering", Some("--scan_mode=sumlen")),
            ] {
                let mut args = vec![format!("--range_size={n}")];
                args.extend(extra.map(String::from));
                v.push(Workload {
                    name: format!("{kind}_{n}"),
                    script: format!("scan_{kind}.lua"),
                    args,
                    data: Dataset::Sbtest,
                });
            }
        }
        v
    }

    /// Seed 000's Q6 for one random month: through the l_shipdate index as
    /// a prepared statement and as text, and by a table scan.
    pub fn q6() -> Vec<Workload> {
        [
            ("index", "--q6_ps=on"),
            ("index_text", "--q6_ps=off"),
            ("table_scan", "--q6_hint=IGNORE INDEX (lineitem_shipdate)"),
        ]
        .into_iter()
        .map(|(name, arg)| Workload {
            name: name.into(),
            script: "q6_month.lua".into(),
            args: vec![arg.into()],
            data: Dataset::Lineitem,
        })
        .collect()
    }
}

/// What one run of the experiment measures.
#[derive(Debug, Clone)]
pub struct SysbenchOptions {
    /// The experiment the points belong to.
    pub experiment: String,
    pub threads: Vec<usize>,
    pub seconds: f64,
    pub repeat: usize,
    /// sbtest rows.
    pub rows: u32,
    /// lineitem rows (Q6).
    pub lineitem_rows: u64,
    pub workloads: Vec<Workload>,
    /// Systems, in order: "lineardb" and/or "mariadb".
    pub systems: Vec<String>,
    /// Working folder: data directories, scripts and server logs. Data of
    /// the right size found there is reused.
    pub work: PathBuf,
    /// The `lineardb` binary to serve with.
    pub lineardb: PathBuf,
    pub pool_mib: usize,
    /// When commits reach the disk, the same on both servers (MySQL's
    /// `innodb_flush_log_at_trx_commit`: 1 synced per commit, 2 written
    /// per commit and synced once a second, as in ANCHORS.md).
    pub flush_at_commit: u8,
    /// lineardb's instrumentation settings to alternate (`SET GLOBAL
    /// lineardb_instrumentation` before each run); empty: as it is.
    pub instrumentation: Vec<bool>,
}

/// A server this experiment started; stopped (SIGTERM, then waited for)
/// when dropped.
pub(crate) struct Server {
    child: Child,
    pub(crate) port: u16,
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
    pub(crate) fn cpu_seconds(&self) -> f64 {
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
    let child = Command::new(&o.lineardb)
        .args(["serve", "--port", &port.to_string()])
        .args(["--pool-mib", &o.pool_mib.to_string()])
        .args(["--flush-log-at-trx-commit", &o.flush_at_commit.to_string()])
        .arg("--datadir")
        .arg(&data)
        .stdout(log.try_clone()?)
        .stderr(log)
        .spawn()?;
    // Stopped again if it never serves (the Server's drop).
    let mut server = Server { child, port };
    wait_until_serving(port, &mut server.child, "lineardb serve")?;
    Ok(server)
}

/// The server of `system`: `lineardb`; `mariadb` with the settings of
/// ANCHORS.md (adaptive hash index and performance_schema off);
/// `mariadb-ahi` with the adaptive hash index on, `mariadb-ps` with the
/// performance_schema on (the seeds' variants).
pub(crate) fn start_system(o: &SysbenchOptions, system: &str) -> anyhow::Result<Server> {
    match system {
        "lineardb" => start_lineardb(o),
        "mariadb" => start_mariadb(o, false, false),
        "mariadb-ahi" => start_mariadb(o, false, true),
        "mariadb-ps" => start_mariadb(o, true, false),
        other => {
            anyhow::bail!("unknown system {other:?} (lineardb, mariadb, mariadb-ahi, mariadb-ps)")
        }
    }
}

/// A private mariadbd; `performance_schema` and the adaptive hash index on
/// or off (ANCHORS.md: both off).
fn start_mariadb(
    o: &SysbenchOptions,
    performance_schema: bool,
    adaptive_hash_index: bool,
) -> anyhow::Result<Server> {
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
             innodb_flush_log_at_trx_commit={}\ninnodb_adaptive_hash_index={}\n\
             performance_schema={}\nmax_connections=500\nskip-log-bin\n\
             innodb_buffer_pool_load_at_startup=OFF\ninnodb_buffer_pool_dump_at_shutdown=OFF\n",
            data.display(),
            dir.join("mariadb.sock").display(),
            o.pool_mib,
            o.flush_at_commit,
            if adaptive_hash_index { "ON" } else { "OFF" },
            if performance_schema { "ON" } else { "OFF" },
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
    let child = Command::new("mariadbd")
        .arg(format!("--defaults-file={}", cnf.display()))
        .stdout(log.try_clone()?)
        .stderr(log)
        .spawn()
        .map_err(|e| anyhow::anyhow!("mariadbd: {e} (is mariadb-server installed?)"))?;
    let mut server = Server { child, port };
    wait_until_serving(port, &mut server.child, "mariadbd")?;
    Ok(server)
}

/// Options for the servers other experiments start: `lineardb` the
/// binary, `work` their folder, a `pool_mib` pool, commits synced.
fn server_options(lineardb: &Path, work: &Path, pool_mib: usize) -> SysbenchOptions {
    SysbenchOptions {
        experiment: String::new(),
        threads: Vec::new(),
        seconds: 0.0,
        repeat: 0,
        rows: 0,
        lineitem_rows: 0,
        workloads: Vec::new(),
        systems: Vec::new(),
        work: work.to_path_buf(),
        lineardb: lineardb.to_path_buf(),
        pool_mib,
        flush_at_commit: 1,
        instrumentation: Vec::new(),
    }
}

/// `lineardb serve` on the data directory `work/lineardb-data`.
pub(crate) fn start_lineardb_server(
    lineardb: &Path,
    work: &Path,
    pool_mib: usize,
) -> anyhow::Result<Server> {
    start_lineardb(&server_options(lineardb, work, pool_mib))
}

/// A private MariaDB in `work/mariadb` with ANCHORS.md's settings.
pub(crate) fn start_mariadb_server(work: &Path, pool_mib: usize) -> anyhow::Result<Server> {
    start_mariadb(&server_options(Path::new(""), work, pool_mib), false, false)
}

/// sysbench's arguments for the server on `port`.
fn sysbench_connection(port: u16) -> [String; 5] {
    [
        "--db-driver=mysql".into(),
        "--mysql-host=127.0.0.1".into(),
        format!("--mysql-port={port}"),
        "--mysql-user=root".into(),
        "--mysql-db=sbtest".into(),
    ]
}

fn sysbench(scripts: &Path, port: u16, args: &[String]) -> anyhow::Result<String> {
    let out = Command::new("sysbench")
        .current_dir(scripts)
        .args(args)
        .args(sysbench_connection(port))
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

/// The shortest slice of a server run that switches the instrumentation:
/// longer than in process, as each switch is a client round trip that
/// waits behind the workload's own queries.
const SERVER_SLICE: Duration = Duration::from_millis(500);

/// One sysbench run (`args_for(seconds)`) with lineardb's instrumentation
/// switched every `slice`, to each of `settings` in turn, after one
/// unmeasured second. Each slice's queries are the
/// server's `Questions` between two switches, less the two statements of
/// the switch itself; its CPU the server process's.
fn alternating_run(
    scripts: &Path,
    server: &Server,
    args_for: impl Fn(u64) -> Vec<String>,
    slice: Duration,
    modes: &crate::harness::Settings,
    settings: &[bool],
) -> anyhow::Result<crate::harness::Alternated> {
    let slices = settings.len();
    // After the last slice it is left on, as a server starts.
    let on_in = |k: usize| settings.get(k).copied().unwrap_or(true);
    let switch_to = |k: usize| modes.switch_value(on_in(k));
    let total = 1.0 + slice.as_secs_f64() * slices as f64 + 1.0;
    let run = Command::new("sysbench")
        .current_dir(scripts)
        .args(args_for(total.ceil() as u64))
        .args(sysbench_connection(server.port))
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| anyhow::anyhow!("sysbench: {e} (is sysbench installed?)"))?;
    let measured = (|| {
        let mut console = Console::open(server.port)?;
        std::thread::sleep(Duration::from_secs(1));
        let mut before = (
            console.switch(switch_to(0))?,
            Instant::now(),
            server.cpu_seconds(),
        );
        let start = before.1;
        let mut per_slice = Vec::with_capacity(slices);
        for k in 0..slices {
            let until = start + slice * (k as u32 + 1);
            if let Some(d) = until.checked_duration_since(Instant::now()) {
                std::thread::sleep(d);
            }
            let after = (
                console.switch(switch_to(k + 1))?,
                Instant::now(),
                server.cpu_seconds(),
            );
            per_slice.push(crate::harness::Slice {
                on: on_in(k),
                // Less the console's own SET and SHOW.
                ops: (after.0.questions - before.0.questions).saturating_sub(2),
                rows: after.0.rows_read.saturating_sub(before.0.rows_read),
                seconds: (after.1 - before.1).as_secs_f64(),
                cpu_seconds: after.2 - before.2,
                ..Default::default()
            });
            before = after;
        }
        Ok::<_, anyhow::Error>(per_slice)
    })();
    let out = run.wait_with_output()?;
    anyhow::ensure!(
        out.status.success(),
        "sysbench failed: {}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    Ok(crate::harness::Alternated::from_slices(&measured?))
}

/// A `mysql` client kept open to send statements while a workload runs.
struct Console {
    child: Child,
    input: std::process::ChildStdin,
    output: std::io::BufReader<std::process::ChildStdout>,
}

impl Console {
    fn open(port: u16) -> anyhow::Result<Console> {
        // -n: unbuffered, each answer is written as soon as it is made.
        let mut child = mysql_client(port)
            .arg("-n")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| anyhow::anyhow!("mysql: {e} (is the mysql client installed?)"))?;
        let input = child.stdin.take().expect("piped");
        let output = std::io::BufReader::new(child.stdout.take().expect("piped"));
        Ok(Console {
            child,
            input,
            output,
        })
    }

    /// Switches lineardb's instrumentation and returns the server's
    /// `Questions` and `Innodb_rows_read` just after.
    fn switch(&mut self, on: bool) -> anyhow::Result<StatusReading> {
        use std::io::{BufRead, Write};
        let v = if on { "ON" } else { "OFF" };
        writeln!(
            self.input,
            "SET GLOBAL lineardb_instrumentation = {v}; \
             SHOW GLOBAL STATUS WHERE Variable_name IN ('Questions', 'Innodb_rows_read');"
        )?;
        self.input.flush()?;
        let (mut questions, mut rows_read) = (None, None);
        for _ in 0..2 {
            let mut line = String::new();
            self.output.read_line(&mut line)?;
            let mut words = line.split_whitespace();
            let (name, value) = (words.next(), words.next().and_then(|n| n.parse().ok()));
            match name {
                Some("Questions") => questions = value,
                Some("Innodb_rows_read") => rows_read = value,
                _ => anyhow::bail!("unexpected status line {line:?}"),
            }
        }
        match (questions, rows_read) {
            (Some(questions), Some(rows_read)) => Ok(StatusReading {
                questions,
                rows_read,
            }),
            _ => anyhow::bail!("no Questions or Innodb_rows_read from the server"),
        }
    }
}

/// Two of the server's status counters, read together.
struct StatusReading {
    questions: u64,
    rows_read: u64,
}

impl Drop for Console {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// `queries:` total of a sysbench report (the line `queries: N (X per sec.)`).
pub fn queries(report: &str) -> Option<u64> {
    report
        .lines()
        .find_map(|l| l.trim().strip_prefix("queries:"))
        .and_then(|r| r.split_whitespace().next()?.parse().ok())
}

/// The mysql client for the server on `port`, printing rows
/// tab-separated without a header.
fn mysql_client(port: u16) -> Command {
    let mut c = Command::new("mysql");
    c.args(["-h127.0.0.1", &format!("-P{port}"), "-uroot", "-N", "-B"]);
    c
}

/// Runs `sql` through the mysql client; its rows, tab-separated, no header.
pub(crate) fn mysql(port: u16, sql: &str) -> anyhow::Result<String> {
    let out = mysql_client(port)
        .args(["-e", sql])
        .output()
        .map_err(|e| anyhow::anyhow!("mysql: {e} (is the mysql client installed?)"))?;
    anyhow::ensure!(
        out.status.success(),
        "{sql}: {}",
        String::from_utf8_lossy(&out.stderr).trim()
    );
    Ok(String::from_utf8_lossy(&out.stdout).trim().to_string())
}

/// Rows of `table`, or None if it does not exist.
fn row_count(port: u16, table: &str) -> Option<u64> {
    mysql(port, &format!("SELECT COUNT(*) FROM {table}"))
        .ok()?
        .parse()
        .ok()
}

/// Whether sbtest1's k values spread over 1..=rows as a uniform draw does
/// (the scan scripts' ranges of width N then match about N rows).
fn k_is_uniform(port: u16, rows: u64) -> bool {
    if rows < 1000 {
        return true;
    }
    mysql(port, "SELECT MAX(k) - MIN(k) FROM sbtest.sbtest1")
        .ok()
        .and_then(|span| span.parse::<u64>().ok())
        .is_some_and(|span| span >= rows / 10 * 9)
}

/// Makes `dataset` on the server unless a table of the right size is
/// there, then reads it once (warm caches, as in every run after).
fn prepare(
    o: &SysbenchOptions,
    scripts: &Path,
    port: u16,
    dataset: Dataset,
    log: &mut dyn FnMut(&str),
) -> anyhow::Result<()> {
    mysql(port, "CREATE DATABASE IF NOT EXISTS sbtest")?;
    let (table, rows) = match dataset {
        Dataset::Sbtest => ("sbtest.sbtest1", o.rows as u64),
        Dataset::Lineitem => ("sbtest.lineitem", o.lineitem_rows),
    };
    // sysbench draws k with its default distribution at prepare unless told
    // otherwise (1.0.20: 'special', most rows in a narrow band), which turns
    // the k range scans into mostly empty or very long ones.
    let stale = match dataset {
        Dataset::Sbtest => !k_is_uniform(port, rows),
        Dataset::Lineitem => false,
    };
    if stale || row_count(port, table) != Some(rows) {
        mysql(port, &format!("DROP TABLE IF EXISTS {table}"))?;
        log(&format!("  loading {rows} rows into {table}"));
        let args: Vec<String> = match dataset {
            Dataset::Sbtest => vec![
                "--tables=1".into(),
                format!("--table-size={rows}"),
                "--threads=2".into(),
                "--rand-type=uniform".into(),
                "oltp_read_only".into(),
                "prepare".into(),
            ],
            Dataset::Lineitem => vec![
                format!("--q6_rows={rows}"),
                "q6_month.lua".into(),
                "prepare".into(),
            ],
        };
        sysbench(scripts, port, &args)?;
    }
    let warm = match dataset {
        Dataset::Sbtest => {
            "SELECT SUM(LENGTH(c)) FROM sbtest.sbtest1; \
             SELECT SUM(k) FROM sbtest.sbtest1 FORCE INDEX (k_1) WHERE k > 0"
        }
        Dataset::Lineitem => {
            "SELECT SUM(l_quantity) FROM sbtest.lineitem; \
             SELECT COUNT(*) FROM sbtest.lineitem FORCE INDEX (lineitem_shipdate) \
             WHERE l_shipdate > '1990-01-01'"
        }
    };
    mysql(port, warm)?;
    Ok(())
}

/// Seed 004 through the servers: `SELECT COUNT(*)` of sbtest1 (`o.rows`
/// rows) as the first statement of a server just started, the page cache of
/// its data files dropped and its pool (`o.pool_mib`) smaller than the
/// table, so every page comes from the disk. lineardb at each thread count
/// (`lineardb_parallel_threads`); MariaDB once (its COUNT(*) reads with
/// one thread). Both count through the clustered index (`FORCE INDEX
/// (PRIMARY)`), as the seed's parallel read does. The pools start empty:
/// MariaDB's dump and load of the pool at shutdown and start are off.
pub fn cold_count(
    o: &SysbenchOptions,
    log: &mut dyn FnMut(&str),
    mut on_point: impl FnMut(&Point),
) -> anyhow::Result<Vec<Point>> {
    let scripts = write_scripts(&o.work)?;
    let mut points = Vec::new();
    for system in &o.systems {
        log(&format!("{system}: making or finding the data"));
        {
            let server = start_system(o, system)?;
            prepare(o, &scripts, server.port, Dataset::Sbtest, log)?;
        }
        // The data directory and the file holding the table (MariaDB: its
        // .ibd, both indexes).
        let (data, table_file) = match system.as_str() {
            "lineardb" => {
                let data = o.work.join("lineardb-data");
                let file = data.join("lineardb.ldb");
                (data, file)
            }
            _ => {
                let data = o.work.join("mariadb").join("data");
                let file = data.join("sbtest").join("sbtest1.ibd");
                (data, file)
            }
        };
        let bytes = std::fs::metadata(&table_file)?.len() as f64;
        let threads: Vec<usize> = if system == "lineardb" {
            o.threads.clone()
        } else {
            vec![1]
        };
        let mut secs: Vec<Vec<f64>> = vec![Vec::new(); threads.len()];
        for _ in 0..o.repeat.max(1) {
            for (i, &t) in threads.iter().enumerate() {
                for file in data_files(&data)? {
                    crate::seeds::drop_page_cache(&file)?;
                }
                let server = start_system(o, system)?;
                let set = if system == "lineardb" {
                    format!("SET lineardb_parallel_threads = {t}; ")
                } else {
                    String::new()
                };
                let t0 = Instant::now();
                // Through the clustered index on both (MariaDB would count
                // the smaller secondary index k_1 otherwise; the seed's
                // parallel read counts the clustered index).
                let n = mysql(
                    server.port,
                    &format!("{set}SELECT COUNT(*) FROM sbtest.sbtest1 FORCE INDEX (PRIMARY)"),
                )?;
                let s = t0.elapsed().as_secs_f64();
                anyhow::ensure!(n == o.rows.to_string(), "{system}: COUNT(*) = {n}");
                log(&format!("  {system}, {t} thread(s): {s:.2} s"));
                secs[i].push(s);
            }
        }
        let mut one = None;
        for (i, &t) in threads.iter().enumerate() {
            let s = crate::stats::median(&mut secs[i].clone());
            if t == 1 {
                one = Some(s);
            }
            let mut extra = std::collections::BTreeMap::new();
            extra.insert("seconds".to_string(), s);
            extra.insert("mib_per_s".to_string(), bytes / s / 1048576.0);
            let p = Point {
                experiment: o.experiment.clone(),
                system: Some(system.clone()),
                case: format!("{system} count_star"),
                threads: t,
                ratio_to_1_thread: one.map(|o| o / s),
                m: Measurement {
                    runs: secs[i].len(),
                    ops_per_s: 1.0 / s,
                    ops_per_s_min: 1.0 / secs[i].iter().cloned().fold(0.0, f64::max),
                    ops_per_s_max: 1.0 / secs[i].iter().cloned().fold(f64::INFINITY, f64::min),
                    rows_per_s: o.rows as f64 / s,
                    cpu_us_per_op: 0.0,
                    shared_writes_per_row: None,
                    shared_writes_per_op: None,
                },
                extra,
            };
            on_point(&p);
            points.push(p);
        }
    }
    Ok(points)
}

/// Every file under `dir`.
fn data_files(dir: &Path) -> anyhow::Result<Vec<PathBuf>> {
    let mut out = Vec::new();
    let mut todo = vec![dir.to_path_buf()];
    while let Some(d) = todo.pop() {
        for e in std::fs::read_dir(&d)? {
            let e = e?;
            let kind = e.file_type()?;
            if kind.is_dir() {
                todo.push(e.path());
            } else if kind.is_file() {
                out.push(e.path());
            }
        }
    }
    Ok(out)
}

/// Writes the repository's scripts into `work/scripts`; returns that folder.
fn write_scripts(work: &Path) -> anyhow::Result<PathBuf> {
    let scripts = work.join("scripts");
    std::fs::create_dir_all(&scripts)?;
    for (name, text) in SCRIPTS {
        std::fs::write(scripts.join(name), text)?;
    }
    Ok(scripts)
}

/// Runs the workloads on each system; one point per (system/workload,
/// threads). `log` gets progress lines.
pub fn run(
    o: &SysbenchOptions,
    log: &mut dyn FnMut(&str),
    mut on_point: impl FnMut(&Point),
) -> anyhow::Result<Vec<Point>> {
    let scripts = write_scripts(&o.work)?;
    let mut points = Vec::new();
    let total = o.systems.len() * o.workloads.len() * o.threads.len() * o.repeat.max(1);
    let bar = crate::progress::runs(total as u64, &o.experiment);
    let log = &mut |s: &str| bar.suspend(|| log(s));
    for system in &o.systems {
        log(&format!("{system}: starting the server"));
        let server = start_system(o, system)?;
        let port = server.port;
        let mut prepared = Vec::new();
        for workload in &o.workloads {
            if !prepared.contains(&workload.data) {
                prepare(o, &scripts, port, workload.data, log)?;
                prepared.push(workload.data);
            }
            log(&format!("{system}: {}", workload.name));
            let common: Vec<String> = match workload.data {
                Dataset::Sbtest => vec![
                    "--tables=1".into(),
                    format!("--table-size={}", o.rows),
                    "--rand-type=uniform".into(),
                ],
                Dataset::Lineitem => Vec::new(),
            };
            let args_for = |threads: usize, secs: u64| -> Vec<String> {
                let mut a = common.clone();
                a.extend(workload.args.iter().cloned());
                a.extend([
                    format!("--threads={threads}"),
                    format!("--time={secs}"),
                    "--mysql-ignore-errors=1213,1205".into(),
                    workload.script.clone(),
                    "run".into(),
                ]);
                a
            };
            // One unmeasured second first: plans and caches warm. Its query
            // count tells how long one query takes.
            let warm = queries(&sysbench(&scripts, port, &args_for(2, 1))?).unwrap_or(0);
            let secs = o.seconds.max(1.0).round() as u64;
            // The instrumentation settings to alternate (lineardb only: the
            // server switches at run time).
            let modes = crate::harness::Settings::new(if system == "lineardb" {
                &o.instrumentation
            } else {
                &[]
            });
            let mut runs: Vec<Vec<Vec<(f64, f64)>>> =
                vec![vec![Vec::new(); o.threads.len()]; modes.len()];
            let mut alternated: Vec<Vec<crate::harness::Alternated>> =
                vec![Vec::new(); o.threads.len()];
            for rep in 0..o.repeat.max(1) {
                for (i, &t) in o.threads.iter().enumerate() {
                    if let Some((on, off)) = modes.on_off() {
                        // The warm-up's 2 threads made `warm` queries in a
                        // second; t threads on the same cores make about as
                        // many, so each of theirs takes about t / warm s.
                        let op_seconds = t as f64 / warm.max(1) as f64;
                        let plan =
                            crate::harness::slice_plan(op_seconds, SERVER_SLICE, secs as f64);
                        if let Some((slice, pairs)) = plan {
                            let settings =
                                crate::harness::slice_settings(pairs, (rep * 1000 + t) as u64);
                            let a = alternating_run(
                                &scripts,
                                &server,
                                |secs| args_for(t, secs),
                                slice,
                                &modes,
                                &settings,
                            )?;
                            let per_query = |r: &crate::run_result::RunResult| {
                                (r.ops_per_s(), r.cpu_us_per_op())
                            };
                            runs[on][i].push(per_query(&a.on));
                            runs[off][i].push(per_query(&a.off));
                            alternated[i].push(a);
                            bar.inc(modes.len() as u64);
                            continue;
                        }
                    }
                    for mi in modes.order(rep) {
                        if let Some(on) = modes.get(mi) {
                            let v = if modes.switch_value(on) { "ON" } else { "OFF" };
                            mysql(port, &format!("SET GLOBAL lineardb_instrumentation = {v}"))?;
                        }
                        let cpu0 = server.cpu_seconds();
                        let report = sysbench(&scripts, port, &args_for(t, secs))?;
                        let cpu = server.cpu_seconds() - cpu0;
                        let q = queries(&report)
                            .ok_or_else(|| anyhow::anyhow!("no query count in: {report}"))?;
                        runs[mi][i].push((q as f64 / secs as f64, cpu * 1e6 / q.max(1) as f64));
                        bar.inc(1);
                    }
                }
            }
            for mi in 0..modes.len() {
                let mut one_thread = None;
                for (i, &t) in o.threads.iter().enumerate() {
                    let runs = &runs[mi][i];
                    let mut qps: Vec<f64> = runs.iter().map(|r| r.0).collect();
                    let mut cpu: Vec<f64> = runs.iter().map(|r| r.1).collect();
                    let m = Measurement {
                        runs: runs.len(),
                        ops_per_s: crate::stats::median(&mut qps),
                        ops_per_s_min: qps.iter().cloned().fold(f64::INFINITY, f64::min),
                        ops_per_s_max: qps.iter().cloned().fold(0.0, f64::max),
                        rows_per_s: 0.0,
                        cpu_us_per_op: crate::stats::median(&mut cpu),
                        shared_writes_per_row: None,
                        shared_writes_per_op: None,
                    };
                    if t == 1 {
                        one_thread = Some(m.ops_per_s);
                    }
                    let mut p = Point {
                        experiment: o.experiment.clone(),
                        system: Some(system.clone()),
                        case: format!("{system} {}", modes.case(&workload.name, mi)),
                        threads: t,
                        ratio_to_1_thread: one_thread.map(|b| m.ops_per_s / b),
                        m,
                        extra: Default::default(),
                    };
                    modes.mark(&mut p, mi);
                    if modes.get(mi) == Some(true) {
                        crate::harness::mark_alternated(&mut p, &alternated[i]);
                    }
                    bar.suspend(|| on_point(&p));
                    points.push(p);
                }
            }
        }
        drop(server);
    }
    bar.finish_and_clear();
    Ok(points)
}

/// The indexes seed 003 builds in one statement.
const SEED003_INDEXES: [(&str, &str); 3] = [
    ("s3_shipdate", "l_shipdate"),
    ("s3_partkey", "l_partkey"),
    ("s3_suppkey", "l_suppkey"),
];

/// Seed 003 through the servers: `ALTER TABLE lineitem ADD INDEX` of three
/// indexes in one statement, timed by the client, with the server's
/// instrumentation off and on (MariaDB: `performance_schema`, restarted;
/// lineardb: `lineardb_instrumentation`), at each build thread count
/// lineardb takes (`lineardb_parallel_threads`; MariaDB builds with one).
/// The indexes are dropped after each build.
pub fn create_index(
    o: &SysbenchOptions,
    log: &mut dyn FnMut(&str),
    mut on_point: impl FnMut(&Point),
) -> anyhow::Result<Vec<Point>> {
    let scripts = write_scripts(&o.work)?;
    let add = SEED003_INDEXES
        .iter()
        .map(|(n, c)| format!("ADD INDEX {n} ({c})"))
        .collect::<Vec<_>>()
        .join(", ");
    let drop_all = SEED003_INDEXES
        .iter()
        .map(|(n, _)| format!("DROP INDEX {n}"))
        .collect::<Vec<_>>()
        .join(", ");
    let mut points = Vec::new();
    for system in &o.systems {
        for instrumented in [false, true] {
            let case = if instrumented {
                "create_index".to_string()
            } else {
                format!("create_index{}", crate::harness::INSTRUMENTATION_OFF)
            };
            log(&format!("{system}, {case}: starting the server"));
            let server = match system.as_str() {
                "lineardb" => start_lineardb(o)?,
                "mariadb" => start_mariadb(o, instrumented, false)?,
                other => anyhow::bail!("unknown system {other:?} (lineardb, mariadb)"),
            };
            let port = server.port;
            prepare(o, &scripts, port, Dataset::Lineitem, log)?;
            // Indexes left by an interrupted run.
            for (n, _) in SEED003_INDEXES {
                let _ = mysql(port, &format!("ALTER TABLE sbtest.lineitem DROP INDEX {n}"));
            }
            // One untimed build first: the first build after a start also
            // pays for faulting in the pool's memory, which later ones reuse.
            mysql(port, &format!("ALTER TABLE sbtest.lineitem {add}"))?;
            mysql(port, &format!("ALTER TABLE sbtest.lineitem {drop_all}"))?;
            let threads: Vec<usize> = if system == "lineardb" {
                o.threads.clone()
            } else {
                vec![1]
            };
            let mut one = None;
            for &t in &threads {
                let mut secs = Vec::new();
                for _ in 0..o.repeat.max(1) {
                    let mut set = String::new();
                    if system == "lineardb" {
                        set = format!(
                            "SET GLOBAL lineardb_instrumentation = {}; \
                             SET lineardb_parallel_threads = {t}; ",
                            if instrumented { "ON" } else { "OFF" }
                        );
                    }
                    let t0 = Instant::now();
                    mysql(port, &format!("{set}ALTER TABLE sbtest.lineitem {add}"))?;
                    secs.push(t0.elapsed().as_secs_f64());
                    mysql(port, &format!("ALTER TABLE sbtest.lineitem {drop_all}"))?;
                }
                let s = crate::stats::median(&mut secs.clone());
                let rows = o.lineitem_rows as f64 * SEED003_INDEXES.len() as f64;
                let m = Measurement {
                    runs: secs.len(),
                    ops_per_s: 1.0 / s,
                    ops_per_s_min: 1.0 / secs.iter().cloned().fold(0.0, f64::max),
                    ops_per_s_max: 1.0 / secs.iter().cloned().fold(f64::INFINITY, f64::min),
                    rows_per_s: rows / s,
                    cpu_us_per_op: 0.0,
                    shared_writes_per_row: None,
                    shared_writes_per_op: None,
                };
                if t == 1 {
                    one = Some(s);
                }
                let mut extra = std::collections::BTreeMap::new();
                extra.insert("seconds".to_string(), s);
                let p = Point {
                    experiment: o.experiment.clone(),
                    system: Some(system.clone()),
                    case: format!("{system} {case}"),
                    threads: t,
                    ratio_to_1_thread: one.map(|o| o / s),
                    m,
                    extra,
                };
                log(&format!("  {t} thread(s): {s:.2} s"));
                on_point(&p);
                points.push(p);
            }
            if system == "lineardb" {
                mysql(port, "SET GLOBAL lineardb_instrumentation = ON")?;
            }
            drop(server);
        }
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
