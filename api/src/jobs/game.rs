//! One game of a job played again from the job's inputs and the game's seed: its actions, as
//! `/replay` takes them (the game is a function of them, so nothing needs storing).

use super::store::JobRow;
use super::view::{JobGame, job_url};
use thiserror::Error;
use tsoro_engine::agents::{AgentSpec, Budget};

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
        AgentSpec::Deepening {
            budget: Budget::Nodes(nodes),
            ..
        } => *nodes <= 20_000,
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
        opening_plies: 0,
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

/// Games of jobs played again, kept to answer again without playing (a game is a function of
/// its job's inputs, which never change, and a job's id is never reused): at most
/// [`crate::settings::GAMES_CACHED`], the oldest forgotten first.
#[derive(Default)]
pub struct GameCache {
    kept: std::sync::Mutex<Kept>,
}

/// A job's game: its job's id and its index.
type GameKey = (uuid::Uuid, u64);

/// The bodies kept, and their keys oldest first.
type Kept = (
    std::collections::HashMap<GameKey, std::sync::Arc<Vec<u8>>>,
    std::collections::VecDeque<GameKey>,
);

impl GameCache {
    /// The body kept for game `k` of job `id`.
    pub fn get(&self, id: uuid::Uuid, k: u64) -> Option<std::sync::Arc<Vec<u8>>> {
        self.kept.lock().ok()?.0.get(&(id, k)).cloned()
    }

    /// Keeps the body of game `k` of job `id`.
    pub fn put(&self, id: uuid::Uuid, k: u64, body: std::sync::Arc<Vec<u8>>) {
        let Ok(mut kept) = self.kept.lock() else {
            return;
        };
        let (map, order) = &mut *kept;
        if map.insert((id, k), body).is_none() {
            order.push_back((id, k));
        }
        while order.len() > crate::settings::GAMES_CACHED {
            if let Some(old) = order.pop_front() {
                map.remove(&old);
            }
        }
    }

    /// How many games are kept.
    pub fn len(&self) -> usize {
        self.kept.lock().map_or(0, |k| k.0.len())
    }

    /// Whether none is.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}
