//! DEFAULT CURRENT_TIMESTAMP and ON UPDATE CURRENT_TIMESTAMP: the
//! statement's time (NOW(), to the column's digits of a second) goes into the columns an
//! INSERT leaves out, and into the columns an UPDATE leaves alone when it
//! changes some other value of the row.
use crate::expr::clock;
use lineardb_table::{ColumnDef, ColumnDefault, DataType, TableDef, Value};

/// The statement's time as column `c` keeps it: a TIMESTAMP in the
/// server's zone (as its values are stored), a DATETIME in the session's
/// (NOW()'s value), to the column's digits of a second.
pub(crate) fn statement_now(c: &ColumnDef) -> Value {
    let utc = clock::statement_utc();
    let time = if c.data_type == DataType::Timestamp {
        clock::local(utc)
    } else {
        clock::session_local(utc)
    };
    Value::DateTime(clock::to_digits(time, c.fsp))
}

/// The values a query gives a table's TIMESTAMP columns (times of the
/// session's `zone`) as the columns keep them (times of the server's); a
/// value that is no datetime is left for the column to refuse.
pub(crate) fn given_in_zone(def: &TableDef, given: &mut [Option<Value>], zone: clock::Zone) {
    let Some(zone) = zone.for_timestamps() else {
        return;
    };
    for (v, c) in given.iter_mut().zip(&def.columns) {
        if c.data_type != DataType::Timestamp {
            continue;
        }
        if let Some(value) = v {
            if let Ok(Value::DateTime(t)) = DataType::DateTime.coerce(value.clone(), &c.name) {
                *value = Value::DateTime(zone.write_stored(t));
            }
        }
    }
}

/// Fills the left-out columns whose default is CURRENT_TIMESTAMP.
pub(crate) fn fill_defaults(def: &TableDef, given: &mut [Option<Value>]) {
    for (v, c) in given.iter_mut().zip(&def.columns) {
        if v.is_none() && c.default == ColumnDefault::CurrentTimestamp {
            *v = Some(statement_now(c));
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
            *v = Some(statement_now(c));
        }
    }
}
