//! Fuzzing the level reader: it never panics, whatever the bytes, every error names the source
//! and a line of the input, and every valid game survives a write/read round trip.

use phineloops::engine::level::{level_bytes, parse_level};
use phineloops::engine::model::{Game, Piece, PieceKind};
use proptest::prelude::*;

fn piece() -> impl Strategy<Value = Piece> {
    (0..PieceKind::ALL.len()).prop_flat_map(|k| {
        let kind = PieceKind::ALL[k];
        (0..kind.orientations()).prop_map(move |o| Piece::new(kind, o))
    })
}

fn game() -> impl Strategy<Value = Game> {
    (1usize..=12, 1usize..=12).prop_flat_map(|(h, w)| {
        prop::collection::vec(piece(), h * w).prop_map(move |cells| Game::from_cells(h, w, cells))
    })
}

/// Number of lines in `bytes` as an editor counts them (a final line without `\n` counts).
fn line_count(bytes: &[u8]) -> usize {
    bytes.iter().filter(|&&b| b == b'\n').count() + usize::from(!bytes.ends_with(b"\n"))
}

/// Whatever the outcome, a success is a well-formed game and a failure names the source and a
/// line no further than one past the end of the input.
fn check_outcome(bytes: &[u8]) -> Result<(), TestCaseError> {
    match parse_level("fuzz", bytes) {
        Ok(g) => {
            prop_assert!(g.height() >= 1 && g.width() >= 1);
            prop_assert_eq!(g.cells().len(), g.height() * g.width());
            for p in g.cells() {
                prop_assert!(p.orientation() < p.kind().orientations());
            }
            // A successful read writes back to something that reads the same.
            prop_assert_eq!(&parse_level("again", &level_bytes(&g)).unwrap(), &g);
        }
        Err(e) => {
            prop_assert_eq!(e.source.as_str(), "fuzz");
            let line = e.line;
            prop_assert!(line.is_some(), "a parse error names a line: {}", e);
            let line = line.unwrap();
            prop_assert!(
                line >= 1 && line <= line_count(bytes) + 1,
                "line {} of {} lines: {}",
                line,
                line_count(bytes),
                e
            );
            let shown = e.to_string();
            let prefix = format!("fuzz:{line}: ");
            prop_assert!(shown.starts_with(&prefix), "{}", shown);
            prop_assert!(!e.message.is_empty());
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn never_panics_on_arbitrary_bytes(bytes in prop::collection::vec(any::<u8>(), 0..512)) {
        check_outcome(&bytes)?;
    }

    #[test]
    fn never_panics_on_digits_blanks_and_line_ends(s in "[0-9 \n\r]{0,300}") {
        check_outcome(s.as_bytes())?;
    }

    #[test]
    fn never_panics_on_near_valid_levels(
        (h, w, lines) in (0usize..6, 0usize..6, prop_oneof![3 => Just(0isize), 1 => -1isize..=1])
            .prop_flat_map(|(h, w, extra)| {
                let n = (h * w).saturating_add_signed(extra);
                let line = prop_oneof![
                    6 => "[0-5] [0-3]",
                    1 => "[ \t]?[0-9]{1,2}[ \t]{0,2}[0-9]{0,2}[ \t]?",
                ];
                (Just(h), Just(w), prop::collection::vec(line, n))
            }),
        sep in prop_oneof![Just("\n"), Just("\r\n")],
    ) {
        let mut text = format!("{h}{sep}{w}{sep}");
        for l in &lines {
            text.push_str(l);
            text.push_str(sep);
        }
        check_outcome(text.as_bytes())?;
        if let Ok(g) = parse_level("fuzz", text.as_bytes()) {
            prop_assert_eq!((g.height(), g.width()), (h, w));
            prop_assert_eq!(lines.len(), h * w);
        }
    }

    #[test]
    fn never_panics_on_large_or_odd_headers(
        h in prop_oneof![any::<u64>().prop_map(|v| v.to_string()), "[0-9]{0,25}", Just("1000000000".to_string())],
        w in prop_oneof![any::<u64>().prop_map(|v| v.to_string()), "[0-9]{0,25}", Just("1000000000".to_string())],
        pieces in 0usize..4,
    ) {
        let mut text = format!("{h}\n{w}\n");
        for _ in 0..pieces {
            text.push_str("0 0\n");
        }
        check_outcome(text.as_bytes())?;
    }

    #[test]
    fn valid_games_round_trip(g in game()) {
        let bytes = level_bytes(&g);
        prop_assert_eq!(parse_level("fuzz", &bytes).unwrap(), g);
    }

    #[test]
    fn crlf_and_blanks_round_trip(g in game(), trailing_blank_lines in 0usize..3) {
        let text = String::from_utf8(level_bytes(&g)).unwrap();
        let mut crlf: String = text.lines().map(|l| format!(" {l}\t\r\n")).collect();
        for _ in 0..trailing_blank_lines {
            crlf.push_str("\r\n");
        }
        prop_assert_eq!(parse_level("fuzz", crlf.as_bytes()).unwrap(), g.clone());
        // Without the final newline as well.
        let trimmed = text.trim_end_matches('\n');
        prop_assert_eq!(parse_level("fuzz", trimmed.as_bytes()).unwrap(), g);
    }

    #[test]
    fn a_missing_last_piece_is_reported_after_the_last_line(g in game()) {
        let mut bytes = level_bytes(&g);
        bytes.pop();
        let cut = bytes.iter().rposition(|&b| b == b'\n').unwrap() + 1;
        bytes.truncate(cut);
        let e = parse_level("fuzz", &bytes).unwrap_err();
        prop_assert_eq!(e.line, Some(g.len() + 2), "{}", e);
    }

    #[test]
    fn an_extra_piece_is_reported_on_its_line(g in game()) {
        let mut bytes = level_bytes(&g);
        bytes.extend_from_slice(b"0 0\n");
        let e = parse_level("fuzz", &bytes).unwrap_err();
        prop_assert_eq!(e.line, Some(g.len() + 3), "{}", e);
    }

    #[test]
    fn a_bad_piece_is_reported_on_its_line(g in game(), at in any::<prop::sample::Index>(), bad in prop_oneof![
        Just("9 0"), Just("6 0"), Just("0 1"), Just("4 1"), Just("2 2"), Just("1 4"), Just("3 9"),
        Just("5 -1"), Just("x 0"), Just("0"), Just("0 0 0"), Just("256 0"),
    ]) {
        let text = String::from_utf8(level_bytes(&g)).unwrap();
        let mut lines: Vec<&str> = text.lines().collect();
        let i = at.index(g.len());
        lines[i + 2] = bad;
        let mut bad_text = lines.join("\n");
        bad_text.push('\n');
        let e = parse_level("fuzz", bad_text.as_bytes()).unwrap_err();
        prop_assert_eq!(e.line, Some(i + 3), "{}", e);
    }
}
