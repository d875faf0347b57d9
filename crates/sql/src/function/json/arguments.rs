//! The arguments of the JSON functions that write values into JSON: the
//! letters the compiler passes (see [`Builtin::json_arguments`]) and each
//! value written as JSON.
//!
//! [`Builtin::json_arguments`]: crate::function::Builtin::json_arguments
use super::text::{is_json, quote, Scan};
use crate::function::arguments::bytes_of;
use lineardb_table::Value;

/// Argument `v` written as JSON: `letter` says whether it is JSON text
/// (`j`) or TRUE/FALSE (`b`); numbers as they are, NULL as null, anything
/// else as a string.
pub(super) fn write_json(letter: u8, v: &Value, out: &mut Vec<u8>) {
    match v {
        Value::Null => out.extend_from_slice(b"null"),
        Value::Int(_) | Value::UInt(_) if letter == b'b' => {
            let truth = v.as_f64().is_some_and(|f| f != 0.0);
            out.extend_from_slice(if truth { b"true" } else { b"false" })
        }
        Value::Int(_) | Value::UInt(_) | Value::Decimal(_) | Value::Double(_) => {
            out.extend_from_slice(v.to_text().unwrap_or_default().as_bytes())
        }
        Value::Bytes(b) if letter == b'j' && is_json(b) => {
            let scan = Scan { b };
            scan.format(scan.ws(0), out)
        }
        other => quote(
            &String::from_utf8_lossy(&bytes_of(other).unwrap_or_default()),
            out,
        ),
    }
}

/// The argument letters the compiler passed, and the arguments.
pub(super) fn split_letters(a: &[Value]) -> (&[u8], &[Value]) {
    match &a[0] {
        Value::Bytes(letters) => (letters, &a[1..]),
        _ => (&[], &a[1..]),
    }
}
