//! Atomics and thread primitives, swapped for loom's models under `--cfg loom`.
#[cfg(loom)]
pub(crate) use loom::sync::atomic::{fence, AtomicBool, AtomicU64, Ordering};
#[cfg(not(loom))]
pub(crate) use std::sync::atomic::{fence, AtomicBool, AtomicU64, Ordering};

#[cfg(loom)]
pub(crate) fn spin_hint() {
    loom::thread::yield_now();
}
#[cfg(not(loom))]
#[inline]
pub(crate) fn spin_hint() {
    std::hint::spin_loop();
}

#[cfg(loom)]
pub(crate) fn yield_now() {
    loom::thread::yield_now();
}
#[cfg(not(loom))]
pub(crate) fn yield_now() {
    std::thread::yield_now();
}
