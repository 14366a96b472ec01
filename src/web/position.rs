//! Move strings as people paste them: `h8i9j10` (Gomocalc's and the bench set's form),
//! `h8 i9 j10`, or `x,y` pairs (`7,7 8,6`), and the `h8i9j10` form for copying and links.

use crate::notation::{format_h8, parse_h8_run, parse_move_list};
use crate::types::{Pos, Rule};

/// Reads a move string for a `size` board: `x,y` pairs if it has a comma, else `h8` moves
/// run together or spaced; `pass` stands for a skipped turn in either (`h8passi9`, as
/// [`format_moves`] writes one). Checks the notation and the board's edges, not occupancy
/// (the engine's `set_position` does that).
pub fn parse_moves(text: &str, size: usize) -> Result<Vec<Pos>, String> {
    let text = text.trim();
    let moves = if text.contains(',') {
        parse_move_list(&text.replace(';', " ")).map_err(|e| e.to_string())?
    } else {
        let run = text
            .split_whitespace()
            .collect::<String>()
            .to_ascii_lowercase();
        let mut moves = Vec::new();
        for (i, piece) in run.split("pass").enumerate() {
            if i > 0 {
                moves.push(Pos::NONE);
            }
            moves.extend(parse_h8_run(piece, size).map_err(|e| e.to_string())?);
        }
        moves
    };
    if let Some(p) = moves.iter().find(|p| !p.is_none() && !p.on_board(size)) {
        return Err(format!("point {p} is off the {size}x{size} board"));
    }
    Ok(moves)
}

/// The moves as one `h8i9j10` string.
pub fn format_moves(moves: &[Pos], size: usize) -> String {
    moves.iter().map(|&p| format_h8(p, size)).collect()
}

/// A rule by its name as the page and the prompt give it.
pub fn parse_rule(s: &str) -> Result<Rule, String> {
    Rule::parse(s).ok_or_else(|| {
        format!("unknown rule '{s}' (freestyle, standard, renju, caro or caro-standard)")
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_every_form() {
        let want = vec![Pos::new(7, 7), Pos::new(8, 6), Pos::new(9, 5)];
        assert_eq!(parse_moves("h8i9j10", 15), Ok(want.clone()));
        assert_eq!(parse_moves(" h8 i9\nj10 ", 15), Ok(want.clone()));
        assert_eq!(parse_moves("7,7 8,6 9,5", 15), Ok(want.clone()));
        assert_eq!(parse_moves("7,7;8,6;9,5", 15), Ok(want.clone()));
        assert_eq!(format_moves(&want, 15), "h8i9j10");
        assert_eq!(parse_moves("", 15), Ok(vec![]));
    }

    /// A game with a pass (loaded from a record) makes a string, and so a link, that
    /// reads back.
    #[test]
    fn passes_go_out_and_back_in() {
        let moves = vec![Pos::new(7, 7), Pos::NONE, Pos::new(8, 6), Pos::NONE];
        assert_eq!(format_moves(&moves, 15), "h8passi9pass");
        assert_eq!(parse_moves("h8passi9pass", 15), Ok(moves.clone()));
        assert_eq!(parse_moves("H8 PASS i9 pass", 15), Ok(moves.clone()));
        assert_eq!(parse_moves("7,7 pass 8,6 pass", 15), Ok(moves));
        assert_eq!(parse_moves("pass", 15), Ok(vec![Pos::NONE]));
    }

    #[test]
    fn refuses_what_is_not_a_position() {
        for bad in ["z9", "h99", "h8é", "15,3", "h8pas", "h", "7,7,8"] {
            assert!(parse_moves(bad, 15).is_err(), "{bad}");
        }
    }
}
