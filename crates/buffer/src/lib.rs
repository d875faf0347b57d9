//! The `buffer` layer: one data file of fixed-size pages, a page table
//! indexed by page id (no hash lookup), a pool of frames that may be much
//! smaller than the file, clock eviction, and synchronous I/O done by the
//! thread that needs the page.
//!
//! Readers use [`OptimisticGuard`]s: they load the page's latch word, read the
//! frame through [`lineardb_sync::RacySlice`], and validate; they write
//! nothing shared (a mark bit is cleared only when set).
mod arena;
mod error;
mod fault;
mod file;
mod guard;
mod log;
mod page_entry;
mod pool;
mod spare;
pub mod waits;

pub use error::{Error, Interrupt, Result};
pub use fault::FaultPlan;
pub use file::{PAGE_HEADER_SIZE, PAGE_LSN_OFFSET};
pub use guard::{ExclusiveGuard, OptimisticGuard};
pub use log::{Lsn, PageLog};
pub use pool::{BufferPool, PoolConfig, PoolStats};
pub use spare::with_spare_pages;

/// Identifies a page: its index in the data file.
pub type PageId = u64;

/// Page 0 holds the file header.
pub const HEADER_PAGE: PageId = 0;
