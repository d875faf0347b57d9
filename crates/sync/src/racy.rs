//! Byte access to memory that optimistic readers read while a latch holder
//! may write it (seqlock data). Every access is a relaxed atomic load or
//! store, so a racing read is defined behaviour that returns some bytes; the
//! reader's latch validation then decides whether they were consistent
//! (DESIGN.md invariant 7). Relaxed loads and stores of aligned words compile
//! to plain moves.
//!
//! Reads never fault and never panic: offsets outside the slice (possible when
//! a reader decodes a page that changed under it) read as zero.
use std::marker::PhantomData;
use std::sync::atomic::{AtomicU16, AtomicU32, AtomicU64, AtomicU8, Ordering};

/// A read view of `len` bytes at `ptr`, 8-byte aligned.
#[derive(Clone, Copy)]
pub struct RacySlice<'a> {
    ptr: *const u8,
    len: usize,
    _life: PhantomData<&'a [u8]>,
}

// SAFETY: all access through the view is atomic.
unsafe impl Send for RacySlice<'_> {}
// SAFETY: all access through the view is atomic.
unsafe impl Sync for RacySlice<'_> {}

/// A write view; whoever makes one holds the exclusive latch of the memory.
pub struct RacySliceMut<'a> {
    ptr: *mut u8,
    len: usize,
    _life: PhantomData<&'a mut [u8]>,
}

macro_rules! load_at {
    ($name:ident, $t:ty, $atomic:ty) => {
        /// Loads a naturally aligned value; out-of-range or misaligned offsets read 0.
        #[inline(always)]
        pub fn $name(&self, off: usize) -> $t {
            const N: usize = std::mem::size_of::<$t>();
            if off.checked_add(N).is_none_or(|end| end > self.len) || !off.is_multiple_of(N) {
                return 0;
            }
            // SAFETY: in bounds and aligned (checked above; the base is 8-aligned);
            // the memory stays mapped for 'a and is only accessed atomically.
            unsafe { (*(self.ptr.add(off) as *const $atomic)).load(Ordering::Relaxed) }
        }
    };
}

macro_rules! store_at {
    ($name:ident, $t:ty, $atomic:ty) => {
        /// Stores a naturally aligned value. Panics when out of range or
        /// misaligned: writers only write what they laid out.
        #[inline(always)]
        pub fn $name(&mut self, off: usize, value: $t) {
            const N: usize = std::mem::size_of::<$t>();
            assert!(
                off + N <= self.len && off.is_multiple_of(N),
                "bad store at {off}"
            );
            // SAFETY: in bounds and aligned (asserted); atomically accessed memory.
            unsafe { (*(self.ptr.add(off) as *const $atomic)).store(value, Ordering::Relaxed) }
        }
    };
}

impl<'a> RacySlice<'a> {
    /// # Safety
    /// `ptr` is 8-byte aligned, `len` bytes stay mapped for `'a`, and every
    /// access to them during `'a` is atomic or through these views.
    pub unsafe fn new(ptr: *const u8, len: usize) -> Self {
        debug_assert_eq!(ptr as usize % 8, 0);
        Self {
            ptr,
            len,
            _life: PhantomData,
        }
    }

    pub fn len(&self) -> usize {
        self.len
    }
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    load_at!(u8_at, u8, AtomicU8);
    load_at!(u16_at, u16, AtomicU16);
    load_at!(u32_at, u32, AtomicU32);
    load_at!(u64_at, u64, AtomicU64);

    /// Copies `dst.len()` bytes from `off`; bytes out of range read as zero.
    #[inline]
    pub fn copy_to(&self, off: usize, dst: &mut [u8]) {
        let avail = self.len.saturating_sub(off).min(dst.len());
        if avail < dst.len() {
            dst[avail..].fill(0);
        }
        // SAFETY: [off, off+avail) is in bounds.
        unsafe { atomic_copy_out(self.ptr.add(off.min(self.len)), &mut dst[..avail]) }
    }

    /// Appends `len` bytes from `off` to `out` (bytes out of range read as zero).
    #[inline]
    pub fn append_to(&self, off: usize, len: usize, out: &mut Vec<u8>) {
        out.reserve(len);
        let avail = self.len.saturating_sub(off).min(len);
        // SAFETY: `reserve` made room for `len` bytes after `out.len()`; the
        // first `avail` come from [off, off+avail), which is in bounds, the
        // rest are zeroed, so all `len` are initialised before `set_len`.
        unsafe {
            let dst = out.as_mut_ptr().add(out.len());
            atomic_copy_out_raw(self.ptr.add(off.min(self.len)), dst, avail);
            std::ptr::write_bytes(dst.add(avail), 0, len - avail);
            out.set_len(out.len() + len);
        }
    }

    /// Hints the CPU to fetch the cache line holding `off` (no effect on
    /// memory; out-of-range offsets are ignored).
    #[inline(always)]
    pub fn prefetch(&self, off: usize) {
        if off < self.len {
            #[cfg(target_arch = "x86_64")]
            // SAFETY: prefetch never faults and reads nothing architecturally;
            // the address is inside the mapped slice anyway.
            unsafe {
                std::arch::x86_64::_mm_prefetch(
                    self.ptr.add(off) as *const i8,
                    std::arch::x86_64::_MM_HINT_T0,
                );
            }
        }
    }

    /// Compares the `len` bytes at `off` with `key`, lexicographically.
    #[inline]
    pub fn compare(&self, off: usize, len: usize, key: &[u8]) -> std::cmp::Ordering {
        let mut buf = [0u8; 64];
        let mut done = 0;
        while done < len.min(key.len()) {
            let n = (len.min(key.len()) - done).min(64);
            self.copy_to(off + done, &mut buf[..n]);
            match buf[..n].cmp(&key[done..done + n]) {
                std::cmp::Ordering::Equal => done += n,
                other => return other,
            }
        }
        len.cmp(&key.len())
    }

    /// A plain slice over the memory, for holders of a shared or exclusive
    /// latch (no writer can run, so plain reads race with nothing but reads).
    ///
    /// # Safety
    /// No thread writes the memory while the returned slice lives.
    pub unsafe fn as_plain(&self) -> &'a [u8] {
        std::slice::from_raw_parts(self.ptr, self.len)
    }
}

impl<'a> RacySliceMut<'a> {
    /// # Safety
    /// As [`RacySlice::new`], and the caller is the only writer during `'a`.
    pub unsafe fn new(ptr: *mut u8, len: usize) -> Self {
        debug_assert_eq!(ptr as usize % 8, 0);
        Self {
            ptr,
            len,
            _life: PhantomData,
        }
    }

    pub fn as_read(&self) -> RacySlice<'_> {
        // SAFETY: same memory, same rules, shorter life.
        unsafe { RacySlice::new(self.ptr, self.len) }
    }

    pub fn len(&self) -> usize {
        self.len
    }
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    store_at!(set_u8, u8, AtomicU8);
    store_at!(set_u16, u16, AtomicU16);
    store_at!(set_u32, u32, AtomicU32);
    store_at!(set_u64, u64, AtomicU64);

    /// Writes `src` at `off`. Panics when out of range.
    #[inline]
    pub fn write(&mut self, off: usize, src: &[u8]) {
        assert!(off + src.len() <= self.len, "write out of range");
        // SAFETY: in bounds (asserted).
        unsafe { atomic_copy_in(self.ptr.add(off), src) }
    }

    /// Moves `len` bytes from `src` to `dst` (ranges may overlap).
    pub fn move_within(&mut self, src: usize, dst: usize, len: usize) {
        assert!(
            src + len <= self.len && dst + len <= self.len,
            "move out of range"
        );
        let mut buf = [0u8; 512];
        if dst <= src {
            let mut done = 0;
            while done < len {
                let n = (len - done).min(buf.len());
                self.as_read().copy_to(src + done, &mut buf[..n]);
                self.write(dst + done, &buf[..n]);
                done += n;
            }
        } else {
            let mut left = len;
            while left > 0 {
                let n = left.min(buf.len());
                left -= n;
                self.as_read().copy_to(src + left, &mut buf[..n]);
                self.write(dst + left, &buf[..n]);
            }
        }
    }
}

/// # Safety
/// `src..src+dst.len()` is mapped and only accessed atomically.
#[inline]
unsafe fn atomic_copy_out(src: *const u8, dst: &mut [u8]) {
    atomic_copy_out_raw(src, dst.as_mut_ptr(), dst.len())
}

/// # Safety
/// `src..src+n` is mapped and only accessed atomically; `dst..dst+n` is
/// writable memory of the caller's that nothing else accesses.
#[inline]
unsafe fn atomic_copy_out_raw(src: *const u8, dst: *mut u8, n: usize) {
    let mut i = 0;
    while i < n && !(src as usize + i).is_multiple_of(8) {
        *dst.add(i) = (*(src.add(i) as *const AtomicU8)).load(Ordering::Relaxed);
        i += 1;
    }
    while i + 8 <= n {
        let w = (*(src.add(i) as *const AtomicU64)).load(Ordering::Relaxed);
        std::ptr::write_unaligned(dst.add(i) as *mut u64, w);
        i += 8;
    }
    while i < n {
        *dst.add(i) = (*(src.add(i) as *const AtomicU8)).load(Ordering::Relaxed);
        i += 1;
    }
}

/// # Safety
/// `dst..dst+src.len()` is mapped, only accessed atomically, and the caller
/// is its only writer.
#[inline]
unsafe fn atomic_copy_in(dst: *mut u8, src: &[u8]) {
    let n = src.len();
    let mut i = 0;
    while i < n && !(dst as usize + i).is_multiple_of(8) {
        (*(dst.add(i) as *const AtomicU8)).store(src[i], Ordering::Relaxed);
        i += 1;
    }
    while i + 8 <= n {
        let w = u64::from_ne_bytes(src[i..i + 8].try_into().unwrap());
        (*(dst.add(i) as *const AtomicU64)).store(w, Ordering::Relaxed);
        i += 8;
    }
    while i < n {
        (*(dst.add(i) as *const AtomicU8)).store(src[i], Ordering::Relaxed);
        i += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn copies_compare_and_clamp() {
        let mut mem = vec![0u64; 16];
        let ptr = mem.as_mut_ptr() as *mut u8;
        // SAFETY: the vec outlives the views and is only accessed through them.
        let mut w = unsafe { RacySliceMut::new(ptr, 128) };
        w.write(3, b"hello, world");
        w.set_u32(64, 0xdead_beef);
        w.move_within(3, 5, 12);
        let r = w.as_read();
        let mut out = [0u8; 12];
        r.copy_to(5, &mut out);
        assert_eq!(&out, b"hello, world");
        assert_eq!(r.u32_at(64), 0xdead_beef);
        assert_eq!(r.u32_at(126), 0, "out of range reads zero");
        assert_eq!(r.u32_at(65), 0, "misaligned reads zero");
        assert_eq!(r.compare(5, 5, b"hello"), std::cmp::Ordering::Equal);
        assert_eq!(r.compare(5, 5, b"hellp"), std::cmp::Ordering::Less);
        assert_eq!(r.compare(5, 5, b"hell"), std::cmp::Ordering::Greater);
        let mut tail = [9u8; 8];
        r.copy_to(124, &mut tail);
        assert_eq!(&tail[4..], &[0, 0, 0, 0]);
    }
}
