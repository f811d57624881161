//! The level format as text: [`Game`] implements `Display` (writes exactly the file format)
//! and `FromStr` (the strict reader), so `game.to_string()` and `text.parse::<Game>()` round-trip.

use std::fmt;
use std::str::FromStr;

use super::error::LevelError;
use super::parse::parse_level;
use super::write::level_bytes;
use crate::model::Game;

impl fmt::Display for Game {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // level_bytes writes only ASCII digits, spaces and newlines.
        let bytes = level_bytes(self);
        f.write_str(std::str::from_utf8(&bytes).map_err(|_| fmt::Error)?)
    }
}

impl FromStr for Game {
    type Err = LevelError;

    /// Parses the level format; errors name `<string>` as the source and the line.
    fn from_str(s: &str) -> Result<Game, LevelError> {
        parse_level("<string>", s.as_bytes())
    }
}

#[cfg(test)]
mod tests {
    use crate::generate::{GenerateOptions, generate};
    use crate::model::Game;

    #[test]
    fn display_and_parse_round_trip() {
        let game = generate(&GenerateOptions::new(7, 5, 3));
        let text = game.to_string();
        assert_eq!(text.as_bytes(), crate::level::level_bytes(&game));
        assert_eq!(text.parse::<Game>().unwrap(), game);
    }

    #[test]
    fn parse_error_names_the_line() {
        let err = "2\n1\n1 0\n9 0\n".parse::<Game>().unwrap_err();
        assert_eq!(err.line, Some(4), "{err}");
    }
}
