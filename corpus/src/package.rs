//! The whole archive as a Frictionless (tabular) data package: one CSV per table, each column
//! described once here and used both to write the rows and to describe them in
//! `datapackage.json`.
//!
//! Lists inside a cell are joined by [`SEP`] (documented in each such column's description);
//! integers are written as integers; an empty cell is a missing value.

use crate::Corpus;
use crate::cite;
pub use crate::frictionless::Column;
use crate::frictionless::Resource;
use crate::model::{Citation, Game, Source};
use serde_json::{Value, json};

/// The separator of the values of a list column (`a; b`).
pub const SEP: &str = "; ";

/// The licence of the archive's data (its records, summaries and reasoning). Quotations stay
/// their authors' and are quoted, with their citations, for scholarship.
pub const LICENSE: (&str, &str, &str) = (
    "CC-BY-4.0",
    "https://creativecommons.org/licenses/by/4.0/",
    "Creative Commons Attribution 4.0 International (the archive's records, summaries and \
     reasoning; quotations remain their authors' and are quoted with their citations)",
);

/// Where the tables lie, relative to `datapackage.json`.
pub const DIR: &str = "archive";

/// One table of the package.
#[derive(Clone, Debug)]
pub struct Table {
    /// Resource name and file stem (`evidence` is `archive/evidence.csv`).
    pub name: &'static str,
    /// What a row is.
    pub description: &'static str,
    /// Its columns.
    pub columns: &'static [Column],
    /// The columns that identify a row.
    pub primary_key: &'static [&'static str],
    /// (column, table, its column) references.
    pub foreign_keys: &'static [(&'static str, &'static str, &'static str)],
    /// The rows, one string per column (`""` when missing).
    pub rows: Vec<Vec<String>>,
}

impl Table {
    /// The path of its CSV, relative to `datapackage.json`.
    pub fn path(&self) -> String {
        format!("{DIR}/{}.csv", self.name)
    }

    /// The CSV text (header, then rows; RFC 4180, CRLF line ends).
    pub fn csv(&self) -> Result<Vec<u8>, csv::Error> {
        let mut w = csv::WriterBuilder::new()
            .terminator(csv::Terminator::CRLF)
            .from_writer(vec![]);
        w.write_record(self.columns.iter().map(|c| c.name))?;
        for r in &self.rows {
            w.write_record(r)?;
        }
        w.into_inner().map_err(|e| e.into_error().into())
    }

    /// The resource of `datapackage.json`.
    pub fn resource(&self) -> Value {
        Resource {
            name: self.name,
            path: &self.path(),
            description: Some(self.description),
            columns: self.columns,
            primary_key: self.primary_key,
            foreign_keys: self.foreign_keys,
        }
        .descriptor()
    }
}

fn opt(s: &Option<String>) -> String {
    s.clone().unwrap_or_default()
}

fn int<T: ToString>(n: Option<T>) -> String {
    n.map(|n| n.to_string()).unwrap_or_default()
}

fn list<S: AsRef<str>>(v: &[S]) -> String {
    v.iter().map(|s| s.as_ref()).collect::<Vec<_>>().join(SEP)
}

/// The columns of the sources table: the archive's `sources.csv` and the service's
/// `/api/v1/sources?format=csv` alike (rows by [`source_row`]).
pub const SOURCES: &[Column] = &[
    Column::new("id", "string", "Stable id of the source (`matthews-1964`)."),
    Column::new(
        "type",
        "string",
        "CSL item type: `article-journal`, `book`, `webpage` or `dataset`.",
    ),
    Column::new(
        "authors",
        "string",
        "Authors as `Family, Given`, joined by `; `.",
    ),
    Column::new("title", "string", "Title."),
    Column::new("container", "string", "The journal, book or site it is in."),
    Column::new("volume", "string", "Volume."),
    Column::new("issue", "string", "Issue."),
    Column::new(
        "pages",
        "string",
        "Page range of a printed source (`64-68`); it covers every page the archive cites.",
    ),
    Column::new("year", "integer", "Year of publication."),
    Column::new(
        "original_year",
        "integer",
        "Year of the original publication, for a republication.",
    ),
    Column::new("publisher", "string", "Publisher."),
    Column::new("place", "string", "Place of publication."),
    Column::new("url", "string", "Address on the web."),
    Column::new(
        "accessed",
        "date",
        "When the web page or database was read (web and database sources have no pages).",
    ),
    Column::new(
        "derived_from",
        "string",
        "Ids of sources it reproduces or derives from, joined by `; `.",
    ),
    Column::new(
        "citation",
        "string",
        "The source's citation, as plain text.",
    ),
    Column::new(
        "summary",
        "string",
        "What it is, in the project's words (Markdown).",
    ),
    Column::new(
        "held",
        "string",
        "The archive's captures of it (seed text files), joined by `; `; empty when not held.",
    ),
    Column::new(
        "not_held",
        "string",
        "Why the archive holds no text of it and how it knows of it, when it holds none.",
    ),
];

const SOURCE_VARIANTS: &[Column] = &[
    Column::new("source", "string", "The source (id in `sources`)."),
    Column::new(
        "field",
        "string",
        "The field written differently (`title`, `author`, `pages`, `container`).",
    ),
    Column::new("value", "string", "How it is written there."),
    Column::new("where", "string", "Where (a source id or a description)."),
];

/// The columns of the games table: the archive's `games.csv` and the service's
/// `/api/v1/games?format=csv` alike (rows by [`game_row`]).
pub const GAMES: &[Column] = &[
    Column::new("id", "string", "Stable id of the game (`tsoro`)."),
    Column::new(
        "names",
        "string",
        "Its names, the archive's first, joined by `; `.",
    ),
    Column::new(
        "family",
        "string",
        "Family (`four-row sowing`, `morris`, `three-in-a-row`, `dexterity`).",
    ),
    Column::new("region", "string", "Where it was recorded."),
    Column::new("people", "string", "Who plays it."),
    Column::new(
        "players_evidence",
        "string",
        "Evidence ids saying who plays it, joined by `; `.",
    ),
    Column::new(
        "materials",
        "string",
        "What it is played with, joined by `; `.",
    ),
    Column::new(
        "summary",
        "string",
        "The game in the project's words (Markdown).",
    ),
];

const EVIDENCE: &[Column] = &[
    Column::new(
        "id",
        "string",
        "Stable id of the passage (`matthews-1964-tsoro-b`).",
    ),
    Column::new("source", "string", "The source quoted (id in `sources`)."),
    Column::new("game", "string", "The game described (id in `games`)."),
    Column::new(
        "pages",
        "string",
        "Page or pages in a printed source; empty for a web page or database record (its source's `url` and `accessed` locate it).",
    ),
    Column::new(
        "page_note",
        "string",
        "How the page was established, when it is inferred.",
    ),
    Column::new("location", "string", "The place described."),
    Column::new(
        "date_from",
        "integer",
        "First year of the period described.",
    ),
    Column::new("date_to", "integer", "Last year of the period described."),
    Column::new(
        "kind",
        "string",
        "`ethnography`, `compilation`, `rules summary` or `database`.",
    ),
    Column::new(
        "observed",
        "string",
        "Who was observed (ages, genders), where recorded.",
    ),
    Column::new(
        "confidence",
        "integer",
        "Confidence, 0 to 100, that the passage describes the game as played.",
    )
    .required()
    .min(0)
    .max(100),
    Column::new("quote", "string", "The passage, verbatim."),
    Column::new(
        "xref",
        "string",
        "Matching records elsewhere (`DLP.Evidence.1882`), joined by `; `.",
    ),
    Column::new(
        "rulesets",
        "string",
        "Ids of the rulesets it supports, joined by `; `.",
    ),
    Column::new(
        "not_executable",
        "string",
        "Why it supports no executable ruleset, if so.",
    ),
    Column::new(
        "summary",
        "string",
        "The passage in the project's words (Markdown).",
    ),
    Column::new(
        "witness",
        "string",
        "The source whose text the quotation is taken from (id in `sources`): the work itself, a republication or a database quoting it.",
    ),
    Column::new(
        "transcription",
        "string",
        "What kind of transcription the witness's text is, when not a clean one (an OCR).",
    ),
    Column::new(
        "witness_locator",
        "string",
        "Where the witness places the passage, in its own words (`Sanderson 1913: 732-733`); empty when it states no place.",
    ),
];

const TEXTUAL_VARIANTS: &[Column] = &[
    Column::new("evidence", "string", "The passage (id in `evidence`)."),
    Column::new(
        "quoted_witness",
        "string",
        "The witness the archive quotes (id in `sources`).",
    ),
    Column::new(
        "words",
        "string",
        "The words as the quoted witness has them.",
    ),
    Column::new(
        "witness",
        "string",
        "Another witness of the passage (id in `sources`).",
    ),
    Column::new(
        "reading",
        "string",
        "How that witness reads the words, verbatim; empty when it lacks them.",
    ),
];

const TRANSCRIPTION_READINGS: &[Column] = &[
    Column::new("evidence", "string", "The passage (id in `evidence`)."),
    Column::new(
        "text",
        "string",
        "A corrupt sentence of the transcription, as it stands [sic].",
    ),
    Column::new(
        "reading",
        "string",
        "How the archive reads it (the project's words, not the source's).",
    ),
];

const RULESET_PARAMETERS: &[Column] = &[
    Column::new("ruleset", "string", "The ruleset (id in `rulesets`)."),
    Column::new("parameter", "string", "The parameter (`back_capture`)."),
    Column::new(
        "choice",
        "string",
        "One choice: a named choice, `true` or `false`, or `any` for a number (its range is one reading).",
    ),
    Column::new(
        "default",
        "string",
        "The parameter's default value (JSON: `13`, `\"usual\"`, `false`).",
    ),
    Column::new(
        "range",
        "string",
        "The values allowed (`6..=21`, `true|false`, `sow|skip`).",
    ),
    Column::new(
        "kind",
        "string",
        "`evidence`, `reconstructed`, `assumed` or `not_applicable`, as for a rule.",
    ),
    Column::new(
        "evidence",
        "string",
        "Evidence ids quoted or rested on, joined by `; `.",
    ),
    Column::new(
        "quote",
        "string",
        "The words that attest the choice (`evidence`).",
    ),
    Column::new(
        "reasoning",
        "string",
        "Why (`reconstructed`, `assumed`, `not_applicable`).",
    ),
    Column::new(
        "inherited_from",
        "string",
        "The ancestor ruleset the citation is inherited from, when it is.",
    ),
];

const RULESETS: &[Column] = &[
    Column::new(
        "id",
        "string",
        "The engine's ruleset id (`tsoro-matthews-v7`).",
    ),
    Column::new("title", "string", "Title."),
    Column::new("game", "string", "The game (id in `games`)."),
    Column::new(
        "engine",
        "string",
        "The engine it runs on: `sowing`, `morris` or `nhodo`.",
    ),
    Column::new(
        "sources",
        "string",
        "Ids of the sources it follows, joined by `; `.",
    ),
    Column::new(
        "inherit",
        "string",
        "The ruleset whose citations it takes for the rules it does not cite itself.",
    ),
    Column::new(
        "config",
        "object",
        "The engine configuration at default parameters (JSON).",
    ),
    Column::new(
        "description",
        "string",
        "The ruleset in the project's words (Markdown).",
    ),
];

const RULE_CITATIONS: &[Column] = &[
    Column::new("ruleset", "string", "The ruleset (id in `rulesets`)."),
    Column::new(
        "field",
        "string",
        "The rule field (`capture.back`), one row per field of the ruleset's engine.",
    ),
    Column::new(
        "kind",
        "string",
        "`evidence` (quoted words of the ruleset's own sources), `reconstructed` (rebuilt, with reasoning), `assumed` (the sources are silent) or `not_applicable` (the rule is not part of this game).",
    ),
    Column::new(
        "evidence",
        "string",
        "Evidence ids quoted (`evidence`) or rested on (`reconstructed`), joined by `; `.",
    ),
    Column::new(
        "quote",
        "string",
        "The words that attest the rule (`evidence`).",
    ),
    Column::new(
        "reasoning",
        "string",
        "Why (`reconstructed`, `assumed`, `not_applicable`).",
    ),
    Column::new(
        "inherited_from",
        "string",
        "The ancestor ruleset the citation is inherited from, when it is.",
    ),
    Column::new(
        "attests_absence",
        "boolean",
        "For `evidence`: the quoted words say the rule is absent here, so they attest the field's absent value (false, 0, none, off, an empty list).",
    ),
];

/// A source as a row of the sources table ([`SOURCES`]).
pub fn source_row(s: &Source) -> Vec<String> {
    vec![
        s.id.clone(),
        s.kind.clone(),
        list(&authors(s)),
        s.title.clone(),
        opt(&s.container),
        opt(&s.volume),
        opt(&s.issue),
        opt(&s.pages),
        int(s.year),
        int(s.original_year),
        opt(&s.publisher),
        opt(&s.place),
        opt(&s.url),
        opt(&s.accessed),
        list(&s.derived_from),
        cite::plain(s),
        s.summary.trim().to_string(),
        list(&s.held),
        opt(&s.not_held),
    ]
}

/// A game as a row of the games table ([`GAMES`]).
pub fn game_row(g: &Game) -> Vec<String> {
    vec![
        g.id.clone(),
        list(&g.names),
        g.family.clone(),
        g.region.clone(),
        g.people.clone(),
        list(&g.players_evidence),
        list(&g.materials),
        g.summary.trim().to_string(),
    ]
}

/// The tables of the archive.
pub fn tables(c: &Corpus) -> Vec<Table> {
    let sources = c.sources.values().map(source_row).collect();
    let variants = c
        .sources
        .values()
        .flat_map(|s| {
            s.variants.iter().map(|v| {
                vec![
                    s.id.clone(),
                    v.field.clone(),
                    v.value.clone(),
                    v.place.clone(),
                ]
            })
        })
        .collect();
    let games = c.games.values().map(game_row).collect();
    let evidence = c
        .evidence
        .values()
        .map(|e| {
            vec![
                e.id.clone(),
                e.source.clone(),
                e.game.clone(),
                opt(&e.pages),
                opt(&e.page_note),
                e.location.clone(),
                e.date_from.to_string(),
                e.date_to.to_string(),
                e.kind.clone(),
                opt(&e.observed),
                e.confidence.to_string(),
                e.quote.clone(),
                list(&e.xref),
                list(&e.rulesets),
                opt(&e.not_executable),
                e.summary.trim().to_string(),
                e.witness().to_string(),
                opt(&e.transcription),
                opt(&e.witness_locator),
            ]
        })
        .collect();
    let textual = c
        .evidence
        .values()
        .flat_map(|e| {
            e.witness_readings.iter().map(|r| {
                vec![
                    e.id.clone(),
                    e.witness().to_string(),
                    r.words.clone(),
                    r.witness.clone(),
                    r.reading.clone(),
                ]
            })
        })
        .collect();
    let sic = c
        .evidence
        .values()
        .flat_map(|e| {
            e.sic
                .iter()
                .map(|x| vec![e.id.clone(), x.text.clone(), x.reading.clone()])
        })
        .collect();
    let mut rulesets = vec![];
    let mut citations = vec![];
    let mut parameters = vec![];
    for r in c.rulesets.values() {
        let def = tsoro_engine::catalogue::get(&r.id).ok();
        rulesets.push(vec![
            r.id.clone(),
            def.map(|d| d.title.clone()).unwrap_or_default(),
            r.game.clone(),
            def.map(|d| d.kind.as_str().to_string()).unwrap_or_default(),
            list(&r.sources),
            opt(&r.inherit),
            def.map(|d| d.config.to_string()).unwrap_or_default(),
            r.description.trim().to_string(),
        ]);
        let built_in = r.built_in.iter().map(|(rule, cit)| {
            (
                format!("built_in.{rule}"),
                cit,
                r.built_in_inherited.get(rule),
            )
        });
        let fields = r
            .rules
            .iter()
            .map(|(f, cit)| (f.clone(), cit, r.inherited.get(f)))
            .chain(built_in);
        for (field, cit, from) in fields {
            citations.push(vec![
                r.id.clone(),
                field,
                cit.kind().to_string(),
                list(&cit.evidence_ids()),
                quoted(cit),
                cit.reasoning().unwrap_or_default().to_string(),
                from.cloned().unwrap_or_default(),
                attests_absence(cit).to_string(),
            ]);
        }
        for spec in def.map(|d| d.params.as_slice()).unwrap_or_default() {
            for (choice, cit) in r.params.get(&spec.name).into_iter().flatten() {
                let key = format!("{}={choice}", spec.name);
                parameters.push(vec![
                    r.id.clone(),
                    spec.name.clone(),
                    choice.clone(),
                    spec.default.to_string(),
                    spec.range(),
                    cit.kind().to_string(),
                    list(&cit.evidence_ids()),
                    quoted(cit),
                    cit.reasoning().unwrap_or_default().to_string(),
                    r.params_inherited.get(&key).cloned().unwrap_or_default(),
                ]);
            }
        }
    }
    vec![
        Table {
            name: "sources",
            description: "Bibliographic sources, one row each.",
            columns: SOURCES,
            primary_key: &["id"],
            foreign_keys: &[],
            rows: sources,
        },
        Table {
            name: "source_variants",
            description: "How other records write a source's fields (kept, never silently picked): one row per variant.",
            columns: SOURCE_VARIANTS,
            primary_key: &[],
            foreign_keys: &[("source", "sources", "id")],
            rows: variants,
        },
        Table {
            name: "games",
            description: "The games, one row each.",
            columns: GAMES,
            primary_key: &["id"],
            foreign_keys: &[],
            rows: games,
        },
        Table {
            name: "evidence",
            description: "Quoted passages of the sources, one row each, with page, place, period and confidence.",
            columns: EVIDENCE,
            primary_key: &["id"],
            foreign_keys: &[
                ("source", "sources", "id"),
                ("game", "games", "id"),
                ("witness", "sources", "id"),
            ],
            rows: evidence,
        },
        Table {
            name: "rulesets",
            description: "The executable rulesets, one row each.",
            columns: RULESETS,
            primary_key: &["id"],
            foreign_keys: &[("game", "games", "id")],
            rows: rulesets,
        },
        Table {
            name: "rule_citations",
            description: "How every rule of every ruleset is attested: one row per ruleset and rule field (and per rule built into its engine).",
            columns: RULE_CITATIONS,
            primary_key: &["ruleset", "field"],
            foreign_keys: &[("ruleset", "rulesets", "id")],
            rows: citations,
        },
        Table {
            name: "ruleset_parameters",
            description: "Every choice of every parameter of every ruleset as a reading, with its kind and its citation or reasoning: one row per ruleset, parameter and choice.",
            columns: RULESET_PARAMETERS,
            primary_key: &["ruleset", "parameter", "choice"],
            foreign_keys: &[("ruleset", "rulesets", "id")],
            rows: parameters,
        },
        Table {
            name: "textual_variants",
            description: "Where witnesses of a quoted passage differ: one row per words of the quoted witness and another witness's reading of them.",
            columns: TEXTUAL_VARIANTS,
            primary_key: &["evidence", "words", "witness"],
            foreign_keys: &[
                ("evidence", "evidence", "id"),
                ("witness", "sources", "id"),
                ("quoted_witness", "sources", "id"),
            ],
            rows: textual,
        },
        Table {
            name: "transcription_readings",
            description: "The corrupt sentences of a transcription the archive quotes ([sic]), each with the archive's reading: one row per sentence.",
            columns: TRANSCRIPTION_READINGS,
            primary_key: &["evidence", "text"],
            foreign_keys: &[("evidence", "evidence", "id")],
            rows: sic,
        },
    ]
}

/// Whether an `evidence` citation's words attest the rule's absence.
fn attests_absence(c: &Citation) -> bool {
    matches!(
        c,
        Citation::Evidence {
            attests_absence: true,
            ..
        }
    )
}

/// The quoted words of an `evidence` citation (empty for the other kinds).
fn quoted(c: &Citation) -> String {
    match c {
        Citation::Evidence { quote, .. } => quote.clone(),
        _ => String::new(),
    }
}

fn authors(s: &Source) -> Vec<String> {
    s.authors.iter().map(|p| p.inverted()).collect()
}

/// `datapackage.json` for these tables.
pub fn descriptor(c: &Corpus, tables: &[Table]) -> Value {
    let (name, path, title) = LICENSE;
    json!({
        "profile": "tabular-data-package",
        "name": "tsoro-archive",
        "title": "The tsoro archive: stone games of Zimbabwe and Malawi, their sources and rulesets",
        "description": "Every source, game, quoted passage (evidence) and executable ruleset of the archive, and a citation for every rule of every ruleset. Quotations are verbatim with their source and page; summaries and reasoning are the project's own words.",
        "version": env!("CARGO_PKG_VERSION"),
        "licenses": [{"name": name, "path": path, "title": title}],
        "sources": c.sources.values().map(|s| {
            let mut o = json!({"title": cite::plain(s)});
            if let Some(u) = &s.url {
                o["path"] = json!(u);
            }
            o
        }).collect::<Vec<_>>(),
        "resources": tables.iter().map(Table::resource).collect::<Vec<_>>(),
    })
}

/// Every file of the package: (`datapackage.json`, `archive/NAME.csv`, and the whole
/// bibliography as `citations.bib` and `citations.json` (CSL-JSON), bytes).
pub fn files(c: &Corpus) -> Result<Vec<(String, Vec<u8>)>, csv::Error> {
    let tables = tables(c);
    let mut out = vec![(
        "datapackage.json".to_string(),
        serde_json::to_vec_pretty(&descriptor(c, &tables)).unwrap_or_default(),
    )];
    for t in &tables {
        out.push((t.path(), t.csv()?));
    }
    out.push((
        "citations.bib".into(),
        cite::bibliography_bibtex(c.sources.values()).into_bytes(),
    ));
    out.push((
        "citations.json".into(),
        serde_json::to_vec_pretty(&cite::bibliography_csl(c.sources.values())).unwrap_or_default(),
    ));
    Ok(out)
}

/// Writes [`files`] under `dir` (created if need be); returns the paths written.
pub fn write_dir(c: &Corpus, dir: &std::path::Path) -> std::io::Result<Vec<std::path::PathBuf>> {
    let mut written = vec![];
    for (name, bytes) in files(c).map_err(std::io::Error::other)? {
        let p = dir.join(name);
        if let Some(parent) = p.parent() {
            std::fs::create_dir_all(parent)?;
        }
        std::fs::write(&p, bytes)?;
        written.push(p);
    }
    Ok(written)
}
