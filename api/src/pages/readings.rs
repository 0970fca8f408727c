//! What each reading of the sources changes in play, for readers: `/readings/new` (the form
//! that starts a readings study), `/readings/{id}` (progress, then each reading's metrics with
//! their intervals and which readings differ detectably from the default) and
//! `/rulesets/{id}/readings` (each parameter's readings with their citations beside their
//! consequences in play, as the latest finished study of the ruleset measured them), over
//! the readings API ([`crate::http::readings`]).

use super::words::citation_badge;
use super::{Page, html, missing};
use crate::http::problem::Problem;
use crate::http::readings::{StudyView, load, view};
use crate::http::state::AppState;
use crate::jobs::paired::PairedCache;
use crate::jobs::status::JobStatus;
use crate::jobs::store;
use crate::runs::readings::{PairingResult, ReadingResult, agents_text};
use actix_web::{HttpRequest, web};
use askama::Template;
use serde_json::Value;
use tsoro_engine::catalogue::{self, Kind, ParamKind};
use tsoro_engine::stats::number::no_minus_zero;
use tsoro_engine::stats::study::{confound_note, figure_words, limit_note, test_sentence};
use uuid::Uuid;

/// Registers the pages (`new` before `{id}`).
pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.service(web::resource("/readings/new").route(web::get().to(new)))
        .service(web::resource("/readings/{id}").route(web::get().to(show)))
        .service(web::resource("/rulesets/{id}/readings").route(web::get().to(of_ruleset)));
}

type St = web::Data<AppState>;

/// The parameters of ruleset `def` whose choices are readings (yes-or-no and choice ones).
fn reading_params(def: &catalogue::RulesetDef) -> Vec<String> {
    def.params
        .iter()
        .filter(|p| !matches!(p.kind, ParamKind::Int { .. }))
        .map(|p| p.name.clone())
        .collect()
}

/// A parameter box of the form.
struct ParamBox {
    name: String,
    checked: bool,
}

#[derive(Template)]
#[template(path = "readings_new.html")]
struct NewPage {
    /// (id, title) of every ruleset with parameters that have readings.
    rulesets: Vec<(String, String)>,
    chosen: String,
    /// The chosen ruleset's parameters.
    params: Vec<ParamBox>,
    /// Every such ruleset's parameters, as JSON for the script (`{"id": ["name", ...]}`).
    params_json: String,
    agents: &'static [&'static str],
    /// The pairing played beside random play.
    pairing: String,
    games: u64,
    seed: u64,
    /// Whether starting a job needs a token (the form then asks for one).
    token_needed: bool,
}

/// `/readings/new?ruleset=ID&param=NAME...&agents=..&games=N&seed=S`: the form, prefilled.
async fn new(req: HttpRequest, state: St) -> Page {
    let token_needed = !crate::http::access::anonymous_writes_open(&req, &state.pool).await;
    let query = web::Query::<Vec<(String, String)>>::from_query(req.query_string())
        .map(|q| q.into_inner())
        .unwrap_or_default();
    let get = |k: &str| query.iter().find(|(n, _)| n == k).map(|(_, v)| v.clone());
    let with_readings: Vec<&catalogue::RulesetDef> = super::order::catalogue_in_order(&state.pool)
        .await?
        .into_iter()
        .filter(|d| d.kind != Kind::Nhodo && !reading_params(d).is_empty())
        .collect();
    let chosen = get("ruleset")
        .filter(|r| with_readings.iter().any(|d| &d.id == r))
        .unwrap_or_else(|| "tsoro-matthews-basic".into());
    let asked: Vec<String> = query
        .iter()
        .filter(|(k, _)| k == "param")
        .map(|(_, v)| v.clone())
        .collect();
    let params = match with_readings.iter().find(|d| d.id == chosen) {
        Some(d) => reading_params(d),
        None => vec![],
    };
    let none_asked = asked.is_empty();
    let params = params
        .into_iter()
        .enumerate()
        .map(|(i, name)| ParamBox {
            checked: asked.contains(&name) || (none_asked && i == 0),
            name,
        })
        .collect();
    let map: serde_json::Map<String, Value> = with_readings
        .iter()
        .map(|d| (d.id.clone(), Value::from(reading_params(d))))
        .collect();
    html(&NewPage {
        rulesets: with_readings
            .iter()
            .map(|d| (d.id.clone(), d.title.clone()))
            .collect(),
        chosen,
        params,
        params_json: Value::Object(map).to_string().replace("</", "<\\/"),
        agents: super::simulations::AGENTS,
        pairing: get("agents").unwrap_or_else(|| "greedy,greedy".into()),
        games: get("games").and_then(|g| g.parse().ok()).unwrap_or(200),
        seed: get("seed").and_then(|s| s.parse().ok()).unwrap_or(1),
        token_needed,
    })
}

fn pct(x: f64) -> String {
    format!("{:.1}%", 100.0 * x)
}

/// `51.2% (49.8–52.6%)`.
fn pct_ci(v: f64, lo: f64, hi: f64) -> String {
    format!("{:.1}% ({:.1}–{:.1}%)", 100.0 * v, 100.0 * lo, 100.0 * hi)
}

/// `12.3 (11.9–12.7)`.
fn num_ci(v: f64, lo: f64, hi: f64, digits: usize) -> String {
    format!("{v:.digits$} ({lo:.digits$}–{hi:.digits$})")
}

/// A reading's name: `back_capture = require_both`, or `default`.
fn reading_name(r: &ReadingResult) -> String {
    match &r.reading.parameter {
        Some(p) => format!("{p} = {}", r.reading.reading),
        None => "default".into(),
    }
}

/// What a reading changes against the default under one pairing, in a sentence: `mean length
/// +14% (+12% to +16%; the ratio of the means, delta-method interval); first player's score
/// 51.2% (49.8–52.6%) against 49.9%; ...`, then the verdict naming the figures that differ.
pub fn consequence(r: &ReadingResult, default: &ReadingResult) -> String {
    let m = &r.metrics;
    let d = &default.metrics;
    let mut parts = vec![];
    if let Some(q) = r
        .tests
        .iter()
        .find(|t| t.figure == "length")
        .and_then(|t| t.ratio)
    {
        let change = |x: f64| format!("{:+.0}%", no_minus_zero(100.0 * (x - 1.0), 0));
        parts.push(format!(
            "mean length {} ({} to {}; the ratio of the means, delta-method interval)",
            change(q.ratio),
            change(q.ci.low),
            change(q.ci.high)
        ));
    }
    let s = &m.first_player_score;
    parts.push(format!(
        "first player's score (a draw counting half) {} against {}",
        pct_ci(s.value, s.ci.low, s.ci.high),
        pct(d.first_player_score.value)
    ));
    let w = &m.first_player_wins;
    parts.push(format!(
        "first player's wins {} against {}",
        pct_ci(w.rate, w.ci.low, w.ci.high),
        pct(d.first_player_wins.rate)
    ));
    if m.draws.rate > 0.0 || d.draws.rate > 0.0 {
        parts.push(format!(
            "draws {} against {}",
            pct_ci(m.draws.rate, m.draws.ci.low, m.draws.ci.high),
            pct(d.draws.rate)
        ));
    }
    parts.push(format!(
        "captures {:.1} a game against {:.1}",
        m.captures.value, d.captures.value
    ));
    let differing: Vec<&str> = r
        .tests
        .iter()
        .filter(|t| t.detected)
        .map(|t| figure_words(t.figure))
        .collect();
    let verdict = if differing.is_empty() {
        "no detectable difference from the default in any tested figure".to_string()
    } else {
        format!(
            "differs detectably from the default (Holm) in {}",
            differing.join(", ")
        )
    };
    format!("{}; {verdict}", parts.join("; "))
}

/// One reading's line of a study's table.
struct MetricRow {
    name: String,
    /// Whether it is the default.
    default: bool,
    /// How the archive attests it: for the default, `parameter=choice: kind` per parameter.
    kind: String,
    /// Its citation's badge (a reading's).
    badge: &'static str,
    evidence: Vec<String>,
    games: u64,
    first_player: String,
    draws: String,
    decisive: String,
    mean_length: String,
    median_length: String,
    captures: String,
    branching: String,
    endless: String,
    limit: String,
    /// `yes`, `no`, or empty for the default.
    differs: String,
}

/// One pairing's table of a study, with its detectable differences in words.
struct PairingTable {
    agents: String,
    rows: Vec<MetricRow>,
    /// One sentence per reading that differs after Holm's correction: the figures that do.
    differing: Vec<String>,
    /// Each non-default reading against the default, in a sentence.
    consequences: Vec<(String, String)>,
}

fn pairing_table(p: &PairingResult) -> PairingTable {
    let rows = p
        .readings
        .iter()
        .map(|r| {
            let m = &r.metrics;
            let rate = |x: &tsoro_engine::stats::Rate| pct_ci(x.rate, x.ci.low, x.ci.high);
            let est = |x: &tsoro_engine::stats::study::Estimate, digits| {
                num_ci(x.value, x.ci.low, x.ci.high, digits)
            };
            let kind = r.reading.attestation.kind.clone();
            MetricRow {
                name: reading_name(r),
                default: r.reading.parameter.is_none(),
                badge: citation_badge(&kind),
                kind,
                evidence: r.reading.attestation.evidence.clone(),
                games: m.games,
                first_player: pct_ci(
                    m.first_player_score.value,
                    m.first_player_score.ci.low,
                    m.first_player_score.ci.high,
                ),
                draws: rate(&m.draws),
                decisive: rate(&m.decisive),
                mean_length: est(&m.mean_length, 1),
                median_length: format!(
                    "{} ({}–{})",
                    m.median_length.value, m.median_length.low, m.median_length.high
                ),
                captures: est(&m.captures, 2),
                branching: est(&m.branching, 2),
                endless: rate(&m.endless_sowings),
                limit: rate(&m.limit_ends),
                differs: match (r.reading.parameter.is_some(), r.differs) {
                    (false, _) => String::new(),
                    (true, true) => "yes".into(),
                    (true, false) => "no".into(),
                },
            }
        })
        .collect();
    // Every test beside its verdict (the score's too, where only wins or draws moved), then
    // what they say together and where games end at the limit.
    let default = p.readings.first().map(|d| &d.metrics);
    let differing = p
        .readings
        .iter()
        .filter(|r| r.differs)
        .filter_map(|r| {
            let d = default?;
            let mut lines: Vec<String> = r
                .tests
                .iter()
                .map(|t| test_sentence(t, &r.metrics, d))
                .collect();
            lines.extend(confound_note(&r.tests));
            lines.extend(limit_note(&r.metrics, d));
            Some(format!("{}: {}", reading_name(r), lines.join("; ")))
        })
        .collect();
    let consequences = match p.readings.first() {
        Some(d) => p
            .readings
            .iter()
            .skip(1)
            .map(|r| (reading_name(r), consequence(r, d)))
            .collect(),
        None => vec![],
    };
    PairingTable {
        agents: p.agents.join(","),
        rows,
        differing,
        consequences,
    }
}

#[derive(Template)]
#[template(path = "readings.html")]
struct StudyPage {
    v: StudyView,
    title: String,
    agents: String,
    params: String,
    percent: u32,
    games_done: i64,
    games: i64,
    finished: bool,
    done: bool,
    tables: Vec<PairingTable>,
    /// The form, prefilled with this study's inputs.
    again: String,
}

/// The link to the form prefilled with a study's inputs.
fn form_link(ruleset: &str, params: &[String], agents: &str, games: u64, seed: u64) -> String {
    let mut q = vec![("ruleset", ruleset.to_string())];
    q.extend(params.iter().map(|p| ("param", p.clone())));
    q.extend([
        ("agents", agents.to_string()),
        ("games", games.to_string()),
        ("seed", seed.to_string()),
    ]);
    let enc: Vec<String> = q
        .iter()
        .map(|(k, v)| format!("{k}={}", urlencoding(v)))
        .collect();
    format!("/readings/new?{}", enc.join("&"))
}

/// Percent-encodes a query value (what is not unreserved).
fn urlencoding(v: &str) -> String {
    v.bytes()
        .map(|b| {
            if b.is_ascii_alphanumeric() || b"-_.~".contains(&b) {
                (b as char).to_string()
            } else {
                format!("%{b:02X}")
            }
        })
        .collect()
}

async fn show(state: St, cache: web::Data<PairedCache>, id: web::Path<String>) -> Page {
    let uid = id
        .parse::<Uuid>()
        .map_err(|_| missing("readings study", &id))?;
    let path = format!("/readings/{uid}");
    let (req, plan) = load(&state, uid, &path)
        .await
        .map_err(|_| missing("readings study", &id))?;
    let v = view(&state, &cache, uid, req, &plan).await?;
    let games: i64 = v.runs.runs.iter().map(|r| r.progress.games).sum();
    let games_done: i64 = v.runs.runs.iter().map(|r| r.progress.games_done).sum();
    let tables = v
        .pairings
        .as_deref()
        .unwrap_or_default()
        .iter()
        .map(pairing_table)
        .collect();
    let title = catalogue::get(&v.request.ruleset)
        .map(|d| d.title.clone())
        .unwrap_or_else(|_| v.request.ruleset.clone());
    let agents = agents_text(&v.request.agents);
    html(&StudyPage {
        title,
        again: form_link(
            &v.request.ruleset,
            &v.request.params,
            &agents,
            v.request.games,
            v.request.seed,
        ),
        params: v.request.params.join(", "),
        agents,
        percent: if games == 0 {
            0
        } else {
            (100 * games_done / games) as u32
        },
        games_done,
        games,
        finished: v.status.is_ended(),
        done: v.status == JobStatus::Done,
        tables,
        v,
    })
}

/// One choice of a parameter on the ruleset's readings page: its citation and what it
/// changes in play under each pairing of the study.
struct ChoiceLine {
    choice: String,
    default: bool,
    /// Its citation's badge.
    badge: &'static str,
    quote: Option<String>,
    reasoning: Option<String>,
    evidence: Vec<String>,
    /// (pairing, what it changes, or for the default its own figures).
    consequences: Vec<(String, String)>,
}

struct ParamSection {
    name: String,
    description: String,
    choices: Vec<ChoiceLine>,
    /// Whether the study measured it.
    measured: bool,
    /// The form prefilled to study it.
    study_it: String,
}

/// The study shown on a ruleset's readings page.
struct StudyRef {
    id: Uuid,
    params: String,
    games: u64,
    seed: u64,
    agents: String,
}

#[derive(Template)]
#[template(path = "ruleset_readings.html")]
struct RulesetReadingsPage {
    id: String,
    title: String,
    study: Option<StudyRef>,
    params: Vec<ParamSection>,
    /// The form prefilled with every parameter that has readings.
    study_all: String,
}

/// Studies of a ruleset looked through for a finished one, newest first.
const STUDIES_LOOKED_AT: i64 = 20;

/// The newest finished readings study of `ruleset`, with its results.
async fn latest_study(
    state: &AppState,
    cache: &PairedCache,
    ruleset: &str,
) -> Result<Option<StudyView>, Problem> {
    for id in store::readings_studies(&state.pool, ruleset, STUDIES_LOOKED_AT).await? {
        let jobs = store::comparison_jobs(&state.pool, id).await?;
        if jobs.is_empty() || !jobs.iter().all(|j| j.status == JobStatus::Done) {
            continue;
        }
        let path = format!("/rulesets/{ruleset}/readings");
        let Ok((req, plan)) = load(state, id, &path).await else {
            continue;
        };
        let v = view(state, cache, id, req, &plan).await?;
        if v.pairings.is_some() {
            return Ok(Some(v));
        }
    }
    Ok(None)
}

async fn of_ruleset(state: St, cache: web::Data<PairedCache>, id: web::Path<String>) -> Page {
    let r = crate::archive::read::ruleset_detail(&state.pool, &id)
        .await?
        .ok_or_else(|| missing("ruleset", &id))?;
    let def = catalogue::get(&id).ok();
    let readable: Vec<String> = def.map(reading_params).unwrap_or_default();
    let study = latest_study(&state, &cache, &id).await?;
    let pairings: &[PairingResult] = study
        .as_ref()
        .and_then(|s| s.pairings.as_deref())
        .unwrap_or_default();
    let agents = study
        .as_ref()
        .map(|s| agents_text(&s.request.agents))
        .unwrap_or_else(|| "greedy,greedy".into());
    let (games, seed) = study
        .as_ref()
        .map_or((200, 1), |s| (s.request.games, s.request.seed));
    let params = r
        .params
        .iter()
        .filter(|p| readable.contains(&p.name) && !p.readings.is_empty())
        .map(|p| {
            let default = super::value_text(&p.default);
            let measured = study
                .as_ref()
                .is_some_and(|s| s.request.params.contains(&p.name));
            let choices = p
                .readings
                .iter()
                .map(|c| {
                    let is_default = c.choice == default;
                    let consequences = if !measured {
                        vec![]
                    } else {
                        pairings
                            .iter()
                            .filter_map(|pr| {
                                let d = pr.readings.first()?;
                                let text = if is_default {
                                    let m = &d.metrics;
                                    format!(
                                        "the default: games {} turns long on average; first player {}",
                                        num_ci(
                                            m.mean_length.value,
                                            m.mean_length.ci.low,
                                            m.mean_length.ci.high,
                                            1
                                        ),
                                        pct_ci(
                                            m.first_player_score.value,
                                            m.first_player_score.ci.low,
                                            m.first_player_score.ci.high
                                        )
                                    )
                                } else {
                                    let rr = pr.readings.iter().find(|x| {
                                        x.reading.parameter.as_deref() == Some(p.name.as_str())
                                            && x.reading.reading == c.choice
                                    })?;
                                    consequence(rr, d)
                                };
                                Some((pr.agents.join(","), text))
                            })
                            .collect()
                    };
                    ChoiceLine {
                        choice: c.choice.clone(),
                        default: is_default,
                        badge: citation_badge(&c.kind),
                        quote: c.quote.clone(),
                        reasoning: c.reasoning.clone(),
                        evidence: c.evidence.clone(),
                        consequences,
                    }
                })
                .collect();
            ParamSection {
                study_it: form_link(&id, std::slice::from_ref(&p.name), &agents, games, seed),
                name: p.name.clone(),
                description: p.description.clone(),
                choices,
                measured,
            }
        })
        .collect::<Vec<_>>();
    let names: Vec<String> = params.iter().map(|p| p.name.clone()).collect();
    html(&RulesetReadingsPage {
        study_all: form_link(&id, &names, &agents, games, seed),
        title: r.ruleset.title.clone(),
        id: r.ruleset.id.clone(),
        study: study.map(|s| StudyRef {
            id: s.id,
            params: s.request.params.join(", "),
            games: s.request.games,
            seed: s.request.seed,
            agents: s
                .pairings
                .as_deref()
                .unwrap_or_default()
                .iter()
                .map(|p| p.agents.join(","))
                .collect::<Vec<_>>()
                .join(" and "),
        }),
        params,
    })
}
