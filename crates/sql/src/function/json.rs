//! JSON functions over JSON text (a JSON column is LONGTEXT in utf8mb4_bin
//! with a `json_valid` CHECK, as MariaDB defines it).
use super::arguments::bytes_of;
use super::kinds::int;
use super::Builtin;
use crate::error::Result;
use lineardb_table::Value;

pub(super) const FUNCTIONS: &[Builtin] = &[Builtin::new(&["JSON_VALID"], (1, 1), int, json_valid)];

/// Whether `text` is one JSON value (any kind, surrounded by white space
/// at most). Numbers are checked for their syntax only: MariaDB takes
/// `1e400`.
pub(crate) fn is_json(text: &[u8]) -> bool {
    serde_json::from_slice::<serde::de::IgnoredAny>(text).is_ok()
}

fn json_valid(a: &[Value]) -> Result<Value> {
    Ok(Value::Int(
        bytes_of(&a[0]).is_some_and(|b| is_json(&b)) as i64
    ))
}

#[cfg(test)]
mod tests {
    use super::is_json;

    #[test]
    fn json_text_as_mariadb_takes_it() {
        for ok in [
            "{\"a\": [1, 2.5, \"x\"]}",
            "null",
            "12",
            " {\"a\":1} ",
            "1e400",
            "\"é\"",
        ] {
            assert!(is_json(ok.as_bytes()), "{ok}");
        }
        for bad in ["{a:1}", "[1,", "", "{\"a\":1} x", "'a'"] {
            assert!(!is_json(bad.as_bytes()), "{bad}");
        }
    }
}
