//! Text helpers of the prompt: stones, levels, the vary margin and principal variations
//! in words.

use crate::engine::Level;
use crate::notation::format_h8;
use crate::types::{Color, Pos};

/// Moves of a principal variation shown in a message.
pub(super) const PV_SHOWN: usize = 10;

pub(super) fn stone_char(c: Color) -> char {
    match c {
        Color::Black => 'X',
        Color::White => 'O',
    }
}

pub(super) fn level_text(l: Level) -> String {
    match l {
        Level::Random => "random".into(),
        Level::Greedy => "greedy".into(),
        Level::Depth(d) => format!("depth {d}"),
        Level::Full => "full".into(),
    }
}

pub(super) fn vary_text(v: Option<i32>) -> String {
    match v {
        Some(m) => format!("The engine picks at random among moves within {m} of the best"),
        None => "The engine always plays its best move".into(),
    }
}

/// A principal variation in `h8` notation, at most [`PV_SHOWN`] moves.
pub(super) fn pv_text(pv: &[Pos], size: usize) -> String {
    let mut words: Vec<String> = pv
        .iter()
        .take(PV_SHOWN)
        .map(|&p| format_h8(p, size))
        .collect();
    if pv.len() > PV_SHOWN {
        words.push(format!("(+{} more)", pv.len() - PV_SHOWN));
    }
    words.join(" ")
}
