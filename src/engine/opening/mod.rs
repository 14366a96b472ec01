//! Opening rules as a model: the opening stage of swap, swap2, swap after the first move,
//! Soosorv-N, Taraguchi-N and Yamaguchi, step by step. No I/O: the front ends show what
//! [`Opening::expect`] says and pass the player's [`Action`] to [`Opening::apply`].
//! - [`rule`]: the rules, their parameters and names.
//! - [`action`]: the players, their actions, and what a stage waits for.
//! - [`state`]: the state machine, and which rule text it follows where.
//! - [`canonical`]: RIF's 26 canonical openings.
//! - [`square`]: the central squares of RIF's rules.
//! - [`offers`]: symmetric fifth moves.
//! - [`placed`]: the openings an engine placed, up to symmetry.
//! - [`book`]: deep scores of the positions the RIF rules end in, made ahead of time.
//! - [`error`]: why an action is refused.

pub mod action;
pub mod book;
pub mod canonical;
pub mod decide;
pub mod error;
pub mod offers;
pub mod placed;
pub mod rule;
pub mod square;
pub mod state;
#[cfg(test)]
mod tests;

pub use action::{Action, Expect, Player};
pub use canonical::{Canonical, Family};
pub use decide::Decision;
pub use error::OpeningError;
pub use rule::{OpeningRule, RuleError, MAX_FIFTHS};
pub use state::Opening;
