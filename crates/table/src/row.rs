//! Row format of the clustered index's values:
//!
//! ```text
//! [null bitmap: one bit per column] [fixed part] [variable part]
//! ```
//! The fixed part holds every fixed-width column at an offset known from the
//! schema (little-endian: integers in their width, DECIMAL as the unscaled
//! i64/i128, DOUBLE bits, FLOAT's f32 bits, YEAR as i16, DATE days as
//! i32, DATETIME micros as i64); NULLs
//! are zero there. The variable part holds each string column in schema
//! order as a u16 length and its bytes. A column is read in place through
//! [`RowRef`] without building the row, so a scan filters and aggregates
//! without materialising rows that fail.
use crate::types::{DataType, Dec, Value};

#[derive(Debug, Clone)]
pub struct RowLayout {
    types: Vec<DataType>,
    /// Offset of each fixed column; `usize::MAX` for variable ones.
    fixed_off: Vec<usize>,
    /// Position among the variable columns; `usize::MAX` for fixed ones.
    var_pos: Vec<usize>,
    fixed_end: usize,
}

impl RowLayout {
    pub fn new(types: Vec<DataType>) -> RowLayout {
        let null_bytes = types.len().div_ceil(8);
        let mut off = null_bytes;
        let mut nvar = 0;
        let mut fixed_off = Vec::new();
        let mut var_pos = Vec::new();
        for t in &types {
            match t.fixed_width() {
                Some(w) => {
                    fixed_off.push(off);
                    var_pos.push(usize::MAX);
                    off += w;
                }
                None => {
                    fixed_off.push(usize::MAX);
                    var_pos.push(nvar);
                    nvar += 1;
                }
            }
        }
        RowLayout {
            types,
            fixed_off,
            var_pos,
            fixed_end: off,
        }
    }

    pub fn columns(&self) -> usize {
        self.types.len()
    }

    pub fn types(&self) -> &[DataType] {
        &self.types
    }

    /// Encodes coerced values (one per column) into `out`.
    pub fn encode(&self, values: &[Value], out: &mut Vec<u8>) {
        debug_assert_eq!(values.len(), self.types.len());
        let start = out.len();
        out.resize(start + self.fixed_end, 0);
        for (c, v) in values.iter().enumerate() {
            if v.is_null() {
                out[start + c / 8] |= 1 << (c % 8);
                continue;
            }
            let off = self.fixed_off[c];
            if off == usize::MAX {
                continue;
            }
            let w = self.types[c].fixed_width().unwrap();
            let at = start + off;
            let bytes: [u8; 16] = match v {
                // FLOAT: the f32's bits.
                Value::Double(f) if self.types[c] == DataType::Float => {
                    ((*f as f32).to_bits() as u128).to_le_bytes()
                }
                Value::Int(i) => (*i as i128).to_le_bytes(),
                Value::UInt(u) => (*u as i128).to_le_bytes(),
                Value::Decimal(d) => d.unscaled.to_le_bytes(),
                Value::Double(f) => (f.to_bits() as u128).to_le_bytes(),
                Value::Date(d) => (*d as i128).to_le_bytes(),
                Value::DateTime(t) => (*t as i128).to_le_bytes(),
                other => panic!("value {other:?} in fixed column {c}"),
            };
            out[at..at + w].copy_from_slice(&bytes[..w]);
        }
        for (c, v) in values.iter().enumerate() {
            if self.var_pos[c] == usize::MAX {
                continue;
            }
            let b: &[u8] = match v {
                Value::Bytes(b) => b,
                _ => &[],
            };
            out.extend_from_slice(&(b.len() as u16).to_le_bytes());
            out.extend_from_slice(b);
        }
    }

    pub fn row<'a>(&'a self, bytes: &'a [u8]) -> RowRef<'a> {
        RowRef {
            layout: self,
            b: bytes,
        }
    }
}

/// A row read in place.
#[derive(Clone, Copy)]
pub struct RowRef<'a> {
    layout: &'a RowLayout,
    b: &'a [u8],
}

impl<'a> RowRef<'a> {
    #[inline]
    pub fn is_null(&self, c: usize) -> bool {
        self.b.get(c / 8).is_none_or(|x| x & (1 << (c % 8)) != 0)
    }

    #[inline]
    fn fixed(&self, c: usize) -> &'a [u8] {
        let off = self.layout.fixed_off[c];
        let w = self.layout.types[c].fixed_width().unwrap_or(0);
        self.b.get(off..off + w).unwrap_or(&[])
    }

    /// Integer, DATE (days) or DATETIME (micros) column as i64 (0 if NULL).
    #[inline]
    pub fn int(&self, c: usize) -> i64 {
        let f = self.fixed(c);
        let signed = match self.layout.types[c] {
            DataType::TinyInt { unsigned }
            | DataType::SmallInt { unsigned }
            | DataType::MediumInt { unsigned }
            | DataType::Int { unsigned }
            | DataType::BigInt { unsigned } => !unsigned,
            _ => true,
        };
        // Each width read at its own size: copying a narrow field into a
        // zeroed 8-byte buffer and loading that as one word defeats the
        // CPU's store forwarding (a stall on every row of a scan).
        match (f.len(), signed) {
            (8, _) => i64::from_le_bytes(f.try_into().expect("8 bytes")),
            (4, true) => i32::from_le_bytes(f.try_into().expect("4 bytes")) as i64,
            (4, false) => u32::from_le_bytes(f.try_into().expect("4 bytes")) as i64,
            (2, true) => i16::from_le_bytes(f.try_into().expect("2 bytes")) as i64,
            (2, false) => u16::from_le_bytes(f.try_into().expect("2 bytes")) as i64,
            (1, true) => f[0] as i8 as i64,
            (1, false) => f[0] as i64,
            (n, _) => {
                let mut buf = [0u8; 8];
                buf[..n].copy_from_slice(f);
                let raw = i64::from_le_bytes(buf);
                let shift = 64 - 8 * n.max(1) as u32;
                if signed {
                    (raw << shift) >> shift
                } else {
                    raw
                }
            }
        }
    }

    /// DECIMAL column's unscaled value (0 if NULL).
    #[inline]
    pub fn decimal(&self, c: usize) -> i128 {
        let f = self.fixed(c);
        if f.len() == 8 {
            i64::from_le_bytes(f.try_into().unwrap()) as i128
        } else if f.len() == 16 {
            i128::from_le_bytes(f.try_into().unwrap())
        } else {
            0
        }
    }

    #[inline]
    pub fn double(&self, c: usize) -> f64 {
        f64::from_bits(self.int(c) as u64)
    }

    /// A string column's bytes (empty if NULL).
    #[inline]
    pub fn bytes(&self, c: usize) -> &'a [u8] {
        let want = self.layout.var_pos[c];
        let mut at = self.layout.fixed_end;
        let mut i = 0;
        loop {
            let Some(len) = self.b.get(at..at + 2) else {
                return &[];
            };
            let len = u16::from_le_bytes([len[0], len[1]]) as usize;
            if i == want {
                return self.b.get(at + 2..at + 2 + len).unwrap_or(&[]);
            }
            at += 2 + len;
            i += 1;
        }
    }

    /// Column `c` as a [`Value`].
    pub fn value(&self, c: usize) -> Value {
        if self.is_null(c) {
            return Value::Null;
        }
        match self.layout.types[c] {
            DataType::BigInt { unsigned: true } => Value::UInt(self.int(c) as u64),
            t if t.is_integer() => Value::Int(self.int(c)),
            DataType::Decimal { scale, .. } => Value::Decimal(Dec::new(self.decimal(c), scale)),
            DataType::Double => Value::Double(self.double(c)),
            DataType::Float => Value::Double(f32::from_bits(self.int(c) as u32) as f64),
            DataType::Year => Value::Int(self.int(c)),
            DataType::Date => Value::Date(self.int(c) as i32),
            DataType::DateTime | DataType::Timestamp => Value::DateTime(self.int(c)),
            _ => Value::Bytes(self.bytes(c).to_vec()),
        }
    }

    pub fn values(&self) -> Vec<Value> {
        (0..self.layout.columns()).map(|c| self.value(c)).collect()
    }

    pub fn raw(&self) -> &'a [u8] {
        self.b
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_round_trip() {
        let types = vec![
            DataType::Int { unsigned: false },
            DataType::VarChar(10),
            DataType::Decimal {
                precision: 15,
                scale: 2,
            },
            DataType::TinyInt { unsigned: true },
            DataType::Char(5),
            DataType::Date,
            DataType::BigInt { unsigned: true },
            DataType::Double,
            DataType::SmallInt { unsigned: false },
        ];
        let layout = RowLayout::new(types);
        let values = vec![
            Value::Int(-5),
            Value::str("hello"),
            Value::Decimal(Dec::new(-123456, 2)),
            Value::Int(255),
            Value::Null,
            Value::Date(10_000),
            Value::UInt(u64::MAX),
            Value::Double(-2.5),
            Value::Int(-32768),
        ];
        let mut buf = Vec::new();
        layout.encode(&values, &mut buf);
        let r = layout.row(&buf);
        assert_eq!(r.values(), values);
        assert_eq!(r.bytes(1), b"hello");
        assert!(r.is_null(4));
        assert_eq!(r.int(8), -32768);
    }
}
