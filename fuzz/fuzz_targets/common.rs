//! Shared by the fuzz targets: bytes decode into a board size, a rule and a sequence of
//! actions, played on a board that keeps a hash per ply to check undo.

use wuzi::movegen::{generate, GenKind, MoveList};
use wuzi::types::{Pos, Rule, MAX_SIZE, MIN_SIZE};
use wuzi::Board;

/// One step of a fuzzed game.
#[derive(Debug)]
pub enum Action {
    /// Play the k-th candidate (modulo their number).
    Candidate(u8),
    /// Play the point (x, y) modulo the size, if it is empty.
    Point(u8, u8),
    Pass,
    Undo,
}

/// Size (`MIN_SIZE..=MAX_SIZE`), rule, and the actions (at most 300).
pub fn decode(data: &[u8]) -> Option<(usize, Rule, Vec<Action>)> {
    let (&s, rest) = data.split_first()?;
    let (&r, mut rest) = rest.split_first()?;
    let size = MIN_SIZE + s as usize % (MAX_SIZE - MIN_SIZE + 1);
    let rule = Rule::ALL[r as usize % Rule::ALL.len()];
    let mut actions = Vec::new();
    while let Some((&op, tail)) = rest.split_first() {
        rest = tail;
        let mut next = || {
            let (&b, tail) = rest.split_first().unwrap_or((&0, &[]));
            rest = tail;
            b
        };
        actions.push(match op % 8 {
            0..=3 => Action::Candidate(next()),
            4 | 5 => Action::Point(next(), next()),
            6 => Action::Pass,
            _ => Action::Undo,
        });
        if actions.len() == 300 {
            break;
        }
    }
    Some((size, rule, actions))
}

/// A board with the hash before every ply, to check that undo restores it.
pub struct Game {
    pub board: Board,
    pub list: MoveList,
    hashes: Vec<u64>,
}

impl Game {
    pub fn new(size: usize, rule: Rule) -> Game {
        Game {
            board: Board::new(size, rule),
            list: MoveList::new(),
            hashes: Vec::new(),
        }
    }

    /// Plays one action (a no-op where it cannot apply).
    pub fn play(&mut self, a: &Action) {
        let b = &mut self.board;
        let n = b.size();
        match *a {
            Action::Candidate(k) => {
                generate(b, GenKind::Candidates, &mut self.list);
                if !self.list.is_empty() {
                    let m = self.list.as_slice()[k as usize % self.list.len()].pos;
                    self.hashes.push(b.hash());
                    b.make(m);
                }
            }
            Action::Point(x, y) => {
                let p = Pos::new(x as usize % n, y as usize % n);
                if b.is_empty(p) {
                    self.hashes.push(b.hash());
                    b.make(p);
                }
            }
            Action::Pass => {
                self.hashes.push(b.hash());
                b.make_pass();
            }
            Action::Undo => {
                if b.undo().is_some() {
                    assert_eq!(Some(b.hash()), self.hashes.pop(), "undo changed the hash");
                }
            }
        }
    }
}
