//! Statement digests: a statement's text with its literals replaced by `?`
//! (lists of them by `...`), comments dropped and blanks collapsed, so that
//! `SELECT c FROM t WHERE id = 7` and `... id = 12` count as one statement,
//! as in MySQL's `events_statements_summary_by_digest`.

/// The digest text of `sql`.
pub(crate) fn normalize(sql: &str) -> String {
    let b = sql.as_bytes();
    let mut out = String::with_capacity(sql.len());
    let mut i = 0;
    // A blank is written only between two tokens.
    let mut blank = false;
    let push = |out: &mut String, token: &str, blank: &mut bool| {
        if *blank && !out.is_empty() {
            out.push(' ');
        }
        *blank = false;
        out.push_str(token);
    };
    while i < b.len() {
        let c = b[i];
        match c {
            b' ' | b'\t' | b'\n' | b'\r' => {
                blank = true;
                i += 1;
            }
            b'/' if b.get(i + 1) == Some(&b'*') => {
                let end = sql[i + 2..].find("*/").map_or(b.len(), |e| i + 2 + e + 2);
                blank = true;
                i = end;
            }
            b'-' if b.get(i + 1) == Some(&b'-') => {
                i = sql[i..].find('\n').map_or(b.len(), |e| i + e);
                blank = true;
            }
            b'#' => {
                i = sql[i..].find('\n').map_or(b.len(), |e| i + e);
                blank = true;
            }
            b'\'' | b'"' => {
                // A string literal: doubled quotes and backslashes escape.
                let mut j = i + 1;
                while j < b.len() {
                    if b[j] == b'\\' {
                        j += 2;
                    } else if b[j] == c {
                        if b.get(j + 1) == Some(&c) {
                            j += 2;
                        } else {
                            break;
                        }
                    } else {
                        j += 1;
                    }
                }
                push(&mut out, "?", &mut blank);
                i = (j + 1).min(b.len());
            }
            b'0'..=b'9' => {
                let mut j = i;
                while j < b.len() && (b[j].is_ascii_alphanumeric() || b[j] == b'.' || b[j] == b'_')
                {
                    j += 1;
                }
                push(&mut out, "?", &mut blank);
                i = j;
            }
            b'`' => {
                let j = sql[i + 1..].find('`').map_or(b.len(), |e| i + 1 + e + 1);
                push(&mut out, &sql[i..j], &mut blank);
                i = j;
            }
            c if c.is_ascii_alphabetic() || c == b'_' || c == b'@' || c == b'$' || c >= 0x80 => {
                let mut j = i;
                while j < b.len()
                    && (b[j].is_ascii_alphanumeric()
                        || b[j] == b'_'
                        || b[j] == b'$'
                        || b[j] == b'@'
                        || b[j] >= 0x80)
                {
                    j += 1;
                }
                push(&mut out, &sql[i..j], &mut blank);
                i = j;
            }
            _ => {
                // Punctuation and operators, one character each (no blank
                // before a comma or a closing parenthesis).
                if c == b',' || c == b')' {
                    blank = false;
                }
                let len = sql[i..].chars().next().map_or(1, char::len_utf8);
                push(&mut out, &sql[i..i + len], &mut blank);
                if c == b'(' {
                    blank = false;
                }
                i += len;
            }
        }
    }
    collapse_lists(out)
}

/// `(?, ?, ?)` and `(?,?)` → `(...)`: IN lists and multi-row VALUES of any
/// length are one statement. Text without a list is returned as it is (no
/// copy: most statements have none, and this runs per text statement).
fn collapse_lists(s: String) -> String {
    if !s.contains("(?") {
        return s;
    }
    let mut out = String::with_capacity(s.len());
    let mut rest = s.as_str();
    while let Some(open) = rest.find('(') {
        out.push_str(&rest[..open]);
        let tail = &rest[open + 1..];
        let close = tail.find(')');
        let inner = close.map(|c| &tail[..c]);
        match inner {
            Some(inner) if inner.contains(',') && inner.split(',').all(|p| p.trim() == "?") => {
                out.push_str("(...)");
                rest = &tail[close.expect("found") + 1..];
            }
            _ => {
                out.push('(');
                rest = tail;
            }
        }
    }
    out.push_str(rest);
    // Multi-row VALUES: (...), (...), ... → (...)
    while out.contains("(...), (...)") {
        out = out.replace("(...), (...)", "(...)");
    }
    while out.contains("(...),(...)") {
        out = out.replace("(...),(...)", "(...)");
    }
    out
}

/// The digest key of `text` in `schema`: 64-bit FNV-1a.
pub(crate) fn key(schema: Option<&str>, text: &str) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for byte in schema
        .unwrap_or("")
        .bytes()
        .chain([0u8])
        .chain(text.bytes())
    {
        h ^= byte as u64;
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn literals_become_placeholders() {
        let cases = [
            (
                "SELECT c FROM sbtest1 WHERE id=7",
                "SELECT c FROM sbtest1 WHERE id=?",
            ),
            (
                "select  c from t where id = 12 and name = 'x''y' -- note\n",
                "select c from t where id = ? and name = ?",
            ),
            (
                "SELECT /*+ PARALLEL(2) */ SUM(k) FROM t WHERE k BETWEEN 1 AND 1.5e3",
                "SELECT SUM(k) FROM t WHERE k BETWEEN ? AND ?",
            ),
            (
                "SELECT * FROM t WHERE id IN (1, 2, 3)",
                "SELECT * FROM t WHERE id IN (...)",
            ),
            (
                "INSERT INTO t VALUES (1,'a'),(2,'b'),(3, 'c')",
                "INSERT INTO t VALUES (...)",
            ),
            (
                "SELECT f(x) FROM `t 1` WHERE y = ?",
                "SELECT f(x) FROM `t 1` WHERE y = ?",
            ),
            ("SELECT c2 FROM t1", "SELECT c2 FROM t1"),
        ];
        for (sql, want) in cases {
            assert_eq!(normalize(sql), want, "{sql}");
        }
        assert_eq!(
            key(Some("db"), &normalize("SELECT 1")),
            key(Some("db"), &normalize("SELECT  2"))
        );
        assert_ne!(key(Some("a"), "SELECT ?"), key(Some("b"), "SELECT ?"));
    }
}
