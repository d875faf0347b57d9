//! The `btree` layer: B+trees of variable-length byte keys and values in the
//! pages of a [`lineardb_buffer::BufferPool`].
//!
//! Keys are memcomparable byte strings (compared with `memcmp`); values are
//! up to about a quarter page. Reads are optimistic and write nothing shared.
mod bulk;
mod cursor;
mod interrupt;
mod node;
pub mod redo;
mod store;
mod tree;
pub mod waits;

pub use bulk::BULK_FILL;
pub use cursor::{Batch, Cursor};
pub use lineardb_buffer::{Error, PoolConfig, Result};
pub use store::Store;
pub use tree::BTree;
