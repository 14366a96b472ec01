//! The opening stage at the prompt (`rule renju soosorv 8`): what is asked of the player,
//! their answer read into an action of the engine's opening model, the engine's own steps
//! from its opening decisions, and the hand-over to normal play once the colours are
//! settled. A refused answer gets the model's reason and the stage goes on.

use super::command::clip;
use super::{Io, Prompt};
use crate::engine::opening::{Action, Expect, Opening, Player};
use crate::engine::Level;
use crate::notation::format_h8;
use crate::search::Limits;
use crate::types::{Color, Pos};
use std::io;

impl Prompt {
    /// Is an opening stage under way?
    pub(super) fn in_opening(&self) -> bool {
        self.opening.as_ref().is_some_and(|o| !o.is_over())
    }

    /// A fresh stage of the opening rule for a new game, or none under the free opening.
    /// The player is the first player when they play black.
    pub(super) fn start_opening(&mut self) -> Result<(), String> {
        let b = self.engine.board();
        let stage =
            Opening::new(self.opening_rule, b.size(), b.rule()).map_err(|e| e.to_string())?;
        self.seat = if self.human == Color::Black {
            Player::First
        } else {
            Player::Second
        };
        self.opening = (!stage.is_over()).then_some(stage);
        Ok(())
    }

    /// The player's line read as an answer to the stage, if it is one (else `None`: a
    /// command such as `board` or `help`).
    fn opening_action(&self, line: &str, expect: Expect) -> Option<Result<Action, String>> {
        let words: Vec<&str> = line.split_whitespace().collect();
        let first = words.first()?.to_ascii_lowercase();
        let points = |list: &[&str]| -> Result<Vec<Pos>, String> {
            list.iter().map(|w| self.read_move(w)).collect()
        };
        let mine = self.opening.as_ref()?.colour_of(self.seat);
        let action = match first.as_str() {
            "black" | "b" => Ok(Action::Choose(Color::Black)),
            "white" | "w" => Ok(Action::Choose(Color::White)),
            "swap" => Ok(Action::Choose(!mine)),
            "keep" | "stay" => Ok(Action::Choose(mine)),
            "side" | "color" | "colour" => match words.get(1).map(|w| w.to_ascii_lowercase()) {
                Some(w) if w == "black" => Ok(Action::Choose(Color::Black)),
                Some(w) if w == "white" => Ok(Action::Choose(Color::White)),
                _ => Err("side wants black or white.".into()),
            },
            "add" => match points(&words[1..]) {
                Ok(p) if p.len() == 2 => Ok(Action::AddTwo(p[0], p[1])),
                Ok(_) => Err("add wants two points: a white stone, then a black one.".into()),
                Err(e) => Err(e),
            },
            "offer" => points(&words[1..]).map(Action::Offer),
            "pick" | "take" => match points(&words[1..]) {
                Ok(p) if p.len() == 1 => Ok(Action::Pick(p[0])),
                Ok(_) => Err("pick wants one of the offered points.".into()),
                Err(e) => Err(e),
            },
            _ => {
                // Points, with a number after one point where a declaration is asked.
                let p = self.read_move(words[0]).ok()?;
                let rest = &words[1..];
                Ok(match expect {
                    Expect::StoneAndDeclare { max, .. } => {
                        let Some(n) = rest.first().and_then(|w| w.parse::<u8>().ok()) else {
                            return Some(Err(format!(
                                "Place the stone and declare 1 to {max} fifth moves: e.g. {} 3.",
                                clip(words[0])
                            )));
                        };
                        Action::PlaceAndDeclare(p, n)
                    }
                    Expect::Pick => Action::Pick(p),
                    Expect::Offer { .. } | Expect::FifthOrOffer { .. } => match points(&words) {
                        Ok(list) => Action::Offer(list),
                        Err(e) => return Some(Err(e)),
                    },
                    _ if rest.is_empty() => Action::Place(p),
                    _ => return Some(Err("One point, please.".into())),
                })
            }
        };
        Some(action)
    }

    /// Takes the player's line as an answer to the stage when it is one: applies it, or
    /// says why not. Returns `None` when the line is a command instead.
    pub(super) fn opening_line(&mut self, line: &str, io: &mut Io) -> io::Result<Option<()>> {
        let Some(stage) = self.opening.as_ref().filter(|o| !o.is_over()) else {
            return Ok(None);
        };
        let expect = stage.expect();
        let Some(action) = self.opening_action(line, expect) else {
            return Ok(None);
        };
        let action = match action {
            Ok(a) => a,
            Err(e) => {
                say!(io, "{e}")?;
                return Ok(Some(()));
            }
        };
        let seat = self.seat;
        let stage = self.opening.as_mut().expect("checked above");
        if let Err(e) = stage.apply(seat, action.clone()) {
            say!(
                io,
                "Not allowed: {}.",
                self.opening_error_text(&e.to_string())
            )?;
            return Ok(Some(()));
        }
        let text = action.sentence("You", self.size());
        say!(io, "{text}")?;
        self.opening_goes_on(io)?;
        Ok(Some(()))
    }

    /// Points in a message of the model (`x,y`) shown as the board labels them.
    fn opening_error_text(&self, text: &str) -> String {
        let n = self.size();
        text.split(' ')
            .map(|w| {
                let bare = w.trim_end_matches([':', ',', '.']);
                match crate::notation::parse_xy(bare) {
                    Ok(p) if bare.contains(',') && p.on_board(n) => {
                        w.replacen(bare, &format_h8(p, n), 1)
                    }
                    _ => w.to_string(),
                }
            })
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// How the opening stage went, for a game record: "Opening rule soosorv 8 (you: the
    /// first player, wuzi: the second). first player places h8. ..."
    pub(super) fn opening_story(&self, stage: &Opening) -> String {
        let mut text = format!(
            "Opening rule {} (you: the {}, wuzi: the {}).",
            stage.rule(),
            self.seat,
            !self.seat
        );
        for (who, action) in stage.history() {
            text.push(' ');
            text += &action.sentence(&who.to_string(), self.size());
        }
        text
    }

    /// After a step: the engine's steps while it is to act, then either what the player is
    /// asked, or the end of the stage and the game's next move.
    pub(super) fn opening_goes_on(&mut self, io: &mut Io) -> io::Result<()> {
        // The engine's steps take a move's time, at most the level's depth.
        let limits = Limits {
            depth: match self.level {
                Level::Depth(d) => Some(d),
                Level::Random | Level::Greedy => Some(1),
                Level::Full => None,
            },
            ..self.limits()
        };
        loop {
            let Some(stage) = self.opening.as_ref() else {
                return Ok(());
            };
            let stones = stage.stones().to_vec();
            let _ = self.engine.set_position(&stones);
            if stage.is_over() {
                break;
            }
            if stage.to_act() == Some(self.seat) {
                self.show(io)?;
                let stage = self.opening.as_ref().expect("checked above");
                let offers: Vec<String> = stage
                    .offers()
                    .iter()
                    .map(|&p| format_h8(p, self.size()))
                    .collect();
                if stage.expect() == Expect::Pick {
                    say!(io, "Offered fifth moves: {}.", offers.join(" "))?;
                }
                let colour = stage.colour_of(self.seat);
                say!(io, "You ({colour} for now): {}.", stage.expect())?;
                return Ok(());
            }
            let stage = self.opening.clone().expect("checked above");
            let engine_seat = !self.seat;
            let decision = self.engine.opening_decision(&stage, &limits, &|| false);
            let applied = decision.and_then(|d| {
                let text = d.action.sentence("wuzi", self.size());
                let stage = self.opening.as_mut()?;
                stage.apply(engine_seat, d.action).ok().map(|_| text)
            });
            match applied {
                Some(text) => say!(io, "{text}")?,
                None => {
                    say!(
                        io,
                        "The engine finds no step in the opening stage; it ends here."
                    )?;
                    self.opening = None;
                    return Ok(());
                }
            }
        }
        let stage = self.opening.take().expect("checked above");
        self.human = stage.colour_of(self.seat);
        self.opening_stones = stage.stones().len();
        self.played_opening = Some(stage.clone());
        let _ = self.engine.set_position(stage.stones());
        say!(
            io,
            "The opening stage is over: you play {} ({}).",
            self.human,
            super::text::stone_char(self.human)
        )?;
        self.show(io)?;
        self.engine_turn(io)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::opening::OpeningRule;
    use crate::notation::parse_h8;
    use crate::types::Rule;

    /// What the prompt says to `line` during the stage, on one line.
    fn said(prompt: &mut Prompt, line: &str) -> String {
        let (mut out, mut err) = (Vec::new(), Vec::new());
        let mut io = Io {
            out: &mut out,
            err: &mut err,
            err_tty: false,
            color: false,
        };
        let taken = prompt.opening_line(line, &mut io).unwrap();
        assert!(taken.is_some(), "{line} was not read as a step");
        String::from_utf8(out).unwrap().replace('\n', " ")
    }

    /// Soosorv-8 up to black's offers, both seats played by `apply` (the web board's test
    /// plays the same stage): h8 h9 h10 kept, white's 4th h4 with two fifth moves declared,
    /// kept. Every stone stands on the h file, so g7 and i7 mirror each other across it.
    #[test]
    fn refused_steps_say_why_and_the_stage_stays_where_it_was() {
        let mut prompt = Prompt::new().unwrap();
        let mut stage =
            Opening::new(OpeningRule::Soosorv { max_fifths: 8 }, 15, Rule::Renju).unwrap();
        let at = |s: &str| parse_h8(s, 15).unwrap();
        // `None`: the seat to act keeps its colour.
        let steps = [
            Some(Action::Place(at("h8"))),
            Some(Action::Place(at("h9"))),
            Some(Action::Place(at("h10"))),
            None,
            Some(Action::PlaceAndDeclare(at("h4"), 2)),
            None,
        ];
        for step in steps {
            let who = stage.to_act().unwrap();
            let action = step.unwrap_or(Action::Choose(stage.colour_of(who)));
            stage.apply(who, action).unwrap();
        }
        assert!(matches!(stage.expect(), Expect::Offer { .. }));
        prompt.seat = stage.to_act().unwrap();
        let before = stage.history().len();
        prompt.opening = Some(stage);
        for (line, says) in [
            ("offer g7 i7", "Not allowed: g7 and i7 are symmetric"),
            ("offer g7", "Not allowed: offer 2 fifth moves, not 1"),
            ("offer g7 h8", "Not allowed: h8 is already occupied"),
            ("swap", "Not allowed: not now: offer 2 fifth moves"),
            ("pick g7", "Not allowed: not now: offer 2 fifth moves"),
            ("offer g7 z99", "Not a move: 'z99' is off the 15x15 board"),
        ] {
            let out = said(&mut prompt, line);
            assert!(out.contains(says), "{line}: {out}");
            let stage = prompt.opening.as_ref().unwrap();
            assert_eq!(stage.history().len(), before, "{line} changed the stage");
            assert!(matches!(stage.expect(), Expect::Offer { .. }));
        }
    }
}
