//! The default generator: every inner side carries a connection with probability `density`,
//! then, when a component bound is given, Kruskal-style merging over the missing sides in
//! random order joins components until the bound holds. Finally every piece is turned at
//! random, so the level is solvable by construction.

use super::components::link_connections;
use super::counter_rng::skipped;
use super::exact_components::make_exact;
use super::maze::braid::braid;
use super::maze::grid::Dims;
use super::maze::maze_masks;
use super::weighted_shapes::{LOOPS, MIXED, weighted_masks};
use crate::model::direction::{E, N, S, W, bit};
use crate::model::{Game, Piece};
use crate::par::*;

/// Which kind of solved grid to build.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Family {
    /// Independent random sides (the default): every shape, many small components.
    Random,
    /// One-end pieces paired face to face, like the public `dist.1` levels.
    Dominoes,
    /// Mostly corners and straights forming closed loops, like the public `dist.0` levels.
    Loops,
    /// Every shape with many empty cells and dead ends, like the public `dist.6` levels.
    Mixed,
    /// A perfect maze (one component, no cycle), optionally braided (see `braid`).
    Maze(super::maze::MazeAlgorithm),
    /// Straight segments Q–Q, Q–I–Q, Q–I–I–Q only (see `super::straight`).
    Straight,
    /// Nested Γ-shaped two-wide ladders of Q pieces, one region each.
    Hooks,
    /// The ladders of `hooks` at H x H laid flat (use H x 2H).
    Ladders,
    /// The grid tiled by paths of this many cells (see `super::paths`), middles bent with
    /// probability [`GenerateOptions::bent`].
    Paths(u8),
}

impl Family {
    /// The name used on the command line and in the instance manifest (`maze:ALGORITHM` for
    /// mazes).
    pub fn name(self) -> String {
        match self {
            Family::Random => "random".into(),
            Family::Dominoes => "dominoes".into(),
            Family::Loops => "loops".into(),
            Family::Mixed => "mixed".into(),
            Family::Maze(a) => format!("maze:{}", a.name()),
            Family::Straight => "straight".into(),
            Family::Hooks => "hooks".into(),
            Family::Ladders => "ladders".into(),
            Family::Paths(len) => format!("paths{len}"),
        }
    }
}

/// What to generate.
#[derive(Clone, Debug, PartialEq)]
pub struct GenerateOptions {
    /// Which kind of level to make.
    pub family: Family,
    /// Number of rows (at least 1).
    pub height: usize,
    /// Number of columns (at least 1).
    pub width: usize,
    /// At most this many connected components of non-empty pieces.
    pub max_components: Option<usize>,
    /// Seed of the random generator: the same options and seed give the same level.
    pub seed: u64,
    /// Probability that an inner side carries a connection before merging (random family).
    pub density: f64,
    /// Exactly this many components of non-empty pieces (not with `max_components`).
    pub exact_components: Option<usize>,
    /// Mazes only: probability that a dead end is opened into a loop.
    pub braid: f64,
    /// Path tilings only: probability that a middle cell of a path is a corner.
    pub bent: f64,
}

impl GenerateOptions {
    /// Options for a random-family level of the given size and seed, other settings at their
    /// defaults.
    pub fn new(height: usize, width: usize, seed: u64) -> GenerateOptions {
        GenerateOptions {
            family: Family::Random,
            height,
            width,
            max_components: None,
            seed,
            density: 0.5,
            exact_components: None,
            braid: 0.0,
            bent: 0.75,
        }
    }
}

/// A solved grid's connection masks (row-major) following `opts`, which must pass
/// [`GenerateOptions::validate`]. The random and dominoes families draw exactly as they did
/// before the other families existed, so a seed keeps giving the same level.
pub fn solved_masks(opts: &GenerateOptions, rng: &mut fastrand::Rng) -> Vec<u8> {
    let (h, w) = (opts.height, opts.width);
    if opts.max_components == Some(0) {
        return vec![0u8; h * w];
    }
    let mut masks = match opts.family {
        Family::Random => random_sides(h, w, opts.density, rng),
        Family::Dominoes => super::dominoes::domino_masks(h, w, rng),
        Family::Loops => weighted_masks(h, w, LOOPS, rng),
        Family::Mixed => weighted_masks(h, w, MIXED, rng),
        Family::Straight => super::straight::straight_masks(h, w, rng),
        Family::Hooks => super::straight::hook_masks(h, w),
        Family::Ladders => super::straight::ladder_masks(h, w),
        Family::Paths(len) => super::paths::path_masks(h, w, len as usize, opts.bent, rng),
        Family::Maze(algorithm) => {
            let mut masks = maze_masks(h, w, algorithm, rng);
            braid(Dims::new(h, w), &mut masks, opts.braid, rng);
            return masks;
        }
    };
    if let Some(limit) = opts.max_components {
        merge_components(&mut masks, w, limit, rng);
    }
    if let Some(target) = opts.exact_components {
        make_exact(&mut masks, w, target, rng);
    }
    masks
}

/// Every inner side carries a connection with probability `density`.
fn random_sides(h: usize, w: usize, density: f64, rng: &mut fastrand::Rng) -> Vec<u8> {
    let mut masks = vec![0u8; h * w];
    let threshold = (density.clamp(0.0, 1.0) * 4_294_967_296.0).min(4_294_967_295.0) as u64;
    let always = density >= 1.0;
    for r in 0..h {
        for c in 0..w {
            let i = r * w + c;
            if c + 1 < w && (always || u64::from(rng.u32(..)) < threshold) {
                masks[i] |= bit(E);
                masks[i + 1] |= bit(W);
            }
            if r + 1 < h && (always || u64::from(rng.u32(..)) < threshold) {
                masks[i] |= bit(S);
                masks[i + w] |= bit(N);
            }
        }
    }
    masks
}

fn edge_ends(edge: u32, width: usize) -> (usize, usize, u8, u8) {
    let cell = (edge >> 1) as usize;
    if edge & 1 == 0 {
        (cell, cell + 1, bit(E), bit(W))
    } else {
        (cell, cell + width, bit(S), bit(N))
    }
}

/// Adds connections until at most `limit` (≥ 1) components of non-empty cells remain.
fn merge_components(masks: &mut [u8], width: usize, limit: usize, rng: &mut fastrand::Rng) {
    let n = masks.len();
    let height = n / width;
    let mut uf = link_connections(masks, width);
    let mut count = (0..n)
        .filter(|&i| masks[i] != 0 && uf.find(i as u32) == i as u32)
        .count();
    if count <= limit {
        return;
    }
    let mut missing: Vec<u32> = Vec::new();
    for (i, &m) in masks.iter().enumerate() {
        let (r, c) = (i / width, i % width);
        if c + 1 < width && m & bit(E) == 0 {
            missing.push((i * 2) as u32);
        }
        if r + 1 < height && m & bit(S) == 0 {
            missing.push((i * 2 + 1) as u32);
        }
    }
    rng.shuffle(&mut missing);
    // First pass joins only non-empty cells, so empty cells survive where they can. Later
    // passes may extend a component through empty cells; when a pass changes nothing every
    // non-empty cell is already in one component.
    let mut through_empty = false;
    loop {
        let mut changed = false;
        for &e in &missing {
            let (a, b, ba, bb) = edge_ends(e, width);
            if masks[a] & ba != 0 {
                continue;
            }
            let (a_used, b_used) = (masks[a] != 0, masks[b] != 0);
            if !(a_used && b_used) && (!through_empty || (!a_used && !b_used)) {
                continue;
            }
            if !uf.union(a as u32, b as u32) {
                continue;
            }
            masks[a] |= ba;
            masks[b] |= bb;
            changed = true;
            if a_used && b_used {
                count -= 1;
                if count <= limit {
                    return;
                }
            }
        }
        if !changed && through_empty {
            return;
        }
        through_empty = true;
    }
}

/// Turns every piece of a solved grid to a random orientation. Each cell takes exactly one
/// draw (its number of orientations is 1, 2 or 4), so the cells are scrambled in parallel
/// from the draw counter ([`skipped`]): the same level as one thread drawing in order, and
/// `rng` ends where that thread would have left it.
pub fn scramble(masks: &[u8], height: usize, width: usize, rng: &mut fastrand::Rng) -> Game {
    let start = rng.clone();
    let cells = masks
        .par_iter()
        .enumerate()
        .map(|(i, &m)| {
            let p = Piece::from_mask(m);
            let mut draw = skipped(&start, i as u64);
            p.with_orientation(draw.u8(..p.kind().orientations()))
        })
        .collect();
    *rng = skipped(&start, masks.len() as u64);
    Game::from_cells(height, width, cells)
}

/// A random solvable level, the same for the same options.
pub fn generate(opts: &GenerateOptions) -> Game {
    let mut rng = fastrand::Rng::with_seed(opts.seed);
    let masks = solved_masks(opts, &mut rng);
    scramble(&masks, opts.height, opts.width, &mut rng)
}

/// The solved grid the generator built and the scrambled level made from it.
pub fn generate_with_solution(opts: &GenerateOptions) -> (Game, Game) {
    let mut rng = fastrand::Rng::with_seed(opts.seed);
    let masks = solved_masks(opts, &mut rng);
    let level = scramble(&masks, opts.height, opts.width, &mut rng);
    let solved = Game::from_cells(
        opts.height,
        opts.width,
        masks.iter().map(|&m| Piece::from_mask(m)).collect(),
    );
    (solved, level)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::is_solved;
    use crate::generate::components::count_components;

    #[test]
    fn solved_masks_are_a_solution_and_respect_the_bound() {
        for seed in 0..40 {
            for &(h, w) in &[(1, 1), (1, 7), (6, 1), (5, 5), (12, 9)] {
                for limit in [None, Some(0), Some(1), Some(3)] {
                    let mut o = GenerateOptions::new(h, w, seed);
                    o.max_components = limit;
                    let mut rng = fastrand::Rng::with_seed(seed);
                    let masks = solved_masks(&o, &mut rng);
                    let solved = Game::from_cells(
                        h,
                        w,
                        masks.iter().map(|&m| Piece::from_mask(m)).collect(),
                    );
                    assert!(is_solved(&solved), "seed {seed} {h}x{w}");
                    if let Some(l) = limit {
                        assert!(
                            count_components(&masks, w) <= l,
                            "seed {seed} {h}x{w} limit {l}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn all_six_shapes_occur_at_moderate_sizes() {
        let g = generate(&GenerateOptions::new(32, 32, 7));
        assert!(g.histogram().iter().all(|&c| c > 0), "{:?}", g.histogram());
        let mut o = GenerateOptions::new(32, 32, 7);
        o.max_components = Some(1);
        let g = generate(&o);
        assert!(g.histogram().iter().all(|&c| c > 0), "{:?}", g.histogram());
    }

    #[test]
    fn the_parallel_scramble_draws_as_one_thread() {
        // The scramble before it was parallel: one `u8` draw per cell, in row-major order.
        for seed in 0..5 {
            let (h, w) = (300, 301);
            let mut o = GenerateOptions::new(h, w, seed);
            o.family = Family::Mixed;
            let mut rng = fastrand::Rng::with_seed(seed);
            let masks = solved_masks(&o, &mut rng);
            let mut sequential = rng.clone();
            let want: Vec<Piece> = masks
                .iter()
                .map(|&m| {
                    let p = Piece::from_mask(m);
                    p.with_orientation(sequential.u8(..p.kind().orientations()))
                })
                .collect();
            let got = scramble(&masks, h, w, &mut rng);
            assert_eq!(got, Game::from_cells(h, w, want), "seed {seed}");
            assert_eq!(rng.u64(..), sequential.u64(..), "the stream goes on alike");
        }
    }

    #[test]
    fn same_seed_same_level() {
        let o = GenerateOptions::new(20, 30, 99);
        assert_eq!(generate(&o), generate(&o));
        assert_ne!(generate(&o), generate(&GenerateOptions::new(20, 30, 100)));
    }
}
