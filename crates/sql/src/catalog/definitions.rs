//! How table definitions are shown, the same in SHOW statements and in
//! `information_schema`: keys in MariaDB's order, index rows, column
//! defaults as MariaDB prints them.
use lineardb_table::{Table, TableDef, Value};

/// The secondary indexes (with their positions) in MariaDB's order: unique
/// keys of NOT NULL columns first, then the other unique keys, then the
/// rest, each in the order they were made.
pub(crate) fn keys_in_order(d: &TableDef) -> Vec<(usize, &lineardb_table::IndexDef)> {
    let mut keys: Vec<(usize, &lineardb_table::IndexDef)> = d.indexes.iter().enumerate().collect();
    keys.sort_by_key(|(_, ix)| match ix.unique {
        true if ix.columns.iter().all(|&c| !d.columns[c].nullable) => 0,
        true => 1,
        false => 2,
    });
    keys
}

/// SHOW INDEX rows: the primary key, then each secondary index.
pub(crate) fn index_rows(t: &Table) -> Vec<Vec<Value>> {
    let d = &t.def();
    let mut keys: Vec<(&str, bool, &[usize], Option<usize>)> = Vec::new();
    if !d.primary_key.is_empty() {
        keys.push(("PRIMARY", true, &d.primary_key, None));
    }
    for (i, ix) in keys_in_order(d) {
        keys.push((&ix.name, ix.unique, &ix.columns, Some(i)));
    }
    let mut rows = Vec::new();
    for (name, unique, cols, index) in keys {
        let descending = |seq: usize| index.is_some_and(|i| d.indexes[i].is_descending(seq));
        for (seq, &c) in cols.iter().enumerate() {
            let col = &d.columns[c];
            // Distinct values of the key's first seq + 1 columns.
            let cardinality = match t.distinct_keys(index, seq + 1) {
                Ok(Some(n)) => Value::UInt(n),
                _ => Value::Null,
            };
            rows.push(vec![
                Value::str(&d.name),
                Value::Int(!unique as i64),
                Value::str(name),
                Value::Int(seq as i64 + 1),
                Value::str(&col.name),
                Value::str(if descending(seq) { "D" } else { "A" }),
                cardinality,
                Value::Null,
                Value::Null,
                Value::str(if col.nullable { "YES" } else { "" }),
                Value::str("BTREE"),
                Value::str(""),
                Value::str(""),
                Value::str("NO"),
            ]);
        }
    }
    rows
}

/// CURRENT_TIMESTAMP as MariaDB prints it for a column of `fsp` digits.
pub(crate) fn current_timestamp(fsp: u8) -> String {
    if fsp == 0 {
        "current_timestamp()".into()
    } else {
        format!("current_timestamp({fsp})")
    }
}

/// A literal DEFAULT as MariaDB prints it: numbers bare, the rest quoted.
pub(crate) fn default_literal(t: &lineardb_table::DataType, v: &str) -> String {
    // Kept as MariaDB shows it: b'101'.
    if let lineardb_table::DataType::Bit(_) = t {
        return v.to_string();
    }
    let numeric = t.is_integer()
        || matches!(
            t,
            lineardb_table::DataType::Decimal { .. }
                | lineardb_table::DataType::Double
                | lineardb_table::DataType::Float
                | lineardb_table::DataType::Year
        );
    match t.coerce(lineardb_table::Value::str(v), "") {
        Ok(value) if numeric => value.to_text().unwrap_or_default(),
        _ => format!("'{}'", v.replace('\\', "\\\\").replace('\'', "''")),
    }
}
