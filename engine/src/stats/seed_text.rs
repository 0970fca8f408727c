//! A 64-bit seed in serde: written as a decimal string, since JavaScript's `JSON.parse` rounds
//! integers above 2^53 (a JSON body's seeds are strings); read from a string or a number (a
//! CSV field, an older JSON body).

use serde::de::{self, Visitor};
use serde::{Deserializer, Serializer};
use std::fmt;

/// Writes `v` as its decimal string.
pub fn serialize<S: Serializer>(v: &u64, s: S) -> Result<S::Ok, S::Error> {
    s.collect_str(v)
}

/// Reads a whole number from 0 to `u64::MAX`, given as a number or a string of decimal digits.
pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<u64, D::Error> {
    struct Seed;
    impl Visitor<'_> for Seed {
        type Value = u64;
        fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
            f.write_str("an unsigned 64-bit integer, as a number or a string of decimal digits")
        }
        fn visit_u64<E: de::Error>(self, v: u64) -> Result<u64, E> {
            Ok(v)
        }
        fn visit_i64<E: de::Error>(self, v: i64) -> Result<u64, E> {
            u64::try_from(v).map_err(|_| E::invalid_value(de::Unexpected::Signed(v), &self))
        }
        fn visit_str<E: de::Error>(self, v: &str) -> Result<u64, E> {
            let digits = !v.is_empty() && v.bytes().all(|b| b.is_ascii_digit());
            let value = if digits { v.parse().ok() } else { None };
            value.ok_or_else(|| E::invalid_value(de::Unexpected::Str(v), &self))
        }
    }
    d.deserialize_any(Seed)
}

#[cfg(test)]
mod tests {
    use serde::{Deserialize, Serialize};

    #[derive(Debug, PartialEq, Serialize, Deserialize)]
    struct S {
        #[serde(with = "super")]
        seed: u64,
    }

    #[test]
    fn seeds_are_written_as_strings_and_read_from_either() {
        let s = S { seed: u64::MAX };
        assert_eq!(
            serde_json::to_string(&s).unwrap(),
            r#"{"seed":"18446744073709551615"}"#
        );
        let back: S = serde_json::from_str(r#"{"seed":"18446744073709551615"}"#).unwrap();
        assert_eq!(back, s);
        let number: S = serde_json::from_str(r#"{"seed":7}"#).unwrap();
        assert_eq!(number.seed, 7);
        for bad in [
            r#"{"seed":"-1"}"#,
            r#"{"seed":"1e3"}"#,
            r#"{"seed":"18446744073709551616"}"#,
            r#"{"seed":-1}"#,
            r#"{"seed":""}"#,
        ] {
            assert!(serde_json::from_str::<S>(bad).is_err(), "{bad}");
        }
    }
}
