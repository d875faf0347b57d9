//! Faults injected on demand into a file (the data file here, the redo log
//! through `lineardb_wal::FaultyFile`): a sync that fails, a write that
//! stops half way, a full disk. Tests switch them on and off while the
//! database runs; nothing sets them otherwise.
use lineardb_sync::{LocalCounter, SharedFlag, SharedWord};
use std::io;

/// Which faults to inject, switched on and off while the file is in use;
/// and how many syncs succeeded (to see group commit at work).
#[derive(Default)]
pub struct FaultPlan {
    /// Every sync fails (EIO).
    pub fail_sync: SharedFlag,
    /// Every write stores only its first half, then fails (EIO).
    pub short_write: SharedFlag,
    /// Every write, and every reservation of space, fails with ENOSPC,
    /// storing nothing.
    pub disk_full: SharedFlag,
    /// Each sync first sleeps this many microseconds (a slow disk).
    pub sync_delay_us: SharedWord,
    /// Successful syncs so far (written by one thread at a time).
    pub syncs: LocalCounter,
}

const ENOSPC: i32 = 28;
const EIO: i32 = 5;

impl FaultPlan {
    /// Writes `buf` with `write` unless a fault says otherwise.
    pub fn write(&self, buf: &[u8], write: impl Fn(&[u8]) -> io::Result<()>) -> io::Result<()> {
        if self.disk_full.get() {
            return Err(io::Error::from_raw_os_error(ENOSPC));
        }
        if self.short_write.get() {
            write(&buf[..buf.len() / 2])?;
            return Err(io::Error::from_raw_os_error(EIO));
        }
        write(buf)
    }

    /// Reserves disk space with `reserve` unless the disk is full.
    pub fn reserve(&self, reserve: impl FnOnce() -> io::Result<()>) -> io::Result<()> {
        if self.disk_full.get() {
            return Err(io::Error::from_raw_os_error(ENOSPC));
        }
        reserve()
    }

    /// Syncs with `sync` after the delay, unless syncs fail.
    pub fn sync(&self, sync: impl FnOnce() -> io::Result<()>) -> io::Result<()> {
        let delay = self.sync_delay_us.load();
        if delay > 0 {
            std::thread::sleep(std::time::Duration::from_micros(delay));
        }
        if self.fail_sync.get() {
            return Err(io::Error::from_raw_os_error(EIO));
        }
        sync()?;
        self.syncs.add(1);
        Ok(())
    }
}
