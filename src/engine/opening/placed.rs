//! The openings an engine has placed, up to the board's symmetries: when it varies its play
//! it keeps clear of an opening symmetric to one it placed before while other balanced
//! candidates remain, and among openings placed before it takes the least used, so that its
//! openings differ from game to game and a stone placed before leads on to new positions
//! after it (each position is counted once per stage that passes through it). Two
//! positions are the
//! same opening when one of the board's eight symmetries takes the black stones of one onto
//! the black stones of the other and the white onto the white.

use crate::symmetry::Sym;
use crate::types::Pos;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard};

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

/// A record shared by engines (a server's games), each locking it for a step.
pub type Shared = Arc<Mutex<Placed>>;

/// Locks a shared record. A lock poisoned by a panic elsewhere still holds whole entries
/// (each change is one map update), so it is used, not given up.
pub fn lock(record: &Shared) -> MutexGuard<'_, Placed> {
    record
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// The record: the keys of the positions placed, each with how many times it was placed
/// and how many times it was spent.
#[derive(Clone, Debug, Default)]
pub struct Placed {
    keys: HashMap<Key, Uses>,
}

/// A position's uses.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
struct Uses {
    /// Placed this many times.
    times: u32,
    /// Spent this many times: a stage's final position is spent when placed, and a
    /// position before it each time that final position is placed again (what follows it
    /// has, as far as the engine knows, no new position left).
    spent: u32,
    /// How far from even (centi-stones, either way) the deeper search that checks a
    /// balanced candidate last found the position, if one did.
    checked: Option<i32>,
}

impl Placed {
    /// Was `stones` (or a position symmetric to it) placed before?
    pub fn contains(&self, size: usize, stones: &[Pos]) -> bool {
        self.times(size, stones) > 0
    }

    /// How many times `stones` (or a position symmetric to it) was placed.
    pub fn times(&self, size: usize, stones: &[Pos]) -> u32 {
        self.uses(size, stones).times
    }

    /// How many times the position of `key` ([`key`]) was placed.
    pub fn times_of(&self, key: &Key) -> u32 {
        self.keys.get(key).map_or(0, |u| u.times)
    }

    /// How many times `stones` (or a position symmetric to it) was spent ([`Placed::end`]).
    pub fn spent(&self, size: usize, stones: &[Pos]) -> u32 {
        self.uses(size, stones).spent
    }

    /// How far from even the last deeper check found `stones` (or a position symmetric
    /// to it), if one did ([`Placed::judge`]).
    pub fn checked(&self, size: usize, stones: &[Pos]) -> Option<i32> {
        self.uses(size, stones).checked
    }

    /// Records that a deeper search found `stones` `off` centi-stones from even (either
    /// way), placed or not: a short search misjudged it once, and the engine does not
    /// take its word again.
    pub fn judge(&mut self, size: usize, stones: &[Pos], off: i32) {
        self.entry(size, stones).checked = Some(off.abs());
    }

    /// The uses of `stones` (or a position symmetric to it), recorded now if they were not;
    /// at [`PLACED_CAP`] positions the record starts again, empty.
    fn entry(&mut self, size: usize, stones: &[Pos]) -> &mut Uses {
        if self.keys.len() >= PLACED_CAP {
            self.keys.clear();
        }
        self.keys.entry(key(size, stones)).or_default()
    }

    fn uses(&self, size: usize, stones: &[Pos]) -> Uses {
        self.keys
            .get(&key(size, stones))
            .copied()
            .unwrap_or_default()
    }

    /// Records `stones` as placed once more; false when it (or a symmetric position) was
    /// already.
    pub fn insert(&mut self, size: usize, stones: &[Pos]) -> bool {
        let uses = self.entry(size, stones);
        uses.times = uses.times.saturating_add(1);
        uses.times == 1
    }

    /// Records `stones` as a stage's final position, placed once more: it is spent, and
    /// when it was placed before, so is each recorded position on the way to it
    /// (`stones[..k]`). False when it was placed before.
    pub fn end(&mut self, size: usize, stones: &[Pos]) -> bool {
        let new = self.insert(size, stones);
        if new {
            self.spend_one(size, stones);
        } else {
            self.spend(size, stones);
        }
        new
    }

    /// Spends `stones` and each recorded position on the way to it (`stones[..k]`): as
    /// far as the engine knows, no new position it would place follows them.
    pub fn spend(&mut self, size: usize, stones: &[Pos]) {
        for k in 1..=stones.len() {
            self.spend_one(size, &stones[..k]);
        }
    }

    /// Spends `stones` once more, if recorded.
    fn spend_one(&mut self, size: usize, stones: &[Pos]) {
        if let Some(uses) = self.keys.get_mut(&key(size, stones)) {
            uses.spent = uses.spent.saturating_add(1);
        }
    }

    /// How many different openings (up to symmetry) are recorded.
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
        // Counted once per placing, symmetric ones together.
        assert_eq!(record.times(15, &stones("h8 h9 i9")), 2);
        assert_eq!(record.times(15, &stones("h8 h9 j9")), 0);
        assert_eq!(record.spent(15, &stones("h8 h9 i9")), 0);
    }

    #[test]
    fn a_final_position_placed_again_spends_the_way_to_it() {
        let mut record = Placed::default();
        record.insert(15, &stones("h8 h9"));
        assert!(record.end(15, &stones("h8 h9 i9")));
        assert_eq!(record.spent(15, &stones("h8 h9 i9")), 1);
        assert_eq!(record.spent(15, &stones("h8 h9")), 0);
        // Its mirror image again: the position before it is spent too.
        assert!(!record.end(15, &stones("h8 h9 g9")));
        assert_eq!(record.spent(15, &stones("h8 h9 i9")), 2);
        assert_eq!(record.spent(15, &stones("h8 h9")), 1);
        assert_eq!(record.spent(15, &stones("h8")), 0, "never placed");
        assert_eq!(record.times(15, &stones("h8 h9")), 1);
    }

    #[test]
    fn a_checked_position_keeps_its_deeper_score_and_is_not_placed() {
        let mut record = Placed::default();
        assert_eq!(record.checked(15, &stones("h8 h9")), None);
        record.judge(15, &stones("h8 h9"), -240);
        assert_eq!(
            record.checked(15, &stones("h8 g8")),
            Some(240),
            "symmetric, either way"
        );
        assert!(!record.contains(15, &stones("h8 h9")));
        record.insert(15, &stones("h8 h9"));
        record.judge(15, &stones("h8 h9"), 30);
        assert_eq!(record.checked(15, &stones("h8 h9")), Some(30));
        assert_eq!(record.times(15, &stones("h8 h9")), 1);
    }
}
