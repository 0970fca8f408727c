//! How a chunk's records are stored, in one place: encoding them as a worker plays, decoding
//! them piece by piece as an export streams them, and parsing them back whole. Today a chunk
//! stores exactly the CSV lines `tsoro simulate --csv` writes for its games (no header), so
//! decoding is cutting at line ends; another encoding changes only this module.

use tsoro_engine::stats::{GameRecord, csv_line};

/// Appends one record, encoded, to a chunk's stored bytes.
pub fn encode(r: &GameRecord, out: &mut Vec<u8>) {
    csv_line::write_line(r, out)
}

/// Bytes a record takes encoded, about (to size buffers).
pub const BYTES_PER_RECORD: usize = 112;

/// A stored chunk that does not decode.
#[derive(Debug, thiserror::Error)]
pub enum DecodeError {
    /// The stored bytes end inside a record.
    #[error("a stored chunk ends inside a record ({0} bytes left over)")]
    Truncated(usize),
    /// A record does not parse.
    #[error("a stored game does not read back: {0}")]
    Parse(#[from] csv::Error),
}

impl From<DecodeError> for sqlx::Error {
    fn from(e: DecodeError) -> sqlx::Error {
        sqlx::Error::Protocol(e.to_string())
    }
}

/// Decodes a chunk's stored bytes fed in pieces of any size, as the CSV lines of its games:
/// each piece gives the whole records it completes, so an export holds one piece at a time.
#[derive(Debug, Default)]
pub struct Decoder {
    carry: Vec<u8>,
}

impl Decoder {
    /// A decoder at the start of a chunk.
    pub fn new() -> Decoder {
        Decoder::default()
    }

    /// Feeds the next piece; returns the CSV lines (each ending in `\n`) it completes.
    pub fn feed(&mut self, piece: &[u8]) -> Vec<u8> {
        match piece.iter().rposition(|&b| b == b'\n') {
            None => {
                self.carry.extend_from_slice(piece);
                Vec::new()
            }
            Some(end) => {
                let mut out = std::mem::take(&mut self.carry);
                out.extend_from_slice(&piece[..=end]);
                self.carry.extend_from_slice(&piece[end + 1..]);
                out
            }
        }
    }

    /// Ends the chunk: an error if its bytes stopped inside a record.
    pub fn finish(self) -> Result<(), DecodeError> {
        match self.carry.len() {
            0 => Ok(()),
            n => Err(DecodeError::Truncated(n)),
        }
    }
}

/// Parses CSV lines (as [`Decoder::feed`] gives them, or a whole chunk) back into records.
pub fn parse(lines: &[u8]) -> Result<Vec<GameRecord>, DecodeError> {
    Ok(csv::ReaderBuilder::new()
        .has_headers(false)
        .from_reader(lines)
        .deserialize()
        .collect::<Result<_, _>>()?)
}

/// A whole stored chunk's records.
pub fn decode_all(stored: &[u8]) -> Result<Vec<GameRecord>, DecodeError> {
    let mut d = Decoder::new();
    let lines = d.feed(stored);
    d.finish()?;
    parse(&lines)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pieces_of_any_size_give_the_whole_lines_in_order() {
        let stored = b"a,1\nbb,22\nccc,333\n";
        for size in 1..stored.len() + 2 {
            let mut d = Decoder::new();
            let mut out = Vec::new();
            for piece in stored.chunks(size) {
                let lines = d.feed(piece);
                assert!(lines.is_empty() || lines.ends_with(b"\n"));
                out.extend(lines);
            }
            d.finish().unwrap();
            assert_eq!(out, stored);
        }
        let mut d = Decoder::new();
        d.feed(b"a,1\nbb");
        assert!(matches!(d.finish(), Err(DecodeError::Truncated(2))));
    }
}
