//! Shared by the fuzz targets: bytes decode into a board size, a rule and a sequence of
//! actions, played on a board that keeps a hash per ply to check undo ([`Game`]), or played
//! as a game between legal players ([`legal_position`]).
// Each target uses its own part of this file.
#![allow(dead_code)]

use wuzi::movegen::{generate, GenKind, MoveList};
use wuzi::types::{Color, Pos, Rule, MAX_SIZE, MIN_SIZE};
use wuzi::Board;

use std::sync::OnceLock;

/// Known library bugs (see docs/fuzzing.md) are tolerated by default: the target checks a
/// weaker property in their place, so that a run goes on to find new ones. With
/// `WUZI_FUZZ_STRICT=1` it checks the full property, to rerun `fuzz/regressions/`.
pub fn strict() -> bool {
    static STRICT: OnceLock<bool> = OnceLock::new();
    *STRICT.get_or_init(|| std::env::var_os("WUZI_FUZZ_STRICT").is_some_and(|v| v == "1"))
}

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

/// The position the actions reach when every move is one a legal player may make in a game
/// still going on: on the board, empty, not forbidden for black under renju, and not a five
/// (a five would end the game). Other moves are skipped; passes and undos are kept.
pub fn legal_position(size: usize, rule: Rule, actions: &[Action]) -> Board {
    let mut b = Board::new(size, rule);
    let mut list = MoveList::new();
    for a in actions {
        let p = match *a {
            Action::Candidate(k) => {
                generate(&mut b, GenKind::Candidates, &mut list);
                if list.is_empty() {
                    continue;
                }
                list.as_slice()[k as usize % list.len()].pos
            }
            Action::Point(x, y) => Pos::new(x as usize % size, y as usize % size),
            Action::Pass => {
                b.make_pass();
                continue;
            }
            Action::Undo => {
                b.undo();
                continue;
            }
        };
        let side = b.to_move();
        let legal = b.is_empty(p) && !(side == Color::Black && b.is_forbidden(p));
        if legal && !b.makes_five(p, side) {
            b.make(p);
        }
    }
    b
}
