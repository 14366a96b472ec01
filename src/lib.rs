//! wuzi: a bitboard Gomoku and Renju engine.
//!
//! The modules in layers, each using only the ones above it. Those in `code` are internal:
//! private to the crate (its own tests, benches and fuzz targets reach them through the
//! `internals` feature); the rest are the library's API.
//! 1. Types and positions: [`types`] (colours, rules, points, directions), `geometry`
//!    (lines of each board size), `zobrist` (hash keys), [`notation`] (`h8` and `x,y`),
//!    [`symmetry`] (the board's eight symmetries), `simd` (which kernel the CPU runs).
//! 2. The board: `pattern` (line-pattern tables), `threat` (a cell's class from its four
//!    patterns), [`board`] (line bitmasks, Zobrist hash, incremental patterns, make/undo,
//!    renju's forbidden points), `movegen` (move lists and generators).
//! 3. Evaluation: [`eval`] (static evaluation and move ordering, with their kernels; its
//!    API is the choice of evaluation).
//! 4. Search: [`search`] (iterative deepening, the node search, the threat-space solver,
//!    the transposition table, time management, threads, parameters; its API is the
//!    limits, the progress reports, the parameters and the solver).
//! 5. The engine facade: [`engine`] (a game, settings, `think`; no I/O), and beside it
//!    `db`, the position database it consults and teaches, and [`review`] (where a game
//!    was decided, by the threat solver).
//! 6. Front ends and tools: `prompt` (the terminal game), `protocol` (the Gomocup brain),
//!    `web` (the board in a browser, over HTTP), `record` (game records), `benchmark`
//!    (the bench set), `suite` (test positions), `datagen` (self-play training data).
//!    Only they and the binaries read or write anything.
//!
//! The position database and every module of layer 6 sit behind cargo features (`db`,
//! `record`, `prompt`, `protocol`, `web`, `tools`; on by default): without them the library
//! is the engine alone, and the facade plays without a database.
//!
//! The engine in a few lines: a game, a move of ours, and the engine's answer within a node
//! budget (node budgets give the same move on every machine).
//!
//! ```
//! use wuzi::{Engine, GameStatus, Level, Limits, Pos, Rule};
//!
//! let mut engine = Engine::new(15, Rule::Renju).expect("15x15 is supported");
//! engine.play(Pos::new(7, 7)).expect("an empty point");
//! let limits = Limits { nodes: Some(20_000), ..Limits::default() };
//! let outcome = engine.think(Level::Full, &limits, &mut |_| {});
//! assert_eq!(engine.play(outcome.best), Ok(GameStatus::Ongoing));
//! assert_eq!(engine.board().moves().len(), 2);
//! ```

// Per-side and per-direction loops index several parallel arrays at once; an index reads
// better there than zipped iterators.
#![allow(clippy::needless_range_loop)]
#![deny(missing_docs)]

/// Declares modules the crate keeps to itself: crate-private in normal builds, public with the
/// `internals` feature, which the crate's own tests, benches, examples and fuzz targets turn
/// on (the dev-dependency on itself in `Cargo.toml`) to reach the machinery directly.
macro_rules! internal {
    ($($name:ident),* $(,)?) => {$(
        #[cfg(feature = "internals")]
        pub mod $name;
        #[cfg(not(feature = "internals"))]
        pub(crate) mod $name;
    )*};
}

// Layer 1
internal!(geometry, simd, zobrist);
pub mod notation;
pub mod symmetry;
pub mod types;
// Layer 2
pub mod board;
internal!(movegen, pattern, threat);
// Layer 3
pub mod eval;
// Layer 4
pub mod search;
// Layer 5
#[cfg(feature = "db")]
pub mod db;
pub mod engine;
pub mod review;
// Layer 6
#[cfg(feature = "tools")]
pub mod benchmark;
#[cfg(feature = "tools")]
pub mod datagen;
#[cfg(feature = "prompt")]
pub mod prompt;
#[cfg(feature = "protocol")]
pub mod protocol;
#[cfg(feature = "record")]
pub mod record;
#[cfg(feature = "tools")]
pub mod suite;
#[cfg(feature = "web")]
pub mod web;

pub use board::Board;
pub use engine::{Engine, GameStatus, Level, MoveError, SizeError, TakeBackError};
pub use search::Limits;
pub use types::{Color, Dir, Pos, Rule};
