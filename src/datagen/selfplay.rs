//! One self-play game for training data: a random opening that a short search judges
//! balanced, then the engine against itself at a fixed node budget (node budgets give the
//! same game on every machine), until a five, a full board, or a search that proves the
//! result.

use super::format::{Game, Outcome, Ply};
use super::opening::{balanced_opening, OpeningStyle};
use crate::engine::{Engine, GameStatus, Level};
use crate::search::{mate_distance, Limits};
use crate::types::{Color, Pos, Rule};
use rand_xoshiro::rand_core::RngCore;
use rand_xoshiro::Xoshiro256PlusPlus;

/// The first searched plies pick at random among moves within [`VARIETY_MARGIN`] of the
/// best, so that games from one opening part ways.
pub const VARIETY_PLIES: usize = 6;
/// See [`VARIETY_PLIES`]: a small margin, so the moves picked are still good ones.
pub const VARIETY_MARGIN: i32 = 20;

/// What to generate.
#[derive(Clone, Debug)]
pub struct Settings {
    /// Board size.
    pub size: usize,
    /// Rule.
    pub rule: Rule,
    /// Nodes searched for every move.
    pub nodes: u64,
    /// Where the random opening stones go.
    pub openings: OpeningStyle,
}

/// Plays one game with `engine` (a fresh game is started on it), drawing the opening with
/// `rng`.
pub fn play_game(settings: &Settings, engine: &mut Engine, rng: &mut Xoshiro256PlusPlus) -> Game {
    let opening = balanced_opening(
        settings.size,
        settings.rule,
        settings.openings,
        settings.nodes,
        engine,
        rng,
    );
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
