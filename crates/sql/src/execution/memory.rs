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

/// The error code of a query over its memory budget (ER_OUT_OF_SORTMEMORY).
pub(crate) const OVER_BUDGET: u16 = 1038;

/// The error of a query over its memory budget.
pub(crate) fn over_budget(what: &str, memory: usize) -> SqlError {
    SqlError::new(
        OVER_BUDGET,
        "HY001",
        format!(
            "Out of sort memory: {what} needs more than lineardb_query_memory ({memory} bytes)"
        ),
    )
}
