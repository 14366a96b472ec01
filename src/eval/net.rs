//! The learned evaluation, version 1: a small network over the line patterns of every empty
//! cell, trained by `train/` on self-play positions (`docs/training.md`).
//!
//! For the side to move, each empty cell has four keys, one per direction: the line pattern
//! the side to move would make there times [`PATTERNS`] plus the other side's (the keys of
//! `datagen::features`). A key selects a learned vector of [`FEATURES`] lanes, shared by the
//! four directions; a cell's vector is the sum of its four, clipped to `[0, 1]`. The board
//! sum of the cell vectors, divided by [`VALUE_DIVISOR`], goes through a layer of [`HIDDEN`]
//! clipped units to one logit: the side to move's winning chances. A cell's vector dotted with
//! one weight vector is its policy logit: how likely the move is best.
//!
//! Quantised at load: the key vectors as `i16` in units of 1/[`QUANT`], so a clipped cell
//! vector is an integer from 0 to [`QUANT`] per lane and the board sum is exact in `i32`;
//! the policy weights likewise. The last layers run in `f32`, lane by lane in a fixed order,
//! so every kernel gives the same bits.

use crate::board::Board;
use crate::simd::Kernel;
use crate::types::{Color, Dir, Pos};
use thiserror::Error;

/// The first bytes of a net file: the format's name and version.
pub const MAGIC: [u8; 8] = *b"WUZINET1";
/// Line patterns per side (dead to five), as in `datagen::features`.
pub const PATTERNS: usize = 12;
/// Keys: a pattern of the side to move and one of the other side.
pub const KEYS: usize = PATTERNS * PATTERNS;
/// Lanes of a cell's vector.
pub const FEATURES: usize = 32;
/// Units of the value's hidden layer.
pub const HIDDEN: usize = 16;
/// The board sum of the cell vectors is divided by this before the value layers (a fixed
/// divisor, as in training; a mean would make a stone's worth depend on the empty cells).
pub const VALUE_DIVISOR: f32 = 32.0;
/// Fixed-point scale of the key vectors and policy weights: 1.0 is this many units. With
/// four keys a lane sums at most four vectors, and trained weights stay well inside
/// `i16 / (4 * QUANT)`, which the loader checks.
pub const QUANT: i32 = 64;
/// The trailer word of a net file.
const TRAILER: u32 = 0x00C0_FFEE;

/// A net file that cannot be used.
#[derive(Debug, Error, PartialEq)]
pub enum NetError {
    /// It does not start with [`MAGIC`].
    #[error("not a wuzi net file (it does not start with WUZINET1)")]
    Magic,
    /// Its shape is not this version's.
    #[error("the net has {keys} keys, {features} features and {hidden} hidden units; this wuzi reads {KEYS}, {FEATURES} and {HIDDEN}")]
    Shape {
        /// Keys in the file.
        keys: u32,
        /// Features in the file.
        features: u32,
        /// Hidden units in the file.
        hidden: u32,
    },
    /// Its length is not what its shape needs.
    #[error("the net file has {got} bytes; its shape needs {expected}")]
    Length {
        /// Bytes wanted.
        expected: usize,
        /// Bytes found.
        got: usize,
    },
    /// The trailer word is wrong (a damaged or cut file).
    #[error("the net file's trailer is damaged")]
    Trailer,
    /// A weight is not finite, or too large for the fixed-point kernels.
    #[error("weight {index} of the net is {value}: not usable")]
    Weight {
        /// Its index among the file's weights.
        index: usize,
        /// Its value.
        value: f32,
    },
}

/// A loaded network.
#[derive(Clone, Debug)]
pub struct Network {
    /// Per key, its vector in units of 1/[`QUANT`]; the last row (key [`KEYS`]) is zero, for
    /// occupied cells.
    embed: Vec<[i16; FEATURES]>,
    /// The hidden layer's weights, input-major: `hidden_w[i][j]` from lane `i` to unit `j`.
    hidden_w: [[f32; HIDDEN]; FEATURES],
    hidden_b: [f32; HIDDEN],
    out_w: [f32; HIDDEN],
    out_b: f32,
    /// Policy weights in units of 1/[`QUANT`].
    policy_w: [i16; FEATURES],
    policy_b: f32,
    /// FNV-1a hash of the file's bytes: names the net in the bench output and `ABOUT`.
    hash: u64,
}

/// Bytes of a version-1 file: magic, three shape words, the weights, the trailer.
pub const FILE_BYTES: usize =
    8 + 12 + 4 * (KEYS * FEATURES + HIDDEN * FEATURES + HIDDEN + HIDDEN + 1 + FEATURES + 1) + 4;

impl Network {
    /// Reads a net file's bytes, refusing anything malformed.
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, NetError> {
        if !bytes.starts_with(&MAGIC) {
            return Err(NetError::Magic);
        }
        let word = |at: usize| {
            bytes
                .get(at..at + 4)
                .map(|w| u32::from_le_bytes([w[0], w[1], w[2], w[3]]))
        };
        let (Some(keys), Some(features), Some(hidden)) = (word(8), word(12), word(16)) else {
            return Err(NetError::Length {
                expected: FILE_BYTES,
                got: bytes.len(),
            });
        };
        if (keys, features, hidden) != (KEYS as u32, FEATURES as u32, HIDDEN as u32) {
            return Err(NetError::Shape {
                keys,
                features,
                hidden,
            });
        }
        if bytes.len() != FILE_BYTES {
            return Err(NetError::Length {
                expected: FILE_BYTES,
                got: bytes.len(),
            });
        }
        if word(FILE_BYTES - 4) != Some(TRAILER) {
            return Err(NetError::Trailer);
        }
        let floats: Vec<f32> = bytes[20..FILE_BYTES - 4]
            .chunks_exact(4)
            .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect();
        if let Some((index, &value)) = floats.iter().enumerate().find(|(_, v)| !v.is_finite()) {
            return Err(NetError::Weight { index, value });
        }
        let mut at = 0;
        let mut take = |n: usize| {
            let s = &floats[at..at + n];
            at += n;
            (at - n, s)
        };
        // Four summed key vectors and the activation must stay inside i16.
        let limit = i16::MAX as f32 / (4 * QUANT) as f32 - 1.0;
        let quant = |base: usize, s: &[f32]| -> Result<Vec<i16>, NetError> {
            s.iter()
                .enumerate()
                .map(|(k, &v)| {
                    if v.abs() > limit {
                        Err(NetError::Weight {
                            index: base + k,
                            value: v,
                        })
                    } else {
                        Ok((v * QUANT as f32).round() as i16)
                    }
                })
                .collect()
        };
        let (base, e) = take(KEYS * FEATURES);
        let e = quant(base, e)?;
        let mut embed = vec![[0i16; FEATURES]; KEYS + 1];
        for (k, row) in embed.iter_mut().take(KEYS).enumerate() {
            row.copy_from_slice(&e[k * FEATURES..(k + 1) * FEATURES]);
        }
        let (_, w1) = take(HIDDEN * FEATURES);
        let mut hidden_w = [[0f32; HIDDEN]; FEATURES];
        for j in 0..HIDDEN {
            for i in 0..FEATURES {
                hidden_w[i][j] = w1[j * FEATURES + i];
            }
        }
        let mut hidden_b = [0f32; HIDDEN];
        hidden_b.copy_from_slice(take(HIDDEN).1);
        let mut out_w = [0f32; HIDDEN];
        out_w.copy_from_slice(take(HIDDEN).1);
        let out_b = take(1).1[0];
        let (base, pw) = take(FEATURES);
        let mut policy_w = [0i16; FEATURES];
        policy_w.copy_from_slice(&quant(base, pw)?);
        let policy_b = take(1).1[0];
        Ok(Network {
            embed,
            hidden_w,
            hidden_b,
            out_w,
            out_b,
            policy_w,
            policy_b,
            hash: crate::zobrist::fnv1a(bytes.iter().copied()),
        })
    }

    /// The hash of the file the net was read from.
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// A cell's clipped vector, from its four keys.
    #[inline(always)]
    pub fn cell(&self, kernel: Kernel, keys: [u8; 4]) -> [i16; FEATURES] {
        match kernel {
            #[cfg(target_arch = "x86_64")]
            // SAFETY: `Kernel::Avx2` is only chosen when the CPU has AVX2.
            Kernel::Avx2 => unsafe { self.cell_avx2(keys) },
            _ => self.cell_scalar(keys),
        }
    }

    /// The portable definition of [`Network::cell`].
    pub fn cell_scalar(&self, keys: [u8; 4]) -> [i16; FEATURES] {
        let mut h = [0i16; FEATURES];
        for k in keys {
            let row = &self.embed[(k as usize).min(KEYS)];
            for (x, &e) in h.iter_mut().zip(row) {
                *x += e;
            }
        }
        h.map(|x| x.clamp(0, QUANT as i16))
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    unsafe fn cell_avx2(&self, keys: [u8; 4]) -> [i16; FEATURES] {
        use std::arch::x86_64::*;
        let mut lo = _mm256_setzero_si256();
        let mut hi = _mm256_setzero_si256();
        for k in keys {
            let row = self.embed[(k as usize).min(KEYS)].as_ptr() as *const __m256i;
            // SAFETY: a row is 32 i16 lanes, two unaligned 256-bit loads.
            lo = _mm256_add_epi16(lo, _mm256_loadu_si256(row));
            hi = _mm256_add_epi16(hi, _mm256_loadu_si256(row.add(1)));
        }
        let zero = _mm256_setzero_si256();
        let top = _mm256_set1_epi16(QUANT as i16);
        lo = _mm256_min_epi16(_mm256_max_epi16(lo, zero), top);
        hi = _mm256_min_epi16(_mm256_max_epi16(hi, zero), top);
        let mut out = [0i16; FEATURES];
        let p = out.as_mut_ptr() as *mut __m256i;
        _mm256_storeu_si256(p, lo);
        _mm256_storeu_si256(p.add(1), hi);
        out
    }

    /// The board sum of the side to move's cell vectors, computed from scratch.
    pub fn board_sum(&self, kernel: Kernel, board: &Board) -> [i32; FEATURES] {
        let mut sum = [0i32; FEATURES];
        for &p in board.cells() {
            if board.is_empty(p) {
                let a = self.cell(kernel, keys(board, p, board.to_move()));
                for (s, &x) in sum.iter_mut().zip(&a) {
                    *s += x as i32;
                }
            }
        }
        sum
    }

    /// The value logit of a board sum (positive: the side to move is ahead; the winning
    /// chance is its logistic).
    pub fn value_logit(&self, sum: &[i32; FEATURES]) -> f32 {
        let scale = 1.0 / (QUANT as f32 * VALUE_DIVISOR);
        let mut h = self.hidden_b;
        for (i, &s) in sum.iter().enumerate() {
            let x = s as f32 * scale;
            for (hj, &w) in h.iter_mut().zip(&self.hidden_w[i]) {
                *hj += w * x;
            }
        }
        let mut z = self.out_b;
        for (&hj, &w) in h.iter().zip(&self.out_w) {
            z += hj.clamp(0.0, 1.0) * w;
        }
        z
    }

    /// The value logit of `board` for the side to move, from scratch.
    pub fn evaluate(&self, board: &Board) -> f32 {
        self.value_logit(&self.board_sum(crate::simd::best(), board))
    }

    /// The policy logit of a cell's clipped vector, in units of 1/[`QUANT`]^2 (the bias
    /// included, rounded).
    pub fn policy(&self, cell: &[i16; FEATURES]) -> i32 {
        let dot: i32 = cell
            .iter()
            .zip(&self.policy_w)
            .map(|(&a, &w)| a as i32 * w as i32)
            .sum();
        dot + (self.policy_b * (QUANT * QUANT) as f32).round() as i32
    }
}

/// The keys of the empty cell `p` along [`Dir::ALL`] with `me` as the side to move: the
/// pattern `me` would make there times [`PATTERNS`] plus the other side's. The network's
/// inputs, and the trainer's (`datagen::features`).
#[inline(always)]
pub fn keys(board: &Board, p: Pos, me: Color) -> [u8; 4] {
    Dir::ALL.map(|d| {
        (board.pattern(p, me, d) as usize * PATTERNS + board.pattern(p, !me, d) as usize) as u8
    })
}

/// Engine score units per unit of value logit: the trainer's score target is the logistic
/// of `score / 400` (`train/`), so a logit maps back to the engine's scale at 400.
pub const SCORE_PER_LOGIT: i32 = 400;
/// The largest score the net gives, well inside the search's proven-result scores.
pub const MAX_NET_SCORE: i32 = 20_000;

/// The engine score of a value logit, at `scale` score units per unit of logit.
#[inline]
pub fn score_of_logit(z: f32, scale: i32) -> i32 {
    ((z * scale as f32).round() as i32).clamp(-MAX_NET_SCORE, MAX_NET_SCORE)
}

/// Writes a version-1 net file from float weights in the file's order (for tests and tools;
/// the trainer writes the same format).
pub fn file_from_floats(weights: &[f32]) -> Vec<u8> {
    let mut b = MAGIC.to_vec();
    for w in [KEYS, FEATURES, HIDDEN] {
        b.extend_from_slice(&(w as u32).to_le_bytes());
    }
    for w in weights {
        b.extend_from_slice(&w.to_le_bytes());
    }
    b.extend_from_slice(&TRAILER.to_le_bytes());
    b
}

/// Weights in the file's order.
pub const WEIGHTS: usize = (FILE_BYTES - 24) / 4;

/// A net file of random weights in [-0.5, 0.5) (for tests).
#[cfg(test)]
pub(crate) fn random_net(seed: u64) -> Vec<u8> {
    use rand_xoshiro::rand_core::{RngCore, SeedableRng};
    let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(seed);
    let w: Vec<f32> = (0..WEIGHTS)
        .map(|_| (rng.next_u32() as f32 / u32::MAX as f32) - 0.5)
        .collect();
    file_from_floats(&w)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand_xoshiro::rand_core::{RngCore, SeedableRng};
    use rand_xoshiro::Xoshiro256PlusPlus;

    #[test]
    fn files_are_read_or_refused_with_a_reason() {
        let bytes = random_net(1);
        assert_eq!(bytes.len(), FILE_BYTES);
        let net = Network::from_bytes(&bytes).expect("a good file");
        assert_eq!(net.hash(), crate::zobrist::fnv1a(bytes.iter().copied()));
        assert_eq!(
            Network::from_bytes(b"WUZINET0").unwrap_err(),
            NetError::Magic
        );
        assert!(matches!(
            Network::from_bytes(&bytes[..bytes.len() - 8]),
            Err(NetError::Length { .. })
        ));
        let mut wrong = bytes.clone();
        wrong[12] = 64; // features
        assert!(matches!(
            Network::from_bytes(&wrong),
            Err(NetError::Shape { features: 64, .. })
        ));
        let mut wrong = bytes.clone();
        let n = wrong.len();
        wrong[n - 1] ^= 1;
        assert_eq!(Network::from_bytes(&wrong).unwrap_err(), NetError::Trailer);
        let mut wrong = bytes.clone();
        wrong[20..24].copy_from_slice(&f32::NAN.to_le_bytes());
        assert!(matches!(
            Network::from_bytes(&wrong),
            Err(NetError::Weight { index: 0, .. })
        ));
        wrong[20..24].copy_from_slice(&1000.0f32.to_le_bytes());
        assert!(Network::from_bytes(&wrong)
            .unwrap_err()
            .to_string()
            .contains("1000"));
    }

    #[test]
    fn the_kernels_agree_on_every_key() {
        let net = Network::from_bytes(&random_net(2)).expect("net");
        let kernel = crate::simd::best();
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(3);
        for _ in 0..20_000 {
            let keys = [0; 4].map(|_| (rng.next_u32() % (KEYS as u32 + 2)) as u8);
            assert_eq!(net.cell(kernel, keys), net.cell_scalar(keys), "{keys:?}");
        }
    }
}
