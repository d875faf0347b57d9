//! The rows an INSERT, REPLACE or LOAD DATA writes, one at a time: each
//! given row filled with its defaults, adjusted outside strict mode,
//! checked (CHECK constraints, foreign keys) and written, a duplicate key
//! handled as the statement says (ON DUPLICATE KEY UPDATE, REPLACE,
//! IGNORE); what was written is counted for the statement's result.
use super::foreign_keys::Referential;
use super::lenient::NullIntoNotNull;
use super::returning::Returning;
use super::row_counts::count_rows;
use crate::error::{Result, SqlError};
use crate::expr::Env;
use crate::session::Session;
use lineardb_sync::thread_slot::IndexOp;
use lineardb_table::{AutoIncrementIds, Table, Value};
use lineardb_txn::Txn;
use std::sync::Arc;

/// MariaDB's duplicate-key error.
pub(super) const DUPLICATE_ENTRY: u16 = 1062;

/// Why a row to insert was refused before it was written: a value its
/// column cannot hold, or a CHECK (a constraint, a view's CHECK OPTION).
enum RowRefused {
    Invalid(lineardb_table::Error),
    Checked(SqlError),
}

impl From<lineardb_table::Error> for RowRefused {
    fn from(e: lineardb_table::Error) -> Self {
        RowRefused::Invalid(e)
    }
}

/// How a statement writes its rows, and what it has written so far.
pub(super) struct RowWriter {
    /// REPLACE: a row that repeats a key takes the place of those it
    /// repeats.
    pub replace: bool,
    /// IGNORE: a row refused (a duplicate key, a CHECK, a foreign key) is
    /// a warning and passed over.
    pub ignore: bool,
    /// Values a column cannot hold fail the statement (else they are
    /// adjusted, with MariaDB's warnings).
    pub strict: bool,
    pub nulls: NullIntoNotNull,
    /// ON DUPLICATE KEY UPDATE's assignments.
    pub on_duplicate: Option<Vec<(usize, crate::expr::Expr)>>,
    pub returning: Option<Returning>,
    fk: Referential,
    zero_kept: bool,
    ids: AutoIncrementIds,
    auto_column: Option<usize>,
    /// The number of the row being written (from 1), which warnings name.
    pub row: u64,
    /// Conditions of the row being written that come after its values'
    /// own (LOAD DATA's 1261 for a row short of fields): warnings, or the
    /// statement's error in strict mode.
    pub after_values: Vec<(u16, String)>,
    pub affected: u64,
    /// Rows written, for Innodb_rows_inserted.
    pub inserted: u64,
    /// Rows REPLACE deleted.
    pub replaced: u64,
    /// Rows ON DUPLICATE KEY UPDATE changed instead of inserting.
    pub updated: u64,
    /// Rows IGNORE passed over for a duplicate key.
    pub skipped: u64,
    first_id: u64,
    /// The AUTO_INCREMENT column's value in the last row written: the OK
    /// packet's insert id when no value was generated (MariaDB's).
    last_auto_value: u64,
}

impl Session {
    /// A writer of rows into `t` that raises errors (not IGNORE, not
    /// REPLACE) in the session's mode; `known_rows` are the rows the
    /// statement will give, if known before the first is written (InnoDB
    /// reserves their ids at once).
    pub(super) fn row_writer(&mut self, t: &Arc<Table>, known_rows: u64) -> Result<RowWriter> {
        Ok(RowWriter {
            replace: false,
            ignore: false,
            strict: self.strict_mode(),
            nulls: NullIntoNotNull::Defaults,
            on_duplicate: None,
            returning: None,
            fk: self.referential(&[t])?,
            zero_kept: self.zero_is_an_auto_increment_value(),
            ids: AutoIncrementIds::for_rows(known_rows),
            auto_column: t.def().auto_increment_column(),
            row: 0,
            after_values: Vec::new(),
            affected: 0,
            inserted: 0,
            replaced: 0,
            updated: 0,
            skipped: 0,
            first_id: 0,
            last_auto_value: 0,
        })
    }

    /// Writes the next row, `given` (a value or None for each column).
    pub(super) fn write_row(
        &mut self,
        txn: &mut Txn,
        t: &Arc<Table>,
        w: &mut RowWriter,
        mut given: Vec<Option<Value>>,
        env: Env<'_>,
    ) -> Result<()> {
        w.row += 1;
        let n = w.row;
        super::auto_timestamp::fill_defaults(t.def(), &mut given);
        super::lenient::rounding_notes(t.def(), &given, 0..given.len(), n, &mut self.warnings);
        if !w.strict {
            super::lenient::adjust(t.def(), &mut given, n, w.nulls, &mut self.warnings)?;
        }
        let (full, generated) = t
            .prepare_row_checked(given, w.zero_kept, &mut w.ids, |row| {
                w.fk.check_row(t, row).map_err(RowRefused::Checked)
            })
            .map_err(|e| match e {
                RowRefused::Invalid(e) => super::lenient::row_error(t.def(), e, n),
                RowRefused::Checked(e) => e,
            })?;
        if !w.after_values.is_empty() {
            if w.strict {
                let (code, message) = w.after_values.remove(0);
                w.after_values.clear();
                return Err(SqlError::new(code, "01000", message));
            }
            self.warnings.append(&mut w.after_values);
        }
        match w.fk.insert_checked(txn, t, &full) {
            Ok(()) => {
                if let Some(r) = &mut w.returning {
                    r.add(&full, env)?;
                }
                w.affected += 1;
                w.inserted += 1;
                if let Some(c) = w.auto_column {
                    w.last_auto_value = auto_value(&full[c]);
                }
                if let (Some(g), 0) = (generated, w.first_id) {
                    w.first_id = g;
                }
            }
            Err(e) if e.code == DUPLICATE_ENTRY && w.on_duplicate.is_some() => {
                // The row is not written: its id goes to the next.
                if let Some(g) = generated {
                    w.ids.give_back(g);
                }
                let sets = w.on_duplicate.as_deref().unwrap_or_default();
                let pk = t.duplicated_key(&full)?.ok_or_else(|| {
                    SqlError::internal("a duplicate key without the row it duplicates")
                })?;
                // Waits for a transaction changing that row; a row gone
                // meanwhile leaves nothing to update (as MariaDB, which
                // would then insert: retried by the client).
                let Some(old) = t.lock_row(txn, &pk)? else {
                    return Ok(());
                };
                // The assignments read the row as it is, then the row
                // the statement tried to insert (VALUES(col)).
                let both: Vec<Value> = old.iter().chain(&full).cloned().collect();
                let mut new: Vec<Option<Value>> = vec![None; old.len()];
                for (col, e) in sets {
                    new[*col] = Some(e.eval(&both[..], env)?);
                }
                let differs = sets.iter().any(|(c, _)| new[*c].as_ref() != Some(&old[*c]));
                super::auto_timestamp::touch(t.def(), &old, &mut new);
                // RETURNING shows the row as the update leaves it.
                if let Some(r) = &mut w.returning {
                    r.add(&super::foreign_keys::merged(t.def(), &old, &new)?, env)?;
                }
                w.fk.update_row(txn, t, &pk, &old, new)?;
                if differs {
                    // MariaDB counts an updated row twice.
                    w.affected += 2;
                    w.updated += 1;
                    if let Some(c) = w.auto_column {
                        w.last_auto_value = auto_value(&old[c]);
                    }
                } else if self.found_rows {
                    // CLIENT_FOUND_ROWS: a row found counts once.
                    w.affected += 1;
                }
            }
            Err(e) if e.code == DUPLICATE_ENTRY && w.replace && !t.def().primary_key.is_empty() => {
                // Each row the new one collides with (on the primary
                // key or any unique key) goes, then the new row is
                // written.
                let mut collisions = 0u64;
                loop {
                    let pk = t.duplicated_key(&full)?.ok_or_else(|| {
                        SqlError::internal("a duplicate key without the row it duplicates")
                    })?;
                    w.fk.delete_by_key(txn, t, &pk)?;
                    collisions += 1;
                    match w.fk.insert_checked(txn, t, &full) {
                        Ok(()) => break,
                        Err(e) if e.code == DUPLICATE_ENTRY => continue,
                        Err(e) => return Err(e),
                    }
                }
                if let Some(r) = &mut w.returning {
                    r.add(&full, env)?;
                }
                w.affected += 1 + collisions;
                w.inserted += 1;
                w.replaced += collisions;
                if let Some(c) = w.auto_column {
                    w.last_auto_value = auto_value(&full[c]);
                }
                if let (Some(g), 0) = (generated, w.first_id) {
                    w.first_id = g;
                }
            }
            // A view's CHECK OPTION fails an INSERT IGNORE too, as in
            // MariaDB.
            Err(e) if w.ignore && e.code != 1369 => {
                if let Some(g) = generated {
                    w.ids.give_back(g);
                }
                if e.code == DUPLICATE_ENTRY {
                    w.skipped += 1;
                }
                self.warnings.push((e.code, e.message));
            }
            Err(e) => return Err(e),
        }
        Ok(())
    }

    /// Ends the writing: the statement's affected rows and insert id, the
    /// table's row counters and the session's last insert id.
    pub(super) fn rows_written(&mut self, t: &Table, w: &RowWriter) -> (u64, u64) {
        count_rows(t, IndexOp::Insert, w.inserted);
        count_rows(t, IndexOp::Delete, w.replaced);
        count_rows(t, IndexOp::Update, w.updated);
        if w.first_id != 0 {
            self.facts.last_insert_id = w.first_id;
            self.facts_changed();
        }
        let id = if w.first_id != 0 {
            w.first_id
        } else {
            w.last_auto_value
        };
        (w.affected, id)
    }
}

/// An AUTO_INCREMENT column's value as an id (0 for none or a negative).
fn auto_value(v: &Value) -> u64 {
    match v {
        Value::Int(n) => (*n).max(0) as u64,
        Value::UInt(n) => *n,
        _ => 0,
    }
}
