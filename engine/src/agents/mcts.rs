//! Monte Carlo tree search (UCT) with random rollouts played on the game's kernel.

use super::Agent;
use super::search::{Analysis, Candidate};
use crate::game::{ActionList, Game};
use crate::player::Player;
use crate::playout::{Feed, Playout};
use crate::rng::Rng;

/// Moves (as Ludii counts them: a sowing lap is one) past the root after which a rollout is
/// cut and scored as a draw, as Ludii's UCT does.
pub const ROLLOUT_MOVES: u32 = 200;

/// UCT with `iterations` iterations: select by UCB1 with exploration constant `c`, expand one
/// untried action (in random order), play the rest of the game at random, and back the result
/// up. Each node keeps the player who made the move into it, and rewards (1 win, ½ draw, 0
/// loss) are counted from that player's point of view, so runs of decisions by one player
/// (relay choices, additional takes) are handled. The most visited child is played, ties at
/// random.
///
/// The rollouts stream through [`Game::random_playouts`] (the game's SIMD kernel where it has
/// one, 64 games at a time): when the player has room for a game and none is waiting, the
/// search takes the next 32 iterations down the tree, four at once, a level each in turn (so
/// that the memory one reads next is fetched while the others work; each reads the tree as if
/// those begun before it had finished their descents), and it backs up each rollout as soon
/// as it is over. Rollouts selected and not yet backed up count as lost visits on their paths
/// (a "virtual loss", so that they spread over the tree).
/// Each iteration draws its expansion's order and its rollout from its own generator, seeded
/// from the agent's, and the player hands games out and back in an order fixed by their
/// moves, so a search is the same on every machine. The search runs on one thread. A rollout
/// still running [`ROLLOUT_MOVES`] moves past the root is cut and scored as a draw, as Ludii's
/// UCT cuts its rollouts ([`Game::rollout_game`]).
#[derive(Clone, Copy, Debug)]
pub struct MctsAgent {
    /// Iterations per decision (at most: see `micros`).
    pub iterations: u32,
    /// Exploration constant.
    pub c: f64,
    /// A time budget per decision, in microseconds of the thread's CPU time: the search stops
    /// at the first look at the clock (every [`STOP_EVERY`] iterations) past it. Not
    /// reproducible.
    pub micros: Option<u32>,
}

impl MctsAgent {
    /// `iterations` iterations per decision.
    pub fn new(iterations: u32, c: f64) -> MctsAgent {
        MctsAgent {
            iterations,
            c,
            micros: None,
        }
    }

    /// As many iterations as `micros` microseconds per decision allow.
    pub fn timed(micros: u32, c: f64) -> MctsAgent {
        MctsAgent {
            iterations: u32::MAX,
            c,
            micros: Some(micros),
        }
    }
}

/// A move out of a node (20 bytes), with the statistics of the rollouts through it and what the descent
/// reads of the node it leads to (so that a level of the descent reads one array). A node's
/// moves sit side by side in one arena shared by the tree; slot 0 is the root's own entry.
#[derive(Clone, Copy)]
struct Edge {
    /// Rollouts selected through it: those backed up, and those not yet (which count as
    /// lost until they are).
    visits: u32,
    /// Sum of the backed-up rollouts' rewards for the player who makes this move, in half points (a win 2, a
    /// draw 1), so that it is an exact count.
    halves: u32,
    /// Where the position of the node it leads to is kept (`Tree::states[node]`), or
    /// [`UNKEPT`]: a node's position is kept from the first time the search comes back to it
    /// (most nodes are reached once, by the iteration that made them, and stay leaves).
    node: u32,
    /// That node's moves' first slot in the arenas, once it has been expanded (`tried > 0`).
    first: u32,
    /// Its legal moves (slots `first..first + legal`).
    legal: u8,
    /// Its moves tried so far: slots `first..first + tried` hold their edges, the remaining
    /// actions wait in the random order they will be tried.
    tried: u8,
    /// The player to move there (who makes the moves out of it).
    to_move: Player,
}

// An edge is five words: a cache line holds three moves and more.
const _: () = assert!(std::mem::size_of::<Edge>() == 20);

/// The reward of a finished (or cut) rollout for each seat, in half points.
fn halves<G: Game>(g: &G, s: &G::State) -> [u32; 2] {
    match g.outcome(s).and_then(|o| o.winner) {
        Some(w) => {
            let mut r = [0; 2];
            r[w.index()] = 2;
            r
        }
        None => [1, 1],
    }
}

/// One step of a selected path: the edge taken (its arena slot) and who moved along it.
#[derive(Clone, Copy)]
struct Step {
    edge: u32,
    mover: Player,
}

/// Asks the processor to bring the cache line at `p` closer (a hint: `p` need not be valid).
#[inline(always)]
fn prefetch<T>(p: *const T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: SSE is part of x86-64, and a prefetch never faults, whatever the address.
    unsafe {
        use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
        _mm_prefetch::<_MM_HINT_T0>(p.cast());
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = p;
}

/// Asks for every cache line of the memory from `from` up to `to`.
#[inline(always)]
fn prefetch_range<T>(from: *const T, to: *const T) {
    let mut line = from as usize & !63;
    while line < to as usize {
        prefetch(line as *const u8);
        line += 64;
    }
}

/// `[0.5 / n, 1 / sqrt(n)]`: the scales of UCB1's mean (in half points) and exploration bonus
/// for a child seen `n` times.
fn scales_of(n: u32) -> [f64; 2] {
    let n = n as f64;
    [0.5 / n, 1.0 / n.sqrt()]
}

/// The root's entry in the edge arena.
const ROOT: usize = 0;

/// [`Edge::node`] of a node whose position is not kept.
const UNKEPT: u32 = u32::MAX;

/// A search tree and what it needs.
struct Tree<'a, G: Game> {
    g: &'a G,
    c: f64,
    /// The positions of the nodes the search came back to (the root first).
    states: Vec<G::State>,
    /// The arenas of the nodes' moves: statistics and actions, slot by slot.
    edges: Vec<Edge>,
    actions: Vec<G::Action>,
    /// Scratch for the legal actions of a new node.
    legal: ActionList<G::Action>,
    /// `c * sqrt(ln n)` for the visit counts `n` below [`EXPLORE_TABLE`], as [`Tree::explore`]
    /// computes it (the same bits: a lookup instead of a logarithm deep in the tree).
    explore: Vec<f64>,
    /// `[0.5 / n, 1 / sqrt(n)]` for the visit counts `n` below [`SCALE_TABLE`], as
    /// [`Tree::scales`] computes them.
    scales: Vec<[f64; 2]>,
}

/// Visit counts whose UCB1 scales are looked up rather than computed, up to those of the
/// children at the top of a tree of a few hundred thousand iterations (else a square root and
/// a division for each of them on every descent); a search builds no more of the table than
/// its iterations can need.
const SCALE_TABLE: usize = 1 << 15;

/// Visit counts whose exploration term is looked up rather than computed.
const EXPLORE_TABLE: usize = 1 << 16;

impl<G: Game> Tree<'_, G> {
    /// A tree holding only `root`, a live position where `mover` is to move.
    fn new<'a>(g: &'a G, c: f64, root: &G::State, mover: Player, capacity: usize) -> Tree<'a, G> {
        let mut tree = Tree {
            g,
            c,
            states: Vec::with_capacity(capacity),
            edges: Vec::new(),
            actions: Vec::new(),
            legal: ActionList::new(),
            // No count goes past the iterations (one node each): a small search builds small
            // tables.
            explore: (0..EXPLORE_TABLE.min(capacity + 1))
                .map(|n| c * (n as f64).ln().sqrt())
                .collect(),
            scales: (0..SCALE_TABLE.min(capacity + 1) as u32)
                .map(scales_of)
                .collect(),
        };
        // The root's entry takes slot 0 of both arenas; its action slot is never read.
        g.legal_actions(root, &mut tree.legal);
        tree.actions.extend(tree.legal.first().copied());
        let e = tree.entry(root, mover);
        tree.states.push(root.clone());
        tree.edges.push(Edge {
            visits: 0,
            node: 0,
            ..e
        });
        tree
    }

    /// The entry of a new edge to a node for position `s` (reached by a move of `mover`),
    /// its position not kept. Its moves get their slots in the arenas when it is first
    /// expanded ([`Tree::open`]).
    fn entry(&self, s: &G::State, mover: Player) -> Edge {
        let (to_move, legal) = match self.g.to_move(s) {
            Some(p) => (p, self.g.legal_count(s)),
            None => (mover, 0),
        };
        Edge {
            visits: 1,
            halves: 0,
            node: UNKEPT,
            first: 0,
            legal: legal as u8,
            tried: 0,
            to_move,
        }
    }

    /// Keeps the position of the node edge `at` leads to, played again from its parent's
    /// (the node edge `parent` leads to, whose position is kept), and returns where it is.
    fn keep(&mut self, parent: usize, at: usize) -> usize {
        let mut s = self.states[self.edges[parent].node as usize].clone();
        self.g.apply_unchecked(&mut s, self.actions[at]);
        let node = self.states.len();
        self.states.push(s);
        self.edges[at].node = node as u32;
        node
    }

    /// Gives the moves of the node edge `at` leads to (its position kept at `node`) their
    /// slots in the arenas, its legal actions in a random order (Fisher-Yates with the
    /// search's generator, reproducible per seed), the last drawn to be tried first; returns
    /// the first slot.
    fn open(&mut self, at: usize, node: usize, rng: &mut Rng) -> u32 {
        let first = self.actions.len() as u32;
        self.g.legal_actions(&self.states[node], &mut self.legal);
        let v = &mut self.legal[..];
        for i in (1..v.len()).rev() {
            v.swap(i, rng.below(i + 1));
        }
        self.actions.extend(v.iter().rev().copied());
        let legal = v.len();
        self.edges
            .resize(self.edges.len() + legal, Edge::unexplored());
        let e = &mut self.edges[at];
        e.first = first;
        e.legal = legal as u8;
        first
    }

    /// The exploration term of a node seen `n` times: `c * sqrt(ln n)`.
    #[inline(always)]
    fn explore(&self, n: u32) -> f64 {
        match self.explore.get(n as usize) {
            Some(&x) => x,
            None => self.c * (n as f64).ln().sqrt(),
        }
    }

    /// What a child seen `n` times scores by: its mean is `halves * s[0]`, its exploration
    /// bonus the parent's term times `s[1]`.
    #[inline(always)]
    fn scales(&self, n: u32) -> [f64; 2] {
        match self.scales.get(n as usize) {
            Some(&s) => s,
            None => scales_of(n),
        }
    }

    /// One level of descent `d`. At a node with untried moves (or none) the descent ends: the
    /// node is expanded ([`Tree::expand`]) and the leaf's position returned with the
    /// iteration's generator. Otherwise it goes down the edge UCB1 picks (rollouts not yet
    /// backed up counted as lost visits), appended to `path` with its visit counted, and what
    /// its next level will read is fetched while other descents take their turns.
    fn step(&mut self, d: &mut Descent, path: &mut Vec<Step>) -> Option<(G::State, Rng)> {
        let at = d.at as usize;
        let here = self.edges[at];
        if here.tried < here.legal || here.tried == 0 {
            let mut rng = Rng::from_seed(d.seed);
            let leaf = self.expand(d.parent as usize, at, &mut rng, path);
            return Some((leaf, rng));
        }
        let explore = self.explore(here.visits);
        let first = here.first as usize;
        let mut best = f64::NEG_INFINITY;
        let mut pick = first;
        for (i, e) in self.edges[first..first + here.tried as usize]
            .iter()
            .enumerate()
        {
            // UCB1: mean + explore / sqrt(seen).
            let [mean, bonus] = self.scales(e.visits);
            let v = e.halves as f64 * mean + explore * bonus;
            if v > best {
                best = v;
                pick = first + i;
            }
        }
        self.edges[pick].visits += 1;
        path.push(Step {
            edge: pick as u32,
            mover: here.to_move,
        });
        self.fetch(here.node, pick);
        d.parent = d.at;
        d.at = pick as u32;
        None
    }

    /// Asks for the memory the next step of a descent at edge `at` (out of the node whose
    /// position is kept at `from`) reads: the moves out of the node it leads to, or, if the
    /// descent ends there, the position it expands from and the slots it fills.
    #[inline(always)]
    fn fetch(&self, from: u32, at: usize) {
        let e = self.edges[at];
        if e.tried > 0 && e.tried == e.legal {
            let lines = self.edges.as_ptr().wrapping_add(e.first as usize);
            prefetch_range(lines, lines.wrapping_add(e.tried as usize));
            return;
        }
        // A node not kept is played again from its parent's position, by the action to it.
        let node = if e.node == UNKEPT {
            prefetch(self.actions.as_ptr().wrapping_add(at));
            from
        } else {
            let slot = e.first as usize + e.tried as usize;
            prefetch(self.actions.as_ptr().wrapping_add(slot));
            prefetch(self.edges.as_ptr().wrapping_add(slot));
            e.node
        };
        let s = self.states.as_ptr().wrapping_add(node as usize);
        prefetch_range(s, s.wrapping_add(1));
    }

    /// Expands the node edge `at` leads to (its parent's edge is `parent`), where the descent
    /// along `path` ended: tries its next untried action (the first time, its moves get their
    /// slots, in an order drawn from `rng`) and appends the new edge to `path`; returns the
    /// new leaf's position (a node with no moves is its own leaf).
    fn expand(
        &mut self,
        parent: usize,
        at: usize,
        rng: &mut Rng,
        path: &mut Vec<Step>,
    ) -> G::State {
        let here = self.edges[at];
        // The search is back at this node: its position is kept from now on.
        let node = match here.node {
            UNKEPT => self.keep(parent, at),
            n => n as usize,
        };
        if here.tried == here.legal {
            // Over (no moves): the position as it is.
            return self.states[node].clone();
        }
        let first = if here.tried == 0 {
            self.open(at, node, rng)
        } else {
            here.first
        };
        let slot = first as usize + here.tried as usize;
        self.edges[at].tried += 1;
        let mut state = self.states[node].clone();
        self.g.apply_unchecked(&mut state, self.actions[slot]);
        self.edges[slot] = self.entry(&state, here.to_move);
        path.push(Step {
            edge: slot as u32,
            mover: here.to_move,
        });
        state
    }

    /// Backs up a rollout's rewards (from [`halves`]) along the path selected for it.
    fn back_up(&mut self, path: &[Step], halves: [u32; 2]) {
        for step in path {
            self.edges[step.edge as usize].halves += halves[step.mover.index()];
        }
    }
}

impl Edge {
    /// An arena slot whose move has not been tried.
    fn unexplored() -> Edge {
        Edge {
            visits: 0,
            halves: 0,
            node: 0,
            first: 0,
            legal: 0,
            tried: 0,
            to_move: Player::A,
        }
    }
}

impl MctsAgent {
    /// The tree of a search from `root` (a live position where `me` is to move).
    fn grow<'g, G: Game>(
        &self,
        g: &'g G,
        root: &G::State,
        me: Player,
        rng: &mut Rng,
    ) -> Tree<'g, G> {
        let rollouts = g.rollout_game(root, ROLLOUT_MOVES);
        // At most one node per iteration, and the root (a timed search reserves for a
        // second's iterations and grows from there).
        let capacity = (self.iterations as usize).min(1 << 20) + 1;
        let mut tree = Tree::new(g, self.c, root, me, capacity);
        let deadline = self
            .micros
            .map(|us| crate::clock::thread_cpu() + std::time::Duration::from_micros(us as u64));
        rollouts.random_playouts(&mut Pipeline {
            deadline,
            cut: g.moves(root).saturating_add(ROLLOUT_MOVES),
            tree: &mut tree,
            rng,
            left: self.iterations,
            active: Vec::with_capacity(WIDTH),
            paths: Vec::new(),
            free: Vec::new(),
            queue: Default::default(),
        });
        tree
    }

    /// Runs the search from `root` and reports every root action's visits and mean reward
    /// (for the player to move at the root).
    pub fn analyse<G: Game>(&self, g: &G, root: &G::State, rng: &mut Rng) -> Analysis<G::Action> {
        let me = g.to_move(root).expect("a live game");
        let mut legal = ActionList::new();
        g.legal_actions(root, &mut legal);
        if legal.len() == 1 {
            return Analysis::forced(legal[0]);
        }
        let tree = self.grow(g, root, me, rng);
        let root = tree.edges[ROOT];
        let slots = root.first as usize..(root.first + root.tried as u32) as usize;
        let candidates: Vec<Candidate<G::Action>> = tree.edges[slots.clone()]
            .iter()
            .zip(&tree.actions[slots])
            .map(|(e, &action)| Candidate {
                action,
                visits: Some(e.visits as u64),
                value: Some(if e.visits == 0 {
                    0.5
                } else {
                    e.halves as f64 * 0.5 / e.visits as f64
                }),
                score: None,
            })
            .collect();
        let most = candidates
            .iter()
            .filter_map(|c| c.visits)
            .max()
            .unwrap_or(0);
        let best: Vec<&Candidate<G::Action>> = candidates
            .iter()
            .filter(|c| c.visits == Some(most))
            .collect();
        let action = match best.len() {
            0 => legal[rng.below(legal.len())],
            n => best[rng.below(n)].action,
        };
        Analysis {
            action,
            candidates,
            iterations: tree.edges[ROOT].visits as u64,
        }
    }
}

/// The search as a feed of rollouts: the player asks for a rollout whenever it has room (a
/// lane of the kernel free), and the search hands out one it selected ahead ([`AHEAD`] at a
/// time); each rollout handed back is backed up at once.
struct Pipeline<'t, 'g, G: Game> {
    tree: &'t mut Tree<'g, G>,
    rng: &'t mut Rng,
    /// Moves after which a rollout is over (a draw).
    cut: u32,
    /// Iterations not yet begun.
    left: u32,
    /// The descents under way (at most [`WIDTH`]), in the order they began.
    active: Vec<Descent>,
    /// The paths of the iterations under way, by tag; `free` lists the tags not in use.
    paths: Vec<Vec<Step>>,
    free: Vec<u32>,
    /// Rollouts selected and not yet handed out.
    queue: std::collections::VecDeque<Waiting<G::State>>,
    /// The thread's CPU time at which a timed search stops.
    deadline: Option<std::time::Duration>,
}

/// An iteration's descent under way: the arena slot of the edge it came down last and of the
/// one before it, its path's tag, and the seed of the generator its expansion and rollout draw
/// from.
#[derive(Clone, Copy)]
struct Descent {
    at: u32,
    parent: u32,
    tag: u32,
    seed: u64,
}

/// A rollout selected and not yet handed out: its tag, the position it starts from and its
/// generator.
struct Waiting<S> {
    tag: u32,
    leaf: S,
    rng: Rng,
}

/// Iterations between two looks at whether the run was asked to stop.
const STOP_EVERY: u32 = 256;

/// Leaves selected together when the player asks for a rollout and none is waiting.
const AHEAD: u32 = 32;

/// Descents under way at once, a level each in turn: while one computes, the memory the
/// others read next is on its way.
const WIDTH: usize = 4;

impl<G: Game> Pipeline<'_, '_, G> {
    /// Takes the descents under way a level at a time, beginning new ones as others end,
    /// until [`AHEAD`] have reached their leaves (or no iteration is left); queues a rollout
    /// for each leaf that needs one, and backs up at once those that do not.
    fn select_ahead(&mut self) {
        let mut leaves = 0;
        while leaves < AHEAD {
            while self.active.len() < WIDTH && self.left > 0 {
                // A stopped run (super::stop), or a timed search's deadline, ends the search.
                if self.left.is_multiple_of(STOP_EVERY)
                    && (super::stop::requested()
                        || self
                            .deadline
                            .is_some_and(|d| crate::clock::thread_cpu() >= d))
                {
                    self.left = 0;
                    break;
                }
                self.left -= 1;
                let tag = self.free.pop().unwrap_or_else(|| {
                    self.paths.push(Vec::new());
                    self.paths.len() as u32 - 1
                });
                self.paths[tag as usize].clear();
                self.tree.edges[ROOT].visits += 1;
                self.active.push(Descent {
                    at: ROOT as u32,
                    parent: ROOT as u32,
                    tag,
                    seed: self.rng.next_u64(),
                });
            }
            if self.active.is_empty() {
                return;
            }
            let mut i = 0;
            while i < self.active.len() {
                let mut d = self.active[i];
                let path = &mut self.paths[d.tag as usize];
                let Some((leaf, rng)) = self.tree.step(&mut d, path) else {
                    self.active[i] = d;
                    i += 1;
                    continue;
                };
                self.active.remove(i);
                leaves += 1;
                let g = self.tree.g;
                if g.to_move(&leaf).is_none() || g.moves(&leaf) >= self.cut {
                    // Over (or at the cut) already: no rollout.
                    self.tree.back_up(path, halves(g, &leaf));
                    self.free.push(d.tag);
                } else {
                    self.queue.push_back(Waiting {
                        tag: d.tag,
                        leaf,
                        rng,
                    });
                }
            }
        }
    }
}

impl<G: Game> Feed<G::State> for Pipeline<'_, '_, G> {
    fn next(&mut self) -> Option<Playout<G::State>> {
        while self.queue.is_empty() && (self.left > 0 || !self.active.is_empty()) {
            self.select_ahead();
        }
        let w = self.queue.pop_front()?;
        Some(Playout::new(w.leaf, w.rng, w.tag as u64))
    }

    fn done(&mut self, mut p: Playout<G::State>) {
        self.done_in(&mut p);
    }

    /// Backs the rollout up; only reads it (no copy, see [`Feed::next_into`]).
    fn done_in(&mut self, p: &mut Playout<G::State>) {
        let tag = p.tag as u32;
        let rewards = halves(self.tree.g, &p.state);
        self.tree.back_up(&self.paths[tag as usize], rewards);
        self.free.push(tag);
    }
}

impl<G: Game> Agent<G> for MctsAgent {
    fn choose(&mut self, g: &G, root: &G::State, rng: &mut Rng) -> G::Action {
        self.analyse(g, root, rng).action
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::AnyGame;
    use crate::catalogue::{self, Params};
    use crate::sowing::SowingGame;

    fn game(id: &str) -> SowingGame {
        let Ok(AnyGame::Sowing(g)) = catalogue::get(id).expect(id).build(&Params::new()) else {
            panic!("{id} is not a sowing game")
        };
        g
    }

    /// Checks the subtree below edge `at` (reached by a move of `mover`, its node's position
    /// `s`): kept positions are the positions, and every iteration through an edge was backed
    /// up along it exactly once. Returns the number of nodes below.
    fn check<G: Game>(t: &Tree<G>, at: usize, mover: Player, s: &G::State) -> usize {
        let e = t.edges[at];
        if e.node != UNKEPT {
            assert!(
                t.states[e.node as usize] == *s,
                "a kept position is the node's"
            );
        }
        assert!(e.halves <= 2 * e.visits);
        if e.legal == 0 {
            // A finished game: the same result every time.
            assert!(t.g.to_move(s).is_none());
            assert_eq!(e.tried, 0);
            assert!([0, e.visits, 2 * e.visits].contains(&e.halves));
            return 0;
        }
        assert_eq!(e.legal as usize, t.g.legal_count(s));
        let (mut visits, mut halves, mut below) = (0, 0, 0);
        for slot in e.first as usize..(e.first + e.tried as u32) as usize {
            let c = t.edges[slot];
            let mut child = s.clone();
            t.g.apply_unchecked(&mut child, t.actions[slot]);
            below += 1 + check(t, slot, e.to_move, &child);
            visits += c.visits;
            // The child's rewards are counted for the player to move here.
            halves += if e.to_move == mover {
                c.halves
            } else {
                2 * c.visits - c.halves
            };
        }
        if at == ROOT {
            assert_eq!(e.visits, visits, "every iteration goes down from the root");
        } else {
            // The iteration that made the node, and its rollout's reward.
            assert_eq!(e.visits, visits + 1, "visits add up");
            assert!(
                e.halves >= halves && e.halves - halves <= 2,
                "rewards add up"
            );
        }
        below
    }

    /// After a search, its tree is consistent: visits and rewards add up from the leaves to
    /// the root (every iteration backed up once, along its own path), each kept position is
    /// the one its moves lead to, and there is at most a node per iteration. Positions at the
    /// start and a few moves before the end (where the whole tree is soon grown and most
    /// iterations end in finished games).
    #[test]
    fn a_grown_tree_adds_up() {
        for id in [
            "tsoro-ludii",
            "tsoro-matthews-v7",
            "njombwa-sanderson-gambit",
        ] {
            let g = game(id);
            let mut rng = Rng::from_seed(5);
            let mut line = vec![g.initial_state()];
            while let Some(a) = g.random_action(line.last().expect("a start"), &mut rng) {
                let mut s = line.last().expect("a position").clone();
                g.apply_unchecked(&mut s, a);
                line.push(s);
            }
            let late = line
                .iter()
                .rev()
                .skip(6)
                .find(|s| g.to_move(s).is_some() && g.legal_count(s) >= 2)
                .expect("a choice near the end");
            for root in [&line[0], late] {
                let me = g.to_move(root).expect("a live game");
                let agent = MctsAgent::new(3000, std::f64::consts::SQRT_2);
                let t = agent.grow(&g, root, me, &mut Rng::from_seed(9));
                assert_eq!(t.edges[ROOT].visits, 3000, "{id}");
                let nodes = check(&t, ROOT, me, root);
                assert!(nodes <= 3000, "{id}: at most a node an iteration");
                assert!(t.states.len() <= nodes + 1, "{id}");
            }
        }
    }
}
