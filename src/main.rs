//! The `lineardb` command.
use clap::{Args, Parser, Subcommand};
use lineardb_bench::engine::{self, Case, EngineOptions};
use lineardb_bench::report;
use lineardb_bench::results::Throughput;
use lineardb_bench::seeds::{self, SeedOptions};
use std::path::PathBuf;

mod top;

/// mimalloc's heaps are per thread: query paths that allocate small
/// buffers never share an allocator lock, whatever the thread count
/// (glibc shares its arenas once threads outnumber 8 per core).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[derive(Parser)]
#[command(
    name = "lineardb",
    version,
    about = "A MySQL-compatible database whose reads scale linearly with cores"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Run a benchmark.
    Bench {
        #[command(subcommand)]
        experiment: Experiment,
    },
    /// Serve the MySQL protocol (the mysql client, drivers, sysbench).
    Serve(ServeArgs),
    /// Show a running server's top waits, hot pages and statements,
    /// refreshed (from its performance_schema tables).
    Top(top::TopArgs),
}

#[derive(Args)]
struct ServeArgs {
    /// Data directory, created on first start.
    #[arg(long, default_value = "./lineardb-data")]
    datadir: PathBuf,
    /// TCP port (0: any free port, printed at start).
    #[arg(long, default_value_t = 3306)]
    port: u16,
    /// Address to listen on.
    #[arg(long, default_value = "127.0.0.1")]
    bind: String,
    /// Buffer pool size in MiB.
    #[arg(long, default_value_t = 4096)]
    pool_mib: usize,
    /// Worker threads serving requests (0: one per core; more start while
    /// long queries hold them).
    #[arg(long, default_value_t = 0)]
    workers: usize,
    /// When a commit reaches the disk, as InnoDB's
    /// innodb_flush_log_at_trx_commit: 1 = synced at every commit (group
    /// commit), 2 = written at commit and synced once a second, 0 = written
    /// and synced once a second.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(0..=2))]
    flush_log_at_trx_commit: u64,
    /// TLS certificate (PEM). Without --ssl-cert and --ssl-key a
    /// self-signed one is made in the data directory on first start.
    #[arg(long, requires = "ssl_key")]
    ssl_cert: Option<PathBuf>,
    /// TLS private key (PEM).
    #[arg(long, requires = "ssl_cert")]
    ssl_key: Option<PathBuf>,
    /// No TLS at all.
    #[arg(long, conflicts_with_all = ["ssl_cert", "ssl_key", "require_secure_transport"])]
    skip_ssl: bool,
    /// Refuse logins that do not use TLS (error 3159).
    #[arg(long)]
    require_secure_transport: bool,
}

/// Seconds `serve` waits for another process to release the data file.
const LOCK_WAIT_TRIES: u32 = 30;

fn serve(a: ServeArgs) -> anyhow::Result<()> {
    std::fs::create_dir_all(&a.datadir)?;
    let cfg = lineardb_table::EngineConfig {
        pool_bytes: a.pool_mib << 20,
        ..Default::default()
    };
    // A server still shutting down (flushing its pool) holds the data
    // file's lock for a while: wait for it, as InnoDB does for ibdata1.
    let path = a.datadir.join("lineardb.ldb");
    let mut waited = 0u32;
    let engine = loop {
        match lineardb_table::Engine::open(&path, cfg) {
            Err(e) if e.is_in_use() && waited < LOCK_WAIT_TRIES => {
                if waited == 0 {
                    eprintln!("{e}; waiting up to {LOCK_WAIT_TRIES} s for it");
                }
                waited += 1;
                std::thread::sleep(std::time::Duration::from_secs(1));
            }
            r => break std::sync::Arc::new(r?),
        }
    };
    if !engine.set_flush_log_at_trx_commit(a.flush_log_at_trx_commit) {
        anyhow::bail!("--flush-log-at-trx-commit must be 0, 1 or 2");
    }
    let recovery = engine.recovery();
    if recovery.redo_records > 0 || recovery.rolled_back > 0 {
        eprintln!("lineardb: {recovery}");
    }
    // Before listening: a client that connects finds the certificate.
    let tls = if a.skip_ssl {
        None
    } else {
        Some(lineardb_server::Tls::load_or_make(
            a.ssl_cert.as_deref(),
            a.ssl_key.as_deref(),
            &a.datadir,
            a.require_secure_transport,
        )?)
    };
    let listener = std::net::TcpListener::bind((a.bind.as_str(), a.port))?;
    eprintln!(
        "lineardb {} serving {} on {}",
        env!("CARGO_PKG_VERSION"),
        a.datadir.display(),
        listener.local_addr()?
    );
    {
        // A clean shutdown on SIGINT/SIGTERM: flush the pool and close the file.
        let engine = engine.clone();
        lineardb_server::on_shutdown(move || {
            if let Err(e) = engine.close() {
                eprintln!("shutdown: {e}");
                std::process::exit(1);
            }
            eprintln!("lineardb: shut down cleanly");
            std::process::exit(0);
        })?;
    }
    lineardb_server::serve(listener, engine, a.workers, tls)?;
    Ok(())
}

#[derive(Subcommand)]
enum Experiment {
    /// The storage core alone: point lookups, PK / covering / non-covering
    /// range scans of 10 and 1000 entries over 1M sbtest-shaped rows.
    Engine(EngineArgs),
    /// A short tour on small data (under a minute): the engine bench on
    /// 200k rows at 1, 2 and 4 threads.
    Quick(CommonArgs),
    /// Seed 001: PK, covering and non-covering range scans of 10 and 1000
    /// rows on sbtest (1M rows), through the table layer.
    #[command(name = "seed001-scans")]
    Seed001Scans(SeedArgs),
    /// Seed 000: TPC-H Q6 one-month variant on lineitem (SF 1), index plan
    /// vs table scan.
    #[command(name = "seed000-q6")]
    Seed000Q6(SeedArgs),
    /// Seed 002: a cache line every thread updates against per-thread
    /// counters (shared atomic, false sharing, padded per thread, check
    /// before set): updates/s against threads.
    #[command(name = "seed002-counters")]
    Seed002Counters(SeedArgs),
    /// Stock sysbench oltp_point_select, oltp_read_only and
    /// oltp_read_write against a `lineardb serve` started for the run
    /// (needs sysbench and the mysql client); `--compare mariadb` runs the
    /// same against a private MariaDB server (needs mariadb-server).
    #[command(name = "sysbench-oltp")]
    SysbenchOltp(SysbenchArgs),
    /// TPC-C: Percona's sysbench-tpcc scripts (bench/sysbench-tpcc,
    /// unmodified) against a `lineardb serve` started for the run, and with
    /// `--compare mariadb` against a private MariaDB with the same
    /// durability: transactions/s, tpmC (New-Order commits per minute,
    /// counted) and p95 latency against threads; the scripts' consistency
    /// checks after every run.
    Tpcc(TpccArgs),
    /// Seed 003: CREATE INDEX of 3 indexes on lineitem (SF 1) in one pass,
    /// 1 and 2 build threads, instrumentation on and off.
    #[command(name = "seed003-create-index")]
    Seed003CreateIndex(SeedArgs),
    /// Seed 004: cold COUNT(*) of a table larger than the pool, page cache
    /// dropped, against dd's sequential bandwidth of the same file;
    /// `--compare mariadb`: the same COUNT(*) as the first statement of
    /// each server just started, page cache dropped.
    #[command(name = "seed004-cold-count")]
    Seed004ColdCount(SeedArgs),
    /// DBT-3 (TPC-H): the 22 queries on `lineardb serve` (and with
    /// `--compare mariadb` on a private MariaDB, same data, schema and
    /// indexes), median time per query, answers checked against the
    /// reference answers of the scale factor.
    Dbt3(Dbt3Args),
    /// Every experiment above (but `engine`) one after the other, each
    /// with its defaults, results in one folder per experiment.
    All(AllArgs),
    /// Draws the charts and report of a results folder again from its
    /// points.jsonl (after a change to the charts, or to merge folders).
    Chart {
        /// The results folder.
        dir: PathBuf,
    },
}

#[derive(Args, Clone)]
struct AllArgs {
    /// Also run the experiments that support it against this system:
    /// `mariadb` (seed001-scans, seed000-q6, seed003-create-index,
    /// seed004-cold-count, sysbench-oltp) or `embedded` (seed001-scans on
    /// LMDB and SQLite, seed000-q6 on SQLite).
    #[arg(long)]
    compare: Option<String>,
    /// Parent folder of the experiments' results (default: bench-results).
    #[arg(long, default_value = "bench-results")]
    out: PathBuf,
    /// Parent folder of the experiments' data (default: a temporary
    /// directory per experiment); data of the right size there is reused.
    #[arg(long)]
    datadir: Option<PathBuf>,
    /// Seconds per run, for every experiment (default: each one's own).
    #[arg(long)]
    seconds: Option<f64>,
    /// With --compare: run only the experiments that compare with it.
    #[arg(long)]
    skip_uncompared: bool,
}

#[derive(Args, Clone)]
struct SeedArgs {
    #[command(flatten)]
    common: CommonArgs,
    /// Thread counts, comma-separated (default depends on the experiment).
    #[arg(long, value_delimiter = ',')]
    threads: Vec<usize>,
    /// Seconds per run.
    #[arg(long)]
    seconds: Option<f64>,
    /// Runs per point (medians are reported).
    #[arg(long)]
    repeat: Option<usize>,
    /// sbtest rows.
    #[arg(long)]
    rows: Option<u32>,
    /// TPC-H scale factor.
    #[arg(long)]
    sf: Option<f64>,
    /// Buffer pool size in MiB.
    #[arg(long)]
    pool_mib: Option<usize>,
    /// Threads for loading data and building indexes (default: cores).
    #[arg(long)]
    load_threads: Option<usize>,
    /// Cases to run, comma-separated (default: all).
    #[arg(long, value_delimiter = ',')]
    cases: Vec<String>,
    /// seed001-scans: writer threads committing row updates while the
    /// scans are measured.
    #[arg(long, default_value_t = 0)]
    writers: usize,
    /// Run the experiment through a `lineardb serve` it starts rather than
    /// in process (sysbench with the repository's scripts, or the mysql
    /// client for seed003-create-index and seed004-cold-count).
    #[arg(long)]
    sysbench: bool,
    /// `mariadb`: the same workload through the same client against a
    /// private MariaDB server too (implies --sysbench; seed001-scans,
    /// seed000-q6, seed003-create-index, seed004-cold-count);
    /// `embedded`: seed001-scans in process on LMDB and SQLite too,
    /// seed000-q6 on SQLite.
    #[arg(long)]
    compare: Option<String>,
    /// seed001-scans with `--compare mariadb`: MariaDB as configured in
    /// ANCHORS.md only, without the seed's variants (adaptive hash index
    /// on, performance_schema on).
    #[arg(long)]
    no_variants: bool,
}

impl SeedArgs {
    /// The systems a sysbench run of this experiment measures, or None to
    /// run it in process.
    fn sysbench_systems(&self) -> anyhow::Result<Option<Vec<String>>> {
        match self.compare.as_deref() {
            None if self.sysbench => Ok(Some(vec!["lineardb".into()])),
            None => Ok(None),
            Some("mariadb") => Ok(Some(vec!["lineardb".into(), "mariadb".into()])),
            Some("embedded") => Ok(None),
            Some(other) => anyhow::bail!("--compare {other}: mariadb or embedded"),
        }
    }

    /// Options of a sysbench run of `experiment` (sbtest `rows`, the pool
    /// of ANCHORS.md: 4 GiB).
    fn sysbench_options(
        &self,
        experiment: &str,
        systems: Vec<String>,
        workloads: Vec<lineardb_bench::sysbench::Workload>,
        rows: u32,
    ) -> anyhow::Result<lineardb_bench::sysbench::SysbenchOptions> {
        let dir = lineardb_bench::harness::DataDir::new(&self.common.datadir)?;
        let wanted = |w: &lineardb_bench::sysbench::Workload| {
            self.cases.is_empty() || self.cases.contains(&w.name)
        };
        Ok(lineardb_bench::sysbench::SysbenchOptions {
            experiment: experiment.into(),
            threads: if self.threads.is_empty() {
                default_threads()
            } else {
                self.threads.clone()
            },
            seconds: self.seconds.unwrap_or(5.0),
            repeat: self.repeat.unwrap_or(1),
            rows: self.rows.unwrap_or(rows),
            lineitem_rows: (6_000_000.0 * self.sf.unwrap_or(1.0)) as u64,
            workloads: workloads.into_iter().filter(wanted).collect(),
            systems,
            work: std::fs::canonicalize(&dir.path)?,
            lineardb: std::env::current_exe()?,
            pool_mib: self.pool_mib.unwrap_or(4096),
            flush_at_commit: 2,
            instrumentation: self.common.instrumentation(),
        })
    }

    fn options(&self, threads: &[usize], seconds: f64, rows: u32, pool_mib: usize) -> SeedOptions {
        let cores = std::thread::available_parallelism().map_or(2, |n| n.get());
        SeedOptions {
            threads: if self.threads.is_empty() {
                threads.to_vec()
            } else {
                self.threads.clone()
            },
            seconds: self.seconds.unwrap_or(seconds),
            repeat: self.repeat.unwrap_or(3),
            datadir: self.common.datadir.clone(),
            pool_bytes: self.pool_mib.unwrap_or(pool_mib) << 20,
            rows: self.rows.unwrap_or(rows),
            sf: self.sf.unwrap_or(1.0),
            load_threads: self.load_threads.unwrap_or(cores),
            cases: self.cases.clone(),
            writers: self.writers,
            embedded: self.compare.as_deref() == Some("embedded"),
            instrumentation: self.common.instrumentation(),
        }
    }
}

#[derive(Args, Clone)]
struct SysbenchArgs {
    #[command(flatten)]
    common: CommonArgs,
    /// Client threads, comma-separated (default: 1, 2, 4, ... up to twice
    /// the cores, and 32).
    #[arg(long, value_delimiter = ',')]
    threads: Vec<usize>,
    /// Seconds per run.
    #[arg(long, default_value_t = 5.0)]
    seconds: f64,
    /// Runs per point (medians are reported).
    #[arg(long, default_value_t = 1)]
    repeat: usize,
    /// sbtest rows.
    #[arg(long, default_value_t = 100_000)]
    rows: u32,
    /// Workloads, comma-separated (default: oltp_point_select,
    /// oltp_read_only, oltp_read_write).
    #[arg(long, value_delimiter = ',')]
    workloads: Vec<String>,
    /// Send the statements as text (sysbench's `--db-ps-mode=disable`)
    /// instead of as prepared statements; the cases are named `<workload>_text`.
    #[arg(long)]
    text_statements: bool,
    /// Also run the same against this system: `mariadb`.
    #[arg(long)]
    compare: Option<String>,
    /// Buffer pool of each server in MiB.
    #[arg(long, default_value_t = 1024)]
    pool_mib: usize,
    /// When commits reach the disk on both servers, as
    /// innodb_flush_log_at_trx_commit (ANCHORS.md uses 2).
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u8).range(0..=2))]
    flush_log_at_trx_commit: u8,
}

#[derive(Args, Clone)]
struct TpccArgs {
    #[command(flatten)]
    common: CommonArgs,
    /// Warehouses (the scripts' --scale).
    #[arg(long, default_value_t = 1)]
    warehouses: u32,
    /// Client threads, comma-separated.
    #[arg(long, value_delimiter = ',', default_values_t = [1, 2, 8])]
    threads: Vec<usize>,
    /// Seconds per run.
    #[arg(long, default_value_t = 30.0)]
    seconds: f64,
    /// Runs per point (medians are reported).
    #[arg(long, default_value_t = 3)]
    repeat: usize,
    /// Also run the same against this system: `mariadb`.
    #[arg(long)]
    compare: Option<String>,
    /// Buffer pool of each server in MiB (ANCHORS.md's 4 GiB: ten
    /// warehouses fit).
    #[arg(long, default_value_t = 4096)]
    pool_mib: usize,
    /// When commits reach the disk on both servers, as
    /// innodb_flush_log_at_trx_commit (1: synced at each commit).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u8).range(0..=2))]
    flush_log_at_trx_commit: u8,
}

#[derive(Args, Clone)]
struct Dbt3Args {
    /// Scale factor (1: lineitem of 6M rows).
    #[arg(long, default_value_t = 1.0)]
    sf: f64,
    /// Runs per query (the median is reported).
    #[arg(long, default_value_t = 3)]
    runs: usize,
    /// Also run the queries on this system: `mariadb`.
    #[arg(long)]
    compare: Option<String>,
    /// Buffer pool of each server in MiB.
    #[arg(long, default_value_t = 4096)]
    pool_mib: usize,
    /// lineardb's memory budget per query in MiB (`lineardb_query_memory`;
    /// sorts and groups past it spill to temporary files).
    #[arg(long)]
    query_memory_mib: Option<usize>,
    /// Working folder (data of the same scale there is reused).
    #[arg(long, default_value = "bench-work/dbt3")]
    work: PathBuf,
    /// The reference answers (`qNN.csv`); default
    /// `tests/tpch-answers/sf<SF>` when it exists.
    #[arg(long)]
    answers: Option<PathBuf>,
    /// Where the report and chart go.
    #[arg(long, default_value = "bench-results/dbt3")]
    out: PathBuf,
}

/// The systems an experiment through the servers runs on: lineardb, and
/// MariaDB with `--compare mariadb`.
fn compared_systems(compare: Option<&str>) -> anyhow::Result<Vec<String>> {
    let mut systems = vec!["lineardb".to_string()];
    match compare {
        None => {}
        Some("mariadb") => systems.push("mariadb".into()),
        Some(other) => anyhow::bail!("--compare {other}: only mariadb is supported"),
    }
    Ok(systems)
}

/// The thread counts of the scaling experiments: 1, 2, 4, ... up to twice
/// the cores, and 32 (the seeds' highest count) if that is more.
fn default_threads() -> Vec<usize> {
    let mut t = doubling_to_twice_the_cores();
    if !t.contains(&32) && t.last().is_some_and(|&m| m < 32) {
        t.push(32);
    }
    t
}

/// 1, 2, 4, ... up to twice the cores.
fn doubling_to_twice_the_cores() -> Vec<usize> {
    let cores = std::thread::available_parallelism().map_or(2, |n| n.get());
    std::iter::successors(Some(1), |t| Some(t * 2))
        .take_while(|&t| t <= 2 * cores)
        .collect()
}

#[derive(Args, Clone)]
struct CommonArgs {
    /// Print one JSON object per line instead of a table.
    #[arg(long)]
    json: bool,
    /// Directory for the data file (default: a temporary directory here).
    #[arg(long)]
    datadir: Option<PathBuf>,
    /// Folder for the results: points.jsonl, report.md and the charts
    /// (default: bench-results/<experiment>).
    #[arg(long)]
    out: Option<PathBuf>,
    /// Measure with the instrumentation (waits, hot pages, statement
    /// digests) on, off, or both alternated (`on,off`): the report then
    /// gives the ratio of the two at each point. `on,on` is a control:
    /// measured as `on,off` with it kept on throughout (what the method
    /// shows with nothing to find).
    #[arg(long, value_delimiter = ',', value_parser = ["on", "off"])]
    instrumentation: Vec<String>,
}

impl CommonArgs {
    /// The instrumentation settings asked for.
    fn instrumentation(&self) -> Vec<bool> {
        self.instrumentation.iter().map(|s| s == "on").collect()
    }

    /// Writes the results folder of `experiment` and says where it is.
    fn save(
        &self,
        experiment: &str,
        points: &[report::Point],
        plot: lineardb_bench::results::Throughput,
    ) -> anyhow::Result<()> {
        let dir = self
            .out
            .clone()
            .unwrap_or_else(|| PathBuf::from("bench-results").join(experiment));
        let command = std::env::args().collect::<Vec<_>>().join(" ");
        let files = lineardb_bench::results::write(
            &dir,
            experiment,
            &command,
            &lineardb_bench::results::machine(),
            points,
            plot,
        )?;
        let names: Vec<String> = files
            .iter()
            .filter_map(|f| f.file_name().map(|n| n.to_string_lossy().into_owned()))
            .collect();
        eprintln!("results in {}: {}", dir.display(), names.join(", "));
        Ok(())
    }
}

#[derive(Args)]
struct EngineArgs {
    #[command(flatten)]
    common: CommonArgs,
    /// Thread counts, comma-separated (default: 1, 2, 4, ... up to twice
    /// the cores, and 32).
    #[arg(long, value_delimiter = ',')]
    threads: Vec<usize>,
    /// Seconds per run.
    #[arg(long, default_value_t = 2.0)]
    seconds: f64,
    /// Runs per point (medians are reported).
    #[arg(long, default_value_t = 3)]
    repeat: usize,
    /// Rows in the table.
    #[arg(long, default_value_t = 1_000_000)]
    rows: u32,
    /// Cases to run, comma-separated (default: all).
    #[arg(long, value_delimiter = ',')]
    cases: Vec<String>,
    /// Buffer pool size in MiB.
    #[arg(long, default_value_t = 1024)]
    pool_mib: usize,
}

fn main() -> anyhow::Result<()> {
    let cli = Cli::parse();
    match cli.command {
        Command::Serve(a) => serve(a),
        Command::Top(a) => top::top(&a),
        Command::Bench { experiment } => match experiment {
            Experiment::Engine(a) => {
                let cases = if a.cases.is_empty() {
                    Case::ALL.to_vec()
                } else {
                    a.cases
                        .iter()
                        .map(|name| {
                            Case::ALL
                                .iter()
                                .copied()
                                .find(|c| c.name() == *name)
                                .ok_or_else(|| anyhow::anyhow!("unknown case {name:?}"))
                        })
                        .collect::<anyhow::Result<_>>()?
                };
                let opts = EngineOptions {
                    rows: a.rows,
                    threads: if a.threads.is_empty() {
                        default_threads()
                    } else {
                        a.threads
                    },
                    seconds: a.seconds,
                    repeat: a.repeat,
                    cases,
                    datadir: a.common.datadir.clone(),
                    pool_bytes: a.pool_mib << 20,
                    instrumentation: a.common.instrumentation(),
                };
                bench_engine(&opts, &a.common, "engine")
            }
            Experiment::Seed001Scans(a) => {
                if let Some(mut systems) = a.sysbench_systems()? {
                    if systems.iter().any(|s| s == "mariadb") && !a.no_variants {
                        // The seed's variants: adaptive hash index on, and
                        // performance_schema on.
                        systems.extend(["mariadb-ahi".into(), "mariadb-ps".into()]);
                    }
                    let workloads = lineardb_bench::sysbench::Workload::scans();
                    let o = a.sysbench_options("seed001-scans", systems, workloads, 1_000_000)?;
                    return print_points(&a.common, "seed001-scans", |log, on| {
                        lineardb_bench::sysbench::run(&o, log, on)
                    });
                }
                let o = a.options(&default_threads(), 2.0, 1_000_000, 1024);
                print_points(&a.common, "seed001-scans", |log, on| {
                    seeds::seed001_scans(&o, log, on)
                })
            }
            Experiment::Seed000Q6(a) => {
                if let Some(systems) = a.sysbench_systems()? {
                    let workloads = lineardb_bench::sysbench::Workload::q6();
                    let o = a.sysbench_options("seed000-q6", systems, workloads, 0)?;
                    return print_points(&a.common, "seed000-q6", |log, on| {
                        lineardb_bench::sysbench::run(&o, log, on)
                    });
                }
                let o = a.options(&default_threads(), 3.0, 0, 2048);
                print_points(&a.common, "seed000-q6", |log, on| {
                    seeds::seed000_q6(&o, log, on)
                })
            }
            Experiment::Seed002Counters(a) => {
                let o = a.options(&doubling_to_twice_the_cores(), 1.0, 0, 0);
                print_points(&a.common, "seed002-counters", |_, on| {
                    Ok(lineardb_bench::counters::seed002_counters(&o, on))
                })
            }
            Experiment::SysbenchOltp(a) => {
                let systems = compared_systems(a.compare.as_deref())?;
                let dir = lineardb_bench::harness::DataDir::new(&a.common.datadir)?;
                let threads = if a.threads.is_empty() {
                    default_threads()
                } else {
                    a.threads.clone()
                };
                let o = lineardb_bench::sysbench::SysbenchOptions {
                    experiment: "sysbench-oltp".into(),
                    threads,
                    seconds: a.seconds,
                    repeat: a.repeat,
                    rows: a.rows,
                    workloads: {
                        let names: Vec<&str> = if a.workloads.is_empty() {
                            lineardb_bench::sysbench::WORKLOADS.to_vec()
                        } else {
                            a.workloads.iter().map(String::as_str).collect()
                        };
                        names
                            .into_iter()
                            .map(|w| {
                                let mut w = lineardb_bench::sysbench::Workload::oltp(w);
                                if a.text_statements {
                                    w.name.push_str("_text");
                                    w.args.push("--db-ps-mode=disable".into());
                                }
                                w
                            })
                            .collect()
                    },
                    lineitem_rows: 0,
                    systems,
                    work: std::fs::canonicalize(&dir.path)?,
                    lineardb: std::env::current_exe()?,
                    pool_mib: a.pool_mib,
                    flush_at_commit: a.flush_log_at_trx_commit,
                    instrumentation: a.common.instrumentation(),
                };
                print_points(&a.common, "sysbench-oltp", |log, on| {
                    lineardb_bench::sysbench::run(&o, log, on)
                })
            }
            Experiment::Seed003CreateIndex(a) => {
                if let Some(systems) = a.sysbench_systems()? {
                    let mut o =
                        a.sysbench_options("seed003-create-index", systems, Vec::new(), 0)?;
                    if a.threads.is_empty() {
                        // Build threads: 1, 2, 4, ... up to the cores.
                        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
                        o.threads.retain(|&t| t <= cores);
                    }
                    o.repeat = a.repeat.unwrap_or(2);
                    return print_points(&a.common, "seed003-create-index", |log, on| {
                        lineardb_bench::sysbench::create_index(&o, log, on)
                    });
                }
                let o = a.options(&[1, 2], 0.0, 0, 4096);
                print_points(&a.common, "seed003-create-index", |log, on| {
                    seeds::seed003_create_index(&o, log, on)
                })
            }
            Experiment::Seed004ColdCount(a) => {
                if let Some(systems) = a.sysbench_systems()? {
                    let mut o =
                        a.sysbench_options("seed004-cold-count", systems, Vec::new(), 4_000_000)?;
                    if a.threads.is_empty() {
                        o.threads = doubling_to_twice_the_cores();
                    }
                    o.pool_mib = a.pool_mib.unwrap_or(128);
                    o.repeat = a.repeat.unwrap_or(3);
                    return print_points(&a.common, "seed004-cold-count", |log, on| {
                        lineardb_bench::sysbench::cold_count(&o, log, on)
                    });
                }
                let o = a.options(&doubling_to_twice_the_cores(), 0.0, 4_000_000, 128);
                print_points(&a.common, "seed004-cold-count", |log, on| {
                    seeds::seed004_cold_count(&o, log, on)
                })
            }
            Experiment::Quick(c) => {
                let opts = EngineOptions {
                    rows: 200_000,
                    threads: vec![1, 2, 4],
                    seconds: 1.0,
                    repeat: 1,
                    datadir: c.datadir.clone(),
                    instrumentation: c.instrumentation(),
                    ..EngineOptions::default()
                };
                bench_engine(&opts, &c, "quick")
            }
            Experiment::Dbt3(a) => dbt3(&a),
            Experiment::Tpcc(a) => {
                let systems = compared_systems(a.compare.as_deref())?;
                let dir = lineardb_bench::harness::DataDir::new(&a.common.datadir)?;
                let o = lineardb_bench::tpcc::TpccOptions {
                    servers: lineardb_bench::sysbench::SysbenchOptions {
                        experiment: "tpcc".into(),
                        threads: a.threads.clone(),
                        seconds: a.seconds,
                        repeat: a.repeat,
                        rows: 0,
                        lineitem_rows: 0,
                        workloads: Vec::new(),
                        systems,
                        work: std::fs::canonicalize(&dir.path)?,
                        lineardb: std::env::current_exe()?,
                        pool_mib: a.pool_mib,
                        flush_at_commit: a.flush_log_at_trx_commit,
                        instrumentation: Vec::new(),
                    },
                    warehouses: a.warehouses,
                };
                print_points(&a.common, "tpcc", |log, on| {
                    lineardb_bench::tpcc::run(&o, log, on)
                })
            }
            Experiment::All(a) => bench_all(&a),
            Experiment::Chart { dir } => redraw(&dir),
        },
    }
}

/// `bench chart`: the results folder `dir` written again from its points,
/// keeping the command line and the machine its report gives (the points
/// may have been measured elsewhere).
fn redraw(dir: &std::path::Path) -> anyhow::Result<()> {
    let text = std::fs::read_to_string(dir.join("points.jsonl"))?;
    let points: Vec<report::Point> = text
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(report::Point::from_json)
        .collect::<anyhow::Result<_>>()?;
    let experiment = points
        .first()
        .map(|p| p.experiment.clone())
        .ok_or_else(|| anyhow::anyhow!("{}: no points", dir.display()))?;
    let old = std::fs::read_to_string(dir.join("report.md")).unwrap_or_default();
    let command = old
        .split("```")
        .nth(1)
        .map(|c| c.trim().to_string())
        .unwrap_or_else(|| std::env::args().collect::<Vec<_>>().join(" "));
    let machine = old
        .lines()
        .find_map(|l| l.strip_prefix("Machine: "))
        .map(|m| m.trim_end_matches('.').to_string())
        .unwrap_or_else(lineardb_bench::results::machine);
    let files = lineardb_bench::results::write(
        dir,
        &experiment,
        &command,
        &machine,
        &points,
        plot_of(&experiment),
    )?;
    eprintln!("rewrote {} files in {}", files.len(), dir.display());
    Ok(())
}

/// What an experiment's throughput chart plots.
fn plot_of(experiment: &str) -> Throughput {
    match experiment {
        "seed002-counters" => Throughput::Rows("updates"),
        "seed003-create-index" => Throughput::Rows("index entries"),
        "seed004-cold-count" => Throughput::Rows("rows counted"),
        _ => Throughput::Ops,
    }
}

/// `bench all`: each experiment in a process of its own (a clean heap and
/// pool per experiment), then an index of the reports.
fn dbt3(a: &Dbt3Args) -> anyhow::Result<()> {
    use lineardb_bench::dbt3;
    let systems = compared_systems(a.compare.as_deref())?;
    let answers = a.answers.clone().or_else(|| {
        let d = PathBuf::from(format!("tests/tpch-answers/sf{}", a.sf));
        d.exists().then_some(d)
    });
    let o = dbt3::Dbt3Options {
        sf: a.sf,
        runs: a.runs.max(1),
        systems,
        work: a.work.clone(),
        lineardb: std::env::current_exe()?,
        pool_mib: a.pool_mib,
        query_memory_mib: a.query_memory_mib,
        threads: std::thread::available_parallelism().map_or(2, |n| n.get()),
        answers,
    };
    let timings = dbt3::run(&o, &mut std::io::stderr())?;
    let report = dbt3::report(&o, &timings);
    std::fs::create_dir_all(&a.out)?;
    std::fs::write(a.out.join("report.md"), &report)?;
    let series: Vec<lineardb_bench::chart::Series> = o
        .systems
        .iter()
        .map(|sys| lineardb_bench::chart::Series {
            name: sys.clone(),
            panel: String::new(),
            points: timings
                .iter()
                .filter(|t| &t.system == sys)
                .map(|t| (t.query, t.median()))
                .collect(),
        })
        .collect();
    lineardb_bench::chart::QueryChart {
        title: &format!(
            "DBT-3 SF {}: seconds per query (median of {})",
            a.sf, o.runs
        ),
        series: &series,
    }
    .write(&a.out.join("dbt3"))?;
    println!("{report}");
    if timings.iter().any(|t| t.wrong.is_some()) {
        anyhow::bail!("some answers differ from the reference (see the report)");
    }
    Ok(())
}

fn bench_all(a: &AllArgs) -> anyhow::Result<()> {
    // Each experiment with the systems it compares with.
    const EXPERIMENTS: [(&str, &[&str]); 6] = [
        ("seed002-counters", &[]),
        ("seed001-scans", &["mariadb", "embedded"]),
        ("seed000-q6", &["mariadb", "embedded"]),
        ("seed003-create-index", &["mariadb"]),
        ("seed004-cold-count", &["mariadb"]),
        ("sysbench-oltp", &["mariadb"]),
    ];
    if let Some(c) = a.compare.as_deref() {
        anyhow::ensure!(
            c == "mariadb" || c == "embedded",
            "--compare {c}: mariadb or embedded"
        );
    }
    let exe = std::env::current_exe()?;
    let mut index = String::from("# lineardb bench all\n\n");
    index.push_str(&format!(
        "Reproduce with:\n\n```\n{}\n```\n\n",
        std::env::args().collect::<Vec<_>>().join(" ")
    ));
    for (experiment, comparable) in EXPERIMENTS {
        if let Some(c) = a.compare.as_deref() {
            if a.skip_uncompared && !comparable.contains(&c) {
                continue;
            }
        }
        let out = a.out.join(experiment);
        let mut cmd = std::process::Command::new(&exe);
        cmd.args(["bench", experiment, "--out"]).arg(&out);
        if let Some(d) = &a.datadir {
            cmd.arg("--datadir").arg(d.join(experiment));
        }
        if let Some(s) = a.seconds {
            cmd.args(["--seconds", &s.to_string()]);
        }
        if let Some(c) = a
            .compare
            .as_ref()
            .filter(|c| comparable.contains(&c.as_str()))
        {
            cmd.args(["--compare", c]);
        }
        eprintln!("== {experiment}");
        let status = cmd.status()?;
        anyhow::ensure!(status.success(), "bench {experiment} failed ({status})");
        index.push_str(&format!("- [{experiment}]({experiment}/report.md)\n"));
    }
    std::fs::create_dir_all(&a.out)?;
    std::fs::write(a.out.join("README.md"), index)?;
    eprintln!("results in {}", a.out.display());
    Ok(())
}

/// Runs an experiment, printing its log to stderr and its points as a
/// table or JSON lines to stdout.
fn print_points(
    common: &CommonArgs,
    experiment: &str,
    run: impl FnOnce(
        &mut dyn FnMut(&str),
        &mut dyn FnMut(&report::Point),
    ) -> anyhow::Result<Vec<report::Point>>,
) -> anyhow::Result<()> {
    let json = common.json;
    let mut log = |s: &str| eprintln!("{s}");
    if !json {
        println!("{}", report::table_header());
    }
    let mut on = |p: &report::Point| {
        if json {
            println!("{}", p.json());
        } else {
            let extra: Vec<String> = p.extra.iter().map(|(k, v)| format!("{k}={v:.3}")).collect();
            println!("{}  {}", report::table_row(p), extra.join(" "));
        }
    };
    let points = run(&mut log, &mut on)?;
    common.save(experiment, &points, plot_of(experiment))
}

fn bench_engine(opts: &EngineOptions, common: &CommonArgs, experiment: &str) -> anyhow::Result<()> {
    let json = common.json;
    let mut log = |s: &str| eprintln!("{s}");
    eprintln!(
        "lineardb bench engine: {} rows, threads {:?}, {} s x {} runs per point{}",
        opts.rows,
        opts.threads,
        opts.seconds,
        opts.repeat,
        if lineardb_sync::audit::ENABLED {
            ", audit build"
        } else {
            ""
        }
    );
    let data = engine::prepare(opts, &mut log)?;
    if !json {
        println!("{}", report::table_header());
    }
    let points = engine::run(opts, &data, |p| {
        if json {
            println!("{}", p.json());
        } else {
            println!("{}", report::table_row(p));
        }
    });
    data.store.close()?;
    common.save(experiment, &points, Throughput::Ops)
}
