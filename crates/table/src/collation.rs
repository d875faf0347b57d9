//! Collations: how strings compare, sort, group, match LIKE patterns and
//! become index keys.
//!
//! A collation turns a string into a sequence of weights and compares the
//! sequences. `utf8mb4_general_ci` weighs each BMP character by MariaDB's
//! case- and accent-folding table (every character beyond the BMP weighs
//! U+FFFD); `utf8mb4_bin` weighs by code point. Both are PAD SPACE: a
//! string compares as if followed by endless spaces, so `'a' = 'a '` and
//! `'a\t' < 'a'`. `utf8mb4_unicode_ci` weighs by UCA 4.0.0's primary
//! weights (none, one or several per character; see [`unicode_ci`]), PAD
//! SPACE too. `utf8mb4_nopad_bin` and `binary` compare bytes, a prefix
//! before its extensions.
//!
//! [`Collation::sort_key`] writes memcomparable keys: `memcmp` of two keys
//! orders them as [`Collation::compare`] orders the strings, equal strings
//! have equal keys, and a key ends itself, so columns after it stay
//! aligned. A PAD SPACE key is lossy (case, accents and trailing spaces are
//! gone): a read that needs the text takes it from the row.
mod general_ci_weights;
pub mod latin1;
mod latin1_weights;
mod unicode_ci;
mod unicode_ci_weights;

use serde::{Deserialize, Serialize};
use std::cmp::Ordering;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
pub enum Collation {
    /// utf8mb4_general_ci, the server's default.
    #[default]
    Utf8mb4GeneralCi,
    /// utf8mb4_unicode_ci: UCA 4.0.0, PAD SPACE.
    Utf8mb4UnicodeCi,
    /// utf8mb4_bin: code point order, PAD SPACE.
    Utf8mb4Bin,
    /// utf8mb4_nopad_bin: code point order, trailing spaces count.
    Utf8mb4NopadBin,
    /// binary: byte order (BINARY, VARBINARY, BLOB).
    Binary,
    /// latin1_swedish_ci, latin1's default: MariaDB's table, PAD SPACE.
    Latin1SwedishCi,
    /// latin1_general_ci: MariaDB's table, PAD SPACE.
    Latin1GeneralCi,
    /// latin1_bin: latin1 byte order, PAD SPACE.
    Latin1Bin,
}

/// The weight of a space: PAD SPACE strings compare as if padded with it.
const SPACE: u32 = 0x20;

/// Weight of every BMP character under utf8mb4_general_ci.
static GENERAL_CI: [u16; 0x10000] = general_ci_table();

const fn general_ci_table() -> [u16; 0x10000] {
    let mut t = [0u16; 0x10000];
    let mut c = 0;
    while c < 0x10000 {
        t[c] = c as u16;
        c += 1;
    }
    let folds = general_ci_weights::FOLDS;
    let mut i = 0;
    while i < folds.len() {
        t[folds[i].0 as usize] = folds[i].1;
        i += 1;
    }
    t
}

/// The code point of the UTF-8 character at `s[*i]`, advancing `*i`; a
/// byte that starts no valid character stands for itself (as latin1).
#[inline]
pub(crate) fn next_char(s: &[u8], i: &mut usize) -> u32 {
    let b0 = s[*i];
    if b0 < 0x80 {
        *i += 1;
        return b0 as u32;
    }
    let (len, init) = match b0 {
        0xC2..=0xDF => (2, (b0 & 0x1F) as u32),
        0xE0..=0xEF => (3, (b0 & 0x0F) as u32),
        0xF0..=0xF4 => (4, (b0 & 0x07) as u32),
        _ => {
            *i += 1;
            return b0 as u32;
        }
    };
    let Some(tail) = s.get(*i + 1..*i + len) else {
        *i += 1;
        return b0 as u32;
    };
    let mut c = init;
    for &b in tail {
        if b & 0xC0 != 0x80 {
            *i += 1;
            return b0 as u32;
        }
        c = (c << 6) | (b & 0x3F) as u32;
    }
    *i += len;
    c
}

/// Weights of a string under a PAD SPACE collation, one per character.
struct Weights<'a> {
    s: &'a [u8],
    i: usize,
    folded: bool,
}

impl Iterator for Weights<'_> {
    type Item = u32;
    #[inline]
    fn next(&mut self) -> Option<u32> {
        if self.i >= self.s.len() {
            return None;
        }
        let c = next_char(self.s, &mut self.i);
        Some(if !self.folded {
            c
        } else if c < 0x10000 {
            GENERAL_CI[c as usize] as u32
        } else {
            0xFFFD
        })
    }
}

impl Collation {
    /// The collation called `name` (any case); None for one not supported.
    pub fn named(name: &str) -> Option<Collation> {
        Some(match name.to_ascii_lowercase().as_str() {
            "utf8mb4_general_ci" | "utf8mb3_general_ci" | "utf8_general_ci" => {
                Collation::Utf8mb4GeneralCi
            }
            "utf8mb4_unicode_ci" | "utf8mb3_unicode_ci" | "utf8_unicode_ci" => {
                Collation::Utf8mb4UnicodeCi
            }
            "utf8mb4_bin" | "utf8mb3_bin" | "utf8_bin" => Collation::Utf8mb4Bin,
            "utf8mb4_nopad_bin" => Collation::Utf8mb4NopadBin,
            "binary" => Collation::Binary,
            "latin1_swedish_ci" => Collation::Latin1SwedishCi,
            "latin1_general_ci" => Collation::Latin1GeneralCi,
            "latin1_bin" => Collation::Latin1Bin,
            _ => return None,
        })
    }

    pub fn name(self) -> &'static str {
        match self {
            Collation::Utf8mb4GeneralCi => "utf8mb4_general_ci",
            Collation::Utf8mb4UnicodeCi => "utf8mb4_unicode_ci",
            Collation::Utf8mb4Bin => "utf8mb4_bin",
            Collation::Utf8mb4NopadBin => "utf8mb4_nopad_bin",
            Collation::Binary => "binary",
            Collation::Latin1SwedishCi => "latin1_swedish_ci",
            Collation::Latin1GeneralCi => "latin1_general_ci",
            Collation::Latin1Bin => "latin1_bin",
        }
    }

    /// The character set the collation belongs to.
    pub fn charset(self) -> &'static str {
        match self {
            Collation::Binary => "binary",
            Collation::Latin1SwedishCi | Collation::Latin1GeneralCi | Collation::Latin1Bin => {
                "latin1"
            }
            _ => "utf8mb4",
        }
    }

    /// The collation's number on the wire and in information_schema.
    pub fn id(self) -> u16 {
        match self {
            Collation::Utf8mb4GeneralCi => 45,
            Collation::Utf8mb4UnicodeCi => 224,
            Collation::Utf8mb4Bin => 46,
            Collation::Utf8mb4NopadBin => 1070,
            Collation::Binary => 63,
            Collation::Latin1SwedishCi => 8,
            Collation::Latin1GeneralCi => 48,
            Collation::Latin1Bin => 47,
        }
    }

    /// Whether the collation is latin1's: its strings hold only the
    /// characters latin1 has.
    pub fn is_latin1(self) -> bool {
        matches!(
            self,
            Collation::Latin1SwedishCi | Collation::Latin1GeneralCi | Collation::Latin1Bin
        )
    }

    /// Whether it is a character set's _bin collation (strings so
    /// collated are flagged binary on the wire).
    pub fn is_bin(self) -> bool {
        matches!(
            self,
            Collation::Utf8mb4Bin | Collation::Utf8mb4NopadBin | Collation::Latin1Bin
        )
    }

    /// PAD SPACE: trailing spaces do not count.
    pub fn pads(self) -> bool {
        !matches!(self, Collation::Utf8mb4NopadBin | Collation::Binary)
    }

    /// Whether an index key gives back the string it was made of.
    pub fn key_gives_text(self) -> bool {
        !self.pads()
    }

    /// A latin1 collation's weight table.
    fn latin1(self) -> Option<latin1::Table> {
        match self {
            Collation::Latin1SwedishCi => Some(latin1::Table::SWEDISH_CI),
            Collation::Latin1GeneralCi => Some(latin1::Table::GENERAL_CI),
            Collation::Latin1Bin => Some(latin1::Table::BIN),
            _ => None,
        }
    }

    fn weights(self, s: &[u8]) -> Weights<'_> {
        Weights {
            s,
            i: 0,
            folded: self == Collation::Utf8mb4GeneralCi,
        }
    }

    /// Compares two strings. Always inlined: sorts and comparisons call it
    /// per row, and their collation is often known where they call it.
    #[inline(always)]
    pub fn compare(self, a: &[u8], b: &[u8]) -> Ordering {
        match self {
            Collation::Utf8mb4NopadBin | Collation::Binary => a.cmp(b),
            // UTF-8's byte order is its code point order.
            Collation::Utf8mb4Bin => {
                let n = a.len().min(b.len());
                match a[..n].cmp(&b[..n]) {
                    Ordering::Equal => pad_compare(&a[n..], &b[n..]),
                    o => o,
                }
            }
            Collation::Utf8mb4GeneralCi => {
                // ASCII runs weigh byte by byte.
                let n = a.len().min(b.len());
                let mut i = 0;
                while i < n && a[i] < 0x80 && b[i] < 0x80 {
                    let (x, y) = (GENERAL_CI[a[i] as usize], GENERAL_CI[b[i] as usize]);
                    if x != y {
                        return x.cmp(&y);
                    }
                    i += 1;
                }
                padded_compare(self.weights(&a[i..]), self.weights(&b[i..]), SPACE)
            }
            Collation::Utf8mb4UnicodeCi => padded_compare(
                unicode_ci::Weights::new(a),
                unicode_ci::Weights::new(b),
                unicode_ci::SPACE,
            ),
            Collation::Latin1SwedishCi | Collation::Latin1GeneralCi | Collation::Latin1Bin => {
                let table = self.latin1().expect("a latin1 collation");
                padded_compare(table.weights(a), table.weights(b), latin1::SPACE)
            }
        }
    }

    /// Appends the memcomparable key of `s` (see the module's note).
    pub fn sort_key(self, s: &[u8], out: &mut Vec<u8>) {
        match self {
            Collation::Utf8mb4NopadBin | Collation::Binary => {
                for &c in s {
                    out.push(c);
                    if c == 0 {
                        out.push(0xff);
                    }
                }
                out.extend_from_slice(&[0, 0]);
            }
            Collation::Utf8mb4Bin => padded_key(s.iter().map(|&b| b as u32), 1, SPACE, out),
            Collation::Utf8mb4GeneralCi => padded_key(self.weights(s), 2, SPACE, out),
            Collation::Utf8mb4UnicodeCi => {
                padded_key(unicode_ci::Weights::new(s), 2, unicode_ci::SPACE, out)
            }
            Collation::Latin1SwedishCi | Collation::Latin1GeneralCi | Collation::Latin1Bin => {
                let table = self.latin1().expect("a latin1 collation");
                padded_key(table.weights(s), 1, latin1::SPACE, out)
            }
        }
    }

    /// Appends a hash key of `s`: equal bytes exactly for strings the
    /// collation calls equal (a length, then the string with trailing
    /// spaces dropped where the collation pads; under utf8mb4_general_ci
    /// each character's weight: one byte below 0x80, else 0xFF and its two
    /// bytes — by weight, so 'ÿ' keys as 'Y'). Not ordered; shorter than
    /// the sort key, and a string that folds to itself is copied as it is.
    /// Under utf8mb4_unicode_ci: the weights, two bytes each, without the
    /// trailing space weights (other characters than the space weigh as one).
    /// Under a latin1 collation: the weights, a byte each, without the
    /// trailing space weights.
    pub fn hash_key(self, s: &[u8], out: &mut Vec<u8>) {
        if let Some(table) = self.latin1() {
            return weights_hash_key(table.weights(s), 1, latin1::SPACE, out);
        }
        if self == Collation::Utf8mb4UnicodeCi {
            return weights_hash_key(unicode_ci::Weights::new(s), 2, unicode_ci::SPACE, out);
        }
        let s = if self.pads() {
            // Only the space weighs as a space (general_ci's table included).
            let end = s.iter().rposition(|&b| b != b' ').map_or(0, |i| i + 1);
            &s[..end]
        } else {
            s
        };
        let folds = self == Collation::Utf8mb4GeneralCi;
        if !folds || folds_to_itself(s) {
            out.extend_from_slice(&(s.len() as u32).to_le_bytes());
            out.extend_from_slice(s);
            return;
        }
        let at = out.len();
        out.extend_from_slice(&[0; 4]);
        let mut i = 0;
        while i < s.len() {
            if s[i] < 0x80 {
                out.push(GENERAL_CI[s[i] as usize] as u8);
                i += 1;
            } else {
                let c = next_char(s, &mut i);
                let w = if c < 0x10000 {
                    GENERAL_CI[c as usize]
                } else {
                    0xFFFD
                };
                // By weight, whatever the character: 'ÿ' weighs as 'Y'.
                if w < 0x80 {
                    out.push(w as u8);
                } else {
                    out.push(0xFF);
                    out.extend_from_slice(&w.to_be_bytes());
                }
            }
        }
        let len = (out.len() - at - 4) as u32;
        out[at..at + 4].copy_from_slice(&len.to_le_bytes());
    }

    /// `text LIKE pattern` with `escape` (no padding: `'a ' LIKE 'a'` is
    /// false). `_` is one character (one byte under `binary`).
    pub fn like(self, text: &[u8], pattern: &[u8], escape: u32) -> bool {
        let unit = |s: &[u8], i: &mut usize| -> u32 {
            if self == Collation::Binary {
                *i += 1;
                s[*i - 1] as u32
            } else {
                next_char(s, i)
            }
        };
        let same = |x: u32, y: u32| -> bool {
            match self {
                Collation::Utf8mb4GeneralCi => {
                    let weight = |c: u32| {
                        if c < 0x10000 {
                            GENERAL_CI[c as usize] as u32
                        } else {
                            0xFFFD
                        }
                    };
                    weight(x) == weight(y)
                }
                Collation::Utf8mb4UnicodeCi => {
                    unicode_ci::CharWeights::of(x).same(unicode_ci::CharWeights::of(y))
                }
                Collation::Latin1SwedishCi | Collation::Latin1GeneralCi | Collation::Latin1Bin => {
                    let table = self.latin1().expect("a latin1 collation");
                    table.weight(x) == table.weight(y)
                }
                _ => x == y,
            }
        };
        let (mut t, mut p) = (0usize, 0usize);
        // Where the last `%` was and the text position it matched up to.
        let mut star: Option<(usize, usize)> = None;
        while t < text.len() {
            if p < pattern.len() {
                let mut np = p;
                let pc = unit(pattern, &mut np);
                if pc == '%' as u32 {
                    star = Some((np, t));
                    p = np;
                    continue;
                }
                let mut nt = t;
                let tc = unit(text, &mut nt);
                let matched = if pc == '_' as u32 {
                    true
                } else if pc == escape && np < pattern.len() {
                    let ec = unit(pattern, &mut np);
                    same(ec, tc)
                } else {
                    same(pc, tc)
                };
                if matched {
                    t = nt;
                    p = np;
                    continue;
                }
            }
            let Some((sp, st)) = star else {
                return false;
            };
            // The last `%` takes one more character.
            let mut nt = st;
            unit(text, &mut nt);
            star = Some((sp, nt));
            p = sp;
            t = nt;
        }
        pattern[p..].iter().all(|&c| c == b'%')
    }
}

/// A hash key of weights: their count of bytes, then each weight in
/// `width` big-endian bytes, the trailing `space` weights dropped.
fn weights_hash_key(
    weights: impl Iterator<Item = u32>,
    width: usize,
    space: u32,
    out: &mut Vec<u8>,
) {
    let at = out.len();
    out.extend_from_slice(&[0; 4]);
    let mut end = out.len();
    for w in weights {
        out.extend_from_slice(&w.to_be_bytes()[4 - width..]);
        if w != space {
            end = out.len();
        }
    }
    out.truncate(end);
    let len = (end - at - 4) as u32;
    out[at..at + 4].copy_from_slice(&len.to_le_bytes());
}

/// Whether `s` is ASCII without a lower-case letter: what
/// utf8mb4_general_ci weighs as its own bytes. Eight bytes at a time: with
/// every byte below 0x80, adding 0x80 - 'a' (0x80 - '{') to each sets its
/// high bit exactly when it is at least 'a' (above 'z'), with no carry into
/// the next byte.
fn folds_to_itself(s: &[u8]) -> bool {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let mut words = s.chunks_exact(8);
    // Without branches: a byte at or above 0x80 sets a high bit itself
    // (what the sums make of its word then does not matter).
    let mut found = 0;
    for word in &mut words {
        let w = u64::from_le_bytes(word.try_into().expect("eight bytes"));
        let from_a = w.wrapping_add(ONES * (0x80 - b'a' as u64));
        let past_z = w.wrapping_add(ONES * (0x80 - b'{' as u64));
        found |= w | (from_a & !past_z);
    }
    found & HIGH == 0
        && words
            .remainder()
            .iter()
            .all(|&b| b < 0x80 && !b.is_ascii_lowercase())
}

/// Compares the tails of two strings past their common bytes under
/// utf8mb4_bin's padding (one of them is empty): the other's first byte
/// that is not a space against a space.
fn pad_compare(a: &[u8], b: &[u8]) -> Ordering {
    let first = |r: &[u8]| r.iter().copied().find(|&c| c != b' ');
    match (first(a), first(b)) {
        (Some(c), _) => (c as u32).cmp(&SPACE),
        (_, Some(c)) => SPACE.cmp(&(c as u32)),
        (None, None) => Ordering::Equal,
    }
}

/// Compares two PAD SPACE weight sequences: where one ends, the other's
/// first weight that is not `space` against `space`.
fn padded_compare(
    mut wa: impl Iterator<Item = u32>,
    mut wb: impl Iterator<Item = u32>,
    space: u32,
) -> Ordering {
    loop {
        match (wa.next(), wb.next()) {
            (Some(x), Some(y)) if x == y => {}
            (Some(x), Some(y)) => return x.cmp(&y),
            (None, None) => return Ordering::Equal,
            (Some(x), None) => {
                let first = std::iter::once(x).chain(wa).find(|&w| w != space);
                return first.map_or(Ordering::Equal, |w| w.cmp(&space));
            }
            (None, Some(y)) => {
                let first = std::iter::once(y).chain(wb).find(|&w| w != space);
                return first.map_or(Ordering::Equal, |w| space.cmp(&w));
            }
        }
    }
}

/// Tags after a space unit: a run of spaces before a unit below a space,
/// the end of the string, a run of spaces before a unit above a space.
const RUN_THEN_BELOW: u8 = 0x01;
const END: u8 = 0x02;
const RUN_THEN_ABOVE: u8 = 0x03;

/// A PAD SPACE key: each weight in `width` big-endian bytes (`space` the
/// space's weight), trailing
/// spaces dropped, and each run of spaces written as a space unit, a tag
/// and the run's length, followed by the weight that ends the run. At the
/// place two strings part, one's unit against the other's decides as the
/// padded comparison does:
/// unit below a space < run then below (shorter run first) < end <
/// run then above (longer run first) < unit above a space.
fn padded_key(weights: impl Iterator<Item = u32>, width: usize, space: u32, out: &mut Vec<u8>) {
    let put = |w: u32, out: &mut Vec<u8>| {
        out.extend_from_slice(&w.to_be_bytes()[4 - width..]);
    };
    let mut run: u32 = 0;
    for w in weights {
        if w == space {
            run += 1;
            continue;
        }
        if run > 0 {
            put(space, out);
            if w < space {
                out.push(RUN_THEN_BELOW);
                out.extend_from_slice(&run.to_be_bytes());
            } else {
                out.push(RUN_THEN_ABOVE);
                out.extend_from_slice(&(!run).to_be_bytes());
            }
            run = 0;
        }
        put(w, out);
    }
    put(space, out);
    out.push(END);
}

/// Advances `*pos` past one PAD SPACE key of `width`-byte units.
fn skip_padded_key(b: &[u8], pos: &mut usize, width: usize, space: u32) -> Option<()> {
    let space = &space.to_be_bytes()[4 - width..];
    loop {
        let unit = b.get(*pos..*pos + width)?;
        *pos += width;
        if unit != space {
            continue;
        }
        let tag = *b.get(*pos)?;
        *pos += 1;
        match tag {
            END => return Some(()),
            // The run's length, then the unit that ends it.
            RUN_THEN_BELOW | RUN_THEN_ABOVE => {
                *pos += 4 + width;
                if *pos > b.len() {
                    return None;
                }
            }
            _ => return None,
        }
    }
}

impl Collation {
    /// Advances `*pos` past one key this collation wrote.
    pub(crate) fn skip_key(self, b: &[u8], pos: &mut usize) -> Option<()> {
        match self {
            Collation::Utf8mb4GeneralCi => skip_padded_key(b, pos, 2, SPACE),
            Collation::Utf8mb4UnicodeCi => skip_padded_key(b, pos, 2, unicode_ci::SPACE),
            Collation::Utf8mb4Bin => skip_padded_key(b, pos, 1, SPACE),
            Collation::Latin1SwedishCi | Collation::Latin1GeneralCi | Collation::Latin1Bin => {
                skip_padded_key(b, pos, 1, latin1::SPACE)
            }
            Collation::Utf8mb4NopadBin | Collation::Binary => loop {
                let c = *b.get(*pos)?;
                *pos += 1;
                if c == 0 {
                    let n = *b.get(*pos)?;
                    *pos += 1;
                    match n {
                        0 => return Some(()),
                        0xff => {}
                        _ => return None,
                    }
                }
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    const ALL: [Collation; 8] = [
        Collation::Utf8mb4GeneralCi,
        Collation::Utf8mb4UnicodeCi,
        Collation::Utf8mb4Bin,
        Collation::Utf8mb4NopadBin,
        Collation::Binary,
        Collation::Latin1SwedishCi,
        Collation::Latin1GeneralCi,
        Collation::Latin1Bin,
    ];

    fn key(c: Collation, s: &str) -> Vec<u8> {
        let mut k = Vec::new();
        c.sort_key(s.as_bytes(), &mut k);
        k
    }

    #[test]
    fn general_ci_folds_case_and_accents_and_pads_spaces() {
        let ci = Collation::Utf8mb4GeneralCi;
        let cmp = |a: &str, b: &str| ci.compare(a.as_bytes(), b.as_bytes());
        assert_eq!(cmp("a", "A"), Ordering::Equal);
        assert_eq!(cmp("Ärger", "arger"), Ordering::Equal);
        assert_eq!(cmp("ß", "s"), Ordering::Equal);
        assert_eq!(cmp("a", "a  "), Ordering::Equal);
        assert_eq!(cmp("a\t", "a"), Ordering::Less);
        assert_eq!(cmp("a b", "a"), Ordering::Greater);
        assert_eq!(cmp("😀", "🙂"), Ordering::Equal);
        assert_eq!(key(ci, "Abc "), key(ci, "aBC"));
    }

    #[test]
    fn unicode_ci_expands_ignores_and_pads() {
        let u = Collation::Utf8mb4UnicodeCi;
        let cmp = |a: &str, b: &str| u.compare(a.as_bytes(), b.as_bytes());
        assert_eq!(cmp("ß", "ss"), Ordering::Equal);
        assert_eq!(cmp("Straße", "STRASSE"), Ordering::Equal);
        assert_eq!(cmp("a\u{1}", "a"), Ordering::Equal);
        assert_eq!(cmp("a\u{a0}", "a"), Ordering::Equal);
        assert_eq!(cmp("a\t", "a"), Ordering::Less);
        assert_eq!(cmp("æ", "ae"), Ordering::Greater);
        assert_eq!(cmp("⺀", "丶"), Ordering::Equal);
        assert_eq!(key(u, "Straße  "), key(u, "strasse"));
        // LIKE matches character by character.
        assert!(!u.like("ß".as_bytes(), b"ss", '\\' as u32));
        assert!(u.like("Ä".as_bytes(), b"a", '\\' as u32));
        assert!(!u.like(b"a", b"a\x01", '\\' as u32));
    }

    #[test]
    fn ascii_without_lower_case_folds_to_itself() {
        for b in 0u8..=255 {
            let mut s = *b"ABCDEFGH-123456789";
            s[3] = b;
            s[12] = b;
            let expected = b < 0x80 && !b.is_ascii_lowercase();
            assert_eq!(folds_to_itself(&s), expected, "{b:#x}");
            assert_eq!(folds_to_itself(&s[10..]), expected, "{b:#x}");
        }
    }

    #[test]
    fn bin_pads_but_keeps_case() {
        let bin = Collation::Utf8mb4Bin;
        assert_eq!(bin.compare(b"a ", b"a"), Ordering::Equal);
        assert_eq!(bin.compare(b"A", b"a"), Ordering::Less);
        assert_eq!(bin.compare(b"a\t", b"a"), Ordering::Less);
        let nopad = Collation::Utf8mb4NopadBin;
        assert_eq!(nopad.compare(b"a ", b"a"), Ordering::Greater);
    }

    #[test]
    fn like_is_per_character_and_follows_the_collation() {
        let ci = Collation::Utf8mb4GeneralCi;
        assert!(ci.like("Ärger".as_bytes(), b"a%", '\\' as u32));
        assert!(ci.like("é".as_bytes(), b"_", '\\' as u32));
        assert!(!Collation::Binary.like("é".as_bytes(), b"_", '\\' as u32));
        assert!(ci.like(b"a%c", b"a\\%c", '\\' as u32));
        assert!(!ci.like(b"abc", b"a\\%c", '\\' as u32));
        assert!(!ci.like(b"a ", b"a", '\\' as u32));
        assert!(!Collation::Utf8mb4Bin.like(b"ABC", b"abc", '\\' as u32));
        assert!(ci.like(b"xxabcab", b"%ab", '\\' as u32));
    }

    fn text() -> impl Strategy<Value = String> {
        prop::collection::vec(
            prop_oneof![
                Just(' '),
                Just('\t'),
                Just('a'),
                Just('A'),
                Just('b'),
                Just('\0'),
                Just('é'),
                Just('É'),
                Just('😀'),
                Just('ÿ'),
                Just('y'),
                Just('Y'),
                Just('ß'),
                Just('s'),
                Just('\u{1}'),
                Just('\u{a0}'),
                Just('⺀'),
                Just('丶'),
            ],
            0..20,
        )
        .prop_map(|v| v.into_iter().collect())
    }

    proptest! {
        /// Keys order and equal exactly as the comparison does, and each
        /// skips as one whole key.
        #[test]
        fn keys_order_as_the_collation_compares(a in text(), b in text()) {
            for c in ALL {
                let (ka, kb) = (key(c, &a), key(c, &b));
                prop_assert_eq!(ka.cmp(&kb), c.compare(a.as_bytes(), b.as_bytes()),
                    "{:?} {:?} {:?}", c, a, b);
                let mut joined = ka.clone();
                joined.extend_from_slice(&kb);
                let mut pos = 0;
                prop_assert!(c.skip_key(&joined, &mut pos).is_some());
                prop_assert_eq!(pos, ka.len());
            }
        }

        /// Hash keys are equal exactly when the strings compare equal.
        #[test]
        fn hash_keys_are_equal_exactly_for_equal_strings(a in text(), b in text()) {
            for c in ALL {
                let (mut ka, mut kb) = (Vec::new(), Vec::new());
                c.hash_key(a.as_bytes(), &mut ka);
                c.hash_key(b.as_bytes(), &mut kb);
                prop_assert_eq!(ka == kb, c.compare(a.as_bytes(), b.as_bytes()) == Ordering::Equal,
                    "{:?} {:?} {:?}", c, a, b);
            }
        }

        /// Comparison is a total order (antisymmetric).
        #[test]
        fn comparison_is_antisymmetric(a in text(), b in text()) {
            for c in ALL {
                prop_assert_eq!(
                    c.compare(a.as_bytes(), b.as_bytes()),
                    c.compare(b.as_bytes(), a.as_bytes()).reverse()
                );
            }
        }
    }
}
