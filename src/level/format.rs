//! The bytes of a level file, produced in parallel: every piece line is exactly four bytes
//! (`T O\n`), so the output's length is known up front and each chunk of cells writes its own
//! disjoint slice of it (rayon). A 16384x16384 level is a gigabyte of text.

use crate::par::*;

use crate::model::Game;

/// Cells per parallel chunk.
const CHUNK_CELLS: usize = 1 << 16;

/// The level as the bytes of a file: height, width, then one `TYPE ORIENTATION` line per cell.
pub fn level_bytes(game: &Game) -> Vec<u8> {
    let header = format!("{}\n{}\n", game.height(), game.width());
    let mut out = vec![0u8; header.len() + 4 * game.len()];
    let (head, body) = out.split_at_mut(header.len());
    head.copy_from_slice(header.as_bytes());
    body.par_chunks_mut(4 * CHUNK_CELLS)
        .zip(game.cells().par_chunks(CHUNK_CELLS))
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
    out
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
}
