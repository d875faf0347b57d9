//! `SELECT ... INTO @a, @b [FROM ...]`, which the parser reads, and the
//! older trailing form `SELECT ... FROM ... INTO @a`, which it does not:
//! there the clause is taken out of the text, the query parsed, and the
//! variables put in the query's `into` as the parser would have; the
//! statement layer runs both (statements::query).
use sqlparser::ast;
use sqlparser::tokenizer::{Token, Tokenizer};

/// The variables of an `INTO @a, @b` clause, if `into` is one.
pub(crate) fn variables(into: &ast::SelectInto) -> Option<Vec<String>> {
    if into.temporary || into.unlogged || into.table {
        return None;
    }
    into.targets
        .iter()
        .map(|p| match p {
            ast::Expr::Identifier(i)
                if i.quote_style.is_none()
                    && i.value.starts_with('@')
                    && !i.value.starts_with("@@") =>
            {
                Some(i.value[1..].to_ascii_lowercase())
            }
            _ => None,
        })
        .collect()
}

/// `sql` read with its `INTO @variables` clause; `None` when it has none.
pub(super) fn parse(sql: &str) -> Option<Vec<ast::Statement>> {
    let tokens = Tokenizer::new(&crate::parser::dialect::MariaDb, sql)
        .tokenize()
        .ok()?;
    let solid: Vec<usize> = (0..tokens.len())
        .filter(|&i| !matches!(tokens[i], Token::Whitespace(_)))
        .collect();
    let is_variable = |i: usize| {
        matches!(&tokens[i], Token::Word(w) if w.quote_style.is_none()
            && w.value.starts_with('@') && !w.value.starts_with("@@"))
    };
    let mut depth = 0usize;
    let mut clause: Option<(usize, usize, Vec<ast::Ident>)> = None;
    for (k, &i) in solid.iter().enumerate() {
        match &tokens[i] {
            Token::LParen => depth += 1,
            Token::RParen => depth = depth.saturating_sub(1),
            Token::Word(w) if depth == 0 && w.value.eq_ignore_ascii_case("INTO") => {
                let mut names = Vec::new();
                let mut last = i;
                let mut at = k + 1;
                while let Some(&v) = solid.get(at) {
                    if !is_variable(v) {
                        break;
                    }
                    if let Token::Word(w) = &tokens[v] {
                        names.push(ast::Ident::new(w.value.clone()));
                    }
                    last = v;
                    match solid.get(at + 1) {
                        Some(&c) if tokens[c] == Token::Comma => at += 2,
                        _ => break,
                    }
                }
                if names.is_empty() {
                    return None;
                }
                clause = Some((i, last, names));
                break;
            }
            _ => {}
        }
    }
    let (from, to, names) = clause?;
    let text: String = tokens
        .iter()
        .enumerate()
        .filter(|(i, _)| *i < from || *i > to)
        .map(|(_, t)| t.to_string())
        .collect();
    let mut statements = crate::parser::dialect::parse_sql(&text).ok()?;
    let [ast::Statement::Query(q)] = statements.as_mut_slice() else {
        return None;
    };
    let ast::SetExpr::Select(select) = q.body.as_mut() else {
        return None;
    };
    if select.into.is_some() {
        return None;
    }
    select.into = Some(ast::SelectInto {
        temporary: false,
        unlogged: false,
        table: false,
        targets: names.into_iter().map(ast::Expr::Identifier).collect(),
    });
    Some(statements)
}

/// Whether `sql` writes its `INTO @v` after FROM (the older form, which
/// MariaDB takes with deprecation warning 1287).
pub(crate) fn is_trailing(sql: &str) -> bool {
    let Ok(tokens) = Tokenizer::new(&crate::parser::dialect::MariaDb, sql).tokenize() else {
        return false;
    };
    let mut depth = 0usize;
    let mut from = false;
    for t in &tokens {
        match t {
            Token::LParen => depth += 1,
            Token::RParen => depth = depth.saturating_sub(1),
            Token::Word(w) if depth == 0 && w.value.eq_ignore_ascii_case("FROM") => from = true,
            Token::Word(w) if depth == 0 && w.value.eq_ignore_ascii_case("INTO") => return from,
            _ => {}
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::{is_trailing, parse, variables};
    use sqlparser::ast;

    fn into_of(sql: &str) -> Option<Vec<String>> {
        let statements = parse(sql)?;
        let ast::Statement::Query(q) = &statements[0] else {
            return None;
        };
        let ast::SetExpr::Select(s) = q.body.as_ref() else {
            return None;
        };
        variables(s.into.as_ref()?)
    }

    #[test]
    fn reads_the_variables_of_both_forms() {
        assert_eq!(
            into_of("SELECT id, v INTO @i, @W FROM u WHERE id = 2"),
            Some(vec!["i".to_string(), "w".to_string()])
        );
        assert_eq!(
            into_of("select id from u where id = (select 1) into @i"),
            Some(vec!["i".to_string()])
        );
        assert_eq!(into_of("SELECT 1 INTO OUTFILE '/tmp/x'"), None);
        assert!(is_trailing(
            "SELECT a FROM t WHERE b IN (SELECT c FROM u) INTO @x"
        ));
        assert!(!is_trailing("SELECT (SELECT 1 FROM u) INTO @x FROM t"));
    }
}
