//! The `table` layer: catalog, types, memcomparable keys, rows, clustered
//! and secondary indexes, access paths (PK, covering, batched non-covering),
//! parallel scan and count, parallel index build, and loaders.
//!
//! ```no_run
//! use lineardb_table::{ColumnDef, DataType, Engine, TableSpec, Value};
//! let engine = Engine::open("data.ldb".as_ref(), Default::default())?;
//! engine.create_database("shop", true)?;
//! let t = engine.create_table(TableSpec::new("shop", "items")
//!     .column(ColumnDef::new("id", DataType::Int { unsigned: false }).auto_increment())
//!     .column(ColumnDef::new("name", DataType::VarChar(40)).not_null())
//!     .primary_key(&["id"]))?;
//! let mut txn = engine.begin();
//! t.insert(&mut txn, vec![None, Some(Value::str("apple"))])?;
//! txn.commit()?;
//! # Ok::<(), lineardb_table::Error>(())
//! ```
mod auto_increment;
mod blob;
mod calendar;
mod catalog;
pub mod collation;
pub mod decimal;
mod error;
pub mod float_text;
mod index_build;
pub mod key;
mod key_range;
mod members;
pub mod parallel;
mod row;
mod schema;
mod stats;
mod table;
pub mod temporal_text;
mod timestamp_range;
mod tree_scan;
pub mod types;
pub mod waits;
mod write_gate;

pub use auto_increment::AutoIncrementIds;
pub use catalog::{
    ConvertRow, Engine, EngineConfig, IndexSpec, LogStats, PoolStats, RebuildProgress,
    RebuildStats, RebuildStep, TableSpec, ViewDef,
};
pub use collation::Collation;
pub use error::{Error, Result};
pub use index_build::{build_indexes, BuildStats};
pub use key::KeyColumn;
pub use key_range::KeyRange;
pub use members::Members;
pub use row::{RowLayout, RowRef};
pub use schema::{
    CheckDef, ColumnDef, ColumnDefault, ForeignKeyDef, IndexDef, ReferentialAction, TableDef,
    Temporary,
};
pub use table::{IndexEntry, Table};
pub use tree_scan::{LOOKUP_BATCH, SWEEP_BATCH};
pub use types::{DataType, Dec, Value};
