//! A ruleset's detail document (`GET /api/v1/rulesets/{id}`), rendered once at import time
//! and stored with its ETag, so that serving it is one primary-key read.

use super::views::{ParamInfo, ParamReading, RuleCitation, RulesetDetail, RulesetItem};
use serde_json::Value;
use sha2::{Digest, Sha256};
use std::collections::BTreeMap;
use tsoro_corpus::{Citation, render_html};

/// A rule's citation as the API shows it, from its stored form (`kind`, citation JSON).
pub fn rule_citation(field: &str, kind: &str, c: &Value) -> RuleCitation {
    let s = |k: &str| c.get(k).and_then(Value::as_str).map(str::to_string);
    let evidence = match c.get("evidence") {
        Some(Value::String(e)) => vec![e.clone()],
        Some(Value::Array(a)) => a
            .iter()
            .filter_map(Value::as_str)
            .map(str::to_string)
            .collect(),
        _ => vec![],
    };
    RuleCitation {
        field: field.to_string(),
        kind: kind.to_string(),
        evidence,
        quote: s("quote"),
        reasoning: s("reconstructed")
            .or_else(|| s("assumed"))
            .or_else(|| s("not_applicable")),
        inherited_from: s("inherited_from"),
    }
}

/// A rule's citation in its stored form: the citation's JSON, with the ancestor it is
/// inherited from (`inherited_from`) when the ruleset does not cite the rule itself.
pub fn stored_citation(c: &Citation, inherited_from: Option<&String>) -> Value {
    let mut stored = serde_json::to_value(c).unwrap_or(Value::Null);
    if let (Some(from), Some(o)) = (inherited_from, stored.as_object_mut()) {
        o.insert("inherited_from".into(), from.clone().into());
    }
    stored
}

/// The stored kind of a citation (`evidence`, `reconstructed`, `assumed`, `not_applicable`).
pub fn citation_kind(c: &Citation) -> &'static str {
    c.kind()
}

/// A parameter as the API shows it, from its stored JSON (see `import::param_json`).
pub fn param_info(p: &Value) -> ParamInfo {
    let s = |k: &str| {
        p.get(k)
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_string()
    };
    ParamInfo {
        name: s("name"),
        kind: s("type"),
        default: p.get("default").cloned().unwrap_or(Value::Null),
        range: s("range"),
        min: p.get("min").and_then(Value::as_i64),
        max: p.get("max").and_then(Value::as_i64),
        choices: p.get("choices").cloned(),
        description: s("description"),
        readings: p
            .get("readings")
            .and_then(|r| serde_json::from_value(r.clone()).ok())
            .unwrap_or_default(),
    }
}

/// A parameter choice's citation as the API shows it.
pub fn param_reading(choice: &str, c: &Citation) -> ParamReading {
    let stored = serde_json::to_value(c).unwrap_or(Value::Null);
    let r = rule_citation(choice, citation_kind(c), &stored);
    ParamReading {
        choice: r.field,
        kind: r.kind,
        evidence: r.evidence,
        quote: r.quote,
        reasoning: r.reasoning,
    }
}

/// The parts a ruleset's detail is made of.
pub struct DetailParts<'a> {
    pub item: RulesetItem,
    pub inherit: Option<String>,
    pub config: &'a Value,
    pub params: &'a [Value],
    pub rules: &'a BTreeMap<String, Citation>,
    /// The rules whose citation is an ancestor's, to that ancestor.
    pub inherited: &'a BTreeMap<String, String>,
    pub description: &'a str,
}

/// The detail document.
pub fn ruleset_detail(p: DetailParts<'_>) -> RulesetDetail {
    let id = &p.item.id;
    RulesetDetail {
        replay: format!("/api/v1/rulesets/{id}/replay"),
        legal: format!("/api/v1/rulesets/{id}/legal"),
        inherit: p.inherit,
        config: p.config.clone(),
        params: p.params.iter().map(param_info).collect(),
        citations: p
            .rules
            .iter()
            .map(|(field, c)| {
                let stored = stored_citation(c, p.inherited.get(field));
                rule_citation(field, citation_kind(c), &stored)
            })
            .collect(),
        description: p.description.to_string(),
        description_html: render_html(p.description),
        ruleset: p.item,
    }
}

/// The strong ETag of a body: the first 12 bytes of its sha256, quoted hex.
pub fn etag_of(body: &[u8]) -> String {
    let digest = Sha256::digest(body);
    let hex: String = digest[..12].iter().map(|b| format!("{b:02x}")).collect();
    format!("\"{hex}\"")
}
