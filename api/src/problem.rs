//! The service's one error type, rendered as RFC 7807 `application/problem+json`.

use actix_web::http::StatusCode;
use actix_web::{HttpResponse, ResponseError};
use serde::Serialize;
use utoipa::ToSchema;

/// The media type of problem details.
pub const PROBLEM_JSON: &str = "application/problem+json";

/// Seconds a client is asked to wait (`Retry-After`) after a 429 or a 503.
pub const RETRY_AFTER_SECS: u32 = 5;

/// One thing wrong with a request: where, and what.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, ToSchema)]
pub struct FieldError {
    /// The parameter, field or path at fault (`holes`, `body.actions[3]`).
    pub field: String,
    /// What is wrong and what is allowed.
    pub message: String,
}

/// An RFC 7807 problem (`application/problem+json`): every error's body. Some problems carry
/// more members (a replay's illegal action: `index` and `legal`).
#[derive(Clone, Debug, Serialize, ToSchema, thiserror::Error)]
#[schema(example = json!({"type": "/problems/unprocessable", "title": "Unprocessable Entity",
    "status": 422, "detail": "games = 0: a run has 1 to 10000000 games",
    "instance": "/api/v1/simulations",
    "errors": [{"field": "games", "message": "1..=10000000"}]}))]
#[error("{status} {title}: {detail}")]
pub struct Problem {
    /// A URI reference naming the problem type (`/problems/not-found`).
    #[serde(rename = "type")]
    pub kind: String,
    /// A short summary of the problem type.
    pub title: String,
    /// The HTTP status.
    pub status: u16,
    /// What happened, for a person.
    pub detail: String,
    /// The request path.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub instance: Option<String>,
    /// What was wrong, field by field.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub errors: Vec<FieldError>,
    /// Other members (e.g. the legal actions of a replay).
    #[serde(flatten, skip_serializing_if = "serde_json::Map::is_empty")]
    #[schema(ignore)]
    pub extra: serde_json::Map<String, serde_json::Value>,
    /// Seconds after which the client may try again (the `Retry-After` header of a 429/503).
    #[serde(skip)]
    pub retry_after: Option<u64>,
}

impl Problem {
    /// A problem of a status with a type slug (`not-found`) and a detail.
    pub fn new(status: StatusCode, slug: &str, detail: impl Into<String>) -> Problem {
        Problem {
            kind: format!("/problems/{slug}"),
            title: status.canonical_reason().unwrap_or("Error").to_string(),
            status: status.as_u16(),
            detail: detail.into(),
            instance: None,
            errors: vec![],
            extra: serde_json::Map::new(),
            retry_after: None,
        }
    }

    /// 400: the request is malformed.
    pub fn bad_request(detail: impl Into<String>) -> Problem {
        Problem::new(StatusCode::BAD_REQUEST, "bad-request", detail)
    }

    /// 404: no such resource.
    pub fn not_found(detail: impl Into<String>) -> Problem {
        Problem::new(StatusCode::NOT_FOUND, "not-found", detail)
    }

    /// 405: the resource does not take this method.
    pub fn method_not_allowed(detail: impl Into<String>) -> Problem {
        Problem::new(StatusCode::METHOD_NOT_ALLOWED, "method-not-allowed", detail)
    }

    /// 413: the body is too large.
    pub fn too_large(detail: impl Into<String>) -> Problem {
        Problem::new(StatusCode::PAYLOAD_TOO_LARGE, "payload-too-large", detail)
    }

    /// 422: well-formed but not acceptable.
    pub fn unprocessable(detail: impl Into<String>) -> Problem {
        Problem::new(StatusCode::UNPROCESSABLE_ENTITY, "unprocessable", detail)
    }

    /// 503: a dependency (the database) is unavailable.
    pub fn unavailable(detail: impl Into<String>) -> Problem {
        Problem::new(StatusCode::SERVICE_UNAVAILABLE, "unavailable", detail)
    }

    /// 500: a fault of ours; the detail is logged, not shown.
    pub fn internal(detail: impl std::fmt::Display) -> Problem {
        tracing::error!(%detail, "internal error");
        Problem::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            "internal",
            "an internal error occurred; it has been logged",
        )
    }

    /// Adds a field error.
    pub fn with_error(mut self, field: impl Into<String>, message: impl Into<String>) -> Problem {
        self.errors.push(FieldError {
            field: field.into(),
            message: message.into(),
        });
        self
    }

    /// Tells the client to try again after this many seconds (`Retry-After`, and
    /// `retry_after` in the body).
    pub fn retry_after(mut self, secs: u64) -> Problem {
        self.retry_after = Some(secs);
        self.extra.insert("retry_after".into(), secs.into());
        self
    }

    /// Sets the request path.
    pub fn at(mut self, path: impl Into<String>) -> Problem {
        self.instance = Some(path.into());
        self
    }
}

impl ResponseError for Problem {
    fn status_code(&self) -> StatusCode {
        StatusCode::from_u16(self.status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR)
    }

    fn error_response(&self) -> HttpResponse {
        let mut r = HttpResponse::build(self.status_code());
        r.content_type(PROBLEM_JSON);
        // Busy or unavailable: when to try again (the problem's own delay, or the default).
        let retry = self
            .retry_after
            .or(matches!(self.status, 429 | 503).then_some(RETRY_AFTER_SECS as u64));
        if let Some(secs) = retry {
            r.insert_header((actix_web::http::header::RETRY_AFTER, secs));
        }
        r.json(self)
    }
}

impl From<sqlx::Error> for Problem {
    fn from(e: sqlx::Error) -> Problem {
        match e {
            sqlx::Error::PoolTimedOut | sqlx::Error::Io(_) | sqlx::Error::PoolClosed => {
                Problem::unavailable(format!("the database is unavailable: {e}"))
            }
            // Text the database cannot hold (a NUL byte: 22021, 22P05) came from the client.
            sqlx::Error::Database(ref db)
                if matches!(db.code().as_deref(), Some("22021" | "22P05")) =>
            {
                Problem::bad_request(format!(
                    "a value the database cannot hold: {}",
                    db.message()
                ))
            }
            other => Problem::internal(other),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn busy_and_unavailable_say_when_to_retry() {
        for (p, retry) in [
            (
                Problem::new(StatusCode::TOO_MANY_REQUESTS, "too-many-jobs", "busy"),
                true,
            ),
            (Problem::unavailable("down"), true),
            (Problem::unprocessable("bad"), false),
        ] {
            let r = p.error_response();
            assert_eq!(r.headers().get("content-type").unwrap(), PROBLEM_JSON);
            assert_eq!(
                r.headers()
                    .get("retry-after")
                    .map(|v| v.to_str().unwrap().to_string()),
                retry.then(|| RETRY_AFTER_SECS.to_string()),
                "{}",
                p.status
            );
        }
    }
}
