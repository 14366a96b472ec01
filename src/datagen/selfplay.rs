//! One self-play game for training data: a random opening that a short search judges
//! balanced, then the engine against itself at a fixed node budget (node budgets give the
//! same game on every machine), until a five, a full board, or a search that proves the
//! result.

use super::format::{Game, Outcome, Ply};
use crate::engine::{Engine, GameStatus, Level};
use crate::movegen::{generate, GenKind, MoveList};
use crate::search::{mate_distance, Limits};
use crate::types::{Color, Pos, Rule};
use rand_xoshiro::rand_core::RngCore;
use rand_xoshiro::Xoshiro256PlusPlus;

/// Fewest random opening stones. Two random stones near the centre are nearly always
/// balanced; fewer would repeat openings.
pub const MIN_OPENING: usize = 2;
/// Most random opening stones: beyond about six random stones one side is usually ahead.
pub const MAX_OPENING: usize = 6;
/// Nodes of the search that judges an opening (or the per-move budget, if smaller).
pub const BALANCE_NODES: u64 = 4_000;
/// An opening is kept when that search scores it within this margin of even (the value of
/// about an open two; an open three is several times more).
pub const BALANCE_MARGIN: i32 = 120;
/// Openings drawn before the last one is kept whatever its score.
pub const OPENING_TRIES: usize = 40;
/// The first searched plies pick at random among moves within [`VARIETY_MARGIN`] of the
/// best, so that games from one opening part ways.
pub const VARIETY_PLIES: usize = 6;
/// See [`VARIETY_PLIES`]: a small margin, so the moves picked are still good ones.
pub const VARIETY_MARGIN: i32 = 20;
/// The first random stone lies within this distance of the centre.
pub const OPENING_CENTRE: usize = 3;

/// What to generate.
#[derive(Clone, Debug)]
pub struct Settings {
    /// Board size.
    pub size: usize,
    /// Rule.
    pub rule: Rule,
    /// Nodes searched for every move.
    pub nodes: u64,
}

/// Plays one game with `engine` (a fresh game is started on it), drawing the opening with
/// `rng`.
pub fn play_game(settings: &Settings, engine: &mut Engine, rng: &mut Xoshiro256PlusPlus) -> Game {
    let opening = balanced_opening(settings, engine, rng);
    let mut plies: Vec<Ply> = opening
        .iter()
        .map(|&p| Ply {
            played: p,
            best: Pos::NONE,
            score: 0,
        })
        .collect();
    engine.set_seed(rng.next_u64());
    let limits = Limits {
        nodes: Some(settings.nodes),
        ..Limits::default()
    };
    let outcome = loop {
        let searched = plies.len() - opening.len();
        engine.set_random_margin((searched < VARIETY_PLIES).then_some(VARIETY_MARGIN));
        let out = engine.think(Level::Full, &limits, &mut |_| {});
        if out.best.is_none() {
            // No legal move (renju black, every point forbidden, or a full board).
            break match engine.board().to_move() {
                Color::Black if settings.rule.has_forbidden() => Outcome::WhiteWin,
                _ => Outcome::Draw,
            };
        }
        let me = engine.board().to_move();
        plies.push(Ply {
            played: out.best,
            best: out.pv.first().copied().unwrap_or(out.best),
            score: out.score.clamp(i16::MIN as i32 + 1, i16::MAX as i32) as i16,
        });
        if let Some(d) = mate_distance(out.score) {
            // A proven result: the game would only play it out.
            break Outcome::won_by(if d > 0 { me } else { !me });
        }
        match engine.play(out.best) {
            Ok(GameStatus::Ongoing) => {}
            Ok(GameStatus::Five { winner } | GameStatus::Forbidden { winner }) => {
                break Outcome::won_by(winner)
            }
            Ok(GameStatus::Draw) => break Outcome::Draw,
            Err(e) => {
                // The search's moves are legal; should one not be, the game ends unscored.
                debug_assert!(false, "the engine chose an illegal move: {e}");
                break Outcome::Draw;
            }
        }
    };
    engine.set_random_margin(None);
    Game {
        size: settings.size,
        rule: settings.rule,
        outcome,
        opening: opening.len(),
        plies,
    }
}

/// Draws random openings until a short search judges one balanced (or the tries run out),
/// and leaves it on `engine`'s board. Returns its moves.
fn balanced_opening(
    settings: &Settings,
    engine: &mut Engine,
    rng: &mut Xoshiro256PlusPlus,
) -> Vec<Pos> {
    let limits = Limits {
        nodes: Some(BALANCE_NODES.min(settings.nodes)),
        ..Limits::default()
    };
    let mut moves = Vec::new();
    for _ in 0..OPENING_TRIES {
        moves = random_opening(settings, rng);
        engine
            .new_game(settings.size, settings.rule)
            .expect("the size was checked");
        if engine.set_position(&moves).is_err() {
            continue;
        }
        let out = engine.think(Level::Full, &limits, &mut |_| {});
        if out.score.abs() <= BALANCE_MARGIN {
            break;
        }
    }
    engine.clear_hash();
    moves
}

/// A random opening: a first stone near the centre, then stones on random candidate points
/// (near the stones already placed), never a five or a forbidden point.
fn random_opening(settings: &Settings, rng: &mut Xoshiro256PlusPlus) -> Vec<Pos> {
    let n = MIN_OPENING + (rng.next_u64() % (MAX_OPENING - MIN_OPENING + 1) as u64) as usize;
    let mut board = crate::Board::new(settings.size, settings.rule);
    let c = settings.size / 2;
    let span = (2 * OPENING_CENTRE + 1) as u64;
    let mut pick = |range: u64| (rng.next_u64() % range) as usize;
    let first = Pos::new(
        (c + pick(span)).saturating_sub(OPENING_CENTRE),
        (c + pick(span)).saturating_sub(OPENING_CENTRE),
    );
    board.make(first);
    let mut moves = vec![first];
    let mut list = MoveList::new();
    while moves.len() < n {
        generate(&mut board, GenKind::Candidates, &mut list);
        let safe: Vec<Pos> = list
            .iter()
            .filter(|&p| !board.makes_five(p, board.to_move()))
            .collect();
        if safe.is_empty() {
            break;
        }
        let p = safe[pick(safe.len() as u64)];
        board.make(p);
        moves.push(p);
    }
    moves
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand_xoshiro::rand_core::SeedableRng;

    #[test]
    fn openings_are_legal_and_near_the_centre() {
        let settings = Settings {
            size: 15,
            rule: Rule::Renju,
            nodes: 1_000,
        };
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(7);
        for _ in 0..50 {
            let moves = random_opening(&settings, &mut rng);
            assert!((MIN_OPENING..=MAX_OPENING).contains(&moves.len()));
            assert!(moves[0].x().abs_diff(7) <= OPENING_CENTRE);
            assert!(moves[0].y().abs_diff(7) <= OPENING_CENTRE);
            let mut engine = Engine::new(15, Rule::Renju).expect("15x15");
            assert_eq!(engine.set_position(&moves), Ok(()), "{moves:?}");
        }
    }
}
