//! Random balanced openings: a few random stones near the centre that a short search judges
//! close to even. The self-play games start from them ([`super::selfplay`]), and `wuzi
//! openings` writes sets of them for matches (stricter: a longer search, a smaller margin).

use crate::engine::{Config, Engine, Level};
use crate::eval::Evaluation;
use crate::movegen::{generate, legal_in_square, GenKind, MoveList};
use crate::search::Limits;
use crate::types::{Pos, Rule};
use rand_xoshiro::rand_core::RngCore;
use rand_xoshiro::Xoshiro256PlusPlus;

/// Fewest random opening stones. Two random stones near the centre are nearly always
/// balanced; fewer would repeat openings.
pub const MIN_OPENING: usize = 2;
/// Most random opening stones: beyond about six random stones one side is usually ahead.
pub const MAX_OPENING: usize = 6;
/// Nodes of the search that judges a self-play opening (or the per-move budget, if smaller).
pub const BALANCE_NODES: u64 = 4_000;
/// A self-play opening is kept when that search scores it within this margin of even (the
/// value of about an open two; an open three is several times more).
pub const BALANCE_MARGIN: i32 = 120;
/// Openings drawn before the last one is kept whatever its score.
pub const OPENING_TRIES: usize = 40;
/// The first random stone lies within this distance of the centre.
pub const OPENING_CENTRE: usize = 3;
/// Fewest stones of a wide opening ([`OpeningStyle::Wide`]).
pub const WIDE_MIN_OPENING: usize = 3;
/// Most stones of a wide opening: match openings made by other engines' generators have
/// up to about ten, spread over most of the board.
pub const WIDE_MAX_OPENING: usize = 10;
/// One stone in this many of a wide opening goes to any point of the board's middle (within
/// [`wide_reach`] of the centre) rather than beside the stones already placed: match openings
/// have about one such stone each.
pub const WIDE_LONE_ODDS: u64 = 6;

/// Where the random stones of an opening go.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum OpeningStyle {
    /// [`MIN_OPENING`] to [`MAX_OPENING`] stones, the first within [`OPENING_CENTRE`] of the
    /// centre and each other beside the stones before it: a compact group in the middle.
    #[default]
    Centre,
    /// [`WIDE_MIN_OPENING`] to [`WIDE_MAX_OPENING`] stones, the first anywhere within
    /// [`wide_reach`] of the centre, the others beside the stones before them or (one in
    /// [`WIDE_LONE_ODDS`]) anywhere within that reach: openings like those of match
    /// generators, which reach the edges. Games from the middle alone teach a net little of
    /// play near the edges, where such openings lead.
    Wide,
}

impl OpeningStyle {
    /// Every style.
    pub const ALL: [OpeningStyle; 2] = [OpeningStyle::Centre, OpeningStyle::Wide];

    /// The style's name on the command line (`centre`, `wide`).
    pub fn name(self) -> &'static str {
        match self {
            OpeningStyle::Centre => "centre",
            OpeningStyle::Wide => "wide",
        }
    }

    /// Parses a style's name.
    pub fn parse(s: &str) -> Option<OpeningStyle> {
        OpeningStyle::ALL
            .into_iter()
            .find(|o| o.name().eq_ignore_ascii_case(s.trim()))
    }
}

/// How far from the centre a wide opening's free stones may lie: half the board less one
/// (6 on 15x15, all but the outermost lines; 9 on 20x20).
pub fn wide_reach(size: usize) -> usize {
    (size / 2).saturating_sub(1).max(1)
}

/// Draws random openings until a short search judges one balanced (or the tries run out),
/// and leaves it on `engine`'s board. Returns its moves. The self-play games' openings.
pub fn balanced_opening(
    size: usize,
    rule: Rule,
    style: OpeningStyle,
    nodes: u64,
    engine: &mut Engine,
    rng: &mut Xoshiro256PlusPlus,
) -> Vec<Pos> {
    let mut moves = Vec::new();
    for _ in 0..OPENING_TRIES {
        moves = random_opening(size, rule, style, rng);
        if judge(engine, size, rule, &moves, BALANCE_NODES.min(nodes))
            .is_some_and(|score| score.abs() <= BALANCE_MARGIN)
        {
            break;
        }
    }
    engine.clear_hash();
    moves
}

/// The score of a search of `nodes` nodes from the position after `moves` (for the side to
/// move), which stays on `engine`'s board; `None` when the moves are not a legal game.
pub fn judge(
    engine: &mut Engine,
    size: usize,
    rule: Rule,
    moves: &[Pos],
    nodes: u64,
) -> Option<i32> {
    engine.new_game(size, rule).expect("the size was checked");
    engine.set_position(moves).ok()?;
    let limits = Limits {
        nodes: Some(nodes),
        ..Limits::default()
    };
    Some(engine.think(Level::Full, &limits, &mut |_| {}).score)
}

/// A random opening of `style`: a first stone near the centre (or, wide, anywhere within
/// [`wide_reach`] of it), then stones on random candidate points (near the stones already
/// placed; wide, one in [`WIDE_LONE_ODDS`] anywhere within the reach), never a five or a
/// forbidden point.
pub fn random_opening(
    size: usize,
    rule: Rule,
    style: OpeningStyle,
    rng: &mut Xoshiro256PlusPlus,
) -> Vec<Pos> {
    let (least, most, reach) = match style {
        OpeningStyle::Centre => (MIN_OPENING, MAX_OPENING, OPENING_CENTRE),
        OpeningStyle::Wide => (WIDE_MIN_OPENING, WIDE_MAX_OPENING, wide_reach(size)),
    };
    let mut pick = |range: u64| (rng.next_u64() % range) as usize;
    let n = least + pick((most - least + 1) as u64);
    let mut board = crate::board::Board::new(size, rule);
    let c = size / 2;
    let (lo, hi) = (c.saturating_sub(reach), (c + reach).min(size - 1));
    let span = (hi - lo + 1) as u64;
    let first = Pos::new(lo + pick(span), lo + pick(span));
    board.make(first);
    let mut moves = vec![first];
    let mut list = MoveList::new();
    while moves.len() < n {
        let me = board.to_move();
        let lone = style == OpeningStyle::Wide && pick(WIDE_LONE_ODDS) == 0;
        if lone {
            legal_in_square(&mut board, lo, hi, &mut list);
        } else {
            generate(&mut board, GenKind::Candidates, &mut list);
        }
        let safe: Vec<Pos> = list.iter().filter(|&p| !board.makes_five(p, me)).collect();
        if safe.is_empty() {
            break;
        }
        let p = safe[pick(safe.len() as u64)];
        board.make(p);
        moves.push(p);
    }
    moves
}

/// What makes a set of balanced openings ([`balanced_set`]).
#[derive(Clone, Debug)]
pub struct SetSpec {
    /// Board size.
    pub size: usize,
    /// Rule.
    pub rule: Rule,
    /// Openings wanted.
    pub count: usize,
    /// Nodes of the search that judges each opening.
    pub nodes: u64,
    /// Largest score from even that is kept.
    pub margin: i32,
    /// The evaluation of that search (named, so that a set does not change with the
    /// engine's default).
    pub eval: Evaluation,
}

/// A set of distinct balanced openings for matches: random openings whose search scores
/// within the margin of even, until enough are found. Two openings with the same stones
/// (in any order) count once. `progress` is told each one found.
pub fn balanced_set(
    spec: &SetSpec,
    rng: &mut Xoshiro256PlusPlus,
    progress: &mut dyn FnMut(&[Pos], i32),
) -> Vec<Vec<Pos>> {
    let SetSpec {
        size,
        rule,
        count,
        nodes,
        margin,
        ..
    } = *spec;
    let config = Config {
        eval: spec.eval.clone(),
        ..Config::default()
    };
    let mut engine = Engine::with_config(size, rule, config).expect("the size was checked");
    let mut found: Vec<Vec<Pos>> = Vec::new();
    let mut seen = std::collections::HashSet::new();
    while found.len() < count {
        let moves = random_opening(size, rule, OpeningStyle::Centre, rng);
        // Black's stones and white's, each sorted: the same position whatever the order.
        let mut key: [Vec<Pos>; 2] = [Vec::new(), Vec::new()];
        for (i, &p) in moves.iter().enumerate() {
            key[i % 2].push(p);
        }
        key.iter_mut().for_each(|k| k.sort());
        if seen.contains(&key) {
            continue;
        }
        let Some(score) = judge(&mut engine, size, rule, &moves, nodes) else {
            continue;
        };
        if score.abs() <= margin {
            seen.insert(key);
            progress(&moves, score);
            found.push(moves);
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::Color;
    use rand_xoshiro::rand_core::SeedableRng;

    #[test]
    fn openings_are_legal_and_near_the_centre() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(7);
        for _ in 0..50 {
            let moves = random_opening(15, Rule::Renju, OpeningStyle::Centre, &mut rng);
            assert!((MIN_OPENING..=MAX_OPENING).contains(&moves.len()));
            assert!(moves[0].x().abs_diff(7) <= OPENING_CENTRE);
            assert!(moves[0].y().abs_diff(7) <= OPENING_CENTRE);
            let mut engine = Engine::new(15, Rule::Renju).expect("15x15");
            assert_eq!(engine.set_position(&moves), Ok(()), "{moves:?}");
        }
    }

    #[test]
    fn styles_are_named_and_parsed() {
        for style in OpeningStyle::ALL {
            assert_eq!(OpeningStyle::parse(style.name()), Some(style));
        }
        assert_eq!(OpeningStyle::parse(" Wide "), Some(OpeningStyle::Wide));
        assert_eq!(OpeningStyle::parse("far"), None);
    }

    #[test]
    fn wide_openings_are_legal_and_spread_over_the_board() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(11);
        let reach = wide_reach(15);
        assert_eq!((reach, wide_reach(20)), (6, 9));
        let (mut far_first, mut lone, mut counts) = (0, 0, std::collections::BTreeSet::new());
        for _ in 0..200 {
            let moves = random_opening(15, Rule::Renju, OpeningStyle::Wide, &mut rng);
            counts.insert(moves.len());
            let far = |p: Pos| p.x().abs_diff(7).max(p.y().abs_diff(7));
            assert!(moves.iter().all(|&p| far(p) <= reach + 2), "{moves:?}");
            far_first += (far(moves[0]) > OPENING_CENTRE) as usize;
            // A stone with no other within two points: placed alone.
            lone += moves
                .iter()
                .filter(|&&p| {
                    moves
                        .iter()
                        .all(|&q| q == p || p.x().abs_diff(q.x()).max(p.y().abs_diff(q.y())) > 2)
                })
                .count();
            // Legal under renju: every stone on an empty point, no five, black's stones off
            // the forbidden points.
            let mut board = crate::board::Board::new(15, Rule::Renju);
            for &p in &moves {
                let me = board.to_move();
                assert!(board.is_empty(p) && !board.makes_five(p, me), "{moves:?}");
                assert!(me == Color::White || !board.is_forbidden(p), "{moves:?}");
                board.make(p);
            }
        }
        let (least, most) = (*counts.first().unwrap(), *counts.last().unwrap());
        assert_eq!((least, most), (WIDE_MIN_OPENING, WIDE_MAX_OPENING));
        // The first stone lies outside the centre's square (7x7 of the 13x13 points within
        // reach) in 120 of 169 draws: about 142 of 200.
        assert!((115..=170).contains(&far_first), "{far_first}");
        assert!(lone >= 50, "{lone}");
    }

    #[test]
    fn a_balanced_set_is_distinct_and_within_its_margin() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(3);
        let mut scores = Vec::new();
        let spec = SetSpec {
            size: 15,
            rule: Rule::Freestyle,
            count: 6,
            nodes: 500,
            margin: 80,
            eval: Evaluation::Classical,
        };
        let set = balanced_set(&spec, &mut rng, &mut |_, s| scores.push(s));
        assert_eq!(set.len(), 6);
        assert!(scores.iter().all(|s| s.abs() <= 80), "{scores:?}");
        let mut engine = Engine::new(15, Rule::Freestyle).expect("15x15");
        for (i, a) in set.iter().enumerate() {
            assert_eq!(engine.set_position(a), Ok(()));
            for b in &set[i + 1..] {
                assert_ne!(a, b);
            }
        }
    }
}
