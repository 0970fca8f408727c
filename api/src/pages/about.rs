//! Pages that explain the archive to its readers, listed at `/about` (linked from every page's
//! header): how holes are named (`/about/numbering`), how
//! a rule is cited and what each badge means (`/about/citations`), and each reading where the
//! sources disagree or are silent (`/about/readings`, the archive's own notes rendered).

use super::words::BADGES;
use super::{Page, html};
use actix_web::web;
use askama::Template;

/// Registers the pages.
pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.service(web::resource("/about").route(web::get().to(index)))
        .service(web::resource("/about/numbering").route(web::get().to(numbering)))
        .service(web::resource("/about/citations").route(web::get().to(citations)))
        .service(web::resource("/about/readings").route(web::get().to(readings)));
}

/// A page about the archive, as the `/about` index lists it.
pub struct AboutPage {
    /// Its path (`/about/numbering`).
    pub path: &'static str,
    /// Its title.
    pub title: &'static str,
    /// What a reader finds there.
    pub what: &'static str,
}

/// Every page about the archive, in the order the index lists them.
pub const PAGES: &[AboutPage] = &[
    AboutPage {
        path: "/about/numbering",
        title: "How holes are named",
        what: "the rows and holes of the sowing boards and the points of the line boards, \
               as every ruleset, play page and record names them",
    },
    AboutPage {
        path: "/about/citations",
        title: "How rules are cited",
        what: "what each badge beside a rule means, and how a rule rests on the words of a \
               source, a reconstruction or an assumption",
    },
    AboutPage {
        path: "/about/readings",
        title: "The readings",
        what: "each place where the sources disagree or are silent, and every reading the \
               archive keeps with its reason",
    },
];

#[derive(Template)]
#[template(path = "about.html")]
struct IndexPage {
    pages: &'static [AboutPage],
}

async fn index() -> Page {
    html(&IndexPage { pages: PAGES })
}

/// The heading of the archive notes' section that lists the readings.
const READINGS_HEADING: &str = "## Readings and disagreements";

/// An anchor for a reading's name (`Hole numbering` -> `hole-numbering`).
pub fn slug(name: &str) -> String {
    let mut out = String::new();
    for c in name.chars() {
        if c.is_ascii_alphanumeric() {
            out.push(c.to_ascii_lowercase());
        } else if !out.ends_with('-') {
            out.push('-');
        }
    }
    out.trim_matches('-').to_string()
}

/// The readings section of the archive's notes as HTML, each reading an item with an id from
/// its name (`<li id="hole-numbering"><strong>Hole numbering.</strong> …`).
pub fn readings_html() -> String {
    let notes = tsoro_corpus::NOTES;
    let section = notes
        .split_once(READINGS_HEADING)
        .map(|(_, rest)| rest)
        .unwrap_or_default();
    // Up to the next section of the notes, if any.
    let section = section.split("\n## ").next().unwrap_or_default();
    let rendered = tsoro_corpus::render_html(section);
    let mut out = String::with_capacity(rendered.len() + 512);
    let mut rest = rendered.as_str();
    while let Some(at) = rest.find("<li><strong>") {
        out.push_str(&rest[..at]);
        let after = &rest[at + "<li><strong>".len()..];
        let name = after.split("</strong>").next().unwrap_or_default();
        let name = name.trim_end_matches('.');
        out.push_str(&format!("<li id=\"{}\"><strong>", slug(name)));
        rest = after;
    }
    out.push_str(rest);
    out
}

/// The ids of the readings (`hole-numbering`, ...), in the notes' order.
pub fn reading_ids() -> Vec<String> {
    let html = readings_html();
    html.split("<li id=\"")
        .skip(1)
        .filter_map(|s| s.split('"').next())
        .map(str::to_string)
        .collect()
}

/// A reasoning or note, escaped, with each pointer to a reading of the archive's notes
/// (`see 'Hole numbering' in corpus/README.md`) turned into a link to its page.
pub fn note_html(text: &str) -> String {
    let escaped = text
        .replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;");
    let marker = " in corpus/README.md";
    let mut out = String::new();
    let mut rest = escaped.as_str();
    while let Some(at) = rest.find(marker) {
        let before = &rest[..at];
        // The reading's name, quoted just before the marker: 'Hole numbering'.
        match before
            .strip_suffix('\'')
            .and_then(|b| b.rfind('\'').map(|q| (q, &b[q + 1..])))
        {
            Some((q, name)) => {
                out.push_str(&before[..q]);
                out.push_str(&format!(
                    "‘<a href=\"/about/readings#{}\">{name}</a>’ among the archive's readings",
                    slug(name)
                ));
            }
            None => {
                out.push_str(before);
                out.push_str(" in the archive's <a href=\"/about/readings\">readings</a>");
            }
        }
        rest = &rest[at + marker.len()..];
    }
    out.push_str(rest);
    out
}

#[derive(Template)]
#[template(path = "about_numbering.html")]
struct NumberingPage {
    board_svg: Option<String>,
}

async fn numbering() -> Page {
    html(&NumberingPage {
        board_svg: super::board::start_board_svg("tsoro-matthews-basic"),
    })
}

#[derive(Template)]
#[template(path = "about_citations.html")]
struct CitationsPage {
    badges: &'static [super::words::Badge],
}

async fn citations() -> Page {
    html(&CitationsPage { badges: BADGES })
}

#[derive(Template)]
#[template(path = "about_readings.html")]
struct ReadingsPage {
    readings_html: String,
}

async fn readings() -> Page {
    html(&ReadingsPage {
        readings_html: readings_html(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_readings_have_anchors() {
        let ids = reading_ids();
        assert!(ids.contains(&"hole-numbering".to_string()), "{ids:?}");
        assert!(ids.contains(&"variant-7-s-opening".to_string()), "{ids:?}");
        assert!(ids.len() >= 15, "{ids:?}");
    }

    #[test]
    fn a_pointer_to_the_notes_becomes_a_link() {
        let h = note_html("With it reversed (see 'Hole numbering' in corpus/README.md), <b>");
        assert_eq!(
            h,
            "With it reversed (see ‘<a href=\"/about/readings#hole-numbering\">Hole \
             numbering</a>’ among the archive's readings), &lt;b&gt;"
        );
        assert!(reading_ids().contains(&"hole-numbering".to_string()));
    }
}
