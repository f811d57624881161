//! Level generation: random solved grids with a bounded number of components, scrambled.

pub mod components;
pub mod dominoes;
pub mod random_level;
pub mod union_find;

pub use components::{count_components, game_components};
pub use random_level::{Family, GenerateOptions, generate, generate_with_solution};
