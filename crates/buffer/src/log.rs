//! The buffer pool's view of the redo log (implemented by the `wal` layer,
//! which sits above: the pool only calls it through this trait).
//!
//! Invariant (write-ahead logging): a page is written to the data file only
//! after the log is durable up to the page's LSN, the LSN of the last
//! record that changed it (bytes 8..16 of every page).
use crate::Result;

pub type Lsn = u64;

pub trait PageLog: Send + Sync {
    /// Appends a redo record (the `btree` layer's encoding of page
    /// changes); returns its LSN, which the changed pages then carry.
    /// `oldest_delta` is the oldest LSN of a page the record changes by a
    /// delta rather than an image: if it is below the image horizon (read
    /// under the same lock that orders appends, so a checkpoint starting
    /// meanwhile is seen) nothing is appended and `None` returned; the
    /// caller logs those pages whole instead.
    fn append_redo(&self, payload: &[u8], oldest_delta: Lsn) -> Result<Option<Lsn>>;

    /// Returns once the log is written and synced up to `lsn`.
    fn flush_to(&self, lsn: Lsn) -> Result<()>;

    /// Pages whose LSN is below this horizon (the start of the last
    /// checkpoint) are logged whole on their next change, so that recovery
    /// never depends on a page that a crash may have torn mid-write. (A
    /// hint for building records; `append_redo` enforces it.)
    fn image_horizon(&self) -> Lsn;
}
