//! Interrupts of latched walks, which must not restart.
use lineardb_buffer::{Error, Interrupt};

/// The error of an interrupted latched walk: it holds the latches of what it
/// reads, so a restart means a page changed under it.
pub(crate) fn interrupt_to_error(i: Interrupt) -> Error {
    match i {
        Interrupt::Error(e) => e,
        Interrupt::Restart => Error::Invalid("page changed during a latched walk".into()),
    }
}
