//! The JSON functions that change a document at paths: JSON_SET,
//! JSON_INSERT, JSON_REPLACE, JSON_REMOVE, JSON_ARRAY_APPEND and
//! JSON_ARRAY_INSERT. Each takes the document, then paths (with a value
//! each, but for JSON_REMOVE) applied one after the other; the result is
//! the whole document written in MariaDB's usual form. NULL when the
//! document or a path is NULL, the document is not JSON or a path holds a
//! wildcard.
use super::arguments::{split_letters, write_json};
use super::path::{parse_path, Step};
use super::tree::{key_is, written_key, Node};
use crate::error::Result;
use crate::function::arguments::bytes_of;
use lineardb_table::Value;

/// The value `steps` lead to from `node`: an object's first member of
/// that key, an array's element; `[0]` and `[last]` of a value that is no
/// array are the value itself.
fn reach<'n>(node: &'n mut Node, steps: &[Step]) -> Option<&'n mut Node> {
    let Some((step, rest)) = steps.split_first() else {
        return Some(node);
    };
    let next = match (step, node) {
        (Step::Key(name), Node::Object(members)) => {
            &mut members.iter_mut().find(|(k, _)| key_is(k, name))?.1
        }
        (Step::Index(n), Node::Array(elements)) => elements.get_mut(*n)?,
        (Step::Last, Node::Array(elements)) => elements.last_mut()?,
        (Step::Index(0) | Step::Last, other) => other,
        _ => return None,
    };
    reach(next, rest)
}

/// `node` made the array of itself and `value`.
fn wrap(node: &mut Node, value: Node) {
    let old = std::mem::replace(node, Node::Array(Vec::new()));
    *node = Node::Array(vec![old, value]);
}

/// Which of JSON_SET, JSON_INSERT and JSON_REPLACE.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Put {
    /// Replaces what is there, adds what is not.
    Set,
    /// Adds only.
    Insert,
    /// Replaces only.
    Replace,
}

/// `value` put at `steps` in `root` (the path holds no wildcard).
fn put(root: &mut Node, steps: &[Step], value: Node, mode: Put) {
    let (replaces, adds) = (mode != Put::Insert, mode != Put::Replace);
    let Some((last, parent_steps)) = steps.split_last() else {
        if replaces {
            *root = value;
        }
        return;
    };
    let Some(parent) = reach(root, parent_steps) else {
        return;
    };
    match (last, parent) {
        (Step::Key(name), Node::Object(members)) => {
            match members.iter_mut().find(|(k, _)| key_is(k, name)) {
                Some((_, there)) if replaces => *there = value,
                Some(_) => {}
                None if adds => members.push((written_key(name), value)),
                None => {}
            }
        }
        (Step::Index(_) | Step::Last, Node::Array(elements)) => {
            let at = match last {
                Step::Index(n) => *n,
                _ => elements.len().saturating_sub(1),
            };
            if at < elements.len() {
                if replaces {
                    elements[at] = value;
                }
            } else if adds {
                elements.push(value);
            }
        }
        // A value that is no array is its own element [0]; an element
        // past it makes an array of the value and the new one.
        (Step::Index(0), other) if replaces => *other = value,
        (Step::Index(n), other) if *n > 0 && adds => wrap(other, value),
        // As MariaDB: JSON_SET replaces such a value at [last],
        // JSON_INSERT appends to it, JSON_REPLACE leaves it.
        (Step::Last, other) if mode == Put::Set => *other = value,
        (Step::Last, other) if mode == Put::Insert => wrap(other, value),
        _ => {}
    }
}

/// Removes what `steps` lead to (a path other than `$`).
fn remove(root: &mut Node, steps: &[Step]) {
    let Some((last, parent_steps)) = steps.split_last() else {
        return;
    };
    match (last, reach(root, parent_steps)) {
        (Step::Key(name), Some(Node::Object(members))) => {
            if let Some(i) = members.iter().position(|(k, _)| key_is(k, name)) {
                members.remove(i);
            }
        }
        (Step::Index(n), Some(Node::Array(elements))) if *n < elements.len() => {
            elements.remove(*n);
        }
        (Step::Last, Some(Node::Array(elements))) => {
            elements.pop();
        }
        _ => {}
    }
}

/// The path of `v`, argument `position` (from 1) of `function` (its name
/// lower case); None for NULL or a path with a wildcard (MariaDB's warning
/// 4044).
fn edit_path(v: &Value, function: &str, position: usize) -> Result<Option<Vec<Step>>> {
    let Some(text) = bytes_of(v) else {
        return Ok(None);
    };
    let steps = parse_path(&String::from_utf8_lossy(&text))?;
    if steps
        .iter()
        .any(|s| matches!(s, Step::AnyKey | Step::AnyIndex))
    {
        crate::expr::warnings::raise(
            4044,
            &format!(
                "Wildcards or range in JSON path not allowed in argument {position} to function \
                 '{function}'"
            ),
        );
        return Ok(None);
    }
    Ok(Some(steps))
}

/// The document of a changing function's first argument; None for NULL
/// and text that is not JSON.
fn document(v: &Value) -> Option<Node> {
    Node::of(&bytes_of(v)?)
}

/// A value argument as a tree (written as JSON_ARRAY writes it).
fn value_node(letter: u8, v: &Value) -> Node {
    let mut text = Vec::new();
    write_json(letter, v, &mut text);
    Node::of(&text).expect("written JSON reads back")
}

/// A changing function on (letters, doc, path, value, …): `change` puts
/// each path's value into the document, false when that makes the result
/// NULL.
fn change_each(
    a: &[Value],
    function: &str,
    mut change: impl FnMut(&mut Node, &[Step], Node) -> bool,
) -> Result<Value> {
    let (letters, args) = split_letters(a);
    let Some(mut doc) = document(&args[0]) else {
        return Ok(Value::Null);
    };
    for (i, pair) in args[1..].chunks(2).enumerate() {
        let Some(steps) = edit_path(&pair[0], function, 2 + 2 * i)? else {
            return Ok(Value::Null);
        };
        let value = value_node(letters.get(2 + 2 * i).copied().unwrap_or(b's'), &pair[1]);
        if !change(&mut doc, &steps, value) {
            return Ok(Value::Null);
        }
    }
    Ok(Value::Bytes(doc.text()))
}

/// JSON_SET, JSON_INSERT or JSON_REPLACE.
fn put_all(a: &[Value], mode: Put) -> Result<Value> {
    let function = match mode {
        Put::Set => "json_set",
        Put::Insert => "json_insert",
        Put::Replace => "json_replace",
    };
    change_each(a, function, |doc, steps, value| {
        put(doc, steps, value, mode);
        true
    })
}

/// JSON_SET(doc, path, value, …).
pub(super) fn json_set(a: &[Value]) -> Result<Value> {
    put_all(a, Put::Set)
}

/// JSON_INSERT(doc, path, value, …).
pub(super) fn json_insert(a: &[Value]) -> Result<Value> {
    put_all(a, Put::Insert)
}

/// JSON_REPLACE(doc, path, value, …).
pub(super) fn json_replace(a: &[Value]) -> Result<Value> {
    put_all(a, Put::Replace)
}

/// JSON_REMOVE(doc, path, …): NULL for the path `$` (warning 4051).
pub(super) fn json_remove(a: &[Value]) -> Result<Value> {
    let Some(mut doc) = document(&a[0]) else {
        return Ok(Value::Null);
    };
    for (i, p) in a[1..].iter().enumerate() {
        match edit_path(p, "json_remove", 2 + i)? {
            Some(steps) if !steps.is_empty() => remove(&mut doc, &steps),
            Some(_) => {
                crate::expr::warnings::raise(
                    4051,
                    &format!(
                        "Path expression '$' is not allowed in argument {} to function \
                         'json_remove'.",
                        2 + i
                    ),
                );
                return Ok(Value::Null);
            }
            None => return Ok(Value::Null),
        }
    }
    Ok(Value::Bytes(doc.text()))
}

/// JSON_ARRAY_APPEND(doc, path, value, …): the value appended to the
/// array at the path, or the value there made an array with it; NULL
/// when a path finds nothing.
pub(super) fn json_array_append(a: &[Value]) -> Result<Value> {
    change_each(a, "json_array_append", |doc, steps, value| {
        match reach(doc, steps) {
            Some(Node::Array(elements)) => {
                elements.push(value);
                true
            }
            Some(other) => {
                wrap(other, value);
                true
            }
            None => false,
        }
    })
}

/// JSON_ARRAY_INSERT(doc, path, value, …): the value inserted before the
/// element the path names (at the end past the last, and for `[last]`);
/// NULL for a path that names no element.
pub(super) fn json_array_insert(a: &[Value]) -> Result<Value> {
    change_each(a, "json_array_insert", |doc, steps, value| {
        let Some((last @ (Step::Index(_) | Step::Last), parent_steps)) = steps.split_last() else {
            return false;
        };
        if let Some(Node::Array(elements)) = reach(doc, parent_steps) {
            let at = match last {
                Step::Index(n) => (*n).min(elements.len()),
                _ => elements.len(),
            };
            elements.insert(at, value);
        }
        true
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The function's result on a document, paths and values (values as
    /// strings, numbers or JSON, by their letter).
    fn run(f: fn(&[Value]) -> Result<Value>, doc: &str, rest: &[(&str, Value)]) -> String {
        let mut letters = String::from("ss");
        let mut args = vec![Value::Null, Value::str(doc)];
        for (path, value) in rest {
            letters.push_str("ss");
            args.push(Value::str(path));
            args.push(value.clone());
        }
        args[0] = Value::str(&letters);
        f(&args).unwrap().to_text().unwrap_or_else(|| "NULL".into())
    }

    #[test]
    fn set_insert_replace_as_mariadb() {
        let one = |p: &'static str| [(p, Value::Int(9))];
        assert_eq!(
            run(json_set, r#"{"a":1,  "b":2}"#, &one("$.c")),
            r#"{"a": 1, "b": 2, "c": 9}"#
        );
        assert_eq!(run(json_insert, r#"{"a":1}"#, &one("$.a")), r#"{"a": 1}"#);
        assert_eq!(run(json_replace, r#"{"a":1}"#, &one("$.b")), r#"{"a": 1}"#);
        assert_eq!(run(json_set, "[1,2]", &one("$[5]")), "[1, 2, 9]");
        assert_eq!(run(json_set, "1", &one("$[1]")), "[1, 9]");
        assert_eq!(run(json_set, r#"{"a":1}"#, &one("$[0]")), "9");
        assert_eq!(run(json_insert, "1", &one("$[0]")), "1");
        assert_eq!(run(json_set, "1", &one("$[last]")), "9");
        assert_eq!(run(json_insert, "1", &one("$[last]")), "[1, 9]");
        assert_eq!(run(json_replace, "1", &one("$[last]")), "1");
        assert_eq!(run(json_insert, "[]", &one("$[last]")), "[9]");
        assert_eq!(
            run(json_set, r#"{"a":{"b":1}}"#, &one("$.a.c.d")),
            r#"{"a": {"b": 1}}"#
        );
        assert_eq!(
            run(json_set, r#"{"a":1,"a":2}"#, &one("$.a")),
            r#"{"a": 9, "a": 2}"#
        );
        assert_eq!(run(json_set, r#"{"a":1}"#, &one("$.*")), "NULL");
        assert_eq!(run(json_set, "x", &one("$.a")), "NULL");
        assert_eq!(
            run(json_set, r#"{"a":1}"#, &[("$.b", Value::str("[1]"))]),
            r#"{"a": 1, "b": "[1]"}"#
        );
    }

    #[test]
    fn remove_append_and_insert_as_mariadb() {
        let remove = |doc: &str, paths: &[&str]| {
            let mut args = vec![Value::str(doc)];
            args.extend(paths.iter().map(|p| Value::str(p)));
            json_remove(&args)
                .unwrap()
                .to_text()
                .unwrap_or_else(|| "NULL".into())
        };
        assert_eq!(
            remove(r#"{"a":1, "b" :[1,2,3]}"#, &["$.b[1]"]),
            r#"{"a": 1, "b": [1, 3]}"#
        );
        assert_eq!(remove("[1,2,3]", &["$[0]", "$[0]"]), "[3]");
        assert_eq!(remove("[1]", &["$"]), "NULL");
        assert_eq!(remove(r#"{"a":1}"#, &["$[0]"]), r#"{"a": 1}"#);
        let two = |p: &'static str| [(p, Value::Int(2))];
        assert_eq!(
            run(json_array_append, "[[1]]", &two("$[0][last]")),
            "[[[1, 2]]]"
        );
        assert_eq!(run(json_array_append, "[1]", &two("$[5]")), "NULL");
        assert_eq!(
            run(json_array_insert, "[1,2,3]", &two("$[1]")),
            "[1, 2, 2, 3]"
        );
        assert_eq!(
            run(json_array_insert, "[1,2]", &two("$[last]")),
            "[1, 2, 2]"
        );
        assert_eq!(run(json_array_insert, "1", &two("$[0]")), "1");
        assert_eq!(run(json_array_insert, "[1]", &two("$.a")), "NULL");
    }
}
