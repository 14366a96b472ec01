//! The lines of a board of one size: which line and which place along it each cell has.

use crate::types::{Dir, Pos, CELLS, MAX_SIZE, MIN_SIZE};
use std::sync::OnceLock;

/// Most lines in one direction (diagonals of the largest board).
pub const LINES: usize = 2 * MAX_SIZE - 1;
/// Bit offset of cell 0 of a line in its `u32` mask: five margin bits below it.
pub const MARGIN: u32 = 5;

/// Per-size line geometry, built once per size and shared by every board of that size.
pub struct Geometry {
    /// Board side.
    pub size: usize,
    /// `line[d][cell]`: the index of the cell's line in direction `d`.
    pub line: [[u8; CELLS]; 4],
    /// `idx[d][cell]`: the cell's place along that line (steps in direction `d` add one).
    pub idx: [[u8; CELLS]; 4],
    /// `len[d][line]`: cells on the line.
    pub len: [[u8; LINES]; 4],
    /// `wall[d][line]`: the mask of bits outside the line (cells off the board).
    pub wall: [[u32; LINES]; 4],
    /// Every on-board cell, centre first, then by distance from the centre: the order in
    /// which move generation visits cells (centre-out), with ties broken by index.
    pub centre_out: Vec<Pos>,
    /// `start[d][line]`: the cell at place 0 of the line (place `i` is `i` steps along `d`).
    pub start: [[Pos; LINES]; 4],
    /// `rank[cell]`: the cell's place in `centre_out`.
    pub rank: [u16; CELLS],
}

impl Geometry {
    fn build(n: usize) -> Geometry {
        let mut g = Geometry {
            size: n,
            line: [[u8::MAX; CELLS]; 4],
            idx: [[u8::MAX; CELLS]; 4],
            len: [[0; LINES]; 4],
            wall: [[u32::MAX; LINES]; 4],
            centre_out: Vec::new(),
            start: [[Pos::NONE; LINES]; 4],
            rank: [u16::MAX; CELLS],
        };
        for y in 0..n {
            for x in 0..n {
                let p = Pos::new(x, y).index();
                let s = x + y;
                let lines = [
                    (y, x, n),
                    (x, y, n),
                    (x + n - 1 - y, x.min(y), n - x.abs_diff(y)),
                    (s, y - s.saturating_sub(n - 1), s.min(2 * n - 2 - s) + 1),
                ];
                for (d, &(l, i, len)) in lines.iter().enumerate() {
                    g.line[d][p] = l as u8;
                    g.idx[d][p] = i as u8;
                    g.len[d][l] = len as u8;
                    g.wall[d][l] = !(((1u32 << len) - 1) << MARGIN);
                    if i == 0 {
                        g.start[d][l] = Pos(p as u16);
                    }
                }
            }
        }
        let c = (n - 1) as f64 / 2.0;
        let mut cells: Vec<Pos> = (0..n * n).map(|i| Pos::new(i % n, i / n)).collect();
        let key = |p: &Pos| {
            let (dx, dy) = (p.x() as f64 - c, p.y() as f64 - c);
            (
                (dx.abs().max(dy.abs()) * 2.0) as u32,
                (dx * dx + dy * dy) as u32,
                p.0,
            )
        };
        cells.sort_by_key(key);
        for (r, p) in cells.iter().enumerate() {
            g.rank[p.index()] = r as u16;
        }
        g.centre_out = cells;
        g
    }

    /// The shared geometry of side `n` (`MIN_SIZE..=MAX_SIZE`).
    pub fn of(n: usize) -> &'static Geometry {
        assert!(
            (MIN_SIZE..=MAX_SIZE).contains(&n),
            "board size {n} out of range"
        );
        static ALL: [OnceLock<Box<Geometry>>; MAX_SIZE + 1] =
            [const { OnceLock::new() }; MAX_SIZE + 1];
        ALL[n].get_or_init(|| Box::new(Geometry::build(n)))
    }

    /// Steps `k` cells from `p` along `d`, if that stays on the board.
    #[inline(always)]
    pub fn step(&self, p: Pos, d: Dir, k: isize) -> Option<Pos> {
        let i = self.idx[d as usize][p.index()] as isize + k;
        let l = self.line[d as usize][p.index()] as usize;
        if i < 0 || i >= self.len[d as usize][l] as isize {
            None
        } else {
            Some(Pos((p.0 as isize + k * d.delta()) as u16))
        }
    }
}
