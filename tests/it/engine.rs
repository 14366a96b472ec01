//! The engine facade and search: reproducibility, forced wins and defences, the random
//! choice among near-equal moves. Node limits (not time) keep every result the same on any
//! machine.

use crate::common::{sample, suite};
use wuzi::engine::{Config, Engine, GameStatus, Level};
use wuzi::search::mate_distance;
use wuzi::suite::{PointSet, SuiteRow};
use wuzi::{Limits, Pos, Rule};

fn nodes(n: u64) -> Limits {
    Limits {
        nodes: Some(n),
        ..Limits::default()
    }
}

fn engine_at(row: &SuiteRow) -> Engine {
    engine_with(row, &Config::default())
}

fn engine_with(row: &SuiteRow, config: &Config) -> Engine {
    let mut e = Engine::with_config(15, row.rule, config.clone()).unwrap();
    e.set_position(&row.moves).unwrap();
    e
}

/// A depth-5 search of a fixed opening by `e`: its move, nodes and score.
fn depth5_of_an_opening(e: &mut Engine) -> (Pos, u64, i32) {
    let moves = wuzi::notation::parse_move_list("7,7 8,7 7,10 6,9").unwrap();
    e.set_position(&moves).unwrap();
    let o = e.think(Level::Depth(5), &Limits::default(), &mut |_| {});
    (o.best, o.nodes, o.score)
}

#[test]
fn one_thread_is_reproducible() {
    let run = || depth5_of_an_opening(&mut Engine::new(15, Rule::Freestyle).unwrap());
    assert_eq!(run(), run());
}

/// A new game empties the table: the same position searched in a second game of the same
/// engine takes the same nodes as in the first (a kept table would answer from the first
/// game's entries), so a game can be replayed exactly and a fixed opponent stays fixed.
#[test]
fn a_new_game_owes_nothing_to_the_last() {
    let mut e = Engine::new(15, Rule::Freestyle).unwrap();
    let mut game = || {
        e.new_game(15, Rule::Freestyle).unwrap();
        depth5_of_an_opening(&mut e)
    };
    let first = game();
    assert_eq!(first, game());
}

#[test]
fn plays_an_immediate_five_and_blocks_one() {
    let mut e = Engine::new(15, Rule::Freestyle).unwrap();
    // Black: 7,7..7,10 (four, open at 7,6 and 7,11); white to move must block or lose.
    let moves = wuzi::notation::parse_move_list("7,7 0,0 7,8 0,2 7,9 14,14 7,10").unwrap();
    e.set_position(&moves).unwrap();
    let o = e.think(Level::Full, &nodes(50_000), &mut |_| {});
    assert!(
        [Pos::new(7, 6), Pos::new(7, 11)].contains(&o.best),
        "{}",
        o.best
    );
    e.set_position(&moves[..6]).unwrap();
    // Black to move with a four: plays the five.
    e.play(Pos::new(7, 10)).unwrap();
    e.play(Pos::new(7, 11)).unwrap();
    let o = e.think(Level::Full, &nodes(50_000), &mut |_| {});
    assert_eq!(o.best, Pos::new(7, 6));
    assert_eq!(
        e.play(o.best),
        Ok(GameStatus::Five {
            winner: wuzi::Color::Black
        })
    );
}

#[test]
fn finds_vcf_wins_through_the_engine() {
    assert_finds_vcf_wins(&Config::default());
}

/// On every hundredth `vcf` row of the freestyle VCF suite, at 20,000 nodes, the engine
/// with `config` plays a winning move with a mate score.
fn assert_finds_vcf_wins(config: &Config) {
    for row in sample(suite("tactics/freestyle_vcf.tsv"), 100) {
        if row.task != "vcf" {
            continue;
        }
        let mut e = engine_with(&row, config);
        let o = e.think(Level::Full, &nodes(20_000), &mut |_| {});
        let PointSet::Points(a) = &row.answers else {
            continue;
        };
        let threads = config.threads;
        assert!(
            a.contains(&o.best),
            "{threads} threads, {}: {}",
            row.id,
            o.best
        );
        assert!(
            mate_distance(o.score).is_some_and(|m| m > 0),
            "{threads} threads, {}: {}",
            row.id,
            o.score
        );
    }
}

/// Lazy SMP: with helper threads searching beside the main one, the engine still finds the
/// VCF wins (with a mate score) and plays the defences that one thread does.
#[test]
fn several_threads_find_wins_and_defences() {
    let with = |threads| Config {
        threads,
        ..Config::default()
    };
    for threads in [2, 3] {
        assert_finds_vcf_wins(&with(threads));
    }
    let rows = sample(suite("tactics/freestyle_defend_vcf.tsv"), 350);
    let share = defend_share_with(&rows, 20_000, &with(2));
    assert!(share >= 0.9, "two threads: {share}");
}

/// At a depth limit, whichever thread finishes the limit first ends the search: two and
/// three threads answer with a finished iteration at exactly the limit, a legal move, on
/// quiet positions of the balanced openings.
#[test]
fn several_threads_end_at_the_depth_limit() {
    let limits = Limits {
        depth: Some(6),
        ..Limits::default()
    };
    for threads in [2, 3] {
        let config = Config {
            threads,
            ..Config::default()
        };
        for row in sample(suite("openings/freestyle15_balanced_s1.tsv"), 40) {
            let mut e = engine_with(&row, &config);
            let o = e.think(Level::Full, &limits, &mut |_| {});
            assert_eq!(o.depth, 6, "{threads} threads, {}", row.id);
            assert!(
                e.board().is_empty(o.best),
                "{threads} threads, {}: {}",
                row.id,
                o.best
            );
        }
    }
}

/// Helpers do not run the root's defence checks: they search at once and take the main
/// thread's checked moves when those come. A depth limit of two plies, which a helper
/// reaches long before the checks end and which is too shallow to see the opponent's VCF,
/// leaves the checks alone to find the defence: with two threads the engine still plays one
/// wherever one thread does.
#[test]
fn helpers_play_only_checked_root_moves() {
    // The node limit caps the checks at half of it: debug builds recheck the board at every
    // make, and the checks run to tens of thousands of solver nodes.
    let limits = Limits {
        depth: Some(2),
        nodes: Some(10_000),
        ..Limits::default()
    };
    let two = Config {
        threads: 2,
        ..Config::default()
    };
    let mut defended = 0;
    for row in sample(suite("tactics/freestyle_defend_vcf.tsv"), 4) {
        let PointSet::Points(a) = &row.answers else {
            continue;
        };
        let one = engine_with(&row, &Config::default())
            .think(Level::Full, &limits, &mut |_| {})
            .best;
        let mut e = engine_with(&row, &two);
        let o = e.think(Level::Full, &limits, &mut |_| {});
        if a.contains(&one) {
            defended += 1;
            assert!(
                a.contains(&o.best),
                "{}: {} with two threads",
                row.id,
                o.best
            );
        }
        assert!(!o.dropped.contains(&o.best), "{}: {}", row.id, o.best);
    }
    assert!(defended >= 2, "one thread defended {defended} of 4 rows");
}

/// The share of `defend_vcf` rows where the engine's move is a defence (rows without one:
/// where it sees the loss).
fn defend_share(rows: &[SuiteRow], budget: u64) -> f64 {
    defend_share_with(rows, budget, &Config::default())
}

fn defend_share_with(rows: &[SuiteRow], budget: u64, config: &Config) -> f64 {
    let mut good = 0;
    for row in rows {
        let mut e = engine_with(row, config);
        let o = e.think(Level::Full, &nodes(budget), &mut |_| {});
        let ok = match &row.answers {
            PointSet::Points(a) if a.is_empty() => mate_distance(o.score).is_some_and(|m| m < 0),
            PointSet::Points(a) => a.contains(&o.best),
            _ => true,
        };
        if ok {
            good += 1;
        } else {
            eprintln!("{}: chose {} (score {})", row.id, o.best, o.score);
        }
    }
    good as f64 / rows.len() as f64
}

/// Every 150th row of the freestyle defend suite at 20,000 nodes a move: at least 90%
/// defended. About 9 s a row in the dev profile, so the quick run leaves it to the long one
/// and samples the suite through `several_threads_find_wins_and_defences`.
#[test]
#[ignore = "long: seven rows at 20,000 nodes, about a minute in the dev profile"]
fn defends_against_vcf_sampled() {
    let rows = sample(suite("tactics/freestyle_defend_vcf.tsv"), 150);
    assert!(defend_share(&rows, 20_000) >= 0.9);
}

#[test]
#[ignore = "long: run in release"]
fn defends_against_vcf_freestyle() {
    assert_defends_in_release("tactics/freestyle_defend_vcf.tsv", 4);
}

#[test]
#[ignore = "long: run in release"]
fn defends_against_vcf_renju() {
    assert_defends_in_release("tactics/renju_defend_vcf.tsv", 3);
}

/// Renju positions where a player of a real game (wuzi or Rapfi, 0.5 s a move) left the
/// opponent's long threat sequence standing though moves that stop it exist (the row's
/// answers: every stop the review proves, `examples/suite_stops.rs`): at 1,000,000 nodes
/// the engine plays a proven stop in at least 12 of the 17.
#[test]
#[ignore = "long: run in release"]
fn defends_against_long_vcts_of_renju_games() {
    let rows = suite("tactics/renju_defend_vct_games.tsv");
    assert_eq!(rows.len(), 17);
    let mut good = 0;
    for row in &rows {
        let mut e = engine_with(row, &Config::default());
        let o = e.think(Level::Full, &nodes(1_000_000), &mut |_| {});
        match &row.answers {
            PointSet::Points(a) if a.contains(&o.best) => good += 1,
            _ => eprintln!("{}: chose {} (score {})", row.id, o.best, o.score),
        }
    }
    assert!(good >= 12, "{good} of 17");
}

/// Every `every`-th row of a defend suite at 300,000 nodes a move: at least 99% defended.
fn assert_defends_in_release(file: &str, every: usize) {
    let rows = sample(suite(file), every);
    let share = defend_share(&rows, 300_000);
    eprintln!("{file} defend share {share:.3}");
    assert!(share >= 0.99, "{file}: {share}");
}

/// With a margin the engine picks among the root moves within it of the best, and only among
/// them: a move that fails low below the margin gets an upper bound under it, never a score
/// that passes for near-equal. After 7,7 8,8 the two mirror-image moves 169 and 293 tie at
/// depth 2 with the classical evaluation; the next move is 42 below.
#[test]
fn random_margin_varies_only_among_near_equal_moves() {
    let moves = wuzi::notation::parse_move_list("7,7 8,8").unwrap();
    let mut seen = std::collections::BTreeSet::new();
    let mut instead = 0;
    for seed in 0..8 {
        let config = Config {
            random_margin: Some(30),
            seed,
            eval: wuzi::eval::Evaluation::Classical,
            ..Config::default()
        };
        let mut e = Engine::with_config(15, Rule::Freestyle, config).unwrap();
        e.set_position(&moves).unwrap();
        let o = e.think(Level::Depth(2), &Limits::default(), &mut |_| {});
        let best = o.root_scores.iter().map(|r| r.1).max().unwrap();
        let near: Vec<Pos> = o
            .root_scores
            .iter()
            .filter(|r| r.1 >= best - 30)
            .map(|r| r.0)
            .collect();
        assert!(near.contains(&o.best), "chose {:?}, near {near:?}", o.best);
        assert_eq!(near.len(), 2, "{:?}", o.root_scores);
        // A pick other than the search's best says so, with the best and its score; the
        // outcome's score and line are then the chosen move's.
        match o.instead_of {
            Some((searched, score)) => {
                assert_ne!(searched, o.best);
                assert!(near.contains(&searched));
                assert_eq!(score, best);
                assert!(o.root_scores.contains(&(o.best, o.score)));
                assert_eq!(o.pv, vec![o.best]);
                instead += 1;
            }
            None => assert_eq!(o.score, best),
        }
        seen.insert(o.best);
    }
    assert_eq!(seen.len(), 2, "the margin never changed the move");
    assert!(
        (1..8).contains(&instead),
        "{instead} of 8 picks reported as others"
    );
}

/// `tests/data/freestyle_long_wins.tsv`: 75 positions from wuzi's games against PentaZen
/// right after a move of wuzi's that let Rapfi (1 s) prove a forced win of 19 to 47 plies
/// for the side to move. Rapfi finds every one in a second. The floor catches a loss of
/// tactical reach, leaving room for search changes that move a row or two either way.
#[test]
#[ignore = "long: run in release"]
fn finds_long_forced_wins() {
    let found = wins_found("freestyle_long_wins.tsv", 75);
    eprintln!("long forced wins found: {found} of 75");
    assert!(found >= 35, "{found} of 75");
}

/// How many rows of `tests/data/FILE` (which has `rows` rows, each a win for the side to
/// move) the engine reports a forced win in at 1,000,000 nodes.
fn wins_found(file: &str, rows: usize) -> usize {
    let path = crate::common::project_data_dir().join(file);
    let suite = wuzi::suite::load_suite(&path).expect("a wins suite");
    assert_eq!(suite.len(), rows, "{file}");
    suite
        .iter()
        .filter(|row| {
            let mut e = engine_at(row);
            let o = e.think(Level::Full, &nodes(1_000_000), &mut |_| {});
            mate_distance(o.score).is_some_and(|m| m > 0)
        })
        .count()
}

/// `tests/data/freestyle_pentazen_wins.tsv`: 284 positions from PentaZen's games against
/// wuzi at 1 s a move where PentaZen first announced a forced win (4 to 43 plies) for itself,
/// the side to move, and went on to win. wuzi at 1,000,000 nodes found 116 when this test was
/// written (the VCT solver alone, at 1 s a row, about a third); with the learned nets, 105
/// (gen2), 104 (gen3) and 111 (h64; `wuzi solve --engine --nodes 1000000 --suite ...`): the
/// net changes which lines the search looks at. The floor catches a loss of win-finding reach
/// beyond that.
#[test]
#[ignore = "long: run in release"]
fn finds_the_wins_pentazen_announced() {
    let found = wins_found("freestyle_pentazen_wins.tsv", 284);
    eprintln!("PentaZen's announced wins found: {found} of 284");
    assert!(found >= 100, "{found} of 284");
}

/// A move the opponent wins against by a deep VCT. In this position from a match game
/// (white to move) black wins by VCT after white's 7,5, a proof beyond the 5,000 solver
/// nodes the check at the root gives each move. The root once looked again at the chosen
/// move with 300,000 nodes (removed: self-play showed no difference without it); the search
/// itself must keep away from 7,5, from 20,000 nodes up.
#[test]
#[ignore = "long: run in release"]
fn avoids_a_move_the_opponent_wins_against_by_a_deep_vct() {
    use wuzi::search::solver::{Proof, SolveLimits, Solver};
    let moves =
        wuzi::notation::parse_move_list("7,7 8,8 6,8 8,6 7,9 7,10 8,9 5,7 6,9 5,9 5,10").unwrap();
    let bad = Pos::new(7, 5);
    // The facts the test rests on: black's VCT after 7,5, out of the first check's reach.
    let vct = |nodes: u64| {
        let mut b = wuzi::Board::new(15, Rule::Freestyle);
        b.play_all(&moves).unwrap();
        b.make(bad);
        let limits = SolveLimits {
            depth: 10,
            nodes,
            ..SolveLimits::default()
        };
        Solver::new().vct(&mut b, &limits)
    };
    assert!(matches!(vct(100_000), Proof::Win(_)));
    assert!(!matches!(vct(5_000), Proof::Win(_)));
    for budget in [20_000, 100_000] {
        let mut e = Engine::with_config(15, Rule::Freestyle, Config::default()).unwrap();
        e.set_position(&moves).unwrap();
        let best = e.think(Level::Full, &nodes(budget), &mut |_| {}).best;
        assert_ne!(best, bad, "at {budget} nodes");
    }
}

/// Other values of the search parameters (feature `tuning`: singular extension off, a costlier
/// reply to a four, no reductions of threat and root moves or internal iterative reduction,
/// no narrowing, a smaller leaf budget) keep the tactics: at least 90% of VCF wins found
/// (100,000 nodes) and of VCF threats defended (20,000 nodes) on samples of the suites, and
/// the same move and node count on a second run.
#[cfg(feature = "tuning")]
#[test]
#[ignore = "long: run in release with the feature tuning"]
fn search_parameters_keep_tactics() {
    let wins: Vec<_> = sample(suite("tactics/freestyle_vcf.tsv"), 25)
        .into_iter()
        .filter(|r| r.task == "vcf")
        .collect();
    let defends = sample(suite("tactics/freestyle_defend_vcf.tsv"), 25);
    assert!(wins.len() >= 20 && defends.len() >= 20);
    for set in [
        &[("singular_margin", 0)][..],
        &[("four_reply_ext", 130)],
        &[("singular_margin", 0), ("four_reply_ext", 130)],
        &[("lmr_threats", 0), ("iir_depth", 0), ("root_lmr_scale", 0)],
        &[("narrow_score", 0)],
        &[("leaf_vcf_nodes", 50)],
    ] {
        let mut config = Config::default();
        for &(k, v) in set {
            config.params.set(k, v).unwrap();
        }
        let found = wins
            .iter()
            .filter(|row| {
                let o = engine_with(row, &config).think(Level::Full, &nodes(100_000), &mut |_| {});
                // A win: a VCF first move, or another move the search proves.
                let won = mate_distance(o.score).is_some_and(|m| m > 0);
                matches!(&row.answers, PointSet::Points(a) if a.contains(&o.best)) || won
            })
            .count();
        assert!(
            found * 10 >= wins.len() * 9,
            "{set:?}: {found} of {}",
            wins.len()
        );
        let share = defend_share_with(&defends, 20_000, &config);
        eprintln!(
            "{set:?}: wins {found} of {}, defended {share:.3}",
            wins.len()
        );
        assert!(share >= 0.9, "{set:?}: defended {share}");
        let run = || {
            let o =
                engine_with(&defends[0], &config).think(Level::Full, &nodes(50_000), &mut |_| {});
            (o.best, o.nodes)
        };
        assert_eq!(run(), run(), "{set:?}");
    }
}

/// Renju, black to move: white's four on column 8 (8,0 to 8,3) is blocked only at 8,4, which
/// is forbidden for black. Black is lost but must still answer a legal move: the search's
/// defence generator leaves nothing here, and the brain once answered `ERROR ... the board is
/// full`, a time forfeit under a manager.
#[test]
fn a_lost_renju_black_still_plays_a_legal_move() {
    let black = "7,2 9,2 7,3 7,4 10,4 9,1 5,1 7,5 8,5";
    let white = "8,2 6,1 9,3 7,1 8,1 4,1 8,3 7,6 8,0";
    let b = wuzi::notation::parse_move_list(black).unwrap();
    let w = wuzi::notation::parse_move_list(white).unwrap();
    let moves: Vec<Pos> = b.iter().zip(&w).flat_map(|(&x, &y)| [x, y]).collect();
    let levels = [
        Level::Random,
        Level::Greedy,
        Level::Depth(1),
        Level::Depth(4),
        Level::Full,
    ];
    for threads in [1, 2] {
        for level in levels {
            let config = Config {
                threads,
                ..Config::default()
            };
            let mut e = Engine::with_config(15, Rule::Renju, config).unwrap();
            e.set_position(&moves).unwrap();
            let block = Pos::new(8, 4);
            assert!(
                e.forbidden_points().contains(&block),
                "the block is forbidden"
            );
            let o = e.think(level, &nodes(20_000), &mut |_| {});
            assert!(!o.best.is_none(), "{level:?}, {threads} threads: no move");
            assert!(
                e.play(o.best).is_ok(),
                "{level:?}, {threads} threads: {} is not legal",
                o.best
            );
        }
    }
    let mut e = Engine::new(15, Rule::Renju).unwrap();
    e.set_position(&moves).unwrap();
    let list = e.think_nbest(3, &nodes(20_000), &mut |_| {});
    assert!(!list.is_empty(), "YXNBEST lists a move");
}

/// A score reads as a chance on the scale of the evaluation that searched: the built-in net
/// on 15x15 freestyle gives 400 units a logit, the classical evaluation 1,450 (a front end
/// that used one scale for both told a net search's players half their real edge).
#[test]
fn win_chances_read_scores_on_the_evaluations_scale() {
    let logistic_one = 1.0 / (1.0 + (-1.0f64).exp());
    let net = Engine::new(15, Rule::Freestyle).unwrap();
    assert!((net.win_chance(400) - logistic_one).abs() < 1e-9);
    let classical = Config {
        eval: wuzi::eval::Evaluation::Classical,
        ..Config::default()
    };
    let classical = Engine::with_config(15, Rule::Freestyle, classical).unwrap();
    assert!((classical.win_chance(1450) - logistic_one).abs() < 1e-9);
    // No built-in net for 19x19: the classical scale.
    let big = Engine::new(19, Rule::Freestyle).unwrap();
    assert!((big.win_chance(-1450) - (1.0 - logistic_one)).abs() < 1e-9);
    assert_eq!(net.win_chance(wuzi::search::WIN - 3), 1.0);
    assert_eq!(net.win_chance(-(wuzi::search::WIN - 4)), 0.0);

    // The figures a search reports carry the same chance.
    let mut e = Engine::new(15, Rule::Freestyle).unwrap();
    e.play(Pos::new(7, 7)).unwrap();
    e.play(Pos::new(8, 8)).unwrap();
    let mut seen = Vec::new();
    e.think(Level::Full, &nodes(20_000), &mut |info| {
        seen.push((info.score, info.chance))
    });
    assert!(!seen.is_empty());
    for (score, chance) in seen {
        assert_eq!(chance, e.win_chance(score), "score {score}");
    }
}

/// The engine's node counter (read by front ends while a search runs) ends at the search's
/// own count, and starts again from zero with the next search.
#[test]
fn the_node_counter_follows_the_search() {
    let mut e = Engine::new(15, Rule::Freestyle).unwrap();
    let counter = e.node_counter();
    assert_eq!(counter.load(std::sync::atomic::Ordering::Relaxed), 0);
    e.play(Pos::new(7, 7)).unwrap();
    let out = e.think(Level::Full, &nodes(5_000), &mut |_| {});
    assert!(out.nodes > 0);
    assert_eq!(
        counter.load(std::sync::atomic::Ordering::Relaxed),
        out.nodes
    );
    e.play(out.best).unwrap();
    let next = e.think(Level::Full, &nodes(2_000), &mut |_| {});
    assert_eq!(
        counter.load(std::sync::atomic::Ordering::Relaxed),
        next.nodes
    );
}

/// A defence analysis names the moves the root leaves out: the opponent's VCF or VCT beats
/// each (checked here by the solver), and none of them is among the scored moves.
#[test]
fn a_defence_analysis_names_the_moves_that_lose_to_a_threat() {
    use wuzi::search::solver::{Proof, SolveLimits, Solver};
    // Black has a VCF (8,8 starts it; tests/data/tactics/freestyle_vcf.tsv, lfz_c01_418);
    // black passes, and white is to move against it. No single point shows the threat, so
    // the root's move generator keeps every candidate, and its defence check drops those
    // that leave the VCF.
    let moves = wuzi::notation::parse_move_list(
        "6,5 5,5 6,6 8,5 8,6 7,6 7,7 6,7 8,7 10,7 5,8 5,9 6,9 7,9 8,9 6,11 9,9 7,11 pass",
    )
    .unwrap();
    let mut e = Engine::new(15, Rule::Freestyle).unwrap();
    e.set_position(&moves).unwrap();
    let (scored, dropped) = e.think_defend(&nodes(100_000), &mut |_| {});
    assert!(
        !scored.is_empty() && !dropped.is_empty(),
        "{scored:?} {dropped:?}"
    );
    for p in &dropped {
        assert!(scored.iter().all(|(q, _)| q != p), "{p:?} is not scored");
        let mut b = e.board().clone();
        b.make(*p);
        let mut solver = Solver::new();
        let wins = matches!(solver.vcf(&mut b, &SolveLimits::default()), Proof::Win(_))
            || matches!(solver.vct(&mut b, &SolveLimits::default()), Proof::Win(_));
        assert!(wins, "after {p:?} black wins by VCF or VCT");
    }
}

/// A renju game against Rapfi 0.43 (2026-12-07, game 9 of the first 50 confirmation
/// openings): after `13,9 14,9`, black's line of fours `12,8 13,7 12,10 12,11 11,11` is
/// stopped by white's quiet `11,11` first, a move a narrowed quiet node leaves out. Counted
/// over the kept moves alone, white's node lost to it, and black's search reported a mate
/// from depth 11 on and stopped there (the solver finds no win for black; a search of the
/// position scores about -0.6 of a win for black). The search reports no mate.
#[test]
fn a_loss_over_a_narrowed_nodes_moves_is_no_mate() {
    let moves = wuzi::notation::parse_move_list(
        "9,6 11,7 12,7 13,8 11,6 10,5 12,5 9,8 10,9 9,10 11,8 12,6 10,3 11,4 10,8 10,7 \
         9,11 7,7 10,10 10,11 11,9 9,7 8,7 8,12 12,9 9,9 13,9 14,9",
    )
    .unwrap();
    let mut e = Engine::new(15, Rule::Renju).unwrap();
    e.set_position(&moves).unwrap();
    let o = e.think(Level::Depth(12), &Limits::default(), &mut |_| {});
    assert!(
        mate_distance(o.score).is_none(),
        "a mate reported: score {} by {}",
        o.score,
        o.best
    );
}

/// A renju game against Rapfi 0.43 (2026-12-07, game 34 of confirmation openings 51 to
/// 100) played to 221 stones: white to move with four empty points can leave black, at
/// the last, only a point that makes an overline. A manager ends the game at black's
/// forbidden move, so white wins; the search, which scored black's node with no allowed
/// move as a full board's draw, saw no win there.
#[test]
fn renju_black_left_only_forbidden_points_has_lost() {
    let moves = wuzi::notation::parse_move_list(
        "11,4 11,5 8,3 8,5 10,5 9,5 10,4 10,3 7,6 8,7 9,7 7,5 5,5 6,6 \
         5,7 9,4 8,8 8,4 9,3 10,6 11,7 6,2 7,3 6,4 6,5 5,6 5,4 5,3 \
         4,2 4,3 3,3 4,4 7,1 2,4 3,4 6,9 2,6 5,9 4,5 3,6 4,9 5,10 \
         7,8 6,8 6,10 5,11 5,12 3,11 4,10 4,11 2,11 9,9 8,9 9,10 7,10 6,11 \
         7,11 8,6 7,7 11,10 2,3 3,5 10,10 7,12 9,12 12,11 8,11 9,14 8,13 11,11 \
         11,12 10,11 13,11 9,13 3,12 12,9 12,10 13,6 10,9 10,7 13,8 9,6 11,8 12,4 \
         13,3 12,3 12,5 0,1 4,7 3,7 10,12 8,12 10,1 7,2 12,1 1,10 1,9 9,1 \
         11,3 9,2 8,2 6,0 13,12 12,12 11,14 10,13 6,3 2,12 0,5 12,6 11,6 4,6 \
         1,3 4,0 3,8 5,0 3,0 7,0 8,0 3,2 13,10 13,9 2,8 4,8 0,6 10,8 \
         13,1 11,1 3,10 1,12 0,7 0,8 4,14 5,13 6,14 2,7 13,2 13,0 3,9 1,7 \
         14,0 12,2 13,4 13,5 11,13 3,14 14,9 12,7 2,13 4,1 14,4 9,11 5,14 13,13 \
         8,14 7,14 10,0 0,3 14,3 2,9 0,10 14,5 5,8 14,1 12,14 7,13 13,14 14,12 \
         10,14 14,14 5,2 4,13 9,0 1,11 12,8 0,2 0,12 2,1 1,1 14,10 1,2 1,4 \
         0,14 8,1 7,4 6,1 14,7 11,2 11,0 12,0 3,1 10,2 1,8 5,1 0,4 3,13 \
         6,13 0,11 1,13 2,10 14,11 14,6 13,7 1,5 0,9 2,5 1,6 2,14 12,13 14,2 \
         2,0 14,13 2,2 6,12 0,0 0,13 1,0 4,12 9,8 1,14 14,8",
    )
    .unwrap();
    assert_eq!(moves.len(), 221);
    let mut e = Engine::new(15, Rule::Renju).unwrap();
    e.set_position(&moves).unwrap();
    let o = e.think(Level::Depth(6), &Limits::default(), &mut |_| {});
    assert!(
        mate_distance(o.score).is_some_and(|m| m > 0),
        "white's win not seen: score {} by {}",
        o.score,
        o.best
    );
    // One move back, black to move: every move loses.
    e.set_position(&moves[..220]).unwrap();
    let o = e.think(Level::Depth(6), &Limits::default(), &mut |_| {});
    assert!(
        mate_distance(o.score).is_some_and(|m| m < 0),
        "black's loss not seen: score {} by {}",
        o.score,
        o.best
    );
}
