//! The web API's errors: a status code and a message, answered as JSON
//! (`{"error": "..."}`) so that the page can show the message as it is.

use super::limits::RETRY_AFTER_SECONDS;
use axum::extract::rejection::{JsonRejection, QueryRejection};
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;

/// A refused request: the status to answer and a sentence for a person.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ApiError {
    /// The HTTP status.
    pub status: StatusCode,
    /// What was wrong, in one sentence.
    pub message: String,
}

impl ApiError {
    /// 400: the request cannot be read (a bad move string, a bad parameter).
    pub fn bad_request(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::BAD_REQUEST, message)
    }
    /// 404: no such game (or page).
    pub fn not_found(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::NOT_FOUND, message)
    }
    /// 405: a route asked with a method it does not take.
    pub fn method_not_allowed(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::METHOD_NOT_ALLOWED, message)
    }
    /// 409: the request does not fit the game's state (the engine is thinking, the game
    /// is over, nothing to undo).
    pub fn conflict(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::CONFLICT, message)
    }
    /// 422: a well-formed request the rules refuse (an occupied or forbidden point).
    pub fn unprocessable(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::UNPROCESSABLE_ENTITY, message)
    }
    /// 503: every search slot (or game slot) is taken; try again later (the answer carries
    /// `Retry-After`).
    pub fn busy(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::SERVICE_UNAVAILABLE, message)
    }

    /// 413: a body over the limit of `limit` bytes.
    pub fn too_large(limit: usize) -> ApiError {
        let at_most = if limit >= 1024 {
            format!("{} KB", limit / 1024)
        } else {
            format!("{limit} bytes")
        };
        ApiError::new(
            StatusCode::PAYLOAD_TOO_LARGE,
            format!("the request body is too large (at most {at_most})"),
        )
    }
    /// 415: a body that does not say it is JSON.
    pub fn not_json() -> ApiError {
        ApiError::new(
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "the body must be JSON, sent with Content-Type: application/json",
        )
    }

    fn new(status: StatusCode, message: impl Into<String>) -> ApiError {
        ApiError {
            status,
            message: message.into(),
        }
    }
}

impl IntoResponse for ApiError {
    /// The status and `{"error": message}`; a 503 also says when to try again
    /// (`Retry-After`, [`RETRY_AFTER_SECONDS`]).
    fn into_response(self) -> Response {
        let body = serde_json::json!({ "error": self.message });
        let mut response = (self.status, Json(body)).into_response();
        if self.status == StatusCode::SERVICE_UNAVAILABLE {
            response
                .headers_mut()
                .insert(header::RETRY_AFTER, HeaderValue::from(RETRY_AFTER_SECONDS));
        }
        response
    }
}

/// A body axum could not read as JSON: malformed (400) or with the wrong fields (422). Its
/// status is kept.
impl From<JsonRejection> for ApiError {
    fn from(r: JsonRejection) -> ApiError {
        ApiError::new(r.status(), r.body_text())
    }
}

impl From<QueryRejection> for ApiError {
    fn from(r: QueryRejection) -> ApiError {
        ApiError::new(r.status(), r.body_text())
    }
}
