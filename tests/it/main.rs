//! The integration tests, one binary with a module per concern (as ripgrep does): one link of
//! the crate instead of one per file, and one process whose test threads share the machine.
//! A new file here needs a `mod` line below; `tests/common` stays beside it so a stand-alone
//! `tests/NAME.rs` can still say `mod common;`.

#[path = "../common/mod.rs"]
mod common;

mod boards;
mod browser;
mod cli;
mod cli_count;
mod cli_hardening;
mod cli_view;
mod cnf_cp;
mod count;
mod deduce;
mod engine;
mod explain;
mod generate_cli;
mod generate_families;
mod maze_trees;
mod net;
mod observed;
mod oracle;
mod properties;
mod public_instances;
mod reader_fuzz;
mod readme;
mod render;
mod rough_edges;
mod scale;
mod shipped_instances;
mod unique;
