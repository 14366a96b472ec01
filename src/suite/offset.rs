//! Openings in the offset form of Gomocup tournament managers (c-gomoku-cli's
//! `-openings type=offset`, the form of the sets made with Rapfi's `opengen` in
//! `tests/data/openings`): a line an opening, its moves as `x,y` pairs counted from the
//! board's centre (`size / 2`), black first. The form holds neither rule nor size, so the
//! reader is told both; each opening becomes a suite row, so that every program that plays
//! from a suite's positions plays from these too.

use super::{read_text, PointSet, SuiteError, SuiteRow};
use crate::types::{Color, Pos, Rule};

/// The task the rows of an opening file carry: a position to play on from, not to solve.
pub const OPENING_TASK: &str = "opening";

/// Parses one line: the opening's moves on a `size` board. Errors name the bad field.
fn parse_line(line: &str, size: usize) -> Result<Vec<Pos>, SuiteError> {
    let nums = line
        .split(',')
        .map(|t| {
            let t = t.trim();
            t.parse::<i64>()
                .map_err(|_| SuiteError::Offset(format!("'{t}' is not an integer")))
        })
        .collect::<Result<Vec<i64>, _>>()?;
    if nums.len() % 2 != 0 {
        return Err(SuiteError::Offset(format!(
            "{} numbers: expected x,y pairs",
            nums.len()
        )));
    }
    let centre = (size / 2) as i64;
    let on_board = |v: i64| (0..size as i64).contains(&v);
    nums.chunks(2)
        .map(|c| {
            let (x, y) = (c[0] + centre, c[1] + centre);
            if on_board(x) && on_board(y) {
                Ok(Pos::new(x as usize, y as usize))
            } else {
                Err(SuiteError::Offset(format!(
                    "{},{} is off the {size}x{size} board",
                    c[0], c[1]
                )))
            }
        })
        .collect()
}

/// Parses a whole file's text into suite rows under `rule` on a `size` board: blank lines
/// and `#` comments skipped, the row of line N named `{name}-{N}`, to move the side whose
/// turn the stone count gives (black after an even count), the task [`OPENING_TASK`].
/// Only the form is checked here; a row's [`SuiteRow::board_of_size`] plays the moves.
pub fn parse_offset_openings(
    text: &str,
    name: &str,
    size: usize,
    rule: Rule,
) -> Result<Vec<SuiteRow>, SuiteError> {
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|(i, l)| {
            let line_error = |error| SuiteError::Line {
                line: i + 1,
                error: Box::new(error),
            };
            let moves = parse_line(l, size).map_err(line_error)?;
            Ok(SuiteRow {
                id: format!("{name}-{}", i + 1),
                rule,
                to_move: if moves.len() % 2 == 0 {
                    Color::Black
                } else {
                    Color::White
                },
                moves,
                task: OPENING_TASK.to_string(),
                answers: PointSet::Unknown,
                non_answers: PointSet::Points(Vec::new()),
                note: String::new(),
            })
        })
        .collect()
}

/// Reads and parses an offset-form file; the rows are named after the file's stem.
pub fn load_offset_openings(
    path: &std::path::Path,
    size: usize,
    rule: Rule,
) -> Result<Vec<SuiteRow>, SuiteError> {
    let text = read_text(path)?;
    let name = path
        .file_name()
        .and_then(|n| n.to_str())
        .map(|n| n.split('.').next().unwrap_or(n))
        .unwrap_or("opening");
    parse_offset_openings(&text, name, size, rule)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn offsets_count_from_the_centre_and_the_count_gives_the_side() {
        let rows =
            parse_offset_openings("0,0, 1,-1, -2,3\n\n# c\n0,0, 1,0\n", "t", 15, Rule::Renju)
                .expect("rows");
        assert_eq!(rows.len(), 2);
        assert_eq!(rows[0].id, "t-1");
        assert_eq!(
            rows[0].moves,
            vec![Pos::new(7, 7), Pos::new(8, 6), Pos::new(5, 10)]
        );
        assert_eq!(rows[0].to_move, Color::White);
        assert_eq!(rows[1].id, "t-4");
        assert_eq!(rows[1].to_move, Color::Black);
        assert_eq!(rows[1].rule, Rule::Renju);
        let b = rows[0].board_of_size(15).expect("a legal opening");
        assert_eq!(b.to_move(), Color::White);
        // On 20x20 the centre is 10,10.
        let rows = parse_offset_openings("0,0", "t", 20, Rule::Freestyle).expect("rows");
        assert_eq!(rows[0].moves, vec![Pos::new(10, 10)]);
    }

    #[test]
    fn bad_lines_are_named() {
        let err = |t: &str| {
            parse_offset_openings(t, "t", 15, Rule::Freestyle)
                .unwrap_err()
                .to_string()
        };
        assert_eq!(err("0,0\n0,x"), "line 2: 'x' is not an integer");
        assert_eq!(err("0,0, 1"), "line 1: 3 numbers: expected x,y pairs");
        assert_eq!(err("0,0, 8,0"), "line 1: 8,0 is off the 15x15 board");
        let missing =
            load_offset_openings(std::path::Path::new("/no/such.offset.txt"), 15, Rule::Renju);
        assert!(missing
            .unwrap_err()
            .to_string()
            .starts_with("/no/such.offset.txt: "));
    }
}
