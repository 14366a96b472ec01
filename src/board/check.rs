//! The debug recomputation: every piece of incremental board state rebuilt from the cell
//! array alone (windows read cell by cell, not from the line masks) and compared.

use super::{Board, EMPTY, NEAR_BASE};
use crate::geometry::MARGIN;
use crate::pattern::{self, Window};
use crate::threat::{Threat, THREATS};
use crate::types::{Color, Dir, Pos, CELLS};
use crate::zobrist;

impl Board {
    /// Checks every piece of incremental state against a recomputation from the cells.
    /// Debug builds call it after every make and undo.
    pub fn assert_consistent(&self) {
        let z = zobrist::keys();
        let mut fresh = Board {
            lines: [[[0; crate::geometry::LINES]; 4]; 2],
            near: [0; CELLS + 2 * NEAR_BASE],
            hash: if self.to_move == Color::White {
                z.side
            } else {
                0
            },
            ..self.clone()
        };
        for &p in &self.geo.centre_out {
            if let Some(col) = self.stone(p) {
                let c = p.index();
                fresh.hash ^= z.stone[col.index()][c];
                for d in 0..4 {
                    let l = self.geo.line[d][c] as usize;
                    fresh.lines[col.index()][d][l] |= 1 << (self.geo.idx[d][c] as u32 + MARGIN);
                }
                for &o in &self.neigh {
                    fresh.near[((c + NEAR_BASE) as isize + o) as usize] += 1;
                }
            }
        }
        // Patterns are recomputed from windows read off the cell array, not the line masks.
        fresh.rebuild_patterns_from_cells();
        assert!(self.lines == fresh.lines, "line masks diverged");
        assert_eq!(self.hash, fresh.hash, "hash diverged");
        let stones = self.moves.iter().filter(|p| !p.is_none()).count();
        assert_eq!(self.stones, stones, "stone count diverged");
        for &p in &self.geo.centre_out {
            let c = p.index();
            assert_eq!(
                self.near[c + NEAR_BASE],
                fresh.near[c + NEAR_BASE],
                "near {p}"
            );
            assert_eq!(self.pat[c], fresh.pat[c], "patterns of {p}");
            for d in 0..4 {
                let slot = self.geo.idx[d][c] as usize + MARGIN as usize;
                let l = self.geo.line[d][c] as usize;
                let ok = self.caro || self.keys[d][l][slot] == fresh.keys[d][l][slot];
                assert!(ok, "table keys of {p} along {d}");
            }
            assert_eq!(self.threat[c], fresh.threat[c], "threat of {p}");
        }
        assert_eq!(self.counts, fresh.counts, "threat counts diverged");
        if self.pcounts_kept {
            assert_eq!(self.pcounts, fresh.pcounts, "pattern counts diverged");
        }
        self.assert_lean_masks();
    }

    /// The lean masks: every line that is not stale holds what its line masks give, and
    /// under every lean rule those masks agree with the classes (recomputed from the cells
    /// above): five points are the cells of class five, four cells those of class four and
    /// up (renju's black forbidden points aside).
    fn assert_lean_masks(&self) {
        let mut fresh = self.clone();
        for d in 0..4 {
            for l in 0..crate::geometry::LINES {
                fresh.refresh_lean_line(d, l);
            }
        }
        for d in 0..4 {
            for l in 0..crate::geometry::LINES {
                for s in 0..2 {
                    // The line sets list exactly the lines whose masks are not zero.
                    assert_eq!(
                        (
                            self.five_lines[s][d] >> l & 1,
                            self.four_lines[s][d] >> l & 1
                        ),
                        (
                            (self.five_mask[s][d][l] != 0) as u64,
                            (self.four_mask[s][d][l] != 0) as u64
                        ),
                        "line sets"
                    );
                }
                if self.stale[d] >> l & 1 == 0 {
                    for s in 0..2 {
                        assert_eq!(
                            self.five_mask[s][d][l], fresh.five_mask[s][d][l],
                            "five mask"
                        );
                        assert_eq!(
                            self.four_mask[s][d][l], fresh.four_mask[s][d][l],
                            "four mask"
                        );
                    }
                }
            }
        }
        if !self.lean_rule() {
            return;
        }
        for &p in &self.geo.centre_out {
            if self.cells[p.index()] != EMPTY {
                continue;
            }
            for side in Color::ALL {
                let (mut five, mut four) = (false, false);
                for d in 0..4 {
                    let l = self.geo.line[d][p.index()] as usize;
                    let bit = 1 << (self.geo.idx[d][p.index()] as u32 + MARGIN);
                    five |= fresh.five_mask[side.index()][d][l] & bit != 0;
                    four |= fresh.four_mask[side.index()][d][l] & bit != 0;
                }
                let t = self.threat(p, side);
                assert_eq!(five, t == Threat::Five, "five mask of {p} for {side}");
                // A forbidden point of renju's black may hold a four in its mask: the class
                // says forbidden and no more.
                if t != Threat::Forbidden {
                    assert_eq!(four, t.is_four(), "four mask of {p} for {side} ({t:?})");
                }
            }
        }
    }

    /// Both sides' packed line patterns of the empty cell `p`, from windows read off the
    /// cell array.
    pub(super) fn cell_patterns_from_cells(&self, p: Pos) -> [u16; 2] {
        let mut packed = [0u16; 2];
        for d in Dir::ALL {
            for side in Color::ALL {
                let w = self.cell_window(p, d, side);
                let pt = pattern::lookup(self.tables[side.index()], w, self.caro);
                packed[side.index()] |= (pt as u16) << (4 * d as usize);
            }
        }
        packed
    }

    fn cell_window(&self, p: Pos, d: Dir, side: Color) -> Window {
        let mut w = Window {
            own: 0,
            opp: 0,
            wall: 0,
        };
        for k in -5isize..=5 {
            let bit = 1u32 << (k + 5);
            match self.geo.step(p, d, k) {
                None => w.wall |= bit,
                Some(q) => match self.stone(q) {
                    Some(c) if c == side => w.own |= bit,
                    Some(_) => w.opp |= bit,
                    None => {}
                },
            }
        }
        w.own &= !(1 << 5);
        if self.caro_long {
            // An own run through the window's edge cell that an opponent stone closes beyond
            // the window counts as closed at the edge (see `caro_edges`).
            for (edge, dir) in [(-5isize, -1isize), (5, 1)] {
                if w.own & (1 << (edge + 5)) == 0 {
                    continue;
                }
                let mut k = edge;
                while self.geo.step(p, d, k).and_then(|q| self.stone(q)) == Some(side) {
                    k += dir;
                }
                if self.geo.step(p, d, k).and_then(|q| self.stone(q)) == Some(!side) {
                    w.own &= !(1 << (edge + 5));
                    w.opp |= 1 << (edge + 5);
                }
            }
        }
        w
    }

    fn rebuild_patterns_from_cells(&mut self) {
        self.counts = [[0; THREATS]; 2];
        self.pcounts = [[0; 16]; 2];
        for &p in &self.geo.centre_out {
            let c = p.index();
            let mut packed = [0u16; 2];
            for d in Dir::ALL {
                for side in Color::ALL {
                    let w = self.cell_window(p, d, side);
                    let slot = &mut self.keys[d as usize][self.geo.line[d as usize][c] as usize]
                        [self.geo.idx[d as usize][c] as usize + MARGIN as usize];
                    let half = 16 * side.index() as u32;
                    *slot = (*slot & !(0xFFFF << half)) | (w.key3() as u32) << half;
                    let pt = pattern::lookup(self.tables[side.index()], w, self.caro);
                    packed[side.index()] |= (pt as u16) << (4 * d as usize);
                }
            }
            if self.cells[c] != EMPTY {
                self.pat[c] = [0; 2];
                self.threat[c] = [Threat::None; 2];
                continue;
            }
            self.store_fresh_cell(c, packed);
        }
    }
}
