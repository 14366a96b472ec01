//! The move list: fixed-capacity, with ordering scores; sorted as plain integers, or picked
//! one move at a time by a scan for the least sort word (scalar and AVX2).

use crate::simd::Kernel;
use crate::types::{Pos, MAX_SIZE};

/// Capacity of a move list: every point of the largest board.
pub const MAX_MOVES: usize = MAX_SIZE * MAX_SIZE;

/// A move with an ordering score.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct ScoredMove {
    /// The move.
    pub pos: Pos,
    /// Its ordering score (higher first).
    pub score: i32,
}

impl ScoredMove {
    /// The sort key of [`MoveList::sort`]: one integer (score above, position below,
    /// inverted so that the larger key comes first in both), a single compare instead of two.
    #[inline(always)]
    pub(crate) fn order_key(&self) -> std::cmp::Reverse<i64> {
        std::cmp::Reverse(((self.score as i64) << 16) | (u16::MAX - self.pos.0) as i64)
    }
}

/// A fixed-capacity list of moves: no allocation on the hot path.
#[derive(Clone)]
pub struct MoveList {
    moves: [ScoredMove; MAX_MOVES],
    len: usize,
    /// Scratch for sorting: the moves as plain integers in sort order ([`sort_word`]).
    words: [u64; MAX_MOVES],
}

/// A move as one integer whose ascending order is the order of [`MoveList::sort`] (the
/// [`ScoredMove::order_key`] reversed): primitive sorts beat sorts by a computed key.
#[inline(always)]
fn sort_word(m: &ScoredMove) -> u64 {
    let key = ((m.score as i64) << 16) | (u16::MAX - m.pos.0) as i64;
    !(key as u64 ^ 1 << 63)
}

/// The move of a [`sort_word`].
#[inline(always)]
fn from_sort_word(w: u64) -> ScoredMove {
    let key = (!w ^ 1 << 63) as i64;
    ScoredMove {
        pos: Pos(u16::MAX - key as u16),
        score: (key >> 16) as i32,
    }
}

impl Default for MoveList {
    fn default() -> Self {
        MoveList {
            moves: [ScoredMove::default(); MAX_MOVES],
            len: 0,
            words: [0; MAX_MOVES],
        }
    }
}

impl MoveList {
    /// An empty list.
    pub fn new() -> Self {
        Self::default()
    }
    /// Adds a move (score 0). Panics only beyond `MAX_MOVES`, which a board cannot reach.
    #[inline(always)]
    pub fn push(&mut self, pos: Pos) {
        self.moves[self.len] = ScoredMove { pos, score: 0 };
        self.len += 1;
    }
    /// Number of moves.
    #[inline(always)]
    pub fn len(&self) -> usize {
        self.len
    }
    /// Is the list empty?
    #[inline(always)]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
    /// Empties the list.
    #[inline(always)]
    pub fn clear(&mut self) {
        self.len = 0;
    }
    /// The moves with their scores.
    #[inline(always)]
    pub fn as_slice(&self) -> &[ScoredMove] {
        &self.moves[..self.len]
    }
    /// The moves with their scores, mutable (for scoring and sorting).
    #[inline(always)]
    pub fn as_mut_slice(&mut self) -> &mut [ScoredMove] {
        &mut self.moves[..self.len]
    }
    /// Iterates the scores.
    pub fn iter_scores(&self) -> impl Iterator<Item = i32> + '_ {
        self.as_slice().iter().map(|m| m.score)
    }
    /// Iterates the positions.
    pub fn iter(&self) -> impl Iterator<Item = Pos> + '_ {
        self.as_slice().iter().map(|m| m.pos)
    }
    /// Does the list hold `p`?
    pub fn contains(&self, p: Pos) -> bool {
        self.iter().any(|q| q == p)
    }
    /// Sorts by score, best first; ties by position so the order is total.
    pub fn sort(&mut self) {
        self.sorted(|w| w.sort_unstable());
    }
    /// Applies `op` to the moves as sort words ([`sort_word`]).
    #[inline(always)]
    fn sorted(&mut self, op: impl FnOnce(&mut [u64])) {
        let (moves, words) = (&mut self.moves[..self.len], &mut self.words[..self.len]);
        for (w, m) in words.iter_mut().zip(moves.iter()) {
            *w = sort_word(m);
        }
        op(words);
        for (m, &w) in moves.iter_mut().zip(words.iter()) {
            *m = from_sort_word(w);
        }
    }
    /// Readies [`MoveList::pick`]: the moves as sort words.
    pub fn start_picks(&mut self) {
        for (w, m) in self.words[..self.len]
            .iter_mut()
            .zip(&self.moves[..self.len])
        {
            *w = sort_word(m);
        }
    }
    /// The move at `i` of the [`MoveList::sort`] order, when moves `0..i` were picked before
    /// it (after [`MoveList::start_picks`]): the least sort word from `i` on, swapped to `i`.
    /// A node that searches a few moves scans the list a few times instead of sorting it.
    /// Only the words move: the moves themselves keep their order.
    #[inline]
    pub fn pick(&mut self, i: usize) -> ScoredMove {
        let w = &mut self.words[i..self.len];
        let best = min_index(w);
        w.swap(0, best);
        from_sort_word(w[0])
    }
}

/// The index of the first least word of `w` (not empty), with the best kernel: the move
/// picker's scan ([`MoveList::pick`]).
#[inline(always)]
pub fn min_index(w: &[u64]) -> usize {
    min_index_with(crate::simd::best(), w)
}

/// [`min_index`] with the given kernel.
#[inline(always)]
pub fn min_index_with(kernel: Kernel, w: &[u64]) -> usize {
    match kernel {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: `Avx2` is only returned by `best()` when the CPU has AVX2 (callers that
        // force it in tests check `best()` first).
        Kernel::Avx2 => unsafe { avx2::min_index(w) },
        _ => min_index_scalar(w),
    }
}

/// [`min_index`] a word at a time: the definition the vector path must equal.
#[inline(always)]
pub fn min_index_scalar(w: &[u64]) -> usize {
    let (mut best, mut bw) = (0, w[0]);
    for (j, &x) in w.iter().enumerate().skip(1) {
        let less = x < bw;
        bw = if less { x } else { bw };
        best = if less { j } else { best };
    }
    best
}

#[cfg(target_arch = "x86_64")]
mod avx2 {
    use super::*;
    use std::arch::x86_64::*;

    /// [`super::min_index`]: eight words a step in two pairs of accumulators (the least word
    /// and its index per lane, so each lane keeps its first least; two chains halve the
    /// latency of compare and blend), then the lanes and the last words one at a time.
    /// Unsigned order through the signed compare: every word has its top bit flipped.
    ///
    /// # Safety
    /// The CPU must have AVX2 ([`crate::simd::best`] says so).
    #[target_feature(enable = "avx2")]
    pub unsafe fn min_index(w: &[u64]) -> usize {
        let n = w.len();
        if n < 8 {
            return min_index_scalar(w);
        }
        let sign = _mm256_set1_epi64x(i64::MIN);
        let p = w.as_ptr() as *const __m256i;
        // SAFETY (the loads): chunks k and k + 1 of four words lie below n.
        let load = |k: usize| unsafe { _mm256_xor_si256(_mm256_loadu_si256(p.add(k)), sign) };
        let (mut min_a, mut min_b) = (load(0), load(1));
        let (mut idx_a, mut idx_b) = (
            _mm256_setr_epi64x(0, 1, 2, 3),
            _mm256_setr_epi64x(4, 5, 6, 7),
        );
        let (mut cur_a, mut cur_b) = (idx_a, idx_b);
        let eight = _mm256_set1_epi64x(8);
        let pairs = n / 8;
        for k in 1..pairs {
            cur_a = _mm256_add_epi64(cur_a, eight);
            cur_b = _mm256_add_epi64(cur_b, eight);
            let (x, y) = (load(2 * k), load(2 * k + 1));
            let (lt_a, lt_b) = (_mm256_cmpgt_epi64(min_a, x), _mm256_cmpgt_epi64(min_b, y));
            min_a = _mm256_blendv_epi8(min_a, x, lt_a);
            idx_a = _mm256_blendv_epi8(idx_a, cur_a, lt_a);
            min_b = _mm256_blendv_epi8(min_b, y, lt_b);
            idx_b = _mm256_blendv_epi8(idx_b, cur_b, lt_b);
        }
        let (mut mins, mut idx) = ([0i64; 8], [0i64; 8]);
        // SAFETY: stores into local arrays of eight words.
        unsafe {
            _mm256_storeu_si256(mins.as_mut_ptr() as *mut __m256i, min_a);
            _mm256_storeu_si256(mins.as_mut_ptr().add(4) as *mut __m256i, min_b);
            _mm256_storeu_si256(idx.as_mut_ptr() as *mut __m256i, idx_a);
            _mm256_storeu_si256(idx.as_mut_ptr().add(4) as *mut __m256i, idx_b);
        }
        let (mut best, mut bw) = (idx[0] as usize, mins[0]);
        for l in 1..8 {
            let (x, j) = (mins[l], idx[l] as usize);
            if x < bw || (x == bw && j < best) {
                (best, bw) = (j, x);
            }
        }
        for (j, &x) in w.iter().enumerate().skip(pairs * 8) {
            let x = (x ^ 1 << 63) as i64;
            if x < bw {
                (best, bw) = (j, x);
            }
        }
        best
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand_xoshiro::rand_core::{RngCore, SeedableRng};
    use rand_xoshiro::Xoshiro256PlusPlus;

    /// A list of `n` distinct positions with scores from a small range (many ties).
    fn random_list(rng: &mut Xoshiro256PlusPlus, n: usize) -> MoveList {
        let mut list = MoveList::new();
        let mut cells: Vec<u16> = (0..MAX_MOVES as u16).collect();
        for k in 0..n {
            let j = k + (rng.next_u64() as usize) % (cells.len() - k);
            cells.swap(k, j);
            list.push(Pos(cells[k]));
            list.as_mut_slice()[k].score = (rng.next_u64() % 9) as i32 * 100 - 400;
        }
        list
    }

    #[test]
    fn picks_match_a_full_sort() {
        for round in 0..500 {
            let n = round % 70;
            let full = {
                let mut l = random_list(&mut Xoshiro256PlusPlus::seed_from_u64(round as u64), n);
                l.sort();
                l.as_slice().to_vec()
            };
            let fresh = || random_list(&mut Xoshiro256PlusPlus::seed_from_u64(round as u64), n);
            // pick: one move at a time, in the sort order.
            let mut l = fresh();
            l.start_picks();
            let picked: Vec<ScoredMove> = (0..n).map(|i| l.pick(i)).collect();
            assert_eq!(picked, full, "picks of {n}");
        }
    }
}
