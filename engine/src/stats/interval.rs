//! Confidence intervals and tests.

use super::dist::{normal_cdf, normal_quantile, t_quantile};
use super::number::positive_p;
use serde::Serialize;

/// A 95% interval.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Interval {
    /// Lower bound.
    pub low: f64,
    /// Upper bound.
    pub high: f64,
}

/// z for a two-sided 95% interval.
pub fn z95() -> f64 {
    normal_quantile(0.975)
}

/// An estimate with its 95% interval.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Estimate {
    /// The estimate.
    pub value: f64,
    /// Its 95% interval.
    pub ci: Interval,
}

/// The score of `wins` and `draws` in `games` (a win counts 1, a draw ½, a loss 0): the mean
/// per game (0 without games) with its Wilson 95% interval ([`wilson_score`]). The one
/// computation of a score every report, page and table shows.
pub fn score(wins: u64, draws: u64, games: u64) -> Estimate {
    let points = wins as f64 + 0.5 * draws as f64;
    Estimate {
        value: if games == 0 {
            0.0
        } else {
            points / games as f64
        },
        ci: wilson_score(points, games),
    }
}

/// The Wilson score interval (95%) of a proportion `k` of `n`.
pub fn wilson(k: u64, n: u64) -> Interval {
    wilson_score(k as f64, n)
}

/// The Wilson score interval (95%) of a mean score `score / n` of `n` games scored 1, ½ or 0
/// (draws as half wins). The binomial variance `p(1-p)/n` it assumes is the largest a mean of
/// such scores can have, so with draws the interval is conservative.
pub fn wilson_score(score: f64, n: u64) -> Interval {
    if n == 0 {
        return Interval {
            low: 0.0,
            high: 1.0,
        };
    }
    let z = z95();
    let n = n as f64;
    let p = score / n;
    let z2 = z * z;
    let centre = (p + z2 / (2.0 * n)) / (1.0 + z2 / n);
    let half = z * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt() / (1.0 + z2 / n);
    Interval {
        low: (centre - half).max(0.0),
        high: (centre + half).min(1.0),
    }
}

/// A difference of two proportions `k1/n1 - k2/n2`: Newcombe's hybrid score interval (95%)
/// and the pooled two-proportion z-test's two-sided p-value.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct ProportionDiff {
    /// `p1 - p2`.
    pub diff: f64,
    /// 95% interval of the difference.
    pub ci: Interval,
    /// Two-sided p-value of the hypothesis p1 = p2.
    pub p_value: f64,
}

/// Compares two proportions.
pub fn proportion_diff(k1: u64, n1: u64, k2: u64, n2: u64) -> ProportionDiff {
    let p1 = if n1 == 0 { 0.0 } else { k1 as f64 / n1 as f64 };
    let p2 = if n2 == 0 { 0.0 } else { k2 as f64 / n2 as f64 };
    let (w1, w2) = (wilson(k1, n1), wilson(k2, n2));
    let d = p1 - p2;
    let low = d - ((p1 - w1.low).powi(2) + (w2.high - p2).powi(2)).sqrt();
    let high = d + ((w1.high - p1).powi(2) + (p2 - w2.low).powi(2)).sqrt();
    let pooled = if n1 + n2 == 0 {
        0.0
    } else {
        (k1 + k2) as f64 / (n1 + n2) as f64
    };
    let se = (pooled * (1.0 - pooled) * (1.0 / n1.max(1) as f64 + 1.0 / n2.max(1) as f64)).sqrt();
    let p_value = if se == 0.0 {
        if d == 0.0 { 1.0 } else { 0.0 }
    } else {
        // The upper tail as Φ(-|z|), accurate where 1 - Φ(|z|) would cancel to 0.
        positive_p(2.0 * normal_cdf(-(d / se).abs()))
    };
    ProportionDiff {
        diff: d,
        ci: Interval { low, high },
        p_value,
    }
}

/// A difference of two means with Welch's interval (95%) and two-sided p-value.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct MeanDiff {
    /// `mean1 - mean2`.
    pub diff: f64,
    /// 95% interval.
    pub ci: Interval,
    /// Two-sided p-value (normal approximation of Welch's t).
    pub p_value: f64,
    /// Welch-Satterthwaite degrees of freedom.
    pub df: f64,
}

/// Welch's comparison from (n, mean, variance) of each sample.
pub fn welch(n1: u64, m1: f64, v1: f64, n2: u64, m2: f64, v2: f64) -> MeanDiff {
    let d = m1 - m2;
    let (a, b) = (v1 / n1.max(1) as f64, v2 / n2.max(1) as f64);
    let se = (a + b).sqrt();
    let df = if a + b == 0.0 {
        f64::INFINITY
    } else {
        (a + b).powi(2)
            / (a * a / (n1.saturating_sub(1).max(1)) as f64
                + b * b / (n2.saturating_sub(1).max(1)) as f64)
    };
    let t = t_quantile(0.975, df);
    let p_value = if se == 0.0 {
        if d == 0.0 { 1.0 } else { 0.0 }
    } else {
        // The upper tail as Φ(-|z|), accurate where 1 - Φ(|z|) would cancel to 0.
        positive_p(2.0 * normal_cdf(-(d / se).abs()))
    };
    MeanDiff {
        diff: d,
        ci: Interval {
            low: d - t * se,
            high: d + t * se,
        },
        p_value,
        df,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wilson_by_hand() {
        // 8 of 10: the textbook interval (0.4902, 0.9433).
        let w = wilson(8, 10);
        assert!(
            (w.low - 0.4902).abs() < 1e-3 && (w.high - 0.9433).abs() < 1e-3,
            "{w:?}"
        );
        let w = wilson(0, 10);
        assert_eq!(w.low, 0.0);
        assert!((w.high - 0.2775).abs() < 1e-3);
    }

    #[test]
    fn newcombe_by_hand() {
        // Newcombe (1998), example: 56/70 vs 48/80, interval (0.0524, 0.3339).
        let d = proportion_diff(56, 70, 48, 80);
        assert!((d.diff - 0.2).abs() < 1e-12);
        assert!(
            (d.ci.low - 0.0524).abs() < 1e-3 && (d.ci.high - 0.3339).abs() < 1e-3,
            "{d:?}"
        );
        // Pooled p = 104/150, se = sqrt(p(1-p)(1/70 + 1/80)) = 0.07547, z = 2.650, p = 0.00805.
        assert!((d.p_value - 0.00805).abs() < 5e-5, "{}", d.p_value);
    }

    #[test]
    fn welch_by_hand() {
        let w = welch(10, 5.0, 4.0, 10, 3.0, 4.0);
        assert!((w.df - 18.0).abs() < 1e-9);
        // se = sqrt(0.8) = 0.8944; t(0.975, 18) = 2.1009.
        assert!(
            (w.ci.low - (2.0 - 2.1009 * 0.894_427)).abs() < 3e-3,
            "{w:?}"
        );
    }
}
