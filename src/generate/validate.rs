//! Which generator options go together, checked before generating so that a bad combination
//! is a clear message instead of a silently ignored option.

use super::exact_components::max_components;
use super::random_level::{Family, GenerateOptions};

impl GenerateOptions {
    /// `Ok` when [`super::generate`] can honour every option as given.
    pub fn validate(&self) -> Result<(), String> {
        if self.height == 0 || self.width == 0 {
            return Err("a grid needs at least one row and one column".into());
        }
        let probability = |p: f64| (0.0..=1.0).contains(&p);
        if !probability(self.density) {
            return Err(format!(
                "density must be within 0..=1, got {}",
                self.density
            ));
        }
        if !probability(self.bent) {
            return Err(format!("bent must be within 0..=1, got {}", self.bent));
        }
        if !probability(self.braid) {
            return Err(format!("braid must be within 0..=1, got {}", self.braid));
        }
        let maze = matches!(self.family, Family::Maze(_));
        if self.braid > 0.0 && !maze {
            return Err("braiding applies to mazes only".into());
        }
        if maze && (self.max_components.is_some() || self.exact_components.is_some()) {
            return Err(
                "a perfect maze is always exactly one component: a component count does not apply"
                    .into(),
            );
        }
        if self.max_components.is_some() && self.exact_components.is_some() {
            return Err("give either at most N components or exactly N, not both".into());
        }
        if let Some(n) = self.exact_components {
            let max = max_components(self.height, self.width);
            if n > max {
                return Err(format!(
                    "exactly {n} components do not fit in {}x{}: a component needs two \
                     neighbouring cells, so at most {max} (width x height / 2, rounded down) fit",
                    self.width, self.height
                ));
            }
        }
        Ok(())
    }
}
