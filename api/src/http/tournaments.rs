//! Tournaments as jobs: queued, awaited, cancelled or deleted, and exported, on the same
//! durable machinery as simulations ([`crate::jobs`]).

use super::job_kind::{Kind, admitted, csv, priced};
use super::jobs::{DeleteQuery, JobReads, WaitQuery, accepted, account, streamed};
use crate::http::access::Access;
use crate::http::client::Client;
use crate::http::problem::Problem;
use crate::http::state::AppState;
use crate::jobs::export;
use crate::jobs::store::{self, JobRow};
use crate::jobs::tournament::{self, Stored};
use crate::jobs::tournament_view::{TournamentView, tournament_url};
use crate::jobs::view::Queued;
use crate::runs::tournament::{
    LadderRequest, TournamentPlan, TournamentRequest, check, check_ladder,
};
use crate::settings::JobSettings;
use actix_web::{HttpRequest, HttpResponse, web};

/// The tournaments among the jobs.
const TOURNAMENT: Kind<TournamentView> = Kind {
    what: "tournament",
    is: JobRow::is_tournament,
    view: TournamentView::of,
};

/// The ladders among the tournaments.
const LADDER: Kind<TournamentView> = Kind {
    what: "ladder",
    is: is_ladder,
    view: TournamentView::of,
};

/// Whether a stored job is a ladder: a tournament whose spec keeps the ladder that defined it.
fn is_ladder(job: &JobRow) -> bool {
    job.is_tournament() && Stored::of_job(job).is_some_and(|s| s.ladder.is_some())
}

/// The text a finished tournament's summary keeps under `key` (a CSV file), or 500 saying
/// it is `missing`.
fn kept_csv(job: &JobRow, key: &str, missing: &str) -> Result<String, Problem> {
    job.summary
        .as_ref()
        .and_then(|s| s[key].as_str())
        .map(str::to_string)
        .ok_or_else(|| Problem::internal(missing))
}

#[utoipa::path(post, path = "/api/v1/tournaments", tag = "tournaments", operation_id = "create_tournament",
    request_body = TournamentRequest,
    responses(
        (status = 202, description = "Queued; the tournament (its `url` also in `Location`), its estimated cost (`estimate`) and how many jobs were queued or running before it (`queue_position`)", body = Queued<TournamentView>),
        (status = 400, description = "A malformed body", body = crate::http::problem::Problem, content_type = "application/problem+json"),
        (status = 413, description = "A body over the size limit", body = crate::http::problem::Problem, content_type = "application/problem+json"),
        (status = 422, description = "An unknown ruleset or agent, an agent with a time budget (not reproducible), a parameter out of range, too many pairs or agents, or an estimated cost over the budget (`--max-job-cost`; the problem names `pairs` and gives `estimated_cost` and `max_job_cost`, in core-seconds)", body = crate::http::problem::Problem, content_type = "application/problem+json"),
        (status = 429, description = "Too many jobs queued or running (`--max-jobs`), or the owner's quota of jobs or outstanding work is reached (`--max-owner-jobs`, `--max-owner-cost`: `/problems/over-quota`, with `limit` and the figures); `Retry-After` says when to try again", headers(("Retry-After" = u64, description = "Seconds to wait")), body = crate::http::problem::Problem, content_type = "application/problem+json"),
        (status = 507, description = "The owner's jobs store as many bytes as one owner may (`--max-owner-bytes`; `stored_bytes`, `max_owner_bytes`): delete some first", body = crate::http::problem::Problem, content_type = "application/problem+json"),
        (status = 401, description = "Starting a tournament needs a token (`Authorization: Bearer`) on this service, or the one sent is unknown or revoked", body = crate::http::problem::Problem, content_type = "application/problem+json", headers(("WWW-Authenticate" = String, description = "`Bearer realm=\"tsoro\"`"))),
        (status = 403, description = "The token is a reader's (starting jobs needs runner or admin), or the request came from a page of another site", body = crate::http::problem::Problem, content_type = "application/problem+json"),
    ),
    security((), ("bearer" = [])))]
/// Queues a tournament (202 with its URL; owned by the token's holder): every pair of agents
/// plays `pairs` seat-swapped pairs of games, and each agent plays itself.
pub async fn create(
    req: HttpRequest,
    access: Access,
    client: Client,
    state: web::Data<AppState>,
    limits: web::Data<JobSettings>,
    body: crate::http::extract::JsonObject<TournamentRequest>,
) -> Result<HttpResponse, Problem> {
    let account = account(access.may_create()?, client);
    let (b, l) = (body.into_inner(), limits.clone());
    let checked = priced(req.path(), move || check(&b, &l)).await?;
    queue(&req, &state, &limits, account, checked).await
}

/// Stores a checked tournament as a job within the service's and its owner's limits, and
/// answers 202 with it.
async fn queue(
    req: &HttpRequest,
    state: &AppState,
    limits: &JobSettings,
    account: crate::jobs::quota::Account,
    (plan, chunk, cost): (TournamentPlan, u64, f64),
) -> Result<HttpResponse, Problem> {
    let agents: Vec<String> = plan.spec.agents.iter().map(|a| a.to_string()).collect();
    let stored =
        serde_json::to_value(Stored::of(&plan.spec, plan.ladder)).map_err(Problem::internal)?;
    let (mut tx, queue_position) = admitted(state, limits, &account, 1, cost, req.path()).await?;
    let job = store::create_tournament(&mut tx, &plan.run, &agents, &stored, chunk, cost, &account)
        .await?;
    tx.commit().await?;
    Ok(accepted(
        tournament_url(job.id),
        TournamentView::of(&job, &store::JobUsage::default()),
        queue_position,
    ))
}

#[utoipa::path(post, path = "/api/v1/ladders", tag = "tournaments", operation_id = "create_ladder",
    request_body = LadderRequest,
    responses(
        (status = 202, description = "Queued; the ladder, a tournament whose agents and pairings the ladder defines (its `url`, under `/api/v1/tournaments`, also in `Location`), its estimated cost (`estimate`) and how many jobs were queued or running before it (`queue_position`); when done, its `results.ladder` holds the rungs", body = Queued<TournamentView>),
        (status = 400, description = "A malformed body", body = crate::http::problem::Problem, content_type = "application/problem+json"),
        (status = 413, description = "A body over the size limit", body = crate::http::problem::Problem, content_type = "application/problem+json"),
        (status = 422, description = "An unknown ruleset or family, a range the family's syntax does not allow (`from`, `to`: MCTS iterations must double from `from` to `to`; alpha-beta depths go up to 8), a parameter out of range, too many pairs, or an estimated cost over the budget (`--max-job-cost`; the problem names `pairs` and gives `estimated_cost` and `max_job_cost`, in core-seconds)", body = crate::http::problem::Problem, content_type = "application/problem+json"),
        (status = 429, description = "Too many jobs queued or running (`--max-jobs`), or the owner's quota of jobs or outstanding work is reached (`--max-owner-jobs`, `--max-owner-cost`: `/problems/over-quota`, with `limit` and the figures); `Retry-After` says when to try again", headers(("Retry-After" = u64, description = "Seconds to wait")), body = crate::http::problem::Problem, content_type = "application/problem+json"),
        (status = 507, description = "The owner's jobs store as many bytes as one owner may (`--max-owner-bytes`; `stored_bytes`, `max_owner_bytes`): delete some first", body = crate::http::problem::Problem, content_type = "application/problem+json"),
        (status = 401, description = "Starting a ladder needs a token (`Authorization: Bearer`) on this service, or the one sent is unknown or revoked", body = crate::http::problem::Problem, content_type = "application/problem+json", headers(("WWW-Authenticate" = String, description = "`Bearer realm=\"tsoro\"`"))),
        (status = 403, description = "The token is a reader's (starting jobs needs runner or admin), or the request came from a page of another site", body = crate::http::problem::Problem, content_type = "application/problem+json"),
    ),
    security((), ("bearer" = [])))]
/// Queues a ladder (202 with its URL; owned by the token's holder): one family of agents at
/// rising strength (`tsoro ladder`), each level playing itself and the level above `pairs`
/// seat-swapped pairs of games. It is a tournament: read, cancel and export it under
/// `/api/v1/tournaments/{id}`.
pub async fn create_ladder(
    req: HttpRequest,
    access: Access,
    client: Client,
    state: web::Data<AppState>,
    limits: web::Data<JobSettings>,
    body: crate::http::extract::JsonObject<LadderRequest>,
) -> Result<HttpResponse, Problem> {
    let account = account(access.may_create()?, client);
    let (b, l) = (body.into_inner(), limits.clone());
    let checked = priced(req.path(), move || check_ladder(&b, &l)).await?;
    queue(&req, &state, &limits, account, checked).await
}

#[utoipa::path(get, path = "/api/v1/tournaments/{id}", tag = "tournaments", operation_id = "show_tournament",
    params(("id" = String, Path, description = "Tournament id"), ("wait" = Option<u64>, Query, description = "Seconds (at most 60) to wait for the tournament to end", maximum = 60)),
    responses((status = 200, description = "Status and progress and, when done, the results: ratings with 95% intervals, the first-move advantage in Elo with its interval, each pairing's score by seat with Wilson intervals", body = TournamentView), (status = 400, description = "A bad `wait`", body = crate::http::problem::Problem, content_type = "application/problem+json"), (status = 404, description = "No such tournament", body = crate::http::problem::Problem, content_type = "application/problem+json")))]
/// A tournament's status, progress and, when done, its results (`?wait=` to await it).
pub async fn show(
    req: HttpRequest,
    state: web::Data<AppState>,
    events: web::Data<crate::jobs::events::JobEvents>,
    reads: web::Data<JobReads>,
    path: web::Path<String>,
    q: web::Query<WaitQuery>,
) -> Result<HttpResponse, Problem> {
    TOURNAMENT
        .show(&req, &state, &events, &reads, &path, &q)
        .await
}

#[utoipa::path(delete, path = "/api/v1/tournaments/{id}", tag = "tournaments", operation_id = "cancel_tournament", params(("id" = String, Path, description = "Tournament id"), ("purge" = Option<bool>, Query, description = "Delete the tournament and everything it stored (whatever its status; a running one stops), answering its id and `freed_bytes`")),
    responses((status = 200, description = "Cancelled: the tournament (a `TournamentView`); with `purge=true`, deleted: its `id`, `deleted`, `status_before` and `freed_bytes` (the bytes its records and aggregates took as stored, which PostgreSQL reuses for new records; its files shrink only when compacted, `VACUUM FULL`)", body = Object), (status = 409, description = "Already ended (without `purge`)", body = crate::http::problem::Problem, content_type = "application/problem+json"), (status = 404, description = "No such tournament", body = crate::http::problem::Problem, content_type = "application/problem+json"), (status = 401, description = "Stopping or deleting a tournament needs a token (`Authorization: Bearer`) on this service, or the one sent is unknown or revoked", body = crate::http::problem::Problem, content_type = "application/problem+json", headers(("WWW-Authenticate" = String, description = "`Bearer realm=\"tsoro\"`"))), (status = 403, description = "Another's tournament (stopping or deleting it needs an admin token), or the request came from a page of another site", body = crate::http::problem::Problem, content_type = "application/problem+json")),
    security((), ("bearer" = [])))]
/// Cancels a tournament; with `?purge=true`, deletes it and everything it stored (its owner
/// or an admin).
pub async fn cancel(
    req: HttpRequest,
    access: Access,
    state: web::Data<AppState>,
    path: web::Path<String>,
    q: web::Query<DeleteQuery>,
) -> Result<HttpResponse, Problem> {
    TOURNAMENT
        .cancel(&req, &access, &state, &path, q.purge, TOURNAMENT.what)
        .await
}

#[utoipa::path(get, path = "/api/v1/tournaments/{id}/games.csv", tag = "tournaments", operation_id = "tournament_games_csv", params(("id" = String, Path, description = "Tournament id")),
    responses((status = 200, description = "Every game, in order (pairing, pair, game), streamed: the columns of `tsoro tournament --csv`'s games.csv", body = String, content_type = "text/csv", headers(("Content-Disposition" = String, description = "`attachment; filename=\"games.csv\"`: the path the data package gives"))), (status = 404, description = "No such tournament", body = crate::http::problem::Problem, content_type = "application/problem+json"), (status = 409, description = "The tournament is not done", body = crate::http::problem::Problem, content_type = "application/problem+json"), (status = 429, description = "This client streams as many exports as one client may (`--max-client-exports`); `Retry-After` says when to try again", headers(("Retry-After" = u64, description = "Seconds to wait")), body = crate::http::problem::Problem, content_type = "application/problem+json"), (status = 503, description = "Too many exports streaming (`--max-exports`), or the database is unavailable; `Retry-After` says when to try again", headers(("Retry-After" = u64, description = "Seconds to wait")), body = crate::http::problem::Problem, content_type = "application/problem+json")))]
/// Every game of a finished tournament, as CSV, streamed in the exports' slots.
pub async fn games_csv(
    req: HttpRequest,
    state: web::Data<AppState>,
    exports: web::Data<export::Exports>,
    client: Client,
    path: web::Path<String>,
) -> Result<HttpResponse, Problem> {
    let job = TOURNAMENT.load_done(&state, &path, req.path()).await?;
    let conn = crate::http::client::socket_of(&req);
    let body = export::tournament_games_csv(&exports, &job, &client.0, conn)
        .await
        .map_err(|e| Problem::from(e).at(req.path()))?;
    Ok(csv(Some(export::GAMES_FILE)).streaming(streamed(body)))
}

#[utoipa::path(get, path = "/api/v1/tournaments/{id}/ratings.csv", tag = "tournaments", operation_id = "tournament_ratings_csv", params(("id" = String, Path, description = "Tournament id")),
    responses((status = 200, description = "The ratings with their 95% intervals, and the first-move term: `tsoro tournament --csv`'s ratings.csv", body = String, content_type = "text/csv"), (status = 404, description = "No such tournament", body = crate::http::problem::Problem, content_type = "application/problem+json"), (status = 409, description = "The tournament is not done", body = crate::http::problem::Problem, content_type = "application/problem+json")))]
/// A finished tournament's ratings, as CSV.
pub async fn ratings_csv(
    req: HttpRequest,
    state: web::Data<AppState>,
    path: web::Path<String>,
) -> Result<HttpResponse, Problem> {
    let job = TOURNAMENT.load_done(&state, &path, req.path()).await?;
    let body = kept_csv(&job, "ratings_csv", "a done tournament without its ratings")?;
    Ok(csv(None).body(body))
}

#[utoipa::path(get, path = "/api/v1/tournaments/{id}/ladder.csv", tag = "tournaments", operation_id = "tournament_ladder_csv", params(("id" = String, Path, description = "Tournament id (a ladder's)")),
    responses((status = 200, description = "The ladder's rungs, weakest first: per level the first player's score in its self-play, draws, decisive share and mean turns, its score against the level below (the skill trace) and its rating, each with its 95% interval, and whether the trace has flattened there: `tsoro ladder --csv`'s ladder.csv", body = String, content_type = "text/csv"), (status = 404, description = "No such tournament, or it is not a ladder", body = crate::http::problem::Problem, content_type = "application/problem+json"), (status = 409, description = "The ladder is not done", body = crate::http::problem::Problem, content_type = "application/problem+json")))]
/// A finished ladder's rungs, as CSV.
pub async fn ladder_csv(
    req: HttpRequest,
    state: web::Data<AppState>,
    path: web::Path<String>,
) -> Result<HttpResponse, Problem> {
    let job = LADDER.load_done(&state, &path, req.path()).await?;
    let body = kept_csv(&job, "ladder_csv", "a done ladder without its rungs")?;
    Ok(csv(None).body(body))
}

#[utoipa::path(get, path = "/api/v1/tournaments/{id}/datapackage.json", tag = "tournaments", operation_id = "tournament_datapackage", params(("id" = String, Path, description = "Tournament id")),
    responses((status = 200, description = "A Frictionless Tabular Data Package describing games.csv and ratings.csv, and for a ladder ladder.csv", body = Object), (status = 404, description = "No such tournament", body = crate::http::problem::Problem, content_type = "application/problem+json")))]
/// The Frictionless data package describing a tournament's exports.
pub async fn datapackage(
    req: HttpRequest,
    state: web::Data<AppState>,
    path: web::Path<String>,
) -> Result<HttpResponse, Problem> {
    let job = TOURNAMENT.load(&state, &path, req.path()).await?;
    Ok(HttpResponse::Ok().json(tournament::datapackage(&job)))
}
