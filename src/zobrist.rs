//! Zobrist keys: one per colour and cell, plus the side to move; and [`fnv1a`], the byte
//! hash that names net files and games.

use crate::types::CELLS;
use rand_xoshiro::rand_core::{RngCore, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use std::sync::OnceLock;

/// The fixed seed: every run and every machine hashes a position the same way, so table
/// contents, bench signatures and golden tree walks are reproducible.
const SEED: u64 = 0x5775_7a69_2026_0001;

/// The key set.
pub struct Zobrist {
    /// `stone[colour][cell]`.
    pub stone: [[u64; CELLS]; 2],
    /// Xored in when white is to move.
    pub side: u64,
}

/// The process-wide keys (drawn once from `Xoshiro256PlusPlus` with `SEED`).
pub fn keys() -> &'static Zobrist {
    static KEYS: OnceLock<Box<Zobrist>> = OnceLock::new();
    KEYS.get_or_init(|| {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(SEED);
        let mut z = Box::new(Zobrist {
            stone: [[0; CELLS]; 2],
            side: 0,
        });
        for c in 0..2 {
            for k in z.stone[c].iter_mut() {
                *k = rng.next_u64();
            }
        }
        z.side = rng.next_u64();
        z
    })
}

/// FNV-1a, 64 bits, of `bytes`.
pub fn fnv1a(bytes: impl IntoIterator<Item = u8>) -> u64 {
    bytes.into_iter().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ b as u64).wrapping_mul(0x0100_0000_01b3)
    })
}
