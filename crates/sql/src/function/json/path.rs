//! JSON paths.
use crate::error::{Result, SqlError};

/// One step of a JSON path.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum Step {
    Key(String),
    AnyKey,
    Index(usize),
    /// `[last]`: the array's last element.
    Last,
    AnyIndex,
}

/// A path `$`, `.key`, `."key"`, `.*`, `[n]`, `[last]`, `[*]`; other
/// forms (`**`, ranges, `lax`/`strict`) are not supported yet.
pub(super) fn parse_path(path: &str) -> Result<Vec<Step>> {
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
