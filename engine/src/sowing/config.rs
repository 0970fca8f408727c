//! The declarative configuration of a four-row sowing game (serde, JSON).
//!
//! Every rule is a field with a documented default. [`SowingConfig::compile`] validates a
//! configuration and turns it into [`Rules`](super::rules::Rules), naming the field at fault.

use crate::catalogue::RuleField;
use crate::notation::{HoleSpec, MAX_HOLES};
use crate::player::Player;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The rule fields every four-row sowing configuration has, as dotted paths, each with what it
/// decides in words. The corpus cites a source (or a reconstruction, or an assumption) for
/// each of them.
pub const RULE_FIELDS: &[RuleField] = &[
    RuleField::new("holes", "How many holes each row has."),
    RuleField::new("first_player", "Who moves first."),
    RuleField::new("layout", "How the stones are laid out at the start."),
    RuleField::new(
        "sowing.relay",
        "What happens when the last stone falls into an occupied hole.",
    ),
    RuleField::new(
        "sowing.lap_origin",
        "Whether a long lap sows the hole it was lifted from.",
    ),
    RuleField::new(
        "sowing.endless",
        "What ends a sowing that would never stop.",
    ),
    RuleField::new(
        "sowing.after_empty",
        "Whether a turn must start from a hole after an empty one.",
    ),
    RuleField::new(
        "capture.back",
        "Whether a capture also takes the back-row hole behind the front one.",
    ),
    RuleField::new(
        "capture.resow",
        "Whether captured stones leave the board or are sown again.",
    ),
    RuleField::new(
        "capture.into_hand",
        "Whether captured stones are kept in the capturer's hand.",
    ),
    RuleField::new(
        "singles.restricted",
        "Whether a move may start from a hole with a single stone.",
    ),
    RuleField::new(
        "singles.into_empty",
        "Whether single stones may move only into empty holes.",
    ),
    RuleField::new(
        "singles.capture",
        "Whether a single stone moved into an empty front hole captures.",
    ),
    RuleField::new("heads.holes", "Which back-row holes are heads (misoro)."),
    RuleField::new(
        "heads.nominate",
        "Whether the players nominate their heads.",
    ),
    RuleField::new(
        "heads.on_landing",
        "What a last stone landing in an occupied head may do.",
    ),
    RuleField::new(
        "heads.immune_to_takes",
        "Whether heads are safe from additional takes.",
    ),
    RuleField::new(
        "takes.schedule",
        "How many additional takes follow a capture.",
    ),
    RuleField::new(
        "takes.then",
        "What the additional takes become after the scheduled ones.",
    ),
    RuleField::new(
        "takes.optional",
        "Whether the additional takes may be declined.",
    ),
    RuleField::new(
        "takes.shared",
        "Whether takes owed pass to the next turn, whoever's it is.",
    ),
    RuleField::new("opening", "A stylised or forced opening."),
    RuleField::new(
        "end.no_moves",
        "What a player who cannot move does, or whether he loses.",
    ),
    RuleField::new(
        "end.mutual_pass",
        "What happens when both players pass in turn.",
    ),
    RuleField::new(
        "end.turn_limit",
        "After how many turns the game is called a draw.",
    ),
    RuleField::new(
        "end.move_limit",
        "After how many moves the game is called a draw.",
    ),
    RuleField::new("end.limits", "Where the turn and move limits cut a game."),
];

/// A four-row sowing game (tsoro, njombwa and their variants).
#[cfg_attr(feature = "arbitrary", derive(proptest_derive::Arbitrary))]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SowingConfig {
    /// Holes per row, 6 to 21. Default 8.
    #[serde(default = "default_holes")]
    #[cfg_attr(feature = "arbitrary", proptest(strategy = "6u8..=21"))]
    pub holes: u8,
    /// Who moves first. Default A.
    #[serde(default = "default_first")]
    pub first_player: Player,
    /// The start layout.
    pub layout: Layout,
    /// How stones are sown.
    #[serde(default)]
    pub sowing: SowingRule,
    /// What a last stone in an empty front-row hole takes.
    #[serde(default)]
    pub capture: CaptureRule,
    /// When and how single stones may move.
    #[serde(default)]
    pub singles: SinglesRule,
    /// Heads (misoro).
    #[serde(default)]
    pub heads: HeadsRule,
    /// Additional takes after a capture.
    #[serde(default)]
    pub takes: TakesRule,
    /// A stylised or forced opening.
    #[serde(default)]
    pub opening: Opening,
    /// How the game ends.
    #[serde(default)]
    pub end: EndRule,
}

fn default_holes() -> u8 {
    8
}
fn default_first() -> Player {
    Player::A
}
fn yes() -> bool {
    true
}

/// The start layout of one side, in that player's own rows. `back` and `front` fill every hole
/// of the row; `set` then overrides single holes (`"i,1": 29`, `"i,N": 3`).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SideLayout {
    /// Stones in every back-row hole.
    #[serde(default)]
    pub back: u8,
    /// Stones in every front-row hole.
    #[serde(default)]
    pub front: u8,
    /// Single holes that differ, keyed by hole (`i,3`, `ii,N-1`; for B's own layout `iii`/`iv`).
    #[serde(default)]
    pub set: BTreeMap<String, u8>,
}

/// The start layout: A's side, and B's side as the half-turn image of A's unless `b` is given.
#[cfg_attr(feature = "arbitrary", derive(proptest_derive::Arbitrary))]
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Layout {
    /// Stones in every back-row hole (both players unless `b` is given).
    #[serde(default)]
    #[cfg_attr(feature = "arbitrary", proptest(strategy = "0u8..=10"))]
    pub back: u8,
    /// Stones in every front-row hole.
    #[serde(default)]
    #[cfg_attr(feature = "arbitrary", proptest(strategy = "0u8..=4"))]
    pub front: u8,
    /// Holes of A's side that differ (`i,1`, `ii,N-1`); mirrored onto B's side.
    #[serde(default)]
    #[cfg_attr(feature = "arbitrary", proptest(strategy = "strategies::layout_set()"))]
    pub set: BTreeMap<String, u8>,
    /// B's own layout, when it is not the mirror of A's (holes in rows iii and iv).
    #[serde(default)]
    #[cfg_attr(feature = "arbitrary", proptest(strategy = "strategies::side_b()"))]
    pub b: Option<SideLayout>,
}

/// What a lap of 2N or more stones does when it comes round to the hole it was lifted from.
#[cfg_attr(feature = "arbitrary", derive(proptest_derive::Arbitrary))]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LapOrigin {
    /// The origin is sown like any other hole (Ludii's `includeSelf`; Sanderson's 29-stone
    /// spread needs it).
    #[default]
    Sow,
    /// The origin is skipped.
    Skip,
}

/// What happens when a relay sowing would never end.
#[cfg_attr(feature = "arbitrary", derive(proptest_derive::Arbitrary))]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Endless {
    /// The game ends at once as a draw with the reason `endless_sowing`.
    #[default]
    Draw,
    /// As Ludii: the laps run on until the move limit, and the game is a draw with the reason
    /// `move_limit` (computed at once, with the move count set to the limit; with
    /// [`Limits::Ludii`] the board is the one after the last move, from the relay's cycle).
    MoveLimit,
}

/// How stones are sown.
#[cfg_attr(feature = "arbitrary", derive(proptest_derive::Arbitrary))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SowingRule {
    /// A last stone in an occupied hole lifts that hole and sowing goes on. Default true.
    #[serde(default = "yes")]
    pub relay: bool,
    /// See [`LapOrigin`]. Default `sow`.
    #[serde(default)]
    pub lap_origin: LapOrigin,
    /// See [`Endless`]. Default `draw`.
    #[serde(default)]
    pub endless: Endless,
    /// A turn must start from a hole whose previous hole on the sower's track is empty
    /// (Tracey's rule as Ludii's Tsoro (Baia) plays it). Default false.
    #[serde(default)]
    pub after_empty: bool,
}

impl Default for SowingRule {
    fn default() -> Self {
        SowingRule {
            relay: true,
            lap_origin: LapOrigin::Sow,
            endless: Endless::Draw,
            after_empty: false,
        }
    }
}

/// When the back hole behind the opposite front hole is taken.
#[cfg_attr(feature = "arbitrary", derive(proptest_derive::Arbitrary))]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BackCapture {
    /// The opposite front hole must hold stones; the back hole behind it is taken with it when
    /// it holds any (Matthews (b), Sanderson).
    #[default]
    WithFront,
    /// Both opposite holes must hold stones for any take (a strict reading of Matthews (b):
    /// "both holes vertically opposite him are occupied").
    RequireBoth,
    /// Only the front hole is taken (Ludii's njombwa opening).
    Never,
}

/// What happens to captured stones.
#[cfg_attr(feature = "arbitrary", derive(proptest_derive::Arbitrary))]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Resow {
    /// They leave the board.
    #[default]
    Off,
    /// Matthews' Variant 4: dropped singly into the capturer's next holes, and the sowing
    /// "continues as before" (relay and capture as for any lap).
    Continue,
    /// Ludii's reading of Variant 4: dropped singly into the next holes, then the turn ends.
    EndTurn,
}

/// Capturing.
#[cfg_attr(feature = "arbitrary", derive(proptest_derive::Arbitrary))]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CaptureRule {
    /// See [`BackCapture`]. Default `with_front`.
    #[serde(default)]
    pub back: BackCapture,
    /// See [`Resow`]. Default `off`.
    #[serde(default)]
    pub resow: Resow,
    /// Captured stones (and takes) go into the capturer's hand, shown as `hands` in the
    /// state (Ludii's Tsoro (Baia)); they never come back and count for nothing. Default
    /// false: they leave the board.
    #[serde(default)]
    pub into_hand: bool,
}

/// The singles stage.
#[cfg_attr(feature = "arbitrary", derive(proptest_derive::Arbitrary))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SinglesRule {
    /// While any of a side's holes holds more than one stone, a turn must start from such a
    /// hole. Default true.
    #[serde(default = "yes")]
    pub restricted: bool,
    /// A single may move only into an empty next hole. Default true.
    #[serde(default = "yes")]
    pub into_empty: bool,
    /// A single moved into an empty front-row hole captures. Default true.
    #[serde(default = "yes")]
    pub capture: bool,
}

impl Default for SinglesRule {
    fn default() -> Self {
        SinglesRule {
            restricted: true,
            into_empty: true,
            capture: true,
        }
    }
}

/// What a last stone landing in an occupied head does.
#[cfg_attr(feature = "arbitrary", derive(proptest_derive::Arbitrary))]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum HeadLanding {
    /// The player chooses to stop or to relay (Matthews' Variant 1, Mancala World).
    #[default]
    Choose,
    /// The turn ends (Mancala World's "a move ends when the last stone falls into ... a head").
    Stop,
    /// No privilege: relay as in any hole.
    Relay,
}

/// Heads (misoro).
#[cfg_attr(feature = "arbitrary", derive(proptest_derive::Arbitrary))]
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HeadsRule {
    /// Fixed heads of A's back row (`i,1`, `i,N`); B's are their half-turn images.
    #[serde(default)]
    #[cfg_attr(feature = "arbitrary", proptest(strategy = "strategies::heads()"))]
    pub holes: Vec<HoleSpec>,
    /// Heads each player nominates in his own back row before play (alternately, A first).
    #[serde(default)]
    #[cfg_attr(feature = "arbitrary", proptest(strategy = "0u8..=2"))]
    pub nominate: u8,
    /// See [`HeadLanding`].
    #[serde(default)]
    pub on_landing: HeadLanding,
    /// Stones in heads cannot be removed by additional takes (Matthews' Variant 6).
    #[serde(default)]
    pub immune_to_takes: bool,
}

/// Additional takes after a capture: the `k`-th capture by a player earns `schedule[k-1]` takes,
/// or `then` once the schedule is used up. Each take empties one opponent hole of the
/// capturer's choice.
#[cfg_attr(feature = "arbitrary", derive(proptest_derive::Arbitrary))]
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TakesRule {
    /// Takes for the first, second, ... capture (Variant 7: `[5, 3]`).
    #[serde(default)]
    #[cfg_attr(
        feature = "arbitrary",
        proptest(strategy = "proptest::collection::vec(0u8..=3, 0..=2)")
    )]
    pub schedule: Vec<u8>,
    /// Takes for every later capture (Variant 5: the number agreed; Russ: 2).
    #[serde(default)]
    #[cfg_attr(feature = "arbitrary", proptest(strategy = "0u8..=3"))]
    pub then: u8,
    /// The taker may stop his takes: `"pass"` is among the legal actions while takes are due,
    /// and ends them (Matthews and Mancala World: a player "is entitled to" them). Default
    /// false: every take due is made, as Ludii plays them.
    #[serde(default)]
    pub optional: bool,
    /// The takes still owed are one count shared by both players (Ludii's `ExtraCapture`
    /// variable): when no hole can be taken the taker makes a forced pass and the count stays,
    /// so the next player, whoever he is, must first make the takes owed (from his opponent's
    /// holes) and cannot sow. Default false: takes left undone lapse with the turn.
    #[serde(default)]
    pub shared: bool,
}

/// A stylised or forced opening.
#[cfg_attr(feature = "arbitrary", derive(proptest_derive::Arbitrary))]
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum Opening {
    /// None: play starts at once.
    #[default]
    None,
    /// Each player's first move is forced from the given hole (A's; B's is its half-turn
    /// image), if that hole can be sown.
    Forced {
        /// A's first hole, e.g. `ii,3`.
        #[cfg_attr(
            feature = "arbitrary",
            proptest(strategy = "strategies::forced_hole()")
        )]
        a: HoleSpec,
        /// The opponent's forced hole cannot be removed by additional takes before he has made
        /// his first move.
        #[serde(default)]
        protect: bool,
    },
    /// Sanderson's njombwa gambit: both players march their pair ("2,1") until the two
    /// opening captures, then each spreads his reserve (the 29) with relay.
    NjombwaGambit {
        /// Whether the reserve's spread can capture (Sanderson is silent).
        #[serde(default)]
        spread_captures: bool,
    },
    /// Sanderson's one-counter start: each player's first move is the stylised relay from the
    /// right-hand end of his back row, the pair moved to the end hole and two stones removed.
    NjombwaOneCounter,
    /// Ludii's Tsoro (Baia).lud opening (phase FirstTurn): each player's first turn sows the
    /// given hole (A's; B's is its half-turn image) in one lap without relay, and a last stone
    /// in his front row captures when the opposite front hole is occupied, whether or not its
    /// own hole was empty. That capture earns `takes.schedule[0]` takes; a later capture earns
    /// `takes.schedule[1]` when Ludii's capture counter (starting at -1, one up for each
    /// capture) stands at 0, else `takes.then`; the opponent's first hole can never be taken.
    LudiiBaia {
        /// A's first hole, e.g. `ii,3`.
        #[cfg_attr(
            feature = "arbitrary",
            proptest(strategy = "strategies::forced_hole()")
        )]
        a: HoleSpec,
    },
    /// Ludii's Njombwa (One Counter).lud opening, three turns of one forced move for each
    /// player, alternately: the relay from the right-hand end of his back row (a lap ending in
    /// an occupied hole relays unless the next hole is the one the turn began from), the two
    /// stones of the hole before that end moved into it, and the two stones of the
    /// second-to-right hole of his front row removed from the board.
    LudiiOneCounter,
    /// Ludii's Njombwa.lud opening: phase Opening1 (sow the hole with exactly two, no relay,
    /// the opposite front hole only is removed), then one turn of Opening2 (the mover sows his
    /// 29 with relay and no capture), then play.
    LudiiNjombwa,
}

/// What a player to move who has stones but no legal move does.
#[cfg_attr(feature = "arbitrary", derive(proptest_derive::Arbitrary))]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum NoMoves {
    /// He passes (Ludii's forced pass).
    #[default]
    Pass,
    /// The game ends and he loses (one reading of Mancala World: "the game ends when a player
    /// can no longer move").
    Loss,
    /// The game ends; more stones on the board wins, equal is a draw.
    MoreStones,
}

/// What happens when both players must pass one after the other.
#[cfg_attr(feature = "arbitrary", derive(proptest_derive::Arbitrary))]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MutualPass {
    /// A draw with the reason `no_moves`.
    #[default]
    Draw,
    /// As Ludii: passes go on until the turn limit, a draw with the reason `turn_limit`
    /// (computed at once).
    TurnLimit,
}

/// How the game ends. A player with no stones always loses.
#[cfg_attr(feature = "arbitrary", derive(proptest_derive::Arbitrary))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EndRule {
    /// See [`NoMoves`].
    #[serde(default)]
    pub no_moves: NoMoves,
    /// See [`MutualPass`].
    #[serde(default)]
    pub mutual_pass: MutualPass,
    /// Turns (both players' together) after which the game is a draw, reason `turn_limit`.
    /// Default 2500 (Ludii's 1250 per player).
    #[serde(default = "default_turn_limit")]
    #[cfg_attr(feature = "arbitrary", proptest(strategy = "20u32..400"))]
    pub turn_limit: u32,
    /// Moves counted as Ludii counts them (each lap, take, stop and pass) after which the game
    /// is a draw, reason `move_limit`; checked lap by lap, so a relay stops at the limit (as
    /// Ludii's does). Default 10,000 (Ludii's).
    #[serde(default = "default_move_limit")]
    #[cfg_attr(feature = "arbitrary", proptest(strategy = "50u32..3000"))]
    pub move_limit: u32,
    /// See [`Limits`]. Default `whole_turns`.
    #[serde(default)]
    pub limits: Limits,
}

/// Where the turn and move limits cut a game.
#[cfg_attr(feature = "arbitrary", derive(proptest_derive::Arbitrary))]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Limits {
    /// The turn limit ends the game after its last turn has been played out; an endless relay
    /// stopped at the move limit ends on the board where the repetition was found.
    #[default]
    WholeTurns,
    /// As Ludii 1.3.13: the game is cut after the first move (the first lap) of turn
    /// `turn_limit`, even when a relay would follow; a game stopped by the move limit ends on
    /// the board after exactly `move_limit` moves (an endless relay's board at the limit is
    /// computed from its cycle).
    Ludii,
}

fn default_turn_limit() -> u32 {
    2500
}
fn default_move_limit() -> u32 {
    10_000
}

impl Default for EndRule {
    fn default() -> Self {
        EndRule {
            no_moves: NoMoves::Pass,
            mutual_pass: MutualPass::Draw,
            turn_limit: default_turn_limit(),
            move_limit: default_move_limit(),
            limits: Limits::WholeTurns,
        }
    }
}

/// A configuration that the engine rejects, with the field at fault.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{field}: {message}")]
pub struct ConfigError {
    /// The dotted path of the field (`layout.set."i,99"`).
    pub field: String,
    /// What is wrong.
    pub message: String,
}

impl ConfigError {
    pub(crate) fn new(field: impl Into<String>, message: impl Into<String>) -> Self {
        ConfigError {
            field: field.into(),
            message: message.into(),
        }
    }
}

/// Parses a hole of a side's layout, checking the row belongs to `owner`.
pub(crate) fn layout_hole(
    key: &str,
    owner: Player,
    holes: u8,
    field: &str,
) -> Result<crate::notation::Hole, ConfigError> {
    let spec: HoleSpec = key
        .parse()
        .map_err(|e| ConfigError::new(format!("{field}.\"{key}\""), format!("{e}")))?;
    let hole = spec
        .resolve(holes)
        .map_err(|e| ConfigError::new(format!("{field}.\"{key}\""), format!("{e}")))?;
    if hole.owner() != owner {
        let rows = match owner {
            Player::A => "i or ii",
            Player::B => "iii or iv",
        };
        return Err(ConfigError::new(
            format!("{field}.\"{key}\""),
            format!("this layout is {owner}'s: use rows {rows}"),
        ));
    }
    Ok(hole)
}

/// Checks the board size.
pub(crate) fn check_holes(holes: u8) -> Result<(), ConfigError> {
    if !(6..=MAX_HOLES as u8).contains(&holes) {
        return Err(ConfigError::new(
            "holes",
            format!("{holes} holes per row: allowed 6 to {MAX_HOLES}"),
        ));
    }
    Ok(())
}

/// Strategies for the fields of a configuration whose values must name holes or stay small
/// enough for the engine (at most 255 stones), for the configuration's `Arbitrary`.
#[cfg(feature = "arbitrary")]
mod strategies {
    use super::SideLayout;
    use crate::notation::HoleSpec;
    use proptest::prelude::*;
    use std::collections::BTreeMap;

    fn holes(names: &'static [&'static str]) -> impl Strategy<Value = HoleSpec> {
        proptest::sample::select(names)
            .prop_map(|h| h.parse().expect("a strategy's hole names are holes"))
    }

    fn set(names: &'static [&'static str]) -> impl Strategy<Value = BTreeMap<String, u8>> {
        proptest::collection::btree_map(
            proptest::sample::select(names).prop_map(String::from),
            0u8..=5,
            0..=2,
        )
    }

    /// A's holes that differ from the rows' counts.
    pub(super) fn layout_set() -> impl Strategy<Value = BTreeMap<String, u8>> {
        set(&["i,1", "i,N", "ii,1", "ii,2", "ii,N-1"])
    }

    /// B's own layout, now and then.
    pub(super) fn side_b() -> impl Strategy<Value = Option<SideLayout>> {
        proptest::option::weighted(
            0.2,
            (0u8..=10, 0u8..=4, set(&["iv,1", "iv,N", "iii,2"]))
                .prop_map(|(back, front, set)| SideLayout { back, front, set }),
        )
    }

    /// Fixed heads of A's back row.
    pub(super) fn heads() -> impl Strategy<Value = Vec<HoleSpec>> {
        proptest::collection::vec(holes(&["i,1", "i,N-1", "i,N"]), 0..=2)
    }

    /// A's forced first hole.
    pub(super) fn forced_hole() -> impl Strategy<Value = HoleSpec> {
        holes(&["ii,1", "ii,3", "ii,N", "i,N"])
    }
}

/// Configurations drawn as [`Arbitrary`](proptest::arbitrary::Arbitrary) draws them (every field),
/// then brought within what [`SowingConfig::compile`] accepts, by the fields its errors name:
/// most drawn configurations would otherwise be refused (66 of 2,000 compiled, none on the
/// kernel) and test nothing.
/// `pick`'s bits choose which of two conflicting fields gives way, so both sides are drawn.
#[cfg(feature = "arbitrary")]
pub fn valid_configs() -> impl proptest::strategy::Strategy<Value = SowingConfig> {
    use proptest::prelude::*;
    (any::<SowingConfig>(), any::<u32>()).prop_map(|(c, pick)| repair(c, pick))
}

#[cfg(feature = "arbitrary")]
fn repair(mut c: SowingConfig, pick: u32) -> SowingConfig {
    let bit = |i: u32| pick >> i & 1 == 1;
    if bit(4) {
        // Half the draws within the rules the sowing kernel plays (its gate refuses nearly
        // every configuration drawn field by field: each rule it does not model is a coin).
        c.sowing.relay = true;
        c.sowing.lap_origin = LapOrigin::Sow;
        c.takes.optional = false;
        c.heads.on_landing = HeadLanding::Choose;
    }
    for _ in 0..12 {
        let Err(e) = c.compile() else { break };
        let f = e.field.as_str();
        if f == "layout" && e.message.contains("stones in all") {
            // Halve every count until the stones fit in a byte.
            c.layout.back /= 2;
            c.layout.front /= 2;
            c.layout.set.values_mut().for_each(|v| *v /= 2);
            if let Some(b) = c.layout.b.as_mut() {
                b.back /= 2;
                b.front /= 2;
                b.set.values_mut().for_each(|v| *v /= 2);
            }
        } else if f == "layout" || f.starts_with("layout.") {
            c.layout.back = c.layout.back.max(1);
            c.layout.b = None;
            c.layout.set.clear();
        } else if f == "heads.immune_to_takes" {
            c.heads.immune_to_takes = false;
        } else if f.starts_with("heads.") {
            c.heads.nominate = 0;
            c.heads.holes.clear();
            c.heads.immune_to_takes = false;
        } else if f.starts_with("takes.schedule") || f == "takes.then" {
            c.takes
                .schedule
                .iter_mut()
                .for_each(|t| *t = (*t).min(c.holes));
            c.takes.then = c.takes.then.min(c.holes);
        } else if f == "takes.optional" || f == "takes.shared" {
            let no_takes = c.takes.then == 0 && c.takes.schedule.iter().all(|&t| t == 0);
            if no_takes && bit(0) {
                c.takes.then = 1 + (pick >> 8) as u8 % 3;
            } else if no_takes {
                (c.takes.optional, c.takes.shared) = (false, false);
            } else if bit(1) {
                c.takes.optional = false;
            } else {
                c.takes.shared = false;
            }
        } else if f == "capture.resow" {
            if e.message.contains("relay") {
                c.sowing.relay = true;
            } else if bit(2) {
                c.capture.resow = Resow::Off;
            } else {
                (c.takes.then, c.takes.optional, c.takes.shared) = (0, false, false);
                c.takes.schedule.clear();
            }
        } else if f == "opening" && e.message.contains("heads") {
            if bit(3) {
                c.opening = Opening::None;
            } else {
                c.heads.nominate = 0;
                c.heads.holes.clear();
                c.heads.immune_to_takes = false;
            }
        } else if f == "opening" && e.message.contains("gambit") {
            // Sanderson's layout: the reserve, the pair and the single.
            c.layout = Layout {
                back: 0,
                front: 0,
                set: [("i,1", 29), ("i,2", 2), ("i,3", 1)]
                    .into_iter()
                    .map(|(h, v)| (h.to_string(), v))
                    .collect(),
                b: None,
            };
        } else if f == "opening" {
            // The one-counter starts: one stone in every hole.
            c.layout = Layout {
                back: 1,
                front: 1,
                set: Default::default(),
                b: None,
            };
        } else if f == "opening.a" {
            match &c.opening {
                Opening::Forced { a, .. } if !e.message.contains("name A's") => {
                    c.layout.set.insert(a.to_string(), 2);
                    c.layout.b = None;
                }
                _ => c.opening = Opening::None,
            }
        } else {
            break;
        }
    }
    c
}
