//! The openings an engine has placed, up to the board's symmetries: when it varies its play
//! it keeps clear of an opening symmetric to one it placed before while other balanced
//! candidates remain, so that its openings differ from game to game. Two positions are the
//! same opening when one of the board's eight symmetries takes the black stones of one onto
//! the black stones of the other and the white onto the white.

use crate::symmetry::Sym;
use crate::types::Pos;
use std::collections::HashSet;

/// The most openings kept: beyond it the record starts again, empty (a front end that
/// plays for months does not grow without bound; 100,000 keys of a few stones are a few
/// megabytes).
pub const PLACED_CAP: usize = 100_000;

/// A position's key: each stone as `index * 2 + colour` (black 0, white 1), sorted, in the
/// least of the board's eight orientations.
pub type Key = Vec<u32>;

/// The stones (black, white, black... in turn; passes left out) of a board of side `size`
/// as a key that every symmetric position shares.
pub fn key(size: usize, stones: &[Pos]) -> Key {
    Sym::ALL
        .iter()
        .map(|s| {
            let mut k: Key = stones
                .iter()
                .enumerate()
                .filter(|(_, p)| !p.is_none())
                .map(|(i, &p)| s.apply(p, size).index() as u32 * 2 + (i % 2) as u32)
                .collect();
            k.sort_unstable();
            k
        })
        .min()
        .unwrap_or_default()
}

/// The record: the keys of the positions placed.
#[derive(Clone, Debug, Default)]
pub struct Placed {
    keys: HashSet<Key>,
}

impl Placed {
    /// Was `stones` (or a position symmetric to it) placed before?
    pub fn contains(&self, size: usize, stones: &[Pos]) -> bool {
        self.keys.contains(&key(size, stones))
    }

    /// Records `stones` as placed; false when it (or a symmetric position) was already.
    pub fn insert(&mut self, size: usize, stones: &[Pos]) -> bool {
        if self.keys.len() >= PLACED_CAP {
            self.keys.clear();
        }
        self.keys.insert(key(size, stones))
    }

    /// How many openings are recorded.
    pub fn len(&self) -> usize {
        self.keys.len()
    }

    /// Is the record empty?
    pub fn is_empty(&self) -> bool {
        self.keys.is_empty()
    }

    /// Forgets every opening.
    pub fn clear(&mut self) {
        self.keys.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::parse_h8;

    fn stones(list: &str) -> Vec<Pos> {
        list.split_whitespace()
            .map(|s| parse_h8(s, 15).unwrap())
            .collect()
    }

    #[test]
    fn symmetric_positions_share_a_key_and_colours_count() {
        // h8 h9 i9 and its mirror across the h line, and its quarter turn.
        assert_eq!(key(15, &stones("h8 h9 i9")), key(15, &stones("h8 h9 g9")));
        assert_eq!(key(15, &stones("h8 h9 i9")), key(15, &stones("h8 i8 i7")));
        // The order of a colour's stones does not count; their colour does.
        assert_eq!(
            key(15, &stones("h8 h9 i9 a1 j10")),
            key(15, &stones("j10 h9 i9 a1 h8"))
        );
        assert_ne!(key(15, &stones("h8 h9 i9")), key(15, &stones("h9 h8 i9")));
        let mut record = Placed::default();
        assert!(record.insert(15, &stones("h8 h9 i9")));
        assert!(!record.insert(15, &stones("h8 g8 g9")), "a quarter turn");
        assert!(record.contains(15, &stones("h8 h7 g7")));
        assert!(!record.contains(15, &stones("h8 h9 j9")));
        assert_eq!(record.len(), 1);
    }
}
