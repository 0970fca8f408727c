//! The command-line subcommands that need no database: replay, simulate, compare, rulesets,
//! export.

pub mod export;
pub mod nhodo;
pub mod replay;
pub mod rulesets;
pub mod simulate;
