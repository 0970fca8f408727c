//! The rulesets the archive ships, compiled in, with their parameters.
//!
//! Each ruleset is a JSON file under `engine/rulesets/`: a base configuration and the
//! parameters a user may set (name, type, default, range or choices), each parameter naming the
//! configuration fields it changes (JSON pointers).

use crate::anygame::AnyGame;
use crate::sowing::{ConfigError, SowingConfig};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::BTreeMap;
use std::sync::OnceLock;
use thiserror::Error;

// `FILES`: every `engine/rulesets/*.json` as (id, JSON), by file name (made by `build.rs`).
include!(concat!(env!("OUT_DIR"), "/rulesets.rs"));

/// The family of engine a ruleset runs on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    /// Four-row sowing ([`crate::sowing`]).
    Sowing,
    /// A line game on a morris board ([`crate::morris`]).
    Morris,
    /// Nhodo, a stochastic model of a dexterity game ([`crate::nhodo`]).
    Nhodo,
}

impl Kind {
    /// The kind as a word.
    pub fn as_str(self) -> &'static str {
        match self {
            Kind::Sowing => "sowing",
            Kind::Morris => "morris",
            Kind::Nhodo => "nhodo",
        }
    }
}

/// What a ruleset builds: a two-player game with decisions, or a stochastic model.
#[derive(Clone, Debug)]
#[allow(clippy::large_enum_variant)] // built once per run, never in a hot loop
pub enum Model {
    /// A game agents play.
    Game(AnyGame),
    /// Nhodo: no decisions, only the players' skill.
    Nhodo(crate::nhodo::NhodoModel),
}

/// The type and range of a parameter.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ParamKind {
    /// A whole number in `min..=max`, written to every pointer of `set`.
    Int {
        /// Smallest allowed value.
        min: i64,
        /// Largest allowed value.
        max: i64,
        /// Configuration fields (JSON pointers) the value is written to.
        set: Vec<String>,
    },
    /// True or false, written to every pointer of `set`.
    Bool {
        /// Configuration fields (JSON pointers) the value is written to.
        set: Vec<String>,
    },
    /// One of named choices, each a set of configuration fields to overwrite.
    Choice {
        /// Choice name to (JSON pointer to value).
        choices: BTreeMap<String, BTreeMap<String, Value>>,
    },
}

/// A parameter of a ruleset.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ParamSpec {
    /// Its name (`holes`).
    pub name: String,
    /// What it sets and what each choice does, in a sentence: a label, not a reason (the
    /// reasons for each choice are the archive's).
    pub description: String,
    /// The default value.
    pub default: Value,
    /// Its type and range.
    #[serde(flatten)]
    pub kind: ParamKind,
}

impl ParamSpec {
    /// The type as a word: `int`, `bool` or `choice`.
    pub fn type_name(&self) -> &'static str {
        match self.kind {
            ParamKind::Int { .. } => "int",
            ParamKind::Bool { .. } => "bool",
            ParamKind::Choice { .. } => "choice",
        }
    }

    /// The allowed values in words (`6..=21`, `true|false`, `sow|skip`).
    pub fn range(&self) -> String {
        match &self.kind {
            ParamKind::Int { min, max, .. } => format!("{min}..={max}"),
            ParamKind::Bool { .. } => "true|false".into(),
            ParamKind::Choice { choices } => choices.keys().cloned().collect::<Vec<_>>().join("|"),
        }
    }

    /// Reads a value written as text (`12`, `true`, `skip`).
    pub fn parse(&self, text: &str) -> Result<Value, ParamError> {
        let v = match &self.kind {
            ParamKind::Int { .. } => text
                .trim()
                .parse::<i64>()
                .map(Value::from)
                .map_err(|_| self.bad(Value::String(text.into())))?,
            ParamKind::Bool { .. } => match text.trim() {
                "true" | "yes" | "1" => Value::Bool(true),
                "false" | "no" | "0" => Value::Bool(false),
                _ => return Err(self.bad(Value::String(text.into()))),
            },
            ParamKind::Choice { .. } => Value::String(text.trim().into()),
        };
        self.check(&v)?;
        Ok(v)
    }

    fn bad(&self, value: Value) -> ParamError {
        ParamError::OutOfRange {
            name: self.name.clone(),
            value: value.to_string(),
            allowed: self.range(),
        }
    }

    /// Checks a value against the type and range.
    pub fn check(&self, v: &Value) -> Result<(), ParamError> {
        let ok = match &self.kind {
            ParamKind::Int { min, max, .. } => {
                v.as_i64().is_some_and(|x| (*min..=*max).contains(&x))
            }
            ParamKind::Bool { .. } => v.is_boolean(),
            ParamKind::Choice { choices } => v.as_str().is_some_and(|s| choices.contains_key(s)),
        };
        if ok { Ok(()) } else { Err(self.bad(v.clone())) }
    }

    fn write(&self, config: &mut Value, v: &Value) -> Result<(), ParamError> {
        let patches: Vec<(String, Value)> = match &self.kind {
            ParamKind::Int { set, .. } | ParamKind::Bool { set } => {
                set.iter().map(|p| (p.clone(), v.clone())).collect()
            }
            ParamKind::Choice { choices } => {
                let name = v.as_str().unwrap_or_default();
                choices
                    .get(name)
                    .map(|m| m.iter().map(|(p, v)| (p.clone(), v.clone())).collect())
                    .unwrap_or_default()
            }
        };
        for (ptr, value) in patches {
            set_pointer(config, &ptr, value).map_err(|e| {
                ParamError::Catalogue(format!("parameter {} writes {ptr}: {e}", self.name))
            })?;
        }
        Ok(())
    }
}

fn set_pointer(root: &mut Value, ptr: &str, value: Value) -> Result<(), String> {
    let (parent, key) = ptr.rsplit_once('/').ok_or("not a JSON pointer")?;
    let parent = if parent.is_empty() {
        root
    } else {
        root.pointer_mut(parent).ok_or("no such field")?
    };
    let obj = parent.as_object_mut().ok_or("not an object")?;
    obj.insert(key.to_string(), value);
    Ok(())
}

/// Parameter values by name.
pub type Params = BTreeMap<String, Value>;

/// A bad ruleset id, parameter or configuration.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ParamError {
    /// No ruleset has this id.
    #[error("unknown ruleset {id:?}; known: {}", known.join(", "))]
    UnknownRuleset {
        /// The id asked for.
        id: String,
        /// The ids there are.
        known: Vec<String>,
    },
    /// The ruleset has no such parameter.
    #[error("unknown parameter {name:?} of {ruleset}; parameters: {}", known.join(", "))]
    UnknownParam {
        /// The ruleset.
        ruleset: String,
        /// The parameter asked for.
        name: String,
        /// Its parameters.
        known: Vec<String>,
    },
    /// A value outside the parameter's type or range.
    #[error("parameter {name} = {value} is out of range; allowed: {allowed}")]
    OutOfRange {
        /// The parameter.
        name: String,
        /// The value given.
        value: String,
        /// The allowed values in words.
        allowed: String,
    },
    /// The ruleset is a stochastic model with no decisions (nhodo): it can be simulated but
    /// not played by agents or replayed.
    #[error(
        "{id} is a stochastic model with no decisions: it can be simulated, not played or replayed"
    )]
    NotAGame {
        /// The ruleset.
        id: String,
    },
    /// The engine rejected the resulting configuration.
    #[error("{0}")]
    Config(#[from] ConfigError),
    /// The catalogue itself is inconsistent (a bug caught by tests).
    #[error("catalogue: {0}")]
    Catalogue(String),
}

/// A shipped ruleset: its configuration only. The words (what was read, reconstructed or
/// assumed, and why) are the archive's (`corpus/rulesets/`), one place for them; a file with
/// any other field is refused.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RulesetDef {
    /// Stable id (`tsoro-matthews-v1`).
    pub id: String,
    /// The engine it runs on.
    pub kind: Kind,
    /// The game (`tsoro`, `njombwa`).
    pub game: String,
    /// A short title.
    pub title: String,
    /// The configuration at default parameters.
    pub config: Value,
    /// The parameters a user may set.
    pub params: Vec<ParamSpec>,
}

impl RulesetDef {
    /// The configuration with these parameters applied (others at their defaults).
    pub fn resolve(&self, params: &Params) -> Result<Value, ParamError> {
        let mut config = self.config.clone();
        for (name, v) in params {
            let spec = self
                .params
                .iter()
                .find(|p| &p.name == name)
                .ok_or_else(|| ParamError::UnknownParam {
                    ruleset: self.id.clone(),
                    name: name.clone(),
                    known: self.params.iter().map(|p| p.name.clone()).collect(),
                })?;
            spec.check(v)?;
            spec.write(&mut config, v)?;
        }
        Ok(config)
    }

    /// The parameter values in force: defaults overridden by `params`.
    pub fn effective_params(&self, params: &Params) -> Params {
        self.params
            .iter()
            .map(|p| {
                let v = params
                    .get(&p.name)
                    .cloned()
                    .unwrap_or_else(|| p.default.clone());
                (p.name.clone(), v)
            })
            .collect()
    }

    /// Builds a playable game with these parameters.
    pub fn build(&self, params: &Params) -> Result<AnyGame, ParamError> {
        match self.build_model(params)? {
            Model::Game(g) => Ok(g),
            Model::Nhodo(_) => Err(ParamError::NotAGame {
                id: self.id.clone(),
            }),
        }
    }

    /// Builds the game or model with these parameters.
    pub fn build_model(&self, params: &Params) -> Result<Model, ParamError> {
        build_config(self.kind, self.resolve(params)?).map_err(|e| match e {
            ParamError::Catalogue(m) => ParamError::Catalogue(format!("{}: {m}", self.id)),
            e => e,
        })
    }

    /// Parses `name=value` pairs (as typed on a command line) into checked parameters.
    pub fn parse_params<'a>(
        &self,
        pairs: impl IntoIterator<Item = &'a str>,
    ) -> Result<Params, ParamError> {
        let mut out = Params::new();
        for pair in pairs {
            let (name, value) = pair.split_once('=').ok_or_else(|| ParamError::OutOfRange {
                name: pair.to_string(),
                value: String::new(),
                allowed: "name=value".into(),
            })?;
            let spec = self
                .params
                .iter()
                .find(|p| p.name == name.trim())
                .ok_or_else(|| ParamError::UnknownParam {
                    ruleset: self.id.clone(),
                    name: name.trim().to_string(),
                    known: self.params.iter().map(|p| p.name.clone()).collect(),
                })?;
            out.insert(spec.name.clone(), spec.parse(value)?);
        }
        Ok(out)
    }

    /// Every parameter value a test should try: each end of each range and every choice.
    pub fn param_samples(&self) -> Vec<Params> {
        let mut out = vec![Params::new()];
        for p in &self.params {
            let values: Vec<Value> = match &p.kind {
                ParamKind::Int { min, max, .. } => vec![Value::from(*min), Value::from(*max)],
                ParamKind::Bool { .. } => vec![Value::Bool(true), Value::Bool(false)],
                ParamKind::Choice { choices } => {
                    choices.keys().map(|k| Value::String(k.clone())).collect()
                }
            };
            for v in values {
                out.push(Params::from([(p.name.clone(), v)]));
            }
        }
        out
    }
}

/// Builds a game or model of `kind` from a resolved configuration (as stored with a
/// simulation job, so that a job runs the exact version it was created with).
pub fn build_config(kind: Kind, config: Value) -> Result<Model, ParamError> {
    let bad = |e: serde_json::Error| ParamError::Catalogue(e.to_string());
    Ok(match kind {
        Kind::Sowing => {
            let c: SowingConfig = serde_json::from_value(config).map_err(bad)?;
            Model::Game(AnyGame::Sowing(crate::sowing::SowingGame::new(
                c.compile()?,
            )))
        }
        Kind::Morris => {
            let c: crate::morris::MorrisConfig = serde_json::from_value(config).map_err(bad)?;
            Model::Game(AnyGame::Morris(crate::morris::MorrisGame::new(
                c.compile()?,
            )))
        }
        Kind::Nhodo => {
            let c: crate::nhodo::NhodoConfig = serde_json::from_value(config).map_err(bad)?;
            Model::Nhodo(c.compile()?)
        }
    })
}

/// Every shipped ruleset, by id (its file's name).
pub fn all() -> &'static [RulesetDef] {
    static ALL: OnceLock<Vec<RulesetDef>> = OnceLock::new();
    ALL.get_or_init(|| {
        FILES
            .iter()
            .map(|(id, text)| {
                let def: RulesetDef = serde_json::from_str(text)
                    .unwrap_or_else(|e| panic!("engine/rulesets/{id}.json: {e}"));
                assert_eq!(
                    &def.id, id,
                    "engine/rulesets/{id}.json: id differs from file name"
                );
                def
            })
            .collect()
    })
}

/// The ids of every shipped ruleset.
pub fn ids() -> Vec<&'static str> {
    all().iter().map(|r| r.id.as_str()).collect()
}

/// A shipped ruleset by id.
pub fn get(id: &str) -> Result<&'static RulesetDef, ParamError> {
    all()
        .iter()
        .find(|r| r.id == id)
        .ok_or_else(|| ParamError::UnknownRuleset {
            id: id.to_string(),
            known: ids().iter().map(|s| s.to_string()).collect(),
        })
}

/// A rule field of a kind of configuration, which the corpus must cite, with what it decides
/// in a few words for readers (kept beside the field's name so that neither drifts).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RuleField {
    /// The field as a dotted path (`capture.back`).
    pub name: &'static str,
    /// What it decides, in a sentence.
    pub about: &'static str,
}

impl RuleField {
    /// A field and its words.
    pub const fn new(name: &'static str, about: &'static str) -> RuleField {
        RuleField { name, about }
    }
}

/// The rule fields of a ruleset's configuration, which the corpus must cite.
pub fn rule_fields(kind: Kind) -> &'static [RuleField] {
    match kind {
        Kind::Sowing => crate::sowing::RULE_FIELDS,
        Kind::Morris => crate::morris::RULE_FIELDS,
        Kind::Nhodo => crate::nhodo::RULE_FIELDS,
    }
}

/// The rules each ruleset of a kind plays without a configuration field, because its engine
/// builds them in; the corpus cites each like a rule field (`[built_in.NAME]`).
///
/// - sowing: `object` (a player left with no stones has lost), `direction` (each player sows
///   anticlockwise around his own two rows only), `capture_trigger` (a capture is made by a
///   last stone falling into an empty hole of the sower's front row opposite an occupied one);
/// - morris: `turns` (the players alternate, placing or moving one stone a turn), `lines` (a
///   line is three of one's stones in a row along a line of the board);
/// - nhodo: `throw` (a clean throw scoops stones out and pushes all but one back, the one kept as
///   a single), `failed_throw` (a failed throw ends the turn, every stone out of the hole going
///   back and nothing kept), `turn_order` (play passes to the player on the right), `eating`
///   (with hole and reserve exhausted, a player eats the one on her right, who retires).
pub fn built_in_rules(kind: Kind) -> &'static [&'static str] {
    match kind {
        Kind::Sowing => &["object", "direction", "capture_trigger"],
        Kind::Morris => &["turns", "lines"],
        Kind::Nhodo => &["throw", "failed_throw", "turn_order", "eating"],
    }
}

/// The value of a rule field (`capture.back`) in a configuration, `null` where it has none.
pub fn rule_value(config: &Value, field: &str) -> Value {
    config
        .pointer(&format!("/{}", field.replace('.', "/")))
        .cloned()
        .unwrap_or(Value::Null)
}

/// A configuration with every field the engine defaults written out (`capture.into_hand:
/// false` where the ruleset's file leaves it out), read through the engine's own types, so that
/// every reading of a rule (its words, a comparison of two rulesets) sees the value the engine
/// plays. A configuration its kind does not read is returned as it is.
pub fn with_defaults(kind: Kind, config: &Value) -> Value {
    fn full<T: serde::de::DeserializeOwned + Serialize>(c: &Value) -> Option<Value> {
        serde_json::to_value(serde_json::from_value::<T>(c.clone()).ok()?).ok()
    }
    match kind {
        Kind::Sowing => full::<SowingConfig>(config),
        Kind::Morris => full::<crate::morris::MorrisConfig>(config),
        Kind::Nhodo => full::<crate::nhodo::NhodoConfig>(config),
    }
    .unwrap_or_else(|| config.clone())
}

/// A rule on which two configurations differ.
#[derive(Clone, Debug, PartialEq)]
pub struct RuleDifference {
    /// The rule field (a dotted path).
    pub field: &'static str,
    /// Its value in the first configuration (`null` where it has no such field).
    pub a: Value,
    /// Its value in the second.
    pub b: Value,
}

/// The rules on which two configurations (each with its kind) differ, each read with the
/// engine's defaults written out ([`with_defaults`]: a rule one file leaves at its default is
/// not a difference): the first's rule fields in order, then the second's that the first lacks
/// (two kinds of game differ on every field either has).
pub fn rule_differences(a: (&Value, Kind), b: (&Value, Kind)) -> Vec<RuleDifference> {
    let (full_a, full_b) = (with_defaults(a.1, a.0), with_defaults(b.1, b.0));
    let (a, b) = ((&full_a, a.1), (&full_b, b.1));
    let mut fields: Vec<&'static str> = rule_fields(a.1).iter().map(|f| f.name).collect();
    for f in rule_fields(b.1) {
        if !fields.contains(&f.name) {
            fields.push(f.name);
        }
    }
    fields
        .into_iter()
        .filter_map(|field| {
            let (va, vb) = (rule_value(a.0, field), rule_value(b.0, field));
            (va != vb).then_some(RuleDifference {
                field,
                a: va,
                b: vb,
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A rule a ruleset's file leaves at the engine's default is no difference from a file that
    /// states it: every defaulted rule field of every shipped ruleset, taken out of its file,
    /// leaves the comparison with the file as it was empty, and states the same value.
    #[test]
    fn a_rule_left_at_its_default_is_no_difference() {
        let mut checked = 0;
        for def in all() {
            let full = with_defaults(def.kind, &def.config);
            assert!(
                rule_differences((&def.config, def.kind), (&full, def.kind)).is_empty(),
                "{}",
                def.id
            );
            for f in rule_fields(def.kind) {
                let path = format!("/{}", f.name.replace('.', "/"));
                let (parent, key) = path.rsplit_once('/').expect("a field has a name");
                let mut stripped = full.clone();
                let removed = match stripped.pointer_mut(parent) {
                    Some(Value::Object(m)) => m.remove(key).is_some(),
                    _ => false,
                };
                // Only fields the engine fills in when they are missing.
                if !removed || with_defaults(def.kind, &stripped) != full {
                    continue;
                }
                assert!(
                    rule_differences((&full, def.kind), (&stripped, def.kind)).is_empty(),
                    "{}: {} left out reads as a difference",
                    def.id,
                    f.name
                );
                checked += 1;
            }
        }
        assert!(checked > 50, "only {checked} defaulted fields were checked");
    }
}
