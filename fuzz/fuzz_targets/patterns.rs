//! Board patterns against the slow reference: after every fuzzed action, each empty cell on
//! one of the lines through the last move (the four in turn) is graded along that line for
//! both sides by `pattern::reference::classify` over the cells read off the board, and must
//! equal the board's incremental pattern. The reference sees the eleven-cell window
//! (off-board cells as walls), except under caro with overlines, where it sees the whole
//! line: there a run can leave the window and the board must still grade it as the whole
//! line does.
#![no_main]

mod common;

use common::{decode, Game};
use libfuzzer_sys::fuzz_target;
use wuzi::pattern::reference::{classify, Cell};
use wuzi::pattern::LineRule;
use wuzi::types::{Color, Dir, Pos, Rule};
use wuzi::Board;

fn cell(b: &Board, q: Option<Pos>, side: Color) -> Cell {
    match q.map(|q| b.stone(q)) {
        None => Cell::Wall,
        Some(None) => Cell::Empty,
        Some(Some(c)) if c == side => Cell::Own,
        Some(Some(_)) => Cell::Opp,
    }
}

fn check_cell(b: &Board, p: Pos, d: Dir) {
    let g = b.geometry();
    let whole_line = b.rule() == Rule::Caro { exact: false };
    for side in Color::ALL {
        let lr = LineRule::of(b.rule(), side);
        let (cells, c): (Vec<Cell>, usize) = if whole_line {
            let mut lo = 0;
            while g.step(p, d, lo - 1).is_some() {
                lo -= 1;
            }
            let mut hi = 0;
            while g.step(p, d, hi + 1).is_some() {
                hi += 1;
            }
            let v = (lo..=hi).map(|k| cell(b, g.step(p, d, k), side)).collect();
            (v, (-lo) as usize)
        } else {
            let v = (-5..=5).map(|k| cell(b, g.step(p, d, k), side)).collect();
            (v, 5)
        };
        let want = classify(&cells, c, lr);
        assert_eq!(b.pattern(p, side, d), want, "{p} {d:?} {side} {cells:?}");
    }
}

fuzz_target!(|data: &[u8]| {
    let Some((size, rule, actions)) = decode(data) else {
        return;
    };
    let mut g = Game::new(size, rule);
    for (n, a) in actions.iter().enumerate() {
        g.play(a);
        let b = &g.board;
        let last = b.last_move();
        if last.is_none() {
            continue;
        }
        // Only patterns along a line through the new stone can change: those within five
        // of it, or further under caro with overlines (runs carry the change). The
        // reference is slow (~0.2 ms a cell), so one line per action, in turn.
        let reach = if rule == (Rule::Caro { exact: false }) {
            10
        } else {
            5
        };
        let d = Dir::ALL[n % 4];
        for k in -reach..=reach {
            if let Some(q) = b.geometry().step(last, d, k) {
                if b.is_empty(q) {
                    check_cell(b, q, d);
                }
            }
        }
    }
});
