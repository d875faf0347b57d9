//! LOAD_FILE(name): a server file's bytes, for an account with the FILE
//! privilege; NULL where the file cannot be read or is longer than
//! `max_allowed_packet` (warning 1301), as in MariaDB. `secure_file_priv`
//! is unset here (it is read-only), so any file the server can read is
//! read.
use super::arguments::text_of;
use super::kinds::binary;
use super::Builtin;
use crate::error::Result;
use lineardb_table::Value;

/// What the compiler makes of LOAD_FILE(name): (name, the session's
/// `max_allowed_packet`, whether its account has FILE).
pub(crate) const LOAD_FILE: Builtin =
    Builtin::new(&["LOAD_FILE"], (3, 3), binary, load_file).volatile();

fn load_file(a: &[Value]) -> Result<Value> {
    let limit = match &a[1] {
        Value::UInt(n) => *n,
        Value::Int(n) => (*n).max(0) as u64,
        _ => 0,
    };
    let allowed = matches!(a[2], Value::Int(1) | Value::UInt(1));
    let Some(name) = text_of(&a[0]).filter(|_| allowed) else {
        return Ok(Value::Null);
    };
    let Ok(meta) = std::fs::metadata(&name) else {
        return Ok(Value::Null);
    };
    if !meta.is_file() {
        return Ok(Value::Null);
    }
    if meta.len() > limit {
        crate::expr::warnings::raise(
            1301,
            &format!(
                "Result of load_file() was larger than max_allowed_packet ({limit}) - truncated"
            ),
        );
        return Ok(Value::Null);
    }
    Ok(std::fs::read(&name).map_or(Value::Null, Value::Bytes))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_a_file_within_the_limit_only_with_the_privilege() {
        let dir = std::env::temp_dir().join(format!("lineardb-load-file-{}", std::process::id()));
        std::fs::write(&dir, b"ab\0c").unwrap();
        let name = Value::str(&dir.display().to_string());
        let call = |limit: u64, allowed: i64| {
            load_file(&[name.clone(), Value::UInt(limit), Value::Int(allowed)]).unwrap()
        };
        assert_eq!(call(100, 1), Value::Bytes(b"ab\0c".to_vec()));
        assert_eq!(call(100, 0), Value::Null);
        assert_eq!(call(3, 1), Value::Null);
        assert_eq!(
            crate::expr::warnings::take(),
            vec![(
                1301,
                "Result of load_file() was larger than max_allowed_packet (3) - truncated".into()
            )]
        );
        std::fs::remove_file(&dir).unwrap();
        assert_eq!(call(100, 1), Value::Null);
    }
}
