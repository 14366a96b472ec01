//! Layer 2d: values of pattern combinations. A cell's four line patterns for one side, taken
//! as a multiset (direction does not matter), are its *combination code*; the evaluation
//! adds a value per combination code of every empty cell, one for the side to move and one
//! for the other side. The board keeps both sums per side incrementally (see
//! [`crate::board::Board::cell_values`]); this module holds the fitted values and the
//! lookup table the board reads. The search uses them only with the `cells` option
//! ([`crate::search::Options::cell_values`], off: no gain in play measured).

use crate::pattern::Pattern;
use crate::threat::{Threat, THREATS};
use crate::types::Rule;
use std::sync::OnceLock;
use Pattern as P;

/// Number of combination codes: multisets of four of the twelve patterns, C(15, 4).
pub const CODES: usize = 1365;

/// The combination code of four patterns (any order).
pub const fn code_of(p: [u8; 4]) -> usize {
    // Sort descending (four elements), then rank the multiset in the combinatorial number
    // system: a >= b >= c >= d maps to C(a+3, 4) + C(b+2, 3) + C(c+1, 2) + d.
    let mut s = p;
    let mut i = 0;
    while i < 4 {
        let mut j = i + 1;
        while j < 4 {
            if s[j] > s[i] {
                let t = s[i];
                s[i] = s[j];
                s[j] = t;
            }
            j += 1;
        }
        i += 1;
    }
    let (a, b, c, d) = (s[0] as usize, s[1] as usize, s[2] as usize, s[3] as usize);
    (a + 3) * (a + 2) * (a + 1) * a / 24 + (b + 2) * (b + 1) * b / 6 + (c + 1) * c / 2 + d
}

/// The combination code of a cell's packed patterns (a nibble per direction, as the board
/// keeps them).
#[inline]
pub fn code(packed: u16) -> usize {
    let n = |d: u32| ((packed >> (4 * d)) & 15).min(11) as u8;
    code_of([n(0), n(1), n(2), n(3)])
}

/// The fitted values, sparse: a combination (patterns, highest first), its value for the
/// side to move and its value for the other side, in the evaluation's centi-stones. They
/// come on top of the class and pattern weights of [`crate::eval::EvalWeights`]; every
/// combination not listed is worth 0. Freestyle and exact five only (the rules of the games
/// they were fitted to).
///
/// Fitted on top of the class and pattern weights that [`crate::eval::OWN_THREAT`]'s doc lists
/// as the weights before (not refitted since), together with [`PAIRS`] and [`PRESENCE`] by
/// `cargo run --release --example tune -- FILE cells extra pairs l2=1e-10 min=10` to 22,951
/// positions: every position from ply 4 of the 662 games of wuzi's matches against PentaZen,
/// Rapfi and itself and of Rapfi against PentaZen, each scored by Rapfi 0.43 classical at
/// `timeout_turn 100` (about 70 ms); the tenth held out. Held-out cross-entropy 0.5489
/// (class and pattern weights alone) -> 0.5045. On the first 5,017 labels (l2 1e-8):
/// 0.5292 -> codes alone 0.5123, with the presence values 0.5046, with the pairs too
/// 0.5006. Values seen in fewer than 10 training positions stay 0.
pub const FITTED: &[([Pattern; 4], i16, i16)] = &[
    ([P::B1, P::Dead, P::Dead, P::Dead], -68, -51),
    ([P::B1, P::B1, P::Dead, P::Dead], 49, 6),
    ([P::B1, P::B1, P::B1, P::Dead], 170, 114),
    ([P::B1, P::B1, P::B1, P::B1], 25, -46),
    ([P::F1, P::Dead, P::Dead, P::Dead], 19, 11),
    ([P::F1, P::B1, P::Dead, P::Dead], -8, -31),
    ([P::F1, P::B1, P::B1, P::Dead], -70, -62),
    ([P::F1, P::B1, P::B1, P::B1], 116, 107),
    ([P::F1, P::F1, P::Dead, P::Dead], -27, -51),
    ([P::F1, P::F1, P::B1, P::Dead], -54, -67),
    ([P::F1, P::F1, P::B1, P::B1], -27, -45),
    ([P::F1, P::F1, P::F1, P::Dead], -71, -78),
    ([P::F1, P::F1, P::F1, P::B1], -70, -64),
    ([P::F1, P::F1, P::F1, P::F1], -52, -56),
    ([P::B2, P::Dead, P::Dead, P::Dead], -22, -29),
    ([P::B2, P::B1, P::Dead, P::Dead], 105, 20),
    ([P::B2, P::B1, P::B1, P::Dead], 14, -41),
    ([P::B2, P::B1, P::B1, P::B1], -51, -149),
    ([P::B2, P::F1, P::Dead, P::Dead], -60, -70),
    ([P::B2, P::F1, P::B1, P::Dead], -36, -3),
    ([P::B2, P::F1, P::B1, P::B1], -109, -72),
    ([P::B2, P::F1, P::F1, P::Dead], -38, -53),
    ([P::B2, P::F1, P::F1, P::B1], -78, -81),
    ([P::B2, P::F1, P::F1, P::F1], -78, -90),
    ([P::B2, P::B2, P::Dead, P::Dead], -44, -20),
    ([P::B2, P::B2, P::B1, P::Dead], -16, 56),
    ([P::B2, P::B2, P::B1, P::B1], -66, -64),
    ([P::B2, P::B2, P::F1, P::Dead], -106, -26),
    ([P::B2, P::B2, P::F1, P::B1], -22, -50),
    ([P::B2, P::B2, P::F1, P::F1], -46, -80),
    ([P::B2, P::B2, P::B2, P::Dead], -116, -104),
    ([P::B2, P::B2, P::B2, P::B1], -209, -134),
    ([P::B2, P::B2, P::B2, P::F1], -94, -98),
    ([P::B2, P::B2, P::B2, P::B2], -116, -6),
    ([P::F2, P::Dead, P::Dead, P::Dead], -96, -59),
    ([P::F2, P::B1, P::Dead, P::Dead], -39, -18),
    ([P::F2, P::B1, P::B1, P::Dead], -11, -34),
    ([P::F2, P::B1, P::B1, P::B1], -81, -112),
    ([P::F2, P::F1, P::Dead, P::Dead], -146, -103),
    ([P::F2, P::F1, P::B1, P::Dead], -70, -10),
    ([P::F2, P::F1, P::B1, P::B1], -7, -67),
    ([P::F2, P::F1, P::F1, P::Dead], -41, -62),
    ([P::F2, P::F1, P::F1, P::B1], -80, -75),
    ([P::F2, P::F1, P::F1, P::F1], -102, -84),
    ([P::F2, P::B2, P::Dead, P::Dead], -72, 20),
    ([P::F2, P::B2, P::B1, P::Dead], -65, 11),
    ([P::F2, P::B2, P::B1, P::B1], -7, 15),
    ([P::F2, P::B2, P::F1, P::Dead], -12, -27),
    ([P::F2, P::B2, P::F1, P::B1], -59, -44),
    ([P::F2, P::B2, P::F1, P::F1], -88, -82),
    ([P::F2, P::B2, P::B2, P::Dead], -2, -35),
    ([P::F2, P::B2, P::B2, P::B1], -67, -23),
    ([P::F2, P::B2, P::B2, P::F1], -47, -68),
    ([P::F2, P::B2, P::B2, P::B2], -141, -250),
    ([P::F2, P::F2, P::Dead, P::Dead], -43, -188),
    ([P::F2, P::F2, P::B1, P::Dead], 76, 96),
    ([P::F2, P::F2, P::B1, P::B1], 42, 47),
    ([P::F2, P::F2, P::F1, P::Dead], -50, -139),
    ([P::F2, P::F2, P::F1, P::B1], -77, -94),
    ([P::F2, P::F2, P::F1, P::F1], -48, -82),
    ([P::F2, P::F2, P::B2, P::Dead], 82, 53),
    ([P::F2, P::F2, P::B2, P::B1], -93, -100),
    ([P::F2, P::F2, P::B2, P::F1], -140, -155),
    ([P::F2, P::F2, P::B2, P::B2], -121, -70),
    ([P::F2, P::F2, P::F2, P::Dead], -9, 98),
    ([P::F2, P::F2, P::F2, P::B1], -16, 91),
    ([P::F2, P::F2, P::F2, P::F1], -73, -68),
    ([P::F2, P::F2, P::F2, P::B2], 169, 19),
    ([P::F2, P::F2, P::F2, P::F2], 4, 58),
    ([P::B3, P::Dead, P::Dead, P::Dead], -90, -63),
    ([P::B3, P::B1, P::Dead, P::Dead], -18, -26),
    ([P::B3, P::B1, P::B1, P::Dead], 7, -134),
    ([P::B3, P::B1, P::B1, P::B1], -102, -115),
    ([P::B3, P::F1, P::Dead, P::Dead], -100, -98),
    ([P::B3, P::F1, P::B1, P::Dead], -111, -69),
    ([P::B3, P::F1, P::B1, P::B1], -78, -78),
    ([P::B3, P::F1, P::F1, P::Dead], -36, -49),
    ([P::B3, P::F1, P::F1, P::B1], -121, -115),
    ([P::B3, P::F1, P::F1, P::F1], -127, -118),
    ([P::B3, P::B2, P::Dead, P::Dead], -1, -29),
    ([P::B3, P::B2, P::B1, P::Dead], -45, -78),
    ([P::B3, P::B2, P::B1, P::B1], 118, -9),
    ([P::B3, P::B2, P::F1, P::Dead], -66, 6),
    ([P::B3, P::B2, P::F1, P::B1], -88, -58),
    ([P::B3, P::B2, P::F1, P::F1], -86, -83),
    ([P::B3, P::B2, P::B2, P::Dead], 59, -55),
    ([P::B3, P::B2, P::B2, P::B1], -58, 51),
    ([P::B3, P::B2, P::B2, P::F1], -34, -41),
    ([P::B3, P::B2, P::B2, P::B2], 147, 121),
    ([P::B3, P::F2, P::Dead, P::Dead], -79, -50),
    ([P::B3, P::F2, P::B1, P::Dead], -117, -137),
    ([P::B3, P::F2, P::B1, P::B1], 30, 82),
    ([P::B3, P::F2, P::F1, P::Dead], -95, -70),
    ([P::B3, P::F2, P::F1, P::B1], -53, -91),
    ([P::B3, P::F2, P::F1, P::F1], -107, -60),
    ([P::B3, P::F2, P::B2, P::Dead], -64, -16),
    ([P::B3, P::F2, P::B2, P::B1], -85, -34),
    ([P::B3, P::F2, P::B2, P::F1], -167, -63),
    ([P::B3, P::F2, P::B2, P::B2], -17, -85),
    ([P::B3, P::F2, P::F2, P::Dead], -42, -63),
    ([P::B3, P::F2, P::F2, P::B1], -19, 19),
    ([P::B3, P::F2, P::F2, P::F1], 30, -23),
    ([P::B3, P::F2, P::F2, P::B2], -71, -83),
    ([P::B3, P::F2, P::F2, P::F2], 235, 426),
    ([P::B3, P::B3, P::Dead, P::Dead], -106, -176),
    ([P::B3, P::B3, P::B1, P::Dead], -148, 36),
    ([P::B3, P::B3, P::B1, P::B1], 145, -142),
    ([P::B3, P::B3, P::F1, P::Dead], 170, 28),
    ([P::B3, P::B3, P::F1, P::B1], -176, -65),
    ([P::B3, P::B3, P::F1, P::F1], -4, -22),
    ([P::B3, P::B3, P::B2, P::Dead], -77, -73),
    ([P::B3, P::B3, P::B2, P::B1], -124, -192),
    ([P::B3, P::B3, P::B2, P::F1], -39, -21),
    ([P::B3, P::B3, P::B2, P::B2], 101, 136),
    ([P::B3, P::B3, P::F2, P::Dead], -103, -22),
    ([P::B3, P::B3, P::F2, P::B1], -209, 70),
    ([P::B3, P::B3, P::F2, P::F1], 64, -123),
    ([P::B3, P::B3, P::F2, P::B2], 9, 223),
    ([P::B3, P::B3, P::F2, P::F2], 494, 539),
    ([P::B3, P::B3, P::B3, P::Dead], -61, -65),
    ([P::B3, P::B3, P::B3, P::B1], 421, 134),
    ([P::B3, P::B3, P::B3, P::F1], 209, 39),
    ([P::B3, P::B3, P::B3, P::B2], 597, 361),
    ([P::B3, P::B3, P::B3, P::F2], 127, 258),
    ([P::F3, P::Dead, P::Dead, P::Dead], -143, -224),
    ([P::F3, P::B1, P::Dead, P::Dead], -214, -90),
    ([P::F3, P::B1, P::B1, P::Dead], -286, -329),
    ([P::F3, P::B1, P::B1, P::B1], -26, 22),
    ([P::F3, P::F1, P::Dead, P::Dead], -135, -198),
    ([P::F3, P::F1, P::B1, P::Dead], 114, -31),
    ([P::F3, P::F1, P::B1, P::B1], 85, -43),
    ([P::F3, P::F1, P::F1, P::Dead], 46, -9),
    ([P::F3, P::F1, P::F1, P::B1], 56, 45),
    ([P::F3, P::F1, P::F1, P::F1], 24, 11),
    ([P::F3, P::B2, P::Dead, P::Dead], -305, -200),
    ([P::F3, P::B2, P::B1, P::Dead], 110, 83),
    ([P::F3, P::B2, P::B1, P::B1], 112, -19),
    ([P::F3, P::B2, P::F1, P::Dead], 128, 109),
    ([P::F3, P::B2, P::F1, P::B1], 119, 65),
    ([P::F3, P::B2, P::F1, P::F1], 119, 27),
    ([P::F3, P::B2, P::B2, P::Dead], 289, 182),
    ([P::F3, P::B2, P::B2, P::B1], -43, -6),
    ([P::F3, P::B2, P::B2, P::F1], 20, 128),
    ([P::F3, P::B2, P::B2, P::B2], -157, -46),
    ([P::F3, P::F2, P::Dead, P::Dead], -284, -274),
    ([P::F3, P::F2, P::B1, P::Dead], 62, -29),
    ([P::F3, P::F2, P::B1, P::B1], -107, -196),
    ([P::F3, P::F2, P::F1, P::Dead], -81, -46),
    ([P::F3, P::F2, P::F1, P::B1], -221, -105),
    ([P::F3, P::F2, P::F1, P::F1], -114, 13),
    ([P::F3, P::F2, P::B2, P::Dead], 61, -12),
    ([P::F3, P::F2, P::B2, P::B1], -279, -164),
    ([P::F3, P::F2, P::B2, P::F1], -196, -147),
    ([P::F3, P::F2, P::B2, P::B2], 197, 24),
    ([P::F3, P::F2, P::F2, P::Dead], 11, 203),
    ([P::F3, P::F2, P::F2, P::B1], -68, 33),
    ([P::F3, P::F2, P::F2, P::F1], 0, 80),
    ([P::F3, P::F2, P::F2, P::B2], -222, -70),
    ([P::F3, P::F2, P::F2, P::F2], -107, -64),
    ([P::F3, P::B3, P::Dead, P::Dead], -90, -48),
    ([P::F3, P::B3, P::B1, P::Dead], 66, 14),
    ([P::F3, P::B3, P::B1, P::B1], -188, -164),
    ([P::F3, P::B3, P::F1, P::Dead], -138, -98),
    ([P::F3, P::B3, P::F1, P::B1], -24, 34),
    ([P::F3, P::B3, P::F1, P::F1], -79, -34),
    ([P::F3, P::B3, P::B2, P::Dead], 65, -243),
    ([P::F3, P::B3, P::B2, P::B1], -102, -104),
    ([P::F3, P::B3, P::B2, P::F1], 116, -96),
    ([P::F3, P::B3, P::B2, P::B2], 108, 297),
    ([P::F3, P::B3, P::F2, P::Dead], 101, -53),
    ([P::F3, P::B3, P::F2, P::B1], -253, -125),
    ([P::F3, P::B3, P::F2, P::F1], 15, 76),
    ([P::F3, P::B3, P::F2, P::B2], 72, 131),
    ([P::F3, P::B3, P::F2, P::F2], -5, -15),
    ([P::F3, P::B3, P::B3, P::Dead], 125, -82),
    ([P::F3, P::B3, P::B3, P::B1], 82, -262),
    ([P::F3, P::B3, P::B3, P::F1], 112, -277),
    ([P::F3, P::B3, P::B3, P::B2], 684, 314),
    ([P::F3, P::B3, P::B3, P::F2], 285, 700),
    ([P::F3, P::B3, P::B3, P::B3], 0, 441),
    ([P::F3, P::F3, P::Dead, P::Dead], 524, -406),
    ([P::F3, P::F3, P::B1, P::Dead], 401, 732),
    ([P::F3, P::F3, P::B1, P::B1], 107, 138),
    ([P::F3, P::F3, P::F1, P::Dead], 520, 133),
    ([P::F3, P::F3, P::F1, P::B1], -40, -140),
    ([P::F3, P::F3, P::F1, P::F1], -181, 80),
    ([P::F3, P::F3, P::B2, P::Dead], 369, 686),
    ([P::F3, P::F3, P::B2, P::B1], -113, 32),
    ([P::F3, P::F3, P::B2, P::F1], 156, -224),
    ([P::F3, P::F3, P::B2, P::B2], -119, -481),
    ([P::F3, P::F3, P::F2, P::Dead], -164, -389),
    ([P::F3, P::F3, P::F2, P::B1], -617, 225),
    ([P::F3, P::F3, P::F2, P::F1], -508, -159),
    ([P::F3, P::F3, P::F2, P::B2], -55, -288),
    ([P::F3, P::F3, P::F2, P::F2], 251, 0),
    ([P::F3, P::F3, P::B3, P::Dead], -402, -468),
    ([P::F3, P::F3, P::B3, P::B1], 348, 479),
    ([P::F3, P::F3, P::B3, P::F1], 0, -166),
    ([P::F3, P::F3, P::B3, P::B2], -513, -1055),
    ([P::B4, P::Dead, P::Dead, P::Dead], -277, -383),
    ([P::B4, P::B1, P::Dead, P::Dead], -237, -173),
    ([P::B4, P::B1, P::B1, P::Dead], -64, -248),
    ([P::B4, P::B1, P::B1, P::B1], 376, 130),
    ([P::B4, P::F1, P::Dead, P::Dead], -135, -153),
    ([P::B4, P::F1, P::B1, P::Dead], 19, -36),
    ([P::B4, P::F1, P::B1, P::B1], 2, 46),
    ([P::B4, P::F1, P::F1, P::Dead], 5, 37),
    ([P::B4, P::F1, P::F1, P::B1], -32, -15),
    ([P::B4, P::F1, P::F1, P::F1], 100, -35),
    ([P::B4, P::B2, P::Dead, P::Dead], -22, -52),
    ([P::B4, P::B2, P::B1, P::Dead], -264, -126),
    ([P::B4, P::B2, P::B1, P::B1], 222, 190),
    ([P::B4, P::B2, P::F1, P::Dead], 86, 169),
    ([P::B4, P::B2, P::F1, P::B1], 210, 103),
    ([P::B4, P::B2, P::F1, P::F1], 303, 180),
    ([P::B4, P::B2, P::B2, P::Dead], 336, 208),
    ([P::B4, P::B2, P::B2, P::B1], 122, 22),
    ([P::B4, P::B2, P::B2, P::F1], 398, 193),
    ([P::B4, P::B2, P::B2, P::B2], -29, -192),
    ([P::B4, P::F2, P::Dead, P::Dead], -481, -407),
    ([P::B4, P::F2, P::B1, P::Dead], -32, -122),
    ([P::B4, P::F2, P::B1, P::B1], 4, 73),
    ([P::B4, P::F2, P::F1, P::Dead], -271, -363),
    ([P::B4, P::F2, P::F1, P::B1], 20, -78),
    ([P::B4, P::F2, P::F1, P::F1], -108, -57),
    ([P::B4, P::F2, P::B2, P::Dead], -162, -164),
    ([P::B4, P::F2, P::B2, P::B1], -356, -35),
    ([P::B4, P::F2, P::B2, P::F1], -37, -37),
    ([P::B4, P::F2, P::B2, P::B2], 557, 452),
    ([P::B4, P::F2, P::F2, P::Dead], 132, -208),
    ([P::B4, P::F2, P::F2, P::B1], -163, 240),
    ([P::B4, P::F2, P::F2, P::F1], 244, -111),
    ([P::B4, P::F2, P::F2, P::B2], -276, -406),
    ([P::B4, P::F2, P::F2, P::F2], 0, 116),
    ([P::B4, P::B3, P::Dead, P::Dead], -309, -422),
    ([P::B4, P::B3, P::B1, P::Dead], -165, -371),
    ([P::B4, P::B3, P::B1, P::B1], 296, -193),
    ([P::B4, P::B3, P::F1, P::Dead], -56, -55),
    ([P::B4, P::B3, P::F1, P::B1], 216, 101),
    ([P::B4, P::B3, P::F1, P::F1], -177, 130),
    ([P::B4, P::B3, P::B2, P::Dead], -118, -289),
    ([P::B4, P::B3, P::B2, P::B1], 59, -13),
    ([P::B4, P::B3, P::B2, P::F1], 474, -172),
    ([P::B4, P::B3, P::B2, P::B2], 192, 188),
    ([P::B4, P::B3, P::F2, P::Dead], 760, 388),
    ([P::B4, P::B3, P::F2, P::B1], 490, 427),
    ([P::B4, P::B3, P::F2, P::F1], 26, -10),
    ([P::B4, P::B3, P::F2, P::B2], 377, 211),
    ([P::B4, P::B3, P::F2, P::F2], 1158, 157),
    ([P::B4, P::B3, P::B3, P::Dead], 250, 249),
    ([P::B4, P::B3, P::B3, P::B1], 368, 334),
    ([P::B4, P::B3, P::B3, P::F1], 490, 407),
    ([P::B4, P::B3, P::B3, P::B2], 924, 58),
    ([P::B4, P::B3, P::B3, P::F2], 0, 495),
    ([P::B4, P::F3, P::Dead, P::Dead], 443, -444),
    ([P::B4, P::F3, P::B1, P::Dead], 1053, 252),
    ([P::B4, P::F3, P::B1, P::B1], -474, 52),
    ([P::B4, P::F3, P::F1, P::Dead], 441, -454),
    ([P::B4, P::F3, P::F1, P::B1], 78, 590),
    ([P::B4, P::F3, P::F1, P::F1], -514, 285),
    ([P::B4, P::F3, P::B2, P::Dead], 359, -209),
    ([P::B4, P::F3, P::B2, P::B1], 117, -312),
    ([P::B4, P::F3, P::B2, P::F1], -120, 310),
    ([P::B4, P::F3, P::B2, P::B2], 0, 504),
    ([P::B4, P::F3, P::F2, P::Dead], 108, -292),
    ([P::B4, P::F3, P::F2, P::B1], 0, 647),
    ([P::B4, P::F3, P::F2, P::F1], 0, -294),
    ([P::B4, P::F3, P::F2, P::B2], 0, -265),
    ([P::B4, P::F3, P::B3, P::Dead], 368, 378),
    ([P::B4, P::F3, P::B3, P::B1], 0, -484),
    ([P::B4, P::F3, P::B3, P::F1], 0, -368),
    ([P::B4, P::B4, P::Dead, P::Dead], 0, -127),
    ([P::B4, P::B4, P::B1, P::Dead], 0, -140),
    ([P::B4, P::B4, P::B1, P::B1], 0, 214),
    ([P::B4, P::B4, P::F1, P::Dead], 0, -536),
    ([P::B4, P::B4, P::F1, P::B1], 0, -257),
    ([P::B4, P::B4, P::F1, P::F1], 0, 216),
    ([P::B4, P::B4, P::B2, P::Dead], 0, -297),
    ([P::B4, P::B4, P::B2, P::B1], 0, 58),
    ([P::B4, P::B4, P::B2, P::B2], 0, -96),
    ([P::B4, P::B4, P::F2, P::B1], 0, 330),
    ([P::F4, P::Dead, P::Dead, P::Dead], 0, -416),
    ([P::F4, P::B1, P::Dead, P::Dead], 0, -142),
    ([P::F4, P::B1, P::B1, P::Dead], 0, -218),
    ([P::F4, P::B1, P::B1, P::B1], 0, -642),
    ([P::F4, P::F1, P::Dead, P::Dead], 0, 18),
    ([P::F4, P::F1, P::B1, P::Dead], 0, -129),
    ([P::F4, P::F1, P::B1, P::B1], 0, -171),
    ([P::F4, P::F1, P::F1, P::Dead], 0, 8),
    ([P::F4, P::F1, P::F1, P::B1], 0, -262),
    ([P::F4, P::F1, P::F1, P::F1], 0, -360),
    ([P::F4, P::B2, P::Dead, P::Dead], 0, -112),
    ([P::F4, P::B2, P::B1, P::Dead], 0, -74),
    ([P::F4, P::B2, P::B1, P::B1], 0, 105),
    ([P::F4, P::B2, P::F1, P::Dead], 0, 52),
    ([P::F4, P::B2, P::F1, P::B1], 0, 342),
    ([P::F4, P::B2, P::F1, P::F1], 0, -45),
    ([P::F4, P::B2, P::B2, P::Dead], 0, 108),
    ([P::F4, P::B2, P::B2, P::B1], 0, 131),
    ([P::F4, P::B2, P::B2, P::F1], 0, 459),
    ([P::F4, P::B2, P::B2, P::B2], 0, -71),
    ([P::F4, P::F2, P::Dead, P::Dead], 0, 140),
    ([P::F4, P::F2, P::B1, P::Dead], 0, 214),
    ([P::F4, P::F2, P::B1, P::B1], 0, 121),
    ([P::F4, P::F2, P::F1, P::Dead], 0, -166),
    ([P::F4, P::F2, P::F1, P::B1], 0, -100),
    ([P::F4, P::F2, P::F1, P::F1], 0, -220),
    ([P::F4, P::F2, P::B2, P::Dead], 0, 466),
    ([P::F4, P::F2, P::B2, P::B1], 0, 380),
    ([P::F4, P::F2, P::B2, P::F1], 0, -142),
    ([P::F4, P::F2, P::B2, P::B2], 0, 473),
    ([P::F4, P::F2, P::F2, P::Dead], 0, 689),
    ([P::F4, P::F2, P::F2, P::B1], 0, -156),
    ([P::F4, P::F2, P::F2, P::F1], 0, 310),
    ([P::F4, P::F2, P::F2, P::B2], 0, -92),
    ([P::F4, P::B3, P::Dead, P::Dead], 0, 1),
    ([P::F4, P::B3, P::B1, P::Dead], 0, 119),
    ([P::F4, P::B3, P::B1, P::B1], 0, -531),
    ([P::F4, P::B3, P::F1, P::Dead], 0, 118),
    ([P::F4, P::B3, P::F1, P::B1], 0, -35),
    ([P::F4, P::B3, P::F1, P::F1], 0, 228),
    ([P::F4, P::B3, P::B2, P::Dead], 0, 515),
    ([P::F4, P::B3, P::B2, P::B1], 0, 638),
    ([P::F4, P::B3, P::B2, P::F1], 0, 560),
    ([P::F4, P::B3, P::B2, P::B2], 0, 543),
    ([P::F4, P::B3, P::F2, P::Dead], 0, 496),
    ([P::F4, P::B3, P::F2, P::B1], 0, 252),
    ([P::F4, P::B3, P::F2, P::F1], 0, -400),
    ([P::F4, P::B3, P::F2, P::B2], 0, 517),
    ([P::F4, P::F3, P::Dead, P::Dead], 0, -825),
    ([P::F4, P::F3, P::B1, P::Dead], 0, -592),
    ([P::F4, P::F3, P::F1, P::B1], 0, -294),
    ([P::F4, P::F3, P::F1, P::F1], 0, 569),
    ([P::F4, P::F3, P::B2, P::Dead], 0, 97),
    ([P::F4, P::F3, P::B2, P::B1], 0, -206),
    ([P::F4, P::B4, P::Dead, P::Dead], 0, -103),
];

/// Per empty cell, a value by the pair (class of the side to move there, class of the other
/// side there), indexed `[own][other]`; fitted with [`FITTED`].
pub const PAIRS: [[i16; 14]; 14] = [
    [
        0, 0, -68, 2, -65, -16, -41, -2, -69, -79, -258, -361, -146, 0,
    ],
    [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
    [62, 0, 5, 31, -94, -74, 2, -46, -207, 9, -175, -541, -205, 0],
    [
        5, 0, -37, -13, -57, -165, -39, -87, 392, -93, -396, -15, -324, 0,
    ],
    [37, 0, 87, 51, -29, -11, 88, 60, 84, -94, -155, -358, -56, 0],
    [
        28, 0, 116, 115, 17, 20, 132, 40, 541, -85, -47, -98, -113, 0,
    ],
    [
        -56, 0, -103, -64, -91, -201, 17, -107, -87, 192, -38, 280, 172, 0,
    ],
    [
        -98, 0, 58, -103, -57, -19, 134, 39, 57, -227, -99, 112, 101, 0,
    ],
    [
        91, 0, 148, -174, 155, -881, -58, 137, 0, -412, 105, 0, 60, 0,
    ],
    [
        -95, 0, -68, -27, -105, 5, -159, 204, 1085, -75, 4, 346, 1, 0,
    ],
    [
        379, 0, 426, 368, 395, 355, 437, 152, -349, 321, 657, 435, 883, 0,
    ],
    [481, 0, 542, 854, 367, 312, 8, -43, 0, 679, 0, 0, 0, 0],
    [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
];

/// [`PAIRS`] by `black class * 14 + white class`: the value with black to move, then with
/// white to move (the board updates both with one lookup).
pub const PAIRS_BOTH: [[i16; 2]; THREATS * THREATS] = {
    let mut t = [[0i16; 2]; THREATS * THREATS];
    let mut b = 0;
    while b < THREATS {
        let mut w = 0;
        while w < THREATS {
            t[b * THREATS + w] = [PAIRS[b][w], PAIRS[w][b]];
            w += 1;
        }
        b += 1;
    }
    t
};

/// Per side (the side to move, then the other) and class from [`Threat::Flex3`] to
/// [`Threat::Flex4`], a value for having at least one cell of the class and a further value
/// for at least two; fitted with [`FITTED`].
pub const PRESENCE: [[[i16; 2]; 7]; 2] = [
    [
        [42, 35],
        [382, 462],
        [201, -635],
        [-44, 123],
        [-210, -127],
        [2278, 633],
        [0, 0],
    ],
    [
        [-69, -97],
        [-251, -239],
        [-277, 640],
        [120, -96],
        [159, -44],
        [-262, -321],
        [-112, 568],
    ],
];

/// The whole-board part of the combination evaluation for the side to move `me`: the
/// presence values of both sides' classes, from the board's class counts.
#[inline]
pub fn presence(counts: &[[u16; THREATS]; 2], me: usize) -> i32 {
    let mut v = 0;
    for (si, side) in [me, 1 - me].into_iter().enumerate() {
        for k in 0..7 {
            let n = counts[side][Threat::Flex3 as usize + k];
            v += PRESENCE[si][k][0] as i32 * (n >= 1) as i32;
            v += PRESENCE[si][k][1] as i32 * (n >= 2) as i32;
        }
    }
    v
}

/// Per packed pattern word (a nibble per direction), the values for the side to move and
/// for the other side. A fixed-size array: a `u16` index needs no bounds check.
pub type Table = [[i16; 2]; 1 << 16];

/// The lookup table of the rules that have fitted values; `None` for the others.
pub fn table(rule: Rule) -> Option<&'static Table> {
    static TABLE: OnceLock<Option<Box<Table>>> = OnceLock::new();
    if !matches!(rule, Rule::Freestyle | Rule::Standard) {
        return None;
    }
    TABLE
        .get_or_init(|| {
            if FITTED.is_empty() {
                return None;
            }
            let mut by_code = vec![[0i16; 2]; CODES];
            for (ps, own, opp) in FITTED {
                by_code[code_of(ps.map(|p| p as u8))] = [*own, *opp];
            }
            // An occupied cell (all nibbles 0) and an empty cell dead in every direction
            // share code 0, which must stay worth nothing.
            by_code[0] = [0, 0];
            let table: Vec<[i16; 2]> = (0..=u16::MAX).map(|packed| by_code[code(packed)]).collect();
            Some(table.into_boxed_slice().try_into().expect("65536 entries"))
        })
        .as_deref()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_rank_every_multiset_once() {
        let mut seen = vec![false; CODES];
        for a in 0..12u8 {
            for b in 0..=a {
                for c in 0..=b {
                    for d in 0..=c {
                        let k = code_of([a, b, c, d]);
                        assert!(!seen[k], "{a} {b} {c} {d}");
                        seen[k] = true;
                        assert_eq!(code_of([d, b, a, c]), k);
                    }
                }
            }
        }
        assert!(seen.iter().all(|&s| s));
        assert_eq!(code_of([0; 4]), 0);
    }
}
