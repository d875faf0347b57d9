//! Statement digests: a statement's text with its literals replaced by `?`
//! (lists of them by `...`), comments dropped and blanks collapsed, so that
//! `SELECT c FROM t WHERE id = 7` and `... id = 12` count as one statement,
//! as in MySQL's `events_statements_summary_by_digest`.
//!
//! One tokenizer feeds a layer that collapses lists, which writes into a
//! sink: a `String` for the digest text, or a hasher for the digest key.
//! `key_of(schema, sql)` therefore equals `key(schema, &normalize(sql))`
//! without making the text: a text statement computes only its key, and the
//! text is made once, the first time a session sees that key.

/// The digest text of `sql`.
pub(crate) fn normalize(sql: &str) -> String {
    let mut out = String::with_capacity(sql.len());
    tokens(sql, &mut Lists::new(&mut out));
    out
}

/// The digest key of `text` (a digest text) in `schema`.
pub(crate) fn key(schema: Option<&str>, text: &str) -> u64 {
    let mut h = KeyHasher::new(schema);
    h.put(text);
    h.finish()
}

/// The digest key of the statement `sql` in `schema`: `key(schema,
/// &normalize(sql))`, computed without making the text.
pub(crate) fn key_of(schema: Option<&str>, sql: &str) -> u64 {
    let mut h = KeyHasher::new(schema);
    tokens(sql, &mut Lists::new(&mut h));
    h.finish()
}

/// Where digest text goes.
trait Sink {
    fn put(&mut self, s: &str);
}

impl Sink for String {
    fn put(&mut self, s: &str) {
        self.push_str(s);
    }
}

/// A 64-bit hash of the bytes put into it, whatever pieces they come in:
/// bytes are gathered 8 at a time and mixed by one multiply per word.
struct KeyHasher {
    h: u64,
    word: u64,
    filled: u32,
}

impl KeyHasher {
    fn new(schema: Option<&str>) -> KeyHasher {
        let mut h = KeyHasher {
            h: 0x243f_6a88_85a3_08d3,
            word: 0,
            filled: 0,
        };
        h.put(schema.unwrap_or(""));
        h.put("\0");
        h
    }

    #[inline]
    fn mix(&mut self) {
        self.h = (self.h ^ self.word)
            .wrapping_mul(0x9e37_79b9_7f4a_7c15)
            .rotate_left(29);
        self.word = 0;
        self.filled = 0;
    }

    fn finish(mut self) -> u64 {
        // The byte count tells "ab" from "ab\0".
        self.word |= (self.filled as u64) << 59;
        self.mix();
        let mut h = self.h;
        h ^= h >> 33;
        h = h.wrapping_mul(0xff51_afd7_ed55_8ccd);
        h ^= h >> 33;
        h
    }
}

impl Sink for KeyHasher {
    #[inline]
    fn put(&mut self, s: &str) {
        for &b in s.as_bytes() {
            self.word |= (b as u64) << (8 * self.filled);
            self.filled += 1;
            if self.filled == 8 {
                self.mix();
            }
        }
    }
}

/// Collapses lists on their way to the sink: `(?, ?, ?)` and `(?,?)`
/// become `(...)` (IN lists and VALUES rows of any length are one
/// statement), and `(...), (...)` becomes `(...)` (multi-row VALUES).
/// Tokens that may still turn out to be a list are held back until that is
/// known.
struct Lists<'s, 't, S: Sink> {
    sink: &'s mut S,
    /// Tokens held back (a `(` and what followed it), each with whether a
    /// blank goes before it.
    held: Vec<(bool, &'t str)>,
    /// Inside a held `(`: whether the tokens so far are `?` and `,` in turn.
    list_ok: bool,
    commas: usize,
    expect_placeholder: bool,
    /// The last thing written was a collapsed list, and a `,` after it is
    /// held (as `held[0]`) in case a list follows.
    after_list: bool,
    /// Something was written (no blank before the first token).
    started: bool,
}

impl<'s, 't, S: Sink> Lists<'s, 't, S> {
    fn new(sink: &'s mut S) -> Self {
        Lists {
            sink,
            held: Vec::new(),
            list_ok: false,
            commas: 0,
            expect_placeholder: false,
            after_list: false,
            started: false,
        }
    }

    fn write(&mut self, blank: bool, token: &str) {
        if blank && self.started {
            self.sink.put(" ");
        }
        self.started = true;
        self.sink.put(token);
    }

    /// Writes every held token (and at the end of the statement).
    fn flush(&mut self) {
        for i in 0..self.held.len() {
            let (blank, t) = self.held[i];
            self.write(blank, t);
        }
        self.held.clear();
        self.list_ok = false;
    }

    fn token(&mut self, blank: bool, token: &'t str) {
        if self.list_ok {
            let fits = match token {
                "?" if self.expect_placeholder => {
                    self.expect_placeholder = false;
                    true
                }
                "," if !self.expect_placeholder => {
                    self.commas += 1;
                    self.expect_placeholder = true;
                    true
                }
                _ => false,
            };
            if fits {
                self.held.push((blank, token));
                return;
            }
            if token == ")" && !self.expect_placeholder && self.commas > 0 {
                // A list. After another list with only `,` between (held
                // before the `(`): dropped.
                let open = usize::from(self.held[0].1 == ",");
                let merged = self.after_list && open == 1;
                let open_blank = self.held[open].0;
                self.held.clear();
                self.list_ok = false;
                if !merged {
                    self.write(open_blank, "(...)");
                }
                self.after_list = true;
                return;
            }
            self.flush();
            self.after_list = false;
        } else if self.after_list && !self.held.is_empty() {
            // A `,` held after a list: a list must start now.
            if token != "(" {
                self.flush();
                self.after_list = false;
            }
        }
        match token {
            "(" => {
                self.held.push((blank, token));
                self.list_ok = true;
                self.commas = 0;
                self.expect_placeholder = true;
            }
            "," if self.after_list && !blank => self.held.push((blank, token)),
            _ => {
                self.after_list = false;
                self.write(blank, token);
            }
        }
    }
}

/// Splits `sql` into digest tokens (literals as `?`, comments dropped) and
/// passes each to `out` with whether a blank goes before it.
fn tokens<'t, S: Sink>(sql: &'t str, out: &mut Lists<'_, 't, S>) {
    let b = sql.as_bytes();
    let mut i = 0;
    // A blank is written only between two tokens.
    let mut blank = false;
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
                out.token(blank, "?");
                blank = false;
                i = (j + 1).min(b.len());
            }
            b'0'..=b'9' => {
                let mut j = i;
                while j < b.len() && (b[j].is_ascii_alphanumeric() || b[j] == b'.' || b[j] == b'_')
                {
                    j += 1;
                }
                out.token(blank, "?");
                blank = false;
                i = j;
            }
            b'`' => {
                let j = sql[i + 1..].find('`').map_or(b.len(), |e| i + 1 + e + 1);
                out.token(blank, &sql[i..j]);
                blank = false;
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
                out.token(blank, &sql[i..j]);
                blank = false;
                i = j;
            }
            _ => {
                // Punctuation and operators, one character each (no blank
                // before a comma or a closing parenthesis, none after an
                // opening one).
                if c == b',' || c == b')' {
                    blank = false;
                }
                let len = sql[i..].chars().next().map_or(1, char::len_utf8);
                out.token(blank, &sql[i..i + len]);
                blank = false;
                i += len;
            }
        }
    }
    out.flush();
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

    /// The key made without the text is the key of the text.
    #[test]
    fn key_of_a_statement_is_the_key_of_its_text() {
        let statements = [
            "SELECT c FROM sbtest1 WHERE id=7",
            "SELECT c FROM sbtest1 WHERE id BETWEEN 10 AND 19",
            "SELECT SUM(k) FROM sbtest1 FORCE INDEX (k_1) WHERE k BETWEEN 5 AND 1004",
            "SELECT * FROM t WHERE id IN (1, 2, 3) AND x IN (4,5) OR y IN (6)",
            "INSERT INTO t VALUES (1,'a'),(2,'b'),(3, 'c')",
            "INSERT INTO t VALUES (1, 2), (3, 4), (5, 6)",
            "INSERT INTO t (a, b) VALUES (?, ?)",
            "SELECT f((1, 2)), g(?, (3)) , h( ) FROM t",
            "SELECT (1,2),x,(3,4) FROM t",
            "UPDATE t SET c = 'it''s' -- trailing\n WHERE id = ?",
            "SELECT /* c */ 1 # more\n , `a b` FROM `t` WHERE é = 'ü'",
            "CALL p(1, (2, 3), 4)",
            "SELECT ((1, 2), (3, 4))",
            "(1,2),",
            "",
            "   ",
            "SELECT 1, (",
        ];
        for sql in statements {
            for schema in [None, Some("db")] {
                assert_eq!(
                    key_of(schema, sql),
                    key(schema, &normalize(sql)),
                    "{sql:?} -> {:?}",
                    normalize(sql)
                );
            }
        }
        assert_eq!(
            normalize("SELECT (1,2),x,(3,4) FROM t"),
            "SELECT (...),x,(...) FROM t"
        );
        assert_eq!(normalize("SELECT ((1, 2), (3, 4))"), "SELECT ((...))");
        assert_eq!(
            normalize("SELECT f((1, 2)), g(?, (3))"),
            "SELECT f((...)), g(?, (?))"
        );
        assert_ne!(key(None, "ab"), key(None, "ab\0"));
    }
}
