//! Statement text as it comes from the wire: bytes in the connection's
//! character set (utf8mb4), where a string literal may hold any bytes — a
//! BLOB sent as `'…'` or `_binary'…'` by a client or a dump. The parser
//! takes `&str`, so bytes that are not UTF-8 travel as *marks*: characters
//! U+10FF00 + byte (the last 256 of plane 16's private use area).
//! A real character of that range is written as the marks of its own
//! UTF-8 bytes, so [`literal_bytes`] gives back exactly the bytes sent.
use std::borrow::Cow;

const MARK_BASE: u32 = 0x10_FF00;

/// Whether `c` stands for one byte (see the module's comment).
fn mark_byte(c: char) -> Option<u8> {
    let c = c as u32;
    (MARK_BASE..=MARK_BASE + 0xFF)
        .contains(&c)
        .then(|| (c - MARK_BASE) as u8)
}

fn push_mark(out: &mut String, b: u8) {
    out.push(char::from_u32(MARK_BASE + b as u32).expect("plane 16 is valid"));
}

/// The UTF-8 lead bytes of the marks' range (U+10FF00..U+10FFFF is
/// F4 8F BC 80 ..= F4 8F BF BF).
fn may_hold_marks(s: &[u8]) -> bool {
    s.windows(2).any(|w| w == [0xF4, 0x8F])
}

/// Statement text from the wire, every byte kept (as itself or a mark).
pub fn text_of_wire(bytes: &[u8]) -> Cow<'_, str> {
    if let Ok(s) = std::str::from_utf8(bytes) {
        if !may_hold_marks(bytes) {
            return Cow::Borrowed(s);
        }
    }
    let mut out = String::with_capacity(bytes.len() + 16);
    for chunk in bytes.utf8_chunks() {
        for c in chunk.valid().chars() {
            if mark_byte(c).is_some() {
                let mut buf = [0u8; 4];
                for &b in c.encode_utf8(&mut buf).as_bytes() {
                    push_mark(&mut out, b);
                }
            } else {
                out.push(c);
            }
        }
        for &b in chunk.invalid() {
            push_mark(&mut out, b);
        }
    }
    Cow::Owned(out)
}

/// The bytes a string literal's text stands for: marks back to their
/// bytes, other characters as UTF-8.
pub(crate) fn literal_bytes(s: &str) -> Vec<u8> {
    if !may_hold_marks(s.as_bytes()) {
        return s.as_bytes().to_vec();
    }
    let mut out = Vec::with_capacity(s.len());
    let mut buf = [0u8; 4];
    for c in s.chars() {
        match mark_byte(c) {
            Some(b) => out.push(b),
            None => out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes()),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn utf8_text_is_borrowed() {
        assert!(matches!(
            text_of_wire("select 'é'".as_bytes()),
            Cow::Borrowed(_)
        ));
        assert_eq!(literal_bytes("é"), "é".as_bytes());
    }

    proptest! {
        #[test]
        fn any_bytes_come_back(bytes in proptest::collection::vec(any::<u8>(), 0..64),
                               plane16 in proptest::bool::ANY) {
            let mut bytes = bytes;
            if plane16 {
                // A real character of the marks' range, sent as UTF-8.
                bytes.extend_from_slice("\u{10FF41}".as_bytes());
            }
            let text = text_of_wire(&bytes);
            prop_assert_eq!(literal_bytes(&text), bytes);
        }
    }
}
