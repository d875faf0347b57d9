//! The SQL layer's wait classes (registered with the session registry:
//! [`CLASSES`] through `lineardb_sync::wait::register`).
use lineardb_sync::{wait_class, WaitClass};

/// The session registry (connect, disconnect, reading its tables).
pub const SESSIONS: WaitClass = wait_class!("wait/synch/mutex/sessions");

/// Every class above, in the order summaries list them.
pub const CLASSES: &[WaitClass] = &[SESSIONS];
