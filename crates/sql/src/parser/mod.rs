//! Statement text to syntax trees: sqlparser (MySQL dialect) after MySQL's
//! executable comments, and the admin statements it lacks.
pub(crate) mod accounts;
pub(crate) mod admin;
pub(crate) mod tokens;
pub(crate) mod unsupported;

use crate::error::Result;
use sqlparser::ast;
use sqlparser::dialect::MySqlDialect;
use sqlparser::parser::Parser;

/// MySQL's conditional comments `/*! ... */` hold SQL MySQL runs: keep
/// their text, drop the markers (and a version number after `/*!`).
fn strip_conditional_comments(sql: &str) -> std::borrow::Cow<'_, str> {
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

pub(crate) fn parse(sql: &str) -> Result<Vec<ast::Statement>> {
    let sql = strip_conditional_comments(sql);
    let sql = unsupported::without_sql_cache(&sql);
    Parser::parse_sql(&MySqlDialect {}, &sql)
        .map_err(|e| unsupported::refuse_unparsed(&sql, e.into()))
}

#[cfg(test)]
mod tests {
    use super::strip_conditional_comments;

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
