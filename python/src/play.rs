//! A ruleset loaded with its parameters, and a game in play on it: the engine's reference
//! rules, actions as integer ids ([`crate::codec`]), the history, and the replay JSON. Plain
//! Rust (no Python): the bindings (`lib.rs`) wrap it.

use crate::codec::{Codec, normalize};
use serde_json::Value;
use std::collections::HashMap;
use std::sync::{Arc, OnceLock};
use tsoro_engine::ActionList;
use tsoro_engine::catalogue::{Params, RulesetDef};
use tsoro_engine::player::Player;

/// A ruleset with its parameters, built.
pub struct Loaded<G: Codec> {
    /// The game.
    pub game: G,
    /// Its ruleset.
    pub def: &'static RulesetDef,
    /// Every parameter's value in force (defaults filled in).
    pub params: Params,
    /// Action ids by their text, made on first use.
    names: OnceLock<HashMap<String, u32>>,
}

/// A bad action, in words (the bindings raise it as a `ValueError`).
pub type Refusal = String;

impl<G: Codec> Loaded<G> {
    /// Wraps a built game.
    pub fn new(game: G, def: &'static RulesetDef, params: Params) -> Arc<Self> {
        Arc::new(Loaded {
            game,
            def,
            params,
            names: OnceLock::new(),
        })
    }

    /// The text of an action id in the project's notation (`sow i,6`).
    pub fn action_to_string(&self, id: u32) -> Result<String, Refusal> {
        self.action(id).map(|a| a.to_string())
    }

    /// The action of an id, or why there is none.
    pub fn action(&self, id: u32) -> Result<G::Action, Refusal> {
        self.game.decode(id).ok_or_else(|| {
            format!(
                "action {id} is out of range: this game's actions are 0..{}",
                self.game.num_actions()
            )
        })
    }

    /// The action as a replay record writes it (`{"sow":"i,6"}`).
    pub fn action_json(&self, id: u32) -> Result<Value, Refusal> {
        serde_json::to_value(self.action(id)?).map_err(|e| e.to_string())
    }

    /// The id of an action written in the notation (`sow i,6`, `stop`, `move d5-d6`) or as a
    /// replay record writes it (`{"sow":"i,6"}`, `"pass"`).
    pub fn string_to_action(&self, text: &str) -> Result<u32, Refusal> {
        let t = text.trim();
        if t.starts_with('{') || t.starts_with('"') {
            let a: G::Action = serde_json::from_str(t)
                .map_err(|e| format!("{t} is not an action of this game: {e}"))?;
            return self
                .game
                .encode(a)
                .ok_or_else(|| format!("{t} is off this board"));
        }
        let names = self.names.get_or_init(|| self.game.names());
        names.get(&normalize(t)).copied().ok_or_else(|| {
            format!(
                "{text:?} is not an action of this game: write it as `sow ii,3`, `take iv,5`, \
                 `nominate i,1`, `move i,7 i,8`, `stop`, `continue` or `pass` (sowing games) or \
                 `place d5`, `move d5-d6`, `take a1` or `pass` (line games), or as JSON \
                 (`{{\"sow\":\"ii,3\"}}`)"
            )
        })
    }
}

/// A game in play: a state of the reference rules and the actions that led to it.
pub struct Play<G: Codec> {
    /// The ruleset.
    pub loaded: Arc<Loaded<G>>,
    /// The position.
    pub state: G::State,
    memo: G::Memo,
    history: Vec<u32>,
    /// The legal actions here, once asked for.
    legal: Option<ActionList<G::Action>>,
}

impl<G: Codec> Clone for Play<G> {
    fn clone(&self) -> Self {
        Play {
            loaded: self.loaded.clone(),
            state: self.state.clone(),
            memo: self.memo,
            history: self.history.clone(),
            legal: self.legal.clone(),
        }
    }
}

impl<G: Codec> Play<G> {
    /// The start of a game.
    pub fn new(loaded: Arc<Loaded<G>>) -> Self {
        let state = loaded.game.initial_state();
        Play {
            loaded,
            state,
            memo: G::Memo::default(),
            history: vec![],
            legal: None,
        }
    }

    fn legal(&mut self) -> &ActionList<G::Action> {
        let (g, s) = (&self.loaded.game, &self.state);
        self.legal.get_or_insert_with(|| {
            let mut l = ActionList::new();
            g.legal_actions(s, &mut l);
            l
        })
    }

    /// The legal action ids, ascending (none once the game is over).
    pub fn legal_actions(&mut self) -> Vec<u32> {
        let g = self.loaded.clone();
        let mut ids: Vec<u32> = self
            .legal()
            .iter()
            .filter_map(|&a| g.game.encode(a))
            .collect();
        ids.sort_unstable();
        ids
    }

    /// Applies a legal action by id, or says why it cannot.
    pub fn apply_action(&mut self, id: u32) -> Result<(), Refusal> {
        let a = self.loaded.action(id)?;
        if !self.legal().contains(&a) {
            let legal: Vec<String> = self
                .legal_actions()
                .iter()
                .filter_map(|&i| {
                    self.loaded
                        .action_to_string(i)
                        .ok()
                        .map(|t| format!("{i} ({t})"))
                })
                .collect();
            return Err(if legal.is_empty() {
                format!("action {id} ({a}) is illegal: the game is over")
            } else {
                format!(
                    "action {id} ({a}) is illegal here; legal: {}",
                    legal.join(", ")
                )
            });
        }
        self.memo = self.loaded.game.apply_noting(&mut self.state, a);
        self.history.push(id);
        self.legal = None;
        Ok(())
    }

    /// The player to move: 0 (A), 1 (B), or `None` once the game is over.
    pub fn current_player(&self) -> Option<usize> {
        self.loaded.game.to_move(&self.state).map(Player::index)
    }

    /// Whether the game is over.
    pub fn is_terminal(&self) -> bool {
        self.loaded.game.outcome(&self.state).is_some()
    }

    /// Each player's return: +1 the winner, -1 the loser, 0 both in a draw or while the game
    /// goes on.
    pub fn returns(&self) -> [f64; 2] {
        match self.loaded.game.outcome(&self.state).and_then(|o| o.winner) {
            Some(Player::A) => [1.0, -1.0],
            Some(Player::B) => [-1.0, 1.0],
            None => [0.0, 0.0],
        }
    }

    /// The action ids played so far.
    pub fn history(&self) -> &[u32] {
        &self.history
    }

    /// The actions so far as a replay record writes them.
    pub fn actions_json(&self) -> Result<Vec<Value>, Refusal> {
        self.history
            .iter()
            .map(|&id| self.loaded.action_json(id))
            .collect()
    }

    /// The game as `tsoro replay` takes it: `{"ruleset":...,"params":{...},"actions":[...]}`.
    pub fn record(&self) -> Result<Value, Refusal> {
        Ok(serde_json::json!({
            "ruleset": self.loaded.def.id,
            "params": self.loaded.params,
            "actions": self.actions_json()?,
        }))
    }

    /// The game as `tsoro replay` prints it: every state, every action's events, the result.
    pub fn to_json(&self) -> Result<String, Refusal> {
        let out = tsoro_engine::replay::replay_game(&self.loaded.game, &self.actions_json()?)
            .map_err(|e| e.to_string())?;
        serde_json::to_string(&out).map_err(|e| e.to_string())
    }

    /// The current state alone, as JSON (the last of `to_json`'s states).
    pub fn state_json(&self) -> String {
        self.loaded.game.state_json(&self.state).to_string()
    }

    /// The observation tensor, flat, with its shape.
    pub fn observation(&mut self) -> (Vec<usize>, Vec<f32>) {
        let shape = self.loaded.game.observation_shape();
        let mut out = vec![0.0; shape.iter().product()];
        self.legal();
        let legal = self.legal.as_deref().unwrap_or_default();
        self.loaded
            .game
            .observe(&self.state, legal, self.memo, &mut out);
        (shape, out)
    }

    /// The board drawn as text.
    pub fn render(&self) -> String {
        self.loaded.game.render(&self.state)
    }
}
