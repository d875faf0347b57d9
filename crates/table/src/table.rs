//! A table: a clustered index on the primary key (or a hidden row id) whose
//! values are rows, and secondary indexes whose keys are (index columns,
//! primary key). Every value starts with a [`Stamp`] (the writing
//! transaction, and whether the record is a delete mark): a row's value is
//! stamp + row, an entry's value is the stamp alone. Deleting a row or an
//! entry writes a delete mark; purge removes it once no snapshot sees the
//! record (see `lineardb_txn`'s mvcc). Reads go through a [`ReadView`].
//!
//! Invariants (checked by [`Table::check`], over the latest records):
//! - every live row has exactly one live entry in every secondary index,
//!   and every live entry points to a live row whose columns match it;
//! - a unique index has no two live entries with equal, NULL-free columns;
//! - a string too long for its row is kept off-page in the table's blob
//!   tree (`blob.rs`), referenced by exactly the latest row version that
//!   holds it and the older versions snapshots still read.
use crate::auto_increment::AutoIncrementIds;
use crate::blob::{self, BlobRef, Blobs};
use crate::error::{Error, Result};
use crate::key::{decode_value, encode_value, prefix_end, skip_value, KeyColumn};
use crate::key_range::KeyRange;
use crate::row::{RowLayout, RowRef};
use crate::schema::{IndexDef, TableDef};
use crate::stats::TreeStats;
use crate::tree_scan::{batch_inside, count_fetch, scan_range, BatchSize, SWEEP_BATCH};
use crate::types::Value;
use crate::write_gate::{Refused, WriteGate};
use lineardb_btree::BTree;
use lineardb_buffer::BufferPool;
use lineardb_sync::{Mutex, SharedWord};
use lineardb_txn::{ReadView, Stamp, Txn, Version};
use std::sync::Arc;

/// A secondary index of a table.
pub(crate) struct Index {
    pub(crate) def: IndexDef,
    pub(crate) tree: BTree,
    types: Vec<KeyColumn>,
    /// Per table column, where its value starts in every entry (index
    /// columns, then primary key columns) and its type: known for the
    /// columns that follow fixed-width NOT NULL parts only; None for the
    /// others, which are found by walking the key.
    fixed: Vec<Option<(usize, KeyColumn)>>,
}

impl Index {
    fn new(def: &TableDef, d: &IndexDef, pk: &[KeyColumn], pool: &Arc<BufferPool>) -> Index {
        let types: Vec<KeyColumn> = d.columns.iter().map(|&c| key_column(def, c)).collect();
        let mut fixed = vec![None; def.columns.len()];
        let parts = (d.columns.iter().zip(&types)).chain(def.primary_key.iter().zip(pk));
        let mut offset = 0;
        for (&c, t) in parts {
            if fixed[c].is_none() {
                fixed[c] = Some((offset, *t));
            }
            let width = crate::key::int_width(&t.data_type);
            if t.nullable || width == 0 {
                break;
            }
            offset += width;
        }
        Index {
            types,
            fixed,
            tree: BTree::open(pool.clone(), d.root),
            def: d.clone(),
        }
    }

    /// Length of the index-column part of an entry key.
    fn columns_len(&self, key: &[u8]) -> usize {
        let mut pos = 0;
        for t in &self.types {
            if skip_value(t, key, &mut pos).is_none() {
                return key.len();
            }
        }
        pos
    }
}

/// Columns decoded from a secondary index entry (covering reads).
pub struct IndexEntry<'a> {
    pub key: &'a [u8],
    index: &'a Index,
    table: &'a Table,
}

impl IndexEntry<'_> {
    /// The value of table column `col` if the entry holds it (an index or
    /// primary key column).
    pub fn column(&self, col: usize) -> Option<Value> {
        if let Some(Some((offset, t))) = self.index.fixed.get(col) {
            let mut pos = *offset;
            return decode_value(t, self.key, &mut pos);
        }
        let mut pos = 0;
        for (i, t) in self.index.types.iter().enumerate() {
            if self.index.def.columns[i] == col {
                return decode_value(t, self.key, &mut pos);
            }
            skip_value(t, self.key, &mut pos)?;
        }
        for (t, &pk) in self
            .table
            .primary_key_columns
            .iter()
            .zip(&self.table.def.primary_key)
        {
            if pk == col {
                return decode_value(t, self.key, &mut pos);
            }
            skip_value(t, self.key, &mut pos)?;
        }
        None
    }

    /// The encoded primary key this entry points to.
    pub fn primary_key(&self) -> &[u8] {
        &self.key[self.index.columns_len(self.key)..]
    }
}

/// Primary keys taken from secondary-index entries, in one buffer.
#[derive(Default)]
struct PrimaryKeys {
    bytes: Vec<u8>,
    /// (offset, length) of each key in `bytes`, in the order gathered.
    spans: Vec<(u32, u32)>,
}

impl PrimaryKeys {
    fn clear(&mut self) {
        self.bytes.clear();
        self.spans.clear();
    }
    fn len(&self) -> usize {
        self.spans.len()
    }
    fn get(&self, i: usize) -> &[u8] {
        let (o, l) = self.spans[i];
        &self.bytes[o as usize..(o + l) as usize]
    }
    /// Appends the primary keys of the batch's entries that lie in `range`
    /// and that `view` sees; false once an entry lies past its end.
    fn gather(
        &mut self,
        idx: &Index,
        view: &ReadView,
        batch: &lineardb_btree::Batch,
        range: &KeyRange,
    ) -> bool {
        let root = idx.tree.root();
        let all_in = batch_inside(batch, range);
        for (i, (k, v)) in batch.iter().enumerate() {
            if !all_in && !range.contains_upper(k) {
                count_fetch(root, i as u64);
                return false;
            }
            if view.resolve(root, k, v).body().is_none() {
                continue;
            }
            let pk = &k[idx.columns_len(k)..];
            self.spans.push((self.bytes.len() as u32, pk.len() as u32));
            self.bytes.extend_from_slice(pk);
        }
        count_fetch(root, batch.len() as u64);
        true
    }
}

/// The key column for table column `c` (its type and nullability).
pub(crate) fn key_column(def: &TableDef, c: usize) -> KeyColumn {
    let column = &def.columns[c];
    KeyColumn::collated(column.data_type, column.nullable, column.collation())
}

pub struct Table {
    pub(crate) def: TableDef,
    primary_key_columns: Vec<KeyColumn>,
    pub(crate) layout: RowLayout,
    pub(crate) primary: BTree,
    pub(crate) indexes: Vec<Index>,
    /// Off-page values (`None`: the table's rows always fit a page).
    blobs: Option<BTree>,
    /// Next off-page value id. Written by inserting sessions only.
    next_blob_id: Arc<SharedWord>,
    /// Next AUTO_INCREMENT value. Written by inserting sessions only.
    next_auto: Arc<SharedWord>,
    /// Next hidden row id (tables without a primary key). Inserts only.
    next_row_id: Arc<SharedWord>,
    /// Serialises the check-then-insert of unique secondary entries
    /// (writers only; readers never take it).
    unique_lock: Arc<Mutex<()>>,
    /// Distinct key prefixes: the clustered index's, then each secondary
    /// index's (taken again after DDL, as the trees may change).
    stats: Vec<TreeStats>,
    /// Held by each open transaction that wrote the table; DDL that
    /// replaces the table closes it.
    pub(crate) gate: Arc<WriteGate>,
}

impl Table {
    /// Opens a table over its trees. Counters start after the largest key.
    pub(crate) fn open(def: TableDef, pool: &Arc<BufferPool>) -> Result<Table> {
        let primary = BTree::open(pool.clone(), def.primary_root);
        let primary_key_columns: Vec<KeyColumn> = def
            .primary_key
            .iter()
            .map(|&c| key_column(&def, c))
            .collect();
        let indexes = def
            .indexes
            .iter()
            .map(|d| Index::new(&def, d, &primary_key_columns, pool))
            .collect();
        let layout = RowLayout::new(def.columns.iter().map(|c| c.data_type).collect());
        let stats = std::iter::once(def.primary_key.len())
            .chain(def.indexes.iter().map(|d| d.columns.len()))
            .map(TreeStats::new)
            .collect();
        let blobs = (def.blob_root != 0).then(|| BTree::open(pool.clone(), def.blob_root));
        let t = Table {
            stats,
            primary_key_columns,
            layout,
            primary,
            indexes,
            blobs,
            next_blob_id: Arc::new(SharedWord::new(1)),
            next_auto: Arc::new(SharedWord::new(1)),
            next_row_id: Arc::new(SharedWord::new(1)),
            unique_lock: Arc::new(Mutex::new(())),
            gate: Arc::new(WriteGate::default()),
            def,
        };
        t.init_counters()?;
        Ok(t)
    }

    /// The same table with a new definition (after DDL), sharing counters.
    pub(crate) fn with_def(&self, def: TableDef) -> Result<Table> {
        let pool = self.primary.pool().clone();
        let mut t = Table::open(def, &pool)?;
        t.next_auto = self.next_auto.clone();
        t.next_row_id = self.next_row_id.clone();
        if t.def.blob_root == self.def.blob_root {
            t.next_blob_id = self.next_blob_id.clone();
        }
        t.unique_lock = self.unique_lock.clone();
        Ok(t)
    }

    /// Enters the table's write gate for `txn` (once per transaction):
    /// waits while DDL replaces the table; [`Error::TableReplaced`] once
    /// it has (the statement must look the table up again).
    fn enter_writes(&self, txn: &mut Txn) -> Result<()> {
        let key = Arc::as_ptr(&self.gate) as u64;
        if txn.holds(key) {
            return Ok(());
        }
        match self.gate.enter(txn.lock_wait_timeout()) {
            Ok(()) => {
                let gate = self.gate.clone();
                txn.hold_until_end(key, Box::new(move || gate.leave()));
                Ok(())
            }
            Err(Refused::Retired) => Err(Error::TableReplaced(self.def.name.clone())),
            Err(Refused::TimedOut) => Err(Error::Lock(lineardb_txn::LockError::Timeout)),
        }
    }

    fn init_counters(&self) -> Result<()> {
        self.next_auto.fetch_max(self.def.auto_increment_start);
        if let Some(tree) = &self.blobs {
            // Past every id a chunk (or a crash's unpurged mark) holds.
            if let Some(id) = tree.last_key()?.as_deref().and_then(blob::id_of_key) {
                self.next_blob_id.store(id + 1);
            }
        }
        let Some(last) = self.primary.last_key()? else {
            return Ok(());
        };
        if self.def.primary_key.is_empty() {
            let id = u64::from_be_bytes(
                last.get(..8)
                    .and_then(|b| b.try_into().ok())
                    .unwrap_or([0; 8]),
            );
            self.next_row_id.store(id + 1);
        } else if let Some(ai) = self.def.auto_increment_column() {
            if self.def.primary_key[0] == ai {
                let mut pos = 0;
                if let Some(v) = decode_value(&self.primary_key_columns[0], &last, &mut pos) {
                    let n = match v {
                        Value::Int(i) => i.max(0) as u64,
                        Value::UInt(u) => u,
                        _ => 0,
                    };
                    self.next_auto.store(n + 1);
                }
            }
        }
        Ok(())
    }

    /// The value the auto-increment column takes next (1 for a table
    /// without one).
    pub fn next_auto_increment(&self) -> u64 {
        self.next_auto.load()
    }

    /// `ALTER TABLE … AUTO_INCREMENT = n`: the next value becomes `n`, or
    /// the rows' largest + 1 if that is more (InnoDB's rule: the counter
    /// goes down as well as up). Where the column does not lead the
    /// primary key its largest value is not at hand: the counter is only
    /// raised. The rows are read to find the largest that stands (the
    /// tree's last key may be a deleted row's not purged yet).
    pub fn reset_next_auto_increment(&self, n: u64) -> Result<()> {
        let Some(ai) = self.def.auto_increment_column() else {
            return Ok(());
        };
        if self.def.primary_key.first() != Some(&ai) {
            self.next_auto.fetch_max(n);
            return Ok(());
        }
        let mut last: Option<Vec<u8>> = None;
        self.scan_primary(&ReadView::latest(), &KeyRange::all(), |k, _| {
            last = Some(k.to_vec());
            true
        })?;
        let largest = match last {
            None => 0,
            Some(last) => {
                let mut pos = 0;
                match decode_value(&self.primary_key_columns[0], &last, &mut pos) {
                    Some(Value::Int(i)) => i.max(0) as u64,
                    Some(Value::UInt(u)) => u,
                    _ => 0,
                }
            }
        };
        self.next_auto.store(n.max(largest.saturating_add(1)));
        Ok(())
    }

    /// Makes the next auto-increment value at least `n`.
    pub(crate) fn raise_next_auto_increment(&self, n: u64) {
        self.next_auto.fetch_max(n);
    }

    /// The table's definition: columns, keys, indexes.
    pub fn def(&self) -> &TableDef {
        &self.def
    }

    /// How rows are laid out in records (column types).
    pub fn layout(&self) -> &RowLayout {
        &self.layout
    }

    /// The tree an access reads: the clustered index (`None`) or
    /// secondary index `i`.
    fn tree(&self, index: Option<usize>) -> &BTree {
        match index {
            None => &self.primary,
            Some(i) => &self.indexes[i].tree,
        }
    }

    /// Estimated entries of `ranges` in the clustered index (`None`) or in
    /// secondary index `i` (from the trees' inner pages: no leaf is read).
    pub fn estimate_entries(&self, index: Option<usize>, ranges: &[KeyRange]) -> u64 {
        let tree = self.tree(index);
        ranges
            .iter()
            .map(|r| tree.estimate_range(&r.start, r.end.as_deref()).unwrap_or(0))
            .sum()
    }

    /// Distinct values of the first `columns` key columns of the clustered
    /// index (`None`) or of secondary index `i` (primary key columns not
    /// counted): as ANALYZE TABLE last counted them, or estimated from a
    /// sample when it has not or the tree's size has moved since. None for
    /// a prefix the index does not have.
    pub fn distinct_keys(&self, index: Option<usize>, columns: usize) -> Result<Option<u64>> {
        let (stats, types) = match index {
            None => (&self.stats[0], &self.primary_key_columns[..]),
            Some(i) => (&self.stats[i + 1], &self.indexes[i].types[..]),
        };
        stats.distinct(self.tree(index), types, columns)
    }

    /// ANALYZE TABLE: counts every index's distinct key prefixes over the
    /// entries `view` sees.
    pub fn analyze(&self, view: &ReadView) -> Result<()> {
        self.stats[0].count(&self.primary, &self.primary_key_columns, view)?;
        for (idx, stats) in self.indexes.iter().zip(&self.stats[1..]) {
            stats.count(&idx.tree, &idx.types, view)?;
        }
        Ok(())
    }

    /// Records in the clustered index (`None`) or secondary index `i`,
    /// delete marks included, after checking the tree's structure.
    pub fn tree_records(&self, index: Option<usize>) -> Result<u64> {
        Ok(self.tree(index).check()?)
    }

    /// Records (chunks, delete marks included) in the tree of off-page
    /// values; 0 for a table without one.
    pub fn blob_records(&self) -> Result<u64> {
        Ok(match &self.blobs {
            Some(tree) => tree.check()?,
            None => 0,
        })
    }

    /// Estimated rows of the whole table.
    pub fn estimate_rows(&self) -> u64 {
        self.primary.estimate_range(&[], None).unwrap_or(u64::MAX)
    }

    /// Cuts `range` of the clustered index (`None`) or of secondary index
    /// `i` into about `parts` pieces, in key order (parallel scans).
    pub fn split_range(
        &self,
        index: Option<usize>,
        range: &KeyRange,
        parts: usize,
    ) -> Result<Vec<KeyRange>> {
        crate::parallel::split_range(self.tree(index), range, parts)
    }

    /// Point lookup on the clustered index: calls `f` on the row with
    /// encoded primary key `pk` as `view` sees it (one record copied out of
    /// the leaf; no cursor).
    pub fn with_row<R>(
        &self,
        view: &ReadView,
        pk: &[u8],
        f: impl FnOnce(RowRef<'_>) -> R,
    ) -> Result<Option<R>> {
        let Some(v) = self.primary.get(pk)? else {
            return Ok(None);
        };
        count_fetch(self.primary.root(), 1);
        let blobs = self.blob_reader(view);
        let found = match view.resolve(self.primary.root(), pk, &v) {
            Version::Current(b) => Some(f(self.layout.row_with(b, blobs.as_ref()))),
            Version::Older(o, at) => Some(f(self.layout.row_with(&o[at..], blobs.as_ref()))),
            Version::Absent => None,
        };
        blobs.as_ref().map_or(Ok(()), Blobs::check)?;
        Ok(found)
    }

    /// Reads this table's off-page values for `view` (`None`: it has none).
    pub(crate) fn blob_reader<'s>(&'s self, view: &'s ReadView) -> Option<Blobs<'s>> {
        self.blobs.as_ref().map(|tree| Blobs::new(tree, view))
    }

    /// Calls `f` on a stored row (the bytes after its stamp) and says
    /// whether to go on: false once `f` says so or an off-page value of
    /// the row failed to read (the error is left in `failed`).
    #[inline]
    fn visit<'s>(
        &'s self,
        blobs: Option<&'s Blobs<'s>>,
        row: &'s [u8],
        failed: &mut Option<Error>,
        f: impl FnOnce(RowRef<'_>) -> bool,
    ) -> bool {
        let go = f(self.layout.row_with(row, blobs));
        if let Some(Err(e)) = blobs.map(Blobs::check) {
            *failed = Some(e);
            return false;
        }
        go
    }

    /// Point lookup through unique secondary index `index`: calls `f` on
    /// the row whose index columns encode to `key` (NULL-free, so at most
    /// one live row has it), as `view` sees it. Reads the index entries
    /// under `key` one at a time (a delete-marked entry the view does not
    /// see is skipped) and fetches the row by primary key.
    pub fn with_unique_row<R>(
        &self,
        view: &ReadView,
        index: usize,
        key: &[u8],
        f: impl FnOnce(RowRef<'_>) -> R,
    ) -> Result<Option<R>> {
        let idx = &self.indexes[index];
        debug_assert!(idx.def.unique);
        let root = idx.tree.root();
        let mut c = idx.tree.cursor(key);
        loop {
            let b = c.next_batch(1)?;
            let Some((k, v)) = b.iter().next() else {
                return Ok(None);
            };
            if !k.starts_with(key) || idx.columns_len(k) != key.len() {
                return Ok(None);
            }
            count_fetch(root, 1);
            if view.resolve(root, k, v).body().is_some() {
                let pk = k[key.len()..].to_vec();
                return self.with_row(view, &pk, f);
            }
        }
    }

    pub fn name(&self) -> &str {
        &self.def.name
    }

    pub fn index(&self, name: &str) -> Result<usize> {
        self.def
            .index_position(name)
            .ok_or_else(|| Error::NoSuchIndex(name.to_string()))
    }

    /// The key columns of the clustered index.
    pub fn primary_key_types(&self) -> &[KeyColumn] {
        &self.primary_key_columns
    }

    /// The key columns of secondary index `index` (without the primary key).
    pub fn index_types(&self, index: usize) -> &[KeyColumn] {
        &self.indexes[index].types
    }

    /// Encodes the clustered key of a (coerced) row.
    fn primary_key_of(&self, row: &[Value], row_id: Option<u64>) -> Vec<u8> {
        let mut k = Vec::new();
        if self.def.primary_key.is_empty() {
            k.extend_from_slice(&row_id.expect("row id").to_be_bytes());
        } else {
            for (t, &c) in self.primary_key_columns.iter().zip(&self.def.primary_key) {
                encode_value(t, &row[c], &mut k);
            }
        }
        k
    }

    /// Encodes the primary key from key column values (in key order).
    pub fn encode_primary_key(&self, key: &[Value]) -> Result<Vec<u8>> {
        if self.def.primary_key.is_empty() {
            return Err(Error::Invalid(format!(
                "table '{}' has no primary key",
                self.def.name
            )));
        }
        let mut k = Vec::new();
        for ((t, &c), v) in self
            .primary_key_columns
            .iter()
            .zip(&self.def.primary_key)
            .zip(key)
        {
            let col = &self.def.columns[c];
            encode_value(t, &col.data_type.coerce(v.clone(), &col.name)?, &mut k);
        }
        Ok(k)
    }

    fn index_key(&self, index: &Index, row: &[Value], pk: &[u8]) -> Vec<u8> {
        let mut k = Vec::new();
        for (t, &c) in index.types.iter().zip(&index.def.columns) {
            encode_value(t, &row[c], &mut k);
        }
        k.extend_from_slice(pk);
        k
    }

    /// Validates and completes a row: defaults for omitted columns,
    /// AUTO_INCREMENT, type coercion, NOT NULL. Returns the generated id.
    pub fn prepare_row(&self, given: Vec<Option<Value>>) -> Result<(Vec<Value>, Option<u64>)> {
        self.prepare_row_with(given, false)
    }

    /// [`prepare_row`](Self::prepare_row); with `zero_kept` a 0 given to the
    /// AUTO_INCREMENT column is stored as 0 (sql_mode NO_AUTO_VALUE_ON_ZERO,
    /// which dumps set), only NULL or nothing generates a value.
    pub fn prepare_row_with(
        &self,
        given: Vec<Option<Value>>,
        zero_kept: bool,
    ) -> Result<(Vec<Value>, Option<u64>)> {
        let mut ids = AutoIncrementIds::for_rows(1);
        self.prepare_row_checked(given, zero_kept, &mut ids, |_| Ok(()))
    }

    /// [`prepare_row_with`](Self::prepare_row_with), with `check` called on
    /// the row once every other column is valid and before the
    /// AUTO_INCREMENT column takes a value (which holds what was given, or
    /// NULL): a row `check` refuses uses up no value, as a row MariaDB's
    /// CHECK constraints refuse. A value is taken from `ids`, the
    /// statement's.
    pub fn prepare_row_checked<E: From<Error>>(
        &self,
        given: Vec<Option<Value>>,
        zero_kept: bool,
        ids: &mut AutoIncrementIds,
        check: impl FnOnce(&[Value]) -> std::result::Result<(), E>,
    ) -> std::result::Result<(Vec<Value>, Option<u64>), E> {
        if given.len() != self.def.columns.len() {
            return Err(
                Error::Invalid("Column count doesn't match value count at row 1".into()).into(),
            );
        }
        let mut row = Vec::with_capacity(given.len());
        let mut generated = None;
        // The auto-increment column takes its value once every other
        // column is valid: a row refused for them uses up no value (as in
        // MariaDB).
        let mut auto = None;
        for (c, (v, col)) in given.into_iter().zip(&self.def.columns).enumerate() {
            let v = match v {
                Some(v) => col.coerce(v)?,
                None => col.default_for_insert()?,
            };
            if col.auto_increment {
                auto = Some(c);
            } else if v.is_null() && !col.nullable {
                return Err(Error::NullNotAllowed(self.def.columns[c].name.clone()).into());
            }
            row.push(v);
        }
        check(&row)?;
        if let Some(c) = auto {
            let col = &self.def.columns[c];
            let zero_given = zero_kept && !row[c].is_null();
            let n = match &row[c] {
                Value::Null => 0,
                Value::Int(i) => {
                    if *i < 0 {
                        return Err(Error::OutOfRange(col.name.clone()).into());
                    }
                    *i as u64
                }
                Value::UInt(u) => *u,
                _ => 0,
            };
            if n == 0 && !zero_given {
                let id = ids.take(&self.next_auto);
                generated = Some(id);
                row[c] = col.data_type.coerce(Value::UInt(id), &col.name)?;
            } else if n > 0 {
                self.next_auto.fetch_max(n + 1);
                ids.given(n);
            }
            if row[c].is_null() {
                return Err(Error::NullNotAllowed(col.name.clone()).into());
            }
        }
        Ok((row, generated))
    }

    pub(crate) fn duplicate(&self, index: Option<&Index>, row: &[Value]) -> Error {
        let (cols, key): (&[usize], &str) = match index {
            Some(i) => (&i.def.columns, &i.def.name),
            None => (&self.def.primary_key, "PRIMARY"),
        };
        let entry = cols
            .iter()
            .map(|&c| row[c].to_text().unwrap_or_else(|| "NULL".into()))
            .collect::<Vec<_>>()
            .join("-");
        Error::DuplicateKey {
            entry,
            // MariaDB names the index alone (MySQL 8 prefixes the table).
            key: key.to_string(),
        }
    }

    /// Inserts a row given per column (`None` = default). Returns the
    /// generated AUTO_INCREMENT value, if one was generated. On error the
    /// table is unchanged.
    pub fn insert(&self, txn: &mut Txn, given: Vec<Option<Value>>) -> Result<Option<u64>> {
        let (row, generated) = self.prepare_row(given)?;
        self.insert_prepared(txn, &row)?;
        Ok(generated)
    }

    /// Inserts a complete, coerced row. On error the table is unchanged.
    pub fn insert_prepared(&self, txn: &mut Txn, row: &[Value]) -> Result<()> {
        self.enter_writes(txn)?;
        let row_id = self
            .def
            .primary_key
            .is_empty()
            .then(|| self.next_row_id.fetch_add(1));
        let pk = self.primary_key_of(row, row_id);
        let plan = self.outline_plan(&pk, row, &[])?;
        txn.lock(self.primary.root(), &pk)?;
        let savepoint = txn.savepoint();
        let inserted = self
            .stored_row(txn, row, &plan)
            .and_then(|bytes| Ok(txn.insert_new(&self.primary, &pk, &bytes)?));
        match inserted {
            Ok(true) => {}
            Ok(false) => {
                txn.rollback_to(savepoint)?;
                return Err(self.duplicate(None, row));
            }
            Err(e) => {
                txn.rollback_to(savepoint)?;
                return Err(e);
            }
        }
        if let Err(e) = self.insert_secondaries(txn, row, &pk) {
            txn.rollback_to(savepoint)?;
            return Err(e);
        }
        Ok(())
    }

    /// Which string columns of `row` go off-page for it to fit a record
    /// with primary key `pk` (ascending; `None` as the reference: a value
    /// to store, else the reference it keeps). `kept` are references of
    /// the row's current version whose values are unchanged: they stay.
    /// The longest values of columns no key has go first; a row that still
    /// does not fit, or does not fit in a table without a blob tree, is
    /// refused (sizes count the longest stamp, so whether a row fits does not
    /// depend on the transaction id).
    fn outline_plan(
        &self,
        pk: &[u8],
        row: &[Value],
        kept: &[(usize, BlobRef)],
    ) -> Result<Vec<(usize, Option<BlobRef>)>> {
        let max = self.primary.max_entry_len() - Stamp::MAX_LEN;
        let mut size = pk.len() + self.layout.encoded_len(row);
        let mut plan: Vec<(usize, Option<BlobRef>)> = Vec::new();
        let inline_len = |c: usize| match &row[c] {
            Value::Bytes(b) => b.len(),
            _ => 0,
        };
        for &(c, r) in kept {
            size = size - inline_len(c) + BlobRef::LEN;
            plan.push((c, Some(r)));
        }
        if size > max && self.blobs.is_some() {
            let keyed = |c: usize| {
                self.def.primary_key.contains(&c)
                    || self.def.indexes.iter().any(|i| i.columns.contains(&c))
            };
            let mut candidates: Vec<usize> = (0..row.len())
                .filter(|&c| self.layout.is_variable(c) && !keyed(c))
                .filter(|&c| inline_len(c) > BlobRef::LEN && !plan.iter().any(|p| p.0 == c))
                .collect();
            candidates.sort_by_key(|&c| std::cmp::Reverse(inline_len(c)));
            for c in candidates {
                if size <= max {
                    break;
                }
                size = size - inline_len(c) + BlobRef::LEN;
                plan.push((c, None));
            }
        }
        if size > max {
            return Err(lineardb_buffer::Error::TooLarge { size, max }.into());
        }
        plan.sort_by_key(|p| p.0);
        Ok(plan)
    }

    /// The value stored for `row` as `txn` writes it: stamp, then the row,
    /// with the values `plan` outlines written to the blob tree.
    fn stored_row(
        &self,
        txn: &mut Txn,
        row: &[Value],
        plan: &[(usize, Option<BlobRef>)],
    ) -> Result<Vec<u8>> {
        let trx = txn.id();
        self.encode_stored(trx, row, plan, |tree, id, b| blob::write(txn, tree, id, b))
    }

    /// Stamp of transaction `trx`, then `row`, with the values `plan`
    /// outlines handed to `store` (blob tree, new value id, bytes) first.
    fn encode_stored(
        &self,
        trx: u64,
        row: &[Value],
        plan: &[(usize, Option<BlobRef>)],
        mut store: impl FnMut(&BTree, u64, &[u8]) -> Result<()>,
    ) -> Result<Vec<u8>> {
        let mut outlined = Vec::with_capacity(plan.len());
        for &(c, kept) in plan {
            let r = match kept {
                Some(r) => r,
                None => {
                    let tree = self.blobs.as_ref().expect("planned with a blob tree");
                    let Value::Bytes(b) = &row[c] else {
                        unreachable!("only strings are outlined")
                    };
                    let r = BlobRef {
                        id: self.next_blob_id.fetch_add(1),
                        len: b.len() as u64,
                    };
                    store(tree, r.id, b)?;
                    r
                }
            };
            outlined.push((c, r));
        }
        let mut bytes = Vec::with_capacity(128);
        Stamp::live(trx).encode(&mut bytes);
        self.layout.encode_outlined(row, &outlined, &mut bytes);
        Ok(bytes)
    }

    /// The off-page values the latest version of row `pk` references.
    fn outlined_now(&self, pk: &[u8]) -> Result<Vec<(usize, BlobRef)>> {
        if self.blobs.is_none() {
            return Ok(Vec::new());
        }
        let Some(v) = self.primary.get(pk)? else {
            return Ok(Vec::new());
        };
        let (stamp, at) = Stamp::decode(&v);
        if stamp.deleted {
            return Ok(Vec::new());
        }
        Ok(self.layout.row(&v[at..]).outlined())
    }

    /// Adds the row's secondary entries; on a unique conflict returns the
    /// error (the caller rolls back what was added).
    fn insert_secondaries(&self, txn: &mut Txn, row: &[Value], pk: &[u8]) -> Result<()> {
        let needs_lock = self.indexes.iter().any(|i| i.def.unique);
        let _guard = needs_lock.then(|| self.unique_lock.lock());
        for index in &self.indexes {
            if index.def.unique && self.unique_conflict(index, row, pk)? {
                return Err(self.duplicate(Some(index), row));
            }
            let entry = Stamp::live(txn.id()).to_vec();
            txn.put(&index.tree, &self.index_key(index, row, pk), &entry)?;
        }
        Ok(())
    }

    /// Does another row have the same NULL-free values in this unique index?
    fn unique_conflict(&self, index: &Index, row: &[Value], pk: &[u8]) -> Result<bool> {
        Ok(self.unique_holder(index, row, pk)?.is_some())
    }

    /// The primary key of a row other than `pk` with the same NULL-free
    /// values as `row` in this unique index (delete marks skipped).
    fn unique_holder(&self, index: &Index, row: &[Value], pk: &[u8]) -> Result<Option<Vec<u8>>> {
        if index.def.columns.iter().any(|&c| row[c].is_null()) {
            return Ok(None);
        }
        let mut prefix = Vec::new();
        for (t, &c) in index.types.iter().zip(&index.def.columns) {
            encode_value(t, &row[c], &mut prefix);
        }
        let mut holder = None;
        let range = KeyRange {
            end: prefix_end(&prefix),
            start: prefix,
        };
        let at = range.start.len();
        scan_range(&index.tree, &range, |k, v| {
            if k[..at] == range.start[..] && &k[at..] != pk && !Stamp::decode(v).0.deleted {
                holder = Some(k[at..].to_vec());
            }
            holder.is_none()
        })?;
        Ok(holder)
    }

    /// The primary key of the row that `row` (complete, as
    /// [`Table::prepare_row`] gives it) would duplicate: the row with its
    /// primary key, else the first unique index's (MariaDB's order for
    /// INSERT ... ON DUPLICATE KEY UPDATE). Reads the latest versions.
    pub fn duplicated_key(&self, row: &[Value]) -> Result<Option<Vec<u8>>> {
        if !self.def.primary_key.is_empty() {
            let pk = self.primary_key_of(row, None);
            if self.get_by_key(&ReadView::latest(), &pk)?.is_some() {
                return Ok(Some(pk));
            }
        }
        for index in self.indexes.iter().filter(|i| i.def.unique) {
            if let Some(pk) = self.unique_holder(index, row, &[])? {
                return Ok(Some(pk));
            }
        }
        Ok(None)
    }

    /// Loads rows given in ascending primary-key order into this empty table
    /// (bottom-up, no per-row descent). Secondary indexes are built after,
    /// with [`crate::Engine::create_indexes`]. Returns the number of rows.
    pub fn bulk_load(&self, rows: impl IntoIterator<Item = Vec<Value>>) -> Result<u64> {
        let mut err: Option<Error> = None;
        let mut row_id = 0u64;
        let encoded = rows.into_iter().map_while(|r| {
            row_id += 1;
            match self.encode_for_load(r, row_id) {
                Ok(kv) => Some(kv),
                Err(e) => {
                    err = Some(e);
                    None
                }
            }
        });
        let n = self.bulk_load_encoded(encoded);
        match err {
            Some(e) => Err(e),
            None => n,
        }
    }

    /// Validates a complete row (values for every column) and encodes its
    /// primary key and row bytes for [`Table::bulk_load_encoded`]. `row_id`
    /// is used for tables without a primary key.
    pub fn encode_for_load(&self, values: Vec<Value>, row_id: u64) -> Result<(Vec<u8>, Vec<u8>)> {
        let (row, _) = self.prepare_row(values.into_iter().map(Some).collect())?;
        let pk = self.primary_key_of(&row, Some(row_id));
        let plan = self.outline_plan(&pk, &row, &[])?;
        // Transaction 0: every snapshot sees loaded rows. Off-page values
        // go into a table being built, whose blob tree is unreferenced
        // until the catalog names it: its chunks need no undo.
        let bytes = self.encode_stored(0, &row, &plan, blob::write_loaded)?;
        Ok((pk, bytes))
    }

    /// The values of a stored row (the bytes after its stamp) of this
    /// table, off-page ones read at their latest versions.
    pub(crate) fn stored_values(&self, row: &[u8]) -> Result<Vec<Value>> {
        let view = ReadView::latest();
        let blobs = self.blob_reader(&view);
        let values = self.layout.row_with(row, blobs.as_ref()).values();
        blobs.as_ref().map_or(Ok(()), Blobs::check)?;
        Ok(values)
    }

    /// Loads encoded (primary key, row) pairs in ascending key order into
    /// this empty table, then moves the AUTO_INCREMENT and row-id counters
    /// past the largest key.
    pub fn bulk_load_encoded<K: AsRef<[u8]>, V: AsRef<[u8]>>(
        &self,
        rows: impl IntoIterator<Item = (K, V)>,
    ) -> Result<u64> {
        if !self.indexes.is_empty() {
            return Err(Error::Invalid(
                "bulk load into a table with secondary indexes".into(),
            ));
        }
        let n = self.primary.bulk_load(rows)?;
        self.init_counters()?;
        Ok(n)
    }

    /// The row with this encoded primary key, as `view` sees it.
    pub fn get_by_key(&self, view: &ReadView, pk: &[u8]) -> Result<Option<Vec<Value>>> {
        self.with_row(view, pk, |row| row.values())
    }

    /// The row with these primary key values, as `view` sees it.
    pub fn get(&self, view: &ReadView, key: &[Value]) -> Result<Option<Vec<Value>>> {
        self.get_by_key(view, &self.encode_primary_key(key)?)
    }

    /// Deletes the row with this encoded primary key; true if it existed.
    pub fn delete_by_key(&self, txn: &mut Txn, pk: &[u8]) -> Result<bool> {
        let Some(old) = self.lock_row(txn, pk)? else {
            return Ok(false);
        };
        self.delete_row(txn, pk, &old)?;
        Ok(true)
    }

    /// Locks the row with primary key `pk` for `txn` and reads its latest
    /// version (`None`: no such row; the key stays locked).
    pub fn lock_row(&self, txn: &mut Txn, pk: &[u8]) -> Result<Option<Vec<Value>>> {
        self.lock_key(txn, pk)?;
        self.get_by_key(&ReadView::latest(), pk)
    }

    /// Locks primary key `pk` for `txn` until it ends, whether or not a row
    /// has it (a DELETE of a missing row and the INSERT that follows hold it).
    pub fn lock_key(&self, txn: &mut Txn, pk: &[u8]) -> Result<()> {
        self.enter_writes(txn)?;
        Ok(txn.lock(self.primary.root(), pk)?)
    }

    /// Locks primary key `pk` for `txn` if no other transaction holds it
    /// (false then: nothing locked). Never waits.
    pub fn try_lock_key(&self, txn: &mut Txn, pk: &[u8]) -> Result<bool> {
        self.enter_writes(txn)?;
        Ok(txn.try_lock(self.primary.root(), pk))
    }

    /// Deletes the row `old` with primary key `pk`, which `txn` locked and
    /// read ([`Table::lock_row`]).
    pub fn delete_row(&self, txn: &mut Txn, pk: &[u8], old: &[Value]) -> Result<()> {
        self.enter_writes(txn)?;
        if let Some(tree) = &self.blobs {
            for (_, r) in self.outlined_now(pk)? {
                blob::delete(txn, tree, r)?;
            }
        }
        for index in &self.indexes {
            txn.delete_mark(&index.tree, &self.index_key(index, old, pk))?;
        }
        txn.delete_mark(&self.primary, pk)?;
        Ok(())
    }

    /// Replaces the row with encoded primary key `pk` by `new` (given per
    /// column; `None` keeps the old value). Returns false if no such row.
    pub fn update_by_key(&self, txn: &mut Txn, pk: &[u8], new: Vec<Option<Value>>) -> Result<bool> {
        let Some(old) = self.lock_row(txn, pk)? else {
            return Ok(false);
        };
        self.update_row(txn, pk, &old, new)?;
        Ok(true)
    }

    /// [`Table::update_by_key`] of the row `old`, which `txn` locked and
    /// read ([`Table::lock_row`]).
    pub fn update_row(
        &self,
        txn: &mut Txn,
        pk: &[u8],
        old: &[Value],
        new: Vec<Option<Value>>,
    ) -> Result<()> {
        self.enter_writes(txn)?;
        let mut row = Vec::with_capacity(old.len());
        for ((o, n), col) in old.iter().zip(new).zip(&self.def.columns) {
            let v = match n {
                Some(v) => col.coerce(v)?,
                None => o.clone(),
            };
            if v.is_null() && !col.nullable {
                return Err(Error::NullNotAllowed(col.name.clone()));
            }
            row.push(v);
        }
        if row == old {
            return Ok(());
        }
        let row_id = self
            .def
            .primary_key
            .is_empty()
            .then(|| u64::from_be_bytes(pk[..8].try_into().unwrap()));
        let new_pk = self.primary_key_of(&row, row_id);
        if new_pk != pk {
            // The row moves: delete, insert; undo both on failure.
            let savepoint = txn.savepoint();
            self.delete_row(txn, pk, old)?;
            if let Err(e) = self.insert_prepared(txn, &row) {
                txn.rollback_to(savepoint)?;
                return Err(e);
            }
            return Ok(());
        }
        let _guard = self
            .indexes
            .iter()
            .any(|i| i.def.unique)
            .then(|| self.unique_lock.lock());
        for index in &self.indexes {
            let changed = index.def.columns.iter().any(|&c| row[c] != old[c]);
            if changed && index.def.unique && self.unique_conflict(index, &row, pk)? {
                return Err(self.duplicate(Some(index), &row));
            }
        }
        // Off-page values of unchanged columns stay where they are; the
        // others are marked deleted once the new version is in.
        let outlined = self.outlined_now(pk)?;
        let (kept, dropped): (Vec<_>, Vec<_>) =
            outlined.into_iter().partition(|&(c, _)| row[c] == old[c]);
        let plan = self.outline_plan(pk, &row, &kept)?;
        let bytes = self.stored_row(txn, &row, &plan)?;
        txn.put(&self.primary, pk, &bytes)?;
        if let Some(tree) = &self.blobs {
            for (_, r) in dropped {
                blob::delete(txn, tree, r)?;
            }
        }
        for index in &self.indexes {
            if index.def.columns.iter().any(|&c| row[c] != old[c]) {
                txn.delete_mark(&index.tree, &self.index_key(index, old, pk))?;
                let entry = Stamp::live(txn.id()).to_vec();
                txn.put(&index.tree, &self.index_key(index, &row, pk), &entry)?;
            }
        }
        Ok(())
    }

    /// Calls `f(primary key, row)` for the rows `view` sees with keys in
    /// `range`, in key order, until it returns false.
    pub fn scan_primary(
        &self,
        view: &ReadView,
        range: &KeyRange,
        mut f: impl FnMut(&[u8], RowRef<'_>) -> bool,
    ) -> Result<()> {
        let root = self.primary.root();
        let blobs = self.blob_reader(view);
        let mut failed = None;
        scan_range(&self.primary, range, |k, v| {
            match view.resolve(root, k, v) {
                Version::Current(b) => self.visit(blobs.as_ref(), b, &mut failed, |r| f(k, r)),
                Version::Older(o, at) => {
                    self.visit(blobs.as_ref(), &o[at..], &mut failed, |r| f(k, r))
                }
                Version::Absent => true,
            }
        })?;
        failed.map_or(Ok(()), Err)
    }

    /// Covering scan: calls `f` on the entries of secondary index `index`
    /// in `range` that `view` sees, in index order, until it returns false.
    /// An entry's own versions say whether the view sees it (a snapshot
    /// sees exactly the entries of the row versions it sees), so the row
    /// is never read.
    pub fn scan_index(
        &self,
        view: &ReadView,
        index: usize,
        range: &KeyRange,
        mut f: impl FnMut(&IndexEntry<'_>) -> bool,
    ) -> Result<()> {
        let idx = &self.indexes[index];
        let root = idx.tree.root();
        scan_range(&idx.tree, range, |k, v| {
            if view.resolve(root, k, v).body().is_none() {
                return true;
            }
            f(&IndexEntry {
                key: k,
                index: idx,
                table: self,
            })
        })
    }

    /// Non-covering scan: rows whose secondary-index entries lie in `range`,
    /// in index order. Primary keys are looked up in sorted batches that
    /// reuse a leaf while keys fall inside it (one descent per leaf).
    pub fn scan_index_rows(
        &self,
        view: &ReadView,
        index: usize,
        range: &KeyRange,
        mut f: impl FnMut(RowRef<'_>) -> bool,
    ) -> Result<()> {
        let idx = &self.indexes[index];
        let mut c = idx.tree.cursor(&range.start);
        let mut keys = PrimaryKeys::default();
        // Batch positions in primary-key order, and where each row landed.
        let mut order: Vec<u32> = Vec::new();
        let mut rows: Vec<Option<(u32, u32)>> = Vec::new();
        let mut data: Vec<u8> = Vec::new();
        let mut batch = BatchSize::default();
        let blobs = self.blob_reader(view);
        let mut failed = None;
        loop {
            let b = c.next_batch(batch.next())?;
            if b.is_empty() {
                return Ok(());
            }
            keys.clear();
            let done = !keys.gather(idx, view, b, range);
            order.clear();
            order.extend(0..keys.len() as u32);
            order.sort_unstable_by(|&a, &b| keys.get(a as usize).cmp(keys.get(b as usize)));
            let sorted: Vec<&[u8]> = order.iter().map(|&i| keys.get(i as usize)).collect();
            rows.clear();
            rows.resize(order.len(), None);
            data.clear();
            let root = self.primary.root();
            self.primary.get_sorted(&sorted, |j, v| {
                if let Some(body) = view.resolve(root, sorted[j], v).body() {
                    let s = data.len() as u32;
                    data.extend_from_slice(body);
                    rows[order[j] as usize] = Some((s, data.len() as u32));
                }
            })?;
            for (s, e) in rows.iter().flatten() {
                let row = &data[*s as usize..*e as usize];
                if !self.visit(blobs.as_ref(), row, &mut failed, &mut f) {
                    return failed.map_or(Ok(()), Err);
                }
            }
            if done {
                return Ok(());
            }
        }
    }

    /// Non-covering scan in primary-key order ("multi-range read"): for
    /// callers that do not need index order (aggregates, counts). Primary
    /// keys are gathered in batches of up to [`SWEEP_BATCH`], sorted, and
    /// looked up in one sweep of the clustered index, so neighbouring keys
    /// share leaves and descents. Rows are passed straight from the leaf
    /// (no second copy). Stops when `f` returns false.
    pub fn scan_index_rows_unordered(
        &self,
        view: &ReadView,
        index: usize,
        range: &KeyRange,
        mut f: impl FnMut(RowRef<'_>) -> bool,
    ) -> Result<()> {
        let idx = &self.indexes[index];
        let mut c = idx.tree.cursor(&range.start);
        let mut keys = PrimaryKeys::default();
        let mut batch = BatchSize::default();
        let mut more = true;
        let mut stopped = false;
        let blobs = self.blob_reader(view);
        let mut failed = None;
        while more && !stopped {
            keys.clear();
            // Fill one sweep batch from as many cursor batches as it takes.
            while more && keys.len() < SWEEP_BATCH {
                let b = c.next_batch(batch.next())?;
                more = !b.is_empty() && keys.gather(idx, view, b, range);
            }
            let mut sorted: Vec<&[u8]> = (0..keys.len()).map(|i| keys.get(i)).collect();
            sorted.sort_unstable();
            let root = self.primary.root();
            self.primary.get_sorted(&sorted, |j, v| {
                if stopped {
                    return;
                }
                let go = match view.resolve(root, sorted[j], v) {
                    Version::Current(b) => self.visit(blobs.as_ref(), b, &mut failed, &mut f),
                    Version::Older(o, at) => {
                        self.visit(blobs.as_ref(), &o[at..], &mut failed, &mut f)
                    }
                    Version::Absent => true,
                };
                stopped = !go;
            })?;
        }
        failed.map_or(Ok(()), Err)
    }

    /// Calls `f(state, primary key, row)` for the rows `view` sees with
    /// keys in `range`, on `threads` workers with their own states
    /// (returned). Order across pieces is not defined; within a piece it
    /// is key order.
    pub fn parallel_scan_primary<S: Send>(
        &self,
        view: &ReadView,
        range: &KeyRange,
        threads: usize,
        init: impl Fn() -> S + Sync,
        f: impl Fn(&mut S, &[u8], RowRef<'_>) + Sync,
    ) -> Result<Vec<S>> {
        let root = self.primary.root();
        let failed: Mutex<Option<Error>> = Mutex::new(None);
        let states = crate::parallel::scan(&self.primary, range, threads, init, |state, k, v| {
            // Per row: a reader keeps its failure in a cell of its own.
            let blobs = self.blob_reader(view);
            let mut row_failed = None;
            match view.resolve(root, k, v) {
                Version::Current(b) => {
                    self.visit(blobs.as_ref(), b, &mut row_failed, |r| {
                        f(state, k, r);
                        true
                    });
                }
                Version::Older(o, at) => {
                    self.visit(blobs.as_ref(), &o[at..], &mut row_failed, |r| {
                        f(state, k, r);
                        true
                    });
                }
                Version::Absent => {}
            }
            if let Some(e) = row_failed {
                *failed.lock() = Some(e);
            }
        })?;
        match failed.into_inner() {
            Some(e) => Err(e),
            None => Ok(states),
        }
    }

    /// Number of rows `view` sees (a parallel count over the clustered
    /// index).
    pub fn count(&self, view: &ReadView, threads: usize) -> Result<u64> {
        crate::parallel::count_visible(&self.primary, view, &KeyRange::all(), threads)
    }

    /// Checks the trees and that the live entries of every secondary index
    /// match the live rows exactly (delete marks waiting for purge are
    /// left out). Returns the number of live rows.
    pub fn check(&self) -> Result<u64> {
        let live = |tree: &BTree| -> Result<u64> {
            tree.check()?;
            let mut n = 0u64;
            scan_range(tree, &KeyRange::all(), |_, v| {
                n += !Stamp::decode(v).0.deleted as u64;
                true
            })?;
            Ok(n)
        };
        let rows = live(&self.primary)?;
        if let Some(tree) = &self.blobs {
            tree.check()?;
        }
        for index in &self.indexes {
            let entries = live(&index.tree)?;
            if entries != rows {
                return Err(Error::Invalid(format!(
                    "index '{}' has {entries} entries for {rows} rows",
                    index.def.name
                )));
            }
        }
        let mut err: Option<Error> = None;
        self.scan_primary(&ReadView::latest(), &KeyRange::all(), |pk, row| {
            let values = row.values();
            for index in &self.indexes {
                match index.tree.get(&self.index_key(index, &values, pk)) {
                    Ok(Some(v)) if !Stamp::decode(&v).0.deleted => {}
                    Ok(_) => {
                        err = Some(Error::Invalid(format!(
                            "index '{}' misses a row",
                            index.def.name
                        )));
                        return false;
                    }
                    Err(e) => {
                        err = Some(e.into());
                        return false;
                    }
                }
            }
            true
        })?;
        match err {
            Some(e) => Err(e),
            None => Ok(rows),
        }
    }
}
