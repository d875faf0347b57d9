//! Privilege checks of a session's account, made before a statement touches
//! data or metadata.
use crate::catalog::accounts::NAMES;
use crate::error::{Result, SqlError};
use crate::session::Session;

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
}
