//! Layer 2c: the board. Stones are kept as per-direction line bitmasks; per empty cell and
//! side the board keeps the four line patterns and their combined threat class, and per side
//! the count of empty cells in each class, all updated incrementally by make and undone from
//! a per-ply record.

use crate::geometry::{Geometry, LINES, MARGIN};
use crate::pattern::{self, LineRule, Pattern, Window, KEYS3, POW3, WINDOW};
use crate::threat::{nibble, Threat, COMBINED, THREATS};
use crate::types::{Color, Dir, Pos, Rule, CELLS};
use crate::zobrist;
use linekeys::{caro_edges, caro_key, table_key, KEY_ADD, KEY_SUB};

mod check;
mod five;
mod forbidden;
mod lean;
mod linekeys;
mod make;
mod near;
mod probe;

// The lean make's kernels, for the tests and benches that hold them to their scalar twin.
pub use forbidden::CellSet;
#[cfg(feature = "internals")]
pub use lean::{line_threats_x8, line_threats_x8_scalar, line_threats_x8_with};
use make::{Changed, UndoRec};
pub use near::Neighbourhood;
use near::NEAR_BASE;
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

/// Codes of [`Board::window_code`]: eight cells of three states.
pub const WINDOW_CODES: usize = 6561;

/// Content of a cell.
pub const EMPTY: u8 = 0;
const OFF: u8 = 3;

/// Why [`Board::play_all`] refused a move list.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MoveListError {
    /// A move off the board.
    #[error("move {number} ({point}) is off the board")]
    OffBoard {
        /// The move's number in the list, from 1.
        number: usize,
        /// The move.
        point: Pos,
    },
    /// A stone on a point that already holds one.
    #[error("move {number} ({point}) is on an occupied point")]
    Occupied {
        /// The move's number in the list, from 1.
        number: usize,
        /// The move.
        point: Pos,
    },
}

// Front ends that report errors as text take these with `?`.
impl From<MoveListError> for String {
    fn from(e: MoveListError) -> String {
        e.to_string()
    }
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
    /// Per side, the count of each line pattern over every empty cell and direction
    /// (kept up to date only while `pcounts_kept`).
    pcounts: PatternCounts,
    /// Do make and undo keep `pcounts`? ([`Board::keep_pattern_counts`])
    pcounts_kept: bool,
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
            pcounts_kept: true,
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
        debug_assert!(self.pcounts_kept, "pattern counts read while not kept");
        &self.pcounts
    }

    /// Whether make and undo keep [`Board::pattern_counts`] up to date (they do unless told
    /// otherwise). Only the classical evaluation reads those counts: a search with the
    /// learned evaluation turns them off, which spares 2.8% of its instructions (the bench
    /// at depth 10 under callgrind). Turning them back on counts them afresh.
    pub fn keep_pattern_counts(&mut self, keep: bool) {
        if keep && !self.pcounts_kept {
            self.pcounts = [[0; 16]; 2];
            for &p in &self.geo.centre_out {
                let c = p.index();
                if self.cells[c] == EMPTY {
                    for s in 0..2 {
                        count_packed(&mut self.pcounts[s], self.pat[c][s], 1);
                    }
                }
            }
        }
        self.pcounts_kept = keep;
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

    /// The base-3 code (0 to [`WINDOW_CODES`] - 1) of the eight cells within four steps of
    /// `p` along `d`, as `side` sees them: digit `k` (place value `3^k`) is the cell
    /// `k - 4` steps along `d` for `k < 4` and `k - 3` steps for `k >= 4`, 0 when it is
    /// empty, 1 when it holds a stone of `side`, 2 when it holds the other side's or is off
    /// the board. The cell `p` itself is not in it. The input of a version-6 net's policy
    /// window term (`eval::net`). Any rule; outside caro it is read off the table keys the
    /// board keeps (their ten digits are the cells within five steps, in the same order).
    #[inline(always)]
    pub fn window_code(&self, p: Pos, side: Color, d: Dir) -> usize {
        let di = d as usize;
        let l = self.geo.line[di][p.index()] as usize;
        let i = self.geo.idx[di][p.index()] as usize;
        let key = if self.caro {
            let (b, w, wall) = self.window_bits(di, l, i);
            let (own, opp) = if side == Color::Black { (b, w) } else { (w, b) };
            table_key(own, opp | wall)
        } else {
            (self.keys[di][l][i + MARGIN as usize] >> (16 * side.index())) & 0xFFFF
        };
        // Drop the two cells five steps away: the lowest and highest of the ten digits.
        (key / 3 % WINDOW_CODES as u32) as usize
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
                self.keys[d][l][i + MARGIN as usize] =
                    table_key(b, w | wall) | table_key(w, b | wall) << 16;
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

    /// Plays a move list from the empty board (black first; `Pos::NONE` passes). Fails on an
    /// off-board or occupied point, leaving the board as it was.
    pub fn play_all(&mut self, moves: &[Pos]) -> Result<(), MoveListError> {
        for (k, &m) in moves.iter().enumerate() {
            let (number, point) = (k + 1, m);
            if m.is_none() {
                self.make_pass();
            } else if !m.on_board(self.size) {
                self.undo_n(k);
                return Err(MoveListError::OffBoard { number, point });
            } else if !self.is_empty(m) {
                self.undo_n(k);
                return Err(MoveListError::Occupied { number, point });
            } else {
                self.make(m);
            }
        }
        Ok(())
    }
}
