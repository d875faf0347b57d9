//! Account statements, read by hand as MariaDB writes them: CREATE / ALTER
//! / DROP / RENAME USER, SET PASSWORD, GRANT, REVOKE, SHOW GRANTS, SHOW
//! CREATE USER. Roles are refused with 1235.
use crate::catalog::account_name::Account;
use crate::error::{Result, SqlError};
use crate::parser::tokens::Reader;
use crate::privileges::bits;

/// How an account proves who it is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Authentication {
    /// IDENTIFIED BY 'password' (hashed before it is kept).
    Password(String),
    /// IDENTIFIED BY PASSWORD '*hash', or a plugin's AS 'string'.
    Hash(String),
    /// IDENTIFIED VIA|WITH plugin [USING|AS ...].
    Plugin { name: String, hash: Option<String> },
}

/// An account and, optionally, how it authenticates.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct UserSpec {
    pub account: Account,
    pub authentication: Option<Authentication>,
}

/// ACCOUNT LOCK/UNLOCK and REQUIRE NONE/SSL, when given.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct AccountOptions {
    pub lock: Option<bool>,
    pub require_ssl: Option<bool>,
}

/// What a GRANT or REVOKE names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum GrantLevel {
    /// `*.*`
    Global,
    /// `db.*` (`*` alone: the current database's, filled in later).
    Database(Option<String>),
    /// `[db.]table`
    Table(Option<String>, String),
}

/// Privileges of a GRANT/REVOKE: table-wide bits (ALL is every bit the
/// level takes), column lists, and GRANT OPTION.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct PrivilegeList {
    pub all: bool,
    pub bits: u64,
    pub columns: Vec<(u64, Vec<String>)>,
    pub grant_option: bool,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum AccountStatement {
    CreateUser {
        or_replace: bool,
        if_not_exists: bool,
        users: Vec<UserSpec>,
        options: AccountOptions,
    },
    AlterUser {
        if_exists: bool,
        users: Vec<UserSpec>,
        options: AccountOptions,
    },
    DropUser {
        if_exists: bool,
        accounts: Vec<Option<Account>>,
    },
    RenameUser(Vec<(Account, Account)>),
    /// `None`: the session's own account.
    SetPassword {
        account: Option<Account>,
        authentication: Authentication,
    },
    Grant {
        privileges: PrivilegeList,
        level: GrantLevel,
        users: Vec<UserSpec>,
        options: AccountOptions,
    },
    Revoke {
        privileges: PrivilegeList,
        level: GrantLevel,
        accounts: Vec<Option<Account>>,
    },
    /// REVOKE ALL PRIVILEGES, GRANT OPTION FROM ...
    RevokeAll(Vec<Option<Account>>),
    /// `None`: CURRENT_USER.
    ShowGrants(Option<Account>),
    ShowCreateUser(Option<Account>),
}

/// Whether `sql` starts like an account statement (the first two words).
pub(crate) fn looks_like_account_statement(a: &str, b: &str) -> bool {
    let is = |x: &str, y: &str| a.eq_ignore_ascii_case(x) && b.eq_ignore_ascii_case(y);
    a.eq_ignore_ascii_case("GRANT")
        || a.eq_ignore_ascii_case("REVOKE")
        || is("CREATE", "USER")
        || is("CREATE", "OR")
        || is("ALTER", "USER")
        || is("DROP", "USER")
        || is("RENAME", "USER")
        || is("SET", "PASSWORD")
        || is("SHOW", "GRANTS")
        || is("SHOW", "CREATE")
        || is("CREATE", "ROLE")
        || is("DROP", "ROLE")
        || is("SET", "ROLE")
        || is("SET", "DEFAULT")
}

fn syntax(near: &str) -> SqlError {
    SqlError::syntax(format!(
        "You have an error in your SQL syntax; check the manual that corresponds to your MariaDB server version for the right syntax to use near '{near}'"
    ))
}

/// `user[@host]` or CURRENT_USER[()] (`None`).
fn account_or_current(r: &mut Reader) -> Option<Option<Account>> {
    if r.keyword("CURRENT_USER") {
        if r.punct('(') && !r.punct(')') {
            return None;
        }
        return Some(None);
    }
    r.account().map(Some)
}

fn accounts(r: &mut Reader) -> Option<Vec<Option<Account>>> {
    let mut list = vec![account_or_current(r)?];
    while r.punct(',') {
        list.push(account_or_current(r)?);
    }
    Some(list)
}

fn authentication(r: &mut Reader) -> Option<Option<Authentication>> {
    if !r.keyword("IDENTIFIED") {
        return Some(None);
    }
    if r.keyword("BY") {
        if r.keyword("PASSWORD") {
            return Some(Some(Authentication::Hash(r.string()?)));
        }
        return Some(Some(Authentication::Password(r.string()?)));
    }
    if !(r.keyword("VIA") || r.keyword("WITH")) {
        return None;
    }
    let name = r.name()?.to_ascii_lowercase();
    let hash = if r.keyword("USING") || r.keyword("AS") {
        if r.keyword("PASSWORD") {
            if !r.punct('(') {
                return None;
            }
            let password = r.string()?;
            if !r.punct(')') {
                return None;
            }
            return Some(Some(if name == "mysql_native_password" {
                Authentication::Password(password)
            } else {
                Authentication::Plugin { name, hash: None }
            }));
        }
        let text = r.string()?;
        if name == "mysql_native_password" {
            return Some(Some(Authentication::Hash(text)));
        }
        Some(text)
    } else {
        None
    };
    Some(Some(Authentication::Plugin { name, hash }))
}

fn user_specs(r: &mut Reader) -> Option<Vec<UserSpec>> {
    let mut list = Vec::new();
    loop {
        let account = r.account()?;
        let authentication = authentication(r)?;
        list.push(UserSpec {
            account,
            authentication,
        });
        if !r.punct(',') {
            return Some(list);
        }
    }
}

/// REQUIRE ..., WITH resource limits, ACCOUNT LOCK|UNLOCK, PASSWORD EXPIRE
/// ...: the first two kinds are kept, limits and expiry are refused.
fn options(r: &mut Reader, statement: &str) -> Result<AccountOptions> {
    let mut o = AccountOptions::default();
    loop {
        if r.keyword("REQUIRE") {
            if r.keyword("NONE") {
                o.require_ssl = Some(false);
            } else if r.keyword("SSL") {
                o.require_ssl = Some(true);
            } else {
                return Err(SqlError::unsupported(format!(
                    "REQUIRE other than NONE or SSL in {statement}"
                )));
            }
        } else if r.keywords(&["ACCOUNT", "LOCK"]) {
            o.lock = Some(true);
        } else if r.keywords(&["ACCOUNT", "UNLOCK"]) {
            o.lock = Some(false);
        } else if r.keyword("WITH") || r.keyword("PASSWORD") {
            return Err(SqlError::unsupported(format!(
                "resource limits and password expiry in {statement}"
            )));
        } else {
            return Ok(o);
        }
    }
}

/// The privilege list up to ON: `SELECT (a, b), INSERT, ALL [PRIVILEGES]`.
/// `None` when a name is not a privilege (a role, for GRANT role TO).
fn privileges(r: &mut Reader) -> Option<std::result::Result<PrivilegeList, String>> {
    let mut list = PrivilegeList::default();
    loop {
        let mut words = Vec::new();
        while let Some(w) = r.peek_word() {
            if w.eq_ignore_ascii_case("ON") || (w.eq_ignore_ascii_case("FROM") && !words.is_empty())
            {
                break;
            }
            words.push(w.to_ascii_uppercase());
            r.at += 1;
        }
        let name = words.join(" ");
        match name.as_str() {
            "ALL" | "ALL PRIVILEGES" => list.all = true,
            "USAGE" => {}
            "GRANT OPTION" => list.grant_option = true,
            "" => return None,
            _ => {
                let Some(bit) = bits::bit_of(&name) else {
                    return Some(Err(name));
                };
                if r.punct('(') {
                    let mut columns = Vec::new();
                    loop {
                        columns.push(r.name()?);
                        if !r.punct(',') {
                            break;
                        }
                    }
                    if !r.punct(')') {
                        return None;
                    }
                    list.columns.push((bit, columns));
                } else {
                    list.bits |= bit;
                }
            }
        }
        if !r.punct(',') {
            return Some(Ok(list));
        }
    }
}

/// ON [TABLE] `*.*` | `*` | `db.*` | `db.table` | `table`.
fn level(r: &mut Reader) -> Result<Option<GrantLevel>> {
    if r.keyword("FUNCTION") || r.keyword("PROCEDURE") || r.keyword("PACKAGE") {
        return Err(SqlError::unsupported("privileges on stored routines"));
    }
    r.keyword("TABLE");
    if r.punct('*') {
        if r.punct('.') {
            if !r.punct('*') {
                return Ok(None);
            }
            return Ok(Some(GrantLevel::Global));
        }
        return Ok(Some(GrantLevel::Database(None)));
    }
    let Some(first) = r.name() else {
        return Ok(None);
    };
    if r.punct('.') {
        if r.punct('*') {
            return Ok(Some(GrantLevel::Database(Some(first))));
        }
        let Some(table) = r.name() else {
            return Ok(None);
        };
        return Ok(Some(GrantLevel::Table(Some(first), table)));
    }
    Ok(Some(GrantLevel::Table(None, first)))
}

/// Reads an account statement; `None` if `sql` is not one.
pub(crate) fn parse_account_statement(sql: &str) -> Option<Result<AccountStatement>> {
    let mut r = Reader::of(sql)?;
    let near = |r: &Reader| r.rest_text();
    let statement = if r.keywords(&["CREATE", "ROLE"])
        || r.keywords(&["DROP", "ROLE"])
        || r.keywords(&["SET", "ROLE"])
        || r.keywords(&["SET", "DEFAULT", "ROLE"])
    {
        return Some(Err(SqlError::unsupported("roles")));
    } else if r.keywords(&["CREATE", "OR", "REPLACE", "USER"]) || r.keywords(&["CREATE", "USER"]) {
        let or_replace = r.tokens.len() > 2 && r.at == 4;
        let if_not_exists = r.keywords(&["IF", "NOT", "EXISTS"]);
        let Some(users) = user_specs(&mut r) else {
            return Some(Err(syntax(&near(&r))));
        };
        let options = match options(&mut r, "CREATE USER") {
            Ok(o) => o,
            Err(e) => return Some(Err(e)),
        };
        AccountStatement::CreateUser {
            or_replace,
            if_not_exists,
            users,
            options,
        }
    } else if r.keywords(&["CREATE", "OR"]) {
        return None;
    } else if r.keywords(&["ALTER", "USER"]) {
        let if_exists = r.keywords(&["IF", "EXISTS"]);
        let Some(users) = user_specs(&mut r) else {
            return Some(Err(syntax(&near(&r))));
        };
        let options = match options(&mut r, "ALTER USER") {
            Ok(o) => o,
            Err(e) => return Some(Err(e)),
        };
        AccountStatement::AlterUser {
            if_exists,
            users,
            options,
        }
    } else if r.keywords(&["DROP", "USER"]) {
        let if_exists = r.keywords(&["IF", "EXISTS"]);
        let Some(accounts) = accounts(&mut r) else {
            return Some(Err(syntax(&near(&r))));
        };
        AccountStatement::DropUser {
            if_exists,
            accounts,
        }
    } else if r.keywords(&["RENAME", "USER"]) {
        let mut pairs = Vec::new();
        loop {
            let (Some(from), true, Some(to)) = (r.account(), r.keyword("TO"), r.account()) else {
                return Some(Err(syntax(&near(&r))));
            };
            pairs.push((from, to));
            if !r.punct(',') {
                break;
            }
        }
        AccountStatement::RenameUser(pairs)
    } else if r.keywords(&["SET", "PASSWORD"]) {
        let account = if r.keyword("FOR") {
            match account_or_current(&mut r) {
                Some(a) => a,
                None => return Some(Err(syntax(&near(&r)))),
            }
        } else {
            None
        };
        if !r.punct('=') {
            return Some(Err(syntax(&near(&r))));
        }
        let authentication = if r.keyword("PASSWORD") {
            match (r.punct('('), r.string(), r.punct(')')) {
                (true, Some(p), true) => Authentication::Password(p),
                _ => return Some(Err(syntax(&near(&r)))),
            }
        } else {
            match r.string() {
                Some(h) => Authentication::Hash(h),
                None => return Some(Err(syntax(&near(&r)))),
            }
        };
        AccountStatement::SetPassword {
            account,
            authentication,
        }
    } else if r.keyword("GRANT") || r.keyword("REVOKE") {
        let grant = matches!(&r.tokens[0], crate::parser::tokens::Token::Word(w) if w.eq_ignore_ascii_case("GRANT"));
        let privileges = match privileges(&mut r) {
            Some(Ok(p)) => p,
            Some(Err(name)) if !r.peek_word().is_some_and(|w| w.eq_ignore_ascii_case("ON")) => {
                let _ = name;
                return Some(Err(SqlError::unsupported("roles")));
            }
            Some(Err(name)) => {
                return Some(Err(syntax(&name)));
            }
            None => return Some(Err(syntax(&near(&r)))),
        };
        if !grant && privileges.all && privileges.grant_option && r.keyword("FROM") {
            let Some(accounts) = accounts(&mut r) else {
                return Some(Err(syntax(&near(&r))));
            };
            return Some(
                r.done()
                    .then_some(AccountStatement::RevokeAll(accounts))
                    .ok_or_else(|| syntax(&near(&r))),
            );
        }
        if !r.keyword("ON") {
            return Some(Err(syntax(&near(&r))));
        }
        let level = match level(&mut r) {
            Ok(Some(l)) => l,
            Ok(None) => return Some(Err(syntax(&near(&r)))),
            Err(e) => return Some(Err(e)),
        };
        if grant {
            if !r.keyword("TO") {
                return Some(Err(syntax(&near(&r))));
            }
            let Some(users) = user_specs(&mut r) else {
                return Some(Err(syntax(&near(&r))));
            };
            let mut privileges = privileges;
            let mut options = AccountOptions::default();
            loop {
                if r.keywords(&["WITH", "GRANT", "OPTION"]) {
                    privileges.grant_option = true;
                } else if r
                    .peek_word()
                    .is_some_and(|w| w.eq_ignore_ascii_case("REQUIRE"))
                {
                    match self::options(&mut r, "GRANT") {
                        Ok(o) => options = o,
                        Err(e) => return Some(Err(e)),
                    }
                } else if r.keyword("WITH") {
                    return Some(Err(SqlError::unsupported("resource limits in GRANT")));
                } else {
                    break;
                }
            }
            AccountStatement::Grant {
                privileges,
                level,
                users,
                options,
            }
        } else {
            if !r.keyword("FROM") {
                return Some(Err(syntax(&near(&r))));
            }
            let Some(accounts) = accounts(&mut r) else {
                return Some(Err(syntax(&near(&r))));
            };
            AccountStatement::Revoke {
                privileges,
                level,
                accounts,
            }
        }
    } else if r.keywords(&["SHOW", "GRANTS"]) {
        let account = if r.keyword("FOR") {
            match account_or_current(&mut r) {
                Some(a) => a,
                None => return Some(Err(syntax(&near(&r)))),
            }
        } else {
            None
        };
        AccountStatement::ShowGrants(account)
    } else if r.keywords(&["SHOW", "CREATE", "USER"]) {
        let account = if r.done() {
            None
        } else {
            match account_or_current(&mut r) {
                Some(a) => a,
                None => return Some(Err(syntax(&near(&r)))),
            }
        };
        AccountStatement::ShowCreateUser(account)
    } else {
        return None;
    };
    if !r.done() {
        return Some(Err(syntax(&near(&r))));
    }
    Some(Ok(statement))
}
