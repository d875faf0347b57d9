//! Warnings raised while expressions evaluate (a division by zero, a date
//! past year 9999): kept on the evaluating thread until the statement
//! reports them, in the order raised. A statement that writes in strict
//! mode makes a division by zero its error instead.
use std::cell::{Cell, RefCell};

/// A warning's code and message.
pub(crate) type Warning = (u16, String);

/// As many as MariaDB keeps by default (`max_error_count`).
const KEPT: usize = 64;

/// Code of the division-by-zero warning, an error where a value is written.
pub(crate) const DIVISION_BY_ZERO: u16 = 1365;

thread_local! {
    static PENDING: RefCell<Vec<Warning>> = const { RefCell::new(Vec::new()) };
    /// Whether a division by zero fails the running statement (one that
    /// writes, in strict mode with ERROR_FOR_DIVISION_BY_ZERO).
    static DIVISION_FAILS: Cell<bool> = const { Cell::new(false) };
}

/// While alive, a division by zero on this thread is an error or not, as
/// set; then as before.
pub(crate) struct DivisionByZeroFails {
    before: bool,
}

/// A division by zero fails (`fails`) or gives NULL with a warning until
/// the guard drops.
pub(crate) fn division_by_zero_fails(fails: bool) -> DivisionByZeroFails {
    DivisionByZeroFails {
        before: DIVISION_FAILS.with(|f| f.replace(fails)),
    }
}

impl Drop for DivisionByZeroFails {
    fn drop(&mut self) {
        DIVISION_FAILS.with(|f| f.set(self.before));
    }
}

/// A worker thread of a statement takes its division-by-zero rule (the
/// thread ends with the statement's work).
pub(crate) fn adopt_division_fails(fails: bool) {
    DIVISION_FAILS.with(|f| f.set(fails));
}

/// Adds warnings a worker thread raised, after those pending.
pub(crate) fn extend(raised: Vec<Warning>) {
    PENDING.with(|p| {
        let mut p = p.borrow_mut();
        let room = KEPT.saturating_sub(p.len());
        p.extend(raised.into_iter().take(room));
    });
}

/// Whether a division by zero fails now.
pub(crate) fn division_fails() -> bool {
    DIVISION_FAILS.with(Cell::get)
}

/// Records a warning of the expression being evaluated.
pub(crate) fn raise(code: u16, message: &str) {
    PENDING.with(|p| {
        let mut p = p.borrow_mut();
        if p.len() < KEPT {
            p.push((code, message.to_string()));
        }
    });
}

/// The warnings raised on this thread since the last call.
pub(crate) fn take() -> Vec<Warning> {
    PENDING.with(|p| std::mem::take(&mut *p.borrow_mut()))
}

/// How many warnings are pending.
pub(crate) fn pending() -> usize {
    PENDING.with(|p| p.borrow().len())
}

/// How many pending warnings have a code other than `code`.
pub(crate) fn pending_except(code: u16) -> usize {
    PENDING.with(|p| p.borrow().iter().filter(|w| w.0 != code).count())
}

/// Puts back warnings taken earlier, ahead of those raised since.
pub(crate) fn put_back(mut earlier: Vec<Warning>) {
    PENDING.with(|p| {
        let mut p = p.borrow_mut();
        earlier.append(&mut p);
        earlier.truncate(KEPT);
        *p = earlier;
    });
}

/// Runs `f` (a re-evaluation) dropping the warnings it raises.
pub(crate) fn unraised<T>(f: impl FnOnce() -> T) -> T {
    let before = take();
    let r = f();
    PENDING.with(|p| *p.borrow_mut() = before);
    r
}

/// Whether a condition of this code is a Note (SHOW WARNINGS' level;
/// `sql_notes = 0` drops them).
pub(crate) fn is_note(code: u16) -> bool {
    matches!(code, 1050 | 1051 | 4092 | 1007 | 1008 | 1973 | 1974 | 1449)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kept_in_order_re_evaluations_dropped() {
        take();
        raise(1, "a");
        unraised(|| raise(3, "c"));
        raise(2, "b");
        let earlier = take();
        raise(5, "e");
        put_back(earlier);
        assert_eq!(pending_except(1), 2);
        let codes: Vec<u16> = take().into_iter().map(|(c, _)| c).collect();
        assert_eq!(codes, [1, 2, 5]);
        for _ in 0..100 {
            raise(4, "d");
        }
        assert_eq!(pending(), KEPT);
        assert_eq!(take().len(), KEPT);
        assert_eq!(pending(), 0);
        {
            let _fails = division_by_zero_fails(true);
            assert!(division_fails());
        }
        assert!(!division_fails());
    }
}
