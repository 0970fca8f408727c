//! What the archive's endpoints answer, as typed (and documented) JSON.

use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::ToSchema;

/// A link to another record.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct Link {
    /// Its id.
    pub id: String,
    /// A short label (title, location).
    pub label: String,
    /// Its URL in this API.
    pub url: String,
}

/// A game in a list.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct GameItem {
    /// Stable id (`tsoro`).
    pub id: String,
    /// The name used here.
    pub name: String,
    /// Every name it goes by.
    pub names: Vec<String>,
    /// Family (`four-row sowing`, `morris`, `three-in-a-row`, `dexterity`).
    pub family: String,
    /// Where it was recorded.
    pub region: String,
    /// Who plays it.
    pub people: String,
    /// Its URL.
    pub url: String,
}

/// The games.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct GameList {
    /// Every game, by id.
    pub items: Vec<GameItem>,
}

/// A game with its summary, evidence and rulesets.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct GameDetail {
    #[serde(flatten)]
    pub game: GameItem,
    /// What it is played with.
    pub materials: Vec<String>,
    /// Evidence of who plays it.
    pub players_evidence: Vec<String>,
    /// The project's summary (Markdown) and as HTML.
    pub summary: String,
    pub summary_html: String,
    /// Passages describing it.
    pub evidence: Vec<Link>,
    /// Its rulesets.
    pub rulesets: Vec<Link>,
}

/// A source in a list.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct SourceItem {
    /// Stable id (`matthews-1964`).
    pub id: String,
    /// CSL type (`article-journal`, `book`, `webpage`, `dataset`).
    #[serde(rename = "type")]
    pub kind: String,
    /// Authors, `Family, Given`.
    pub authors: Vec<String>,
    pub title: String,
    pub year: Option<i32>,
    /// The journal, book or site it is in.
    pub container: Option<String>,
    pub volume: Option<String>,
    pub issue: Option<String>,
    pub pages: Option<String>,
    pub publisher: Option<String>,
    pub place: Option<String>,
    /// Its address on the web.
    pub web: Option<String>,
    /// When the web page or database was read (ISO 8601 date).
    pub accessed: Option<String>,
    /// Year of the original publication, for a republication.
    pub original_year: Option<i32>,
    /// Its URL in this API.
    pub url: String,
    /// Its citation (BibTeX; `?format=csl-json` for CSL-JSON).
    pub citation: String,
}

/// The sources.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct SourceList {
    pub items: Vec<SourceItem>,
}

/// A source with its summary, the passages quoted from it and the rulesets following it.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct SourceDetail {
    #[serde(flatten)]
    pub source: SourceItem,
    /// Sources it reproduces or derives from.
    pub derived_from: Vec<String>,
    /// How other records write its fields (`field`, `value`, `where`).
    #[schema(value_type = Vec<Object>)]
    pub variants: Value,
    pub summary: String,
    pub summary_html: String,
    pub evidence: Vec<Link>,
    pub rulesets: Vec<Link>,
}

/// A quoted passage in a list.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct EvidenceItem {
    pub id: String,
    /// The source quoted.
    pub source: String,
    /// The game described.
    pub game: String,
    /// What the passage describes, in a few words (`Tsoro, Variant 5: additional takes`).
    pub label: Option<String>,
    /// Its place among the archive's passages of its source, in the source's order.
    pub position: Option<u32>,
    /// Page or pages in a printed source; none for a web page or database record (its
    /// source's `web` address and `accessed` date locate it).
    pub pages: Option<String>,
    /// The place described.
    pub location: String,
    /// The period described, in years.
    pub date_from: i32,
    pub date_to: i32,
    /// `ethnography`, `compilation`, `rules summary`, `database`.
    pub kind: String,
    /// Confidence that it describes the game as played, 0 to 100.
    pub confidence: u8,
    /// The passage, verbatim.
    pub quote: String,
    /// Full-text rank, when searched with `q`.
    pub rank: Option<f32>,
    pub url: String,
}

/// A page of evidence.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct EvidencePage {
    pub items: Vec<EvidenceItem>,
    /// Pass as `cursor` for the next page; absent on the last.
    pub next_cursor: Option<String>,
    /// The next page's URL.
    pub next: Option<String>,
}

/// A passage with its quote as HTML, its summary and the rulesets it supports.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct EvidenceDetail {
    #[serde(flatten)]
    pub evidence: EvidenceItem,
    /// How the page was established, when inferred.
    pub page_note: Option<String>,
    /// Who was observed.
    pub observed: Option<String>,
    /// Matching records elsewhere.
    pub xref: Vec<String>,
    /// Why it supports no executable ruleset.
    pub not_executable: Option<String>,
    pub quote_html: String,
    pub summary: String,
    pub summary_html: String,
    pub source_url: String,
    /// CSL-JSON of the passage (its source with the page).
    #[schema(value_type = Object)]
    pub citation: Value,
    pub rulesets: Vec<Link>,
}

/// A ruleset in a list.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
pub struct RulesetItem {
    pub id: String,
    pub title: String,
    pub game: String,
    /// The sources it follows.
    pub sources: Vec<String>,
    /// sha256 of its configuration at default parameters (what simulation jobs record).
    pub version: String,
    pub url: String,
}

/// The rulesets.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct RulesetList {
    pub items: Vec<RulesetItem>,
}

/// A parameter of a ruleset.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
pub struct ParamInfo {
    pub name: String,
    /// `int`, `bool` or `choice`.
    #[serde(rename = "type")]
    pub kind: String,
    /// Its default: a number, a boolean or a string, as `type` says.
    #[schema(value_type = Value)]
    pub default: Value,
    /// Allowed values in words (`6..=21`, `true|false`, `sow|skip`).
    pub range: String,
    pub min: Option<i64>,
    pub max: Option<i64>,
    /// The values it takes, for `bool` and `choice`.
    #[schema(value_type = Option<Vec<Value>>)]
    pub choices: Option<Value>,
    pub description: String,
    /// Each choice (`any` for a number) as a reading, with its citation, from the archive's
    /// ruleset record as imported.
    #[serde(default)]
    pub readings: Vec<ParamReading>,
}

/// One choice of a parameter as a reading: how it is attested.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
pub struct ParamReading {
    /// The choice (`require_both`; `true`/`false`; `any` for a number).
    pub choice: String,
    /// `evidence`, `reconstructed`, `assumed` or `not_applicable`.
    pub kind: String,
    /// The evidence quoted (for `evidence`) or rested on.
    pub evidence: Vec<String>,
    /// The words that attest it (for `evidence`).
    pub quote: Option<String>,
    /// Why (for `reconstructed`, `assumed` and `not_applicable`).
    pub reasoning: Option<String>,
}

/// How one rule is attested.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
pub struct RuleCitation {
    /// The rule field (`capture.back`).
    pub field: String,
    /// `evidence`, `reconstructed`, `assumed` or `not_applicable`.
    pub kind: String,
    /// The evidence quoted (for `evidence`) or rested on (for `reconstructed`).
    pub evidence: Vec<String>,
    /// The words that attest it (for `evidence`).
    pub quote: Option<String>,
    /// Why (for `reconstructed`, `assumed` and `not_applicable`).
    pub reasoning: Option<String>,
    /// The ancestor ruleset (`inherit`, followed up the chain) whose citation this is, when
    /// the ruleset does not cite the rule itself.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub inherited_from: Option<String>,
}

/// A ruleset: configuration, parameters, a citation per rule, description.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
pub struct RulesetDetail {
    #[serde(flatten)]
    pub ruleset: RulesetItem,
    /// The ruleset it takes uncited rules from.
    pub inherit: Option<String>,
    /// The engine configuration at default parameters.
    #[schema(value_type = Object)]
    pub config: Value,
    pub params: Vec<ParamInfo>,
    pub citations: Vec<RuleCitation>,
    pub description: String,
    pub description_html: String,
    /// Endpoints to play it.
    pub replay: String,
    pub legal: String,
}

/// One rule on which two rulesets differ.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct RuleDiffRow {
    pub field: String,
    /// Its value in the first ruleset (default parameters): any JSON value.
    #[schema(value_type = Value)]
    pub a: Value,
    /// In the second.
    #[schema(value_type = Value)]
    pub b: Value,
    pub a_citation: Option<RuleCitation>,
    pub b_citation: Option<RuleCitation>,
}

/// Two rulesets, rule by rule.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct RulesetDiff {
    pub a: String,
    pub b: String,
    pub differences: Vec<RuleDiffRow>,
}
