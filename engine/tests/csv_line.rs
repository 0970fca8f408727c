//! The fast CSV line of a game record is byte for byte what the `csv` crate writes through
//! serde, on the records of every shipped ruleset and on hand-made edge cases.

use std::sync::Arc;
use tsoro_engine::catalogue::{self, Params};
use tsoro_engine::columns::header;
use tsoro_engine::sim::{SimOptions, SimSpec, simulate_any};
use tsoro_engine::stats::csv_line::write_line;
use tsoro_engine::stats::{GameRecord, Winner};
use tsoro_engine::{EndReason, Player};

fn serde_lines(records: &[GameRecord]) -> Vec<u8> {
    let mut w = csv::WriterBuilder::new()
        .has_headers(false)
        .from_writer(vec![]);
    for r in records {
        w.serialize(r).unwrap();
    }
    w.into_inner().unwrap()
}

fn fast_lines(records: &[GameRecord]) -> Vec<u8> {
    let mut out = vec![];
    records.iter().for_each(|r| write_line(r, &mut out));
    out
}

#[test]
fn the_line_is_the_serde_line_on_every_ruleset() {
    let mut rulesets = 0;
    for def in catalogue::all() {
        let Ok(g) = def.build(&Params::new()) else {
            continue;
        };
        let spec = SimSpec {
            agents: ["random".parse().unwrap(), "greedy".parse().unwrap()],
            games: 0..40,
            seed: 11,
            swap_seats: true,
            opening_plies: 0,
        };
        let mut recs = vec![];
        simulate_any(&g, &spec, &SimOptions::default(), &mut |r| {
            recs.push(r.clone())
        })
        .unwrap();
        assert_eq!(
            String::from_utf8(fast_lines(&recs)).unwrap(),
            String::from_utf8(serde_lines(&recs)).unwrap(),
            "{}",
            def.id
        );
        rulesets += 1;
    }
    assert!(rulesets >= 20, "only {rulesets} rulesets simulated");
}

#[test]
fn edge_cases_are_written_as_serde_writes_them() {
    let base = GameRecord {
        game: u64::MAX,
        seed: 0,
        agent_a: Arc::from("mcts:1000:0.5"),
        agent_b: Arc::from("alphabeta:4:mobility"),
        agent_a_index: 1,
        first: Player::B,
        winner: Winner::Draw,
        reason: EndReason::NoStones,
        turns: u32::MAX,
        actions: 0,
        moves: 7,
        captures_a: 1,
        captures_b: 2,
        stones_captured_a: 3,
        stones_captured_b: 4,
        stones_left_a: 5,
        stones_left_b: 6,
        longest_relay: 9,
        mean_branching: f64::NAN,
        legal_sum: 0,
        multi_decisions: 0,
    };
    let mut recs = vec![];
    for (i, reason) in EndReason::ALL.into_iter().enumerate() {
        let winner = [Winner::A, Winner::B, Winner::Draw][i % 3];
        let first = [Player::A, Player::B][i % 2];
        let branching = [0.1, 1.0, 1e21, 2.5e-7, 1.0 / 3.0, f64::INFINITY][i % 6];
        recs.push(GameRecord {
            reason,
            winner,
            first,
            mean_branching: branching,
            ..base.clone()
        });
    }
    for name in ["", "a,b", "say \"hi\"", "two\nlines", "cr\r", "plain"] {
        recs.push(GameRecord {
            agent_a: Arc::from(name),
            ..base.clone()
        });
    }
    assert_eq!(
        String::from_utf8(fast_lines(&recs)).unwrap(),
        String::from_utf8(serde_lines(&recs)).unwrap()
    );
}

/// `GameRecord::COLUMNS` is the record as serde writes it: the same names in the same order,
/// each integer field typed `integer`, and the reasons' description naming every reason.
#[test]
fn the_columns_are_the_records_fields() {
    let r = GameRecord {
        game: 0,
        seed: 0,
        agent_a: Arc::from("random"),
        agent_b: Arc::from("random"),
        agent_a_index: 0,
        first: Player::A,
        winner: Winner::Draw,
        reason: EndReason::NoMoves,
        turns: 0,
        actions: 0,
        moves: 0,
        captures_a: 0,
        captures_b: 0,
        stones_captured_a: 0,
        stones_captured_b: 0,
        stones_left_a: 0,
        stones_left_b: 0,
        longest_relay: 0,
        mean_branching: 0.5,
        legal_sum: 0,
        multi_decisions: 0,
    };
    let mut w = csv::Writer::from_writer(vec![]);
    w.serialize(&r).unwrap();
    let text = String::from_utf8(w.into_inner().unwrap()).unwrap();
    let mut lines = text.lines();
    assert_eq!(lines.next(), Some(header(GameRecord::COLUMNS).as_str()));
    let values: Vec<&str> = lines.next().unwrap().split(',').collect();
    for (c, v) in GameRecord::COLUMNS.iter().zip(&values) {
        let kind = if v.parse::<u64>().is_ok() {
            "integer"
        } else if v.parse::<f64>().is_ok() {
            "number"
        } else {
            "string"
        };
        assert_eq!(c.kind, kind, "{}: {v}", c.name);
    }
    let reason = GameRecord::COLUMNS.iter().find(|c| c.name == "reason");
    for r in EndReason::ALL {
        assert!(
            reason.unwrap().description.contains(r.as_str()),
            "the reason column does not name {}",
            r.as_str()
        );
    }
}
