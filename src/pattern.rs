//! Layer 2a: line patterns and their lookup tables.
//!
//! A *line window* is the eleven cells centred on one point along one direction: five on each
//! side. For one side (the player whose shape we grade), each of the ten outer cells is own,
//! empty, opponent or wall. The centre is the empty point being graded: the table answers
//! "what shape does this side make along this line if it plays here?".
//!
//! Tables are indexed two ways:
//! - rules where an opponent stone and the board edge block alike (freestyle, standard,
//!   renju) use a base-3 index of (own, blocked) over the ten outer cells: 3^10 = 59049 bytes;
//! - caro, where a five is void only if *opponent stones* close both ends, needs the wall as
//!   a fourth state: a 20-bit index (own bits, opponent bits; wall = both set).
//!
//! Both are built once at startup by [`grade`], a memoised recursion over bit masks, and are
//! tested over the whole key space against [`reference`](mod@reference), a slow cell-array
//! implementation.

use crate::types::{Color, Rule};
use std::sync::OnceLock;

/// The shape one side makes along one line by playing the centre of the window.
///
/// Diagrams: `X` own stone, `_` empty, `o` blocked, `*` the graded point.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
pub enum Pattern {
    /// No five can ever pass through the point along this line (`o_X*_o`).
    Dead = 0,
    /// Playing here makes six or more in a row where exactly five is needed (`XXX*XX`).
    Overline = 1,
    /// One stone that can only grow into blocked shapes.
    B1 = 2,
    /// One stone with room to become an open two.
    F1 = 3,
    /// Two stones that can only grow into a blocked three (`oXX*__`).
    B2 = 4,
    /// Two stones that can become an open three (`__X*__`).
    F2 = 5,
    /// A blocked three: one move makes a four (`oXX*__o`).
    B3 = 6,
    /// An open three: one move makes a straight four (`__XX*__`).
    F3 = 7,
    /// A four: exactly one point completes a five (`oXXX*_`).
    B4 = 8,
    /// A straight four: two points complete a five (`_XXX*_`), or, for sides without
    /// forbidden points, two fours sharing the line (`X_XX*_X`).
    F4 = 9,
    /// Renju black only: two fours in one line (`X_XX*_X`), a forbidden double four.
    DoubleFour = 10,
    /// Playing here makes a winning five.
    Five = 11,
}

impl Pattern {
    /// Every pattern, by increasing value.
    pub const ALL: [Pattern; 12] = [
        Pattern::Dead,
        Pattern::Overline,
        Pattern::B1,
        Pattern::F1,
        Pattern::B2,
        Pattern::F2,
        Pattern::B3,
        Pattern::F3,
        Pattern::B4,
        Pattern::F4,
        Pattern::DoubleFour,
        Pattern::Five,
    ];

    /// The pattern with the given discriminant.
    #[inline(always)]
    pub fn from_u8(v: u8) -> Pattern {
        Pattern::ALL[(v as usize).min(11)]
    }
}

/// How one side plays along a line under a rule: the parameters that change line shapes.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct LineRule {
    /// Only exactly five wins (a longer run is an overline).
    pub exact: bool,
    /// Renju black: overlines and two fours in one line are forbidden shapes.
    pub forbid: bool,
    /// Caro: a five closed at both ends by opponent stones does not win.
    pub caro: bool,
}

impl LineRule {
    /// The line rule of `side` under `rule`.
    pub const fn of(rule: Rule, side: Color) -> LineRule {
        match rule {
            Rule::Freestyle => LineRule {
                exact: false,
                forbid: false,
                caro: false,
            },
            Rule::Standard => LineRule {
                exact: true,
                forbid: false,
                caro: false,
            },
            Rule::Renju => match side {
                Color::Black => LineRule {
                    exact: true,
                    forbid: true,
                    caro: false,
                },
                Color::White => LineRule {
                    exact: false,
                    forbid: false,
                    caro: false,
                },
            },
            Rule::Caro { exact } => LineRule {
                exact,
                forbid: false,
                caro: true,
            },
        }
    }

    fn table_slot(self) -> usize {
        match (self.caro, self.exact, self.forbid) {
            (false, false, _) => 0,
            (false, true, false) => 1,
            (false, true, true) => 2,
            (true, false, _) => 3,
            (true, true, _) => 4,
        }
    }
}

/// Bit index of the window centre.
pub const CENTER: u32 = 5;
/// Mask of the eleven window bits.
pub const WINDOW: u32 = 0x7FF;

/// Drops the centre bit of an eleven-bit window, giving the ten outer cells.
#[inline(always)]
pub const fn outer(w: u32) -> u32 {
    (w & 0x1F) | ((w >> 1) & 0x3E0)
}

/// `POW3[m]` = sum of `3^i` over the set bits `i` of the ten-bit mask `m`.
pub static POW3: [u16; 1024] = {
    let mut t = [0u16; 1024];
    let mut m = 0;
    while m < 1024 {
        let mut v = 0u16;
        let mut i = 0;
        let mut p = 1u16;
        while i < 10 {
            if m & (1 << i) != 0 {
                v += p;
            }
            p *= 3;
            i += 1;
        }
        t[m] = v;
        m += 1;
    }
    t
};

/// Number of base-3 keys.
pub const KEYS3: usize = 59049;
/// Number of caro (2-bit) keys.
pub const KEYS4: usize = 1 << 20;

/// A line window for one side: own stones, opponent stones, wall (cells off the board).
/// Bit `CENTER` is the graded point; cells are disjoint masks over the eleven bits.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Window {
    /// Cells holding the side's own stones.
    pub own: u32,
    /// Cells holding the opponent's stones.
    pub opp: u32,
    /// Cells off the board.
    pub wall: u32,
}

impl Window {
    #[inline(always)]
    fn empty(self) -> u32 {
        !(self.own | self.opp | self.wall) & WINDOW
    }

    /// The base-3 table key (own = 1, blocked = 2) of the ten outer cells.
    #[inline(always)]
    pub fn key3(self) -> usize {
        POW3[outer(self.own) as usize] as usize
            + 2 * POW3[outer(self.opp | self.wall) as usize] as usize
    }

    /// The 20-bit caro key: own bits, then opponent bits; a wall cell sets both.
    #[inline(always)]
    pub fn key4(self) -> usize {
        (outer(self.own | self.wall) | (outer(self.opp | self.wall) << 10)) as usize
    }

    /// Decodes a base-3 key (blocked cells become opponent stones).
    pub fn from_key3(mut key: usize) -> Window {
        let (mut own, mut opp) = (0, 0);
        for i in 0..10 {
            let bit = if i < 5 { 1 << i } else { 1 << (i + 1) };
            match key % 3 {
                1 => own |= bit,
                2 => opp |= bit,
                _ => {}
            }
            key /= 3;
        }
        Window { own, opp, wall: 0 }
    }

    /// Decodes a 20-bit caro key.
    pub fn from_key4(key: usize) -> Window {
        let spread = |m: u32| (m & 0x1F) | ((m & 0x3E0) << 1);
        let a = spread(key as u32 & 0x3FF);
        let b = spread((key >> 10) as u32 & 0x3FF);
        Window {
            own: a & !b,
            opp: b & !a,
            wall: a & b,
        }
    }
}

/// The run of own stones through bit `c`, as a mask.
fn run_through(own: u32, c: u32) -> u32 {
    let mut lo = c;
    while lo > 0 && own & (1 << (lo - 1)) != 0 {
        lo -= 1;
    }
    let mut hi = c;
    while hi < 10 && own & (1 << (hi + 1)) != 0 {
        hi += 1;
    }
    ((1u32 << (hi + 1)) - 1) & !((1u32 << lo) - 1)
}

/// Does the run through `c` (own at `c`) win?
fn wins_at(w: Window, c: u32, lr: LineRule) -> bool {
    let run = run_through(w.own, c);
    let len = run.count_ones();
    if len < 5 || (lr.exact && len > 5) {
        return false;
    }
    if lr.caro {
        let lo = run.trailing_zeros();
        let hi = 31 - run.leading_zeros();
        let left_opp = lo > 0 && w.opp & (1 << (lo - 1)) != 0;
        let right_opp = hi < 10 && w.opp & (1 << (hi + 1)) != 0;
        if left_opp && right_opp {
            return false;
        }
    }
    true
}

/// Empty cells within four of `c` whose filling wins through `c`.
fn five_points(w: Window, c: u32, lr: LineRule) -> u32 {
    let mut pts = 0;
    let lo = c.saturating_sub(4);
    let hi = (c + 4).min(10);
    for e in lo..=hi {
        if w.empty() & (1 << e) != 0 {
            let w2 = Window {
                own: w.own | 1 << e,
                ..w
            };
            if wins_at(w2, c, lr) {
                pts |= 1 << e;
            }
        }
    }
    pts
}

/// Is a four with these five points a straight four (the points five apart, with the four
/// stones between them)?
fn straight(pts: u32) -> bool {
    pts.count_ones() == 2 && (31 - pts.leading_zeros()) - pts.trailing_zeros() == 5
}

/// For renju black: is playing `e` a forbidden shape along this line alone (an overline, or
/// two fours in the line), cells outside the window counting as blocked?
fn line_forbidden(w: Window, e: u32, lr: LineRule) -> bool {
    let w2 = Window {
        own: w.own | 1 << e,
        ..w
    };
    if wins_at(w2, e, lr) {
        return false;
    }
    if run_through(w2.own, e).count_ones() > 5 {
        return true;
    }
    let pts = five_points(w2, e, lr);
    pts.count_ones() >= 2 && !straight(pts)
}

/// Grades the window with an own stone already on the centre.
fn grade_placed(w: Window, lr: LineRule, memo: &mut [u8]) -> Pattern {
    let slot = w.key4();
    if memo[slot] != 0 {
        return Pattern::from_u8(memo[slot] - 1);
    }
    let p = grade_placed_uncached(w, lr, memo);
    memo[slot] = p as u8 + 1;
    p
}

fn grade_placed_uncached(w: Window, lr: LineRule, memo: &mut [u8]) -> Pattern {
    if wins_at(w, CENTER, lr) {
        return Pattern::Five;
    }
    if lr.exact && run_through(w.own, CENTER).count_ones() > 5 {
        return Pattern::Overline;
    }
    let pts = five_points(w, CENTER, lr);
    match pts.count_ones() {
        0 => {}
        1 => return Pattern::B4,
        _ if lr.forbid && !straight(pts) => return Pattern::DoubleFour,
        _ => return Pattern::F4,
    }
    let mut best = Pattern::Dead;
    let mut empties = w.empty() & 0b011_1101_1110; // offsets -4..=4, centre excluded
    while empties != 0 {
        let e = empties.trailing_zeros();
        empties &= empties - 1;
        if lr.forbid && line_forbidden(w, e, lr) {
            continue;
        }
        let next = grade_placed(
            Window {
                own: w.own | 1 << e,
                ..w
            },
            lr,
            memo,
        );
        let here = match next {
            Pattern::F4 => Pattern::F3,
            Pattern::B4 => Pattern::B3,
            Pattern::F3 => Pattern::F2,
            Pattern::B3 => Pattern::B2,
            Pattern::F2 => Pattern::F1,
            Pattern::B2 => Pattern::B1,
            _ => Pattern::Dead,
        };
        best = best.max(here);
    }
    best
}

/// Grades the empty centre of `w` for the side owning `w.own` (memoised recursion).
pub fn grade(w: Window, lr: LineRule, memo: &mut [u8]) -> Pattern {
    grade_placed(
        Window {
            own: w.own | 1 << CENTER,
            ..w
        },
        lr,
        memo,
    )
}

fn build(lr: LineRule) -> Vec<u8> {
    let mut memo = vec![0u8; KEYS4];
    let mut t: Vec<u8> = if lr.caro {
        (0..KEYS4)
            .map(|k| {
                let w = Window::from_key4(k);
                // Keys where a cell is wall on one side of the centre but a stone or an empty
                // cell lies beyond it cannot occur; grade them anyway (they are never read).
                grade(w, lr, &mut memo) as u8
            })
            .collect()
    } else {
        (0..KEYS3)
            .map(|k| grade(Window::from_key3(k), lr, &mut memo) as u8)
            .collect()
    };
    // Padding: a four-byte read (a SIMD gather) at any key stays inside the table.
    t.extend([0; TABLE_PAD]);
    t
}

/// Zero bytes after the last key of every table.
pub const TABLE_PAD: usize = 4;

static TABLES: [OnceLock<Vec<u8>>; 5] = [
    OnceLock::new(),
    OnceLock::new(),
    OnceLock::new(),
    OnceLock::new(),
    OnceLock::new(),
];

/// The pattern table of a line rule, built on first use: one byte per key ([`KEYS3`] keys,
/// [`KEYS4`] under caro), then [`TABLE_PAD`] zero bytes.
pub fn table(lr: LineRule) -> &'static [u8] {
    TABLES[lr.table_slot()].get_or_init(|| build(lr))
}

/// Looks a window up in its table.
#[inline(always)]
pub fn lookup(table: &[u8], w: Window, caro: bool) -> Pattern {
    let k = if caro { w.key4() } else { w.key3() };
    Pattern::from_u8(table[k])
}

/// The slow, obviously-correct definition of the patterns, over an array of cells, for
/// tests: no memo, no bit tricks.
#[cfg(any(test, feature = "internals"))]
pub mod reference {
    use super::{LineRule, Pattern};

    /// One cell of a line as seen by the graded side.
    #[derive(Copy, Clone, Debug, PartialEq, Eq)]
    pub enum Cell {
        /// An empty cell.
        Empty,
        /// A stone of the graded side.
        Own,
        /// An opponent stone.
        Opp,
        /// Off the board.
        Wall,
    }

    fn run(cells: &[Cell], c: usize) -> (usize, usize) {
        let mut lo = c;
        while lo > 0 && cells[lo - 1] == Cell::Own {
            lo -= 1;
        }
        let mut hi = c;
        while hi + 1 < cells.len() && cells[hi + 1] == Cell::Own {
            hi += 1;
        }
        (lo, hi)
    }

    /// Does the own stone at `c` stand in a winning five?
    pub fn wins(cells: &[Cell], c: usize, lr: LineRule) -> bool {
        let (lo, hi) = run(cells, c);
        let len = hi - lo + 1;
        let long_enough = if lr.exact { len == 5 } else { len >= 5 };
        let closed = |i: Option<usize>| i.and_then(|i| cells.get(i)) == Some(&Cell::Opp);
        let caro_void = lr.caro && closed(lo.checked_sub(1)) && closed(Some(hi + 1));
        long_enough && !caro_void
    }

    fn with(cells: &[Cell], i: usize) -> Vec<Cell> {
        let mut v = cells.to_vec();
        v[i] = Cell::Own;
        v
    }

    fn points(cells: &[Cell], c: usize, lr: LineRule) -> Vec<usize> {
        (0..cells.len())
            .filter(|&e| e.abs_diff(c) <= 4 && cells[e] == Cell::Empty)
            .filter(|&e| wins(&with(cells, e), c, lr))
            .collect()
    }

    fn is_straight(p: &[usize]) -> bool {
        p.len() == 2 && p[1] - p[0] == 5
    }

    fn forbidden_alone(cells: &[Cell], e: usize, lr: LineRule) -> bool {
        let v = with(cells, e);
        if wins(&v, e, lr) {
            return false;
        }
        let (lo, hi) = run(&v, e);
        let p = points(&v, e, lr);
        hi - lo + 1 > 5 || (p.len() >= 2 && !is_straight(&p))
    }

    fn placed(cells: &[Cell], c: usize, lr: LineRule) -> Pattern {
        if wins(cells, c, lr) {
            return Pattern::Five;
        }
        let (lo, hi) = run(cells, c);
        if lr.exact && hi - lo + 1 > 5 {
            return Pattern::Overline;
        }
        let p = points(cells, c, lr);
        if p.len() == 1 {
            return Pattern::B4;
        }
        if p.len() >= 2 {
            return if lr.forbid && !is_straight(&p) {
                Pattern::DoubleFour
            } else {
                Pattern::F4
            };
        }
        let mut best = Pattern::Dead;
        for e in 0..cells.len() {
            if e == c || e.abs_diff(c) > 4 || cells[e] != Cell::Empty {
                continue;
            }
            if lr.forbid && forbidden_alone(cells, e, lr) {
                continue;
            }
            let here = match placed(&with(cells, e), c, lr) {
                Pattern::F4 => Pattern::F3,
                Pattern::B4 => Pattern::B3,
                Pattern::F3 => Pattern::F2,
                Pattern::B3 => Pattern::B2,
                Pattern::F2 => Pattern::F1,
                Pattern::B2 => Pattern::B1,
                _ => Pattern::Dead,
            };
            best = best.max(here);
        }
        best
    }

    /// The pattern of the empty cell `c` of `cells`.
    pub fn classify(cells: &[Cell], c: usize, lr: LineRule) -> Pattern {
        placed(&with(cells, c), c, lr)
    }
}

/// With an own stone on the centre of `w`: do exactly two points, five apart, complete a
/// five through the centre (a straight four)?
pub fn is_straight_four(w: Window, lr: LineRule) -> bool {
    straight(five_points(w, CENTER, lr))
}
