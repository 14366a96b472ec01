//! Make and undo: a stone re-grades the empty cells of its four lines, and a per-ply record
//! (the counts before, and the cells changed) takes it back.

use super::*;

#[derive(Clone)]
pub(super) struct UndoRec {
    pos: Pos,
    counts: [[u16; THREATS]; 2],
    pcounts: PatternCounts,
    changed_from: u32,
}

#[derive(Copy, Clone)]
pub(super) struct Changed {
    pos: Pos,
    pat: [u16; 2],
    threat: [Threat; 2],
}

impl Board {
    /// Plays `p` for the side to move. `p` must be an empty point of the board (callers at
    /// the edge check with [`Board::is_empty`]); legality under renju is the caller's concern.
    pub fn make(&mut self, p: Pos) {
        debug_assert!(self.is_empty(p), "make on a non-empty point {p}");
        self.place(p, self.to_move);
        self.stones += 1;
        self.hash ^= zobrist::keys().side;
        self.moves.push(p);
        self.to_move = !self.to_move;
        #[cfg(debug_assertions)]
        self.assert_consistent();
    }

    /// Puts a stone of `s` on the empty point `p` without changing the side to move or the
    /// move list (used by make, and by the forbidden-point test to try a stone). Undone by
    /// [`Board::unplace`].
    pub(crate) fn place(&mut self, p: Pos, s: Color) {
        debug_assert!(self.lean_saved.is_empty(), "a normal make among lean ones");
        let c = p.index();
        self.undo.push(UndoRec {
            pos: p,
            counts: self.counts,
            pcounts: self.pcounts,
            changed_from: self.changed.len() as u32,
        });
        // Room for this record and every re-grade below, so they can skip the capacity check.
        self.changed.reserve(MAX_REGRADED + 1);
        self.changed.push(Changed {
            pos: p,
            pat: self.pat[c],
            threat: self.threat[c],
        });
        for side in 0..2 {
            self.counts[side][self.threat[c][side] as usize] -= 1;
            if self.pcounts_kept {
                count_packed(&mut self.pcounts[side], self.pat[c][side], u16::MAX);
            }
        }
        self.pat[c] = [0; 2];
        self.threat[c] = [Threat::None; 2];
        self.cells[c] = s as u8 + 1;
        self.hash ^= zobrist::keys().stone[s.index()][c];
        self.add_near(c, false);
        // Freestyle patterns never depend on the window's edge cells (a five through the
        // centre spans offsets -4..=4 and longer runs win too; tested over every key in
        // tests/it/table_props.rs): the cells five away keep their patterns.
        let skip = if self.rule == Rule::Freestyle {
            1 | 1 << 10
        } else {
            0
        };
        let forbid = self.forbid_black();
        for d in 0..4 {
            let l = self.geo.line[d][c] as usize;
            let i = self.geo.idx[d][c] as usize;
            self.lines[s.index()][d][l] |= 1 << (i as u32 + MARGIN);
            self.stale[d] |= 1 << l;
            if self.caro {
                self.update_line(p, d, l, i);
            } else {
                self.update_line_keys(c, d, l, i, s, skip, forbid);
            }
        }
    }

    /// The cells the last move changed: its point first, then the empty cells whose
    /// patterns it re-graded (a cell may come more than once). Empty after a pass or before
    /// any move. An incremental evaluation reads them after a make, and again (collected
    /// before) after the undo.
    pub fn last_changed(&self) -> impl Iterator<Item = Pos> + '_ {
        let from = self
            .undo
            .last()
            .map_or(self.changed.len(), |r| r.changed_from as usize);
        self.changed[from..].iter().map(|c| c.pos)
    }

    /// The number of move records: the moves and passes made and not undone (a lean make
    /// keeps none). Record `k` is [`Board::changed_by`]'s.
    #[inline]
    pub fn records(&self) -> usize {
        self.undo.len()
    }

    /// Record `k`'s point (none for a pass) and the cells that move changed, as
    /// [`Board::last_changed`] lists them for the last one. A lazy incremental evaluation
    /// reads the records it has not yet caught up with.
    pub fn changed_by(&self, k: usize) -> (Pos, impl ExactSizeIterator<Item = Pos> + '_) {
        let from = self.undo[k].changed_from as usize;
        let to = self
            .undo
            .get(k + 1)
            .map_or(self.changed.len(), |r| r.changed_from as usize);
        (
            self.undo[k].pos,
            self.changed[from..to].iter().map(|c| c.pos),
        )
    }

    /// Removes the stone of the last [`Board::place`] (or pops a pass record).
    pub(crate) fn unplace(&mut self) -> Pos {
        let rec = self.undo.pop().expect("unplace without a record");
        let p = rec.pos;
        if p.is_none() {
            return p;
        }
        let c = p.index();
        let s = self.cells[c] as usize - 1;
        self.hash ^= zobrist::keys().stone[s][c];
        self.cells[c] = EMPTY;
        for d in 0..4 {
            let l = self.geo.line[d][c] as usize;
            let i = self.geo.idx[d][c] as usize;
            self.lines[s][d][l] &= !(1 << (i as u32 + MARGIN));
            self.stale[d] |= 1 << l;
            if !self.caro {
                self.add_key_digits(d, l, i, &KEY_SUB[s]);
            }
        }
        self.add_near(c, true);
        let from = rec.changed_from as usize;
        for ch in self.changed[from..].iter().rev() {
            // Masked: an on-board cell keeps its index, and the write needs no bounds check.
            let q = ch.pos.index() & (CELLS - 1);
            self.pat[q] = ch.pat;
            self.threat[q] = ch.threat;
        }
        self.changed.truncate(from);
        self.counts = rec.counts;
        self.pcounts = rec.pcounts;
        p
    }

    /// Re-grades the empty cells within five of place `i` on line `l` along `d`.
    #[inline(always)]
    pub(super) fn update_line(&mut self, p: Pos, d: usize, l: usize, i: usize) {
        let len = self.geo.len[d][l] as isize;
        let delta = Dir::ALL[d].delta();
        let (mut lo, mut hi) = (i as isize - 5, i as isize + 5);
        if self.caro_long {
            // A run of one colour next to the stone carries the change further: a cell whose
            // window edge lies on that run sees whether the run is closed.
            let m = i as u32 + MARGIN;
            let (b, w) = (self.lines[0][d][l], self.lines[1][d][l]);
            let up = ((b >> (m + 1)).trailing_ones()).max((w >> (m + 1)).trailing_ones());
            let down = ((b << (32 - m)).leading_ones()).max((w << (32 - m)).leading_ones());
            hi += up as isize;
            lo -= down as isize;
        }
        let (lo, hi) = (lo.max(0), hi.min(len - 1));
        let forbid = self.forbid_black();
        for j in lo..=hi {
            let q = (p.0 as isize + (j - i as isize) * delta) as usize;
            if self.cells[q] != EMPTY {
                continue;
            }
            let ps = self.line_patterns(d, l, j as usize);
            self.set_line_patterns(q, d, ps, forbid);
        }
    }

    /// Adds the eleven words of `delta` to the keys of the window around cell `i` of line `l`.
    #[inline(always)]
    pub(super) fn add_key_digits(&mut self, d: usize, l: usize, i: usize, delta: &[u32; 11]) {
        // Cell i sits on slot i + MARGIN, so its window is slots i..i + 11 (at most 32).
        for (k, &add) in self.keys[d][l][i..i + 11].iter_mut().zip(delta) {
            *k = k.wrapping_add(add);
        }
    }

    /// Non-caro make along one direction (the stone of `s` is already in the line masks):
    /// adds its digit to the keys within five, then re-grades the empty cells there but
    /// those of window bits in `skip`.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    pub(super) fn update_line_keys(
        &mut self,
        c: usize,
        d: usize,
        l: usize,
        i: usize,
        s: Color,
        skip: u32,
        forbid: usize,
    ) {
        self.add_key_digits(d, l, i, &KEY_ADD[s.index()]);
        let occupied = self.lines[0][d][l] | self.lines[1][d][l] | self.geo.wall[d][l];
        let mut empty = !occupied & ((WINDOW & !skip) << i);
        let step = Dir::ALL[d].delta();
        while empty != 0 {
            let slot = empty.trailing_zeros() as usize;
            empty &= empty - 1;
            let key = self.keys[d][l][slot];
            let q = (c as isize + (slot as isize - (i + MARGIN as usize) as isize) * step) as usize;
            let ps = self.key_patterns(key);
            self.set_line_patterns(q, d, ps, forbid);
        }
    }

    /// Both sides' line patterns of a packed non-caro table key (black's in the low half).
    #[inline(always)]
    pub(super) fn key_patterns(&self, key: u32) -> [u8; 2] {
        let (kb, kw) = ((key & 0xFFFF) as usize, (key >> 16) as usize);
        debug_assert!(kb < KEYS3 && kw < KEYS3 && self.tables[0].len() >= KEYS3);
        // SAFETY: a key is ten base-3 digits (own 1, blocked 2), so it is below
        // KEYS3 = 3^10, the keys of every non-caro table; the debug recomputation
        // checks every key against the cells after every make and undo.
        unsafe {
            [
                *self.tables[0].get_unchecked(kb),
                *self.tables[1].get_unchecked(kw),
            ]
        }
    }

    /// Stores both sides' pattern along `d` of the empty cell `q`, recording the old state
    /// and updating classes, counts and pattern scores.
    #[inline(always)]
    pub(super) fn set_line_patterns(&mut self, q: usize, d: usize, ps: [u8; 2], forbid: usize) {
        // q is an on-board cell; masking keeps it and lets the compiler drop bounds checks.
        let q = q & (CELLS - 1);
        let old = self.pat[q];
        let shift = 4 * d;
        let mask = !(15u16 << shift);
        let new = [
            (old[0] & mask) | ((ps[0] as u16) << shift),
            (old[1] & mask) | ((ps[1] as u16) << shift),
        ];
        if new == old {
            return;
        }
        let rec = Changed {
            pos: Pos(q as u16),
            pat: old,
            threat: self.threat[q],
        };
        let len = self.changed.len();
        debug_assert!(len < self.changed.capacity());
        // SAFETY: `place` reserved room for every cell one stone can re-grade (MAX_REGRADED)
        // before calling here, and this is the only writer between that and the next place.
        unsafe {
            self.changed.as_mut_ptr().add(len).write(rec);
            self.changed.set_len(len + 1);
        }
        self.pat[q] = new;
        if self.pcounts_kept {
            for s in 0..2 {
                // `& 15` on both nibbles: the index is in range without a bounds check.
                let (from, to) = ((old[s] >> shift) & 15, ps[s] as u16 & 15);
                self.pcounts[s][from as usize] -= 1;
                self.pcounts[s][to as usize] += 1;
            }
        }
        let t = [
            COMBINED[forbid & 1][new[0] as usize],
            COMBINED[0][new[1] as usize],
        ];
        for s in 0..2 {
            // Most re-grades keep the class. Updating the counts anyway made a chain of
            // increments and decrements of the same few counters, each waiting on the store
            // before it: the branch is 1.6% faster (the bench, 8 runs in turn).
            if t[s] != rec.threat[s] {
                self.counts[s][rec.threat[s] as usize] -= 1;
                self.counts[s][t[s] as usize] += 1;
            }
        }
        self.threat[q] = t;
    }

    /// Passes: the side to move changes, no stone is placed.
    pub fn make_pass(&mut self) {
        self.undo.push(UndoRec {
            pos: Pos::NONE,
            counts: self.counts,
            pcounts: self.pcounts,
            changed_from: self.changed.len() as u32,
        });
        self.hash ^= zobrist::keys().side;
        self.moves.push(Pos::NONE);
        self.to_move = !self.to_move;
    }

    /// Takes back the last move (or pass). Returns it, or `None` at the start.
    pub fn undo(&mut self) -> Option<Pos> {
        self.moves.pop()?;
        self.to_move = !self.to_move;
        self.hash ^= zobrist::keys().side;
        let p = self.unplace();
        self.stones -= !p.is_none() as usize;
        #[cfg(debug_assertions)]
        self.assert_consistent();
        Some(p)
    }

    pub(super) fn undo_n(&mut self, n: usize) {
        for _ in 0..n {
            self.undo();
        }
    }
}
