//! The opening decisions' tests: each rule played on both sides, the choice of colour,
//! the offers and picks, and the variety of the openings placed.

use super::variety::rank;
use super::*;
use crate::engine::opening::placed::{key, Placed};
use crate::engine::opening::{OpeningRule, Player};
use crate::notation::parse_h8;
use crate::types::Rule;

fn at(s: &str) -> Pos {
    parse_h8(s, 15).unwrap()
}

fn quick() -> Limits {
    Limits {
        depth: Some(2),
        nodes: Some(1_000),
        ..Limits::default()
    }
}

#[test]
fn white_takes_the_worst_of_the_offers() {
    let (a, b, c) = (Pos::new(1, 1), Pos::new(2, 2), Pos::new(3, 3));
    let fifths = [(a, 300), (b, 40), (c, -90)];
    assert_eq!(worst_of_best(&fifths, 1), 300);
    assert_eq!(worst_of_best(&fifths, 2), 40);
    assert_eq!(worst_of_best(&fifths, 5), -90);
    assert_eq!(nearest_even(&fifths, 8), (2, 40));
    assert_eq!(nearest_even(&fifths, 1), (1, 300));
    assert_eq!(worst_of_best(&[], 3), 0);
}

/// The first four stones of the built-in book with at least three fifth moves after them,
/// and those fifth moves with the book's scores (for white, to move after them).
fn booked_fifths() -> (Vec<Pos>, Vec<(Pos, i32)>) {
    let entries = crate::engine::opening::book::parse(crate::engine::opening::book::RENJU15)
        .expect("the built-in book reads");
    for (stones, _, _) in entries.iter().filter(|e| e.0.len() == 5) {
        let four = &stones[..4];
        // A position's last line holds its score (a deeper search's, written later).
        let mut fifths: Vec<(Pos, i32)> = Vec::new();
        for (s, v, _) in entries
            .iter()
            .filter(|(s, _, _)| s.len() == 5 && &s[..4] == four)
        {
            match fifths.iter_mut().find(|(p, _)| *p == s[4]) {
                Some(f) => f.1 = *v,
                None => fifths.push((s[4], *v)),
            }
        }
        if fifths.len() >= 3 {
            return (four.to_vec(), fifths);
        }
    }
    panic!("no four stones with three fifth moves in the book");
}

#[test]
fn the_book_scores_fifth_moves_and_white_picks_by_it() {
    let (four, booked) = booked_fifths();
    let mut e = Engine::new(15, Rule::Renju).unwrap();
    // Black's fifths carry the book's scores, from black's side.
    let fifths = e.fifths(&four, &quick());
    for &(p, v) in &booked {
        if let Some(&(_, s)) = fifths.iter().find(|(q, _)| *q == p) {
            assert_eq!(s, -v, "{p:?}");
        }
    }
    // Offered the booked moves, white takes the one the book finds worst for black.
    let offers: Vec<Pos> = booked.iter().map(|&(p, _)| p).collect();
    let (p, v) = e.pick(&four, &offers, &quick());
    let most = booked.iter().map(|&(_, v)| v).max().unwrap();
    assert_eq!(v, -most);
    assert!(booked.contains(&(p, most)));
    // Without the book the same searches judge by themselves.
    let plain = Engine::with_config(
        15,
        Rule::Renju,
        crate::engine::Config {
            opening_book: false,
            ..crate::engine::Config::default()
        },
    )
    .unwrap();
    assert_eq!(plain.book_score(&with(&four, &[p])), None);
    assert_eq!(e.book_score(&with(&four, &[p])), Some(most));
}

#[test]
fn yamaguchi_ends_where_the_book_says_for_the_number_declared() {
    use crate::engine::opening::book::Book;
    // Both sides the engine with the book and no random margin: the number declared with
    // the third stone, white's 4th stone, the offers and the pick follow the book, so the
    // stage ends in the end it foresaw for that number, the nearest even of any number.
    let mut e = Engine::new(15, Rule::Renju).unwrap();
    e.set_random_margin(None);
    let mut o = Opening::new(OpeningRule::Yamaguchi, 15, Rule::Renju).unwrap();
    let mut declared = None;
    while let Some(who) = o.to_act() {
        let d = e.opening_decision(&o, &quick(), &|| false).unwrap();
        if let Action::PlaceAndDeclare(_, n) = d.action {
            declared = Some(n);
        }
        o.apply(who, d.action).unwrap();
    }
    let n = declared.expect("the first player declared a number");
    let stones = o.stones();
    assert_eq!(stones.len(), 5);
    let book = Book::renju();
    let (end, black) = book.declared_ending(15, &stones[..3], n).unwrap();
    assert_eq!(end, key(15, stones), "{stones:?}, {n} declared");
    assert_eq!(book.score(15, stones), Some(-black));
    let nearest = (1..=MAX_FIFTHS)
        .filter_map(|k| book.declared_ending(15, &stones[..3], k))
        .map(|(_, v)| v.abs())
        .min();
    assert_eq!(Some(black.abs()), nearest);
}

#[test]
fn the_engine_plays_every_rule_on_both_sides_to_normal_play() {
    // Each rule with the stones its stage may end with.
    for (rule, ends) in [
        ("swap", &[3][..]),
        ("swap2", &[3, 5]),
        ("swap-after-first", &[1]),
        ("soosorv 8", &[5]),
        ("taraguchi 10", &[5]),
        ("yamaguchi", &[5]),
    ] {
        let mut o = Opening::new(rule.parse().unwrap(), 15, Rule::Renju).unwrap();
        let mut e = Engine::new(15, Rule::Renju).unwrap();
        let mut steps = 0;
        while let Some(who) = o.to_act() {
            let d = e.opening_decision(&o, &quick(), &|| false).unwrap();
            o.apply(who, d.action.clone())
                .unwrap_or_else(|err| panic!("{rule}: {:?} refused: {err}", d.action));
            steps += 1;
            assert!(steps < 20, "{rule} does not end");
        }
        assert!(ends.contains(&o.stones().len()), "{rule}: {:?}", o.stones());
        assert!(e.opening_decision(&o, &quick(), &|| false).is_none());
    }
}

#[test]
fn a_varying_engine_places_different_openings() {
    let third = |seed: u64, margin: Option<i32>| {
        let mut e = Engine::new(15, Rule::Freestyle).unwrap();
        e.set_seed(seed);
        e.set_random_margin(margin);
        let mut o = Opening::new(OpeningRule::Swap2, 15, Rule::Freestyle).unwrap();
        while o.stones().len() < 3 {
            let d = e.opening_decision(&o, &quick(), &|| false).unwrap();
            o.apply(Player::First, d.action).unwrap();
        }
        o.stones()[2]
    };
    let varied: Vec<Pos> = (1..=6).map(|seed| third(seed, Some(300))).collect();
    assert!(varied.iter().any(|&p| p != varied[0]), "{varied:?}");
    let fixed: Vec<Pos> = (1..=3).map(|seed| third(seed, None)).collect();
    assert!(fixed.iter().all(|&p| p == fixed[0]), "{fixed:?}");
}

#[test]
fn a_balanced_choice_keeps_clear_of_openings_placed_before() {
    let (a, b, c) = (
        vec![at("h8"), at("h9"), at("i9")],
        vec![at("h8"), at("h9"), at("j9")],
        vec![at("h8"), at("h9"), at("h10")],
    );
    let scored = vec![(0, a.clone(), 10), (1, b.clone(), -40), (2, c, 500)];
    let mut e = Engine::new(15, Rule::Renju).unwrap();
    // Without variety: the nearest even, placed before or not.
    e.placed_openings().insert(15, &a);
    assert_eq!(
        e.choose_balanced(&[at("h8"), at("h9")], scored.clone(), None, &|| false),
        Some((0, 10))
    );
    // Varying: the balanced candidate not placed before (a's mirror image counts as a).
    e.set_random_margin(Some(30));
    e.forget_openings();
    e.placed_openings()
        .insert(15, &[at("h8"), at("h9"), at("g9")]);
    for seed in 1..=8 {
        e.set_seed(seed);
        assert_eq!(
            e.choose_balanced(&[at("h8"), at("h9")], scored.clone(), None, &|| false),
            Some((1, -40))
        );
    }
    // Both balanced ones placed: either again, never the unbalanced one.
    e.placed_openings().insert(15, &b);
    let picks: Vec<usize> = (1..=16)
        .map(|seed| {
            e.set_seed(seed);
            e.choose_balanced(&[at("h8"), at("h9")], scored.clone(), None, &|| false)
                .unwrap()
                .0
        })
        .collect();
    assert!(picks.contains(&0) && picks.contains(&1), "{picks:?}");
    assert!(!picks.contains(&2));
}

#[test]
fn a_deeper_check_keeps_a_new_ending_before_one_placed_again() {
    // Two of black's fifth moves in the book after the same four stones: `near` within
    // EVEN_WINDOW of even, `far` beyond it but within VARIETY_WINDOW.
    let entries = crate::engine::opening::book::parse(crate::engine::opening::book::RENJU15)
        .expect("the built-in book reads");
    let e = Engine::new(15, Rule::Renju).unwrap();
    let scored = |stones: &Vec<Pos>| e.book_score(stones);
    let fives: Vec<(Vec<Pos>, i32)> = entries
        .iter()
        .filter(|x| x.0.len() == 5)
        .filter_map(|x| Some((x.0.clone(), scored(&x.0)?)))
        .collect();
    let (near, far) = fives
        .iter()
        .filter(|(_, v)| v.abs() <= EVEN_WINDOW)
        .find_map(|n| {
            let f = fives.iter().find(|(s, v)| {
                s[..4] == n.0[..4] && v.abs() > EVEN_WINDOW && v.abs() <= VARIETY_WINDOW
            })?;
            Some((n.clone(), f.clone()))
        })
        .expect("four stones with a near and a farther fifth move in the book");
    let four = near.0[..4].to_vec();
    let candidates = vec![(0, near.0.clone(), near.1), (1, far.0.clone(), far.1)];
    let mut e = Engine::new(15, Rule::Renju).unwrap();
    e.set_random_margin(Some(30));
    // The near ending placed before (a final position: spent): the new one within the
    // variety window comes first, though the near one is nearer even by the book.
    e.placed_openings().end(15, &near.0);
    for seed in 1..=4 {
        e.set_seed(seed);
        let chosen = e.choose_balanced(&four, candidates.clone(), Some(&quick()), &|| false);
        assert_eq!(chosen, Some((1, far.1)));
    }
    // Without variety: the nearest even.
    e.set_random_margin(None);
    let chosen = e.choose_balanced(&four, candidates, Some(&quick()), &|| false);
    assert_eq!(chosen, Some((0, near.1)));
}

#[test]
fn new_ways_come_before_spent_ones_and_the_windows_widen_in_steps() {
    let mut placed = Placed::default();
    let (used, spent, new) = (
        vec![at("h8"), at("h9")],
        vec![at("h8"), at("i9")],
        vec![at("h8"), at("h10")],
    );
    placed.insert(15, &used);
    placed.insert(15, &spent);
    placed.end(15, &[at("h8"), at("i9"), at("j10")]);
    placed.end(15, &[at("h8"), at("i9"), at("j10")]);
    assert_eq!(placed.spent(15, &spent), 1);
    let order = |after: &[Pos], off: i32| rank(&placed, 15, after, off, EVEN_WINDOW);
    // Within the window: new, then placed but with new positions after it, then spent.
    assert!(order(&new, 50) < order(&used, 0));
    assert!(order(&used, 50) < order(&new, EVEN_WINDOW + 1));
    assert!(order(&new, VARIETY_WINDOW) < order(&used, EVEN_WINDOW + 1));
    assert!(order(&used, VARIETY_WINDOW) < order(&new, VARIETY_WINDOW + 1));
    // A spent balanced position is placed again before a new one beyond the variety
    // window, and that before one beyond the widest window.
    assert!(order(&spent, 0) < order(&new, VARIETY_WINDOW + 1));
    assert!(order(&new, WIDEST_WINDOW) < order(&spent, EVEN_WINDOW + 1));
    assert!(order(&new, WIDEST_WINDOW) < order(&new, WIDEST_WINDOW + 1));
    // Nearer the ideal first among new positions outside the window.
    assert!(order(&new, 100) < order(&new, 120));
}

#[test]
fn a_varying_engine_places_no_opening_twice_under_any_rule() {
    // One engine plays each rule's whole stage on both sides a few times in a row, as
    // from game to game; no two final positions are symmetric to each other.
    let fastest = Limits {
        depth: Some(1),
        nodes: Some(500),
        ..Limits::default()
    };
    for rule in [
        "swap",
        "swap2",
        "swap-after-first",
        "soosorv 8",
        "taraguchi 10",
        "yamaguchi",
    ] {
        let mut e = Engine::new(15, Rule::Renju).unwrap();
        e.set_hash_mb(1);
        e.set_solver_table_mb(1);
        e.set_random_margin(Some(60));
        e.set_seed(7);
        let mut finals: Vec<Vec<u32>> = Vec::new();
        for _ in 0..3 {
            e.new_game(15, Rule::Renju).unwrap();
            let mut o = Opening::new(rule.parse().unwrap(), 15, Rule::Renju).unwrap();
            while let Some(who) = o.to_act() {
                let d = e.opening_decision(&o, &fastest, &|| false).unwrap();
                o.apply(who, d.action).unwrap();
            }
            let k = key(15, o.stones());
            assert!(!finals.contains(&k), "{rule}: {:?} again", o.stones());
            finals.push(k);
        }
        assert!(e.placed_openings().len() >= 3, "{rule}");
    }
}

#[test]
fn white_picks_the_offer_worse_for_black() {
    // I3 Kosei (h8 i9 j8) with white's 4th far off: i8 makes black's three h8 i8 j8,
    // o15 is a stone in the corner.
    let mut o = Opening::new(OpeningRule::Yamaguchi, 15, Rule::Renju).unwrap();
    o.apply(Player::First, Action::Place(at("h8"))).unwrap();
    o.apply(Player::First, Action::Place(at("i9"))).unwrap();
    o.apply(Player::First, Action::PlaceAndDeclare(at("j8"), 2))
        .unwrap();
    o.apply(Player::Second, Action::Choose(Color::White))
        .unwrap();
    o.apply(Player::Second, Action::Place(at("a1"))).unwrap();
    let mut e = Engine::new(15, Rule::Renju).unwrap();
    // Black offers neither the corner nor a far point.
    let d = e.opening_decision(&o, &quick(), &|| false).unwrap();
    let Action::Offer(list) = d.action else {
        panic!("an offer, not {:?}", d.action)
    };
    assert!(list.iter().all(|p| p.dist(at("h8")) <= 3), "{list:?}");
    o.apply(Player::First, Action::Offer(vec![at("i8"), at("o15")]))
        .unwrap();
    let d = e.opening_decision(&o, &quick(), &|| false).unwrap();
    assert_eq!(d.action, Action::Pick(at("o15")));
}

#[test]
fn the_swap_third_stone_is_the_swap_books_nearest_even() {
    // Under freestyle the first player's third stone is judged by the swap book: without
    // variety, the candidate the book puts nearest even.
    let book = crate::engine::opening::book::Book::freestyle_swap();
    let mut o = Opening::new(OpeningRule::Swap, 15, Rule::Freestyle).unwrap();
    let mut e = Engine::new(15, Rule::Freestyle).unwrap();
    while o.stones().len() < 3 {
        let d = e.opening_decision(&o, &quick(), &|| false).unwrap();
        o.apply(Player::First, d.action).unwrap();
    }
    let stones = o.stones().to_vec();
    let chosen = book
        .score(15, &stones)
        .expect("the third stone is in the book");
    let nearest = around(15, at("h8"), 2, &stones[..2])
        .into_iter()
        .filter_map(|p| book.score(15, &with(&stones[..2], &[p])))
        .map(i32::abs)
        .min()
        .unwrap();
    assert_eq!(chosen.abs(), nearest, "{stones:?}");
    // Under standard (exactly five) the freestyle book is not read.
    let e = Engine::new(15, Rule::Standard).unwrap();
    assert_eq!(e.book_score(&stones), None);
}

#[test]
fn swap2s_two_added_stones_are_the_swap_books() {
    // Freestyle swap2 after g10 e10 d13, which the swap book scores 2 for white to move
    // (within ADD_TWO_WINDOW): the second player adds two stones, white's the book's 4th
    // (the one stone after the three the book holds) and black's a five-stone position
    // the book holds, the nearest even of them within reach of the first stone.
    let book = crate::engine::opening::book::Book::freestyle_swap();
    let three = [at("g10"), at("e10"), at("d13")];
    assert!(book.score(15, &three).unwrap().abs() <= ADD_TWO_WINDOW);
    let fourths: Vec<Pos> = every_point(15, &three)
        .into_iter()
        .filter(|&p| book.score(15, &with(&three, &[p])).is_some())
        .collect();
    assert_eq!(fourths.len(), 1, "{fourths:?}");
    let four = with(&three, &fourths);
    let mut o = Opening::new(OpeningRule::Swap2, 15, Rule::Freestyle).unwrap();
    for p in three {
        o.apply(Player::First, Action::Place(p)).unwrap();
    }
    let mut e = Engine::new(15, Rule::Freestyle).unwrap();
    let d = e.opening_decision(&o, &quick(), &|| false).unwrap();
    let Action::AddTwo(white, black) = d.action else {
        panic!("{d:?}");
    };
    assert_eq!(white, fourths[0]);
    let chosen = book
        .score(15, &with(&four, &[black]))
        .expect("a booked fifth");
    let nearest = around(15, three[0], SWAP_THIRD_REACH, &four)
        .into_iter()
        .filter_map(|p| book.score(15, &with(&four, &[p])))
        .map(i32::abs)
        .min()
        .unwrap();
    assert_eq!(chosen.abs(), nearest);
    assert!(nearest <= 100, "{nearest}");
}

#[test]
fn a_varying_engine_draws_a_second_stone_with_a_new_booked_third() {
    // Freestyle swap after h8: the second stones after which the swap book holds a
    // balanced third stone not placed before. Once every such third after one of them is
    // placed, that second stone is no longer drawn.
    let book = crate::engine::opening::book::Book::freestyle_swap();
    let mut e = Engine::new(15, Rule::Freestyle).unwrap();
    e.set_random_margin(Some(60));
    let first = [at("h8")];
    let ring = around(15, first[0], SWAP_SECOND_REACH, &first);
    let open = e.with_new_booked_third(&first, &ring);
    assert!(open.len() >= 4, "{open:?}");
    let two = with(&first, &[open[0]]);
    for third in around(15, first[0], SWAP_THIRD_REACH, &two) {
        let three = with(&two, &[third]);
        if book
            .score(15, &three)
            .is_some_and(|s| s.abs() <= VARIETY_WINDOW)
        {
            e.placed_openings().insert(15, &three);
        }
    }
    let now = e.with_new_booked_third(&first, &ring);
    assert!(!now.contains(&open[0]), "{now:?}");
    for _ in 0..20 {
        let mut o = Opening::new(OpeningRule::Swap, 15, Rule::Freestyle).unwrap();
        o.apply(Player::First, Action::Place(first[0])).unwrap();
        let d = e.opening_decision(&o, &quick(), &|| false).unwrap();
        let Action::Place(second) = d.action else {
            panic!("{d:?}");
        };
        assert!(now.contains(&second), "{second}");
    }
    // Without the book (standard) no stone is filtered.
    let std = Engine::new(15, Rule::Standard).unwrap();
    assert!(std.with_new_booked_third(&first, &ring).is_empty());
}

#[test]
fn the_engine_takes_the_colour_that_stands_better() {
    // Swap: black h8 i8 against a white stone in the corner; the engine (second
    // player) takes black.
    let mut o = Opening::new(OpeningRule::Swap, 15, Rule::Renju).unwrap();
    for p in ["h8", "a1", "i8"] {
        o.apply(Player::First, Action::Place(at(p))).unwrap();
    }
    let mut e = Engine::new(15, Rule::Renju).unwrap();
    let d = e.opening_decision(&o, &quick(), &|| false).unwrap();
    assert_eq!(d.action, Action::Choose(Color::Black));
    assert!(d.score > 0);
}

#[test]
fn swap2_adds_two_stones_when_neither_colour_is_clearly_better() {
    // Swap2 under renju after h8 h9 or h8 i9 and a third stone within the central 5x5
    // square, judged by the search the decision makes (a depth cap only, on a fresh engine
    // without the opening book, so the same). Where white (to move) stands within
    // ADD_TWO_WINDOW of even, the second player adds two stones if a black one balances
    // white's within EVEN_WINDOW, else takes a colour; beyond the window it takes the
    // colour that stands better.
    let bookless = || {
        let config = crate::engine::Config {
            opening_book: false,
            ..crate::engine::Config::default()
        };
        Engine::with_config(15, Rule::Renju, config).unwrap()
    };
    let limits = Limits {
        depth: Some(3),
        ..Limits::default()
    };
    let (mut added, mut taken_even, mut lopsided) = (0, 0, 0);
    for second in ["h9", "i9"] {
        let opening = [at("h8"), at(second)];
        for third in around(15, at("h8"), 2, &opening) {
            let three = with(&opening, &[third]);
            let mut e = bookless();
            e.set_position(&three).unwrap();
            let score = e.searched(&limits).score;
            let mut o = Opening::new(OpeningRule::Swap2, 15, Rule::Renju).unwrap();
            for &p in &three {
                o.apply(Player::First, Action::Place(p)).unwrap();
            }
            let mut e = bookless();
            let d = e.opening_decision(&o, &limits, &|| false).unwrap();
            let better = if score > 0 {
                Color::White
            } else {
                Color::Black
            };
            if score.abs() > ADD_TWO_WINDOW {
                assert_eq!(d.action, Action::Choose(better), "{three:?} {score}");
                lopsided += 1;
                continue;
            }
            match d.action {
                Action::AddTwo(..) => {
                    assert!((-EVEN_WINDOW..=0).contains(&d.score), "{d:?}");
                    o.apply(Player::Second, d.action).unwrap();
                    // The first player chooses the colour next; five stones are down.
                    assert_eq!(o.expect(), Expect::Colour);
                    assert_eq!(o.stones().len(), 5);
                    assert!(e.placed_openings().contains(15, o.stones()));
                    added += 1;
                }
                Action::Choose(c) => {
                    assert!(c == better || score == 0, "{three:?} {score}: {d:?}");
                    taken_even += 1;
                }
                _ => panic!("{d:?}"),
            }
        }
    }
    assert!(added > 0 && lopsided > 0, "{added} {taken_even} {lopsided}");
}

#[test]
fn a_varying_engine_declares_for_an_ending_it_has_not_placed() {
    let mut e = Engine::new(15, Rule::Renju).unwrap();
    e.set_random_margin(Some(60));
    let stones = [at("h8"), at("h9"), at("j10"), at("i9")];
    let (a, b, c) = (at("g7"), at("g6"), at("k11"));
    let fifths = [(a, 120), (b, 10), (c, -40)];
    // Two offered: white takes g6, 10 from even.
    assert_eq!(e.declare_fresh(&stones, &fifths, 8), (2, 10));
    // That ending placed, three offered end in k11 instead.
    e.placed_openings().end(15, &with(&stones, &[b]));
    assert_eq!(e.declare_fresh(&stones, &fifths, 8), (3, -40));
    // Every ending placed: the nearest even again, counted further off.
    e.placed_openings().end(15, &with(&stones, &[c]));
    e.placed_openings().end(15, &with(&stones, &[a]));
    assert_eq!(e.declare_fresh(&stones, &fifths, 8), (2, 10 + STALE_ENDING));
    // Without variety: the nearest even, placed or not.
    e.set_random_margin(None);
    assert_eq!(e.declare_fresh(&stones, &fifths, 8), (2, 10));
}
