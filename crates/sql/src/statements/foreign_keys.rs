//! FOREIGN KEY enforcement, row by row as InnoDB does it: a child row
//! written must find its parent row (1452); a parent row deleted, or
//! whose referenced columns change, is refused while child rows point to
//! it (RESTRICT, NO ACTION: 1451), or takes them along (CASCADE) or lets
//! go of them (SET NULL), to a depth of 15. With `foreign_key_checks` off
//! nothing is checked and nothing cascades. Every data change of a table
//! goes through these methods.
//!
//! Parents and children are found with the latest versions (what is
//! committed and what open transactions wrote), through the parent's
//! key and the child's index on its columns, which its definition
//! guarantees. A parent row is not locked while a child is written: a
//! transaction deleting it at the same moment is not held back.
use super::check_constraints::{enforce, CompiledChecks};
use super::foreign_key_defs::quoted;
use crate::error::{Result, SqlError};
use crate::session::{References, Session};
use lineardb_table::{Engine, ForeignKeyDef, KeyRange, ReferentialAction, Table, TableDef, Value};
use lineardb_txn::{ReadView, Txn};
use std::ops::Bound;
use std::sync::Arc;

/// How deep cascades go (InnoDB's limit).
const MAX_DEPTH: usize = 15;

/// What a statement needs to keep its tables' foreign keys and CHECK
/// constraints: taken once before its rows are changed.
pub(crate) struct Referential {
    engine: Arc<Engine>,
    checks: bool,
    /// Per parent (lowercase db, name): the referencing (child, key).
    references: Arc<References>,
    /// The CHECK constraints of the tables the statement writes, by the
    /// table's clustered root.
    conditions: Vec<(u64, CompiledChecks)>,
    /// The CHECK OPTION of the view rows are written through: the
    /// table's clustered root, the view's name for the error, and the
    /// condition.
    view_check: Option<(u64, String, crate::expr::Expr)>,
}

impl Session {
    /// The statement's context for writing rows of `tables`.
    pub(crate) fn referential(&mut self, tables: &[&Table]) -> Result<Referential> {
        let mut conditions = Vec::new();
        for t in tables {
            let compiled = self.compiled_checks(t.def())?;
            if !compiled.is_empty() {
                conditions.push((t.def().primary_root, compiled));
            }
        }
        let view_check = match (&self.view_check, tables.first()) {
            (Some(v), Some(t))
                if (
                    t.def().database.to_ascii_lowercase(),
                    t.def().name.to_ascii_lowercase(),
                ) == v.table =>
            {
                let def = t.def();
                let scope = crate::names::scope_of_def(def, &def.name);
                let condition =
                    self.with_compiler(&scope, &Default::default(), |c| c.compile(&v.condition))?;
                Some((def.primary_root, v.label.clone(), condition))
            }
            _ => None,
        };
        Ok(Referential {
            view_check,
            engine: self.engine.clone(),
            checks: self.foreign_key_checks(),
            references: self.tables.references(&self.engine)?,
            conditions,
        })
    }
}

impl Referential {
    /// Refuses a row for `t` that its CHECK constraints or the view it is
    /// written through refuse. An AUTO_INCREMENT column still NULL (its
    /// value not yet taken) reads as 0, as in MariaDB, which checks rows
    /// before it takes one.
    pub(crate) fn check_row(&self, t: &Table, row: &[Value]) -> Result<()> {
        if let Some(conditions) = self.conditions_of(t) {
            enforce(conditions, t.def(), row)?;
        }
        match t.def().auto_increment_column() {
            Some(c) if row[c].is_null() && self.view_check.is_some() => {
                let mut row = row.to_vec();
                row[c] = Value::Int(0);
                self.check_option(t, &row)
            }
            _ => self.check_option(t, row),
        }
    }

    /// Inserts the complete row `row`, which [`check_row`](Self::check_row)
    /// took, into `t`.
    pub(crate) fn insert_checked(&self, txn: &mut Txn, t: &Table, row: &[Value]) -> Result<()> {
        if self.checks && !t.def().foreign_keys.is_empty() {
            self.check_parents(t, row, None)?;
        }
        Ok(t.insert_prepared(txn, row)?)
    }

    /// Refuses a row of `t` written through a view WITH CHECK OPTION that
    /// it would not be seen through (1369): its condition must be true.
    fn check_option(&self, t: &Table, row: &[Value]) -> Result<()> {
        match &self.view_check {
            Some((root, label, condition)) if *root == t.def().primary_root => {
                let v = condition.eval(row, crate::expr::Env::new(&[]))?;
                if crate::expr::truth_of(&v) == Some(true) {
                    Ok(())
                } else {
                    Err(SqlError::new(
                        1369,
                        "44000",
                        format!("CHECK OPTION failed {label}"),
                    ))
                }
            }
            _ => Ok(()),
        }
    }

    /// Deletes row `old` (primary key `pk`, locked and read) from `t`.
    pub(crate) fn delete_row(
        &self,
        txn: &mut Txn,
        t: &Table,
        pk: &[u8],
        old: &[Value],
    ) -> Result<()> {
        self.before_parent_change(txn, t, old, None, 0)?;
        Ok(t.delete_row(txn, pk, old)?)
    }

    /// Deletes the row with primary key `pk`, if any (REPLACE).
    pub(crate) fn delete_by_key(&self, txn: &mut Txn, t: &Table, pk: &[u8]) -> Result<bool> {
        let Some(old) = t.lock_row(txn, pk)? else {
            return Ok(false);
        };
        self.delete_row(txn, t, pk, &old)?;
        Ok(true)
    }

    /// Updates row `old` (primary key `pk`, locked and read) of `t` with
    /// `new` (per column; `None` keeps the value).
    pub(crate) fn update_row(
        &self,
        txn: &mut Txn,
        t: &Table,
        pk: &[u8],
        old: &[Value],
        new: Vec<Option<Value>>,
    ) -> Result<()> {
        let child = self.checks && !t.def().foreign_keys.is_empty();
        let parent = self.checks && !self.references_to(t.def()).is_empty();
        let conditions = self.conditions_of(t);
        let view_check = self
            .view_check
            .as_ref()
            .is_some_and(|(root, ..)| *root == t.def().primary_root);
        if child || parent || conditions.is_some() || view_check {
            let full = merged(t.def(), old, &new)?;
            if let Some(conditions) = conditions {
                enforce(conditions, t.def(), &full)?;
            }
            self.check_option(t, &full)?;
            if child {
                self.check_parents(t, &full, Some(old))?;
            }
            self.before_parent_change(txn, t, old, Some(&full), 0)?;
        }
        Ok(t.update_row(txn, pk, old, new)?)
    }

    /// Whether a row of `t` has values in `columns` (positions in `t`, for
    /// the key's columns in order) with no parent row for `fk`.
    pub(crate) fn has_orphan(
        &self,
        t: &Table,
        columns: &[usize],
        fk: &ForeignKeyDef,
    ) -> Result<bool> {
        let Ok(parent) = self.table(&fk.parent_database, &fk.parent_table) else {
            return Ok(true);
        };
        let parent_cols = parent_columns(parent.def(), fk)?;
        let mut failed: Option<SqlError> = None;
        let mut orphan = false;
        t.scan_primary(&ReadView::latest(), &KeyRange::all(), |_, row| {
            let values: Vec<Value> = columns.iter().map(|&c| row.value(c)).collect();
            if values.iter().any(Value::is_null) {
                return true;
            }
            match matching_keys(&parent, &parent_cols, &values, 1) {
                Ok(found) => {
                    orphan = found.is_empty();
                    !orphan
                }
                Err(e) => {
                    failed = Some(e);
                    false
                }
            }
        })?;
        match failed {
            Some(e) => Err(e),
            None => Ok(orphan),
        }
    }

    fn conditions_of(&self, t: &Table) -> Option<&CompiledChecks> {
        let root = t.def().primary_root;
        self.conditions
            .iter()
            .find(|(r, _)| *r == root)
            .map(|(_, c)| c)
    }

    fn references_to(&self, def: &TableDef) -> &[((String, String), usize)] {
        if self.references.is_empty() {
            return &[];
        }
        let key = (
            def.database.to_ascii_lowercase(),
            def.name.to_ascii_lowercase(),
        );
        self.references.get(&key).map_or(&[], Vec::as_slice)
    }

    fn table(&self, db: &str, name: &str) -> Result<Arc<Table>> {
        Ok(self.engine.table(db, name)?)
    }

    /// Each foreign key of `t` whose columns `row` sets (all not NULL, and
    /// other than `old`'s) must find its parent row.
    fn check_parents(&self, t: &Table, row: &[Value], old: Option<&[Value]>) -> Result<()> {
        for fk in &t.def().foreign_keys {
            let values: Vec<Value> = fk.columns.iter().map(|&c| row[c].clone()).collect();
            if values.iter().any(Value::is_null) {
                continue;
            }
            if old.is_some_and(|o| fk.columns.iter().zip(&values).all(|(&c, v)| o[c] == *v)) {
                continue;
            }
            let def = t.def();
            let itself = fk.parent_database.eq_ignore_ascii_case(&def.database)
                && fk.parent_table.eq_ignore_ascii_case(&def.name);
            let found = match self.table(&fk.parent_database, &fk.parent_table) {
                Ok(p) => {
                    let columns = parent_columns(p.def(), fk)?;
                    // A row may reference itself.
                    (itself && columns.iter().zip(&values).all(|(&c, v)| row[c] == *v))
                        || !matching_keys(&p, &columns, &values, 1)?.is_empty()
                }
                Err(_) => false,
            };
            if !found {
                return Err(SqlError::new(
                    1452,
                    "23000",
                    format!(
                        "Cannot add or update a child row: a foreign key constraint fails ({})",
                        quoted(def, fk, false)
                    ),
                ));
            }
        }
        Ok(())
    }

    /// Before row `old` of `t` is deleted (`new` None) or becomes `new`:
    /// the child rows that reference it, by each foreign key's action.
    fn before_parent_change(
        &self,
        txn: &mut Txn,
        t: &Table,
        old: &[Value],
        new: Option<&[Value]>,
        depth: usize,
    ) -> Result<()> {
        if !self.checks {
            return Ok(());
        }
        for ((child_db, child_name), k) in self.references_to(t.def()) {
            let child = self.table(child_db, child_name)?;
            let Some(fk) = child.def().foreign_keys.get(*k).cloned() else {
                continue;
            };
            let columns = parent_columns(t.def(), &fk)?;
            let old_values: Vec<Value> = columns.iter().map(|&c| old[c].clone()).collect();
            if old_values.iter().any(Value::is_null) {
                continue;
            }
            let new_values: Option<Vec<Value>> =
                new.map(|n| columns.iter().map(|&c| n[c].clone()).collect());
            if new_values.as_ref() == Some(&old_values) {
                continue;
            }
            let children = matching_keys(&child, &fk.columns, &old_values, usize::MAX)?;
            if children.is_empty() {
                continue;
            }
            let action = if new.is_some() {
                fk.on_update
            } else {
                fk.on_delete
            };
            let refused = || {
                SqlError::new(
                    1451,
                    "23000",
                    format!(
                        "Cannot delete or update a parent row: a foreign key constraint fails ({})",
                        quoted(child.def(), &fk, false)
                    ),
                )
            };
            if depth >= MAX_DEPTH {
                return Err(refused());
            }
            match action {
                ReferentialAction::Restrict | ReferentialAction::NoAction => return Err(refused()),
                ReferentialAction::Cascade if new.is_none() => {
                    for pk in children {
                        let Some(row) = child.lock_row(txn, &pk)? else {
                            continue;
                        };
                        self.before_parent_change(txn, &child, &row, None, depth + 1)?;
                        child.delete_row(txn, &pk, &row)?;
                    }
                }
                ReferentialAction::Cascade | ReferentialAction::SetNull => {
                    for pk in children {
                        let Some(row) = child.lock_row(txn, &pk)? else {
                            continue;
                        };
                        let mut changed = row.clone();
                        let mut given = vec![None; row.len()];
                        for (i, &c) in fk.columns.iter().enumerate() {
                            let v = match (&new_values, action) {
                                (Some(n), ReferentialAction::Cascade) => n[i].clone(),
                                _ => Value::Null,
                            };
                            changed[c] = v.clone();
                            given[c] = Some(v);
                        }
                        self.before_parent_change(txn, &child, &row, Some(&changed), depth + 1)?;
                        child.update_row(txn, &pk, &row, given)?;
                    }
                }
            }
        }
        Ok(())
    }
}

/// The parent's positions of a foreign key's referenced columns.
fn parent_columns(parent: &TableDef, fk: &ForeignKeyDef) -> Result<Vec<usize>> {
    fk.parent_columns
        .iter()
        .map(|c| Ok(parent.column_index(c)?))
        .collect()
}

/// Primary keys (encoded) of up to `limit` rows of `t` whose `columns`
/// equal `values`, through the primary key or an index that begins with
/// those columns.
fn matching_keys(
    t: &Table,
    columns: &[usize],
    values: &[Value],
    limit: usize,
) -> Result<Vec<Vec<u8>>> {
    let def = t.def();
    let values = columns
        .iter()
        .zip(values)
        .map(|(&c, v)| Ok(def.columns[c].coerce(v.clone())?))
        .collect::<Result<Vec<Value>>>()?;
    let latest = ReadView::latest();
    let mut keys = Vec::new();
    if def.primary_key == columns {
        let pk = t.encode_primary_key(&values)?;
        if t.get_by_key(&latest, &pk)?.is_some() {
            keys.push(pk);
        }
        return Ok(keys);
    }
    let prefix = |k: &[usize]| k.len() >= columns.len() && k[..columns.len()] == *columns;
    let range_of = |types: &[lineardb_table::KeyColumn]| {
        KeyRange::from_values(
            &types[..columns.len()],
            Bound::Included(&values),
            Bound::Included(&values),
        )
    };
    if prefix(&def.primary_key) {
        let range = range_of(t.primary_key_types());
        t.scan_primary(&latest, &range, |k, _| {
            keys.push(k.to_vec());
            keys.len() < limit
        })?;
        return Ok(keys);
    }
    let Some(index) = def.indexes.iter().position(|i| prefix(&i.columns)) else {
        return Err(SqlError::internal("a foreign key without an index"));
    };
    let range = range_of(t.index_types(index));
    t.scan_index(&latest, index, &range, |e| {
        keys.push(e.primary_key().to_vec());
        keys.len() < limit
    })?;
    Ok(keys)
}

/// The row `old` with `new`'s values (coerced) where given.
/// The row `old` with the columns `new` sets changed, each value as its
/// column keeps it.
pub(super) fn merged(def: &TableDef, old: &[Value], new: &[Option<Value>]) -> Result<Vec<Value>> {
    old.iter()
        .zip(new)
        .zip(&def.columns)
        .map(|((o, n), c)| match n {
            Some(v) => Ok(c.coerce(v.clone())?),
            None => Ok(o.clone()),
        })
        .collect()
}
