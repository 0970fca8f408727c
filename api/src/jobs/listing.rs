//! What a list of runs asks for, the same for every kind (`GET /api/v1/{kind}` and the
//! `/runs` page): whose, in which status, of which ruleset, how many, and from where (a
//! cursor: the last item of the page before, newest first).

use super::status::JobStatus;
use chrono::{DateTime, Utc};
use serde::Serialize;
use utoipa::ToSchema;
use uuid::Uuid;

/// Where a list goes on: after the item created at `created_at` with id `id` (lists are
/// newest first, ties by id), written as `MICROSECONDS_UUID` (PostgreSQL keeps times to the
/// microsecond, so the cursor names the item exactly).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cursor {
    /// When the last item listed was made.
    pub created_at: DateTime<Utc>,
    /// Its id.
    pub id: Uuid,
}

impl Cursor {
    /// The cursor after an item.
    pub fn after(created_at: DateTime<Utc>, id: Uuid) -> Cursor {
        Cursor { created_at, id }
    }

    /// As a query parameter takes it.
    pub fn encode(&self) -> String {
        format!("{}_{}", self.created_at.timestamp_micros(), self.id)
    }

    /// A cursor [`Cursor::encode`] wrote, or None.
    pub fn parse(s: &str) -> Option<Cursor> {
        let (micros, id) = s.split_once('_')?;
        Some(Cursor {
            created_at: DateTime::from_timestamp_micros(micros.parse().ok()?)?,
            id: id.parse().ok()?,
        })
    }
}

/// The most items one page of a list holds, and how many when not asked.
pub const MAX_LIMIT: i64 = 500;
/// How many items a page holds when not asked.
pub const DEFAULT_LIMIT: i64 = 50;

/// The form of a ruleset id (the `ruleset` filter's schema states the same pattern).
pub const RULESET_ID_PATTERN: &str = "^[a-z0-9][a-z0-9-]*$";

/// Whether `s` has the form of a ruleset id ([`RULESET_ID_PATTERN`]).
pub fn is_ruleset_id(s: &str) -> bool {
    s.bytes()
        .next()
        .is_some_and(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
        && s.bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
}

/// Which runs a list holds.
#[derive(Clone, Debug)]
pub struct Filter {
    /// Only this owner's (a token's name); None: everyone's.
    pub owner: Option<String>,
    /// Only those in this status.
    pub status: Option<JobStatus>,
    /// Only those of this ruleset (a comparison: one of its runs').
    pub ruleset: Option<String>,
    /// Only those made before this item.
    pub after: Option<Cursor>,
    /// At most this many (1 to [`MAX_LIMIT`]).
    pub limit: i64,
}

impl Default for Filter {
    fn default() -> Filter {
        Filter {
            owner: None,
            status: None,
            ruleset: None,
            after: None,
            limit: DEFAULT_LIMIT,
        }
    }
}

/// One page of a list, newest first, and where the next begins.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct Listed<T> {
    /// The items.
    pub items: Vec<T>,
    /// The cursor of the next page (pass it as `after`); absent on the last page.
    pub next: Option<String>,
}

impl<T> Listed<T> {
    /// A page of `items` asked for with `limit`, the last of them at `last`: a next page's
    /// cursor when it is full.
    pub fn new(items: Vec<T>, limit: i64, last: Option<Cursor>) -> Listed<T> {
        let next = (items.len() as i64 >= limit)
            .then(|| last.map(|c| c.encode()))
            .flatten();
        Listed { items, next }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cursor_reads_back_to_the_microsecond() {
        let t = DateTime::from_timestamp_micros(1_780_000_000_123_456).unwrap();
        let c = Cursor::after(t, Uuid::new_v4());
        assert_eq!(Cursor::parse(&c.encode()), Some(c));
        assert_eq!(Cursor::parse("12_notauuid"), None);
        assert_eq!(Cursor::parse("x"), None);
    }
}
