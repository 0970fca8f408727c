//! Games described for readers, as JSON: a state (board, player to move, legal actions,
//! captures, heads, and what the player to move is asked to decide) and what an action did.
//! Kept beside [`replay`](crate::replay) and outside the [`Game`] trait, which plays and does
//! not describe (as shakmaty keeps FEN and SAN outside `Position`).

use crate::game::{ActionList, Game, Report};
use crate::morris::{MorrisAction, MorrisGame, MorrisState};
use crate::player::Player;
use crate::sowing::state::Pending;
use crate::sowing::{Action, SowingGame, SowingState};
use serde_json::Value;

/// A game whose states and actions can be shown to a reader.
pub trait Describe: Game {
    /// The state as JSON for replays (board, to move, legal actions, captured counts, and
    /// `asking`: the kinds of the legal actions and, in words, the decision they offer).
    fn state_json(&self, s: &Self::State) -> Value;
    /// Applies a legal action and lists what happened, as JSON (for replays).
    fn apply_described(&self, s: &mut Self::State, a: Self::Action) -> (Report, Vec<Value>);
}

/// Each event as JSON.
fn events<E: serde::Serialize>(ev: &[E]) -> Vec<Value> {
    ev.iter()
        .map(|e| serde_json::to_value(e).unwrap_or_default())
        .collect()
}

/// The name of an action's kind: its JSON key (`sow`, `take`, `place`, ...) or `pass`.
fn kind_of<A: serde::Serialize>(a: &A) -> String {
    match serde_json::to_value(a).unwrap_or_default() {
        Value::Object(m) => m.keys().next().cloned().unwrap_or_default(),
        Value::String(s) => s,
        _ => String::new(),
    }
}

/// The kinds of the legal actions in their order of first appearance.
fn kinds<A: serde::Serialize>(legal: &[A]) -> Vec<String> {
    let mut out: Vec<String> = vec![];
    for a in legal {
        let k = kind_of(a);
        if !out.contains(&k) {
            out.push(k);
        }
    }
    out
}

/// `n` and the noun, singular or plural ("1 take", "5 takes").
fn count(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// The phrases of the decision joined: "a; or b; or pass" (pass last, as "or pass" when there
/// is anything else to do).
fn asking(kinds: Vec<String>, phrases: Vec<String>, pass_alone: &str) -> Value {
    let has_pass = kinds.iter().any(|k| k == "pass");
    let mut text = phrases.join("; or ");
    if has_pass {
        text = if text.is_empty() {
            pass_alone.to_string()
        } else {
            format!("{text}; or pass")
        };
    }
    serde_json::json!({"kinds": kinds, "text": text})
}

/// What the player to move in a sowing game is asked, from the kinds of his legal actions
/// and the state they stand in ("take one of B's holes (5 takes due)").
fn sowing_asking(s: &SowingState, legal: &[Action]) -> Value {
    let Some(me) = s.to_move() else {
        return Value::Null;
    };
    let opp = me.other();
    let kinds = kinds(legal);
    let mut phrases = vec![];
    for k in &kinds {
        let of_kind: Vec<&Action> = legal.iter().filter(|a| &kind_of(a) == k).collect();
        let phrase = match of_kind.as_slice() {
            [Action::Sow(h)] => format!("sow from {h}, the only hole you may sow"),
            [Action::Sow(_), ..] => format!(
                "choose one of your holes to sow from ({} to choose from)",
                of_kind.len()
            ),
            [Action::Relay(_), ..] => match s.pending {
                Pending::Relay { pos, .. } => format!(
                    "the last stone fell in your head {}: stop or sow on",
                    crate::notation::Hole::from_track(me, pos as usize, s.holes())
                ),
                _ => "stop or sow on".to_string(),
            },
            [Action::Take(h), ..] if h.owner() == opp => {
                let due = match s.pending {
                    Pending::Takes { left } => {
                        format!(" ({} due)", count(left as usize, "take", "takes"))
                    }
                    _ => String::new(),
                };
                if of_kind.len() == 1 {
                    format!("take {h}, the only hole of {opp}'s you may take{due}")
                } else {
                    format!("take one of {opp}'s holes{due}")
                }
            }
            [Action::Take(h)] => format!("remove the stones of {h} from the board"),
            [Action::Take(_), ..] => "remove the stones of one of your holes".to_string(),
            [Action::Move([a, b])] => format!("move the stones of {a} into {b}"),
            [Action::Move(_), ..] => "move the stones of one of your holes into another".into(),
            [Action::Nominate(_), ..] => format!(
                "nominate one of your back-row holes as a head ({} left to nominate)",
                s.nominations_left[me.index()]
            ),
            _ => continue,
        };
        phrases.push(phrase);
    }
    let pass_alone = match s.pending {
        Pending::Takes { left } => format!(
            "pass: none of {opp}'s holes can be taken ({} still due)",
            count(left as usize, "take", "takes")
        ),
        _ => "pass: you have no move".to_string(),
    };
    asking(kinds, phrases, &pass_alone)
}

/// What the player to move in a line game is asked, from the kinds of his legal actions and
/// the state (as JSON) they stand in ("place a stone on an empty point (3 in hand)").
fn morris_asking(state: &Value, legal: &[MorrisAction]) -> Value {
    let Some(me) = state["to_move"].as_str() else {
        return Value::Null;
    };
    let opp = if me == "A" { Player::B } else { Player::A };
    let occupied_by = |who: &str, p: &crate::morris::Square| {
        state["board"][who]
            .as_array()
            .is_some_and(|a| a.iter().any(|v| v.as_str() == Some(&p.to_string())))
    };
    let kinds = kinds(legal);
    let mut phrases = vec![];
    for k in &kinds {
        let of_kind: Vec<&MorrisAction> = legal.iter().filter(|a| &kind_of(a) == k).collect();
        let phrase = match of_kind.first() {
            Some(MorrisAction::Place(_)) => {
                let cancels = of_kind.iter().any(
                    |a| matches!(a, MorrisAction::Place(p) if occupied_by(&opp.to_string(), p)),
                );
                let hand = state["hand"][me].as_u64().unwrap_or(0);
                let mut t = "place a stone on an empty point".to_string();
                if cancels {
                    t.push_str(&format!(" or on one of {opp}'s to cancel it"));
                }
                if hand > 0 {
                    t.push_str(&format!(
                        " ({} in hand)",
                        count(hand as usize, "stone", "stones")
                    ));
                }
                t
            }
            Some(MorrisAction::Move(..)) => {
                if state["stage"][me] == "flying" {
                    "move one of your stones to any empty point (you may fly)".to_string()
                } else {
                    "move one of your stones along a line to the empty point next to it".to_string()
                }
            }
            Some(MorrisAction::Take(_)) => {
                let due = state["takes_owed"].as_u64().unwrap_or(1).max(1);
                format!(
                    "you made a line: take one of {opp}'s stones ({} due)",
                    count(due as usize, "take", "takes")
                )
            }
            _ => continue,
        };
        phrases.push(phrase);
    }
    asking(kinds, phrases, "pass: you have no move")
}

impl Describe for SowingGame {
    fn state_json(&self, s: &SowingState) -> Value {
        let mut legal = ActionList::new();
        SowingGame::legal_actions(self, s, &mut legal);
        let heads: std::collections::BTreeMap<Player, _> =
            Player::BOTH.iter().map(|&p| (p, s.heads(p))).collect();
        let mut v = serde_json::json!({
            "board": s.board(),
            "to_move": s.to_move(),
            "legal": legal.as_slice(),
            "captured": s.captured_map(),
            "heads": heads,
            "asking": sowing_asking(s, legal.as_slice()),
        });
        if self.rules().into_hand {
            // Ludii's Baia keeps captured stones in the capturer's hand.
            v["hands"] = serde_json::json!(s.captured_map());
        }
        v
    }
    fn apply_described(&self, s: &mut SowingState, a: Action) -> (Report, Vec<Value>) {
        let (rep, ev) = self.apply_traced(s, a);
        (rep, events(&ev))
    }
}

impl Describe for MorrisGame {
    fn state_json(&self, s: &MorrisState) -> Value {
        let mut v = MorrisGame::state_json(self, s);
        let mut legal = ActionList::new();
        self.legal_actions(s, &mut legal);
        v["asking"] = morris_asking(&v, legal.as_slice());
        v
    }
    fn apply_described(&self, s: &mut MorrisState, a: MorrisAction) -> (Report, Vec<Value>) {
        let (rep, ev) = self.apply_traced(s, a);
        (rep, events(&ev))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalogue::{self, Model, Params};
    use crate::rng::Rng;

    /// Every state of random games of every ruleset with a board says what it asks, in
    /// words, of exactly the kinds of its legal actions; a finished game asks nothing.
    #[test]
    fn every_decision_is_asked_in_words() {
        let mut seen = std::collections::BTreeSet::new();
        for def in catalogue::all() {
            let Ok(Model::Game(g)) = def.build_model(&Params::new()) else {
                continue;
            };
            for seed in 1..=3 {
                crate::with_game!(&g, g => {
                    let mut rng = Rng::from_seed(seed);
                    let mut s = g.initial_state();
                    loop {
                        let v = Describe::state_json(g, &s);
                        let legal = v["legal"].as_array().unwrap();
                        if legal.is_empty() {
                            assert_eq!(v["asking"], Value::Null, "{}", def.id);
                            break;
                        }
                        let mut want: Vec<String> = vec![];
                        for a in legal {
                            let k = kind_of(a);
                            if !want.contains(&k) {
                                want.push(k);
                            }
                        }
                        let got: Vec<String> =
                            serde_json::from_value(v["asking"]["kinds"].clone()).unwrap();
                        assert_eq!(got, want, "{}", def.id);
                        let text = v["asking"]["text"].as_str().unwrap();
                        assert!(!text.is_empty() && !text.contains("{"), "{}: {text}", def.id);
                        for k in &want {
                            // Each kind is put in words: its phrase starts with its verb,
                            // or, for a head's choice, names the head.
                            let words = match k.as_str() {
                                "relay" => "your head",
                                "sow" => "sow",
                                "take" => if text.contains("remove") { "remove" } else { "take" },
                                "nominate" => "nominate",
                                "move" => "move",
                                "place" => "place",
                                _ => "pass",
                            };
                            assert!(text.contains(words), "{}: {k} in {text}", def.id);
                            seen.insert(k.clone());
                        }
                        let Some(a) = g.random_action(&s, &mut rng) else { break };
                        g.apply_unchecked(&mut s, a);
                    }
                });
            }
        }
        // Every kind of decision the games have was met.
        for k in ["sow", "relay", "take", "move", "nominate", "pass", "place"] {
            assert!(seen.contains(k), "{k} never asked: {seen:?}");
        }
    }
}
