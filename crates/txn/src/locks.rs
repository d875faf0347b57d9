//! Row locks: a transaction that changes a row holds an exclusive lock on
//! its key (the tree's root and the primary key) until it ends, so two
//! transactions never change one row at once and undo never overwrites
//! another transaction's change. A key is locked whether or not a row has
//! it (a DELETE of a missing row and the INSERT that follows hold it).
//!
//! A conflict waits up to the lock wait timeout (error 1205 after). Each
//! waiting transaction waits for one holder, so the wait-for graph is a set
//! of chains: a requester whose holder's chain leads back to itself would
//! close a cycle, and it is the deadlock victim (error 1213).
//!
//! Only writers and locking reads (SELECT ... FOR UPDATE / FOR SHARE) come
//! here; plain reads take no locks. One mutex covers the table.
use crate::waits;
use lineardb_sync::wait::{WaitSite, WaitTimer};
use lineardb_sync::{Condvar, Mutex};
use std::collections::HashMap;
use std::time::{Duration, Instant};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LockError {
    /// Waited longer than the lock wait timeout.
    Timeout,
    /// Waiting would close a cycle: this transaction must roll back.
    Deadlock,
}

impl std::fmt::Display for LockError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            LockError::Timeout => "Lock wait timeout exceeded; try restarting transaction",
            LockError::Deadlock => {
                "Deadlock found when trying to get lock; try restarting transaction"
            }
        })
    }
}

impl std::error::Error for LockError {}

#[derive(Default)]
struct State {
    owners: HashMap<Vec<u8>, u64>,
    /// Waiting transaction -> the transaction it waits for.
    waits_for: HashMap<u64, u64>,
    /// Waiting transaction -> what it waits for (shown by
    /// [`LockTable::waits`]).
    waiting: HashMap<u64, Waiting>,
}

struct Waiting {
    owner: u64,
    key: Vec<u8>,
    since: std::time::SystemTime,
}

/// A transaction waiting for a row lock another holds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LockWait {
    pub waiting: u64,
    /// Who runs the waiting transaction ([`crate::Txn::begin_for`]).
    pub waiting_owner: u64,
    pub holder: u64,
    /// The root page of the tree whose row it is.
    pub root: u64,
    /// The row's key in that tree.
    pub key: Vec<u8>,
    pub since: std::time::SystemTime,
}

pub(crate) struct LockTable {
    state: Mutex<State>,
    released: Condvar,
    timeout_ms: lineardb_sync::SharedWord,
}

/// MySQL's default `innodb_lock_wait_timeout`, seconds.
pub const DEFAULT_LOCK_WAIT_TIMEOUT: u64 = 50;

impl LockTable {
    pub(crate) fn new() -> LockTable {
        LockTable {
            state: Mutex::with_class(waits::LOCK_TABLE, State::default()),
            released: Condvar::new(),
            timeout_ms: lineardb_sync::SharedWord::new(DEFAULT_LOCK_WAIT_TIMEOUT * 1000),
        }
    }

    pub(crate) fn set_timeout(&self, t: Duration) {
        self.timeout_ms.store(t.as_millis() as u64);
    }

    pub(crate) fn timeout(&self) -> Duration {
        Duration::from_millis(self.timeout_ms.load())
    }

    /// Locks `key` for `txn`. `Ok(true)`: newly locked (the caller releases
    /// it when the transaction ends); `Ok(false)`: `txn` held it already.
    pub(crate) fn lock(&self, txn: u64, owner: u64, key: &[u8]) -> Result<bool, LockError> {
        let deadline = Instant::now() + self.timeout();
        let mut announced = false;
        let mut s = self.state.lock();
        loop {
            let holder = match s.owners.get(key) {
                None => {
                    s.owners.insert(key.to_vec(), txn);
                    s.waits_for.remove(&txn);
                    s.waiting.remove(&txn);
                    return Ok(true);
                }
                Some(&o) if o == txn => return Ok(false),
                Some(&o) => o,
            };
            // Would waiting for `holder` close a cycle?
            let mut at = holder;
            let mut steps = 0usize;
            while let Some(&next) = s.waits_for.get(&at) {
                if next == txn || steps > s.waits_for.len() {
                    s.waits_for.remove(&txn);
                    s.waiting.remove(&txn);
                    return Err(LockError::Deadlock);
                }
                at = next;
                steps += 1;
            }
            if !announced {
                // Tell the thread pool this thread will wait (it may start
                // a thread: not under the table's mutex), then look again.
                announced = true;
                lineardb_sync::MutexGuard::unlocked(
                    &mut s,
                    lineardb_sync::blocking::about_to_block,
                );
                continue;
            }
            s.waits_for.insert(txn, holder);
            s.waiting.entry(txn).or_insert_with(|| Waiting {
                owner,
                key: key.to_vec(),
                since: std::time::SystemTime::now(),
            });
            let timed_out = {
                let _wait = WaitTimer::start(WaitSite::class(waits::ROW_LOCK));
                self.released.wait_until(&mut s, deadline).timed_out()
            };
            if timed_out {
                s.waits_for.remove(&txn);
                s.waiting.remove(&txn);
                return Err(LockError::Timeout);
            }
        }
    }

    /// Locks `key` for `txn` if no other transaction holds it, without
    /// waiting (NOWAIT, SKIP LOCKED). `Some(true)`: newly locked;
    /// `Some(false)`: `txn` held it already; `None`: another holds it.
    pub(crate) fn try_lock(&self, txn: u64, key: &[u8]) -> Option<bool> {
        let mut s = self.state.lock();
        match s.owners.get(key) {
            None => {
                s.owners.insert(key.to_vec(), txn);
                Some(true)
            }
            Some(&o) => (o == txn).then_some(false),
        }
    }

    /// The transactions waiting now, each with the one it waits for.
    pub(crate) fn waits(&self) -> Vec<LockWait> {
        let s = self.state.lock();
        let mut out: Vec<LockWait> = s
            .waiting
            .iter()
            .filter_map(|(&txn, w)| {
                let holder = *s.waits_for.get(&txn)?;
                let (root, key) = w.key.split_at(8.min(w.key.len()));
                Some(LockWait {
                    waiting: txn,
                    waiting_owner: w.owner,
                    holder,
                    root: u64::from_le_bytes(root.try_into().unwrap_or([0; 8])),
                    key: key.to_vec(),
                    since: w.since,
                })
            })
            .collect();
        out.sort_by_key(|w| w.waiting);
        out
    }

    /// Releases the keys a transaction locked and wakes the waiters.
    pub(crate) fn release(&self, keys: &[Vec<u8>]) {
        if keys.is_empty() {
            return;
        }
        let mut s = self.state.lock();
        for k in keys {
            s.owners.remove(k);
        }
        drop(s);
        self.released.notify_all();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    #[test]
    fn conflicts_wait_time_out_and_deadlocks_are_found() {
        let t = Arc::new(LockTable::new());
        t.set_timeout(Duration::from_millis(200));
        assert_eq!(t.lock(1, 0, b"a"), Ok(true));
        assert_eq!(t.lock(1, 0, b"a"), Ok(false));
        assert_eq!(t.lock(2, 0, b"b"), Ok(true));
        // 2 waits for 1 until 1 releases.
        let t2 = t.clone();
        let waiter = std::thread::spawn(move || t2.lock(2, 0, b"a"));
        std::thread::sleep(Duration::from_millis(50));
        // 1 asking for b (held by 2, which waits for 1) is a deadlock.
        assert_eq!(t.lock(1, 0, b"b"), Err(LockError::Deadlock));
        t.release(&[b"a".to_vec()]);
        assert_eq!(waiter.join().unwrap(), Ok(true));
        // Nobody releases b: a third transaction times out.
        let started = Instant::now();
        assert_eq!(t.lock(3, 0, b"b"), Err(LockError::Timeout));
        assert!(started.elapsed() >= Duration::from_millis(200));
    }

    #[test]
    fn try_lock_never_waits() {
        let t = LockTable::new();
        assert_eq!(t.try_lock(1, b"a"), Some(true));
        assert_eq!(t.try_lock(1, b"a"), Some(false));
        assert_eq!(t.try_lock(2, b"a"), None);
        assert_eq!(t.lock(1, 0, b"a"), Ok(false));
        t.release(&[b"a".to_vec()]);
        assert_eq!(t.try_lock(2, b"a"), Some(true));
    }
}
