//! The `lineardb` command.
use clap::{Args, Parser, Subcommand};
use lineardb_bench::engine::{self, Case, EngineOptions};
use lineardb_bench::report;
use std::path::PathBuf;

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
}

#[derive(Subcommand)]
enum Experiment {
    /// The storage core alone: point lookups, PK / covering / non-covering
    /// range scans of 10 and 1000 entries over 1M sbtest-shaped rows.
    Engine(EngineArgs),
    /// A short tour on small data (under a minute): the engine bench on
    /// 200k rows at 1, 2 and 4 threads.
    Quick(CommonArgs),
}

#[derive(Args, Clone)]
struct CommonArgs {
    /// Print one JSON object per line instead of a table.
    #[arg(long)]
    json: bool,
    /// Directory for the data file (default: a temporary directory here).
    #[arg(long)]
    datadir: Option<PathBuf>,
}

#[derive(Args)]
struct EngineArgs {
    #[command(flatten)]
    common: CommonArgs,
    /// Thread counts, comma-separated.
    #[arg(long, value_delimiter = ',', default_value = "1,2,4,32")]
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
                    threads: a.threads,
                    seconds: a.seconds,
                    repeat: a.repeat,
                    cases,
                    datadir: a.common.datadir.clone(),
                    pool_bytes: a.pool_mib << 20,
                };
                bench_engine(&opts, a.common.json)
            }
            Experiment::Quick(c) => {
                let opts = EngineOptions {
                    rows: 200_000,
                    threads: vec![1, 2, 4],
                    seconds: 1.0,
                    repeat: 1,
                    datadir: c.datadir.clone(),
                    ..EngineOptions::default()
                };
                bench_engine(&opts, c.json)
            }
        },
    }
}

fn bench_engine(opts: &EngineOptions, json: bool) -> anyhow::Result<()> {
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
    engine::run(opts, &data, |p| {
        if json {
            println!("{}", p.json());
        } else {
            println!("{}", report::table_row(p));
        }
    });
    data.store.close()?;
    Ok(())
}
