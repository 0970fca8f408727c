//! What a job would cost before it is accepted: an estimate of the CPU time its games take,
//! refused over the service's budget (`--max-job-cost`) with 422 naming the estimate and the
//! bound.
//!
//! The model, in core-seconds of the machine the figures were measured on (the README's
//! benchmarks: a 2-core AMD EPYC, release build, one thread):
//! - the ruleset's game length and branching are sampled from [`SAMPLE_GAMES`] random games
//!   (the kernel plays them in well under a millisecond for most rulesets);
//! - an action through the reference rules costs [`REFERENCE_ACTION`] (186,000-196,000 random
//!   games/s of [`ACTIONS_4X8`] actions on tsoro 4x8, `tsoro simulate --reference`), one in a
//!   random-vs-random kernel run [`KERNEL_ACTION`] (1,100,000 games/s: what a job plays, between
//!   its measured 85% of `tsoro simulate`'s 1,150,000 and the kernel's own 1,380,000);
//! - a greedy decision tries every legal action: branching × [`REFERENCE_ACTION`];
//! - an alpha-beta decision of depth d searches about branching^(3d/4) positions (between the
//!   perfectly ordered b^(d/2) and the unpruned b^d), each [`REFERENCE_ACTION`];
//! - an MCTS iteration costs [`MCTS_ITERATION`] at tsoro 4x8's opening (about 950,000
//!   iterations/s, `tsoro search --ruleset tsoro-ludii --agent mcts:100000 --threads 1`), half
//!   of it the rollout, which scales with the game's length.
//!
//! Each agent makes about half of a game's decisions. The estimate is rough (strong players'
//! games are not random ones' length: 200 games of `mcts:1000,random` on tsoro 4x8 last 47
//! turns, not 89, and take 2.5 s, where the model says 9.4) but it is of the right order, which
//! is what a budget needs: it tells a week from a minute.

use crate::runs::plan::RunPlan;
use crate::settings::JobSettings;
use std::collections::HashMap;
use std::sync::{Mutex, OnceLock};
use tsoro_engine::agents::AgentSpec;
use tsoro_engine::sim::{SimOptions, SimSpec, simulate_any};

/// Random games sampled to learn a ruleset's length and branching.
pub const SAMPLE_GAMES: u64 = 32;
/// Actions (decisions) in a random game of tsoro 4x8 (`tsoro-ludii`), on average: the length
/// the figures below were measured on.
pub const ACTIONS_4X8: f64 = 89.0;
/// Core-seconds of one action through the reference rules.
pub const REFERENCE_ACTION: f64 = 1.0 / (196_000.0 * ACTIONS_4X8);
/// Core-seconds of one action of a random-vs-random game on the kernel.
pub const KERNEL_ACTION: f64 = 1.0 / (1_100_000.0 * ACTIONS_4X8);
/// Core-seconds of one MCTS iteration at tsoro 4x8's opening.
pub const MCTS_ITERATION: f64 = 1.0 / 950_000.0;

/// A ruleset's game as random players play it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Shape {
    /// Mean actions a game.
    pub actions: f64,
    /// Mean legal actions at a decision.
    pub branching: f64,
}

/// Most shapes kept by [`shape`] (about 100 bytes each); when full, it starts again.
pub const SHAPES_KEPT: usize = 4096;

/// The shapes measured so far, by configuration hash.
fn shapes() -> &'static Mutex<HashMap<String, Shape>> {
    static SHAPES: OnceLock<Mutex<HashMap<String, Shape>>> = OnceLock::new();
    SHAPES.get_or_init(Default::default)
}

/// The shape of the run's game: measured once per configuration (by its hash; a shape
/// depends on the configuration alone) and kept. Plays games: call it off the async
/// executor.
pub fn shape(spec: &RunPlan) -> Result<Shape, String> {
    let known = shapes()
        .lock()
        .ok()
        .and_then(|m| m.get(&spec.hash).copied());
    if let Some(s) = known {
        return Ok(s);
    }
    let s = measure_shape(spec)?;
    if let Ok(mut m) = shapes().lock() {
        if m.len() >= SHAPES_KEPT {
            m.clear();
        }
        m.insert(spec.hash.clone(), s);
    }
    Ok(s)
}

/// The shape of the run's game, from [`SAMPLE_GAMES`] random games.
fn measure_shape(spec: &RunPlan) -> Result<Shape, String> {
    let game = &spec.game;
    let sample = SimSpec {
        agents: [AgentSpec::Random; 2],
        games: 0..SAMPLE_GAMES,
        seed: 0,
        swap_seats: true,
    };
    let opts = SimOptions {
        threads: 1,
        ..SimOptions::default()
    };
    let (mut actions, mut branching) = (0.0, 0.0);
    simulate_any(game, &sample, &opts, &mut |r| {
        actions += r.actions as f64;
        branching += r.mean_branching;
    })
    .map_err(|e| e.to_string())?;
    let n = SAMPLE_GAMES as f64;
    Ok(Shape {
        actions: (actions / n).max(1.0),
        branching: (branching / n).max(1.0),
    })
}

/// Core-seconds of one decision of `agent` in a game of this shape.
pub fn decision_cost(agent: &AgentSpec, s: Shape) -> f64 {
    match agent {
        AgentSpec::Random => REFERENCE_ACTION,
        AgentSpec::Greedy => s.branching * REFERENCE_ACTION,
        AgentSpec::AlphaBeta { depth, .. } => {
            s.branching.powf(0.75 * *depth as f64).max(1.0) * REFERENCE_ACTION
        }
        AgentSpec::Mcts { iterations, .. } => {
            *iterations as f64 * MCTS_ITERATION * (0.5 + 0.5 * s.actions / ACTIONS_4X8)
        }
        // Their budget is their cost (runs refuse them: not reproducible).
        AgentSpec::Deepening { millis, .. } | AgentSpec::MctsTimed { millis, .. } => {
            *millis as f64 / 1000.0
        }
    }
}

/// Core-seconds of one game between the run's agents.
pub fn game_cost(spec: &RunPlan, s: Shape) -> f64 {
    if spec.agents == [AgentSpec::Random; 2] && !spec.reference {
        return s.actions * KERNEL_ACTION;
    }
    let decisions = s.actions / 2.0;
    decisions * (decision_cost(&spec.agents[0], s) + decision_cost(&spec.agents[1], s))
        + s.actions * REFERENCE_ACTION
}

/// Games a chunk of a job holds: about `limits.chunk_seconds` core-seconds of play at
/// `per_game` core-seconds a game, at least [`MIN_CHUNK_GAMES`] (so that a worker's threads
/// share a chunk of slow games) and at most `limits.chunk_games`.
pub fn chunk_games(per_game: f64, limits: &JobSettings) -> u64 {
    let most = limits.chunk_games.max(1);
    let fit = (limits.chunk_seconds / per_game).floor();
    // NaN (a zero cost over a zero target) and infinities fall back to the bounds.
    let fit = if fit.is_finite() { fit as u64 } else { most };
    fit.max(MIN_CHUNK_GAMES).min(most)
}

/// The fewest games a chunk holds (unless `--chunk-games` is smaller).
pub const MIN_CHUNK_GAMES: u64 = 16;

/// A run estimated to cost more core-seconds than the service allows one job.
#[derive(Clone, Debug, PartialEq)]
pub struct OverBudget {
    /// The estimated cost of the run, in core-seconds.
    pub cost: f64,
    /// The run's games.
    pub games: u64,
    /// The run's agents.
    pub agents: [AgentSpec; 2],
    /// The estimated cost of a game, in core-seconds.
    pub per_game: f64,
    /// The most a job may cost (`--max-job-cost`).
    pub max_job_cost: f64,
}

impl std::fmt::Display for OverBudget {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "this job is estimated at {:.0} core-seconds ({} games of {} vs {} at about {:.3} s \
             each), over the service's budget of {:.0} core-seconds a job (--max-job-cost): ask \
             for at most {} games, or weaker agents",
            self.cost,
            self.games,
            self.agents[0],
            self.agents[1],
            self.per_game,
            self.max_job_cost,
            (self.max_job_cost / self.per_game).floor() as u64
        )
    }
}

impl std::error::Error for OverBudget {}

/// Refuses a run whose estimated cost (`per_game` core-seconds a game) is over the budget.
pub fn check(spec: &RunPlan, per_game: f64, limits: &JobSettings) -> Result<(), OverBudget> {
    let cost = spec.games as f64 * per_game;
    if cost <= limits.max_job_cost {
        return Ok(());
    }
    Err(OverBudget {
        cost,
        games: spec.games,
        agents: spec.agents,
        per_game,
        max_job_cost: limits.max_job_cost,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_configuration_is_measured_once_and_kept_by_its_hash() {
        let req = serde_json::from_value(serde_json::json!(
            {"ruleset": "tsoro-russ", "games": 10}
        ))
        .unwrap();
        let plan = crate::runs::plan::plan(&req, u64::MAX).unwrap();
        let measured = shape(&plan).unwrap();
        assert_eq!(measured, measure_shape(&plan).unwrap());
        assert_eq!(shapes().lock().unwrap().get(&plan.hash), Some(&measured));
        // What is kept is what is answered: a planted shape comes back without a game played.
        let planted = Shape {
            actions: 1234.0,
            branching: 5.0,
        };
        shapes().lock().unwrap().insert(plan.hash.clone(), planted);
        assert_eq!(shape(&plan).unwrap(), planted);
        shapes().lock().unwrap().remove(&plan.hash);
    }
}
