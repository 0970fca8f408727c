//! A readings study: for a ruleset and one or more of its parameters whose choices are
//! readings of the sources, every choice (each parameter against the default, the others at
//! their defaults) played on the same seeds under random play and under a pairing of agents
//! the study names; per reading its metric vector with 95% intervals and its paired tests
//! against the default, Holm-corrected ([`tsoro_engine::stats::study`]). Planned here once
//! for the command line (`tsoro readings`) and the service (`POST /api/v1/readings`).

use super::plan::{self, Agents, RunError, RunPlan, RunRequest};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::sync::OnceLock;
use tsoro_corpus::frictionless::{Column, Resource};
use tsoro_engine::agents::AgentSpec;
use tsoro_engine::catalogue::{self, ParamKind, Params};
use tsoro_engine::stats::distinct::DistinctGames;
use tsoro_engine::stats::paired::Paired;
use tsoro_engine::stats::study::{ReadingMetrics, ReadingSums, ReadingTest, detect};
use utoipa::ToSchema;

/// Most readings (the default included) in one study.
pub const MAX_READINGS: usize = 12;

/// A readings study as asked for (`POST /api/v1/readings`, `tsoro readings`).
#[derive(Clone, Debug, Deserialize, Serialize, ToSchema)]
#[schema(example = json!({"ruleset": "tsoro-matthews-basic", "params": ["back_capture"],
    "agents": "greedy,greedy", "games": 200, "seed": "1"}))]
#[serde(deny_unknown_fields)]
pub struct ReadingsRequest {
    /// The ruleset id.
    #[schema(schema_with = plan::ruleset_schema)]
    pub ruleset: String,
    /// The parameters studied: each a yes-or-no or a choice, whose every value is a reading
    /// of the sources (a number parameter has no readings to play).
    #[schema(min_items = 1, max_items = 8)]
    pub params: Vec<String>,
    /// The pairing played beside random play (random play alone when it is `random,random`).
    #[serde(default)]
    pub agents: Agents,
    /// Games per reading and pairing.
    #[serde(deserialize_with = "plan::deserialize_u64")]
    #[schema(minimum = 1)]
    pub games: u64,
    /// The seed shared by every run (written as a string).
    #[serde(
        default,
        deserialize_with = "plan::deserialize_seed",
        serialize_with = "tsoro_engine::stats::seed_text::serialize"
    )]
    #[schema(value_type = plan::Seed)]
    pub seed: u64,
}

/// How a reading is attested in the archive.
#[derive(Clone, Debug, Default, PartialEq, Serialize, ToSchema)]
pub struct Attestation {
    /// `evidence`, `reconstructed`, `assumed` or `not_applicable` (several, `;`-separated,
    /// for the default of several parameters).
    pub kind: String,
    /// The evidence ids quoted or rested on.
    pub evidence: Vec<String>,
}

/// One reading of a study: a parameter's choice, or the default.
#[derive(Clone, Debug, PartialEq, Serialize, ToSchema)]
pub struct Reading {
    /// The parameter (none for the default).
    pub parameter: Option<String>,
    /// The choice (`require_both`, `true`), or `default`.
    pub reading: String,
    /// The parameter values this reading sets (none for the default).
    #[schema(value_type = Object)]
    pub params: Params,
    /// How the archive attests it (the default: each studied parameter's default choice).
    pub attestation: Attestation,
}

/// A checked study: its readings, its pairings and one run per (pairing, reading), pairing
/// by pairing with the default first.
#[derive(Clone, Debug)]
pub struct StudyPlan {
    /// The readings, the default first.
    pub readings: Vec<Reading>,
    /// The pairings of agents: random play, then the study's (unless it is random play).
    pub pairings: Vec<[AgentSpec; 2]>,
    /// The runs, `pairings.len() * readings.len()`, pairing-major.
    pub runs: Vec<RunPlan>,
}

/// The compiled-in corpus, read once.
fn corpus() -> Option<&'static tsoro_corpus::Corpus> {
    static CORPUS: OnceLock<Option<tsoro_corpus::Corpus>> = OnceLock::new();
    CORPUS
        .get_or_init(|| tsoro_corpus::Corpus::load().ok())
        .as_ref()
}

/// How the archive attests choice `choice` of parameter `param` of ruleset `id`.
pub fn attestation(id: &str, param: &str, choice: &str) -> Attestation {
    let citation = corpus()
        .and_then(|c| c.rulesets.get(id))
        .and_then(|r| r.params.get(param))
        .and_then(|choices| choices.get(choice));
    match citation {
        Some(c) => Attestation {
            kind: crate::archive::detail::citation_kind(c).to_string(),
            evidence: c.evidence_ids().iter().map(|s| s.to_string()).collect(),
        },
        None => Attestation::default(),
    }
}

/// A parameter value as the archive names its choice (`require_both`, `true`).
fn choice_name(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// Checks a study against the catalogue and `max_games`.
pub fn plan_study(req: &ReadingsRequest, max_games: u64) -> Result<StudyPlan, RunError> {
    let def = catalogue::get(&req.ruleset)?;
    if req.params.is_empty() {
        return Err(RunError::new(
            "params",
            "no parameter given: a study plays the readings of one or more parameters",
            "names of the ruleset's yes-or-no or choice parameters",
        ));
    }
    let mut readings = vec![Reading {
        parameter: None,
        reading: "default".into(),
        params: Params::new(),
        attestation: Attestation::default(),
    }];
    let mut kinds = vec![];
    for (i, name) in req.params.iter().enumerate() {
        let field = format!("params[{i}]");
        let spec = def.params.iter().find(|p| &p.name == name).ok_or_else(|| {
            RunError::new(
                &field,
                format!("{} has no parameter {name:?}", def.id),
                format!(
                    "parameters: {}",
                    def.params
                        .iter()
                        .map(|p| p.name.as_str())
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            )
        })?;
        if req.params[..i].contains(name) {
            return Err(RunError::new(
                &field,
                format!("{name} is given twice"),
                "each parameter once",
            ));
        }
        let choices: Vec<Value> = match &spec.kind {
            ParamKind::Bool { .. } => vec![Value::Bool(false), Value::Bool(true)],
            ParamKind::Choice { choices } => {
                choices.keys().map(|k| Value::from(k.as_str())).collect()
            }
            ParamKind::Int { .. } => {
                return Err(RunError::new(
                    &field,
                    format!("{name} takes a number: it has no choices to play as readings"),
                    "a yes-or-no or choice parameter",
                ));
            }
        };
        let default = choice_name(&spec.default);
        let a = attestation(&def.id, name, &default);
        kinds.push(format!("{name}={default}: {}", a.kind));
        readings[0].attestation.evidence.extend(a.evidence);
        for c in choices.into_iter().filter(|c| *c != spec.default) {
            let reading = choice_name(&c);
            readings.push(Reading {
                parameter: Some(name.clone()),
                attestation: attestation(&def.id, name, &reading),
                reading,
                params: Params::from_iter([(name.clone(), c)]),
            });
        }
    }
    readings[0].attestation.kind = kinds.join("; ");
    readings[0].attestation.evidence.dedup();
    if readings.len() > MAX_READINGS {
        return Err(RunError::new(
            "params",
            format!(
                "{} readings: a study plays at most {MAX_READINGS}, the default included",
                readings.len()
            ),
            "fewer parameters",
        ));
    }
    let study = plan::parse_agents(&req.agents)?;
    let random = plan::parse_agent("random", "agents")?;
    let mut pairings = vec![[random, random]];
    if study != [random, random] {
        pairings.push(study);
    }
    let mut runs = Vec::with_capacity(pairings.len() * readings.len());
    for p in &pairings {
        for r in &readings {
            let run = RunRequest {
                ruleset: def.id.clone(),
                params: r.params.clone(),
                agents: Agents::List(p.map(|a| a.to_string()).to_vec()),
                games: req.games,
                seed: req.seed,
                turn_limit: None,
                swap_seats: true,
                reference: false,
            };
            runs.push(plan::plan(&run, max_games)?);
        }
    }
    Ok(StudyPlan {
        readings,
        pairings,
        runs,
    })
}

/// One reading's results under one pairing.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct ReadingResult {
    /// The reading.
    #[serde(flatten)]
    pub reading: Reading,
    /// Its metric vector, each figure with its 95% interval.
    #[schema(value_type = Object)]
    pub metrics: ReadingMetrics,
    /// Its paired tests against the default on the same seeds (none for the default).
    #[schema(value_type = Vec<Object>)]
    pub tests: Vec<ReadingTest>,
    /// Some test is below 5% after Holm's correction over the pairing's tests.
    pub differs: bool,
}

/// A pairing's readings.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct PairingResult {
    /// The two agents.
    pub agents: [String; 2],
    /// Each reading, the default first.
    pub readings: Vec<ReadingResult>,
}

/// The study's results from each run's sums and each non-default run's paired figures
/// against its pairing's default (both in the runs' order).
pub fn results(plan: &StudyPlan, sums: &[ReadingSums], diffs: &[Paired]) -> Vec<PairingResult> {
    let n = plan.readings.len();
    let mut diffs = diffs.iter();
    plan.pairings
        .iter()
        .enumerate()
        .map(|(p, agents)| {
            let own: Vec<Paired> = diffs.by_ref().take(n - 1).copied().collect();
            let mut tests = detect(&own).into_iter();
            let readings = plan
                .readings
                .iter()
                .enumerate()
                .map(|(r, reading)| {
                    let tests: Vec<ReadingTest> = if r == 0 {
                        vec![]
                    } else {
                        tests.next().unwrap_or_default()
                    };
                    ReadingResult {
                        reading: reading.clone(),
                        metrics: sums.get(p * n + r).cloned().unwrap_or_default().metrics(),
                        differs: tests.iter().any(|t| t.detected),
                        tests,
                    }
                })
                .collect();
            PairingResult {
                agents: agents.map(|a| a.to_string()),
                readings,
            }
        })
        .collect()
}

/// Plays a study here (no database): each run on the engine, paired game by game with its
/// pairing's default, as the service's jobs do across workers and chunks.
pub fn play(
    plan: &StudyPlan,
    opts: &tsoro_engine::sim::SimOptions,
) -> Result<Vec<PairingResult>, tsoro_engine::sim::SimError> {
    Ok(play_counting(plan, opts)?.0)
}

/// [`play`], with how many distinct games each run holds (in the runs' order).
pub fn play_counting(
    plan: &StudyPlan,
    opts: &tsoro_engine::sim::SimOptions,
) -> Result<(Vec<PairingResult>, Vec<DistinctGames>), tsoro_engine::sim::SimError> {
    use tsoro_engine::stats::paired::{PairedGame, PairedSummary};
    let n = plan.readings.len();
    let mut distinct = Vec::with_capacity(plan.runs.len());
    let mut sums = Vec::with_capacity(plan.runs.len());
    let mut diffs = Vec::new();
    let mut reference: Vec<PairedGame> = vec![];
    for (i, run) in plan.runs.iter().enumerate() {
        let is_default = i % n == 0;
        if is_default {
            reference.clear();
        }
        let (mut s, mut pairs) = (ReadingSums::default(), PairedSummary::default());
        let mut d = DistinctGames::default();
        tsoro_engine::sim::simulate_any(&run.game, &run.sim_spec(), opts, &mut |r| {
            s.add(r);
            d.add(r);
            let g = PairedGame::of(r);
            if is_default {
                reference.push(g);
            } else if let Some(x) = reference.get(r.game as usize) {
                pairs.add(&g, x);
            }
        })?;
        sums.push(s);
        distinct.push(d);
        if !is_default {
            diffs.push(pairs.stats());
        }
    }
    Ok((results(plan, &sums, &diffs), distinct))
}

/// The columns of `readings.csv`: the reading and its pairing, then per metric its value and
/// its 95% interval's ends, then per tested figure ([`TESTED`], in order) the paired
/// difference from the default, its interval and p-values, and whether the reading differs.
macro_rules! readings_columns {
    (
        head: [$($head:expr,)*],
        metrics: [$(($m:literal, $mk:literal, $mw:literal),)*],
        tests: [$(($t:literal, $tw:literal),)*],
        tail: [$($tail:expr,)*],
    ) => {
        &[
            $($head,)*
            $(
                Column::new($m, $mk, concat!("The value of ", $mw)),
                Column::new(concat!($m, "_low"), $mk, concat!("Low end of the 95% interval of ", $mw)),
                Column::new(concat!($m, "_high"), $mk, concat!("High end of the 95% interval of ", $mw)),
            )*
            $(
                Column::new(concat!($t, "_diff"), "number", concat!("Difference in ", $tw, " (empty for the default)")),
                Column::new(concat!($t, "_diff_low"), "number", concat!("Low end of the 95% interval of the difference in ", $tw)),
                Column::new(concat!($t, "_diff_high"), "number", concat!("High end of the 95% interval of the difference in ", $tw)),
                Column::new(concat!($t, "_p"), "number", concat!("Two-sided p-value of the difference in ", $tw)).min(0).max(1),
                Column::new(concat!($t, "_p_holm"), "number", concat!("Holm-adjusted p-value of the difference in ", $tw, ", over every test of the pairing")).min(0).max(1),
            )*
            $($tail,)*
        ]
    };
}

/// The columns of `readings.csv` ([`readings_csv`] writes its rows in this order), each with
/// its Frictionless type and description: its header and its `datapackage.json` schema.
///
/// [`TESTED`]: tsoro_engine::stats::study::TESTED
pub const READINGS_COLUMNS: &[Column] = readings_columns!(
    head: [
        Column::new("agents", "string", "The pairing of agents that played, `first,second` (`random,random` is random play)"),
        Column::new("parameter", "string", "The parameter whose choice this reading is (empty for the default)"),
        Column::new("reading", "string", "The parameter's choice (`require_both`, `true`), or `default`: every studied parameter at its default"),
        Column::new("attestation", "string", "How the archive attests the reading: evidence (quoted), reconstructed, assumed or not_applicable; for the default, `parameter=choice: kind` per studied parameter, `; `-separated"),
        Column::new("evidence_ids", "string", "The archive's evidence ids the reading quotes or rests on, space-separated (each is /api/v1/evidence/{id})"),
        Column::new("games", "integer", "Games played under this reading and pairing (game k from the study's seed and k, for every reading)").min(0),
    ],
    metrics: [
        ("first_player_score", "number", "the first player's mean score, a draw counting half (Wilson interval)"),
        ("first_player_wins", "number", "the share of games the first player won (Wilson interval)"),
        ("draws", "number", "the share of games drawn (Wilson interval)"),
        ("decisive", "number", "the share of games with a winner (Wilson interval)"),
        ("mean_length", "number", "the mean length in turns (t interval)"),
        ("median_length", "integer", "the lower median length in turns: the ⌈n/2⌉-th smallest, not the mean of the two middle values (distribution-free interval: order statistics)"),
        ("captures", "number", "capture events per game, both seats (t interval)"),
        ("branching", "number", "Ludii's branching factor, per game then averaged (t interval)"),
        ("endless_sowings", "number", "the share of games ended by an endless relay sowing (Wilson interval)"),
        ("limit_ends", "number", "the share of games ended by the turn or move limit (Wilson interval)"),
    ],
    tests: [
        ("first_player_score", "the first player's score, a draw counting half, reading minus default game by game (paired t test and interval)"),
        ("first_player_wins", "the first player's win rate (a draw is not a win), reading minus default on the same seeds (McNemar's exact test, Newcombe's paired interval)"),
        ("draws", "the draw rate, reading minus default on the same seeds (McNemar's exact test, Newcombe's paired interval)"),
        ("length", "the length in turns, reading minus default game by game (paired t test and interval)"),
        ("captures", "captures per game, reading minus default game by game (paired t test and interval)"),
    ],
    tail: [
        Column::new("differs", "boolean", "Whether the reading differs detectably from the default under this pairing: some Holm-adjusted p-value below 0.05 (empty for the default)"),
    ],
);

/// The file name of a study's readings (the path its `datapackage.json` gives).
pub const READINGS_FILE: &str = "readings.csv";

/// A study's `datapackage.json`: `readings.csv` described by [`READINGS_COLUMNS`], the
/// study's inputs and the ruleset's version and sources.
pub fn datapackage(
    id: uuid::Uuid,
    req: &ReadingsRequest,
    ruleset_version: &str,
    created: &str,
) -> Value {
    serde_json::json!({
        "profile": "tabular-data-package",
        "name": format!("tsoro-readings-{id}"),
        "title": format!(
            "What each reading of {} changes in play on {}, seed {}",
            req.params.join(", "),
            req.ruleset,
            req.seed
        ),
        "description": "A readings study played by the tsoro engine: every choice of the parameters named (each against the default, the others at their defaults) on the same seeds, under random play and the pairing named; per reading its citation ids, its metric vector with 95% intervals, and its paired tests against the default, Holm-corrected. Game k of every reading depends only on the study's seed and k, on any machine and any number of workers.",
        "created": created,
        "version": env!("CARGO_PKG_VERSION"),
        "sources": super::csv::package_sources(&req.ruleset),
        "tsoro": {
            "study": id,
            "ruleset": req.ruleset,
            "ruleset_version": ruleset_version,
            "params": req.params,
            "agents": agents_text(&req.agents),
            "games": req.games,
            "seed": req.seed.to_string(),
            "command": command(req),
            "engine": format!("tsoro-engine {}", env!("CARGO_PKG_VERSION")),
        },
        "resources": [
            Resource {
                name: "readings",
                path: READINGS_FILE,
                description: Some("One row per pairing and reading (the default first): the reading, its citation ids, its metrics with 95% intervals, and its tests against the default."),
                columns: READINGS_COLUMNS,
                primary_key: &[],
                foreign_keys: &[],
            }
            .descriptor(),
        ],
    })
}

/// The pairing a request names, as `a,b` (one agent named plays both seats).
pub fn agents_text(a: &Agents) -> String {
    match plan::parse_agents(a) {
        Ok([x, y]) => format!("{x},{y}"),
        Err(_) => a.names().join(","),
    }
}

/// The `tsoro readings` command that plays the same study and writes its `readings.csv`.
pub fn command(req: &ReadingsRequest) -> String {
    let mut words = vec![
        "tsoro readings --ruleset".to_string(),
        crate::runs::tournament::shell_word(&req.ruleset),
    ];
    for p in &req.params {
        words.push("--param".into());
        words.push(crate::runs::tournament::shell_word(p));
    }
    words.extend([
        "--agents".into(),
        crate::runs::tournament::shell_word(&agents_text(&req.agents)),
        "--games".into(),
        req.games.to_string(),
        "--seed".into(),
        req.seed.to_string(),
        "--csv".into(),
        READINGS_FILE.into(),
    ]);
    words.join(" ")
}

/// `readings.csv`: one row per (pairing, reading) with its citation ids, its metrics and
/// their intervals, and its tests against the default (empty for the default).
pub fn readings_csv(out: impl std::io::Write, pairings: &[PairingResult]) -> csv::Result<()> {
    // Shortest round-trip decimals; exponent form for the tiny p-values of large studies.
    let f = tsoro_engine::stats::number::csv_float;
    let mut w = csv::Writer::from_writer(out);
    w.write_record(READINGS_COLUMNS.iter().map(|c| c.name))?;
    for p in pairings {
        for r in &p.readings {
            let m = &r.metrics;
            let mut row = vec![
                format!("{},{}", p.agents[0], p.agents[1]),
                r.reading.parameter.clone().unwrap_or_default(),
                r.reading.reading.clone(),
                r.reading.attestation.kind.clone(),
                r.reading.attestation.evidence.join(" "),
                m.games.to_string(),
            ];
            let est =
                |e: &tsoro_engine::stats::study::Estimate| [f(e.value), f(e.ci.low), f(e.ci.high)];
            let rate = |e: &tsoro_engine::stats::Rate| [f(e.rate), f(e.ci.low), f(e.ci.high)];
            row.extend(est(&m.first_player_score));
            row.extend(rate(&m.first_player_wins));
            row.extend(rate(&m.draws));
            row.extend(rate(&m.decisive));
            row.extend(est(&m.mean_length));
            row.extend([
                m.median_length.value.to_string(),
                m.median_length.low.to_string(),
                m.median_length.high.to_string(),
            ]);
            row.extend(est(&m.captures));
            row.extend(est(&m.branching));
            row.extend(rate(&m.endless_sowings));
            row.extend(rate(&m.limit_ends));
            for i in 0..tsoro_engine::stats::study::TESTED.len() {
                match r.tests.get(i) {
                    Some(t) => row.extend([
                        f(t.diff),
                        f(t.ci.low),
                        f(t.ci.high),
                        f(t.p_value),
                        f(t.adjusted),
                    ]),
                    None => row.extend(std::iter::repeat_n(String::new(), 5)),
                }
            }
            row.push(if r.reading.parameter.is_none() {
                String::new()
            } else {
                r.differs.to_string()
            });
            w.write_record(&row)?;
        }
    }
    w.flush()?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn req(body: Value) -> ReadingsRequest {
        serde_json::from_value(body).unwrap()
    }

    #[test]
    fn a_study_plays_every_reading_under_both_pairings() {
        let p = plan_study(
            &req(serde_json::json!({"ruleset": "tsoro-matthews-basic",
                "params": ["back_capture", "layout"], "agents": "greedy", "games": 10})),
            1000,
        )
        .unwrap();
        let names: Vec<_> = p.readings.iter().map(|r| r.reading.as_str()).collect();
        assert_eq!(names, ["default", "require_both", "every-hole"]);
        assert_eq!(p.pairings.len(), 2);
        assert_eq!(p.runs.len(), 6);
        assert_eq!(p.runs[0].agent_names(), ["random", "random"]);
        assert_eq!(p.runs[3].agent_names(), ["greedy", "greedy"]);
        assert_eq!(p.runs[4].params["back_capture"], "require_both");
        assert_eq!(p.runs[4].params["layout"], p.runs[3].params["layout"]);
        // Every run on the same seed.
        assert!(p.runs.iter().all(|r| r.seed == p.runs[0].seed));
        // The archive's citations: rule (b) read literally is a reading of Matthews' text.
        let a = &p.readings[1].attestation;
        assert!(!a.kind.is_empty() && !a.evidence.is_empty(), "{a:?}");
        assert!(
            p.readings[0]
                .attestation
                .kind
                .contains("back_capture=with_front")
        );
        // Random play alone when the study's pairing is random play.
        let p = plan_study(
            &req(serde_json::json!({"ruleset": "tsoro-matthews-basic",
                "params": ["back_capture"], "games": 10})),
            1000,
        )
        .unwrap();
        assert_eq!((p.pairings.len(), p.runs.len()), (1, 2));
    }

    /// The package's schema is [`READINGS_COLUMNS`], and `readings.csv` as written has exactly
    /// those columns: its header their names, every cell of every row of its column's type
    /// and within its constraints.
    #[test]
    fn the_package_describes_every_column_of_readings_csv_and_the_command_plays_the_study() {
        let r = req(serde_json::json!({"ruleset": "tsoro-matthews-basic",
            "params": ["back_capture", "layout"], "agents": "greedy", "games": 10, "seed": "9"}));
        let dp = datapackage(uuid::Uuid::nil(), &r, "v1", "2026-01-01T00:00:00Z");
        let fields = dp["resources"][0]["schema"]["fields"].as_array().unwrap();
        let names: Vec<&str> = fields.iter().map(|f| f["name"].as_str().unwrap()).collect();
        let columns: Vec<&str> = READINGS_COLUMNS.iter().map(|c| c.name).collect();
        assert_eq!(names, columns);
        assert_eq!(dp["resources"][0]["path"], READINGS_FILE);
        assert!(!dp["sources"].as_array().unwrap().is_empty(), "{dp}");
        // The tested figures' columns are the engine's, in its order.
        let tested: Vec<&str> = columns
            .iter()
            .filter_map(|n| n.strip_suffix("_p_holm"))
            .collect();
        assert_eq!(tested, tsoro_engine::stats::study::TESTED);

        let plan = plan_study(&r, 1000).unwrap();
        let played = play(&plan, &tsoro_engine::sim::SimOptions::default()).unwrap();
        let mut out = vec![];
        readings_csv(&mut out, &played).unwrap();
        let mut csv = ::csv::Reader::from_reader(&out[..]);
        let header: Vec<String> = csv.headers().unwrap().iter().map(String::from).collect();
        assert_eq!(header, columns);
        let mut rows = 0;
        for row in csv.records() {
            let row = row.unwrap();
            assert_eq!(row.len(), READINGS_COLUMNS.len());
            for (c, v) in READINGS_COLUMNS.iter().zip(row.iter()) {
                if v.is_empty() {
                    continue;
                }
                let number = v.parse::<f64>().ok().filter(|x| x.is_finite());
                let ok = match c.kind {
                    "integer" => v.parse::<u64>().is_ok(),
                    "number" => number.is_some(),
                    "boolean" => v == "true" || v == "false",
                    _ => true,
                };
                assert!(ok, "{}: {v:?} is not {}", c.name, c.kind);
                let k = &c.constraints;
                if let (Some(x), Some(min)) = (number, k.minimum) {
                    assert!(x >= min as f64, "{}: {v} < {min}", c.name);
                }
                if let (Some(x), Some(max)) = (number, k.maximum) {
                    assert!(x <= max as f64, "{}: {v} > {max}", c.name);
                }
            }
            rows += 1;
        }
        // Two pairings, each with the default and one reading of each parameter.
        assert_eq!(rows, 6);
        assert_eq!(
            command(&r),
            "tsoro readings --ruleset tsoro-matthews-basic --param back_capture --param layout \
             --agents greedy,greedy --games 10 --seed 9 --csv readings.csv"
        );
        assert_eq!(dp["tsoro"]["command"], command(&r));
    }

    #[test]
    fn each_fault_names_its_field() {
        for (body, field) in [
            (
                serde_json::json!({"ruleset": "tsoro-matthews-basic", "params": ["holes"], "games": 10}),
                "params[0]",
            ),
            (
                serde_json::json!({"ruleset": "tsoro-matthews-basic", "params": ["layout", "nope"], "games": 10}),
                "params[1]",
            ),
            (
                serde_json::json!({"ruleset": "tsoro-matthews-basic", "params": [], "games": 10}),
                "params",
            ),
            (
                serde_json::json!({"ruleset": "nope", "params": ["layout"], "games": 10}),
                "ruleset",
            ),
            (
                serde_json::json!({"ruleset": "tsoro-matthews-basic", "params": ["layout"], "agents": "wizard", "games": 10}),
                "agents",
            ),
            (
                serde_json::json!({"ruleset": "tsoro-matthews-basic", "params": ["layout"], "games": 0}),
                "games",
            ),
        ] {
            let e = plan_study(&req(body.clone()), 1000).unwrap_err();
            assert_eq!(e.field, field, "{body}: {e}");
        }
    }
}
