//! utf8mb4_unicode_ci: UCA 4.0.0's primary weights, as MariaDB weighs
//! them. A character weighs none (ignored: control characters), one, or
//! several weights (expansions: 'ß' weighs as "ss"); a BMP character the
//! table does not list weighs UCA's two implicit weights, derived from its
//! code point; every character beyond the BMP weighs U+FFFD.
use super::next_char;
use super::unicode_ci_weights::{OTHERS, RUNS};

/// The weight of a space: PAD SPACE strings compare as if padded with it.
pub(super) const SPACE: u32 = 0x0209;

/// Per BMP character: its one weight (below [`LISTED`]), `LISTED` | its
/// position in [`OTHERS`], or [`IMPLICIT`].
static TABLE: [u16; 0x10000] = table();
const LISTED: u16 = 0x8000;
const IMPLICIT: u16 = 0xFFFF;

const fn table() -> [u16; 0x10000] {
    let mut t = [IMPLICIT; 0x10000];
    let mut r = 0;
    while r < RUNS.len() {
        let (first, count, weight) = RUNS[r];
        let mut k = 0;
        while k < count {
            t[(first + k) as usize] = weight + k;
            k += 1;
        }
        r += 1;
    }
    let mut i = 0;
    while i < OTHERS.len() {
        t[OTHERS[i].0 as usize] = LISTED | i as u16;
        i += 1;
    }
    t
}

/// The weights of one character.
#[derive(Clone, Copy, Debug)]
pub(super) enum CharWeights {
    One(u16),
    Two(u16, u16),
    Listed(&'static [u16]),
}

impl CharWeights {
    pub(super) fn of(c: u32) -> CharWeights {
        if c > 0xFFFF {
            return CharWeights::One(0xFFFD);
        }
        match TABLE[c as usize] {
            IMPLICIT => {
                let (a, b) = implicit_weights(c);
                CharWeights::Two(a, b)
            }
            t if t & LISTED != 0 => CharWeights::Listed(OTHERS[(t & !LISTED) as usize].1),
            w => CharWeights::One(w),
        }
    }

    /// Whether two characters weigh the same (LIKE compares character by
    /// character).
    pub(super) fn same(self, other: CharWeights) -> bool {
        let mut x = [0; 2];
        let mut y = [0; 2];
        self.as_slice(&mut x) == other.as_slice(&mut y)
    }

    fn as_slice(self, buf: &mut [u16; 2]) -> &[u16] {
        match self {
            CharWeights::One(w) => {
                buf[0] = w;
                &buf[..1]
            }
            CharWeights::Two(a, b) => {
                *buf = [a, b];
                &buf[..]
            }
            CharWeights::Listed(l) => l,
        }
    }
}

/// UCA's implicit weights of a BMP character the table does not list: a
/// base by block (unified ideographs first, then extension A, then the
/// rest), then the code point's low 15 bits.
const fn implicit_weights(c: u32) -> (u16, u16) {
    let base = match c {
        0x4E00..=0x9FA5 => 0xFB40,
        0x3400..=0x4DB5 => 0xFB80,
        _ => 0xFBC0,
    };
    ((base + (c >> 15)) as u16, ((c & 0x7FFF) | 0x8000) as u16)
}

/// The weights of a string, character after character.
pub(super) struct Weights<'a> {
    s: &'a [u8],
    i: usize,
    /// Weights of the last character still to give.
    pending: &'static [u16],
    /// An implicit second weight still to give (0: none).
    second: u16,
}

impl<'a> Weights<'a> {
    pub(super) fn new(s: &'a [u8]) -> Weights<'a> {
        Weights {
            s,
            i: 0,
            pending: &[],
            second: 0,
        }
    }
}

impl Iterator for Weights<'_> {
    type Item = u32;
    #[inline]
    fn next(&mut self) -> Option<u32> {
        loop {
            if self.second != 0 {
                let w = self.second;
                self.second = 0;
                return Some(w as u32);
            }
            if let Some((&w, rest)) = self.pending.split_first() {
                self.pending = rest;
                return Some(w as u32);
            }
            if self.i >= self.s.len() {
                return None;
            }
            match CharWeights::of(next_char(self.s, &mut self.i)) {
                CharWeights::One(w) => return Some(w as u32),
                CharWeights::Two(a, b) => {
                    self.second = b;
                    return Some(a as u32);
                }
                CharWeights::Listed(l) => self.pending = l,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn weights(s: &str) -> Vec<u32> {
        Weights::new(s.as_bytes()).collect()
    }

    #[test]
    fn weighs_as_mariadb_does() {
        // WEIGHT_STRING(… COLLATE utf8mb4_unicode_ci) in MariaDB 10.11.
        assert_eq!(weights(" "), [SPACE]);
        assert_eq!(weights("aA"), [0x0E33, 0x0E33]);
        assert_eq!(weights("ß"), [0x0FEA, 0x0FEA]);
        assert_eq!(weights("\u{1}"), [] as [u32; 0]);
        assert_eq!(weights("😀a"), [0xFFFD, 0x0E33]);
        // A radical weighs as the ideograph it stands for (implicit).
        assert_eq!(weights("⺀"), weights("丶"));
        assert_eq!(weights("丶"), [0xFB40, 0xCE36]);
    }
}
