//! wuzi: a bitboard Gomoku and Renju engine.
//!
//! The modules in layers, each using only the ones above it:
//! 1. Types and positions: [`types`] (colours, rules, points, directions), [`geometry`]
//!    (lines of each board size), [`zobrist`] (hash keys), [`notation`] (`h8` and `x,y`),
//!    [`simd`] (which kernel the CPU runs).
//! 2. The board: [`pattern`] (line-pattern tables), [`threat`] (a cell's class from its four
//!    patterns), [`board`] (line bitmasks, Zobrist hash, incremental patterns, make/undo),
//!    [`forbidden`] (renju), [`movegen`] (move lists and generators).
//! 3. Evaluation: [`eval`] (static evaluation and move ordering, with their kernels).
//! 4. Search: [`search`] (iterative deepening, the node search, the threat-space solver,
//!    the transposition table, time management, threads, parameters).
//! 5. The engine facade: [`engine`] (a game, settings, `think`; no I/O), and beside it
//!    [`db`], the position database it consults and teaches.
//! 6. Front ends and tools: [`prompt`] (the terminal game), [`protocol`] (the Gomocup brain),
//!    [`web`] (the board in a browser, over HTTP), [`record`] (game records), [`benchmark`]
//!    (the bench set), [`suite`] (test positions), [`datagen`] (self-play training data).
//!    Only they and the binaries read or write anything.
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

// Layer 1
pub mod geometry;
pub mod notation;
pub mod simd;
pub mod types;
pub mod zobrist;
// Layer 2
pub mod board;
pub mod forbidden;
pub mod movegen;
pub mod pattern;
pub mod threat;
// Layer 3
pub mod eval;
// Layer 4
pub mod search;
// Layer 5
pub mod db;
pub mod engine;
// Layer 6
pub mod benchmark;
pub mod datagen;
pub mod prompt;
pub mod protocol;
pub mod record;
pub mod suite;
pub mod web;

pub use board::Board;
pub use engine::{Engine, GameStatus, Level, MoveError, SizeError, TakeBackError};
pub use search::Limits;
pub use types::{Color, Dir, Pos, Rule};
