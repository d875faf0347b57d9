//! JSON_MERGE_PRESERVE (JSON_MERGE) and JSON_MERGE_PATCH: documents merged
//! left to right. NULL when one is NULL or not JSON.
use super::tree::{same_key, Node};
use crate::error::Result;
use crate::function::arguments::bytes_of;
use lineardb_table::Value;

/// `b` merged into `a`, keeping both: objects member by member (a key of
/// both merged again), anything else as the elements of one array.
fn preserve(a: Node, b: Node) -> Node {
    match (a, b) {
        (Node::Object(mut members), Node::Object(more)) => {
            for (key, value) in more {
                match members.iter_mut().find(|(k, _)| same_key(k, &key)) {
                    Some((_, there)) => {
                        let old = std::mem::replace(there, Node::Array(Vec::new()));
                        *there = preserve(old, value);
                    }
                    None => members.push((key, value)),
                }
            }
            Node::Object(members)
        }
        (a, b) => {
            let mut elements = elements_of(a);
            elements.extend(elements_of(b));
            Node::Array(elements)
        }
    }
}

/// An array's elements, or the value as the only one.
fn elements_of(n: Node) -> Vec<Node> {
    match n {
        Node::Array(elements) => elements,
        other => vec![other],
    }
}

/// `patch` applied to `target` as RFC 7396 says: a patch that is no
/// object replaces the target; an object's null members remove, its
/// other members patch the target's (the target made an object first).
fn patch(target: Node, patch_doc: Node) -> Node {
    let Node::Object(changes) = patch_doc else {
        return patch_doc;
    };
    let mut members = match target {
        Node::Object(members) => members,
        _ => Vec::new(),
    };
    for (key, value) in changes {
        let at = members.iter().position(|(k, _)| same_key(k, &key));
        match (at, value.is_null()) {
            (Some(i), true) => {
                members.remove(i);
            }
            (None, true) => {}
            (Some(i), false) => {
                let old = std::mem::replace(&mut members[i].1, Node::Array(Vec::new()));
                members[i].1 = patch(old, value);
            }
            (None, false) => members.push((key, patch(Node::Object(Vec::new()), value))),
        }
    }
    Node::Object(members)
}

/// The documents of `a` merged by `merge`, left to right.
fn merged(a: &[Value], merge: fn(Node, Node) -> Node) -> Result<Value> {
    let mut docs = Vec::with_capacity(a.len());
    for v in a {
        match bytes_of(v).and_then(|text| Node::of(&text)) {
            Some(doc) => docs.push(doc),
            None => return Ok(Value::Null),
        }
    }
    let mut docs = docs.into_iter();
    let first = docs.next().expect("two arguments at least");
    Ok(Value::Bytes(docs.fold(first, merge).text()))
}

/// JSON_MERGE_PRESERVE(doc, doc, …), also called JSON_MERGE.
pub(super) fn json_merge_preserve(a: &[Value]) -> Result<Value> {
    merged(a, preserve)
}

/// JSON_MERGE_PATCH(doc, doc, …).
pub(super) fn json_merge_patch(a: &[Value]) -> Result<Value> {
    merged(a, patch)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(f: fn(&[Value]) -> Result<Value>, docs: &[&str]) -> String {
        let args: Vec<Value> = docs.iter().map(|d| Value::str(d)).collect();
        f(&args).unwrap().to_text().unwrap_or_else(|| "NULL".into())
    }

    #[test]
    fn merges_as_mariadb() {
        assert_eq!(
            run(
                json_merge_preserve,
                &[r#"{"a":1,"b":2}"#, r#"{"b":3,"c":4}"#, "[5]"]
            ),
            r#"[{"a": 1, "b": [2, 3], "c": 4}, 5]"#
        );
        assert_eq!(run(json_merge_preserve, &[r#""x""#, "[1]"]), r#"["x", 1]"#);
        assert_eq!(
            run(
                json_merge_preserve,
                &[r#"{"a":{"x":1}}"#, r#"{"a":{"x":2,"y":3}}"#]
            ),
            r#"{"a": {"x": [1, 2], "y": 3}}"#
        );
        assert_eq!(run(json_merge_preserve, &["[1]", "x"]), "NULL");
        assert_eq!(
            run(
                json_merge_patch,
                &[r#"{"a":1,"b":2}"#, r#"{"a":null,"c":{"d":1}}"#]
            ),
            r#"{"b": 2, "c": {"d": 1}}"#
        );
        assert_eq!(
            run(json_merge_patch, &[r#"{"a":[1,2]}"#, r#"{"a":{"b":null}}"#]),
            r#"{"a": {}}"#
        );
        assert_eq!(run(json_merge_patch, &["[1]", r#"{"a":1}"#]), r#"{"a": 1}"#);
        assert_eq!(run(json_merge_patch, &["1", "2"]), "2");
    }
}
