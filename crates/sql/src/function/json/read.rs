//! The JSON functions that read documents.
use super::path::{parse_path, Step};
use super::text::{is_json, Scan};
use crate::error::{Result, SqlError};
use crate::function::arguments::bytes_of;
use lineardb_table::Value;

/// The document `a[0]` and the start of the value the path `a[1]` (if
/// given) leads to first; None when the document is not JSON or the path
/// finds nothing.
fn located<'a>(doc: &'a [u8], path: Option<&Value>) -> Result<Option<(Scan<'a>, usize)>> {
    let steps = match path {
        Some(p) => parse_path(&String::from_utf8_lossy(&bytes_of(p).unwrap_or_default()))?,
        None => Vec::new(),
    };
    if !is_json(doc) {
        return Ok(None);
    }
    let scan = Scan { b: doc };
    let mut found = Vec::new();
    scan.find(scan.ws(0), &steps, &mut found);
    Ok(found.first().map(|&at| (scan, at)))
}

/// JSON_LENGTH(doc[, path]): members of an object, elements of an array,
/// 1 for a scalar.
pub(super) fn json_length(a: &[Value]) -> Result<Value> {
    let doc = bytes_of(&a[0]).unwrap_or_default();
    Ok(match located(&doc, a.get(1))? {
        Some((scan, at)) if matches!(scan.b[at], b'{' | b'[') => {
            let mut n = 0;
            scan.items(at, |_, _, _| n += 1);
            Value::Int(n)
        }
        Some(_) => Value::Int(1),
        None => Value::Null,
    })
}

/// JSON_DEPTH(doc).
pub(super) fn json_depth(a: &[Value]) -> Result<Value> {
    let doc = bytes_of(&a[0]).unwrap_or_default();
    Ok(match located(&doc, None)? {
        Some((scan, at)) => Value::Int(scan.depth(at)),
        None => Value::Null,
    })
}

/// JSON_TYPE(doc): OBJECT, ARRAY, STRING, INTEGER, DOUBLE (a number with a
/// point), BOOLEAN or NULL.
pub(super) fn json_type(a: &[Value]) -> Result<Value> {
    let doc = bytes_of(&a[0]).unwrap_or_default();
    let Some((scan, at)) = located(&doc, None)? else {
        return Ok(Value::Null);
    };
    let kind = match scan.b[at] {
        b'{' => "OBJECT",
        b'[' => "ARRAY",
        b'"' => "STRING",
        b't' | b'f' => "BOOLEAN",
        b'n' => "NULL",
        _ if scan.b[at..scan.end(at)].contains(&b'.') => "DOUBLE",
        _ => "INTEGER",
    };
    Ok(Value::str(kind))
}

/// JSON_KEYS(doc[, path]): the keys of the object there, as a JSON array.
pub(super) fn json_keys(a: &[Value]) -> Result<Value> {
    let doc = bytes_of(&a[0]).unwrap_or_default();
    Ok(match located(&doc, a.get(1))? {
        Some((scan, at)) if scan.b[at] == b'{' => {
            let mut out = vec![b'['];
            let mut first = true;
            scan.items(at, |k, _, _| {
                if !first {
                    out.extend_from_slice(b", ");
                }
                first = false;
                out.extend_from_slice(&scan.b[k.0..k.1]);
            });
            out.push(b']');
            Value::Bytes(out)
        }
        _ => Value::Null,
    })
}

/// JSON_VALUE(doc, path): the scalar there (a string unquoted); NULL for
/// an object, an array, null or nothing.
pub(super) fn json_value(a: &[Value]) -> Result<Value> {
    let doc = bytes_of(&a[0]).unwrap_or_default();
    Ok(match located(&doc, a.get(1))? {
        // true and false are 1 and 0.
        Some((scan, at)) if scan.b[at] == b't' => Value::str("1"),
        Some((scan, at)) if scan.b[at] == b'f' => Value::str("0"),
        Some((scan, at)) if !matches!(scan.b[at], b'{' | b'[' | b'n') => {
            json_unquote(&[Value::Bytes(scan.b[at..scan.end(at)].to_vec())])?
        }
        _ => Value::Null,
    })
}

/// JSON_QUERY(doc, path): the object or array there; NULL for a scalar.
pub(super) fn json_query(a: &[Value]) -> Result<Value> {
    let doc = bytes_of(&a[0]).unwrap_or_default();
    Ok(match located(&doc, a.get(1))? {
        Some((scan, at)) if matches!(scan.b[at], b'{' | b'[') => {
            let mut out = Vec::new();
            scan.format(at, &mut out);
            Value::Bytes(out)
        }
        _ => Value::Null,
    })
}

/// JSON_EXISTS(doc, path): whether the path finds a value.
pub(super) fn json_exists(a: &[Value]) -> Result<Value> {
    let doc = bytes_of(&a[0]).unwrap_or_default();
    if !is_json(&doc) {
        return Ok(Value::Null);
    }
    Ok(Value::Int(located(&doc, a.get(1))?.is_some() as i64))
}

/// JSON_CONTAINS_PATH(doc, 'one' | 'all', path, …).
pub(super) fn json_contains_path(a: &[Value]) -> Result<Value> {
    let doc = bytes_of(&a[0]).unwrap_or_default();
    let mode = String::from_utf8_lossy(&bytes_of(&a[1]).unwrap_or_default()).to_lowercase();
    let all = match mode.as_str() {
        "all" => true,
        "one" => false,
        _ => {
            return Err(SqlError::unsupported(format!(
                "JSON_CONTAINS_PATH mode '{mode}'"
            )))
        }
    };
    if !is_json(&doc) {
        return Ok(Value::Null);
    }
    let mut found = Vec::new();
    for p in &a[2..] {
        found.push(located(&doc, Some(p))?.is_some());
    }
    let hit = if all {
        found.iter().all(|&f| f)
    } else {
        found.iter().any(|&f| f)
    };
    Ok(Value::Int(hit as i64))
}

/// Whether `target` contains `candidate`, as JSON_CONTAINS defines it:
/// equal scalars; an array containing each of the candidate's elements
/// (or the candidate itself, if it is no array); an object with each of
/// the candidate's keys, containing its value.
fn contains(target: &serde_json::Value, candidate: &serde_json::Value) -> bool {
    use serde_json::Value as J;
    match (target, candidate) {
        (J::Array(t), J::Array(c)) => c.iter().all(|x| t.iter().any(|y| contains(y, x))),
        (J::Array(t), c) => t.iter().any(|y| contains(y, c)),
        (J::Object(t), J::Object(c)) => c
            .iter()
            .all(|(k, v)| t.get(k).is_some_and(|tv| contains(tv, v))),
        (J::Number(x), J::Number(y)) => x.as_f64() == y.as_f64(),
        (t, c) => t == c,
    }
}

/// JSON_CONTAINS(doc, candidate[, path]): 0 when the path finds nothing,
/// NULL when either is not JSON.
pub(super) fn json_contains(a: &[Value]) -> Result<Value> {
    let doc = bytes_of(&a[0]).unwrap_or_default();
    let candidate = bytes_of(&a[1]).unwrap_or_default();
    if !is_json(&doc) || !is_json(&candidate) {
        return Ok(Value::Null);
    }
    let Some((scan, at)) = located(&doc, a.get(2))? else {
        return Ok(Value::Int(0));
    };
    let (Ok(target), Ok(candidate)) = (
        serde_json::from_slice::<serde_json::Value>(&scan.b[at..scan.end(at)]),
        serde_json::from_slice::<serde_json::Value>(&candidate),
    ) else {
        return Ok(Value::Null);
    };
    Ok(Value::Int(contains(&target, &candidate) as i64))
}

pub(super) fn json_valid(a: &[Value]) -> Result<Value> {
    Ok(Value::Int(
        bytes_of(&a[0]).is_some_and(|b| is_json(&b)) as i64
    ))
}

/// JSON_EXTRACT(doc, path, …): the value a path without wildcards finds,
/// else an array of every value found; NULL when none is (or the document
/// is not JSON).
pub(super) fn json_extract(a: &[Value]) -> Result<Value> {
    let doc = bytes_of(&a[0]).unwrap_or_default();
    let mut paths = Vec::new();
    for p in &a[1..] {
        let text = String::from_utf8_lossy(&bytes_of(p).unwrap_or_default()).into_owned();
        paths.push(parse_path(&text)?);
    }
    if !is_json(&doc) {
        return Ok(Value::Null);
    }
    let scan = Scan { b: &doc };
    let root = scan.ws(0);
    let mut found = Vec::new();
    for p in &paths {
        scan.find(root, p, &mut found);
    }
    let wrap = paths.len() > 1
        || paths
            .iter()
            .flatten()
            .any(|s| matches!(s, Step::AnyKey | Step::AnyIndex));
    let mut out = Vec::new();
    match (found.as_slice(), wrap) {
        ([], _) => return Ok(Value::Null),
        ([one], false) => scan.format(*one, &mut out),
        (all, _) => {
            out.push(b'[');
            for (n, s) in all.iter().enumerate() {
                if n > 0 {
                    out.extend_from_slice(b", ");
                }
                scan.format(*s, &mut out);
            }
            out.push(b']');
        }
    }
    Ok(Value::Bytes(out))
}

/// JSON_UNQUOTE(s): a JSON string's text; anything else as it is.
pub(super) fn json_unquote(a: &[Value]) -> Result<Value> {
    let b = bytes_of(&a[0]).unwrap_or_default();
    if b.first() == Some(&b'"') {
        if let Ok(s) = serde_json::from_slice::<String>(&b) {
            return Ok(Value::str(&s));
        }
    }
    Ok(Value::Bytes(b))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn extract(doc: &str, paths: &[&str]) -> Option<String> {
        let mut args = vec![Value::str(doc)];
        args.extend(paths.iter().map(|p| Value::str(p)));
        json_extract(&args).unwrap().to_text()
    }

    #[test]
    fn extract_formats_as_mariadb() {
        let doc = "{\"a\" :  {\"x\" : 2.50, \"y\":[ ]} , \"b\":\"q\\\"r\"}";
        assert_eq!(
            extract(doc, &["$"]).unwrap(),
            "{\"a\": {\"x\": 2.50, \"y\": []}, \"b\": \"q\\\"r\"}"
        );
        assert_eq!(extract("[1,2,3]", &["$[*]"]).unwrap(), "[1, 2, 3]");
        assert_eq!(extract("[1,2]", &["$[1]", "$[9]"]).unwrap(), "[2]");
        assert_eq!(extract("{\"a\":1,\"a\":2}", &["$.a"]).unwrap(), "1");
        assert_eq!(extract("[[1,2],[3]]", &["$[0][1]"]).unwrap(), "2");
        assert_eq!(extract("[1,2,3]", &["$[last]"]).unwrap(), "3");
        assert_eq!(extract("{\"a b\":5}", &["$.\"a b\""]).unwrap(), "5");
        assert_eq!(extract("{\"a\":1}", &["$.z"]), None);
        assert_eq!(extract("{bad", &["$.a"]), None);
        assert_eq!(
            extract("[{ }, [ ], {\"k\": [ ]}]", &["$"]).unwrap(),
            "[{}, [], {\"k\": []}]"
        );
        assert_eq!(
            extract("{\"a\":[{\"b\":1},{\"b\":2}]}", &["$.a[*].b"]).unwrap(),
            "[1, 2]"
        );
    }

    #[test]
    fn json_text_as_mariadb_takes_it() {
        for ok in [
            "{\"a\": [1, 2.5, \"x\"]}",
            "null",
            "12",
            " {\"a\":1} ",
            "1e400",
            "\"é\"",
        ] {
            assert!(is_json(ok.as_bytes()), "{ok}");
        }
        for bad in ["{a:1}", "[1,", "", "{\"a\":1} x", "'a'"] {
            assert!(!is_json(bad.as_bytes()), "{bad}");
        }
    }
}
