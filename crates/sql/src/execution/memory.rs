//! What a query holds in memory, against its budget
//! (`lineardb_query_memory`).
use crate::error::SqlError;
use lineardb_table::Value;

/// About the memory a value takes.
pub(crate) fn value_bytes(v: &Value) -> usize {
    std::mem::size_of::<Value>()
        + match v {
            Value::Bytes(b) => b.len(),
            _ => 0,
        }
}

/// The error of a query over its memory budget.
pub(crate) fn over_budget(what: &str, memory: usize) -> SqlError {
    SqlError::new(
        1038,
        "HY001",
        format!(
            "Out of sort memory: {what} needs more than lineardb_query_memory ({memory} bytes)"
        ),
    )
}
