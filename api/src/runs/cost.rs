//! What a job would cost before it is accepted: an estimate of the CPU time its games take,
//! refused over the service's budget (`--max-job-cost`) with 422 naming the estimate and the
//! bound.
//!
//! A game's price comes from its real agents on its real ruleset:
//! - the ruleset's game length and branching are sampled from [`SAMPLE_GAMES`] random games
//!   (the kernel plays them in well under a millisecond for most rulesets);
//! - random players are priced by measured rates: an action through the reference rules costs
//!   [`REFERENCE_ACTION`] (186,000-196,000 random games/s of [`ACTIONS_4X8`] actions on tsoro
//!   4x8, `tsoro simulate --reference`), one in a random-vs-random kernel run
//!   [`KERNEL_ACTION`] (1,100,000 games/s: what a job plays, between its measured 85% of
//!   `tsoro simulate`'s 1,150,000 and the kernel's own 1,380,000);
//! - every other agent with a fixed depth or number of iterations has no rate that holds
//!   across rulesets (alpha-beta's cost grows with the branching to the power of the depth,
//!   which differs by orders of magnitude between tsoro 4x8 and tsoro-russ), so its decisions
//!   are **timed**: [`SAMPLE_DECISIONS`] decisions at positions spread over a random game of the
//!   ruleset, on one thread, by that thread's CPU clock, at most [`SAMPLE_SECONDS`] in all
//!   (a search still running then is stopped, and what was spent is a lower bound of the
//!   price). The rate is kept per ruleset configuration and agent ([`decision_rate`]);
//! - an agent with a time budget per decision costs its budget.
//!
//! Each agent makes about half of a game's decisions. The estimate is rough (strong players'
//! games are not random ones' length: 200 games of `mcts:1000,random` on tsoro 4x8 last 47
//! turns, not 89) and the timed rate depends on the machine and its load, but it is of the
//! right order, which is what a budget needs: it tells a week from a minute.

use crate::runs::plan::RunPlan;
use crate::settings::JobSettings;
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;
use tsoro_engine::AnyGame;
use tsoro_engine::agents::{AgentSpec, Budget, stop};
use tsoro_engine::clock::thread_cpu;
use tsoro_engine::game::Game;
use tsoro_engine::rng::Rng;
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
/// Decisions of an agent timed to learn its rate on a ruleset.
pub const SAMPLE_DECISIONS: usize = 8;
/// Most seconds the timed decisions of one agent on one ruleset take together; a search
/// still running then is stopped.
pub const SAMPLE_SECONDS: f64 = 1.0;
/// Most actions of the random game the timed decisions are spread over.
const SAMPLE_ACTIONS: usize = 4096;

/// A ruleset's game as random players play it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Shape {
    /// Mean actions a game.
    pub actions: f64,
    /// Mean legal actions at a decision.
    pub branching: f64,
}

/// Most shapes and rates kept by [`shape`] and [`decision_rate`] (about 100 bytes each);
/// when full, they start again.
pub const SHAPES_KEPT: usize = 4096;

/// The shapes measured so far, by configuration hash.
fn shapes() -> &'static Mutex<HashMap<String, Shape>> {
    static SHAPES: OnceLock<Mutex<HashMap<String, Shape>>> = OnceLock::new();
    SHAPES.get_or_init(Default::default)
}

/// Looks `key` up in `cache`, or measures and keeps it.
fn kept<K: std::hash::Hash + Eq + Clone, V: Copy>(
    cache: &Mutex<HashMap<K, V>>,
    key: &K,
    measure: impl FnOnce() -> Result<V, String>,
) -> Result<V, String> {
    if let Some(v) = cache.lock().ok().and_then(|m| m.get(key).copied()) {
        return Ok(v);
    }
    let v = measure()?;
    if let Ok(mut m) = cache.lock() {
        if m.len() >= SHAPES_KEPT {
            m.clear();
        }
        m.insert(key.clone(), v);
    }
    Ok(v)
}

/// The shape of the game of configuration `hash`: measured once per configuration (a shape
/// depends on the configuration alone) and kept. Plays games: call it off the async executor.
pub fn shape(hash: &str, game: &AnyGame) -> Result<Shape, String> {
    kept(shapes(), &hash.to_string(), || measure_shape(game))
}

/// The shape of the game, from [`SAMPLE_GAMES`] random games.
fn measure_shape(game: &AnyGame) -> Result<Shape, String> {
    let sample = SimSpec {
        agents: [AgentSpec::Random; 2],
        games: 0..SAMPLE_GAMES,
        seed: 0,
        swap_seats: true,
        opening_plies: 0,
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

/// What one decision of an agent costs on a ruleset, as timed.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DecisionRate {
    /// Mean core-seconds of a decision.
    pub seconds: f64,
    /// The sample ran out of time inside a search: `seconds` is a lower bound.
    pub at_least: bool,
}

/// The rates timed so far, by configuration hash and agent.
fn rates() -> &'static Mutex<HashMap<(String, String), DecisionRate>> {
    static RATES: OnceLock<Mutex<HashMap<(String, String), DecisionRate>>> = OnceLock::new();
    RATES.get_or_init(Default::default)
}

/// The rate of `agent`'s decisions on the game of configuration `hash`: timed once per
/// configuration and agent ([`SAMPLE_DECISIONS`] decisions, at most [`SAMPLE_SECONDS`]) and
/// kept. Plays: call it off the async executor.
pub fn decision_rate(
    hash: &str,
    game: &AnyGame,
    agent: &AgentSpec,
) -> Result<DecisionRate, String> {
    let key = (hash.to_string(), agent.to_string());
    kept(rates(), &key, || {
        // One thread, so that the searches' parallel parts run where the clock is read.
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(1)
            .build()
            .map_err(|e| e.to_string())?;
        let agent = *agent;
        Ok(pool.install(
            || tsoro_engine::with_game!(game, g => time_decisions(g, agent, SAMPLE_SECONDS)),
        ))
    })
}

/// Times `agent`'s decisions at [`SAMPLE_DECISIONS`] positions spread over a random game (the
/// same game every time), stopping a search still running after `budget` seconds.
fn time_decisions<G: Game + 'static>(g: &G, agent: AgentSpec, budget: f64) -> DecisionRate {
    let mut rng = Rng::for_game(0, 0);
    let mut s = g.initial_state();
    let mut positions = Vec::new();
    while g.to_move(&s).is_some() && positions.len() < SAMPLE_ACTIONS {
        positions.push(s.clone());
        let Some(a) = g.random_action(&s, &mut rng) else {
            break;
        };
        g.apply_unchecked(&mut s, a);
    }
    if positions.is_empty() {
        return DecisionRate {
            seconds: 0.0,
            at_least: false,
        };
    }
    let stop_flag = Arc::new(AtomicBool::new(false));
    // The timer: sets the stop flag after the budget, or leaves when the sample is done
    // (its sender dropped).
    let (done, wait) = std::sync::mpsc::channel::<()>();
    let timer = {
        let flag = stop_flag.clone();
        std::thread::spawn(move || {
            if let Err(std::sync::mpsc::RecvTimeoutError::Timeout) =
                wait.recv_timeout(Duration::from_secs_f64(budget))
            {
                flag.store(true, Ordering::Relaxed);
            }
        })
    };
    let mut player = agent.build::<G>();
    let picks = SAMPLE_DECISIONS.min(positions.len());
    let (mut spent, mut timed) = (Duration::ZERO, 0usize);
    for i in 0..picks {
        if stop_flag.load(Ordering::Relaxed) {
            break;
        }
        let at = &positions[i * positions.len() / picks];
        let mut rng = Rng::for_game(1, i as u64);
        let t0 = thread_cpu();
        stop::scoped(Some(&stop_flag), || player.choose(g, at, &mut rng));
        spent += thread_cpu().saturating_sub(t0);
        timed += 1;
    }
    let at_least = stop_flag.load(Ordering::Relaxed);
    drop(done);
    let _ = timer.join();
    DecisionRate {
        seconds: spent.as_secs_f64() / timed.max(1) as f64,
        at_least,
    }
}

/// What a game between two agents costs.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Price {
    /// Core-seconds a game.
    pub per_game: f64,
    /// A timed sample ran out of time: `per_game` is a lower bound.
    pub at_least: bool,
}

/// Core-seconds of one game between `agents` on the game of configuration `hash` (through the
/// reference rules when `reference`): the one pricing of a pairing, whatever the job that
/// plays it. Plays and times games: call it off the async executor.
pub fn game_price(
    hash: &str,
    game: &AnyGame,
    agents: &[AgentSpec; 2],
    reference: bool,
) -> Result<Price, String> {
    let s = shape(hash, game)?;
    if *agents == [AgentSpec::Random; 2] && !reference {
        return Ok(Price {
            per_game: s.actions * KERNEL_ACTION,
            at_least: false,
        });
    }
    let mut decisions = 0.0;
    let mut at_least = false;
    for agent in agents {
        decisions += match agent {
            AgentSpec::Random => REFERENCE_ACTION,
            // Their budget is their cost (runs refuse them: not reproducible).
            AgentSpec::Deepening {
                budget: Budget::Micros(micros),
                ..
            }
            | AgentSpec::MctsTimed { micros, .. } => *micros as f64 / 1e6,
            _ => {
                let r = decision_rate(hash, game, agent)?;
                at_least |= r.at_least;
                r.seconds
            }
        };
    }
    Ok(Price {
        per_game: s.actions / 2.0 * decisions + s.actions * REFERENCE_ACTION,
        at_least,
    })
}

/// The price of a game of the run.
pub fn price(spec: &RunPlan) -> Result<Price, String> {
    game_price(&spec.hash, &spec.game, &spec.agents, spec.reference)
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
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[error(
    "this job is estimated at {}{:.0} core-seconds ({} games of {} vs {} at about {:.3} s each, \
     from the agents' decisions timed on this ruleset), over the service's budget of {:.0} \
     core-seconds a job (--max-job-cost): ask for at most {} games, or weaker agents",
    self::at_least(*.at_least), .cost, .games, .agents[0], .agents[1], .per_game, .max_job_cost,
    (.max_job_cost / .per_game).floor() as u64
)]
pub struct OverBudget {
    /// The estimated cost of the run, in core-seconds.
    pub cost: f64,
    /// The run's games.
    pub games: u64,
    /// The run's agents.
    pub agents: [AgentSpec; 2],
    /// The estimated cost of a game, in core-seconds.
    pub per_game: f64,
    /// The estimate is a lower bound (a timed search ran out of its sample's time).
    pub at_least: bool,
    /// The most a job may cost (`--max-job-cost`).
    pub max_job_cost: f64,
}

/// How an estimate that is a lower bound is said: `at least `, else nothing.
pub fn at_least(lower_bound: bool) -> &'static str {
    if lower_bound { "at least " } else { "" }
}

/// Refuses a run whose estimated cost (`price` a game) is over the budget.
pub fn check(spec: &RunPlan, price: Price, limits: &JobSettings) -> Result<(), OverBudget> {
    let per_game = price.per_game;
    let cost = spec.games as f64 * per_game;
    if cost <= limits.max_job_cost {
        return Ok(());
    }
    Err(OverBudget {
        cost,
        games: spec.games,
        agents: spec.agents,
        per_game,
        at_least: price.at_least,
        max_job_cost: limits.max_job_cost,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plan(body: serde_json::Value) -> RunPlan {
        let req = serde_json::from_value(body).unwrap();
        crate::runs::plan::plan(&req, u64::MAX).unwrap()
    }

    #[test]
    fn a_configuration_is_measured_once_and_kept_by_its_hash() {
        let plan = plan(serde_json::json!({"ruleset": "tsoro-russ", "games": 10}));
        let measured = shape(&plan.hash, &plan.game).unwrap();
        assert_eq!(measured, measure_shape(&plan.game).unwrap());
        assert_eq!(shapes().lock().unwrap().get(&plan.hash), Some(&measured));
        // What is kept is what is answered: a planted shape comes back without a game played.
        let planted = Shape {
            actions: 1234.0,
            branching: 5.0,
        };
        shapes().lock().unwrap().insert(plan.hash.clone(), planted);
        assert_eq!(shape(&plan.hash, &plan.game).unwrap(), planted);
        shapes().lock().unwrap().remove(&plan.hash);
    }

    #[test]
    fn a_search_is_priced_by_its_decisions_on_the_ruleset_and_the_rate_is_kept() {
        let plan = plan(serde_json::json!({"ruleset": "tsoro-ludii", "games": 10}));
        let agent: AgentSpec = "greedy".parse().unwrap();
        let rate = decision_rate(&plan.hash, &plan.game, &agent).unwrap();
        assert!(rate.seconds > 0.0 && !rate.at_least, "{rate:?}");
        let key = (plan.hash.clone(), agent.to_string());
        assert_eq!(rates().lock().unwrap().get(&key), Some(&rate));
        // The price follows the kept rate: a planted second a decision makes a game cost
        // about half its actions in seconds (each agent makes half the decisions).
        let planted = DecisionRate {
            seconds: 1.0,
            at_least: true,
        };
        rates().lock().unwrap().insert(key.clone(), planted);
        let s = shape(&plan.hash, &plan.game).unwrap();
        let both = game_price(&plan.hash, &plan.game, &[agent, agent], false).unwrap();
        assert!(both.at_least);
        assert!((both.per_game - s.actions).abs() < 0.01, "{both:?} {s:?}");
        rates().lock().unwrap().remove(&key);
    }

    #[test]
    fn a_search_longer_than_the_sample_is_stopped_and_priced_at_least_at_what_it_spent() {
        let plan = plan(serde_json::json!({"ruleset": "tsoro-russ", "games": 10}));
        let agent: AgentSpec = "alphabeta:8".parse().unwrap();
        let rate = tsoro_engine::with_game!(&plan.game, g => time_decisions(g, agent, 0.05));
        assert!(rate.at_least, "{rate:?}");
        assert!(rate.seconds > 0.0, "{rate:?}");
    }
}
