//! Match statistics: per-game records, exact running aggregates (mergeable and independent
//! of thread count), summary statistics with 95% intervals, Ludii's outcome and duration
//! metrics under their own names, and comparisons of two runs.

pub mod csv_line;
pub mod dist;
pub mod distinct;
pub mod exact;
pub mod interval;
pub mod number;
pub mod paired;
pub mod seed_text;
pub mod study;

use crate::columns::Column;
use crate::outcome::EndReason;
pub use exact::ExactSum;
use interval::{Interval, MeanDiff, ProportionDiff, proportion_diff, welch, wilson};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::sync::Arc;

/// Who won a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Winner {
    /// Seat A.
    A,
    /// Seat B.
    B,
    /// Nobody.
    #[serde(rename = "draw")]
    Draw,
}

/// One game of a simulation: a line of `games.csv`, its fields the columns in this order
/// ([`GameRecord::COLUMNS`] describes them).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameRecord {
    /// Index of the game in the run (0-based).
    pub game: u64,
    /// The game's own seed, derived from (run seed, index) only (a string in JSON).
    #[serde(with = "seed_text")]
    pub seed: u64,
    /// The agent in seat A.
    pub agent_a: Arc<str>,
    /// The agent in seat B.
    pub agent_b: Arc<str>,
    /// Which of the run's two agents (0 or 1) sat in seat A.
    pub agent_a_index: u8,
    /// The seat that moved first.
    pub first: crate::player::Player,
    /// The winner's seat, or `draw`.
    pub winner: Winner,
    /// Why the game ended.
    pub reason: EndReason,
    /// Turns played.
    pub turns: u32,
    /// Decisions made (actions).
    pub actions: u32,
    /// Moves as Ludii counts them (each relay lap and each take is one).
    pub moves: u32,
    /// Capture events by A.
    pub captures_a: u32,
    /// Capture events by B.
    pub captures_b: u32,
    /// Stones taken by A (captures and takes).
    pub stones_captured_a: u32,
    /// Stones taken by B.
    pub stones_captured_b: u32,
    /// Stones left on A's side at the end.
    pub stones_left_a: u32,
    /// Stones left on B's side at the end.
    pub stones_left_b: u32,
    /// The longest sowing of one action, in laps.
    pub longest_relay: u32,
    /// Mean number of legal actions over the game's decisions.
    pub mean_branching: f64,
    /// Sum of legal-action counts over the decisions.
    pub legal_sum: u64,
    /// Decisions that had more than one legal action.
    pub multi_decisions: u32,
}

impl GameRecord {
    /// The columns of `games.csv` (one record a line, as serde writes it: the fields above, in
    /// their order), with their types and descriptions: the CSV writers' header and the data
    /// packages' schema.
    pub const COLUMNS: &'static [Column] = &[
        Column::new("game", "integer", "index of the game in the run, from 0").min(0),
        Column::new(
            "seed",
            "integer",
            "the game's own seed (an unsigned 64-bit number), derived from (run seed, game) only",
        ),
        Column::new(
            "agent_a",
            "string",
            "the agent in seat A (rows i and ii), e.g. random, alphabeta:4",
        ),
        Column::new("agent_b", "string", "the agent in seat B"),
        Column::new(
            "agent_a_index",
            "integer",
            "which of the run's two agents (0 or 1) sat in seat A",
        )
        .min(0),
        Column::new("first", "string", "the seat that moved first (A or B)"),
        Column::new("winner", "string", "A, B or draw"),
        Column::new(
            "reason",
            "string",
            "why the game ended: no_stones, no_moves, turn_limit, move_limit, endless_sowing, line, too_few_pieces, last_standing, repetition",
        ),
        Column::new(
            "turns",
            "integer",
            "turns played (one player's whole go is a turn)",
        )
        .min(0),
        Column::new("actions", "integer", "decisions made").min(0),
        Column::new(
            "moves",
            "integer",
            "moves as Ludii counts them (each relay lap and each take is one)",
        )
        .min(0),
        Column::new(
            "captures_a",
            "integer",
            "capture events by seat A (lines made, in line games)",
        )
        .min(0),
        Column::new("captures_b", "integer", "capture events by seat B").min(0),
        Column::new(
            "stones_captured_a",
            "integer",
            "stones taken by seat A (captures and takes), in stones",
        )
        .min(0),
        Column::new(
            "stones_captured_b",
            "integer",
            "stones taken by seat B, in stones",
        )
        .min(0),
        Column::new(
            "stones_left_a",
            "integer",
            "stones left to seat A at the end, in stones",
        )
        .min(0),
        Column::new(
            "stones_left_b",
            "integer",
            "stones left to seat B at the end, in stones",
        )
        .min(0),
        Column::new(
            "longest_relay",
            "integer",
            "the longest sowing of one action, in laps",
        )
        .min(0),
        Column::new(
            "mean_branching",
            "number",
            "mean number of legal actions over the game's decisions",
        ),
        Column::new(
            "legal_sum",
            "integer",
            "legal-action counts summed over the decisions",
        )
        .min(0),
        Column::new(
            "multi_decisions",
            "integer",
            "decisions with more than one legal action",
        )
        .min(0),
    ];
}

/// The mean number of legal actions over a game's decisions (0 for a game of none): a
/// record's `mean_branching`.
pub fn mean_branching(legal_sum: u64, actions: u32) -> f64 {
    if actions == 0 {
        0.0
    } else {
        legal_sum as f64 / actions as f64
    }
}

impl GameRecord {
    /// The index of the winning agent (0 or 1), if any.
    pub fn winning_agent(&self) -> Option<usize> {
        let a = self.agent_a_index as usize;
        match self.winner {
            Winner::A => Some(a),
            Winner::B => Some(1 - a),
            Winner::Draw => None,
        }
    }
}

/// Values below this are counted in a vector indexed by value (game lengths nearly always
/// are), larger ones in a map: counting a value is then an index, not a tree search.
const DENSE: usize = 1024;

/// Exact counts of a quantity's values (for medians and percentiles) plus sums. Serialised as
/// the counts by value (`counts`), `n`, `sum` and `sum_sq`.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
#[serde(from = "HistogramForm", into = "HistogramForm")]
pub struct Histogram {
    /// Counts of the values below [`DENSE`], by value (as long as the largest of them seen).
    dense: Vec<u64>,
    /// Counts of the values from [`DENSE`] up.
    counts: BTreeMap<u32, u64>,
    n: u64,
    sum: u128,
    sum_sq: u128,
}

/// A histogram as it is stored: every count by value.
#[derive(Clone, Serialize, Deserialize)]
struct HistogramForm {
    counts: BTreeMap<u32, u64>,
    n: u64,
    sum: u128,
    sum_sq: u128,
}

impl From<HistogramForm> for Histogram {
    fn from(f: HistogramForm) -> Histogram {
        let mut h = Histogram {
            n: f.n,
            sum: f.sum,
            sum_sq: f.sum_sq,
            ..Histogram::default()
        };
        for (v, c) in f.counts {
            *h.slot(v) += c;
        }
        h
    }
}

impl From<Histogram> for HistogramForm {
    fn from(h: Histogram) -> HistogramForm {
        HistogramForm {
            counts: h.iter().collect(),
            n: h.n,
            sum: h.sum,
            sum_sq: h.sum_sq,
        }
    }
}

impl PartialEq for Histogram {
    fn eq(&self, o: &Histogram) -> bool {
        (self.n, self.sum, self.sum_sq) == (o.n, o.sum, o.sum_sq) && self.iter().eq(o.iter())
    }
}

impl Histogram {
    /// The count of value `v`, to add to.
    #[inline]
    fn slot(&mut self, v: u32) -> &mut u64 {
        let i = v as usize;
        if i < DENSE {
            if self.dense.len() <= i {
                self.dense.resize(i + 1, 0);
            }
            &mut self.dense[i]
        } else {
            self.counts.entry(v).or_insert(0)
        }
    }

    /// The values seen and their counts, smallest first.
    fn iter(&self) -> impl DoubleEndedIterator<Item = (u32, u64)> + '_ {
        self.dense
            .iter()
            .enumerate()
            .filter(|&(_, &c)| c > 0)
            .map(|(v, &c)| (v as u32, c))
            .chain(self.counts.iter().map(|(&v, &c)| (v, c)))
    }

    /// Adds a value.
    #[inline]
    pub fn add(&mut self, v: u32) {
        *self.slot(v) += 1;
        self.n += 1;
        self.sum += v as u128;
        self.sum_sq += (v as u128) * (v as u128);
    }

    /// Adds another histogram's values.
    pub fn merge(&mut self, o: &Histogram) {
        if self.dense.len() < o.dense.len() {
            self.dense.resize(o.dense.len(), 0);
        }
        for (a, b) in self.dense.iter_mut().zip(&o.dense) {
            *a += b;
        }
        for (&v, &c) in &o.counts {
            *self.counts.entry(v).or_insert(0) += c;
        }
        self.n += o.n;
        self.sum += o.sum;
        self.sum_sq += o.sum_sq;
    }

    /// Values added.
    pub fn n(&self) -> u64 {
        self.n
    }

    /// Mean.
    pub fn mean(&self) -> f64 {
        if self.n == 0 {
            0.0
        } else {
            self.sum as f64 / self.n as f64
        }
    }

    /// Sample variance (n - 1).
    pub fn variance(&self) -> f64 {
        if self.n < 2 {
            return 0.0;
        }
        let n = self.n as f64;
        let exact = self.sum_sq as f64 - (self.sum as f64).powi(2) / n;
        (exact / (n - 1.0)).max(0.0)
    }

    /// The `p`-quantile by nearest rank: the smallest value with at least `ceil(p n)` values
    /// at or below it (`p` = 0.5 gives the lower median).
    pub fn quantile(&self, p: f64) -> u32 {
        if self.n == 0 {
            return 0;
        }
        let rank = ((p * self.n as f64).ceil() as u64).clamp(1, self.n);
        let mut seen = 0;
        for (v, c) in self.iter() {
            seen += c;
            if seen >= rank {
                return v;
            }
        }
        0
    }

    /// The value of the given rank (1 = the smallest; clamped to 1..=n), 0 when empty.
    pub fn at_rank(&self, rank: u64) -> u32 {
        let rank = rank.clamp(1, self.n.max(1));
        let mut seen = 0;
        for (v, c) in self.iter() {
            seen += c;
            if seen >= rank {
                return v;
            }
        }
        0
    }

    /// Summary figures.
    pub fn describe(&self) -> Distribution {
        Distribution {
            mean: self.mean(),
            sd: self.variance().sqrt(),
            median: self.quantile(0.5),
            p10: self.quantile(0.1),
            p90: self.quantile(0.9),
            min: self.iter().next().map_or(0, |(v, _)| v),
            max: self.iter().next_back().map_or(0, |(v, _)| v),
        }
    }
}

/// Summary figures of a distribution.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Distribution {
    /// Mean.
    pub mean: f64,
    /// Sample standard deviation.
    pub sd: f64,
    /// The lower median: the ⌈n/2⌉-th smallest value (nearest rank; not the mean of the two
    /// middle values of an even count, as pandas gives).
    pub median: u32,
    /// 10th percentile (nearest rank).
    pub p10: u32,
    /// 90th percentile (nearest rank).
    pub p90: u32,
    /// Smallest.
    pub min: u32,
    /// Largest.
    pub max: u32,
}

/// Running aggregates of a run: exact integer counts, so the result does not depend on the
/// order or the thread that produced the records (records are folded in game order anyway).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Summary {
    /// The two agents' names.
    pub agents: [String; 2],
    /// Games.
    pub games: u64,
    /// `played[agent][seat]`.
    pub played: [[u64; 2]; 2],
    /// `won[agent][seat]`.
    pub won: [[u64; 2]; 2],
    /// Wins per seat.
    pub seat_wins: [u64; 2],
    /// Wins of the player who moved first.
    pub first_mover_wins: u64,
    /// Games per end reason (draws and wins alike).
    pub reasons: BTreeMap<String, u64>,
    /// Draws per end reason.
    pub draw_reasons: BTreeMap<String, u64>,
    /// Draws.
    pub draws: u64,
    /// Game length in turns.
    pub turns: Histogram,
    /// Game length in Ludii moves.
    pub moves: Histogram,
    /// Capture events per seat.
    pub captures: [u64; 2],
    /// Stones captured per seat.
    pub stones_captured: [u64; 2],
    /// Legal-action counts summed over decisions.
    pub legal_sum: u64,
    /// Decisions.
    pub actions: u64,
    /// Sum over games of Ludii's per-game mean branching factor (forced laps count as 1).
    pub ludii_branching_sum: ExactSum,
    /// Sum over games of the fraction of moves with more than one option.
    pub decision_moves_sum: ExactSum,
    /// Longest relay seen.
    pub longest_relay: u32,
}

/// What a [`Summary`] counts of one game: the fields of its record that the aggregates read
/// (a simulation that hands out no records folds these, without making the record).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Counted {
    /// Which of the run's two agents (0 or 1) sat in seat A.
    pub agent_a_index: u8,
    /// The seat that moved first.
    pub first: crate::player::Player,
    /// The winner's seat, or a draw.
    pub winner: Winner,
    /// Why the game ended.
    pub reason: EndReason,
    /// Turns played.
    pub turns: u32,
    /// Decisions made.
    pub actions: u32,
    /// Ludii moves.
    pub moves: u32,
    /// Capture events by seat (A, B).
    pub captures: [u32; 2],
    /// Stones taken by seat.
    pub stones_captured: [u32; 2],
    /// The longest sowing of one action, in laps.
    pub longest_relay: u32,
    /// Legal-action counts summed over the decisions.
    pub legal_sum: u64,
    /// Decisions with more than one legal action.
    pub multi_decisions: u32,
}

impl Counted {
    /// What the summary counts of a record.
    pub fn of(r: &GameRecord) -> Counted {
        Counted {
            agent_a_index: r.agent_a_index,
            first: r.first,
            winner: r.winner,
            reason: r.reason,
            turns: r.turns,
            actions: r.actions,
            moves: r.moves,
            captures: [r.captures_a, r.captures_b],
            stones_captured: [r.stones_captured_a, r.stones_captured_b],
            longest_relay: r.longest_relay,
            legal_sum: r.legal_sum,
            multi_decisions: r.multi_decisions,
        }
    }
}

/// A [`Summary`] folded game by game on one thread, its games counted by end reason in an
/// array (an index, not a search among names) until [`finish`](Fold::finish): the same
/// summary as [`Summary::add`] of the same games' records.
#[derive(Clone, Debug)]
pub struct Fold {
    summary: Summary,
    /// Games by end reason (in the order of [`EndReason::ALL`]), and draws.
    reasons: [[u64; EndReason::ALL.len()]; 2],
}

impl Fold {
    /// An empty fold for these agents.
    pub fn new(agents: [String; 2]) -> Fold {
        Fold {
            summary: Summary::new(agents),
            reasons: [[0; EndReason::ALL.len()]; 2],
        }
    }

    /// Folds in one game.
    #[inline]
    pub fn add(&mut self, c: &Counted) {
        self.summary.add_numbers(c);
        // The reasons' discriminants are their places in `ALL` (`reasons_index_all`).
        let i = c.reason as usize;
        self.reasons[0][i] += 1;
        self.reasons[1][i] += (c.winner == Winner::Draw) as u64;
    }

    /// The summary of the games folded in.
    pub fn finish(mut self) -> Summary {
        for (i, reason) in EndReason::ALL.iter().enumerate() {
            let name = reason.as_str();
            for (n, counts) in [
                (self.reasons[0][i], &mut self.summary.reasons),
                (self.reasons[1][i], &mut self.summary.draw_reasons),
            ] {
                if n > 0 {
                    *counts.entry(name.to_string()).or_insert(0) += n;
                }
            }
        }
        self.summary
    }
}

/// One more of `key` (a string made only the first time: this is counted for every game).
fn count(counts: &mut BTreeMap<String, u64>, key: &str) {
    match counts.get_mut(key) {
        Some(c) => *c += 1,
        None => {
            counts.insert(key.to_string(), 1);
        }
    }
}

impl Summary {
    /// An empty summary for these agents.
    pub fn new(agents: [String; 2]) -> Summary {
        Summary {
            agents,
            ..Summary::default()
        }
    }

    /// Folds in one record.
    pub fn add(&mut self, r: &GameRecord) {
        let c = Counted::of(r);
        self.add_numbers(&c);
        if c.winner == Winner::Draw {
            count(&mut self.draw_reasons, c.reason.as_str());
        }
        count(&mut self.reasons, c.reason.as_str());
    }

    /// Folds in one game's figures but its end reason (the counts by reason are kept by the
    /// caller: by name in [`add`](Self::add), by index in [`Fold`]).
    #[inline]
    fn add_numbers(&mut self, r: &Counted) {
        self.games += 1;
        let a = r.agent_a_index as usize;
        self.played[a][0] += 1;
        self.played[1 - a][1] += 1;
        // Without a branch: random games' winners are a coin toss, which a branch mispredicts
        // half the time (a fold per game on the simulator's fast path).
        let (wa, wb) = (r.winner == Winner::A, r.winner == Winner::B);
        self.seat_wins[0] += wa as u64;
        self.won[a][0] += wa as u64;
        self.seat_wins[1] += wb as u64;
        self.won[1 - a][1] += wb as u64;
        self.draws += (r.winner == Winner::Draw) as u64;
        let first_won = matches!(
            (r.first, r.winner),
            (crate::player::Player::A, Winner::A) | (crate::player::Player::B, Winner::B)
        );
        self.first_mover_wins += first_won as u64;
        self.turns.add(r.turns);
        self.moves.add(r.moves);
        self.captures[0] += r.captures[0] as u64;
        self.captures[1] += r.captures[1] as u64;
        self.stones_captured[0] += r.stones_captured[0] as u64;
        self.stones_captured[1] += r.stones_captured[1] as u64;
        self.legal_sum += r.legal_sum;
        self.actions += r.actions as u64;
        let moves = r.moves.max(1) as f64;
        let forced = r.moves.saturating_sub(r.actions) as f64;
        self.ludii_branching_sum
            .add((r.legal_sum as f64 + forced) / moves);
        self.decision_moves_sum
            .add(r.multi_decisions as f64 / moves);
        self.longest_relay = self.longest_relay.max(r.longest_relay);
    }

    /// Folds in another summary of the same agents (every aggregate is exact, so merging
    /// the summaries of a run's parts gives the summary of the whole run).
    pub fn merge(&mut self, o: &Summary) {
        self.games += o.games;
        for i in 0..2 {
            for j in 0..2 {
                self.played[i][j] += o.played[i][j];
                self.won[i][j] += o.won[i][j];
            }
            self.seat_wins[i] += o.seat_wins[i];
            self.captures[i] += o.captures[i];
            self.stones_captured[i] += o.stones_captured[i];
        }
        self.first_mover_wins += o.first_mover_wins;
        for (k, v) in &o.reasons {
            *self.reasons.entry(k.clone()).or_insert(0) += v;
        }
        for (k, v) in &o.draw_reasons {
            *self.draw_reasons.entry(k.clone()).or_insert(0) += v;
        }
        self.draws += o.draws;
        self.turns.merge(&o.turns);
        self.moves.merge(&o.moves);
        self.legal_sum += o.legal_sum;
        self.actions += o.actions;
        self.ludii_branching_sum.merge(&o.ludii_branching_sum);
        self.decision_moves_sum.merge(&o.decision_moves_sum);
        self.longest_relay = self.longest_relay.max(o.longest_relay);
    }

    /// The statistics.
    pub fn stats(&self) -> Stats {
        let n = self.games;
        let rate = |k: u64| if n == 0 { 0.0 } else { k as f64 / n as f64 };
        let share = |k: u64, of: u64| if of == 0 { 0.0 } else { k as f64 / of as f64 };
        let timeouts: u64 = ["turn_limit", "move_limit"]
            .iter()
            .map(|r| self.draw_reasons.get(*r).copied().unwrap_or(0))
            .sum();
        let agents = [0, 1].map(|i| {
            let wins = self.won[i][0] + self.won[i][1];
            AgentStats {
                name: self.agents[i].clone(),
                wins,
                win_rate: rate(wins),
                ci: wilson(wins, n),
                as_a: SeatRecord {
                    games: self.played[i][0],
                    wins: self.won[i][0],
                    win_rate: share(self.won[i][0], self.played[i][0]),
                },
                as_b: SeatRecord {
                    games: self.played[i][1],
                    wins: self.won[i][1],
                    win_rate: share(self.won[i][1], self.played[i][1]),
                },
            }
        });
        let p1 = rate(self.first_mover_wins);
        let p2 = rate(n - self.first_mover_wins - self.draws);
        Stats {
            games: n,
            agents,
            seat_a: Rate::of(self.seat_wins[0], n),
            seat_b: Rate::of(self.seat_wins[1], n),
            first_mover: Rate::of(self.first_mover_wins, n),
            draws: Rate::of(self.draws, n),
            reasons: self.reasons.clone(),
            draw_reasons: self.draw_reasons.clone(),
            turns: self.turns.describe(),
            moves: self.moves.describe(),
            captures_per_game: [share(self.captures[0], n), share(self.captures[1], n)],
            stones_captured_per_game: [
                share(self.stones_captured[0], n),
                share(self.stones_captured[1], n),
            ],
            branching: share(self.legal_sum, self.actions),
            longest_relay: self.longest_relay,
            ludii: LudiiMetrics {
                advantage_p1: p1,
                balance: 1.0 - (p1 - p2).abs(),
                completion: rate(n - self.draws),
                drawishness: rate(self.draws - timeouts),
                timeouts: rate(timeouts),
                duration_turns: self.turns.mean(),
                duration_moves: self.moves.mean(),
                branching_factor: if n == 0 {
                    0.0
                } else {
                    self.ludii_branching_sum.value() / n as f64
                },
                decision_moves: if n == 0 {
                    0.0
                } else {
                    self.decision_moves_sum.value() / n as f64
                },
            },
            turns_variance: self.turns.variance(),
        }
    }
}

impl Stats {
    /// Agent `agent`'s score (0 or 1), a draw counting ½, with its Wilson 95% interval.
    pub fn score(&self, agent: usize) -> interval::Estimate {
        interval::score(self.agents[agent].wins, self.draws.count, self.games)
    }
}

/// A proportion with its Wilson 95% interval.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Rate {
    /// Count.
    pub count: u64,
    /// Count over games.
    pub rate: f64,
    /// Wilson 95% interval.
    pub ci: Interval,
}

impl Rate {
    /// `k` of `n`, with its interval.
    pub fn of(k: u64, n: u64) -> Rate {
        Rate {
            count: k,
            rate: if n == 0 { 0.0 } else { k as f64 / n as f64 },
            ci: wilson(k, n),
        }
    }
}

/// An agent's games in one seat.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct SeatRecord {
    /// Games in the seat.
    pub games: u64,
    /// Wins in the seat.
    pub wins: u64,
    /// Wins over games in the seat.
    pub win_rate: f64,
}

/// One agent's results.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct AgentStats {
    /// The agent.
    pub name: String,
    /// Wins.
    pub wins: u64,
    /// Wins over all games.
    pub win_rate: f64,
    /// Wilson 95% interval of the win rate.
    pub ci: Interval,
    /// In seat A.
    pub as_a: SeatRecord,
    /// In seat B.
    pub as_b: SeatRecord,
}

/// Ludii's outcome and duration metrics (`Evaluation/src/metrics`), same names and definitions:
/// P1 is the player who moves first.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
#[serde(rename_all = "PascalCase")]
pub struct LudiiMetrics {
    /// Fraction of games won by P1.
    #[serde(rename = "AdvantageP1")]
    pub advantage_p1: f64,
    /// 1 minus the largest difference between the players' win rates.
    pub balance: f64,
    /// Fraction of games with a winner.
    pub completion: f64,
    /// Fraction of games drawn within the limits (natural draws).
    pub drawishness: f64,
    /// Fraction of games that hit the turn or move limit.
    pub timeouts: f64,
    /// Mean turns.
    pub duration_turns: f64,
    /// Mean moves (each relay lap and take is one).
    pub duration_moves: f64,
    /// Mean legal moves per move (forced relay laps count one), averaged over games.
    pub branching_factor: f64,
    /// Fraction of moves with more than one option, averaged over games.
    pub decision_moves: f64,
}

/// The statistics of a run.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Stats {
    /// Games.
    pub games: u64,
    /// Per agent.
    pub agents: [AgentStats; 2],
    /// Seat A's wins.
    pub seat_a: Rate,
    /// Seat B's wins.
    pub seat_b: Rate,
    /// The first mover's wins.
    pub first_mover: Rate,
    /// Draws.
    pub draws: Rate,
    /// Games per end reason.
    pub reasons: BTreeMap<String, u64>,
    /// Draws per end reason.
    pub draw_reasons: BTreeMap<String, u64>,
    /// Length in turns.
    pub turns: Distribution,
    /// Length in Ludii moves.
    pub moves: Distribution,
    /// Capture events per game, seats A and B.
    pub captures_per_game: [f64; 2],
    /// Stones captured per game, seats A and B.
    pub stones_captured_per_game: [f64; 2],
    /// Mean legal actions per decision.
    pub branching: f64,
    /// Longest relay (laps of one action).
    pub longest_relay: u32,
    /// Ludii's metrics.
    pub ludii: LudiiMetrics,
    /// Sample variance of the length in turns (for comparisons).
    pub turns_variance: f64,
}

/// Two runs on the same seeds set side by side.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Comparison {
    /// First-mover win rate, first run minus second.
    pub first_mover: ProportionDiff,
    /// Draw rate, first minus second.
    pub draws: ProportionDiff,
    /// Mean length in turns, first minus second (Welch).
    pub turns: MeanDiff,
}

/// Compares two runs.
pub fn compare(a: &Stats, b: &Stats) -> Comparison {
    Comparison {
        first_mover: proportion_diff(a.first_mover.count, a.games, b.first_mover.count, b.games),
        draws: proportion_diff(a.draws.count, a.games, b.draws.count, b.games),
        turns: welch(
            a.games,
            a.turns.mean,
            a.turns_variance,
            b.games,
            b.turns.mean,
            b.turns_variance,
        ),
    }
}

#[cfg(test)]
mod histogram_tests {
    use super::Histogram;

    /// Values on both sides of the dense range: the same quantiles, extremes and stored form
    /// whichever way the values were added (one by one, or merged), and the stored form reads
    /// back to an equal histogram.
    #[test]
    fn dense_and_sparse_values_count_alike() {
        let values = [3u32, 0, 1023, 1024, 5000, 3, 70_000, 1023, 12];
        let mut one = Histogram::default();
        values.iter().for_each(|&v| one.add(v));
        let (mut a, mut b) = (Histogram::default(), Histogram::default());
        values[..4].iter().for_each(|&v| a.add(v));
        values[4..].iter().for_each(|&v| b.add(v));
        b.merge(&a);
        assert_eq!(one, b);
        let d = one.describe();
        assert_eq!((d.min, d.max, d.median), (0, 70_000, 1023));
        assert_eq!(one.quantile(0.9), 70_000);
        assert_eq!(one.quantile(0.1), 0);
        let json = serde_json::to_value(&one).unwrap();
        assert_eq!(
            json["counts"],
            serde_json::json!({"0": 1, "3": 2, "12": 1, "1023": 2, "1024": 1, "5000": 1, "70000": 1})
        );
        let back: Histogram = serde_json::from_value(json).unwrap();
        assert_eq!(back, one);
        assert_ne!(back, Histogram::default());
    }
}

#[cfg(test)]
mod fold_tests {
    use super::*;
    use crate::player::Player;

    /// A [`Fold`] counts a reason at its discriminant: the reasons' places in `ALL`.
    #[test]
    fn reasons_index_all() {
        for (i, r) in EndReason::ALL.iter().enumerate() {
            assert_eq!(*r as usize, i, "{r:?}");
        }
    }

    /// Folding the figures of records gives the summary of adding the records, every reason
    /// and winner alike.
    #[test]
    fn a_fold_is_the_sum_of_its_records() {
        let mut added = Summary::new(["x".into(), "y".into()]);
        let mut folded = Fold::new(["x".into(), "y".into()]);
        for k in 0..200u32 {
            let r = GameRecord {
                game: k as u64,
                seed: 0,
                agent_a: "x".into(),
                agent_b: "y".into(),
                agent_a_index: (k % 2) as u8,
                first: if k % 3 == 0 { Player::A } else { Player::B },
                winner: [Winner::A, Winner::B, Winner::Draw][(k % 7 % 3) as usize],
                reason: EndReason::ALL[(k % 9) as usize],
                turns: k * 13 % 1500,
                actions: k * 5 % 700,
                moves: k * 7 % 900,
                captures_a: k % 4,
                captures_b: k % 5,
                stones_captured_a: k % 6,
                stones_captured_b: k % 8,
                stones_left_a: 0,
                stones_left_b: 0,
                longest_relay: k % 11,
                mean_branching: 0.0,
                legal_sum: (k * 31 % 4000) as u64,
                multi_decisions: k * 3 % 600,
            };
            added.add(&r);
            folded.add(&Counted::of(&r));
        }
        assert_eq!(folded.finish(), added);
    }
}
