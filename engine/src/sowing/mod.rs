//! Four-row sowing games: tsoro, njombwa and their variants.

pub mod action;
mod capped;
pub mod config;
pub mod game;
mod kernel;
pub mod rules;
pub mod state;

pub use action::{Action, RelayChoice};
pub use config::{ConfigError, RULE_FIELDS, SowingConfig};
pub use game::{Event, SowingGame};
pub use rules::Rules;
pub use state::{BoardView, SowingState};

use crate::game::{ActionList, Game, Report};
use crate::outcome::Outcome;
use crate::player::Player;

impl Game for SowingGame {
    type State = SowingState;
    type Action = Action;

    fn initial_state(&self) -> SowingState {
        SowingGame::initial_state(self)
    }
    fn legal_actions(&self, s: &SowingState, out: &mut ActionList<Action>) {
        SowingGame::legal_actions(self, s, out)
    }
    fn apply_unchecked(&self, s: &mut SowingState, a: Action) -> Report {
        SowingGame::apply_unchecked(self, s, a)
    }
    #[inline]
    fn random_action(&self, s: &SowingState, rng: &mut crate::rng::Rng) -> Option<Action> {
        SowingGame::random_action(self, s, rng)
    }
    /// On the kernel (32 games at once in SIMD lanes) when its gate admits the rules, else
    /// through the reference: the same games either way.
    ///
    /// Under Ludii's limits the kernel plays the whole-turn twin of the rules, and the games
    /// it ends at a limit are played again by the reference (`sowing/capped.rs`).
    fn random_playouts(&self, feed: &mut dyn crate::playout::Feed<SowingState>) {
        if kernel::play(self, feed) {
            return;
        }
        if let Some(twin) = capped::twin(self) {
            let mut capped = capped::Capped::new(self, feed);
            kernel::play(&twin, &mut capped);
            return;
        }
        crate::playout::play_reference(self, feed);
    }
    fn has_kernel(&self) -> bool {
        kernel::admits(self) || capped::twin(self).is_some()
    }
    fn moves(&self, s: &SowingState) -> u32 {
        s.moves()
    }
    fn rollout_game(&self, from: &SowingState, moves: u32) -> Self {
        SowingGame::rollout_game(self, from, moves)
    }
    fn legal_count(&self, s: &SowingState) -> usize {
        SowingGame::legal_count(self, s)
    }
    fn dominant_take(&self, s: &SowingState) -> Option<Action> {
        SowingGame::dominant_take(self, s)
    }
    #[inline]
    fn position_key(&self, s: &SowingState) -> u64 {
        s.key()
    }
    fn mobility_of(&self, s: &SowingState, p: Player) -> usize {
        self.sow_mask_of(s, p).count_ones() as usize
    }
    fn to_move(&self, s: &SowingState) -> Option<Player> {
        s.to_move()
    }
    fn outcome(&self, s: &SowingState) -> Option<Outcome> {
        s.outcome()
    }
    fn turns(&self, s: &SowingState) -> u32 {
        s.turns()
    }
    fn material(&self, s: &SowingState, p: Player) -> i32 {
        s.stones(p) as i32
    }
}
