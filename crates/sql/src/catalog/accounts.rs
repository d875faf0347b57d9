//! The account store: accounts and their grants in MariaDB's own tables —
//! `mysql.global_priv` (one row per account, its `Priv` a JSON object as
//! MariaDB 10.4+ keeps it: `access` bits, `plugin`,
//! `authentication_string`, `account_locked`, `ssl_type`), `mysql.db`,
//! `mysql.tables_priv` and `mysql.columns_priv` — created by the first
//! account statement. The store is small: it is read whole into an
//! [`Accounts`] snapshot at login and when a session sees that account
//! statements changed it (see [`Registry::accounts_version`]).
//!
//! `root@localhost` without a row is the built-in superuser with an empty
//! password.
//!
//! [`Registry::accounts_version`]: crate::Registry::accounts_version
use crate::catalog::account_name::Account;
use crate::error::Result;
use crate::privileges::bits::{self, ALL_GLOBAL, DB_COLUMNS, GRANT};
use crate::privileges::grants::{Grants, TablePrivileges};
use lineardb_table::{ColumnDef, DataType, Engine, KeyRange, Table, TableSpec, Value};
use lineardb_txn::{ReadView, Txn};
use std::sync::Arc;

/// One row of `mysql.global_priv`.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct AccountEntry {
    pub account: Account,
    pub plugin: String,
    /// `*` and 40 hex digits (mysql_native_password), or "" for none.
    pub authentication: String,
    /// Global privileges (GRANT: WITH GRANT OPTION on `*.*`).
    pub access: u64,
    pub locked: bool,
    /// REQUIRE SSL.
    pub require_ssl: bool,
}

impl AccountEntry {
    pub(crate) fn new(account: Account, authentication: String) -> AccountEntry {
        AccountEntry {
            account,
            plugin: "mysql_native_password".into(),
            authentication,
            access: 0,
            locked: false,
            require_ssl: false,
        }
    }

    pub(crate) fn root() -> AccountEntry {
        AccountEntry {
            access: ALL_GLOBAL | GRANT,
            ..AccountEntry::new(Account::new("root", "localhost"), String::new())
        }
    }

    fn priv_json(&self) -> String {
        let mut o = serde_json::Map::new();
        o.insert("access".into(), self.access.into());
        o.insert("version_id".into(), 101100.into());
        o.insert("plugin".into(), self.plugin.clone().into());
        o.insert(
            "authentication_string".into(),
            self.authentication.clone().into(),
        );
        if self.locked {
            o.insert("account_locked".into(), true.into());
        }
        if self.require_ssl {
            o.insert("ssl_type".into(), 1.into());
        }
        serde_json::Value::Object(o).to_string()
    }

    fn from_row(row: &[Value]) -> AccountEntry {
        let json: serde_json::Value = serde_json::from_str(&text(&row[2])).unwrap_or_default();
        let str_of = |k: &str| json.get(k).and_then(|v| v.as_str()).unwrap_or("");
        AccountEntry {
            account: Account::new(&text(&row[1]), &text(&row[0])),
            plugin: match str_of("plugin") {
                "" => "mysql_native_password".into(),
                p => p.into(),
            },
            authentication: str_of("authentication_string").into(),
            access: json.get("access").and_then(|v| v.as_u64()).unwrap_or(0),
            locked: json
                .get("account_locked")
                .and_then(|v| v.as_bool())
                .unwrap_or(false),
            require_ssl: json.get("ssl_type").and_then(|v| v.as_u64()) == Some(1),
        }
    }
}

/// A `db.*` grant (`db` may hold `_` and `%` wildcards).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct DbGrant {
    pub account: Account,
    pub db: String,
    pub bits: u64,
}

/// A `db.table` grant: table privileges and the union of its column ones.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct TableGrant {
    pub account: Account,
    pub db: String,
    pub table: String,
    pub bits: u64,
    pub column_bits: u64,
}

/// A column grant: `SELECT (col) ON db.table`.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct ColumnGrant {
    pub account: Account,
    pub db: String,
    pub table: String,
    pub column: String,
    pub bits: u64,
}

/// Every account and grant, as read at one moment.
#[derive(Debug, Clone, Default)]
pub(crate) struct Accounts {
    pub accounts: Vec<AccountEntry>,
    pub dbs: Vec<DbGrant>,
    pub tables: Vec<TableGrant>,
    pub columns: Vec<ColumnGrant>,
}

impl Accounts {
    /// Reads the store (empty tables if it was never made).
    pub(crate) fn load(engine: &Engine) -> Result<Accounts> {
        let mut a = Accounts::default();
        if let Ok(t) = engine.table("mysql", "global_priv") {
            a.accounts = all_rows(&t)?
                .iter()
                .map(|r| AccountEntry::from_row(r))
                .collect();
        }
        if !a.accounts.iter().any(|e| e.account.is("root", "localhost")) {
            a.accounts.push(AccountEntry::root());
        }
        if let Ok(t) = engine.table("mysql", "db") {
            for r in all_rows(&t)? {
                let bits = DB_COLUMNS
                    .iter()
                    .enumerate()
                    .filter(|(i, _)| text(&r[3 + i]) == "Y")
                    .fold(0, |acc, (_, (_, b))| acc | b);
                a.dbs.push(DbGrant {
                    account: Account::new(&text(&r[2]), &text(&r[0])),
                    db: text(&r[1]),
                    bits,
                });
            }
        }
        if let Ok(t) = engine.table("mysql", "tables_priv") {
            for r in all_rows(&t)? {
                a.tables.push(TableGrant {
                    account: Account::new(&text(&r[2]), &text(&r[0])),
                    db: text(&r[1]),
                    table: text(&r[3]),
                    bits: bits::parse_set_text(&text(&r[6])),
                    column_bits: bits::parse_set_text(&text(&r[7])),
                });
            }
        }
        if let Ok(t) = engine.table("mysql", "columns_priv") {
            for r in all_rows(&t)? {
                a.columns.push(ColumnGrant {
                    account: Account::new(&text(&r[2]), &text(&r[0])),
                    db: text(&r[1]),
                    table: text(&r[3]),
                    column: text(&r[4]),
                    bits: bits::parse_set_text(&text(&r[6])),
                });
            }
        }
        Ok(a)
    }

    /// The account named exactly `user`@`host`.
    pub(crate) fn find(&self, account: &Account) -> Option<&AccountEntry> {
        self.accounts
            .iter()
            .find(|e| e.account.is(&account.user, &account.host))
    }

    /// What `account` may do.
    pub(crate) fn grants_of(&self, account: &Account) -> Grants {
        let mut g = Grants::for_account(account.clone());
        let mine = |a: &Account| a.is(&account.user, &account.host);
        if let Some(e) = self.find(account) {
            g.global = e.access;
        }
        g.databases = self
            .dbs
            .iter()
            .filter(|d| mine(&d.account))
            .map(|d| (d.db.clone(), d.bits))
            .collect();
        g.tables = self
            .tables
            .iter()
            .filter(|t| mine(&t.account))
            .map(|t| TablePrivileges {
                db: t.db.clone(),
                table: t.table.clone(),
                bits: t.bits,
                columns: self
                    .columns
                    .iter()
                    .filter(|c| {
                        mine(&c.account)
                            && c.db.eq_ignore_ascii_case(&t.db)
                            && c.table.eq_ignore_ascii_case(&t.table)
                    })
                    .map(|c| (c.column.clone(), c.bits))
                    .collect(),
            })
            .collect();
        g
    }
}

/// The store's tables, for account statements to change (in their
/// caller's transaction).
pub(crate) struct AccountTables {
    global_priv: Arc<Table>,
    db: Arc<Table>,
    tables_priv: Arc<Table>,
    columns_priv: Arc<Table>,
}

fn column(name: &str, data_type: DataType) -> ColumnDef {
    let mut c = ColumnDef::new(name, data_type);
    c.nullable = false;
    c
}

fn create(
    engine: &Engine,
    name: &str,
    columns: Vec<ColumnDef>,
    key: &[&str],
) -> Result<Arc<Table>> {
    if let Ok(t) = engine.table("mysql", name) {
        return Ok(t);
    }
    let mut spec = TableSpec::new("mysql", name);
    spec.columns = columns;
    spec.primary_key = key.iter().map(|k| k.to_string()).collect();
    Ok(engine.create_table(spec)?)
}

impl AccountTables {
    /// The tables, created if missing.
    pub(crate) fn open(engine: &Engine) -> Result<AccountTables> {
        if !engine.database_exists("mysql")? {
            engine.create_database("mysql", true)?;
        }
        let host = || column("Host", DataType::Char(255));
        let user = || column("User", DataType::Char(128));
        let db = || column("Db", DataType::Char(64));
        let table = || column("Table_name", DataType::Char(64));
        let global_priv = create(
            engine,
            "global_priv",
            vec![host(), user(), column("Priv", DataType::VarChar(4096))],
            &["Host", "User"],
        )?;
        let mut db_columns = vec![host(), db(), user()];
        db_columns.extend(DB_COLUMNS.iter().map(|(n, _)| column(n, DataType::Char(1))));
        let db_table = create(engine, "db", db_columns, &["Host", "Db", "User"])?;
        let tables_priv = create(
            engine,
            "tables_priv",
            vec![
                host(),
                db(),
                user(),
                table(),
                column("Grantor", DataType::Char(141)),
                column("Timestamp", DataType::DateTime),
                column("Table_priv", DataType::VarChar(255)),
                column("Column_priv", DataType::VarChar(255)),
            ],
            &["Host", "Db", "User", "Table_name"],
        )?;
        let columns_priv = create(
            engine,
            "columns_priv",
            vec![
                host(),
                db(),
                user(),
                table(),
                column("Column_name", DataType::Char(64)),
                column("Timestamp", DataType::DateTime),
                column("Column_priv", DataType::VarChar(255)),
            ],
            &["Host", "Db", "User", "Table_name", "Column_name"],
        )?;
        Ok(AccountTables {
            global_priv,
            db: db_table,
            tables_priv,
            columns_priv,
        })
    }

    /// Writes `entry` (replacing the account's row).
    pub(crate) fn put_account(&self, txn: &mut Txn, entry: &AccountEntry) -> Result<()> {
        let key = [
            Value::str(&entry.account.host),
            Value::str(&entry.account.user),
        ];
        self.replace(
            &self.global_priv,
            txn,
            &key,
            vec![Value::str(&entry.priv_json())],
        )
    }

    /// Removes an account and every grant it holds; false if it had no row.
    pub(crate) fn delete_account(&self, txn: &mut Txn, account: &Account) -> Result<bool> {
        let key = self
            .global_priv
            .encode_primary_key(&[Value::str(&account.host), Value::str(&account.user)])?;
        let existed = self.global_priv.delete_by_key(txn, &key)?;
        for (t, user_at, host_at, key_len) in [
            (&self.db, 2, 0, 3),
            (&self.tables_priv, 2, 0, 4),
            (&self.columns_priv, 2, 0, 5),
        ] {
            for r in all_rows(t)? {
                if account.is(&text(&r[user_at]), &text(&r[host_at])) {
                    let key = t.encode_primary_key(&r[..key_len])?;
                    t.delete_by_key(txn, &key)?;
                }
            }
        }
        Ok(existed)
    }

    /// Writes a `db.*` grant; no privileges left removes its row.
    pub(crate) fn put_db_grant(&self, txn: &mut Txn, g: &DbGrant) -> Result<()> {
        let key = [
            Value::str(&g.account.host),
            Value::str(&g.db),
            Value::str(&g.account.user),
        ];
        if g.bits == 0 {
            return self.remove(&self.db, txn, &key);
        }
        let flags = DB_COLUMNS
            .iter()
            .map(|(_, b)| Value::str(if g.bits & b != 0 { "Y" } else { "N" }))
            .collect();
        self.replace(&self.db, txn, &key, flags)
    }

    /// Writes a `db.table` grant; no privileges left removes its row.
    pub(crate) fn put_table_grant(
        &self,
        txn: &mut Txn,
        g: &TableGrant,
        grantor: &str,
    ) -> Result<()> {
        let key = [
            Value::str(&g.account.host),
            Value::str(&g.db),
            Value::str(&g.account.user),
            Value::str(&g.table),
        ];
        if g.bits == 0 && g.column_bits == 0 {
            return self.remove(&self.tables_priv, txn, &key);
        }
        let rest = vec![
            Value::str(grantor),
            now(),
            Value::str(&bits::set_text(g.bits)),
            Value::str(&bits::set_text(g.column_bits)),
        ];
        self.replace(&self.tables_priv, txn, &key, rest)
    }

    /// Writes a column grant; no privileges left removes its row.
    pub(crate) fn put_column_grant(&self, txn: &mut Txn, g: &ColumnGrant) -> Result<()> {
        let key = [
            Value::str(&g.account.host),
            Value::str(&g.db),
            Value::str(&g.account.user),
            Value::str(&g.table),
            Value::str(&g.column),
        ];
        if g.bits == 0 {
            return self.remove(&self.columns_priv, txn, &key);
        }
        let rest = vec![now(), Value::str(&bits::set_text(g.bits))];
        self.replace(&self.columns_priv, txn, &key, rest)
    }

    fn remove(&self, t: &Table, txn: &mut Txn, key: &[Value]) -> Result<()> {
        let k = t.encode_primary_key(key)?;
        t.delete_by_key(txn, &k)?;
        Ok(())
    }

    fn replace(&self, t: &Table, txn: &mut Txn, key: &[Value], rest: Vec<Value>) -> Result<()> {
        self.remove(t, txn, key)?;
        let row = key.iter().cloned().chain(rest).map(Some).collect();
        t.insert(txn, row)?;
        Ok(())
    }
}

fn now() -> Value {
    let micros = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_micros() as i64);
    Value::DateTime(micros)
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn priv_json_round_trips() {
        let mut e = AccountEntry::new(Account::new("bob", "10.0.%"), "*AB".into());
        e.access = bits::SELECT | GRANT;
        e.locked = true;
        e.require_ssl = true;
        let row = [
            Value::str("10.0.%"),
            Value::str("bob"),
            Value::str(&e.priv_json()),
        ];
        assert_eq!(AccountEntry::from_row(&row), e);
    }
}
