//! The greedy agent: the action that captures most stones this turn.

use super::Agent;
use crate::game::{ActionList, Game};
use crate::player::Player;
use crate::rng::Rng;

/// Picks the action that takes most of the opponent's stones this turn (a sow's own captures,
/// a take's stones, and what the mover's next six decisions of the same turn can add: relay
/// choices, additional takes, the take after a line), measured by applying it to a copy. An
/// action that wins the game outright beats any capture. Ties are broken uniformly at random.
#[derive(Clone, Copy, Debug, Default)]
pub struct GreedyAgent;

impl GreedyAgent {
    /// The score of winning outright, above any number of stones (losing scores its negative).
    pub const WIN: i32 = 1 << 20;

    /// Further decisions of the same turn searched after each action.
    pub const DEPTH: u32 = 6;

    /// Every legal action at `s` (in the order of [`Game::legal_actions`]) with its score: the
    /// stones it and the best of the mover's next [`DEPTH`](Self::DEPTH) decisions of the same
    /// turn take, or [`WIN`](Self::WIN) (`-WIN`) where they end the game won (lost). Where the
    /// game names a dominant take ([`Game::dominant_take`]), only that take is searched: the
    /// scores are those of a search of every take.
    pub fn scores<G: Game>(g: &G, s: &G::State) -> Vec<(G::Action, i32)> {
        let mut legal = ActionList::new();
        g.legal_actions(s, &mut legal);
        let Some(me) = g.to_move(s) else {
            return Vec::new();
        };
        legal.iter().map(|&a| (a, gain(g, s, me, a))).collect()
    }
}

/// Stones the mover takes from the opponent by playing `a` at `s`.
pub(crate) fn gain<G: Game>(g: &G, s: &G::State, me: Player, a: G::Action) -> i32 {
    gain_within_turn(g, s, me, a, g.material(s, me.other()), GreedyAgent::DEPTH)
}

/// Stones `a` alone takes (for cheap move ordering).
pub(crate) fn immediate_gain<G: Game>(g: &G, s: &G::State, me: Player, a: G::Action) -> i32 {
    gain_within_turn(g, s, me, a, g.material(s, me.other()), 0)
}

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
            Some(w) if w == me => return GreedyAgent::WIN,
            Some(_) => return -GreedyAgent::WIN,
            None => {}
        }
    }
    let now = before - g.material(&t, me.other());
    if depth == 0 || g.to_move(&t) != Some(me) {
        return now;
    }
    let mut next = ActionList::new();
    match g.dominant_take(&t) {
        Some(b) => next.push(b),
        None => g.legal_actions(&t, &mut next),
    }
    next.iter()
        .map(|&b| gain_within_turn(g, &t, me, b, before, depth - 1))
        .max()
        .unwrap_or(now)
}

impl<G: Game> Agent<G> for GreedyAgent {
    fn choose(&mut self, g: &G, s: &G::State, rng: &mut Rng) -> G::Action {
        assert!(g.to_move(s).is_some(), "greedy: the game is over");
        let mut ties = super::Ties::new();
        for (a, score) in GreedyAgent::scores(g, s) {
            ties.offer(a, score);
        }
        ties.pick(rng)
    }
}
