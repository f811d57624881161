//! Level generation: a solved grid from a family (random sides, dominoes, loops, mixed
//! shapes) or a maze algorithm, bent to a component count when asked, then scrambled;
//! optionally changed until the level has exactly one solution ([`unique`]).

pub mod board_difficulty;
pub mod board_families;
pub mod board_local_check;
pub mod board_paths;
pub mod board_unique;
pub mod board_unsolvable;
pub mod components;
pub mod counter_rng;
pub mod domino_tiling;
pub mod dominoes;
pub mod exact_components;
pub mod forced_tree;
pub mod local_check;
pub mod maze;
pub mod maze_repair;
pub mod paths;
pub mod prefetch;
pub mod random_level;
pub mod straight;
pub mod unique;
pub mod unsolvable;
pub mod validate;
pub mod weighted_shapes;
pub mod windowed_order;

pub use components::{count_components, game_components};
pub use exact_components::max_components;
pub use maze::{MazeAlgorithm, Select};
pub use random_level::{Family, GenerateOptions, generate, generate_with_solution};
pub use unique::{UniqueError, UniqueLevel, generate_unique};
pub use unsolvable::{Alteration, Breakage, even_parity_variant, odd_parity_variant};
