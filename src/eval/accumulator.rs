//! The network's incremental state ([`Accumulator`]): every cell's clipped vector and their
//! board sum, for both sides as the side to move, updated after a make or an undo for the
//! cells the move changed instead of recomputed over the board.

use super::net::{keys, Network, FEATURES, KEYS};
use crate::board::Board;
use crate::simd::Kernel;
use crate::types::{Color, Pos, CELLS};

/// The network's inputs of a board, kept up to date move by move.
#[derive(Clone)]
pub struct Accumulator {
    /// Per side to move, per cell: its clipped vector (zero for a stone).
    cells: [Vec<[i16; FEATURES]>; 2],
    /// Per side to move: the sum of its cells' vectors.
    sums: [[i32; FEATURES]; 2],
    kernel: Kernel,
}

impl Accumulator {
    /// The state of `board`, computed over every cell.
    pub fn new(net: &Network, board: &Board) -> Accumulator {
        Accumulator::with_kernel(net, board, crate::simd::best())
    }

    /// [`Accumulator::new`] with a given kernel (the tests compare kernels).
    pub fn with_kernel(net: &Network, board: &Board, kernel: Kernel) -> Accumulator {
        let mut acc = Accumulator {
            cells: [vec![[0; FEATURES]; CELLS], vec![[0; FEATURES]; CELLS]],
            sums: [[0; FEATURES]; 2],
            kernel,
        };
        for &p in board.cells() {
            acc.refresh(net, board, p);
        }
        acc
    }

    /// Brings the cells the last move changed up to date: call it after
    /// [`Board::make`] with [`Board::last_changed`], and after [`Board::undo`] with the same
    /// cells (collected before the undo).
    pub fn update(&mut self, net: &Network, board: &Board, changed: impl IntoIterator<Item = Pos>) {
        for p in changed {
            self.refresh(net, board, p);
        }
        #[cfg(debug_assertions)]
        self.assert_matches(net, board);
    }

    /// Recomputes cell `p`'s vectors and adjusts the sums.
    #[inline(always)]
    fn refresh(&mut self, net: &Network, board: &Board, p: Pos) {
        for me in Color::ALL {
            let s = me.index();
            let new = if board.is_empty(p) {
                net.cell(self.kernel, keys(board, p, me))
            } else {
                net.cell(self.kernel, [KEYS as u8; 4])
            };
            let old = std::mem::replace(&mut self.cells[s][p.index()], new);
            for ((sum, &o), &n) in self.sums[s].iter_mut().zip(&old).zip(&new) {
                *sum += n as i32 - o as i32;
            }
        }
    }

    /// The board sum with `me` to move.
    pub fn sum(&self, me: Color) -> &[i32; FEATURES] {
        &self.sums[me.index()]
    }

    /// Cell `p`'s clipped vector with `me` to move (zero for a stone).
    pub fn cell(&self, me: Color, p: Pos) -> &[i16; FEATURES] {
        &self.cells[me.index()][p.index()]
    }

    /// The value logit for the side to move.
    pub fn value_logit(&self, net: &Network, board: &Board) -> f32 {
        net.value_logit(self.sum(board.to_move()))
    }

    /// Debug builds: the state equals a recomputation from scratch.
    pub fn assert_matches(&self, net: &Network, board: &Board) {
        let fresh = Accumulator::with_kernel(net, board, Kernel::Scalar);
        assert!(
            fresh.sums == self.sums && fresh.cells == self.cells,
            "the net's accumulator differs from a recomputation"
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::net::random_net;
    use crate::movegen::{generate, GenKind, MoveList};
    use crate::types::Rule;
    use rand_xoshiro::rand_core::{RngCore, SeedableRng};
    use rand_xoshiro::Xoshiro256PlusPlus;

    /// Random games with undos under every rule: the state kept move by move equals a
    /// recomputation (the update asserts it in debug builds; checked here explicitly, so
    /// release runs check it too), and the AVX2 kernel's state equals the scalar one's.
    #[test]
    fn updates_match_a_recomputation_on_random_games() {
        let net = Network::from_bytes(&random_net(5)).expect("net");
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(11);
        for (g, rule) in Rule::ALL.into_iter().cycle().take(10).enumerate() {
            let size = [15, 20, 9, 22, 13][g % 5];
            let mut b = Board::new(size, rule);
            let mut acc = Accumulator::new(&net, &b);
            let mut scalar = Accumulator::with_kernel(&net, &b, Kernel::Scalar);
            let mut list = MoveList::new();
            for _ in 0..60 {
                generate(&mut b, GenKind::Candidates, &mut list);
                if list.is_empty() {
                    break;
                }
                if rng.next_u32() % 5 == 0 && !b.moves().is_empty() {
                    let changed: Vec<Pos> = b.last_changed().collect();
                    b.undo();
                    acc.update(&net, &b, changed.iter().copied());
                    scalar.update(&net, &b, changed);
                } else {
                    let p = list.as_slice()[rng.next_u32() as usize % list.len()].pos;
                    b.make(p);
                    let changed: Vec<Pos> = b.last_changed().collect();
                    acc.update(&net, &b, changed.iter().copied());
                    scalar.update(&net, &b, changed);
                }
                acc.assert_matches(&net, &b);
                assert!(acc.sums == scalar.sums && acc.cells == scalar.cells);
                let z = acc.value_logit(&net, &b);
                assert_eq!(z.to_bits(), net.evaluate(&b).to_bits());
            }
        }
    }
}
