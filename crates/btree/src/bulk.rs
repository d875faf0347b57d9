//! Bottom-up bulk build from sorted input: leaves are filled left to right,
//! then each inner level is built over the one below; the top node is moved
//! into the tree's root page so the tree keeps its id.
use crate::node::{entry_space, separator, NodeHeader, NodeImage, NodeMut, NodeRef};
use crate::tree::{interrupt_to_error, BTree};
use lineardb_buffer::{Error, PageId, Result};
use lineardb_sync::WaitClass;

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
        let page_size = self.pool.page_size();
        {
            let g = self
                .pool
                .exclusive(self.root, WaitClass::TreeInner)
                .map_err(interrupt_to_error)?;
            let r = NodeRef::new(g.page());
            if !r.is_leaf() || r.count() > 0 {
                return Err(Error::Invalid("bulk load needs an empty tree".into()));
            }
        }
        let budget = (page_size as f64 * BULK_FILL) as usize;
        let fence_room = 8 + self.max_key_len();
        let mut children: Vec<PageId> = Vec::new();
        let mut seps: Vec<Vec<u8>> = Vec::new();
        let mut current: Vec<(Vec<u8>, Vec<u8>)> = Vec::new();
        let mut used = 0usize;
        let mut lower: Option<Vec<u8>> = None;
        let mut total = 0u64;
        for (k, v) in entries {
            let (k, v) = (k.as_ref(), v.as_ref());
            if k.len() > self.max_key_len() || k.len() + v.len() > self.max_entry_len() {
                return Err(Error::TooLarge {
                    size: k.len() + v.len(),
                    max: self.max_entry_len(),
                });
            }
            if let Some((last, _)) = current.last() {
                if last.as_slice() >= k {
                    return Err(Error::Invalid(
                        "bulk load input is not strictly ascending".into(),
                    ));
                }
            }
            let need = entry_space(k.len(), v.len());
            let fixed = NodeImage::fixed_space(&NodeHeader::leaf(lower.clone(), None)) + fence_room;
            if !current.is_empty() && fixed + used + need > budget {
                let sep = separator(&current.last().unwrap().0, k);
                let h = NodeHeader::leaf(lower.take(), Some(sep.clone()));
                children.push(self.write_new_node(h, &current)?);
                seps.push(sep.clone());
                lower = Some(sep);
                current.clear();
                used = 0;
            }
            used += need;
            current.push((k.to_vec(), v.to_vec()));
            total += 1;
        }
        if total == 0 {
            return Ok(0);
        }
        children.push(self.write_new_node(NodeHeader::leaf(lower, None), &current)?);
        let mut level = 0u8;
        while children.len() > 1 {
            level += 1;
            (children, seps) = self.build_inner_level(level, &children, &seps, budget)?;
        }
        self.move_into_root(children[0])?;
        Ok(total)
    }

    fn write_new_node(&self, h: NodeHeader, entries: &[(Vec<u8>, Vec<u8>)]) -> Result<PageId> {
        let img = NodeImage::build(
            self.pool.page_size(),
            h,
            entries.iter().map(|(k, v)| (k.as_slice(), v.as_slice())),
        );
        let mut g = self.pool.allocate()?;
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
            nodes.push(self.write_new_node(h, &entries)?);
            if end + 1 < children.len() {
                up_seps.push(seps[end].clone());
            }
            start = end + 1;
        }
        Ok((nodes, up_seps))
    }

    /// Copies node `pid` into the root page and frees `pid`.
    fn move_into_root(&self, pid: PageId) -> Result<()> {
        let g = self
            .pool
            .exclusive(pid, WaitClass::TreeInner)
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
            .exclusive(self.root, WaitClass::TreeInner)
            .map_err(interrupt_to_error)?;
        NodeMut::new(root.page_mut()).write_image(&img);
        drop(root);
        g.free();
        Ok(())
    }

    /// Frees every page of the tree, the root included. Nobody may use the
    /// tree meanwhile or after.
    pub fn destroy(self) -> Result<()> {
        let mut stack = vec![self.root];
        while let Some(pid) = stack.pop() {
            let g = self
                .pool
                .exclusive(pid, WaitClass::TreeInner)
                .map_err(interrupt_to_error)?;
            let n = NodeRef::new(g.page());
            if !n.is_leaf() {
                for i in 0..=n.count() {
                    stack.push(n.child_at(i));
                }
            }
            g.free();
        }
        Ok(())
    }
}
