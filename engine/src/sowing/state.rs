//! The state of a four-row sowing game: a plain value, cloned, hashed and serialized.

use crate::notation::{Hole, Row, SIDE_CAP};
use crate::outcome::Outcome;
use crate::player::Player;
use serde::Serialize;
use std::collections::BTreeMap;

/// Where a player stands in a stylised opening.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Open {
    /// Ordinary play.
    Done,
    /// The first move is forced from this track index.
    Forced,
    /// Sanderson's gambit: marching the pair.
    Pairs,
    /// Sanderson's gambit: spreading the reserve.
    Spread,
    /// Sanderson's one-counter start.
    OneCounter,
    /// Ludii's Tsoro (Baia): the first turn.
    LudiiBaiaFirst,
    /// Ludii's Njombwa (One Counter): the relay from the end of the back row.
    LudiiEndRelay,
    /// Ludii's Njombwa (One Counter): the pair moved into the end hole.
    LudiiEndPair,
    /// Ludii's Njombwa (One Counter): the front-row pair removed.
    LudiiRemovePair,
    /// Ludii's Njombwa phase Opening1.
    LudiiPairs,
    /// Ludii's Njombwa phase Opening2.
    LudiiSpread,
}

/// What the player to move is deciding.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Pending {
    /// The start of a turn (sow, nominate or pass).
    Start,
    /// The last stone fell in an occupied head at this track index: stop or continue.
    Relay { pos: u8, capture: bool },
    /// Additional takes still due.
    Takes { left: u8 },
}

/// A position of a four-row sowing game.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct SowingState {
    /// Stones per hole, per player, in that player's sowing order.
    pub(crate) pits: [[u8; SIDE_CAP]; 2],
    /// Heads per player, as bits of track indices.
    pub(crate) heads: [u64; 2],
    /// Stones on each side.
    pub(crate) stones: [u16; 2],
    /// Stones each player has taken off the board.
    pub(crate) captured: [u16; 2],
    /// Stones the rules removed from the board otherwise (njombwa's one-counter start).
    pub(crate) discarded: u16,
    /// Captures made by each player (for take schedules).
    pub(crate) captures_made: [u16; 2],
    pub(crate) to_move: Player,
    pub(crate) pending: Pending,
    pub(crate) open: [Open; 2],
    pub(crate) nominations_left: [u8; 2],
    pub(crate) turns: u32,
    pub(crate) moves: u32,
    pub(crate) passes: u8,
    /// Takes owed, one count for both players (`takes.shared`): they pass to the next turn.
    pub(crate) owed: u8,
    /// The turn began with takes owed and no move has been made yet (`takes.shared`).
    pub(crate) carried: bool,
    pub(crate) outcome: Option<Outcome>,
    pub(crate) n: u8,
    /// The ordinary sowing moves of the player to move (bits of track indices), computed when
    /// the turn begins; zero outside ordinary play.
    pub(crate) mask: u64,
}

/// The four rows of a board, each hole 1..N from A's left.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct BoardView {
    /// A's back row.
    pub i: Vec<u8>,
    /// A's front row.
    pub ii: Vec<u8>,
    /// B's front row.
    pub iii: Vec<u8>,
    /// B's back row.
    pub iv: Vec<u8>,
}

impl SowingState {
    /// Holes per row.
    pub fn holes(&self) -> u8 {
        self.n
    }

    /// Stones in a hole.
    pub fn count(&self, h: Hole) -> u8 {
        self.pits[h.owner().index()][h.track(self.n)]
    }

    /// Stones on a player's side.
    pub fn stones(&self, p: Player) -> u32 {
        self.stones[p.index()] as u32
    }

    /// Stones a player has taken off the board.
    pub fn captured(&self, p: Player) -> u32 {
        self.captured[p.index()] as u32
    }

    /// Stones removed from the board by the rules themselves (not by a capture).
    pub fn discarded(&self) -> u32 {
        self.discarded as u32
    }

    /// The player to move, or `None` when the game is over.
    pub fn to_move(&self) -> Option<Player> {
        if self.outcome.is_some() {
            None
        } else {
            Some(self.to_move)
        }
    }

    /// The result, once the game is over.
    pub fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }

    /// Completed turns.
    pub fn turns(&self) -> u32 {
        self.turns
    }

    /// Moves as Ludii counts them (each lap, take, stop, nomination and pass).
    pub fn moves(&self) -> u32 {
        self.moves
    }

    /// The heads of a player.
    pub fn heads(&self, p: Player) -> Vec<Hole> {
        (0..2 * self.n as usize)
            .filter(|k| self.heads[p.index()] >> k & 1 == 1)
            .map(|k| Hole::from_track(p, k, self.n))
            .collect()
    }

    /// The board as four rows.
    pub fn board(&self) -> BoardView {
        let row = |r: Row| -> Vec<u8> {
            (1..=self.n)
                .map(|num| self.count(Hole::new(r, num)))
                .collect()
        };
        BoardView {
            i: row(Row::I),
            ii: row(Row::Ii),
            iii: row(Row::Iii),
            iv: row(Row::Iv),
        }
    }

    /// A 64-bit key of everything the state holds (for transposition tables,
    /// [`Game::position_key`](crate::Game::position_key)), read as whole words.
    #[inline]
    pub fn key(&self) -> u64 {
        const W: usize = SIDE_CAP / 8;
        let mut w = [0u64; 2 * W + 9];
        for (p, side) in self.pits.iter().enumerate() {
            for (i, c) in side.chunks_exact(8).enumerate() {
                let mut b = [0u8; 8];
                b.copy_from_slice(c);
                w[p * W + i] = u64::from_le_bytes(b);
            }
        }
        let pending = match self.pending {
            Pending::Start => 0u64,
            Pending::Relay { pos, capture } => 1 | (pos as u64) << 8 | (capture as u64) << 16,
            Pending::Takes { left } => 2 | (left as u64) << 8,
        };
        let outcome = match self.outcome {
            None => 0u64,
            Some(o) => {
                let winner = match o.winner {
                    None => 1,
                    Some(Player::A) => 2,
                    Some(Player::B) => 3,
                };
                winner | (o.reason as u64) << 8 | (o.turns as u64) << 32
            }
        };
        let u = |x: u16| x as u64;
        let rest = [
            self.heads[0],
            self.heads[1],
            u(self.stones[0])
                | u(self.stones[1]) << 16
                | u(self.captured[0]) << 32
                | u(self.captured[1]) << 48,
            u(self.discarded)
                | u(self.captures_made[0]) << 16
                | u(self.captures_made[1]) << 32
                | (self.to_move.index() as u64) << 48
                | (self.passes as u64) << 56,
            self.turns as u64 | (self.moves as u64) << 32,
            pending
                | (self.open[0] as u64) << 24
                | (self.open[1] as u64) << 32
                | (self.nominations_left[0] as u64) << 40
                | (self.nominations_left[1] as u64) << 48
                | (self.owed as u64) << 56,
            self.carried as u64 | (self.n as u64) << 8,
            outcome,
            self.mask,
        ];
        w[2 * W..].copy_from_slice(&rest);
        crate::key::words_key(&w)
    }

    /// Stones player `me` has just taken go back onto his own side, to be sown again.
    #[inline]
    pub(crate) fn resow_taken(&mut self, me: usize, taken: u16) {
        self.captured[me] -= taken;
        self.stones[me] += taken;
    }

    /// The captured counts keyed by player, for JSON.
    pub fn captured_map(&self) -> BTreeMap<Player, u32> {
        Player::BOTH
            .iter()
            .map(|&p| (p, self.captured(p)))
            .collect()
    }

    /// The same position after a half turn of the board, with the players' roles exchanged:
    /// what A had, B has, at the mirrored holes.
    pub fn mirrored(&self) -> SowingState {
        let mut m = self.clone();
        m.pits.swap(0, 1);
        m.heads.swap(0, 1);
        m.stones.swap(0, 1);
        m.captured.swap(0, 1);
        m.captures_made.swap(0, 1);
        m.open.swap(0, 1);
        m.nominations_left.swap(0, 1);
        m.to_move = m.to_move.other();
        if let Some(o) = &mut m.outcome {
            o.winner = o.winner.map(Player::other);
        }
        m
    }
}
