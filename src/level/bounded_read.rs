//! Reading a level file no further than its header says, for every text format whose header
//! announces how many lines follow (the course format, our board format). A stream is read in
//! steps and judged after each: the header as soon as it is complete (a bad one stops the
//! read), the end of the last announced line, a little of what follows (it must be blank),
//! an over-long line. So an endless or oversized input costs no more than a valid level. A
//! large regular file is mapped instead and judged by the same steps where it lies: no
//! buffer to allocate, zero and copy into (on this kind of machine the kernel's zeroing of
//! fresh pages was most of the cost of a buffer).

use std::io::Read;

use super::error::LevelError;
use super::parse::MAX_LINE_BYTES;

/// What the reader needs of a format.
pub(super) trait Framed {
    /// Lines the header takes.
    const HEADER_LINES: usize;
    /// The lines the file's cells end at, header included, judged from `bytes` (which hold
    /// at least the header's lines).
    fn wanted_lines(source: &str, bytes: &[u8]) -> Result<usize, LevelError>;
    /// The error for an over-long line after `newlines` lines; `line` runs from its start
    /// to the end of what was read.
    fn too_long(source: &str, newlines: usize, line: &[u8]) -> LevelError;
}

/// After the last expected line, at most this much more is read to check that only blank
/// lines follow.
pub(super) const TRAILING_BYTES: usize = 1 << 20;

/// Bytes per read step.
pub(super) const READ_STEP: usize = 1 << 20;

/// Where a read stops (see the module doc): fed the bytes read so far after each step.
struct Bound<F> {
    newlines: usize,
    line_start: usize,
    /// Newlines that end the last expected line, once the header is known.
    wanted_lines: Option<usize>,
    end_of_cells: Option<usize>,
    format: std::marker::PhantomData<F>,
}

impl<F: Framed> Bound<F> {
    fn new() -> Bound<F> {
        Bound {
            newlines: 0,
            line_start: 0,
            wanted_lines: None,
            end_of_cells: None,
            format: std::marker::PhantomData,
        }
    }

    /// Judges `bytes`, whose part from `old_len` on is new and holds `count` newlines.
    /// `Ok(Some(keep))`: stop, and keep only the first `keep` bytes; `Ok(None)`: read on.
    fn feed(
        &mut self,
        source: &str,
        bytes: &[u8],
        old_len: usize,
        count: usize,
    ) -> Result<Option<usize>, LevelError> {
        let new = &bytes[old_len..];
        if count > 0 {
            self.line_start = old_len + new.iter().rposition(|&b| b == b'\n').unwrap_or(0) + 1;
        }
        let before = self.newlines;
        self.newlines += count;
        if self.wanted_lines.is_none() && self.newlines >= F::HEADER_LINES {
            // The header is complete: judge it now, so a bad header stops the read.
            self.wanted_lines = Some(F::wanted_lines(source, bytes)?);
        }
        if let Some(wanted) = self.wanted_lines {
            if self.end_of_cells.is_none() && self.newlines >= wanted {
                let skip = wanted - before;
                self.end_of_cells = Some(old_len + nth_line_end(&bytes[old_len..], skip));
            }
            if let Some(end) = self.end_of_cells {
                let trailing = &bytes[end..];
                if trailing.len() > TRAILING_BYTES || !trailing.iter().all(u8::is_ascii_whitespace)
                {
                    // Enough to judge what follows the cells (an error if it is not blank).
                    return Ok(Some((end + TRAILING_BYTES).min(bytes.len())));
                }
            }
        }
        if bytes.len() - self.line_start > MAX_LINE_BYTES {
            let start = self.line_start;
            return Err(F::too_long(source, self.newlines, &bytes[start..]));
        }
        Ok(None)
    }
}

/// Byte offset just past the `n`-th newline of `bytes` (or its length when it has fewer).
pub(super) fn nth_line_end(bytes: &[u8], n: usize) -> usize {
    if n == 0 {
        return 0;
    }
    bytes
        .iter()
        .enumerate()
        .filter(|&(_, &b)| b == b'\n')
        .nth(n - 1)
        .map_or(bytes.len(), |(i, _)| i + 1)
}

/// The newlines in `bytes`.
fn newlines(bytes: &[u8]) -> usize {
    bytes.iter().filter(|&&b| b == b'\n').count()
}

/// The bytes of `input` a parse of format `F` needs, read in steps into a buffer of
/// `size_hint` bytes to start with.
pub(super) fn read_bounded<F: Framed>(
    source: &str,
    mut input: impl Read,
    size_hint: usize,
) -> Result<Vec<u8>, LevelError> {
    let fail = |e: std::io::Error| LevelError::whole_file(source, format!("cannot read: {e}"));
    let mut bytes: Vec<u8> = Vec::with_capacity(size_hint);
    let mut bound = Bound::<F>::new();
    loop {
        let old_len = bytes.len();
        // Straight into the buffer's spare room, a step at a time at most.
        match input
            .by_ref()
            .take(READ_STEP as u64)
            .read_to_end(&mut bytes)
        {
            Ok(0) => break,
            Ok(_) => {}
            Err(e) => return Err(fail(e)),
        }
        let count = newlines(&bytes[old_len..]);
        if let Some(keep) = bound.feed(source, &bytes, old_len, count)? {
            bytes.truncate(keep);
            break;
        }
    }
    Ok(bytes)
}

/// How much of `all` (a whole input at hand) [`read_bounded`] would read: the same steps,
/// without copying.
#[cfg(any(test, all(unix, feature = "fast-io")))]
pub(super) fn bounded_end<F: Framed>(source: &str, all: &[u8]) -> Result<usize, LevelError> {
    use crate::par::*;
    let mut bound = Bound::<F>::new();
    let mut end = 0;
    // The newlines of the steps are counted in parallel, a batch of steps at a time (the
    // mapping's pages are read in then too): one thread counting a gigabyte took half a
    // second. The steps are then judged in order as a stream's are, so at most a batch is
    // read past where the stream stops.
    'batches: while end < all.len() {
        let batch = &all[end..(end + MAPPED_BATCH_STEPS * READ_STEP).min(all.len())];
        let counts: Vec<usize> = batch.par_chunks(READ_STEP).map(newlines).collect();
        for count in counts {
            let old_len = end;
            end = (end + READ_STEP).min(all.len());
            if let Some(keep) = bound.feed(source, &all[..end], old_len, count)? {
                end = keep;
                break 'batches;
            }
        }
    }
    Ok(end)
}

/// Read steps counted together by [`bounded_end`] (two in tests, so the levels of a few
/// steps there cross batches).
#[cfg(all(not(test), unix, feature = "fast-io"))]
const MAPPED_BATCH_STEPS: usize = 64;
#[cfg(test)]
const MAPPED_BATCH_STEPS: usize = 2;

/// Files from this size are mapped rather than read (below it the copy costs nothing).
#[cfg(all(unix, feature = "fast-io"))]
const MAP_MIN_BYTES: usize = 4 << 20;

/// Reads the file `file` of format `F` and parses what a bounded read keeps with `parse`. A
/// large regular file is mapped and parsed where it lies; otherwise the file's size sizes
/// the buffer up front (no regrowth copies), never beyond `max_bytes`.
pub(super) fn read_file<F: Framed, T>(
    source: &str,
    file: std::fs::File,
    max_bytes: u64,
    parse: impl FnOnce(&[u8]) -> Result<T, LevelError>,
) -> Result<T, LevelError> {
    let meta = file.metadata().ok();
    let size = meta.as_ref().map_or(0, |m| m.len());
    #[cfg(all(unix, feature = "fast-io"))]
    if meta.is_some_and(|m| m.is_file())
        && size >= MAP_MIN_BYTES as u64
        && let Some(map) = mapped::Mapped::new(&file, size)
    {
        let all = map.bytes();
        return parse(&all[..bounded_end::<F>(source, all)?]);
    }
    // Never trust the size beyond what the largest level could need.
    let hint = size.min(max_bytes + TRAILING_BYTES as u64) as usize + 1;
    parse(&read_bounded::<F>(source, file, hint)?)
}

/// A read-only private mapping of a whole file.
#[cfg(all(unix, feature = "fast-io"))]
mod mapped {
    /// The mapping; unmapped on drop.
    pub(super) struct Mapped {
        ptr: *mut libc::c_void,
        len: usize,
    }

    impl Mapped {
        /// Maps the `len` bytes of `file`; `None` when the system refuses (the caller reads
        /// the file instead).
        pub(super) fn new(file: &std::fs::File, len: u64) -> Option<Mapped> {
            use std::os::fd::AsRawFd;
            let len = usize::try_from(len).ok()?;
            // SAFETY: a fresh private read-only mapping of an open file; nothing else in the
            // process refers to that range. The bytes are only read through `bytes`. A file
            // cut shorter by another process while mapped would fault (SIGBUS) on the lost
            // pages: the same hazard as any reader of a file being truncated under it.
            let ptr = unsafe {
                libc::mmap(
                    std::ptr::null_mut(),
                    len,
                    libc::PROT_READ,
                    libc::MAP_PRIVATE | libc::MAP_POPULATE,
                    file.as_raw_fd(),
                    0,
                )
            };
            (ptr != libc::MAP_FAILED).then_some(Mapped { ptr, len })
        }

        /// The file's bytes.
        pub(super) fn bytes(&self) -> &[u8] {
            // SAFETY: `ptr` maps `len` readable bytes for the life of `self`.
            unsafe { std::slice::from_raw_parts(self.ptr.cast::<u8>(), self.len) }
        }
    }

    impl Drop for Mapped {
        fn drop(&mut self) {
            // SAFETY: unmaps exactly the mapping made in `new`, no longer borrowed.
            unsafe {
                libc::munmap(self.ptr, self.len);
            }
        }
    }
}
