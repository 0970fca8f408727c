//! Boards drawn as SVG: the four rows of holes of the sowing games, and the points and lines
//! of the line games. Every hole is an element with `data-hole="ROW,HOLE"` (every point with
//! `data-point="d5"`) showing its count, so the play page's script can update and click it.

use serde_json::Value;
use std::fmt::Write;
use tsoro_engine::catalogue::{self, Kind, Params};
use tsoro_engine::morris::{Board, BoardKind};
use tsoro_engine::notation::{Hole, Row};
use tsoro_engine::replay::{ReplayRequest, replay};

/// Rows from top to bottom as A sees the board: B's back and front rows, then A's.
const ROWS: [Row; 4] = [Row::Iv, Row::Iii, Row::Ii, Row::I];
const CELL: usize = 44;
/// Height of a row: a hole and its name beneath it.
const ROW_H: usize = 56;
const MARGIN: usize = 44;

/// What board a ruleset is played on.
#[derive(Clone, Debug)]
pub enum BoardShape {
    /// Four rows of this many holes.
    Rows(usize),
    /// A line-game board.
    Points(BoardKind),
}

/// The board of a ruleset with these parameters (`None` for a model without one).
pub fn shape_of(id: &str, params: &Params) -> Option<BoardShape> {
    let def = catalogue::get(id).ok()?;
    let config = def.resolve(params).ok()?;
    match def.kind {
        Kind::Sowing => Some(BoardShape::Rows(config.get("holes")?.as_u64()? as usize)),
        Kind::Morris => Some(BoardShape::Points(
            serde_json::from_value(config.get("board")?.clone()).ok()?,
        )),
        Kind::Nhodo => None,
    }
}

/// A ruleset's start position (default parameters) drawn, and the heads it marks.
pub struct StartBoard {
    /// The board as SVG.
    pub svg: String,
    /// Each player's heads at the start, by hole name (`("A", ["i,7", "i,8"])`); only the
    /// players that have some.
    pub heads: Vec<(&'static str, Vec<String>)>,
}

/// The start position of a ruleset (default parameters): the board and its heads.
pub fn start_board(id: &str) -> Option<StartBoard> {
    let params = Params::new();
    let shape = shape_of(id, &params)?;
    let out = replay(&ReplayRequest {
        ruleset: id.to_string(),
        params,
        actions: vec![],
    })
    .ok()?;
    let state = out.states.first()?;
    Some(StartBoard {
        svg: board_svg(&shape, state, id),
        heads: ["A", "B"]
            .into_iter()
            .map(|p| (p, heads_of(state, p)))
            .filter(|(_, h)| !h.is_empty())
            .collect(),
    })
}

/// The start position of a ruleset (default parameters) as an SVG board.
pub fn start_board_svg(id: &str) -> Option<String> {
    start_board(id).map(|b| b.svg)
}

/// A board in a state (as the replay endpoint gives it), with a title for screen readers.
pub fn board_svg(shape: &BoardShape, state: &Value, label: &str) -> String {
    match shape {
        BoardShape::Rows(n) => rows_svg(*n, state, label),
        BoardShape::Points(kind) => points_svg(*kind, state, label),
    }
}

/// Which way a row is sown, left to right (`true`) or right to left, as its owner's sowing
/// cycle runs through it (the engine's track order, not a separate table).
pub fn sows_rightwards(row: Row, n: u8) -> bool {
    n < 2 || Hole::new(row, 1).track(n) < Hole::new(row, 2).track(n)
}

/// The sowing direction in words, as seen from above with A's rows below: each side's cycle
/// runs along its back row and returns along its front row.
pub fn direction_words(n: u8) -> String {
    // A's back row i lies below his front row ii: rightwards along the bottom is anticlockwise.
    let turn = if sows_rightwards(Row::I, n) {
        "anticlockwise"
    } else {
        "clockwise"
    };
    let way = |r: Row| {
        if sows_rightwards(r, n) {
            "left to right"
        } else {
            "right to left"
        }
    };
    format!(
        "Each side sows {turn} around its own two rows: A along row i {} then row ii {}; B \
         along row iv {} then row iii {}.",
        way(Row::I),
        way(Row::Ii),
        way(Row::Iv),
        way(Row::Iii)
    )
}

/// The heads of `player` in a state, by hole name.
fn heads_of(state: &Value, player: &str) -> Vec<String> {
    state
        .pointer(&format!("/heads/{player}"))
        .and_then(Value::as_array)
        .map(|a| {
            a.iter()
                .filter_map(Value::as_str)
                .map(str::to_string)
                .collect()
        })
        .unwrap_or_default()
}

/// The heads of both players in a state: (hole, player).
fn all_heads(state: &Value) -> Vec<(String, &'static str)> {
    ["A", "B"]
        .into_iter()
        .flat_map(|p| heads_of(state, p).into_iter().map(move |h| (h, p)))
        .collect()
}

/// One hole: its ring (a head's mark), pit, count and name. `(x, y)` is its centre, `r` the
/// pit's radius; the name is drawn at `(nx, ny)` with the anchor `anchor`.
struct HoleAt {
    x: usize,
    y: usize,
    r: usize,
    nx: usize,
    ny: usize,
    anchor: &'static str,
}

fn hole_svg(s: &mut String, name: &str, count: u64, head: Option<&str>, at: &HoleAt) {
    let HoleAt {
        x,
        y,
        r,
        nx,
        ny,
        anchor,
    } = at;
    let _ = write!(
        s,
        r#"<g class="hole{hc}" data-hole="{name}" data-count="{count}"{ha} role="img" aria-label="{name}: {count} {stones}{hl}"><circle class="ring" cx="{x}" cy="{y}" r="{ring}"/><circle class="pit" cx="{x}" cy="{y}" r="{r}"/><text class="count" x="{x}" y="{ty}">{count}</text><text class="name" x="{nx}" y="{ny}" text-anchor="{anchor}">{name}</text></g>"#,
        hc = if head.is_some() { " head" } else { "" },
        ha = head.map_or(String::new(), |p| format!(r#" data-head="{p}""#)),
        hl = head.map_or(String::new(), |p| format!(", {p}'s head")),
        stones = if count == 1 { "stone" } else { "stones" },
        ring = r + 4,
        ty = y + 5,
    );
}

/// The count of a hole in a state (0 when the state has none).
fn count_of(state: &Value, row: &str, h: usize) -> u64 {
    state
        .pointer(&format!("/board/{row}"))
        .and_then(|c| c.get(h - 1))
        .and_then(Value::as_u64)
        .unwrap_or(0)
}

fn rows_svg(n: usize, state: &Value, label: &str) -> String {
    let width = MARGIN + n * CELL + 8;
    let height = 4 * ROW_H + 18;
    let heads = all_heads(state);
    let mut s = String::new();
    // Scaled to its box; the play page turns a board too wide for a phone (`turned_rows_svg`).
    let _ = write!(
        s,
        r#"<svg class="board rows" viewBox="0 0 {width} {height}" style="max-width: {max}px" data-holes="{n}" role="group" aria-label="{label}: four rows of {n} holes, B's rows iv and iii above, A's rows ii and i below" xmlns="http://www.w3.org/2000/svg">"#,
        max = width * 3 / 2,
    );
    // The two sides.
    let _ = write!(
        s,
        r#"<rect class="side side-b" x="{MARGIN}" y="2" width="{w}" height="{h}" rx="10"/><rect class="side side-a" x="{MARGIN}" y="{y}" width="{w}" height="{h}" rx="10"/>"#,
        w = n * CELL,
        h = 2 * ROW_H,
        y = 2 * ROW_H + 14,
    );
    for (r, &row) in ROWS.iter().enumerate() {
        let name = row.to_string();
        let y = 2 + r * ROW_H + ROW_H / 2 - 6 + if r >= 2 { 12 } else { 0 };
        let (arrow, way) = if sows_rightwards(row, n as u8) {
            ("→", "left to right")
        } else {
            ("←", "right to left")
        };
        let _ = write!(
            s,
            r#"<text class="row-label" x="4" y="{}">{name}</text><text class="sow-arrow" data-row="{name}" x="4" y="{}"><title>row {name} is sown {way}</title>{arrow}</text>"#,
            y - 2,
            y + 16,
        );
        for h in 1..=n {
            let x = MARGIN + (h - 1) * CELL + CELL / 2;
            let hole = format!("{name},{h}");
            let head = heads.iter().find(|(k, _)| *k == hole).map(|(_, p)| *p);
            let at = HoleAt {
                x,
                y,
                r: 17,
                nx: x,
                ny: y + 33,
                anchor: "middle",
            };
            hole_svg(&mut s, &hole, count_of(state, &name, h), head, &at);
        }
    }
    s.push_str("</svg>");
    s
}

/// Width of a column of the turned board: a hole and its name beside it.
const COL_W: usize = 74;
/// Distance between holes down a column of the turned board.
const PITCH: usize = 34;
/// Space above the turned board's holes for the rows' names and arrows.
const TOP: usize = 36;

/// The same board turned a quarter clockwise, for a narrow screen: the rows are columns, i,
/// ii (A's) on the left and iii, iv (B's) on the right, hole 1 at the top. Its holes are the
/// same elements (`data-hole`) as [`board_svg`]'s, so the play page may show either.
pub fn turned_rows_svg(n: usize, state: &Value, label: &str) -> String {
    const GAP: usize = 10;
    let width = 4 + 4 * COL_W + GAP + 4;
    let height = TOP + n * PITCH + 8;
    let heads = all_heads(state);
    let mut s = String::new();
    let _ = write!(
        s,
        r#"<svg class="board rows turned" viewBox="0 0 {width} {height}" style="aspect-ratio: {width} / {height}; height: min({mh}px, calc(100svh - 16rem), calc((100vw - 2.5rem) * {ratio:.4}))" data-holes="{n}" role="group" aria-label="{label}: four rows of {n} holes turned to columns, A's rows i and ii on the left, B's rows iii and iv on the right, hole 1 at the top" xmlns="http://www.w3.org/2000/svg">"#,
        mh = height * 3 / 2,
        ratio = height as f64 / width as f64,
    );
    let side_h = n * PITCH + 8;
    let _ = write!(
        s,
        r#"<rect class="side side-a" x="4" y="{y}" width="{w}" height="{side_h}" rx="10"/><rect class="side side-b" x="{xb}" y="{y}" width="{w}" height="{side_h}" rx="10"/>"#,
        y = TOP - 4,
        w = 2 * COL_W,
        xb = 4 + 2 * COL_W + GAP,
    );
    for (c, &row) in [Row::I, Row::Ii, Row::Iii, Row::Iv].iter().enumerate() {
        let name = row.to_string();
        let left = 4 + c * COL_W + if c >= 2 { GAP } else { 0 };
        let (arrow, way) = if sows_rightwards(row, n as u8) {
            ("↓", "from hole 1 down")
        } else {
            ("↑", "up towards hole 1")
        };
        let _ = write!(
            s,
            r#"<text class="row-label" x="{}" y="20">{name}</text><text class="sow-arrow" data-row="{name}" x="{}" y="21"><title>row {name} is sown {way}</title>{arrow}</text>"#,
            left + 8,
            left + 38,
        );
        for h in 1..=n {
            let x = left + 22;
            let y = TOP + (h - 1) * PITCH + PITCH / 2;
            let hole = format!("{name},{h}");
            let head = heads.iter().find(|(k, _)| *k == hole).map(|(_, p)| *p);
            let at = HoleAt {
                x,
                y,
                r: 12,
                nx: x + 19,
                ny: y + 4,
                anchor: "start",
            };
            hole_svg(&mut s, &hole, count_of(state, &name, h), head, &at);
        }
    }
    s.push_str("</svg>");
    s
}

/// Where a point is drawn: (x, y) in the board's grid units, y up.
fn grid(kind: BoardKind) -> (usize, usize) {
    match kind {
        BoardKind::Twelve => (7, 7),
        BoardKind::Square | BoardKind::SquarePlain => (3, 3),
        BoardKind::Triangle => (5, 3),
    }
}

fn points_svg(kind: BoardKind, state: &Value, label: &str) -> String {
    let b = Board::new(kind);
    let (cols, rows) = grid(kind);
    let unit = 56;
    let pad = 30;
    let (w, h) = ((cols - 1) * unit + 2 * pad, (rows - 1) * unit + 2 * pad);
    let at = |sq: tsoro_engine::morris::Square| {
        (
            pad + sq.col() as usize * unit,
            pad + (rows - 1 - sq.row() as usize) * unit,
        )
    };
    let owner = |name: &str| -> &'static str {
        for (key, class) in [("A", "A"), ("B", "B"), ("cancelled", "cancelled")] {
            if state
                .pointer(&format!("/board/{key}"))
                .and_then(Value::as_array)
                .is_some_and(|a| a.iter().any(|v| v.as_str() == Some(name)))
            {
                return class;
            }
        }
        ""
    };
    let mut s = String::new();
    let _ = write!(
        s,
        r#"<svg class="board points" viewBox="0 0 {w} {h}" role="group" aria-label="{label}: a board of {} points" xmlns="http://www.w3.org/2000/svg">"#,
        b.points.len()
    );
    for &line in &b.lines {
        let mut pts: Vec<(usize, usize)> = (0..b.points.len())
            .filter(|i| line & (1 << i) != 0)
            .map(|i| at(b.points[i]))
            .collect();
        pts.sort();
        if let (Some(first), Some(last)) = (pts.first(), pts.last()) {
            let _ = write!(
                s,
                r#"<line class="line" x1="{}" y1="{}" x2="{}" y2="{}"/>"#,
                first.0, first.1, last.0, last.1
            );
        }
    }
    for &sq in &b.points {
        let (x, y) = at(sq);
        let name = sq.to_string();
        let o = owner(&name);
        let count = usize::from(!o.is_empty() && o != "cancelled");
        let _ = write!(
            s,
            r#"<g class="point {o}" data-point="{name}" data-owner="{o}" data-count="{count}" role="img" aria-label="{name}: {}"><circle cx="{x}" cy="{y}" r="15"/><text class="count" x="{x}" y="{}">{}</text><text class="name" x="{}" y="{}">{name}</text></g>"#,
            if o.is_empty() { "empty" } else { o },
            y + 5,
            if o.is_empty() { "" } else { o },
            x + 17,
            y + 24,
        );
    }
    s.push_str("</svg>");
    s
}
