//! Layer 2b: the combined threat class of a cell from its four line patterns.

use crate::pattern::Pattern;

/// What one side makes by playing a cell, all four directions together; ordered by force.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
pub enum Threat {
    /// Nothing of note (or an occupied cell).
    None = 0,
    /// Renju black: an overline or a double four here (double threes need the board-level
    /// recursive test and show as [`Threat::Flex3x2`]).
    Forbidden = 1,
    /// One open two.
    Flex2 = 2,
    /// One blocked three.
    Block3 = 3,
    /// Two open twos.
    Flex2x2 = 4,
    /// A blocked three with an open two or another blocked three.
    Block3Plus = 5,
    /// One open three.
    Flex3 = 6,
    /// An open three with an open two or a blocked three.
    Flex3Plus = 7,
    /// Two open threes (a win unless defended by fours; renju black: maybe forbidden).
    Flex3x2 = 8,
    /// One four.
    Block4 = 9,
    /// A four with an open two or a blocked three.
    Block4Plus = 10,
    /// A four and an open three: wins unless the reply to the four defends.
    Block4Flex3 = 11,
    /// A straight four or a double four: wins next move.
    Flex4 = 12,
    /// A five: wins now.
    Five = 13,
}

/// Number of threat classes.
pub const THREATS: usize = 14;

impl Threat {
    /// Every class, by increasing value.
    pub const ALL: [Threat; THREATS] = [
        Threat::None,
        Threat::Forbidden,
        Threat::Flex2,
        Threat::Block3,
        Threat::Flex2x2,
        Threat::Block3Plus,
        Threat::Flex3,
        Threat::Flex3Plus,
        Threat::Flex3x2,
        Threat::Block4,
        Threat::Block4Plus,
        Threat::Block4Flex3,
        Threat::Flex4,
        Threat::Five,
    ];

    /// Does this class make a four or better (forces an answer)?
    #[inline(always)]
    pub fn is_four(self) -> bool {
        self >= Threat::Block4
    }
}

/// Classifies four directional patterns, `forbid` for renju black.
pub const fn combine(p: [u8; 4], forbid: bool) -> Threat {
    let mut n = [0u8; 12];
    let mut i = 0;
    while i < 4 {
        n[if p[i] < 12 { p[i] as usize } else { 0 }] += 1;
        i += 1;
    }
    let five = n[Pattern::Five as usize];
    let ol = n[Pattern::Overline as usize];
    let f4 = n[Pattern::F4 as usize];
    let d4 = n[Pattern::DoubleFour as usize];
    let b4 = n[Pattern::B4 as usize];
    let f3 = n[Pattern::F3 as usize];
    let b3 = n[Pattern::B3 as usize];
    let f2 = n[Pattern::F2 as usize];
    if five > 0 {
        return Threat::Five;
    }
    if forbid && (ol > 0 || d4 > 0 || f4 + b4 >= 2) {
        return Threat::Forbidden;
    }
    if f4 > 0 || d4 > 0 || b4 >= 2 {
        return Threat::Flex4;
    }
    if b4 > 0 {
        return if f3 > 0 {
            Threat::Block4Flex3
        } else if b3 + f2 > 0 {
            Threat::Block4Plus
        } else {
            Threat::Block4
        };
    }
    if f3 >= 2 {
        return Threat::Flex3x2;
    }
    if f3 > 0 {
        return if b3 + f2 > 0 {
            Threat::Flex3Plus
        } else {
            Threat::Flex3
        };
    }
    if b3 > 0 {
        return if b3 + f2 >= 2 {
            Threat::Block3Plus
        } else {
            Threat::Block3
        };
    }
    if f2 >= 2 {
        return Threat::Flex2x2;
    }
    if f2 > 0 {
        return Threat::Flex2;
    }
    Threat::None
}

const fn build(forbid: bool) -> [Threat; 1 << 16] {
    let mut t = [Threat::None; 1 << 16];
    let mut k = 0;
    while k < 1 << 16 {
        let p = [
            (k & 15) as u8,
            ((k >> 4) & 15) as u8,
            ((k >> 8) & 15) as u8,
            ((k >> 12) & 15) as u8,
        ];
        t[k] = combine(p, forbid);
        k += 1;
    }
    t
}

/// `COMBINED[forbid][packed]`: the class of four patterns packed a nibble each
/// (direction `d` in bits `4d..4d+4`).
pub static COMBINED: [[Threat; 1 << 16]; 2] = [build(false), build(true)];

/// The pattern of direction `d` in a packed nibble word.
#[inline(always)]
pub fn nibble(packed: u16, d: usize) -> Pattern {
    Pattern::from_u8(((packed >> (4 * d)) & 15) as u8)
}
