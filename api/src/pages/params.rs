//! A ruleset's parameters as form inputs, in words: a set of choices is a menu, yes-or-no a
//! menu of the two, a whole number a number input with its range ("6 to 21"). A value that
//! does not parse is kept in its input with the reason beside it, so that a mistyped field
//! costs the reader nothing else on the form.

use serde_json::{Value, json};
use std::collections::BTreeMap;
use std::fmt::Write;
use tsoro_engine::catalogue::{ParamKind, ParamSpec, Params, RulesetDef};

/// What values a parameter takes, in words: `6 to 21`, `yes or no`, `sow or skip`.
pub fn range_words(spec: &ParamSpec) -> String {
    match &spec.kind {
        ParamKind::Int { min, max, .. } => format!("{min} to {max}"),
        ParamKind::Bool { .. } => "yes or no".into(),
        ParamKind::Choice { choices } => or_list(choices.keys().map(String::as_str)),
    }
}

/// `a`, `a or b`, `a, b or c`.
fn or_list<'a>(items: impl Iterator<Item = &'a str>) -> String {
    let items: Vec<&str> = items.collect();
    match items.split_last() {
        None => String::new(),
        Some((last, [])) => (*last).to_string(),
        Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
    }
}

/// A parameter for a form's script (`simulate.js`): its name, default, range in words,
/// description and the input it takes (`int` with `min`/`max`, `bool`, or `choice` with
/// `choices`).
pub fn spec_json(spec: &ParamSpec) -> Value {
    let mut v = json!({
        "name": spec.name,
        "default": spec.default,
        "range": range_words(spec),
        "description": spec.description,
    });
    match &spec.kind {
        ParamKind::Int { min, max, .. } => {
            v["input"] = json!("int");
            v["min"] = json!(min);
            v["max"] = json!(max);
        }
        ParamKind::Bool { .. } => v["input"] = json!("bool"),
        ParamKind::Choice { choices } => {
            v["input"] = json!("choice");
            v["choices"] = json!(choices.keys().collect::<Vec<_>>());
        }
    }
    v
}

/// Why a value typed for a parameter is refused, in words.
pub fn refusal(spec: &ParamSpec, typed: &str) -> String {
    match &spec.kind {
        ParamKind::Int { min, max, .. } => {
            format!("“{typed}” is not a whole number from {min} to {max}.")
        }
        ParamKind::Bool { .. } => format!("“{typed}” is neither yes nor no."),
        ParamKind::Choice { choices } => format!(
            "“{typed}” is not one of the choices: {}.",
            or_list(choices.keys().map(String::as_str))
        ),
    }
}

/// The parameters given as `(name, text)` pairs (a query string's), read one by one: the
/// values that parse, the text of every one given (to put back in its input), and the
/// refusals by parameter name (an unknown name is refused under its own name).
pub struct Read {
    pub params: Params,
    pub typed: BTreeMap<String, String>,
    pub errors: BTreeMap<String, String>,
}

/// Reads the pairs for ruleset `def` (blank values mean the default).
pub fn read<'a>(def: &RulesetDef, pairs: impl IntoIterator<Item = (&'a str, &'a str)>) -> Read {
    let mut out = Read {
        params: Params::new(),
        typed: BTreeMap::new(),
        errors: BTreeMap::new(),
    };
    for (name, text) in pairs {
        if text.trim().is_empty() {
            continue;
        }
        let Some(spec) = def.params.iter().find(|p| p.name == name.trim()) else {
            out.errors.insert(
                name.to_string(),
                format!(
                    "{} has no parameter “{name}”; its parameters are {}.",
                    def.title,
                    or_list(def.params.iter().map(|p| p.name.as_str()))
                ),
            );
            continue;
        };
        out.typed.insert(spec.name.clone(), text.to_string());
        match spec.parse(text) {
            Ok(v) => {
                out.params.insert(spec.name.clone(), v);
            }
            Err(_) => {
                out.errors.insert(spec.name.clone(), refusal(spec, text));
            }
        }
    }
    out
}

fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// The inputs of a ruleset's parameters as HTML (one `<p>` each: label with the range in
/// words, input or menu, description, and the refusal if any), showing `values` (effective
/// values) unless the reader's `typed` text was refused.
pub fn inputs_html(def: &RulesetDef, values: &Params, read: &Read) -> String {
    let mut s = String::new();
    for spec in &def.params {
        let name = &spec.name;
        let id = format!("p-{name}");
        let error = read.errors.get(name);
        let current = match (error, read.typed.get(name)) {
            (Some(_), Some(t)) => t.clone(),
            _ => super::value_text(values.get(name).unwrap_or(&spec.default)),
        };
        let described = if error.is_some() {
            format!("{id}-error d-{name}")
        } else {
            format!("d-{name}")
        };
        let invalid = if error.is_some() {
            r#" aria-invalid="true""#
        } else {
            ""
        };
        let _ = write!(
            s,
            r#"<p class="param"><label for="{id}"><code>{name}</code> <span class="muted">({})</span></label> "#,
            esc(&range_words(spec))
        );
        let options: Option<Vec<(String, String)>> = match &spec.kind {
            ParamKind::Int { min, max, .. } => {
                let _ = write!(
                    s,
                    r#"<input id="{id}" name="{name}" type="number" inputmode="numeric" min="{min}" max="{max}" step="1" value="{}" aria-describedby="{described}"{invalid}>"#,
                    esc(&current)
                );
                None
            }
            ParamKind::Bool { .. } => Some(vec![
                ("true".into(), "yes".into()),
                ("false".into(), "no".into()),
            ]),
            ParamKind::Choice { choices } => {
                Some(choices.keys().map(|k| (k.clone(), k.clone())).collect())
            }
        };
        if let Some(mut options) = options {
            let chosen = match spec.parse(&current) {
                Ok(v) => super::value_text(&v),
                Err(_) => {
                    // Refused: kept as typed, marked, so the reader sees what was sent.
                    options.push((current.clone(), format!("{current} (not allowed)")));
                    current.clone()
                }
            };
            let _ = write!(
                s,
                r#"<select id="{id}" name="{name}" aria-describedby="{described}"{invalid}>"#
            );
            for (value, words) in options {
                let _ = write!(
                    s,
                    r#"<option value="{}"{}>{}</option>"#,
                    esc(&value),
                    if value == chosen { " selected" } else { "" },
                    esc(&words)
                );
            }
            s.push_str("</select>");
        }
        if let Some(e) = error {
            let _ = write!(
                s,
                r#" <span class="field-error error" id="{id}-error">{}</span>"#,
                esc(e)
            );
        }
        let _ = write!(
            s,
            r#"<small id="d-{name}">{}</small></p>"#,
            esc(&spec.description)
        );
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use tsoro_engine::catalogue;

    #[test]
    fn ranges_in_words_and_a_mistyped_value_kept_with_its_reason() {
        let def = catalogue::get("tsoro-matthews-basic").unwrap();
        let holes = def.params.iter().find(|p| p.name == "holes").unwrap();
        assert_eq!(range_words(holes), "6 to 21");
        let r = read(def, [("holes", "40"), ("layout", "every hole")]);
        assert!(r.params.is_empty());
        assert_eq!(
            r.errors["holes"],
            "“40” is not a whole number from 6 to 21."
        );
        assert!(
            r.errors["layout"].starts_with("“every hole” is not one of the choices: "),
            "{:?}",
            r.errors
        );
        let html = inputs_html(def, &def.effective_params(&r.params), &r);
        assert!(
            html.contains(
                r#"type="number" inputmode="numeric" min="6" max="21" step="1" value="40""#
            ),
            "{html}"
        );
        assert!(
            html.contains(
                r#"<option value="every hole" selected>every hole (not allowed)</option>"#
            )
        );
        assert!(
            html.contains(r#"id="p-holes-error">“40” is not a whole number from 6 to 21.</span>"#)
        );
        assert!(!html.contains("..="));
    }
}
