//! The archive over HTTP against the real database: the import, every endpoint, filter and
//! format, caching, errors, and the OpenAPI description.

use crate::helpers;
use reqwest::StatusCode;
use reqwest::header::{ACCEPT, CACHE_CONTROL, CONTENT_TYPE, ETAG, IF_NONE_MATCH, LINK};
use serde_json::{Value, json};
use std::collections::BTreeSet;
use tsoro_api::archive::import::{ImportReport, import};
use tsoro_corpus::Corpus;
use tsoro_tests::{TestApp, spawn_app};

fn corpus() -> Corpus {
    Corpus::load().expect("the corpus loads")
}

async fn json_of(app: &TestApp, path: &str) -> Value {
    let r = app.get(path).await;
    assert_eq!(r.status(), StatusCode::OK, "{path}");
    r.json().await.unwrap()
}

async fn csv_of(app: &TestApp, path: &str) -> (Vec<String>, Vec<csv::StringRecord>) {
    let r = app.get(path).await;
    assert_eq!(r.status(), StatusCode::OK, "{path}");
    assert_eq!(r.headers()[CONTENT_TYPE], "text/csv; charset=utf-8");
    let text = r.text().await.unwrap();
    assert!(text.ends_with("\r\n"), "RFC 4180 line ends");
    let mut rd = csv::Reader::from_reader(text.as_bytes());
    let header = rd.headers().unwrap().iter().map(str::to_string).collect();
    (header, rd.records().map(Result::unwrap).collect())
}

/// GETs `path` and asserts a problem of this status; returns its body.
async fn problem(app: &TestApp, path: &str, status: StatusCode) -> Value {
    helpers::problem(app.get(path).await, status.as_u16()).await
}

fn ids(v: &Value) -> Vec<String> {
    v["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["id"].as_str().unwrap().to_string())
        .collect()
}

#[tokio::test]
async fn the_import_is_idempotent_and_rewrites_only_what_changed() {
    let app = spawn_app().await;
    let c = corpus();
    let total = (c.games.len() + c.sources.len() + c.evidence.len() + c.rulesets.len()) as u64;
    // The test database was imported once already: nothing to do.
    let again = import(&app.pool, &c).await.unwrap();
    assert_eq!(
        again,
        ImportReport {
            unchanged: total,
            ..Default::default()
        }
    );
    // A changed record is rewritten, a removed one comes back, a stray one goes.
    sqlx::query("UPDATE archive_evidence SET quote = 'tampered', hash = 'x' WHERE id = 'matthews-1964-tsoro-b'")
        .execute(&app.pool)
        .await
        .unwrap();
    sqlx::query("DELETE FROM archive_rulesets WHERE id = 'tsoro-matthews-v2'")
        .execute(&app.pool)
        .await
        .unwrap();
    sqlx::query("INSERT INTO archive_games (id, hash, name, family, record) VALUES ('stray', 'h', 'stray', 'none', '{}')")
        .execute(&app.pool)
        .await
        .unwrap();
    let stamp: chrono_free::Stamp =
        chrono_free::stamp(&app, "archive_sources", "matthews-1964").await;
    let r = import(&app.pool, &c).await.unwrap();
    assert_eq!(
        r,
        ImportReport {
            inserted: 1,
            updated: 1,
            unchanged: total - 2,
            deleted: 1,
        }
    );
    assert_eq!(
        chrono_free::stamp(&app, "archive_sources", "matthews-1964").await,
        stamp,
        "an unchanged record is not touched"
    );
    let e = json_of(&app, "/api/v1/evidence/matthews-1964-tsoro-b").await;
    assert_eq!(e["quote"], json!(c.evidence["matthews-1964-tsoro-b"].quote));
    let v2 = json_of(&app, "/api/v1/rulesets/tsoro-matthews-v2").await;
    assert_eq!(
        v2["citations"].as_array().unwrap().len(),
        c.rulesets["tsoro-matthews-v2"].rules.len(),
        "its citations are back"
    );
    let supported = json_of(&app, "/api/v1/rulesets?evidence=matthews-1964-tsoro-v2").await;
    assert!(
        ids(&supported).contains(&"tsoro-matthews-v2".to_string()),
        "and its evidence links"
    );
    problem(&app, "/api/v1/games/stray", StatusCode::NOT_FOUND).await;

    // The ruleset detail is rendered at import time: a changed description is served (with a
    // new ETag) after the next import, and a row whose rendering was cleared (as migration
    // 0006 does) is rendered again, identically.
    let path = "/api/v1/rulesets/tsoro-matthews-v7";
    let before = app.get(path).await;
    let etag = before.headers()[ETAG].clone();
    let before: Value = before.json().await.unwrap();
    let mut changed = c.clone();
    changed
        .rulesets
        .get_mut("tsoro-matthews-v7")
        .unwrap()
        .description = "A *changed* description.".into();
    let r = import(&app.pool, &changed).await.unwrap();
    assert_eq!((r.updated, r.unchanged), (1, total - 1));
    let after = app.get(path).await;
    assert_ne!(after.headers()[ETAG], etag);
    let after: Value = after.json().await.unwrap();
    assert_eq!(after["description"], "A *changed* description.");
    assert!(
        after["description_html"]
            .as_str()
            .unwrap()
            .contains("<em>changed</em>")
    );
    import(&app.pool, &c).await.unwrap();
    sqlx::query("UPDATE archive_rulesets SET hash = '', detail = '', etag = ''")
        .execute(&app.pool)
        .await
        .unwrap();
    let r = import(&app.pool, &c).await.unwrap();
    assert_eq!(r.updated, c.rulesets.len() as u64);
    let again = app.get(path).await;
    assert_eq!(again.headers()[ETAG], etag);
    assert_eq!(again.json::<Value>().await.unwrap(), before);
}

/// Row timestamps without a date-time crate: the import time as text.
mod chrono_free {
    pub type Stamp = String;
    pub async fn stamp(app: &tsoro_tests::TestApp, table: &str, id: &str) -> Stamp {
        let sql = format!("SELECT imported_at::text FROM {table} WHERE id = $1");
        sqlx::query_scalar(sqlx::AssertSqlSafe(sql))
            .bind(id)
            .fetch_one(&app.pool)
            .await
            .unwrap()
    }
}

#[tokio::test]
async fn games_and_sources_as_json_and_csv() {
    let app = spawn_app().await;
    let c = corpus();
    let games = json_of(&app, "/api/v1/games").await;
    assert_eq!(ids(&games), c.games.keys().cloned().collect::<Vec<_>>());
    let (header, rows) = csv_of(&app, "/api/v1/games?format=csv").await;
    // One games table: the list as CSV is the data package's games.csv, byte for byte, its
    // columns those the package describes.
    let described: Vec<&str> = tsoro_corpus::package::GAMES
        .iter()
        .map(|c| c.name)
        .collect();
    assert_eq!(header, described);
    assert_eq!(
        app.get("/api/v1/games?format=csv")
            .await
            .bytes()
            .await
            .unwrap(),
        app.get("/api/v1/archive/games.csv")
            .await
            .bytes()
            .await
            .unwrap(),
    );
    assert_eq!(rows.len(), c.games.len());
    let at = |name: &str| header.iter().position(|h| h == name).unwrap();
    let tsoro = rows.iter().find(|r| &r[at("id")] == "tsoro").unwrap();
    assert_eq!(&tsoro[at("family")], c.games["tsoro"].family);
    assert_eq!(&tsoro[at("summary")], c.games["tsoro"].summary.trim());
    // Accept: text/csv does the same.
    let r = app
        .client
        .get(format!("{}/api/v1/games", app.address))
        .header(ACCEPT, "text/csv")
        .send()
        .await
        .unwrap();
    assert_eq!(r.headers()[CONTENT_TYPE], "text/csv; charset=utf-8");
    let p = problem(&app, "/api/v1/games?format=xml", StatusCode::BAD_REQUEST).await;
    assert_eq!(p["errors"][0]["field"], "format");
    assert!(p["errors"][0]["message"].as_str().unwrap().contains("csv"));

    let g = json_of(&app, "/api/v1/games/njombwa").await;
    assert_eq!(g["names"], json!(c.games["njombwa"].names));
    assert!(g["summary_html"].as_str().unwrap().starts_with("<p>"));
    let rulesets: BTreeSet<String> = g["rulesets"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["id"].as_str().unwrap().to_string())
        .collect();
    let expected: BTreeSet<String> = c
        .rulesets
        .values()
        .filter(|r| r.game == "njombwa")
        .map(|r| r.id.clone())
        .collect();
    assert_eq!(rulesets, expected);
    let p = problem(&app, "/api/v1/games/chess", StatusCode::NOT_FOUND).await;
    assert_eq!(p["instance"], "/api/v1/games/chess");

    let sources = json_of(&app, "/api/v1/sources").await;
    assert_eq!(ids(&sources), c.sources.keys().cloned().collect::<Vec<_>>());
    let (header, rows) = csv_of(&app, "/api/v1/sources?format=csv").await;
    // One sources table: the list as CSV is the data package's sources.csv, byte for byte.
    let (package_header, _) = csv_of(&app, "/api/v1/archive/sources.csv").await;
    assert_eq!(header, package_header);
    assert_eq!(
        app.get("/api/v1/sources?format=csv")
            .await
            .bytes()
            .await
            .unwrap(),
        app.get("/api/v1/archive/sources.csv")
            .await
            .bytes()
            .await
            .unwrap(),
    );
    let m = rows.iter().find(|r| &r[0] == "matthews-1964").unwrap();
    let at = |name: &str| header.iter().position(|h| h == name).unwrap();
    assert_eq!(&m[at("title")], "Notes on Some African Stone Games");
    assert_eq!(&m[at("year")], "1964");
    let s = json_of(&app, "/api/v1/sources/matthews-1964").await;
    // The range a held witness states; Ludii's game files' wider range is a variant.
    assert_eq!(s["pages"], "64-66");
    assert!(
        s["variants"]
            .as_array()
            .unwrap()
            .iter()
            // No synthesised range: the variants are the ranges Ludii's files state.
            .any(|v| v["field"] == "pages" && v["value"] == "67-68")
            && !s["variants"]
                .as_array()
                .unwrap()
                .iter()
                .any(|v| v["value"] == "64-68"),
        "{s}"
    );
    // A web source: its address, when it was read, and (a republication) the original year.
    let w = json_of(&app, "/api/v1/sources/matthews-1964-online").await;
    assert_eq!(
        w["accessed"],
        json!(c.sources["matthews-1964-online"].accessed)
    );
    assert_eq!(w["original_year"], 1964);
    assert!(w["web"].is_string());
    let quoted: BTreeSet<String> = s["evidence"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["id"].as_str().unwrap().to_string())
        .collect();
    let expected: BTreeSet<String> = c
        .evidence
        .values()
        .filter(|e| e.source == "matthews-1964")
        .map(|e| e.id.clone())
        .collect();
    assert_eq!(quoted, expected);

    let r = app.get("/api/v1/sources/matthews-1964/citation").await;
    assert_eq!(
        r.headers()[CONTENT_TYPE],
        "application/x-bibtex; charset=utf-8"
    );
    assert_eq!(
        r.text().await.unwrap(),
        tsoro_corpus::cite::bibtex(&c.sources["matthews-1964"])
    );
    let csl = json_of(
        &app,
        "/api/v1/sources/matthews-1964/citation?format=csl-json",
    )
    .await;
    assert_eq!(csl, tsoro_corpus::cite::csl(&c.sources["matthews-1964"]));
    let p = problem(
        &app,
        "/api/v1/sources/matthews-1964/citation?format=ris",
        StatusCode::BAD_REQUEST,
    )
    .await;
    assert!(
        p["errors"][0]["message"]
            .as_str()
            .unwrap()
            .contains("csl-json")
    );
    problem(
        &app,
        "/api/v1/sources/nobody-1900/citation",
        StatusCode::NOT_FOUND,
    )
    .await;
    // Without ?format=, Accept decides (by preference), and an unacceptable Accept is 406.
    let accept = |a: &'static str| {
        app.client
            .get(format!(
                "{}/api/v1/sources/matthews-1964/citation",
                app.address
            ))
            .header(ACCEPT, a)
            .send()
    };
    let r = accept("application/vnd.citationstyles.csl+json")
        .await
        .unwrap();
    assert_eq!(
        r.headers()[CONTENT_TYPE],
        "application/vnd.citationstyles.csl+json"
    );
    assert_eq!(
        r.json::<Value>().await.unwrap(),
        tsoro_corpus::cite::csl(&c.sources["matthews-1964"])
    );
    let r = accept("application/vnd.citationstyles.csl+json;q=0.5, application/x-bibtex")
        .await
        .unwrap();
    assert_eq!(
        r.headers()[CONTENT_TYPE],
        "application/x-bibtex; charset=utf-8"
    );
    let r = accept("text/html").await.unwrap();
    assert_eq!(r.status(), StatusCode::NOT_ACCEPTABLE);
    assert_eq!(r.headers()[CONTENT_TYPE], "application/problem+json");
}

/// The whole archive as one data package: the descriptor, its tables at the paths it names
/// (relative to its URL), the same bytes `tsoro export --archive` writes; the bibliography.
#[tokio::test]
async fn the_archive_as_a_data_package_and_a_bibliography() {
    let app = spawn_app().await;
    let c = corpus();
    let offline = tsoro_corpus::package::files(&c).unwrap();
    let desc = json_of(&app, "/api/v1/datapackage.json").await;
    assert_eq!(
        serde_json::to_vec_pretty(&desc).unwrap(),
        offline[0].1,
        "the offline datapackage.json"
    );
    assert_eq!(desc["profile"], "tabular-data-package");
    for r in desc["resources"].as_array().unwrap() {
        let path = format!("/api/v1/{}", r["path"].as_str().unwrap());
        let resp = app.get(&path).await;
        assert_eq!(resp.status(), StatusCode::OK, "{path}");
        let body = resp.bytes().await.unwrap();
        let file = offline
            .iter()
            .find(|(n, _)| n == r["path"].as_str().unwrap())
            .unwrap();
        assert_eq!(body.as_ref(), file.1.as_slice(), "{path}");
        let (header, rows) = csv_of(&app, &path).await;
        let fields: Vec<&str> = r["schema"]["fields"]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| f["name"].as_str().unwrap())
            .collect();
        assert_eq!(header, fields, "{path}");
        if r["name"] == "sources" {
            let m = rows.iter().find(|x| &x[0] == "matthews-1964").unwrap();
            assert_eq!(&m[8], "1964", "integers stay integers");
        }
    }
    let p = problem(&app, "/api/v1/archive/secrets.csv", StatusCode::NOT_FOUND).await;
    assert!(
        p["errors"][0]["message"]
            .as_str()
            .unwrap()
            .contains("evidence.csv"),
        "{p}"
    );
    let r = app.get("/api/v1/citations.bib").await;
    assert_eq!(
        r.headers()[CONTENT_TYPE],
        "application/x-bibtex; charset=utf-8"
    );
    let bib = r.text().await.unwrap();
    for id in c.sources.keys() {
        assert!(bib.contains(&format!("{{{id},")), "{id}");
    }
    let csl = json_of(&app, "/api/v1/citations.json").await;
    assert_eq!(csl.as_array().unwrap().len(), c.sources.len());
    assert_eq!(
        csl[0],
        tsoro_corpus::cite::csl(c.sources.values().next().unwrap())
    );
}

#[tokio::test]
async fn evidence_filters_search_pages_and_csv() {
    let app = spawn_app().await;
    let c = corpus();
    let all = json_of(&app, "/api/v1/evidence?limit=200").await;
    assert_eq!(ids(&all), c.evidence.keys().cloned().collect::<Vec<_>>());
    assert!(all["next_cursor"].is_null());

    let by = |f: &dyn Fn(&tsoro_corpus::Evidence) -> bool| -> Vec<String> {
        c.evidence
            .values()
            .filter(|e| f(e))
            .map(|e| e.id.clone())
            .collect()
    };
    let v = json_of(&app, "/api/v1/evidence?source=sanderson-1913&limit=200").await;
    assert_eq!(ids(&v), by(&|e| e.source == "sanderson-1913"));
    let v = json_of(&app, "/api/v1/evidence?game=nhodo&limit=200").await;
    assert_eq!(ids(&v), by(&|e| e.game == "nhodo"));
    let v = json_of(&app, "/api/v1/evidence?location=SHONA&limit=200").await;
    assert_eq!(
        ids(&v),
        by(&|e| e.location.to_lowercase().contains("shona"))
    );
    assert!(!ids(&v).is_empty());
    let v = json_of(&app, "/api/v1/evidence?from=1900&to=1950&limit=200").await;
    assert_eq!(ids(&v), by(&|e| e.date_to >= 1900 && e.date_from <= 1950));
    assert!(!ids(&v).is_empty());

    // Full text: ranked, best first; every hit mentions the word.
    let v = json_of(&app, "/api/v1/evidence?q=heads&limit=200").await;
    let items = v["items"].as_array().unwrap();
    assert!(items.len() >= 2);
    let ranks: Vec<f64> = items.iter().map(|i| i["rank"].as_f64().unwrap()).collect();
    assert!(ranks.windows(2).all(|w| w[0] >= w[1]), "{ranks:?}");
    for i in items {
        let e = &c.evidence[i["id"].as_str().unwrap()];
        let text = format!("{} {}", e.quote, e.summary).to_lowercase();
        assert!(text.contains("head"), "{}", e.id);
    }

    // Pages of two, plain and searched, cover the same records once each.
    for query in ["", "q=stones&"] {
        let full = json_of(&app, &format!("/api/v1/evidence?{query}limit=200")).await;
        let mut seen = vec![];
        let mut path = format!("/api/v1/evidence?{query}limit=2");
        loop {
            let r = app.get(&path).await;
            let link = r
                .headers()
                .get(LINK)
                .map(|l| l.to_str().unwrap().to_string());
            let page: Value = r.json().await.unwrap();
            assert!(page["items"].as_array().unwrap().len() <= 2);
            seen.extend(ids(&page));
            match page["next"].as_str() {
                Some(next) => {
                    assert_eq!(link.unwrap(), format!("<{next}>; rel=\"next\""));
                    path = next.to_string();
                }
                None => break,
            }
        }
        assert_eq!(seen, ids(&full), "{query}");
    }

    let (header, rows) = csv_of(&app, "/api/v1/evidence?game=tsoro&format=csv&limit=200").await;
    assert_eq!(header[0], "id");
    assert_eq!(header[9], "quote");
    assert_eq!(rows.len(), by(&|e| e.game == "tsoro").len());
    let b = rows
        .iter()
        .find(|r| &r[0] == "matthews-1964-tsoro-b")
        .unwrap();
    assert_eq!(
        &b[9], c.evidence["matthews-1964-tsoro-b"].quote,
        "quotes survive CSV quoting"
    );

    // Bad filters name themselves and what is allowed.
    for (path, field) in [
        ("/api/v1/evidence?limit=0", "limit"),
        ("/api/v1/evidence?limit=201", "limit"),
        ("/api/v1/evidence?from=1990&to=1900", "from"),
        ("/api/v1/evidence?cursor=garbage", "cursor"),
        ("/api/v1/evidence?q=", "q"),
        ("/api/v1/evidence?source=nobody", "source"),
        ("/api/v1/evidence?game=chess", "game"),
    ] {
        let p = problem(&app, path, StatusCode::BAD_REQUEST).await;
        assert_eq!(p["errors"][0]["field"], field, "{path}: {p}");
    }
    let p = problem(
        &app,
        "/api/v1/evidence?source=nobody",
        StatusCode::BAD_REQUEST,
    )
    .await;
    assert!(
        p["errors"][0]["message"]
            .as_str()
            .unwrap()
            .contains("matthews-1964")
    );
    let p = problem(&app, "/api/v1/evidence?from=soon", StatusCode::BAD_REQUEST).await;
    assert_eq!(p["errors"][0]["field"], "from", "{p}");
    let p = problem(&app, "/api/v1/evidence?limit=many", StatusCode::BAD_REQUEST).await;
    assert_eq!(p["errors"][0]["field"], "limit", "{p}");
    problem(&app, "/api/v1/evidence?colour=red", StatusCode::BAD_REQUEST).await;

    let e = json_of(&app, "/api/v1/evidence/matthews-1964-tsoro-b").await;
    let rec = &c.evidence["matthews-1964-tsoro-b"];
    assert_eq!(e["pages"], json!(rec.pages));
    assert!(
        e["quote_html"]
            .as_str()
            .unwrap()
            .starts_with("<blockquote>")
    );
    assert_eq!(
        e["citation"]["citationItems"][0]["locator"],
        json!(rec.pages)
    );
    // A database record has no page locator.
    let d = json_of(&app, "/api/v1/evidence/ludii-dlp-1882-rules").await;
    assert_eq!(d["pages"], Value::Null, "{d}");
    let item = &d["citation"]["citationItems"][0];
    assert!(item.get("locator").is_none(), "{d}");
    assert_eq!(item["itemData"]["URL"], "https://ludii.games");
    assert!(
        item["itemData"]["accessed"]["date-parts"][0][0].is_i64(),
        "{d}"
    );
    let supported: BTreeSet<String> = e["rulesets"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["id"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(supported, rec.rulesets.iter().cloned().collect());
    problem(&app, "/api/v1/evidence/nothing", StatusCode::NOT_FOUND).await;
}

#[tokio::test]
async fn rulesets_their_parameters_citations_and_differences() {
    let app = spawn_app().await;
    let c = corpus();
    let all = json_of(&app, "/api/v1/rulesets").await;
    assert_eq!(ids(&all), c.rulesets.keys().cloned().collect::<Vec<_>>());
    let v = json_of(&app, "/api/v1/rulesets?game=njombwa").await;
    assert_eq!(
        ids(&v),
        c.rulesets
            .values()
            .filter(|r| r.game == "njombwa")
            .map(|r| r.id.clone())
            .collect::<Vec<_>>()
    );
    let v = json_of(&app, "/api/v1/rulesets?source=russ-2000").await;
    assert_eq!(
        ids(&v),
        c.rulesets
            .values()
            .filter(|r| r.sources.iter().any(|s| s == "russ-2000"))
            .map(|r| r.id.clone())
            .collect::<Vec<_>>()
    );
    assert!(!ids(&v).is_empty());
    let v = json_of(&app, "/api/v1/rulesets?evidence=matthews-1964-tsoro-v7").await;
    assert!(ids(&v).contains(&"tsoro-matthews-v7".to_string()));
    let (header, rows) = csv_of(&app, "/api/v1/rulesets?format=csv").await;
    assert_eq!(header, ["id", "title", "game", "sources", "version"]);
    assert_eq!(rows.len(), c.rulesets.len());
    let p = problem(
        &app,
        "/api/v1/rulesets?evidence=nothing",
        StatusCode::BAD_REQUEST,
    )
    .await;
    assert_eq!(p["errors"][0]["field"], "evidence");

    let r = json_of(&app, "/api/v1/rulesets/tsoro-matthews-v7").await;
    let def = tsoro_engine::catalogue::get("tsoro-matthews-v7").unwrap();
    assert_eq!(r["config"], def.config);
    let params = r["params"].as_array().unwrap();
    assert_eq!(params.len(), def.params.len());
    for (p, d) in params.iter().zip(&def.params) {
        assert_eq!(p["name"], json!(d.name));
        assert_eq!(p["default"], d.default);
        assert_eq!(p["type"], json!(d.type_name()));
        assert_eq!(p["range"], json!(d.range()));
    }
    let holes = params.iter().find(|p| p["name"] == "holes").unwrap();
    assert_eq!(
        (holes["min"].as_i64(), holes["max"].as_i64()),
        (Some(6), Some(21))
    );
    let rec = &c.rulesets["tsoro-matthews-v7"];
    let cites = r["citations"].as_array().unwrap();
    assert_eq!(cites.len(), rec.rules.len());
    for cite in cites {
        match cite["kind"].as_str().unwrap() {
            "evidence" => assert!(cite["quote"].is_string() && cite["evidence"][0].is_string()),
            "reconstructed" | "assumed" | "not_applicable" => {
                assert!(cite["reasoning"].is_string())
            }
            other => panic!("kind {other}"),
        }
    }
    assert!(r["description_html"].as_str().unwrap().contains("<p>"));
    problem(&app, "/api/v1/rulesets/chess", StatusCode::NOT_FOUND).await;

    // The version is the one a simulation job records.
    let job = app
        .post(
            "/api/v1/simulations",
            &json!({"ruleset": "tsoro-matthews-v7", "games": 10, "seed": 1}),
        )
        .await;
    assert_eq!(job.status(), StatusCode::ACCEPTED);
    let job: Value = job.json().await.unwrap();
    assert_eq!(job["ruleset_version"], r["version"]);

    // Differences, rule by rule, as the engine finds them, with the corpus's citations.
    let d = json_of(
        &app,
        "/api/v1/rulesets/tsoro-matthews-basic/diff/tsoro-matthews-v7",
    )
    .await;
    let (basic, v7) = (
        tsoro_engine::catalogue::get("tsoro-matthews-basic").unwrap(),
        tsoro_engine::catalogue::get("tsoro-matthews-v7").unwrap(),
    );
    let expected = tsoro_engine::catalogue::rule_differences(
        (&basic.config, basic.kind),
        (&v7.config, v7.kind),
    );
    let rows = d["differences"].as_array().unwrap();
    assert_eq!(rows.len(), expected.len());
    assert!(!rows.is_empty());
    for (row, e) in rows.iter().zip(&expected) {
        assert_eq!(row["field"], json!(e.field));
        assert_eq!(row["a"], e.a);
        assert_eq!(row["b"], e.b);
        assert_eq!(
            row["b_citation"].is_null(),
            !c.rulesets["tsoro-matthews-v7"].rules.contains_key(e.field)
        );
    }
    let (header, csv_rows) = csv_of(
        &app,
        "/api/v1/rulesets/tsoro-matthews-basic/diff/tsoro-matthews-v7?format=csv",
    )
    .await;
    assert_eq!(header[..3], ["field", "a", "b"]);
    assert_eq!(csv_rows.len(), expected.len());
    assert_eq!(
        serde_json::from_str::<Value>(&csv_rows[0][2]).unwrap(),
        expected[0].b
    );
    problem(
        &app,
        "/api/v1/rulesets/tsoro-matthews-basic/diff/chess",
        StatusCode::NOT_FOUND,
    )
    .await;
    let same = json_of(&app, "/api/v1/rulesets/tsoro-ludii/diff/tsoro-ludii").await;
    assert_eq!(same["differences"], json!([]));
}

#[tokio::test]
async fn archive_reads_are_cacheable() {
    let app = spawn_app().await;
    for path in [
        "/api/v1/rulesets/tsoro-matthews-basic",
        "/api/v1/evidence?q=capture",
        "/api/v1/games?format=csv",
        "/api/v1/sources/sanderson-1913/citation",
    ] {
        let r = app.get(path).await;
        assert_eq!(r.status(), StatusCode::OK);
        assert_eq!(r.headers()[CACHE_CONTROL], "public, max-age=300");
        let etag = r.headers()[ETAG].to_str().unwrap().to_string();
        let body = r.bytes().await.unwrap();
        let again = app.get(path).await;
        assert_eq!(again.headers()[ETAG].to_str().unwrap(), etag, "stable");
        assert_eq!(again.bytes().await.unwrap(), body);
        let r = app
            .client
            .get(format!("{}{path}", app.address))
            .header(IF_NONE_MATCH, &etag)
            .send()
            .await
            .unwrap();
        assert_eq!(r.status(), StatusCode::NOT_MODIFIED, "{path}");
        assert_eq!(r.headers()[ETAG].to_str().unwrap(), etag);
        assert!(r.bytes().await.unwrap().is_empty());
    }
    let r = app
        .client
        .post(format!("{}/api/v1/games", app.address))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), StatusCode::METHOD_NOT_ALLOWED);
}

#[tokio::test]
async fn openapi_is_served_committed_and_fresh_and_the_docs_work_offline() {
    let app = spawn_app().await;
    let committed = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../openapi/openapi.json"
    ))
    .expect("openapi/openapi.json is committed");
    assert!(
        committed == tsoro_api::http::openapi::json(),
        "openapi/openapi.json is stale: run `cargo run -- openapi`"
    );
    let spec = json_of(&app, "/api-docs/openapi.json").await;
    assert!(spec["openapi"].as_str().unwrap().starts_with("3.1"));
    for path in [
        "/api/v1/games",
        "/api/v1/games/{id}",
        "/api/v1/sources",
        "/api/v1/sources/{id}",
        "/api/v1/sources/{id}/citation",
        "/api/v1/evidence",
        "/api/v1/evidence/{id}",
        "/api/v1/rulesets",
        "/api/v1/rulesets/{id}",
        "/api/v1/rulesets/{a}/diff/{b}",
        "/api/v1/simulations",
        "/api/v1/simulations/{id}/games.csv",
        "/api/v1/comparisons",
        "/api/v1/rulesets/{id}/replay",
    ] {
        assert!(spec["paths"][path].is_object(), "{path} documented");
    }
    assert!(spec["components"]["schemas"]["Problem"].is_object());
    let evidence_params: Vec<&str> = spec["paths"]["/api/v1/evidence"]["get"]["parameters"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["name"].as_str().unwrap())
        .collect();
    for p in [
        "source", "game", "location", "from", "to", "q", "limit", "cursor", "format",
    ] {
        assert!(evidence_params.contains(&p), "{p}");
    }
    let home = app.get("/").await.text().await.unwrap();
    assert!(home.contains("href=\"/docs/\""));
    let docs = app.get("/docs/").await;
    assert_eq!(docs.status(), StatusCode::OK);
    let html = docs.text().await.unwrap();
    assert!(html.contains("swagger"), "Swagger UI's page");
    // Its script and styles come from the binary, not the network.
    let r = app.get("/docs/swagger-ui-bundle.js").await;
    assert_eq!(r.status(), StatusCode::OK);
    assert!(r.bytes().await.unwrap().len() > 100_000);
}

/// Every parameter choice's reading (issue 31, item 12) is stored by the import
/// (`archive_parameter_readings`, and in the ruleset's detail) and served from the database:
/// the API and the ruleset page show what was imported, not the compiled-in archive.
#[tokio::test]
async fn parameter_readings_are_imported_and_served_from_the_database() {
    let app = spawn_app().await;
    let c = corpus();
    let mut choices = 0i64;
    for rec in c.rulesets.values() {
        let r = json_of(&app, &format!("/api/v1/rulesets/{}", rec.id)).await;
        let params = r["params"].as_array().unwrap();
        assert_eq!(
            params.len(),
            rec.params.len(),
            "{}: every parameter",
            rec.id
        );
        for p in params {
            let name = p["name"].as_str().unwrap();
            let want = &rec.params[name];
            let got = p["readings"].as_array().unwrap();
            assert_eq!(got.len(), want.len(), "{}: {name}", rec.id);
            for (g, (choice, cit)) in got.iter().zip(want) {
                assert_eq!(g["choice"], json!(choice));
                assert_eq!(g["kind"], json!(cit.kind()));
                assert_eq!(g["reasoning"].as_str(), cit.reasoning(), "{choice}");
                assert_eq!(g["evidence"], json!(cit.evidence_ids()));
                if let tsoro_corpus::Citation::Evidence { quote, .. } = cit {
                    assert_eq!(g["quote"], json!(quote));
                }
                choices += 1;
            }
        }
    }
    let stored: i64 = sqlx::query_scalar("SELECT count(*) FROM archive_parameter_readings")
        .fetch_one(&app.pool)
        .await
        .unwrap();
    assert_eq!(stored, choices, "one row per choice");
    let (kind, reasoning): (String, String) = sqlx::query_as(
        "SELECT kind, citation->>'reconstructed' FROM archive_parameter_readings \
         WHERE ruleset_id = 'tsoro-matthews-v7' AND parameter = 'opening' AND choice = 'forced'",
    )
    .fetch_one(&app.pool)
    .await
    .unwrap();
    assert_eq!(kind, "reconstructed");
    assert!(reasoning.contains("usual first move"));

    // A changed reading, imported, is what the API and the page serve.
    let mut changed = c.clone();
    let v7 = changed.rulesets.get_mut("tsoro-matthews-v7").unwrap();
    *v7.params
        .get_mut("opening")
        .unwrap()
        .get_mut("free")
        .unwrap() = tsoro_corpus::Citation::Assumed {
        assumed: "A reading changed in the database only.".into(),
    };
    import(&app.pool, &changed).await.unwrap();
    let r = json_of(&app, "/api/v1/rulesets/tsoro-matthews-v7").await;
    let opening = r["params"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["name"] == "opening")
        .unwrap();
    let free = opening["readings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|x| x["choice"] == "free")
        .unwrap();
    assert_eq!(free["kind"], "assumed");
    assert_eq!(free["reasoning"], "A reading changed in the database only.");
    let page = app.get("/rulesets/tsoro-matthews-v7").await;
    assert_eq!(page.status(), StatusCode::OK);
    let page = page.text().await.unwrap();
    assert!(page.contains("A reading changed in the database only."));
    let kind: String = sqlx::query_scalar(
        "SELECT kind FROM archive_parameter_readings \
         WHERE ruleset_id = 'tsoro-matthews-v7' AND parameter = 'opening' AND choice = 'free'",
    )
    .fetch_one(&app.pool)
    .await
    .unwrap();
    assert_eq!(kind, "assumed");

    // Evidence that only a parameter's reading rests on still finds the ruleset.
    let supported = json_of(&app, "/api/v1/rulesets?evidence=matthews-1964-tsoro-v7").await;
    assert!(ids(&supported).contains(&"tsoro-matthews-v7".to_string()));
}
