//! The command-line subcommands: those that need no database (replay, simulate, compare,
//! search, rulesets, export, tournament, ladder, readings, clusters), and `token`, `backup` and
//! `restore`, over the service's database.

pub mod backup;
pub mod clusters;
pub mod export;
pub mod nhodo;
pub mod readings;
pub mod replay;
pub mod rulesets;
pub mod run_args;
pub mod search;
pub mod simulate;
pub mod token;
pub mod tournament;
