//! Slotted B+tree node inside a page.
//!
//! ```text
//! 0..16   buffer page header: checksum; at 4 the owning tree's id; LSN at 8
//! 16      u8  1 = leaf, 0 = inner
//! 17      u8  level (0 = leaf)
//! 18      u16 count: number of slots
//! 20      u16 heap_top: lowest used heap byte; the heap grows down from the end
//! 22      u16 garbage: dead heap bytes (reclaimed by compaction)
//! 24      u16,u16 lower fence offset, length
//! 28      u16,u16 upper fence offset, length
//! 32      u8  fence flags: 1 = lower is -infinity, 2 = upper is +infinity
//! 34      u16 prefix: length of the fences' common prefix (0 if one is infinite)
//! 40      u64 upper child (inner nodes): the child for keys >= the last key
//! 48..    slots, 12 bytes each, sorted by key:
//!         u16 record offset, u16 key length, u16 value length,
//!         u16 head extension (head bytes 4..6), u32 head (bytes 0..4)
//! ```
//! A record is the value then the key, 8-byte aligned. In inner nodes the
//! value is the child's page id.
//!
//! Invariants:
//! - A node holds the keys of `[lower fence, upper fence)`; slot keys are
//!   strictly increasing.
//! - Inner slot `i` (key `s_i`, child `c_i`): `c_i` holds `[s_{i-1}, s_i)`;
//!   the upper child holds `[s_last, upper fence)`.
//! - Every key of the node starts with the fences' common prefix (a key
//!   `>= lower` and `< upper` cannot differ from both within it). `head` is
//!   the 6 bytes after that prefix, big-endian, zero-padded: comparing heads
//!   orders keys except when they tie. Skipping the prefix keeps heads
//!   telling keys apart where all keys start alike (8-byte integers, the
//!   first column of a composite key), so a search rarely touches the heap.
//! - Searches take keys inside `[lower, upper]`; for others the position
//!   returned is unspecified (but nothing panics).
//! - Readers decode possibly torn pages: every offset they use is clamped by
//!   `RacySlice`, and loops are bounded by `max_slots`.
use lineardb_buffer::PAGE_HEADER_SIZE;
use lineardb_sync::{RacySlice, RacySliceMut};
use std::cmp::Ordering;

/// The owning tree's id (its root page, as u32), in the buffer header's
/// owner bytes; set when the page is allocated for the tree.
pub(crate) const TREE_ID: usize = 4;
const IS_LEAF: usize = 16;
const LEVEL: usize = 17;
const COUNT: usize = 18;
const HEAP_TOP: usize = 20;
const GARBAGE: usize = 22;
const LOWER_OFF: usize = 24;
const LOWER_LEN: usize = 26;
const UPPER_OFF: usize = 28;
const UPPER_LEN: usize = 30;
const FENCE_FLAGS: usize = 32;
const PREFIX: usize = 34;
const UPPER_CHILD: usize = 40;
pub(crate) const SLOTS: usize = 48;
pub(crate) const SLOT_SIZE: usize = 12;
/// Key bytes (after the fences' common prefix) kept in each slot: six, so
/// that a composite key of an 8-byte and a 4-byte integer, whose prefix
/// usually covers the first 5–7 bytes, is told apart without reading the
/// record (a search that ties on heads reads the key from the heap: a
/// cache miss).
const HEAD_BYTES: usize = 6;
/// How far ahead (bytes) a scan prefetches.
const PREFETCH_BYTES: usize = 1024;

const LOWER_INF: u8 = 1;
const UPPER_INF: u8 = 2;

const _: () = assert!(IS_LEAF >= PAGE_HEADER_SIZE);

#[inline(always)]
pub(crate) fn head(key: &[u8], prefix: usize) -> u64 {
    let key = &key[prefix.min(key.len())..];
    let mut b = [0u8; 8];
    let n = key.len().min(HEAD_BYTES);
    b[2..2 + n].copy_from_slice(&key[..n]);
    u64::from_be_bytes(b)
}

#[inline(always)]
fn align8(n: usize) -> usize {
    (n + 7) & !7
}

/// Bytes a record with these lengths takes in the heap plus its slot.
pub(crate) fn entry_space(klen: usize, vlen: usize) -> usize {
    align8(klen + vlen) + SLOT_SIZE
}

/// A fence: a key, or infinity on its side.
pub(crate) type Fence = Option<Vec<u8>>;

/// Read access to a node (optimistic or latched).
#[derive(Clone, Copy)]
pub(crate) struct NodeRef<'a> {
    pub(crate) page: RacySlice<'a>,
}

impl<'a> NodeRef<'a> {
    pub(crate) fn new(page: RacySlice<'a>) -> Self {
        NodeRef { page }
    }
    #[inline(always)]
    pub(crate) fn is_leaf(&self) -> bool {
        self.page.u8_at(IS_LEAF) == 1
    }
    #[inline(always)]
    pub(crate) fn level(&self) -> u8 {
        self.page.u8_at(LEVEL)
    }
    /// Slot count, clamped to what fits in the page.
    #[inline(always)]
    pub(crate) fn count(&self) -> usize {
        (self.page.u16_at(COUNT) as usize).min(self.max_slots())
    }
    #[inline(always)]
    fn max_slots(&self) -> usize {
        (self.page.len() - SLOTS) / SLOT_SIZE
    }
    pub(crate) fn heap_top(&self) -> usize {
        self.page.u16_at(HEAP_TOP) as usize
    }
    pub(crate) fn garbage(&self) -> usize {
        self.page.u16_at(GARBAGE) as usize
    }
    pub(crate) fn free_space(&self) -> usize {
        self.heap_top()
            .saturating_sub(SLOTS + self.count() * SLOT_SIZE)
    }
    /// Bytes in use by slots, records and fences.
    pub(crate) fn used_space(&self) -> usize {
        self.page.len() - SLOTS - self.free_space() - self.garbage()
    }
    #[inline(always)]
    pub(crate) fn upper_child(&self) -> u64 {
        self.page.u64_at(UPPER_CHILD)
    }
    #[inline(always)]
    fn slot(&self, i: usize) -> usize {
        SLOTS + i * SLOT_SIZE
    }
    #[inline(always)]
    pub(crate) fn rec_off(&self, i: usize) -> usize {
        self.page.u16_at(self.slot(i)) as usize
    }
    #[inline(always)]
    pub(crate) fn key_len(&self, i: usize) -> usize {
        self.page.u16_at(self.slot(i) + 2) as usize
    }
    #[inline(always)]
    pub(crate) fn val_len(&self, i: usize) -> usize {
        self.page.u16_at(self.slot(i) + 4) as usize
    }
    /// Length of the prefix every key of this node shares.
    #[inline(always)]
    fn prefix(&self) -> usize {
        self.page.u16_at(PREFIX) as usize
    }
    #[inline(always)]
    fn head_at(&self, i: usize) -> u32 {
        self.page.u32_at(self.slot(i) + 8)
    }
    /// Head bytes 4..6, read only when the first four tie.
    #[inline(always)]
    fn head_ext_at(&self, i: usize) -> u16 {
        self.page.u16_at(self.slot(i) + 6)
    }
    /// The child page id of inner slot `i`.
    #[inline(always)]
    pub(crate) fn child(&self, i: usize) -> u64 {
        self.page.u64_at(self.rec_off(i))
    }
    /// The child at position `i` in `0..=count` (`count` is the upper child).
    #[inline(always)]
    pub(crate) fn child_at(&self, i: usize) -> u64 {
        if i >= self.count() {
            self.upper_child()
        } else {
            self.child(i)
        }
    }
    pub(crate) fn key(&self, i: usize) -> Vec<u8> {
        let mut k = Vec::new();
        self.append_key(i, &mut k);
        k
    }
    #[inline]
    pub(crate) fn append_key(&self, i: usize, out: &mut Vec<u8>) {
        let off = self.rec_off(i) + self.val_len(i);
        self.page.append_to(off, self.key_len(i), out);
    }
    /// Appends slot `i`'s record (value, then key) to `out` in one copy;
    /// returns (key length, value length).
    #[inline]
    pub(crate) fn append_record(&self, i: usize, out: &mut Vec<u8>) -> (usize, usize) {
        let (kl, vl) = (self.key_len(i), self.val_len(i));
        let off = self.rec_off(i);
        // Records of a scan are read in address order: ask for later lines
        // early (hardware prefetchers stop at 4 KiB boundaries). Small records
        // share lines, so only large ones pay for the hint.
        if kl + vl >= 64 {
            self.page.prefetch(off + PREFETCH_BYTES);
        }
        self.page.append_to(off, kl + vl, out);
        (kl, vl)
    }
    /// Prefetches every cache line of slot `i`'s value.
    #[inline]
    pub(crate) fn prefetch_value(&self, i: usize) {
        let off = self.rec_off(i);
        let end = off + self.val_len(i).max(1);
        let mut line = off & !63;
        while line < end {
            self.page.prefetch(line.max(off));
            line += 64;
        }
    }
    pub(crate) fn value(&self, i: usize) -> Vec<u8> {
        let mut v = Vec::new();
        self.append_value(i, &mut v);
        v
    }
    #[inline]
    pub(crate) fn append_value(&self, i: usize, out: &mut Vec<u8>) {
        self.page.append_to(self.rec_off(i), self.val_len(i), out);
    }
    pub(crate) fn lower_fence(&self) -> Fence {
        if self.page.u8_at(FENCE_FLAGS) & LOWER_INF != 0 {
            return None;
        }
        let mut k = Vec::new();
        self.page.append_to(
            self.page.u16_at(LOWER_OFF) as usize,
            self.page.u16_at(LOWER_LEN) as usize,
            &mut k,
        );
        Some(k)
    }
    pub(crate) fn upper_fence(&self) -> Fence {
        if self.page.u8_at(FENCE_FLAGS) & UPPER_INF != 0 {
            return None;
        }
        let mut k = Vec::new();
        self.append_upper_fence(&mut k);
        Some(k)
    }
    pub(crate) fn upper_is_infinite(&self) -> bool {
        self.page.u8_at(FENCE_FLAGS) & UPPER_INF != 0
    }
    pub(crate) fn append_upper_fence(&self, out: &mut Vec<u8>) {
        self.page.append_to(
            self.page.u16_at(UPPER_OFF) as usize,
            self.page.u16_at(UPPER_LEN) as usize,
            out,
        );
    }
    #[inline]
    pub(crate) fn tree_id(&self) -> u32 {
        self.page.u32_at(TREE_ID)
    }

    /// Is `key` at or above the lower fence?
    pub(crate) fn above_lower_fence(&self, key: &[u8]) -> bool {
        self.page.u8_at(FENCE_FLAGS) & LOWER_INF != 0
            || self.page.compare(
                self.page.u16_at(LOWER_OFF) as usize,
                self.page.u16_at(LOWER_LEN) as usize,
                key,
            ) != Ordering::Greater
    }

    /// Is `key` below the upper fence (inside this node, if above the lower)?
    pub(crate) fn below_upper_fence(&self, key: &[u8]) -> bool {
        self.upper_is_infinite()
            || self.page.compare(
                self.page.u16_at(UPPER_OFF) as usize,
                self.page.u16_at(UPPER_LEN) as usize,
                key,
            ) == Ordering::Greater
    }

    /// Compares slot `i`'s key with `key` (whose head after the node's
    /// `prefix` is `kh`).
    #[inline(always)]
    fn cmp_slot(&self, i: usize, key: &[u8], kh: u64, prefix: usize) -> Ordering {
        let sh = self.head_at(i);
        if sh != (kh >> 16) as u32 {
            return sh.cmp(&((kh >> 16) as u32));
        }
        let se = self.head_ext_at(i);
        if se != kh as u16 {
            return se.cmp(&(kh as u16));
        }
        let sl = self.key_len(i);
        if sl <= prefix + HEAD_BYTES && key.len() <= prefix + HEAD_BYTES {
            return sl.cmp(&key.len());
        }
        self.page
            .compare(self.rec_off(i) + self.val_len(i), sl, key)
    }

    /// First slot whose key is `>= key` (or `count`), and whether it is equal.
    #[inline]
    pub(crate) fn lower_bound(&self, key: &[u8]) -> (usize, bool) {
        let prefix = self.prefix();
        let kh = head(key, prefix);
        let (mut lo, mut hi) = (0usize, self.count());
        while lo < hi {
            let mid = (lo + hi) / 2;
            match self.cmp_slot(mid, key, kh, prefix) {
                Ordering::Less => lo = mid + 1,
                Ordering::Equal => return (mid, true),
                Ordering::Greater => hi = mid,
            }
        }
        (lo, false)
    }

    /// First slot whose key is `> key` (or `count`): the child position for
    /// `key` in an inner node.
    #[inline]
    pub(crate) fn upper_bound(&self, key: &[u8]) -> usize {
        match self.lower_bound(key) {
            (i, true) => i + 1,
            (i, false) => i,
        }
    }

    /// All records, owned (for writers that rebuild the node).
    pub(crate) fn entries(&self) -> Vec<(Vec<u8>, Vec<u8>)> {
        (0..self.count())
            .map(|i| (self.key(i), self.value(i)))
            .collect()
    }
}

/// Write access to a node; the caller holds its exclusive latch.
pub(crate) struct NodeMut<'a> {
    pub(crate) page: RacySliceMut<'a>,
}

impl<'a> NodeMut<'a> {
    pub(crate) fn new(page: RacySliceMut<'a>) -> Self {
        NodeMut { page }
    }
    pub(crate) fn as_ref(&self) -> NodeRef<'_> {
        NodeRef::new(self.page.as_read())
    }

    /// Rewrites the whole node (everything after the buffer header).
    pub(crate) fn write_image(&mut self, image: &NodeImage) {
        self.page
            .write(PAGE_HEADER_SIZE, &image.buf[PAGE_HEADER_SIZE..]);
    }

    pub(crate) fn set_upper_child(&mut self, pid: u64) {
        self.page.set_u64(UPPER_CHILD, pid);
    }

    /// Sets the child of inner slot `i` (or the upper child if `i == count`).
    pub(crate) fn set_child_at(&mut self, i: usize, pid: u64) {
        let n = self.as_ref();
        if i >= n.count() {
            self.set_upper_child(pid);
        } else {
            let off = n.rec_off(i);
            self.page.set_u64(off, pid);
        }
    }

    /// Does a record of these lengths fit, possibly after compaction?
    pub(crate) fn fits(&self, klen: usize, vlen: usize) -> bool {
        let n = self.as_ref();
        entry_space(klen, vlen) <= n.free_space() + n.garbage()
    }

    /// Inserts `key -> value` at slot `pos`. The caller checked `fits`.
    pub(crate) fn insert_at(&mut self, pos: usize, key: &[u8], value: &[u8]) {
        let need = entry_space(key.len(), value.len());
        if need > self.as_ref().free_space() {
            self.compact();
        }
        let n = self.as_ref();
        let count = n.count();
        let kh = head(key, n.prefix());
        debug_assert!(need <= n.free_space());
        let rec = align8(key.len() + value.len());
        let off = n.heap_top() - rec;
        self.page.write(off, value);
        self.page.write(off + value.len(), key);
        let slot = SLOTS + pos * SLOT_SIZE;
        if pos < count {
            self.page
                .move_within(slot, slot + SLOT_SIZE, (count - pos) * SLOT_SIZE);
        }
        self.page.set_u16(slot, off as u16);
        self.page.set_u16(slot + 2, key.len() as u16);
        self.page.set_u16(slot + 4, value.len() as u16);
        self.page.set_u16(slot + 6, kh as u16);
        self.page.set_u32(slot + 8, (kh >> 16) as u32);
        self.page.set_u16(COUNT, (count + 1) as u16);
        self.page.set_u16(HEAP_TOP, off as u16);
    }

    /// Removes slot `pos`.
    pub(crate) fn remove_at(&mut self, pos: usize) {
        let n = self.as_ref();
        let count = n.count();
        let dead = align8(n.key_len(pos) + n.val_len(pos));
        let garbage = n.garbage() + dead;
        let slot = SLOTS + pos * SLOT_SIZE;
        if pos + 1 < count {
            self.page
                .move_within(slot + SLOT_SIZE, slot, (count - pos - 1) * SLOT_SIZE);
        }
        self.page.set_u16(COUNT, (count - 1) as u16);
        self.page.set_u16(GARBAGE, garbage as u16);
    }

    /// Rebuilds the node without dead heap space.
    pub(crate) fn compact(&mut self) {
        let n = self.as_ref();
        let image = NodeImage::build(
            self.page.len(),
            NodeHeader::of(&n),
            n.entries()
                .iter()
                .map(|(k, v)| (k.as_slice(), v.as_slice())),
        );
        self.write_image(&image);
    }
}

/// Everything of a node but its records.
#[derive(Clone, Debug)]
pub(crate) struct NodeHeader {
    pub(crate) leaf: bool,
    pub(crate) level: u8,
    pub(crate) lower: Fence,
    pub(crate) upper: Fence,
    pub(crate) upper_child: u64,
}

impl NodeHeader {
    pub(crate) fn of(n: &NodeRef<'_>) -> NodeHeader {
        NodeHeader {
            leaf: n.is_leaf(),
            level: n.level(),
            lower: n.lower_fence(),
            upper: n.upper_fence(),
            upper_child: n.upper_child(),
        }
    }
    pub(crate) fn leaf(lower: Fence, upper: Fence) -> NodeHeader {
        NodeHeader {
            leaf: true,
            level: 0,
            lower,
            upper,
            upper_child: 0,
        }
    }
}

/// A node built in private memory, then written to its page in one go.
pub(crate) struct NodeImage {
    pub(crate) buf: Vec<u8>,
}

impl NodeImage {
    /// Space that fences and the header take, for sizing decisions.
    pub(crate) fn fixed_space(h: &NodeHeader) -> usize {
        SLOTS
            + h.lower.as_ref().map_or(0, |k| align8(k.len()))
            + h.upper.as_ref().map_or(0, |k| align8(k.len()))
    }

    /// Does a node with this header and these records fit in `page_size`?
    pub(crate) fn fits<'k>(
        page_size: usize,
        h: &NodeHeader,
        entries: impl Iterator<Item = (&'k [u8], &'k [u8])>,
    ) -> bool {
        let mut need = Self::fixed_space(h);
        for (k, v) in entries {
            need += entry_space(k.len(), v.len());
        }
        need <= page_size
    }

    pub(crate) fn build<'k>(
        page_size: usize,
        h: NodeHeader,
        entries: impl Iterator<Item = (&'k [u8], &'k [u8])>,
    ) -> NodeImage {
        let mut buf = vec![0u8; page_size];
        let mut top = page_size;
        fn put(buf: &mut [u8], top: &mut usize, bytes: &[&[u8]]) -> usize {
            let len: usize = bytes.iter().map(|b| b.len()).sum();
            *top -= align8(len);
            let mut at = *top;
            for b in bytes {
                buf[at..at + b.len()].copy_from_slice(b);
                at += b.len();
            }
            *top
        }
        let prefix = match (&h.lower, &h.upper) {
            (Some(l), Some(u)) => l.iter().zip(u).take_while(|(a, b)| a == b).count(),
            _ => 0,
        };
        let mut flags = 0u8;
        match &h.lower {
            Some(k) => {
                let off = put(&mut buf, &mut top, &[k]);
                buf[LOWER_OFF..LOWER_OFF + 2].copy_from_slice(&(off as u16).to_ne_bytes());
                buf[LOWER_LEN..LOWER_LEN + 2].copy_from_slice(&(k.len() as u16).to_ne_bytes());
            }
            None => flags |= LOWER_INF,
        }
        match &h.upper {
            Some(k) => {
                let off = put(&mut buf, &mut top, &[k]);
                buf[UPPER_OFF..UPPER_OFF + 2].copy_from_slice(&(off as u16).to_ne_bytes());
                buf[UPPER_LEN..UPPER_LEN + 2].copy_from_slice(&(k.len() as u16).to_ne_bytes());
            }
            None => flags |= UPPER_INF,
        }
        // Records go in ascending address order (key order = memory order,
        // which hardware prefetchers follow best on scans).
        let entries: Vec<(&[u8], &[u8])> = entries.collect();
        let heap: usize = entries.iter().map(|(k, v)| align8(k.len() + v.len())).sum();
        let slots_end = SLOTS + entries.len() * SLOT_SIZE;
        assert!(slots_end + heap <= top, "node image overflow");
        top -= heap;
        let mut at = top;
        let mut count = 0usize;
        for (k, v) in entries {
            let off = at;
            buf[at..at + v.len()].copy_from_slice(v);
            buf[at + v.len()..at + v.len() + k.len()].copy_from_slice(k);
            at += align8(k.len() + v.len());
            let s = SLOTS + count * SLOT_SIZE;
            buf[s..s + 2].copy_from_slice(&(off as u16).to_ne_bytes());
            buf[s + 2..s + 4].copy_from_slice(&(k.len() as u16).to_ne_bytes());
            buf[s + 4..s + 6].copy_from_slice(&(v.len() as u16).to_ne_bytes());
            let kh = head(k, prefix);
            buf[s + 6..s + 8].copy_from_slice(&(kh as u16).to_ne_bytes());
            buf[s + 8..s + 12].copy_from_slice(&((kh >> 16) as u32).to_ne_bytes());
            count += 1;
        }
        buf[IS_LEAF] = h.leaf as u8;
        buf[LEVEL] = h.level;
        buf[COUNT..COUNT + 2].copy_from_slice(&(count as u16).to_ne_bytes());
        buf[HEAP_TOP..HEAP_TOP + 2].copy_from_slice(&(top as u16).to_ne_bytes());
        buf[GARBAGE..GARBAGE + 2].copy_from_slice(&0u16.to_ne_bytes());
        buf[FENCE_FLAGS] = flags;
        buf[PREFIX..PREFIX + 2].copy_from_slice(&(prefix as u16).to_ne_bytes());
        buf[UPPER_CHILD..UPPER_CHILD + 8].copy_from_slice(&h.upper_child.to_ne_bytes());
        NodeImage { buf }
    }
}

/// The shortest key `s` with `left < s <= right` (for `left < right`), used
/// as the separator between two nodes.
pub(crate) fn separator(left: &[u8], right: &[u8]) -> Vec<u8> {
    debug_assert!(left < right);
    let common = left.iter().zip(right).take_while(|(a, b)| a == b).count();
    right[..(common + 1).min(right.len())].to_vec()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn with_page<R>(size: usize, f: impl FnOnce(RacySliceMut<'_>) -> R) -> R {
        let mut mem = vec![0u64; size / 8];
        // SAFETY: the vec outlives the view and is only accessed through it.
        let view = unsafe { RacySliceMut::new(mem.as_mut_ptr() as *mut u8, size) };
        f(view)
    }

    #[test]
    fn insert_search_remove_compact() {
        with_page(1024, |page| {
            let mut n = NodeMut::new(page);
            let img = NodeImage::build(
                1024,
                NodeHeader::leaf(Some(b"a".to_vec()), None),
                std::iter::empty(),
            );
            n.write_image(&img);
            let keys: Vec<Vec<u8>> = ["b", "bb", "c", "abcdef", "abcdeg", "zz"]
                .iter()
                .map(|s| s.as_bytes().to_vec())
                .collect();
            for k in &keys {
                let (pos, found) = n.as_ref().lower_bound(k);
                assert!(!found);
                assert!(n.fits(k.len(), 3));
                n.insert_at(pos, k, b"val");
            }
            let r = n.as_ref();
            let got: Vec<Vec<u8>> = (0..r.count()).map(|i| r.key(i)).collect();
            let mut want = keys.clone();
            want.sort();
            assert_eq!(got, want);
            assert_eq!(r.lower_bound(b"abcdeg"), (1, true));
            assert_eq!(r.lower_bound(b"abcdef0"), (1, false));
            assert_eq!(r.upper_bound(b"b"), 3);
            assert_eq!(r.lower_fence(), Some(b"a".to_vec()));
            assert_eq!(r.upper_fence(), None);
            let before = r.free_space();
            n.remove_at(0);
            assert_eq!(n.as_ref().garbage(), 16);
            n.compact();
            assert_eq!(n.as_ref().garbage(), 0);
            assert!(n.as_ref().free_space() > before);
            assert_eq!(n.as_ref().key(0), b"abcdeg");
        });
    }

    /// Keys that agree in their first bytes (8-byte integers) are told
    /// apart by heads taken after the fences' common prefix.
    #[test]
    fn heads_skip_the_fences_common_prefix() {
        let key = |v: u64| (v | 0x8000_0000_0000_0000).to_be_bytes().to_vec();
        with_page(4096, |page| {
            let mut n = NodeMut::new(page);
            let img = NodeImage::build(
                4096,
                NodeHeader::leaf(Some(key(0x1234_0000)), Some(key(0x1235_0000))),
                [key(0x1234_0010), key(0x1234_0500)]
                    .iter()
                    .map(|k| (k.as_slice(), &b"v"[..])),
            );
            n.write_image(&img);
            assert_eq!(n.as_ref().prefix(), 5);
            for v in [0x1234_0001u64, 0x1234_0300, 0x1234_ffff, 0x1234_0011] {
                let (pos, found) = n.as_ref().lower_bound(&key(v));
                assert!(!found);
                n.insert_at(pos, &key(v), b"v");
            }
            let r = n.as_ref();
            let got: Vec<Vec<u8>> = (0..r.count()).map(|i| r.key(i)).collect();
            let mut want: Vec<Vec<u8>> = [1, 0x10, 0x11, 0x300, 0x500, 0xffff]
                .iter()
                .map(|&v| key(0x1234_0000 + v))
                .collect();
            want.sort();
            assert_eq!(got, want);
            assert_eq!(r.lower_bound(&key(0x1234_0300)), (3, true));
            assert_eq!(r.lower_bound(&key(0x1234_0301)), (4, false));
            // The upper fence itself (a bound some searches use) sorts last.
            assert_eq!(r.lower_bound(&key(0x1235_0000)), (6, false));
            let heads: Vec<u32> = (0..r.count()).map(|i| r.head_at(i)).collect();
            assert!(heads.windows(2).all(|w| w[0] < w[1]), "{heads:x?}");
        });
    }

    #[test]
    fn separators_are_short_and_between() {
        assert_eq!(separator(b"abc", b"abd"), b"abd");
        assert_eq!(separator(b"ab", b"abc"), b"abc");
        assert_eq!(separator(b"a", b"zzz"), b"z");
        assert_eq!(
            separator(b"\x00\x00\x01\x00", b"\x00\x00\x02\x05"),
            b"\x00\x00\x02"
        );
    }
}
