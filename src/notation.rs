//! Text forms of points and move lists: Gomocup `x,y` and the players' `h8` (column letter
//! from `a`, row number from the bottom: on 15x15, `h8` is the centre and `a15` is `0,0`).

use crate::types::{Pos, MAX_SIZE};

/// Parses `x,y` (zero-based, x = column). `-1,-1` is the pass. Errors name the problem.
pub fn parse_xy(s: &str) -> Result<Pos, String> {
    let s = s.trim();
    let (a, b) = s
        .split_once(',')
        .ok_or_else(|| format!("expected x,y but got '{s}'"))?;
    let x: i64 = a
        .trim()
        .parse()
        .map_err(|_| format!("bad x coordinate '{}'", a.trim()))?;
    let y: i64 = b
        .trim()
        .parse()
        .map_err(|_| format!("bad y coordinate '{}'", b.trim()))?;
    if x == -1 && y == -1 {
        return Ok(Pos::NONE);
    }
    if !(0..MAX_SIZE as i64).contains(&x) || !(0..MAX_SIZE as i64).contains(&y) {
        return Err(format!("point {x},{y} is off every supported board"));
    }
    Ok(Pos::new(x as usize, y as usize))
}

/// Parses `h8`-style notation on a board of side `size`.
pub fn parse_h8(s: &str, size: usize) -> Result<Pos, String> {
    let s = s.trim();
    let mut chars = s.chars();
    let c = chars
        .next()
        .ok_or_else(|| "empty move".to_string())?
        .to_ascii_lowercase();
    if !c.is_ascii_lowercase() {
        return Err(format!("'{s}' does not start with a column letter"));
    }
    let x = (c as u8 - b'a') as usize;
    let row: usize = chars
        .as_str()
        .parse()
        .map_err(|_| format!("'{s}': bad row number"))?;
    if x >= size || row == 0 || row > size {
        return Err(format!("'{s}' is off the {size}x{size} board"));
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
pub fn parse_any(s: &str, size: usize) -> Result<Pos, String> {
    if s.contains(',') {
        let p = parse_xy(s)?;
        if !p.is_none() && !p.on_board(size) {
            return Err(format!("point {p} is off the {size}x{size} board"));
        }
        Ok(p)
    } else {
        parse_h8(s, size)
    }
}

/// Parses a space-separated move list of `x,y` points and `pass` words.
pub fn parse_move_list(s: &str) -> Result<Vec<Pos>, String> {
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

/// Parses a run-together `h8h7j6` string (as in Rapfi's bench set).
pub fn parse_h8_run(s: &str, size: usize) -> Result<Vec<Pos>, String> {
    // Byte positions below are character positions only in ASCII.
    if let Some(c) = s.chars().find(|c| !c.is_ascii()) {
        return Err(format!("'{c}' is not a column letter or a row number"));
    }
    let mut out = Vec::new();
    let b = s.as_bytes();
    let mut i = 0;
    while i < b.len() {
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
}
