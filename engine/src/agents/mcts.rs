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

struct Node<S, A> {
    /// The position at this node.
    state: S,
    /// The player who made the move into this node.
    mover: Player,
    action: Option<A>,
    parent: u32,
    children: Vec<u32>,
    untried: Vec<A>,
    visits: u32,
    /// Rollouts selected through this node and not yet backed up.
    pending: u32,
    reward: f64,
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

/// A search tree and what it needs.
struct Tree<'a, G: Game> {
    g: &'a G,
    c: f64,
    nodes: Vec<Node<G::State, G::Action>>,
}

impl<G: Game> Tree<'_, G> {
    /// Descends by UCB1 (pending rollouts counted as lost visits) and expands one untried
    /// action; returns the leaf, its pending count taken on the whole path.
    fn select(&mut self, rng: &mut Rng) -> u32 {
        let mut n = 0u32;
        loop {
            self.nodes[n as usize].pending += 1;
            let node = &self.nodes[n as usize];
            if !node.untried.is_empty() || node.children.is_empty() {
                break;
            }
            let ln = ((node.visits + node.pending) as f64).ln();
            let mut best = f64::NEG_INFINITY;
            let mut pick = node.children[0];
            for &ch in &node.children {
                let c = &self.nodes[ch as usize];
                let seen = (c.visits + c.pending) as f64;
                let v = if seen == 0.0 {
                    f64::INFINITY
                } else {
                    c.reward / seen + self.c * (ln / seen).sqrt()
                };
                if v > best {
                    best = v;
                    pick = ch;
                }
            }
            n = pick;
        }
        let Some(a) = self.nodes[n as usize].untried.pop() else {
            return n;
        };
        let parent = &self.nodes[n as usize];
        let mut state = parent.state.clone();
        let mover = self.g.to_move(&state).unwrap_or(parent.mover);
        self.g.apply_unchecked(&mut state, a);
        let untried = if self.g.to_move(&state).is_some() {
            untried(self.g, &state, rng)
        } else {
            vec![]
        };
        self.nodes.push(Node {
            state,
            mover,
            action: Some(a),
            parent: n,
            children: vec![],
            untried,
            visits: 0,
            pending: 1,
            reward: 0.0,
        });
        let id = (self.nodes.len() - 1) as u32;
        self.nodes[n as usize].children.push(id);
        id
    }

    /// Backs up the rollout from `leaf` that ended in `s`.
    fn back_up(&mut self, leaf: u32, s: &G::State) {
        let mut k = leaf;
        loop {
            let node = &mut self.nodes[k as usize];
            node.pending -= 1;
            node.visits += 1;
            node.reward += reward(self.g, s, node.mover);
            if k == 0 {
                break;
            }
            k = node.parent;
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
                mover: me.other(),
                action: None,
                parent: 0,
                children: vec![],
                untried: untried(g, root, rng),
                visits: 0,
                pending: 0,
                reward: 0.0,
            }],
        };
        let batch = (self.iterations / 32).clamp(1, MAX_BATCH);
        let mut done = 0;
        let mut games: Vec<Playout<G::State>> = Vec::with_capacity(batch as usize);
        let mut leaves: Vec<u32> = Vec::with_capacity(batch as usize);
        while done < self.iterations {
            let round = batch.min(self.iterations - done);
            games.clear();
            leaves.clear();
            for _ in 0..round {
                let leaf = tree.select(rng);
                let s = &tree.nodes[leaf as usize].state;
                let seed = rng.next_u64();
                if g.to_move(s).is_none() || g.turns(s) >= cut {
                    // Over (or at the cut) already: no rollout.
                    let s = s.clone();
                    tree.back_up(leaf, &s);
                } else {
                    leaves.push(leaf);
                    games.push(Playout::new(s.clone(), Rng::from_seed(seed), 0));
                }
            }
            play_all(&rollouts, &mut games, threads);
            for (leaf, p) in leaves.iter().zip(&games) {
                tree.back_up(*leaf, &p.state);
            }
            done += round;
        }
        let root = &tree.nodes[0];
        let candidates: Vec<Candidate<G::Action>> = root
            .children
            .iter()
            .map(|&ch| {
                let c = &tree.nodes[ch as usize];
                Candidate {
                    action: c.action.unwrap_or(legal[0]),
                    visits: Some(c.visits as u64),
                    value: Some(if c.visits == 0 {
                        0.5
                    } else {
                        c.reward / c.visits as f64
                    }),
                    score: None,
                }
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
