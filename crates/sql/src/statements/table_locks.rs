//! LOCK TABLES and UNLOCK TABLES (see [`crate::catalog::table_locks`]).
use crate::catalog::table_locks::{LockMode, TableName};
use crate::error::Result;
use crate::privileges::bits::{LOCK_TABLES, SELECT};
use crate::result::Outcome;
use crate::session::Session;
use std::collections::HashMap;

impl Session {
    /// LOCK TABLES: ends the open transaction (committing it) and the
    /// locks held before, then takes these. A view locks the tables it
    /// reads too; the session's temporary tables need no lock.
    pub(crate) fn lock_tables(&mut self, tables: &[(Vec<String>, LockMode)]) -> Result<Outcome> {
        let mut wanted: HashMap<TableName, LockMode> = HashMap::new();
        let mut want = |key: TableName, mode: LockMode| {
            let m = wanted.entry(key).or_insert(mode);
            if mode == LockMode::Write {
                *m = LockMode::Write;
            }
        };
        for (parts, mode) in tables {
            let (db, name) = self.qualified(parts)?;
            if self.tables.is_temporary(&db, &name) {
                continue;
            }
            self.require_database(&db, LOCK_TABLES)?;
            self.require_table(&db, &name, SELECT)?;
            if let Some(view) = self.engine.view(&db, &name)? {
                let query = crate::parser::view_query(&view)?;
                let _ = sqlparser::ast::visit_relations(&query, |n| {
                    let parts = crate::expr::object_name(n);
                    if let Ok((d, t)) = crate::names::qualify(Some(&db), &parts) {
                        want((d.to_ascii_lowercase(), t.to_ascii_lowercase()), *mode);
                    }
                    std::ops::ControlFlow::<()>::Continue(())
                });
            } else {
                // 1146 for a table that is not there.
                self.engine.table(&db, &name).map_err(|e| match e {
                    lineardb_table::Error::NoSuchTable(_)
                    | lineardb_table::Error::NoSuchDatabase(_) => {
                        crate::error::SqlError::unknown_table(&db, &name)
                    }
                    e => e.into(),
                })?;
            }
            want((db.to_ascii_lowercase(), name.to_ascii_lowercase()), *mode);
        }
        self.unlock_tables()?;
        self.end_transaction(true)?;
        let list: Vec<(TableName, LockMode)> =
            wanted.iter().map(|(k, m)| (k.clone(), *m)).collect();
        self.registry
            .table_locks
            .acquire(self.slot.id, &list, self.engine.lock_wait_timeout())?;
        self.locked_tables = Some(wanted);
        Ok(Outcome::done(0))
    }

    /// UNLOCK TABLES: lets the locks go, committing the open transaction
    /// if LOCK TABLES was in force.
    pub(crate) fn unlock_tables(&mut self) -> Result<Outcome> {
        if self.locked_tables.take().is_some() {
            self.registry.table_locks.release(self.slot.id);
            self.end_transaction(true)?;
        }
        Ok(Outcome::done(0))
    }
}
