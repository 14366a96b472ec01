//! Learning: what a finished game and a search teach the database, and the advice it gives
//! the root search.
//!
//! A finished game adds its result to the outcomes of every move played in it, and carries
//! proofs backwards along its moves: a position whose mover's move led to a position lost
//! for the other side is won; a position where the mover had to stop a four (or could not
//! stop two) and the game's move led to a position won for the other side is lost. Each
//! search stores its root result, and a proven one as a proof. So a game the engine lost
//! leaves its last free choice before the loss pointing at a position proven won for the
//! opponent, and the root search there is told to avoid that move.

use super::key::Canon;
use super::record::{Deep, Outcomes, Proven, Record};
use super::store::Writer;
use super::{Db, DbError};
use crate::board::Board;
use crate::movegen::{generate, GenKind, MoveList};
use crate::search::mate_distance;
use crate::threat::Threat;
use crate::types::{Color, Pos, Rule};

/// Penalty of a root move after which the database holds a proof that the opponent wins:
/// above any evaluation of an undecided position (they stay within a few thousand), so the
/// move is played only if every other move is worse, and below a proven loss (the search
/// keeps penalised scores above those), so a fresh proof that the others lose still wins.
pub const PROVEN_LOSS_PENALTY: i32 = 10_000;
/// Penalty per game more lost than won after a root move, and bonus (a negative penalty)
/// per game more won than lost: a sixth of an open three's worth (about 300), so a single
/// game reorders only moves the search finds nearly equal. The bonus makes the engine play
/// again a move that won where another search would pick a different near-equal move:
/// without it, against an opponent that repeats itself, the learner left about half the
/// lines it had won when it met them again (docs/experiments.md, the position database).
pub const OUTCOME_STEP: i32 = 50;
/// Most penalty or bonus game statistics alone give a move: less than an open three, so
/// statistics never outweigh a tactical difference the search sees.
pub const OUTCOME_CAP: i32 = 250;

/// How a game ended.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum GameEnd {
    /// This side won.
    Won(Color),
    /// A draw.
    Draw,
}

/// The database's advice for a root, in the board's orientation: penalties of root moves,
/// and the move it knows best.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Advice {
    /// Moves with a penalty in centi-stones (only moves with one; a negative penalty is a
    /// bonus, for a move that won more games than it lost).
    pub penalties: Vec<(Pos, i32)>,
    /// The root's proven win: its move and the plies to the five (never a move with a
    /// proven-loss penalty: a contradiction in the file is not trusted).
    pub win: Option<(Pos, u16)>,
    /// The move to search first: the proven win's, else that of the deepest search stored
    /// unless that move has a penalty.
    pub first: Option<Pos>,
}

/// What is known about a position, in its own orientation (for the prompt's `db`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Known {
    /// The position's proof (its move mapped back).
    pub proven: Option<Proven>,
    /// Its deepest search (its move mapped back).
    pub deep: Option<Deep>,
    /// Game outcomes per move (moves mapped back), most played first.
    pub moves: Vec<Outcomes>,
    /// Moves after which the position is proven: the proof is from the other side's view.
    pub children: Vec<(Pos, Proven)>,
    /// The root penalties these give.
    pub advice: Advice,
}

/// What a game taught.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Learned {
    /// Positions whose outcomes were updated.
    pub positions: usize,
    /// Proofs derived from the game.
    pub proofs: usize,
    /// The game was the one learned last, moments ago (the other brain of the same game,
    /// sharing the file, taught it): nothing was counted again.
    pub repeated: bool,
}

/// Seconds within which the same game, learned again, is taken for the other brain of the
/// same game sharing the file (both learn when the manager ends the game, at once), and
/// counted once. The same moves played again later (a deterministic engine repeating a
/// line) count again: repeated losses are what raise a move's penalty.
pub const SAME_GAME_SECONDS: u64 = 30;

/// A game's identity: FNV-1a over its board size, rule and moves.
fn game_hash(size: usize, rule: Rule, moves: &[Pos]) -> u64 {
    let bytes = [size as u8]
        .into_iter()
        .chain(rule.name().bytes())
        .chain(moves.iter().flat_map(|p| (p.index() as u16).to_le_bytes()));
    crate::zobrist::fnv1a(bytes)
}

/// The penalty (negative: a bonus) that `outcomes` and a child's proof give a root move.
fn penalty(outcomes: Option<&Outcomes>, child: Option<&Proven>) -> i32 {
    let games = outcomes.map_or(0, |o| {
        let net = o.losses as i64 - o.wins as i64;
        (net * OUTCOME_STEP as i64).clamp(-OUTCOME_CAP as i64, OUTCOME_CAP as i64) as i32
    });
    if child.is_some_and(|p| p.win) {
        // A move proven to lose earns no bonus from the games it won before the proof.
        PROVEN_LOSS_PENALTY + games.max(0)
    } else {
        games
    }
}

/// A search's result waiting to be written ([`Db::note_search`]): written with the next
/// access, so that a move opens the file once.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchNote {
    key: Vec<u8>,
    best: Pos,
    score: i32,
    depth: i32,
}

impl SearchNote {
    fn apply(&self, r: &mut Record) {
        if let Some(d) = mate_distance(self.score) {
            r.prove(Proven {
                win: d > 0,
                distance: d.unsigned_abs().min(u16::MAX as u32) as u16,
                best: if d > 0 { self.best } else { Pos::NONE },
            });
        }
        r.deepen(Deep {
            depth: self.depth.clamp(0, u8::MAX as i32) as u8,
            score: self.score,
            best: self.best,
        });
    }
}

/// Writes `notes` in a write transaction.
fn write_notes(w: &mut Writer, notes: &[SearchNote]) -> Result<(), DbError> {
    for n in notes {
        w.update(&n.key, |r| n.apply(r))?;
    }
    Ok(())
}

/// The keys a root probe reads: the root's, then each candidate move's child's.
struct Probe {
    root: Canon,
    moves: Vec<Pos>,
    children: Vec<Canon>,
}

impl Probe {
    fn new(board: &mut Board) -> Probe {
        let root = Canon::of(board);
        let mut list = MoveList::new();
        generate(board, GenKind::Candidates, &mut list);
        let moves: Vec<Pos> = list.iter().collect();
        let children = moves.iter().map(|&p| Canon::after(board, p)).collect();
        Probe {
            root,
            moves,
            children,
        }
    }

    fn keys(&self) -> Vec<&[u8]> {
        let mut keys: Vec<&[u8]> = vec![&self.root.key];
        keys.extend(self.children.iter().map(|c| c.key.as_slice()));
        keys
    }

    /// What the records of [`Probe::keys`] say, in the board's orientation.
    fn known(&self, recs: Vec<Option<Record>>) -> Known {
        let root = &self.root;
        let mut recs = recs.into_iter();
        let rec = recs.next().flatten().unwrap_or_default();
        let mut known = Known {
            proven: rec.proven.map(|p| Proven {
                best: root.from_canonical(p.best),
                ..p
            }),
            deep: rec.deep.map(|d| Deep {
                best: root.from_canonical(d.best),
                ..d
            }),
            moves: rec
                .moves
                .iter()
                .map(|o| Outcomes {
                    mv: root.from_canonical(o.mv),
                    ..*o
                })
                .collect(),
            ..Known::default()
        };
        known
            .moves
            .sort_by_key(|o| std::cmp::Reverse(o.wins + o.draws + o.losses));
        for (&p, child) in self.moves.iter().zip(recs) {
            let proof = child.and_then(|c| c.proven);
            let pen = penalty(rec.outcomes(root.to_canonical(p)), proof.as_ref());
            if pen != 0 {
                known.advice.penalties.push((p, pen));
            }
            if let Some(pr) = proof {
                let best = Pos::NONE;
                known.children.push((p, Proven { best, ..pr }));
            }
        }
        let advice = &mut known.advice;
        let penalty = |m: Pos| {
            advice
                .penalties
                .iter()
                .find(|&&(p, _)| p == m)
                .map_or(0, |&(_, pen)| pen)
        };
        advice.win = known
            .proven
            .filter(|pr| pr.win && self.moves.contains(&pr.best))
            .filter(|pr| penalty(pr.best) < PROVEN_LOSS_PENALTY)
            .map(|pr| (pr.best, pr.distance));
        // A deep search's move that games have since punished is no hint.
        let deep = known
            .deep
            .map(|d| d.best)
            .filter(|&m| self.moves.contains(&m) && penalty(m) <= 0);
        advice.first = advice.win.map(|w| w.0).or(deep);
        known
    }
}

impl Db {
    /// Everything known about `board`'s position and the positions its candidate moves
    /// lead to, in one read.
    pub fn known(&self, board: &mut Board) -> Result<Known, DbError> {
        let probe = Probe::new(board);
        Ok(probe.known(self.store().get(&probe.keys())?))
    }

    /// The penalties of `board`'s root moves.
    pub fn advice(&self, board: &mut Board) -> Result<Advice, DbError> {
        Ok(self.known(board)?.advice)
    }

    /// Writes `notes` (earlier searches' results) and reads the penalties of `board`'s root
    /// moves, opening the file once: a move's only access.
    pub fn advise(&self, board: &mut Board, notes: &[SearchNote]) -> Result<Advice, DbError> {
        if notes.is_empty() {
            return self.advice(board);
        }
        let probe = Probe::new(board);
        let recs = self.store().write(|w| {
            write_notes(w, notes)?;
            probe.keys().into_iter().map(|k| w.find(k)).collect()
        })?;
        Ok(probe.known(recs).advice)
    }

    /// A root search of `board` to store (its depth, score for the side to move and move,
    /// and a proof if the score is one), not written yet: see [`Db::advise`].
    pub fn note_search(board: &Board, best: Pos, score: i32, depth: i32) -> Option<SearchNote> {
        if best.is_none() || depth < 1 {
            return None;
        }
        let c = Canon::of(board);
        Some(SearchNote {
            best: c.to_canonical(best),
            key: c.key,
            score,
            depth,
        })
    }

    /// Stores a root search of `board` at once ([`Db::note_search`], written).
    pub fn store_search(
        &self,
        board: &Board,
        best: Pos,
        score: i32,
        depth: i32,
    ) -> Result<(), DbError> {
        match Db::note_search(board, best, score, depth) {
            Some(n) => self.write_notes(&[n]),
            None => Ok(()),
        }
    }

    /// Writes `notes` in one transaction.
    pub fn write_notes(&self, notes: &[SearchNote]) -> Result<(), DbError> {
        if notes.is_empty() {
            return Ok(());
        }
        self.store().write(|w| write_notes(w, notes))
    }

    /// Learns from a finished game of `moves` (black first, `Pos::NONE` passes) on a `size`
    /// board under `rule`, in one transaction: outcomes of every move, and the proofs the
    /// game carries backwards. `now` dates the outcomes (seconds since 1970). A move list
    /// that is not a game (off the board, on a stone) teaches nothing. `notes` (searches
    /// not written yet) are written first, in the same transaction.
    pub fn learn_game(
        &self,
        size: usize,
        rule: Rule,
        moves: &[Pos],
        end: GameEnd,
        now: u64,
        notes: &[SearchNote],
    ) -> Result<Learned, DbError> {
        let Some(steps) = replay(size, rule, moves) else {
            return self.write_notes(notes).map(|_| Learned::default());
        };
        let hash = game_hash(size, rule, moves);
        self.store().write(|w| {
            write_notes(w, notes)?;
            let last = (w.value("last_game")?, w.value("last_game_at")?);
            if let (Some(h), Some(at)) = last {
                if h == hash && now.abs_diff(at) <= SAME_GAME_SECONDS {
                    return Ok(Learned {
                        repeated: true,
                        ..Learned::default()
                    });
                }
            }
            w.set("last_game", hash)?;
            w.set("last_game_at", now)?;
            w.count("games", 1)?;
            let mut learned = Learned::default();
            // The proof of the position after the step, from its mover's view.
            let mut next: Option<Proven> = None;
            for (i, s) in steps.iter().enumerate().rev() {
                let mut rec = w.get(&s.canon.key)?;
                let mv = s.canon.to_canonical(s.mv);
                if !s.mv.is_none() {
                    let o = rec.outcomes_mut(mv);
                    match end {
                        GameEnd::Won(c) if c == s.mover => o.wins += 1,
                        GameEnd::Won(_) => o.losses += 1,
                        GameEnd::Draw => o.draws += 1,
                    }
                    o.last = now;
                    learned.positions += 1;
                }
                if i + 1 == steps.len() && s.fives {
                    // The last move made a five.
                    next = Some(Proven {
                        win: false,
                        distance: 0,
                        best: Pos::NONE,
                    });
                }
                let derived = match next {
                    Some(n) if !n.win => Some(Proven {
                        win: true,
                        distance: n.distance.saturating_add(1),
                        best: mv,
                    }),
                    Some(n) if s.forced => Some(Proven {
                        win: false,
                        distance: n.distance.saturating_add(1),
                        best: Pos::NONE,
                    }),
                    _ => None,
                };
                if let Some(p) = derived {
                    if rec.proven != Some(p) {
                        learned.proofs += 1;
                    }
                    rec.prove(p);
                }
                next = rec.proven;
                w.put(&s.canon.key, &rec)?;
            }
            Ok(learned)
        })
    }
}

/// One move of a game as learning needs it.
struct Step {
    canon: Canon,
    mv: Pos,
    mover: Color,
    /// The move made a five.
    fives: bool,
    /// Every move but this one loses at once: the mover has no five and the other side has
    /// two five points, or one and this move takes it.
    forced: bool,
}

/// The steps of `moves`, or `None` if they are not a game on this board.
fn replay(size: usize, rule: Rule, moves: &[Pos]) -> Option<Vec<Step>> {
    if !(crate::types::MIN_SIZE..=crate::types::MAX_SIZE).contains(&size) {
        return None;
    }
    let mut board = Board::new(size, rule);
    let mut steps = Vec::with_capacity(moves.len());
    for &mv in moves {
        let mover = board.to_move();
        let canon = Canon::of(&board);
        let theirs = board.count(!mover, Threat::Five);
        let ours = board.count(mover, Threat::Five);
        if mv.is_none() {
            steps.push(Step {
                canon,
                mv,
                mover,
                fives: false,
                forced: ours == 0 && theirs >= 2,
            });
            board.make_pass();
            continue;
        }
        if !mv.on_board(size) || !board.is_empty(mv) {
            return None;
        }
        let fives = board.makes_five(mv, mover);
        let forced = ours == 0 && (theirs >= 2 || (theirs == 1 && board.makes_five(mv, !mover)));
        steps.push(Step {
            canon,
            mv,
            mover,
            fives,
            forced,
        });
        board.make(mv);
        if fives {
            break;
        }
    }
    Some(steps)
}

/// Records of a finished game for tests and tools: the canonical key of the position before
/// each move.
pub fn game_keys(size: usize, rule: Rule, moves: &[Pos]) -> Vec<Vec<u8>> {
    replay(size, rule, moves)
        .unwrap_or_default()
        .into_iter()
        .map(|s| s.canon.key)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn games(wins: u32, losses: u32) -> Outcomes {
        Outcomes {
            mv: Pos::new(7, 7),
            wins,
            draws: 0,
            losses,
            last: 0,
        }
    }

    #[test]
    fn games_give_a_penalty_or_a_bonus_within_the_cap_and_a_proof_no_bonus() {
        let lost = Proven {
            win: true,
            distance: 3,
            best: Pos::NONE,
        };
        assert_eq!(penalty(None, None), 0);
        assert_eq!(penalty(Some(&games(1, 1)), None), 0);
        assert_eq!(penalty(Some(&games(0, 2)), None), 2 * OUTCOME_STEP);
        assert_eq!(penalty(Some(&games(3, 1)), None), -2 * OUTCOME_STEP);
        assert_eq!(penalty(Some(&games(0, 99)), None), OUTCOME_CAP);
        assert_eq!(penalty(Some(&games(99, 0)), None), -OUTCOME_CAP);
        assert_eq!(penalty(None, Some(&lost)), PROVEN_LOSS_PENALTY);
        assert_eq!(
            penalty(Some(&games(9, 0)), Some(&lost)),
            PROVEN_LOSS_PENALTY
        );
        assert_eq!(
            penalty(Some(&games(0, 9)), Some(&lost)),
            PROVEN_LOSS_PENALTY + OUTCOME_CAP
        );
        let won = Proven { win: false, ..lost };
        assert_eq!(penalty(Some(&games(2, 0)), Some(&won)), -2 * OUTCOME_STEP);
    }
}
