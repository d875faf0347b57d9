//! Statements the SQL parser does not know, read by hand: CHECK TABLE,
//! ANALYZE TABLE (several tables),
//! SHOW ENGINE ... STATUS, PREPARE ... FROM, DROP PREPARE, START TRANSACTION
//! with its modes, LOCK and UNLOCK TABLES, ALTER TABLE ... DISABLE/ENABLE
//! KEYS, SHOW TABLE STATUS, SHOW CREATE DATABASE, SHOW of the objects
//! lineardb does not have, and the account
//! statements ([`accounts`](crate::parser::accounts)).
use crate::catalog::table_locks::LockMode;
use crate::error::Result;
use crate::parser::accounts::{
    looks_like_account_statement, parse_account_statement, AccountStatement,
};
use crate::parser::load_data::{looks_like_load_data, parse_load_data, LoadData};
use crate::parser::select_export::{looks_like_select_export, parse_select_export, SelectExport};
use crate::parser::signal::{looks_like_signal, parse_signal, Signal};
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
    /// START TRANSACTION with WITH CONSISTENT SNAPSHOT, READ ONLY or READ
    /// WRITE (sqlparser has no CONSISTENT SNAPSHOT).
    StartTransaction {
        consistent_snapshot: bool,
        read_only: bool,
    },
    /// LOCK TABLES: each table's name (`[db, name]` or `[name]`) and mode.
    LockTables(Vec<(Vec<String>, LockMode)>),
    UnlockTables,
    /// `FLUSH TABLE [names] [WITH READ LOCK | FOR EXPORT]` (the singular
    /// form; FLUSH TABLES is the SQL parser's).
    FlushTable {
        tables: Vec<Vec<String>>,
        read_lock: bool,
    },
    /// SELECT … INTO OUTFILE or DUMPFILE.
    SelectExport(Box<SelectExport>),
    /// ALTER TABLE name {DISABLE | ENABLE} KEYS (dumps write them around
    /// a table's rows).
    KeysSwitch(Vec<String>),
    /// ALTER TABLE with table options (COMMENT, ENGINE, [DEFAULT]
    /// CHARACTER SET, COLLATE, ROW_FORMAT…) or CONVERT TO CHARACTER SET,
    /// alone or among column changes.
    AlterTable(Box<crate::parser::alter_items::MixedAlter>),
    /// SHOW of objects lineardb does not have, with any LIKE or WHERE.
    ShowUnmade(Unmade),
    /// SHOW TABLE STATUS [{FROM | IN} db] [LIKE … | WHERE …] (read as SHOW
    /// TABLES, whose options it has).
    ShowTableStatus(Box<sqlparser::ast::ShowStatementOptions>),
    /// SHOW OPEN TABLES [{FROM | IN} db] [LIKE … | WHERE …] (read as SHOW
    /// TABLES, whose options it has).
    ShowOpenTables(Box<sqlparser::ast::ShowStatementOptions>),
    /// SHOW {INDEX | INDEXES | KEYS} {FROM | IN} t [{FROM | IN} db] [WHERE
    /// …] (read as SHOW COLUMNS, whose options it has).
    ShowIndex(Box<sqlparser::ast::ShowStatementOptions>),
    /// DO expr [, expr …]: the expressions evaluated, their values dropped.
    Do(String),
    /// SIGNAL or RESIGNAL ([`signal`](crate::parser::signal)).
    Signal(Signal),
    /// SET STATEMENT var = value [, …] FOR statement (MariaDB's): the
    /// statement run with the session's variables set so for it alone.
    SetStatement {
        assignments: String,
        statement: String,
    },
    /// SHOW CREATE {DATABASE | SCHEMA} [IF NOT EXISTS] name.
    ShowCreateDatabase {
        name: String,
        if_not_exists: bool,
    },
    /// LOAD DATA [LOCAL] INFILE ([`load_data`](crate::parser::load_data)).
    LoadData(Box<LoadData>),
}

/// Kinds of objects lineardb does not have (yet), which dump tools list.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Unmade {
    Triggers,
    Events,
    /// Procedures, functions and packages.
    Routines,
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
    let Some(a) = words.next() else {
        return false;
    };
    if looks_like_signal(a) {
        return true;
    }
    let Some(b) = words.next() else {
        return false;
    };
    let is = |x: &str, y: &str| a.eq_ignore_ascii_case(x) && b.eq_ignore_ascii_case(y);
    is("CHECK", "TABLE")
        || a.eq_ignore_ascii_case("DO")
        || is("ANALYZE", "TABLE")
        || is("ANALYZE", "NO_WRITE_TO_BINLOG")
        || is("ANALYZE", "LOCAL")
        || is("SHOW", "ENGINE")
        || is("DROP", "PREPARE")
        || a.eq_ignore_ascii_case("PREPARE")
        || looks_like_account_statement(a, b)
        || looks_like_load_data(a, b)
        || looks_like_select_export(a, sql)
        || looks_like_view_ddl(a, b)
        || is("START", "TRANSACTION")
        || is("SET", "STATEMENT")
        || is("ALTER", "TABLE")
        || is("FLUSH", "TABLE")
        || is("SHOW", "TRIGGERS")
        || is("SHOW", "EVENTS")
        || is("SHOW", "PROCEDURE")
        || is("SHOW", "FUNCTION")
        || is("SHOW", "PACKAGE")
        || is("SHOW", "TABLE")
        || is("SHOW", "OPEN")
        || is("SHOW", "INDEX")
        || is("SHOW", "INDEXES")
        || is("SHOW", "KEYS")
        || is("SHOW", "CREATE")
        || ((a.eq_ignore_ascii_case("LOCK") || a.eq_ignore_ascii_case("UNLOCK"))
            && (b.eq_ignore_ascii_case("TABLES") || b.eq_ignore_ascii_case("TABLE")))
}

/// SET STATEMENT's assignments and statement: the text between STATEMENT
/// and the first FOR outside parentheses, and the text after it.
fn set_statement(sql: &str) -> Option<Result<Admin>> {
    use sqlparser::keywords::Keyword;
    use sqlparser::tokenizer::{Token, Tokenizer};
    let tokens = Tokenizer::new(&crate::parser::dialect::MariaDb, sql)
        .tokenize()
        .ok()?;
    let mut words = tokens
        .iter()
        .enumerate()
        .filter(|(_, t)| !matches!(t, Token::Whitespace(_)));
    let is = |t: &Token, k: Keyword| matches!(t, Token::Word(w) if w.keyword == k);
    match (words.next(), words.next()) {
        (Some((_, set)), Some((at, statement)))
            if is(set, Keyword::SET) && is(statement, Keyword::STATEMENT) =>
        {
            let mut depth = 0i32;
            let text = |from: usize, to: usize| {
                tokens[from..to]
                    .iter()
                    .map(Token::to_string)
                    .collect::<String>()
                    .trim()
                    .trim_end_matches(';')
                    .trim()
                    .to_string()
            };
            for (i, t) in tokens.iter().enumerate().skip(at + 1) {
                match t {
                    Token::LParen => depth += 1,
                    Token::RParen => depth -= 1,
                    t if depth == 0 && is(t, Keyword::FOR) => {
                        let assignments = text(at + 1, i);
                        let statement = text(i + 1, tokens.len());
                        if assignments.is_empty() || statement.is_empty() {
                            break;
                        }
                        return Some(Ok(Admin::SetStatement {
                            assignments,
                            statement,
                        }));
                    }
                    _ => {}
                }
            }
            // No FOR: MariaDB stops at the end of the text.
            Some(Err(crate::error::SqlError::syntax_near("")))
        }
        _ => None,
    }
}

/// Reads one of the hand-parsed statements: `None` if `sql` is not one,
/// an error if it is one written wrong.
pub(crate) fn parse_admin(sql: &str) -> Option<Result<Admin>> {
    // Dumps write these inside executable comments.
    let stripped = crate::parser::strip_conditional_comments(sql);
    let sql = stripped.trim_start();
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
    if let Some(r) = parse_signal(sql) {
        return Some(r.map(Admin::Signal));
    }
    if let Some(r) = parse_load_data(sql) {
        return Some(r.map(|l| Admin::LoadData(Box::new(l))));
    }
    if let Some(r) = parse_select_export(sql) {
        return Some(r.map(|e| Admin::SelectExport(Box::new(e))));
    }
    // DO's expressions are read as a SELECT's (after a space or `(`).
    if sql.len() > 2
        && sql[..2].eq_ignore_ascii_case("DO")
        && sql[2..].starts_with(|c: char| c.is_whitespace() || c == '(')
    {
        return Some(Ok(Admin::Do(
            sql[2..].trim().trim_end_matches(';').to_string(),
        )));
    }
    if let Some(r) = set_statement(sql) {
        return Some(r);
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
    } else if r.keywords(&["SHOW", "TABLE", "STATUS"]) {
        return Some(tables_options(sql).map(Admin::ShowTableStatus));
    } else if r.keywords(&["SHOW", "OPEN", "TABLES"]) {
        return Some(tables_options(sql).map(Admin::ShowOpenTables));
    } else if r.keywords(&["SHOW", "INDEX"])
        || r.keywords(&["SHOW", "INDEXES"])
        || r.keywords(&["SHOW", "KEYS"])
    {
        return Some(index_options(sql).map(Admin::ShowIndex));
    } else if r.keywords(&["SHOW", "CREATE", "DATABASE"])
        || r.keywords(&["SHOW", "CREATE", "SCHEMA"])
    {
        let if_not_exists = r.keywords(&["IF", "NOT", "EXISTS"]);
        Admin::ShowCreateDatabase {
            name: r.name()?,
            if_not_exists,
        }
    } else if r.keywords(&["SHOW", "TRIGGERS"]) {
        return Some(Ok(Admin::ShowUnmade(Unmade::Triggers)));
    } else if r.keywords(&["SHOW", "EVENTS"]) {
        return Some(Ok(Admin::ShowUnmade(Unmade::Events)));
    } else if r.keywords(&["SHOW", "PROCEDURE", "STATUS"])
        || r.keywords(&["SHOW", "FUNCTION", "STATUS"])
        || r.keywords(&["SHOW", "PACKAGE", "STATUS"])
        || r.keywords(&["SHOW", "PACKAGE", "BODY", "STATUS"])
    {
        return Some(Ok(Admin::ShowUnmade(Unmade::Routines)));
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
    } else if r.keywords(&["START", "TRANSACTION"]) {
        return start_transaction(sql);
    } else if r.keywords(&["LOCK", "TABLES"]) || r.keywords(&["LOCK", "TABLE"]) {
        return Some(lock_tables(sql));
    } else if r.keywords(&["UNLOCK", "TABLES"]) || r.keywords(&["UNLOCK", "TABLE"]) {
        Admin::UnlockTables
    } else if r.keywords(&["FLUSH", "TABLE"]) {
        let mut tables = Vec::new();
        while r
            .peek_word()
            .is_some_and(|w| !w.eq_ignore_ascii_case("WITH") && !w.eq_ignore_ascii_case("FOR"))
        {
            let mut parts = vec![r.name()?];
            if r.punct('.') {
                parts.push(r.name()?);
            }
            tables.push(parts);
            if !r.punct(',') {
                break;
            }
        }
        let read_lock = r.keywords(&["WITH", "READ", "LOCK"])
            || (!tables.is_empty() && r.keywords(&["FOR", "EXPORT"]));
        if !r.done() {
            return Some(Err(crate::error::SqlError::syntax_near(r.rest_text())));
        }
        Admin::FlushTable { tables, read_lock }
    } else if r.keywords(&["ALTER", "TABLE"]) {
        let mut parts = vec![r.name()?];
        if r.punct('.') {
            parts.push(r.name()?);
        }
        if let Some(read) = crate::parser::alter_items::read_alter(sql, parts.clone()) {
            return Some(read.map(|m| Admin::AlterTable(Box::new(m))));
        }
        if !(r.keywords(&["DISABLE", "KEYS"]) || r.keywords(&["ENABLE", "KEYS"])) {
            return None;
        }
        Admin::KeysSwitch(parts)
    } else {
        return None;
    };
    r.done().then_some(Ok(stmt))
}

/// `START TRANSACTION mode, …` with the modes MariaDB has: WITH
/// CONSISTENT SNAPSHOT, READ ONLY, READ WRITE (in executable comments, as
/// dump tools write them). `None` for a form left to the SQL parser.
fn start_transaction(sql: &str) -> Option<Result<Admin>> {
    let text = crate::parser::strip_conditional_comments(sql);
    let mut r = Reader::of(&text)?;
    if !r.keywords(&["START", "TRANSACTION"]) {
        return None;
    }
    let (mut consistent_snapshot, mut read_only, mut read_write) = (false, false, false);
    let mut modes = 0;
    while !r.done() {
        if modes > 0 && !r.punct(',') {
            return None;
        }
        if r.keywords(&["WITH", "CONSISTENT", "SNAPSHOT"]) {
            consistent_snapshot = true;
        } else if r.keywords(&["READ", "ONLY"]) {
            read_only = true;
        } else if r.keywords(&["READ", "WRITE"]) {
            read_write = true;
        } else {
            return None;
        }
        modes += 1;
    }
    if read_only && read_write {
        return Some(Err(crate::error::SqlError::syntax_near("")));
    }
    (modes > 0).then_some(Ok(Admin::StartTransaction {
        consistent_snapshot,
        read_only,
    }))
}

/// `LOCK TABLE[S] name [[AS] alias] {READ [LOCAL] | [LOW_PRIORITY] WRITE
/// [CONCURRENT]}, …` (LOCAL and CONCURRENT in executable comments, as dump
/// tools write them). An alias names the same table.
fn lock_tables(sql: &str) -> Result<Admin> {
    let text = crate::parser::strip_conditional_comments(sql);
    let wrong = |r: &Reader| crate::error::SqlError::syntax_near(r.rest_text());
    let mut r = Reader::of(&text).ok_or_else(|| crate::error::SqlError::syntax_near(""))?;
    if !(r.keywords(&["LOCK", "TABLES"]) || r.keywords(&["LOCK", "TABLE"])) {
        return Err(wrong(&r));
    }
    let mut tables = Vec::new();
    loop {
        let mut parts = vec![r.name().ok_or_else(|| wrong(&r))?];
        if r.punct('.') {
            parts.push(r.name().ok_or_else(|| wrong(&r))?);
        }
        let is_mode = |r: &Reader| {
            r.peek_word().is_some_and(|w| {
                ["READ", "WRITE", "LOW_PRIORITY"]
                    .iter()
                    .any(|m| w.eq_ignore_ascii_case(m))
            })
        };
        if r.keyword("AS") || !is_mode(&r) {
            r.name().ok_or_else(|| wrong(&r))?;
        }
        let mode = if r.keyword("READ") {
            let _ = r.keyword("LOCAL");
            LockMode::Read
        } else {
            let _ = r.keyword("LOW_PRIORITY");
            if !r.keyword("WRITE") {
                return Err(wrong(&r));
            }
            let _ = r.keyword("CONCURRENT");
            LockMode::Write
        };
        tables.push((parts, mode));
        if !r.punct(',') {
            break;
        }
    }
    if !r.done() {
        return Err(wrong(&r));
    }
    Ok(Admin::LockTables(tables))
}

/// The options of SHOW TABLE STATUS and SHOW OPEN TABLES, SHOW TABLES'
/// (the database, LIKE, WHERE), read by the SQL parser as that statement.
fn tables_options(sql: &str) -> Result<Box<sqlparser::ast::ShowStatementOptions>> {
    let rest = after_words(sql, 3);
    match crate::parser::dialect::parse_sql(&format!("SHOW TABLES {rest}"))?.pop() {
        Some(sqlparser::ast::Statement::ShowTables { show_options, .. }) => {
            Ok(Box::new(show_options))
        }
        _ => Err(crate::error::SqlError::syntax_near(rest)),
    }
}

/// The options of SHOW INDEX: SHOW COLUMNS' (the table, its database,
/// WHERE; LIKE is a syntax error, as in MariaDB), read by the SQL parser
/// as that statement.
fn index_options(sql: &str) -> Result<Box<sqlparser::ast::ShowStatementOptions>> {
    use sqlparser::ast::{ShowStatementFilter, ShowStatementFilterPosition, Statement};
    let rest = after_words(sql, 2);
    match crate::parser::dialect::parse_sql(&format!("SHOW COLUMNS {rest}"))?.pop() {
        Some(Statement::ShowColumns { show_options, .. }) => {
            if let Some(
                ShowStatementFilterPosition::Suffix(ShowStatementFilter::Like(pattern))
                | ShowStatementFilterPosition::Infix(ShowStatementFilter::Like(pattern)),
            ) = &show_options.filter_position
            {
                return Err(crate::error::SqlError::syntax_near(format!(
                    "LIKE '{pattern}'"
                )));
            }
            Ok(Box::new(show_options))
        }
        _ => Err(crate::error::SqlError::syntax_near(rest)),
    }
}

/// `sql` after its first `n` words.
fn after_words(sql: &str, n: usize) -> &str {
    let mut rest = sql.trim_start();
    for _ in 0..n {
        let end = rest.find(char::is_whitespace).unwrap_or(rest.len());
        rest = rest[end..].trim_start();
    }
    rest
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
