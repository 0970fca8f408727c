//! What a JSON parser lets through and a request must not carry, found in the body's text:
//! an object with the same key twice (serde keeps the last, silently), and a number written
//! with a fraction or an exponent that double precision rounds to a whole number it is not
//! (`16.9999999999999999` would be read as 17), or to a whole number other than the one written
//! (`2.5430106792664871e16`, past 2^53). Numbers such as `8.0` or `1e3` are whole and pass.
//! And nesting deeper than [`MAX_DEPTH`], which no request needs.
//!
//! One pass over the text, in time linear in its length: the path of a value (such as
//! `params.holes`) is built only to report what is wrong there.

/// Deepest nesting of objects and arrays a request body may have (the deepest request needs
/// a handful; serde_json alone would take 128).
pub const MAX_DEPTH: usize = 64;

/// What is wrong, and where (a path such as `params.holes` or `agents[1]`).
#[derive(Debug, PartialEq)]
pub enum Unfit {
    /// A key given twice in one object.
    DuplicateKey {
        /// The object's path (empty: the body itself).
        at: String,
        /// The key.
        key: String,
    },
    /// A number with a fraction that double precision rounds away: not a whole number.
    InexactWhole {
        /// The number's path.
        at: String,
        /// The number as written.
        literal: String,
        /// What it would have been read as.
        read_as: f64,
    },
    /// A whole number, written with a fraction or an exponent, that double precision reads as
    /// another whole number (past 2^53): well formed, but not readable exactly.
    ImpreciseWhole {
        /// The number's path.
        at: String,
        /// The number as written.
        literal: String,
        /// What it would have been read as.
        read_as: f64,
    },
    /// Objects and arrays nested deeper than [`MAX_DEPTH`].
    TooDeep {
        /// The path of the value that opens one level too many.
        at: String,
    },
}

/// How a number's written value and its double-precision reading differ.
#[derive(Debug, PartialEq)]
enum Misread {
    /// Not whole as written, whole as read.
    Fraction(f64),
    /// Whole as written, another whole number as read.
    Precision(f64),
}

enum Frame {
    Object {
        keys: std::collections::HashSet<String>,
        key: Option<String>,
        expecting_key: bool,
    },
    Array {
        index: usize,
    },
}

fn path(stack: &[Frame]) -> String {
    let mut out = String::new();
    for f in stack {
        match f {
            Frame::Object { key: Some(k), .. } => {
                if !out.is_empty() {
                    out.push('.');
                }
                out.push_str(k);
            }
            Frame::Object { key: None, .. } => {}
            Frame::Array { index } => out.push_str(&format!("[{index}]")),
        }
    }
    out
}

/// Checks the text of a JSON document that has already parsed (anything else is left to the
/// parser: this returns `Ok` on text it cannot follow).
pub fn check(text: &str) -> Result<(), Unfit> {
    let b = text.as_bytes();
    let mut stack: Vec<Frame> = Vec::new();
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'{' | b'[' if stack.len() >= MAX_DEPTH => {
                return Err(Unfit::TooDeep { at: path(&stack) });
            }
            b'{' => {
                stack.push(Frame::Object {
                    keys: Default::default(),
                    key: None,
                    expecting_key: true,
                });
                i += 1;
            }
            b'[' => {
                stack.push(Frame::Array { index: 0 });
                i += 1;
            }
            b'}' | b']' => {
                stack.pop();
                i += 1;
            }
            b',' => {
                match stack.last_mut() {
                    Some(Frame::Array { index }) => *index += 1,
                    Some(Frame::Object {
                        expecting_key, key, ..
                    }) => {
                        *expecting_key = true;
                        *key = None;
                    }
                    None => {}
                }
                i += 1;
            }
            b'"' => {
                let start = i;
                i += 1;
                while i < b.len() && b[i] != b'"' {
                    i += if b[i] == b'\\' { 2 } else { 1 };
                }
                let end = (i + 1).min(b.len());
                i = end;
                if let Some(Frame::Object {
                    keys,
                    key,
                    expecting_key,
                }) = stack.last_mut()
                    && *expecting_key
                {
                    let Some(raw) = text.get(start..end) else {
                        return Ok(());
                    };
                    let Ok(name) = serde_json::from_str::<String>(raw) else {
                        return Ok(());
                    };
                    if keys.contains(&name) {
                        // The object's own path: its key is the one before this one.
                        *key = None;
                        return Err(Unfit::DuplicateKey {
                            at: path(&stack),
                            key: name,
                        });
                    }
                    keys.insert(name.clone());
                    *key = Some(name);
                    *expecting_key = false;
                }
            }
            b'-' | b'0'..=b'9' => {
                let start = i;
                while i < b.len() && matches!(b[i], b'-' | b'+' | b'.' | b'e' | b'E' | b'0'..=b'9')
                {
                    i += 1;
                }
                let literal = text.get(start..i).unwrap_or_default();
                match inexact_whole(literal) {
                    None => {}
                    Some(Misread::Fraction(read_as)) => {
                        return Err(Unfit::InexactWhole {
                            at: path(&stack),
                            literal: literal.to_string(),
                            read_as,
                        });
                    }
                    Some(Misread::Precision(read_as)) => {
                        return Err(Unfit::ImpreciseWhole {
                            at: path(&stack),
                            literal: literal.to_string(),
                            read_as,
                        });
                    }
                }
            }
            _ => i += 1,
        }
    }
    Ok(())
}

/// The whole number a literal with a fraction or an exponent is read as, when that is not
/// its exact value.
fn inexact_whole(literal: &str) -> Option<Misread> {
    if !literal.contains(['.', 'e', 'E']) {
        return None;
    }
    let f: f64 = literal.parse().ok()?;
    if !f.is_finite() || f.fract() != 0.0 {
        return None;
    }
    let body = literal.strip_prefix('-').unwrap_or(literal);
    let (mantissa, exp) = match body.find(['e', 'E']) {
        Some(k) => (&body[..k], body[k + 1..].parse::<i64>().ok()),
        None => (body, Some(0)),
    };
    let Some(exp) = exp else {
        // An exponent past reading, on a finite whole result: a tiny number read as 0.
        return mantissa
            .bytes()
            .any(|c| matches!(c, b'1'..=b'9'))
            .then_some(Misread::Fraction(f));
    };
    let (int, frac) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    let digits = format!("{int}{frac}");
    let lead = digits.len() - digits.trim_start_matches('0').len();
    let digits = digits.trim_start_matches('0').trim_end_matches('0');
    // Where the decimal point falls in `digits`.
    let point = int.len() as i64 - lead as i64 + exp;
    if digits.is_empty() {
        return None; // zero, exactly
    }
    if digits.len() as i64 > point {
        return Some(Misread::Fraction(f)); // a fraction that rounding dropped
    }
    if f.abs() >= 18_446_744_073_709_551_616.0 {
        return None; // past any whole number the API takes
    }
    let exact = format!(
        "{digits}{}",
        "0".repeat((point - digits.len() as i64) as usize)
    );
    (exact != format!("{}", f.abs() as u64)).then_some(Misread::Precision(f))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn whole_numbers_pass_and_rounded_ones_are_caught() {
        for ok in [
            "8", "8.0", "1e3", "1.5e1", "0.0", "-0.0", "2.5", "0.1", "1E2", "120e-1", "0.5e1",
            "1e400",
        ] {
            assert_eq!(inexact_whole(ok), None, "{ok}");
        }
        for bad in [
            "16.9999999999999999",
            "1.00000000000000000001",
            "-2.99999999999999999",
            "1e-400",
        ] {
            assert!(
                matches!(inexact_whole(bad), Some(Misread::Fraction(_))),
                "{bad}"
            );
        }
        // Whole as written, another whole number as read (the contract test's generator
        // writes such numbers: they are well formed, so not a bad request).
        for imprecise in [
            "9007199254740993.0",
            "-2.543010679266487e+16",
            "6.339469816494963e16",
        ] {
            assert!(
                matches!(inexact_whole(imprecise), Some(Misread::Precision(_))),
                "{imprecise}"
            );
        }
    }

    #[test]
    fn duplicate_keys_are_named_with_their_object() {
        assert_eq!(
            check(r#"{"a": 1, "params": {"holes": 8, "x": [1, {"k": 1, "k": 2}]}}"#),
            Err(Unfit::DuplicateKey {
                at: "params.x[1]".into(),
                key: "k".into()
            })
        );
        assert_eq!(
            check(r#"{"games": 2, "g\u0061mes": 3}"#),
            Err(Unfit::DuplicateKey {
                at: String::new(),
                key: "games".into()
            })
        );
        // The same key in sibling objects, and keys inside strings, are fine.
        assert_eq!(
            check(r#"[{"a": 1}, {"a": 2}, "{\"a\": 1, \"a\": 2}"]"#),
            Ok(())
        );
        assert_eq!(
            check(r#"{"ruleset": "x", "games": 16.9999999999999999}"#),
            Err(Unfit::InexactWhole {
                at: "games".into(),
                literal: "16.9999999999999999".into(),
                read_as: 17.0
            })
        );
    }

    #[test]
    fn nesting_past_the_limit_is_refused_with_its_path() {
        let nested = |levels: usize| {
            let mut t = String::new();
            for _ in 0..levels {
                t.push_str(r#"{"a":["#);
            }
            for _ in 0..levels {
                t.push_str("]}");
            }
            t
        };
        // Each level is an object and an array: MAX_DEPTH / 2 of them fit.
        assert_eq!(check(&nested(MAX_DEPTH / 2)), Ok(()));
        let Err(Unfit::TooDeep { at }) = check(&nested(MAX_DEPTH / 2 + 1)) else {
            panic!("one level too many passes");
        };
        assert!(at.starts_with("a[0].a[0]."), "{at}");
        // A long path and many strings under it: the path is not built for each string.
        let deep_keys = "k".repeat(10_000);
        let mut t = String::new();
        for _ in 0..30 {
            t.push_str(&format!(r#"{{"{deep_keys}":"#));
        }
        t.push('[');
        t.push_str(&vec![r#""s""#; 100_000].join(","));
        t.push(']');
        t.push_str(&"}".repeat(30));
        assert_eq!(check(&t), Ok(()));
    }
}
