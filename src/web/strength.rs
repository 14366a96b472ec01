//! The engine's strength as the page sets it: the prompt's levels, time per move and random
//! pick among near-equal moves, checked and turned into the facade's [`Level`] and
//! [`Limits`].

use super::json::Strength;
use crate::engine::{random_margin, Level, DEFAULT_RANDOM_MARGIN, MAX_RANDOM_MARGIN};
use crate::search::Limits;
use std::time::Duration;

/// The prompt's start: full strength, one second a move, vary 30.
pub fn default_strength() -> Strength {
    Strength {
        level: "full".into(),
        depth: None,
        time: 1.0,
        vary: DEFAULT_RANDOM_MARGIN,
        nodes: None,
    }
}

/// A strength checked: what the engine is given.
#[derive(Clone, Debug)]
pub struct Checked {
    /// The level.
    pub level: Level,
    /// The random-choice margin.
    pub vary: Option<i32>,
    /// The limits of one move's search.
    pub limits: Limits,
}

/// Checks a strength as the prompt checks its `level`, `time` and `vary` commands.
pub fn check(s: &Strength) -> Result<Checked, String> {
    let level = match s.level.to_ascii_lowercase().as_str() {
        "random" => Level::Random,
        "greedy" => Level::Greedy,
        "full" => Level::Full,
        "depth" => match s.depth {
            Some(d) if (1..=60).contains(&d) => Level::Depth(d),
            Some(d) => return Err(format!("depth must be 1 to 60, not {d}")),
            None => return Err("level depth wants a depth".into()),
        },
        other => {
            return Err(format!(
                "level wants random, greedy, depth or full, not '{other}'"
            ))
        }
    };
    if !(s.time > 0.0 && s.time <= 3600.0) {
        return Err(format!(
            "time wants seconds between 0 and 3600, not {}",
            s.time
        ));
    }
    let vary = random_margin(s.vary.into())
        .map_err(|_| format!("vary wants 0 to {MAX_RANDOM_MARGIN}, not {}", s.vary))?;
    if s.nodes == Some(0) {
        return Err("a node budget must be at least 1".into());
    }
    Ok(Checked {
        level,
        vary,
        limits: move_limits(s.time, s.nodes),
    })
}

/// The limits of one move at `seconds` a move, as the prompt sets them (aim for half, stop
/// at the whole), so that the page's engine takes the prompt's time at the same setting.
pub fn move_limits(seconds: f64, nodes: Option<u64>) -> Limits {
    let hard = Duration::from_secs_f64(seconds);
    Limits {
        depth: None,
        nodes,
        soft_time: Some(hard / 2),
        hard_time: Some(hard),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn checks_like_the_prompt() {
        let ok = check(&default_strength()).unwrap();
        assert_eq!(ok.level, Level::Full);
        assert_eq!(ok.vary, Some(DEFAULT_RANDOM_MARGIN));
        assert_eq!(ok.limits.hard_time, Some(Duration::from_secs(1)));
        let with = |f: &dyn Fn(&mut Strength)| {
            let mut s = default_strength();
            f(&mut s);
            check(&s)
        };
        assert!(with(&|s| s.level = "hard".into()).is_err());
        assert!(with(&|s| s.level = "depth".into()).is_err());
        assert!(with(&|s| {
            s.level = "depth".into();
            s.depth = Some(61)
        })
        .is_err());
        assert!(with(&|s| s.time = 0.0).is_err());
        assert!(with(&|s| s.time = f64::NAN).is_err());
        assert!(with(&|s| s.vary = 301).is_err());
        assert!(with(&|s| s.vary = -1).is_err());
        assert_eq!(with(&|s| s.vary = 0).unwrap().vary, None);
    }
}
