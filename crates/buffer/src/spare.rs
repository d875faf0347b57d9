//! The pages kept for rollbacks on a full disk. A page for new work is
//! handed out only while [`SPARE_PAGES`] more have disk space reserved
//! after it; undoing work already begun (a rollback, which may split a
//! node to put a longer value back) may use those too. So a full disk
//! stops new work with an error, never a rollback half way.
use std::cell::Cell;

/// Pages reserved past the last page handed out for new work.
pub(crate) const SPARE_PAGES: u64 = 64;

thread_local! {
    static USING_SPARE: Cell<bool> = const { Cell::new(false) };
}

/// Runs `f` (a rollback) with the spare pages available to its allocations.
pub fn with_spare_pages<R>(f: impl FnOnce() -> R) -> R {
    let was = USING_SPARE.with(|u| u.replace(true));
    let r = f();
    USING_SPARE.with(|u| u.set(was));
    r
}

pub(crate) fn using_spare_pages() -> bool {
    USING_SPARE.with(|u| u.get())
}
