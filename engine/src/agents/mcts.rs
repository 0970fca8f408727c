//! Monte Carlo tree search (UCT) with random playouts.

use super::Agent;
use crate::game::{ActionList, Game};
use crate::player::Player;
use crate::rng::Rng;

/// Turns a playout may run past the root before it is scored by material.
const PLAYOUT_TURNS: u32 = 1_000;

/// UCT with `iterations` iterations: select by UCB1 with exploration constant `c`, expand one
/// untried action (in random order), play the rest of the game at random, and back the result
/// up. Each node keeps the player who made the move into it, and rewards (1 win, ½ draw, 0
/// loss) are counted from that player's point of view, so runs of decisions by one player
/// (relay choices, additional takes) are handled. A playout still running 1,000 turns past the
/// root is scored by the sign of the material difference. The most visited child is played,
/// ties at random.
#[derive(Clone, Copy, Debug)]
pub struct MctsAgent {
    /// Iterations per decision.
    pub iterations: u32,
    /// Exploration constant.
    pub c: f64,
}

struct Node<A> {
    /// The player who made the move into this node.
    mover: Player,
    action: Option<A>,
    parent: usize,
    children: Vec<usize>,
    untried: Vec<A>,
    visits: u32,
    reward: f64,
}

impl MctsAgent {
    fn reward<G: Game>(g: &G, s: &G::State, p: Player) -> f64 {
        match g.outcome(s) {
            Some(o) => match o.winner {
                Some(w) if w == p => 1.0,
                Some(_) => 0.0,
                None => 0.5,
            },
            None => {
                let d = g.material(s, p) - g.material(s, p.other());
                if d > 0 {
                    1.0
                } else if d < 0 {
                    0.0
                } else {
                    0.5
                }
            }
        }
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

impl<G: Game> Agent<G> for MctsAgent {
    fn choose(&mut self, g: &G, root: &G::State, rng: &mut Rng) -> G::Action {
        let me = g.to_move(root).expect("a live game");
        let mut legal = ActionList::new();
        g.legal_actions(root, &mut legal);
        if legal.len() == 1 {
            return legal[0];
        }
        let root_turns = g.turns(root);
        let mut nodes: Vec<Node<G::Action>> = vec![Node {
            mover: me.other(),
            action: None,
            parent: usize::MAX,
            children: vec![],
            untried: untried(g, root, rng),
            visits: 0,
            reward: 0.0,
        }];
        for _ in 0..self.iterations {
            let mut s = root.clone();
            let mut n = 0;
            // Selection.
            while nodes[n].untried.is_empty() && !nodes[n].children.is_empty() {
                let ln = (nodes[n].visits.max(1) as f64).ln();
                let mut best = f64::NEG_INFINITY;
                let mut pick = nodes[n].children[0];
                for &ch in &nodes[n].children {
                    let c = &nodes[ch];
                    let v = c.reward / c.visits as f64 + self.c * (ln / c.visits as f64).sqrt();
                    if v > best {
                        best = v;
                        pick = ch;
                    }
                }
                n = pick;
                if let Some(a) = nodes[n].action {
                    g.apply_unchecked(&mut s, a);
                }
            }
            // Expansion.
            if let Some(a) = nodes[n].untried.pop() {
                let mover = g.to_move(&s).unwrap_or(me);
                g.apply_unchecked(&mut s, a);
                let child = Node {
                    mover,
                    action: Some(a),
                    parent: n,
                    children: vec![],
                    untried: if g.to_move(&s).is_some() {
                        untried(g, &s, rng)
                    } else {
                        vec![]
                    },
                    visits: 0,
                    reward: 0.0,
                };
                nodes.push(child);
                let id = nodes.len() - 1;
                nodes[n].children.push(id);
                n = id;
            }
            // Playout.
            let limit = root_turns + PLAYOUT_TURNS;
            while g.turns(&s) < limit {
                let Some(a) = g.random_action(&s, rng) else {
                    break;
                };
                g.apply_unchecked(&mut s, a);
            }
            // Back-propagation.
            let mut k = n;
            loop {
                let p = nodes[k].mover;
                nodes[k].visits += 1;
                nodes[k].reward += Self::reward(g, &s, p);
                if nodes[k].parent == usize::MAX {
                    break;
                }
                k = nodes[k].parent;
            }
        }
        let most = nodes[0]
            .children
            .iter()
            .map(|&c| nodes[c].visits)
            .max()
            .unwrap_or(0);
        let best: Vec<usize> = nodes[0]
            .children
            .iter()
            .copied()
            .filter(|&c| nodes[c].visits == most)
            .collect();
        match best.len() {
            0 => legal[rng.below(legal.len())],
            n => nodes[best[rng.below(n)]].action.unwrap_or(legal[0]),
        }
    }
}
