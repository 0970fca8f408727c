//! Depth-limited negamax with alpha-beta pruning, depth counted in turns.

use super::search::{Analysis, Candidate};
use super::{Agent, Eval};
use crate::game::{ActionList, Game};
use crate::player::Player;
use crate::rng::Rng;
use rayon::prelude::*;
use std::cell::Cell;

/// Score of a won game (less the turns it took, so quicker wins score higher).
pub(crate) const WIN: i32 = 1_000_000;
/// Decisions of one player in a row the search follows before it evaluates (relay and take
/// chains are short in practice).
pub(crate) const MAX_CHAIN: u32 = 64;

/// Alpha-beta search to `depth` turns. A child where the same player still decides (a relay
/// choice, an additional take) is searched at the same depth without negation; when the player
/// changes the depth drops by one and the score is negated.
///
/// Evaluations, from the point of view of the player to move at the leaf:
/// - [`Eval::Material`]: his stones on the board minus the opponent's;
/// - [`Eval::Mobility`]: his legal actions minus the opponent's, the latter counted on the same
///   board as if the opponent were to move (Ludii's Tsoro AI uses alpha-beta with a mobility
///   heuristic), with material as a tie-breaker (one stone = 1/100 of a move);
/// - [`Eval::Mixed`]: the same with one stone worth one move.
///
/// A finished game scores `±(1,000,000 − turns)`, a draw 0. Captures are searched first.
/// Among equally good actions at the root one is chosen at random.
#[derive(Clone, Copy, Debug)]
pub struct AlphaBetaAgent {
    /// Depth in turns.
    pub depth: u32,
    /// The evaluation.
    pub eval: Eval,
}

impl AlphaBetaAgent {
    pub(crate) fn evaluate<G: Game>(&self, g: &G, s: &G::State, me: Player) -> i32 {
        if let Some(o) = g.outcome(s) {
            return match o.winner {
                Some(w) if w == me => WIN - o.turns as i32,
                Some(_) => -(WIN - o.turns as i32),
                None => 0,
            };
        }
        let material = g.material(s, me) - g.material(s, me.other());
        match self.eval {
            Eval::Material => material,
            Eval::Mobility | Eval::Mixed => {
                let mine = g.legal_count(s) as i32;
                let theirs = g.mobility_of(s, me.other()) as i32;
                let stone = if self.eval == Eval::Mixed { 100 } else { 1 };
                100 * (mine - theirs) + stone * material
            }
        }
    }

    pub(crate) fn ordered<G: Game>(
        &self,
        g: &G,
        s: &G::State,
        me: Player,
    ) -> ActionList<G::Action> {
        let mut legal = ActionList::new();
        g.legal_actions(s, &mut legal);
        if legal.len() > 1 {
            let mut scored: Vec<(i32, usize)> = legal
                .iter()
                .enumerate()
                .map(|(i, &a)| (super::greedy::immediate_gain(g, s, me, a), i))
                .collect();
            scored.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
            let copy = legal.clone();
            legal.clear();
            for (_, i) in scored {
                legal.push(copy[i]);
            }
        }
        legal
    }

    /// The value of `s` for the player to move there; `nodes` counts the positions searched.
    #[allow(clippy::too_many_arguments)]
    fn search<G: Game>(
        &self,
        g: &G,
        s: &G::State,
        depth: u32,
        chain: u32,
        mut alpha: i32,
        beta: i32,
        nodes: &Cell<u64>,
    ) -> i32 {
        nodes.set(nodes.get() + 1);
        let Some(me) = g.to_move(s) else {
            // Over: score from the view of whoever would move; callers negate as needed.
            return 0;
        };
        if depth == 0 || chain >= MAX_CHAIN {
            return self.evaluate(g, s, me);
        }
        // A stopped run (super::stop) ends the search: interior nodes only, a small share.
        if depth >= 2 && super::stop::requested() {
            return 0;
        }
        let mut best = i32::MIN + 1;
        for a in self.ordered(g, s, me) {
            let mut t = s.clone();
            g.apply_unchecked(&mut t, a);
            let v = self.child_value(g, &t, me, depth, chain, alpha, beta, nodes);
            if v > best {
                best = v;
            }
            if best > alpha {
                alpha = best;
            }
            if alpha >= beta {
                break;
            }
        }
        best
    }

    /// The value for `me` of the child `t` reached by `me`'s action.
    #[allow(clippy::too_many_arguments)]
    fn child_value<G: Game>(
        &self,
        g: &G,
        t: &G::State,
        me: Player,
        depth: u32,
        chain: u32,
        alpha: i32,
        beta: i32,
        nodes: &Cell<u64>,
    ) -> i32 {
        match g.to_move(t) {
            None => {
                nodes.set(nodes.get() + 1);
                self.evaluate(g, t, me)
            }
            Some(p) if p == me => self.search(g, t, depth, chain + 1, alpha, beta, nodes),
            Some(_) => -self.search(g, t, depth - 1, 0, -beta, -alpha, nodes),
        }
    }

    /// Every root action's exact value (searched with a full window, the actions shared among
    /// the current rayon pool's threads, each under the caller's stop request) and the
    /// positions searched; the action chosen is the one [`choose`](Agent::choose) chooses for
    /// the same generator.
    pub fn analyse<G: Game>(&self, g: &G, s: &G::State, rng: &mut Rng) -> Analysis<G::Action> {
        let me = g.to_move(s).expect("a live game");
        let actions = self.ordered(g, s, me);
        if actions.len() == 1 {
            return Analysis::forced(actions[0]);
        }
        // The pool's threads see this thread's stop request (super::stop) as their own.
        let stop = super::stop::current();
        let scored: Vec<(i32, u64)> = actions
            .par_iter()
            .map(|&a| {
                super::stop::scoped(stop.as_ref(), || {
                    let nodes = Cell::new(1);
                    let mut t = s.clone();
                    g.apply_unchecked(&mut t, a);
                    let v =
                        self.child_value(g, &t, me, self.depth, 0, i32::MIN + 1, i32::MAX, &nodes);
                    (v, nodes.get())
                })
            })
            .collect();
        let mut ties = super::Ties::new();
        for (&a, &(v, _)) in actions.iter().zip(&scored) {
            ties.offer(a, v);
        }
        Analysis {
            action: ties.pick(rng),
            candidates: actions
                .iter()
                .zip(&scored)
                .map(|(&a, &(v, _))| Candidate {
                    action: a,
                    visits: None,
                    value: None,
                    score: Some(v as i64),
                })
                .collect(),
            iterations: scored.iter().map(|&(_, n)| n).sum(),
        }
    }
}

impl<G: Game> Agent<G> for AlphaBetaAgent {
    fn choose(&mut self, g: &G, s: &G::State, rng: &mut Rng) -> G::Action {
        let me = g.to_move(s).expect("a live game");
        let actions = self.ordered(g, s, me);
        if actions.len() == 1 {
            return actions[0];
        }
        let mut ties = super::Ties::new();
        let nodes = Cell::new(0);
        for &a in &actions {
            let mut t = s.clone();
            g.apply_unchecked(&mut t, a);
            // A window just wide enough to tell equal values apart from worse ones.
            let alpha = ties.best().saturating_sub(1).max(i32::MIN + 1);
            let v = self.child_value(g, &t, me, self.depth, 0, alpha, i32::MAX, &nodes);
            ties.offer(a, v);
        }
        ties.pick(rng)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::AnyGame;
    use crate::catalogue::{self, Params};
    use std::sync::Arc;
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::time::{Duration, Instant};

    /// A stop request reaches every thread of the analysis: asked from a thread outside the
    /// rayon pool (as the service asks it, from a blocking thread), a search that would take
    /// years ends within a moment of the request.
    #[test]
    fn a_stopped_analysis_ends_on_every_thread_it_uses() {
        let Ok(AnyGame::Sowing(g)) = catalogue::get("tsoro-ludii").unwrap().build(&Params::new())
        else {
            panic!("tsoro-ludii is a sowing game")
        };
        let s = g.initial_state();
        let flag = Arc::new(AtomicBool::new(false));
        let search = {
            let flag = flag.clone();
            std::thread::spawn(move || {
                super::super::stop::scoped(Some(&flag), || {
                    let ab = AlphaBetaAgent {
                        depth: 16,
                        eval: Eval::Mobility,
                    };
                    ab.analyse(&g, &s, &mut Rng::from_seed(1)).iterations
                })
            })
        };
        std::thread::sleep(Duration::from_millis(300));
        let asked = Instant::now();
        flag.store(true, Ordering::Relaxed);
        let nodes = search.join().unwrap();
        assert!(nodes > 0);
        // Generous (the machine may be loaded): a search that went on would take years.
        assert!(
            asked.elapsed() < Duration::from_secs(20),
            "stopped after {:?}",
            asked.elapsed()
        );
    }
}
