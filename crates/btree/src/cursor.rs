//! Restartable batch range cursor.
//!
//! Each call copies up to `max` entries out of one leaf into the cursor's
//! batch, then validates the leaf once. If the leaf changed meanwhile the copy
//! is dropped and redone; nothing is shared or written. The position to go on
//! from is a key (the last one returned, exclusive, or the leaf's upper fence,
//! inclusive), so the cursor never holds a page between calls and resumes
//! correctly whatever splits or merges happened.
use crate::node::NodeRef;
use crate::tree::BTree;
use lineardb_buffer::{Interrupt, Result};

/// Entries copied out of the tree, valid until the next call.
#[derive(Default)]
pub struct Batch {
    data: Vec<u8>,
    /// (offset in data, key length, value length); the value comes first.
    entries: Vec<(u32, u32, u32)>,
}

impl Batch {
    pub fn len(&self) -> usize {
        self.entries.len()
    }
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }
    #[inline]
    pub fn key(&self, i: usize) -> &[u8] {
        let (off, kl, vl) = self.entries[i];
        &self.data[(off + vl) as usize..(off + vl + kl) as usize]
    }
    #[inline]
    pub fn value(&self, i: usize) -> &[u8] {
        let (off, _, vl) = self.entries[i];
        &self.data[off as usize..(off + vl) as usize]
    }
    pub fn iter(&self) -> impl Iterator<Item = (&[u8], &[u8])> + '_ {
        (0..self.len()).map(|i| (self.key(i), self.value(i)))
    }
    fn clear(&mut self) {
        self.data.clear();
        self.entries.clear();
    }
}

pub struct Cursor<'t> {
    tree: &'t BTree,
    key: Vec<u8>,
    inclusive: bool,
    done: bool,
    next_key: Vec<u8>,
    batch: Batch,
}

impl<'t> Cursor<'t> {
    /// A cursor at the first key `>= start`.
    pub fn new(tree: &'t BTree, start: &[u8]) -> Self {
        Cursor {
            tree,
            key: start.to_vec(),
            inclusive: true,
            done: false,
            next_key: Vec::new(),
            batch: Batch::default(),
        }
    }

    /// Moves the cursor to the first key `>= start`.
    pub fn seek(&mut self, start: &[u8]) {
        self.key.clear();
        self.key.extend_from_slice(start);
        self.inclusive = true;
        self.done = false;
    }

    /// The next up to `max` entries in key order (from one leaf); empty at
    /// the end of the tree.
    pub fn next_batch(&mut self, max: usize) -> Result<&Batch> {
        self.batch.clear();
        while !self.done {
            let r = self.fill(max.max(1));
            match r {
                Ok(()) if !self.batch.is_empty() => break,
                Ok(()) => continue, // an empty leaf: go on from its upper fence
                Err(Interrupt::Restart) => {
                    self.batch.clear();
                    std::hint::spin_loop();
                }
                Err(Interrupt::Error(e)) => return Err(e),
            }
        }
        Ok(&self.batch)
    }

    fn fill(&mut self, max: usize) -> std::result::Result<(), Interrupt> {
        let g = self.tree.find_leaf(&self.key, true)?;
        let n = NodeRef::new(g.page());
        let (mut pos, found) = n.lower_bound(&self.key);
        if found && !self.inclusive {
            pos += 1;
        }
        let count = n.count();
        let end = (pos + max).min(count);
        for i in pos..end {
            let off = self.batch.data.len() as u32;
            let (kl, vl) = n.append_record(i, &mut self.batch.data);
            self.batch.entries.push((off, kl as u32, vl as u32));
        }
        self.next_key.clear();
        let (inclusive, done);
        if end < count {
            n.append_key(end - 1, &mut self.next_key);
            inclusive = false;
            done = false;
        } else if n.upper_is_infinite() {
            inclusive = true;
            done = true;
        } else {
            n.append_upper_fence(&mut self.next_key);
            inclusive = true;
            done = false;
        }
        g.validate()?;
        crate::tree::count_copied((end - pos) as u64);
        std::mem::swap(&mut self.key, &mut self.next_key);
        self.inclusive = inclusive;
        self.done = done;
        Ok(())
    }
}

impl BTree {
    /// A cursor at the first key `>= start`.
    pub fn cursor(&self, start: &[u8]) -> Cursor<'_> {
        Cursor::new(self, start)
    }

    /// Calls `f` on entries from the first key `>= start` in order until it
    /// returns false or the tree ends.
    pub fn scan(&self, start: &[u8], mut f: impl FnMut(&[u8], &[u8]) -> bool) -> Result<()> {
        let mut c = self.cursor(start);
        loop {
            let b = c.next_batch(256)?;
            if b.is_empty() {
                return Ok(());
            }
            for (k, v) in b.iter() {
                if !f(k, v) {
                    return Ok(());
                }
            }
        }
    }
}
