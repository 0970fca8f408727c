//! Monte Carlo tree search (UCT) with random rollouts played on the game's kernel.

use super::Agent;
use super::search::{Analysis, Candidate};
use crate::game::{ActionList, Game};
use crate::player::Player;
use crate::playout::{Playout, SliceFeed};
use crate::rng::Rng;
use rayon::prelude::*;

/// Turns past the root after which a rollout is cut and scored as a draw.
pub const ROLLOUT_TURNS: u32 = 200;

/// Most rollouts played together in one batch.
const MAX_BATCH: u32 = 256;

/// UCT with `iterations` iterations: select by UCB1 with exploration constant `c`, expand one
/// untried action (in random order), play the rest of the game at random, and back the result
/// up. Each node keeps the player who made the move into it, and rewards (1 win, ½ draw, 0
/// loss) are counted from that player's point of view, so runs of decisions by one player
/// (relay choices, additional takes) are handled. The most visited child is played, ties at
/// random.
///
/// Rollouts are played in batches (up to 256, a 32nd of the iterations): a batch's leaves are
/// selected one after the other, each pending leaf counted as a lost visit on its path (a
/// "virtual loss", so that the batch spreads over the tree); the batch's rollouts are then
/// played together by [`Game::random_playouts`] (on the game's SIMD kernel where it has one),
/// and backed up in the order the leaves were selected. Each rollout draws from its own
/// generator, seeded from the agent's, so the search is the same whichever way, and on
/// however many threads, its rollouts are played. A rollout still running
/// [`ROLLOUT_TURNS`] turns past the root is cut and scored as a draw (as Ludii's UCT cuts its
/// rollouts after 200 moves).
#[derive(Clone, Copy, Debug)]
pub struct MctsAgent {
    /// Iterations per decision.
    pub iterations: u32,
    /// Exploration constant.
    pub c: f64,
}

/// A move out of a node, with the statistics of the rollouts through it (kept in the parent,
/// side by side, so that choosing among them reads one array).
#[derive(Clone, Copy)]
struct Edge {
    /// Rollouts backed up through it.
    visits: u32,
    /// Rollouts selected through it and not yet backed up (counted as lost).
    pending: u32,
    /// Sum of their rewards for the player who makes this move.
    reward: f64,
    /// The node it leads to.
    node: u32,
}

struct Node<S, A> {
    /// The position at this node.
    state: S,
    /// The player to move here (who makes the moves out of it).
    to_move: Player,
    /// The moves tried from here, and their actions (side by side).
    edges: Vec<Edge>,
    actions: Vec<A>,
    /// The legal moves not tried yet, in the random order they will be.
    untried: Vec<A>,
}

/// The reward of a finished (or cut) rollout for player `p`.
fn reward<G: Game>(g: &G, s: &G::State, p: Player) -> f64 {
    match g.outcome(s).and_then(|o| o.winner) {
        Some(w) if w == p => 1.0,
        Some(_) => 0.0,
        None => 0.5,
    }
}

fn untried<G: Game>(g: &G, s: &G::State, rng: &mut Rng) -> Vec<G::Action> {
    let mut l = ActionList::new();
    g.legal_actions(s, &mut l);
    let mut v = l.to_vec();
    // Fisher-Yates with our generator: random expansion order, reproducible per seed.
    for i in (1..v.len()).rev() {
        v.swap(i, rng.below(i + 1));
    }
    v
}

/// One step of a selected path: the edge `slot` of node `node`, whose mover is `mover`.
#[derive(Clone, Copy)]
struct Step {
    node: u32,
    slot: u32,
    mover: Player,
}

/// A search tree and what it needs.
struct Tree<'a, G: Game> {
    g: &'a G,
    c: f64,
    nodes: Vec<Node<G::State, G::Action>>,
    /// The root's own counts (every other node's are in the edge into it).
    root_visits: u32,
    root_pending: u32,
}

impl<G: Game> Tree<'_, G> {
    /// Descends by UCB1 (pending rollouts counted as lost visits) and expands one untried
    /// action; appends the path taken to `path` (its pending counts taken) and returns the
    /// leaf.
    fn select(&mut self, rng: &mut Rng, path: &mut Vec<Step>) -> u32 {
        self.root_pending += 1;
        let mut n = 0u32;
        let mut seen_n = (self.root_visits + self.root_pending) as f64;
        loop {
            let node = &mut self.nodes[n as usize];
            if !node.untried.is_empty() || node.edges.is_empty() {
                break;
            }
            let explore = self.c * seen_n.ln().sqrt();
            let mut best = f64::NEG_INFINITY;
            let mut pick = 0;
            for (i, e) in node.edges.iter().enumerate() {
                let seen = (e.visits + e.pending) as f64;
                let v = e.reward / seen + explore / seen.sqrt();
                if v > best {
                    best = v;
                    pick = i;
                }
            }
            let e = &mut node.edges[pick];
            e.pending += 1;
            seen_n = (e.visits + e.pending) as f64;
            path.push(Step {
                node: n,
                slot: pick as u32,
                mover: node.to_move,
            });
            n = e.node;
        }
        let node = &mut self.nodes[n as usize];
        let Some(a) = node.untried.pop() else {
            return n;
        };
        let mut state = node.state.clone();
        let mover = node.to_move;
        self.g.apply_unchecked(&mut state, a);
        let (to_move, untried) = match self.g.to_move(&state) {
            Some(p) => (p, untried(self.g, &state, rng)),
            None => (mover, vec![]),
        };
        let id = self.nodes.len() as u32;
        let node = &mut self.nodes[n as usize];
        node.edges.push(Edge {
            visits: 0,
            pending: 1,
            reward: 0.0,
            node: id,
        });
        node.actions.push(a);
        path.push(Step {
            node: n,
            slot: (node.edges.len() - 1) as u32,
            mover,
        });
        self.nodes.push(Node {
            state,
            to_move,
            edges: vec![],
            actions: vec![],
            untried,
        });
        id
    }

    /// Backs up a rollout that ended in `s` along the path selected for it.
    fn back_up(&mut self, path: &[Step], s: &G::State) {
        self.root_pending -= 1;
        self.root_visits += 1;
        for step in path {
            let e = &mut self.nodes[step.node as usize].edges[step.slot as usize];
            e.pending -= 1;
            e.visits += 1;
            e.reward += reward(self.g, s, step.mover);
        }
    }
}

impl MctsAgent {
    /// Runs the search from `root` and reports every root action's visits and mean reward
    /// (for the player to move at the root); `threads` play each batch's rollouts (the result
    /// does not depend on it).
    pub fn analyse<G: Game>(
        &self,
        g: &G,
        root: &G::State,
        rng: &mut Rng,
        threads: usize,
    ) -> Analysis<G::Action> {
        let me = g.to_move(root).expect("a live game");
        let mut legal = ActionList::new();
        g.legal_actions(root, &mut legal);
        if legal.len() == 1 {
            return Analysis::forced(legal[0]);
        }
        let cut = g.turns(root).saturating_add(ROLLOUT_TURNS);
        let rollouts = g.with_turn_limit(cut);
        let mut tree = Tree {
            g,
            c: self.c,
            nodes: vec![Node {
                state: root.clone(),
                to_move: me,
                edges: vec![],
                actions: vec![],
                untried: untried(g, root, rng),
            }],
            root_visits: 0,
            root_pending: 0,
        };
        let batch = (self.iterations / 32).clamp(1, MAX_BATCH);
        let mut done = 0;
        let mut games: Vec<Playout<G::State>> = Vec::with_capacity(batch as usize);
        // The paths of the batch's rollouts, one after the other, and where each ends.
        let mut paths: Vec<Step> = Vec::new();
        let mut ends: Vec<usize> = Vec::with_capacity(batch as usize);
        // A stopped run (super::stop) ends the search at the next batch.
        while done < self.iterations && !super::stop::requested() {
            let round = batch.min(self.iterations - done);
            games.clear();
            paths.clear();
            ends.clear();
            for _ in 0..round {
                let from = paths.len();
                let leaf = tree.select(rng, &mut paths);
                let s = &tree.nodes[leaf as usize].state;
                let seed = rng.next_u64();
                if g.to_move(s).is_none() || g.turns(s) >= cut {
                    // Over (or at the cut) already: no rollout.
                    let s = s.clone();
                    let path: Vec<Step> = paths.drain(from..).collect();
                    tree.back_up(&path, &s);
                } else {
                    ends.push(paths.len());
                    games.push(Playout::new(s.clone(), Rng::from_seed(seed), 0));
                }
            }
            play_all(&rollouts, &mut games, threads);
            let mut from = 0;
            for (&end, p) in ends.iter().zip(&games) {
                tree.back_up(&paths[from..end], &p.state);
                from = end;
            }
            done += round;
        }
        let root = &tree.nodes[0];
        let candidates: Vec<Candidate<G::Action>> = root
            .edges
            .iter()
            .zip(&root.actions)
            .map(|(e, &action)| Candidate {
                action,
                visits: Some(e.visits as u64),
                value: Some(if e.visits == 0 {
                    0.5
                } else {
                    e.reward / e.visits as f64
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

/// Plays a batch of rollouts on `threads` threads (one: on this one), each in its own share.
fn play_all<G: Game>(g: &G, games: &mut [Playout<G::State>], threads: usize) {
    if threads <= 1 || games.len() < 64 {
        g.random_playouts(&mut SliceFeed::new(games));
        return;
    }
    let share = games.len().div_ceil(threads);
    games
        .par_chunks_mut(share)
        .for_each(|chunk| g.random_playouts(&mut SliceFeed::new(chunk)));
}

impl<G: Game> Agent<G> for MctsAgent {
    fn choose(&mut self, g: &G, root: &G::State, rng: &mut Rng) -> G::Action {
        self.analyse(g, root, rng, 1).action
    }
}
