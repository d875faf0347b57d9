//! Statement text to syntax trees: sqlparser (MySQL dialect) after MySQL's
//! executable comments, and the admin statements it lacks.
pub(crate) mod accounts;
pub(crate) mod admin;
pub(crate) mod alter_items;
pub(crate) mod dialect;
mod file_clauses;
pub(crate) mod load_data;
mod multi_table_update;
pub(crate) mod select_export;
pub(crate) mod select_into;
pub(crate) mod signal;
pub(crate) mod tokens;
pub(crate) mod unsupported;
pub(crate) mod view_ddl;
pub(crate) mod wire_text;

use crate::error::Result;
use sqlparser::ast;

/// MySQL's conditional comments `/*! ... */` hold SQL MySQL runs: keep
/// their text, drop the markers (and a version number after `/*!`).
pub(crate) fn strip_conditional_comments(sql: &str) -> std::borrow::Cow<'_, str> {
    if !sql.contains("/*!") {
        return sql.into();
    }
    let mut out = String::with_capacity(sql.len());
    let mut rest = sql;
    while let Some(i) = rest.find("/*!") {
        out.push_str(&rest[..i]);
        let body = &rest[i + 3..];
        let body = body.trim_start_matches(|c: char| c.is_ascii_digit());
        match body.find("*/") {
            Some(j) => {
                out.push(' ');
                out.push_str(&body[..j]);
                out.push(' ');
                rest = &body[j + 2..];
            }
            None => {
                out.push_str(body);
                rest = "";
            }
        }
    }
    out.push_str(rest);
    out.into()
}

/// A stored view's query.
pub(crate) fn view_query(view: &lineardb_table::ViewDef) -> Result<ast::Query> {
    let mut stmts = crate::parser::dialect::parse_sql(&view.query)?;
    match stmts.pop() {
        Some(ast::Statement::Query(q)) if stmts.is_empty() => Ok(*q),
        _ => Err(crate::error::SqlError::internal(format!(
            "view {}.{} does not hold a query",
            view.database, view.name
        ))),
    }
}

pub(crate) fn parse(sql: &str) -> Result<Vec<ast::Statement>> {
    let sql = strip_conditional_comments(sql);
    let sql = unsupported::without_sql_cache(&sql);
    if let Some(modified) = update_modifiers(&sql) {
        let (rewritten, ignore) = modified?;
        let mut statements = parse_text(&rewritten)?;
        if let [ast::Statement::Update(u)] = statements.as_mut_slice() {
            if ignore {
                u.or = Some(ast::SqliteOnConflict::Ignore);
            }
        }
        return Ok(statements);
    }
    parse_text(&sql)
}

/// [`parse`] of a text whose UPDATE modifiers are read.
fn parse_text(sql: &str) -> Result<Vec<ast::Statement>> {
    let analyzed = analyze_statement(sql);
    let sql = match &analyzed {
        Some(explain) => std::borrow::Cow::Borrowed(explain.as_str()),
        None => std::borrow::Cow::Borrowed(sql),
    };
    match crate::parser::dialect::parse_sql(&sql) {
        Ok(statements) => {
            // MariaDB has no EXPLAIN ANALYZE: its form is ANALYZE
            // <statement> (read as EXPLAIN ANALYZE above, first in the
            // text only).
            for (i, s) in statements.iter().enumerate() {
                if let ast::Statement::Explain {
                    analyze: true,
                    statement,
                    ..
                } = s
                {
                    if i > 0 || analyzed.is_none() {
                        return Err(crate::error::SqlError::syntax_near(format!(
                            "analyze {statement}"
                        )));
                    }
                }
            }
            // MariaDB 10.11 spells a shared locking read LOCK IN SHARE MODE
            // only.
            if statements.iter().any(|s| {
                matches!(s, ast::Statement::Query(q)
                    if q.locks.iter().any(|l| l.lock_type == ast::LockType::Share))
            }) {
                return Err(crate::error::SqlError::syntax_near("SHARE"));
            }
            // PostgreSQL's UPDATE ... FROM, which MariaDB lacks (its
            // multi-table UPDATE names every table before SET).
            if statements
                .iter()
                .any(|s| matches!(s, ast::Statement::Update(u) if u.from.is_some()))
            {
                return Err(crate::error::SqlError::syntax_near("FROM"));
            }
            Ok(statements)
        }
        Err(e) => match share_mode_as_for_share(&sql) {
            Some(rewritten) => crate::parser::dialect::parse_sql(&rewritten).ok(),
            None => multi_table_update::parse(&sql)
                .map(|u| vec![u])
                .or_else(|| {
                    group_concat_limit_as_tuple(&sql)
                        .and_then(|r| crate::parser::dialect::parse_sql(&r).ok())
                })
                .or_else(|| select_into::parse(&sql))
                .or_else(|| {
                    set_assignments_with_equals(&sql)
                        .and_then(|r| crate::parser::dialect::parse_sql(&r).ok())
                })
                .or_else(|| {
                    explain_options(&sql).and_then(|r| crate::parser::dialect::parse_sql(&r).ok())
                }),
        }
        .ok_or_else(|| {
            unsupported::refuse_unparsed(&sql, crate::error::SqlError::syntax_in(&sql, e))
        }),
    }
}

/// `UPDATE [LOW_PRIORITY] [IGNORE] …`, which the parser reads as a table
/// named by the modifier, without its modifiers, and whether IGNORE was
/// one; `None` for any other statement. LOW_PRIORITY only orders waits
/// for table locks, which MariaDB's transactional tables do not take:
/// there, as here, it changes nothing.
fn update_modifiers(sql: &str) -> Option<Result<(String, bool)>> {
    let body = sql.trim_start();
    let lead = sql.len() - body.len();
    if !body.get(..6)?.eq_ignore_ascii_case("UPDATE") {
        return None;
    }
    // The words right after UPDATE, separated by whitespace only (a
    // comment between them leaves the text as it is: the modifier then
    // reads as a table's name and is refused).
    let mut at = 6;
    let mut ignore = false;
    let mut low_priority = false;
    loop {
        let rest = &body[at..];
        let gap = rest.len() - rest.trim_start().len();
        if gap == 0 {
            break;
        }
        let word_len = rest[gap..]
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .unwrap_or(rest.len() - gap);
        let word = &rest[gap..gap + word_len];
        if word.eq_ignore_ascii_case("IGNORE") && !ignore {
            ignore = true;
        } else if word.eq_ignore_ascii_case("LOW_PRIORITY") && !low_priority && !ignore {
            low_priority = true;
        } else if word.eq_ignore_ascii_case("LOW_PRIORITY") {
            // Out of MariaDB's order: its syntax error, near the word.
            return Some(Err(crate::error::SqlError::syntax_near(&rest[gap..])));
        } else {
            break;
        }
        at += gap + word_len;
    }
    if !ignore && !low_priority {
        return None;
    }
    Some(Ok((format!("{}{}", &sql[..lead + 6], &body[at..]), ignore)))
}

/// `GROUP_CONCAT(... LIMIT offset, count)`, whose comma the parser does not
/// take, with the two numbers as a tuple (`LIMIT (offset, count)`), which
/// it does; `None` when there is no such LIMIT.
fn group_concat_limit_as_tuple(sql: &str) -> Option<String> {
    use sqlparser::tokenizer::{Token, Tokenizer};
    let tokens = Tokenizer::new(&crate::parser::dialect::MariaDb, sql)
        .tokenize()
        .ok()?;
    let solid: Vec<usize> = (0..tokens.len())
        .filter(|&i| !matches!(tokens[i], Token::Whitespace(_)))
        .collect();
    let word =
        |i: usize, w: &str| matches!(&tokens[i], Token::Word(x) if x.value.eq_ignore_ascii_case(w));
    let mut depth = 0usize;
    // Depths just inside a GROUP_CONCAT's parentheses.
    let mut calls: Vec<usize> = Vec::new();
    let mut wrap: Vec<(usize, usize)> = Vec::new();
    for (k, &i) in solid.iter().enumerate() {
        match &tokens[i] {
            Token::LParen => {
                depth += 1;
                if k > 0 && word(solid[k - 1], "GROUP_CONCAT") {
                    calls.push(depth);
                }
            }
            Token::RParen => {
                if calls.last() == Some(&depth) {
                    calls.pop();
                }
                depth = depth.saturating_sub(1);
            }
            _ if calls.last() == Some(&depth) && word(i, "LIMIT") => {
                if let [a, comma, b, close] = solid.get(k + 1..k + 5)? {
                    if matches!(tokens[*a], Token::Number(..))
                        && tokens[*comma] == Token::Comma
                        && matches!(tokens[*b], Token::Number(..))
                        && tokens[*close] == Token::RParen
                    {
                        wrap.push((*a, *b));
                    }
                }
            }
            _ => {}
        }
    }
    if wrap.is_empty() {
        return None;
    }
    let mut out = String::with_capacity(sql.len() + 2 * wrap.len());
    for (i, t) in tokens.iter().enumerate() {
        if wrap.iter().any(|(a, _)| *a == i) {
            out.push('(');
        }
        out.push_str(&t.to_string());
        if wrap.iter().any(|(_, b)| *b == i) {
            out.push(')');
        }
    }
    Some(out)
}

/// `SET @a := 1, b := 2`, whose `:=` the parser does not take after SET,
/// with `=` there (the same in a SET); `None` for other statements.
fn set_assignments_with_equals(sql: &str) -> Option<String> {
    use sqlparser::tokenizer::{Token, Tokenizer};
    let tokens = Tokenizer::new(&crate::parser::dialect::MariaDb, sql)
        .tokenize()
        .ok()?;
    let first = tokens.iter().find(|t| !matches!(t, Token::Whitespace(_)))?;
    if !matches!(first, Token::Word(w) if w.value.eq_ignore_ascii_case("SET")) {
        return None;
    }
    let mut depth = 0usize;
    let mut changed = false;
    let mut out = String::with_capacity(sql.len());
    for t in &tokens {
        match t {
            Token::LParen => depth += 1,
            Token::RParen => depth = depth.saturating_sub(1),
            Token::Assignment if depth == 0 => {
                out.push('=');
                changed = true;
                continue;
            }
            _ => {}
        }
        out.push_str(&t.to_string());
    }
    changed.then_some(out)
}

/// `sql`'s tokens and the places of its first `n` that are not whitespace
/// or comments; None when it does not tokenize.
fn leading_words(sql: &str, n: usize) -> Option<(Vec<sqlparser::tokenizer::Token>, Vec<usize>)> {
    use sqlparser::tokenizer::{Token, Tokenizer};
    let tokens = Tokenizer::new(&crate::parser::dialect::MariaDb, sql)
        .tokenize()
        .ok()?;
    let words = tokens
        .iter()
        .enumerate()
        .filter(|(_, t)| !matches!(t, Token::Whitespace(_)))
        .map(|(i, _)| i)
        .take(n)
        .collect();
    Some((tokens, words))
}

/// Whether `t` is the keyword or name `w` (any case).
fn is_word(t: &sqlparser::tokenizer::Token, w: &str) -> bool {
    matches!(t, sqlparser::tokenizer::Token::Word(x) if x.value.eq_ignore_ascii_case(w))
}

/// MariaDB's `ANALYZE [FORMAT=JSON|TRADITIONAL] <statement>` (the statement
/// runs, and EXPLAIN's rows come back with what each table's reads did)
/// as the parser's `EXPLAIN ANALYZE [FORMAT=JSON] <statement>`; None for
/// other statements (ANALYZE TABLE among them).
fn analyze_statement(sql: &str) -> Option<String> {
    use sqlparser::tokenizer::Token;
    let (tokens, words) = leading_words(sql, 5)?;
    let (&first, rest) = words.split_first()?;
    if !is_word(&tokens[first], "ANALYZE") {
        return None;
    }
    let mut skip: Vec<usize> = vec![first];
    let statement_at = match rest {
        [f, eq, name, next, ..]
            if is_word(&tokens[*f], "FORMAT")
                && tokens[*eq] == Token::Eq
                && is_word(&tokens[*name], "TRADITIONAL") =>
        {
            skip.extend([*f, *eq, *name]);
            *next
        }
        [f, ..] if is_word(&tokens[*f], "FORMAT") => *f,
        [s, ..] => *s,
        [] => return None,
    };
    let starts = &tokens[statement_at];
    if !(is_word(starts, "SELECT")
        || is_word(starts, "WITH")
        || is_word(starts, "VALUES")
        || is_word(starts, "FORMAT")
        || is_word(starts, "UPDATE")
        || is_word(starts, "DELETE")
        || is_word(starts, "INSERT")
        || is_word(starts, "REPLACE")
        || *starts == Token::LParen)
    {
        return None;
    }
    let mut out = String::from("EXPLAIN ANALYZE ");
    for (i, t) in tokens.iter().enumerate() {
        if !skip.contains(&i) {
            out.push_str(&t.to_string());
        }
    }
    Some(out)
}

/// MariaDB's EXPLAIN options the parser lacks: `EXTENDED` (the `filtered`
/// column) as `VERBOSE`, and `FORMAT=TRADITIONAL` (the default) left out.
fn explain_options(sql: &str) -> Option<String> {
    use sqlparser::tokenizer::Token;
    let (tokens, words) = leading_words(sql, 4)?;
    let first = *words.first()?;
    if !["EXPLAIN", "DESCRIBE", "DESC"]
        .iter()
        .any(|w| is_word(&tokens[first], w))
    {
        return None;
    }
    let mut replaced: Vec<(usize, &str)> = Vec::new();
    match words.get(1..) {
        Some([e, ..]) if is_word(&tokens[*e], "EXTENDED") => replaced.push((*e, "VERBOSE")),
        Some([f, eq, name, ..])
            if is_word(&tokens[*f], "FORMAT")
                && tokens[*eq] == Token::Eq
                && is_word(&tokens[*name], "TRADITIONAL") =>
        {
            replaced.extend([(*f, ""), (*eq, ""), (*name, "")]);
        }
        _ => return None,
    }
    let mut out = String::with_capacity(sql.len());
    for (i, t) in tokens.iter().enumerate() {
        match replaced.iter().find(|(at, _)| *at == i) {
            Some((_, with)) => out.push_str(with),
            None => out.push_str(&t.to_string()),
        }
    }
    Some(out)
}

/// A statement ending in MySQL's `LOCK IN SHARE MODE` (which the parser
/// lacks) with `FOR SHARE`, its newer spelling, in its place.
fn share_mode_as_for_share(sql: &str) -> Option<String> {
    let body = sql.trim_end().trim_end_matches(';').trim_end();
    let words: Vec<&str> = body.rsplitn(5, char::is_whitespace).collect();
    let tail = ["MODE", "SHARE", "IN", "LOCK"];
    if words.len() < 5
        || !words[..4]
            .iter()
            .zip(tail)
            .all(|(w, t)| w.eq_ignore_ascii_case(t))
    {
        return None;
    }
    Some(format!("{} FOR SHARE", words[4]))
}

#[cfg(test)]
mod tests {
    use super::{share_mode_as_for_share, strip_conditional_comments};

    #[test]
    fn update_modifiers_are_read_off_the_text() {
        let read = |sql: &str| super::update_modifiers(sql).map(|r| r.map_err(|e| e.code));
        assert_eq!(
            read("  UPDATE IGNORE t SET a = 1"),
            Some(Ok(("  UPDATE t SET a = 1".to_string(), true)))
        );
        assert_eq!(
            read("update low_priority\n ignore `t` SET a = 1"),
            Some(Ok(("update `t` SET a = 1".to_string(), true)))
        );
        assert_eq!(
            read("UPDATE LOW_PRIORITY t SET a = 1"),
            Some(Ok(("UPDATE t SET a = 1".to_string(), false)))
        );
        assert_eq!(
            read("UPDATE IGNORE LOW_PRIORITY t SET a = 1"),
            Some(Err(1064))
        );
        assert_eq!(read("UPDATE ignored SET a = 1"), None);
        assert_eq!(read("UPDATE t SET a = 'IGNORE'"), None);
        assert_eq!(read("SELECT 1"), None);
    }

    #[test]
    fn group_concat_limit_with_offset_is_a_tuple() {
        assert_eq!(
            super::group_concat_limit_as_tuple(
                "SELECT GROUP_CONCAT(a ORDER BY a LIMIT 1, 2) FROM t LIMIT 3, 4"
            )
            .as_deref(),
            Some("SELECT GROUP_CONCAT(a ORDER BY a LIMIT (1, 2)) FROM t LIMIT 3, 4")
        );
        assert_eq!(
            super::group_concat_limit_as_tuple("SELECT 1 LIMIT 1, 2"),
            None
        );
    }

    #[test]
    fn lock_in_share_mode_is_for_share() {
        assert_eq!(
            share_mode_as_for_share("SELECT a FROM t WHERE id = 1 lock in share mode;").as_deref(),
            Some("SELECT a FROM t WHERE id = 1 FOR SHARE")
        );
        assert_eq!(share_mode_as_for_share("SELECT 'lock in share mode'"), None);
    }

    #[test]
    fn conditional_comments_keep_their_sql() {
        let norm = |s: &str| s.split_whitespace().collect::<Vec<_>>().join(" ");
        assert_eq!(
            norm(&strip_conditional_comments(
                "CREATE TABLE t (a INT) /*! ENGINE = innodb */"
            )),
            "CREATE TABLE t (a INT) ENGINE = innodb"
        );
        assert_eq!(
            norm(&strip_conditional_comments(
                "SELECT /*!40001 SQL_NO_CACHE */ 1"
            )),
            "SELECT SQL_NO_CACHE 1"
        );
    }
}
