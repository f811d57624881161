//! Conflict learning on any board (issue 32): the level as one boolean per pair of facing
//! sides (an *edge*: is there a connection across it), each cell a table constraint ("the
//! set of its connected sides is a turn of its piece"), searched by CDCL: every narrowing a
//! cell makes is explained by the cell's earlier assignments, each conflict is analysed to a
//! first-UIP clause kept on two watched literals, the search jumps back to where that clause
//! propagates, branches by activity in target phases, restarts on the Luby sequence while
//! keeping what it learned, and forgets clauses of high LBD and low activity.
//!
//! Families where local propagation learns nothing (path tilings: many short paths whose
//! pieces have two or four turns) are where a chronological search repeats the same
//! refutations; learning is what stops that. Barriers are constant false edges, a locked
//! cell's table has its one turn; Net rules add a theory of their own (`net.rs`) whose
//! lemmas refuse cycles and closed networks.

mod analyze;
mod another;
mod auto;
mod cells;
mod clauses;
mod edges;
mod heap;
mod local;
mod net;
mod phase;
mod pockets;
mod probing;
mod race;
mod regions;
mod repair;
mod search;
mod solve;
mod splits;

pub use another::{count_limited, two_solutions};
pub use auto::solve_auto;
pub use search::Counters;
pub use solve::{LearnStats, solve, solve_game, solve_learning};

#[cfg(test)]
mod tests;
