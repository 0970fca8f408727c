//! tsoro-corpus: the archive's records (sources, games, evidence, rulesets), compiled in,
//! loaded and validated.
//!
//! Each record is a Markdown file with TOML front matter under `corpus/`: the front matter holds
//! the data (quotations verbatim, with their source and page), the body the project's own
//! summary. [`Corpus::load`] reads the compiled-in files and checks them all: ids are unique,
//! references resolve, every ruleset is one the engine ships and builds for every allowed
//! parameter value, every rule field of every ruleset has a citation (evidence and its words, a
//! reconstruction with its reasoning, or an assumption with why), and every evidence record
//! supports a ruleset or says why it cannot.

pub mod cite;
pub mod error;
pub mod frictionless;
pub mod frontmatter;
pub mod model;
pub mod package;
pub mod quotation;
mod validate;

pub use error::{CorpusError, Problem};
pub use model::{
    Citation, Evidence, Game, Person, RulesetRecord, Sic, Source, Variant, WitnessReading,
};

use std::collections::BTreeMap;

mod files {
    include!(concat!(env!("OUT_DIR"), "/files.rs"));
}

/// The whole archive.
#[derive(Clone, Debug, Default)]
pub struct Corpus {
    /// Sources by id.
    pub sources: BTreeMap<String, Source>,
    /// Games by id.
    pub games: BTreeMap<String, Game>,
    /// Evidence by id.
    pub evidence: BTreeMap<String, Evidence>,
    /// Ruleset records by id.
    pub rulesets: BTreeMap<String, RulesetRecord>,
    /// Where each record came from: id to (file, line of its id).
    pub origin: BTreeMap<String, (String, usize)>,
}

impl Corpus {
    /// The compiled-in archive, validated.
    pub fn load() -> Result<Corpus, CorpusError> {
        Corpus::from_files(
            files::FILES
                .iter()
                .map(|(p, t)| (p.to_string(), t.to_string())),
        )
    }

    /// An archive read from a directory laid out like `corpus/` (for tests and tools).
    pub fn from_dir(dir: &std::path::Path) -> Result<Corpus, CorpusError> {
        let mut files = vec![];
        for sub in ["sources", "games", "evidence", "rulesets"] {
            let Ok(read) = std::fs::read_dir(dir.join(sub)) else {
                continue;
            };
            let mut paths: Vec<_> = read.flatten().map(|e| e.path()).collect();
            paths.sort();
            for p in paths
                .into_iter()
                .filter(|p| p.extension().is_some_and(|x| x == "md"))
            {
                let text = std::fs::read_to_string(&p)
                    .map_err(|e| CorpusError::at(&p.display().to_string(), 1, e.to_string()))?;
                let name = p.file_name().unwrap_or_default().to_string_lossy();
                files.push((format!("{sub}/{name}"), text));
            }
        }
        Corpus::from_files(files)
    }

    /// An archive from (path, text) pairs.
    pub fn from_files(
        files: impl IntoIterator<Item = (String, String)>,
    ) -> Result<Corpus, CorpusError> {
        let mut c = Corpus::default();
        let mut problems = vec![];
        for (path, text) in files {
            if let Err(e) = c.add(&path, &text) {
                problems.extend(e.problems);
            }
        }
        problems.extend(c.resolve_inheritance());
        problems.extend(validate::check(&c));
        if problems.is_empty() {
            Ok(c)
        } else {
            Err(CorpusError { problems })
        }
    }

    fn add(&mut self, path: &str, text: &str) -> Result<(), CorpusError> {
        let id = match path.split('/').next().unwrap_or_default() {
            "sources" => insert(&mut self.sources, &self.origin, path, text)?,
            "games" => insert(&mut self.games, &self.origin, path, text)?,
            "evidence" => insert(&mut self.evidence, &self.origin, path, text)?,
            "rulesets" => insert(&mut self.rulesets, &self.origin, path, text)?,
            _ => {
                return Err(CorpusError::at(
                    path,
                    1,
                    "records live in sources/, games/, evidence/ or rulesets/",
                ));
            }
        };
        self.origin
            .insert(id, (path.to_string(), frontmatter::line_of(text, "id =")));
        Ok(())
    }

    /// Gives each ruleset the citations of the ruleset it inherits from, for the rules it does
    /// not cite itself.
    fn resolve_inheritance(&mut self) -> Vec<Problem> {
        let mut problems = vec![];
        let ids: Vec<String> = self.rulesets.keys().cloned().collect();
        for id in ids {
            let mut chain = vec![id.clone()];
            let mut next = self.rulesets[&id].inherit.clone();
            while let Some(parent) = next {
                if chain.contains(&parent) {
                    let (file, line) = self.origin.get(&id).cloned().unwrap_or_default();
                    problems.push(Problem {
                        file,
                        line,
                        message: format!("inherit: a cycle through {parent:?}"),
                    });
                    break;
                }
                let Some(p) = self.rulesets.get(&parent).cloned() else {
                    let (file, line) = self.origin.get(&id).cloned().unwrap_or_default();
                    problems.push(Problem {
                        file,
                        line,
                        message: format!("inherit: no ruleset record {parent:?}"),
                    });
                    break;
                };
                let me = self.rulesets.get_mut(&id).expect("listed above");
                for (field, c) in &p.rules {
                    if !me.rules.contains_key(field) {
                        me.rules.insert(field.clone(), c.clone());
                        let from = p.inherited.get(field).unwrap_or(&parent);
                        me.inherited.insert(field.clone(), from.clone());
                    }
                }
                let mine = tsoro_engine::catalogue::get(&id).ok();
                for (name, choices) in &p.params {
                    for (choice, c) in choices {
                        let has = mine.is_some_and(|d| {
                            d.params
                                .iter()
                                .any(|s| &s.name == name && param_choices(s).contains(choice))
                        });
                        let key = format!("{name}={choice}");
                        let cited = me.params.get(name).is_some_and(|m| m.contains_key(choice));
                        if has && !cited {
                            me.params
                                .entry(name.clone())
                                .or_default()
                                .insert(choice.clone(), c.clone());
                            let from = p.params_inherited.get(&key).unwrap_or(&parent);
                            me.params_inherited.insert(key, from.clone());
                        }
                    }
                }
                for (rule, c) in &p.built_in {
                    if !me.built_in.contains_key(rule) {
                        me.built_in.insert(rule.clone(), c.clone());
                        let from = p.built_in_inherited.get(rule).unwrap_or(&parent);
                        me.built_in_inherited.insert(rule.clone(), from.clone());
                    }
                }
                chain.push(parent);
                next = p.inherit.clone();
            }
        }
        problems
    }

    /// Where a record is defined, as `corpus/FILE:LINE`.
    pub fn location(&self, id: &str) -> String {
        self.origin
            .get(id)
            .map(|(f, l)| format!("corpus/{f}:{l}"))
            .unwrap_or_else(|| "corpus".into())
    }
}

/// The choices of a parameter a citation is given for: each named choice, `true` and `false`,
/// or `any` for a number (its range is one reading).
pub fn param_choices(p: &tsoro_engine::catalogue::ParamSpec) -> Vec<String> {
    use tsoro_engine::catalogue::ParamKind;
    match &p.kind {
        ParamKind::Choice { choices } => choices.keys().cloned().collect(),
        ParamKind::Bool { .. } => vec!["true".into(), "false".into()],
        ParamKind::Int { .. } => vec!["any".into()],
    }
}

/// Parses one record, refuses an id already defined anywhere, and files it; returns its id.
fn insert<T: model::Record>(
    into: &mut BTreeMap<String, T>,
    origin: &BTreeMap<String, (String, usize)>,
    path: &str,
    text: &str,
) -> Result<String, CorpusError> {
    let d = frontmatter::parse::<T>(path, text)?;
    let mut record = d.meta;
    record.set_body(d.body);
    let id = record.id().to_string();
    if let Some((f, l)) = origin.get(&id) {
        return Err(CorpusError::at(
            path,
            frontmatter::line_of(text, "id ="),
            format!("id {id:?} repeats {f}:{l}"),
        ));
    }
    into.insert(id.clone(), record);
    Ok(id)
}

/// The archive's notes (`corpus/README.md`): how records cite sources, and each reading where
/// the sources disagree or are silent; the site renders its sections as pages for readers.
pub const NOTES: &str = include_str!("../README.md");

/// Renders Markdown to HTML (pulldown-cmark).
pub fn render_html(markdown: &str) -> String {
    let parser = pulldown_cmark::Parser::new_ext(markdown, pulldown_cmark::Options::ENABLE_TABLES);
    let mut out = String::new();
    pulldown_cmark::html::push_html(&mut out, parser);
    out
}
