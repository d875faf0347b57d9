//! `SELECT … INTO OUTFILE 'file' [CHARACTER SET cs] [FIELDS …] [LINES …]`
//! and `SELECT … INTO DUMPFILE 'file'`, in either place MariaDB takes them
//! (after the select list or at the query's end): the clause is taken out
//! of the text and the rest read as the query whose rows go to the file.
use super::file_clauses::{read_character_set, read_format, FileFormat, Tokens};
use crate::error::{Result, SqlError};
use sqlparser::tokenizer::{Token, Tokenizer};

/// Where a query's rows go.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct SelectExport {
    /// The query without its INTO clause.
    pub query: String,
    pub file: String,
    /// DUMPFILE: one row's values as they are, nothing between them.
    pub dump: bool,
    pub character_set: Option<String>,
    pub format: FileFormat,
}

/// Whether `sql` (a statement beginning with `first`) may have an INTO
/// OUTFILE or DUMPFILE clause: the cheap test before it is read.
pub(crate) fn looks_like_select_export(first: &str, sql: &str) -> bool {
    let query = ["SELECT", "WITH", "VALUES", "TABLE"]
        .iter()
        .any(|w| first.eq_ignore_ascii_case(w));
    query && {
        let upper = |w: &[u8]| w.iter().map(u8::to_ascii_uppercase).collect::<Vec<_>>();
        let b = sql.as_bytes();
        b.windows(7).any(|w| upper(w) == b"OUTFILE")
            || b.windows(8).any(|w| upper(w) == b"DUMPFILE")
    }
}

/// Reads a query with an INTO OUTFILE or DUMPFILE clause; `None` when it
/// has none at its top level.
pub(crate) fn parse_select_export(sql: &str) -> Option<Result<SelectExport>> {
    let tokens = Tokenizer::new(&crate::parser::dialect::MariaDb, sql)
        .tokenize()
        .ok()?;
    let solid: Vec<usize> = (0..tokens.len())
        .filter(|&i| !matches!(tokens[i], Token::Whitespace(_)))
        .collect();
    let mut r = Tokens::solid(&tokens);
    let mut depth = 0usize;
    let start = (0..r.tokens.len()).find(|&k| {
        match &r.tokens[k] {
            Token::LParen => depth += 1,
            Token::RParen => depth = depth.saturating_sub(1),
            _ => {}
        }
        let word = |k: usize, w: &str| {
            matches!(r.tokens.get(k), Some(Token::Word(x))
                if x.quote_style.is_none() && x.value.eq_ignore_ascii_case(w))
        };
        word(k, "INTO") && (word(k + 1, "OUTFILE") || word(k + 1, "DUMPFILE"))
    })?;
    if depth > 0 {
        // Within a subquery: MariaDB's syntax error there.
        let near: String = tokens[solid[start]..]
            .iter()
            .map(|t| t.to_string())
            .collect();
        return Some(Err(SqlError::syntax_near(near.trim_end_matches(';'))));
    }
    r.at = start + 1;
    let dump = r.word("DUMPFILE");
    if !dump {
        r.word("OUTFILE");
    }
    let read = (|| -> Result<(String, Option<String>, FileFormat)> {
        let file = r.string()?;
        if dump {
            return Ok((file, None, FileFormat::default()));
        }
        let character_set = read_character_set(&mut r)?;
        Ok((file, character_set, read_format(&mut r)?))
    })();
    let (file, character_set, format) = match read {
        Ok(clause) => clause,
        Err(e) => return Some(Err(e)),
    };
    // The clause's tokens, white space between them included.
    let (from, to) = (solid[start], solid[r.at - 1]);
    let query: String = tokens
        .iter()
        .enumerate()
        .filter(|(i, _)| *i < from || *i > to)
        .map(|(_, t)| t.to_string())
        .collect();
    if query.trim().is_empty() {
        return Some(Err(SqlError::syntax_near(sql)));
    }
    Some(Ok(SelectExport {
        query,
        file,
        dump,
        character_set,
        format,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn export(sql: &str) -> SelectExport {
        parse_select_export(sql).expect("an export").expect("read")
    }

    #[test]
    fn reads_the_clause_in_both_places() {
        let e = export("SELECT a, b INTO OUTFILE '/tmp/x' FROM t WHERE a > 1");
        assert_eq!(e.query, "SELECT a, b  FROM t WHERE a > 1");
        assert_eq!(e.file, "/tmp/x");
        assert!(!e.dump);
        assert_eq!(e.format, FileFormat::default());
        let e = export(
            "select * from t order by a limit 2 into outfile 'y.csv' character set binary \
             fields terminated by ',' optionally enclosed by '\"' lines terminated by '\\r\\n' \
             for update",
        );
        assert_eq!(e.query, "select * from t order by a limit 2  for update");
        assert_eq!(e.character_set.as_deref(), Some("binary"));
        assert_eq!(e.format.fields_terminated, b",");
        assert_eq!((e.format.enclosed, e.format.optionally), (Some(b'"'), true));
        assert_eq!(e.format.lines_terminated, b"\r\n");
        let e = export("SELECT b INTO DUMPFILE '/tmp/b' FROM t WHERE id = 1");
        assert!(e.dump);
        assert_eq!(e.query, "SELECT b  FROM t WHERE id = 1");
    }

    #[test]
    fn only_the_top_level_clause_counts() {
        assert!(parse_select_export("SELECT (SELECT 1) FROM outfile").is_none());
        assert!(parse_select_export("SELECT 'INTO OUTFILE'").is_none());
        // In a subquery: a syntax error there.
        let e = parse_select_export("SELECT (SELECT 1 INTO OUTFILE 'x')")
            .unwrap()
            .unwrap_err();
        assert!(
            e.message.ends_with("near 'INTO OUTFILE 'x')' at line 1"),
            "{}",
            e.message
        );
        assert!(parse_select_export("SELECT 1 INTO OUTFILE x")
            .unwrap()
            .is_err());
        assert!(
            parse_select_export("SELECT 1 INTO OUTFILE 'x' FIELDS ESCAPED BY 'ab'")
                .unwrap()
                .is_err()
        );
        assert!(looks_like_select_export(
            "select",
            "select 1 into Outfile 'f'"
        ));
        assert!(!looks_like_select_export(
            "insert",
            "insert into outfile values (1)"
        ));
    }
}
