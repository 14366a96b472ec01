//! A simple Swap2 opening policy on top of the engine's search: propose a balanced
//! three-stone opening, and take whichever colour the search prefers.

use crate::engine::{Engine, Level};
use crate::search::Limits;
use crate::types::Pos;
use std::time::Duration;

/// What to answer to a 3- or 5-stone `SWAP2BOARD`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Swap2Choice {
    /// Take black: the opponent continues as white.
    Swap,
    /// Stay white and play this move.
    Move(Pos),
}

/// Decides on the position in `engine` (white to move after 3 or 5 stones): the search
/// scores it for white; if white stands worse we swap to black, else we play its move.
pub fn decide(engine: &mut Engine, limits: &Limits) -> Swap2Choice {
    let out = engine.think(Level::Full, limits, &mut |_| {});
    if out.score < 0 || out.best.is_none() {
        Swap2Choice::Swap
    } else {
        Swap2Choice::Move(out.best)
    }
}

/// Three stones (black, white, black) near the centre for which a short search finds the
/// position closest to equal, so that the opponent's choice of colour gains little. Leaves
/// `engine` at the position after the three stones. Once `stopped` says so (a `STOP` came),
/// the best opening so far is taken.
pub fn opening_three(engine: &mut Engine, limits: &Limits, stopped: &dyn Fn() -> bool) -> [Pos; 3] {
    let size = engine.board().size();
    let c = size / 2;
    let first = Pos::new(c, c);
    let second = Pos::new((c + 1).min(size - 1), c.saturating_sub(1));
    let candidates: Vec<Pos> = (c.saturating_sub(2)..=(c + 2).min(size - 1))
        .flat_map(|y| (c.saturating_sub(2)..=(c + 2).min(size - 1)).map(move |x| Pos::new(x, y)))
        .filter(|&p| p != first && p != second)
        .collect();
    // Share the move's time among the candidates, and keep each search shallow.
    let share = limits
        .hard_time
        .map(|t| t / candidates.len().max(1) as u32)
        .unwrap_or(Duration::from_millis(100));
    let probe = Limits {
        depth: Some(limits.depth.unwrap_or(4).min(4)),
        nodes: Some(limits.nodes.unwrap_or(50_000).min(50_000)),
        soft_time: Some(share / 2),
        hard_time: Some(share),
    };
    // A 5x5 board or larger leaves at least 23 candidates.
    let fallback = candidates.first().copied().unwrap_or(Pos::new(0, 0));
    let mut best = (i32::MAX, [first, second, fallback]);
    for &third in &candidates {
        if stopped() && best.0 < i32::MAX {
            break;
        }
        let stones = [first, second, third];
        if engine.set_position(&stones).is_err() {
            continue;
        }
        let score = engine.think(Level::Full, &probe, &mut |_| {}).score;
        if score.abs() < best.0 {
            best = (score.abs(), stones);
        }
    }
    // Candidates lie on the board and differ from the first two stones, so this holds.
    let _ = engine.set_position(&best.1);
    best.1
}
