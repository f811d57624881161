//! Textbook algorithms the engine shares, each written once over flat arrays of small
//! integers and independent of boards and pieces.

pub mod b_matching;
pub mod flow;
pub mod parity_union_find;
pub mod rem_sets;
pub mod undo_union_find;
pub mod union_find;
