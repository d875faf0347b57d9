//! What a server makes in a data file before its first client: the `mysql`
//! schema, as a MariaDB installation has it. Its account tables are the
//! account store's (with `root@localhost`'s row when the store is new, as
//! MariaDB's installer writes it); the other tables and the `mysql.user`
//! view are MariaDB 10.11's definitions (`mysql_schema.sql`), made empty.
//! Tools read them (a GUI's user list, `SELECT 1 FROM mysql.user`, a
//! driver's catalog list); lineardb itself keeps no routines, events,
//! plugins or statistics in them. Each part is made only if missing, so
//! starting on an older data file adds what it lacks.
use crate::catalog::accounts::{all_rows, AccountEntry, AccountTables};
use crate::catalog::registry::Registry;
use crate::error::Result;
use crate::session::Session;
use lineardb_table::Engine;
use std::sync::Arc;

const MYSQL_SCHEMA: &str = include_str!("mysql_schema.sql");

/// Makes the `mysql` schema's missing tables and view. The statements run
/// in a session of their own registry: they are no client's, and count in
/// none of the server's statistics.
pub fn prepare_system_schema(engine: &Arc<Engine>) -> Result<()> {
    let accounts = AccountTables::open(engine)?;
    if all_rows(&*engine.table("mysql", "global_priv")?)?.is_empty() {
        let mut txn = engine.begin();
        accounts.put_account(&mut txn, &AccountEntry::root())?;
        txn.commit()?;
    }
    let mut session = Session::new(engine.clone(), &Registry::new());
    for statement in statements() {
        let view = statement.contains(" VIEW `mysql`.`user`");
        if view && engine.view("mysql", "user")?.is_some() {
            continue;
        }
        session.query(&statement)?;
    }
    Ok(())
}

/// The statements of `mysql_schema.sql` (each ends a line with `;`),
/// without its comment lines.
fn statements() -> Vec<String> {
    MYSQL_SCHEMA
        .split(";\n")
        .map(|s| {
            s.lines()
                .filter(|l| !l.starts_with("--"))
                .collect::<Vec<_>>()
                .join("\n")
                .trim()
                .to_string()
        })
        .filter(|s| !s.is_empty())
        .collect()
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_schema_file_splits_into_its_statements() {
        let statements = super::statements();
        assert_eq!(statements.len(), 16);
        assert!(statements.iter().all(|s| s.starts_with("CREATE ")));
        assert!(statements[15].contains(" VIEW `mysql`.`user`"));
    }
}
