//! Values encoded as hash keys: equal values (by SQL comparison between
//! numbers, between dates, between strings in their collation) give equal
//! bytes, whatever their representation (1 = 1.0 = 1e0; a DATE and the
//! DATETIME at its midnight; 'a' and 'A ' under utf8mb4_general_ci). Unequal values may share bytes only for numbers no double
//! tells apart (a DOUBLE and a DECIMAL past what a double holds).
use lineardb_table::types::MICROS_PER_DAY;
use lineardb_table::{Collation, Dec, Value};

/// The hasher of the tables keyed by row keys (DISTINCT, GROUP BY, hash
/// joins, set operations, IN sets): fast on long keys, seeded at random
/// per process so that no input is slow on purpose.
pub(crate) type KeyHasher = foldhash::fast::RandomState;

/// A set of row keys.
pub(crate) type KeySet = std::collections::HashSet<Vec<u8>, KeyHasher>;

/// A map from row keys.
pub(crate) type KeyMap<V> = std::collections::HashMap<Vec<u8>, V, KeyHasher>;

/// Appends `v`'s key to `out`, a string's in `collation`; false for NULL
/// (which equals nothing).
pub(crate) fn encode_value(v: &Value, collation: Collation, out: &mut Vec<u8>) -> bool {
    match v {
        Value::Null => return false,
        Value::Int(i) => integer(*i as i128, out),
        Value::UInt(u) => integer(*u as i128, out),
        Value::Decimal(d) => decimal(*d, out),
        Value::Double(f) => {
            if f.fract() == 0.0 && f.abs() < WHOLE_DOUBLE_LIMIT as f64 {
                integer(*f as i128, out)
            } else {
                double(*f, out)
            }
        }
        Value::Date(d) => {
            out.push(3);
            out.extend_from_slice(&(*d as i64 * MICROS_PER_DAY).to_le_bytes());
        }
        Value::DateTime(t) => {
            out.push(3);
            out.extend_from_slice(&t.to_le_bytes());
        }
        Value::Time(t) => {
            out.push(5);
            out.extend_from_slice(&t.to_le_bytes());
        }
        Value::Bytes(b) => {
            out.push(4);
            collation.hash_key(b, out);
        }
    }
    true
}

fn integer(i: i128, out: &mut Vec<u8>) {
    out.push(1);
    out.extend_from_slice(&i.to_le_bytes());
}

/// A decimal keys as the integer or the double of the same value, so that
/// it meets the INT or DOUBLE it equals, except where no double holds it
/// (a value the nearest double does not print back as): then its exact
/// digits, so that two such decimals group apart. Decided on the value
/// without trailing zeros, so that every scale of one value keys alike.
fn decimal(d: Dec, out: &mut Vec<u8>) {
    let d = d.normalized();
    if let Some(n) = d.unscaled_i128() {
        let magnitude = n.unsigned_abs();
        if d.scale == 0 && magnitude < WHOLE_DOUBLE_LIMIT {
            return integer(n, out);
        }
        if magnitude < 1 << 53 && d.scale <= 22 {
            // Exactly the double nearest the value (Dec::to_f64).
            return double(d.to_f64(), out);
        }
        // More than 17 significant digits: no double prints back as it.
        let significant_last = d.scale > 0 || n % 10 != 0;
        if significant_last && magnitude >= 100_000_000_000_000_000 {
            return exact(d, out);
        }
    }
    let f = d.to_f64();
    if Dec::parse(&format!("{f:e}")).is_some_and(|back| back.cmp_value(d).is_eq()) {
        return double(f, out);
    }
    exact(d, out)
}

/// A normalized decimal's own digits.
fn exact(d: Dec, out: &mut Vec<u8>) {
    out.push(6);
    out.push(d.scale);
    out.extend_from_slice(&d.unscaled().to_le_bytes());
}

/// Whole numbers below 2^64 key as integers: every INT and BIGINT
/// UNSIGNED, and the DOUBLE and DECIMAL values equal to one.
const WHOLE_DOUBLE_LIMIT: u128 = 1 << 64;

fn double(f: f64, out: &mut Vec<u8>) {
    out.push(2);
    out.extend_from_slice(&f.to_bits().to_le_bytes());
}

/// A whole row's key where NULLs are equal to each other (DISTINCT, UNION);
/// column `i`'s strings keyed in `collations[i]` (the default past its end).
pub(crate) fn row_key(row: &[Value], collations: &[Collation]) -> Vec<u8> {
    let mut k = Vec::with_capacity(row.len() * 9);
    encode_row(row, collations, &mut k);
    k
}

/// Appends [`row_key`]'s bytes for `row` to `out`.
pub(crate) fn encode_row(row: &[Value], collations: &[Collation], out: &mut Vec<u8>) {
    for (i, v) in row.iter().enumerate() {
        let collation = collations.get(i).copied().unwrap_or_default();
        if !encode_value(v, collation, out) {
            out.push(0);
        }
    }
}

/// Appends the key of `row`, every string in `collation`.
pub(crate) fn encode_row_in(row: &[Value], collation: Collation, out: &mut Vec<u8>) {
    for v in row {
        if !encode_value(v, collation, out) {
            out.push(0);
        }
    }
}

/// The collations of result columns of these kinds (the default for what
/// is not a string).
pub(crate) fn collations_of(
    kinds: impl IntoIterator<Item = crate::result::ColumnKind>,
) -> Vec<Collation> {
    kinds
        .into_iter()
        .map(|k| k.collation().unwrap_or_default())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn equal_numbers_and_dates_share_keys() {
        let key = |v: Value| row_key(&[v], &[]);
        assert_eq!(key(Value::Int(1)), key(Value::Decimal(Dec::new(100, 2))));
        assert_eq!(key(Value::Int(1)), key(Value::Double(1.0)));
        assert_eq!(key(Value::UInt(7)), key(Value::Int(7)));
        assert_eq!(
            key(Value::Decimal(Dec::new(15, 1))),
            key(Value::Double(1.5))
        );
        assert_ne!(key(Value::Int(1)), key(Value::Int(2)));
        let wide = |s: &str| key(Value::Decimal(Dec::parse(s).unwrap()));
        assert_ne!(
            wide("1000000000000000000000000000000000000001"),
            wide("1000000000000000000000000000000000000002")
        );
        assert_ne!(
            wide("0.12345678901234567890"),
            wide("0.12345678901234567891")
        );
        assert_eq!(
            wide("0.12345678901234567890"),
            wide("0.1234567890123456789")
        );
        assert_eq!(wide("1e39"), key(Value::Double(1e39)));
        assert_eq!(wide("0.1000"), key(Value::Double(0.1)));
        assert_eq!(wide("123456789012345.6789"), wide("123456789012345.678900"));
        // One value at any scale keys alike; a whole one as the integer.
        assert_eq!(wide("0.00000000001"), wide("0.00000000001000000000000"));
        assert_eq!(
            wide("2.00000000000000000000000000000000000000"),
            key(Value::Int(2))
        );
        assert_eq!(
            wide("18446744073709551615.000000"),
            key(Value::UInt(u64::MAX))
        );
        assert_ne!(
            wide("0.1000000000000000000000000000000000000000"),
            key(Value::Int(1))
        );
        assert_eq!(wide("1e23"), key(Value::Double(1e23)));
        assert_eq!(wide("-0.5"), key(Value::Double(-0.5)));
        assert_eq!(
            key(Value::Date(3)),
            key(Value::DateTime(3 * MICROS_PER_DAY))
        );
        assert_ne!(key(Value::Null), key(Value::Int(0)));
        assert_ne!(key(Value::str("1")), key(Value::Int(1)));
        assert_eq!(key(Value::str("a")), key(Value::str("A ")));
        let bin = |v: Value| row_key(&[v], &[Collation::Binary]);
        assert_ne!(bin(Value::str("a")), bin(Value::str("A")));
    }
}
