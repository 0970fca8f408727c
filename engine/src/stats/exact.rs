//! An exact, order-independent sum of non-negative fractions, so that statistics folded per
//! chunk, per thread or per machine and then merged equal those folded game by game.

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// Fractional bits kept of each added value: a resolution of 2^-40 (about 1e-12).
const FRACTION_BITS: i32 = 40;

/// A sum of non-negative `f64` values, each rounded to a multiple of 2^-40 and added as an
/// integer: addition is associative, so any grouping of the same values gives the same sum.
/// Serialised as a decimal string of the integer (it can exceed JSON's safe range).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ExactSum(u128);

impl ExactSum {
    /// Adds a value (negative or non-finite values count as zero).
    pub fn add(&mut self, v: f64) {
        if v.is_finite() && v > 0.0 {
            // Scaling by a power of two is exact; the rounding is the only loss.
            self.0 += round(v * 2f64.powi(FRACTION_BITS));
        }
    }

    /// Adds another sum.
    pub fn merge(&mut self, o: &ExactSum) {
        self.0 += o.0;
    }

    /// The sum.
    pub fn value(&self) -> f64 {
        self.0 as f64 / 2f64.powi(FRACTION_BITS)
    }
}

/// A positive `x` rounded half away from zero, as `x.round() as u128`; below 2^62 without
/// calling the maths library (a simulation adds two values a game).
#[inline]
fn round(x: f64) -> u128 {
    if x < 2f64.powi(62) {
        // The truncation and the fraction left are exact (below 2^53 the fraction is exactly
        // representable; from 2^53 up `x` is a whole number).
        let t = x as i64;
        (t + (x - t as f64 >= 0.5) as i64) as u128
    } else {
        x.round() as u128
    }
}

impl Serialize for ExactSum {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(&self.0)
    }
}

impl<'de> Deserialize<'de> for ExactSum {
    /// Reads the string form.
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        String::deserialize(d)?
            .parse()
            .map(ExactSum)
            .map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn any_grouping_gives_the_same_sum() {
        let values: Vec<f64> = (1..2000).map(|i| (i as f64).sqrt() / 7.0).collect();
        let mut whole = ExactSum::default();
        values.iter().for_each(|&v| whole.add(v));
        let mut parts = ExactSum::default();
        for chunk in values.chunks(37).rev() {
            let mut p = ExactSum::default();
            chunk.iter().for_each(|&v| p.add(v));
            parts.merge(&p);
        }
        assert_eq!(whole, parts);
        let float: f64 = values.iter().sum();
        assert!((whole.value() - float).abs() < 1e-8);
    }

    #[test]
    fn rounds_as_the_library_rounds() {
        let mut z = 0x0123_4567_89AB_CDEFu64;
        let mut next = || {
            z = crate::rng::mix64(z);
            z
        };
        for i in 0..200_000u64 {
            let r = next();
            let x = match i % 4 {
                // Halves, and their neighbours.
                0 => (r >> (r % 50) as u32) as f64 + 0.5,
                1 => f64::from_bits(
                    (((r >> 12) as f64 + 0.5).to_bits() as i64 + (r % 3) as i64 - 1) as u64,
                ),
                2 => f64::from_bits(r >> 2) % 1e20,
                _ => (r % 1_000_000) as f64 / 7.0,
            };
            if x.is_finite() && x > 0.0 {
                assert_eq!(round(x), x.round() as u128, "{x:e}");
            }
        }
        for x in [
            0.5,
            1.5,
            2.5,
            0.49999999999999994,
            4503599627370495.5,
            2f64.powi(53),
            2f64.powi(62),
            1e30,
        ] {
            assert_eq!(round(x), x.round() as u128, "{x:e}");
        }
    }

    #[test]
    fn serialises_as_a_string_and_reads_only_strings() {
        let mut s = ExactSum::default();
        s.add(2.5);
        assert_eq!(serde_json::to_string(&s).unwrap(), "\"2748779069440\"");
        let back: ExactSum = serde_json::from_str("\"2748779069440\"").unwrap();
        assert_eq!(back.value(), 2.5);
        assert!(serde_json::from_str::<ExactSum>("2.5").is_err());
    }
}
