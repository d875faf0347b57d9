//! The run-time switch of the instrumentation (wait and restart recording,
//! the per-index row counts). Read only on slow paths (a restart, a blocked
//! latch, an I/O) and once per counted batch, so it costs nothing on the
//! fast path.

#[cfg(not(loom))]
static ENABLED: crate::SharedFlag = crate::SharedFlag::new(true);

/// Turns wait and restart recording on or off at run time.
#[cfg(not(loom))]
pub fn set_enabled(on: bool) {
    ENABLED.set(on);
}

/// Whether waits are being recorded.
#[cfg(not(loom))]
pub fn enabled() -> bool {
    ENABLED.get()
}
