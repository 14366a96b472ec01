//! How the opening decisions read the built-in opening book ([`crate::engine::opening::book`]):
//! its scores in place of short searches', its lists of fifth moves, how near even a stage
//! can end after a candidate, Yamaguchi's number and 4th stone, and, for a varying engine,
//! the endings it has not placed before.

use super::{
    around, every_point, nearest_even, with, Candidate, Engine, STALE_ENDING, SWAP_THIRD_REACH,
    VARIETY_WINDOW,
};
use crate::engine::opening::book::{Book, Fifths};
use crate::engine::opening::placed::Key;
use crate::engine::opening::rule::{OpeningRule, MAX_FIFTHS};
use crate::types::{Pos, Rule};

impl Engine {
    /// The built-in opening book's score of the side to move after `stones`, when the engine
    /// has a book for its rule on the book's board ([`Engine::book`]).
    pub(super) fn book_score(&self, stones: &[Pos]) -> Option<i32> {
        self.book()?.score(self.board().size(), stones)
    }

    /// The built-in opening book of the engine's rule when it uses the books
    /// ([`crate::engine::Config`]'s `opening_book`; a book answers only on its board): the
    /// renju book under renju, the swap book under freestyle.
    pub(super) fn book(&self) -> Option<&'static Book> {
        if !self.config.opening_book {
            return None;
        }
        match self.board().rule() {
            Rule::Renju => Some(Book::renju()),
            Rule::Freestyle => Some(Book::freestyle_swap()),
            _ => None,
        }
    }

    /// `moves` after `stones`, each move's score (for the side placing it) the opening
    /// book's where it has the position the move makes ([`Engine::book_score`]). Returns
    /// how many scores the book gave.
    pub(super) fn with_book_scores(&self, stones: &[Pos], moves: &mut [(Pos, i32)]) -> usize {
        let mut booked = 0;
        for (p, s) in moves.iter_mut() {
            if let Some(b) = self.book_score(&with(stones, &[*p])) {
                *s = -b;
                booked += 1;
            }
        }
        booked
    }

    /// Black's fifth moves after the four stones `stones` by the opening book, each with
    /// black's score, when the book lists them there ([`Book::has_fifths`]); else none.
    pub(super) fn book_fifths(&self, stones: &[Pos]) -> Vec<(Pos, i32)> {
        let size = self.board().size();
        if !self.book().is_some_and(|b| b.has_fifths(size, stones)) {
            return Vec::new();
        }
        every_point(size, stones)
            .into_iter()
            .filter_map(|p| Some((p, -self.book_score(&with(stones, &[p]))?)))
            .collect()
    }

    /// The opening book's best move after `stones` for the side to move: of the positions
    /// one stone after `stones` that the book holds, the one where the opponent's score is
    /// lowest. The swap book holds one such position after each three-stone opening that
    /// swap2's second player may add two stones to: white's 4th stone by a deep search.
    pub(super) fn book_fourth_after(&self, stones: &[Pos]) -> Option<Pos> {
        let size = self.board().size();
        every_point(size, stones)
            .into_iter()
            .filter_map(|p| Some((self.book_score(&with(stones, &[p]))?, p.0, p)))
            .min()
            .map(|(_, _, p)| p)
    }

    /// Of `points` (second stones after the first stone `stones` under swap or swap2), those
    /// after which the opening book holds a three-stone opening within [`VARIETY_WINDOW`] of
    /// even, with the third stone within [`SWAP_THIRD_REACH`] points of the first, that the
    /// engine has not placed before: the third stone is chosen among the book's, and where
    /// every balanced one was placed before it would place one again.
    pub(super) fn with_new_booked_third(&self, stones: &[Pos], points: &[Pos]) -> Vec<Pos> {
        let Some(book) = self.book() else {
            return Vec::new();
        };
        let size = self.board().size();
        let placed = self.placed_openings();
        points
            .iter()
            .copied()
            .filter(|&second| {
                let two = with(stones, &[second]);
                around(size, two[0], SWAP_THIRD_REACH, &two)
                    .into_iter()
                    .any(|third| {
                        let three = with(&two, &[third]);
                        book.score(size, &three)
                            .is_some_and(|s| s.abs() <= VARIETY_WINDOW)
                            && placed.times(size, &three) == 0
                    })
            })
            .collect()
    }

    /// Of `groups` of stones placed in turn after `stones`, the index of the one the engine
    /// places as [`Engine::choose_balanced`] does (no deeper checks), judging each by how
    /// near even the stage can end after it by the opening book under `rule`
    /// ([`Engine::book_balance`]), with that distance; only the groups the book
    /// continues are candidates, and only those within [`VARIETY_WINDOW`] when there are
    /// any ([`keep_balanced`]). `None` when it continues none of them.
    pub(super) fn book_balanced(
        &mut self,
        stones: &[Pos],
        groups: &[Vec<Pos>],
        rule: OpeningRule,
        stopped: &dyn Fn() -> bool,
    ) -> Option<(usize, i32)> {
        let booked: Vec<Candidate<usize>> = groups
            .iter()
            .enumerate()
            .filter_map(|(i, g)| {
                let after = with(stones, g);
                let off = self.book_balance(&after, rule)?;
                Some((i, after, off))
            })
            .collect();
        self.choose_booked(stones, booked, stopped)
    }

    /// Of `points` after `stones`, the one the engine places as [`Engine::choose_balanced`]
    /// does (no deeper checks), judged by the book's scores of the positions they make;
    /// only the points whose position the book holds are candidates, and only those within
    /// [`VARIETY_WINDOW`] when there are any ([`keep_balanced`]): a short search's score of
    /// a point outside the book, shallower than the book's, would otherwise look nearer
    /// even than the book's deep ones only because it erred. `None` when the book holds
    /// none of them.
    pub(super) fn book_chosen(
        &mut self,
        stones: &[Pos],
        points: &[Pos],
        stopped: &dyn Fn() -> bool,
    ) -> Option<(Pos, i32)> {
        let booked: Vec<Candidate<Pos>> = points
            .iter()
            .filter_map(|&p| {
                let after = with(stones, &[p]);
                let score = self.book_score(&after)?;
                Some((p, after, score))
            })
            .collect();
        self.choose_booked(stones, booked, stopped)
    }

    /// Of candidates the book judged, the one the engine places as
    /// [`Engine::choose_balanced`] does without deeper checks, among those within
    /// [`VARIETY_WINDOW`] when there are any ([`keep_balanced`]); `None` when there is none.
    fn choose_booked<T: Copy>(
        &mut self,
        stones: &[Pos],
        mut booked: Vec<Candidate<T>>,
        stopped: &dyn Fn() -> bool,
    ) -> Option<(T, i32)> {
        if booked.is_empty() {
            return None;
        }
        keep_balanced(&mut booked);
        self.choose_balanced(stones, booked, None, stopped)
    }

    /// How near even the stage can end from `stones` by the built-in opening book under
    /// `rule` ([`Book::offered_balance`]), under the same conditions as
    /// [`Engine::book_score`]; `None` for a rule without fifth moves. A varying engine
    /// looks for an ending it has not placed before; when there is none, the nearest
    /// ending counts [`STALE_ENDING`] further from even.
    pub(super) fn book_balance(&self, stones: &[Pos], rule: OpeningRule) -> Option<i32> {
        let book = self.book()?;
        let fifths = match rule {
            OpeningRule::Soosorv { max_fifths } => Fifths::Declared(max_fifths),
            OpeningRule::Taraguchi { fifths } => Fifths::PlaceOrOffer(fifths),
            OpeningRule::Yamaguchi => Fifths::BeforeFourth(MAX_FIFTHS),
            _ => return None,
        };
        let size = self.board().size();
        let varying = self.config.random_margin.is_some();
        if varying {
            let placed = self.placed_openings();
            let fresh = |k: &Key| placed.times_of(k) == 0;
            if let Some(off) = book.offered_balance(size, stones, fifths, &fresh) {
                return Some(off);
            }
        }
        let stale = book.offered_balance(size, stones, fifths, &|_| true)?;
        Some(if varying {
            stale.saturating_add(STALE_ENDING)
        } else {
            stale
        })
    }

    /// The number of fifth moves (1 to `max`) to declare after the four stones `stones`
    /// and black's score then, from black's `fifths` (best first): as [`nearest_even`],
    /// but a varying engine takes the number nearest even among those whose ending (the
    /// worst offer, which white takes) it has not placed before; when every ending was
    /// placed, the nearest even counts [`STALE_ENDING`] further from even.
    pub(super) fn declare_fresh(
        &self,
        stones: &[Pos],
        fifths: &[(Pos, i32)],
        max: u8,
    ) -> (u8, i32) {
        let plain = nearest_even(fifths, max);
        if self.config.random_margin.is_none() || fifths.is_empty() {
            return plain;
        }
        let size = self.board().size();
        let placed = self.placed_openings();
        let fresh = (1..=max.max(1))
            .map(|k| (k, fifths[(k as usize).min(fifths.len()) - 1]))
            .filter(|(_, (p, _))| placed.times(size, &with(stones, &[*p])) == 0)
            .min_by_key(|(k, (_, v))| (v.saturating_abs(), *k));
        match fresh {
            Some((k, (_, v))) => (k, v),
            None => (plain.0, stale(plain.1)),
        }
    }

    /// Yamaguchi's number of fifth moves (1 to `max`) to declare with the three stones
    /// `stones`, and black's score then, by the opening book: each number's end is the one
    /// white steers to with its 4th stone ([`Book::declared_ending`]); the number whose end
    /// stands nearest even ([`Book::distance`]), and for a varying engine the nearest even
    /// among ends it has
    /// not placed before (when every end was placed, the nearest even counts
    /// [`STALE_ENDING`] further from even). `None` when the book continues no 4th stone
    /// after `stones`.
    pub(super) fn book_declare(&self, stones: &[Pos], max: u8) -> Option<(u8, i32)> {
        let book = self.book()?;
        let size = self.board().size();
        let ends: Vec<(u8, (Key, i32))> = (1..=max.max(1))
            .filter_map(|n| Some((n, book.declared_ending(size, stones, n)?)))
            .collect();
        let nearest = |ends: &mut dyn Iterator<Item = &(u8, (Key, i32))>| {
            ends.min_by_key(|e| (book.distance(&e.1), e.0))
                .map(|e| (e.0, e.1 .1))
        };
        let plain = nearest(&mut ends.iter())?;
        if self.config.random_margin.is_none() {
            return Some(plain);
        }
        let placed = self.placed_openings();
        let fresh = nearest(&mut ends.iter().filter(|e| placed.times_of(&e.1 .0) == 0));
        Some(fresh.unwrap_or((plain.0, stale(plain.1))))
    }

    /// Black's score by the opening book at the end of a Yamaguchi stage after the three
    /// stones `stones` with `n` fifth moves declared ([`Book::declared_ending`]).
    pub(super) fn book_declared(&self, stones: &[Pos], n: u8) -> Option<i32> {
        let size = self.board().size();
        self.book()?
            .declared_ending(size, stones, n)
            .map(|(_, v)| v)
    }

    /// Yamaguchi's 4th stone after the three stones `stones` with `n` fifth moves declared,
    /// by the opening book: of the stones after which it has fifth moves, the one whose
    /// offer of `n` is worst for black ([`Book::offered`]), new positions first among
    /// equals. No random margin: the first player declared `n` for the book's best 4th
    /// stone, and a margin would hand black up to it. Returns the stone and black's score;
    /// `None` when the book continues no 4th stone.
    pub(super) fn book_fourth(&mut self, stones: &[Pos], n: u8) -> Option<(Pos, i32)> {
        let book = self.book()?;
        let size = self.board().size();
        // White's score after each booked 4th stone.
        let scored: Vec<(Pos, i32)> = every_point(size, stones)
            .into_iter()
            .filter_map(|p| Some((p, -book.offered(size, &with(stones, &[p]), n)?)))
            .collect();
        let best = scored.iter().map(|&(_, s)| s).max()?;
        let (p, s) = match self.config.random_margin {
            Some(_) => self.vary(stones, &scored, 0, &|s| best - s)?,
            None => *scored.iter().find(|&&(_, s)| s == best)?,
        };
        Some((p, -s))
    }
}

/// Black's score `v` counted [`STALE_ENDING`] further from even, on the same side: an
/// ending placed before, for a varying engine.
fn stale(v: i32) -> i32 {
    let off = v.saturating_abs().saturating_add(STALE_ENDING);
    if v < 0 {
        -off
    } else {
        off
    }
}

/// Keeps the candidates within [`VARIETY_WINDOW`] of even when there are any. Used where
/// the opening book judges the candidates: its judgements are deep enough that a
/// candidate within that window, placed before or not, is worth more than a new one
/// further from even (the book has balanced ways enough for variety), where a short
/// search's judgement is not.
pub(super) fn keep_balanced<T>(candidates: &mut Vec<Candidate<T>>) {
    if candidates.iter().any(|c| c.2.abs() <= VARIETY_WINDOW) {
        candidates.retain(|c| c.2.abs() <= VARIETY_WINDOW);
    }
}
