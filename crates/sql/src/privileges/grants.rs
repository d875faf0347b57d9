//! What one account may do: its global privileges, `db.*` grants (names
//! with `_`/`%` wildcards), `db.table` grants and column grants. Database
//! and table names compare without case (`lower_case_table_names = 1`).
use crate::catalog::account_name::Account;
use crate::privileges::bits::{ALL_GLOBAL, DB_LEVEL, GRANT, SELECT, TABLE_LEVEL};

/// Grants on one table.
#[derive(Debug, Clone, Default)]
pub struct TablePrivileges {
    pub(crate) db: String,
    pub(crate) table: String,
    pub(crate) bits: u64,
    /// (column, privileges) of its column grants.
    pub(crate) columns: Vec<(String, u64)>,
}

/// An account's privileges, read from the account store.
#[derive(Debug, Clone, Default)]
pub struct Grants {
    /// The account they belong to; `None` for an embedded session, which
    /// has every privilege and never reloads them.
    pub(crate) account: Option<Account>,
    pub(crate) global: u64,
    pub(crate) databases: Vec<(String, u64)>,
    pub(crate) tables: Vec<TablePrivileges>,
}

/// `db.*` grant names match as LIKE patterns (`\_` a literal `_`).
fn db_matches(pattern: &str, db: &str) -> bool {
    pattern.eq_ignore_ascii_case(db) || crate::expr::like(db.as_bytes(), pattern.as_bytes())
}

/// What `granted` allows in `db` when it is one of the server's read-only
/// schemas, as in MariaDB: everybody may read `information_schema` and
/// nobody change it; `performance_schema` grants reading (and DROP, which
/// TRUNCATE needs) and nothing else.
fn system_schema_bits(db: &str, granted: u64) -> u64 {
    if crate::names::is_information_schema(db) {
        SELECT
    } else if crate::names::is_performance_schema(db) {
        granted & (SELECT | crate::privileges::bits::DROP)
    } else {
        granted
    }
}

impl Grants {
    /// Every privilege, for an embedded session.
    pub fn superuser() -> Grants {
        Grants {
            account: None,
            global: ALL_GLOBAL | GRANT,
            ..Grants::default()
        }
    }

    pub(crate) fn for_account(account: Account) -> Grants {
        Grants {
            account: Some(account),
            ..Grants::default()
        }
    }

    #[cfg(test)]
    fn is_superuser(&self) -> bool {
        self.global & ALL_GLOBAL == ALL_GLOBAL
    }

    /// Privileges on every table of `db`: global and `db.*` grants.
    pub(crate) fn on_database(&self, db: &str) -> u64 {
        let granted = self
            .databases
            .iter()
            .filter(|(pattern, _)| db_matches(pattern, db))
            .fold(self.global, |acc, (_, bits)| acc | bits);
        system_schema_bits(db, granted)
    }

    fn table_entry(&self, db: &str, table: &str) -> Option<&TablePrivileges> {
        self.tables
            .iter()
            .find(|t| t.db.eq_ignore_ascii_case(db) && t.table.eq_ignore_ascii_case(table))
    }

    /// Privileges on the whole of `db`.`table`.
    pub(crate) fn on_table(&self, db: &str, table: &str) -> u64 {
        let granted = self.table_entry(db, table).map_or(0, |t| t.bits);
        self.on_database(db) | system_schema_bits(db, granted)
    }

    /// Privileges on one column of `db`.`table`.
    pub(crate) fn on_column(&self, db: &str, table: &str, column: &str) -> u64 {
        let columns = self.table_entry(db, table).map_or(0, |t| {
            t.columns
                .iter()
                .filter(|(c, _)| c.eq_ignore_ascii_case(column))
                .fold(0, |acc, (_, b)| acc | b)
        });
        self.on_table(db, table) | columns
    }

    /// Whether some column of `db`.`table` was granted `privilege`.
    pub(crate) fn has_column_grants(&self, db: &str, table: &str, privilege: u64) -> bool {
        self.table_entry(db, table)
            .is_some_and(|t| t.columns.iter().any(|(_, b)| b & privilege != 0))
    }

    /// Whether the account may see `db` at all (SHOW DATABASES, USE): a
    /// database-level privilege on it (global or `db.*`), or some privilege
    /// on one of its tables.
    pub(crate) fn sees_database(&self, db: &str) -> bool {
        self.on_database(db) & DB_LEVEL & !GRANT != 0
            || self
                .tables
                .iter()
                .any(|t| t.db.eq_ignore_ascii_case(db) && (t.bits | column_union(t)) != 0)
    }

    /// Whether SHOW TABLES lists `db`.`table`: a table privilege on it at
    /// any level, or a column grant.
    pub(crate) fn sees_table(&self, db: &str, table: &str) -> bool {
        let columns = self.table_entry(db, table).map_or(0, column_union);
        (self.on_table(db, table) | columns) & TABLE_LEVEL & !GRANT != 0
    }

    /// Whether SHOW CREATE TABLE may show `db`.`table`: a table privilege
    /// at any level (column grants do not count).
    pub(crate) fn may_show_definition(&self, db: &str, table: &str) -> bool {
        self.on_table(db, table) & TABLE_LEVEL & !GRANT != 0
    }

    /// Whether SHOW COLUMNS and SHOW INDEX may show `db`.`table`: any
    /// grant on the table itself (its columns' included), or SELECT on its
    /// database or globally — MariaDB's rule.
    pub(crate) fn may_describe(&self, db: &str, table: &str) -> bool {
        self.table_entry(db, table)
            .is_some_and(|t| (t.bits | column_union(t)) & !GRANT != 0)
            || self.on_database(db) & SELECT != 0
    }

    /// Privileges of `db`.`table`'s column grants, together.
    pub(crate) fn on_some_column(&self, db: &str, table: &str) -> u64 {
        self.table_entry(db, table).map_or(0, column_union)
    }
}

fn column_union(t: &TablePrivileges) -> u64 {
    t.columns.iter().fold(0, |acc, (_, b)| acc | b)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::privileges::bits::{INSERT, UPDATE};

    #[test]
    fn levels_add_up() {
        let mut g = Grants::for_account(Account::new("u", "%"));
        g.databases = vec![("shop".into(), SELECT), ("te\\_t%".into(), INSERT)];
        g.tables = vec![TablePrivileges {
            db: "Other".into(),
            table: "T".into(),
            bits: UPDATE,
            columns: vec![("a".into(), SELECT)],
        }];
        assert_eq!(g.on_database("SHOP"), SELECT);
        assert_eq!(g.on_database("te_t1"), INSERT);
        assert_eq!(g.on_database("teXt1"), 0);
        assert_eq!(g.on_table("other", "t"), UPDATE);
        assert_eq!(g.on_column("other", "t", "A"), UPDATE | SELECT);
        assert!(g.has_column_grants("other", "t", SELECT));
        assert!(!g.has_column_grants("other", "t", INSERT));
        assert!(g.sees_database("other"));
        assert!(!g.sees_database("third"));
        assert!(!g.sees_table("other", "u"));
        assert!(g.sees_table("other", "t"));
        assert!(g.may_show_definition("other", "t"));
        assert!(g.may_describe("other", "t"));
        assert!(!g.may_describe("te_t1", "t"));
        assert!(!g.is_superuser());
        assert!(Grants::superuser().is_superuser());
    }
}
