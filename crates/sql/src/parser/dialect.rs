//! The SQL dialect statements are read in: sqlparser's MySQL dialect with
//! MariaDB's operator precedence where the two differ, and `a MOD b`.
//!
//! Hex literals keep their spelling: `0x41` is a hybrid (a binary string
//! that reads as the number 65 where one is wanted), `X'41'` a binary
//! string only (0 as a number). The tokenizer gives both as one token, so
//! [`parser`] turns the `0x` form into a number token that keeps its text
//! (`Value::Number("0x41")`).
//!
//! MariaDB binds, tightest first: `^`; `* / DIV % MOD`; `+ -`; `<< >>`;
//! `&`; `|`; comparisons; NOT; AND; XOR; OR. The MySQL dialect puts XOR
//! above the comparisons (`1 XOR 2 = 3` read as `(1 XOR 2) = 3`), `^`
//! below `+`, and the shifts below `&`.
use sqlparser::ast::{BinaryOperator, Expr, Statement};
use sqlparser::dialect::{Dialect, MySqlDialect, Precedence};
use sqlparser::keywords::Keyword;
use sqlparser::parser::{Parser, ParserError};
use sqlparser::tokenizer::{Location, Token, Tokenizer};
use std::any::TypeId;

#[derive(Debug, Default)]
pub(crate) struct MariaDb;

/// Reserved words that begin or join clauses, never an expression (ON is
/// not among them: `SET autocommit = ON` reads it as a value).
const CLAUSE_WORDS: &[Keyword] = &[
    Keyword::FROM,
    Keyword::WHERE,
    Keyword::GROUP,
    Keyword::HAVING,
    Keyword::ORDER,
    Keyword::LIMIT,
    Keyword::UNION,
    Keyword::EXCEPT,
    Keyword::INTERSECT,
    Keyword::JOIN,
    Keyword::USING,
    Keyword::INTO,
    Keyword::BY,
    Keyword::WHEN,
    Keyword::THEN,
    Keyword::ELSE,
];

const MYSQL: MySqlDialect = MySqlDialect {};

impl Dialect for MariaDb {
    /// The parser's MySQL-only rules apply.
    fn dialect(&self) -> TypeId {
        TypeId::of::<MySqlDialect>()
    }

    /// LIKE and REGEXP bind tighter than `=`, `<` and IN, and their
    /// pattern holds no comparison (MariaDB's `bit_expr LIKE bit_expr`
    /// predicate): `a REGEXP b = 1` compares the match with 1, `1 = a LIKE
    /// b` compares 1 with the match.
    fn prec_value(&self, prec: Precedence) -> u8 {
        match prec {
            Precedence::Like => MYSQL.prec_value(Precedence::Eq) + 1,
            other => MYSQL.prec_value(other),
        }
    }

    fn get_next_precedence(&self, parser: &Parser) -> Option<Result<u8, ParserError>> {
        let p = |prec| Some(Ok(self.prec_value(prec)));
        match &parser.peek_token_ref().token {
            Token::Word(w) if w.keyword == Keyword::XOR => Some(Ok((self
                .prec_value(Precedence::And)
                + self.prec_value(Precedence::Or))
                / 2)),
            Token::Word(w) if w.keyword == Keyword::MOD => p(Precedence::MulDivModOp),
            Token::Caret => Some(Ok(self.prec_value(Precedence::MulDivModOp) + 5)),
            Token::ShiftLeft | Token::ShiftRight => Some(Ok((self
                .prec_value(Precedence::PlusMinus)
                + self.prec_value(Precedence::Ampersand))
                / 2)),
            _ => MYSQL.get_next_precedence(parser),
        }
    }

    fn parse_infix(
        &self,
        parser: &mut Parser,
        expr: &Expr,
        precedence: u8,
    ) -> Option<Result<Expr, ParserError>> {
        if parser.parse_keyword(Keyword::MOD) {
            return Some(
                parser
                    .parse_subexpr(precedence)
                    .map(|right| Expr::BinaryOp {
                        left: Box::new(expr.clone()),
                        op: BinaryOperator::Modulo,
                        right: Box::new(right),
                    }),
            );
        }
        MYSQL.parse_infix(parser, expr, precedence)
    }

    fn parse_statement(&self, parser: &mut Parser) -> Option<Result<Statement, ParserError>> {
        MYSQL.parse_statement(parser)
    }

    /// MariaDB's reserved words that end a clause (FROM, WHERE, GROUP …)
    /// start no expression and name nothing unquoted: `SELECT FROM t` is
    /// 1064 near `FROM t`, as in MariaDB (not a column named FROM).
    fn parse_prefix(&self, parser: &mut Parser) -> Option<Result<Expr, ParserError>> {
        let next = parser.peek_token();
        match &next.token {
            Token::Word(w) if w.quote_style.is_none() && CLAUSE_WORDS.contains(&w.keyword) => {
                Some(parser.expected("an expression", next))
            }
            _ => None,
        }
    }
    fn is_identifier_start(&self, ch: char) -> bool {
        MYSQL.is_identifier_start(ch)
    }
    fn is_identifier_part(&self, ch: char) -> bool {
        MYSQL.is_identifier_part(ch)
    }
    fn is_delimited_identifier_start(&self, ch: char) -> bool {
        MYSQL.is_delimited_identifier_start(ch)
    }
    fn identifier_quote_style(&self, identifier: &str) -> Option<char> {
        MYSQL.identifier_quote_style(identifier)
    }
    fn supports_string_literal_backslash_escape(&self) -> bool {
        MYSQL.supports_string_literal_backslash_escape()
    }
    fn supports_string_literal_concatenation(&self) -> bool {
        MYSQL.supports_string_literal_concatenation()
    }
    fn ignores_wildcard_escapes(&self) -> bool {
        MYSQL.ignores_wildcard_escapes()
    }
    fn supports_numeric_prefix(&self) -> bool {
        MYSQL.supports_numeric_prefix()
    }
    fn supports_bitwise_shift_operators(&self) -> bool {
        MYSQL.supports_bitwise_shift_operators()
    }
    fn supports_multiline_comment_hints(&self) -> bool {
        MYSQL.supports_multiline_comment_hints()
    }
    fn require_interval_qualifier(&self) -> bool {
        MYSQL.require_interval_qualifier()
    }
    fn supports_limit_comma(&self) -> bool {
        MYSQL.supports_limit_comma()
    }
    fn supports_create_table_select(&self) -> bool {
        MYSQL.supports_create_table_select()
    }
    fn supports_insert_set(&self) -> bool {
        MYSQL.supports_insert_set()
    }
    fn supports_user_host_grantee(&self) -> bool {
        MYSQL.supports_user_host_grantee()
    }
    fn is_table_factor_alias(&self, explicit: bool, kw: &Keyword, parser: &mut Parser) -> bool {
        MYSQL.is_table_factor_alias(explicit, kw, parser)
    }
    fn supports_table_hints(&self) -> bool {
        MYSQL.supports_table_hints()
    }
    fn requires_single_line_comment_whitespace(&self) -> bool {
        MYSQL.requires_single_line_comment_whitespace()
    }
    fn supports_match_against(&self) -> bool {
        MYSQL.supports_match_against()
    }
    fn supports_select_modifiers(&self) -> bool {
        MYSQL.supports_select_modifiers()
    }
    fn supports_set_names(&self) -> bool {
        MYSQL.supports_set_names()
    }
    fn supports_comma_separated_set_assignments(&self) -> bool {
        MYSQL.supports_comma_separated_set_assignments()
    }
    fn supports_update_order_by(&self) -> bool {
        MYSQL.supports_update_order_by()
    }
    fn supports_data_type_signed_suffix(&self) -> bool {
        MYSQL.supports_data_type_signed_suffix()
    }
    fn supports_cross_join_constraint(&self) -> bool {
        MYSQL.supports_cross_join_constraint()
    }
    fn supports_double_ampersand_operator(&self) -> bool {
        MYSQL.supports_double_ampersand_operator()
    }
    fn supports_binary_kw_as_cast(&self) -> bool {
        MYSQL.supports_binary_kw_as_cast()
    }
    fn supports_comment_optimizer_hint(&self) -> bool {
        MYSQL.supports_comment_optimizer_hint()
    }
    fn supports_constraint_keyword_without_name(&self) -> bool {
        MYSQL.supports_constraint_keyword_without_name()
    }
    fn supports_key_column_option(&self) -> bool {
        MYSQL.supports_key_column_option()
    }
    fn supports_group_by_with_modifier(&self) -> bool {
        MYSQL.supports_group_by_with_modifier()
    }
    fn supports_left_associative_joins_without_parens(&self) -> bool {
        MYSQL.supports_left_associative_joins_without_parens()
    }
}

/// A parser over `sql` in MariaDB's dialect, its `0x` literals number
/// tokens spelled `0x…` (see the module's comment).
pub(crate) fn parser(sql: &str) -> Result<Parser<'static>, ParserError> {
    let mut tokens = Tokenizer::new(&MariaDb, sql)
        .with_unescape(true)
        .tokenize_with_location()?;
    let mut lines: Option<Vec<usize>> = None;
    for t in &mut tokens {
        if let Token::HexStringLiteral(digits) = &t.token {
            let line_starts = lines.get_or_insert_with(|| {
                std::iter::once(0)
                    .chain(sql.match_indices('\n').map(|(i, _)| i + 1))
                    .collect()
            });
            if sql[byte_offset(sql, line_starts, t.span.start)..].starts_with("0x") {
                t.token = Token::Number(format!("0x{digits}"), false);
            }
        }
    }
    set_forms(&mut tokens);
    cast_character_sets(&mut tokens);
    returning_before_order(&mut tokens);
    Ok(Parser::new(&MariaDb).with_tokens_with_locations(tokens))
}

/// Forms of SET the parser reads otherwise than MariaDB, rewritten at a
/// statement's start: `SET SESSION TRANSACTION …` (or LOCAL), which it
/// reads as the unscoped `SET TRANSACTION` (the next transaction's),
/// becomes `SET SESSION CHARACTERISTICS AS TRANSACTION …` (the
/// session's); `SET CHARACTER SET x` and `SET CHARSET x`, which it does
/// not read, become `SET NAMES x` (the connection is in one character set
/// for both: utf8mb4). And `CREATE SCHEMA` becomes `CREATE DATABASE`, its
/// synonym in MariaDB.
fn set_forms(tokens: &mut Vec<sqlparser::tokenizer::TokenWithSpan>) {
    use sqlparser::keywords::Keyword;
    let word = |t: &Token, k: Keyword| matches!(t, Token::Word(w) if w.keyword == k);
    let mut i = 0;
    let mut statement_start = true;
    while i < tokens.len() {
        let t = &tokens[i].token;
        if matches!(t, Token::Whitespace(_)) {
            i += 1;
            continue;
        }
        // CREATE SCHEMA is MariaDB's CREATE DATABASE (the parser reads it
        // as the standard's schema, with its own options).
        if statement_start && word(&tokens[i].token, Keyword::CREATE) {
            let next =
                (i + 1..tokens.len()).find(|&j| !matches!(tokens[j].token, Token::Whitespace(_)));
            if let Some(j) = next.filter(|&j| word(&tokens[j].token, Keyword::SCHEMA)) {
                tokens[j].token = Token::make_keyword("DATABASE");
            }
        }
        let t = &tokens[i].token;
        if statement_start && word(t, Keyword::SET) {
            let next: Vec<usize> = (i + 1..tokens.len())
                .filter(|&j| !matches!(tokens[j].token, Token::Whitespace(_)))
                .take(2)
                .collect();
            let is = |n: usize, k: Keyword| next.get(n).is_some_and(|&j| word(&tokens[j].token, k));
            if (is(0, Keyword::SESSION) || is(0, Keyword::LOCAL)) && is(1, Keyword::TRANSACTION) {
                let scope = next[0];
                let span = tokens[scope].span;
                tokens[scope].token = Token::make_keyword("CHARACTERISTICS");
                tokens.insert(
                    scope + 1,
                    sqlparser::tokenizer::TokenWithSpan::new(Token::make_keyword("AS"), span),
                );
            } else if is(0, Keyword::CHARACTER) && is(1, Keyword::SET) {
                tokens[next[0]].token = Token::make_keyword("NAMES");
                tokens.remove(next[1]);
            } else if is(0, Keyword::CHARSET) {
                tokens[next[0]].token = Token::make_keyword("NAMES");
            }
        }
        statement_start = matches!(tokens[i].token, Token::SemiColon);
        i += 1;
    }
}

/// `CAST(x AS CHAR[(n)] CHARACTER SET cs)` and `CONVERT(x, CHAR … CHARSET
/// cs)`, which the parser does not read: for utf8mb4 and its utf8 names
/// (what a CHAR cast gives here) the clause goes, and `binary` makes the
/// cast BINARY[(n)]. Another character set stays, a syntax error. Only a
/// CHAR right after AS or a comma is a cast's type (a column's CHAR
/// follows its name).
fn cast_character_sets(tokens: &mut [sqlparser::tokenizer::TokenWithSpan]) {
    use sqlparser::keywords::Keyword;
    let blank = Token::Whitespace(sqlparser::tokenizer::Whitespace::Space);
    let next = |tokens: &[sqlparser::tokenizer::TokenWithSpan], from: usize| {
        (from..tokens.len()).find(|&j| !matches!(tokens[j].token, Token::Whitespace(_)))
    };
    let keyword = |t: &Token| match t {
        Token::Word(w) => Some(w.keyword),
        _ => None,
    };
    for i in 0..tokens.len() {
        if keyword(&tokens[i].token) != Some(Keyword::CHAR) {
            continue;
        }
        let before = (0..i)
            .rev()
            .find(|&j| !matches!(tokens[j].token, Token::Whitespace(_)));
        let cast_type = before.is_some_and(|j| {
            tokens[j].token == Token::Comma || keyword(&tokens[j].token) == Some(Keyword::AS)
        });
        let Some(mut at) = next(tokens, i + 1).filter(|_| cast_type) else {
            continue;
        };
        if tokens[at].token == Token::LParen {
            let Some(close) = (at..tokens.len()).find(|&j| tokens[j].token == Token::RParen) else {
                continue;
            };
            let Some(after) = next(tokens, close + 1) else {
                continue;
            };
            at = after;
        }
        let name_at = match keyword(&tokens[at].token) {
            Some(Keyword::CHARACTER) => next(tokens, at + 1)
                .filter(|&j| keyword(&tokens[j].token) == Some(Keyword::SET))
                .and_then(|j| next(tokens, j + 1)),
            Some(Keyword::CHARSET) => next(tokens, at + 1),
            _ => None,
        };
        let Some(name_at) = name_at else {
            continue;
        };
        let name = match &tokens[name_at].token {
            Token::Word(w) => w.value.to_ascii_lowercase(),
            Token::SingleQuotedString(s) => s.to_ascii_lowercase(),
            _ => continue,
        };
        match name.as_str() {
            "utf8" | "utf8mb3" | "utf8mb4" => {}
            "binary" => tokens[i].token = Token::make_keyword("BINARY"),
            _ => continue,
        }
        for t in &mut tokens[at..=name_at] {
            t.token = blank.clone();
        }
    }
}

/// MariaDB's `DELETE … [ORDER BY …] [LIMIT …] RETURNING …` is read with
/// RETURNING before ORDER BY and LIMIT, where the parser expects it: the
/// RETURNING list (to the statement's end) moves in front of the first
/// top-level ORDER or LIMIT of the DELETE.
fn returning_before_order(tokens: &mut Vec<sqlparser::tokenizer::TokenWithSpan>) {
    use sqlparser::keywords::Keyword;
    let keyword = |t: &Token| match t {
        Token::Word(w) => Some(w.keyword),
        _ => None,
    };
    let mut start = 0;
    while start < tokens.len() {
        let end = (start..tokens.len())
            .find(|&j| tokens[j].token == Token::SemiColon)
            .unwrap_or(tokens.len());
        let first = (start..end).find(|&j| !matches!(tokens[j].token, Token::Whitespace(_)));
        if first.is_some_and(|j| keyword(&tokens[j].token) == Some(Keyword::DELETE)) {
            let mut depth = 0i32;
            let mut order_at = None;
            let mut returning_at = None;
            for (j, t) in tokens.iter().enumerate().take(end).skip(start) {
                match &t.token {
                    Token::LParen => depth += 1,
                    Token::RParen => depth -= 1,
                    t if depth == 0 => match keyword(t) {
                        Some(Keyword::ORDER | Keyword::LIMIT) if order_at.is_none() => {
                            order_at = Some(j)
                        }
                        Some(Keyword::RETURNING) => returning_at = Some(j),
                        _ => {}
                    },
                    _ => {}
                }
            }
            if let (Some(o), Some(r)) = (order_at, returning_at) {
                if o < r {
                    let mut list: Vec<_> = tokens.drain(r..end).collect();
                    let space = sqlparser::tokenizer::TokenWithSpan::new(
                        Token::Whitespace(sqlparser::tokenizer::Whitespace::Space),
                        list[0].span,
                    );
                    list.push(space);
                    tokens.splice(o..o, list);
                }
            }
        }
        start = end + 1;
    }
}

/// The statements of `sql`, read as [`parser`] reads them.
pub(crate) fn parse_sql(sql: &str) -> Result<Vec<Statement>, ParserError> {
    let mut statements = parser(sql)?.parse_statements()?;
    use sqlparser::ast::VisitMut;
    let _ = statements.visit(&mut DropDual);
    Ok(statements)
}

/// `FROM DUAL` (MySQL's placeholder table, unquoted and alone) is no FROM
/// at all.
struct DropDual;

impl sqlparser::ast::VisitorMut for DropDual {
    type Break = ();

    fn pre_visit_query(&mut self, query: &mut sqlparser::ast::Query) -> std::ops::ControlFlow<()> {
        drop_dual(&mut query.body);
        std::ops::ControlFlow::Continue(())
    }
}

fn drop_dual(body: &mut sqlparser::ast::SetExpr) {
    use sqlparser::ast::{ObjectNamePart, SetExpr, TableFactor};
    match body {
        SetExpr::Select(s) => {
            let dual = matches!(s.from.as_slice(), [only] if only.joins.is_empty()
                && matches!(&only.relation, TableFactor::Table { name, alias: None, args: None, .. }
                    if matches!(name.0.as_slice(), [ObjectNamePart::Identifier(i)]
                        if i.quote_style.is_none() && i.value.eq_ignore_ascii_case("dual"))));
            if dual {
                s.from.clear();
            }
        }
        SetExpr::SetOperation { left, right, .. } => {
            drop_dual(left);
            drop_dual(right);
        }
        _ => {}
    }
}

/// MariaDB's 1064 for a second statement where one alone is allowed (a
/// prepared statement, a query without CLIENT_MULTI_STATEMENTS): near the
/// text from the second statement on.
pub fn second_statement_error(sql: &str) -> crate::error::SqlError {
    let second = statement_texts(sql)
        .and_then(|parts| parts.get(1).copied())
        .map_or("", |part| {
            let at = part.as_ptr() as usize - sql.as_ptr() as usize;
            sql[at..].trim_start()
        });
    crate::error::SqlError::syntax_near(second.chars().take(80).collect::<String>())
}

/// The statements of `sql` as texts, split at its semicolons outside
/// strings, names and comments (a batch that does not parse as a whole
/// runs up to its first bad statement, as MariaDB's); None if it does not
/// tokenize.
pub fn statement_texts(sql: &str) -> Option<Vec<&str>> {
    let tokens = Tokenizer::new(&MariaDb, sql)
        .tokenize_with_location()
        .ok()?;
    let line_starts: Vec<usize> = std::iter::once(0)
        .chain(sql.match_indices('\n').map(|(i, _)| i + 1))
        .collect();
    let mut parts = Vec::new();
    let mut start = 0;
    for t in &tokens {
        if t.token == Token::SemiColon {
            let at = byte_offset(sql, &line_starts, t.span.start);
            parts.push(&sql[start..at]);
            start = at + 1;
        }
    }
    parts.push(&sql[start.min(sql.len())..]);
    parts.retain(|p| !p.trim().is_empty());
    Some(parts)
}

/// Where a token at `at` (1-based line and column, in characters) starts.
fn byte_offset(sql: &str, line_starts: &[usize], at: Location) -> usize {
    let start = line_starts
        .get((at.line as usize).saturating_sub(1))
        .copied()
        .unwrap_or(sql.len());
    sql[start..]
        .char_indices()
        .nth((at.column as usize).saturating_sub(1))
        .map_or(sql.len(), |(i, _)| start + i)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn statements_split_outside_strings_and_comments() {
        let parts =
            statement_texts("SELECT ';' ; /* ; */ SELECT `a;b`;\nSELEC x; SELECT 2;").unwrap();
        assert_eq!(parts.len(), 4, "{parts:?}");
        assert_eq!(parts[0].trim(), "SELECT ';'");
        assert_eq!(parts[2].trim(), "SELEC x");
    }

    fn expr(sql: &str) -> String {
        let stmts = parse_sql(&format!("SELECT {sql}")).unwrap();
        let Statement::Query(q) = &stmts[0] else {
            panic!("a query")
        };
        let sqlparser::ast::SetExpr::Select(s) = q.body.as_ref() else {
            panic!("a select")
        };
        format!("{:?}", s.projection[0])
    }

    /// `a op1 b op2 c` groups as `(a op1 b) op2 c` when op1 binds tighter.
    fn left_first(sql: &str) -> bool {
        let d = expr(sql);
        // The outer operator's left operand is itself an operation.
        d.find("BinaryOp")
            .is_some_and(|i| d[i + 8..].contains("left: BinaryOp"))
            && d.find("left: BinaryOp").unwrap() < d.find("right:").unwrap()
    }

    #[test]
    fn mariadb_precedence() {
        assert!(!left_first("1 XOR 2 = 3"), "= binds tighter than XOR");
        assert!(left_first("1 = 2 XOR 3"));
        assert!(left_first("1 AND 0 XOR 1"), "AND binds tighter than XOR");
        assert!(!left_first("1 OR 0 XOR 1"), "XOR binds tighter than OR");
        assert!(!left_first("2 * 3 ^ 1"), "^ binds tighter than *");
        assert!(!left_first("3 & 2 << 1"), "<< binds tighter than &");
        assert!(left_first("1 + 2 << 1"), "+ binds tighter than <<");
        assert!(!left_first("7 - 5 MOD 3"), "MOD binds as %");
        assert!(expr("5 MOD 3").contains("Modulo"));
        assert!(expr("MOD(5, 3)").contains("Function"));
        assert!(expr("7 DIV 2").contains("MyIntegerDivide"));
    }

    #[test]
    fn hex_literals_keep_their_spelling() {
        assert!(expr("0x41").contains(r#"Number("0x41""#));
        assert!(expr("X'41'").contains(r#"HexStringLiteral("41")"#));
        assert!(expr("x'41'").contains(r#"HexStringLiteral("41")"#));
        // Found by position on later lines and after wide characters.
        let stmts = parse_sql("SELECT 'é€', X'42',\n  0x43, x'44'").unwrap();
        let shown = format!("{:?}", stmts[0]);
        assert!(shown.contains(r#"HexStringLiteral("42")"#), "{shown}");
        assert!(shown.contains(r#"Number("0x43""#), "{shown}");
        assert!(shown.contains(r#"HexStringLiteral("44")"#), "{shown}");
    }
}
