//! The learned evaluation: a small network over the line patterns of every empty cell,
//! trained by `train/` on self-play positions (`docs/training.md`).
//!
//! For the side to move, each empty cell has four keys, one per direction: the line pattern
//! the side to move would make there times [`PATTERNS`] plus the other side's (the keys of
//! `datagen::features`). A key selects a learned vector of [`FEATURES`] lanes, shared by the
//! four directions. A version-6 net adds two vectors that see across the directions, one
//! selected by the two strongest patterns the side to move would make at the cell (of its
//! four), one by the other side's two ([`split_rows`]). A cell's vector is the sum of its
//! four (or six), clipped to `[0, 1]`. The board sum of the cell vectors, divided by
//! [`VALUE_DIVISOR`], goes through a layer of clipped units ([`HIDDEN`] in the nets built
//! in; a file says how many) to one logit: the side to move's winning chances. A cell's
//! vector dotted with one weight vector is its policy logit: how likely the move is best.
//!
//! Quantised at load: the key vectors as `i16` in units of 1/[`QUANT`], so a clipped cell
//! vector is an integer from 0 to [`QUANT`] per lane and the board sum is exact in `i32`;
//! the policy weights likewise. The last layers run in `f32`, lane by lane in a fixed order,
//! so every kernel gives the same bits.
//!
//! A version-8 net is a version-6 net whose pair rows also know the side to move's colour:
//! one set of pair rows when black is to move, another when white is. The keys say what
//! each side would make along a line, the same for either colour; under renju the same
//! pair (two open threes, two fours) is a win for white and a forbidden point for black,
//! and the pairs are where a cell's directions meet.
//!
//! A version-6 net's policy also has a window term: a learned scalar per line window
//! ([`Board::window_code`]: the eight cells within four steps of the cell along a
//! direction, each empty, the side to move's or not), one table shared by the four
//! directions, the four entries added to the cell's policy logit. It needs no accumulator:
//! four table reads per move the search orders.
//!
//! Versions 2 to 5 and 7 are not read: no built-in net uses them (nets/README.md, retired
//! nets).

use crate::board::Board;
use crate::simd::Kernel;
use crate::types::{Color, Dir, Pos};
use thiserror::Error;

mod kernels;
mod pairs;

pub(crate) use kernels::sum_rows_scalar;
use kernels::sum_rows;
pub use pairs::split_rows;
use pairs::{key_pairs, merged, split_merge};

/// The first bytes of a version-1 net file: the format's name and version.
pub const MAGIC: [u8; 8] = *b"WUZINET1";
/// The first bytes of a version-6 net file: version 1's layout with a row per pair of the
/// side to move and a row per pair of the other side added to the key table
/// ([`ROWS6`] rows), and the policy's window table ([`WINDOW_CODES`] weights) after the
/// policy bias.
pub const MAGIC6: [u8; 8] = *b"WUZINET6";
/// The first bytes of a version-8 net file: version 6's layout with the pair rows twice,
/// first those read when black is to move, then those read when white is ([`ROWS8`] rows).
pub const MAGIC8: [u8; 8] = *b"WUZINET8";
pub use crate::board::WINDOW_CODES;
/// Fixed-point scale of a version-6 net's window entries (`i16`): 1.0 is this many units, a
/// quarter of the policy logit's unit (`QUANT * QUANT`), so that an entry may reach 32;
/// trained entries stay well inside, which the loader checks.
pub const WINDOW_QUANT: i32 = 1024;
/// Line patterns per side (dead to five), as in `datagen::features`.
pub const PATTERNS: usize = 12;
/// Keys: a pattern of the side to move and one of the other side.
pub const KEYS: usize = PATTERNS * PATTERNS;
/// Pairs `(a, b)` of one side's patterns with `a >= b`.
pub const PAIRS: usize = PATTERNS * (PATTERNS + 1) / 2;
/// Rows of a version-6 net's table: the keys, the side to move's pairs, the other side's
/// pairs ([`split_rows`]).
pub const ROWS6: usize = KEYS + 2 * PAIRS;
/// Rows of a version-8 net's table: the keys, then version 6's pair rows with black to
/// move, then the same with white to move.
pub const ROWS8: usize = KEYS + 4 * PAIRS;
/// Lanes of a cell's vector.
pub const FEATURES: usize = 32;
/// Units of the value's hidden layer in the nets built in (and the trainer's default); a
/// file may have from 1 to [`MAX_HIDDEN`].
pub const HIDDEN: usize = 16;
/// The most hidden units a net file may have.
pub const MAX_HIDDEN: usize = 256;
/// The board sum of the cell vectors is divided by this before the value layers (a fixed
/// divisor, as in training; a mean would make a stone's worth depend on the empty cells).
pub const VALUE_DIVISOR: f32 = 32.0;
/// Fixed-point scale of the key vectors and policy weights: 1.0 is this many units. A lane
/// sums six vectors at most (four keys and two pairs), and trained weights stay well inside
/// `i16 / (6 * QUANT)`, which the loader checks.
pub const QUANT: i32 = 64;
/// The trailer word of a net file.
const TRAILER: u32 = 0x00C0_FFEE;

/// A net file that cannot be used.
#[derive(Debug, Error, PartialEq)]
pub enum NetError {
    /// It does not start with [`MAGIC`] or [`MAGIC6`].
    #[error("not a wuzi net file of a version this wuzi reads (it does not start with WUZINET1, WUZINET6 or WUZINET8)")]
    Magic,
    /// Its shape is not its version's.
    #[error("the net has {keys} keys, {features} features and {hidden} hidden units; this wuzi reads {KEYS} keys (version 1), {ROWS6} (version 6) or {ROWS8} (version 8), {FEATURES} features and 1 to {MAX_HIDDEN} hidden units")]
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

/// What a cell's vector adds to its four key rows: the net file's version.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Pairs {
    /// Version 1: nothing.
    None,
    /// Version 6: a row of the side to move's pair and a row of the other side's
    /// ([`split_rows`]).
    Split,
    /// Version 8: as version 6, from a second set of pair rows when white is to move.
    Colour,
}

impl Pairs {
    /// The rows of the table in a file.
    const fn rows(self) -> usize {
        match self {
            Pairs::None => KEYS,
            Pairs::Split => ROWS6,
            Pairs::Colour => ROWS8,
        }
    }
}

/// A version of the net file: what a cell adds to its key rows, and whether the policy
/// has the window table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Format {
    version: u32,
    magic: [u8; 8],
    pairs: Pairs,
    windows: bool,
}

impl Format {
    /// Every version wuzi reads.
    const ALL: [Format; 3] = [
        Format::new(1, MAGIC, Pairs::None, false),
        Format::new(6, MAGIC6, Pairs::Split, true),
        Format::new(8, MAGIC8, Pairs::Colour, true),
    ];

    const fn new(version: u32, magic: [u8; 8], pairs: Pairs, windows: bool) -> Format {
        Format {
            version,
            magic,
            pairs,
            windows,
        }
    }

    /// Bytes of a file of this version with `hidden` units.
    const fn bytes(self, hidden: usize) -> usize {
        file_bytes(self.pairs.rows(), hidden) + if self.windows { 4 * WINDOW_CODES } else { 0 }
    }
}

/// Rows of the network's table as it is kept: the file's rows, and past them zero rows
/// enough for the white view of the pair rows ([`PAIR_VIEW`] from [`WHITE_PAIRS`] on) to
/// lie inside. A key row is indexed by a byte (below [`KEYS`] for an empty cell), a pair
/// row through a colour's view, so that the accumulator's inner loop reads rows without
/// bounds checks.
const TABLE_ROWS: usize = 1024;
const _: () = assert!(ROWS8 < TABLE_ROWS);
/// How far a version-8 net's pair rows with white to move stand after those with black to
/// move.
const WHITE_PAIRS: usize = 2 * PAIRS;
/// Rows of the view through which pair rows are read ([`Network::pair_view`]): every row a
/// byte-sized pair index names.
const PAIR_VIEW: usize = 512;
const _: () = assert!(
    KEYS + 1 + PAIRS + (u8::MAX as usize) < PAIR_VIEW && WHITE_PAIRS + PAIR_VIEW <= TABLE_ROWS
);

/// A loaded network.
#[derive(Clone, Debug)]
pub struct Network {
    /// Per key, its vector in units of 1/[`QUANT`]; row [`KEYS`] is zero, for occupied
    /// cells; in a version-6 net the pair rows follow it ([`split_rows`]), and again
    /// [`WHITE_PAIRS`] further for white to move (version 8's own rows there); zero rows fill
    /// the table to [`TABLE_ROWS`].
    embed: Box<[[i16; FEATURES]; TABLE_ROWS]>,
    /// The file's version: what a cell adds beyond its keys, and whether the policy has
    /// the window table (`window`).
    format: Format,
    /// The hidden layer's weights, input-major: `hidden_w[i * h + j]` from lane `i` to unit
    /// `j`, for `h` units (`hidden_b.len()`).
    hidden_w: Vec<f32>,
    hidden_b: Vec<f32>,
    out_w: Vec<f32>,
    out_b: f32,
    /// Policy weights in units of 1/[`QUANT`].
    policy_w: [i16; FEATURES],
    /// The policy bias in units of 1/[`QUANT`]^2, rounded once at load (the policy of every
    /// candidate adds it).
    policy_bias: i32,
    /// A version-6 net's window entries in units of 1/[`WINDOW_QUANT`], indexed by
    /// [`Board::window_code`] (a fixed length, so that a code, reduced modulo it, needs no
    /// bounds check); `None` in the other versions.
    window: Option<Box<[i16; WINDOW_CODES]>>,
    /// FNV-1a hash of the file's bytes: names the net in the bench output and `ABOUT`.
    hash: u64,
}

/// Bytes of a file with `rows` table rows ([`KEYS`] or [`ROWS6`]) and `hidden`
/// units: magic, three shape words, the weights, the trailer (a version-6 file has
/// [`WINDOW_CODES`] weights more).
pub const fn file_bytes(rows: usize, hidden: usize) -> usize {
    8 + 12 + 4 * (rows * FEATURES + hidden * FEATURES + hidden + hidden + 1 + FEATURES + 1) + 4
}
/// Bytes of a version-1 file of [`HIDDEN`] units (for tests and tools).
#[cfg(any(test, feature = "internals"))]
pub const FILE_BYTES: usize = file_bytes(KEYS, HIDDEN);

impl Network {
    /// Reads a net file's bytes, refusing anything malformed.
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, NetError> {
        let Some(format) = Format::ALL
            .into_iter()
            .find(|f| bytes.starts_with(&f.magic))
        else {
            return Err(NetError::Magic);
        };
        let pairs = format.pairs;
        let rows = pairs.rows();
        let start = 20;
        let word = |at: usize| {
            bytes
                .get(at..at + 4)
                .map(|w| u32::from_le_bytes([w[0], w[1], w[2], w[3]]))
        };
        let (Some(keys), Some(features), Some(hidden)) = (word(8), word(12), word(16)) else {
            return Err(NetError::Length {
                expected: format.bytes(HIDDEN),
                got: bytes.len(),
            });
        };
        if (keys, features) != (rows as u32, FEATURES as u32)
            || !(1..=MAX_HIDDEN as u32).contains(&hidden)
        {
            return Err(NetError::Shape {
                keys,
                features,
                hidden,
            });
        }
        let h = hidden as usize;
        let file_bytes = format.bytes(h);
        if bytes.len() != file_bytes {
            return Err(NetError::Length {
                expected: file_bytes,
                got: bytes.len(),
            });
        }
        if word(file_bytes - 4) != Some(TRAILER) {
            return Err(NetError::Trailer);
        }
        let floats: Vec<f32> = bytes[start..file_bytes - 4]
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
        // The summed vectors (four keys and the pairs) and the activation must stay inside
        // i16: six of them with the pair rows, five in version 1 (its files are read so).
        let summed = if pairs == Pairs::None { 5 } else { 6 };
        let limit = i16::MAX as f32 / (summed * QUANT) as f32 - 1.0;
        // Weights `s` from the file's weight `base` on, in units of 1/`scale`, each at most
        // `limit` in size.
        let quant_at = |base: usize, s: &[f32], scale: i32, limit: f32| {
            s.iter()
                .enumerate()
                .map(|(k, &v)| {
                    if v.abs() > limit {
                        Err(NetError::Weight {
                            index: base + k,
                            value: v,
                        })
                    } else {
                        Ok((v * scale as f32).round() as i16)
                    }
                })
                .collect::<Result<Vec<i16>, NetError>>()
        };
        let quant = |base: usize, s: &[f32]| quant_at(base, s, QUANT, limit);
        let (base, e) = take(rows * FEATURES);
        let e = quant(base, e)?;
        // The file's rows with the zero row inserted after the keys; a version-6 net's pair
        // rows copied to where white's stand in version 8 (the same rows for either colour).
        let mut embed = Box::new([[0i16; FEATURES]; TABLE_ROWS]);
        for (k, w) in e.chunks_exact(FEATURES).enumerate() {
            embed[k + usize::from(k >= KEYS)].copy_from_slice(w);
        }
        if pairs == Pairs::Split {
            for r in KEYS + 1..ROWS6 + 1 {
                embed[r + WHITE_PAIRS] = embed[r];
            }
        }
        // The file is unit-major (the trainer's layout); the inference reads input-major.
        let (_, w1) = take(h * FEATURES);
        let mut hidden_w = vec![0f32; FEATURES * h];
        for j in 0..h {
            for i in 0..FEATURES {
                hidden_w[i * h + j] = w1[j * FEATURES + i];
            }
        }
        let hidden_b = take(h).1.to_vec();
        let out_w = take(h).1.to_vec();
        let out_b = take(1).1[0];
        let (base, pw) = take(FEATURES);
        let mut policy_w = [0i16; FEATURES];
        policy_w.copy_from_slice(&quant(base, pw)?);
        let policy_bias = (take(1).1[0] * (QUANT * QUANT) as f32).round() as i32;
        let window = if format.windows {
            let (base, w) = take(WINDOW_CODES);
            let limit = i16::MAX as f32 / WINDOW_QUANT as f32 - 1.0;
            let mut table = Box::new([0i16; WINDOW_CODES]);
            table.copy_from_slice(&quant_at(base, w, WINDOW_QUANT, limit)?);
            Some(table)
        } else {
            None
        };
        Ok(Network {
            embed,
            format,
            hidden_w,
            hidden_b,
            out_w,
            out_b,
            policy_w,
            policy_bias,
            window,
            hash: crate::zobrist::fnv1a(bytes.iter().copied()),
        })
    }

    /// The hash of the file the net was read from.
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// The inputs of cell `p` of `board` with `me` to move: its four keys ([`KEYS`] for a
    /// stone).
    #[inline(always)]
    pub fn inputs(&self, board: &Board, p: Pos, me: Color) -> [u8; 4] {
        if board.is_empty(p) {
            keys(board, p, me)
        } else {
            [KEYS as u8; 4]
        }
    }

    /// The net file's version: 1, 6 with a pair row of each side and the policy's window
    /// term, or 8 with those pair rows for each colour to move.
    pub fn version(&self) -> u32 {
        self.format.version
    }

    /// The clipped vector of cell `p` of `board` with `me` to move; zero for a stone.
    #[inline(always)]
    pub fn cell_at(&self, kernel: Kernel, board: &Board, p: Pos, me: Color) -> [i16; FEATURES] {
        self.cell(kernel, self.inputs(board, p, me), me)
    }

    /// The table as the pair rows with `me` to move are read: from its start for black,
    /// from [`WHITE_PAIRS`] on for white (a version-6 net's pair rows are copied there at
    /// load, so that every version reads the same way). A view of [`PAIR_VIEW`] rows: a
    /// pair row index ([`split_rows`]) is within it by its type, so that the lookups need
    /// no bounds check and no addition beyond the view's start, taken once.
    #[inline(always)]
    fn pair_view(&self, me: Color) -> &[[i16; FEATURES]; PAIR_VIEW] {
        let start = match me {
            Color::Black => 0,
            Color::White => WHITE_PAIRS,
        };
        let view = &self.embed[start..start + PAIR_VIEW];
        view.try_into().expect("a view of PAIR_VIEW rows")
    }

    /// The vector of key `k` ([`KEYS`] and beyond: zero).
    #[inline(always)]
    fn key_row(&self, k: u8) -> &[i16; FEATURES] {
        &self.embed[(k as usize).min(KEYS)]
    }

    /// A cell's unclipped sum of its key vectors (and pair vectors,
    /// [`Network::cell_rows`]): the accumulator keeps it, so that a change of one key is one
    /// operation on a few rows ([`Network::changed_rows`]).
    #[inline(always)]
    pub fn cell_sum(&self, kernel: Kernel, keys: [u8; 4], me: Color) -> [i16; FEATURES] {
        sum_rows(kernel, self.cell_rows(keys, me))
    }

    /// The rows a cell of keys `keys` with `me` to move adds up: its four key rows, then
    /// the pair rows of its format (the zero row where it has none). Adding the zero row
    /// changes nothing, so that every cell's sum is one loop of a fixed length.
    #[inline(always)]
    pub fn cell_rows(&self, keys: [u8; 4], me: Color) -> [&[i16; FEATURES]; 6] {
        let zero = &self.embed[KEYS];
        let [k0, k1, k2, k3] = keys.map(|k| self.key_row(k));
        // A stone's keys (from KEYS up) have no pairs.
        if keys[0] >= KEYS as u8 {
            return [k0, k1, k2, k3, zero, zero];
        }
        match self.format.pairs {
            Pairs::None => [k0, k1, k2, k3, zero, zero],
            Pairs::Split | Pairs::Colour => {
                let view = self.pair_view(me);
                let [own, other] = split_rows(keys).map(|r| &view[r]);
                [k0, k1, k2, k3, own, other]
            }
        }
    }

    /// The rows a cell's sum loses and the rows it gains when its keys go from `old` to
    /// `new`, which differ along direction `d` alone (an empty cell's keys, below
    /// [`KEYS`]), with `me` to move: the key's row, and the pair rows of the format. A pair
    /// row that did not change is both lost and gained, and the zero row stands where the
    /// format has none: either leaves the sum as it was, and every change is one loop of a
    /// fixed length.
    ///
    /// The old pair rows are computed again rather than kept per cell, but only the half
    /// of them that the change touches: the pairs of the two directions with `d`.
    #[inline(always)]
    #[allow(clippy::type_complexity)]
    pub fn changed_rows(
        &self,
        old: [u8; 4],
        new: [u8; 4],
        d: usize,
        me: Color,
    ) -> ([&[i16; FEATURES]; 3], [&[i16; FEATURES]; 3]) {
        let zero = &self.embed[KEYS];
        // Keys of empty cells, below KEYS: a byte indexes the table without a clamp.
        debug_assert!(old[d] < KEYS as u8 && new[d] < KEYS as u8);
        let (k0, k1) = (&self.embed[old[d] as usize], &self.embed[new[d] as usize]);
        if self.format.pairs == Pairs::None {
            return ([k0, zero, zero], [k1, zero, zero]);
        }
        // The half with `d` (its pairs differ, since the key did) and the other half.
        let e = d ^ 1;
        let (h0, h1) = (key_pairs(old[d], old[e]), key_pairs(new[d], new[e]));
        let f = (d & 2) ^ 2;
        let rest = key_pairs(old[f], old[f + 1]);
        let ([o0, t0], [o1, t1]) = (split_merge(h0, rest), split_merge(h1, rest));
        let view = self.pair_view(me);
        let row = |r: usize| &view[r];
        ([k0, row(o0), row(t0)], [k1, row(o1), row(t1)])
    }

    /// [`Network::changed_rows`] with each side to move (black's, then white's), for an empty
    /// cell whose keys with white to move are those with black to move, each with its two
    /// patterns swapped (as [`key`] makes them). Each side's pairs are then the other's,
    /// swapped, so that they are looked up once for both.
    #[inline(always)]
    #[allow(clippy::type_complexity)]
    pub fn changed_rows_both(
        &self,
        old: [[u8; 4]; 2],
        new: [[u8; 4]; 2],
        d: usize,
    ) -> [([&[i16; FEATURES]; 3], [&[i16; FEATURES]; 3]); 2] {
        let zero = &self.embed[KEYS];
        // Keys of empty cells, below KEYS: a byte indexes the table without a clamp.
        let key = |k: u8| {
            debug_assert!(k < KEYS as u8);
            &self.embed[k as usize]
        };
        let (k0, k1) = (old.map(|o| key(o[d])), new.map(|n| key(n[d])));
        if self.format.pairs == Pairs::None {
            return [0, 1].map(|s| ([k0[s], zero, zero], [k1[s], zero, zero]));
        }
        let (o, n) = (old[0], new[0]);
        let e = d ^ 1;
        let (h0, h1) = (key_pairs(o[d], o[e]), key_pairs(n[d], n[e]));
        let f = (d & 2) ^ 2;
        let rest = key_pairs(o[f], o[f + 1]);
        // Black's pair and white's, before and after.
        let (m0, m1) = (merged(h0, rest), merged(h1, rest));
        // Each colour's own pair row and the other side's, from its view.
        let (b, w) = (self.pair_view(Color::Black), self.pair_view(Color::White));
        const OWN: usize = KEYS + 1;
        const OTHER: usize = KEYS + 1 + PAIRS;
        [
            (
                [k0[0], &b[OWN + m0[0]], &b[OTHER + m0[1]]],
                [k1[0], &b[OWN + m1[0]], &b[OTHER + m1[1]]],
            ),
            (
                [k0[1], &w[OWN + m0[1]], &w[OTHER + m0[0]]],
                [k1[1], &w[OWN + m1[1]], &w[OTHER + m1[0]]],
            ),
        ]
    }

    /// A cell's clipped vector (the policy's and the value's input), from its four keys
    /// with `me` to move.
    #[inline(always)]
    pub fn cell(&self, kernel: Kernel, keys: [u8; 4], me: Color) -> [i16; FEATURES] {
        clip(&self.cell_sum(kernel, keys, me))
    }

    /// The board sum of the side to move's cell vectors, computed from scratch.
    pub fn board_sum(&self, kernel: Kernel, board: &Board) -> [i32; FEATURES] {
        let mut sum = [0i32; FEATURES];
        for &p in board.cells() {
            let a = self.cell_at(kernel, board, p, board.to_move());
            for (s, &x) in sum.iter_mut().zip(&a) {
                *s += x as i32;
            }
        }
        sum
    }

    /// The value logit of a board sum (positive: the side to move is ahead; the winning
    /// chance is its logistic).
    pub fn value_logit(&self, sum: &[i32; FEATURES]) -> f32 {
        self.value_logit_with(crate::simd::best(), sum)
    }

    /// [`Network::value_logit`] with a given kernel. The AVX2 kernel is the same code
    /// compiled for AVX2: each unit's sum takes the same multiplications and additions in
    /// the same order (no fused multiply-add), eight units at a time, so both kernels give
    /// the same bits (tested).
    pub fn value_logit_with(&self, kernel: Kernel, sum: &[i32; FEATURES]) -> f32 {
        match kernel {
            #[cfg(target_arch = "x86_64")]
            // SAFETY: `Kernel::Avx2` is only chosen when the CPU has AVX2.
            Kernel::Avx2 => unsafe { self.value_logit_avx2(sum) },
            _ => self.value_logit_portable(sum),
        }
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    unsafe fn value_logit_avx2(&self, sum: &[i32; FEATURES]) -> f32 {
        self.value_logit_portable(sum)
    }

    /// The value layers, the common widths as fixed lengths so that the loops unroll and
    /// vectorise.
    #[inline(always)]
    fn value_logit_portable(&self, sum: &[i32; FEATURES]) -> f32 {
        match self.hidden_b.len() {
            16 => self.layers(&mut [0f32; 16], sum),
            32 => self.layers(&mut [0f32; 32], sum),
            64 => self.layers(&mut [0f32; 64], sum),
            units => self.layers(&mut [0f32; MAX_HIDDEN][..units], sum),
        }
    }

    /// The value layers over the hidden units `h` (as many as the net has), in a fixed order.
    #[inline(always)]
    fn layers(&self, h: &mut [f32], sum: &[i32; FEATURES]) -> f32 {
        let scale = 1.0 / (QUANT as f32 * VALUE_DIVISOR);
        h.copy_from_slice(&self.hidden_b);
        for (&s, row) in sum.iter().zip(self.hidden_w.chunks_exact(h.len())) {
            let x = s as f32 * scale;
            for (hj, &w) in h.iter_mut().zip(row) {
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
        dot + self.policy_bias
    }

    /// The policy's window term of the empty cell `p` of `board` with `me` to move, in the
    /// unit of [`Network::policy`] (zero but in a version-6 net): its four line windows'
    /// entries, to be added to the cell's policy logit.
    #[inline(always)]
    pub fn window_logit(&self, board: &Board, p: Pos, me: Color) -> i32 {
        let Some(window) = &self.window else {
            return 0;
        };
        let sum: i32 = Dir::ALL
            .iter()
            .map(|&d| window[board.window_code(p, me, d) % WINDOW_CODES] as i32)
            .sum();
        sum * (QUANT * QUANT / WINDOW_QUANT)
    }
}

/// The clip of a cell's unclipped sum to `[0, QUANT]`: its vector.
#[inline(always)]
pub fn clip(h: &[i16; FEATURES]) -> [i16; FEATURES] {
    h.map(|x| x.clamp(0, QUANT as i16))
}

/// The keys of the empty cell `p` along [`Dir::ALL`] with `me` as the side to move: the
/// pattern `me` would make there times [`PATTERNS`] plus the other side's. The network's
/// inputs, and the trainer's (`datagen::features`).
#[inline(always)]
pub fn keys(board: &Board, p: Pos, me: Color) -> [u8; 4] {
    Dir::ALL.map(|d| key(board, p, me, d))
}

/// The key of the empty cell `p` along `d` alone (one of [`keys`]).
#[inline(always)]
pub fn key(board: &Board, p: Pos, me: Color, d: Dir) -> u8 {
    (board.pattern(p, me, d) as usize * PATTERNS + board.pattern(p, !me, d) as usize) as u8
}

/// Engine score units per unit of value logit: the trainer's score target is the logistic
/// of `score / 400` (`train/`), so a logit maps back to the engine's scale at 400.
pub const SCORE_PER_LOGIT: i32 = 400;
/// The largest score the net gives, well inside the search's proven-result scores.
pub const MAX_NET_SCORE: i32 = 20_000;

/// The engine score of a value logit, at `scale` score units per unit of logit.
#[inline]
pub fn score_of_logit(z: f32, scale: i32) -> i32 {
    round_within(z * scale as f32, MAX_NET_SCORE)
}

/// `x` rounded half away from zero, then clamped to `[-max, max]`: the same as
/// `(x.round() as i32).clamp(-max, max)` (tested), with integer steps where the CPU's
/// baseline has no rounding instruction and `round` is a call into the C library. Within
/// `max + 1` the conversion truncates exactly and the fraction `x - t` is exact (`max` is
/// below 2^23); NaN becomes 0, as `as` makes it.
#[inline(always)]
pub fn round_within(x: f32, max: i32) -> i32 {
    debug_assert!((0..1 << 23).contains(&max));
    let bound = (max + 1) as f32;
    let x = x.clamp(-bound, bound);
    let t = x as i32;
    let frac = x - t as f32;
    let r = if frac >= 0.5 {
        t + 1
    } else if frac <= -0.5 {
        t - 1
    } else {
        t
    };
    r.clamp(-max, max)
}

/// Writes a net file of [`HIDDEN`] units from float weights in the file's order (for tests
/// and tools; the trainer writes the same format): version 6 if there are [`WEIGHTS6`] of
/// them, version 8 if [`WEIGHTS8`], else version 1.
#[cfg(any(test, feature = "internals"))]
pub fn file_from_floats(weights: &[f32]) -> Vec<u8> {
    file_of_width(weights, HIDDEN)
}

/// [`file_from_floats`] for `hidden` units.
#[cfg(any(test, feature = "internals"))]
pub fn file_of_width(weights: &[f32], hidden: usize) -> Vec<u8> {
    let format = Format::ALL
        .into_iter()
        .find(|f| weights.len() == (f.bytes(hidden) - 24) / 4)
        .unwrap_or(Format::ALL[0]);
    let rows = format.pairs.rows();
    let mut b = format.magic.to_vec();
    for w in [rows, FEATURES, hidden] {
        b.extend_from_slice(&(w as u32).to_le_bytes());
    }
    for w in weights {
        b.extend_from_slice(&w.to_le_bytes());
    }
    b.extend_from_slice(&TRAILER.to_le_bytes());
    b
}

/// Weights of a version-1 file of [`HIDDEN`] units.
#[cfg(any(test, feature = "internals"))]
pub const WEIGHTS: usize = (FILE_BYTES - 24) / 4;
/// Weights of a version-6 file of [`HIDDEN`] units.
#[cfg(any(test, feature = "internals"))]
pub const WEIGHTS6: usize = (file_bytes(ROWS6, HIDDEN) - 24) / 4 + WINDOW_CODES;

/// Weights of a version-8 file of [`HIDDEN`] units.
#[cfg(any(test, feature = "internals"))]
pub const WEIGHTS8: usize = (file_bytes(ROWS8, HIDDEN) - 24) / 4 + WINDOW_CODES;

/// A version-1 net file of random weights in [-0.5, 0.5) (for tests).
#[cfg(test)]
pub(crate) fn random_net(seed: u64) -> Vec<u8> {
    random_file(seed, WEIGHTS)
}

/// A version-6 net file of random weights in [-0.5, 0.5) (for tests).
#[cfg(test)]
pub(crate) fn random_net6(seed: u64) -> Vec<u8> {
    random_file(seed, WEIGHTS6)
}

/// A version-8 net file of random weights in [-0.5, 0.5) (for tests).
#[cfg(test)]
pub(crate) fn random_net8(seed: u64) -> Vec<u8> {
    random_file(seed, WEIGHTS8)
}

#[cfg(test)]
fn random_file(seed: u64, weights: usize) -> Vec<u8> {
    use rand_xoshiro::rand_core::{RngCore, SeedableRng};
    let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(seed);
    let w: Vec<f32> = (0..weights)
        .map(|_| (rng.next_u32() as f32 / u32::MAX as f32) - 0.5)
        .collect();
    file_from_floats(&w)
}

#[cfg(test)]
mod tests;
