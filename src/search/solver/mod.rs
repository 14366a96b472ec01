//! Layer 4a: threat-space search. VCF (victory by continuous fours) and VCT (victory by
//! continuous threats: fours and open threes, with the defender's full set of replies to a
//! three, counter-fours included), in the spirit of Allis' threat-space search. Both keep a
//! table of proven results keyed by the Zobrist hash and never claim a win they have not
//! proven: every defender reply is tried.

//!
//! The files: this one holds the solver and its entry points; `table` the VCF and
//! proof-number tables; `vcf` and `vct` the two searches; `pns` the proof-number search over
//! the VCT's tree; `moves` the attacker's threat moves; `lines` the five points and the
//! closing moves of a proven line.

mod lines;
mod moves;
mod pns;
mod table;
mod vcf;
mod vct;

pub(crate) use lines::legal_flex4;

use crate::board::Board;
use crate::movegen::MoveList;
use crate::search::params::{DEPTH_FIRST_VCT_DEPTH, PN_SLOTS_MAX, PN_SLOTS_MIN};
use crate::types::Pos;
use ahash::AHashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Instant;
pub use table::VcfTable;
use table::{Entry, PnTable, PN_SLOT_BYTES, VCF_TABLE_BYTES};
use vcf::{Full, Lean};

/// The answer of a threat search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Proof {
    /// The side to move wins. The line alternates attacker and defender moves, starting with
    /// the attacker's first and ending with its five (a VCF line), or with a straight four
    /// the defender cannot stop (a VCT line may end there: two five points remain);
    /// `Pos::NONE` stands for a defender move that cannot matter (it has no way to stop the
    /// five). For VCT it is the main line: the first defence tried at each step.
    Win(Vec<Pos>),
    /// No win within the depth (proven for that depth).
    NoWin,
    /// The budget ran out first.
    Unknown,
}

/// Budget and depth of a threat search.
#[derive(Clone, Debug)]
pub struct SolveLimits {
    /// Most attacking moves in the line.
    pub depth: u8,
    /// Node budget.
    pub nodes: u64,
    /// Wall-clock deadline.
    pub deadline: Option<Instant>,
    /// Raised by another thread to stop the search.
    pub stop: Option<Arc<AtomicBool>>,
}

impl Default for SolveLimits {
    fn default() -> Self {
        SolveLimits {
            depth: 120,
            nodes: u64::MAX,
            deadline: None,
            stop: None,
        }
    }
}

/// Nodes charged for a caro defence check ([`five_defences`] or a straight four's check):
/// the few makes it takes, each dearer than a node's.
const CARO_DEFENCE_WORK: u64 = 4;

/// Default memory of a solver's VCT table, in megabytes.
pub const DEFAULT_TABLE_MB: usize = 64;
/// Bytes of one bucket of the VCT map: 16 of key and entry, 1 of control byte (the layout of
/// `hashbrown`, under `AHashMap`).
const VCT_BUCKET_BYTES: usize = 17;

/// Most entries a VCT map may hold in `bytes`. The map's buckets are a power of two, at most
/// 7/8 full, and it grows by doubling them while the old buckets live on until the move: the
/// largest map and the half-size one it grows from must fit in `bytes` together.
fn vct_entries(bytes: usize) -> usize {
    let buckets = bytes * 2 / (3 * VCT_BUCKET_BYTES);
    if buckets < 8 {
        return 0;
    }
    (1usize << buckets.ilog2()) / 8 * 7
}

/// A reusable threat-space solver (its tables survive between calls on the same game).
#[derive(Default)]
pub struct Solver {
    vcf_tt: VcfTable,
    // `ahash`: the table is hit on every VCT node; keys are already random Zobrist
    // hashes, so the fastest non-cryptographic hasher is the right one.
    vct_tt: AHashMap<u64, Entry>,
    nodes: u64,
    /// Attacker's nodes of the current VCT iteration that stopped at the depth limit with
    /// threats untried (or took such a result from the table): with none, the iteration's
    /// answer holds at every depth.
    depth_cuts: u64,
    /// `nodes` at the last clock read.
    clock_at: u64,
    limits: SolveLimits,
    /// Memory of the solver's tables in bytes, the VCF table's included (`None`:
    /// [`DEFAULT_TABLE_MB`]).
    table_bytes: Option<usize>,
    /// Most entries of the VCT table within that memory (set as a call starts).
    vct_cap: usize,
    /// A stop flag every call watches besides its limits' own ([`Solver::watch`]).
    watch: Option<Arc<AtomicBool>>,
    /// Spare move lists for the defender's nodes. Boxed: popping one moves a pointer, where
    /// an unboxed list would copy its four kilobytes out of the vector and back.
    #[allow(clippy::vec_box)]
    lists: Vec<Box<MoveList>>,
    /// The current call is a local VCF ([`Solver::vcf_local`]).
    local: bool,
    /// The proof-number search's numbers.
    pn_tt: PnTable,
}

/// Error result of a budget check.
struct Abort;

type Res = Result<bool, Abort>;

impl Solver {
    /// A fresh solver.
    pub fn new() -> Solver {
        Solver::default()
    }

    /// Makes every later call end (as out of budget) soon after `stop` is raised, whatever
    /// its limits say: a searcher's solver watches the search's stop flag, so that even its
    /// leaf checks end promptly on a stop.
    pub fn watch(&mut self, stop: Arc<AtomicBool>) {
        self.watch = Some(stop);
    }

    /// Keeps the VCF results in `table`, shared with the other solvers given it (the
    /// threads of one search), instead of a table of its own.
    pub fn share_vcf_table(&mut self, table: VcfTable) {
        self.vcf_tt = table;
    }

    /// Bounds the solver's tables to `mb` megabytes (at least one): the VCF table's fixed
    /// 512 KB, the proof-number table (a quarter, 256 KB to 16 MB) and a VCT table that
    /// is emptied when full, so that it never grows past the rest.
    pub fn limit_table(&mut self, mb: usize) {
        self.table_bytes = Some(mb.max(1) << 20);
        if self.vct_tt.capacity() > self.table_entries(false) {
            self.vct_tt = AHashMap::default();
        }
    }

    /// Most entries the VCT table holds beside the proof-number table, whose share is kept
    /// aside when the call may make it (`with_pn`) or an earlier call did.
    fn table_entries(&self, with_pn: bool) -> usize {
        let pn = if with_pn || self.pn_tt.is_allocated() {
            self.pn_slots() * PN_SLOT_BYTES
        } else {
            0
        };
        vct_entries(self.bytes().saturating_sub(VCF_TABLE_BYTES + pn))
    }

    /// Memory of the solver's tables.
    fn bytes(&self) -> usize {
        self.table_bytes.unwrap_or(DEFAULT_TABLE_MB << 20)
    }

    /// Slots of the proof-number table: a quarter of the tables' memory, within
    /// [`PN_SLOTS_MIN`] and [`PN_SLOTS_MAX`].
    pub(super) fn pn_slots(&self) -> usize {
        let quarter = self.bytes() / 4 / PN_SLOT_BYTES;
        (1usize << quarter.max(1).ilog2()).clamp(PN_SLOTS_MIN, PN_SLOTS_MAX)
    }

    /// Entries in the VCT table.
    pub fn table_len(&self) -> usize {
        self.vct_tt.len()
    }

    /// Nodes visited by the last call.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Forgets every proven result (call when the rule changes).
    pub fn clear(&mut self) {
        self.vcf_tt.clear();
        self.vct_tt.clear();
    }

    /// Stores a VCT result, emptying a full table first: the table keeps its allocation and
    /// never grows past [`Solver::limit_table`]'s memory.
    fn store_vct(&mut self, key: u64, entry: Entry) {
        if self.vct_tt.len() >= self.vct_cap {
            self.vct_tt.clear();
        }
        self.vct_tt.insert(key, entry);
    }

    /// Readies the tables and counters for a call within `limits`; `with_pn`: the call may
    /// run the proof-number search, whose table's share the VCT table then leaves free. The
    /// VCT table keeps its allocation from call to call (a solver is used one way: the
    /// searchers' depth-first, the others' with the proof-number search).
    fn start(&mut self, limits: &SolveLimits, with_pn: bool) {
        self.vcf_tt.ready();
        self.vct_cap = self.table_entries(with_pn);
        self.nodes = 0;
        self.clock_at = 0;
        self.limits = limits.clone();
    }

    /// Counts `n` nodes of work done outside a node (the makes of a caro defence check), so
    /// that budgets and the clock see it.
    fn charge(&mut self, n: u64) {
        self.nodes += n;
    }

    fn tick(&mut self) -> Result<(), Abort> {
        // Nodes between clock reads (counted since the last read, as charged work jumps): a
        // read costs ~25 ns. Debug builds recheck the whole board after every make, 90% of
        // their time in a renju root solve (perf), so 128 nodes there took seconds: a brain
        // of the test profile answered a 126 ms turn after 5.7 s (33 s on a loaded machine)
        // with `BOARD 7,7,1 4,10,2 6,6,1 5,5,2 7,6,1 5,6,2 7,5,1 7,4,2 5,7,1 4,8,2`.
        const CLOCK_EVERY: u64 = if cfg!(debug_assertions) { 4 } else { 128 };
        self.nodes += 1;
        if self.nodes > self.limits.nodes {
            return Err(Abort);
        }
        let raised =
            |s: &Option<Arc<AtomicBool>>| s.as_ref().is_some_and(|s| s.load(Ordering::Relaxed));
        if self.nodes - self.clock_at >= CLOCK_EVERY {
            self.clock_at = self.nodes;
            if self.limits.deadline.is_some_and(|d| Instant::now() >= d)
                || raised(&self.limits.stop)
                || raised(&self.watch)
            {
                return Err(Abort);
            }
        }
        Ok(())
    }

    /// Does the side to move win by continuous fours? Under every rule but caro the search
    /// makes lean moves (`Board::lean_make`); it visits the same nodes in the same order as
    /// with full moves, and proves the same wins with lines of the same length.
    pub fn vcf(&mut self, board: &mut Board, limits: &SolveLimits) -> Proof {
        self.vcf_with(board, limits, board.lean_rule())
    }

    /// A leaf's quick VCF: [`Solver::vcf`] where, after the attacker's first four, only
    /// fours close to its previous four are tried (within two cells of it, or on one of its
    /// lines within four). A chain of fours then stays where it began, and a small budget
    /// reaches deeper chains instead of trying every four of the board at every step. It
    /// proves fewer wins than the full search, never a false one; its table entries are
    /// kept apart from the full search's.
    pub fn vcf_local(&mut self, board: &mut Board, limits: &SolveLimits) -> Proof {
        self.with_local(true, |s| s.vcf(board, limits))
    }

    /// [`Solver::vcf_after`] as a local search ([`Solver::vcf_local`]).
    pub fn vcf_after_local(&mut self, board: &mut Board, p: Pos, limits: &SolveLimits) -> Proof {
        self.with_local(true, |s| s.vcf_after(board, p, limits))
    }

    /// Runs `f` with the VCF local ([`Solver::vcf_local`]) or full, as `local` says, and
    /// restores the caller's mode after it.
    fn with_local<T>(&mut self, local: bool, f: impl FnOnce(&mut Solver) -> T) -> T {
        let outer = std::mem::replace(&mut self.local, local);
        let r = f(self);
        self.local = outer;
        r
    }

    /// [`Solver::vcf`] of the position after the side to move plays `p`, on lean moves
    /// (where `Board::lean_rule` holds): the board itself does not change.
    pub fn vcf_after(&mut self, board: &mut Board, p: Pos, limits: &SolveLimits) -> Proof {
        debug_assert!(board.lean_rule());
        self.start(limits, false);
        let mut line = Vec::new();
        board.lean_begin();
        board.lean_make(p);
        let r = self.vcf_node::<Lean>(board, limits.depth, &mut line, Pos::NONE);
        board.lean_undo();
        board.lean_end();
        finish(r, line)
    }

    /// [`Solver::vcf`], with lean moves or not (tests compare the two).
    #[doc(hidden)]
    pub fn vcf_with(&mut self, board: &mut Board, limits: &SolveLimits, lean: bool) -> Proof {
        self.start(limits, false);
        let mut line = Vec::new();
        let r = self.vcf_search(board, limits.depth, &mut line, lean);
        finish(r, line)
    }

    /// A VCF search from the board as it stands, within the call's budget: on lean moves when
    /// `lean` and the rule allows them, else on full moves (the two visit the same nodes).
    fn vcf_search(&mut self, b: &mut Board, depth: u8, line: &mut Vec<Pos>, lean: bool) -> Res {
        if lean && b.lean_rule() {
            b.lean_begin();
            let r = self.vcf_node::<Lean>(b, depth, line, Pos::NONE);
            b.lean_end();
            r
        } else {
            self.vcf_node::<Full>(b, depth, line, Pos::NONE)
        }
    }

    /// Does the side to move win by continuous threats (fours and open threes)? Deepens one
    /// attacking move at a time up to five (`DEPTH_FIRST_VCT_DEPTH`; `limits.depth` if less;
    /// all of `limits.depth` under caro),
    /// so the shortest win is found first and a budget cut still leaves the shallower
    /// iterations' answer; an iteration that found no win without meeting its depth limit
    /// anywhere ends the deepening. A search the depth cut short goes on with a proof-number
    /// search (df-pn) without a depth limit, within the rest of the budget: it settles most
    /// positions without a win in thousands of nodes where the deepening ran out of budget
    /// (its wins may be longer than `limits.depth`). The attacker's wins by fours after its
    /// first threat are looked for by local searches ([`Solver::vcf_local`]), the defender's
    /// by full ones. Caro has the depth-first search only.
    pub fn vct(&mut self, board: &mut Board, limits: &SolveLimits) -> Proof {
        let caro = board.rule().is_caro();
        self.start(limits, !caro);
        let first = if caro {
            limits.depth
        } else {
            limits.depth.min(DEPTH_FIRST_VCT_DEPTH)
        };
        let proof = self.deepen(first, |s, depth, line| {
            s.vct_attack(board, depth, line, true)
        });
        if first == limits.depth || proof != Proof::NoWin || self.depth_cuts == 0 {
            return proof;
        }
        let mut line = Vec::new();
        match self.vct_pns(board, &mut line) {
            Err(Abort) => Proof::Unknown,
            Ok(false) => Proof::NoWin,
            Ok(true) => Proof::Win(line),
        }
    }

    /// [`Solver::vct`]'s depth-first search alone, deepened to all of `limits.depth`, with
    /// no proof-number search after it: the engine's searchers solve this way, since with
    /// the proof-number search the engine was no stronger (measured: docs/experiments.md,
    /// the threat solver) and its root solves mostly end without a win either way. The
    /// VCT table may then take the proof-number table's share of the memory too.
    pub fn vct_depth_first(&mut self, board: &mut Board, limits: &SolveLimits) -> Proof {
        self.start(limits, false);
        self.deepen(limits.depth, |s, depth, line| {
            s.vct_attack(board, depth, line, true)
        })
    }

    /// Does the side to move win by continuous threats starting with `p` (an empty point,
    /// legal for it)? The same search as [`Solver::vct`] with its first move fixed: a `p`
    /// that makes no four or open three is no threat, so the answer is then `NoWin` (the
    /// solver proves nothing about quiet moves). A win's line starts with `p`.
    pub fn vct_with(&mut self, board: &mut Board, p: Pos, limits: &SolveLimits) -> Proof {
        self.start(limits, false);
        if board.makes_five(p, board.to_move()) {
            return Proof::Win(vec![p]);
        }
        board.make(p);
        let proof = self.deepen(limits.depth, |s, depth, line| {
            let r = s.vct_defend(board, depth - 1, line);
            line.push(p);
            r
        });
        board.undo();
        proof
    }

    /// The VCT's iterative deepening: `search` to 1, 2, ... `max_depth` attacking moves
    /// (its line built backwards, as the nodes return), until a win, a budget cut, or an
    /// iteration that found no win without meeting its depth limit anywhere: a deeper one
    /// would search the same tree.
    fn deepen(
        &mut self,
        max_depth: u8,
        mut search: impl FnMut(&mut Self, u8, &mut Vec<Pos>) -> Res,
    ) -> Proof {
        let mut proof = Proof::NoWin;
        for depth in 1..=max_depth {
            let mut line = Vec::new();
            self.depth_cuts = 0;
            let r = search(self, depth, &mut line);
            proof = finish(r, line);
            if proof != Proof::NoWin || self.depth_cuts == 0 {
                break;
            }
        }
        proof
    }
}

fn finish(r: Res, mut line: Vec<Pos>) -> Proof {
    match r {
        Err(Abort) => Proof::Unknown,
        Ok(false) => Proof::NoWin,
        Ok(true) => {
            line.reverse();
            Proof::Win(line)
        }
    }
}

#[cfg(test)]
mod tests;
