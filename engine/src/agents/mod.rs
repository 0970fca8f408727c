//! Agents: who chooses the actions. One trait for every game and every decision kind, each
//! agent named by a short string (`random`, `greedy`, `alphabeta:4`, `mcts:1000`).

mod alphabeta;
mod greedy;
mod mcts;
mod random;
pub mod search;
pub mod stop;

pub use alphabeta::AlphaBetaAgent;
pub use greedy::GreedyAgent;
pub use mcts::{MctsAgent, ROLLOUT_MOVES};
pub use random::RandomAgent;

use crate::game::Game;
use crate::rng::Rng;
use std::fmt;
use std::str::FromStr;
use thiserror::Error;

/// Chooses an action for the player to move.
pub trait Agent<G: Game>: Send {
    /// A legal action at `s`, which must not be over. All randomness comes from `rng`, so a
    /// game's record depends only on its seed.
    fn choose(&mut self, g: &G, s: &G::State, rng: &mut Rng) -> G::Action;
}

/// Keeps the best-scoring actions seen and draws one of them at random at the end.
pub(crate) struct Ties<A> {
    best: i32,
    ties: crate::game::ActionList<A>,
}

impl<A: Copy> Ties<A> {
    pub(crate) fn new() -> Self {
        Ties {
            best: i32::MIN,
            ties: crate::game::ActionList::new(),
        }
    }

    /// The best score so far (`i32::MIN` before any).
    pub(crate) fn best(&self) -> i32 {
        self.best
    }

    pub(crate) fn offer(&mut self, a: A, score: i32) {
        if score > self.best {
            self.best = score;
            self.ties.clear();
        }
        if score == self.best {
            self.ties.push(a);
        }
    }

    /// One of the best, uniformly at random. At least one action must have been offered.
    pub(crate) fn pick(&self, rng: &mut Rng) -> A {
        self.ties[rng.below(self.ties.len())]
    }
}

/// How a search agent scores a position that is not over.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Eval {
    /// Stones (pieces) on the board: one's own minus the opponent's.
    Material,
    /// Legal moves of the player to move minus the opponent's (Ludii's Tsoro agent uses
    /// alpha-beta with a mobility heuristic).
    Mobility,
}

/// An agent by name: `random`, `greedy`, `alphabeta:D[:material|mobility]`,
/// `mcts:N[:C]` (N iterations, exploration constant C, default √2).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum AgentSpec {
    /// Uniform over the legal actions.
    Random,
    /// The action that captures most stones this turn, ties broken at random.
    Greedy,
    /// Depth-limited negamax with alpha-beta pruning, depth counted in turns.
    AlphaBeta {
        /// Depth in turns.
        depth: u32,
        /// The evaluation at the leaves.
        eval: Eval,
    },
    /// UCT with random playouts.
    Mcts {
        /// Iterations per decision.
        iterations: u32,
        /// Exploration constant.
        c: f64,
    },
}

/// The agents there are, for error messages.
pub const KNOWN_AGENTS: &str =
    "random, greedy, alphabeta:D[:material|mobility] (D 1..=8), mcts:N[:C] (N 1..=1000000)";

/// A name that is not an agent.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("unknown agent {0:?}; known: {KNOWN_AGENTS}")]
pub struct UnknownAgent(pub String);

impl FromStr for AgentSpec {
    type Err = UnknownAgent;
    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let bad = || UnknownAgent(text.to_string());
        let mut parts = text.trim().split(':');
        let head = parts.next().unwrap_or_default();
        let rest: Vec<&str> = parts.collect();
        match (head, rest.as_slice()) {
            ("random", []) => Ok(AgentSpec::Random),
            ("greedy", []) => Ok(AgentSpec::Greedy),
            ("alphabeta", [d, more @ ..]) if more.len() <= 1 => {
                let depth: u32 = d.parse().map_err(|_| bad())?;
                if !(1..=8).contains(&depth) {
                    return Err(bad());
                }
                let eval = match more.first().copied() {
                    None | Some("material") => Eval::Material,
                    Some("mobility") => Eval::Mobility,
                    _ => return Err(bad()),
                };
                Ok(AgentSpec::AlphaBeta { depth, eval })
            }
            ("mcts", [n, more @ ..]) if more.len() <= 1 => {
                let iterations: u32 = n.parse().map_err(|_| bad())?;
                if !(1..=1_000_000).contains(&iterations) {
                    return Err(bad());
                }
                let c = match more.first() {
                    None => std::f64::consts::SQRT_2,
                    Some(c) => c
                        .parse::<f64>()
                        .ok()
                        .filter(|c| c.is_finite() && *c >= 0.0)
                        .ok_or_else(bad)?,
                };
                Ok(AgentSpec::Mcts { iterations, c })
            }
            _ => Err(bad()),
        }
    }
}

impl fmt::Display for AgentSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AgentSpec::Random => f.write_str("random"),
            AgentSpec::Greedy => f.write_str("greedy"),
            AgentSpec::AlphaBeta {
                depth,
                eval: Eval::Material,
            } => write!(f, "alphabeta:{depth}"),
            AgentSpec::AlphaBeta {
                depth,
                eval: Eval::Mobility,
            } => {
                write!(f, "alphabeta:{depth}:mobility")
            }
            AgentSpec::Mcts { iterations, c } if *c == std::f64::consts::SQRT_2 => {
                write!(f, "mcts:{iterations}")
            }
            AgentSpec::Mcts { iterations, c } => write!(f, "mcts:{iterations}:{c}"),
        }
    }
}

impl AgentSpec {
    /// A fresh agent of this kind for game type `G`.
    pub fn build<G: Game + 'static>(&self) -> Box<dyn Agent<G>> {
        match *self {
            AgentSpec::Random => Box::new(RandomAgent),
            AgentSpec::Greedy => Box::new(GreedyAgent),
            AgentSpec::AlphaBeta { depth, eval } => Box::new(AlphaBetaAgent { depth, eval }),
            AgentSpec::Mcts { iterations, c } => Box::new(MctsAgent { iterations, c }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for name in [
            "random",
            "greedy",
            "alphabeta:4",
            "alphabeta:2:mobility",
            "mcts:1000",
            "mcts:50:0.5",
        ] {
            let a: AgentSpec = name.parse().unwrap();
            assert_eq!(a.to_string(), name);
        }
        for bad in [
            "",
            "rand",
            "alphabeta",
            "alphabeta:0",
            "alphabeta:9",
            "mcts:x",
            "mcts:10:-1",
            "greedy:2",
        ] {
            assert!(bad.parse::<AgentSpec>().is_err(), "{bad}");
        }
    }
}
