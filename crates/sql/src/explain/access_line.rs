//! One table's line of EXPLAIN: how its block reads it, in MariaDB's terms
//! (access type, possible and chosen keys, key length, what the key is
//! compared with, estimated rows, notes).
use crate::execution::access::{access_for_run, estimate};
use crate::execution::analyze::ReadStats;
use crate::execution::node_of;
use crate::expr::Expr;
use crate::planner::plan::{Access, KeyPredicate, Path, TableSource};
use lineardb_table::{DataType, KeyRange, Table, Value};

/// What EXPLAIN says of one table (or derived table) a block reads.
#[derive(Default)]
pub(crate) struct TableLine {
    pub table: Option<String>,
    /// MariaDB's access type: const, eq_ref, ref, range, index, ALL,
    /// hash_ALL.
    pub access: Option<&'static str>,
    pub possible_keys: Vec<String>,
    pub key: Option<String>,
    /// Bytes of the key parts used.
    pub key_len: Option<u32>,
    pub used_key_parts: Vec<String>,
    /// What each used key part is compared with: `const`, a column
    /// (`db.table.column`) or `func`.
    pub refs: Vec<String>,
    pub rows: Option<u64>,
    /// A condition is checked on its rows (`Using where`).
    pub condition: bool,
    /// Its rows are read from a secondary index alone (`Using index`).
    pub using_index: bool,
    /// Notes after `Using where` / `Using index`, in order.
    pub notes: Vec<String>,
    /// The plan node it reads (where ANALYZE counts its reads).
    pub node: Option<usize>,
    /// What its reads did (ANALYZE): None when it was never read.
    pub read: Option<ReadStats>,
}

impl TableLine {
    /// The Extra column: MariaDB's notes joined by `; `.
    pub(crate) fn extra(&self) -> String {
        let mut parts: Vec<&str> = Vec::new();
        if self.condition {
            parts.push("Using where");
        }
        if self.using_index {
            parts.push("Using index");
        }
        parts.extend(self.notes.iter().map(String::as_str));
        parts.join("; ")
    }
}

/// The index an access reads first, by name (`PRIMARY` for the clustered
/// index), and its columns.
fn index_of(table: &Table, access: Access) -> (String, Vec<usize>) {
    let def = table.def();
    match access.index() {
        None => ("PRIMARY".into(), def.primary_key.clone()),
        Some(i) => (def.indexes[i].name.clone(), def.indexes[i].columns.clone()),
    }
}

/// Keys the WHERE clause (or join) constrains: the chosen path's and the
/// alternatives weighed at run time.
fn possible_keys(ts: &TableSource) -> Vec<String> {
    let mut keys = Vec::new();
    for p in std::iter::once(&ts.path).chain(&ts.others) {
        if p.key.eq.is_empty() && p.key.ranges.is_empty() {
            continue;
        }
        let (name, _) = index_of(&ts.table, p.access);
        if !keys.contains(&name) {
            keys.push(name);
        }
    }
    keys
}

/// Bytes a column takes in a key, as MariaDB counts them (utf8mb4 text,
/// one more byte for a nullable column).
fn key_bytes(table: &Table, column: usize) -> u32 {
    let def = &table.def().columns[column];
    let digits = |d: u32| (d / 9) * 4 + [0, 1, 1, 2, 2, 3, 3, 4, 4, 4][(d % 9) as usize];
    let bytes = match def.data_type {
        DataType::TinyInt { .. } => 1,
        DataType::SmallInt { .. } => 2,
        DataType::MediumInt { .. } => 3,
        DataType::Int { .. } => 4,
        DataType::BigInt { .. } => 8,
        DataType::Decimal { precision, scale } => {
            digits(u32::from(precision - scale)) + digits(u32::from(scale))
        }
        DataType::Double => 8,
        DataType::Date => 3,
        DataType::DateTime => 5,
        DataType::Timestamp => 4,
        DataType::Time => 3,
        DataType::Enum(m) => 1 + u32::from(m.len() > 255),
        DataType::Set(m) => match (m.len() as u32).div_ceil(8) {
            b @ 1..=4 => b,
            _ => 8,
        },
        DataType::Float => 4,
        DataType::Year => 1,
        DataType::Bit(n) => u32::from(n).div_ceil(8),
        DataType::Uuid => 16,
        DataType::Char(n) => n * 4,
        DataType::Binary(n) => n,
        DataType::VarChar(n) => n * 4 + 2,
        DataType::VarBinary(n) => n + 2,
        DataType::Text(n) | DataType::Blob(n) => n.min(3072) + 2,
    };
    bytes + u32::from(def.nullable)
}

/// Fills the key columns of `line` for the first `parts` columns of the
/// index `access` reads.
fn set_key(line: &mut TableLine, table: &Table, access: Access, parts: usize) {
    let (name, columns) = index_of(table, access);
    let used = &columns[..parts.min(columns.len())];
    line.key = Some(name);
    line.key_len = Some(used.iter().map(|&c| key_bytes(table, c)).sum());
    line.used_key_parts = used
        .iter()
        .map(|&c| table.def().columns[c].name.clone())
        .collect();
}

/// Key parts a predicate fixes or bounds.
fn parts_of(key: &KeyPredicate) -> usize {
    key.eq.len() + usize::from(!key.ranges.is_empty())
}

/// A table read by a scan of key ranges (or of all of it) once per
/// execution of its block, `filter` its conditions: the path an execution
/// with `params` takes.
pub(crate) fn scanned(ts: &TableSource, filter: Option<&Expr>, params: &[Value]) -> TableLine {
    let t = &ts.table;
    let mut line = TableLine {
        table: Some(ts.alias.clone()),
        possible_keys: possible_keys(ts),
        node: Some(node_of::<TableSource>(ts)),
        ..TableLine::default()
    };
    let Ok(run) = access_for_run(ts, filter, params) else {
        // (Parameters it cannot use yet: the plan as chosen.)
        line.access = Some("ALL");
        line.rows = Some(t.estimate_rows());
        line.condition = filter.is_some();
        return line;
    };
    let ranged = run.ranges != [KeyRange::all()];
    let path: Option<&Path> = std::iter::once(&ts.path)
        .chain(&ts.others)
        .find(|p| p.access == run.access);
    let covering = matches!(run.access, Access::Covering(_));
    // MariaDB attaches the WHERE clause to a range it reads, even where
    // the range already guarantees it.
    line.condition = run.filter.is_some() || (filter.is_some() && !run.points);
    line.using_index = covering;
    line.rows = Some(if ranged {
        estimate(t, run.access, &run.ranges)
    } else {
        t.estimate_rows()
    });
    if run.points && run.ranges.len() == 1 {
        line.access = Some("const");
        let parts = path.map_or(0, |p| p.key.eq.len());
        set_key(&mut line, t, run.access, parts);
        line.refs = vec!["const".into(); parts];
        line.rows = Some(1);
    } else if let Some(p) = path.filter(|p| {
        ranged && !p.key.eq.is_empty() && p.key.ranges.is_empty() && run.ranges.len() == 1
    }) {
        // Equalities on a key that is not unique (or not all of it).
        line.access = Some("ref");
        let parts = p.key.eq.len();
        set_key(&mut line, t, run.access, parts);
        line.refs = vec!["const".into(); parts];
        line.condition = run.filter.is_some();
    } else if ranged {
        line.access = Some("range");
        let parts = path.map_or(0, |p| parts_of(&p.key));
        set_key(&mut line, t, run.access, parts);
    } else if covering {
        line.access = Some("index");
        let (_, columns) = index_of(t, run.access);
        set_key(&mut line, t, run.access, columns.len());
    } else {
        line.access = Some("ALL");
    }
    line
}

/// A table read by its key for each row of the blocks or steps before
/// it: `eq_ref` when the key's equalities fix a unique key, else `ref`;
/// `reference` names what a key equality compares with.
pub(crate) fn looked_up(
    ts: &TableSource,
    reference: &dyn Fn(&Expr) -> String,
    rows: f64,
    condition: bool,
) -> TableLine {
    let t = &ts.table;
    let def = t.def();
    let key = &ts.path.key;
    let (_, columns) = index_of(t, ts.path.access);
    let unique = match ts.path.access.index() {
        None => true,
        Some(i) => def.indexes[i].unique,
    };
    let fixes_unique = unique && key.eq.len() == columns.len() && key.ranges.is_empty();
    let mut line = TableLine {
        table: Some(ts.alias.clone()),
        node: Some(node_of::<TableSource>(ts)),
        access: Some(if fixes_unique { "eq_ref" } else { "ref" }),
        possible_keys: possible_keys(ts),
        rows: Some(if fixes_unique {
            1
        } else {
            rows.round().max(1.0) as u64
        }),
        condition,
        using_index: matches!(ts.path.access, Access::Covering(_)),
        ..TableLine::default()
    };
    set_key(&mut line, t, ts.path.access, key.eq.len());
    line.refs = key.eq.iter().map(reference).collect();
    line
}
