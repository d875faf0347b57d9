//! Unmodified sysbench against a real `lineardb serve`: the stock OLTP
//! read scripts, bulk_insert, and the repository's scan and Q6 scripts in
//! `bench/sysbench/`, each for a few seconds with no error at all; the
//! stock write scripts at 1, 4 and 32 threads with no error but the
//! deadlocks and lock wait timeouts sysbench retries (1213, 1205), and the
//! table consistent afterwards; sysbench-tpcc with its consistency checks.
mod common;
use common::{repo_path, run_ok, text, tool, Server};
use std::process::Command;

fn sysbench(server: &Server, script: &str, args: &[&str], command: &str) -> String {
    let out = run_ok(
        Command::new(tool("sysbench"))
            .current_dir(repo_path("bench/sysbench"))
            .arg(script)
            .args([
                "--db-driver=mysql",
                "--mysql-host=127.0.0.1",
                &format!("--mysql-port={}", server.port),
                "--mysql-user=root",
                "--mysql-db=sbtest",
                "--db-ps-mode=auto",
            ])
            .args(args)
            .arg(command),
    );
    text(&out.stdout)
}

fn figure(report: &str, label: &str) -> u64 {
    let line = report
        .lines()
        .find(|l| l.trim_start().starts_with(label))
        .unwrap_or_else(|| panic!("no '{label}' in:\n{report}"));
    line.trim_start()[label.len()..]
        .split_whitespace()
        .next()
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("bad '{label}' line: {line}"))
}

/// A `run` that did work and met no error and no reconnect.
fn run_clean(server: &Server, script: &str, args: &[&str]) -> u64 {
    let mut all = vec!["--time=2", "--threads=2", "--rand-type=uniform"];
    all.extend_from_slice(args);
    let report = sysbench(server, script, &all, "run");
    let events = figure(&report, "total number of events:");
    assert!(events > 0, "{script} {args:?}: no events\n{report}");
    assert_eq!(figure(&report, "ignored errors:"), 0, "{script}\n{report}");
    assert_eq!(figure(&report, "reconnects:"), 0, "{script}\n{report}");
    events
}

#[test]
fn sysbench_scripts_run_without_errors() {
    let server = Server::start();
    server.sql("CREATE DATABASE sbtest");
    let table = ["--tables=1", "--table-size=20000", "--rand-type=uniform"];
    sysbench(&server, "oltp_read_only", &table, "prepare");
    assert_eq!(
        server.sql("SELECT COUNT(*) FROM sbtest.sbtest1").trim(),
        "COUNT(*)\n20000"
    );
    for script in [
        "oltp_point_select",
        "oltp_read_only",
        "select_random_points",
        "select_random_ranges",
    ] {
        run_clean(&server, script, &table);
    }
    for script in ["scan_pk.lua", "scan_covering.lua", "scan_noncovering.lua"] {
        for range in ["--range_size=10", "--range_size=1000"] {
            run_clean(&server, script, &[table[0], table[1], range]);
        }
    }
    run_clean(
        &server,
        "scan_noncovering.lua",
        &[table[0], table[1], "--scan_mode=rows"],
    );
    for script in [
        "oltp_read_write",
        "oltp_write_only",
        "oltp_update_index",
        "oltp_update_non_index",
        "oltp_delete",
        "oltp_insert",
    ] {
        for threads in ["--threads=1", "--threads=4", "--threads=32"] {
            let mut args = vec![
                "--time=1",
                threads,
                "--mysql-ignore-errors=1213,1205",
                "--rand-type=uniform",
            ];
            args.extend_from_slice(&table[..2]);
            let report = sysbench(&server, script, &args, "run");
            assert!(
                figure(&report, "total number of events:") > 0,
                "{script} {threads}: no events\n{report}"
            );
            assert_eq!(figure(&report, "reconnects:"), 0, "{script}\n{report}");
        }
    }
    let check = server.sql("CHECK TABLE sbtest.sbtest1");
    assert!(check.contains("\tOK"), "{check}");
    sysbench(&server, "oltp_read_only", &table, "cleanup");

    sysbench(&server, "bulk_insert", &["--threads=2"], "prepare");
    run_clean(&server, "bulk_insert", &[]);
    let rows: u64 = server
        .sql("SELECT COUNT(*) FROM sbtest.sbtest1")
        .lines()
        .nth(1)
        .unwrap()
        .parse()
        .unwrap();
    assert!(rows > 0, "bulk_insert inserted nothing");
    sysbench(&server, "bulk_insert", &["--threads=2"], "cleanup");

    sysbench(&server, "q6_month.lua", &["--q6_rows=20000"], "prepare");
    run_clean(&server, "q6_month.lua", &["--q6_ps=on"]);
    run_clean(&server, "q6_month.lua", &["--q6_ps=off"]);
    run_clean(
        &server,
        "q6_month.lua",
        &["--q6_ps=off", "--q6_hint=IGNORE INDEX (lineitem_shipdate)"],
    );
    sysbench(&server, "q6_month.lua", &["--q6_drop=on"], "cleanup");
    assert_eq!(server.sql("SHOW TABLES FROM sbtest"), "");
}

/// `lineardb bench sysbench-oltp` starts its own server, loads sbtest and
/// reports one point per workload and thread count, with the server's CPU
/// per query, into its results folder.
#[test]
fn bench_sysbench_oltp_measures_a_server_it_starts() {
    let dir = tempfile::tempdir().unwrap();
    let points = bench_sysbench_oltp(
        dir.path(),
        &[
            "--threads",
            "1,2",
            "--seconds",
            "1",
            "--workloads",
            "oltp_point_select,oltp_read_write",
        ],
    );
    assert_eq!(points.len(), 4, "{points:?}");
    for (p, (case, threads)) in points.iter().zip([
        ("lineardb oltp_point_select", 1),
        ("lineardb oltp_point_select", 2),
        ("lineardb oltp_read_write", 1),
        ("lineardb oltp_read_write", 2),
    ]) {
        assert_eq!(p["experiment"], "sysbench-oltp");
        assert_eq!(p["system"], "lineardb");
        assert_eq!(p["case"], case);
        assert_eq!(p["threads"], threads);
        assert!(p["ops_per_s"].as_f64().unwrap() > 100.0, "{p}");
        assert!(p["cpu_us_per_op"].as_f64().unwrap() > 0.0, "{p}");
    }
    let report = std::fs::read_to_string(dir.path().join("results/report.md")).unwrap();
    assert!(
        report.contains("| lineardb oltp_read_write | 2 |"),
        "{report}"
    );
}

/// Runs `lineardb bench sysbench-oltp` on 2000 rows with `args`, results in
/// `dir/results`; returns the points.
fn bench_sysbench_oltp(dir: &std::path::Path, args: &[&str]) -> Vec<serde_json::Value> {
    let out = run_ok(
        Command::new(env!("CARGO_BIN_EXE_lineardb"))
            .args(["bench", "sysbench-oltp", "--rows", "2000"])
            .args(args)
            .args(["--pool-mib", "64", "--json"])
            .arg("--datadir")
            .arg(dir.join("work"))
            .arg("--out")
            .arg(dir.join("results")),
    );
    text(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// With the instrumentation both on and off, one sysbench run flips it in
/// pairs of slices (through `SET GLOBAL` from a client kept open) and both
/// settings get their throughput from the server's `Questions`.
#[test]
fn sysbench_oltp_alternates_the_instrumentation_within_a_run() {
    let dir = tempfile::tempdir().unwrap();
    let points = bench_sysbench_oltp(
        dir.path(),
        &[
            "--threads",
            "2",
            "--seconds",
            "3",
            "--workloads",
            "oltp_point_select",
            "--text-statements",
            "--instrumentation",
            "on,off",
        ],
    );
    assert_eq!(points.len(), 2, "{points:?}");
    let (on, off) = (&points[0], &points[1]);
    assert_eq!(on["case"], "lineardb oltp_point_select_text");
    assert_eq!(
        off["case"],
        "lineardb oltp_point_select_text, instrumentation off"
    );
    for p in [on, off] {
        assert!(p["ops_per_s"].as_f64().unwrap() > 100.0, "{p}");
    }
    // 3 s per setting in slices of 0.5 s: 6 pairs.
    assert_eq!(on["pairs"].as_f64(), Some(6.0), "{on}");
    let ratio = on["on_off_pairs"].as_f64().unwrap();
    assert!(ratio > 0.5 && ratio < 2.0, "{on}");
    // A point select reads one row: the slices' rows read (the server's
    // Innodb_rows_read) give a ratio too.
    let rows_ratio = on["rows_on_off_pairs"].as_f64().unwrap();
    assert!(rows_ratio > 0.5 && rows_ratio < 2.0, "{on}");
    let report = std::fs::read_to_string(dir.path().join("results/report.md")).unwrap();
    assert!(report.contains("## Instrumentation on and off"), "{report}");
}

/// Runs `lineardb bench <experiment> --sysbench` on small data; returns the
/// points and the log.
fn bench_through_sysbench(
    dir: &std::path::Path,
    experiment: &str,
    args: &[&str],
) -> (Vec<serde_json::Value>, String) {
    let out = run_ok(
        Command::new(env!("CARGO_BIN_EXE_lineardb"))
            .args(["bench", experiment, "--sysbench", "--threads", "1,2"])
            .args(["--seconds", "1", "--pool-mib", "64", "--json"])
            .args(args)
            .arg("--datadir")
            .arg(dir.join("work"))
            .arg("--out")
            .arg(dir.join(experiment)),
    );
    let points = text(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    (points, text(&out.stderr))
}

/// (case, threads) of each point.
fn cases_and_threads(points: &[serde_json::Value]) -> Vec<(&str, u64)> {
    points
        .iter()
        .map(|p| (p["case"].as_str().unwrap(), p["threads"].as_u64().unwrap()))
        .collect()
}

/// The seeds' scan and Q6 experiments through sysbench and the
/// repository's scripts (embedded in the binary) against a server the
/// experiment starts; a second run on the same folder reuses the data.
#[test]
fn bench_seed_experiments_run_through_sysbench() {
    let dir = tempfile::tempdir().unwrap();
    let scans = ["--rows", "3000", "--cases", "pk_10,noncovering_1000"];
    let (points, log) = bench_through_sysbench(dir.path(), "seed001-scans", &scans);
    assert!(
        log.contains("loading 3000 rows into sbtest.sbtest1"),
        "{log}"
    );
    let cases = cases_and_threads(&points);
    assert_eq!(
        cases,
        [
            ("lineardb pk_10", 1),
            ("lineardb pk_10", 2),
            ("lineardb noncovering_1000", 1),
            ("lineardb noncovering_1000", 2)
        ]
    );
    for p in &points {
        assert_eq!(p["experiment"], "seed001-scans");
        assert_eq!(p["system"], "lineardb");
        assert!(p["ops_per_s"].as_f64().unwrap() > 10.0, "{p}");
        assert!(p["cpu_us_per_op"].as_f64().unwrap() > 0.0, "{p}");
    }

    let q6 = ["--sf", "0.001"];
    let (points, log) = bench_through_sysbench(dir.path(), "seed000-q6", &q6);
    assert!(
        log.contains("loading 6000 rows into sbtest.lineitem"),
        "{log}"
    );
    let cases: Vec<&str> = points.iter().map(|p| p["case"].as_str().unwrap()).collect();
    assert_eq!(
        cases,
        [
            "lineardb index",
            "lineardb index",
            "lineardb index_text",
            "lineardb index_text",
            "lineardb table_scan",
            "lineardb table_scan"
        ]
    );
    assert!(points
        .iter()
        .all(|p| p["ops_per_s"].as_f64().unwrap() > 1.0));

    // Same sizes again: nothing is loaded.
    let (points, log) = bench_through_sysbench(dir.path(), "seed000-q6", &q6);
    assert!(!log.contains("loading"), "{log}");
    assert_eq!(points.len(), 6);

    // Seed 003 through the server: ALTER TABLE ... ADD INDEX x3, timed, with
    // the instrumentation off and on, at 1 and 2 build threads.
    let (points, _) = bench_through_sysbench(dir.path(), "seed003-create-index", &q6);
    let cases = cases_and_threads(&points);
    assert_eq!(
        cases,
        [
            ("lineardb create_index, instrumentation off", 1),
            ("lineardb create_index, instrumentation off", 2),
            ("lineardb create_index", 1),
            ("lineardb create_index", 2)
        ]
    );
    for p in &points {
        assert!(p["seconds"].as_f64().unwrap() > 0.0, "{p}");
        assert!(p["rows_per_s"].as_f64().unwrap() > 1000.0, "{p}");
    }
}

/// sysbench-tpcc (bench/sysbench-tpcc, unmodified): one warehouse loaded,
/// New-Order, Payment, Order-Status, Delivery and Stock-Level from two
/// threads for a few seconds (locking reads, joins, subqueries, NOW()),
/// then the scripts' own consistency checks, every one PASSED. Foreign
/// keys are left out (`--use_fk=0`): the schema's ALTER TABLE ... FOREIGN
/// KEY is not done yet.
#[test]
fn sysbench_tpcc_runs_and_its_checks_pass() {
    let server = Server::start();
    server.sql("CREATE DATABASE tpcc");
    let tpcc = |args: &[&str], command: &str| -> String {
        let out = run_ok(
            Command::new(tool("sysbench"))
                .current_dir(repo_path("bench/sysbench-tpcc"))
                .arg("./tpcc.lua")
                .args([
                    "--db-driver=mysql",
                    "--mysql-host=127.0.0.1",
                    &format!("--mysql-port={}", server.port),
                    "--mysql-user=root",
                    "--mysql-db=tpcc",
                    "--tables=1",
                    "--scale=1",
                    "--use_fk=0",
                ])
                .args(args)
                .arg(command),
        );
        text(&out.stdout)
    };
    tpcc(&["--threads=1"], "prepare");
    let report = tpcc(&["--threads=2", "--time=5"], "run");
    let transactions = figure(&report, "transactions:");
    assert!(transactions > 100, "{report}");
    assert_eq!(figure(&report, "reconnects:"), 0, "{report}");
    let checks = tpcc(&["--threads=1"], "check");
    let passed = checks.lines().filter(|l| l.ends_with("PASSED")).count();
    assert!(passed >= 10 && !checks.contains("FAILED"), "{checks}");
}
