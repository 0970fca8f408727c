//! What an agent thinks of a position: the action it chooses and its view of each candidate,
//! for `tsoro search` and the web pages.

use super::{AgentSpec, AlphaBetaAgent, MctsAgent};
use crate::game::{ActionList, Game};
use crate::rng::Rng;
use serde::Serialize;

/// One root action and the agent's view of it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Candidate<A> {
    /// The action.
    pub action: A,
    /// Rollouts through it (MCTS).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub visits: Option<u64>,
    /// Mean reward of those rollouts for the player to move, 0 to 1 (MCTS).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub value: Option<f64>,
    /// The action's score: its search value (alpha-beta), or the stones it takes this turn
    /// (greedy; 1,048,576 for a win).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub score: Option<i64>,
}

/// The result of a search.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Analysis<A> {
    /// The action the agent plays.
    pub action: A,
    /// Every root action it considered.
    pub candidates: Vec<Candidate<A>>,
    /// Iterations (MCTS), positions searched (alpha-beta) or actions scored (greedy).
    pub iterations: u64,
}

impl<A: Copy> Analysis<A> {
    /// A position with one legal action: no search.
    pub fn forced(action: A) -> Self {
        Analysis {
            action,
            candidates: vec![],
            iterations: 0,
        }
    }
}

/// Why a position cannot be searched.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SearchError {
    /// The game is over.
    #[error("the game is over: there is nothing to choose")]
    Over,
}

/// The action `agent` chooses at `s` (the same as its [`Agent::choose`](super::Agent::choose)
/// for the same generator), with its view of every candidate. Search agents spread their work
/// over the current rayon pool; the result does not depend on its size.
pub fn analyse<G: Game + 'static>(
    g: &G,
    s: &G::State,
    agent: AgentSpec,
    rng: &mut Rng,
) -> Result<Analysis<G::Action>, SearchError> {
    g.to_move(s).ok_or(SearchError::Over)?;
    Ok(match agent {
        AgentSpec::Mcts { iterations, c } => MctsAgent::new(iterations, c).analyse(g, s, rng),
        AgentSpec::MctsTimed { millis, c } => MctsAgent::timed(millis, c).analyse(g, s, rng),
        AgentSpec::Deepening { millis, eval } => {
            let (action, _, nodes) = super::DeepeningAgent::new(millis, eval).decide(g, s, rng);
            Analysis {
                action,
                candidates: vec![],
                iterations: nodes,
            }
        }
        AgentSpec::AlphaBeta { depth, eval } => AlphaBetaAgent { depth, eval }.analyse(g, s, rng),
        AgentSpec::Greedy => {
            let scored = super::GreedyAgent::scores(g, s);
            let mut ties = super::Ties::new();
            for &(a, score) in &scored {
                ties.offer(a, score);
            }
            Analysis {
                action: ties.pick(rng),
                iterations: scored.len() as u64,
                candidates: scored
                    .into_iter()
                    .map(|(action, score)| Candidate {
                        action,
                        visits: None,
                        value: None,
                        score: Some(score as i64),
                    })
                    .collect(),
            }
        }
        AgentSpec::Random => {
            let mut legal = ActionList::new();
            g.legal_actions(s, &mut legal);
            let action = g.random_action(s, rng).ok_or(SearchError::Over)?;
            Analysis {
                action,
                iterations: 0,
                candidates: legal
                    .iter()
                    .map(|&a| Candidate {
                        action: a,
                        visits: None,
                        value: None,
                        score: None,
                    })
                    .collect(),
            }
        }
    })
}

/// What an agent chooses after a recorded game's actions (the start when there are none), with
/// its view of every candidate, as JSON: `{"action":..., "candidates":[...], "iterations":n,
/// "to_move":"A"}`. Randomness (ties, rollouts) comes from `seed`.
pub fn search_after(
    req: &crate::replay::ReplayRequest,
    agent: AgentSpec,
    seed: u64,
) -> Result<serde_json::Value, crate::replay::ReplayError> {
    let def = crate::catalogue::get(&req.ruleset)?;
    let game = def.build(&req.params)?;
    crate::with_game!(&game, g => {
        let s = crate::replay::position_after(g, &req.actions)?;
        let to_move = g.to_move(&s);
        let found = analyse(g, &s, agent, &mut Rng::from_seed(seed)).map_err(|e| {
            crate::replay::ReplayError::BadAction {
                index: req.actions.len(),
                message: e.to_string(),
            }
        })?;
        let mut v = serde_json::to_value(&found).unwrap_or_default();
        v["to_move"] = serde_json::to_value(to_move).unwrap_or_default();
        Ok(v)
    })
}
