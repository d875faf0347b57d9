//! Bottom-up bulk build from sorted input: leaves are filled left to right,
//! then each inner level is built over the one below; the top node is moved
//! into the tree's root page so the tree keeps its id.
use crate::interrupt::interrupt_to_error;
use crate::node::{entry_space, separator, NodeHeader, NodeImage, NodeMut, NodeRef};
use crate::redo::Redo;
use crate::tree::BTree;
use crate::waits;
use lineardb_buffer::{Error, PageId, Result};

/// The records of a leaf being built: (key offset, key length, value
/// length) into `data`, where each key is followed by its value.
fn flat_records<'a>(
    data: &'a [u8],
    recs: &'a [(u32, u32, u32)],
) -> impl Iterator<Item = (&'a [u8], &'a [u8])> {
    recs.iter().map(move |&(o, kl, vl)| {
        let (o, kl, vl) = (o as usize, kl as usize, vl as usize);
        (&data[o..o + kl], &data[o + kl..o + kl + vl])
    })
}

/// Leaves built for one part of a bulk load.
#[derive(Default)]
struct Leaves {
    pids: Vec<PageId>,
    /// Separators between consecutive leaves.
    seps: Vec<Vec<u8>>,
    entries: u64,
}

/// Share of a page bulk-built nodes fill, leaving room for later inserts.
pub const BULK_FILL: f64 = 0.92;

impl BTree {
    /// Loads entries given in strictly ascending key order into this tree,
    /// which must be empty and not used by anyone else meanwhile. Returns the
    /// number of entries.
    pub fn bulk_load<K, V>(&self, entries: impl IntoIterator<Item = (K, V)>) -> Result<u64>
    where
        K: AsRef<[u8]>,
        V: AsRef<[u8]>,
    {
        self.check_empty()?;
        let leaves = self.build_leaves(entries, None, None)?;
        self.finish(vec![leaves], &[])
    }

    /// Like [`BTree::bulk_load`], with the input cut into parts at
    /// `splitters` (strictly ascending keys): part `i` holds the keys in
    /// `[splitters[i-1], splitters[i])` (a part may be empty). Leaves of the
    /// parts are built by
    /// `threads` workers at once; the inner levels after.
    pub fn bulk_load_parts<I, K, V>(
        &self,
        parts: Vec<I>,
        splitters: &[Vec<u8>],
        threads: usize,
    ) -> Result<u64>
    where
        I: IntoIterator<Item = (K, V)> + Send,
        K: AsRef<[u8]>,
        V: AsRef<[u8]>,
    {
        if parts.len() != splitters.len() + 1 {
            return Err(Error::Invalid(
                "bulk load: parts and splitters do not match".into(),
            ));
        }
        self.check_empty()?;
        let n = parts.len();
        let jobs: Vec<lineardb_sync::Mutex<Option<I>>> = parts
            .into_iter()
            .map(|p| lineardb_sync::Mutex::new(Some(p)))
            .collect();
        let results: Vec<lineardb_sync::Mutex<Option<Result<Leaves>>>> =
            (0..n).map(|_| lineardb_sync::Mutex::new(None)).collect();
        // Next part to build: written once per part.
        let next = lineardb_sync::SharedWord::new(0);
        std::thread::scope(|s| {
            for _ in 0..threads.max(1).min(n) {
                s.spawn(|| loop {
                    let i = next.fetch_add(1) as usize;
                    if i >= n {
                        return;
                    }
                    let part = jobs[i].lock().take().expect("each part is taken once");
                    let lower = (i > 0).then(|| splitters[i - 1].clone());
                    let upper = splitters.get(i).cloned();
                    *results[i].lock() = Some(self.build_leaves(part, lower, upper));
                });
            }
        });
        let mut all = Vec::with_capacity(n);
        for r in results {
            all.push(r.into_inner().expect("every part was built")?);
        }
        self.finish(all, splitters)
    }

    fn check_empty(&self) -> Result<()> {
        let g = self
            .pool
            .exclusive(self.root, waits::INNER_PAGE)
            .map_err(interrupt_to_error)?;
        let r = NodeRef::new(g.page());
        if !r.is_leaf() || r.count() > 0 {
            return Err(Error::Invalid("bulk load needs an empty tree".into()));
        }
        Ok(())
    }

    /// Builds the leaves for ascending `entries` covering `[lower, upper)`.
    fn build_leaves<K, V>(
        &self,
        entries: impl IntoIterator<Item = (K, V)>,
        lower: Option<Vec<u8>>,
        upper: Option<Vec<u8>>,
    ) -> Result<Leaves>
    where
        K: AsRef<[u8]>,
        V: AsRef<[u8]>,
    {
        let page_size = self.pool.page_size();
        let budget = (page_size as f64 * BULK_FILL) as usize;
        let fence_room = 2 * (8 + self.max_key_len());
        let mut out = Leaves::default();
        // The current leaf's records, flat: (key offset, key len, value len).
        let mut data: Vec<u8> = Vec::new();
        let mut recs: Vec<(u32, u32, u32)> = Vec::new();
        let mut used = 0usize;
        let mut lower = lower;
        let key_of =
            |r: &(u32, u32, u32)| -> std::ops::Range<usize> { r.0 as usize..(r.0 + r.1) as usize };
        for (k, v) in entries {
            let (k, v) = (k.as_ref(), v.as_ref());
            if k.len() > self.max_key_len() || k.len() + v.len() > self.max_entry_len() {
                return Err(Error::TooLarge {
                    size: k.len() + v.len(),
                    max: self.max_entry_len(),
                });
            }
            if let Some(last) = recs.last() {
                if &data[key_of(last)] >= k {
                    return Err(Error::Invalid(
                        "bulk load input is not strictly ascending".into(),
                    ));
                }
            }
            let need = entry_space(k.len(), v.len());
            if !recs.is_empty() && crate::node::SLOTS + fence_room + used + need > budget {
                let sep = separator(&data[key_of(recs.last().unwrap())], k);
                let h = NodeHeader::leaf(lower.take(), Some(sep.clone()));
                out.pids
                    .push(self.write_new_node(h, flat_records(&data, &recs))?);
                out.seps.push(sep.clone());
                lower = Some(sep);
                data.clear();
                recs.clear();
                used = 0;
            }
            used += need;
            recs.push((data.len() as u32, k.len() as u32, v.len() as u32));
            data.extend_from_slice(k);
            data.extend_from_slice(v);
            out.entries += 1;
        }
        // The last leaf (possibly empty, for an empty part) closes at the
        // part's upper bound.
        out.pids
            .push(self.write_new_node(NodeHeader::leaf(lower, upper), flat_records(&data, &recs))?);
        Ok(out)
    }

    /// Joins the leaves of the parts (separated by `splitters`), builds the
    /// inner levels and moves the top node into the root.
    fn finish(&self, parts: Vec<Leaves>, splitters: &[Vec<u8>]) -> Result<u64> {
        let total: u64 = parts.iter().map(|p| p.entries).sum();
        if total == 0 {
            for p in parts {
                for pid in p.pids {
                    self.free_page(pid)?;
                }
            }
            return Ok(0);
        }
        let budget = (self.pool.page_size() as f64 * BULK_FILL) as usize;
        let mut children = Vec::new();
        let mut seps = Vec::new();
        for (i, p) in parts.into_iter().enumerate() {
            if i > 0 {
                seps.push(splitters[i - 1].clone());
            }
            children.extend(p.pids);
            seps.extend(p.seps);
        }
        let mut built = children.clone();
        let mut level = 0u8;
        while children.len() > 1 {
            level += 1;
            (children, seps) = self.build_inner_level(level, &children, &seps, budget)?;
            built.extend_from_slice(&children);
        }
        if self.pool.log().is_some() {
            // The new pages are not logged one by one: they reach the file
            // (synced) before the record that links them into the root.
            self.pool.flush()?;
            self.pool.sync()?;
        }
        self.move_into_root(children[0], &built)?;
        Ok(total)
    }

    /// Writes a node with these records into a new page of this tree.
    fn write_new_node<'k>(
        &self,
        h: NodeHeader,
        entries: impl Iterator<Item = (&'k [u8], &'k [u8])>,
    ) -> Result<PageId> {
        let img = NodeImage::build(self.pool.page_size(), h, entries);
        let mut g = self.allocate_node()?;
        NodeMut::new(g.page_mut()).write_image(&img);
        Ok(g.pid())
    }

    /// Builds one inner level over `children` separated by `seps`
    /// (`seps[i]` lies between `children[i]` and `children[i + 1]`).
    fn build_inner_level(
        &self,
        level: u8,
        children: &[PageId],
        seps: &[Vec<u8>],
        budget: usize,
    ) -> Result<(Vec<PageId>, Vec<Vec<u8>>)> {
        let fence_room = 2 * (8 + self.max_key_len());
        let mut nodes = Vec::new();
        let mut up_seps = Vec::new();
        let mut start = 0usize;
        while start < children.len() {
            // Take children start..=end while their separators fit.
            let mut end = start;
            let mut used = crate::node::SLOTS + fence_room;
            while end + 1 < children.len() {
                let need = entry_space(seps[end].len(), 8);
                if used + need > budget && end > start {
                    break;
                }
                used += need;
                end += 1;
            }
            // Avoid a last node with a single child when it can be helped.
            if end + 1 == children.len() - 1 && end > start + 1 {
                end -= 1;
            }
            let entries: Vec<(Vec<u8>, Vec<u8>)> = (start..end)
                .map(|i| (seps[i].clone(), children[i].to_ne_bytes().to_vec()))
                .collect();
            let h = NodeHeader {
                leaf: false,
                level,
                lower: (start > 0).then(|| seps[start - 1].clone()),
                upper: (end + 1 < children.len()).then(|| seps[end].clone()),
                upper_child: children[end],
            };
            nodes.push(
                self.write_new_node(h, entries.iter().map(|(k, v)| (k.as_slice(), v.as_slice())))?,
            );
            if end + 1 < children.len() {
                up_seps.push(seps[end].clone());
            }
            start = end + 1;
        }
        Ok((nodes, up_seps))
    }

    /// Copies node `pid` into the root page and frees `pid`; logs the pages
    /// of the build (`built`) as in use.
    fn move_into_root(&self, pid: PageId, built: &[PageId]) -> Result<()> {
        let g = self
            .pool
            .exclusive(pid, waits::INNER_PAGE)
            .map_err(interrupt_to_error)?;
        let n = NodeRef::new(g.page());
        let img = NodeImage::build(
            self.pool.page_size(),
            NodeHeader::of(&n),
            n.entries()
                .iter()
                .map(|(k, v)| (k.as_slice(), v.as_slice())),
        );
        let mut root = self
            .pool
            .exclusive(self.root, waits::INNER_PAGE)
            .map_err(interrupt_to_error)?;
        NodeMut::new(root.page_mut()).write_image(&img);
        self.note_root_kind(NodeRef::new(root.page()).is_leaf());
        let mut redo = Redo::new(&self.pool);
        for &b in built.iter().filter(|&&b| b != pid) {
            redo.alloc(b);
        }
        redo.free(pid);
        redo.image(&root);
        redo.finish(&self.pool, &mut [&mut root])?;
        drop(root);
        self.pool.free_page(g);
        Ok(())
    }

    /// Frees a page of this tree, logging it first.
    fn free_page(&self, pid: PageId) -> Result<()> {
        let g = self
            .pool
            .exclusive(pid, waits::INNER_PAGE)
            .map_err(interrupt_to_error)?;
        self.free_held(g)
    }

    /// Frees a page held exclusively: logs FREE, then returns it to the
    /// pool's free list (in that order, so a checkpoint never lists a page
    /// free whose freeing is not in the log).
    fn free_held(&self, g: lineardb_buffer::ExclusiveGuard<'_>) -> Result<()> {
        let mut redo = Redo::new(&self.pool);
        redo.free(g.pid());
        redo.finish(&self.pool, &mut [])?;
        self.pool.free_page(g);
        Ok(())
    }

    /// Frees every page of the tree, the root included. Nobody may use the
    /// tree meanwhile or after.
    pub fn destroy(self) -> Result<()> {
        let mut stack = vec![self.root];
        while let Some(pid) = stack.pop() {
            let g = self
                .pool
                .exclusive(pid, waits::INNER_PAGE)
                .map_err(interrupt_to_error)?;
            let n = NodeRef::new(g.page());
            if !n.is_leaf() {
                for i in 0..=n.count() {
                    stack.push(n.child_at(i));
                }
            }
            self.free_held(g)?;
        }
        Ok(())
    }
}
