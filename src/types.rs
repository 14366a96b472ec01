//! Layer 1: colours, rules, positions and directions.

use std::fmt;
use std::ops::Not;

/// Largest supported board side. Lines are stored in `u32` masks with a five-cell margin on
/// each side (`5 + 22 + 5 = 32`), so 22 is the natural ceiling of the representation.
pub const MAX_SIZE: usize = 22;
/// Smallest supported board side (a five must fit).
pub const MIN_SIZE: usize = 5;
/// Row stride of the cell index: `Pos = y * STRIDE + x`.
pub const STRIDE: usize = 32;
/// Number of cell slots in every per-cell array.
pub const CELLS: usize = STRIDE * STRIDE;

/// A stone colour. Black moves first.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum Color {
    /// The first player.
    Black = 0,
    /// The second player.
    White = 1,
}

impl Color {
    /// Both colours, black first.
    pub const ALL: [Color; 2] = [Color::Black, Color::White];

    /// The array index of the colour (black 0, white 1).
    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }
}

impl Not for Color {
    type Output = Color;
    #[inline(always)]
    fn not(self) -> Color {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Color::Black => "black",
            Color::White => "white",
        })
    }
}

/// The game rule.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Rule {
    /// Five or more in a row wins.
    Freestyle,
    /// Exactly five wins; an overline does not (for either colour).
    Standard,
    /// Black: exactly five wins, double-three, double-four and overline are forbidden (a five
    /// made together with a forbidden shape still wins). White: five or more wins.
    Renju,
    /// Gomocup caro: like freestyle (`exact = false`) or standard (`exact = true`), but a five
    /// whose both ends are blocked by opponent stones does not win.
    Caro {
        /// Exactly five wins (an overline does not).
        exact: bool,
    },
}

impl Rule {
    /// Every rule, for tests and tables.
    pub const ALL: [Rule; 5] = [
        Rule::Freestyle,
        Rule::Standard,
        Rule::Renju,
        Rule::Caro { exact: false },
        Rule::Caro { exact: true },
    ];

    /// Maps the Gomocup `INFO rule` bitmask (1 exact five, 2 continuous game, 4 renju,
    /// 8 caro) onto a rule. The continuous-game bit does not change the rule of a single game.
    pub fn from_gomocup(mask: u32) -> Option<Rule> {
        let m = mask & !2;
        Some(match m {
            0 => Rule::Freestyle,
            1 => Rule::Standard,
            4 | 5 => Rule::Renju,
            8 => Rule::Caro { exact: false },
            9 => Rule::Caro { exact: true },
            _ => return None,
        })
    }

    /// The rule's name as used in data files and at the prompt.
    pub fn name(self) -> &'static str {
        match self {
            Rule::Freestyle => "freestyle",
            Rule::Standard => "standard",
            Rule::Renju => "renju",
            Rule::Caro { exact: false } => "caro",
            Rule::Caro { exact: true } => "caro-standard",
        }
    }

    /// Parses a rule name (`freestyle`, `standard`, `renju`, `caro`, `caro-standard`).
    pub fn parse(s: &str) -> Option<Rule> {
        Rule::ALL
            .into_iter()
            .find(|r| r.name().eq_ignore_ascii_case(s.trim()))
    }

    /// Is it a caro rule (a five closed at both ends by the opponent does not win)?
    pub fn is_caro(self) -> bool {
        matches!(self, Rule::Caro { .. })
    }

    /// Does black play under forbidden-point restrictions?
    #[inline(always)]
    pub fn has_forbidden(self) -> bool {
        matches!(self, Rule::Renju)
    }

    /// Are `side`'s forbidden points in force under this rule (renju black)?
    #[inline(always)]
    pub fn forbids(self, side: Color) -> bool {
        side == Color::Black && self.has_forbidden()
    }
}

impl fmt::Display for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A board point, stored as `y * STRIDE + x`. `Pos::NONE` is the pass / null move.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
#[repr(transparent)]
pub struct Pos(pub u16);

impl Pos {
    /// The null move (a pass).
    pub const NONE: Pos = Pos(u16::MAX);

    /// The point at column `x`, row `y` (both zero-based, row 0 at the top).
    #[inline(always)]
    pub const fn new(x: usize, y: usize) -> Pos {
        Pos((y * STRIDE + x) as u16)
    }
    /// Column, zero-based.
    #[inline(always)]
    pub const fn x(self) -> usize {
        self.0 as usize % STRIDE
    }
    /// Row, zero-based from the top.
    #[inline(always)]
    pub const fn y(self) -> usize {
        self.0 as usize / STRIDE
    }
    /// The cell index, for per-cell arrays of length `CELLS`.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self.0 as usize
    }
    /// Is this the null move?
    #[inline(always)]
    pub const fn is_none(self) -> bool {
        self.0 == u16::MAX
    }
    /// Is the point on a board of side `size`?
    #[inline(always)]
    pub const fn on_board(self, size: usize) -> bool {
        !self.is_none() && self.x() < size && self.y() < size
    }
    /// Chebyshev distance to another point.
    pub fn dist(self, o: Pos) -> usize {
        self.x().abs_diff(o.x()).max(self.y().abs_diff(o.y()))
    }
}

impl fmt::Display for Pos {
    /// Gomocup form `x,y`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_none() {
            f.write_str("-1,-1")
        } else {
            write!(f, "{},{}", self.x(), self.y())
        }
    }
}

/// The four line directions.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Dir {
    /// Along a row (x grows).
    Row = 0,
    /// Along a column (y grows).
    Col = 1,
    /// Diagonal (x and y grow).
    Diag = 2,
    /// Anti-diagonal (x shrinks as y grows).
    Anti = 3,
}

impl Dir {
    /// All four directions.
    pub const ALL: [Dir; 4] = [Dir::Row, Dir::Col, Dir::Diag, Dir::Anti];
    /// The (dx, dy) step of the direction.
    pub const fn step(self) -> (isize, isize) {
        match self {
            Dir::Row => (1, 0),
            Dir::Col => (0, 1),
            Dir::Diag => (1, 1),
            Dir::Anti => (-1, 1),
        }
    }
    /// The step as a signed cell-index delta.
    pub const fn delta(self) -> isize {
        let (dx, dy) = self.step();
        dy * STRIDE as isize + dx
    }
}
