//! The HTTP routes: the page's three files, and the game API under `/api/games` (see
//! `docs/web.md`). Handlers read the request, call the game's session and answer its state
//! as JSON, or an [`ApiError`].

use super::assets;
use super::error::ApiError;
use super::games::{lock, Games};
use super::json::{Body, LoadRecord, NewGame, OpeningStep, PlayMove, SetPosition, Settings, State};
use super::limits::BodyLimit;
use super::position::parse_rule;
use super::review;
use super::search::{self, Job};
use super::session::{Human, Session};
use super::strength::default_strength;
use crate::engine::opening::OpeningRule;
use crate::record::Format as RecordFormat;
use crate::review::{DEFAULT_SOLVE_MS, MAX_SOLVE_MS};
use axum::extract::{DefaultBodyLimit, FromRequestParts, Path, Query, State as With};
use axum::http::request::Parts;
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Extension, Json, Router};
use serde::de::DeserializeOwned;
use serde::Deserialize;
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::Duration;

/// How long `stop` waits for the search to give the engine back.
const STOP_WAIT: Duration = Duration::from_secs(5);

type GamesState = With<Arc<Games>>;
type Answer = Result<Json<State>, ApiError>;

/// The server's routes over `games`, taking bodies of up to `body` bytes.
pub fn router(games: Arc<Games>, body: BodyLimit) -> Router {
    Router::new()
        .route(
            "/",
            get(|| async { page("text/html; charset=utf-8", assets::INDEX_HTML) }),
        )
        .route(
            "/style.css",
            get(|| async { page("text/css; charset=utf-8", assets::STYLE_CSS) }),
        )
        .route(
            "/app.js",
            get(|| async { page("text/javascript; charset=utf-8", assets::APP_JS) }),
        )
        .route("/api/games", post(create))
        .route("/api/games/{id}", get(show).delete(remove))
        .route("/api/games/{id}/play", post(play))
        .route("/api/games/{id}/opening", post(opening))
        .route("/api/games/{id}/undo", post(undo))
        .route("/api/games/{id}/redo", post(redo))
        .route("/api/games/{id}/position", post(position))
        .route("/api/games/{id}/settings", post(settings))
        .route("/api/games/{id}/record", get(save).post(load))
        .route("/api/games/{id}/think", post(think))
        .route("/api/games/{id}/analyse", post(analyse))
        .route("/api/games/{id}/review", post(review))
        .route("/api/games/{id}/stop", post(stop))
        .fallback(|| async { ApiError::not_found("no such page or API route") })
        .method_not_allowed_fallback(|| async {
            ApiError::method_not_allowed("this route does not take that method")
        })
        .layer(DefaultBodyLimit::max(body.read_limit()))
        .layer(Extension(body))
        .with_state(games)
}

fn page(content_type: &'static str, text: &'static str) -> Response {
    (
        [
            (header::CONTENT_TYPE, content_type),
            (header::CACHE_CONTROL, "no-cache"),
        ],
        text,
    )
        .into_response()
}

/// Query parameters whose refusal is an [`ApiError`] (JSON), not axum's plain text.
struct Params<T>(T);

impl<T: DeserializeOwned, S: Send + Sync> FromRequestParts<S> for Params<T> {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        let Query(value) = Query::<T>::from_request_parts(parts, state).await?;
        Ok(Params(value))
    }
}

async fn create(With(games): GamesState, Body(req): Body<NewGame>) -> Result<Response, ApiError> {
    let size = req.size.unwrap_or(15);
    let rule =
        parse_rule(req.rule.as_deref().unwrap_or("freestyle")).map_err(ApiError::bad_request)?;
    let human =
        Human::parse(req.human.as_deref().unwrap_or("black")).map_err(ApiError::bad_request)?;
    let strength = req.strength.unwrap_or_else(default_strength);
    let opening = match req.opening.as_deref() {
        Some(text) => OpeningRule::parse(text).map_err(|e| ApiError::bad_request(e.to_string()))?,
        None => OpeningRule::Free,
    };
    let mut session = Session::new(
        games.new_id(),
        size,
        rule,
        human,
        strength,
        &games.setup,
        req.moves.as_deref(),
    )?;
    if opening != OpeningRule::Free {
        session.start_opening(opening)?;
    }
    let state = session.state();
    games.insert(session)?;
    Ok((StatusCode::CREATED, Json(state)).into_response())
}

async fn show(With(games): GamesState, Path(id): Path<String>) -> Answer {
    let game = games.get(&id)?;
    let state = lock(&game).state();
    Ok(Json(state))
}

async fn remove(With(games): GamesState, Path(id): Path<String>) -> Result<StatusCode, ApiError> {
    let game = games.remove(&id)?;
    if let Some(r) = lock(&game).running() {
        r.cancel.store(true, Ordering::SeqCst);
        r.stop.store(true, Ordering::SeqCst);
    }
    Ok(StatusCode::NO_CONTENT)
}

async fn play(
    With(games): GamesState,
    Path(id): Path<String>,
    Body(req): Body<PlayMove>,
) -> Answer {
    let game = games.get(&id)?;
    let mut s = lock(&game);
    s.play(&req.point)?;
    Ok(Json(s.state()))
}

/// The person's step in the opening stage; the engine's steps are searches (`think`).
async fn opening(
    With(games): GamesState,
    Path(id): Path<String>,
    Body(req): Body<OpeningStep>,
) -> Answer {
    let game = games.get(&id)?;
    let mut s = lock(&game);
    s.opening_step(&req)?;
    Ok(Json(s.state()))
}

/// `?count=N`: how many moves to take back or replay (default 1).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Count {
    count: Option<usize>,
}

async fn undo(With(games): GamesState, Path(id): Path<String>, Params(q): Params<Count>) -> Answer {
    let game = games.get(&id)?;
    let mut s = lock(&game);
    s.undo(q.count.unwrap_or(1))?;
    Ok(Json(s.state()))
}

async fn redo(With(games): GamesState, Path(id): Path<String>, Params(q): Params<Count>) -> Answer {
    let game = games.get(&id)?;
    let mut s = lock(&game);
    s.redo(q.count.unwrap_or(1))?;
    Ok(Json(s.state()))
}

async fn position(
    With(games): GamesState,
    Path(id): Path<String>,
    Body(req): Body<SetPosition>,
) -> Answer {
    let game = games.get(&id)?;
    let mut s = lock(&game);
    s.set_position(&req.moves)?;
    Ok(Json(s.state()))
}

async fn settings(
    With(games): GamesState,
    Path(id): Path<String>,
    Body(req): Body<Settings>,
) -> Answer {
    let human = match req.human.as_deref() {
        Some(h) => Some(Human::parse(h).map_err(ApiError::bad_request)?),
        None => None,
    };
    let game = games.get(&id)?;
    let mut s = lock(&game);
    s.settings(human, req.strength)?;
    Ok(Json(s.state()))
}

/// `?format=text` (default), `?format=psq` or `?format=sgf`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Format {
    format: Option<String>,
}

async fn save(
    With(games): GamesState,
    Path(id): Path<String>,
    Params(q): Params<Format>,
) -> Result<Response, ApiError> {
    let word = q.format.as_deref().unwrap_or("text");
    let format = RecordFormat::from_word(word).ok_or_else(|| {
        ApiError::bad_request(format!("format wants text, psq or sgf, not '{word}'"))
    })?;
    let text = lock(&games.get(&id)?).record(format)?;
    let disposition = format!("attachment; filename=\"wuzi-game.{}\"", format.extension());
    Ok((
        [
            (
                header::CONTENT_TYPE,
                "text/plain; charset=utf-8".to_string(),
            ),
            (header::CONTENT_DISPOSITION, disposition),
        ],
        text,
    )
        .into_response())
}

async fn load(
    With(games): GamesState,
    Path(id): Path<String>,
    Body(req): Body<LoadRecord>,
) -> Answer {
    let game = games.get(&id)?;
    let mut s = lock(&game);
    s.load_record(&req.text, req.rule.as_deref())?;
    Ok(Json(s.state()))
}

/// `?job=move` (default: the engine's move, played) or `?job=hint`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ThinkQuery {
    job: Option<String>,
}

async fn think(
    With(games): GamesState,
    Path(id): Path<String>,
    Params(q): Params<ThinkQuery>,
) -> Result<Response, ApiError> {
    let job = match q.job.as_deref().unwrap_or("move") {
        "move" => Job::Move,
        "hint" => Job::Hint,
        other => {
            return Err(ApiError::bad_request(format!(
                "job wants move or hint, not '{other}'"
            )))
        }
    };
    Ok(search::start(&games, &id, job)?.into_response())
}

/// `?n=N`: how many moves the analysis lists (1 to 20, default 5).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct AnalyseQuery {
    n: Option<usize>,
}

async fn analyse(
    With(games): GamesState,
    Path(id): Path<String>,
    Params(q): Params<AnalyseQuery>,
) -> Result<Response, ApiError> {
    let n = q.n.unwrap_or(5);
    if !(1..=20).contains(&n) {
        return Err(ApiError::bad_request(format!("n wants 1 to 20, not {n}")));
    }
    Ok(search::start(&games, &id, Job::Analyse(n))?.into_response())
}

/// `?ms=N`: the longest time of one solve of the review, in milliseconds (1 to
/// `review::MAX_SOLVE_MS`, default `review::DEFAULT_SOLVE_MS`).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ReviewQuery {
    ms: Option<u64>,
}

async fn review(
    With(games): GamesState,
    Path(id): Path<String>,
    Params(q): Params<ReviewQuery>,
) -> Result<Response, ApiError> {
    let ms = q.ms.unwrap_or(DEFAULT_SOLVE_MS);
    if !(1..=MAX_SOLVE_MS).contains(&ms) {
        return Err(ApiError::bad_request(format!(
            "ms wants 1 to {MAX_SOLVE_MS}, not {ms}"
        )));
    }
    Ok(review::start(&games, &id, Duration::from_millis(ms))?.into_response())
}

/// Stops the game's search (a move search plays its best move so far) and answers the
/// state once the search has ended.
async fn stop(With(games): GamesState, Path(id): Path<String>) -> Answer {
    let game = games.get(&id)?;
    if let Some(r) = lock(&game).running() {
        r.halt.store(true, Ordering::SeqCst);
        r.stop.store(true, Ordering::SeqCst);
    }
    let waited = std::time::Instant::now();
    while lock(&game).running().is_some() {
        if waited.elapsed() > STOP_WAIT {
            return Err(ApiError::busy("the search has not stopped yet: try again"));
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    let state = lock(&game).state();
    Ok(Json(state))
}
