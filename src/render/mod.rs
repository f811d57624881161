//! Pictures of a level: box-drawing text for the terminal (optionally coloured by what the
//! solver's propagation leaves open), and SVG / PNG drawings with round-capped pipes.
//!
//! `svg`, `png` and `unicode` draw the course format's bounded square [`crate::model::Game`]
//! (the fast path); `board_svg`, `board_png` (feature `png`) and `board_text` draw a level on any
//! [`crate::board::Board`] (hexagonal cells, wrapped edges) from its geometry.

#[cfg(feature = "png")]
pub mod board_png;
pub mod board_svg;
pub mod board_text;
pub mod color;
pub mod domains;
pub mod geometry;
pub mod glyphs;
#[cfg(feature = "png")]
pub mod png;
pub mod svg;
pub mod unicode;

pub use color::{ColorChoice, Shade};
