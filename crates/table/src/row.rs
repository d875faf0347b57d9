//! Row format of the clustered index's values:
//!
//! ```text
//! [null bitmap: one bit per column] [fixed part] [variable part]
//! ```
//! The fixed part holds every fixed-width column at an offset known from the
//! schema (little-endian: integers in their width, DECIMAL as the unscaled
//! i64/i128 (a 256-bit integer past 38 digits), DOUBLE bits, FLOAT's f32 bits, YEAR as i16, DATE days as
//! i32, DATETIME micros as i64); NULLs
//! are zero there. The variable part holds each string column in schema
//! order as a u16 length and its bytes, or, for a value kept off-page
//! (`blob.rs`), the length [`OUTLINED`] and a [`BlobRef`]. A column is read
//! in place through [`RowRef`] without building the row, so a scan filters
//! and aggregates without materialising rows that fail; an off-page value
//! is read only when its column is.
use crate::blob::{BlobRef, Blobs};
use crate::decimal::Int256;
use crate::types::{DataType, Dec, Value};

/// The length word of a value kept off-page (an inline value is shorter:
/// a row fits a quarter page).
const OUTLINED: u16 = u16::MAX;

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
        self.encode_outlined(values, &[], out)
    }

    /// Bytes [`encode`](Self::encode) writes for `values`.
    pub(crate) fn encoded_len(&self, values: &[Value]) -> usize {
        self.fixed_end
            + values
                .iter()
                .enumerate()
                .filter(|(c, _)| self.var_pos[*c] != usize::MAX)
                .map(|(_, v)| 2 + var_bytes(v).len())
                .sum::<usize>()
    }

    /// Whether column `c` is a string (kept in the variable part).
    pub(crate) fn is_variable(&self, c: usize) -> bool {
        self.var_pos[c] != usize::MAX
    }

    /// [`encode`](Self::encode), with the columns in `outlined` (ascending)
    /// written as references to their off-page values.
    pub(crate) fn encode_outlined(
        &self,
        values: &[Value],
        outlined: &[(usize, BlobRef)],
        out: &mut Vec<u8>,
    ) {
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
            if let Value::Decimal(d) = v {
                // Two's complement: the low `w` bytes of a value that fits.
                out[at..at + w].copy_from_slice(&d.unscaled().to_le_bytes()[..w]);
                continue;
            }
            let bytes: [u8; 16] = match v {
                // FLOAT: the f32's bits.
                Value::Double(f) if self.types[c] == DataType::Float => {
                    ((*f as f32).to_bits() as u128).to_le_bytes()
                }
                Value::Int(i) => (*i as i128).to_le_bytes(),
                Value::UInt(u) => (*u as i128).to_le_bytes(),
                Value::Double(f) => (f.to_bits() as u128).to_le_bytes(),
                Value::Date(d) => (*d as i128).to_le_bytes(),
                Value::DateTime(t) | Value::Time(t) => (*t as i128).to_le_bytes(),
                // ENUM and SET: their member's number, their bit mask.
                Value::Bytes(b) => match self.types[c] {
                    DataType::Enum(m) => (m.number_of(b) as u128).to_le_bytes(),
                    DataType::Set(m) => (m.mask_of(b) as u128).to_le_bytes(),
                    _ => panic!("text in fixed column {c}"),
                },
                other => panic!("value {other:?} in fixed column {c}"),
            };
            out[at..at + w].copy_from_slice(&bytes[..w]);
        }
        let mut outlined = outlined.iter().peekable();
        for (c, v) in values.iter().enumerate() {
            if self.var_pos[c] == usize::MAX {
                continue;
            }
            if let Some((_, r)) = outlined.next_if(|(oc, _)| *oc == c) {
                out.extend_from_slice(&OUTLINED.to_le_bytes());
                r.encode(out);
                continue;
            }
            let b = var_bytes(v);
            debug_assert!(b.len() < OUTLINED as usize);
            out.extend_from_slice(&(b.len() as u16).to_le_bytes());
            out.extend_from_slice(b);
        }
    }

    /// A stored row whose table keeps no off-page values.
    pub fn row<'a>(&'a self, bytes: &'a [u8]) -> RowRef<'a> {
        RowRef {
            layout: self,
            b: bytes,
            blobs: None,
        }
    }

    /// A stored row whose off-page values `blobs` reads.
    pub(crate) fn row_with<'a>(
        &'a self,
        bytes: &'a [u8],
        blobs: Option<&'a Blobs<'a>>,
    ) -> RowRef<'a> {
        RowRef {
            layout: self,
            b: bytes,
            blobs,
        }
    }
}

fn var_bytes(v: &Value) -> &[u8] {
    match v {
        Value::Bytes(b) => b,
        _ => &[],
    }
}

/// A string column's place in a stored row.
enum Stored<'a> {
    Inline(&'a [u8]),
    Outlined(BlobRef),
}

/// A row read in place.
#[derive(Clone, Copy)]
pub struct RowRef<'a> {
    layout: &'a RowLayout,
    b: &'a [u8],
    /// Reads the row's off-page values (`None`: the table has none).
    blobs: Option<&'a Blobs<'a>>,
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

    /// DECIMAL column's value at the column's `scale` (0 if NULL).
    #[inline]
    fn wide_decimal(&self, c: usize, scale: u8) -> Dec {
        let f = self.fixed(c);
        match f.len() {
            8 => Dec::new(i64::from_le_bytes(f.try_into().unwrap()) as i128, scale),
            16 => Dec::new(i128::from_le_bytes(f.try_into().unwrap()), scale),
            32 => Dec::from_unscaled(Int256::from_le_bytes(f.try_into().unwrap()), scale),
            _ => Dec::new(0, scale),
        }
    }

    /// A DECIMAL(≤ 38) column's unscaled value (0 if NULL); None for a
    /// wider column (read it with [`RowRef::wide_decimal`]).
    #[inline]
    pub fn decimal(&self, c: usize) -> Option<i128> {
        let f = self.fixed(c);
        if f.len() == 8 {
            Some(i64::from_le_bytes(f.try_into().unwrap()) as i128)
        } else if f.len() == 16 {
            Some(i128::from_le_bytes(f.try_into().unwrap()))
        } else {
            None
        }
    }

    #[inline]
    pub fn double(&self, c: usize) -> f64 {
        f64::from_bits(self.int(c) as u64)
    }

    /// A string column's bytes (empty if NULL), for a column kept in the
    /// row: key columns always are (a value goes off-page only from a
    /// column no index has).
    #[inline]
    pub fn bytes(&self, c: usize) -> &'a [u8] {
        match self.stored(c) {
            Stored::Inline(b) => b,
            Stored::Outlined(_) => panic!("column {c} is off-page: read it with value()"),
        }
    }

    /// A string column's bytes if kept in the row.
    #[inline]
    pub fn inline_bytes(&self, c: usize) -> Option<&'a [u8]> {
        match self.stored(c) {
            Stored::Inline(b) => Some(b),
            Stored::Outlined(_) => None,
        }
    }

    #[inline]
    fn stored(&self, c: usize) -> Stored<'a> {
        let want = self.layout.var_pos[c];
        let mut at = self.layout.fixed_end;
        let mut i = 0;
        loop {
            let Some(len) = self.b.get(at..at + 2) else {
                return Stored::Inline(&[]);
            };
            let len = u16::from_le_bytes([len[0], len[1]]);
            let (len, outlined) = match len {
                OUTLINED => (BlobRef::LEN, true),
                n => (n as usize, false),
            };
            if i == want {
                let b = self.b.get(at + 2..at + 2 + len).unwrap_or(&[]);
                return match outlined.then(|| BlobRef::decode(b)).flatten() {
                    Some(r) => Stored::Outlined(r),
                    None => Stored::Inline(b),
                };
            }
            at += 2 + len;
            i += 1;
        }
    }

    /// The columns of this row kept off-page, with their references.
    pub(crate) fn outlined(&self) -> Vec<(usize, BlobRef)> {
        (0..self.layout.columns())
            .filter(|&c| self.layout.is_variable(c) && !self.is_null(c))
            .filter_map(|c| match self.stored(c) {
                Stored::Outlined(r) => Some((c, r)),
                Stored::Inline(_) => None,
            })
            .collect()
    }

    /// A string column's value: its bytes, read from the blob tree if kept
    /// off-page (a failed read gives NULL here and fails the scan).
    fn string(&self, c: usize) -> Value {
        match self.stored(c) {
            Stored::Inline(b) => Value::Bytes(b.to_vec()),
            Stored::Outlined(r) => {
                let blobs = self
                    .blobs
                    .expect("a row with off-page values is read with its table's blob tree");
                blobs.read(r).map_or(Value::Null, Value::Bytes)
            }
        }
    }

    /// Column `c` as a [`Value`].
    pub fn value(&self, c: usize) -> Value {
        if self.is_null(c) {
            return Value::Null;
        }
        match self.layout.types[c] {
            DataType::BigInt { unsigned: true } | DataType::Bit(_) => {
                Value::UInt(self.int(c) as u64)
            }
            t if t.is_integer() => Value::Int(self.int(c)),
            DataType::Decimal { scale, .. } => Value::Decimal(self.wide_decimal(c, scale)),
            DataType::Double => Value::Double(self.double(c)),
            DataType::Float => Value::Double(f32::from_bits(self.int(c) as u32) as f64),
            DataType::Year => Value::Int(self.int(c)),
            DataType::Date => Value::Date(self.int(c) as i32),
            DataType::DateTime | DataType::Timestamp => Value::DateTime(self.int(c)),
            DataType::Time => Value::Time(self.int(c)),
            DataType::Enum(m) => Value::Bytes(m.text_of(self.int(c) as u16 as u64)),
            DataType::Set(m) => Value::Bytes(m.text_of_mask(self.int(c) as u64)),
            _ => self.string(c),
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
