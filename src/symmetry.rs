//! The eight symmetries of a square board (four rotations, each with or without a mirror):
//! every rule wuzi plays is the same under all of them, so the position database keys
//! positions up to them and the opening rules compare offered moves by them.

use crate::types::Pos;

/// One of the eight symmetries of an `n` x `n` board.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Sym(pub u8);

impl Sym {
    /// All eight: the identity, the three mirrors along the axes and the diagonal, the
    /// rotations and the anti-diagonal mirror.
    pub const ALL: [Sym; 8] = [
        Sym(0),
        Sym(1),
        Sym(2),
        Sym(3),
        Sym(4),
        Sym(5),
        Sym(6),
        Sym(7),
    ];

    /// Where `(x, y)` goes on an `n` x `n` board.
    pub fn apply_xy(self, x: usize, y: usize, n: usize) -> (usize, usize) {
        let (rx, ry) = (n - 1 - x, n - 1 - y);
        match self.0 & 7 {
            0 => (x, y),
            1 => (rx, y),
            2 => (x, ry),
            3 => (rx, ry),
            4 => (y, x),
            5 => (ry, x),
            6 => (y, rx),
            _ => (ry, rx),
        }
    }

    /// Where `p` goes on an `n` x `n` board (a pass stays a pass).
    pub fn apply(self, p: Pos, n: usize) -> Pos {
        if p.is_none() || !p.on_board(n) {
            return p;
        }
        let (x, y) = self.apply_xy(p.x(), p.y(), n);
        Pos::new(x, y)
    }

    /// The symmetry that undoes this one: the two quarter turns undo each other, the other
    /// six undo themselves.
    pub fn inverse(self) -> Sym {
        match self.0 & 7 {
            5 => Sym(6),
            6 => Sym(5),
            s => Sym(s),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_symmetry_is_undone_by_its_inverse() {
        for n in [5, 15, 22] {
            for s in Sym::ALL {
                for y in 0..n {
                    for x in 0..n {
                        let p = Pos::new(x, y);
                        assert_eq!(s.inverse().apply(s.apply(p, n), n), p, "{s:?} {n}");
                    }
                }
            }
        }
    }
}
