//! A data file holding many trees. The directory is itself a B+tree whose
//! root is page 1: it maps a tree's name to its root page id.
use crate::tree::BTree;
use lineardb_buffer::{BufferPool, Error, PoolConfig, Result};
use std::path::Path;
use std::sync::Arc;

const DIRECTORY_ROOT: u64 = 1;

pub struct Store {
    pool: Arc<BufferPool>,
    directory: BTree,
}

impl Store {
    /// Creates a new data file at `path`.
    pub fn create(path: &Path, cfg: PoolConfig) -> Result<Store> {
        let pool = Arc::new(BufferPool::create(path, cfg)?);
        let directory = BTree::create(pool.clone())?;
        if directory.root() != DIRECTORY_ROOT {
            return Err(Error::Invalid("directory root is not page 1".into()));
        }
        Ok(Store { pool, directory })
    }

    /// Opens an existing data file.
    pub fn open(path: &Path, cfg: PoolConfig) -> Result<Store> {
        let pool = Arc::new(BufferPool::open(path, cfg)?);
        let directory = BTree::open(pool.clone(), DIRECTORY_ROOT);
        Ok(Store { pool, directory })
    }

    /// Opens `path`, creating it if it does not exist.
    pub fn open_or_create(path: &Path, cfg: PoolConfig) -> Result<Store> {
        if path.exists() {
            Self::open(path, cfg)
        } else {
            Self::create(path, cfg)
        }
    }

    pub fn pool(&self) -> &Arc<BufferPool> {
        &self.pool
    }

    /// Creates an empty tree named `name`.
    pub fn create_tree(&self, name: &str) -> Result<BTree> {
        if self.directory.get(name.as_bytes())?.is_some() {
            return Err(Error::Invalid(format!("tree {name:?} exists")));
        }
        let tree = BTree::create(self.pool.clone())?;
        self.directory
            .put(name.as_bytes(), &tree.root().to_le_bytes())?;
        Ok(tree)
    }

    /// The tree named `name`, if any.
    pub fn open_tree(&self, name: &str) -> Result<Option<BTree>> {
        Ok(self.directory.get(name.as_bytes())?.map(|v| {
            let root = u64::from_le_bytes(v.as_slice().try_into().unwrap_or([0; 8]));
            BTree::open(self.pool.clone(), root)
        }))
    }

    /// Removes the tree named `name` and frees its pages.
    pub fn drop_tree(&self, name: &str) -> Result<bool> {
        match self.open_tree(name)? {
            Some(t) => {
                self.directory.remove(name.as_bytes())?;
                t.destroy()?;
                Ok(true)
            }
            None => Ok(false),
        }
    }

    /// Names of all trees, sorted.
    pub fn tree_names(&self) -> Result<Vec<String>> {
        let mut names = Vec::new();
        self.directory.scan(b"", |k, _| {
            names.push(String::from_utf8_lossy(k).into_owned());
            true
        })?;
        Ok(names)
    }

    /// Flushes every page and syncs the file. Also done on drop.
    pub fn close(&self) -> Result<()> {
        self.pool.close()
    }
}
