//! The service's one error type, rendered as RFC 7807 `application/problem+json`.

use actix_web::http::StatusCode;
use actix_web::{HttpResponse, ResponseError};
use serde::Serialize;
use utoipa::ToSchema;

/// The media type of problem details.
pub const PROBLEM_JSON: &str = "application/problem+json";

/// The `WWW-Authenticate` challenge of a 401 (RFC 6750): a bearer token.
pub const BEARER_CHALLENGE: &str = "Bearer realm=\"tsoro\"";

/// Seconds a client is asked to wait (`Retry-After`) after a 429 or a 503.
pub const RETRY_AFTER_SECS: u32 = 5;

/// A kind of problem: its `type` is `/problems/{slug}`, a page the service serves that
/// describes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ProblemKind {
    /// The last segment of its `type`.
    pub slug: &'static str,
    /// The HTTP status it is answered with.
    pub status: u16,
    /// Its `title`.
    pub title: &'static str,
    /// What it means and what to do about it (its page's text).
    pub about: &'static str,
}

impl ProblemKind {
    /// Its `type`: the address of its page.
    pub fn uri(&self) -> String {
        format!("{PROBLEMS_PATH}/{}", self.slug)
    }
}

/// Where the problem kinds' pages are.
pub const PROBLEMS_PATH: &str = "/problems";

macro_rules! kinds {
    ($($name:ident = ($slug:literal, $status:literal, $title:literal, $about:literal);)*) => {
        $(
            #[doc = $title]
            pub const $name: ProblemKind =
                ProblemKind { slug: $slug, status: $status, title: $title, about: $about };
        )*
        /// Every kind of problem the service answers with: the one table of them.
        pub const KINDS: &[ProblemKind] = &[$($name),*];
    };
}

kinds! {
    BAD_REQUEST = ("bad-request", 400, "Bad Request",
        "The request is malformed: a query parameter of the wrong type or out of range, a path \
         segment that cannot be read, a body that is not JSON of the expected shape (or that \
         gives a key twice, or a number that double precision rounds to a whole one it is not, \
         as `16.9999999999999999`), or a NUL byte where no text may hold one. `errors` names each parameter or field at fault and \
         what it may be; correct it and send the request again.");
    UNAUTHORIZED = ("unauthorized", 401, "Unauthorized",
        "This needs an API token, sent as `Authorization: Bearer TOKEN`, and the request had \
         none, or one the service does not know (or has revoked). Starting simulations needs a \
         `runner` token; an operator makes one with `tsoro token add NAME --role runner`. A \
         service listening beyond its own machine without any token takes no anonymous writes \
         unless started with `--allow-anonymous-writes`. Reading the archive, and a simulation \
         by its id, never needs a token.");
    FORBIDDEN = ("forbidden", 403, "Forbidden",
        "The request is not allowed: the token's role does not allow it (starting simulations \
         needs `runner`; listing everyone's, and stopping or deleting another's, needs \
         `admin`), or it is a write sent from a page of another site (writes are taken only \
         from the service's own pages and from clients that are not browsers).");
    NOT_FOUND = ("not-found", 404, "Not Found",
        "Nothing is at this address: no route, or no record with this id (a game, source, \
         evidence, ruleset, simulation, comparison, or a game past a simulation's end). The \
         lists (`/api/v1/games`, `/api/v1/rulesets`, `/api/v1/simulations`...) give the ids.");
    METHOD_NOT_ALLOWED = ("method-not-allowed", 405, "Method Not Allowed",
        "The address exists but does not take this method; the `Allow` header lists those it \
         takes.");
    NOT_ACCEPTABLE = ("not-acceptable", 406, "Not Acceptable",
        "No representation the resource has matches the request's `Accept` header; the detail \
         names those it has (or ask with `?format=`).");
    JOB_FINISHED = ("job-finished", 409, "Conflict",
        "The simulation has already ended (done, failed or cancelled), so it cannot be \
         cancelled; `DELETE` with `?purge=true` deletes it instead.");
    JOB_NOT_DONE = ("job-not-done", 409, "Conflict",
        "The simulation (or a run of the comparison) is not done yet, so its results cannot be \
         read; wait for it with `GET /api/v1/simulations/{id}?wait=60`.");
    PAYLOAD_TOO_LARGE = ("payload-too-large", 413, "Payload Too Large",
        "The request's body is over the service's size limit (`--body-limit`, 1 MiB by \
         default); send fewer actions, or a smaller request.");
    URI_TOO_LONG = ("uri-too-long", 414, "URI Too Long",
        "The request's address (path and query) is longer than the service reads; no address \
         of the API needs more than a few hundred bytes.");
    UNSUPPORTED_MEDIA_TYPE = ("unsupported-media-type", 415, "Unsupported Media Type",
        "The body is not `application/json`: send JSON with `Content-Type: application/json`.");
    MISDIRECTED = ("misdirected-request", 421, "Misdirected Request",
        "The request names a host (its `Host` header) this service does not answer to. A \
         service listening on loopback answers only to `localhost`, `127.0.0.1` and `[::1]` \
         (with any port) and to the names it was started with (`--allowed-host`), so that a \
         page of another site whose name is made to resolve to this machine (DNS rebinding) \
         cannot use it. Address it by one of those names.");
    UNPROCESSABLE = ("unprocessable", 422, "Unprocessable Entity",
        "The request is well-formed but cannot be done: an unknown ruleset, a parameter the \
         ruleset does not have or out of its range, an agent the service does not know, an \
         illegal action in a replay (with `index` and the `legal` actions), too many games. \
         `errors` names each field at fault and what it may be.");
    OVER_BUDGET = ("over-budget", 422, "Unprocessable Entity",
        "The simulation is estimated to cost more core-seconds than the service allows one job \
         (`--max-job-cost`); `estimated_cost`, `per_game_cost` and `max_job_cost` give them, \
         in core-seconds (searching agents priced by their decisions timed on the ruleset). \
         Ask for fewer games or weaker agents.");
    TOO_MANY_JOBS = ("too-many-jobs", 429, "Too Many Requests",
        "Too many simulations are queued or running (`--max-jobs`); try again after the \
         `Retry-After` header's seconds.");
    OVER_QUOTA = ("over-quota", 429, "Too Many Requests",
        "The request's owner (its token's holder; without a token, the client's address) has as \
         many jobs queued or running (`--max-owner-jobs`), or as many core-seconds of estimated \
         work outstanding (`--max-owner-cost`), as one owner may. `limit` names which; \
         `outstanding_jobs`, `outstanding_cost` (core-seconds not yet played), `requested_jobs`, \
         `requested_cost`, `max_owner_jobs` and `max_owner_cost` give the figures. Try again \
         after the `Retry-After` header's seconds, once some of it is done, or cancel a job.");
    STORAGE_QUOTA = ("storage-quota", 507, "Insufficient Storage",
        "The records of the owner's jobs (its token's holder's; without a token, the client \
         address's) take as many bytes as one owner may store (`--max-owner-bytes`): \
         `stored_bytes` and `max_owner_bytes` give them. Delete jobs \
         (`DELETE /api/v1/simulations/{id}?purge=true`) before starting more; anonymous jobs \
         are also deleted some days after they end (`--anonymous-retention-days`).");
    OVER_TIME = ("over-time", 422, "Unprocessable Entity",
        "The request's computation (an agent's search, a replay, a simulation's game played \
         again) ran out of the time a request may take (`--request-seconds`) and was stopped; \
         ask for a weaker agent (a lower depth, fewer iterations) or fewer actions.");
    HEADERS_TOO_LARGE = ("headers-too-large", 431, "Request Header Fields Too Large",
        "The request's headers are larger than the service reads; send fewer or shorter ones.");
    INTERNAL = ("internal", 500, "Internal Server Error",
        "A fault of the service's; it has been logged. Please report it with the request that \
         caused it.");
    UNAVAILABLE = ("unavailable", 503, "Service Unavailable",
        "The database is unavailable for now; try again after the `Retry-After` header's \
         seconds.");
    DISK_FULL = ("disk-full", 503, "Service Unavailable",
        "The database's disk is full: nothing more can be stored until space is freed (an \
         operator deletes jobs with `DELETE /api/v1/simulations/{id}?purge=true`, or gives the \
         disk more room). Reading goes on; jobs in progress wait and resume by themselves once \
         there is room. Try again after the `Retry-After` header's seconds.");
    TOO_MANY_EXPORTS = ("too-many-exports", 503, "Service Unavailable",
        "As many exports (`games.csv`, `games.json`) are streaming as the service allows at \
         once (`--max-exports`); try again after the `Retry-After` header's seconds. The \
         refusal comes before the body starts: an export is never cut in the middle.");
    TOO_MANY_CLIENT_EXPORTS = ("too-many-client-exports", 429, "Too Many Requests",
        "This client (its address; behind a trusted proxy, the one the proxy forwards) is \
         streaming as many exports at once as one client may (`--max-client-exports`), so that \
         one client cannot take every export slot; try again after the `Retry-After` header's \
         seconds. An export whose client reads nothing for `--export-stall-secs` is dropped and \
         its slot freed.");
    CPU_BUSY = ("cpu-busy", 503, "Service Unavailable",
        "As many CPU-bound requests (agent moves, replays, games of simulations played again) \
         are running as the service allows at once (`--max-cpu-requests`), so that cheap reads \
         keep their speed; try again after the `Retry-After` header's seconds.");
    CPU_CLIENT_SHARE = ("cpu-client-share", 429, "Too Many Requests",
        "This client (its address; behind a trusted proxy, the one the proxy forwards) has as \
         many CPU-bound requests (agent moves, replays, games of simulations played again) \
         running as one client may (`--max-client-cpu-requests`), so that one client cannot \
         take every slot of `--max-cpu-requests`; try again after the `Retry-After` header's \
         seconds, once one of them has answered.");
    DATABASE_DOWN = ("database-down", 503, "Service Unavailable",
        "`/health`: the database has not answered for longer than the service allows \
         (`--health-db-down-secs`); the `database` member says since when and why. The embedded \
         PostgreSQL is being restarted meanwhile; a liveness probe may restart the service.");
}

/// The kind whose slug this is.
pub fn kind(slug: &str) -> Option<&'static ProblemKind> {
    KINDS.iter().find(|k| k.slug == slug)
}

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
    /// A URI reference naming the problem type (`/problems/not-found`): a page of the
    /// service's describing it (`/problems` lists them).
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
    /// A problem of a kind (one of [`KINDS`]) with a detail.
    pub fn of(kind: &ProblemKind, detail: impl Into<String>) -> Problem {
        Problem {
            kind: kind.uri(),
            title: kind.title.to_string(),
            status: kind.status,
            detail: detail.into(),
            instance: None,
            errors: vec![],
            extra: serde_json::Map::new(),
            retry_after: None,
        }
    }

    /// 400: the request is malformed.
    pub fn bad_request(detail: impl Into<String>) -> Problem {
        Problem::of(&BAD_REQUEST, detail)
    }

    /// 404: no such resource.
    pub fn not_found(detail: impl Into<String>) -> Problem {
        Problem::of(&NOT_FOUND, detail)
    }

    /// 405: the resource does not take this method.
    pub fn method_not_allowed(detail: impl Into<String>) -> Problem {
        Problem::of(&METHOD_NOT_ALLOWED, detail)
    }

    /// 413: the body is too large.
    pub fn too_large(detail: impl Into<String>) -> Problem {
        Problem::of(&PAYLOAD_TOO_LARGE, detail)
    }

    /// 422: well-formed but not acceptable.
    pub fn unprocessable(detail: impl Into<String>) -> Problem {
        Problem::of(&UNPROCESSABLE, detail)
    }

    /// 503: a dependency (the database) is unavailable.
    pub fn unavailable(detail: impl Into<String>) -> Problem {
        Problem::of(&UNAVAILABLE, detail)
    }

    /// 500: a fault of ours; the detail is logged, not shown.
    pub fn internal(detail: impl std::fmt::Display) -> Problem {
        tracing::error!(%detail, "internal error");
        Problem::of(&INTERNAL, "an internal error occurred; it has been logged")
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
        // RFC 7235: a 401 names the scheme that would be accepted.
        if self.status == 401 {
            r.insert_header((actix_web::http::header::WWW_AUTHENTICATE, BEARER_CHALLENGE));
        }
        r.json(self.bounded())
    }
}

/// Longest quotation (a `"..."` or `` `...` `` span: the request's input, as the details quote
/// it) a problem repeats whole; longer ones are cut, saying how long they were.
pub const MAX_QUOTE: usize = 64;
/// Longest text of a problem's `detail`, or of a field error's `message` (its `field` is cut at
/// [`MAX_QUOTE`]).
pub const MAX_TEXT: usize = 4096;

impl Problem {
    /// The problem as sent: its texts [`bound`]ed, so an oversized input is never echoed back.
    fn bounded(&self) -> Problem {
        let mut p = self.clone();
        p.detail = bound(&p.detail);
        for e in &mut p.errors {
            // A field's name may be the request's own (an unknown parameter's).
            if e.field.chars().count() > MAX_QUOTE {
                let cut: String = e.field.chars().take(MAX_QUOTE).collect();
                e.field = format!("{cut}…");
            }
            e.message = bound(&e.message);
        }
        p
    }
}

/// `text` with every quotation longer than [`MAX_QUOTE`] characters cut (`"xxxx…" (70000
/// characters)`), then the whole cut at [`MAX_TEXT`] characters.
pub fn bound(text: &str) -> String {
    let mut out = String::with_capacity(text.len().min(MAX_TEXT + 64));
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        out.push(c);
        if c != '"' && c != '`' {
            continue;
        }
        // A quotation: up to the same mark (a `"` may be escaped with a backslash).
        let mut quoted = String::new();
        let mut closed = false;
        while let Some(q) = chars.next() {
            if q == c {
                closed = true;
                break;
            }
            quoted.push(q);
            if q == '\\'
                && c == '"'
                && let Some(n) = chars.next()
            {
                quoted.push(n);
            }
        }
        let len = quoted.chars().count();
        if len > MAX_QUOTE {
            out.extend(quoted.chars().take(MAX_QUOTE));
            out.push('…');
            if closed {
                out.push(c);
            }
            out.push_str(&format!(" ({len} characters)"));
        } else {
            out.push_str(&quoted);
            if closed {
                out.push(c);
            }
        }
    }
    let total = out.chars().count();
    if total > MAX_TEXT {
        let mut cut: String = out.chars().take(MAX_TEXT).collect();
        cut.push_str(&format!("… (cut at {MAX_TEXT} of {total} characters)"));
        return cut;
    }
    out
}

impl From<sqlx::Error> for Problem {
    fn from(e: sqlx::Error) -> Problem {
        if crate::database::is_disk_full(&e) {
            let why = match &e {
                sqlx::Error::Database(db) => db.message().to_string(),
                other => other.to_string(),
            };
            tracing::error!(error = %why, "disk full: a write was refused");
            return Problem::of(
                &DISK_FULL,
                format!("the database's disk is full, so nothing can be stored now: {why}"),
            );
        }
        match e {
            // The database answers, but every connection of the pool is in use.
            sqlx::Error::PoolTimedOut => Problem::unavailable(
                "the service is busy: every connection to its database is in use; try again",
            )
            .retry_after(1),
            sqlx::Error::Io(_) | sqlx::Error::PoolClosed => {
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
    fn long_quotations_are_cut_and_short_ones_kept() {
        let long = "x".repeat(10_000);
        let text = format!("unknown ruleset \"{long}\"; known: a, b; field `{long}`, expected `c`");
        let b = bound(&text);
        assert!(b.len() < 400, "{b}");
        assert!(b.contains("(10000 characters)"), "{b}");
        assert!(b.ends_with("expected `c`"), "{b}");
        assert!(b.contains("; known: a, b;"), "{b}");
        assert_eq!(
            bound(r#"no token "ann \" b": it's `x`"#),
            r#"no token "ann \" b": it's `x`"#
        );
        assert!(bound(&"y".repeat(9000)).contains("cut at 4096 of 9000"));
    }

    #[test]
    fn busy_and_unavailable_say_when_to_retry() {
        for (p, retry) in [
            (Problem::of(&TOO_MANY_JOBS, "busy"), true),
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
