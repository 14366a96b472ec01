//! Position suites in the tab-separated format of `../shared/data` (id, rule, moves,
//! to_move, task, answers, non_answers, note).

use crate::board::Board;
use crate::notation::{parse_move_list, parse_xy};
use crate::types::{Color, Pos, Rule};

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
    pub fn board(&self) -> Result<Board, String> {
        self.board_of_size(15)
    }

    /// The row's position on a board of side `size`.
    pub fn board_of_size(&self, size: usize) -> Result<Board, String> {
        let mut b = Board::new(size, self.rule);
        b.play_all(&self.moves)?;
        if b.to_move() != self.to_move {
            return Err(format!("{}: to_move disagrees with the move list", self.id));
        }
        Ok(b)
    }
}

fn parse_set(s: &str) -> Result<PointSet, String> {
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
pub fn parse_row(line: &str) -> Result<SuiteRow, String> {
    let f: Vec<&str> = line.split('\t').collect();
    if f.len() < 7 {
        return Err(format!("expected 8 tab-separated fields, got {}", f.len()));
    }
    let rule = Rule::parse(f[1]).ok_or_else(|| format!("unknown rule '{}'", f[1]))?;
    let to_move = match f[3].trim() {
        "B" => Color::Black,
        "W" => Color::White,
        o => return Err(format!("bad to_move '{o}'")),
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
pub fn parse_suite(text: &str) -> Result<Vec<SuiteRow>, String> {
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|(i, l)| parse_row(l).map_err(|e| format!("line {}: {e}", i + 1)))
        .collect()
}

/// Reads and parses a suite file.
pub fn load_suite(path: &std::path::Path) -> Result<Vec<SuiteRow>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    parse_suite(&text)
}
