//! Column types and values.
//!
//! Integers are `Value::Int` (i64), except BIGINT UNSIGNED, which is
//! `Value::UInt`. DECIMAL(p,s) is a scaled integer (`Dec`) of up to 65
//! digits. DATE is days since 1970-01-01, DATETIME
//! microseconds since 1970-01-01 00:00:00. Strings are bytes (UTF-8 from
//! clients), compared in binary order.
use crate::error::{Error, Result};
use serde::{Deserialize, Serialize};
use std::cmp::Ordering;

pub use crate::decimal::{Dec, MAX_DECIMAL_PRECISION, MAX_DECIMAL_SCALE};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum DataType {
    TinyInt {
        unsigned: bool,
    },
    SmallInt {
        unsigned: bool,
    },
    MediumInt {
        unsigned: bool,
    },
    Int {
        unsigned: bool,
    },
    BigInt {
        unsigned: bool,
    },
    Decimal {
        precision: u8,
        scale: u8,
    },
    Double,
    Date,
    DateTime,
    Char(u32),
    VarChar(u32),
    /// FLOAT: a 4-byte float (values read as f64).
    Float,
    /// TIMESTAMP: a DATETIME in the server's time zone (the zone is
    /// SYSTEM and fixed, so it is stored as the local time).
    Timestamp,
    /// YEAR: 1901 … 2155, or 0.
    Year,
    /// BINARY(n): n bytes, a shorter value padded with zero bytes.
    Binary(u32),
    /// VARBINARY(n): at most n bytes.
    VarBinary(u32),
    /// TIME: a duration of −838:59:59.999999 … 838:59:59.999999.
    Time,
    /// ENUM('a', …): one of its members (stored as the member's number).
    Enum(crate::members::Members),
    /// SET('a', …): any of its members (stored as a bit mask).
    Set(crate::members::Members),
    /// TINYTEXT … LONGTEXT: at most this many bytes.
    Text(u32),
    /// TINYBLOB … LONGBLOB: at most this many bytes.
    Blob(u32),
    /// BIT(n), 1 ≤ n ≤ 64: an n-bit unsigned number (`Value::UInt`), shown
    /// as its (n + 7) / 8 big-endian bytes.
    Bit(u8),
    /// UUID (MariaDB's): 128 bits, kept as their 36-character text in
    /// lowercase with dashes (`123e4567-e89b-12d3-a456-426655440000`), so
    /// values compare and sort as that text; given as 32 hexadecimal
    /// digits with or without dashes between them.
    Uuid,
}

#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    Null,
    Int(i64),
    UInt(u64),
    Decimal(Dec),
    Double(f64),
    /// Days since 1970-01-01.
    Date(i32),
    /// Microseconds since 1970-01-01 00:00:00.
    DateTime(i64),
    /// TIME: signed microseconds (a time of day or a duration).
    Time(i64),
    Bytes(Vec<u8>),
}

impl Value {
    pub fn is_null(&self) -> bool {
        matches!(self, Value::Null)
    }

    pub fn str(s: &str) -> Value {
        Value::Bytes(s.as_bytes().to_vec())
    }

    /// The value as MySQL's text protocol shows it (`None` for NULL).
    pub fn to_text(&self) -> Option<String> {
        Some(match self {
            Value::Null => return None,
            Value::Int(v) => v.to_string(),
            Value::UInt(v) => v.to_string(),
            Value::Decimal(d) => d.to_string(),
            Value::Double(v) => format_double(*v),
            Value::Date(d) => format_date(*d),
            Value::DateTime(t) => format_datetime(*t),
            Value::Time(t) => format_time(*t),
            Value::Bytes(b) => String::from_utf8_lossy(b).into_owned(),
        })
    }

    /// SQL comparison of two non-NULL values of compatible kinds; `None`
    /// when either is NULL.
    pub fn sql_cmp(&self, other: &Value) -> Option<Ordering> {
        use Value::*;
        Some(match (self, other) {
            (Null, _) | (_, Null) => return None,
            (Int(a), Int(b)) => a.cmp(b),
            (UInt(a), UInt(b)) => a.cmp(b),
            (Int(a), UInt(b)) => (*a as i128).cmp(&(*b as i128)),
            (UInt(a), Int(b)) => (*a as i128).cmp(&(*b as i128)),
            (Decimal(a), Decimal(b)) => a.cmp_value(*b),
            (Decimal(a), Int(b)) => a.cmp_value(Dec::new(*b as i128, 0)),
            (Int(a), Decimal(b)) => Dec::new(*a as i128, 0).cmp_value(*b),
            (Date(a), Date(b)) => a.cmp(b),
            (DateTime(a), DateTime(b)) => a.cmp(b),
            (Date(a), DateTime(b)) => (*a as i64 * MICROS_PER_DAY).cmp(b),
            (DateTime(a), Date(b)) => a.cmp(&(*b as i64 * MICROS_PER_DAY)),
            (Time(a), Time(b)) => a.cmp(b),
            (Bytes(a), Bytes(b)) => a.cmp(b),
            (a, b) => a.as_f64()?.total_cmp(&b.as_f64()?),
        })
    }

    pub fn as_f64(&self) -> Option<f64> {
        match self {
            Value::Int(v) => Some(*v as f64),
            Value::UInt(v) => Some(*v as f64),
            Value::Decimal(d) => Some(d.to_f64()),
            Value::Double(v) => Some(*v),
            Value::Time(t) => Some(time_number(*t)),
            Value::Bytes(b) => std::str::from_utf8(b).ok()?.trim().parse().ok(),
            _ => None,
        }
    }
}

pub use crate::calendar::{
    civil_from_days, days_from_civil, MICROS_PER_DAY, ZERO_DATE, ZERO_DATETIME,
};

fn format_double(v: f64) -> String {
    if v.is_finite() {
        crate::float_text::double_text(v)
    } else {
        format!("{v}")
    }
}

/// Whether a DATE or DATETIME value is the zero date.
pub fn is_zero_date(v: &Value) -> bool {
    match v {
        Value::Date(d) => *d == ZERO_DATE,
        Value::DateTime(t) => t.div_euclid(MICROS_PER_DAY) == ZERO_DATE as i64,
        _ => false,
    }
}

pub fn format_date(days: i32) -> String {
    let (y, m, d) = civil_from_days(days);
    format!("{y:04}-{m:02}-{d:02}")
}

pub fn format_datetime(micros: i64) -> String {
    let days = micros.div_euclid(MICROS_PER_DAY);
    let rem = micros.rem_euclid(MICROS_PER_DAY);
    format!("{} {}", format_date(days as i32), format_clock(rem as u64))
}

/// `YYYY-MM-DD hh:mm:ss` and, for `fsp` > 0, exactly that many digits of
/// the second's fraction (a DATETIME(fsp) column's text).
pub fn format_datetime_digits(t: i64, fsp: u8) -> String {
    let mut s = format_datetime(t - t.rem_euclid(1_000_000));
    if fsp > 0 {
        let fraction = format!("{:06}", t.rem_euclid(1_000_000));
        s.push('.');
        s.push_str(&fraction[..fsp.min(6) as usize]);
    }
    s
}

/// `hh:mm:ss[.ffffff]` of a time of day or a duration (hours past 24
/// shown whole; the fraction only when there is one).
pub fn format_clock(micros: u64) -> String {
    let secs = micros / 1_000_000;
    let frac = micros % 1_000_000;
    let base = format!("{:02}:{:02}:{:02}", secs / 3600, secs / 60 % 60, secs % 60);
    if frac == 0 {
        base
    } else {
        format!("{base}.{frac:06}")
    }
}

/// `[-]hh:mm:ss[.ffffff]` of a TIME (hours past 24 shown whole; the
/// fraction only when there is one).
pub fn format_time(micros: i64) -> String {
    let sign = if micros < 0 { "-" } else { "" };
    format!("{sign}{}", format_clock(micros.unsigned_abs()))
}

/// A TIME(fsp) column's text: exactly `fsp` digits of the fraction.
pub fn format_time_digits(t: i64, fsp: u8) -> String {
    let whole = format_time(t - t % 1_000_000);
    if fsp == 0 {
        return whole;
    }
    let fraction = format!("{:06}", (t % 1_000_000).abs());
    // A value in (−1 s, 0) keeps its sign.
    let sign = if t < 0 && t > -1_000_000 { "-" } else { "" };
    format!("{sign}{whole}.{}", &fraction[..fsp.min(6) as usize])
}

/// A TIME in numeric context: `[-]hhmmss.ffffff`.
pub fn time_number(t: i64) -> f64 {
    time_digits(t) as f64 / 1e6
}

/// A TIME's number `[-]hhmmss.ffffff` as an integer of millionths.
pub fn time_digits(t: i64) -> i128 {
    let a = t.unsigned_abs();
    let secs = a / 1_000_000;
    let n = (secs / 3600 * 10_000 + secs / 60 % 60 * 100 + secs % 60) as i128 * 1_000_000
        + (a % 1_000_000) as i128;
    if t < 0 {
        -n
    } else {
        n
    }
}

/// The largest TIME: 838:59:59.999999.
pub const MAX_TIME: i64 = (838 * 3600 + 59 * 60 + 59) * 1_000_000 + 999_999;

/// Parses a TIME's text: `[-][D ]hh:mm[:ss[.f]]`, `[-]hhmmss[.f]` (also
/// `mmss`, `ss`), or a datetime's text (its time of day). None for text
/// that is not a time. Hours are not bounded (a column checks
/// [`MAX_TIME`]).
pub fn parse_time(s: &str) -> Option<i64> {
    let s = s.trim();
    if s.len() > 10 && s.as_bytes().get(4) == Some(&b'-') {
        return parse_datetime(s).map(|t| t.rem_euclid(MICROS_PER_DAY));
    }
    let (negative, s) = match s.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, s),
    };
    let (days, s) = match s.split_once(' ') {
        Some((d, rest)) => (d.parse::<i64>().ok()?, rest.trim_start()),
        None => (0, s),
    };
    let (hms, frac) = match s.split_once('.') {
        Some((a, f)) => (a, f),
        None => (s, ""),
    };
    if !frac.bytes().all(|b| b.is_ascii_digit()) || hms.is_empty() {
        return None;
    }
    let (h, m, sec) = if hms.contains(':') {
        let mut it = hms.split(':');
        let h: i64 = it.next()?.parse().ok()?;
        let m: i64 = it.next()?.parse().ok()?;
        let sec: i64 = it.next().map_or(Some(0), |x| x.parse().ok())?;
        if it.next().is_some() {
            return None;
        }
        (h, m, sec)
    } else {
        if days != 0 || !hms.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        let n: i64 = hms.parse().ok()?;
        (n / 10_000, n / 100 % 100, n % 100)
    };
    if m > 59 || sec > 59 || days < 0 || h < 0 {
        return None;
    }
    let digits: String = frac.chars().take(6).collect();
    let micros: i64 = format!("{digits:0<6}").parse().ok()?;
    let t = (((days * 24 + h) * 60 + m) * 60 + sec) * 1_000_000 + micros;
    Some(if negative { -t } else { t })
}

/// A TIME from a number `[-]hhmmss[.f]`; None for minutes or seconds past
/// 59. Hours are not bounded.
pub fn time_from_number(x: f64) -> Option<i64> {
    if !x.is_finite() {
        return None;
    }
    let negative = x < 0.0;
    let whole = x.abs().trunc() as i64;
    let micros = (x.abs().fract() * 1e6).round() as i64;
    let (h, m, s) = (whole / 10_000, whole / 100 % 100, whole % 100);
    if m > 59 || s > 59 {
        return None;
    }
    let t = ((h * 60 + m) * 60 + s) * 1_000_000 + micros;
    Some(if negative { -t } else { t })
}

/// A date read from text as MariaDB reads one
/// ([`temporal_text`](crate::temporal_text)), as days since 1970-01-01
/// (its time of day, if it has one, dropped); None where the text is no
/// valid date or has more after it.
pub fn parse_date(s: &str) -> Option<i32> {
    parse_datetime(s).map(|t| t.div_euclid(MICROS_PER_DAY) as i32)
}

/// A date or datetime read from text as MariaDB reads one
/// ([`temporal_text`](crate::temporal_text)), as microseconds since the
/// epoch (digits of a second past the sixth dropped); None where the text
/// is no valid datetime or has more after it.
pub fn parse_datetime(s: &str) -> Option<i64> {
    crate::temporal_text::read_datetime(s)
        .filter(|t| t.fit != crate::temporal_text::TextFit::Truncated)
        .map(|t| t.micros)
}

/// The date or datetime a text begins with where more text follows it
/// (`2020-01-01x`), as microseconds since the epoch.
fn cut_datetime(v: &Value) -> Option<i64> {
    let Value::Bytes(b) = v else {
        return None;
    };
    crate::temporal_text::read_datetime(std::str::from_utf8(b).ok()?)
        .filter(|t| t.fit == crate::temporal_text::TextFit::Truncated)
        .map(|t| t.micros)
}

/// A number read as a date or datetime as MariaDB reads one (`20200101`,
/// `200101103000`, a fraction for the digits of a second), as
/// microseconds since the epoch; None where it is none.
pub fn datetime_of_number(v: &Value) -> Option<i64> {
    temporal_of_number(v).map(|t| t.micros)
}

/// [`datetime_of_number`], with whether it had a time and what was cut.
pub fn temporal_of_number(v: &Value) -> Option<crate::temporal_text::TextTime> {
    let (whole, micros) = match v {
        Value::Int(n) => (*n, 0),
        Value::UInt(n) => (i64::try_from(*n).ok()?, 0),
        Value::Decimal(d) => {
            let micros = d.truncate(6).rescale(6).unscaled_i128()?;
            (
                i64::try_from(micros.div_euclid(1_000_000)).ok()?,
                micros.rem_euclid(1_000_000) as u32,
            )
        }
        Value::Double(f) if f.is_finite() && *f >= 0.0 && *f < 1e15 => {
            let micros = (f * 1e6).round() as i64;
            (micros / 1_000_000, (micros % 1_000_000) as u32)
        }
        _ => return None,
    };
    if whole < 0 {
        return None;
    }
    crate::temporal_text::datetime_from_number(whole, micros)
}

impl DataType {
    /// Bytes the type takes in the fixed part of a row; `None` if variable.
    pub fn fixed_width(&self) -> Option<usize> {
        Some(match self {
            DataType::TinyInt { .. } => 1,
            DataType::SmallInt { .. } => 2,
            DataType::MediumInt { .. } | DataType::Int { .. } => 4,
            DataType::BigInt { .. } | DataType::Bit(_) => 8,
            DataType::Decimal { precision, .. } => crate::decimal::stored_width(*precision),
            DataType::Double => 8,
            DataType::Date => 4,
            DataType::DateTime | DataType::Timestamp | DataType::Time => 8,
            DataType::Float => 4,
            DataType::Enum(_) => 2,
            DataType::Set(_) => 8,
            DataType::Year => 2,
            t if t.is_string() => return None,
            _ => unreachable!("every type is fixed or a string"),
        })
    }

    /// Whether values are byte strings (CHAR, VARCHAR, BINARY, VARBINARY,
    /// TEXT, BLOB).
    /// The most bytes a value of a string type takes (utf8mb4: four a
    /// character); `None` for other types.
    pub fn max_bytes(&self) -> Option<u64> {
        match *self {
            DataType::Char(n) | DataType::VarChar(n) => Some(4 * n as u64),
            DataType::Binary(n) | DataType::VarBinary(n) => Some(n as u64),
            DataType::Uuid => Some(UUID_TEXT_LEN as u64),
            DataType::Text(n) | DataType::Blob(n) => Some(n as u64),
            _ => None,
        }
    }

    pub fn is_string(&self) -> bool {
        matches!(
            self,
            DataType::Char(_)
                | DataType::VarChar(_)
                | DataType::Binary(_)
                | DataType::VarBinary(_)
                | DataType::Text(_)
                | DataType::Blob(_)
                | DataType::Uuid
        )
    }

    /// The collation a column of this type has unless it names one:
    /// binary for the binary strings, else the server's default.
    pub fn default_collation(&self) -> crate::collation::Collation {
        if self.is_binary() {
            crate::collation::Collation::Binary
        } else {
            crate::collation::Collation::default()
        }
    }

    /// Whether this is an ENUM or a SET.
    pub fn has_members(&self) -> bool {
        matches!(self, DataType::Enum(_) | DataType::Set(_))
    }

    /// Whether values are binary strings (the binary character set).
    /// Whether values are text of a character set (and a column of the
    /// type has a collation): the text strings, ENUM and SET; not the
    /// binary strings or UUID.
    pub fn has_character_set(&self) -> bool {
        (self.is_string() && !self.is_binary() && *self != DataType::Uuid) || self.has_members()
    }

    pub fn is_binary(&self) -> bool {
        matches!(
            self,
            DataType::Binary(_) | DataType::VarBinary(_) | DataType::Blob(_)
        )
    }

    pub fn is_integer(&self) -> bool {
        matches!(
            self,
            DataType::TinyInt { .. }
                | DataType::SmallInt { .. }
                | DataType::MediumInt { .. }
                | DataType::Int { .. }
                | DataType::BigInt { .. }
        )
    }

    /// Range of an integer type.
    fn int_range(&self) -> (i128, i128) {
        let (bits, unsigned) = match self {
            DataType::TinyInt { unsigned } => (8, *unsigned),
            DataType::SmallInt { unsigned } => (16, *unsigned),
            DataType::MediumInt { unsigned } => (24, *unsigned),
            DataType::Int { unsigned } => (32, *unsigned),
            DataType::BigInt { unsigned } => (64, *unsigned),
            _ => unreachable!("not an integer type"),
        };
        if unsigned {
            (0, (1i128 << bits) - 1)
        } else {
            (-(1i128 << (bits - 1)), (1i128 << (bits - 1)) - 1)
        }
    }

    /// Checks a declared type is supported.
    pub fn validate(&self) -> Result<()> {
        if let DataType::Enum(m) | DataType::Set(m) = self {
            if m.is_empty() {
                return Err(Error::Invalid("an ENUM or SET needs members".into()));
            }
        }
        if let DataType::Decimal { precision, scale } = self {
            if *precision == 0 || *precision > MAX_DECIMAL_PRECISION {
                return Err(Error::NotSupported(format!(
                    "DECIMAL precision {precision} is not supported (1..={MAX_DECIMAL_PRECISION})"
                )));
            }
            if *scale > MAX_DECIMAL_SCALE {
                return Err(Error::NotSupported(format!(
                    "DECIMAL scale {scale} is not supported (at most {MAX_DECIMAL_SCALE})"
                )));
            }
            if scale > precision {
                return Err(Error::Invalid(format!(
                    "DECIMAL scale {scale} is larger than its precision {precision}"
                )));
            }
        }
        Ok(())
    }

    /// Converts `v` to this type for storing in `column`, with MySQL's strict
    /// mode errors: out of range (1264), too long (1406), wrong value (1366).
    pub fn coerce(&self, v: Value, column: &str) -> Result<Value> {
        if v.is_null() {
            return Ok(Value::Null);
        }
        let wrong = |kind: &'static str, v: &Value| Error::WrongValue {
            kind,
            value: v.to_text().unwrap_or_default(),
            column: column.to_string(),
        };
        // A number no column holds ('1e2000000000') is out of range, as in
        // MariaDB; other text is a wrong value.
        let too_long_or_wrong = |text: &str, kind: &'static str| {
            if text.trim().parse::<f64>().is_ok() {
                Error::OutOfRange(column.into())
            } else {
                wrong(kind, &v)
            }
        };
        match self {
            t if t.is_integer() => {
                let n: i128 = match &v {
                    Value::Int(x) => *x as i128,
                    Value::UInt(x) => *x as i128,
                    Value::Decimal(d) => d
                        .round_to_i128()
                        .ok_or_else(|| Error::OutOfRange(column.into()))?,
                    Value::Double(f) => {
                        if !f.is_finite() || f.abs() > 1e30 {
                            return Err(Error::OutOfRange(column.into()));
                        }
                        f.round() as i128
                    }
                    Value::Bytes(b) => {
                        let s = std::str::from_utf8(b)
                            .map_err(|_| wrong("integer", &v))?
                            .trim();
                        match s.parse::<i128>() {
                            Ok(n) => n,
                            Err(_) => Dec::parse(s)
                                .ok_or_else(|| too_long_or_wrong(s, "integer"))?
                                .round_to_i128()
                                .ok_or_else(|| Error::OutOfRange(column.into()))?,
                        }
                    }
                    _ => return Err(wrong("integer", &v)),
                };
                let (lo, hi) = t.int_range();
                if n < lo || n > hi {
                    return Err(Error::OutOfRange(column.into()));
                }
                Ok(if matches!(t, DataType::BigInt { unsigned: true }) {
                    Value::UInt(n as u64)
                } else {
                    Value::Int(n as i64)
                })
            }
            DataType::Decimal { precision, scale } => {
                let d = match &v {
                    Value::Int(x) => Dec::new(*x as i128, 0),
                    Value::UInt(x) => Dec::new(*x as i128, 0),
                    Value::Decimal(d) => *d,
                    Value::Double(f) => Dec::parse(&format!("{f}"))
                        .ok_or_else(|| Error::OutOfRange(column.into()))?,
                    Value::Bytes(b) => {
                        let text = std::str::from_utf8(b).map_err(|_| wrong("decimal", &v))?;
                        Dec::parse(text).ok_or_else(|| too_long_or_wrong(text, "decimal"))?
                    }
                    _ => return Err(wrong("decimal", &v)),
                };
                match d.checked_rescale(*scale) {
                    Some(d) if d.fits_precision(*precision) => Ok(Value::Decimal(d)),
                    _ => Err(Error::OutOfRange(column.into())),
                }
            }
            DataType::Float => match DataType::Double.coerce(v, column)? {
                Value::Double(f) => {
                    if f.abs() > f32::MAX as f64 {
                        return Err(Error::OutOfRange(column.into()));
                    }
                    Ok(Value::Double(f as f32 as f64))
                }
                other => Ok(other),
            },
            DataType::Year => {
                // Two digits (or fewer) name 1970 … 2069; the string '0'
                // and '00' are 2000, the number 0 is the zero year.
                let (n, short_text) = match &v {
                    Value::Bytes(b) => {
                        let s = std::str::from_utf8(b)
                            .map_err(|_| wrong("year", &v))?
                            .trim();
                        let n: i64 = s.parse().map_err(|_| wrong("year", &v))?;
                        (n, s.len() <= 2)
                    }
                    other => {
                        let as_int = DataType::BigInt { unsigned: false };
                        match as_int.coerce(other.clone(), column)? {
                            Value::Int(n) => (n, false),
                            _ => return Err(wrong("year", &v)),
                        }
                    }
                };
                let year = match n {
                    0 if !short_text => 0,
                    0..=69 => 2000 + n,
                    70..=99 => 1900 + n,
                    1901..=2155 => n,
                    _ => return Err(Error::OutOfRange(column.into())),
                };
                Ok(Value::Int(year))
            }
            DataType::Binary(n)
            | DataType::VarBinary(n)
            | DataType::Text(n)
            | DataType::Blob(n) => {
                let mut bytes = match v {
                    Value::Bytes(b) => b,
                    other => other.to_text().unwrap_or_default().into_bytes(),
                };
                if bytes.len() > *n as usize {
                    return Err(Error::DataTooLong(column.into()));
                }
                if let DataType::Binary(n) = self {
                    bytes.resize(*n as usize, 0);
                }
                Ok(Value::Bytes(bytes))
            }
            DataType::Double => match &v {
                Value::Bytes(_)
                | Value::Int(_)
                | Value::UInt(_)
                | Value::Decimal(_)
                | Value::Double(_) => {
                    let f = v.as_f64().ok_or_else(|| wrong("double", &v))?;
                    if !f.is_finite() {
                        return Err(Error::OutOfRange(column.into()));
                    }
                    Ok(Value::Double(if f == 0.0 { 0.0 } else { f }))
                }
                _ => Err(wrong("double", &v)),
            },
            DataType::Date => match &v {
                Value::Date(_) => Ok(v),
                Value::DateTime(t) => Ok(Value::Date(t.div_euclid(MICROS_PER_DAY) as i32)),
                Value::Bytes(b) => std::str::from_utf8(b)
                    .ok()
                    .and_then(parse_date)
                    .map(Value::Date)
                    .ok_or_else(|| wrong("date", &v)),
                Value::Int(_) | Value::UInt(_) | Value::Decimal(_) | Value::Double(_) => {
                    datetime_of_number(&v)
                        .map(|t| Value::Date(t.div_euclid(MICROS_PER_DAY) as i32))
                        .ok_or_else(|| wrong("date", &v))
                }
                _ => Err(wrong("date", &v)),
            },
            // A TIMESTAMP's zero date has no time of day but midnight; its
            // other values are from 1970-01-01 00:00:01 to 2038-01-19
            // 03:14:07.999999 UTC.
            DataType::Timestamp => match DataType::DateTime.coerce(v.clone(), column)? {
                Value::DateTime(t) if t == ZERO_DATETIME => Ok(Value::DateTime(t)),
                Value::DateTime(t) if !crate::timestamp_range::holds(t) => {
                    Err(wrong("datetime", &v))
                }
                x => Ok(x),
            },
            DataType::DateTime => match &v {
                Value::DateTime(_) => Ok(v),
                Value::Date(d) => Ok(Value::DateTime(*d as i64 * MICROS_PER_DAY)),
                Value::Bytes(b) => std::str::from_utf8(b)
                    .ok()
                    .and_then(parse_datetime)
                    .map(Value::DateTime)
                    .ok_or_else(|| wrong("datetime", &v)),
                Value::Int(_) | Value::UInt(_) | Value::Decimal(_) | Value::Double(_) => {
                    datetime_of_number(&v)
                        .map(Value::DateTime)
                        .ok_or_else(|| wrong("datetime", &v))
                }
                _ => Err(wrong("datetime", &v)),
            },
            DataType::Time => match &v {
                Value::Time(t) if t.abs() > MAX_TIME => Err(wrong("time", &v)),
                Value::Time(_) => Ok(v),
                Value::DateTime(t) => Ok(Value::Time(t.rem_euclid(MICROS_PER_DAY))),
                Value::Date(_) => Ok(Value::Time(0)),
                Value::Bytes(b) => std::str::from_utf8(b)
                    .ok()
                    .and_then(parse_time)
                    .filter(|t| t.abs() <= MAX_TIME)
                    .map(Value::Time)
                    .ok_or_else(|| wrong("time", &v)),
                Value::Int(_) | Value::UInt(_) | Value::Decimal(_) | Value::Double(_) => v
                    .as_f64()
                    .and_then(time_from_number)
                    .filter(|t| t.abs() <= MAX_TIME)
                    .map(Value::Time)
                    .ok_or_else(|| wrong("time", &v)),
                _ => Err(wrong("time", &v)),
            },
            DataType::Bit(width) => bit_value(&v, *width)
                .map(Value::UInt)
                .ok_or_else(|| Error::DataTooLong(column.into())),
            DataType::Uuid => match &v {
                Value::Bytes(b) => uuid_text(b)
                    .map(Value::Bytes)
                    .ok_or_else(|| wrong("uuid", &v)),
                _ => Err(wrong("uuid", &v)),
            },
            DataType::Enum(m) => {
                let number = match &v {
                    Value::Bytes(b) => m.find(b, Default::default()).or_else(|| {
                        // A string that names no member but is a number
                        // is the member of that number.
                        std::str::from_utf8(b)
                            .ok()
                            .and_then(|s| s.trim().parse::<usize>().ok())
                    }),
                    other => other.as_f64().map(|f| f.round() as usize),
                };
                match number {
                    Some(n) if (1..=m.len()).contains(&n) => {
                        Ok(Value::Bytes(m.names()[n - 1].as_bytes().to_vec()))
                    }
                    _ => Err(Error::Truncated(column.into())),
                }
            }
            DataType::Set(m) => {
                let mask = match &v {
                    Value::Bytes(b) if !b.is_empty() => {
                        let mut mask = 0u64;
                        for part in b.split(|&c| c == b',') {
                            match m.find(part, Default::default()) {
                                Some(n) => mask |= 1 << (n - 1),
                                None => return Err(Error::Truncated(column.into())),
                            }
                        }
                        mask
                    }
                    Value::Bytes(_) => 0,
                    other => match other.as_f64() {
                        Some(f) if f >= 0.0 && (f as u128) < 1u128 << m.len() => f as u64,
                        _ => return Err(Error::Truncated(column.into())),
                    },
                };
                Ok(Value::Bytes(m.text_of_mask(mask)))
            }
            DataType::Char(n) | DataType::VarChar(n) => {
                let mut bytes = match v {
                    Value::Bytes(b) => b,
                    // A DOUBLE is rounded to fit the column, as MariaDB's
                    // Field_str::store(double) writes it; only one that
                    // cannot fit is too long.
                    Value::Double(f) if f.is_finite() && *n > 0 => {
                        match crate::float_text::column_text(f, *n) {
                            (text, false) => text.into_bytes(),
                            (_, true) => return Err(Error::DataTooLong(column.into())),
                        }
                    }
                    other => other.to_text().unwrap_or_default().into_bytes(),
                };
                if matches!(self, DataType::Char(_)) {
                    // CHAR drops trailing spaces (PAD SPACE).
                    while bytes.last() == Some(&b' ') {
                        bytes.pop();
                    }
                }
                let chars = std::str::from_utf8(&bytes)
                    .map(|s| s.chars().count())
                    .unwrap_or(bytes.len());
                if chars > *n as usize {
                    return Err(Error::DataTooLong(column.into()));
                }
                Ok(Value::Bytes(bytes))
            }
            _ => unreachable!(),
        }
    }

    /// [`coerce`](Self::coerce) as a statement outside strict mode does
    /// it: a number out of range becomes the nearest one in range, a string
    /// too long is cut, a number with trailing text keeps its number (none:
    /// 0); each with the error as the warning to give. Other errors (a
    /// wrong date) stay errors.
    pub fn coerce_lenient(&self, v: Value, column: &str) -> Result<(Value, Option<Error>)> {
        let e = match self.coerce(v.clone(), column) {
            Ok(x) => return Ok((x, None)),
            Err(e) => e,
        };
        let negative = || v.as_f64().is_some_and(|f| f < 0.0) || text_is_negative(&v);
        let adjusted = match (&e, self) {
            (Error::OutOfRange(_), t) if t.is_integer() => {
                let (lo, hi) = t.int_range();
                let n = if negative() { lo } else { hi };
                t.coerce(Value::Decimal(Dec::new(n, 0)), column)?
            }
            (Error::OutOfRange(_), DataType::Decimal { precision, scale }) => {
                Value::Decimal(Dec::extreme(*precision, *scale, negative()))
            }
            (Error::OutOfRange(_), DataType::Double) => {
                Value::Double(if negative() { f64::MIN } else { f64::MAX })
            }
            (Error::OutOfRange(_), DataType::Float) => Value::Double(if negative() {
                f32::MIN as f64
            } else {
                f32::MAX as f64
            }),
            (Error::OutOfRange(_), DataType::Year) => Value::Int(0),
            // Outside strict mode a BIT takes the nearest value it holds,
            // with warning 1264 (in strict mode 1406).
            (Error::DataTooLong(_), DataType::Bit(width)) => {
                let n = if negative() { 0 } else { bit_max(*width) };
                return Ok((Value::UInt(n), Some(Error::OutOfRange(column.into()))));
            }
            // A SET keeps the members it knows. (An ENUM's wrong value
            // stays an error: MariaDB stores its value 0, '', which no
            // later write could take back in.)
            (Error::Truncated(_), DataType::Set(m)) => {
                let known: Vec<&[u8]> = match &v {
                    Value::Bytes(b) => b
                        .split(|&c| c == b',')
                        .filter(|p| m.find(p, Default::default()).is_some())
                        .collect(),
                    _ => Vec::new(),
                };
                self.coerce(Value::Bytes(known.join(&b',')), column)?
            }
            // A DOUBLE that no rounding fits keeps what fits of its text.
            (Error::DataTooLong(_), DataType::Char(n) | DataType::VarChar(n)) if matches!(v, Value::Double(f) if f.is_finite()) =>
            {
                let (text, _) = crate::float_text::column_text(v.as_f64().unwrap_or_default(), *n);
                self.coerce(Value::Bytes(text.into_bytes()), column)?
            }
            (Error::DataTooLong(_), t) if t.is_string() => {
                let bytes = match &v {
                    Value::Bytes(b) => b.clone(),
                    other => other.to_text().unwrap_or_default().into_bytes(),
                };
                let cut = match *t {
                    DataType::Char(n) | DataType::VarChar(n) => {
                        let text = String::from_utf8_lossy(&bytes);
                        text.chars()
                            .take(n as usize)
                            .collect::<String>()
                            .into_bytes()
                    }
                    DataType::Binary(n)
                    | DataType::VarBinary(n)
                    | DataType::Text(n)
                    | DataType::Blob(n) => {
                        let mut end = (n as usize).min(bytes.len());
                        // TEXT is cut where a character starts.
                        while matches!(t, DataType::Text(_))
                            && end > 0
                            && end < bytes.len()
                            && (bytes[end] & 0xC0) == 0x80
                        {
                            end -= 1;
                        }
                        bytes[..end].to_vec()
                    }
                    _ => bytes,
                };
                self.coerce(Value::Bytes(cut), column)?
            }
            // Outside strict mode a wrong UUID is NULL (MariaDB's).
            (Error::WrongValue { .. }, DataType::Uuid) => Value::Null,
            // A TIMESTAMP out of its range is its zero, with 1264.
            (Error::WrongValue { .. }, DataType::Timestamp)
                if DataType::DateTime.coerce(v.clone(), column).is_ok() =>
            {
                return Ok((
                    Value::DateTime(ZERO_DATETIME),
                    Some(Error::OutOfRange(column.into())),
                ));
            }
            // A date with more text after it is the date, with MariaDB's
            // 1265.
            (
                Error::WrongValue { .. },
                DataType::Date | DataType::DateTime | DataType::Timestamp,
            ) if cut_datetime(&v).is_some() => {
                let t = cut_datetime(&v).unwrap_or_default();
                let x = self
                    .coerce(Value::DateTime(t), column)
                    .unwrap_or_else(|_| self.coerce(Value::Int(0), column).unwrap_or(Value::Null));
                return Ok((x, Some(Error::Truncated(column.into()))));
            }
            // A wrong date or time is the zero one (what 0 is to the
            // type), with MariaDB's 1265.
            (
                Error::WrongValue { .. },
                DataType::Date | DataType::DateTime | DataType::Timestamp | DataType::Time,
            ) => {
                let zero = self.coerce(Value::Int(0), column)?;
                return Ok((zero, Some(Error::Truncated(column.into()))));
            }
            (Error::WrongValue { .. }, t)
                if t.is_integer()
                    || matches!(
                        t,
                        DataType::Decimal { .. } | DataType::Double | DataType::Float
                    ) =>
            {
                let prefix = numeric_prefix(&v);
                let (x, _) = self.coerce_lenient(Value::str(&prefix), column)?;
                x
            }
            _ => return Err(e),
        };
        Ok((adjusted, Some(e)))
    }

    /// SQL spelling of the type, as SHOW CREATE TABLE prints it.
    pub fn sql(&self) -> String {
        let u = |unsigned: &bool| if *unsigned { " unsigned" } else { "" };
        match self {
            DataType::TinyInt { unsigned } => format!("tinyint{}", u(unsigned)),
            DataType::SmallInt { unsigned } => format!("smallint{}", u(unsigned)),
            DataType::MediumInt { unsigned } => format!("mediumint{}", u(unsigned)),
            DataType::Int { unsigned } => format!("int{}", u(unsigned)),
            DataType::BigInt { unsigned } => format!("bigint{}", u(unsigned)),
            DataType::Decimal { precision, scale } => format!("decimal({precision},{scale})"),
            DataType::Double => "double".into(),
            DataType::Date => "date".into(),
            DataType::DateTime => "datetime".into(),
            DataType::Timestamp => "timestamp".into(),
            DataType::Time => "time".into(),
            DataType::Enum(m) => m.sql("enum"),
            DataType::Set(m) => m.sql("set"),
            DataType::Char(n) => format!("char({n})"),
            DataType::VarChar(n) => format!("varchar({n})"),
            DataType::Float => "float".into(),
            DataType::Year => "year(4)".into(),
            DataType::Binary(n) => format!("binary({n})"),
            DataType::VarBinary(n) => format!("varbinary({n})"),
            DataType::Text(n) => format!("{}text", size_prefix(*n)),
            DataType::Blob(n) => format!("{}blob", size_prefix(*n)),
            DataType::Bit(n) => format!("bit({n})"),
            DataType::Uuid => "uuid".into(),
        }
    }
}

/// The length of a UUID's text: 32 hexadecimal digits and 4 dashes.
pub const UUID_TEXT_LEN: usize = 36;

/// A UUID's text as a UUID column keeps it (lowercase, dashes after the
/// 8th, 12th, 16th and 20th digits) from 32 hexadecimal digits, dashes
/// allowed between them (MariaDB's reading); `None` for anything else.
pub fn uuid_text(given: &[u8]) -> Option<Vec<u8>> {
    let mut digits = Vec::with_capacity(32);
    for &c in given {
        if c == b'-' && (1..32).contains(&digits.len()) {
            continue;
        } else if c.is_ascii_hexdigit() && digits.len() < 32 {
            digits.push(c.to_ascii_lowercase());
        } else {
            return None;
        }
    }
    if digits.len() != 32 {
        return None;
    }
    let mut text = Vec::with_capacity(UUID_TEXT_LEN);
    for (i, d) in digits.into_iter().enumerate() {
        if matches!(i, 8 | 12 | 16 | 20) {
            text.push(b'-');
        }
        text.push(d);
    }
    Some(text)
}

/// A BIT(width) value from what is stored in it: a number (rounded; none
/// negative) or a string's bytes read as a big-endian number; None when it
/// does not fit in `width` bits.
fn bit_value(v: &Value, width: u8) -> Option<u64> {
    let n: u128 = match v {
        Value::Int(x) => u128::try_from(*x).ok()?,
        Value::UInt(x) => *x as u128,
        Value::Decimal(d) => u128::try_from(d.round_to_i128()?).ok()?,
        Value::Double(f) if f.is_finite() && *f > -0.5 && *f < 1.9e19 => f.round() as u128,
        Value::Bytes(b) if b.len() <= 8 => b.iter().fold(0, |n, &x| (n << 8) | x as u128),
        _ => return None,
    };
    (n >> width == 0).then_some(n as u64)
}

/// The number a bit literal `b'0101'` writes (as BIT defaults are kept);
/// None for other text or more than 64 digits.
pub fn parse_bit_literal(s: &str) -> Option<u64> {
    let digits = s
        .strip_prefix("b'")
        .or_else(|| s.strip_prefix("B'"))?
        .strip_suffix('\'')?;
    if digits.is_empty() {
        return Some(0);
    }
    if digits.len() > 64 {
        return None;
    }
    u64::from_str_radix(digits, 2).ok()
}

/// The largest value of BIT(width).
pub fn bit_max(width: u8) -> u64 {
    u64::MAX >> (64 - u32::from(width.clamp(1, 64)))
}

/// A BIT(width) value as MariaDB shows it: (width + 7) / 8 big-endian bytes.
pub fn bit_bytes(n: u64, width: u8) -> Vec<u8> {
    let len = usize::from(width.clamp(1, 64)).div_ceil(8);
    n.to_be_bytes()[8 - len..].to_vec()
}

/// Whether a value is text that starts with a minus sign.
fn text_is_negative(v: &Value) -> bool {
    matches!(v, Value::Bytes(b) if b.trim_ascii_start().first() == Some(&b'-'))
}

/// The longest number a text starts with ("0" if none), as MariaDB reads
/// a string in numeric context.
fn numeric_prefix(v: &Value) -> String {
    let text = v.to_text().unwrap_or_default();
    let t = text.trim_start();
    let mut end = 0;
    let mut seen_digit = false;
    let mut seen_dot = false;
    for (i, c) in t.char_indices() {
        let ok = match c {
            '0'..='9' => {
                seen_digit = true;
                true
            }
            '-' | '+' => i == 0,
            '.' if !seen_dot => {
                seen_dot = true;
                true
            }
            _ => false,
        };
        if !ok {
            break;
        }
        end = i + c.len_utf8();
    }
    if seen_digit {
        t[..end].trim_end_matches('.').to_string()
    } else {
        "0".to_string()
    }
}

/// Most bytes of TINYTEXT/TINYBLOB, TEXT/BLOB, MEDIUM… and LONG….
pub const TINY_LEN: u32 = 255;
pub const TEXT_LEN: u32 = 65_535;
pub const MEDIUM_LEN: u32 = 16_777_215;
pub const LONG_LEN: u32 = u32::MAX;

/// TINY, (none), MEDIUM or LONG, from the most bytes a TEXT/BLOB holds.
fn size_prefix(n: u32) -> &'static str {
    match n {
        0..=TINY_LEN => "tiny",
        256..=TEXT_LEN => "",
        65_536..=MEDIUM_LEN => "medium",
        _ => "long",
    }
}

/// A FLOAT as MariaDB shows it: six significant digits at most.
pub fn format_float(v: f64) -> String {
    if v.is_finite() {
        crate::float_text::float_text(v)
    } else {
        format_double(v)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uuids_read_as_mariadb_reads_them() {
        let text = |s: &str| uuid_text(s.as_bytes()).map(|t| String::from_utf8(t).unwrap());
        let kept = Some("123e4567-e89b-12d3-a456-426655440000".to_string());
        assert_eq!(text("123E4567-E89B-12D3-A456-426655440000"), kept);
        assert_eq!(text("123e4567e89b12d3a456426655440000"), kept);
        assert_eq!(text("1-23e4567e89b12d3a4564266--55440000"), kept);
        assert_eq!(text("{123e4567-e89b-12d3-a456-426655440000}"), None);
        assert_eq!(text("-123e4567e89b12d3a456426655440000"), None);
        assert_eq!(text("123e4567e89b12d3a456426655440000-"), None);
        assert_eq!(text("123e4567e89b12d3a45642665544000"), None);
        assert_eq!(text("123e4567e89b12d3a4564266554400000"), None);
        assert_eq!(text("123e4567e89b12d3a45642665544000g"), None);
        assert_eq!(text(""), None);
    }

    #[test]
    fn years_binary_and_text_coerce_as_mariadb_does() {
        let y = |v: Value| DataType::Year.coerce(v, "y").map_err(|e| e.mysql_code());
        assert_eq!(y(Value::Int(24)), Ok(Value::Int(2024)));
        assert_eq!(y(Value::Int(70)), Ok(Value::Int(1970)));
        assert_eq!(y(Value::Int(0)), Ok(Value::Int(0)));
        assert_eq!(y(Value::str("0")), Ok(Value::Int(2000)));
        assert_eq!(y(Value::str("1999")), Ok(Value::Int(1999)));
        assert_eq!(y(Value::Int(1900)), Err(1264));
        assert_eq!(
            DataType::Binary(3).coerce(Value::str("g"), "b").unwrap(),
            Value::Bytes(b"g\0\0".to_vec())
        );
        assert_eq!(
            DataType::Text(TINY_LEN)
                .coerce(Value::str(&"x".repeat(256)), "t")
                .unwrap_err()
                .mysql_code(),
            1406
        );
        assert_eq!(
            DataType::Float.coerce(Value::str("0.1"), "f").unwrap(),
            Value::Double(0.1f32 as f64)
        );
    }

    #[test]
    fn lenient_coercion_clamps_cuts_and_reads_prefixes() {
        let lenient = |t: DataType, v: Value| {
            let (x, e) = t.coerce_lenient(v, "c").unwrap();
            (x, e.map(|e| e.mysql_code()))
        };
        let tiny = DataType::TinyInt { unsigned: false };
        assert_eq!(
            lenient(tiny, Value::Int(300)),
            (Value::Int(127), Some(1264))
        );
        assert_eq!(
            lenient(tiny, Value::Int(-300)),
            (Value::Int(-128), Some(1264))
        );
        assert_eq!(lenient(tiny, Value::Int(5)), (Value::Int(5), None));
        assert_eq!(
            lenient(DataType::VarChar(3), Value::str("abcdef")),
            (Value::str("abc"), Some(1406))
        );
        assert_eq!(
            lenient(DataType::Int { unsigned: false }, Value::str("12abc")),
            (Value::Int(12), Some(1366))
        );
        assert_eq!(
            lenient(DataType::Int { unsigned: false }, Value::str("abc")),
            (Value::Int(0), Some(1366))
        );
        assert_eq!(
            lenient(
                DataType::Decimal {
                    precision: 4,
                    scale: 2
                },
                Value::Int(1000)
            ),
            (Value::Decimal(Dec::new(9999, 2)), Some(1264))
        );
        // A wrong date is the zero date, truncated (MariaDB's 1265).
        let (zero, e) = DataType::Date
            .coerce_lenient(Value::str("nope"), "c")
            .unwrap();
        assert_eq!(zero, Value::Date(ZERO_DATE));
        assert_eq!(e.map(|e| e.mysql_code()), Some(1265));
    }

    #[test]
    fn dates_round_trip() {
        for s in [
            "1970-01-01",
            "1992-01-02",
            "1998-12-01",
            "2000-02-29",
            "1000-01-01",
            "9999-12-31",
        ] {
            assert_eq!(format_date(parse_date(s).unwrap()), s);
        }
        assert_eq!(parse_date("1970-01-01"), Some(0));
        assert_eq!(parse_date("1997-02-29"), None);
        assert_eq!(parse_date("19970131"), parse_date("1997-01-31"));
        assert_eq!(
            format_datetime(parse_datetime("2024-03-05 07:08:09").unwrap()),
            "2024-03-05 07:08:09"
        );
    }

    #[test]
    fn coercion_enforces_mysql_limits() {
        let t = DataType::TinyInt { unsigned: false };
        assert_eq!(t.coerce(Value::Int(127), "c").unwrap(), Value::Int(127));
        assert_eq!(
            t.coerce(Value::Int(128), "c").unwrap_err().mysql_code(),
            1264
        );
        let d = DataType::Decimal {
            precision: 15,
            scale: 2,
        };
        assert_eq!(
            d.coerce(Value::str("21168.23"), "c").unwrap(),
            Value::Decimal(Dec::new(2116823, 2))
        );
        assert_eq!(
            d.coerce(Value::str("1.005"), "c").unwrap(),
            Value::Decimal(Dec::new(101, 2))
        );
        assert_eq!(
            d.coerce(Value::str("1e14"), "c").unwrap_err().mysql_code(),
            1264
        );
        assert_eq!(
            DataType::VarChar(3)
                .coerce(Value::str("abcd"), "c")
                .unwrap_err()
                .mysql_code(),
            1406
        );
        assert_eq!(
            DataType::Char(3).coerce(Value::str("ab   "), "c").unwrap(),
            Value::str("ab")
        );
        assert_eq!(
            DataType::Int { unsigned: false }
                .coerce(Value::str("x1"), "c")
                .unwrap_err()
                .mysql_code(),
            1366
        );
        assert!(DataType::Decimal {
            precision: 66,
            scale: 2
        }
        .validate()
        .is_err());
    }
}
