//! The web app in a real browser: `phineloops --serve` started on a free port, headless
//! Chromium driven through chromedriver's WebDriver API (skipped with a message where either
//! is missing). The player generates a level in the panel, turns pieces by clicks until it
//! is solved (the clicks the solver's answer asks for), and uses undo, redo, lock, a hint,
//! the keyboard, the watch replay, a hexagonal level opened from a file, the narrow phone
//! layout, the dark colour scheme and the offline page of `--render FILE.html`, also on
//! hexapipes' grids of mixed cells (octagons and squares, triangles, ...), whose cells each
//! turn over their own sides. Screenshots go to target/browser-screens/. The server's
//! refusals are tested without a browser.

mod http;
mod server;
mod webdriver;

use std::collections::VecDeque;
use std::path::{Path, PathBuf};

use phineloops::board::{Board, BoardLevel, Grid, Tiling, Wrap};
use phineloops::{hexapipes_bytes, parse_hexapipes};
use serde_json::{Value, json};

use crate::common::cli::run;
use http::{post_json, request};
use server::Server;
use webdriver::{Driver, find_tools};

/// `mask` turned `t` places up its `k` sides.
fn rotate(mask: u8, k: u32, t: u32) -> u8 {
    let t = t % k;
    let full = ((1u32 << k) - 1) as u8;
    if t == 0 {
        return mask;
    }
    (((u32::from(mask) << t) | (u32::from(mask) >> (k - t))) as u8) & full
}

/// Clockwise clicks that take `mask` to `target`.
fn clicks_to(mask: u8, target: u8, k: u32, clockwise_numbering: bool) -> u32 {
    let step = if clockwise_numbering { 1 } else { k - 1 };
    (0..k)
        .find(|&i| rotate(mask, k, step * i) == target)
        .unwrap_or_else(|| panic!("{target} is no turn of {mask}"))
}

fn screens() -> PathBuf {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/browser-screens");
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The page's level, as the server takes it.
fn page_level(d: &Driver) -> Value {
    d.js("return phine.levelForServer()", json!([]))
}

/// The solver's answer for the page's level, from the server.
fn solution(d: &Driver, server: &Server) -> Vec<u8> {
    let (status, answer) = post_json(server.port, "/api/solve", &json!({"level": page_level(d)}));
    assert_eq!(status, 200, "{answer}");
    serde_json::from_value(answer["masks"].clone()).unwrap()
}

fn masks(d: &Driver) -> Vec<u8> {
    serde_json::from_value(d.js("return Array.from(phine.masks)", json!([]))).unwrap()
}

/// Clicks every piece into the solver's orientation; returns the clicks made.
fn solve_by_clicks(d: &Driver, server: &Server) -> u32 {
    let sol = solution(d, server);
    let k = d.js("return phine.k", json!([])).as_u64().unwrap() as u32;
    let cw = d.js("return phine.geo.clockwise", json!([])) == json!(true);
    let mut clicks = 0;
    for (cell, (&now, &target)) in masks(d).iter().zip(&sol).enumerate() {
        for _ in 0..clicks_to(now, target, k, cw) {
            d.click(&format!("#c{cell}"));
            clicks += 1;
        }
    }
    assert_eq!(masks(d), sol, "the clicks turned every piece into place");
    clicks
}

fn solved(d: &Driver) -> bool {
    d.js(
        "return document.getElementById('status').dataset.solved === 'true'",
        json!([]),
    ) == json!(true)
}

/// Loads the level of `hash` (board and seed) and waits until it is drawn.
fn load_hash(d: &Driver, server: &Server, hash: &str) {
    // A page of another origin (the offline file) is a new document: any id is new then.
    let origin = server.url("").trim_end_matches('/').to_string();
    let before = d.js(
        "return window.phine && location.origin === arguments[0] ? phine.id : -1",
        json!([origin]),
    );
    d.goto(&server.url(&format!("#{hash}")));
    // A hash change alone does not reload the page: the page follows it.
    d.wait_for(
        &format!(
            "return !!window.phine && phine.level !== null && phine.id !== {before} && phine.query === '{hash}'"
        ),
        60,
        hash,
    );
}

fn text(d: &Driver, id: &str) -> String {
    d.js(
        &format!("return document.getElementById('{id}').textContent"),
        json!([]),
    )
    .as_str()
    .unwrap()
    .to_string()
}

/// A screenshot of the page from its top.
fn shot(d: &Driver, path: &Path) {
    d.js("window.scrollTo(0, 0)", json!([]));
    d.screenshot(path);
}

fn median(mut xs: Vec<f64>) -> f64 {
    xs.sort_by(f64::total_cmp);
    xs[xs.len() / 2]
}

#[test]
fn plays_in_a_real_browser() {
    let (browser, driver) = match find_tools() {
        Ok(tools) => tools,
        Err(why) => {
            println!("skipped: {why} (apt-get install chromium chromium-driver)");
            return;
        }
    };
    let saves = tempfile::tempdir().unwrap();
    let server = Server::start(saves.path());
    let d = match Driver::start(&browser, &driver, 1000, 1000) {
        Ok(d) => d,
        Err(why) => {
            println!("skipped: the browser did not start: {why}");
            return;
        }
    };
    let shots = screens();

    // Open the page; it generates its default level. Then a small one from the panel.
    d.goto(&server.url(""));
    d.wait_for(
        "return !!window.phine && phine.level !== null",
        60,
        "the first level",
    );
    d.click("#gen-panel summary");
    for (field, value) in [("width", "5"), ("height", "4"), ("seed", "7")] {
        d.clear(&format!("#gen-form [name={field}]"));
        d.send_keys(&format!("#gen-form [name={field}]"), value);
    }
    let id = d.js("return phine.id", json!([]));
    d.click("#generate");
    d.wait_for(
        &format!("return phine.id !== {id}"),
        60,
        "the generated level",
    );
    let level = page_level(&d);
    assert_eq!(
        (level["width"].as_u64(), level["height"].as_u64()),
        (Some(5), Some(4))
    );
    assert!(
        d.js("return location.hash", json!([]))
            .as_str()
            .unwrap()
            .contains("seed=7")
    );
    assert_eq!(
        d.js(
            "return document.getElementById('timer').dataset.running",
            json!([])
        ),
        json!("true")
    );

    // Turn pieces by clicks until solved: the state and the stopped clock.
    let clicks = solve_by_clicks(&d, &server);
    assert!(clicks > 0);
    assert!(solved(&d));
    assert_eq!(text(&d, "moves"), format!("{clicks} moves"));
    assert_eq!(
        d.js(
            "return document.getElementById('timer').dataset.running",
            json!([])
        ),
        json!("false")
    );
    let stopped = text(&d, "timer");
    let tick = d.js("return phine.tick", json!([])).as_u64().unwrap();
    // Five clock ticks later (polled), the clock still shows the same time.
    d.wait_for(
        &format!("return phine.tick >= {}", tick + 5),
        10,
        "clock ticks",
    );
    assert_eq!(text(&d, "timer"), stopped);
    shot(&d, &shots.join("solved-square.png"));

    // Undo unsolves, redo solves again.
    d.click("#undo");
    assert!(!solved(&d));
    assert_eq!(text(&d, "moves"), format!("{} moves", clicks - 1));
    d.click("#redo");
    assert!(solved(&d));

    // Keyboard: space turns the cursor's piece, R turns it back, u undoes.
    d.js("document.getElementById('board').focus()", json!([]));
    let before = masks(&d);
    d.keys(" ");
    let after = masks(&d);
    assert_ne!(before, after, "space turned a piece");
    d.keys("R");
    assert_eq!(masks(&d), before, "R turned it back");
    d.keys("u");
    assert_ne!(masks(&d), before, "u took back the R");
    d.keys("u");
    assert_eq!(masks(&d), before);

    // A right click turns back; a locked tile does not turn.
    let cell = d.js(
        "for (let c = 0; c < phine.masks.length; c++) { const m = phine.masks[c]; \
         if (m && m !== 15 && phine.masks[c] !== ((m << 1 | m >> 3) & 15)) return c; } return -1",
        json!([]),
    );
    let cell = cell.as_i64().unwrap();
    assert!(cell >= 0, "a piece that changes when turned");
    let m0 = masks(&d)[cell as usize];
    d.right_click(&format!("#c{cell}"));
    assert_eq!(
        masks(&d)[cell as usize],
        rotate(m0, 4, 3),
        "a right click turns back"
    );
    d.click("#lockmode");
    d.click(&format!("#c{cell}"));
    d.click("#lockmode");
    assert_eq!(
        d.js(
            &format!("return document.getElementById('c{cell}').classList.contains('locked')"),
            json!([])
        ),
        json!(true)
    );
    let m1 = masks(&d)[cell as usize];
    d.click(&format!("#c{cell}"));
    assert_eq!(masks(&d)[cell as usize], m1, "a locked tile stays");
    assert_eq!(text(&d, "message"), "that tile is locked");

    // A hint turns one wrong piece into the solver's orientation.
    load_hash(
        &d,
        &server,
        "w=6&h=6&grid=square&wrap=none&family=random&rules=infinity&seed=8",
    );
    let start_8 = masks(&d);
    let sol = solution(&d, &server);
    let wrong_before = masks(&d).iter().zip(&sol).filter(|(a, b)| a != b).count();
    d.click("#hint");
    d.wait_for("return phine.hints === 1", 30, "the hint");
    let wrong_after = masks(&d).iter().zip(&sol).filter(|(a, b)| a != b).count();
    assert_eq!(wrong_after + 1, wrong_before, "{}", text(&d, "message"));
    assert!(text(&d, "moves").contains("1 hint"));

    // Why? explains the next deduction and marks the cells it read, turning nothing; Check
    // marks the pieces the deductions rule out, each of them wrong against the solution.
    let before_why = masks(&d);
    d.click("#explain");
    d.wait_for(
        "return document.querySelectorAll('.explained').length > 0",
        30,
        "the explained step",
    );
    assert!(
        text(&d, "message").starts_with('['),
        "{}",
        text(&d, "message")
    );
    assert_eq!(masks(&d), before_why, "Why? turns nothing");
    d.click("#check");
    d.wait_for(
        "return /turned in a way/.test(document.getElementById('message').textContent)",
        30,
        "the check",
    );
    let marked: Vec<u64> = serde_json::from_value(d.js(
        "return Array.from(document.querySelectorAll('.mistake')).map(e => Number(e.dataset.cell))",
        json!([]),
    ))
    .unwrap();
    assert!(!marked.is_empty(), "{}", text(&d, "message"));
    let now = masks(&d);
    for c in &marked {
        let c = *c as usize;
        assert_ne!(now[c], sol[c], "cell {c} is marked but right");
    }

    // Watch the solver (at full speed) until it has solved the level.
    for _ in 0..6 {
        d.keys("+");
    }
    d.click("#watch");
    d.wait_for(
        "return phine.solved && phine.solvedBy === 'solver'",
        60,
        "the solver",
    );

    // A hexagonal Net level, opened from a file in the panel, solved by clicks.
    let hex = saves.path().join("hex.json");
    let made = run(&[
        "--generate",
        "4x4",
        "--grid",
        "hexagonal",
        "--rules",
        "net",
        "--seed",
        "3",
        "-o",
        hex.to_str().unwrap(),
    ]);
    assert_eq!(made.code, 0, "{}", made.stderr);
    d.click("#file-panel summary");
    let id = d.js("return phine.id", json!([]));
    d.send_keys("#open", hex.to_str().unwrap());
    d.wait_for(&format!("return phine.id !== {id}"), 30, "the opened file");
    let level = page_level(&d);
    assert_eq!(
        (level["tiling"].as_str(), level["rules"].as_str()),
        (Some("hexagonal"), Some("net"))
    );
    assert!(text(&d, "message").contains("hexapipes format"));
    let hex_start = masks(&d);
    let hex_link = d.js("return location.hash", json!([]));
    let hex_link = hex_link
        .as_str()
        .unwrap()
        .trim_start_matches('#')
        .to_string();
    assert!(hex_link.starts_with("text="), "{hex_link}");
    shot(&d, &shots.join("hexagonal-start.png"));
    solve_by_clicks(&d, &server);
    assert!(solved(&d));
    shot(&d, &shots.join("hexagonal-solved.png"));

    // Save into the server's folder in another format.
    d.js("document.getElementById('format').value = 'board'; document.getElementById('save-name').value = 'mine.board'", json!([]));
    d.click("#save");
    d.wait_for(
        "return document.getElementById('message').textContent.startsWith('saved')",
        30,
        "the save",
    );
    let saved = std::fs::read_to_string(saves.path().join("mine.board")).unwrap();
    assert!(
        saved.starts_with("board hexagonal 4x4 wrap=none rules=net"),
        "{saved}"
    );

    // Net rules: a closed loop, and two closed islands, are marked and not solved; the same
    // islands under Infinity rules are a solution.
    let open_file = |name: &str, text: &str| {
        let path = saves.path().join(name);
        std::fs::write(&path, text).unwrap();
        let id = d.js("return phine.id", json!([]));
        d.send_keys("#open", path.to_str().unwrap());
        d.wait_for(&format!("return phine.id !== {id}"), 30, name);
        std::fs::remove_file(&path).unwrap();
    };
    let classes = |class: &str| {
        d.js(
            &format!("return Array.from(phine.cells).map((g) => g.classList.contains('{class}'))"),
            json!([]),
        )
    };
    open_file(
        "loop.board",
        "board square 2x2 wrap=none rules=net\n6\n12\n3\n9\n",
    );
    assert_eq!(classes("loop"), json!([true, true, true, true]));
    assert!(!solved(&d));
    open_file(
        "islands.board",
        "board square 4x1 wrap=none rules=net\n2\n8\n2\n8\n",
    );
    assert_eq!(classes("island"), json!([true, true, true, true]));
    assert_eq!(classes("loop"), json!([false, false, false, false]));
    assert!(!solved(&d));
    open_file("pairs.board", "board square 4x1 wrap=none\n2\n8\n2\n8\n");
    assert_eq!(classes("island"), json!([false, false, false, false]));
    assert!(solved(&d));

    // First paint of a 40x40 level, a turn at 100x100 (both measured in the page).
    let mut paints = Vec::new();
    let mut renders = Vec::new();
    for seed in 1..=3 {
        load_hash(
            &d,
            &server,
            &format!("w=40&h=40&grid=square&wrap=none&family=random&rules=infinity&seed={seed}"),
        );
        d.wait_for(
            "return phine.perf.paint !== null && phine.perf.paint > 0",
            10,
            "the paint",
        );
        renders.push(
            d.js("return phine.perf.render", json!([]))
                .as_f64()
                .unwrap(),
        );
        paints.push(d.js("return phine.perf.paint", json!([])).as_f64().unwrap());
    }
    // The same size as a fresh document (the --render page): the browser's first contentful
    // paint from navigation start, and the board's own drawing.
    let mut cold_fcp = Vec::new();
    let mut cold_paint = Vec::new();
    for seed in 1..=3 {
        let lvl = saves.path().join(format!("l40-{seed}.txt"));
        let html = saves.path().join(format!("l40-{seed}.html"));
        let seed = seed.to_string();
        assert_eq!(
            run(&[
                "--generate",
                "40x40",
                "--seed",
                &seed,
                "-o",
                lvl.to_str().unwrap()
            ])
            .code,
            0
        );
        assert_eq!(
            run(&[
                "--print",
                lvl.to_str().unwrap(),
                "--render",
                html.to_str().unwrap()
            ])
            .code,
            0
        );
        d.goto(&format!("file://{}", html.display()));
        d.wait_for(
            "return !!window.phine && phine.perf.paint !== null && \
             performance.getEntriesByName('first-contentful-paint').length > 0",
            10,
            "the cold paint",
        );
        cold_paint.push(d.js("return phine.perf.paint", json!([])).as_f64().unwrap());
        cold_fcp.push(
            d.js(
                "return performance.getEntriesByName('first-contentful-paint')[0].startTime",
                json!([]),
            )
            .as_f64()
            .unwrap(),
        );
    }
    load_hash(
        &d,
        &server,
        "w=100&h=100&grid=square&wrap=none&family=random&rules=infinity&seed=1",
    );
    let mut turns = Vec::new();
    let mut frames = Vec::new();
    for cell in [5050, 5051, 5151, 2020, 7070, 9999, 0] {
        d.js("phine.perf.turnFrame = null", json!([]));
        d.click(&format!("#c{cell}"));
        d.wait_for(
            "return phine.perf.turnFrame !== null",
            10,
            "the turn's frame",
        );
        turns.push(d.js("return phine.perf.turn", json!([])).as_f64().unwrap());
        frames.push(
            d.js("return phine.perf.turnFrame", json!([]))
                .as_f64()
                .unwrap(),
        );
    }
    println!(
        "browser timings, new document: 40x40 first contentful paint {:.1} ms (min {:.1}), board drawn and painted {:.1} ms (min {:.1})",
        median(cold_fcp.clone()),
        cold_fcp.iter().copied().fold(f64::INFINITY, f64::min),
        median(cold_paint.clone()),
        cold_paint.iter().copied().fold(f64::INFINITY, f64::min),
    );
    println!(
        "browser timings (headless Chromium, a shared 2-core machine): 40x40 draw {:.1} ms (min {:.1}), first paint {:.1} ms (min {:.1}); \
         100x100 turn handled {:.2} ms (min {:.2}), to the next frame {:.1} ms (min {:.1})",
        median(renders.clone()),
        renders.iter().copied().fold(f64::INFINITY, f64::min),
        median(paints.clone()),
        paints.iter().copied().fold(f64::INFINITY, f64::min),
        median(turns.clone()),
        turns.iter().copied().fold(f64::INFINITY, f64::min),
        median(frames.clone()),
        frames.iter().copied().fold(f64::INFINITY, f64::min),
    );

    // The URL reproduces a level: board and seed, or the opened file itself.
    load_hash(
        &d,
        &server,
        "w=6&h=6&grid=square&wrap=none&family=random&rules=infinity&seed=8",
    );
    assert_eq!(masks(&d), start_8);
    load_hash(&d, &server, &hex_link);
    assert_eq!(masks(&d), hex_start);

    // A level made to a difficulty: the panel shows it and the link keeps it; the level is
    // the one `--generate --difficulty` makes (the same library call, checked in serve::spec).
    let medium = "w=5&h=5&grid=square&wrap=none&family=random&rules=infinity&seed=4&unique=1&difficulty=medium";
    load_hash(&d, &server, medium);
    assert_eq!(
        d.js(
            "return document.querySelector('#gen-form [name=difficulty]').value",
            json!([])
        ),
        json!("medium")
    );
    assert_eq!(page_level(&d)["width"].as_u64(), Some(5));

    // A phone: 320 px wide, nothing wider than the screen; and the dark colour scheme.
    d.set_window(320, 640);
    load_hash(
        &d,
        &server,
        "w=6&h=8&grid=hexagonal&wrap=both&family=loops&rules=infinity&seed=2",
    );
    let overflow = d.js(
        "return document.documentElement.scrollWidth - document.documentElement.clientWidth",
        json!([]),
    );
    let width = d.js("return window.innerWidth", json!([]));
    assert!(
        overflow.as_i64().unwrap() <= 0,
        "the page is {overflow} px too wide at {width} px"
    );
    shot(&d, &shots.join("phone-320.png"));
    d.set_window(1000, 1000);
    d.cdp(
        "Emulation.setEmulatedMedia",
        json!({"features": [{"name": "prefers-color-scheme", "value": "dark"}]}),
    );
    let bg = d.js(
        "return getComputedStyle(document.body).backgroundColor",
        json!([]),
    );
    assert_eq!(bg, json!("rgb(22, 23, 26)"), "the dark scheme's background");
    shot(&d, &shots.join("dark.png"));
    d.cdp("Emulation.setEmulatedMedia", json!({"features": []}));

    // The offline page of --render FILE.html: no server, hints from the inlined solution.
    let lvl = saves.path().join("small.txt");
    let page = saves.path().join("small.html");
    assert_eq!(
        run(&[
            "--generate",
            "4x3",
            "--seed",
            "5",
            "-o",
            lvl.to_str().unwrap()
        ])
        .code,
        0
    );
    let made = run(&[
        "--print",
        lvl.to_str().unwrap(),
        "--render",
        page.to_str().unwrap(),
    ]);
    assert_eq!(made.code, 0, "{}", made.stderr);
    drop(server);
    d.goto(&format!("file://{}", page.display()));
    d.wait_for(
        "return !!window.phine && phine.level !== null",
        30,
        "the offline level",
    );
    assert_eq!(
        d.js(
            "return document.body.classList.contains('offline')",
            json!([])
        ),
        json!(true)
    );
    for _ in 0..12 {
        if solved(&d) {
            break;
        }
        d.click("#hint");
    }
    assert!(
        solved(&d),
        "hints solve the offline level: {}",
        text(&d, "message")
    );

    let errors = d.js("return window.__phineErrors", json!([]));
    assert_eq!(errors, json!([]), "errors the page caught");
    let console = d.console_errors();
    assert!(console.is_empty(), "console errors: {console:?}");
}

#[test]
fn the_server_refuses_bad_requests_with_a_4xx() {
    let saves = tempfile::tempdir().unwrap();
    let server = Server::start(saves.path());
    let port = server.port;
    let level = {
        let (status, page) = post_json(
            port,
            "/api/generate",
            &json!({"width": 3, "height": 3, "seed": 1}),
        );
        assert_eq!(status, 200);
        page["level"].clone()
    };
    for (path, body, status, says) in [
        (
            "/api/generate",
            json!({"width": 5000, "height": 5}),
            400,
            "`width` must be 1 to 1000",
        ),
        (
            "/api/generate",
            json!({"width": 5, "height": 5, "colour": 1}),
            400,
            "unknown generate option",
        ),
        (
            "/api/open",
            json!({"text": "board square 2x2\n1\n"}),
            400,
            "line",
        ),
        (
            "/api/open",
            json!({"text": format!("board square 600x600\n{}", "0\n".repeat(360_000))}),
            400,
            "at most 250000",
        ),
        (
            "/api/solve",
            json!({"level": {"tiling": "square"}}),
            400,
            "`width`",
        ),
        (
            "/api/save",
            json!({"level": level, "format": "board", "name": "../out"}),
            400,
            "not a file name",
        ),
        (
            "/api/save",
            json!({"level": level, "format": "png", "name": "x"}),
            400,
            "unknown format",
        ),
        ("/api/nothing", json!({}), 404, "no endpoint"),
    ] {
        let (got, answer) = post_json(port, path, &body);
        assert_eq!(got, status, "{path} {body}: {answer}");
        let message = answer["error"].as_str().unwrap();
        assert!(message.contains(says), "{path}: {message}");
    }
    let answer = request(port, "POST", "/api/solve", Some(("text/plain", b"{}")), &[]).unwrap();
    assert_eq!(answer.status, 415, "{}", answer.body);
    let answer = request(
        port,
        "POST",
        "/api/solve",
        Some(("application/json", b"{oops")),
        &[],
    )
    .unwrap();
    assert_eq!(answer.status, 400);
    assert!(answer.body.contains("malformed JSON"), "{}", answer.body);
    let answer = request(port, "GET", "/", None, &[("Host", "evil.example:80")]).unwrap();
    assert_eq!(answer.status, 403, "another host name is refused");
    let answer = request(
        port,
        "POST",
        "/api/generate",
        Some(("application/json", b"{}")),
        &[("Origin", "http://evil.example")],
    )
    .unwrap();
    assert_eq!(answer.status, 403, "another origin is refused");
    let answer = request(port, "DELETE", "/", None, &[]).unwrap();
    assert_eq!(answer.status, 405);
    let page = request(port, "GET", "/", None, &[]).unwrap();
    assert_eq!(page.status, 200);
    assert!(page.body.contains("<svg id=\"board\""));
    // Nothing was written anywhere: the folder is as it was.
    assert_eq!(std::fs::read_dir(saves.path()).unwrap().count(), 0);
}

#[test]
fn render_html_writes_one_page_that_needs_nothing_else() {
    let dir = tempfile::tempdir().unwrap();
    let page = dir.path().join("hex.html");
    let made = run(&[
        "--generate",
        "5x4",
        "--grid",
        "hexagonal",
        "--seed",
        "2",
        "--render",
        page.to_str().unwrap(),
    ]);
    assert_eq!(made.code, 0, "{}", made.stderr);
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(html.contains("id=\"embedded\"") && html.contains("\"tiling\":\"hexagonal\""));
    assert!(
        html.contains("\"solution\":["),
        "the solver's answer is inlined for hints"
    );
    // Nothing to fetch: no script, style or picture from another file or place.
    for outside in ["src=", "href=\"http", "https://", "http://", "@import"] {
        assert!(!html.contains(outside), "{outside}");
    }
}

#[test]
fn serve_options_go_with_serve_only() {
    let r = run(&["--generate", "3x3", "-o", "-", "--port", "9"]);
    assert_eq!(r.code, 2);
    assert!(
        r.stderr.contains("--port does not apply to --generate"),
        "{}",
        r.stderr
    );
    let r = run(&[
        "--serve",
        "--port",
        "0",
        "--save-dir",
        "/nonexistent/folder",
    ]);
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("not a folder"), "{}", r.stderr);
}

/// The browser for a test, or `None` (with a note) where it cannot run here.
fn browser() -> Option<Driver> {
    let (browser, driver) = match find_tools() {
        Ok(tools) => tools,
        Err(why) => {
            println!("skipped: {why} (apt-get install chromium chromium-driver)");
            return None;
        }
    };
    match Driver::start(&browser, &driver, 1000, 1000) {
        Ok(d) => Some(d),
        Err(why) => {
            println!("skipped: the browser did not start: {why}");
            None
        }
    }
}

/// Opens the offline page `page` and waits until its level is drawn.
fn open_offline(d: &Driver, page: &Path) {
    d.goto(&format!("file://{}", page.display()));
    d.wait_for(
        "return !!window.phine && phine.level !== null",
        30,
        &page.display().to_string(),
    );
}

/// Each cell's own side count, as the page turns it.
fn page_sides(d: &Driver) -> Vec<u32> {
    serde_json::from_value(d.js(
        "return Array.from(phine.kind, (k) => phine.kinds[k].sides)",
        json!([]),
    ))
    .unwrap()
}

/// The solution the file inlines for its hints.
fn inlined_solution(d: &Driver) -> Vec<u8> {
    serde_json::from_value(d.js("return Array.from(phine.solution)", json!([]))).unwrap()
}

/// Per cell, the clockwise clicks that turn the page's pieces into `target`.
fn clicks_towards(d: &Driver, target: &[u8]) -> Vec<u32> {
    let cw = d.js("return phine.geo.clockwise", json!([])) == json!(true);
    let sides = page_sides(d);
    masks(d)
        .iter()
        .zip(target)
        .zip(&sides)
        .map(|((&now, &want), &k)| clicks_to(now, want, k, cw))
        .collect()
}

/// No error the page caught, none on the console.
fn no_page_errors(d: &Driver) {
    let errors = d.js("return window.__phineErrors", json!([]));
    assert_eq!(errors, json!([]), "errors the page caught");
    let console = d.console_errors();
    assert!(console.is_empty(), "console errors: {console:?}");
}

/// A Net level made here on hexapipes' `grid`: a spanning tree of the board (breadth first
/// from cell 0), each piece then turned once.
fn tree_level(grid: Grid, width: usize, height: usize, wrap: Wrap) -> BoardLevel {
    let board = Board::new(Tiling::Polygonal(grid), width, height, wrap).unwrap();
    let mut tree = vec![0u8; board.len()];
    let mut seen = vec![false; board.len()];
    seen[0] = true;
    let mut queue = VecDeque::from([0]);
    while let Some(c) = queue.pop_front() {
        for s in 0..board.cell_sides(c) as usize {
            if let Some((n, t)) = board.neighbour(c, s).filter(|&(n, _)| !seen[n]) {
                seen[n] = true;
                tree[c] |= 1 << s;
                tree[n] |= 1 << t;
                queue.push_back(n);
            }
        }
    }
    assert!(seen.iter().all(|&s| s), "{grid:?}: the board is connected");
    let turned = (0..board.len())
        .map(|c| board.turn(c, tree[c], 1))
        .collect();
    BoardLevel::new(board, turned).unwrap()
}

/// The blobs the page downloads, kept for reading back.
const KEEP_DOWNLOADS: &str = "window.__downloads = []; const make = URL.createObjectURL; \
     URL.createObjectURL = (b) => { window.__downloads.push(b); return make(b); }";

#[test]
fn plays_a_mixed_grid_level_made_here_offline() {
    let Some(d) = browser() else { return };
    let dir = tempfile::tempdir().unwrap();
    let shots = screens();
    // Octagons and squares on a bounded board; triangles and squares on a wrapped one, where
    // links across the wrap join cells drawn far apart.
    for (grid, w, h, wrap) in [
        (Grid::Octagonal, 3, 2, Wrap::NONE),
        (Grid::Etrat, 3, 4, Wrap::BOTH),
    ] {
        let name = grid.name();
        let level = tree_level(grid, w, h, wrap);
        let board = level.board().clone();
        let file = dir.path().join(format!("{name}.json"));
        std::fs::write(&file, hexapipes_bytes(&level).unwrap()).unwrap();
        let page = dir.path().join(format!("{name}.html"));
        let made = run(&[
            "--print",
            file.to_str().unwrap(),
            "--render",
            page.to_str().unwrap(),
        ]);
        assert_eq!(made.code, 0, "{name}: {}", made.stderr);
        open_offline(&d, &page);
        assert_eq!(masks(&d), level.masks(), "{name}");
        assert!(!solved(&d), "{name}: the turned tree is no solution");

        // Every cell is drawn as its own polygon, its pipes reaching its sides' middles.
        let sides = page_sides(&d);
        let want: Vec<u32> = (0..board.len())
            .map(|c| u32::from(board.cell_sides(c)))
            .collect();
        assert_eq!(sides, want, "{name}");
        let now = masks(&d);
        for (c, &k) in want.iter().enumerate() {
            let drawn = d.js(
                "const g = document.getElementById('c' + arguments[0]); \
                 return [g.querySelector('.tile').points.length, \
                 g.querySelector('.pipe').getAttribute('d')]",
                json!([c]),
            );
            assert_eq!(drawn[0], json!(k), "{name} cell {c}");
            // The spokes, each `M0 0Lx y`, end at the middles of the piece's sides.
            let ends: Vec<(f64, f64)> = drawn[1]
                .as_str()
                .unwrap()
                .split('M')
                .filter_map(|part| part.strip_prefix("0 0L"))
                .map(|end| {
                    let (x, y) = end.split_once(' ').unwrap();
                    (x.parse().unwrap(), y.parse().unwrap())
                })
                .collect();
            let corners = board.polygon(c);
            let (cx, cy) = board.centre(c);
            let middles: Vec<(f64, f64)> = (0..k as usize)
                .filter(|&s| now[c] >> s & 1 == 1)
                .map(|s| {
                    let (a, b) = (corners[(s + k as usize - 1) % k as usize], corners[s]);
                    ((a.0 + b.0) / 2.0 - cx, (a.1 + b.1) / 2.0 - cy)
                })
                .collect();
            assert_eq!(ends.len(), middles.len(), "{name} cell {c}: {}", drawn[1]);
            for ((gx, gy), (mx, my)) in ends.into_iter().zip(middles) {
                assert!(
                    (gx - mx).abs() < 2e-3 && (gy - my).abs() < 2e-3,
                    "{name} cell {c}: a pipe ends at ({gx}, {gy}), not at ({mx}, {my})"
                );
            }
        }

        // A click turns a piece one step of its own cell's sides, clockwise: a piece with no
        // symmetry (a one-end piece, ...) comes back after as many clicks as its cell has
        // sides, and not before. The tree has one on a cell of each side count.
        let mut kinds_seen = Vec::new();
        for (c, &k) in want.iter().enumerate() {
            let m = masks(&d)[c];
            if u32::from(board.period(c, m)) != k || kinds_seen.contains(&k) {
                continue;
            }
            kinds_seen.push(k);
            let mut now = m;
            for i in 1..=k {
                d.click(&format!("#c{c}"));
                let turned = masks(&d)[c];
                assert_eq!(turned, rotate(now, k, k - 1), "{name} cell {c}, click {i}");
                assert_eq!(
                    turned == m,
                    i == k,
                    "{name} cell {c} of {k} sides, click {i}"
                );
                now = turned;
            }
            let cursor = d.js(
                "return document.getElementById('cursor-mark').points.length",
                json!([]),
            );
            assert_eq!(cursor, json!(k), "the cursor outlines the clicked cell");
        }
        kinds_seen.sort();
        let mut all: Vec<u32> = want.clone();
        all.sort();
        all.dedup();
        assert_eq!(
            kinds_seen, all,
            "{name}: a piece of no symmetry on each side count"
        );

        // Clicks towards the inlined solution solve it; undo takes the last one back.
        let sol = inlined_solution(&d);
        let clicks = clicks_towards(&d, &sol);
        assert_eq!(
            board.len(),
            sol.len(),
            "{name}: the solution covers the board"
        );
        for (c, &n) in clicks.iter().enumerate() {
            for _ in 0..n {
                d.click(&format!("#c{c}"));
            }
        }
        assert_eq!(masks(&d), sol, "{name}");
        assert!(solved(&d), "{name}: {}", text(&d, "message"));
        assert!(text(&d, "message").starts_with("solved in"));
        if clicks.iter().any(|&n| n > 0) {
            d.click("#undo");
            assert!(!solved(&d), "{name}: undone");
            d.click("#redo");
            assert!(solved(&d), "{name}: redone");
        }
        shot(&d, &shots.join(format!("{name}-solved.png")));

        // The download is hexapipes' JSON (the board format holds no mixed grid), and
        // reads back as the level on the page.
        assert_eq!(
            d.js("return document.getElementById('format').value", json!([])),
            json!("hexapipes")
        );
        d.js(KEEP_DOWNLOADS, json!([]));
        d.click("#file-panel summary");
        d.click("#download");
        assert_eq!(text(&d, "message"), "downloaded level.json");
        let written = d.js("return window.__downloads[0].text()", json!([]));
        let back =
            parse_hexapipes("download", written.as_str().unwrap().as_bytes(), false).unwrap();
        assert_eq!(back.board(), &board);
        assert_eq!(back.masks(), &sol[..], "{name}");
        no_page_errors(&d);
    }
}

#[test]
fn plays_hexapipes_published_mixed_puzzles_offline() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/hexapipes/daily");
    if !root.is_dir() {
        println!("skipped: {} is absent", root.display());
        return;
    }
    let Some(d) = browser() else { return };
    let dir = tempfile::tempdir().unwrap();
    let shots = screens();
    // The first puzzle of each grid, and wrapped ones.
    let mut puzzles: Vec<PathBuf> = ["octagonal", "cube", "trihexagonal", "etrat"]
        .iter()
        .filter_map(|grid| {
            let mut files: Vec<PathBuf> = std::fs::read_dir(root.join(grid))
                .ok()?
                .flatten()
                .map(|e| e.path())
                .filter(|p| p.extension().is_some_and(|e| e == "json"))
                .collect();
            files.sort();
            files.into_iter().next()
        })
        .collect();
    puzzles.extend(
        ["octagonal/2024-01-15.json", "cube/2023-09-29.json"]
            .iter()
            .map(|f| root.join(f))
            .filter(|p| p.is_file()),
    );
    for (i, puzzle) in puzzles.iter().enumerate() {
        let name = format!(
            "{}-{}",
            puzzle
                .parent()
                .unwrap()
                .file_name()
                .unwrap()
                .to_str()
                .unwrap(),
            puzzle.file_stem().unwrap().to_str().unwrap()
        );
        // hexapipes' files hold the solved tiles (the game turns them when it deals): each
        // piece is turned once here.
        let given = parse_hexapipes(&name, &std::fs::read(puzzle).unwrap(), false).unwrap();
        let board = given.board().clone();
        let turned = (0..board.len())
            .map(|c| board.turn(c, given.masks()[c], 1))
            .collect();
        let dealt = dir.path().join(format!("{name}-dealt.json"));
        let dealt_level = BoardLevel::new(board, turned).unwrap();
        std::fs::write(&dealt, hexapipes_bytes(&dealt_level).unwrap()).unwrap();
        // `--solve -o --render` draws the answer it writes, solved.
        let out = dir.path().join(format!("{name}.json"));
        let answer_page = dir.path().join(format!("{name}-answer.html"));
        let made = run(&[
            "--solve",
            dealt.to_str().unwrap(),
            "-o",
            out.to_str().unwrap(),
            "--render",
            answer_page.to_str().unwrap(),
        ]);
        assert_eq!(made.code, 0, "{name}: {}", made.stderr);
        let answer = parse_hexapipes("answer", &std::fs::read(&out).unwrap(), false).unwrap();
        open_offline(&d, &answer_page);
        assert_eq!(masks(&d), answer.masks(), "{name}");
        assert!(solved(&d), "{name}: the answer's page is solved");
        shot(&d, &shots.join(format!("{name}-answer.png")));

        // `--print --render` deals it to play.
        let page = dir.path().join(format!("{name}.html"));
        let made = run(&[
            "--print",
            dealt.to_str().unwrap(),
            "--render",
            page.to_str().unwrap(),
        ]);
        assert_eq!(made.code, 0, "{name}: {}", made.stderr);
        open_offline(&d, &page);
        assert_eq!(masks(&d), dealt_level.masks(), "{name}");
        assert!(!solved(&d), "{name}: the dealt puzzle is not solved");
        assert!(
            d.js("return phine.kinds.length", json!([]))
                .as_u64()
                .unwrap()
                > 1,
            "{name}: cells of several polygons"
        );
        shot(&d, &shots.join(format!("{name}-start.png")));
        let sol = inlined_solution(&d);
        assert_eq!(
            answer.masks(),
            &sol[..],
            "{name}: the hints lead to the one solution"
        );
        if i == 0 {
            // The hint button alone solves it, one wrong piece at a time.
            let hints = d.js(
                "return (async () => { let n = 0; \
                 while (!phine.solved && n < 2000) { document.getElementById('hint').click(); \
                 n++; await new Promise((r) => setTimeout(r, 0)); } return n; })()",
                json!([]),
            );
            assert!(hints.as_u64().unwrap() < 2000, "{name}");
        } else {
            // Clicks as a player makes them (dispatched in the page: hundreds of them).
            let clicks = clicks_towards(&d, &sol);
            d.js(
                "const clicks = arguments[0]; for (let c = 0; c < clicks.length; c++) \
                 for (let i = 0; i < clicks[c]; i++) document.getElementById('c' + c)\
                 .dispatchEvent(new MouseEvent('click', { bubbles: true }));",
                json!([clicks]),
            );
        }
        assert_eq!(masks(&d), sol, "{name}");
        assert!(solved(&d), "{name}: {}", text(&d, "message"));
        shot(&d, &shots.join(format!("{name}-solved.png")));
        no_page_errors(&d);
    }
}
