//! LOCK TABLES, FLUSH TABLES … WITH READ LOCK and UNLOCK TABLES (see
//! [`crate::catalog::table_locks`]).
use crate::catalog::table_locks::{LockMode, TableName};
use crate::error::{Result, SqlError};
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
            .acquire(self.slot.id, &list, self.table_lock_wait())?;
        self.locked_tables = Some(wanted);
        Ok(Outcome::done(0))
    }

    /// FLUSH TABLES WITH READ LOCK: the global read lock, taken after
    /// committing the open transaction (1192 under LOCK TABLES), as in
    /// MariaDB. With tables named (and FOR EXPORT, lineardb having no
    /// tablespace files to ready), a READ lock on each, as LOCK TABLES
    /// takes it.
    pub(crate) fn flush_tables_with_read_lock(
        &mut self,
        tables: &[Vec<String>],
    ) -> Result<Outcome> {
        if !tables.is_empty() {
            let read: Vec<(Vec<String>, LockMode)> =
                tables.iter().map(|t| (t.clone(), LockMode::Read)).collect();
            return self.lock_tables(&read);
        }
        if self.locked_tables.is_some() {
            return Err(SqlError::new(
                1192,
                "HY000",
                "Can't execute the given command because you have active locked tables or an \
                 active transaction",
            ));
        }
        self.end_transaction(true)?;
        self.registry
            .table_locks
            .acquire_global_read(self.slot.id, self.table_lock_wait())?;
        Ok(Outcome::done(0))
    }

    /// UNLOCK TABLES: lets the locks go (the global read lock too),
    /// committing the open transaction if LOCK TABLES was in force.
    pub(crate) fn unlock_tables(&mut self) -> Result<Outcome> {
        if self.locked_tables.take().is_some() {
            self.registry.table_locks.release(self.slot.id);
            self.end_transaction(true)?;
        } else if self.registry.table_locks.holds_global_read(self.slot.id) {
            self.registry.table_locks.release(self.slot.id);
        }
        Ok(Outcome::done(0))
    }
}
