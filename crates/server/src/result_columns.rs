//! Result-set columns on the wire: each column's definition (type,
//! character set, length, flags, decimals) and its values in the text and
//! binary protocols. A column that shows a stored column as it is follows
//! that column's type, as MariaDB's do (FLOAT, YEAR, CHAR, BINARY,
//! VARBINARY, TEXT, BLOB); others follow their value kind.
use crate::packet::{put_lenenc_int, put_lenenc_str};
use lineardb_sql::{Column, ColumnKind, ExprWire, ValueEncoding};
use lineardb_table::types::{civil_from_days, MICROS_PER_DAY};
use lineardb_table::{Collation, DataType, Value};

pub(crate) const UTF8MB4_GENERAL_CI: u8 = 45;
const BINARY_CHARSET: u16 = 63;

// Column types.
const T_TINY: u8 = 1;
const T_SHORT: u8 = 2;
const T_LONG: u8 = 3;
const T_FLOAT: u8 = 4;
const T_DOUBLE: u8 = 5;
const T_NULL: u8 = 6;
const T_TIMESTAMP: u8 = 7;
const T_LONGLONG: u8 = 8;
const T_INT24: u8 = 9;
const T_DATE: u8 = 10;
const T_TIME: u8 = 11;
const T_DATETIME: u8 = 12;
const T_YEAR: u8 = 13;
const T_BIT: u8 = 16;
const T_NEWDECIMAL: u8 = 246;
const T_TINY_BLOB: u8 = 249;
const T_MEDIUM_BLOB: u8 = 250;
const T_LONG_BLOB: u8 = 251;
const T_BLOB: u8 = 252;
const T_VAR_STRING: u8 = 253;
const T_STRING: u8 = 254;

// Column flags.
const NOT_NULL: u16 = 1;
const PRI_KEY: u16 = 2;
const UNIQUE_KEY: u16 = 4;
const MULTIPLE_KEY: u16 = 8;
const BLOB: u16 = 16;
const UNSIGNED: u16 = 32;
const ZEROFILL: u16 = 64;
const BINARY: u16 = 128;
const ENUM: u16 = 256;
const AUTO_INCREMENT: u16 = 512;
const SET: u16 = 2048;
const NO_DEFAULT_VALUE: u16 = 4096;
const PART_KEY: u16 = 16384;

/// A column's definition fields.
struct Definition {
    type_code: u8,
    charset: u16,
    length: u32,
    flags: u16,
    decimals: u8,
}

fn definition(c: &Column) -> Definition {
    let text = |type_code: u8, chars: u32| Definition {
        type_code,
        charset: UTF8MB4_GENERAL_CI as u16,
        length: chars.saturating_mul(4),
        flags: 0,
        decimals: 0,
    };
    let binary = |type_code: u8, bytes: u32| Definition {
        type_code,
        charset: BINARY_CHARSET,
        length: bytes,
        flags: BINARY,
        decimals: 0,
    };
    let number = |type_code: u8, length: u32, flags: u16, decimals: u8| Definition {
        type_code,
        charset: BINARY_CHARSET,
        length,
        flags,
        decimals,
    };
    let integer = |type_code: u8, unsigned: bool| Definition {
        type_code,
        charset: BINARY_CHARSET,
        length: c.length,
        flags: if unsigned { UNSIGNED } else { 0 },
        decimals: 0,
    };
    let mut d = match c.data_type {
        Some(DataType::TinyInt { unsigned }) => integer(T_TINY, unsigned),
        Some(DataType::SmallInt { unsigned }) => integer(T_SHORT, unsigned),
        Some(DataType::MediumInt { unsigned }) => integer(T_INT24, unsigned),
        Some(DataType::Int { unsigned }) => integer(T_LONG, unsigned),
        Some(DataType::BigInt { unsigned }) => integer(T_LONGLONG, unsigned),
        Some(DataType::Decimal { scale, .. }) => number(T_NEWDECIMAL, c.length, 0, scale),
        Some(DataType::Double) => number(T_DOUBLE, c.length, 0, 31),
        Some(DataType::Float) => number(T_FLOAT, 12, 0, 31),
        Some(DataType::Year) => number(T_YEAR, 4, UNSIGNED | ZEROFILL, 0),
        Some(DataType::Char(n)) => text(T_STRING, n),
        Some(DataType::Binary(n)) => binary(T_STRING, n),
        Some(DataType::VarBinary(n)) => binary(T_VAR_STRING, n),
        Some(DataType::Text(n)) => Definition {
            flags: BLOB,
            ..text(T_BLOB, n)
        },
        Some(DataType::Blob(n)) => Definition {
            flags: BLOB | BINARY,
            ..binary(T_BLOB, n)
        },
        Some(DataType::Timestamp) => Definition {
            decimals: c.fsp,
            ..number(
                T_TIMESTAMP,
                19 + if c.fsp > 0 { 1 + u32::from(c.fsp) } else { 0 },
                UNSIGNED | BINARY,
                0,
            )
        },
        Some(DataType::DateTime) if c.fsp > 0 => Definition {
            decimals: c.fsp,
            ..number(T_DATETIME, 20 + c.fsp as u32, BINARY, 0)
        },
        Some(DataType::Enum(_)) => Definition {
            flags: ENUM,
            ..text(T_STRING, c.length)
        },
        Some(DataType::Set(_)) => Definition {
            flags: SET,
            ..text(T_STRING, c.length)
        },
        Some(DataType::Time) => Definition {
            decimals: c.fsp,
            ..number(T_TIME, c.length, BINARY, 0)
        },
        Some(DataType::Bit(n)) => number(T_BIT, u32::from(n), UNSIGNED, 0),
        // MariaDB's UUID: a CHAR(36) of the connection's character set,
        // flagged UNSIGNED and BINARY.
        Some(DataType::Uuid) => Definition {
            flags: UNSIGNED | BINARY,
            ..text(T_STRING, c.length)
        },
        _ => expression(c),
    };
    if c.wire == ExprWire::StoredType {
        d = passed_on(c, d);
    }
    if !c.nullable {
        d.flags |= NOT_NULL;
    }
    // A string in a _bin collation is flagged binary, as MariaDB flags it.
    if let ColumnKind::Text(collation) = c.kind {
        if collation.is_bin() {
            d.flags |= BINARY;
        }
    }
    let a = &c.attributes;
    for (set, flag) in [
        (a.primary_key, PRI_KEY),
        (a.unique_key, UNIQUE_KEY),
        (a.multiple_key, MULTIPLE_KEY),
        (a.auto_increment, AUTO_INCREMENT),
        (a.no_default, NO_DEFAULT_VALUE),
        (a.part_key, PART_KEY),
    ] {
        if set {
            d.flags |= flag;
        }
    }
    d
}

/// Stored column type `d` as an expression passes it on
/// ([`ExprWire::StoredType`]), as MariaDB's item defines it: numbers
/// flagged BINARY and never ZEROFILL (a UUID neither); strings with
/// NOT_FIXED_DEC decimals and no BLOB flag, a TEXT or BLOB typed by its
/// size and a TEXT's length its stored one counted again in bytes; an
/// ENUM or SET a VARCHAR.
fn passed_on(c: &Column, d: Definition) -> Definition {
    const NOT_FIXED_DEC: u8 = 39;
    let blob = |bytes: u32| match bytes {
        0..=255 => T_TINY_BLOB,
        256..=65_535 => T_BLOB,
        65_536..=16_777_215 => T_MEDIUM_BLOB,
        _ => T_LONG_BLOB,
    };
    match c.data_type {
        Some(DataType::Enum(_) | DataType::Set(_)) => Definition {
            type_code: T_VAR_STRING,
            flags: 0,
            ..d
        },
        Some(DataType::Uuid) => Definition {
            flags: d.flags & !BINARY,
            ..d
        },
        // MIN and MAX make a FLOAT as long as a DOUBLE.
        Some(DataType::Float) => Definition {
            length: c.length,
            flags: d.flags | BINARY,
            ..d
        },
        Some(DataType::Text(n)) => Definition {
            type_code: blob(n),
            length: d.length.saturating_mul(4),
            flags: d.flags & !BLOB,
            decimals: NOT_FIXED_DEC,
            ..d
        },
        Some(DataType::Blob(n)) => Definition {
            type_code: blob(n),
            flags: d.flags & !BLOB,
            decimals: NOT_FIXED_DEC,
            ..d
        },
        Some(DataType::Char(_) | DataType::Binary(_) | DataType::VarBinary(_)) => Definition {
            decimals: NOT_FIXED_DEC,
            ..d
        },
        _ if d.charset == BINARY_CHARSET => Definition {
            flags: (d.flags & !ZEROFILL) | BINARY,
            ..d
        },
        _ => d,
    }
}

/// An expression's column (no stored type): what its kind, length and
/// [`ExprWire`] say, as MariaDB types the item.
fn expression(c: &Column) -> Definition {
    let number = |type_code: u8, flags: u16, decimals: u8| Definition {
        type_code,
        charset: BINARY_CHARSET,
        length: c.length,
        flags: BINARY | flags,
        decimals: c.decimals.unwrap_or(decimals),
    };
    match c.kind {
        // A parameter alone is of the NULL type until a value is bound to
        // it (a prepared statement's description).
        _ if matches!(c.wire, ExprWire::Null | ExprWire::Param(_)) => Definition {
            length: 0,
            ..number(T_NULL, 0, 0)
        },
        ColumnKind::Text(collation) => {
            let (charset, length, flags) = if collation == Collation::Binary {
                (BINARY_CHARSET, c.length, BINARY)
            } else {
                (UTF8MB4_GENERAL_CI as u16, c.length.saturating_mul(4), 0)
            };
            let type_code = match c.wire {
                ExprWire::Blob => T_BLOB,
                ExprWire::Fixed => T_STRING,
                _ if length <= 65_535 => T_VAR_STRING,
                _ if length <= 16_777_215 => T_MEDIUM_BLOB,
                _ => T_LONG_BLOB,
            };
            Definition {
                type_code,
                charset,
                length,
                flags,
                decimals: c.decimals.unwrap_or(0),
            }
        }
        ColumnKind::Int | ColumnKind::UInt => number(
            match c.integer_type() {
                DataType::TinyInt { .. } => T_TINY,
                DataType::SmallInt { .. } => T_SHORT,
                DataType::MediumInt { .. } => T_INT24,
                DataType::Int { .. } => T_LONG,
                _ => T_LONGLONG,
            },
            if c.kind == ColumnKind::UInt {
                UNSIGNED
            } else {
                0
            },
            0,
        ),
        ColumnKind::Decimal { scale } => number(T_NEWDECIMAL, 0, scale),
        ColumnKind::Double => number(T_DOUBLE, 0, 31),
        ColumnKind::Date => number(T_DATE, 0, 0),
        ColumnKind::DateTime => number(T_DATETIME, 0, c.fsp),
        ColumnKind::Time => number(T_TIME, 0, c.fsp),
    }
}

/// A column definition packet's body.
pub(crate) fn column_def(c: &Column, extended: bool, out: &mut Vec<u8>) {
    put_definition(c, &definition(c), extended, out)
}

/// The definition of a parameter alone in a result (`SELECT ?`, column
/// `c`) and how its value is written: as MariaDB types it at execution,
/// by the type the value was `sent` with (`None`: no type, as for a
/// statement prepared in SQL) — an integer in its own type, a DOUBLE,
/// a string of the connection's character set, a BLOB of bytes, a
/// DATETIME; a NULL sent as NULL is of the NULL type.
pub(crate) fn parameter_column_def(
    c: &Column,
    sent: Option<(u8, bool)>,
    value: Option<&Value>,
    extended: bool,
    out: &mut Vec<u8>,
) -> ValueEncoding {
    let Some((type_code, unsigned)) = sent else {
        // A value from a statement prepared in SQL: a string.
        let c = Column {
            wire: ExprWire::Kind,
            ..c.clone()
        };
        column_def(&c, extended, out);
        return ValueEncoding::of(&c);
    };
    let null = value.is_none_or(Value::is_null);
    let fixed = |type_code: u8, length: u32, flags: u16, decimals: u8| Definition {
        type_code,
        charset: BINARY_CHARSET,
        length,
        flags: BINARY | flags | if null { 0 } else { NOT_NULL },
        decimals,
    };
    let sign = if unsigned { UNSIGNED } else { 0 };
    let width = |signed: u32| if unsigned { signed - 1 } else { signed };
    let (d, encoding) = match type_code {
        T_NULL => (
            fixed(T_NULL, 0, 0, 0),
            ValueEncoding::Kind(ColumnKind::TEXT),
        ),
        _ if null => (
            fixed(T_VAR_STRING, 0, 0, 0),
            ValueEncoding::Kind(ColumnKind::TEXT),
        ),
        T_TINY => (fixed(T_TINY, width(4), sign, 0), ValueEncoding::Integer(1)),
        T_SHORT | T_YEAR => (fixed(T_SHORT, width(6), sign, 0), ValueEncoding::Integer(2)),
        T_INT24 | T_LONG => (fixed(T_LONG, width(11), sign, 0), ValueEncoding::Integer(4)),
        T_LONGLONG => {
            let kind = if unsigned {
                ColumnKind::UInt
            } else {
                ColumnKind::Int
            };
            (
                fixed(T_LONGLONG, width(21), sign, 0),
                ValueEncoding::Kind(kind),
            )
        }
        T_FLOAT | T_DOUBLE => (
            fixed(T_DOUBLE, 23, 0, 31),
            ValueEncoding::Kind(ColumnKind::Double),
        ),
        T_DATE => (
            fixed(T_DATE, 10, 0, 0),
            ValueEncoding::Kind(ColumnKind::Date),
        ),
        T_DATETIME | T_TIMESTAMP => (fixed(T_DATETIME, 19, 0, 6), ValueEncoding::DateTime(6)),
        T_TIME => (fixed(T_TIME, 17, 0, 6), ValueEncoding::Time(6)),
        // TINY_BLOB, MEDIUM_BLOB, LONG_BLOB, BLOB: bytes.
        249..=252 => {
            let bytes = match value {
                Some(Value::Bytes(b)) => b.len() as u32,
                _ => 0,
            };
            (
                Definition {
                    decimals: 39,
                    ..fixed(T_BLOB, bytes, 0, 0)
                },
                ValueEncoding::Kind(ColumnKind::TEXT),
            )
        }
        // Strings, decimals and the rest: text of the connection's
        // character set, four bytes a character.
        _ => {
            let chars = match value {
                Some(Value::Bytes(b)) => String::from_utf8_lossy(b).chars().count() as u32,
                Some(v) => v.to_text().map_or(0, |t| t.chars().count() as u32),
                None => 0,
            };
            (
                Definition {
                    type_code: T_VAR_STRING,
                    charset: UTF8MB4_GENERAL_CI as u16,
                    length: chars.saturating_mul(4),
                    flags: NOT_NULL,
                    decimals: 39,
                },
                ValueEncoding::Kind(ColumnKind::TEXT),
            )
        }
    };
    put_definition(c, &d, extended, out);
    encoding
}

/// MariaDB's extended metadata of `c`, length-encoded: entries of a kind
/// (0: the type's name, 1: the format's) and a length-encoded name. Written
/// in place: every column definition of such a client carries one.
fn put_extended_metadata(c: &Column, out: &mut Vec<u8>) {
    let entries = [
        (c.data_type == Some(DataType::Uuid)).then_some((0u8, "uuid")),
        c.json.then_some((1u8, "json")),
    ];
    let entries = entries.iter().flatten();
    // Each entry: its kind, a one-byte length, the name (under 251 bytes).
    let len: usize = entries.clone().map(|(_, name)| 2 + name.len()).sum();
    put_lenenc_int(out, len as u64);
    for (kind, name) in entries {
        out.push(*kind);
        put_lenenc_str(out, name.as_bytes());
    }
}

fn put_definition(c: &Column, d: &Definition, extended: bool, out: &mut Vec<u8>) {
    // The names with their length bytes, then 13 fixed bytes.
    out.reserve(
        4 + c.schema.len()
            + c.table.len()
            + c.org_table.len()
            + c.name.len()
            + c.org_name.len()
            + 5 * 9
            + 13,
    );
    put_lenenc_str(out, b"def");
    put_lenenc_str(out, c.schema.as_bytes());
    put_lenenc_str(out, c.table.as_bytes());
    put_lenenc_str(out, c.org_table.as_bytes());
    put_lenenc_str(out, c.name.as_bytes());
    put_lenenc_str(out, c.org_name.as_bytes());
    if extended {
        put_extended_metadata(c, out);
    }
    out.push(0x0c);
    out.extend_from_slice(&d.charset.to_le_bytes());
    out.extend_from_slice(&d.length.to_le_bytes());
    out.push(d.type_code);
    out.extend_from_slice(&d.flags.to_le_bytes());
    out.push(d.decimals);
    out.extend_from_slice(&[0, 0]);
}

/// A binary-protocol value (not NULL: the row's bitmap says NULL).
pub(crate) fn put_binary(encoding: ValueEncoding, out: &mut Vec<u8>, v: &Value) {
    match encoding {
        ValueEncoding::Float => {
            out.extend_from_slice(&(v.as_f64().unwrap_or(0.0) as f32).to_le_bytes())
        }
        ValueEncoding::Year => out.extend_from_slice(&(int_of(v) as i16).to_le_bytes()),
        ValueEncoding::DateTime(_) => put_binary_kind(out, ColumnKind::DateTime, v),
        ValueEncoding::Time(_) => put_binary_kind(out, ColumnKind::Time, v),
        ValueEncoding::Integer(bytes) => {
            out.extend_from_slice(&int_of(v).to_le_bytes()[..usize::from(bytes)])
        }
        ValueEncoding::Bit(n) => {
            put_lenenc_str(out, &lineardb_table::types::bit_bytes(int_of(v) as u64, n))
        }
        ValueEncoding::Kind(kind) => put_binary_kind(out, kind, v),
        ValueEncoding::FixedDouble(_) => put_binary_kind(out, ColumnKind::Double, v),
    }
}

/// An integer column's value as its eight bytes (an unsigned one's bits),
/// a number past the range stopping at its end.
fn int_of(v: &Value) -> i64 {
    let in_range = |n: i128| n.clamp(i64::MIN as i128, u64::MAX as i128) as i64;
    match v {
        Value::Int(i) => *i,
        Value::UInt(u) => *u as i64,
        Value::Decimal(d) => in_range(d.round_to_i128_saturating()),
        Value::Double(f) => f.round() as i64,
        other => other
            .to_text()
            .and_then(|s| s.trim().parse().ok())
            .unwrap_or(0),
    }
}

fn put_binary_kind(out: &mut Vec<u8>, kind: ColumnKind, v: &Value) {
    match kind {
        ColumnKind::Int | ColumnKind::UInt => out.extend_from_slice(&int_of(v).to_le_bytes()),
        ColumnKind::Double => out.extend_from_slice(&v.as_f64().unwrap_or(0.0).to_le_bytes()),
        ColumnKind::Date | ColumnKind::DateTime => {
            let (days, micros) = match v {
                Value::Date(d) => (*d, 0i64),
                Value::DateTime(t) => (
                    t.div_euclid(MICROS_PER_DAY) as i32,
                    t.rem_euclid(MICROS_PER_DAY),
                ),
                _ => (0, 0),
            };
            let (y, m, d) = civil_from_days(days);
            let secs = micros / 1_000_000;
            let frac = (micros % 1_000_000) as u32;
            if (y, m, d, micros) == (0, 0, 0, 0) {
                // The zero date: no fields, as MariaDB sends it.
                out.push(0);
            } else if kind == ColumnKind::Date || micros == 0 {
                out.push(4);
                out.extend_from_slice(&(y as u16).to_le_bytes());
                out.extend_from_slice(&[m as u8, d as u8]);
            } else {
                out.push(if frac == 0 { 7 } else { 11 });
                out.extend_from_slice(&(y as u16).to_le_bytes());
                out.extend_from_slice(&[
                    m as u8,
                    d as u8,
                    (secs / 3600) as u8,
                    (secs / 60 % 60) as u8,
                    (secs % 60) as u8,
                ]);
                if frac != 0 {
                    out.extend_from_slice(&frac.to_le_bytes());
                }
            }
        }
        ColumnKind::Time => {
            // [length] [negative] [days: 4] [h] [m] [s] [micros: 4]
            let t = match v {
                Value::Time(t) => *t,
                _ => 0,
            };
            let a = t.unsigned_abs();
            let (secs, frac) = (a / 1_000_000, (a % 1_000_000) as u32);
            if a == 0 {
                out.push(0);
                return;
            }
            out.push(if frac == 0 { 8 } else { 12 });
            out.push(u8::from(t < 0));
            out.extend_from_slice(&((secs / 86_400) as u32).to_le_bytes());
            out.extend_from_slice(&[
                (secs / 3600 % 24) as u8,
                (secs / 60 % 60) as u8,
                (secs % 60) as u8,
            ]);
            if frac != 0 {
                out.extend_from_slice(&frac.to_le_bytes());
            }
        }
        ColumnKind::Decimal { .. } | ColumnKind::Text(_) => match v {
            Value::Bytes(b) => put_lenenc_str(out, b),
            other => put_lenenc_str(out, other.to_text().unwrap_or_default().as_bytes()),
        },
    }
}
