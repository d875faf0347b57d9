//! The members of an ENUM or SET column.
//!
//! A list is interned (one shared copy per distinct list, kept for the
//! life of the process), so that [`DataType`](crate::DataType) stays
//! `Copy` and compares lists by content. An ENUM value is stored as its
//! member's number (1-based; 0 is the empty string MariaDB stores for a
//! wrong value outside strict mode), a SET value as the bit mask of its
//! members: keys sort as MariaDB sorts them, by number. Values travel as
//! the members' text, in declaration order for a SET.
use crate::collation::Collation;
use lineardb_sync::Mutex;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

#[derive(Clone, Copy)]
pub struct Members(&'static [Box<str>]);

/// Every list interned so far (locked by DDL and catalog loads only:
/// reads use the shared copy a column's type holds).
static INTERNED: Mutex<Vec<&'static [Box<str>]>> = Mutex::new(Vec::new());

impl Members {
    /// The shared copy of `names`.
    pub fn intern(names: &[String]) -> Members {
        let mut all = INTERNED.lock();
        if let Some(found) = all
            .iter()
            .find(|m| m.len() == names.len() && m.iter().zip(names).all(|(a, b)| **a == **b))
        {
            return Members(found);
        }
        let list: &'static [Box<str>] = Box::leak(
            names
                .iter()
                .map(|n| n.as_str().into())
                .collect::<Vec<Box<str>>>()
                .into_boxed_slice(),
        );
        all.push(list);
        Members(list)
    }

    pub fn names(&self) -> &'static [Box<str>] {
        self.0
    }

    pub fn len(&self) -> usize {
        self.0.len()
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The member `text` names in `collation` (MariaDB matches them as the
    /// column compares strings), 1-based.
    pub fn find(&self, text: &[u8], collation: Collation) -> Option<usize> {
        self.0
            .iter()
            .position(|m| collation.compare(m.as_bytes(), text).is_eq())
            .map(|i| i + 1)
    }

    /// The number of an ENUM value as stored (its member's exact text;
    /// 0 for the empty string of a wrong value).
    pub fn number_of(&self, text: &[u8]) -> u64 {
        self.0
            .iter()
            .position(|m| m.as_bytes() == text)
            .map_or(0, |i| i as u64 + 1)
    }

    /// An ENUM value's text from its number.
    pub fn text_of(&self, number: u64) -> Vec<u8> {
        match number {
            0 => Vec::new(),
            n => self
                .0
                .get(n as usize - 1)
                .map_or(Vec::new(), |m| m.as_bytes().to_vec()),
        }
    }

    /// A SET value's bit mask from its stored text (members' exact text,
    /// comma-separated).
    pub fn mask_of(&self, text: &[u8]) -> u64 {
        if text.is_empty() {
            return 0;
        }
        text.split(|&b| b == b',')
            .map(|part| self.number_of(part))
            .filter(|&n| n > 0)
            .fold(0, |mask, n| mask | 1 << (n - 1))
    }

    /// A SET value's text from its bit mask: its members in declaration
    /// order.
    pub fn text_of_mask(&self, mask: u64) -> Vec<u8> {
        let mut out = Vec::new();
        for (i, m) in self.0.iter().enumerate() {
            if mask & (1 << i) != 0 {
                if !out.is_empty() {
                    out.push(b',');
                }
                out.extend_from_slice(m.as_bytes());
            }
        }
        out
    }

    /// `enum('a','b')` / `set('a','b')`: the members quoted as SHOW
    /// CREATE TABLE writes them.
    pub fn sql(&self, type_name: &str) -> String {
        let quoted: Vec<String> = self
            .0
            .iter()
            .map(|m| format!("'{}'", m.replace('\\', "\\\\").replace('\'', "''")))
            .collect();
        format!("{type_name}({})", quoted.join(","))
    }
}

impl PartialEq for Members {
    fn eq(&self, other: &Members) -> bool {
        self.0 == other.0
    }
}

impl Eq for Members {}

impl std::hash::Hash for Members {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.0.hash(state)
    }
}

impl std::fmt::Debug for Members {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.0.iter()).finish()
    }
}

impl Serialize for Members {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.0.iter().map(|m| &**m))
    }
}

impl<'de> Deserialize<'de> for Members {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Members, D::Error> {
        Ok(Members::intern(&Vec::<String>::deserialize(d)?))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn abc() -> Members {
        Members::intern(&["a".into(), "B".into(), "c d".into()])
    }

    #[test]
    fn lists_are_shared_and_compared_by_content() {
        let (x, y) = (abc(), abc());
        assert!(std::ptr::eq(x.names(), y.names()));
        assert_eq!(x, y);
        assert_ne!(x, Members::intern(&["a".into()]));
    }

    #[test]
    fn enum_numbers_and_set_masks_round_trip() {
        let m = abc();
        assert_eq!(m.find(b"b", Collation::Utf8mb4GeneralCi), Some(2));
        assert_eq!(m.find(b"b", Collation::Utf8mb4Bin), None);
        assert_eq!(m.number_of(b"c d"), 3);
        assert_eq!(m.text_of(2), b"B");
        assert_eq!(m.text_of(0), b"");
        assert_eq!(m.mask_of(b"c d,a"), 0b101);
        assert_eq!(m.text_of_mask(0b101), b"a,c d");
        assert_eq!(m.mask_of(b""), 0);
        assert_eq!(m.sql("enum"), "enum('a','B','c d')");
    }

    #[test]
    fn lists_serialize_as_names() {
        let json = serde_json::to_string(&abc()).unwrap();
        assert_eq!(json, r#"["a","B","c d"]"#);
        let back: Members = serde_json::from_str(&json).unwrap();
        assert_eq!(back, abc());
    }
}
