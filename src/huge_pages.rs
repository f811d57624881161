//! A global allocator for the binary that asks Linux for transparent huge pages (2 MiB) on
//! every large block. The machine's THP mode is `madvise`: without the advice a grid of tens
//! of millions of cells lives on 4 KiB pages, and the generators' and solver's random
//! accesses (union-find finds, a maze's frontier, a region's cells) miss the TLB on almost
//! every step: `--maze growing-tree-random` at 4096x4096 spends 1.65x the CPU time on 4 KiB
//! pages. Small blocks are left alone.
//!
//! It also turns running out of memory into a clear message and exit code 2 (see
//! [`out_of_memory`]) instead of the standard library's abort (exit 134 and "memory
//! allocation of N bytes failed", or a backtrace under a memory limit).

use std::alloc::{GlobalAlloc, Layout, System};

/// The system allocator, with `madvise(MADV_HUGEPAGE)` on blocks of [`MIN_BYTES`] or more.
pub struct HugePages;

/// Size of a transparent huge page on x86-64 and aarch64 (4 KiB base pages).
const HUGE_PAGE: usize = 2 << 20;
/// Blocks from this size get the advice. Only the whole huge pages inside a block are advised,
/// so a block never grows in memory; below this, a block holds at most one huge page.
pub const MIN_BYTES: usize = 4 << 20;

/// Advises the whole huge pages inside `[ptr, ptr + size)`. Called before the block's pages
/// are touched (fresh `mmap` memory from the system allocator), so they fault in as huge pages.
fn advise(ptr: *mut u8, size: usize) {
    if size < MIN_BYTES || ptr.is_null() {
        return;
    }
    let start = (ptr as usize).next_multiple_of(HUGE_PAGE);
    let end = (ptr as usize + size) & !(HUGE_PAGE - 1);
    if end > start {
        // SAFETY: the range lies inside a block the allocator just handed out; the advice
        // changes how pages are backed, never their contents. A failure (kernel without THP)
        // leaves ordinary pages, so the result is ignored.
        unsafe {
            libc::madvise(start as *mut libc::c_void, end - start, libc::MADV_HUGEPAGE);
        }
    }
}

/// Says that `size` bytes could not be had and ends the process with exit code 2, the code of
/// an input the program cannot take. Allocating here could fail again, so the message is put
/// together in a stack buffer and written with `write(2)`; `_exit` skips destructors that
/// might allocate.
#[cold]
fn out_of_memory(size: usize) -> ! {
    let mut buf = [0u8; 320];
    let mut len = 0;
    let mut put = |bytes: &[u8]| {
        let n = bytes.len().min(buf.len() - len);
        buf[len..len + n].copy_from_slice(&bytes[..n]);
        len += n;
    };
    put(b"error: out of memory: a block of ");
    let mut digits = [0u8; 20];
    let mut i = digits.len();
    let mut v = size;
    loop {
        i -= 1;
        digits[i] = b'0' + (v % 10) as u8;
        v /= 10;
        if v == 0 {
            break;
        }
    }
    put(&digits[i..]);
    put(b" bytes could not be had; the level or the size asked for is too large for this machine's memory or its limit (ulimit -v)\n");
    // SAFETY: writes bytes of a live stack buffer to stderr, then ends the process.
    unsafe {
        libc::write(2, buf.as_ptr().cast(), len);
        libc::_exit(2)
    }
}

/// `ptr` unless it is null, which ends the process (see [`out_of_memory`]). Zero-size layouts
/// never come here (`GlobalAlloc` callers do not ask for them).
fn or_exit(ptr: *mut u8, size: usize) -> *mut u8 {
    if ptr.is_null() {
        out_of_memory(size);
    }
    ptr
}

// SAFETY: every call is forwarded to `System` unchanged; `advise` only adds a hint on memory
// the caller now owns.
unsafe impl GlobalAlloc for HugePages {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: forwarded with the caller's guarantees.
        let ptr = or_exit(unsafe { System.alloc(layout) }, layout.size());
        advise(ptr, layout.size());
        ptr
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: forwarded with the caller's guarantees.
        let ptr = or_exit(unsafe { System.alloc_zeroed(layout) }, layout.size());
        advise(ptr, layout.size());
        ptr
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: forwarded with the caller's guarantees.
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: forwarded with the caller's guarantees.
        let new = or_exit(unsafe { System.realloc(ptr, layout, new_size) }, new_size);
        advise(new, new_size);
        new
    }
}
