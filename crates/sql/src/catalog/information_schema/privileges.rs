//! USER_PRIVILEGES, SCHEMA_PRIVILEGES, TABLE_PRIVILEGES and
//! COLUMN_PRIVILEGES: the account store's grants, one row per privilege in
//! MariaDB's bit order. An account that may read the `mysql` database sees
//! every account's rows, another its own, as in MariaDB.
use super::InfoContext;
use crate::catalog::account_name::Account;
use crate::catalog::accounts::Accounts;
use crate::error::Result;
use crate::privileges::bits::{COLUMN_LEVEL, DB_LEVEL, GRANT, NAMES, SELECT, TABLE_LEVEL};
use lineardb_table::Value;

/// The grants store and whose rows the session sees.
struct Visible {
    accounts: Accounts,
    all: bool,
    own: Option<Account>,
}

impl Visible {
    fn read(cx: &InfoContext<'_>) -> Result<Visible> {
        Ok(Visible {
            accounts: Accounts::load(cx.engine)?,
            all: cx.grants.account.is_none() || cx.grants.on_database("mysql") & SELECT != 0,
            own: cx.grants.account.clone(),
        })
    }

    fn shows(&self, a: &Account) -> bool {
        self.all || self.own.as_ref().is_some_and(|o| o.is(&a.user, &a.host))
    }
}

/// One grant's rows: for each of `names`, the grantee, `def`, the grant's
/// `objects` (database, table, column as the table has them), the
/// privilege and whether it is grantable.
fn grant_rows<'a>(
    rows: &mut Vec<Vec<Value>>,
    a: &Account,
    objects: &[&str],
    names: impl Iterator<Item = &'a str>,
    grantable_bits: u64,
) {
    for name in names {
        let mut row = vec![
            Value::str(&format!("'{}'@'{}'", a.user, a.host)),
            Value::str("def"),
        ];
        row.extend(objects.iter().map(|o| Value::str(o)));
        row.push(Value::str(name));
        row.push(Value::str(if grantable_bits & GRANT != 0 {
            "YES"
        } else {
            "NO"
        }));
        rows.push(row);
    }
}

/// The names of `bits` within `level`, in MariaDB's order.
fn privileges(bits: u64, level: u64) -> impl Iterator<Item = &'static str> {
    NAMES
        .iter()
        .filter(move |(_, b)| *b != GRANT && bits & level & b != 0)
        .map(|(n, _)| *n)
}

pub(super) fn user_privileges(cx: &InfoContext<'_>) -> Result<Vec<Vec<Value>>> {
    let v = Visible::read(cx)?;
    let mut rows = Vec::new();
    for e in v.accounts.accounts.iter().filter(|e| v.shows(&e.account)) {
        let mut names: Vec<&str> = privileges(e.access, !0).collect();
        if names.is_empty() {
            names.push("USAGE");
        }
        grant_rows(&mut rows, &e.account, &[], names.into_iter(), e.access);
    }
    Ok(rows)
}

pub(super) fn schema_privileges(cx: &InfoContext<'_>) -> Result<Vec<Vec<Value>>> {
    let v = Visible::read(cx)?;
    let mut rows = Vec::new();
    for g in v.accounts.dbs.iter().filter(|g| v.shows(&g.account)) {
        let names = privileges(g.bits, DB_LEVEL);
        grant_rows(&mut rows, &g.account, &[&g.db], names, g.bits);
    }
    Ok(rows)
}

pub(super) fn table_privileges(cx: &InfoContext<'_>) -> Result<Vec<Vec<Value>>> {
    let v = Visible::read(cx)?;
    let mut rows = Vec::new();
    for g in v.accounts.tables.iter().filter(|g| v.shows(&g.account)) {
        let names = privileges(g.bits, TABLE_LEVEL);
        grant_rows(&mut rows, &g.account, &[&g.db, &g.table], names, g.bits);
    }
    Ok(rows)
}

/// A column's grant is grantable where its table's grant is.
pub(super) fn column_privileges(cx: &InfoContext<'_>) -> Result<Vec<Vec<Value>>> {
    let v = Visible::read(cx)?;
    let mut rows = Vec::new();
    for g in v.accounts.columns.iter().filter(|g| v.shows(&g.account)) {
        let table_bits = v
            .accounts
            .tables
            .iter()
            .find(|t| {
                t.account == g.account
                    && t.db.eq_ignore_ascii_case(&g.db)
                    && t.table.eq_ignore_ascii_case(&g.table)
            })
            .map_or(0, |t| t.bits);
        let names = privileges(g.bits, COLUMN_LEVEL);
        grant_rows(
            &mut rows,
            &g.account,
            &[&g.db, &g.table, &g.column],
            names,
            table_bits,
        );
    }
    Ok(rows)
}
