//! The greedy agent: the action that captures most stones this turn.

use super::Agent;
use crate::game::{ActionList, Game};
use crate::player::Player;
use crate::rng::Rng;

/// Picks the action that takes most of the opponent's stones at once (a sow's own captures, a
/// take's stones), measured by applying it to a copy; ties are broken uniformly at random.
#[derive(Clone, Copy, Debug, Default)]
pub struct GreedyAgent;

/// Stones the mover takes from the opponent by playing `a` at `s`.
pub(crate) fn gain<G: Game>(g: &G, s: &G::State, me: Player, a: G::Action) -> i32 {
    let opp = me.other();
    let before = g.material(s, opp);
    let mut t = s.clone();
    g.apply_unchecked(&mut t, a);
    before - g.material(&t, opp)
}

impl<G: Game> Agent<G> for GreedyAgent {
    fn choose(&mut self, g: &G, s: &G::State, rng: &mut Rng) -> G::Action {
        let mut legal = ActionList::new();
        g.legal_actions(s, &mut legal);
        let me = g.to_move(s).expect("a live game");
        let mut ties = super::Ties::new();
        for &a in &legal {
            ties.offer(a, gain(g, s, me, a));
        }
        ties.pick(rng)
    }
}
