//! Table rebuild: the ALTER TABLE changes that rewrite every row (adding,
//! dropping, moving a column, changing its type or NULL-ability, a new
//! primary key). The rows of the old table, converted, are loaded into
//! new trees, the secondary indexes built over them in parallel, and one
//! catalog transaction then swaps the definitions. Writers are held off
//! from the start (the table's write gate); readers read the old table
//! until the swap. A crash before the swap leaves the old table, after it
//! the new one: the new trees reach the file, synced, before the catalog
//! record that names them.
use super::Engine;
use crate::error::{Error, Result};
use crate::index_build::build_indexes;
use crate::key_range::KeyRange;
use crate::schema::TableDef;
use crate::table::Table;
use crate::types::Value;
use lineardb_btree::BTree;
use lineardb_txn::Stamp;
use std::sync::Arc;

/// What a rebuild did.
#[derive(Debug, Clone, Copy, Default)]
pub struct RebuildStats {
    /// Rows copied.
    pub rows: u64,
}

/// Converts one row of the old table (its 1-based number in primary key
/// order, its values) into the new table's values.
pub type ConvertRow<'a> = dyn FnMut(u64, Vec<Value>) -> Result<Vec<Value>> + 'a;

/// The two steps of a rebuild, as its progress reports them: rows copied
/// into the new table, then rows whose keys the new indexes have taken.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RebuildStep {
    CopyRows,
    BuildIndexes,
}

/// Told the step and the rows it has done so far; called from the
/// index-building threads too.
pub type RebuildProgress<'a> = dyn Fn(RebuildStep, u64) + Sync + 'a;

impl Engine {
    /// Replaces `old` by a table of definition `def` (index roots are
    /// assigned here) holding `old`'s rows passed through `convert`.
    /// `progress` is told the rows copied, then indexed, so far. On error
    /// (a value the new column cannot hold, a duplicate in a new key)
    /// nothing changes.
    pub fn rebuild_table(
        &self,
        old: &Table,
        def: TableDef,
        convert: &mut ConvertRow<'_>,
        threads: usize,
        progress: &RebuildProgress<'_>,
    ) -> Result<(Arc<Table>, RebuildStats)> {
        let _ddl = self.ddl_lock();
        self.replacing(old, || self.rebuild(old, def, convert, threads, progress))
    }

    fn rebuild(
        &self,
        old: &Table,
        mut def: TableDef,
        convert: &mut ConvertRow<'_>,
        threads: usize,
        progress: &RebuildProgress<'_>,
    ) -> Result<(Arc<Table>, RebuildStats)> {
        if old.def.database != def.database || old.def.name != def.name {
            return Err(Error::Invalid("a rebuild keeps the table's name".into()));
        }
        def.temporary = old.def.temporary;
        def.validate()?;
        let pool = self.store.pool();
        let mut indexes = std::mem::take(&mut def.indexes);
        let primary = BTree::create(pool.clone())?;
        def.primary_root = primary.root();
        let mut roots = vec![def.primary_root];
        // Off-page values are copied with their rows into a tree of the
        // new table's own (the old one goes with the old table).
        def.blob_root = 0;
        if def.may_outline(primary.max_entry_len() - lineardb_txn::Stamp::MAX_LEN) {
            def.blob_root = BTree::create(pool.clone())?.root();
            roots.push(def.blob_root);
        }
        let built = (|| {
            let staging = Table::open(def.clone(), pool)?;
            let rows = load_rows(old, &staging, convert, &|n| {
                progress(RebuildStep::CopyRows, n)
            })?;
            for i in indexes.iter_mut() {
                i.root = BTree::create(pool.clone())?.root();
                roots.push(i.root);
            }
            progress(RebuildStep::BuildIndexes, 0);
            build_indexes(&staging, &indexes, threads, &|n| {
                progress(RebuildStep::BuildIndexes, n)
            })?;
            let mut full = def.clone();
            full.indexes = indexes.clone();
            let table = staging.with_def(full)?;
            for (n, i) in indexes.iter().enumerate() {
                if i.unique {
                    if let Some(e) = table.first_unique_violation(n)? {
                        return Err(e);
                    }
                }
            }
            Ok((table, rows))
        })();
        let (table, rows) = match built {
            Ok(t) => t,
            Err(e) => {
                for &root in &roots {
                    self.txns.destroy_tree(root)?;
                }
                return Err(e);
            }
        };
        table.raise_next_auto_increment(old.next_auto_increment());
        table.raise_next_auto_increment(def.auto_increment_start);
        let def = table.def.clone();
        let table = self.store_def(def, |_| Ok(table))?;
        self.destroy_trees(&old.def)?;
        Ok((table, RebuildStats { rows }))
    }

    /// Runs `work`, which replaces `old`, with writers held off: closes
    /// `old`'s write gate, waiting (up to the lock wait timeout) for the
    /// transactions that wrote it to end; retires the gate when `work`
    /// succeeds (writers then find the new table), opens it again when
    /// not.
    pub(super) fn replacing<T>(&self, old: &Table, work: impl FnOnce() -> Result<T>) -> Result<T> {
        old.gate.close(self.lock_wait_timeout())?;
        match work() {
            Ok(t) => {
                // Writers turned away look the table up again: the new
                // catalog version makes them (the DDL's end bumps it too).
                self.version.fetch_add(1);
                old.gate.retire();
                Ok(t)
            }
            Err(e) => {
                old.gate.open();
                Err(e)
            }
        }
    }
}

/// Copies `old`'s rows, converted, into the empty `staging` table (no
/// secondary indexes yet). Rows come in the old primary key order; when
/// the new key orders them otherwise they are sorted (in memory) first.
fn load_rows(
    old: &Table,
    staging: &Table,
    convert: &mut ConvertRow<'_>,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<u64> {
    let mut arena: Vec<u8> = Vec::new();
    // (key offset, key length, row length); the row follows its key.
    let mut entries: Vec<(usize, u32, u32)> = Vec::new();
    let mut failed: Option<Error> = None;
    let mut n = 0u64;
    // Writers are held off: the latest committed versions are the rows.
    let view = lineardb_txn::ReadView::latest();
    old.scan_primary(&view, &KeyRange::all(), |_, row| {
        n += 1;
        let step = convert(n, row.values()).and_then(|values| staging.encode_for_load(values, n));
        match step {
            Ok((pk, bytes)) => {
                entries.push((arena.len(), pk.len() as u32, bytes.len() as u32));
                arena.extend_from_slice(&pk);
                arena.extend_from_slice(&bytes);
                if n.is_multiple_of(4096) {
                    progress(n);
                }
                true
            }
            Err(e) => {
                failed = Some(e);
                false
            }
        }
    })?;
    if let Some(e) = failed {
        return Err(e);
    }
    let key = |&(o, kl, _): &(usize, u32, u32)| &arena[o..o + kl as usize];
    if !entries.windows(2).all(|w| key(&w[0]) < key(&w[1])) {
        entries.sort_unstable_by(|a, b| key(a).cmp(key(b)));
        if let Some(w) = entries.windows(2).find(|w| key(&w[0]) == key(&w[1])) {
            let (o, kl, rl) = w[1];
            let at = o + kl as usize;
            let row = staging.stored_values(&arena[at + loaded_stamp_len()..at + rl as usize])?;
            return Err(staging.duplicate(None, &row));
        }
    }
    let pairs = entries.iter().map(|&(o, kl, rl)| {
        let at = o + kl as usize;
        (&arena[o..at], &arena[at..at + rl as usize])
    });
    staging.bulk_load_encoded(pairs)?;
    progress(n);
    Ok(n)
}

/// Length of the stamp loaded rows carry (transaction 0).
fn loaded_stamp_len() -> usize {
    let mut b = Vec::new();
    Stamp::live(0).encode(&mut b);
    b.len()
}
