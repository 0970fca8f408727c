//! The OpenAPI 3.1 description of the service (utoipa), served at `/api-docs/openapi.json`
//! with Swagger UI at `/docs`, and written to `openapi/openapi.json` by `tsoro openapi`.

use crate::archive::{routes as archive, schema};
use serde::Serialize;
use utoipa::{OpenApi, ToSchema};

/// An RFC 7807 problem (`application/problem+json`): every error's body.
#[derive(Serialize, ToSchema)]
pub struct ProblemDoc {
    /// A URI reference naming the problem type (`/problems/not-found`).
    #[serde(rename = "type")]
    pub kind: String,
    /// A short summary of the problem type.
    pub title: String,
    /// The HTTP status.
    pub status: u16,
    /// What happened.
    pub detail: String,
    /// The request path.
    pub instance: Option<String>,
    /// What was wrong, parameter by parameter.
    pub errors: Vec<FieldErrorDoc>,
}

/// One thing wrong with a request.
#[derive(Serialize, ToSchema)]
pub struct FieldErrorDoc {
    /// The parameter or field at fault.
    pub field: String,
    /// What is wrong and what is allowed.
    pub message: String,
}

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
    components(schemas(
        ProblemDoc,
        FieldErrorDoc,
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
        crate::jobs::doc::SimulationRequestDoc,
        crate::jobs::doc::ComparisonRequestDoc,
        crate::jobs::doc::ReplayRequestDoc,
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

/// The description as pretty JSON (what `openapi/openapi.json` holds).
pub fn json() -> String {
    ApiDoc::openapi()
        .to_pretty_json()
        .unwrap_or_else(|e| format!("{{\"error\": \"{e}\"}}"))
        + "\n"
}
