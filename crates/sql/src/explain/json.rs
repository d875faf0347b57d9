//! `EXPLAIN FORMAT=JSON`: a described plan as MariaDB's JSON document
//! (`query_block` with `select_id`, a `nested_loop` of `table` objects,
//! `union_result` for set operations, nested blocks under `subqueries`
//! and a derived table's under `materialized`).
use super::{Block, Shape, TableLine};
use serde_json::{json, Map, Value as Json};

/// The document, indented as MariaDB indents it.
pub(crate) fn document(block: &Block) -> String {
    let doc = json!({ "query_block": query_block(block, false) });
    serde_json::to_string_pretty(&doc).unwrap_or_default()
}

/// `ANALYZE FORMAT=JSON`: the document of a plan that ran in `total`, its
/// lines' reads filled in (`r_loops`, `r_rows`, `r_table_time_ms`,
/// `r_filtered`).
pub(crate) fn analyzed_document(block: &Block, total: std::time::Duration) -> String {
    let mut qb = query_block(block, true);
    if let Json::Object(map) = &mut qb {
        // After select_id, as MariaDB places them.
        let rest: Vec<(String, Json)> = std::mem::take(map).into_iter().collect();
        for (k, v) in rest {
            let is_id = k == "select_id";
            map.insert(k, v);
            if is_id {
                map.insert("r_loops".into(), json!(1));
                map.insert("r_total_time_ms".into(), millis(total));
            }
        }
    }
    let doc = json!({ "query_block": qb });
    serde_json::to_string_pretty(&doc).unwrap_or_default()
}

/// A duration in milliseconds, as MariaDB shows times.
fn millis(d: std::time::Duration) -> Json {
    number(d.as_secs_f64() * 1000.0)
}

/// A measured number as MariaDB writes it: whole numbers without a
/// fraction, others to nine decimals.
fn number(v: f64) -> Json {
    if v.fract() == 0.0 && v.abs() < 1e15 {
        json!(v as i64)
    } else {
        json!((v * 1e9).round() / 1e9)
    }
}

fn query_block(block: &Block, analyzed: bool) -> Json {
    match &block.shape {
        Shape::SetOp { operands, result } => {
            let mut union = Map::new();
            if let Some(r) = result {
                union.insert("table_name".into(), json!(r.table));
                union.insert("access_type".into(), json!("ALL"));
            }
            union.insert(
                "query_specifications".into(),
                Json::Array(
                    operands
                        .iter()
                        .map(|o| json!({ "query_block": query_block(o, analyzed) }))
                        .collect(),
                ),
            );
            json!({ "union_result": union })
        }
        Shape::Select { lines, no_tables } => {
            let mut qb = Map::new();
            qb.insert("select_id".into(), json!(block.id));
            if matches!(
                block.select_type.as_str(),
                "UNION" | "INTERSECT" | "EXCEPT" | "RECURSIVE UNION"
            ) {
                qb.insert("operation".into(), json!(block.select_type));
            }
            if lines.is_empty() {
                let message = if *no_tables { "No tables used" } else { "" };
                qb.insert("table".into(), json!({ "message": message }));
            } else {
                // Derived tables' blocks go under the line that reads them.
                let mut derived: Vec<&Block> = Vec::new();
                let mut others: Vec<&Block> = Vec::new();
                for n in &block.nested {
                    if n.select_type == "DERIVED" {
                        derived.push(n);
                    } else {
                        others.push(n);
                    }
                }
                let tables: Vec<Json> = lines
                    .iter()
                    .map(|l| {
                        let mut t = table(l, analyzed);
                        let name = l.table.as_deref().unwrap_or("");
                        if let Some(d) = derived
                            .iter()
                            .find(|d| d.id.is_some_and(|id| name == format!("<derived{id}>")))
                        {
                            t.insert(
                                "materialized".into(),
                                json!({ "query_block": query_block(d, analyzed) }),
                            );
                        }
                        json!({ "table": t })
                    })
                    .collect();
                qb.insert("nested_loop".into(), Json::Array(tables));
                if !others.is_empty() {
                    qb.insert(
                        "subqueries".into(),
                        Json::Array(
                            others
                                .iter()
                                .map(|o| json!({ "query_block": query_block(o, analyzed) }))
                                .collect(),
                        ),
                    );
                }
            }
            Json::Object(qb)
        }
    }
}

/// One table's object, keys in MariaDB's order (with what its reads did
/// when `analyzed`).
fn table(l: &TableLine, analyzed: bool) -> Map<String, Json> {
    let mut t = Map::new();
    t.insert("table_name".into(), json!(l.table));
    t.insert("access_type".into(), json!(l.access));
    if !l.possible_keys.is_empty() {
        t.insert("possible_keys".into(), json!(l.possible_keys));
    }
    if let Some(k) = &l.key {
        t.insert("key".into(), json!(k));
    }
    if let Some(n) = l.key_len {
        t.insert("key_length".into(), json!(n.to_string()));
    }
    if !l.used_key_parts.is_empty() {
        t.insert("used_key_parts".into(), json!(l.used_key_parts));
    }
    if !l.refs.is_empty() {
        t.insert("ref".into(), json!(l.refs));
    }
    if analyzed {
        t.insert("r_loops".into(), json!(l.read.map_or(0, |r| r.loops)));
    }
    if let Some(r) = l.rows {
        t.insert("rows".into(), json!(r));
    }
    if let Some(read) = l.read.filter(|_| analyzed) {
        t.insert("r_rows".into(), number(read.rows_per_loop()));
        t.insert("r_table_time_ms".into(), millis(read.time));
    }
    t.insert("filtered".into(), json!(100));
    if let Some(read) = l.read.filter(|_| analyzed) {
        t.insert(
            "r_filtered".into(),
            number((read.filtered() * 100.0).round() / 100.0),
        );
    }
    if l.using_index {
        t.insert("using_index".into(), json!(true));
    }
    for n in &l.notes {
        let (key, value) = match n.as_str() {
            "Using temporary" => ("temporary_table", json!(true)),
            "Using filesort" => ("filesort", json!(true)),
            "Not exists" => ("not_exists", json!(true)),
            n if n.starts_with("Using join buffer") => ("join_buffer", json!(n)),
            n if n.starts_with("FirstMatch") => ("first_match", json!(n)),
            n => ("note", json!(n)),
        };
        t.insert(key.into(), value);
    }
    t
}
