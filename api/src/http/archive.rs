//! The archive's endpoints under `/api/v1`: games, sources (and their citations), evidence
//! (filtered, searched, paged), rulesets and the differences between two.

use super::ids::{
    EvidencePath, GamePath, RulesetPair, RulesetPath, SourcePath, evidence_id_schema,
    game_id_schema, source_id_schema,
};
use super::respond::{self, Format, format_of};
use crate::archive::read::{
    self, evidence_item, from_record, game_item, ruleset_item, source_item,
};
use crate::archive::store::{self, Table};
use crate::archive::views::*;
use crate::http::problem::Problem;
use crate::http::state::AppState;
use actix_web::{HttpRequest, HttpResponse, web};
use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use serde::{Deserialize, Serialize};
use sqlx::PgPool;
use tsoro_corpus::{Evidence, Game, Source, cite, package};
use utoipa::IntoParams;

/// Largest page of evidence.
pub const MAX_LIMIT: i64 = 200;
/// Page size when none is asked for.
pub const DEFAULT_LIMIT: i64 = 50;

type Resp = Result<HttpResponse, Problem>;
type St = web::Data<AppState>;

/// `?format=` alone.
#[derive(Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct FormatQuery {
    /// `json` (default) or `csv`; `Accept: text/csv` also gives CSV.
    #[param(schema_with = respond::format_schema)]
    pub format: Option<String>,
}

/// The citation format.
#[derive(Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct CitationQuery {
    /// `bibtex` or `csl-json`; without it, `Accept` decides (`application/x-bibtex` or
    /// `application/vnd.citationstyles.csl+json`), BibTeX by default.
    #[param(schema_with = citation_format_schema)]
    pub format: Option<String>,
}

/// The citation formats `?format=` takes.
pub const CITATION_FORMATS: [&str; 2] = ["bibtex", "csl-json"];

fn citation_format_schema() -> utoipa::openapi::Object {
    respond::enum_schema(&CITATION_FORMATS)
}

/// The schema of the evidence's `?limit=`: 1 to [`MAX_LIMIT`].
fn limit_schema() -> utoipa::openapi::Object {
    utoipa::openapi::ObjectBuilder::new()
        .schema_type(utoipa::openapi::schema::Type::Integer)
        .minimum(Some(1))
        .maximum(Some(MAX_LIMIT))
        .build()
}

/// Filters of the evidence list.
#[derive(Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct EvidenceQuery {
    /// A source id.
    #[param(schema_with = source_id_schema)]
    pub source: Option<String>,
    /// A game id.
    #[param(schema_with = game_id_schema)]
    pub game: Option<String>,
    /// Words of the place described (case-insensitive substring).
    #[param(pattern = r"\S")]
    pub location: Option<String>,
    /// Only passages describing a period that reaches this year or later.
    #[param(value_type = Option<i32>)]
    pub from: Option<String>,
    /// Only passages describing a period that starts this year or earlier.
    #[param(value_type = Option<i32>)]
    pub to: Option<String>,
    /// Full-text search over quotes and summaries (web-search syntax: words, "phrases",
    /// -exclusions, or); results ranked.
    #[param(pattern = r"\S")]
    pub q: Option<String>,
    /// Page size, 1 to 200 (default 50).
    #[param(schema_with = limit_schema)]
    pub limit: Option<String>,
    /// The `next_cursor` of the previous page.
    pub cursor: Option<String>,
    /// `json` (default) or `csv`.
    #[param(schema_with = respond::format_schema)]
    pub format: Option<String>,
}

/// Filters of the ruleset list.
#[derive(Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct RulesetQuery {
    /// A game id.
    #[param(schema_with = game_id_schema)]
    pub game: Option<String>,
    /// A source id: rulesets following it.
    #[param(schema_with = source_id_schema)]
    pub source: Option<String>,
    /// An evidence id: rulesets it supports or that cite it.
    #[param(schema_with = evidence_id_schema)]
    pub evidence: Option<String>,
    /// `json` (default) or `csv`.
    #[param(schema_with = respond::format_schema)]
    pub format: Option<String>,
}

fn not_found(req: &HttpRequest, what: &str, id: &str) -> Problem {
    Problem::not_found(format!("no {what} {id:?}")).at(req.path())
}

/// 400 naming the filter when `id` is not a record of `table`.
async fn check_filter(
    req: &HttpRequest,
    pool: &PgPool,
    param: &str,
    table: Table,
    id: &Option<String>,
) -> Result<(), Problem> {
    let Some(id) = id else { return Ok(()) };
    let known = store::ids(pool, table).await?;
    if known.contains(id) {
        return Ok(());
    }
    Err(Problem::bad_request(format!("{param}: no record {id:?}"))
        .with_error(param, format!("one of: {}", known.join(", ")))
        .at(req.path()))
}

#[utoipa::path(get, path = "/api/v1/games", tag = "archive", params(FormatQuery),
    responses(
        (status = 200, description = "Every game (as CSV, the data package's games table)", content((GameList = "application/json"), (String = "text/csv"))),
        (status = 400, description = "A bad parameter", body = crate::http::problem::Problem, content_type = "application/problem+json"),
    ))]
/// The games.
pub async fn games(req: HttpRequest, state: St, q: web::Query<FormatQuery>) -> Resp {
    let format = format_of(&req, q.format.as_deref())?;
    let rows = store::records(&state.pool, Table::Games).await?;
    let games: Vec<Game> = rows
        .into_iter()
        .map(|r| {
            from_record::<Game>(r, "summary").map(|(mut g, summary)| {
                g.summary = summary;
                g
            })
        })
        .collect::<Result<_, _>>()?;
    match format {
        Format::Json => respond::json(
            &req,
            &GameList {
                items: games.iter().map(game_item).collect(),
            },
        ),
        // The archive's games table, as its data package has it.
        Format::Csv => respond::csv(
            &req,
            &package::GAMES.iter().map(|c| c.name).collect::<Vec<_>>(),
            games.iter().map(package::game_row),
        ),
    }
}

#[utoipa::path(get, path = "/api/v1/games/{id}", tag = "archive",
    params(GamePath),
    responses(
        (status = 200, description = "The game", body = GameDetail),
        (status = 404, description = "No such game", body = crate::http::problem::Problem, content_type = "application/problem+json"),
    ))]
/// One game, with its summary, evidence and rulesets.
pub async fn game(req: HttpRequest, state: St, path: web::Path<GamePath>) -> Resp {
    let id = path.into_inner().id;
    match read::game_detail(&state.pool, &id).await? {
        Some(detail) => respond::json(&req, &detail),
        None => Err(not_found(&req, "game", &id)),
    }
}

#[utoipa::path(get, path = "/api/v1/sources", tag = "archive", params(FormatQuery),
    responses(
        (status = 200, description = "Every source (as CSV, the data package's sources table)", content((SourceList = "application/json"), (String = "text/csv"))),
        (status = 400, description = "A bad parameter", body = crate::http::problem::Problem, content_type = "application/problem+json"),
    ))]
/// The sources.
pub async fn sources(req: HttpRequest, state: St, q: web::Query<FormatQuery>) -> Resp {
    let format = format_of(&req, q.format.as_deref())?;
    let rows = store::records(&state.pool, Table::Sources).await?;
    let sources: Vec<Source> = rows
        .into_iter()
        .map(|r| {
            from_record::<Source>(r, "summary").map(|(mut s, summary)| {
                s.summary = summary;
                s
            })
        })
        .collect::<Result<_, _>>()?;
    match format {
        Format::Json => respond::json(
            &req,
            &SourceList {
                items: sources.iter().map(source_item).collect(),
            },
        ),
        // The archive's sources table, as its data package has it.
        Format::Csv => respond::csv(
            &req,
            &package::SOURCES.iter().map(|c| c.name).collect::<Vec<_>>(),
            sources.iter().map(package::source_row),
        ),
    }
}

#[utoipa::path(get, path = "/api/v1/sources/{id}", tag = "archive",
    params(SourcePath),
    responses(
        (status = 200, description = "The source", body = SourceDetail),
        (status = 404, description = "No such source", body = crate::http::problem::Problem, content_type = "application/problem+json"),
    ))]
/// One source, with the passages quoted from it and the rulesets that follow it.
pub async fn source(req: HttpRequest, state: St, path: web::Path<SourcePath>) -> Resp {
    let id = path.into_inner().id;
    match read::source_detail(&state.pool, &id).await? {
        Some((detail, _)) => respond::json(&req, &detail),
        None => Err(not_found(&req, "source", &id)),
    }
}

#[utoipa::path(get, path = "/api/v1/sources/{id}/citation", tag = "archive",
    params(SourcePath, CitationQuery),
    responses(
        (status = 200, description = "The citation", content((String = "application/x-bibtex"), (Object = "application/vnd.citationstyles.csl+json"))),
        (status = 400, description = "An unknown format", body = crate::http::problem::Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such source", body = crate::http::problem::Problem, content_type = "application/problem+json"),
        (status = 406, description = "`Accept` names neither citation format", body = crate::http::problem::Problem, content_type = "application/problem+json"),
    ))]
/// A source's citation, as BibTeX or CSL-JSON (by `?format=`, else by `Accept`).
pub async fn citation(
    req: HttpRequest,
    state: St,
    path: web::Path<SourcePath>,
    q: web::Query<CitationQuery>,
) -> Resp {
    let id = path.into_inner().id;
    let format = match q.format.as_deref() {
        Some(f) if CITATION_FORMATS.contains(&f) => f,
        Some(other) => {
            return Err(
                Problem::bad_request(format!("unknown citation format {other:?}"))
                    .with_error("format", format!("one of: {}", CITATION_FORMATS.join(", ")))
                    .at(req.path()),
            );
        }
        None => citation_format_of(&req)?,
    };
    let (s, _) = read::load_source(&state.pool, &id)
        .await?
        .ok_or_else(|| not_found(&req, "source", &id))?;
    Ok(match format {
        "bibtex" => respond::cached(
            &req,
            "application/x-bibtex; charset=utf-8",
            cite::bibtex(&s).into_bytes(),
        ),
        _ => respond::cached(
            &req,
            "application/vnd.citationstyles.csl+json",
            serde_json::to_vec(&cite::csl(&s)).map_err(Problem::internal)?,
        ),
    })
}

/// The citation format `Accept` asks for: the most preferred (by `q`) of
/// `application/x-bibtex` and `application/vnd.citationstyles.csl+json`; BibTeX for `*/*`,
/// `text/*`, `application/*` or no `Accept`; 406 when nothing acceptable is offered.
fn citation_format_of(req: &HttpRequest) -> Result<&'static str, Problem> {
    let Some(accept) = req
        .headers()
        .get(actix_web::http::header::ACCEPT)
        .and_then(|v| v.to_str().ok())
    else {
        return Ok("bibtex");
    };
    let mut best: Option<(f32, &'static str)> = None;
    for range in accept.split(',') {
        let mut parts = range.split(';').map(str::trim);
        let media = parts.next().unwrap_or("").to_ascii_lowercase();
        let q = parts
            .filter_map(|p| p.strip_prefix("q="))
            .find_map(|q| q.parse::<f32>().ok())
            .unwrap_or(1.0);
        let format = match media.as_str() {
            "application/x-bibtex" | "text/x-bibtex" => "bibtex",
            "application/vnd.citationstyles.csl+json" | "application/json" => "csl-json",
            "*/*" | "text/*" | "application/*" => "bibtex",
            _ => continue,
        };
        if q > 0.0 && best.is_none_or(|(b, _)| q > b) {
            best = Some((q, format));
        }
    }
    best.map(|(_, f)| f).ok_or_else(|| {
        Problem::of(
            &crate::http::problem::NOT_ACCEPTABLE,
            format!("no citation format matches Accept: {accept}"),
        )
        .with_error(
            "Accept",
            "application/x-bibtex or application/vnd.citationstyles.csl+json",
        )
        .at(req.path())
    })
}

/// Where a page of evidence ends: the last id, and its rank when searching.
#[derive(Debug, Serialize, Deserialize)]
struct Cursor {
    id: String,
    #[serde(default)]
    rank: Option<f32>,
}

fn bad(req: &HttpRequest, field: &str, msg: impl Into<String>) -> Problem {
    let msg = msg.into();
    Problem::bad_request(format!("{field}: {msg}"))
        .with_error(field, msg)
        .at(req.path())
}

#[utoipa::path(get, path = "/api/v1/evidence", tag = "archive", params(EvidenceQuery),
    responses(
        (status = 200, description = "A page of passages (by id, or by rank with `q`); the next page's URL also in `Link`", content((EvidencePage = "application/json"), (String = "text/csv"))),
        (status = 400, description = "A bad filter", body = crate::http::problem::Problem, content_type = "application/problem+json"),
    ))]
/// Quoted passages, filtered, searched and paged.
pub async fn evidence_list(req: HttpRequest, state: St, q: web::Query<EvidenceQuery>) -> Resp {
    let format = format_of(&req, q.format.as_deref())?;
    let int = |field: &str, v: &Option<String>| -> Result<Option<i64>, Problem> {
        v.as_deref()
            .map(|t| {
                t.trim()
                    .parse::<i64>()
                    .map_err(|_| bad(&req, field, format!("a whole number, not {t:?}")))
            })
            .transpose()
    };
    let year = |field: &str, v: &Option<String>| -> Result<Option<i32>, Problem> {
        int(field, v)?
            .map(|y| i32::try_from(y).map_err(|_| bad(&req, field, format!("a year, not {y}"))))
            .transpose()
    };
    let (from, to) = (year("from", &q.from)?, year("to", &q.to)?);
    let limit = int("limit", &q.limit)?.unwrap_or(DEFAULT_LIMIT);
    if !(1..=MAX_LIMIT).contains(&limit) {
        return Err(bad(
            &req,
            "limit",
            format!("from 1 to {MAX_LIMIT}, not {limit}"),
        ));
    }
    if let (Some(from), Some(to)) = (from, to)
        && from > to
    {
        return Err(bad(&req, "from", format!("{from} is after to={to}")));
    }
    let text = q.q.as_deref().map(str::trim);
    if text == Some("") {
        return Err(bad(&req, "q", "words to search for (it was empty)"));
    }
    if q.location.as_deref().is_some_and(|l| l.trim().is_empty()) {
        return Err(bad(&req, "location", "words of a place (it was empty)"));
    }
    check_filter(&req, &state.pool, "source", Table::Sources, &q.source).await?;
    check_filter(&req, &state.pool, "game", Table::Games, &q.game).await?;
    let cursor: Option<Cursor> = match &q.cursor {
        None => None,
        Some(c) => Some(
            URL_SAFE_NO_PAD
                .decode(c)
                .ok()
                .and_then(|b| serde_json::from_slice(&b).ok())
                .filter(|c: &Cursor| c.rank.is_some() == text.is_some())
                .ok_or_else(|| {
                    bad(
                        &req,
                        "cursor",
                        "the next_cursor of a page of the same query",
                    )
                })?,
        ),
    };
    let rows = store::evidence_page(
        &state.pool,
        &store::EvidenceQuery {
            source: q.source.as_deref(),
            game: q.game.as_deref(),
            location: q.location.as_deref().map(str::trim),
            from,
            to,
            text,
            after: cursor.as_ref().map(|c| (c.id.clone(), c.rank)),
            limit: limit + 1,
        },
    )
    .await?;
    let more = rows.len() as i64 > limit;
    let mut items = vec![];
    for (record, rank) in rows.into_iter().take(limit as usize) {
        let (e, _): (Evidence, String) = from_record(record, "summary")?;
        items.push(evidence_item(&e, rank));
    }
    let next_cursor = more.then(|| items.last()).flatten().map(|last| {
        let c = Cursor {
            id: last.id.clone(),
            rank: last.rank,
        };
        URL_SAFE_NO_PAD.encode(serde_json::to_vec(&c).unwrap_or_default())
    });
    let next = next_cursor.as_ref().map(|c| {
        let mut query: Vec<(String, String)> = url_pairs(req.query_string())
            .into_iter()
            .filter(|(k, _)| k != "cursor")
            .collect();
        query.push(("cursor".into(), c.clone()));
        format!(
            "{}?{}",
            req.path(),
            query
                .iter()
                .map(|(k, v)| format!("{}={}", encode(k), encode(v)))
                .collect::<Vec<_>>()
                .join("&")
        )
    });
    let mut resp = match format {
        Format::Json => respond::json(
            &req,
            &EvidencePage {
                items,
                next_cursor,
                next: next.clone(),
            },
        )?,
        Format::Csv => respond::csv(
            &req,
            &[
                "id",
                "source",
                "game",
                "pages",
                "location",
                "date_from",
                "date_to",
                "kind",
                "confidence",
                "quote",
                "rank",
            ],
            items.into_iter().map(|e| {
                vec![
                    e.id,
                    e.source,
                    e.game,
                    e.pages.unwrap_or_default(),
                    e.location,
                    e.date_from.to_string(),
                    e.date_to.to_string(),
                    e.kind,
                    e.confidence.to_string(),
                    e.quote,
                    e.rank.map(|r| r.to_string()).unwrap_or_default(),
                ]
            }),
        )?,
    };
    if let Some(next) = next
        && let Ok(v) =
            actix_web::http::header::HeaderValue::from_str(&format!("<{next}>; rel=\"next\""))
    {
        resp.headers_mut().insert(actix_web::http::header::LINK, v);
    }
    Ok(resp)
}

fn url_pairs(query: &str) -> Vec<(String, String)> {
    web::Query::<Vec<(String, String)>>::from_query(query)
        .map(|q| q.into_inner())
        .unwrap_or_default()
}

fn encode(s: &str) -> String {
    s.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => {
                (b as char).to_string()
            }
            _ => format!("%{b:02X}"),
        })
        .collect()
}

#[utoipa::path(get, path = "/api/v1/evidence/{id}", tag = "archive",
    params(EvidencePath),
    responses(
        (status = 200, description = "The passage", body = EvidenceDetail),
        (status = 404, description = "No such passage", body = crate::http::problem::Problem, content_type = "application/problem+json"),
    ))]
/// One passage: its quote as HTML, summary, citation and the rulesets it supports.
pub async fn evidence(req: HttpRequest, state: St, path: web::Path<EvidencePath>) -> Resp {
    let id = path.into_inner().id;
    match read::evidence_detail(&state.pool, &id).await? {
        Some(detail) => respond::json(&req, &detail),
        None => Err(not_found(&req, "evidence", &id)),
    }
}

#[utoipa::path(get, path = "/api/v1/rulesets", tag = "archive", params(RulesetQuery),
    responses(
        (status = 200, description = "The rulesets", content((RulesetList = "application/json"), (String = "text/csv"))),
        (status = 400, description = "A bad filter", body = crate::http::problem::Problem, content_type = "application/problem+json"),
    ))]
/// The rulesets, filtered by game, source or evidence.
pub async fn rulesets(req: HttpRequest, state: St, q: web::Query<RulesetQuery>) -> Resp {
    let format = format_of(&req, q.format.as_deref())?;
    check_filter(&req, &state.pool, "game", Table::Games, &q.game).await?;
    check_filter(&req, &state.pool, "source", Table::Sources, &q.source).await?;
    check_filter(&req, &state.pool, "evidence", Table::Evidence, &q.evidence).await?;
    let rows = store::rulesets(
        &state.pool,
        store::RulesetFilter {
            game: q.game.as_deref(),
            source: q.source.as_deref(),
            evidence: q.evidence.as_deref(),
        },
    )
    .await?;
    let items: Vec<RulesetItem> = rows.into_iter().map(ruleset_item).collect();
    match format {
        Format::Json => respond::json(&req, &RulesetList { items }),
        Format::Csv => respond::csv(
            &req,
            &["id", "title", "game", "sources", "version"],
            items
                .into_iter()
                .map(|r| vec![r.id, r.title, r.game, r.sources.join("; "), r.version]),
        ),
    }
}

#[utoipa::path(get, path = "/api/v1/rulesets/{id}", tag = "archive",
    params(RulesetPath),
    responses(
        (status = 200, description = "The ruleset", body = RulesetDetail),
        (status = 404, description = "No such ruleset", body = crate::http::problem::Problem, content_type = "application/problem+json"),
    ))]
/// One ruleset: configuration, parameters, a citation per rule and its description.
pub async fn ruleset(req: HttpRequest, state: St, path: web::Path<RulesetPath>) -> Resp {
    let id = path.into_inner().id;
    // Rendered at import time (`detail::ruleset_detail`): one primary-key read.
    match read::ruleset_stored(&state.pool, &id).await? {
        Some((detail, etag)) => Ok(respond::stored(&req, "application/json", detail, etag)),
        None => Err(not_found(&req, "ruleset", &id)),
    }
}

#[utoipa::path(get, path = "/api/v1/rulesets/{a}/diff/{b}", tag = "archive",
    params(RulesetPair, FormatQuery),
    responses(
        (status = 200, description = "The rules on which they differ, each side with its citation", content((RulesetDiff = "application/json"), (String = "text/csv"))),
        (status = 404, description = "No such ruleset", body = crate::http::problem::Problem, content_type = "application/problem+json"),
    ))]
/// Two rulesets rule by rule: the fields whose values differ at default parameters.
pub async fn diff(
    req: HttpRequest,
    state: St,
    path: web::Path<RulesetPair>,
    q: web::Query<FormatQuery>,
) -> Resp {
    let format = format_of(&req, q.format.as_deref())?;
    let RulesetPair { a, b } = path.into_inner();
    let RulesetDiff { a, b, differences } = read::ruleset_diff(&state.pool, &a, &b)
        .await?
        .map_err(|id| not_found(&req, "ruleset", &id))?;
    match format {
        Format::Json => respond::json(&req, &RulesetDiff { a, b, differences }),
        Format::Csv => {
            let c = |c: &Option<RuleCitation>| -> [String; 3] {
                match c {
                    None => Default::default(),
                    Some(c) => [
                        c.kind.clone(),
                        c.evidence.join("; "),
                        c.quote
                            .clone()
                            .or_else(|| c.reasoning.clone())
                            .unwrap_or_default(),
                    ],
                }
            };
            respond::csv(
                &req,
                &[
                    "field",
                    "a",
                    "b",
                    "a_citation_kind",
                    "a_evidence",
                    "a_citation",
                    "b_citation_kind",
                    "b_evidence",
                    "b_citation",
                ],
                differences.iter().map(|d| {
                    let mut row = vec![d.field.clone(), d.a.to_string(), d.b.to_string()];
                    row.extend(c(&d.a_citation));
                    row.extend(c(&d.b_citation));
                    row
                }),
            )
        }
    }
}
