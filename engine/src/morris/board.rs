//! The boards of the line games: their points, named like chess squares, and their lines.
//!
//! Points are named by column letter and row number on a grid drawn over the board, so a name
//! means the same place whichever game is played on it.
//!
//! **Tsoro yemutwelve / Dig Dig** (`twelve`): three concentric squares, their midpoints joined,
//! and the corners joined by diagonals (Matthews' Diagram C is missing from the text: this is
//! the usual reading, and Ludii's). 24 points, 20 lines of three.
//!
//! ```text
//! 7  a7-----------d7-----------g7
//!    |  \         |         /  |
//! 6  |   b6-------d6-------f6  |
//!    |   |  \     |     /  |   |
//! 5  |   |   c5---d5---e5  |   |
//!    |   |   |         |   |   |
//! 4  a4--b4--c4        e4--f4--g4
//!    |   |   |         |   |   |
//! 3  |   |   c3---d3---e3  |   |
//!    |   |  /     |     \  |   |
//! 2  |   b2-------d2-------f2  |
//!    |  /         |         \  |
//! 1  a1-----------d1-----------g1
//!    a   b   c    d    e   f   g
//! ```
//!
//! **Tsoro yemutatu, board A** (`square`): a square of 3x3 points with its diagonals. 9 points,
//! 8 lines (3 rows, 3 columns, 2 diagonals).
//!
//! ```text
//! 3  a3--b3--c3
//!    | \ | / |
//! 2  a2--b2--c2
//!    | / | \ |
//! 1  a1--b1--c1
//!    a   b   c
//! ```
//!
//! Without the diagonals (`square_plain`, a reading of the lost Diagram D offered as a
//! parameter): 9 points, 6 lines.
//!
//! **Tsoro yemutatu, board B** (`triangle`, a reconstruction of Matthews' missing Diagram D, and
//! the board of Ludii's Tsoro Yemutatu (Triangle).lud): a triangle divided by its median and by
//! a line parallel to its base through the midpoints of its sides. 7 points (the apex, three on
//! the middle line, three on the base), 5 lines. The point order (a1, c1, e1, b2, c2, d2, c3)
//! is Ludii's site order; so is the square's (a1, b1, c1, a2, ... c3).
//!
//! ```text
//! 3          c3
//!           / | \
//! 2       b2--c2--d2
//!        /    |    \
//! 1    a1-----c1-----e1
//!      a   b  c  d   e
//! ```

use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// Most points a board of the engine has.
pub const MAX_POINTS: usize = 32;

/// A point of a line-game board, named by column letter and row number (`d5`). Stored as
/// `column * 8 + row` with both counted from 0.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

impl Square {
    /// The point at column `col` (0 = `a`) and row `row` (0 = `1`), both below 8.
    pub const fn new(col: u8, row: u8) -> Square {
        Square((col & 7) * 8 + (row & 7))
    }
    /// Column, 0 for `a`.
    pub const fn col(self) -> u8 {
        self.0 / 8
    }
    /// Row, 0 for `1`.
    pub const fn row(self) -> u8 {
        self.0 % 8
    }
    /// The code `column * 8 + row`, below 64.
    pub const fn code(self) -> usize {
        self.0 as usize
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.col()) as char, self.row() + 1)
    }
}

/// A point name that is not of the form letter + digit (`a1` to `h8`).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0:?} is not a point: write a column letter and a row number, like \"d5\"")]
pub struct BadSquare(pub String);

impl FromStr for Square {
    type Err = BadSquare;
    fn from_str(s: &str) -> Result<Square, BadSquare> {
        let b = s.trim().as_bytes();
        match b {
            [c @ b'a'..=b'h', r @ b'1'..=b'8'] => Ok(Square::new(c - b'a', r - b'1')),
            _ => Err(BadSquare(s.to_string())),
        }
    }
}

crate::notation::string_serde!(Square);

/// The boards the engine knows.
#[cfg_attr(feature = "arbitrary", derive(proptest_derive::Arbitrary))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BoardKind {
    /// Three concentric squares, midpoints joined, corners joined by diagonals: 24 points.
    Twelve,
    /// 3x3 points with both diagonals: 9 points.
    Square,
    /// 3x3 points without diagonals (rows and columns only): 9 points.
    SquarePlain,
    /// A triangle divided by its median and a line parallel to its base: 7 points.
    Triangle,
}

/// A board: its points, which are next to which, and its lines of three.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Board {
    /// Which board.
    pub kind: BoardKind,
    /// The points, in index order (bit `i` of a mask is `points[i]`).
    pub points: Vec<Square>,
    /// Index of each square code, or `u8::MAX` when the square is not on the board.
    index: [u8; 64],
    /// Neighbours of each point along a line, as masks.
    pub adjacent: Vec<u32>,
    /// Every line of three, as masks.
    pub lines: Vec<u32>,
    /// The lines through each point.
    pub lines_through: Vec<Vec<u32>>,
}

/// The 3x3 square's points.
const SQUARE_POINTS: [&str; 9] = ["a1", "b1", "c1", "a2", "b2", "c2", "a3", "b3", "c3"];
/// Its lines: rows and columns, then the two diagonals.
const SQUARE_LINES: [[&str; 3]; 8] = [
    ["a1", "b1", "c1"],
    ["a2", "b2", "c2"],
    ["a3", "b3", "c3"],
    ["a1", "a2", "a3"],
    ["b1", "b2", "b3"],
    ["c1", "c2", "c3"],
    ["a1", "b2", "c3"],
    ["c1", "b2", "a3"],
];

fn sq(name: &str) -> Square {
    name.parse().expect("board tables name valid squares")
}

impl Board {
    /// Builds the board's tables.
    pub fn new(kind: BoardKind) -> Board {
        let (points, lines): (&[&str], &[[&str; 3]]) = match kind {
            BoardKind::Twelve => (
                &[
                    "a1", "d1", "g1", "b2", "d2", "f2", "c3", "d3", "e3", "a4", "b4", "c4", "e4",
                    "f4", "g4", "c5", "d5", "e5", "b6", "d6", "f6", "a7", "d7", "g7",
                ],
                &[
                    // The sides of the three squares.
                    ["a1", "d1", "g1"],
                    ["g1", "g4", "g7"],
                    ["a7", "d7", "g7"],
                    ["a1", "a4", "a7"],
                    ["b2", "d2", "f2"],
                    ["f2", "f4", "f6"],
                    ["b6", "d6", "f6"],
                    ["b2", "b4", "b6"],
                    ["c3", "d3", "e3"],
                    ["e3", "e4", "e5"],
                    ["c5", "d5", "e5"],
                    ["c3", "c4", "c5"],
                    // The midpoints joined.
                    ["d1", "d2", "d3"],
                    ["g4", "f4", "e4"],
                    ["d7", "d6", "d5"],
                    ["a4", "b4", "c4"],
                    // The corners joined.
                    ["a1", "b2", "c3"],
                    ["g1", "f2", "e3"],
                    ["g7", "f6", "e5"],
                    ["a7", "b6", "c5"],
                ],
            ),
            BoardKind::Square => (&SQUARE_POINTS, &SQUARE_LINES),
            BoardKind::SquarePlain => (&SQUARE_POINTS, &SQUARE_LINES[..6]),
            BoardKind::Triangle => (
                &["a1", "c1", "e1", "b2", "c2", "d2", "c3"],
                &[
                    ["a1", "c1", "e1"],
                    ["b2", "c2", "d2"],
                    ["c3", "b2", "a1"],
                    ["c3", "c2", "c1"],
                    ["c3", "d2", "e1"],
                ],
            ),
        };
        let points: Vec<Square> = points.iter().map(|p| sq(p)).collect();
        let mut index = [u8::MAX; 64];
        for (i, p) in points.iter().enumerate() {
            index[p.code()] = i as u8;
        }
        let bit = |name: &str| 1u32 << index[sq(name).code()];
        let mut adjacent = vec![0u32; points.len()];
        let mut masks = Vec::new();
        for [x, y, z] in lines {
            let (x, y, z) = (bit(x), bit(y), bit(z));
            masks.push(x | y | z);
            for (p, q) in [(x, y), (y, z)] {
                adjacent[p.trailing_zeros() as usize] |= q;
                adjacent[q.trailing_zeros() as usize] |= p;
            }
        }
        let lines_through = (0..points.len())
            .map(|i| {
                masks
                    .iter()
                    .copied()
                    .filter(|m| m & (1 << i) != 0)
                    .collect()
            })
            .collect();
        Board {
            kind,
            points,
            index,
            adjacent,
            lines: masks,
            lines_through,
        }
    }

    /// Number of points.
    pub fn len(&self) -> usize {
        self.points.len()
    }

    /// Whether the board has no points (never).
    pub fn is_empty(&self) -> bool {
        self.points.is_empty()
    }

    /// Mask of every point.
    pub fn all(&self) -> u32 {
        if self.points.len() == 32 {
            u32::MAX
        } else {
            (1u32 << self.points.len()) - 1
        }
    }

    /// The index of a square, if it is a point of this board.
    pub fn index_of(&self, s: Square) -> Option<usize> {
        match self.index[s.code()] {
            u8::MAX => None,
            i => Some(i as usize),
        }
    }

    /// The square of a point index.
    pub fn square(&self, i: usize) -> Square {
        self.points[i]
    }

    /// The points of `stones` that lie in a whole line of `stones`.
    pub fn in_lines(&self, stones: u32) -> u32 {
        self.lines
            .iter()
            .filter(|&&l| stones & l == l)
            .fold(0, |acc, l| acc | l)
    }

    /// The squares of a mask, in index order.
    pub fn squares(&self, mask: u32) -> impl Iterator<Item = Square> + '_ {
        bits(mask).map(|i| self.points[i])
    }
}

/// The indices of the set bits of a mask, lowest first.
pub fn bits(mut m: u32) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        if m == 0 {
            None
        } else {
            let i = m.trailing_zeros() as usize;
            m &= m - 1;
            Some(i)
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn boards_have_the_documented_points_and_lines() {
        for (kind, points, lines, edges) in [
            (BoardKind::Twelve, 24, 20, 40),
            (BoardKind::Square, 9, 8, 16),
            (BoardKind::Triangle, 7, 5, 10),
        ] {
            let b = Board::new(kind);
            assert_eq!(b.len(), points, "{kind:?}");
            assert_eq!(b.lines.len(), lines, "{kind:?}");
            let degree: u32 = b.adjacent.iter().map(|m| m.count_ones()).sum();
            assert_eq!(degree, 2 * edges, "{kind:?}");
            for l in &b.lines {
                assert_eq!(l.count_ones(), 3);
            }
        }
    }

    #[test]
    fn squares_read_and_write() {
        assert_eq!("d5".parse::<Square>().unwrap().to_string(), "d5");
        assert!("d0".parse::<Square>().is_err());
        assert!("i1".parse::<Square>().is_err());
        let b = Board::new(BoardKind::Twelve);
        assert_eq!(b.index_of("d4".parse().unwrap()), None);
        assert_eq!(b.index_of("g7".parse().unwrap()), Some(23));
    }
}
