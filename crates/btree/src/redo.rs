//! Redo records of page changes (physiological logging).
//!
//! Every change a tree makes to a page is described in a record appended to
//! the pool's log ([`lineardb_buffer::PageLog`]) while the changed pages are
//! still latched; the pages then carry the record's LSN. A record is a list
//! of operations, each on one page:
//!
//! ```text
//! u8 op, u64 page id, then
//!   IMAGE  u16 head length, head bytes, u16 tail offset, tail bytes
//!          (the node's header and slots, and its heap; the free gap
//!          between them is zero on replay)
//!   PUT    u16 key length, key, u16 value length, value
//!          (insert or replace in this leaf)
//!   REMOVE u16 key length, key (remove from this node; in an inner node
//!          the separator and the child to its left)
//!   LINK   u16 separator length, separator, u64 left, u64 right
//!          (an inner node takes a split child's new separator: the old
//!          child becomes `left` under the separator, `right` follows it)
//!   FREE   (the page returns to the free list)
//!   ALLOC  (a page a bulk build wrote to the file before this record)
//!   UNDO   u64 transaction, key, u8 had old value, old value: how to undo
//!          a transaction's change to the tree whose root is the page id
//!          (changes no page; recovery rolls back transactions that did
//!          not commit from these)
//! ```
//!
//! A change and its undo information are one record, so the log never holds
//! one without the other.
//!
//! Replaying a record on a page whose LSN is older re-does the change
//! exactly: the node operations are deterministic functions of the page's
//! live contents. A page whose LSN is older than the log's *image horizon*
//! (the last checkpoint's start) is logged as an image rather than a delta,
//! so recovery never builds on a page a crash may have torn.
use crate::node::{NodeMut, NodeRef, SLOTS, SLOT_SIZE};
use lineardb_buffer::{BufferPool, Error, ExclusiveGuard, Lsn, PageId, Result};

const IMAGE: u8 = 1;
const PUT: u8 = 2;
const REMOVE: u8 = 3;
const LINK: u8 = 4;
const FREE: u8 = 5;
const ALLOC: u8 = 6;
const UNDO: u8 = 7;

/// A redo record being built. Without a log attached it records nothing.
pub(crate) struct Redo {
    /// Page images and deltas.
    buf: Vec<u8>,
    /// FREE and ALLOC operations (kept apart: if the record must be rebuilt
    /// from images, these stay as they are).
    extra: Vec<u8>,
    horizon: Option<Lsn>,
    /// Oldest LSN of a page logged by a delta.
    oldest_delta: Lsn,
}

impl Redo {
    pub(crate) fn new(pool: &BufferPool) -> Redo {
        Redo {
            buf: Vec::new(),
            extra: Vec::new(),
            horizon: pool.log().map(|l| l.image_horizon()),
            oldest_delta: Lsn::MAX,
        }
    }

    pub(crate) fn enabled(&self) -> bool {
        self.horizon.is_some()
    }

    fn op(&mut self, op: u8, pid: PageId) {
        self.buf.push(op);
        self.buf.extend_from_slice(&pid.to_le_bytes());
    }

    fn delta(&mut self, op: u8, g: &ExclusiveGuard<'_>) {
        self.oldest_delta = self.oldest_delta.min(g.lsn());
        self.op(op, g.pid());
    }

    fn bytes(&mut self, b: &[u8]) {
        self.buf.extend_from_slice(&(b.len() as u16).to_le_bytes());
        self.buf.extend_from_slice(b);
    }

    /// Logs the whole node in `g` (as it is now).
    pub(crate) fn image(&mut self, g: &ExclusiveGuard<'_>) {
        if !self.enabled() {
            return;
        }
        let n = NodeRef::new(g.page());
        let head = SLOTS + n.count() * SLOT_SIZE;
        let tail = n.heap_top().max(head).min(g.page().len());
        self.op(IMAGE, g.pid());
        let page = g.page();
        self.buf.extend_from_slice(&(head as u16).to_le_bytes());
        page.append_to(0, head, &mut self.buf);
        self.buf.extend_from_slice(&(tail as u16).to_le_bytes());
        page.append_to(tail, page.len() - tail, &mut self.buf);
    }

    /// True if a change to `g` must be logged as an image (its last logged
    /// change is older than the last checkpoint).
    fn needs_image(&self, g: &ExclusiveGuard<'_>) -> bool {
        matches!(self.horizon, Some(h) if g.lsn() < h)
    }

    /// Logs `key -> value` put into leaf `g` (already changed).
    pub(crate) fn put(&mut self, g: &ExclusiveGuard<'_>, key: &[u8], value: &[u8]) {
        if self.needs_image(g) {
            return self.image(g);
        }
        if self.enabled() {
            self.delta(PUT, g);
            self.bytes(key);
            self.bytes(value);
        }
    }

    /// Logs `key` removed from node `g` (already changed).
    pub(crate) fn remove(&mut self, g: &ExclusiveGuard<'_>, key: &[u8]) {
        if self.needs_image(g) {
            return self.image(g);
        }
        if self.enabled() {
            self.delta(REMOVE, g);
            self.bytes(key);
        }
    }

    /// Logs the separator `sep` linked into inner node `g` (already changed).
    pub(crate) fn link(&mut self, g: &ExclusiveGuard<'_>, sep: &[u8], left: PageId, right: PageId) {
        if self.needs_image(g) {
            return self.image(g);
        }
        if self.enabled() {
            self.delta(LINK, g);
            self.bytes(sep);
            self.buf.extend_from_slice(&left.to_le_bytes());
            self.buf.extend_from_slice(&right.to_le_bytes());
        }
    }

    /// Logs that `pid` is freed (the caller frees it after [`Redo::finish`]).
    pub(crate) fn free(&mut self, pid: PageId) {
        if self.enabled() {
            self.extra.push(FREE);
            self.extra.extend_from_slice(&pid.to_le_bytes());
        }
    }

    /// Logs that `pid`, written to the file by a bulk build, is in use.
    pub(crate) fn alloc(&mut self, pid: PageId) {
        if self.enabled() {
            self.extra.push(ALLOC);
            self.extra.extend_from_slice(&pid.to_le_bytes());
        }
    }

    /// Logs how to undo transaction `txn`'s change of `key` in the tree
    /// rooted at `root`: put `old` back, or remove the key if it had none.
    pub(crate) fn undo(&mut self, txn: u64, root: PageId, key: &[u8], old: Option<&[u8]>) {
        if !self.enabled() || txn == 0 {
            return;
        }
        self.extra.push(UNDO);
        self.extra.extend_from_slice(&root.to_le_bytes());
        self.extra.extend_from_slice(&txn.to_le_bytes());
        self.extra
            .extend_from_slice(&(key.len() as u16).to_le_bytes());
        self.extra.extend_from_slice(key);
        self.extra.push(old.is_some() as u8);
        let old = old.unwrap_or_default();
        self.extra
            .extend_from_slice(&(old.len() as u16).to_le_bytes());
        self.extra.extend_from_slice(old);
    }

    /// Appends the record and stamps the changed pages with its LSN. Call
    /// while every page in `changed` (each page with an image or a delta) is
    /// still latched.
    pub(crate) fn finish(
        mut self,
        pool: &BufferPool,
        changed: &mut [&mut ExclusiveGuard<'_>],
    ) -> Result<()> {
        let Some(log) = pool.log() else {
            return Ok(());
        };
        if self.buf.is_empty() && self.extra.is_empty() {
            return Ok(());
        }
        let mut record = std::mem::take(&mut self.buf);
        record.extend_from_slice(&self.extra);
        let lsn = match log.append_redo(&record, self.oldest_delta)? {
            Some(lsn) => lsn,
            None => {
                // A checkpoint began since the horizon was read: log every
                // changed page whole.
                for g in changed.iter() {
                    self.image(g);
                }
                self.buf.extend_from_slice(&self.extra);
                log.append_redo(&self.buf, Lsn::MAX)?
                    .expect("a record of images is always taken")
            }
        };
        for g in changed {
            g.set_lsn(lsn);
        }
        Ok(())
    }
}

/// What a record does to the allocation state of a page.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PageEffect {
    /// The page is in use (written by this record).
    InUse,
    /// A bulk build wrote the page to the file before this record: its
    /// copy on disk is newer than every earlier record about it.
    Built,
    /// The page is free.
    Freed,
}

struct Reader<'a> {
    b: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Result<&'a [u8]> {
        let end = self.at.checked_add(n).filter(|&e| e <= self.b.len());
        let Some(end) = end else {
            return Err(corrupt_record());
        };
        let s = &self.b[self.at..end];
        self.at = end;
        Ok(s)
    }
    fn u8(&mut self) -> Result<u8> {
        Ok(self.take(1)?[0])
    }
    fn u16(&mut self) -> Result<usize> {
        Ok(u16::from_le_bytes(self.take(2)?.try_into().expect("2 bytes")) as usize)
    }
    fn u64(&mut self) -> Result<u64> {
        Ok(u64::from_le_bytes(
            self.take(8)?.try_into().expect("8 bytes"),
        ))
    }
    fn bytes(&mut self) -> Result<&'a [u8]> {
        let n = self.u16()?;
        self.take(n)
    }
    fn done(&self) -> bool {
        self.at >= self.b.len()
    }
}

fn corrupt_record() -> Error {
    Error::Invalid("malformed redo record".into())
}

/// One decoded operation.
enum Op<'a> {
    Image {
        head: &'a [u8],
        tail_at: usize,
        tail: &'a [u8],
    },
    Put {
        key: &'a [u8],
        value: &'a [u8],
    },
    Remove {
        key: &'a [u8],
    },
    Link {
        sep: &'a [u8],
        left: PageId,
        right: PageId,
    },
    Free,
    Alloc,
    Undo(UndoOp),
}

/// How to undo one change of a transaction (from an UNDO operation).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UndoOp {
    pub txn: u64,
    /// Root page of the changed tree.
    pub root: PageId,
    pub key: Vec<u8>,
    /// The value to put back; `None`: remove the key.
    pub old: Option<Vec<u8>>,
}

fn decode(payload: &[u8], page_size: usize) -> Result<Vec<(PageId, Op<'_>)>> {
    let mut r = Reader { b: payload, at: 0 };
    let mut ops = Vec::new();
    while !r.done() {
        let kind = r.u8()?;
        let pid = r.u64()?;
        let op = match kind {
            IMAGE => {
                let head = r.bytes()?;
                let tail_at = r.u16()?;
                if head.len() > tail_at || tail_at > page_size {
                    return Err(corrupt_record());
                }
                let tail = r.take(page_size - tail_at)?;
                Op::Image {
                    head,
                    tail_at,
                    tail,
                }
            }
            PUT => Op::Put {
                key: r.bytes()?,
                value: r.bytes()?,
            },
            REMOVE => Op::Remove { key: r.bytes()? },
            LINK => Op::Link {
                sep: r.bytes()?,
                left: r.u64()?,
                right: r.u64()?,
            },
            FREE => Op::Free,
            ALLOC => Op::Alloc,
            UNDO => {
                let txn = r.u64()?;
                let key = r.bytes()?.to_vec();
                let had = r.u8()? != 0;
                let old = r.bytes()?.to_vec();
                Op::Undo(UndoOp {
                    txn,
                    root: pid,
                    key,
                    old: had.then_some(old),
                })
            }
            _ => return Err(corrupt_record()),
        };
        ops.push((pid, op));
    }
    Ok(ops)
}

/// The pages a redo record uses or frees, in order (recovery's first pass
/// rebuilds the page count and the free list from these).
pub fn effects(payload: &[u8], page_size: usize) -> Result<Vec<(PageId, PageEffect)>> {
    Ok(decode(payload, page_size)?
        .into_iter()
        .filter_map(|(pid, op)| match op {
            Op::Free => Some((pid, PageEffect::Freed)),
            Op::Alloc => Some((pid, PageEffect::Built)),
            Op::Undo(_) => None,
            _ => Some((pid, PageEffect::InUse)),
        })
        .collect())
}

/// The undo operations of a redo record.
pub fn undo_ops(payload: &[u8], page_size: usize) -> Result<Vec<UndoOp>> {
    Ok(decode(payload, page_size)?
        .into_iter()
        .filter_map(|(_, op)| match op {
            Op::Undo(u) => Some(u),
            _ => None,
        })
        .collect())
}

/// Re-does the record that ends at `lsn` on every page whose LSN is older,
/// except pages `skip` names (free at the end of the log). Images are
/// written without reading the page (its copy on disk may be torn).
pub fn apply(
    pool: &BufferPool,
    lsn: Lsn,
    payload: &[u8],
    skip: &dyn Fn(PageId) -> bool,
) -> Result<usize> {
    let mut applied = 0;
    for (pid, op) in decode(payload, pool.page_size())? {
        if skip(pid) || matches!(op, Op::Free | Op::Alloc | Op::Undo(_)) {
            continue;
        }
        if let Op::Image {
            head,
            tail_at,
            tail,
        } = op
        {
            let mut g = pool.overwrite(pid)?;
            let mut page = g.page_mut();
            page.write(0, head);
            let zeros = vec![0u8; tail_at - head.len()];
            page.write(head.len(), &zeros);
            page.write(tail_at, tail);
            g.set_lsn(lsn);
            applied += 1;
            continue;
        }
        let mut g = pool
            .exclusive(pid, lineardb_buffer::waits::PAGE)
            .map_err(crate::interrupt::interrupt_to_error)?;
        if g.lsn() >= lsn {
            continue;
        }
        let bad = |what: &str| Error::Corrupt {
            page: pid,
            reason: format!("redo at LSN {lsn}: {what}"),
        };
        let mut n = NodeMut::new(g.page_mut());
        match op {
            Op::Put { key, value } => {
                let (pos, found) = n.as_ref().lower_bound(key);
                if found {
                    n.remove_at(pos);
                }
                if !n.fits(key.len(), value.len()) {
                    return Err(bad("record does not fit"));
                }
                n.insert_at(pos, key, value);
            }
            Op::Remove { key } => {
                let (pos, found) = n.as_ref().lower_bound(key);
                if !found {
                    return Err(bad("removed key is missing"));
                }
                n.remove_at(pos);
            }
            Op::Link { sep, left, right } => {
                let (pos, found) = n.as_ref().lower_bound(sep);
                if found || n.as_ref().child_at(pos) != left {
                    return Err(bad("split link does not match"));
                }
                if !n.fits(sep.len(), 8) {
                    return Err(bad("separator does not fit"));
                }
                n.set_child_at(pos, right);
                n.insert_at(pos, sep, &left.to_ne_bytes());
            }
            Op::Image { .. } | Op::Free | Op::Alloc | Op::Undo(_) => {
                unreachable!("handled above")
            }
        }
        g.set_lsn(lsn);
        applied += 1;
    }
    Ok(applied)
}
