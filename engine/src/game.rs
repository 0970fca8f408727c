//! The interface every game of the engine offers, in the spirit of OpenSpiel: an initial
//! state, the legal actions, applying an action, the player to move and the result.

use crate::outcome::Outcome;
use crate::player::Player;
use serde::Serialize;
use serde::de::DeserializeOwned;
use std::fmt::{Debug, Display};
use std::hash::Hash;

/// Most legal actions any decision of any game can have.
pub const MAX_ACTIONS: usize = 64;

/// A list of legal actions, on the stack.
pub type ActionList<A> = arrayvec::ArrayVec<A, MAX_ACTIONS>;

/// What one action did, as counts (cheap to make on every move).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Report {
    /// Sowing laps made (each relay lap is one).
    pub laps: u32,
    /// Stones dropped into holes.
    pub sown: u32,
    /// Capture events (not counting additional takes).
    pub captures: u32,
    /// Stones taken from the opponent (captures and takes).
    pub captured: u32,
    /// Additional takes made.
    pub takes: u32,
    /// Moves as Ludii counts them.
    pub moves: u32,
    /// The relay was found to repeat forever.
    pub endless: bool,
}

/// An action that is not legal at this point.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("illegal action {action}; legal here: {}", legal.join(", "))]
pub struct IllegalAction {
    /// The action as written.
    pub action: String,
    /// The legal actions at that point.
    pub legal: Vec<String>,
}

/// A two-player game with perfect information (chance, where a game has it, comes from the
/// caller's random numbers through the actions).
pub trait Game: Send + Sync {
    /// A position: a plain value.
    type State: Clone + Debug + Eq + Hash + Send + Sync;
    /// A decision.
    type Action: Copy + Debug + Display + Eq + Hash + Send + Sync + Serialize + DeserializeOwned;

    /// The start position.
    fn initial_state(&self) -> Self::State;
    /// The legal actions (empty once the game is over).
    fn legal_actions(&self, s: &Self::State, out: &mut ActionList<Self::Action>);
    /// Applies a legal action (taken from `legal_actions`).
    fn apply_unchecked(&self, s: &mut Self::State, a: Self::Action) -> Report;
    /// Applies an action after checking it is legal.
    fn apply(&self, s: &mut Self::State, a: Self::Action) -> Result<Report, IllegalAction> {
        let mut legal = ActionList::new();
        self.legal_actions(s, &mut legal);
        if !legal.contains(&a) {
            return Err(IllegalAction {
                action: a.to_string(),
                legal: legal.iter().map(|a| a.to_string()).collect(),
            });
        }
        Ok(self.apply_unchecked(s, a))
    }
    /// The player to move, `None` once the game is over.
    fn to_move(&self, s: &Self::State) -> Option<Player>;
    /// The result, once the game is over.
    fn outcome(&self, s: &Self::State) -> Option<Outcome>;
    /// Completed turns.
    fn turns(&self, s: &Self::State) -> u32;
    /// Material of `p`: pieces (stones) on the board belonging to `p`, for evaluations.
    fn material(&self, s: &Self::State, p: Player) -> i32;
    /// A uniformly random legal action, `None` once the game is over. Games may override this
    /// with a faster path that draws from the same distribution.
    fn random_action(&self, s: &Self::State, rng: &mut crate::rng::Rng) -> Option<Self::Action> {
        random_legal(self, s, rng)
    }
    /// Plays the feed's games to their ends with uniformly random actions (as
    /// [`random_action`](Self::random_action) draws them), counting each decision in the
    /// game's tally. The reference plays them one at a time; a game may play them on a fast
    /// kernel instead, behind a capability gate, with exactly the same results.
    fn random_playouts(&self, feed: &mut dyn crate::playout::Feed<Self::State>) {
        crate::playout::play_reference(self, feed)
    }
    /// Whether [`random_playouts`](Self::random_playouts) runs on a fast kernel for these rules.
    fn has_kernel(&self) -> bool {
        false
    }
    /// Moves played so far, as Ludii counts them (a sowing lap, a pass, a placement...).
    fn moves(&self, s: &Self::State) -> u32;
    /// The same game for random rollouts from `from` (a search's): it ends as a draw
    /// `moves` moves (as [`moves`](Self::moves) counts them) past `from`, or sooner at the
    /// game's own limits. Only its games' results are meant to be read: the board a game ends
    /// on at a limit may differ from the game's own rules.
    fn rollout_game(&self, from: &Self::State, moves: u32) -> Self
    where
        Self: Sized;
    /// How many ordinary moves `p` would have on this board if it were his turn (for mobility
    /// evaluations). By default the legal actions when `p` is to move, else 0.
    fn mobility_of(&self, s: &Self::State, p: Player) -> usize {
        if self.to_move(s) == Some(p) {
            self.legal_count(s)
        } else {
            0
        }
    }
    /// For searches of the rest of a turn by material taken ([`GreedyAgent`]): at a decision
    /// whose options commute and each only empties one of the opponent's holes (additional
    /// takes), one option that a best continuation of every length starts with, so that the
    /// search follows it alone. `None` (the default): every legal action must be searched.
    ///
    /// [`GreedyAgent`]: crate::agents::GreedyAgent
    fn dominant_take(&self, _s: &Self::State) -> Option<Self::Action> {
        None
    }
    /// A 64-bit key of the position for transposition tables: equal positions have equal
    /// keys, different ones almost surely different keys, the same on every machine. By
    /// default the [`Fx`](crate::key::Fx) hash of the state; games whose searches matter
    /// override it with a faster one.
    fn position_key(&self, s: &Self::State) -> u64 {
        crate::key::fx_key(s)
    }
    /// Mean branching is measured over decisions; this says whether the state is a decision
    /// with more than one option.
    fn legal_count(&self, s: &Self::State) -> usize {
        let mut l = ActionList::new();
        self.legal_actions(s, &mut l);
        l.len()
    }
}

/// A uniformly random legal action drawn from the full list, `None` once the game is over.
pub fn random_legal<G: Game + ?Sized>(
    g: &G,
    s: &G::State,
    rng: &mut crate::rng::Rng,
) -> Option<G::Action> {
    let mut l = ActionList::new();
    g.legal_actions(s, &mut l);
    if l.is_empty() {
        None
    } else {
        Some(l[rng.below(l.len())])
    }
}
