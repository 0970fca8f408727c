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
/// one, 32 games at a time): when the player has room for a game and none is waiting, the
/// search selects and expands the leaves of the next 32 iterations (one after the other,
/// while the tree is in the cache), and it backs up each rollout as soon as it is over.
/// Rollouts selected and not yet backed up (at most 64 with the kernel) count as lost visits
/// on their paths (a "virtual loss", so that they spread over the tree). Each rollout draws from its own generator, seeded from the agent's,
/// and the player hands games out and back in an order fixed by their moves, so a search is
/// the same on every machine. The search runs on one thread. A rollout still running
/// [`ROLLOUT_MOVES`] moves past the root is cut and scored as a draw, as Ludii's UCT cuts its
/// rollouts ([`Game::rollout_game`]).
#[derive(Clone, Copy, Debug)]
pub struct MctsAgent {
    /// Iterations per decision.
    pub iterations: u32,
    /// Exploration constant.
    pub c: f64,
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
    /// The node it leads to (its position is `Tree::states[node]`).
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

/// `[0.5 / n, 1 / sqrt(n)]`: the scales of UCB1's mean (in half points) and exploration bonus
/// for a child seen `n` times.
fn scales_of(n: u32) -> [f64; 2] {
    let n = n as f64;
    [0.5 / n, 1.0 / n.sqrt()]
}

/// The root's entry in the edge arena.
const ROOT: usize = 0;

/// A search tree and what it needs.
struct Tree<'a, G: Game> {
    g: &'a G,
    c: f64,
    /// Each node's position.
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

/// Visit counts whose UCB1 scales are looked up rather than computed (a child's count is
/// mostly small; the table stays in the nearest cache).
const SCALE_TABLE: usize = 1024;

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
        tree.edges.push(Edge::unexplored());
        let e = tree.add(root.clone(), mover);
        tree.edges[ROOT] = Edge { visits: 0, ..e };
        tree
    }

    /// Adds a node for position `s` (reached by a move of `mover`) and returns the entry of a
    /// new edge to it. Its moves get their slots in the arenas when it is first expanded
    /// ([`Tree::open`]): most nodes stay leaves.
    fn add(&mut self, s: G::State, mover: Player) -> Edge {
        let (to_move, legal) = match self.g.to_move(&s) {
            Some(p) => (p, self.g.legal_count(&s)),
            None => (mover, 0),
        };
        let node = self.states.len() as u32;
        self.states.push(s);
        Edge {
            visits: 1,
            halves: 0,
            node,
            first: 0,
            legal: legal as u8,
            tried: 0,
            to_move,
        }
    }

    /// Gives the moves of the node edge `at` leads to their slots in the arenas, its legal
    /// actions in a random order (Fisher-Yates with the search's generator, reproducible per
    /// seed), the last drawn to be tried first; returns the first slot.
    fn open(&mut self, at: usize, rng: &mut Rng) -> u32 {
        let first = self.actions.len() as u32;
        let node = self.edges[at].node as usize;
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

    /// Descends by UCB1 (rollouts not yet backed up counted as lost visits) and expands one
    /// untried action; appends the path taken to `path` (its visits counted) and returns the
    /// leaf's node.
    fn select(&mut self, rng: &mut Rng, path: &mut Vec<Step>) -> u32 {
        self.edges[ROOT].visits += 1;
        let mut at = ROOT;
        loop {
            let here = self.edges[at];
            if here.tried < here.legal || here.tried == 0 {
                break;
            }
            let explore = self.explore(here.visits);
            let first = here.first as usize;
            let mut best = f64::NEG_INFINITY;
            let mut pick = first;
            for (i, e) in self.edges[first..first + here.tried as usize]
                .iter()
                .enumerate()
            {
                // What the next level reads, whichever child wins: fetched from memory
                // together rather than one level after the other.
                if e.tried > 0 {
                    prefetch(self.edges.as_ptr().wrapping_add(e.first as usize));
                }
                if e.tried < e.legal {
                    // Every cache line of the position (the whole of it is copied to expand).
                    let at = self
                        .states
                        .as_ptr()
                        .wrapping_add(e.node as usize)
                        .cast::<u8>();
                    for line in (0..std::mem::size_of::<G::State>()).step_by(64) {
                        prefetch(at.wrapping_add(line));
                    }
                }
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
            at = pick;
        }
        let here = self.edges[at];
        if here.tried == here.legal {
            return here.node;
        }
        let first = if here.tried == 0 {
            self.open(at, rng)
        } else {
            here.first
        };
        let slot = first as usize + here.tried as usize;
        self.edges[at].tried += 1;
        let mut state = self.states[here.node as usize].clone();
        self.g.apply_unchecked(&mut state, self.actions[slot]);
        let e = self.add(state, here.to_move);
        self.edges[slot] = e;
        path.push(Step {
            edge: slot as u32,
            mover: here.to_move,
        });
        e.node
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
    /// Runs the search from `root` and reports every root action's visits and mean reward
    /// (for the player to move at the root).
    pub fn analyse<G: Game>(&self, g: &G, root: &G::State, rng: &mut Rng) -> Analysis<G::Action> {
        let me = g.to_move(root).expect("a live game");
        let mut legal = ActionList::new();
        g.legal_actions(root, &mut legal);
        if legal.len() == 1 {
            return Analysis::forced(legal[0]);
        }
        let rollouts = g.rollout_game(root, ROLLOUT_MOVES);
        // At most one node per iteration, and the root.
        let mut tree = Tree::new(g, self.c, root, me, self.iterations as usize + 1);
        rollouts.random_playouts(&mut Pipeline {
            cut: g.moves(root).saturating_add(ROLLOUT_MOVES),
            tree: &mut tree,
            rng: &mut *rng,
            left: self.iterations,
            paths: Vec::new(),
            free: Vec::new(),
            queue: Default::default(),
        });
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
            iterations: self.iterations as u64,
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
    /// The paths of the rollouts in play, by tag; `free` lists the tags not in use.
    paths: Vec<Vec<Step>>,
    free: Vec<usize>,
    /// Rollouts selected and not yet handed out.
    queue: std::collections::VecDeque<Waiting>,
}

/// A rollout selected and not yet handed out: its tag, the node it starts from and the seed
/// of its generator.
struct Waiting {
    tag: usize,
    leaf: u32,
    seed: u64,
}

/// Iterations between two looks at whether the run was asked to stop.
const STOP_EVERY: u32 = 256;

impl<G: Game> Pipeline<'_, '_, G> {
    /// Selects the leaves of up to [`AHEAD`] iterations, queuing a rollout for each that needs
    /// one (and backing up at once those that do not).
    fn select_ahead(&mut self) {
        let mut n = 0;
        while n < AHEAD && self.left > 0 {
            // A stopped run (super::stop) ends the search.
            if self.left.is_multiple_of(STOP_EVERY) && super::stop::requested() {
                self.left = 0;
                break;
            }
            self.left -= 1;
            n += 1;
            let tag = self.free.pop().unwrap_or_else(|| {
                self.paths.push(Vec::new());
                self.paths.len() - 1
            });
            let path = &mut self.paths[tag];
            path.clear();
            let leaf = self.tree.select(self.rng, path);
            let seed = self.rng.next_u64();
            let s = &self.tree.states[leaf as usize];
            let g = self.tree.g;
            if g.to_move(s).is_none() || g.moves(s) >= self.cut {
                // Over (or at the cut) already: no rollout.
                let rewards = halves(g, s);
                self.tree.back_up(&self.paths[tag], rewards);
                self.free.push(tag);
                continue;
            }
            self.queue.push_back(Waiting { tag, leaf, seed });
        }
    }
}

/// Iterations selected together when the player asks for a rollout and none is waiting.
const AHEAD: u32 = 32;

impl<G: Game> Feed<G::State> for Pipeline<'_, '_, G> {
    fn next(&mut self) -> Option<Playout<G::State>> {
        while self.queue.is_empty() && self.left > 0 {
            self.select_ahead();
        }
        let w = self.queue.pop_front()?;
        Some(Playout::new(
            self.tree.states[w.leaf as usize].clone(),
            Rng::from_seed(w.seed),
            w.tag as u64,
        ))
    }

    fn done(&mut self, p: Playout<G::State>) {
        let tag = p.tag as usize;
        let rewards = halves(self.tree.g, &p.state);
        self.tree.back_up(&self.paths[tag], rewards);
        self.free.push(tag);
    }
}

impl<G: Game> Agent<G> for MctsAgent {
    fn choose(&mut self, g: &G, root: &G::State, rng: &mut Rng) -> G::Action {
        self.analyse(g, root, rng).action
    }
}
