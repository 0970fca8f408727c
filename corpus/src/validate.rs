//! The checks a corpus must pass.

use crate::Corpus;
use crate::error::Problem;
use crate::model::Citation;
use tsoro_engine::catalogue;

fn at(c: &Corpus, id: &str, message: String) -> Problem {
    let (file, line) = c.origin.get(id).cloned().unwrap_or_default();
    Problem {
        file,
        line,
        message,
    }
}

/// Every problem of a corpus (empty when it is sound).
pub fn check(c: &Corpus) -> Vec<Problem> {
    let mut p = vec![];
    for (id, g) in &c.games {
        for e in &g.players_evidence {
            if !c.evidence.contains_key(e) {
                p.push(at(c, id, format!("players_evidence: no evidence {e:?}")));
            }
        }
    }
    for (id, s) in &c.sources {
        if is_web(&s.kind) {
            if s.url.is_none() {
                p.push(at(c, id, "a web page or database needs its url".into()));
            }
            if s.accessed.is_none() {
                p.push(at(
                    c,
                    id,
                    "a web page or database needs the date it was accessed".into(),
                ));
            }
        }
        if let Some(a) = &s.accessed
            && !is_iso_date(a)
        {
            p.push(at(
                c,
                id,
                format!("accessed: {a:?} is not a date YYYY-MM-DD"),
            ));
        }
        if let Some(r) = &s.pages
            && page_range(r).is_none()
        {
            p.push(at(
                c,
                id,
                format!("pages: {r:?} is not a page or range (64-68)"),
            ));
        }
        for d in &s.derived_from {
            if !c.sources.contains_key(d) {
                p.push(at(c, id, format!("derived_from: no source {d:?}")));
            }
        }
        match (s.held.is_empty(), &s.not_held) {
            (true, None) => p.push(at(
                c,
                id,
                "list the captures the archive holds (`held`) or say how it knows the source \
                 without one (`not_held`)"
                    .into(),
            )),
            (false, Some(_)) => p.push(at(
                c,
                id,
                "`held` and `not_held` both given: a source is held or it is not".into(),
            )),
            _ => {}
        }
    }
    for (id, e) in &c.evidence {
        match c.sources.get(&e.source) {
            None => p.push(at(c, id, format!("source: no source {:?}", e.source))),
            Some(s) => p.extend(check_pages(e, s).map(|m| at(c, id, m))),
        }
        if !c.games.contains_key(&e.game) {
            p.push(at(c, id, format!("game: no game {:?}", e.game)));
        }
        match c.sources.get(e.witness()) {
            None => p.push(at(c, id, format!("witness: no source {:?}", e.witness()))),
            Some(w) if w.held.is_empty() => p.push(at(
                c,
                id,
                format!(
                    "the quotation's witness {} is a source the archive does not hold: name \
                     the held text it is quoted from (`witness`)",
                    w.id
                ),
            )),
            Some(_) => {}
        }
        for r in &e.witness_readings {
            if !normalise(&e.quote).contains(&normalise(&r.words)) {
                p.push(at(
                    c,
                    id,
                    format!("witness_readings: {:?} is not in the quotation", r.words),
                ));
            }
            if c.sources.get(&r.witness).is_none_or(|w| w.held.is_empty()) {
                p.push(at(
                    c,
                    id,
                    format!("witness_readings: {:?} is not a held source", r.witness),
                ));
            }
        }
        for x in &e.sic {
            if !normalise(&e.quote).contains(&normalise(&x.text)) {
                p.push(at(
                    c,
                    id,
                    format!("sic: {:?} is not in the quotation", x.text),
                ));
            }
        }
        if !e.sic.is_empty() && e.transcription.is_none() {
            p.push(at(
                c,
                id,
                "sic: say what kind of transcription the witness is (`transcription`)".into(),
            ));
        }
        if e.date_from > e.date_to {
            p.push(at(c, id, "date_from is after date_to".into()));
        }
        if e.confidence > 100 {
            p.push(at(c, id, "confidence is 0 to 100".into()));
        }
        for r in &e.rulesets {
            if catalogue::get(r).is_err() {
                p.push(at(
                    c,
                    id,
                    format!("rulesets: the engine ships no ruleset {r:?}"),
                ));
            }
        }
        if e.rulesets.is_empty() && e.not_executable.is_none() {
            p.push(at(
                c,
                id,
                "linked to no ruleset: list `rulesets` or say why in `not_executable`".into(),
            ));
        }
        if e.summary.trim().is_empty() {
            p.push(at(
                c,
                id,
                "no summary: write one in the project's own words below the front matter".into(),
            ));
        }
    }
    for def in catalogue::all() {
        if !c.rulesets.contains_key(&def.id) {
            p.push(Problem {
                file: format!("rulesets/{}.md", def.id),
                line: 1,
                message: format!(
                    "the engine ships {} but the corpus has no record citing its rules",
                    def.id
                ),
            });
        }
    }
    for (id, r) in &c.rulesets {
        let def = match catalogue::get(id) {
            Ok(d) => d,
            Err(_) => {
                p.push(at(c, id, format!("id: the engine ships no ruleset {id:?}")));
                continue;
            }
        };
        if !c.games.contains_key(&r.game) {
            p.push(at(c, id, format!("game: no game {:?}", r.game)));
        }
        // The game is stated twice, in the engine's file and here: they must agree.
        if r.game != def.game {
            p.push(at(
                c,
                id,
                format!(
                    "game: {:?}, but the engine's ruleset plays {:?}",
                    r.game, def.game
                ),
            ));
        }
        for s in &r.sources {
            if !c.sources.contains_key(s) {
                p.push(at(c, id, format!("sources: no source {s:?}")));
            }
        }
        // The configuration builds at every parameter extreme and every choice.
        for params in def.param_samples() {
            if let Err(e) = def.build_model(&params) {
                p.push(at(
                    c,
                    id,
                    format!("the engine rejects parameters {params:?}: {e}"),
                ));
            }
        }
        for field in catalogue::rule_fields(def.kind).iter().map(|f| f.name) {
            match r.rules.get(field) {
                None => p.push(at(c, id, format!("rule field {field} has no citation"))),
                Some(cit) => {
                    let value = value_at(&def.config, field);
                    let inherited = r.inherited.get(field).map(String::as_str);
                    let label = format!("rules.{field}");
                    p.extend(check_citation(c, r, &label, cit, Some(&value), inherited));
                }
            }
        }
        for rule in catalogue::built_in_rules(def.kind) {
            match r.built_in.get(*rule) {
                None => p.push(at(
                    c,
                    id,
                    format!("built-in rule {rule} has no citation ([built_in.{rule}])"),
                )),
                Some(cit) => {
                    let inherited = r.built_in_inherited.get(*rule).map(String::as_str);
                    let label = format!("built_in.{rule}");
                    p.extend(check_citation(c, r, &label, cit, None, inherited));
                }
            }
        }
        for spec in &def.params {
            for choice in crate::param_choices(spec) {
                let name = &spec.name;
                match r.params.get(name).and_then(|m| m.get(&choice)) {
                    None => p.push(at(
                        c,
                        id,
                        format!(
                            "parameter {name}={choice} has no citation ([params.{name}.{choice:?}])"
                        ),
                    )),
                    Some(cit) => {
                        let key = format!("{name}={choice}");
                        let inherited = r.params_inherited.get(&key).map(String::as_str);
                        let label = format!("params.{name}.{choice}");
                        p.extend(check_citation(c, r, &label, cit, None, inherited));
                    }
                }
            }
        }
        for (name, choices) in &r.params {
            let spec = def.params.iter().find(|s| &s.name == name);
            for choice in choices.keys() {
                if !spec.is_some_and(|s| crate::param_choices(s).contains(choice)) {
                    p.push(at(
                        c,
                        id,
                        format!("params.{name}.{choice}: not a parameter choice of this ruleset"),
                    ));
                }
            }
        }
        for rule in r.built_in.keys() {
            if !catalogue::built_in_rules(def.kind).contains(&rule.as_str()) {
                p.push(at(
                    c,
                    id,
                    format!("built_in.{rule}: not a rule built into this engine"),
                ));
            }
        }
        for field in r.rules.keys() {
            if !catalogue::rule_fields(def.kind)
                .iter()
                .any(|f| f.name == field.as_str())
            {
                p.push(at(
                    c,
                    id,
                    format!("rules.{field}: not a rule field of this engine"),
                ));
            }
        }
    }
    p.extend(check_support(c));
    p.extend(check_one_kind(c));
    p
}

/// One kind per value: a rule field that a parameter's default choice sets carries the kind of
/// that choice's reading (a page may not badge a value `cited` in the rule list and the reading
/// that sets it `reconstructed`). A number parameter's reading (`any`) attests its range, not
/// its default, so the default's own citation is the rule's: those are not compared.
pub(crate) fn kind_disagreements(c: &Corpus) -> Vec<(String, String)> {
    use catalogue::ParamKind;
    let mut out = vec![];
    for (id, r) in &c.rulesets {
        let Ok(def) = catalogue::get(id) else {
            continue;
        };
        let fields: Vec<&str> = catalogue::rule_fields(def.kind)
            .iter()
            .map(|f| f.name)
            .collect();
        for spec in &def.params {
            let (choice, pointers): (String, Vec<&String>) = match &spec.kind {
                ParamKind::Choice { choices } => {
                    let Some(d) = spec.default.as_str() else {
                        continue;
                    };
                    let Some(set) = choices.get(d) else {
                        continue;
                    };
                    (d.to_string(), set.keys().collect())
                }
                ParamKind::Bool { set } => match spec.default.as_bool() {
                    Some(b) => (b.to_string(), set.iter().collect()),
                    None => continue,
                },
                ParamKind::Int { .. } => continue,
            };
            let Some(reading) = r.params.get(&spec.name).and_then(|m| m.get(&choice)) else {
                continue;
            };
            for ptr in pointers {
                let dotted = ptr.trim_start_matches('/').replace('/', ".");
                let field = fields
                    .iter()
                    .filter(|f| dotted == **f || dotted.starts_with(&format!("{f}.")))
                    .max_by_key(|f| f.len());
                let Some(rule) = field.and_then(|f| r.rules.get(*f)) else {
                    continue;
                };
                if rule.kind() != reading.kind() {
                    out.push((
                        id.clone(),
                        format!(
                            "rules.{}: {} here, but the default reading that sets it, {}={choice}, \
                             is {}: a value carries the kind of the reading that sets it",
                            field.copied().unwrap_or_default(),
                            rule.kind(),
                            spec.name,
                            reading.kind()
                        ),
                    ));
                }
            }
        }
    }
    out
}

fn check_one_kind(c: &Corpus) -> Vec<Problem> {
    kind_disagreements(c)
        .into_iter()
        .map(|(id, m)| at(c, &id, m))
        .collect()
}

/// Each evidence record lists exactly the rulesets whose citations (written or inherited, of a
/// rule field, a built-in rule or a parameter choice) quote it or rest on it.
fn check_support(c: &Corpus) -> Vec<Problem> {
    use std::collections::{BTreeMap, BTreeSet};
    let mut citing: BTreeMap<&str, BTreeSet<&str>> = BTreeMap::new();
    for r in c.rulesets.values() {
        let params = r.params.values().flat_map(|m| m.values());
        for cit in r.rules.values().chain(r.built_in.values()).chain(params) {
            for e in cit.evidence_ids() {
                citing.entry(e).or_default().insert(&r.id);
            }
        }
    }
    let mut p = vec![];
    for (id, e) in &c.evidence {
        let listed: BTreeSet<&str> = e.rulesets.iter().map(String::as_str).collect();
        let cites = citing.remove(id.as_str()).unwrap_or_default();
        let unlisted: Vec<&&str> = cites.difference(&listed).collect();
        let uncited: Vec<&&str> = listed.difference(&cites).collect();
        if !unlisted.is_empty() {
            p.push(at(
                c,
                id,
                format!("rulesets: {unlisted:?} cite this evidence but are not listed"),
            ));
        }
        if !uncited.is_empty() {
            p.push(at(
                c,
                id,
                format!("rulesets: {uncited:?} are listed but cite nothing of this evidence"),
            ));
        }
    }
    p
}

/// What is wrong with one citation of a ruleset (`label` names it: `rules.capture.back`),
/// given the value it attests (none for a built-in rule) and the ancestor it is inherited from.
fn check_citation(
    c: &Corpus,
    r: &crate::model::RulesetRecord,
    label: &str,
    cit: &Citation,
    value: Option<&serde_json::Value>,
    inherited: Option<&str>,
) -> Vec<Problem> {
    let id = r.id.as_str();
    let from = || {
        inherited
            .map(|a| format!(" (the citation is inherited from {a})"))
            .unwrap_or_default()
    };
    let mut p = vec![];
    match cit {
        Citation::Evidence {
            evidence,
            quote,
            attests_absence,
        } => match c.evidence.get(evidence) {
            None => p.push(at(c, id, format!("{label}: no evidence {evidence:?}"))),
            Some(e) if !normalise(&e.quote).contains(&normalise(quote)) => p.push(at(
                c,
                id,
                format!("{label}: the words {quote:?} are not in {evidence}'s quotation"),
            )),
            Some(e) if !r.sources.contains(&e.source) => p.push(at(
                c,
                id,
                format!(
                    "{label}: quotes {evidence}, of {:?}, which is not among this ruleset's \
                     sources{}: quote its own sources, or make it a `reconstructed` citation \
                     that names the source it borrows from",
                    e.source,
                    from()
                ),
            )),
            Some(_) if !attests_absence && value.is_some_and(is_absent) => p.push(at(
                c,
                id,
                format!(
                    "{label}: the value {} says the rule is absent, but the quoted words \
                     {quote:?} are cited for it{}: make it `not_applicable` naming the variant \
                     the rule belongs to, or quote words that say it is absent \
                     (`attests_absence = true`)",
                    value.cloned().unwrap_or_default(),
                    from()
                ),
            )),
            Some(_) => {}
        },
        Citation::Reconstructed {
            reconstructed,
            evidence,
        } => {
            if reconstructed.trim().len() < 20 {
                p.push(at(
                    c,
                    id,
                    format!("{label}: give the reasoning of the reconstruction"),
                ));
            }
            for e in evidence {
                if !c.evidence.contains_key(e) {
                    p.push(at(c, id, format!("{label}: no evidence {e:?}")));
                }
            }
        }
        Citation::Assumed { assumed } => {
            if assumed.trim().len() < 20 {
                p.push(at(c, id, format!("{label}: say why it is assumed")));
            }
        }
        Citation::NotApplicable { not_applicable } => {
            if not_applicable.trim().len() < 20 {
                p.push(at(
                    c,
                    id,
                    format!("{label}: say why the rule does not apply"),
                ));
            }
        }
    }
    p
}

/// A rule field's value in a configuration (`capture.back` is `/capture/back`).
pub(crate) fn value_at(config: &serde_json::Value, field: &str) -> serde_json::Value {
    config
        .pointer(&format!("/{}", field.replace('.', "/")))
        .cloned()
        .unwrap_or(serde_json::Value::Null)
}

/// Whether a value says a rule is absent: false, 0, an empty list or text, `off`, `none`, or a
/// `{"kind": "none"}` object (no opening).
pub(crate) fn is_absent(v: &serde_json::Value) -> bool {
    use serde_json::Value;
    match v {
        Value::Null => true,
        Value::Bool(b) => !b,
        Value::Number(n) => n.as_f64() == Some(0.0),
        Value::String(s) => matches!(s.as_str(), "" | "off" | "none"),
        Value::Array(a) => a.is_empty(),
        Value::Object(o) => o.get("kind").and_then(Value::as_str) == Some("none"),
    }
}

/// Web pages and database records: located by URL and accessed date, never by page.
fn is_web(kind: &str) -> bool {
    matches!(kind, "webpage" | "dataset")
}

fn is_iso_date(s: &str) -> bool {
    let parts: Vec<&str> = s.split('-').collect();
    matches!(parts.as_slice(), [y, m, d]
        if y.len() == 4 && m.len() == 2 && d.len() == 2
            && y.parse::<u16>().is_ok()
            && m.parse::<u8>().is_ok_and(|m| (1..=12).contains(&m))
            && d.parse::<u8>().is_ok_and(|d| (1..=31).contains(&d)))
}

/// A page (`64`) or range (`64-68`) as (first, last).
pub(crate) fn page_range(s: &str) -> Option<(u32, u32)> {
    let (a, b) = s.split_once('-').unwrap_or((s, s));
    let (a, b) = (a.trim().parse().ok()?, b.trim().parse().ok()?);
    (a <= b).then_some((a, b))
}

/// What is wrong with an evidence record's page locator, given its source.
fn check_pages(e: &crate::model::Evidence, s: &crate::model::Source) -> Option<String> {
    match (&e.pages, is_web(&s.kind)) {
        (Some(p), true) => Some(format!(
            "pages: {p:?}, but {} is a web page or database: give no page locator (its url \
             and accessed date locate the passage)",
            s.id
        )),
        (None, false) => Some(format!("pages: {} is printed: give the page", s.id)),
        (Some(p), false) => {
            let Some((a, b)) = page_range(p) else {
                return Some(format!("pages: {p:?} is not a page or range (64-65)"));
            };
            let (lo, hi) = s.pages.as_deref().and_then(page_range)?;
            // Pages beyond the held witnesses' range stand on another recorded range, and say
            // how they were inferred.
            let in_variant = s.variants.iter().any(|v| {
                v.field == "pages"
                    && page_range(&v.value).is_some_and(|(vl, vh)| vl <= a && b <= vh)
            });
            if in_variant && e.page_note.is_some() {
                return None;
            }
            (a < lo || b > hi).then(|| {
                format!(
                    "pages: {p} lies outside {}'s page range {lo}-{hi}: cite a page within it, \
                     or record the range that holds it as a `pages` variant of the source and \
                     say how the page was inferred (`page_note`)",
                    s.id
                )
            })
        }
        (None, true) => None,
    }
}

/// Whitespace-folded text, for matching quoted words.
fn normalise(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}
