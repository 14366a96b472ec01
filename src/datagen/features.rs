//! Training positions as the network's inputs (`wuzi features`): every searched position of
//! self-play games, written as fixed-size records the trainer (`train/`) reads directly.
//!
//! A file is the 8-byte magic [`MAGIC`], an 8-byte header (board size, key count,
//! directions, a reserved byte, the record count as `u32`), then the records. A record is,
//! for each cell (`y * size + x`) and each direction of `Dir::ALL`, one key byte ([`keys`];
//! [`OCCUPIED`] for a stone); then for each cell and direction its line window's code for
//! the side to move (`u16`, [`Board::window_code`]; 0 for a stone); then the best move's
//! cell (`u16`), the search's score for the side to move (`i16`), the game's result for the
//! side to move (`i8`: 1 won, 0 drawn, -1 lost) and a reserved byte.
//! `docs/training.md` documents it for the trainer.

use super::format::Game;
use crate::board::Board;
use crate::types::{Dir, Pos};

/// The first bytes of a feature file: the format's name and version. Version 3 adds the
/// cells' window codes to version 1's keys, the input of a version-6 net's policy window
/// term. (Version 2 had other window rows, for the window nets that were dropped.)
pub const MAGIC: [u8; 8] = *b"WUZIFEA3";
pub use crate::eval::net::{keys, KEYS, PATTERNS};
/// The key byte of an occupied cell.
pub const OCCUPIED: u8 = 255;
/// Bytes after a record's keys: best move, score, result, reserved.
pub const TAIL_BYTES: usize = 6;

/// Bytes of the magic and the header.
pub const HEADER_BYTES: usize = 16;
/// Bytes of one record on a `size` board: a key byte and a two-byte window code per cell
/// and direction, and the tail.
pub fn record_bytes(size: usize) -> usize {
    12 * size * size + TAIL_BYTES
}

/// The file header for `records` records on a `size` board.
pub fn header(size: usize, records: u32) -> Vec<u8> {
    let mut h = MAGIC.to_vec();
    h.extend_from_slice(&[size as u8, KEYS as u8, 4, 0]);
    h.extend_from_slice(&records.to_le_bytes());
    h
}

/// Appends a record of every searched position of `game` to `out`; returns how many. The
/// game is replayed on a board; a move that does not apply ends it there (a damaged game).
pub fn write_game(game: &Game, out: &mut Vec<u8>) -> usize {
    let size = game.size;
    let mut board = Board::new(size, game.rule);
    let mut n = 0;
    for (i, ply) in game.plies.iter().enumerate() {
        if i >= game.opening && !ply.best.is_none() && board.is_empty(ply.best) {
            let me = board.to_move();
            let cells = || (0..size).flat_map(|y| (0..size).map(move |x| Pos::new(x, y)));
            for p in cells() {
                out.extend(if board.is_empty(p) {
                    keys(&board, p, me)
                } else {
                    [OCCUPIED; 4]
                });
            }
            for p in cells() {
                for d in Dir::ALL {
                    let code = if board.is_empty(p) {
                        board.window_code(p, me, d) as u16
                    } else {
                        0
                    };
                    out.extend_from_slice(&code.to_le_bytes());
                }
            }
            let best = (ply.best.y() * size + ply.best.x()) as u16;
            let result: i8 = match game.outcome.winner() {
                None => 0,
                Some(w) if w == board.to_move() => 1,
                Some(_) => -1,
            };
            out.extend_from_slice(&best.to_le_bytes());
            out.extend_from_slice(&ply.score.to_le_bytes());
            out.push(result as u8);
            out.push(0);
            n += 1;
        }
        if ply.played.is_none() {
            board.make_pass();
        } else if board.is_empty(ply.played) {
            board.make(ply.played);
        } else {
            break;
        }
    }
    n
}

#[cfg(test)]
mod tests {
    use super::super::format::{Outcome, Ply};
    use super::*;
    use crate::pattern::Pattern;
    use crate::types::Rule;

    #[test]
    fn records_hold_the_side_to_moves_patterns() {
        // Black 7,7 8,7 9,7, white 7,8 8,8 0,0; black to move: at 10,7 black makes an open
        // four.
        let moves = [(7, 7), (7, 8), (8, 7), (8, 8), (9, 7), (0, 0)];
        let mut plies: Vec<Ply> = moves
            .iter()
            .map(|&(x, y)| Ply {
                played: Pos::new(x, y),
                best: Pos::NONE,
                score: 0,
            })
            .collect();
        plies.push(Ply {
            played: Pos::new(10, 7),
            best: Pos::new(10, 7),
            score: 29_997,
        });
        let game = Game {
            size: 15,
            rule: Rule::Freestyle,
            outcome: Outcome::WhiteWin,
            opening: 6,
            plies,
        };
        let mut out = Vec::new();
        assert_eq!(write_game(&game, &mut out), 1);
        assert_eq!(out.len(), record_bytes(15));
        let cell = |x: usize, y: usize, d: usize| out[4 * (y * 15 + x) + d];
        assert_eq!(cell(10, 7, 0) as usize / PATTERNS, Pattern::F4 as usize);
        assert_eq!(cell(0, 0, 1), OCCUPIED);
        assert_eq!(cell(7, 7, 2), OCCUPIED);
        // White (not to move) makes an open three at 9,8 along the row.
        assert_eq!(cell(9, 8, 0) as usize % PATTERNS, Pattern::F3 as usize);
        // The row window of 10,7 for black: 9,7 and 8,7 black (digits 3 and 2), 7,7 black
        // (digit 1), 6,7 empty; 11,7 to 14,7 empty.
        let code = |x: usize, y: usize, d: usize| {
            let at = 4 * 225 + 2 * (4 * (y * 15 + x) + d);
            u16::from_le_bytes([out[at], out[at + 1]])
        };
        assert_eq!(code(10, 7, 0), 27 + 9 + 3);
        assert_eq!(code(0, 0, 0), 0);
        // Nothing within four steps of 10,7 along its column.
        assert_eq!(code(10, 7, 1), 0);
        // 14,14 for black along the row: the four cells beyond the edge count as blocked.
        assert_eq!(code(14, 14, 0), 2 * (81 + 243 + 729 + 2187));
        let tail = &out[12 * 225..];
        assert_eq!(u16::from_le_bytes([tail[0], tail[1]]), 7 * 15 + 10);
        assert_eq!(i16::from_le_bytes([tail[2], tail[3]]), 29_997);
        assert_eq!(tail[4] as i8, -1, "black to move, white won");
    }
}
