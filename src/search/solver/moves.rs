//! The attacker's threat moves, strongest first.

use crate::board::Board;
use crate::movegen::ScoredMove;
use crate::threat::Threat;
use crate::types::{Color, Pos};

/// The rank of an attacking move: its class first, then its ordering score.
#[inline(always)]
pub(super) fn attack_score(class: Threat, order: i32) -> i32 {
    (class as i32) << 20 | order.clamp(0, (1 << 20) - 1)
}

/// [`attack_moves`] with `fours_only` on lean moves: the same moves in the same order. The
/// four masks give a superset of the cells; the classes, read through the table keys, pick
/// the fours. When more than `N` qualify, the `N` first centre-out are kept, as the scan of
/// [`attack_moves`] keeps them; renju black's forbidden points are dropped after that, as
/// there.
pub(super) fn lean_four_moves<const N: usize>(
    b: &mut Board,
    a: Color,
    out: &mut [Pos; N],
) -> usize {
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
    let forbid = b.rule().forbids(a);
    let mut k = 0;
    for m in scored.iter() {
        if forbid && b.lean_is_forbidden(m.pos) {
            continue;
        }
        out[k] = m.pos;
        k += 1;
    }
    k
}

/// The attacker's threat moves: fours (and, unless `fours_only`, open threes), strongest
/// first, legal only. Returns how many were written (at most `N`).
pub(super) fn attack_moves<const N: usize>(
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
