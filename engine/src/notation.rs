//! Board notation for four-row boards: rows `i`..`iv` and holes `ROW,HOLE`.
//!
//! Rows as Matthews names them: `i` (A's back row), `ii` (A's front row), `iii` (B's front row),
//! `iv` (B's back row). Holes are numbered 1..N from left to right as player A sees the board,
//! the same numbering in all four rows, so `ii,3` faces `iii,3` and `iv,3`.

use crate::player::Player;

use std::fmt;
use std::str::FromStr;
use thiserror::Error;

/// Largest number of holes in a row.
pub const MAX_HOLES: usize = 21;
/// Largest number of holes on one side (two rows).
pub const MAX_SIDE: usize = 2 * MAX_HOLES;
/// Storage per side: [`MAX_SIDE`] rounded up to whole 64-bit words (the tail stays empty).
pub const SIDE_CAP: usize = 48;

/// Serializes a type as its `Display` text and reads it back with `FromStr`.
macro_rules! string_serde {
    ($t:ty) => {
        impl serde::Serialize for $t {
            fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.collect_str(self)
            }
        }

        impl<'de> serde::Deserialize<'de> for $t {
            fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                let s = <String as serde::Deserialize>::deserialize(d)?;
                s.parse().map_err(serde::de::Error::custom)
            }
        }
    };
}
pub(crate) use string_serde;

/// One of the four rows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Row {
    /// A's back row.
    I,
    /// A's front row.
    Ii,
    /// B's front row.
    Iii,
    /// B's back row.
    Iv,
}

impl Row {
    /// The four rows in order i, ii, iii, iv.
    pub const ALL: [Row; 4] = [Row::I, Row::Ii, Row::Iii, Row::Iv];

    /// The owner of the row.
    pub const fn owner(self) -> Player {
        match self {
            Row::I | Row::Ii => Player::A,
            Row::Iii | Row::Iv => Player::B,
        }
    }

    /// Whether this is a front (inner) row.
    pub const fn is_front(self) -> bool {
        matches!(self, Row::Ii | Row::Iii)
    }

    /// The row's name: `i`, `ii`, `iii` or `iv`.
    pub const fn name(self) -> &'static str {
        match self {
            Row::I => "i",
            Row::Ii => "ii",
            Row::Iii => "iii",
            Row::Iv => "iv",
        }
    }

    /// The back row of a player.
    pub const fn back(p: Player) -> Row {
        match p {
            Player::A => Row::I,
            Player::B => Row::Iv,
        }
    }

    /// The front row of a player.
    pub const fn front(p: Player) -> Row {
        match p {
            Player::A => Row::Ii,
            Player::B => Row::Iii,
        }
    }
}

impl FromStr for Row {
    type Err = NotationError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.trim().to_ascii_lowercase().as_str() {
            "i" => Ok(Row::I),
            "ii" => Ok(Row::Ii),
            "iii" => Ok(Row::Iii),
            "iv" => Ok(Row::Iv),
            _ => Err(NotationError::Row(s.to_string())),
        }
    }
}

impl fmt::Display for Row {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Errors in reading a hole or row.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum NotationError {
    /// Not one of i, ii, iii, iv.
    #[error("unknown row {0:?}: rows are i, ii, iii, iv")]
    Row(String),
    /// Not of the form `ROW,HOLE`.
    #[error("malformed hole {0:?}: write ROW,HOLE, e.g. \"ii,3\"")]
    Malformed(String),
    /// The hole number is outside 1..=N.
    #[error("hole {hole} is off the board: holes are numbered 1 to {holes}")]
    OffBoard {
        /// The hole as written.
        hole: String,
        /// Holes per row.
        holes: u8,
    },
}

/// A hole of a four-row board, written `ROW,HOLE` (e.g. `ii,3`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Hole {
    /// The row.
    pub row: Row,
    /// The hole number, 1-based from A's left.
    pub num: u8,
}

impl Hole {
    /// A hole; `num` is 1-based.
    pub const fn new(row: Row, num: u8) -> Hole {
        Hole { row, num }
    }

    /// Checks that the hole lies on a board with `holes` holes per row.
    pub fn check(self, holes: u8) -> Result<Hole, NotationError> {
        if self.num == 0 || self.num > holes {
            return Err(NotationError::OffBoard {
                hole: self.to_string(),
                holes,
            });
        }
        Ok(self)
    }

    /// The owner of the hole.
    pub const fn owner(self) -> Player {
        self.row.owner()
    }

    /// The hole's index on its owner's sowing cycle (0 = first hole of the back row, in sowing
    /// order; the front row follows). `n` is the number of holes per row.
    #[inline]
    pub const fn track(self, n: u8) -> usize {
        let n = n as usize;
        let h = self.num as usize;
        match self.row {
            Row::I => h - 1,
            Row::Ii => 2 * n - h,
            Row::Iv => n - h,
            Row::Iii => n + h - 1,
        }
    }

    /// The hole at index `k` of player `p`'s sowing cycle on a board of `n` holes per row.
    #[inline]
    pub const fn from_track(p: Player, k: usize, n: u8) -> Hole {
        let n = n as usize;
        let (row, num) = match (p, k < n) {
            (Player::A, true) => (Row::I, k + 1),
            (Player::A, false) => (Row::Ii, 2 * n - k),
            (Player::B, true) => (Row::Iv, n - k),
            (Player::B, false) => (Row::Iii, k - n + 1),
        };
        Hole {
            row,
            num: num as u8,
        }
    }

    /// The hole a half turn of the board maps this one to: A's (i,h) to B's (iv,N+1-h) and
    /// (ii,h) to (iii,N+1-h), and back.
    pub const fn rotate(self, n: u8) -> Hole {
        let row = match self.row {
            Row::I => Row::Iv,
            Row::Ii => Row::Iii,
            Row::Iii => Row::Ii,
            Row::Iv => Row::I,
        };
        Hole {
            row,
            num: n + 1 - self.num,
        }
    }
}

impl FromStr for Hole {
    type Err = NotationError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let (r, h) = s
            .split_once(',')
            .ok_or_else(|| NotationError::Malformed(s.to_string()))?;
        let row = r.parse()?;
        let num: u8 = h
            .trim()
            .parse()
            .map_err(|_| NotationError::Malformed(s.to_string()))?;
        if num == 0 {
            return Err(NotationError::Malformed(s.to_string()));
        }
        Ok(Hole { row, num })
    }
}

impl fmt::Display for Hole {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{},{}", self.row, self.num)
    }
}

string_serde!(Hole);

/// A hole named in a ruleset configuration, relative to the board size: `i,3`, `i,N`, `ii,N-2`.
/// Always written for player A's side (rows i and ii) unless the context says otherwise; B's is
/// its half-turn image.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct HoleSpec {
    /// The row.
    pub row: Row,
    /// The hole: counted from the left (`k`) or from the right end (`N-k`).
    pub pos: HolePos,
}

/// Where a [`HoleSpec`] lies along its row.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum HolePos {
    /// Hole number `k` from A's left.
    Left(u8),
    /// Hole `N-k`.
    FromRight(u8),
}

impl HoleSpec {
    /// Resolves the spec on a board of `n` holes per row.
    pub fn resolve(self, n: u8) -> Result<Hole, NotationError> {
        let num = match self.pos {
            HolePos::Left(k) => k as i32,
            HolePos::FromRight(k) => n as i32 - k as i32,
        };
        if num < 1 || num > n as i32 {
            return Err(NotationError::OffBoard {
                hole: self.to_string(),
                holes: n,
            });
        }
        Ok(Hole::new(self.row, num as u8))
    }
}

impl FromStr for HoleSpec {
    type Err = NotationError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let (r, h) = s
            .split_once(',')
            .ok_or_else(|| NotationError::Malformed(s.to_string()))?;
        let row = r.parse()?;
        let h = h.trim();
        let bad = || NotationError::Malformed(s.to_string());
        let pos = if let Some(rest) = h.strip_prefix('N') {
            let rest = rest.trim();
            if rest.is_empty() {
                HolePos::FromRight(0)
            } else {
                let k = rest.strip_prefix('-').ok_or_else(bad)?;
                HolePos::FromRight(k.trim().parse().map_err(|_| bad())?)
            }
        } else {
            let k: u8 = h.parse().map_err(|_| bad())?;
            if k == 0 {
                return Err(bad());
            }
            HolePos::Left(k)
        };
        Ok(HoleSpec { row, pos })
    }
}

impl fmt::Display for HoleSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.pos {
            HolePos::Left(k) => write!(f, "{},{}", self.row, k),
            HolePos::FromRight(0) => write!(f, "{},N", self.row),
            HolePos::FromRight(k) => write!(f, "{},N-{}", self.row, k),
        }
    }
}

string_serde!(HoleSpec);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_and_print() {
        let h: Hole = "ii,3".parse().unwrap();
        assert_eq!(h, Hole::new(Row::Ii, 3));
        assert_eq!(h.to_string(), "ii,3");
        assert!("v,3".parse::<Hole>().is_err());
        assert!("ii;3".parse::<Hole>().is_err());
        assert!("ii,0".parse::<Hole>().is_err());
        assert!(Hole::new(Row::I, 9).check(8).is_err());
    }

    #[test]
    fn track_round_trip_and_sowing_order() {
        for n in 6..=21u8 {
            for p in Player::BOTH {
                for k in 0..2 * n as usize {
                    let h = Hole::from_track(p, k, n);
                    assert_eq!(h.owner(), p);
                    assert_eq!(h.track(n), k);
                }
            }
        }
        // A sows i,1 -> i,N, then ii,N -> ii,1; B sows iii,1 -> iii,N, then iv,N -> iv,1.
        let n = 8;
        let a: Vec<String> = (0..16)
            .map(|k| Hole::from_track(Player::A, k, n).to_string())
            .collect();
        assert_eq!(a[0], "i,1");
        assert_eq!(a[7], "i,8");
        assert_eq!(a[8], "ii,8");
        assert_eq!(a[15], "ii,1");
        let b: Vec<String> = (0..16)
            .map(|k| Hole::from_track(Player::B, k, n).to_string())
            .collect();
        assert_eq!(b[0], "iv,8");
        assert_eq!(b[7], "iv,1");
        assert_eq!(b[8], "iii,1");
        assert_eq!(b[15], "iii,8");
    }

    #[test]
    fn half_turn_maps_tracks_onto_each_other() {
        for n in 6..=21u8 {
            for k in 0..2 * n as usize {
                let a = Hole::from_track(Player::A, k, n);
                let b = Hole::from_track(Player::B, k, n);
                assert_eq!(a.rotate(n), b);
                assert_eq!(b.rotate(n), a);
            }
        }
    }

    #[test]
    fn hole_specs() {
        let s: HoleSpec = "i,N-1".parse().unwrap();
        assert_eq!(s.resolve(8).unwrap(), Hole::new(Row::I, 7));
        assert_eq!(
            "ii,N".parse::<HoleSpec>().unwrap().resolve(8).unwrap(),
            Hole::new(Row::Ii, 8)
        );
        assert_eq!(s.to_string(), "i,N-1");
        assert!("i,N-9".parse::<HoleSpec>().unwrap().resolve(8).is_err());
    }
}
