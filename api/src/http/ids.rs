//! The archive's ids as the OpenAPI document states them: every game, source, evidence and
//! ruleset id the service knows, as enums built when the document is. The archive is compiled
//! in (the corpus's files, imported at start) and so is the engine's catalogue (the
//! `rulesets/*.json` its build script finds), so the document can list them; an id outside
//! the enum is still answered with a 404 problem.
//!
//! The path types here are also the handlers' extractors, so the parameter a route documents
//! is the one it reads.

use serde::Deserialize;
use utoipa::IntoParams;
use utoipa::openapi::path::{Parameter, ParameterBuilder, ParameterIn};
use utoipa::openapi::{Object, ObjectBuilder, Required, schema::Type};

/// A string schema allowing only `ids`.
fn enum_of<'a>(ids: impl IntoIterator<Item = &'a str>) -> Object {
    ObjectBuilder::new()
        .schema_type(Type::String)
        .enum_values(Some(ids))
        .build()
}

/// The compiled-in archive, read once.
fn corpus() -> &'static tsoro_corpus::Corpus {
    static CORPUS: std::sync::OnceLock<tsoro_corpus::Corpus> = std::sync::OnceLock::new();
    CORPUS.get_or_init(|| tsoro_corpus::Corpus::load().expect("the compiled-in corpus loads"))
}

/// One of the archive's game ids.
pub fn game_id_schema() -> Object {
    enum_of(corpus().games.keys().map(String::as_str))
}

/// One of the archive's source ids.
pub fn source_id_schema() -> Object {
    enum_of(corpus().sources.keys().map(String::as_str))
}

/// One of the archive's evidence ids.
pub fn evidence_id_schema() -> Object {
    enum_of(corpus().evidence.keys().map(String::as_str))
}

/// One of the engine catalogue's ruleset ids: those the play endpoints run, and those the
/// archive serves (the corpus's validation refuses a catalogue and records that differ).
pub fn ruleset_id_schema() -> Object {
    enum_of(tsoro_engine::catalogue::ids())
}

/// A required path parameter `name` holding one of the ids `schema` lists.
fn path_param(name: &str, description: &str, example: &str, schema: Object) -> Parameter {
    ParameterBuilder::new()
        .name(name)
        .parameter_in(ParameterIn::Path)
        .required(Required::True)
        .description(Some(description))
        .schema(Some(schema))
        .example(Some(example.into()))
        .build()
}

/// A path of one `{id}`: the extractor and its parameter, described and with an example.
macro_rules! id_path {
    ($(#[$doc:meta])* $name:ident, $description:literal, $example:literal, $schema:ident) => {
        $(#[$doc])*
        #[derive(Debug, Deserialize)]
        pub struct $name {
            /// The id.
            pub id: String,
        }

        impl IntoParams for $name {
            fn into_params(_: impl Fn() -> Option<ParameterIn>) -> Vec<Parameter> {
                vec![path_param("id", $description, $example, $schema())]
            }
        }
    };
}

id_path!(
    /// `{id}` of `/api/v1/games/{id}`.
    GamePath, "Game id", "tsoro", game_id_schema
);
id_path!(
    /// `{id}` of `/api/v1/sources/{id}` and its citation.
    SourcePath, "Source id", "matthews-1964", source_id_schema
);
id_path!(
    /// `{id}` of `/api/v1/evidence/{id}`.
    EvidencePath, "Evidence id", "matthews-1964-tsoro-b", evidence_id_schema
);
id_path!(
    /// `{id}` of `/api/v1/rulesets/{id}` and of its play endpoints.
    RulesetPath, "Ruleset id", "tsoro-ludii", ruleset_id_schema
);

/// `{a}` and `{b}` of `/api/v1/rulesets/{a}/diff/{b}`.
#[derive(Debug, Deserialize)]
pub struct RulesetPair {
    /// The first ruleset's id.
    pub a: String,
    /// The second ruleset's id.
    pub b: String,
}

impl IntoParams for RulesetPair {
    fn into_params(_: impl Fn() -> Option<ParameterIn>) -> Vec<Parameter> {
        vec![
            path_param("a", "First ruleset", "tsoro-ludii", ruleset_id_schema()),
            path_param(
                "b",
                "Second ruleset",
                "tsoro-ludii-additional-capture",
                ruleset_id_schema(),
            ),
        ]
    }
}
