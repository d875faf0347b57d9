//! The `lineardb` binary as a user runs it: `bench engine --json` on small
//! data prints one well-formed JSON line per case and thread count, and
//! writes its results folder (the same points, a report, the charts).
use std::process::Command;

#[test]
fn bench_engine_prints_json_lines() {
    let dir = tempfile::tempdir().unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_lineardb"))
        .args([
            "bench",
            "engine",
            "--rows",
            "20000",
            "--threads",
            "1,2",
            "--seconds",
            "0.2",
        ])
        .args([
            "--repeat",
            "1",
            "--cases",
            "point,noncovering_10",
            "--json",
            "--pool-mib",
            "64",
        ])
        .arg("--datadir")
        .arg(dir.path())
        .arg("--out")
        .arg(dir.path().join("results"))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let lines: Vec<serde_json::Value> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 4);
    for (l, (case, threads)) in lines.iter().zip([
        ("point", 1),
        ("point", 2),
        ("noncovering_10", 1),
        ("noncovering_10", 2),
    ]) {
        assert_eq!(l["experiment"], "engine");
        assert_eq!(l["case"], case);
        assert_eq!(l["threads"], threads);
        assert!(l["ops_per_s"].as_f64().unwrap() > 0.0);
        assert!(l["rows_per_s"].as_f64().unwrap() >= l["ops_per_s"].as_f64().unwrap());
        assert!(l["ratio_to_1_thread"].as_f64().unwrap() > 0.0);
        assert!(l["cpu_us_per_op"].as_f64().unwrap() > 0.0);
        // Without the audit feature the audit fields are null, not zero.
        assert!(l["shared_writes_per_row"].is_null());
        assert!(l["shared_writes_per_op"].is_null());
    }
    let results = dir.path().join("results");
    let saved: Vec<serde_json::Value> = std::fs::read_to_string(results.join("points.jsonl"))
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(saved, lines, "the folder holds the printed points");
    let report = std::fs::read_to_string(results.join("report.md")).unwrap();
    assert!(report.contains("| noncovering_10 | 2 |"), "{report}");
    assert!(report.contains("bench engine --rows 20000"), "{report}");
    for chart in ["throughput", "speedup"] {
        let png = std::fs::read(results.join(format!("{chart}.png"))).unwrap();
        assert_eq!(&png[1..4], b"PNG");
        let svg = std::fs::read_to_string(results.join(format!("{chart}.svg"))).unwrap();
        assert!(svg.contains("noncovering_10") && svg.contains("\nthreads\n"));
    }
}

#[test]
fn unknown_case_is_a_clear_error() {
    let out = Command::new(env!("CARGO_BIN_EXE_lineardb"))
        .args(["bench", "engine", "--cases", "nonsense", "--rows", "100"])
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("unknown case \"nonsense\""));
}
