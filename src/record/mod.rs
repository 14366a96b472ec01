//! Game records: wuzi's own text format, Piskvork's `.psq` and SGF ([`sgf`]). Pure text
//! in, text out: reading and writing files is the front end's job.
//!
//! The text format is a few `Key: value` header lines, then the moves in `h8` notation
//! (black first, `pass` for a skipped turn), separated by whitespace, any number per line:
//!
//! ```text
//! # wuzi game record
//! Rule: freestyle
//! Size: 15
//! Black: you
//! White: wuzi
//! Result: 1-0
//!
//! h8 h9 i9 g7 j10 k11 i8 i7 i10 i11
//! g10 h10 j8 k7 j9
//! ```
//!
//! `Result` is `1-0` (black won), `0-1` (white won), `1/2-1/2` (draw) or `*` (unfinished).
//! Lines starting with `#` are comments.

mod error;
pub mod sgf;

pub use error::RecordError;

use crate::engine::GameStatus;
use crate::notation::{format_h8, parse_h8};
use crate::types::{Color, Pos, Rule, MAX_SIZE, MIN_SIZE};

/// The formats wuzi writes.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Format {
    /// wuzi's text record.
    Text,
    /// Piskvork's `.psq` (no passes, no rule).
    Psq,
    /// SGF, `FF[4]GM[4]`.
    Sgf,
}

impl Format {
    /// The format of a file extension or format word: `txt` or `text`, `psq`, `sgf` (any
    /// case).
    pub fn from_word(s: &str) -> Option<Format> {
        match s.to_ascii_lowercase().as_str() {
            "txt" | "text" => Some(Format::Text),
            "psq" => Some(Format::Psq),
            "sgf" => Some(Format::Sgf),
            _ => None,
        }
    }

    /// The file extension of the format.
    pub fn extension(self) -> &'static str {
        match self {
            Format::Text => "txt",
            Format::Psq => "psq",
            Format::Sgf => "sgf",
        }
    }
}

/// How a recorded game ended.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum GameResult {
    /// Black won.
    BlackWins,
    /// White won.
    WhiteWins,
    /// Neither won (the board is full).
    Draw,
    /// The game was not played to its end.
    Unfinished,
}

impl GameResult {
    /// The result of a game in `status`.
    pub fn from_status(status: GameStatus) -> GameResult {
        match status {
            GameStatus::Ongoing => GameResult::Unfinished,
            GameStatus::Five { winner } | GameStatus::Forbidden { winner } => match winner {
                Color::Black => GameResult::BlackWins,
                Color::White => GameResult::WhiteWins,
            },
            GameStatus::Draw => GameResult::Draw,
        }
    }

    /// The PGN-like tag: `1-0`, `0-1`, `1/2-1/2`, `*`.
    pub fn tag(self) -> &'static str {
        match self {
            GameResult::BlackWins => "1-0",
            GameResult::WhiteWins => "0-1",
            GameResult::Draw => "1/2-1/2",
            GameResult::Unfinished => "*",
        }
    }

    fn parse(s: &str) -> Option<GameResult> {
        [
            GameResult::BlackWins,
            GameResult::WhiteWins,
            GameResult::Draw,
            GameResult::Unfinished,
        ]
        .into_iter()
        .find(|r| r.tag() == s)
    }
}

/// One game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRecord {
    /// The rule of the game.
    pub rule: Rule,
    /// The board size.
    pub size: usize,
    /// The black player's name.
    pub black: String,
    /// The white player's name.
    pub white: String,
    /// How the game ended.
    pub result: GameResult,
    /// Black first, colours alternate; `Pos::NONE` is a pass.
    pub moves: Vec<Pos>,
    /// How many of the first moves were set up rather than played: a match runner's
    /// opening (c-gomoku-cli comments them `opening move` in its SGF) or an SGF's setup
    /// stones. A review starts after them. 0 for a record that says nothing of it.
    pub opening: usize,
    /// A comment on the whole game (SGF's `GC`), empty for none: the prompt writes there
    /// how an opening rule's stage went (the swaps, the declared and offered fifth moves).
    pub comment: String,
}

impl GameRecord {
    /// An unfinished game with no moves and unnamed players.
    pub fn new(rule: Rule, size: usize) -> GameRecord {
        GameRecord {
            rule,
            size,
            black: "?".into(),
            white: "?".into(),
            result: GameResult::Unfinished,
            moves: Vec::new(),
            opening: 0,
            comment: String::new(),
        }
    }

    /// Reads a record in any format wuzi knows, told apart by how the text begins: SGF
    /// (`(`), Piskvork's `.psq` (`Piskvorky`), else wuzi's text. Of an SGF collection the
    /// first game is read; the number of games in the text comes back with it. `rule` is
    /// the rule of a record that names none (a `.psq` never does).
    pub fn read_any(text: &str, rule: Rule) -> Result<(GameRecord, usize), RecordError> {
        let mut games = GameRecord::read_all(text, rule)?;
        let n = games.len();
        Ok((games.swap_remove(0), n))
    }

    /// Reads every game of a record in any format wuzi knows ([`GameRecord::read_any`]):
    /// the games of an SGF collection (as a match runner appends them), else the one game
    /// of the text. Never empty.
    pub fn read_all(text: &str, rule: Rule) -> Result<Vec<GameRecord>, RecordError> {
        let start = text.trim_start_matches('\u{feff}').trim_start();
        if start.starts_with('(') {
            return Ok(sgf::read(start, rule)?);
        }
        if start.starts_with("Piskvorky") {
            return GameRecord::from_psq(start, rule).map(|r| vec![r]);
        }
        GameRecord::parse(text).map(|r| vec![r])
    }

    /// The record in `format`. Errors only for a `.psq` of a game with a pass.
    pub fn write(&self, format: Format) -> Result<String, RecordError> {
        match format {
            Format::Text => Ok(self.to_text()),
            Format::Psq => self.to_psq(&[]),
            Format::Sgf => Ok(self.to_sgf()),
        }
    }

    /// The record as SGF (`FF[4]GM[4]`), as [`sgf::write`] writes it.
    pub fn to_sgf(&self) -> String {
        sgf::write(self)
    }

    /// The record in wuzi's text format.
    pub fn to_text(&self) -> String {
        let mut s = String::from("# wuzi game record\n");
        s += &format!("Rule: {}\nSize: {}\n", self.rule, self.size);
        s += &format!(
            "Black: {}\nWhite: {}\n",
            one_line(&self.black),
            one_line(&self.white)
        );
        s += &format!("Result: {}\n\n", self.result.tag());
        for row in self.moves.chunks(10) {
            let words: Vec<String> = row.iter().map(|&p| format_h8(p, self.size)).collect();
            s += &words.join(" ");
            s.push('\n');
        }
        s
    }

    /// Parses wuzi's text format. Checks that every move is on the board and on an empty
    /// point; does not judge fives or forbidden points (that is the engine's business).
    pub fn parse(text: &str) -> Result<GameRecord, RecordError> {
        let mut rec = GameRecord::new(Rule::Freestyle, 15);
        let mut move_words = Vec::new();
        let mut known = false;
        for (n, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            match line.split_once(':') {
                Some((key, value)) if move_words.is_empty() => {
                    let header = rec.header(key.trim(), value.trim());
                    known |= header.map_err(|e| e.at_line(n + 1))?;
                }
                _ => move_words.extend(line.split_whitespace().map(str::to_string)),
            }
        }
        // Text with neither a header this format writes nor a move (a password file, a
        // letter) is not a game, not an empty one.
        if !known && move_words.is_empty() {
            return Err(RecordError::NotARecord);
        }
        for w in move_words {
            let p = if w.eq_ignore_ascii_case("pass") {
                Pos::NONE
            } else {
                parse_h8(&w, rec.size)?
            };
            rec.moves.push(p);
        }
        rec.check_moves()?;
        Ok(rec)
    }

    /// Reads one header line; returns whether the key is one this format writes.
    fn header(&mut self, key: &str, value: &str) -> Result<bool, RecordError> {
        match key.to_ascii_lowercase().as_str() {
            "rule" => {
                self.rule = Rule::parse(value).ok_or_else(|| RecordError::Rule(value.into()))?
            }
            "size" => {
                self.size = value
                    .parse()
                    .ok()
                    .filter(|s| (MIN_SIZE..=MAX_SIZE).contains(s))
                    .ok_or_else(|| RecordError::Size(value.into()))?
            }
            // A name is one line as the writers keep it (a lone CR inside becomes a space).
            "black" => self.black = one_line(value),
            "white" => self.white = one_line(value),
            "result" => {
                self.result =
                    GameResult::parse(value).ok_or_else(|| RecordError::Result(value.into()))?
            }
            // Other tags (dates, events) are kept by nobody but harm nobody.
            _ => return Ok(false),
        }
        Ok(true)
    }

    pub(crate) fn check_moves(&self) -> Result<(), RecordError> {
        let mut seen = vec![false; crate::types::CELLS];
        for (i, &p) in self.moves.iter().enumerate() {
            if p.is_none() {
                continue;
            }
            if !p.on_board(self.size) {
                return Err(RecordError::OffBoard {
                    number: i + 1,
                    point: p,
                });
            }
            if std::mem::replace(&mut seen[p.index()], true) {
                return Err(RecordError::Occupied {
                    number: i + 1,
                    point: format_h8(p, self.size),
                });
            }
        }
        Ok(())
    }

    /// Piskvork's `.psq`: `Piskvorky NxN, 11:11, 0`, then one `x,y,time_ms` line per move
    /// (1-based coordinates), then the players' names and the error code `0`. `times_ms`
    /// gives the thinking time of each move (missing entries are 0). A `.psq` cannot hold a
    /// pass, so a record with one is refused.
    pub fn to_psq(&self, times_ms: &[u64]) -> Result<String, RecordError> {
        let mut s = format!("Piskvorky {0}x{0}, 11:11, 0\n", self.size);
        for (i, &p) in self.moves.iter().enumerate() {
            if p.is_none() {
                return Err(RecordError::PsqPass(i + 1));
            }
            let t = times_ms.get(i).copied().unwrap_or(0);
            s += &format!("{},{},{t}\n", p.x() + 1, p.y() + 1);
        }
        s += &format!("{}\n{}\n0\n", one_line(&self.black), one_line(&self.white));
        Ok(s)
    }

    /// Reads the moves of a `.psq` (the rule is not in the file: pass it). The players'
    /// names are taken from the two lines after the moves when present.
    pub fn from_psq(text: &str, rule: Rule) -> Result<GameRecord, RecordError> {
        let mut lines = text.lines().map(str::trim).filter(|l| !l.is_empty());
        let head = lines.next().ok_or(RecordError::PsqEmpty)?;
        let size = psq_size(head)?;
        let mut rec = GameRecord::new(rule, size);
        let mut rest = Vec::new();
        for line in lines {
            let parts: Vec<&str> = line.split(',').collect();
            let nums: Option<Vec<usize>> = parts.iter().map(|t| t.trim().parse().ok()).collect();
            match nums.as_deref() {
                Some([x, y, _]) if rest.is_empty() => {
                    if !(1..=size).contains(x) || !(1..=size).contains(y) {
                        let (x, y) = (*x, *y);
                        return Err(RecordError::PsqOffBoard { x, y, size });
                    }
                    rec.moves.push(Pos::new(x - 1, y - 1))
                }
                _ => rest.push(line),
            }
        }
        if rest.len() >= 3 {
            rec.black = one_line(rest[0]);
            rec.white = one_line(rest[1]);
        }
        rec.check_moves()?;
        Ok(rec)
    }
}

fn psq_size(head: &str) -> Result<usize, RecordError> {
    let dims = head
        .strip_prefix("Piskvorky ")
        .and_then(|r| r.split(',').next())
        .ok_or_else(|| RecordError::PsqHeader(head.into()))?;
    let (w, h) = dims
        .split_once('x')
        .ok_or_else(|| RecordError::PsqSize(dims.into()))?;
    let w: usize = w
        .trim()
        .parse()
        .map_err(|_| RecordError::PsqWidth(w.into()))?;
    let h: usize = h
        .trim()
        .parse()
        .map_err(|_| RecordError::PsqHeight(h.into()))?;
    if w != h || !(MIN_SIZE..=MAX_SIZE).contains(&w) {
        return Err(RecordError::PsqBoard(w, h));
    }
    Ok(w)
}

/// Names go on one header line: newlines would break the format.
pub(crate) fn one_line(s: &str) -> String {
    s.replace(['\n', '\r'], " ")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A lone carriage return inside a player's name reads as a space, as the writers keep
    /// it, so a record read and written reads back the same (found by the fuzz target
    /// `record`: `fuzz/regressions/record`).
    #[test]
    fn names_with_a_carriage_return_round_trip() {
        let rec = GameRecord::parse("Black: a\rb\nWhite: c\rd\n").expect("a record");
        assert_eq!((rec.black.as_str(), rec.white.as_str()), ("a b", "c d"));
        assert_eq!(GameRecord::parse(&rec.to_text()), Ok(rec.clone()));
        let psq = "Piskvorky 15x15, 11:11, 0\n8,8,0\nx\ry\nz\n0\n";
        let rec = GameRecord::from_psq(psq, Rule::Freestyle).expect("a psq record");
        assert_eq!(rec.black, "x y");
        let back = GameRecord::from_psq(&rec.to_psq(&[]).unwrap(), Rule::Freestyle);
        assert_eq!(back, Ok(rec));
    }

    fn sample() -> GameRecord {
        let mut r = GameRecord::new(Rule::Renju, 15);
        r.black = "you".into();
        r.white = "wuzi".into();
        r.result = GameResult::WhiteWins;
        r.moves = vec![Pos::new(7, 7), Pos::new(8, 8), Pos::NONE, Pos::new(0, 0)];
        r
    }

    #[test]
    fn text_round_trip() {
        let r = sample();
        let text = r.to_text();
        assert!(text.contains("Rule: renju"));
        assert!(text.contains("h8 i7 pass a15"));
        assert_eq!(GameRecord::parse(&text), Ok(r));
    }

    #[test]
    fn long_games_round_trip() {
        let mut r = GameRecord::new(Rule::Freestyle, 20);
        r.moves = (0..20)
            .flat_map(|y| (0..3).map(move |x| Pos::new(x, y)))
            .collect();
        assert_eq!(GameRecord::parse(&r.to_text()), Ok(r));
    }

    #[test]
    fn psq_round_trip() {
        let mut r = sample();
        r.moves.retain(|p| !p.is_none());
        let psq = r.to_psq(&[100, 250]).unwrap();
        assert!(psq.starts_with("Piskvorky 15x15, 11:11, 0\n8,8,100\n9,9,250\n1,1,0\n"));
        let back = GameRecord::from_psq(&psq, Rule::Renju).unwrap();
        assert_eq!(back.moves, r.moves);
        assert_eq!((back.black.as_str(), back.white.as_str()), ("you", "wuzi"));
    }

    #[test]
    fn psq_refuses_passes() {
        assert!(sample().to_psq(&[]).is_err());
    }

    #[test]
    fn bad_records_are_refused() {
        assert!(GameRecord::parse("Rule: chess\n").is_err());
        assert!(GameRecord::parse("Size: 40\n").is_err());
        assert!(GameRecord::parse("Result: win\n").is_err());
        assert!(GameRecord::parse("Size: 15\nh8 h8\n").is_err());
        assert!(GameRecord::parse("Size: 15\nh8 z99\n").is_err());
        // Not a record at all: refused, not read as an empty game.
        let passwd = "root:x:0:0:root:/root:/bin/bash\nbin:x:1:1::/:/usr/bin/nologin\n";
        assert_eq!(GameRecord::parse(passwd), Err(RecordError::NotARecord));
        assert!(GameRecord::parse("").is_err());
        assert!(GameRecord::parse("Size: 15\n").is_ok());
        assert!(GameRecord::from_psq("hello\n", Rule::Freestyle).is_err());
        assert!(
            GameRecord::from_psq("Piskvorky 15x15, 11:11, 0\n16,1,0\n0\n", Rule::Freestyle)
                .is_err()
        );
    }

    /// The messages are the ones the front ends have always shown.
    #[test]
    fn messages_name_the_problem() {
        let text = |t: &str| GameRecord::parse(t).unwrap_err().to_string();
        assert_eq!(text("Rule: chess\n"), "line 1: unknown rule 'chess'");
        assert_eq!(text("\nSize: 40\n"), "line 2: bad board size '40'");
        assert_eq!(text("Result: win\n"), "line 1: bad result 'win'");
        assert_eq!(text("h8 h8\n"), "move 2 (h8) is on an occupied point");
        assert_eq!(text("h8 z99\n"), "'z99' is off the 15x15 board");
        let mut r = GameRecord::new(Rule::Freestyle, 15);
        r.moves = vec![Pos::new(15, 0)];
        assert_eq!(
            r.check_moves().unwrap_err().to_string(),
            format!("move 1 ({}) is off the board", Pos::new(15, 0))
        );
        let psq = |t: &str| {
            GameRecord::from_psq(t, Rule::Freestyle)
                .unwrap_err()
                .to_string()
        };
        assert_eq!(psq(""), "empty .psq");
        assert_eq!(psq("hello"), "not a .psq header: 'hello'");
        assert_eq!(psq("Piskvorky 15, 1"), "bad .psq board size '15'");
        assert_eq!(psq("Piskvorky a x15, 1"), "bad width 'a '");
        assert_eq!(psq("Piskvorky 15x b, 1"), "bad height ' b'");
        assert_eq!(psq("Piskvorky 15x14, 1"), "unsupported .psq board 15x14");
        assert_eq!(
            psq("Piskvorky 15x15, 1\n16,1,0\n"),
            "move 16,1 is off the 15x15 board"
        );
        assert_eq!(
            sample().to_psq(&[]).unwrap_err().to_string(),
            "move 3 is a pass, which .psq cannot record"
        );
        let sgf = GameRecord::read_any("(;FF[4]GM[1])", Rule::Freestyle).unwrap_err();
        assert!(matches!(sgf, RecordError::Sgf(_)), "{sgf}");
    }

    #[test]
    fn result_from_status() {
        let s = GameStatus::Forbidden {
            winner: Color::White,
        };
        assert_eq!(GameResult::from_status(s), GameResult::WhiteWins);
        assert_eq!(
            GameResult::from_status(GameStatus::Ongoing),
            GameResult::Unfinished
        );
    }
}
