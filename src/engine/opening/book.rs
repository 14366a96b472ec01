//! The opening book: deep scores of the positions RIF's opening rules end in, made ahead of
//! time by the engine's own searches (`examples/opening_book.rs`), so that the opening
//! decisions judge those positions by a search far deeper than they have time for. A short
//! search misjudges a five-stone renju position often enough that one in six of the stages
//! it balanced stood more than 400 centi-stones from even by a deeper search; the book's
//! positions are judged once, deeply, for every game.
//!
//! The book is text (`books/renju15.tsv`, built in): a line per position, its stones in the
//! order placed (black first, `h8` notation, space-separated), a tab, the score of the
//! side to move there (centi-stones), and optionally a tab and the nodes of the search that
//! gave it. Lines starting with `#` are comments. A position is found up to the board's
//! symmetries. From the five-stone positions after each four-stone one the book also
//! tells how near even a stage can end from a position on the way
//! ([`Book::offered_balance`]), so that a decision early in a stage can steer towards
//! ends the book has judged.
//!
//! A second book, `books/freestyle15-swap.tsv`, holds the three-stone freestyle openings
//! that swap and swap2 place (the first stone within two points of the centre, the second
//! within two of it, the third within three of the first), in the same form: the swap
//! decisions judge their third stone by it.

use super::placed::{key, Key};
use super::square;
use crate::notation::parse_h8;
use crate::types::Pos;
use ahash::{AHashMap, AHashSet};
use std::fmt;
use std::sync::OnceLock;

/// The side of the board the built-in book is for (renju is played on 15x15).
pub const SIZE: usize = 15;

/// The built-in book's first line.
pub const HEADER: &str = "# wuzi opening book, renju 15x15: the stones in order (black \
                          first), a tab, the score of the side to move (centi-stones), a tab, \
                          the nodes of its search";

/// The stones of the positions a stage ends in: black's fifth move is the last.
pub const FINAL_STONES: usize = 5;

/// The nodes of the book's deeper searches (`books/README.md`): a position scored by fewer
/// was judged only by the scan that listed it.
pub const DEEP_NODES: u64 = 1_000_000;

/// How much further from even (centi-stones) an end of a stage that the book judged only
/// by its scan counts, when a stage is steered towards an end: the scan's score of a
/// five-stone position is further from a deeper search's than the book's deep scores
/// (about 100 apart on a typical end, up to 320, between its 1,000,000-node scores and
/// 2,000,000 nodes; docs/prompt.md), so an end judged deeply is preferred unless the
/// scanned one stands this much nearer even.
pub const SHALLOW_ENDING: i32 = 150;

/// The built-in renju book's text.
pub const RENJU15: &str = include_str!("../../../books/renju15.tsv");

/// The built-in swap book's text: three-stone freestyle openings on 15x15 (black, white,
/// black) of the shapes swap and swap2 place (`books/README.md`).
pub const FREESTYLE15_SWAP: &str = include_str!("../../../books/freestyle15-swap.tsv");

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

/// One position of a book: its stones in order, the score of the side to move, and the
/// nodes of the search that gave it (0 when the line does not say).
pub type Entry = (Vec<Pos>, i32, u64);

/// The positions of a book's text with their scores, in the order written.
pub fn parse(text: &str) -> Result<Vec<Entry>, BookError> {
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
        let (score, nodes) = score.split_once('\t').unwrap_or((score, "0"));
        let score: i32 = score
            .trim()
            .parse()
            .map_err(|_| refuse(format!("score {:?} is not a whole number", score.trim())))?;
        let nodes: u64 = nodes
            .trim()
            .parse()
            .map_err(|_| refuse(format!("nodes {:?} is not a count", nodes.trim())))?;
        entries.push((stones, score, nodes));
    }
    Ok(entries)
}

/// Does every stone of the position `key` stand where Taraguchi lets black place its fifth
/// (the central 9x9 square, [`square::TARAGUCHI`])? The first four stones stand within
/// smaller squares, so this asks it of the fifth; a symmetry of the board keeps a stone's
/// distance from the centre, so the key's orientation does not matter.
fn placeable(key: &Key) -> bool {
    let side = square::TARAGUCHI[FINAL_STONES - 1];
    key.iter()
        .all(|&k| square::within(SIZE, Pos((k / 2) as u16), side))
}

/// `stones` (black first, alternating) without the one at index `i`, the rest in the same
/// alternation: the position one stone fewer.
fn without(stones: &[Pos], i: usize) -> Vec<Pos> {
    let mut black: Vec<Pos> = stones.iter().step_by(2).copied().collect();
    let mut white: Vec<Pos> = stones.iter().skip(1).step_by(2).copied().collect();
    if i % 2 == 0 {
        black.remove(i / 2);
    } else {
        white.remove(i / 2);
    }
    let mut out = Vec::with_capacity(stones.len() - 1);
    for k in 0..black.len().max(white.len()) {
        out.extend(black.get(k));
        out.extend(white.get(k));
    }
    out
}

/// The positions a book's entries reach and how they follow each other.
struct Reached {
    /// Every position the entries reach (their lines and the lines' beginnings), with the
    /// stones of one way to it.
    known: AHashMap<Key, Vec<Pos>>,
    /// The positions among `known` that follow each: one stone more, of the colour that
    /// placed last.
    children: AHashMap<Key, Vec<Key>>,
}

/// The positions `entries` reach and which follow which ([`Reached`]).
fn reached(entries: &[Entry]) -> Reached {
    let mut known: AHashMap<Key, Vec<Pos>> = AHashMap::new();
    for (stones, _, _) in entries {
        known
            .entry(key(SIZE, stones))
            .or_insert_with(|| stones.clone());
        for k in 1..stones.len() {
            known
                .entry(key(SIZE, &stones[..k]))
                .or_insert_with(|| stones[..k].to_vec());
        }
    }
    let mut children: AHashMap<Key, Vec<Key>> = AHashMap::new();
    for (child, stones) in &known {
        let last = (stones.len() - 1) % 2;
        for i in (last..stones.len()).step_by(2) {
            let parent = key(SIZE, &without(stones, i));
            if known.contains_key(&parent) {
                let list = children.entry(parent).or_default();
                if !list.contains(child) {
                    list.push(child.clone());
                }
            }
        }
    }
    Reached { known, children }
}

/// The four-stone positions a book's `entries` wrote fifth moves after (it wrote every
/// one there): another four-stone position may be followed by a few of them, which are
/// not black's choices there.
fn complete(entries: &[Entry]) -> AHashSet<Key> {
    entries
        .iter()
        .filter(|e| e.0.len() == FINAL_STONES)
        .map(|e| key(SIZE, &e.0[..FINAL_STONES - 1]))
        .collect()
}

/// A four-stone position and the five-stone positions after it, each as the stones of one
/// way to it (black first).
pub type FifthLines = (Vec<Pos>, Vec<Vec<Pos>>);

/// Black's fifth moves after each four-stone position the book of `text` wrote fifth
/// moves after, as the book counts them ([`Book::from_text`]): each five-stone position
/// that follows the four-stone one, whichever 4th stone it was written after. Each
/// position comes as the stones of one way to it (black first); the four-stone positions
/// and their fifths in no particular order. For the book's own tools, which search the
/// ends the decisions read.
pub fn fifth_lines(text: &str) -> Result<Vec<FifthLines>, BookError> {
    let entries = parse(text)?;
    let Reached { known, children } = reached(&entries);
    Ok(complete(&entries)
        .into_iter()
        .filter_map(|four| {
            let fifths: Vec<Vec<Pos>> = children
                .get(&four)?
                .iter()
                .map(|c| known[c].clone())
                .collect();
            Some((known[&four].clone(), fifths))
        })
        .collect())
}

/// How a rule settles black's fifth move after the 4th stone, for
/// [`Book::offered_balance`].
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Fifths {
    /// White declares 1 to N fifth moves; black offers its best that many and white takes
    /// the worst (Soosorv-N).
    Declared(u8),
    /// Black either places one fifth move within the central 9x9 square
    /// ([`square::TARAGUCHI`]), after which white may swap, or offers its best N anywhere
    /// and white takes the worst, whichever is better for black (Taraguchi-N).
    PlaceOrOffer(u8),
    /// The first player declares 1 to N fifth moves with the third stone; white (after
    /// the swap) places the 4th stone worst for black given that number, black offers its
    /// best that many and white takes the worst (Yamaguchi).
    BeforeFourth(u8),
}

/// A book: positions (up to symmetry) with the score of the side to move.
#[derive(Clone, Debug, Default)]
pub struct Book {
    scores: AHashMap<Key, i32>,
    /// The fifth moves the book holds after a four-stone position: the five-stone
    /// position's key and black's score, best for black first.
    fifths: AHashMap<Key, Vec<(Key, i32)>>,
    /// The four-stone positions with fifth moves in the book after each position of one to
    /// three stones on the way to them.
    fourths: AHashMap<Key, Vec<Key>>,
    /// The three-stone positions with fifth moves in the book after them, after each
    /// position of one or two stones on the way to them.
    threes: AHashMap<Key, Vec<Key>>,
    /// The positions scored by searches of at least [`DEEP_NODES`].
    deep: AHashSet<Key>,
}

impl Book {
    /// The book of `text` ([`parse`]); a position written twice keeps its last score.
    /// A position follows every position the book reaches that it holds one stone more
    /// of (of the colour that placed last), so that a five-stone position written after
    /// one 4th stone counts among the fifth moves of every four-stone position it can
    /// follow that the book wrote fifth moves after: the decisions, which look positions
    /// up by their stones, meet it there too.
    pub fn from_text(text: &str) -> Result<Book, BookError> {
        let entries = parse(text)?;
        let mut book = Book::default();
        for (stones, score, nodes) in &entries {
            let whole = key(SIZE, stones);
            if *nodes >= DEEP_NODES {
                book.deep.insert(whole.clone());
            } else {
                book.deep.remove(&whole);
            }
            book.scores.insert(whole, *score);
        }
        let Reached { known, children } = reached(&entries);
        // Fifth moves after the four-stone positions the book wrote fifth moves after.
        for parent in &complete(&entries) {
            let mut list: Vec<(Key, i32)> = children
                .get(parent)
                .into_iter()
                .flatten()
                .filter_map(|c| Some((c.clone(), -*book.scores.get(c)?)))
                .collect();
            if list.is_empty() {
                continue;
            }
            list.sort_unstable_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
            book.fifths.insert(parent.clone(), list);
        }
        // The four-stone positions with fifth moves after each shorter position, and the
        // three-stone positions with such 4th stones after each shorter one, by length.
        for len in (1..FINAL_STONES - 1).rev() {
            for (here, _) in known.iter().filter(|(_, s)| s.len() == len) {
                let mut fours: Vec<Key> = Vec::new();
                for c in children.get(here).into_iter().flatten() {
                    let after: Vec<Key> = if len == FINAL_STONES - 2 {
                        book.fifths
                            .contains_key(c)
                            .then(|| c.clone())
                            .into_iter()
                            .collect()
                    } else {
                        book.fourths.get(c).cloned().unwrap_or_default()
                    };
                    for f in after {
                        if !fours.contains(&f) {
                            fours.push(f);
                        }
                    }
                    if len < FINAL_STONES - 2 && book.fourths.contains_key(c) {
                        let threes: Vec<Key> = if len == FINAL_STONES - 3 {
                            vec![c.clone()]
                        } else {
                            book.threes.get(c).cloned().unwrap_or_default()
                        };
                        let list = book.threes.entry(here.clone()).or_default();
                        for t in threes {
                            if !list.contains(&t) {
                                list.push(t);
                            }
                        }
                    }
                }
                if !fours.is_empty() {
                    book.fourths.insert(here.clone(), fours);
                }
            }
        }
        Ok(book)
    }

    /// The built-in renju book (empty if its text were unreadable, which a test rules out).
    pub fn renju() -> &'static Book {
        static BOOK: OnceLock<Book> = OnceLock::new();
        BOOK.get_or_init(|| Book::from_text(RENJU15).unwrap_or_default())
    }

    /// The built-in swap book (empty if its text were unreadable, which a test rules out).
    pub fn freestyle_swap() -> &'static Book {
        static BOOK: OnceLock<Book> = OnceLock::new();
        BOOK.get_or_init(|| Book::from_text(FREESTYLE15_SWAP).unwrap_or_default())
    }

    /// The score of the side to move after `stones` (or a position symmetric to it) on a
    /// board of side `size`, if the book has it.
    pub fn score(&self, size: usize, stones: &[Pos]) -> Option<i32> {
        if size != SIZE {
            return None;
        }
        self.scores.get(&key(size, stones)).copied()
    }

    /// How near even (centi-stones, either way) a stage can end from `stones` (or a
    /// position symmetric to it) by the book, in a five-stone position for which `fresh`
    /// holds (a varying engine: one it has not placed), when white places a 4th stone after
    /// which the book has fifth moves (if `stones` has fewer than four) and the rule
    /// settles the fifth move as `fifths` says. The least distance from even
    /// ([`Book::distance`]) over white's choices; `None` when the book has no such ending
    /// after `stones`.
    pub fn offered_balance(
        &self,
        size: usize,
        stones: &[Pos],
        fifths: Fifths,
        fresh: &dyn Fn(&Key) -> bool,
    ) -> Option<i32> {
        if size != SIZE {
            return None;
        }
        let here = key(size, stones);
        if let Fifths::BeforeFourth(max) = fifths {
            let balance = |three: &Key| {
                (1..=max.max(1))
                    .filter_map(|n| self.white_fourth(three, n))
                    .filter(|(_, f)| fresh(&f.0))
                    .map(|(_, f)| self.distance(f))
                    .min()
            };
            return match stones.len() {
                3 => balance(&here),
                1 | 2 => self.threes.get(&here)?.iter().filter_map(balance).min(),
                _ => None,
            };
        }
        let balance = |four: &Key| self.ending(four, fifths, fresh);
        match stones.len() {
            4 => balance(&here),
            1..=3 => self.fourths.get(&here)?.iter().filter_map(balance).min(),
            _ => None,
        }
    }

    /// Under Yamaguchi with `n` fifth moves declared after the three stones `stones` (or a
    /// position symmetric to them): the stage's end by the book when white places the 4th
    /// stone worst for black of those the book continues (black offering its best `n`,
    /// white taking the worst). Returns the five-stone position's key and black's score;
    /// `None` when the book continues no 4th stone after `stones`.
    pub fn declared_ending(&self, size: usize, stones: &[Pos], n: u8) -> Option<(Key, i32)> {
        if size != SIZE || stones.len() != 3 {
            return None;
        }
        self.white_fourth(&key(size, stones), n)
            .map(|(_, f)| f.clone())
    }

    /// Black's score after the four stones `stones` (or a position symmetric to them)
    /// when it offers its best `n` fifth moves of the book's and white takes the worst;
    /// `None` when the book has no fifth move after them.
    pub fn offered(&self, size: usize, stones: &[Pos], n: u8) -> Option<i32> {
        if size != SIZE || stones.len() != 4 {
            return None;
        }
        self.nth_fifth(&key(size, stones), n).map(|f| f.1)
    }

    /// Does the book list black's fifth moves after the four stones `stones` (or a
    /// position symmetric to them)? Then every fifth move worth playing there is in it.
    pub fn has_fifths(&self, size: usize, stones: &[Pos]) -> bool {
        size == SIZE
            && stones.len() == FINAL_STONES - 1
            && self.fifths.contains_key(&key(size, stones))
    }

    /// Black's `n`th best fifth move after the four-stone position `four` (the last when
    /// the book has fewer): the one white takes of `n` offered.
    fn nth_fifth(&self, four: &Key, n: u8) -> Option<&(Key, i32)> {
        let list = self.fifths.get(four)?;
        list.get((n.max(1) as usize).min(list.len()) - 1)
    }

    /// White's 4th stone after the three-stone position `three` with `n` fifth moves
    /// declared: of the four-stone positions the book continues, the one whose offer
    /// ([`Book::nth_fifth`]) is worst for black (the least key among equals), with that
    /// offer.
    fn white_fourth(&self, three: &Key, n: u8) -> Option<(&Key, &(Key, i32))> {
        self.fourths
            .get(three)?
            .iter()
            .filter_map(|four| Some((four, self.nth_fifth(four, n)?)))
            .min_by(|a, b| a.1 .1.cmp(&b.1 .1).then_with(|| a.0.cmp(b.0)))
    }

    /// How far from even the stage's end `end` (a five-stone position and black's score
    /// there) counts when a stage is steered towards it: its distance, and
    /// [`SHALLOW_ENDING`] more when the book judged it only by the scan that listed it.
    pub fn distance(&self, end: &(Key, i32)) -> i32 {
        let shallow = if self.deep.contains(&end.0) {
            0
        } else {
            SHALLOW_ENDING
        };
        end.1.saturating_abs().saturating_add(shallow)
    }

    /// How far from even ([`Book::distance`]) the stage can end after the four-stone
    /// position `four` under `fifths`, among the five-stone positions for which `fresh`
    /// holds.
    fn ending(&self, four: &Key, fifths: Fifths, fresh: &dyn Fn(&Key) -> bool) -> Option<i32> {
        let list = self.fifths.get(four)?;
        // Offering its best `n`, black gets the `n`th (or the last when there are fewer).
        let offered = |n: u8| self.nth_fifth(four, n);
        match fifths {
            Fifths::BeforeFourth(_) => None,
            Fifths::Declared(max) => (1..=max.max(1))
                .filter_map(offered)
                .filter(|f| fresh(&f.0))
                .map(|f| self.distance(f))
                .min(),
            Fifths::PlaceOrOffer(n) => {
                // A fifth placed may be swapped: black gets the worse side of it, and places
                // the one nearest even within the rule's square; offering, white takes the
                // worst of `n`.
                let placed = list
                    .iter()
                    .filter(|f| fresh(&f.0) && placeable(&f.0))
                    .min_by_key(|f| self.distance(f))
                    .map(|f| (-f.1.saturating_abs(), f));
                let offer = offered(n).filter(|f| fresh(&f.0)).map(|f| (f.1, f));
                // Black takes the better for it of the two.
                placed
                    .into_iter()
                    .chain(offer)
                    .max_by_key(|c| c.0)
                    .map(|c| self.distance(c.1))
            }
        }
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
        // A position written again (a deeper search's score) is one position.
        let distinct: AHashSet<Key> = entries.iter().map(|e| key(SIZE, &e.0)).collect();
        assert_eq!(Book::renju().len(), distinct.len());
        for (stones, _, nodes) in &entries {
            assert!((4..=FINAL_STONES).contains(&stones.len()), "{stones:?}");
            assert!(*nodes > 0);
            let three = [stones[0], stones[1], stones[2]];
            assert!(Canonical::recognise(SIZE, three).is_some(), "{stones:?}");
        }
    }

    #[test]
    fn the_swap_book_holds_the_three_stone_openings_of_the_swap_rules() {
        use crate::engine::opening::decide::{
            ADD_TWO_WINDOW, SWAP_FIRST_REACH, SWAP_SECOND_REACH, SWAP_THIRD_REACH,
        };
        let entries = parse(FREESTYLE15_SWAP).expect("the built-in swap book reads");
        assert!(entries.len() >= 1000, "{} lines", entries.len());
        assert_eq!(
            Book::freestyle_swap().len(),
            Book::from_text(FREESTYLE15_SWAP).unwrap().len()
        );
        let centre = square::centre(SIZE);
        let book = Book::freestyle_swap();
        // Deep scores of three-stone and of five-stone (swap2's added two) openings.
        let mut deep = [0; 6];
        for (stones, score, nodes) in &entries {
            assert!(matches!(stones.len(), 3..=5), "{stones:?}");
            assert!(stones[0].dist(centre) <= SWAP_FIRST_REACH, "{stones:?}");
            assert!(stones[1].dist(stones[0]) <= SWAP_SECOND_REACH, "{stones:?}");
            assert!(stones[2].dist(stones[0]) <= SWAP_THIRD_REACH, "{stones:?}");
            assert!(score.abs() < 30_000 || *nodes > 0);
            if stones.len() > 3 {
                // White's 4th stone follows an opening the book puts within the window of
                // swap2's addition; black's 5th balances within reach of the first stone.
                let three = book.score(SIZE, &stones[..3]).expect("a booked opening");
                assert!(three.abs() <= ADD_TWO_WINDOW, "{stones:?}");
                assert!(book.score(SIZE, &stones[..4]).is_some(), "{stones:?}");
            }
            if stones.len() == 5 {
                assert!(stones[4].dist(stones[0]) <= SWAP_THIRD_REACH, "{stones:?}");
            }
            deep[stones.len()] += usize::from(*nodes >= DEEP_NODES);
        }
        assert!(deep[3] >= 300 && deep[5] >= 300, "{deep:?} deep scores");
    }

    #[test]
    fn a_position_is_found_in_every_orientation() {
        let book =
            Book::from_text("h8 h9 j10 i9 g7\t-135\t1000000\nh8 h9 j10 i9 g6\t20\t1000000\n")
                .unwrap();
        let stones: Vec<Pos> = ["h8", "h9", "j10", "i9", "g7"]
            .iter()
            .map(|s| parse_h8(s, SIZE).unwrap())
            .collect();
        for s in Sym::ALL {
            let turned: Vec<Pos> = stones.iter().map(|&p| s.apply(p, SIZE)).collect();
            assert_eq!(book.score(SIZE, &turned), Some(-135));
        }
        // The same points with the colours swapped are another position.
        let swapped = [stones[1], stones[0], stones[3], stones[2], stones[4]];
        assert_eq!(book.score(SIZE, &swapped), None);
        assert_eq!(book.score(19, &stones), None);
        // After the first four stones black's fifths score +135 and -20: offering one,
        // black offers its best (135 from even); offering two, white takes the worse (20).
        let all = |_: &Key| true;
        let balance = |k: usize, f| book.offered_balance(SIZE, &stones[..k], f, &all);
        let declared = |n| Fifths::Declared(n);
        assert_eq!(balance(4, declared(1)), Some(135));
        assert_eq!(balance(4, declared(8)), Some(20));
        assert_eq!(balance(2, declared(8)), Some(20));
        assert_eq!(balance(3, declared(1)), Some(135));
        assert_eq!(balance(5, declared(8)), None);
        // With the -20 ending placed before, the fresh one is +135, one offered.
        let g6 = key(
            SIZE,
            &[&stones[..4], &[parse_h8("g6", SIZE).unwrap()]].concat(),
        );
        let unplaced = |k: &Key| *k != g6;
        let fresh = book.offered_balance(SIZE, &stones[..4], declared(8), &unplaced);
        assert_eq!(fresh, Some(135));
        let none = |_: &Key| false;
        assert_eq!(
            book.offered_balance(SIZE, &stones[..4], declared(8), &none),
            None
        );
        // Taraguchi: one offer gives black +135, better than placing a fifth (at best -20
        // once white may swap); two offers give -20, and placing -20 as well.
        let either = |n| Fifths::PlaceOrOffer(n);
        assert_eq!(balance(4, either(1)), Some(135));
        assert_eq!(balance(4, either(2)), Some(20));
        // A placed fifth stands within the central 9x9 square; an offer anywhere. After
        // h8 h9 j10 i9, black's fifths score +20 at a1, -100 at g7 and -300 at g6:
        // offering two gives -100, and placing a1 (20 from even) is not black's to choose.
        let far = Book::from_text(
            "h8 h9 j10 i9 a1\t-20\t1000000\nh8 h9 j10 i9 g7\t100\t1000000\n\
             h8 h9 j10 i9 g6\t300\t1000000\n",
        )
        .unwrap();
        assert_eq!(
            far.offered_balance(SIZE, &stones[..4], either(2), &all),
            Some(100)
        );
        assert_eq!(
            far.offered_balance(SIZE, &stones[..4], either(1), &all),
            Some(20)
        );
    }

    #[test]
    fn yamaguchi_ends_where_white_places_the_4th_stone_worst_for_black() {
        // After h8 h9 j10, black's fifths score +135 and -20 after i9, +50 and +10 after g9
        // (the book's scores are white's, to move).
        let text = "h8 h9 j10 i9 g7\t-135\t1000000\nh8 h9 j10 i9 g6\t20\t1000000\n\
                    h8 h9 j10 g9 k11\t-50\t1000000\nh8 h9 j10 g9 f8\t-10\t1000000\n";
        let book = Book::from_text(text).unwrap();
        let at = |moves: &[&str]| -> Vec<Pos> {
            moves.iter().map(|s| parse_h8(s, SIZE).unwrap()).collect()
        };
        let three = at(&["h8", "h9", "j10"]);
        // One declared: black's best after i9 is +135, after g9 +50: white places g9.
        let one = book.declared_ending(SIZE, &three, 1).unwrap();
        assert_eq!(one, (key(SIZE, &at(&["h8", "h9", "j10", "g9", "k11"])), 50));
        // Two (or more): white takes the worse of two, -20 after i9, +10 after g9.
        let g6 = key(SIZE, &at(&["h8", "h9", "j10", "i9", "g6"]));
        assert_eq!(
            book.declared_ending(SIZE, &three, 2),
            Some((g6.clone(), -20))
        );
        assert_eq!(
            book.declared_ending(SIZE, &three, 5),
            Some((g6.clone(), -20))
        );
        assert_eq!(
            book.offered(SIZE, &at(&["h8", "h9", "j10", "g9"]), 2),
            Some(10)
        );
        assert_eq!(book.declared_ending(SIZE, &three[..2], 2), None);
        // The first player declares for the nearest even: 20 from even, or 50 with one.
        let all = |_: &Key| true;
        let yamaguchi = |k: usize, max, fresh: &dyn Fn(&Key) -> bool| {
            book.offered_balance(SIZE, &three[..k], Fifths::BeforeFourth(max), fresh)
        };
        assert_eq!(yamaguchi(3, 8, &all), Some(20));
        assert_eq!(yamaguchi(3, 1, &all), Some(50));
        assert_eq!(yamaguchi(2, 8, &all), Some(20));
        assert_eq!(yamaguchi(1, 8, &all), Some(20));
        // With the -20 ending placed before, the fresh one is +50.
        assert_eq!(yamaguchi(3, 8, &|k: &Key| *k != g6), Some(50));
        assert_eq!(yamaguchi(3, 8, &|_: &Key| false), None);
        // A five-stone position counts after every four-stone position that it follows
        // and that the book wrote fifth moves after: h8 h9 j10 i9 g7 is also h8 h9 g7 i9
        // with j10 fifth; after h8 h9 g6 i9, with no fifth move written after it, the
        // book lists none (h8 h9 j10 i9 g6 follows it, but is not all black could play).
        let more = format!("{text}h8 h9 g7 i9 k11\t40\t1000000\nh8 h9 g6 i9\t5\n");
        let book = Book::from_text(&more).unwrap();
        let g7 = at(&["h8", "h9", "g7", "i9"]);
        assert_eq!(book.offered(SIZE, &g7, 1), Some(135));
        assert_eq!(book.offered(SIZE, &g7, 2), Some(-40));
        assert!(book.has_fifths(SIZE, &g7));
        let g6 = at(&["h8", "h9", "g6", "i9"]);
        assert_eq!(book.offered(SIZE, &g6, 1), None);
        assert!(!book.has_fifths(SIZE, &g6));
        // An end judged only by a shallower search counts SHALLOW_ENDING further: with
        // g6 scanned, the nearest end is +50 (one declared), 70 nearer than -20's 170.
        let scanned = text.replace("g6\t20\t1000000", "g6\t20\t200000");
        let book = Book::from_text(&scanned).unwrap();
        let yamaguchi = Fifths::BeforeFourth(8);
        assert_eq!(
            book.offered_balance(SIZE, &three, yamaguchi, &all),
            Some(50)
        );
        let g6_end = book.declared_ending(SIZE, &three, 2).unwrap();
        assert_eq!(book.distance(&g6_end), 20 + SHALLOW_ENDING);
        let i9 = at(&["h8", "h9", "j10", "i9"]);
        assert_eq!(book.offered(SIZE, &i9, 2), Some(-20));
        let four = at(&["h8", "h9", "j10", "g9"]);
        let after_four = Fifths::BeforeFourth(8);
        assert_eq!(book.offered_balance(SIZE, &four, after_four, &all), None);
    }

    /// The book's tools see the fifth moves the decisions count: h8 h9 j10 i9 g7, written
    /// after h8 h9 j10 i9, is also h8 h9 g7 i9 with j10 fifth, and h8 h9 g7 i9 has fifth
    /// moves of its own in the book; h8 h9 g6 i9 has none written after it and is not
    /// listed, though h8 h9 j10 i9 g6 follows it.
    #[test]
    fn fifth_lines_list_every_fifth_that_follows_a_four_stone_position() {
        let text = "h8 h9 j10 i9 g7\t-135\t1000000\nh8 h9 j10 i9 g6\t20\t1000000\n\
                    h8 h9 g7 i9 k11\t40\t1000000\nh8 h9 g6 i9\t5\n";
        let at = |moves: &str| -> Vec<Pos> {
            moves
                .split(' ')
                .map(|s| parse_h8(s, SIZE).unwrap())
                .collect()
        };
        let lines = fifth_lines(text).unwrap();
        let fifths_of = |four: &str| -> Option<Vec<Key>> {
            let k = key(SIZE, &at(four));
            let (_, fifths) = lines.iter().find(|(f, _)| key(SIZE, f) == k)?;
            let mut keys: Vec<Key> = fifths.iter().map(|f| key(SIZE, f)).collect();
            keys.sort();
            Some(keys)
        };
        assert_eq!(lines.len(), 2);
        let sorted = |v: &[&str]| {
            let mut keys: Vec<Key> = v.iter().map(|m| key(SIZE, &at(m))).collect();
            keys.sort();
            keys
        };
        assert_eq!(
            fifths_of("h8 h9 j10 i9"),
            Some(sorted(&["h8 h9 j10 i9 g7", "h8 h9 j10 i9 g6"]))
        );
        assert_eq!(
            fifths_of("h8 h9 g7 i9"),
            Some(sorted(&["h8 h9 g7 i9 k11", "h8 h9 j10 i9 g7"]))
        );
        assert_eq!(fifths_of("h8 h9 g6 i9"), None);
        // Each listed line is a real way to its position: black first, alternating.
        for (four, fifths) in &lines {
            assert_eq!(four.len(), FINAL_STONES - 1);
            for f in fifths {
                assert_eq!(f.len(), FINAL_STONES);
                let back = (0..FINAL_STONES)
                    .step_by(2)
                    .any(|i| key(SIZE, &without(f, i)) == key(SIZE, four));
                assert!(back, "{f:?} does not follow {four:?}");
            }
        }
        assert!(fifth_lines("h8 h9\tx\n").is_err());
    }

    #[test]
    fn bad_lines_are_refused_with_their_number() {
        let cases = [
            ("h8 h9 j10\n", 1, "no tab"),
            ("# c\nh8 h9 z99\t3\n", 2, "z99"),
            ("h8 h9\tmany\n", 1, "not a whole number"),
            ("h8 h8\t1\n", 1, "twice"),
            ("\n\t5\n", 2, "no stones"),
            ("h8\t5\tmany\n", 1, "not a count"),
        ];
        for (text, line, says) in cases {
            let e = parse(text).unwrap_err();
            assert_eq!(e.line, line, "{text:?}");
            assert!(e.to_string().contains(says), "{e} for {text:?}");
        }
    }
}
