//! Snapshots of the pictures of small fixed levels: the box-drawing text (plain, and with the
//! colours of `--color always`), the domain view, and the SVG. The expected strings were
//! checked by hand against the level files.

use phineloops::engine::level::parse_level;
use phineloops::engine::model::Game;
use phineloops::engine::render::after_propagation;
use phineloops::engine::render::svg;
use phineloops::engine::render::{Shade, draw_text};
use phineloops::engine::render::{defect_shades, domain_digits, domain_shades, domain_summary};

fn level(text: &str) -> Game {
    parse_level("snapshot", text.as_bytes()).unwrap()
}

/// A solved 3x3: corners, tees and a cross.
const FRAME: &str = "3\n3\n5 1\n3 2\n5 2\n3 1\n4 0\n3 3\n5 0\n3 0\n5 3\n";

/// Top row: Q east, two straights, Q west (all met). Bottom row: empty, Q south (off the
/// border), I vertical (its north meets nothing), empty.
const MIXED: &str = "2\n4\n1 1\n2 1\n2 1\n1 3\n0 0\n1 2\n2 0\n0 0\n";

#[test]
fn plain_text_of_a_solved_frame() {
    assert_eq!(draw_text(&level(FRAME), None), "┌┬┐\n├┼┤\n└┴┘\n");
}

#[test]
fn plain_text_keeps_blanks_for_empty_cells() {
    assert_eq!(draw_text(&level(MIXED), None), "╶──╴\n ╷│ \n");
}

#[test]
fn every_orientation_of_every_piece() {
    let g = level(
        "1\n16\n0 0\n1 0\n1 1\n1 2\n1 3\n2 0\n2 1\n3 0\n3 1\n3 2\n3 3\n4 0\n5 0\n5 1\n5 2\n5 3\n",
    );
    assert_eq!(draw_text(&g, None), " ╵╶╷╴│─┴├┬┤┼└┌┐┘\n");
}

#[test]
fn defects_are_red_and_colour_changes_are_minimal() {
    let g = level(MIXED);
    let shades = defect_shades(&g);
    assert_eq!(
        shades,
        vec![
            Shade::Plain,
            Shade::Plain,
            Shade::Plain,
            Shade::Plain,
            Shade::Plain,
            Shade::Defect,
            Shade::Defect,
            Shade::Plain
        ]
    );
    assert_eq!(
        draw_text(&g, Some(&shades)),
        "╶──╴\n \x1b[1;31m╷│\x1b[0m \n"
    );
    // A solved grid has nothing to colour.
    let f = level(FRAME);
    assert_eq!(draw_text(&f, Some(&defect_shades(&f))), "┌┬┐\n├┼┤\n└┴┘\n");
}

#[test]
fn domains_of_a_ring_are_all_frozen_and_green() {
    // Four corners: the border fixes each of them.
    let ring = level("2\n2\n5 0\n5 0\n5 0\n5 0\n");
    let d = after_propagation(&ring);
    assert_eq!(domain_digits(&ring, &d), "11\n11\n");
    assert_eq!(
        domain_summary(&ring, &d),
        "after propagation: 4 of 4 pieces frozen; 0 with 2 orientations, 0 with 3, 0 with 4"
    );
    assert_eq!(
        draw_text(&ring, Some(&domain_shades(&ring, &d))),
        "\x1b[32m└└\x1b[0m\n\x1b[32m└└\x1b[0m\n"
    );
}

#[test]
fn domains_show_what_propagation_leaves_open() {
    // Four one-end pieces in a 2x2: each corner may point along either inner side (two
    // solutions: horizontal or vertical pairs), so two orientations stay open everywhere.
    let quad = level("2\n2\n1 0\n1 0\n1 0\n1 0\n");
    let d = after_propagation(&quad);
    assert!(d.consistent);
    assert_eq!(domain_digits(&quad, &d), "22\n22\n");
    assert_eq!(
        draw_text(&quad, Some(&domain_shades(&quad, &d))),
        "\x1b[33m╵╵\x1b[0m\n\x1b[33m╵╵\x1b[0m\n"
    );
    // Nine of them in a 3x3: corners keep 2, sides 3, the centre all 4. (Nine ends cannot
    // pair up, but propagation alone does not see that.)
    let nine = level("3\n3\n1 0\n1 0\n1 0\n1 0\n1 0\n1 0\n1 0\n1 0\n1 0\n");
    let d = after_propagation(&nine);
    assert!(d.consistent);
    assert_eq!(domain_digits(&nine, &d), "232\n343\n232\n");
    assert_eq!(
        domain_summary(&nine, &d),
        "after propagation: 0 of 9 pieces frozen; 4 with 2 orientations, 4 with 3, 1 with 4"
    );
    assert_eq!(
        draw_text(&nine, Some(&domain_shades(&nine, &d))),
        concat!(
            "\x1b[33m╵\x1b[35m╵\x1b[33m╵\x1b[0m\n",
            "\x1b[35m╵\x1b[31m╵\x1b[35m╵\x1b[0m\n",
            "\x1b[33m╵\x1b[35m╵\x1b[33m╵\x1b[0m\n"
        )
    );
}

#[test]
fn svg_of_a_straight_pipe_with_two_ends() {
    let g = level("1\n3\n1 1\n2 1\n1 3\n");
    let expected = concat!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"48\" height=\"16\" viewBox=\"0 0 48 16\">\n",
        "<rect width=\"48\" height=\"16\" fill=\"#1b2330\"/>\n",
        "<g fill=\"none\" stroke-width=\"5\" stroke-linecap=\"round\" stroke-linejoin=\"round\">\n",
        "<path stroke=\"#e6edf5\" d=\"M8 8H40\"/>\n",
        "</g>\n",
        "<g fill=\"#7cc4fa\">\n",
        "<circle cx=\"8\" cy=\"8\" r=\"4.5\"/>\n",
        "<circle cx=\"40\" cy=\"8\" r=\"4.5\"/>\n",
        "</g>\n",
        "</svg>\n",
    );
    assert_eq!(svg(&g), expected);
}

#[test]
fn svg_draws_unmet_connections_in_red() {
    // Q north (off the border), Q east (into a blank side).
    let g = level("1\n2\n1 0\n1 1\n");
    let expected = concat!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"32\" height=\"16\" viewBox=\"0 0 32 16\">\n",
        "<rect width=\"32\" height=\"16\" fill=\"#1b2330\"/>\n",
        "<g fill=\"none\" stroke-width=\"5\" stroke-linecap=\"round\" stroke-linejoin=\"round\">\n",
        "<path stroke=\"#ff6b6b\" d=\"M24 8H32M8 0V8\"/>\n",
        "</g>\n",
        "<g fill=\"#7cc4fa\">\n",
        "<circle cx=\"8\" cy=\"8\" r=\"4.5\"/>\n",
        "<circle cx=\"24\" cy=\"8\" r=\"4.5\"/>\n",
        "</g>\n",
        "</svg>\n",
    );
    assert_eq!(svg(&g), expected);
}

#[test]
fn svg_of_the_solved_frame() {
    let expected = concat!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"48\" height=\"48\" viewBox=\"0 0 48 48\">\n",
        "<rect width=\"48\" height=\"48\" fill=\"#1b2330\"/>\n",
        "<g fill=\"none\" stroke-width=\"5\" stroke-linecap=\"round\" stroke-linejoin=\"round\">\n",
        "<path stroke=\"#e6edf5\" d=\"M8 8H40M8 24H40M8 40H40M8 8V40M24 8V40M40 8V40\"/>\n",
        "</g>\n",
        "</svg>\n",
    );
    assert_eq!(svg(&level(FRAME)), expected);
}
