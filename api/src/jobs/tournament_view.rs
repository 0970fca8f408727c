//! What the tournaments API answers: a tournament job, its progress and, when done, its
//! results (the report `tsoro tournament --json` prints, and the agents' time per decision).

use super::status::JobStatus;
use super::store::{JobRow, JobUsage};
use super::tournament::Stored;
use super::view::{Estimate, Paused, Progress};
use crate::runs::tournament::{Ladder, command};
use chrono::{DateTime, Utc};
use serde::Serialize;
use serde_json::Value;
use utoipa::ToSchema;
use uuid::Uuid;

/// The URL of a tournament.
pub fn tournament_url(id: Uuid) -> String {
    format!("/api/v1/tournaments/{id}")
}

/// The page of a tournament.
pub fn tournament_page(id: Uuid) -> String {
    format!("/tournaments/{id}")
}

/// Where a tournament's exports are (each answers 409 until it is done).
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct TournamentLinks {
    /// Every game as CSV.
    pub games_csv: String,
    /// The ratings (and the first-move term) as CSV.
    pub ratings_csv: String,
    /// A ladder's rungs as CSV (only for a ladder).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ladder_csv: Option<String>,
    /// The Frictionless data package describing the CSV files.
    pub datapackage: String,
    /// Its page.
    pub page: String,
}

/// A tournament job: what it plays, its progress and, when done, its results.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct TournamentView {
    /// The tournament's id.
    pub id: Uuid,
    /// Its URL.
    pub url: String,
    /// Where it is in its life.
    pub status: JobStatus,
    /// The ruleset id.
    pub ruleset: String,
    /// The version played: sha256 of the resolved configuration.
    pub ruleset_version: String,
    /// Every parameter in force.
    #[schema(value_type = HashMap<String, Value>)]
    pub params: Value,
    /// The agents, by index.
    pub agents: Vec<String>,
    /// The ladder that defines the agents and pairings (`POST /api/v1/ladders`), if it is
    /// one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ladder: Option<Ladder>,
    /// The pairings, as agent indices (`[i, i]`: agent i against itself).
    pub pairings: Vec<[usize; 2]>,
    /// Seat-swapped pairs of games per pairing.
    pub pairs: u64,
    /// The seed, an unsigned 64-bit integer as a decimal string.
    #[schema(example = "7")]
    pub seed: String,
    /// Random opening plies.
    pub opening_plies: u32,
    /// Games in all.
    pub games: i64,
    /// The command line that plays the same tournament (`tsoro tournament`, or for a ladder
    /// `tsoro ladder`).
    pub command: String,
    /// How far it has got.
    pub progress: Progress,
    /// Its estimated cost when it was queued (none for tournaments queued before estimates
    /// were kept).
    pub estimate: Option<Estimate>,
    /// Why it failed.
    pub error: Option<String>,
    /// The engine version that made it (a digest of the engine's sources; none for jobs made
    /// before jobs recorded it). Only workers of that version play it.
    #[schema(example = "3f2a9c0d41b7e865")]
    pub engine_version: Option<String>,
    /// Why it waits: made by another engine version than this service's workers', which leave
    /// it to workers of its own version.
    pub held: Option<String>,
    /// Why it cannot progress now, while it has not ended (the database's disk is full: it
    /// resumes by itself once space is freed); absent when it can.
    pub paused: Option<Paused>,
    /// The name of the token that created it.
    pub owner: Option<String>,
    /// When it was queued.
    pub created_at: DateTime<Utc>,
    /// When its first chunk was claimed.
    pub started_at: Option<DateTime<Utc>>,
    /// When it ended.
    pub finished_at: Option<DateTime<Utc>>,
    /// When done: `report` (as `tsoro tournament --json` prints it: `ratings`, each agent's
    /// Elo with its 95% bootstrap interval `ci`, games and score against the others;
    /// `first_move_elo`, the first mover's advantage in Elo with its interval; `pairings`,
    /// each pairing's score by seat with Wilson intervals, over both seats the first agent's
    /// and the first player's scores, draws and turns with intervals from a bootstrap over
    /// pairs, and `distinct_games`; `method` and `bootstrap`) and `time` (each agent's decisions
    /// and CPU time per decision: measured, so not reproducible); for a ladder also `ladder`
    /// (as `tsoro ladder --json` prints it: per level `rungs`, the first player's score in its
    /// self-play, draws, decisive share and turns with 95% intervals, its score against the
    /// level below (the skill trace, `skill`), that doubling's gain in Elo (`doubling`) and
    /// rating; `flat_from`, the level from which every doubling is shown to gain under 30 Elo
    /// (an equivalence test), if one is; `verdict`, what the trace shows in a sentence;
    /// `first_move_elo`).
    #[schema(value_type = Option<Object>)]
    pub results: Option<Value>,
    /// Its exports.
    pub links: TournamentLinks,
}

impl TournamentView {
    /// The view of a stored tournament job with what its chunks add up to.
    pub fn of(job: &JobRow, usage: &JobUsage) -> TournamentView {
        let url = tournament_url(job.id);
        let (pairs, opening_plies, pairings, ladder) = Stored::of_job(job)
            .map(|s| (s.pairs, s.opening_plies, s.pairings, s.ladder))
            .unwrap_or_default();
        let ladder_csv = ladder.as_ref().map(|_| format!("{url}/ladder.csv"));
        let results = job
            .summary
            .as_ref()
            .filter(|_| job.status == JobStatus::Done)
            .map(|s| {
                let mut r = serde_json::json!({"report": s["report"], "time": s["time"]});
                if ladder.is_some() {
                    r["ladder"] = s["ladder"].clone();
                }
                r
            });
        TournamentView {
            id: job.id,
            status: job.status,
            ruleset: job.ruleset.clone(),
            ruleset_version: job.ruleset_hash.clone(),
            command: command(
                &job.ruleset,
                &job.params,
                &job.agents,
                ladder.as_ref(),
                pairs,
                job.seed,
                opening_plies,
            ),
            params: job.params.clone(),
            agents: job.agents.clone(),
            ladder,
            pairings,
            pairs,
            seed: job.seed.to_string(),
            opening_plies,
            games: job.games,
            progress: Progress::of(job, usage, Utc::now()),
            estimate: Estimate::of([job.estimated_cost]),
            error: job.error.clone(),
            engine_version: job.engine_version.clone(),
            held: job.held_back(),
            paused: Paused::of(job),
            owner: job.owner.clone(),
            created_at: job.created_at,
            started_at: job.started_at,
            finished_at: job.finished_at,
            results,
            links: TournamentLinks {
                games_csv: format!("{url}/games.csv"),
                ratings_csv: format!("{url}/ratings.csv"),
                ladder_csv,
                datapackage: format!("{url}/datapackage.json"),
                page: tournament_page(job.id),
            },
            url,
        }
    }
}

/// Tournaments, newest first.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct TournamentList {
    /// The tournaments.
    pub items: Vec<TournamentView>,
}
