//! Wait classes, declared by the layers that wait and registered at startup.
//!
//! `sync` names no class of the layers above it. Each layer declares its own
//! classes in its own crate (a `waits` module) with [`wait_class!`]:
//!
//! ```
//! use lineardb_sync::{wait_class, WaitClass};
//!
//! pub const LEAF_PAGE: WaitClass = wait_class!("wait/synch/latch/btree/leaf_page");
//! pub const CLASSES: &[WaitClass] = &[LEAF_PAGE];
//! ```
//!
//! A [`WaitClass`] is a reference to a static [`WaitClassDef`]: a constant,
//! passed and stored like a pointer, so a latch or an optimistic read that
//! carries one writes and locks nothing.
//!
//! Registration gives a class its index in the per-thread tables (at most
//! [`MAX_WAIT_CLASSES`]) and its place in [`registered`], the list that
//! summaries (performance_schema) show. It is explicit: whoever opens a layer
//! registers that layer's `CLASSES` (the table layer's `Engine::open`
//! registers the engine's, the SQL layer's session registry its own), so
//! every class is listed, with zero counts, before anything waits. A class
//! recorded before it was registered is registered then, on that slow path.
//! Registering twice is harmless; the list keeps the first order.
use std::sync::atomic::{AtomicU8, Ordering};

/// Most classes the per-thread tables hold; registering one more panics.
pub const MAX_WAIT_CLASSES: usize = 32;

/// The static definition behind a [`WaitClass`]: its name and, once
/// registered, its index (plus one; 0 = not registered yet).
#[derive(Debug)]
pub struct WaitClassDef {
    name: &'static str,
    index_plus_one: AtomicU8,
}

impl WaitClassDef {
    pub const fn new(name: &'static str) -> Self {
        Self {
            name,
            index_plus_one: AtomicU8::new(0),
        }
    }
}

/// What a thread waited for: a handle to a static [`WaitClassDef`].
#[derive(Clone, Copy)]
pub struct WaitClass(&'static WaitClassDef);

/// Declares a wait class named `$name` (performance_schema style): a
/// constant [`WaitClass`] backed by a static definition of its own.
#[macro_export]
macro_rules! wait_class {
    ($name:expr) => {{
        static DEF: $crate::WaitClassDef = $crate::WaitClassDef::new($name);
        $crate::WaitClass::new(&DEF)
    }};
}

/// A mutex of no other class (the server's worker roster, build jobs): the
/// class of [`crate::Mutex::new`].
pub const OTHER_MUTEX: WaitClass = wait_class!("wait/synch/mutex/other");

impl WaitClass {
    pub const fn new(def: &'static WaitClassDef) -> Self {
        Self(def)
    }

    /// Name in performance_schema style.
    pub fn name(self) -> &'static str {
        self.0.name
    }

    /// Index in the per-thread tables, registering the class if needed
    /// (called on slow paths only: a restart, a wait).
    #[inline]
    pub fn index(self) -> usize {
        match self.0.index_plus_one.load(Ordering::Acquire) {
            0 => register_one(self),
            i => i as usize - 1,
        }
    }
}

impl PartialEq for WaitClass {
    fn eq(&self, other: &Self) -> bool {
        std::ptr::eq(self.0, other.0)
    }
}

impl Eq for WaitClass {}

impl std::hash::Hash for WaitClass {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        std::ptr::hash(self.0, state)
    }
}

impl std::fmt::Debug for WaitClass {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.0.name)
    }
}

/// Registered classes, by index. Taken only to register and to read the list.
#[allow(clippy::disallowed_types)]
static REGISTERED: std::sync::Mutex<Vec<WaitClass>> = std::sync::Mutex::new(Vec::new());

fn lock() -> std::sync::MutexGuard<'static, Vec<WaitClass>> {
    REGISTERED.lock().unwrap_or_else(|e| e.into_inner())
}

#[cold]
fn register_one(class: WaitClass) -> usize {
    register_locked(&mut lock(), class)
}

fn register_locked(list: &mut Vec<WaitClass>, class: WaitClass) -> usize {
    match class.0.index_plus_one.load(Ordering::Acquire) {
        0 => {
            assert!(
                list.len() < MAX_WAIT_CLASSES,
                "wait class {} is one more than the {MAX_WAIT_CLASSES} the per-thread \
                 tables hold (raise MAX_WAIT_CLASSES)",
                class.name()
            );
            let index = list.len();
            list.push(class);
            class
                .0
                .index_plus_one
                .store(index as u8 + 1, Ordering::Release);
            index
        }
        i => i as usize - 1,
    }
}

/// Registers `classes` in order (those already registered keep their place).
pub fn register(classes: &[WaitClass]) {
    let mut list = lock();
    for class in classes {
        register_locked(&mut list, *class);
    }
}

/// Every registered class, in registration order (index order).
pub fn registered() -> Vec<WaitClass> {
    lock().clone()
}

#[cfg(test)]
mod tests {
    use super::*;

    const A: WaitClass = wait_class!("wait/test/class_a");
    const B: WaitClass = wait_class!("wait/test/class_b");

    #[test]
    fn classes_are_registered_once_in_order() {
        assert_eq!(A, A);
        assert_ne!(A, B);
        register(&[A, B, A]);
        let list = registered();
        let a = list.iter().position(|c| *c == A).unwrap();
        let b = list.iter().position(|c| *c == B).unwrap();
        assert_eq!((A.index(), B.index()), (a, b));
        assert_eq!(b, a + 1);
        assert_eq!(list.iter().filter(|c| **c == A).count(), 1);
        assert_eq!(B.name(), "wait/test/class_b");
    }
}
