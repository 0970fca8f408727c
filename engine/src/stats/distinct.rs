//! How many distinct games a run holds, and the warning for a pairing that would replay one
//! line: agents that search choose the same move from the same position (up to ties broken
//! at random), so from the start position, without random openings, their games repeat.

use super::GameRecord;
use crate::agents::AgentSpec;
use std::collections::HashSet;

/// Most games' digests kept: beyond, the count is a lower bound on more games.
pub const MAX_TRACKED: usize = 1 << 20;

/// Distinct games among those added, told apart by their records: every column but the game's
/// number, its seed and the agents' names (two games with equal records are counted as one,
/// so the count is a lower bound on the distinct games played).
#[derive(Clone, Debug, Default)]
pub struct DistinctGames {
    seen: HashSet<u64>,
    games: u64,
}

impl DistinctGames {
    /// Adds a game.
    pub fn add(&mut self, r: &GameRecord) {
        self.games += 1;
        if self.seen.len() < MAX_TRACKED {
            self.seen.insert(digest(r));
        }
    }

    /// Games added.
    pub fn games(&self) -> u64 {
        self.games
    }

    /// Distinct games among them (a lower bound).
    pub fn distinct(&self) -> u64 {
        self.seen.len() as u64
    }

    /// `N distinct games of M (told apart by their records)`, with a warning in words when
    /// fewer than half the games are distinct.
    pub fn sentence(&self) -> String {
        let (d, n) = (self.distinct(), self.games);
        let mut s = format!("{d} distinct games of {n} (told apart by their records)");
        if n > 1 && 2 * d < n {
            s += &format!(
                "; warning: the run replays the same games ({:.0}% repeats): its figures \
                 describe a few lines of play, not the game; use random openings \
                 (--opening-plies)",
                100.0 * (n - d) as f64 / n as f64
            );
        }
        s
    }
}

/// A digest of a record's columns, its number, seed and agents' names left out.
fn digest(r: &GameRecord) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for v in [
        r.agent_a_index as u64,
        r.first as u64,
        r.winner as u64,
        r.reason as u64,
        r.turns as u64,
        r.actions as u64,
        r.moves as u64,
        r.captures_a as u64,
        r.captures_b as u64,
        r.stones_captured_a as u64,
        r.stones_captured_b as u64,
        r.stones_left_a as u64,
        r.stones_left_b as u64,
        r.longest_relay as u64,
        r.legal_sum,
        r.multi_decisions as u64,
    ] {
        for b in v.to_le_bytes() {
            h ^= b as u64;
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
    }
    h
}

/// Whether an agent chooses by a search whose only randomness is its tie-breaks
/// (alpha-beta, fixed-depth or deepening).
fn searches_deterministically(a: &AgentSpec) -> bool {
    matches!(a, AgentSpec::AlphaBeta { .. } | AgentSpec::Deepening { .. })
}

/// The warning, in words, for a pairing of two agents that search deterministically (up to
/// ties) played from the start position without random openings: their games replay one
/// line, so a figure from them (the first player's advantage, say) measures that line, not
/// the game. None otherwise.
pub fn replay_warning(agents: &[AgentSpec; 2], opening_plies: u32) -> Option<String> {
    if opening_plies > 0 || !agents.iter().all(searches_deterministically) {
        return None;
    }
    Some(format!(
        "warning: {} and {} search deterministically (only ties are broken at random): from \
         the start position without random openings their games follow the few lines those \
         ties allow (often the same first moves), and the figures describe those lines, not \
         the game; play from shared random openings (--opening-plies, e.g. 4)",
        agents[0], agents[1]
    ))
}
