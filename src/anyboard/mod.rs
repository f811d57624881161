//! The engine on any board: the same state, propagation, region split, search and verifier
//! for every [`Board`](crate::board::Board), reading only its link table. A level is compiled
//! into a [`network::Network`] (shape tables and links, nothing else), so a new tiling needs no
//! change here.
//!
//! The bounded square board also has a specialised engine (`crate::solve`: first-pass tables,
//! the flow witness, the racing pool); the front ends send it there.

pub mod beside;
#[cfg(feature = "cp")]
pub mod cp;
mod first_pass;
pub mod net;
pub mod net_search;
pub mod net_verify;
pub mod network;
pub mod probe;
pub mod regions;
pub mod search;
pub mod shapes;
mod shares;
pub mod solve;
mod square_wrap;
mod triangles;
pub mod verify;

pub use net_search::{count_level, net_solutions, solve_level, two_solutions_level};
pub use net_verify::{Fault, first_fault};
pub use search::Stop;
pub use solve::{Count, Outcome, Stats, count, solve, two_solutions};
/// Whether [`solve_level`] sends `level` to the square engine (a square board that wraps
/// with even lengths keeps its two colours, so the flow witness holds).
pub use square_wrap::takes as takes_square_engine;
pub use verify::{Defect, first_defect, is_solved};

#[cfg(test)]
mod mixed_tests;
#[cfg(test)]
mod net_tests;
#[cfg(test)]
mod tests;
