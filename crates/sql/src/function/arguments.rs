//! Arguments as the functions read them: in numeric, text, date and time
//! context, converted as MariaDB converts them.
use crate::expr::warnings;
use lineardb_table::temporal_text::{read_datetime, TextFit, TextTime};
use lineardb_table::types::{
    civil_from_days, parse_time, temporal_of_number, time_from_number, MICROS_PER_DAY, ZERO_DATE,
};
use lineardb_table::Value;

/// What a string is read as in numeric context; MariaDB's warning for
/// text that is not wholly a number names it ("Truncated incorrect DOUBLE
/// value").
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum NumberReading {
    Double,
    Decimal,
    /// Its integer prefix only ('2.7' is 2, '1e3' is 1).
    Integer,
}

impl NumberReading {
    fn word(self) -> &'static str {
        match self {
            NumberReading::Double => "DOUBLE",
            NumberReading::Decimal => "DECIMAL",
            NumberReading::Integer => "INTEGER",
        }
    }
}

/// A value in numeric context (strings are parsed as MySQL does: the
/// longest numeric prefix, 0 if none, with MariaDB's warning 1292 for
/// what follows it).
pub(crate) fn numeric(v: &Value) -> Value {
    numeric_read_as(v, NumberReading::Double)
}

/// [`numeric`], a string read as `reading` says.
pub(crate) fn numeric_read_as(v: &Value, reading: NumberReading) -> Value {
    match v {
        Value::Bytes(b) => {
            let s = String::from_utf8_lossy(b);
            let t = read_number_prefix(&s, b, reading);
            if t.is_empty() {
                return Value::Int(0);
            }
            if let Ok(i) = t.parse::<i64>() {
                Value::Int(i)
            } else if reading == NumberReading::Integer {
                match t.parse::<u64>() {
                    Ok(u) => Value::UInt(u),
                    Err(_) if t.starts_with('-') => Value::Int(i64::MIN),
                    Err(_) => Value::UInt(u64::MAX),
                }
            } else {
                Value::Double(t.parse::<f64>().unwrap_or(0.0))
            }
        }
        Value::Date(d) => {
            let (y, m, dd) = civil_from_days(*d);
            Value::Int(y as i64 * 10000 + m as i64 * 100 + dd as i64)
        }
        // YYYYMMDDhhmmss, with six digits of fraction when it has one.
        Value::DateTime(t) => {
            let (y, m, dd) = civil_from_days(t.div_euclid(MICROS_PER_DAY) as i32);
            let clock = t.rem_euclid(MICROS_PER_DAY);
            let seconds = clock / 1_000_000;
            let whole = ((y as i64 * 10000 + m as i64 * 100 + dd as i64) * 100 + seconds / 3600)
                * 10000
                + seconds / 60 % 60 * 100
                + seconds % 60;
            match clock % 1_000_000 {
                0 => Value::Int(whole),
                fraction => Value::Decimal(lineardb_table::types::Dec::new(
                    whole as i128 * 1_000_000 + fraction as i128,
                    6,
                )),
            }
        }
        // [-]hhmmss, with six digits of fraction when it has one (a
        // TIME(fsp) column gives fsp digits in MariaDB).
        Value::Time(t) => match lineardb_table::types::time_digits(*t) {
            n if n % 1_000_000 == 0 => Value::Int((n / 1_000_000) as i64),
            n => Value::Decimal(lineardb_table::types::Dec::new(n, 6)),
        },
        other => other.clone(),
    }
}
/// The number a text starts with, after leading spaces ('12e', '12abc'
/// and '12.' start with 12, '1e5x' with 1e5); empty when it starts with
/// none.
pub(crate) fn number_prefix(text: &str) -> &str {
    let t = text.trim_start();
    let b = t.as_bytes();
    let digits = |mut i: usize| {
        while b.get(i).is_some_and(u8::is_ascii_digit) {
            i += 1;
        }
        i
    };
    let start = usize::from(matches!(b.first(), Some(b'-' | b'+')));
    let whole_end = digits(start);
    let mut end = whole_end;
    if b.get(end) == Some(&b'.') {
        end = digits(end + 1);
    }
    if whole_end == start && end <= whole_end + 1 {
        return "";
    }
    if matches!(b.get(end), Some(b'e' | b'E')) {
        let sign = usize::from(matches!(b.get(end + 1), Some(b'-' | b'+')));
        let exponent_end = digits(end + 1 + sign);
        if exponent_end > end + 1 + sign {
            end = exponent_end;
        }
    }
    &t[..end]
}

/// The number `text` (whose bytes are `original`) starts with, as
/// `reading` reads it, after leading spaces; MariaDB's warning 1292 for
/// text that is not wholly a number (a note when spaces alone follow it).
pub(crate) fn read_number_prefix<'t>(
    text: &'t str,
    original: &[u8],
    reading: NumberReading,
) -> &'t str {
    let trimmed = text.trim_start();
    let t = match reading {
        NumberReading::Integer => integer_prefix(trimmed),
        _ => number_prefix(trimmed),
    };
    let rest = &trimmed[t.len()..];
    if t.is_empty() || !rest.is_empty() {
        let only_spaces = !t.is_empty() && rest.trim().is_empty();
        crate::expr::warnings::truncated_number(reading.word(), original, only_spaces);
    }
    t
}

/// The integer a text starts with (`[+-]digits`, after leading spaces);
/// empty when it starts with none.
fn integer_prefix(text: &str) -> &str {
    let t = text.trim_start();
    let b = t.as_bytes();
    let start = usize::from(matches!(b.first(), Some(b'-' | b'+')));
    let end = start + b[start..].iter().take_while(|c| c.is_ascii_digit()).count();
    if end == start {
        return "";
    }
    &t[..end]
}

/// A value as an integer (numeric context, rounded; a string's integer
/// prefix); None for NULL.
pub(crate) fn int_of(v: &Value) -> Option<i64> {
    match numeric_read_as(v, NumberReading::Integer) {
        Value::Int(i) => Some(i),
        Value::UInt(u) => Some(u as i64),
        Value::Decimal(d) => Some(match d.round_to_i128() {
            Some(n) => n.clamp(i64::MIN as i128, i64::MAX as i128) as i64,
            None if d.is_negative() => i64::MIN,
            None => i64::MAX,
        }),
        Value::Double(f) => Some(f.round() as i64),
        _ => None,
    }
}

/// A value as a float (numeric context); None for NULL.
pub(crate) fn float_of(v: &Value) -> Option<f64> {
    numeric(v).as_f64()
}

/// A value as text (numbers and dates as the text protocol shows them);
/// None for NULL.
pub(crate) fn text_of(v: &Value) -> Option<String> {
    v.to_text()
}

/// A value's bytes (text as UTF-8); None for NULL.
pub(crate) fn bytes_of(v: &Value) -> Option<Vec<u8>> {
    match v {
        Value::Null => None,
        Value::Bytes(b) => Some(b.clone()),
        other => other.to_text().map(String::into_bytes),
    }
}

/// A value as a point in time, microseconds since 1970-01-01: a DATE, a
/// DATETIME, text `YYYY-MM-DD[ hh:mm:ss[.f]]`, or a number YYYYMMDD or
/// YYYYMMDDhhmmss. None for NULL, what is not a date and the zero date
/// (no point in time: MariaDB's functions give NULL for it).
pub(crate) fn datetime_of(v: &Value) -> Option<i64> {
    datetime_or_zero(v).filter(|t| t.div_euclid(MICROS_PER_DAY) != ZERO_DATE as i64)
}

/// [`datetime_of`], the zero date as a time of its own day (from
/// [`ZERO_DATETIME`](lineardb_table::types::ZERO_DATETIME)).
pub(crate) fn datetime_or_zero(v: &Value) -> Option<i64> {
    match v {
        Value::Date(d) => Some(*d as i64 * MICROS_PER_DAY),
        Value::DateTime(t) => Some(*t),
        // A TIME is not a point in time (MariaDB adds it to today).
        Value::Null | Value::Time(_) => None,
        other => read_temporal(other).map(|t| t.micros),
    }
}

/// Text or a number read as a date or datetime where one is wanted, as
/// MariaDB reads it: with its warning 1292 for what is no date
/// ("Incorrect datetime value"), for text after a date, which is cut off
/// (the date kept), and a note for digits of a second past the sixth.
pub(crate) fn read_temporal(v: &Value) -> Option<TextTime> {
    let read = match v {
        Value::Bytes(b) => {
            let text = String::from_utf8_lossy(b);
            let read = read_datetime(&text);
            if let Some(t) = read {
                let word = if t.has_time { "datetime" } else { "date" };
                let note = match t.fit {
                    TextFit::Whole => None,
                    TextFit::ExtraDigits => Some(warnings::TRUNCATED | warnings::NOTE_LEVEL),
                    TextFit::Truncated => Some(warnings::TRUNCATED),
                };
                if let Some(code) = note {
                    warnings::raise(code, &format!("Truncated incorrect {word} value: '{text}'"));
                }
            }
            read
        }
        Value::Int(_) | Value::UInt(_) | Value::Decimal(_) | Value::Double(_) => {
            let read = temporal_of_number(v);
            if read.is_some_and(|t| t.fit == TextFit::Truncated) {
                let shown = v.to_text().unwrap_or_default();
                warnings::raise(
                    warnings::TRUNCATED | warnings::NOTE_LEVEL,
                    &format!("Truncated incorrect date value: '{shown}'"),
                );
            }
            read
        }
        Value::Date(d) => Some(TextTime {
            micros: *d as i64 * MICROS_PER_DAY,
            has_time: false,
            fit: TextFit::Whole,
        }),
        Value::DateTime(t) => Some(TextTime {
            micros: *t,
            has_time: true,
            fit: TextFit::Whole,
        }),
        Value::Null | Value::Time(_) => return None,
    };
    if read.is_none() {
        warnings::incorrect_datetime(&v.to_text().unwrap_or_default());
    }
    read
}

/// Days since 1970-01-01 of a value read as a date.
pub(crate) fn days_of(v: &Value) -> Option<i64> {
    datetime_of(v).map(|t| t.div_euclid(MICROS_PER_DAY))
}

/// (year, month, day) of a value read as a date; (0, 0, 0) for the zero
/// date.
pub(crate) fn civil_of(v: &Value) -> Option<(i32, u32, u32)> {
    datetime_or_zero(v).map(|t| civil_from_days(t.div_euclid(MICROS_PER_DAY) as i32))
}

/// A value as a TIME, signed microseconds (hours may pass 24): a TIME,
/// text `[-][D ]hh:mm[:ss[.f]]`, `hhmmss`, the time of day of a DATETIME
/// or of text that is one, a number hhmmss. None for NULL and what is not
/// one.
pub(crate) fn time_of(v: &Value) -> Option<i64> {
    match v {
        Value::Time(t) => Some(*t),
        Value::DateTime(t) => Some(t.rem_euclid(MICROS_PER_DAY)),
        Value::Date(_) => Some(0),
        Value::Bytes(b) => parse_time(std::str::from_utf8(b).ok()?),
        Value::Null => None,
        other => time_from_number(float_of(other)?),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn number_prefixes_as_mariadb_reads_them() {
        for (text, prefix) in [
            ("12abc", "12"),
            ("  -1.5e3x", "-1.5e3"),
            ("12e", "12"),
            ("12e+", "12"),
            ("1.", "1."),
            (".5", ".5"),
            (".", ""),
            ("-", ""),
            ("abc", ""),
            ("+7", "+7"),
            ("3e-2", "3e-2"),
        ] {
            assert_eq!(number_prefix(text), prefix, "{text}");
        }
    }
}
