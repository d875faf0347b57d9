//! A mutex for cold paths (free lists, registries). Each lock is counted by
//! the audit as two shared writes (acquire and release). A lock that finds
//! the mutex held is timed and recorded as a wait of the mutex's class; an
//! uncontended lock records nothing.
use crate::audit;
use crate::wait::{WaitSite, WaitTimer};
use crate::wait_class::{WaitClass, OTHER_MUTEX};

pub struct Mutex<T> {
    inner: parking_lot::Mutex<T>,
    class: WaitClass,
}
pub type MutexGuard<'a, T> = parking_lot::MutexGuard<'a, T>;
/// Waits on a [`MutexGuard`] (cold paths: lock waits).
pub use parking_lot::Condvar;

impl<T> Mutex<T> {
    /// A mutex whose waits count as [`OTHER_MUTEX`].
    pub const fn new(value: T) -> Self {
        Self::with_class(OTHER_MUTEX, value)
    }
    /// A mutex whose waits count as `class`.
    pub const fn with_class(class: WaitClass, value: T) -> Self {
        Self {
            inner: parking_lot::Mutex::new(value),
            class,
        }
    }
    pub fn lock(&self) -> MutexGuard<'_, T> {
        audit::record(audit::Source::Mutex, 2);
        match self.inner.try_lock() {
            Some(g) => g,
            None => self.lock_contended(),
        }
    }
    #[cold]
    fn lock_contended(&self) -> MutexGuard<'_, T> {
        let _wait = WaitTimer::start(WaitSite::class(self.class));
        self.inner.lock()
    }
    /// The lock if it is free now.
    pub fn try_lock(&self) -> Option<MutexGuard<'_, T>> {
        let g = self.inner.try_lock();
        if g.is_some() {
            audit::record(audit::Source::Mutex, 2);
        }
        g
    }
    /// Whether some thread holds the lock now (a read: no shared write).
    pub fn is_locked(&self) -> bool {
        self.inner.is_locked()
    }
    pub fn into_inner(self) -> T {
        self.inner.into_inner()
    }
}

impl<T: Default> Default for Mutex<T> {
    fn default() -> Self {
        Self::new(T::default())
    }
}
