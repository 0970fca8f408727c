//! Ratings on the Elo scale from a Bradley-Terry model with a first-move term, fitted by
//! maximum likelihood with Hunter's MM algorithm (Hunter 2004, "MM algorithms for generalized
//! Bradley-Terry models", Ann. Statist. 32(1), the home-field model of its section 3.1), as
//! OpenSpiel's `evaluation/elo.cc` fits the model without the first-move term.
//!
//! The model: the agent `i` moving first beats `j` with probability `θγᵢ / (θγᵢ + γⱼ)`;
//! ratings are `400 log₁₀ γ` (centred on their mean) and the first-move advantage is
//! `400 log₁₀ θ` Elo points. **Draws count as half a win for each side** (as OpenSpiel does):
//! the fitted expected score then matches the observed score, which is what an Elo rating
//! predicts. Davidson's model was not used: its one draw parameter makes the draw rate
//! `ν√(pq)` the same function of the strength gap for every pairing, and here draw rates
//! differ with the agents' kind and strength (self-play of strong searchers draws far more
//! than random play), so the draw rates are reported per pairing instead
//! ([`super::report`]). Each seat order of each pairing played gets a prior of
//! [`SMOOTHING`] virtual wins for each side (OpenSpiel's `smoothing_factor`), so that the
//! estimate is finite when one side wins every game.
//!
//! Intervals are 95% percentile intervals of a seeded bootstrap that resamples the pairs of
//! games within each pairing (the seat-swapped pair is the unit the design repeats).

use crate::rng::Rng;
use crate::stats::interval::Interval;
use serde::Serialize;

/// Virtual wins for each side added to each seat order of each pairing played.
pub const SMOOTHING: f64 = 0.1;

/// Bootstrap replicates by default.
pub const DEFAULT_BOOTSTRAP: u32 = 1000;

/// Most MM iterations of one fit.
const MAX_ITERATIONS: u32 = 100_000;

/// Change of every log-parameter below which the fit has converged.
const TOLERANCE: f64 = 1e-10;

/// What the fit sees: for each ordered pair (first, second) of agents, games and the first
/// player's score (wins plus half the draws).
#[derive(Clone, Debug, PartialEq)]
pub struct Tally {
    n: usize,
    games: Vec<f64>,
    first_score: Vec<f64>,
}

impl Tally {
    /// No games among `n` agents.
    pub fn new(n: usize) -> Tally {
        Tally {
            n,
            games: vec![0.0; n * n],
            first_score: vec![0.0; n * n],
        }
    }

    /// Adds a game of `first` (who moved first) against `second` in which the first
    /// player scored `score` (1, ½ or 0).
    pub fn add(&mut self, first: usize, second: usize, score: f64) {
        let c = first * self.n + second;
        self.games[c] += 1.0;
        self.first_score[c] += score;
    }

    /// Agents.
    pub fn agents(&self) -> usize {
        self.n
    }
}

/// A fit: ratings centred on 0 and the first-move advantage, in Elo points.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Fit {
    /// Each agent's rating (their mean is 0).
    pub elo: Vec<f64>,
    /// The first mover's advantage.
    pub first_move: f64,
    /// MM iterations to converge.
    pub iterations: u32,
}

/// Elo points of a strength ratio.
fn elo(x: f64) -> f64 {
    400.0 * x.log10()
}

/// Fits the model to `t` by MM; pairings never played (in either seat order) are left out,
/// and an agent that plays no one else is rated 0.
pub fn fit(t: &Tally) -> Fit {
    let n = t.n;
    // Smoothed games and first-player scores, for the cells of the pairings played.
    let mut games = t.games.clone();
    let mut wins = t.first_score.clone();
    for i in 0..n {
        for j in i..n {
            if t.games[i * n + j] + t.games[j * n + i] > 0.0 {
                for c in [i * n + j, j * n + i] {
                    games[c] += 2.0 * SMOOTHING;
                    wins[c] += SMOOTHING;
                }
            }
        }
    }
    // Each agent's score against others, and the first players' total score.
    let mut score = vec![0.0; n];
    let mut first_total = 0.0;
    for i in 0..n {
        for j in 0..n {
            let c = i * n + j;
            first_total += wins[c];
            if i != j {
                score[i] += wins[c];
                score[j] += games[c] - wins[c];
            }
        }
    }
    let mut gamma = vec![1.0f64; n];
    let mut theta = 1.0f64;
    let mut iterations = 0;
    while iterations < MAX_ITERATIONS {
        iterations += 1;
        let mut change = 0.0f64;
        for i in 0..n {
            let mut den = 0.0;
            for j in 0..n {
                if j != i {
                    den += games[i * n + j] * theta / (theta * gamma[i] + gamma[j])
                        + games[j * n + i] / (theta * gamma[j] + gamma[i]);
                }
            }
            if den > 0.0 {
                let new = score[i] / den;
                change = change.max((new / gamma[i]).ln().abs());
                gamma[i] = new;
            }
        }
        // Geometric mean 1.
        let mean_log = gamma.iter().map(|g| g.ln()).sum::<f64>() / n as f64;
        for g in &mut gamma {
            *g = (g.ln() - mean_log).exp();
        }
        let mut den = 0.0;
        for i in 0..n {
            for j in 0..n {
                let c = i * n + j;
                if games[c] > 0.0 {
                    den += games[c] * gamma[i] / (theta * gamma[i] + gamma[j]);
                }
            }
        }
        if den > 0.0 {
            let new = first_total / den;
            change = change.max((new / theta).ln().abs());
            theta = new;
        }
        if change < TOLERANCE {
            break;
        }
    }
    Fit {
        elo: gamma.iter().map(|&g| elo(g)).collect(),
        first_move: elo(theta),
        iterations,
    }
}

/// An estimate with its 95% interval.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Estimate {
    /// The maximum-likelihood estimate.
    pub value: f64,
    /// Its 95% bootstrap interval.
    pub ci: Interval,
}

/// Ratings with intervals.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Rated {
    /// Each agent's rating (mean 0).
    pub elo: Vec<Estimate>,
    /// The first-move advantage.
    pub first_move: Estimate,
    /// Bootstrap replicates.
    pub bootstrap: u32,
}

/// The pairs of games of one pairing `[a, b]`: for each pair, the first player's score in
/// game 0 (`a` first) and game 1 (`b` first).
#[derive(Clone, Debug, PartialEq)]
pub struct PairingPairs {
    /// The two agents.
    pub agents: [usize; 2],
    /// The first player's score in each game of each pair.
    pub pairs: Vec<[f64; 2]>,
}

fn tally_of(
    n: usize,
    pairings: &[PairingPairs],
    pick: &mut dyn FnMut(usize, usize) -> usize,
) -> Tally {
    let mut t = Tally::new(n);
    for (p, pp) in pairings.iter().enumerate() {
        let [a, b] = pp.agents;
        for k in 0..pp.pairs.len() {
            let [s0, s1] = pp.pairs[pick(p, k)];
            t.add(a, b, s0);
            t.add(b, a, s1);
        }
    }
    t
}

/// The `q` quantile of sorted `v` (linear interpolation between order statistics).
fn quantile(v: &[f64], q: f64) -> f64 {
    let h = (v.len() - 1) as f64 * q;
    let (lo, hi) = (h.floor() as usize, h.ceil() as usize);
    v[lo] + (v[hi] - v[lo]) * (h - lo as f64)
}

/// Rates `n` agents from the pairs of games of their pairings, with 95% intervals from
/// `bootstrap` replicates (at least 1) drawn from `seed`: each replicate resamples, within
/// every pairing, as many pairs as it has, with replacement.
pub fn rate(n: usize, pairings: &[PairingPairs], bootstrap: u32, seed: u64) -> Rated {
    let point = fit(&tally_of(n, pairings, &mut |_, k| k));
    let bootstrap = bootstrap.max(1);
    let mut rng = Rng::from_seed(seed);
    let mut elo: Vec<Vec<f64>> = vec![Vec::with_capacity(bootstrap as usize); n];
    let mut first = Vec::with_capacity(bootstrap as usize);
    for _ in 0..bootstrap {
        let f = fit(&tally_of(n, pairings, &mut |p, _| {
            rng.below(pairings[p].pairs.len())
        }));
        for (e, v) in elo.iter_mut().zip(f.elo) {
            e.push(v);
        }
        first.push(f.first_move);
    }
    let estimate = |value: f64, v: &mut Vec<f64>| {
        v.sort_by(f64::total_cmp);
        Estimate {
            value,
            ci: Interval {
                low: quantile(v, 0.025),
                high: quantile(v, 0.975),
            },
        }
    };
    Rated {
        elo: point
            .elo
            .iter()
            .zip(&mut elo)
            .map(|(&x, v)| estimate(x, v))
            .collect(),
        first_move: estimate(point.first_move, &mut first),
        bootstrap,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Seat-swapped pairs drawn from the model with ratings `r` and first-move term `h` (Elo),
    /// every pairing (self-play too) playing `pairs` pairs.
    fn draw(r: &[f64], h: f64, pairs: usize, seed: u64) -> Vec<PairingPairs> {
        let mut rng = Rng::from_seed(seed);
        let n = r.len();
        let p_first = |i: usize, j: usize| 1.0 / (1.0 + 10f64.powf((r[j] - r[i] - h) / 400.0));
        let mut out = vec![];
        for a in 0..n {
            for b in a..n {
                let pairs = (0..pairs)
                    .map(|_| {
                        let win = |p: f64, rng: &mut Rng| {
                            if (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64 <= p {
                                1.0
                            } else {
                                0.0
                            }
                        };
                        [win(p_first(a, b), &mut rng), win(p_first(b, a), &mut rng)]
                    })
                    .collect();
                out.push(PairingPairs {
                    agents: [a, b],
                    pairs,
                });
            }
        }
        out
    }

    const TRUE: [f64; 4] = [-250.0, -50.0, 100.0, 200.0];
    const FIRST: f64 = 60.0;

    #[test]
    fn the_fit_recovers_known_ratings() {
        let games = draw(&TRUE, FIRST, 4000, 1);
        let t = tally_of(4, &games, &mut |_, k| k);
        let f = fit(&t);
        for (e, r) in f.elo.iter().zip(TRUE) {
            assert!((e - r).abs() < 15.0, "{:?}", f);
        }
        assert!((f.first_move - FIRST).abs() < 10.0, "{f:?}");
        assert!(f.iterations < MAX_ITERATIONS);
    }

    #[test]
    fn the_fit_is_the_maximum_of_the_likelihood() {
        // Moving any parameter a little lowers the smoothed log-likelihood.
        let games = draw(&TRUE, FIRST, 50, 2);
        let t = tally_of(4, &games, &mut |_, k| k);
        let f = fit(&t);
        let loglik = |elo: &[f64], h: f64| {
            let mut l = 0.0;
            for i in 0..4 {
                for j in 0..4 {
                    let c = i * 4 + j;
                    let played = t.games[i * 4 + j] + t.games[j * 4 + i] > 0.0;
                    let (n, w) = if played {
                        (t.games[c] + 2.0 * SMOOTHING, t.first_score[c] + SMOOTHING)
                    } else {
                        (0.0, 0.0)
                    };
                    let p = 1.0 / (1.0 + 10f64.powf((elo[j] - elo[i] - h) / 400.0));
                    l += w * p.ln() + (n - w) * (1.0 - p).ln();
                }
            }
            l
        };
        let best = loglik(&f.elo, f.first_move);
        for k in 0..5 {
            for d in [-1.0, 1.0] {
                let mut e = f.elo.clone();
                let mut h = f.first_move;
                if k < 4 {
                    e[k] += d;
                } else {
                    h += d;
                }
                assert!(loglik(&e, h) < best, "{k} {d}");
            }
        }
    }

    /// Over many tournaments drawn from the model, the 95% intervals cover the true ratings
    /// and first-move term about 95% of the time.
    #[test]
    fn the_intervals_cover_the_truth_at_about_their_nominal_rate() {
        let runs = 120;
        let mut covered = [0u32; 5];
        for seed in 0..runs {
            let games = draw(&TRUE, FIRST, 60, 100 + seed);
            let r = rate(4, &games, 300, seed);
            // The truth, centred as the fit centres it.
            let mean = TRUE.iter().sum::<f64>() / 4.0;
            for (i, e) in r.elo.iter().enumerate() {
                let truth = TRUE[i] - mean;
                covered[i] += u32::from(e.ci.low <= truth && truth <= e.ci.high);
            }
            let fm = r.first_move.ci;
            covered[4] += u32::from(fm.low <= FIRST && FIRST <= fm.high);
        }
        let total: u32 = covered.iter().sum();
        let rate = total as f64 / (5 * runs) as f64;
        eprintln!("coverage {rate}: {covered:?} of {runs} each");
        assert!(
            (0.89..=0.99).contains(&rate),
            "coverage {rate}: {covered:?}"
        );
        for c in covered {
            assert!(c as f64 / runs as f64 >= 0.85, "{covered:?}");
        }
    }

    #[test]
    fn one_side_winning_everything_gives_finite_ratings() {
        let games = vec![PairingPairs {
            agents: [0, 1],
            pairs: vec![[0.0, 1.0]; 20],
        }];
        let r = rate(2, &games, 50, 0);
        assert!(
            r.elo[1].value > 300.0 && r.elo[1].value.is_finite(),
            "{r:?}"
        );
        assert!((r.elo[0].value + r.elo[1].value).abs() < 1e-9);
        assert!(r.first_move.value.abs() < 1.0, "{r:?}");
    }
}
