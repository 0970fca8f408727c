//! The greedy agent: the action that captures most stones this turn.

use super::Agent;
use crate::game::{ActionList, Game};
use crate::player::Player;
use crate::rng::Rng;

/// Picks the action that takes most of the opponent's stones this turn (a sow's own captures,
/// a take's stones, and what the mover's further decisions of the same turn can add: a relay
/// choice, the take after a line), measured by applying it to a copy. An action that wins the
/// game outright beats any capture. Ties are broken uniformly at random.
#[derive(Clone, Copy, Debug, Default)]
pub struct GreedyAgent;

/// Stones the mover takes from the opponent by playing `a` at `s`.
pub(crate) fn gain<G: Game>(g: &G, s: &G::State, me: Player, a: G::Action) -> i32 {
    gain_within_turn(g, s, me, a, g.material(s, me.other()), 6)
}

/// Stones `a` alone takes (for cheap move ordering).
pub(crate) fn immediate_gain<G: Game>(g: &G, s: &G::State, me: Player, a: G::Action) -> i32 {
    gain_within_turn(g, s, me, a, g.material(s, me.other()), 0)
}

/// Value of winning outright, above any number of stones.
const WIN: i32 = 1 << 20;

/// Stones taken from `before` (the opponent's material when the turn began) by `a` and the
/// best of the mover's next `depth` decisions of the same turn.
fn gain_within_turn<G: Game>(
    g: &G,
    s: &G::State,
    me: Player,
    a: G::Action,
    before: i32,
    depth: u32,
) -> i32 {
    let mut t = s.clone();
    g.apply_unchecked(&mut t, a);
    if let Some(o) = g.outcome(&t) {
        match o.winner {
            Some(w) if w == me => return WIN,
            Some(_) => return -WIN,
            None => {}
        }
    }
    let now = before - g.material(&t, me.other());
    if depth == 0 || g.to_move(&t) != Some(me) {
        return now;
    }
    let mut legal = ActionList::new();
    g.legal_actions(&t, &mut legal);
    legal
        .iter()
        .map(|&b| gain_within_turn(g, &t, me, b, before, depth - 1))
        .max()
        .unwrap_or(now)
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
