//! The command-line subcommands that need no database: replay, simulate, compare, rulesets.

pub mod nhodo;
pub mod replay;
pub mod rulesets;
pub mod simulate;
