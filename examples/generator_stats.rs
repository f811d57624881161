//! Measurements behind the README's generator tables (run in release):
//!
//! ```sh
//! cargo run --release --example generator_stats -- families   # piece mix vs the public levels
//! cargo run --release --example generator_stats -- mazes      # maze texture, 256x256
//! cargo run --release --example generator_stats -- timing 1024
//! ```

use std::path::Path;
use std::time::Instant;

use phineloops::engine::generate::{Family, GenerateOptions, MazeAlgorithm, generate};
use phineloops::engine::level::load_level;
use phineloops::engine::model::Game;

const NAMES: [&str; 6] = ["empty", "Q", "I", "T", "X", "L"];

fn shares(h: [usize; 6]) -> [f64; 6] {
    let total: usize = h.iter().sum();
    h.map(|c| c as f64 / total as f64)
}

fn print_row(label: &str, s: [f64; 6]) {
    let cols: Vec<String> = s.iter().map(|v| format!("{:5.1}", v * 100.0)).collect();
    println!("| {label:<28} | {} |", cols.join(" | "));
}

fn add(acc: &mut [usize; 6], g: &Game) {
    for (a, c) in acc.iter_mut().zip(g.histogram()) {
        *a += c;
    }
}

fn families() {
    println!("| source (% of cells)          | empty |     Q |     I |     T |     X |     L |");
    println!("|---|---|---|---|---|---|---|");
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/instances/public");
    for dist in ["dist.0", "dist.1", "dist.6"] {
        let mut acc = [0usize; 6];
        let mut files = 0;
        if let Ok(entries) = std::fs::read_dir(&dir) {
            for e in entries.flatten() {
                let name = e.file_name().to_string_lossy().into_owned();
                if name.contains(&format!("_{dist}_")) && name.contains("messedup.false") {
                    add(&mut acc, &load_level(&e.path()).expect("public level"));
                    files += 1;
                }
            }
        }
        if files > 0 {
            print_row(&format!("public {dist} ({files} files)"), shares(acc));
        }
    }
    let fams = [
        ("loops", Family::Loops),
        ("dominoes", Family::Dominoes),
        ("mixed", Family::Mixed),
        ("random", Family::Random),
    ];
    for (name, family) in fams {
        let mut acc = [0usize; 6];
        for seed in 0..10 {
            let mut o = GenerateOptions::new(128, 128, seed);
            o.family = family;
            add(&mut acc, &generate(&o));
        }
        print_row(&format!("{name} 128x128 (10 seeds)"), shares(acc));
    }
    for d in [0.3, 0.4, 0.6] {
        let mut acc = [0usize; 6];
        for seed in 0..10 {
            let mut o = GenerateOptions::new(128, 128, seed);
            o.density = d;
            add(&mut acc, &generate(&o));
        }
        print_row(&format!("random --density {d}"), shares(acc));
    }
    let _ = NAMES;
}

fn mazes() {
    println!("| algorithm (256x256, 5 seeds) | empty |     Q |     I |     T |     X |     L |");
    println!("|---|---|---|---|---|---|---|");
    for a in MazeAlgorithm::ALL {
        for braid in [0.0, 0.5] {
            if braid > 0.0 && a != MazeAlgorithm::Backtracker && a != MazeAlgorithm::Kruskal {
                continue;
            }
            let mut acc = [0usize; 6];
            for seed in 0..5 {
                let mut o = GenerateOptions::new(256, 256, seed);
                o.family = Family::Maze(a);
                o.braid = braid;
                add(&mut acc, &generate(&o));
            }
            let label = if braid > 0.0 {
                format!("{} --braid {braid}", a.name())
            } else {
                a.name().to_string()
            };
            print_row(&label, shares(acc));
        }
    }
}

fn time(label: &str, o: &GenerateOptions) {
    let t = Instant::now();
    let g = generate(o);
    let ms = t.elapsed().as_secs_f64() * 1e3;
    std::hint::black_box(&g);
    println!("| {label:<28} | {ms:9.1} |");
}

fn timing(size: usize) {
    println!("| generator ({size}x{size}, seed 1) | ms |");
    println!("|---|---|");
    for (name, family) in [
        ("random", Family::Random),
        ("dominoes", Family::Dominoes),
        ("loops", Family::Loops),
        ("mixed", Family::Mixed),
    ] {
        let mut o = GenerateOptions::new(size, size, 1);
        o.family = family;
        time(name, &o);
    }
    for n in [1, 1000, size * size / 4, size * size / 2] {
        let mut o = GenerateOptions::new(size, size, 1);
        o.exact_components = Some(n);
        time(&format!("random --nbcc-exact {n}"), &o);
    }
    for a in MazeAlgorithm::ALL {
        let mut o = GenerateOptions::new(size, size, 1);
        o.family = Family::Maze(a);
        time(a.name(), &o);
    }
    let mut o = GenerateOptions::new(size, size, 1);
    o.family = Family::Maze(MazeAlgorithm::Backtracker);
    o.braid = 1.0;
    time("backtracker --braid 1", &o);
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        Some("families") => families(),
        Some("mazes") => mazes(),
        Some("timing") => timing(args.get(1).and_then(|s| s.parse().ok()).unwrap_or(1024)),
        _ => eprintln!("usage: generator_stats families|mazes|timing [SIZE]"),
    }
}
