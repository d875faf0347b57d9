//! An account's name: `'user'@'host'`.

/// An account name: user and host pattern (`%` when not given).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Account {
    pub user: String,
    pub host: String,
}

impl Account {
    pub(crate) fn new(user: &str, host: &str) -> Account {
        Account {
            user: user.to_string(),
            host: host.to_string(),
        }
    }

    /// Same account: user names compare exactly, hosts without case.
    pub(crate) fn is(&self, user: &str, host: &str) -> bool {
        self.user == user && self.host.eq_ignore_ascii_case(host)
    }
}

impl std::fmt::Display for Account {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "'{}'@'{}'", self.user, self.host)
    }
}
