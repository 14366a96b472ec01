//! How the opening decisions read the built-in opening book ([`crate::engine::opening::book`]):
//! its scores in place of short searches', how near even a stage can end after a candidate,
//! and, for a varying engine, the endings it has not placed before.

use super::{nearest_even, with, Candidate, Engine, STALE_ENDING, VARIETY_WINDOW};
use crate::engine::opening::book::{Book, Fifths};
use crate::engine::opening::placed::Key;
use crate::engine::opening::rule::OpeningRule;
use crate::types::{Pos, Rule};

impl Engine {
    /// The built-in opening book's score of the side to move after `stones`, when the engine
    /// plays renju on the book's board and uses the book ([`crate::engine::Config`]'s
    /// `opening_book`).
    pub(super) fn book_score(&self, stones: &[Pos]) -> Option<i32> {
        self.book()?.score(self.board().size(), stones)
    }

    /// The built-in opening book, when the engine plays renju and uses the book
    /// ([`crate::engine::Config`]'s `opening_book`; the book answers only on its board).
    pub(super) fn book(&self) -> Option<&'static Book> {
        (self.config.opening_book && self.board().rule() == Rule::Renju).then(Book::renju)
    }

    /// `moves` after `stones`, each move's score (for the side placing it) the opening
    /// book's where it has the position the move makes ([`Engine::book_score`]).
    pub(super) fn with_book_scores(&self, stones: &[Pos], moves: &mut [(Pos, i32)]) {
        for (p, s) in moves.iter_mut() {
            if let Some(b) = self.book_score(&with(stones, &[*p])) {
                *s = -b;
            }
        }
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
        let mut booked: Vec<Candidate<usize>> = groups
            .iter()
            .enumerate()
            .filter_map(|(i, g)| {
                let after = with(stones, g);
                let off = self.book_balance(&after, rule)?;
                Some((i, after, off))
            })
            .collect();
        if booked.is_empty() {
            return None;
        }
        keep_balanced(&mut booked);
        self.choose_balanced(stones, booked, None, stopped)
    }

    /// How near even the stage can end from `stones` by the built-in opening book under
    /// `rule` ([`Book::offered_balance`]), under the same conditions as
    /// [`Engine::book_score`]; `None` for a rule without fifth moves, and for Yamaguchi.
    /// A varying engine
    /// looks for an ending it has not placed before; when there is none, the nearest
    /// ending counts [`STALE_ENDING`] further from even.
    pub(super) fn book_balance(&self, stones: &[Pos], rule: OpeningRule) -> Option<i32> {
        let book = self.book()?;
        // Not Yamaguchi: there the first player declares the number before white's 4th
        // stone, which white chooses against it, a stage [`Fifths`] does not model.
        let fifths = match rule {
            OpeningRule::Soosorv { max_fifths } => Fifths::Declared(max_fifths),
            OpeningRule::Taraguchi { fifths } => Fifths::PlaceOrOffer(fifths),
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
            None => {
                let (k, v) = plain;
                let off = v.saturating_abs().saturating_add(STALE_ENDING);
                (k, if v < 0 { -off } else { off })
            }
        }
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
