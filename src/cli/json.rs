//! `--json`: the solve report as one JSON object, built with `serde_json` so that every
//! string is escaped and every field typed the same way each time.

use serde_json::{Value, json};

use crate::explain::Reason;
use crate::model::Game;
use crate::solve::{Method, SolveStats};

use super::run::Phases;

fn ms(d: std::time::Duration) -> f64 {
    // Three decimals: microseconds, as `--stats` prints them.
    (d.as_secs_f64() * 1e6).round() / 1e3
}

/// The object printed after the `SOLVED:` line: verdict, method, counters, phase times and,
/// for a level without a solution, the reason.
pub(super) fn solve_report(
    st: &SolveStats,
    t: &Phases,
    verdict: &str,
    method: Method,
    reason: Option<(&Reason, &Game)>,
) -> String {
    let mut sizes = st.region_sizes.clone();
    sizes.sort_unstable_by(|a, b| b.cmp(a));
    let mut report = json!({
        "result": verdict,
        "method": format!("{method:?}").to_lowercase(),
        "threads": st.threads,
        "cells": st.cells,
        "fixed_after_propagation": st.fixed_after_propagation,
        "fixed_by_flow_filter": st.counters.filter_fixed,
        "regions": st.region_sizes.len(),
        "region_sizes": sizes,
        "jobs": st.jobs,
        "nodes": st.counters.nodes,
        "backtracks": st.counters.backtracks,
        "restarts": st.counters.restarts,
        "backjumps": st.counters.backjumps,
        "tie_break_switches": st.counters.tie_break_switches,
        "replayed": st.counters.replayed,
        "repair_picks": st.counters.repair_picks,
        "time_ms": {
            "parse": ms(t.parse),
            "propagate": ms(st.propagate_time),
            "regions": ms(st.regions_time),
            "search": ms(st.search_time),
            "verify": ms(st.verify_time),
            "write": ms(t.write),
            "total": ms(t.total),
        },
    });
    if let Some((why, game)) = reason {
        report["reason"] = reason_value(why, game);
    }
    report.to_string()
}

/// A reason as `kind`, `message`, `cells` as [row, column] pairs, and the kind's numbers.
pub(super) fn reason_value(why: &Reason, game: &Game) -> Value {
    let w = game.width();
    let at = |c: usize| json!([c / w, c % w]);
    let mut v = json!({
        "kind": why.kind(),
        "message": why.message(game),
        "cells": why.cells().into_iter().map(at).collect::<Vec<_>>(),
    });
    match why {
        Reason::OddEnds { ends } => v["ends"] = json!(ends),
        Reason::Unbalanced { dark, light } => {
            v["dark"] = json!(dark);
            v["light"] = json!(light);
        }
        Reason::Deficient { need, can_give, .. } => {
            v["need"] = json!(need);
            v["can_give"] = json!(can_give);
        }
        Reason::Emptied { cell, .. } => v["cell"] = at(*cell),
        Reason::Exhausted {
            regions,
            largest,
            nodes,
        } => {
            v["regions"] = json!(regions);
            v["largest"] = json!(largest);
            v["nodes"] = json!(nodes);
        }
    }
    v
}
