//! The time functions read: the running statement's start (NOW() and its
//! synonyms are one value for a whole statement, as in MariaDB), or the
//! clock itself (SYSDATE()), in the server's time zone (`time_zone` is
//! SYSTEM) or in UTC.
use std::cell::Cell;
use std::time::{SystemTime, UNIX_EPOCH};

/// A statement's time as this thread knows it.
#[derive(Clone, Copy)]
enum Start {
    /// No statement is running.
    None,
    /// A statement is running and nothing has read its time yet: the
    /// clock is read when something first does (most statements never
    /// do, and the read is not free).
    Unread,
    /// Microseconds since the epoch (UTC).
    At(i64),
}

thread_local! {
    /// The running statement's start.
    static STATEMENT_START: Cell<Start> = const { Cell::new(Start::None) };
}

/// Microseconds since the epoch (UTC), now.
pub(crate) fn now_utc() -> i64 {
    match SystemTime::now().duration_since(UNIX_EPOCH) {
        Ok(d) => d.as_micros() as i64,
        Err(e) => -(e.duration().as_micros() as i64),
    }
}

/// Runs `f` (a statement) with `start` as the time NOW() reads.
#[cfg(test)]
pub(crate) fn with_statement_start<T>(start: i64, f: impl FnOnce() -> T) -> T {
    with_start(Start::At(start), f)
}

/// Runs `f` (a statement) with one time for NOW(): the clock when the
/// statement first reads it.
pub(crate) fn with_statement_time<T>(f: impl FnOnce() -> T) -> T {
    with_start(Start::Unread, f)
}

fn with_start<T>(start: Start, f: impl FnOnce() -> T) -> T {
    let previous = STATEMENT_START.with(|s| s.replace(start));
    let r = f();
    STATEMENT_START.with(|s| s.set(previous));
    r
}

/// The running statement's time on this thread, to hand to the threads
/// that work for it ([`adopt`]).
pub(crate) fn statement_start() -> Option<i64> {
    STATEMENT_START.with(|s| match s.get() {
        Start::None => None,
        Start::At(t) => Some(t),
        Start::Unread => {
            let t = now_utc();
            s.set(Start::At(t));
            Some(t)
        }
    })
}

/// Makes `start` this thread's statement start (a worker of a parallel
/// scan takes its statement's).
pub(crate) fn adopt(start: Option<i64>) {
    STATEMENT_START.with(|s| s.set(start.map_or(Start::None, Start::At)));
}

/// The statement's start (UTC), or now outside a statement.
pub(crate) fn statement_utc() -> i64 {
    statement_start().unwrap_or_else(now_utc)
}

/// `utc` as the server's local time (the SYSTEM time zone).
pub(crate) fn local(utc: i64) -> i64 {
    use chrono::{Local, Offset, TimeZone};
    let secs = utc.div_euclid(1_000_000);
    let offset = match Local.timestamp_opt(secs, 0) {
        chrono::LocalResult::Single(t) | chrono::LocalResult::Ambiguous(t, _) => {
            t.offset().fix().local_minus_utc() as i64
        }
        chrono::LocalResult::None => 0,
    };
    utc + offset * 1_000_000
}

/// The UTC time of `local`, a time in the server's zone (in a fold, the
/// earlier; in a gap, as if the offset before it still held).
pub(crate) fn utc_of_local(local: i64) -> i64 {
    use chrono::{Local, Offset, TimeZone};
    let secs = local.div_euclid(1_000_000);
    let offset = chrono::DateTime::from_timestamp(secs, 0)
        .map(|d| d.naive_utc())
        .and_then(|naive| match Local.offset_from_local_datetime(&naive) {
            chrono::LocalResult::Single(o) | chrono::LocalResult::Ambiguous(o, _) => {
                Some(o.fix().local_minus_utc() as i64)
            }
            chrono::LocalResult::None => None,
        })
        .unwrap_or_else(|| (local - self::local(local)) / -1_000_000);
    local - offset * 1_000_000
}

/// The server's time zone as `@@system_time_zone` names it: UTC, or its
/// offset now.
pub(crate) fn system_zone_name() -> String {
    let now = now_utc();
    let offset = (local(now) - now) / 1_000_000;
    if offset == 0 {
        return "UTC".into();
    }
    let sign = if offset < 0 { '-' } else { '+' };
    format!(
        "{sign}{:02}:{:02}",
        offset.abs() / 3600,
        offset.abs() / 60 % 60
    )
}

/// The zone `text` names: `Some(None)` for SYSTEM, `Some(Some(minutes))`
/// for an offset `±hh:mm` from -12:59 to +13:00, `None` otherwise (named
/// zones need time zone tables).
pub(crate) fn zone_offset(text: &str) -> Option<Option<i64>> {
    if text.eq_ignore_ascii_case("SYSTEM") {
        return Some(None);
    }
    let t = text.trim();
    let (negative, rest) = match t.as_bytes().first() {
        Some(b'+') => (false, &t[1..]),
        Some(b'-') => (true, &t[1..]),
        _ => return None,
    };
    let (h, m) = rest.split_once(':')?;
    let digits = |s: &str| !s.is_empty() && s.len() <= 2 && s.bytes().all(|b| b.is_ascii_digit());
    if !digits(h) || !digits(m) {
        return None;
    }
    let (h, m): (i64, i64) = (h.parse().ok()?, m.parse().ok()?);
    let minutes = if negative { -(h * 60 + m) } else { h * 60 + m };
    (m <= 59 && (-(12 * 60 + 59)..=13 * 60).contains(&minutes)).then_some(Some(minutes))
}

/// The `time_zone` that `text` names, as MariaDB writes it: SYSTEM, or
/// an offset `±hh:mm` from -12:59 to +13:00 (1298 otherwise: named zones
/// need time zone tables, which lineardb has not). lineardb keeps times
/// in the server's zone, so an offset is taken only where it is that
/// zone's all year (1235 otherwise).
pub(crate) fn time_zone(text: &str) -> crate::error::Result<String> {
    use crate::error::SqlError;
    let unknown = || {
        SqlError::new(
            1298,
            "HY000",
            format!("Unknown or incorrect time zone: '{text}'"),
        )
    };
    let minutes = match zone_offset(text).ok_or_else(unknown)? {
        Some(minutes) => minutes,
        None => return Ok("SYSTEM".into()),
    };
    let shown = format!(
        "{}{:02}:{:02}",
        if minutes < 0 { '-' } else { '+' },
        minutes.abs() / 60,
        minutes.abs() % 60
    );
    // The zone's offset in winter and in summer.
    const DAY: i64 = 86_400 * 1_000_000;
    let now = now_utc();
    let year_start = now - now.rem_euclid(365 * DAY);
    let same_all_year = [year_start, year_start + 182 * DAY]
        .iter()
        .all(|&t| (local(t) - t) / 60_000_000 == minutes);
    if !same_all_year {
        return Err(SqlError::unsupported(format!(
            "time_zone = '{shown}' (times are kept in the server's time zone, {})",
            system_zone_name()
        )));
    }
    Ok(shown)
}

/// Whole seconds of `micros` (DATETIME without fractional digits).
pub(crate) fn whole_seconds(micros: i64) -> i64 {
    to_digits(micros, 0)
}

/// `micros` cut to `fsp` digits of a second (NOW(fsp), a DATETIME(fsp)
/// column's CURRENT_TIMESTAMP).
pub(crate) fn to_digits(micros: i64, fsp: u8) -> i64 {
    micros - micros.rem_euclid(10i64.pow(6 - u32::from(fsp.min(6))))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_statement_reads_one_time() {
        let start = 1_700_000_000_123_456;
        with_statement_start(start, || {
            assert_eq!(statement_utc(), start);
            std::thread::sleep(std::time::Duration::from_millis(2));
            assert_eq!(statement_utc(), start);
            let handed = statement_start();
            std::thread::spawn(move || {
                adopt(handed);
                assert_eq!(statement_utc(), start);
            })
            .join()
            .unwrap();
        });
        assert_eq!(statement_start(), None);
        assert_eq!(whole_seconds(start), 1_700_000_000_000_000);
    }
}
