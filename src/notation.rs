//! Text forms of points and move lists: Gomocup `x,y` and the players' `h8` (column letter
//! from `a`, row number from the bottom: on 15x15, `h8` is the centre and `a15` is `0,0`).

use crate::types::{Pos, MAX_SIZE};

/// Why a text is not a point or a move list. The texts quoted are as written, trimmed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum NotationError {
    /// An `x,y` point without the comma.
    #[error("expected x,y but got '{0}'")]
    NotXy(String),
    /// The `x` of `x,y` is not a number.
    #[error("bad x coordinate '{0}'")]
    BadX(String),
    /// The `y` of `x,y` is not a number.
    #[error("bad y coordinate '{0}'")]
    BadY(String),
    /// An `x,y` point beyond the largest board.
    #[error("point {0},{1} is off every supported board")]
    OffEveryBoard(i64, i64),
    /// An `x,y` point beyond the board in play.
    #[error("point {point} is off the {size}x{size} board")]
    OffBoard {
        /// The point.
        point: Pos,
        /// The board size.
        size: usize,
    },
    /// Nothing where an `h8` move should be.
    #[error("empty move")]
    Empty,
    /// An `h8` move that does not begin with a letter.
    #[error("'{0}' does not start with a column letter")]
    NoColumn(String),
    /// An `h8` move whose row is not a number.
    #[error("'{0}': bad row number")]
    BadRow(String),
    /// An `h8` move beyond the board in play.
    #[error("'{text}' is off the {size}x{size} board")]
    H8OffBoard {
        /// The move as written.
        text: String,
        /// The board size.
        size: usize,
    },
    /// A character that has no place in a run of `h8` moves (anything not ASCII).
    #[error("'{0}' is not a column letter or a row number")]
    NotInRun(char),
}

// Front ends that report errors as text take these with `?`.
impl From<NotationError> for String {
    fn from(e: NotationError) -> String {
        e.to_string()
    }
}

/// Parses `x,y` (zero-based, x = column). `-1,-1` is the pass. Errors name the problem.
pub fn parse_xy(s: &str) -> Result<Pos, NotationError> {
    let s = s.trim();
    let (a, b) = s
        .split_once(',')
        .ok_or_else(|| NotationError::NotXy(s.into()))?;
    let (a, b) = (a.trim(), b.trim());
    let x: i64 = a.parse().map_err(|_| NotationError::BadX(a.into()))?;
    let y: i64 = b.parse().map_err(|_| NotationError::BadY(b.into()))?;
    if x == -1 && y == -1 {
        return Ok(Pos::NONE);
    }
    if !(0..MAX_SIZE as i64).contains(&x) || !(0..MAX_SIZE as i64).contains(&y) {
        return Err(NotationError::OffEveryBoard(x, y));
    }
    Ok(Pos::new(x as usize, y as usize))
}

/// Parses `h8`-style notation on a board of side `size`.
pub fn parse_h8(s: &str, size: usize) -> Result<Pos, NotationError> {
    let s = s.trim();
    let mut chars = s.chars();
    let c = chars
        .next()
        .ok_or(NotationError::Empty)?
        .to_ascii_lowercase();
    if !c.is_ascii_lowercase() {
        return Err(NotationError::NoColumn(s.into()));
    }
    let x = (c as u8 - b'a') as usize;
    let row: usize = chars
        .as_str()
        .parse()
        .map_err(|_| NotationError::BadRow(s.into()))?;
    if x >= size || row == 0 || row > size {
        return Err(NotationError::H8OffBoard {
            text: s.into(),
            size,
        });
    }
    Ok(Pos::new(x, size - row))
}

/// Formats `p` in `h8` notation for a board of side `size`.
pub fn format_h8(p: Pos, size: usize) -> String {
    if p.is_none() {
        return "pass".into();
    }
    format!("{}{}", (b'a' + p.x() as u8) as char, size - p.y())
}

/// Parses a move in either notation (`x,y` or `h8`).
pub fn parse_any(s: &str, size: usize) -> Result<Pos, NotationError> {
    if s.contains(',') {
        let p = parse_xy(s)?;
        if !p.is_none() && !p.on_board(size) {
            return Err(NotationError::OffBoard { point: p, size });
        }
        Ok(p)
    } else {
        parse_h8(s, size)
    }
}

/// Parses a space-separated move list of `x,y` points and `pass` words.
pub fn parse_move_list(s: &str) -> Result<Vec<Pos>, NotationError> {
    s.split_whitespace()
        .map(|t| {
            if t.eq_ignore_ascii_case("pass") {
                Ok(Pos::NONE)
            } else {
                parse_xy(t)
            }
        })
        .collect()
}

/// Parses a run-together `h8h7j6` string (as in Rapfi's bench set); spaces between the
/// moves (`h8 h7 j6`, as a shell passes separate words joined) are allowed.
pub fn parse_h8_run(s: &str, size: usize) -> Result<Vec<Pos>, NotationError> {
    // Byte positions below are character positions only in ASCII.
    if let Some(c) = s.chars().find(|c| !c.is_ascii()) {
        return Err(NotationError::NotInRun(c));
    }
    let mut out = Vec::new();
    let b = s.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if b[i].is_ascii_whitespace() {
            i += 1;
            continue;
        }
        let start = i;
        i += 1;
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
        out.push(parse_h8(&s[start..i], size)?);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Text that is not ASCII is refused, not sliced inside a character (the fuzz target
    /// `notation` found the panic: `fuzz/regressions/notation`).
    #[test]
    fn h8_runs_refuse_other_characters() {
        for s in ["h8é", "é", "h8i9j10\u{1F600}", "ｈ８"] {
            assert!(parse_h8_run(s, 15).is_err(), "{s}");
        }
        assert_eq!(
            parse_h8_run("h8i9", 15),
            Ok(vec![Pos::new(7, 7), Pos::new(8, 6)])
        );
    }

    /// Moves of a run may stand apart: `wuzi solve h8 i9` joins its words with spaces.
    #[test]
    fn h8_runs_may_have_spaces_between_moves() {
        let want = Ok(vec![Pos::new(7, 7), Pos::new(8, 6), Pos::new(9, 5)]);
        assert_eq!(parse_h8_run("h8 i9  j10", 15), want);
        assert_eq!(parse_h8_run(" h8i9 j10 ", 15), want);
        assert_eq!(parse_h8_run("  ", 15), Ok(vec![]));
        assert_eq!(
            parse_h8_run("h8 9", 15).map_err(String::from),
            Err("'9' does not start with a column letter".to_string())
        );
    }

    /// The messages are the ones the front ends have always shown.
    #[test]
    fn messages_name_the_problem() {
        let cases = [
            (parse_xy(" 7 "), "expected x,y but got '7'"),
            (parse_xy("a, 1"), "bad x coordinate 'a'"),
            (parse_xy("1, b "), "bad y coordinate 'b'"),
            (parse_xy("40,1"), "point 40,1 is off every supported board"),
            (parse_any("15,0", 15), "point 15,0 is off the 15x15 board"),
            (parse_h8(" ", 15), "empty move"),
            (
                parse_h8("8h", 15),
                "'8h' does not start with a column letter",
            ),
            (parse_h8("hx", 15), "'hx': bad row number"),
            (parse_h8("p1", 15), "'p1' is off the 15x15 board"),
            (parse_any("h16", 15), "'h16' is off the 15x15 board"),
        ];
        for (got, want) in cases {
            assert_eq!(got.map_err(String::from), Err(want.to_string()));
        }
        assert_eq!(
            parse_move_list("7,7 pass 7").map_err(String::from),
            Err("expected x,y but got '7'".to_string())
        );
        assert_eq!(parse_h8_run("h8é", 15), Err(NotationError::NotInRun('é')));
        assert_eq!(
            NotationError::NotInRun('é').to_string(),
            "'é' is not a column letter or a row number"
        );
    }
}
