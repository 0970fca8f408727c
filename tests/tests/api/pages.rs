//! The web pages over HTTP (no browser): each renders from the archive, says what it must,
//! and answers a missing record with an HTML 404; the agent-move endpoint.

use serde_json::{Value, json};
use tsoro_tests::spawn_app;

async fn page(app: &tsoro_tests::TestApp, path: &str) -> String {
    let r = app.get(path).await;
    assert_eq!(r.status().as_u16(), 200, "{path}");
    assert!(
        r.headers()["content-type"]
            .to_str()
            .unwrap()
            .starts_with("text/html"),
        "{path}"
    );
    r.text().await.unwrap()
}

/// The `<li id="ID" ...>...</li>` element of a page (a rule of a ruleset page).
fn item<'a>(page: &'a str, id: &str) -> &'a str {
    let at = page
        .find(&format!("<li id=\"{id}\""))
        .unwrap_or_else(|| panic!("no item {id}"));
    let rest = &page[at..];
    &rest[..rest.find("</li>").unwrap_or(rest.len())]
}

/// Every `class="badge WORD"` of a page, with the word it shows.
fn badges(page: &str) -> Vec<(String, String)> {
    page.split("<span class=\"badge ")
        .skip(1)
        .map(|s| {
            let class = s.split('"').next().unwrap_or_default().to_string();
            let word = s
                .split_once('>')
                .and_then(|(_, w)| w.split('<').next())
                .unwrap_or_default()
                .to_string();
            (class, word)
        })
        .collect()
}

#[tokio::test]
async fn a_ruleset_page_says_what_it_inherits_in_words_and_on_a_board() {
    let app = spawn_app().await;
    let v7 = page(&app, "/rulesets/tsoro-matthews-v7").await;
    // Its own rules and the inherited ones, each ancestor named and linked.
    assert!(!v7.contains("Uncited rules from"));
    assert!(v7.contains(
        "<dt>Inherits from</dt><dd><a href=\"/rulesets/tsoro-matthews-v5\">tsoro-matthews-v5</a>"
    ));
    assert!(v7.contains(
        "It inherits from <a href=\"/rulesets/tsoro-matthews-v5\">tsoro-matthews-v5</a> the citations of"
    ));
    assert!(v7.contains(
        "It inherits from <a href=\"/rulesets/tsoro-matthews-basic\">tsoro-matthews-basic</a>"
    ));
    // Variant 7 cites its layout itself; the number of holes is the basic version's.
    assert!(!item(&v7, "rule-layout").contains("badge inherited"));
    let holes = item(&v7, "rule-holes");
    assert!(holes.contains("class=\"badge inherited\""), "{holes}");
    assert!(
        holes.contains("href=\"/rulesets/tsoro-matthews-basic#rule-holes\""),
        "{holes}"
    );

    // Values in words, not JSON or Rust ranges.
    let basic = page(&app, "/rulesets/tsoro-matthews-basic").await;
    for p in [&v7, &basic] {
        assert!(!p.contains("{&quot;"), "JSON on a ruleset page");
        assert!(!p.contains("..="), "a Rust range on a ruleset page");
    }
    assert!(basic.contains("6 to 21 holes in each row"));
    assert!(basic.contains("8 holes in each row"));
    assert!(basic.contains("2 stones in every back-row hole (i), none in the front row (ii)"));
    assert!(item(&basic, "rule-end-move_limit").contains("drawn after 10,000 moves"));

    // No page points at the repository's files: the notes are pages of the site.
    for p in [&v7, &basic] {
        assert!(
            !p.contains("README"),
            "a ruleset page names a repository file"
        );
        assert!(
            !p.contains("corpus/"),
            "a ruleset page names a repository folder"
        );
    }
    assert!(v7.contains("href=\"/about/readings#hole-numbering\""));
    assert!(v7.contains("href=\"/about/numbering\""));
    let readings = page(&app, "/about/readings").await;
    assert!(readings.contains("<li id=\"hole-numbering\"><strong>Hole numbering.</strong>"));
    assert!(readings.contains("id=\"variant-7-s-opening\""));
    let numbering = page(&app, "/about/numbering").await;
    assert!(numbering.contains("<code>ii,3</code> faces <code>iii,3</code>"));
    assert!(numbering.contains("data-hole=\"i,1\""));

    // A picker for any other ruleset, which lands on the diff page.
    assert!(v7.contains("<form class=\"diff-picker\" action=\"/rulesets/compare\""));
    assert!(v7.contains("<option value=\"dig-dig-matthews\">"));
    let r = app
        .get("/rulesets/compare?a=tsoro-matthews-v7&b=dig-dig-matthews")
        .await;
    assert_eq!(r.status().as_u16(), 200);
    assert_eq!(
        r.url().path(),
        "/rulesets/tsoro-matthews-v7/diff/dig-dig-matthews"
    );
}

#[tokio::test]
async fn one_badge_vocabulary_and_quotations_once() {
    let app = spawn_app().await;
    // The documented badges: those /about/citations explains.
    let about = page(&app, "/about/citations").await;
    let documented: Vec<String> = badges(&about).into_iter().map(|(c, _)| c).collect();
    assert_eq!(
        documented,
        [
            "cited",
            "reconstructed",
            "assumed",
            "not-applicable",
            "uncited",
            "inherited",
            "reading"
        ]
    );
    let mut seen = std::collections::BTreeSet::new();
    for path in [
        "/games/tsoro",
        "/games/dig-dig",
        "/rulesets/tsoro-matthews-basic",
        "/rulesets/tsoro-matthews-v7",
        "/rulesets/dig-dig-ludii",
        "/rulesets/nhodo-matthews",
        "/rulesets/tsoro-matthews-basic/diff/tsoro-ludii",
        "/rulesets/tsoro-matthews-v7/diff/tsoro-matthews-v5",
        "/evidence/matthews-1964-tsoro-v7",
        "/sources/matthews-1964",
        "/search?q=misor",
    ] {
        let p = page(&app, path).await;
        assert!(
            !p.contains("class=\"tag"),
            "{path}: a badge outside the vocabulary"
        );
        for (class, word) in badges(&p) {
            assert!(documented.contains(&class), "{path}: badge {class}");
            assert_eq!(class, word, "{path}: one word per badge");
            seen.insert(class);
        }
    }
    for b in [
        "cited",
        "reconstructed",
        "assumed",
        "not-applicable",
        "inherited",
        "reading",
    ] {
        assert!(seen.contains(b), "no page shows the badge {b}");
    }

    // Variant 7's lost diagram: its caption once, and where the picture was.
    let e = page(&app, "/evidence/matthews-1964-tsoro-v7").await;
    let quote = &e[e.find("<blockquote>").unwrap()..e.find("</blockquote>").unwrap()];
    assert_eq!(quote.matches("Diagram B").count(), 1, "{quote}");
    assert!(!e.contains("Diagram B Diagram B"));
    assert!(e.contains("<p class=\"picture\">Diagram B <span class=\"not-reproduced\">[diagram not reproduced]</span></p>"));
    assert_eq!(e.matches("<blockquote>").count(), 1);
    for path in ["/sources/matthews-1964", "/games/tsoro"] {
        let p = page(&app, path).await;
        assert!(!p.contains("Diagram B Diagram B"), "{path}");
        assert!(!p.contains("Diagram A Diagram A"), "{path}");
        assert!(p.contains("[diagram not reproduced]"), "{path}");
    }
}

#[tokio::test]
async fn the_archive_pages_show_the_records() {
    let app = spawn_app().await;
    let home = page(&app, "/").await;
    for want in [
        "href=\"/docs/\"",
        "href=\"/games/tsoro\"",
        "href=\"/games/njombwa\"",
        "href=\"/rulesets/tsoro-matthews-basic\"",
        "href=\"/sources/matthews-1964\"",
        "Matthews, J. B. (1964). Notes on Some African Stone Games.",
        "href=\"/simulations/new\"",
    ] {
        assert!(home.contains(want), "/ lacks {want}");
    }

    let game = page(&app, "/games/tsoro").await;
    assert!(game.contains("href=\"/evidence/matthews-1964-tsoro-a\""));
    assert!(game.contains("href=\"/rulesets/tsoro-ludii\""));
    // The readings differ on the layout and on the heads, each ruleset with its citation.
    assert!(game.contains("Where the readings differ"));
    assert!(game.contains("<code>layout</code>"));

    let r = page(&app, "/rulesets/tsoro-matthews-basic").await;
    // Every rule field, in words, with its citation.
    let def = tsoro_engine::catalogue::get("tsoro-matthews-basic").unwrap();
    for f in tsoro_engine::catalogue::rule_fields(def.kind) {
        let id = format!("id=\"rule-{}\"", f.name.replace('.', "-"));
        assert!(r.contains(&id), "the ruleset page lacks {}", f.name);
        // Its words, from beside the field's name in the engine.
        let words = f.about.replace('\'', "&#39;");
        assert!(
            r.contains(&words),
            "the ruleset page lacks the words of {}",
            f.name
        );
    }
    assert!(r.contains("if his last stone drops into a hole which is already occupied"));
    assert!(r.contains("href=\"/evidence/matthews-1964-tsoro-a\""));
    assert!(
        r.contains("Diagram A is lost."),
        "a reconstruction's reasoning"
    );
    assert!(r.contains("class=\"badge assumed\""));
    // Every parameter choice as a reading, with its citation.
    assert!(r.contains("id=\"param-back_capture-require_both\""));
    assert!(r.contains("both holes vertically opposite him are occupied by his opponent"));
    assert!(r.contains("id=\"param-layout-every-hole\""));
    // A rule that belongs to another variant says so.
    assert!(r.contains("class=\"badge not-applicable\">not-applicable"));
    // The start board: two stones in every back-row hole, none in front.
    assert!(r.contains("data-hole=\"i,1\" data-count=\"2\""));
    assert!(r.contains("data-hole=\"ii,3\" data-count=\"0\""));
    assert!(r.contains("data-hole=\"iv,8\" data-count=\"2\""));
    assert!(r.contains("href=\"/rulesets/tsoro-matthews-basic/diff/tsoro-ludii\""));
    assert!(r.contains("href=\"/rulesets/tsoro-matthews-basic/play\""));
    assert!(r.contains("href=\"/simulations/new?ruleset=tsoro-matthews-basic\""));

    let line = page(&app, "/rulesets/dig-dig-matthews").await;
    assert!(
        line.contains("data-point=\"d5\""),
        "a point of the twelve board"
    );
    let model = page(&app, "/rulesets/nhodo-matthews").await;
    assert!(!model.contains("data-hole"), "nhodo has no board");

    let diff = page(&app, "/rulesets/tsoro-matthews-basic/diff/tsoro-ludii").await;
    assert!(diff.contains("<code>sowing.endless</code>"));
    assert!(diff.contains("class=\"diff\""));

    let e = page(&app, "/evidence/matthews-1964-tsoro-b").await;
    assert!(e.contains("<blockquote>"));
    assert!(e.contains("/api/v1/sources/matthews-1964/citation?format=bibtex"));
    assert!(e.contains("/api/v1/sources/matthews-1964/citation?format=csl-json"));
    assert!(e.contains("href=\"/rulesets/tsoro-matthews-basic\""));

    let s = page(&app, "/sources/sanderson-1913").await;
    // The source's own BibTeX entry: its type and key, its title, its pages as BibTeX writes
    // them.
    for part in [
        "@article{sanderson-1913,",
        "Native Games of Central Africa",
        "726--736",
    ] {
        assert!(s.contains(part), "BibTeX shown: {part}");
    }
    assert!(s.contains("href=\"/evidence/sanderson-1913-njombwa-rules\""));
    assert!(s.contains("href=\"/rulesets/njombwa-sanderson-gambit\""));

    for missing in [
        "/games/chess",
        "/rulesets/chess",
        "/rulesets/chess/play",
        "/rulesets/tsoro-ludii/diff/chess",
        "/evidence/nothing",
        "/sources/nobody",
        "/simulations/not-a-uuid",
        "/simulations/00000000-0000-0000-0000-000000000000",
        "/comparisons/00000000-0000-0000-0000-000000000000",
    ] {
        let r = app.get(missing).await;
        assert_eq!(r.status().as_u16(), 404, "{missing}");
        assert!(
            r.headers()["content-type"]
                .to_str()
                .unwrap()
                .starts_with("text/html"),
            "{missing}: a page for a person"
        );
    }
    // A bad parameter in a play link is a 400 page naming it.
    let r = app.get("/rulesets/tsoro-ludii/play?holes=99").await;
    assert_eq!(r.status().as_u16(), 400);
    assert!(r.text().await.unwrap().contains("holes"));

    let css = app.get("/assets/site.css").await;
    assert_eq!(css.status().as_u16(), 200);
    assert!(
        css.headers()["content-type"]
            .to_str()
            .unwrap()
            .starts_with("text/css")
    );
    assert_eq!(app.get("/assets/nothing.js").await.status().as_u16(), 404);
}

#[tokio::test]
async fn the_play_and_simulation_pages_render() {
    let app = spawn_app().await;
    let p = page(&app, "/rulesets/tsoro-yemutatu-matthews-a/play").await;
    assert!(p.contains("data-point=\"b2\""));
    assert!(p.contains("/assets/play.js"));
    let p = page(&app, "/rulesets/tsoro-ludii/play?holes=10").await;
    assert!(
        p.contains("data-hole=\"i,10\""),
        "the parameter sets the board"
    );
    let n = page(&app, "/simulations/new?ruleset=tsoro-ludii").await;
    assert!(n.contains("<option value=\"tsoro-ludii\" selected>"));
    assert!(
        n.contains("value=\"nhodo-matthews\""),
        "nhodo is simulated from the form too"
    );
}

#[tokio::test]
async fn every_demonstration_replays() {
    let app = spawn_app().await;
    for d in tsoro_api::pages::demos::all() {
        let r = app
            .post(
                &format!("/api/v1/rulesets/{}/replay", d.ruleset),
                &json!({"actions": d.actions}),
            )
            .await;
        assert_eq!(r.status().as_u16(), 200, "{}", d.title);
    }
}

#[tokio::test]
async fn an_agent_answers_with_a_legal_move() {
    let app = spawn_app().await;
    for (ruleset, agent) in [
        ("tsoro-matthews-basic", "greedy"),
        ("tsoro-ludii", "alphabeta:2"),
        ("tsoro-yemutatu-matthews-a", "mcts:50"),
        ("dig-dig-matthews", "random"),
    ] {
        let mut actions: Vec<Value> = vec![];
        for _ in 0..6 {
            let r = app
                .post(
                    &format!("/api/v1/rulesets/{ruleset}/agent-move"),
                    &json!({"actions": actions, "agent": agent, "seed": 3}),
                )
                .await;
            let status = r.status().as_u16();
            let body: Value = r.json().await.unwrap();
            if status == 422 && actions.len() > 1 {
                // The agents may have finished the game (a line in tsoro yemutatu wins).
                assert!(
                    body.to_string().contains("over"),
                    "{ruleset} {agent}: {body}"
                );
                break;
            }
            assert_eq!(status, 200, "{ruleset} {agent}: {body}");
            assert_eq!(body["after"], actions.len());
            let legal: Value = app
                .post(
                    &format!("/api/v1/rulesets/{ruleset}/legal"),
                    &json!({"actions": actions}),
                )
                .await
                .json()
                .await
                .unwrap();
            assert!(
                legal["legal"].as_array().unwrap().contains(&body["action"]),
                "{ruleset}: {} is legal",
                body["action"]
            );
            actions.push(body["action"].clone());
        }
    }
    let app = &app;
    let bad = |body: Value| async move {
        let r = app
            .post("/api/v1/rulesets/tsoro-ludii/agent-move", &body)
            .await;
        let status = r.status().as_u16();
        let p: Value = r.json().await.unwrap();
        (status, p)
    };
    let (s, p) = bad(json!({"agent": "alphabeta:8"})).await;
    assert_eq!(s, 422);
    assert_eq!(p["errors"][0]["field"], "agent");
    let (s, p) = bad(json!({"agent": "wizard"})).await;
    assert_eq!(s, 422);
    assert_eq!(p["errors"][0]["field"], "agent");
    let (s, p) = bad(json!({"agent": "random", "actions": [{"sow": "iii,1"}]})).await;
    assert_eq!(s, 422);
    assert_eq!(p["errors"][0]["field"], "actions[0]");
    let (s, _) = bad(json!({"agent": "random", "colour": "red"})).await;
    assert_eq!(s, 400);
    let r = app
        .post(
            "/api/v1/rulesets/chess/agent-move",
            &json!({"agent": "random"}),
        )
        .await;
    assert_eq!(r.status().as_u16(), 404);
}

/// Issue 35, item 3: a results page's length histogram gives the games cut off at the turn
/// limit a bar of their own and bins the rest by Freedman–Diaconis, its axes tick at nice
/// steps and are titled, and every chart carries its numbers as a table.
#[tokio::test]
async fn a_histogram_sets_the_turn_limit_apart_and_every_chart_has_its_table() {
    let app = tsoro_tests::spawn_app_with_jobs(tsoro_api::settings::JobSettings {
        workers: 1,
        threads: 1,
        poll: std::time::Duration::from_millis(50),
        ..Default::default()
    })
    .await;
    let r = app
        .post(
            "/api/v1/simulations",
            &json!({"ruleset": "tsoro-ludii", "agents": ["random", "random"],
                    "games": 200, "seed": 1, "turn_limit": 60}),
        )
        .await;
    assert_eq!(r.status().as_u16(), 202);
    let id = r.json::<Value>().await.unwrap()["id"]
        .as_str()
        .unwrap()
        .to_string();
    let v: Value = app
        .get(&format!("/api/v1/simulations/{id}?wait=60"))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(v["status"], "done", "{v}");
    let cut = v["stats"]["reasons"]["turn_limit"].as_u64().unwrap_or(0);
    // Some random games reach 60 turns; a few of them end by the rules on the last turn, and
    // those are not the limit's.
    assert!(cut > 0, "{v}");
    let html = page(&app, &format!("/simulations/{id}")).await;
    assert!(
        html.contains(&format!("{cut} games cut off at the limit of 60 turns")),
        "the limit's games stand apart"
    );
    assert!(html.contains(&format!(
        "<th scope=\"row\">cut off at the limit (60)</th><td>{cut}</td>"
    )));
    assert!(html.contains("(Freedman–Diaconis)"));
    assert!(html.contains(">Length in turns</text>") && html.contains(">Games</text>"));
    assert!(html.contains(">Share of the games</text>"));
    // Each chart (rates, histogram) has its table of numbers.
    assert_eq!(
        html.matches("<svg class=\"chart").count(),
        html.matches("<div class=\"visually-hidden\"><table class=\"chart-data\">")
            .count()
    );
    // The rates' axis ticks at 20% steps, not quarters.
    assert!(html.contains(">40%</text>") && !html.contains(">25%</text>"));
}

/// Issue 35, items 4 and 5: the index pages answer a browser with HTML, in a reader's order
/// (tsoro first; Matthews' basic version, Variants 1-7, Mancala World, then Ludii; passages by
/// source and in each source's order, under what they describe), every page's header links
/// them, and the search page highlights prefix matches and takes any input.
#[tokio::test]
async fn index_pages_and_search_read_in_order() {
    let app = spawn_app().await;
    let home = page(&app, "/").await;
    for link in [
        "/games",
        "/rulesets",
        "/sources",
        "/evidence",
        "/search",
        "/simulations",
    ] {
        assert!(
            home.contains(&format!("<li><a href=\"{link}\">")),
            "header link {link}"
        );
        page(&app, link).await;
    }
    let pos = |html: &str, s: &str| {
        html.find(s)
            .unwrap_or_else(|| panic!("{s} not on the page"))
    };
    let games = page(&app, "/games").await;
    assert!(pos(&games, "href=\"/games/tsoro\"") < pos(&games, "href=\"/games/dig-dig\""));

    let rulesets = page(&app, "/rulesets").await;
    let mut order = vec!["tsoro-matthews-basic".to_string()];
    order.extend((1..=7).map(|v| format!("tsoro-matthews-v{v}")));
    order.extend([
        "tsoro-russ".into(),
        "tsoro-ludii".into(),
        "tsoro-ludii-baia".into(),
    ]);
    let at: Vec<usize> = order
        .iter()
        .map(|id| pos(&rulesets, &format!("href=\"/rulesets/{id}\"")))
        .collect();
    assert!(at.windows(2).all(|w| w[0] < w[1]), "{order:?} at {at:?}");
    // Tsoro's group first; njombwa after Sanderson, then Ludii.
    assert!(pos(&rulesets, "id=\"game-tsoro\"") < pos(&rulesets, "id=\"game-njombwa\""));
    assert!(
        pos(&rulesets, "/rulesets/njombwa-sanderson-gambit\"")
            < pos(&rulesets, "/rulesets/njombwa-ludii\"")
    );

    let evidence = page(&app, "/evidence").await;
    // Matthews before the Ludii portal (whose record's date came first), and his passages in
    // the article's order, each under what it describes.
    assert!(
        pos(&evidence, "href=\"/evidence/matthews-1964-tsoro-a\"")
            < pos(&evidence, "href=\"/evidence/ludii-dlp-1882-rules\"")
    );
    let v: Vec<usize> = ["board", "a", "e", "v1", "v6", "v7", "two-rows", "tactics"]
        .iter()
        .map(|p| {
            pos(
                &evidence,
                &format!("href=\"/evidence/matthews-1964-tsoro-{p}\""),
            )
        })
        .collect();
    assert!(v.windows(2).all(|w| w[0] < w[1]), "{v:?}");
    assert!(evidence.contains("Tsoro, Variant 7 (Tracey&#39;s)"));

    // A source lists its passages by label, whole.
    let source = page(&app, "/sources/matthews-1964").await;
    assert!(source.contains(">Tsoro, Variant 7 (Tracey&#39;s): another layout (Diagram B)</a>"));
    assert!(source.contains("and after the third and each subsequent take, from two more."));
    assert!(
        pos(&source, "/evidence/matthews-1964-tsoro-v5\"")
            < pos(&source, "/evidence/matthews-1964-tsoro-v7\"")
    );
    let sources = page(&app, "/sources").await;
    assert!(pos(&sources, "/sources/matthews-1964\"") < pos(&sources, "/sources/ludii-portal\""));

    // Prefix search: "misor" finds "misoro", highlighted, in passages and rules.
    let s = page(&app, "/search?q=misor").await;
    assert!(s.contains("<mark>misoro</mark>"), "highlighted");
    assert!(s.contains("href=\"/evidence/matthews-1964-tsoro-v1\""));
    assert!(s.contains("href=\"/rulesets/"));
    // A phrase, and a word that is only a prefix.
    let s = page(&app, "/search?q=%22last+stone%22+vaca").await;
    assert!(
        s.contains("href=\"/evidence/matthews-1964-tsoro-b\""),
        "phrase and prefix"
    );
    // Any input: quotes, operators, markup, empty, very long; never an error, never markup.
    for q in [
        "",
        "%22",
        "%27",
        "%26%7C%21%3A%2A",
        "!!!",
        "a%27%29%3B+DROP+TABLE+archive_evidence%3B--",
        "%3Cscript%3Ealert(1)%3C%2Fscript%3E",
        "the",
        "%22unclosed",
        "%5C",
    ] {
        let r = app.get(&format!("/search?q={q}")).await;
        assert_eq!(r.status().as_u16(), 200, "q={q}");
        let body = r.text().await.unwrap();
        assert!(!body.contains("<script>alert"), "q={q} reflected as markup");
    }
    // A NUL byte is refused before the page, as everywhere in the service.
    assert_eq!(app.get("/search?q=%00").await.status().as_u16(), 400);
    let long = "capture+".repeat(300);
    page(&app, &format!("/search?q={long}")).await;
    page(&app, "/evidence/matthews-1964-tsoro-a").await;
}

/// Each place that takes agents says which, in the words of the one text that also decides
/// it (`AgentBounds`): the agent move names its own bounds and no time budget; jobs name
/// theirs and refuse a time budget with the same text.
#[tokio::test]
async fn each_place_names_the_agents_it_takes() {
    use tsoro_engine::agents::AgentBounds;
    let app = tsoro_tests::spawn_app_with_jobs(tsoro_api::settings::JobSettings {
        workers: 0,
        ..Default::default()
    })
    .await;
    let play = tsoro_api::play::AGENTS;
    let said = format!("one of: {}", play.describe());
    assert!(!said.contains("0.1s"), "{said}");
    let at = "/api/v1/rulesets/tsoro-ludii/agent-move";
    for (agent, status) in [
        ("wizard", 422),
        ("mcts:1s", 422),
        ("alphabeta:0.1s", 422),
        (&*format!("alphabeta:{}", play.max_depth + 1), 422),
        (&*format!("mcts:{}", play.max_iterations + 1), 422),
        ("greedy", 200),
        (&*format!("alphabeta:{}", play.max_depth), 200),
    ] {
        let r = app.post(at, &json!({"agent": agent})).await;
        assert_eq!(r.status().as_u16(), status, "{agent}");
        if status == 422 {
            let v: Value = r.json().await.unwrap();
            assert_eq!(v["errors"][0]["field"], "agent", "{v}");
            assert_eq!(v["errors"][0]["message"], said.as_str(), "{v}");
        }
    }
    let jobs = AgentBounds::REPRODUCIBLE.describe();
    for (path, body, field) in [
        (
            "/api/v1/simulations",
            json!({"ruleset": "tsoro-ludii", "agents": "random,mcts:1s", "games": 2}),
            "agents",
        ),
        (
            "/api/v1/tournaments",
            json!({"ruleset": "tsoro-ludii", "agents": "random,alphabeta:0.1s", "pairs": 1}),
            "agents[1]",
        ),
        (
            "/api/v1/tournaments",
            json!({"ruleset": "tsoro-ludii", "agents": "random,wizard", "pairs": 1}),
            "agents[1]",
        ),
    ] {
        let r = app.post(path, &body).await;
        assert_eq!(r.status().as_u16(), 422, "{body}");
        let v: Value = r.json().await.unwrap();
        assert_eq!(v["errors"][0]["field"], field, "{v}");
        assert_eq!(v["errors"][0]["message"], format!("known: {jobs}"), "{v}");
        assert!(v["detail"].as_str().unwrap().ends_with(&jobs), "{v}");
    }
}

/// The `(hole, owner)` of every head a page's board marks (`<g class="hole head"
/// data-hole="i,7" ... data-head="A"`), and the holes it draws.
fn marked_heads(page: &str) -> (Vec<(String, String)>, usize) {
    let attr = |el: &str, name: &str| {
        el.split_once(&format!(" {name}=\""))
            .and_then(|(_, rest)| rest.split('"').next())
            .map(str::to_string)
    };
    let holes: Vec<&str> = page
        .split("<g class=\"hole")
        .skip(1)
        .map(|s| s.split('>').next().unwrap_or_default())
        .collect();
    let mut heads: Vec<(String, String)> = holes
        .iter()
        .filter(|el| el.starts_with(" head\""))
        .map(|el| {
            (
                attr(el, "data-hole").expect("a head names its hole"),
                attr(el, "data-head").expect("a head names its owner"),
            )
        })
        .collect();
    heads.sort();
    (heads, holes.len())
}

/// Every sowing ruleset's page marks on its start board exactly the heads the engine's start
/// position has (ringed, with the owner), names them in the caption, and says the rule in
/// words; a ruleset without fixed heads marks none.
#[tokio::test]
async fn a_ruleset_page_marks_its_heads() {
    let app = spawn_app().await;
    let mut with_heads = 0;
    for def in tsoro_engine::catalogue::all() {
        if def.kind != tsoro_engine::catalogue::Kind::Sowing {
            continue;
        }
        let p = page(&app, &format!("/rulesets/{}", def.id)).await;
        let start = tsoro_engine::replay::replay(&tsoro_engine::replay::ReplayRequest {
            ruleset: def.id.clone(),
            params: Default::default(),
            actions: vec![],
        })
        .unwrap();
        let state = &start.states[0];
        let mut want: Vec<(String, String)> = ["A", "B"]
            .iter()
            .flat_map(|who| {
                state["heads"][who]
                    .as_array()
                    .cloned()
                    .unwrap_or_default()
                    .into_iter()
                    .map(move |h| (h.as_str().unwrap().to_string(), who.to_string()))
            })
            .collect();
        want.sort();
        let (marked, holes) = marked_heads(&p);
        assert!(holes >= 4 * 6, "{}: a board of {holes} holes", def.id);
        assert_eq!(marked, want, "{}: the heads marked", def.id);
        let caption = p.contains("<span class=\"heads-caption\">");
        assert_eq!(caption, !want.is_empty(), "{}: the heads' caption", def.id);
        for (hole, who) in &want {
            assert!(p.contains(&format!("aria-label=\"{hole}: ")), "{hole}");
            assert!(
                p.contains(&format!(", {who}&#39;s head\""))
                    || p.contains(&format!(", {who}'s head\"")),
                "{}: {hole} is read out as {who}'s head",
                def.id
            );
        }
        with_heads += usize::from(!want.is_empty());
    }
    assert!(with_heads >= 5, "{with_heads} rulesets with heads");

    // Variant 1: the last two holes of A's back row, and the rule in words beside the board.
    let v1 = page(&app, "/rulesets/tsoro-matthews-v1").await;
    let (marked, _) = marked_heads(&v1);
    assert!(marked.contains(&("i,7".into(), "A".into())), "{marked:?}");
    assert!(marked.contains(&("i,8".into(), "A".into())), "{marked:?}");
    assert!(v1.contains("A&#39;s i,7 and i,8") || v1.contains("A's i,7 and i,8"));
    assert!(
        item(&v1, "rule-heads-holes").contains("i,N-1 (the second hole from the end of row i)")
    );
    // The basic version has none.
    let (marked, _) = marked_heads(&page(&app, "/rulesets/tsoro-matthews-basic").await);
    assert!(marked.is_empty(), "{marked:?}");
}

/// A game page quotes each of its passages whole, as the passage's own page does: no
/// quotation cut short (the longest of tsoro's run to well over a thousand characters).
#[tokio::test]
async fn a_game_page_quotes_every_passage_whole() {
    let app = spawn_app().await;
    let corpus = tsoro_corpus::Corpus::load().unwrap();
    let mut longest = 0;
    for game in corpus.games.keys() {
        let p = page(&app, &format!("/games/{game}")).await;
        for e in corpus.evidence.values().filter(|e| &e.game == game) {
            let whole = tsoro_corpus::quotation::html(&e.quote);
            assert!(
                p.contains(&whole),
                "/games/{game} does not quote {} whole",
                e.id
            );
            longest = longest.max(e.quote.chars().count());
        }
        assert!(
            !p.contains(" …</blockquote>"),
            "/games/{game}: a cut quotation"
        );
    }
    assert!(
        longest > 1000,
        "the longest passage has {longest} characters"
    );
}

/// Nhodo runs are listed with the simulations, on `/simulations` and on the home page, each
/// run with its kind stated and linked to its own page.
#[tokio::test]
async fn nhodo_runs_are_listed_with_the_simulations() {
    let app = spawn_app().await;
    let made = |r: reqwest::Response| async move {
        assert_eq!(r.status().as_u16(), 202);
        r.json::<Value>().await.unwrap()["id"]
            .as_str()
            .unwrap()
            .to_string()
    };
    let sim = made(
        app.post(
            "/api/v1/simulations",
            &json!({"ruleset": "tsoro-ludii", "agents": ["random", "random"],
                    "games": 10, "seed": 1}),
        )
        .await,
    )
    .await;
    let nhodo = made(
        app.post(
            "/api/v1/nhodo",
            &json!({"ruleset": "nhodo-matthews", "games": 10, "seed": "1"}),
        )
        .await,
    )
    .await;
    for path in ["/simulations", "/"] {
        let p = page(&app, path).await;
        let row = |id: &str| {
            let at = p
                .find(&format!("{}\">{}</a>", id, &id[..8]))
                .unwrap_or_else(|| panic!("{path} does not list {id}"));
            let start = p[..at].rfind("<tr>").unwrap();
            let end = at + p[at..].find("</tr>").unwrap();
            p[start..end].to_string()
        };
        let s = row(&sim);
        assert!(s.contains(&format!("href=\"/simulations/{sim}\"")), "{s}");
        assert!(s.contains("<td>simulation</td>"), "{s}");
        let n = row(&nhodo);
        assert!(n.contains(&format!("href=\"/nhodo/{nhodo}\"")), "{n}");
        assert!(n.contains("<td>nhodo run</td>"), "{n}");
        assert!(n.contains("nhodo-matthews"), "{n}");
        assert!(p.contains("<th scope=\"col\">Kind</th>"), "{path}");
    }
    page(&app, &format!("/nhodo/{nhodo}")).await;
    // The API's list of simulations stays a list of simulations.
    let list: Value = app.get("/api/v1/simulations").await.json().await.unwrap();
    let ids: Vec<&str> = list["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|j| j["id"].as_str().unwrap())
        .collect();
    assert_eq!(ids, [sim.as_str()]);
}

/// The site's header, from `<header class="site">` to its end.
fn header(page: &str) -> &str {
    let at = page.find("<header class=\"site\">").expect("a site header");
    let rest = &page[at..];
    &rest[..rest.find("</header>").expect("the header ends")]
}

/// One header on every page, and it reaches the pages about the archive: `/about` lists
/// how holes are named, how rules are cited and the readings, and each of those leads back.
#[tokio::test]
async fn every_page_has_one_header_that_reaches_the_about_pages() {
    let app = spawn_app().await;
    let home = page(&app, "/").await;
    let nav = header(&home).to_string();
    assert!(
        nav.contains("<li><a href=\"/about\">About</a></li>"),
        "{nav}"
    );
    let about = page(&app, "/about").await;
    for (path, title) in [
        ("/about/numbering", "How holes are named"),
        ("/about/citations", "How rules are cited"),
        ("/about/readings", "The readings"),
    ] {
        assert!(
            about.contains(&format!("<a href=\"{path}\">{title}</a>")),
            "/about lists {path}"
        );
        let p = page(&app, path).await;
        assert!(
            p.contains("<a href=\"/about\">About</a> ›"),
            "{path}: back to /about"
        );
        assert!(p.contains(&format!("<h1>{title}</h1>")), "{path}");
    }
    for path in [
        "/about",
        "/about/numbering",
        "/about/citations",
        "/about/readings",
        "/games",
        "/games/tsoro",
        "/rulesets/tsoro-matthews-v7",
        "/rulesets/tsoro-matthews-basic/diff/tsoro-ludii",
        "/evidence/matthews-1964-tsoro-v7",
        "/sources/matthews-1964",
        "/search?q=head",
        "/simulations",
        "/simulations/new",
        "/rulesets/tsoro-ludii/play",
    ] {
        let p = page(&app, path).await;
        assert_eq!(header(&p), nav, "{path}: the same header as every page");
    }
}

/// A game page's "where the readings differ" reads each ruleset through the engine's typed
/// rules, in the words of its ruleset page: a rule one file leaves at its default is that
/// default (tsoro's `capture.into_hand` is "no" in 17 rulesets and "yes" in one, not a
/// missing value), every rule is named by what it decides, and every reading is a phrase.
#[tokio::test]
async fn a_game_page_says_where_its_readings_differ_in_the_rules_words() {
    let app = spawn_app().await;
    let game = page(&app, "/games/tsoro").await;
    let at = game.find("id=\"disagreements\"").unwrap();
    let table = &game[at..at + game[at..].find("</table>").unwrap()];
    assert!(!table.contains("{&quot;"), "JSON in the table");
    assert!(!table.contains("<td>null</td>"), "a missing value shown");
    let rows: Vec<&str> = table.split("<tr>").skip(2).collect();
    assert!(rows.len() > 10, "{} readings", rows.len());
    // Each rule by what it decides, the engine's words beside the field.
    let def = tsoro_engine::catalogue::get("tsoro-matthews-basic").unwrap();
    let mut named = 0;
    for f in tsoro_engine::catalogue::rule_fields(def.kind) {
        if table.contains(&format!("<code>{}</code>", f.name)) {
            assert!(
                table.contains(&format!(
                    "{} <code>{}</code>",
                    f.about.replace('\'', "&#39;"),
                    f.name
                )),
                "{} not named by what it decides",
                f.name
            );
            named += 1;
        }
    }
    assert!(named >= 5, "{named} rules differ");
    // A reading's value is the one the ruleset page gives the rule.
    let reading = |value: &str| {
        rows.iter()
            .find(|r| r.contains(&format!("<td>{value}</td>")))
            .unwrap_or_else(|| panic!("no reading {value:?}"))
            .matches("#rule-capture-into_hand\"")
            .count()
    };
    assert_eq!(reading("no: they leave the board"), 17);
    assert_eq!(reading("yes: they stay in his hand, out of play"), 1);
    // The limits' default, which 11 of the files leave out, is read as the engine's.
    assert!(
        table.contains("<td>after the last whole turn</td>"),
        "{table}"
    );
    let basic = page(&app, "/rulesets/tsoro-matthews-basic").await;
    assert!(item(&basic, "rule-capture-into_hand").contains("no: they leave the board"));
}
