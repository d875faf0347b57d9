//! B+tree operations over the buffer pool.
//!
//! Readers descend optimistically with lock coupling: read the child id,
//! validate the parent, take the child's version, validate the parent again
//! (so the child was still its child then), and validate each page after
//! reading it. They never latch and never write shared memory.
//!
//! Writers descend the same way, then upgrade the leaf to exclusive. A full
//! node is split top-down in a separate step (parent, then child, each
//! upgraded from its validated version); an underfull node is merged into its
//! right sibling (parent, left, right). Latches are only ever *tried* in
//! that order, and every failure restarts from the root, so writers cannot
//! deadlock. The root's page id never changes: a root split moves its
//! records into two new children.
use crate::interrupt::interrupt_to_error;
use crate::node::{entry_space, separator, NodeHeader, NodeImage, NodeMut, NodeRef};
use crate::redo::Redo;
use crate::waits;
use lineardb_buffer::{BufferPool, Error, Interrupt, OptimisticGuard, PageId, Result};
use lineardb_sync::{SharedFlag, WaitClass};
use std::sync::Arc;

/// One B+tree, named by its root page id.
pub struct BTree {
    pub(crate) pool: Arc<BufferPool>,
    pub(crate) root: PageId,
    /// Whether the root is a leaf: picks the wait class of the root's latch
    /// (a small tree's root is its only leaf). Read at open, then written
    /// only by the writers that change the root's kind; descents read it.
    root_is_leaf: SharedFlag,
}

/// Keys of a sorted batch lookup whose leaves are prefetched together.
const PREFETCH_GROUP: usize = 16;
/// Bytes of a leaf prefetched ahead of a lookup: header and slot array.
const PREFETCH_LEAF_BYTES: usize = 512;
/// Bytes at a leaf's end prefetched with it: the fences live there (the
/// heap grows down from the end and fences are placed first), and a hinted
/// leaf is checked against them before it is used.
const PREFETCH_FENCE_BYTES: usize = 128;

/// Children of a level-1 node read ahead when a scan reaches one not in memory.
const READ_AHEAD_CHILDREN: usize = 64;

impl Clone for BTree {
    fn clone(&self) -> BTree {
        BTree {
            pool: self.pool.clone(),
            root: self.root,
            root_is_leaf: SharedFlag::new(self.root_is_leaf.get()),
        }
    }
}

impl BTree {
    /// Makes an empty tree in a new page.
    pub fn create(pool: Arc<BufferPool>) -> Result<BTree> {
        let root = {
            let mut g = pool.allocate()?;
            let id = g.pid();
            stamp_tree(&mut g, id);
            let img = NodeImage::build(
                pool.page_size(),
                NodeHeader::leaf(None, None),
                std::iter::empty(),
            );
            NodeMut::new(g.page_mut()).write_image(&img);
            let mut redo = Redo::new(&pool);
            redo.image(&g);
            redo.finish(&pool, &mut [&mut g])?;
            g.pid()
        };
        Ok(BTree::open(pool, root))
    }

    /// The tree whose root is `root` (made earlier by [`BTree::create`]).
    pub fn open(pool: Arc<BufferPool>, root: PageId) -> BTree {
        // The root's kind, read once here; the writers that change it (a
        // root split, a collapse, a bulk build) update it, so descents only
        // read it.
        let leaf = retry(|| {
            let g = pool.optimistic(root, waits::INNER_PAGE)?;
            let leaf = NodeRef::new(g.page()).is_leaf();
            g.validate()?;
            Ok(leaf)
        })
        .unwrap_or(false);
        BTree {
            pool,
            root,
            root_is_leaf: SharedFlag::new(leaf),
        }
    }

    pub fn root(&self) -> PageId {
        self.root
    }

    /// Allocates a page for a node of this tree, stamped with the tree's id.
    pub(crate) fn allocate_node(&self) -> Result<lineardb_buffer::ExclusiveGuard<'_>> {
        let mut g = self.pool.allocate()?;
        stamp_tree(&mut g, self.root);
        Ok(g)
    }

    /// The leaf `hint` if it is a leaf of this tree whose fences hold `key`
    /// (then it is *the* leaf for `key`: leaves partition the key space).
    /// The caller validates the guard after reading.
    fn leaf_from_hint(&self, hint: PageId, key: &[u8]) -> Option<OptimisticGuard<'_>> {
        if hint == u64::MAX {
            return None;
        }
        let g = self.pool.optimistic(hint, waits::LEAF_PAGE).ok()?;
        let n = NodeRef::new(g.page());
        (n.tree_id() == self.root as u32
            && n.is_leaf()
            && n.above_lower_fence(key)
            && n.below_upper_fence(key))
        .then_some(g)
    }

    pub fn pool(&self) -> &Arc<BufferPool> {
        &self.pool
    }

    /// Longest key accepted.
    pub fn max_key_len(&self) -> usize {
        (self.pool.page_size() - crate::node::SLOTS) / 16
    }

    /// Longest key + value accepted (about a quarter page).
    pub fn max_entry_len(&self) -> usize {
        (self.pool.page_size() - crate::node::SLOTS) / 4 - crate::node::SLOT_SIZE - 8
    }

    fn check_sizes(&self, key: &[u8], value: &[u8]) -> Result<()> {
        if key.len() > self.max_key_len() {
            return Err(Error::TooLarge {
                size: key.len(),
                max: self.max_key_len(),
            });
        }
        if key.len() + value.len() > self.max_entry_len() {
            return Err(Error::TooLarge {
                size: key.len() + value.len(),
                max: self.max_entry_len(),
            });
        }
        Ok(())
    }

    /// Descends optimistically to the leaf that holds `key`. The caller
    /// validates the returned guard after reading the leaf.
    #[inline]
    pub(crate) fn find_leaf(
        &self,
        key: &[u8],
        read_ahead: bool,
    ) -> std::result::Result<OptimisticGuard<'_>, Interrupt> {
        let mut g = self.pool.optimistic(self.root, self.root_class())?;
        loop {
            let n = NodeRef::new(g.page());
            if n.is_leaf() {
                return Ok(g);
            }
            let level = n.level();
            let pos = n.upper_bound(key);
            let child = n.child_at(pos);
            g.validate()?;
            if read_ahead && level == 1 && !self.pool.is_resident(child) {
                self.read_ahead_children(&g, pos);
            }
            let class = if level == 1 {
                waits::LEAF_PAGE
            } else {
                waits::INNER_PAGE
            };
            let c = self.pool.optimistic(child, class)?;
            g.validate()?;
            g = c;
        }
    }

    /// The wait class of the root's latch.
    #[inline]
    fn root_class(&self) -> WaitClass {
        if self.root_is_leaf.get() {
            waits::LEAF_PAGE
        } else {
            waits::INNER_PAGE
        }
    }

    /// Records the root's kind after a writer changed it (written only
    /// when it differs).
    pub(crate) fn note_root_kind(&self, leaf: bool) {
        if self.root_is_leaf.get() != leaf {
            self.root_is_leaf.set(leaf);
        }
    }

    #[cold]
    fn read_ahead_children(&self, parent: &OptimisticGuard<'_>, from: usize) {
        let n = NodeRef::new(parent.page());
        let end = (from + READ_AHEAD_CHILDREN).min(n.count() + 1);
        let pids: Vec<PageId> = (from..end).map(|i| n.child_at(i)).collect();
        if parent.is_valid() {
            self.pool.read_ahead(&pids);
        }
    }

    /// Looks `key` up; on a hit copies its value into `out` and returns true.
    pub fn get_into(&self, key: &[u8], out: &mut Vec<u8>) -> Result<bool> {
        retry(|| {
            let g = self.find_leaf(key, false)?;
            let n = NodeRef::new(g.page());
            let (pos, found) = n.lower_bound(key);
            out.clear();
            if found {
                n.append_value(pos, out);
            }
            g.validate()?;
            if found {
                count_copied(1);
            }
            Ok(found)
        })
    }

    /// Looks `key` up and returns its value.
    pub fn get(&self, key: &[u8]) -> Result<Option<Vec<u8>>> {
        let mut out = Vec::new();
        Ok(self.get_into(key, &mut out)?.then_some(out))
    }

    /// Looks up keys given in ascending order, reusing a leaf while the next
    /// key falls inside its fences (one descent per leaf, not per key).
    /// `found(i, value)` is called for each key `i` that exists, in order.
    ///
    /// Random lookups are bound by memory latency, so a group of keys goes
    /// through three stages, each issuing the misses of the whole group
    /// before waiting on any: (1) walk the cached inner levels and prefetch
    /// each leaf's header, slots and fences; (2) search the leaves and
    /// prefetch the records found; (3) copy the records and validate each
    /// leaf. A leaf that changed in between is looked up again, key by key.
    pub fn get_sorted<K: AsRef<[u8]>>(
        &self,
        keys: &[K],
        mut found: impl FnMut(usize, &[u8]),
    ) -> Result<()> {
        let mut i = 0;
        let mut vals: Vec<u8> = Vec::new();
        let mut copied: Vec<(usize, usize, usize)> = Vec::new();
        let mut hints: Vec<PageId> = Vec::with_capacity(PREFETCH_GROUP);
        // Leaves searched in stage 2: (guard, keys [from, to), hits [h0, h1)).
        let mut leaves: Vec<(OptimisticGuard<'_>, usize, usize, usize, usize)> = Vec::new();
        // Hits of stage 2: (key index, slot).
        let mut hits: Vec<(usize, usize)> = Vec::new();
        // The level-1 node of the last hint: sorted keys mostly share it.
        let mut parent: Option<OptimisticGuard<'_>> = None;
        while i < keys.len() {
            // Stage 1: leaf ids of the group, used as hints (a hinted leaf
            // whose fences hold the key needs no descent).
            hints.clear();
            let group_end = (i + PREFETCH_GROUP).min(keys.len());
            let mut last_leaf = u64::MAX;
            for k in &keys[i..group_end] {
                last_leaf = self.prefetch_leaf(k.as_ref(), last_leaf, &mut parent);
                hints.push(last_leaf);
            }
            // Stage 2: search; the keys of one leaf are consumed together
            // (possibly past the group's end).
            leaves.clear();
            hits.clear();
            let mut j = i;
            while j < group_end {
                let key = keys[j].as_ref();
                let g = match self.leaf_from_hint(hints[j - i], key) {
                    Some(g) => g,
                    None => match self.find_leaf(key, false) {
                        Ok(g) => g,
                        Err(Interrupt::Error(e)) => return Err(e),
                        Err(Interrupt::Restart) => break,
                    },
                };
                let n = NodeRef::new(g.page());
                let (from, h0) = (j, hits.len());
                while j < keys.len() {
                    let k = keys[j].as_ref();
                    if j > from && !n.below_upper_fence(k) {
                        break;
                    }
                    let (pos, hit) = n.lower_bound(k);
                    if hit {
                        n.prefetch_value(pos);
                        hits.push((j, pos));
                    }
                    j += 1;
                }
                leaves.push((g, from, j, h0, hits.len()));
            }
            if j == i {
                // A descent met a change in progress: one key the plain way.
                if self.get_into(keys[i].as_ref(), &mut vals)? {
                    found(i, &vals);
                }
                i += 1;
                continue;
            }
            // Stage 3: copy, validate, hand out.
            for (g, from, to, h0, h1) in leaves.drain(..) {
                vals.clear();
                copied.clear();
                let n = NodeRef::new(g.page());
                for &(k, pos) in &hits[h0..h1] {
                    let s = vals.len();
                    n.append_value(pos, &mut vals);
                    copied.push((k, s, vals.len()));
                }
                if g.is_valid() {
                    count_copied(copied.len() as u64);
                    for &(k, s, e) in &copied {
                        found(k, &vals[s..e]);
                    }
                } else {
                    for (k, key) in keys.iter().enumerate().take(to).skip(from) {
                        if self.get_into(key.as_ref(), &mut vals)? {
                            found(k, &vals);
                        }
                    }
                }
            }
            i = j;
        }
        Ok(())
    }

    /// Descends to the leaf of `key` without trusting what it reads and
    /// prefetches the leaf's header and slot array. A hint only: any
    /// inconsistency just stops it. Returns the leaf id (skipped if it is
    /// `skip`, the previous key's leaf).
    fn prefetch_leaf<'a>(
        &'a self,
        key: &[u8],
        skip: u64,
        parent: &mut Option<OptimisticGuard<'a>>,
    ) -> u64 {
        // Reuse the cached level-1 node while the key is inside its fences.
        if let Some(p) = parent.as_ref() {
            let n = NodeRef::new(p.page());
            if n.level() == 1 && n.above_lower_fence(key) && n.below_upper_fence(key) {
                let child = n.child_at(n.upper_bound(key));
                if p.is_valid() {
                    if child != skip {
                        self.pool
                            .prefetch_page(child, PREFETCH_LEAF_BYTES, PREFETCH_FENCE_BYTES);
                    }
                    return child;
                }
            }
            *parent = None;
        }
        let Ok(mut g) = self.pool.optimistic(self.root, self.root_class()) else {
            return u64::MAX;
        };
        for _ in 0..16 {
            let n = NodeRef::new(g.page());
            if n.is_leaf() {
                return g.pid();
            }
            let child = n.child_at(n.upper_bound(key));
            if n.level() == 1 {
                if !g.is_valid() {
                    return u64::MAX;
                }
                if child != skip {
                    self.pool
                        .prefetch_page(child, PREFETCH_LEAF_BYTES, PREFETCH_FENCE_BYTES);
                }
                *parent = Some(g);
                return child;
            }
            if !g.is_valid() {
                return u64::MAX;
            }
            match self.pool.optimistic(child, waits::INNER_PAGE) {
                Ok(c) => g = c,
                Err(_) => return u64::MAX,
            }
        }
        u64::MAX
    }

    /// The owning tree's id (its root page, as u32) and the level of page
    /// `pid`, if it is in memory. For reports: read optimistically, None if
    /// the page changed meanwhile; nothing is loaded.
    pub fn page_owner(pool: &BufferPool, pid: PageId) -> Option<(u32, u8)> {
        if !pool.is_resident(pid) {
            return None;
        }
        let g = pool.optimistic(pid, lineardb_buffer::waits::PAGE).ok()?;
        let n = NodeRef::new(g.page());
        let owner = (n.tree_id(), n.level());
        g.validate().ok()?;
        Some(owner)
    }

    /// Inserts or replaces `key -> value`. Returns true if it replaced a value.
    pub fn put(&self, key: &[u8], value: &[u8]) -> Result<bool> {
        Ok(self
            .put_tx_if(key, value, 0, |_| true)?
            .is_some_and(|old| old.is_some()))
    }

    /// [`put`](Self::put) for transaction `txn` (0: none), whose redo
    /// record also says how to undo it, that first shows the current value
    /// (`None`: absent) to `accept`, under the leaf's exclusive latch: `false`
    /// leaves the tree as it was and returns `Ok(None)`; otherwise the put
    /// is made and `Ok(Some(replaced value))` returned. No reader can see
    /// the new value before `accept` has returned. `accept` may run more
    /// than once (a full leaf is split and the put retried) and must give
    /// the same answer for the same value.
    pub fn put_tx_if(
        &self,
        key: &[u8],
        value: &[u8],
        txn: u64,
        mut accept: impl FnMut(Option<&[u8]>) -> bool,
    ) -> Result<Option<Option<Vec<u8>>>> {
        self.check_sizes(key, value)?;
        loop {
            match retry(|| self.try_put(key, value, txn, &mut accept))? {
                PutOutcome::Done(old) => return Ok(Some(old)),
                PutOutcome::Refused => return Ok(None),
                PutOutcome::Full => self.split(key, 0)?,
            }
        }
    }

    /// Inserts `key -> value` only if `key` is absent; returns false (and
    /// changes nothing) if it exists. Check and insert are one latched step.
    pub fn insert_new(&self, key: &[u8], value: &[u8]) -> Result<bool> {
        Ok(self
            .put_tx_if(key, value, 0, |old| old.is_none())?
            .is_some())
    }

    /// The largest key in the tree, if any.
    pub fn last_key(&self) -> Result<Option<Vec<u8>>> {
        /// What the leaf reached for a bound holds.
        enum Below {
            Found(Vec<u8>),
            /// Nothing below the bound here: go on below this lower fence.
            Before(Vec<u8>),
            /// Nothing below the bound in the whole tree.
            None,
        }
        // The largest key < bound (None: no bound). The child for a bound b
        // is the one whose range [s_{i-1}, s_i) has s_{i-1} < b <= s_i; if
        // its leaf (emptied by deletes) has nothing below b, the answer lies
        // below the leaf's lower fence. One descent per empty leaf met.
        let mut bound: Option<Vec<u8>> = None;
        loop {
            let r = retry(|| {
                let mut g = self.pool.optimistic(self.root, self.root_class())?;
                loop {
                    let n = NodeRef::new(g.page());
                    let pos = match &bound {
                        None => n.count(),
                        Some(b) => n.lower_bound(b).0,
                    };
                    if n.is_leaf() {
                        let r = if pos > 0 {
                            Below::Found(n.key(pos - 1))
                        } else {
                            n.lower_fence().map_or(Below::None, Below::Before)
                        };
                        g.validate()?;
                        return Ok(r);
                    }
                    let child = n.child_at(pos);
                    g.validate()?;
                    let c = self.pool.optimistic(child, waits::INNER_PAGE)?;
                    g.validate()?;
                    g = c;
                }
            })?;
            match r {
                Below::Found(k) => return Ok(Some(k)),
                Below::None => return Ok(None),
                Below::Before(fence) => bound = Some(fence),
            }
        }
    }

    /// Keys that split the tree into about `parts` ranges of similar size,
    /// taken from its upper levels (separators of the highest level that
    /// has enough of them). Sorted; may return fewer than `parts - 1`.
    pub fn split_points(&self, parts: usize) -> Result<Vec<Vec<u8>>> {
        retry(|| {
            let mut level_pids = vec![self.root];
            loop {
                let mut seps = Vec::new();
                let mut children = Vec::new();
                let mut lowest = false;
                for &pid in &level_pids {
                    let g = self.pool.optimistic(pid, waits::INNER_PAGE)?;
                    let n = NodeRef::new(g.page());
                    lowest |= n.level() <= 1;
                    if !n.is_leaf() {
                        for i in 0..n.count() {
                            seps.push(n.key(i));
                        }
                        for i in 0..=n.count() {
                            children.push(n.child_at(i));
                        }
                    }
                    g.validate()?;
                }
                if lowest || seps.len() + 1 >= parts {
                    if seps.len() < parts || parts <= 1 {
                        return Ok(seps);
                    }
                    // Thin the separators evenly down to parts - 1.
                    let step = seps.len() as f64 / parts as f64;
                    return Ok((1..parts)
                        .map(|i| seps[((i as f64 * step) as usize).min(seps.len() - 1)].clone())
                        .collect());
                }
                level_pids = children;
            }
        })
    }

    /// Estimated number of keys in `[start, end)` (`end = None`: to the
    /// end), from one descent per end: where each end falls, as a fraction
    /// of the tree (its child position on every level), times the size the
    /// fanouts on the way down suggest. Exact for a one-leaf tree; otherwise
    /// off by about the spread of node fill. Cost: two root-to-leaf reads.
    pub fn estimate_range(&self, start: &[u8], end: Option<&[u8]>) -> Result<u64> {
        let (lo, total) = self.position(start)?;
        let hi = match end {
            Some(e) => self.position(e)?.0,
            None => 1.0,
        };
        Ok(((hi - lo).max(0.0) * total).round() as u64)
    }

    /// Where `key` falls in the tree as a fraction in [0, 1], and the
    /// number of keys the fanouts along its path suggest.
    fn position(&self, key: &[u8]) -> Result<(f64, f64)> {
        retry(|| {
            let mut g = self.pool.optimistic(self.root, self.root_class())?;
            let (mut at, mut scale, mut total) = (0.0f64, 1.0f64, 1.0f64);
            for _ in 0..64 {
                let n = NodeRef::new(g.page());
                if n.is_leaf() {
                    let count = n.count();
                    let (pos, _) = n.lower_bound(key);
                    g.validate()?;
                    at += scale * pos.min(count) as f64 / count.max(1) as f64;
                    return Ok((at.min(1.0), total * count as f64));
                }
                let fanout = n.count() + 1;
                let i = n.upper_bound(key).min(fanout - 1);
                let child = n.child_at(i);
                g.validate()?;
                at += scale * i as f64 / fanout as f64;
                scale /= fanout as f64;
                total *= fanout as f64;
                g = self.pool.optimistic(child, waits::INNER_PAGE)?;
            }
            // Deeper than any real tree: a torn read; start again.
            Err(Interrupt::Restart)
        })
    }

    /// Counts the keys in `[start, end)` (`end = None`: to the end) without
    /// copying them: one descent and a binary search per leaf.
    pub fn count_range(&self, start: &[u8], end: Option<&[u8]>) -> Result<u64> {
        let mut key = start.to_vec();
        let mut total = 0u64;
        loop {
            let (n_in, next) = retry(|| {
                let g = self.find_leaf(&key, true)?;
                let n = NodeRef::new(g.page());
                let (from, _) = n.lower_bound(&key);
                let count = n.count();
                let (to, stop) = match end {
                    Some(e) if n.below_upper_fence(e) => (n.lower_bound(e).0, true),
                    _ => (count, n.upper_is_infinite()),
                };
                let next = if stop { None } else { n.upper_fence() };
                g.validate()?;
                Ok((to.saturating_sub(from) as u64, next))
            })?;
            total += n_in;
            match next {
                Some(k) => key = k,
                None => return Ok(total),
            }
        }
    }

    fn try_put(
        &self,
        key: &[u8],
        value: &[u8],
        txn: u64,
        accept: &mut dyn FnMut(Option<&[u8]>) -> bool,
    ) -> std::result::Result<PutOutcome, Interrupt> {
        let g = self.find_leaf(key, false)?;
        let mut x = g.upgrade()?;
        let mut n = NodeMut::new(x.page_mut());
        let (pos, found) = n.as_ref().lower_bound(key);
        let old = found.then(|| n.as_ref().value(pos));
        if !accept(old.as_deref()) {
            return Ok(PutOutcome::Refused);
        }
        if let Some(v) = &old {
            n.remove_at(pos);
            if !n.fits(key.len(), value.len()) {
                // Put back: the live contents are as before (only the heap
                // layout moved), so there is nothing to log.
                n.insert_at(pos, key, v);
                return Ok(PutOutcome::Full);
            }
        } else if !n.fits(key.len(), value.len()) {
            return Ok(PutOutcome::Full);
        }
        n.insert_at(pos, key, value);
        let mut redo = Redo::new(&self.pool);
        redo.put(&x, key, value);
        redo.undo(txn, self.root, key, old.as_deref());
        redo.finish(&self.pool, &mut [&mut x])?;
        Ok(PutOutcome::Done(old))
    }

    /// Removes `key` if its value satisfies `pred` (checked under the
    /// leaf's exclusive latch); true if removed. Not transactional: for
    /// removing records no reader can see any more.
    pub fn remove_if(&self, key: &[u8], pred: impl Fn(&[u8]) -> bool) -> Result<bool> {
        let page_size = self.pool.page_size();
        let (removed, underfull) = retry(|| {
            let g = self.find_leaf(key, false)?;
            let n = NodeRef::new(g.page());
            let (_, found) = n.lower_bound(key);
            g.validate()?;
            if !found {
                return Ok((false, false));
            }
            let mut x = g.upgrade()?;
            let mut n = NodeMut::new(x.page_mut());
            let (pos, found) = n.as_ref().lower_bound(key);
            if !found || !pred(&n.as_ref().value(pos)) {
                return Ok((false, false));
            }
            n.remove_at(pos);
            let mut redo = Redo::new(&self.pool);
            redo.remove(&x, key);
            redo.finish(&self.pool, &mut [&mut x])?;
            Ok((true, NodeRef::new(x.page()).used_space() < page_size / 4))
        })?;
        if underfull {
            self.merge_up(key)?;
        }
        Ok(removed)
    }

    /// Removes `key`. Returns true if it was there.
    pub fn remove(&self, key: &[u8]) -> Result<bool> {
        Ok(self.remove_tx(key, 0)?.is_some())
    }

    /// [`remove`](Self::remove) for transaction `txn` (0: none); returns the
    /// removed value.
    pub fn remove_tx(&self, key: &[u8], txn: u64) -> Result<Option<Vec<u8>>> {
        let page_size = self.pool.page_size();
        let (old, underfull) = retry(|| {
            let g = self.find_leaf(key, false)?;
            let mut x = g.upgrade()?;
            let mut n = NodeMut::new(x.page_mut());
            let (pos, found) = n.as_ref().lower_bound(key);
            let mut old = None;
            if found {
                let v = n.as_ref().value(pos);
                n.remove_at(pos);
                let mut redo = Redo::new(&self.pool);
                redo.remove(&x, key);
                redo.undo(txn, self.root, key, Some(&v));
                redo.finish(&self.pool, &mut [&mut x])?;
                old = Some(v);
            }
            Ok((old, NodeRef::new(x.page()).used_space() < page_size / 4))
        })?;
        if underfull {
            self.merge_up(key)?;
        }
        Ok(old)
    }

    /// Splits the node at `level` on the path to `key` (and, first, its
    /// parent if the parent has no room for the separator).
    fn split(&self, key: &[u8], level: u8) -> Result<()> {
        loop {
            match retry(|| self.try_split(key, level))? {
                None => return Ok(()),
                Some(parent_level) => self.split(key, parent_level)?,
            }
        }
    }

    /// `None` when split (or no longer needed); `Some(l)` when the parent at
    /// level `l` must be split first.
    fn try_split(&self, key: &[u8], level: u8) -> std::result::Result<Option<u8>, Interrupt> {
        let page_size = self.pool.page_size();
        let mut pg = self.pool.optimistic(self.root, self.root_class())?;
        let root_level = NodeRef::new(pg.page()).level();
        pg.validate()?;
        if root_level < level {
            return Ok(None);
        }
        if root_level == level {
            let x = pg.upgrade()?;
            self.split_root(x)?;
            return Ok(None);
        }
        loop {
            let n = NodeRef::new(pg.page());
            let lvl = n.level();
            let pos = n.upper_bound(key);
            let child = n.child_at(pos);
            pg.validate()?;
            let cg = self.pool.optimistic(child, waits::INNER_PAGE)?;
            pg.validate()?;
            if lvl != level + 1 {
                pg = cg;
                continue;
            }
            let mut px = pg.upgrade()?;
            let mut cx = cg.upgrade()?;
            let c = NodeRef::new(cx.page());
            if c.count() < 2 || c.free_space() + c.garbage() > page_size / 2 {
                return Ok(None); // someone else made room
            }
            let (left, right, sep) = split_images(page_size, &c);
            if !NodeMut::new(px.page_mut()).fits(sep.len(), 8) {
                return Ok(Some(level + 1));
            }
            let mut nx = self.allocate_node()?;
            NodeMut::new(nx.page_mut()).write_image(&right);
            NodeMut::new(cx.page_mut()).write_image(&left);
            let mut p = NodeMut::new(px.page_mut());
            p.set_child_at(pos, nx.pid());
            p.insert_at(pos, &sep, &cx.pid().to_ne_bytes());
            let mut redo = Redo::new(&self.pool);
            redo.image(&nx);
            redo.image(&cx);
            redo.link(&px, &sep, cx.pid(), nx.pid());
            redo.finish(&self.pool, &mut [&mut nx, &mut cx, &mut px])?;
            return Ok(None);
        }
    }

    /// Splits the root: its records move to two new children; the root
    /// becomes an inner node one level up, keeping its page id.
    fn split_root<'s>(&'s self, mut rx: lineardb_buffer::ExclusiveGuard<'s>) -> Result<()> {
        let page_size = self.pool.page_size();
        let r = NodeRef::new(rx.page());
        if r.count() < 2 {
            return Ok(());
        }
        let level = r.level();
        let (left, right, sep) = split_images(page_size, &r);
        let mut lx = self.allocate_node()?;
        let mut nx = self.allocate_node()?;
        NodeMut::new(lx.page_mut()).write_image(&left);
        NodeMut::new(nx.page_mut()).write_image(&right);
        let root = NodeImage::build(
            page_size,
            NodeHeader {
                leaf: false,
                level: level + 1,
                lower: None,
                upper: None,
                upper_child: nx.pid(),
            },
            std::iter::once((sep.as_slice(), lx.pid().to_ne_bytes().as_slice())),
        );
        NodeMut::new(rx.page_mut()).write_image(&root);
        self.note_root_kind(false);
        let mut redo = Redo::new(&self.pool);
        redo.image(&lx);
        redo.image(&nx);
        redo.image(&rx);
        redo.finish(&self.pool, &mut [&mut lx, &mut nx, &mut rx])
    }

    /// Merges underfull nodes on the path to `key`, level by level upwards,
    /// and shrinks the tree when the root is left with one child.
    fn merge_up(&self, key: &[u8]) -> Result<()> {
        let mut level = 0u8;
        loop {
            let merged = retry(|| self.try_merge(key, level))?;
            if !merged {
                break;
            }
            level += 1;
        }
        retry(|| self.try_collapse_root())
    }

    /// Merges the node at `level` on `key`'s path with a sibling if both fit
    /// in one page. Returns true if it merged and the parent is now underfull.
    fn try_merge(&self, key: &[u8], level: u8) -> std::result::Result<bool, Interrupt> {
        let page_size = self.pool.page_size();
        let mut pg = self.pool.optimistic(self.root, self.root_class())?;
        loop {
            let n = NodeRef::new(pg.page());
            let lvl = n.level();
            let count = n.count();
            let pos = n.upper_bound(key);
            if lvl <= level || n.is_leaf() {
                pg.validate()?;
                return Ok(false);
            }
            if lvl > level + 1 {
                let child = n.child_at(pos);
                pg.validate()?;
                let cg = self.pool.optimistic(child, waits::INNER_PAGE)?;
                pg.validate()?;
                pg = cg;
                continue;
            }
            if count == 0 {
                pg.validate()?;
                return Ok(false);
            }
            let lpos = if pos < count { pos } else { pos - 1 };
            let (lpid, rpid) = (n.child_at(lpos), n.child_at(lpos + 1));
            let sep = n.key(lpos);
            pg.validate()?;
            let lg = self.pool.optimistic(lpid, waits::INNER_PAGE)?;
            let rg = self.pool.optimistic(rpid, waits::INNER_PAGE)?;
            pg.validate()?;
            let mut px = pg.upgrade()?;
            let lx = lg.upgrade()?;
            let mut rx = rg.upgrade()?;
            let (l, r) = (NodeRef::new(lx.page()), NodeRef::new(rx.page()));
            if l.used_space() + r.used_space() + sep.len() + 32 > page_size * 3 / 4 {
                return Ok(false);
            }
            let mut entries = l.entries();
            let sep_key = sep.clone();
            if !l.is_leaf() {
                entries.push((sep, l.upper_child().to_ne_bytes().to_vec()));
            }
            entries.extend(r.entries());
            let h = NodeHeader {
                leaf: l.is_leaf(),
                level: l.level(),
                lower: l.lower_fence(),
                upper: r.upper_fence(),
                upper_child: r.upper_child(),
            };
            let kv = || entries.iter().map(|(k, v)| (k.as_slice(), v.as_slice()));
            if !NodeImage::fits(page_size, &h, kv()) {
                return Ok(false);
            }
            let img = NodeImage::build(page_size, h, kv());
            NodeMut::new(rx.page_mut()).write_image(&img);
            let mut p = NodeMut::new(px.page_mut());
            p.remove_at(lpos);
            let underfull = p.as_ref().used_space() < page_size / 4;
            let mut redo = Redo::new(&self.pool);
            redo.image(&rx);
            redo.remove(&px, &sep_key);
            redo.free(lx.pid());
            redo.finish(&self.pool, &mut [&mut rx, &mut px])?;
            self.pool.free_page(lx);
            return Ok(underfull);
        }
    }

    /// If the root is an inner node with a single child, moves the child's
    /// records into the root and frees the child.
    fn try_collapse_root(&self) -> std::result::Result<(), Interrupt> {
        let rg = self.pool.optimistic(self.root, self.root_class())?;
        let r = NodeRef::new(rg.page());
        if r.is_leaf() || r.count() > 0 {
            rg.validate()?;
            return Ok(());
        }
        let child = r.upper_child();
        rg.validate()?;
        let cg = self.pool.optimistic(child, waits::INNER_PAGE)?;
        rg.validate()?;
        let mut rx = rg.upgrade()?;
        let cx = cg.upgrade()?;
        let c = NodeRef::new(cx.page());
        let img = NodeImage::build(
            self.pool.page_size(),
            NodeHeader::of(&c),
            c.entries()
                .iter()
                .map(|(k, v)| (k.as_slice(), v.as_slice())),
        );
        NodeMut::new(rx.page_mut()).write_image(&img);
        self.note_root_kind(c.is_leaf());
        let mut redo = Redo::new(&self.pool);
        redo.image(&rx);
        redo.free(cx.pid());
        redo.finish(&self.pool, &mut [&mut rx])?;
        self.pool.free_page(cx);
        Ok(())
    }

    /// Height of the tree (1 = the root is a leaf).
    pub fn height(&self) -> Result<usize> {
        retry(|| {
            let g = self.pool.optimistic(self.root, self.root_class())?;
            let level = NodeRef::new(g.page()).level();
            g.validate()?;
            Ok(level as usize + 1)
        })
    }

    /// Walks the whole tree under exclusive latches (no concurrent writers
    /// expected) and checks its invariants: sorted keys, keys inside fences,
    /// children's fences equal to the parent's separators, uniform depth.
    /// Returns the number of entries.
    pub fn check(&self) -> Result<u64> {
        self.check_node(self.root, None, None, None)
    }

    fn check_node(
        &self,
        pid: PageId,
        lower: Option<&[u8]>,
        upper: Option<&[u8]>,
        expect_level: Option<u8>,
    ) -> Result<u64> {
        let corrupt = |reason: String| Error::Corrupt { page: pid, reason };
        let (h, entries) = {
            let g = self
                .pool
                .exclusive(pid, waits::INNER_PAGE)
                .map_err(interrupt_to_error)?;
            let n = NodeRef::new(g.page());
            (NodeHeader::of(&n), n.entries())
        };
        if let Some(l) = expect_level {
            if h.level != l {
                return Err(corrupt(format!("level {} expected {l}", h.level)));
            }
        }
        if h.lower.as_deref() != lower || h.upper.as_deref() != upper {
            return Err(corrupt("fences differ from the parent's separators".into()));
        }
        for w in entries.windows(2) {
            if w[0].0 >= w[1].0 {
                return Err(corrupt("keys out of order".into()));
            }
        }
        for (k, _) in &entries {
            if lower.is_some_and(|l| k.as_slice() < l) || upper.is_some_and(|u| k.as_slice() >= u) {
                return Err(corrupt("key outside the fences".into()));
            }
        }
        if h.leaf {
            return Ok(entries.len() as u64);
        }
        let mut total = 0;
        let mut lo = lower.map(|l| l.to_vec());
        for (k, v) in &entries {
            let child = u64::from_ne_bytes(
                v.as_slice()
                    .try_into()
                    .map_err(|_| corrupt("bad child".into()))?,
            );
            total += self.check_node(child, lo.as_deref(), Some(k), Some(h.level - 1))?;
            lo = Some(k.clone());
        }
        total += self.check_node(h.upper_child, lo.as_deref(), upper, Some(h.level - 1))?;
        Ok(total)
    }
}

/// Splits a node's records in two halves of about equal bytes. Returns the
/// left image (keeps the page), the right image (new page) and the separator.
fn split_images(page_size: usize, n: &NodeRef<'_>) -> (NodeImage, NodeImage, Vec<u8>) {
    let h = NodeHeader::of(n);
    let entries = n.entries();
    let total: usize = entries
        .iter()
        .map(|(k, v)| entry_space(k.len(), v.len()))
        .sum();
    let mut acc = 0;
    let mut mid = entries.len() / 2;
    for (i, (k, v)) in entries.iter().enumerate() {
        acc += entry_space(k.len(), v.len());
        if acc >= total / 2 {
            mid = i + 1;
            break;
        }
    }
    let mid = mid.clamp(1, entries.len() - 1);
    fn kv(s: &[(Vec<u8>, Vec<u8>)]) -> Vec<(&[u8], &[u8])> {
        s.iter()
            .map(|(k, v)| (k.as_slice(), v.as_slice()))
            .collect()
    }
    if h.leaf {
        let sep = separator(&entries[mid - 1].0, &entries[mid].0);
        let left = NodeImage::build(
            page_size,
            NodeHeader::leaf(h.lower.clone(), Some(sep.clone())),
            kv(&entries[..mid]).into_iter(),
        );
        let right = NodeImage::build(
            page_size,
            NodeHeader::leaf(Some(sep.clone()), h.upper.clone()),
            kv(&entries[mid..]).into_iter(),
        );
        (left, right, sep)
    } else {
        let sep = entries[mid].0.clone();
        let pulled_child =
            u64::from_ne_bytes(entries[mid].1.as_slice().try_into().unwrap_or([0; 8]));
        let left = NodeImage::build(
            page_size,
            NodeHeader {
                leaf: false,
                level: h.level,
                lower: h.lower.clone(),
                upper: Some(sep.clone()),
                upper_child: pulled_child,
            },
            kv(&entries[..mid]).into_iter(),
        );
        let right = NodeImage::build(
            page_size,
            NodeHeader {
                leaf: false,
                level: h.level,
                lower: Some(sep.clone()),
                upper: h.upper.clone(),
                upper_child: h.upper_child,
            },
            kv(&entries[mid + 1..]).into_iter(),
        );
        (left, right, sep)
    }
}

/// What one attempt of a put did.
enum PutOutcome {
    /// Made; the replaced value.
    Done(Option<Vec<u8>>),
    /// The caller's check said no.
    Refused,
    /// The leaf has no room: split, then try again.
    Full,
}

/// Writes the owning tree's id into a node page's header (bytes 4..8, which
/// node images never overwrite).
fn stamp_tree(g: &mut lineardb_buffer::ExclusiveGuard<'_>, tree: PageId) {
    g.page_mut().set_u32(crate::node::TREE_ID, tree as u32);
}

/// Runs an optimistic operation until it does not restart. After a few
/// restarts in a row it yields, so a writer descheduled mid-update can finish.
#[inline]
pub(crate) fn retry<T>(mut op: impl FnMut() -> std::result::Result<T, Interrupt>) -> Result<T> {
    let mut restarts = 0u32;
    loop {
        match op() {
            Ok(v) => return Ok(v),
            Err(Interrupt::Error(e)) => return Err(e),
            Err(Interrupt::Restart) => {
                restarts += 1;
                if restarts > 4 {
                    std::thread::yield_now();
                } else {
                    std::hint::spin_loop();
                }
            }
        }
    }
}

/// Counts records copied out of leaves (this thread's slot: one load and
/// one store to its own line, per lookup or per batch).
#[inline]
pub(crate) fn count_copied(n: u64) {
    lineardb_sync::thread_slot::count(lineardb_sync::Counter::RecordsCopied, n);
}
