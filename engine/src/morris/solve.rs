//! Exact solution of small line games by retrograde analysis over every reachable position
//! (tsoro yemutatu: a few thousand positions), and a check of Matthews' remark on board B.

use super::MorrisAction;
use super::config::MorrisRules;
use super::game::{MorrisGame, MorrisState};
use crate::game::ActionList;
use crate::player::Player;
use serde::Serialize;
use std::collections::HashMap;

/// The value of a position with best play on both sides, for the player to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Value {
    /// The player to move can force a win.
    Win,
    /// The opponent can force a win.
    Loss,
    /// Neither can force a win.
    Draw,
}

/// Too many positions to solve.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("more than {limit} reachable positions: too large to solve exactly")]
pub struct TooLarge {
    /// The limit.
    pub limit: usize,
}

/// Every reachable position of a game with its value.
#[derive(Clone, Debug)]
pub struct Solution {
    game: MorrisGame,
    states: Vec<MorrisState>,
    index: HashMap<u128, usize>,
    succ: Vec<Vec<(MorrisAction, usize)>>,
    /// Value for player A: 1 win, -1 loss, 0 draw.
    value_a: Vec<i8>,
}

/// What Matthews' remark on board B ("there is always a right and a wrong move available")
/// comes to over every reachable movement-stage position.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct SlipCount {
    /// Movement-stage positions where the game is not over.
    pub positions: usize,
    /// Positions with at least one move that lets the opponent make a line at once and at
    /// least one that does not.
    pub right_and_wrong: usize,
    /// Positions where every move lets the opponent make a line.
    pub only_wrong: usize,
    /// Positions where no move lets the opponent make a line.
    pub only_right: usize,
    /// Positions where the player to move can make a line at once (not counted above).
    pub line_now: usize,
}

impl Solution {
    /// Solves the game of these rules (the turn limit and repetition rule are ignored: play
    /// that never ends is a draw).
    pub fn solve(rules: &MorrisRules, limit: usize) -> Result<Solution, TooLarge> {
        let mut rules = rules.clone();
        rules.config.end.turn_limit = u32::MAX;
        rules.config.end.repetition = 0;
        let game = MorrisGame::new(rules);
        let mut states = vec![game.initial_state()];
        let mut index = HashMap::from([(states[0].key(), 0usize)]);
        let mut succ = Vec::new();
        let mut l = ActionList::new();
        let mut i = 0;
        while i < states.len() {
            let s = states[i].clone();
            game.legal_actions(&s, &mut l);
            let mut out = Vec::with_capacity(l.len());
            for &a in &l {
                let mut t = s.clone();
                game.apply_unchecked(&mut t, a);
                t.reset_clock();
                let n = states.len();
                let j = *index.entry(t.key()).or_insert(n);
                if j == n {
                    if n >= limit {
                        return Err(TooLarge { limit });
                    }
                    states.push(t);
                }
                out.push((a, j));
            }
            succ.push(out);
            i += 1;
        }
        // Retrograde analysis from player A's point of view.
        const UNKNOWN: i8 = 2;
        let mut value_a: Vec<i8> = states
            .iter()
            .map(|s| match s.outcome() {
                Some(o) => match o.winner {
                    Some(Player::A) => 1,
                    Some(Player::B) => -1,
                    None => 0,
                },
                None => UNKNOWN,
            })
            .collect();
        loop {
            let mut changed = false;
            for k in 0..states.len() {
                if value_a[k] != UNKNOWN {
                    continue;
                }
                let sign: i8 = if states[k].to_move() == Some(Player::A) {
                    1
                } else {
                    -1
                };
                let mut best = -1i8;
                let mut all_known = true;
                for &(_, j) in &succ[k] {
                    let v = value_a[j];
                    if v == UNKNOWN {
                        all_known = false;
                    } else {
                        best = best.max(v * sign);
                    }
                }
                if best == 1 || all_known {
                    value_a[k] = best * sign;
                    changed = true;
                }
            }
            if !changed {
                break;
            }
        }
        for v in &mut value_a {
            if *v == UNKNOWN {
                *v = 0;
            }
        }
        Ok(Solution {
            game,
            states,
            index,
            succ,
            value_a,
        })
    }

    /// Reachable positions (counting each player to move and stage apart), the finished ones
    /// as often as they are reached with different bookkeeping (see [`Self::finished`]).
    pub fn positions(&self) -> usize {
        self.states.len()
    }

    /// Reachable positions where the game goes on.
    pub fn open(&self) -> usize {
        self.states.iter().filter(|s| s.outcome().is_none()).count()
    }

    /// Distinct finished positions (the stones of each player). A line made by the last
    /// placement and one made by a move can leave the same stones with different bookkeeping
    /// (placement over or not), which [`Self::positions`] counts apart.
    pub fn finished(&self) -> usize {
        let boards: std::collections::HashSet<(u32, u32)> = self
            .states
            .iter()
            .filter(|s| s.outcome().is_some())
            .map(|s| (s.stones(Player::A), s.stones(Player::B)))
            .collect();
        boards.len()
    }

    /// The value of the start position for the player who moves first.
    pub fn start_value(&self) -> Value {
        self.value(&self.states[0]).unwrap_or(Value::Draw)
    }

    /// The value of a position for its player to move, if it is reachable.
    pub fn value(&self, s: &MorrisState) -> Option<Value> {
        let k = *self.index.get(&s.key())?;
        let v = self.value_a[k];
        let v = if s.to_move() == Some(Player::B) {
            -v
        } else {
            v
        };
        Some(match v {
            1 => Value::Win,
            -1 => Value::Loss,
            _ => Value::Draw,
        })
    }

    /// The actions that keep the best value available, in a reachable position.
    pub fn best_actions(&self, s: &MorrisState) -> Vec<MorrisAction> {
        let Some(&k) = self.index.get(&s.key()) else {
            return Vec::new();
        };
        let sign: i8 = if s.to_move() == Some(Player::A) {
            1
        } else {
            -1
        };
        let best = self.succ[k]
            .iter()
            .map(|&(_, j)| self.value_a[j] * sign)
            .max()
            .unwrap_or(0);
        self.succ[k]
            .iter()
            .filter(|&&(_, j)| self.value_a[j] * sign == best)
            .map(|&(a, _)| a)
            .collect()
    }

    /// Counts, over every reachable movement-stage position, moves that hand the opponent an
    /// immediate line ("wrong") and moves that do not ("right").
    pub fn slips(&self) -> SlipCount {
        let g = &self.game;
        let mut c = SlipCount::default();
        for (k, s) in self.states.iter().enumerate() {
            let Some(p) = s.to_move() else { continue };
            if g.placing(s, p) || g.placing(s, p.other()) || s.takes_owed() > 0 {
                continue;
            }
            c.positions += 1;
            let wins_now = self.succ[k].iter().any(|&(_, j)| {
                self.states[j]
                    .outcome()
                    .is_some_and(|o| o.winner == Some(p))
            });
            if wins_now {
                c.line_now += 1;
                continue;
            }
            let (mut right, mut wrong) = (0, 0);
            for &(_, j) in &self.succ[k] {
                let t = &self.states[j];
                if t.outcome().is_some() {
                    // Making a line oneself is neither.
                    continue;
                }
                let gives_line = self.succ[j].iter().any(|&(_, m)| {
                    self.states[m]
                        .outcome()
                        .is_some_and(|o| o.winner == Some(p.other()))
                });
                if gives_line {
                    wrong += 1;
                } else {
                    right += 1;
                }
            }
            match (right > 0, wrong > 0) {
                (true, true) => c.right_and_wrong += 1,
                (false, true) => c.only_wrong += 1,
                (true, false) => c.only_right += 1,
                (false, false) => {}
            }
        }
        c
    }
}
