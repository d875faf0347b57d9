//! Users, whole-database privileges and `mysql_native_password`.
//!
//! Accounts live in real tables, `mysql.user` (user, host, the password's
//! double SHA-1) and `mysql.db` (user, host, database or `*`, privilege
//! bits), created by the first CREATE USER. `root` without a row is the
//! built-in superuser with an empty password, allowed from loopback only.
//! A session reads its grants once, at login; GRANT and REVOKE apply to
//! the grantee's next connection.
use crate::error::{Result, SqlError};
use crate::result::{Outcome, RowSink};
use crate::session::Session;
use lineardb_table::{ColumnDef, DataType, Engine, KeyRange, Table, TableSpec, Value};
use lineardb_txn::ReadView;
use sha1::{Digest, Sha1};
use std::sync::Arc;

pub(crate) const SELECT: u32 = 1;
pub(crate) const INSERT: u32 = 2;
pub(crate) const UPDATE: u32 = 4;
pub(crate) const DELETE: u32 = 8;
pub(crate) const CREATE: u32 = 16;
pub(crate) const DROP: u32 = 32;
pub(crate) const INDEX: u32 = 64;
pub(crate) const ALTER: u32 = 128;
const ALL: u32 = 255;
const NAMES: [(&str, u32); 8] = [
    ("SELECT", SELECT),
    ("INSERT", INSERT),
    ("UPDATE", UPDATE),
    ("DELETE", DELETE),
    ("CREATE", CREATE),
    ("DROP", DROP),
    ("INDEX", INDEX),
    ("ALTER", ALTER),
];

/// What one account may do.
#[derive(Debug, Clone, Default)]
pub struct Grants {
    /// All privileges on every database, and account management.
    pub superuser: bool,
    /// (database or `*`, privilege bits).
    databases: Vec<(String, u32)>,
}

impl Grants {
    pub fn superuser() -> Grants {
        Grants {
            superuser: true,
            databases: Vec::new(),
        }
    }

    pub(crate) fn allows(&self, db: &str, privilege: u32) -> bool {
        self.superuser
            || self
                .databases
                .iter()
                .any(|(d, bits)| (d == "*" || d.eq_ignore_ascii_case(db)) && bits & privilege != 0)
    }
}

fn privilege_text(bits: u32) -> String {
    if bits == ALL {
        return "ALL PRIVILEGES".into();
    }
    NAMES
        .iter()
        .filter(|(_, b)| bits & b != 0)
        .map(|(n, _)| *n)
        .collect::<Vec<_>>()
        .join(", ")
}

fn sha1(parts: &[&[u8]]) -> [u8; 20] {
    let mut h = Sha1::new();
    for p in parts {
        h.update(p);
    }
    h.finalize().into()
}

/// What `mysql.user` keeps of a password: `*` and the hex of SHA1(SHA1(pw)),
/// or "" for no password.
pub(crate) fn password_hash(password: &str) -> String {
    if password.is_empty() {
        return String::new();
    }
    let twice = sha1(&[&sha1(&[password.as_bytes()])]);
    let mut s = String::from("*");
    for b in twice {
        s.push_str(&format!("{b:02X}"));
    }
    s
}

/// The mysql_native_password check: the client sends
/// SHA1(pw) XOR SHA1(scramble ++ SHA1(SHA1(pw))); XOR-ing it back and
/// hashing once must give the stored double hash.
fn verify(stored: &str, scramble: &[u8], response: &[u8]) -> bool {
    if stored.is_empty() {
        return response.is_empty();
    }
    let Some(hex) = stored.strip_prefix('*') else {
        return false;
    };
    if hex.len() != 40 || response.len() != 20 {
        return false;
    }
    let mut twice = [0u8; 20];
    for (i, b) in twice.iter_mut().enumerate() {
        match u8::from_str_radix(&hex[2 * i..2 * i + 2], 16) {
            Ok(v) => *b = v,
            Err(_) => return false,
        }
    }
    let mask = sha1(&[scramble, &twice]);
    let once: Vec<u8> = response.iter().zip(mask).map(|(r, m)| r ^ m).collect();
    sha1(&[&once]) == twice
}

/// A client's answer to the handshake scramble, for `password`.
pub fn native_password_response(password: &str, scramble: &[u8]) -> Vec<u8> {
    if password.is_empty() {
        return Vec::new();
    }
    let once = sha1(&[password.as_bytes()]);
    let mask = sha1(&[scramble, &sha1(&[&once])]);
    once.iter().zip(mask).map(|(a, b)| a ^ b).collect()
}

fn host_matches(pattern: &str, host: &str) -> bool {
    let local = matches!(host, "localhost" | "127.0.0.1" | "::1");
    pattern == "%"
        || pattern.eq_ignore_ascii_case(host)
        || (local && matches!(pattern, "localhost" | "127.0.0.1" | "::1"))
        || crate::expr::like(host.as_bytes(), pattern.as_bytes())
}

fn user_table(engine: &Engine) -> Option<Arc<Table>> {
    engine.table("mysql", "user").ok()
}

fn all_rows(t: &Table) -> Result<Vec<Vec<Value>>> {
    let mut rows = Vec::new();
    t.scan_primary(&ReadView::latest(), &KeyRange::all(), |_, r| {
        rows.push(r.values());
        true
    })?;
    Ok(rows)
}

fn text(v: &Value) -> String {
    v.to_text().unwrap_or_default()
}

/// Checks a login. `host` is the client's address.
pub fn authenticate(
    engine: &Engine,
    user: &str,
    host: &str,
    scramble: &[u8],
    response: &[u8],
) -> Result<Grants> {
    let denied = || {
        SqlError::new(
            1045,
            "28000",
            format!(
                "Access denied for user '{user}'@'{host}' (using password: {})",
                if response.is_empty() { "NO" } else { "YES" }
            ),
        )
    };
    let accounts = match user_table(engine) {
        Some(t) => all_rows(&t)?,
        None => Vec::new(),
    };
    let account = accounts
        .iter()
        .find(|r| text(&r[0]) == user && host_matches(&text(&r[1]), host));
    match account {
        Some(r) if verify(&text(&r[2]), scramble, response) => {
            if user == "root" {
                return Ok(Grants::superuser());
            }
            load_grants(engine, user, &text(&r[1]))
        }
        Some(_) => Err(denied()),
        None if user == "root" && response.is_empty() && host_matches("localhost", host) => {
            Ok(Grants::superuser())
        }
        None => Err(denied()),
    }
}

fn load_grants(engine: &Engine, user: &str, host: &str) -> Result<Grants> {
    let mut g = Grants::default();
    if let Ok(t) = engine.table("mysql", "db") {
        for r in all_rows(&t)? {
            if text(&r[0]) == user && text(&r[1]) == host {
                let bits = match &r[3] {
                    Value::Int(i) => *i as u32,
                    Value::UInt(u) => *u as u32,
                    _ => 0,
                };
                let db = text(&r[2]);
                if db == "*" && bits == ALL {
                    g.superuser = true;
                }
                g.databases.push((db, bits));
            }
        }
    }
    Ok(g)
}

/// `mysql.user` and `mysql.db`, created when first needed.
fn account_tables(engine: &Engine) -> Result<(Arc<Table>, Arc<Table>)> {
    if !engine.database_exists("mysql")? {
        engine.create_database("mysql", true)?;
    }
    let varchar = |n: &str, len| {
        let mut c = ColumnDef::new(n, DataType::VarChar(len));
        c.nullable = false;
        c
    };
    if engine.table("mysql", "user").is_err() {
        let mut spec = TableSpec::new("mysql", "user");
        spec.columns = vec![
            varchar("User", 80),
            varchar("Host", 255),
            varchar("authentication_string", 64),
        ];
        spec.primary_key = vec!["User".into(), "Host".into()];
        engine.create_table(spec)?;
    }
    if engine.table("mysql", "db").is_err() {
        let mut spec = TableSpec::new("mysql", "db");
        let mut bits = ColumnDef::new("Privileges", DataType::Int { unsigned: true });
        bits.nullable = false;
        spec.columns = vec![
            varchar("User", 80),
            varchar("Host", 255),
            varchar("Db", 64),
            bits,
        ];
        spec.primary_key = vec!["User".into(), "Host".into(), "Db".into()];
        engine.create_table(spec)?;
    }
    Ok((engine.table("mysql", "user")?, engine.table("mysql", "db")?))
}

/// An account name: user and host (`%` when not given).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Account {
    pub user: String,
    pub host: String,
}

impl std::fmt::Display for Account {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "'{}'@'{}'", self.user, self.host)
    }
}

impl Session {
    pub(crate) fn is_superuser(&self) -> bool {
        self.grants.superuser
    }

    /// Error 1142 (table privilege) unless the session may do `privilege`
    /// on database `db`.
    pub(crate) fn require(&self, db: &str, privilege: u32, table: &str) -> Result<()> {
        if self.grants.allows(db, privilege) {
            return Ok(());
        }
        let command = NAMES
            .iter()
            .find(|(_, b)| *b == privilege)
            .map_or("ANY", |(n, _)| n);
        Err(SqlError::new(
            1142,
            "42000",
            format!(
                "{command} command denied to user '{}'@'{}' for table '{table}'",
                self.slot.user, self.slot.host
            ),
        ))
    }

    /// Error 1044 unless the session has some privilege on `db`.
    pub(crate) fn require_database(&self, db: &str, privilege: u32) -> Result<()> {
        if self.grants.allows(db, privilege) {
            return Ok(());
        }
        Err(SqlError::new(
            1044,
            "42000",
            format!(
                "Access denied for user '{}'@'{}' to database '{db}'",
                self.slot.user, self.slot.host
            ),
        ))
    }

    pub(crate) fn require_superuser(&self, what: &str) -> Result<()> {
        if self.is_superuser() {
            return Ok(());
        }
        Err(SqlError::new(
            1227,
            "42000",
            format!("Access denied; you need (at least one of) the {what} privilege(s) for this operation"),
        ))
    }

    pub(crate) fn create_user(
        &mut self,
        account: &Account,
        password: &str,
        if_not_exists: bool,
    ) -> Result<Outcome> {
        self.require_superuser("CREATE USER")?;
        let (users, _) = account_tables(&self.engine)?;
        let row = vec![
            Some(Value::str(&account.user)),
            Some(Value::str(&account.host)),
            Some(Value::str(&password_hash(password))),
        ];
        let mut txn = self.engine.begin();
        match users.insert(&mut txn, row) {
            Ok(_) => {
                txn.commit()?;
                Ok(Outcome::done(0))
            }
            Err(lineardb_table::Error::DuplicateKey { .. }) if if_not_exists => {
                self.warnings.push((
                    1973,
                    format!("Can't create user {account}; it already exists"),
                ));
                Ok(Outcome::done(0))
            }
            Err(lineardb_table::Error::DuplicateKey { .. }) => Err(SqlError::new(
                1396,
                "HY000",
                format!("Operation CREATE USER failed for {account}"),
            )),
            Err(e) => Err(e.into()),
        }
    }

    pub(crate) fn set_password(
        &mut self,
        account: Option<&Account>,
        password: &str,
    ) -> Result<Outcome> {
        let own = Account {
            user: self.slot.user.clone(),
            host: "%".into(),
        };
        let account = match account {
            Some(a) => {
                self.require_superuser("CREATE USER")?;
                a.clone()
            }
            None => own,
        };
        let (users, _) = account_tables(&self.engine)?;
        let key =
            users.encode_primary_key(&[Value::str(&account.user), Value::str(&account.host)])?;
        let new = vec![None, None, Some(Value::str(&password_hash(password)))];
        let mut txn = self.engine.begin();
        if users.update_by_key(&mut txn, &key, new.clone())? {
            txn.commit()?;
            return Ok(Outcome::done(0));
        }
        if account.user == "root" {
            // The built-in root gets a row of its own.
            let row = vec![
                Some(Value::str("root")),
                Some(Value::str(&account.host)),
                new[2].clone(),
            ];
            users.insert(&mut txn, row)?;
            txn.commit()?;
            return Ok(Outcome::done(0));
        }
        Err(SqlError::new(
            1396,
            "HY000",
            format!("Operation ALTER USER failed for {account}"),
        ))
    }

    pub(crate) fn drop_user(&mut self, account: &Account, if_exists: bool) -> Result<Outcome> {
        self.require_superuser("CREATE USER")?;
        let (users, dbs) = account_tables(&self.engine)?;
        let key =
            users.encode_primary_key(&[Value::str(&account.user), Value::str(&account.host)])?;
        let mut txn = self.engine.begin();
        if !users.delete_by_key(&mut txn, &key)? && !if_exists {
            return Err(SqlError::new(
                1396,
                "HY000",
                format!("Operation DROP USER failed for {account}"),
            ));
        }
        for r in all_rows(&dbs)? {
            if text(&r[0]) == account.user && text(&r[1]) == account.host {
                let key = dbs.encode_primary_key(&r[..3])?;
                dbs.delete_by_key(&mut txn, &key)?;
            }
        }
        txn.commit()?;
        Ok(Outcome::done(0))
    }

    /// GRANT (add) or REVOKE (remove) `bits` on `db` (`*` for all).
    pub(crate) fn grant(
        &mut self,
        account: &Account,
        db: &str,
        bits: u32,
        add: bool,
    ) -> Result<Outcome> {
        self.require_superuser("GRANT OPTION")?;
        let (users, dbs) = account_tables(&self.engine)?;
        let ukey =
            users.encode_primary_key(&[Value::str(&account.user), Value::str(&account.host)])?;
        if users.get_by_key(&ReadView::latest(), &ukey)?.is_none() {
            return Err(SqlError::new(
                1133,
                "28000",
                format!("Can't find any matching row in the user table for {account}"),
            ));
        }
        let key_values = [
            Value::str(&account.user),
            Value::str(&account.host),
            Value::str(db),
        ];
        let key = dbs.encode_primary_key(&key_values)?;
        let old = match dbs.get_by_key(&ReadView::latest(), &key)? {
            Some(r) => match r[3] {
                Value::Int(i) => i as u32,
                Value::UInt(u) => u as u32,
                _ => 0,
            },
            None => 0,
        };
        let new = if add { old | bits } else { old & !bits };
        let mut txn = self.engine.begin();
        dbs.delete_by_key(&mut txn, &key)?;
        if new != 0 {
            let mut row: Vec<Option<Value>> = key_values.into_iter().map(Some).collect();
            row.push(Some(Value::UInt(new as u64)));
            dbs.insert(&mut txn, row)?;
        }
        txn.commit()?;
        Ok(Outcome::done(0))
    }

    pub(crate) fn show_grants(
        &mut self,
        account: Option<&Account>,
        sink: &mut dyn RowSink,
    ) -> Result<Outcome> {
        let account = match account {
            Some(a) => a.clone(),
            None => Account {
                user: self.slot.user.clone(),
                host: "%".into(),
            },
        };
        let mut lines = Vec::new();
        if account.user == "root" {
            lines.push(format!(
                "GRANT ALL PRIVILEGES ON *.* TO {account} WITH GRANT OPTION"
            ));
        } else if let Ok(dbs) = self.engine.table("mysql", "db") {
            lines.push(format!("GRANT USAGE ON *.* TO {account}"));
            for r in all_rows(&dbs)? {
                if text(&r[0]) == account.user && text(&r[1]) == account.host {
                    let bits = match r[3] {
                        Value::Int(i) => i as u32,
                        Value::UInt(u) => u as u32,
                        _ => 0,
                    };
                    let db = text(&r[2]);
                    let on = if db == "*" {
                        "*.*".to_string()
                    } else {
                        format!("`{db}`.*")
                    };
                    lines.push(format!(
                        "GRANT {} ON {on} TO {account}",
                        privilege_text(bits)
                    ));
                }
            }
        }
        let header = format!("Grants for {}@{}", account.user, account.host);
        let rows = lines.iter().map(|l| vec![Value::str(l)]).collect();
        self.rows(sink, &[header.as_str()], rows)
    }
}

/// Privilege bits of a GRANT/REVOKE list.
pub(crate) fn privilege_bits(p: &sqlparser::ast::Privileges) -> Result<u32> {
    match p {
        sqlparser::ast::Privileges::All { .. } => Ok(ALL),
        sqlparser::ast::Privileges::Actions(actions) => {
            let mut bits = 0;
            for a in actions {
                let text = a.to_string();
                let word = text
                    .split_whitespace()
                    .next()
                    .unwrap_or("")
                    .to_ascii_uppercase();
                match NAMES.iter().find(|(n, _)| *n == word) {
                    Some((_, b)) => bits |= b,
                    None if word == "USAGE" => {}
                    None => return Err(SqlError::unsupported(format!("privilege {text}"))),
                }
            }
            Ok(bits)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn native_password_round_trip() {
        let scramble = b"abcdefghijklmnopqrst";
        let stored = password_hash("secret");
        // MySQL's PASSWORD('secret').
        assert_eq!(stored, "*14E65567ABDB5135D0CFD9A70B3032C179A49EE7");
        assert!(verify(
            &stored,
            scramble,
            &native_password_response("secret", scramble)
        ));
        assert!(!verify(
            &stored,
            scramble,
            &native_password_response("wrong", scramble)
        ));
        assert!(!verify(&stored, scramble, b""));
        assert!(verify("", scramble, b""));
        assert!(!verify(
            "",
            scramble,
            &native_password_response("x", scramble)
        ));
    }

    #[test]
    fn hosts() {
        assert!(host_matches("%", "10.0.0.1"));
        assert!(host_matches("localhost", "127.0.0.1"));
        assert!(host_matches("10.0.%", "10.0.3.4"));
        assert!(!host_matches("localhost", "10.0.0.1"));
    }
}
