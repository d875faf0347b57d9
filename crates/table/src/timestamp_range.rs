//! The values a TIMESTAMP holds: from 1970-01-01 00:00:01 to 2038-01-19
//! 03:14:07.999999 UTC (MariaDB's, seconds since the epoch in 31 bits),
//! besides its zero value. A TIMESTAMP's stored values are times of the
//! server's time zone, so the bounds are those instants in that zone.
use std::sync::OnceLock;

const FIRST_UTC: i64 = 1_000_000;
const LAST_UTC: i64 = (i32::MAX as i64 + 1) * 1_000_000 - 1;

/// Whether `stored`, a time of the server's zone, is one a TIMESTAMP holds.
pub(crate) fn holds(stored: i64) -> bool {
    static BOUNDS: OnceLock<(i64, i64)> = OnceLock::new();
    let (first, last) = *BOUNDS.get_or_init(|| (server_local(FIRST_UTC), server_local(LAST_UTC)));
    (first..=last).contains(&stored)
}

/// `utc` (microseconds since the epoch) as a time of the server's zone.
fn server_local(utc: i64) -> i64 {
    use chrono::{Local, Offset, TimeZone};
    let offset = match Local.timestamp_opt(utc.div_euclid(1_000_000), 0) {
        chrono::LocalResult::Single(t) | chrono::LocalResult::Ambiguous(t, _) => {
            i64::from(t.offset().fix().local_minus_utc())
        }
        chrono::LocalResult::None => 0,
    };
    utc + offset * 1_000_000
}
