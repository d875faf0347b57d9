//! Date and time functions. Arguments are read as dates, datetimes or
//! times as MariaDB reads them (text, numbers, DATE, DATETIME); what is
//! not one gives NULL. TIME results are TIME values (their fraction shown
//! with six digits when there is one).
use super::arguments::{
    civil_of, datetime_of, datetime_or_zero, days_of, float_of, int_of, text_of, time_of,
};
use super::kinds::{date, datetime, int, text, time};
use super::Builtin;
use crate::error::Result;
use crate::expr::clock;
use crate::result::ColumnKind;
use lineardb_table::types::{civil_from_days, days_from_civil, MICROS_PER_DAY};
use lineardb_table::Value;

pub(super) const FUNCTIONS: &[Builtin] = &[
    Builtin::new(&["DATE"], (1, 1), date, date_of),
    Builtin::new(&["CONVERT_TZ"], (3, 3), datetime, convert_tz),
    Builtin::new(&["TIME"], (1, 1), time_part_kind, time_part),
    Builtin::new(&["HOUR"], (1, 1), int, hour),
    Builtin::new(&["MINUTE"], (1, 1), int, minute),
    Builtin::new(&["SECOND"], (1, 1), int, second),
    Builtin::new(&["MICROSECOND"], (1, 1), int, microsecond),
    Builtin::new(&["DAYNAME"], (1, 1), text, dayname),
    Builtin::new(&["MONTHNAME"], (1, 1), text, monthname),
    Builtin::new(&["DAYOFWEEK"], (1, 1), int, dayofweek),
    Builtin::new(&["WEEKDAY"], (1, 1), int, weekday),
    Builtin::new(&["DAYOFYEAR"], (1, 1), int, dayofyear),
    Builtin::new(&["QUARTER"], (1, 1), int, quarter),
    Builtin::new(&["WEEK"], (1, 2), int, week),
    Builtin::new(&["WEEKOFYEAR"], (1, 1), int, weekofyear),
    Builtin::new(&["YEARWEEK"], (1, 2), int, yearweek),
    Builtin::new(&["DATEDIFF"], (2, 2), int, datediff),
    Builtin::new(&["LAST_DAY"], (1, 1), date, last_day),
    Builtin::new(&["MAKEDATE"], (2, 2), date, makedate),
    Builtin::new(&["MAKETIME"], (3, 3), time, maketime),
    Builtin::new(&["TO_DAYS"], (1, 1), int, to_days),
    Builtin::new(&["FROM_DAYS"], (1, 1), date, from_days),
    Builtin::new(&["TO_SECONDS"], (1, 1), int, to_seconds),
    Builtin::new(&["DATE_FORMAT"], (2, 3), text, date_format),
    Builtin::new(&["STR_TO_DATE"], (2, 2), datetime, str_to_date),
    Builtin::new(
        &["FROM_UNIXTIME"],
        (1, 2),
        from_unixtime_kind,
        from_unixtime,
    ),
    // UNIX_TIMESTAMP() without an argument is the statement's time (the
    // binder's); with one, that datetime's.
    Builtin::new(&["UNIX_TIMESTAMP"], (1, 1), int, unix_timestamp),
    Builtin::new(&["TIMEDIFF"], (2, 2), time, timediff),
    Builtin::new(&["ADDTIME"], (2, 2), shifted_time_kind, addtime),
    Builtin::new(&["SUBTIME"], (2, 2), shifted_time_kind, subtime),
    Builtin::new(&["SEC_TO_TIME"], (1, 1), time, sec_to_time),
    Builtin::new(&["TIME_TO_SEC"], (1, 1), int, time_to_sec),
    Builtin::new(&["PERIOD_ADD"], (2, 2), int, period_add),
    Builtin::new(&["PERIOD_DIFF"], (2, 2), int, period_diff),
    Builtin::new(&["TIMESTAMPDIFF"], (3, 3), int, timestampdiff),
    Builtin::new(&["TIMESTAMPADD"], (3, 3), datetime, timestampadd),
];

const DAY_NAMES: [&str; 7] = [
    "Monday",
    "Tuesday",
    "Wednesday",
    "Thursday",
    "Friday",
    "Saturday",
    "Sunday",
];
const MONTH_NAMES: [&str; 12] = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
];

/// Days from year 0 (TO_DAYS) of 1970-01-01.
const TO_DAYS_EPOCH: i64 = 719_528;

fn or_null<T>(v: Option<T>, f: impl FnOnce(T) -> Value) -> Value {
    v.map_or(Value::Null, f)
}

/// DATE(x): the zero date stays one.
fn date_of(a: &[Value]) -> Result<Value> {
    Ok(or_null(datetime_or_zero(&a[0]), |t| {
        Value::Date(t.div_euclid(MICROS_PER_DAY) as i32)
    }))
}

/// TIME(x) of a string is text with the string's fractional digits
/// (MariaDB gives the result the literal's precision); of other values, a
/// TIME.
fn time_part_kind(args: &[ColumnKind]) -> ColumnKind {
    match args.first() {
        Some(ColumnKind::Text(_)) => ColumnKind::TEXT,
        _ => ColumnKind::Time,
    }
}

/// TIME(x): x's time of day, or x as a duration.
fn time_part(a: &[Value]) -> Result<Value> {
    let Value::Bytes(b) = &a[0] else {
        return Ok(or_null(time_of(&a[0]), clamp_time));
    };
    let digits = std::str::from_utf8(b)
        .ok()
        .and_then(|s| s.trim().split_once('.'))
        .map_or(0, |(_, f)| f.len().min(6) as u8);
    Ok(or_null(time_of(&a[0]), |t| match clamp_time(t) {
        Value::Time(t) => Value::str(&lineardb_table::types::format_time_digits(t, digits)),
        other => other,
    }))
}

fn hour(a: &[Value]) -> Result<Value> {
    Ok(or_null(time_of(&a[0]), |t| {
        Value::Int(t.abs() / 3_600_000_000)
    }))
}

/// EXTRACT(unit FROM x) of a time unit (the unit's name first): as HOUR()
/// and the others, but within a day and signed as a TIME is (`EXTRACT(HOUR
/// FROM '-100:00:00')` is -4 where HOUR() is 100), as MariaDB's.
pub(crate) static EXTRACT_TIME_PART: Builtin =
    Builtin::new(&["EXTRACT"], (2, 2), int, extract_time_part);

fn extract_time_part(a: &[Value]) -> Result<Value> {
    let unit = a[0].to_text().unwrap_or_default();
    Ok(or_null(time_of(&a[1]), |t| {
        let part = match unit.as_str() {
            "HOUR" => t.abs() / 3_600_000_000 % 24,
            "MINUTE" => t.abs() / 60_000_000 % 60,
            "SECOND" => t.abs() / 1_000_000 % 60,
            _ => t.abs() % 1_000_000,
        };
        Value::Int(if t < 0 { -part } else { part })
    }))
}

fn minute(a: &[Value]) -> Result<Value> {
    Ok(or_null(time_of(&a[0]), |t| {
        Value::Int(t.abs() / 60_000_000 % 60)
    }))
}

fn second(a: &[Value]) -> Result<Value> {
    Ok(or_null(time_of(&a[0]), |t| {
        Value::Int(t.abs() / 1_000_000 % 60)
    }))
}

fn microsecond(a: &[Value]) -> Result<Value> {
    Ok(or_null(time_of(&a[0]), |t| Value::Int(t.abs() % 1_000_000)))
}

/// 0 = Monday … 6 = Sunday.
fn weekday_of(days: i64) -> usize {
    (days + 3).rem_euclid(7) as usize
}

fn dayname(a: &[Value]) -> Result<Value> {
    Ok(or_null(days_of(&a[0]), |d| {
        Value::str(DAY_NAMES[weekday_of(d)])
    }))
}

fn monthname(a: &[Value]) -> Result<Value> {
    // The zero date has no month's name.
    Ok(or_null(
        civil_of(&a[0]).filter(|&(_, m, _)| m != 0),
        |(_, m, _)| Value::str(MONTH_NAMES[m as usize - 1]),
    ))
}

fn dayofweek(a: &[Value]) -> Result<Value> {
    Ok(or_null(days_of(&a[0]), |d| {
        Value::Int((weekday_of(d) as i64 + 1) % 7 + 1)
    }))
}

fn weekday(a: &[Value]) -> Result<Value> {
    Ok(or_null(
        days_of(&a[0]),
        |d| Value::Int(weekday_of(d) as i64),
    ))
}

fn day_of_year(days: i64) -> i64 {
    let (y, _, _) = civil_from_days(days as i32);
    days - days_from_civil(y, 1, 1) as i64 + 1
}

fn dayofyear(a: &[Value]) -> Result<Value> {
    Ok(or_null(days_of(&a[0]), |d| Value::Int(day_of_year(d))))
}

fn quarter(a: &[Value]) -> Result<Value> {
    // The zero date's quarter is 0.
    Ok(or_null(civil_of(&a[0]), |(_, m, _)| {
        Value::Int((m as i64 + 2) / 3)
    }))
}

fn days_in_year(y: i32) -> i64 {
    if (y % 4 == 0 && y % 100 != 0) || y % 400 == 0 {
        366
    } else {
        365
    }
}

const MONDAY_FIRST: u32 = 1;
const WEEK_YEAR: u32 = 2;
const FIRST_WEEKDAY: u32 = 4;
/// %V and %X: weeks from Sunday, of the year they mostly lie in.
const SUNDAY_YEAR: u32 = WEEK_YEAR | FIRST_WEEKDAY;
/// %v and %x: ISO weeks.
const MONDAY_YEAR: u32 = WEEK_YEAR | MONDAY_FIRST;

/// WEEK's mode as the week calculation's flags.
fn week_flags(mode: i64) -> u32 {
    let mut m = (mode & 7) as u32;
    if m & MONDAY_FIRST == 0 {
        m ^= FIRST_WEEKDAY;
    }
    m
}

/// MariaDB's week number of `days` under `flags`, and the year it is a
/// week of.
fn calc_week(days: i64, flags: u32) -> (i64, i32) {
    let monday_first = flags & MONDAY_FIRST != 0;
    let mut week_year = flags & WEEK_YEAR != 0;
    let first_weekday = flags & FIRST_WEEKDAY != 0;
    let (y, m, d) = civil_from_days(days as i32);
    let daynr = days;
    let mut first_daynr = days_from_civil(y, 1, 1) as i64;
    // 0 = the first day of the week.
    let weekday_at = |n: i64| (n + TO_DAYS_EPOCH + 5 + i64::from(!monday_first)).rem_euclid(7);
    let mut weekday = weekday_at(first_daynr);
    let mut year = y;
    if m == 1 && (d as i64) <= 7 - weekday {
        if !week_year && ((first_weekday && weekday != 0) || (!first_weekday && weekday >= 4)) {
            return (0, year);
        }
        week_year = true;
        year -= 1;
        let n = days_in_year(year);
        first_daynr -= n;
        weekday = (weekday + 53 * 7 - n).rem_euclid(7);
    }
    let span = if (first_weekday && weekday != 0) || (!first_weekday && weekday >= 4) {
        daynr - (first_daynr + (7 - weekday))
    } else {
        daynr - (first_daynr - weekday)
    };
    if week_year && span >= 52 * 7 {
        let next = (weekday + days_in_year(year)).rem_euclid(7);
        if (!first_weekday && next < 4) || (first_weekday && next == 0) {
            return (1, year + 1);
        }
    }
    (span / 7 + 1, year)
}

fn week(a: &[Value]) -> Result<Value> {
    let mode = a.get(1).and_then(int_of).unwrap_or(0);
    Ok(or_null(days_of(&a[0]), |d| {
        Value::Int(calc_week(d, week_flags(mode)).0)
    }))
}

fn weekofyear(a: &[Value]) -> Result<Value> {
    Ok(or_null(days_of(&a[0]), |d| {
        Value::Int(calc_week(d, week_flags(3)).0)
    }))
}

fn yearweek(a: &[Value]) -> Result<Value> {
    let mode = a.get(1).and_then(int_of).unwrap_or(0);
    Ok(or_null(days_of(&a[0]), |d| {
        let (w, y) = calc_week(d, week_flags(mode) | WEEK_YEAR);
        Value::Int(y as i64 * 100 + w)
    }))
}

fn datediff(a: &[Value]) -> Result<Value> {
    Ok(match (days_of(&a[0]), days_of(&a[1])) {
        (Some(x), Some(y)) => Value::Int(x - y),
        _ => Value::Null,
    })
}

fn last_day(a: &[Value]) -> Result<Value> {
    Ok(or_null(
        civil_of(&a[0]).filter(|&(_, m, _)| m != 0),
        |(y, m, _)| {
            let (ny, nm) = if m == 12 { (y + 1, 1) } else { (y, m + 1) };
            Value::Date(days_from_civil(ny, nm, 1) - 1)
        },
    ))
}

fn makedate(a: &[Value]) -> Result<Value> {
    let (Some(y), Some(doy)) = (int_of(&a[0]), int_of(&a[1])) else {
        return Ok(Value::Null);
    };
    let y = if (0..70).contains(&y) {
        y + 2000
    } else if (70..100).contains(&y) {
        y + 1900
    } else {
        y
    };
    if doy <= 0 || !(0..=9999).contains(&y) {
        return Ok(Value::Null);
    }
    let d = days_from_civil(y as i32, 1, 1) as i64 + doy - 1;
    Ok(if civil_from_days(d as i32).0 > 9999 {
        Value::Null
    } else {
        Value::Date(d as i32)
    })
}

fn maketime(a: &[Value]) -> Result<Value> {
    let (Some(h), Some(m), Some(s)) = (int_of(&a[0]), int_of(&a[1]), float_of(&a[2])) else {
        return Ok(Value::Null);
    };
    if !(0..60).contains(&m) || !(0.0..60.0).contains(&s) {
        return Ok(Value::Null);
    }
    let t = (h.abs() * 3600 + m * 60) * 1_000_000 + (s * 1e6).round() as i64;
    Ok(clamp_time(if h < 0 { -t } else { t }))
}

fn to_days(a: &[Value]) -> Result<Value> {
    Ok(or_null(days_of(&a[0]), |d| Value::Int(d + TO_DAYS_EPOCH)))
}

fn from_days(a: &[Value]) -> Result<Value> {
    Ok(match int_of(&a[0]) {
        Some(n) if n >= 366 && n <= days_from_civil(9999, 12, 31) as i64 + TO_DAYS_EPOCH => {
            Value::Date((n - TO_DAYS_EPOCH) as i32)
        }
        _ => Value::Null,
    })
}

fn to_seconds(a: &[Value]) -> Result<Value> {
    Ok(or_null(datetime_of(&a[0]), |t| {
        Value::Int(t.div_euclid(1_000_000) + TO_DAYS_EPOCH * 86_400)
    }))
}

/// `%` specifiers of DATE_FORMAT applied to a datetime (micros).
fn format_with(t: i64, format: &str) -> String {
    let days = t.div_euclid(MICROS_PER_DAY);
    format_parts(Some(days), t.rem_euclid(MICROS_PER_DAY), format).unwrap_or_default()
}

/// DATE_FORMAT of a TIME: its hours may pass 24, its date is zero; NULL
/// for a negative one or a format that names or counts days (MariaDB's).
fn format_time(t: i64, format: &str) -> Value {
    if t < 0 {
        return Value::Null;
    }
    format_parts(None, t, format).map_or(Value::Null, |s| Value::str(&s))
}

/// `format` of a date (`days`, None for the zero date of a TIME) and a
/// time of day (or a TIME's length); None where the format needs a date
/// and there is none.
fn format_parts(days: Option<i64>, time: i64, format: &str) -> Option<String> {
    let (y, m, d) = days.map_or((0, 0, 0), |days| civil_from_days(days as i32));
    let (h, mi, s, us) = (
        time / 3_600_000_000,
        time / 60_000_000 % 60,
        time / 1_000_000 % 60,
        time % 1_000_000,
    );
    let h12 = if h % 12 == 0 { 12 } else { h % 12 };
    let am_pm = if h % 24 < 12 { "AM" } else { "PM" };
    let mut out = String::new();
    let mut chars = format.chars();
    while let Some(c) = chars.next() {
        if c != '%' {
            out.push(c);
            continue;
        }
        let Some(spec) = chars.next() else {
            break;
        };
        let named = matches!(
            spec,
            'a' | 'b' | 'D' | 'j' | 'M' | 'U' | 'u' | 'V' | 'v' | 'W' | 'w' | 'X' | 'x'
        );
        let days = match days {
            Some(days) => days,
            None if named => return None,
            None => 0,
        };
        let wd = weekday_of(days);
        match spec {
            'a' => out.push_str(&DAY_NAMES[wd][..3]),
            'b' => out.push_str(&MONTH_NAMES[m as usize - 1][..3]),
            'c' => out.push_str(&m.to_string()),
            'D' => {
                let suffix = match (d % 10, d % 100) {
                    (_, 11..=13) => "th",
                    (1, _) => "st",
                    (2, _) => "nd",
                    (3, _) => "rd",
                    _ => "th",
                };
                out.push_str(&format!("{d}{suffix}"));
            }
            'd' => out.push_str(&format!("{d:02}")),
            'e' => out.push_str(&d.to_string()),
            'f' => out.push_str(&format!("{us:06}")),
            'H' => out.push_str(&format!("{h:02}")),
            'h' | 'I' => out.push_str(&format!("{h12:02}")),
            'i' => out.push_str(&format!("{mi:02}")),
            'j' => out.push_str(&format!("{:03}", day_of_year(days))),
            'k' => out.push_str(&h.to_string()),
            'l' => out.push_str(&h12.to_string()),
            'M' => out.push_str(MONTH_NAMES[m as usize - 1]),
            'm' => out.push_str(&format!("{m:02}")),
            'p' => out.push_str(am_pm),
            'r' => out.push_str(&format!("{h12:02}:{mi:02}:{s:02} {am_pm}")),
            'S' | 's' => out.push_str(&format!("{s:02}")),
            'T' => out.push_str(&format!("{h:02}:{mi:02}:{s:02}")),
            'U' => out.push_str(&format!("{:02}", calc_week(days, FIRST_WEEKDAY).0)),
            'u' => out.push_str(&format!("{:02}", calc_week(days, MONDAY_FIRST).0)),
            'V' => out.push_str(&format!("{:02}", calc_week(days, SUNDAY_YEAR).0)),
            'v' => out.push_str(&format!("{:02}", calc_week(days, MONDAY_YEAR).0)),
            'X' => out.push_str(&format!("{:04}", calc_week(days, SUNDAY_YEAR).1)),
            'x' => out.push_str(&format!("{:04}", calc_week(days, MONDAY_YEAR).1)),
            'W' => out.push_str(DAY_NAMES[wd]),
            'w' => out.push_str(&((wd + 1) % 7).to_string()),
            'Y' => out.push_str(&format!("{y:04}")),
            'y' => out.push_str(&format!("{:02}", y % 100)),
            other => out.push(other),
        }
    }
    Some(out)
}

fn date_format(a: &[Value]) -> Result<Value> {
    if let Value::Time(t) = &a[0] {
        return Ok(format_time(*t, &text_of(&a[1]).unwrap_or_default()));
    }
    let Some(t) = datetime_of(&a[0]) else {
        return Ok(Value::Null);
    };
    Ok(Value::str(&format_with(
        t,
        &text_of(&a[1]).unwrap_or_default(),
    )))
}

/// What STR_TO_DATE read, field by field.
#[derive(Default)]
struct Fields {
    year: Option<i64>,
    month: Option<i64>,
    day: Option<i64>,
    day_of_year: Option<i64>,
    hour: Option<i64>,
    minute: Option<i64>,
    second: Option<i64>,
    micros: Option<i64>,
    pm: Option<bool>,
}

/// Reads up to `max` digits at `pos`.
fn digits(s: &[u8], pos: &mut usize, max: usize) -> Option<i64> {
    let start = *pos;
    while *pos < s.len() && *pos - start < max && s[*pos].is_ascii_digit() {
        *pos += 1;
    }
    if *pos == start {
        return None;
    }
    std::str::from_utf8(&s[start..*pos]).ok()?.parse().ok()
}

/// Reads one of `names` (or its first three letters when `short`),
/// ignoring case: its index.
fn name_of(s: &[u8], pos: &mut usize, names: &[&str], short: bool) -> Option<usize> {
    let rest = std::str::from_utf8(&s[*pos..]).ok()?.to_ascii_lowercase();
    for (i, n) in names.iter().enumerate() {
        let n = n.to_ascii_lowercase();
        let candidates = if short {
            vec![n[..3].to_string()]
        } else {
            vec![n.clone(), n[..3].to_string()]
        };
        for c in candidates {
            if rest.starts_with(&c) {
                *pos += c.len();
                return Some(i);
            }
        }
    }
    None
}

fn parse_with(s: &str, format: &str) -> Option<Fields> {
    let s = s.as_bytes();
    let mut pos = 0;
    let mut f = Fields::default();
    let mut spec = format.chars();
    while let Some(c) = spec.next() {
        if c.is_whitespace() {
            while pos < s.len() && s[pos].is_ascii_whitespace() {
                pos += 1;
            }
            continue;
        }
        if c != '%' {
            if pos < s.len() && s[pos] as char == c {
                pos += 1;
                continue;
            }
            return None;
        }
        match spec.next()? {
            'Y' => {
                let start = pos;
                let y = digits(s, &mut pos, 4)?;
                f.year = Some(if pos - start <= 2 {
                    if y < 70 {
                        y + 2000
                    } else {
                        y + 1900
                    }
                } else {
                    y
                });
            }
            'y' => {
                let y = digits(s, &mut pos, 2)?;
                f.year = Some(if y < 70 { y + 2000 } else { y + 1900 });
            }
            'm' | 'c' => f.month = Some(digits(s, &mut pos, 2)?),
            'd' | 'e' => f.day = Some(digits(s, &mut pos, 2)?),
            'j' => f.day_of_year = Some(digits(s, &mut pos, 3)?),
            'H' | 'k' | 'h' | 'I' | 'l' => f.hour = Some(digits(s, &mut pos, 2)?),
            'i' => f.minute = Some(digits(s, &mut pos, 2)?),
            's' | 'S' => f.second = Some(digits(s, &mut pos, 2)?),
            'f' => {
                let start = pos;
                let n = digits(s, &mut pos, 6)?;
                f.micros = Some(n * 10i64.pow((6 - (pos - start)) as u32));
            }
            'p' => {
                let rest = std::str::from_utf8(&s[pos..]).ok()?.to_ascii_uppercase();
                if rest.starts_with("AM") {
                    f.pm = Some(false);
                } else if rest.starts_with("PM") {
                    f.pm = Some(true);
                } else {
                    return None;
                }
                pos += 2;
            }
            'M' => f.month = Some(name_of(s, &mut pos, &MONTH_NAMES, false)? as i64 + 1),
            'b' => f.month = Some(name_of(s, &mut pos, &MONTH_NAMES, true)? as i64 + 1),
            'W' => {
                name_of(s, &mut pos, &DAY_NAMES, false)?;
            }
            'a' => {
                name_of(s, &mut pos, &DAY_NAMES, true)?;
            }
            'T' => {
                f.hour = Some(digits(s, &mut pos, 2)?);
                (s.get(pos) == Some(&b':')).then_some(())?;
                pos += 1;
                f.minute = Some(digits(s, &mut pos, 2)?);
                (s.get(pos) == Some(&b':')).then_some(())?;
                pos += 1;
                f.second = Some(digits(s, &mut pos, 2)?);
            }
            '%' => {
                (s.get(pos) == Some(&b'%')).then_some(())?;
                pos += 1;
            }
            _ => return None,
        }
    }
    Some(f)
}

/// STR_TO_DATE(s, format): a DATE when the format reads no time, else a
/// DATETIME; NULL when `s` does not fit it or is no date.
fn str_to_date(a: &[Value]) -> Result<Value> {
    let (s, format) = (
        text_of(&a[0]).unwrap_or_default(),
        text_of(&a[1]).unwrap_or_default(),
    );
    let Some(f) = parse_with(&s, &format) else {
        return Ok(Value::Null);
    };
    let year = f.year.unwrap_or(0);
    let (month, day) = match f.day_of_year {
        Some(doy) if doy > 0 => {
            let d = days_from_civil(year as i32, 1, 1) as i64 + doy - 1;
            let (_, m, dd) = civil_from_days(d as i32);
            (m as i64, dd as i64)
        }
        _ => (f.month.unwrap_or(0), f.day.unwrap_or(0)),
    };
    if !(1..=9999).contains(&year) || !(1..=12).contains(&month) || day < 1 {
        return Ok(Value::Null);
    }
    let days = days_from_civil(year as i32, month as u32, day as u32) as i64;
    if civil_from_days(days as i32) != (year as i32, month as u32, day as u32) {
        return Ok(Value::Null);
    }
    let has_time = f.hour.is_some() || f.minute.is_some() || f.second.is_some();
    if !has_time && f.micros.is_none() {
        return Ok(Value::Date(days as i32));
    }
    let mut hour = f.hour.unwrap_or(0);
    match f.pm {
        Some(true) if hour < 12 => hour += 12,
        Some(false) if hour == 12 => hour = 0,
        _ => {}
    }
    let (minute, second) = (f.minute.unwrap_or(0), f.second.unwrap_or(0));
    if hour > 23 || minute > 59 || second > 59 {
        return Ok(Value::Null);
    }
    Ok(Value::DateTime(
        days * MICROS_PER_DAY
            + ((hour * 60 + minute) * 60 + second) * 1_000_000
            + f.micros.unwrap_or(0),
    ))
}

fn from_unixtime_kind(k: &[ColumnKind]) -> ColumnKind {
    if k.len() == 2 {
        ColumnKind::TEXT
    } else {
        ColumnKind::DateTime
    }
}

/// FROM_UNIXTIME(seconds[, format]): in the session's time zone.
fn from_unixtime(a: &[Value]) -> Result<Value> {
    let Some(secs) = float_of(&a[0]) else {
        return Ok(Value::Null);
    };
    if !(0.0..=32_536_771_199.0).contains(&secs) {
        return Ok(Value::Null);
    }
    let local = clock::session_local((secs * 1e6).round() as i64);
    let local = clock::whole_seconds(local)
        + if secs.fract() == 0.0 {
            0
        } else {
            local % 1_000_000
        };
    Ok(match a.get(1) {
        Some(format) => Value::str(&format_with(local, &text_of(format).unwrap_or_default())),
        None => Value::DateTime(local),
    })
}

/// CONVERT_TZ(dt, from, to): `dt` read in zone `from`, shown in zone
/// `to`; zones are SYSTEM or offsets (NULL for a named zone, as MariaDB
/// without time zone tables gives).
fn convert_tz(a: &[Value]) -> Result<Value> {
    let (Some(t), Some(from), Some(to)) = (
        datetime_of(&a[0]),
        text_of(&a[1]).and_then(|z| clock::zone_offset(&z)),
        text_of(&a[2]).and_then(|z| clock::zone_offset(&z)),
    ) else {
        return Ok(Value::Null);
    };
    let utc = match from {
        Some(minutes) => t - minutes * 60_000_000,
        None => clock::utc_of_local(t),
    };
    Ok(Value::DateTime(match to {
        Some(minutes) => utc + minutes * 60_000_000,
        None => clock::local(utc),
    }))
}

/// UNIX_TIMESTAMP(d): seconds since the epoch of `d` in the session's
/// time zone (whole seconds); NULL before 1970 and past 2038-01-19
/// 03:14:07 UTC.
fn unix_timestamp(a: &[Value]) -> Result<Value> {
    Ok(unix_timestamp_of(&a[0], 0))
}

/// UNIX_TIMESTAMP(`v`) with `digits` of a second (a DECIMAL where there
/// are any, cut as MariaDB cuts them); NULL where `v` is no datetime or
/// outside what a TIMESTAMP holds.
pub(crate) fn unix_timestamp_of(v: &Value, digits: u8) -> Value {
    let Some(local) = datetime_of(v) else {
        return Value::Null;
    };
    let utc = clock::utc_of_session_local(local);
    if !(0..=i64::from(i32::MAX) * 1_000_000 + 999_999).contains(&utc) {
        return Value::Null;
    }
    seconds_since_epoch(utc, digits)
}

/// The seconds of `utc_micros` since the epoch, with `digits` of a second.
pub(crate) fn seconds_since_epoch(utc_micros: i64, digits: u8) -> Value {
    match digits.min(6) {
        0 => Value::Int(utc_micros.div_euclid(1_000_000)),
        d => {
            let cut = 10i64.pow(6 - u32::from(d));
            Value::Decimal(lineardb_table::Dec::new(
                i128::from(utc_micros.div_euclid(cut)),
                d,
            ))
        }
    }
}

/// Whether a value reads as a datetime (a date with a time of day) rather
/// than a time.
fn is_datetime(v: &Value) -> bool {
    match v {
        Value::Date(_) | Value::DateTime(_) => true,
        Value::Bytes(b) => b.len() >= 10 && b.get(4) == Some(&b'-'),
        _ => false,
    }
}

/// TIMEDIFF(a, b): a − b as a TIME; both datetimes or both times.
fn timediff(a: &[Value]) -> Result<Value> {
    let diff = match (is_datetime(&a[0]), is_datetime(&a[1])) {
        (true, true) => datetime_of(&a[0]).zip(datetime_of(&a[1])),
        (false, false) => time_of(&a[0]).zip(time_of(&a[1])),
        _ => None,
    };
    Ok(or_null(diff, |(x, y)| clamp_time(x - y)))
}

/// A TIME within MariaDB's range (±838:59:59.999999).
/// A whole number of seconds stays whole (838:59:59).
fn clamp_time(t: i64) -> Value {
    use lineardb_table::types::MAX_TIME;
    let max = if t % 1_000_000 == 0 {
        MAX_TIME - 999_999
    } else {
        MAX_TIME
    };
    Value::Time(t.clamp(-max, max))
}

/// ADDTIME/SUBTIME of a TIME is a TIME; of anything else, text (a
/// string may hold a datetime or a time).
fn shifted_time_kind(args: &[ColumnKind]) -> ColumnKind {
    match args.first() {
        Some(ColumnKind::Time) => ColumnKind::Time,
        _ => ColumnKind::TEXT,
    }
}

/// ADDTIME/SUBTIME: a datetime or a time moved by a time.
fn shift_time(a: &[Value], sign: i64) -> Result<Value> {
    let Some(delta) = time_of(&a[1]) else {
        return Ok(Value::Null);
    };
    if is_datetime(&a[0]) {
        return Ok(or_null(datetime_of(&a[0]), |t| {
            Value::str(&lineardb_table::types::format_datetime(t + sign * delta))
        }));
    }
    Ok(or_null(time_of(&a[0]), |t| {
        match (&a[0], clamp_time(t + sign * delta)) {
            (Value::Time(_), moved) => moved,
            (_, moved) => Value::str(&moved.to_text().unwrap_or_default()),
        }
    }))
}

fn addtime(a: &[Value]) -> Result<Value> {
    shift_time(a, 1)
}

fn subtime(a: &[Value]) -> Result<Value> {
    shift_time(a, -1)
}

fn sec_to_time(a: &[Value]) -> Result<Value> {
    Ok(or_null(float_of(&a[0]), |s| {
        clamp_time((s * 1e6).round() as i64)
    }))
}

fn time_to_sec(a: &[Value]) -> Result<Value> {
    Ok(or_null(time_of(&a[0]), |t| Value::Int(t / 1_000_000)))
}

/// A period YYMM or YYYYMM as months since year 0.
fn period_months(p: i64) -> i64 {
    let (y, m) = (p / 100, p % 100);
    let y = if p < 10000 {
        if y < 70 {
            y + 2000
        } else {
            y + 1900
        }
    } else {
        y
    };
    y * 12 + m - 1
}

fn period_add(a: &[Value]) -> Result<Value> {
    let (Some(p), Some(n)) = (int_of(&a[0]), int_of(&a[1])) else {
        return Ok(Value::Null);
    };
    if p == 0 {
        return Ok(Value::Int(0));
    }
    let months = period_months(p) + n;
    Ok(Value::Int(months / 12 * 100 + months % 12 + 1))
}

fn period_diff(a: &[Value]) -> Result<Value> {
    let (Some(p), Some(q)) = (int_of(&a[0]), int_of(&a[1])) else {
        return Ok(Value::Null);
    };
    Ok(Value::Int(period_months(p) - period_months(q)))
}

/// Micros per unit for the units of fixed length; None for MONTH,
/// QUARTER and YEAR.
fn unit_micros(unit: &str) -> Option<Option<i64>> {
    Some(match unit {
        "MICROSECOND" => Some(1),
        "SECOND" => Some(1_000_000),
        "MINUTE" => Some(60_000_000),
        "HOUR" => Some(3_600_000_000),
        "DAY" => Some(MICROS_PER_DAY),
        "WEEK" => Some(7 * MICROS_PER_DAY),
        "MONTH" | "QUARTER" | "YEAR" => None,
        _ => return None,
    })
}

fn unit_of(v: &Value) -> String {
    text_of(v)
        .unwrap_or_default()
        .trim()
        .trim_start_matches("SQL_TSI_")
        .to_ascii_uppercase()
}

/// Whole months from `a` to `b`, counting a month only once its day and
/// time are reached.
fn months_between(a: i64, b: i64) -> i64 {
    let split = |t: i64| {
        let (y, m, d) = civil_from_days(t.div_euclid(MICROS_PER_DAY) as i32);
        (
            y as i64 * 12 + m as i64,
            (d as i64, t.rem_euclid(MICROS_PER_DAY)),
        )
    };
    let ((ma, rest_a), (mb, rest_b)) = (split(a), split(b));
    let mut months = mb - ma;
    if months > 0 && rest_b < rest_a {
        months -= 1;
    } else if months < 0 && rest_b > rest_a {
        months += 1;
    }
    months
}

fn timestampdiff(a: &[Value]) -> Result<Value> {
    let unit = unit_of(&a[0]);
    let (Some(x), Some(y)) = (datetime_of(&a[1]), datetime_of(&a[2])) else {
        return Ok(Value::Null);
    };
    Ok(match unit_micros(&unit) {
        Some(Some(per)) => Value::Int((y - x) / per),
        Some(None) => {
            let months = months_between(x, y);
            Value::Int(match unit.as_str() {
                "YEAR" => months / 12,
                "QUARTER" => months / 3,
                _ => months,
            })
        }
        None => return Err(unknown_unit(&unit)),
    })
}

fn unknown_unit(unit: &str) -> crate::error::SqlError {
    crate::error::SqlError::syntax_near(unit)
}

/// TIMESTAMPADD(unit, n, d): a DATE stays a DATE for whole days and more.
fn timestampadd(a: &[Value]) -> Result<Value> {
    let unit = unit_of(&a[0]);
    let (Some(n), Some(t)) = (int_of(&a[1]), datetime_of(&a[2])) else {
        return Ok(Value::Null);
    };
    let whole_days = matches!(unit.as_str(), "DAY" | "WEEK" | "MONTH" | "QUARTER" | "YEAR");
    let was_date = match &a[2] {
        Value::Date(_) => true,
        Value::Bytes(b) => b.len() <= 10,
        _ => false,
    };
    let moved = match unit_micros(&unit) {
        Some(Some(per)) => t + n * per,
        Some(None) => {
            let months = n * match unit.as_str() {
                "YEAR" => 12,
                "QUARTER" => 3,
                _ => 1,
            };
            let (y, m, d) = civil_from_days(t.div_euclid(MICROS_PER_DAY) as i32);
            let total = y as i64 * 12 + m as i64 - 1 + months;
            let (ny, nm) = (total.div_euclid(12) as i32, total.rem_euclid(12) as u32 + 1);
            let (fy, fm) = if nm == 12 { (ny + 1, 1) } else { (ny, nm + 1) };
            let last = (days_from_civil(fy, fm, 1) - days_from_civil(ny, nm, 1)) as u32;
            days_from_civil(ny, nm, d.min(last)) as i64 * MICROS_PER_DAY
                + t.rem_euclid(MICROS_PER_DAY)
        }
        None => return Err(unknown_unit(&unit)),
    };
    if !(1..=9999).contains(&civil_from_days(moved.div_euclid(MICROS_PER_DAY) as i32).0) {
        return Ok(Value::Null);
    }
    Ok(if was_date && whole_days {
        Value::Date(moved.div_euclid(MICROS_PER_DAY) as i32)
    } else {
        Value::DateTime(moved)
    })
}
