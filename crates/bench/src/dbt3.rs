//! DBT-3 (TPC-H): the 22 queries timed on `lineardb serve` and, with
//! `--compare mariadb`, on a private MariaDB with the same data (tpchgen,
//! byte-identical to dbgen), the same DBT-3 schema and indexes. Each query
//! runs `runs` times per system (median reported); every result is checked
//! against the reference answers of its scale factor.
use crate::sysbench::{start_lineardb_server, start_mariadb_server, Server};
use lineardb_load::tpch::{lineitem_spec, load_tpch, LINEITEM_INDEXES, QUERIES, TABLES};
use lineardb_load::tpch_answers::Reference;
use lineardb_table::{DataType, Engine, EngineConfig};
use mysql::prelude::Queryable;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Instant;

pub struct Dbt3Options {
    pub sf: f64,
    pub runs: usize,
    /// "lineardb" and optionally "mariadb".
    pub systems: Vec<String>,
    /// Data directories, `.tbl` files and server logs; data of the right
    /// scale found there is reused.
    pub work: PathBuf,
    pub lineardb: PathBuf,
    pub pool_mib: usize,
    /// lineardb's `lineardb_query_memory` in MiB (its default if None).
    pub query_memory_mib: Option<usize>,
    pub threads: usize,
    /// The reference answers of this scale factor (`qNN.csv`), if any.
    pub answers: Option<PathBuf>,
}

/// One system's figures for one query.
pub struct QueryTiming {
    pub query: usize,
    pub system: String,
    /// Seconds of each run.
    pub seconds: Vec<f64>,
    /// `None`: the answer is the reference's (or there is none to check).
    pub wrong: Option<String>,
}

impl QueryTiming {
    pub fn median(&self) -> f64 {
        let mut s = self.seconds.clone();
        s.sort_by(f64::total_cmp);
        s.get(s.len() / 2).copied().unwrap_or(f64::NAN)
    }
}

fn sql_type(t: DataType) -> String {
    match t {
        DataType::Int { .. } => "INT".into(),
        DataType::Decimal { precision, scale } => format!("DECIMAL({precision},{scale})"),
        DataType::Char(n) => format!("CHAR({n})"),
        DataType::VarChar(n) => format!("VARCHAR({n})"),
        DataType::Date => "DATE".into(),
        other => other.sql(),
    }
}

/// The DBT-3 schema as MariaDB DDL: (table, CREATE TABLE, index DDL).
fn mariadb_schema() -> Vec<(String, String, Vec<String>)> {
    let mut out = Vec::new();
    for (name, columns, pk, indexes) in TABLES.iter() {
        let cols: Vec<String> = columns
            .iter()
            .map(|(c, t)| format!("{c} {} NOT NULL", sql_type(*t)))
            .collect();
        let ddl = format!(
            "CREATE TABLE {name} ({}, PRIMARY KEY ({})) ENGINE=InnoDB",
            cols.join(", "),
            pk.join(", ")
        );
        let idx = indexes
            .iter()
            .map(|(i, c)| format!("ALTER TABLE {name} ADD INDEX {i} ({})", c.join(", ")))
            .collect();
        out.push((name.to_string(), ddl, idx));
    }
    let spec = lineitem_spec("tpch");
    let cols: Vec<String> = spec
        .columns
        .iter()
        .map(|c| format!("{} {} NOT NULL", c.name, sql_type(c.data_type)))
        .collect();
    out.push((
        "lineitem".into(),
        format!(
            "CREATE TABLE lineitem ({}, PRIMARY KEY (l_orderkey, l_linenumber)) ENGINE=InnoDB",
            cols.join(", ")
        ),
        LINEITEM_INDEXES
            .iter()
            .map(|(i, c)| format!("ALTER TABLE lineitem ADD INDEX {i} ({})", c.join(", ")))
            .collect(),
    ));
    out
}

/// Writes `<table>.tbl` files (dbgen's format) for MariaDB's LOAD DATA.
fn write_tbl(dir: &Path, sf: f64) -> anyhow::Result<()> {
    use tpchgen::generators::*;
    std::fs::create_dir_all(dir)?;
    let done = dir.join(format!("done-{sf}"));
    if done.exists() {
        return Ok(());
    }
    macro_rules! dump {
        ($name:expr, $gen:expr) => {{
            let mut f = std::io::BufWriter::new(std::fs::File::create(dir.join($name))?);
            for row in $gen.iter() {
                writeln!(f, "{row}")?;
            }
            f.flush()?;
        }};
    }
    dump!("region.tbl", RegionGenerator::new(sf, 1, 1));
    dump!("nation.tbl", NationGenerator::new(sf, 1, 1));
    dump!("supplier.tbl", SupplierGenerator::new(sf, 1, 1));
    dump!("customer.tbl", CustomerGenerator::new(sf, 1, 1));
    dump!("part.tbl", PartGenerator::new(sf, 1, 1));
    dump!("partsupp.tbl", PartSuppGenerator::new(sf, 1, 1));
    dump!("orders.tbl", OrderGenerator::new(sf, 1, 1));
    dump!("lineitem.tbl", LineItemGenerator::new(sf, 1, 1));
    std::fs::write(done, "")?;
    Ok(())
}

fn connect(port: u16) -> anyhow::Result<mysql::Conn> {
    let opts = mysql::OptsBuilder::new()
        .ip_or_hostname(Some("127.0.0.1"))
        .tcp_port(port)
        .user(Some("root"))
        .local_infile_handler(Some(mysql::LocalInfileHandler::new(|name, w| {
            let path = String::from_utf8_lossy(name).into_owned();
            let mut f = std::fs::File::open(path)?;
            std::io::copy(&mut f, w)?;
            Ok(())
        })));
    Ok(mysql::Conn::new(opts)?)
}

/// Loads MariaDB (once per data directory and scale).
fn load_mariadb(o: &Dbt3Options, port: u16, log: &mut dyn Write) -> anyhow::Result<()> {
    let mut c = connect(port)?;
    let marker = format!("loaded_sf_{}", o.sf.to_string().replace('.', "_"));
    let have: Option<String> = c
        .query_first(format!(
            "SELECT table_name FROM information_schema.tables WHERE table_schema = 'tpch' AND table_name = '{marker}'"
        ))
        .unwrap_or(None);
    if have.is_some() {
        return Ok(());
    }
    let tbl = o.work.join("tbl");
    write_tbl(&tbl, o.sf)?;
    c.query_drop("DROP DATABASE IF EXISTS tpch")?;
    c.query_drop("CREATE DATABASE tpch")?;
    c.query_drop("USE tpch")?;
    for (name, ddl, indexes) in mariadb_schema() {
        let start = Instant::now();
        c.query_drop(&ddl)?;
        c.query_drop(format!(
            "LOAD DATA LOCAL INFILE '{}' INTO TABLE {name} FIELDS TERMINATED BY '|' LINES TERMINATED BY '|\\n'",
            tbl.join(format!("{name}.tbl")).display()
        ))?;
        for i in indexes {
            c.query_drop(i)?;
        }
        c.query_drop(format!("ANALYZE TABLE {name}"))?;
        writeln!(
            log,
            "mariadb: {name} loaded in {:.1} s",
            start.elapsed().as_secs_f64()
        )?;
    }
    c.query_drop(format!("CREATE TABLE {marker} (x INT)"))?;
    Ok(())
}

/// Loads lineardb's data file (once per data directory and scale).
fn load_lineardb(o: &Dbt3Options, log: &mut dyn Write) -> anyhow::Result<()> {
    let data = o.work.join("lineardb-data");
    let marker = data.join(format!("tpch-sf-{}", o.sf));
    if marker.exists() {
        return Ok(());
    }
    let _ = std::fs::remove_dir_all(&data);
    std::fs::create_dir_all(&data)?;
    let start = Instant::now();
    {
        let engine = Engine::open(
            &data.join("lineardb.ldb"),
            EngineConfig {
                pool_bytes: o.pool_mib << 20,
                ..EngineConfig::default()
            },
        )?;
        load_tpch(&engine, "tpch", o.sf, o.threads, &|_| {})?;
        engine.checkpoint()?;
        engine.close()?;
    }
    std::fs::write(&marker, "")?;
    writeln!(
        log,
        "lineardb: loaded in {:.1} s",
        start.elapsed().as_secs_f64()
    )?;
    Ok(())
}

/// Runs every query `o.runs` times on `server`, checking each answer.
fn time_queries(
    o: &Dbt3Options,
    system: &str,
    server: &Server,
    reference: Option<&Reference>,
    log: &mut dyn Write,
) -> anyhow::Result<Vec<QueryTiming>> {
    let mut c = connect(server.port)?;
    c.query_drop("USE tpch")?;
    if let (Some(mib), "lineardb") = (o.query_memory_mib, system) {
        c.query_drop(format!("SET lineardb_query_memory = {}", mib << 20))?;
    }
    let mut out = Vec::new();
    for (i, sql) in QUERIES.iter().enumerate() {
        let q = i + 1;
        let mut t = QueryTiming {
            query: q,
            system: system.to_string(),
            seconds: Vec::new(),
            wrong: None,
        };
        for run in 0..o.runs {
            let start = Instant::now();
            let rows = c.query_iter(*sql).and_then(|result| {
                result
                    .map(|r| {
                        r.map(|row| {
                            row.unwrap()
                                .into_iter()
                                .map(|v| match v {
                                    mysql::Value::NULL => "NULL".to_string(),
                                    mysql::Value::Bytes(b) => {
                                        String::from_utf8_lossy(&b).into_owned()
                                    }
                                    other => other.as_sql(true),
                                })
                                .collect::<Vec<String>>()
                        })
                    })
                    .collect::<Result<Vec<_>, _>>()
            });
            // A failed query is reported as such; the others still run.
            let rows = match rows {
                Ok(rows) => rows,
                Err(e) => {
                    t.wrong = Some(format!("failed: {e}"));
                    break;
                }
            };
            t.seconds.push(start.elapsed().as_secs_f64());
            if run == 0 {
                if let (Some(r), Some(dir)) = (reference, &o.answers) {
                    t.wrong = r.check(q, &rows, dir).err();
                }
            }
        }
        writeln!(
            log,
            "{system} Q{q}: {:.3} s{}",
            t.median(),
            t.wrong
                .as_deref()
                .map_or(String::new(), |w| format!("  WRONG {w}"))
        )?;
        out.push(t);
    }
    Ok(out)
}

/// Runs the benchmark: loads what is missing, times the queries on each
/// system (one server at a time).
pub fn run(o: &Dbt3Options, log: &mut dyn Write) -> anyhow::Result<Vec<QueryTiming>> {
    std::fs::create_dir_all(&o.work)?;
    let reference = o.answers.as_ref().map(|_| Reference::new(o.sf));
    let mut all = Vec::new();
    for system in &o.systems {
        let server = match system.as_str() {
            "lineardb" => {
                load_lineardb(o, log)?;
                start_lineardb_server(&o.lineardb, &o.work, o.pool_mib)?
            }
            "mariadb" => {
                let s = start_mariadb_server(&o.work, o.pool_mib)?;
                load_mariadb(o, s.port, log)?;
                s
            }
            other => anyhow::bail!("unknown system {other:?} (lineardb, mariadb)"),
        };
        all.extend(time_queries(o, system, &server, reference.as_ref(), log)?);
    }
    Ok(all)
}

/// The report: a table of medians per query and system, totals and the
/// ratio to MariaDB.
pub fn report(o: &Dbt3Options, timings: &[QueryTiming]) -> String {
    let mut s = format!(
        "# DBT-3 (TPC-H) at SF {}: median of {} runs per query\n\n",
        o.sf, o.runs
    );
    let systems = &o.systems;
    s.push_str("| query |");
    for sys in systems {
        s.push_str(&format!(" {sys} (s) |"));
    }
    if systems.len() == 2 {
        s.push_str(" lineardb / mariadb |");
    }
    s.push_str(" answers |\n|---|");
    for _ in 0..systems.len() + (systems.len() == 2) as usize + 1 {
        s.push_str("---|");
    }
    s.push('\n');
    let mut totals = vec![0.0; systems.len()];
    for q in 1..=22 {
        s.push_str(&format!("| Q{q} |"));
        let mut medians = Vec::new();
        let mut ok = true;
        for (i, sys) in systems.iter().enumerate() {
            let t = timings.iter().find(|t| t.query == q && &t.system == sys);
            let m = t.map_or(f64::NAN, QueryTiming::median);
            ok &= t.is_some_and(|t| t.wrong.is_none());
            totals[i] += m;
            medians.push(m);
            s.push_str(&format!(" {m:.3} |"));
        }
        if medians.len() == 2 {
            s.push_str(&format!(" {:.2} |", medians[0] / medians[1]));
        }
        s.push_str(if ok { " ok |\n" } else { " WRONG |\n" });
    }
    s.push_str("| total |");
    for t in &totals {
        s.push_str(&format!(" {t:.3} |"));
    }
    if totals.len() == 2 {
        s.push_str(&format!(" {:.2} |", totals[0] / totals[1]));
    }
    s.push_str(" |\n");
    s
}
