//! `UPDATE t1, t2 SET ...`: MySQL's comma-separated table list, which the
//! SQL parser lacks (it reads one table with its joins). The tables after
//! the first are held in the statement's `from` (as `BeforeSet`); the
//! parser's own `UPDATE ... FROM` (PostgreSQL's form) is a syntax error in
//! MariaDB and refused before this reading is tried.
use sqlparser::ast;
use sqlparser::keywords::Keyword;
use sqlparser::parser::{Parser, ParserError};
use sqlparser::tokenizer::Token;

/// `sql` read as an UPDATE of a comma-separated table list; `None` when it
/// is not one (the caller reports its own parse error then).
pub(super) fn parse(sql: &str) -> Option<ast::Statement> {
    read(sql).ok().flatten()
}

fn read(sql: &str) -> Result<Option<ast::Statement>, ParserError> {
    let mut p = crate::parser::dialect::parser(sql)?;
    if !p.parse_keyword(Keyword::UPDATE) {
        return Ok(None);
    }
    let table = p.parse_table_and_joins()?;
    let mut rest = Vec::new();
    while p.consume_token(&Token::Comma) {
        rest.push(p.parse_table_and_joins()?);
    }
    if rest.is_empty() {
        return Ok(None);
    }
    p.expect_keyword_is(Keyword::SET)?;
    let assignments = p.parse_comma_separated(Parser::parse_assignment)?;
    let selection = if p.parse_keyword(Keyword::WHERE) {
        Some(p.parse_expr()?)
    } else {
        None
    };
    let order_by = if p.parse_keywords(&[Keyword::ORDER, Keyword::BY]) {
        p.parse_comma_separated(Parser::parse_order_by_expr)?
    } else {
        Vec::new()
    };
    let limit = if p.parse_keyword(Keyword::LIMIT) {
        Some(p.parse_expr()?)
    } else {
        None
    };
    while p.consume_token(&Token::SemiColon) {}
    if p.peek_token().token != Token::EOF {
        return Ok(None);
    }
    Ok(Some(ast::Statement::Update(ast::Update {
        update_token: ast::helpers::attached_token::AttachedToken::empty(),
        optimizer_hints: Vec::new(),
        table,
        assignments,
        from: Some(ast::UpdateTableFromKind::BeforeSet(rest)),
        selection,
        returning: None,
        output: None,
        or: None,
        order_by,
        limit,
    })))
}

#[cfg(test)]
mod tests {
    use super::parse;
    use sqlparser::ast;

    #[test]
    fn comma_list_is_read_into_from() {
        let Some(ast::Statement::Update(u)) =
            parse("UPDATE t1, t2 AS b SET t1.a = b.x WHERE t1.id = b.id")
        else {
            panic!("not read");
        };
        let Some(ast::UpdateTableFromKind::BeforeSet(rest)) = &u.from else {
            panic!("no tables after the first");
        };
        assert_eq!(rest.len(), 1);
        assert!(u.selection.is_some());
    }

    #[test]
    fn single_table_and_trailing_text_are_not_read() {
        assert!(parse("UPDATE t1 SET a = 1").is_none());
        assert!(parse("UPDATE t1, t2 SET a = 1 garbage").is_none());
    }
}
