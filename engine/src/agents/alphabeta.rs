//! Depth-limited negamax with alpha-beta pruning, depth counted in turns, bounded by a number
//! of positions per decision.

use super::search::{Analysis, Candidate};
use super::{Agent, Budget, DeepeningAgent, Eval};
use crate::game::{ActionList, Game};
use crate::player::Player;
use crate::rng::Rng;
use rayon::prelude::*;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// Score of a won game (less the turns it took, so quicker wins score higher).
pub(crate) const WIN: i32 = 1_000_000;
/// Decisions of one player in a row the search follows before it evaluates (relay and take
/// chains are short in practice).
pub(crate) const MAX_CHAIN: u32 = 64;

/// Most positions a fixed-depth search (`alphabeta:D`) searches for one decision. A decision
/// whose depth would take more is searched instead as the deepening agent searches under a
/// budget of as many positions (`alphabeta:n100000`, the same evaluation), so that a decision
/// costs at most twice this many positions on any ruleset.
pub const DEPTH_NODES: u64 = 100_000;

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
///
/// Positions met again within one decision at the same depth and the same point of a turn
/// (the additional takes of one turn made in another order: they commute, and a chain of `k`
/// takes out of `n` holes has `n!/(n−k)!` orders but only `C(n,k)` sets) are searched once: a
/// table of the decision keeps each one's value or bound ([`Game::position_key`]). It keeps
/// only values of the same depth, so the values, and the choice, are those of the search
/// without it. A decision searches at most [`DEPTH_NODES`] positions at its depth; one that
/// would search more is played as the deepening agent plays it under that budget of positions
/// ([`DeepeningAgent`]).
#[derive(Clone, Copy, Debug)]
pub struct AlphaBetaAgent {
    /// Depth in turns.
    pub depth: u32,
    /// The evaluation.
    pub eval: Eval,
}

/// What the table of one decision knows of a position: its value at a depth and a point of
/// the turn (decisions made in the turn so far), exact or a bound.
#[derive(Clone, Copy)]
struct Known {
    depth: u32,
    chain: u32,
    value: i32,
    bound: Bound,
}

/// What a value stored in the table is.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Bound {
    Exact,
    /// At least the value (the search failed high).
    Lower,
    /// At most the value (it failed low).
    Upper,
}

/// Keys are hashes already ([`Game::position_key`]): used as they are.
#[derive(Default)]
struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 << 8) | b as u64;
        }
    }
    fn write_u64(&mut self, k: u64) {
        self.0 = k;
    }
}

/// Most positions the table of one decision keeps (later ones are searched, not kept).
const TABLE_MAX: usize = 1 << 20;

/// One decision's search: the positions counted against a cap, and its table.
struct Plain<'a, G: Game> {
    ab: &'a AlphaBetaAgent,
    g: &'a G,
    nodes: u64,
    max_nodes: u64,
    /// The cap was passed (or a stop was requested): values are no longer exact.
    stopped: bool,
    /// Whether positions met again are looked up (off only to compare counts in tests).
    table_on: bool,
    table: HashMap<u64, Known, BuildHasherDefault<KeyHasher>>,
}

/// The result of one capped search of the root actions.
pub(crate) struct Decision<A> {
    /// The action chosen (`None` when the cap was passed).
    pub(crate) action: Option<A>,
    /// Positions searched.
    pub(crate) nodes: u64,
}

impl<'a, G: Game> Plain<'a, G> {
    fn new(ab: &'a AlphaBetaAgent, g: &'a G, max_nodes: u64) -> Self {
        Plain {
            ab,
            g,
            nodes: 0,
            max_nodes,
            stopped: false,
            table_on: true,
            table: HashMap::default(),
        }
    }

    /// Counts a position; whether the search must stop.
    #[inline]
    fn count(&mut self) -> bool {
        self.nodes += 1;
        if self.nodes > self.max_nodes {
            self.stopped = true;
        }
        self.stopped
    }

    /// The value of `s` for the player to move there.
    fn search(&mut self, s: &G::State, depth: u32, chain: u32, mut alpha: i32, beta: i32) -> i32 {
        if self.count() {
            return 0;
        }
        let Some(me) = self.g.to_move(s) else {
            // Over: score from the view of whoever would move; callers negate as needed.
            return 0;
        };
        if depth == 0 || chain >= MAX_CHAIN {
            return self.ab.evaluate(self.g, s, me);
        }
        // A stopped run (super::stop) ends the search: interior nodes only, a small share.
        if depth >= 2 && super::stop::requested() {
            self.stopped = true;
            return 0;
        }
        let key = self.table_on.then(|| self.g.position_key(s));
        if let Some(k) = key.and_then(|key| self.table.get(&key))
            && k.depth == depth
            && k.chain == chain
        {
            let cut = match k.bound {
                Bound::Exact => true,
                Bound::Lower => k.value >= beta,
                Bound::Upper => k.value <= alpha,
            };
            if cut {
                return k.value;
            }
        }
        let alpha0 = alpha;
        let mut best = i32::MIN + 1;
        for a in self.ab.ordered(self.g, s, me) {
            let mut t = s.clone();
            self.g.apply_unchecked(&mut t, a);
            let v = self.child_value(&t, me, depth, chain, alpha, beta);
            if self.stopped {
                return 0;
            }
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
        if let Some(key) = key
            && (self.table.len() < TABLE_MAX || self.table.contains_key(&key))
        {
            let bound = if best <= alpha0 {
                Bound::Upper
            } else if best >= beta {
                Bound::Lower
            } else {
                Bound::Exact
            };
            self.table.insert(
                key,
                Known {
                    depth,
                    chain,
                    value: best,
                    bound,
                },
            );
        }
        best
    }

    /// The value for `me` of the child `t` reached by `me`'s action.
    fn child_value(
        &mut self,
        t: &G::State,
        me: Player,
        depth: u32,
        chain: u32,
        alpha: i32,
        beta: i32,
    ) -> i32 {
        match self.g.to_move(t) {
            None => {
                self.count();
                self.ab.evaluate(self.g, t, me)
            }
            Some(p) if p == me => self.search(t, depth, chain + 1, alpha, beta),
            Some(_) => -self.search(t, depth - 1, 0, -beta, -alpha),
        }
    }

    /// Every action of `actions` searched at `s` (where `me` moves) with a window just wide
    /// enough to tell equal values apart from worse ones, and one of the best drawn from `rng`;
    /// `None` if the cap was passed first.
    fn decide(
        &mut self,
        s: &G::State,
        me: Player,
        actions: &[G::Action],
        rng: &mut Rng,
    ) -> Option<G::Action> {
        let mut ties = super::Ties::new();
        for &a in actions {
            let mut t = s.clone();
            self.g.apply_unchecked(&mut t, a);
            let alpha = ties.best().saturating_sub(1).max(i32::MIN + 1);
            let v = self.child_value(&t, me, self.ab.depth, 0, alpha, i32::MAX);
            if self.stopped {
                return None;
            }
            ties.offer(a, v);
        }
        Some(ties.pick(rng))
    }
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

    /// The depth-`depth` choice at `s` searching at most `max_nodes` positions (`action` is
    /// `None` if it would take more), with the positions searched; `table` off searches
    /// positions met again anew (for tests: the choice is the same, the count higher).
    pub(crate) fn decide_capped<G: Game>(
        &self,
        g: &G,
        s: &G::State,
        rng: &mut Rng,
        max_nodes: u64,
        table: bool,
    ) -> Decision<G::Action> {
        let me = g.to_move(s).expect("a live game");
        let actions = self.ordered(g, s, me);
        if actions.len() == 1 {
            return Decision {
                action: Some(actions[0]),
                nodes: 0,
            };
        }
        let mut plain = Plain::new(self, g, max_nodes);
        plain.table_on = table;
        let action = plain.decide(s, me, &actions, rng);
        Decision {
            action,
            nodes: plain.nodes,
        }
    }

    /// The action played at `s` and the positions searched for it: the depth's choice within
    /// [`DEPTH_NODES`] positions, else the deepening agent's under that budget.
    pub fn decide<G: Game>(&self, g: &G, s: &G::State, rng: &mut Rng) -> (G::Action, u64) {
        let d = self.decide_capped(g, s, rng, DEPTH_NODES, true);
        match d.action {
            Some(a) => (a, d.nodes),
            None => {
                let (a, _, more) = self.fallback().decide(g, s, rng);
                (a, d.nodes + more)
            }
        }
    }

    /// The agent that plays a decision whose depth would search more than [`DEPTH_NODES`]
    /// positions.
    pub fn fallback(&self) -> DeepeningAgent {
        DeepeningAgent::new(Budget::Nodes(DEPTH_NODES as u32), self.eval)
    }

    /// Every root action's exact value (searched with a full window, the actions shared among
    /// the current rayon pool's threads, each within [`DEPTH_NODES`] positions: a value that
    /// would take more is left out) and the positions searched; the action is the one
    /// [`choose`](Agent::choose) chooses for the same generator. A decision played by the
    /// deepening agent (past [`DEPTH_NODES`]) has no candidates. The pool's threads search under the
    /// caller's stop request.
    pub fn analyse<G: Game>(&self, g: &G, s: &G::State, rng: &mut Rng) -> Analysis<G::Action> {
        let me = g.to_move(s).expect("a live game");
        let actions = self.ordered(g, s, me);
        if actions.len() == 1 {
            return Analysis::forced(actions[0]);
        }
        // The pool's threads see this thread's stop request (super::stop) as their own.
        let stop = super::stop::current();
        let d = self.decide_capped(g, s, rng, DEPTH_NODES, true);
        let Some(action) = d.action else {
            let (action, _, more) = self.fallback().decide(g, s, rng);
            return Analysis {
                action,
                candidates: vec![],
                iterations: d.nodes + more,
            };
        };
        let scored: Vec<(Option<i32>, u64)> = actions
            .par_iter()
            .map(|&a| {
                super::stop::scoped(stop.as_ref(), || {
                    let mut plain = Plain::new(self, g, DEPTH_NODES);
                    plain.nodes = 1;
                    let mut t = s.clone();
                    g.apply_unchecked(&mut t, a);
                    let v = plain.child_value(&t, me, self.depth, 0, i32::MIN + 1, i32::MAX);
                    ((!plain.stopped).then_some(v), plain.nodes.min(DEPTH_NODES))
                })
            })
            .collect();
        Analysis {
            action,
            candidates: actions
                .iter()
                .zip(&scored)
                .map(|(&a, &(v, _))| Candidate {
                    action: a,
                    visits: None,
                    value: None,
                    score: v.map(|v| v as i64),
                })
                .collect(),
            iterations: d.nodes + scored.iter().map(|&(_, n)| n).sum::<u64>(),
        }
    }
}

impl<G: Game> Agent<G> for AlphaBetaAgent {
    fn choose(&mut self, g: &G, s: &G::State, rng: &mut Rng) -> G::Action {
        self.decide(g, s, rng).0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::AnyGame;
    use crate::catalogue::{self, Params};
    use crate::sowing::{SowingGame, SowingState};

    fn sowing(id: &str, params: &[(&str, serde_json::Value)]) -> SowingGame {
        let mut p = Params::new();
        for (k, v) in params {
            p.insert(k.to_string(), v.clone());
        }
        let Ok(AnyGame::Sowing(g)) = catalogue::get(id).unwrap().build(&p) else {
            panic!("{id} is a sowing game")
        };
        g
    }

    /// Positions of games greedy plays against itself: every `every`-th decision, and every
    /// decision between additional takes (the game names a dominant take there).
    fn positions(g: &SowingGame, games: u64, every: usize) -> (Vec<SowingState>, usize) {
        let (mut out, mut takes) = (Vec::new(), 0);
        for k in 0..games {
            let mut rng = Rng::for_game(3, k);
            let mut s = g.initial_state();
            let mut ply = 0;
            while g.to_move(&s).is_some() && ply < 400 {
                if g.legal_count(&s) > 1 {
                    if g.dominant_take(&s).is_some() {
                        out.push(s.clone());
                        takes += 1;
                    } else if ply % every == 0 {
                        out.push(s.clone());
                    }
                }
                let a = super::super::GreedyAgent.choose(g, &s, &mut rng);
                g.apply_unchecked(&mut s, a);
                ply += 1;
            }
        }
        (out, takes)
    }

    /// The table of a decision changes how many positions are searched, never the choice:
    /// over positions of tsoro 4x8 and of Variant 7 at depths 1 to 3, the choice with the
    /// table is the plain search's for the same generator, and it searches no more positions.
    #[test]
    fn the_table_leaves_the_choice_of_the_plain_search() {
        let mut compared = 0;
        for (g, depths) in [
            (sowing("tsoro-ludii", &[("holes", 8.into())]), 1..=4),
            (sowing("tsoro-matthews-v7", &[]), 1..=2),
        ] {
            let (all, _) = positions(&g, 2, 7);
            for (i, s) in all.iter().enumerate().step_by(3) {
                for depth in depths.clone() {
                    for eval in [Eval::Material, Eval::Mixed] {
                        let ab = AlphaBetaAgent { depth, eval };
                        let seed = 100 + i as u64;
                        let plain =
                            ab.decide_capped(&g, s, &mut Rng::from_seed(seed), 1_000_000, false);
                        let Some(want) = plain.action else { continue };
                        let kept =
                            ab.decide_capped(&g, s, &mut Rng::from_seed(seed), 1_000_000, true);
                        assert_eq!(kept.action, Some(want), "position {i}, depth {depth}");
                        assert!(
                            kept.nodes <= plain.nodes,
                            "{} > {}",
                            kept.nodes,
                            plain.nodes
                        );
                        compared += 1;
                    }
                }
            }
        }
        assert!(compared >= 60, "only {compared} decisions compared");
    }

    /// Variant 7's chains of five takes made alpha-beta's cost explode (each order of the
    /// takes searched again): at depth 3, a decision between takes (and any other), with and
    /// without the front-row condition of back captures, searches at most the cap of
    /// positions twice over, counted, not timed; and the table is what keeps the take
    /// decisions within the cap at all, where the plain search passes it.
    #[test]
    fn a_variant_7_decision_searches_a_bounded_number_of_positions() {
        let cap = 2 * DEPTH_NODES + 2;
        let mut merged = 0;
        for back in ["with_front", "require_both"] {
            let g = sowing("tsoro-matthews-v7", &[("back_capture", back.into())]);
            let (all, takes) = positions(&g, 1, 25);
            assert!(takes >= 5, "only {takes} take decisions");
            let ab = AlphaBetaAgent {
                depth: 3,
                eval: Eval::Mixed,
            };
            for (i, s) in all.iter().enumerate() {
                let (_, nodes) = ab.decide(&g, s, &mut Rng::from_seed(i as u64));
                assert!(nodes <= cap, "{back}, position {i}: {nodes} positions");
                if g.dominant_take(s).is_some() && merged < 3 {
                    let mut rng = Rng::from_seed(i as u64);
                    let kept = ab.decide_capped(&g, s, &mut rng, DEPTH_NODES, true);
                    let plain = ab.decide_capped(&g, s, &mut rng, DEPTH_NODES, false);
                    if kept.action.is_some() && plain.action.is_none() {
                        merged += 1;
                    }
                }
            }
        }
        assert!(merged >= 1, "no take decision needed the table");
    }
}

#[cfg(test)]
mod stop_tests {
    use super::*;
    use crate::AnyGame;
    use crate::catalogue::{self, Params};
    use std::sync::Arc;
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::time::{Duration, Instant};

    /// A stop request reaches every thread of the analysis: asked from a thread outside the
    /// rayon pool (as the service asks it, from a blocking thread), a depth-16 analysis ends
    /// within a moment of the request. (Since [`DEPTH_NODES`] caps each root action's search,
    /// the analysis is bounded anyway; the stop makes it end sooner still.)
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
        // Generous (the machine may be loaded).
        assert!(
            asked.elapsed() < Duration::from_secs(20),
            "stopped after {:?}",
            asked.elapsed()
        );
    }
}
