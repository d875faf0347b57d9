//! DECIMAL values: an unscaled 256-bit integer and a scale,
//! `unscaled / 10^scale`, exact to MariaDB's 65 digits (76 for an
//! intermediate result) with at most 38 after the point.
mod int256;

pub use int256::Int256;
use std::cmp::Ordering;

/// Largest DECIMAL precision (MariaDB's).
pub const MAX_DECIMAL_PRECISION: u8 = 65;
/// Largest DECIMAL scale, of a column and of a computed value (MariaDB's).
pub const MAX_DECIMAL_SCALE: u8 = 38;

/// 10^n for n ≤ 22, the powers of ten a double holds exactly.
const EXACT_POWERS_OF_TEN: [f64; 23] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16,
    1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
];

/// 10^n for n ≤ 38, the powers an i128 holds.
const POW10: [i128; 39] = {
    let mut table = [1i128; 39];
    let mut n = 1;
    while n < 39 {
        table[n] = table[n - 1] * 10;
        n += 1;
    }
    table
};

/// Bytes of a DECIMAL(precision)'s unscaled value in a row and in a key:
/// the smallest of i64, i128 and [`Int256`] that holds its digits.
pub(crate) fn stored_width(precision: u8) -> usize {
    match precision {
        ..=18 => 8,
        19..=38 => 16,
        _ => 32,
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Dec {
    unscaled: Int256,
    pub scale: u8,
}

impl Dec {
    #[inline]
    pub fn new(unscaled: i128, scale: u8) -> Dec {
        Dec {
            unscaled: Int256::from_i128(unscaled),
            scale,
        }
    }

    pub fn from_unscaled(unscaled: Int256, scale: u8) -> Dec {
        Dec { unscaled, scale }
    }

    pub fn unscaled(self) -> Int256 {
        self.unscaled
    }

    /// The unscaled value, if it fits an i128 (every DECIMAL(38) does).
    #[inline]
    pub fn unscaled_i128(self) -> Option<i128> {
        self.unscaled.to_i128()
    }

    pub fn is_zero(self) -> bool {
        self.unscaled.is_zero()
    }

    pub fn is_negative(self) -> bool {
        self.unscaled.is_negative()
    }

    pub fn abs(self) -> Dec {
        Dec::from_unscaled(self.unscaled.abs().unwrap_or(self.unscaled), self.scale)
    }

    /// At `scale` digits after the point, rounding half away from zero (as
    /// MariaDB does); `None` if more digits do not fit.
    #[inline]
    pub fn checked_rescale(self, scale: u8) -> Option<Dec> {
        if scale == self.scale {
            return Some(self);
        }
        // i128 first: the values of ordinary columns.
        if let Some(v) = self.unscaled.to_i128() {
            if scale > self.scale {
                if let Some(r) = POW10
                    .get((scale - self.scale) as usize)
                    .and_then(|p| v.checked_mul(*p))
                {
                    return Some(Dec::new(r, scale));
                }
            } else if let Some(&d) = POW10.get((self.scale - scale) as usize) {
                let (q, r) = (v / d, v % d);
                let q = if r.abs() >= d - r.abs() {
                    q + v.signum()
                } else {
                    q
                };
                return Some(Dec::new(q, scale));
            }
        }
        self.rescale_wide(scale)
    }

    /// [`Dec::checked_rescale`] past i128.
    fn rescale_wide(self, scale: u8) -> Option<Dec> {
        if scale > self.scale {
            let factor = Int256::pow10((scale - self.scale) as u32)?;
            return Some(Dec::from_unscaled(
                self.unscaled.checked_mul(factor)?,
                scale,
            ));
        }
        let d = Int256::pow10((self.scale - scale) as u32)?;
        let (q, r) = self.unscaled.div_rem(d)?;
        let r = r.abs()?;
        let q = if r.checked_add(r)? >= d {
            q.checked_add(Int256::from_i128(self.unscaled.signum() as i128))?
        } else {
            q
        };
        Some(Dec::from_unscaled(q, scale))
    }

    /// [`Dec::checked_rescale`] for a scale no larger than this one, or a
    /// value known to fit (a column's value at the column's scale).
    pub fn rescale(self, scale: u8) -> Dec {
        self.checked_rescale(scale)
            .expect("a decimal rescaled within its 76 digits")
    }

    /// The same value without trailing zeros after the point (1.500 is
    /// 1.5, 2.0 is 2): equal values give equal representations.
    pub fn normalized(self) -> Dec {
        let mut d = self;
        let ten = Int256::from_i128(10);
        while d.scale > 0 {
            let (q, r) = match d.unscaled.to_i128() {
                Some(n) => (Int256::from_i128(n / 10), n % 10 == 0),
                None => {
                    let (q, r) = d.unscaled.div_rem(ten).expect("10 ≠ 0");
                    (q, r.is_zero())
                }
            };
            if !r {
                break;
            }
            d = Dec::from_unscaled(q, d.scale - 1);
        }
        d
    }

    /// Cut to `scale` digits after the point, toward zero.
    pub fn truncate(self, scale: u8) -> Dec {
        if scale >= self.scale {
            return self;
        }
        // Past 10^76 every value cuts to zero.
        match Int256::pow10((self.scale - scale) as u32) {
            Some(d) => Dec::from_unscaled(self.unscaled.div_rem(d).expect("10^n ≠ 0").0, scale),
            None => Dec::new(0, scale),
        }
    }

    /// ROUND(x, digits), or TRUNCATE(x, digits) when `truncate`, for
    /// digits up to 38: at `digits` places after the point (padded with
    /// zeros, as MariaDB shows them, where they fit), a negative count
    /// zeroing as many whole digits.
    pub fn round_digits(self, digits: i32, truncate: bool) -> Dec {
        let cut = |d: Dec, scale: u8| {
            if truncate {
                d.truncate(scale)
            } else {
                d.rescale(scale)
            }
        };
        if digits >= 0 {
            let scale = digits.min(MAX_DECIMAL_SCALE as i32) as u8;
            return if scale >= self.scale {
                self.checked_rescale(scale).unwrap_or(self)
            } else {
                cut(self, scale)
            };
        }
        let places = digits.unsigned_abs();
        if places + self.scale as u32 > 76 {
            // A value of 76 digits is below 10^77: nothing is left.
            return Dec::new(0, 0);
        }
        let places = places as u8;
        // value / 10^places, cut to a whole number, times 10^places.
        let whole = cut(Dec::from_unscaled(self.unscaled, self.scale + places), 0);
        Int256::pow10(places as u32)
            .and_then(|p| whole.unscaled.checked_mul(p))
            .map_or(self, |u| Dec::from_unscaled(u, 0))
    }

    /// The largest integer not above (`ceiling`: the smallest not below).
    pub fn floor_or_ceil(self, ceiling: bool) -> Dec {
        let whole = self.truncate(0);
        let exact = whole.rescale(self.scale) == self;
        let step = match (exact, self.is_negative(), ceiling) {
            (false, true, false) => -1,
            (false, false, true) => 1,
            _ => 0,
        };
        Dec::from_unscaled(
            whole
                .unscaled
                .checked_add(Int256::from_i128(step))
                .expect("a whole part is short of 76 digits"),
            0,
        )
    }

    /// The nearest integer, if it fits an i128.
    pub fn round_to_i128(self) -> Option<i128> {
        self.checked_rescale(0)?.unscaled.to_i128()
    }

    /// The nearest integer, stopping at i128's ends past them.
    pub fn round_to_i128_saturating(self) -> i128 {
        self.round_to_i128().unwrap_or(if self.is_negative() {
            i128::MIN
        } else {
            i128::MAX
        })
    }

    fn checked_neg(self) -> Option<Dec> {
        Some(Dec::from_unscaled(self.unscaled.checked_neg()?, self.scale))
    }

    /// Whether the value has at most `precision` digits at its scale.
    pub fn fits_precision(self, precision: u8) -> bool {
        match Int256::pow10(precision as u32) {
            Some(limit) => self.unscaled.abs().is_some_and(|a| a < limit),
            None => true,
        }
    }

    /// The largest value of DECIMAL(precision, scale), negated if `negative`.
    pub fn extreme(precision: u8, scale: u8, negative: bool) -> Dec {
        let max = Int256::pow10(precision as u32)
            .and_then(|p| p.checked_sub(Int256::from_i128(1)))
            .expect("a precision of at most 65");
        let max = Dec::from_unscaled(max, scale);
        if negative {
            -max
        } else {
            max
        }
    }

    /// The double nearest the value (correctly rounded).
    pub fn to_f64(self) -> f64 {
        if let Some(v) = self.unscaled.to_i128() {
            // Both exact doubles: their quotient rounds once.
            if v.unsigned_abs() < 1 << 53 && self.scale <= 22 {
                return v as f64 / EXACT_POWERS_OF_TEN[self.scale as usize];
            }
        }
        // Through the text, which rounds once.
        self.to_string().parse().unwrap_or(0.0)
    }

    /// A decimal number as text: an optional sign, digits with an optional
    /// point, an optional exponent. Digits after the point past what 76
    /// digits hold are rounded off; `None` when the whole part does not fit.
    pub fn parse(text: &str) -> Option<Dec> {
        let s = text.trim().as_bytes();
        let (negative, s) = match s.first() {
            Some(b'-') => (true, &s[1..]),
            Some(b'+') => (false, &s[1..]),
            _ => (false, s),
        };
        let mantissa_end = s
            .iter()
            .position(|&b| b == b'e' || b == b'E')
            .unwrap_or(s.len());
        let (mantissa, exponent) = s.split_at(mantissa_end);
        // Past i64 an exponent is no number here.
        let exponent: i64 = match exponent {
            [] => 0,
            [_, rest @ ..] => std::str::from_utf8(rest).ok()?.parse().ok()?,
        };
        let (whole, fraction) = match mantissa.iter().position(|&b| b == b'.') {
            Some(p) => (&mantissa[..p], &mantissa[p + 1..]),
            None => (mantissa, &mantissa[..0]),
        };
        if (whole.is_empty() && fraction.is_empty())
            || !whole.iter().chain(fraction).all(u8::is_ascii_digit)
        {
            return None;
        }
        // The digits without leading zeros, which take no room.
        let digits: Vec<u8> = whole
            .iter()
            .chain(fraction)
            .copied()
            .skip_while(|&b| b == b'0')
            .collect();
        let mut scale = (fraction.len() as i64).checked_sub(exponent)?;
        if digits.is_empty() {
            return Some(Dec::new(0, scale.clamp(0, MAX_DECIMAL_SCALE as i64) as u8));
        }
        let mut significant = digits;
        if scale < 0 {
            // Zeros after the digits, as long as 76 digits hold them.
            if significant.len() as i64 - scale > 76 {
                return None;
            }
            significant.extend(std::iter::repeat_n(b'0', (-scale) as usize));
            scale = 0;
        }
        // Keep what fits, at most 76 digits and 76 places, rounding the
        // digits after it off.
        let dropped = (significant.len() as i64 - 76).max(scale - 76).max(0);
        if dropped > scale {
            return None;
        }
        let keep = (significant.len() as i64 - dropped).max(0) as usize;
        let mut unscaled = Int256::from_digits(negative, &significant[..keep])?;
        // The first digit dropped rounds (none when all are dropped and
        // more places yet).
        let first_dropped = (dropped <= significant.len() as i64).then(|| significant.get(keep));
        if first_dropped.flatten().is_some_and(|&d| d >= b'5') {
            let one = Int256::from_i128(if negative { -1 } else { 1 });
            unscaled = unscaled.checked_add(one)?;
        }
        let scale = scale - dropped;
        Some(Dec::from_unscaled(unscaled, u8::try_from(scale).ok()?))
    }

    /// The numeric order of two decimals of any scales.
    pub fn cmp_value(self, other: Dec) -> Ordering {
        let s = self.scale.max(other.scale);
        match (self.checked_rescale(s), other.checked_rescale(s)) {
            (Some(a), Some(b)) => a.unscaled.cmp(&b.unscaled),
            // One is too long at the other's scale: the whole parts differ.
            _ => self.truncate(0).unscaled.cmp(&other.truncate(0).unscaled),
        }
    }

    /// `self + other` at the larger scale; `None` past 76 digits.
    #[inline]
    pub fn checked_add(self, other: Dec) -> Option<Dec> {
        if let Some((a, b, scale)) = self.both_i128(other) {
            if let Some(sum) = a.checked_add(b) {
                return Some(Dec::new(sum, scale));
            }
        }
        self.add_rescaled(other)
    }

    /// Both unscaled values at the larger scale, when they are i128s there.
    #[inline]
    fn both_i128(self, other: Dec) -> Option<(i128, i128, u8)> {
        let (a, b) = (self.unscaled.to_i128()?, other.unscaled.to_i128()?);
        let scale = self.scale.max(other.scale);
        let up = |v: i128, from: u8| match scale - from {
            0 => Some(v),
            n => v.checked_mul(*POW10.get(n as usize)?),
        };
        Some((up(a, self.scale)?, up(b, other.scale)?, scale))
    }

    /// [`Dec::checked_add`] of two scales or past i128.
    fn add_rescaled(self, other: Dec) -> Option<Dec> {
        let s = self.scale.max(other.scale);
        let (a, b) = (self.checked_rescale(s)?, other.checked_rescale(s)?);
        Some(Dec::from_unscaled(a.unscaled.checked_add(b.unscaled)?, s))
    }

    #[inline]
    pub fn checked_sub(self, other: Dec) -> Option<Dec> {
        if let Some((a, b, scale)) = self.both_i128(other) {
            if let Some(difference) = a.checked_sub(b) {
                return Some(Dec::new(difference, scale));
            }
        }
        self.add_rescaled(other.checked_neg()?)
    }

    /// `self × other` at the sum of the scales, rounded to 38 digits after
    /// the point past that (MariaDB's).
    #[inline]
    pub fn checked_mul(self, other: Dec) -> Option<Dec> {
        let scale = self.scale as u32 + other.scale as u32;
        if scale <= MAX_DECIMAL_SCALE as u32 {
            if let (Some(a), Some(b)) = (self.unscaled.to_i128(), other.unscaled.to_i128()) {
                if let Some(product) = a.checked_mul(b) {
                    return Some(Dec::new(product, scale as u8));
                }
            }
        }
        self.mul_wide(other)
    }

    /// [`Dec::checked_mul`] past i128 or 38 places.
    fn mul_wide(self, other: Dec) -> Option<Dec> {
        let scale = self.scale as u32 + other.scale as u32;
        if scale <= MAX_DECIMAL_SCALE as u32 {
            let product = self.unscaled.checked_mul(other.unscaled)?;
            return Some(Dec::from_unscaled(product, scale as u8));
        }
        // Rounded to 38 places in 512 bits: the exact product of two
        // 65-digit values need not fit where the rounded one does.
        let cut = Int256::pow10(scale - MAX_DECIMAL_SCALE as u32)?;
        let product = self.unscaled.mul_div_round(other.unscaled, cut)?;
        Some(Dec::from_unscaled(product, MAX_DECIMAL_SCALE))
    }

    /// `self / other` at `scale` digits after the point, rounded half away
    /// from zero; `None` for a zero divisor or past 76 digits.
    pub fn checked_div(self, other: Dec, scale: u8) -> Option<Dec> {
        if other.is_zero() {
            return None;
        }
        // self·10^(scale + other.scale − self.scale) / other.unscaled
        // (the shifted dividend in 512 bits: only the quotient must fit).
        let shift = scale as i32 + other.scale as i32 - self.scale as i32;
        let q = if shift >= 0 {
            let up = Int256::pow10(shift as u32)?;
            self.unscaled.mul_div_round(up, other.unscaled)?
        } else {
            let den = other
                .unscaled
                .checked_mul(Int256::pow10((-shift) as u32)?)?;
            self.unscaled.mul_div_round(Int256::from_i128(1), den)?
        };
        Some(Dec::from_unscaled(q, scale))
    }

    /// The remainder of `self / other` (the dividend's sign) at the larger
    /// scale; `None` for a zero divisor.
    pub fn checked_rem(self, other: Dec) -> Option<Dec> {
        let s = self.scale.max(other.scale);
        let (a, b) = (self.checked_rescale(s)?, other.checked_rescale(s)?);
        let (_, r) = a.unscaled.div_rem(b.unscaled)?;
        Some(Dec::from_unscaled(r, s))
    }

    /// The quotient of `self / other` truncated to an integer.
    pub fn checked_int_div(self, other: Dec) -> Option<Int256> {
        let s = self.scale.max(other.scale);
        let (a, b) = (self.checked_rescale(s)?, other.checked_rescale(s)?);
        Some(a.unscaled.div_rem(b.unscaled)?.0)
    }
}

impl std::ops::Neg for Dec {
    type Output = Dec;

    /// −self (a DECIMAL's 76 digits negate within 256 bits).
    fn neg(self) -> Dec {
        self.checked_neg().unwrap_or(self)
    }
}

impl std::fmt::Display for Dec {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let digits = self.unscaled.magnitude_digits();
        let sign = if self.unscaled.is_negative() { "-" } else { "" };
        let scale = self.scale as usize;
        if scale == 0 {
            return write!(f, "{sign}{digits}");
        }
        if digits.len() > scale {
            let (whole, fraction) = digits.split_at(digits.len() - scale);
            write!(f, "{sign}{whole}.{fraction}")
        } else {
            write!(f, "{sign}0.{digits:0>scale$}")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(s: &str) -> Dec {
        Dec::parse(s).unwrap()
    }

    #[test]
    fn parses_and_prints_as_written() {
        for s in [
            "0",
            "1.50",
            "-0.05",
            "12345678901234567890123456789012345.123456789012345678901234567890",
            "0.12345678901234567890123456789012345678",
            "-99999999999999999999999999999999999999999999999999999999999999999",
        ] {
            assert_eq!(d(s).to_string(), s);
        }
        assert_eq!(d("1e40").to_string(), format!("1{}", "0".repeat(40)));
        assert_eq!(d("1.5E-3").to_string(), "0.0015");
        assert_eq!(d(" +7. ").to_string(), "7");
        assert_eq!(d(".5").to_string(), "0.5");
        for bad in ["", ".", "1.2.3", "1e", "abc", "1-"] {
            assert_eq!(Dec::parse(bad), None, "{bad}");
        }
        // 80 digits after the point: rounded to the 76 that fit.
        let long = format!("0.{}", "6".repeat(80));
        assert_eq!(d(&long).to_string(), format!("0.{}7", "6".repeat(75)));
        assert_eq!(Dec::parse(&"9".repeat(80)), None);
        // 77 and 101 places: rounded to 76.
        let tiny = format!("0.{}5", "0".repeat(76));
        assert_eq!(d(&tiny).to_string(), format!("0.{}1", "0".repeat(75)));
        let tinier = format!("0.{}1", "0".repeat(100));
        assert_eq!(d(&tinier).to_string(), format!("0.{}", "0".repeat(76)));
        assert_eq!(d(&tinier).truncate(0).to_string(), "0");
        // Exponents that no decimal holds, and ones that only make zeros.
        assert_eq!(Dec::parse("1e2000000000"), None);
        assert_eq!(
            Dec::parse("1e-9223372036854775807").map(|x| x.is_zero()),
            Some(true)
        );
        assert_eq!(Dec::parse("1e-9223372036854775808"), None);
        assert_eq!(Dec::parse("1e99999999999999999999"), None);
        assert_eq!(
            Dec::parse("0e2000000000").map(|x| x.to_string()),
            Some("0".into())
        );
        assert_eq!(d("5e-77").to_string(), format!("0.{}1", "0".repeat(75)));
        assert_eq!(d("4e-77").to_string(), format!("0.{}", "0".repeat(76)));
        assert_eq!(d("1.5e75").to_string(), format!("15{}", "0".repeat(74)));
    }

    #[test]
    fn arithmetic_as_mariadb() {
        // Each result as MariaDB 10.11 gives it.
        let mul = |a: &str, b: &str| d(a).checked_mul(d(b)).unwrap().to_string();
        assert_eq!(
            mul(
                "0.12345678901234567890123456789012345",
                "0.1234567890123456789"
            ),
            "0.01524157875323883675034293577503429274"
        );
        assert_eq!(
            mul(
                "12345678901234567890123456789012345678901234567890123456789012345",
                "10"
            ),
            "123456789012345678901234567890123456789012345678901234567890123450"
        );
        // The exact products pass 256 bits; rounded to 38 places they fit.
        assert_eq!(
            mul(
                "1234567890.123456789012345678901234568",
                "-9876543210.987654321098765432109877"
            ),
            "-12193263113702179522.61850327338667942447339836923609155160"
        );
        let div = |a: &str, b: &str, s| d(a).checked_div(d(b), s).unwrap().to_string();
        // The shifted dividend passes 256 bits; the quotient fits.
        assert_eq!(
            div(
                "12345678901234567890123456.123456789",
                "0.000000000000000000000000000003",
                13
            ),
            "4115226300411522630041152041152263000000000000000000000.0000000000000"
        );
        assert_eq!(div("1", "3", 4), "0.3333");
        assert_eq!(div("2", "3", 4), "0.6667");
        assert_eq!(div("-2", "3", 4), "-0.6667");
        assert_eq!(
            div("1.000000000000000000000000000000000000", "3", 38),
            "0.33333333333333333333333333333333333333"
        );
        assert_eq!(
            d("99999999999999999999999999999999999999999999999999999999999999999")
                .checked_add(d("1"))
                .unwrap()
                .to_string(),
            format!("1{}", "0".repeat(65))
        );
        assert_eq!(d("1.5").checked_rem(d("-0.4")).unwrap().to_string(), "0.3");
        assert_eq!(d("-2.5").rescale(0).to_string(), "-3");
        assert_eq!(d("-2.4").floor_or_ceil(false).to_string(), "-3");
        assert_eq!(d("2.1").floor_or_ceil(true).to_string(), "3");
        assert_eq!(d("-2.9").truncate(0).to_string(), "-2");
        assert_eq!(
            d("1e60").cmp_value(d("0.000000000000000000000000000000000001")),
            Ordering::Greater
        );
        assert!(d("99.99").fits_precision(4));
        assert!(!d("100.00").fits_precision(4));
        assert_eq!(Dec::extreme(5, 2, true).to_string(), "-999.99");
        let round = |x: &str, n, t| d(x).round_digits(n, t).to_string();
        assert_eq!(round("1.5", 3, false), "1.500");
        assert_eq!(round("1.55", 1, false), "1.6");
        assert_eq!(round("-1.55", 1, true), "-1.5");
        assert_eq!(round("12.5", -1, false), "10");
        assert_eq!(round("15", -1, false), "20");
        assert_eq!(round("-15", -1, false), "-20");
        assert_eq!(round("19", -1, true), "10");
        assert_eq!(round("1.5", 40, true), format!("1.5{}", "0".repeat(37)));
    }
}
