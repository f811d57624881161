//! Level generation: random solved grids with a bounded number of components, scrambled.

pub mod components;
pub mod random_level;
pub mod union_find;

pub use components::{count_components, game_components};
pub use random_level::{GenerateOptions, generate, generate_with_solution};
