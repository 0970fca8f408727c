//! Random games played to their ends, many at a time: what a simulation of random agents and a
//! tree search's rollouts ask of a game.
//!
//! A caller hands games to [`Game::random_playouts`] through a
//! [`Feed`]: it gives out [`Playout`]s (a position, its generator, its tally) and takes them back
//! when they are over. The reference plays them one at a time, action by action
//! ([`play_reference`]); a game may play them on a fast kernel instead (the four-row sowing
//! games play 32 at once in SIMD lanes), behind a capability gate, with exactly the same
//! results: the same end position, the same generator state and the same tally.

use crate::game::{Game, Report};
use crate::player::Player;
use crate::rng::Rng;

/// What a game's decisions did, counted as a game record counts them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Decisions made (actions).
    pub actions: u32,
    /// Sum of the legal-action counts over the decisions.
    pub legal_sum: u64,
    /// Decisions that had more than one legal action.
    pub multi_decisions: u32,
    /// The longest sowing of one action, in laps.
    pub longest_relay: u32,
    /// Capture events, by seat (A, B).
    pub captures: [u32; 2],
    /// Stones taken from the opponent (captures and takes), by seat.
    pub stones_captured: [u32; 2],
    /// Ludii moves played.
    pub moves: u32,
}

impl Tally {
    /// Counts one decision of `mover` among `options` legal actions, and what it did.
    #[inline]
    pub fn record(&mut self, mover: Player, options: usize, rep: &Report) {
        self.actions += 1;
        self.legal_sum += options as u64;
        self.multi_decisions += (options > 1) as u32;
        self.longest_relay = self.longest_relay.max(rep.laps);
        self.captures[mover.index()] += rep.captures;
        self.stones_captured[mover.index()] += rep.captured;
        self.moves += rep.moves;
    }
}

/// A random game in play: its position, its own generator and what it has done so far.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Playout<S> {
    /// The position (over when the playout is handed back).
    pub state: S,
    /// The game's generator: every random choice draws from it.
    pub rng: Rng,
    /// What the decisions played so far did.
    pub tally: Tally,
    /// The caller's name for this game (a game index, a tree node).
    pub tag: u64,
}

impl<S> Playout<S> {
    /// A game from `state` with its generator, nothing counted yet.
    pub fn new(state: S, rng: Rng, tag: u64) -> Self {
        Playout {
            state,
            rng,
            tally: Tally::default(),
            tag,
        }
    }
}

/// Where the games of [`Game::random_playouts`] come from and
/// go to. The player asks for the next game whenever it has room, and hands back each game
/// when it is over; games come back in no particular order.
pub trait Feed<S> {
    /// The next game to play, or `None` when there is no more.
    fn next(&mut self) -> Option<Playout<S>>;
    /// A game played to its end.
    fn done(&mut self, p: Playout<S>);
    /// Whether [`again`](Self::again) makes any game handed out again: a player that may have
    /// to replay a game from where it was handed out then keeps no copy of it.
    fn replays(&self) -> bool {
        false
    }
    /// The game tagged `tag` as [`next`](Self::next) handed it out, made again (see
    /// [`replays`](Self::replays)).
    fn again(&mut self, _tag: u64) -> Option<Playout<S>> {
        None
    }
    /// Whether the player may ask for the next game before it has room for it (one game
    /// early): true where what the feed hands out does not depend on when games come back (a
    /// simulation's games; not a search's rollouts, whose leaves follow the backups).
    fn ahead(&self) -> bool {
        false
    }
    /// [`next`](Self::next) written into `slot` (false, `slot` unspecified, when there is no
    /// more): a player that keeps its games in place (the sowing kernel's lanes) then never
    /// moves one. A game is some 250 bytes, and a copy read soon after its fields were written
    /// stalls on the stores (store forwarding fails).
    fn next_into(&mut self, slot: &mut Playout<S>) -> bool {
        match self.next() {
            Some(p) => {
                *slot = p;
                true
            }
            None => false,
        }
    }
    /// [`done`](Self::done) on a game the player keeps in place (see
    /// [`next_into`](Self::next_into)): the feed may read and change it, and the player then
    /// reuses its storage.
    fn done_in(&mut self, p: &mut Playout<S>)
    where
        S: Clone,
    {
        self.done(p.clone())
    }
}

/// A feed over a slice of games, handed back into their places.
#[derive(Debug)]
pub struct SliceFeed<'a, S> {
    games: &'a mut [Playout<S>],
    next: usize,
}

impl<'a, S> SliceFeed<'a, S> {
    /// Plays the games of `games` (their tags are overwritten with their indices).
    pub fn new(games: &'a mut [Playout<S>]) -> Self {
        for (i, p) in games.iter_mut().enumerate() {
            p.tag = i as u64;
        }
        SliceFeed { games, next: 0 }
    }
}

impl<S: Clone> Feed<S> for SliceFeed<'_, S> {
    fn next(&mut self) -> Option<Playout<S>> {
        let p = self.games.get(self.next)?.clone();
        self.next += 1;
        Some(p)
    }
    fn done(&mut self, p: Playout<S>) {
        let i = p.tag as usize;
        self.games[i] = p;
    }
}

/// One uniformly random decision of the reference, counted in the tally; false once the game
/// is over.
#[inline]
pub fn reference_step<G: Game + ?Sized>(g: &G, p: &mut Playout<G::State>) -> bool {
    let Some(mover) = g.to_move(&p.state) else {
        return false;
    };
    let options = g.legal_count(&p.state);
    let Some(a) = g.random_action(&p.state, &mut p.rng) else {
        return false;
    };
    let rep = g.apply_unchecked(&mut p.state, a);
    p.tally.record(mover, options, &rep);
    true
}

/// Plays a game to its end through the reference, one action at a time.
pub fn play_out_reference<G: Game + ?Sized>(g: &G, p: &mut Playout<G::State>) {
    while reference_step(g, p) {}
}

/// Plays every game of the feed through the reference, one at a time, in order.
pub fn play_reference<G: Game + ?Sized>(g: &G, feed: &mut dyn Feed<G::State>) {
    while let Some(mut p) = feed.next() {
        play_out_reference(g, &mut p);
        feed.done(p);
    }
}
