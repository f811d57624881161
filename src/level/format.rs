//! The bytes of a level file, produced in parallel: every piece line is exactly four bytes
//! (`T O\n`), so the output's length is known up front and each chunk of cells writes its own
//! disjoint slice of it (rayon). A 16384x16384 level is a gigabyte of text, so a save
//! formats it a window of cells at a time into two small buffers, the next window formatted
//! while the last one is written ([`write_level`]): no gigabyte buffer to allocate and zero.

use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};

use crate::par::*;

use crate::model::{Game, Piece};

/// Cells per parallel chunk.
const CHUNK_CELLS: usize = 1 << 16;

/// Cells per window of a streamed save (4 MiB of text): a cancel is seen within
/// milliseconds.
const WINDOW_CELLS: usize = 1 << 20;

fn header(game: &Game) -> String {
    format!("{}\n{}\n", game.height(), game.width())
}

/// The level as the bytes of a file: height, width, then one `TYPE ORIENTATION` line per cell.
pub fn level_bytes(game: &Game) -> Vec<u8> {
    let header = header(game);
    let mut out = vec![0u8; header.len() + 4 * game.len()];
    let (head, body) = out.split_at_mut(header.len());
    head.copy_from_slice(header.as_bytes());
    format_cells(game.cells(), body);
    out
}

/// The piece lines of `cells` into `body` (exactly four bytes each), in parallel chunks.
fn format_cells(cells: &[Piece], body: &mut [u8]) {
    body.par_chunks_mut(4 * CHUNK_CELLS)
        .zip(cells.par_chunks(CHUNK_CELLS))
        .for_each(|(bytes, cells)| {
            for (line, p) in bytes.chunks_exact_mut(4).zip(cells) {
                line.copy_from_slice(&[
                    b'0' + p.kind().code(),
                    b' ',
                    b'0' + p.orientation(),
                    b'\n',
                ]);
            }
        });
}

/// Writes the bytes [`level_bytes`] gives to `out` a window at a time, formatting the next
/// window while the last is written, and calls `written(offset, len)` after each write (the
/// save starts the disk's write-back there). `Ok(false)` when `cancel` was raised first.
pub fn write_level<W: Write + Send>(
    out: &mut W,
    game: &Game,
    cancel: &AtomicBool,
    mut written: impl FnMut(&mut W, u64, usize) + Send,
) -> std::io::Result<bool> {
    let header = header(game);
    out.write_all(header.as_bytes())?;
    written(out, 0, header.len());
    let mut offset = header.len() as u64;
    let window = WINDOW_CELLS.min(game.len());
    let (mut ready, mut spare) = (vec![0u8; 4 * window], vec![0u8; 4 * window]);
    let mut windows = game.cells().chunks(WINDOW_CELLS);
    let Some(first) = windows.next() else {
        return Ok(!cancel.load(Ordering::Relaxed));
    };
    let mut len = 4 * first.len();
    format_cells(first, &mut ready[..len]);
    loop {
        if cancel.load(Ordering::Relaxed) {
            return Ok(false);
        }
        let Some(next) = windows.next() else {
            // The last window: nothing to format meanwhile (a small level is one window,
            // written without handing work to the pool).
            out.write_all(&ready[..len])?;
            written(out, offset, len);
            return Ok(!cancel.load(Ordering::Relaxed));
        };
        let (wrote, ()) = join(
            || {
                out.write_all(&ready[..len])?;
                written(out, offset, len);
                Ok::<(), std::io::Error>(())
            },
            || format_cells(next, &mut spare[..4 * next.len()]),
        );
        wrote?;
        offset += len as u64;
        len = 4 * next.len();
        std::mem::swap(&mut ready, &mut spare);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Piece, PieceKind};

    #[test]
    fn chunks_join_into_the_plain_text() {
        // More cells than one chunk, with every piece, so chunk edges are crossed.
        let all: Vec<Piece> = PieceKind::ALL
            .iter()
            .flat_map(|&k| (0..k.orientations()).map(move |o| Piece::new(k, o)))
            .collect();
        let n = 3 * CHUNK_CELLS + 5;
        let cells: Vec<Piece> = (0..n).map(|i| all[i * 7 % all.len()]).collect();
        let g = Game::from_cells(1, n, cells);
        let mut want = format!("1\n{n}\n");
        for p in g.cells() {
            want.push_str(&format!("{} {}\n", p.kind().code(), p.orientation()));
        }
        assert_eq!(String::from_utf8(level_bytes(&g)).unwrap(), want);
    }

    #[test]
    fn windows_written_in_turn_give_the_same_bytes() {
        // Sizes around the window: one cell, one short window, exactly one, one and a bit, three.
        for n in [1, 5, WINDOW_CELLS, WINDOW_CELLS + 1, 3 * WINDOW_CELLS - 7] {
            let cells: Vec<Piece> = (0..n)
                .map(|i| {
                    let k = PieceKind::ALL[i % 6];
                    Piece::new(k, (i / 6 % k.orientations() as usize) as u8)
                })
                .collect();
            let g = Game::from_cells(1, n, cells);
            let mut out = Vec::new();
            let mut spans = Vec::new();
            let done = write_level(&mut out, &g, &AtomicBool::new(false), |_, at, len| {
                spans.push((at, len))
            })
            .unwrap();
            assert!(done);
            assert!(out == level_bytes(&g), "{n} cells");
            // The spans tile the output in order.
            let mut at = 0;
            for &(o, len) in &spans {
                assert_eq!(o, at);
                at += len as u64;
            }
            assert_eq!(at, out.len() as u64);
            let mut none = Vec::new();
            let raised = AtomicBool::new(true);
            assert!(!write_level(&mut none, &g, &raised, |_, _, _| {}).unwrap());
        }
    }
}
