//! Property tests of the board and the move generator over random games: every size
//! 5..=22, every rule, passes and take-backs mixed in. The dev profile keeps debug assertions,
//! so `Board::assert_consistent` (a recomputation of every incremental field from the cells)
//! also runs after every make and undo here.
//!
//! Checked after every move:
//! - undo restores the exact state (hash, side, move list, every cell's stone, patterns,
//!   class and nearness, the class counts and pattern scores);
//! - `Candidates` returns exactly the empty points near a stone (by an independent scan of the
//!   cells) that are not forbidden for black under renju;
//! - `Fives` returns exactly the points where an independent cell-array model finds a winning
//!   five, and the board classes a four or better exactly where the model finds a four (a
//!   stone after which one more stone makes a five through it);
//! - the combination-value sums against a scan of the cells;
//! - every cell's line-window codes (`Board::window_code`) against a scan of the cells;
//! - `five_defences` and `three_defences` against the opponent's fours and open threes
//!   (brute force: every reply tried).

use rand_xoshiro::rand_core::{RngCore, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use wuzi::movegen::{
    five_defences, four_three_defences, generate, three_defences, GenKind, MoveList,
};
use wuzi::pattern::Pattern;
use wuzi::threat::Threat;
use wuzi::types::{Color, Dir, Pos, Rule};
use wuzi::Board;

/// One cell as observed: stone, both sides' classes, both sides' four patterns, nearness.
type CellView = (Option<Color>, [Threat; 2], [Pattern; 8], bool);

/// Everything observable about a board, for exact before/after comparisons.
#[derive(Debug, PartialEq)]
struct Snapshot {
    hash: u64,
    to_move: Color,
    moves: Vec<Pos>,
    cells: Vec<CellView>,
    counts: Vec<u16>,
    pscore: [i32; 2],
}

fn snapshot(b: &Board) -> Snapshot {
    let cells = b
        .cells()
        .iter()
        .map(|&p| {
            let mut pats = [Pattern::Dead; 8];
            for (k, d) in Dir::ALL.into_iter().enumerate() {
                pats[k] = b.pattern(p, Color::Black, d);
                pats[4 + k] = b.pattern(p, Color::White, d);
            }
            let threats = [b.threat(p, Color::Black), b.threat(p, Color::White)];
            (b.stone(p), threats, pats, b.is_near(p))
        })
        .collect();
    let counts = Color::ALL
        .into_iter()
        .flat_map(|c| Threat::ALL.into_iter().map(move |t| (c, t)))
        .map(|(c, t)| b.count(c, t))
        .collect();
    Snapshot {
        hash: b.hash(),
        to_move: b.to_move(),
        moves: b.moves().to_vec(),
        cells,
        counts,
        pscore: [
            wuzi::eval::pattern_score(b, Color::Black),
            wuzi::eval::pattern_score(b, Color::White),
        ],
    }
}

/// Independent of the board's counters: a stone within Chebyshev distance 2, or along one of
/// the four lines within 3 (the default neighbourhood).
fn near_by_scan(b: &Board, p: Pos) -> bool {
    b.cells().iter().any(|&q| {
        let (dx, dy) = (p.x().abs_diff(q.x()), p.y().abs_diff(q.y()));
        let d = dx.max(dy);
        b.stone(q).is_some() && d > 0 && (d <= 2 || (d <= 3 && (dx == 0 || dy == 0 || dx == dy)))
    })
}

/// A plain cell-array model of one position: wins and fours without tables or masks.
struct Model {
    size: isize,
    cells: Vec<Option<Color>>,
    rule: Rule,
}

impl Model {
    fn of(b: &Board) -> Model {
        let n = b.size();
        let cells = (0..n * n)
            .map(|i| b.stone(Pos::new(i % n, i / n)))
            .collect();
        Model {
            size: n as isize,
            cells,
            rule: b.rule(),
        }
    }

    fn at(&self, x: isize, y: isize) -> Option<Option<Color>> {
        let ok = (0..self.size).contains(&x) && (0..self.size).contains(&y);
        ok.then(|| self.cells[(y * self.size + x) as usize])
    }

    fn set(&mut self, x: isize, y: isize, c: Option<Color>) {
        self.cells[(y * self.size + x) as usize] = c;
    }

    /// Does the stone of `s` on (x, y) stand in a winning run along `d`?
    fn wins_along(&self, x: isize, y: isize, d: Dir, s: Color) -> bool {
        let (dx, dy) = d.step();
        let mut lo = 0;
        while self.at(x + (lo - 1) * dx, y + (lo - 1) * dy) == Some(Some(s)) {
            lo -= 1;
        }
        let mut hi = 0;
        while self.at(x + (hi + 1) * dx, y + (hi + 1) * dy) == Some(Some(s)) {
            hi += 1;
        }
        let len = hi - lo + 1;
        let exact = match self.rule {
            Rule::Freestyle => false,
            Rule::Standard => true,
            Rule::Renju => s == Color::Black,
            Rule::Caro { exact } => exact,
        };
        let long_enough = if exact { len == 5 } else { len >= 5 };
        let opp = Some(Some(!s));
        let closed = self.at(x + (lo - 1) * dx, y + (lo - 1) * dy) == opp
            && self.at(x + (hi + 1) * dx, y + (hi + 1) * dy) == opp;
        long_enough && !(matches!(self.rule, Rule::Caro { .. }) && closed)
    }

    fn wins(&self, x: isize, y: isize, s: Color) -> bool {
        Dir::ALL.into_iter().any(|d| self.wins_along(x, y, d, s))
    }

    /// With `s` on the empty (x, y): does one more stone within four along a line make a
    /// winning run through (x, y)? (True also when the stone itself wins.)
    fn four_or_five(&mut self, x: isize, y: isize, s: Color) -> bool {
        self.set(x, y, Some(s));
        let mut found = self.wins(x, y, s);
        for d in Dir::ALL {
            let (dx, dy) = d.step();
            for k in -4..=4 {
                let (qx, qy) = (x + k * dx, y + k * dy);
                if found || self.at(qx, qy) != Some(None) {
                    continue;
                }
                self.set(qx, qy, Some(s));
                found = self.wins_along(x, y, d, s);
                self.set(qx, qy, None);
            }
        }
        self.set(x, y, None);
        found
    }
}

fn sorted(list: &MoveList) -> Vec<Pos> {
    let mut v: Vec<Pos> = list.iter().collect();
    v.sort();
    v
}

/// The board as text (`X` black, `O` white), for failure messages.
fn diagram(b: &Board) -> String {
    let n = b.size();
    let mut s = String::new();
    for y in 0..n {
        for x in 0..n {
            s.push(match b.stone(Pos::new(x, y)) {
                Some(Color::Black) => 'X',
                Some(Color::White) => 'O',
                None => '.',
            });
        }
        s.push('\n');
    }
    s
}

/// Checks the generator on the current position.
fn check_generation(b: &mut Board, list: &mut MoveList) {
    let side = b.to_move();
    let renju_black = b.rule().has_forbidden() && side == Color::Black;
    let empties: Vec<Pos> = b
        .cells()
        .iter()
        .copied()
        .filter(|&p| b.is_empty(p))
        .collect();
    let mut forbidden = Vec::new();
    for &p in &empties {
        if renju_black && b.is_forbidden(p) {
            forbidden.push(p);
        }
    }
    let legal = |p: &Pos| !forbidden.contains(p);

    generate(b, GenKind::Candidates, list);
    let got = sorted(list);
    let mut want: Vec<Pos> = if b.stone_count() == 0 {
        let c = b.size() / 2;
        vec![Pos::new(c, c)]
    } else {
        empties
            .iter()
            .copied()
            .filter(|&p| near_by_scan(b, p) && legal(&p))
            .collect()
    };
    want.sort();
    assert_eq!(got, want, "candidates after {:?}", b.moves());
    for p in list.iter() {
        assert!(p.on_board(b.size()) && b.is_empty(p) && (b.is_near(p) || b.stone_count() == 0));
    }

    let mut model = Model::of(b);
    let mut fives = Vec::new();
    let mut fours = Vec::new();
    for &p in &empties {
        let (x, y) = (p.x() as isize, p.y() as isize);
        model.set(x, y, Some(side));
        let five = model.wins(x, y, side);
        model.set(x, y, None);
        assert_eq!(
            b.makes_five(p, side),
            five,
            "makes_five {p} {:?}",
            b.moves()
        );
        if five {
            fives.push(p);
        }
        if model.four_or_five(x, y, side) && legal(&p) {
            fours.push(p);
        }
    }
    fives.sort();
    fours.sort();
    generate(b, GenKind::Fives, list);
    assert_eq!(sorted(list), fives, "fives {}\n{}", b.rule(), diagram(b));
    // The board's own classes: a four or better exactly where the model finds one.
    let mut classed: Vec<Pos> = empties
        .iter()
        .copied()
        .filter(|&p| b.threat(p, side) >= Threat::Block4 && legal(&p))
        .collect();
    classed.sort();
    if classed != fours {
        eprintln!("{}", diagram(b));
    }
    assert_eq!(
        classed,
        fours,
        "fours {} {side} after {:?}",
        b.rule(),
        b.moves()
    );
    for p in list.iter() {
        assert!(b.threat(p, side) >= Threat::Block4);
    }
    check_defences(b, list, &empties, &legal);
}

/// Against an opponent five point, `five_defences` gives exactly the legal five points (under
/// caro: exactly the points after which the opponent has no five point).
/// Against an open three (or a double-four point), `three_defences` holds every reply that
/// leaves the opponent no straight-four point and every four of ours, and (but under caro)
/// nothing that is neither a four of ours nor a four point of the opponent's.
fn check_defences(
    b: &mut Board,
    list: &mut MoveList,
    empties: &[Pos],
    legal: &dyn Fn(&Pos) -> bool,
) {
    let me = b.to_move();
    let opp = !me;
    if b.count(opp, Threat::Five) > 0 {
        // Under caro, every point after which the opponent has no five point (brute force).
        let caro = b.rule().is_caro();
        let want: Vec<Pos> = empties
            .iter()
            .copied()
            .filter(|&p| {
                legal(&p)
                    && if caro {
                        b.make(p);
                        let stops = b.count(opp, Threat::Five) == 0;
                        b.undo();
                        stops
                    } else {
                        b.threat(p, opp) == Threat::Five
                    }
            })
            .collect();
        five_defences(b, list);
        let mut want = want;
        want.sort();
        assert_eq!(sorted(list), want, "five defences\n{}", diagram(b));
        return;
    }
    // (With a five point of ours the search plays it: no reply is asked.)
    if b.count(opp, Threat::Flex4) == 0
        && b.count(me, Threat::Flex4) == 0
        && b.count(me, Threat::Five) == 0
    {
        check_four_three_defences(b, list, empties);
    }
    if b.count(opp, Threat::Flex4) == 0 || b.count(me, Threat::Flex4) > 0 {
        return;
    }
    three_defences(b, list);
    let got = sorted(list);
    let flex4: Vec<Pos> = empties
        .iter()
        .copied()
        .filter(|&q| b.threat(q, opp) == Threat::Flex4)
        .collect();
    for &p in empties.iter().filter(|p| legal(p)) {
        let four = b.threat(p, me) >= Threat::Block4;
        // A point more than five cells from every straight-four point shares no five with it.
        if !four && flex4.iter().all(|q| q.dist(p) > 5) {
            assert!(!got.contains(&p), "far point {p}\n{}", diagram(b));
            continue;
        }
        // A four along some line (renju black's forbidden four points included).
        let opp_four = Dir::ALL
            .into_iter()
            .any(|d| b.pattern(p, opp, d) >= Pattern::B4);
        b.make(p);
        let stops = b.count(opp, Threat::Flex4) == 0;
        b.undo();
        if four || stops {
            assert!(
                got.contains(&p),
                "defence {p} missing ({}, {me} to move)\n{}",
                b.rule(),
                diagram(b)
            );
        }
        // Under caro a stone beyond a run's end defends too.
        if got.contains(&p) && !matches!(b.rule(), Rule::Caro { .. }) {
            assert!(
                four || opp_four,
                "{p} is no four of either side\n{}",
                diagram(b)
            );
        }
    }
}

/// Against a four-three point of the opponent's (freestyle and standard), with no five or
/// straight-four point on the board: `four_three_defences` holds every move that stops the
/// threat directly, tried one by one. After a move it leaves out, the opponent's stone on
/// the first four-three point still makes a four and a straight-four point that our block of
/// the four neither stops nor answers with a four. An empty list only where our stone on
/// that four's five point would make a four.
fn check_four_three_defences(b: &mut Board, list: &mut MoveList, empties: &[Pos]) {
    let me = b.to_move();
    let opp = !me;
    let applies = matches!(b.rule(), Rule::Freestyle | Rule::Standard)
        && b.count(opp, Threat::Block4Flex3) > 0;
    four_three_defences(b, list);
    if !applies {
        assert!(list.is_empty(), "no four-three point, or another rule");
        return;
    }
    let c = *b
        .cells()
        .iter()
        .find(|&&p| b.threat(p, opp) == Threat::Block4Flex3)
        .unwrap();
    // The five points of the four `c` makes, from the board after it.
    b.make_pass();
    b.make(c);
    let fives: Vec<Pos> = empties
        .iter()
        .copied()
        .filter(|&q| b.is_empty(q) && b.threat(q, opp) == Threat::Five)
        .collect();
    b.undo();
    b.undo();
    if list.is_empty() {
        assert!(
            fives.iter().any(|&q| b.threat(q, me) >= Threat::Block4),
            "no four-three defences\n{}",
            diagram(b)
        );
        return;
    }
    let got = sorted(list);
    for &p in empties {
        if got.contains(&p) {
            continue;
        }
        assert!(
            b.threat(p, me) < Threat::Block4,
            "four {p} missing\n{}",
            diagram(b)
        );
        b.make(p);
        b.make(c);
        let q = *b
            .cells()
            .iter()
            .find(|&&q| b.threat(q, opp) == Threat::Five)
            .unwrap_or_else(|| panic!("{p} stops the four of {c}\n{}", diagram(b)));
        b.make(q);
        assert!(
            b.count(me, Threat::Five) == 0 && b.count(opp, Threat::Flex4) > 0,
            "{p} stops the four-three at {c} ({}, {me} to move)\n{}",
            b.rule(),
            diagram(b)
        );
        b.undo();
        b.undo();
        b.undo();
    }
}

/// The window code of `p` along `d` for `side`, from the cells one by one: digit `k` is
/// the cell `k - 4` steps away for `k < 4`, `k - 3` from 4 on; 0 empty, 1 `side`'s, 2 the
/// other side's or off the board.
fn window_code_by_scan(b: &Board, p: Pos, side: Color, d: Dir) -> usize {
    let (dx, dy) = d.step();
    let mut code = 0;
    for (k, steps) in [-4isize, -3, -2, -1, 1, 2, 3, 4].into_iter().enumerate() {
        let (x, y) = (p.x() as isize + steps * dx, p.y() as isize + steps * dy);
        let size = b.size() as isize;
        let state = if !(0..size).contains(&x) || !(0..size).contains(&y) {
            2
        } else {
            match b.stone(Pos::new(x as usize, y as usize)) {
                None => 0,
                Some(c) if c == side => 1,
                Some(_) => 2,
            }
        };
        code += state * 3usize.pow(k as u32);
    }
    code
}

/// Every cell's window codes, both sides and four directions, against the scan.
fn check_window_codes(b: &Board) {
    for &p in b.cells() {
        for side in Color::ALL {
            for d in Dir::ALL {
                assert_eq!(
                    b.window_code(p, side, d),
                    window_code_by_scan(b, p, side, d),
                    "window code of {p} along {d:?} for {side:?}\n{}",
                    diagram(b)
                );
            }
        }
    }
}

/// The cells the move at `p` lists as changed (`Board::last_changed`, which the net's
/// accumulator reads to update each cell once): the move's point first, then empty cells on
/// the four lines through it, none twice, and among them every cell whose patterns or
/// classes differ from `was` (the snapshot before the move).
fn check_changed(b: &Board, p: Pos, was: &Snapshot) {
    let listed: Vec<Pos> = b.last_changed().collect();
    assert_eq!(listed.first(), Some(&p), "the move's point comes first");
    let mut seen = std::collections::HashSet::new();
    for &q in &listed[1..] {
        assert!(
            seen.insert(q),
            "{q:?} listed twice after {p:?}\n{}",
            diagram(b)
        );
        assert!(b.is_empty(q), "a stone listed as changed");
        let dx = q.x() as i32 - p.x() as i32;
        let dy = q.y() as i32 - p.y() as i32;
        assert!(
            dx == 0 || dy == 0 || dx == dy || dx == -dy,
            "{q:?} is on no line through {p:?}"
        );
    }
    let now = snapshot(b);
    for (i, &q) in b.cells().iter().enumerate() {
        let (a, w) = (&now.cells[i], &was.cells[i]);
        if q != p && (a.1 != w.1 || a.2 != w.2) {
            assert!(
                seen.contains(&q),
                "{q:?} changed but is not listed after {p:?}"
            );
        }
    }
}

/// Plays one random game of `steps` actions, checking every property along the way.
fn random_game(size: usize, rule: Rule, seed: u64, steps: usize) {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut b = Board::new(size, rule);
    let mut list = MoveList::new();
    let mut before: Vec<Snapshot> = Vec::new();
    for _ in 0..steps {
        let roll = rng.next_u32() % 100;
        let has_empty = b.cells().iter().any(|&p| b.is_empty(p));
        if roll < 15 && b.ply() > 0 {
            b.undo();
            let want = before.pop().expect("snapshot per ply");
            assert_eq!(snapshot(&b), want, "undo did not restore the position");
        } else {
            before.push(snapshot(&b));
            if roll < 22 || !has_empty {
                b.make_pass();
            } else if roll < 75 {
                generate(&mut b, GenKind::Candidates, &mut list);
                if list.is_empty() {
                    // Renju black with every near point forbidden: pass instead.
                    b.make_pass();
                } else {
                    let k = rng.next_u32() as usize % list.len();
                    let p = list.as_slice()[k].pos;
                    b.make(p);
                    check_changed(&b, p, before.last().expect("pushed above"));
                }
            } else {
                // Any empty point, forbidden ones included: the board must cope.
                let empties: Vec<Pos> = b
                    .cells()
                    .iter()
                    .copied()
                    .filter(|&p| b.is_empty(p))
                    .collect();
                let p = empties[rng.next_u32() as usize % empties.len()];
                b.make(p);
                check_changed(&b, p, before.last().expect("pushed above"));
            }
        }
        check_generation(&mut b, &mut list);
        check_window_codes(&b);
    }
    // Unwind to the start: every undo restores its snapshot, ending on the empty board.
    while b.ply() > 0 {
        b.undo();
        assert_eq!(Some(snapshot(&b)), before.pop());
    }
    assert_eq!(b.hash(), Board::new(size, rule).hash());
}

/// Game `game` of size `size` under `rule`: long enough to fill the small boards and crowd
/// the large ones.
fn numbered_game(size: usize, r: usize, rule: Rule, game: u64) {
    let seed = (size as u64) << 16 | (r as u64) << 8 | game;
    random_game(size, rule, seed, (size * size).min(90));
}

/// One game on every size, the rules taken in turn, so that every size and every rule is
/// played (about 5 s of one core in the dev profile, where the board also rechecks itself
/// after every make and undo).
#[test]
fn random_games_on_every_size_and_rule() {
    for size in 5..=22 {
        let r = size % Rule::ALL.len();
        numbered_game(size, r, Rule::ALL[r], 0);
    }
}

/// Eight games on every pair of size and rule.
#[test]
#[ignore = "long: 720 games"]
fn random_games_on_every_pair_of_size_and_rule() {
    for size in 5..=22 {
        for (r, rule) in Rule::ALL.into_iter().enumerate() {
            for game in 0..8 {
                numbered_game(size, r, rule, game);
            }
        }
    }
}

/// Long crowded games on 15x15 renju, where forbidden points and fours are common.
#[test]
fn long_renju_games() {
    for seed in 0..4 {
        random_game(15, Rule::Renju, 0xC0FFEE + seed, 220);
    }
}

/// Caro (five or more, not closed at both ends by opponent stones): `O XXXXX . X O` along a
/// row with the gap filled is a run of seven closed at both ends, so no five. The opponent
/// stone at the far left lies six cells from the gap, outside the eleven-cell window; the
/// board used to grade the gap as a five from the window alone.
#[test]
fn caro_long_run_closed_beyond_the_window() {
    let y = 7;
    let mut b = Board::new(15, Rule::Caro { exact: false });
    // Black on 1..=5 and 7, white on 0 and 8 (white passes keep black's stones in a row).
    for (bx, wx) in [
        (1, Some(0)),
        (2, Some(8)),
        (3, None),
        (4, None),
        (5, None),
        (7, None),
    ] {
        b.make(Pos::new(bx, y));
        match wx {
            Some(x) => b.make(Pos::new(x, y)),
            None => b.make_pass(),
        }
    }
    assert!(!b.makes_five(Pos::new(6, y), Color::Black));
    assert_eq!(
        b.pattern(Pos::new(6, y), Color::Black, Dir::Row),
        Pattern::Dead
    );
    // Without the far white stone the same run is open at the left end and wins.
    let mut open = Board::new(15, Rule::Caro { exact: false });
    for (bx, wx) in [
        (1, Some(8)),
        (2, None),
        (3, None),
        (4, None),
        (5, None),
        (7, None),
    ] {
        open.make(Pos::new(bx, y));
        match wx {
            Some(x) => open.make(Pos::new(x, y)),
            None => open.make_pass(),
        }
    }
    assert!(open.makes_five(Pos::new(6, y), Color::Black));
}

/// Pattern counts turned off over moves and take-backs, then on again, equal those of a
/// board that kept them all along (`Board::keep_pattern_counts` counts them afresh).
#[test]
fn pattern_counts_turned_back_on_match_kept_ones() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(64);
    for rule in [Rule::Freestyle, Rule::Renju] {
        let mut kept = Board::new(15, rule);
        let mut off = Board::new(15, rule);
        off.keep_pattern_counts(false);
        for _ in 0..60 {
            let empty: Vec<Pos> = kept
                .cells()
                .iter()
                .copied()
                .filter(|&p| kept.is_empty(p))
                .collect();
            if rng.next_u32() % 4 == 0 && kept.ply() > 0 {
                kept.undo();
                off.undo();
            } else {
                let p = empty[rng.next_u32() as usize % empty.len()];
                kept.make(p);
                off.make(p);
            }
        }
        off.keep_pattern_counts(true);
        assert_eq!(off.pattern_counts(), kept.pattern_counts(), "{rule:?}");
    }
}
