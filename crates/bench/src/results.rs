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
/// files written. `machine` describes where the points were measured
/// ([`machine`] for this one).
pub fn write(
    dir: &Path,
    experiment: &str,
    command: &str,
    machine: &str,
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
    std::fs::write(&md, markdown(experiment, command, machine, points, &charts))?;
    files.push(md);
    Ok(files)
}

/// One series per case, in the order cases first appear; when the points
/// carry systems, one panel per case with a line per system.
fn series(points: &[Point], value: impl Fn(&Point) -> Option<f64>) -> Vec<Series> {
    let several_systems = {
        let mut systems: Vec<&str> = points.iter().filter_map(|p| p.system.as_deref()).collect();
        systems.sort_unstable();
        systems.dedup();
        systems.len() > 1
    };
    let mut out: Vec<Series> = Vec::new();
    for p in points {
        let Some(v) = value(p) else { continue };
        let (name, panel) = match p.system.as_deref() {
            Some(system) if several_systems => {
                let case = p.case.strip_prefix(system).unwrap_or(&p.case).trim_start();
                (system.to_string(), case.to_string())
            }
            _ => (p.case.clone(), String::new()),
        };
        match out.iter_mut().find(|s| s.name == name && s.panel == panel) {
            Some(s) => s.points.push((p.threads, v)),
            None => out.push(Series {
                name,
                panel,
                points: vec![(p.threads, v)],
            }),
        }
    }
    for s in &mut out {
        s.points.sort_by_key(|p| p.0);
    }
    out
}

fn markdown(
    experiment: &str,
    command: &str,
    machine: &str,
    points: &[Point],
    charts: &[&str],
) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "# lineardb bench {experiment}\n");
    let _ = writeln!(s, "Reproduce with:\n\n```\n{command}\n```\n");
    let _ = writeln!(s, "Machine: {machine}.\n");
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
            "| {} | {} | {} ({}–{}) | {} | {:.2} | {} | {} |",
            p.case,
            p.threads,
            figure(p.m.ops_per_s),
            figure(p.m.ops_per_s_min),
            figure(p.m.ops_per_s_max),
            opt(p.ratio_to_1_thread, 2),
            p.m.cpu_us_per_op,
            opt(p.m.shared_writes_per_row, 2),
            extra.join(" ")
        );
    }
    side_by_side(&mut s, points);
    instrumentation_cost(&mut s, points);
    for c in charts {
        let _ = writeln!(s, "\n![{c}]({c}.png)");
    }
    s
}

/// Three significant figures at least: 1234567, 123.4, 1.23, 0.123.
fn figure(v: f64) -> String {
    let a = v.abs();
    if a >= 1000.0 {
        format!("{v:.0}")
    } else if a >= 100.0 {
        format!("{v:.1}")
    } else if a >= 1.0 {
        format!("{v:.2}")
    } else {
        format!("{v:.3}")
    }
}

/// When points were measured with the instrumentation on and off
/// (`--instrumentation on,off`): per case and thread count, the throughput
/// with it on over the throughput with it off.
fn instrumentation_cost(s: &mut String, points: &[Point]) {
    let pairs: Vec<(&Point, &Point)> = points
        .iter()
        .filter_map(|off| {
            let case = [
                crate::harness::INSTRUMENTATION_OFF,
                crate::harness::INSTRUMENTATION_CONTROL,
            ]
            .iter()
            .find_map(|suffix| off.case.strip_suffix(suffix))?;
            let on = points
                .iter()
                .find(|p| p.case == case && p.threads == off.threads)?;
            Some((on, off))
        })
        .collect();
    if pairs.is_empty() {
        return;
    }
    let _ = writeln!(
        s,
        "\n## Instrumentation on and off\n\n\
         Where pairs of slices are given, each run switched the \
         instrumentation every slice, in pairs of one slice on and one off in \
         random order (`on / off`: median over the runs of each run's ratio; \
         `per pair`: median of the pairs' on / off, with its 95% interval; \
         `rows/s per pair`: the same in rows read per second, steadier where \
         the rows per operation vary widely). \
         Otherwise the settings had separate runs in turn (`on / off`: ratio \
         of the medians; where pairs are given, runs with it on and off next \
         to each other make a pair). Cases marked `(control)` were measured \
         with `--instrumentation on,on`: the same, with the instrumentation \
         kept on where a slice or run is marked off.\n"
    );
    let _ = writeln!(
        s,
        "| case | threads | on ops/s | off ops/s | on / off | per pair (95%) | rows/s per pair (95%) | pairs |"
    );
    let _ = writeln!(s, "|---|---|---|---|---|---|---|---|");
    for (on, off) in pairs {
        let extra = |k: &str| on.extra.get(k).copied();
        let ratio = extra("on_off").unwrap_or(on.m.ops_per_s / off.m.ops_per_s);
        let interval = |prefix: &str| match (
            extra(&format!("{prefix}on_off_pairs")),
            extra(&format!("{prefix}on_off_low")),
            extra(&format!("{prefix}on_off_high")),
        ) {
            (Some(m), Some(low), Some(high)) => format!("{m:.3} ({low:.3}–{high:.3})"),
            _ => "-".to_string(),
        };
        let (per_pair, rows_per_pair) = (interval(""), interval("rows_"));
        let n_pairs = extra("pairs").map_or("-".to_string(), |n| format!("{n:.0}"));
        let _ = writeln!(
            s,
            "| {} | {} | {} | {} | {ratio:.3} | {per_pair} | {rows_per_pair} | {n_pairs} |",
            on.case,
            on.threads,
            figure(on.m.ops_per_s),
            figure(off.m.ops_per_s),
        );
    }
}

/// When the points come from several systems: per case and thread count,
/// each system's throughput and CPU per operation, and the first system's
/// ratio to each other one.
fn side_by_side(s: &mut String, points: &[Point]) {
    let mut systems: Vec<&str> = Vec::new();
    for p in points {
        if let Some(sys) = p.system.as_deref() {
            if !systems.contains(&sys) {
                systems.push(sys);
            }
        }
    }
    if systems.len() < 2 {
        return;
    }
    let base = systems[0];
    let _ = writeln!(s, "\n## Side by side\n");
    let _ = writeln!(
        s,
        "Operations/s (CPU µs per operation in brackets); the ratio is {base}'s throughput over the other system's.\n"
    );
    let mut head = String::from("| case | threads |");
    let mut rule = String::from("|---|---|");
    for sys in &systems {
        head.push_str(&format!(" {sys} |"));
        rule.push_str("---|");
    }
    for sys in &systems[1..] {
        head.push_str(&format!(" {base} / {sys} |"));
        rule.push_str("---|");
    }
    let _ = writeln!(s, "{head}\n{rule}");
    let case_of = |p: &Point| {
        let sys = p.system.as_deref().unwrap_or("");
        p.case
            .strip_prefix(sys)
            .unwrap_or(&p.case)
            .trim_start()
            .to_string()
    };
    let mut rows: Vec<(String, usize)> = Vec::new();
    for p in points {
        let key = (case_of(p), p.threads);
        if !rows.contains(&key) {
            rows.push(key);
        }
    }
    for (case, threads) in rows {
        let find = |sys: &str| {
            points.iter().find(|p| {
                p.system.as_deref() == Some(sys) && p.threads == threads && case_of(p) == case
            })
        };
        let mut line = format!("| {case} | {threads} |");
        for sys in &systems {
            match find(sys) {
                Some(p) => line.push_str(&format!(
                    " {} ({:.1}) |",
                    figure(p.m.ops_per_s),
                    p.m.cpu_us_per_op
                )),
                None => line.push_str(" - |"),
            }
        }
        for sys in &systems[1..] {
            match (find(base), find(sys)) {
                (Some(a), Some(b)) if b.m.ops_per_s > 0.0 => {
                    line.push_str(&format!(" {:.2} |", a.m.ops_per_s / b.m.ops_per_s))
                }
                _ => line.push_str(" - |"),
            }
        }
        let _ = writeln!(s, "{line}");
    }
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
                ops_per_s_max: ops + ops / 10.0,
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
            &machine(),
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

    /// Points of several systems make one panel per case with one line per
    /// system; the points read back from points.jsonl are the same points.
    #[test]
    fn systems_become_lines_of_one_panel_per_case() {
        let mut points = Vec::new();
        for system in ["lineardb", "mariadb"] {
            let speed = if system == "lineardb" { 1.0 } else { 0.5 };
            for (case, ops) in [("pk_10", 100_000.0 * speed), ("pk_1000", 3_000.0 * speed)] {
                for t in [1, 2] {
                    let mut p = point(&format!("{system} {case}"), t, ops * t as f64, ops);
                    p.system = Some(system.into());
                    p.extra.insert("seconds".into(), 5.0);
                    points.push(p);
                }
            }
        }
        let s = series(&points, |p| Some(p.m.ops_per_s));
        let lines: Vec<(&str, &str, usize)> = s
            .iter()
            .map(|s| (s.panel.as_str(), s.name.as_str(), s.points.len()))
            .collect();
        assert_eq!(
            lines,
            [
                ("pk_10", "lineardb", 2),
                ("pk_1000", "lineardb", 2),
                ("pk_10", "mariadb", 2),
                ("pk_1000", "mariadb", 2)
            ]
        );
        // One system alone: plain lines named by case.
        let alone: Vec<Point> = points
            .iter()
            .filter(|p| p.system.as_deref() == Some("lineardb"))
            .cloned()
            .collect();
        let s = series(&alone, |p| Some(p.m.ops_per_s));
        assert!(s
            .iter()
            .all(|s| s.panel.is_empty() && s.name.starts_with("lineardb ")));

        let back: Vec<Point> = points
            .iter()
            .map(|p| Point::from_json(&p.json()).unwrap())
            .collect();
        for (a, b) in points.iter().zip(&back) {
            assert_eq!(a.json(), b.json());
        }
        let report = markdown("test", "cmd", "a machine", &points, &[]);
        assert!(
            report.contains("| pk_10 | 2 | 200000 (5.0) | 100000 (10.0) | 2.00 |"),
            "{report}"
        );
    }
}
