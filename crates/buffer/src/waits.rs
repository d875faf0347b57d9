//! The buffer layer's wait classes (registered by whoever opens the engine:
//! [`CLASSES`] through `lineardb_sync::wait::register`).
use lineardb_sync::{wait_class, WaitClass};

/// Latch of a page whose role the caller does not know.
pub const PAGE: WaitClass = wait_class!("wait/synch/latch/buffer/page");
/// Reading a page from the data file.
pub const IO_READ: WaitClass = wait_class!("wait/io/file/data/read");
/// Writing a page to the data file.
pub const IO_WRITE: WaitClass = wait_class!("wait/io/file/data/write");
/// fsync of the data file.
pub const IO_SYNC: WaitClass = wait_class!("wait/io/file/data/sync");
/// Finding a free frame (eviction).
pub const EVICTION: WaitClass = wait_class!("wait/synch/buffer/eviction");
/// Page allocation and the free-page list.
pub const PAGE_ALLOC: WaitClass = wait_class!("wait/synch/buffer/page_alloc");

/// Every class above, in the order summaries list them.
pub const CLASSES: &[WaitClass] = &[PAGE, IO_READ, IO_WRITE, IO_SYNC, EVICTION, PAGE_ALLOC];
