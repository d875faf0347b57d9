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

/// Marks a code as raised at a Note's level where the same code is a
/// Warning elsewhere (1292 for a number followed by spaces only).
pub(crate) const NOTE_LEVEL: u16 = 0x8000;

/// Code of "Truncated incorrect … value": text read as a number or date
/// that is not wholly one.
pub(crate) const TRUNCATED: u16 = 1292;

/// Whether a condition of this code is a Note (SHOW WARNINGS' level;
/// `sql_notes = 0` drops them).
pub(crate) fn is_note(code: u16) -> bool {
    code & NOTE_LEVEL != 0 || matches!(code, 1050 | 1051 | 4092 | 1007 | 1008 | 1973 | 1974 | 1449)
}

/// The code a condition shows (without its level mark).
pub(crate) fn shown_code(code: u16) -> u16 {
    code & !NOTE_LEVEL
}

/// Warning 1292 for `text` read as a number (`word`: DOUBLE, DECIMAL,
/// INTEGER) that is not wholly one; a Note when only spaces follow the
/// number. The text is shown as MariaDB shows it: whole up to 128 bytes,
/// else its first 125 and "...".
pub(crate) fn truncated_number(word: &str, text: &[u8], only_spaces: bool) {
    if pending() >= KEPT {
        return;
    }
    let shown = if text.len() <= 128 {
        String::from_utf8_lossy(text).into_owned()
    } else {
        let mut end = 125;
        while end > 0 && (text[end] & 0xC0) == 0x80 {
            end -= 1;
        }
        format!("{}...", String::from_utf8_lossy(&text[..end]))
    };
    let code = if only_spaces {
        TRUNCATED | NOTE_LEVEL
    } else {
        TRUNCATED
    };
    raise(
        code,
        &format!("Truncated incorrect {word} value: '{shown}'"),
    );
}

/// Warning 1292 for `text` that is no date where one is wanted.
pub(crate) fn incorrect_datetime(text: &str) {
    raise(TRUNCATED, &format!("Incorrect datetime value: '{text}'"));
}

/// The first truncation warning (not a note) among those pending: what
/// fails a statement that writes in strict mode.
pub(crate) fn pending_truncation() -> Option<Warning> {
    PENDING.with(|p| {
        p.borrow()
            .iter()
            .find(|w| w.0 == TRUNCATED && w.1.starts_with("Truncated incorrect"))
            .cloned()
    })
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
