//! Citations out: sources as BibTeX, CSL-JSON and an author-date reference, evidence as a CSL
//! citation with its page.

use crate::model::{Evidence, Source};
use serde_json::{Value, json};

fn bib_escape(s: &str) -> String {
    let mut out = String::new();
    for ch in s.chars() {
        match ch {
            '&' | '%' | '$' | '#' | '_' | '{' | '}' => {
                out.push('\\');
                out.push(ch);
            }
            '~' => out.push_str("\\textasciitilde{}"),
            '^' => out.push_str("\\textasciicircum{}"),
            '\\' => out.push_str("\\textbackslash{}"),
            '"' => out.push_str("''"),
            c => out.push(c),
        }
    }
    out
}

/// The note a bibliography gives a source the archive holds no text of: `Not held by the
/// archive.` and how it knows of it (`None` for a held source).
pub fn not_held_note(s: &Source) -> Option<String> {
    s.not_held
        .as_ref()
        .map(|why| format!("Not held by the archive. {}", why.trim()))
}

/// The source as a BibTeX entry (key = id). An article whose journal the archive does not know
/// is a `@misc` (not an `@article` missing its journal); a source the archive holds no text of
/// carries a `note` saying so.
pub fn bibtex(s: &Source) -> String {
    let kind = match (s.kind.as_str(), &s.container) {
        ("article-journal", Some(_)) => "article",
        ("book", _) => "book",
        ("chapter", Some(_)) => "incollection",
        _ => "misc",
    };
    let mut fields: Vec<(&str, String)> = vec![];
    if !s.authors.is_empty() {
        let names: Vec<String> = s
            .authors
            .iter()
            .map(|p| {
                if p.given.is_empty() {
                    format!("{{{}}}", p.family)
                } else {
                    format!("{}, {}", p.family, p.given)
                }
            })
            .collect();
        fields.push(("author", names.join(" and ")));
    }
    // Double braces keep the title's capitals.
    fields.push(("title", format!("{{{}}}", bib_escape(&s.title))));
    if let Some(c) = &s.container {
        let key = match kind {
            "article" => "journal",
            "incollection" => "booktitle",
            _ => "howpublished",
        };
        fields.push((key, bib_escape(c)));
    }
    for (k, v) in [
        ("volume", &s.volume),
        ("number", &s.issue),
        ("publisher", &s.publisher),
        ("address", &s.place),
    ] {
        if let Some(v) = v {
            fields.push((k, bib_escape(v)));
        }
    }
    if let Some(p) = &s.pages {
        fields.push(("pages", p.replace('-', "--")));
    }
    if let Some(y) = s.year {
        fields.push(("year", y.to_string()));
    }
    if let Some(y) = s.original_year {
        fields.push(("origdate", y.to_string()));
    }
    if let Some(u) = &s.url {
        fields.push(("url", u.clone()));
    }
    if let Some(a) = &s.accessed {
        fields.push(("urldate", a.clone()));
    }
    if let Some(n) = not_held_note(s) {
        fields.push(("note", bib_escape(&n)));
    }
    let body: Vec<String> = fields
        .iter()
        .map(|(k, v)| format!("  {k} = {{{v}}}"))
        .collect();
    format!("@{kind}{{{},\n{}\n}}\n", s.id, body.join(",\n"))
}

/// The source as a CSL-JSON item.
pub fn csl(s: &Source) -> Value {
    let mut item = json!({
        "id": s.id,
        "type": s.kind,
        "title": s.title,
    });
    let o = item.as_object_mut().expect("an object");
    if !s.authors.is_empty() {
        o.insert(
            "author".into(),
            Value::Array(
                s.authors
                    .iter()
                    .map(|p| json!({"family": p.family, "given": p.given}))
                    .collect(),
            ),
        );
    }
    for (k, v) in [
        ("container-title", &s.container),
        ("volume", &s.volume),
        ("issue", &s.issue),
        ("page", &s.pages),
        ("publisher", &s.publisher),
        ("publisher-place", &s.place),
        ("URL", &s.url),
    ] {
        if let Some(v) = v {
            o.insert(k.into(), Value::String(v.clone()));
        }
    }
    if let Some(y) = s.year {
        o.insert("issued".into(), json!({"date-parts": [[y]]}));
    }
    if let Some(y) = s.original_year {
        o.insert("original-date".into(), json!({"date-parts": [[y]]}));
    }
    if let Some(a) = &s.accessed {
        let parts: Vec<i64> = a.split('-').filter_map(|p| p.parse().ok()).collect();
        o.insert("accessed".into(), json!({"date-parts": [parts]}));
    }
    if let Some(n) = not_held_note(s) {
        o.insert("note".into(), Value::String(n));
    }
    item
}

/// An evidence record as a CSL citation: the source's item with the page locator (none for a
/// web page or database, which the item's URL and accessed date locate).
pub fn evidence_citation(e: &Evidence, source: &Source) -> Value {
    let mut item = json!({"id": source.id, "itemData": csl(source)});
    if let Some(p) = &e.pages {
        item["locator"] = json!(p);
        item["label"] = json!("page");
    }
    json!({
        "citationItems": [item],
        "properties": {"noteIndex": 0},
    })
}

/// The source as a plain-text reference: authors, year (with the original year of a
/// republication), title, container, volume(issue), pages, publisher, URL and accessed date.
pub fn plain(s: &Source) -> String {
    let mut out = String::new();
    let names: Vec<String> = s.authors.iter().map(|p| p.inverted()).collect();
    if !names.is_empty() {
        let names = names.join(" and ");
        // `Matthews, J. B. 1964`, not `Matthews, J. B.. 1964`.
        out.push_str(&names);
        out.push_str(if names.ends_with('.') { " " } else { ". " });
    }
    match (s.year, s.original_year) {
        (Some(y), Some(o)) => out.push_str(&format!("{y} [{o}]. ")),
        (Some(y), None) => out.push_str(&format!("{y}. ")),
        _ => {}
    }
    out.push_str(&format!("{}.", s.title.trim_end_matches('.')));
    if let Some(c) = &s.container {
        out.push_str(&format!(" {c}"));
        match (&s.volume, &s.issue) {
            (Some(v), Some(i)) => out.push_str(&format!(" {v}({i})")),
            (Some(v), None) => out.push_str(&format!(" {v}")),
            _ => {}
        }
        out.push_str(if s.pages.is_some() { ":" } else { "." });
    }
    if let Some(p) = &s.pages {
        out.push_str(&format!(" {p}."));
    }
    if let Some(p) = &s.publisher {
        match &s.place {
            Some(pl) => out.push_str(&format!(" {pl}: {p}.")),
            None => out.push_str(&format!(" {p}.")),
        }
    }
    if let Some(u) = &s.url {
        out.push_str(&format!(" {u}"));
        if let Some(a) = &s.accessed {
            out.push_str(&format!(" (accessed {a})"));
        }
        out.push('.');
    }
    if s.not_held.is_some() {
        out.push_str(" Not held by the archive.");
    }
    out
}

/// Every source as one BibTeX file.
pub fn bibliography_bibtex<'a>(sources: impl IntoIterator<Item = &'a Source>) -> String {
    sources
        .into_iter()
        .map(bibtex)
        .collect::<Vec<_>>()
        .join("\n")
}

/// Every source as one CSL-JSON array.
pub fn bibliography_csl<'a>(sources: impl IntoIterator<Item = &'a Source>) -> Value {
    Value::Array(sources.into_iter().map(csl).collect())
}

/// Who a source is by, for an author-date reference: its authors (`Matthews, J. B.`), else its
/// publisher, else its container.
fn creators(s: &Source) -> String {
    if !s.authors.is_empty() {
        let names: Vec<String> = s.authors.iter().map(|p| p.inverted()).collect();
        return names.join(" and ");
    }
    s.publisher
        .clone()
        .or_else(|| s.container.clone())
        .unwrap_or_else(|| s.title.clone())
}

/// A short in-text citation: `Matthews 1964`, `Ludii Portal n.d.`. A work without personal
/// authors whose title has a subtitle is cited by its short title (the words before the
/// colon), not by its publisher: a corporate author can be a line long.
pub fn author_date_short(s: &Source) -> String {
    let who = match s.authors.as_slice() {
        [] => match s.title.split_once(':') {
            Some((short, _)) if !short.trim().is_empty() => short.trim().to_string(),
            _ => creators(s),
        },
        [one] => one.family.clone(),
        [one, two] => format!("{} and {}", one.family, two.family),
        [one, ..] => format!("{} et al.", one.family),
    };
    let year = s
        .year
        .map(|y| y.to_string())
        .unwrap_or_else(|| "n.d.".into());
    format!("{who} {year}")
}

/// The source as an author-date reference in plain text: `Matthews, J. B. (1964). Notes on
/// Some African Stone Games. NADA ..., 9(1), 64-66.`
pub fn author_date(s: &Source) -> String {
    let year = s
        .year
        .map(|y| y.to_string())
        .unwrap_or_else(|| "n.d.".into());
    let mut out = format!(
        "{} ({year}). {}.",
        creators(s),
        s.title.trim_end_matches('.')
    );
    if let Some(c) = &s.container {
        out.push(' ');
        out.push_str(c);
        match (&s.volume, &s.issue) {
            (Some(v), Some(i)) => out.push_str(&format!(", {v}({i})")),
            (Some(v), None) => out.push_str(&format!(", {v}")),
            _ => {}
        }
        if let Some(p) = &s.pages {
            out.push_str(&format!(", {p}"));
        }
        out.push('.');
    } else if let Some(p) = &s.pages {
        out.push_str(&format!(" Pp. {p}."));
    }
    match (&s.place, &s.publisher) {
        (Some(pl), Some(pu)) => out.push_str(&format!(" {pl}: {pu}.")),
        (None, Some(pu)) if s.authors.is_empty() => {}
        (None, Some(pu)) => out.push_str(&format!(" {pu}.")),
        (Some(pl), None) => out.push_str(&format!(" {pl}.")),
        (None, None) => {}
    }
    if let Some(u) = &s.url {
        out.push_str(&format!(" {u}"));
    }
    out
}
