//! The web API's JSON: what the page sends (requests, checked by serde: unknown fields are
//! refused) and what it gets back (a game's state, search progress, N-best lists). Points
//! travel in `h8` notation, as the prompt shows them; `pass` is a pass.

use super::error::ApiError;
use super::limits::{BodyLimit, BODY_LIMIT};
use axum::body::Bytes;
use axum::extract::{FromRequest, Request};
use axum::http::{header, StatusCode};
use axum::Json;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

/// A JSON body whose refusal is an [`ApiError`] (JSON too), not axum's plain text. Its
/// limit is the server's [`BodyLimit`] (413 above it).
pub struct Body<T>(pub T);

impl<T: DeserializeOwned, S: Send + Sync> FromRequest<S> for Body<T> {
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, Self::Rejection> {
        let json = req
            .headers()
            .get(header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.split(';').next())
            .is_some_and(|t| {
                let t = t.trim().to_ascii_lowercase();
                t == "application/json" || t.ends_with("+json")
            });
        if !json {
            return Err(ApiError::not_json());
        }
        let limit = req
            .extensions()
            .get::<BodyLimit>()
            .map_or(BODY_LIMIT, |l| l.0);
        let bytes = Bytes::from_request(req, state).await.map_err(|r| {
            if r.status() == StatusCode::PAYLOAD_TOO_LARGE {
                ApiError::too_large(limit)
            } else {
                ApiError::bad_request(r.body_text())
            }
        })?;
        if bytes.len() > limit {
            return Err(ApiError::too_large(limit));
        }
        let Json(value) = Json::<T>::from_bytes(&bytes)?;
        Ok(Body(value))
    }
}

/// How the engine plays: the prompt's levels and time per move.
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Strength {
    /// `random`, `greedy`, `depth` or `full` (the prompt's `level`).
    pub level: String,
    /// The depth of `depth` (1 to 60).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub depth: Option<i32>,
    /// Seconds per engine move (the prompt's `time`), more than 0 and at most 3600.
    pub time: f64,
    /// Random pick among moves within this many evaluation units of the best (the prompt's
    /// `vary`); 0 for always the best.
    pub vary: i32,
    /// A node budget per search as well (for tests and reproducible answers).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub nodes: Option<u64>,
}

/// `POST /api/games`: a new game. Every field may be left out.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewGame {
    /// Board size (default 15).
    pub size: Option<usize>,
    /// `freestyle` (default), `standard`, `renju`, `caro` or `caro-standard`.
    pub rule: Option<String>,
    /// The person's colour: `black` (default), `white`, or `both` (the engine moves only
    /// when asked).
    pub human: Option<String>,
    /// The engine's strength (default: full, 1 s a move, vary 30, as at the prompt).
    pub strength: Option<Strength>,
    /// A position to start from, as a move string (`h8i9j10` or `7,7 8,8`).
    pub moves: Option<String>,
    /// The opening rule (`free`, the default, `swap`, `swap2`, `swap-after-first`,
    /// `soosorv 8`, `taraguchi 10`, `yamaguchi`): the game begins with its opening stage,
    /// from an empty board. The person is the first player when they play black.
    pub opening: Option<String>,
}

/// `POST /api/games/{id}/opening`: the person's step in the opening stage.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OpeningStep {
    /// `place` (a stone; with `count`, a stone and that many fifth moves declared),
    /// `black` or `white` (the colour to play on with), `swap` or `stay` (the other colour,
    /// or the one held), `add` (swap2: a white and a black stone), `offer` (fifth moves) or
    /// `pick` (one of the offered fifth moves).
    pub action: String,
    /// The points of the step (`h8` or `x,y`).
    #[serde(default)]
    pub points: Vec<String>,
    /// The number of fifth moves declared with a stone.
    pub count: Option<u8>,
}

/// A game's opening stage as the page shows it (under way or played).
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct OpeningState {
    /// The rule (`soosorv 8`).
    pub rule: String,
    /// Is the stage over (the colours settled)?
    pub over: bool,
    /// Who acts next: `first player` or `second player` (none once over).
    pub actor: Option<String>,
    /// Is the next step the person's? (Always, when they play both sides.)
    pub yours: bool,
    /// The person's seat, `first player` or `second player` (none when they play both).
    pub you: Option<String>,
    /// Who holds black for now: `you`, `wuzi`, or a seat when the person plays both.
    pub black: String,
    /// What the stage waits for, as a sentence: "place the 4th stone (white) anywhere and
    /// declare 1 to 8 fifth moves".
    pub expect: String,
    /// The kind of step: `stone`, `stone-and-declare`, `colour`, `swap2-choice`,
    /// `fifth-or-offer`, `offer`, `pick`, or `nothing` once over.
    pub asks: String,
    /// The side of the central square the stone must stand in, if any.
    pub square: Option<u8>,
    /// The most fifth moves a declaration may name.
    pub max: Option<u8>,
    /// How many fifth moves an offer holds.
    pub count: Option<u8>,
    /// The number of fifth moves declared, once it is.
    pub declared: Option<u8>,
    /// The fifth moves offered, once they are.
    pub offers: Vec<String>,
    /// The steps so far, in words: "wuzi places h8.", "you choose white."
    pub steps: Vec<String>,
}

/// `POST /api/games/{id}/play`: a move for the side to move.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlayMove {
    /// `h8` or `x,y`.
    #[serde(rename = "move")]
    pub point: String,
}

/// `POST /api/games/{id}/position`: replaces the moves (same size and rule).
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SetPosition {
    /// A move string: `h8i9j10`, `h8 i9 j10` or `7,7 8,6 9,5`; empty for an empty board.
    pub moves: String,
}

/// `POST /api/games/{id}/settings`: the person's colour and the engine's strength.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Settings {
    /// `black`, `white` or `both`.
    pub human: Option<String>,
    /// The engine's strength.
    pub strength: Option<Strength>,
}

/// `POST /api/games/{id}/record`: loads a game record (wuzi's text or Piskvork `.psq`).
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LoadRecord {
    /// The file's text.
    pub text: String,
    /// The rule of a `.psq` (which does not hold one); default: the game's rule.
    pub rule: Option<String>,
}

/// A game as the page draws it.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct State {
    /// The game's id.
    pub id: String,
    /// Board size.
    pub size: usize,
    /// Rule name.
    pub rule: String,
    /// The moves from the start, black first.
    pub moves: Vec<String>,
    /// The moves as one string (`h8i9j10`), for copying and links.
    pub position: String,
    /// `black` or `white`.
    pub to_move: String,
    /// `ongoing`, `five`, `forbidden` or `draw`.
    pub status: String,
    /// The winner, if there is one.
    pub winner: Option<String>,
    /// The winning line's points (a five, or longer in freestyle).
    pub five: Vec<String>,
    /// A sentence for the result banner (empty while the game goes on).
    pub result: String,
    /// What the server's position database said when the game ended: what it learned,
    /// or why it could not (empty while the game goes on, or without a database).
    #[serde(default)]
    pub memory: Vec<String>,
    /// Black's forbidden points (renju, black to move).
    pub forbidden: Vec<String>,
    /// How many undone moves `redo` can replay.
    pub redo: usize,
    /// Is a search running on this game?
    pub thinking: bool,
    /// The person's colour: `black`, `white` or `both`.
    pub human: String,
    /// The engine's strength.
    pub strength: Strength,
    /// The game's opening stage, under way or played (none under the free opening).
    #[serde(default)]
    pub opening: Option<OpeningState>,
}

/// A search's progress: sent after every finished iteration and, between them, at least
/// every `TICK` of the server (200 ms) with the latest figures.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Progress {
    /// The last finished iteration's depth (0 before the first).
    pub depth: i32,
    /// Its deepest ply.
    pub seldepth: usize,
    /// Its score, from the side to move's view.
    pub score: i32,
    /// The score for a person: `+35`, `win in 3`, `loss in 2`.
    pub score_text: String,
    /// Black's chance to win that the score suggests, 0 to 1.
    pub black_win: f64,
    /// Nodes searched so far (between iterations, as the search counts them).
    pub nodes: u64,
    /// Nodes per second.
    pub nps: u64,
    /// Milliseconds since the search (the whole analysis) began.
    pub elapsed_ms: u64,
    /// The principal variation.
    pub pv: Vec<String>,
    /// A proven win: its side and the moves to the five (the PV), if the score says so.
    pub forced: Option<Forced>,
}

/// A forced win the search (with its threat solver) proved.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Forced {
    /// Who wins.
    pub winner: String,
    /// Moves (plies) to the five.
    pub plies: i32,
}

/// One move of an N-best list.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Scored {
    /// The move.
    #[serde(rename = "move")]
    pub point: String,
    /// Its score from the side to move's view.
    pub score: i32,
    /// The score for a person.
    pub score_text: String,
    /// Black's chance to win after it.
    pub black_win: f64,
}

/// The best moves of one analysis round.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct NBest {
    /// Rounds so far (each one longer than the last).
    pub round: u32,
    /// Milliseconds since the analysis began.
    pub elapsed_ms: u64,
    /// Best first.
    pub moves: Vec<Scored>,
}

/// The end of a search.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Done {
    /// The move chosen (none for an analysis, or when no move is left).
    pub best: Option<String>,
    /// Its score from the side to move's view.
    pub score: i32,
    /// The score for a person.
    pub score_text: String,
    /// The deepest finished iteration.
    pub depth: i32,
    /// Milliseconds the search took.
    pub elapsed_ms: u64,
    /// Was the move played on the board?
    pub played: bool,
    /// Was the search stopped before its limits?
    pub stopped: bool,
    /// The engine's step in an opening stage, in words ("wuzi offers h9 j9."), when the
    /// search was one.
    #[serde(default)]
    pub step: Option<String>,
    /// The game after it.
    pub state: State,
}

/// One move of a review, as the review finishes it.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Reviewed {
    /// The move's number in the game, from 1.
    pub number: usize,
    /// Who played it: `black` or `white`.
    pub mover: String,
    /// The point played.
    pub point: String,
    /// What was found: `missed-win`, `blunder`, `already-lost`, or none.
    pub kind: Option<String>,
    /// The review's line for it, when the report shows one (every mistake, and the first
    /// move of a lost stretch).
    pub text: Option<String>,
    /// The forced win behind the finding: the mover's (a missed win) or the opponent's.
    pub line: Vec<String>,
    /// The moves proven to stop the opponent's win (a blunder).
    pub stops: Vec<String>,
}

/// The end of a review.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct ReviewDone {
    /// The game's first blunder or missed win, or that there was none.
    pub summary: String,
    /// Moves reviewed (fewer than `moves` if stopped).
    pub reviewed: usize,
    /// Moves of the game (passes left out).
    pub moves: usize,
    /// The number of the first blunder or missed win, if any.
    pub first_mistake: Option<usize>,
    /// Was the review stopped before its end?
    pub stopped: bool,
    /// Milliseconds the review took.
    pub elapsed_ms: u64,
}
