//! Account statements: CREATE / ALTER / DROP / RENAME USER, SET PASSWORD,
//! GRANT, REVOKE, SHOW GRANTS, SHOW CREATE USER — checked, then written to
//! the account store in one transaction; sessions pick the change up at
//! their next statement.
use crate::catalog::account_name::Account;
use crate::catalog::accounts::{
    AccountEntry, AccountTables, Accounts, ColumnGrant, DbGrant, TableGrant,
};
use crate::catalog::authentication::{is_password_hash, password_hash};
use crate::error::{Result, SqlError};
use crate::parser::accounts::{
    AccountOptions, AccountStatement, Authentication, GrantLevel, PrivilegeList, UserSpec,
};
use crate::privileges::bits::{
    self, ALL_GLOBAL, COLUMN_LEVEL, CREATE_USER, DB_LEVEL, GRANT, SELECT, TABLE_LEVEL, UPDATE,
};
use crate::result::{Outcome, RowSink};
use crate::session::Session;
use lineardb_table::Value;
use lineardb_txn::Txn;

fn failed(operation: &str, accounts: &[Account]) -> SqlError {
    let list: Vec<String> = accounts.iter().map(|a| a.to_string()).collect();
    SqlError::new(
        1396,
        "HY000",
        format!("Operation {operation} failed for {}", list.join(",")),
    )
}

fn no_such_account() -> SqlError {
    SqlError::new(
        1133,
        "28000",
        "Can't find any matching row in the user table",
    )
}

/// The stored form of an authentication clause.
fn stored(auth: &Authentication) -> Result<String> {
    match auth {
        Authentication::Password(p) => Ok(password_hash(p)),
        Authentication::Hash(h) if is_password_hash(h) => Ok(h.to_ascii_uppercase()),
        Authentication::Hash(_) => Err(SqlError::new(
            1372,
            "HY000",
            "Password hash should be a 41-digit hexadecimal number",
        )),
        Authentication::Plugin { name, .. } => Err(SqlError::new(
            1524,
            "HY000",
            format!("Plugin '{name}' is not loaded"),
        )),
    }
}

fn apply_options(entry: &mut AccountEntry, options: &AccountOptions) {
    if let Some(lock) = options.lock {
        entry.locked = lock;
    }
    if let Some(ssl) = options.require_ssl {
        entry.require_ssl = ssl;
    }
}

fn quoted(a: &Account) -> String {
    format!("`{}`@`{}`", a.user, a.host)
}

impl Session {
    /// The account a statement names, CURRENT_USER for `None`.
    fn named(&self, account: &Option<Account>) -> Account {
        match account {
            Some(a) => a.clone(),
            None => self.current_account(),
        }
    }

    /// The session's account (as CURRENT_USER() names it).
    pub(crate) fn current_account(&self) -> Account {
        self.grants
            .account
            .clone()
            .unwrap_or_else(|| Account::new(&self.slot.user, "localhost"))
    }

    /// Runs `f` on the account tables in a transaction of its own, then
    /// tells the sessions. `f` fails (nothing is kept) or gives the
    /// statement's result: an error there (accounts refused among several)
    /// still keeps what was done for the others, as MariaDB does.
    fn change_accounts<T>(
        &mut self,
        f: impl FnOnce(&mut Self, &AccountTables, &Accounts, &mut Txn) -> Result<Result<T>>,
    ) -> Result<T> {
        self.global_read_lock_allows_change()?;
        // Account statements commit an open transaction first, as in MariaDB.
        self.end_transaction(true)?;
        let tables = AccountTables::open(&self.engine)?;
        let accounts = Accounts::load(&self.engine)?;
        let mut txn = self.engine.begin_for(self.slot.id);
        let r = f(self, &tables, &accounts, &mut txn);
        match r {
            Ok(result) => {
                txn.commit()?;
                self.registry.accounts_changed();
                self.refresh_grants()?;
                result
            }
            Err(e) => {
                txn.rollback()?;
                Err(e)
            }
        }
    }

    pub(crate) fn account_statement(
        &mut self,
        stmt: &AccountStatement,
        sink: &mut dyn RowSink,
    ) -> Result<Outcome> {
        use AccountStatement as A;
        match stmt {
            A::CreateUser {
                or_replace,
                if_not_exists,
                users,
                options,
            } => self.create_users(users, *or_replace, *if_not_exists, options),
            A::AlterUser {
                if_exists,
                users,
                options,
            } => self.alter_users(users, *if_exists, options),
            A::DropUser {
                if_exists,
                accounts,
            } => self.drop_users(accounts, *if_exists),
            A::RenameUser(pairs) => self.rename_users(pairs),
            A::SetPassword {
                account,
                authentication,
            } => self.set_password(account, authentication),
            A::Grant {
                privileges,
                level,
                users,
                options,
            } => self.grant(privileges, level, users, options),
            A::Revoke {
                privileges,
                level,
                accounts,
            } => self.revoke(privileges, level, accounts),
            A::RevokeAll(accounts) => self.revoke_all(accounts),
            A::ShowGrants(account) => self.show_grants(account, sink),
            A::ShowCreateUser(account) => self.show_create_user(account, sink),
        }
    }

    fn create_users(
        &mut self,
        users: &[UserSpec],
        or_replace: bool,
        if_not_exists: bool,
        options: &AccountOptions,
    ) -> Result<Outcome> {
        self.require_global(CREATE_USER, "CREATE USER")?;
        self.change_accounts(|s, tables, accounts, txn| {
            let mut refused = Vec::new();
            for u in users {
                let authentication = match &u.authentication {
                    Some(a) => stored(a)?,
                    None => String::new(),
                };
                if accounts.find(&u.account).is_some() {
                    if if_not_exists {
                        s.warnings.push((
                            1973,
                            format!("Can't create user {}; it already exists", u.account),
                        ));
                        continue;
                    }
                    if !or_replace {
                        refused.push(u.account.clone());
                        continue;
                    }
                    tables.delete_account(txn, &u.account)?;
                }
                let mut entry = AccountEntry::new(u.account.clone(), authentication);
                apply_options(&mut entry, options);
                tables.put_account(txn, &entry)?;
            }
            Ok(if refused.is_empty() {
                Ok(Outcome::done(0))
            } else {
                Err(failed("CREATE USER", &refused))
            })
        })
    }

    fn alter_users(
        &mut self,
        users: &[UserSpec],
        if_exists: bool,
        options: &AccountOptions,
    ) -> Result<Outcome> {
        let own = users.len() == 1
            && users[0].account == self.current_account()
            && options == &AccountOptions::default();
        if !own {
            self.require_global(CREATE_USER, "CREATE USER")?;
        }
        self.change_accounts(|s, tables, accounts, txn| {
            let mut refused = Vec::new();
            for u in users {
                let Some(old) = accounts.find(&u.account) else {
                    if if_exists {
                        s.warnings.push((
                            1974,
                            format!("Can't alter user {}; it doesn't exist", u.account),
                        ));
                    } else {
                        refused.push(u.account.clone());
                    }
                    continue;
                };
                let mut entry = old.clone();
                if let Some(a) = &u.authentication {
                    entry.authentication = stored(a)?;
                    entry.plugin = "mysql_native_password".into();
                }
                apply_options(&mut entry, options);
                tables.put_account(txn, &entry)?;
            }
            Ok(if refused.is_empty() {
                Ok(Outcome::done(0))
            } else {
                Err(failed("ALTER USER", &refused))
            })
        })
    }

    fn drop_users(&mut self, names: &[Option<Account>], if_exists: bool) -> Result<Outcome> {
        self.require_global(CREATE_USER, "CREATE USER")?;
        let names: Vec<Account> = names.iter().map(|a| self.named(a)).collect();
        self.change_accounts(|s, tables, accounts, txn| {
            let mut refused = Vec::new();
            for account in &names {
                if accounts.find(account).is_none() {
                    if if_exists {
                        s.warnings
                            .push((1974, format!("Can't drop user {account}; it doesn't exist")));
                    } else {
                        refused.push(account.clone());
                    }
                    continue;
                }
                tables.delete_account(txn, account)?;
            }
            Ok(if refused.is_empty() {
                Ok(Outcome::done(0))
            } else {
                Err(failed("DROP USER", &refused))
            })
        })
    }

    fn rename_users(&mut self, pairs: &[(Account, Account)]) -> Result<Outcome> {
        self.require_global(CREATE_USER, "CREATE USER")?;
        self.change_accounts(|_, tables, accounts, txn| {
            let mut refused = Vec::new();
            for (from, to) in pairs {
                let Some(entry) = accounts.find(from) else {
                    refused.push(from.clone());
                    continue;
                };
                if accounts.find(to).is_some() {
                    refused.push(from.clone());
                    continue;
                }
                tables.delete_account(txn, from)?;
                let mut moved = entry.clone();
                moved.account = to.clone();
                tables.put_account(txn, &moved)?;
                let mine = |a: &Account| a.is(&from.user, &from.host);
                for d in accounts.dbs.iter().filter(|d| mine(&d.account)) {
                    let mut d = d.clone();
                    d.account = to.clone();
                    tables.put_db_grant(txn, &d)?;
                }
                for t in accounts.tables.iter().filter(|t| mine(&t.account)) {
                    let mut t = t.clone();
                    t.account = to.clone();
                    tables.put_table_grant(txn, &t, "")?;
                }
                for c in accounts.columns.iter().filter(|c| mine(&c.account)) {
                    let mut c = c.clone();
                    c.account = to.clone();
                    tables.put_column_grant(txn, &c)?;
                }
            }
            Ok(if refused.is_empty() {
                Ok(Outcome::done(0))
            } else {
                Err(failed("RENAME USER", &refused))
            })
        })
    }

    fn set_password(
        &mut self,
        account: &Option<Account>,
        authentication: &Authentication,
    ) -> Result<Outcome> {
        let account = self.named(account);
        if account != self.current_account() {
            self.require_database("mysql", UPDATE)?;
        }
        let hash = stored(authentication)?;
        self.change_accounts(|_, tables, accounts, txn| {
            let Some(old) = accounts.find(&account) else {
                return Ok(Err(no_such_account()));
            };
            let mut entry = old.clone();
            entry.authentication = hash;
            entry.plugin = "mysql_native_password".into();
            tables.put_account(txn, &entry)?;
            Ok(Ok(Outcome::done(0)))
        })
    }

    /// The level's database and table, with the current database filled
    /// in, and the privilege bits the list means there.
    fn grant_target(
        &mut self,
        privileges: &PrivilegeList,
        level: &GrantLevel,
    ) -> Result<(Option<String>, Option<String>, u64)> {
        let current = || {
            self.facts
                .database
                .clone()
                .ok_or_else(SqlError::no_database)
        };
        let (db, table, allowed) = match level {
            GrantLevel::Global => (None, None, ALL_GLOBAL),
            GrantLevel::Database(db) => (
                Some(match db {
                    Some(d) => d.clone(),
                    None => current()?,
                }),
                None,
                DB_LEVEL,
            ),
            GrantLevel::Table(db, t) => (
                Some(match db {
                    Some(d) => d.clone(),
                    None => current()?,
                }),
                Some(t.clone()),
                TABLE_LEVEL,
            ),
        };
        let mut bits = privileges.bits;
        if privileges.all {
            bits |= allowed & !GRANT;
        }
        if privileges.grant_option {
            bits |= GRANT;
        }
        let column_bits = privileges.columns.iter().fold(0, |a, (b, _)| a | b);
        if bits & !(allowed | GRANT) != 0 || (table.is_none() && column_bits != 0) {
            return Err(match level {
                GrantLevel::Database(_) => SqlError::new(
                    1221,
                    "HY000",
                    "Incorrect usage of DB GRANT and GLOBAL PRIVILEGES",
                ),
                _ => SqlError::new(
                    1144,
                    "42000",
                    "Illegal GRANT/REVOKE command; please consult the manual to see which privileges can be used",
                ),
            });
        }
        if column_bits & !COLUMN_LEVEL != 0 {
            return Err(SqlError::syntax(
                "a column list on a privilege other than SELECT, INSERT, UPDATE or REFERENCES",
            ));
        }
        let view = match (&db, &table) {
            (Some(db), Some(t)) if !self.tables.is_temporary(db, t) => {
                self.engine.view(db, t)?.is_some()
            }
            _ => false,
        };
        if view && column_bits != 0 {
            return Err(SqlError::unsupported("column privileges on a view"));
        }
        if let (Some(db), Some(t), false) = (&db, &table, view) {
            // The table and the columns must exist.
            let handle = self.tables.get(&self.engine, (db.clone(), t.clone()))?;
            for (_, columns) in &privileges.columns {
                for c in columns {
                    if !handle
                        .def()
                        .columns
                        .iter()
                        .any(|d| d.name.eq_ignore_ascii_case(c))
                    {
                        return Err(SqlError::new(
                            1054,
                            "42S22",
                            format!("Unknown column '{c}' in '{t}'"),
                        ));
                    }
                }
            }
        }
        self.require_grantable(
            db.as_deref(),
            table.as_deref(),
            (bits | column_bits) & !GRANT,
        )?;
        Ok((db, table, bits))
    }

    fn grant(
        &mut self,
        privileges: &PrivilegeList,
        level: &GrantLevel,
        users: &[UserSpec],
        options: &AccountOptions,
    ) -> Result<Outcome> {
        let (db, table, bits) = self.grant_target(privileges, level)?;
        let grantor = self.current_account();
        self.change_accounts(|_, tables, accounts, txn| {
            for u in users {
                let mut entry = match (accounts.find(&u.account), &u.authentication) {
                    (Some(e), _) => e.clone(),
                    (None, Some(_)) => AccountEntry::new(u.account.clone(), String::new()),
                    (None, None) => return Ok(Err(no_such_account())),
                };
                if let Some(a) = &u.authentication {
                    entry.authentication = stored(a)?;
                }
                apply_options(&mut entry, options);
                if db.is_none() {
                    entry.access |= bits;
                }
                tables.put_account(txn, &entry)?;
                let account = &u.account;
                let mine = |a: &Account| a.is(&account.user, &account.host);
                match (&db, &table) {
                    (None, _) => {}
                    (Some(db), None) => {
                        let old = accounts
                            .dbs
                            .iter()
                            .find(|d| mine(&d.account) && d.db == *db)
                            .map_or(0, |d| d.bits);
                        tables.put_db_grant(
                            txn,
                            &DbGrant {
                                account: account.clone(),
                                db: db.clone(),
                                bits: old | bits,
                            },
                        )?;
                    }
                    (Some(db), Some(t)) => {
                        let old = accounts.tables.iter().find(|g| {
                            mine(&g.account)
                                && g.db.eq_ignore_ascii_case(db)
                                && g.table.eq_ignore_ascii_case(t)
                        });
                        let column_bits = privileges.columns.iter().fold(0, |a, (b, _)| a | b);
                        tables.put_table_grant(
                            txn,
                            &TableGrant {
                                account: account.clone(),
                                db: db.clone(),
                                table: t.clone(),
                                bits: old.map_or(0, |g| g.bits) | bits,
                                column_bits: old.map_or(0, |g| g.column_bits) | column_bits,
                            },
                            &format!("{}@{}", grantor.user, grantor.host),
                        )?;
                        // Each column's privileges of this statement
                        // together (`INSERT (a, b), UPDATE (b)`: b takes
                        // both), added to what it held.
                        let mut granted: Vec<(&String, u64)> = Vec::new();
                        for (bit, columns) in &privileges.columns {
                            for c in columns {
                                match granted.iter_mut().find(|(n, _)| n.eq_ignore_ascii_case(c)) {
                                    Some((_, bits)) => *bits |= bit,
                                    None => granted.push((c, *bit)),
                                }
                            }
                        }
                        for (c, bit) in granted {
                            let old = accounts
                                .columns
                                .iter()
                                .find(|g| {
                                    mine(&g.account)
                                        && g.db.eq_ignore_ascii_case(db)
                                        && g.table.eq_ignore_ascii_case(t)
                                        && g.column.eq_ignore_ascii_case(c)
                                })
                                .map_or(0, |g| g.bits);
                            tables.put_column_grant(
                                txn,
                                &ColumnGrant {
                                    account: account.clone(),
                                    db: db.clone(),
                                    table: t.clone(),
                                    column: c.clone(),
                                    bits: old | bit,
                                },
                            )?;
                        }
                    }
                }
            }
            Ok(Ok(Outcome::done(0)))
        })
    }

    fn revoke(
        &mut self,
        privileges: &PrivilegeList,
        level: &GrantLevel,
        names: &[Option<Account>],
    ) -> Result<Outcome> {
        let (db, table, bits) = self.grant_target(privileges, level)?;
        let names: Vec<Account> = names.iter().map(|a| self.named(a)).collect();
        self.change_accounts(|_, tables, accounts, txn| {
            for account in &names {
                let Some(entry) = accounts.find(account) else {
                    return Ok(Err(no_such_account()));
                };
                let mine = |a: &Account| a.is(&account.user, &account.host);
                let no_grant = |on_table: Option<&str>| {
                    SqlError::new(
                        if on_table.is_some() { 1147 } else { 1141 },
                        "42000",
                        format!(
                            "There is no such grant defined for user '{}' on host '{}'{}",
                            account.user,
                            account.host,
                            on_table.map_or(String::new(), |t| format!(" on table '{t}'"))
                        ),
                    )
                };
                match (&db, &table) {
                    (None, _) => {
                        let mut entry = entry.clone();
                        entry.access &= !bits;
                        tables.put_account(txn, &entry)?;
                    }
                    (Some(db), None) => {
                        let Some(old) = accounts
                            .dbs
                            .iter()
                            .find(|d| mine(&d.account) && d.db == *db)
                        else {
                            return Ok(Err(no_grant(None)));
                        };
                        let mut g = old.clone();
                        g.bits &= !bits;
                        tables.put_db_grant(txn, &g)?;
                    }
                    (Some(db), Some(t)) => {
                        let Some(old) = accounts.tables.iter().find(|g| {
                            mine(&g.account)
                                && g.db.eq_ignore_ascii_case(db)
                                && g.table.eq_ignore_ascii_case(t)
                        }) else {
                            return Ok(Err(no_grant(Some(t))));
                        };
                        let mut g = old.clone();
                        g.bits &= !bits;
                        let mut column_bits = 0;
                        for c in accounts.columns.iter().filter(|c| {
                            mine(&c.account)
                                && c.db.eq_ignore_ascii_case(db)
                                && c.table.eq_ignore_ascii_case(t)
                        }) {
                            let mut c = c.clone();
                            for (bit, columns) in &privileges.columns {
                                if columns.iter().any(|n| n.eq_ignore_ascii_case(&c.column)) {
                                    c.bits &= !bit;
                                }
                            }
                            // Revoking a privilege from the table revokes it
                            // from its columns too.
                            c.bits &= !bits;
                            column_bits |= c.bits;
                            tables.put_column_grant(txn, &c)?;
                        }
                        g.column_bits = column_bits;
                        tables.put_table_grant(txn, &g, "")?;
                    }
                }
            }
            Ok(Ok(Outcome::done(0)))
        })
    }

    fn revoke_all(&mut self, names: &[Option<Account>]) -> Result<Outcome> {
        self.require_global(CREATE_USER, "CREATE USER")?;
        let names: Vec<Account> = names.iter().map(|a| self.named(a)).collect();
        self.change_accounts(|_, tables, accounts, txn| {
            let mut refused = Vec::new();
            for account in &names {
                let Some(entry) = accounts.find(account) else {
                    refused.push(account.clone());
                    continue;
                };
                let mut entry = entry.clone();
                entry.access = 0;
                // Dropping the account's rows drops its grants; the
                // account itself is written back.
                tables.delete_account(txn, account)?;
                tables.put_account(txn, &entry)?;
            }
            Ok(if refused.is_empty() {
                Ok(Outcome::done(0))
            } else {
                Err(failed("REVOKE", &refused))
            })
        })
    }

    /// Reading another account's grants takes SELECT on `mysql`.
    fn require_account_reading(&self, account: &Account) -> Result<()> {
        if *account != self.current_account() {
            self.require_database("mysql", SELECT)?;
        }
        Ok(())
    }

    pub(crate) fn show_grants(
        &mut self,
        account: &Option<Account>,
        sink: &mut dyn RowSink,
    ) -> Result<Outcome> {
        let account = self.named(account);
        self.require_account_reading(&account)?;
        let accounts = Accounts::load(&self.engine)?;
        let Some(entry) = accounts.find(&account) else {
            return Err(SqlError::new(
                1141,
                "42000",
                format!(
                    "There is no such grant defined for user '{}' on host '{}'",
                    account.user, account.host
                ),
            ));
        };
        let to = quoted(&account);
        let with = |bits: u64| {
            if bits & GRANT != 0 {
                " WITH GRANT OPTION"
            } else {
                ""
            }
        };
        let mut first = format!(
            "GRANT {} ON *.* TO {to}",
            bits::list(entry.access, ALL_GLOBAL)
        );
        if !entry.authentication.is_empty() {
            first.push_str(&format!(
                " IDENTIFIED BY PASSWORD '{}'",
                entry.authentication
            ));
        }
        if entry.require_ssl {
            first.push_str(" REQUIRE SSL");
        }
        first.push_str(with(entry.access));
        let mut lines = vec![first];
        let grants = accounts.grants_of(&account);
        for (db, b) in &grants.databases {
            lines.push(format!(
                "GRANT {} ON `{db}`.* TO {to}{}",
                bits::list(*b, DB_LEVEL),
                with(*b)
            ));
        }
        for t in &grants.tables {
            let mut names = Vec::new();
            if t.bits & TABLE_LEVEL & !GRANT == TABLE_LEVEL & !GRANT {
                names.push("ALL PRIVILEGES".to_string());
            } else {
                for (name, bit) in bits::NAMES.iter().filter(|(_, b)| *b != GRANT) {
                    if t.bits & bit != 0 {
                        names.push(name.to_string());
                    } else {
                        let columns: Vec<String> = t
                            .columns
                            .iter()
                            .filter(|(_, b)| b & bit != 0)
                            .map(|(c, _)| format!("`{c}`"))
                            .collect();
                        if !columns.is_empty() {
                            names.push(format!("{name} ({})", columns.join(", ")));
                        }
                    }
                }
            }
            if names.is_empty() {
                names.push("USAGE".into());
            }
            lines.push(format!(
                "GRANT {} ON `{}`.`{}` TO {to}{}",
                names.join(", "),
                t.db,
                t.table,
                with(t.bits)
            ));
        }
        let header = format!("Grants for {}@{}", account.user, account.host);
        let rows = lines.iter().map(|l| vec![Value::str(l)]).collect();
        self.rows(sink, &[header.as_str()], rows)
    }

    fn show_create_user(
        &mut self,
        account: &Option<Account>,
        sink: &mut dyn RowSink,
    ) -> Result<Outcome> {
        let account = self.named(account);
        self.require_account_reading(&account)?;
        let accounts = Accounts::load(&self.engine)?;
        let Some(entry) = accounts.find(&account) else {
            return Err(failed("SHOW CREATE USER", &[account]));
        };
        let mut text = format!("CREATE USER {}", quoted(&account));
        if !entry.authentication.is_empty() {
            text.push_str(&format!(
                " IDENTIFIED BY PASSWORD '{}'",
                entry.authentication
            ));
        }
        if entry.require_ssl {
            text.push_str(" REQUIRE SSL");
        }
        if entry.locked {
            text.push_str(" ACCOUNT LOCK");
        }
        let header = format!("CREATE USER for {}@{}", account.user, account.host);
        self.rows(sink, &[header.as_str()], vec![vec![Value::str(&text)]])
    }
}
