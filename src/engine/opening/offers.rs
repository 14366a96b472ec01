//! Symmetric fifth moves. RIF's rules (Soosorv-N, Taraguchi-N, Yamaguchi) forbid offering
//! two fifth moves that are symmetrical: two offers are the same when a symmetry of the
//! board that keeps the first four stones (each on a stone of its own colour) takes one
//! offer onto the other, for then both give the same position.

use crate::symmetry::Sym;
use crate::types::Pos;

/// The board's symmetries that keep `stones` (black, white, black... in turn) on a board
/// of side `size`: the identity always, more when the stones are themselves symmetric.
pub fn keeping(size: usize, stones: &[Pos]) -> Vec<Sym> {
    Sym::ALL
        .into_iter()
        .filter(|s| {
            stones.iter().enumerate().all(|(i, &p)| {
                let q = s.apply(p, size);
                // Same parity of index: same colour.
                stones
                    .iter()
                    .position(|&r| r == q)
                    .is_some_and(|j| j % 2 == i % 2)
            })
        })
        .collect()
}

/// `moves` (points with a value) after `stones`, keeping the first of each set that a
/// symmetry keeping `stones` maps onto each other: one of each distinct position.
pub fn one_of_each<T: Copy>(size: usize, stones: &[Pos], moves: &[(Pos, T)]) -> Vec<(Pos, T)> {
    let keep = keeping(size, stones);
    let mut kept: Vec<(Pos, T)> = Vec::new();
    for &(p, v) in moves {
        if !kept
            .iter()
            .any(|&(q, _)| keep.iter().any(|t| t.apply(p, size) == q))
        {
            kept.push((p, v));
        }
    }
    kept
}

/// The first pair among `offers` that a symmetry keeping `stones` maps onto each other.
pub fn symmetric_pair(size: usize, stones: &[Pos], offers: &[Pos]) -> Option<(Pos, Pos)> {
    let keep = keeping(size, stones);
    for (i, &a) in offers.iter().enumerate() {
        for &b in &offers[i + 1..] {
            if keep.iter().any(|s| s.apply(a, size) == b) {
                return Some((a, b));
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::parse_h8;

    fn at(s: &str) -> Pos {
        parse_h8(s, 15).unwrap()
    }

    fn stones(list: &[&str]) -> Vec<Pos> {
        list.iter().map(|s| at(s)).collect()
    }

    #[test]
    fn symmetric_stones_keep_their_mirrors() {
        // h8 h9 h10 (D1) and a 4th on the h line: the mirror across the h line keeps them.
        assert_eq!(keeping(15, &stones(&["h8", "h9", "h10", "h7"])).len(), 2);
        // h8 i9 j10 (I1), 4th g7 on the same diagonal: the mirror across that diagonal
        // (the half turn and the other mirror take the white i9 to the white g7, but the
        // black j10 to the empty f6).
        assert_eq!(keeping(15, &stones(&["h8", "i9", "j10", "g7"])).len(), 2);
        // A 4th stone off every axis leaves only the identity.
        assert_eq!(keeping(15, &stones(&["h8", "h9", "h10", "i7"])).len(), 1);
        // Colours count: black h8, white h9, black h7 and white... a white stone where the
        // mirror needs a black one breaks the symmetry.
        assert_eq!(keeping(15, &stones(&["h8", "h9", "h7", "h10"])).len(), 2);
        assert_eq!(keeping(15, &stones(&["h8", "h9", "i8", "g8"])).len(), 1);
    }

    #[test]
    fn offers_mirrored_across_a_kept_axis_are_refused() {
        let four = stones(&["h8", "h9", "h10", "h7"]);
        // g8 and i8 mirror each other across the h line.
        assert_eq!(
            symmetric_pair(15, &four, &stones(&["j5", "g8", "k12", "i8"])),
            Some((at("g8"), at("i8")))
        );
        // Points on the axis, or at different heights, are different positions.
        assert_eq!(
            symmetric_pair(15, &four, &stones(&["h6", "h11", "g8", "i9"])),
            None
        );
        // Without the symmetry, g8 and i8 are two positions.
        let four = stones(&["h8", "h9", "h10", "i7"]);
        assert_eq!(symmetric_pair(15, &four, &stones(&["g8", "i8"])), None);
    }
}
