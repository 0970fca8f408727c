//! What an agent thinks of a position: the action it chooses and its view of each candidate,
//! for `tsoro search` and the web pages.

use super::{AgentSpec, AlphaBetaAgent, MctsAgent};
use crate::anygame::{AnyAction, AnyGame};
use crate::game::{ActionList, Game};
use crate::player::Player;
use crate::replay::{ReplayError, position_after};
use crate::rng::Rng;
use serde::Serialize;
use serde_json::Value;

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
    /// The same analysis with each action mapped by `f`.
    pub fn map<B>(self, f: impl Fn(A) -> B) -> Analysis<B> {
        Analysis {
            action: f(self.action),
            candidates: self
                .candidates
                .into_iter()
                .map(|c| Candidate {
                    action: f(c.action),
                    visits: c.visits,
                    value: c.value,
                    score: c.score,
                })
                .collect(),
            iterations: self.iterations,
        }
    }

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
        AgentSpec::MctsTimed { micros, c } => MctsAgent::timed(micros, c).analyse(g, s, rng),
        AgentSpec::Deepening { budget, eval } => {
            let (action, _, nodes) = super::DeepeningAgent::new(budget, eval).decide(g, s, rng);
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

/// The generator an agent draws from after `after` actions of a game analysed with `seed`:
/// that of game `after` of a run with `seed` ([`Rng::for_game`]), so that one seed plays a
/// whole game against the computer without the agent's numbers repeating at every move. The
/// one seeding rule of [`analyse_after`].
pub fn rng_after(seed: u64, after: usize) -> Rng {
    Rng::for_game(seed, after as u64)
}

/// What an agent plays after a recorded game's actions, and who is to move.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct AnalysisAfter {
    /// The player to move.
    pub to_move: Player,
    /// The agent's choice and its view of every candidate.
    #[serde(flatten)]
    pub analysis: Analysis<AnyAction>,
}

/// Why no move could be chosen after a recorded game's actions.
#[derive(Debug, Clone, thiserror::Error)]
pub enum AnalyseError {
    /// An action is not an action of this game, or not legal where it stands.
    #[error(transparent)]
    Replay(#[from] ReplayError),
    /// The game is over after them.
    #[error("the game is over after these {0} actions: there is nothing to choose")]
    Over(usize),
}

/// What `agent` plays after `actions` (the start when there are none), with its view of
/// every candidate: the one call the command line (`tsoro search`), the API (`agent-move`)
/// and the pages make. Its random numbers (ties, rollouts) come from
/// [`rng_after`]`(seed, actions.len())`.
pub fn analyse_after(
    game: &AnyGame,
    actions: &[Value],
    agent: AgentSpec,
    seed: u64,
) -> Result<AnalysisAfter, AnalyseError> {
    crate::with_game!(game, g => after_in(g, actions, agent, seed))
}

fn after_in<G: Game + 'static>(
    g: &G,
    actions: &[Value],
    agent: AgentSpec,
    seed: u64,
) -> Result<AnalysisAfter, AnalyseError>
where
    G::Action: Into<AnyAction>,
{
    let s = position_after(g, actions)?;
    let over = || AnalyseError::Over(actions.len());
    let to_move = g.to_move(&s).ok_or_else(over)?;
    let found = analyse(g, &s, agent, &mut rng_after(seed, actions.len())).map_err(|_| over())?;
    Ok(AnalysisAfter {
        to_move,
        analysis: found.map(Into::into),
    })
}
