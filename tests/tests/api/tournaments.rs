//! Tournaments as jobs over HTTP against the real database: the results, games and ratings
//! equal the engine's own tournament (what `tsoro tournament --json` prints) on one worker and
//! on two, cut into chunks across pairs and pairings; a ladder's rungs, skill trace and exports
//! equal the engine's ladder (what `tsoro ladder --json` prints); bad input (a ladder's range
//! its family's syntax does not allow), the cost budget, cancel, delete and who may do them.

use crate::helpers::problem;
use reqwest::{Method, StatusCode};
use serde_json::{Value, json};
use std::time::Duration;
use tsoro_api::access::{Role, store};
use tsoro_api::settings::JobSettings;
use tsoro_engine::agents::AgentSpec;
use tsoro_engine::catalogue::{self, Params};
use tsoro_engine::tournament::ladder;
use tsoro_engine::tournament::ratings::DEFAULT_BOOTSTRAP;
use tsoro_engine::tournament::report::{games_csv, ratings_csv, report};
use tsoro_engine::tournament::{TournamentOptions, TournamentSpec, play_any};
use tsoro_tests::{TestApp, spawn_app_with_jobs};

const T: &str = "/api/v1/tournaments";

fn settings(workers: usize, chunk: u64) -> JobSettings {
    JobSettings {
        workers,
        chunk_games: chunk,
        lease: Duration::from_secs(2),
        poll: Duration::from_millis(50),
        threads: 2,
        ..JobSettings::default()
    }
}

async fn wait_done(app: &TestApp, url: &str) -> Value {
    for _ in 0..18 {
        let r = app.get(&format!("{url}?wait=10")).await;
        assert_eq!(r.status(), StatusCode::OK);
        let v: Value = r.json().await.unwrap();
        if ["done", "failed", "cancelled"].contains(&v["status"].as_str().unwrap()) {
            return v;
        }
    }
    panic!("{url} did not finish");
}

async fn submit(app: &TestApp, body: &Value) -> String {
    let r = app.post(T, body).await;
    assert_eq!(r.status(), StatusCode::ACCEPTED);
    let location = r.headers()["location"].to_str().unwrap().to_string();
    let v: Value = r.json().await.unwrap();
    assert_eq!(v["url"], location.as_str());
    assert_eq!(v["status"], "queued");
    location
}

async fn text(app: &TestApp, path: &str) -> String {
    let r = app.get(path).await;
    assert_eq!(r.status(), StatusCode::OK, "{path}");
    r.text().await.unwrap()
}

#[tokio::test]
async fn a_tournament_job_gives_the_engine_s_results_on_one_and_two_workers() {
    let agents = ["random", "greedy", "mcts:24"];
    let body = json!({"ruleset": "tsoro-ludii", "agents": agents, "pairs": 3,
        "seed": "11", "opening_plies": 2});
    // Chunks of 5 games cut pairs and pairings in two.
    let one = spawn_app_with_jobs(settings(1, 5)).await;
    let two = spawn_app_with_jobs(settings(2, 5)).await;
    let u1 = submit(&one, &body).await;
    let u2 = submit(&two, &body).await;
    let v1 = wait_done(&one, &u1).await;
    let v2 = wait_done(&two, &u2).await;
    assert_eq!(v1["status"], "done", "{v1}");
    assert_eq!(v2["status"], "done", "{v2}");

    // The engine's own tournament, as `tsoro tournament --json` plays and reports it.
    let g = catalogue::get("tsoro-ludii")
        .unwrap()
        .build(&Params::new())
        .unwrap();
    let spec = TournamentSpec::round_robin(
        agents
            .iter()
            .map(|a| a.parse::<AgentSpec>().unwrap())
            .collect(),
        3,
        11,
        2,
    );
    let run = play_any(&g, &spec, &TournamentOptions::default()).unwrap();
    let r = report(&spec, &run.games, DEFAULT_BOOTSTRAP);
    let expected = serde_json::to_value(&r).unwrap();
    assert_eq!(v1["results"]["report"], expected);
    assert_eq!(v2["results"]["report"], expected);
    assert_eq!(v1["games"], spec.games());
    assert_eq!(v1["pairings"], json!(spec.pairings));
    // The time per decision is measured, for every agent.
    for t in v1["results"]["time"].as_array().unwrap() {
        assert!(t["decisions"].as_u64().unwrap() > 0, "{t}");
    }
    assert_eq!(
        v1["command"],
        "tsoro tournament --ruleset tsoro-ludii --agents random,greedy,mcts:24 --pairs 3 \
         --seed 11 --opening-plies 2"
    );
    // Every chunk was played and stored, more than one (the games were cut).
    let chunks: i64 = sqlx::query_scalar("SELECT count(*) FROM simulation_chunks")
        .fetch_one(&two.pool)
        .await
        .unwrap();
    assert_eq!(chunks as u64, spec.games().div_ceil(5));

    // The exports, byte for byte.
    for (app, url) in [(&one, &u1), (&two, &u2)] {
        assert_eq!(
            text(app, &format!("{url}/games.csv")).await,
            games_csv(&spec, &run.games)
        );
        assert_eq!(
            text(app, &format!("{url}/ratings.csv")).await,
            ratings_csv(&r)
        );
    }
    let dp: Value =
        serde_json::from_str(&text(&one, &format!("{u1}/datapackage.json")).await).unwrap();
    let names: Vec<&str> = dp["resources"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["games", "ratings"]);
    let header = games_csv(&spec, &[]);
    let fields: Vec<&str> = dp["resources"][0]["schema"]["fields"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["name"].as_str().unwrap())
        .collect();
    assert_eq!(fields.join(",") + "\n", header);

    // A tournament is not a simulation, nor listed with them.
    let id = v1["id"].as_str().unwrap();
    assert_eq!(
        one.get(&format!("/api/v1/simulations/{id}")).await.status(),
        StatusCode::NOT_FOUND
    );
    let list: Value = one.get("/api/v1/simulations").await.json().await.unwrap();
    assert_eq!(list["items"].as_array().unwrap().len(), 0);
}

#[tokio::test]
async fn bad_tournaments_get_problems_naming_the_field() {
    let app = spawn_app_with_jobs(settings(0, 100)).await;
    for (body, field) in [
        (
            json!({"ruleset": "tsoro-ludii", "agents": "random,wizard", "pairs": 2}),
            "agents[1]",
        ),
        (
            json!({"ruleset": "tsoro-ludii", "agents": ["random", "mcts:1s"], "pairs": 2}),
            "agents[1]",
        ),
        (
            json!({"ruleset": "tsoro-ludii", "agents": "random", "pairs": 0}),
            "pairs",
        ),
        (
            json!({"ruleset": "tsoro-ludii", "agents": "random", "pairs": 2, "opening_plies": 99}),
            "opening_plies",
        ),
        (
            json!({"ruleset": "tsoro-ludii", "params": {"holes": 99}, "agents": "random", "pairs": 2}),
            "params.holes",
        ),
        (
            json!({"ruleset": "tsoro-ludii", "agents": ["mcts:1000000", "alphabeta:8"], "pairs": 50000}),
            "pairs",
        ),
    ] {
        let v = problem(app.post(T, &body).await, 422).await;
        assert_eq!(v["errors"][0]["field"], field, "{body}: {v}");
    }
    // Over the budget: the estimate and the bound.
    let r = app
        .post(
            T,
            &json!({"ruleset": "tsoro-ludii", "agents": ["mcts:1000000", "alphabeta:8"], "pairs": 50000}),
        )
        .await;
    let v: Value = r.json().await.unwrap();
    assert_eq!(v["type"], "/problems/over-budget");
    assert!(v["estimated_cost"].as_f64().unwrap() > v["max_job_cost"].as_f64().unwrap());
    let r = app
        .post(
            T,
            &json!({"ruleset": "tsoro-ludii", "agents": "random", "pairs": 2, "extra": 1}),
        )
        .await;
    assert_eq!(r.status(), StatusCode::BAD_REQUEST);
    assert_eq!(
        app.get(&format!("{T}/00000000-0000-0000-0000-000000000000"))
            .await
            .status(),
        StatusCode::NOT_FOUND
    );
    // No worker: the tournament waits, and its exports are not ready.
    let url = submit(
        &app,
        &json!({"ruleset": "tsoro-ludii", "agents": "random,greedy", "pairs": 2}),
    )
    .await;
    for export in ["games.csv", "ratings.csv"] {
        assert_eq!(
            app.get(&format!("{url}/{export}")).await.status(),
            StatusCode::CONFLICT
        );
    }
    let r = app.get(&format!("{url}?wait=61")).await;
    assert_eq!(r.status(), StatusCode::BAD_REQUEST);
}

async fn send(app: &TestApp, method: Method, path: &str, token: Option<&str>) -> StatusCode {
    let mut r = app.client.request(method, format!("{}{path}", app.address));
    if let Some(t) = token {
        r = r.bearer_auth(t);
    }
    if path == T {
        r = r.json(&json!({"ruleset": "tsoro-ludii", "agents": "random", "pairs": 1}));
    }
    r.send().await.expect("request").status()
}

#[tokio::test]
async fn runners_start_tournaments_and_owners_or_admins_stop_and_delete_them() {
    let app = spawn_app_with_jobs(settings(0, 100)).await;
    let admin = store::add(&app.pool, "root", Role::Admin).await.unwrap();
    let ann = store::add(&app.pool, "ann", Role::Runner).await.unwrap();
    let bob = store::add(&app.pool, "bob", Role::Runner).await.unwrap();
    let reader = store::add(&app.pool, "rita", Role::Reader).await.unwrap();
    assert_eq!(
        send(&app, Method::POST, T, None).await,
        StatusCode::UNAUTHORIZED
    );
    assert_eq!(
        send(&app, Method::POST, T, Some(&reader)).await,
        StatusCode::FORBIDDEN
    );
    let r = app
        .client
        .post(format!("{}{T}", app.address))
        .bearer_auth(&ann)
        .json(&json!({"ruleset": "tsoro-ludii", "agents": "random", "pairs": 1}))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), StatusCode::ACCEPTED);
    let v: Value = r.json().await.unwrap();
    assert_eq!(v["owner"], "ann");
    let url = v["url"].as_str().unwrap().to_string();
    // Anyone reads it by its link.
    assert_eq!(app.get(&url).await.status(), StatusCode::OK);
    assert_eq!(
        send(&app, Method::DELETE, &url, Some(&bob)).await,
        StatusCode::FORBIDDEN
    );
    assert_eq!(
        send(&app, Method::DELETE, &url, Some(&ann)).await,
        StatusCode::OK
    );
    let v: Value = app.get(&url).await.json().await.unwrap();
    assert_eq!(v["status"], "cancelled");
    assert_eq!(
        send(&app, Method::DELETE, &url, Some(&ann)).await,
        StatusCode::CONFLICT
    );
    assert_eq!(
        send(
            &app,
            Method::DELETE,
            &format!("{url}?purge=true"),
            Some(&admin)
        )
        .await,
        StatusCode::OK
    );
    assert_eq!(app.get(&url).await.status(), StatusCode::NOT_FOUND);
}

/// A tournament that cannot store its games (the database's disk is full, as the workers mark
/// it) says so in its JSON and on its page, and no longer once it stores again.
#[tokio::test]
async fn a_paused_tournament_says_why_in_its_json_and_on_its_page() {
    let app = spawn_app_with_jobs(settings(0, 100)).await;
    let url = submit(
        &app,
        &json!({"ruleset": "tsoro-ludii", "agents": "random,greedy", "pairs": 2}),
    )
    .await;
    let v: Value = app.get(&url).await.json().await.unwrap();
    assert!(v["paused"].is_null(), "{v}");
    let id: sqlx::types::Uuid = v["id"].as_str().unwrap().parse().unwrap();
    let why = "disk full: the database could not store a chunk's records";
    tsoro_api::jobs::store::pause(&app.pool, id, why)
        .await
        .unwrap();
    let v: Value = app.get(&url).await.json().await.unwrap();
    assert_eq!(v["paused"]["reason"], why, "{v}");
    assert!(v["paused"]["since"].is_string(), "{v}");
    let page = text(&app, v["links"]["page"].as_str().unwrap()).await;
    assert!(page.contains("id=\"paused\""), "{page}");
    assert!(page.contains("disk full"), "{page}");

    // Cancelled, it has ended: no longer paused.
    let r = app.delete(&url).await;
    assert_eq!(r.status(), StatusCode::OK);
    let v: Value = app.get(&url).await.json().await.unwrap();
    assert!(v["paused"].is_null(), "{v}");
}

const L: &str = "/api/v1/ladders";

#[tokio::test]
async fn a_ladder_job_gives_the_engine_s_ladder_on_two_workers() {
    let app = spawn_app_with_jobs(settings(2, 5)).await;
    let r = app
        .post(
            L,
            &json!({"ruleset": "tsoro-ludii", "from": 2, "to": 8, "pairs": 3, "seed": "4",
                "opening_plies": 1}),
        )
        .await;
    assert_eq!(r.status(), StatusCode::ACCEPTED);
    let location = r.headers()["location"].to_str().unwrap().to_string();
    assert!(location.starts_with(T), "{location}");
    let v: Value = r.json().await.unwrap();
    assert_eq!(v["ladder"], json!({"family": "mcts", "from": 2, "to": 8}));
    assert_eq!(v["agents"], json!(["mcts:2", "mcts:4", "mcts:8"]));
    let v = wait_done(&app, &location).await;
    assert_eq!(v["status"], "done", "{v}");

    // The engine's own ladder, as `tsoro ladder --json` plays and reports it.
    let g = catalogue::get("tsoro-ludii")
        .unwrap()
        .build(&Params::new())
        .unwrap();
    let spec = ladder::spec(ladder::levels("mcts", 2, 8).unwrap(), 3, 4, 1);
    let run = play_any(&g, &spec, &TournamentOptions::default()).unwrap();
    let r = report(&spec, &run.games, DEFAULT_BOOTSTRAP);
    let l = ladder::report(&spec, &r);
    assert_eq!(v["results"]["report"], serde_json::to_value(&r).unwrap());
    assert_eq!(v["results"]["ladder"], serde_json::to_value(&l).unwrap());
    assert_eq!(v["pairings"], json!(spec.pairings));
    let rungs = v["results"]["ladder"]["rungs"].as_array().unwrap();
    assert_eq!(rungs.len(), 3);
    for rung in rungs {
        for key in ["first_player", "skill"] {
            if let Some(ci) = rung[key].get("ci") {
                assert!(ci["low"].as_f64() <= rung[key]["score"].as_f64(), "{rung}");
            }
        }
        assert!(rung["turns"]["ci"]["high"].is_number(), "{rung}");
        assert!(rung["decisive_ci"]["low"].is_number(), "{rung}");
    }
    assert_eq!(
        v["command"],
        "tsoro ladder --ruleset tsoro-ludii --family mcts --from 2 --to 8 --pairs 3 --seed 4 \
         --opening-plies 1"
    );
    assert_eq!(
        text(&app, &format!("{location}/games.csv")).await,
        games_csv(&spec, &run.games)
    );
    assert_eq!(
        text(&app, &format!("{location}/ratings.csv")).await,
        ratings_csv(&r)
    );
    let csv = text(&app, &format!("{location}/ladder.csv")).await;
    assert_eq!(csv, ladder::ladder_csv(&l));
    let dp: Value =
        serde_json::from_str(&text(&app, &format!("{location}/datapackage.json")).await).unwrap();
    let ladder_fields: Vec<&str> = dp["resources"][2]["schema"]["fields"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["name"].as_str().unwrap())
        .collect();
    assert_eq!(dp["resources"][2]["path"], "ladder.csv");
    assert_eq!(ladder_fields.join(","), csv.lines().next().unwrap());

    // Its page shows the rungs and what the skill trace says.
    let page = text(&app, &format!("/tournaments/{}", v["id"].as_str().unwrap())).await;
    assert!(page.contains("<h1>Ladder on"), "{page}");
    assert!(page.contains(&html_escape(&l.verdict)), "{page}");
    for rung in &l.rungs {
        assert!(page.contains(&format!("<th scope=\"row\">{}</th>", rung.agent)));
    }
    assert!(page.contains("ladder.csv"));
    assert!(page.contains("tsoro ladder --ruleset tsoro-ludii"));
}

/// Text as askama escapes it in a page.
fn html_escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
        .replace('\'', "&#39;")
}

#[tokio::test]
async fn bad_ladders_get_problems_naming_the_field() {
    let app = spawn_app_with_jobs(settings(0, 100)).await;
    for (body, field) in [
        (
            json!({"ruleset": "tsoro-ludii", "from": 16, "to": 100, "pairs": 2}),
            "to",
        ),
        (
            json!({"ruleset": "tsoro-ludii", "from": 16, "to": 16, "pairs": 2}),
            "to",
        ),
        (
            json!({"ruleset": "tsoro-ludii", "from": 0, "to": 16, "pairs": 2}),
            "from",
        ),
        (
            json!({"ruleset": "tsoro-ludii", "from": 16, "to": 2097152, "pairs": 2}),
            "to",
        ),
        (
            json!({"ruleset": "tsoro-ludii", "family": "alphabeta", "from": 2, "to": 9, "pairs": 2}),
            "to",
        ),
        (
            json!({"ruleset": "tsoro-ludii", "family": "alphabeta", "from": 9, "to": 10, "pairs": 2}),
            "from",
        ),
        (
            json!({"ruleset": "tsoro-ludii", "family": "minimax", "from": 1, "to": 2, "pairs": 2}),
            "family",
        ),
        (
            json!({"ruleset": "tsoro-ludii", "from": 2, "to": 4, "pairs": 0}),
            "pairs",
        ),
        (
            json!({"ruleset": "tsoro-ludii", "params": {"holes": 99}, "from": 2, "to": 4, "pairs": 2}),
            "params.holes",
        ),
        (
            json!({"ruleset": "tsoro-ludii", "from": 65536, "to": 524288, "pairs": 100000}),
            "pairs",
        ),
    ] {
        let v = problem(app.post(L, &body).await, 422).await;
        assert_eq!(v["errors"][0]["field"], field, "{body}: {v}");
    }
    let r = app
        .post(
            L,
            &json!({"ruleset": "tsoro-ludii", "from": 2, "to": 4, "pairs": 2, "agents": "random"}),
        )
        .await;
    assert_eq!(r.status(), StatusCode::BAD_REQUEST);
    // A tournament of chosen agents has no ladder.csv.
    let url = submit(
        &app,
        &json!({"ruleset": "tsoro-ludii", "agents": "random,greedy", "pairs": 2}),
    )
    .await;
    problem(app.get(&format!("{url}/ladder.csv")).await, 404).await;
}

#[tokio::test]
async fn a_ruleset_page_shows_the_first_player_advantage_measured_on_it() {
    let app = spawn_app_with_jobs(settings(1, 100)).await;
    let before = text(&app, "/rulesets/tsoro-ludii").await;
    assert!(before.contains("id=\"advantage-none\""), "{before}");
    assert!(before.contains("href=\"/tournaments/new?ruleset=tsoro-ludii&amp;ladder=1\""));
    assert!(before.contains("href=\"/simulations/new?ruleset=tsoro-ludii\""));

    // Random play at the default parameters, and at others (another game: not shown), and a
    // ladder.
    let mut urls = vec![];
    for body in [
        json!({"ruleset": "tsoro-ludii", "agents": "random", "games": 40, "seed": "1"}),
        json!({"ruleset": "tsoro-ludii", "params": {"holes": 10}, "agents": "random", "games": 60}),
    ] {
        let r = app.post("/api/v1/simulations", &body).await;
        assert_eq!(r.status(), StatusCode::ACCEPTED);
        let v: Value = r.json().await.unwrap();
        urls.push(v["url"].as_str().unwrap().to_string());
    }
    let r = app
        .post(
            L,
            &json!({"ruleset": "tsoro-ludii", "from": 2, "to": 4, "pairs": 2}),
        )
        .await;
    assert_eq!(r.status(), StatusCode::ACCEPTED);
    let ladder = r.headers()["location"].to_str().unwrap().to_string();
    for url in urls.iter().chain([&ladder]) {
        assert_eq!(wait_done(&app, url).await["status"], "done", "{url}");
    }
    let sim: Value = app
        .get(&format!("{}/summary.json", urls[0]))
        .await
        .json()
        .await
        .unwrap();
    let l = wait_done(&app, &ladder).await;
    let page = text(&app, "/rulesets/tsoro-ludii").await;
    assert!(!page.contains("advantage-none"), "{page}");
    let sim_id = urls[0].rsplit('/').next().unwrap();
    let row = |what: &str| {
        let at = page
            .find(&format!("<th scope=\"row\">{what}</th>"))
            .expect(what);
        page[at..page[at..].find("</tr>").unwrap() + at].to_string()
    };
    // Random play: the 40 games at the default parameters, with the first player's score.
    let random = row("random play");
    assert!(random.contains("<td>40</td>"), "{random}");
    assert!(
        random.contains(&format!("href=\"/simulations/{sim_id}\"")),
        "{random}"
    );
    let s = &sim["stats"];
    let wins = s["first_mover"]["count"].as_u64().unwrap() as f64;
    let draws = s["draws"]["count"].as_u64().unwrap() as f64;
    let score = (wins + draws / 2.0) / 40.0;
    assert!(
        random.contains(&format!("{:.1}% (", 100.0 * score)),
        "{random}: {s}"
    );
    // The ladder's top rung: its first player's score with its interval, linked.
    let top = &l["results"]["ladder"]["rungs"][1];
    assert_eq!(top["agent"], "mcts:4");
    let fp = &top["first_player"];
    let mcts = row("mcts, strongest measured");
    let want = format!(
        "<td>mcts:4</td><td>{:.1}% ({:.1}–{:.1}%)</td><td>4</td>",
        100.0 * fp["score"].as_f64().unwrap(),
        100.0 * fp["ci"]["low"].as_f64().unwrap(),
        100.0 * fp["ci"]["high"].as_f64().unwrap()
    );
    assert!(mcts.contains(&want), "{mcts} lacks {want}");
    assert!(mcts.contains(&format!(
        "href=\"/tournaments/{}\">a ladder",
        l["id"].as_str().unwrap()
    )));
}
