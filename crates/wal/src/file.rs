//! The log's file, behind a trait so that tests can make it fail: a sync
//! that fails, a write that stops half way, a full disk.
pub use lineardb_buffer::FaultPlan;
use std::fs::File;
use std::io;
use std::os::unix::fs::FileExt;
use std::sync::Arc;

/// What the log needs from its file. Writes and syncs come from one thread
/// at a time (the flush lock's holder).
// `len` is a file size, not a collection.
#[allow(clippy::len_without_is_empty)]
pub trait LogFile: Send + Sync {
    fn read_at(&self, buf: &mut [u8], offset: u64) -> io::Result<usize>;
    fn write_all_at(&self, buf: &[u8], offset: u64) -> io::Result<()>;
    /// Makes written data durable (fdatasync).
    fn sync(&self) -> io::Result<()>;
    fn len(&self) -> io::Result<u64>;
    fn set_len(&self, len: u64) -> io::Result<()>;
    /// Frees the disk blocks of `len` bytes at `offset` (they read as
    /// zeros); the file keeps its size. A no-op where unsupported.
    fn punch_hole(&self, _offset: u64, _len: u64) -> io::Result<()> {
        Ok(())
    }
}

/// A plain file.
pub struct OsFile(pub File);

impl OsFile {
    /// Opens `path` to read and write, creating it if missing and keeping
    /// what it holds.
    pub fn open(path: &std::path::Path) -> io::Result<OsFile> {
        let file = std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(path)?;
        Ok(OsFile(file))
    }
}

impl LogFile for OsFile {
    fn read_at(&self, buf: &mut [u8], offset: u64) -> io::Result<usize> {
        self.0.read_at(buf, offset)
    }
    fn write_all_at(&self, buf: &[u8], offset: u64) -> io::Result<()> {
        self.0.write_all_at(buf, offset)
    }
    fn sync(&self) -> io::Result<()> {
        self.0.sync_data()
    }
    fn len(&self) -> io::Result<u64> {
        Ok(self.0.metadata()?.len())
    }
    fn set_len(&self, len: u64) -> io::Result<()> {
        self.0.set_len(len)
    }
    fn punch_hole(&self, offset: u64, len: u64) -> io::Result<()> {
        use std::os::unix::io::AsRawFd;
        // SAFETY: fallocate on a descriptor this File owns, with plain
        // integer arguments; it touches no memory of ours.
        let r = unsafe {
            libc::fallocate(
                self.0.as_raw_fd(),
                libc::FALLOC_FL_PUNCH_HOLE | libc::FALLOC_FL_KEEP_SIZE,
                offset as libc::off_t,
                len as libc::off_t,
            )
        };
        if r == 0 {
            return Ok(());
        }
        let e = io::Error::last_os_error();
        match e.raw_os_error() {
            // File systems without hole punching keep the bytes.
            Some(libc::EOPNOTSUPP) | Some(libc::ENOSYS) => Ok(()),
            _ => Err(e),
        }
    }
}

/// A file that fails on demand (see [`FaultPlan`]).
pub struct FaultyFile<F> {
    pub inner: F,
    pub plan: Arc<FaultPlan>,
}

impl FaultyFile<OsFile> {
    /// The file at `path` (see [`OsFile::open`]) failing as `plan` says.
    pub fn open(path: &std::path::Path, plan: &Arc<FaultPlan>) -> io::Result<Self> {
        Ok(FaultyFile {
            inner: OsFile::open(path)?,
            plan: plan.clone(),
        })
    }
}

impl<F: LogFile> LogFile for FaultyFile<F> {
    fn read_at(&self, buf: &mut [u8], offset: u64) -> io::Result<usize> {
        self.inner.read_at(buf, offset)
    }
    fn write_all_at(&self, buf: &[u8], offset: u64) -> io::Result<()> {
        self.plan.write(buf, |b| self.inner.write_all_at(b, offset))
    }
    fn sync(&self) -> io::Result<()> {
        self.plan.sync(|| self.inner.sync())
    }
    fn len(&self) -> io::Result<u64> {
        self.inner.len()
    }
    fn set_len(&self, len: u64) -> io::Result<()> {
        self.inner.set_len(len)
    }
    fn punch_hole(&self, offset: u64, len: u64) -> io::Result<()> {
        self.inner.punch_hole(offset, len)
    }
}
