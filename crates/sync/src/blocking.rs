//! A thread about to block (a commit waiting for its log sync, a row lock
//! wait) says so through [`about_to_block`], so that a thread pool serving
//! many connections with few threads can start another worker at once
//! rather than leave the pool's other connections waiting (MariaDB's thread
//! pool has the same hook, `thd_wait_begin`). Threads without a hook pay
//! one thread-local read.
use std::cell::RefCell;

thread_local! {
    static HOOK: RefCell<Option<Box<dyn Fn()>>> = const { RefCell::new(None) };
}

/// Sets (or clears) this thread's hook.
pub fn set_block_hook(hook: Option<Box<dyn Fn()>>) {
    HOOK.with(|h| *h.borrow_mut() = hook);
}

/// Called by code about to wait for I/O or another transaction.
pub fn about_to_block() {
    HOOK.with(|h| {
        if let Ok(h) = h.try_borrow() {
            if let Some(f) = h.as_ref() {
                f();
            }
        }
    });
}
