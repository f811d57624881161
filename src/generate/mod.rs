//! Level generation: random solved grids with a bounded number of components, scrambled;
//! optionally changed until the level has exactly one solution ([`unique`]).

pub mod components;
pub mod dominoes;
pub mod random_level;
pub mod union_find;
pub mod unique;

pub use components::{count_components, game_components};
pub use random_level::{Family, GenerateOptions, generate, generate_with_solution};
pub use unique::{UniqueError, UniqueLevel, generate_unique};
