//! The 26 canonical renju openings of RIF's rules: the first (black) stone on the centre
//! point, the second (white) on one of its eight neighbours, the third (black) within the
//! central 5x5 square. Up to the board's symmetries the second stone is either beside the
//! first ("direct", `h9` after `h8`) or diagonal to it ("indirect", `i9`), and the third
//! stone then has 13 places each, numbered D1 to D13 and I1 to I13 with their Japanese names.
//! Any three stones in those squares are one of the 26, which [`Canonical::recognise`] names.

use super::square;
use crate::symmetry::Sym;
use crate::types::Pos;
use std::fmt;

/// Whether the second stone is beside the first or diagonal to it.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Family {
    /// The second stone beside the first (`h8 h9`): openings D1 to D13.
    Direct,
    /// The second stone diagonal to the first (`h8 i9`): openings I1 to I13.
    Indirect,
}

/// One of the 26 canonical openings.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Canonical {
    /// Direct or indirect.
    pub family: Family,
    /// 1 to 13.
    pub number: u8,
}

/// The third stone of D1..D13, as (columns right, rows up) from the centre `h8`, with the
/// second stone on `h9`; then the openings' names.
const DIRECT: [(i8, i8, &str); 13] = [
    (0, 2, "Kansei"),     // h10
    (1, 2, "Keigetsu"),   // i10
    (2, 2, "Sosei"),      // j10
    (1, 1, "Kagetsu"),    // i9
    (2, 1, "Zangetsu"),   // j9
    (1, 0, "Ugetsu"),     // i8
    (2, 0, "Kinsei"),     // j8
    (0, -1, "Shogetsu"),  // h7
    (1, -1, "Kyugetsu"),  // i7
    (2, -1, "Shingetsu"), // j7
    (0, -2, "Zuisei"),    // h6
    (1, -2, "Sangetsu"),  // i6
    (2, -2, "Yusei"),     // j6
];

/// The third stone of I1..I13 with the second stone on `i9`, as in [`DIRECT`].
const INDIRECT: [(i8, i8, &str); 13] = [
    (2, 2, "Chosei"),     // j10
    (2, 1, "Kyogetsu"),   // j9
    (2, 0, "Kosei"),      // j8
    (2, -1, "Suigetsu"),  // j7
    (2, -2, "Ryusei"),    // j6
    (1, 0, "Ungetsu"),    // i8
    (1, -1, "Hogetsu"),   // i7
    (1, -2, "Rangetsu"),  // i6
    (0, -1, "Gingetsu"),  // h7
    (0, -2, "Myojo"),     // h6
    (-1, -1, "Shagetsu"), // g7
    (-1, -2, "Meigetsu"), // g6
    (-2, -2, "Suisei"),   // f6
];

/// The point `right` columns and `up` rows from the centre of a board of side `size` (rows
/// count up, as in `h8` notation, while `Pos` rows count down).
fn offset(size: usize, right: i8, up: i8) -> Pos {
    let c = square::centre(size);
    Pos::new(
        (c.x() as isize + right as isize) as usize,
        (c.y() as isize - up as isize) as usize,
    )
}

impl Canonical {
    /// All 26: D1..D13, then I1..I13.
    pub const ALL: [Canonical; 26] = {
        let mut all = [Canonical {
            family: Family::Direct,
            number: 1,
        }; 26];
        let mut i = 0;
        while i < 26 {
            all[i] = Canonical {
                family: if i < 13 {
                    Family::Direct
                } else {
                    Family::Indirect
                },
                number: (i % 13) as u8 + 1,
            };
            i += 1;
        }
        all
    };

    fn entry(self) -> (i8, i8, &'static str) {
        let table = match self.family {
            Family::Direct => &DIRECT,
            Family::Indirect => &INDIRECT,
        };
        table[(self.number as usize - 1).min(12)]
    }

    /// The opening's Japanese name (`Kagetsu`).
    pub fn name(self) -> &'static str {
        self.entry().2
    }

    /// The opening's three stones in the usual orientation on a board of odd side `size`
    /// (`h8`, then `h9` or `i9`, then the third).
    pub fn stones(self, size: usize) -> [Pos; 3] {
        let (right, up, _) = self.entry();
        [
            offset(size, 0, 0),
            self.second(size),
            offset(size, right, up),
        ]
    }

    fn second(self, size: usize) -> Pos {
        match self.family {
            Family::Direct => offset(size, 0, 1),
            Family::Indirect => offset(size, 1, 1),
        }
    }

    /// Which canonical opening three stones (black, white, black) on a board of odd side
    /// `size` are, in any of the board's eight orientations; `None` unless the first stands
    /// on the centre point, the second within the central 3x3 square and the third within
    /// the central 5x5 square, all three apart.
    pub fn recognise(size: usize, stones: [Pos; 3]) -> Option<Canonical> {
        let [a, b, c] = stones;
        let placed = stones
            .iter()
            .zip(square::CANONICAL)
            .all(|(&p, side)| square::within(size, p, side));
        if !placed || a == b || b == c || a == c {
            return None;
        }
        Canonical::ALL.into_iter().find(|k| {
            Sym::ALL.into_iter().any(|s| {
                s.apply(b, size) == k.second(size) && s.apply(c, size) == k.stones(size)[2]
            })
        })
    }
}

impl fmt::Display for Canonical {
    /// `D4 Kagetsu`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let letter = match self.family {
            Family::Direct => 'D',
            Family::Indirect => 'I',
        };
        write!(f, "{letter}{} {}", self.number, self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::parse_h8;

    fn at(s: &str) -> Pos {
        parse_h8(s, 15).unwrap()
    }

    /// RIF's diagrams of the 26 openings, by name, with the third stone in `h8` notation.
    const NAMED: [(&str, &str, &str); 26] = [
        ("D1 Kansei", "h9", "h10"),
        ("D2 Keigetsu", "h9", "i10"),
        ("D3 Sosei", "h9", "j10"),
        ("D4 Kagetsu", "h9", "i9"),
        ("D5 Zangetsu", "h9", "j9"),
        ("D6 Ugetsu", "h9", "i8"),
        ("D7 Kinsei", "h9", "j8"),
        ("D8 Shogetsu", "h9", "h7"),
        ("D9 Kyugetsu", "h9", "i7"),
        ("D10 Shingetsu", "h9", "j7"),
        ("D11 Zuisei", "h9", "h6"),
        ("D12 Sangetsu", "h9", "i6"),
        ("D13 Yusei", "h9", "j6"),
        ("I1 Chosei", "i9", "j10"),
        ("I2 Kyogetsu", "i9", "j9"),
        ("I3 Kosei", "i9", "j8"),
        ("I4 Suigetsu", "i9", "j7"),
        ("I5 Ryusei", "i9", "j6"),
        ("I6 Ungetsu", "i9", "i8"),
        ("I7 Hogetsu", "i9", "i7"),
        ("I8 Rangetsu", "i9", "i6"),
        ("I9 Gingetsu", "i9", "h7"),
        ("I10 Myojo", "i9", "h6"),
        ("I11 Shagetsu", "i9", "g7"),
        ("I12 Meigetsu", "i9", "g6"),
        ("I13 Suisei", "i9", "f6"),
    ];

    #[test]
    fn the_26_openings_are_recognised_by_name_in_every_orientation() {
        for (k, (name, second, third)) in Canonical::ALL.into_iter().zip(NAMED) {
            let stones = [at("h8"), at(second), at(third)];
            assert_eq!(k.to_string(), name);
            assert_eq!(k.stones(15), stones, "{name}");
            for s in Sym::ALL {
                let turned = stones.map(|p| s.apply(p, 15));
                assert_eq!(Canonical::recognise(15, turned), Some(k), "{name} {s:?}");
            }
        }
    }

    #[test]
    fn every_third_stone_in_the_5x5_square_is_one_of_the_26_and_they_differ() {
        // With h8 h9 (or h8 i9), the 23 free points of the 5x5 square fall into 13 classes
        // under the mirror that keeps the first two stones.
        for second in ["h9", "i9", "g7", "h7"] {
            let mut seen = Vec::new();
            for y in 5..=9 {
                for x in 5..=9 {
                    let third = Pos::new(x, y);
                    if third == at("h8") || third == at(second) {
                        continue;
                    }
                    let k = Canonical::recognise(15, [at("h8"), at(second), third]);
                    let k = k.expect("a canonical opening");
                    if !seen.contains(&k) {
                        seen.push(k);
                    }
                }
            }
            assert_eq!(seen.len(), 13, "second stone {second}");
        }
    }

    #[test]
    fn other_openings_are_not_canonical() {
        let rec = |a: &str, b: &str, c: &str| Canonical::recognise(15, [at(a), at(b), at(c)]);
        assert_eq!(rec("h9", "h8", "h10"), None, "first stone off the centre");
        assert_eq!(
            rec("h8", "h10", "i9"),
            None,
            "second stone outside the 3x3 square"
        );
        assert_eq!(
            rec("h8", "h9", "k8"),
            None,
            "third stone outside the 5x5 square"
        );
        assert_eq!(rec("h8", "h9", "h9"), None, "two stones on one point");
        assert!(rec("h8", "h9", "f10").is_some());
    }

    #[test]
    fn the_openings_sit_at_the_centre_of_any_odd_board() {
        let [a, b, c] = Canonical::ALL[0].stones(19);
        assert_eq!((a, b, c), (Pos::new(9, 9), Pos::new(9, 8), Pos::new(9, 7)));
        assert_eq!(Canonical::recognise(19, [a, b, c]), Some(Canonical::ALL[0]));
    }
}
