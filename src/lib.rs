//! wuzi: a bitboard Gomoku and Renju engine.
//!
//! Layers, each using only those above it:
//! 1. [`types`]: colours, rules, positions, directions;
//! 2. [`pattern`], [`threat`], [`geometry`], [`zobrist`], [`board`], [`forbidden`],
//!    [`movegen`]: the board with its line masks, patterns, win and forbidden detection;
//! 3. and up: evaluation, search, the engine facade and the front ends.

pub mod board;
pub mod forbidden;
pub mod geometry;
pub mod movegen;
pub mod notation;
pub mod pattern;
pub mod suite;
pub mod threat;
pub mod types;
pub mod zobrist;

pub use board::Board;
pub use types::{Color, Dir, Pos, Rule};
