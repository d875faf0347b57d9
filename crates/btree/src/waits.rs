//! The B-tree's wait classes (registered by whoever opens the engine:
//! [`CLASSES`] through `lineardb_sync::wait::register`).
use lineardb_sync::{wait_class, WaitClass};

/// Latch of a B-tree inner page.
pub const INNER_PAGE: WaitClass = wait_class!("wait/synch/latch/btree/inner_page");
/// Latch of a B-tree leaf page.
pub const LEAF_PAGE: WaitClass = wait_class!("wait/synch/latch/btree/leaf_page");

/// Every class above, in the order summaries list them.
pub const CLASSES: &[WaitClass] = &[INNER_PAGE, LEAF_PAGE];
