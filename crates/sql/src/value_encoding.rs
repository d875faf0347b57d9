//! How a result column's values are written: the text form the text
//! protocol sends and SELECT … INTO OUTFILE writes, and the width the
//! binary protocol gives them. A column that shows a stored column as it
//! is follows that column's type (FLOAT's six digits, YEAR's four, a
//! DATETIME's digits of a second, BIT's bytes); others follow their kind.
use crate::result::{Column, ColumnKind, ExprWire};
use lineardb_table::types::{bit_bytes, format_datetime_digits, format_float, format_time_digits};
use lineardb_table::{DataType, Value};
use std::borrow::Cow;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ValueEncoding {
    Kind(ColumnKind),
    /// FLOAT: six significant digits as text, four bytes as binary.
    Float,
    /// YEAR: four digits as text, two bytes as binary.
    Year,
    /// A DATETIME or TIMESTAMP column: as text, its digits of a second's
    /// fraction, always (none for 0).
    DateTime(u8),
    /// A TIME column: as text, its digits of a second's fraction, always.
    Time(u8),
    /// An integer column: binary values in its type's bytes (1, 2, 4, 8).
    Integer(u8),
    /// A BIT(n) column: its number as (n + 7) / 8 big-endian bytes, in
    /// both protocols.
    Bit(u8),
    /// A DOUBLE expression of fixed decimals (PI(), ROUND(x, 2), STD()):
    /// as text, with that many digits after the point.
    FixedDouble(u8),
}

impl ValueEncoding {
    pub fn of(c: &Column) -> ValueEncoding {
        match c.data_type {
            Some(DataType::Float) => ValueEncoding::Float,
            Some(DataType::Year) => ValueEncoding::Year,
            Some(DataType::DateTime | DataType::Timestamp) => ValueEncoding::DateTime(c.fsp),
            Some(DataType::Time) => ValueEncoding::Time(c.fsp),
            Some(DataType::Bit(n)) => ValueEncoding::Bit(n),
            Some(DataType::TinyInt { .. }) => ValueEncoding::Integer(1),
            Some(DataType::SmallInt { .. }) => ValueEncoding::Integer(2),
            Some(DataType::MediumInt { .. } | DataType::Int { .. }) => ValueEncoding::Integer(4),
            None if c.wire == ExprWire::Tiny => ValueEncoding::Integer(1),
            None if c.wire == ExprWire::Short => ValueEncoding::Integer(2),
            None if matches!(c.wire, ExprWire::Int24 | ExprWire::Long) => ValueEncoding::Integer(4),
            None if c.kind == ColumnKind::Double && c.decimals.is_some_and(|d| d < 31) => {
                ValueEncoding::FixedDouble(c.decimals.unwrap_or(0))
            }
            None if c.fsp > 0 && c.kind == ColumnKind::DateTime => ValueEncoding::DateTime(c.fsp),
            None if c.fsp > 0 && c.kind == ColumnKind::Time => ValueEncoding::Time(c.fsp),
            _ => ValueEncoding::Kind(c.kind),
        }
    }

    /// A value's text (NULL has none: the caller writes its own mark).
    pub fn text(self, v: &Value) -> Cow<'_, [u8]> {
        let owned = |s: String| Cow::Owned(s.into_bytes());
        match (self, v) {
            (_, Value::Bytes(b)) => Cow::Borrowed(b),
            (ValueEncoding::Float, Value::Double(f)) => owned(format_float(*f)),
            (ValueEncoding::FixedDouble(digits), Value::Double(f)) if f.is_finite() => {
                owned(format!("{f:.0$}", usize::from(digits)))
            }
            (ValueEncoding::Year, Value::Int(y)) => owned(format!("{y:04}")),
            (ValueEncoding::DateTime(fsp), Value::DateTime(t)) => {
                owned(format_datetime_digits(*t, fsp))
            }
            (ValueEncoding::Time(fsp), Value::Time(t)) => owned(format_time_digits(*t, fsp)),
            (ValueEncoding::Bit(n), Value::UInt(u)) => Cow::Owned(bit_bytes(*u, n)),
            (_, other) => owned(other.to_text().unwrap_or_default()),
        }
    }
}
