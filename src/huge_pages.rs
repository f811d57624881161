//! Transparent huge pages for the big flat arrays (cell grids, wall lists, union-find). On a
//! 16384x16384 grid these arrays span gigabytes and the maze generators read them at random:
//! with 4 KiB pages nearly every such access also misses the TLB, which is what made Kruskal
//! slower per cell at every doubling of the side. Linux hands out huge pages to regions
//! advised with `MADV_HUGEPAGE` when the system setting is `madvise` (the common default);
//! elsewhere this is a no-op.

/// Arrays smaller than this gain nothing from huge pages.
const MIN_BYTES: usize = 4 << 20;

/// A vector of `n` copies of `value` whose pages are advised huge before they are touched.
pub fn filled<T: Clone>(n: usize, value: T) -> Vec<T> {
    let mut v: Vec<T> = Vec::with_capacity(n);
    advise_capacity(&mut v);
    v.resize(n, value);
    v
}

/// An empty vector with room for `n` items, advised huge before it is filled.
pub fn with_capacity<T>(n: usize) -> Vec<T> {
    let mut v: Vec<T> = Vec::with_capacity(n);
    advise_capacity(&mut v);
    v
}

/// Advises the whole reserved capacity of `v` (best before it is filled, so that the first
/// touch of each page already gets a huge page). Advice only: it never fails.
pub fn advise_capacity<T>(v: &mut Vec<T>) {
    let bytes = v.capacity() * std::mem::size_of::<T>();
    if bytes < MIN_BYTES {
        return;
    }
    #[cfg(target_os = "linux")]
    {
        const HUGE: usize = 2 << 20;
        let start = v.as_mut_ptr() as usize;
        let first = start.next_multiple_of(HUGE);
        let end = (start + bytes) / HUGE * HUGE;
        if end > first {
            // SAFETY: madvise only changes how the kernel backs pages of the range, which lies
            // inside our own live allocation; it never moves, frees or alters memory.
            unsafe {
                libc::madvise(first as *mut libc::c_void, end - first, libc::MADV_HUGEPAGE);
            }
        }
    }
}
