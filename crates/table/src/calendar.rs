//! The civil calendar the date types count in: days since 1970-01-01
//! (proleptic Gregorian), and the zero date MariaDB keeps besides them.

/// Microseconds in a day.
pub const MICROS_PER_DAY: i64 = 86_400_000_000;

/// Days since 1970-01-01 of a civil date (proleptic Gregorian).
pub fn days_from_civil(y: i32, m: u32, d: u32) -> i32 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = if y >= 0 { y } else { y - 399 } / 400;
    let yoe = y - era * 400;
    let mp = (m as i32 + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d as i32 - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// The zero date '0000-00-00' (MariaDB's without NO_ZERO_DATE), as days:
/// below every date, and a DATETIME's [`ZERO_DATETIME`] when multiplied
/// out, so the two convert and compare as any date and datetime do.
pub const ZERO_DATE: i32 = -100_000_000;
/// The zero datetime '0000-00-00 00:00:00'.
pub const ZERO_DATETIME: i64 = ZERO_DATE as i64 * MICROS_PER_DAY;

/// The civil date (year, month, day) of days since 1970-01-01; (0, 0, 0)
/// for the zero date.
pub fn civil_from_days(z: i32) -> (i32, u32, u32) {
    if z == ZERO_DATE {
        return (0, 0, 0);
    }
    let z = z + 719_468;
    let era = if z >= 0 { z } else { z - 146_096 } / 146_097;
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let y = yoe + era * 400;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    (if m <= 2 { y + 1 } else { y }, m, d)
}

/// Days in month `m` of year `y`.
pub(crate) fn days_in_month(y: i32, m: u32) -> u32 {
    match m {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        _ if (y % 4 == 0 && y % 100 != 0) || y % 400 == 0 => 29,
        _ => 28,
    }
}
