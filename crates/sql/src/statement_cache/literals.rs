//! A text statement's literals lifted out as parameters: `UPDATE t SET a =
//! 5 WHERE id = 'x'` becomes the text `UPDATE t SET a = ? WHERE id = ?` and
//! the values `[5, 'x']`, so that statements differing only in their values
//! share one parsed (and, for a SELECT, planned) statement.
//!
//! The lift is conservative: a literal whose value may change the statement's
//! shape or its result columns keeps its text (and so becomes part of the
//! key) — those of a select list (its column types and names), of ORDER BY
//! and GROUP BY (ordinals), LIMIT and OFFSET, function arguments (a type's
//! length, ROUND's decimals), and the one after INTERVAL, COLLATE, ESCAPE
//! or a JSON arrow. Anything the scan does not read with certainty (an
//! escape in a string, an introducer, a double-quoted string, a user
//! variable, an executable comment, several statements) gives no lift: the
//! statement is parsed as written.

use lineardb_table::Value;
use sqlparser::ast;

/// The longest text, and the most values, lifted: a longer statement (a
/// dump's INSERT) is dominated by its own execution.
const MAX_TEXT: usize = 4 << 10;
const MAX_VALUES: usize = 128;

/// A statement's text with its lifted literals as `?`, and their values.
#[derive(Debug, Default)]
pub(crate) struct Lifted {
    /// The text with `?` for each lifted literal, then `\0` and one mark per
    /// value for its kind (a string and a number in one place are two
    /// statements).
    pub key: String,
    /// Where the text ends in `key` (before the kind marks).
    pub text_len: usize,
    /// The literals, in the text's order, as the parser reads them.
    pub values: Vec<ast::Value>,
}

impl Lifted {
    /// The statement text with `?` for the lifted literals.
    pub fn text(&self) -> &str {
        &self.key[..self.text_len]
    }
}

/// The parenthesis level a literal is in, and what keeps its literals.
#[derive(Clone, Copy, Default)]
struct Level {
    /// Between SELECT and its FROM.
    select_list: bool,
    /// After ORDER BY, GROUP BY, LIMIT or OFFSET (to the level's end).
    kept_to_end: bool,
    /// A function's arguments (and everything inside them).
    function: bool,
}

/// Words before `(` that do not call a function.
const NOT_CALLS: &[&str] = &[
    "ALL", "AND", "ANY", "AS", "BETWEEN", "BY", "DISTINCT", "ELSE", "EXISTS", "FROM", "HAVING",
    "IN", "INTO", "IS", "JOIN", "LIKE", "NOT", "ON", "OR", "REGEXP", "RLIKE", "SELECT", "SET",
    "SOME", "THEN", "UNION", "USING", "VALUE", "VALUES", "WHEN", "WHERE", "XOR",
];

/// The lift of `sql`; `None` where the statement is to be parsed as written.
pub(crate) fn lift(sql: &str) -> Option<Lifted> {
    let b = sql.as_bytes();
    if b.len() > MAX_TEXT {
        return None;
    }
    let first = first_word(sql)?;
    if !["SELECT", "INSERT", "UPDATE", "DELETE", "REPLACE"]
        .iter()
        .any(|w| first.eq_ignore_ascii_case(w))
    {
        return None;
    }
    let mut out = Lifted {
        key: String::with_capacity(sql.len() + 16),
        ..Lifted::default()
    };
    let mut kinds = String::new();
    let mut levels = vec![Level::default()];
    // The last word read (upper-cased on demand), whether the last token
    // was a word, a string literal, or a mark that keeps the next literal.
    let mut last_word: &str = "";
    let mut after_word = false;
    let mut after_string = false;
    let mut keep_next = false;
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        match c {
            b' ' | b'\t' | b'\n' | b'\r' => {
                out.key.push(c as char);
                i += 1;
                continue;
            }
            b'/' if b.get(i + 1) == Some(&b'*') => {
                if matches!(b.get(i + 2), Some(b'!' | b'M')) {
                    return None;
                }
                let end = i + 2 + sql[i + 2..].find("*/")? + 2;
                out.key.push_str(&sql[i..end]);
                i = end;
                continue;
            }
            b'-' if b.get(i + 1) == Some(&b'-')
                && b.get(i + 2).is_none_or(|c| c.is_ascii_whitespace()) =>
            {
                let end = sql[i..].find('\n').map_or(b.len(), |e| i + e + 1);
                out.key.push_str(&sql[i..end]);
                i = end;
                continue;
            }
            b'#' => {
                let end = sql[i..].find('\n').map_or(b.len(), |e| i + e + 1);
                out.key.push_str(&sql[i..end]);
                i = end;
                continue;
            }
            b'\'' => {
                // An introducer or a prefix (`_utf8'…'`, `X'…'`, `N'…'`),
                // or a string continuing another: read by the parser.
                if after_string || (i > 0 && is_word_byte(b[i - 1])) {
                    return None;
                }
                let mut j = i + 1;
                let mut doubled = false;
                loop {
                    match b.get(j)? {
                        b'\\' => return None,
                        b'\'' if b.get(j + 1) == Some(&b'\'') => {
                            doubled = true;
                            j += 2;
                        }
                        b'\'' => break,
                        _ => j += 1,
                    }
                }
                let level = levels.last().copied().unwrap_or_default();
                if keep_next || level.keeps() {
                    out.key.push_str(&sql[i..=j]);
                } else {
                    let content = &sql[i + 1..j];
                    let content = if doubled {
                        content.replace("''", "'")
                    } else {
                        content.to_string()
                    };
                    out.key.push('?');
                    out.values.push(ast::Value::SingleQuotedString(content));
                    kinds.push('s');
                }
                i = j + 1;
                keep_next = false;
                after_word = false;
                after_string = true;
                continue;
            }
            // A number; `.5` too, but `t.1a` is a qualified name.
            c if c.is_ascii_digit()
                || (c == b'.' && b.get(i + 1).is_some_and(u8::is_ascii_digit)) =>
            {
                if c == b'.' && after_word {
                    return None;
                }
                let j = number_end(b, i)?;
                let level = levels.last().copied().unwrap_or_default();
                if keep_next || level.keeps() {
                    out.key.push_str(&sql[i..j]);
                } else {
                    kinds.push(number_kind(&sql[i..j])?);
                    out.key.push('?');
                    out.values
                        .push(ast::Value::Number(sql[i..j].to_string(), false));
                }
                i = j;
                keep_next = false;
                after_word = false;
                after_string = false;
                continue;
            }
            b'`' => {
                let mut j = i + 1;
                loop {
                    match b.get(j)? {
                        b'`' if b.get(j + 1) == Some(&b'`') => j += 2,
                        b'`' => break,
                        _ => j += 1,
                    }
                }
                out.key.push_str(&sql[i..=j]);
                i = j + 1;
                last_word = "";
                after_word = true;
                after_string = false;
                continue;
            }
            c if is_word_start(c) => {
                let mut j = i;
                while j < b.len() && is_word_byte(b[j]) {
                    j += 1;
                }
                let word = &sql[i..j];
                out.key.push_str(word);
                let level = levels.last_mut().expect("a level");
                if word.eq_ignore_ascii_case("SELECT") {
                    level.select_list = true;
                } else if word.eq_ignore_ascii_case("FROM") {
                    level.select_list = false;
                } else if word.eq_ignore_ascii_case("LIMIT")
                    || word.eq_ignore_ascii_case("OFFSET")
                    || word.eq_ignore_ascii_case("RETURNING")
                    || (word.eq_ignore_ascii_case("BY")
                        && (last_word.eq_ignore_ascii_case("ORDER")
                            || last_word.eq_ignore_ascii_case("GROUP")))
                {
                    level.kept_to_end = true;
                } else if ["INTERVAL", "COLLATE", "ESCAPE", "DATE", "TIME", "TIMESTAMP"]
                    .iter()
                    .any(|w| word.eq_ignore_ascii_case(w))
                {
                    keep_next = true;
                }
                last_word = word;
                i = j;
                after_word = true;
                after_string = false;
                continue;
            }
            b'(' => {
                let mut level = levels.last().copied().unwrap_or_default();
                level.kept_to_end = level.keeps();
                level.select_list = false;
                level.function = level.function
                    || (after_word
                        && !last_word.is_empty()
                        && !NOT_CALLS.iter().any(|w| last_word.eq_ignore_ascii_case(w)));
                levels.push(level);
                out.key.push('(');
            }
            b')' => {
                if levels.len() < 2 {
                    return None;
                }
                levels.pop();
                out.key.push(')');
            }
            b'-' if b.get(i + 1) == Some(&b'>') => {
                // `col->'$.a'` and `->>`: the path is a literal.
                let n = if b.get(i + 2) == Some(&b'>') { 3 } else { 2 };
                out.key.push_str(&sql[i..i + n]);
                i += n;
                keep_next = true;
                after_word = false;
                after_string = false;
                continue;
            }
            // A user variable or assignment, a placeholder, a double-quoted
            // string (an identifier under ANSI_QUOTES), an escape, or a
            // second statement: read by the parser.
            b'@' | b'?' | b'"' | b'\\' | b';' => return None,
            b':' if b.get(i + 1) == Some(&b'=') => return None,
            c if c >= 0x80 => return None,
            _ => out.key.push(c as char),
        }
        i += 1;
        after_word = false;
        after_string = false;
    }
    if levels.len() != 1 || out.values.len() > MAX_VALUES {
        return None;
    }
    out.text_len = out.key.len();
    out.key.push('\0');
    out.key.push_str(&kinds);
    Some(out)
}

impl Level {
    /// Whether a literal here keeps its text.
    fn keeps(&self) -> bool {
        self.select_list || self.kept_to_end || self.function
    }
}

/// The kind mark of a number literal, by the value the parser's text
/// makes.
fn number_kind(text: &str) -> Option<char> {
    let value = crate::expr::literal(&ast::Value::Number(text.to_string(), false)).ok()?;
    Some(match value {
        Value::Int(_) => 'i',
        Value::UInt(_) => 'u',
        Value::Decimal(_) => 'd',
        Value::Double(_) => 'f',
        _ => return None,
    })
}

fn first_word(sql: &str) -> Option<&str> {
    let s = sql.trim_start_matches(|c: char| c.is_ascii_whitespace() || c == '(');
    let end = s
        .bytes()
        .position(|c| !c.is_ascii_alphabetic())
        .unwrap_or(s.len());
    (end > 0).then(|| &s[..end])
}

fn is_word_start(c: u8) -> bool {
    c.is_ascii_alphabetic() || c == b'_' || c == b'$'
}

fn is_word_byte(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_' || c == b'$'
}

/// The end of the number starting at `i` (`12`, `1.5`, `.5`, `1e-3`);
/// `None` where a word character follows (`0x1f`, `1abc`: read by the
/// parser).
fn number_end(b: &[u8], i: usize) -> Option<usize> {
    let digits = |mut j: usize| {
        while j < b.len() && b[j].is_ascii_digit() {
            j += 1;
        }
        j
    };
    let mut j = digits(i);
    if b.get(j) == Some(&b'.') {
        j = digits(j + 1);
    }
    if matches!(b.get(j), Some(b'e' | b'E')) {
        let mut k = j + 1;
        if matches!(b.get(k), Some(b'+' | b'-')) {
            k += 1;
        }
        if !b.get(k).is_some_and(u8::is_ascii_digit) {
            return None;
        }
        j = digits(k);
    }
    if b.get(j)
        .is_some_and(|&c| is_word_byte(c) || c == b'.' || c >= 0x80)
    {
        return None;
    }
    Some(j)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lifted(sql: &str) -> Option<(String, Vec<ast::Value>)> {
        lift(sql).map(|l| (l.text().to_string(), l.values))
    }

    fn number(s: &str) -> ast::Value {
        ast::Value::Number(s.into(), false)
    }

    fn string(s: &str) -> ast::Value {
        ast::Value::SingleQuotedString(s.into())
    }

    #[test]
    fn values_in_conditions_and_rows_are_lifted() {
        let (text, values) = lifted(
            "UPDATE stock1 SET s_quantity = 45, s_ytd = s_ytd + 5 WHERE s_i_id = 1234 AND s_w_id= 1",
        )
        .unwrap();
        assert_eq!(
            text,
            "UPDATE stock1 SET s_quantity = ?, s_ytd = s_ytd + ? WHERE s_i_id = ? AND s_w_id= ?"
        );
        assert_eq!(
            values,
            vec![number("45"), number("5"), number("1234"), number("1")]
        );
        let (text, values) =
            lifted("INSERT INTO t (a, b, c) VALUES (1.50, 'it''s', 1e3), (-2, '', .5)").unwrap();
        assert_eq!(text, "INSERT INTO t (a, b, c) VALUES (?, ?, ?), (-?, ?, ?)");
        assert_eq!(values[0], number("1.50"));
        assert_eq!(values[1], string("it's"));
        assert_eq!(values[2], number("1e3"));
        assert_eq!(values[4], string(""));
        assert_eq!(values[5], number(".5"));
        let (text, _) = lifted("SELECT c FROM t WHERE id IN (1, 2) FOR UPDATE").unwrap();
        assert_eq!(text, "SELECT c FROM t WHERE id IN (?, ?) FOR UPDATE");
        let (text, _) = lifted("DELETE FROM t WHERE a = 1 AND b = 'x'").unwrap();
        assert_eq!(text, "DELETE FROM t WHERE a = ? AND b = ?");
    }

    #[test]
    fn literals_that_shape_the_statement_keep_their_text() {
        let cases = [
            // Result columns.
            "SELECT 1, 'a' AS x FROM t WHERE b = ?",
            "SELECT (1), (a+1), e IN (1, 2) FROM t WHERE b = ?",
            "INSERT INTO t (v) VALUES (?) RETURNING id, n*2, CONCAT(v, 'x')",
            // Ordinals, limits.
            "SELECT a FROM t WHERE b = ? ORDER BY 1 LIMIT 5",
            "SELECT a FROM t WHERE b = ? GROUP BY 1, 2 LIMIT 5 OFFSET 10",
            // Function arguments.
            "SELECT a FROM t WHERE ROUND(b, 2) = ? AND CAST(c AS CHAR(10)) = ?",
            "SELECT a FROM t WHERE d > NOW() - INTERVAL 5 DAY AND b = ?",
            "SELECT a FROM t WHERE j->'$.a' = ? AND b LIKE ? ESCAPE '!'",
            "SELECT a FROM t WHERE b = (SELECT 7 FROM u WHERE c = ?)",
        ];
        for sql in cases {
            let with_values = sql.replacen('?', "3", 2);
            let (text, values) = lifted(&with_values).expect(sql);
            assert_eq!(text, sql, "{with_values}");
            assert_eq!(values.len(), sql.matches('?').count(), "{sql}");
        }
    }

    #[test]
    fn what_the_scan_cannot_be_sure_of_is_not_lifted() {
        for sql in [
            "SELECT a FROM t WHERE b = 'x\\'y'",
            "SELECT a FROM t WHERE b = _utf8mb4'x'",
            "SELECT a FROM t WHERE b = X'41'",
            "SELECT a FROM t WHERE b = 'x' 'y'",
            "SELECT a FROM t WHERE b = \"x\"",
            "SELECT a FROM t WHERE b = @v",
            "SELECT a FROM t WHERE b = 0x41",
            "SELECT a FROM t WHERE b = 1; SELECT 2",
            "SELECT /*!50000 1 */ FROM t",
            "SELECT a FROM t WHERE b = 'unterminated",
            "SELECT a FROM t WHERE (b = 1",
            "CREATE TABLE t (a INT DEFAULT 5)",
            "SET @a = 1",
        ] {
            assert!(lift(sql).is_none(), "{sql}");
        }
    }

    #[test]
    fn a_string_and_a_number_in_one_place_are_two_keys() {
        let a = lift("SELECT a FROM t WHERE b = 5").unwrap();
        let b = lift("SELECT a FROM t WHERE b = '5'").unwrap();
        assert_eq!(a.text(), b.text());
        assert_ne!(a.key, b.key);
        let c = lift("SELECT a FROM t WHERE b = 6").unwrap();
        assert_eq!(a.key, c.key);
    }
}
