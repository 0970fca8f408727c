//! What the tournaments API answers: a tournament job, its progress and, when done, its
//! results (the report `tsoro tournament --json` prints, and the agents' time per decision).

use super::status::JobStatus;
use super::store::{JobRow, JobUsage};
use super::tournament::Stored;
use super::view::JobCommon;
use crate::runs::tournament::{Ladder, command};
use serde::Serialize;
use serde_json::Value;
use utoipa::ToSchema;
use uuid::Uuid;

/// The URL of a tournament.
pub fn tournament_url(id: Uuid) -> String {
    super::kind::Kind::Tournament.url(id)
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
    /// What every job shows.
    #[serde(flatten)]
    pub job: JobCommon,
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
    /// Random opening plies.
    pub opening_plies: u32,
    /// The command line that plays the same tournament (`tsoro tournament`, or for a ladder
    /// `tsoro ladder`).
    pub command: String,
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
            command: command(
                &job.ruleset,
                &job.params,
                &job.agents,
                ladder.as_ref(),
                pairs,
                job.seed,
                opening_plies,
            ),
            agents: job.agents.clone(),
            ladder,
            pairings,
            pairs,
            opening_plies,
            results,
            links: TournamentLinks {
                games_csv: format!("{url}/games.csv"),
                ratings_csv: format!("{url}/ratings.csv"),
                ladder_csv,
                datapackage: format!("{url}/datapackage.json"),
                page: tournament_page(job.id),
            },
            job: JobCommon::of(job, usage),
        }
    }
}
