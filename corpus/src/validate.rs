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
    }
    for (id, e) in &c.evidence {
        match c.sources.get(&e.source) {
            None => p.push(at(c, id, format!("source: no source {:?}", e.source))),
            Some(s) => p.extend(check_pages(e, s).map(|m| at(c, id, m))),
        }
        if !c.games.contains_key(&e.game) {
            p.push(at(c, id, format!("game: no game {:?}", e.game)));
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
        for field in catalogue::rule_fields(def.kind) {
            match r.rules.get(*field) {
                None => p.push(at(c, id, format!("rule field {field} has no citation"))),
                Some(Citation::Evidence { evidence, quote }) => match c.evidence.get(evidence) {
                    None => p.push(at(
                        c,
                        id,
                        format!("rules.{field}: no evidence {evidence:?}"),
                    )),
                    Some(e) if !normalise(&e.quote).contains(&normalise(quote)) => p.push(at(
                        c,
                        id,
                        format!(
                            "rules.{field}: the words {quote:?} are not in {evidence}'s quotation"
                        ),
                    )),
                    Some(e) if !r.sources.contains(&e.source) => p.push(at(
                        c,
                        id,
                        format!(
                            "rules.{field}: quotes {evidence}, of {:?}, which is not among this \
                             ruleset's sources{}: quote its own sources, or make it a \
                             `reconstructed` citation that names the source it borrows from",
                            e.source,
                            r.inherited
                                .get(*field)
                                .map(|a| format!(" (the citation is inherited from {a})"))
                                .unwrap_or_default()
                        ),
                    )),
                    Some(_) => {}
                },
                Some(Citation::Reconstructed {
                    reconstructed,
                    evidence,
                }) => {
                    if reconstructed.trim().len() < 20 {
                        p.push(at(
                            c,
                            id,
                            format!("rules.{field}: give the reasoning of the reconstruction"),
                        ));
                    }
                    for e in evidence {
                        if !c.evidence.contains_key(e) {
                            p.push(at(c, id, format!("rules.{field}: no evidence {e:?}")));
                        }
                    }
                }
                Some(Citation::Assumed { assumed }) => {
                    if assumed.trim().len() < 20 {
                        p.push(at(c, id, format!("rules.{field}: say why it is assumed")));
                    }
                }
                Some(Citation::NotApplicable { not_applicable }) => {
                    if not_applicable.trim().len() < 20 {
                        p.push(at(
                            c,
                            id,
                            format!("rules.{field}: say why the rule does not apply"),
                        ));
                    }
                }
            }
        }
        for field in r.rules.keys() {
            if !catalogue::rule_fields(def.kind).contains(&field.as_str()) {
                p.push(at(
                    c,
                    id,
                    format!("rules.{field}: not a rule field of this engine"),
                ));
            }
        }
    }
    p
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
            (a < lo || b > hi).then(|| {
                format!(
                    "pages: {p} lies outside {}'s page range {lo}-{hi}: widen the source's \
                     range (recording the other reading in its variants)",
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
