//! Multi-version reads: snapshots as InnoDB's consistent reads, without a
//! shared write per row.
//!
//! Every value a table keeps in a tree starts with a [`Stamp`]: the id of
//! the transaction that wrote it, and whether it is a *delete mark* (the
//! record stays until no snapshot can see the row any more, then purge
//! removes it). A transaction's first change of a key records the value
//! the key had before (its *version*) in the transaction's
//! [`TxnVersions`], under the leaf's latch and before the change is
//! visible; the versions of a transaction stay until every snapshot sees
//! it committed.
//!
//! A [`ReadView`] is the set of transactions a snapshot sees: ids below
//! `low` yes, ids from `high` on no, in between all but the ones that were
//! active when it was taken (and always its own transaction's changes).
//! Reading a value whose stamp the view sees costs one comparison; one it
//! does not see is resolved through the versions of the writer (and of the
//! writer before it, ...): a slow path that takes a lock, only for rows
//! changed since the snapshot.
//!
//! Shared words and their owners (DESIGN.md invariant 6):
//! - `next`: transaction ids and commit numbers; written by writers twice
//!   per transaction (first change, end).
//! - `active`: one word per writing transaction (its id, 0 when free),
//!   8 to a cache line; written by its transaction when it starts and
//!   ends. Taking a view reads the words in use, writes none.
//! - `views`: one cache line per reader, written by its owner once or twice
//!   per snapshot (the oldest transaction its view may need); read by
//!   purge.
//!
//! The ordering that makes this sound (all sequentially consistent): a
//! writer announces itself (`PENDING`) in its slot before it takes an id,
//! so a view that reads `next` past the id finds the slot announced; a
//! reader publishes `CREATING` before it reads `next` and the slots; purge
//! takes as candidates only transactions that had left their slots before
//! it reads the views, so a view whose slot it read before that
//! publication read the candidates' slots after they left: it sees them
//! committed.
use crate::waits;
use lineardb_buffer::PageId;
use lineardb_sync::{CachePadded, Mutex, SharedWord};
use std::collections::{HashMap, VecDeque};
use std::sync::Arc;

/// Most transactions with changes at once, and most readers.
pub const MAX_SLOTS: usize = 4096;

/// A view slot's value while its owner takes a snapshot (holds back all
/// purge for that moment).
const CREATING: u64 = 0;
/// A view slot's value when its owner holds no snapshot.
const NO_VIEW: u64 = u64::MAX;
/// An active slot's value while its owner takes an id.
const PENDING: u64 = u64::MAX;

/// The header of every stamped value: who wrote it, and whether it marks a
/// deleted row. Encoded as a LEB128 varint of `trx << 1 | deleted` (rows
/// written by bulk loads carry transaction 0: one byte).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Stamp {
    pub trx: u64,
    pub deleted: bool,
}

impl Stamp {
    /// Longest encoding.
    pub const MAX_LEN: usize = 10;

    pub fn live(trx: u64) -> Stamp {
        Stamp {
            trx,
            deleted: false,
        }
    }

    pub fn encode(self, out: &mut Vec<u8>) {
        let mut v = (self.trx << 1) | self.deleted as u64;
        while v >= 0x80 {
            out.push((v as u8) | 0x80);
            v >>= 7;
        }
        out.push(v as u8);
    }

    /// A value holding only this stamp (a delete mark, an index entry).
    pub fn to_vec(self) -> Vec<u8> {
        let mut v = Vec::with_capacity(10);
        self.encode(&mut v);
        v
    }

    /// The stamp at the start of `v` and its length; a value too short to
    /// hold one reads as a live row of transaction 0 with no header (it
    /// cannot come from a table, which stamps everything).
    #[inline]
    pub fn decode(v: &[u8]) -> (Stamp, usize) {
        let mut x = 0u64;
        for (i, &b) in v.iter().enumerate().take(10) {
            x |= ((b & 0x7f) as u64) << (7 * i);
            if b < 0x80 {
                return (
                    Stamp {
                        trx: x >> 1,
                        deleted: x & 1 == 1,
                    },
                    i + 1,
                );
            }
        }
        (Stamp::live(0), 0)
    }
}

/// The values a transaction's changes replaced: per tree, per key, the
/// value before the transaction's first change (`None`: absent).
#[derive(Default)]
pub struct TxnVersions {
    before: Mutex<HashMap<PageId, KeyVersions>>,
}

/// Per key of one tree: the value before (`None`: absent).
type KeyVersions = HashMap<Vec<u8>, Option<Vec<u8>>>;

impl TxnVersions {
    /// Records `old` as the value before the transaction's change of `key`,
    /// unless an earlier change of the key already did.
    pub(crate) fn record_first(&self, root: PageId, key: &[u8], old: Option<&[u8]>) {
        let mut m = self.before.lock();
        let tree = m.entry(root).or_default();
        if !tree.contains_key(key) {
            tree.insert(key.to_vec(), old.map(<[u8]>::to_vec));
        }
    }

    /// `Some(value before)` if the transaction changed `key`.
    fn get(&self, root: PageId, key: &[u8]) -> Option<Option<Vec<u8>>> {
        self.before.lock().get(&root)?.get(key).cloned()
    }
}

/// A delete mark to remove once no snapshot can see the row: the tree, the
/// key and the exact mark value (a later change of the key keeps it).
pub(crate) struct Mark {
    pub root: PageId,
    pub key: Vec<u8>,
    pub value: Vec<u8>,
}

/// A transaction that ended, waiting for purge.
struct Ended {
    /// Commit number (from the id sequence): every view whose `low` is
    /// above it sees the transaction committed.
    no: u64,
    id: u64,
    marks: Vec<Mark>,
}

/// Slots handed out lowest first, so the scanned prefix stays short.
struct SlotAllocator {
    free: std::collections::BTreeSet<usize>,
    /// Slots ever handed out (the prefix views scan). Also in `used`.
    next: usize,
}

impl SlotAllocator {
    fn new() -> Self {
        SlotAllocator {
            free: Default::default(),
            next: 0,
        }
    }
    fn take(&mut self, used: &SharedWord) -> Option<usize> {
        if let Some(s) = self.free.pop_first() {
            return Some(s);
        }
        if self.next == MAX_SLOTS {
            return None;
        }
        self.next += 1;
        // Sequentially consistent: a purge that read the old count read no
        // slot the new owner publishes in afterwards (as if before it).
        used.store_seq_cst(self.next as u64);
        Some(self.next - 1)
    }
}

pub struct Mvcc {
    next: SharedWord,
    active: Box<[SharedWord]>,
    active_used: SharedWord,
    active_slots: Mutex<SlotAllocator>,
    views: Box<[CachePadded<SharedWord>]>,
    views_used: SharedWord,
    view_slots: Mutex<SlotAllocator>,
    /// Versions of transactions that started and are not purged yet.
    versions: Mutex<HashMap<u64, Arc<TxnVersions>>>,
    /// Ended transactions, about in commit-number order.
    ended: Mutex<VecDeque<Ended>>,
    /// One purge at a time (others skip).
    purging: Mutex<()>,
}

/// What [`Mvcc::begin`] gives a writing transaction.
pub(crate) struct Started {
    pub id: u64,
    pub slot: usize,
    pub versions: Arc<TxnVersions>,
}

impl Mvcc {
    pub(crate) fn new(next_id: u64) -> Mvcc {
        Mvcc {
            next: SharedWord::new(next_id.max(1)),
            active: (0..MAX_SLOTS).map(|_| SharedWord::new(0)).collect(),
            active_used: SharedWord::new(0),
            active_slots: Mutex::with_class(waits::TRANSACTIONS, SlotAllocator::new()),
            views: (0..MAX_SLOTS)
                .map(|_| CachePadded::new(SharedWord::new(NO_VIEW)))
                .collect(),
            views_used: SharedWord::new(0),
            view_slots: Mutex::with_class(waits::TRANSACTIONS, SlotAllocator::new()),
            versions: Mutex::with_class(waits::TRANSACTIONS, HashMap::new()),
            ended: Mutex::with_class(waits::TRANSACTIONS, VecDeque::new()),
            purging: Mutex::with_class(waits::TRANSACTIONS, ()),
        }
    }

    /// Starts a writing transaction: a slot, an id, a versions record.
    pub(crate) fn begin(&self) -> Option<Started> {
        let slot = self.active_slots.lock().take(&self.active_used)?;
        self.active[slot].store_seq_cst(PENDING);
        let id = self.next.fetch_add_seq_cst(1);
        self.active[slot].store_seq_cst(id);
        let versions = Arc::new(TxnVersions::default());
        self.versions.lock().insert(id, versions.clone());
        Some(Started { id, slot, versions })
    }

    /// Ends a transaction (committed, or rolled back with its changes
    /// undone): views taken from now on see it; its versions and `marks`
    /// wait for purge. Returns the transactions now waiting for purge.
    pub(crate) fn end(&self, id: u64, slot: usize, marks: Vec<Mark>) -> usize {
        let no = self.next.fetch_add_seq_cst(1);
        self.active[slot].store_seq_cst(0);
        self.active_slots.lock().free.insert(slot);
        let mut ended = self.ended.lock();
        ended.push_back(Ended { no, id, marks });
        ended.len()
    }

    /// Drops the waiting delete marks of the tree rooted at `root` (the
    /// tree is being destroyed: its pages may go to another tree).
    pub(crate) fn forget_tree(&self, root: PageId) {
        for e in self.ended.lock().iter_mut() {
            e.marks.retain(|m| m.root != root);
        }
    }

    /// The lowest `low` of the views held now (`u64::MAX`: none; 0: one is
    /// being taken).
    fn oldest_view(&self) -> u64 {
        let used = self.views_used.load_seq_cst() as usize;
        self.views[..used]
            .iter()
            .map(|w| w.load_seq_cst())
            .min()
            .unwrap_or(NO_VIEW)
    }

    /// Removes what no view can see any more: the delete marks of ended
    /// transactions every view sees, and their versions. `remove(mark)`
    /// removes one mark if the key still holds exactly that value. Returns
    /// the transactions purged (0 if another purge is running).
    pub(crate) fn purge(
        &self,
        mut remove: impl FnMut(&Mark) -> lineardb_buffer::Result<()>,
    ) -> lineardb_buffer::Result<usize> {
        let Some(_one) = self.purging.try_lock() else {
            return Ok(0);
        };
        // Only transactions that had left their slots before the views are
        // read may be purged: a view taken meanwhile may have found one of
        // them still active (it needs its versions) and published a `low`
        // the read below missed. Entries are only appended while purge runs,
        // so the first `candidates` stay the same.
        let candidates = self.ended.lock().len();
        #[cfg(test)]
        std::thread::yield_now(); // widens the window the stress test probes
        let oldest = self.oldest_view();
        let done: Vec<Ended> = {
            let mut ended = self.ended.lock();
            let n = ended
                .iter()
                .take(candidates)
                .take_while(|e| e.no < oldest)
                .count();
            ended.drain(..n).collect()
        };
        for e in &done {
            for m in &e.marks {
                remove(m)?;
            }
        }
        let mut versions = self.versions.lock();
        for e in &done {
            versions.remove(&e.id);
        }
        Ok(done.len())
    }

    /// A handle for taking snapshots (one per session or reading thread).
    pub fn reader(self: &Arc<Self>) -> Option<Reader> {
        let slot = self.view_slots.lock().take(&self.views_used)?;
        Some(Reader(Arc::new(ReaderSlot {
            mvcc: self.clone(),
            slot,
        })))
    }

    fn before(&self, trx: u64, root: PageId, key: &[u8]) -> Option<Option<Vec<u8>>> {
        let v = self.versions.lock().get(&trx).cloned()?;
        v.get(root, key)
    }
}

struct ReaderSlot {
    mvcc: Arc<Mvcc>,
    slot: usize,
}

impl Drop for ReaderSlot {
    fn drop(&mut self) {
        self.mvcc.views[self.slot].store_seq_cst(NO_VIEW);
        self.mvcc.view_slots.lock().free.insert(self.slot);
    }
}

/// Takes snapshots; holds one view slot. One view at a time per reader.
#[derive(Clone)]
pub struct Reader(Arc<ReaderSlot>);

impl Reader {
    /// A snapshot of the transactions committed now, for a reader inside
    /// transaction `own` (0: none), whose changes it also sees. Published
    /// in the reader's slot until the view is dropped.
    pub fn view(&self, own: u64) -> ReadView {
        let m = &self.0.mvcc;
        let mine = &m.views[self.0.slot];
        debug_assert_eq!(mine.load(), NO_VIEW, "one view per reader at a time");
        mine.store_seq_cst(CREATING);
        let high = m.next.load_seq_cst();
        let used = m.active_used.load_seq_cst() as usize;
        let mut active = Vec::new();
        let mut low = high;
        for w in &m.active[..used] {
            let id = loop {
                match w.load_seq_cst() {
                    PENDING => std::hint::spin_loop(),
                    id => break id,
                }
            };
            if id != 0 && id < high && id != own {
                active.push(id);
                low = low.min(id);
            }
        }
        mine.store_seq_cst(low);
        ReadView {
            low,
            high,
            own,
            active,
            slot: Some(self.0.clone()),
        }
    }
}

/// What one version of a stamped value is to a view.
pub enum Version<'a> {
    /// The value in the tree; its body (after the stamp).
    Current(&'a [u8]),
    /// An older value from the versions; body starts at the offset.
    Older(Vec<u8>, usize),
    /// No row for this view (deleted, or not yet inserted).
    Absent,
}

impl Version<'_> {
    pub fn body(&self) -> Option<&[u8]> {
        match self {
            Version::Current(b) => Some(b),
            Version::Older(v, at) => Some(&v[*at..]),
            Version::Absent => None,
        }
    }
}

/// A snapshot: which transactions' changes a reader sees.
pub struct ReadView {
    low: u64,
    high: u64,
    own: u64,
    /// Transactions active when the view was taken (ids in `low..high`).
    active: Vec<u64>,
    slot: Option<Arc<ReaderSlot>>,
}

impl ReadView {
    /// Sees every change made so far, committed or not (the latest value
    /// of every key; writers' "current reads", which lock what they read).
    pub const fn latest() -> ReadView {
        ReadView {
            low: u64::MAX,
            high: u64::MAX,
            own: 0,
            active: Vec::new(),
            slot: None,
        }
    }

    /// The changes of transaction `own` are visible too (a transaction
    /// that took its id after its view).
    pub fn set_own(&mut self, own: u64) {
        self.own = own;
    }

    #[inline]
    pub fn sees(&self, trx: u64) -> bool {
        trx < self.low || trx == self.own || (trx < self.high && !self.active.contains(&trx))
    }

    /// The version of `value` (stored under `key` in the tree rooted at
    /// `root`) this view sees.
    #[inline]
    pub fn resolve<'a>(&self, root: PageId, key: &[u8], value: &'a [u8]) -> Version<'a> {
        let (stamp, at) = Stamp::decode(value);
        if self.sees(stamp.trx) {
            return match stamp.deleted {
                false => Version::Current(&value[at..]),
                true => Version::Absent,
            };
        }
        self.resolve_older(root, key, stamp.trx)
    }

    /// Follows the versions back from writer `trx` to one this view sees.
    #[cold]
    fn resolve_older<'a>(&self, root: PageId, key: &[u8], mut trx: u64) -> Version<'a> {
        let Some(slot) = &self.slot else {
            return Version::Absent;
        };
        lineardb_sync::thread_slot::count(lineardb_sync::Counter::OlderVersions, 1);
        loop {
            // A writer this view does not see has not been purged (purge
            // waits for every view to see it), so its versions are there;
            // a key it did not change was absent before it.
            let Some(Some(old)) = slot.mvcc.before(trx, root, key) else {
                return Version::Absent;
            };
            let (stamp, at) = Stamp::decode(&old);
            if self.sees(stamp.trx) {
                return match stamp.deleted {
                    false => Version::Older(old, at),
                    true => Version::Absent,
                };
            }
            trx = stamp.trx;
        }
    }
}

impl Drop for ReadView {
    fn drop(&mut self) {
        if let Some(s) = &self.slot {
            s.mvcc.views[s.slot].store(NO_VIEW);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stamps_round_trip() {
        for trx in [0u64, 1, 63, 64, 1 << 20, u64::MAX >> 1] {
            for deleted in [false, true] {
                let s = Stamp { trx, deleted };
                let mut v = s.to_vec();
                let len = v.len();
                v.extend_from_slice(b"row");
                assert_eq!(Stamp::decode(&v), (s, len));
            }
        }
        assert_eq!(Stamp::live(0).to_vec(), vec![0]);
    }

    #[test]
    fn views_see_what_committed_before_them() {
        let m = Arc::new(Mvcc::new(1));
        let r = m.reader().unwrap();
        let a = m.begin().unwrap();
        let v1 = r.view(0);
        assert!(!v1.sees(a.id));
        assert!(v1.sees(a.id - 1));
        drop(v1);
        m.end(a.id, a.slot, Vec::new());
        let b = m.begin().unwrap();
        let v2 = r.view(0);
        assert!(v2.sees(a.id));
        assert!(!v2.sees(b.id));
        assert!(!v2.sees(b.id + 10));
        // Purge waits for the view that does not see b.
        m.end(b.id, b.slot, Vec::new());
        assert_eq!(m.purge(|_| Ok(())).unwrap(), 1);
        assert!(m.versions.lock().contains_key(&b.id));
        drop(v2);
        assert_eq!(m.purge(|_| Ok(())).unwrap(), 1);
        assert!(!m.versions.lock().contains_key(&b.id));
    }

    #[test]
    fn older_versions_are_followed() {
        let m = Arc::new(Mvcc::new(1));
        let r = m.reader().unwrap();
        let a = m.begin().unwrap();
        let mut v0 = Stamp::live(0).to_vec();
        v0.extend_from_slice(b"zero");
        a.versions.record_first(7, b"k", Some(&v0));
        let mut v1 = Stamp::live(a.id).to_vec();
        v1.extend_from_slice(b"one");
        let view = r.view(0);
        assert_eq!(view.resolve(7, b"k", &v1).body(), Some(&b"zero"[..]));
        // A key the writer inserted is absent for the view.
        a.versions.record_first(7, b"new", None);
        assert!(view.resolve(7, b"new", &v1).body().is_none());
        // The writer's own view sees its change.
        let w = m.reader().unwrap().view(a.id);
        assert_eq!(w.resolve(7, b"k", &v1).body(), Some(&b"one"[..]));
        // A delete mark the view sees hides the row.
        let mark = Stamp {
            trx: 0,
            deleted: true,
        }
        .to_vec();
        assert!(view.resolve(7, b"k", &mark).body().is_none());
    }

    /// Writers end, a purger purges and readers take views, all at once: a
    /// transaction a view does not see keeps its versions while the view is
    /// held (a transaction that ended while a view was being taken, and that
    /// the view found still active, was once purged under it).
    #[test]
    fn purge_keeps_the_versions_of_every_view_it_races() {
        use std::collections::HashSet;
        let m = Arc::new(Mvcc::new(1));
        let stop = lineardb_sync::SharedFlag::new(false);
        // Ids whose `end` returned (so their versions were inserted).
        let ended_ids: Mutex<HashSet<u64>> = Mutex::new(HashSet::new());
        let lost = SharedWord::new(0);
        std::thread::scope(|s| {
            for _ in 0..2 {
                s.spawn(|| {
                    while !stop.get() {
                        let t = m.begin().unwrap();
                        m.end(t.id, t.slot, Vec::new());
                        ended_ids.lock().insert(t.id);
                    }
                });
            }
            s.spawn(|| {
                while !stop.get() {
                    m.purge(|_| Ok(())).unwrap();
                }
            });
            for _ in 0..2 {
                s.spawn(|| {
                    let r = m.reader().unwrap();
                    while !stop.get() {
                        let view = r.view(0);
                        for id in &view.active {
                            if ended_ids.lock().contains(id) && !m.versions.lock().contains_key(id)
                            {
                                lost.fetch_add(1);
                            }
                        }
                    }
                });
            }
            std::thread::sleep(std::time::Duration::from_secs(2));
            stop.set(true);
        });
        assert_eq!(lost.load(), 0, "versions purged under a view");
    }
}
