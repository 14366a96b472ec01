//! Symmetry-canonical position keys. A square board has eight symmetries (four rotations,
//! each with or without a mirror); every rule wuzi plays is the same under all of them, so a
//! position reached rotated or mirrored is the same record. The key is the least of the
//! eight encodings, and moves are stored in that orientation.

use crate::board::Board;
pub use crate::symmetry::Sym;
use crate::types::{Color, Pos, Rule};

/// Bytes before the cells: size, rule, side to move.
const HEADER: usize = 3;

/// A stable code of a rule in keys and export files (never reordered).
pub fn rule_code(rule: Rule) -> u8 {
    match rule {
        Rule::Freestyle => 0,
        Rule::Standard => 1,
        Rule::Renju => 2,
        Rule::Caro { exact: false } => 3,
        Rule::Caro { exact: true } => 4,
    }
}

/// The rule of a [`rule_code`].
pub fn rule_of_code(code: u8) -> Option<Rule> {
    Rule::ALL.into_iter().find(|&r| rule_code(r) == code)
}

/// The canonical key of a position with where it came from: which symmetries map the
/// position onto its key (more than one when the position is itself symmetric).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Canon {
    /// Size, rule code, side to move (0 black, 1 white), then two bits a cell (1 black,
    /// 2 white) in row order of the canonical orientation.
    pub key: Vec<u8>,
    size: usize,
    /// Bit `s` set: symmetry `s` maps the position onto the key.
    syms: u8,
}

impl Canon {
    /// The key of `board`'s position (stones and side to move; not the move order).
    pub fn of(board: &Board) -> Canon {
        let stones = stones_of(board);
        Canon::from_stones(board.size(), board.rule(), board.to_move(), &stones)
    }

    /// The key of the position after `board`'s side to move plays `p` (not made).
    pub fn after(board: &Board, p: Pos) -> Canon {
        let mut stones = stones_of(board);
        stones.push((p, board.to_move()));
        Canon::from_stones(board.size(), board.rule(), !board.to_move(), &stones)
    }

    /// The key of the position with `stones` on an `n` x `n` board, `to_move` to move.
    /// Stones off the board are left out.
    pub fn from_stones(n: usize, rule: Rule, to_move: Color, stones: &[(Pos, Color)]) -> Canon {
        let cells_bytes = (n * n).div_ceil(4);
        let mut best: Vec<u8> = Vec::new();
        let mut syms = 0u8;
        let mut key = vec![0u8; HEADER + cells_bytes];
        for s in Sym::ALL {
            key.fill(0);
            key[0] = n as u8;
            key[1] = rule_code(rule);
            key[2] = to_move.index() as u8;
            for &(p, c) in stones {
                if p.is_none() || !p.on_board(n) {
                    continue;
                }
                let (x, y) = s.apply_xy(p.x(), p.y(), n);
                let i = y * n + x;
                key[HEADER + i / 4] |= (1 + c.index() as u8) << (2 * (i % 4));
            }
            if best.is_empty() || key < best {
                best.clone_from(&key);
                syms = 1 << s.0;
            } else if key == best {
                syms |= 1 << s.0;
            }
        }
        Canon {
            key: best,
            size: n,
            syms,
        }
    }

    /// `p` in the canonical orientation: the least of its images under the symmetries that
    /// map the position onto its key, so that moves a symmetric position makes equal are
    /// one move.
    pub fn to_canonical(&self, p: Pos) -> Pos {
        self.mapping()
            .map(|s| s.apply(p, self.size))
            .min_by_key(|q| q.0)
            .unwrap_or(p)
    }

    /// A stored (canonical) move in the position's own orientation.
    pub fn from_canonical(&self, c: Pos) -> Pos {
        self.mapping()
            .next()
            .map_or(c, |s| s.inverse().apply(c, self.size))
    }

    /// The symmetries that map the position onto its key.
    fn mapping(&self) -> impl Iterator<Item = Sym> + '_ {
        Sym::ALL
            .into_iter()
            .filter(move |s| self.syms & (1 << s.0) != 0)
    }
}

/// The stones of `board` with their colours (black plays the even plies; passes skipped).
pub fn stones_of(board: &Board) -> Vec<(Pos, Color)> {
    board
        .moves()
        .iter()
        .enumerate()
        .filter(|(_, p)| !p.is_none())
        .map(|(i, &p)| (p, Color::ALL[i % 2]))
        .collect()
}

/// What a key says (for export and tests).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KeyParts {
    /// Board size.
    pub size: usize,
    /// The rule.
    pub rule: Rule,
    /// The side to move.
    pub to_move: Color,
    /// The stones, in row order of the canonical orientation.
    pub stones: Vec<(Pos, Color)>,
}

/// What a key says; `None` if the bytes are not a key.
pub fn decode_key(key: &[u8]) -> Option<KeyParts> {
    let (&n, rest) = key.split_first()?;
    let n = n as usize;
    if !(crate::types::MIN_SIZE..=crate::types::MAX_SIZE).contains(&n) {
        return None;
    }
    let (&rule, rest) = rest.split_first()?;
    let rule = rule_of_code(rule)?;
    let (&side, cells) = rest.split_first()?;
    let side = *Color::ALL.get(side as usize)?;
    if cells.len() != (n * n).div_ceil(4) {
        return None;
    }
    let mut stones = Vec::new();
    for i in 0..n * n {
        match (cells[i / 4] >> (2 * (i % 4))) & 3 {
            0 => {}
            1 => stones.push((Pos::new(i % n, i / n), Color::Black)),
            2 => stones.push((Pos::new(i % n, i / n), Color::White)),
            _ => return None,
        }
    }
    Some(KeyParts {
        size: n,
        rule,
        to_move: side,
        stones,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_key_reads_back_as_its_stones() {
        let stones = [
            (Pos::new(7, 7), Color::Black),
            (Pos::new(8, 7), Color::White),
        ];
        let c = Canon::from_stones(15, Rule::Renju, Color::Black, &stones);
        let k = decode_key(&c.key).expect("a key");
        assert_eq!(
            (k.size, k.rule, k.to_move, k.stones.len()),
            (15, Rule::Renju, Color::Black, 2)
        );
        assert!(decode_key(&c.key[..10]).is_none());
        assert!(decode_key(&[]).is_none());
    }
}
