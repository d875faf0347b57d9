//! Memcomparable key encoding: `memcmp` of two encoded keys orders them as
//! MySQL orders the values (NULLs first), column after column.
//!
//! Per column: for a nullable column one byte, 0x00 for NULL (nothing
//! follows) or 0x01; NOT NULL columns have no such byte. Then
//! - signed integers, DATE, DATETIME: big-endian with the sign bit flipped,
//!   in the type's width;
//! - unsigned integers: big-endian in the type's width;
//! - DECIMAL: the unscaled value at the column's scale, as a signed integer
//!   of 8 (precision <= 18) or 16 bytes;
//! - DOUBLE: IEEE bits, all flipped if negative, else the sign bit flipped;
//! - strings: their collation's sort key ([`Collation::sort_key`]), which
//!   ends itself so columns after it stay aligned. Only the byte-order
//!   collations' keys give the string back ([`KeyColumn::gives_value`]).
use crate::collation::Collation;
use crate::types::{DataType, Dec, Value};

/// A key column: its type and whether it may be NULL. NOT NULL columns are
/// encoded without the NULL-flag byte, so a 4-byte INT key is 4 bytes and
/// fills the B-tree's 4-byte key head exactly.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct KeyColumn {
    pub data_type: DataType,
    pub nullable: bool,
    /// How a string column keys (ignored for other types).
    pub collation: Collation,
}

impl KeyColumn {
    /// A key column of `data_type` in its type's own collation (binary
    /// for the binary string types, else the server's default).
    pub fn new(data_type: DataType, nullable: bool) -> KeyColumn {
        KeyColumn::collated(data_type, nullable, data_type.default_collation())
    }

    pub fn collated(data_type: DataType, nullable: bool, collation: Collation) -> KeyColumn {
        KeyColumn {
            data_type,
            nullable,
            collation,
        }
    }

    /// Whether the key gives back the value it was made of (not so for a
    /// string whose collation folds case or drops trailing spaces).
    pub fn gives_value(&self) -> bool {
        !self.data_type.is_string() || self.collation.key_gives_text()
    }
}

const NULL: u8 = 0x00;
const NOT_NULL: u8 = 0x01;

pub(crate) fn int_width(dt: &DataType) -> usize {
    match dt {
        DataType::TinyInt { .. } => 1,
        DataType::SmallInt { .. } => 2,
        DataType::MediumInt { .. } | DataType::Int { .. } | DataType::Date => 4,
        DataType::Year | DataType::Enum(_) => 2,
        DataType::Set(_) | DataType::Bit(_) => 8,
        // FLOAT keys are its value as a double.
        DataType::BigInt { .. }
        | DataType::DateTime
        | DataType::Timestamp
        | DataType::Time
        | DataType::Double
        | DataType::Float => 8,
        DataType::Decimal { precision, .. } => crate::decimal::stored_width(*precision),
        _ => 0,
    }
}

fn put_signed(v: i128, width: usize, out: &mut Vec<u8>) {
    let bits = width * 8;
    let biased = (v as u128).wrapping_add(1u128 << (bits - 1)) & (u128::MAX >> (128 - bits));
    out.extend_from_slice(&biased.to_be_bytes()[16 - width..]);
}

fn get_signed(b: &[u8]) -> i128 {
    // Each width loads its own integer: widening through a zeroed buffer
    // (copy 4 bytes, load 16) stalls store forwarding on every call.
    match b.len() {
        1 => (b[0] ^ 0x80) as i8 as i128,
        2 => (u16::from_be_bytes([b[0], b[1]]) ^ 0x8000) as i16 as i128,
        4 => (u32::from_be_bytes([b[0], b[1], b[2], b[3]]) ^ (1 << 31)) as i32 as i128,
        8 => (u64::from_be_bytes(b.try_into().expect("8 bytes")) ^ (1 << 63)) as i64 as i128,
        width => {
            let mut buf = [0u8; 16];
            buf[16 - width..].copy_from_slice(b);
            let biased = u128::from_be_bytes(buf);
            let bits = width * 8;
            let v = biased.wrapping_sub(1u128 << (bits - 1));
            // Sign-extend from `bits`.
            ((v << (128 - bits)) as i128) >> (128 - bits)
        }
    }
}

/// The big-endian unsigned integer in `b` (1, 2, 4 or 8 bytes).
#[inline]
fn get_unsigned(b: &[u8]) -> u64 {
    match b.len() {
        1 => b[0] as u64,
        2 => u16::from_be_bytes([b[0], b[1]]) as u64,
        4 => u32::from_be_bytes([b[0], b[1], b[2], b[3]]) as u64,
        width => {
            let mut buf = [0u8; 8];
            buf[8 - width..].copy_from_slice(b);
            u64::from_be_bytes(buf)
        }
    }
}

/// Appends the encoding of `v` (already coerced to `dt`) to `out`.
pub fn encode_value(col: &KeyColumn, v: &Value, out: &mut Vec<u8>) {
    let dt = &col.data_type;
    if v.is_null() {
        // A NULL bound on a NOT NULL column encodes as nothing: below everything.
        if col.nullable {
            out.push(NULL);
        }
        return;
    }
    if col.nullable {
        out.push(NOT_NULL);
    }
    let w = int_width(dt);
    match (dt, v) {
        (DataType::BigInt { unsigned: true } | DataType::Bit(_), Value::UInt(u)) => {
            out.extend_from_slice(&u.to_be_bytes())
        }
        (t, Value::Int(i)) if t.is_integer() => {
            if matches!(
                t,
                DataType::TinyInt { unsigned: true }
                    | DataType::SmallInt { unsigned: true }
                    | DataType::MediumInt { unsigned: true }
                    | DataType::Int { unsigned: true }
            ) {
                out.extend_from_slice(&(*i as u64).to_be_bytes()[8 - w..]);
            } else {
                put_signed(*i as i128, w, out);
            }
        }
        (DataType::Decimal { scale, .. }, Value::Decimal(d)) => {
            let unscaled = d.rescale(*scale).unscaled();
            match unscaled.to_i128() {
                Some(v) if w <= 16 => put_signed(v, w, out),
                _ => {
                    // Big-endian two's complement, the sign bit flipped.
                    let mut bytes = unscaled.to_le_bytes();
                    bytes.reverse();
                    bytes[0] ^= 0x80;
                    out.extend_from_slice(&bytes);
                }
            }
        }
        (DataType::Year, Value::Int(y)) => out.extend_from_slice(&(*y as u16).to_be_bytes()),
        (DataType::Double | DataType::Float, Value::Double(f)) => {
            let f = if *f == 0.0 { 0.0 } else { *f };
            let bits = f.to_bits();
            let key = if bits >> 63 == 1 {
                !bits
            } else {
                bits ^ (1 << 63)
            };
            out.extend_from_slice(&key.to_be_bytes());
        }
        (DataType::Date, Value::Date(d)) => put_signed(*d as i128, 4, out),
        (DataType::DateTime | DataType::Timestamp, Value::DateTime(t)) => {
            put_signed(*t as i128, 8, out)
        }
        (DataType::Time, Value::Time(t)) => put_signed(*t as i128, 8, out),
        // By number, as MariaDB sorts them.
        (DataType::Enum(m), Value::Bytes(b)) => {
            out.extend_from_slice(&(m.number_of(b) as u16).to_be_bytes())
        }
        (DataType::Set(m), Value::Bytes(b)) => out.extend_from_slice(&m.mask_of(b).to_be_bytes()),
        (t, Value::Bytes(b)) if t.is_string() => col.collation.sort_key(b, out),
        (dt, v) => panic!("value {v:?} was not coerced to {dt:?}"),
    }
}

/// Appends the encoding of column `c` of a stored row (no allocation for
/// strings: they are encoded from the row's bytes).
pub fn encode_row_column(
    col: &KeyColumn,
    row: &crate::row::RowRef<'_>,
    c: usize,
    out: &mut Vec<u8>,
) {
    match col.data_type {
        t if t.is_string() && !row.is_null(c) => match row.inline_bytes(c) {
            Some(b) => {
                if col.nullable {
                    out.push(NOT_NULL);
                }
                col.collation.sort_key(b, out);
            }
            // Kept off-page before the column was indexed.
            None => encode_value(col, &row.value(c), out),
        },
        _ => encode_value(col, &row.value(c), out),
    }
}

/// Encodes a whole key.
pub fn encode_key<'a>(cols: impl IntoIterator<Item = (&'a KeyColumn, &'a Value)>) -> Vec<u8> {
    let mut out = Vec::new();
    for (dt, v) in cols {
        encode_value(dt, v, &mut out);
    }
    out
}

/// Decodes one value at `*pos`, advancing it. Returns `None` on malformed input.
pub fn decode_value(col: &KeyColumn, b: &[u8], pos: &mut usize) -> Option<Value> {
    let dt = &col.data_type;
    if col.nullable {
        let flag = *b.get(*pos)?;
        *pos += 1;
        match flag {
            NULL => return Some(Value::Null),
            NOT_NULL => {}
            // Any other flag is a damaged key, not a value.
            _ => return None,
        }
    }
    let w = int_width(dt);
    let take = |pos: &mut usize, n: usize| -> Option<&[u8]> {
        let s = b.get(*pos..*pos + n)?;
        *pos += n;
        Some(s)
    };
    Some(match dt {
        DataType::BigInt { unsigned: true } | DataType::Bit(_) => {
            Value::UInt(u64::from_be_bytes(take(pos, 8)?.try_into().ok()?))
        }
        DataType::TinyInt { unsigned: true }
        | DataType::SmallInt { unsigned: true }
        | DataType::MediumInt { unsigned: true }
        | DataType::Int { unsigned: true } => Value::Int(get_unsigned(take(pos, w)?) as i64),
        t if t.is_integer() => Value::Int(get_signed(take(pos, w)?) as i64),
        DataType::Decimal { scale, .. } if w == 32 => {
            let mut bytes: [u8; 32] = take(pos, w)?.try_into().ok()?;
            bytes[0] ^= 0x80;
            bytes.reverse();
            Value::Decimal(Dec::from_unscaled(
                crate::decimal::Int256::from_le_bytes(bytes),
                *scale,
            ))
        }
        DataType::Decimal { scale, .. } => {
            Value::Decimal(Dec::new(get_signed(take(pos, w)?), *scale))
        }
        DataType::Year => Value::Int(u16::from_be_bytes(take(pos, 2)?.try_into().ok()?) as i64),
        DataType::Double | DataType::Float => {
            let key = u64::from_be_bytes(take(pos, 8)?.try_into().ok()?);
            let bits = if key >> 63 == 1 {
                key ^ (1 << 63)
            } else {
                !key
            };
            Value::Double(f64::from_bits(bits))
        }
        DataType::Date => Value::Date(get_signed(take(pos, 4)?) as i32),
        DataType::DateTime | DataType::Timestamp => {
            Value::DateTime(get_signed(take(pos, 8)?) as i64)
        }
        DataType::Time => Value::Time(get_signed(take(pos, 8)?) as i64),
        DataType::Enum(m) => {
            Value::Bytes(m.text_of(u16::from_be_bytes(take(pos, 2)?.try_into().ok()?) as u64))
        }
        DataType::Set(m) => {
            Value::Bytes(m.text_of_mask(u64::from_be_bytes(take(pos, 8)?.try_into().ok()?)))
        }
        t if t.is_string() && col.collation.key_gives_text() => {
            let mut s = Vec::new();
            loop {
                let c = *b.get(*pos)?;
                *pos += 1;
                if c == 0 {
                    let n = *b.get(*pos)?;
                    *pos += 1;
                    match n {
                        0 => break,
                        0xff => s.push(0),
                        // 0x00 is written as 0x00 0xFF and nothing else.
                        _ => return None,
                    }
                } else {
                    s.push(c);
                }
            }
            Value::Bytes(s)
        }
        _ => return None,
    })
}

/// Advances `*pos` past one encoded value.
pub fn skip_value(col: &KeyColumn, b: &[u8], pos: &mut usize) -> Option<()> {
    let dt = &col.data_type;
    if col.nullable {
        let flag = *b.get(*pos)?;
        *pos += 1;
        match flag {
            NULL => return Some(()),
            NOT_NULL => {}
            _ => return None,
        }
    }
    match dt {
        t if t.is_string() => col.collation.skip_key(b, pos),
        _ => {
            *pos += int_width(dt);
            (*pos <= b.len()).then_some(())
        }
    }
}

/// The smallest byte string greater than every string that starts with `p`
/// (`None` if there is none: `p` is all 0xFF).
pub fn prefix_end(p: &[u8]) -> Option<Vec<u8>> {
    let mut v = p.to_vec();
    while let Some(last) = v.pop() {
        if last != 0xff {
            v.push(last + 1);
            return Some(v);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Found by the `index_keys` fuzz target: a NULL flag other than 0 or
    /// 1 decoded as a value that encodes back to other bytes.
    #[test]
    fn a_null_flag_other_than_zero_or_one_is_malformed() {
        let col = KeyColumn::new(DataType::TinyInt { unsigned: false }, true);
        let bytes = [0x2e, 0x0b];
        assert_eq!(decode_value(&col, &bytes, &mut 0), None);
        assert_eq!(skip_value(&col, &bytes, &mut 0), None);
        assert!(decode_value(&col, &[1, 0x0b], &mut 0).is_some());
    }

    /// Found by the `index_keys` fuzz target: 0x00 followed by a byte other
    /// than 0x00 (end) or 0xFF (an escaped zero) decoded as a zero byte.
    #[test]
    fn a_string_escape_other_than_ff_is_malformed() {
        let col = KeyColumn::new(DataType::VarBinary(255), false);
        assert_eq!(decode_value(&col, &[0, 1, 0, 0], &mut 0), None);
        assert_eq!(skip_value(&col, &[0, 1, 0, 0], &mut 0), None);
        assert_eq!(
            decode_value(&col, &[0, 0xff, 0, 0], &mut 0),
            Some(Value::Bytes(vec![0]))
        );
    }
    use proptest::prelude::*;
    use proptest::strategy::ValueTree;

    fn arb(dt: DataType) -> BoxedStrategy<Value> {
        let v: BoxedStrategy<Value> = match dt {
            DataType::TinyInt { unsigned: false } => (-128i64..=127).prop_map(Value::Int).boxed(),
            DataType::Int { unsigned: true } => {
                (0i64..=u32::MAX as i64).prop_map(Value::Int).boxed()
            }
            DataType::Int { unsigned: false } => {
                any::<i32>().prop_map(|x| Value::Int(x as i64)).boxed()
            }
            DataType::BigInt { unsigned: false } => any::<i64>().prop_map(Value::Int).boxed(),
            DataType::BigInt { unsigned: true } => any::<u64>().prop_map(Value::UInt).boxed(),
            DataType::Decimal { precision, scale } if precision <= 38 => {
                let m = 10i128.pow(precision as u32) - 1;
                (-m..=m)
                    .prop_map(move |u| Value::Decimal(Dec::new(u, scale)))
                    .boxed()
            }
            DataType::Decimal { precision, scale } => (
                any::<bool>(),
                prop::collection::vec(b'0'..=b'9', 1..=precision as usize),
            )
                .prop_map(move |(negative, digits)| {
                    let unscaled = crate::decimal::Int256::from_digits(negative, &digits)
                        .expect("65 digits fit");
                    Value::Decimal(Dec::from_unscaled(unscaled, scale))
                })
                .boxed(),
            DataType::Double => any::<f64>()
                .prop_filter("finite", |f| f.is_finite())
                .prop_map(Value::Double)
                .boxed(),
            DataType::Date => (-719_162i32..2_932_896).prop_map(Value::Date).boxed(),
            DataType::DateTime | DataType::Timestamp => {
                any::<i64>().prop_map(Value::DateTime).boxed()
            }
            DataType::Time => (-crate::types::MAX_TIME..=crate::types::MAX_TIME)
                .prop_map(Value::Time)
                .boxed(),
            DataType::VarBinary(_) => {
                prop::collection::vec(prop_oneof![Just(0u8), Just(0xffu8), any::<u8>()], 0..6)
                    .prop_map(Value::Bytes)
                    .boxed()
            }
            _ => unreachable!(),
        };
        prop_oneof![1 => Just(Value::Null), 8 => v].boxed()
    }

    fn rust_cmp(a: &Value, b: &Value) -> std::cmp::Ordering {
        match (a, b) {
            (Value::Null, Value::Null) => std::cmp::Ordering::Equal,
            (Value::Null, _) => std::cmp::Ordering::Less,
            (_, Value::Null) => std::cmp::Ordering::Greater,
            (Value::Double(x), Value::Double(y)) => x.partial_cmp(y).unwrap(),
            _ => a.sql_cmp(b).unwrap(),
        }
    }

    const TYPES: [DataType; 11] = [
        DataType::TinyInt { unsigned: false },
        DataType::Int { unsigned: true },
        DataType::Int { unsigned: false },
        DataType::BigInt { unsigned: false },
        DataType::BigInt { unsigned: true },
        DataType::Decimal {
            precision: 15,
            scale: 2,
        },
        DataType::Decimal {
            precision: 28,
            scale: 6,
        },
        DataType::Decimal {
            precision: 65,
            scale: 30,
        },
        DataType::Double,
        DataType::Date,
        DataType::VarBinary(10),
    ];

    proptest! {
        #[test]
        fn encoding_preserves_order_and_round_trips(
            t1 in 0..TYPES.len(), t2 in 0..TYPES.len(),
            seed in any::<u64>(),
        ) {
            let nullable = seed % 2 == 0;
            let (d1, d2) = (KeyColumn::new(TYPES[t1], nullable), KeyColumn::new(TYPES[t2], true));
            let mut runner = proptest::test_runner::TestRunner::new_with_rng(
                Default::default(),
                proptest::test_runner::TestRng::from_seed(proptest::test_runner::RngAlgorithm::ChaCha, &{
                    let mut s = [0u8; 32];
                    s[..8].copy_from_slice(&seed.to_le_bytes());
                    s
                }),
            );
            let strat = (arb(d1.data_type), arb(d2.data_type), arb(d1.data_type), arb(d2.data_type));
            for _ in 0..50 {
                let (a1, a2, b1, b2) = strat.new_tree(&mut runner).unwrap().current();
                if !nullable && (a1.is_null() || b1.is_null()) {
                    continue;
                }
                let ka = encode_key([(&d1, &a1), (&d2, &a2)]);
                let kb = encode_key([(&d1, &b1), (&d2, &b2)]);
                let want = rust_cmp(&a1, &b1).then(rust_cmp(&a2, &b2));
                prop_assert_eq!(ka.cmp(&kb), want, "{:?},{:?} vs {:?},{:?}", a1, a2, b1, b2);
                let mut pos = 0;
                let back1 = decode_value(&d1, &ka, &mut pos).unwrap();
                let back2 = decode_value(&d2, &ka, &mut pos).unwrap();
                prop_assert_eq!(pos, ka.len());
                prop_assert_eq!(rust_cmp(&back1, &a1), std::cmp::Ordering::Equal);
                prop_assert_eq!(rust_cmp(&back2, &a2), std::cmp::Ordering::Equal);
                let mut skip = 0;
                skip_value(&d1, &ka, &mut skip).unwrap();
                skip_value(&d2, &ka, &mut skip).unwrap();
                prop_assert_eq!(skip, ka.len());
            }
        }
    }

    #[test]
    fn prefix_end_bounds_every_extension() {
        assert_eq!(prefix_end(b"ab"), Some(b"ac".to_vec()));
        assert_eq!(prefix_end(b"a\xff"), Some(b"b".to_vec()));
        assert_eq!(prefix_end(b"\xff\xff"), None);
    }
}
