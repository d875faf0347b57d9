//! LOCK TABLES: table locks sessions take by name, READ (shared with other
//! readers) or WRITE (the holder's alone), held until UNLOCK TABLES, the
//! next LOCK TABLES, START TRANSACTION or the session's end.
//!
//! Another session's statement that would read a WRITE-locked table, or
//! change a locked one, waits at its start until the lock goes (error 1205
//! after `lock_wait_timeout`). A statement already running when the lock
//! is taken runs on: row locks still keep its changes apart.
//!
//! FLUSH TABLES WITH READ LOCK takes the global read lock: no other
//! session changes anything (rows, tables, databases, accounts) while one
//! holds it (theirs wait, 1205 after `lock_wait_timeout`), and the holder's
//! own changes are 1223, as in MariaDB; reads go on. Several sessions may
//! hold it at once.
//!
//! Statements ask only while some session holds a table lock or the
//! global read lock: they read one word (`holders`, a load, no shared
//! write) and look no further when it is 0, so reads stay free of shared
//! writes.
use crate::error::{Result, SqlError};
use lineardb_sync::{Condvar, Mutex, SharedWord};
use std::collections::HashMap;
use std::time::{Duration, Instant};

/// How a table is locked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum LockMode {
    Read,
    Write,
}

/// A table's name, database and table lowercase.
pub(crate) type TableName = (String, String);

#[derive(Default)]
struct Holders {
    readers: Vec<u64>,
    writer: Option<u64>,
}

impl Holders {
    /// Whether `session` may take or use the table in `mode` while these
    /// hold it.
    fn admits(&self, session: u64, mode: LockMode) -> bool {
        let others_write = self.writer.is_some_and(|w| w != session);
        let others_read = self.readers.iter().any(|&r| r != session);
        match mode {
            LockMode::Read => !others_write,
            LockMode::Write => !others_write && !others_read,
        }
    }
}

#[derive(Default)]
struct State {
    tables: HashMap<TableName, Holders>,
    /// Sessions holding the global read lock.
    global_readers: Vec<u64>,
}

impl State {
    /// Whether a session other than `session` holds the global read lock.
    fn others_hold_global(&self, session: u64) -> bool {
        self.global_readers.iter().any(|&s| s != session)
    }

    /// Whether a session other than `session` holds a table's WRITE lock.
    fn others_write(&self, session: u64) -> bool {
        self.tables
            .values()
            .any(|h| h.writer.is_some_and(|w| w != session))
    }
}

#[derive(Default)]
pub(crate) struct TableLocks {
    /// Table-lock holders plus global-read-lock holders now.
    holders: SharedWord,
    state: Mutex<State>,
    released: Condvar,
}

/// Error 1223: a change by the session that holds the global read lock.
pub(crate) fn conflicting_read_lock() -> SqlError {
    SqlError::new(
        1223,
        "HY000",
        "Can't execute the query because you have a conflicting read lock",
    )
}

fn timed_out() -> SqlError {
    SqlError::new(
        1205,
        "HY000",
        "Lock wait timeout exceeded; try restarting transaction",
    )
}

impl TableLocks {
    /// Takes every lock of `tables` for `session` at once, waiting while
    /// another session holds one that conflicts (none is taken on a time
    /// out). The session must hold none (see [`TableLocks::release`]).
    pub(crate) fn acquire(
        &self,
        session: u64,
        tables: &[(TableName, LockMode)],
        timeout: Duration,
    ) -> Result<()> {
        let deadline = Instant::now() + timeout;
        let mut held = self.state.lock();
        let writes = tables.iter().any(|(_, mode)| *mode == LockMode::Write);
        while (writes && held.others_hold_global(session))
            || !tables.iter().all(|(name, mode)| {
                held.tables
                    .get(name)
                    .is_none_or(|holders| holders.admits(session, *mode))
            })
        {
            if self.released.wait_until(&mut held, deadline).timed_out() {
                return Err(timed_out());
            }
        }
        for (name, mode) in tables {
            let holders = held.tables.entry(name.clone()).or_default();
            match mode {
                LockMode::Read => holders.readers.push(session),
                LockMode::Write => holders.writer = Some(session),
            }
        }
        if !tables.is_empty() {
            self.holders.fetch_add(1);
        }
        Ok(())
    }

    /// Takes the global read lock for `session`, waiting while another
    /// session holds a WRITE table lock (none is taken on a time out).
    /// Taking it again is nothing.
    pub(crate) fn acquire_global_read(&self, session: u64, timeout: Duration) -> Result<()> {
        let deadline = Instant::now() + timeout;
        let mut held = self.state.lock();
        if held.global_readers.contains(&session) {
            return Ok(());
        }
        while held.others_write(session) {
            if self.released.wait_until(&mut held, deadline).timed_out() {
                return Err(timed_out());
            }
        }
        held.global_readers.push(session);
        self.holders.fetch_add(1);
        Ok(())
    }

    /// Whether `session` holds the global read lock.
    pub(crate) fn holds_global_read(&self, session: u64) -> bool {
        !self.none_held() && self.state.lock().global_readers.contains(&session)
    }

    /// Waits until `session` may change something other than a table
    /// (a database, an account, a new table) past the global read lock:
    /// 1223 if it holds it, 1205 after `timeout` if another does.
    pub(crate) fn wait_to_change(&self, session: u64, timeout: Duration) -> Result<()> {
        if self.none_held() {
            return Ok(());
        }
        let deadline = Instant::now() + timeout;
        let mut held = self.state.lock();
        if held.global_readers.contains(&session) {
            return Err(conflicting_read_lock());
        }
        while held.others_hold_global(session) {
            if self.released.wait_until(&mut held, deadline).timed_out() {
                return Err(timed_out());
            }
        }
        Ok(())
    }

    /// Lets go of every lock `session` holds, the global read lock too.
    pub(crate) fn release(&self, session: u64) {
        let mut held = self.state.lock();
        if let Some(i) = held.global_readers.iter().position(|&s| s == session) {
            held.global_readers.swap_remove(i);
            self.holders.store(self.holders.load().saturating_sub(1));
            self.released.notify_all();
        }
        let held = &mut held.tables;
        let before = held.len();
        let mut had = false;
        held.retain(|_, holders| {
            let readers = holders.readers.len();
            holders.readers.retain(|&r| r != session);
            if holders.writer == Some(session) {
                holders.writer = None;
                had = true;
            }
            had |= holders.readers.len() != readers;
            !holders.readers.is_empty() || holders.writer.is_some()
        });
        if had || held.len() != before {
            self.holders.store(self.holders.load().saturating_sub(1));
            self.released.notify_all();
        }
    }

    /// How many sessions hold a lock on `db`.`table`.
    pub(crate) fn holders_of(&self, db: &str, table: &str) -> usize {
        if self.none_held() {
            return 0;
        }
        let name = (db.to_ascii_lowercase(), table.to_ascii_lowercase());
        self.state
            .lock()
            .tables
            .get(&name)
            .map_or(0, |h| h.readers.len() + usize::from(h.writer.is_some()))
    }

    /// Whether no session holds a table lock or the global read lock now
    /// (one load).
    pub(crate) fn none_held(&self) -> bool {
        self.holders.load() == 0
    }

    /// Waits until `session` may use `table` (reading it, or changing it
    /// when `write`) past other sessions' table locks.
    pub(crate) fn wait_for(
        &self,
        session: u64,
        table: &TableName,
        write: bool,
        timeout: Duration,
    ) -> Result<()> {
        if self.none_held() {
            return Ok(());
        }
        let mode = if write {
            LockMode::Write
        } else {
            LockMode::Read
        };
        let deadline = Instant::now() + timeout;
        let mut held = self.state.lock();
        if write && held.global_readers.contains(&session) {
            return Err(conflicting_read_lock());
        }
        while (write && held.others_hold_global(session))
            || !held
                .tables
                .get(table)
                .is_none_or(|holders| holders.admits(session, mode))
        {
            if self.released.wait_until(&mut held, deadline).timed_out() {
                return Err(timed_out());
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    fn name(t: &str) -> TableName {
        ("db".into(), t.into())
    }

    #[test]
    fn readers_share_and_a_writer_excludes() {
        let locks = TableLocks::default();
        let short = Duration::from_millis(20);
        locks
            .acquire(1, &[(name("a"), LockMode::Read)], short)
            .unwrap();
        locks
            .acquire(2, &[(name("a"), LockMode::Read)], short)
            .unwrap();
        assert!(locks.wait_for(3, &name("a"), false, short).is_ok());
        assert_eq!(
            locks.wait_for(3, &name("a"), true, short).unwrap_err().code,
            1205
        );
        assert_eq!(
            locks
                .acquire(3, &[(name("a"), LockMode::Write)], short)
                .unwrap_err()
                .code,
            1205
        );
        locks.release(1);
        locks.release(2);
        assert_eq!(locks.holders.load(), 0);
        locks
            .acquire(3, &[(name("a"), LockMode::Write)], short)
            .unwrap();
        assert!(
            locks.wait_for(3, &name("a"), true, short).is_ok(),
            "its own lock"
        );
        assert_eq!(
            locks
                .wait_for(4, &name("a"), false, short)
                .unwrap_err()
                .code,
            1205
        );
        assert!(locks.wait_for(4, &name("b"), true, short).is_ok());
    }

    #[test]
    fn the_global_read_lock_holds_changes_back() {
        let locks = TableLocks::default();
        let short = Duration::from_millis(20);
        locks.acquire_global_read(1, short).unwrap();
        locks.acquire_global_read(1, short).unwrap();
        locks.acquire_global_read(2, short).unwrap();
        assert!(
            locks.wait_for(3, &name("a"), false, short).is_ok(),
            "reads go on"
        );
        assert_eq!(
            locks.wait_for(1, &name("a"), true, short).unwrap_err().code,
            1223
        );
        assert_eq!(
            locks.wait_for(3, &name("a"), true, short).unwrap_err().code,
            1205
        );
        assert_eq!(locks.wait_to_change(3, short).unwrap_err().code, 1205);
        assert_eq!(
            locks
                .acquire(3, &[(name("a"), LockMode::Write)], short)
                .unwrap_err()
                .code,
            1205
        );
        locks
            .acquire(3, &[(name("a"), LockMode::Read)], short)
            .unwrap();
        locks.release(1);
        assert_eq!(
            locks.wait_to_change(3, short).unwrap_err().code,
            1205,
            "2 holds it"
        );
        locks.release(2);
        assert!(locks.wait_to_change(3, short).is_ok());
        locks.release(3);
        assert!(locks.none_held());
        locks
            .acquire(4, &[(name("a"), LockMode::Write)], short)
            .unwrap();
        assert_eq!(locks.acquire_global_read(5, short).unwrap_err().code, 1205);
    }

    #[test]
    fn a_waiter_goes_on_when_the_lock_is_released() {
        let locks = Arc::new(TableLocks::default());
        locks
            .acquire(1, &[(name("a"), LockMode::Write)], Duration::from_secs(1))
            .unwrap();
        let waiter = {
            let locks = locks.clone();
            std::thread::spawn(move || {
                let start = Instant::now();
                locks
                    .wait_for(2, &name("a"), false, Duration::from_secs(10))
                    .map(|()| start.elapsed())
            })
        };
        std::thread::sleep(Duration::from_millis(100));
        locks.release(1);
        let waited = waiter.join().unwrap().unwrap();
        assert!(waited >= Duration::from_millis(90), "{waited:?}");
    }
}
