//! The opening book: deep scores of the positions RIF's opening rules end in, made ahead of
//! time by the engine's own searches (`examples/opening_book.rs`), so that the opening
//! decisions judge those positions by a search far deeper than they have time for. A short
//! search misjudges a five-stone renju position often enough that one in six of the stages
//! it balanced stood more than 400 centi-stones from even by a deeper search; the book's
//! positions are judged once, deeply, for every game.
//!
//! The book is text (`books/renju15.tsv`, built in): a line per position, its stones in the
//! order placed (black first, `h8` notation, space-separated), a tab, and the score of the
//! side to move there (centi-stones). Lines starting with `#` are comments. A position is
//! found up to the board's symmetries.

use super::placed::{key, Key};
use crate::notation::parse_h8;
use crate::types::Pos;
use ahash::AHashMap;
use std::fmt;
use std::sync::OnceLock;

/// The side of the board the built-in book is for (renju is played on 15x15).
pub const SIZE: usize = 15;

/// The built-in book's first line.
pub const HEADER: &str = "# wuzi opening book, renju 15x15: the stones in order (black \
                          first), a tab, the score of the side to move (centi-stones)";

/// The built-in renju book's text.
pub const RENJU15: &str = include_str!("../../../books/renju15.tsv");

/// Why a book's text was refused: the line (from 1) and what is wrong with it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BookError {
    /// The line, counted from 1.
    pub line: usize,
    /// What is wrong with it.
    pub reason: String,
}

impl fmt::Display for BookError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "opening book line {}: {}", self.line, self.reason)
    }
}

impl std::error::Error for BookError {}

/// The positions of a book's text with their scores, in the order written.
pub fn parse(text: &str) -> Result<Vec<(Vec<Pos>, i32)>, BookError> {
    let mut entries = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let trimmed = line.trim();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        let refuse = |reason: String| BookError {
            line: i + 1,
            reason,
        };
        let (moves, score) = line
            .split_once('\t')
            .ok_or_else(|| refuse("no tab between the stones and the score".into()))?;
        let stones = moves
            .split_whitespace()
            .map(|m| parse_h8(m, SIZE))
            .collect::<Result<Vec<Pos>, _>>()
            .map_err(|e| refuse(e.to_string()))?;
        if stones.is_empty() {
            return Err(refuse("no stones".into()));
        }
        let distinct = stones
            .iter()
            .enumerate()
            .all(|(j, p)| !stones[..j].contains(p));
        if !distinct {
            return Err(refuse("a point taken twice".into()));
        }
        let score: i32 = score
            .trim()
            .parse()
            .map_err(|_| refuse(format!("score {:?} is not a whole number", score.trim())))?;
        entries.push((stones, score));
    }
    Ok(entries)
}

/// A book: positions (up to symmetry) with the score of the side to move.
#[derive(Clone, Debug, Default)]
pub struct Book {
    scores: AHashMap<Key, i32>,
}

impl Book {
    /// The book of `text` ([`parse`]); a position written twice keeps its last score.
    pub fn from_text(text: &str) -> Result<Book, BookError> {
        let scores = parse(text)?
            .into_iter()
            .map(|(stones, score)| (key(SIZE, &stones), score))
            .collect();
        Ok(Book { scores })
    }

    /// The built-in renju book (empty if its text were unreadable, which a test rules out).
    pub fn renju() -> &'static Book {
        static BOOK: OnceLock<Book> = OnceLock::new();
        BOOK.get_or_init(|| Book::from_text(RENJU15).unwrap_or_default())
    }

    /// The score of the side to move after `stones` (or a position symmetric to it) on a
    /// board of side `size`, if the book has it.
    pub fn score(&self, size: usize, stones: &[Pos]) -> Option<i32> {
        if size != SIZE {
            return None;
        }
        self.scores.get(&key(size, stones)).copied()
    }

    /// How many positions the book holds.
    pub fn len(&self) -> usize {
        self.scores.len()
    }

    /// Does the book hold no position?
    pub fn is_empty(&self) -> bool {
        self.scores.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::opening::Canonical;
    use crate::symmetry::Sym;

    #[test]
    fn the_built_in_book_reads_and_holds_canonical_positions() {
        let entries = parse(RENJU15).expect("the built-in book reads");
        assert_eq!(Book::renju().len(), entries.len());
        for (stones, _) in &entries {
            assert_eq!(stones.len(), 5);
            let three = [stones[0], stones[1], stones[2]];
            assert!(Canonical::recognise(SIZE, three).is_some(), "{stones:?}");
        }
    }

    #[test]
    fn a_position_is_found_in_every_orientation() {
        let book = Book::from_text("h8 h9 j10 i9 g7\t-35\n").unwrap();
        let stones: Vec<Pos> = ["h8", "h9", "j10", "i9", "g7"]
            .iter()
            .map(|s| parse_h8(s, SIZE).unwrap())
            .collect();
        for s in Sym::ALL {
            let turned: Vec<Pos> = stones.iter().map(|&p| s.apply(p, SIZE)).collect();
            assert_eq!(book.score(SIZE, &turned), Some(-35));
        }
        // The same points with the colours swapped are another position.
        let swapped = [stones[1], stones[0], stones[3], stones[2], stones[4]];
        assert_eq!(book.score(SIZE, &swapped), None);
        assert_eq!(book.score(19, &stones), None);
    }

    #[test]
    fn bad_lines_are_refused_with_their_number() {
        let cases = [
            ("h8 h9 j10\n", 1, "no tab"),
            ("# c\nh8 h9 z99\t3\n", 2, "z99"),
            ("h8 h9\tmany\n", 1, "not a whole number"),
            ("h8 h8\t1\n", 1, "twice"),
            ("\n\t5\n", 2, "no stones"),
        ];
        for (text, line, says) in cases {
            let e = parse(text).unwrap_err();
            assert_eq!(e.line, line, "{text:?}");
            assert!(e.to_string().contains(says), "{e} for {text:?}");
        }
    }
}
