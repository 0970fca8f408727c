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

/// The chart's numbers as a table for screen readers and for copying (hidden on screen).
fn table(s: &mut String, title: &str, head: &[&str], rows: &[Vec<String>]) {
    let _ = write!(
        s,
        r#"<div class="visually-hidden"><table class="chart-data"><caption>{}</caption><thead><tr>"#,
        esc(title)
    );
    for h in head {
        let _ = write!(s, r#"<th scope="col">{}</th>"#, esc(h));
    }
    s.push_str("</tr></thead><tbody>");
    for r in rows {
        s.push_str("<tr>");
        for (i, c) in r.iter().enumerate() {
            if i == 0 {
                let _ = write!(s, r#"<th scope="row">{}</th>"#, esc(c));
            } else {
                let _ = write!(s, "<td>{}</td>", esc(c));
            }
        }
        s.push_str("</tr>");
    }
    s.push_str("</tbody></table></div>");
}

/// The "nice" step (1, 2 or 5 times a power of ten) at least `raw`.
pub fn nice_step(raw: f64) -> f64 {
    if !(raw.is_finite() && raw > 0.0) {
        return 1.0;
    }
    let e = 10f64.powf(raw.log10().floor());
    let f = raw / e;
    let n = if f <= 1.0 + 1e-9 {
        1.0
    } else if f <= 2.0 + 1e-9 {
        2.0
    } else if f <= 5.0 + 1e-9 {
        5.0
    } else {
        10.0
    };
    n * e
}

/// Ticks at every multiple of a nice step from `lo` to `hi` (about `target` of them), as
/// (value, step).
pub fn ticks(lo: f64, hi: f64, target: usize) -> (Vec<f64>, f64) {
    let step = nice_step((hi - lo).max(1e-12) / target.max(1) as f64);
    (multiples(lo, hi, step), step)
}

/// Every multiple of `step` from `lo` to `hi`.
fn multiples(lo: f64, hi: f64, step: f64) -> Vec<f64> {
    let first = (lo / step - 1e-9).ceil() as i64;
    let last = (hi / step + 1e-9).floor() as i64;
    (first..=last).map(|k| k as f64 * step).collect()
}

/// A tick's label: as many decimals as its step needs, no "-0".
fn tick_text(v: f64, step: f64, percent: bool) -> String {
    let (v, step) = if percent {
        (v * 100.0, step * 100.0)
    } else {
        (v, step)
    };
    let decimals = (-step.log10().floor()).max(0.0) as usize;
    let v = if v.abs() < step * 1e-6 { 0.0 } else { v };
    let t = format!("{v:.decimals$}");
    if percent { format!("{t}%") } else { t }
}

/// Bars from zero on a horizontal axis from `lo` to `hi`, with whiskers for the intervals, a
/// reference line at `reference`, the values at the right (as percentages when `percent`),
/// ticks at every multiple of `step` (a nice step) and the axis titled `axis`.
#[allow(clippy::too_many_arguments)]
fn bars(
    class: &str,
    title: &str,
    axis: &str,
    rows: &[Bar],
    (lo, hi): (f64, f64),
    step: f64,
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
    let height = 58.0 + ROW * rows.len() as f64;
    let axis_y = height - 40.0;
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
    for v in multiples(lo, hi, step) {
        let _ = write!(
            s,
            r#"<line class="grid" x1="{0:.1}" y1="10" x2="{0:.1}" y2="{1:.1}"/><text class="tick" x="{0:.1}" y="{2:.1}">{3}</text>"#,
            x(v),
            axis_y,
            axis_y + 16.0,
            tick_text(v, step, percent)
        );
    }
    let _ = write!(
        s,
        r#"<line class="reference" x1="{0:.1}" y1="8" x2="{0:.1}" y2="{1:.1}"/><text class="axis-label" x="{2:.1}" y="{3:.1}">{4}</text>"#,
        x(reference),
        axis_y,
        left + (WIDTH - left - RIGHT) / 2.0,
        height - 6.0,
        esc(axis)
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
    let rows: Vec<Vec<String>> = rows
        .iter()
        .map(|r| vec![r.label.clone(), fmt(r.value), fmt(r.low), fmt(r.high)])
        .collect();
    table(&mut s, title, &["", axis, "95% interval from", "to"], &rows);
    s
}

/// Proportions (win rates) from 0 to 1 with their 95% intervals; the line marks one half.
pub fn rates(title: &str, rows: &[Bar]) -> String {
    bars(
        "rates",
        title,
        "Share of the games",
        rows,
        (0.0, 1.0),
        0.2,
        0.5,
        true,
    )
}

/// Differences with their 95% intervals, on an axis symmetric about zero that ends at a
/// tick; `axis` titles it (what is measured, in what unit).
pub fn differences(title: &str, axis: &str, rows: &[Bar], percent: bool) -> String {
    let m = rows
        .iter()
        .flat_map(|r| [r.low.abs(), r.high.abs(), r.value.abs()])
        .filter(|v| v.is_finite())
        .fold(0.0f64, f64::max)
        .max(if percent { 0.05 } else { 1.0 })
        * 1.05;
    // End the axis at a whole step, so that its ends are ticks too.
    let step = nice_step(2.0 * m / 6.0);
    let m = (m / step).ceil() * step;
    let class = if percent { "diffs" } else { "diffs-mean" };
    bars(class, title, axis, rows, (-m, m), step, 0.0, percent)
}

/// Quantile `q` of whole numbers given as sorted `(value, count)` pairs.
fn quantile(sorted: &[(u64, u64)], total: u64, q: f64) -> f64 {
    let rank = (q * (total.saturating_sub(1)) as f64).round() as u64;
    let mut seen = 0;
    for &(v, c) in sorted {
        seen += c;
        if seen > rank {
            return v as f64;
        }
    }
    sorted.last().map_or(0.0, |c| c.0 as f64)
}

/// The games a limit cut off: the limit and how many games reached it.
#[derive(Clone, Copy, Debug)]
pub struct CutOff {
    pub limit: u64,
    pub games: u64,
}

/// The most bins a histogram draws (a wider nice bin is taken beyond it).
const MAX_BINS: u64 = 60;

/// A histogram of whole-number values (`(value, count)` pairs) such as game lengths. The
/// games `cut_off` by the turn limit get a bar of their own at the right, so that their long tail does not squeeze the rest; the others are
/// binned by the Freedman–Diaconis rule (width twice the interquartile range over the cube
/// root of their number), rounded up to a nice width. Ticks at nice steps on both axes.
pub fn histogram(
    title: &str,
    x_label: &str,
    counts: &[(u64, u64)],
    cut_off: Option<CutOff>,
) -> String {
    let mut body: Vec<(u64, u64)> = counts.iter().copied().filter(|c| c.1 > 0).collect();
    body.sort_unstable();
    // The games cut off stand at the limit or beyond; a game that ended there by its rules
    // stays in the body. Take them from the longest down.
    let mut at_limit = 0;
    if let Some(c) = cut_off {
        for (_, n) in body.iter_mut().rev().take_while(|(v, _)| *v >= c.limit) {
            let k = (*n).min(c.games - at_limit);
            *n -= k;
            at_limit += k;
        }
        body.retain(|c| c.1 > 0);
    }
    let n: u64 = body.iter().map(|c| c.1).sum();
    if n == 0 && at_limit == 0 {
        return String::new();
    }
    let (min, max) = (
        body.first().map_or(0, |c| c.0),
        body.last().map_or(0, |c| c.0),
    );
    let iqr = quantile(&body, n, 0.75) - quantile(&body, n, 0.25);
    let fd = 2.0 * iqr / (n.max(1) as f64).cbrt();
    // A tail longer than the body (the longest 1% spread further than the other 99%) is
    // summarised in one bar, so that the body's bins are not widened to reach it.
    let p99 = quantile(&body, n, 0.99) as u64;
    let cap = if max - min > 2 * (p99 - min).max(1) {
        p99
    } else {
        max
    };
    let mut width = nice_step(fd.max(1.0)) as u64;
    let start = |w: u64| min / w * w;
    while (cap - start(width)) / width + 1 > MAX_BINS {
        width = nice_step(width as f64 * 1.01) as u64;
    }
    let first = start(width);
    let nbins = if n == 0 {
        0
    } else {
        ((cap - first) / width + 1) as usize
    };
    let mut bins = vec![0u64; nbins];
    let (mut tail, mut tail_min) = (0u64, u64::MAX);
    for &(v, c) in &body {
        let i = ((v - first) / width) as usize;
        if i < nbins {
            bins[i] += c;
        } else {
            tail += c;
            tail_min = tail_min.min(v);
        }
    }
    let body_n = n - tail;
    let body_max = body
        .iter()
        .map(|c| c.0)
        .filter(|&v| v < tail_min)
        .max()
        .unwrap_or(min);
    let bin_label = |i: usize| {
        let lo = first + i as u64 * width;
        if width == 1 {
            lo.to_string()
        } else {
            format!("{lo}–{}", lo + width - 1)
        }
    };
    let top = bins
        .iter()
        .copied()
        .chain([at_limit, tail])
        .max()
        .unwrap_or(1)
        .max(1);
    let (y_ticks, y_step) = ticks(0.0, top as f64, 4);
    let y_top = y_ticks.last().copied().unwrap_or(1.0).max(top as f64);
    let (height, left, bottom) = (290.0, 64.0, 58.0);
    // The tail's and the limit's bars stand apart at the right.
    let limit_w = 90.0 * (u8::from(at_limit > 0) + u8::from(tail > 0)) as f64;
    let plot_w = WIDTH - left - 20.0 - limit_w;
    let plot_h = height - bottom - 14.0;
    let base = 14.0 + plot_h;
    let y = |c: f64| base - c / y_top * plot_h;
    let bw = plot_w / nbins.max(1) as f64;
    let mut desc = if body_n > 0 {
        format!(
            "{body_n} games from {min} to {body_max} {x_label}, in bins of {width} (Freedman–Diaconis)"
        )
    } else {
        String::new()
    };
    if tail > 0 {
        let _ = write!(
            desc,
            "; {tail} longer games, {tail_min} to {max} {x_label}, in one bar"
        );
    }
    if let (Some(CutOff { limit: l, .. }), true) = (cut_off, at_limit > 0) {
        if !desc.is_empty() {
            desc.push_str("; ");
        }
        let _ = write!(
            desc,
            "{at_limit} games cut off at the limit of {l} {x_label}"
        );
    }
    let mut s = String::new();
    open(&mut s, "histogram", height, title, &desc);
    for v in &y_ticks {
        let _ = write!(
            s,
            r#"<line class="grid" x1="{left}" y1="{0:.1}" x2="{1:.1}" y2="{0:.1}"/><text class="tick y" x="{2:.1}" y="{3:.1}">{4}</text>"#,
            y(*v),
            WIDTH - 20.0,
            left - 6.0,
            y(*v) + 4.0,
            tick_text(*v, y_step, false)
        );
    }
    for (i, &c) in bins.iter().enumerate() {
        let _ = write!(
            s,
            r#"<rect class="bar" x="{:.1}" y="{:.1}" width="{:.1}" height="{:.1}"><title>{}: {c} games</title></rect>"#,
            left + i as f64 * bw + 0.5,
            y(c as f64),
            (bw - 1.0).max(0.5),
            base - y(c as f64),
            bin_label(i),
        );
    }
    if nbins > 0 {
        let span = (nbins as u64 * width) as f64;
        let x = |v: f64| left + (v - first as f64) / span * plot_w;
        let (marks, step) = ticks(first as f64, (first + nbins as u64 * width) as f64, 6);
        for v in marks {
            let _ = write!(
                s,
                r#"<line class="axis" x1="{0:.1}" y1="{base:.1}" x2="{0:.1}" y2="{1:.1}"/><text class="tick" x="{0:.1}" y="{2:.1}">{3}</text>"#,
                x(v),
                base + 4.0,
                base + 18.0,
                tick_text(v, step, false)
            );
        }
    }
    let _ = write!(
        s,
        r#"<line class="axis" x1="{left}" y1="{base:.1}" x2="{:.1}" y2="{base:.1}"/><line class="axis" x1="{left}" y1="14" x2="{left}" y2="{base:.1}"/><text class="axis-label" x="{:.1}" y="{:.1}">{}</text><text class="axis-label" transform="translate(16 {:.1}) rotate(-90)">Games</text>"#,
        left + plot_w,
        left + plot_w / 2.0,
        height - 8.0,
        esc(&format!("Length in {x_label}")),
        14.0 + plot_h / 2.0,
    );
    let mut rows: Vec<Vec<String>> = bins
        .iter()
        .enumerate()
        .map(|(i, c)| vec![bin_label(i), c.to_string()])
        .collect();
    // The bars that stand apart: (games, first line, second line, tooltip, table row).
    let mut apart: Vec<(u64, String, String, String, String)> = vec![];
    if tail > 0 {
        apart.push((
            tail,
            "longer".into(),
            format!("({tail_min}–{max})"),
            format!("longer games, {tail_min} to {max} {x_label}: {tail} games"),
            format!("longer, {tail_min}–{max}"),
        ));
    }
    if let (Some(CutOff { limit: l, .. }), true) = (cut_off, at_limit > 0) {
        apart.push((
            at_limit,
            "limit".into(),
            format!("({l})"),
            format!("cut off at the limit ({l}): {at_limit} games"),
            format!("cut off at the limit ({l})"),
        ));
    }
    for (k, (games, line1, line2, tip, row)) in apart.into_iter().enumerate() {
        let x0 = WIDTH - 20.0 - limit_w + 24.0 + 90.0 * k as f64;
        let bar_w = 90.0 - 34.0;
        let _ = write!(
            s,
            r#"<rect class="bar {class}" x="{x0:.1}" y="{:.1}" width="{bar_w:.1}" height="{:.1}"><title>{}</title></rect><text class="tick" x="{:.1}" y="{:.1}">{games}</text><text class="tick" x="{:.1}" y="{:.1}">{}</text><text class="tick" x="{:.1}" y="{:.1}">{}</text>"#,
            y(games as f64),
            base - y(games as f64),
            esc(&tip),
            x0 + bar_w / 2.0,
            y(games as f64) - 4.0,
            x0 + bar_w / 2.0,
            base + 18.0,
            esc(&line1),
            x0 + bar_w / 2.0,
            base + 32.0,
            esc(&line2),
            class = if line1 == "limit" { "limit" } else { "tail" },
        );
        rows.push(vec![row, games.to_string()]);
    }
    s.push_str("</svg>");
    table(
        &mut s,
        title,
        &[&format!("Length in {x_label}"), "Games"],
        &rows,
    );
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_histogram_counts_every_game_once() {
        let svg = histogram("t", "turns", &[(3, 2), (4, 1), (100, 5)], None);
        assert!(svg.contains("8 games from 3 to 100 turns"));
        let bars: u64 = svg
            .split("<td>")
            .skip(1)
            .map(|c| c.split('<').next().unwrap().parse::<u64>().unwrap())
            .sum();
        assert_eq!(bars, 8, "{svg}");
    }

    /// A few very long games (not cut off) are summarised in one bar of their own: the body
    /// keeps bins of its own width, not 99.9% of the games in four bars reaching to the tail.
    #[test]
    fn a_long_tail_is_summarised_not_binned() {
        let mut counts: Vec<(u64, u64)> = (20..220).map(|v| (v, 10)).collect();
        counts.push((2300, 5));
        let svg = histogram("t", "turns", &counts, None);
        assert!(
            svg.contains(
                "2000 games from 20 to 219 turns, in bins of 20 (Freedman–Diaconis); 5 longer \
                 games, 2300 to 2300 turns, in one bar"
            ),
            "{svg}"
        );
        assert!(svg.contains("<th scope=\"row\">20–39</th><td>200</td>"));
        assert!(svg.contains("<th scope=\"row\">longer, 2300–2300</th><td>5</td>"));
        // Ten bins of the body and the tail's bar.
        assert_eq!(svg.matches("<rect").count(), 10 + 1);
        // The table is inside a hidden div, which (unlike a table) takes its 1 px width.
        assert!(svg.contains("<div class=\"visually-hidden\"><table class=\"chart-data\">"));
    }

    /// A long tail of games cut off at the turn limit has a bar of its own, and the rest are
    /// binned by Freedman–Diaconis, not squeezed into two bars of 83 turns.
    #[test]
    fn games_at_the_turn_limit_stand_apart() {
        // 1,000 games of 20 to 119 turns, and 300 cut off at 2,500.
        let mut counts: Vec<(u64, u64)> = (20..120).map(|v| (v, 10)).collect();
        counts.push((2500, 300));
        let svg = histogram(
            "t",
            "turns",
            &counts,
            Some(CutOff {
                limit: 2500,
                games: 300,
            }),
        );
        assert!(
            svg.contains("1000 games from 20 to 119 turns, in bins of 10 (Freedman–Diaconis)"),
            "{svg}"
        );
        assert!(svg.contains("300 games cut off at the limit of 2500 turns"));
        assert!(svg.contains("<th scope=\"row\">cut off at the limit (2500)</th><td>300</td>"));
        // Quartiles 45 and 94, n 1,000: 2 * 49 / 10 = 9.8, rounded up to the nice 10 (the
        // old equal bins from 20 to 2,500 were 83 wide, the body all in the first two).
        assert!(svg.contains("<th scope=\"row\">20–29</th><td>100</td>"));
        assert_eq!(svg.matches("<rect").count(), 10 + 1);
        // Ticks every 20 turns along the body, and nice steps of games up the side.
        for t in [
            ">20</text>",
            ">40</text>",
            ">120</text>",
            ">0</text>",
            ">100</text>",
            ">300</text>",
        ] {
            assert!(svg.contains(t), "no tick {t}");
        }
        assert!(svg.contains(">Length in turns</text>") && svg.contains(">Games</text>"));
    }

    /// Difference charts tick at steps of 1, 2 or 5 times a power of ten, and end at a tick.
    #[test]
    fn differences_tick_at_nice_steps() {
        let rows = [Bar {
            label: "b".into(),
            value: -0.2,
            low: -0.27,
            high: -0.13,
        }];
        let svg = differences("t", "Difference in percentage points", &rows, true);
        let ticks: Vec<&str> = svg
            .split("class=\"tick\"")
            .skip(1)
            .map(|t| t.split('>').nth(1).unwrap().split('<').next().unwrap())
            .collect();
        assert_eq!(ticks, ["-30%", "-20%", "-10%", "0%", "10%", "20%", "30%"]);
        let rows = [Bar {
            label: "b".into(),
            value: 40.0,
            low: 30.1,
            high: 49.37,
        }];
        let svg = differences("t", "turns", &rows, false);
        let ticks: Vec<&str> = svg
            .split("class=\"tick\"")
            .skip(1)
            .map(|t| t.split('>').nth(1).unwrap().split('<').next().unwrap())
            .collect();
        assert_eq!(ticks, ["-60", "-40", "-20", "0", "20", "40", "60"]);
    }

    #[test]
    fn nice_steps() {
        assert_eq!(nice_step(0.7), 1.0);
        assert_eq!(nice_step(1.3), 2.0);
        assert_eq!(nice_step(83.0), 100.0);
        assert_eq!(nice_step(4.0), 5.0);
        assert_eq!(ticks(0.0, 1.0, 5).0.len(), 6);
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
        assert!(svg.starts_with("<svg") && svg.ends_with("</table></div>"));
        assert!(svg.contains(
            "<th scope=\"row\">First mover</th><td>60.0%</td><td>50.0%</td><td>70.0%</td>"
        ));
    }
}
