//! Parking of threads that wait for a latch, keyed by the latch's address.
//! Only slow paths come here; the parking table is parking_lot_core's.

/// Sleeps until `unpark_all(addr)` if `still_blocked()` holds when checked
/// under the parking table's lock (so a wake-up between check and sleep is
/// never lost).
#[cfg(not(loom))]
pub(crate) fn park(addr: usize, still_blocked: impl Fn() -> bool) {
    // SAFETY: the callbacks neither panic nor call back into parking_lot_core,
    // which is all `park` requires of them.
    unsafe {
        let _ = parking_lot_core::park(
            addr,
            still_blocked,
            || {},
            |_, _| {},
            parking_lot_core::DEFAULT_PARK_TOKEN,
            None,
        );
    }
}

#[cfg(not(loom))]
pub(crate) fn unpark_all(addr: usize) {
    // SAFETY: no callback; waking threads parked on `addr` has no other precondition.
    unsafe {
        parking_lot_core::unpark_all(addr, parking_lot_core::DEFAULT_UNPARK_TOKEN);
    }
}

#[cfg(loom)]
pub(crate) fn park(_addr: usize, still_blocked: impl Fn() -> bool) {
    if still_blocked() {
        loom::thread::yield_now();
    }
}

#[cfg(loom)]
pub(crate) fn unpark_all(_addr: usize) {}
