//! JSON_COMPACT, JSON_LOOSE and JSON_DETAILED: a document written again,
//! without white space, in MariaDB's usual form or a member a line. NULL
//! when it is not JSON.
use super::tree::{Node, Style};
use crate::error::Result;
use crate::function::arguments::bytes_of;
use lineardb_table::Value;

fn written(v: &Value, style: Style) -> Value {
    match bytes_of(v).and_then(|text| Node::of(&text)) {
        Some(doc) => {
            let mut out = Vec::new();
            doc.write(style, &mut out);
            Value::Bytes(out)
        }
        None => Value::Null,
    }
}

/// JSON_COMPACT(doc).
pub(super) fn json_compact(a: &[Value]) -> Result<Value> {
    Ok(written(&a[0], Style::Compact))
}

/// JSON_LOOSE(doc).
pub(super) fn json_loose(a: &[Value]) -> Result<Value> {
    Ok(written(&a[0], Style::Spaced))
}

/// `node` as JSON_DETAILED writes it at depth `level`, `tab` spaces a
/// level: a member or element a line, a container after a key on the
/// next line, an array of one scalar on one line, as MariaDB writes them.
fn detailed(node: &Node, level: usize, tab: usize, out: &mut Vec<u8>) {
    let indent = |depth: usize, out: &mut Vec<u8>| out.resize(out.len() + depth * tab, b' ');
    match node {
        Node::Scalar(text) => out.extend_from_slice(text),
        Node::Array(elements) if elements.is_empty() => out.extend_from_slice(b"[]"),
        Node::Array(elements) if matches!(elements.as_slice(), [Node::Scalar(_)]) => {
            out.push(b'[');
            detailed(&elements[0], level, tab, out);
            out.push(b']');
        }
        Node::Array(elements) => {
            out.extend_from_slice(b"[\n");
            for (n, e) in elements.iter().enumerate() {
                if n > 0 {
                    out.extend_from_slice(b",\n");
                }
                indent(level + 1, out);
                detailed(e, level + 1, tab, out);
            }
            out.push(b'\n');
            indent(level, out);
            out.push(b']');
        }
        Node::Object(members) => {
            out.push(b'{');
            for (n, (key, value)) in members.iter().enumerate() {
                out.extend_from_slice(if n > 0 { b",\n" } else { b"\n" });
                indent(level + 1, out);
                out.extend_from_slice(key);
                out.extend_from_slice(b": ");
                if !matches!(value, Node::Scalar(_)) {
                    out.push(b'\n');
                    indent(level + 1, out);
                }
                detailed(value, level + 1, tab, out);
            }
            out.push(b'\n');
            indent(level, out);
            out.push(b'}');
        }
    }
}

/// JSON_DETAILED(doc[, tab size]) (JSON_PRETTY): four spaces a level
/// unless told.
pub(super) fn json_detailed(a: &[Value]) -> Result<Value> {
    let Some(doc) = bytes_of(&a[0]).and_then(|text| Node::of(&text)) else {
        return Ok(Value::Null);
    };
    let tab = match a.get(1) {
        Some(v) => crate::function::arguments::int_of(v)
            .unwrap_or(4)
            .clamp(0, 64) as usize,
        None => 4,
    };
    let mut out = Vec::new();
    detailed(&doc, 0, tab, &mut out);
    Ok(Value::Bytes(out))
}
