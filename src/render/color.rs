//! When to colour terminal text, and the ANSI colours used.
//!
//! Precedence: `--color never` never colours; `--color always` always does (even into a pipe
//! or with `NO_COLOR` set); `--color auto` (the default) colours only when the stream is a
//! terminal and `NO_COLOR` is unset or empty.

use std::ffi::OsStr;

/// The `--color` setting: when to write ANSI colour escapes (see the module doc).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum ColorChoice {
    /// Colour only on a terminal, and only when `NO_COLOR` is unset or empty.
    #[default]
    Auto,
    /// Always colour, even into a pipe or with `NO_COLOR` set.
    Always,
    /// Never colour.
    Never,
}

impl ColorChoice {
    /// Whether to write colour escapes on a stream, given whether that stream is a terminal and
    /// the value of `NO_COLOR` (`None` when unset).
    pub fn enabled(self, is_terminal: bool, no_color: Option<&OsStr>) -> bool {
        match self {
            ColorChoice::Always => true,
            ColorChoice::Never => false,
            ColorChoice::Auto => is_terminal && no_color.is_none_or(|v| v.is_empty()),
        }
    }
}

/// How a cell is painted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shade {
    /// The terminal's own colour.
    Plain,
    /// A connection of this cell is not met (plain `--print` of an unsolved grid).
    Defect,
    /// Propagation left one orientation.
    Frozen,
    /// Two orientations left.
    Two,
    /// Three orientations left.
    Three,
    /// Four orientations left.
    Four,
}

/// Ends any colour.
pub const RESET: &str = "\x1b[0m";

impl Shade {
    /// The shade for a cell with `n` orientations left.
    pub fn of_domain_size(n: u32) -> Shade {
        match n {
            0 | 1 => Shade::Frozen,
            2 => Shade::Two,
            3 => Shade::Three,
            _ => Shade::Four,
        }
    }

    /// The escape that starts this shade.
    pub const fn sgr(self) -> &'static str {
        match self {
            Shade::Plain => RESET,
            Shade::Defect => "\x1b[1;31m",
            Shade::Frozen => "\x1b[32m",
            Shade::Two => "\x1b[33m",
            Shade::Three => "\x1b[35m",
            Shade::Four => "\x1b[31m",
        }
    }

    /// Name used in the legend.
    pub const fn name(self) -> &'static str {
        match self {
            Shade::Plain => "plain",
            Shade::Defect => "unmatched connection",
            Shade::Frozen => "frozen",
            Shade::Two => "2 orientations",
            Shade::Three => "3 orientations",
            Shade::Four => "4 orientations",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn precedence_of_the_colour_choice() {
        let set = Some(OsStr::new("1"));
        let empty = Some(OsStr::new(""));
        assert!(ColorChoice::Auto.enabled(true, None));
        assert!(ColorChoice::Auto.enabled(true, empty));
        assert!(!ColorChoice::Auto.enabled(true, set));
        assert!(!ColorChoice::Auto.enabled(false, None));
        assert!(ColorChoice::Always.enabled(false, set));
        assert!(!ColorChoice::Never.enabled(true, None));
    }
}
