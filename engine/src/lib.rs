//! tsoro-engine: a fast, deterministic rules engine for the stone games of Zimbabwe and Malawi.
//!
//! Every ruleset is a declarative configuration ([`sowing::SowingConfig`]) of one engine. The
//! [`catalogue`] holds the rulesets the archive ships. Pure library: no I/O, no database.

/// The engine's version: a digest of its sources, rulesets and manifest (16 hex digits, made
/// by `build.rs`). Two builds with the same version play the same games for the same inputs;
/// a job records the version that made it, and a worker of another version leaves it alone.
pub const VERSION: &str = env!("TSORO_ENGINE_VERSION");

pub mod game;
pub mod morris;
pub mod nhodo;
pub mod notation;
pub mod outcome;
pub mod player;
pub mod playout;
pub mod sowing;

pub use game::{ActionList, Game, IllegalAction, Report};
pub use notation::{Hole, Row};
pub use outcome::{EndReason, Outcome};
pub use player::Player;
pub mod anygame;
pub mod catalogue;
pub mod describe;

pub use anygame::AnyGame;
pub mod agents;
pub mod clock;
pub mod columns;
pub mod key;
pub mod replay;
pub mod rng;
pub mod runner;
pub mod sim;
pub mod stats;
pub mod tournament;
