//! A quotation for readers: the verbatim words of an evidence record, paragraph by paragraph,
//! with each picture the source had shown once as its caption and "[diagram not reproduced]".
//!
//! The held witnesses keep a picture as its caption on a line of its own, often twice (the
//! caption and the image's alternative text: "Diagram B\nDiagram B"), or as a caption such as
//! "Initial Position". The record keeps those lines verbatim (the quotation is checked against
//! the witness); the reader sees the picture's place once.

/// What a source had where it showed a picture.
pub const NOT_REPRODUCED: &str = "[diagram not reproduced]";

/// A paragraph of a quotation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Para {
    /// Words, lines joined by spaces.
    Text(String),
    /// A picture of the source, by its caption (`Diagram B`).
    Picture(String),
}

/// Whether a line is a picture's caption in the held witnesses: `Diagram X` (Matthews' lettered
/// diagrams) or Mancala World's `Initial Position`.
fn is_caption(line: &str) -> bool {
    let line = line.trim();
    if line == "Initial Position" {
        return true;
    }
    line.strip_prefix("Diagram ")
        .is_some_and(|rest| rest.len() <= 2 && rest.chars().all(|c| c.is_ascii_alphanumeric()))
}

/// The paragraphs of a quotation: blank lines part them; a paragraph whose lines are all one
/// picture's caption is that picture, once.
pub fn paragraphs(quote: &str) -> Vec<Para> {
    quote
        .split("\n\n")
        .map(str::trim)
        .filter(|p| !p.is_empty())
        .map(|p| {
            let lines: Vec<&str> = p.lines().map(str::trim).filter(|l| !l.is_empty()).collect();
            if lines.iter().all(|l| is_caption(l) && *l == lines[0]) {
                Para::Picture(lines[0].to_string())
            } else {
                Para::Text(lines.join(" "))
            }
        })
        .collect()
}

/// The quotation as one line of text (`… as follows: Diagram B [diagram not reproduced] The
/// normal basic rules …`), for excerpts.
pub fn plain(quote: &str) -> String {
    paragraphs(quote)
        .into_iter()
        .map(|p| match p {
            Para::Text(t) => t,
            Para::Picture(c) => format!("{c} {NOT_REPRODUCED}"),
        })
        .collect::<Vec<_>>()
        .join(" ")
}

fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// The quotation as HTML ([`html`]) with each corrupt passage of the transcription marked:
/// `<span class="sic" title="READING">words</span> <span class="sic-mark">[sic]</span>`, the
/// archive's reading in the title (and listed beside the quotation by the page). `marks` are
/// (words as the witness has them, the archive's reading); words a paragraph break splits are
/// left unmarked.
pub fn html_marked(quote: &str, marks: &[(&str, &str)]) -> String {
    let mut out = html(quote);
    for (text, reading) in marks {
        let words = escape(&text.split_whitespace().collect::<Vec<_>>().join(" "));
        if words.is_empty() {
            continue;
        }
        let marked = format!(
            "<span class=\"sic\" title=\"{}\">{words}</span> <span class=\"sic-mark\">[sic]</span>",
            escape(reading)
        );
        out = out.replacen(&words, &marked, 1);
    }
    out
}

/// The quotation as HTML: one `<blockquote>` of paragraphs (the words escaped, never read as
/// Markdown), a picture as `<p class="picture">Diagram B <span class="not-reproduced">[diagram
/// not reproduced]</span></p>`.
pub fn html(quote: &str) -> String {
    let mut out = String::from("<blockquote>");
    for p in paragraphs(quote) {
        match p {
            Para::Text(t) => {
                out.push_str("<p>");
                out.push_str(&escape(&t));
                out.push_str("</p>");
            }
            Para::Picture(c) => {
                out.push_str("<p class=\"picture\">");
                out.push_str(&escape(&c));
                out.push_str(" <span class=\"not-reproduced\">");
                out.push_str(NOT_REPRODUCED);
                out.push_str("</span></p>");
            }
        }
    }
    out.push_str("</blockquote>");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_doubled_caption_is_one_picture() {
        let q = "The stones are set out as follows:\n\nDiagram B\nDiagram B\n\nThe normal <basic> rules.";
        assert_eq!(
            paragraphs(q),
            vec![
                Para::Text("The stones are set out as follows:".into()),
                Para::Picture("Diagram B".into()),
                Para::Text("The normal <basic> rules.".into()),
            ]
        );
        let h = html(q);
        assert_eq!(h.matches("Diagram B").count(), 1);
        assert_eq!(h.matches("<blockquote>").count(), 1);
        assert!(h.contains("[diagram not reproduced]"));
        assert!(h.contains("&lt;basic&gt;"));
        assert_eq!(
            plain(q),
            "The stones are set out as follows: Diagram B [diagram not reproduced] The normal \
             <basic> rules."
        );
    }

    #[test]
    fn corrupt_words_are_marked_sic_with_the_reading() {
        let q = "he takes, if in\noppositioli, the men";
        let h = html_marked(q, &[("in\noppositioli", "in opposition")]);
        assert!(
            h.contains(
                "<span class=\"sic\" title=\"in opposition\">in oppositioli</span> \
                 <span class=\"sic-mark\">[sic]</span>"
            ),
            "{h}"
        );
        assert_eq!(html_marked(q, &[]), html(q));
    }

    #[test]
    fn words_that_mention_a_diagram_stay_words() {
        let q =
            "The two rightmost holes (marked in the diagram below) are heads.\nDiagram B is lost.";
        assert_eq!(paragraphs(q), vec![Para::Text(q.replace('\n', " "))]);
    }
}
