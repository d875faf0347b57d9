//! A results folder for one experiment: its points as JSON lines, a
//! markdown report (machine, command line, table) and the charts
//! (throughput and speedup against threads, one line per case).
use crate::chart::{Chart, Scale, Series};
use crate::report::Point;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// What the throughput chart plots.
#[derive(Debug, Clone, Copy)]
pub enum Throughput {
    /// Operations (queries, scans) per second.
    Ops,
    /// Rows per second, named (an experiment whose operation is a batch).
    Rows(&'static str),
}

/// Writes `points.jsonl`, `report.md`, `throughput.{png,svg}` and (when
/// there are 1-thread points) `speedup.{png,svg}` into `dir`; returns the
/// files written.
pub fn write(
    dir: &Path,
    experiment: &str,
    command: &str,
    points: &[Point],
    plot: Throughput,
) -> anyhow::Result<Vec<PathBuf>> {
    std::fs::create_dir_all(dir)?;
    let mut files = Vec::new();
    let jsonl = dir.join("points.jsonl");
    let mut lines = String::new();
    for p in points {
        lines.push_str(&p.json());
        lines.push('\n');
    }
    std::fs::write(&jsonl, lines)?;
    files.push(jsonl);

    let (throughput, y_label) = match plot {
        Throughput::Ops => (
            series(points, |p| Some(p.m.ops_per_s)),
            "operations/s (median)".to_string(),
        ),
        Throughput::Rows(unit) => (
            series(points, |p| Some(p.m.rows_per_s)),
            format!("{unit}/s (median)"),
        ),
    };
    let mut charts = Vec::new();
    if !throughput.is_empty() {
        let stem = dir.join("throughput");
        Chart {
            title: &format!("{experiment}: throughput"),
            y_label: &y_label,
            scale: Scale::Log,
            ideal: false,
            series: &throughput,
        }
        .write(&stem)?;
        charts.push("throughput");
    }
    let speedup = series(points, |p| p.ratio_to_1_thread);
    if !speedup.is_empty() {
        let stem = dir.join("speedup");
        Chart {
            title: &format!("{experiment}: speedup over 1 thread"),
            y_label: "throughput / 1-thread throughput",
            scale: Scale::Linear,
            ideal: true,
            series: &speedup,
        }
        .write(&stem)?;
        charts.push("speedup");
    }
    for c in &charts {
        files.push(dir.join(format!("{c}.png")));
        files.push(dir.join(format!("{c}.svg")));
    }
    let md = dir.join("report.md");
    std::fs::write(&md, markdown(experiment, command, points, &charts))?;
    files.push(md);
    Ok(files)
}

/// One series per case, in the order cases first appear.
fn series(points: &[Point], value: impl Fn(&Point) -> Option<f64>) -> Vec<Series> {
    let mut out: Vec<Series> = Vec::new();
    for p in points {
        let Some(v) = value(p) else { continue };
        match out.iter_mut().find(|s| s.name == p.case) {
            Some(s) => s.points.push((p.threads, v)),
            None => out.push(Series {
                name: p.case.clone(),
                points: vec![(p.threads, v)],
            }),
        }
    }
    for s in &mut out {
        s.points.sort_by_key(|p| p.0);
    }
    out
}

fn markdown(experiment: &str, command: &str, points: &[Point], charts: &[&str]) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "# lineardb bench {experiment}\n");
    let _ = writeln!(s, "Reproduce with:\n\n```\n{command}\n```\n");
    let _ = writeln!(s, "Machine: {}.\n", machine());
    let _ = writeln!(
        s,
        "Medians of the runs of each point (min–max in brackets); the ratio \
         is to the case's 1-thread median; CPU is the process's user+system \
         time per operation; shared writes are counted in an `audit` build \
         only.\n"
    );
    let _ = writeln!(
        s,
        "| case | threads | ops/s | ratio | CPU µs/op | shared writes/row | other |"
    );
    let _ = writeln!(s, "|---|---|---|---|---|---|---|");
    let opt = |v: Option<f64>, prec: usize| v.map_or("-".to_string(), |x| format!("{x:.prec$}"));
    for p in points {
        let extra: Vec<String> = p.extra.iter().map(|(k, v)| format!("{k}={v:.3}")).collect();
        let _ = writeln!(
            s,
            "| {} | {} | {:.0} ({:.0}–{:.0}) | {} | {:.2} | {} | {} |",
            p.case,
            p.threads,
            p.m.ops_per_s,
            p.m.ops_per_s_min,
            p.m.ops_per_s_max,
            opt(p.ratio_to_1_thread, 2),
            p.m.cpu_us_per_op,
            opt(p.m.shared_writes_per_row, 2),
            extra.join(" ")
        );
    }
    for c in charts {
        let _ = writeln!(s, "\n![{c}]({c}.png)");
    }
    s
}

/// CPU model, cores, memory and kernel, read from /proc.
pub fn machine() -> String {
    let read = |p: &str| std::fs::read_to_string(p).unwrap_or_default();
    let cpuinfo = read("/proc/cpuinfo");
    let model = cpuinfo
        .lines()
        .find_map(|l| l.strip_prefix("model name"))
        .and_then(|l| l.split_once(':'))
        .map_or("unknown CPU".to_string(), |(_, m)| m.trim().to_string());
    let cores = std::thread::available_parallelism().map_or(0, |n| n.get());
    let mem_gib = read("/proc/meminfo")
        .lines()
        .find_map(|l| l.strip_prefix("MemTotal:"))
        .and_then(|l| l.split_whitespace().next()?.parse::<f64>().ok())
        .map_or(0.0, |kib| kib / (1 << 20) as f64);
    let kernel = read("/proc/sys/kernel/osrelease");
    format!(
        "{model}, {cores} cores, {mem_gib:.0} GiB, Linux {}",
        kernel.trim()
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::Measurement;

    fn point(case: &str, threads: usize, ops: f64, base: f64) -> Point {
        Point {
            experiment: "test".into(),
            system: None,
            case: case.into(),
            threads,
            ratio_to_1_thread: Some(ops / base),
            m: Measurement {
                runs: 3,
                ops_per_s: ops,
                ops_per_s_min: ops * 0.9,
                ops_per_s_max: ops * 1.1,
                rows_per_s: ops * 10.0,
                cpu_us_per_op: 1e6 / ops,
                shared_writes_per_row: None,
                shared_writes_per_op: None,
            },
            extra: Default::default(),
        }
    }

    #[test]
    fn a_results_folder_has_points_report_and_charts() {
        let dir = tempfile::tempdir().unwrap();
        let points = vec![
            point("pk_10", 1, 100_000.0, 100_000.0),
            point("pk_10", 2, 190_000.0, 100_000.0),
            point("pk_1000", 1, 3_000.0, 3_000.0),
            point("pk_1000", 2, 5_900.0, 3_000.0),
        ];
        let files = write(
            dir.path(),
            "quick",
            "lineardb bench quick",
            &points,
            Throughput::Ops,
        )
        .unwrap();
        for f in &files {
            assert!(f.exists(), "{} missing", f.display());
        }
        let jsonl = std::fs::read_to_string(dir.path().join("points.jsonl")).unwrap();
        assert_eq!(jsonl.lines().count(), 4);
        let md = std::fs::read_to_string(dir.path().join("report.md")).unwrap();
        assert!(md.contains("lineardb bench quick"));
        assert!(
            md.contains("| pk_1000 | 2 | 5900 (5310–6490) | 1.97 |"),
            "{md}"
        );
        assert!(md.contains("![speedup](speedup.png)"));
        let svg = std::fs::read_to_string(dir.path().join("speedup.svg")).unwrap();
        assert!(svg.contains("linear") && svg.contains("pk_10"));
    }
}
