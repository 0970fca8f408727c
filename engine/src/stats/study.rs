//! What each reading of the sources changes in play: a run's metric vector with 95%
//! intervals ([`ReadingSums`] folded game by game, [`ReadingMetrics`] from it), and which
//! readings differ detectably from the default ([`detect`]: the paired tests of
//! [`super::paired`] on the shared seeds, Holm-corrected over every test of the study).

use super::dist::t_quantile;
use super::interval::{Interval, score, z95};
use super::paired::{Paired, Ratio, p_text};
use super::{ExactSum, GameRecord, Histogram, Rate, Winner};
use crate::outcome::EndReason;
use crate::player::Player;
use serde::Serialize;

/// Level of the study's tests after Holm's correction: a reading differs detectably when an
/// adjusted p-value is below it.
pub const ALPHA: f64 = 0.05;

/// Running sums of one run (one reading under one pairing of agents): exact integers and
/// exact sums, so folding the games in any grouping gives the same figures.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ReadingSums {
    games: u64,
    first_mover_wins: u64,
    draws: u64,
    turns: Histogram,
    captures: u64,
    captures_sq: u128,
    branching: ExactSum,
    branching_sq: ExactSum,
    endless: u64,
    limit: u64,
}

impl ReadingSums {
    /// Folds in one game.
    pub fn add(&mut self, r: &GameRecord) {
        self.games += 1;
        self.first_mover_wins += matches!(
            (r.first, r.winner),
            (Player::A, Winner::A) | (Player::B, Winner::B)
        ) as u64;
        self.draws += (r.winner == Winner::Draw) as u64;
        self.turns.add(r.turns);
        let c = (r.captures_a + r.captures_b) as u64;
        self.captures += c;
        self.captures_sq += (c as u128) * (c as u128);
        // Ludii's per-game branching factor, as the run's summary counts it (forced relay
        // laps count one option each).
        let moves = r.moves.max(1) as f64;
        let forced = r.moves.saturating_sub(r.actions) as f64;
        let b = (r.legal_sum as f64 + forced) / moves;
        self.branching.add(b);
        self.branching_sq.add(b * b);
        self.endless += (r.reason == EndReason::EndlessSowing) as u64;
        self.limit += matches!(r.reason, EndReason::TurnLimit | EndReason::MoveLimit) as u64;
    }

    /// Folds in another part of the same run.
    pub fn merge(&mut self, o: &ReadingSums) {
        self.games += o.games;
        self.first_mover_wins += o.first_mover_wins;
        self.draws += o.draws;
        self.turns.merge(&o.turns);
        self.captures += o.captures;
        self.captures_sq += o.captures_sq;
        self.branching.merge(&o.branching);
        self.branching_sq.merge(&o.branching_sq);
        self.endless += o.endless;
        self.limit += o.limit;
    }

    /// The metric vector with its intervals.
    pub fn metrics(&self) -> ReadingMetrics {
        let n = self.games;
        let decisive = n - self.draws;
        ReadingMetrics {
            games: n,
            first_player_score: score(self.first_mover_wins, self.draws, n),
            first_player_wins: Rate::of(self.first_mover_wins, n),
            draws: Rate::of(self.draws, n),
            decisive: Rate::of(decisive, n),
            mean_length: t_estimate(n, self.turns.mean() * n as f64, self.turns.variance()),
            median_length: median(&self.turns),
            captures: t_estimate(n, self.captures as f64, {
                let (s, q) = (self.captures as f64, self.captures_sq as f64);
                sample_variance(n, s, q)
            }),
            branching: t_estimate(
                n,
                self.branching.value(),
                sample_variance(n, self.branching.value(), self.branching_sq.value()),
            ),
            endless_sowings: Rate::of(self.endless, n),
            limit_ends: Rate::of(self.limit, n),
        }
    }
}

/// `(Σx² - (Σx)²/n) / (n - 1)`, 0 below two values.
fn sample_variance(n: u64, sum: f64, sum_sq: f64) -> f64 {
    if n < 2 {
        return 0.0;
    }
    let n = n as f64;
    ((sum_sq - sum * sum / n) / (n - 1.0)).max(0.0)
}

/// The mean of `n` values summing to `sum` with sample variance `var`, and its t interval.
fn t_estimate(n: u64, sum: f64, var: f64) -> Estimate {
    let mean = if n == 0 { 0.0 } else { sum / n as f64 };
    let half = if n < 2 {
        0.0
    } else {
        t_quantile(0.975, (n - 1) as f64) * (var / n as f64).sqrt()
    };
    Estimate {
        value: mean,
        ci: Interval {
            low: mean - half,
            high: mean + half,
        },
    }
}

/// The lower median and its distribution-free 95% interval: the order statistics of ranks
/// `⌊(n - z√n)/2⌋` and `⌈1 + (n + z√n)/2⌉` (Conover's normal approximation to the binomial
/// count of values below the median), clamped to the sample.
pub fn median(h: &Histogram) -> MedianEstimate {
    let n = h.n();
    let spread = z95() * (n as f64).sqrt();
    let low = ((n as f64 - spread) / 2.0).floor().max(1.0) as u64;
    let high = (1.0 + (n as f64 + spread) / 2.0).ceil() as u64;
    MedianEstimate {
        value: h.quantile(0.5),
        low: h.at_rank(low),
        high: h.at_rank(high.min(n)),
    }
}

pub use super::interval::Estimate;

/// A median (lower, nearest rank) with its distribution-free 95% interval.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct MedianEstimate {
    /// The median.
    pub value: u32,
    /// Lower bound of the interval.
    pub low: u32,
    /// Upper bound of the interval.
    pub high: u32,
}

/// One reading's metric vector under one pairing of agents, each figure with its 95% interval.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct ReadingMetrics {
    /// Games.
    pub games: u64,
    /// The first player's score, a draw counting half (Wilson's interval, conservative with
    /// draws).
    pub first_player_score: Estimate,
    /// The first player's wins.
    pub first_player_wins: Rate,
    /// Draws.
    pub draws: Rate,
    /// Games with a winner.
    pub decisive: Rate,
    /// Mean length in turns (t interval).
    pub mean_length: Estimate,
    /// Median length in turns.
    pub median_length: MedianEstimate,
    /// Capture events per game, both seats (t interval).
    pub captures: Estimate,
    /// Ludii's branching factor, per game then averaged (t interval).
    pub branching: Estimate,
    /// Games ended by an endless relay sowing.
    pub endless_sowings: Rate,
    /// Games ended by the turn or move limit.
    pub limit_ends: Rate,
}

/// The figures each reading is tested on against the default, in this order: the first
/// player's score (a draw counting half: paired t test on the per-game scores), the first
/// player's wins and the draws (McNemar's exact test), the length in turns and the captures
/// per game (paired t test). Score, wins and draws are separate figures: fewer wins may come
/// from more draws while the score does not move.
pub const TESTED: [&str; 5] = [
    "first_player_score",
    "first_player_wins",
    "draws",
    "length",
    "captures",
];

/// One paired test of a reading against the default.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct ReadingTest {
    /// The figure ([`TESTED`]).
    pub figure: &'static str,
    /// The reading's figure minus the default's.
    pub diff: f64,
    /// 95% interval of the difference (Newcombe's for proportions, paired t for means).
    pub ci: Interval,
    /// The test's p-value.
    pub p_value: f64,
    /// Holm's adjusted p-value over every test of the study's pairing.
    pub adjusted: f64,
    /// `adjusted < ALPHA`.
    pub detected: bool,
    /// For a mean (length, captures): the reading's mean over the default's, with its
    /// delta-method interval ([`Ratio`]); none for proportions or a default's mean of 0.
    pub ratio: Option<Ratio>,
}

/// Holm's step-down adjusted p-values, in the order given: the i-th smallest p times
/// `m - i + 1` (i from 1), made non-decreasing along the sorted order and capped at 1. A
/// hypothesis is rejected at level α when its adjusted p-value is below α, which controls
/// the family-wise error rate at α under any dependence between the tests.
pub fn holm(p: &[f64]) -> Vec<f64> {
    let m = p.len();
    let mut order: Vec<usize> = (0..m).collect();
    // NaN sorts last (never detected).
    order.sort_by(|&a, &b| p[a].total_cmp(&p[b]));
    let mut out = vec![1.0; m];
    let mut running: f64 = 0.0;
    for (i, &k) in order.iter().enumerate() {
        let scaled = if p[k].is_nan() {
            1.0
        } else {
            (p[k] * (m - i) as f64).min(1.0)
        };
        running = running.max(scaled);
        out[k] = running;
    }
    out
}

/// Each reading's tests against the default (`diffs[i]`: reading i minus the default, on the
/// same seeds), Holm-corrected together over every reading and figure.
pub fn detect(diffs: &[Paired]) -> Vec<Vec<ReadingTest>> {
    let raw: Vec<[ReadingTest; 5]> = diffs
        .iter()
        .map(|d| {
            let prop = |figure, p: &super::paired::PairedProportion| ReadingTest {
                figure,
                diff: p.diff,
                ci: p.ci,
                p_value: p.p_value,
                adjusted: 1.0,
                detected: false,
                ratio: None,
            };
            let mean = |figure, m: &super::paired::PairedMean, ratio| ReadingTest {
                figure,
                diff: m.diff,
                ci: m.ci,
                p_value: m.p_value,
                adjusted: 1.0,
                detected: false,
                ratio,
            };
            [
                mean(TESTED[0], &d.first_mover_score, None),
                prop(TESTED[1], &d.first_mover),
                prop(TESTED[2], &d.draws),
                mean(TESTED[3], &d.turns, d.turns_ratio),
                mean(TESTED[4], &d.captures, d.captures_ratio),
            ]
        })
        .collect();
    let p: Vec<f64> = raw.iter().flatten().map(|t| t.p_value).collect();
    let adjusted = holm(&p);
    let mut next = adjusted.into_iter();
    raw.into_iter()
        .map(|tests| {
            tests
                .into_iter()
                .map(|mut t| {
                    t.adjusted = next.next().unwrap_or(1.0);
                    t.detected = t.adjusted < ALPHA;
                    t
                })
                .collect()
        })
        .collect()
}

/// A tested figure's name for a reader.
pub fn figure_words(figure: &str) -> &'static str {
    match figure {
        "first_player_score" => "the first player's score (a draw counting half)",
        "first_player_wins" => "the first player's wins (a draw is not a win)",
        "draws" => "draws",
        "length" => "mean length in turns",
        "captures" => "captures a game",
        _ => "a figure",
    }
}

/// A tested figure's value in a run's metrics.
fn figure_value(figure: &str, m: &ReadingMetrics) -> f64 {
    match figure {
        "first_player_score" => m.first_player_score.value,
        "first_player_wins" => m.first_player_wins.rate,
        "draws" => m.draws.rate,
        "length" => m.mean_length.value,
        _ => m.captures.value,
    }
}

/// A relative change in percent, `+1420%` (no `-0%`).
fn percent_change(r: f64) -> String {
    format!(
        "{:+.0}%",
        super::number::no_minus_zero(100.0 * (r - 1.0), 0)
    )
}

/// One test in a sentence, the figure tested beside its verdict: `the first player's wins
/// (a draw is not a win) 26.0% against 49.6% under the default: -23.6 points (-25.1 to
/// -22.0), Holm-adjusted p < 0.001: differs detectably`. A mean's relative change is the
/// ratio of the two means with its delta-method interval.
pub fn test_sentence(
    t: &ReadingTest,
    reading: &ReadingMetrics,
    default: &ReadingMetrics,
) -> String {
    let (r, d) = (
        figure_value(t.figure, reading),
        figure_value(t.figure, default),
    );
    let nz = super::number::no_minus_zero;
    let (values, change) = match t.figure {
        "first_player_score" | "first_player_wins" | "draws" => (
            format!("{:.1}% against {:.1}%", 100.0 * r, 100.0 * d),
            format!(
                "{:+.1} points ({:+.1} to {:+.1})",
                nz(100.0 * t.diff, 1),
                nz(100.0 * t.ci.low, 1),
                nz(100.0 * t.ci.high, 1)
            ),
        ),
        _ => (
            format!("{r:.2} against {d:.2}"),
            match t.ratio {
                Some(q) => format!(
                    "{} ({} to {}; ratio of means, delta method)",
                    percent_change(q.ratio),
                    percent_change(q.ci.low),
                    percent_change(q.ci.high)
                ),
                None => format!(
                    "{:+.2} ({:+.2} to {:+.2})",
                    nz(t.diff, 2),
                    nz(t.ci.low, 2),
                    nz(t.ci.high, 2)
                ),
            },
        ),
    };
    format!(
        "{} {values} under the default: {change}, Holm-adjusted p {}: {}",
        figure_words(t.figure),
        p_text(t.adjusted),
        if t.detected {
            "differs detectably"
        } else {
            "no detectable difference"
        }
    )
}

/// What a reading's tests say together that none says alone: where wins or draws differ
/// detectably while the score does not, that fewer (or more) wins come with more (or fewer)
/// draws and the first player's advantage, as the score counts it, has not moved.
pub fn confound_note(tests: &[ReadingTest]) -> Option<String> {
    let get = |f: &str| tests.iter().find(|t| t.figure == f);
    let (score, wins, draws) = (
        get("first_player_score")?,
        get("first_player_wins")?,
        get("draws")?,
    );
    if score.detected || !(wins.detected || draws.detected) {
        return None;
    }
    Some(format!(
        "The first player's wins move ({:+.1} points) with the draws ({:+.1} points) while \
         the score, which counts a draw as half, shows no detectable change (Holm-adjusted p \
         {}): the reading changes how often games are decided, not the first player's \
         advantage.",
        super::number::no_minus_zero(100.0 * wins.diff, 1),
        super::number::no_minus_zero(100.0 * draws.diff, 1),
        p_text(score.adjusted)
    ))
}

/// Where games end at the turn or move limit (which the rules score as draws), in a
/// sentence: none when no game of either run did.
pub fn limit_note(reading: &ReadingMetrics, default: &ReadingMetrics) -> Option<String> {
    let (r, d) = (reading.limit_ends, default.limit_ends);
    if r.count == 0 && d.count == 0 {
        return None;
    }
    Some(format!(
        "{:.1}% of games end at the turn or move limit ({:.1}–{:.1}%), against {:.1}% under \
         the default: those games are draws by the limit, not by the rules' play.",
        100.0 * r.rate,
        100.0 * r.ci.low,
        100.0 * r.ci.high,
        100.0 * d.rate
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::paired::{PairedGame, PairedSummary};

    #[test]
    fn holm_by_hand() {
        // Sorted 0.01, 0.02, 0.03, 0.5 (m = 4): 0.04, 0.06, 0.06 (monotone), 0.5.
        let a = holm(&[0.03, 0.5, 0.01, 0.02]);
        let want = [0.06, 0.5, 0.04, 0.06];
        for (x, y) in a.iter().zip(want) {
            assert!((x - y).abs() < 1e-12, "{a:?}");
        }
        // Capped at 1, ties alike, NaN never below 1, empty is empty.
        assert_eq!(holm(&[0.4, 0.4, 0.4]), vec![1.0, 1.0, 1.0]);
        assert_eq!(holm(&[0.001, f64::NAN]), vec![0.002, 1.0]);
        assert!(holm(&[]).is_empty());
        // Never below the raw p-value nor below Bonferroni's for the smallest.
        let p = [0.2, 0.004, 0.03, 0.011, 0.9, 0.04];
        let h = holm(&p);
        for (x, y) in p.iter().zip(&h) {
            assert!(y >= x);
        }
        assert!((h[1] - 0.024).abs() < 1e-12);
    }

    /// Under the null (every p-value uniform and independent), Holm at 5% rejects any of 10
    /// hypotheses in about 5% of families or fewer; unadjusted, in about 40%.
    #[test]
    fn holm_controls_the_familywise_error() {
        let mut rng = crate::rng::Rng::from_seed(11);
        let (mut holm_any, mut raw_any) = (0, 0);
        let families = 4000;
        for _ in 0..families {
            let p: Vec<f64> = (0..10).map(|_| rng.unit()).collect();
            holm_any += holm(&p).iter().any(|&a| a < ALPHA) as u32;
            raw_any += p.iter().any(|&a| a < ALPHA) as u32;
        }
        let (h, r) = (
            holm_any as f64 / families as f64,
            raw_any as f64 / families as f64,
        );
        assert!(h < 0.065, "Holm: {h}");
        assert!(r > 0.35, "unadjusted: {r}");
    }

    fn record(k: u64, winner: Winner, reason: EndReason, turns: u32, caps: u32) -> GameRecord {
        GameRecord {
            game: k,
            seed: k,
            agent_a: "random".into(),
            agent_b: "random".into(),
            agent_a_index: 0,
            first: Player::A,
            winner,
            reason,
            turns,
            actions: turns,
            moves: turns,
            captures_a: caps,
            captures_b: 0,
            stones_captured_a: 0,
            stones_captured_b: 0,
            stones_left_a: 0,
            stones_left_b: 0,
            longest_relay: 1,
            mean_branching: 2.0,
            legal_sum: 2 * turns as u64,
            multi_decisions: turns,
        }
    }

    #[test]
    fn metrics_by_hand() {
        let games = [
            record(0, Winner::A, EndReason::NoStones, 10, 2),
            record(1, Winner::B, EndReason::NoStones, 20, 4),
            record(2, Winner::Draw, EndReason::EndlessSowing, 30, 0),
            record(3, Winner::Draw, EndReason::TurnLimit, 40, 6),
        ];
        let mut s = ReadingSums::default();
        games.iter().for_each(|g| s.add(g));
        let m = s.metrics();
        assert_eq!(m.games, 4);
        assert!((m.first_player_score.value - 0.5).abs() < 1e-12);
        assert_eq!(m.first_player_wins.count, 1);
        assert_eq!((m.draws.count, m.decisive.count), (2, 2));
        assert_eq!((m.endless_sowings.count, m.limit_ends.count), (1, 1));
        assert_eq!(m.median_length.value, 20);
        // Four values: the interval is the sample's range.
        assert_eq!((m.median_length.low, m.median_length.high), (10, 40));
        // Lengths 10..40: mean 25, sd √(500/3), t(3) = 3.182 (the engine's Cornish-Fisher
        // quantile is within 0.005 of it at 3 degrees of freedom).
        assert!((m.mean_length.value - 25.0).abs() < 1e-12);
        let half = 3.182_446_305 * (500.0f64 / 3.0).sqrt() / 2.0;
        assert!((m.mean_length.ci.high - 25.0 - half).abs() < 0.05, "{m:?}");
        // Captures 2, 4, 0, 6: mean 3, same spread shape.
        assert!((m.captures.value - 3.0).abs() < 1e-12);
        let half = 3.182_446_305 * (20.0f64 / 3.0).sqrt() / 2.0;
        assert!((m.captures.ci.low - (3.0 - half)).abs() < 0.01, "{m:?}");
        // Every decision had two options: branching 2 exactly, interval of width 0.
        assert!((m.branching.value - 2.0).abs() < 1e-9);
        assert!((m.branching.ci.high - m.branching.ci.low).abs() < 1e-6);
        // Folding in two parts gives the same figures.
        let (mut a, mut b) = (ReadingSums::default(), ReadingSums::default());
        games[..1].iter().for_each(|g| a.add(g));
        games[1..].iter().for_each(|g| b.add(g));
        b.merge(&a);
        assert_eq!(b, s);
    }

    #[test]
    fn the_median_interval_covers_at_about_its_rate() {
        // Lengths uniform on 0..1000 (median 499.5): over 400 samples of 101, the interval
        // holds 499 or 500 in about 95% of them.
        let mut rng = crate::rng::Rng::from_seed(5);
        let mut covered = 0;
        for _ in 0..400 {
            let mut h = Histogram::default();
            for _ in 0..101 {
                h.add((rng.unit() * 1000.0) as u32);
            }
            let m = median(&h);
            assert!(m.low <= m.value && m.value <= m.high);
            covered += (m.low <= 499 && m.high >= 500) as u32;
        }
        assert!((370..=396).contains(&covered), "{covered} of 400");
    }

    #[test]
    fn a_reading_that_changes_the_game_is_detected_and_one_that_does_not_is_not() {
        let g = |k: u32, turns: u32, won: bool| PairedGame {
            first_mover_won: won,
            first_agent_won: won,
            draw: false,
            turns,
            captures: k % 3,
            digest: k as u64,
        };
        let (mut same, mut longer) = (PairedSummary::default(), PairedSummary::default());
        for k in 0..300u32 {
            let base = g(k, 40 + k % 13, k % 2 == 0);
            same.add(&base, &base);
            longer.add(&g(k, 46 + k % 11, k % 2 == 0), &base);
        }
        let tests = detect(&[same.stats(), longer.stats()]);
        assert_eq!(tests.len(), 2);
        assert!(tests[0].iter().all(|t| !t.detected && t.adjusted == 1.0));
        let length = &tests[1][3];
        assert_eq!(length.figure, "length");
        assert!(
            length.detected && length.diff > 0.0 && length.ci.low > 0.0,
            "{length:?}"
        );
        assert!(length.adjusted >= length.p_value);
        assert!(!tests[1][1].detected, "the first player's wins are equal");
        assert!(!tests[1][0].detected, "the first player's score is equal");
    }

    /// A reading under which the games the first player won or lost become draws: its wins
    /// fall, its draws rise, its score (a draw counting half) does not move. The verdict on
    /// the score must say so, and no sentence may give the fall in wins as the score's.
    #[test]
    fn fewer_wins_from_more_draws_is_not_a_change_in_score() {
        let mut default = ReadingSums::default();
        let mut reading = ReadingSums::default();
        let mut pairs = PairedSummary::default();
        for k in 0..600u64 {
            // Default: the first player wins even games, loses odd ones.
            let w = if k % 2 == 0 { Winner::A } else { Winner::B };
            let d = record(k, w, EndReason::NoStones, 40, 2);
            // Reading: half the games of each kind end drawn at the turn limit.
            let r = if k % 4 < 2 {
                record(k, Winner::Draw, EndReason::TurnLimit, 80, 2)
            } else {
                record(k, w, EndReason::NoStones, 40, 2)
            };
            default.add(&d);
            reading.add(&r);
            pairs.add(&PairedGame::of(&r), &PairedGame::of(&d));
        }
        let (dm, rm) = (default.metrics(), reading.metrics());
        assert!((dm.first_player_score.value - rm.first_player_score.value).abs() < 1e-12);
        let tests = detect(&[pairs.stats()]).remove(0);
        assert_eq!(
            tests.iter().map(|t| t.figure).collect::<Vec<_>>(),
            TESTED.to_vec()
        );
        let by = |f: &str| tests.iter().find(|t| t.figure == f).unwrap();
        let (score, wins, draws) = (
            by("first_player_score"),
            by("first_player_wins"),
            by("draws"),
        );
        assert!(wins.detected && wins.diff < -0.2, "{wins:?}");
        assert!(draws.detected && draws.diff > 0.4, "{draws:?}");
        assert!(!score.detected && score.diff.abs() < 1e-12, "{score:?}");
        let sentences: Vec<String> = tests.iter().map(|t| test_sentence(t, &rm, &dm)).collect();
        let on_score = &sentences[0];
        assert!(
            on_score
                .starts_with("the first player's score (a draw counting half) 50.0% against 50.0%")
                && on_score.ends_with("no detectable difference"),
            "{on_score}"
        );
        assert!(
            sentences[1].starts_with("the first player's wins (a draw is not a win)")
                && sentences[1].ends_with("differs detectably"),
            "{}",
            sentences[1]
        );
        for s in &sentences {
            assert!(!s.contains("first player wins"), "{s}");
            assert!(!s.contains("-0.0") && !s.contains("-0%"), "{s}");
        }
        let note = confound_note(&tests).expect("the confound is named");
        assert!(note.contains("not the first player's advantage"), "{note}");
        let limit = limit_note(&rm, &dm).expect("games end at the limit");
        assert!(
            limit.starts_with("50.0% of games end at the turn or move limit"),
            "{limit}"
        );
        assert!(limit.contains("against 0.0% under the default"), "{limit}");
        // The length doubled in the drawn half: +50% as a ratio of means.
        let length = by("length");
        let q = length.ratio.unwrap();
        assert!((q.ratio - 1.5).abs() < 1e-12 && q.ci.low < 1.5 && q.ci.high > 1.5);
        assert!(
            test_sentence(length, &rm, &dm).contains("+50% ("),
            "{}",
            test_sentence(length, &rm, &dm)
        );
    }
}
