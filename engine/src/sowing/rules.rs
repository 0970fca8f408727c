//! Validated, compiled rules of a four-row sowing game.

use super::config::{
    BackCapture, ConfigError, EndRule, Endless, HeadLanding, LapOrigin, Limits, Opening, Resow,
    SinglesRule, SowingConfig, check_holes, layout_hole,
};
use crate::notation::{Row, SIDE_CAP};
use crate::player::Player;

/// Largest total of stones on a board: every hole count fits a byte.
pub const MAX_STONES: u32 = 255;

/// A compiled opening.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum OpeningRule {
    None,
    Forced { k: usize, protect: bool },
    Gambit { spread_captures: bool },
    OneCounter,
    LudiiOneCounter,
    LudiiBaia { k: usize },
    LudiiNjombwa,
}

/// The rules of a four-row sowing game, validated: build them with [`SowingConfig::compile`].
#[derive(Clone, Debug)]
pub struct Rules {
    pub(crate) config: SowingConfig,
    pub(crate) n: u8,
    pub(crate) len: usize,
    pub(crate) first: Player,
    pub(crate) start: [[u8; SIDE_CAP]; 2],
    pub(crate) start_heads: [u64; 2],
    pub(crate) nominate: u8,
    pub(crate) head_landing: HeadLanding,
    pub(crate) heads_immune: bool,
    pub(crate) relay: bool,
    pub(crate) skip_origin: bool,
    pub(crate) endless: Endless,
    pub(crate) after_empty: bool,
    pub(crate) into_hand: bool,
    pub(crate) back: BackCapture,
    pub(crate) resow: Resow,
    pub(crate) singles: SinglesRule,
    pub(crate) schedule: Vec<u8>,
    pub(crate) then: u8,
    pub(crate) takes_optional: bool,
    pub(crate) takes_shared: bool,
    pub(crate) opening: OpeningRule,
    pub(crate) total: u32,
    /// An endless relay stopped at the move limit ends on Ludii's board after exactly
    /// `move_limit` moves: under Ludii's limits, and in their whole-turn twin that the kernel
    /// plays (`sowing/capped.rs`).
    pub(crate) ludii_board: bool,
}

impl Rules {
    /// The configuration these rules were compiled from.
    pub fn config(&self) -> &SowingConfig {
        &self.config
    }

    /// When the game ends (kept once, in the configuration: games cut short for playouts
    /// change it there).
    pub fn end(&self) -> EndRule {
        self.config.end
    }

    /// Holes per row.
    pub fn holes(&self) -> u8 {
        self.n
    }

    /// Stones on the board at the start, both sides together.
    pub fn total_stones(&self) -> u32 {
        self.total
    }

    /// Additional takes earned by a player's `k`-th capture (1-based), outside an opening.
    pub(crate) fn takes_for(&self, k: u16) -> u8 {
        if let OpeningRule::LudiiBaia { .. } = self.opening {
            // Ludii's counter: -1 at the start, one up for each capture; 0 before this one
            // means the second schedule entry.
            return if k == 2 {
                self.schedule.get(1).copied().unwrap_or(self.then)
            } else {
                self.then
            };
        }
        let i = k as usize - 1;
        self.schedule.get(i).copied().unwrap_or(self.then)
    }
}

fn fill_side(
    side: &mut [u8; SIDE_CAP],
    owner: Player,
    n: u8,
    back: u8,
    front: u8,
    set: &std::collections::BTreeMap<String, u8>,
    field: &str,
) -> Result<(), ConfigError> {
    let nn = n as usize;
    for (k, v) in side.iter_mut().enumerate().take(2 * nn) {
        *v = if k < nn { back } else { front };
    }
    for (key, &v) in set {
        let hole = layout_hole(key, owner, n, &format!("{field}.set"))?;
        side[hole.track(n)] = v;
    }
    Ok(())
}

impl SowingConfig {
    /// Validates the configuration and compiles it into [`Rules`].
    pub fn compile(&self) -> Result<Rules, ConfigError> {
        let c = self;
        check_holes(c.holes)?;
        let n = c.holes;
        let len = 2 * n as usize;

        // Layout.
        let mut start = [[0u8; SIDE_CAP]; 2];
        fill_side(
            &mut start[0],
            Player::A,
            n,
            c.layout.back,
            c.layout.front,
            &c.layout.set,
            "layout",
        )?;
        match &c.layout.b {
            Some(b) => fill_side(
                &mut start[1],
                Player::B,
                n,
                b.back,
                b.front,
                &b.set,
                "layout.b",
            )?,
            None => start[1] = start[0],
        }
        let total: u32 = start.iter().flatten().map(|&v| v as u32).sum();
        if total > MAX_STONES {
            return Err(ConfigError::new(
                "layout",
                format!("{total} stones in all: at most {MAX_STONES}"),
            ));
        }
        for (p, side) in start.iter().enumerate() {
            if side.iter().all(|&v| v == 0) {
                return Err(ConfigError::new(
                    "layout",
                    format!("{} starts with no stones", Player::BOTH[p]),
                ));
            }
        }

        // Heads.
        let mut start_heads = [0u64; 2];
        for (i, spec) in c.heads.holes.iter().enumerate() {
            let field = format!("heads.holes[{i}]");
            let hole = spec
                .resolve(n)
                .map_err(|e| ConfigError::new(&field, e.to_string()))?;
            if hole.row != Row::I {
                return Err(ConfigError::new(
                    field,
                    "heads lie in the back row: name A's (row i); B's are their half-turn images",
                ));
            }
            let k = hole.track(n);
            start_heads[0] |= 1 << k;
            start_heads[1] |= 1 << k;
        }
        if c.heads.nominate as usize + c.heads.holes.len() > n as usize {
            return Err(ConfigError::new(
                "heads.nominate",
                format!("{} heads do not fit a back row of {n}", c.heads.nominate),
            ));
        }
        let has_heads = !c.heads.holes.is_empty() || c.heads.nominate > 0;
        if !has_heads && c.heads.immune_to_takes {
            return Err(ConfigError::new(
                "heads.immune_to_takes",
                "there are no heads to be immune",
            ));
        }

        // Takes.
        if let Some(i) = c.takes.schedule.iter().position(|&t| t > 2 * n) {
            return Err(ConfigError::new(
                format!("takes.schedule[{i}]"),
                format!("at most {} takes (the opponent's holes)", 2 * n),
            ));
        }
        if c.takes.then > 2 * n {
            return Err(ConfigError::new(
                "takes.then",
                format!("at most {} takes (the opponent's holes)", 2 * n),
            ));
        }
        let any_takes = c.takes.then > 0 || c.takes.schedule.iter().any(|&t| t > 0);
        if c.takes.optional && !any_takes {
            return Err(ConfigError::new(
                "takes.optional",
                "there are no additional takes to decline",
            ));
        }
        if c.takes.shared && !any_takes {
            return Err(ConfigError::new(
                "takes.shared",
                "there are no additional takes to share",
            ));
        }
        if c.takes.shared && c.takes.optional {
            return Err(ConfigError::new(
                "takes.shared",
                "a shared count of takes owed that may be declined is described by no source: \
                 choose one",
            ));
        }
        if any_takes && c.capture.resow != Resow::Off {
            return Err(ConfigError::new(
                "capture.resow",
                "re-sowing captured stones together with additional takes is described by no \
                 source: choose one",
            ));
        }
        if c.capture.resow == Resow::Continue && !c.sowing.relay {
            return Err(ConfigError::new(
                "capture.resow",
                "`continue` needs relay sowing (sowing.relay = true)",
            ));
        }

        // Opening.
        let opening = match &c.opening {
            Opening::None => OpeningRule::None,
            Opening::Forced { a, protect } => {
                let hole = a
                    .resolve(n)
                    .map_err(|e| ConfigError::new("opening.a", e.to_string()))?;
                if hole.owner() != Player::A {
                    return Err(ConfigError::new(
                        "opening.a",
                        "name A's hole (row i or ii); B's is its half-turn image",
                    ));
                }
                let k = hole.track(n);
                if start[0][k] < 2 || start[1][k] < 2 {
                    return Err(ConfigError::new(
                        "opening.a",
                        format!("the forced hole {hole} must start with at least two stones"),
                    ));
                }
                OpeningRule::Forced {
                    k,
                    protect: *protect,
                }
            }
            Opening::NjombwaGambit { spread_captures } => {
                for (p, side) in start.iter().enumerate() {
                    let pairs = side[..len].iter().filter(|&&v| v == 2).count();
                    if side[0] < 2 || pairs != 1 {
                        return Err(ConfigError::new(
                            "opening",
                            format!(
                                "the gambit needs a reserve in {}'s first back-row hole and \
                                 exactly one hole of two",
                                Player::BOTH[p]
                            ),
                        ));
                    }
                }
                OpeningRule::Gambit {
                    spread_captures: *spread_captures,
                }
            }
            Opening::NjombwaOneCounter => {
                one_stone_a_hole(&start, len, "the one-counter start")?;
                OpeningRule::OneCounter
            }
            Opening::LudiiOneCounter => {
                // The relay must come round to the hole before the end: the pattern of one
                // stone in every hole guarantees it.
                one_stone_a_hole(&start, len, "Ludii's one-counter opening")?;
                OpeningRule::LudiiOneCounter
            }
            Opening::LudiiBaia { a } => {
                let hole = a
                    .resolve(n)
                    .map_err(|e| ConfigError::new("opening.a", e.to_string()))?;
                if hole.owner() != Player::A {
                    return Err(ConfigError::new(
                        "opening.a",
                        "name A's hole (row i or ii); B's is its half-turn image",
                    ));
                }
                OpeningRule::LudiiBaia { k: hole.track(n) }
            }
            Opening::LudiiNjombwa => OpeningRule::LudiiNjombwa,
        };
        if opening != OpeningRule::None && has_heads {
            return Err(ConfigError::new(
                "opening",
                "openings with heads are described by no source",
            ));
        }
        if c.end.turn_limit == 0 {
            return Err(ConfigError::new("end.turn_limit", "must be at least 1"));
        }
        if c.end.move_limit == 0 {
            return Err(ConfigError::new("end.move_limit", "must be at least 1"));
        }

        Ok(Rules {
            config: c.clone(),
            n,
            len,
            first: c.first_player,
            start,
            start_heads,
            nominate: c.heads.nominate,
            head_landing: c.heads.on_landing,
            heads_immune: c.heads.immune_to_takes,
            relay: c.sowing.relay,
            skip_origin: c.sowing.lap_origin == LapOrigin::Skip,
            endless: c.sowing.endless,
            after_empty: c.sowing.after_empty,
            into_hand: c.capture.into_hand,
            back: c.capture.back,
            resow: c.capture.resow,
            singles: c.singles,
            schedule: c.takes.schedule.clone(),
            then: c.takes.then,
            takes_optional: c.takes.optional,
            takes_shared: c.takes.shared,
            opening,
            total,
            ludii_board: c.end.limits == Limits::Ludii,
        })
    }
}

/// Refuses a start without exactly one stone in every hole, which `what` needs.
fn one_stone_a_hole(
    start: &[[u8; SIDE_CAP]; 2],
    len: usize,
    what: &str,
) -> Result<(), ConfigError> {
    if start.iter().any(|side| side[..len].iter().any(|&v| v != 1)) {
        return Err(ConfigError::new(
            "opening",
            format!("{what} needs one stone in every hole"),
        ));
    }
    Ok(())
}
