//! Perfect mazes: a spanning tree of every cell, so the solved grid is one component without a
//! cycle and each piece is just the set of passages leaving its cell. Every algorithm writes
//! connection masks into a flat row-major array; `braid` then opens extra passages to make
//! loops. All of them run in memory linear in the number of cells (no recursion), so they work
//! at 4096x4096.

pub mod aldous_broder;
pub mod backtracker;
pub mod binary_tree;
pub mod braid;
pub mod grid;
pub mod growing_tree;
pub mod kruskal;
pub mod padded;
pub mod prim;
pub mod recursive_division;
pub mod tile_bits;
pub mod walk_grid;
pub mod wilson;

use grid::Dims;

/// Which active cell the growing-tree algorithm extends next.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Select {
    /// The most recently added cell: long winding corridors (like the backtracker).
    Newest,
    /// A uniformly random active cell: short branches, many dead ends (like Prim).
    Random,
    /// The earliest added cell: long straight corridors radiating from the start.
    Oldest,
    /// The newest cell half of the time, a random one otherwise.
    Mixed,
}

impl Select {
    /// Every selection rule.
    pub const ALL: [Select; 4] = [
        Select::Newest,
        Select::Random,
        Select::Oldest,
        Select::Mixed,
    ];

    /// The rule's name, the suffix of the algorithm name `growing-tree-<name>`.
    pub const fn name(self) -> &'static str {
        match self {
            Select::Newest => "newest",
            Select::Random => "random",
            Select::Oldest => "oldest",
            Select::Mixed => "mixed",
        }
    }
}

/// A perfect-maze algorithm.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MazeAlgorithm {
    /// Depth-first search with an explicit stack.
    Backtracker,
    /// Growing tree: keep a list of active cells, extend from one picked by the [`Select`]
    /// rule, drop it when it has no unvisited neighbour.
    GrowingTree(Select),
    /// Randomised Prim: a random frontier cell joins a random neighbour already in the maze.
    Prim,
    /// Randomised Kruskal: walls in random order, opened when they join two trees.
    Kruskal,
    /// Random walk; a passage is opened on the first visit of a cell (uniform spanning tree).
    AldousBroder,
    /// Loop-erased random walks (uniform spanning tree, much faster than Aldous–Broder).
    Wilson,
    /// Every cell opens north or west.
    BinaryTree,
    /// Walls with one gap split an open chamber, chamber after chamber.
    RecursiveDivision,
}

impl MazeAlgorithm {
    /// Every algorithm and selection, in the order the CLI lists them.
    pub const ALL: [MazeAlgorithm; 11] = [
        MazeAlgorithm::Backtracker,
        MazeAlgorithm::GrowingTree(Select::Newest),
        MazeAlgorithm::GrowingTree(Select::Random),
        MazeAlgorithm::GrowingTree(Select::Oldest),
        MazeAlgorithm::GrowingTree(Select::Mixed),
        MazeAlgorithm::Prim,
        MazeAlgorithm::Kruskal,
        MazeAlgorithm::AldousBroder,
        MazeAlgorithm::Wilson,
        MazeAlgorithm::BinaryTree,
        MazeAlgorithm::RecursiveDivision,
    ];

    /// The name used on the command line and in the instance manifest.
    pub const fn name(self) -> &'static str {
        match self {
            MazeAlgorithm::Backtracker => "backtracker",
            MazeAlgorithm::GrowingTree(Select::Newest) => "growing-tree-newest",
            MazeAlgorithm::GrowingTree(Select::Random) => "growing-tree-random",
            MazeAlgorithm::GrowingTree(Select::Oldest) => "growing-tree-oldest",
            MazeAlgorithm::GrowingTree(Select::Mixed) => "growing-tree-mixed",
            MazeAlgorithm::Prim => "prim",
            MazeAlgorithm::Kruskal => "kruskal",
            MazeAlgorithm::AldousBroder => "aldous-broder",
            MazeAlgorithm::Wilson => "wilson",
            MazeAlgorithm::BinaryTree => "binary-tree",
            MazeAlgorithm::RecursiveDivision => "recursive-division",
        }
    }

    /// The algorithm called `name` on the command line (as [`MazeAlgorithm::name`] gives it).
    pub fn from_name(name: &str) -> Option<MazeAlgorithm> {
        MazeAlgorithm::ALL.into_iter().find(|a| a.name() == name)
    }
}

/// Aldous–Broder's walk needs the grid's cover time, about n·log²n steps: above this many
/// cells (2048x2048, some seconds) `aldous-broder` runs Wilson's algorithm instead, which
/// draws from the same distribution (the uniform spanning tree) in about the mean hitting
/// time. Smaller grids keep their exact Aldous–Broder output for a seed.
pub const ALDOUS_BRODER_MAX_CELLS: usize = 1 << 22;

/// Connection masks (row-major) of a perfect maze on `height` x `width` cells.
pub fn maze_masks(
    height: usize,
    width: usize,
    algorithm: MazeAlgorithm,
    rng: &mut fastrand::Rng,
) -> Vec<u8> {
    let dims = Dims::new(height, width);
    let mut masks = vec![0u8; dims.cells()];
    if dims.cells() < 2 {
        return masks;
    }
    match algorithm {
        MazeAlgorithm::Backtracker => backtracker::carve(dims, &mut masks, rng),
        MazeAlgorithm::GrowingTree(select) => growing_tree::carve(dims, &mut masks, select, rng),
        MazeAlgorithm::Prim => prim::carve(dims, &mut masks, rng),
        MazeAlgorithm::Kruskal => kruskal::carve(dims, &mut masks, rng),
        MazeAlgorithm::AldousBroder if dims.cells() > ALDOUS_BRODER_MAX_CELLS => {
            wilson::carve(dims, &mut masks, rng)
        }
        MazeAlgorithm::AldousBroder => aldous_broder::carve(dims, &mut masks, rng),
        MazeAlgorithm::Wilson => wilson::carve(dims, &mut masks, rng),
        MazeAlgorithm::BinaryTree => binary_tree::carve(dims, &mut masks, rng),
        MazeAlgorithm::RecursiveDivision => recursive_division::carve(dims, &mut masks, rng),
    }
    masks
}

/// Whether `masks` (row-major, `dims`) is a perfect maze: a solved grid whose passages form
/// a spanning tree, checked by counting passages and components (for the tests).
#[cfg(test)]
pub(crate) fn is_spanning_tree(dims: Dims, masks: &[u8]) -> bool {
    use crate::generate::components::count_components;
    let ends: usize = masks.iter().map(|m| m.count_ones() as usize).sum();
    crate::check::is_solved(&grid::solved_game(dims.height, dims.width, masks))
        && ends / 2 == dims.cells() - 1
        && count_components(masks, dims.width) == 1
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_algorithm_builds_a_spanning_tree() {
        for algorithm in MazeAlgorithm::ALL {
            for &(h, w) in &[
                (1, 1),
                (1, 2),
                (2, 1),
                (1, 9),
                (9, 1),
                (2, 2),
                (3, 7),
                (16, 11),
            ] {
                for seed in 0..20 {
                    let mut rng = fastrand::Rng::with_seed(seed);
                    let masks = maze_masks(h, w, algorithm, &mut rng);
                    let what = format!("{} {h}x{w} seed {seed}", algorithm.name());
                    if h * w == 1 {
                        assert_eq!(masks, vec![0], "{what}");
                        continue;
                    }
                    assert!(is_spanning_tree(Dims::new(h, w), &masks), "{what}");
                    assert!(masks.iter().all(|&m| m != 0), "{what}");
                }
            }
        }
    }

    #[test]
    fn growing_tree_newest_is_the_backtracker() {
        // The same algorithm by two routes: the active list's bookkeeping must not change it.
        for seed in 0..10 {
            let a = maze_masks(
                13,
                17,
                MazeAlgorithm::Backtracker,
                &mut fastrand::Rng::with_seed(seed),
            );
            let newest = MazeAlgorithm::GrowingTree(Select::Newest);
            let b = maze_masks(13, 17, newest, &mut fastrand::Rng::with_seed(seed));
            assert_eq!(a, b, "seed {seed}");
        }
    }

    #[test]
    fn names_round_trip() {
        for a in MazeAlgorithm::ALL {
            assert_eq!(MazeAlgorithm::from_name(a.name()), Some(a));
        }
        assert_eq!(MazeAlgorithm::from_name("growing-tree"), None);
    }
}
