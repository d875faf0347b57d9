//! The time functions read: the running statement's start (NOW() and its
//! synonyms are one value for a whole statement, as in MariaDB), or the
//! clock itself (SYSDATE()), in the session's time zone (`time_zone`:
//! SYSTEM, the server's, or an offset from UTC) or in UTC.
//!
//! TIMESTAMP columns keep their values as times of the server's zone; a
//! session of another zone reads and writes them through
//! [`Zone::read_stored`] and [`Zone::write_stored`], which the compiler puts
//! around such a column where the two zones differ.
use std::cell::Cell;
use std::sync::OnceLock;
use std::time::{SystemTime, UNIX_EPOCH};

const MICROS_PER_MINUTE: i64 = 60_000_000;

/// A session's time zone.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) enum Zone {
    /// The server's own (`time_zone = SYSTEM`).
    #[default]
    System,
    /// A fixed offset from UTC, in minutes (`time_zone = '+05:30'`).
    Offset(i32),
}

impl Zone {
    /// The zone `text` names (SYSTEM or an offset `±hh:mm` from -12:59 to
    /// +13:00); None for anything else.
    pub(crate) fn named(text: &str) -> Option<Zone> {
        Some(match zone_offset(text)? {
            None => Zone::System,
            Some(minutes) => Zone::Offset(minutes as i32),
        })
    }

    /// `utc` as a time of this zone.
    pub(crate) fn local(self, utc: i64) -> i64 {
        match self {
            Zone::System => local(utc),
            Zone::Offset(minutes) => utc + i64::from(minutes) * MICROS_PER_MINUTE,
        }
    }

    /// The UTC time of `local`, a time of this zone.
    pub(crate) fn utc(self, local: i64) -> i64 {
        match self {
            Zone::System => utc_of_local(local),
            Zone::Offset(minutes) => local - i64::from(minutes) * MICROS_PER_MINUTE,
        }
    }

    /// Whether times of this zone are the server's at every instant, so
    /// that a TIMESTAMP's stored value needs no conversion.
    pub(crate) fn is_servers(self) -> bool {
        match self {
            Zone::System => true,
            Zone::Offset(minutes) => server_fixed_offset() == Some(minutes),
        }
    }

    /// The zone a session of this zone reads and writes TIMESTAMP columns
    /// through; None where their stored values need no conversion.
    pub(crate) fn for_timestamps(self) -> Option<Zone> {
        (!self.is_servers()).then_some(self)
    }

    /// A TIMESTAMP's stored value (a time of the server's zone) as a time
    /// of this zone; the zero value stays zero.
    pub(crate) fn read_stored(self, stored: i64) -> i64 {
        if stored == lineardb_table::types::ZERO_DATETIME {
            return stored;
        }
        self.local(utc_of_local(stored))
    }

    /// A time of this zone as a TIMESTAMP keeps it (a time of the
    /// server's zone); the zero value stays zero.
    pub(crate) fn write_stored(self, time: i64) -> i64 {
        if time == lineardb_table::types::ZERO_DATETIME {
            return time;
        }
        local(self.utc(time))
    }
}

/// Whether the server's zone has one offset from UTC all year, so that a
/// conversion between it and an offset zone is an exact shift (keeps order
/// and equality).
pub(crate) fn server_zone_is_fixed() -> bool {
    server_fixed_offset().is_some()
}

/// The server's offset from UTC in minutes where it is the same all year
/// (a zone without summer time, UTC among them); None where it changes.
fn server_fixed_offset() -> Option<i32> {
    static FIXED: OnceLock<Option<i32>> = OnceLock::new();
    *FIXED.get_or_init(|| {
        const DAY: i64 = 86_400 * 1_000_000;
        let now = now_utc();
        // Every week of the year before and the year after now.
        let offsets: Vec<i64> = (-53..=53)
            .map(|week| now + week * 7 * DAY)
            .map(|t| (local(t) - t) / MICROS_PER_MINUTE)
            .collect();
        offsets
            .iter()
            .all(|&o| o == offsets[0])
            .then_some(offsets[0] as i32)
    })
}

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
    /// The running statement's session's time zone.
    static STATEMENT_ZONE: Cell<Zone> = const { Cell::new(Zone::System) };
}

/// What the threads working for a statement take of its clock: its start
/// and its session's zone.
#[derive(Clone, Copy)]
pub(crate) struct StatementClock {
    start: Option<i64>,
    zone: Zone,
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
    with_start(Start::At(start), Zone::System, f)
}

/// Runs `f` (a statement of a session in `zone`) with one time for NOW():
/// the clock when the statement first reads it.
pub(crate) fn with_statement_time<T>(zone: Zone, f: impl FnOnce() -> T) -> T {
    with_start(Start::Unread, zone, f)
}

fn with_start<T>(start: Start, zone: Zone, f: impl FnOnce() -> T) -> T {
    let previous = STATEMENT_START.with(|s| s.replace(start));
    let previous_zone = STATEMENT_ZONE.with(|z| z.replace(zone));
    let r = f();
    STATEMENT_START.with(|s| s.set(previous));
    STATEMENT_ZONE.with(|z| z.set(previous_zone));
    r
}

/// The running statement's clock on this thread, to hand to the threads
/// that work for it ([`adopt`]).
pub(crate) fn statement_clock() -> StatementClock {
    StatementClock {
        start: statement_start(),
        zone: session_zone(),
    }
}

/// The time zone of the session whose statement runs on this thread.
pub(crate) fn session_zone() -> Zone {
    STATEMENT_ZONE.with(Cell::get)
}

/// `utc` in the running statement's session's time zone (what NOW(),
/// CURDATE() and FROM_UNIXTIME() show).
pub(crate) fn session_local(utc: i64) -> i64 {
    session_zone().local(utc)
}

/// The UTC time of `local`, a time of the running statement's session's
/// zone (what UNIX_TIMESTAMP(d) reads).
pub(crate) fn utc_of_session_local(local: i64) -> i64 {
    session_zone().utc(local)
}

/// The running statement's start, if one runs and has read it.
fn statement_start() -> Option<i64> {
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

/// Makes `clock` this thread's statement clock (a worker of a parallel
/// scan takes its statement's).
pub(crate) fn adopt(clock: StatementClock) {
    STATEMENT_START.with(|s| s.set(clock.start.map_or(Start::None, Start::At)));
    STATEMENT_ZONE.with(|z| z.set(clock.zone));
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
/// need time zone tables, which lineardb has not).
pub(crate) fn time_zone(text: &str) -> crate::error::Result<(String, Zone)> {
    let zone = Zone::named(text).ok_or_else(|| {
        crate::error::SqlError::new(
            1298,
            "HY000",
            format!("Unknown or incorrect time zone: '{text}'"),
        )
    })?;
    let shown = match zone {
        Zone::System => "SYSTEM".to_string(),
        Zone::Offset(minutes) => format!(
            "{}{:02}:{:02}",
            if minutes < 0 { '-' } else { '+' },
            minutes.abs() / 60,
            minutes.abs() % 60
        ),
    };
    Ok((shown, zone))
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
            let handed = statement_clock();
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

    #[test]
    fn an_offset_zone_reads_and_writes_utc_shifted() {
        let zone = Zone::named("+05:30").unwrap();
        assert_eq!(zone, Zone::Offset(330));
        let utc = 1_577_836_800_000_000; // 2020-01-01 00:00:00 UTC
        assert_eq!(zone.local(utc), utc + 330 * MICROS_PER_MINUTE);
        assert_eq!(zone.utc(zone.local(utc)), utc);
        assert_eq!(zone.write_stored(zone.read_stored(utc)), utc);
        let zero = lineardb_table::types::ZERO_DATETIME;
        assert_eq!(
            (zone.read_stored(zero), zone.write_stored(zero)),
            (zero, zero)
        );
        assert_eq!(Zone::named("-00:00"), Some(Zone::Offset(0)));
        assert_eq!(Zone::named("system"), Some(Zone::System));
        assert_eq!(Zone::named("+13:01"), None);
        assert_eq!(Zone::named("UTC"), None);
        assert!(Zone::System.is_servers());
        assert_eq!(time_zone("+1:0").unwrap().0, "+01:00");
        assert_eq!(time_zone("Europe/Paris").unwrap_err().code, 1298);
    }
}
