//! A game record as one line of CSV, written without a serializer: the bytes the `csv` crate
//! writes for the record through serde (a test compares them on every shipped ruleset),
//! several times faster, for the records of large simulations.

use super::{GameRecord, Winner};
use crate::player::Player;

/// Appends `r` as one CSV line (no header; `\n` at the end), as `csv::Writer::serialize` would.
pub fn write_line(r: &GameRecord, out: &mut Vec<u8>) {
    let mut int = itoa::Buffer::new();
    let put = |out: &mut Vec<u8>, field: &[u8]| {
        out.extend_from_slice(field);
        out.push(b',');
    };
    put(out, int.format(r.game).as_bytes());
    put(out, int.format(r.seed).as_bytes());
    text(out, &r.agent_a);
    text(out, &r.agent_b);
    put(out, int.format(r.agent_a_index).as_bytes());
    put(
        out,
        match r.first {
            Player::A => b"A",
            Player::B => b"B",
        },
    );
    put(
        out,
        match r.winner {
            Winner::A => b"A".as_slice(),
            Winner::B => b"B",
            Winner::Draw => b"draw",
        },
    );
    put(out, r.reason.as_str().as_bytes());
    for v in [
        r.turns,
        r.actions,
        r.moves,
        r.captures_a,
        r.captures_b,
        r.stones_captured_a,
        r.stones_captured_b,
        r.stones_left_a,
        r.stones_left_b,
        r.longest_relay,
    ] {
        put(out, int.format(v).as_bytes());
    }
    put(out, ryu::Buffer::new().format(r.mean_branching).as_bytes());
    put(out, int.format(r.legal_sum).as_bytes());
    put(out, int.format(r.multi_decisions).as_bytes());
    // The last field's separator is the line's end.
    if let Some(end) = out.last_mut() {
        *end = b'\n';
    }
}

/// A text field and its separator, quoted (its quotes doubled) when it holds a comma, a quote
/// or a line end.
fn text(out: &mut Vec<u8>, s: &str) {
    let b = s.as_bytes();
    if !b.iter().any(|c| matches!(c, b',' | b'"' | b'\r' | b'\n')) {
        out.extend_from_slice(b);
    } else {
        out.push(b'"');
        for &c in b {
            if c == b'"' {
                out.push(b'"');
            }
            out.push(c);
        }
        out.push(b'"');
    }
    out.push(b',');
}
