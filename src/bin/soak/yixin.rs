//! The openings through Yixin-Board's step commands: swap2 by `YXSWAP2STEP1` to `3`, and
//! renju's Soosorv-8 by `YXSOOSORVSTEP1` to `6`. Each step is timed like a move; its
//! answer is the `MESSAGE SWAP2 ...` or `MESSAGE SOOSORV ...` lines Yixin-Board reads
//! (docs/protocol.md, "Opening rules"). Every action they name is held to the rule by the
//! library's opening stage (canonical openings, central squares, declared counts, offers
//! not symmetric to each other) and every stone to the referee's board; a refusal is a
//! fault. Afterwards both engines get the position as a `BOARD`.

use crate::fault::Kind;
use crate::game::{Abort, Game};
use crate::player::Answer;
use crate::request::HUNG_AFTER;
use std::time::Duration;
use wuzi::engine::opening::{Action, Opening, OpeningRule, Player};
use wuzi::{Color, Pos};

/// The head of swap2's step answers.
const SWAP2: &str = "MESSAGE SWAP2 ";
/// The head of Soosorv's step answers.
const SOOSORV: &str = "MESSAGE SOOSORV ";
/// The fifth moves of the Soosorv rule the brain plays by (`YXSOOSORVSTEP` is Soosorv-8).
const SOOSORV_FIFTHS: u8 = 8;

/// Has a step's answer a line beginning with `word`?
fn has(got: &[String], word: &str) -> bool {
    got.iter().any(|l| l.starts_with(word))
}

/// The words of the first line of `got` that begins with `word`, after it.
fn words_of<'a>(got: &'a [String], word: &str) -> Vec<&'a str> {
    got.iter()
        .find_map(|l| l.strip_prefix(word))
        .map(|rest| rest.split_whitespace().collect())
        .unwrap_or_default()
}

impl Game<'_> {
    /// Swap2 through `YXSWAP2STEP1` to `3` (not under renju); sets who is black.
    pub fn yixin_swap2(&mut self) -> Result<(), Abort> {
        let mut stage = self.stage(OpeningRule::Swap2)?;
        let first = self.dice.below(2) as usize;
        let engine_of = |pl: Player| engine_of(first, pl);
        self.first_three(&mut stage, first, "YXSWAP2STEP1", SWAP2)?;
        let second = 1 - first;
        let mut lines = self.yx_board(Color::White);
        lines.push("YXSWAP2STEP2".into());
        let got = self.step(second, &lines, SWAP2, |g| {
            has(g, "SWAP1 ") || (has(g, "MOVE4 ") && has(g, "MOVE5 "))
        })?;
        if has(&got, "SWAP1 ") {
            let colour = self.colour_answer(second, &got, "SWAP1 ", ["YES", "NO"], Color::Black)?;
            self.opening_act(&mut stage, Player::Second, Action::Choose(colour), second)?;
        } else {
            let w = self.step_point(second, &got, "MOVE4 ")?;
            let b = self.step_point(second, &got, "MOVE5 ")?;
            self.opening_act(&mut stage, Player::Second, Action::AddTwo(w, b), second)?;
            let mut lines = self.yx_board(Color::Black);
            lines.push("YXSWAP2STEP3".into());
            let got = self.step(first, &lines, SWAP2, |g| has(g, "SWAP2 "))?;
            let colour = self.colour_answer(first, &got, "SWAP2 ", ["YES", "NO"], Color::Black)?;
            self.opening_act(&mut stage, Player::First, Action::Choose(colour), first)?;
        }
        self.after_opening(&stage, engine_of, "swap2 by YXSWAP2STEP")
    }

    /// Soosorv-8 through `YXSOOSORVSTEP1` to `6` (renju on 15x15); sets who is black.
    pub fn yixin_soosorv(&mut self) -> Result<(), Abort> {
        let mut stage = self.stage(OpeningRule::Soosorv {
            max_fifths: SOOSORV_FIFTHS,
        })?;
        let first = self.dice.below(2) as usize;
        let engine_of = |pl: Player| engine_of(first, pl);
        // 1: the first player places a canonical opening.
        self.first_three(&mut stage, first, "YXSOOSORVSTEP1", SOOSORV)?;
        // 2: the white player may swap.
        let second = 1 - first;
        let got = self.soosorv_step(second, "YXSOOSORVSTEP2", &[], |g| has(g, "SWAP1 "))?;
        let colour = self.colour_answer(second, &got, "SWAP1 ", ["Y", "N"], Color::Black)?;
        self.opening_act(&mut stage, Player::Second, Action::Choose(colour), second)?;
        // 3: the white player places the 4th stone and declares the fifth moves.
        let white = engine_of(stage.player_of(Color::White));
        let got = self.soosorv_step(white, "YXSOOSORVSTEP3", &[], |g| has(g, "MOVE4 "))?;
        let words = words_of(&got, "MOVE4 ");
        let p = self.step_point(white, &got, "MOVE4 ")?;
        let Some(n) = words.get(2).and_then(|w| w.parse::<u8>().ok()) else {
            let text = format!("MOVE4 {}", words.join(" "));
            self.fault(
                white,
                Kind::Malformed,
                format!("expected 'MOVE4 x y n' from YXSOOSORVSTEP3 but got '{text}'"),
            )?;
            return Err(Abort);
        };
        let who = stage.player_of(Color::White);
        self.opening_act(&mut stage, who, Action::PlaceAndDeclare(p, n), white)?;
        // 4: the black player may swap.
        let step = format!("YXSOOSORVSTEP4 {n}");
        let black = engine_of(stage.player_of(Color::Black));
        let got = self.soosorv_step(black, &step, &[], |g| has(g, "SWAP2 "))?;
        let colour = self.colour_answer(black, &got, "SWAP2 ", ["Y", "N"], Color::White)?;
        let who = stage.player_of(Color::Black);
        self.opening_act(&mut stage, who, Action::Choose(colour), black)?;
        // 5: the black player offers the fifth moves.
        let step = format!("YXSOOSORVSTEP5 {n}");
        let black = engine_of(stage.player_of(Color::Black));
        let got = self.soosorv_step(black, &step, &[], |g| has(g, "MOVE5 DONE"))?;
        let mut offers = Vec::new();
        for line in got.iter().filter(|l| *l != "MOVE5 DONE") {
            let one = [line.clone()];
            offers.push(self.step_point(black, &one, "MOVE5 ")?);
        }
        let who = stage.player_of(Color::Black);
        self.opening_act(&mut stage, who, Action::Offer(offers.clone()), black)?;
        // 6: the white player picks one.
        let white = engine_of(stage.player_of(Color::White));
        let got = self.soosorv_step(white, "YXSOOSORVSTEP6", &offers, |g| has(g, "MOVE5 C "))?;
        let p = self.step_point(white, &got, "MOVE5 C ")?;
        let who = stage.player_of(Color::White);
        self.opening_act(&mut stage, who, Action::Pick(p), white)?;
        self.after_opening(&stage, engine_of, "Soosorv-8 by YXSOOSORVSTEP")
    }

    /// The first step of either rule: engine `first` answers `command` with the three
    /// stones `MOVE1` to `MOVE3` under `head`, placed on the stage and the board.
    fn first_three(
        &mut self,
        stage: &mut Opening,
        first: usize,
        command: &str,
        head: &str,
    ) -> Result<(), Abort> {
        let got = self.step(first, &[command.to_string()], head, |g| {
            (1..=3).all(|i| has(g, &format!("MOVE{i} ")))
        })?;
        for i in 1..=3 {
            let p = self.step_point(first, &got, &format!("MOVE{i} "))?;
            self.opening_act(stage, Player::First, Action::Place(p), first)?;
        }
        Ok(())
    }

    /// The opening stage of `rule` for this game's board.
    fn stage(&mut self, rule: OpeningRule) -> Result<Opening, Abort> {
        match Opening::new(rule, self.plan.size, self.plan.rule) {
            Ok(s) => Ok(s),
            Err(e) => {
                self.transcript
                    .note(&format!("referee: no {} here: {e}", rule.name()));
                Err(Abort)
            }
        }
    }

    /// A Soosorv step `head` (`YXSOOSORVSTEP4 3`, say) with the referee's stones and then
    /// `extra` as its block, answered when `complete`.
    fn soosorv_step(
        &mut self,
        p: usize,
        head: &str,
        extra: &[Pos],
        complete: impl Fn(&[String]) -> bool,
    ) -> Result<Vec<String>, Abort> {
        let mut lines = vec![head.to_string()];
        lines.extend(self.referee.moves().iter().map(|m| m.to_string()));
        lines.extend(extra.iter().map(|m| m.to_string()));
        lines.push("DONE".into());
        self.step(p, &lines, SOOSORV, complete)
    }

    /// The referee's stones in the order placed as a `YXBOARD` block for an engine that
    /// holds `own` for now (field 1 its stones, 2 the others'), without its `DONE`'s
    /// answer: a `YXBOARD` asks for nothing.
    fn yx_board(&self, own: Color) -> Vec<String> {
        let mut lines = vec!["YXBOARD".to_string()];
        for (i, m) in self.referee.moves().iter().enumerate() {
            let colour = if i % 2 == 0 {
                Color::Black
            } else {
                Color::White
            };
            lines.push(format!("{m},{}", if colour == own { 1 } else { 2 }));
        }
        lines.push("DONE".into());
        lines
    }

    /// Sends a step's `lines` to engine `p` and reads its answer lines under `head` until
    /// `complete`, timed like a move; each line comes back without the head.
    fn step(
        &mut self,
        p: usize,
        lines: &[String],
        head: &str,
        complete: impl Fn(&[String]) -> bool,
    ) -> Result<Vec<String>, Abort> {
        let first = self.before_request(p)?;
        let limit_ms = self.clock.limit_ms(p);
        let what = lines
            .iter()
            .find(|l| l.contains("STEP"))
            .cloned()
            .unwrap_or_default();
        let sent = self.send_all(p, lines)?;
        let grace = self.settings.tolerance + self.settings.slack;
        let waited = Duration::from_millis(limit_ms) + grace + HUNG_AFTER;
        let (at, got) = match self.players[p].messages(head, sent + waited, complete) {
            Ok(answer) => answer,
            Err(Answer::Line(_, text)) => {
                let kind = if text.to_ascii_uppercase().starts_with("ERROR") {
                    Kind::ErrorAnswer
                } else {
                    Kind::Malformed
                };
                self.fault(p, kind, format!("answered '{text}' to '{what}'"))?;
                return Err(Abort);
            }
            Err(Answer::Eof) => {
                return Err(self.crash(p, &format!("waiting for the answer to '{what}'")))
            }
            Err(Answer::Timeout) => {
                self.fault(
                    p,
                    Kind::NoAnswer,
                    format!(
                        "no complete answer to '{what}' within {} ms (limit {limit_ms} ms)",
                        waited.as_millis()
                    ),
                )?;
                return Err(Abort);
            }
        };
        self.answered(
            p,
            &what,
            at.saturating_duration_since(sent),
            limit_ms,
            first,
            None,
        )?;
        self.count(step_name(&what));
        Ok(got)
    }

    /// The point `x y` after `word` in a step's answer, on the board.
    fn step_point(&mut self, p: usize, got: &[String], word: &str) -> Result<Pos, Abort> {
        let words = words_of(got, word);
        let xy: Vec<usize> = words
            .iter()
            .take(2)
            .filter_map(|w| w.parse().ok())
            .collect();
        if let [x, y] = xy[..] {
            match crate::referee::on_board(x, y, self.plan.size) {
                Ok(pos) => return Ok(pos),
                Err(e) => {
                    self.fault(p, Kind::Illegal, format!("{word}{x} {y}: {e}"))?;
                    return Err(Abort);
                }
            }
        }
        let text = format!("{word}{}", words.join(" "));
        self.fault(
            p,
            Kind::Malformed,
            format!("expected '{word}x y' but got '{}'", text.trim()),
        )?;
        Err(Abort)
    }

    /// The colour engine `p` chose by answering `yes` or `no` after `word`: `if_yes` for
    /// `yes`, the other colour for `no`.
    fn colour_answer(
        &mut self,
        p: usize,
        got: &[String],
        word: &str,
        [yes, no]: [&str; 2],
        if_yes: Color,
    ) -> Result<Color, Abort> {
        let words = words_of(got, word);
        match words[..] {
            [w] if w == yes => Ok(if_yes),
            [w] if w == no => Ok(!if_yes),
            _ => {
                self.fault(
                    p,
                    Kind::Malformed,
                    format!(
                        "expected '{word}{yes}' or '{no}' but got '{word}{}'",
                        words.join(" ")
                    ),
                )?;
                Err(Abort)
            }
        }
    }

    /// Takes engine `p`'s `action` as `player` on the stage, and plays the stones it adds
    /// on the referee's board; a refusal by either is a fault.
    fn opening_act(
        &mut self,
        stage: &mut Opening,
        player: Player,
        action: Action,
        p: usize,
    ) -> Result<(), Abort> {
        let before = stage.stones().len();
        let text = action.sentence("the engine", self.plan.size);
        if let Err(e) = stage.apply(player, action) {
            self.fault(p, Kind::Illegal, format!("{text} The rule refuses it: {e}"))?;
            return Err(Abort);
        }
        let added: Vec<Pos> = stage.stones()[before..].to_vec();
        for pos in added {
            self.play_move(p, pos, &text)?;
        }
        Ok(())
    }

    /// Settles the colours once the stage is over ([`Game::settle_black`]).
    fn after_opening(
        &mut self,
        stage: &Opening,
        engine_of: impl Fn(Player) -> usize,
        how: &str,
    ) -> Result<(), Abort> {
        if !stage.is_over() {
            self.transcript
                .note(&format!("referee: {how}: the stage is not over"));
            return Err(Abort);
        }
        self.settle_black(engine_of(stage.player_of(Color::Black)), how);
        Ok(())
    }
}

/// The engine of the opening's `player`, engine `first` being the first player.
fn engine_of(first: usize, player: Player) -> usize {
    match player {
        Player::First => first,
        Player::Second => 1 - first,
    }
}

/// The event name of a step command, for the summary's counts.
fn step_name(what: &str) -> &'static str {
    const NAMES: [&str; 9] = [
        "YXSWAP2STEP1",
        "YXSWAP2STEP2",
        "YXSWAP2STEP3",
        "YXSOOSORVSTEP1",
        "YXSOOSORVSTEP2",
        "YXSOOSORVSTEP3",
        "YXSOOSORVSTEP4",
        "YXSOOSORVSTEP5",
        "YXSOOSORVSTEP6",
    ];
    NAMES
        .iter()
        .find(|n| what.starts_with(**n))
        .copied()
        .unwrap_or("opening step")
}
