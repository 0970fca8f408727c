//! Line games on morris boards: tsoro yemutwelve, Dig Dig and tsoro yemutatu.

pub mod action;
pub mod board;
pub mod config;
pub mod game;
mod kernel;
pub mod solve;

pub use action::MorrisAction;
pub use board::{Board, BoardKind, Square};
pub use config::{MorrisConfig, MorrisRules, RULE_FIELDS};
pub use game::{MorrisEvent, MorrisGame, MorrisState};

use crate::game::{ActionList, Game, Report};
use crate::outcome::Outcome;
use crate::player::Player;

impl MorrisGame {
    /// One uniformly random decision on the bitboard kernel, counted in the game's tally
    /// (false once the game is over), or `None` when the kernel's gate refuses these rules: for
    /// tests that hold the kernel to the reference move by move.
    #[doc(hidden)]
    pub fn kernel_step(&self, p: &mut crate::playout::Playout<MorrisState>) -> Option<bool> {
        kernel::Kernel::of(self).map(|k| k.step(p))
    }
}

impl Game for MorrisGame {
    type State = MorrisState;
    type Action = MorrisAction;

    fn initial_state(&self) -> MorrisState {
        MorrisGame::initial_state(self)
    }
    fn legal_actions(&self, s: &MorrisState, out: &mut ActionList<MorrisAction>) {
        MorrisGame::legal_actions(self, s, out)
    }
    fn apply_unchecked(&self, s: &mut MorrisState, a: MorrisAction) -> Report {
        MorrisGame::apply_unchecked(self, s, a)
    }
    /// On the bitboard kernel when its gate admits the rules, else through the reference: the
    /// same games either way.
    fn random_playouts(&self, feed: &mut dyn crate::playout::Feed<MorrisState>) {
        if !kernel::play(self, feed) {
            crate::playout::play_reference(self, feed);
        }
    }
    fn has_kernel(&self) -> bool {
        kernel::Kernel::of(self).is_some()
    }
    /// A line game's turn is one move (a placement or a step, with its removal).
    fn moves(&self, s: &MorrisState) -> u32 {
        s.turns()
    }
    fn rollout_game(&self, from: &MorrisState, moves: u32) -> Self {
        let mut rules = self.rules().clone();
        let cut = from.turns().saturating_add(moves).max(1);
        rules.config.end.turn_limit = rules.config.end.turn_limit.min(cut);
        MorrisGame::new(rules)
    }
    fn to_move(&self, s: &MorrisState) -> Option<Player> {
        s.to_move()
    }
    fn outcome(&self, s: &MorrisState) -> Option<Outcome> {
        s.outcome()
    }
    fn turns(&self, s: &MorrisState) -> u32 {
        s.turns()
    }
    fn material(&self, s: &MorrisState, p: Player) -> i32 {
        self.count(s, p) as i32
    }
}
