//! Seeded random choices. Every game draws from its own stream, derived from the run seed
//! and the game's index, so one game's script can be replayed alone (`--game N`).

use rand_xoshiro::rand_core::{RngCore, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

/// A seeded random stream with the few shapes of choice the soak needs.
pub struct Dice(Xoshiro256PlusPlus);

impl Dice {
    /// The stream of game `game` under run seed `seed`; `stream` separates independent
    /// streams of one game (the plan and the events during play).
    pub fn for_game(seed: u64, game: usize, stream: u64) -> Dice {
        let key = seed
            ^ (game as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15)
            ^ stream.wrapping_mul(0xD1B5_4A32_D192_ED03);
        Dice(Xoshiro256PlusPlus::seed_from_u64(key))
    }

    /// Uniform in `0..n` (0 when `n` is 0). The modulo bias is below 2^-40 for the small
    /// ranges used here.
    pub fn below(&mut self, n: u64) -> u64 {
        if n == 0 {
            0
        } else {
            self.0.next_u64() % n
        }
    }

    /// Uniform in `lo..=hi` (`lo` if the range is empty).
    pub fn range(&mut self, lo: u64, hi: u64) -> u64 {
        if hi <= lo {
            lo
        } else {
            lo + self.below(hi - lo + 1)
        }
    }

    /// Log-uniform in `lo..=hi` (both at least 1): as many draws between 50 and 100 as
    /// between 1000 and 2000, so short and long controls are both common.
    pub fn log_range(&mut self, lo: u64, hi: u64) -> u64 {
        let (l, h) = ((lo.max(1) as f64).ln(), (hi.max(lo).max(1) as f64).ln());
        let v = (l + self.unit() * (h - l)).exp().round() as u64;
        v.clamp(lo, hi.max(lo))
    }

    /// True with probability `p`.
    pub fn chance(&mut self, p: f64) -> bool {
        self.unit() < p
    }

    /// One of `items` (which must not be empty; the first item otherwise).
    pub fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.below(items.len() as u64) as usize]
    }

    /// One of `items` with probability proportional to its weight.
    pub fn weighted<T: Copy>(&mut self, items: &[(u32, T)]) -> T {
        let total: u64 = items.iter().map(|i| i.0 as u64).sum();
        let mut r = self.below(total);
        for &(w, v) in items {
            if r < w as u64 {
                return v;
            }
            r -= w as u64;
        }
        items[items.len() - 1].1
    }

    /// Shuffles `v` in place (Fisher-Yates).
    pub fn shuffle<T>(&mut self, v: &mut [T]) {
        for i in (1..v.len()).rev() {
            let j = self.below(i as u64 + 1) as usize;
            v.swap(i, j);
        }
    }

    /// Uniform in `[0, 1)`.
    fn unit(&mut self) -> f64 {
        (self.0.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }
}
