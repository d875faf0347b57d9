//! One entry of the page table: the page's latch and its frame word.
//!
//! The frame word holds the frame index + 1 (0: no frame) and the dirty
//! and freed bits; it changes only under the page's exclusive latch. A
//! reader finds a resident page with two loads from the entry's line.
use lineardb_sync::{HybridLatch, SharedWord};

pub(crate) const FRAME_INDEX: u64 = 0xffff_ffff;
pub(crate) const FRAME_DIRTY: u64 = 1 << 62;
pub(crate) const FRAME_FREED: u64 = 1 << 61;

#[repr(C)]
pub(crate) struct PageEntry {
    pub(crate) latch: HybridLatch,
    pub(crate) frame: SharedWord,
}

impl PageEntry {
    /// Marks the page changed (its holder has it exclusively); a store only
    /// if the bit is not set yet.
    pub(crate) fn mark_dirty(&self) {
        let w = self.frame.load();
        if w & FRAME_DIRTY == 0 {
            self.frame.store(w | FRAME_DIRTY);
        }
    }
}
