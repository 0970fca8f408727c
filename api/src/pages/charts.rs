//! Charts drawn on the server as SVG (no script needed to see them): rates with their 95%
//! intervals, differences with theirs, and histograms. Each has a title and a description
//! that states its numbers, for screen readers.

use std::fmt::Write;
use std::sync::atomic::{AtomicUsize, Ordering};

/// One bar: a label, a value and its 95% interval.
#[derive(Clone, Debug)]
pub struct Bar {
    pub label: String,
    pub value: f64,
    pub low: f64,
    pub high: f64,
}

fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

const WIDTH: f64 = 640.0;
const RIGHT: f64 = 70.0;
const ROW: f64 = 34.0;

/// Numbers the charts, so that the ids of their titles are unique on a page.
static CHARTS: AtomicUsize = AtomicUsize::new(0);

fn open(s: &mut String, class: &str, height: f64, title: &str, desc: &str) {
    let n = CHARTS.fetch_add(1, Ordering::Relaxed);
    let _ = write!(
        s,
        r#"<svg class="chart {class}" viewBox="0 0 {WIDTH} {height}" role="img" aria-labelledby="chart{n}-t chart{n}-d" xmlns="http://www.w3.org/2000/svg"><title id="chart{n}-t">{}</title><desc id="chart{n}-d">{}</desc>"#,
        esc(title),
        esc(desc)
    );
}

/// Bars from zero on a horizontal axis from `lo` to `hi`, with whiskers for the intervals, a
/// reference line at `reference`, and the values at the right (as percentages when
/// `percent`).
fn bars(
    class: &str,
    title: &str,
    rows: &[Bar],
    (lo, hi): (f64, f64),
    reference: f64,
    percent: bool,
) -> String {
    let fmt = |v: f64| {
        if percent {
            format!("{:.1}%", v * 100.0)
        } else {
            format!("{v:.2}")
        }
    };
    let desc = rows
        .iter()
        .map(|r| {
            format!(
                "{}: {} (95% interval {} to {})",
                r.label,
                fmt(r.value),
                fmt(r.low),
                fmt(r.high)
            )
        })
        .collect::<Vec<_>>()
        .join("; ");
    let height = 40.0 + ROW * rows.len() as f64;
    // Room for the longest label (about 6.6 units a character at 12 px).
    let longest = rows
        .iter()
        .map(|r| r.label.chars().count())
        .max()
        .unwrap_or(0);
    let left = (16.0 + 6.6 * longest as f64).clamp(120.0, 330.0);
    let span = (hi - lo).max(1e-9);
    let x = |v: f64| left + (v.clamp(lo, hi) - lo) / span * (WIDTH - left - RIGHT);
    let mut s = String::new();
    open(&mut s, class, height, title, &desc);
    for i in 0..=4 {
        let v = lo + span * i as f64 / 4.0;
        let _ = write!(
            s,
            r#"<line class="grid" x1="{0:.1}" y1="10" x2="{0:.1}" y2="{1:.1}"/><text class="tick" x="{0:.1}" y="{2:.1}">{3}</text>"#,
            x(v),
            height - 22.0,
            height - 6.0,
            if percent {
                format!("{:.0}%", v * 100.0)
            } else {
                format!("{v:.2}")
            }
        );
    }
    let _ = write!(
        s,
        r#"<line class="reference" x1="{0:.1}" y1="8" x2="{0:.1}" y2="{1:.1}"/>"#,
        x(reference),
        height - 22.0
    );
    for (i, r) in rows.iter().enumerate() {
        let y = 14.0 + ROW * i as f64;
        let (x0, x1) = (x(0.0), x(r.value));
        let _ = write!(
            s,
            r#"<text class="label" x="{:.1}" y="{:.1}">{}</text><rect class="bar" x="{:.1}" y="{y:.1}" width="{:.1}" height="18"/><line class="whisker" x1="{:.1}" y1="{:.1}" x2="{:.1}" y2="{:.1}"/><text class="value" x="{:.1}" y="{:.1}">{}</text>"#,
            left - 8.0,
            y + 14.0,
            esc(&r.label),
            x0.min(x1),
            (x1 - x0).abs().max(1.0),
            x(r.low),
            y + 9.0,
            x(r.high),
            y + 9.0,
            WIDTH - RIGHT + 8.0,
            y + 14.0,
            fmt(r.value)
        );
    }
    s.push_str("</svg>");
    s
}

/// Proportions (win rates) from 0 to 1 with their 95% intervals; the line marks one half.
pub fn rates(title: &str, rows: &[Bar]) -> String {
    bars("rates", title, rows, (0.0, 1.0), 0.5, true)
}

/// Differences with their 95% intervals, on an axis symmetric about zero.
pub fn differences(title: &str, rows: &[Bar], percent: bool) -> String {
    let m = rows
        .iter()
        .flat_map(|r| [r.low.abs(), r.high.abs(), r.value.abs()])
        .fold(0.0f64, f64::max)
        .max(if percent { 0.05 } else { 1.0 })
        * 1.1;
    let class = if percent { "diffs" } else { "diffs-mean" };
    bars(class, title, rows, (-m, m), 0.0, percent)
}

/// A histogram of whole-number values (`(value, count)` pairs), grouped into at most 30
/// bins of equal width.
pub fn histogram(title: &str, x_label: &str, counts: &[(u64, u64)]) -> String {
    let (Some(min), Some(max)) = (
        counts.iter().map(|c| c.0).min(),
        counts.iter().map(|c| c.0).max(),
    ) else {
        return String::new();
    };
    let width = ((max - min + 1) as f64 / 30.0).ceil().max(1.0) as u64;
    let nbins = ((max - min) / width + 1) as usize;
    let mut bins = vec![0u64; nbins];
    for &(v, c) in counts {
        bins[((v - min) / width) as usize] += c;
    }
    let top = bins.iter().copied().max().unwrap_or(1).max(1);
    let total: u64 = bins.iter().sum();
    let (height, left, bottom) = (260.0, 50.0, 40.0);
    let plot_w = WIDTH - left - 20.0;
    let plot_h = height - bottom - 14.0;
    let bw = plot_w / nbins as f64;
    let desc = format!(
        "{total} games from {min} to {max} {x_label}, in bins of {width}; the fullest bin holds {top} games"
    );
    let mut s = String::new();
    open(&mut s, "histogram", height, title, &desc);
    for (i, &c) in bins.iter().enumerate() {
        let h = c as f64 / top as f64 * plot_h;
        let lo = min + i as u64 * width;
        let label = if width == 1 {
            lo.to_string()
        } else {
            format!("{lo}–{}", lo + width - 1)
        };
        let _ = write!(
            s,
            r#"<rect class="bar" x="{:.1}" y="{:.1}" width="{:.1}" height="{h:.1}"><title>{label}: {c} games</title></rect>"#,
            left + i as f64 * bw + 1.0,
            14.0 + plot_h - h,
            (bw - 2.0).max(1.0),
        );
    }
    let y = 14.0 + plot_h;
    let _ = write!(
        s,
        r#"<line class="axis" x1="{left}" y1="{y:.1}" x2="{:.1}" y2="{y:.1}"/><text class="tick" x="{left}" y="{:.1}">{min}</text><text class="tick" x="{:.1}" y="{:.1}">{max}</text><text class="axis-label" x="{:.1}" y="{:.1}">{}</text><text class="tick" x="{:.1}" y="20">{top}</text>"#,
        WIDTH - 20.0,
        y + 16.0,
        WIDTH - 30.0,
        y + 16.0,
        left + plot_w / 2.0,
        height - 4.0,
        esc(x_label),
        left - 8.0,
    );
    s.push_str("</svg>");
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_histogram_counts_every_game_once() {
        let svg = histogram("t", "turns", &[(3, 2), (4, 1), (100, 5)]);
        assert!(svg.contains("8 games from 3 to 100 turns"));
        // 3..=100 in bins of 4: 25 bins.
        assert_eq!(svg.matches("<rect").count(), 25);
    }

    #[test]
    fn rates_state_their_numbers() {
        let svg = rates(
            "Wins",
            &[Bar {
                label: "First mover".into(),
                value: 0.6,
                low: 0.5,
                high: 0.7,
            }],
        );
        assert!(svg.contains("First mover: 60.0% (95% interval 50.0% to 70.0%)"));
        assert!(svg.starts_with("<svg") && svg.ends_with("</svg>"));
    }
}
