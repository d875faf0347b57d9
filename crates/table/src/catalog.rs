//! The catalog: databases and table definitions, stored in the data file in
//! the tree `__catalog` (key `D<db>` for a database, `T<db>\0<table>` for a
//! table, `t<owner><id>` for a temporary table, value: the
//! definition as JSON; a definition longer than a tree entry is kept in
//! parts, see `entries`), and the open tables.
//!
//! A temporary table's entry only lets the engine find its trees again
//! after a crash: opening the engine frees them and removes the entry, so
//! no temporary table outlives its owner (a session) or a restart.
//!
//! DDL is serialised by one mutex. Looking a table up takes a mutex too:
//! sessions are expected to cache the `Arc<Table>` they get (DDL-rate, not
//! per-row work).
mod entries;
mod rebuild;
mod rename;
mod views;
use crate::error::{Error, Result};
use crate::index_build::{build_indexes, BuildStats};
use crate::key_range::KeyRange;
use crate::schema::{ColumnDef, IndexDef, TableDef, Temporary};
use crate::table::Table;
use crate::waits;
use entries::CatalogEntries;
use lineardb_btree::{BTree, PoolConfig, Store};
use lineardb_sync::{Mutex, MutexGuard, SharedWord};
use lineardb_txn::{ReadView, Reader, Stamp, Transactions, Txn};
use lineardb_wal::{Durability, LogFile, RecoveryReport, Wal};
pub use rebuild::{ConvertRow, RebuildProgress, RebuildStats, RebuildStep};
use std::collections::HashMap;
use std::path::Path;
use std::sync::Arc;
pub use views::ViewDef;

const CATALOG_TREE: &str = "__catalog";

/// How an engine opens its data file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EngineConfig {
    /// Bytes per page (power of two, 512..=32768); fixed when the file is made.
    pub page_size: usize,
    /// Bytes of buffer pool frames.
    pub pool_bytes: usize,
    /// Largest page count the file may reach.
    pub max_pages: u64,
}

impl Default for EngineConfig {
    fn default() -> Self {
        let pool = PoolConfig::default();
        EngineConfig {
            page_size: pool.page_size,
            pool_bytes: pool.pool_bytes,
            max_pages: pool.max_pages,
        }
    }
}

impl From<EngineConfig> for PoolConfig {
    fn from(c: EngineConfig) -> PoolConfig {
        PoolConfig {
            page_size: c.page_size,
            pool_bytes: c.pool_bytes,
            max_pages: c.max_pages,
        }
    }
}

/// The buffer pool's figures, as [`Engine::pool_stats`] reads them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PoolStats {
    pub page_size: usize,
    /// Frames in the pool, and how many hold a page now.
    pub frames: usize,
    pub resident: usize,
    /// Pages in the data file, and how many of them are free.
    pub page_count: u64,
    pub free_pages: usize,
}

/// The redo log's figures, as [`Engine::log_stats`] reads them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LogStats {
    /// The oldest LSN the log file still holds.
    pub first: u64,
    /// LSN after the last appended record.
    pub appended: u64,
    /// LSN up to which the file has the records.
    pub written: u64,
    /// LSN up to which the file is synced.
    pub synced: u64,
    /// Syncs done: fewer than commits when commits are grouped.
    pub syncs: u64,
    /// Whether a log write or sync is under way now.
    pub flushing: bool,
}

/// A secondary index to make: its name, its columns by name, whether it is
/// unique, and which key parts are declared DESC (see
/// [`IndexDef::descending`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IndexSpec {
    pub name: String,
    pub columns: Vec<String>,
    pub unique: bool,
    pub descending: Vec<bool>,
}

impl From<(String, Vec<String>, bool)> for IndexSpec {
    /// (name, columns, unique), every key part ascending.
    fn from((name, columns, unique): (String, Vec<String>, bool)) -> IndexSpec {
        IndexSpec {
            name,
            columns,
            unique,
            descending: Vec::new(),
        }
    }
}

/// A table to create: columns, primary key, secondary indexes by name.
#[derive(Debug, Clone)]
pub struct TableSpec {
    pub database: String,
    pub name: String,
    pub columns: Vec<ColumnDef>,
    pub primary_key: Vec<String>,
    pub indexes: Vec<IndexSpec>,
    /// `AUTO_INCREMENT = n` (0: none given).
    pub auto_increment_start: u64,
    /// `COMMENT = '…'`.
    pub comment: String,
    /// See [`TableDef::storage_options`].
    pub storage_options: Vec<(String, String)>,
    /// See [`TableDef::collation`].
    pub collation: crate::Collation,
    /// FOREIGN KEYs, with column positions in `columns`.
    pub foreign_keys: Vec<crate::schema::ForeignKeyDef>,
    /// CHECK constraints, with column positions in `columns`.
    pub checks: Vec<crate::schema::CheckDef>,
    /// Make it a temporary table of `owner` (see [`TableDef::temporary`],
    /// [`Engine::temporary_owner`]).
    pub temporary_for: Option<u64>,
}

impl TableSpec {
    pub fn new(database: &str, name: &str) -> TableSpec {
        TableSpec {
            database: database.into(),
            name: name.into(),
            columns: Vec::new(),
            primary_key: Vec::new(),
            indexes: Vec::new(),
            auto_increment_start: 0,
            comment: String::new(),
            storage_options: Vec::new(),
            collation: crate::Collation::default(),
            foreign_keys: Vec::new(),
            checks: Vec::new(),
            temporary_for: None,
        }
    }
    pub fn temporary(mut self, owner: u64) -> Self {
        self.temporary_for = Some(owner);
        self
    }
    pub fn column(mut self, c: ColumnDef) -> Self {
        self.columns.push(c);
        self
    }
    pub fn primary_key(mut self, cols: &[&str]) -> Self {
        self.primary_key = cols.iter().map(|s| s.to_string()).collect();
        self
    }
    pub fn index(mut self, name: &str, cols: &[&str], unique: bool) -> Self {
        self.indexes.push(IndexSpec::from((
            name.to_string(),
            cols.iter().map(|s| s.to_string()).collect(),
            unique,
        )));
        self
    }
}

pub struct Engine {
    store: Store,
    txns: Arc<Transactions>,
    recovery: RecoveryReport,
    catalog: CatalogEntries,
    tables: Mutex<HashMap<(String, String), Arc<Table>>>,
    /// Temporary tables by (owner, db, name), db and name lowercase.
    temporary: Mutex<HashMap<(u64, String, String), Arc<Table>>>,
    /// The last id given to a temporary table or its owner.
    temporary_ids: SharedWord,
    ddl: Mutex<()>,
    /// Bumped by every DDL statement when it ends. Sessions cache table
    /// handles and only re-fetch them when this changed: a query reads it,
    /// never writes it.
    version: SharedWord,
}

impl Drop for Engine {
    /// Stops the log thread and checkpoints (as [`Engine::close`]).
    fn drop(&mut self) {
        if let Err(e) = self.txns.shutdown() {
            eprintln!("lineardb: closing the log failed: {e}");
        }
    }
}

/// Held for the length of a DDL statement; bumps the catalog version on
/// release (so a session that saw the old version re-fetches its tables).
struct DdlGuard<'a> {
    _lock: MutexGuard<'a, ()>,
    version: &'a SharedWord,
}

impl Drop for DdlGuard<'_> {
    fn drop(&mut self) {
        self.version.fetch_add(1);
    }
}

fn table_key(db: &str, name: &str) -> Vec<u8> {
    let mut k = b"T".to_vec();
    k.extend_from_slice(db.to_ascii_lowercase().as_bytes());
    k.push(0);
    k.extend_from_slice(name.to_ascii_lowercase().as_bytes());
    k
}

fn temporary_key(t: Temporary) -> Vec<u8> {
    let mut k = b"t".to_vec();
    k.extend_from_slice(&t.owner.to_be_bytes());
    k.extend_from_slice(&t.id.to_be_bytes());
    k
}

/// The catalog key of a table, temporary or not.
fn catalog_key(def: &TableDef) -> Vec<u8> {
    match def.temporary {
        Some(t) => temporary_key(t),
        None => table_key(&def.database, &def.name),
    }
}

fn lowercase(db: &str, name: &str) -> (String, String) {
    (db.to_ascii_lowercase(), name.to_ascii_lowercase())
}

fn db_key(db: &str) -> Vec<u8> {
    let mut k = b"D".to_vec();
    k.extend_from_slice(db.to_ascii_lowercase().as_bytes());
    k
}

fn ident_ok(s: &str) -> bool {
    !s.is_empty() && s.len() <= 64 && !s.contains('\0')
}

impl Engine {
    /// Opens the data file at `path`, creating it if needed, with its redo
    /// log beside it (`path` with the extension `redo`); recovers from the
    /// log what the data file lacks.
    pub fn open(path: &Path, cfg: EngineConfig) -> Result<Engine> {
        Self::open_with(path, cfg, None)
    }

    /// [`open`](Self::open) with the redo log in `log` instead of the file
    /// beside the data file (fault injection: a `lineardb_wal::FaultyFile`).
    pub fn open_with_log(path: &Path, cfg: EngineConfig, log: Box<dyn LogFile>) -> Result<Engine> {
        Self::open_with(path, cfg, Some(log))
    }

    fn open_with(path: &Path, cfg: EngineConfig, log: Option<Box<dyn LogFile>>) -> Result<Engine> {
        waits::register_engine_classes();
        let store = Store::open_or_create(path, cfg.into())?;
        let pool = store.pool().clone();
        let (wal, recovery) = match log {
            Some(file) => Wal::open_file(file, pool, Durability::Sync)?,
            None => Wal::open(&path.with_extension("redo"), pool, Durability::Sync)?,
        };
        let catalog = CatalogEntries::new(match store.open_tree(CATALOG_TREE)? {
            Some(t) => t,
            None => {
                let t = store.create_tree(CATALOG_TREE)?;
                wal.checkpoint()?;
                t
            }
        });
        let engine = Engine {
            store,
            txns: Transactions::start(wal),
            recovery,
            catalog,
            tables: Mutex::with_class(waits::CATALOG, HashMap::new()),
            temporary: Mutex::with_class(waits::CATALOG, HashMap::new()),
            temporary_ids: SharedWord::new(0),
            ddl: Mutex::with_class(waits::CATALOG, ()),
            version: SharedWord::new(0),
        };
        engine.discard_temporary_tables()?;
        Ok(engine)
    }

    /// Frees the trees of the temporary tables a crash left behind and
    /// removes their entries.
    fn discard_temporary_tables(&self) -> Result<()> {
        for def in self.table_defs(b"t")? {
            self.catalog_set(&catalog_key(&def), None)?;
            self.destroy_trees(&def)?;
        }
        Ok(())
    }

    fn destroy_trees(&self, def: &TableDef) -> Result<()> {
        self.txns.destroy_tree(def.primary_root)?;
        if def.blob_root != 0 {
            self.txns.destroy_tree(def.blob_root)?;
        }
        for i in &def.indexes {
            self.txns.destroy_tree(i.root)?;
        }
        Ok(())
    }

    /// Makes `table` the open handle of its name.
    fn install(&self, table: &Arc<Table>) {
        let def = &table.def;
        let (db, name) = lowercase(&def.database, &def.name);
        match def.temporary {
            Some(t) => self
                .temporary
                .lock()
                .insert((t.owner, db, name), table.clone()),
            None => self.tables.lock().insert((db, name), table.clone()),
        };
    }

    /// Forgets the open handle of `def`'s name, if it is still `def`'s
    /// table (a temporary name may have been given to another since).
    fn uninstall(&self, def: &TableDef) {
        let (db, name) = lowercase(&def.database, &def.name);
        match def.temporary {
            Some(t) => {
                let mut open = self.temporary.lock();
                let key = (t.owner, db, name);
                if open
                    .get(&key)
                    .is_some_and(|o| o.def.temporary == def.temporary)
                {
                    open.remove(&key);
                }
            }
            None => {
                self.tables.lock().remove(&(db, name));
            }
        }
    }

    /// Stores `def` as its table's catalog entry and opens the table on it.
    fn store_def(
        &self,
        def: TableDef,
        make: impl FnOnce(TableDef) -> Result<Table>,
    ) -> Result<Arc<Table>> {
        self.catalog_set(
            &catalog_key(&def),
            Some(&serde_json::to_vec(&def).expect("serializable")),
        )?;
        let table = Arc::new(make(def)?);
        self.install(&table);
        Ok(table)
    }

    fn ddl_lock(&self) -> DdlGuard<'_> {
        DdlGuard {
            _lock: self.ddl.lock(),
            version: &self.version,
        }
    }

    /// The catalog version: changes after every DDL statement.
    pub fn catalog_version(&self) -> u64 {
        self.version.load()
    }

    /// The buffer pool's figures (SHOW STATUS, the engine status text).
    pub fn pool_stats(&self) -> PoolStats {
        let s = self.store.pool().stats();
        PoolStats {
            page_size: s.page_size,
            frames: s.frames,
            resident: s.resident,
            page_count: s.page_count,
            free_pages: s.free_pages,
        }
    }

    /// Names of the trees, by tree id (a tree's root page, as u32):
    /// `db.table.PRIMARY`, `db.table.<index>`, and `lineardb.catalog`.
    pub fn tree_names(&self) -> Result<HashMap<u32, String>> {
        let mut names = HashMap::new();
        names.insert(self.catalog.root() as u32, "lineardb.catalog".to_string());
        // From the stored definitions: naming a page opens no table.
        for def in self.all_table_defs()? {
            let table = format!("{}.{}", def.database, def.name);
            names.insert(def.primary_root as u32, format!("{table}.PRIMARY"));
            if def.blob_root != 0 {
                names.insert(def.blob_root as u32, format!("{table}.BLOBS"));
            }
            for i in &def.indexes {
                names.insert(i.root as u32, format!("{table}.{}", i.name));
            }
        }
        Ok(names)
    }

    /// The tree id and level of page `pid` if it is in memory (see
    /// [`BTree::page_owner`]).
    pub fn page_owner(&self, pid: u64) -> Option<(u32, u8)> {
        BTree::page_owner(self.store.pool(), pid)
    }

    /// The log's figures (SHOW STATUS, the engine status text).
    pub fn log_stats(&self) -> LogStats {
        let log = self.txns.wal().log();
        let s = log.stats();
        LogStats {
            first: log.first(),
            appended: s.appended,
            written: s.written,
            synced: s.synced,
            syncs: s.syncs,
            flushing: log.is_flushing(),
        }
    }

    /// Whether a log write or sync is under way now.
    pub fn log_is_flushing(&self) -> bool {
        self.txns.wal().log().is_flushing()
    }

    /// `innodb_flush_log_at_trx_commit`: 1 syncs every commit, 2 writes
    /// at commit and syncs once a second, 0 does both once a second.
    pub fn flush_log_at_trx_commit(&self) -> u64 {
        self.txns.wal().durability().level()
    }

    /// Sets [`flush_log_at_trx_commit`](Self::flush_log_at_trx_commit);
    /// false (and nothing changed) for a level other than 0, 1, 2.
    pub fn set_flush_log_at_trx_commit(&self, level: u64) -> bool {
        match Durability::from_level(level) {
            Some(d) => {
                self.txns.wal().set_durability(d);
                true
            }
            None => false,
        }
    }

    /// Returns once the log up to `lsn` (a commit's, from
    /// [`Txn::commit_no_wait`]) is as durable as a commit must be.
    pub fn wait_durable(&self, lsn: u64) -> Result<()> {
        Ok(self.txns.wal().wait_durable(lsn)?)
    }

    /// Whether [`wait_durable`](Self::wait_durable) would return at once.
    pub fn is_durable(&self, lsn: u64) -> bool {
        self.txns.wal().is_durable(lsn)
    }

    /// How long a transaction waits for a row lock (`innodb_lock_wait_timeout`).
    pub fn lock_wait_timeout(&self) -> std::time::Duration {
        self.txns.lock_wait_timeout()
    }

    pub fn set_lock_wait_timeout(&self, t: std::time::Duration) {
        self.txns.set_lock_wait_timeout(t)
    }

    /// Injects the faults of `plan` into the data file's later writes,
    /// syncs and space reservations (fault-injection tests; the log's file
    /// fails through [`open_with_log`](Self::open_with_log)).
    pub fn inject_data_file_faults(&self, plan: Arc<lineardb_buffer::FaultPlan>) {
        self.store.pool().inject_faults(plan);
    }

    /// Takes a checkpoint now (the log is cut to what recovery needs).
    pub fn checkpoint(&self) -> Result<()> {
        Ok(self.txns.wal().checkpoint()?)
    }

    /// Purges now what no snapshot needs; the transactions purged.
    pub fn purge(&self) -> Result<usize> {
        Ok(self.txns.purge()?)
    }

    /// What recovery did when the engine was opened.
    pub fn recovery(&self) -> &RecoveryReport {
        &self.recovery
    }

    /// Starts a transaction.
    pub fn begin(&self) -> Txn {
        Txn::begin(&self.txns)
    }

    /// Starts a transaction run by `owner` (a session's id).
    pub fn begin_for(&self, owner: u64) -> Txn {
        Txn::begin_for(&self.txns, owner)
    }

    /// The transactions waiting for row locks now.
    pub fn lock_waits(&self) -> Vec<lineardb_txn::LockWait> {
        self.txns.lock_waits()
    }

    /// A handle that takes snapshots ([`Reader::view`]); one per session
    /// or reading thread, one view at a time.
    pub fn reader(&self) -> Result<Reader> {
        self.txns
            .reader()
            .ok_or_else(|| Error::Invalid("too many readers".into()))
    }

    /// A snapshot of what is committed now, on a reader of its own (for
    /// one-off reads; sessions keep a [`Reader`]).
    pub fn snapshot(&self) -> Result<ReadView> {
        Ok(self.reader()?.view(0))
    }

    /// Sets catalog entry `key` (or removes it) as one committed transaction.
    fn catalog_set(&self, key: &[u8], value: Option<&[u8]>) -> Result<()> {
        let mut txn = self.begin();
        match value {
            Some(v) => self.catalog.put(&mut txn, key, v)?,
            None => self.catalog.remove(&mut txn, key)?,
        }
        txn.commit()?;
        Ok(())
    }

    pub fn create_database(&self, name: &str, if_not_exists: bool) -> Result<()> {
        self.create_database_collated(name, if_not_exists, crate::Collation::default())
    }

    /// CREATE DATABASE with a default collation: what its tables take when
    /// they name none. The catalog entry holds the name, then a NUL and the
    /// collation's name when it is not the server's default.
    pub fn create_database_collated(
        &self,
        name: &str,
        if_not_exists: bool,
        collation: crate::Collation,
    ) -> Result<()> {
        let _ddl = self.ddl_lock();
        if !ident_ok(name) {
            return Err(Error::Invalid(format!("Incorrect database name '{name}'")));
        }
        if self.catalog.get(&db_key(name))?.is_some() {
            return if if_not_exists {
                Ok(())
            } else {
                Err(Error::DatabaseExists(name.into()))
            };
        }
        let mut entry = name.as_bytes().to_vec();
        if collation != crate::Collation::default() {
            entry.push(0);
            entry.extend_from_slice(collation.name().as_bytes());
        }
        self.catalog_set(&db_key(name), Some(&entry))?;
        Ok(())
    }

    /// The default collation of database `name` (the server's default for
    /// a database that names none, or does not exist).
    pub fn database_collation(&self, name: &str) -> Result<crate::Collation> {
        Ok(self
            .catalog
            .get(&db_key(name))?
            .and_then(|entry| {
                let at = entry.iter().position(|&b| b == 0)?;
                crate::Collation::named(std::str::from_utf8(&entry[at + 1..]).ok()?)
            })
            .unwrap_or_default())
    }

    pub fn database_exists(&self, name: &str) -> Result<bool> {
        Ok(self.catalog.get(&db_key(name))?.is_some())
    }

    /// Database names, sorted.
    pub fn databases(&self) -> Result<Vec<String>> {
        let mut out = Vec::new();
        self.catalog.scan(b"D", |k, v| {
            if k.first() != Some(&b'D') {
                return false;
            }
            let name = v.split(|&b| b == 0).next().unwrap_or(v);
            out.push(String::from_utf8_lossy(name).into_owned());
            true
        })?;
        Ok(out)
    }

    /// Drops a database and its tables.
    pub fn drop_database(&self, name: &str, if_exists: bool) -> Result<()> {
        if !self.database_exists(name)? {
            return if if_exists {
                Ok(())
            } else {
                Err(Error::NoSuchDatabase(name.into()))
            };
        }
        for t in self.tables(name)? {
            self.drop_table(name, &t, true)?;
        }
        let _ddl = self.ddl_lock();
        self.drop_views_of(name)?;
        self.catalog_set(&db_key(name), None)?;
        Ok(())
    }

    /// Table names of a database, sorted.
    pub fn tables(&self, db: &str) -> Result<Vec<String>> {
        if !self.database_exists(db)? {
            return Err(Error::NoSuchDatabase(db.into()));
        }
        Ok(self
            .table_defs(&table_key(db, ""))?
            .into_iter()
            .map(|d| d.name)
            .collect())
    }

    /// The stored definitions of every table of every database (read from
    /// the catalog; nothing is opened).
    pub fn all_table_defs(&self) -> Result<Vec<TableDef>> {
        self.table_defs(b"T")
    }

    /// The stored definitions of the tables whose catalog key starts with
    /// `prefix`, in key order (read from the catalog; nothing is opened).
    fn table_defs(&self, prefix: &[u8]) -> Result<Vec<TableDef>> {
        let mut out = Vec::new();
        self.catalog.scan(prefix, |k, v| {
            if !k.starts_with(prefix) {
                return false;
            }
            if let Ok(def) = serde_json::from_slice::<TableDef>(v) {
                out.push(def);
            }
            true
        })?;
        Ok(out)
    }

    /// Creates a table (and the trees of its indexes).
    pub fn create_table(&self, spec: TableSpec) -> Result<Arc<Table>> {
        let _ddl = self.ddl_lock();
        // A temporary table may name a database that does not exist (as
        // in MariaDB): nothing else can reach it.
        if spec.temporary_for.is_none() && !self.database_exists(&spec.database)? {
            return Err(Error::NoSuchDatabase(spec.database));
        }
        if let Some(owner) = spec.temporary_for {
            if self
                .temporary_table(owner, &spec.database, &spec.name)
                .is_some()
            {
                return Err(Error::TableExists(spec.name));
            }
        }
        if !ident_ok(&spec.name) {
            return Err(Error::Invalid(format!(
                "Incorrect table name '{}'",
                spec.name
            )));
        }
        let mut def = TableDef {
            database: spec.database.clone(),
            name: spec.name.clone(),
            columns: spec.columns,
            primary_key: Vec::new(),
            primary_root: 0,
            blob_root: 0,
            indexes: Vec::new(),
            temporary: spec.temporary_for.map(|owner| Temporary {
                owner,
                id: self.temporary_ids.fetch_add(1) + 1,
            }),
            auto_increment_start: spec.auto_increment_start,
            comment: spec.comment,
            storage_options: spec.storage_options,
            collation: spec.collation,
            foreign_keys: spec.foreign_keys,
            checks: spec.checks,
        };
        if self.catalog.get(&catalog_key(&def))?.is_some()
            || (def.temporary.is_none() && self.view(&def.database, &def.name)?.is_some())
        {
            return Err(Error::TableExists(spec.name));
        }
        def.primary_key = spec
            .primary_key
            .iter()
            .map(|c| def.column_index(c))
            .collect::<Result<_>>()?;
        for &c in &def.primary_key {
            def.columns[c].nullable = false;
        }
        for IndexSpec {
            name,
            columns: cols,
            unique,
            descending,
        } in &spec.indexes
        {
            if def
                .indexes
                .iter()
                .any(|i| i.name.eq_ignore_ascii_case(name))
                || name.eq_ignore_ascii_case("PRIMARY")
            {
                return Err(Error::DuplicateIndex(name.clone()));
            }
            let columns = cols
                .iter()
                .map(|c| def.column_index(c))
                .collect::<Result<_>>()?;
            def.indexes.push(IndexDef {
                name: name.clone(),
                columns,
                unique: *unique,
                root: 0,
                descending: descending.clone(),
            });
        }
        def.validate()?;
        let pool = self.store.pool();
        let primary = BTree::create(pool.clone())?;
        def.primary_root = primary.root();
        if def.may_outline(primary.max_entry_len() - Stamp::MAX_LEN) {
            def.blob_root = BTree::create(pool.clone())?.root();
        }
        for i in def.indexes.iter_mut() {
            i.root = BTree::create(pool.clone())?.root();
        }
        self.store_def(def, |def| Table::open(def, pool))
    }

    /// How many temporary tables exist now, of every owner.
    pub fn temporary_tables(&self) -> usize {
        self.temporary.lock().len()
    }

    /// How many tables are open (have been used since start).
    pub fn open_tables(&self) -> usize {
        self.tables.lock().len()
    }

    /// The database and name of each open table, sorted.
    pub fn open_table_names(&self) -> Vec<(String, String)> {
        let mut names: Vec<(String, String)> = self
            .tables
            .lock()
            .values()
            .map(|t| (t.def.database.clone(), t.def.name.clone()))
            .collect();
        names.sort();
        names
    }

    /// The open table `db.name`.
    pub fn table(&self, db: &str, name: &str) -> Result<Arc<Table>> {
        let k = (db.to_ascii_lowercase(), name.to_ascii_lowercase());
        if let Some(t) = self.tables.lock().get(&k) {
            return Ok(t.clone());
        }
        let Some(v) = self.catalog.get(&table_key(db, name))? else {
            if !self.database_exists(db)? {
                return Err(Error::NoSuchDatabase(db.into()));
            }
            return Err(Error::NoSuchTable(format!("{db}.{name}")));
        };
        let def: TableDef = serde_json::from_slice(&v)
            .map_err(|e| Error::Invalid(format!("catalog entry for {db}.{name}: {e}")))?;
        let table = Arc::new(Table::open(def, self.store.pool())?);
        Ok(self.tables.lock().entry(k).or_insert(table).clone())
    }

    /// A new owner for temporary tables (one per session that makes
    /// them): unique while the engine is open.
    pub fn temporary_owner(&self) -> u64 {
        self.temporary_ids.fetch_add(1) + 1
    }

    /// The temporary table `db.name` of `owner`, if it has one.
    pub fn temporary_table(&self, owner: u64, db: &str, name: &str) -> Option<Arc<Table>> {
        let (db, name) = lowercase(db, name);
        self.temporary.lock().get(&(owner, db, name)).cloned()
    }

    /// Drops every temporary table of `owner` (when it ends).
    pub fn drop_temporary_tables(&self, owner: u64) -> Result<()> {
        let mine: Vec<Arc<Table>> = self
            .temporary
            .lock()
            .iter()
            .filter(|((o, _, _), _)| *o == owner)
            .map(|(_, t)| t.clone())
            .collect();
        for t in mine {
            self.remove_table(&t)?;
        }
        Ok(())
    }

    pub fn drop_table(&self, db: &str, name: &str, if_exists: bool) -> Result<()> {
        match self.table(db, name) {
            Ok(t) => self.remove_table(&t),
            Err(Error::NoSuchTable(_)) if if_exists => Ok(()),
            Err(e) => Err(e),
        }
    }

    /// Takes a temporary table's name away (its owner can no longer find
    /// it, and may give the name to another table) but keeps its trees
    /// until [`remove_table`](Self::remove_table): a transaction that
    /// changed it may still roll back, and its undo must find them. A
    /// crash meanwhile leaves the entry for the next start to discard.
    pub fn detach_temporary(&self, table: &Table) {
        debug_assert!(table.def.temporary.is_some());
        self.uninstall(&table.def);
    }

    /// Drops `table` (permanent or temporary, detached or not) and frees
    /// its trees.
    pub fn remove_table(&self, table: &Table) -> Result<()> {
        let _ddl = self.ddl_lock();
        self.catalog_set(&catalog_key(&table.def), None)?;
        self.uninstall(&table.def);
        self.destroy_trees(&table.def)
    }

    /// Empties a table (new empty trees; the old ones are freed).
    pub fn truncate_table(&self, db: &str, name: &str) -> Result<Arc<Table>> {
        self.truncate(&*self.table(db, name)?)
    }

    /// [`truncate_table`](Self::truncate_table) by handle (permanent or
    /// temporary).
    pub fn truncate(&self, old: &Table) -> Result<Arc<Table>> {
        let _ddl = self.ddl_lock();
        self.replacing(old, || self.truncate_held_off(old))
    }

    fn truncate_held_off(&self, old: &Table) -> Result<Arc<Table>> {
        let pool = self.store.pool();
        let mut def = old.def.clone();
        def.primary_root = BTree::create(pool.clone())?.root();
        if def.blob_root != 0 {
            def.blob_root = BTree::create(pool.clone())?.root();
        }
        for i in def.indexes.iter_mut() {
            i.root = BTree::create(pool.clone())?.root();
        }
        let table = self.store_def(def, |def| Table::open(def, pool))?;
        self.destroy_trees(&old.def)?;
        Ok(table)
    }

    /// Adds secondary indexes (name, columns, unique), built in one parallel
    /// pass with `threads` workers. No writes to the table may run meanwhile.
    /// On failure (a duplicate in a unique index) nothing changes.
    pub fn create_indexes(
        &self,
        db: &str,
        name: &str,
        specs: &[(String, Vec<String>, bool)],
        threads: usize,
        progress: &(dyn Fn(u64) + Sync),
    ) -> Result<(Arc<Table>, BuildStats)> {
        self.add_indexes(&*self.table(db, name)?, specs, threads, progress)
    }

    /// [`create_indexes`](Self::create_indexes) by handle (permanent or
    /// temporary).
    pub fn add_indexes(
        &self,
        old: &Table,
        specs: &[impl Clone + Into<IndexSpec>],
        threads: usize,
        progress: &(dyn Fn(u64) + Sync),
    ) -> Result<(Arc<Table>, BuildStats)> {
        let specs: Vec<IndexSpec> = specs.iter().cloned().map(Into::into).collect();
        let specs = specs.as_slice();
        let _ddl = self.ddl_lock();
        self.replacing(old, || {
            self.add_indexes_held_off(old, specs, threads, progress)
        })
    }

    fn add_indexes_held_off(
        &self,
        old: &Table,
        specs: &[IndexSpec],
        threads: usize,
        progress: &(dyn Fn(u64) + Sync),
    ) -> Result<(Arc<Table>, BuildStats)> {
        let pool = self.store.pool();
        let mut new_defs = Vec::new();
        for IndexSpec {
            name: iname,
            columns: cols,
            unique,
            descending,
        } in specs
        {
            let taken = old.def.index_position(iname).is_some()
                || new_defs
                    .iter()
                    .any(|d: &IndexDef| d.name.eq_ignore_ascii_case(iname))
                || iname.eq_ignore_ascii_case("PRIMARY");
            if taken {
                return Err(Error::DuplicateIndex(iname.clone()));
            }
            let columns = cols
                .iter()
                .map(|c| old.def.column_index(c))
                .collect::<Result<Vec<_>>>()?;
            if let Some(&c) = columns.iter().find(|&&c| {
                matches!(
                    old.def.columns[c].data_type,
                    crate::types::DataType::Text(_) | crate::types::DataType::Blob(_)
                )
            }) {
                return Err(crate::schema::blob_key(&old.def.columns[c].name));
            }
            new_defs.push(IndexDef {
                name: iname.clone(),
                columns,
                unique: *unique,
                root: 0,
                descending: descending.clone(),
            });
        }
        for d in new_defs.iter_mut() {
            d.root = BTree::create(pool.clone())?.root();
        }
        let destroy = |defs: &[IndexDef]| -> Result<()> {
            for d in defs {
                self.txns.destroy_tree(d.root)?;
            }
            Ok(())
        };
        let stats = match build_indexes(old, &new_defs, threads, progress) {
            Ok(s) => s,
            Err(e) => {
                destroy(&new_defs)?;
                return Err(e);
            }
        };
        let mut def = old.def.clone();
        def.indexes.extend(new_defs.iter().cloned());
        let table = old.with_def(def.clone())?;
        for (n, d) in new_defs.iter().enumerate() {
            if d.unique {
                if let Some(e) = table.first_unique_violation(old.def.indexes.len() + n)? {
                    destroy(&new_defs)?;
                    return Err(e);
                }
            }
        }
        let table = self.store_def(def, |_| Ok(table))?;
        Ok((table, stats))
    }

    /// Drops a secondary index.
    pub fn drop_index(&self, db: &str, name: &str, index: &str) -> Result<Arc<Table>> {
        self.remove_index(&*self.table(db, name)?, index)
    }

    /// [`drop_index`](Self::drop_index) by handle (permanent or temporary).
    pub fn remove_index(&self, old: &Table, index: &str) -> Result<Arc<Table>> {
        let _ddl = self.ddl_lock();
        self.replacing(old, || self.remove_index_held_off(old, index))
    }

    fn remove_index_held_off(&self, old: &Table, index: &str) -> Result<Arc<Table>> {
        let pos = old
            .def
            .index_position(index)
            .ok_or_else(|| Error::NoSuchIndex(index.into()))?;
        let mut def = old.def.clone();
        let removed = def.indexes.remove(pos);
        let table = self.store_def(def, |def| old.with_def(def))?;
        self.txns.destroy_tree(removed.root)?;
        Ok(table)
    }

    /// Checkpoints, flushes everything and syncs the file.
    pub fn close(&self) -> Result<()> {
        self.txns.shutdown()?;
        Ok(self.store.close()?)
    }
}

impl Table {
    /// A duplicate in unique index `index`, if any (adjacent entries whose
    /// NULL-free index columns are equal).
    pub(crate) fn first_unique_violation(&self, index: usize) -> Result<Option<Error>> {
        let types = self.index_types(index).to_vec();
        let mut prev: Option<Vec<u8>> = None;
        let mut found: Option<Error> = None;
        self.scan_index(&ReadView::latest(), index, &KeyRange::all(), |e| {
            let mut pos = 0;
            let mut has_null = false;
            for t in &types {
                has_null |= t.nullable && e.key.get(pos) == Some(&0);
                crate::key::skip_value(t, e.key, &mut pos);
            }
            let cols = &e.key[..pos];
            if !has_null && prev.as_deref() == Some(cols) {
                let entry = self.indexes[index]
                    .def
                    .columns
                    .iter()
                    .map(|&c| {
                        e.column(c)
                            .and_then(|v| v.to_text())
                            .unwrap_or_else(|| "NULL".into())
                    })
                    .collect::<Vec<_>>()
                    .join("-");
                found = Some(Error::DuplicateKey {
                    entry,
                    // MariaDB names the index alone.
                    key: self.indexes[index].def.name.clone(),
                });
                return false;
            }
            prev = Some(cols.to_vec());
            true
        })?;
        Ok(found)
    }
}
