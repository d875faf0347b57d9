//! What a transaction's operations can fail with.
use crate::locks::LockError;

#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The pages or the log failed.
    #[error(transparent)]
    Storage(#[from] lineardb_buffer::Error),
    /// A row lock could not be had (timeout or deadlock).
    #[error(transparent)]
    Lock(#[from] LockError),
}

pub type Result<T, E = Error> = std::result::Result<T, E>;
