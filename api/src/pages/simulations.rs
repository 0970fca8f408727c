//! `/simulations/new` (the form), `/simulations/{id}` (live progress, then the results with
//! their charts) and `/comparisons/{id}`, over the jobs API (`crate::jobs`).

use super::charts::{self, Bar};
use super::job_page::{self, Link, params_text, ruleset_title, run_links};
use super::{Page, PageError, html, missing, value_text};
use crate::http::problem::Problem;
use crate::http::state::AppState;
use crate::jobs::export;
use crate::jobs::paired::{PairedCache, PairedDifference};
use crate::jobs::status::JobStatus;
use crate::jobs::store::{self, JobRow};
use crate::settings::JobSettings;
use actix_web::{HttpRequest, web};
use askama::Template;
use serde_json::Value;
use tsoro_engine::catalogue::Kind;
use tsoro_engine::stats::Stats;
use tsoro_engine::stats::interval::wilson_score;
use tsoro_engine::stats::paired::p_text;
use uuid::Uuid;

/// Registers the pages (`new` before `{id}`).
pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.service(web::resource("/simulations/new").route(web::get().to(new)))
        .service(web::resource("/simulations/{id}").route(web::get().to(show)))
        .service(web::resource("/simulations/{id}/game").route(web::get().to(game)))
        .service(web::resource("/comparisons/{id}").route(web::get().to(comparison)));
}

type St = web::Data<AppState>;

/// The agents the form offers (any name the API takes may be typed too).
pub const AGENTS: &[&str] = &[
    "random",
    "greedy",
    "alphabeta:1",
    "alphabeta:2",
    "alphabeta:3",
    "alphabeta:2:mobility",
    "mcts:100",
    "mcts:1000",
];

#[derive(Template)]
#[template(path = "simulation_new.html")]
struct NewPage {
    /// (id, title, whether nhodo) of every ruleset a job can run (nhodo's run as nhodo
    /// jobs, with no agents).
    rulesets: Vec<(String, String, bool)>,
    chosen: String,
    agents: &'static [&'static str],
    /// Every ruleset's parameters, for the form's script.
    params_json: String,
    max_games: u64,
    /// Whether starting a job needs a token (the form then asks for one).
    token_needed: bool,
}

async fn new(req: HttpRequest, state: St, limits: web::Data<crate::settings::JobSettings>) -> Page {
    let token_needed = !crate::http::access::anonymous_writes_open(&req, &state.pool).await;
    let chosen = web::Query::<Vec<(String, String)>>::from_query(req.query_string())
        .ok()
        .and_then(|q| q.into_inner().into_iter().find(|(k, _)| k == "ruleset"))
        .map(|(_, v)| v)
        .unwrap_or_else(|| "tsoro-matthews-basic".into());
    let defs = super::order::catalogue_in_order(&state.pool).await?;
    let params: serde_json::Map<String, Value> = defs
        .iter()
        .map(|d| {
            (
                d.id.clone(),
                Value::Array(d.params.iter().map(super::params::spec_json).collect()),
            )
        })
        .collect();
    html(&NewPage {
        rulesets: defs
            .iter()
            .map(|d| (d.id.clone(), d.title.clone(), d.kind == Kind::Nhodo))
            .collect(),
        chosen,
        agents: AGENTS,
        params_json: Value::Object(params).to_string().replace("</", "<\\/"),
        max_games: limits.max_games,
        token_needed,
    })
}

#[derive(Template)]
#[template(path = "simulation.html")]
struct SimulationPage {
    job: JobRow,
    /// Why it cannot progress now (the disk is full), while it has not ended.
    paused: Option<crate::jobs::view::Paused>,
    title: String,
    params: String,
    percent: u32,
    /// Games played (stored, or ended in a chunk in play).
    games_done: i64,
    /// What it should take, from its estimate (while queued or running).
    estimate: Option<String>,
    finished: bool,
    done: bool,
    command: String,
    charts: Vec<Chart>,
    /// Each agent's result, in words (the headline).
    headline: Vec<String>,
    /// Each agent's games and wins in each seat.
    seats: Vec<SeatLine>,
    /// Whether one agent played both seats (the first-mover and balance figures then
    /// describe the game; otherwise they mix the agents' strengths in).
    same_agents: bool,
    /// (name, value) rows.
    figures: Vec<(String, String)>,
    ludii: Vec<(String, String)>,
    reasons: Vec<(String, u64)>,
    links: Vec<Link>,
    comparison: Option<String>,
}

fn parse(raw: &str, what: &str) -> Result<Uuid, PageError> {
    raw.parse::<Uuid>().map_err(|_| missing(what, raw))
}

/// The `tsoro simulate` command that plays the same games.
pub fn command_line(job: &JobRow) -> String {
    let mut cmd = format!(
        "tsoro simulate --ruleset {} --agents {} --games {} --seed {}",
        job.ruleset,
        job.agents.join(","),
        job.games,
        job.seed
    );
    if let Some(p) = job.params.as_object() {
        for (k, v) in p {
            cmd.push_str(&format!(" --param {k}={}", value_text(v)));
        }
    }
    if !job.swap_seats {
        cmd.push_str(" --fixed-seats");
    }
    cmd.push_str(" --csv games.csv --summary summary.csv");
    cmd
}

pub(super) fn pct(v: f64) -> String {
    format!("{:.1}%", v * 100.0)
}

pub(super) fn bar(label: impl Into<String>, value: f64, low: f64, high: f64) -> Bar {
    Bar {
        label: label.into(),
        value,
        low,
        high,
    }
}

/// The length counts of a finished job (`turns` value, games), from its stored summary.
pub(super) fn length_counts(job: &JobRow, key: &str) -> Vec<(u64, u64)> {
    job.summary
        .as_ref()
        .and_then(|s| s.pointer(&format!("/{key}/counts")))
        .and_then(Value::as_object)
        .map(|o| {
            o.iter()
                .filter_map(|(k, v)| Some((k.parse().ok()?, v.as_u64()?)))
                .collect()
        })
        .unwrap_or_default()
}

/// A chart's caption and its SVG.
type Chart = (String, String);

/// One agent's games and wins in each seat.
struct SeatLine {
    agent: String,
    as_a: String,
    as_b: String,
    all: String,
}

/// `wins of games (rate)`.
fn record_text(wins: u64, games: u64) -> String {
    if games == 0 {
        "no games".to_string()
    } else {
        format!("{wins} of {games} ({})", pct(wins as f64 / games as f64))
    }
}

/// Each agent's results in words, and in each seat.
fn agent_results(st: &Stats) -> (Vec<String>, Vec<SeatLine>) {
    let n = st.games;
    let headline = st
        .agents
        .iter()
        .enumerate()
        .map(|(i, a)| {
            // Score: a win counts 1, a draw ½.
            let score = a.wins as f64 + st.draws.count as f64 / 2.0;
            let ci = wilson_score(score, n);
            format!(
                "Agent {} ({}) won {} of {} games ({}, 95% interval {} to {}); its score, with a draw as half a win, is {} (95% interval {} to {}).",
                i + 1,
                a.name,
                a.wins,
                n,
                pct(a.win_rate),
                pct(a.ci.low),
                pct(a.ci.high),
                pct(if n == 0 { 0.0 } else { score / n as f64 }),
                pct(ci.low),
                pct(ci.high)
            )
        })
        .collect();
    let seats = st
        .agents
        .iter()
        .enumerate()
        .map(|(i, a)| SeatLine {
            agent: format!("Agent {} ({})", i + 1, a.name),
            as_a: record_text(a.as_a.wins, a.as_a.games),
            as_b: record_text(a.as_b.wins, a.as_b.games),
            all: record_text(a.wins, n),
        })
        .collect();
    (headline, seats)
}

/// Named figures: (name, value in words).
type Figures = Vec<(String, String)>;

fn results(job: &JobRow, st: &Stats) -> (Vec<Chart>, Figures, Figures) {
    let same = same_agents(job);
    let mut rows = vec![
        bar(
            "First mover",
            st.first_mover.rate,
            st.first_mover.ci.low,
            st.first_mover.ci.high,
        ),
        bar(
            "Seat A",
            st.seat_a.rate,
            st.seat_a.ci.low,
            st.seat_a.ci.high,
        ),
        bar(
            "Seat B",
            st.seat_b.rate,
            st.seat_b.ci.low,
            st.seat_b.ci.high,
        ),
    ];
    if !same {
        // The seats' and the first mover's rates mix the agents' strengths in.
        rows.clear();
    }
    for (i, a) in st.agents.iter().enumerate() {
        rows.push(bar(
            format!("Agent {} ({})", i + 1, a.name),
            a.win_rate,
            a.ci.low,
            a.ci.high,
        ));
    }
    rows.push(bar(
        "Draws",
        st.draws.rate,
        st.draws.ci.low,
        st.draws.ci.high,
    ));
    let title = "Win rates with their 95% intervals";
    let mut charts = vec![(title.to_string(), charts::rates(title, &rows))];
    let turns = length_counts(job, "turns");
    if !turns.is_empty() {
        let title = "How long the games lasted (turns)";
        charts.push((
            title.to_string(),
            charts::histogram(
                title,
                "turns",
                &turns,
                job.config
                    .pointer("/end/turn_limit")
                    .and_then(Value::as_u64)
                    .map(|limit| charts::CutOff {
                        limit,
                        games: st.reasons.get("turn_limit").copied().unwrap_or(0),
                    }),
            ),
        ));
    }
    let mut figures: Figures = vec![
        ("Games".into(), st.games.to_string()),
        (
            "Length in turns".into(),
            format!(
                "mean {:.1} (sd {:.1}), lower median {}, 10th–90th percentile {}–{} (nearest rank), from {} to {}",
                st.turns.mean,
                st.turns.sd,
                st.turns.median,
                st.turns.p10,
                st.turns.p90,
                st.turns.min,
                st.turns.max
            ),
        ),
        (
            "Length in Ludii moves".into(),
            format!(
                "mean {:.1}, lower median {}",
                st.moves.mean, st.moves.median
            ),
        ),
        (
            "Captures per game".into(),
            format!(
                "A {:.2}, B {:.2} (stones taken: A {:.2}, B {:.2})",
                st.captures_per_game[0],
                st.captures_per_game[1],
                st.stones_captured_per_game[0],
                st.stones_captured_per_game[1]
            ),
        ),
        (
            "Legal actions per decision".into(),
            format!("{:.2}", st.branching),
        ),
        ("Longest relay".into(), format!("{} laps", st.longest_relay)),
    ];
    if same {
        figures.push((
            "First mover wins".into(),
            format!(
                "{} ({}, 95% interval {}–{})",
                st.first_mover.count,
                pct(st.first_mover.rate),
                pct(st.first_mover.ci.low),
                pct(st.first_mover.ci.high)
            ),
        ));
    }
    let l = &st.ludii;
    let mut ludii: Figures = vec![];
    if same {
        ludii.push(("AdvantageP1".into(), format!("{:.4}", l.advantage_p1)));
        ludii.push(("Balance".into(), format!("{:.4}", l.balance)));
    }
    ludii.extend::<Figures>(vec![
        ("Completion".into(), format!("{:.4}", l.completion)),
        ("Drawishness".into(), format!("{:.4}", l.drawishness)),
        ("Timeouts".into(), format!("{:.4}", l.timeouts)),
        ("DurationTurns".into(), format!("{:.2}", l.duration_turns)),
        ("DurationMoves".into(), format!("{:.2}", l.duration_moves)),
        (
            "BranchingFactor".into(),
            format!("{:.3}", l.branching_factor),
        ),
        ("DecisionMoves".into(), format!("{:.4}", l.decision_moves)),
    ]);
    (charts, figures, ludii)
}

/// Whether one agent played both seats of a job.
fn same_agents(job: &JobRow) -> bool {
    job.agents.windows(2).all(|w| w[0] == w[1])
}

/// `?game=k`: which game of a simulation to open on the board.
#[derive(serde::Deserialize)]
struct GameQuery {
    game: u64,
}

/// Game k of a simulation on the play board, played again from the job's inputs and seed as
/// `GET /api/v1/simulations/{id}/games/{k}` plays it: in a CPU slot, under the request's time
/// budget and stopped if its client leaves ([`crate::compute::Slots`]), and kept in the same
/// cache of games played again.
async fn game(
    req: HttpRequest,
    state: St,
    slots: web::Data<crate::compute::Slots>,
    cache: web::Data<crate::jobs::game::GameCache>,
    id: web::Path<String>,
    q: web::Query<GameQuery>,
) -> Page {
    let uid = parse(&id, "simulation")?;
    let job = store::get_job(&state.pool, uid)
        .await
        .map_err(Problem::from)?
        .ok_or_else(|| missing("simulation", &id))?;
    let k = q.game;
    let body = match cache.get(job.id, k) {
        Some(body) => body,
        None => {
            let found = slots
                .run(move || crate::jobs::game::job_game(&job, k))
                .await
                .map_err(|e| crate::http::errors::compute(e, "game").at(req.path()))?
                .map_err(Problem::from)?;
            let body = std::sync::Arc::new(serde_json::to_vec(&found).map_err(Problem::internal)?);
            cache.put(uid, k, body.clone());
            body
        }
    };
    /// What the board needs of a game played again (the API's `JobGame`, as cached).
    #[derive(serde::Deserialize)]
    struct Played {
        ruleset: String,
        params: tsoro_engine::catalogue::Params,
        actions: Vec<Value>,
    }
    let found: Played = serde_json::from_slice(&body).map_err(Problem::internal)?;
    let def = tsoro_engine::catalogue::get(&found.ruleset).map_err(|_| missing("ruleset", &id))?;
    super::play::render(def, found.params, found.actions)
}

/// A duration in words: seconds under 90, else minutes under 90, else hours.
fn duration_text(seconds: f64) -> String {
    if seconds < 90.0 {
        format!("{} s", seconds.ceil().max(1.0))
    } else if seconds < 90.0 * 60.0 {
        format!("{} min", (seconds / 60.0).ceil())
    } else {
        format!("{:.1} h", seconds / 3600.0)
    }
}

/// What a job queued or running should take, in words, from the estimate it was admitted
/// with and the service's own worker threads: shown from the start, before any game has
/// ended (none once it has ended).
pub(super) fn estimate_text(job: &JobRow, limits: &JobSettings) -> Option<String> {
    if !matches!(job.status, JobStatus::Queued | JobStatus::Running) {
        return None;
    }
    let core_seconds = Some(job.estimated_cost).filter(|c| *c > 0.0)?;
    let threads = match limits.threads {
        0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
        t => t,
    };
    let cores = limits.workers * threads;
    let wall = if cores > 0 {
        format!(
            "; on this service's {cores} worker thread{}, about {} once it starts",
            if cores == 1 { "" } else { "s" },
            duration_text(core_seconds / cores as f64)
        )
    } else {
        String::new()
    };
    Some(format!(
        "Estimated at about {} of one core's play{wall} (before any game ends; then from \
         the games played).",
        duration_text(core_seconds)
    ))
}

async fn show(state: St, limits: web::Data<JobSettings>, id: web::Path<String>) -> Page {
    let uid = parse(&id, "simulation")?;
    let job = store::get_job(&state.pool, uid)
        .await
        .map_err(Problem::from)?
        .ok_or_else(|| missing("simulation", &id))?;
    let stats = export::stats_of(&job);
    let (charts, figures, ludii) = match &stats {
        Some(st) => results(&job, st),
        None => (vec![], vec![], vec![]),
    };
    let (headline, seats) = stats.as_ref().map(agent_results).unwrap_or_default();
    let api = format!("/api/v1/simulations/{}", job.id);
    let usage = job_page::usage(&state, &job).await?;
    let progress = crate::jobs::view::Progress::of(&job, &usage, chrono::Utc::now());
    let estimate = estimate_text(&job, &limits);
    let done = job.status == JobStatus::Done;
    let links = run_links(&api, done, "the job as JSON");
    html(&SimulationPage {
        title: ruleset_title(&job),
        estimate,
        params: params_text(&job),
        paused: crate::jobs::view::Paused::of(&job),
        percent: (progress.fraction * 100.0) as u32,
        games_done: progress.games_done,
        finished: job.status.is_ended(),
        done,
        command: command_line(&job),
        reasons: stats
            .as_ref()
            .map(|s| {
                s.reasons
                    .iter()
                    .map(|(k, v)| {
                        let words = tsoro_engine::EndReason::words_of(k);
                        (
                            words.map_or_else(|| k.replace('_', " "), str::to_string),
                            *v,
                        )
                    })
                    .collect()
            })
            .unwrap_or_default(),
        comparison: job.comparison_id.map(|c| format!("/comparisons/{c}")),
        charts,
        headline,
        seats,
        same_agents: same_agents(&job),
        figures,
        ludii,
        links,
        job,
    })
}

struct RunLine {
    url: String,
    ruleset: String,
    params: String,
    status: String,
    games_done: i64,
    games: i64,
    first_mover: String,
    draws: String,
    turns: String,
}

/// One row of the differences table: what is compared, the difference, its interval, the
/// games behind it, and the p-value.
struct DiffRow {
    /// "tsoro-ludii minus tsoro-matthews-basic".
    pair: String,
    measure: String,
    diff: String,
    interval: String,
    games: String,
    p: String,
}

#[derive(Template)]
#[template(path = "comparison.html")]
struct ComparisonPage {
    id: String,
    status: String,
    finished: bool,
    /// "random against greedy, seats swapped every other game".
    agents: String,
    seed: String,
    games: i64,
    /// The parameters asked for, or "each ruleset's defaults".
    params: String,
    /// The readings study's page, when the comparison is one.
    study: Option<String>,
    reference: String,
    runs: Vec<RunLine>,
    charts: Vec<Chart>,
    /// One sentence per later run: how many of its games are the reference's own.
    identical: Vec<String>,
    table: Vec<DiffRow>,
}

/// The parameters a comparison's request asked for, in words: those applied to every
/// ruleset (`name=value, ...`), each variant's own, or a readings study's parameters (whose
/// every choice is its own run).
fn asked_params(request: Option<&Value>) -> String {
    let listed = |o: &serde_json::Map<String, Value>| {
        o.iter()
            .map(|(k, v)| format!("{k}={}", value_text(v)))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let Some(r) = request else {
        return "each ruleset's defaults".into();
    };
    if let Some(study) = r.get("readings") {
        let names: Vec<String> = study["params"]
            .as_array()
            .map(|a| a.iter().map(value_text).collect())
            .unwrap_or_default();
        return format!(
            "each run's own: every choice of {} against the defaults (a readings study; each run's parameters in force are in the table)",
            names.join(", ")
        );
    }
    if r["variants"].as_array().is_some_and(|v| !v.is_empty()) {
        return "each variant's own (each run's parameters in force are in the table)".into();
    }
    match r.get("params").and_then(Value::as_object) {
        Some(o) if !o.is_empty() => listed(o),
        _ => "each ruleset's defaults".into(),
    }
}

/// The differences table and charts of a finished comparison, from its paired figures.
fn paired_results(
    paired: &[PairedDifference],
    first_agent: &str,
) -> (Vec<Chart>, Vec<DiffRow>, Vec<String>) {
    let mut table = vec![];
    let mut identical = vec![];
    let points = |v: f64| format!("{:+.1} points", v * 100.0);
    let number = |v: f64| format!("{v:+.2}");
    type Bars = Vec<Bar>;
    let (mut fm, mut aw, mut dr, mut tu, mut ca): (Bars, Bars, Bars, Bars, Bars) =
        Default::default();
    for d in paired {
        let p = &d.paired;
        let pair = format!("{} minus {}", d.ruleset, d.reference);
        identical.push(if p.identical == p.pairs {
            format!(
                "{}: all {} games are the same games as under {} (same seed, same play), so every difference below is exactly zero.",
                d.ruleset, p.pairs, d.reference
            )
        } else {
            format!(
                "{}: {} of {} games are the same games as under {}; the others differ.",
                d.ruleset, p.identical, p.pairs, d.reference
            )
        });
        for (measure, x, bars) in [
            ("first-mover win rate", &p.first_mover, &mut fm),
            (
                &*format!("{first_agent}'s win rate (agent 1)"),
                &p.first_agent_wins,
                &mut aw,
            ),
            ("draw rate", &p.draws, &mut dr),
        ] {
            bars.push(bar(&d.ruleset, x.diff, x.ci.low, x.ci.high));
            table.push(DiffRow {
                pair: pair.clone(),
                measure: measure.to_string(),
                diff: points(x.diff),
                interval: format!("{} to {}", points(x.ci.low), points(x.ci.high)),
                games: format!(
                    "{} only under {}, {} only under {}",
                    x.only_first, d.ruleset, x.only_second, d.reference
                ),
                p: p_text(x.p_value),
            });
        }
        for (measure, x, bars) in [
            ("length (turns per game)", &p.turns, &mut tu),
            ("captures per game (both sides)", &p.captures, &mut ca),
        ] {
            bars.push(bar(&d.ruleset, x.diff, x.ci.low, x.ci.high));
            table.push(DiffRow {
                pair: pair.clone(),
                measure: measure.to_string(),
                diff: number(x.diff),
                interval: format!("{} to {}", number(x.ci.low), number(x.ci.high)),
                games: format!(
                    "{} of {} differ (sd of the differences {:.2})",
                    x.differing, p.pairs, x.sd
                ),
                p: p_text(x.p_value),
            });
        }
    }
    let mut charts = vec![];
    if let Some(reference) = paired.first().map(|d| d.reference.clone()) {
        for (what, rows, percent, unit) in [
            ("first-mover win rate", &fm, true, "percentage points"),
            ("agent 1's win rate", &aw, true, "percentage points"),
            ("draw rate", &dr, true, "percentage points"),
            ("length in turns", &tu, false, "turns per game"),
            ("captures per game", &ca, false, "captures per game"),
        ] {
            let title = format!(
                "Difference in {what}: each ruleset minus {reference}, game by game, with 95% intervals"
            );
            let axis = format!("Ruleset minus {reference} ({unit})");
            charts.push((
                title.clone(),
                charts::differences(&title, &axis, rows, percent),
            ));
        }
    }
    (charts, table, identical)
}

async fn comparison(state: St, cache: web::Data<PairedCache>, id: web::Path<String>) -> Page {
    let uid = parse(&id, "comparison")?;
    let jobs = store::comparison_jobs(&state.pool, uid)
        .await
        .map_err(Problem::from)?;
    let Some(first) = jobs.first() else {
        return Err(missing("comparison", &id));
    };
    let status = crate::jobs::view::comparison_status(&jobs);
    let stats: Vec<Stats> = jobs.iter().filter_map(export::stats_of).collect();
    let paired = crate::http::jobs::paired_figures(&state, &cache, uid, &jobs).await?;
    let first_agent = first.agents.first().cloned().unwrap_or_default();
    let (mut charts, table, identical) = match &paired {
        Some(p) => paired_results(&p.diffs, &first_agent),
        None => (vec![], vec![], vec![]),
    };
    if stats.len() == jobs.len() {
        let title = "First-mover win rate of each run, with 95% intervals".to_string();
        let each: Vec<Bar> = jobs
            .iter()
            .zip(&stats)
            .map(|(j, s)| {
                bar(
                    &j.ruleset,
                    s.first_mover.rate,
                    s.first_mover.ci.low,
                    s.first_mover.ci.high,
                )
            })
            .collect();
        charts.insert(0, (title.clone(), charts::rates(&title, &each)));
    }
    let runs = jobs
        .iter()
        .map(|j| {
            let s = export::stats_of(j);
            RunLine {
                url: format!("/simulations/{}", j.id),
                ruleset: j.ruleset.clone(),
                params: params_text(j),
                status: j.status.to_string(),
                games_done: j.games_done,
                games: j.games,
                first_mover: s
                    .as_ref()
                    .map(|s| pct(s.first_mover.rate))
                    .unwrap_or_default(),
                draws: s.as_ref().map(|s| pct(s.draws.rate)).unwrap_or_default(),
                turns: s
                    .as_ref()
                    .map(|s| format!("{:.1}", s.turns.mean))
                    .unwrap_or_default(),
            }
        })
        .collect();
    let request = store::get_comparison(&state.pool, uid)
        .await
        .map_err(Problem::from)?
        .map(|(r, _)| r);
    let asked = asked_params(request.as_ref());
    let study = request
        .as_ref()
        .is_some_and(|r| r.get("readings").is_some())
        .then(|| format!("/readings/{uid}"));
    let agents = match first.agents.as_slice() {
        [a, b] if a == b => format!("{a} in both seats"),
        [a, b] => format!("{a} (agent 1) against {b} (agent 2)"),
        other => other.join(", "),
    };
    let seats = if first.swap_seats {
        ", seats swapped every other game"
    } else {
        ", agent 1 always in seat A"
    };
    html(&ComparisonPage {
        id: uid.to_string(),
        status: status.to_string(),
        finished: status.is_ended(),
        agents: format!("{agents}{seats}"),
        seed: first.seed.to_string(),
        games: first.games,
        params: asked,
        study,
        reference: first.ruleset.clone(),
        runs,
        charts,
        identical,
        table,
    })
}

#[cfg(test)]
mod tests {
    use super::asked_params;
    use serde_json::json;

    /// A readings study's request names its parameters as a list: the line says each run has
    /// its own parameters, not "params=[...]" nor every ruleset's defaults.
    #[test]
    fn the_parameters_line_reads_each_kind_of_request() {
        let study = json!({"readings": {"ruleset": "tsoro-matthews-basic",
            "params": ["back_capture", "layout"], "games": 10, "seed": "1"}});
        let line = asked_params(Some(&study));
        assert!(
            line.starts_with("each run's own: every choice of back_capture, layout"),
            "{line}"
        );
        let variants =
            json!({"variants": [{"ruleset": "a"}, {"ruleset": "a", "params": {"x": 1}}]});
        assert!(asked_params(Some(&variants)).starts_with("each variant's own"));
        let shared =
            json!({"rulesets": ["a", "b"], "params": {"holes": 8, "layout": "every-hole"}});
        assert_eq!(asked_params(Some(&shared)), "holes=8, layout=every-hole");
        assert_eq!(
            asked_params(Some(&json!({"rulesets": ["a", "b"]}))),
            "each ruleset's defaults"
        );
        assert_eq!(asked_params(None), "each ruleset's defaults");
    }
}
