//! A chunk's records packed: about a sixth of their CSV lines, and cheaper to write.
//!
//! A block starts with [`MAGIC`], the labels of the run's two agents and the run's seed; each
//! record follows as a kind byte, then (packed records) the game index as a varint unless it
//! is the one after the previous record's, the seed as 8 bytes unless it is the run's seed of
//! that game ([`Rng::game_seed`]), one byte holding the seat of agent 0, who moved first, the
//! winner and the reason, the counts as varints, and the mean branching only when it is not
//! `legal_sum / actions` exactly. Every record reads back equal, field for field and bit for
//! bit. A record whose agents are not the block's two (which a run never makes) is refused.

use std::sync::Arc;
use tsoro_engine::outcome::EndReason;
use tsoro_engine::player::Player;
use tsoro_engine::rng::Rng;
use tsoro_engine::stats::{GameRecord, Winner, mean_branching};

/// The first bytes of a packed block (format 2, the only one a service has stored; migration
/// 0014 refuses a database holding another).
pub const MAGIC: &[u8; 5] = b"TSRB\x02";

/// A packed record, its mean branching derived.
const PACKED: u8 = 0;
/// A packed record followed by its mean branching (8 bytes).
const PACKED_BRANCHING: u8 = 1;
/// Flag of a packed record's kind: its game is the one after the previous record's
/// (no index written).
const NEXT_GAME: u8 = 4;
/// Flag of a packed record's kind: its seed is the run's seed of its game (no seed
/// written).
const RUN_SEED: u8 = 8;

// A record's reason is 4 bits of its packed byte.
const _: () = assert!(EndReason::ALL.len() <= 16);

/// Bytes that do not read back as a packed block, or a record that does not pack.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum PackError {
    /// A record whose agents are not the block's two (a run never makes one).
    #[error("game {game} is not a game between the two agents of its chunk")]
    Foreign { game: u64 },
    /// A byte that names no kind of record, seat, winner or reason.
    #[error("a packed block has a bad {what} ({byte}) at byte {at}")]
    Bad {
        what: &'static str,
        byte: u64,
        at: usize,
    },
}

/// The two agents' labels, as a block's header gives them.
pub type Labels = [Arc<str>; 2];

/// What a block's header says.
#[derive(Clone, Debug, PartialEq)]
pub struct Header {
    /// Agents 0 and 1 of the run.
    pub labels: Labels,
    /// The run's seed.
    pub seed: u64,
}

/// Appends the header of a block for a run between these agents with this seed.
pub fn write_header(labels: [&str; 2], seed: u64, out: &mut Vec<u8>) {
    out.extend_from_slice(MAGIC);
    for l in labels {
        varint(l.len() as u64, out);
        out.extend_from_slice(l.as_bytes());
    }
    out.extend_from_slice(&seed.to_le_bytes());
}

/// The labels a record's agents have as agents 0 and 1 of its run.
pub fn labels_of(r: &GameRecord) -> [&str; 2] {
    if r.agent_a_index == 0 {
        [&r.agent_a, &r.agent_b]
    } else {
        [&r.agent_b, &r.agent_a]
    }
}

/// The header and its length; `None` while `b` holds only part of it.
pub fn read_header(b: &[u8]) -> Result<Option<(Header, usize)>, PackError> {
    let mut at = MAGIC.len();
    if b.len() < at {
        return Ok(None);
    }
    if &b[..at] != MAGIC {
        return Err(PackError::Bad {
            what: "header",
            byte: b[0] as u64,
            at: 0,
        });
    }
    let mut labels: [Option<Arc<str>>; 2] = [None, None];
    for l in &mut labels {
        let Some(len) = read_varint(b, &mut at) else {
            return Ok(None);
        };
        let Some(text) = b.get(at..at + len as usize) else {
            return Ok(None);
        };
        *l = Some(Arc::from(String::from_utf8_lossy(text).as_ref()));
        at += len as usize;
    }
    let [Some(a), Some(l1)] = labels else {
        return Ok(None);
    };
    let Some(seed) = read_u64(b, &mut at) else {
        return Ok(None);
    };
    Ok(Some((
        Header {
            labels: [a, l1],
            seed,
        },
        at,
    )))
}

/// Where a block being written stands: what the next record may leave out.
#[derive(Clone, Copy, Debug)]
pub struct Packer {
    /// The run's seed, as the header gives it.
    pub seed: u64,
    /// The game after the previous record's, if that record was packed.
    pub next: Option<u64>,
}

/// Appends `r` to a block whose header names `labels` and `p.seed`; refuses a record whose
/// agents are not those two.
pub fn pack(
    r: &GameRecord,
    labels: [&str; 2],
    p: &mut Packer,
    out: &mut Vec<u8>,
) -> Result<(), PackError> {
    let reason = EndReason::ALL.iter().position(|&x| x == r.reason);
    let Some(reason) = reason.filter(|_| labels_of(r) == labels && r.agent_a_index <= 1) else {
        return Err(PackError::Foreign { game: r.game });
    };
    let derived = mean_branching(r.legal_sum, r.actions);
    let explicit = derived.to_bits() != r.mean_branching.to_bits();
    let next = p.next == Some(r.game);
    let run_seed = r.seed == Rng::game_seed(p.seed, r.game);
    out.push(
        if explicit { PACKED_BRANCHING } else { PACKED }
            | if next { NEXT_GAME } else { 0 }
            | if run_seed { RUN_SEED } else { 0 },
    );
    if !next {
        varint(r.game, out);
    }
    if !run_seed {
        out.extend_from_slice(&r.seed.to_le_bytes());
    }
    p.next = r.game.checked_add(1);
    let first = (r.first == Player::B) as u8;
    let winner = match r.winner {
        Winner::A => 0,
        Winner::B => 1,
        Winner::Draw => 2,
    };
    out.push(r.agent_a_index | first << 1 | winner << 2 | (reason as u8) << 4);
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
        r.multi_decisions,
    ] {
        varint(v as u64, out);
    }
    varint(r.legal_sum, out);
    if explicit {
        out.extend_from_slice(&r.mean_branching.to_bits().to_le_bytes());
    }
    Ok(())
}

/// The record at the start of `b` (after the header) and its length; `None` while `b` holds
/// only part of it. `next` is the game after the previous record's, if there was one.
pub fn unpack(
    b: &[u8],
    header: &Header,
    next: Option<u64>,
) -> Result<Option<(GameRecord, usize)>, PackError> {
    let Some(&kind) = b.first() else {
        return Ok(None);
    };
    let mut at = 1;
    // A game follows only a record.
    let base = kind & !(NEXT_GAME | RUN_SEED);
    let bad_kind =
        (base != PACKED && base != PACKED_BRANCHING) || (kind & NEXT_GAME != 0 && next.is_none());
    if bad_kind {
        return Err(PackError::Bad {
            what: "kind of record",
            byte: kind as u64,
            at: 0,
        });
    }
    let game = match next {
        Some(g) if kind & NEXT_GAME != 0 => g,
        _ => {
            let Some(g) = read_varint(b, &mut at) else {
                return Ok(None);
            };
            g
        }
    };
    let seed = if kind & RUN_SEED != 0 {
        Rng::game_seed(header.seed, game)
    } else {
        let Some(x) = read_u64(b, &mut at) else {
            return Ok(None);
        };
        x
    };
    let Some(&bits) = b.get(at) else {
        return Ok(None);
    };
    at += 1;
    let agent_a_index = bits & 1;
    let first = if bits >> 1 & 1 == 1 {
        Player::B
    } else {
        Player::A
    };
    let winner = match bits >> 2 & 3 {
        0 => Winner::A,
        1 => Winner::B,
        2 => Winner::Draw,
        w => {
            return Err(PackError::Bad {
                what: "winner",
                byte: w as u64,
                at,
            });
        }
    };
    let Some(&reason) = EndReason::ALL.get((bits >> 4) as usize) else {
        return Err(PackError::Bad {
            what: "reason",
            byte: (bits >> 4) as u64,
            at,
        });
    };
    let mut counts = [0u32; 11];
    for c in &mut counts {
        let Some(v) = read_varint(b, &mut at) else {
            return Ok(None);
        };
        *c = v as u32;
    }
    let Some(legal_sum) = read_varint(b, &mut at) else {
        return Ok(None);
    };
    let [
        turns,
        actions,
        moves,
        captures_a,
        captures_b,
        stones_captured_a,
        stones_captured_b,
        stones_left_a,
        stones_left_b,
        longest_relay,
        multi_decisions,
    ] = counts;
    let mean_branching = if base == PACKED_BRANCHING {
        let Some(x) = read_u64(b, &mut at) else {
            return Ok(None);
        };
        f64::from_bits(x)
    } else {
        mean_branching(legal_sum, actions)
    };
    let a = agent_a_index as usize;
    let record = GameRecord {
        game,
        seed,
        agent_a: header.labels[a].clone(),
        agent_b: header.labels[1 - a].clone(),
        agent_a_index,
        first,
        winner,
        reason,
        turns,
        actions,
        moves,
        captures_a,
        captures_b,
        stones_captured_a,
        stones_captured_b,
        stones_left_a,
        stones_left_b,
        longest_relay,
        mean_branching,
        legal_sum,
        multi_decisions,
    };
    Ok(Some((record, at)))
}

/// Appends `v` as a LEB128 varint.
#[inline]
fn varint(mut v: u64, out: &mut Vec<u8>) {
    while v >= 0x80 {
        out.push(v as u8 | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

/// Reads 8 little-endian bytes at `*at`, moving past them; `None` when `b` ends first.
#[inline]
fn read_u64(b: &[u8], at: &mut usize) -> Option<u64> {
    let x: [u8; 8] = b.get(*at..*at + 8)?.try_into().ok()?;
    *at += 8;
    Some(u64::from_le_bytes(x))
}

/// Reads a LEB128 varint at `*at`, moving past it; `None` when `b` ends first.
#[inline]
fn read_varint(b: &[u8], at: &mut usize) -> Option<u64> {
    let mut v = 0u64;
    let mut shift = 0;
    loop {
        let byte = *b.get(*at)?;
        *at += 1;
        v |= ((byte & 0x7F) as u64).checked_shl(shift).unwrap_or(0);
        if byte < 0x80 {
            return Some(v);
        }
        shift += 7;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::jobs::records::{Decoder, Encoder, decode_all};
    use tsoro_engine::catalogue::{self, Params};
    use tsoro_engine::sim::{SimOptions, SimSpec, simulate_any};
    use tsoro_engine::stats::csv_line;

    fn lines(records: &[GameRecord]) -> Vec<u8> {
        let mut out = vec![];
        records
            .iter()
            .for_each(|r| csv_line::write_line(r, &mut out));
        out
    }

    /// The records of a simulation, in order.
    fn simulated(g: &tsoro_engine::AnyGame, spec: &SimSpec) -> Vec<GameRecord> {
        let mut recs = vec![];
        simulate_any(g, spec, &SimOptions::default(), &mut |r| {
            recs.push(r.clone())
        })
        .unwrap();
        recs
    }

    fn stored(records: &[GameRecord], seed: u64) -> Vec<u8> {
        let mut e = Encoder::new(seed);
        let mut out = vec![];
        records.iter().for_each(|r| e.encode(r, &mut out).unwrap());
        out
    }

    /// Decodes `b` fed in pieces of `size` bytes.
    fn decoded(b: &[u8], size: usize) -> Vec<u8> {
        let mut d = Decoder::new();
        let mut out = vec![];
        for piece in b.chunks(size) {
            out.extend(d.feed(piece).unwrap());
        }
        d.finish().unwrap();
        out
    }

    #[test]
    fn every_ruleset_reads_back_as_its_csv_lines_from_a_sixth_of_the_bytes() {
        let mut rulesets = 0;
        for def in catalogue::all() {
            let Ok(g) = def.build(&Params::new()) else {
                continue;
            };
            let spec = SimSpec {
                agents: ["random".parse().unwrap(), "greedy".parse().unwrap()],
                games: 1000..1030,
                seed: 5,
                swap_seats: true,
                opening_plies: 0,
            };
            let recs = simulated(&g, &spec);
            let b = stored(&recs, spec.seed);
            let csv = lines(&recs);
            assert!(
                b.len() * 5 < csv.len(),
                "{}: {} of {}",
                def.id,
                b.len(),
                csv.len()
            );
            for size in [1, 7, 64, b.len()] {
                assert_eq!(decoded(&b, size), csv, "{} in pieces of {size}", def.id);
            }
            assert_eq!(decode_all(&b).unwrap(), recs, "{}", def.id);
            rulesets += 1;
        }
        assert!(rulesets >= 20, "only {rulesets} rulesets simulated");
    }

    #[test]
    fn edge_cases_read_back_bit_for_bit() {
        let base = GameRecord {
            game: u64::MAX,
            seed: u64::MAX,
            agent_a: "mcts:100,c=1.4".into(),
            agent_b: "alphabeta:3".into(),
            agent_a_index: 1,
            first: Player::B,
            winner: Winner::Draw,
            reason: EndReason::Repetition,
            turns: u32::MAX,
            actions: 0,
            moves: u32::MAX,
            captures_a: 0,
            captures_b: 1,
            stones_captured_a: 127,
            stones_captured_b: 128,
            stones_left_a: 16383,
            stones_left_b: 16384,
            longest_relay: u32::MAX,
            mean_branching: 0.0,
            legal_sum: u64::MAX,
            multi_decisions: u32::MAX,
        };
        let mut recs = vec![base.clone()];
        for (i, &reason) in EndReason::ALL.iter().enumerate() {
            recs.push(GameRecord {
                game: i as u64,
                reason,
                agent_a_index: (i % 2) as u8,
                agent_a: if i % 2 == 0 {
                    base.agent_b.clone()
                } else {
                    base.agent_a.clone()
                },
                agent_b: if i % 2 == 0 {
                    base.agent_a.clone()
                } else {
                    base.agent_b.clone()
                },
                winner: [Winner::A, Winner::B, Winner::Draw][i % 3],
                first: [Player::A, Player::B][i % 2],
                actions: 3,
                legal_sum: 10,
                // Not the mean the counts give: kept as it is.
                mean_branching: [f64::NAN, f64::INFINITY, -0.0, 1e-300, 2.5][i % 5],
                ..base.clone()
            });
        }
        recs.push(GameRecord {
            actions: 3,
            legal_sum: 10,
            mean_branching: 10.0 / 3.0,
            ..base.clone()
        });
        let b = stored(&recs, 42);
        let back = decode_all(&b).unwrap();
        assert_eq!(back.len(), recs.len());
        for (x, y) in back.iter().zip(&recs) {
            assert_eq!(
                lines(std::slice::from_ref(x)),
                lines(std::slice::from_ref(y))
            );
            assert_eq!(x.mean_branching.to_bits(), y.mean_branching.to_bits());
        }
        for size in 1..40 {
            assert_eq!(decoded(&b, size), lines(&recs), "pieces of {size}");
        }
        // Agents that are not the block's two: refused.
        let mut e = Encoder::new(42);
        let mut out = vec![];
        e.encode(&base, &mut out).unwrap();
        let foreign = GameRecord {
            agent_a: "greedy".into(),
            ..base.clone()
        };
        assert_eq!(
            e.encode(&foreign, &mut out),
            Err(PackError::Foreign { game: u64::MAX })
        );
    }

    #[test]
    fn broken_blocks_are_errors_not_panics() {
        let recs = [GameRecord {
            game: 3,
            seed: 9,
            agent_a: "random".into(),
            agent_b: "random".into(),
            agent_a_index: 0,
            first: Player::A,
            winner: Winner::A,
            reason: EndReason::NoStones,
            turns: 40,
            actions: 41,
            moves: 90,
            captures_a: 5,
            captures_b: 4,
            stones_captured_a: 9,
            stones_captured_b: 8,
            stones_left_a: 3,
            stones_left_b: 0,
            longest_relay: 4,
            mean_branching: 100.0 / 41.0,
            legal_sum: 100,
            multi_decisions: 30,
        }];
        let b = stored(&recs, 1);
        let header = read_header(&b).unwrap().unwrap().1;
        // Cut anywhere inside a record or the header: an error at the end, never a panic or a
        // wrong line (cut right after the header, it is a block of no games).
        for cut in 1..b.len() {
            let mut d = Decoder::new();
            let out = d.feed(&b[..cut]).unwrap();
            assert!(out.is_empty(), "cut at {cut}");
            assert_eq!(d.finish().is_ok(), cut == header, "cut at {cut}");
        }
        // A bad kind of record.
        for kind in [2, 3, 0x10, 0x80, NEXT_GAME] {
            let mut bad = b.clone();
            bad[header] = kind;
            assert!(decode_all(&bad).is_err(), "kind {kind}");
        }
        // Every byte changed: decoding returns, whatever it gives.
        for i in 0..b.len() {
            let mut x = b.clone();
            x[i] ^= 0xFF;
            let _ = decode_all(&x);
        }
    }

    #[test]
    fn games_in_sequence_on_the_run_s_seeds_leave_out_their_index_and_seed() {
        let g = catalogue::get("tsoro-ludii")
            .unwrap()
            .build(&Params::new())
            .unwrap();
        let spec = SimSpec {
            agents: ["random".parse().unwrap(); 2],
            games: 500..600,
            seed: 9,
            swap_seats: true,
            opening_plies: 0,
        };
        let recs = simulated(&g, &spec);
        let lean = stored(&recs, 9);
        // Told another seed, every record keeps its own.
        let seeded = stored(&recs, 10);
        assert_eq!(decode_all(&lean).unwrap(), recs);
        assert_eq!(decode_all(&seeded).unwrap(), recs);
        assert_eq!(seeded.len() - lean.len(), 8 * recs.len());
        // Out of order, a game writes its index.
        let mut shuffled = recs.clone();
        shuffled.swap(10, 20);
        let b = stored(&shuffled, 9);
        assert_eq!(decode_all(&b).unwrap(), shuffled);
        for size in [1, 5, 33] {
            assert_eq!(decoded(&b, size), lines(&shuffled), "pieces of {size}");
        }
    }
}
