//! The JSON functions that build documents from values.
use super::arguments::{split_letters, write_json};
use super::text::quote;
use crate::error::{Result, SqlError};
use crate::function::arguments::bytes_of;
use lineardb_table::Value;

/// JSON_ARRAY(v, …).
pub(super) fn json_array(a: &[Value]) -> Result<Value> {
    let (letters, args) = split_letters(a);
    let mut out = vec![b'['];
    for (i, v) in args.iter().enumerate() {
        if i > 0 {
            out.extend_from_slice(b", ");
        }
        write_json(letters.get(i).copied().unwrap_or(b's'), v, &mut out);
    }
    out.push(b']');
    Ok(Value::Bytes(out))
}

/// JSON_OBJECT(key, value, …) (the compiler refuses an odd number of
/// arguments with 1582, naming the function as written).
pub(super) fn json_object(a: &[Value]) -> Result<Value> {
    let (letters, args) = split_letters(a);
    if args.len() % 2 == 1 {
        return Err(SqlError::new(
            1582,
            "42000",
            "Incorrect parameter count in the call to native function 'json_object'",
        ));
    }
    let mut out = vec![b'{'];
    for (i, pair) in args.chunks(2).enumerate() {
        if i > 0 {
            out.extend_from_slice(b", ");
        }
        let key = bytes_of(&pair[0]).unwrap_or_default();
        quote(&String::from_utf8_lossy(&key), &mut out);
        out.extend_from_slice(b": ");
        write_json(
            letters.get(2 * i + 1).copied().unwrap_or(b's'),
            &pair[1],
            &mut out,
        );
    }
    out.push(b'}');
    Ok(Value::Bytes(out))
}

/// JSON_QUOTE(s): `s` as a JSON string.
pub(super) fn json_quote(a: &[Value]) -> Result<Value> {
    let mut out = Vec::new();
    quote(
        &String::from_utf8_lossy(&bytes_of(&a[0]).unwrap_or_default()),
        &mut out,
    );
    Ok(Value::Bytes(out))
}
