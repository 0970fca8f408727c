//! The command-line subcommands that need no database: replay, simulate, compare, search,
//! rulesets, export, tournament, ladder.

pub mod export;
pub mod nhodo;
pub mod replay;
pub mod rulesets;
pub mod run_args;
pub mod search;
pub mod simulate;
pub mod tournament;
