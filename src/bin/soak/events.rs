//! The rarer paths a manager takes around a move: `INFO` lines between moves, `ABOUT`,
//! `RESTART`, an illegal move the engine must refuse with `ERROR`, `TAKEBACK` of the last
//! move and its replay, and `YXSHOWFORBID` checked against the referee under renju.

use crate::fault::Kind;
use crate::game::{Abort, Game, ACK_WAIT};
use crate::player::Answer;
use std::collections::BTreeSet;
use wuzi::{GameStatus, Pos, Rule};

impl Game<'_> {
    /// Events before engine `p` is asked for its move.
    pub fn before_move(&mut self, p: usize) -> Result<(), Abort> {
        if self.dice.chance(0.04) {
            self.extra_info(p)?;
        }
        if self.dice.chance(0.02) {
            self.about(p)?;
        }
        let len = self.referee.len();
        if len > 0 && self.dice.chance(0.03) {
            self.restart(p)?;
        }
        if len > 0 && self.players[p].known == Some(len - 1) && self.dice.chance(0.04) {
            self.illegal_move(p)?;
        }
        Ok(())
    }

    /// Events after engine `p`'s move was played.
    pub fn after_move(&mut self, p: usize) -> Result<(), Abort> {
        let status = self.referee.status();
        if status != GameStatus::Draw && self.dice.chance(0.04) {
            return self.takeback(p);
        }
        if self.plan.rule == Rule::Renju && status == GameStatus::Ongoing && self.dice.chance(0.06)
        {
            self.show_forbid(p)?;
        }
        Ok(())
    }

    /// One or two `INFO` lines between moves, none changing the game's limits: repeated
    /// settings, keys the engine may ignore, an unknown key.
    fn extra_info(&mut self, p: usize) -> Result<(), Abort> {
        for _ in 0..self.dice.range(1, 2) {
            let (key, value) = match self.dice.below(8) {
                0 => ("game_type", "1".to_string()),
                1 => ("caution_factor", "2".to_string()),
                2 => ("pondering", "0".to_string()),
                3 => ("soak_unknown_key", "17".to_string()),
                4 => ("max_memory", self.plan.max_memory.to_string()),
                5 => ("thread_num", self.plan.threads[p].to_string()),
                6 => ("rule", self.plan.rule_mask.to_string()),
                _ => {
                    let n = self.plan.size as u64;
                    let (x, y) = (self.dice.below(n), self.dice.below(n));
                    ("evaluate", format!("{x},{y}"))
                }
            };
            let line = self.plan.info(key, &value);
            self.send(p, &line)?;
        }
        self.count("INFO between moves");
        Ok(())
    }

    /// `ABOUT`: one line `name="...", ...`.
    fn about(&mut self, p: usize) -> Result<(), Abort> {
        let sent = self.send(p, "ABOUT")?;
        match self.players[p].answer(sent + ACK_WAIT + self.settings.slack) {
            Answer::Line(_, t) if t.starts_with("name=\"") => self.count("ABOUT"),
            Answer::Line(_, t) => {
                self.fault(p, Kind::WrongAnswer, format!("answered '{t}' to ABOUT"))?;
            }
            Answer::Eof => return Err(self.crash(p, "waiting for the answer to ABOUT")),
            Answer::Timeout => {
                self.fault(p, Kind::NoAnswer, "no answer to ABOUT".into())?;
            }
        }
        Ok(())
    }

    /// `RESTART` mid-game: the engine forgets the position (it gets a `BOARD` next), and
    /// half the time hears the settings again, as after Piskvork's restart.
    fn restart(&mut self, p: usize) -> Result<(), Abort> {
        self.ack(p, "RESTART")?;
        self.players[p].known = Some(0);
        self.count("RESTART");
        if self.dice.chance(0.5) {
            let info = self.plan.info_lines(p, &mut self.dice);
            self.send_all(p, &info)?;
        }
        Ok(())
    }

    /// A `TURN` on a stone the engine knows, or off the board: the answer must be `ERROR`
    /// (and the engine's game unharmed, which the next, legal `TURN` tests).
    fn illegal_move(&mut self, p: usize) -> Result<(), Abort> {
        let len = self.referee.len();
        let size = self.plan.size as u64;
        let (x, y) = if len >= 2 && self.dice.chance(0.6) {
            // Only the first len - 1 moves are on the engine's board yet.
            let m = self.referee.moves()[self.dice.below(len as u64 - 1) as usize];
            (m.x() as u64, m.y() as u64)
        } else {
            let off = size + self.dice.range(0, 2);
            let inside = self.dice.below(size);
            if self.dice.chance(0.5) {
                (off, inside)
            } else {
                (inside, off)
            }
        };
        let cmd = format!("TURN {x},{y}");
        for l in self.players[p].unsolicited() {
            self.fault(p, Kind::Unsolicited, format!("printed '{l}' between moves"))?;
        }
        let sent = self.send(p, &cmd)?;
        match self.players[p].answer(sent + ACK_WAIT + self.settings.slack) {
            Answer::Line(_, t) if t.to_ascii_uppercase().starts_with("ERROR") => {
                self.count("illegal TURN refused");
                Ok(())
            }
            Answer::Line(_, t) => {
                self.fault(
                    p,
                    Kind::AcceptedIllegal,
                    format!("answered '{t}' to the illegal '{cmd}'"),
                )?;
                Err(Abort)
            }
            Answer::Eof => Err(self.crash(p, &format!("waiting for ERROR after '{cmd}'"))),
            Answer::Timeout => {
                self.fault(
                    p,
                    Kind::AcceptedIllegal,
                    format!(
                        "no ERROR to the illegal '{cmd}' within {} ms",
                        ACK_WAIT.as_millis()
                    ),
                )?;
                Err(Abort)
            }
        }
    }

    /// `TAKEBACK` of engine `p`'s move just played and of the opponent's move before it; the
    /// referee takes back the engine's move, and the next turn asks engine `p` again with
    /// `TURN` of the opponent's move (`BEGIN` if the board became empty).
    fn takeback(&mut self, p: usize) -> Result<(), Abort> {
        let moves = self.referee.moves().to_vec();
        let len = moves.len();
        let Some(&last) = moves.last() else {
            return Ok(());
        };
        self.ack(p, &format!("TAKEBACK {last}"))?;
        self.referee.undo();
        self.players[p].known = Some(len - 1);
        if len >= 2 {
            self.ack(p, &format!("TAKEBACK {}", moves[len - 2]))?;
            self.players[p].known = Some(len - 2);
        }
        self.clamp_known();
        self.count("TAKEBACK and replay");
        self.transcript.note(&format!(
            "referee: took back {last}; the move is asked again"
        ));
        Ok(())
    }

    /// `YXSHOWFORBID` to engine `p`, which knows the whole position: its list must be black's
    /// forbidden points by the referee.
    fn show_forbid(&mut self, p: usize) -> Result<(), Abort> {
        let sent = self.send(p, "YXSHOWFORBID")?;
        let text = match self.players[p].answer(sent + ACK_WAIT + self.settings.slack) {
            Answer::Line(_, t) => t,
            Answer::Eof => return Err(self.crash(p, "waiting for the answer to YXSHOWFORBID")),
            Answer::Timeout => {
                self.fault(p, Kind::NoAnswer, "no answer to YXSHOWFORBID".into())?;
                return Err(Abort);
            }
        };
        self.count("YXSHOWFORBID");
        let want: BTreeSet<Pos> = self.referee.forbidden_points().into_iter().collect();
        match parse_forbid(&text) {
            None => self.fault(
                p,
                Kind::WrongAnswer,
                format!("malformed '{text}' to YXSHOWFORBID"),
            ),
            Some(got) if got != want => {
                let list = |s: &BTreeSet<Pos>| {
                    s.iter()
                        .map(|p| p.to_string())
                        .collect::<Vec<_>>()
                        .join(" ")
                };
                self.fault(
                    p,
                    Kind::WrongAnswer,
                    format!(
                        "YXSHOWFORBID gave [{}], the referee finds [{}]",
                        list(&got),
                        list(&want)
                    ),
                )
            }
            Some(_) => Ok(()),
        }
    }
}

/// The points of a `FORBID xxyyxxyy....` line (two digits per coordinate, then `.`).
fn parse_forbid(text: &str) -> Option<BTreeSet<Pos>> {
    let digits = text.strip_prefix("FORBID ")?.strip_suffix('.')?;
    if digits.len() % 4 != 0 || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let num = |i: usize| digits[i..i + 2].parse::<usize>().ok().filter(|&v| v < 22);
    (0..digits.len())
        .step_by(4)
        .map(|i| Some(Pos::new(num(i)?, num(i + 2)?)))
        .collect()
}
