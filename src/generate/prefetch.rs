//! A hint to the CPU to start loading the cache line of an element that a sequential
//! generator will touch a few steps later. The generators' loops are chains of dependent
//! loads into grids far larger than the cache (a union-find root, a random frontier cell);
//! when the next steps' cells are known ahead (a shuffled bucket of walls), asking for their
//! lines early overlaps the misses instead of paying them one after the other. A hint never
//! changes what the loop computes.

/// Asks for the cache line of `slice[i]` (out-of-range indices are ignored).
#[inline(always)]
pub fn prefetch<T>(slice: &[T], i: usize) {
    #[cfg(target_arch = "x86_64")]
    if i < slice.len() {
        let p = slice.as_ptr().wrapping_add(i).cast::<i8>();
        // SAFETY: SSE is part of every x86_64 target, and a prefetch reads nothing into the
        // program (it cannot fault); the pointer is in bounds anyway.
        unsafe { std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(p) };
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = (slice, i);
}
