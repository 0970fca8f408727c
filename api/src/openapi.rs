//! The OpenAPI 3.1 description of the service (utoipa), served at `/api-docs/openapi.json`
//! with Swagger UI at `/docs`, and written to `openapi/openapi.json` by `tsoro openapi`.

use crate::archive::{routes as archive, schema};
use utoipa::openapi::{Content, OpenApi as Document, Ref, RefOr, ResponseBuilder};
use utoipa::{Modify, OpenApi};

/// The service's API.
#[derive(OpenApi)]
#[openapi(
    info(
        title = "tsoro",
        description = "A source-cited archive and a simulator of the stone games of Zimbabwe and Malawi: games, sources, quoted evidence and executable rulesets, simulations as durable jobs, replay of recorded games.",
        license(name = "MIT OR Apache-2.0"),
    ),
    paths(
        archive::games,
        archive::game,
        archive::sources,
        archive::source,
        archive::citation,
        archive::evidence_list,
        archive::evidence,
        archive::rulesets,
        archive::ruleset,
        archive::diff,
        crate::archive::package::datapackage,
        crate::archive::package::table,
        crate::archive::package::citations_bib,
        crate::archive::package::citations_json,
        crate::jobs::routes::create,
        crate::jobs::routes::list,
        crate::jobs::routes::show,
        crate::jobs::routes::cancel,
        crate::jobs::routes::games_csv,
        crate::jobs::routes::game_moves,
        crate::jobs::routes::games_json,
        crate::jobs::routes::summary_csv,
        crate::jobs::routes::summary_json,
        crate::jobs::routes::datapackage,
        crate::jobs::routes::create_comparison,
        crate::jobs::routes::show_comparison,
        crate::jobs::routes::comparison_csv,
        crate::jobs::routes::replay_game,
        crate::jobs::routes::legal,
        crate::agent_move::agent_move,
    ),
    modifiers(&CommonResponses),
    components(schemas(
        crate::problem::Problem,
        crate::problem::FieldError,
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
        schema::RuleCitation,
        schema::RulesetDetail,
        schema::RuleDiffRow,
        schema::RulesetDiff,
        crate::plan::RunRequest,
        crate::plan::ComparisonRequest,
        crate::plan::Agents,
        crate::plan::Seed,
        crate::jobs::routes::GameBody,
        crate::jobs::view::JobView,
        crate::jobs::status::JobStatus,
        crate::jobs::view::JobList,
        crate::jobs::view::ComparisonView,
        crate::jobs::view::SummaryView,
        crate::jobs::view::JobGame,
        crate::agent_move::AgentMoveRequest,
        crate::agent_move::AgentMoveResponse,
    )),
    tags(
        (name = "archive", description = "Games, sources, evidence and rulesets, each rule cited"),
        (name = "simulations", description = "Simulations and comparisons as durable jobs, and their exports"),
        (name = "play", description = "Replaying a recorded game, the legal actions at a point of it, and an agent's move there"),
    )
)]
pub struct ApiDoc;

/// The answers any operation may give besides its own, as shared responses: a malformed
/// request (400), a method the path does not take (405), the database down (503), and for
/// operations with a body, one too large (413) or not JSON (415).
struct CommonResponses;

/// Shared problem responses: (status, component name, description).
const COMMON: &[(&str, &str, &str)] = &[
    (
        "400",
        "BadRequest",
        "A malformed request: a bad query parameter, or a body that is not valid JSON of the expected shape",
    ),
    ("404", "NotFound", "No such resource"),
    (
        "405",
        "MethodNotAllowed",
        "The path does not take this method",
    ),
    (
        "413",
        "PayloadTooLarge",
        "The body is over the service's size limit",
    ),
    (
        "415",
        "UnsupportedMediaType",
        "The body is not `application/json`",
    ),
    (
        "429",
        "TooManyRequests",
        "Too many jobs queued or running: try again later",
    ),
    (
        "503",
        "Unavailable",
        "The database is unavailable: try again later",
    ),
];

impl Modify for CommonResponses {
    fn modify(&self, doc: &mut Document) {
        let components = doc.components.get_or_insert_with(Default::default);
        for (_, name, description) in COMMON {
            let response = ResponseBuilder::new()
                .description(*description)
                .content(
                    crate::problem::PROBLEM_JSON,
                    Content::new(Some(Ref::from_schema_name("Problem"))),
                )
                .build();
            components
                .responses
                .insert(name.to_string(), RefOr::T(response));
        }
        for (path, item) in doc.paths.paths.iter_mut() {
            let database = !(path.ends_with("/replay")
                || path.ends_with("/legal")
                || path.ends_with("/agent-move"));
            let ops = [
                (&mut item.get, false),
                (&mut item.post, true),
                (&mut item.put, true),
                (&mut item.delete, false),
            ];
            for (op, has_body) in ops {
                let Some(op) = op.as_mut() else { continue };
                let mut add = vec!["400", "405"];
                if path.contains('{') {
                    add.push("404");
                }
                if has_body {
                    add.extend(["413", "415"]);
                }
                if database {
                    add.push("503");
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
            }
        }
    }
}

/// The description as pretty JSON (what `openapi/openapi.json` holds).
pub fn json() -> String {
    ApiDoc::openapi()
        .to_pretty_json()
        .unwrap_or_else(|e| format!("{{\"error\": \"{e}\"}}"))
        + "\n"
}
