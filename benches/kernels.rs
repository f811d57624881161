//! Criterion benchmarks of the solver's kernels and of whole solves, on generated levels with
//! fixed seeds (so every run measures the same work). `cargo bench --bench kernels`.

use std::hint::black_box;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use phineloops::engine::check::is_solved;
use phineloops::engine::generate::{
    Family, GenerateOptions, MazeAlgorithm, generate, generate_with_solution,
};
use phineloops::engine::kernels::Prepared;
use phineloops::engine::level::{level_bytes, parse_level};
use phineloops::engine::model::Game;
use phineloops::engine::solve::{Method, Outcome, SolveOptions, solve};

fn level(family: Family, size: usize, seed: u64) -> Game {
    let mut o = GenerateOptions::new(size, size, seed);
    o.family = family;
    generate(&o)
}

fn kernels(c: &mut Criterion) {
    let mut g = c.benchmark_group("kernels_1024");
    g.sample_size(20).measurement_time(Duration::from_secs(5));
    let game = level(Family::Random, 1024, 1);
    let bytes = level_bytes(&game);
    let (_, solved) = generate_with_solution(&GenerateOptions::new(1024, 1024, 1));
    g.bench_function("parse", |b| {
        b.iter(|| parse_level("bench", black_box(&bytes)).expect("valid level"))
    });
    g.bench_function("write", |b| b.iter(|| level_bytes(black_box(&game))));
    g.bench_function("verify", |b| b.iter(|| is_solved(black_box(&solved))));
    g.bench_function("propagate", |b| {
        let prepared = Prepared::new(&game);
        b.iter(|| prepared.propagate_worklist())
    });
    g.bench_function("generate", |b| {
        b.iter(|| generate(black_box(&GenerateOptions::new(1024, 1024, 2))))
    });
    g.finish();
}

/// The first propagation pass per family at 1024x1024: the old worklist pass
/// (`Prepared::propagate_worklist`) beside the solver's sweep on one thread.
fn first_pass(c: &mut Criterion) {
    let mut g = c.benchmark_group("first_pass_1024");
    g.sample_size(10).measurement_time(Duration::from_secs(4));
    let families = [
        ("random", Family::Random),
        ("loops", Family::Loops),
        ("mixed", Family::Mixed),
        ("dominoes", Family::Dominoes),
        ("maze_backtracker", Family::Maze(MazeAlgorithm::Backtracker)),
    ];
    for (name, family) in families {
        let prepared = Prepared::new(&level(family, 1024, 1));
        g.bench_function(BenchmarkId::new("worklist", name), |b| {
            b.iter(|| black_box(&prepared).propagate_worklist())
        });
        g.bench_function(BenchmarkId::new("sweep", name), |b| {
            b.iter(|| black_box(&prepared).first_pass_sweep(usize::MAX))
        });
    }
    g.finish();
}

fn solves(c: &mut Criterion) {
    let mut g = c.benchmark_group("solve");
    g.sample_size(10).measurement_time(Duration::from_secs(8));
    let cases = [
        ("random", Family::Random, 256),
        ("random", Family::Random, 1024),
        ("dominoes", Family::Dominoes, 256),
        ("dominoes", Family::Dominoes, 512),
    ];
    for (name, family, size) in cases {
        let game = level(family, size, 3);
        for (method, threads) in [(Method::Csp, 1), (Method::Auto, 2)] {
            let opts = SolveOptions {
                method,
                threads,
                ..SolveOptions::default()
            };
            let id = BenchmarkId::new(format!("{name}_{method:?}_t{threads}"), size);
            g.bench_with_input(id, &game, |b, game| {
                b.iter(|| {
                    let (out, _) = solve(game, &opts, &AtomicBool::new(false));
                    assert!(matches!(out, Outcome::Solved(_)));
                })
            });
        }
    }
    g.finish();
}

/// Generators whose work is random accesses over the grid, at 2048x2048 (taller than the
/// 128-row window of Kruskal's and the dominoes' windowed order): the whole generation,
/// masks to scrambled level.
fn generators(c: &mut Criterion) {
    let mut g = c.benchmark_group("generate_2048");
    g.sample_size(10).measurement_time(Duration::from_secs(8));
    let cases = [
        ("dominoes", Family::Dominoes),
        ("kruskal", Family::Maze(MazeAlgorithm::Kruskal)),
        ("prim", Family::Maze(MazeAlgorithm::Prim)),
        ("wilson", Family::Maze(MazeAlgorithm::Wilson)),
    ];
    for (name, family) in cases {
        g.bench_function(name, |b| b.iter(|| level(black_box(family), 2048, 1)));
    }
    g.finish();
}

criterion_group!(benches, kernels, first_pass, solves, generators);
criterion_main!(benches);
