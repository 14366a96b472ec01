//! Layer 2c: the board. Stones are kept as per-direction line bitmasks; per empty cell and
//! side the board keeps the four line patterns and their combined threat class, and per side
//! the count of empty cells in each class, all updated incrementally by make and undone from
//! a per-ply record.

use crate::geometry::{Geometry, LINES, MARGIN};
use crate::pattern::{self, LineRule, Pattern, Window, KEYS3, POW3, WINDOW};
use crate::threat::{nibble, Threat, COMBINED, THREATS};
use crate::types::{Color, Dir, Pos, Rule, CELLS, STRIDE};
use crate::zobrist;
use linekeys::{caro_edges, caro_key, KEY_ADD, KEY_SUB};

mod check;
mod lean;
mod linekeys;
mod probe;

pub use lean::{line_threats_x8, line_threats_x8_scalar, line_threats_x8_with};
pub use probe::{After, CountWeights};

/// Per side, how many (empty cell, direction) pairs hold each line pattern.
pub type PatternCounts = [[u16; 16]; 2];

/// Adds `delta` to the count of each of the four line patterns packed in `packed`.
#[inline(always)]
fn count_packed(counts: &mut [u16; 16], packed: u16, delta: u16) {
    for d in 0..4 {
        let p = ((packed >> (4 * d)) & 15) as usize;
        counts[p] = counts[p].wrapping_add(delta);
    }
}

/// Most cells one stone can re-grade: every cell of its four lines (caro overlines can carry
/// a change beyond five cells).
const MAX_REGRADED: usize = 4 * crate::types::MAX_SIZE;

/// Content of a cell.
pub const EMPTY: u8 = 0;
const OFF: u8 = 3;

/// Padding of the neighbour-count array: offsets up to three cells from any on-board cell
/// land inside it, so the update loop needs no bounds checks.
const NEAR_BASE: usize = 3 * STRIDE + 3;

/// The neighbourhood that makes an empty cell a move candidate.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Neighbourhood {
    /// Every cell within this Chebyshev distance of a stone.
    pub square: u8,
    /// Cells along the four lines of a stone up to this distance.
    pub line: u8,
}

impl Default for Neighbourhood {
    fn default() -> Self {
        Neighbourhood { square: 2, line: 3 }
    }
}

impl Neighbourhood {
    fn row_masks(self) -> [u64; 7] {
        let mut rows = [0u64; 7];
        for o in self.offsets() {
            // o = dy * STRIDE + dx with |dx|, |dy| <= 3.
            let shifted = (o + NEAR_BASE as isize) as usize;
            rows[shifted / STRIDE] |= 1 << (8 * (shifted % STRIDE));
        }
        rows
    }

    fn offsets(self) -> Vec<isize> {
        let r = self.square.min(3) as isize;
        let l = self.line.min(3) as isize;
        let mut v = Vec::new();
        for dy in -3isize..=3 {
            for dx in -3isize..=3 {
                if dx == 0 && dy == 0 {
                    continue;
                }
                let sq = dx.abs().max(dy.abs()) <= r;
                let on_line = dx == 0 || dy == 0 || dx.abs() == dy.abs();
                if sq || (on_line && dx.abs().max(dy.abs()) <= l) {
                    v.push(dy * STRIDE as isize + dx);
                }
            }
        }
        v
    }
}

#[derive(Clone)]
struct UndoRec {
    pos: Pos,
    counts: [[u16; THREATS]; 2],
    pcounts: PatternCounts,
    changed_from: u32,
}

#[derive(Copy, Clone)]
struct Changed {
    pos: Pos,
    pat: [u16; 2],
    threat: [Threat; 2],
}

/// A position with its incremental pattern state.
#[derive(Clone)]
pub struct Board {
    size: usize,
    rule: Rule,
    geo: &'static Geometry,
    cells: [u8; CELLS],
    /// `lines[colour][dir][line]`: bit `MARGIN + i` set when cell `i` of the line holds a stone.
    lines: [[[u32; crate::geometry::LINES]; 4]; 2],
    /// `keys[dir][line][MARGIN + i]`: the base-3 table keys of the window of cell `i` of the
    /// line, black's in the low half, white's in the high half, kept when the rule is not
    /// caro. A stone changes one digit of each key within five of it, so make adds eleven
    /// constants to eleven neighbouring words instead of reading windows off the line masks.
    /// Margin slots take the adds too and are never read.
    keys: [[[u32; 32]; crate::geometry::LINES]; 4],
    /// `pat[cell][side]`: the four line patterns, a nibble per direction (0 when occupied).
    pat: [[u16; 2]; CELLS],
    threat: [[Threat; 2]; CELLS],
    counts: [[u16; THREATS]; 2],
    /// Per side, the count of each line pattern over every empty cell and direction.
    pcounts: PatternCounts,
    near: [u8; CELLS + 2 * NEAR_BASE],
    neigh: Vec<isize>,
    /// The same neighbourhood as eight-byte masks, one per row `dy = -3..=3`: byte `dx + 3`
    /// is 1 for each offset. Make adds each to the eight `near` bytes from `dx = -3`.
    neigh_rows: [u64; 7],
    hash: u64,
    /// Stones on the board (the move list less its passes).
    stones: usize,
    to_move: Color,
    moves: Vec<Pos>,
    undo: Vec<UndoRec>,
    changed: Vec<Changed>,
    tables: [&'static [u8]; 2],
    caro: bool,
    /// Caro without the exact-five condition: a run of six or more can leave the eleven-cell
    /// window, and whether an opponent stone closes it beyond the window decides a five.
    caro_long: bool,
    /// Lean-make masks ([`lean`]), `[side][dir][line]`: the empty cells that make a five,
    /// and those that may make a four.
    five_mask: [[[u32; LINES]; 4]; 2],
    four_mask: [[[u32; LINES]; 4]; 2],
    /// Per side and direction, the lines whose five (four) mask is not zero.
    five_lines: [[u64; 4]; 2],
    four_lines: [[u64; 4]; 2],
    /// Per direction, the lines whose lean masks are out of date (a normal make touched them).
    stale: [u64; 4],
    /// Per lean make not yet undone (one entry each), what its undo restores.
    lean_saved: Vec<LeanSaved>,
}

/// The lean state a lean make changes, saved for its undo: the five and four masks of the
/// four lines through the stone (`[dir][side]`). The undo sets the lines' bits in the line
/// sets from them, instead of copying back 128 bytes of line sets that the make had just
/// written eight bytes at a time (a store-forwarding stall: 2.2% of a search's time).
#[derive(Copy, Clone)]
struct LeanSaved {
    masks: [[(u32, u32); 2]; 4],
}

impl Board {
    /// An empty board of side `size` (5..=22) under `rule`, default neighbourhood.
    pub fn new(size: usize, rule: Rule) -> Board {
        Board::with_neighbourhood(size, rule, Neighbourhood::default())
    }

    /// An empty board with a chosen candidate neighbourhood.
    pub fn with_neighbourhood(size: usize, rule: Rule, nb: Neighbourhood) -> Board {
        let geo = Geometry::of(size);
        let mut b = Board {
            size,
            rule,
            geo,
            cells: [OFF; CELLS],
            lines: [[[0; crate::geometry::LINES]; 4]; 2],
            keys: [[[0; 32]; crate::geometry::LINES]; 4],
            pat: [[0; 2]; CELLS],
            threat: [[Threat::None; 2]; CELLS],
            counts: [[0; THREATS]; 2],
            pcounts: [[0; 16]; 2],
            near: [0; CELLS + 2 * NEAR_BASE],
            neigh: nb.offsets(),
            neigh_rows: nb.row_masks(),
            hash: 0,
            stones: 0,
            to_move: Color::Black,
            moves: Vec::with_capacity(size * size),
            undo: Vec::with_capacity(size * size + 8),
            changed: Vec::with_capacity(41 * (size * size + 8)),
            tables: [
                pattern::table(LineRule::of(rule, Color::Black)),
                pattern::table(LineRule::of(rule, Color::White)),
            ],
            caro: matches!(rule, Rule::Caro { .. }),
            caro_long: rule == Rule::Caro { exact: false },
            five_mask: [[[0; LINES]; 4]; 2],
            four_mask: [[[0; LINES]; 4]; 2],
            five_lines: [[0; 4]; 2],
            four_lines: [[0; 4]; 2],
            stale: [0; 4],
            lean_saved: Vec::with_capacity(size * size),
        };
        for &p in &geo.centre_out {
            b.cells[p.index()] = EMPTY;
        }
        b.rebuild_patterns();
        b
    }

    /// Board side.
    #[inline(always)]
    pub fn size(&self) -> usize {
        self.size
    }
    /// The rule.
    #[inline(always)]
    pub fn rule(&self) -> Rule {
        self.rule
    }
    /// The side to move.
    #[inline(always)]
    pub fn to_move(&self) -> Color {
        self.to_move
    }
    /// The Zobrist hash (stones and side to move).
    #[inline(always)]
    pub fn hash(&self) -> u64 {
        self.hash
    }
    /// Moves played so far (`Pos::NONE` for a pass).
    pub fn moves(&self) -> &[Pos] {
        &self.moves
    }
    /// Number of moves played (passes included).
    #[inline(always)]
    pub fn ply(&self) -> usize {
        self.moves.len()
    }
    /// The last move, or `Pos::NONE`.
    pub fn last_move(&self) -> Pos {
        self.moves.last().copied().unwrap_or(Pos::NONE)
    }
    /// The geometry of the board's size.
    #[inline(always)]
    pub fn geometry(&self) -> &'static Geometry {
        self.geo
    }
    /// Every on-board cell, centre-out.
    pub fn cells(&self) -> &'static [Pos] {
        &self.geo.centre_out
    }
    /// Stones on the board.
    pub fn stone_count(&self) -> usize {
        self.stones
    }

    /// The stone on `p`, if any (`None` also off the board).
    #[inline(always)]
    pub fn stone(&self, p: Pos) -> Option<Color> {
        match self.cells.get(p.index()) {
            Some(1) => Some(Color::Black),
            Some(2) => Some(Color::White),
            _ => None,
        }
    }
    /// Is `p` an empty point of the board?
    #[inline(always)]
    pub fn is_empty(&self, p: Pos) -> bool {
        self.cells.get(p.index()) == Some(&EMPTY)
    }
    /// Is there a stone within the candidate neighbourhood of `p`?
    #[inline(always)]
    pub fn is_near(&self, p: Pos) -> bool {
        self.near[p.index() + NEAR_BASE] != 0
    }
    /// The candidate cells of row `y` (`y < size`): bit `x` set when `(x, y)` is empty and
    /// near a stone ([`Board::is_near`]). With AVX2 where the CPU has it
    /// ([`crate::simd::best`]); [`Board::candidate_row_scalar`] is the definition.
    #[inline(always)]
    pub fn candidate_row(&self, y: usize) -> u32 {
        #[cfg(target_arch = "x86_64")]
        if crate::simd::best() == crate::simd::Kernel::Avx2 && y < self.size {
            // SAFETY: the CPU has AVX2, and row y < size <= STRIDE lies inside both arrays.
            return unsafe { self.candidate_row_avx2(y) };
        }
        self.candidate_row_scalar(y)
    }
    /// [`Board::candidate_row`] a cell at a time.
    pub fn candidate_row_scalar(&self, y: usize) -> u32 {
        let mut m = 0;
        for x in 0..self.size.min(STRIDE) {
            let p = Pos::new(x, y);
            if self.is_empty(p) && self.is_near(p) {
                m |= 1 << x;
            }
        }
        m
    }
    /// [`Board::candidate_row`] as one 32-byte compare of the row's cells and `near` bytes
    /// (cells off the board hold `OFF`, never `EMPTY`).
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    unsafe fn candidate_row_avx2(&self, y: usize) -> u32 {
        use std::arch::x86_64::*;
        let at = y * STRIDE;
        debug_assert!(at + STRIDE <= CELLS && EMPTY == 0);
        // SAFETY: at + 32 <= CELLS bytes of `cells`, and of `near` from at + NEAR_BASE
        // (its length is CELLS + 2 * NEAR_BASE).
        let (cells, near) = unsafe {
            (
                _mm256_loadu_si256(self.cells.as_ptr().add(at) as *const __m256i),
                _mm256_loadu_si256(self.near.as_ptr().add(at + NEAR_BASE) as *const __m256i),
            )
        };
        let zero = _mm256_setzero_si256();
        let empty = _mm256_cmpeq_epi8(cells, zero);
        let far = _mm256_cmpeq_epi8(near, zero);
        _mm256_movemask_epi8(_mm256_andnot_si256(far, empty)) as u32
    }
    /// The pattern `side` makes along `d` by playing the empty cell `p`.
    #[inline(always)]
    pub fn pattern(&self, p: Pos, side: Color, d: Dir) -> Pattern {
        nibble(self.pat[p.index()][side.index()], d as usize)
    }
    /// In how many directions `side` makes an open three by playing the empty cell `p`.
    #[inline]
    pub fn open_threes(&self, p: Pos, side: Color) -> usize {
        Dir::ALL
            .iter()
            .filter(|&&d| self.pattern(p, side, d) == Pattern::F3)
            .count()
    }
    /// The combined class of what `side` makes by playing `p` (`None` on occupied cells).
    #[inline(always)]
    pub fn threat(&self, p: Pos, side: Color) -> Threat {
        self.threat[p.index()][side.index()]
    }
    /// How many empty cells give `side` the class `t`.
    #[inline(always)]
    pub fn count(&self, side: Color, t: Threat) -> u16 {
        self.counts[side.index()][t as usize]
    }
    /// How many empty cells give `side` a class at least `t`.
    pub fn count_at_least(&self, side: Color, t: Threat) -> u32 {
        self.counts[side.index()][t as usize..]
            .iter()
            .map(|&c| c as u32)
            .sum()
    }
    /// Per side, how many (empty cell, direction) pairs hold each line pattern (indexed by
    /// discriminant): the evaluation's pattern term, maintained incrementally.
    #[inline(always)]
    pub fn pattern_counts(&self) -> &PatternCounts {
        &self.pcounts
    }
    /// Per cell, both sides' packed line patterns (a nibble per direction), indexed by
    /// `Pos::index()`: the raw plane the SIMD move-scoring kernel gathers from.
    #[inline(always)]
    pub fn pattern_plane(&self) -> &[[u16; 2]; CELLS] {
        &self.pat
    }
    /// Per cell, both sides' threat classes, indexed by `Pos::index()` (SIMD kernels).
    #[inline(always)]
    pub fn threat_plane(&self) -> &[[Threat; 2]; CELLS] {
        &self.threat
    }
    /// Per side, the count of empty cells in each threat class (SIMD evaluation).
    #[inline(always)]
    pub fn threat_counts(&self) -> &[[u16; THREATS]; 2] {
        &self.counts
    }
    /// Would `side` playing `p` make a winning five?
    #[inline(always)]
    pub fn makes_five(&self, p: Pos, side: Color) -> bool {
        self.threat(p, side) == Threat::Five
    }

    #[inline(always)]
    fn window_bits(&self, d: usize, l: usize, i: usize) -> (u32, u32, u32) {
        let shift = i as u32;
        (
            (self.lines[0][d][l] >> shift) & WINDOW,
            (self.lines[1][d][l] >> shift) & WINDOW,
            (self.geo.wall[d][l] >> shift) & WINDOW,
        )
    }

    /// The line window of `p` along `d` as seen by `side`.
    pub fn window(&self, p: Pos, d: Dir, side: Color) -> Window {
        let di = d as usize;
        let l = self.geo.line[di][p.index()] as usize;
        let i = self.geo.idx[di][p.index()] as usize;
        let (b, w, wall) = self.window_bits(di, l, i);
        let (own, opp) = if side == Color::Black { (b, w) } else { (w, b) };
        Window { own, opp, wall }
    }

    /// Both sides' patterns of the cell at place `i` of line `l` along `d`.
    #[inline(always)]
    fn line_patterns(&self, d: usize, l: usize, i: usize) -> [u8; 2] {
        let (b, w, wall) = self.window_bits(d, l, i);
        if self.caro {
            let (mut bb, mut bw, mut ww, mut wb) = (b, w, w, b);
            if self.caro_long {
                // Each side sees its own closed edge runs as opponent stones.
                let (lb, lw) = (self.lines[0][d][l], self.lines[1][d][l]);
                (bb, bw) = caro_edges(lb, lw, i, b, w);
                (ww, wb) = caro_edges(lw, lb, i, w, b);
            }
            [
                self.tables[0][caro_key(bb, bw, wall)],
                self.tables[1][caro_key(ww, wb, wall)],
            ]
        } else {
            let tb = POW3[pattern::outer(b) as usize] as usize;
            let tw = POW3[pattern::outer(w) as usize] as usize;
            let tl = POW3[pattern::outer(wall) as usize] as usize;
            [
                self.tables[0][tb + 2 * (tw + tl)],
                self.tables[1][tw + 2 * (tb + tl)],
            ]
        }
    }

    #[inline(always)]
    fn forbid_black(&self) -> usize {
        self.rule.has_forbidden() as usize
    }

    /// Recomputes every pattern, class and count from the line masks.
    fn rebuild_patterns(&mut self) {
        self.stale = [(1 << LINES) - 1; 4];
        self.counts = [[0; THREATS]; 2];
        self.pcounts = [[0; 16]; 2];
        for &p in &self.geo.centre_out {
            let c = p.index();
            for d in 0..4 {
                let l = self.geo.line[d][c] as usize;
                let i = self.geo.idx[d][c] as usize;
                let (b, w, wall) = self.window_bits(d, l, i);
                let key = |own: u32, blocked: u32| {
                    POW3[pattern::outer(own) as usize] as u32
                        + 2 * POW3[pattern::outer(blocked) as usize] as u32
                };
                self.keys[d][l][i + MARGIN as usize] = key(b, w | wall) | key(w, b | wall) << 16;
            }
            if self.cells[c] != EMPTY {
                self.pat[c] = [0; 2];
                self.threat[c] = [Threat::None; 2];
                continue;
            }
            let mut packed = [0u16; 2];
            for d in 0..4 {
                let l = self.geo.line[d][c] as usize;
                let i = self.geo.idx[d][c] as usize;
                let ps = self.line_patterns(d, l, i);
                packed[0] |= (ps[0] as u16) << (4 * d);
                packed[1] |= (ps[1] as u16) << (4 * d);
            }
            self.store_fresh_cell(c, packed);
        }
    }

    /// Stores a freshly computed cell (both sides' packed patterns) and adds it to the class
    /// counts and pattern scores: the shared last step of the from-scratch rebuilds.
    pub(super) fn store_fresh_cell(&mut self, c: usize, packed: [u16; 2]) {
        self.pat[c] = packed;
        self.threat[c] = [
            COMBINED[self.forbid_black()][packed[0] as usize],
            COMBINED[0][packed[1] as usize],
        ];
        for s in 0..2 {
            self.counts[s][self.threat[c][s] as usize] += 1;
            count_packed(&mut self.pcounts[s], packed[s], 1);
        }
    }

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
            count_packed(&mut self.pcounts[side], self.pat[c][side], u16::MAX);
        }
        self.pat[c] = [0; 2];
        self.threat[c] = [Threat::None; 2];
        self.cells[c] = s as u8 + 1;
        self.hash ^= zobrist::keys().stone[s.index()][c];
        self.add_near(c, false);
        // Freestyle patterns never depend on the window's edge cells (a five through the
        // centre spans offsets -4..=4 and longer runs win too; tested over every key in
        // tests/table_props.rs): the cells five away keep their patterns.
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

    /// Counts (or uncounts) a stone on `c` in the `near` bytes of its neighbourhood, a row
    /// of eight bytes at a time: 7 word adds instead of 32 byte adds (no byte carries over,
    /// a count never passes the 32 offsets).
    #[inline(always)]
    fn add_near(&mut self, c: usize, remove: bool) {
        for (r, &mask) in self.neigh_rows.iter().enumerate() {
            // Row r holds dy = r - 3; its first byte is dx = -3, at c + NEAR_BASE + (r-3) *
            // STRIDE - 3 >= c.
            let at = c + r * STRIDE;
            let bytes: &mut [u8; 8] = (&mut self.near[at..at + 8]).try_into().unwrap();
            let v = u64::from_le_bytes(*bytes);
            *bytes = if remove { v - mask } else { v + mask }.to_le_bytes();
        }
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
    fn update_line(&mut self, p: Pos, d: usize, l: usize, i: usize) {
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
    fn add_key_digits(&mut self, d: usize, l: usize, i: usize, delta: &[u32; 11]) {
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
    fn update_line_keys(
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
    fn key_patterns(&self, key: u32) -> [u8; 2] {
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
    fn set_line_patterns(&mut self, q: usize, d: usize, ps: [u8; 2], forbid: usize) {
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
        for s in 0..2 {
            // `& 15` on both nibbles: the index is in range without a bounds check.
            let (from, to) = ((old[s] >> shift) & 15, ps[s] as u16 & 15);
            self.pcounts[s][from as usize] -= 1;
            self.pcounts[s][to as usize] += 1;
        }
        let t = [
            COMBINED[forbid & 1][new[0] as usize],
            COMBINED[0][new[1] as usize],
        ];
        for s in 0..2 {
            // Unconditional: when the class stays, the two updates cancel (no branch to
            // mispredict).
            self.counts[s][rec.threat[s] as usize] -= 1;
            self.counts[s][t[s] as usize] += 1;
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

    /// Plays a move list from the empty board (black first; `Pos::NONE` passes). Fails on an
    /// off-board or occupied point, leaving the board as it was.
    pub fn play_all(&mut self, moves: &[Pos]) -> Result<(), String> {
        for (k, &m) in moves.iter().enumerate() {
            if m.is_none() {
                self.make_pass();
            } else if !m.on_board(self.size) {
                self.undo_n(k);
                return Err(format!("move {} ({m}) is off the board", k + 1));
            } else if !self.is_empty(m) {
                self.undo_n(k);
                return Err(format!("move {} ({m}) is on an occupied point", k + 1));
            } else {
                self.make(m);
            }
        }
        Ok(())
    }

    fn undo_n(&mut self, n: usize) {
        for _ in 0..n {
            self.undo();
        }
    }
}
