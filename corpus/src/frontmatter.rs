//! Markdown files with TOML front matter between `+++` lines.

use crate::error::CorpusError;
use serde::de::DeserializeOwned;

/// A record file split into its front matter (parsed) and its Markdown body.
pub struct Document<T> {
    /// The parsed front matter.
    pub meta: T,
    /// The Markdown body (the project's own prose).
    pub body: String,
}

/// Parses `text` of `file`: errors name the file and the line.
pub fn parse<T: DeserializeOwned>(file: &str, text: &str) -> Result<Document<T>, CorpusError> {
    let mut lines = text.split_inclusive('\n');
    let first = lines.next().unwrap_or_default();
    if first.trim_end() != "+++" {
        return Err(CorpusError::at(
            file,
            1,
            "a record starts with a `+++` line (TOML front matter)",
        ));
    }
    let start = first.len();
    let mut end = None;
    let mut offset = start;
    for l in lines {
        if l.trim_end() == "+++" {
            end = Some(offset);
            break;
        }
        offset += l.len();
    }
    let Some(end) = end else {
        return Err(CorpusError::at(
            file,
            1,
            "the front matter is not closed by a `+++` line",
        ));
    };
    let front = &text[start..end];
    let meta: T = toml::from_str(front).map_err(|e| {
        let line = e
            .span()
            .map(|s| 2 + front[..s.start.min(front.len())].matches('\n').count())
            .unwrap_or(1);
        CorpusError::at(file, line, e.message().to_string())
    })?;
    let rest = &text[end..];
    let body = rest
        .split_once('\n')
        .map(|(_, b)| b)
        .unwrap_or("")
        .trim()
        .to_string();
    Ok(Document { meta, body })
}

/// The 1-based line of the first line of `needle` (e.g. `id = "x"`) in `text`, for messages.
pub fn line_of(text: &str, needle: &str) -> usize {
    text.lines()
        .position(|l| l.contains(needle))
        .map(|i| i + 1)
        .unwrap_or(1)
}
