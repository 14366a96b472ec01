//! One game's script, as a tournament manager plays it: start both engines, give them the
//! opening, then ask the side to move for its move (`BEGIN`, `TURN` or `BOARD`, whichever
//! fits what that engine knows), check every answer with the referee, and end both engines.
//! The rarer paths live beside this file: [`crate::request`] (one move request: clock,
//! STOP/END while thinking, timing and memory), [`crate::events`] (TAKEBACK, RESTART,
//! illegal moves, INFO, ABOUT, YXSHOWFORBID), [`crate::swap2`] and [`crate::yixin`].

use crate::clock::ClockState;
use crate::dice::Dice;
use crate::engine::Process;
use crate::fault::{Fault, Kind};
use crate::memory::Watch;
use crate::plan::{Opening, Plan};
use crate::player::{Answer, Player};
use crate::referee::Referee;
use crate::report::{Ending, GameReport};
use crate::transcript::Transcript;
use crate::Settings;
use std::time::{Duration, Instant};
use wuzi::{Color, GameStatus, Rule};

/// How long `START` may take (the engine builds its tables then).
const START_WAIT: Duration = Duration::from_secs(10);
/// How long an acknowledgement (`OK`, `ERROR`, a query's answer) may take.
pub const ACK_WAIT: Duration = Duration::from_secs(1);
/// How long an engine may take to exit after `END` (the protocol's "about a second").
pub const EXIT_WITHIN: Duration = Duration::from_secs(1);

/// A fatal fault was recorded: the game stops and both engines are ended.
pub struct Abort;

/// A game in progress.
pub struct Game<'s> {
    /// What was drawn for this game.
    pub plan: Plan,
    /// The run's settings.
    pub settings: &'s Settings,
    /// Draws for events during play (the plan's own stream is separate).
    pub dice: Dice,
    /// The authoritative game.
    pub referee: Referee,
    /// Engines A and B.
    pub players: Vec<Player>,
    /// Index of the player with black.
    pub black: usize,
    /// Time left under a game clock, and each answer's limit.
    pub clock: ClockState,
    /// Every line both ways.
    pub transcript: Transcript,
    /// What the game found, filled as it goes.
    pub rec: GameReport,
    /// Has the END-while-thinking of the plan been done?
    pub ended_mid_search: bool,
}

/// Plays the game of `plan` and reports it. `Err` only when the harness itself cannot go
/// on (the engine cannot be started at all).
pub fn play(plan: Plan, settings: &Settings) -> Result<GameReport, String> {
    let transcript = Transcript::new();
    let referee = Referee::new(plan.size, plan.rule)?;
    let stderr_dir = settings.out.join("stderr");
    let mut players = Vec::new();
    for label in ['A', 'B'] {
        let path = stderr_dir.join(format!("game-{:03}-{label}.txt", plan.game));
        let proc = Process::spawn(
            &settings.engine,
            &settings.engine_args,
            &settings.out,
            label,
            &path,
            plan.crlf,
            transcript.clone(),
        )?;
        let mem = Watch::new(
            plan.max_memory,
            settings.least_memory,
            settings.mem_allowance,
        );
        players.push(Player::new(label, proc, mem));
    }
    let mut game = Game {
        dice: Dice::for_game(settings.seed, plan.game, 1),
        black: if plan.a_black { 0 } else { 1 },
        clock: ClockState::new(plan.clock),
        rec: GameReport::new(&plan),
        referee,
        players,
        transcript,
        settings,
        plan,
        ended_mid_search: false,
    };
    game.transcript
        .note(&format!("game {}: {}", game.plan.game, game.plan));
    let started = Instant::now();
    if game.script().is_err() && game.rec.ending == Ending::Unfinished {
        game.rec.ending = Ending::Aborted;
    }
    game.finish();
    game.rec.duration = started.elapsed();
    Ok(game.into_report(&stderr_dir))
}

impl Game<'_> {
    /// The report of the finished game: the last numbers, the engines' stderr files that
    /// are not empty (empty ones are removed), and for a failing game its transcript.
    fn into_report(mut self, stderr_dir: &std::path::Path) -> GameReport {
        self.rec.plies = self.referee.len();
        self.rec.least_time_left = self.clock.least_ms();
        self.rec.memory = self.players.iter().map(|p| p.mem.clone()).collect();
        self.rec.db_messages = self
            .players
            .iter()
            .flat_map(|p| {
                p.db_messages
                    .iter()
                    .map(move |m| format!("{}: {m}", p.label))
            })
            .collect();
        for label in ['A', 'B'] {
            let path = stderr_dir.join(format!("game-{:03}-{label}.txt", self.plan.game));
            match std::fs::metadata(&path) {
                Ok(m) if m.len() == 0 => {
                    let _ = std::fs::remove_file(&path);
                }
                Ok(_) => self.rec.stderr.push(path),
                Err(_) => {}
            }
        }
        if !self.rec.faults.is_empty() {
            self.rec.transcript = Some(self.transcript.render());
            self.rec.scripts = ['A', 'B'].map(|w| self.transcript.sent_to(w));
        }
        self.rec
    }

    /// The game from `START` to its end.
    fn script(&mut self) -> Result<(), Abort> {
        for p in 0..2 {
            self.start(p)?;
        }
        match self.plan.opening {
            Opening::Begin => {}
            Opening::Turn => self.place_opening(1),
            Opening::Board(n) => self.place_opening(n),
            Opening::Swap2 => self.swap2()?,
            Opening::YxSwap2 => self.yixin_swap2()?,
            Opening::YxSoosorv => self.yixin_soosorv()?,
        }
        // A game may end inside a request (END while an engine thinks).
        while self.rec.ending == Ending::Unfinished {
            match self.game_over() {
                Some(end) => self.rec.ending = end,
                None => self.turn()?,
            }
        }
        Ok(())
    }

    /// `START` (with the settings before or after it) to engine `p`.
    fn start(&mut self, p: usize) -> Result<(), Abort> {
        let info = self.plan.info_lines(p, &mut self.dice);
        if self.plan.info_before_start {
            self.send_all(p, &info)?;
        }
        let sent = self.send(p, &format!("START {}", self.plan.size))?;
        self.expect(p, sent, START_WAIT, "START", |t| t == "OK")?;
        let ms = sent.elapsed().as_millis() as u64;
        self.rec.slowest_start_ms = self.rec.slowest_start_ms.max(ms);
        self.players[p].sample_memory();
        self.players[p].mem.start_rss_kb = Some(self.players[p].mem.peak_rss_kb);
        if !self.plan.info_before_start {
            self.send_all(p, &info)?;
        }
        Ok(())
    }

    /// The manager places `n` random opening stones (fewer if the board is crowded).
    fn place_opening(&mut self, n: usize) {
        let placed = self.referee.random_stones(&mut self.dice, n);
        let stones: Vec<String> = self.referee.moves().iter().map(|m| m.to_string()).collect();
        self.transcript.note(&format!(
            "referee: opening of {placed} stones: {}",
            stones.join(" ")
        ));
    }

    /// Why the game is over, if it is.
    fn game_over(&self) -> Option<Ending> {
        match self.referee.status() {
            GameStatus::Five { winner } => Some(Ending::Five(winner)),
            GameStatus::Draw => Some(Ending::FullBoard),
            GameStatus::Forbidden { .. } => Some(Ending::Aborted),
            GameStatus::Ongoing if self.referee.len() >= self.plan.move_cap => {
                Some(Ending::MoveCap)
            }
            GameStatus::Ongoing => None,
        }
    }

    /// The index of the player to move.
    pub fn to_move(&self) -> usize {
        match self.referee.to_move() {
            Color::Black => self.black,
            Color::White => 1 - self.black,
        }
    }

    /// One move of the side to move, with the rare events around it.
    fn turn(&mut self) -> Result<(), Abort> {
        let p = self.to_move();
        self.before_move(p)?;
        let lines = self.position_lines(p);
        let Some(text) = self.request(p, &lines)? else {
            return Ok(());
        };
        let pos = self.parse_move(p, &text)?;
        self.play_move(p, pos, &text)?;
        self.players[p].known = Some(self.referee.len());
        self.after_move(p)
    }

    /// What engine `p` needs to be told to move now: `BEGIN` on an empty board it knows,
    /// `TURN x,y` when it knows all but the last move (now and then a whole `BOARD`
    /// anyway, as a manager does after an undo), else the whole position as a `BOARD`.
    fn position_lines(&mut self, p: usize) -> Vec<String> {
        let len = self.referee.len();
        let known = self.players[p].known;
        if len == 0 && known == Some(0) {
            self.count("BEGIN");
            return vec!["BEGIN".into()];
        }
        if len > 0 && known == Some(len - 1) && !self.dice.chance(0.05) {
            self.count("TURN");
            return vec![format!("TURN {}", self.referee.moves()[len - 1])];
        }
        self.count("BOARD");
        self.board_block(p)
    }

    /// The referee's position as a `BOARD` block for engine `p` (field 1 its stones, 2 the
    /// opponent's): in move order under renju (the protocol asks for it), shuffled otherwise.
    pub fn board_block(&mut self, p: usize) -> Vec<String> {
        let own = if p == self.black {
            Color::Black
        } else {
            Color::White
        };
        let mut stones: Vec<String> = self
            .referee
            .moves()
            .iter()
            .enumerate()
            .map(|(i, m)| {
                let colour = if i % 2 == 0 {
                    Color::Black
                } else {
                    Color::White
                };
                format!("{m},{}", if colour == own { 1 } else { 2 })
            })
            .collect();
        if self.plan.rule != Rule::Renju {
            self.dice.shuffle(&mut stones);
        }
        let mut lines = vec!["BOARD".to_string()];
        lines.extend(stones);
        lines.push("DONE".into());
        lines
    }

    /// Reads a move answer strictly as `x,y` on the board.
    pub fn parse_move(&mut self, p: usize, text: &str) -> Result<wuzi::Pos, Abort> {
        let Some((x, y)) = crate::referee::parse_point(text) else {
            self.fault(p, Kind::Malformed, format!("expected x,y but got '{text}'"))?;
            return Err(Abort);
        };
        match crate::referee::on_board(x, y, self.plan.size) {
            Ok(pos) => Ok(pos),
            Err(e) => {
                self.fault(p, Kind::Illegal, format!("answered '{text}': {e}"))?;
                Err(Abort)
            }
        }
    }

    /// Plays engine `p`'s move on the referee's board, or records why it is illegal.
    pub fn play_move(&mut self, p: usize, pos: wuzi::Pos, text: &str) -> Result<(), Abort> {
        if let Err(e) = self.referee.play(pos) {
            let whose = match self.referee.stone(pos) {
                Some(c) => format!(" (a {c} stone is there)"),
                None => String::new(),
            };
            self.fault(p, Kind::Illegal, format!("answered '{text}': {e}{whose}"))?;
            return Err(Abort);
        }
        Ok(())
    }

    /// Ends both engines that are still running: unsolicited output and memory are checked
    /// first, then `END`, then the process must be gone within a second.
    fn finish(&mut self) {
        for p in 0..2 {
            if self.players[p].done {
                continue;
            }
            for line in self.players[p].unsolicited() {
                let _ = self.fault(p, Kind::Unsolicited, format!("printed '{line}' at the end"));
            }
            self.check_memory(p);
            if self.players[p].proc.exited() && self.rec.ending != Ending::Aborted {
                let how = self.players[p].proc.exit_text();
                let _ = self.fault(p, Kind::Crash, format!("gone before END: {how}"));
            }
            self.end(p);
        }
    }

    /// Sends `END` to engine `p` and holds it to exiting within [`EXIT_WITHIN`] plus slack
    /// (it is killed after that).
    pub fn end(&mut self, p: usize) {
        self.players[p].done = true;
        if self.players[p].proc.exited() {
            return;
        }
        let _ = self.players[p].proc.send("END");
        let within = EXIT_WITHIN + self.settings.slack;
        match self.players[p]
            .proc
            .wait_exit(within + Duration::from_secs(2))
        {
            Some(t) if t <= within => {
                let ms = t.as_millis() as u64;
                self.rec.slowest_exit_ms = Some(self.rec.slowest_exit_ms.map_or(ms, |m| m.max(ms)));
            }
            Some(t) => {
                let _ = self.fault(
                    p,
                    Kind::NoExit,
                    format!("exited {} ms after END", t.as_millis()),
                );
            }
            None => {
                let _ = self.fault(
                    p,
                    Kind::NoExit,
                    format!(
                        "still running {} ms after END; killed",
                        (within + Duration::from_secs(2)).as_millis()
                    ),
                );
            }
        }
        self.players[p].proc.kill();
    }

    /// Checks engine `p`'s memory peak against the limit (a fault the first time it is over).
    pub fn check_memory(&mut self, p: usize) {
        self.players[p].sample_memory();
        if let Some(detail) = self.players[p].mem.breach() {
            let kind = if self.players[p].asked {
                Kind::Memory
            } else {
                Kind::MemoryStartup
            };
            let _ = self.fault(p, kind, detail);
        }
    }

    /// Sends one line to engine `p`; a dead pipe is a crash.
    pub fn send(&mut self, p: usize, line: &str) -> Result<Instant, Abort> {
        match self.players[p].proc.send(line) {
            Ok(at) => Ok(at),
            Err(e) => Err(self.crash(p, &e)),
        }
    }

    /// Sends several lines; returns when the last one went.
    pub fn send_all(&mut self, p: usize, lines: &[String]) -> Result<Instant, Abort> {
        let mut at = Instant::now();
        for l in lines {
            at = self.send(p, l)?;
        }
        Ok(at)
    }

    /// Sends `line` to engine `p` and wants an answer that `ok` accepts within
    /// [`ACK_WAIT`] plus slack (`OK` to `TAKEBACK` and `RESTART`).
    pub fn ack(&mut self, p: usize, line: &str) -> Result<(), Abort> {
        for l in self.players[p].unsolicited() {
            self.fault(
                p,
                Kind::Unsolicited,
                format!("printed '{l}' before '{line}'"),
            )?;
        }
        let sent = self.send(p, line)?;
        self.expect(p, sent, ACK_WAIT + self.settings.slack, line, |t| t == "OK")
    }

    /// Waits for engine `p`'s answer to `what` (sent at `sent`) for `wait` at most; the
    /// answer must satisfy `ok`. `ERROR`, `UNKNOWN` and anything else are faults.
    pub fn expect(
        &mut self,
        p: usize,
        sent: Instant,
        wait: Duration,
        what: &str,
        ok: impl Fn(&str) -> bool,
    ) -> Result<(), Abort> {
        match self.players[p].answer(sent + wait) {
            Answer::Line(_, t) if ok(&t) => Ok(()),
            Answer::Line(_, t) => {
                let upper = t.to_ascii_uppercase();
                let kind = if upper.starts_with("ERROR") || upper.starts_with("UNKNOWN") {
                    Kind::ErrorAnswer
                } else {
                    Kind::Malformed
                };
                self.fault(p, kind, format!("answered '{t}' to '{what}'"))?;
                Err(Abort)
            }
            Answer::Eof => Err(self.crash(p, &format!("no answer to '{what}'"))),
            Answer::Timeout => {
                self.fault(
                    p,
                    Kind::NoAnswer,
                    format!("no answer to '{what}' within {} ms", wait.as_millis()),
                )?;
                Err(Abort)
            }
        }
    }

    /// Records that engine `p` is gone (`doing` says what the manager was doing).
    pub fn crash(&mut self, p: usize, doing: &str) -> Abort {
        let proc = &mut self.players[p].proc;
        proc.wait_exit(Duration::from_millis(300));
        let how = proc.exit_text();
        self.players[p].done = true;
        let _ = self.fault(p, Kind::Crash, format!("{doing}: the engine {how}"));
        Abort
    }

    /// Records a fault of engine `p`; `Err` if it is fatal.
    pub fn fault(&mut self, p: usize, kind: Kind, detail: String) -> Result<(), Abort> {
        let f = Fault {
            kind,
            engine: self.players[p].label,
            ply: self.referee.len(),
            detail,
        };
        self.transcript.note(&format!("FAULT {f}"));
        self.rec.faults.push(f);
        if kind.fatal() {
            Err(Abort)
        } else {
            Ok(())
        }
    }

    /// Counts one use of a protocol path (for the summary's coverage lines).
    pub fn count(&mut self, what: &'static str) {
        *self.rec.events.entry(what).or_insert(0) += 1;
    }

    /// Settles the colours after an opening stage (`how` names it): engine `black` plays
    /// black, and both engines get the position next as a `BOARD` (what an engine keeps
    /// after an opening protocol is not specified).
    pub fn settle_black(&mut self, black: usize, how: &str) {
        self.black = black;
        for pl in &mut self.players {
            pl.known = None;
        }
        self.transcript.note(&format!(
            "referee: after {how} {} plays black",
            self.players[black].label
        ));
    }

    /// Forgets what engines know beyond the referee's game (after a takeback).
    pub fn clamp_known(&mut self) {
        let len = self.referee.len();
        for pl in &mut self.players {
            if pl.known.is_some_and(|k| k > len) {
                pl.known = None;
            }
        }
    }
}
