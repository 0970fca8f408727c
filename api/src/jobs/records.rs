//! How a chunk's records are stored, in one place: encoding them as a worker plays, decoding
//! them piece by piece as an export streams them, and parsing them back whole. A chunk stores
//! its games packed ([`super::packed`]: about a sixth of the bytes of their CSV lines);
//! decoding gives exactly the CSV lines `tsoro simulate --csv` writes for its games (no header).

use super::packed::{self, Header, PackError, Packer};
use tsoro_engine::stats::{GameRecord, csv_line};

/// Encodes a chunk's records as they come, in game order.
#[derive(Debug)]
pub struct Encoder {
    labels: Option<[String; 2]>,
    packer: Packer,
}

impl Encoder {
    /// An encoder at the start of a chunk of a run with seed `seed`.
    pub fn new(seed: u64) -> Encoder {
        Encoder {
            labels: None,
            packer: Packer { seed, next: None },
        }
    }

    /// Appends one record to the chunk's stored bytes `out` (the same buffer each time);
    /// refuses a record whose agents are not those of the chunk's first.
    pub fn encode(&mut self, r: &GameRecord, out: &mut Vec<u8>) -> Result<(), PackError> {
        let seed = self.packer.seed;
        let labels = self.labels.get_or_insert_with(|| {
            let [a, b] = packed::labels_of(r);
            packed::write_header([a, b], seed, out);
            [a.to_string(), b.to_string()]
        });
        packed::pack(r, [&labels[0], &labels[1]], &mut self.packer, out)
    }
}

/// Bytes a record takes encoded, about (to size buffers).
pub const BYTES_PER_RECORD: usize = 20;

/// A stored chunk that does not decode.
#[derive(Debug, thiserror::Error)]
pub enum DecodeError {
    /// The stored bytes end inside a record.
    #[error("a stored chunk ends inside a record ({0} bytes left over)")]
    Truncated(usize),
    /// A record does not parse.
    #[error("a stored game does not read back: {0}")]
    Parse(#[from] csv::Error),
    /// A packed record does not read back.
    #[error("a stored game does not read back: {0}")]
    Packed(#[from] PackError),
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
    /// Bytes of a record (or of the header) not yet whole.
    carry: Vec<u8>,
    /// The block's header, once read.
    header: Option<Header>,
    /// The game after the previous record's.
    next: Option<u64>,
}

impl Decoder {
    /// A decoder at the start of a chunk.
    pub fn new() -> Decoder {
        Decoder::default()
    }

    /// Feeds the next piece; returns the CSV lines (each ending in `\n`) it completes.
    pub fn feed(&mut self, piece: &[u8]) -> Result<Vec<u8>, DecodeError> {
        self.carry.extend_from_slice(piece);
        let mut at = 0;
        if self.header.is_none() {
            match packed::read_header(&self.carry)? {
                None => return Ok(Vec::new()),
                Some((h, n)) => {
                    self.header = Some(h);
                    at = n;
                }
            }
        }
        let Some(header) = self.header.as_ref() else {
            return Ok(Vec::new());
        };
        let mut out = Vec::with_capacity(self.carry.len() * 6);
        while let Some((r, n)) = packed::unpack(&self.carry[at..], header, self.next)? {
            self.next = r.game.checked_add(1);
            csv_line::write_line(&r, &mut out);
            at += n;
        }
        self.carry.drain(..at);
        Ok(out)
    }

    /// Ends the chunk: an error if its bytes stopped inside a record (or a header).
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
    let lines = d.feed(stored)?;
    d.finish()?;
    parse(&lines)
}
