//! Numbers as text: figures for readers without a `-0`, and floats for files as the shortest
//! text that reads back as the same double.

/// `x` as it should be printed with `decimals` decimals: a value that would print as `-0`
/// (`-0.3` at no decimals, `-0.04` at one) becomes zero, so no figure reads "-0 Elo".
pub fn no_minus_zero(x: f64, decimals: i32) -> f64 {
    let scale = 10f64.powi(decimals);
    if (x * scale).round() == 0.0 { 0.0 } else { x }
}

/// `x` for a CSV file: the shortest decimal that reads back as the same double (Rust's
/// formatting, as ryu), in scientific notation (`1.5e-270`) outside 1e-5 to 1e16 so that a
/// tiny p-value is not written as hundreds of zeros; `0` only for zero.
pub fn csv_float(x: f64) -> String {
    let a = x.abs();
    if x == 0.0 {
        "0".to_string()
    } else if a.is_finite() && !(1e-5..1e16).contains(&a) {
        format!("{x:e}")
    } else {
        x.to_string()
    }
}

/// A p-value as computed, kept above zero where the true value is positive: below the
/// smallest positive double (where the computation underflows) it is that double, an upper
/// bound, so no file says a positive p-value is 0.
pub fn positive_p(p: f64) -> f64 {
    p.max(f64::from_bits(1))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shortest_round_trip() {
        for x in [
            0.5,
            1.0,
            0.1 + 0.2,
            1.234_567_890_123e-270,
            3.5e-9,
            f64::from_bits(1),
            2.5e20,
            -7.25e-12,
            0.049_999_999_999,
        ] {
            let t = csv_float(x);
            assert_eq!(t.parse::<f64>().unwrap(), x, "{t}");
            assert!(t.len() <= 24, "{t}");
        }
        assert_eq!(csv_float(1.0), "1");
        assert_eq!(csv_float(0.0), "0");
        assert_eq!(csv_float(1e-270), "1e-270");
        assert_eq!(positive_p(0.0), 5e-324);
        assert_eq!(csv_float(positive_p(0.0)), "5e-324");
        assert_eq!(positive_p(0.25), 0.25);
    }

    #[test]
    fn no_minus_zero_prints() {
        assert_eq!(format!("{:.0}", no_minus_zero(-0.4, 0)), "0");
        assert_eq!(format!("{:+.0}", no_minus_zero(-0.4, 0)), "+0");
        assert_eq!(format!("{:.1}", no_minus_zero(-0.04, 1)), "0.0");
        assert_eq!(format!("{:.0}", no_minus_zero(-0.6, 0)), "-1");
    }
}
