//! Privilege checks of a session's account, made before a statement touches
//! data or metadata, with MariaDB's errors: 1142 (table), 1143 (column),
//! 1044 (database), 1227 (a global privilege).
use crate::catalog::accounts::Accounts;
use crate::error::{Result, SqlError};
use crate::privileges::bits::{self, GRANT};
use crate::privileges::grants::Grants;
use crate::session::Session;

impl Session {
    /// Whether the account holds any of `privileges` globally.
    pub(crate) fn has_global(&self, privileges: u64) -> bool {
        self.grants.global & privileges != 0
    }

    /// The host part errors 1044 name: the account's host pattern.
    pub(crate) fn account_host(&self) -> &str {
        self.grants
            .account
            .as_ref()
            .map_or(self.slot.host.as_str(), |a| a.host.as_str())
    }

    /// Picks up grants changed by account statements since this session
    /// last looked (one shared read when nothing changed). Compiled plans
    /// are re-planned, so their checks are made again.
    pub(crate) fn refresh_grants(&mut self) -> Result<()> {
        let version = self.registry.accounts_version();
        if version == self.grants_version {
            return Ok(());
        }
        self.grants_version = version;
        if let Some(account) = self.grants.account.clone() {
            self.grants = Accounts::load(&self.engine)?.grants_of(&account);
            self.facts.file_privilege = self.has_global(crate::privileges::bits::FILE);
            self.facts_changed();
        }
        Ok(())
    }

    /// The table and column checks of this session's account.
    pub(crate) fn access(&self) -> Access<'_> {
        Access {
            grants: &self.grants,
            user: &self.slot.user,
            host: &self.slot.host,
        }
    }

    /// [`Access::require_table`].
    pub(crate) fn require_table(&self, db: &str, table: &str, privilege: u64) -> Result<()> {
        self.access().require_table(db, table, privilege)
    }

    /// [`Access::require_table_as`].
    pub(crate) fn require_table_as(
        &self,
        db: &str,
        table: &str,
        privilege: u64,
        command: &str,
    ) -> Result<()> {
        self.access()
            .require_table_as(db, table, privilege, command)
    }

    /// [`Access::require_columns`].
    pub(crate) fn require_columns<'c>(
        &self,
        db: &str,
        table: &str,
        privilege: u64,
        columns: impl IntoIterator<Item = &'c str>,
    ) -> Result<()> {
        self.access().require_columns(db, table, privilege, columns)
    }

    /// Error 1044 unless the session holds `privilege` on `db` (global or
    /// `db.*` grants).
    pub(crate) fn require_database(&self, db: &str, privilege: u64) -> Result<()> {
        if self.grants.on_database(db) & privilege == privilege {
            return Ok(());
        }
        Err(self.database_denied(db))
    }

    /// Error 1044 unless the session may see `db` at all (USE, SHOW TABLES).
    pub(crate) fn require_database_visible(&self, db: &str) -> Result<()> {
        if self.grants.sees_database(db) || crate::names::is_information_schema(db) {
            return Ok(());
        }
        Err(self.database_denied(db))
    }

    pub(crate) fn database_denied(&self, db: &str) -> SqlError {
        self.access().database_denied(db)
    }

    /// Error 1227 unless the session holds one of `privileges` globally;
    /// `names` lists them as the message does.
    pub(crate) fn require_global(&self, privileges: u64, names: &str) -> Result<()> {
        if self.has_global(privileges) {
            return Ok(());
        }
        Err(SqlError::new(
            1227,
            "42000",
            format!("Access denied; you need (at least one of) the {names} privilege(s) for this operation"),
        ))
    }

    /// MariaDB's 1045 for a statement the account may not run at all
    /// (a GRANT of global privileges it lacks, LOAD DATA without FILE).
    pub(crate) fn access_denied(&self) -> SqlError {
        SqlError::new(
            1045,
            "28000",
            format!(
                "Access denied for user '{}'@'{}' (using password: YES)",
                self.slot.user,
                self.account_host()
            ),
        )
    }

    /// GRANT OPTION and `privileges` at the level a GRANT/REVOKE names:
    /// 1045 for `*.*` (as MariaDB answers), 1044 for `db.*`, 1142 for a
    /// table.
    pub(crate) fn require_grantable(
        &self,
        db: Option<&str>,
        table: Option<&str>,
        privileges: u64,
    ) -> Result<()> {
        let need = privileges | GRANT;
        match (db, table) {
            (None, _) if self.grants.global & need == need => Ok(()),
            (None, _) => Err(self.access_denied()),
            (Some(db), None) => self.require_database(db, need),
            (Some(db), Some(table)) => {
                // The message lists what is missing, in SHOW GRANTS order.
                let missing = need
                    & !(self.grants.on_table(db, table) | self.grants.on_some_column(db, table));
                let names: Vec<&str> = bits::NAMES
                    .iter()
                    .filter(|(_, b)| missing & b != 0)
                    .map(|(n, _)| *n)
                    .collect();
                self.require_table_as(db, table, need, &names.join(", "))
            }
        }
    }
}

/// Table and column checks of one account, for code that holds the
/// session's grants apart from the session (the planner's table resolver).
pub(crate) struct Access<'a> {
    pub(crate) grants: &'a Grants,
    /// The login name and the client's host, as 1142/1143 name them.
    pub(crate) user: &'a str,
    pub(crate) host: &'a str,
}

impl Access<'_> {
    /// Error 1142 unless the session may do `privilege` on all of
    /// `db`.`table`; `command` names it (`SHOW`, or the privilege).
    pub(crate) fn require_table_as(
        &self,
        db: &str,
        table: &str,
        privilege: u64,
        command: &str,
    ) -> Result<()> {
        if self.grants.on_table(db, table) & privilege == privilege {
            return Ok(());
        }
        if crate::names::is_information_schema(db) {
            // Nothing but reading, for anybody: MariaDB names the schema.
            return Err(self.database_denied(db));
        }
        Err(self.table_denied(command, db, table))
    }

    /// 1044: names the account's host pattern (the client's host for an
    /// embedded session, which has no account).
    pub(crate) fn database_denied(&self, db: &str) -> SqlError {
        let host = self
            .grants
            .account
            .as_ref()
            .map_or(self.host, |a| a.host.as_str());
        SqlError::new(
            1044,
            "42000",
            format!(
                "Access denied for user '{}'@'{host}' to database '{db}'",
                self.user
            ),
        )
    }

    /// [`require_table_as`](Self::require_table_as) named by the privilege.
    pub(crate) fn require_table(&self, db: &str, table: &str, privilege: u64) -> Result<()> {
        self.require_table_as(db, table, privilege, bits::name_of(privilege))
    }

    pub(crate) fn table_denied(&self, command: &str, db: &str, table: &str) -> SqlError {
        SqlError::new(
            1142,
            "42000",
            format!(
                "{command} command denied to user '{}'@'{}' for table `{db}`.`{table}`",
                self.user, self.host
            ),
        )
    }

    /// `privilege` on each of `columns` of `db`.`table` (the whole table's
    /// grant covers them all): 1143 names the first column refused, 1142
    /// when the account has no column grant of that kind on the table.
    pub(crate) fn require_columns<'c>(
        &self,
        db: &str,
        table: &str,
        privilege: u64,
        columns: impl IntoIterator<Item = &'c str>,
    ) -> Result<()> {
        if self.grants.on_table(db, table) & privilege != 0 {
            return Ok(());
        }
        let command = bits::name_of(privilege);
        if !self.grants.has_column_grants(db, table, privilege) {
            return Err(self.table_denied(command, db, table));
        }
        // As MariaDB answers: the column refused, unless columns before it
        // passed on their own grants (then the table).
        let mut passed = false;
        for column in columns {
            if self.grants.on_column(db, table, column) & privilege == 0 {
                if passed {
                    return Err(self.table_denied(command, db, table));
                }
                return Err(SqlError::new(
                    1143,
                    "42000",
                    format!(
                        "{command} command denied to user '{}'@'{}' for column '{column}' in table '{table}'",
                        self.user, self.host
                    ),
                ));
            }
            passed = true;
        }
        Ok(())
    }
}
