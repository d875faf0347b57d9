//! Users, whole-database privileges and `mysql_native_password`.
//!
//! Accounts live in real tables, `mysql.user` (user, host, the password's
//! double SHA-1) and `mysql.db` (user, host, database or `*`, privilege
//! bits), created by the first CREATE USER. `root` without a row is the
//! built-in superuser with an empty password, allowed from loopback only.
//! A session reads its grants once, at login; GRANT and REVOKE apply to
//! the grantee's next connection.
use crate::error::{Result, SqlError};
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
pub(crate) const ALL: u32 = 255;
pub(crate) const NAMES: [(&str, u32); 8] = [
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

pub(crate) fn privilege_text(bits: u32) -> String {
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

pub(crate) fn all_rows(t: &Table) -> Result<Vec<Vec<Value>>> {
    let mut rows = Vec::new();
    t.scan_primary(&ReadView::latest(), &KeyRange::all(), |_, r| {
        rows.push(r.values());
        true
    })?;
    Ok(rows)
}

pub(crate) fn text(v: &Value) -> String {
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
pub(crate) fn account_tables(engine: &Engine) -> Result<(Arc<Table>, Arc<Table>)> {
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
