use crate::PageId;

#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error("I/O error: {0}")]
    Io(#[from] std::io::Error),
    #[error("page {page} is corrupt: {reason}")]
    Corrupt { page: PageId, reason: String },
    #[error("not a lineardb data file: {0}")]
    BadFile(String),
    #[error("buffer pool exhausted: every frame is latched")]
    PoolExhausted,
    #[error("data file full: {0} pages")]
    FileFull(u64),
    #[error("Row size too large: {size} bytes, at most {max}")]
    TooLarge { size: usize, max: usize },
    #[error("{0}")]
    Invalid(String),
    #[error("{0} is in use by another process")]
    InUse(String),
    #[error("redo log: {0}")]
    Log(String),
    /// The disk is full (ENOSPC) under the redo log or the data file.
    #[error("disk full: {0}")]
    DiskFull(String),
}

pub type Result<T, E = Error> = std::result::Result<T, E>;

/// Why an optimistic operation stopped: it must restart, or it failed.
#[derive(Debug)]
pub enum Interrupt {
    Restart,
    Error(Error),
}

impl From<Error> for Interrupt {
    fn from(e: Error) -> Self {
        Interrupt::Error(e)
    }
}
