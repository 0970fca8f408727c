//! Alpha-beta deepened one turn at a time under a time budget per decision, with a
//! transposition table: the strongest use of a fixed CPU time per move that plain
//! depth-limited alpha-beta ([`super::AlphaBetaAgent`]) cannot make.

use super::alphabeta::{MAX_CHAIN, WIN};
use super::{Agent, AlphaBetaAgent, Eval};
use crate::clock::thread_cpu;
use crate::game::{ActionList, Game};
use crate::player::Player;
use crate::rng::Rng;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::time::Duration;

/// Deepest search tried (in turns).
const MAX_DEPTH: u32 = 64;

/// Positions the table keeps before it is cleared (bounds its memory).
const TABLE_LIMIT: usize = 1 << 19;

/// Nodes between two looks at the clock.
const CLOCK_EVERY: u64 = 64;

/// Negamax with alpha-beta pruning, as [`AlphaBetaAgent`] searches (the same evaluations,
/// the same handling of runs of decisions by one player), deepened one turn at a time from
/// depth 1 until the thread has spent `millis` milliseconds of CPU time on it; the choice of the deepest search
/// completed is played (a search cut short by the clock is thrown away). Each depth searches
/// the previous depth's best root action first, and at every node the action a transposition
/// table remembers as best there, then captures; the table also returns the values of
/// positions met again (by another order of moves, or at the previous depth's shallower
/// searches' bounds). Deepening stops early once the result is proven (a won or lost game
/// within the horizon) or the whole game tree fits in the depth.
///
/// The clock makes the choices depend on the machine and its load: not reproducible.
#[derive(Clone, Copy, Debug)]
pub struct DeepeningAgent {
    /// Milliseconds per decision.
    pub millis: u32,
    /// The evaluation at the leaves.
    pub eval: Eval,
}

impl DeepeningAgent {
    /// `millis` milliseconds per decision, leaves scored by `eval`.
    pub fn new(millis: u32, eval: Eval) -> DeepeningAgent {
        DeepeningAgent { millis, eval }
    }
}

/// A fast hash of positions (FxHash's multiply-rotate): the table's keys are plain values
/// hashed many times per node.
#[derive(Default, Clone, Copy)]
struct Fx(u64);

impl Fx {
    #[inline(always)]
    fn add(&mut self, w: u64) {
        self.0 = (self.0.rotate_left(5) ^ w).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
}

impl Hasher for Fx {
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for c in &mut chunks {
            let mut w = [0u8; 8];
            w.copy_from_slice(c);
            self.add(u64::from_le_bytes(w));
        }
        for &b in chunks.remainder() {
            self.add(b as u64);
        }
    }
    #[inline]
    fn write_u8(&mut self, i: u8) {
        self.add(i as u64);
    }
    #[inline]
    fn write_u16(&mut self, i: u16) {
        self.add(i as u64);
    }
    #[inline]
    fn write_u32(&mut self, i: u32) {
        self.add(i as u64);
    }
    #[inline]
    fn write_u64(&mut self, i: u64) {
        self.add(i);
    }
    #[inline]
    fn write_usize(&mut self, i: usize) {
        self.add(i as u64);
    }
    #[inline]
    fn finish(&self) -> u64 {
        self.0
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

#[derive(Clone, Copy)]
struct Entry<A> {
    depth: u32,
    value: i32,
    bound: Bound,
    best: A,
}

struct Search<'g, G: Game> {
    g: &'g G,
    ab: AlphaBetaAgent,
    /// The thread's CPU time at which the search stops.
    deadline: Duration,
    nodes: u64,
    stopped: bool,
    /// Leaves scored by the evaluation (not finished games) in the current depth.
    horizon: u64,
    table: HashMap<G::State, Entry<G::Action>, BuildHasherDefault<Fx>>,
}

impl<G: Game> Search<'_, G> {
    fn out_of_time(&mut self) -> bool {
        if !self.stopped
            && self.nodes.is_multiple_of(CLOCK_EVERY)
            && (thread_cpu() >= self.deadline || super::stop::requested())
        {
            self.stopped = true;
        }
        self.stopped
    }

    /// The value of live position `s` for the player to move there.
    fn search(&mut self, s: &G::State, depth: u32, chain: u32, mut alpha: i32, beta: i32) -> i32 {
        self.nodes += 1;
        if self.out_of_time() {
            return 0;
        }
        let Some(me) = self.g.to_move(s) else {
            return 0;
        };
        if depth == 0 || chain >= MAX_CHAIN {
            self.horizon += 1;
            return self.ab.evaluate(self.g, s, me);
        }
        let alpha0 = alpha;
        let mut first = None;
        if let Some(e) = self.table.get(s) {
            if e.depth >= depth {
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
        let mut moves = self.ab.ordered(self.g, s, me);
        if let Some(b) = first
            && let Some(i) = moves.iter().position(|&a| a == b)
        {
            moves[..=i].rotate_right(1);
        }
        let mut best = i32::MIN + 1;
        let mut best_action = moves[0];
        for &a in &moves {
            let mut t = s.clone();
            self.g.apply_unchecked(&mut t, a);
            let v = self.child(&t, me, depth, chain, alpha, beta);
            if self.stopped {
                return 0;
            }
            if v > best {
                best = v;
                best_action = a;
            }
            alpha = alpha.max(best);
            if alpha >= beta {
                break;
            }
        }
        let bound = if best <= alpha0 {
            Bound::Upper
        } else if best >= beta {
            Bound::Lower
        } else {
            Bound::Exact
        };
        if self.table.len() >= TABLE_LIMIT {
            self.table.clear();
        }
        self.table.insert(
            s.clone(),
            Entry {
                depth,
                value: best,
                bound,
                best: best_action,
            },
        );
        best
    }

    /// The value for `me` of the child `t` reached by `me`'s action.
    fn child(
        &mut self,
        t: &G::State,
        me: Player,
        depth: u32,
        chain: u32,
        alpha: i32,
        beta: i32,
    ) -> i32 {
        match self.g.to_move(t) {
            None => self.ab.evaluate(self.g, t, me),
            Some(p) if p == me => self.search(t, depth, chain + 1, alpha, beta),
            Some(_) => -self.search(t, depth - 1, 0, -beta, -alpha),
        }
    }
}

impl DeepeningAgent {
    /// The action chosen at `s`, the depth of the deepest search completed and the nodes
    /// searched.
    pub fn decide<G: Game>(&self, g: &G, s: &G::State, rng: &mut Rng) -> (G::Action, u32, u64) {
        let start = thread_cpu();
        let ab = AlphaBetaAgent {
            depth: 1,
            eval: self.eval,
        };
        let me = g.to_move(s).expect("a live game");
        let mut moves: ActionList<G::Action> = ab.ordered(g, s, me);
        if moves.len() == 1 {
            return (moves[0], 0, 0);
        }
        let mut search = Search {
            g,
            ab,
            deadline: start + Duration::from_millis(self.millis as u64),
            nodes: 0,
            stopped: false,
            horizon: 0,
            table: HashMap::default(),
        };
        let mut chosen = None;
        let mut reached = 0;
        for depth in 1..=MAX_DEPTH {
            search.horizon = 0;
            let mut ties = super::Ties::new();
            let mut scored: Vec<(i32, G::Action)> = Vec::with_capacity(moves.len());
            for &a in &moves {
                let mut t = s.clone();
                g.apply_unchecked(&mut t, a);
                // A window just wide enough to tell equal values apart from worse ones.
                let alpha = ties.best().saturating_sub(1).max(i32::MIN + 1);
                let v = search.child(&t, me, depth, 0, alpha, i32::MAX);
                if search.stopped {
                    break;
                }
                ties.offer(a, v);
                scored.push((v, a));
            }
            if search.stopped {
                break;
            }
            reached = depth;
            chosen = Some(ties.pick(rng));
            // The next depth searches the best first (a stable sort keeps the capture order
            // among equals).
            scored.sort_by_key(|x| std::cmp::Reverse(x.0));
            moves.clear();
            moves.extend(scored.iter().map(|&(_, a)| a));
            let proven = ties.best().abs() >= WIN / 2;
            if proven || search.horizon == 0 {
                break;
            }
        }
        (chosen.unwrap_or(moves[0]), reached, search.nodes)
    }
}

impl<G: Game> Agent<G> for DeepeningAgent {
    fn choose(&mut self, g: &G, s: &G::State, rng: &mut Rng) -> G::Action {
        self.decide(g, s, rng).0
    }
}
