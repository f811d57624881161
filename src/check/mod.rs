//! Checking whether a grid is solved.

pub mod verify;

pub use verify::{Defect, DefectKind, first_defect, is_solved};
