//! A signed 256-bit integer: the unscaled value of a DECIMAL, which holds
//! up to 65 digits (an intermediate result up to 76).
//!
//! Two's complement in four little-endian 64-bit limbs. Every operation
//! first tries i128, which holds the values of every DECIMAL(38) and the
//! products and sums of ordinary money columns; the limb arithmetic runs
//! only past that.
use std::cmp::Ordering;

#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Int256([u64; 4]);

/// A magnitude: four little-endian limbs, unsigned.
type Limbs = [u64; 4];

impl Int256 {
    pub const ZERO: Int256 = Int256([0; 4]);

    #[inline]
    pub fn from_i128(v: i128) -> Int256 {
        let low = v as u128;
        let extension = if v < 0 { u64::MAX } else { 0 };
        Int256([low as u64, (low >> 64) as u64, extension, extension])
    }

    /// The value as an i128, if it is one.
    #[inline]
    pub fn to_i128(self) -> Option<i128> {
        let v = (self.0[0] as u128 | (self.0[1] as u128) << 64) as i128;
        let extension = if v < 0 { u64::MAX } else { 0 };
        (self.0[2] == extension && self.0[3] == extension).then_some(v)
    }

    #[inline]
    pub fn is_negative(self) -> bool {
        (self.0[3] as i64) < 0
    }

    #[inline]
    pub fn is_zero(self) -> bool {
        self == Int256::ZERO
    }

    pub fn signum(self) -> i32 {
        if self.is_negative() {
            -1
        } else if self.is_zero() {
            0
        } else {
            1
        }
    }

    /// −self; `None` for the one value whose negation does not fit.
    pub fn checked_neg(self) -> Option<Int256> {
        if let Some(n) = self.to_i128().and_then(i128::checked_neg) {
            return Some(Int256::from_i128(n));
        }
        let (negative, magnitude) = self.split();
        Int256::join(!negative, magnitude)
    }

    pub fn abs(self) -> Option<Int256> {
        if self.is_negative() {
            self.checked_neg()
        } else {
            Some(self)
        }
    }

    pub fn checked_add(self, other: Int256) -> Option<Int256> {
        if let (Some(a), Some(b)) = (self.to_i128(), other.to_i128()) {
            if let Some(sum) = a.checked_add(b) {
                return Some(Int256::from_i128(sum));
            }
        }
        let mut sum = [0u64; 4];
        let mut carry = false;
        for (i, limb) in sum.iter_mut().enumerate() {
            let (s, c1) = self.0[i].overflowing_add(other.0[i]);
            let (s, c2) = s.overflowing_add(carry as u64);
            *limb = s;
            carry = c1 || c2;
        }
        let sum = Int256(sum);
        // Overflow: both operands of one sign and the sum of the other.
        let overflow =
            self.is_negative() == other.is_negative() && sum.is_negative() != self.is_negative();
        (!overflow).then_some(sum)
    }

    pub fn checked_sub(self, other: Int256) -> Option<Int256> {
        self.checked_add(other.checked_neg()?)
    }

    pub fn checked_mul(self, other: Int256) -> Option<Int256> {
        if let (Some(a), Some(b)) = (self.to_i128(), other.to_i128()) {
            if let Some(product) = a.checked_mul(b) {
                return Some(Int256::from_i128(product));
            }
        }
        let (a_negative, a) = self.split();
        let (b_negative, b) = other.split();
        Int256::join(a_negative != b_negative, narrow(multiply(a, b))?)
    }

    /// `self × m / d` rounded half away from zero, the product kept in 512
    /// bits so that only the quotient must fit; `None` when `d` is zero or
    /// the quotient passes 255 bits.
    pub fn mul_div_round(self, m: Int256, d: Int256) -> Option<Int256> {
        if d.is_zero() {
            return None;
        }
        if let (Some(a), Some(m), Some(d)) = (self.to_i128(), m.to_i128(), d.to_i128()) {
            if let Some(n) = a.checked_mul(m) {
                if let (Some(q), Some(r)) = (n.checked_div(d), n.checked_rem(d)) {
                    // |r| < |d|, so 2|r| ≥ |d| tells the half without overflow.
                    let half = r.unsigned_abs() >= d.unsigned_abs() - r.unsigned_abs();
                    let away = if (n < 0) != (d < 0) { -1 } else { 1 };
                    return Some(Int256::from_i128(if half { q + away } else { q }));
                }
            }
        }
        let (a_negative, a) = self.split();
        let (m_negative, m) = m.split();
        let (d_negative, d) = d.split();
        let (q, r) = divide(multiply(a, m), d);
        let mut q = narrow(q)?;
        // r < d < 2^255, so 2r fits.
        if compare(shift_left_one(r), d) != Ordering::Less {
            q = add_one(q)?;
        }
        Int256::join(a_negative ^ m_negative ^ d_negative, q)
    }

    /// The quotient truncated toward zero and the remainder (of the
    /// dividend's sign); `None` when `divisor` is zero.
    pub fn div_rem(self, divisor: Int256) -> Option<(Int256, Int256)> {
        if divisor.is_zero() {
            return None;
        }
        if let (Some(a), Some(b)) = (self.to_i128(), divisor.to_i128()) {
            if let (Some(q), Some(r)) = (a.checked_div(b), a.checked_rem(b)) {
                return Some((Int256::from_i128(q), Int256::from_i128(r)));
            }
        }
        let (a_negative, a) = self.split();
        let (b_negative, b) = divisor.split();
        let (q, r) = divide(a, b);
        Some((
            Int256::join(a_negative != b_negative, q)?,
            Int256::join(a_negative, r)?,
        ))
    }

    /// 10^n; `None` past 10^76.
    pub fn pow10(n: u32) -> Option<Int256> {
        if n <= 38 {
            return Some(Int256::from_i128(10i128.pow(n)));
        }
        Int256::pow10(n - 38)?.checked_mul(Int256::from_i128(10i128.pow(38)))
    }

    pub fn to_f64(self) -> f64 {
        if let Some(v) = self.to_i128() {
            return v as f64;
        }
        let (negative, m) = self.split();
        let f = m
            .iter()
            .rev()
            .fold(0.0, |acc, &limb| acc * 18446744073709551616.0 + limb as f64);
        if negative {
            -f
        } else {
            f
        }
    }

    pub fn to_le_bytes(self) -> [u8; 32] {
        let mut out = [0u8; 32];
        for (chunk, limb) in out.chunks_exact_mut(8).zip(self.0) {
            chunk.copy_from_slice(&limb.to_le_bytes());
        }
        out
    }

    pub fn from_le_bytes(bytes: [u8; 32]) -> Int256 {
        let mut limbs = [0u64; 4];
        for (limb, chunk) in limbs.iter_mut().zip(bytes.chunks_exact(8)) {
            *limb = u64::from_le_bytes(chunk.try_into().expect("8 bytes"));
        }
        Int256(limbs)
    }

    /// The decimal digits of the magnitude (no sign), "0" for zero.
    pub fn magnitude_digits(self) -> String {
        if let Some(v) = self.to_i128() {
            return v.unsigned_abs().to_string();
        }
        let (_, mut m) = self.split();
        // Groups of 19 digits, least significant first.
        let mut groups = Vec::new();
        while m != [0; 4] {
            let (q, r) = divide_small(m, 10_000_000_000_000_000_000);
            groups.push(r);
            m = q;
        }
        let mut out = groups.pop().unwrap_or(0).to_string();
        for g in groups.iter().rev() {
            out.push_str(&format!("{g:019}"));
        }
        out
    }

    /// The integer `digits` (ASCII digits only) with `negative`'s sign;
    /// `None` if it does not fit.
    pub fn from_digits(negative: bool, digits: &[u8]) -> Option<Int256> {
        let mut v = Int256::ZERO;
        for chunk in digits.chunks(18) {
            let mut n = 0i128;
            for &d in chunk {
                n = n * 10 + (d - b'0') as i128;
            }
            v = v
                .checked_mul(Int256::pow10(chunk.len() as u32)?)?
                .checked_add(Int256::from_i128(n))?;
        }
        if negative {
            v.checked_neg()
        } else {
            Some(v)
        }
    }

    /// The sign and the magnitude.
    fn split(self) -> (bool, Limbs) {
        if !self.is_negative() {
            return (false, self.0);
        }
        (true, self.wrapping_neg().0)
    }

    /// The value of a sign and a magnitude; `None` if the magnitude does not
    /// fit in 255 bits.
    fn join(negative: bool, m: Limbs) -> Option<Int256> {
        if (m[3] as i64) < 0 {
            return None;
        }
        if !negative {
            return Some(Int256(m));
        }
        Some(Int256(m).wrapping_neg())
    }

    /// The two's complement negation (!x + 1), wrapping at 2^256.
    fn wrapping_neg(self) -> Int256 {
        let mut out = [0u64; 4];
        let mut carry = true;
        for (i, limb) in out.iter_mut().enumerate() {
            let (s, c) = (!self.0[i]).overflowing_add(carry as u64);
            *limb = s;
            carry = c;
        }
        Int256(out)
    }
}

/// The full product of two magnitudes, in eight limbs.
fn multiply(a: Limbs, b: Limbs) -> [u64; 8] {
    let mut wide = [0u64; 8];
    for (i, &x) in a.iter().enumerate() {
        let mut carry = 0u128;
        for (j, &y) in b.iter().enumerate() {
            let t = x as u128 * y as u128 + wide[i + j] as u128 + carry;
            wide[i + j] = t as u64;
            carry = t >> 64;
        }
        wide[i + 4] = carry as u64;
    }
    wide
}

/// The low four limbs, if the high four are zero.
fn narrow(wide: [u64; 8]) -> Option<Limbs> {
    if wide[4..].iter().any(|&l| l != 0) {
        return None;
    }
    Some(wide[..4].try_into().expect("4 limbs"))
}

fn shift_left_one(a: Limbs) -> Limbs {
    let mut out = [0u64; 4];
    let mut carry = 0;
    for (o, &limb) in out.iter_mut().zip(a.iter()) {
        *o = limb << 1 | carry;
        carry = limb >> 63;
    }
    out
}

fn add_one(a: Limbs) -> Option<Limbs> {
    let mut out = a;
    for limb in out.iter_mut() {
        let (s, overflow) = limb.overflowing_add(1);
        *limb = s;
        if !overflow {
            return Some(out);
        }
    }
    None
}

/// Unsigned division of an `N`-limb magnitude by a non-zero one below
/// 2^255: (quotient, remainder).
fn divide<const N: usize>(a: [u64; N], b: Limbs) -> ([u64; N], Limbs) {
    if b[1..] == [0, 0, 0] {
        let (q, r) = divide_small(a, b[0]);
        return (q, [r, 0, 0, 0]);
    }
    // Shift and subtract, one bit at a time: long divisors are rare (a
    // division of two values past 19 digits). The remainder stays below
    // b < 2^255, so shifting it left keeps it in four limbs.
    let mut q = [0u64; N];
    let mut r = [0u64; 4];
    for bit in (0..N * 64).rev() {
        // r = r << 1 | bit of a
        let mut carry = (a[bit / 64] >> (bit % 64)) & 1;
        for limb in r.iter_mut() {
            let next = *limb >> 63;
            *limb = *limb << 1 | carry;
            carry = next;
        }
        if compare(r, b) != Ordering::Less {
            let mut borrow = false;
            for (i, limb) in r.iter_mut().enumerate() {
                let (d, b1) = limb.overflowing_sub(b[i]);
                let (d, b2) = d.overflowing_sub(borrow as u64);
                *limb = d;
                borrow = b1 || b2;
            }
            q[bit / 64] |= 1 << (bit % 64);
        }
    }
    (q, r)
}

/// Division of a magnitude by one limb: (quotient, remainder).
fn divide_small<const N: usize>(a: [u64; N], d: u64) -> ([u64; N], u64) {
    let mut q = [0u64; N];
    let mut r = 0u128;
    for i in (0..N).rev() {
        let cur = r << 64 | a[i] as u128;
        q[i] = (cur / d as u128) as u64;
        r = cur % d as u128;
    }
    (q, r as u64)
}

fn compare(a: Limbs, b: Limbs) -> Ordering {
    a.iter().rev().cmp(b.iter().rev())
}

impl Ord for Int256 {
    fn cmp(&self, other: &Int256) -> Ordering {
        match (self.to_i128(), other.to_i128()) {
            (Some(a), Some(b)) => a.cmp(&b),
            _ => {
                let flip = |x: &Int256| {
                    let mut l = x.0;
                    l[3] ^= 1 << 63;
                    l
                };
                compare(flip(self), flip(other))
            }
        }
    }
}

impl PartialOrd for Int256 {
    fn partial_cmp(&self, other: &Int256) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl std::fmt::Debug for Int256 {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let sign = if self.is_negative() { "-" } else { "" };
        write!(f, "{sign}{}", self.magnitude_digits())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn big(s: &str) -> Int256 {
        let (negative, digits) = match s.strip_prefix('-') {
            Some(d) => (true, d),
            None => (false, s),
        };
        Int256::from_digits(negative, digits.as_bytes()).unwrap()
    }

    #[test]
    fn digits_round_trip_past_i128() {
        for s in [
            "0",
            "-1",
            "170141183460469231731687303715884105727",
            "170141183460469231731687303715884105728",
            "-99999999999999999999999999999999999999999999999999999999999999999",
            "57896044618658097711785492504343953926634992332820282019728792003956564819967",
        ] {
            assert_eq!(format!("{:?}", big(s)), s);
        }
        assert!(Int256::from_digits(
            false,
            b"57896044618658097711785492504343953926634992332820282019728792003956564819968"
        )
        .is_none());
    }

    #[test]
    fn arithmetic_past_i128() {
        let a = big("12345678901234567890123456789012345678901234567890");
        let b = big("-98765432109876543210");
        let p = a.checked_mul(b).unwrap();
        assert_eq!(
            format!("{p:?}"),
            "-1219326311370217952249657064224965706422496570642237463801111263526900"
        );
        let (q, r) = p.div_rem(b).unwrap();
        assert_eq!((q, r), (a, Int256::ZERO));
        assert!(a.checked_mul(a).is_none());
        assert_eq!(Int256::pow10(76).unwrap().magnitude_digits().len(), 77);
        assert!(Int256::pow10(77).is_none());
    }

    fn wide() -> impl Strategy<Value = (bool, Vec<u8>)> {
        (any::<bool>(), prop::collection::vec(b'0'..=b'9', 1..70))
    }

    proptest! {
        /// Against i128 where both fit, and against the digits' own
        /// arithmetic (a·b/b = a, (a+b)−b = a) where they do not.
        #[test]
        fn agrees_with_i128(a in any::<i64>(), b in any::<i64>(), c in any::<i128>()) {
            let (x, y) = (Int256::from_i128(a as i128), Int256::from_i128(b as i128));
            let (a, b) = (a as i128, b as i128);
            prop_assert_eq!(x.checked_add(y).unwrap().to_i128(), Some(a + b));
            prop_assert_eq!(x.checked_sub(y).unwrap().to_i128(), Some(a - b));
            prop_assert_eq!(x.checked_mul(y).unwrap().to_i128(), Some(a * b));
            prop_assert_eq!(x.cmp(&y), a.cmp(&b));
            if b != 0 {
                let (q, r) = x.div_rem(y).unwrap();
                prop_assert_eq!((q.to_i128(), r.to_i128()), (Some(a / b), Some(a % b)));
            }
            if b != 0 {
                // Rounded half away from zero: 2|r| ≥ |b| moves q one away.
                let m = Int256::from_i128(7);
                let (q, r) = ((a * 7) / b, (a * 7) % b);
                let away = if (a * 7 < 0) != (b < 0) { -1 } else { 1 };
                let rounded = if 2 * r.abs() >= b.abs() { q + away } else { q };
                prop_assert_eq!(x.mul_div_round(m, y).unwrap().to_i128(), Some(rounded));
            }
            prop_assert_eq!(Int256::from_i128(c).to_i128(), Some(c));
            prop_assert_eq!(format!("{:?}", Int256::from_i128(c)), c.to_string());
        }

        #[test]
        fn wide_identities((an, ad) in wide(), (bn, bd) in wide()) {
            let a = Int256::from_digits(an, &ad[..ad.len().min(38)]).unwrap();
            let b = Int256::from_digits(bn, &bd[..bd.len().min(38)]).unwrap();
            let p = a.checked_mul(b).unwrap();
            if !b.is_zero() {
                let (q, r) = p.div_rem(b).unwrap();
                prop_assert_eq!(q, a);
                prop_assert!(r.is_zero());
                // Truncated division: s = q·b + r, |r| < |b|, r of s's sign.
                let s = p.checked_add(a).unwrap();
                let (q, r) = s.div_rem(b).unwrap();
                prop_assert_eq!(q.checked_mul(b).unwrap().checked_add(r).unwrap(), s);
                prop_assert!(r.abs().unwrap() < b.abs().unwrap());
                prop_assert!(r.is_zero() || r.is_negative() == s.is_negative());
            }
            prop_assert_eq!(p.checked_add(a).unwrap().checked_sub(a).unwrap(), p);
            // The product past 256 bits, the quotient within: a·p/p = a
            // (the slow path, which i128 operands never take), and the
            // rounding of a·p/(2p) is a/2 away from zero.
            let a = Int256::from_digits(an, &ad).unwrap();
            if !p.is_zero() {
                prop_assert_eq!(a.mul_div_round(p, p).unwrap(), a);
                let twice = p.checked_add(p).unwrap();
                let half = a.mul_div_round(p, twice).unwrap();
                let (q, r) = a.div_rem(Int256::from_i128(2)).unwrap();
                let expected = if r.is_zero() { q } else {
                    q.checked_add(Int256::from_i128(if a.is_negative() { -1 } else { 1 })).unwrap()
                };
                prop_assert_eq!(half, expected);
            }
            prop_assert_eq!(p.to_f64() < 0.0, p.is_negative());
            prop_assert_eq!(p.to_f64() == 0.0, p.is_zero());
            let bytes = p.to_le_bytes();
            prop_assert_eq!(Int256::from_le_bytes(bytes), p);
        }
    }
}
