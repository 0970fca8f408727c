//! Nhodo, a dexterity game (Matthews 1964), as a stochastic model.
//!
//! Nhodo has no decisions to make: what happens depends on the players' hands. The model gives
//! each player a skill, the chance that each of the two moves of a throw is clean (the
//! throw-scoop-catch, and the push-back that leaves exactly one stone out), and plays the rules
//! as Matthews tells them: stones in a hole, a reserve beside it, the single stone kept after each
//! clean throw, singles put back into the hole at the start of one's turn, drawing on the reserve
//! when the hole is empty, and, when both are exhausted, "eating" the player on one's right, who
//! puts her singles into the hole and retires. The last player left wins.
//!
//! Assumptions where the text is silent (each cited as such in the archive): after a failed
//! throw every stone out of the hole goes back into it and nothing is kept; the reserve is drawn
//! on `refill` stones at a time (0: all of it); an eaten player with no singles leaves the hole
//! empty and the eater eats on; a game still running at the turn limit is a draw.

use crate::catalogue::RuleField;
use crate::outcome::EndReason;
use crate::rng::Rng;
use crate::sowing::ConfigError;
use crate::stats::{Distribution, Histogram, Rate};
use serde::{Deserialize, Serialize};
use std::ops::Range;

/// The rule fields of a nhodo configuration, each with what it decides in words; the corpus
/// cites each.
pub const RULE_FIELDS: &[RuleField] = &[
    RuleField::new(
        "players",
        "How many players take part, turns passing to the right.",
    ),
    RuleField::new(
        "skill",
        "Each player's chance that a move of a throw is clean.",
    ),
    RuleField::new(
        "first_skill",
        "The first player's chance of a clean move, when it differs.",
    ),
    RuleField::new(
        "start",
        "How many stones the first player puts into the hole to begin.",
    ),
    RuleField::new("reserve", "How many stones are kept aside as the reserve."),
    RuleField::new(
        "refill",
        "How many stones are drawn from the reserve when the hole is empty.",
    ),
    RuleField::new("turn_limit", "After how many turns the game is a draw."),
];

/// Most players.
pub const MAX_PLAYERS: usize = 8;

/// A nhodo model.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NhodoConfig {
    /// Players, 2 to 8, seated so that turns pass to the right (seat 1, 2, ...).
    pub players: u8,
    /// Every player's skill in percent: the chance that each move of a throw is clean.
    pub skill: u8,
    /// The first player's skill in percent, when it differs from the others'.
    #[serde(default)]
    pub first_skill: Option<u8>,
    /// Stones the first player puts into the hole to begin.
    pub start: u16,
    /// Stones kept to one side as the reserve.
    pub reserve: u16,
    /// Stones drawn from the reserve when the hole is empty (0: the whole reserve).
    #[serde(default)]
    pub refill: u16,
    /// Turns after which the game is a draw.
    #[serde(default = "turn_limit")]
    pub turn_limit: u32,
}

fn turn_limit() -> u32 {
    100_000
}

/// A checked nhodo model.
#[derive(Clone, Debug, PartialEq)]
pub struct NhodoModel {
    config: NhodoConfig,
    /// Skill of each seat, in percent.
    skills: Vec<u8>,
}

impl NhodoConfig {
    /// Checks the configuration.
    pub fn compile(self) -> Result<NhodoModel, ConfigError> {
        if !(2..=MAX_PLAYERS as u8).contains(&self.players) {
            return Err(ConfigError::new("players", "2 to 8 players"));
        }
        if !(1..=100).contains(&self.skill) {
            return Err(ConfigError::new("skill", "1 to 100 (percent)"));
        }
        if let Some(f) = self.first_skill
            && !(1..=100).contains(&f)
        {
            return Err(ConfigError::new("first_skill", "1 to 100 (percent)"));
        }
        if !(1..=1000).contains(&self.start) {
            return Err(ConfigError::new("start", "1 to 1000 stones"));
        }
        if self.reserve > 10_000 {
            return Err(ConfigError::new("reserve", "0 to 10000 stones"));
        }
        if !(1..=10_000_000).contains(&self.turn_limit) {
            return Err(ConfigError::new("turn_limit", "1 to 10000000 turns"));
        }
        let mut skills = vec![self.skill; self.players as usize];
        skills[0] = self.first_skill.unwrap_or(self.skill);
        Ok(NhodoModel {
            config: self,
            skills,
        })
    }
}

/// Where every stone is: the hole, the reserve, each player's singles.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NhodoState {
    /// Stones in the hole.
    pub hole: u32,
    /// Stones in the reserve.
    pub reserve: u32,
    /// Each seat's singles.
    pub singles: Vec<u32>,
    /// Seats still playing.
    pub active: Vec<bool>,
    /// The seat whose turn it is.
    pub turn_of: usize,
    /// Turns played.
    pub turns: u32,
    /// Clean throws made.
    pub throws: u64,
}

impl NhodoState {
    /// Stones in the game (constant).
    pub fn total(&self) -> u32 {
        self.hole + self.reserve + self.singles.iter().sum::<u32>()
    }
}

/// One game's record.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct NhodoRecord {
    /// Index of the game in the run.
    pub game: u64,
    /// The game's seed.
    pub seed: u64,
    /// The winning seat (1 = the first player), or `None` for a draw at the turn limit.
    pub winner: Option<u8>,
    /// Why the game ended (`last_standing` or `turn_limit`).
    pub reason: EndReason,
    /// Turns played.
    pub turns: u32,
    /// Clean throws made.
    pub throws: u64,
    /// Seats in the order they were eaten.
    pub eaten: Vec<u8>,
}

impl NhodoModel {
    /// The configuration.
    pub fn config(&self) -> &NhodoConfig {
        &self.config
    }

    /// Players.
    pub fn players(&self) -> usize {
        self.skills.len()
    }

    /// The start: stones in the hole and the reserve, the first player to throw.
    pub fn initial_state(&self) -> NhodoState {
        NhodoState {
            hole: self.config.start as u32,
            reserve: self.config.reserve as u32,
            singles: vec![0; self.players()],
            active: vec![true; self.players()],
            turn_of: 0,
            turns: 0,
            throws: 0,
        }
    }

    fn clean(&self, seat: usize, rng: &mut Rng) -> bool {
        // below(100) < skill: exact for every whole percent, always true at 100.
        rng.below(100) < self.skills[seat] as usize
    }

    fn next_active(s: &NhodoState, from: usize) -> usize {
        let n = s.active.len();
        (1..n)
            .map(|d| (from + d) % n)
            .find(|&k| s.active[k])
            .unwrap_or(from)
    }

    /// Plays one turn; returns the seats eaten during it.
    pub fn play_turn(&self, s: &mut NhodoState, rng: &mut Rng) -> Vec<u8> {
        let me = s.turn_of;
        let mut eaten = Vec::new();
        // On starting she puts her singles into the hole.
        s.hole += std::mem::take(&mut s.singles[me]);
        loop {
            if s.hole == 0 {
                if s.reserve > 0 {
                    let draw = match self.config.refill {
                        0 => s.reserve,
                        k => (k as u32).min(s.reserve),
                    };
                    s.reserve -= draw;
                    s.hole += draw;
                    continue;
                }
                // "Ndakudya!": the player on her right puts her singles in and retires.
                let victim = Self::next_active(s, me);
                if victim == me {
                    break; // the last one standing
                }
                s.hole += std::mem::take(&mut s.singles[victim]);
                s.active[victim] = false;
                eaten.push(victim as u8 + 1);
                continue;
            }
            // A throw: scoop and catch, then push back all but one and catch.
            if !self.clean(me, rng) || !self.clean(me, rng) {
                break; // everything out of the hole goes back in; the turn passes
            }
            s.hole -= 1;
            s.singles[me] += 1;
            s.throws += 1;
        }
        s.turns += 1;
        s.turn_of = Self::next_active(s, me);
        eaten
    }

    /// Whether one player is left.
    pub fn finished(s: &NhodoState) -> bool {
        s.active.iter().filter(|&&a| a).count() <= 1
    }

    /// Plays game `k` of a run with seed `seed` to the end.
    pub fn play(&self, seed: u64, k: u64) -> NhodoRecord {
        let game_seed = Rng::game_seed(seed, k);
        let mut rng = Rng::from_seed(game_seed);
        let mut s = self.initial_state();
        let mut eaten = Vec::new();
        while !Self::finished(&s) && s.turns < self.config.turn_limit {
            eaten.extend(self.play_turn(&mut s, &mut rng));
        }
        let done = Self::finished(&s);
        NhodoRecord {
            game: k,
            seed: game_seed,
            winner: done
                .then(|| s.active.iter().position(|&a| a).map(|w| w as u8 + 1))
                .flatten(),
            reason: if done {
                EndReason::LastStanding
            } else {
                EndReason::TurnLimit
            },
            turns: s.turns,
            throws: s.throws,
            eaten,
        }
    }
}

/// Running aggregates of a nhodo run (exact, so the merge of a run's chunks in any grouping
/// is the fold of all its records).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct NhodoSummary {
    /// Games played.
    pub games: u64,
    /// Wins per seat (index 0 = seat 1).
    pub wins: Vec<u64>,
    /// Draws at the turn limit.
    pub draws: u64,
    /// Turns per game.
    pub turns: Histogram,
    /// Clean throws per game (capped at u32::MAX in the histogram).
    pub throws: Histogram,
}

/// The statistics of a nhodo run.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct NhodoStats {
    /// Games played.
    pub games: u64,
    /// Win rate of each seat with its Wilson 95% interval (seat 1 first).
    pub wins: Vec<Rate>,
    /// Draws at the turn limit.
    pub draws: Rate,
    /// Turns per game.
    pub turns: Distribution,
    /// Clean throws per game.
    pub throws: Distribution,
}

impl NhodoSummary {
    /// Empty aggregates for this many players.
    pub fn new(players: usize) -> NhodoSummary {
        NhodoSummary {
            wins: vec![0; players],
            ..NhodoSummary::default()
        }
    }

    /// Adds a record.
    pub fn add(&mut self, r: &NhodoRecord) {
        self.games += 1;
        match r.winner {
            Some(w) => self.wins[w as usize - 1] += 1,
            None => self.draws += 1,
        }
        self.turns.add(r.turns);
        self.throws.add(r.throws.min(u32::MAX as u64) as u32);
    }

    /// Adds another part of the same run (the same players).
    pub fn merge(&mut self, o: &NhodoSummary) {
        self.games += o.games;
        if self.wins.len() < o.wins.len() {
            self.wins.resize(o.wins.len(), 0);
        }
        for (w, x) in self.wins.iter_mut().zip(&o.wins) {
            *w += x;
        }
        self.draws += o.draws;
        self.turns.merge(&o.turns);
        self.throws.merge(&o.throws);
    }

    /// The statistics.
    pub fn stats(&self) -> NhodoStats {
        NhodoStats {
            games: self.games,
            wins: self.wins.iter().map(|&w| Rate::of(w, self.games)).collect(),
            draws: Rate::of(self.draws, self.games),
            turns: self.turns.describe(),
            throws: self.throws.describe(),
        }
    }
}

/// Runs games `games` of a nhodo model with seed `seed`, in parallel (by the
/// [`crate::runner`]), handing every record to `sink` in game order.
pub fn simulate(
    model: &NhodoModel,
    games: Range<u64>,
    seed: u64,
    opts: &crate::sim::SimOptions,
    sink: &mut dyn FnMut(&NhodoRecord),
) -> Result<NhodoSummary, crate::sim::SimError> {
    crate::runner::check_games(&games)?;
    let run = opts.run();
    let mut summary = NhodoSummary::new(model.players());
    crate::runner::Runner::new(&run)?.run_games(
        games,
        |k| model.play(seed, k),
        |_, r| {
            summary.add(&r);
            sink(&r);
        },
    )?;
    Ok(summary)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn model(players: u8, skill: u8, first: Option<u8>) -> NhodoModel {
        NhodoConfig {
            players,
            skill,
            first_skill: first,
            start: 10,
            reserve: 30,
            refill: 10,
            turn_limit: 100_000,
        }
        .compile()
        .unwrap()
    }

    #[test]
    fn stones_are_conserved_turn_by_turn() {
        for players in [2, 5, 8] {
            let m = model(players, 70, None);
            for k in 0..50 {
                let mut rng = Rng::for_game(3, k);
                let mut s = m.initial_state();
                let total = s.total();
                while !NhodoModel::finished(&s) && s.turns < 10_000 {
                    m.play_turn(&mut s, &mut rng);
                    assert_eq!(s.total(), total);
                    // Eaten players hold nothing.
                    for (i, a) in s.active.iter().enumerate() {
                        if !a {
                            assert_eq!(s.singles[i], 0);
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn a_perfect_first_player_never_loses_the_turn() {
        for players in 2..=8 {
            let m = model(players, 50, Some(100));
            for k in 0..20 {
                let r = m.play(11, k);
                assert_eq!(r.winner, Some(1));
                assert_eq!(r.turns, 1, "she eats everyone in her first turn");
                assert_eq!(r.throws, 40, "every stone passes through her hand once");
                let expected: Vec<u8> = (2..=players).collect();
                assert_eq!(r.eaten, expected, "eaten in order, to her right");
            }
        }
    }

    #[test]
    fn play_is_deterministic_per_seed_and_thread_count() {
        let m = model(4, 85, None);
        let run = |threads| {
            let mut recs = Vec::new();
            let opts = crate::sim::SimOptions {
                threads,
                ..Default::default()
            };
            let s = simulate(&m, 0..600, 9, &opts, &mut |r| recs.push(r.clone())).unwrap();
            (recs, s)
        };
        let (a, sa) = run(1);
        let (b, sb) = run(2);
        assert_eq!(a, b);
        assert_eq!(sa, sb);
        assert_eq!(sa.games, 600);
        assert_eq!(sa.wins.iter().sum::<u64>() + sa.draws, 600);
    }

    #[test]
    fn chunks_merged_equal_the_whole_run() {
        let m = model(3, 75, None);
        let opts = crate::sim::SimOptions::default();
        let whole = simulate(&m, 0..900, 5, &opts, &mut |_| {}).unwrap();
        let mut merged = NhodoSummary::new(3);
        for (a, b) in [(0, 100), (100, 550), (550, 900)] {
            let part = simulate(&m, a..b, 5, &opts, &mut |_| {}).unwrap();
            // Through JSON, as a job stores each chunk's aggregates.
            let part: NhodoSummary =
                serde_json::from_value(serde_json::to_value(&part).unwrap()).unwrap();
            merged.merge(&part);
        }
        assert_eq!(merged, whole);
        assert_eq!(merged.stats(), whole.stats());
    }

    #[test]
    fn the_more_skilful_player_wins_more() {
        let even = model(2, 80, None);
        let better = model(2, 80, Some(95));
        let opts = crate::sim::SimOptions::default();
        let e = simulate(&even, 0..2000, 1, &opts, &mut |_| {}).unwrap();
        let b = simulate(&better, 0..2000, 1, &opts, &mut |_| {}).unwrap();
        assert!(b.wins[0] > e.wins[0] + 200, "{:?} vs {:?}", b.wins, e.wins);
    }

    #[test]
    fn bad_configurations_name_the_field() {
        let mut c = model(2, 50, None).config;
        c.players = 9;
        assert_eq!(c.clone().compile().unwrap_err().field, "players");
        c.players = 3;
        c.skill = 0;
        assert_eq!(c.compile().unwrap_err().field, "skill");
    }
}
