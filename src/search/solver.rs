//! Layer 4a: threat-space search. VCF (victory by continuous fours) and VCT (victory by
//! continuous threats: fours and open threes, with the defender's full set of replies to a
//! three, counter-fours included), in the spirit of Allis' threat-space search. Both keep a
//! table of proven results keyed by the Zobrist hash and never claim a win they have not
//! proven: every defender reply is tried.

use crate::board::Board;
use crate::movegen::{five_defences, five_point, three_defences, MoveList, ScoredMove};
use crate::threat::Threat;
use crate::types::{Color, Pos};
use ahash::AHashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Instant;

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

#[derive(Copy, Clone)]
struct Entry {
    win: bool,
    depth: u8,
}

/// Bits of the VCF table's index: 2^16 words, 512 KB.
const VCF_BITS: u32 = 16;

/// The VCF results: a direct-mapped table of words, each a key's upper 48 bits, the win
/// flag (bit 8) and the depth (low byte); a new result overwrites its slot. Nearly every
/// leaf of the search asks it, so it is sized to stay in the cache: the hash map it
/// replaced grew to millions of entries, and its misses cost more than the VCF moves did.
#[derive(Default)]
struct VcfTable {
    slots: Vec<u64>,
}

impl VcfTable {
    const TAG: u64 = !0xFFFF;

    /// Allocates the slots at a solver's first call, so that making a solver (every searcher
    /// has one) costs nothing until it solves.
    fn ready(&mut self) {
        if self.slots.is_empty() {
            self.slots = vec![0; 1 << VCF_BITS];
        }
    }

    #[inline(always)]
    fn slot(key: u64) -> usize {
        (key & ((1 << VCF_BITS) - 1)) as usize
    }

    #[inline(always)]
    fn get(&self, key: u64) -> Option<Entry> {
        let w = *self.slots.get(Self::slot(key))?;
        (w != 0 && (w ^ key) & Self::TAG == 0).then_some(Entry {
            win: w & 1 << 8 != 0,
            depth: w as u8,
        })
    }

    #[inline(always)]
    fn insert(&mut self, key: u64, e: Entry) {
        if let Some(w) = self.slots.get_mut(Self::slot(key)) {
            *w = (key & Self::TAG) | (e.win as u64) << 8 | e.depth as u64;
        }
    }

    /// Starts loading the slot of `key` into the cache, for a probe a little later: the
    /// table outgrows the core's share of the cache beside the transposition table, and its
    /// probe's load was the VCF node's costliest instruction.
    #[inline(always)]
    fn prefetch(&self, key: u64) {
        if let Some(w) = self.slots.get(Self::slot(key)) {
            crate::simd::prefetch(w);
        }
    }

    fn clear(&mut self) {
        self.slots.fill(0);
    }
}

/// Nodes charged for a caro defence check ([`five_defences`] or a straight four's check):
/// the few makes it takes, each dearer than a node's.
const CARO_DEFENCE_WORK: u64 = 4;

/// Default memory of a solver's VCT table, in megabytes.
pub const DEFAULT_TABLE_MB: usize = 64;
/// Bytes of map memory per VCT table entry: 16 of entry and 1 of control byte, about doubled
/// by the load factor and the growth in powers of two.
const VCT_ENTRY_BYTES: usize = 40;

/// A reusable threat-space solver (its tables survive between calls on the same game).
#[derive(Default)]
pub struct Solver {
    vcf_tt: VcfTable,
    // `ahash`: the table is hit on every VCT node; keys are already random Zobrist
    // hashes, so the fastest non-cryptographic hasher is the right one.
    vct_tt: AHashMap<u64, Entry>,
    nodes: u64,
    /// `nodes` at the last clock read.
    clock_at: u64,
    limits: SolveLimits,
    /// Memory of the VCT table in bytes (`None`: [`DEFAULT_TABLE_MB`]).
    table_bytes: Option<usize>,
    /// A stop flag every call watches besides its limits' own ([`Solver::watch`]).
    watch: Option<Arc<AtomicBool>>,
    /// Spare move lists for the defender's nodes. Boxed: popping one moves a pointer, where
    /// an unboxed list would copy its four kilobytes out of the vector and back.
    #[allow(clippy::vec_box)]
    lists: Vec<Box<MoveList>>,
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

    /// Bounds the VCT table to about `mb` megabytes (at least one): it is emptied when a
    /// call starts with more entries than that holds.
    pub fn limit_table(&mut self, mb: usize) {
        self.table_bytes = Some(mb.max(1) << 20);
    }

    /// Most entries the VCT table keeps between calls.
    fn table_entries(&self) -> usize {
        self.table_bytes.unwrap_or(DEFAULT_TABLE_MB << 20) / VCT_ENTRY_BYTES
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

    /// Keeps the VCT table within its memory (the VCF table has a fixed size). A call adds
    /// at most its node budget beyond the bound.
    fn trim(&mut self) {
        if self.vct_tt.len() > self.table_entries() {
            self.vct_tt.clear();
        }
    }

    fn start(&mut self, limits: &SolveLimits) {
        self.vcf_tt.ready();
        self.trim();
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
        self.nodes += 1;
        if self.nodes > self.limits.nodes {
            return Err(Abort);
        }
        // Every 128 nodes (counted since the last read, as charged work jumps): a clock read
        // costs ~25 ns, and debug builds (full recheck per make) are slow enough per node
        // that a longer interval delays STOP by seconds.
        let raised =
            |s: &Option<Arc<AtomicBool>>| s.as_ref().is_some_and(|s| s.load(Ordering::Relaxed));
        if self.nodes - self.clock_at >= 128 {
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

    /// Does the side to move win by continuous fours? Under freestyle the search makes lean
    /// moves (`Board::lean_make`); it visits the same nodes in the same order as with full
    /// moves, and proves the same wins with lines of the same length.
    pub fn vcf(&mut self, board: &mut Board, limits: &SolveLimits) -> Proof {
        self.vcf_with(board, limits, board.lean_rule())
    }

    /// [`Solver::vcf`] of the position after the side to move plays `p`, on lean moves
    /// (where `Board::lean_rule` holds): the board itself does not change.
    pub fn vcf_after(&mut self, board: &mut Board, p: Pos, limits: &SolveLimits) -> Proof {
        debug_assert!(board.lean_rule());
        self.start(limits);
        let mut line = Vec::new();
        board.lean_begin();
        board.lean_make(p);
        let r = self.vcf_node::<Lean>(board, limits.depth, &mut line);
        board.lean_undo();
        board.lean_end();
        finish(r, line)
    }

    /// [`Solver::vcf`], with lean moves or not (tests compare the two).
    #[doc(hidden)]
    pub fn vcf_with(&mut self, board: &mut Board, limits: &SolveLimits, lean: bool) -> Proof {
        self.start(limits);
        let mut line = Vec::new();
        let r = if lean && board.lean_rule() {
            board.lean_begin();
            let r = self.vcf_node::<Lean>(board, limits.depth, &mut line);
            board.lean_end();
            r
        } else {
            self.vcf_node::<Full>(board, limits.depth, &mut line)
        };
        finish(r, line)
    }

    /// Does the side to move win by continuous threats (fours and open threes)? Deepens one
    /// attacking move at a time up to `limits.depth`, so the shortest win is found first and
    /// a budget cut still leaves the shallower iterations' answer.
    pub fn vct(&mut self, board: &mut Board, limits: &SolveLimits) -> Proof {
        self.start(limits);
        let mut proof = Proof::NoWin;
        for depth in 1..=limits.depth {
            let mut line = Vec::new();
            let r = self.vct_attack(board, depth, &mut line);
            proof = finish(r, line);
            if proof != Proof::NoWin {
                break;
            }
        }
        proof
    }

    /// A VCF node, the attacker to move, on the moves of `M` (full or lean).
    fn vcf_node<M: FourMoves>(&mut self, b: &mut Board, depth: u8, line: &mut Vec<Pos>) -> Res {
        self.tick()?;
        let a = b.to_move();
        let (fives, first, _) = M::fives(b, a);
        if fives > 0 {
            line.push(first);
            return Ok(true);
        }
        if depth == 0 {
            return Ok(false);
        }
        let key = b.hash();
        if let Some(e) = self.vcf_tt.get(key) {
            // A stored win is re-derived by searching on, to rebuild its line: it is found
            // again at once through the stored wins below.
            if !e.win && e.depth >= depth {
                return Ok(false);
            }
        }
        let mut moves = [Pos::NONE; 64];
        let n = M::fours(b, a, &mut moves);
        let mut won = false;
        for &p in &moves[..n] {
            M::play(b, p);
            let r = self.after_four::<M>(b, depth, line);
            M::take_back(b);
            if r? {
                line.push(p);
                won = true;
                break;
            }
        }
        self.vcf_tt.insert(key, Entry { win: won, depth });
        Ok(won)
    }

    /// The attacker has just made a four (`b` has the defender to move). Plays the forced
    /// block and goes on with the attacker's next VCF node.
    fn after_four<M: FourMoves>(&mut self, b: &mut Board, depth: u8, line: &mut Vec<Pos>) -> Res {
        let d = b.to_move();
        let a = !d;
        if M::fives(b, d).0 > 0 {
            return Ok(false); // the defender completes its own five first
        }
        if b.rule().is_caro() {
            let mut blocks = self.lists.pop().unwrap_or_default();
            let r = self.caro_after_four::<M>(b, depth, line, &mut blocks);
            self.lists.push(blocks);
            return r;
        }
        let q = match M::fives(b, a) {
            (0, _, _) => return Ok(false),
            (1, q, _) => q,
            (_, q1, q2) => {
                two_fives_line(b, q1, q2, line);
                return Ok(true);
            }
        };
        if d == Color::Black && b.is_forbidden(q) {
            // Black cannot block on a forbidden point: any reply, then the five.
            line.push(q);
            line.push(Pos::NONE);
            return Ok(true);
        }
        // The next node probes the table after the block's make: start its load now.
        self.vcf_tt.prefetch(b.hash_after(q));
        M::play(b, q);
        let r = self.vcf_node::<M>(b, depth - 1, line);
        M::take_back(b);
        if r? {
            line.push(q);
            return Ok(true);
        }
        Ok(false)
    }

    /// [`Solver::after_four`] under caro, where one stone can stop a five point without
    /// taking it, or two five points at once ([`five_defences`]): every such block must lose.
    fn caro_after_four<M: FourMoves>(
        &mut self,
        b: &mut Board,
        depth: u8,
        line: &mut Vec<Pos>,
        blocks: &mut MoveList,
    ) -> Res {
        if M::fives(b, !b.to_move()).0 == 0 {
            return Ok(false);
        }
        self.caro_defences(b, blocks);
        if blocks.is_empty() {
            unstoppable_line(b, line);
            return Ok(true);
        }
        let mut kept = None;
        for p in blocks.iter() {
            M::play(b, p);
            let mut sub = Vec::new();
            let r = self.vcf_node::<M>(b, depth - 1, &mut sub);
            M::take_back(b);
            if !r? {
                return Ok(false);
            }
            kept.get_or_insert((p, sub));
        }
        if let Some((p, sub)) = kept {
            line.extend(sub);
            line.push(p);
        }
        Ok(true)
    }

    fn vct_attack(&mut self, b: &mut Board, depth: u8, line: &mut Vec<Pos>) -> Res {
        self.tick()?;
        let a = b.to_move();
        let d = !a;
        if let Some(p) = five_point(b, a) {
            line.push(p);
            return Ok(true);
        }
        if b.count(d, Threat::Five) > 0 {
            if b.rule().is_caro() {
                let mut blocks = self.lists.pop().unwrap_or_default();
                let r = self.vct_block(b, depth, line, &mut blocks);
                self.lists.push(blocks);
                return r;
            }
            // The defender has a four: block it; it is a threat only if the block makes one.
            let q = match fives_of(b, d) {
                (1, q) => q,
                _ => return Ok(false),
            };
            if a == Color::Black && b.is_forbidden(q) {
                return Ok(false);
            }
            b.make(q);
            let r = self.vct_defend(b, depth, line);
            b.undo();
            if r? {
                line.push(q);
                return Ok(true);
            }
            return Ok(false);
        }
        if let Some(p) = self.legal_flex4(b, a) {
            b.make(p);
            unstoppable_line(b, line);
            b.undo();
            line.push(p);
            return Ok(true);
        }
        if depth == 0 {
            return Ok(false);
        }
        let key = b.hash();
        if let Some(e) = self.vct_tt.get(&key) {
            if !e.win && e.depth >= depth {
                return Ok(false);
            }
        }
        let mut moves = [Pos::NONE; 256];
        let n = attack_moves(b, a, false, &mut moves);
        let mut won = false;
        for &p in &moves[..n] {
            b.make(p);
            let r = self.vct_defend(b, depth - 1, line);
            b.undo();
            if r? {
                line.push(p);
                won = true;
                break;
            }
        }
        self.vct_tt.insert(key, Entry { win: won, depth });
        Ok(won)
    }

    /// [`five_defences`] under caro, its makes charged as nodes.
    fn caro_defences(&mut self, b: &mut Board, list: &mut MoveList) {
        five_defences(b, list);
        self.charge(CARO_DEFENCE_WORK);
    }

    /// [`legal_flex4`], charging the caro checks' makes.
    fn legal_flex4(&mut self, b: &mut Board, side: Color) -> Option<Pos> {
        if b.rule().is_caro() {
            self.charge(CARO_DEFENCE_WORK * b.count(side, Threat::Flex4) as u64);
        }
        legal_flex4(b, side)
    }

    /// The attacker to move must stop the defender's fives (caro: any of
    /// [`five_defences`]); a block wins when it is a threat the defender cannot meet.
    fn vct_block(
        &mut self,
        b: &mut Board,
        depth: u8,
        line: &mut Vec<Pos>,
        blocks: &mut MoveList,
    ) -> Res {
        self.caro_defences(b, blocks);
        for q in blocks.iter() {
            b.make(q);
            let r = self.vct_defend(b, depth, line);
            b.undo();
            if r? {
                line.push(q);
                return Ok(true);
            }
        }
        Ok(false)
    }

    /// The defender to move against a threat. True when every defence loses.
    fn vct_defend(&mut self, b: &mut Board, depth: u8, line: &mut Vec<Pos>) -> Res {
        // Move lists are large: reuse them rather than zero a new one at every node.
        let mut moves = self.lists.pop().unwrap_or_default();
        let r = self.vct_defend_with(b, depth, line, &mut moves);
        self.lists.push(moves);
        r
    }

    fn vct_defend_with(
        &mut self,
        b: &mut Board,
        depth: u8,
        line: &mut Vec<Pos>,
        moves: &mut MoveList,
    ) -> Res {
        self.tick()?;
        let d = b.to_move();
        let a = !d;
        if b.count(d, Threat::Five) > 0 {
            return Ok(false);
        }
        moves.clear();
        match fives_of(b, a) {
            (0, _) => {
                if self.legal_flex4(b, a).is_none() {
                    return Ok(false); // no threat left: the defender is free
                }
                three_defences(b, moves);
                // The likeliest refutation first: a failed attack is dropped at its first
                // successful defence.
                for m in moves.as_mut_slice() {
                    m.score = crate::eval::move_score(b, m.pos, d);
                }
                moves.sort();
            }
            _ if b.rule().is_caro() => {
                self.caro_defences(b, moves);
                if moves.is_empty() {
                    unstoppable_line(b, line);
                    return Ok(true);
                }
            }
            (1, q) => {
                if d == Color::Black && b.is_forbidden(q) {
                    line.push(q);
                    line.push(Pos::NONE);
                    return Ok(true);
                }
                moves.push(q);
            }
            _ => {
                let (q1, q2) = two_fives(b, a);
                two_fives_line(b, q1, q2, line);
                return Ok(true);
            }
        }
        let mut first_line = Vec::new();
        for (i, r) in moves.iter().enumerate() {
            b.make(r);
            let mut sub = Vec::new();
            let res = self.vct_attack(b, depth, &mut sub);
            b.undo();
            if !res? {
                return Ok(false);
            }
            if i == 0 {
                sub.push(r);
                first_line = sub;
            }
        }
        line.extend(first_line);
        Ok(true)
    }
}

/// The moves and reads of a VCF: full moves on the board, or lean ones (freestyle).
trait FourMoves {
    fn play(b: &mut Board, p: Pos);
    fn take_back(b: &mut Board);
    /// How many five points `side` has (two at most), and the first two.
    fn fives(b: &Board, side: Color) -> (u32, Pos, Pos);
    /// The attacker's fours, strongest first ([`attack_moves`]).
    fn fours(b: &mut Board, side: Color, out: &mut [Pos; 64]) -> usize;
}

/// [`Board::make`] and the board's classes.
struct Full;

impl FourMoves for Full {
    #[inline(always)]
    fn play(b: &mut Board, p: Pos) {
        b.make(p);
    }
    #[inline(always)]
    fn take_back(b: &mut Board) {
        b.undo();
    }
    #[inline(always)]
    fn fives(b: &Board, side: Color) -> (u32, Pos, Pos) {
        match b.count(side, Threat::Five) {
            0 => (0, Pos::NONE, Pos::NONE),
            1 => (1, five_point(b, side).unwrap_or(Pos::NONE), Pos::NONE),
            _ => {
                let (q1, q2) = two_fives(b, side);
                (2, q1, q2)
            }
        }
    }
    #[inline(always)]
    fn fours(b: &mut Board, side: Color, out: &mut [Pos; 64]) -> usize {
        attack_moves(b, side, true, out)
    }
}

/// [`Board::lean_make`] and the lean masks.
struct Lean;

impl FourMoves for Lean {
    #[inline(always)]
    fn play(b: &mut Board, p: Pos) {
        b.lean_make(p);
    }
    #[inline(always)]
    fn take_back(b: &mut Board) {
        b.lean_undo();
    }
    #[inline(always)]
    fn fives(b: &Board, side: Color) -> (u32, Pos, Pos) {
        if b.lean_has_five(side) {
            b.lean_fives(side)
        } else {
            (0, Pos::NONE, Pos::NONE)
        }
    }
    #[inline(always)]
    fn fours(b: &mut Board, side: Color, out: &mut [Pos; 64]) -> usize {
        lean_four_moves(b, side, out)
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

/// Two distinct five points of `side`, which must have at least two.
fn two_fives(b: &Board, side: Color) -> (Pos, Pos) {
    let mut it = b
        .cells()
        .iter()
        .copied()
        .filter(|&p| b.is_empty(p) && b.threat(p, side) == Threat::Five);
    let q1 = it.next().unwrap_or(Pos::NONE);
    (q1, it.next().unwrap_or(q1))
}

/// How many five points `side` has, and the first.
fn fives_of(b: &Board, side: Color) -> (u16, Pos) {
    let n = b.count(side, Threat::Five);
    if n == 0 {
        return (0, Pos::NONE);
    }
    (n, five_point(b, side).unwrap_or(Pos::NONE))
}

/// A straight-four point of `side` it may play (renju black: not forbidden). Under caro the
/// class says only "two five points" (one stone may stop both): each is checked by playing it.
fn legal_flex4(b: &mut Board, side: Color) -> Option<Pos> {
    if b.count(side, Threat::Flex4) == 0 {
        return None;
    }
    let caro = b.rule().is_caro();
    let cells = b.cells();
    cells.iter().copied().find(|&p| {
        b.threat(p, side) == Threat::Flex4
            && !(side == Color::Black && b.is_forbidden(p))
            && (!caro || caro_wins_with(b, side, p))
    })
}

/// Caro: does `side` playing `p` leave the opponent no five of its own and no stone that
/// stops every five point of `side`?
fn caro_wins_with(b: &mut Board, side: Color, p: Pos) -> bool {
    let pass = b.to_move() != side;
    if pass {
        b.make_pass();
    }
    b.make(p);
    let mut blocks = MoveList::default();
    five_defences(b, &mut blocks);
    let won =
        b.count(!side, Threat::Five) == 0 && b.count(side, Threat::Five) > 0 && blocks.is_empty();
    b.undo();
    if pass {
        b.undo();
    }
    won
}

/// The defender (to move) faces the two five points `q1` and `q2`, and no stone stops both
/// (every rule but caro): writes its reply and the attacker's five, reversed as lines are
/// built. Renju black's reply is never a forbidden point: the other five point, or
/// `Pos::NONE` when both are forbidden.
fn two_fives_line(b: &mut Board, q1: Pos, q2: Pos, line: &mut Vec<Pos>) {
    let check = b.to_move() == Color::Black && b.rule().has_forbidden();
    let (reply, five) = if !(check && b.is_forbidden(q1)) {
        (q1, q2)
    } else if !(check && b.is_forbidden(q2)) {
        (q2, q1)
    } else {
        (Pos::NONE, q1)
    };
    line.push(five);
    line.push(reply);
}

/// The defender (to move) cannot stop every five of the attacker: writes its reply (a five
/// point it may play, else `Pos::NONE`) and the attacker's five after it, reversed as lines
/// are built.
fn unstoppable_line(b: &mut Board, line: &mut Vec<Pos>) {
    let d = b.to_move();
    let a = !d;
    let check = d == Color::Black && b.rule().has_forbidden();
    let cells = b.cells();
    let reply = cells
        .iter()
        .copied()
        .find(|&p| b.is_empty(p) && b.threat(p, a) == Threat::Five && !(check && b.is_forbidden(p)))
        .unwrap_or(Pos::NONE);
    let five = if reply.is_none() {
        five_point(b, a)
    } else {
        b.make(reply);
        let f = five_point(b, a);
        b.undo();
        f
    };
    line.push(five.unwrap_or(Pos::NONE));
    line.push(reply);
}

/// The rank of an attacking move: its class first, then its ordering score.
#[inline(always)]
fn attack_score(class: Threat, order: i32) -> i32 {
    (class as i32) << 20 | order.clamp(0, (1 << 20) - 1)
}

/// [`attack_moves`] with `fours_only` on lean moves: the same moves in the same order. The
/// four masks give a superset of the cells; the classes, read through the table keys, pick
/// the fours. When more than `N` qualify, the `N` first centre-out are kept, as the scan of
/// [`attack_moves`] keeps them.
fn lean_four_moves<const N: usize>(b: &Board, a: Color, out: &mut [Pos; N]) -> usize {
    let w = crate::eval::OrderWeights::for_rule(b.rule());
    let rank = &b.geometry().rank;
    let mut scored = [ScoredMove::default(); N];
    let mut n = 0;
    b.lean_four_cells(a, |p| {
        let (pat, t) = b.lean_cell(p);
        if t[a.index()] < Threat::Block4 {
            return;
        }
        let m = ScoredMove {
            pos: p,
            score: attack_score(
                t[a.index()],
                crate::eval::order::move_score_packed(pat, t, a, w),
            ),
        };
        if n < N {
            scored[n] = m;
            n += 1;
        } else {
            // Full: keep the N first centre-out (rare; linear).
            let worst = (0..N)
                .max_by_key(|&k| rank[scored[k].pos.index()])
                .unwrap_or(0);
            if rank[p.index()] < rank[scored[worst].pos.index()] {
                scored[worst] = m;
            }
        }
    });
    let scored = &mut scored[..n];
    scored.sort_unstable_by_key(ScoredMove::order_key);
    for (o, m) in out.iter_mut().zip(scored.iter()) {
        *o = m.pos;
    }
    n
}

/// The attacker's threat moves: fours (and, unless `fours_only`, open threes), strongest
/// first, legal only. Returns how many were written (at most `N`).
fn attack_moves<const N: usize>(
    b: &mut Board,
    a: Color,
    fours_only: bool,
    out: &mut [Pos; N],
) -> usize {
    // The class counts say how many cells qualify: the scan stops at the last of them.
    let least = if fours_only {
        Threat::Block4
    } else {
        Threat::Flex3
    };
    let mut left = b.count_at_least(a, least);
    let mut n = 0;
    // Ranked by class, then ordering score, ties by position (the move lists' order).
    let mut scored = [ScoredMove::default(); N];
    for &p in b.cells() {
        if left == 0 || n == N {
            break;
        }
        // An occupied cell has no class; every class from an open three up holds one (or a
        // four); renju black's forbidden cells are dropped below.
        let t = b.threat(p, a);
        if t < least {
            continue;
        }
        left -= 1;
        let score = attack_score(t, crate::eval::move_score(b, p, a));
        scored[n] = ScoredMove { pos: p, score };
        n += 1;
    }
    let scored = &mut scored[..n];
    scored.sort_unstable_by_key(ScoredMove::order_key);
    let mut k = 0;
    for m in scored.iter() {
        if a == Color::Black && b.is_forbidden(m.pos) {
            continue;
        }
        out[k] = m.pos;
        k += 1;
    }
    k
}

#[cfg(test)]
mod tests {
    use super::*;

    fn caro(moves: &str, size: usize) -> Board {
        let moves = crate::notation::parse_move_list(moves).expect("moves");
        let mut b = Board::new(size, crate::types::Rule::Caro { exact: false });
        b.play_all(&moves).expect("position");
        b
    }

    fn vcf(b: &mut Board) -> Proof {
        Solver::new().vcf(b, &SolveLimits::default())
    }

    fn vct(b: &mut Board) -> Proof {
        Solver::new().vct(b, &SolveLimits::default())
    }

    /// Plays a proven line out on `b`: every defender reply of it is legal and the last move
    /// makes the attacker's five.
    fn assert_line_ends_in_five(b: &mut Board, line: &[Pos]) {
        let attacker = b.to_move();
        let last = *line.last().expect("a line");
        for &p in &line[..line.len() - 1] {
            if p.is_none() {
                b.make_pass();
            } else {
                assert!(b.is_empty(p), "{p:?} is empty");
                assert!(
                    !(b.to_move() == Color::Black && b.rule().has_forbidden() && b.is_forbidden(p)),
                    "{p:?} is legal"
                );
                b.make(p);
            }
        }
        assert_eq!(b.to_move(), attacker);
        assert!(
            b.makes_five(last, attacker),
            "the line ends with a five at {last:?}"
        );
    }

    /// Caro: after black's four 3..6,7 (closed at 2,7 by white), white stops the five at
    /// 7,7 or just beyond it at 8,7 (the five 3..7,7 would be closed at both ends). The
    /// solver once tried only 7,7 and claimed a VCF that 8,7 refutes (found by the fuzz
    /// target `solver`: `fuzz/regressions/solver/caro-vcf-misses-the-far-end-block`).
    #[test]
    fn caro_fours_are_blocked_beyond_the_far_end_too() {
        let mut b = caro(
            "3,7 2,7 4,7 10,3 5,7 0,14 5,4 2,14 6,5 4,14 9,8 14,14 8,5 12,14 9,4 5,6",
            15,
        );
        assert!(!matches!(vcf(&mut b), Proof::Win(_)));
        b.make(Pos::new(6, 7));
        let mut blocks = MoveList::default();
        five_defences(&mut b, &mut blocks);
        assert!(blocks.contains(Pos::new(7, 7)) && blocks.contains(Pos::new(8, 7)));
        b.make(Pos::new(8, 7));
        assert_eq!(b.count(Color::Black, Threat::Five), 0, "8,7 stops the five");
    }

    /// Caro: two five points on one line are one four when a stone on one of them closes the
    /// other (docs/fuzzing.md, bug 4). Each position once gave a false VCF (and a VCT).
    #[test]
    fn caro_two_five_points_that_one_stone_closes_are_no_win() {
        // 6,7..9,7 with white at 11,7: white's 5,7 closes 6..10,7. (Black's real win is
        // the open four 5..8,7, which no stone closes.)
        let mut b = caro("6,7 11,7 7,7 0,0 8,7 14,14", 15);
        assert!(matches!(vcf(&mut b), Proof::Win(l) if l[0] == Pos::new(5, 7)));
        b.make(Pos::new(9, 7));
        let mut blocks = MoveList::default();
        five_defences(&mut b, &mut blocks);
        assert!(blocks.contains(Pos::new(5, 7)));
        b.make(Pos::new(5, 7));
        assert_eq!(
            b.count(Color::Black, Threat::Five),
            0,
            "5,7 closes both fives"
        );
        // 6,5..6,8 with white at 6,10: white's 6,4 closes 6,5..6,9.
        let mut b = caro("6,6 6,10 6,7 0,0 6,8 14,14", 15);
        assert_eq!(vcf(&mut b), Proof::NoWin);
        assert!(!matches!(vct(&mut b), Proof::Win(l) if l[0] == Pos::new(6, 5) && l.len() == 1));
        b.make(Pos::new(6, 5));
        assert!(legal_flex4(&mut b, Color::Black).is_none());
        b.make(Pos::new(6, 4));
        assert_eq!(
            b.count(Color::Black, Threat::Five),
            0,
            "6,4 closes both fives"
        );
    }

    /// An open four under caro still wins, and its line is played out to the five.
    #[test]
    fn caro_open_fours_still_win_to_the_five() {
        let mut b = caro("5,7 0,0 6,7 0,14 7,7 14,0", 15);
        let Proof::Win(line) = vcf(&mut b) else {
            panic!("an open three makes an open four")
        };
        assert_line_ends_in_five(&mut b.clone(), &line);
        let Proof::Win(line) = vct(&mut b) else {
            panic!("VCT")
        };
        assert_line_ends_in_five(&mut b, &line);
    }

    /// A VCT line ends with the five, not with the straight four before it (bug 1).
    #[test]
    fn vct_lines_end_with_the_five() {
        let moves = crate::notation::parse_move_list("9,9 9,8 8,9 10,8 10,9 9,10").expect("moves");
        let mut b = Board::new(19, crate::types::Rule::Renju);
        b.play_all(&moves).expect("position");
        let Proof::Win(line) = vct(&mut b) else {
            panic!("black wins")
        };
        assert_eq!(line.len(), 3, "four, reply, five: {line:?}");
        assert_line_ends_in_five(&mut b, &line);
    }

    /// A solver whose VCT table is limited keeps it within its entries (plus what one call
    /// adds, at most its nodes) over many calls, where an unlimited one grows past that.
    #[test]
    fn vct_table_stays_within_its_limit() {
        let moves = crate::notation::parse_move_list("7,7 8,8 6,8 8,6 7,9 7,10 8,9 5,7 6,9")
            .expect("moves");
        let mut board = Board::new(15, crate::types::Rule::Freestyle);
        board.play_all(&moves).expect("position");
        let limits = SolveLimits {
            depth: 10,
            nodes: 5_000,
            ..SolveLimits::default()
        };
        let empty: Vec<_> = board
            .cells()
            .iter()
            .copied()
            .filter(|&p| board.is_empty(p))
            .take(24)
            .collect();
        // The most entries after a call, less that call's nodes.
        let run = |solver: &mut Solver, board: &mut Board| {
            let mut most = 0;
            for &p in &empty {
                board.make(p);
                solver.vct(board, &limits);
                board.undo();
                most = most.max(solver.table_len().saturating_sub(solver.nodes() as usize));
            }
            most
        };
        let mut limited = Solver::new();
        limited.table_bytes = Some(200 * VCT_ENTRY_BYTES);
        let most = run(&mut limited, &mut board);
        assert!(most <= 200, "{most} entries past one call's, cap 200");
        let free = run(&mut Solver::new(), &mut board);
        assert!(free > 200, "the test reaches the cap: {free}");
    }

    /// The VCF table gives back what was stored under a key, nothing for a key it never
    /// saw, and the newer of two keys that share a slot.
    #[test]
    fn vcf_table_stores_and_overwrites() {
        let mut t = VcfTable::default();
        assert!(t.get(42).is_none(), "no slots before ready");
        t.ready();
        let (a, b) = (0x1234_5678_9ab0_0001u64, 0x0fed_cba9_8760_0001u64);
        assert_eq!(VcfTable::slot(a), VcfTable::slot(b));
        assert!(t.get(a).is_none());
        t.insert(
            a,
            Entry {
                win: true,
                depth: 7,
            },
        );
        let e = t.get(a).expect("stored");
        assert!(e.win && e.depth == 7);
        assert!(t.get(b).is_none(), "another key of the same slot");
        t.insert(
            b,
            Entry {
                win: false,
                depth: 200,
            },
        );
        let e = t.get(b).expect("stored");
        assert!(!e.win && e.depth == 200);
        assert!(t.get(a).is_none(), "overwritten");
        t.clear();
        assert!(t.get(b).is_none());
    }
}
