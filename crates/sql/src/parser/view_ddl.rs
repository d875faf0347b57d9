//! CREATE [OR REPLACE] and ALTER VIEW with MariaDB's clauses around the
//! SQL parser's CREATE VIEW: `ALGORITHM=`, `DEFINER=` (an account or
//! CURRENT_USER[()]), `SQL SECURITY`, and a trailing `WITH [CASCADED |
//! LOCAL] CHECK OPTION`, which the parser does not read.
use crate::catalog::account_name::Account;
use crate::error::{Result, SqlError};
use sqlparser::ast;
use sqlparser::keywords::Keyword;
use sqlparser::parser::Parser;
use sqlparser::tokenizer::Token;

/// A view's definition statement.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct ViewDdl {
    /// ALTER VIEW (the view must exist; clauses not given are kept).
    pub alter: bool,
    pub or_replace: bool,
    pub if_not_exists: bool,
    pub name: ast::ObjectName,
    pub columns: Vec<String>,
    pub query: Box<ast::Query>,
    pub algorithm: Option<Algorithm>,
    pub definer: Option<Definer>,
    /// `Some(true)`: SQL SECURITY INVOKER.
    pub invoker: Option<bool>,
    pub check: CheckOption,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Algorithm {
    Undefined,
    Merge,
    TempTable,
}

impl Algorithm {
    pub(crate) fn name(self) -> &'static str {
        match self {
            Algorithm::Undefined => "UNDEFINED",
            Algorithm::Merge => "MERGE",
            Algorithm::TempTable => "TEMPTABLE",
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Definer {
    CurrentUser,
    Account(Account),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum CheckOption {
    None,
    Cascaded,
    Local,
}

impl CheckOption {
    /// As information_schema.VIEWS.CHECK_OPTION has it.
    pub(crate) fn name(self) -> &'static str {
        match self {
            CheckOption::None => "NONE",
            CheckOption::Cascaded => "CASCADED",
            CheckOption::Local => "LOCAL",
        }
    }
}

/// Whether `sql` begins like a view definition: CREATE or ALTER, then
/// VIEW or one of the clauses that may come before it.
pub(crate) fn looks_like_view_ddl(first: &str, second: &str) -> bool {
    (first.eq_ignore_ascii_case("CREATE") || first.eq_ignore_ascii_case("ALTER"))
        && ["VIEW", "OR", "ALGORITHM", "DEFINER", "SQL"]
            .iter()
            .any(|w| second.eq_ignore_ascii_case(w))
}

/// Reads a view definition: `None` if `sql` is another statement (CREATE
/// OR REPLACE TABLE, ...), an error if it is one written wrong.
pub(crate) fn parse_view_ddl(sql: &str) -> Option<Result<ViewDdl>> {
    let mut p = crate::parser::dialect::parser(sql).ok()?;
    let alter = if p.parse_keyword(Keyword::ALTER) {
        true
    } else if p.parse_keyword(Keyword::CREATE) {
        false
    } else {
        return None;
    };
    let or_replace = !alter && p.parse_keywords(&[Keyword::OR, Keyword::REPLACE]);
    let clauses = clauses(&mut p);
    if !matches!(&p.peek_token().token, sqlparser::tokenizer::Token::Word(w) if w.keyword == Keyword::VIEW)
    {
        // CREATE OR REPLACE TABLE and the like; a clause that is wrong
        // before VIEW is a syntax error.
        return match clauses {
            Ok((None, None, None)) => None,
            Ok(_) => Some(Err(SqlError::syntax_near(p.peek_token().to_string()))),
            Err(e) => Some(Err(e)),
        };
    }
    Some(clauses.and_then(|(algorithm, definer, invoker)| {
        let cv = p
            .parse_create_view(false, or_replace, false, None)
            .map_err(SqlError::from)?;
        let check = if p.parse_keyword(Keyword::WITH) {
            let check = if p.parse_keyword(Keyword::LOCAL) {
                CheckOption::Local
            } else {
                let _ = p.parse_keyword(Keyword::CASCADED);
                CheckOption::Cascaded
            };
            if !p.parse_keywords(&[Keyword::CHECK, Keyword::OPTION]) {
                return Err(SqlError::syntax_near(p.peek_token().to_string()));
            }
            check
        } else {
            CheckOption::None
        };
        while p.consume_token(&Token::SemiColon) {}
        if p.peek_token().token != Token::EOF {
            return Err(SqlError::syntax_near(p.peek_token().to_string()));
        }
        if foreign_clauses(&cv) || (alter && cv.if_not_exists) || (or_replace && cv.if_not_exists) {
            return Err(SqlError::syntax_near(cv.name.to_string()));
        }
        Ok(ViewDdl {
            alter,
            or_replace,
            if_not_exists: cv.if_not_exists,
            name: cv.name,
            columns: cv.columns.into_iter().map(|c| c.name.value).collect(),
            query: cv.query,
            algorithm,
            definer,
            invoker,
            check,
        })
    }))
}

impl ViewDdl {
    /// A CREATE VIEW the SQL parser read (a prepared statement's).
    pub(crate) fn of_create(cv: &ast::CreateView) -> Result<ViewDdl> {
        if foreign_clauses(cv) {
            return Err(SqlError::unsupported("this CREATE VIEW clause"));
        }
        let params = cv.params.as_ref();
        let definer = match params.and_then(|p| p.definer.as_ref()) {
            None => None,
            Some(ast::GranteeName::UserHost { user, host }) => Some(Definer::Account(Account {
                user: user.value.clone(),
                host: host.value.clone(),
            })),
            Some(ast::GranteeName::ObjectName(n)) => match n.0.as_slice() {
                [ast::ObjectNamePart::Identifier(u)]
                    if u.quote_style.is_none() && u.value.eq_ignore_ascii_case("CURRENT_USER") =>
                {
                    Some(Definer::CurrentUser)
                }
                [ast::ObjectNamePart::Identifier(u)] => Some(Definer::Account(account_of(u))),
                _ => return Err(SqlError::syntax_near(n.to_string())),
            },
        };
        Ok(ViewDdl {
            alter: false,
            or_replace: cv.or_replace,
            if_not_exists: cv.if_not_exists,
            name: cv.name.clone(),
            columns: cv.columns.iter().map(|c| c.name.value.clone()).collect(),
            query: cv.query.clone(),
            algorithm: params.and_then(|p| p.algorithm.as_ref()).map(|a| match a {
                ast::CreateViewAlgorithm::Undefined => Algorithm::Undefined,
                ast::CreateViewAlgorithm::Merge => Algorithm::Merge,
                ast::CreateViewAlgorithm::TempTable => Algorithm::TempTable,
            }),
            definer,
            invoker: params
                .and_then(|p| p.security.as_ref())
                .map(|s| matches!(s, ast::CreateViewSecurity::Invoker)),
            check: CheckOption::None,
        })
    }
}

/// A definer written as one name: `user` (any host), or `user@host`
/// unquoted, which the tokenizer reads as one word.
fn account_of(name: &ast::Ident) -> Account {
    match name.value.split_once('@') {
        Some((user, host)) if name.quote_style.is_none() => Account {
            user: user.to_string(),
            host: host.to_string(),
        },
        _ => Account {
            user: name.value.clone(),
            host: "%".into(),
        },
    }
}

/// Whether a CREATE VIEW has clauses of other dialects (MATERIALIZED,
/// SECURE, TEMPORARY, OR ALTER, TO, COMMENT, CLUSTER BY, options, typed
/// columns).
fn foreign_clauses(cv: &ast::CreateView) -> bool {
    cv.materialized
        || cv.or_alter
        || cv.secure
        || cv.temporary
        || cv.to.is_some()
        || cv.comment.is_some()
        || !cv.cluster_by.is_empty()
        || !matches!(cv.options, ast::CreateTableOptions::None)
        || cv
            .columns
            .iter()
            .any(|c| c.data_type.is_some() || c.options.is_some())
}

type Clauses = (Option<Algorithm>, Option<Definer>, Option<bool>);

/// `[ALGORITHM = …] [DEFINER = …] [SQL SECURITY …]`, in that order.
fn clauses(p: &mut Parser) -> Result<Clauses> {
    let syntax = |p: &Parser| SqlError::syntax_near(p.peek_token().to_string());
    let mut algorithm = None;
    if p.parse_keyword(Keyword::ALGORITHM) {
        if !p.consume_token(&Token::Eq) {
            return Err(syntax(p));
        }
        algorithm = Some(if p.parse_keyword(Keyword::UNDEFINED) {
            Algorithm::Undefined
        } else if p.parse_keyword(Keyword::MERGE) {
            Algorithm::Merge
        } else if p.parse_keyword(Keyword::TEMPTABLE) {
            Algorithm::TempTable
        } else {
            return Err(syntax(p));
        });
    }
    let mut definer = None;
    if p.parse_keyword(Keyword::DEFINER) {
        if !p.consume_token(&Token::Eq) {
            return Err(syntax(p));
        }
        definer = Some(if p.parse_keyword(Keyword::CURRENT_USER) {
            if p.consume_token(&Token::LParen) && !p.consume_token(&Token::RParen) {
                return Err(syntax(p));
            }
            Definer::CurrentUser
        } else {
            match p.parse_grantee_name().map_err(SqlError::from)? {
                ast::GranteeName::UserHost { user, host } => Definer::Account(Account {
                    user: user.value,
                    host: host.value,
                }),
                ast::GranteeName::ObjectName(n) => match n.0.as_slice() {
                    [ast::ObjectNamePart::Identifier(user)] => Definer::Account(account_of(user)),
                    _ => return Err(syntax(p)),
                },
            }
        });
    }
    let mut invoker = None;
    if p.parse_keywords(&[Keyword::SQL, Keyword::SECURITY]) {
        invoker = Some(if p.parse_keyword(Keyword::INVOKER) {
            true
        } else if p.parse_keyword(Keyword::DEFINER) {
            false
        } else {
            return Err(syntax(p));
        });
    }
    Ok((algorithm, definer, invoker))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn view(sql: &str) -> ViewDdl {
        parse_view_ddl(sql)
            .expect("a view statement")
            .expect("parses")
    }

    #[test]
    fn clauses_around_the_query() {
        let v = view(
            "CREATE OR REPLACE ALGORITHM=MERGE DEFINER=`root`@`localhost` SQL SECURITY INVOKER \
             VIEW v (x) AS SELECT a FROM t WITH LOCAL CHECK OPTION;",
        );
        assert!(v.or_replace && !v.alter);
        assert_eq!(v.algorithm, Some(Algorithm::Merge));
        assert_eq!(
            v.definer,
            Some(Definer::Account(Account {
                user: "root".into(),
                host: "localhost".into()
            }))
        );
        assert_eq!(v.invoker, Some(true));
        assert_eq!(v.columns, vec!["x".to_string()]);
        assert_eq!(v.check, CheckOption::Local);
        assert_eq!(v.query.to_string(), "SELECT a FROM t");

        let v = view("ALTER DEFINER=CURRENT_USER() VIEW d.v AS SELECT 1 WITH CHECK OPTION");
        assert!(v.alter);
        assert_eq!(v.definer, Some(Definer::CurrentUser));
        assert_eq!(v.check, CheckOption::Cascaded);
        assert_eq!(view("create view v as select 1").check, CheckOption::None);
        let root = Some(Definer::Account(Account {
            user: "root".into(),
            host: "localhost".into(),
        }));
        for written in ["root@localhost", "`root`@`localhost`", "'root'@'localhost'"] {
            let v = view(&format!("CREATE DEFINER={written} VIEW v AS SELECT 1"));
            assert_eq!(v.definer, root, "{written}");
        }
    }

    #[test]
    fn other_statements_and_mistakes() {
        assert!(parse_view_ddl("CREATE OR REPLACE TABLE t (a INT)").is_none());
        assert!(parse_view_ddl("ALTER TABLE t ADD b INT").is_none());
        for wrong in [
            "CREATE VIEW v AS SELECT 1 WITH CHECK",
            "CREATE VIEW v AS SELECT 1 WITH CASCADED OPTION",
            "CREATE ALGORITHM=FAST VIEW v AS SELECT 1",
            "CREATE ALGORITHM=MERGE TABLE t (a INT)",
            "CREATE VIEW v AS SELECT 1 garbage here",
            "ALTER VIEW IF NOT EXISTS v AS SELECT 1",
        ] {
            assert!(
                matches!(parse_view_ddl(wrong), Some(Err(_))),
                "{wrong} is a syntax error"
            );
        }
    }
}
