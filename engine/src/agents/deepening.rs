//! Alpha-beta deepened one turn at a time under a budget per decision (CPU time, or a number
//! of positions searched), with a transposition table, killer moves and principal-variation
//! windows: the strongest use of a fixed CPU time per move that plain depth-limited alpha-beta
//! ([`super::AlphaBetaAgent`]) cannot make.

use super::alphabeta::{MAX_CHAIN, WIN};
use super::{Agent, AlphaBetaAgent, Budget, Eval};
use crate::clock::thread_cpu;
use crate::game::{ActionList, Game};
use crate::player::Player;
use crate::rng::Rng;
use std::time::Duration;

/// Deepest search tried (in turns).
const MAX_DEPTH: u32 = 64;

/// Nodes between two looks at the clock and at a stop request.
const CLOCK_EVERY: u64 = 64;

/// Negamax with alpha-beta pruning, as [`AlphaBetaAgent`] searches (the same evaluations,
/// the same handling of runs of decisions by one player), deepened one turn at a time from
/// depth 1 until the budget is spent: `Micros`, microseconds of the thread's CPU time, or
/// `Nodes`, positions searched (counted as [`AlphaBetaAgent`]'s analysis counts them). The
/// choice of the deepest search completed is played; of a search cut short, only the root
/// actions it finished count (the previous depth's best is searched first, so they include
/// it).
///
/// Each depth searches the previous depth's best root action first; at every node the action
/// a transposition table remembers as best there comes first, then captures (most stones
/// first), then the two latest quiet actions that cut the search off at the same distance
/// from the root (killer moves). After the first, each action is searched with a null window
/// and searched again with the full window only if it may be better (principal-variation
/// search; at the root too). The table also returns the values of positions met again. Move
/// ordering and the windows change how many positions are searched, never a value at a fixed
/// depth (a test compares the values with [`AlphaBetaAgent`]'s). Late quiet actions (neither a
/// capture nor a killer, after three others, at three turns or more from the horizon) are
/// searched a turn shallower first, and to the full depth only if they may be better (late
/// move reductions): they do change values, for deeper searches within the same budget (at
/// 3,000 positions, 0.757 against `alphabeta:8:mobility` instead of 0.723, 1,000 pairs,
/// tsoro 4x8, seed 11). At the horizon, captures are searched on (quiescence): the player to
/// move there may keep the evaluation (stand pat) or capture, most stones first, and the
/// opponent may then keep it or capture back, before the evaluation scores the position; a
/// capture under way at the horizon no longer looks like a won or lost stone count. These
/// positions count in the budget (at 3,000 positions, 0.792 and 0.773 against
/// `alphabeta:8:mobility` instead of 0.757 and 0.716, 1,000 pairs, tsoro 4x8, seeds 11 and 12,
/// at 4-7% more CPU per decision). Deepening stops early once the result is
/// proven (a won or lost game within the horizon) or the whole game tree fits in the depth.
///
/// A budget of positions is reproducible: the same position and seed give the same choice on
/// any machine. A time budget is not. In games the agent plays as a [`DeepeningPlayer`],
/// which keeps its table from one decision to the next.
#[derive(Clone, Copy, Debug)]
pub struct DeepeningAgent {
    /// How much it searches per decision.
    pub budget: Budget,
    /// The evaluation at the leaves.
    pub eval: Eval,
}

impl DeepeningAgent {
    /// `budget` per decision, leaves scored by `eval`.
    pub fn new(budget: Budget, eval: Eval) -> DeepeningAgent {
        DeepeningAgent { budget, eval }
    }
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

/// What the table remembers of a position searched.
#[derive(Clone, Copy)]
pub(crate) struct Entry<A> {
    /// The position's key ([`Game::position_key`]).
    key: u64,
    depth: u32,
    value: i32,
    bound: Bound,
    /// The decision of the game in which it was stored (older entries give way first).
    age: u32,
    best: A,
}

/// A transposition table: slots in buckets of two, a bucket chosen by the position's key.
/// The first slot of a bucket keeps the deeper search (unless its entry is from an earlier
/// decision), the second takes whatever the first does not. A fixed size, allocated once a
/// game, where a map of whole positions grew, hashed long keys and copied positions.
pub(crate) struct Table<A> {
    slots: Vec<Option<Entry<A>>>,
    /// The current decision, for the entries' ages.
    age: u32,
}

impl<A> Default for Table<A> {
    /// No slots: a placeholder, replaced by a table of the agent's size before a search.
    fn default() -> Self {
        Table {
            slots: Vec::new(),
            age: 0,
        }
    }
}

impl<A: Copy> Table<A> {
    /// A table of `2^bits` slots (at least two).
    fn new(bits: u32) -> Self {
        Table {
            slots: vec![None; 1 << bits.max(1)],
            age: 0,
        }
    }

    /// The bucket of `key`: its first slot (even).
    #[inline]
    fn bucket(&self, key: u64) -> usize {
        (key as usize) & (self.slots.len() - 2)
    }

    /// What the table holds for the position keyed `key`.
    #[inline]
    fn probe(&self, key: u64) -> Option<Entry<A>> {
        let i = self.bucket(key);
        self.slots[i..i + 2]
            .iter()
            .flatten()
            .find(|e| e.key == key)
            .copied()
    }

    /// Stores `e` (its age set to the current decision's).
    #[inline]
    fn store(&mut self, mut e: Entry<A>) {
        e.age = self.age;
        let i = self.bucket(e.key);
        let age = self.age;
        let slot = match (self.slots[i], self.slots[i + 1]) {
            (Some(f), _) if f.key == e.key => i,
            (_, Some(s)) if s.key == e.key => i + 1,
            (None, _) => i,
            (Some(f), _) if f.age != age || f.depth <= e.depth => i,
            _ => i + 1,
        };
        self.slots[slot] = Some(e);
    }
}

/// The order key of the table's best action, of captures (plus the stones taken) and of
/// killer moves; other actions keep the order of the legal actions.
const CAPTURE: i32 = 1 << 24;
const KILLER: i32 = 1 << 22;

/// Late move reductions: from this depth, the quiet actions after this many others are
/// searched a turn shallower first (tuned in tournaments: from depth 2 or 4, after 1, 2 or 5
/// others, scored no better).
const REDUCE_FROM: u32 = 3;
const REDUCE_AFTER: usize = 3;

/// Turns of captures searched past the horizon: the mover's captures, then the opponent's
/// replies that capture (tuned in tournaments, 3,000 positions, seed 11: 3, 4 and 8 turns
/// scored 0.777-0.783 against 2 turns' 0.790; 1 turn, 0.739 over 500 pairs; quiescence only
/// after a capture, 0.765).
const QUIESCENCE: u32 = 2;

/// A node's children: (action, position after it).
type Children<G> = Vec<(<G as Game>::Action, <G as Game>::State)>;

/// The order in which a node's children are searched: (order key, index in the children).
type Order = ActionList<(i32, u8)>;

struct Search<'g, G: Game> {
    g: &'g G,
    ab: AlphaBetaAgent,
    /// The thread's CPU time at which the search stops, for a time budget.
    deadline: Option<Duration>,
    /// Positions after which the search stops.
    max_nodes: u64,
    nodes: u64,
    stopped: bool,
    /// Whether values stored in the table cut the search (off only to compare values with a
    /// plain search at one depth: a stored value may come from a deeper search).
    table_values: bool,
    /// Whether late quiet actions are searched shallower first (off only to compare values
    /// with a plain search at one depth).
    reductions: bool,
    /// Turns of captures searched past the horizon (quiescence; 0 only to compare values
    /// with a plain search at one depth).
    quiescence: u32,
    /// Buffers for the captures of quiescence nodes, kept to reuse their memory.
    qspare: Vec<Vec<(i32, G::State)>>,
    /// Leaves scored by the evaluation (not finished games) in the current depth.
    horizon: u64,
    table: Table<G::Action>,
    /// Two killer moves per distance from the root.
    killers: Vec<[Option<G::Action>; 2]>,
    /// The children of the nodes on the current path and their order, by distance from the
    /// root (kept to reuse their memory).
    frames: Vec<(Children<G>, Order)>,
}

impl<'g, G: Game> Search<'g, G> {
    fn new(g: &'g G, eval: Eval, budget: Budget, table: Table<G::Action>) -> Self {
        let (deadline, max_nodes) = match budget {
            Budget::Micros(us) => (
                Some(thread_cpu() + Duration::from_micros(us as u64)),
                u64::MAX,
            ),
            Budget::Nodes(n) => (None, n as u64),
        };
        Search {
            g,
            ab: AlphaBetaAgent { depth: 1, eval },
            deadline,
            max_nodes,
            nodes: 0,
            stopped: false,
            table_values: true,
            reductions: true,
            quiescence: QUIESCENCE,
            qspare: Vec::new(),

            horizon: 0,
            table,
            killers: Vec::new(),
            frames: Vec::new(),
        }
    }

    /// Counts a position; whether the search must stop.
    fn count(&mut self) -> bool {
        self.nodes += 1;
        if !self.stopped
            && (self.nodes > self.max_nodes
                || (self.nodes.is_multiple_of(CLOCK_EVERY)
                    && (self.deadline.is_some_and(|d| thread_cpu() >= d)
                        || super::stop::requested())))
        {
            self.stopped = true;
        }
        self.stopped
    }

    /// The children of `s` (where `me` moves) by the actions of `legal` other than `skip`,
    /// written into `kids`, and the order they are searched in, into `order`: captures (most
    /// stones first), killers at `ply`, the rest in the order of `legal`.
    #[allow(clippy::too_many_arguments)]
    fn children(
        &self,
        s: &G::State,
        me: Player,
        legal: &ActionList<G::Action>,
        skip: Option<G::Action>,
        ply: usize,
        kids: &mut Children<G>,
        order: &mut Order,
    ) {
        let theirs = self.g.material(s, me.other());
        let killers = self.killers.get(ply).copied().unwrap_or([None, None]);
        kids.clear();
        order.clear();
        for (i, &a) in legal.iter().enumerate() {
            if Some(a) == skip {
                continue;
            }
            // Made in place in the list (a position is a few hundred bytes: one copy, not two).
            kids.push((a, s.clone()));
            let t = &mut kids.last_mut().expect("just pushed").1;
            self.g.apply_unchecked(t, a);
            let t = &*t;
            // Stones taken by the action alone (as `greedy::immediate_gain` counts them).
            let gain = match self.g.outcome(t).and_then(|o| o.winner) {
                Some(w) if w == me => super::GreedyAgent::WIN,
                Some(_) => -super::GreedyAgent::WIN,
                None => theirs - self.g.material(t, me.other()),
            };
            let key = if gain != 0 {
                CAPTURE + gain
            } else if Some(a) == killers[0] {
                KILLER + 1
            } else if Some(a) == killers[1] {
                KILLER
            } else {
                -(i as i32)
            };
            order.push((key, kids.len() as u8 - 1));
        }
        // Stable: equal keys keep the legal order.
        order.sort_by_key(|k| std::cmp::Reverse(k.0));
    }

    /// The value of live position `s` for the player to move there.
    fn search(
        &mut self,
        s: &G::State,
        depth: u32,
        chain: u32,
        ply: usize,
        mut alpha: i32,
        beta: i32,
    ) -> i32 {
        if self.count() {
            return 0;
        }
        let Some(me) = self.g.to_move(s) else {
            return 0;
        };
        if depth == 0 || chain >= MAX_CHAIN {
            self.horizon += 1;
            if depth == 0 && self.quiescence > 0 {
                return self.quiesce(s, me, self.quiescence, alpha, beta);
            }
            return self.ab.evaluate(self.g, s, me);
        }
        let alpha0 = alpha;
        let key = self.g.position_key(s);
        let mut first = None;
        if let Some(e) = self.table.probe(key) {
            if self.table_values && e.depth >= depth {
                let cut = match e.bound {
                    Bound::Exact => true,
                    Bound::Lower => e.value >= beta,
                    Bound::Upper => e.value <= alpha,
                };
                if cut {
                    return e.value;
                }
            }
            first = Some(e.best);
        }
        let mut legal = ActionList::new();
        self.g.legal_actions(s, &mut legal);
        // The table's action, if legal here (keys may collide), is searched before the others
        // are even made: when it cuts the search off, they never are.
        let first = first.filter(|a| legal.contains(a));
        let mut best = i32::MIN + 1;
        let mut best_action = legal[0];
        let mut searched = false;
        if let Some(a) = first {
            let mut t = s.clone();
            self.g.apply_unchecked(&mut t, a);
            let v = self.child(&t, me, depth, chain, ply, alpha, beta);
            if self.stopped {
                return 0;
            }
            searched = true;
            best = v;
            best_action = a;
            alpha = alpha.max(v);
        }
        if alpha < beta {
            if self.frames.len() <= ply {
                self.frames.resize_with(ply + 1, Default::default);
            }
            let (mut kids, mut order) = std::mem::take(&mut self.frames[ply]);
            self.children(s, me, &legal, first, ply, &mut kids, &mut order);
            for (n, &(key, i)) in order.iter().enumerate() {
                let (a, t) = &kids[i as usize];
                let v = if !searched {
                    searched = true;
                    self.child(t, me, depth, chain, ply, alpha, beta)
                } else {
                    // A late quiet action (neither a capture nor a killer) of a deep enough
                    // node is searched a turn shallower first; only if it may be better than
                    // the best so far is it searched to the full depth.
                    let reduced = self.reductions
                        && depth >= REDUCE_FROM
                        && n >= REDUCE_AFTER
                        && key < KILLER
                        && self.g.to_move(t).is_some_and(|p| p != me);
                    let mut v = alpha.saturating_add(1);
                    if reduced {
                        v = self.child(
                            t,
                            me,
                            depth - 1,
                            chain,
                            ply,
                            alpha,
                            alpha.saturating_add(1),
                        );
                    }
                    if v > alpha && !self.stopped {
                        // A null window: is it better than the best so far?
                        v = self.child(t, me, depth, chain, ply, alpha, alpha.saturating_add(1));
                    }
                    if v > alpha && v < beta && !self.stopped {
                        self.child(t, me, depth, chain, ply, alpha, beta)
                    } else {
                        v
                    }
                };
                if self.stopped {
                    self.frames[ply] = (kids, order);
                    return 0;
                }
                if v > best {
                    best = v;
                    best_action = *a;
                }
                alpha = alpha.max(best);
                if alpha >= beta {
                    if key < CAPTURE {
                        if self.killers.len() <= ply {
                            self.killers.resize(ply + 1, [None, None]);
                        }
                        let k = &mut self.killers[ply];
                        if k[0] != Some(*a) {
                            k[1] = k[0];
                            k[0] = Some(*a);
                        }
                    }
                    break;
                }
            }
            self.frames[ply] = (kids, order);
        }
        let bound = if best <= alpha0 {
            Bound::Upper
        } else if best >= beta {
            Bound::Lower
        } else {
            Bound::Exact
        };
        self.table.store(Entry {
            key,
            depth,
            value: best,
            bound,
            age: 0,
            best: best_action,
        });
        best
    }

    /// The value of live position `s` past the horizon for `me`, the player to move there:
    /// the evaluation, or better, what `me`'s captures (and the replies' captures, for
    /// `turns` turns) win.
    fn quiesce(&mut self, s: &G::State, me: Player, turns: u32, mut alpha: i32, beta: i32) -> i32 {
        let stand = self.ab.evaluate(self.g, s, me);
        if turns == 0 || stand >= beta {
            return stand;
        }
        let mut best = stand;
        alpha = alpha.max(stand);
        let theirs = self.g.material(s, me.other());
        let mut legal = ActionList::new();
        self.g.legal_actions(s, &mut legal);
        // The captures (and game ends), most stones taken first, in a buffer per level kept
        // to reuse its memory.
        let mut kids = self.qspare.pop().unwrap_or_default();
        kids.clear();
        for &a in legal.iter() {
            let mut t = s.clone();
            self.g.apply_unchecked(&mut t, a);
            let gain = theirs - self.g.material(&t, me.other());
            if gain != 0 || self.g.to_move(&t).is_none() {
                kids.push((gain, t));
            }
        }
        kids.sort_by_key(|k| std::cmp::Reverse(k.0));
        for (_, t) in kids.iter() {
            if self.count() {
                break;
            }
            let v = match self.g.to_move(t) {
                None => self.ab.evaluate(self.g, t, me),
                Some(p) if p == me => self.quiesce(t, me, turns, alpha, beta),
                Some(p) => -self.quiesce(t, p, turns - 1, -beta, -alpha),
            };
            if self.stopped {
                break;
            }
            if v > best {
                best = v;
                alpha = alpha.max(v);
                if alpha >= beta {
                    break;
                }
            }
        }
        self.qspare.push(kids);
        if self.stopped {
            return 0;
        }
        best
    }

    /// The value for `me` of the child `t` reached by `me`'s action at distance `ply` from
    /// the root.
    #[allow(clippy::too_many_arguments)]
    fn child(
        &mut self,
        t: &G::State,
        me: Player,
        depth: u32,
        chain: u32,
        ply: usize,
        alpha: i32,
        beta: i32,
    ) -> i32 {
        match self.g.to_move(t) {
            None => {
                self.count();
                self.ab.evaluate(self.g, t, me)
            }
            Some(p) if p == me => self.search(t, depth, chain + 1, ply + 1, alpha, beta),
            Some(_) => -self.search(t, depth - 1, 0, ply + 1, -beta, -alpha),
        }
    }

    /// Searches every root action of `s` (in the order of `moves`) to `depth`, each after the
    /// first with a null window just below the best so far, and again with a window just wide
    /// enough to tell equal values apart from worse ones if it is not worse; the actions finished
    /// before a stop, with their values (exact for the best, at most the best's less one for
    /// the others).
    fn root(&mut self, s: &G::State, me: Player, moves: &[G::Action], depth: u32) -> Root<G> {
        let mut ties = super::Ties::new();
        let mut scored = Vec::with_capacity(moves.len());
        for &a in moves {
            let mut t = s.clone();
            self.g.apply_unchecked(&mut t, a);
            let alpha = ties.best().saturating_sub(1).max(i32::MIN + 1);
            // After the first, a null window: is it at least as good as the best so far? Only
            // then is its exact value searched.
            let mut v = i32::MAX;
            if !scored.is_empty() {
                v = self.child(&t, me, depth, 0, 0, alpha, alpha.saturating_add(1));
            }
            if v > alpha && !self.stopped {
                v = self.child(&t, me, depth, 0, 0, alpha, i32::MAX);
            }
            if self.stopped {
                break;
            }
            ties.offer(a, v);
            scored.push((v, a));
        }
        Root { ties, scored }
    }
}

/// What a search of the root actions found.
struct Root<G: Game> {
    ties: super::Ties<G::Action>,
    scored: Vec<(i32, G::Action)>,
}

/// A deepening agent in play: keeps its transposition table from one decision of a game to
/// the next (positions searched for the last move come back two plies later), so that a
/// decision depends on the position, the seed and the decisions this agent made before it in
/// the same game: reproducible, as the game is.
pub struct DeepeningPlayer<G: Game> {
    agent: DeepeningAgent,
    table: Table<G::Action>,
}

impl<G: Game> DeepeningPlayer<G> {
    /// A player with an empty table.
    pub fn new(agent: DeepeningAgent) -> Self {
        DeepeningPlayer {
            agent,
            table: Table::default(),
        }
    }
}

impl<G: Game> Agent<G> for DeepeningPlayer<G> {
    fn choose(&mut self, g: &G, s: &G::State, rng: &mut Rng) -> G::Action {
        let table = std::mem::take(&mut self.table);
        let (a, _, _, table) = self.agent.decide_with(g, s, rng, table);
        self.table = table;
        a
    }
}

impl DeepeningAgent {
    /// The action chosen at `s`, the depth of the deepest search completed and the positions
    /// searched.
    pub fn decide<G: Game>(&self, g: &G, s: &G::State, rng: &mut Rng) -> (G::Action, u32, u64) {
        let (a, depth, nodes, _) = self.decide_with(g, s, rng, Table::default());
        (a, depth, nodes)
    }

    /// [`decide`](Self::decide) starting from `table`, returned with what it learnt.
    fn decide_with<G: Game>(
        &self,
        g: &G,
        s: &G::State,
        rng: &mut Rng,
        mut table: Table<G::Action>,
    ) -> (G::Action, u32, u64, Table<G::Action>) {
        if table.slots.is_empty() {
            table = Table::new(self.table_bits());
        }
        table.age = table.age.wrapping_add(1);
        let mut search = Search::new(g, self.eval, self.budget, table);
        let me = g.to_move(s).expect("a live game");
        let mut moves: ActionList<G::Action> = search.ab.ordered(g, s, me);
        if moves.len() == 1 {
            return (moves[0], 0, 0, search.table);
        }
        let mut chosen = None;
        let mut reached = 0;
        for depth in 1..=MAX_DEPTH {
            search.horizon = 0;
            let Root { ties, mut scored } = search.root(s, me, &moves, depth);
            if search.stopped {
                // The actions finished at this depth include the previous depth's best.
                if !scored.is_empty() && chosen.is_some() {
                    chosen = Some(ties.pick(rng));
                }
                break;
            }
            reached = depth;
            chosen = Some(ties.pick(rng));
            // The next depth searches the best first (a stable sort keeps the order among
            // equals).
            scored.sort_by_key(|x| std::cmp::Reverse(x.0));
            moves.clear();
            moves.extend(scored.iter().map(|&(_, a)| a));
            let proven = ties.best().abs() >= WIN / 2;
            if proven || search.horizon == 0 {
                break;
            }
        }
        (
            chosen.unwrap_or(moves[0]),
            reached,
            search.nodes,
            search.table,
        )
    }
}

impl DeepeningAgent {
    /// The size of the table a game's decisions share, as a power of two: about eight
    /// slots per position a decision may search (a game has some tens of decisions), 2^10
    /// to 2^20 slots; 2^18 for a time budget.
    fn table_bits(&self) -> u32 {
        match self.budget {
            Budget::Nodes(n) => (n as u64 * 2)
                .next_power_of_two()
                .trailing_zeros()
                .clamp(10, 20),
            Budget::Micros(_) => 18,
        }
    }
}

impl<G: Game> Agent<G> for DeepeningAgent {
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
    use std::collections::HashMap;

    fn tsoro_4x8() -> SowingGame {
        let mut params = Params::new();
        params.insert("holes".into(), serde_json::json!(8));
        let Ok(AnyGame::Sowing(g)) = catalogue::get("tsoro-ludii").unwrap().build(&params) else {
            panic!("tsoro-ludii is a sowing game")
        };
        g
    }

    /// Positions along random games.
    fn positions(g: &SowingGame, games: u64) -> Vec<<SowingGame as Game>::State> {
        let mut out = Vec::new();
        for k in 0..games {
            let mut rng = Rng::for_game(7, k);
            let mut s = g.initial_state();
            let mut ply = 0;
            while g.to_move(&s).is_some() && ply < 60 {
                if ply % 5 == 0 {
                    out.push(s.clone());
                }
                let a = g.random_action(&s, &mut rng).unwrap();
                g.apply_unchecked(&mut s, a);
                ply += 1;
            }
        }
        out
    }

    /// The table's keys tell positions apart: over positions along random games (and their
    /// mirror images), equal positions have equal keys and different ones different keys.
    #[test]
    fn position_keys_tell_positions_apart() {
        let g = tsoro_4x8();
        let mut by_key: HashMap<u64, <SowingGame as Game>::State> = HashMap::new();
        let mut distinct = 0;
        for s in positions(&g, 40) {
            for s in [s.clone(), s.mirrored()] {
                let key = g.position_key(&s);
                assert_eq!(key, g.position_key(&s.clone()));
                match by_key.get(&key) {
                    Some(t) => assert_eq!(*t, s, "two positions share key {key:#x}"),
                    None => {
                        by_key.insert(key, s);
                        distinct += 1;
                    }
                }
            }
        }
        assert!(distinct >= 400, "only {distinct} positions");
    }

    /// A plain (full-window) quiescence: the better of the evaluation and every capture's
    /// value, the opponent's captures answered for `turns` turns, as the search defines it.
    fn quiescence_reference(g: &SowingGame, s: &SowingState, me: Player, turns: u32) -> i32 {
        let ab = AlphaBetaAgent {
            depth: 1,
            eval: Eval::Mixed,
        };
        let mut best = ab.evaluate(g, s, me);
        if turns == 0 {
            return best;
        }
        let mut legal = ActionList::new();
        g.legal_actions(s, &mut legal);
        for &a in legal.iter() {
            let mut t = s.clone();
            g.apply_unchecked(&mut t, a);
            let v = match g.to_move(&t) {
                None => ab.evaluate(g, &t, me),
                _ if g.material(&t, me.other()) == g.material(s, me.other()) => continue,
                Some(p) if p == me => quiescence_reference(g, &t, me, turns),
                Some(p) => -quiescence_reference(g, &t, p, turns - 1),
            };
            best = best.max(v);
        }
        best
    }

    /// Quiescence resolves the captures pending at the horizon: over positions along random
    /// games, the value of a search at depth 0 is that of a plain full-window search of the
    /// captures (one and two turns of them), and differs from the evaluation wherever a
    /// capture changes the outcome of the exchange; with quiescence off it is the evaluation.
    #[test]
    fn quiescence_searches_the_captures_the_evaluation_misses() {
        let g = tsoro_4x8();
        let ab = AlphaBetaAgent {
            depth: 1,
            eval: Eval::Mixed,
        };
        let (mut compared, mut resolved) = (0, 0);
        for s in positions(&g, 20) {
            let me = g.to_move(&s).unwrap();
            let stand = ab.evaluate(&g, &s, me);
            for turns in 0..=2 {
                let mut search =
                    Search::new(&g, Eval::Mixed, Budget::Nodes(u32::MAX), Table::new(10));
                search.quiescence = turns;
                let v = search.search(&s, 0, 0, 0, i32::MIN + 1, i32::MAX);
                assert_eq!(v, quiescence_reference(&g, &s, me, turns), "{turns} turns");
                if turns == 0 {
                    assert_eq!(v, stand);
                } else {
                    compared += 1;
                    resolved += usize::from(v != stand);
                }
            }
        }
        assert!(compared >= 200, "only {compared} positions");
        assert!(
            resolved * 10 >= compared,
            "{resolved} of {compared} resolved"
        );
    }

    /// Late move reductions search fewer positions at a fixed depth than the full search
    /// (which is why the same budget reaches deeper), over positions along random games.
    #[test]
    fn reductions_search_fewer_positions_at_a_fixed_depth() {
        let g = tsoro_4x8();
        let mut nodes = [0u64; 2];
        for s in positions(&g, 4) {
            let me = g.to_move(&s).unwrap();
            for (k, reductions) in [false, true].into_iter().enumerate() {
                let mut search =
                    Search::new(&g, Eval::Mixed, Budget::Nodes(u32::MAX), Table::new(16));
                search.reductions = reductions;
                let moves: ActionList<_> = search.ab.ordered(&g, &s, me);
                for d in 1..=5 {
                    search.root(&s, me, &moves, d);
                }
                nodes[k] += search.nodes;
            }
        }
        assert!(
            nodes[1] * 10 < nodes[0] * 9,
            "{} positions with reductions, {} without",
            nodes[1],
            nodes[0]
        );
    }

    /// Killer moves, the table's best moves and principal-variation windows change the order
    /// and the windows of the search, never what it finds: at a fixed depth, the best value
    /// and the set of best root actions are those of plain alpha-beta's full-window analysis.
    #[test]
    fn ordering_and_windows_do_not_change_the_values_at_a_fixed_depth() {
        let g = tsoro_4x8();
        let mut compared = 0;
        for eval in [Eval::Material, Eval::Mobility, Eval::Mixed] {
            for (i, s) in positions(&g, 6).iter().enumerate() {
                let me = g.to_move(s).unwrap();
                for depth in 1..=4 {
                    let plain =
                        AlphaBetaAgent { depth, eval }.analyse(&g, s, &mut Rng::from_seed(1));
                    if plain.candidates.is_empty() {
                        continue;
                    }
                    let best = plain
                        .candidates
                        .iter()
                        .filter_map(|c| c.score)
                        .max()
                        .unwrap();
                    let mut want: Vec<String> = plain
                        .candidates
                        .iter()
                        .filter(|c| c.score == Some(best))
                        .map(|c| c.action.to_string())
                        .collect();
                    want.sort();
                    let mut search = Search::new(&g, eval, Budget::Nodes(u32::MAX), Table::new(16));
                    search.table_values = false;
                    search.reductions = false;
                    search.quiescence = 0;
                    let mut moves: ActionList<_> = search.ab.ordered(&g, s, me);
                    // Deepen as the agent does, so that the table and killers are warm.
                    let mut root = None;
                    for d in 1..=depth {
                        let r = search.root(s, me, &moves, d);
                        let mut order = r.scored.clone();
                        order.sort_by_key(|x| std::cmp::Reverse(x.0));
                        moves.clear();
                        moves.extend(order.iter().map(|&(_, a)| a));
                        root = Some(r);
                    }
                    let root = root.unwrap();
                    assert_eq!(root.ties.best() as i64, best, "position {i}, depth {depth}");
                    let mut got: Vec<String> = root
                        .scored
                        .iter()
                        .filter(|x| x.0 as i64 == best)
                        .map(|x| x.1.to_string())
                        .collect();
                    got.sort();
                    assert_eq!(got, want, "position {i}, depth {depth}, {eval:?}");
                    compared += 1;
                }
            }
        }
        assert!(compared >= 100, "only {compared} searches compared");
    }
}
