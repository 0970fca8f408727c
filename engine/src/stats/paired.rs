//! Paired comparisons: two runs that share their seeds play game k from the same seed, so
//! game k of one is compared with game k of the other. Where the rules agree the two games
//! are the same game and every difference is exactly zero; elsewhere the pairing removes
//! the games' common variation, which makes the comparison far more powerful than treating
//! the runs as independent samples.
//!
//! Wins and draws (yes or no per game) are compared by the discordant pairs: McNemar's exact
//! test (a two-sided binomial test of the discordant pairs at ½) and Newcombe's score interval
//! for a paired difference of proportions (his method 10). Lengths and captures are compared
//! by their per-game differences: a paired t interval and test.

use super::Winner;
use super::dist::{student_t_two_sided, t_quantile};
use super::interval::{Interval, wilson};
use crate::player::Player;
use serde::{Deserialize, Serialize};

/// What a paired comparison needs of one game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PairedGame {
    /// The player who moved first won.
    pub first_mover_won: bool,
    /// The run's first agent won.
    pub first_agent_won: bool,
    /// Nobody won.
    pub draw: bool,
    /// Turns played.
    pub turns: u32,
    /// Capture events of both seats.
    pub captures: u32,
    /// A digest of every column of the record but its agents' names (equal records give
    /// equal digests): two games with the same digest are taken to be the same game.
    pub digest: u64,
}

impl PairedGame {
    /// The figures of a game's record.
    pub fn of(r: &super::GameRecord) -> PairedGame {
        let first_mover_won = matches!(
            (r.first, r.winner),
            (Player::A, Winner::A) | (Player::B, Winner::B)
        );
        // FNV-1a over the record's columns (agents excluded: they are the run's).
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        let mut eat = |v: u64| {
            for b in v.to_le_bytes() {
                h ^= b as u64;
                h = h.wrapping_mul(0x0100_0000_01b3);
            }
        };
        for v in [
            r.game,
            r.seed,
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
            eat(v);
        }
        PairedGame {
            first_mover_won,
            first_agent_won: r.winning_agent() == Some(0),
            draw: r.winner == Winner::Draw,
            turns: r.turns,
            captures: r.captures_a + r.captures_b,
            digest: h,
        }
    }
}

/// Counts of a yes/no figure over pairs: `table[x][y]` pairs with `x` in the first run and
/// `y` in the second (0 = no, 1 = yes).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PairTable {
    /// The counts.
    pub table: [[u64; 2]; 2],
}

impl PairTable {
    fn add(&mut self, x: bool, y: bool) {
        self.table[x as usize][y as usize] += 1;
    }

    fn merge(&mut self, o: &PairTable) {
        for i in 0..2 {
            for j in 0..2 {
                self.table[i][j] += o.table[i][j];
            }
        }
    }
}

/// Sums of a per-game difference (first run minus second), exact.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct DiffSums {
    /// Sum of the differences.
    pub sum: i128,
    /// Sum of their squares.
    pub sum_sq: u128,
    /// Pairs whose difference is not zero.
    pub nonzero: u64,
}

impl DiffSums {
    fn add(&mut self, x: u32, y: u32) {
        let d = x as i128 - y as i128;
        self.sum += d;
        self.sum_sq += (d * d) as u128;
        self.nonzero += (d != 0) as u64;
    }

    fn merge(&mut self, o: &DiffSums) {
        self.sum += o.sum;
        self.sum_sq += o.sum_sq;
        self.nonzero += o.nonzero;
    }
}

/// Sums of a per-game quantity in each run of the pairs (for the ratio of their means), exact.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct LevelSums {
    /// Sum over the first run's games.
    pub sum_x: u128,
    /// Sum of their squares.
    pub sum_x_sq: u128,
    /// Sum over the second run's games.
    pub sum_y: u128,
    /// Sum of their squares.
    pub sum_y_sq: u128,
}

impl LevelSums {
    fn add(&mut self, x: u32, y: u32) {
        let (x, y) = (x as u128, y as u128);
        self.sum_x += x;
        self.sum_x_sq += x * x;
        self.sum_y += y;
        self.sum_y_sq += y * y;
    }

    fn merge(&mut self, o: &LevelSums) {
        self.sum_x += o.sum_x;
        self.sum_x_sq += o.sum_x_sq;
        self.sum_y += o.sum_y;
        self.sum_y_sq += o.sum_y_sq;
    }
}

/// Running aggregates of pairs of games (game k of a run, game k of another on the same
/// seeds): exact integers, mergeable in any order.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PairedSummary {
    /// Pairs.
    pub pairs: u64,
    /// Pairs whose two records are the same in every column.
    pub identical: u64,
    /// The first mover won.
    pub first_mover: PairTable,
    /// The run's first agent won.
    pub first_agent: PairTable,
    /// Nobody won.
    pub draws: PairTable,
    /// The first mover's score in half points (2 a win, 1 a draw, 0 a loss).
    pub first_mover_score: DiffSums,
    /// Turns.
    pub turns: DiffSums,
    /// Turns in each run.
    pub turns_levels: LevelSums,
    /// Capture events of both seats.
    pub captures: DiffSums,
    /// Capture events in each run.
    pub captures_levels: LevelSums,
}

impl PairedSummary {
    /// Folds in game k of the first run (`x`) and of the second (`y`).
    pub fn add(&mut self, x: &PairedGame, y: &PairedGame) {
        self.pairs += 1;
        self.identical += (x.digest == y.digest) as u64;
        self.first_mover.add(x.first_mover_won, y.first_mover_won);
        self.first_agent.add(x.first_agent_won, y.first_agent_won);
        self.draws.add(x.draw, y.draw);
        let half_points = |g: &PairedGame| 2 * g.first_mover_won as u32 + g.draw as u32;
        self.first_mover_score.add(half_points(x), half_points(y));
        self.turns.add(x.turns, y.turns);
        self.turns_levels.add(x.turns, y.turns);
        self.captures.add(x.captures, y.captures);
        self.captures_levels.add(x.captures, y.captures);
    }

    /// Folds in the pairs of another part of the same two runs.
    pub fn merge(&mut self, o: &PairedSummary) {
        self.pairs += o.pairs;
        self.identical += o.identical;
        self.first_mover.merge(&o.first_mover);
        self.first_agent.merge(&o.first_agent);
        self.draws.merge(&o.draws);
        self.first_mover_score.merge(&o.first_mover_score);
        self.turns.merge(&o.turns);
        self.turns_levels.merge(&o.turns_levels);
        self.captures.merge(&o.captures);
        self.captures_levels.merge(&o.captures_levels);
    }

    /// The comparison.
    pub fn stats(&self) -> Paired {
        Paired {
            pairs: self.pairs,
            identical: self.identical,
            first_mover: paired_proportion(&self.first_mover),
            first_mover_score: paired_mean(self.pairs, &self.first_mover_score).scaled(0.5),
            first_agent_wins: paired_proportion(&self.first_agent),
            draws: paired_proportion(&self.draws),
            turns: paired_mean(self.pairs, &self.turns),
            turns_ratio: ratio_of_means(self.pairs, &self.turns_levels, &self.turns),
            captures: paired_mean(self.pairs, &self.captures),
            captures_ratio: ratio_of_means(self.pairs, &self.captures_levels, &self.captures),
        }
    }
}

/// A paired comparison of two runs on the same seeds: each figure is the first run's minus
/// the second's.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Paired {
    /// Pairs of games (game k of each run).
    pub pairs: u64,
    /// Pairs that are the same game (every column of their records equal).
    pub identical: u64,
    /// Wins of the player who moved first.
    pub first_mover: PairedProportion,
    /// The first mover's score, a draw counting half (paired t on the per-game differences).
    pub first_mover_score: PairedMean,
    /// Wins of the run's first agent.
    pub first_agent_wins: PairedProportion,
    /// Draws.
    pub draws: PairedProportion,
    /// Length in turns.
    pub turns: PairedMean,
    /// The first run's mean length over the second's (none when the second's is 0).
    pub turns_ratio: Option<Ratio>,
    /// Capture events per game, both seats.
    pub captures: PairedMean,
    /// The first run's mean captures over the second's (none when the second's is 0).
    pub captures_ratio: Option<Ratio>,
}

/// A ratio of two means measured on the same games, with its 95% interval by the delta
/// method on the log of the ratio: `se² = (s²ₓ/x̄² + s²ᵧ/ȳ² − 2 sₓᵧ/(x̄ȳ)) / n` from the
/// per-game variances and covariance, the interval `exp(ln r ± t se)` (so it is positive and
/// takes both means as estimates: neither is treated as exact).
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Ratio {
    /// `mean x / mean y`.
    pub ratio: f64,
    /// Its 95% interval.
    pub ci: Interval,
}

/// The ratio of the two runs' means of a per-game quantity and its delta-method interval
/// ([`Ratio`]), from the level sums and the sums of the differences (whose squares give the
/// covariance); none when either mean is 0 or there are fewer than two pairs.
pub fn ratio_of_means(n: u64, l: &LevelSums, d: &DiffSums) -> Option<Ratio> {
    if n < 2 || l.sum_x == 0 || l.sum_y == 0 {
        return None;
    }
    let nf = n as f64;
    let (sx, sy) = (l.sum_x as f64, l.sum_y as f64);
    let (mx, my) = (sx / nf, sy / nf);
    let var = |sum: f64, sq: f64| ((sq - sum * sum / nf) / (nf - 1.0)).max(0.0);
    let (vx, vy) = (var(sx, l.sum_x_sq as f64), var(sy, l.sum_y_sq as f64));
    let vd = var(d.sum as f64, d.sum_sq as f64);
    // var(x − y) = var x + var y − 2 cov.
    let cov = (vx + vy - vd) / 2.0;
    let se = ((vx / (mx * mx) + vy / (my * my) - 2.0 * cov / (mx * my)) / nf)
        .max(0.0)
        .sqrt();
    let ratio = mx / my;
    let t = t_quantile(0.975, nf - 1.0);
    Some(Ratio {
        ratio,
        ci: Interval {
            low: ratio * (-t * se).exp(),
            high: ratio * (t * se).exp(),
        },
    })
}

/// A difference of two proportions measured on the same games.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct PairedProportion {
    /// The first run's proportion.
    pub first: f64,
    /// The second run's proportion.
    pub second: f64,
    /// `first - second`.
    pub diff: f64,
    /// Newcombe's 95% score interval of the paired difference (method 10).
    pub ci: Interval,
    /// Games where only the first run had it.
    pub only_first: u64,
    /// Games where only the second run had it.
    pub only_second: u64,
    /// McNemar's exact two-sided p-value: the binomial test of the discordant pairs at ½
    /// (1 when there are none).
    pub p_value: f64,
}

/// A mean of per-game differences.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct PairedMean {
    /// Mean difference (first run minus second).
    pub diff: f64,
    /// Standard deviation of the differences.
    pub sd: f64,
    /// Games whose difference is not zero.
    pub differing: u64,
    /// Paired t 95% interval of the mean difference (`[0, 0]` when every difference is 0).
    pub ci: Interval,
    /// Two-sided p-value of the paired t test (1 when every difference is 0).
    pub p_value: f64,
}

/// Newcombe's interval and McNemar's exact test for a paired 2x2 table.
pub fn paired_proportion(t: &PairTable) -> PairedProportion {
    let [[d, c], [b, a]] = t.table; // a: both yes, b: first only, c: second only, d: neither
    let n = a + b + c + d;
    let nf = n.max(1) as f64;
    let (p1, p2) = ((a + b) as f64 / nf, (a + c) as f64 / nf);
    let (w1, w2) = (wilson(a + b, n), wilson(a + c, n));
    let margins = [a + b, c + d, a + c, b + d].map(|m| m as f64);
    let denom = margins.iter().product::<f64>();
    let phi = if denom == 0.0 {
        0.0
    } else {
        (a as f64 * d as f64 - b as f64 * c as f64) / denom.sqrt()
    };
    let diff = p1 - p2;
    let spread = |x: f64, y: f64| (x * x - 2.0 * phi * x * y + y * y).max(0.0).sqrt();
    let low = diff - spread(p1 - w1.low, w2.high - p2);
    let high = diff + spread(w1.high - p1, p2 - w2.low);
    PairedProportion {
        first: p1,
        second: p2,
        diff,
        ci: Interval {
            low: low.max(-1.0),
            high: high.min(1.0),
        },
        only_first: b,
        only_second: c,
        p_value: binomial_two_sided(b.min(c), b + c),
    }
}

/// The exact two-sided p-value of `k` or fewer successes (or as few failures) in `m` trials
/// at ½: `min(1, 2 P(X <= k))` for `k <= m/2`.
pub fn binomial_two_sided(k: u64, m: u64) -> f64 {
    if m == 0 {
        return 1.0;
    }
    let k = k.min(m - k);
    // Terms C(m, i) / 2^m in logarithms, summed from the largest (i = k) down.
    let mut log_term = -(m as f64) * std::f64::consts::LN_2;
    for i in 0..k {
        log_term += ((m - i) as f64).ln() - ((i + 1) as f64).ln();
    }
    let mut sum = 0.0;
    let mut term = 1.0; // relative to the term at k
    let mut i = k;
    loop {
        sum += term;
        if i == 0 || term < 1e-17 * sum {
            break;
        }
        // C(m, i-1) / C(m, i) = i / (m - i + 1)
        term *= i as f64 / (m - i + 1) as f64;
        i -= 1;
    }
    // Positive: an underflow is written as the smallest double, not 0.
    super::number::positive_p((2.0 * (log_term + sum.ln()).exp()).min(1.0))
}

impl PairedMean {
    /// The same figures for differences scaled by `k > 0` (the p-value unchanged).
    pub fn scaled(self, k: f64) -> PairedMean {
        PairedMean {
            diff: self.diff * k,
            sd: self.sd * k,
            differing: self.differing,
            ci: Interval {
                low: self.ci.low * k,
                high: self.ci.high * k,
            },
            p_value: self.p_value,
        }
    }
}

/// The paired t interval and test of `n` per-game differences.
pub fn paired_mean(n: u64, s: &DiffSums) -> PairedMean {
    let nf = n.max(1) as f64;
    let mean = s.sum as f64 / nf;
    let var = if n < 2 {
        0.0
    } else {
        // Exact integer numerator: n Σd² - (Σd)², over n(n - 1).
        let num = (n as i128 as f64) * (s.sum_sq as f64) - (s.sum as f64).powi(2);
        (num / (nf * (nf - 1.0))).max(0.0)
    };
    let sd = var.sqrt();
    let se = sd / nf.sqrt();
    let (ci, p_value) = if s.nonzero == 0 || n < 2 || se == 0.0 {
        (
            Interval {
                low: mean,
                high: mean,
            },
            if mean == 0.0 { 1.0 } else { 0.0 },
        )
    } else {
        let df = nf - 1.0;
        let t = t_quantile(0.975, df);
        (
            Interval {
                low: mean - t * se,
                high: mean + t * se,
            },
            student_t_two_sided(mean / se, df),
        )
    };
    PairedMean {
        diff: mean,
        sd,
        differing: s.nonzero,
        ci,
        p_value,
    }
}

/// A p-value as a reader wants it: three decimals, `< 0.001` below that (never `0.000`).
pub fn p_text(p: f64) -> String {
    if p < 0.001 {
        "< 0.001".to_string()
    } else {
        format!("{p:.3}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table(both: u64, first_only: u64, second_only: u64, neither: u64) -> PairTable {
        PairTable {
            table: [[neither, second_only], [first_only, both]],
        }
    }

    /// C(m, i) / 2^m summed exactly with integers, for small m.
    fn exact_tail(k: u64, m: u64) -> f64 {
        let mut c: u128 = 1;
        let mut sum: u128 = 0;
        for i in 0..=k {
            sum += c;
            c = c * (m - i) as u128 / (i + 1) as u128;
        }
        (2.0 * sum as f64 / 2f64.powi(m as i32)).min(1.0)
    }

    #[test]
    fn mcnemar_exact_by_hand_and_by_integers() {
        // 10 against 2 discordant pairs: 2 (1 + 12 + 66) / 4096.
        let p = binomial_two_sided(2, 12);
        assert!((p - 158.0 / 4096.0).abs() < 1e-12, "{p}");
        assert_eq!(binomial_two_sided(0, 0), 1.0);
        assert_eq!(binomial_two_sided(5, 10), 1.0);
        for m in 1..=100u64 {
            for k in 0..=m / 2 {
                let (ours, exact) = (binomial_two_sided(k, m), exact_tail(k, m));
                assert!(
                    (ours - exact).abs() <= 1e-12 * exact.max(1e-300) + 1e-300,
                    "k {k} m {m}: {ours} vs {exact}"
                );
            }
        }
        // Far in the tail of many pairs: finite and tiny, not 0 or NaN.
        let p = binomial_two_sided(9_000, 20_000);
        assert!(p > 0.0 && p < 1e-40, "{p}");
    }

    /// Wilson's limits as the roots of (p̂ - π)² = z² π(1 - π) / n, solved afresh.
    fn wilson_roots(k: u64, n: u64) -> (f64, f64) {
        let z = 1.959_963_984_540_054;
        let (p, n) = (k as f64 / n as f64, n as f64);
        // (1 + z²/n) π² - (2p + z²/n) π + p² = 0
        let (qa, qb, qc) = (1.0 + z * z / n, -(2.0 * p + z * z / n), p * p);
        let root = (qb * qb - 4.0 * qa * qc).sqrt();
        ((-qb - root) / (2.0 * qa), (-qb + root) / (2.0 * qa))
    }

    #[test]
    fn newcombe_paired_interval_by_hand() {
        // 40 pairs: 12 both, 9 first only, 2 second only, 17 neither.
        let r = paired_proportion(&table(12, 9, 2, 17));
        let (p1, p2) = (21.0 / 40.0, 14.0 / 40.0);
        let (l1, u1) = wilson_roots(21, 40);
        let (l2, u2) = wilson_roots(14, 40);
        let phi = (12.0 * 17.0 - 9.0 * 2.0) / (21.0f64 * 19.0 * 14.0 * 26.0).sqrt();
        let lo = (p1 - p2)
            - ((p1 - l1).powi(2) - 2.0 * phi * (p1 - l1) * (u2 - p2) + (u2 - p2).powi(2)).sqrt();
        let hi = (p1 - p2)
            + ((u1 - p1).powi(2) - 2.0 * phi * (u1 - p1) * (p2 - l2) + (p2 - l2).powi(2)).sqrt();
        assert!((r.diff - 0.175).abs() < 1e-12);
        assert!(
            (r.ci.low - lo).abs() < 1e-9 && (r.ci.high - hi).abs() < 1e-9,
            "{r:?}"
        );
        assert!(r.ci.low > 0.0 && r.ci.low < r.diff && r.diff < r.ci.high);
        assert_eq!((r.only_first, r.only_second), (9, 2));
        // 2 (1 + 11 + 55) / 2048
        assert!((r.p_value - 134.0 / 2048.0).abs() < 1e-12);
    }

    #[test]
    fn the_same_games_differ_by_nothing() {
        let mut s = PairedSummary::default();
        for k in 0..200u32 {
            let g = PairedGame {
                first_mover_won: k % 3 == 0,
                first_agent_won: k % 2 == 0,
                draw: k % 7 == 0,
                turns: 10 + k % 17,
                captures: k % 5,
                digest: k as u64,
            };
            s.add(&g, &g);
        }
        let p = s.stats();
        assert_eq!((p.pairs, p.identical), (200, 200));
        for x in [p.first_mover, p.first_agent_wins, p.draws] {
            assert_eq!(
                (x.diff, x.p_value, x.only_first, x.only_second),
                (0.0, 1.0, 0, 0)
            );
        }
        // Agent wins at exactly ½: Wilson's interval is symmetric and the paired one is [0, 0].
        assert!(
            p.first_agent_wins.ci.low.abs() < 1e-12 && p.first_agent_wins.ci.high.abs() < 1e-12
        );
        for m in [p.turns, p.captures] {
            assert_eq!(
                (m.diff, m.ci.low, m.ci.high, m.p_value, m.differing),
                (0.0, 0.0, 0.0, 1.0, 0)
            );
        }
    }

    #[test]
    fn small_p_values_print_as_below_a_thousandth() {
        assert_eq!(p_text(0.0), "< 0.001");
        assert_eq!(p_text(0.000_49), "< 0.001");
        assert_eq!(p_text(0.001), "0.001");
        assert_eq!(p_text(1.0), "1.000");
    }

    #[test]
    fn paired_t_by_hand() {
        // Differences 1, 2, 3, 4, 5: mean 3, sd √2.5, se √0.5, t = 4.2426 on 4 df, two-sided
        // p = 0.013236 (tables); interval 3 ± 2.776445 √0.5.
        let mut s = DiffSums::default();
        for d in 1..=5u32 {
            s.add(10 + d, 10);
        }
        let m = paired_mean(5, &s);
        assert_eq!(m.diff, 3.0);
        assert!((m.sd - 2.5f64.sqrt()).abs() < 1e-12);
        assert!((m.p_value - 0.013_236).abs() < 2e-5, "{}", m.p_value);
        let half = 2.776_445 * 0.5f64.sqrt();
        assert!((m.ci.low - (3.0 - half)).abs() < 5e-3, "{m:?}");
        assert!((m.ci.high - (3.0 + half)).abs() < 5e-3, "{m:?}");
    }

    #[test]
    fn merging_parts_is_adding_them_all() {
        let games: Vec<PairedGame> = (0..50u32)
            .map(|k| PairedGame {
                first_mover_won: k % 3 == 1,
                first_agent_won: k % 4 == 1,
                draw: k % 9 == 0,
                turns: 20 + (k * 7) % 13,
                captures: (k * 3) % 8,
                digest: (k % 6) as u64,
            })
            .collect();
        let mut all = PairedSummary::default();
        let (mut a, mut b) = (PairedSummary::default(), PairedSummary::default());
        for (k, pair) in games.windows(2).enumerate() {
            all.add(&pair[0], &pair[1]);
            if k < 20 { &mut a } else { &mut b }.add(&pair[0], &pair[1]);
        }
        b.merge(&a);
        assert_eq!(all, b);
    }

    /// The delta-method interval of a ratio of paired means agrees with a paired bootstrap
    /// (percentile, 4,000 replicates resampling the pairs) on fixed data: skewed lengths, the
    /// second run's correlated with the first's, both means estimated.
    #[test]
    fn the_ratio_interval_agrees_with_a_paired_bootstrap() {
        let mut rng = crate::rng::Rng::from_seed(49);
        let n = 500usize;
        let data: Vec<(u32, u32)> = (0..n)
            .map(|_| {
                // Default lengths skewed (17 to about 2,000), the reading's about 14 times
                // longer with its own noise.
                let y = 17 + (60.0 * (-(1.0 - rng.unit()).ln()).powf(1.5)) as u32;
                let x = (y as f64 * (8.0 + 12.0 * rng.unit())) as u32 + rng.below(200) as u32;
                (x, y)
            })
            .collect();
        let mut s = PairedSummary::default();
        let game = |turns: u32| PairedGame {
            first_mover_won: false,
            first_agent_won: false,
            draw: false,
            turns,
            captures: 0,
            digest: turns as u64,
        };
        for &(x, y) in &data {
            s.add(&game(x), &game(y));
        }
        let q = s.stats().turns_ratio.unwrap();
        let (sx, sy): (f64, f64) = data
            .iter()
            .fold((0.0, 0.0), |(a, b), &(x, y)| (a + x as f64, b + y as f64));
        assert!((q.ratio - sx / sy).abs() < 1e-12);
        let mut reps: Vec<f64> = (0..4000)
            .map(|_| {
                let (mut a, mut b) = (0.0, 0.0);
                for _ in 0..n {
                    let (x, y) = data[rng.below(n)];
                    a += x as f64;
                    b += y as f64;
                }
                a / b
            })
            .collect();
        reps.sort_by(f64::total_cmp);
        let (lo, hi) = (reps[100], reps[3899]);
        let width = hi - lo;
        assert!(
            width > 0.5,
            "a wide interval: the default's mean is not exact"
        );
        assert!(
            (q.ci.low - lo).abs() < 0.1 * width && (q.ci.high - hi).abs() < 0.1 * width,
            "delta [{}, {}] against bootstrap [{lo}, {hi}]",
            q.ci.low,
            q.ci.high
        );
    }

    /// The first mover's score is tested on its own: a draw is half a point.
    #[test]
    fn the_score_is_paired_in_half_points() {
        let g = |won: bool, draw: bool| PairedGame {
            first_mover_won: won,
            first_agent_won: won,
            draw,
            turns: 10,
            captures: 0,
            digest: 0,
        };
        let mut s = PairedSummary::default();
        // Win -> draw (-1/2), loss -> draw (+1/2), win -> win (0), loss -> win (+1).
        s.add(&g(false, true), &g(true, false));
        s.add(&g(false, true), &g(false, false));
        s.add(&g(true, false), &g(true, false));
        s.add(&g(true, false), &g(false, false));
        let p = s.stats().first_mover_score;
        assert!((p.diff - 0.25).abs() < 1e-12, "{p:?}");
        assert_eq!(p.differing, 3);
    }
}
