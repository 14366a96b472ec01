//! wuzi: a bitboard Gomoku and Renju engine.
//!
//! Layers, each using only those above it:
//! 1. [`types`]: colours, rules, positions, directions;
//! 2. [`pattern`], [`threat`], [`geometry`], [`zobrist`], [`board`], [`forbidden`],
//!    [`movegen`]: the board with its line masks, patterns, win and forbidden detection;
//! 3. and up: evaluation, search, the engine facade and the front ends ([`protocol`],
//!    [`timeman`], [`record`], [`prompt`]); only the front ends and the binaries do I/O.

// Per-side and per-direction loops index several parallel arrays at once; an index reads
// better there than zipped iterators.
#![allow(clippy::needless_range_loop)]

pub mod benchmark;
pub mod board;
pub mod engine;
pub mod eval;
pub mod forbidden;
pub mod geometry;
pub mod movegen;
pub mod notation;
pub mod pattern;
pub mod prompt;
pub mod protocol;
pub mod record;
pub mod search;
pub mod simd;
pub mod suite;
pub mod threat;
pub mod types;
pub mod zobrist;

pub use board::Board;
pub use engine::{Engine, GameStatus, Level, MoveError};
pub use search::Limits;
pub use types::{Color, Dir, Pos, Rule};
