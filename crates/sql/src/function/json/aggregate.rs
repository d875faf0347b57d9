//! JSON_ARRAYAGG and JSON_OBJECTAGG are GROUP_CONCATs, as in MariaDB: the
//! compiler joins, per group, each row's element (or member) written by
//! [`ARRAYAGG_ELEMENT`] (or [`OBJECTAGG_MEMBER`]) and closes the joined
//! text with [`ARRAYAGG_RESULT`] (or [`OBJECTAGG_RESULT`]). A JSON value
//! goes in as it is written, as MariaDB puts it.
use super::arguments::{split_letters, write_json};
use super::text::{is_json, quote};
use crate::error::Result;
use crate::function::arguments::bytes_of;
use crate::function::kinds::text;
use crate::function::Builtin;
use lineardb_table::Value;

/// A row's element of JSON_ARRAYAGG (letters, value): NULL as null.
pub(crate) static ARRAYAGG_ELEMENT: Builtin =
    Builtin::new(&["JSON_ARRAYAGG"], (2, 2), text, arrayagg_element).sees_nulls();
/// A row's member of JSON_OBJECTAGG (letters, key, value); NULL for a
/// NULL key, which leaves the row out.
pub(crate) static OBJECTAGG_MEMBER: Builtin =
    Builtin::new(&["JSON_OBJECTAGG"], (3, 3), text, objectagg_member).sees_nulls();
/// The joined elements as an array (NULL for a group without rows).
pub(crate) static ARRAYAGG_RESULT: Builtin =
    Builtin::new(&["JSON_ARRAYAGG"], (1, 1), text, arrayagg_result);
/// The joined members as an object (NULL for a group without rows).
pub(crate) static OBJECTAGG_RESULT: Builtin =
    Builtin::new(&["JSON_OBJECTAGG"], (1, 1), text, objectagg_result);

/// `v` written as an aggregate's element: JSON text as it is.
fn write_element(letter: u8, v: &Value, out: &mut Vec<u8>) {
    match v {
        Value::Bytes(b) if letter == b'j' && is_json(b) => out.extend_from_slice(b),
        _ => write_json(letter, v, out),
    }
}

fn arrayagg_element(a: &[Value]) -> Result<Value> {
    let (letters, args) = split_letters(a);
    let mut out = Vec::new();
    write_element(letters.first().copied().unwrap_or(b's'), &args[0], &mut out);
    Ok(Value::Bytes(out))
}

fn objectagg_member(a: &[Value]) -> Result<Value> {
    let (letters, args) = split_letters(a);
    let Some(key) = bytes_of(&args[0]) else {
        return Ok(Value::Null);
    };
    let mut out = Vec::new();
    quote(&String::from_utf8_lossy(&key), &mut out);
    out.push(b':');
    write_element(letters.get(1).copied().unwrap_or(b's'), &args[1], &mut out);
    Ok(Value::Bytes(out))
}

fn enclosed(open: u8, v: &Value, close: u8) -> Value {
    let mut out = vec![open];
    out.extend_from_slice(&bytes_of(v).unwrap_or_default());
    out.push(close);
    Value::Bytes(out)
}

fn arrayagg_result(a: &[Value]) -> Result<Value> {
    Ok(enclosed(b'[', &a[0], b']'))
}

fn objectagg_result(a: &[Value]) -> Result<Value> {
    Ok(enclosed(b'{', &a[0], b'}'))
}
