//! The data file: fixed-size pages at `pid * page_size`, each carrying a
//! CRC-32 of its bytes after the checksum field, verified on every read.
//!
//! Common page header (every page):
//! ```text
//! 0..4   checksum (CRC-32 of bytes 4..page_size)
//! 4..8   reserved for the page's owner
//! 8..16  LSN of the last redo record that changed the page
//! ```
//! Page 0 is the file header: magic, format, page size, page count, the
//! head of the free-page chain (written by a clean close) and the LSN of the
//! last checkpoint record (where recovery starts).
use crate::{Error, FaultPlan, PageId, Result};
use lineardb_sync::{Mutex, SharedFlag, SharedWord};
use std::fs::{File, OpenOptions};
use std::os::unix::io::AsRawFd;
use std::path::Path;
use std::sync::{Arc, OnceLock};

pub const PAGE_HEADER_SIZE: usize = 16;
pub const PAGE_LSN_OFFSET: usize = 8;

const MAGIC: &[u8; 8] = b"LINEARDB";
/// 5: table values start with an MVCC stamp (`lineardb_wal::Stamp`).
/// 6: string index keys are their collation's sort keys.
const FORMAT_VERSION: u32 = 6;
const H_MAGIC: usize = 16;
const H_FORMAT: usize = 24;
const H_PAGE_SIZE: usize = 28;
const H_PAGE_COUNT: usize = 32;
const H_FREE_HEAD: usize = 40;
const H_CHECKPOINT: usize = 48;

/// What the header page records.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct FileHeader {
    pub page_size: usize,
    pub page_count: u64,
    pub free_head: PageId,
    /// Start LSN of the last checkpoint record (0: none).
    pub checkpoint: u64,
}

pub(crate) struct DataFile {
    file: File,
    /// The same file opened with O_DIRECT, for page reads that bypass the
    /// kernel's page cache (no double buffering, no copy); `None` where the
    /// file system refuses it or pages are smaller than 4 KiB.
    direct: Option<File>,
    page_size: usize,
    /// Pages `0..reserved` have disk space: written, or reserved with
    /// `fallocate` before they were handed out (see [`DataFile::reserve`]).
    reserved: SharedWord,
    /// Held while reserving more.
    reserving: Mutex<()>,
    /// Faults injected into writes, syncs and reservations (tests only).
    faults: OnceLock<Arc<FaultPlan>>,
    /// A sync failed: every later one fails (see [`DataFile::sync`]).
    sync_failed: SharedFlag,
}

/// The least the data file's reserved space grows by at a time.
const RESERVE_AT_LEAST: u64 = 4 << 20;

fn open_direct(path: &Path, page_size: usize) -> Option<File> {
    use std::os::unix::fs::OpenOptionsExt;
    if page_size < 4096 {
        return None;
    }
    OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_DIRECT)
        .open(path)
        .ok()
}

pub(crate) fn checksum(page: &[u8]) -> u32 {
    crc32fast::hash(&page[4..])
}

pub(crate) fn seal(page: &mut [u8]) {
    let c = checksum(page);
    page[..4].copy_from_slice(&c.to_le_bytes());
}

pub(crate) fn verify(pid: PageId, page: &[u8]) -> Result<()> {
    let stored = u32::from_le_bytes(page[..4].try_into().unwrap());
    let actual = checksum(page);
    if stored != actual {
        return Err(Error::Corrupt {
            page: pid,
            reason: format!("checksum mismatch (stored {stored:#010x}, computed {actual:#010x})"),
        });
    }
    Ok(())
}

/// Takes the exclusive lock that keeps a second process off the file: two
/// buffer pools writing one file would destroy it. The lock goes with the
/// descriptor (and with the process, however it ends).
fn lock(file: &File, path: &Path) -> Result<()> {
    match file.try_lock() {
        Ok(()) => Ok(()),
        Err(std::fs::TryLockError::WouldBlock) => Err(Error::InUse(path.display().to_string())),
        Err(std::fs::TryLockError::Error(e)) => Err(e.into()),
    }
}

impl DataFile {
    fn new(file: File, direct: Option<File>, page_size: usize) -> DataFile {
        let len = file.metadata().map(|m| m.len()).unwrap_or(0);
        DataFile {
            file,
            direct,
            page_size,
            reserved: SharedWord::new(len.div_ceil(page_size as u64)),
            reserving: Mutex::new(()),
            faults: OnceLock::new(),
            sync_failed: SharedFlag::new(false),
        }
    }

    /// Injects the faults of `plan` into later writes, syncs and
    /// reservations (once; later calls are ignored).
    pub(crate) fn inject_faults(&self, plan: Arc<FaultPlan>) {
        let _ = self.faults.set(plan);
    }

    /// Makes sure page `pid` has disk space before it is handed out: a
    /// full disk is then an error of the statement that needs a new page
    /// (nothing changed yet), never of the eviction or checkpoint that
    /// writes it later. Space is reserved ahead, an eighth of the file (at
    /// least 4 MiB) at a time, without changing the file's size.
    pub(crate) fn reserve(&self, pid: PageId) -> Result<()> {
        if pid < self.reserved.load() {
            return Ok(());
        }
        let _one = self.reserving.lock();
        let have = self.reserved.load();
        if pid < have {
            return Ok(());
        }
        let ps = self.page_size as u64;
        let step = (pid + 1).max(have + (have / 8).max(RESERVE_AT_LEAST / ps));
        // A whole step if the disk has it, else just what is asked for.
        match self.reserve_up_to(have, step) {
            Err(Error::DiskFull(_)) if step > pid + 1 => self.reserve_up_to(have, pid + 1),
            r => r,
        }
    }

    /// Reserves pages `have..want`; the caller holds `reserving`.
    fn reserve_up_to(&self, have: u64, want: u64) -> Result<()> {
        let ps = self.page_size as u64;
        let fallocate = || {
            // SAFETY: fallocate on a descriptor this DataFile owns, with
            // plain integer arguments; it touches no memory of ours.
            let r = unsafe {
                libc::fallocate(
                    self.file.as_raw_fd(),
                    libc::FALLOC_FL_KEEP_SIZE,
                    (have * ps) as libc::off_t,
                    ((want - have) * ps) as libc::off_t,
                )
            };
            if r == 0 {
                return Ok(());
            }
            let e = std::io::Error::last_os_error();
            match e.raw_os_error() {
                // File systems that cannot reserve: writes find out later.
                Some(libc::EOPNOTSUPP) | Some(libc::ENOSYS) => Ok(()),
                _ => Err(e),
            }
        };
        let r = match self.faults.get() {
            Some(f) => f.reserve(fallocate),
            None => fallocate(),
        };
        match r {
            Ok(()) => {
                self.reserved.store(want);
                Ok(())
            }
            Err(e) if e.raw_os_error() == Some(libc::ENOSPC) => Err(Error::DiskFull(format!(
                "extending the data file to {} bytes: {e}",
                want * ps
            ))),
            Err(e) => Err(e.into()),
        }
    }

    pub(crate) fn create(path: &Path, page_size: usize) -> Result<DataFile> {
        let file = OpenOptions::new()
            .read(true)
            .write(true)
            .create_new(true)
            .open(path)?;
        lock(&file, path)?;
        Ok(DataFile::new(file, open_direct(path, page_size), page_size))
    }

    /// Opens an existing file and reads its header.
    pub(crate) fn open(path: &Path) -> Result<(DataFile, FileHeader)> {
        let file = OpenOptions::new().read(true).write(true).open(path)?;
        lock(&file, path)?;
        let mut probe = vec![0u8; 64];
        read_exact_at(&file, &mut probe, 0)?;
        if &probe[H_MAGIC..H_MAGIC + 8] != MAGIC {
            return Err(Error::BadFile(format!("{}: bad magic", path.display())));
        }
        let format = u32::from_le_bytes(probe[H_FORMAT..H_FORMAT + 4].try_into().unwrap());
        if format != FORMAT_VERSION {
            return Err(Error::BadFile(format!(
                "format {format}, expected {FORMAT_VERSION}"
            )));
        }
        let page_size =
            u32::from_le_bytes(probe[H_PAGE_SIZE..H_PAGE_SIZE + 4].try_into().unwrap()) as usize;
        if !valid_page_size(page_size) {
            return Err(Error::BadFile(format!("page size {page_size}")));
        }
        let df = DataFile::new(file, open_direct(path, page_size), page_size);
        let mut page = vec![0u8; page_size];
        df.read_into(0, &mut page)?;
        verify(0, &page)?;
        let header = FileHeader {
            page_size,
            page_count: u64::from_le_bytes(
                page[H_PAGE_COUNT..H_PAGE_COUNT + 8].try_into().unwrap(),
            ),
            free_head: u64::from_le_bytes(page[H_FREE_HEAD..H_FREE_HEAD + 8].try_into().unwrap()),
            checkpoint: u64::from_le_bytes(
                page[H_CHECKPOINT..H_CHECKPOINT + 8].try_into().unwrap(),
            ),
        };
        Ok((df, header))
    }

    pub(crate) fn write_header(&self, h: &FileHeader) -> Result<()> {
        let mut page = vec![0u8; self.page_size];
        page[H_MAGIC..H_MAGIC + 8].copy_from_slice(MAGIC);
        page[H_FORMAT..H_FORMAT + 4].copy_from_slice(&FORMAT_VERSION.to_le_bytes());
        page[H_PAGE_SIZE..H_PAGE_SIZE + 4].copy_from_slice(&(h.page_size as u32).to_le_bytes());
        page[H_PAGE_COUNT..H_PAGE_COUNT + 8].copy_from_slice(&h.page_count.to_le_bytes());
        page[H_FREE_HEAD..H_FREE_HEAD + 8].copy_from_slice(&h.free_head.to_le_bytes());
        page[H_CHECKPOINT..H_CHECKPOINT + 8].copy_from_slice(&h.checkpoint.to_le_bytes());
        self.write_sealed(0, &mut page)
    }

    pub(crate) fn page_size(&self) -> usize {
        self.page_size
    }

    /// Reads page `pid` into `dst` (page-sized) without verifying it.
    pub(crate) fn read_into(&self, pid: PageId, dst: &mut [u8]) -> Result<()> {
        debug_assert_eq!(dst.len(), self.page_size);
        read_exact_at(&self.file, dst, pid * self.page_size as u64).map_err(|e| {
            if e.kind() == std::io::ErrorKind::UnexpectedEof {
                Error::Corrupt {
                    page: pid,
                    reason: "beyond the end of the data file".into(),
                }
            } else {
                Error::Io(e)
            }
        })
    }

    /// Reads page `pid` into raw frame memory.
    ///
    /// # Safety
    /// `dst` points to `page_size` writable bytes that no Rust code writes
    /// while the read runs (the caller holds the page's exclusive latch; stale
    /// optimistic readers may read them and will fail validation).
    pub(crate) unsafe fn read_raw(&self, pid: PageId, dst: *mut u8) -> Result<()> {
        self.read_many_raw(pid, &[dst])
    }

    /// Reads pages `first..first + dsts.len()` into the frames `dsts` with
    /// as few system calls as possible (one `preadv` when nothing is short).
    ///
    /// # Safety
    /// As [`DataFile::read_raw`], for every destination; each is page-sized
    /// and page-aligned (O_DIRECT needs aligned buffers).
    pub(crate) unsafe fn read_many_raw(&self, first: PageId, dsts: &[*mut u8]) -> Result<()> {
        if let Some(direct) = &self.direct {
            match self.read_many_from(direct, first, dsts) {
                // A file system that took O_DIRECT at open but refuses the
                // read: fall back to the buffered descriptor.
                Err(Error::Io(e)) if e.raw_os_error() == Some(libc::EINVAL) => {}
                other => return other,
            }
        }
        self.read_many_from(&self.file, first, dsts)
    }

    /// # Safety
    /// As [`DataFile::read_many_raw`].
    unsafe fn read_many_from(&self, file: &File, first: PageId, dsts: &[*mut u8]) -> Result<()> {
        let fd = file.as_raw_fd();
        let mut iov: Vec<libc::iovec> = dsts
            .iter()
            .map(|&d| libc::iovec {
                iov_base: d as *mut libc::c_void,
                iov_len: self.page_size,
            })
            .collect();
        let total = self.page_size * dsts.len();
        let mut done = 0usize;
        let mut at = 0usize; // first iovec not yet complete
        while done < total {
            let n = libc::preadv(
                fd,
                iov[at..].as_ptr(),
                (iov.len() - at).min(1024) as libc::c_int,
                (first * self.page_size as u64 + done as u64) as libc::off_t,
            );
            if n < 0 {
                let e = std::io::Error::last_os_error();
                if e.kind() == std::io::ErrorKind::Interrupted {
                    continue;
                }
                return Err(e.into());
            }
            if n == 0 {
                return Err(Error::Corrupt {
                    page: first + (done / self.page_size) as u64,
                    reason: "beyond the end of the data file".into(),
                });
            }
            done += n as usize;
            // Skip the iovecs now full; shorten a partly filled one.
            let mut left = n as usize;
            while left > 0 {
                let v = &mut iov[at];
                if left >= v.iov_len {
                    left -= v.iov_len;
                    at += 1;
                } else {
                    v.iov_base = (v.iov_base as *mut u8).add(left) as *mut libc::c_void;
                    v.iov_len -= left;
                    left = 0;
                }
            }
        }
        Ok(())
    }

    /// Seals (checksums) `page` and writes it at `pid`.
    pub(crate) fn write_sealed(&self, pid: PageId, page: &mut [u8]) -> Result<()> {
        seal(page);
        use std::os::unix::fs::FileExt;
        let at = pid * self.page_size as u64;
        match self.faults.get() {
            Some(f) => f.write(page, |b| self.file.write_all_at(b, at))?,
            None => self.file.write_all_at(page, at)?,
        }
        Ok(())
    }

    /// Syncs the file. After a failed sync every later one fails too: the
    /// kernel may have dropped the pages that sync was about and marked
    /// them clean, so a later sync could succeed without them. No
    /// checkpoint completes after that; the log keeps what those pages
    /// need, and the next open recovers from it.
    pub(crate) fn sync(&self) -> Result<()> {
        if self.sync_failed.get() {
            return Err(Error::Io(std::io::Error::other(
                "an earlier sync of the data file failed; restart to recover from the log",
            )));
        }
        let r = match self.faults.get() {
            Some(f) => f.sync(|| self.file.sync_all()),
            None => self.file.sync_all(),
        };
        if r.is_err() {
            self.sync_failed.set(true);
        }
        Ok(r?)
    }
}

fn read_exact_at(file: &File, buf: &mut [u8], off: u64) -> std::io::Result<()> {
    use std::os::unix::fs::FileExt;
    file.read_exact_at(buf, off)
}

pub(crate) fn valid_page_size(n: usize) -> bool {
    n.is_power_of_two() && (512..=32768).contains(&n)
}
