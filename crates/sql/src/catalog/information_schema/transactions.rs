//! The tables about transactions and their row-lock waits, as InnoDB's:
//! INNODB_TRX (each session's open or running transaction), INNODB_LOCKS
//! (the locks a wait is for: the one asked for and the one holding it) and
//! INNODB_LOCK_WAITS (who waits for whom). Made from the sessions' slots and
//! the lock table at the moment a query reads them.
use super::InfoContext;
use crate::catalog::registry::Process;
use lineardb_table::Value;
use lineardb_txn::LockWait;
use std::collections::HashMap;
use std::time::SystemTime;

/// The id a transaction that has changed nothing shows, as InnoDB's
/// read-only transactions show one from a range no read-write id reaches:
/// this base plus the session's id.
const READ_ONLY_ID_BASE: u64 = 421_000_000_000_000;

/// A time as INNODB_TRX shows it: a DATETIME of the session's zone, whole
/// seconds.
fn shown_time(t: SystemTime) -> Value {
    let micros = t
        .duration_since(SystemTime::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() as i64 * 1_000_000);
    Value::DateTime(crate::expr::clock::session_local(micros))
}

/// A lock's id as InnoDB spells one (`trx:space:page:record`): the
/// transaction, no tablespace, the tree's root page and the first record.
fn lock_id(trx: u64, w: &LockWait) -> String {
    format!("{trx}:0:{}:1", w.root)
}

/// The waits now, by the session running the waiting transaction.
fn waits_by_session(cx: &InfoContext<'_>) -> HashMap<u64, LockWait> {
    cx.engine
        .lock_waits()
        .into_iter()
        .map(|w| (w.waiting_owner, w))
        .collect()
}

/// A transaction's id: its own where it changed rows (or waits for a lock),
/// 0 for a running statement outside a transaction that locks nothing (as
/// InnoDB shows one), else one from the read-only range.
fn trx_id(p: &Process, id: u64, autocommit_non_locking: bool) -> u64 {
    match id {
        0 if autocommit_non_locking => 0,
        0 => READ_ONLY_ID_BASE + p.id,
        id => id,
    }
}

/// INNODB_TRX: each session's transaction, open after a statement or the
/// running statement's own, newest session first. The reading statement
/// itself is none (it reads no table of the engine).
pub(super) fn innodb_trx(cx: &InfoContext<'_>) -> Vec<Vec<Value>> {
    let waits = waits_by_session(cx);
    let mut rows = Vec::new();
    for p in cx.registry.processes().into_iter().rev() {
        let Some(t) = &p.transaction else { continue };
        let wait = waits.get(&p.id);
        let non_locking = t.autocommit_non_locking && wait.is_none();
        if non_locking && p.id == cx.session {
            continue;
        }
        let id = trx_id(&p, wait.map_or(t.id, |w| w.waiting), non_locking);
        let running = p.command != "Sleep";
        let info = match (&p.info, running) {
            (Some(q), true) => Value::str(q),
            _ => Value::Null,
        };
        let locked = t.rows_locked;
        rows.push(vec![
            Value::UInt(id),
            Value::str(if wait.is_some() {
                "LOCK WAIT"
            } else {
                "RUNNING"
            }),
            shown_time(SystemTime::now() - t.started.elapsed()),
            wait.map_or(Value::Null, |w| Value::str(&lock_id(id, w))),
            wait.map_or(Value::Null, |w| shown_time(w.since)),
            Value::UInt(locked),
            Value::UInt(p.id),
            info,
            Value::Null,
            Value::UInt(u64::from(running)),
            Value::UInt(0),
            Value::UInt(locked),
            Value::UInt(0),
            Value::UInt(locked),
            Value::UInt(0),
            Value::UInt(0),
            Value::str(t.isolation),
            Value::Int(1),
            Value::Int(1),
            Value::Null,
            Value::Int(i64::from(t.read_only || non_locking)),
            Value::Int(i64::from(non_locking)),
        ]);
    }
    rows
}

/// The table and index a tree's root page belongs to, as InnoDB names
/// them (`` `db`.`t` `` and PRIMARY or the index's name).
fn trees(cx: &InfoContext<'_>) -> HashMap<u64, (String, String)> {
    let mut out = HashMap::new();
    for def in cx.engine.all_table_defs().unwrap_or_default() {
        let table = format!("`{}`.`{}`", def.database, def.name);
        out.insert(def.primary_root, (table.clone(), "PRIMARY".to_string()));
        for i in &def.indexes {
            out.insert(i.root, (table.clone(), i.name.clone()));
        }
    }
    out
}

/// INNODB_LOCKS: for each wait, the lock asked for and the one that holds
/// it (exclusive record locks: lineardb's row locks are).
pub(super) fn innodb_locks(cx: &InfoContext<'_>) -> Vec<Vec<Value>> {
    let trees = trees(cx);
    let mut rows = Vec::new();
    for w in cx.engine.lock_waits() {
        let (table, index) = trees
            .get(&w.root)
            .cloned()
            .unwrap_or_else(|| (String::new(), String::new()));
        for trx in [w.waiting, w.holder] {
            rows.push(vec![
                Value::str(&lock_id(trx, &w)),
                Value::UInt(trx),
                Value::str("X"),
                Value::str("RECORD"),
                Value::str(&table),
                Value::str(&index),
                Value::UInt(0),
                Value::UInt(w.root),
                Value::UInt(1),
                Value::Null,
            ]);
        }
    }
    rows
}

/// INNODB_LOCK_WAITS: each waiting transaction and the one it waits for.
pub(super) fn innodb_lock_waits(cx: &InfoContext<'_>) -> Vec<Vec<Value>> {
    cx.engine
        .lock_waits()
        .into_iter()
        .map(|w| {
            vec![
                Value::UInt(w.waiting),
                Value::str(&lock_id(w.waiting, &w)),
                Value::UInt(w.holder),
                Value::str(&lock_id(w.holder, &w)),
            ]
        })
        .collect()
}
