//! What statements leave for later ones to read: the id LAST_INSERT_ID(expr)
//! gives (the next LAST_INSERT_ID() and the statement's own OK packet
//! return it, as in MariaDB) and the rows the previous statement changed
//! (ROW_COUNT()). Kept per thread, as the statement's time is
//! ([`clock`](super::clock)), so that plans never hold them as constants.
use std::cell::Cell;

thread_local! {
    static GIVEN_ID: Cell<Option<u64>> = const { Cell::new(None) };
    static ROW_COUNT: Cell<i64> = const { Cell::new(0) };
}

/// Records `id`, given by LAST_INSERT_ID(expr) in the running statement.
pub(crate) fn give_id(id: u64) {
    GIVEN_ID.with(|g| g.set(Some(id)));
}

/// The id the statement gave, if any (taken: the next statement starts
/// with none).
pub(crate) fn take_given_id() -> Option<u64> {
    GIVEN_ID.with(Cell::take)
}

/// Starts a statement on this thread: ROW_COUNT() returns `row_count`
/// (its session's previous statement's), and no id is given yet.
pub(crate) fn start(row_count: i64) {
    ROW_COUNT.with(|r| r.set(row_count));
    GIVEN_ID.with(|g| g.set(None));
}

/// ROW_COUNT(): rows the previous statement changed (-1 after one that
/// returned rows or failed).
pub(crate) fn row_count() -> i64 {
    ROW_COUNT.with(Cell::get)
}
