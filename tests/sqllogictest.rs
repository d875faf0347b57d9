//! The sqllogictest corpus (`tests/slt/`, see its README for where it comes
//! from) through a real `lineardb serve` and, side by side, a private
//! MariaDB 10.11, with the `sqllogictest` crate as the `mysql` engine
//! (`skipif mysql` / `onlyif mysql` honoured). Each file runs in a fresh
//! database on each server; each record passes, fails with an error, or
//! gives a wrong result (a result that differs from the expected one, a
//! statement that should have failed).
//!
//! The measure is lineardb's share of the records MariaDB passes, per file.
//! `tests/slt/baseline.tsv` holds the figures reached so far: the test fails
//! when a file passes fewer records or gives more wrong results than there
//! (a regression). `LINEARDB_SLT_WRITE_BASELINE=1` rewrites it after an
//! improvement; `LINEARDB_SLT_FILES=select1,evidence` runs the files whose
//! path contains one of the words; `LINEARDB_SLT_SHOW=1` prints every
//! failure. The report (per file) is written to `target/slt-report.md` and
//! printed.
mod common;
use common::mariadb::MariaDb;
use common::Server;
use lineardb_sync::Mutex;
use mysql::prelude::Queryable;
use sqllogictest::{DBOutput, DefaultColumnType, QueryExpect, Record, RecordOutput, TestErrorKind};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// How one record went.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Outcome {
    Pass,
    /// An error where a result was expected (or the wrong error).
    Error,
    /// A result other than the expected one, or success where an error
    /// was expected.
    Wrong,
    /// Not run by the `mysql` engine (skipif/onlyif).
    Skipped,
}

/// A connection to one server, formatting values as sqllogictest prints
/// them for the column types the record expects.
struct Conn {
    conn: mysql::Conn,
    expected_types: Arc<Mutex<Vec<DefaultColumnType>>>,
}

#[derive(Debug)]
struct SqlError(String);

impl std::fmt::Display for SqlError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for SqlError {}

/// A value as sqllogictest prints it for a column of type `t`: integers
/// for I (a fraction cut off, text read as 0, as the reference runner's
/// `atoi`), three decimals for R, text for T; NULL and `(empty)` for all.
fn format_value(v: &mysql::Value, t: &DefaultColumnType) -> String {
    let text = match v {
        mysql::Value::NULL => return "NULL".into(),
        mysql::Value::Bytes(b) => String::from_utf8_lossy(b).into_owned(),
        mysql::Value::Int(i) => i.to_string(),
        mysql::Value::UInt(u) => u.to_string(),
        mysql::Value::Float(f) => f.to_string(),
        mysql::Value::Double(d) => d.to_string(),
        other => other.as_sql(true).trim_matches('\'').to_string(),
    };
    match t {
        DefaultColumnType::Integer => {
            let n = leading_number(&text);
            format!("{}", n.trunc() as i64)
        }
        DefaultColumnType::FloatingPoint => format!("{:.3}", leading_number(&text)),
        _ => {
            if text.is_empty() {
                "(empty)".into()
            } else {
                // Control characters print as '@', as the reference runner.
                text.chars()
                    .map(|c| if (c as u32) < 0x20 { '@' } else { c })
                    .collect()
            }
        }
    }
}

/// The number a C `strtod` reads at the start of `s` (0 if none).
fn leading_number(s: &str) -> f64 {
    let s = s.trim_start();
    let mut end = 0;
    let b = s.as_bytes();
    if end < b.len() && (b[end] == b'-' || b[end] == b'+') {
        end += 1;
    }
    while end < b.len() && (b[end].is_ascii_digit() || b[end] == b'.') {
        end += 1;
    }
    if end < b.len() && (b[end] == b'e' || b[end] == b'E') {
        let mut e = end + 1;
        if e < b.len() && (b[e] == b'-' || b[e] == b'+') {
            e += 1;
        }
        if e < b.len() && b[e].is_ascii_digit() {
            while e < b.len() && b[e].is_ascii_digit() {
                e += 1;
            }
            end = e;
        }
    }
    s[..end].parse().unwrap_or(0.0)
}

impl sqllogictest::DB for Conn {
    type Error = SqlError;
    type ColumnType = DefaultColumnType;

    fn run(&mut self, sql: &str) -> Result<DBOutput<DefaultColumnType>, SqlError> {
        let types = self.expected_types.lock().clone();
        let mut result = self
            .conn
            .query_iter(sql)
            .map_err(|e| SqlError(e.to_string()))?;
        let columns = result.columns().as_ref().len();
        if columns == 0 {
            return Ok(DBOutput::StatementComplete(result.affected_rows()));
        }
        let mut rows = Vec::new();
        for row in result.by_ref() {
            let row = row.map_err(|e| SqlError(e.to_string()))?;
            let values = row.unwrap();
            rows.push(
                values
                    .iter()
                    .enumerate()
                    .map(|(i, v)| format_value(v, types.get(i).unwrap_or(&DefaultColumnType::Text)))
                    .collect(),
            );
        }
        let types = if types.len() == columns {
            types
        } else {
            vec![DefaultColumnType::Any; columns]
        };
        Ok(DBOutput::Rows { types, rows })
    }
}

/// The classic format lists one value per line: compare values, not rows.
fn values_validator(
    normalizer: sqllogictest::Normalizer,
    actual: &[Vec<String>],
    expected: &[String],
) -> bool {
    let actual: Vec<String> = actual.iter().flatten().map(normalizer).collect();
    let expected: Vec<String> = expected.iter().map(normalizer).collect();
    actual == expected
}

/// The records of `file`. The reference format allows a comment after a
/// condition (`onlyif sqlite # why`), which the crate's parser does not.
fn parse(file: &Path) -> Vec<Record<DefaultColumnType>> {
    let text = std::fs::read_to_string(file).unwrap();
    let cleaned: String = text
        .lines()
        .map(|l| {
            let control = l.starts_with("skipif ") || l.starts_with("onlyif ");
            match l.find(" #") {
                Some(i) if control => &l[..i],
                _ => l,
            }
        })
        .flat_map(|l| [l, "\n"])
        .collect();
    sqllogictest::parse_with_name(&cleaned, file.to_string_lossy())
        .unwrap_or_else(|e| panic!("{}: {e}", file.display()))
}

/// Runs every record of `file` on a fresh database `db` of the server at
/// `port`; one outcome per statement or query record, in file order.
fn run_file(port: u16, db: &str, file: &Path) -> Vec<(bool, Outcome)> {
    let url = format!("mysql://root@127.0.0.1:{port}/");
    let mut admin = mysql::Conn::new(mysql::Opts::from_url(&url).unwrap()).unwrap();
    admin
        .query_drop(format!("DROP DATABASE IF EXISTS {db}"))
        .unwrap();
    admin.query_drop(format!("CREATE DATABASE {db}")).unwrap();
    let expected_types = Arc::new(Mutex::new(Vec::new()));
    let shared = expected_types.clone();
    let db_url = format!("mysql://root@127.0.0.1:{port}/{db}");
    let mut runner = sqllogictest::Runner::new(move || {
        let url = db_url.clone();
        let expected_types = shared.clone();
        async move {
            let conn = mysql::Conn::new(mysql::Opts::from_url(&url).unwrap())
                .map_err(|e| SqlError(e.to_string()))?;
            Ok(Conn {
                conn,
                expected_types,
            })
        }
    });
    runner.add_label("mysql");
    // The corpus was made with the reference runner's usual setting:
    // results of more than 8 values are compared by their hash.
    runner.with_hash_threshold(8);
    runner.with_validator(values_validator);
    let records = parse(file);
    let mut outcomes = Vec::new();
    for record in records {
        let counted = matches!(record, Record::Statement { .. } | Record::Query { .. });
        let statement = matches!(record, Record::Statement { .. });
        if let Record::Query {
            expected: QueryExpect::Results { types, .. },
            ..
        } = &record
        {
            *expected_types.lock() = types.clone();
        }
        if let Record::HashThreshold { threshold, .. } = &record {
            runner.with_hash_threshold(*threshold as usize);
        }
        if matches!(record, Record::Halt { .. }) {
            break;
        }
        let r = runner.run(record);
        if !counted {
            continue;
        }
        if let (Err(e), Ok(_)) = (&r, std::env::var("LINEARDB_SLT_SHOW")) {
            eprintln!("{port} {}", e.display(false));
        }
        outcomes.push((
            statement,
            match r {
                Ok(RecordOutput::Nothing) => Outcome::Skipped,
                Ok(_) => Outcome::Pass,
                Err(e) => match e.kind() {
                    TestErrorKind::QueryResultMismatch { .. }
                    | TestErrorKind::QueryResultColumnsMismatch { .. }
                    | TestErrorKind::StatementResultMismatch { .. }
                    | TestErrorKind::Ok { .. } => Outcome::Wrong,
                    _ => Outcome::Error,
                },
            },
        ));
    }
    admin.query_drop(format!("DROP DATABASE {db}")).unwrap();
    outcomes
}

fn corpus() -> Vec<PathBuf> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        let mut entries: Vec<_> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        entries.sort();
        for p in entries {
            if p.is_dir() {
                walk(&p, out);
            } else if p.extension().is_some_and(|e| e == "test") {
                out.push(p);
            }
        }
    }
    let mut files = Vec::new();
    walk(&common::repo_path("tests/slt"), &mut files);
    if let Ok(words) = std::env::var("LINEARDB_SLT_FILES") {
        let words: Vec<&str> = words.split(',').collect();
        files.retain(|f| words.iter().any(|w| f.to_string_lossy().contains(w)));
    }
    files
}

/// One file's figures.
#[derive(Clone, Copy, Default, PartialEq, Eq, Debug)]
struct Figures {
    /// Records the `mysql` engine runs.
    records: usize,
    mariadb_pass: usize,
    /// Of the records MariaDB passes.
    lineardb_pass: usize,
    /// Of the records MariaDB passes.
    lineardb_wrong: usize,
    /// Of those wrong, the ones after a statement of the file that
    /// MariaDB ran and lineardb refused (its tables then differ).
    wrong_after_failed_statement: usize,
}

fn figures(mariadb: &[(bool, Outcome)], lineardb: &[(bool, Outcome)]) -> Figures {
    assert_eq!(mariadb.len(), lineardb.len());
    let mut f = Figures::default();
    let mut statement_failed = false;
    for ((statement, m), (_, l)) in mariadb.iter().zip(lineardb) {
        if *m == Outcome::Skipped {
            continue;
        }
        f.records += 1;
        if *m != Outcome::Pass {
            continue;
        }
        f.mariadb_pass += 1;
        match l {
            Outcome::Pass => f.lineardb_pass += 1,
            Outcome::Wrong => {
                f.lineardb_wrong += 1;
                if statement_failed {
                    f.wrong_after_failed_statement += 1;
                }
            }
            _ => {}
        }
        if *statement && *l != Outcome::Pass {
            statement_failed = true;
        }
    }
    f
}

impl Figures {
    fn add(&mut self, f: &Figures) {
        self.records += f.records;
        self.mariadb_pass += f.mariadb_pass;
        self.lineardb_pass += f.lineardb_pass;
        self.lineardb_wrong += f.lineardb_wrong;
        self.wrong_after_failed_statement += f.wrong_after_failed_statement;
    }
}

/// One row of the report's table.
fn report_line(name: &str, f: &Figures) -> String {
    format!(
        "| {name} | {} | {} | {} | {:.1}% | {} | {} |\n",
        f.records,
        f.mariadb_pass,
        f.lineardb_pass,
        percent(f.lineardb_pass, f.mariadb_pass),
        f.lineardb_wrong,
        f.wrong_after_failed_statement
    )
}

fn read_baseline(path: &Path) -> BTreeMap<String, Figures> {
    let Ok(text) = std::fs::read_to_string(path) else {
        return BTreeMap::new();
    };
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let c: Vec<&str> = l.split('\t').collect();
            let n = |i: usize| c[i].parse::<usize>().unwrap();
            (
                c[0].to_string(),
                Figures {
                    records: n(1),
                    mariadb_pass: n(2),
                    lineardb_pass: n(3),
                    lineardb_wrong: n(4),
                    wrong_after_failed_statement: 0,
                },
            )
        })
        .collect()
}

fn percent(a: usize, b: usize) -> f64 {
    if b == 0 {
        100.0
    } else {
        100.0 * a as f64 / b as f64
    }
}

#[test]
fn sqllogictest_corpus_against_mariadb() {
    let lineardb = Server::start();
    let mariadb = MariaDb::start();
    let root = common::repo_path("tests/slt");
    let mut results: BTreeMap<String, Figures> = BTreeMap::new();
    for (n, file) in corpus().iter().enumerate() {
        let name = file
            .strip_prefix(&root)
            .unwrap()
            .to_string_lossy()
            .into_owned();
        let started = std::time::Instant::now();
        let db = format!("slt{n}");
        let m = run_file(mariadb.port, &db, file);
        let l = run_file(lineardb.port, &db, file);
        let f = figures(&m, &l);
        eprintln!(
            "{name}: {} records, MariaDB passes {}, lineardb {} ({:.1}%), {} wrong ({:.1} s)",
            f.records,
            f.mariadb_pass,
            f.lineardb_pass,
            percent(f.lineardb_pass, f.mariadb_pass),
            f.lineardb_wrong,
            started.elapsed().as_secs_f64()
        );
        results.insert(name, f);
    }
    // The report.
    let mut report = String::from(
        "| file | records | MariaDB passes | lineardb passes | share | wrong | of which after a refused statement |\n|---|---|---|---|---|---|---|\n",
    );
    let mut total = Figures::default();
    for (name, f) in &results {
        report += &report_line(name, f);
        total.add(f);
    }
    report += &report_line("all", &total);
    eprintln!("{report}");
    let _ = std::fs::write(common::repo_path("target/slt-report.md"), &report);
    // Against the baseline.
    let baseline_path = root.join("baseline.tsv");
    if std::env::var("LINEARDB_SLT_WRITE_BASELINE").as_deref() == Ok("1") {
        let mut text = String::from(
            "# file\trecords\tMariaDB passes\tlineardb passes\tlineardb wrong (of MariaDB's passes)\n",
        );
        for (name, f) in &results {
            text += &format!(
                "{name}\t{}\t{}\t{}\t{}\n",
                f.records, f.mariadb_pass, f.lineardb_pass, f.lineardb_wrong
            );
        }
        std::fs::write(&baseline_path, text).unwrap();
        return;
    }
    let baseline = read_baseline(&baseline_path);
    let mut regressions = Vec::new();
    for (name, f) in &results {
        let Some(b) = baseline.get(name) else {
            regressions.push(format!("{name}: not in the baseline"));
            continue;
        };
        if f.lineardb_pass < b.lineardb_pass || f.lineardb_wrong > b.lineardb_wrong {
            regressions.push(format!(
                "{name}: {} passed, {} wrong (baseline {} passed, {} wrong)",
                f.lineardb_pass, f.lineardb_wrong, b.lineardb_pass, b.lineardb_wrong
            ));
        }
    }
    assert!(
        regressions.is_empty(),
        "regressions:\n{}",
        regressions.join("\n")
    );
}
