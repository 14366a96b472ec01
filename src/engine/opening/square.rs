//! The central squares of RIF's rule texts: a stone "within the central k x k square" stands
//! at most k / 2 points from the centre point along both axes (k is odd: 1 is the centre
//! point itself).

use crate::types::Pos;

/// The squares of the first three stones of a canonical opening (RIF's "26 openings"): the
/// 1st on the centre point, the 2nd within the central 3x3 square, the 3rd within the
/// central 5x5 square. Every three stones placed so are one of the 26 (see `canonical`).
pub const CANONICAL: [u8; 3] = [1, 3, 5];

/// The squares of Taraguchi's first five stones: the 1st on the centre point, then the
/// central 3x3, 5x5, 7x7 and 9x9 squares.
pub const TARAGUCHI: [u8; 5] = [1, 3, 5, 7, 9];

/// The centre point of a board of odd side `size`.
pub fn centre(size: usize) -> Pos {
    Pos::new(size / 2, size / 2)
}

/// Is `p` within the central `side` x `side` square of a board of odd side `size`?
pub fn within(size: usize, p: Pos, side: u8) -> bool {
    p.on_board(size) && p.dist(centre(size)) <= side as usize / 2
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::parse_h8;

    fn at(s: &str) -> Pos {
        parse_h8(s, 15).unwrap()
    }

    #[test]
    fn squares_are_counted_from_the_centre_point() {
        assert_eq!(centre(15), at("h8"));
        assert!(within(15, at("h8"), 1));
        assert!(!within(15, at("h9"), 1));
        // 3x3: the eight neighbours of h8.
        assert!(within(15, at("g9"), 3) && within(15, at("i7"), 3));
        assert!(!within(15, at("h10"), 3));
        // 5x5 reaches f..j and 6..10; 7x7 e..k; 9x9 d..l.
        assert!(within(15, at("j10"), 5) && !within(15, at("k8"), 5));
        assert!(within(15, at("e11"), 7) && !within(15, at("e12"), 7));
        assert!(within(15, at("d4"), 9) && !within(15, at("c8"), 9));
        let cells = |side| {
            (0..15)
                .flat_map(|y| (0..15).map(move |x| Pos::new(x, y)))
                .filter(|&p| within(15, p, side))
                .count()
        };
        assert_eq!(TARAGUCHI.map(cells), [1, 9, 25, 49, 81]);
    }
}
