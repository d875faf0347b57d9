//! A table's write gate: DDL that replaces a table (a rebuild, new or
//! dropped indexes, TRUNCATE) closes it, waits until no transaction that
//! wrote the table is still open, does its work and retires the gate, so
//! no write can land in trees the new table does not have. A transaction
//! enters a table's gate at its first write and leaves it when it ends
//! (as MariaDB's metadata locks are held). Readers never touch it.
//!
//! One word: the count of transactions inside, `CLOSED` while DDL works,
//! `RETIRED` once the table was replaced (writers then find the new one).
use crate::error::{Error, Result};
use lineardb_sync::SharedWord;
use std::time::{Duration, Instant};

const CLOSED: u64 = 1 << 62;
const RETIRED: u64 = 1 << 63;
const WRITERS: u64 = CLOSED - 1;

#[derive(Default)]
pub(crate) struct WriteGate {
    /// Written by writers (enter, leave) and DDL only.
    state: SharedWord,
}

/// Why a writer could not enter.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Refused {
    /// The table was replaced: the statement must find it again.
    Retired,
    /// DDL kept the gate closed past the lock wait timeout.
    TimedOut,
}

impl WriteGate {
    /// Enters, waiting while DDL has the gate closed (up to `timeout`).
    pub(crate) fn enter(&self, timeout: Duration) -> std::result::Result<(), Refused> {
        let start = Instant::now();
        let mut waited = false;
        loop {
            let s = self.state.load();
            if s & RETIRED != 0 {
                return Err(Refused::Retired);
            }
            if s & CLOSED == 0 {
                if self.state.compare_exchange(s, s + 1).is_ok() {
                    return Ok(());
                }
                continue;
            }
            if start.elapsed() >= timeout {
                return Err(Refused::TimedOut);
            }
            if !waited {
                lineardb_sync::blocking::about_to_block();
                waited = true;
            }
            std::thread::sleep(Duration::from_millis(1));
        }
    }

    pub(crate) fn leave(&self) {
        // Wrapping add of -1: the count was at least 1.
        self.state.fetch_add(u64::MAX);
    }

    /// Closes the gate and waits until every writer inside has left; on
    /// timeout opens it again and fails with a lock wait timeout.
    pub(crate) fn close(&self, timeout: Duration) -> Result<()> {
        loop {
            let s = self.state.load();
            if s & RETIRED != 0 {
                return Err(Error::Invalid("the table was replaced meanwhile".into()));
            }
            if self.state.compare_exchange(s, s | CLOSED).is_ok() {
                break;
            }
        }
        let start = Instant::now();
        if self.state.load() & WRITERS != 0 {
            lineardb_sync::blocking::about_to_block();
        }
        while self.state.load() & WRITERS != 0 {
            if start.elapsed() >= timeout {
                self.open();
                return Err(Error::Lock(lineardb_txn::LockError::Timeout));
            }
            std::thread::sleep(Duration::from_millis(1));
        }
        Ok(())
    }

    /// Opens a closed gate again (the DDL failed).
    pub(crate) fn open(&self) {
        loop {
            let s = self.state.load();
            if self.state.compare_exchange(s, s & !CLOSED).is_ok() {
                return;
            }
        }
    }

    /// Marks the table replaced: writers waiting at the gate, and any that
    /// come later, look the table up again.
    pub(crate) fn retire(&self) {
        loop {
            let s = self.state.load();
            if self.state.compare_exchange(s, s | RETIRED).is_ok() {
                return;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    #[test]
    fn close_waits_for_writers_and_retire_turns_them_away() {
        let gate = Arc::new(WriteGate::default());
        gate.enter(Duration::ZERO).unwrap();
        let g = gate.clone();
        let leaver = std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(20));
            g.leave();
        });
        let start = Instant::now();
        gate.close(Duration::from_secs(5)).unwrap();
        assert!(start.elapsed() >= Duration::from_millis(15));
        leaver.join().unwrap();
        assert_eq!(gate.enter(Duration::ZERO), Err(Refused::TimedOut));
        gate.retire();
        assert_eq!(gate.enter(Duration::from_secs(1)), Err(Refused::Retired));
    }

    #[test]
    fn a_close_that_times_out_opens_the_gate_again() {
        let gate = WriteGate::default();
        gate.enter(Duration::ZERO).unwrap();
        assert!(gate.close(Duration::from_millis(5)).is_err());
        gate.enter(Duration::ZERO).unwrap();
        gate.leave();
        gate.leave();
        gate.close(Duration::ZERO).unwrap();
    }
}
