//! The declarative configuration of a line game (tsoro yemutwelve, Dig Dig, tsoro yemutatu).

use super::board::{Board, BoardKind};
use crate::catalogue::RuleField;
use crate::player::Player;
use crate::sowing::ConfigError;
use serde::{Deserialize, Serialize};

/// The rule fields of every line-game configuration, as dotted paths, each with what it
/// decides in words; the corpus cites each.
pub const RULE_FIELDS: &[RuleField] = &[
    RuleField::new("board", "The board the game is played on."),
    RuleField::new("stones", "How many stones each player starts with in hand."),
    RuleField::new("first_player", "Who moves first."),
    RuleField::new(
        "placement.cancel",
        "Whether a stone placed on the opponent's cancels both.",
    ),
    RuleField::new(
        "placement.cancel_line",
        "Whether a cancelling placement still completes a line through its point, and takes.",
    ),
    RuleField::new(
        "placement.cancelled",
        "Which stones a cancelling placement cancels: both, or only the opponent's beneath.",
    ),
    RuleField::new("placement.until", "When the placing of stones ends."),
    RuleField::new(
        "placement.leave_line",
        "Whether a stone may leave a line just made and come back to remake it while stones are in hand.",
    ),
    RuleField::new(
        "placement.return_takes",
        "Whether remaking a line by moving its stone back takes.",
    ),
    RuleField::new("movement.step", "How a stone moves once all are placed."),
    RuleField::new(
        "movement.flying_at",
        "When a player's stones may fly to any empty point.",
    ),
    RuleField::new(
        "lines.effect",
        "What making a line of three does: take a stone, or win.",
    ),
    RuleField::new("lines.per_move", "One take per move, or one per line made."),
    RuleField::new(
        "lines.flying_takes",
        "Whether a line made by a flying move takes.",
    ),
    RuleField::new(
        "lines.pass_if_no_take",
        "Whether a line owes its take, passed, when no stone can be taken.",
    ),
    RuleField::new(
        "take.protect_lines",
        "Whether stones in lines are safe from being taken.",
    ),
    RuleField::new("end.lose_at", "With how few stones a player has lost."),
    RuleField::new(
        "end.lose_next_only",
        "Whether the count of stones that loses is checked only after a movement-stage action.",
    ),
    RuleField::new(
        "end.no_moves",
        "What a player who cannot move does, or whether he loses.",
    ),
    RuleField::new("end.full_board", "What happens when the board is full."),
    RuleField::new(
        "end.repetition",
        "After how many repetitions of a position the game is a draw.",
    ),
    RuleField::new(
        "end.turn_limit",
        "After how many turns the game is called a draw.",
    ),
    RuleField::new(
        "end.limit_cuts_turn",
        "Whether the turn limit cuts its last turn before a take that turn earned.",
    ),
];

/// A line game: placement, then movement, lines of three taking or winning.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MorrisConfig {
    /// The board.
    pub board: BoardKind,
    /// Stones each player starts with in hand; 0 for an unlimited supply (placement then runs
    /// until the board is full).
    pub stones: u8,
    /// Who places first. Default A.
    #[serde(default = "first")]
    pub first_player: Player,
    /// The placement stage.
    #[serde(default)]
    pub placement: Placement,
    /// The movement stage.
    #[serde(default)]
    pub movement: Movement,
    /// What a line of three does.
    #[serde(default)]
    pub lines: Lines,
    /// Which stones a line may take.
    #[serde(default)]
    pub take: Take,
    /// How the game ends.
    #[serde(default)]
    pub end: End,
}

fn first() -> Player {
    Player::A
}

/// Which men a cancelling placement cancels.
#[cfg_attr(feature = "arbitrary", derive(proptest_derive::Arbitrary))]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Cancelled {
    /// Both the man placed and the man beneath: a cancelled pair.
    #[default]
    Pair,
    /// Only the opponent's man beneath; the man placed on top is an ordinary man (it counts
    /// for lines and may be taken, but not cancelled in its turn), and stays when the
    /// cancelled men are removed.
    Opponent,
}

/// The placement stage.
#[cfg_attr(feature = "arbitrary", derive(proptest_derive::Arbitrary))]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Placement {
    /// A stone may be placed on an opponent's single stone, cancelling both (Dig Dig); the
    /// cancelled pairs are removed when placement ends.
    #[serde(default)]
    pub cancel: bool,
    /// Whether a cancelling placement still completes a line through its point with two of
    /// the placer's uncancelled stones, and the line takes (Ludii's Dig Dig). Default false:
    /// a cancelled point is in no line.
    #[serde(default)]
    pub cancel_line: bool,
    /// Which men a cancelling placement cancels: both (a pair, neither counting, both removed
    /// when placement ends: Ludii's reading) or only the opponent's man beneath, the placer's
    /// man on top staying an ordinary man of his (Matthews' words read literally).
    #[serde(default)]
    pub cancelled: Cancelled,
    /// When placement ends.
    #[serde(default)]
    pub until: Until,
    /// Whether, while he still has stones in hand, a player may on his next go move a stone of
    /// a line he has just formed away from it, and on a later go move it back to remake the
    /// line (tsoro yemutwelve, stage 1). Default off.
    #[serde(default)]
    pub leave_line: LeaveLine,
    /// Whether remaking a line by moving its stone back takes, like any completed line.
    /// Default true.
    #[serde(default = "yes")]
    pub return_takes: bool,
}

impl Default for Placement {
    fn default() -> Self {
        Placement {
            cancel: false,
            cancel_line: false,
            cancelled: Cancelled::default(),
            until: Until::default(),
            leave_line: LeaveLine::default(),
            return_takes: true,
        }
    }
}

/// How far a stone may leave a line just formed, during placement.
#[cfg_attr(feature = "arbitrary", derive(proptest_derive::Arbitrary))]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LeaveLine {
    /// Placement only places.
    #[default]
    Off,
    /// One step along a line to an empty neighbour (as stones move in stage 2).
    Adjacent,
}

/// When the placement stage ends.
#[cfg_attr(feature = "arbitrary", derive(proptest_derive::Arbitrary))]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Until {
    /// Each player moves once his hand is empty.
    #[default]
    HandsEmpty,
    /// When the board is full (with an unlimited supply).
    BoardFull,
}

/// The movement stage.
#[cfg_attr(feature = "arbitrary", derive(proptest_derive::Arbitrary))]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Movement {
    /// Where a stone may go.
    #[serde(default)]
    pub step: Step,
    /// A player with exactly this many stones may move any of them to any empty point (0:
    /// never). Default 0.
    #[serde(default)]
    #[cfg_attr(feature = "arbitrary", proptest(strategy = "0u8..=4"))]
    pub flying_at: u8,
}

impl Default for Movement {
    fn default() -> Self {
        Movement {
            step: Step::Adjacent,
            flying_at: 0,
        }
    }
}

/// Where a stone moves in the movement stage.
#[cfg_attr(feature = "arbitrary", derive(proptest_derive::Arbitrary))]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Step {
    /// One step along a line to an empty neighbour.
    #[default]
    Adjacent,
    /// To any empty point.
    Anywhere,
}

/// What a line of three made by a move does.
#[cfg_attr(feature = "arbitrary", derive(proptest_derive::Arbitrary))]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Lines {
    /// Take an opponent's stone, or win.
    #[serde(default)]
    pub effect: LineEffect,
    /// One take per move, or one per line made (two lines at once: two takes).
    #[serde(default)]
    pub per_move: PerMove,
    /// Whether a line made by a flying move takes.
    #[serde(default = "yes")]
    pub flying_takes: bool,
    /// Whether a line that may take when the opponent has no stone it can take still owes
    /// its take, which the maker then passes (`"pass"`, Ludii's forced pass in the removal
    /// decision). Default false: the turn simply ends.
    #[serde(default)]
    pub pass_if_no_take: bool,
}

impl Default for Lines {
    fn default() -> Self {
        Lines {
            effect: LineEffect::Take,
            per_move: PerMove::Each,
            flying_takes: true,
            pass_if_no_take: false,
        }
    }
}

fn yes() -> bool {
    true
}

/// What a line does.
#[cfg_attr(feature = "arbitrary", derive(proptest_derive::Arbitrary))]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LineEffect {
    /// Its maker takes an opponent's stone.
    #[default]
    Take,
    /// Its maker wins.
    Win,
}

/// How many takes a move that makes two lines at once earns.
#[cfg_attr(feature = "arbitrary", derive(proptest_derive::Arbitrary))]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PerMove {
    /// One take whatever the number of lines.
    One,
    /// One take per line made.
    #[default]
    Each,
}

/// Which stones may be taken.
#[cfg_attr(feature = "arbitrary", derive(proptest_derive::Arbitrary))]
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Take {
    /// Stones standing in a line of three cannot be taken while the opponent has others.
    #[serde(default)]
    pub protect_lines: bool,
}

/// How the game ends.
#[cfg_attr(feature = "arbitrary", derive(proptest_derive::Arbitrary))]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct End {
    /// A player whose stones (on the board and in hand) number this many or fewer has lost;
    /// with an unlimited supply this is checked only once placement is over.
    #[serde(default)]
    #[cfg_attr(feature = "arbitrary", proptest(strategy = "0u8..=3"))]
    pub lose_at: u8,
    /// Whether `lose_at` is checked after each action for the player to move next only (as
    /// Ludii's end rules check `Next`): a player left short by the end of his own turn (Dig
    /// Dig's pairs removed) loses after his opponent's next action. With an unlimited supply
    /// the count also belongs to the movement stage only (Ludii's Dig Dig keeps its end rule
    /// in its movement phase): the placement that fills the board is not followed by it, so a
    /// player left without stones by his opponent's filling placement passes, and loses after
    /// his opponent's next action. Default false: both players are checked at the end of
    /// every turn.
    #[serde(default)]
    pub lose_next_only: bool,
    /// A player to move with no legal move.
    #[serde(default)]
    pub no_moves: NoMoves,
    /// The board full when placement ends (nobody can move).
    #[serde(default)]
    pub full_board: FullBoard,
    /// The same position with the same player to move for the n-th time in the movement
    /// stage is a draw (0: never).
    #[serde(default)]
    #[cfg_attr(
        feature = "arbitrary",
        proptest(
            strategy = "proptest::strategy::Strategy::prop_map(0u8..=3, |r| if r == 0 { 0 } else { r + 1 })"
        )
    )]
    pub repetition: u8,
    /// Turns after which the game is a draw.
    #[serde(default = "turn_limit")]
    #[cfg_attr(feature = "arbitrary", proptest(strategy = "1u32..=300"))]
    pub turn_limit: u32,
    /// Whether the turn limit cuts its last turn after the turn's first action, before a take
    /// that action earned (Ludii cuts a game after the first move of turn 2,500). Default
    /// false: the last turn is played out.
    #[serde(default)]
    pub limit_cuts_turn: bool,
}

impl Default for End {
    fn default() -> Self {
        End {
            lose_at: 0,
            lose_next_only: false,
            no_moves: NoMoves::Loss,
            full_board: FullBoard::Draw,
            repetition: 0,
            turn_limit: turn_limit(),
            limit_cuts_turn: false,
        }
    }
}

fn turn_limit() -> u32 {
    1000
}

/// What happens to a player who cannot move.
#[cfg_attr(feature = "arbitrary", derive(proptest_derive::Arbitrary))]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum NoMoves {
    /// He loses.
    #[default]
    Loss,
    /// The game is a draw.
    Draw,
    /// He makes a forced pass (`"pass"`, a decision with one legal option); when every
    /// player's last turn was such a pass the game is a draw, reason `no_moves` (Ludii's
    /// all-pass draw).
    Pass,
}

/// What a board full after placement means.
#[cfg_attr(feature = "arbitrary", derive(proptest_derive::Arbitrary))]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FullBoard {
    /// A draw.
    #[default]
    Draw,
    /// Nothing special: the player to move has no move, and `end.no_moves` applies.
    NoMoves,
}

/// The most moves to any empty point a player with at most `movers` stones can have on a
/// board of `n` points: `k` stones and `n - k` empty points at most, for the worst `k` (with an
/// unlimited supply a player may have any number of stones once the cancelled pairs are gone).
fn most_moves_anywhere(n: usize, movers: usize) -> usize {
    (1..=movers.min(n)).map(|k| k * (n - k)).max().unwrap_or(0)
}

/// A checked configuration with its board.
#[derive(Clone, Debug, PartialEq)]
pub struct MorrisRules {
    /// The configuration.
    pub config: MorrisConfig,
    /// The board's tables.
    pub board: Board,
}

impl MorrisConfig {
    /// Checks the configuration and builds the board.
    pub fn compile(self) -> Result<MorrisRules, ConfigError> {
        let board = Board::new(self.board);
        let n = board.len();
        let unlimited = self.stones == 0;
        match (unlimited, self.placement.until) {
            (true, Until::HandsEmpty) => {
                return Err(ConfigError::new(
                    "stones",
                    "an unlimited supply (0) needs placement.until = board_full",
                ));
            }
            (false, Until::BoardFull) => {
                return Err(ConfigError::new(
                    "placement.until",
                    "board_full goes with an unlimited supply (stones = 0)",
                ));
            }
            _ => {}
        }
        if self.placement.cancel_line && !self.placement.cancel {
            return Err(ConfigError::new(
                "placement.cancel_line",
                "a cancelling placement's line needs cancelling (placement.cancel = true)",
            ));
        }
        if unlimited && self.placement.leave_line != LeaveLine::Off {
            return Err(ConfigError::new(
                "placement.leave_line",
                "leaving a line during placement needs stones in hand (stones > 0)",
            ));
        }
        if !unlimited && !(3..=12).contains(&self.stones) {
            return Err(ConfigError::new("stones", "3 to 12 stones each, or 0"));
        }
        if 2 * self.stones as usize > n && !self.placement.cancel {
            return Err(ConfigError::new(
                "stones",
                format!("{} stones each do not fit on {n} points", self.stones),
            ));
        }
        // Every decision must fit the action list (64).
        let movers = if unlimited { n } else { self.stones as usize };
        if self.movement.step == Step::Anywhere && most_moves_anywhere(n, movers) > 64 {
            return Err(ConfigError::new(
                "movement.step",
                "moving anywhere with this many stones gives too many moves",
            ));
        }
        let f = self.movement.flying_at as usize;
        if f > 0 && (f * (n - f.min(n)) > 64 || f > movers) {
            return Err(ConfigError::new(
                "movement.flying_at",
                format!(
                    "0 (never) or at most {}",
                    (1..=movers)
                        .filter(|f| f * (n - f) <= 64)
                        .max()
                        .unwrap_or(0)
                ),
            ));
        }
        if self.end.repetition == 1 || self.end.repetition > 10 {
            return Err(ConfigError::new(
                "end.repetition",
                "0 (never) or 2 to 10 occurrences",
            ));
        }
        if !(1..=100_000).contains(&self.end.turn_limit) {
            return Err(ConfigError::new("end.turn_limit", "1 to 100000 turns"));
        }
        if self.end.lose_at as usize >= movers.max(1) && !unlimited {
            return Err(ConfigError::new(
                "end.lose_at",
                "must be below the number of stones each player has",
            ));
        }
        Ok(MorrisRules {
            config: self,
            board,
        })
    }
}

/// Whole configurations for property tests: every field drawn (the parts by their own
/// `Arbitrary`, so a field added to one of them is drawn without editing anything), then fitted
/// within the constraints [`MorrisConfig::compile`] checks, so that every drawn configuration
/// compiles and plays.
#[cfg(feature = "arbitrary")]
impl proptest::arbitrary::Arbitrary for MorrisConfig {
    type Parameters = ();
    type Strategy = proptest::strategy::BoxedStrategy<MorrisConfig>;

    fn arbitrary_with(_: ()) -> Self::Strategy {
        use proptest::prelude::*;
        (
            any::<BoardKind>(),
            // 1 and 2 stand for an unlimited supply (0), a quarter of the draws.
            0u8..=12,
            any::<Player>(),
            any::<Placement>(),
            any::<Movement>(),
            any::<Lines>(),
            any::<Take>(),
            any::<End>(),
        )
            .prop_map(
                |(board, stones, first_player, placement, movement, lines, take, end)| {
                    MorrisConfig {
                        board,
                        stones: if stones < 3 { 0 } else { stones },
                        first_player,
                        placement,
                        movement,
                        lines,
                        take,
                        end,
                    }
                    .fitted()
                },
            )
            .boxed()
    }
}

#[cfg(feature = "arbitrary")]
impl MorrisConfig {
    /// The nearest configuration that [`MorrisConfig::compile`] accepts: each field a check
    /// would refuse is moved to an allowed value.
    fn fitted(mut self) -> MorrisConfig {
        let n = Board::new(self.board).len();
        let unlimited = self.stones == 0;
        self.placement.until = if unlimited {
            Until::BoardFull
        } else {
            Until::HandsEmpty
        };
        if self.placement.cancel_line {
            self.placement.cancel = true;
        }
        if unlimited {
            self.placement.leave_line = LeaveLine::Off;
        }
        if 2 * self.stones as usize > n && !self.placement.cancel {
            self.stones = (n / 2) as u8;
        }
        let movers = if unlimited { n } else { self.stones as usize };
        if self.movement.step == Step::Anywhere && most_moves_anywhere(n, movers) > 64 {
            self.movement.step = Step::Adjacent;
        }
        let f = self.movement.flying_at as usize;
        if f > 0 && (f * (n - f.min(n)) > 64 || f > movers) {
            self.movement.flying_at = (1..=movers.min(f))
                .filter(|f| f * (n - f) <= 64)
                .max()
                .unwrap_or(0) as u8;
        }
        if !unlimited && self.end.lose_at as usize >= movers {
            self.end.lose_at = (movers - 1) as u8;
        }
        self
    }
}
