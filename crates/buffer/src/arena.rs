//! Anonymous memory mappings for the page table and the frames. The mapping
//! is never unmapped while the pool lives, so a stale optimistic read of a
//! frame or a table entry never faults.
use std::ptr::NonNull;

pub(crate) struct Arena {
    ptr: NonNull<u8>,
    len: usize,
}

// SAFETY: the arena is plain memory; all shared access to it goes through
// atomics (latch words, racy slices) as documented at each use.
unsafe impl Send for Arena {}
// SAFETY: as above.
unsafe impl Sync for Arena {}

impl Arena {
    /// Maps `len` zeroed bytes, reserving no swap: untouched pages cost no memory.
    pub(crate) fn new(len: usize) -> std::io::Result<Arena> {
        let len = len.max(1).next_multiple_of(4096);
        // SAFETY: an anonymous private mapping with no address hint has no
        // preconditions; the result is checked.
        let ptr = unsafe {
            libc::mmap(
                std::ptr::null_mut(),
                len,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS | libc::MAP_NORESERVE,
                -1,
                0,
            )
        };
        if ptr == libc::MAP_FAILED {
            return Err(std::io::Error::last_os_error());
        }
        // Huge pages cut TLB misses on random page access; a kernel without
        // them ignores the advice.
        // SAFETY: advice on a mapping we own; it changes no contents.
        unsafe {
            libc::madvise(ptr, len, libc::MADV_HUGEPAGE);
        }
        Ok(Arena {
            ptr: NonNull::new(ptr as *mut u8).expect("mmap returned null"),
            len,
        })
    }

    pub(crate) fn ptr(&self) -> *mut u8 {
        self.ptr.as_ptr()
    }
}

impl Drop for Arena {
    fn drop(&mut self) {
        // SAFETY: ptr/len come from the successful mmap in `new`; no reference
        // into the arena outlives it (guards borrow the pool that owns it).
        unsafe {
            libc::munmap(self.ptr.as_ptr() as *mut libc::c_void, self.len);
        }
    }
}
