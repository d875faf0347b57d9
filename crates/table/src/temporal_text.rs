//! Dates and datetimes read from text and numbers as MariaDB reads them
//! (its `str_to_datetime` and `number_to_datetime`):
//!
//! - delimited text: `Y-M-D[ h:m:s[.f]]`, any one punctuation character
//!   between two fields, one or more spaces or a `T` between the date and
//!   the time; a field's digits all read, then checked;
//! - digits alone (`YYYYMMDD`, `YYMMDDhhmmss`, `YYYYMMDDThhmmss`, …): two
//!   digits a field after the year, a year of four digits where there are
//!   4, 8 or at least 14 digits, else two;
//! - a year of one or two digits is 2000–2069 (00–69) or 1970–1999;
//! - what follows a valid date or datetime that is not one (`2020-01-01x`,
//!   a fourth time field) is cut off: the value is kept, and MariaDB
//!   warns ("Truncated incorrect …").
//!
//! Dates with a zero month or day but not all zero (`2020-00-15`) are not
//! read: they have no day since the epoch to be kept as.

use crate::calendar::{days_from_civil, days_in_month, MICROS_PER_DAY, ZERO_DATE};

/// How a text read as a date or datetime fits it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TextFit {
    /// The whole text is the value (trailing spaces aside).
    Whole,
    /// Digits of a second past the sixth were dropped (MariaDB's note).
    ExtraDigits,
    /// Text after the value was cut off (MariaDB's warning).
    Truncated,
}

/// A date or datetime read from text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TextTime {
    /// Microseconds since 1970-01-01 00:00:00 (the zero date's own for
    /// `0000-00-00`).
    pub micros: i64,
    /// Whether the text gave a time of day.
    pub has_time: bool,
    pub fit: TextFit,
}

/// The fields read so far: year, month, day, hour, minute, second.
struct Fields {
    values: [u32; 6],
    count: usize,
    /// Digits the year was written with.
    year_digits: usize,
    micros: u32,
    fit: TextFit,
}

/// Reads `text` as a date or datetime; None where it is none (its date
/// not valid, a field out of range, too few fields).
pub fn read_datetime(text: &str) -> Option<TextTime> {
    let fields = read_fields(text.trim_start_matches([' ', '\t', '\n', '\r']))?;
    fields.time()
}

fn read_fields(s: &str) -> Option<Fields> {
    let b = s.strip_prefix('+').unwrap_or(s).as_bytes();
    // Digits (a `T` among them) up to the end, or more of them than a
    // year has: MariaDB's internal format, fields by position.
    let run = b
        .iter()
        .take_while(|&&c| c.is_ascii_digit() || c == b'T')
        .count();
    if run > 4 || (run > 0 && run == b.len()) {
        return compact(b, run);
    }
    delimited(b)
}

fn is_space(c: u8) -> bool {
    matches!(c, b' ' | b'\t' | b'\n' | b'\r')
}

/// `YYYYMMDDhhmmss[.f]` and its shorter forms.
fn compact(b: &[u8], run: usize) -> Option<Fields> {
    let digits: Vec<u8> = b[..run].iter().copied().filter(|c| *c != b'T').collect();
    let n = digits.len();
    let year_digits = if n == 4 || n == 8 || n >= 14 { 4 } else { 2 };
    let mut f = Fields::new(year_digits);
    let mut at = 0;
    while f.count < 6 && at < n {
        let width = if f.count == 0 { year_digits } else { 2 };
        let end = (at + width).min(n);
        f.push(number(&digits[at..end])?);
        at = end;
    }
    if at < n {
        f.fit = TextFit::Truncated;
    }
    let rest = &b[run..];
    let after_spaces = rest.iter().find(|&&c| !is_space(c));
    match rest.first() {
        None => {}
        Some(b'.') if f.count == 6 => f.fraction(&rest[1..]),
        // A fraction of no whole time, and digits after spaces (a time
        // apart from a compact date): no value.
        Some(b'.') => return None,
        Some(_) if after_spaces.is_some_and(u8::is_ascii_digit) => return None,
        Some(_) => f.rest(rest),
    }
    Some(f)
}

/// `Y-M-D[ h:m:s[.f]]` with any punctuation as the delimiter.
fn delimited(b: &[u8]) -> Option<Fields> {
    let mut at = 0;
    let year_digits = b.iter().take_while(|c| c.is_ascii_digit()).count();
    let mut f = Fields::new(year_digits);
    loop {
        let start = at;
        while at < b.len() && b[at].is_ascii_digit() {
            at += 1;
        }
        if at == start {
            // A delimiter not followed by a field: the value ends before it.
            f.fit = TextFit::Truncated;
            return Some(f);
        }
        f.push(number(&b[start..at])?);
        if at == b.len() {
            return Some(f);
        }
        let c = b[at];
        match f.count {
            // After the day: spaces or a 'T', then the time.
            3 if is_space(c) || c == b'T' => {
                let after = at + 1;
                let mut next = after;
                if is_space(c) {
                    while next < b.len() && is_space(b[next]) {
                        next += 1;
                    }
                }
                if next == b.len() {
                    return Some(f);
                }
                if !b[next].is_ascii_digit() {
                    f.fit = TextFit::Truncated;
                    return Some(f);
                }
                at = next;
            }
            6 if c == b'.' => {
                f.fraction(&b[at + 1..]);
                return Some(f);
            }
            6 => {
                f.rest(&b[at..]);
                return Some(f);
            }
            _ if c.is_ascii_punctuation() => at += 1,
            _ => {
                f.rest(&b[at..]);
                return Some(f);
            }
        }
    }
}

/// The number of a field's digits; None past what any field can hold.
fn number(digits: &[u8]) -> Option<u32> {
    let significant = digits.iter().skip_while(|&&c| c == b'0').count();
    if significant > 6 {
        return None;
    }
    Some(
        digits
            .iter()
            .fold(0u32, |n, &c| n * 10 + u32::from(c - b'0')),
    )
}

impl Fields {
    fn new(year_digits: usize) -> Fields {
        Fields {
            values: [0; 6],
            count: 0,
            year_digits,
            micros: 0,
            fit: TextFit::Whole,
        }
    }

    fn push(&mut self, v: u32) {
        self.values[self.count] = v;
        self.count += 1;
    }

    /// Digits of a second after the '.', then the rest.
    fn fraction(&mut self, b: &[u8]) {
        let n = b.iter().take_while(|c| c.is_ascii_digit()).count();
        let kept = n.min(6);
        let mut micros = 0u32;
        for &c in &b[..kept] {
            micros = micros * 10 + u32::from(c - b'0');
        }
        self.micros = micros * 10u32.pow(6 - kept as u32);
        if n > 6 {
            self.fit = TextFit::ExtraDigits;
        }
        self.rest(&b[n..]);
    }

    /// What follows the value: spaces, or something cut off.
    fn rest(&mut self, b: &[u8]) {
        if !b.iter().all(|&c| is_space(c)) {
            self.fit = TextFit::Truncated;
        }
    }

    fn time(&self) -> Option<TextTime> {
        if self.count < 3 {
            return None;
        }
        let [mut year, month, day, hour, minute, second] = self.values;
        let zero = (year, month, day) == (0, 0, 0);
        if self.year_digits == 2 && !zero {
            year += if year < 70 { 2000 } else { 1900 };
        }
        if year > 9999 || hour > 23 || minute > 59 || second > 59 {
            return None;
        }
        let days = if zero {
            ZERO_DATE
        } else if (1..=12).contains(&month) && day >= 1 && day <= days_in_month(year as i32, month)
        {
            days_from_civil(year as i32, month, day)
        } else {
            return None;
        };
        let time = ((i64::from(hour) * 60 + i64::from(minute)) * 60 + i64::from(second))
            * 1_000_000
            + i64::from(self.micros);
        Some(TextTime {
            micros: i64::from(days) * MICROS_PER_DAY + time,
            has_time: self.count > 3,
            fit: self.fit,
        })
    }
}

/// A number read as a date or datetime, as MariaDB reads one: YYYYMMDD or
/// YYMMDD up to 8 digits, YYYYMMDDhhmmss or YYMMDDhhmmss past them (a
/// two-digit year 00–69 is 2000–2069); 0 is the zero date. A date's
/// fraction (`20200101.5`) is cut off. None where it is no valid date.
pub fn datetime_from_number(n: i64, micros: u32) -> Option<TextTime> {
    const YY_SPLIT: i64 = 70;
    if n == 0 && micros == 0 {
        return Some(TextTime {
            micros: i64::from(ZERO_DATE) * MICROS_PER_DAY,
            has_time: false,
            fit: TextFit::Whole,
        });
    }
    let (full, has_time) = if n <= 99_991_231 {
        let date = match n {
            n if n < 101 => return None,
            n if n <= (YY_SPLIT - 1) * 10_000 + 1231 => n + 20_000_000,
            n if n < YY_SPLIT * 10_000 + 101 => return None,
            n if n <= 991_231 => n + 19_000_000,
            n if n < 10_000_101 => return None,
            n => n,
        };
        (date * 1_000_000, false)
    } else {
        let full = match n {
            n if n < 101_000_000 => return None,
            n if n <= (YY_SPLIT - 1) * 10_000_000_000 + 1_231_235_959 => n + 20_000_000_000_000,
            n if n < YY_SPLIT * 10_000_000_000 + 101_000_000 => return None,
            n if n <= 991_231_235_959 => n + 19_000_000_000_000,
            n if n < 10_000_101_000_000 => return None,
            n if n <= 99_991_231_235_959 => n,
            _ => return None,
        };
        (full, true)
    };
    // A date's number has no digits of a second: a fraction is cut off.
    let (micros, fit) = match (has_time, micros) {
        (false, 1..) => (0, TextFit::Truncated),
        _ => (micros, TextFit::Whole),
    };
    let field = |div: i64, modulo: i64| (full / div % modulo) as u32;
    let f = Fields {
        values: [
            (full / 10_000_000_000) as u32,
            field(100_000_000, 100),
            field(1_000_000, 100),
            field(10_000, 100),
            field(100, 100),
            field(1, 100),
        ],
        count: if has_time { 6 } else { 3 },
        year_digits: 4,
        micros,
        fit,
    };
    f.time()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::calendar::civil_from_days;

    /// `YYYY-MM-DD hh:mm:ss[.ffffff]`.
    fn format_datetime(micros: i64) -> String {
        let (y, m, d) = civil_from_days(micros.div_euclid(MICROS_PER_DAY) as i32);
        let t = micros.rem_euclid(MICROS_PER_DAY);
        let (s, f) = (t / 1_000_000, t % 1_000_000);
        let clock = format!("{:02}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60);
        match f {
            0 => format!("{y:04}-{m:02}-{d:02} {clock}"),
            f => format!("{y:04}-{m:02}-{d:02} {clock}.{f:06}"),
        }
    }

    fn shown(text: &str) -> Option<(String, TextFit)> {
        read_datetime(text).map(|t| (format_datetime(t.micros), t.fit))
    }

    /// Readings MariaDB 10.11 gives `CAST(text AS DATETIME(6))` (checked
    /// against it; `tests/types.rs` compares the two servers).
    #[test]
    fn texts_read_as_mariadb_reads_them() {
        use TextFit::*;
        for (text, want, fit) in [
            ("2020-01-01", "2020-01-01 00:00:00", Whole),
            ("20-01-01", "2020-01-01 00:00:00", Whole),
            ("99-12-31", "1999-12-31 00:00:00", Whole),
            ("69-12-31", "2069-12-31 00:00:00", Whole),
            ("70-01-01", "1970-01-01 00:00:00", Whole),
            ("020-01-01", "0020-01-01 00:00:00", Whole),
            ("1-1-1", "0001-01-01 00:00:00", Whole),
            ("5-1-1", "0005-01-01 00:00:00", Whole),
            ("20-1-1", "2020-01-01 00:00:00", Whole),
            ("20200101x", "2020-01-01 00:00:00", Truncated),
            ("20200101 x", "2020-01-01 00:00:00", Truncated),
            ("20200101103000 x", "2020-01-01 10:30:00", Truncated),
            ("20200101103000.5x", "2020-01-01 10:30:00.500000", Truncated),
            (
                "2020-1-1 1:2:3.1234567x",
                "2020-01-01 01:02:03.123456",
                Truncated,
            ),
            ("2020/01/01 10.00.00", "2020-01-01 10:00:00", Whole),
            ("2020@01@01 10^20^30", "2020-01-01 10:20:30", Whole),
            ("2020-01-01-10-00-00", "2020-01-01 10:00:00", Whole),
            ("2020-01-01.5", "2020-01-01 05:00:00", Whole),
            ("2020-01-01 10.5", "2020-01-01 10:05:00", Whole),
            ("20200101", "2020-01-01 00:00:00", Whole),
            ("200101", "2020-01-01 00:00:00", Whole),
            ("20200101103000", "2020-01-01 10:30:00", Whole),
            ("200101103000", "2020-01-01 10:30:00", Whole),
            ("2001011030", "2020-01-01 10:30:00", Whole),
            ("20010110", "2001-01-10 00:00:00", Whole),
            ("20200101T103000", "2020-01-01 10:30:00", Whole),
            ("20200101103000.5", "2020-01-01 10:30:00.500000", Whole),
            ("20200101103000123", "2020-01-01 10:30:00", Truncated),
            (
                "2020-01-01 10:00:00.1234567",
                "2020-01-01 10:00:00.123456",
                ExtraDigits,
            ),
            ("2020-01-01T10:00:00", "2020-01-01 10:00:00", Whole),
            ("2020-01-01 10", "2020-01-01 10:00:00", Whole),
            ("  2020-01-01  ", "2020-01-01 00:00:00", Whole),
            ("2020-01-01  10:00:00", "2020-01-01 10:00:00", Whole),
            ("2020-01-01T", "2020-01-01 00:00:00", Whole),
            ("2020-01-01 10:00:00.", "2020-01-01 10:00:00", Whole),
            ("+2020-01-01", "2020-01-01 00:00:00", Whole),
            ("2020-001-01", "2020-01-01 00:00:00", Whole),
            ("2020-01-01 0010:00", "2020-01-01 10:00:00", Whole),
            ("0000-01-01", "0000-01-01 00:00:00", Whole),
            ("0000-00-00", "0000-00-00 00:00:00", Whole),
            ("00000000", "0000-00-00 00:00:00", Whole),
            ("000000", "0000-00-00 00:00:00", Whole),
            ("2020.01.01", "2020-01-01 00:00:00", Whole),
            ("2020-01-01x", "2020-01-01 00:00:00", Truncated),
            ("2020-01-01 10:00:00x", "2020-01-01 10:00:00", Truncated),
            ("2020-01-01 10::00", "2020-01-01 10:00:00", Truncated),
            ("2020-01-01 10:00:00:00", "2020-01-01 10:00:00", Truncated),
            ("2020-01-01 10:00:00 PM", "2020-01-01 10:00:00", Truncated),
            ("2020-01-01--10:00:00", "2020-01-01 00:00:00", Truncated),
            ("2020-01-01 -10:00", "2020-01-01 00:00:00", Truncated),
            ("2020-01-01  T10:00", "2020-01-01 00:00:00", Truncated),
            (
                "9999-12-31 23:59:59.999999",
                "9999-12-31 23:59:59.999999",
                Whole,
            ),
        ] {
            assert_eq!(shown(text), Some((want.to_string(), fit)), "{text}");
        }
        for text in [
            "2020--01--01",
            "2020 01 01",
            "2020-01-0110:00:00",
            "20200101 103000",
            "2020-01-01 103000",
            "2020-01-01 24:00:00",
            "2020-01-01 23:60:00",
            "2020-01-01 100",
            "2020-13-01",
            "2019-02-29",
            "2020-01",
            "2020",
            "12",
            "123456",
            "1234567",
            "2020010110",
            "202001011030",
            "10000-01-01",
            "-2020-01-01",
            "20200101.5",
            "2020010110.5",
            "2020-00-15",
            "",
        ] {
            assert_eq!(shown(text), None, "{text}");
        }
    }

    #[test]
    fn numbers_read_as_mariadb_reads_them() {
        let shown = |n: i64| datetime_from_number(n, 0).map(|t| format_datetime(t.micros));
        assert_eq!(shown(20200101).as_deref(), Some("2020-01-01 00:00:00"));
        assert_eq!(shown(200101).as_deref(), Some("2020-01-01 00:00:00"));
        assert_eq!(shown(991231).as_deref(), Some("1999-12-31 00:00:00"));
        assert_eq!(
            shown(20200101103000).as_deref(),
            Some("2020-01-01 10:30:00")
        );
        assert_eq!(shown(200101103000).as_deref(), Some("2020-01-01 10:30:00"));
        assert_eq!(shown(0).as_deref(), Some("0000-00-00 00:00:00"));
        for n in [
            100,
            20201301,
            800000,
            2020010110,
            99991231235960,
            100_000_000_000_000,
        ] {
            assert_eq!(shown(n), None, "{n}");
        }
    }
}
