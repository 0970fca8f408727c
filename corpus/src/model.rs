//! The records of the archive.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// A person named in a source.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Person {
    /// Family name.
    pub family: String,
    /// Given names or initials.
    #[serde(default)]
    pub given: String,
}

impl Person {
    /// The name as a reference lists it: `Matthews, J. B.` (the family name alone when no given
    /// name is known).
    pub fn inverted(&self) -> String {
        if self.given.is_empty() {
            self.family.clone()
        } else {
            format!("{}, {}", self.family, self.given)
        }
    }
}

/// A way another record writes one of this source's fields (never silently picked).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Variant {
    /// The field (`title`, `author`, `pages`, `container`).
    pub field: String,
    /// How it is written there.
    pub value: String,
    /// Where (a source id or a description).
    #[serde(rename = "where")]
    pub place: String,
}

/// A bibliographic source.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Source {
    /// Stable id (`matthews-1964`).
    pub id: String,
    /// CSL type: `article-journal`, `book`, `webpage`, `dataset`.
    #[serde(rename = "type")]
    pub kind: String,
    /// Authors.
    #[serde(default)]
    pub authors: Vec<Person>,
    /// Title.
    pub title: String,
    /// The journal, book or site it is in.
    #[serde(default)]
    pub container: Option<String>,
    /// Volume.
    #[serde(default)]
    pub volume: Option<String>,
    /// Issue.
    #[serde(default)]
    pub issue: Option<String>,
    /// Page range (`64-66`), as a witness the archive holds states it; other ranges are
    /// recorded in `variants`.
    #[serde(default)]
    pub pages: Option<String>,
    /// Year of publication.
    #[serde(default)]
    pub year: Option<i32>,
    /// Year of the original publication, for a republication (`1964` for the 2023 web text).
    #[serde(default)]
    pub original_year: Option<i32>,
    /// When a web page or database was read (`2026-11-22`, ISO 8601): web and database
    /// sources have no pages, so this and the URL locate what the archive quotes.
    #[serde(default)]
    pub accessed: Option<String>,
    /// Publisher.
    #[serde(default)]
    pub publisher: Option<String>,
    /// Place of publication.
    #[serde(default)]
    pub place: Option<String>,
    /// Address on the web.
    #[serde(default)]
    pub url: Option<String>,
    /// Another source this one reproduces or is derived from.
    #[serde(default)]
    pub derived_from: Vec<String>,
    /// How other records write its fields.
    #[serde(default)]
    pub variants: Vec<Variant>,
    /// The archive's captures of this source (files of `shared/seeds/`): the texts its
    /// quotations are checked against when it is an evidence record's witness.
    #[serde(default)]
    pub held: Vec<String>,
    /// Why the archive holds no text of it, and how it knows of it (a work known through a
    /// republication or through another source's citation).
    #[serde(default)]
    pub not_held: Option<String>,
    /// The summary (the record's Markdown body).
    #[serde(default, skip_deserializing)]
    pub summary: String,
}

/// How another witness of a passage reads words of the quoted one (a textual variant).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WitnessReading {
    /// The words as the quoted witness has them (a part of the quotation).
    pub words: String,
    /// The other witness (a source id).
    pub witness: String,
    /// How that witness reads them (verbatim in its text; empty when it lacks them).
    pub reading: String,
}

/// A corrupt passage of a transcription, with the archive's reading of it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Sic {
    /// The words as transcribed (a part of the quotation), [sic].
    pub text: String,
    /// How the archive reads them, in its own words.
    pub reading: String,
}

/// A game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Game {
    /// Stable id (`tsoro`).
    pub id: String,
    /// Its names, first the one we use.
    pub names: Vec<String>,
    /// The family (`four-row sowing`, `morris`, `three-in-a-row`, `dexterity`).
    pub family: String,
    /// Where it was recorded.
    pub region: String,
    /// Who plays it.
    pub people: String,
    /// Who plays it, in the sources' words: evidence ids.
    #[serde(default)]
    pub players_evidence: Vec<String>,
    /// What it is played with.
    #[serde(default)]
    pub materials: Vec<String>,
    /// The summary (Markdown body).
    #[serde(default, skip_deserializing)]
    pub summary: String,
}

/// A quoted passage of a source.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Evidence {
    /// Stable id (`matthews-1964-tsoro-b`).
    pub id: String,
    /// The source quoted.
    pub source: String,
    /// The game described.
    pub game: String,
    /// What the passage describes, in a few words for a reader (`Tsoro, Variant 7 ...`).
    #[serde(default)]
    pub label: Option<String>,
    /// Its place among the passages the archive quotes from its source, in the source's
    /// order (1 first), so that readers meet them as the source sets them out.
    #[serde(default)]
    pub position: Option<u32>,
    /// Page or pages (`64-65`) in a printed source; none for a web page or database record,
    /// which its source's URL and accessed date locate instead.
    #[serde(default)]
    pub pages: Option<String>,
    /// How the page was established, when it is inferred.
    #[serde(default)]
    pub page_note: Option<String>,
    /// The place described.
    pub location: String,
    /// First year of the period described.
    pub date_from: i32,
    /// Last year of the period described.
    pub date_to: i32,
    /// Kind: `ethnography`, `compilation`, `rules summary`, `database`.
    pub kind: String,
    /// Who was observed (ages, genders) where recorded.
    #[serde(default)]
    pub observed: Option<String>,
    /// Confidence that the passage describes the game as played, 0 to 100.
    pub confidence: u8,
    /// The passage, verbatim from `witness`.
    pub quote: String,
    /// The source whose text the quotation is taken from (a republication or a database
    /// that quotes the work): the work itself (`source`) when absent.
    #[serde(default)]
    pub witness: Option<String>,
    /// Where the witness places the passage, in its own words (`Sanderson 1913: 732-733`),
    /// verbatim in its text: none when the witness states no place (the 2023 republication of
    /// Matthews carries no page numbers).
    #[serde(default)]
    pub witness_locator: Option<String>,
    /// What kind of transcription the witness's text is, when it is not a clean one (the
    /// Ludii portal's OCR of Sanderson).
    #[serde(default)]
    pub transcription: Option<String>,
    /// The corrupt sentences of the transcription, [sic], each with the archive's reading.
    #[serde(default)]
    pub sic: Vec<Sic>,
    /// How other witnesses of the passage read its words (textual variants).
    #[serde(default)]
    pub witness_readings: Vec<WitnessReading>,
    /// Matching records elsewhere (`DLP.Evidence.1882`).
    #[serde(default)]
    pub xref: Vec<String>,
    /// The rulesets it supports.
    #[serde(default)]
    pub rulesets: Vec<String>,
    /// Why it supports no executable ruleset (tactics, for example).
    #[serde(default)]
    pub not_executable: Option<String>,
    /// The summary (Markdown body): the project's own words.
    #[serde(default, skip_deserializing)]
    pub summary: String,
}

/// How one rule of a ruleset is attested.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged, deny_unknown_fields)]
pub enum Citation {
    /// Quoted words of an evidence record.
    Evidence {
        /// The evidence id.
        evidence: String,
        /// The words that attest the rule (a part of the evidence's quote).
        quote: String,
        /// The words say the rule is absent here (`there does not seem to be any free moving`),
        /// so they may cite the field's "absent" value (false, 0, none, off, an empty list).
        /// Without it, an absent value needs a `not_applicable` citation naming the variant
        /// the rule belongs to.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        attests_absence: bool,
    },
    /// Rebuilt where the source is lost (a missing diagram), with the reasoning.
    Reconstructed {
        /// Why this reconstruction.
        reconstructed: String,
        /// Evidence it rests on.
        #[serde(default)]
        evidence: Vec<String>,
    },
    /// Assumed where the sources are silent, with why.
    Assumed {
        /// Why this assumption.
        assumed: String,
    },
    /// The rule is not part of this game as its sources describe it (heads in njombwa): the
    /// engine's field is off, and this says why.
    NotApplicable {
        /// Why the rule does not apply.
        not_applicable: String,
    },
}

impl Evidence {
    /// The source whose text the quotation is taken from.
    pub fn witness(&self) -> &str {
        self.witness.as_deref().unwrap_or(&self.source)
    }
}

impl Citation {
    /// The kind as a word: `evidence`, `reconstructed`, `assumed` or `not_applicable`.
    pub fn kind(&self) -> &'static str {
        match self {
            Citation::Evidence { .. } => "evidence",
            Citation::Reconstructed { .. } => "reconstructed",
            Citation::Assumed { .. } => "assumed",
            Citation::NotApplicable { .. } => "not_applicable",
        }
    }

    /// The evidence ids it quotes or rests on.
    pub fn evidence_ids(&self) -> Vec<&str> {
        match self {
            Citation::Evidence { evidence, .. } => vec![evidence.as_str()],
            Citation::Reconstructed { evidence, .. } => {
                evidence.iter().map(String::as_str).collect()
            }
            _ => vec![],
        }
    }

    /// The reasoning (for every kind but `evidence`).
    pub fn reasoning(&self) -> Option<&str> {
        match self {
            Citation::Evidence { .. } => None,
            Citation::Reconstructed {
                reconstructed: r, ..
            }
            | Citation::Assumed { assumed: r }
            | Citation::NotApplicable { not_applicable: r } => Some(r),
        }
    }
}

/// A ruleset's archive record: its engine configuration (from the engine's catalogue) and a
/// citation for every rule.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RulesetRecord {
    /// The engine ruleset id.
    pub id: String,
    /// The game.
    pub game: String,
    /// The sources it follows.
    pub sources: Vec<String>,
    /// A ruleset whose citations this one takes for every rule it does not cite itself (a
    /// variant cites only what it changes).
    #[serde(default)]
    pub inherit: Option<String>,
    /// Rule field (`capture.back`) to citation.
    #[serde(default)]
    pub rules: BTreeMap<String, Citation>,
    /// The rule fields whose citation came from an ancestor (`inherit`), to that ancestor's id.
    #[serde(skip)]
    pub inherited: BTreeMap<String, String>,
    /// Rule built into the engine (`object`, `direction`: see
    /// `tsoro_engine::catalogue::built_in_rules`) to citation, cited like a rule field.
    #[serde(default)]
    pub built_in: BTreeMap<String, Citation>,
    /// The built-in rules whose citation came from an ancestor, to that ancestor's id.
    #[serde(skip)]
    pub built_in_inherited: BTreeMap<String, String>,
    /// Parameter (`back_capture`) to choice (`require_both`; `true`/`false` for a yes-or-no
    /// parameter, `any` for a number) to citation: every choice a user may make is a reading.
    #[serde(default)]
    pub params: BTreeMap<String, BTreeMap<String, Citation>>,
    /// The parameter choices (`back_capture=require_both`) whose citation came from an
    /// ancestor, to that ancestor's id.
    #[serde(skip)]
    pub params_inherited: BTreeMap<String, String>,
    /// The description (Markdown body).
    #[serde(default, skip_deserializing)]
    pub description: String,
}

/// A record kind: it has an id and takes the Markdown body of its file.
pub trait Record: serde::de::DeserializeOwned {
    /// The record's id.
    fn id(&self) -> &str;
    /// Stores the Markdown body (summary or description).
    fn set_body(&mut self, body: String);
}

macro_rules! record {
    ($t:ty, $body:ident) => {
        impl Record for $t {
            fn id(&self) -> &str {
                &self.id
            }
            fn set_body(&mut self, body: String) {
                self.$body = body;
            }
        }
    };
}

record!(Source, summary);
record!(Game, summary);
record!(Evidence, summary);
record!(RulesetRecord, description);
