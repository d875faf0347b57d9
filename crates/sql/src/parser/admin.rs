//! Statements the SQL parser does not know, read by hand: CHECK TABLE,
//! CREATE USER, ALTER USER ... IDENTIFIED BY, SET PASSWORD.
use crate::catalog::accounts::Account;

#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Admin {
    CheckTable(Vec<Vec<String>>),
    CreateUser {
        account: Account,
        password: String,
        if_not_exists: bool,
    },
    ShowGrants(Option<Account>),
    /// ALTER USER / SET PASSWORD; `None` is the session's own account.
    SetPassword {
        account: Option<Account>,
        password: String,
    },
    /// SHOW ENGINE <name> STATUS.
    ShowEngineStatus(String),
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Token {
    Word(String),
    Quoted(String),
    Punct(char),
}

fn lex(sql: &str) -> Option<Vec<Token>> {
    let mut out = Vec::new();
    let mut chars = sql.chars().peekable();
    while let Some(&c) = chars.peek() {
        if c.is_whitespace() {
            chars.next();
        } else if c == '\'' || c == '"' || c == '`' {
            chars.next();
            let mut s = String::new();
            loop {
                match chars.next()? {
                    q if q == c => {
                        if chars.peek() == Some(&c) {
                            s.push(c);
                            chars.next();
                        } else {
                            break;
                        }
                    }
                    '\\' if c != '`' => s.push(chars.next()?),
                    ch => s.push(ch),
                }
            }
            out.push(Token::Quoted(s));
        } else if c.is_alphanumeric() || c == '_' || c == '$' || c == '%' {
            let mut s = String::new();
            while let Some(&ch) = chars.peek() {
                if ch.is_alphanumeric() || ch == '_' || ch == '$' || ch == '%' {
                    s.push(ch);
                    chars.next();
                } else {
                    break;
                }
            }
            out.push(Token::Word(s));
        } else {
            out.push(Token::Punct(c));
            chars.next();
        }
    }
    while out.last() == Some(&Token::Punct(';')) {
        out.pop();
    }
    Some(out)
}

struct Reader {
    tokens: Vec<Token>,
    at: usize,
}

impl Reader {
    fn keyword(&mut self, k: &str) -> bool {
        match self.tokens.get(self.at) {
            Some(Token::Word(w)) if w.eq_ignore_ascii_case(k) => {
                self.at += 1;
                true
            }
            _ => false,
        }
    }
    fn keywords(&mut self, ks: &[&str]) -> bool {
        let save = self.at;
        if ks.iter().all(|k| self.keyword(k)) {
            return true;
        }
        self.at = save;
        false
    }
    fn punct(&mut self, p: char) -> bool {
        if self.tokens.get(self.at) == Some(&Token::Punct(p)) {
            self.at += 1;
            return true;
        }
        false
    }
    fn name(&mut self) -> Option<String> {
        match self.tokens.get(self.at)? {
            Token::Word(w) | Token::Quoted(w) => {
                let w = w.clone();
                self.at += 1;
                Some(w)
            }
            Token::Punct(_) => None,
        }
    }
    fn string(&mut self) -> Option<String> {
        match self.tokens.get(self.at)? {
            Token::Quoted(s) => {
                let s = s.clone();
                self.at += 1;
                Some(s)
            }
            _ => None,
        }
    }
    fn done(&self) -> bool {
        self.at == self.tokens.len()
    }
    fn account(&mut self) -> Option<Account> {
        let user = self.name()?;
        let host = if self.punct('@') {
            self.name()?
        } else {
            "%".to_string()
        };
        Some(Account { user, host })
    }
    /// `'pw'` or `PASSWORD('pw')`.
    fn password(&mut self) -> Option<String> {
        if self.keyword("PASSWORD") {
            if !self.punct('(') {
                return None;
            }
            let s = self.string()?;
            return self.punct(')').then_some(s);
        }
        self.string()
    }
}

/// Whether `sql` begins like one of the hand-parsed statements (a cheap
/// test on the first two words, so other statements skip the lexer).
fn looks_admin(sql: &str) -> bool {
    let mut words = sql
        .split(|c: char| c.is_whitespace() || c == '\'' || c == '`')
        .filter(|w| !w.is_empty());
    let (Some(a), Some(b)) = (words.next(), words.next()) else {
        return false;
    };
    [
        ("CHECK", "TABLE"),
        ("CREATE", "USER"),
        ("ALTER", "USER"),
        ("SET", "PASSWORD"),
        ("SHOW", "GRANTS"),
        ("SHOW", "ENGINE"),
    ]
    .iter()
    .any(|(x, y)| a.eq_ignore_ascii_case(x) && b.eq_ignore_ascii_case(y))
}

/// Reads one of the hand-parsed statements, or `None` if `sql` is not one.
pub(crate) fn parse_admin(sql: &str) -> Option<Admin> {
    if !looks_admin(sql) {
        return None;
    }
    let mut r = Reader {
        tokens: lex(sql)?,
        at: 0,
    };
    let stmt = if r.keywords(&["CHECK", "TABLE"]) {
        let mut tables = Vec::new();
        loop {
            let mut parts = vec![r.name()?];
            if r.punct('.') {
                parts.push(r.name()?);
            }
            tables.push(parts);
            if !r.punct(',') {
                break;
            }
        }
        // Options such as QUICK, FAST, EXTENDED change nothing here.
        while r.name().is_some() {}
        Admin::CheckTable(tables)
    } else if r.keywords(&["CREATE", "USER"]) {
        let if_not_exists = r.keywords(&["IF", "NOT", "EXISTS"]);
        let account = r.account()?;
        let password = if r.keywords(&["IDENTIFIED", "BY"]) {
            r.string()?
        } else {
            String::new()
        };
        Admin::CreateUser {
            account,
            password,
            if_not_exists,
        }
    } else if r.keywords(&["SHOW", "GRANTS"]) {
        let account = if r.keyword("FOR") {
            Some(r.account()?)
        } else {
            None
        };
        Admin::ShowGrants(account)
    } else if r.keywords(&["SHOW", "ENGINE"]) {
        let engine = r.name()?;
        if !r.keyword("STATUS") {
            return None;
        }
        Admin::ShowEngineStatus(engine)
    } else if r.keywords(&["ALTER", "USER"]) {
        let account = r.account()?;
        if !r.keywords(&["IDENTIFIED", "BY"]) {
            return None;
        }
        Admin::SetPassword {
            account: Some(account),
            password: r.string()?,
        }
    } else if r.keywords(&["SET", "PASSWORD"]) {
        let account = if r.keyword("FOR") {
            Some(r.account()?)
        } else {
            None
        };
        if !r.punct('=') {
            return None;
        }
        Admin::SetPassword {
            account,
            password: r.password()?,
        }
    } else {
        return None;
    };
    r.done().then_some(stmt)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn acct(user: &str, host: &str) -> Account {
        Account {
            user: user.into(),
            host: host.into(),
        }
    }

    #[test]
    fn reads_admin_statements() {
        assert_eq!(
            parse_admin("check table a, shop.b quick;"),
            Some(Admin::CheckTable(vec![
                vec!["a".into()],
                vec!["shop".into(), "b".into()]
            ]))
        );
        assert_eq!(
            parse_admin("CREATE USER IF NOT EXISTS 'bob'@'%' IDENTIFIED BY 'p''w'"),
            Some(Admin::CreateUser {
                account: acct("bob", "%"),
                password: "p'w".into(),
                if_not_exists: true
            })
        );
        assert_eq!(
            parse_admin("SET PASSWORD FOR bob = PASSWORD('x')"),
            Some(Admin::SetPassword {
                account: Some(acct("bob", "%")),
                password: "x".into()
            })
        );
        assert_eq!(
            parse_admin("ALTER USER 'root'@'localhost' IDENTIFIED BY ''"),
            Some(Admin::SetPassword {
                account: Some(acct("root", "localhost")),
                password: "".into()
            })
        );
        assert_eq!(parse_admin("CREATE USER bob IDENTIFIED WITH x"), None);
        assert_eq!(parse_admin("SELECT 1"), None);
    }
}
