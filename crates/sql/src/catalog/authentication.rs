//! Logins: which account a client is (MariaDB's choice among the accounts
//! whose user and host pattern match), account lock, and the
//! `mysql_native_password` exchange. A refused login says 1045 whichever
//! part was wrong.
use crate::catalog::accounts::{AccountEntry, Accounts};
use crate::error::{Result, SqlError};
use crate::privileges::grants::Grants;
use lineardb_table::Engine;
use sha1::{Digest, Sha1};

fn sha1(parts: &[&[u8]]) -> [u8; 20] {
    let mut h = Sha1::new();
    for p in parts {
        h.update(p);
    }
    h.finalize().into()
}

/// What `mysql.global_priv` keeps of a password: `*` and the hex of
/// SHA1(SHA1(pw)), or "" for no password.
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

/// Whether `hash` is a stored mysql_native_password hash (`IDENTIFIED BY
/// PASSWORD '*...'`).
pub(crate) fn is_password_hash(hash: &str) -> bool {
    hash.is_empty()
        || (hash.len() == 41
            && hash.starts_with('*')
            && hash[1..].bytes().all(|b| b.is_ascii_hexdigit()))
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

/// Whether a client at `host` (an address, or `localhost` for loopback)
/// matches the host pattern of an account.
pub(crate) fn host_matches(pattern: &str, host: &str) -> bool {
    let local = matches!(host, "localhost" | "127.0.0.1" | "::1");
    pattern == "%"
        || pattern.eq_ignore_ascii_case(host)
        || (local && matches!(pattern, "localhost" | "127.0.0.1" | "::1"))
        || crate::expr::like(host.as_bytes(), pattern.as_bytes())
}

/// MariaDB's order among matching accounts: host names without wildcards
/// first, then patterns by where their first wildcard stands (later is
/// more specific), `%` last; a named user before the anonymous one.
fn specificity(e: &AccountEntry) -> (usize, bool) {
    let host = &e.account.host;
    let wildcard = host.find(['%', '_']).unwrap_or(usize::MAX);
    (usize::MAX - wildcard, e.account.user.is_empty())
}

/// The account a login as `user` from `host` is: the most specific whose
/// user (or the anonymous user) and host pattern match.
pub(crate) fn choose<'a>(
    accounts: &'a Accounts,
    user: &str,
    host: &str,
) -> Option<&'a AccountEntry> {
    accounts
        .accounts
        .iter()
        .filter(|e| {
            (e.account.user == user || e.account.user.is_empty())
                && host_matches(&e.account.host, host)
        })
        .min_by_key(|e| specificity(e))
}

/// Checks a login. `host` is the client's address (`localhost` for
/// loopback); `secure` says the connection is encrypted.
pub fn authenticate(
    engine: &Engine,
    user: &str,
    host: &str,
    scramble: &[u8],
    response: &[u8],
    secure: bool,
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
    let accounts = Accounts::load(engine)?;
    let Some(entry) = choose(&accounts, user, host) else {
        return Err(denied());
    };
    if entry.plugin != "mysql_native_password"
        || !verify(&entry.authentication, scramble, response)
        || (entry.require_ssl && !secure)
    {
        return Err(denied());
    }
    if entry.locked {
        return Err(SqlError::new(
            4151,
            "HY000",
            "Access denied, this account is locked",
        ));
    }
    Ok(accounts.grants_of(&entry.account))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog::account_name::Account;

    #[test]
    fn native_password_round_trip() {
        let scramble = b"abcdefghijklmnopqrst";
        let stored = password_hash("secret");
        // MySQL's PASSWORD('secret').
        assert_eq!(stored, "*14E65567ABDB5135D0CFD9A70B3032C179A49EE7");
        assert!(is_password_hash(&stored));
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

    #[test]
    fn the_most_specific_account_is_chosen() {
        let entry = |u: &str, h: &str| AccountEntry::new(Account::new(u, h), String::new());
        let accounts = Accounts {
            accounts: vec![
                entry("bob", "%"),
                entry("", "localhost"),
                entry("bob", "10.0.%"),
                entry("bob", "10.0.0.7"),
            ],
            ..Accounts::default()
        };
        let host_of = |u: &str, h: &str| choose(&accounts, u, h).map(|e| e.account.clone());
        assert_eq!(
            host_of("bob", "10.0.0.7"),
            Some(Account::new("bob", "10.0.0.7"))
        );
        assert_eq!(
            host_of("bob", "10.0.0.8"),
            Some(Account::new("bob", "10.0.%"))
        );
        assert_eq!(
            host_of("bob", "192.168.1.1"),
            Some(Account::new("bob", "%"))
        );
        // As in MariaDB: the anonymous user at localhost is more specific
        // than bob@%.
        assert_eq!(
            host_of("bob", "localhost"),
            Some(Account::new("", "localhost"))
        );
        assert_eq!(host_of("eve", "10.1.1.1"), None);
    }
}
