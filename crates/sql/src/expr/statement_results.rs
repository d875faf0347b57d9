//! What statements leave for later ones to read: the id LAST_INSERT_ID()
//! returns (LAST_INSERT_ID(expr) gives one that the rest of the statement,
//! the next statements and the statement's own OK packet see, as in
//! MariaDB) and the rows the previous statement changed (ROW_COUNT()).
//! Kept per thread while a statement runs, as its time is
//! ([`clock`](super::clock)), so that plans never hold them as constants;
//! a parallel worker adopts its statement's.
use std::cell::Cell;

/// A running statement's view of them.
#[derive(Clone, Copy, Default)]
pub(crate) struct StatementResults {
    row_count: i64,
    last_insert_id: u64,
    /// The id LAST_INSERT_ID(expr) gave, if it ran.
    given_id: Option<u64>,
}

thread_local! {
    static CURRENT: Cell<StatementResults> = const {
        Cell::new(StatementResults { row_count: 0, last_insert_id: 0, given_id: None })
    };
}

/// Starts a statement on this thread with its session's previous
/// statement's row count and the session's last insert id.
pub(crate) fn start(row_count: i64, last_insert_id: u64) {
    CURRENT.with(|c| {
        c.set(StatementResults {
            row_count,
            last_insert_id,
            given_id: None,
        })
    });
}

/// This thread's statement's, to hand to the threads that work for it.
pub(crate) fn current() -> StatementResults {
    CURRENT.with(Cell::get)
}

/// Makes `results` this thread's (a parallel worker takes its statement's).
pub(crate) fn adopt(results: StatementResults) {
    CURRENT.with(|c| c.set(results));
}

/// Records `id`, given by LAST_INSERT_ID(expr) in the running statement.
pub(crate) fn give_id(id: u64) {
    CURRENT.with(|c| {
        c.set(StatementResults {
            given_id: Some(id),
            ..c.get()
        })
    });
}

/// The id the statement gave, if any (taken: the next statement starts
/// with none).
pub(crate) fn take_given_id() -> Option<u64> {
    CURRENT.with(|c| {
        let r = c.get();
        c.set(StatementResults {
            given_id: None,
            ..r
        });
        r.given_id
    })
}

/// ROW_COUNT(): rows the previous statement changed (-1 after one that
/// returned rows or failed).
pub(crate) fn row_count() -> i64 {
    current().row_count
}

/// LAST_INSERT_ID(): the id given earlier in the statement, else the
/// session's.
pub(crate) fn last_insert_id() -> u64 {
    let r = current();
    r.given_id.unwrap_or(r.last_insert_id)
}
