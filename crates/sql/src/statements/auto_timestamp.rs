//! DEFAULT CURRENT_TIMESTAMP and ON UPDATE CURRENT_TIMESTAMP: the
//! statement's time (NOW(), to the column's digits of a second) goes into the columns an
//! INSERT leaves out, and into the columns an UPDATE leaves alone when it
//! changes some other value of the row.
use crate::expr::clock;
use lineardb_table::{ColumnDefault, TableDef, Value};

pub(crate) fn statement_now(fsp: u8) -> Value {
    Value::DateTime(clock::to_digits(clock::local(clock::statement_utc()), fsp))
}

/// Fills the left-out columns whose default is CURRENT_TIMESTAMP.
pub(crate) fn fill_defaults(def: &TableDef, given: &mut [Option<Value>]) {
    for (v, c) in given.iter_mut().zip(&def.columns) {
        if v.is_none() && c.default == ColumnDefault::CurrentTimestamp {
            *v = Some(statement_now(c.fsp));
        }
    }
}

/// Sets the ON UPDATE CURRENT_TIMESTAMP columns that `new` leaves alone,
/// when `new` changes another value of `old`.
pub(crate) fn touch(def: &TableDef, old: &[Value], new: &mut [Option<Value>]) {
    if !def.columns.iter().any(|c| c.on_update_now) {
        return;
    }
    let changes = new
        .iter()
        .zip(old)
        .any(|(n, o)| n.as_ref().is_some_and(|n| n != o));
    if !changes {
        return;
    }
    for (v, c) in new.iter_mut().zip(&def.columns) {
        if v.is_none() && c.on_update_now {
            *v = Some(statement_now(c.fsp));
        }
    }
}
