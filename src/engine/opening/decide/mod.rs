//! The engine's decisions in an opening stage, on either side: the stones it places (a
//! balanced opening where the opponent may swap next), its choice of colour, the 4th stone
//! with a number of fifth moves, the fifth moves it offers, and its pick among offers. Each
//! takes [`Limits`] like a move and shares them among the searches it runs.

use super::action::{Action, Expect};
use super::canonical::Canonical;
use super::offers::{keeping, one_of_each};
use super::rule::{OpeningRule, MAX_FIFTHS};
use super::state::{colour, Opening};
use crate::engine::balance::share;
use crate::engine::Engine;
use crate::search::{mate_distance, Limits, Outcome, RootScores};
use crate::types::{Color, Pos};
use booked::keep_balanced;
use fifths::{nearest_even, worst_of_best};
use rand_xoshiro::rand_core::RngCore;
use std::borrow::Cow;
use std::sync::atomic::Ordering;
use std::time::Duration;
use variety::{ends_stones, rank, Rank};

/// White's 4th stones tried under Soosorv (the search's best few): each costs a search of
/// black's fifth moves.
pub const FOURTHS_TRIED: usize = 3;

/// White's 4th stones tried under Soosorv when the engine varies its play: more
/// candidates, so that the 4th stones differ from game to game after the same opening.
pub const FOURTHS_TRIED_VARYING: usize = 6;

/// The window around even (centi-stones, for the side to move after a candidate) within
/// which a candidate counts as balanced: a varying engine picks among those at random.
/// About a quarter of the value of an open three (see
/// [`crate::engine::MAX_RANDOM_MARGIN`]).
pub const EVEN_WINDOW: i32 = 60;

/// The wider window (centi-stones, as [`EVEN_WINDOW`]): when no candidate within
/// [`EVEN_WINDOW`] makes a new position or leads on to a new final position, a new one
/// within this window is taken (nearest even first) before an old one is placed again.
pub const VARIETY_WINDOW: i32 = 150;

/// The widest window (centi-stones, as [`EVEN_WINDOW`]): a new position within it is
/// placed before one that is spent (every final position after it was placed before) is
/// placed again. The most a varying engine's random choice may give up
/// ([`crate::engine::MAX_RANDOM_MARGIN`]).
pub const WIDEST_WINDOW: i32 = crate::engine::MAX_RANDOM_MARGIN;

/// Swap2's second player: when the side to move after the three stones stands within this
/// many centi-stones of even (either way) by the engine's search, neither colour is clearly
/// better for it, and it adds two stones that balance the position and hands the choice
/// of colour back, as a strong player does, rather than take a colour on a judgement that
/// small. Under a tenth of what an open three adds ([`crate::engine::MAX_RANDOM_MARGIN`]),
/// and under half of [`EVEN_WINDOW`], so that most of the balanced openings the engine
/// places itself still get a colour taken.
pub const ADD_TWO_WINDOW: i32 = 25;

/// How much further from even (centi-stones) a varying engine counts a position after
/// which the opening book knows no ending it has not placed before: more than
/// [`VARIETY_WINDOW`], so that a way to a new ending within that window comes first.
pub const STALE_ENDING: i32 = 2 * VARIETY_WINDOW;

/// The most balanced candidates of one choice searched deeper before one is taken.
pub const CHECKED: usize = 4;

/// Node cap of each of those deeper searches.
const CHECK_NODES: u64 = 200_000;

/// Swap and swap2, when the engine varies its play: the 1st stone within this many points
/// of the centre (the central 5x5 square).
pub const SWAP_FIRST_REACH: usize = 2;
/// ... the 2nd within this many points of the 1st.
pub const SWAP_SECOND_REACH: usize = 2;
/// ... the 3rd, balancing them, within this many points of the 1st.
pub const SWAP_THIRD_REACH: usize = 3;

/// Depth cap of the short searches that judge a candidate stone's balance (the opening
/// stones are many candidates for one move's time).
const PROBE_DEPTH: i32 = 4;
/// Node cap of one such search.
const PROBE_NODES: u64 = 50_000;
/// Time of one such search when the limits give no time.
const PROBE_TIME: Duration = Duration::from_millis(100);

/// A candidate of a balanced choice: what is chosen, the position it makes, and the score
/// of the side to move there.
type Candidate<T> = (T, Vec<Pos>, i32);

/// What the engine does at a step of an opening stage.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Decision {
    /// The action, legal at that step.
    pub action: Action,
    /// The search's score behind it, for the player who acts (centi-stones; for a colour
    /// choice, for the colour chosen).
    pub score: i32,
    /// After a choice of the colour to move: that colour's move from the same search.
    pub next: Option<Pos>,
}

impl Decision {
    fn of(action: Action, score: i32) -> Decision {
        Decision {
            action,
            score,
            next: None,
        }
    }
}

impl Engine {
    /// The engine's action at the current step of `opening`, for the player to act, within
    /// `limits`; `None` once the stage is over. The engine must play the opening's board
    /// size and rule; its position is left somewhere in the opening (set it before playing
    /// on). `stopped` ends the trying of candidates early (a front end's stop): the best so
    /// far is taken. Each position its stone (placed or picked) makes is recorded
    /// ([`Engine::placed_openings`]).
    pub fn opening_decision(
        &mut self,
        opening: &Opening,
        limits: &Limits,
        stopped: &dyn Fn() -> bool,
    ) -> Option<Decision> {
        let decision = self.decision(opening, limits, stopped)?;
        let placed = match decision.action {
            Action::Place(p) | Action::PlaceAndDeclare(p, _) | Action::Pick(p) => vec![p],
            Action::AddTwo(w, b) => vec![w, b],
            _ => Vec::new(),
        };
        if !placed.is_empty() {
            let after = with(opening.stones(), &placed);
            let mut record = self.placed_openings();
            if ends_stones(opening, &decision.action) {
                record.end(opening.size(), &after);
            } else {
                record.insert(opening.size(), &after);
            }
        }
        Some(decision)
    }

    /// [`Engine::opening_decision`] before the stone it places is recorded.
    fn decision(
        &mut self,
        opening: &Opening,
        limits: &Limits,
        stopped: &dyn Fn() -> bool,
    ) -> Option<Decision> {
        let stones = opening.stones().to_vec();
        let n = stones.len();
        let rule = opening.rule();
        Some(match opening.expect() {
            Expect::Nothing => return None,
            Expect::Stone { square, .. } => {
                let (p, score) = self.opening_stone(opening, square, limits, stopped);
                Decision::of(Action::Place(p), -score)
            }
            Expect::StoneAndDeclare { square, max, .. } => {
                if rule == OpeningRule::Yamaguchi {
                    let (third, _) = self.opening_stone(opening, square, limits, stopped);
                    let mut with = stones.clone();
                    with.push(third);
                    let (k, v) = match self.book_declare(&with, max) {
                        Some(declared) => declared,
                        None => self.declare_for(&with, max, true, limits),
                    };
                    Decision::of(Action::PlaceAndDeclare(third, k), v)
                } else {
                    let (fourth, k, v) = self.fourth_and_declare(&stones, max, limits, stopped);
                    Decision::of(Action::PlaceAndDeclare(fourth, k), -v)
                }
            }
            Expect::Swap2Choice => self.swap2_choice(&stones, limits, stopped),
            Expect::Colour => {
                let declared = opening.declared().unwrap_or(1);
                let booked = match (rule, n) {
                    (OpeningRule::Yamaguchi, 3) => self.book_declared(&stones, declared),
                    _ => None,
                };
                if let Some(v) = booked {
                    // Yamaguchi's swap by the book's end of the stage after white's 4th.
                    let c = if v >= 0 { Color::Black } else { Color::White };
                    Decision::of(Action::Choose(c), v.saturating_abs())
                } else if let (OpeningRule::Soosorv { .. }, 4) = (rule, n) {
                    // Black decides with the offers to come: white takes the worst of them.
                    let count = declared;
                    let v = self.nth_fifth(&stones, count, limits);
                    let c = if v >= 0 { Color::Black } else { Color::White };
                    Decision::of(Action::Choose(c), if v >= 0 { v } else { -v })
                } else {
                    self.choose_colour(&stones, limits)
                }
            }
            Expect::FifthOrOffer { count } => {
                let fifths = self.fifths(&stones, &share(limits, 2));
                let v = worst_of_best(&fifths, count as usize);
                if v > 0 {
                    let offers = self.offers(&stones, &fifths, count as usize);
                    Decision::of(Action::Offer(offers), v)
                } else {
                    // The first choice: black keeps black and places a balanced 5th, which
                    // white may swap; about even either way.
                    Decision::of(Action::Choose(Color::Black), 0)
                }
            }
            Expect::Offer { count } => {
                let fifths = self.fifths(&stones, limits);
                let v = worst_of_best(&fifths, count as usize);
                Decision::of(
                    Action::Offer(self.offers(&stones, &fifths, count as usize)),
                    v,
                )
            }
            Expect::Pick => {
                let (p, v) = self.pick(&stones, opening.offers(), limits);
                Decision::of(Action::Pick(p), -v)
            }
        })
    }

    /// A stone of the player to act: the opening's group of stones placed by one player
    /// (swap, swap2, the canonical openings) as balanced as the search finds, since the
    /// opponent chooses the colour next; under Taraguchi a balanced stone within the square;
    /// Yamaguchi's 4th (no swap after it) the best move. Returns the stone and the score of
    /// the opponent after it (after the whole canonical opening for its 2nd stone, whose
    /// third stone the search judged with it; the opponent is then white too). When the
    /// engine varies its play, swap's and swap2's first two stones are drawn at random
    /// (the 1st within the central 5x5 square, the 2nd within two points of it) and every
    /// balanced choice is one at random among the balanced candidates it has not placed
    /// before ([`Engine::choose_balanced`]).
    fn opening_stone(
        &mut self,
        opening: &Opening,
        square: Option<u8>,
        limits: &Limits,
        stopped: &dyn Fn() -> bool,
    ) -> (Pos, i32) {
        let size = opening.size();
        let stones = opening.stones();
        let n = stones.len();
        let c = size / 2;
        let centre = Pos::new(c, c);
        let near = |r: usize| around(size, centre, r, stones);
        let varying = self.config.random_margin.is_some();
        let rule = opening.rule();
        match (rule, n) {
            (OpeningRule::Swap | OpeningRule::Swap2, 0) if varying => {
                (self.any_fresh(stones, &near(SWAP_FIRST_REACH)), 0)
            }
            (_, 0) if opening.rule() != OpeningRule::SwapAfterFirst => (centre, 0),
            (OpeningRule::SwapAfterFirst, _) => {
                // One stone the opponent chooses a colour after: of the points of one
                // eighth of the board (every point up to symmetry), the one nearest even.
                let octant: Vec<Pos> = (0..=c)
                    .flat_map(|y| (y..=c).map(move |x| Pos::new(x, y)))
                    .collect();
                self.balanced_among(stones, &octant, limits, stopped)
            }
            (OpeningRule::Swap | OpeningRule::Swap2, 1) => {
                if varying {
                    // The third stone balances it within the 7x7 square around the first.
                    // Where the swap book holds the openings, only second stones after
                    // which it has a balanced third not placed before, while there are any.
                    let ring = around(size, stones[0], SWAP_SECOND_REACH, stones);
                    let open = self.with_new_booked_third(stones, &ring);
                    let from = if open.is_empty() { ring } else { open };
                    (self.any_fresh(stones, &from), 0)
                } else {
                    (Pos::new((c + 1).min(size - 1), c.saturating_sub(1)), 0)
                }
            }
            (OpeningRule::Swap | OpeningRule::Swap2, _) => {
                let within = if varying {
                    around(size, stones[0], SWAP_THIRD_REACH, stones)
                } else {
                    near(2)
                };
                self.booked_or_balanced(stones, &within, limits, stopped)
            }
            (OpeningRule::Yamaguchi, 3) => {
                let declared = opening.declared().unwrap_or(1);
                match self.book_fourth(stones, declared) {
                    Some(chosen) => chosen,
                    None => self.varied_best(stones, limits),
                }
            }
            (OpeningRule::Soosorv { .. } | OpeningRule::Yamaguchi, 1) => {
                // The second stone of the most balanced canonical opening: by how near even
                // the book can end the stage after it, where it has fifth moves after it
                // (the stones and choices after the opening balance the stage), else by
                // short searches.
                let openings: Vec<Vec<Pos>> = Canonical::ALL
                    .iter()
                    .map(|k| k.stones(size)[1..].to_vec())
                    .collect();
                let (i, score) = match self.book_balanced(stones, &openings, rule, stopped) {
                    Some(chosen) => chosen,
                    None => self.balanced_index(stones, &openings, limits, stopped),
                };
                (openings[i][0], score)
            }
            (OpeningRule::Soosorv { .. } | OpeningRule::Yamaguchi, 2)
            | (OpeningRule::Taraguchi { .. }, 1..=3) => {
                // A stone within its square the same way; Taraguchi's 4th only among the
                // stones after which the book has fifth moves.
                let side = square.unwrap_or(size as u8);
                let within: Vec<Pos> = near(side as usize / 2);
                let groups: Vec<Vec<Pos>> = within.iter().map(|&p| vec![p]).collect();
                match self.book_balanced(stones, &groups, rule, stopped) {
                    Some((i, score)) => (within[i], score),
                    None if matches!(rule, OpeningRule::Taraguchi { .. }) => {
                        self.balanced_in_root(stones, &within, limits)
                    }
                    None => self.balanced_among(stones, &within, limits, stopped),
                }
            }
            _ => {
                let side = square.unwrap_or(size as u8);
                let within: Vec<Pos> = near(side as usize / 2);
                if matches!(opening.rule(), OpeningRule::Taraguchi { .. }) {
                    self.balanced_in_root(stones, &within, limits)
                } else {
                    self.balanced_among(stones, &within, limits, stopped)
                }
            }
        }
    }

    /// One of `points` after `stones` at random, among those whose position is not spent
    /// when there are any ([`crate::engine::opening::placed::Placed::spend`]: every final
    /// position the engine balanced after it was placed before), so that a random stone
    /// leads on to new openings.
    fn any_fresh(&mut self, stones: &[Pos], points: &[Pos]) -> Pos {
        let size = self.board().size();
        let placed = self.placed_openings();
        let fresh: Vec<Pos> = points
            .iter()
            .copied()
            .filter(|&p| placed.spent(size, &with(stones, &[p])) == 0)
            .collect();
        drop(placed);
        if fresh.is_empty() {
            self.any_of(points)
        } else {
            self.any_of(&fresh)
        }
    }

    /// One of `points` at random (`Pos::NONE` when there is none).
    fn any_of(&mut self, points: &[Pos]) -> Pos {
        if points.is_empty() {
            return Pos::NONE;
        }
        points[(self.rng.next_u64() % points.len() as u64) as usize]
    }

    /// The best move after `stones` with the opponent's score after it; when the engine
    /// varies its play, the one [`Engine::vary`] takes with the best as the ideal and the
    /// engine's random margin.
    fn varied_best(&mut self, stones: &[Pos], limits: &Limits) -> (Pos, i32) {
        self.set_position(stones).ok();
        let Some(margin) = self.config.random_margin else {
            let out = self.searched(limits);
            return (out.best, -out.score);
        };
        let scored = self.scored_root(limits, &mut |_| {});
        let Some(best) = scored.iter().map(|&(_, s)| s).max() else {
            return (Pos::NONE, 0);
        };
        if mate_distance(best).is_some() {
            let &(p, s) = scored
                .iter()
                .find(|&&(_, s)| s == best)
                .unwrap_or(&scored[0]);
            return (p, -s);
        }
        let (p, s) = self
            .vary(stones, &scored, margin, &|s| best - s)
            .unwrap_or(scored[0]);
        (p, -s)
    }

    /// The limits of one of `count` short searches that judge candidates.
    fn probe(limits: &Limits, count: usize) -> Limits {
        let time = limits
            .hard_time
            .map(|t| t / count.max(1) as u32)
            .unwrap_or(PROBE_TIME);
        Limits {
            depth: Some(limits.depth.unwrap_or(PROBE_DEPTH).min(PROBE_DEPTH)),
            nodes: Some(limits.nodes.unwrap_or(PROBE_NODES).min(PROBE_NODES)),
            soft_time: Some(time / 2),
            hard_time: Some(time),
        }
    }

    /// The limits of one of the deeper searches that check the balanced candidates of a
    /// choice: a share of the choice's limits, without the probes' depth cap.
    fn check(limits: &Limits) -> Limits {
        let part = share(limits, 2 * CHECKED as u32);
        Limits {
            depth: limits.depth,
            nodes: Some(limits.nodes.unwrap_or(CHECK_NODES).min(CHECK_NODES)),
            soft_time: part.soft_time.or(part.hard_time.map(|t| t / 2)),
            hard_time: part.hard_time.or(Some(PROBE_TIME * 4)),
        }
    }

    /// The candidate after which the opponent (to move) stands nearest even, by a short
    /// search of each; returns it and the opponent's score.
    fn balanced_among(
        &mut self,
        stones: &[Pos],
        candidates: &[Pos],
        limits: &Limits,
        stopped: &dyn Fn() -> bool,
    ) -> (Pos, i32) {
        let groups: Vec<Vec<Pos>> = candidates.iter().map(|&p| vec![p]).collect();
        let (i, score) = self.balanced_index(stones, &groups, limits, stopped);
        (candidates.get(i).copied().unwrap_or(Pos::NONE), score)
    }

    /// As [`Engine::balanced_among`] for groups of stones placed in turn: the index of the
    /// group after which the side to move stands nearest even, and its score.
    fn balanced_index(
        &mut self,
        stones: &[Pos],
        groups: &[Vec<Pos>],
        limits: &Limits,
        stopped: &dyn Fn() -> bool,
    ) -> (usize, i32) {
        let probe = Engine::probe(&share(limits, 2), groups.len());
        let mut scored: Vec<(usize, Vec<Pos>, i32)> = Vec::new();
        for (i, group) in groups.iter().enumerate() {
            if stopped() && !scored.is_empty() {
                break;
            }
            let after = with(stones, group);
            if self.set_position(&after).is_err() {
                continue;
            }
            let score = self.searched(&probe).score;
            scored.push((i, after, score));
        }
        self.choose_balanced(stones, scored, Some(limits), stopped)
            .unwrap_or((0, 0))
    }

    /// Of `scored` (candidates, the position each makes, and the score of the side to move
    /// there by a short search, or the opening book's deep score where it has the position:
    /// [`Engine::book_score`]), the one the engine places, with its score. Without
    /// variety: the nearest even. When the engine varies its play
    /// ([`crate::engine::Config::random_margin`]) the candidates are tried in the order of
    /// [`variety::rank`], with even as the ideal and [`EVEN_WINDOW`] as the window: new balanced
    /// positions first, then ways to new final positions, then wider windows, and a
    /// position whose every continuation was placed before last. Either way up to
    /// [`CHECKED`] of them are searched deeper (a position in the book keeps its score,
    /// deeper than such a check), and the first that stays within the window
    /// there is taken (else the nearest even by the deeper searches, a varying engine's
    /// first by rank with that score), so that the short
    /// search's misjudgements are caught; a varying engine keeps each deeper score
    /// ([`crate::engine::opening::placed::Placed::judge`]) and ranks the candidate by it
    /// from then on, so that it does not fall for the same misjudgement again. `stones` is
    /// the position the candidates follow: it is spent when none of them is new and
    /// balanced ([`Engine::spend_if_wide`]).
    fn choose_balanced<T: Copy>(
        &mut self,
        stones: &[Pos],
        scored: Vec<Candidate<T>>,
        deeper: Option<&Limits>,
        stopped: &dyn Fn() -> bool,
    ) -> Option<(T, i32)> {
        let size = self.board().size();
        let varying = self.config.random_margin.is_some();
        let mut pool = scored;
        let mut booked: Vec<Vec<Pos>> = Vec::new();
        for c in pool.iter_mut() {
            if let Some(b) = self.book_score(&c.1) {
                c.2 = b;
                booked.push(c.1.clone());
            }
        }
        if varying {
            // A deeper check made before outranks the short search's score.
            let placed = self.placed_openings();
            let mut judged: Vec<(Candidate<T>, i32)> = pool
                .drain(..)
                .map(|c| {
                    let off = placed.checked(size, &c.1).unwrap_or(c.2.abs());
                    (c, off)
                })
                .collect();
            drop(placed);
            self.order_varied(stones, &mut judged, EVEN_WINDOW, |(c, off)| {
                (Cow::Borrowed(&c.1[..]), *off)
            });
            pool.extend(judged.into_iter().map(|(c, _)| c));
        } else {
            pool.sort_by_key(|c| c.2.abs());
        }
        let Some(limits) = deeper else {
            return pool.first().map(|c| (c.0, c.2));
        };
        pool.truncate(CHECKED);
        let check = Engine::check(limits);
        let mut best: Option<(T, i32, Rank)> = None;
        for (t, after, _) in pool.iter() {
            if stopped() && best.is_some() {
                break;
            }
            let s = if booked.contains(after) {
                self.book_score(after).unwrap_or_default()
            } else {
                if self.set_position(after).is_err() {
                    continue;
                }
                let s = self.searched(&check).score;
                if varying {
                    self.placed_openings().judge(size, after, s);
                }
                s
            };
            // A varying engine keeps the order of the ranks with the deeper score: a
            // candidate nearer even by it does not displace one of a better rank (a new
            // position before one placed again).
            let order = if varying {
                let placed = self.placed_openings();
                let r = rank(&placed, size, after, s.saturating_abs(), EVEN_WINDOW);
                (r.0, r.1, r.2, s.saturating_abs())
            } else {
                (0, 0, 0, s.saturating_abs())
            };
            if best.is_none_or(|(_, _, b)| order < b) {
                best = Some((*t, s, order));
            }
            if s.abs() <= EVEN_WINDOW {
                break;
            }
        }
        best.map(|(t, s, _)| (t, s))
            .or_else(|| pool.first().map(|c| (c.0, c.2)))
    }

    /// A search of the position for its score and move, without the random pick among
    /// near-equal moves (a judgement, not a move to play).
    fn searched(&mut self, limits: &Limits) -> Outcome {
        let out = self.search(limits, &mut |_| {}, RootScores::Best);
        self.stop.store(false, Ordering::SeqCst);
        out
    }

    /// Among the root moves of one search that lie in `within`, the one whose score (for
    /// the side placing it) is nearest even, chosen as [`Engine::choose_balanced`] does;
    /// the first empty point of `within` when the search names none there. Returns it and
    /// the opponent's score after it.
    fn balanced_in_root(&mut self, stones: &[Pos], within: &[Pos], limits: &Limits) -> (Pos, i32) {
        self.set_position(stones).ok();
        let mut scored = self.scored_root(&share(limits, 2), &mut |_| {});
        scored.retain(|(p, _)| within.contains(p));
        scored.sort_by_key(|&(p, s)| (s.abs(), p.0));
        let candidates: Vec<(Pos, Vec<Pos>, i32)> = scored
            .into_iter()
            .map(|(p, s)| (p, with(stones, &[p]), -s))
            .collect();
        self.choose_balanced(stones, candidates, Some(limits), &|| false)
            .unwrap_or((within.first().copied().unwrap_or(Pos::NONE), 0))
    }

    /// Swap2's second player's choice after the three stones: when the side to move stands
    /// within [`ADD_TWO_WINDOW`] of even (by the opening book's score where it holds the
    /// opening, else by a search of the position), neither colour is clearly better, and
    /// the engine adds two stones, the white one the book's 4th stone there
    /// ([`Engine::book_fourth_after`]) or else its search's best move, and the black one
    /// balancing them (within [`SWAP_THIRD_REACH`] points of the first stone; among the
    /// book's five-stone positions where it holds any), and hands the choice of colour
    /// back, if that black stone leaves the position within [`EVEN_WINDOW`] of even; else
    /// it takes the colour that stands better ([`Engine::choose_colour`]). The
    /// score of an addition is its own after the opponent's choice: the position's, less
    /// than even.
    fn swap2_choice(
        &mut self,
        stones: &[Pos],
        limits: &Limits,
        stopped: &dyn Fn() -> bool,
    ) -> Decision {
        let half = share(limits, 2);
        let out = self.judged(stones, &half);
        if out.score.abs() > ADD_TWO_WINDOW || out.best.is_none() {
            return self.colour_from(stones, &out);
        }
        let fourth = self.book_fourth_after(stones).unwrap_or(out.best);
        let white = with(stones, &[fourth]);
        let size = self.board().size();
        let within = around(size, stones[0], SWAP_THIRD_REACH, &white);
        let (black, score) = self.booked_or_balanced(&white, &within, &half, stopped);
        // Without a balancing black stone the addition would hand the opponent the better
        // colour.
        if black.is_none() || score.abs() > EVEN_WINDOW {
            return self.colour_from(stones, &out);
        }
        Decision::of(Action::AddTwo(fourth, black), -score.abs())
    }

    /// The colour to play on with: the side to move when it stands even or better, else
    /// the other, by the opening book's score where it holds the position and else by a
    /// search of it; with the move the search found.
    fn choose_colour(&mut self, stones: &[Pos], limits: &Limits) -> Decision {
        let out = self.judged(stones, limits);
        self.colour_from(stones, &out)
    }

    /// A search of the position `stones` within `limits` for its move, with the opening
    /// book's score in place of the search's where the book holds the position.
    fn judged(&mut self, stones: &[Pos], limits: &Limits) -> Outcome {
        self.set_position(stones).ok();
        let mut out = self.searched(limits);
        if let Some(booked) = self.book_score(stones) {
            out.score = booked;
        }
        out
    }

    /// Of `within` after `stones`, the stone the engine places among the positions the
    /// opening book holds where it holds any ([`Engine::book_chosen`]), else by short
    /// searches within `limits` ([`Engine::balanced_among`]).
    fn booked_or_balanced(
        &mut self,
        stones: &[Pos],
        within: &[Pos],
        limits: &Limits,
        stopped: &dyn Fn() -> bool,
    ) -> (Pos, i32) {
        match self.book_chosen(stones, within, stopped) {
            Some(chosen) => chosen,
            None => self.balanced_among(stones, within, limits, stopped),
        }
    }

    /// [`Engine::choose_colour`]'s choice from the search `out` of the position `stones`.
    fn colour_from(&self, stones: &[Pos], out: &Outcome) -> Decision {
        let to_move = colour(stones.len() + 1);
        if out.score < 0 || out.best.is_none() {
            Decision::of(Action::Choose(!to_move), -out.score)
        } else {
            Decision {
                action: Action::Choose(to_move),
                score: out.score,
                next: Some(out.best),
            }
        }
    }
}

/// `stones` followed by `more`.
fn with(stones: &[Pos], more: &[Pos]) -> Vec<Pos> {
    stones.iter().chain(more).copied().collect()
}

/// The empty points (not in `stones`) at most `r` points from `centre` along both axes, on
/// a board of side `size`.
pub fn around(size: usize, centre: Pos, r: usize, stones: &[Pos]) -> Vec<Pos> {
    let span = |v: usize| v.saturating_sub(r)..=(v + r).min(size - 1);
    span(centre.y())
        .flat_map(|y| span(centre.x()).map(move |x| Pos::new(x, y)))
        .filter(|p| !stones.contains(p))
        .collect()
}

/// Every point of the board of side `size` but `stones`, row by row.
fn every_point(size: usize, stones: &[Pos]) -> Vec<Pos> {
    let c = size / 2;
    around(size, Pos::new(c, c), c, stones)
}

mod booked;
mod fifths;
mod variety;

#[cfg(test)]
mod tests;
