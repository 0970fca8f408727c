//! One game of a job played again from the job's inputs and the game's seed: its actions, as
//! `/replay` takes them (the game is a function of them, so nothing needs storing).

use super::store::JobRow;
use super::view::{JobGame, job_url};
use thiserror::Error;
use tsoro_engine::agents::AgentSpec;

/// Why a job's game cannot be played again.
#[derive(Debug, Error)]
pub enum JobGameError {
    /// The job has no game of this index.
    #[error("no game {k}: the job has games 0 to {last}")]
    NoSuchGame {
        /// The index asked for.
        k: u64,
        /// The job's last game.
        last: i64,
    },
    /// The job's agents take too long to play a game while a request waits.
    #[error(
        "{0} vs {1}: games of agents stronger than alphabeta:4 or mcts:20000 are not \
         replayed on request (tsoro simulate plays them)"
    )]
    TooStrong(AgentSpec, AgentSpec),
    /// The stored job does not read (a fault of the service's).
    #[error("a stored job does not read: {0}")]
    Stored(String),
}

/// Agents whose games are replayed on request (stronger ones would make a request wait).
fn cheap_to_replay(agent: &AgentSpec) -> bool {
    match agent {
        AgentSpec::Random | AgentSpec::Greedy => true,
        AgentSpec::AlphaBeta { depth, .. } => *depth <= 4,
        AgentSpec::Mcts { iterations, .. } => *iterations <= 20_000,
        AgentSpec::Deepening { .. } | AgentSpec::MctsTimed { .. } => false,
    }
}

/// Game `k` of a job, played again from the job's inputs and the game's seed.
pub fn job_game(job: &JobRow, k: u64) -> Result<JobGame, JobGameError> {
    if k >= job.games as u64 {
        return Err(JobGameError::NoSuchGame {
            k,
            last: job.games - 1,
        });
    }
    let stored = |e: &dyn std::fmt::Display| JobGameError::Stored(e.to_string());
    let params: tsoro_engine::catalogue::Params =
        serde_json::from_value(job.params.clone()).map_err(|e| stored(&e))?;
    let def = tsoro_engine::catalogue::get(&job.ruleset).map_err(|e| stored(&e))?;
    let game = def.build(&params).map_err(|e| stored(&e))?;
    let agents: Vec<AgentSpec> = job
        .agents
        .iter()
        .map(|a| a.parse::<AgentSpec>())
        .collect::<Result<_, _>>()
        .map_err(|e| stored(&e))?;
    let [a, b] = agents.as_slice() else {
        return Err(JobGameError::Stored("a job has two agents".into()));
    };
    if !cheap_to_replay(a) || !cheap_to_replay(b) {
        return Err(JobGameError::TooStrong(*a, *b));
    }
    let spec = tsoro_engine::sim::SimSpec {
        agents: [*a, *b],
        games: k..k + 1,
        seed: job.seed,
        swap_seats: job.swap_seats,
    };
    let actions = tsoro_engine::sim::game_actions_any(&game, &spec, k);
    Ok(JobGame {
        simulation: job_url(job.id),
        game: k,
        ruleset: job.ruleset.clone(),
        params: job.params.clone(),
        agents: job.agents.clone(),
        seat_a: if job.swap_seats { k % 2 } else { 0 },
        actions,
    })
}
