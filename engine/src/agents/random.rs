//! The uniform random agent.

use super::Agent;
use crate::game::Game;
use crate::rng::Rng;

/// Uniform over the legal actions.
#[derive(Clone, Copy, Debug, Default)]
pub struct RandomAgent;

impl<G: Game> Agent<G> for RandomAgent {
    #[inline]
    fn choose(&mut self, g: &G, s: &G::State, rng: &mut Rng) -> G::Action {
        g.random_action(s, rng)
            .expect("an agent is only asked to move in a live game")
    }
}
