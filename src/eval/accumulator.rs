//! The network's incremental state ([`Accumulator`]): every cell's clipped vector and their
//! board sum, for both sides as the side to move, updated after a make or an undo for the
//! cells the move changed instead of recomputed over the board.

use super::net::{clip, sum_rows_scalar, Network, FEATURES, QUANT};
use crate::board::Board;
use crate::simd::Kernel;
use crate::types::{Color, Dir, Pos, CELLS, MAX_SIZE, STRIDE};

/// A cell's four keys.
type Inputs = [u8; 4];
/// A cell's unclipped sum of its key vectors.
type Sum = [i16; FEATURES];

/// A cell's sums with each side to move, in one block of two cache lines (a change of the
/// cell's key touches both).
#[derive(Clone, Copy, PartialEq)]
#[repr(C, align(64))]
struct CellSums([Sum; 2]);

/// A cell's place and inputs (with each side to move) before an [`Accumulator::sync`]
/// changed them, for its undo. Both sides' together: a change of a cell's key changes both.
#[derive(Clone)]
struct Saved {
    cell: u16,
    inputs: [Inputs; 2],
}

/// The direction of the line through the distinct points `a` and `b` (on one line).
#[inline(always)]
fn direction(a: Pos, b: Pos) -> Dir {
    let dx = b.x() as isize - a.x() as isize;
    let dy = b.y() as isize - a.y() as isize;
    debug_assert!((dx, dy) != (0, 0) && (dx == 0 || dy == 0 || dx.abs() == dy.abs()));
    if dy == 0 {
        Dir::Row
    } else if dx == 0 {
        Dir::Col
    } else if (dx > 0) == (dy > 0) {
        Dir::Diag
    } else {
        Dir::Anti
    }
}

/// The inputs `old` with their key along direction `di` replaced by `key`. As a byte of one
/// word: a byte store followed by the word's load would stall the load on store forwarding
/// (a tenth of the search's time in a profile of the bench).
#[inline(always)]
fn with_key(old: Inputs, di: usize, key: u8) -> Inputs {
    let shift = 8 * di as u32;
    (u32::from_le_bytes(old) & !(0xFF << shift) | (key as u32) << shift).to_le_bytes()
}

/// A cell's sum `s` loses the rows `old` and gains the rows `new`; the change of its clipped
/// vector goes into the board sum `total`. Integer lanes that wrap: the order of the
/// additions changes no bit, and the kernels that inline it agree by construction.
#[inline(always)]
fn change_cell<const N: usize>(
    s: &mut Sum,
    total: &mut Sum,
    old: [&Sum; N],
    new: [&Sum; N],
) {
    let before = clip(s);
    let mut h = *s;
    for r in 0..N {
        for i in 0..FEATURES {
            h[i] = h[i].wrapping_sub(old[r][i]).wrapping_add(new[r][i]);
        }
    }
    *s = h;
    let after = clip(&h);
    for i in 0..FEATURES {
        total[i] = total[i].wrapping_add(after[i] - before[i]);
    }
}

/// A board sum widened to the value layers' input.
#[inline(always)]
fn widen(sum: &Sum) -> [i32; FEATURES] {
    sum.map(i32::from)
}

/// The largest board sum a lane can reach: every cell of the largest board at [`QUANT`].
/// It fits `i16`, so the board sums are kept in `i16` lanes, half the width of `i32`.
const _: () = assert!(MAX_SIZE * MAX_SIZE * QUANT as usize <= i16::MAX as usize);

/// The network's inputs of a board, kept up to date move by move.
///
/// The updates run in one function compiled twice: for AVX2, where the CPU has it, and
/// portably ([`Kernel`]). The code is the same integer arithmetic, so both give the same
/// bits (tested); inlined whole, the compiler keeps a cell's lanes in vector registers
/// from its rows to the board sum.
#[derive(Clone)]
pub struct Accumulator {
    /// Per cell, per side to move: the unclipped sum of its vectors (zero for a stone).
    sums_of_cells: Vec<CellSums>,
    /// Per cell, per side to move: its four keys.
    inputs: Vec<[Inputs; 2]>,
    /// Per side to move: the sum of its cells' clipped vectors.
    sums: [Sum; 2],
    kernel: Kernel,
    /// The cells the syncs not yet undone changed, as they were before ([`Accumulator::sync`]),
    /// and their sums, in a vector of their own (records of sums and inputs together were
    /// copied by calls to `memcpy`; callgrind).
    saved: Vec<Saved>,
    saved_sums: Vec<CellSums>,
    /// Per [`Accumulator::sync`] not yet undone, what puts it back.
    frames: Vec<Frame>,
    /// The number of the board's move records the state is of ([`Board::records`]).
    synced: usize,
}

/// What an [`Accumulator::sync`] changed, for its undo.
#[derive(Clone)]
struct Frame {
    /// Where its cells start in `saved`.
    start: usize,
    /// The board sums before it.
    sums: [Sum; 2],
    /// The record count before it.
    synced: usize,
}

impl Accumulator {
    /// The state of `board`, computed over every cell.
    pub fn new(net: &Network, board: &Board) -> Accumulator {
        Accumulator::with_kernel(net, board, crate::simd::best())
    }

    /// [`Accumulator::new`] with a given kernel (the tests compare kernels).
    pub fn with_kernel(net: &Network, board: &Board, kernel: Kernel) -> Accumulator {
        let stone = net.inputs(board, Pos::NONE, Color::Black);
        // Cell indices of a board of `size` rows are below `size * STRIDE` (a process under
        // a small `max_memory` counts every kilobyte).
        let cells = (board.size() * STRIDE).min(CELLS);
        let mut acc = Accumulator {
            sums_of_cells: vec![CellSums([[0; FEATURES]; 2]); cells],
            inputs: vec![[stone; 2]; cells],
            sums: [[0; FEATURES]; 2],
            kernel,
            saved: Vec::new(),
            saved_sums: Vec::new(),
            frames: Vec::new(),
            synced: board.records(),
        };
        for &p in board.cells() {
            acc.refresh::<false>(net, board, p);
        }
        acc
    }

    /// Brings the state up to date after [`Board::make`] of `moved`, or after
    /// [`Board::undo`] of it, with the cells whose line patterns the move changed
    /// ([`Board::last_changed`], collected before an undo). Of each such cell the move
    /// changes one input, the key along their shared line: a row operation. The search uses
    /// [`Accumulator::sync`] and [`Accumulator::undo`]; this is for the tests, the benches
    /// and the fuzzer.
    #[cfg(any(test, feature = "internals"))]
    pub fn update(
        &mut self,
        net: &Network,
        board: &Board,
        moved: Pos,
        changed: impl IntoIterator<Item = Pos>,
    ) {
        self.apply::<false>(net, board, moved, changed);
        self.synced = board.records();
        #[cfg(debug_assertions)]
        self.assert_matches(net, board);
    }

    /// The cells `moved` changed brought up to date from `board`, saving each cell's state
    /// before it changes when `RECORD`.
    #[inline(always)]
    fn apply<const RECORD: bool>(
        &mut self,
        net: &Network,
        board: &Board,
        moved: Pos,
        changed: impl IntoIterator<Item = Pos>,
    ) {
        if !moved.is_none() {
            // A key is the pair of the cell's line patterns along its direction, so only the
            // cells whose patterns the move changed have new keys, each along the one line
            // it shares with the move (caro's runs carry a change beyond five cells, still
            // along that line): those the board lists. Walking them instead of every cell
            // within five (most of which keep their keys) takes the bench 0.946 of the time.
            self.refresh::<RECORD>(net, board, moved);
            for q in changed {
                if q != moved {
                    self.refresh_along::<RECORD>(net, board, q, direction(moved, q));
                }
            }
        }
    }

    /// Brings the state up to date with `board`, whose moves since the state's own (the
    /// records from [`Accumulator::synced`] on) it applies in one step, recording what it
    /// changes so that [`Accumulator::undo`] puts it back. The search calls this only where
    /// a node reads the net (its value or its policy), not after every make: a child the
    /// table or a decided position answers never pays for its update.
    ///
    /// Each record's cells are brought up to date from the current board, not the board of
    /// their move: a key is a function of the board alone, so the cells the moves since
    /// changed, each along its line to the move that changed it, are all that can differ.
    /// Cells a later move changed again come out right as well; one it made a stone is
    /// refreshed as a stone.
    pub fn sync(&mut self, net: &Network, board: &Board) {
        let now = board.records();
        debug_assert!(self.synced <= now, "a sync after undos not rewound");
        if self.synced < now {
            self.frames.push(Frame {
                start: self.saved.len(),
                sums: self.sums,
                synced: self.synced,
            });
            match self.kernel {
                #[cfg(target_arch = "x86_64")]
                // SAFETY: `Kernel::Avx2` is only chosen when the CPU has AVX2.
                Kernel::Avx2 => unsafe { self.catch_up_avx2(net, board, now) },
                _ => self.catch_up(net, board, now),
            }
            self.synced = now;
        }
        #[cfg(debug_assertions)]
        self.assert_matches(net, board);
    }

    /// [`Accumulator::catch_up`] compiled for AVX2.
    ///
    /// # Safety
    /// The CPU has AVX2.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    unsafe fn catch_up_avx2(&mut self, net: &Network, board: &Board, now: usize) {
        self.catch_up(net, board, now)
    }

    /// Applies the board's records from the state's own to `now`, recording.
    #[inline(always)]
    fn catch_up(&mut self, net: &Network, board: &Board, now: usize) {
        for k in self.synced..now {
            let (moved, changed) = board.changed_by(k);
            self.reserve_saves(changed.len());
            self.apply::<true>(net, board, moved, changed);
        }
    }

    /// The number of the board's move records ([`Board::records`]) the state is of.
    #[cfg(test)]
    pub fn synced(&self) -> usize {
        self.synced
    }

    /// Takes back the syncs of moves since taken back, after [`Board::undo`]: the state is
    /// then of `board` or of a position before it on its line, which the next
    /// [`Accumulator::sync`] brings up to date. The search calls it after each undo (a sync
    /// after moves taken back and others made would otherwise keep the old moves' changes).
    #[inline]
    pub fn undo(&mut self, board: &Board) {
        while self.synced > board.records() {
            let f = self.frames.pop().expect("a frame for every synced record");
            for k in (f.start..self.saved.len()).rev() {
                let e = &self.saved[k];
                let i = e.cell as usize;
                self.inputs[i] = e.inputs;
                self.sums_of_cells[i] = self.saved_sums[k];
            }
            self.saved.truncate(f.start);
            self.saved_sums.truncate(f.start);
            self.sums = f.sums;
            self.synced = f.synced;
        }
    }

    /// Records cell `i`'s state with each side to move before a make changes it, in room
    /// reserved before ([`Accumulator::reserve_saves`]; a `push` copied the sum through the
    /// stack and kept the call that grows the vector in the loop, callgrind).
    #[inline(always)]
    fn save(&mut self, i: usize) {
        let (len, len_sums) = (self.saved.len(), self.saved_sums.len());
        assert!(len < self.saved.capacity() && len_sums < self.saved_sums.capacity());
        let e = Saved {
            cell: i as u16,
            inputs: self.inputs[i],
        };
        let sum = self.sums_of_cells[i];
        // SAFETY: both vectors have room for one more (asserted above), and the slots at
        // their lengths are unused.
        unsafe {
            self.saved.as_mut_ptr().add(len).write(e);
            self.saved.set_len(len + 1);
            self.saved_sums.as_mut_ptr().add(len_sums).write(sum);
            self.saved_sums.set_len(len_sums + 1);
        }
    }

    /// Makes room for the saves of one record of `changed` cells: at most one per cell (the
    /// moved cell is among them).
    #[inline(always)]
    fn reserve_saves(&mut self, changed: usize) {
        self.saved.reserve(changed);
        self.saved_sums.reserve(changed);
    }

    /// Recomputes cell `p`'s inputs and vectors and adjusts the sums (saving the cell's
    /// state first when `RECORD`).
    #[inline(always)]
    fn refresh<const RECORD: bool>(&mut self, net: &Network, board: &Board, p: Pos) {
        if RECORD {
            self.save(p.index());
        }
        // A stone's inputs are all KEYS, whose rows are zero.
        let stone = !board.is_empty(p);
        for me in Color::ALL {
            let s = me.index();
            let inputs = net.inputs(board, p, me);
            let new = if stone {
                [0; FEATURES]
            } else {
                sum_rows_scalar(net.cell_rows(inputs, me))
            };
            self.inputs[p.index()][s] = inputs;
            let slot = &mut self.sums_of_cells[p.index()].0[s];
            let (before, after) = (clip(slot), clip(&new));
            *slot = new;
            for i in 0..FEATURES {
                self.sums[s][i] = self.sums[s][i].wrapping_add(after[i] - before[i]);
            }
        }
    }

    /// Brings the inputs of cell `p` along `d` up to date (a stone on its line along `d`
    /// came or went; a stone on `p` itself has no inputs), saving the cell's state before a
    /// change when `RECORD`.
    #[inline(always)]
    fn refresh_along<const RECORD: bool>(&mut self, net: &Network, board: &Board, p: Pos, d: Dir) {
        if !board.is_empty(p) {
            return;
        }
        let (i, di) = (p.index(), d as usize);
        // Both sides' keys from the cell's two patterns, read once. They change together
        // (one is the other with its patterns swapped), and so do their pair rows
        // ([`Network::changed_rows_both`]).
        let keys = Color::ALL.map(|me| super::net::key(board, p, me, d));
        let old = self.inputs[i];
        if old[0][di] == keys[0] {
            debug_assert_eq!(old[1][di], keys[1]);
            return;
        }
        if RECORD {
            self.save(i);
        }
        let new = [0, 1].map(|s| with_key(old[s], di, keys[s]));
        self.inputs[i] = new;
        let rows = net.changed_rows_both(old, new, di);
        let cell = &mut self.sums_of_cells[i].0;
        for (s, (lose, gain)) in rows.into_iter().enumerate() {
            change_cell(&mut cell[s], &mut self.sums[s], lose, gain);
        }
    }

    /// The board sum with `me` to move.
    pub fn sum(&self, me: Color) -> [i32; FEATURES] {
        widen(&self.sums[me.index()])
    }

    /// Cell `p`'s clipped vector with `me` to move, the policy's input (zero for a stone).
    #[inline(always)]
    pub fn cell(&self, me: Color, p: Pos) -> [i16; FEATURES] {
        clip(&self.sums_of_cells[p.index()].0[me.index()])
    }

    /// The value logit for the side to move.
    pub fn value_logit(&self, net: &Network, board: &Board) -> f32 {
        debug_assert_eq!(self.synced, board.records(), "the value of a state not synced");
        net.value_logit(&self.sum(board.to_move()))
    }

    /// The value logit for the side to move of a board one move ahead of the state (its
    /// last record not synced), without changing the state: the changes of the cells that
    /// move changed, for the side to move alone, added to a copy of its board sum (the same
    /// integers a [`Accumulator::sync`] adds, so the same bits). For a leaf of the search,
    /// which reads the value and nothing else: it skips the other side's cells, and saves
    /// nothing for an undo. `None` when the state is not exactly one record behind.
    pub fn value_logit_ahead(&self, net: &Network, board: &Board) -> Option<f32> {
        if self.synced + 1 != board.records() {
            return None;
        }
        let sum = match self.kernel {
            #[cfg(target_arch = "x86_64")]
            // SAFETY: `Kernel::Avx2` is only chosen when the CPU has AVX2.
            Kernel::Avx2 => unsafe { self.sum_ahead_avx2(net, board) },
            _ => self.sum_ahead(net, board),
        };
        let z = net.value_logit(&widen(&sum));
        debug_assert_eq!(
            z.to_bits(),
            net.evaluate(board).to_bits(),
            "the value one move ahead differs from a recomputation"
        );
        Some(z)
    }

    /// [`Accumulator::sum_ahead`] compiled for AVX2.
    ///
    /// # Safety
    /// The CPU has AVX2.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    unsafe fn sum_ahead_avx2(&self, net: &Network, board: &Board) -> Sum {
        self.sum_ahead(net, board)
    }

    /// The side to move's board sum one move ahead of the state
    /// ([`Accumulator::value_logit_ahead`]).
    #[inline(always)]
    fn sum_ahead(&self, net: &Network, board: &Board) -> Sum {
        let me = board.to_move();
        let s = me.index();
        let mut sum = self.sums[s];
        let (moved, changed) = board.changed_by(self.synced);
        if !moved.is_none() {
            // The move's cell: a stone now, whose rows are zero.
            let stone = if board.is_empty(moved) {
                sum_rows_scalar(net.cell_rows(net.inputs(board, moved, me), me))
            } else {
                [0; FEATURES]
            };
            let (before, after) = (clip(&self.sums_of_cells[moved.index()].0[s]), clip(&stone));
            for i in 0..FEATURES {
                sum[i] = sum[i].wrapping_add(after[i] - before[i]);
            }
            for q in changed {
                if q == moved || !board.is_empty(q) {
                    continue;
                }
                let d = direction(moved, q);
                let (old, di) = (self.inputs[q.index()][s], d as usize);
                let key = super::net::key(board, q, me, d);
                if old[di] != key {
                    let new = with_key(old, di, key);
                    let mut cell = self.sums_of_cells[q.index()].0[s];
                    let (lose, gain) = net.changed_rows(old, new, di, me);
                    change_cell(&mut cell, &mut sum, lose, gain);
                }
            }
        }
        sum
    }

    /// Debug builds: the state equals a recomputation from scratch.
    #[cfg(any(debug_assertions, test, feature = "internals"))]
    pub fn assert_matches(&self, net: &Network, board: &Board) {
        let fresh = Accumulator::with_kernel(net, board, Kernel::Scalar);
        assert!(
            fresh.sums == self.sums
                && fresh.sums_of_cells == self.sums_of_cells
                && fresh.inputs == self.inputs,
            "the net's accumulator differs from a recomputation"
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::net::{random_net, random_net6, random_net8};
    use crate::movegen::{generate, GenKind, MoveList};
    use crate::types::Rule;
    use rand_xoshiro::rand_core::{RngCore, SeedableRng};
    use rand_xoshiro::Xoshiro256PlusPlus;

    /// Random games with undos and passes under every rule: the state kept move by move
    /// equals a recomputation (the update asserts it in debug builds; checked here
    /// explicitly, so release runs check it too), and the AVX2 kernel's state equals the
    /// scalar one's. The first keeps up as the search does, syncing at some positions only
    /// ([`Accumulator::sync`], several moves at once) and rewinding after each undo
    /// ([`Accumulator::undo`]), so that a sync may follow undos and other moves (and the
    /// value one move ahead, where it is, equals a recomputation,
    /// [`Accumulator::value_logit_ahead`]); the second updates after every make and undo
    /// ([`Accumulator::update`]).
    #[test]
    fn updates_match_a_recomputation_on_random_games() {
        let nets = [random_net(5), random_net6(6), random_net8(7), random_net6(8)]
            .map(|n| Network::from_bytes(&n).unwrap());
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(11);
        let (mut syncs, mut ahead) = (0, 0);
        for (g, rule) in Rule::ALL.into_iter().cycle().take(40).enumerate() {
            let net = &nets[g % 4];
            let size = [15, 20, 9, 22, 13][g % 5];
            let mut b = Board::new(size, rule);
            let mut acc = Accumulator::new(net, &b);
            let mut scalar = Accumulator::with_kernel(net, &b, Kernel::Scalar);
            let mut list = MoveList::new();
            for _ in 0..80 {
                generate(&mut b, GenKind::Candidates, &mut list);
                if list.is_empty() {
                    break;
                }
                let r = rng.next_u32();
                if r % 4 == 0 && !b.moves().is_empty() {
                    let changed: Vec<Pos> = b.last_changed().collect();
                    let p = *b.moves().last().unwrap();
                    b.undo();
                    acc.undo(&b);
                    scalar.update(net, &b, p, changed);
                } else if r % 23 == 1 {
                    b.make_pass();
                    scalar.update(net, &b, Pos::NONE, []);
                } else {
                    let p = list.as_slice()[rng.next_u32() as usize % list.len()].pos;
                    b.make(p);
                    let changed: Vec<Pos> = b.last_changed().collect();
                    scalar.update(net, &b, p, changed);
                }
                assert!(acc.synced() <= b.records());
                if rng.next_u32() % 3 == 0 {
                    syncs += 1;
                    if let Some(z) = acc.value_logit_ahead(net, &b) {
                        ahead += 1;
                        assert_eq!(z.to_bits(), net.evaluate(&b).to_bits());
                    }
                    acc.sync(net, &b);
                    acc.assert_matches(net, &b);
                    assert!(acc.sums == scalar.sums && acc.sums_of_cells == scalar.sums_of_cells);
                    let z = acc.value_logit(net, &b);
                    assert_eq!(z.to_bits(), net.evaluate(&b).to_bits());
                }
                scalar.assert_matches(net, &b);
            }
        }
        assert!(syncs > 500, "{syncs} syncs");
        assert!(ahead > 100, "{ahead} values one move ahead");
    }
}
