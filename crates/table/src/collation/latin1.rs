//! The latin1 collations. Strings are kept in UTF-8 whatever their
//! character set; a latin1 string holds only characters latin1 has (a
//! column's values are checked when stored), each weighed by its latin1
//! byte: under latin1_swedish_ci and latin1_general_ci by MariaDB's
//! tables, under latin1_bin as the byte itself. PAD SPACE, a space
//! weighing 0x20 under all three.
use super::latin1_weights::{CHARS, GENERAL_CI, SWEDISH_CI};
use super::next_char;

/// The weight of a space.
pub(super) const SPACE: u32 = 0x20;

/// The latin1 byte of the character `c`; None for a character latin1
/// lacks.
pub fn byte_of(c: u32) -> Option<u8> {
    if c < 0x80 || (0xA0..=0xFF).contains(&c) {
        return Some(c as u8);
    }
    // 0x80..=0x9F: Windows-1252's characters, and C1 controls where it
    // has none.
    (0x80..0xA0usize)
        .find(|&b| CHARS[b] as u32 == c)
        .map(|b| b as u8)
}

/// Where the first character of UTF-8 `s` that latin1 lacks starts; None
/// when latin1 has them all.
pub fn first_unrepresentable(s: &[u8]) -> Option<usize> {
    let mut i = 0;
    while i < s.len() {
        if s[i] < 0x80 {
            i += 1;
            continue;
        }
        let at = i;
        if byte_of(next_char(s, &mut i)).is_none() {
            return Some(at);
        }
    }
    None
}

/// `s` with each character latin1 lacks replaced by '?', as MariaDB
/// converts it.
pub fn replace_unrepresentable(s: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(s.len());
    let mut i = 0;
    while i < s.len() {
        let at = i;
        let c = next_char(s, &mut i);
        if byte_of(c).is_some() {
            out.extend_from_slice(&s[at..i]);
        } else {
            out.push(b'?');
        }
    }
    out
}

/// The bytes from `at` on as MariaDB's "Incorrect string value" shows
/// them: six at most, printable ASCII as itself and any other byte as
/// `\xHH`, then `...` if more follow.
pub fn shown_bytes(s: &[u8], at: usize) -> String {
    let mut out = String::new();
    for &b in s[at..].iter().take(6) {
        if (0x20..0x7F).contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("\\x{b:02X}"));
        }
    }
    if s.len() - at > 6 {
        out.push_str("...");
    }
    out
}

/// Which weight table: None for latin1_bin.
#[derive(Clone, Copy)]
pub(super) struct Table(Option<&'static [u8; 256]>);

impl Table {
    pub(super) const SWEDISH_CI: Table = Table(Some(&SWEDISH_CI));
    pub(super) const GENERAL_CI: Table = Table(Some(&GENERAL_CI));
    pub(super) const BIN: Table = Table(None);

    /// The weight of the character `c` (one latin1 lacks weighs as '?',
    /// as MariaDB converts it).
    #[inline]
    pub(super) fn weight(self, c: u32) -> u32 {
        let b = byte_of(c).unwrap_or(b'?');
        match self.0 {
            Some(t) => t[b as usize] as u32,
            None => b as u32,
        }
    }

    pub(super) fn weights(self, s: &[u8]) -> Weights<'_> {
        Weights {
            s,
            i: 0,
            table: self,
        }
    }
}

/// The weights of a string, one per character.
pub(super) struct Weights<'a> {
    s: &'a [u8],
    i: usize,
    table: Table,
}

impl Iterator for Weights<'_> {
    type Item = u32;
    #[inline]
    fn next(&mut self) -> Option<u32> {
        if self.i >= self.s.len() {
            return None;
        }
        Some(self.table.weight(next_char(self.s, &mut self.i)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bytes_are_windows_1252() {
        assert_eq!(byte_of('A' as u32), Some(0x41));
        assert_eq!(byte_of('é' as u32), Some(0xE9));
        assert_eq!(byte_of('€' as u32), Some(0x80));
        assert_eq!(byte_of('Ÿ' as u32), Some(0x9F));
        assert_eq!(byte_of(0x81), Some(0x81));
        assert_eq!(byte_of(0x80), None);
        assert_eq!(byte_of('Ā' as u32), None);
        assert_eq!(byte_of('😀' as u32), None);
    }

    #[test]
    fn unrepresentable_characters_are_found_shown_and_replaced() {
        let s = "abĀcd😀xyz".as_bytes();
        assert_eq!(first_unrepresentable(s), Some(2));
        assert_eq!(shown_bytes(s, 2), "\\xC4\\x80cd\\xF0\\x9F...");
        assert_eq!(replace_unrepresentable(s), b"ab?cd?xyz");
        assert_eq!(first_unrepresentable("Åsa €".as_bytes()), None);
    }

    #[test]
    fn swedish_ci_folds_case_and_sorts_as_mariadb() {
        let w = |c: char| Table::SWEDISH_CI.weight(c as u32);
        assert_eq!(w('a'), w('A'));
        assert_eq!(w('ü'), w('y'));
        assert!(w('z') < w('å') && w('å') < w('ä') && w('ä') < w('ö'));
        assert_eq!(w(' '), SPACE);
        assert_ne!(Table::BIN.weight('a' as u32), Table::BIN.weight('A' as u32));
    }
}
