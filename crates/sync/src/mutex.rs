//! A mutex for cold paths (free lists, registries). Each lock is counted by
//! the audit as two shared writes (acquire and release).
use crate::audit;

pub struct Mutex<T>(parking_lot::Mutex<T>);
pub type MutexGuard<'a, T> = parking_lot::MutexGuard<'a, T>;
/// Waits on a [`MutexGuard`] (cold paths: lock waits).
pub use parking_lot::Condvar;

impl<T> Mutex<T> {
    pub const fn new(value: T) -> Self {
        Self(parking_lot::Mutex::new(value))
    }
    pub fn lock(&self) -> MutexGuard<'_, T> {
        audit::record(2);
        self.0.lock()
    }
    /// The lock if it is free now.
    pub fn try_lock(&self) -> Option<MutexGuard<'_, T>> {
        let g = self.0.try_lock();
        if g.is_some() {
            audit::record(2);
        }
        g
    }
    /// Whether some thread holds the lock now (a read: no shared write).
    pub fn is_locked(&self) -> bool {
        self.0.is_locked()
    }
    pub fn into_inner(self) -> T {
        self.0.into_inner()
    }
}

impl<T: Default> Default for Mutex<T> {
    fn default() -> Self {
        Self::new(T::default())
    }
}
