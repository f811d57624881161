//! Pictures of a level: box-drawing text for the terminal (optionally coloured by what the
//! solver's propagation leaves open), and SVG / PNG drawings with round-capped pipes.

pub mod color;
pub mod domains;
pub mod geometry;
pub mod glyphs;
#[cfg(feature = "png")]
pub mod png;
pub mod svg;
pub mod unicode;

pub use color::{ColorChoice, Shade};
