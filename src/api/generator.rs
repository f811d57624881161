//! [`Generator`]: the builder behind `phineloops --generate`, for library users. Options are
//! checked before anything is built, so a bad combination is an [`GenerateError`], not a panic.

use std::fmt;

use crate::generate::{
    Family, GenerateOptions, MazeAlgorithm, UniqueError, generate, generate_unique,
};
use crate::model::Game;

/// Builds random solvable levels.
///
/// ```
/// use phineloops::{Family, Generator};
///
/// let level = Generator::new(20, 12).family(Family::Dominoes).seed(7).generate()?;
/// assert_eq!((level.width(), level.height()), (20, 12));
/// // The same options give the same level.
/// let again = Generator::new(20, 12).family(Family::Dominoes).seed(7).generate()?;
/// assert_eq!(level, again);
/// # Ok::<(), phineloops::GenerateError>(())
/// ```
#[derive(Clone, Debug)]
pub struct Generator {
    opts: GenerateOptions,
    seeded: bool,
    unique: bool,
}

impl Generator {
    /// A generator of `width` x `height` levels (the order of the command line's `WxH`), of
    /// the random family, with a seed drawn at random unless [`Generator::seed`] sets one.
    pub fn new(width: usize, height: usize) -> Generator {
        Generator {
            opts: GenerateOptions::new(height, width, 0),
            seeded: false,
            unique: false,
        }
    }

    /// The family of solved grid to scramble (default [`Family::Random`]).
    pub fn family(mut self, family: Family) -> Generator {
        self.opts.family = family;
        self
    }

    /// A perfect maze made by `algorithm` (same as `family(Family::Maze(algorithm))`).
    pub fn maze(self, algorithm: MazeAlgorithm) -> Generator {
        self.family(Family::Maze(algorithm))
    }

    /// The seed: the same seed and options give the same level, byte for byte.
    pub fn seed(mut self, seed: u64) -> Generator {
        self.opts.seed = seed;
        self.seeded = true;
        self
    }

    /// At most `n` connected components of non-empty pieces in the solution.
    pub fn max_components(mut self, n: usize) -> Generator {
        self.opts.max_components = Some(n);
        self
    }

    /// Exactly `n` connected components of non-empty pieces in the solution.
    pub fn exact_components(mut self, n: usize) -> Generator {
        self.opts.exact_components = Some(n);
        self
    }

    /// Random family: the probability (0 to 1) that an inner side carries a connection.
    pub fn density(mut self, p: f64) -> Generator {
        self.opts.density = p;
        self
    }

    /// Mazes: the probability (0 to 1) that a dead end is opened into a loop.
    pub fn braid(mut self, p: f64) -> Generator {
        self.opts.braid = p;
        self
    }

    /// Asks for a level with exactly one solution (default false).
    pub fn unique(mut self, unique: bool) -> Generator {
        self.unique = unique;
        self
    }

    /// The options as the engine sees them (with the seed that [`Generator::generate`] uses
    /// when none was set: 0 until then).
    pub fn options(&self) -> &GenerateOptions {
        &self.opts
    }

    /// Builds the level: a solvable grid with every piece turned at random.
    pub fn generate(&self) -> Result<Game, GenerateError> {
        let mut opts = self.opts.clone();
        if !self.seeded {
            opts.seed = fastrand::u64(..);
        }
        opts.validate().map_err(GenerateError::Options)?;
        if self.unique {
            return generate_unique(&opts)
                .map(|u| u.level)
                .map_err(GenerateError::NotUnique);
        }
        Ok(generate(&opts))
    }
}

/// Why [`Generator::generate`] made no level.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GenerateError {
    /// The options do not go together (the message says which and why).
    Options(String),
    /// A unique level was asked for and the repair did not reach one solution.
    NotUnique(UniqueError),
}

impl fmt::Display for GenerateError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GenerateError::Options(msg) => write!(f, "invalid generator options: {msg}"),
            GenerateError::NotUnique(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for GenerateError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            GenerateError::Options(_) => None,
            GenerateError::NotUnique(e) => Some(e),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bad_options_are_errors_not_panics() {
        let e = Generator::new(4, 4).density(1.5).generate().unwrap_err();
        assert!(matches!(e, GenerateError::Options(_)), "{e}");
        let e = Generator::new(0, 4).generate().unwrap_err();
        assert!(e.to_string().contains("at least one row"), "{e}");
        let e = Generator::new(4, 4)
            .max_components(2)
            .exact_components(2)
            .generate()
            .unwrap_err();
        assert!(matches!(e, GenerateError::Options(_)));
    }

    #[test]
    fn width_comes_first_like_the_command_line() {
        let g = Generator::new(9, 4).seed(1).generate().unwrap();
        assert_eq!((g.width(), g.height()), (9, 4));
    }
}
