//! A JSON document as a tree, for the functions that change documents:
//! scalars and keys keep their text as written (numbers as written,
//! strings with their escapes) and objects their members in order, a
//! repeated key included, as MariaDB keeps them.
use super::text::{is_json, quote, Scan};

#[derive(Debug, Clone, PartialEq)]
pub(super) enum Node {
    /// A number, string, true, false or null, as written.
    Scalar(Vec<u8>),
    Array(Vec<Node>),
    /// Each member's key as written (quoted) and its value.
    Object(Vec<(Vec<u8>, Node)>),
}

/// How members and elements are separated when a tree is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Style {
    /// `, ` between members, `: ` after keys (MariaDB's usual form).
    Spaced,
    /// `,` and `:` (JSON_COMPACT).
    Compact,
}

impl Node {
    /// The tree of `text`; None when it is not JSON.
    pub(super) fn of(text: &[u8]) -> Option<Node> {
        if !is_json(text) {
            return None;
        }
        let scan = Scan { b: text };
        Some(Node::read(&scan, scan.ws(0)))
    }

    fn read(scan: &Scan<'_>, i: usize) -> Node {
        match scan.b[i] {
            b'[' => {
                let mut elements = Vec::new();
                scan.items(i, |_, s, _| elements.push(Node::read(scan, s)));
                Node::Array(elements)
            }
            b'{' => {
                let mut members = Vec::new();
                scan.items(i, |k, s, _| {
                    members.push((scan.b[k.0..k.1].to_vec(), Node::read(scan, s)))
                });
                Node::Object(members)
            }
            _ => Node::Scalar(scan.b[i..scan.end(i)].to_vec()),
        }
    }

    /// Whether this is JSON's null.
    pub(super) fn is_null(&self) -> bool {
        matches!(self, Node::Scalar(s) if s == b"null")
    }

    /// The tree as JSON text.
    pub(super) fn write(&self, style: Style, out: &mut Vec<u8>) {
        let (between, after_key): (&[u8], &[u8]) = match style {
            Style::Spaced => (b", ", b": "),
            Style::Compact => (b",", b":"),
        };
        match self {
            Node::Scalar(text) => out.extend_from_slice(text),
            Node::Array(elements) => {
                out.push(b'[');
                for (n, e) in elements.iter().enumerate() {
                    if n > 0 {
                        out.extend_from_slice(between);
                    }
                    e.write(style, out);
                }
                out.push(b']');
            }
            Node::Object(members) => {
                out.push(b'{');
                for (n, (key, value)) in members.iter().enumerate() {
                    if n > 0 {
                        out.extend_from_slice(between);
                    }
                    out.extend_from_slice(key);
                    out.extend_from_slice(after_key);
                    value.write(style, out);
                }
                out.push(b'}');
            }
        }
    }

    /// The tree as JSON text in MariaDB's usual form.
    pub(super) fn text(&self) -> Vec<u8> {
        let mut out = Vec::new();
        self.write(Style::Spaced, &mut out);
        out
    }
}

/// Whether a key as written (quoted, escaped) names `name`.
pub(super) fn key_is(written: &[u8], name: &str) -> bool {
    serde_json::from_slice::<String>(written).is_ok_and(|k| k == name)
}

/// Whether two keys as written name the same member.
pub(super) fn same_key(a: &[u8], b: &[u8]) -> bool {
    a == b
        || matches!(
            (
                serde_json::from_slice::<String>(a),
                serde_json::from_slice::<String>(b)
            ),
            (Ok(x), Ok(y)) if x == y
        )
}

/// `name` as a key is written.
pub(super) fn written_key(name: &str) -> Vec<u8> {
    let mut out = Vec::new();
    quote(name, &mut out);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn trees_keep_text_and_order_as_written() {
        let doc = Node::of(br#" {"b" : [1.50, "x\"y", {}], "a":null, "b":true} "#).unwrap();
        assert_eq!(
            String::from_utf8(doc.text()).unwrap(),
            r#"{"b": [1.50, "x\"y", {}], "a": null, "b": true}"#
        );
        let mut compact = Vec::new();
        doc.write(Style::Compact, &mut compact);
        assert_eq!(
            String::from_utf8(compact).unwrap(),
            r#"{"b":[1.50,"x\"y",{}],"a":null,"b":true}"#
        );
        assert!(Node::of(b"{bad").is_none());
        assert!(key_is(br#""a\u0062""#, "ab"));
        assert!(same_key(br#""\u0061""#, br#""a""#));
    }
}
