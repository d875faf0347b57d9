//! The bytes of a spilled row: its value count, then each value as a tag
//! byte and its payload (little-endian). Only this process reads them back.
use lineardb_table::decimal::Int256;
use lineardb_table::{Dec, Value};

const NULL: u8 = 0;
const INT: u8 = 1;
const UINT: u8 = 2;
const DECIMAL: u8 = 3;
const DOUBLE: u8 = 4;
const DATE: u8 = 5;
const DATETIME: u8 = 6;
const BYTES: u8 = 7;
const TIME: u8 = 8;

/// Appends `values` to `out`.
pub(super) fn encode_row(values: &[Value], out: &mut Vec<u8>) {
    out.extend_from_slice(&(values.len() as u32).to_le_bytes());
    for v in values {
        match v {
            Value::Null => out.push(NULL),
            Value::Int(i) => {
                out.push(INT);
                out.extend_from_slice(&i.to_le_bytes());
            }
            Value::UInt(u) => {
                out.push(UINT);
                out.extend_from_slice(&u.to_le_bytes());
            }
            Value::Decimal(d) => {
                out.push(DECIMAL);
                out.extend_from_slice(&d.unscaled().to_le_bytes());
                out.push(d.scale);
            }
            Value::Double(f) => {
                out.push(DOUBLE);
                out.extend_from_slice(&f.to_bits().to_le_bytes());
            }
            Value::Date(d) => {
                out.push(DATE);
                out.extend_from_slice(&d.to_le_bytes());
            }
            Value::DateTime(t) => {
                out.push(DATETIME);
                out.extend_from_slice(&t.to_le_bytes());
            }
            Value::Time(t) => {
                out.push(TIME);
                out.extend_from_slice(&t.to_le_bytes());
            }
            Value::Bytes(b) => {
                out.push(BYTES);
                out.extend_from_slice(&(b.len() as u32).to_le_bytes());
                out.extend_from_slice(b);
            }
        }
    }
}

/// The row at the start of `input`, which then starts after it; None if
/// the bytes are not a row this module wrote.
pub(super) fn decode_row(input: &mut &[u8]) -> Option<Vec<Value>> {
    let n = u32::from_le_bytes(take(input)?) as usize;
    let mut values = Vec::with_capacity(n.min(input.len()));
    for _ in 0..n {
        let (&tag, rest) = input.split_first()?;
        *input = rest;
        values.push(match tag {
            NULL => Value::Null,
            INT => Value::Int(i64::from_le_bytes(take(input)?)),
            UINT => Value::UInt(u64::from_le_bytes(take(input)?)),
            DECIMAL => {
                let unscaled = Int256::from_le_bytes(take(input)?);
                let [scale] = take::<1>(input)?;
                Value::Decimal(Dec::from_unscaled(unscaled, scale))
            }
            DOUBLE => Value::Double(f64::from_bits(u64::from_le_bytes(take(input)?))),
            DATE => Value::Date(i32::from_le_bytes(take(input)?)),
            DATETIME => Value::DateTime(i64::from_le_bytes(take(input)?)),
            TIME => Value::Time(i64::from_le_bytes(take(input)?)),
            BYTES => {
                let len = u32::from_le_bytes(take(input)?) as usize;
                let (bytes, rest) = (input.get(..len)?, input.get(len..)?);
                *input = rest;
                Value::Bytes(bytes.to_vec())
            }
            _ => return None,
        });
    }
    Some(values)
}

/// The next N bytes of `input`.
fn take<const N: usize>(input: &mut &[u8]) -> Option<[u8; N]> {
    let (head, rest) = (input.get(..N)?, input.get(N..)?);
    *input = rest;
    head.try_into().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kind_of_value_comes_back() {
        let rows = vec![
            vec![],
            vec![Value::Null],
            vec![
                Value::Int(-5),
                Value::UInt(u64::MAX),
                Value::Decimal(Dec::new(-123_456_789_012_345_678_901_234_567, 9)),
                Value::Decimal(Dec::parse(&format!("-{}.5", "9".repeat(60))).unwrap()),
                Value::Double(-0.1),
                Value::Date(-1),
                Value::DateTime(1_700_000_000_123_456),
                Value::Bytes(b"a\0b".to_vec()),
                Value::Bytes(Vec::new()),
                Value::Null,
            ],
        ];
        let mut bytes = Vec::new();
        for r in &rows {
            encode_row(r, &mut bytes);
        }
        let mut input = &bytes[..];
        for r in &rows {
            assert_eq!(decode_row(&mut input).as_ref(), Some(r));
        }
        assert!(input.is_empty());
    }

    #[test]
    fn a_cut_row_is_refused() {
        let mut bytes = Vec::new();
        encode_row(&[Value::Int(1), Value::Bytes(b"abc".to_vec())], &mut bytes);
        for cut in 0..bytes.len() {
            assert_eq!(decode_row(&mut &bytes[..cut]), None, "cut at {cut}");
        }
    }
}
