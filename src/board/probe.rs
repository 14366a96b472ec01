//! The counts a move would leave, without making it. Move ordering evaluates every child of
//! a node; a make and undo per child writes and restores per-cell state that the evaluation
//! never reads, where the evaluation needs only the class and pattern counts.

use super::linekeys::KEY_ADD;
use super::{count_packed, Board, PatternCounts};
use crate::pattern::{KEYS3, WINDOW};
use crate::threat::{COMBINED, THREATS};
use crate::types::{Dir, Pos, Rule, CELLS};

impl Board {
    /// Can [`Board::counts_after`] tell the counts of a move? Not under caro, whose patterns
    /// read beyond the table keys.
    #[inline(always)]
    pub fn has_counts_after(&self) -> bool {
        !self.caro
    }

    /// The hash ([`Board::hash`]) that making the empty cell `p` for the side to move would
    /// leave.
    #[inline(always)]
    pub fn hash_after(&self, p: Pos) -> u64 {
        let z = crate::zobrist::keys();
        self.hash ^ z.stone[self.to_move.index()][p.index()] ^ z.side
    }

    /// The class and pattern counts ([`Board::threat_counts`], [`Board::pattern_counts`])
    /// that making the empty cell `p` for the side to move would leave; the board does not
    /// change. Only where [`Board::has_counts_after`].
    pub fn counts_after(&self, p: Pos) -> ([[u16; THREATS]; 2], PatternCounts) {
        debug_assert!(self.has_counts_after() && self.is_empty(p));
        let s = self.to_move.index();
        let c = p.index() & (CELLS - 1);
        let (mut counts, mut pcounts) = (self.counts, self.pcounts);
        for side in 0..2 {
            counts[side][self.threat[c][side] as usize] -= 1;
            count_packed(&mut pcounts[side], self.pat[c][side], u16::MAX);
        }
        // As in `place`: the cells five away keep their freestyle patterns.
        let skip = if self.rule == Rule::Freestyle {
            1 | 1 << 10
        } else {
            0
        };
        let forbid = self.forbid_black() & 1;
        let mut add = [0u32; 16];
        add[..11].copy_from_slice(&KEY_ADD[s]);
        for d in 0..4 {
            let l = self.geo.line[d][c] as usize;
            let i = self.geo.idx[d][c] as u32;
            let occupied = self.lines[0][d][l] | self.lines[1][d][l] | self.geo.wall[d][l];
            // Window bit k is cell k - 5 steps along the line (the centre is the stone).
            let mut empty = !(occupied >> i) & WINDOW & !skip & !(1 << 5);
            let step = Dir::ALL[d].delta();
            let keys = &self.keys[d][l];
            let (shift, keep) = (4 * d as u32, !(15u32 << (4 * d) | 15 << (16 + 4 * d)));
            while empty != 0 {
                let k = empty.trailing_zeros() as usize;
                empty &= empty - 1;
                // The key the stone would leave: its digit added. The slot i + k is at most
                // 31 and k at most 10; the masks only spare the bounds checks.
                let key = keys[(i as usize + k) & 31].wrapping_add(add[k & 15]);
                let q = (c as isize + (k as isize - 5) * step) as usize & (CELLS - 1);
                let (kb, kw) = ((key & 0xFFFF) as usize, (key >> 16) as usize);
                debug_assert!(kb < KEYS3 && kw < KEYS3 && self.tables[0].len() == KEYS3);
                // SAFETY: as in `update_line_keys`: keys of non-caro boards are below KEYS3,
                // the length of their tables.
                let (pb, pw) = unsafe {
                    (
                        *self.tables[0].get_unchecked(kb) as u32,
                        *self.tables[1].get_unchecked(kw) as u32,
                    )
                };
                let [ob, ow] = self.pat[q];
                let old = ob as u32 | (ow as u32) << 16;
                let new = (old & keep) | pb << shift | pw << (16 + shift);
                if new == old {
                    continue;
                }
                let was = self.threat[q];
                let now = [
                    COMBINED[forbid][new as u16 as usize],
                    COMBINED[0][(new >> 16) as usize],
                ];
                let (from, to) = (old >> shift, new >> shift);
                pcounts[0][(from & 15) as usize] -= 1;
                pcounts[0][(to & 15) as usize] += 1;
                pcounts[1][((from >> 16) & 15) as usize] -= 1;
                pcounts[1][((to >> 16) & 15) as usize] += 1;
                for side in 0..2 {
                    counts[side][was[side] as usize] -= 1;
                    counts[side][now[side] as usize] += 1;
                }
            }
        }
        (counts, pcounts)
    }
}
