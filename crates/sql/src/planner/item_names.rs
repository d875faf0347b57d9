//! Column names of select-list items without an alias, as MariaDB gives
//! them: a column is named as it was written (`ID`, the last part of
//! `t.ID`), a string literal by its value (`'abc'` → `abc`), TRUE, FALSE and
//! NULL in capitals, anything else by its text in the statement, spacing
//! and inner comments kept (`count( * )`, `a  +  1`); parentheses around a
//! column or a literal and a unary plus are looked through.
//!
//! The text of an item is cut from the statement between the depth-0
//! commas of its select list (the syntax tree's spans do not cover every
//! expression whole); where that cannot be done (a query made by the
//! server, not written by the client) the tree's own rendering stands in.
use sqlparser::ast::{self, Spanned};
use sqlparser::keywords::Keyword;
use sqlparser::tokenizer::{Location, Token, TokenWithSpan, Tokenizer};

/// The name of unnamed item `e`, `segment` giving its text when needed.
pub(crate) fn item_name(e: &ast::Expr, text: Option<&str>, segment: Option<&str>) -> String {
    match e {
        ast::Expr::Identifier(i) => i.value.clone(),
        // `@@global.name` is named whole, as written.
        ast::Expr::CompoundIdentifier(parts)
            if parts.first().is_some_and(|p| p.value.starts_with("@@")) =>
        {
            parts
                .iter()
                .map(|p| p.value.as_str())
                .collect::<Vec<_>>()
                .join(".")
        }
        ast::Expr::CompoundIdentifier(parts) => {
            parts.last().map(|i| i.value.clone()).unwrap_or_default()
        }
        ast::Expr::Nested(inner) if is_simple(inner) => item_name(inner, text, None),
        ast::Expr::UnaryOp {
            op: ast::UnaryOperator::Plus,
            expr,
        } => item_name(expr, text, None),
        ast::Expr::Value(v) => match &v.value {
            ast::Value::SingleQuotedString(s)
            | ast::Value::DoubleQuotedString(s)
            | ast::Value::NationalStringLiteral(s) => s.trim_start().to_string(),
            ast::Value::Boolean(true) => "TRUE".into(),
            ast::Value::Boolean(false) => "FALSE".into(),
            ast::Value::Null => "NULL".into(),
            // A number as written (`1.0e0`, `.5`, `0x41`).
            _ => text
                .and_then(|t| slice(t, v.span.start, v.span.end))
                .map(str::to_string)
                .unwrap_or_else(|| v.to_string()),
        },
        other => segment.map_or_else(|| other.to_string(), str::to_string),
    }
}

/// Whether parentheses around `e` leave its name as `e`'s own.
fn is_simple(e: &ast::Expr) -> bool {
    match e {
        ast::Expr::Identifier(_) | ast::Expr::CompoundIdentifier(_) | ast::Expr::Value(_) => true,
        ast::Expr::Nested(inner) => is_simple(inner),
        _ => false,
    }
}

/// Whether `e`'s name may need its text in the statement.
pub(crate) fn needs_text(e: &ast::Expr) -> bool {
    match e {
        ast::Expr::Identifier(_) | ast::Expr::CompoundIdentifier(_) => false,
        ast::Expr::Value(v) => !matches!(
            v.value,
            ast::Value::SingleQuotedString(_)
                | ast::Value::DoubleQuotedString(_)
                | ast::Value::NationalStringLiteral(_)
                | ast::Value::Boolean(_)
                | ast::Value::Null
        ),
        ast::Expr::Nested(inner) if is_simple(inner) => needs_text(inner),
        ast::Expr::UnaryOp {
            op: ast::UnaryOperator::Plus,
            expr,
        } => needs_text(expr),
        _ => true,
    }
}

/// Words that end a select list at depth 0.
const LIST_ENDS: &[Keyword] = &[
    Keyword::FROM,
    Keyword::INTO,
    Keyword::WHERE,
    Keyword::GROUP,
    Keyword::HAVING,
    Keyword::ORDER,
    Keyword::LIMIT,
    Keyword::WINDOW,
    Keyword::UNION,
    Keyword::EXCEPT,
    Keyword::INTERSECT,
    Keyword::FOR,
    Keyword::LOCK,
    Keyword::PROCEDURE,
];

/// Words that may stand between SELECT and its first item.
const MODIFIERS: &[&str] = &[
    "ALL",
    "DISTINCT",
    "DISTINCTROW",
    "HIGH_PRIORITY",
    "STRAIGHT_JOIN",
    "SQL_SMALL_RESULT",
    "SQL_BIG_RESULT",
    "SQL_BUFFER_RESULT",
    "SQL_NO_CACHE",
    "SQL_CALC_FOUND_ROWS",
];

/// The text of each item of `select`'s list in `text` (the statement it was
/// parsed from), or none when the list cannot be found there whole.
pub(crate) fn item_texts<'t>(text: &'t str, select: &ast::Select) -> Option<Vec<&'t str>> {
    let tokens = Tokenizer::new(&crate::parser::dialect::MariaDb, text)
        .tokenize_with_location()
        .ok()?;
    let start = select.select_token.0.span.start;
    let at = tokens.iter().position(|t| t.span.start == start)? + 1;
    list_texts(text, &tokens, at, &select.projection)
}

/// The text of each item of a RETURNING list in `text`, as
/// [`item_texts`].
pub(crate) fn returning_texts<'t>(
    text: &'t str,
    items: &[ast::SelectItem],
) -> Option<Vec<&'t str>> {
    let tokens = Tokenizer::new(&crate::parser::dialect::MariaDb, text)
        .tokenize_with_location()
        .ok()?;
    let first = items.first()?.span().start;
    let at = tokens.iter().rposition(|t| {
        t.span.start < first
            && matches!(&t.token, Token::Word(w) if w.keyword == Keyword::RETURNING)
    })? + 1;
    list_texts(text, &tokens, at, items)
}

/// The items' texts of the list that starts at token `at`.
fn list_texts<'t>(
    text: &'t str,
    tokens: &[TokenWithSpan],
    mut at: usize,
    projection: &[ast::SelectItem],
) -> Option<Vec<&'t str>> {
    // Past the modifiers.
    loop {
        match tokens.get(at).map(|t| &t.token) {
            Some(Token::Whitespace(_)) => at += 1,
            Some(Token::Word(w))
                if w.quote_style.is_none()
                    && MODIFIERS.iter().any(|m| w.value.eq_ignore_ascii_case(m)) =>
            {
                at += 1
            }
            _ => break,
        }
    }
    let mut items: Vec<(Location, Location)> = Vec::new();
    let mut current: Option<(Location, Location)> = None;
    let mut depth = 0usize;
    for t in &tokens[at..] {
        match &t.token {
            Token::Whitespace(_) => continue,
            Token::EOF | Token::SemiColon => break,
            Token::Comma if depth == 0 => {
                items.push(current.take()?);
                continue;
            }
            Token::RParen if depth == 0 => break,
            Token::Word(w)
                if depth == 0 && w.quote_style.is_none() && LIST_ENDS.contains(&w.keyword) =>
            {
                break
            }
            Token::LParen => depth += 1,
            Token::RParen => depth -= 1,
            _ => {}
        }
        extend(&mut current, t);
    }
    items.push(current?);
    if items.len() != projection.len() {
        return None;
    }
    let mut out = Vec::with_capacity(items.len());
    for ((from, to), item) in items.into_iter().zip(projection) {
        // The item's own span must lie within the text found for it.
        let span = item.span();
        if span.start.line != 0 && (span.start < from || span.end > to) {
            return None;
        }
        out.push(slice(text, from, to)?);
    }
    Some(out)
}

fn extend(current: &mut Option<(Location, Location)>, t: &TokenWithSpan) {
    match current {
        Some((_, end)) => *end = t.span.end,
        None => *current = Some((t.span.start, t.span.end)),
    }
}

/// The text between two locations (1-based lines and columns in
/// characters; `to` exclusive).
fn slice(text: &str, from: Location, to: Location) -> Option<&str> {
    let a = offset(text, from)?;
    let b = offset(text, to)?;
    text.get(a..b.max(a))
}

fn offset(text: &str, at: Location) -> Option<usize> {
    if at.line == 0 || at.column == 0 {
        return None;
    }
    let mut line_start = 0;
    for _ in 1..at.line {
        line_start += text[line_start..].find('\n')? + 1;
    }
    let line = &text[line_start..];
    let column = (at.column - 1) as usize;
    match line.char_indices().nth(column) {
        Some((i, _)) => Some(line_start + i),
        None if line.chars().count() == column => Some(text.len()),
        None => None,
    }
}

#[cfg(test)]
mod tests {
    use super::{item_name, item_texts};
    use sqlparser::ast;

    fn names(sql: &str) -> Vec<String> {
        let stmts = crate::parser::dialect::parse_sql(sql).unwrap();
        let ast::Statement::Query(q) = &stmts[0] else {
            panic!("not a query")
        };
        let ast::SetExpr::Select(s) = q.body.as_ref() else {
            panic!("not a select")
        };
        let texts = item_texts(sql, s);
        s.projection
            .iter()
            .enumerate()
            .map(|(i, item)| match item {
                ast::SelectItem::UnnamedExpr(e) => {
                    item_name(e, Some(sql), texts.as_ref().map(|t| t[i]))
                }
                _ => "-".into(),
            })
            .collect()
    }

    #[test]
    fn names_follow_mariadb() {
        assert_eq!(
            names(
                "SELECT DISTINCT ID, t1.A, count( * ), (1), ((a)), a  +  1, `id`, 1.50, .5, \
                 NULL, true, 0x41, -a, + 5, 'it''s', \"dq\", 'a' 'b', (a+1), sum(a)/*c*/, \
                 CAST(a AS CHAR), case when a then 1 end, x'41' FROM t WHERE a = 1"
            ),
            vec![
                "ID",
                "A",
                "count( * )",
                "1",
                "a",
                "a  +  1",
                "id",
                "1.50",
                ".5",
                "NULL",
                "TRUE",
                "0x41",
                "-a",
                "5",
                "it's",
                "dq",
                "ab",
                "(a+1)",
                "sum(a)",
                "CAST(a AS CHAR)",
                "case when a then 1 end",
                "x'41'",
            ]
        );
        assert_eq!(
            names("select\n  a\n  +\n  1, concat(a,\n b) from t"),
            vec!["a\n  +\n  1", "concat(a,\n b)"]
        );
        assert_eq!(
            names("SELECT (SELECT 1 + 1), 2*3"),
            vec!["(SELECT 1 + 1)", "2*3"]
        );
    }
}
