//! Text helpers of the prompt: stones, levels, the vary margin and principal variations
//! in words.

use crate::engine::Level;
use crate::notation::format_h8;
use crate::types::{Color, Pos};

/// The prompt's width in columns: every line it prints fits an 80-column terminal.
pub(super) const WIDTH: usize = 80;

/// `text` with every line longer than [`WIDTH`] broken at its last space within the width
/// (a word longer than a line stays whole).
pub(super) fn wrap(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 8);
    for (i, line) in text.split('\n').enumerate() {
        if i > 0 {
            out.push('\n');
        }
        let mut rest = line;
        while rest.chars().count() > WIDTH {
            let cut = rest
                .char_indices()
                .nth(WIDTH)
                .map_or(rest.len(), |(b, _)| b);
            let indent = rest.len() - rest.trim_start().len();
            let at = if rest[cut..].starts_with(' ') {
                Some(cut)
            } else {
                rest[..cut]
                    .rfind(' ')
                    .filter(|&b| b > indent)
                    .or_else(|| rest[cut..].find(' ').map(|b| cut + b))
            };
            let Some(at) = at else { break };
            out.push_str(&rest[..at]);
            out.push('\n');
            rest = &rest[at + 1..];
        }
        out.push_str(rest);
    }
    out
}

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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_lines_break_between_words() {
        let words = "word ".repeat(40);
        let wrapped = wrap(words.trim_end());
        assert!(
            wrapped.lines().all(|l| l.chars().count() <= WIDTH),
            "{wrapped}"
        );
        assert_eq!(wrapped.replace('\n', " "), words.trim_end());
        assert_eq!(wrap("short\n  kept as it is"), "short\n  kept as it is");
        let long = "x".repeat(100);
        assert_eq!(wrap(&format!("a {long} b")), format!("a\n{long}\nb"));
    }
}
