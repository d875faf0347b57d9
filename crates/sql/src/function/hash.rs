//! Digests: MD5, SHA1, SHA2, as lower-case hex.
use super::arguments::{bytes_of, int_of};
use super::kinds::text;
use super::Builtin;
use crate::error::Result;
use lineardb_table::Value;
use sha2::Digest;

pub(super) const FUNCTIONS: &[Builtin] = &[
    Builtin::new(&["MD5"], (1, 1), text, md5),
    Builtin::new(&["SHA1", "SHA"], (1, 1), text, sha1),
    Builtin::new(&["SHA2"], (2, 2), text, sha2),
];

fn hex(digest: &[u8]) -> Value {
    Value::str(
        &digest
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect::<String>(),
    )
}

fn input(v: &Value) -> Vec<u8> {
    bytes_of(v).unwrap_or_default()
}

fn md5(a: &[Value]) -> Result<Value> {
    Ok(hex(&md5::Md5::digest(input(&a[0]))))
}

fn sha1(a: &[Value]) -> Result<Value> {
    Ok(hex(&sha1::Sha1::digest(input(&a[0]))))
}

/// SHA2(s, bits): 224, 256 (also 0), 384 or 512 bits; NULL for others.
fn sha2(a: &[Value]) -> Result<Value> {
    let s = input(&a[0]);
    Ok(match int_of(&a[1]) {
        Some(224) => hex(&sha2::Sha224::digest(s)),
        Some(0 | 256) => hex(&sha2::Sha256::digest(s)),
        Some(384) => hex(&sha2::Sha384::digest(s)),
        Some(512) => hex(&sha2::Sha512::digest(s)),
        _ => Value::Null,
    })
}
