//! DOUBLE and FLOAT values as text, as MariaDB writes them (its
//! `my_gcvt`): the shortest digits that read back as the value (a FLOAT's
//! at most six), positional unless that would be long or unreadable —
//! past 10^15 with no digits after the point, or below 10^-15 — and never
//! wider than the room given: a string column of `n` characters rounds the
//! number to fit, and only a number that cannot fit at all overflows.

/// Whether the number is a FLOAT (six significant digits at most, so that
/// digits past its precision are not shown) or a DOUBLE.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Precision {
    Float,
    Double,
}

/// FLT_DIG.
const FLOAT_DIGITS: usize = 6;
/// Past this many places either side of the point, a number that has
/// room for positional notation is still written with an exponent
/// (MAX_DECPT_FOR_F_FORMAT, DBL_DIG).
const MAX_POINT_FOR_POSITIONAL: i32 = 15;
/// The room MariaDB gives a DOUBLE's text (FLOATING_POINT_BUFFER − 1) and
/// a FLOAT's (69).
pub const DOUBLE_WIDTH: usize = 341;
pub const FLOAT_WIDTH: usize = 69;

/// Significant digits (no leading or trailing zeros; none for a number
/// that rounded to zero) and the point's place: the value is
/// 0.DIGITS × 10^point.
struct Digits {
    digits: Vec<u8>,
    point: i32,
}

/// Digits of `a` (≥ 0) from Rust's exact formatting in scientific form.
fn from_scientific(s: &str) -> Digits {
    let (mantissa, exp) = s.split_once('e').expect("an exponent");
    let exp: i32 = exp.parse().expect("exponent digits");
    let mut digits: Vec<u8> = mantissa.bytes().filter(u8::is_ascii_digit).collect();
    while digits.len() > 1 && digits.last() == Some(&b'0') {
        digits.pop();
    }
    Digits {
        digits,
        point: exp + 1,
    }
}

/// The shortest digits that read back as `a`, or `a` rounded to
/// `max_digits` significant digits when those are more (dtoa's mode 4).
fn significant(a: f64, max_digits: usize) -> Digits {
    if a == 0.0 {
        return Digits {
            digits: vec![b'0'],
            point: 1,
        };
    }
    let shortest = from_scientific(&format!("{a:e}"));
    if shortest.digits.len() <= max_digits.max(1) {
        return shortest;
    }
    from_scientific(&format!("{a:.*e}", max_digits.max(1) - 1))
}

/// `a` rounded to `places` digits after the point (dtoa's mode 5).
fn fixed(a: f64, places: usize) -> Digits {
    let s = format!("{a:.places$}");
    let (whole, fraction) = s.split_once('.').unwrap_or((&s, ""));
    let all: Vec<u8> = whole.bytes().chain(fraction.bytes()).collect();
    let leading = all.iter().take_while(|&&c| c == b'0').count();
    let mut digits = all[leading..].to_vec();
    while digits.last() == Some(&b'0') {
        digits.pop();
    }
    Digits {
        digits,
        point: whole.len() as i32 - leading as i32,
    }
}

/// `x` as text of at most `width` characters (at least 1), and whether it
/// overflowed that room (was cut to the width rather than rounded).
pub fn gcvt(x: f64, precision: Precision, width: usize) -> (String, bool) {
    let (mut text, overflow) = unbounded_gcvt(x, precision, width);
    // What overflowed is cut to the room (all of it ASCII).
    text.truncate(width.max(1));
    (text, overflow)
}

fn unbounded_gcvt(x: f64, precision: Precision, width: usize) -> (String, bool) {
    if !x.is_finite() {
        return ("0".into(), true);
    }
    let negative = x < 0.0;
    let a = x.abs();
    let mut width = width as i32 - i32::from(negative);
    let max_digits = match precision {
        Precision::Double => width.max(1) as usize,
        Precision::Float => (width.max(1) as usize).min(FLOAT_DIGITS),
    };
    let Digits { digits, point } = significant(a, max_digits);
    let len = digits.len() as i32;
    let exp_len =
        1 + i32::from(point >= 101 || point <= -99) + i32::from(point >= 11 || point <= -9);
    let positional_len = if point <= 0 {
        len - point + 2
    } else if point < len {
        len + 1
    } else {
        point
    };
    let have_space = positional_len <= width;
    let force_exponent = point <= 0 && width <= 2 - point && width >= 3 + exp_len;
    let positional = (have_space || (point <= width && point >= -2 && !force_exponent))
        && (!have_space
            || (point > -MAX_POINT_FOR_POSITIONAL
                && (point <= MAX_POINT_FOR_POSITIONAL || len > point)));
    let mut out = String::new();
    let mut overflow = false;
    if positional {
        width -= i32::from(point < len) + if point <= 0 { 1 - point } else { 0 };
        let (digits, point) = if width < len {
            if width < point {
                overflow = true;
                width = point;
            }
            let d = fixed(a, (width - point).max(0) as usize);
            (d.digits, d.point)
        } else {
            (digits, point)
        };
        if digits.is_empty() {
            return ("0".into(), overflow);
        }
        if negative {
            out.push('-');
        }
        if point <= 0 {
            out.push_str("0.");
            out.extend(std::iter::repeat_n('0', (-point) as usize));
        }
        for (i, &d) in digits.iter().enumerate() {
            out.push(d as char);
            if i as i32 + 1 == point && (i + 1) < digits.len() {
                out.push('.');
            }
        }
        for _ in digits.len() as i32..point {
            out.push('0');
        }
    } else {
        let mut exponent = point - 1;
        if exponent < 0 {
            width -= 1;
        }
        width -= 1 + exp_len;
        if len > 1 {
            width -= 1;
        }
        if width <= 0 {
            overflow = true;
            width = 0;
        }
        let digits = if width < len {
            let d = significant(a, width.max(1) as usize);
            exponent = d.point - 1;
            d.digits
        } else {
            digits
        };
        if negative {
            out.push('-');
        }
        out.push(digits[0] as char);
        if digits.len() > 1 {
            out.push('.');
            out.extend(digits[1..].iter().map(|&d| d as char));
        }
        out.push('e');
        if exponent < 0 {
            out.push('-');
        }
        out.push_str(&exponent.unsigned_abs().to_string());
    }
    (out, overflow)
}

/// A DOUBLE's text, as MariaDB shows it in a result or a string (a
/// negative zero as 0: it is not below zero).
pub fn double_text(x: f64) -> String {
    gcvt(x, Precision::Double, DOUBLE_WIDTH).0
}

/// A FLOAT column's text.
pub fn float_text(x: f64) -> String {
    gcvt(x, Precision::Float, FLOAT_WIDTH).0
}

/// A DOUBLE as a CHAR or VARCHAR column of `chars` characters stores it
/// (MariaDB's `Field_str::store(double)`): rounded to fit, and whether
/// even that overflowed (then cut to the width).
pub fn column_text(x: f64, chars: u32) -> (String, bool) {
    let width = (chars as usize).clamp(1, DOUBLE_WIDTH);
    gcvt(x, Precision::Double, width)
}

#[cfg(test)]
mod tests {
    use super::*;

    // Each as MariaDB 10.11 writes it.
    #[test]
    fn doubles_are_written_as_mariadb_writes_them() {
        for (x, text) in [
            (0.0, "0"),
            (-0.0, "0"),
            (-1.25e-10, "-0.000000000125"),
            (1e-20, "1e-20"),
            (1e-16, "1e-16"),
            (1e-15, "0.000000000000001"),
            (1.5e15, "1.5e15"),
            (1e15, "1e15"),
            (123456789012345.0, "123456789012345"),
            (1234567890123456.0, "1.234567890123456e15"),
            (1234567.5, "1234567.5"),
            (1e300, "1e300"),
            (0.1, "0.1"),
            (-0.00012345678987912834, "-0.00012345678987912834"),
            (1.500000014041088e15, "1.500000014041088e15"),
            (123456789012345680.0, "1.2345678901234568e17"),
        ] {
            assert_eq!(double_text(x), text, "{x:e}");
        }
    }

    #[test]
    fn floats_show_six_digits() {
        let f = |x: f32| float_text(f64::from(x));
        assert_eq!(f(1.234_567_9), "1.23457");
        assert_eq!(f(1_234_567.8), "1234570");
        assert_eq!(f(0.1), "0.1");
        assert_eq!(f(123_456_789.0), "123457000");
        assert_eq!(f(-1.25e-10), "-0.000000000125");
        assert_eq!(f(1e-20), "1e-20");
        assert_eq!(f(1.5e15), "1.5e15");
        assert_eq!(f(3.4e38), "3.4e38");
        assert_eq!(f(1e-45), "1.4013e-45");
        assert_eq!(f(16_777_217.0), "16777200");
        assert_eq!(f(0.000_123_457), "0.000123457");
        assert_eq!(f(1e20), "1e20");
        assert_eq!(f(-2.5), "-2.5");
        assert_eq!(f(1.5e-7), "0.00000015");
        assert_eq!(f(0.0), "0");
        assert_eq!(f(-0.0), "0");
    }

    #[test]
    fn a_narrow_room_rounds_the_number_to_fit() {
        let g = |x: f64, w: usize| gcvt(x, Precision::Double, w);
        assert_eq!(g(5.678_9, 4), ("5.68".into(), false));
        assert_eq!(g(12345.6, 4), ("1e4".into(), false));
        assert_eq!(g(123456789.0, 6), ("1.23e8".into(), false));
        assert_eq!(g(1.5e-7, 6), ("1.5e-7".into(), false));
        assert_eq!(g(123456.0, 4), ("1e5".into(), false));
        assert!(g(1e300, 4).1);
        assert_eq!(g(2.5e-300, 6), ("2e-300".into(), true));
        assert_eq!(g(0.9, 1), ("1".into(), true));
        assert_eq!(g(1e10, 3), ("1e1".into(), true));
        assert_eq!(g(-0.5, 3), ("0".into(), false));
    }
}
