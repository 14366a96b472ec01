//! A page's opening stage: the person's step read from JSON into an action of the engine's
//! opening model (`engine::opening`), the model's refusals as API errors, and the stage as
//! the page shows it. The decisions and the rules are the model's; this file only
//! translates.

use super::error::ApiError;
use super::json::{OpeningState, OpeningStep};
use crate::engine::opening::{Action, Expect, Opening, OpeningError, Player};
use crate::notation::{format_h8, parse_any};
use crate::types::{Color, Pos};

/// Who takes a step, as the page names them: `you`, `wuzi`, or the seat when the person
/// plays both sides (`seat` is the person's seat, `None` then).
pub fn name(player: Player, seat: Option<Player>) -> String {
    match seat {
        Some(s) if s == player => "you".into(),
        Some(_) => "wuzi".into(),
        None => player.to_string(),
    }
}

/// The person's step as an action of the model, for `actor` (who is to act) on `stage`; 400
/// for a step that cannot be read.
pub fn action(req: &OpeningStep, stage: &Opening, actor: Player) -> Result<Action, ApiError> {
    let size = stage.size();
    let points = req
        .points
        .iter()
        .map(|t| match parse_any(t, size) {
            Ok(p) if !p.is_none() => Ok(p),
            Ok(_) => Err(ApiError::bad_request("a pass is not a step of the opening")),
            Err(e) => Err(ApiError::bad_request(e.to_string())),
        })
        .collect::<Result<Vec<Pos>, ApiError>>()?;
    let one = |what: &str| match points[..] {
        [p] => Ok(p),
        _ => Err(ApiError::bad_request(format!(
            "{what} wants one point, not {}",
            points.len()
        ))),
    };
    let held = stage.colour_of(actor);
    Ok(match req.action.to_ascii_lowercase().as_str() {
        "place" => match req.count {
            Some(n) => Action::PlaceAndDeclare(one("place")?, n),
            None => Action::Place(one("place")?),
        },
        "black" => Action::Choose(Color::Black),
        "white" => Action::Choose(Color::White),
        "swap" => Action::Choose(!held),
        "stay" => Action::Choose(held),
        "add" => match points[..] {
            [w, b] => Action::AddTwo(w, b),
            _ => {
                return Err(ApiError::bad_request(format!(
                    "add wants two points (a white stone, then a black one), not {}",
                    points.len()
                )))
            }
        },
        "offer" => Action::Offer(points),
        "pick" => Action::Pick(one("pick")?),
        other => {
            return Err(ApiError::bad_request(format!(
                "action wants place, black, white, swap, stay, add, offer or pick, not '{other}'"
            )))
        }
    })
}

/// A step the model refused: 409 when it does not fit the stage (out of turn, not now, the
/// stage over), 422 when the rules refuse its points or numbers. Points are named in `h8`.
pub fn refused(e: &OpeningError, size: usize) -> ApiError {
    let text = h8_text(&e.to_string(), size);
    match e {
        OpeningError::OutOfTurn { .. } | OpeningError::Unexpected(_) | OpeningError::Over => {
            ApiError::conflict(text)
        }
        _ => ApiError::unprocessable(text),
    }
}

/// `text` with its `x,y` points written as the board labels them (`h8`).
fn h8_text(text: &str, size: usize) -> String {
    text.split(' ')
        .map(|w| {
            let bare = w.trim_end_matches([':', ',', '.', ';']);
            match crate::notation::parse_xy(bare) {
                Ok(p) if bare.contains(',') && p.on_board(size) => {
                    w.replacen(bare, &format_h8(p, size), 1)
                }
                _ => w.to_string(),
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// How the stage went, for a game record's comment: "Opening rule soosorv 8 (you: the
/// first player, wuzi: the second player). wuzi places h8. ..."
pub fn story(stage: &Opening, seat: Option<Player>) -> String {
    let mut text = match seat {
        Some(s) => format!(
            "Opening rule {} (you: the {s}, wuzi: the {}).",
            stage.rule(),
            !s
        ),
        None => format!("Opening rule {}.", stage.rule()),
    };
    for (who, action) in stage.history() {
        text.push(' ');
        text += &action.sentence(&name(*who, seat), stage.size());
    }
    text
}

/// The stage as the page shows it; `seat` is the person's seat (`None`: they play both).
pub fn describe(stage: &Opening, seat: Option<Player>) -> OpeningState {
    let size = stage.size();
    let expect = stage.expect();
    let (asks, square, max, count) = match expect {
        Expect::Stone { square, .. } => ("stone", square, None, None),
        Expect::StoneAndDeclare { square, max, .. } => {
            ("stone-and-declare", square, Some(max), None)
        }
        Expect::Colour => ("colour", None, None, None),
        Expect::Swap2Choice => ("swap2-choice", None, None, None),
        Expect::FifthOrOffer { count } => ("fifth-or-offer", None, None, Some(count)),
        Expect::Offer { count } => ("offer", None, None, Some(count)),
        Expect::Pick => ("pick", None, None, None),
        Expect::Nothing => ("nothing", None, None, None),
    };
    let actor = stage.to_act();
    OpeningState {
        rule: stage.rule().name(),
        over: stage.is_over(),
        actor: actor.map(|p| p.to_string()),
        yours: actor.is_some() && (seat.is_none() || actor == seat),
        you: seat.map(|s| s.to_string()),
        black: name(stage.player_of(Color::Black), seat),
        expect: expect.to_string(),
        asks: asks.into(),
        square,
        max,
        count,
        declared: stage.declared(),
        offers: stage.offers().iter().map(|&p| format_h8(p, size)).collect(),
        steps: stage
            .history()
            .iter()
            .map(|(who, a)| a.sentence(&name(*who, seat), size))
            .collect(),
    }
}
