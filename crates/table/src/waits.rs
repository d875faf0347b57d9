//! The table layer's wait classes, and the registration of every class of
//! the engine (the layers below and this one), done when it opens.
use lineardb_sync::{wait, wait_class, WaitClass};

/// The table catalog (opening, creating, dropping tables).
pub const CATALOG: WaitClass = wait_class!("wait/synch/mutex/catalog");

/// Every class above, in the order summaries list them.
pub const CLASSES: &[WaitClass] = &[CATALOG];

/// The engine's classes, layer by layer, in the order summaries list them.
pub const ENGINE_CLASSES: &[&[WaitClass]] = &[
    lineardb_btree::waits::CLASSES,
    lineardb_buffer::waits::CLASSES,
    lineardb_wal::waits::CLASSES,
    CLASSES,
    lineardb_txn::waits::CLASSES,
    &[wait::OTHER_MUTEX],
];

/// Registers [`ENGINE_CLASSES`] (once per process is enough; again is harmless).
pub fn register_engine_classes() {
    for classes in ENGINE_CLASSES {
        wait::register(classes);
    }
}
