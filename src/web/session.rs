//! One page's game: the engine (lent to a search while one runs), the person's colour, the
//! engine's strength and the moves undone (for redo). Every change goes through the engine
//! facade; a refused change leaves the game as it was.

use super::error::ApiError;
use super::json::{OpeningStep, State, Strength};
use super::opening;
use super::position::{format_moves, parse_moves, parse_rule};
use super::strength::{check, Checked};
use crate::engine::opening::{Action, Opening, OpeningRule, Player};
use crate::engine::{clock_seed, Config, Engine, GameStatus, MoveError};
use crate::notation::{format_h8, parse_any};
use crate::record::{Format, GameRecord, GameResult};
use crate::types::{Color, Pos, Rule};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Instant;

/// What the server gives every game's engine.
#[derive(Clone)]
pub struct Setup {
    /// The evaluation.
    pub eval: crate::eval::Evaluation,
    /// The position database (`None`: none).
    pub db: Option<crate::db::Db>,
    /// The openings the games' engines placed, one record for all the server's games, so
    /// that a new game's engine keeps clear of the openings of the games before it.
    pub placed: crate::engine::opening::placed::Shared,
}

/// Who the person plays.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Human {
    /// One colour; the engine the other.
    Plays(Color),
    /// Both (analysis, or two people): the engine moves only when asked.
    Both,
}

impl Human {
    /// Reads `black`, `white` or `both`.
    pub fn parse(s: &str) -> Result<Human, String> {
        match s.to_ascii_lowercase().as_str() {
            "black" => Ok(Human::Plays(Color::Black)),
            "white" => Ok(Human::Plays(Color::White)),
            "both" => Ok(Human::Both),
            _ => Err(format!("human wants black, white or both, not '{s}'")),
        }
    }

    fn name(self) -> String {
        match self {
            Human::Plays(c) => c.to_string(),
            Human::Both => "both".into(),
        }
    }
}

/// A game's memory for searches: the prompt's 64 MB table, so that the engine plays in the
/// page as it plays at the prompt (pages are mapped on first touch, so an idle game costs
/// little).
const HASH_MB: usize = 64;

/// A search running on a game: its own flags, and the engine's stop flag. Whoever raises
/// `cancel` or `halt` raises it before `stop`, so that a search that lowers `stop` and then
/// reads them cannot miss both.
#[derive(Clone)]
pub struct Running {
    /// Nobody waits for the search any more: it ends, and its move is not played.
    pub cancel: Arc<AtomicBool>,
    /// The page asked it to stop: a move search plays its best move so far, an analysis
    /// ends.
    pub halt: Arc<AtomicBool>,
    /// The engine's stop flag (stops the current `think`).
    pub stop: Arc<AtomicBool>,
}

/// One game.
pub struct Session {
    id: String,
    /// `None` while a search has the engine.
    engine: Option<Engine>,
    /// Size, rule and moves, kept beside the engine so that the state can be shown while a
    /// search has it, and the game rebuilt should a search never give it back.
    size: usize,
    rule: Rule,
    moves: Vec<Pos>,
    human: Human,
    strength: Strength,
    /// Its engine's evaluation and database (the server's).
    setup: Setup,
    /// What the database said of the game: what it learned when the game ended, or why
    /// it could not (empty: nothing).
    memory: Vec<String>,
    checked: Checked,
    redo: Vec<Pos>,
    running: Option<Running>,
    state: State,
    /// When a request last used the game (idle games are let go first).
    pub touched: Instant,
    /// When the engine last started a search, if it keeps the table that search made
    /// (the server keeps few tables: [`Session::free_table`]).
    table: Option<Instant>,
    /// The game's opening stage, under way or played (`None`: a free opening, or a
    /// position set or loaded since).
    opening: Option<Opening>,
    /// The person's seat in the stage: the first player when they play black.
    seat: Player,
}

impl Session {
    /// A new game; `moves` (a move string) sets its position.
    pub fn new(
        id: String,
        size: usize,
        rule: Rule,
        human: Human,
        strength: Strength,
        setup: &Setup,
        moves: Option<&str>,
    ) -> Result<Session, ApiError> {
        let checked = check(&strength).map_err(ApiError::bad_request)?;
        let config = Config {
            eval: setup.eval.clone(),
            ..Config::default()
        };
        let mut engine = Engine::with_config(size, rule, config)
            .map_err(|e| ApiError::bad_request(e.to_string()))?;
        engine.set_hash_mb(HASH_MB);
        engine.set_seed(clock_seed());
        engine.set_random_margin(checked.vary);
        engine.set_db(setup.db.clone());
        engine.share_placed_openings(setup.placed.clone());
        let mut session = Session {
            id,
            engine: None,
            size,
            rule,
            moves: Vec::new(),
            human,
            strength,
            setup: setup.clone(),
            memory: Vec::new(),
            checked,
            redo: Vec::new(),
            running: None,
            state: placeholder_state(),
            touched: Instant::now(),
            table: None,
            opening: None,
            seat: Player::First,
        };
        if let Some(text) = moves {
            let list = parse_moves(text, size).map_err(ApiError::bad_request)?;
            engine
                .set_position(&list)
                .map_err(|e| move_error(e, size))?;
        }
        session.give_back(engine);
        Ok(session)
    }

    /// The game's id.
    pub fn id(&self) -> &str {
        &self.id
    }

    /// The state as the page draws it.
    pub fn state(&self) -> State {
        let mut s = self.state.clone();
        s.thinking = self.running.is_some();
        s
    }

    /// The game's size, rule and moves (a pass is `Pos::NONE`), as kept beside the engine:
    /// readable while a search has it.
    pub fn game(&self) -> (usize, Rule, Vec<Pos>) {
        (self.size, self.rule, self.moves.clone())
    }

    /// The running search, if any.
    pub fn running(&self) -> Option<&Running> {
        self.running.as_ref()
    }

    /// The engine's strength, checked.
    pub fn checked(&self) -> &Checked {
        &self.checked
    }

    /// Begins the game's opening stage under `rule` (from the empty board). The person is
    /// the first player when they play black.
    pub fn start_opening(&mut self, rule: OpeningRule) -> Result<(), ApiError> {
        if !self.moves.is_empty() {
            return Err(ApiError::bad_request(
                "an opening rule begins from the empty board: leave out the moves",
            ));
        }
        let stage = Opening::new(rule, self.size, self.rule)
            .map_err(|e| ApiError::bad_request(e.to_string()))?;
        self.seat = match self.human {
            Human::Plays(Color::White) => Player::Second,
            _ => Player::First,
        };
        self.opening = (!stage.is_over()).then_some(stage);
        self.refresh();
        Ok(())
    }

    /// The opening stage, while it is under way.
    pub fn opening_under_way(&self) -> Option<&Opening> {
        self.opening.as_ref().filter(|o| !o.is_over())
    }

    /// The person's seat in the opening stage; `None` when they play both sides.
    fn seat(&self) -> Option<Player> {
        (self.human != Human::Both).then_some(self.seat)
    }

    /// 409 while the opening stage is under way, saying what it waits for.
    fn not_in_opening(&self) -> Result<(), ApiError> {
        match self.opening_under_way() {
            Some(stage) => Err(ApiError::conflict(format!(
                "the opening stage is under way: the {} is to {}",
                stage.to_act().unwrap_or(Player::First),
                stage.expect()
            ))),
            None => Ok(()),
        }
    }

    /// The person's step in the opening stage: 409 when there is none under way, when it
    /// is wuzi's step or the step does not fit the stage; 422 when the rules refuse it; the
    /// game is unchanged then.
    pub fn opening_step(&mut self, req: &OpeningStep) -> Result<(), ApiError> {
        self.engine()?;
        let seat = self.seat();
        let stage = self
            .opening_under_way()
            .ok_or_else(|| ApiError::conflict("no opening stage is under way"))?;
        let actor = stage.to_act().unwrap_or(Player::First);
        if seat.is_some_and(|s| s != actor) {
            return Err(ApiError::conflict(format!(
                "it is wuzi's turn to {}",
                stage.expect()
            )));
        }
        let action = opening::action(req, stage, actor)?;
        self.opening_apply(actor, action)
    }

    /// The engine's step in the opening stage, for whoever is to act (its decision from a
    /// search). Returns the step in words.
    pub fn engine_opening_step(&mut self, action: Action) -> Result<String, ApiError> {
        let stage = self
            .opening_under_way()
            .ok_or_else(|| ApiError::conflict("no opening stage is under way"))?;
        let actor = stage.to_act().unwrap_or(Player::First);
        let who = match self.seat() {
            Some(_) => "wuzi".to_string(),
            None => actor.to_string(),
        };
        let text = action.sentence(&who, self.size);
        self.opening_apply(actor, action)?;
        Ok(text)
    }

    /// Applies `action` of `actor` to the stage and puts its stones on the board; once the
    /// colours are settled the person plays the colour their seat ended with.
    fn opening_apply(&mut self, actor: Player, action: Action) -> Result<(), ApiError> {
        let size = self.size;
        let stage = self
            .opening
            .as_mut()
            .ok_or_else(|| ApiError::conflict("no opening stage is under way"))?;
        stage
            .apply(actor, action)
            .map_err(|e| opening::refused(&e, size))?;
        let stones = stage.stones().to_vec();
        let over = stage.is_over();
        let held = stage.colour_of(self.seat);
        self.engine()?
            .set_position(&stones)
            .map_err(|e| move_error(e, size))?;
        if over && self.human != Human::Both {
            self.human = Human::Plays(held);
        }
        self.redo.clear();
        self.refresh();
        Ok(())
    }

    /// The engine, or 409 while a search has it.
    fn engine(&mut self) -> Result<&mut Engine, ApiError> {
        self.engine
            .as_mut()
            .ok_or_else(|| ApiError::conflict("the engine is thinking on this game: stop it first"))
    }

    /// Lends the engine to a search (409 if one runs already). The caller gives it back
    /// with [`Session::give_back`].
    pub fn lend(&mut self) -> Result<(Engine, Running), ApiError> {
        let engine = self
            .engine
            .take()
            .ok_or_else(|| ApiError::conflict("the engine is already thinking on this game"))?;
        let running = Running {
            cancel: Arc::new(AtomicBool::new(false)),
            halt: Arc::new(AtomicBool::new(false)),
            stop: engine.stop_flag(),
        };
        self.running = Some(running.clone());
        self.table = Some(Instant::now());
        Ok((engine, running))
    }

    /// When the engine last started a search, if it may still keep that search's table.
    pub fn table_used(&self) -> Option<Instant> {
        self.table
    }

    /// Frees the engine's table (not while a search has it); returns whether it did.
    pub fn free_table(&mut self) -> bool {
        match (&mut self.engine, self.table) {
            (Some(engine), Some(_)) => {
                engine.free_table();
                self.table = None;
                true
            }
            _ => false,
        }
    }

    /// Takes the engine back from a search (or a constructor) and refreshes the state; the
    /// game counts as used now.
    pub fn give_back(&mut self, mut engine: Engine) {
        self.running = None;
        self.touched = Instant::now();
        self.moves = engine.board().moves().to_vec();
        self.state = self.describe(&mut engine);
        self.engine = Some(engine);
    }

    /// A search ended without giving the engine back (it failed): the game is rebuilt from
    /// the moves kept beside it.
    pub fn rebuild(&mut self) {
        let moves = self.moves.clone();
        match Session::new(
            self.id.clone(),
            self.size,
            self.rule,
            self.human,
            self.strength.clone(),
            &self.setup,
            None,
        ) {
            Ok(mut fresh) => {
                if let Some(e) = fresh.engine.as_mut() {
                    let _ = e.set_position(&moves);
                }
                if let Some(e) = fresh.engine.take() {
                    self.give_back(e);
                }
            }
            Err(_) => self.running = None,
        }
    }

    /// Plays a move (`h8` or `x,y`) for the side to move.
    pub fn play(&mut self, text: &str) -> Result<(), ApiError> {
        self.not_in_opening()?;
        let size = self.size;
        let p = parse_any(text, size).map_err(ApiError::bad_request)?;
        if p.is_none() {
            return Err(ApiError::bad_request("passing is not allowed here"));
        }
        self.play_pos(p)?;
        self.redo.clear();
        self.refresh();
        Ok(())
    }

    /// Plays `p` (an engine's move, or a redo), keeping the redo list. A move that ends
    /// the game teaches the database (if the server has one).
    pub fn play_pos(&mut self, p: Pos) -> Result<(), ApiError> {
        self.not_in_opening()?;
        let size = self.size;
        let engine = self.engine()?;
        let status = engine.play(p).map_err(|e| move_error(e, size))?;
        if status != GameStatus::Ongoing {
            let learned = engine.learn_game();
            let mut memory: Vec<String> = learned
                .map(|l| {
                    format!(
                        "Remembered: {} positions, {} proven.",
                        l.positions, l.proofs
                    )
                })
                .into_iter()
                .collect();
            memory.extend(engine.take_db_notes());
            self.memory = memory;
        }
        self.refresh();
        Ok(())
    }

    /// Takes back up to `count` moves (at least one must be there).
    pub fn undo(&mut self, count: usize) -> Result<(), ApiError> {
        self.engine()?;
        self.not_in_opening()?;
        // The opening stage's stones stay: its steps cannot be taken back one by one.
        let keep = self.opening.as_ref().map_or(0, |o| o.stones().len());
        let engine = self.engine()?;
        let played = engine.board().moves().len();
        if played == 0 {
            return Err(ApiError::conflict("nothing to undo"));
        }
        if played <= keep {
            return Err(ApiError::conflict(
                "the opening stage's stones stay: start a new game for another opening",
            ));
        }
        let mut undone = Vec::new();
        for _ in 0..count.max(1).min(played - keep) {
            match engine.undo() {
                Some(p) => undone.push(p),
                None => break,
            }
        }
        self.redo.extend(undone);
        self.refresh();
        Ok(())
    }

    /// Replays up to `count` undone moves.
    pub fn redo(&mut self, count: usize) -> Result<(), ApiError> {
        if self.redo.is_empty() {
            return Err(ApiError::conflict("nothing to redo"));
        }
        self.engine()?;
        for _ in 0..count.max(1) {
            let Some(p) = self.redo.pop() else { break };
            if let Err(e) = self.play_pos(p) {
                self.redo.clear();
                return Err(e);
            }
        }
        Ok(())
    }

    /// Replaces the moves by those of a move string.
    pub fn set_position(&mut self, text: &str) -> Result<(), ApiError> {
        let size = self.size;
        let moves = parse_moves(text, size).map_err(ApiError::bad_request)?;
        self.engine()?
            .set_position(&moves)
            .map_err(|e| move_error(e, size))?;
        self.opening = None;
        self.redo.clear();
        self.refresh();
        Ok(())
    }

    /// Changes the person's colour and the engine's strength.
    pub fn settings(
        &mut self,
        human: Option<Human>,
        strength: Option<Strength>,
    ) -> Result<(), ApiError> {
        let checked = match &strength {
            Some(s) => Some(check(s).map_err(ApiError::bad_request)?),
            None => None,
        };
        if human.is_some_and(|h| h != self.human) && self.opening_under_way().is_some() {
            return Err(ApiError::conflict(
                "the seats of an opening stage stay until it is over",
            ));
        }
        let engine = self.engine()?;
        if let Some(c) = &checked {
            engine.set_random_margin(c.vary);
        }
        if let (Some(s), Some(c)) = (strength, checked) {
            self.strength = s;
            self.checked = c;
        }
        if let Some(h) = human {
            self.human = h;
        }
        self.refresh();
        Ok(())
    }

    /// The game as a record in `format`.
    pub fn record(&self, format: Format) -> Result<String, ApiError> {
        let mut rec = GameRecord::new(self.rule, self.size);
        rec.moves = self.moves.clone();
        rec.result = match self.state.winner.as_deref() {
            Some("black") => GameResult::BlackWins,
            Some("white") => GameResult::WhiteWins,
            _ if self.state.status == "draw" => GameResult::Draw,
            _ => GameResult::Unfinished,
        };
        let (you, wuzi) = ("you".to_string(), "wuzi".to_string());
        (rec.black, rec.white) = match self.human {
            Human::Plays(Color::Black) => (you, wuzi),
            Human::Plays(Color::White) => (wuzi, you),
            Human::Both => (you.clone(), you),
        };
        // The opening stage's stones are the record's opening; its steps, the comment.
        if let Some(stage) = &self.opening {
            rec.opening = stage.stones().len();
            rec.comment = opening::story(stage, self.seat());
        }
        rec.write(format).map_err(ApiError::unprocessable)
    }

    /// Loads a record in any format wuzi reads (the size and rule are the record's; a
    /// `.psq` takes `rule`, or the game's rule; of an SGF collection, the first game). On
    /// error the game is unchanged.
    pub fn load_record(&mut self, text: &str, rule: Option<&str>) -> Result<(), ApiError> {
        let psq_rule = match rule {
            Some(r) => parse_rule(r).map_err(ApiError::bad_request)?,
            None => self.rule,
        };
        let (rec, _) = GameRecord::read_any(text, psq_rule)
            .map_err(|e| ApiError::unprocessable(format!("cannot read the record: {e}")))?;
        self.engine()?;
        let mut fresh = Session::new(
            self.id.clone(),
            rec.size,
            rec.rule,
            self.human,
            self.strength.clone(),
            &self.setup,
            None,
        )?;
        let engine = fresh.engine()?;
        engine
            .set_position(&rec.moves)
            .map_err(|e| move_error(e, rec.size))?;
        self.size = rec.size;
        self.rule = rec.rule;
        self.opening = None;
        self.redo.clear();
        if let Some(e) = fresh.engine.take() {
            self.give_back(e);
        }
        Ok(())
    }

    fn refresh(&mut self) {
        if let Some(e) = self.engine.take() {
            self.give_back(e);
        }
    }

    fn describe(&self, engine: &mut Engine) -> State {
        let size = self.size;
        let h8 = |ps: &[Pos]| ps.iter().map(|&p| format_h8(p, size)).collect::<Vec<_>>();
        let status = engine.status();
        let (name, winner) = match status {
            GameStatus::Ongoing => ("ongoing", None),
            GameStatus::Five { winner } => ("five", Some(winner)),
            GameStatus::Forbidden { winner } => ("forbidden", Some(winner)),
            GameStatus::Draw => ("draw", None),
        };
        let five = match status {
            GameStatus::Five { winner } => engine.board().winning_line(winner),
            _ => Vec::new(),
        };
        let to_move = engine.board().to_move();
        let forbidden = if status == GameStatus::Ongoing && to_move == Color::Black {
            engine.forbidden_points()
        } else {
            Vec::new()
        };
        let moves = engine.board().moves();
        State {
            id: self.id.clone(),
            size,
            rule: engine.board().rule().name().into(),
            moves: h8(moves),
            position: format_moves(moves, size),
            to_move: to_move.to_string(),
            status: name.into(),
            winner: winner.map(|c| c.to_string()),
            five: h8(&five),
            result: result_text(status, self.human),
            memory: if status == GameStatus::Ongoing {
                Vec::new()
            } else {
                self.memory.clone()
            },
            forbidden: h8(&forbidden),
            redo: self.redo.len(),
            thinking: false,
            human: self.human.name(),
            strength: self.strength.clone(),
            opening: self
                .opening
                .as_ref()
                .map(|o| opening::describe(o, self.seat())),
        }
    }
}

fn result_text(status: GameStatus, human: Human) -> String {
    match status {
        GameStatus::Ongoing => String::new(),
        GameStatus::Five { winner } if human == Human::Plays(winner) => {
            "Five in a row: you win!".into()
        }
        GameStatus::Five { winner } if human == Human::Both => {
            format!("Five in a row: {winner} wins.")
        }
        GameStatus::Five { winner } => format!("Five in a row: {winner} (wuzi) wins."),
        GameStatus::Forbidden { winner } => {
            format!("Black played a forbidden point: {winner} wins.")
        }
        GameStatus::Draw => "The board is full: a draw.".into(),
    }
}

/// A move the engine refused, as the answer says it: off-board and forbidden points are
/// 422 (the rules refuse them), an occupied point too, a finished game 409. Points are
/// named in `h8` notation on a `size` board.
pub fn move_error(e: MoveError, size: usize) -> ApiError {
    let h8 = |p: Pos| format_h8(p, size);
    match e {
        MoveError::GameOver => ApiError::conflict("the game is over: undo, or start a new one"),
        MoveError::OffBoard(p) => {
            ApiError::unprocessable(format!("{p} is off the {size}x{size} board"))
        }
        MoveError::Occupied(p) => ApiError::unprocessable(format!("{} is already taken", h8(p))),
        MoveError::Forbidden(p) => ApiError::unprocessable(format!(
            "{} is forbidden for black under renju (double three, double four or overline)",
            h8(p)
        )),
    }
}

fn placeholder_state() -> State {
    State {
        id: String::new(),
        size: 0,
        rule: String::new(),
        moves: Vec::new(),
        position: String::new(),
        to_move: String::new(),
        status: String::new(),
        winner: None,
        five: Vec::new(),
        result: String::new(),
        forbidden: Vec::new(),
        redo: 0,
        memory: Vec::new(),
        thinking: false,
        human: String::new(),
        strength: super::strength::default_strength(),
        opening: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::Limits;

    #[test]
    fn the_games_of_one_server_share_the_record_of_openings_placed() {
        let setup = Setup {
            eval: crate::eval::Evaluation::Default,
            db: None,
            placed: Default::default(),
        };
        let new = |id: &str| {
            let strength = super::super::strength::default_strength();
            let human = Human::Plays(Color::White);
            Session::new(
                id.into(),
                15,
                Rule::Freestyle,
                human,
                strength,
                &setup,
                None,
            )
            .unwrap()
        };
        let (mut first, mut second) = (new("a"), new("b"));
        let stage = Opening::new(OpeningRule::Swap, 15, Rule::Freestyle).unwrap();
        let limits = Limits {
            depth: Some(2),
            nodes: Some(1_000),
            ..Limits::default()
        };
        let engine = first.engine.as_mut().unwrap();
        let d = engine.opening_decision(&stage, &limits, &|| false).unwrap();
        let Action::Place(p) = d.action else {
            panic!("a stone, not {d:?}")
        };
        // The other game's engine and the server's record hold the stone placed.
        let holds = |s: &Session| {
            s.engine
                .as_ref()
                .unwrap()
                .placed_openings()
                .contains(15, &[p])
        };
        assert!(holds(&second));
        assert_eq!(crate::engine::opening::placed::lock(&setup.placed).len(), 1);
        // So do a game rebuilt after a failed search and a game made after them.
        second.rebuild();
        assert!(holds(&second));
        assert!(holds(&new("c")));
        // Forgetting in one game forgets for all.
        second.engine.as_mut().unwrap().forget_openings();
        assert!(!holds(&first));
    }
}
