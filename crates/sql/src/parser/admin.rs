//! Statements the SQL parser does not know, read by hand: CHECK TABLE,
//! ANALYZE TABLE (several tables),
//! SHOW ENGINE ... STATUS, PREPARE ... FROM, DROP PREPARE, and the account
//! statements ([`accounts`](crate::parser::accounts)).
use crate::error::Result;
use crate::parser::accounts::{
    looks_like_account_statement, parse_account_statement, AccountStatement,
};
use crate::parser::view_ddl::{looks_like_view_ddl, parse_view_ddl, ViewDdl};

#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Admin {
    CheckTable(Vec<Vec<String>>),
    AnalyzeTable(Vec<Vec<String>>),
    /// SHOW ENGINE <name> STATUS.
    ShowEngineStatus(String),
    Account(AccountStatement),
    /// PREPARE <name> FROM <text>.
    Prepare {
        name: String,
        text: PreparedText,
    },
    /// DROP PREPARE <name> (DEALLOCATE PREPARE, which the SQL parser reads,
    /// comes to the same).
    DropPrepare(String),
    /// CREATE or ALTER VIEW ([`view_ddl`](crate::parser::view_ddl)).
    View(Box<ViewDdl>),
}

/// Where PREPARE takes its statement's text from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum PreparedText {
    Literal(String),
    /// A user variable (`@name`).
    Variable(String),
}

use crate::parser::tokens::Reader;

/// Whether `sql` begins like one of the hand-parsed statements (a cheap
/// test on the first two words, so other statements skip the lexer).
fn looks_admin(sql: &str) -> bool {
    let mut words = sql
        .split(|c: char| {
            c.is_whitespace() || c == '\'' || c == '`' || c == '(' || c == ',' || c == '='
        })
        .filter(|w| !w.is_empty());
    let (Some(a), Some(b)) = (words.next(), words.next()) else {
        return false;
    };
    let is = |x: &str, y: &str| a.eq_ignore_ascii_case(x) && b.eq_ignore_ascii_case(y);
    is("CHECK", "TABLE")
        || is("ANALYZE", "TABLE")
        || is("ANALYZE", "NO_WRITE_TO_BINLOG")
        || is("ANALYZE", "LOCAL")
        || is("SHOW", "ENGINE")
        || is("DROP", "PREPARE")
        || a.eq_ignore_ascii_case("PREPARE")
        || looks_like_account_statement(a, b)
        || looks_like_view_ddl(a, b)
}

/// Reads one of the hand-parsed statements: `None` if `sql` is not one,
/// an error if it is one written wrong.
pub(crate) fn parse_admin(sql: &str) -> Option<Result<Admin>> {
    if !looks_admin(sql) {
        return None;
    }
    // Before the account statements, which CREATE OR REPLACE also begins.
    if let Some(r) = parse_view_ddl(sql) {
        return Some(r.map(|v| Admin::View(Box::new(v))));
    }
    if let Some(r) = parse_account_statement(sql) {
        return Some(r.map(Admin::Account));
    }
    let mut r = Reader::of(sql)?;
    let stmt = if r.keywords(&["CHECK", "TABLE"]) {
        let tables = table_list(&mut r)?;
        // Options such as QUICK, FAST, EXTENDED change nothing here.
        while r.name().is_some() {}
        Admin::CheckTable(tables)
    } else if r.keyword("ANALYZE") {
        // Nothing is written to a binary log either way.
        let _ = r.keyword("NO_WRITE_TO_BINLOG") || r.keyword("LOCAL");
        if !r.keyword("TABLE") {
            return None;
        }
        Admin::AnalyzeTable(table_list(&mut r)?)
    } else if r.keywords(&["SHOW", "ENGINE"]) {
        let engine = r.name()?;
        if !r.keyword("STATUS") {
            return None;
        }
        Admin::ShowEngineStatus(engine)
    } else if r.keyword("PREPARE") {
        let name = r.name()?;
        if !r.keyword("FROM") {
            return Some(Err(crate::error::SqlError::syntax_near(r.rest_text())));
        }
        let text = if r.punct('@') {
            PreparedText::Variable(r.name()?)
        } else {
            match r.string() {
                Some(text) => PreparedText::Literal(text),
                None => return Some(Err(crate::error::SqlError::syntax_near(r.rest_text()))),
            }
        };
        if !r.done() {
            return Some(Err(crate::error::SqlError::syntax_near(r.rest_text())));
        }
        Admin::Prepare { name, text }
    } else if r.keywords(&["DROP", "PREPARE"]) {
        Admin::DropPrepare(r.name()?)
    } else {
        return None;
    };
    r.done().then_some(Ok(stmt))
}

/// `name[.name], …`: the tables of CHECK and ANALYZE TABLE.
fn table_list(r: &mut Reader) -> Option<Vec<Vec<String>>> {
    let mut tables = Vec::new();
    loop {
        let mut parts = vec![r.name()?];
        if r.punct('.') {
            parts.push(r.name()?);
        }
        tables.push(parts);
        if !r.punct(',') {
            return Some(tables);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog::account_name::Account;
    use crate::parser::accounts::{
        AccountOptions, Authentication, GrantLevel, PrivilegeList, UserSpec,
    };
    use crate::privileges::bits::{INSERT, SELECT, UPDATE};

    fn account(sql: &str) -> AccountStatement {
        match parse_admin(sql) {
            Some(Ok(Admin::Account(a))) => a,
            other => panic!("{sql}: {other:?}"),
        }
    }

    #[test]
    fn reads_admin_statements() {
        assert_eq!(
            parse_admin("check table a, shop.b quick;"),
            Some(Ok(Admin::CheckTable(vec![
                vec!["a".into()],
                vec!["shop".into(), "b".into()]
            ])))
        );
        assert_eq!(
            parse_admin("ANALYZE LOCAL TABLE a, shop.b"),
            Some(Ok(Admin::AnalyzeTable(vec![
                vec!["a".into()],
                vec!["shop".into(), "b".into()]
            ])))
        );
        assert_eq!(parse_admin("ANALYZE TABLE a PERSISTENT FOR ALL"), None);
        assert_eq!(parse_admin("ANALYZE SELECT 1"), None);
        assert_eq!(
            account("CREATE USER IF NOT EXISTS 'bob'@'%' IDENTIFIED BY 'p''w' ACCOUNT LOCK"),
            AccountStatement::CreateUser {
                or_replace: false,
                if_not_exists: true,
                users: vec![UserSpec {
                    account: Account::new("bob", "%"),
                    authentication: Some(Authentication::Password("p'w".into())),
                }],
                options: AccountOptions {
                    lock: Some(true),
                    require_ssl: None
                },
            }
        );
        assert_eq!(
            account("SET PASSWORD FOR bob = PASSWORD('x')"),
            AccountStatement::SetPassword {
                account: Some(Account::new("bob", "%")),
                authentication: Authentication::Password("x".into()),
            }
        );
        assert_eq!(
            account("DROP USER 'x'@'%', y"),
            AccountStatement::DropUser {
                if_exists: false,
                accounts: vec![Some(Account::new("x", "%")), Some(Account::new("y", "%"))],
            }
        );
        assert_eq!(
            account(
                "GRANT SELECT, INSERT (a, `b`), UPDATE ON shop.t TO u@localhost WITH GRANT OPTION"
            ),
            AccountStatement::Grant {
                privileges: PrivilegeList {
                    all: false,
                    bits: SELECT | UPDATE,
                    columns: vec![(INSERT, vec!["a".into(), "b".into()])],
                    grant_option: true,
                },
                level: GrantLevel::Table(Some("shop".into()), "t".into()),
                users: vec![UserSpec {
                    account: Account::new("u", "localhost"),
                    authentication: None
                }],
                options: AccountOptions::default(),
            }
        );
        assert_eq!(
            account("REVOKE ALL PRIVILEGES, GRANT OPTION FROM u"),
            AccountStatement::RevokeAll(vec![Some(Account::new("u", "%"))])
        );
        assert!(matches!(
            account("grant all on *.* to u"),
            AccountStatement::Grant {
                level: GrantLevel::Global,
                ..
            }
        ));
        assert_eq!(
            account("show grants for current_user()"),
            AccountStatement::ShowGrants(None)
        );
        assert_eq!(
            parse_admin("GRANT r1 TO bob").unwrap().unwrap_err().code,
            1235
        );
        assert_eq!(
            parse_admin("GRANT SELECT ON TO bob")
                .unwrap()
                .unwrap_err()
                .code,
            1064
        );
        assert_eq!(parse_admin("SELECT 1"), None);
        assert_eq!(
            parse_admin("PREPARE s FROM 'SELECT ''a'', ?'"),
            Some(Ok(Admin::Prepare {
                name: "s".into(),
                text: PreparedText::Literal("SELECT 'a', ?".into())
            }))
        );
        assert_eq!(
            parse_admin("prepare `s` from @q;"),
            Some(Ok(Admin::Prepare {
                name: "s".into(),
                text: PreparedText::Variable("q".into())
            }))
        );
        assert_eq!(
            parse_admin("DROP PREPARE s"),
            Some(Ok(Admin::DropPrepare("s".into())))
        );
        assert_eq!(
            parse_admin("PREPARE s FROM 'a' b")
                .unwrap()
                .unwrap_err()
                .code,
            1064
        );
    }
}
