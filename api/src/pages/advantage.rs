//! A ruleset's first-player advantage as this service has measured it, for its page: under
//! random play and at the strongest level of each family of agents measured so far, each with
//! its 95% interval and a link to the run that measured it. Measured means a finished
//! simulation whose two seats held the same agent, or the self-play pairing of a finished
//! tournament or ladder, on the ruleset at its default parameters and current version (other
//! parameters make another game).

use crate::runs::plan::{self, Agents, RunRequest};
use askama::Template;
use serde_json::Value;
use sqlx::{PgPool, Row};
use tsoro_engine::agents::{AgentSpec, Budget, Eval};
use tsoro_engine::catalogue::Params;
use tsoro_engine::stats::interval::wilson_score;
use uuid::Uuid;

/// Most finished runs of one ruleset read for its page (the newest).
const MAX_RUNS: i64 = 500;

/// One measurement of the first player's score with an agent playing itself.
#[derive(Clone, Debug, PartialEq)]
pub struct Measure {
    /// The agent on both sides.
    pub agent: String,
    /// The first player's mean score (draws as half wins).
    pub score: f64,
    /// Its 95% Wilson interval, low end.
    pub low: f64,
    /// High end.
    pub high: f64,
    /// Games.
    pub games: u64,
    /// The run's page.
    pub link: String,
    /// What the run was: a simulation, a tournament or a ladder.
    pub run: &'static str,
}

/// An agent's family and level: the families' strongest level is the largest.
fn family(agent: &str) -> Option<(String, u64)> {
    match agent.parse::<AgentSpec>().ok()? {
        AgentSpec::Random => None,
        AgentSpec::Greedy => Some(("greedy".into(), 0)),
        AgentSpec::AlphaBeta { depth, eval } => Some((
            match eval {
                Eval::Material => "alphabeta".into(),
                Eval::Mobility => "alphabeta (mobility)".into(),
                Eval::Mixed => "alphabeta (mixed)".into(),
            },
            depth.into(),
        )),
        AgentSpec::Deepening {
            budget: Budget::Nodes(nodes),
            eval,
        } => Some((format!("alphabeta:n ({eval:?})"), nodes.into())),
        AgentSpec::Mcts { iterations, c } if c == std::f64::consts::SQRT_2 => {
            Some(("mcts".into(), iterations.into()))
        }
        AgentSpec::Mcts { iterations, c } => Some((format!("mcts (C = {c})"), iterations.into())),
        // Not reproducible: never played by a job.
        AgentSpec::Deepening { .. } | AgentSpec::MctsTimed { .. } => None,
    }
}

/// The first player's score from counts of wins and draws in `games`.
fn measure(
    agent: &str,
    wins: u64,
    draws: u64,
    games: u64,
    link: String,
    run: &'static str,
) -> Measure {
    let points = wins as f64 + 0.5 * draws as f64;
    let ci = wilson_score(points, games);
    Measure {
        agent: agent.to_string(),
        score: points / games.max(1) as f64,
        low: ci.low,
        high: ci.high,
        games,
        link,
        run,
    }
}

/// The version of `ruleset` at its default parameters (None: not a game agents play).
fn default_version(ruleset: &str) -> Option<String> {
    let req = RunRequest {
        ruleset: ruleset.to_string(),
        params: Params::new(),
        agents: Agents::default(),
        games: 1,
        seed: 0,
        turn_limit: None,
        swap_seats: true,
        reference: false,
    };
    plan::plan(&req, 1).ok().map(|p| p.hash)
}

/// Every self-play measurement of `ruleset` at its default parameters, newest run first.
pub async fn measured(pool: &PgPool, ruleset: &str) -> Result<Vec<Measure>, sqlx::Error> {
    let Some(version) = default_version(ruleset) else {
        return Ok(vec![]);
    };
    let rows = sqlx::query(
        "SELECT id, kind, agents, \
            CASE WHEN kind = 'tournament' THEN summary->'report'->'pairings' END AS pairings, \
            summary ? 'ladder' AS ladder, \
            (summary->>'games')::bigint AS games, \
            (summary->>'first_mover_wins')::bigint AS first_wins, \
            (summary->>'draws')::bigint AS draws \
         FROM simulation_jobs \
         WHERE ruleset = $1 AND ruleset_hash = $2 AND status = 'done' \
         ORDER BY finished_at DESC, id LIMIT $3",
    )
    .bind(ruleset)
    .bind(&version)
    .bind(MAX_RUNS)
    .fetch_all(pool)
    .await?;
    let mut out = vec![];
    for r in rows {
        let id: Uuid = r.try_get("id")?;
        let kind: String = r.try_get("kind")?;
        if kind == "tournament" {
            let ladder: Option<bool> = r.try_get("ladder")?;
            let run = if ladder == Some(true) {
                "ladder"
            } else {
                "tournament"
            };
            let pairings: Option<Value> = r.try_get("pairings")?;
            for p in pairings
                .as_ref()
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
            {
                let (Some(a), Some(b)) = (p["agents"][0].as_str(), p["agents"][1].as_str()) else {
                    continue;
                };
                let fp = &p["first_player"];
                if a != b || fp["games"].as_u64().unwrap_or(0) == 0 {
                    continue;
                }
                let mut m = measure(
                    a,
                    fp["wins"].as_u64().unwrap_or(0),
                    fp["draws"].as_u64().unwrap_or(0),
                    fp["games"].as_u64().unwrap_or(0),
                    format!("/tournaments/{id}"),
                    run,
                );
                // The run's own interval (over its pairs, whose games share an opening), as
                // its page gives it, where the run stored one.
                if let (Some(low), Some(high)) =
                    (fp["ci"]["low"].as_f64(), fp["ci"]["high"].as_f64())
                {
                    (m.low, m.high) = (low, high);
                }
                out.push(m);
            }
        } else {
            let agents: Vec<String> = r.try_get("agents")?;
            let (games, wins, draws): (Option<i64>, Option<i64>, Option<i64>) = (
                r.try_get("games")?,
                r.try_get("first_wins")?,
                r.try_get("draws")?,
            );
            let (Some(games), Some(wins), Some(draws)) = (games, wins, draws) else {
                continue;
            };
            if agents.len() == 2 && agents[0] == agents[1] && games > 0 {
                out.push(measure(
                    &agents[0],
                    wins as u64,
                    draws as u64,
                    games as u64,
                    format!("/simulations/{id}"),
                    "simulation",
                ));
            }
        }
    }
    Ok(out)
}

/// What the page shows: the random-play measurement with the most games, and per family of
/// searching agents the measurement at its highest level (the most games among equals), the
/// families in name order.
pub fn strongest(all: &[Measure]) -> (Option<Measure>, Vec<(String, Measure)>) {
    // `all` is newest first: among equals, the first seen stays.
    let mut random: Option<&Measure> = None;
    let mut top: Vec<(String, u64, &Measure)> = vec![];
    for m in all {
        match family(&m.agent) {
            None if m.agent == "random" && random.is_none_or(|r| m.games > r.games) => {
                random = Some(m);
            }
            None => {}
            Some((f, level)) => match top.iter_mut().find(|t| t.0 == f) {
                Some(t) if (level, m.games) > (t.1, t.2.games) => {
                    t.1 = level;
                    t.2 = m;
                }
                Some(_) => {}
                None => top.push((f, level, m)),
            },
        }
    }
    top.sort_by(|a, b| a.0.cmp(&b.0));
    (
        random.cloned(),
        top.into_iter().map(|(f, _, m)| (f, m.clone())).collect(),
    )
}

/// One line of the section's table.
struct Line {
    what: String,
    m: Measure,
}

#[derive(Template)]
#[template(path = "ruleset_advantage.html")]
struct Section<'a> {
    ruleset: &'a str,
    random: Option<Line>,
    searching: Vec<Line>,
}

impl Line {
    fn score(&self) -> String {
        format!(
            "{:.1}% ({:.1}–{:.1}%)",
            100.0 * self.m.score,
            100.0 * self.m.low,
            100.0 * self.m.high
        )
    }
}

/// The section of `ruleset`'s page (empty for a ruleset agents do not play).
pub async fn section(pool: &PgPool, ruleset: &str) -> Result<String, sqlx::Error> {
    if default_version(ruleset).is_none() {
        return Ok(String::new());
    }
    let (random, top) = strongest(&measured(pool, ruleset).await?);
    let page = Section {
        ruleset,
        random: random.map(|m| Line {
            what: "random play".into(),
            m,
        }),
        searching: top
            .into_iter()
            .map(|(f, m)| Line {
                what: format!("{f}, strongest measured"),
                m,
            })
            .collect(),
    };
    Ok(page.render().unwrap_or_default())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn m(agent: &str, games: u64) -> Measure {
        measure(
            agent,
            games / 2,
            0,
            games,
            format!("/x/{agent}/{games}"),
            "simulation",
        )
    }

    #[test]
    fn the_strongest_level_of_each_family_and_the_largest_random_run_are_shown() {
        let all = [
            m("random", 100),
            m("mcts:64", 10),
            m("random", 400),
            m("mcts:1024", 10),
            m("mcts:1024", 30),
            m("mcts:1024", 20),
            m("alphabeta:3", 10),
            m("alphabeta:5:mobility", 10),
            m("greedy", 10),
            m("mcts:2048:0.5", 10),
        ];
        let (random, top) = strongest(&all);
        assert_eq!(random.unwrap().games, 400);
        let shown: Vec<(String, String, u64)> = top
            .iter()
            .map(|(f, m)| (f.clone(), m.agent.clone(), m.games))
            .collect();
        assert_eq!(
            shown,
            [
                ("alphabeta".into(), "alphabeta:3".into(), 10),
                (
                    "alphabeta (mobility)".into(),
                    "alphabeta:5:mobility".into(),
                    10
                ),
                ("greedy".into(), "greedy".into(), 10),
                ("mcts".into(), "mcts:1024".into(), 30),
                ("mcts (C = 0.5)".into(), "mcts:2048:0.5".into(), 10),
            ]
        );
        let (none, empty) = strongest(&[]);
        assert!(none.is_none() && empty.is_empty());
        // The score counts draws as half wins, with its Wilson interval.
        let x = measure("random", 30, 20, 100, String::new(), "simulation");
        assert_eq!(x.score, 0.4);
        assert!(x.low < 0.4 && 0.4 < x.high);
    }
}
