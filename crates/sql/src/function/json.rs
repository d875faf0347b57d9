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
];

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
