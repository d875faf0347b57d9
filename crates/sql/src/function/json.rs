//! JSON functions over JSON text (a JSON column is LONGTEXT in utf8mb4_bin
//! with a `json_valid` CHECK, as MariaDB defines it).
use super::arguments::bytes_of;
use super::kinds::{int, text};
use super::Builtin;
use crate::error::{Result, SqlError};
use lineardb_table::Value;

pub(super) const FUNCTIONS: &[Builtin] = &[
    Builtin::new(&["JSON_VALID"], (1, 1), int, json_valid),
    Builtin::new(&["JSON_EXTRACT"], (2, usize::MAX), text, json_extract),
    Builtin::new(&["JSON_UNQUOTE"], (1, 1), text, json_unquote),
    Builtin::new(&["JSON_ARRAY"], (0, usize::MAX), text, json_array)
        .sees_nulls()
        .json_arguments(),
    Builtin::new(&["JSON_OBJECT"], (0, usize::MAX), text, json_object)
        .sees_nulls()
        .json_arguments(),
    Builtin::new(&["JSON_QUOTE"], (1, 1), text, json_quote),
    Builtin::new(&["JSON_LENGTH"], (1, 2), int, json_length),
    Builtin::new(&["JSON_DEPTH"], (1, 1), int, json_depth),
    Builtin::new(&["JSON_TYPE"], (1, 1), text, json_type),
    Builtin::new(&["JSON_KEYS"], (1, 2), text, json_keys),
    Builtin::new(&["JSON_VALUE"], (2, 2), text, json_value),
    Builtin::new(&["JSON_QUERY"], (2, 2), text, json_query),
    Builtin::new(&["JSON_EXISTS"], (2, 2), int, json_exists),
    Builtin::new(
        &["JSON_CONTAINS_PATH"],
        (3, usize::MAX),
        int,
        json_contains_path,
    ),
    Builtin::new(&["JSON_CONTAINS"], (2, 3), int, json_contains),
];

/// Functions whose result is JSON text: as an argument of JSON_ARRAY or
/// JSON_OBJECT it is written as JSON, not as a string.
const JSON_VALUED: &[&str] = &[
    "JSON_ARRAY",
    "JSON_OBJECT",
    "JSON_EXTRACT",
    "JSON_QUERY",
    "JSON_KEYS",
    "JSON_COMPACT",
    "JSON_MERGE",
    "JSON_MERGE_PATCH",
    "JSON_MERGE_PRESERVE",
    "JSON_SET",
    "JSON_INSERT",
    "JSON_REPLACE",
    "JSON_REMOVE",
    "JSON_ARRAY_APPEND",
    "JSON_ARRAY_INSERT",
    "JSON_ARRAYAGG",
    "JSON_OBJECTAGG",
];

/// The letter the compiler passes for an argument of JSON_ARRAY or
/// JSON_OBJECT (see [`Builtin::json_arguments`]).
pub(crate) fn argument_letter(e: &sqlparser::ast::Expr) -> char {
    use sqlparser::ast;
    match e {
        ast::Expr::Function(f)
            if JSON_VALUED
                .iter()
                .any(|n| f.name.to_string().eq_ignore_ascii_case(n)) =>
        {
            'j'
        }
        ast::Expr::Value(v) if matches!(v.value, ast::Value::Boolean(_)) => 'b',
        ast::Expr::Nested(inner) => argument_letter(inner),
        _ => 's',
    }
}

/// `s` as a JSON string, escaped as MariaDB escapes it.
fn quote(s: &str, out: &mut Vec<u8>) {
    out.extend_from_slice(
        serde_json::to_string(s)
            .expect("a string serializes")
            .as_bytes(),
    );
}

/// Argument `v` written as JSON: `letter` says whether it is JSON text
/// (`j`) or TRUE/FALSE (`b`); numbers as they are, NULL as null, anything
/// else as a string.
fn write_json(letter: u8, v: &Value, out: &mut Vec<u8>) {
    match v {
        Value::Null => out.extend_from_slice(b"null"),
        Value::Int(_) | Value::UInt(_) if letter == b'b' => {
            let truth = v.as_f64().is_some_and(|f| f != 0.0);
            out.extend_from_slice(if truth { b"true" } else { b"false" })
        }
        Value::Int(_) | Value::UInt(_) | Value::Decimal(_) | Value::Double(_) => {
            out.extend_from_slice(v.to_text().unwrap_or_default().as_bytes())
        }
        Value::Bytes(b) if letter == b'j' && is_json(b) => {
            let scan = Scan { b };
            scan.format(scan.ws(0), out)
        }
        other => quote(
            &String::from_utf8_lossy(&bytes_of(other).unwrap_or_default()),
            out,
        ),
    }
}

/// The argument letters the compiler passed, and the arguments.
fn split_letters(a: &[Value]) -> (&[u8], &[Value]) {
    match &a[0] {
        Value::Bytes(letters) => (letters, &a[1..]),
        _ => (&[], &a[1..]),
    }
}

/// JSON_ARRAY(v, …).
fn json_array(a: &[Value]) -> Result<Value> {
    let (letters, args) = split_letters(a);
    let mut out = vec![b'['];
    for (i, v) in args.iter().enumerate() {
        if i > 0 {
            out.extend_from_slice(b", ");
        }
        write_json(letters.get(i).copied().unwrap_or(b's'), v, &mut out);
    }
    out.push(b']');
    Ok(Value::Bytes(out))
}

/// JSON_OBJECT(key, value, …) (the compiler refuses an odd number of
/// arguments with 1582, naming the function as written).
fn json_object(a: &[Value]) -> Result<Value> {
    let (letters, args) = split_letters(a);
    if args.len() % 2 == 1 {
        return Err(SqlError::new(
            1582,
            "42000",
            "Incorrect parameter count in the call to native function 'json_object'",
        ));
    }
    let mut out = vec![b'{'];
    for (i, pair) in args.chunks(2).enumerate() {
        if i > 0 {
            out.extend_from_slice(b", ");
        }
        let key = bytes_of(&pair[0]).unwrap_or_default();
        quote(&String::from_utf8_lossy(&key), &mut out);
        out.extend_from_slice(b": ");
        write_json(
            letters.get(2 * i + 1).copied().unwrap_or(b's'),
            &pair[1],
            &mut out,
        );
    }
    out.push(b'}');
    Ok(Value::Bytes(out))
}

/// JSON_QUOTE(s): `s` as a JSON string.
fn json_quote(a: &[Value]) -> Result<Value> {
    let mut out = Vec::new();
    quote(
        &String::from_utf8_lossy(&bytes_of(&a[0]).unwrap_or_default()),
        &mut out,
    );
    Ok(Value::Bytes(out))
}

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
fn json_length(a: &[Value]) -> Result<Value> {
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

impl Scan<'_> {
    /// Depth of the value at `i`: 1 for a scalar or an empty array or
    /// object, else one more than its deepest member.
    fn depth(&self, i: usize) -> i64 {
        if !matches!(self.b[i], b'{' | b'[') {
            return 1;
        }
        let mut deepest = 0;
        self.items(i, |_, s, _| deepest = deepest.max(self.depth(s)));
        1 + deepest
    }
}

/// JSON_DEPTH(doc).
fn json_depth(a: &[Value]) -> Result<Value> {
    let doc = bytes_of(&a[0]).unwrap_or_default();
    Ok(match located(&doc, None)? {
        Some((scan, at)) => Value::Int(scan.depth(at)),
        None => Value::Null,
    })
}

/// JSON_TYPE(doc): OBJECT, ARRAY, STRING, INTEGER, DOUBLE (a number with a
/// point), BOOLEAN or NULL.
fn json_type(a: &[Value]) -> Result<Value> {
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
fn json_keys(a: &[Value]) -> Result<Value> {
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
fn json_value(a: &[Value]) -> Result<Value> {
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
fn json_query(a: &[Value]) -> Result<Value> {
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
fn json_exists(a: &[Value]) -> Result<Value> {
    let doc = bytes_of(&a[0]).unwrap_or_default();
    if !is_json(&doc) {
        return Ok(Value::Null);
    }
    Ok(Value::Int(located(&doc, a.get(1))?.is_some() as i64))
}

/// JSON_CONTAINS_PATH(doc, 'one' | 'all', path, …).
fn json_contains_path(a: &[Value]) -> Result<Value> {
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
fn json_contains(a: &[Value]) -> Result<Value> {
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

/// Whether `text` is one JSON value (any kind, surrounded by white space
/// at most). Numbers are checked for their syntax only: MariaDB takes
/// `1e400`.
pub(crate) fn is_json(text: &[u8]) -> bool {
    serde_json::from_slice::<serde::de::IgnoredAny>(text).is_ok()
}

fn json_valid(a: &[Value]) -> Result<Value> {
    Ok(Value::Int(
        bytes_of(&a[0]).is_some_and(|b| is_json(&b)) as i64
    ))
}

/// One step of a JSON path.
#[derive(Debug, Clone, PartialEq)]
enum Step {
    Key(String),
    AnyKey,
    Index(usize),
    /// `[last]`: the array's last element.
    Last,
    AnyIndex,
}

/// A path `$`, `.key`, `."key"`, `.*`, `[n]`, `[last]`, `[*]`; other
/// forms (`**`, ranges, `lax`/`strict`) are not supported yet.
fn parse_path(path: &str) -> Result<Vec<Step>> {
    let bad = || SqlError::unsupported(format!("the JSON path '{path}'"));
    let rest = path.trim().strip_prefix('$').ok_or_else(bad)?;
    let b = rest.as_bytes();
    let mut steps = Vec::new();
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b' ' => i += 1,
            b'.' => {
                i += 1;
                if b.get(i) == Some(&b'*') {
                    steps.push(Step::AnyKey);
                    i += 1;
                } else if b.get(i) == Some(&b'"') {
                    let end = rest[i + 1..].find('"').ok_or_else(bad)? + i + 1;
                    steps.push(Step::Key(rest[i + 1..end].to_string()));
                    i = end + 1;
                } else {
                    let end = rest[i..].find(['.', '[', ' ']).map_or(b.len(), |e| e + i);
                    if end == i || rest[i..end].contains('*') {
                        return Err(bad());
                    }
                    steps.push(Step::Key(rest[i..end].to_string()));
                    i = end;
                }
            }
            b'[' => {
                let end = rest[i..].find(']').ok_or_else(bad)? + i;
                let inner = rest[i + 1..end].trim();
                steps.push(match inner {
                    "*" => Step::AnyIndex,
                    "last" => Step::Last,
                    n => Step::Index(n.parse().map_err(|_| bad())?),
                });
                i = end + 1;
            }
            _ => return Err(bad()),
        }
    }
    Ok(steps)
}

/// Reads valid JSON text (checked by [`is_json`] first) by spans.
struct Scan<'a> {
    b: &'a [u8],
}

impl Scan<'_> {
    fn ws(&self, mut i: usize) -> usize {
        while matches!(self.b.get(i), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            i += 1;
        }
        i
    }

    /// Where the value starting at `i` ends.
    fn end(&self, i: usize) -> usize {
        match self.b[i] {
            b'"' => {
                let mut j = i + 1;
                while self.b[j] != b'"' {
                    j += if self.b[j] == b'\\' { 2 } else { 1 };
                }
                j + 1
            }
            b'{' | b'[' => self.items(i, |_, _, _| {}) + 1,
            _ => {
                let mut j = i;
                while j < self.b.len() && !b",]} \t\n\r".contains(&self.b[j]) {
                    j += 1;
                }
                j
            }
        }
    }

    /// Calls `f(key span, value start, value end)` for each member of the
    /// object or element of the array at `i` (an element's key span is
    /// empty); returns where its closing bracket is.
    fn items(&self, i: usize, mut f: impl FnMut((usize, usize), usize, usize)) -> usize {
        let object = self.b[i] == b'{';
        let mut j = self.ws(i + 1);
        if matches!(self.b[j], b'}' | b']') {
            return j;
        }
        loop {
            let mut key = (j, j);
            if object {
                key = (j, self.end(j));
                j = self.ws(self.ws(key.1) + 1);
            }
            let e = self.end(j);
            f(key, j, e);
            j = self.ws(e);
            if self.b[j] != b',' {
                return j;
            }
            j = self.ws(j + 1);
        }
    }

    /// The value at `i` as MariaDB writes it: members and elements
    /// separated by ", ", keys by ": ", scalars as written.
    fn format(&self, i: usize, out: &mut Vec<u8>) {
        match self.b[i] {
            b'{' | b'[' => {
                let object = self.b[i] == b'{';
                out.push(self.b[i]);
                let mut first = true;
                self.items(i, |k, s, _| {
                    if !first {
                        out.extend_from_slice(b", ");
                    }
                    first = false;
                    if object {
                        out.extend_from_slice(&self.b[k.0..k.1]);
                        out.extend_from_slice(b": ");
                    }
                    self.format(s, out);
                });
                out.push(if object { b'}' } else { b']' });
            }
            _ => out.extend_from_slice(&self.b[i..self.end(i)]),
        }
    }

    /// Starts of the values `steps` lead to from the value at `i`, in
    /// document order (the first member of a duplicated key).
    fn find(&self, i: usize, steps: &[Step], out: &mut Vec<usize>) {
        let Some((step, rest)) = steps.split_first() else {
            out.push(i);
            return;
        };
        let object = self.b[i] == b'{';
        let array = self.b[i] == b'[';
        match step {
            Step::Key(name) if object => {
                let mut hit = None;
                self.items(i, |k, s, _| {
                    if hit.is_none()
                        && serde_json::from_slice::<String>(&self.b[k.0..k.1])
                            .ok()
                            .as_deref()
                            == Some(name.as_str())
                    {
                        hit = Some(s);
                    }
                });
                if let Some(s) = hit {
                    self.find(s, rest, out);
                }
            }
            Step::AnyKey if object => {
                let mut all = Vec::new();
                self.items(i, |_, s, _| all.push(s));
                for s in all {
                    self.find(s, rest, out);
                }
            }
            Step::Index(_) | Step::Last | Step::AnyIndex if array => {
                let mut all = Vec::new();
                self.items(i, |_, s, _| all.push(s));
                let chosen: Vec<usize> = match step {
                    Step::Index(n) => all.get(*n).copied().into_iter().collect(),
                    Step::Last => all.last().copied().into_iter().collect(),
                    _ => all,
                };
                for s in chosen {
                    self.find(s, rest, out);
                }
            }
            // A value that is not an array is its own only element.
            Step::Index(0) | Step::Last if !array => self.find(i, rest, out),
            _ => {}
        }
    }
}

/// JSON_EXTRACT(doc, path, …): the value a path without wildcards finds,
/// else an array of every value found; NULL when none is (or the document
/// is not JSON).
fn json_extract(a: &[Value]) -> Result<Value> {
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
fn json_unquote(a: &[Value]) -> Result<Value> {
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
