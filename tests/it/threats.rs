//! The threat-space solver against the tactical suites of `tests/data/tactics`.
//! The default run samples each suite; the full suites are `#[ignore]`d tests that CI runs
//! in release mode (`cargo test --release --test it threats:: -- --ignored`).

use crate::common::{sample, suite};
use wuzi::search::solver::{Proof, SolveLimits, Solver};
use wuzi::suite::{PointSet, SuiteRow};
use wuzi::Rule;

/// The solver's budget for a row: a node count, so that a result does not depend on the
/// machine's load. The hardest row, `renju_vcf.tsv`'s `lfz_c34_114`, takes 28.5 s alone in
/// release (about 16 million nodes at the 5.6 million of its first 10 s); it failed under a
/// 60 s deadline once when the long suites ran beside a release build.
const ROW_NODES: u64 = 64_000_000;

fn limits() -> SolveLimits {
    SolveLimits {
        nodes: ROW_NODES,
        ..SolveLimits::default()
    }
}

/// Every `vcf` row: a VCF is found and its first move is one of the answers.
fn check_vcf(rows: &[SuiteRow]) {
    check_vcf_by(rows, |solver, b| solver.vcf(b, &limits()));
}

/// Every `vcf` row: `solve` proves a win by fours whose first move is one of the answers.
fn check_vcf_by(rows: &[SuiteRow], solve: impl Fn(&mut Solver, &mut wuzi::Board) -> Proof) {
    let mut solver = Solver::new();
    let mut checked = 0;
    for row in rows.iter().filter(|r| r.task == "vcf") {
        let mut b = row.board().unwrap();
        solver.clear();
        match solve(&mut solver, &mut b) {
            Proof::Win(line) => {
                let PointSet::Points(answers) = &row.answers else {
                    panic!("{}: no answer set", row.id)
                };
                assert!(
                    answers.contains(&line[0]),
                    "{}: first move {} not an answer",
                    row.id,
                    line[0]
                );
                check_line(&mut b, &line, &row.id);
            }
            other => panic!("{}: no VCF found ({other:?})", row.id),
        }
        checked += 1;
    }
    assert!(checked > 0);
}

/// The line is playable: attacker fours answered by forced blocks, ending in a five.
fn check_line(b: &mut wuzi::Board, line: &[wuzi::Pos], id: &str) {
    let attacker = b.to_move();
    let mut won = false;
    for (i, &p) in line.iter().enumerate() {
        if p.is_none() {
            assert_ne!(b.to_move(), attacker, "{id}: the attacker passes");
            b.make_pass();
            continue;
        }
        assert!(b.is_empty(p), "{id}: line move {i} ({p}) is occupied");
        if b.makes_five(p, attacker) && b.to_move() == attacker {
            won = true;
            break;
        }
        if b.to_move() == attacker {
            assert!(
                b.threat(p, attacker).is_four(),
                "{id}: move {i} ({p}) is not a four"
            );
        }
        b.make(p);
    }
    assert!(won, "{id}: the line {line:?} does not end in a five");
}

fn check_no_vcf(rows: &[SuiteRow]) {
    let mut solver = Solver::new();
    for row in rows {
        let mut b = row.board().unwrap();
        solver.clear();
        let r = solver.vcf(&mut b, &limits());
        assert_eq!(r, Proof::NoWin, "{}: a VCF was claimed", row.id);
    }
}

#[test]
fn freestyle_vcf_sampled() {
    check_vcf(&sample(suite("tactics/freestyle_vcf.tsv"), 40));
}
#[test]
fn standard_vcf_sampled() {
    check_vcf(&sample(suite("tactics/standard_vcf.tsv"), 40));
}
#[test]
fn renju_vcf_sampled() {
    check_vcf(&sample(suite("tactics/renju_vcf.tsv"), 40));
}
#[test]
fn freestyle_no_vcf_sampled() {
    check_no_vcf(&sample(suite("tactics/freestyle_no_vcf.tsv"), 20));
}

/// The leaves' local VCF ([`Solver::vcf_local`]) on every `step`-th row of a VCF suite:
/// every win it claims is a playable line whose first move is an answer, and it proves at
/// least `min_percent` percent of the rows. Where it finds none, the full VCF on the same
/// solver, not cleared, does not answer "no win" (within a budget that keeps renju's debug
/// runs short it may run out): the local search's results (a local "no win" proves nothing
/// for the full search) are kept apart in the table.
fn check_local_vcf(file: &str, step: usize, min_percent: usize) {
    let local_limits = SolveLimits {
        nodes: 1_000_000,
        ..SolveLimits::default()
    };
    let full_limits = SolveLimits {
        nodes: 3_000,
        ..SolveLimits::default()
    };
    let mut solver = Solver::new();
    let (mut rows, mut found) = (0, 0);
    for row in sample(suite(file), step).iter().filter(|r| r.task == "vcf") {
        let mut b = row.board().unwrap();
        solver.clear();
        rows += 1;
        if let Proof::Win(line) = solver.vcf_local(&mut b, &local_limits) {
            let PointSet::Points(answers) = &row.answers else {
                panic!("{}: no answer set", row.id)
            };
            assert!(answers.contains(&line[0]), "{}: not an answer", row.id);
            check_line(&mut b.clone(), &line, &row.id);
            found += 1;
            continue;
        }
        let full = solver.vcf(&mut b, &full_limits);
        assert_ne!(
            full,
            Proof::NoWin,
            "{}: no win after the local search",
            row.id
        );
    }
    eprintln!("local VCF on {file}: {found} of {rows}");
    assert!(
        rows > 0 && found * 100 >= rows * min_percent,
        "{found} of {rows}"
    );
}

/// At the time of writing the local search proved 48 of the 51 freestyle rows and 50 of the
/// 62 renju rows.
#[test]
fn local_vcf_proves_true_wins_and_keeps_its_results_apart() {
    check_local_vcf("tactics/freestyle_vcf.tsv", 20, 85);
    check_local_vcf("tactics/renju_vcf.tsv", 20, 70);
}

/// On the rows of `freestyle_no_vcf.tsv` the local VCF claims no win either.
#[test]
fn local_vcf_claims_no_win_where_there_is_none() {
    let mut solver = Solver::new();
    for row in sample(suite("tactics/freestyle_no_vcf.tsv"), 10) {
        let mut b = row.board().unwrap();
        let r = solver.vcf_local(&mut b, &limits());
        assert!(!matches!(r, Proof::Win(_)), "{}: a VCF was claimed", row.id);
    }
}

/// A VCT node tries a win by fours before its own threats, whatever depth it has left: a
/// VCT of one attacking move proves every row of the VCF suites, with a VCF line whose first
/// move is an answer.
fn check_vct_holds_vcf(rows: &[SuiteRow]) {
    let lim = SolveLimits {
        depth: 1,
        ..limits()
    };
    check_vcf_by(rows, |solver, b| solver.vct(b, &lim));
}

#[test]
fn freestyle_vct_holds_vcf_sampled() {
    check_vct_holds_vcf(&sample(suite("tactics/freestyle_vcf.tsv"), 40));
}
#[test]
fn renju_vct_holds_vcf_sampled() {
    check_vct_holds_vcf(&sample(suite("tactics/renju_vcf.tsv"), 40));
}

#[test]
#[ignore = "long: the full suite"]
fn freestyle_vcf_full() {
    check_vcf(&suite("tactics/freestyle_vcf.tsv"));
}
#[test]
#[ignore = "long: the full suite"]
fn standard_vcf_full() {
    check_vcf(&suite("tactics/standard_vcf.tsv"));
}
#[test]
#[ignore = "long: the full suite"]
fn renju_vcf_full() {
    check_vcf(&suite("tactics/renju_vcf.tsv"));
}
#[test]
#[ignore = "long: the full suite"]
fn freestyle_no_vcf_full() {
    check_no_vcf(&suite("tactics/freestyle_no_vcf.tsv"));
}

/// The lean VCF (every rule but caro) visits the same nodes as the VCF on full moves and
/// proves the same wins with lines as long: on the freestyle suites, under freestyle and
/// again under standard and renju (where the same stones may make overlines and forbidden
/// points), on the standard suite and on the renju suites, for both sides, with the leaf
/// search's small budget (where the budget cut must fall on the same node) and a large
/// one.
/// Every 96th row of each suite here; every 24th in [`lean_vcf_matches_full_moves_on_more_rows`].
#[test]
fn lean_vcf_matches_full_moves() {
    check_lean_vcf(96, 12, 2);
}

#[test]
#[ignore = "long: four times the rows of lean_vcf_matches_full_moves"]
fn lean_vcf_matches_full_moves_on_more_rows() {
    check_lean_vcf(24, 50, 10);
}

/// The lean and the full VCF agree on every `step`-th row of the freestyle suites (under
/// freestyle, standard and renju), of the standard suite and of the renju suites; more than
/// `min_wins` of the searches prove a win and more than `min_cut` stop at the budget, under
/// each rule.
fn check_lean_vcf(step: usize, min_wins: usize, min_cut: usize) {
    let mut rows = Vec::new();
    for s in ["vcf", "no_vcf", "defend_vcf", "win"] {
        rows.extend(sample(suite(&format!("tactics/freestyle_{s}.tsv")), step));
    }
    let under = |rule: Rule, name: &str| -> Vec<SuiteRow> {
        rows.iter()
            .map(|r| SuiteRow {
                rule,
                id: format!("{} ({name})", r.id),
                ..r.clone()
            })
            .collect()
    };
    let mut standard = under(Rule::Standard, "standard");
    standard.extend(sample(suite("tactics/standard_vcf.tsv"), step / 4));
    let mut renju = under(Rule::Renju, "renju");
    for s in ["vcf", "defend_vcf", "win"] {
        renju.extend(sample(suite(&format!("tactics/renju_{s}.tsv")), step / 4));
    }
    for (rule, rows) in [
        (Rule::Freestyle, rows.clone()),
        (Rule::Standard, standard),
        (Rule::Renju, renju),
    ] {
        lean_vcf_agrees(rule, &rows, min_wins, min_cut);
    }
}

/// [`check_lean_vcf`] on the `rows` of one rule.
fn lean_vcf_agrees(rule: Rule, rows: &[SuiteRow], min_wins: usize, min_cut: usize) {
    let (mut wins, mut cut) = (0, 0);
    for row in rows {
        let mut b = row.board().unwrap();
        assert_eq!(b.rule(), rule, "{}", row.id);
        for pass in [false, true] {
            if pass {
                b.make_pass();
            }
            for nodes in [200, 20_000] {
                let lim = SolveLimits {
                    depth: 40,
                    nodes,
                    ..SolveLimits::default()
                };
                let (mut full, mut lean) = (Solver::new(), Solver::new());
                let a = full.vcf_with(&mut b, &lim, false);
                let l = lean.vcf_with(&mut b, &lim, true);
                let id = format!("{} pass {pass} nodes {nodes}", row.id);
                assert_eq!(full.nodes(), lean.nodes(), "{id}: nodes");
                match (&a, &l) {
                    (Proof::Win(x), Proof::Win(y)) => {
                        assert_eq!(x.len(), y.len(), "{id}: line length");
                        check_line(&mut b.clone(), y, &id);
                        wins += 1;
                    }
                    _ => assert_eq!(a, l, "{id}"),
                }
                cut += (a == Proof::Unknown) as usize;
            }
        }
    }
    eprintln!(
        "lean VCF under {rule:?}: {} rows, {wins} wins, {cut} cut searches",
        rows.len()
    );
    assert!(
        wins > min_wins && cut > min_cut,
        "too few wins ({wins}) or cut searches ({cut})"
    );
}

/// Against an opponent's four-three point, every reply of `freestyle_defend_vcf.tsv`'s
/// complete answer sets (the replies after which no VCF remains) is among
/// `four_three_defences`' moves, or the generator leaves the node to the full candidate
/// list (an empty list). The suite's rows are the exact set; the generator adds moves that
/// may stop the threat but let another VCF through.
#[test]
fn four_three_defences_hold_every_defence_of_the_suite() {
    use wuzi::movegen::{four_three_defences, MoveList};
    use wuzi::threat::Threat;
    let (mut rows, mut narrowed, mut moves, mut answers_seen) = (0, 0, 0, 0);
    for row in suite("tactics/freestyle_defend_vcf.tsv") {
        let mut b = row.board().unwrap();
        let me = b.to_move();
        let opp = !me;
        if b.count(opp, Threat::Block4Flex3) == 0
            || b.count(opp, Threat::Five) > 0
            || b.count(opp, Threat::Flex4) > 0
            || b.count(me, Threat::Flex4) > 0
        {
            continue;
        }
        rows += 1;
        let mut list = MoveList::new();
        four_three_defences(&mut b, &mut list);
        if list.is_empty() {
            continue;
        }
        narrowed += 1;
        moves += list.len();
        let PointSet::Points(answers) = &row.answers else {
            panic!("{}: no answer set", row.id)
        };
        for p in answers {
            answers_seen += 1;
            assert!(list.contains(*p), "{}: defence {p} missing", row.id);
        }
    }
    eprintln!(
        "four-three defences: {rows} rows, {narrowed} narrowed, {moves} moves, \
         {answers_seen} answers"
    );
    assert!(
        narrowed >= 90,
        "too few rows with a four-three point: {narrowed}"
    );
}

/// `review`: a defender's reply outside a `defend_vcf` row's complete answer set is found
/// to leave the attacker a forced win (or to miss the defender's own, which starts with an
/// answer), and every stop the review names is in the answer set (a move after which the
/// opponent has no win by threats leaves it none by fours).
#[test]
fn the_review_names_a_failed_vcf_defence_and_only_true_stops() {
    use std::time::Duration;
    use wuzi::review::{review_game, Finding, ReviewLimits};
    let rows = sample(suite("tactics/freestyle_defend_vcf.tsv"), 250);
    let mut checked = 0;
    for row in &rows {
        let PointSet::Points(answers) = &row.answers else {
            continue;
        };
        let b = row.board().unwrap();
        // A near point outside the answers: it loses to a VCF (the row's header).
        let Some(&wrong) = b
            .cells()
            .iter()
            .find(|&&p| b.is_empty(p) && b.is_near(p) && !answers.contains(&p))
        else {
            continue;
        };
        let mut moves = row.moves.clone();
        moves.push(wrong);
        let n = moves.len();
        let limits = ReviewLimits {
            first: n,
            ..ReviewLimits::new(Duration::from_secs(2))
        };
        let r = review_game(15, row.rule, &moves, &limits, &mut |_| {}).unwrap();
        assert_eq!(r.len(), 1, "{}: only the last move is reviewed", row.id);
        match &r[0].finding {
            Some(Finding::Blunder { stops, .. }) => {
                assert!(!stops.is_empty());
                for &s in stops {
                    assert!(
                        answers.contains(&s),
                        "{}: {s} is no stop of the VCF",
                        row.id
                    );
                }
            }
            Some(Finding::AlreadyLost { .. }) => {}
            // The defender had a win of its own: it must begin with a move that stops the
            // VCF (a counter-four), one of the answers.
            Some(Finding::MissedWin { line, .. }) => {
                assert!(answers.contains(&line[0]), "{}: {line:?}", row.id);
            }
            f => panic!("{}: {wrong} leaves a VCF, the review says {f:?}", row.id),
        }
        checked += 1;
    }
    assert!(checked >= 3, "{checked} rows checked");
}

/// Plays a threat line out on `b`: every move legal (a pass where the line gives one: a
/// renju defender whose only block is forbidden), the attacker's last move a five.
fn play_out_to_five(b: &mut wuzi::Board, line: &[wuzi::Pos], id: &str) {
    let attacker = b.to_move();
    let (last, moves) = line.split_last().expect("a line");
    for &p in moves {
        if p.is_none() {
            b.make_pass();
            continue;
        }
        assert!(b.is_empty(p), "{id}: {p} is occupied");
        let black = b.to_move() == wuzi::Color::Black;
        assert!(
            !(black && b.rule().has_forbidden() && b.is_forbidden(p)),
            "{id}: {p} is forbidden"
        );
        b.make(p);
    }
    assert_eq!(b.to_move(), attacker, "{id}: the attacker ends");
    assert!(b.makes_five(*last, attacker), "{id}: {line:?}");
}

/// The VCT of the `vct` rows of a win suite (every `step`-th), within 10,000 nodes each:
/// how many it proves, each line played out (legal moves, the defender's replies where
/// the line gives them, ending in the attacker's five).
fn vct_wins(file: &str, step: usize) -> (usize, usize) {
    let lim = SolveLimits {
        nodes: 10_000,
        ..SolveLimits::default()
    };
    let rows: Vec<SuiteRow> = suite(file)
        .into_iter()
        .filter(|r| r.task == "vct")
        .collect();
    let rows = sample(rows, step);
    let mut solver = Solver::new();
    let mut found = 0;
    for row in &rows {
        let mut b = row.board().unwrap();
        solver.clear();
        if let Proof::Win(line) = solver.vct(&mut b, &lim) {
            play_out_to_five(&mut b, &line, &row.id);
            found += 1;
        }
    }
    eprintln!("VCT on the vct rows of {file}: {found} of {}", rows.len());
    (found, rows.len())
}

/// The VCT's attacker looks for its wins by fours with local searches below its first
/// threat (`Solver::vcf_local`): it must still prove the VCT puzzles it proved with full
/// searches, with true lines. At the time of writing, at 10,000 nodes a row, it proves 20
/// of the 35 freestyle rows (19 with full searches) and 9 of the 25 renju rows (9).
#[test]
fn vct_proves_vct_puzzles_with_true_lines() {
    let (found, rows) = vct_wins("tactics/freestyle_win.tsv", 8);
    assert!(found * 100 >= rows * 50, "{found} of {rows}");
    let (found, rows) = vct_wins("tactics/renju_win.tsv", 16);
    assert!(found * 100 >= rows * 30, "{found} of {rows}");
}

/// A four-three or double-three point of the side to move wins when the opponent can make
/// no four (under freestyle and standard, and for renju's white): the reply to the four, or
/// to one three, lies on that threat's line, which meets the other's only at the point.
/// Over random games, in every position where that holds the VCT proves a win from the
/// point within two threats, its line played out to the five. (The search's quick win,
/// `search::node::wins_in_five`, scores such nodes as won.)
#[test]
fn a_double_threat_against_no_four_is_a_short_vct() {
    use rand_xoshiro::rand_core::{RngCore, SeedableRng};
    use wuzi::threat::Threat;
    use wuzi::Color;
    let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(20_261_130);
    let lim = SolveLimits {
        depth: 2,
        nodes: 1_000_000,
        ..SolveLimits::default()
    };
    let mut solver = Solver::new();
    let mut checked = 0;
    for rule in [Rule::Freestyle, Rule::Standard, Rule::Renju] {
        for _game in 0..30 {
            let mut b = wuzi::Board::new(15, rule);
            for _ply in 0..80 {
                let (me, opp) = (b.to_move(), !b.to_move());
                let applies = rule != Rule::Renju || me == Color::White;
                if applies
                    && b.count(opp, Threat::Five) == 0
                    && b.count(me, Threat::Five) == 0
                    && b.count(me, Threat::Flex4) == 0
                    && b.count_at_least(opp, Threat::Block4) == 0
                    && b.count(me, Threat::Block4Flex3) + b.count(me, Threat::Flex3x2) > 0
                {
                    let p = b
                        .cells()
                        .iter()
                        .copied()
                        .find(|&p| matches!(b.threat(p, me), Threat::Block4Flex3 | Threat::Flex3x2))
                        .expect("the point");
                    solver.clear();
                    let Proof::Win(line) = solver.vct_with(&mut b, p, &lim) else {
                        panic!("{rule:?} {:?}: no VCT from {p}", b.moves());
                    };
                    play_out_to_five(&mut b.clone(), &line, &format!("{rule:?} {:?}", b.moves()));
                    checked += 1;
                }
                let mut near: Vec<wuzi::Pos> = b
                    .cells()
                    .iter()
                    .copied()
                    .filter(|&p| b.is_empty(p) && (b.is_near(p) || b.stone_count() == 0))
                    .collect();
                if b.to_move() == Color::Black && rule == Rule::Renju {
                    near.retain(|&p| !b.is_forbidden(p));
                }
                if near.is_empty() {
                    break;
                }
                let p = near[rng.next_u32() as usize % near.len()];
                if b.makes_five(p, b.to_move()) {
                    break;
                }
                b.make(p);
            }
        }
    }
    eprintln!("double threats against no four: {checked} positions");
    assert!(checked >= 30, "only {checked} positions");
}
