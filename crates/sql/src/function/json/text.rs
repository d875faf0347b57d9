//! JSON text read in place: a value's span, its members, its text as
//! MariaDB writes it, and the values a path leads to.
use super::path::Step;

/// `s` as a JSON string, escaped as MariaDB escapes it.
pub(super) fn quote(s: &str, out: &mut Vec<u8>) {
    out.extend_from_slice(
        serde_json::to_string(s)
            .expect("a string serializes")
            .as_bytes(),
    );
}

/// Whether `text` is one JSON value (any kind, surrounded by white space
/// at most). Numbers are checked for their syntax only: MariaDB takes
/// `1e400`.
pub(super) fn is_json(text: &[u8]) -> bool {
    serde_json::from_slice::<serde::de::IgnoredAny>(text).is_ok()
}

/// Reads valid JSON text (checked by [`is_json`] first) by spans.
pub(super) struct Scan<'a> {
    pub(super) b: &'a [u8],
}

impl Scan<'_> {
    pub(super) fn ws(&self, mut i: usize) -> usize {
        while matches!(self.b.get(i), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            i += 1;
        }
        i
    }

    /// Where the value starting at `i` ends.
    pub(super) fn end(&self, i: usize) -> usize {
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
    pub(super) fn items(&self, i: usize, mut f: impl FnMut((usize, usize), usize, usize)) -> usize {
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
    pub(super) fn format(&self, i: usize, out: &mut Vec<u8>) {
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
    pub(super) fn find(&self, i: usize, steps: &[Step], out: &mut Vec<usize>) {
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

    /// Depth of the value at `i`: 1 for a scalar or an empty array or
    /// object, else one more than its deepest member.
    pub(super) fn depth(&self, i: usize) -> i64 {
        if !matches!(self.b[i], b'{' | b'[') {
            return 1;
        }
        let mut deepest = 0;
        self.items(i, |_, s, _| deepest = deepest.max(self.depth(s)));
        1 + deepest
    }
}
