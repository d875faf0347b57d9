//! Account statements: CREATE USER, SET PASSWORD, DROP USER, GRANT, REVOKE,
//! SHOW GRANTS.
use crate::catalog::accounts::{
    account_tables, all_rows, password_hash, privilege_text, text, Account, ALL, NAMES,
};
use crate::error::{Result, SqlError};
use crate::expr::object_name;
use crate::result::{Outcome, RowSink};
use crate::session::Session;
use lineardb_table::Value;
use lineardb_txn::ReadView;
use sqlparser::ast;

impl Session {
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

    /// DROP USER of each of `names` (any host: `%`).
    pub(crate) fn drop_users(
        &mut self,
        names: &[ast::ObjectName],
        if_exists: bool,
    ) -> Result<Outcome> {
        for n in names {
            let account = Account {
                user: object_name(n).join("."),
                host: "%".into(),
            };
            self.drop_user(&account, if_exists)?;
        }
        Ok(Outcome::done(0))
    }

    /// GRANT (`grant`) or REVOKE of `privileges` on `objects` to or from `grantees`.
    pub(crate) fn grant_or_revoke(
        &mut self,
        privileges: &ast::Privileges,
        objects: Option<&ast::GrantObjects>,
        grantees: &[ast::Grantee],
        grant: bool,
    ) -> Result<Outcome> {
        let bits = privilege_bits(privileges)?;
        let db = grant_database(objects)?;
        for account in self::grantees(grantees)? {
            self.grant(&account, &db, bits, grant)?;
        }
        Ok(Outcome::done(0))
    }
}

/// Privilege bits of a GRANT/REVOKE list.
fn privilege_bits(p: &sqlparser::ast::Privileges) -> Result<u32> {
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

/// The database of `GRANT ... ON db.*` (`*` for `*.*`).
fn grant_database(objects: Option<&ast::GrantObjects>) -> Result<String> {
    if let Some(ast::GrantObjects::Tables(names)) = objects {
        if let [name] = names.as_slice() {
            match object_name(name).as_slice() {
                [db, star] if star == "*" => return Ok(db.clone()),
                [star] if star == "*" => return Ok("*".into()),
                _ => {}
            }
        }
    }
    Err(SqlError::unsupported(
        "privileges other than on whole databases (db.* or *.*)",
    ))
}

fn grantees(list: &[ast::Grantee]) -> Result<Vec<Account>> {
    list.iter()
        .map(|g| match &g.name {
            Some(ast::GranteeName::UserHost { user, host }) => Ok(Account {
                user: user.value.clone(),
                host: host.value.clone(),
            }),
            Some(ast::GranteeName::ObjectName(n)) => Ok(Account {
                user: object_name(n).join("."),
                host: "%".into(),
            }),
            None => Err(SqlError::syntax("GRANT ... TO <user>")),
        })
        .collect()
}
