//! Position suites in the tab-separated format of `../shared/data` (id, rule, moves,
//! to_move, task, answers, non_answers, note), and openings in the offset form of
//! tournament managers read as rows of such a suite.

use crate::board::{Board, MoveListError};
use crate::notation::{parse_move_list, parse_xy, NotationError};
use crate::types::{Color, Pos, Rule};
use std::path::PathBuf;

mod offset;
pub use offset::{load_offset_openings, parse_offset_openings, OPENING_TASK};

/// Why a suite, a row of it or a row's position cannot be read.
// The errors inside `Line` and `Read` are not `#[source]`s: their messages already hold
// them, and a report that follows sources would print them twice.
#[derive(Debug, thiserror::Error)]
pub enum SuiteError {
    /// A row with fewer than 7 fields (the note may be left out).
    #[error("expected 8 tab-separated fields, got {0}")]
    Fields(usize),
    /// A rule wuzi does not play.
    #[error("unknown rule '{0}'")]
    Rule(String),
    /// A side to move that is neither `B` nor `W`.
    #[error("bad to_move '{0}'")]
    ToMove(String),
    /// A move list or point set that does not parse.
    #[error(transparent)]
    Notation(#[from] NotationError),
    /// A move list that cannot be played.
    #[error(transparent)]
    Moves(#[from] MoveListError),
    /// The row's side to move is not the one its move list leaves to move.
    #[error("{id}: to_move disagrees with the move list")]
    ToMoveDisagrees {
        /// The row's id.
        id: String,
    },
    /// A line of an offset-form opening file that does not parse (see [`parse_offset_openings`]).
    #[error("{0}")]
    Offset(String),
    /// A bad row of a suite's text.
    #[error("line {line}: {error}")]
    Line {
        /// The line's number, from 1.
        line: usize,
        /// What is wrong with the row.
        error: Box<SuiteError>,
    },
    /// The suite file cannot be read.
    #[error("{}: {error}", path.display())]
    Read {
        /// The file.
        path: PathBuf,
        /// Why it cannot be read.
        error: std::io::Error,
    },
}

// Front ends that report errors as text take these with `?`.
impl From<SuiteError> for String {
    fn from(e: SuiteError) -> String {
        e.to_string()
    }
}

/// A set of points in a suite row.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PointSet {
    /// `?`: not known.
    Unknown,
    /// `*rest*`: every empty point not listed elsewhere.
    Rest,
    /// A listed set (`-` is the empty set).
    Points(Vec<Pos>),
}

/// One row of a suite.
#[derive(Clone, Debug)]
pub struct SuiteRow {
    /// The row's name.
    pub id: String,
    /// The rule of the position.
    pub rule: Rule,
    /// The moves that lead to it, black first.
    pub moves: Vec<Pos>,
    /// The side to move.
    pub to_move: Color,
    /// What is asked (`vcf`, `defend`, `forbidden`, `five`, ...).
    pub task: String,
    /// The points that answer the task.
    pub answers: PointSet,
    /// Points that must not be given as answers.
    pub non_answers: PointSet,
    /// Free text.
    pub note: String,
}

impl SuiteRow {
    /// The row's position on a 15x15 board (every suite here is 15x15).
    pub fn board(&self) -> Result<Board, SuiteError> {
        self.board_of_size(15)
    }

    /// The row's position on a board of side `size`.
    pub fn board_of_size(&self, size: usize) -> Result<Board, SuiteError> {
        let mut b = Board::new(size, self.rule);
        b.play_all(&self.moves)?;
        if b.to_move() != self.to_move {
            return Err(SuiteError::ToMoveDisagrees {
                id: self.id.clone(),
            });
        }
        Ok(b)
    }
}

fn parse_set(s: &str) -> Result<PointSet, NotationError> {
    match s.trim() {
        "?" => Ok(PointSet::Unknown),
        "*rest*" => Ok(PointSet::Rest),
        "-" | "" => Ok(PointSet::Points(Vec::new())),
        t => t
            .split_whitespace()
            .map(parse_xy)
            .collect::<Result<_, _>>()
            .map(PointSet::Points),
    }
}

/// Parses one non-comment line.
pub fn parse_row(line: &str) -> Result<SuiteRow, SuiteError> {
    let f: Vec<&str> = line.split('\t').collect();
    if f.len() < 7 {
        return Err(SuiteError::Fields(f.len()));
    }
    let rule = Rule::parse(f[1]).ok_or_else(|| SuiteError::Rule(f[1].into()))?;
    let to_move = match f[3].trim() {
        "B" => Color::Black,
        "W" => Color::White,
        o => return Err(SuiteError::ToMove(o.into())),
    };
    Ok(SuiteRow {
        id: f[0].to_string(),
        rule,
        moves: parse_move_list(f[2])?,
        to_move,
        task: f[4].trim().to_string(),
        answers: parse_set(f[5])?,
        non_answers: parse_set(f[6])?,
        note: f.get(7).map(|s| s.to_string()).unwrap_or_default(),
    })
}

/// Parses a whole suite file's text, skipping `#` comments and blank lines.
pub fn parse_suite(text: &str) -> Result<Vec<SuiteRow>, SuiteError> {
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|(i, l)| {
            parse_row(l).map_err(|e| SuiteError::Line {
                line: i + 1,
                error: Box::new(e),
            })
        })
        .collect()
}

/// Reads and parses a suite file.
pub fn load_suite(path: &std::path::Path) -> Result<Vec<SuiteRow>, SuiteError> {
    parse_suite(&read_text(path)?)
}

/// A suite's or an opening file's text; a file that cannot be read is named in the error.
fn read_text(path: &std::path::Path) -> Result<String, SuiteError> {
    std::fs::read_to_string(path).map_err(|error| SuiteError::Read {
        path: path.into(),
        error,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The messages are the ones the tools have always shown.
    #[test]
    fn messages_name_the_problem() {
        let text = |t: &str| parse_suite(t).unwrap_err().to_string();
        assert_eq!(
            text("# c\na\tb"),
            "line 2: expected 8 tab-separated fields, got 2"
        );
        let row = |rule, moves, to_move| format!("r\t{rule}\t{moves}\t{to_move}\tvcf\t?\t-");
        assert_eq!(
            text(&row("chess", "7,7", "W")),
            "line 1: unknown rule 'chess'"
        );
        assert_eq!(
            text(&row("freestyle", "7,7", "X")),
            "line 1: bad to_move 'X'"
        );
        assert_eq!(
            text(&row("freestyle", "7;7", "W")),
            "line 1: expected x,y but got '7;7'"
        );
        let bad = |moves, to_move| {
            let r = parse_row(&row("freestyle", moves, to_move)).expect("a row");
            r.board().err().expect("a refusal").to_string()
        };
        assert_eq!(bad("7,7 7,7", "B"), "move 2 (7,7) is on an occupied point");
        assert_eq!(bad("7,7", "B"), "r: to_move disagrees with the move list");
        let missing = std::path::Path::new("/nonexistent/suite.tsv");
        let e = load_suite(missing).unwrap_err().to_string();
        assert!(e.starts_with("/nonexistent/suite.tsv: "), "{e}");
    }
}
