//! Nhodo runs: what a request asks for (`POST /api/v1/nhodo`), checked and priced, and the
//! CSV formats of a run's records and statistics, the same for `tsoro simulate` on a nhodo
//! ruleset and for a nhodo job's exports.
//!
//! Nhodo has no decisions (a model of the players' hands, [`tsoro_engine::nhodo`]), so a run
//! has no agents: it is a ruleset, its parameters (`players`, `skill`, `turn_limit`, ...),
//! games and a seed. Game k depends only on (seed, k).

use super::plan::{RunError, deserialize_seed, deserialize_u64};
use crate::runs::cost::chunk_games;
use crate::settings::JobSettings;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use tsoro_engine::catalogue::{self, Kind, Model, Params, RulesetDef};
use tsoro_engine::clock::thread_cpu;
use tsoro_engine::columns::Column;
use tsoro_engine::nhodo::{NhodoModel, NhodoRecord, NhodoStats};
use utoipa::ToSchema;

/// The ids of the nhodo rulesets.
pub fn nhodo_ids() -> Vec<&'static str> {
    catalogue::all()
        .iter()
        .filter(|d| d.kind == Kind::Nhodo)
        .map(|d| d.id.as_str())
        .collect()
}

fn nhodo_ruleset_schema() -> utoipa::openapi::Object {
    utoipa::openapi::ObjectBuilder::new()
        .schema_type(utoipa::openapi::schema::Type::String)
        .enum_values(Some(nhodo_ids()))
        .description(Some("The nhodo ruleset id."))
        .build()
}

/// A nhodo run as asked for (`POST /api/v1/nhodo`; `tsoro simulate RULESET` on a nhodo
/// ruleset plays the same games).
#[derive(Clone, Debug, Deserialize, Serialize, ToSchema)]
#[schema(example = json!({"ruleset": "nhodo-matthews", "params": {"players": 3, "skill": 90},
    "games": 1000, "seed": "7"}))]
#[serde(deny_unknown_fields)]
pub struct NhodoRequest {
    /// The ruleset id.
    #[schema(schema_with = nhodo_ruleset_schema)]
    pub ruleset: String,
    /// Parameter values by name (others at their defaults; the ruleset's `params` lists them
    /// with their ranges).
    #[serde(default)]
    #[schema(schema_with = super::plan::params_schema)]
    pub params: Params,
    /// Games to play (at most the service's `--max-games`).
    #[serde(deserialize_with = "deserialize_u64")]
    #[schema(minimum = 1)]
    pub games: u64,
    /// The run's seed: game k depends only on (seed, k).
    #[serde(default, deserialize_with = "deserialize_seed")]
    #[schema(value_type = super::plan::Seed)]
    pub seed: u64,
}

/// A checked nhodo run, priced, ready to store as a job.
#[derive(Clone, Debug)]
pub struct NhodoPlan {
    /// The ruleset.
    pub def: &'static RulesetDef,
    /// Every parameter in force (defaults included).
    pub params: Params,
    /// The resolved configuration (the exact version run).
    pub config: Value,
    /// sha256 of the configuration's canonical JSON.
    pub hash: String,
    /// Games to play.
    pub games: u64,
    /// The run's seed.
    pub seed: u64,
    /// Games per chunk.
    pub chunk_games: u64,
    /// Its estimated cost, in core-seconds.
    pub cost: f64,
}

/// Why a nhodo request cannot become a job.
#[derive(Debug, thiserror::Error)]
pub enum NhodoRequestError {
    /// A field at fault (named).
    #[error(transparent)]
    Run(#[from] RunError),
    /// Estimated over `--max-job-cost`: (estimate, per game, bound), in core-seconds.
    #[error(
        "this run is estimated at {0:.0} core-seconds (about {1:.6} s a game, timed on sample \
         games), over the service's budget of {2:.0} core-seconds a job (--max-job-cost): ask \
         for fewer games"
    )]
    OverBudget(f64, f64, f64),
}

/// Sample games timed to price a run.
pub const SAMPLE_GAMES: u64 = 32;
/// The least a game is priced at, in core-seconds (a clock's resolution, and the cost of
/// storing its record).
pub const MIN_GAME_COST: f64 = 1e-6;

/// The model of a nhodo ruleset with these parameters, the field at fault named.
pub fn model(def: &RulesetDef, params: &Params) -> Result<NhodoModel, RunError> {
    match def.build_model(params)? {
        Model::Nhodo(m) => Ok(m),
        Model::Game(_) => Err(RunError::new(
            "ruleset",
            format!("{} is not a nhodo ruleset", def.id),
            format!("one of: {}", nhodo_ids().join(", ")),
        )),
    }
}

/// Checks a nhodo request against the catalogue and the service's limits, and prices it by
/// timing [`SAMPLE_GAMES`] of its games on this thread's CPU clock (nhodo games' length
/// depends on every parameter, so no fixed rate would hold).
pub fn check(req: &NhodoRequest, limits: &JobSettings) -> Result<NhodoPlan, NhodoRequestError> {
    let def = catalogue::get(&req.ruleset).map_err(RunError::from)?;
    if def.kind != Kind::Nhodo {
        return Err(RunError::new(
            "ruleset",
            format!(
                "{} is a game with players: simulate it at /api/v1/simulations",
                def.id
            ),
            format!("one of: {}", nhodo_ids().join(", ")),
        )
        .into());
    }
    let config = def.resolve(&req.params).map_err(RunError::from)?;
    let m = model(def, &req.params)?;
    let max = limits.max_games;
    if req.games == 0 || req.games > max {
        return Err(RunError::new(
            "games",
            format!("games = {}: a run has 1 to {max} games", req.games),
            format!("1..={max}"),
        )
        .into());
    }
    let start = thread_cpu();
    let sample = SAMPLE_GAMES.min(req.games);
    for k in 0..sample {
        m.play(req.seed, k);
    }
    let per_game =
        (thread_cpu().saturating_sub(start).as_secs_f64() / sample as f64).max(MIN_GAME_COST);
    let cost = per_game * req.games as f64;
    if cost > limits.max_job_cost {
        return Err(NhodoRequestError::OverBudget(
            cost,
            per_game,
            limits.max_job_cost,
        ));
    }
    Ok(NhodoPlan {
        def,
        params: def.effective_params(&req.params),
        hash: super::plan::config_hash(&config),
        config,
        games: req.games,
        seed: req.seed,
        chunk_games: chunk_games(per_game, limits),
        cost,
    })
}

/// The columns of a nhodo run's games CSV, in order, as its header and its data package say.
pub const GAME_COLUMNS: &[Column] = &[
    Column::new("game", "integer", "The game's index in the run (0-based)."),
    Column::new(
        "seed",
        "integer",
        "The game's own seed, from the run's seed and the index.",
    ),
    Column::new(
        "winner",
        "string",
        "The winning seat (1 = the first player), or `draw`.",
    ),
    Column::new(
        "reason",
        "string",
        "Why it ended: `last_standing` or `turn_limit`.",
    ),
    Column::new("turns", "integer", "Turns played."),
    Column::new("throws", "integer", "Clean throws made."),
    Column::new(
        "eaten",
        "string",
        "The seats eaten, in order, space-separated.",
    ),
];

/// The columns of a nhodo run's summary CSV ([`summary_csv`]).
pub const SUMMARY_COLUMNS: &[Column] = &[
    Column::new(
        "metric",
        "string",
        "What is measured (`seat_1_win_rate`, `draw_rate`, `turns_mean`, ...).",
    ),
    Column::new("value", "number", "Its value."),
    Column::new(
        "ci_low",
        "number",
        "The low end of its Wilson 95% interval (rates only).",
    ),
    Column::new(
        "ci_high",
        "number",
        "The high end of its Wilson 95% interval (rates only).",
    ),
];

/// The names of `columns`, as a CSV header record.
pub fn names(columns: &[Column]) -> impl Iterator<Item = &'static str> + '_ {
    columns.iter().map(|c| c.name)
}

/// One game's record as a CSV row (the eaten seats space-separated, in order; `draw` for no
/// winner).
#[derive(Serialize)]
struct Row<'a> {
    game: u64,
    seed: u64,
    winner: String,
    reason: &'a str,
    turns: u32,
    throws: u64,
    eaten: String,
}

impl<'a> From<&'a NhodoRecord> for Row<'a> {
    fn from(r: &'a NhodoRecord) -> Self {
        Row {
            game: r.game,
            seed: r.seed,
            winner: r.winner.map_or("draw".into(), |w| w.to_string()),
            reason: r.reason.as_str(),
            turns: r.turns,
            throws: r.throws,
            eaten: r
                .eaten
                .iter()
                .map(|s| s.to_string())
                .collect::<Vec<_>>()
                .join(" "),
        }
    }
}

/// A writer of games CSV rows (no header: write [`GAME_COLUMNS`] first for a whole file).
pub fn rows_writer<W: std::io::Write>(w: W) -> csv::Writer<W> {
    csv::WriterBuilder::new().has_headers(false).from_writer(w)
}

/// The header line of a games CSV.
pub fn header() -> Result<Vec<u8>, csv::Error> {
    let mut w = rows_writer(Vec::new());
    w.write_record(names(GAME_COLUMNS))?;
    w.into_inner().map_err(|e| csv::Error::from(e.into_error()))
}

/// Writes one record as a row.
pub fn write_row<W: std::io::Write>(
    w: &mut csv::Writer<W>,
    r: &NhodoRecord,
) -> Result<(), csv::Error> {
    w.serialize(Row::from(r))
}

/// The statistics, one metric per row (`metric,value,ci_low,ci_high`; Wilson 95% intervals
/// for the rates).
pub fn summary_csv(s: &NhodoStats) -> Result<Vec<u8>, csv::Error> {
    let mut w = csv::Writer::from_writer(Vec::new());
    w.write_record(names(SUMMARY_COLUMNS))?;
    for (i, r) in s.wins.iter().enumerate() {
        w.write_record([
            format!("seat_{}_win_rate", i + 1),
            r.rate.to_string(),
            r.ci.low.to_string(),
            r.ci.high.to_string(),
        ])?;
    }
    w.write_record([
        "draw_rate".into(),
        s.draws.rate.to_string(),
        s.draws.ci.low.to_string(),
        s.draws.ci.high.to_string(),
    ])?;
    for (name, d) in [("turns", &s.turns), ("throws", &s.throws)] {
        for (k, v) in [
            ("mean", d.mean),
            ("sd", d.sd),
            ("median", d.median as f64),
            ("p10", d.p10 as f64),
            ("p90", d.p90 as f64),
            ("min", d.min as f64),
            ("max", d.max as f64),
        ] {
            w.write_record([
                format!("{name}_{k}"),
                v.to_string(),
                String::new(),
                String::new(),
            ])?;
        }
    }
    w.into_inner().map_err(|e| csv::Error::from(e.into_error()))
}

/// The command line that plays the same run.
pub fn command(ruleset: &str, params: &Params, games: i64, seed: u64) -> String {
    let mut cmd = format!("tsoro simulate --ruleset {ruleset} --games {games} --seed {seed}");
    for (k, v) in params {
        cmd.push_str(&format!(" --param {k}={v}"));
    }
    cmd
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The games and summary CSVs' headers are the columns their data package describes.
    #[test]
    fn the_csv_headers_are_the_described_columns() {
        let line = |bytes: &[u8]| {
            String::from_utf8(bytes.to_vec())
                .unwrap()
                .lines()
                .next()
                .unwrap()
                .to_string()
        };
        let described = |cols: &[Column]| names(cols).collect::<Vec<_>>().join(",");
        assert_eq!(line(&header().unwrap()), described(GAME_COLUMNS));
        let stats = tsoro_engine::nhodo::NhodoSummary::default().stats();
        assert_eq!(
            line(&summary_csv(&stats).unwrap()),
            described(SUMMARY_COLUMNS)
        );
        assert_eq!(
            described(GAME_COLUMNS),
            "game,seed,winner,reason,turns,throws,eaten"
        );
    }
    use serde_json::json;

    fn req(body: Value) -> NhodoRequest {
        serde_json::from_value(body).unwrap()
    }

    #[test]
    fn a_run_is_checked_and_priced() {
        let limits = JobSettings::default();
        let p = check(
            &req(json!({"ruleset": "nhodo-matthews", "games": 100, "seed": 3})),
            &limits,
        )
        .unwrap();
        assert!(p.cost >= 100.0 * MIN_GAME_COST && p.cost.is_finite());
        assert!(p.chunk_games >= 1);
        let bad = check(
            &req(json!({"ruleset": "nhodo-matthews", "games": 10, "params": {"players": 9}})),
            &limits,
        )
        .unwrap_err();
        assert!(matches!(bad, NhodoRequestError::Run(ref e) if e.field == "params.players"));
        let game = check(
            &req(json!({"ruleset": "tsoro-ludii", "games": 10})),
            &limits,
        )
        .unwrap_err();
        assert!(matches!(game, NhodoRequestError::Run(ref e) if e.field == "ruleset"));
        let poor = JobSettings {
            max_job_cost: 1e-9,
            ..JobSettings::default()
        };
        assert!(matches!(
            check(
                &req(json!({"ruleset": "nhodo-matthews", "games": 10})),
                &poor
            ),
            Err(NhodoRequestError::OverBudget(..))
        ));
    }
}
