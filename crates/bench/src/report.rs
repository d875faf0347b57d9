//! Results: one [`Point`] per (experiment, case, threads), printed as a
//! readable table or as JSON lines.
use crate::run_result::RunResult;
use crate::stats::median;
use serde::Serialize;

/// Medians (and spread) over the repeated runs of one point.
#[derive(Debug, Clone, Serialize)]
pub struct Measurement {
    pub runs: usize,
    pub ops_per_s: f64,
    pub ops_per_s_min: f64,
    pub ops_per_s_max: f64,
    pub rows_per_s: f64,
    pub cpu_us_per_op: f64,
    /// `None` in a build without the `audit` feature.
    pub shared_writes_per_row: Option<f64>,
    pub shared_writes_per_op: Option<f64>,
}

impl Measurement {
    pub fn from_runs(runs: &[RunResult]) -> Measurement {
        let mut ops: Vec<f64> = runs.iter().map(|r| r.ops_per_s()).collect();
        let mut rows: Vec<f64> = runs.iter().map(|r| r.rows_per_s()).collect();
        let mut cpu: Vec<f64> = runs.iter().map(|r| r.cpu_us_per_op()).collect();
        let total_ops: u64 = runs.iter().map(|r| r.ops).sum();
        let total_rows: u64 = runs.iter().map(|r| r.rows).sum();
        let writes: u64 = runs.iter().map(|r| r.shared_writes).sum();
        let audit = lineardb_sync::audit::ENABLED;
        Measurement {
            runs: runs.len(),
            ops_per_s: median(&mut ops),
            ops_per_s_min: ops.iter().cloned().fold(f64::INFINITY, f64::min),
            ops_per_s_max: ops.iter().cloned().fold(0.0, f64::max),
            rows_per_s: median(&mut rows),
            cpu_us_per_op: median(&mut cpu),
            shared_writes_per_row: audit.then(|| writes as f64 / total_rows.max(1) as f64),
            shared_writes_per_op: audit.then(|| writes as f64 / total_ops.max(1) as f64),
        }
    }
}

#[derive(Debug, Clone, Serialize)]
pub struct Point {
    pub experiment: String,
    /// The system measured, in side-by-side experiments ("lineardb",
    /// "mariadb").
    #[serde(skip_serializing_if = "Option::is_none")]
    pub system: Option<String>,
    pub case: String,
    pub threads: usize,
    pub ratio_to_1_thread: Option<f64>,
    #[serde(flatten)]
    pub m: Measurement,
    /// Experiment-specific figures (seconds, bandwidth, ...).
    #[serde(flatten)]
    pub extra: std::collections::BTreeMap<String, f64>,
}

impl Point {
    /// A point from one line of `points.jsonl` (as [`json`](Self::json)
    /// writes it).
    pub fn from_json(line: &str) -> anyhow::Result<Point> {
        let v: serde_json::Value = serde_json::from_str(line)?;
        let o = v
            .as_object()
            .ok_or_else(|| anyhow::anyhow!("not an object: {line}"))?;
        let text = |k: &str| o.get(k).and_then(|x| x.as_str()).map(String::from);
        let num = |k: &str| o.get(k).and_then(|x| x.as_f64());
        let need = |k: &str| num(k).ok_or_else(|| anyhow::anyhow!("no {k} in: {line}"));
        const KNOWN: [&str; 13] = [
            "experiment",
            "system",
            "case",
            "threads",
            "ratio_to_1_thread",
            "runs",
            "ops_per_s",
            "ops_per_s_min",
            "ops_per_s_max",
            "rows_per_s",
            "cpu_us_per_op",
            "shared_writes_per_row",
            "shared_writes_per_op",
        ];
        Ok(Point {
            experiment: text("experiment").unwrap_or_default(),
            system: text("system"),
            case: text("case").ok_or_else(|| anyhow::anyhow!("no case in: {line}"))?,
            threads: need("threads")? as usize,
            ratio_to_1_thread: num("ratio_to_1_thread"),
            m: Measurement {
                runs: need("runs")? as usize,
                ops_per_s: need("ops_per_s")?,
                ops_per_s_min: need("ops_per_s_min")?,
                ops_per_s_max: need("ops_per_s_max")?,
                rows_per_s: need("rows_per_s")?,
                cpu_us_per_op: need("cpu_us_per_op")?,
                shared_writes_per_row: num("shared_writes_per_row"),
                shared_writes_per_op: num("shared_writes_per_op"),
            },
            extra: o
                .iter()
                .filter(|(k, _)| !KNOWN.contains(&k.as_str()))
                .filter_map(|(k, v)| Some((k.clone(), v.as_f64()?)))
                .collect(),
        })
    }

    pub fn json(&self) -> String {
        serde_json::to_string(self).expect("serializable")
    }
}

pub fn table_header() -> String {
    format!(
        "{:<18} {:>7} {:>13} {:>13} {:>8} {:>10} {:>11} {:>10}",
        "case", "threads", "ops/s", "rows/s", "ratio", "cpu µs/op", "sh.wr/row", "sh.wr/op"
    )
}

pub fn table_row(p: &Point) -> String {
    let opt = |v: Option<f64>, prec: usize| match v {
        Some(x) => format!("{x:.prec$}"),
        None => "-".into(),
    };
    format!(
        "{:<18} {:>7} {:>13.0} {:>13.0} {:>8} {:>10.2} {:>11} {:>10}",
        p.case,
        p.threads,
        p.m.ops_per_s,
        p.m.rows_per_s,
        opt(p.ratio_to_1_thread, 2),
        p.m.cpu_us_per_op,
        opt(p.m.shared_writes_per_row, 2),
        opt(p.m.shared_writes_per_op, 2),
    )
}
