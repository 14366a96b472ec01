//! The shard format of self-play data: games, each with every searched position's score and
//! best move. Little-endian, documented in `docs/datagen.md`, read by the trainer
//! (`train/`) as well as by [`read_shard`].
//!
//! A shard is the 8-byte magic [`MAGIC`] followed by games until the end of the file. A game
//! is an 8-byte header (size, rule, result, opening plies, ply count as `u16`, two reserved
//! bytes) and 6 bytes per ply (the move played, the search's best move, the search's score
//! for the side to move, as `u16`, `u16`, `i16`). Points are `y * size + x`; [`NO_POINT`]
//! stands for a pass or for no search (the opening's random plies).

use crate::types::{Color, Pos, Rule};
use thiserror::Error;

/// The first bytes of every shard: the format's name and version.
pub const MAGIC: [u8; 8] = *b"WUZIDAT1";
/// Bytes of a game's header.
pub const HEADER_BYTES: usize = 8;
/// Bytes of one ply.
pub const PLY_BYTES: usize = 6;
/// A point that is none: a pass, or the best move of a ply that was not searched.
pub const NO_POINT: u16 = u16::MAX;

/// How a game ended.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Black won (made a five, or a search proved the win).
    BlackWin,
    /// White won.
    WhiteWin,
    /// The board filled up.
    Draw,
}

impl Outcome {
    /// The side that won, if any.
    pub fn winner(self) -> Option<Color> {
        match self {
            Outcome::BlackWin => Some(Color::Black),
            Outcome::WhiteWin => Some(Color::White),
            Outcome::Draw => None,
        }
    }

    /// The outcome where `winner` won.
    pub fn won_by(winner: Color) -> Outcome {
        match winner {
            Color::Black => Outcome::BlackWin,
            Color::White => Outcome::WhiteWin,
        }
    }

    fn code(self) -> u8 {
        match self {
            Outcome::BlackWin => 0,
            Outcome::WhiteWin => 1,
            Outcome::Draw => 2,
        }
    }

    fn from_code(c: u8) -> Option<Outcome> {
        [Outcome::BlackWin, Outcome::WhiteWin, Outcome::Draw]
            .get(c as usize)
            .copied()
    }
}

/// One ply of a game.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Ply {
    /// The move played (`Pos::NONE`: a pass).
    pub played: Pos,
    /// The search's best move (`Pos::NONE` for the opening's random plies).
    pub best: Pos,
    /// The search's score for the side to move (0 for the opening's random plies).
    pub score: i16,
}

/// One self-play game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game {
    /// Board size.
    pub size: usize,
    /// Rule.
    pub rule: Rule,
    /// How it ended.
    pub outcome: Outcome,
    /// How many of the first plies are the random opening (not searched).
    pub opening: usize,
    /// Every ply, black's first.
    pub plies: Vec<Ply>,
}

/// A shard that cannot be read.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum FormatError {
    /// The file does not start with [`MAGIC`].
    #[error("not a wuzi data shard (the file does not start with {:?})", String::from_utf8_lossy(&MAGIC))]
    Magic,
    /// A game's header holds a value out of range.
    #[error("game {game} at byte {offset}: {what}")]
    Header {
        /// The game's index in the shard.
        game: usize,
        /// Its byte offset.
        offset: usize,
        /// What is wrong.
        what: String,
    },
    /// A ply's point is off the board.
    #[error("game {game}, ply {ply}: point {point} is off a {size}x{size} board")]
    Point {
        /// The game's index in the shard.
        game: usize,
        /// The ply.
        ply: usize,
        /// The point's code.
        point: u16,
        /// The board size.
        size: usize,
    },
}

fn encode_point(p: Pos, size: usize) -> u16 {
    if p.is_none() {
        NO_POINT
    } else {
        (p.y() * size + p.x()) as u16
    }
}

fn decode_point(v: u16, size: usize) -> Option<Pos> {
    if v == NO_POINT {
        return Some(Pos::NONE);
    }
    let v = v as usize;
    (v < size * size).then(|| Pos::new(v % size, v / size))
}

/// Appends `game` to `out` in the shard format.
pub fn write_game(game: &Game, out: &mut Vec<u8>) {
    let rule = Rule::ALL.iter().position(|&r| r == game.rule).unwrap_or(0) as u8;
    out.push(game.size as u8);
    out.push(rule);
    out.push(game.outcome.code());
    out.push(game.opening.min(255) as u8);
    out.extend_from_slice(&(game.plies.len() as u16).to_le_bytes());
    out.extend_from_slice(&[0, 0]);
    for ply in &game.plies {
        out.extend_from_slice(&encode_point(ply.played, game.size).to_le_bytes());
        out.extend_from_slice(&encode_point(ply.best, game.size).to_le_bytes());
        out.extend_from_slice(&ply.score.to_le_bytes());
    }
}

/// The games of a shard's bytes. A game cut short at the end (a shard being written, or
/// one whose writer was killed) is left out: the complete games before it are returned.
pub fn read_shard(bytes: &[u8]) -> Result<Vec<Game>, FormatError> {
    let body = bytes.strip_prefix(&MAGIC[..]).ok_or(FormatError::Magic)?;
    let mut games = Vec::new();
    let mut at = 0;
    while body.len() - at >= HEADER_BYTES {
        let h = &body[at..at + HEADER_BYTES];
        let offset = at + MAGIC.len();
        let bad = |what: String| FormatError::Header {
            game: games.len(),
            offset,
            what,
        };
        let size = h[0] as usize;
        if !(crate::types::MIN_SIZE..=crate::types::MAX_SIZE).contains(&size) {
            return Err(bad(format!("board size {size} is not supported")));
        }
        let rule = *Rule::ALL
            .get(h[1] as usize)
            .ok_or_else(|| bad(format!("rule code {} is unknown", h[1])))?;
        let outcome =
            Outcome::from_code(h[2]).ok_or_else(|| bad(format!("result code {}", h[2])))?;
        let opening = h[3] as usize;
        let n = u16::from_le_bytes([h[4], h[5]]) as usize;
        if n > size * size * 2 || opening > n {
            return Err(bad(format!("{n} plies with {opening} opening plies")));
        }
        let end = at + HEADER_BYTES + n * PLY_BYTES;
        if end > body.len() {
            break; // cut short
        }
        let mut plies = Vec::with_capacity(n);
        for (k, c) in body[at + HEADER_BYTES..end]
            .chunks_exact(PLY_BYTES)
            .enumerate()
        {
            let point = |v: u16| {
                decode_point(v, size).ok_or(FormatError::Point {
                    game: games.len(),
                    ply: k,
                    point: v,
                    size,
                })
            };
            plies.push(Ply {
                played: point(u16::from_le_bytes([c[0], c[1]]))?,
                best: point(u16::from_le_bytes([c[2], c[3]]))?,
                score: i16::from_le_bytes([c[4], c[5]]),
            });
        }
        games.push(Game {
            size,
            rule,
            outcome,
            opening,
            plies,
        });
        at = end;
    }
    Ok(games)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game() -> Game {
        Game {
            size: 15,
            rule: Rule::Renju,
            outcome: Outcome::WhiteWin,
            opening: 1,
            plies: vec![
                Ply {
                    played: Pos::new(7, 7),
                    best: Pos::NONE,
                    score: 0,
                },
                Ply {
                    played: Pos::new(14, 0),
                    best: Pos::new(14, 0),
                    score: -321,
                },
                Ply {
                    played: Pos::NONE,
                    best: Pos::new(0, 14),
                    score: 29_990,
                },
            ],
        }
    }

    #[test]
    fn games_round_trip() {
        let mut bytes = MAGIC.to_vec();
        write_game(&game(), &mut bytes);
        write_game(&game(), &mut bytes);
        assert_eq!(bytes.len(), 8 + 2 * (HEADER_BYTES + 3 * PLY_BYTES));
        assert_eq!(read_shard(&bytes), Ok(vec![game(), game()]));
        // A game cut short is left out.
        assert_eq!(read_shard(&bytes[..bytes.len() - 1]), Ok(vec![game()]));
    }

    #[test]
    fn bad_shards_are_refused_with_a_reason() {
        assert_eq!(read_shard(b"WUZIDAT0"), Err(FormatError::Magic));
        let mut bytes = MAGIC.to_vec();
        write_game(&game(), &mut bytes);
        let mut wrong = bytes.clone();
        wrong[8] = 40; // size
        assert!(read_shard(&wrong)
            .unwrap_err()
            .to_string()
            .contains("board size 40"));
        let mut wrong = bytes.clone();
        wrong[8 + HEADER_BYTES] = 0xF0; // a point off the board
        assert!(matches!(read_shard(&wrong), Err(FormatError::Point { .. })));
    }
}
