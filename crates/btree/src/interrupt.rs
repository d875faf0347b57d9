//! A walk that holds latches cannot restart: an interruption there is an
//! error.
use lineardb_buffer::{Error, Interrupt};

pub(crate) fn interrupt_to_error(i: Interrupt) -> Error {
    match i {
        Interrupt::Error(e) => e,
        Interrupt::Restart => Error::Invalid("page changed during a latched walk".into()),
    }
}
