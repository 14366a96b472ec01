//! The pair rows of version-6 nets: which rows of the table a cell adds beyond its four
//! keys, chosen by the two strongest patterns each side would make at the cell.
//!
//! By tables: both sides' pairs of two directions' keys ([`KEY_PAIRS`]), then the pair of
//! two such pairs ([`MERGE`]), each indexed by two bytes: fewer instructions a node than
//! minima and maxima, or than tables packed to the keys and pairs that occur (callgrind).

use super::{KEYS, PAIRS, PATTERNS};

/// Both sides' pairs of the keys `k` and `l` of two directions ([`KEY_PAIRS`]).
#[inline(always)]
pub(super) fn key_pairs(k: u8, l: u8) -> [u8; 2] {
    KEY_PAIRS[k as usize][l as usize]
}

/// The pair of the two strongest patterns of one side's pairs `a` and `b` ([`MERGE`]).
#[inline(always)]
fn merge(a: u8, b: u8) -> usize {
    MERGE[a as usize][b as usize] as usize
}

/// The rows of a cell of keys `keys` in a version-6 net's table (as [`super::Network`]
/// keeps it, with the zero row at [`KEYS`]): for each side, the two strongest of its four
/// patterns `a >= b` give its pair `a (a + 1) / 2 + b`; the side to move's pair `own` gives
/// the row `KEYS + 1 + own`, the other side's pair `other` the row
/// `KEYS + 1 + PAIRS + other`. The keys are those of an empty cell (below [`KEYS`]).
#[inline(always)]
pub fn split_rows(keys: [u8; 4]) -> [usize; 2] {
    split_merge(key_pairs(keys[0], keys[1]), key_pairs(keys[2], keys[3]))
}

/// The rows ([`split_rows`]) of a cell whose directions' keys give the pairs `x`
/// and `y` ([`key_pairs`] of two directions each).
#[inline(always)]
pub(super) fn split_merge(x: [u8; 2], y: [u8; 2]) -> [usize; 2] {
    let [own, other] = merged(x, y);
    [KEYS + 1 + own, KEYS + 1 + PAIRS + other]
}

/// The pairs of both sides (the first side's, then the other's) of a cell whose directions'
/// keys give the pairs `x` and `y` ([`key_pairs`] of two directions each).
#[inline(always)]
pub(super) fn merged(x: [u8; 2], y: [u8; 2]) -> [usize; 2] {
    [merge(x[0], y[0]), merge(x[1], y[1])]
}

/// The pair `a (a + 1) / 2 + b` of two patterns `a >= b`.
const fn pair_index(a: usize, b: usize) -> usize {
    a * (a + 1) / 2 + b
}

/// The pair of the patterns `p` and `q` in either order.
const fn pair_of(p: usize, q: usize) -> usize {
    if p >= q {
        pair_index(p, q)
    } else {
        pair_index(q, p)
    }
}

/// The patterns `(a, b)`, `a >= b`, of each pair.
const PAIR_PATTERNS: [(usize, usize); PAIRS] = {
    let mut t = [(0, 0); PAIRS];
    let mut a = 0;
    while a < PATTERNS {
        let mut b = 0;
        while b <= a {
            t[pair_index(a, b)] = (a, b);
            b += 1;
        }
        a += 1;
    }
    t
};

/// `KEY_PAIRS[k][l]`: for the keys `k` and `l` of two directions, the pair of the side to
/// move's patterns (`k / PATTERNS`, `l / PATTERNS`) and the other side's. Indexed by any two
/// bytes, so that a lookup needs no bounds check (keys from [`KEYS`] up: zero); 128 kB, of
/// which the search reads 41 kB.
static KEY_PAIRS: [[[u8; 2]; 256]; 256] = {
    let mut t = [[[0; 2]; 256]; 256];
    let mut k = 0;
    while k < KEYS {
        let mut l = 0;
        while l < KEYS {
            t[k][l] = [
                pair_of(k / PATTERNS, l / PATTERNS) as u8,
                pair_of(k % PATTERNS, l % PATTERNS) as u8,
            ];
            l += 1;
        }
        k += 1;
    }
    t
};

/// `MERGE[x][y]`: the pair of the two largest of the four patterns of pairs `x` and `y`.
/// Indexed by any two bytes, as [`KEY_PAIRS`] (pairs from [`PAIRS`] up: zero).
static MERGE: [[u8; 256]; 256] = {
    let mut t = [[0; 256]; 256];
    let mut x = 0;
    while x < PAIRS {
        let mut y = 0;
        while y < PAIRS {
            let ((a1, b1), (a2, b2)) = (PAIR_PATTERNS[x], PAIR_PATTERNS[y]);
            // a1 >= b1 and a2 >= b2: the largest is the larger of a1 and a2, the second the
            // larger of the other and the winner's b.
            let (top, other, b) = if a1 >= a2 { (a1, a2, b1) } else { (a2, a1, b2) };
            t[x][y] = pair_index(top, if other >= b { other } else { b }) as u8;
            y += 1;
        }
        x += 1;
    }
    t
};
