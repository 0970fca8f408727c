//! Runs of games: what a request asks for, checked and planned ([`plan`]), what it would cost
//! ([`cost`]), and the CSV formats of their records and statistics ([`csv`]).

pub mod cost;
pub mod csv;
pub mod nhodo;
pub mod plan;
pub mod readings;
pub mod tournament;
