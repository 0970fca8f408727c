//! The web pages in a real browser (headless Chromium through WebDriver): every page renders
//! with its scripts run and its links resolve, a game is played to its end by clicking
//! holes, and a simulation started from the form shows its plot. Screenshots are kept in
//! `target/screenshots/`. A binary of its own: each test runs a Chromium whose page loads
//! take both cores for seconds, which the deadlines of the `api` binary's tests would otherwise
//! be measuring.

use fantoccini::Locator;
use serde_json::{Value, json};
use std::collections::BTreeSet;
use std::time::Duration;
use tsoro_tests::browser::{self, Browser};
use tsoro_tests::{TestApp, spawn_app, spawn_app_with_jobs};

/// Every same-origin link of the page open in the browser (without fragments), and the
/// fragments it links to on other pages (`/rulesets/x#rule-layout`).
async fn links(b: &Browser) -> Vec<String> {
    let v = b
        .js(
            "return Array.from(document.querySelectorAll('a[href]')).map(a => a.href)
              .filter(h => h.startsWith(location.origin));",
        )
        .await;
    v.as_array()
        .unwrap()
        .iter()
        .filter_map(Value::as_str)
        .map(str::to_string)
        .collect()
}

/// The page's title and that it has no horizontal scroll at this width.
async fn check_page(b: &Browser, url: &str) -> String {
    b.goto(url).await;
    let title = b.js("return document.title").await;
    let title = title.as_str().unwrap().to_string();
    assert!(!title.starts_with("404"), "{url}: {title}");
    assert!(!title.starts_with("500"), "{url}: {title}");
    let h1 = b
        .js("return document.querySelector('h1') ? document.querySelector('h1').textContent : ''")
        .await;
    assert!(!h1.as_str().unwrap().is_empty(), "{url} has a heading");
    let fits = b
        .js("return document.documentElement.scrollWidth <= window.innerWidth + 1")
        .await;
    assert_eq!(fits, Value::Bool(true), "{url} is wider than the window");
    title
}

fn shot_name(path: &str) -> String {
    let s: String = path
        .trim_matches('/')
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
        .collect();
    if s.is_empty() { "home".into() } else { s }
}

#[tokio::test]
async fn every_page_renders_and_every_link_resolves() {
    let Some(b) = browser::start(1280, 1000).await else {
        return;
    };
    let app = spawn_app().await;
    let mut pages: Vec<String> = vec![
        "/".into(),
        "/simulations/new".into(),
        "/readings/new".into(),
        "/rulesets/tsoro-matthews-basic/readings".into(),
    ];
    for index in [
        "/games",
        "/rulesets",
        "/sources",
        "/evidence",
        "/simulations",
        "/search",
        "/search?q=misor",
    ] {
        pages.push(index.into());
    }
    for g in [
        "tsoro",
        "njombwa",
        "tsoro-yemutwelve",
        "dig-dig",
        "tsoro-yemutatu",
        "nhodo",
    ] {
        pages.push(format!("/games/{g}"));
    }
    for id in tsoro_engine::catalogue::ids() {
        pages.push(format!("/rulesets/{id}"));
    }
    pages.push("/rulesets/tsoro-matthews-basic/diff/tsoro-ludii".into());
    pages.push("/rulesets/njombwa-sanderson-gambit/diff/njombwa-ludii".into());
    pages.push("/rulesets/tsoro-yemutatu-matthews-a/play".into());
    pages.push("/rulesets/tsoro-yemutatu-ludii-triangle/play".into());
    pages.push("/rulesets/tsoro-matthews-v7/play".into());
    pages.push("/evidence/matthews-1964-tsoro-b".into());
    pages.push("/sources/matthews-1964".into());
    pages.push("/sources/ludii-portal".into());
    for about in ["/about/numbering", "/about/citations", "/about/readings"] {
        pages.push(about.into());
    }
    // A readings study, so that the crawl reaches its page (and the comparison of its runs).
    let study: Value = app
        .post(
            "/api/v1/readings",
            &json!({"ruleset": "tsoro-matthews-basic", "params": ["back_capture"], "games": 10}),
        )
        .await
        .json()
        .await
        .unwrap();
    let study = study["id"].as_str().expect("a study's id").to_string();
    pages.push(format!("/readings/{study}"));
    pages.push(format!("/comparisons/{study}"));
    // The badge vocabulary, as /about/citations documents it.
    b.goto(&format!("{}/about/citations", app.address)).await;
    let documented = b
        .js("return Array.from(document.querySelectorAll('dl.badges .badge')).map(e => e.textContent)")
        .await;
    let documented: BTreeSet<String> = documented
        .as_array()
        .unwrap()
        .iter()
        .filter_map(Value::as_str)
        .map(str::to_string)
        .collect();
    assert!(documented.contains("cited") && documented.contains("inherited"));
    let mut seen = BTreeSet::new();
    let mut to_check = BTreeSet::new();
    for p in &pages {
        check_page(&b, &format!("{}{p}", app.address)).await;
        if p.ends_with("/play") {
            // Its script ran: the status names who is to move.
            b.wait_until(
                "return document.getElementById('status').textContent.includes('to move')",
                10,
            )
            .await;
        }
        if matches!(
            p.as_str(),
            "/" | "/games/tsoro"
                | "/rulesets/tsoro-matthews-basic"
                | "/rulesets/dig-dig-matthews"
                | "/rulesets/tsoro-matthews-basic/diff/tsoro-ludii"
                | "/evidence/matthews-1964-tsoro-b"
                | "/sources/matthews-1964"
                | "/simulations/new"
        ) {
            b.screenshot(&shot_name(p)).await;
        }
        // One badge vocabulary: each badge is `badge WORD` showing WORD, a documented word.
        let shown = b
            .js("return Array.from(document.querySelectorAll('.badge, .tag')).map(e => [e.className, e.textContent])")
            .await;
        for pair in shown.as_array().unwrap() {
            let (class, word) = (pair[0].as_str().unwrap(), pair[1].as_str().unwrap());
            assert_eq!(
                class,
                format!("badge {word}"),
                "{p}: a badge outside the vocabulary"
            );
            assert!(
                documented.contains(word),
                "{p}: the badge {word} is not documented"
            );
        }
        // No page sends a reader to the repository's files.
        let text = b.js("return document.body.innerText").await;
        assert!(
            !text.as_str().unwrap().contains("README"),
            "{p} points at a repository file"
        );
        seen.insert(p.clone());
        for l in links(&b).await {
            to_check.insert(l);
        }
    }
    // Every link resolves; every fragment names an element of its page.
    let client = reqwest::Client::new();
    for l in &to_check {
        let (url, frag) = match l.split_once('#') {
            Some((u, f)) => (u.to_string(), Some(f.to_string())),
            None => (l.clone(), None),
        };
        let r = client.get(&url).send().await.unwrap();
        assert_eq!(r.status().as_u16(), 200, "the link {l} is broken");
        if let Some(f) = frag.filter(|f| !f.is_empty()) {
            let body = r.text().await.unwrap();
            assert!(
                body.contains(&format!("id=\"{f}\"")),
                "{l}: no element #{f}"
            );
        }
    }
    assert!(to_check.len() > 100, "{} links checked", to_check.len());
    b.close().await;

    // On a phone: the pages fit the screen.
    let Some(phone) = browser::start(390, 844).await else {
        return;
    };
    for p in [
        "/",
        "/search?q=misor",
        "/rulesets/tsoro-matthews-basic",
        "/rulesets/tsoro-matthews-basic/play",
        "/evidence/matthews-1964-tsoro-b",
    ] {
        check_page(&phone, &format!("{}{p}", app.address)).await;
        phone.screenshot(&format!("phone-{}", shot_name(p))).await;
    }
    phone.close().await;
}

#[tokio::test]
async fn the_ruleset_page_picks_any_two_rulesets_to_diff() {
    let Some(b) = browser::start(1280, 1000).await else {
        return;
    };
    let app = spawn_app().await;
    b.goto(&format!("{}/rulesets/tsoro-matthews-v7", app.address))
        .await;
    // The board: four rows, the holes named, at the start.
    let holes = b
        .js("return document.querySelectorAll('figure.board-figure [data-hole]').length")
        .await;
    assert_eq!(holes, json!(32), "four rows of eight holes");
    b.js("const s = document.getElementById('diff-b'); s.value = 'njombwa-ludii'; s.form.submit(); return true")
        .await;
    b.wait_until(
        "return location.pathname === '/rulesets/tsoro-matthews-v7/diff/njombwa-ludii'",
        10,
    )
    .await;
    let h1 = b
        .js("return document.querySelector('h1').textContent")
        .await;
    assert_eq!(h1, json!("tsoro-matthews-v7 against njombwa-ludii"));
    // The differences in words, each side with its badge.
    let cells = b
        .js("return Array.from(document.querySelectorAll('table.diff td p.value')).map(e => e.textContent)")
        .await;
    let cells: Vec<&str> = cells
        .as_array()
        .unwrap()
        .iter()
        .filter_map(Value::as_str)
        .collect();
    assert!(!cells.is_empty());
    assert!(
        cells.iter().all(|c| !c.contains('{') && !c.contains("..=")),
        "{cells:?}"
    );
    b.close().await;
}

/// The counts the board shows, hole by hole, in the browser.
async fn shown_counts(b: &Browser) -> Value {
    b.js("const o = {}; document.querySelectorAll('[data-hole]').forEach(e => o[e.dataset.hole] = Number(e.querySelector('text').textContent)); return o;")
        .await
}

/// The counts of a replay state, hole by hole.
fn state_counts(state: &Value) -> Value {
    let mut o = serde_json::Map::new();
    for row in ["i", "ii", "iii", "iv"] {
        for (k, c) in state["board"][row].as_array().unwrap().iter().enumerate() {
            o.insert(format!("{row},{}", k + 1), c.clone());
        }
    }
    Value::Object(o)
}

async fn moves_made(b: &Browser) -> usize {
    let v = b
        .js("return document.getElementById('moves').children.length")
        .await;
    v.as_u64().unwrap() as usize
}

/// Plays by clicking highlighted holes (or points), or the relay and pass buttons, until the
/// game is over; returns the moves made.
async fn click_to_the_end(b: &Browser, max_clicks: usize) -> usize {
    let mut pick: u64 = 12345;
    for _ in 0..max_clicks {
        let finished = b
            .js("return document.getElementById('status').dataset.finished")
            .await;
        if finished == "true" {
            return moves_made(b).await;
        }
        // The page ignores clicks while a move is being sent or the agent thinks.
        let busy = b.js("return document.body.dataset.busy === 'true'").await;
        if busy == true {
            tokio::time::sleep(Duration::from_millis(30)).await;
            continue;
        }
        let before = moves_made(b).await;
        let mut targets = b
            .client
            // (Not the stone chosen to move: clicking it again puts it back.)
            .find_all(Locator::Css(
                "[data-hole][data-legal]:not(.selected), [data-point][data-legal]:not(.selected)",
            ))
            .await
            .unwrap();
        if targets.is_empty() {
            targets = b
                .client
                .find_all(Locator::Css("button[data-choice]:not([hidden])"))
                .await
                .unwrap();
        }
        if targets.is_empty() {
            // The agent is thinking.
            tokio::time::sleep(Duration::from_millis(30)).await;
            continue;
        }
        pick = pick
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let el = targets[(pick >> 33) as usize % targets.len()].clone();
        el.click().await.expect("click a hole");
        // A stone chosen to move (line games) waits for its destination.
        b.wait_until(
            &format!(
                "return document.getElementById('moves').children.length > {before} \
                 || document.querySelector('.selected') !== null \
                 || document.getElementById('status').dataset.finished === 'true'"
            ),
            20,
        )
        .await;
    }
    panic!("the game did not end within {max_clicks} clicks");
}

#[tokio::test]
async fn a_game_is_played_to_its_end_by_clicking_holes() {
    let Some(b) = browser::start(1280, 1100).await else {
        return;
    };
    let app = spawn_app().await;

    // Two people at one screen, on the line game's board.
    b.goto(&format!(
        "{}/rulesets/tsoro-yemutatu-matthews-a/play",
        app.address
    ))
    .await;
    b.wait_until(
        "return document.querySelectorAll('[data-point][data-legal]').length > 0",
        10,
    )
    .await;
    let moves = click_to_the_end(&b, 600).await;
    assert!(moves >= 5, "{moves} moves");
    b.screenshot("play-yemutatu-over").await;
    let status = b
        .js("return document.getElementById('status').textContent")
        .await;
    assert!(
        status.as_str().unwrap().starts_with("Game over"),
        "{status}"
    );

    // Against the greedy agent, on tsoro's four rows.
    b.goto(&format!("{}/rulesets/tsoro-ludii/play", app.address))
        .await;
    b.wait_until(
        "return document.querySelectorAll('[data-hole][data-legal]').length > 0",
        10,
    )
    .await;
    let agent = b.client.find(Locator::Id("agent")).await.unwrap();
    agent.select_by_value("greedy").await.unwrap();
    b.screenshot("play-tsoro-start").await;
    let moves = click_to_the_end(&b, 1500).await;
    b.screenshot("play-tsoro-over").await;
    // The browser's game is the server's: replay its moves and compare the final counts.
    let actions = b
        .js("return Array.from(document.querySelectorAll('#moves button')).length")
        .await;
    assert_eq!(actions.as_u64().unwrap() as usize, moves);
    let link = b.js("return document.getElementById('link').href").await;
    let url = reqwest::Url::parse(link.as_str().unwrap()).unwrap();
    let recorded: Vec<Value> = serde_json::from_str(
        &url.query_pairs()
            .find(|(k, _)| k == "moves")
            .map(|(_, v)| v.into_owned())
            .unwrap(),
    )
    .unwrap();
    assert_eq!(recorded.len(), moves);
    let out: Value = app
        .post(
            "/api/v1/rulesets/tsoro-ludii/replay",
            &json!({"actions": recorded}),
        )
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(out["result"]["finished"], true);
    let states = out["states"].as_array().unwrap();
    assert_eq!(shown_counts(&b).await, state_counts(states.last().unwrap()));

    // Step back: the board shows the position before the last move.
    b.client
        .find(Locator::Id("back"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    assert_eq!(
        shown_counts(&b).await,
        state_counts(&states[states.len() - 2])
    );
    b.client
        .find(Locator::Id("to-start"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    assert_eq!(shown_counts(&b).await, state_counts(&states[0]));

    // A demonstration: Ludii's relay example, stepped through.
    let demo = b
        .client
        .find(Locator::Css("button[data-demo='0']"))
        .await
        .unwrap();
    demo.click().await.unwrap();
    b.wait_until(
        "return document.getElementById('position').textContent === '0 / 2'",
        10,
    )
    .await;
    b.client
        .find(Locator::Id("forward"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    let events = b
        .js("return document.getElementById('events').textContent")
        .await;
    let events = events.as_str().unwrap();
    for last in ["ends at i,3", "ends at i,6", "ends at ii,8"] {
        assert!(events.contains(last), "{events}");
    }
    b.screenshot("play-demo-relay").await;
    b.close().await;
}

async fn start_from_form(b: &Browser, app: &TestApp, compare: Option<&str>) {
    b.goto(&format!(
        "{}/simulations/new?ruleset=tsoro-ludii",
        app.address
    ))
    .await;
    let games = b.client.find(Locator::Id("games")).await.unwrap();
    games.clear().await.unwrap();
    games.send_keys("300").await.unwrap();
    let a2 = b.client.find(Locator::Id("agent2")).await.unwrap();
    a2.clear().await.unwrap();
    a2.send_keys("greedy").await.unwrap();
    if let Some(other) = compare {
        b.js(&format!(
            "document.querySelector('#compare option[value=\"{other}\"]').selected = true; return true;"
        ))
        .await;
    }
    b.client
        .find(Locator::Id("start"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
}

#[tokio::test]
async fn a_simulation_started_from_the_form_shows_its_plot() {
    let Some(b) = browser::start(1280, 1400).await else {
        return;
    };
    let app = spawn_app_with_jobs(tsoro_api::settings::JobSettings {
        workers: 1,
        threads: 1,
        chunk_games: 100,
        ..Default::default()
    })
    .await;
    start_from_form(&b, &app, None).await;
    b.wait_for("svg.chart.rates", 120).await;
    let url = b.client.current_url().await.unwrap();
    assert!(url.path().starts_with("/simulations/"), "{url}");
    b.wait_for("svg.chart.histogram", 5).await;
    let desc = b
        .js("return document.querySelector('svg.chart.rates desc').textContent")
        .await;
    // random against greedy: each agent's rate, not the first mover's (item 2 of issue 35).
    assert!(
        desc.as_str().unwrap().contains("Agent 2 (greedy)"),
        "{desc}"
    );
    assert!(!desc.as_str().unwrap().contains("First mover"), "{desc}");
    let cmd = b
        .js("return document.getElementById('command').textContent")
        .await;
    assert!(
        cmd.as_str().unwrap().starts_with(
            "tsoro simulate --ruleset tsoro-ludii --agents random,greedy --games 300 --seed 1"
        ),
        "{cmd}"
    );
    b.screenshot("simulation-done").await;
    for l in links(&b).await {
        let r = reqwest::get(&l).await.unwrap();
        assert_eq!(r.status().as_u16(), 200, "{l}");
    }

    // A comparison from the same form.
    start_from_form(&b, &app, Some("tsoro-ludii-additional-capture")).await;
    b.wait_for("svg.chart.diffs", 180).await;
    b.screenshot("comparison-done").await;
    b.close().await;
}

/// The simulation form offers nhodo: choosing it hides the agents (nhodo has none) and
/// starts a nhodo run, whose page shows each seat's wins with intervals and the downloads.
#[tokio::test]
async fn the_form_starts_a_nhodo_run_and_its_page_shows_the_results() {
    let Some(b) = browser::start(1280, 1400).await else {
        return;
    };
    let app = spawn_app_with_jobs(tsoro_api::settings::JobSettings {
        workers: 1,
        threads: 1,
        chunk_games: 100,
        ..Default::default()
    })
    .await;
    b.goto(&format!(
        "{}/simulations/new?ruleset=nhodo-matthews",
        app.address
    ))
    .await;
    let players = b.wait_for("#param-players", 10).await;
    let hidden = b
        .js("return [document.getElementById('agents-fields').hidden, \
             document.getElementById('ruleset').selectedOptions[0].dataset.nhodo]")
        .await;
    assert_eq!(hidden, json!([true, "true"]), "no agents for nhodo");
    players.clear().await.unwrap();
    players.send_keys("3").await.unwrap();
    let games = b.client.find(Locator::Id("games")).await.unwrap();
    games.clear().await.unwrap();
    games.send_keys("300").await.unwrap();
    b.client
        .find(Locator::Id("start"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    b.wait_for("svg.chart.rates", 120).await;
    let url = b.client.current_url().await.unwrap();
    assert!(url.path().starts_with("/nhodo/"), "{url}");
    let headline = b
        .js("return document.getElementById('headline').textContent")
        .await;
    let headline = headline.as_str().unwrap();
    for seat in ["Seat 1", "Seat 2", "Seat 3"] {
        assert!(headline.contains(seat), "{headline}");
    }
    assert!(headline.contains("95% interval"), "{headline}");
    b.screenshot("nhodo-done").await;
    for l in links(&b).await {
        let r = reqwest::get(&l).await.unwrap();
        assert_eq!(r.status().as_u16(), 200, "{l}");
    }
    b.close().await;
}

/// A typo in a free-text field of the simulation form keeps the form, with the service's
/// message beside the field at fault (not a dead end); fixing it starts the job.
#[tokio::test]
async fn a_typo_in_the_form_is_shown_beside_its_field() {
    let Some(b) = browser::start(1280, 1400).await else {
        return;
    };
    let app = spawn_app().await;
    b.goto(&format!(
        "{}/simulations/new?ruleset=tsoro-ludii",
        app.address
    ))
    .await;
    let holes = b.wait_for("#param-holes", 10).await;
    holes.clear().await.unwrap();
    holes.send_keys("40").await.unwrap();
    let start = b.client.find(Locator::Id("start")).await.unwrap();
    start.click().await.unwrap();
    b.wait_for("#param-holes-error", 20).await;
    let shown = b
        .js("const i = document.getElementById('param-holes'); \
             return [i.getAttribute('aria-invalid'), \
             document.getElementById('param-holes-error').textContent, \
             location.pathname, document.activeElement.id]")
        .await;
    assert_eq!(shown[0], "true", "{shown}");
    assert!(!shown[1].as_str().unwrap().trim().is_empty(), "{shown}");
    assert_eq!(shown[2], "/simulations/new", "the form stays: {shown}");
    assert_eq!(shown[3], "param-holes", "the focus on the field: {shown}");
    b.screenshot("form-field-error").await;
    // An agent mistyped: beside the agents.
    holes.clear().await.unwrap();
    holes.send_keys("8").await.unwrap();
    let a2 = b.client.find(Locator::Id("agent2")).await.unwrap();
    a2.clear().await.unwrap();
    a2.send_keys("gredy").await.unwrap();
    start.click().await.unwrap();
    b.wait_for("#agent1-error", 20).await;
    let gone = b
        .js("return document.getElementById('param-holes-error') === null")
        .await;
    assert_eq!(gone, true, "the fixed field's error goes");
    b.close().await;
}

/// A comparison page analyses the shared seeds game by game: it states the agents, seed,
/// games and parameters, says which rulesets play the very same games, names both rulesets in
/// every difference, and prints small p-values as "< 0.001", never "0.000".
#[tokio::test]
async fn a_comparison_page_reads_as_a_paired_analysis() {
    let Some(b) = browser::start(1280, 1400).await else {
        return;
    };
    let app = spawn_app_with_jobs(tsoro_api::settings::JobSettings {
        workers: 1,
        threads: 1,
        chunk_games: 500,
        ..Default::default()
    })
    .await;
    let rulesets = [
        "tsoro-matthews-basic",
        "tsoro-ludii",
        "tsoro-ludii-additional-capture",
    ];
    let r = app
        .post(
            "/api/v1/comparisons",
            &json!({"rulesets": rulesets, "agents": "random", "games": 1500, "seed": 5}),
        )
        .await;
    assert_eq!(r.status().as_u16(), 202);
    let v: Value = r.json().await.unwrap();
    let id = v["id"].as_str().unwrap().to_string();
    let r = app.get(&format!("/api/v1/comparisons/{id}?wait=60")).await;
    let v: Value = r.json().await.unwrap();
    assert_eq!(v["status"], "done", "{v}");
    b.goto(&format!("{}/comparisons/{id}", app.address)).await;
    b.wait_for("#differences", 30).await;
    let inputs = b
        .js("return document.getElementById('inputs').innerText")
        .await;
    let inputs = inputs.as_str().unwrap();
    for want in [
        "random in both seats",
        "5",
        "1500",
        "each ruleset's defaults",
    ] {
        assert!(inputs.contains(want), "{want:?} in {inputs}");
    }
    let identical = b
        .js("return Array.from(document.querySelectorAll('p.identical')).map(p => p.innerText)")
        .await;
    let identical: Vec<&str> = identical
        .as_array()
        .unwrap()
        .iter()
        .filter_map(Value::as_str)
        .collect();
    // tsoro-ludii plays tsoro-matthews-basic's games, but for a few endless sowings that it
    // plays on to the move limit.
    let same: u32 = identical[0]
        .strip_prefix("tsoro-ludii: ")
        .and_then(|t| t.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or(0);
    assert!(same > 1400, "{identical:?}");
    assert!(
        identical[0].contains("of 1500 games are the same games as under tsoro-matthews-basic"),
        "{identical:?}"
    );
    assert!(
        identical[1].starts_with("tsoro-ludii-additional-capture: "),
        "{identical:?}"
    );
    let rows = b
        .js(
            "return Array.from(document.querySelectorAll('#differences tbody tr'))
              .map(tr => Array.from(tr.cells).map(td => td.innerText))",
        )
        .await;
    let rows = rows.as_array().unwrap();
    assert_eq!(rows.len(), 10, "five measures for each of two rulesets");
    let mut small = 0;
    for row in rows {
        let cells: Vec<&str> = row
            .as_array()
            .unwrap()
            .iter()
            .filter_map(Value::as_str)
            .collect();
        assert!(
            cells[0] == "tsoro-ludii minus tsoro-matthews-basic"
                || cells[0] == "tsoro-ludii-additional-capture minus tsoro-matthews-basic",
            "{cells:?}"
        );
        let p = cells[5];
        assert_ne!(p, "0.000", "{cells:?}");
        assert!(
            p == "< 0.001" || (p.len() == 5 && p.parse::<f64>().is_ok()),
            "{cells:?}"
        );
        small += (p == "< 0.001") as usize;
        if cells[0].starts_with("tsoro-ludii minus") {
            assert!(
                cells[2] == "+0.0 points" || cells[2] == "+0.00",
                "{cells:?}"
            );
            assert_eq!(p, "1.000", "{cells:?}");
        }
    }
    assert!(
        small > 0,
        "the additional capture changes something beyond doubt: {rows:?}"
    );
    b.screenshot("comparison-paired").await;
    b.close().await;
}

/// Posts a simulation and waits for it to end; returns its page's URL.
async fn finished_simulation(app: &TestApp, body: Value) -> String {
    let r = app.post("/api/v1/simulations", &body).await;
    assert_eq!(r.status().as_u16(), 202);
    let v: Value = r.json().await.unwrap();
    let id = v["id"].as_str().unwrap().to_string();
    let v: Value = app
        .get(&format!("/api/v1/simulations/{id}?wait=60"))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(v["status"], "done", "{v}");
    format!("{}/simulations/{id}", app.address)
}

/// When the two agents differ, a results page headlines each agent's wins and score and
/// shows each agent's wins in each seat, and says why it leaves out the first-mover and
/// Ludii balance figures (they would measure the agents, not the game); with one agent in
/// both seats it shows them.
#[tokio::test]
async fn balance_figures_are_the_game_s_only_when_one_agent_plays_both_seats() {
    let Some(b) = browser::start(1280, 1400).await else {
        return;
    };
    let app = spawn_app_with_jobs(tsoro_api::settings::JobSettings {
        workers: 1,
        threads: 1,
        chunk_games: 200,
        ..Default::default()
    })
    .await;
    let text = |b: &Browser| {
        let b = b.client.clone();
        async move {
            b.execute(
                "return document.getElementById('results').innerText",
                vec![],
            )
            .await
            .unwrap()
            .as_str()
            .unwrap()
            .to_string()
        }
    };
    let mixed = finished_simulation(
        &app,
        json!({"ruleset": "tsoro-ludii", "agents": "greedy,random", "games": 400, "seed": 3}),
    )
    .await;
    b.goto(&mixed).await;
    b.wait_for("#agent-seats", 10).await;
    let page = text(&b).await;
    assert!(page.contains("Agent 1 (greedy) won "), "{page}");
    assert!(page.contains("Agent 2 (random) won "), "{page}");
    assert!(
        page.contains("its score, with a draw as half a win"),
        "{page}"
    );
    assert!(
        page.contains("they describe the game only when one agent plays both seats"),
        "{page}"
    );
    let names = b
        .js("return Array.from(document.querySelectorAll('#ludii th[scope=row], #figures th[scope=row]')).map(th => th.innerText)")
        .await;
    let names: Vec<&str> = names
        .as_array()
        .unwrap()
        .iter()
        .filter_map(Value::as_str)
        .collect();
    assert!(names.contains(&"Completion"), "{names:?}");
    for absent in ["AdvantageP1", "Balance", "First mover wins"] {
        assert!(
            !names.contains(&absent),
            "{absent:?} shown for two agents: {names:?}"
        );
    }
    let seats = b
        .js("return Array.from(document.querySelectorAll('#agent-seats tbody tr')).map(tr => tr.innerText)")
        .await;
    let seats: Vec<&str> = seats
        .as_array()
        .unwrap()
        .iter()
        .filter_map(Value::as_str)
        .collect();
    assert_eq!(seats.len(), 2, "{seats:?}");
    assert!(
        seats[0].starts_with("Agent 1 (greedy)") && seats[0].contains(" of 200 "),
        "{seats:?}"
    );
    let desc = b
        .js("return document.querySelector('svg.chart.rates desc').textContent")
        .await;
    assert!(!desc.as_str().unwrap().contains("First mover"), "{desc}");
    b.screenshot("simulation-two-agents").await;

    let same = finished_simulation(
        &app,
        json!({"ruleset": "tsoro-ludii", "agents": "random", "games": 400, "seed": 3}),
    )
    .await;
    b.goto(&same).await;
    b.wait_for("#agent-seats", 10).await;
    let page = text(&b).await;
    let names = b
        .js("return Array.from(document.querySelectorAll('#ludii th[scope=row], #figures th[scope=row]')).map(th => th.innerText)")
        .await;
    let names: Vec<&str> = names
        .as_array()
        .unwrap()
        .iter()
        .filter_map(Value::as_str)
        .collect();
    for present in ["AdvantageP1", "Balance", "First mover wins"] {
        assert!(
            names.contains(&present),
            "{present:?} missing for one agent: {names:?}"
        );
    }
    assert!(!page.contains("they describe the game only when"), "{page}");
    b.close().await;
}

/// At a phone's width (360 px) the archive's pages do not scroll sideways (long source URLs
/// wrap); every page names its icon, which is served; and the Ludii portal is cited by its
/// short title, not by its long corporate author in every row of the rulesets table.
#[tokio::test]
async fn pages_fit_a_phone_and_name_their_icon() {
    let Some(b) = browser::start(360, 800).await else {
        return;
    };
    let app = spawn_app().await;
    let sources: Vec<String> =
        std::fs::read_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/../corpus/sources"))
            .unwrap()
            .filter_map(|e| Some(e.ok()?.path().file_stem()?.to_str()?.to_string()))
            .map(|id| format!("/sources/{id}"))
            .collect();
    assert!(sources.len() >= 10, "{sources:?}");
    let pages = ["/", "/rulesets/tsoro-ludii", "/games/tsoro"];
    for path in pages.iter().map(|p| p.to_string()).chain(sources) {
        check_page(&b, &format!("{}{path}", app.address)).await;
        let icon = b
            .js("const l = document.querySelector('link[rel=icon]'); return l ? l.href : ''")
            .await;
        let icon = icon.as_str().unwrap().to_string();
        assert!(!icon.is_empty(), "{path} names no icon");
        let r = reqwest::get(&icon).await.unwrap();
        assert_eq!(r.status().as_u16(), 200, "{icon}");
        assert_eq!(r.headers()["content-type"], "image/svg+xml", "{icon}");
    }
    let r = reqwest::get(format!("{}/favicon.ico", app.address))
        .await
        .unwrap();
    assert_eq!(r.status().as_u16(), 200, "/favicon.ico");
    b.goto(&format!("{}/", app.address)).await;
    b.screenshot("home-phone").await;
    // Tsoro, the main subject, is the first game listed (issue 35, item 5).
    let first = b
        .js("return document.querySelector('ul.cards h3 a').getAttribute('href')")
        .await;
    assert_eq!(first, "/games/tsoro");
    let follows = b
        .js("return Array.from(document.querySelectorAll('#rulesets ~ div table tbody tr td:nth-child(3), section[aria-labelledby=rulesets] tbody td:nth-child(3)')).map(td => td.innerText)")
        .await;
    let follows: Vec<&str> = follows
        .as_array()
        .unwrap()
        .iter()
        .filter_map(Value::as_str)
        .collect();
    assert!(
        follows.iter().any(|f| f.contains("Ludii Portal")),
        "{follows:?}"
    );
    assert!(
        follows.iter().all(|f| !f.contains("Maastricht")),
        "{follows:?}"
    );
    b.close().await;
}

/// A tournament started from its form shows, when done, the ratings with interval bars, the
/// first player's score in self-play, the pairwise matrix and the command that reproduces it;
/// the ratings shown are the API's.
#[tokio::test]
async fn a_tournament_started_from_the_form_shows_its_ratings() {
    let Some(b) = browser::start(1280, 1400).await else {
        return;
    };
    let app = spawn_app_with_jobs(tsoro_api::settings::JobSettings {
        workers: 1,
        threads: 1,
        chunk_games: 7,
        ..Default::default()
    })
    .await;
    b.goto(&format!(
        "{}/tournaments/new?ruleset=tsoro-ludii",
        app.address
    ))
    .await;
    let agents = b.client.find(Locator::Id("agents")).await.unwrap();
    agents.clear().await.unwrap();
    agents.send_keys("random, greedy, mcts:30").await.unwrap();
    let pairs = b.client.find(Locator::Id("pairs")).await.unwrap();
    pairs.clear().await.unwrap();
    pairs.send_keys("4").await.unwrap();
    b.client
        .find(Locator::Id("start"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    b.wait_for("svg.chart.diffs-mean", 120).await;
    let url = b.client.current_url().await.unwrap();
    assert!(url.path().starts_with("/tournaments/"), "{url}");
    b.wait_for("svg.chart.rates", 5).await;
    let id = url.path().trim_start_matches("/tournaments/").to_string();
    let api: Value = reqwest::get(format!("{}/api/v1/tournaments/{id}", app.address))
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(api["status"], "done");
    // The chart describes each agent's rating as the API gives it.
    let desc = b
        .js("return document.querySelector('svg.chart.diffs-mean desc').textContent")
        .await;
    for r in api["results"]["report"]["ratings"].as_array().unwrap() {
        let line = format!(
            "{}: {:.2}",
            r["agent"].as_str().unwrap(),
            r["elo"].as_f64().unwrap()
        );
        assert!(desc.as_str().unwrap().contains(&line), "{line} in {desc}");
    }
    let rows = b
        .js("return document.querySelectorAll('#ratings tbody tr').length")
        .await;
    assert_eq!(rows, json!(3));
    let cells = b
        .js("return document.querySelectorAll('#matrix tbody td').length")
        .await;
    assert_eq!(cells, json!(9));
    let cmd = b
        .js("return document.getElementById('command').textContent")
        .await;
    assert_eq!(
        cmd.as_str().unwrap(),
        "tsoro tournament --ruleset tsoro-ludii --agents random,greedy,mcts:30 --pairs 4 \
         --seed 1 --opening-plies 2"
    );
    b.screenshot("tournament-done").await;
    for l in links(&b).await {
        let r = reqwest::get(&l).await.unwrap();
        assert_eq!(r.status().as_u16(), 200, "{l}");
    }
    b.close().await;
}

/// A short game prefix of some shipped ruleset after which the player to move is asked a
/// decision of each kind the games have (issue 35, item 7), found by playing random games
/// with the engine: `(kind key, ruleset, actions)`. Sowing and line games are keyed apart
/// (`sowing:take`, `morris:take`); a sowing take of one's own hole (an opening's removal) is
/// `sowing:remove`.
fn a_position_for_every_decision() -> Vec<(String, String, Vec<Value>)> {
    use tsoro_engine::Game;
    use tsoro_engine::catalogue::{self, Kind, Model, Params};
    use tsoro_engine::replay::{ReplayRequest, replay};
    let mut found: std::collections::BTreeMap<String, (String, Vec<Value>)> = Default::default();
    for def in catalogue::all() {
        let Ok(Model::Game(g)) = def.build_model(&Params::new()) else {
            continue;
        };
        let family = if def.kind == Kind::Sowing {
            "sowing"
        } else {
            "morris"
        };
        for seed in 1..=4u64 {
            let actions: Vec<Value> = tsoro_engine::with_game!(&g, g => {
                let mut rng = tsoro_engine::rng::Rng::from_seed(seed);
                let mut s = g.initial_state();
                let mut actions = vec![];
                while let Some(a) = g.random_action(&s, &mut rng) {
                    actions.push(serde_json::to_value(a).unwrap());
                    g.apply_unchecked(&mut s, a);
                    if actions.len() >= 400 { break; }
                }
                actions
            });
            let out = replay(&ReplayRequest {
                ruleset: def.id.to_string(),
                params: Params::new(),
                actions: actions.clone(),
            })
            .unwrap();
            for (k, state) in out.states.iter().enumerate() {
                let to_move = state["to_move"].as_str().unwrap_or("");
                for a in state["legal"].as_array().into_iter().flatten() {
                    let mut kind = match a {
                        Value::Object(m) => m.keys().next().unwrap().clone(),
                        _ => "pass".to_string(),
                    };
                    if family == "sowing" && kind == "take" {
                        let hole = a["take"].as_str().unwrap();
                        let own = if to_move == "A" {
                            ["i,", "ii,"]
                        } else {
                            ["iii,", "iv,"]
                        };
                        if own.iter().any(|r| hole.starts_with(r)) {
                            kind = "remove".into();
                        }
                    }
                    let key = format!("{family}:{kind}");
                    if found.get(&key).is_none_or(|(_, p)| p.len() > k) {
                        found.insert(key, (def.id.to_string(), actions[..k].to_vec()));
                    }
                }
            }
        }
    }
    found.into_iter().map(|(k, (r, a))| (k, r, a)).collect()
}

/// The play page says, in the engine's words, what it asks of the player to move, for every
/// kind of decision the games have ("take one of B's holes (5 takes due)", "the last stone
/// fell in your head ii,6: stop or sow on"); holes and points carry their names; heads are
/// marked as the state has them; the legend's keys are the board's colours; the sowing
/// direction is stated and drawn as the engine's sowing order runs (issue 35, item 7).
#[tokio::test]
async fn the_play_page_says_what_it_asks_and_names_and_marks_the_board() {
    let Some(b) = browser::start(1280, 1100).await else {
        return;
    };
    let app = spawn_app().await;
    let found = a_position_for_every_decision();
    let keys: Vec<&str> = found.iter().map(|(k, _, _)| k.as_str()).collect();
    for k in [
        "sowing:sow",
        "sowing:relay",
        "sowing:take",
        "sowing:remove",
        "sowing:move",
        "sowing:nominate",
        "sowing:pass",
        "morris:place",
        "morris:move",
        "morris:take",
    ] {
        assert!(keys.contains(&k), "no position found for {k}: {keys:?}");
    }
    let status = async |b: &Browser| {
        b.js("return document.getElementById('status').textContent")
            .await
            .as_str()
            .unwrap()
            .to_string()
    };
    for (key, ruleset, actions) in &found {
        let moves = serde_json::to_string(actions).unwrap();
        let url = reqwest::Url::parse_with_params(
            &format!("{}/rulesets/{ruleset}/play", app.address),
            &[("moves", moves.as_str())],
        )
        .unwrap();
        b.goto(url.as_str()).await;
        b.wait_until(
            "return document.getElementById('status').textContent.includes(' to move: ')",
            20,
        )
        .await;
        let out: Value = app
            .post(
                &format!("/api/v1/rulesets/{ruleset}/replay"),
                &json!({"actions": actions}),
            )
            .await
            .json()
            .await
            .unwrap();
        let state = out["states"].as_array().unwrap().last().unwrap().clone();
        let asked = state["asking"]["text"].as_str().unwrap();
        let shown = status(&b).await;
        assert_eq!(
            shown,
            format!("{} to move: {asked}.", state["to_move"].as_str().unwrap()),
            "{key} on {ruleset}"
        );
        let want = match key.split(':').nth(1).unwrap() {
            "relay" => "the last stone fell in your head ",
            "take" if key.starts_with("sowing") => "take one of ",
            "take" => "you made a line: take one of ",
            "remove" => "remove the stones of ",
            "sow" => "sow",
            "move" => "move ",
            "nominate" => "nominate one of your back-row holes as a head",
            "place" => "place a stone on ",
            _ => "pass",
        };
        assert!(shown.contains(want), "{key} on {ruleset}: {shown}");
        if key == "sowing:relay" {
            // The head is named and marked, and the two choices are offered.
            let head = shown
                .split("your head ")
                .nth(1)
                .unwrap()
                .split(':')
                .next()
                .unwrap()
                .to_string();
            let marked = b
                .js(&format!(
                    "const e = document.querySelector('[data-hole=\"{head}\"]'); \
                     return e.classList.contains('head') && e.dataset.head"
                ))
                .await;
            assert_eq!(marked, state["to_move"], "{head} marked as a head");
            let buttons = b
                .js("return Array.from(document.querySelectorAll('button[data-choice]:not([hidden])')).map(b => b.dataset.choice)")
                .await;
            assert_eq!(
                buttons,
                json!(["{\"relay\":\"stop\"}", "{\"relay\":\"continue\"}"])
            );
            b.screenshot("play-relay-asked").await;
        }
        if key.starts_with("sowing") {
            // Heads marked exactly as the state has them.
            let marked = b
                .js("const o = {A: [], B: []}; document.querySelectorAll('[data-hole].head').forEach(e => o[e.dataset.head].push(e.dataset.hole)); return o;")
                .await;
            let mut want = json!({"A": [], "B": []});
            for p in ["A", "B"] {
                let mut h: Vec<String> = state["heads"][p]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|v| v.as_str().unwrap().to_string())
                    .collect();
                h.sort();
                want[p] = json!(h);
            }
            let mut marked = marked;
            for p in ["A", "B"] {
                let mut h: Vec<String> = serde_json::from_value(marked[p].clone()).unwrap();
                h.sort();
                marked[p] = json!(h);
            }
            assert_eq!(marked, want, "{key} on {ruleset}: heads");
        }
    }

    // Tsoro (Baia): after the forced first sowing, five takes are due.
    b.goto(&format!(
        "{}/rulesets/tsoro-ludii-baia/play?moves=%5B%7B%22sow%22%3A%22ii%2C3%22%7D%5D",
        app.address
    ))
    .await;
    b.wait_until(
        "return document.getElementById('status').textContent.includes(' to move: ')",
        20,
    )
    .await;
    assert_eq!(
        status(&b).await,
        "A to move: take one of B's holes (5 takes due)."
    );
    b.screenshot("play-takes-asked").await;

    // Every hole and point carries its name.
    for (ruleset, attr) in [
        ("tsoro-ludii", "data-hole"),
        ("tsoro-yemutatu-matthews-a", "data-point"),
    ] {
        b.goto(&format!("{}/rulesets/{ruleset}/play", app.address))
            .await;
        let wrong = b
            .js(&format!(
                "return Array.from(document.querySelectorAll('[{attr}]')).filter(e => \
                 !e.querySelector('text.name') || e.querySelector('text.name').textContent !== e.getAttribute('{attr}')).length"
            ))
            .await;
        assert_eq!(wrong, 0, "{ruleset}: every {attr} carries its name");
        let named = b
            .js(&format!(
                "return document.querySelectorAll('[{attr}] text.name').length"
            ))
            .await;
        assert!(named.as_u64().unwrap() >= 9, "{ruleset}: {named}");
    }

    // The direction: each row's arrow points the way its owner's sowing order runs through
    // it, and the words say so.
    b.goto(&format!("{}/rulesets/tsoro-ludii/play", app.address))
        .await;
    b.wait_until(
        "return document.querySelectorAll('[data-hole][data-legal]').length > 0",
        10,
    )
    .await;
    use tsoro_engine::notation::{Hole, Row};
    for row in Row::ALL {
        let right = Hole::new(row, 1).track(8) < Hole::new(row, 2).track(8);
        let arrow = b
            .js(&format!(
                "const t = document.querySelector('.sow-arrow[data-row=\"{row}\"]'); \
                 return t.textContent.replace(t.querySelector('title').textContent, '')"
            ))
            .await;
        assert_eq!(arrow, if right { "→" } else { "←" }, "row {row}");
    }
    let direction = b
        .js("return document.getElementById('direction').textContent")
        .await;
    let direction = direction.as_str().unwrap();
    assert!(
        direction.contains("anticlockwise")
            && direction.contains("row i left to right")
            && direction.contains("row iv right to left"),
        "{direction}"
    );
    // A move is described lap by lap, and its holes are marked in the legend's colours.
    let first = b
        .client
        .find(Locator::Css("[data-hole][data-legal]"))
        .await
        .unwrap();
    let from = first.attr("data-hole").await.unwrap().unwrap();
    first.click().await.unwrap();
    b.wait_until(
        "return document.getElementById('moves').children.length > 0",
        10,
    )
    .await;
    let text = b
        .js("return document.getElementById('events').textContent")
        .await;
    assert!(
        text.as_str()
            .unwrap()
            .contains(&format!("a lap from {from}")),
        "{text}"
    );
    b.wait_until(
        "return document.querySelector('[data-hole].lifted:not(.last):not(.captured)') !== null \
         && document.querySelector('[data-hole].last:not(.captured)') !== null",
        10,
    )
    .await;

    // The legend's keys are drawn in the board's colours.
    let same = b
        .js("const f = (sel) => { const e = document.querySelector(sel); return e ? getComputedStyle(e).fill : 'none:' + sel; }; \
             const s = (sel) => { const e = document.querySelector(sel); return e ? getComputedStyle(e).stroke : 'none:' + sel; }; \
             return [[f('.key-last'), f('[data-hole].last:not(.captured) circle.pit')], [f('.key-lifted'), f('[data-hole].lifted:not(.last):not(.captured) circle.pit')], \
                     [s('.key-legal'), s('[data-hole][data-legal] circle.pit')]];")
        .await;
    for pair in same.as_array().unwrap() {
        assert_eq!(pair[0], pair[1], "legend key and board: {same}");
    }
    b.screenshot("play-legend").await;
    b.close().await;
}

/// The words the play page gives an action in its list of turns.
fn action_words(a: &Value) -> String {
    match a {
        Value::String(s) => s.clone(),
        Value::Object(m) => {
            let (k, v) = m.iter().next().unwrap();
            match (k.as_str(), v) {
                ("relay", v) if v == "stop" => "stop in the head".into(),
                ("relay", _) => "lift the head and sow on".into(),
                (k, Value::Array(xs)) => format!(
                    "{k} {}",
                    xs.iter()
                        .map(|x| x.as_str().unwrap())
                        .collect::<Vec<_>>()
                        .join("–")
                ),
                (k, v) => format!("{k} {}", v.as_str().unwrap()),
            }
        }
        _ => unreachable!(),
    }
}

/// Against an agent, every action of both sides' last turns is listed and described (a
/// turn of Tsoro (Baia) holds a sowing and up to five takes), not only the agent's last
/// action (issue 35, item 7).
#[tokio::test]
async fn against_an_agent_every_action_of_both_sides_turns_is_described() {
    let Some(b) = browser::start(1280, 1100).await else {
        return;
    };
    let app = spawn_app().await;
    b.goto(&format!("{}/rulesets/tsoro-ludii-baia/play", app.address))
        .await;
    b.wait_until(
        "return document.querySelectorAll('[data-hole][data-legal]').length > 0",
        10,
    )
    .await;
    let agent = b.client.find(Locator::Id("agent")).await.unwrap();
    agent.select_by_value("greedy").await.unwrap();
    let mut pick: u64 = 99;
    let mut both_long = false;
    for _ in 0..120 {
        // The human's turn (or the end): the page is idle with something to choose.
        b.wait_until(
            "return document.body.dataset.busy !== 'true' && (document.getElementById('status').dataset.finished === 'true' \
             || document.querySelector('[data-legal]:not(.selected), button[data-choice]:not([hidden])') !== null)",
            30,
        )
        .await;
        let link = b.js("return document.getElementById('link').href").await;
        let url = reqwest::Url::parse(link.as_str().unwrap()).unwrap();
        let actions: Vec<Value> = serde_json::from_str(
            &url.query_pairs()
                .find(|(k, _)| k == "moves")
                .map(|(_, v)| v.into_owned())
                .unwrap(),
        )
        .unwrap();
        if !actions.is_empty() {
            let out: Value = app
                .post(
                    "/api/v1/rulesets/tsoro-ludii-baia/replay",
                    &json!({"actions": actions}),
                )
                .await
                .json()
                .await
                .unwrap();
            // The runs of actions by one player: the turns.
            let mut turns: Vec<(String, Vec<usize>)> = vec![];
            for k in 0..actions.len() {
                let who = out["states"][k]["to_move"].as_str().unwrap().to_string();
                match turns.last_mut() {
                    Some((w, ks)) if *w == who => ks.push(k),
                    _ => turns.push((who, vec![k])),
                }
            }
            let want: Vec<(String, Vec<usize>)> = turns[turns.len().saturating_sub(2)..].to_vec();
            let shown = b
                .js("return Array.from(document.querySelectorAll('#events ol.turn')).map(ol => \
                     [ol.dataset.player, ol.previousElementSibling.textContent, \
                      Array.from(ol.children).map(li => [Number(li.dataset.action), li.textContent])])")
                .await;
            let shown = shown.as_array().unwrap();
            assert_eq!(shown.len(), want.len(), "{shown:?}");
            for ((who, ks), got) in want.iter().zip(shown) {
                assert_eq!(got[0], json!(who));
                let heading = got[1].as_str().unwrap();
                let label = if who == "A" { "A (you)" } else { "B (greedy)" };
                assert!(heading.starts_with(label), "{heading}");
                let items = got[2].as_array().unwrap();
                assert_eq!(items.len(), ks.len(), "{who}'s turn: {items:?}");
                for (&k, item) in ks.iter().zip(items) {
                    assert_eq!(item[0], json!(k + 1));
                    let text = item[1].as_str().unwrap();
                    let words = format!("Move {}, {}: ", k + 1, action_words(&actions[k]));
                    assert!(text.starts_with(&words), "{text} (want {words})");
                    assert!(text.len() > words.len() + 2, "{text}: what it did");
                }
            }
            // Both the agent's last turn and the human's before it held several actions.
            if want.len() == 2 && want[1].0 == "B" && want.iter().all(|(_, ks)| ks.len() >= 2) {
                both_long = true;
                b.screenshot("play-turns-described").await;
                break;
            }
        }
        let finished = b
            .js("return document.getElementById('status').dataset.finished")
            .await;
        if finished == "true" {
            break;
        }
        let before = moves_made(&b).await;
        let mut targets = b
            .client
            .find_all(Locator::Css(
                "[data-hole][data-legal]:not(.selected), button[data-choice]:not([hidden])",
            ))
            .await
            .unwrap();
        assert!(!targets.is_empty(), "nothing to click");
        pick = pick
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let el = targets.swap_remove((pick >> 33) as usize % targets.len());
        el.click().await.unwrap();
        b.wait_until(
            &format!(
                "return document.getElementById('moves').children.length > {before} \
                 || document.getElementById('status').dataset.finished === 'true'"
            ),
            20,
        )
        .await;
    }
    assert!(
        both_long,
        "no agent's turn of several actions after a human's of several"
    );
    b.close().await;
}

/// A 4x21 board at a phone's width (390 px): the board scrolls inside its box while the page
/// does not scroll sideways, its holes stay big enough to tap, a hole at the far end can be
/// scrolled to and played, and the controls stay within the window (issue 35, item 7).
/// The two screens a class uses: a phone (390 x 844) and a projector (1280 x 800).
const SCREENS: [(u32, u32); 2] = [(390, 844), (1280, 800)];

/// Scrolls the board to the top of the window and returns, for every hole or point, whether
/// it lies inside the window, with the board's box and the smallest hole's size.
async fn board_in_view(b: &Browser) -> Value {
    b.js("const w = document.getElementById('board'); w.scrollIntoView({block: 'start'}); \
          const cells = Array.from(document.querySelectorAll('[data-hole],[data-point]')); \
          const out = cells.filter(c => { const r = c.getBoundingClientRect(); \
            return r.left < -0.5 || r.top < -0.5 || r.right > window.innerWidth + 0.5 || r.bottom > window.innerHeight + 0.5; }) \
            .map(c => c.dataset.hole || c.dataset.point); \
          const rings = cells.map(c => c.querySelector('circle').getBoundingClientRect()); \
          const main = document.querySelector('main').getBoundingClientRect(); \
          return {cells: cells.length, out: out, smallest: Math.min(...rings.map(r => Math.min(r.width, r.height))), \
                  board: w.querySelector('svg').getBoundingClientRect().width, main: main.width, \
                  turned: w.querySelector('svg').classList.contains('turned'), \
                  page: document.documentElement.scrollWidth, inner: window.innerWidth};")
        .await
}

/// The controls a player needs that lie outside the window (the board scrolled to its top).
async fn controls_out_of_view(b: &Browser) -> Value {
    b.js("document.getElementById('board').scrollIntoView({block: 'start'}); \
          return ['status', 'back', 'forward', 'agent', 'seat', 'new-game'].filter(id => { \
            const r = document.getElementById(id).getBoundingClientRect(); \
            return !(r.width > 0 && r.left >= 0 && r.top >= 0 && r.right <= window.innerWidth + 0.5 && r.bottom <= window.innerHeight + 0.5); });")
        .await
}

/// Issue 48, items 1 and 2: every board size, 6 to 21 holes a row, lies wholly inside the
/// window on a phone and on a projector (turned to columns on the phone when its holes would
/// be too small), its holes big enough to tap, the page not scrolling sideways; with the
/// board at the top of the window the status, the step buttons and the opponent's menus are
/// in view too. At 1280 px a 4x21 board spans the page (not squeezed into a column).
#[tokio::test]
async fn every_board_size_is_in_view_with_its_controls_on_a_phone_and_a_projector() {
    let app = spawn_app().await;
    for (w, h) in SCREENS {
        let Some(b) = browser::start(w, h).await else {
            return;
        };
        for holes in 6..=21 {
            let url = format!(
                "{}/rulesets/tsoro-matthews-basic/play?holes={holes}",
                app.address
            );
            b.goto(&url).await;
            b.wait_until(
                "return document.querySelectorAll('[data-hole][data-legal]').length > 0",
                10,
            )
            .await;
            let v = board_in_view(&b).await;
            assert_eq!(v["cells"], json!(4 * holes), "{w}px, {holes} holes: {v}");
            assert_eq!(
                v["out"],
                json!([]),
                "{w}px, {holes} holes: out of view: {v}"
            );
            assert!(
                v["smallest"].as_f64().unwrap() >= 24.0,
                "{w}px, {holes} holes: too small to tap: {v}"
            );
            assert!(
                v["page"].as_f64().unwrap() <= v["inner"].as_f64().unwrap() + 0.5,
                "{w}px, {holes} holes: the page scrolls sideways: {v}"
            );
            assert_eq!(
                controls_out_of_view(&b).await,
                json!([]),
                "{w}px, {holes} holes: controls out of view"
            );
            if holes == 21 {
                b.screenshot(&format!("play-4x21-{w}")).await;
            }
        }
        // The 4x21 board of Russ's tsoro: in view, and at 1280 px as wide as the page.
        b.goto(&format!("{}/rulesets/tsoro-russ/play", app.address))
            .await;
        b.wait_until(
            "return document.querySelectorAll('[data-hole][data-legal]').length > 0",
            10,
        )
        .await;
        let v = board_in_view(&b).await;
        assert_eq!(v["cells"], json!(84), "{v}");
        assert_eq!(
            v["out"],
            json!([]),
            "{w}px: holes of tsoro-russ out of view: {v}"
        );
        assert_eq!(v["turned"], json!(w < 500), "{w}px: {v}");
        if w >= 500 {
            assert!(
                v["board"].as_f64().unwrap() > 0.8 * v["main"].as_f64().unwrap(),
                "the 4x21 board spans the page: {v}"
            );
        }
        assert_eq!(
            controls_out_of_view(&b).await,
            json!([]),
            "{w}px tsoro-russ"
        );
        b.screenshot(&format!("play-tsoro-russ-{w}")).await;
        // The hole the status names is tapped and played.
        let name = b
            .js("const h = document.querySelector('[data-hole][data-legal]'); return h.dataset.hole;")
            .await;
        let name = name.as_str().unwrap().to_string();
        b.client
            .find(Locator::Css(&format!("[data-hole=\"{name}\"]")))
            .await
            .unwrap()
            .click()
            .await
            .unwrap();
        b.wait_until(
            "return document.getElementById('moves').children.length >= 1",
            10,
        )
        .await;
        assert_eq!(
            b.js("return document.querySelector('#moves button').textContent")
                .await,
            json!(format!("sow {name}"))
        );
        b.close().await;
    }
}

/// Issue 48, item 6: the board is played with the keyboard alone: one tab stop on the board,
/// the arrow keys move between holes (as drawn, turned or not), Enter plays the hole focused,
/// and the move is announced in a live region.
#[tokio::test]
async fn the_board_is_played_with_the_keyboard_and_each_move_is_announced() {
    let app = spawn_app().await;
    for (w, h) in SCREENS {
        let Some(b) = browser::start(w, h).await else {
            return;
        };
        b.goto(&format!(
            "{}/rulesets/tsoro-matthews-basic/play",
            app.address
        ))
        .await;
        b.wait_until(
            "return document.querySelectorAll('[data-hole][data-legal]').length > 0",
            10,
        )
        .await;
        let stops = b
            .js(
                "return [document.querySelectorAll('#board [tabindex=\"0\"]').length, \
                 document.querySelectorAll('[data-hole]:not([tabindex])').length, \
                 document.querySelector('#board [tabindex=\"0\"]').hasAttribute('data-legal'), \
                 document.getElementById('announce').getAttribute('aria-live')]",
            )
            .await;
        assert_eq!(stops, json!([1, 0, true, "polite"]), "{w}px: {stops}");
        // Focused, then an arrow key: the focus moves to another hole.
        let first = b
            .client
            .find(Locator::Css("#board [tabindex=\"0\"]"))
            .await
            .unwrap();
        b.js("document.querySelector('#board [tabindex=\"0\"]').focus(); return 0")
            .await;
        let before = b.js("return document.activeElement.dataset.hole").await;
        first.send_keys("\u{E014}").await.unwrap(); // ArrowRight
        let after = b.js("return document.activeElement.dataset.hole").await;
        assert!(
            after.is_string() && after != before,
            "{w}px: the arrow moved the focus: {before} -> {after}"
        );
        // Back to a hole that may be played, and Enter plays it.
        let legal = b
            .js("const h = document.querySelector('[data-hole][data-legal]'); h.focus(); return h.dataset.hole")
            .await;
        let legal = legal.as_str().unwrap().to_string();
        b.client
            .find(Locator::Css(&format!("[data-hole=\"{legal}\"]")))
            .await
            .unwrap()
            .send_keys("\u{E007}") // Enter
            .await
            .unwrap();
        b.wait_until(
            "return document.getElementById('moves').children.length === 1",
            10,
        )
        .await;
        let said = b
            .js("return document.getElementById('announce').textContent")
            .await;
        let said = said.as_str().unwrap();
        assert!(
            said.starts_with(&format!("Move 1, A: sow {legal}, ")),
            "{w}px: {said}"
        );
        b.close().await;
    }
}

/// Issue 48, item 2: tapping a demonstration far down a phone's page brings its board into
/// view, with the step buttons.
#[tokio::test]
async fn a_demonstration_tapped_brings_its_board_into_view() {
    let app = spawn_app().await;
    for (w, h) in SCREENS {
        let Some(b) = browser::start(w, h).await else {
            return;
        };
        b.goto(&format!("{}/rulesets/tsoro-ludii/play", app.address))
            .await;
        b.wait_until(
            "return document.getElementById('status').textContent.includes('to move')",
            10,
        )
        .await;
        let demo = b.client.find(Locator::Css("[data-demo]")).await.unwrap();
        b.js("document.querySelector('[data-demo]').scrollIntoView({block: 'center'}); return 0")
            .await;
        demo.click().await.unwrap();
        b.wait_until(
            "return document.getElementById('status').textContent.startsWith('Demonstration')",
            10,
        )
        .await;
        let seen = b
            .js("const r = document.getElementById('board').getBoundingClientRect(); \
                 const f = document.getElementById('forward').getBoundingClientRect(); \
                 return [r.top >= -0.5, r.bottom <= window.innerHeight + 0.5, f.top >= 0, f.bottom <= window.innerHeight + 0.5];")
            .await;
        assert_eq!(
            seen,
            json!([true, true, true, true]),
            "{w}px: board in view: {seen}"
        );
        b.screenshot(&format!("play-demo-{w}")).await;
        b.close().await;
    }
}

/// Issue 48, item 3: a parameter mistyped (a value no menu offers, a number out of range)
/// keeps the play page, with the reason beside the field and the reader's input in it, the
/// board drawn with the other parameters; numbers are number inputs with their range in words.
#[tokio::test]
async fn a_mistyped_parameter_keeps_the_form_with_its_error_beside_the_field() {
    let Some(b) = browser::start(390, 844).await else {
        return;
    };
    let app = spawn_app().await;
    b.goto(&format!(
        "{}/rulesets/tsoro-matthews-basic/play?holes=10&layout=every+hole",
        app.address
    ))
    .await;
    let v = b
        .js("const e = document.getElementById('p-layout-error'); const s = document.getElementById('p-layout'); \
             return [document.title, e ? e.textContent : null, s.tagName, s.value, s.getAttribute('aria-invalid'), \
                     document.querySelectorAll('[data-hole]').length, document.activeElement.id, \
                     document.querySelector('label[for=p-holes]').textContent, document.getElementById('p-holes').type, \
                     document.body.innerText.includes('Bad Request')]")
        .await;
    assert!(v[0].as_str().unwrap().starts_with("Play "), "{v}");
    assert!(
        v[1].as_str()
            .unwrap()
            .starts_with("“every hole” is not one of the choices"),
        "{v}"
    );
    assert_eq!(v[2], "SELECT", "{v}");
    assert_eq!(v[3], "every hole", "the reader's input kept: {v}");
    assert_eq!(v[4], "true", "{v}");
    assert_eq!(v[5], json!(40), "the board drawn with holes=10: {v}");
    assert_eq!(v[6], "p-layout", "the focus on the field at fault: {v}");
    assert!(v[7].as_str().unwrap().contains("(6 to 21)"), "{v}");
    assert!(!v[7].as_str().unwrap().contains("..="), "{v}");
    assert_eq!(v[8], "number", "{v}");
    assert_eq!(v[9], false, "no bare error page: {v}");
    b.screenshot("play-param-error-390").await;
    // A number out of range typed and sent with "Play with these".
    b.js("const s = document.getElementById('p-layout'); s.value = s.options[0].value; return 0")
        .await;
    let holes = b.client.find(Locator::Id("p-holes")).await.unwrap();
    holes.clear().await.unwrap();
    holes.send_keys("40").await.unwrap();
    b.js("document.querySelector('form.params button[type=submit]').click(); return 0")
        .await;
    b.wait_for("#p-holes-error", 10).await;
    let v = b
        .js("return [document.getElementById('p-holes').value, document.getElementById('p-holes-error').textContent, \
                     document.getElementById('p-layout-error') === null, document.querySelectorAll('[data-hole]').length]")
        .await;
    assert_eq!(
        v,
        // The board drawn with the ruleset's own 8 holes (the 40 replaced the 10 sent before).
        json!(["40", "“40” is not a whole number from 6 to 21.", true, 32]),
        "{v}"
    );
    b.close().await;
}

/// Issue 48, item 4: a results page's hidden chart tables take no width: at 390 px the page
/// is no wider than the window.
#[tokio::test]
async fn a_results_page_is_no_wider_than_a_phone() {
    let Some(b) = browser::start(390, 844).await else {
        return;
    };
    let app = spawn_app_with_jobs(tsoro_api::settings::JobSettings {
        workers: 1,
        threads: 1,
        chunk_games: 200,
        ..Default::default()
    })
    .await;
    let url = finished_simulation(
        &app,
        json!({"ruleset": "tsoro-matthews-basic", "agents": ["random", "random"], "games": 200, "seed": 1}),
    )
    .await;
    b.goto(&url).await;
    b.wait_for("svg.chart.histogram", 20).await;
    let v = b
        .js("return [document.documentElement.scrollWidth, window.innerWidth, document.querySelectorAll('table.chart-data').length]")
        .await;
    assert!(v[0].as_f64().unwrap() <= 390.0, "{v}");
    assert!(v[2].as_u64().unwrap() >= 2, "{v}");
    b.screenshot("simulation-390").await;
    b.close().await;
}

/// axe-core (pinned in scripts/axe, installed by scripts/install-test-deps) run on the page
/// open in the browser: its serious and critical violations, each with up to three elements.
async fn axe_violations(b: &Browser) -> Option<Value> {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../scripts/axe/node_modules/axe-core/axe.min.js"
    );
    let Ok(source) = std::fs::read_to_string(path) else {
        let msg = "axe-core is not installed: run scripts/install-test-deps";
        if std::env::var_os("CI").is_some() {
            panic!("{msg}");
        }
        eprintln!("SKIPPED: {msg}");
        return None;
    };
    b.js(&format!("{source}\nreturn 0;")).await;
    Some(
        b.js("return axe.run(document, {resultTypes: ['violations']}).then(r => r.violations \
              .filter(v => v.impact === 'serious' || v.impact === 'critical') \
              .map(v => ({id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.slice(0, 3).map(n => n.target.join(' '))})))")
            .await,
    )
}

/// Issue 48, item 6: every type of page, at a phone's width and a projector's, has no serious
/// or critical accessibility violation by axe-core (contrast, names, labels, roles...).
#[tokio::test]
async fn every_page_type_passes_axe_core_at_both_sizes() {
    let app = spawn_app_with_jobs(tsoro_api::settings::JobSettings {
        workers: 1,
        threads: 1,
        chunk_games: 200,
        ..Default::default()
    })
    .await;
    let results = finished_simulation(
        &app,
        json!({"ruleset": "tsoro-matthews-basic", "agents": ["random", "greedy"], "games": 100, "seed": 1}),
    )
    .await;
    let pages = [
        "/",
        "/games",
        "/games/tsoro",
        "/rulesets",
        "/rulesets/tsoro-matthews-basic",
        "/rulesets/tsoro-matthews-basic/diff/tsoro-ludii",
        "/rulesets/tsoro-matthews-basic/readings",
        "/rulesets/tsoro-russ/play",
        "/rulesets/tsoro-yemutwelve-matthews/play",
        "/rulesets/tsoro-matthews-basic/play?layout=every+hole",
        "/sources",
        "/sources/matthews-1964",
        "/evidence",
        "/evidence/matthews-1964-tsoro-b",
        "/search?q=misor",
        "/about/citations",
        "/problems",
        "/simulations",
        "/simulations/new",
        "/tournaments/new",
        "/readings/new",
    ];
    let mut found = vec![];
    for (w, h) in SCREENS {
        let Some(b) = browser::start(w, h).await else {
            return;
        };
        for p in pages
            .iter()
            .map(|p| format!("{}{p}", app.address))
            .chain([results.clone()])
        {
            b.goto(&p).await;
            if p.contains("/play") {
                b.wait_until(
                    "return document.getElementById('status').textContent !== 'Loading…'",
                    10,
                )
                .await;
            }
            let Some(v) = axe_violations(&b).await else {
                return;
            };
            for x in v.as_array().unwrap() {
                found.push(format!("{w}px {p}: {x}"));
            }
        }
        b.close().await;
    }
    assert!(found.is_empty(), "{}", found.join("\n"));
}

/// A ladder started from the tournament form (its own fields shown when chosen) shows, when
/// done, its rungs and what the skill trace says, as the API gives them, the command that
/// reproduces it, and its ruleset's page then shows the first player's score at its top rung.
#[tokio::test]
async fn a_ladder_started_from_the_form_shows_its_rungs_and_reaches_the_ruleset_page() {
    let Some(b) = browser::start(1280, 1400).await else {
        return;
    };
    let app = spawn_app_with_jobs(tsoro_api::settings::JobSettings {
        workers: 1,
        threads: 1,
        chunk_games: 7,
        ..Default::default()
    })
    .await;
    let hidden = |id: &str| format!("return document.getElementById('{id}').hidden");
    // `?ladder=1` opens the form on a ladder.
    b.goto(&format!(
        "{}/tournaments/new?ruleset=tsoro-ludii&ladder=1",
        app.address
    ))
    .await;
    assert_eq!(b.js(&hidden("ladder-fields")).await, json!(false));
    assert_eq!(b.js(&hidden("agents-fields")).await, json!(true));
    b.goto(&format!(
        "{}/tournaments/new?ruleset=tsoro-ludii",
        app.address
    ))
    .await;
    assert_eq!(b.js(&hidden("ladder-fields")).await, json!(true));
    let find = |id: &'static str| b.client.find(Locator::Id(id));
    find("kind-ladder").await.unwrap().click().await.unwrap();
    assert_eq!(b.js(&hidden("ladder-fields")).await, json!(false));
    assert_eq!(b.js(&hidden("agents-fields")).await, json!(true));
    // Each family starts from its own range.
    b.js(
        "const f = document.getElementById('family'); f.value = 'alphabeta'; \
          f.dispatchEvent(new Event('change')); return null;",
    )
    .await;
    let range = b
        .js("return [document.getElementById('from').value, document.getElementById('to').value]")
        .await;
    assert_eq!(range, json!(["1", "4"]));
    b.js(
        "const f = document.getElementById('family'); f.value = 'mcts'; \
          f.dispatchEvent(new Event('change')); return null;",
    )
    .await;
    for (id, value) in [("from", "2"), ("to", "8"), ("pairs", "3")] {
        let e = find(id).await.unwrap();
        e.clear().await.unwrap();
        e.send_keys(value).await.unwrap();
    }
    find("start").await.unwrap().click().await.unwrap();
    b.wait_for("#rungs", 120).await;
    let url = b.client.current_url().await.unwrap();
    let id = url.path().trim_start_matches("/tournaments/").to_string();
    let api: Value = reqwest::get(format!("{}/api/v1/tournaments/{id}", app.address))
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(api["status"], "done");
    assert_eq!(api["ladder"], json!({"family": "mcts", "from": 2, "to": 8}));
    let ladder = &api["results"]["ladder"];
    let verdict = b
        .js("return document.getElementById('verdict').textContent")
        .await;
    assert_eq!(verdict, ladder["verdict"]);
    let agents = b
        .js("return Array.from(document.querySelectorAll('#rungs tbody th')).map(t => t.textContent)")
        .await;
    assert_eq!(agents, json!(["mcts:2", "mcts:4", "mcts:8"]));
    // The first player's score at the top rung, as the API gives it.
    let top = &ladder["rungs"][2]["first_player"];
    let cell = b
        .js("return document.querySelector('#rungs tbody tr:last-child td').textContent")
        .await;
    assert_eq!(
        cell.as_str().unwrap(),
        format!(
            "{:.1}% ({:.1}–{:.1}%)",
            100.0 * top["score"].as_f64().unwrap(),
            100.0 * top["ci"]["low"].as_f64().unwrap(),
            100.0 * top["ci"]["high"].as_f64().unwrap()
        )
    );
    assert_eq!(
        b.js("return document.querySelectorAll('#ladder svg.chart.rates').length")
            .await,
        json!(2)
    );
    let cmd = b
        .js("return document.getElementById('command').textContent")
        .await;
    assert_eq!(
        cmd.as_str().unwrap(),
        "tsoro ladder --ruleset tsoro-ludii --family mcts --from 2 --to 8 --pairs 3 --seed 1 \
         --opening-plies 2"
    );
    b.screenshot("ladder-done").await;
    for l in links(&b).await {
        let r = reqwest::get(&l).await.unwrap();
        assert_eq!(r.status().as_u16(), 200, "{l}");
    }
    // The ruleset's page links the ladder beside its first player's score at the top.
    check_page(&b, &format!("{}/rulesets/tsoro-ludii", app.address)).await;
    let link = b
        .js("return document.querySelector('#advantage-table a').getAttribute('href')")
        .await;
    assert_eq!(link, json!(format!("/tournaments/{id}")));
    b.screenshot("ruleset-advantage").await;
    b.close().await;
}

/// A readings study started from its form: its page shows each reading's figures and the
/// command that plays it again, and the ruleset's readings page sets them beside the citations.
#[tokio::test]
async fn a_readings_study_started_from_the_form_shows_each_reading_s_consequences() {
    let Some(b) = browser::start(1280, 1400).await else {
        return;
    };
    let app = spawn_app_with_jobs(tsoro_api::settings::JobSettings {
        workers: 1,
        threads: 1,
        chunk_games: 15,
        ..Default::default()
    })
    .await;
    b.goto(&format!(
        "{}/readings/new?ruleset=tsoro-matthews-basic&param=back_capture",
        app.address
    ))
    .await;
    let agents = b.client.find(Locator::Id("agents")).await.unwrap();
    agents.clear().await.unwrap();
    agents.send_keys("greedy").await.unwrap();
    let games = b.client.find(Locator::Id("games")).await.unwrap();
    games.clear().await.unwrap();
    games.send_keys("30").await.unwrap();
    let ticked = b
        .js("return Array.from(document.querySelectorAll('input[name=param]:checked')).map(b => b.value)")
        .await;
    assert_eq!(ticked, json!(["back_capture"]));
    b.client
        .find(Locator::Id("start"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    b.wait_for("table.readings-table", 120).await;
    let url = b.client.current_url().await.unwrap();
    assert!(url.path().starts_with("/readings/"), "{url}");
    let id = url.path().trim_start_matches("/readings/").to_string();
    let api: Value = reqwest::get(format!("{}/api/v1/readings/{id}", app.address))
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(api["status"], "done");
    // Random play and greedy play, each with the default and require_both.
    let rows = b
        .js("return Array.from(document.querySelectorAll('table.readings-table')).map(t => t.querySelectorAll('tbody tr').length)")
        .await;
    assert_eq!(rows, json!([2, 2]));
    let cmd = b
        .js("return document.getElementById('command').textContent")
        .await;
    assert_eq!(
        cmd.as_str().unwrap(),
        "tsoro readings --ruleset tsoro-matthews-basic --param back_capture --agents \
         greedy,greedy --games 30 --seed 1 --csv readings.csv"
    );
    b.screenshot("readings-done").await;
    for l in links(&b).await {
        let r = reqwest::get(&l).await.unwrap();
        assert_eq!(r.status().as_u16(), 200, "{l}");
    }
    // The ruleset's readings page now sets the study's figures beside the citations.
    b.goto(&format!(
        "{}/rulesets/tsoro-matthews-basic/readings",
        app.address
    ))
    .await;
    b.wait_for("#study", 5).await;
    let lines = b
        .js("return document.querySelectorAll('#reading-back_capture-require_both .consequences li').length")
        .await;
    assert_eq!(lines, json!(2));
    b.screenshot("ruleset-readings").await;
    for l in links(&b).await {
        let r = reqwest::get(&l).await.unwrap();
        assert_eq!(r.status().as_u16(), 200, "{l}");
    }
    b.close().await;
}
