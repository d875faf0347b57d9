//! ALTER TABLE's comma-separated items where MariaDB lets table options
//! (COMMENT, ENGINE, [DEFAULT] CHARACTER SET, COLLATE, ROW_FORMAT…) and
//! CONVERT TO CHARACTER SET stand among column and index changes, which
//! the SQL parser does not read: the items are split at the top level and
//! sorted into the changes (left to the SQL parser, as an ALTER TABLE of
//! their own), the options (read as CREATE TABLE's) and the conversion.
use super::tokens::{lex, Reader, Token};
use crate::error::{Result, SqlError};

/// The table options about the physical storage of an InnoDB or Aria
/// table (no counterpart here, no effect on results: kept, to be shown).
pub(crate) const STORAGE_OPTIONS: &[&str] = &[
    "ROW_FORMAT",
    "STATS_PERSISTENT",
    "STATS_AUTO_RECALC",
    "STATS_SAMPLE_PAGES",
    "PACK_KEYS",
    "CHECKSUM",
    "PAGE_CHECKSUM",
    "DELAY_KEY_WRITE",
    "TRANSACTIONAL",
];

/// `CONVERT TO CHARACTER SET charset [COLLATE collation]`, as named
/// (`DEFAULT`: the database's).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct ConvertTo {
    pub charset: String,
    pub collation: Option<String>,
}

/// An ALTER TABLE the SQL parser cannot read whole.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct MixedAlter {
    pub table: Vec<String>,
    /// `ALTER TABLE name change, …` of the column and index changes, if
    /// there are any.
    pub changes: Option<String>,
    /// The table options as CREATE TABLE reads them (may be empty).
    pub options: String,
    pub convert: Option<ConvertTo>,
}

/// How an `ALTER TABLE table …` is read: `None` when its items are all
/// changes the SQL parser reads.
pub(crate) fn read_alter(sql: &str, table: Vec<String>) -> Option<Result<MixedAlter>> {
    let head = table_name_end(sql)?;
    let mut changes: Vec<&str> = Vec::new();
    let mut options: Vec<Token> = Vec::new();
    let mut convert = None;
    for item in top_level_items(&sql[head..])? {
        let tokens = lex(item)?;
        match tokens.first() {
            Some(Token::Word(w)) if w.eq_ignore_ascii_case("CONVERT") => {
                match read_convert(tokens) {
                    Ok(c) => convert = Some(c),
                    Err(near) => return Some(Err(SqlError::syntax_near(&near))),
                }
            }
            Some(Token::Word(w)) if opens_table_options(w, tokens.get(1)) => options.extend(tokens),
            _ => changes.push(item.trim()),
        }
    }
    if options.is_empty() && convert.is_none() {
        return None;
    }
    let changes =
        (!changes.is_empty()).then(|| format!("{} {}", sql[..head].trim_end(), changes.join(", ")));
    Some(Ok(MixedAlter {
        table,
        changes,
        options: options_text(&options),
        convert,
    }))
}

/// `CONVERT TO {CHARACTER SET | CHARSET} name [COLLATE [=] name]`; else
/// the text from where it goes wrong.
fn read_convert(tokens: Vec<Token>) -> std::result::Result<ConvertTo, String> {
    let mut r = Reader { tokens, at: 0 };
    let read = (|| {
        r.keyword("CONVERT");
        if !r.keyword("TO") || !(r.keywords(&["CHARACTER", "SET"]) || r.keyword("CHARSET")) {
            return None;
        }
        r.punct('=');
        let charset = r.name()?;
        let collation = if r.keyword("COLLATE") {
            r.punct('=');
            Some(r.name()?)
        } else {
            None
        };
        r.done().then_some(ConvertTo { charset, collation })
    })();
    read.ok_or_else(|| r.rest_text())
}

/// Where `ALTER TABLE name[.name]` ends in `sql`.
fn table_name_end(sql: &str) -> Option<usize> {
    let b = sql.as_bytes();
    let mut at = 0;
    for word in ["ALTER", "TABLE"] {
        at = skip_space(b, at);
        if !sql.get(at..at + word.len())?.eq_ignore_ascii_case(word) {
            return None;
        }
        at += word.len();
    }
    at = skip_space(b, at);
    // ALTER TABLE IF EXISTS is left to the SQL parser.
    if sql
        .get(at..at + 2)
        .is_some_and(|w| w.eq_ignore_ascii_case("IF"))
        && b.get(at + 2).is_some_and(u8::is_ascii_whitespace)
    {
        return None;
    }
    at = name_end(b, at)?;
    let after = skip_space(b, at);
    if b.get(after) == Some(&b'.') {
        at = name_end(b, skip_space(b, after + 1))?;
    }
    Some(at)
}

fn skip_space(b: &[u8], mut at: usize) -> usize {
    while b.get(at).is_some_and(u8::is_ascii_whitespace) {
        at += 1;
    }
    at
}

/// The end of the name starting at `at`: quoted in backticks (a doubled
/// one stands for itself) or a bare word.
fn name_end(b: &[u8], at: usize) -> Option<usize> {
    if b.get(at) == Some(&b'`') {
        let mut i = at + 1;
        loop {
            match b.get(i)? {
                b'`' if b.get(i + 1) == Some(&b'`') => i += 2,
                b'`' => return Some(i + 1),
                _ => i += 1,
            }
        }
    }
    let end = at
        + b[at..]
            .iter()
            .take_while(|c| c.is_ascii_alphanumeric() || **c == b'_' || **c == b'$' || **c >= 0x80)
            .count();
    (end > at).then_some(end)
}

/// `text` split at its commas outside parentheses, quotes and comments
/// (`None` if a quote or comment is left open).
fn top_level_items(text: &str) -> Option<Vec<&str>> {
    let b = text.as_bytes();
    let mut items = Vec::new();
    let (mut depth, mut start, mut i) = (0usize, 0, 0);
    while i < b.len() {
        match b[i] {
            q @ (b'\'' | b'"' | b'`') => {
                i += 1;
                loop {
                    match *b.get(i)? {
                        b'\\' if q != b'`' => i += 2,
                        c if c == q && b.get(i + 1) == Some(&q) => i += 2,
                        c if c == q => break,
                        _ => i += 1,
                    }
                }
            }
            b'/' if b.get(i + 1) == Some(&b'*') => {
                i += 2 + text[i + 2..].find("*/")? + 1;
            }
            b'#' => i += text[i..].find('\n').unwrap_or(b.len() - i),
            b'-' if b.get(i + 1) == Some(&b'-')
                && b.get(i + 2).is_none_or(u8::is_ascii_whitespace) =>
            {
                i += text[i..].find('\n').unwrap_or(b.len() - i)
            }
            b'(' => depth += 1,
            b')' => depth = depth.saturating_sub(1),
            b',' if depth == 0 => {
                items.push(&text[start..i]);
                start = i + 1;
            }
            _ => {}
        }
        i += 1;
    }
    let last = text[start..].trim_end().trim_end_matches(';');
    items.push(last);
    Some(items)
}

/// Whether an ALTER TABLE item beginning with `word` (then `next`) is a
/// table option. AUTO_INCREMENT is left to the SQL parser, which reads it
/// among column changes; DEFAULT begins one only before CHARACTER SET,
/// CHARSET or COLLATE.
fn opens_table_options(word: &str, next: Option<&Token>) -> bool {
    const FIRST_WORDS: &[&str] = &["COMMENT", "ENGINE", "CHARACTER", "CHARSET", "COLLATE"];
    if word.eq_ignore_ascii_case("DEFAULT") {
        return matches!(next, Some(Token::Word(w))
            if ["CHARACTER", "CHARSET", "COLLATE"].iter().any(|k| k.eq_ignore_ascii_case(w)));
    }
    FIRST_WORDS
        .iter()
        .chain(STORAGE_OPTIONS)
        .any(|w| w.eq_ignore_ascii_case(word))
}

/// Table options' tokens as CREATE TABLE's text (strings quoted again, the
/// commas between options dropped: MariaDB takes them, CREATE TABLE's
/// parser not).
fn options_text(tokens: &[Token]) -> String {
    tokens
        .iter()
        .filter(|t| **t != Token::Punct(','))
        .map(|t| match t {
            Token::Word(w) => w.clone(),
            Token::Quoted(q) => format!("'{}'", q.replace('\\', "\\\\").replace('\'', "''")),
            Token::Punct(p) => p.to_string(),
        })
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(sql: &str) -> Option<MixedAlter> {
        read_alter(sql, vec!["t".into()]).map(|r| r.unwrap())
    }

    #[test]
    fn changes_alone_are_left_to_the_sql_parser() {
        assert_eq!(read("ALTER TABLE t ADD COLUMN c INT, DROP d"), None);
        assert_eq!(read("ALTER TABLE IF EXISTS t ADD c INT, COMMENT 'x'"), None);
        assert_eq!(read("ALTER TABLE t ALTER c SET DEFAULT 'a,b'"), None);
    }

    #[test]
    fn options_and_conversion_are_taken_from_among_changes() {
        let m = read(
            "ALTER TABLE `my``t` ADD COLUMN c ENUM('a,b', 'c') COMMENT 'x, y', \
             COMMENT 'it''s', CONVERT TO CHARSET latin1 COLLATE latin1_bin, \
             MODIFY d DECIMAL(5,2), ENGINE=InnoDB DEFAULT CHARSET=utf8mb4;",
        )
        .unwrap();
        assert_eq!(
            m.changes.as_deref(),
            Some(
                "ALTER TABLE `my``t` ADD COLUMN c ENUM('a,b', 'c') COMMENT 'x, y', \
                 MODIFY d DECIMAL(5,2)"
            )
        );
        assert_eq!(
            m.options,
            "COMMENT 'it''s' ENGINE = InnoDB DEFAULT CHARSET = utf8mb4"
        );
        assert_eq!(
            m.convert,
            Some(ConvertTo {
                charset: "latin1".into(),
                collation: Some("latin1_bin".into())
            })
        );
        let alone = read("ALTER TABLE db.t CONVERT TO CHARACTER SET utf8mb4").unwrap();
        assert_eq!(alone.changes, None);
        assert_eq!(alone.options, "");
    }

    #[test]
    fn a_bad_conversion_is_a_syntax_error() {
        let e = read_alter("ALTER TABLE t CONVERT TO latin1", vec!["t".into()])
            .unwrap()
            .unwrap_err();
        assert_eq!(e.code, 1064);
    }
}
