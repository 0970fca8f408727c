//! The OpenAPI 3.1 description of the service (utoipa), served at `/api-docs/openapi.json`
//! with Swagger UI at `/docs`, and written to `openapi/openapi.json` by `tsoro openapi`.

use crate::archive::views as schema;
use crate::http::access::BearerScheme;
use crate::http::problem::{self, ProblemKind};
use utoipa::openapi::header::{Header, HeaderBuilder};
use utoipa::openapi::schema::{ObjectBuilder, Type};
use utoipa::openapi::{Content, OpenApi as Document, Ref, RefOr, ResponseBuilder};
use utoipa::{Modify, OpenApi};

/// The service's API, but for its paths: what the document says beside its operations.
#[derive(OpenApi)]
#[openapi(
    info(
        title = "tsoro",
        description = "A source-cited archive and a simulator of the stone games of Zimbabwe and Malawi: games, sources, quoted evidence and executable rulesets, simulations as durable jobs, replay of recorded games.",
        license(name = "MIT OR Apache-2.0"),
    ),
    components(schemas(
        crate::http::problem::Problem,
        crate::http::problem::FieldError,
        schema::Link,
        schema::GameItem,
        schema::GameList,
        schema::GameDetail,
        schema::SourceItem,
        schema::SourceList,
        schema::SourceDetail,
        schema::EvidenceItem,
        schema::EvidencePage,
        schema::EvidenceDetail,
        schema::RulesetItem,
        schema::RulesetList,
        schema::ParamInfo,
        schema::ParamReading,
        schema::RuleCitation,
        schema::RulesetDetail,
        schema::RuleDiffRow,
        schema::RulesetDiff,
        crate::runs::plan::RunRequest,
        crate::runs::plan::ComparisonRequest,
        crate::runs::plan::Variant,
        crate::runs::readings::ReadingsRequest,
        crate::http::readings::StudyView,
        crate::runs::plan::Agents,
        crate::runs::plan::Seed,
        crate::http::play::GameBody,
        crate::jobs::view::JobView,
        crate::jobs::view::Paused,
        crate::jobs::view::Estimate,
        crate::jobs::status::JobStatus,
        crate::jobs::view::JobList,
        crate::jobs::view::ComparisonView,
        crate::jobs::view::SummaryView,
        crate::jobs::view::JobGame,
        crate::jobs::tournament_view::TournamentView,
        crate::runs::tournament::TournamentRequest,
        crate::jobs::nhodo::NhodoView,
        crate::runs::nhodo::NhodoRequest,
        crate::runs::tournament::LadderRequest,
        crate::runs::tournament::Ladder,
        crate::http::play::AgentMoveRequest,
        crate::http::play::AgentMoveResponse,
    )),
    tags(
        (name = "archive", description = "Games, sources, evidence and rulesets, each rule cited"),
        (name = "simulations", description = "Simulations and comparisons as durable jobs, and their exports"),
        (name = "nhodo", description = "Nhodo, a dexterity game with no decisions, simulated as durable jobs: each seat's chances with intervals as skills and stones vary, and the exports `tsoro simulate` writes"),
        (name = "tournaments", description = "Tournaments as durable jobs: agents rated against each other with intervals, the first-move advantage, and their exports; ladders, one family of agents at rising strength (the first-move advantage as a curve of strength)"),
        (name = "play", description = "Replaying a recorded game, the legal actions at a point of it, and an agent's move there"),
    )
)]
pub struct ApiDoc;

/// The answers any operation may give besides its own, as shared responses described by
/// their problem kinds: a malformed request (400), a method the path does not take (405, with
/// `Allow`), an address or headers too long (414, 431), the database down (503, with
/// `Retry-After`), for operations with a body, one too large (413) or not JSON (415), and for
/// writes, one from a page of another site (403). Also
/// the headers the service sends: `ETag` and `Cache-Control` on the archive's reads (and 304
/// for a current `If-None-Match`), `Link` on a page of evidence, `Location` on a 202.
struct CommonResponses;

/// Shared problem responses: (status, component name, problem kind).
const COMMON: &[(&str, &str, &ProblemKind)] = &[
    ("400", "BadRequest", &problem::BAD_REQUEST),
    ("404", "NotFound", &problem::NOT_FOUND),
    ("405", "MethodNotAllowed", &problem::METHOD_NOT_ALLOWED),
    ("403", "Forbidden", &problem::FORBIDDEN),
    ("413", "PayloadTooLarge", &problem::PAYLOAD_TOO_LARGE),
    ("414", "UriTooLong", &problem::URI_TOO_LONG),
    (
        "415",
        "UnsupportedMediaType",
        &problem::UNSUPPORTED_MEDIA_TYPE,
    ),
    ("429", "TooManyRequests", &problem::TOO_MANY_JOBS),
    // The CPU-bound routes' own 429 (their responses name it; the status lookup below finds
    // the first 429).
    ("429", "CpuClientShare", &problem::CPU_CLIENT_SHARE),
    ("431", "HeadersTooLarge", &problem::HEADERS_TOO_LARGE),
    ("503", "Unavailable", &problem::UNAVAILABLE),
];

/// The headers the service sends, as shared components: (name, schema type, description).
const HEADERS: &[(&str, Type, &str)] = &[
    (
        "Allow",
        Type::String,
        "The methods the path takes (`GET, HEAD`)",
    ),
    (
        "Retry-After",
        Type::Integer,
        "Seconds to wait before trying again",
    ),
    ("Location", Type::String, "The address of what was created"),
    (
        "ETag",
        Type::String,
        "A hash of the body: send it as `If-None-Match` to get 304 while it is current",
    ),
    (
        "Cache-Control",
        Type::String,
        "How long clients and proxies may keep the answer",
    ),
    (
        "Link",
        Type::String,
        "The next page's address, `rel=\"next\"` (absent on the last page)",
    ),
];

/// A reference to one of [`HEADERS`].
fn header(name: &str) -> RefOr<Header> {
    RefOr::Ref(Ref::new(format!("#/components/headers/{name}")))
}

impl Modify for CommonResponses {
    fn modify(&self, doc: &mut Document) {
        let components = doc.components.get_or_insert_with(Default::default);
        for (name, kind, description) in HEADERS {
            let h = HeaderBuilder::new()
                .schema(Some(ObjectBuilder::new().schema_type(kind.clone())))
                .description(Some(*description))
                .build();
            components.headers.insert(name.to_string(), RefOr::T(h));
        }
        for (status, name, kind) in COMMON {
            let mut response = ResponseBuilder::new()
                .description(format!("{} Its `type`: `{}`.", kind.about, kind.uri()))
                .content(
                    crate::http::problem::PROBLEM_JSON,
                    Content::new(Some(Ref::from_schema_name("Problem"))),
                )
                .build();
            match *status {
                "405" => {
                    response.headers.insert("Allow".into(), header("Allow"));
                }
                "429" | "503" => {
                    response
                        .headers
                        .insert("Retry-After".into(), header("Retry-After"));
                }
                _ => {}
            }
            components
                .responses
                .insert(name.to_string(), RefOr::T(response));
        }
        for (path, item) in doc.paths.paths.iter_mut() {
            let database = !(path.ends_with("/replay")
                || path.ends_with("/legal")
                || path.ends_with("/agent-move"));
            let ops = [
                (&mut item.get, false, false),
                (&mut item.post, true, true),
                (&mut item.put, true, true),
                (&mut item.delete, false, true),
            ];
            for (op, has_body, write) in ops {
                let Some(op) = op.as_mut() else { continue };
                let mut add = vec!["400", "405", "414", "431"];
                if path.contains('{') {
                    add.push("404");
                }
                if has_body {
                    add.extend(["413", "415"]);
                }
                // A write from a page of another site (`http::access::same_origin_writes`).
                if write {
                    add.push("403");
                }
                if database {
                    add.push("503");
                } else {
                    // One client holds at most its share of the CPU-request slots.
                    op.responses
                        .responses
                        .entry("429".to_string())
                        .or_insert_with(|| {
                            RefOr::Ref(Ref::new("#/components/responses/CpuClientShare"))
                        });
                }
                for status in add {
                    let name = COMMON.iter().find(|c| c.0 == status).map_or("", |c| c.1);
                    op.responses
                        .responses
                        .entry(status.to_string())
                        .or_insert_with(|| {
                            RefOr::Ref(Ref::new(format!("#/components/responses/{name}")))
                        });
                }
                let archive = op
                    .tags
                    .as_ref()
                    .is_some_and(|t| t.iter().any(|t| t == "archive"));
                add_headers(path, op, archive);
            }
        }
    }
}

/// The headers of one operation's own responses.
fn add_headers(path: &str, op: &mut utoipa::openapi::path::Operation, archive: bool) {
    let responses = &mut op.responses.responses;
    if let Some(RefOr::T(accepted)) = responses.get_mut("202") {
        accepted
            .headers
            .insert("Location".into(), header("Location"));
    }
    for (status, response) in responses.iter_mut() {
        if let ("429", RefOr::T(r)) = (status.as_str(), response) {
            r.headers
                .insert("Retry-After".into(), header("Retry-After"));
        }
    }
    if !archive {
        return;
    }
    if let Some(RefOr::T(ok)) = responses.get_mut("200") {
        ok.headers.insert("ETag".into(), header("ETag"));
        ok.headers
            .insert("Cache-Control".into(), header("Cache-Control"));
        if path == "/api/v1/evidence" {
            ok.headers.insert("Link".into(), header("Link"));
        }
    }
    let mut not_modified = ResponseBuilder::new()
        .description("Not modified: the `If-None-Match` sent names the current body")
        .build();
    not_modified.headers.insert("ETag".into(), header("ETag"));
    responses
        .entry("304".into())
        .or_insert(RefOr::T(not_modified));
}

/// The document: [`ApiDoc`], the operations of the route table ([`super::routes`]), and the
/// answers and headers every operation shares ([`CommonResponses`]).
pub fn document() -> Document {
    let mut doc = ApiDoc::openapi();
    doc.merge(super::routes::document());
    CommonResponses.modify(&mut doc);
    BearerScheme.modify(&mut doc);
    doc
}

/// The description as pretty JSON (what `openapi/openapi.json` holds).
pub fn json() -> String {
    document()
        .to_pretty_json()
        .unwrap_or_else(|e| format!("{{\"error\": \"{e}\"}}"))
        + "\n"
}

#[cfg(test)]
mod tests {
    use serde_json::Value;

    /// A body's `agents` property against the document: the text alternative's pattern and the
    /// list alternative's size and item pattern.
    fn agents_taken(schema: &Value, agents: &Value) -> bool {
        let alts = schema["oneOf"]
            .as_array()
            .expect("agents are text or a list");
        let matches = |pattern: &Value, text: &str| {
            regex::Regex::new(pattern.as_str().expect("a pattern"))
                .expect("the pattern compiles")
                .is_match(text)
        };
        alts.iter().any(|alt| match (alt["type"].as_str(), agents) {
            (Some("string"), Value::String(t)) => matches(&alt["pattern"], t),
            (Some("array"), Value::Array(l)) => {
                let n = l.len() as u64;
                n >= alt["minItems"].as_u64().unwrap_or(0)
                    && n <= alt["maxItems"].as_u64().unwrap_or(u64::MAX)
                    && l.iter().all(|a| {
                        a.as_str()
                            .is_some_and(|a| matches(&alt["items"]["pattern"], a))
                    })
            }
            _ => false,
        })
    }

    /// The document takes what the service takes: a tournament's agents as its example and the
    /// README's example tournament give them (five agents: a simulation's schema allows two),
    /// and a simulation's schema still refuses a third agent.
    #[test]
    fn the_agents_schemas_take_what_the_requests_take() {
        let doc: Value = serde_json::from_str(&super::json()).expect("the document is JSON");
        let schemas = &doc["components"]["schemas"];
        let tournament = &schemas["TournamentRequest"];
        let agents = &tournament["properties"]["agents"];
        assert!(agents_taken(agents, &tournament["example"]["agents"]));
        let readme = Value::from("random,greedy,alphabeta:3,mcts:100,mcts:1000");
        assert!(agents_taken(agents, &readme));
        let many: Vec<Value> = (0..33).map(|_| Value::from("random")).collect();
        assert!(!agents_taken(agents, &Value::Array(many)), "33 agents");
        assert!(agents_taken(
            &schemas["Agents"],
            &Value::from("random, greedy")
        ));
        assert!(
            !agents_taken(&schemas["Agents"], &readme),
            "a pair takes two"
        );
    }
}
