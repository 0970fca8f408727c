//! What the Python package adds to each kind of game: actions as integers (a fixed encoding of
//! the notation, the same for every state of one ruleset and its parameters), observation
//! tensors and a text drawing of the board.
//!
//! **Sowing games** (N holes a row, H = 4N holes): hole `h` of row `r` (rows `i`, `ii`, `iii`,
//! `iv` = 0..3, holes 1..N as A sees the board) has index `r*N + h - 1`. Actions:
//! `sow` = index, `take` = H + index, `nominate` = 2H + index, `stop` = 3H, `continue` =
//! 3H + 1, `pass` = 3H + 2, `move a b` = 3H + 3 + index(a)*H + index(b). H*H + 3H + 3 ids.
//!
//! **Line games** (P points, in the board's order: [`tsoro_engine::morris::Board::points`]):
//! `place` = point, `take` = P + point, `pass` = 2P, `move p-q` = 2P + 1 + p*P + q.
//! P*P + 2P + 1 ids.

use std::collections::HashMap;
use tsoro_engine::Player;
use tsoro_engine::describe::Describe;
use tsoro_engine::morris::{BoardKind, MorrisAction, MorrisGame, MorrisState, Square};
use tsoro_engine::notation::{Hole, Row};
use tsoro_engine::sowing::{Action, SowingGame, SowingState, game::Event};

/// A game of the engine as the Python package plays it.
pub trait Codec: Describe + Clone + Send + Sync + 'static {
    /// What a state remembers of the last action for its observation (the sowing games: the
    /// hole the last stone fell in).
    type Memo: Copy + Default + Send + Sync;
    /// How many action ids there are.
    fn num_actions(&self) -> u32;
    /// The id of an action, `None` for one off this board.
    fn encode(&self, a: Self::Action) -> Option<u32>;
    /// The action of an id, `None` for an id out of range.
    fn decode(&self, id: u32) -> Option<Self::Action>;
    /// Applies a legal action, noting what the observation keeps of it.
    fn apply_noting(&self, s: &mut Self::State, a: Self::Action) -> Self::Memo;
    /// The observation tensor's shape.
    fn observation_shape(&self) -> Vec<usize>;
    /// Writes the observation of `s`, whose legal actions are `legal`, into `out` (zeroed, of
    /// the shape's size).
    fn observe(&self, s: &Self::State, legal: &[Self::Action], memo: Self::Memo, out: &mut [f32]);
    /// The board drawn as text.
    fn render(&self, s: &Self::State) -> String;
    /// Every action id by its text (`sow i,6`), for reading actions back.
    fn names(&self) -> HashMap<String, u32> {
        (0..self.num_actions())
            .filter_map(|id| self.decode(id).map(|a| (normalize(&a.to_string()), id)))
            .collect()
    }
}

/// An action's text made comparable: lower case, single spaces.
pub fn normalize(text: &str) -> String {
    text.split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .to_ascii_lowercase()
}

/// The row's index: i, ii, iii, iv = 0..3.
fn row_index(r: Row) -> usize {
    match r {
        Row::I => 0,
        Row::Ii => 1,
        Row::Iii => 2,
        Row::Iv => 3,
    }
}

/// Hole index `r*N + h - 1`, `None` off a board of `n` holes a row.
fn hole_index(h: Hole, n: u8) -> Option<u32> {
    (h.num >= 1 && h.num <= n).then(|| (row_index(h.row) * n as usize + h.num as usize - 1) as u32)
}

/// The hole of an index below 4N.
fn hole_at(i: u32, n: u8) -> Hole {
    let n = n as u32;
    Hole::new(Row::ALL[(i / n) as usize], (i % n + 1) as u8)
}

/// Channels of a sowing game's observation, each a 4xN plane (rows i..iv, holes 1..N).
pub const SOWING_CHANNELS: [&str; 10] = [
    "stones in the hole",
    "1 at a head (of the row's owner)",
    "1 where the last stone of the last action fell (sow or continue)",
    "1 everywhere when A is to move",
    "1 everywhere when B is to move",
    "stones A has captured (everywhere)",
    "stones B has captured (everywhere)",
    "1 everywhere when the decision is a relay (stop or continue)",
    "1 everywhere when the decision offers takes",
    "1 everywhere when the decision is a nomination",
];

impl Codec for SowingGame {
    type Memo = Option<Hole>;

    fn num_actions(&self) -> u32 {
        let h = 4 * self.rules().holes() as u32;
        h * h + 3 * h + 3
    }

    fn encode(&self, a: Action) -> Option<u32> {
        let n = self.rules().holes();
        let h = 4 * n as u32;
        use tsoro_engine::sowing::action::RelayChoice;
        Some(match a {
            Action::Sow(x) => hole_index(x, n)?,
            Action::Take(x) => h + hole_index(x, n)?,
            Action::Nominate(x) => 2 * h + hole_index(x, n)?,
            Action::Relay(RelayChoice::Stop) => 3 * h,
            Action::Relay(RelayChoice::Continue) => 3 * h + 1,
            Action::Pass => 3 * h + 2,
            Action::Move([a, b]) => 3 * h + 3 + hole_index(a, n)? * h + hole_index(b, n)?,
        })
    }

    fn decode(&self, id: u32) -> Option<Action> {
        let n = self.rules().holes();
        let h = 4 * n as u32;
        use tsoro_engine::sowing::action::RelayChoice;
        Some(match id {
            i if i < h => Action::Sow(hole_at(i, n)),
            i if i < 2 * h => Action::Take(hole_at(i - h, n)),
            i if i < 3 * h => Action::Nominate(hole_at(i - 2 * h, n)),
            i if i == 3 * h => Action::Relay(RelayChoice::Stop),
            i if i == 3 * h + 1 => Action::Relay(RelayChoice::Continue),
            i if i == 3 * h + 2 => Action::Pass,
            i if i < self.num_actions() => {
                let k = i - 3 * h - 3;
                Action::Move([hole_at(k / h, n), hole_at(k % h, n)])
            }
            _ => return None,
        })
    }

    fn apply_noting(&self, s: &mut SowingState, a: Action) -> Option<Hole> {
        use tsoro_engine::sowing::action::RelayChoice;
        match a {
            Action::Sow(_) | Action::Relay(RelayChoice::Continue) => {
                let (_, events) = self.apply_traced(s, a);
                events.iter().rev().find_map(|e| match e {
                    Event::Lap { last, .. } => Some(*last),
                    _ => None,
                })
            }
            _ => {
                self.apply_unchecked(s, a);
                None
            }
        }
    }

    fn observation_shape(&self) -> Vec<usize> {
        vec![SOWING_CHANNELS.len(), 4, self.rules().holes() as usize]
    }

    fn observe(&self, s: &SowingState, legal: &[Action], memo: Option<Hole>, out: &mut [f32]) {
        let n = s.holes();
        let plane = 4 * n as usize;
        let mut fill = |c: usize, v: f32| out[c * plane..(c + 1) * plane].fill(v);
        match s.to_move() {
            Some(Player::A) => fill(3, 1.0),
            Some(Player::B) => fill(4, 1.0),
            None => {}
        }
        fill(5, s.captured(Player::A) as f32);
        fill(6, s.captured(Player::B) as f32);
        use tsoro_engine::sowing::action::RelayChoice;
        if legal.contains(&Action::Relay(RelayChoice::Stop)) {
            fill(7, 1.0);
        }
        if legal
            .iter()
            .any(|a| matches!(a, Action::Take(h) if Some(h.owner()) != s.to_move()))
        {
            fill(8, 1.0);
        }
        if legal.iter().any(|a| matches!(a, Action::Nominate(_))) {
            fill(9, 1.0);
        }
        for (r, row) in Row::ALL.iter().enumerate() {
            for num in 1..=n {
                out[r * n as usize + num as usize - 1] = s.count(Hole::new(*row, num)) as f32;
            }
        }
        for p in Player::BOTH {
            for h in s.heads(p) {
                if let Some(i) = hole_index(h, n) {
                    out[plane + i as usize] = 1.0;
                }
            }
        }
        if let Some(i) = memo.and_then(|h| hole_index(h, n)) {
            out[2 * plane + i as usize] = 1.0;
        }
    }

    fn render(&self, s: &SowingState) -> String {
        render_sowing(s)
    }
}

/// A four-row board as text, B's rows above A's, holes 1..N left to right as A sees them
/// (the README's notation); heads are marked `*`.
fn render_sowing(s: &SowingState) -> String {
    use std::fmt::Write;
    let n = s.holes();
    let heads: Vec<Hole> = Player::BOTH.iter().flat_map(|&p| s.heads(p)).collect();
    let mut out = String::new();
    let _ = write!(out, "{:5}", "");
    for num in 1..=n {
        let _ = write!(out, "{num:>4}");
    }
    out.push('\n');
    for row in [Row::Iv, Row::Iii, Row::Ii, Row::I] {
        if row == Row::Ii {
            let _ = writeln!(out, "{:5}{}", "", "-".repeat(4 * n as usize));
        }
        let _ = write!(out, "{:5}", row.name());
        for num in 1..=n {
            let h = Hole::new(row, num);
            let mark = if heads.contains(&h) { "*" } else { " " };
            let _ = write!(out, "{:>3}{mark}", s.count(h));
        }
        let side = match row {
            Row::Iv => format!("  B captured {}", s.captured(Player::B)),
            Row::I => format!("  A captured {}", s.captured(Player::A)),
            _ => String::new(),
        };
        let _ = writeln!(out, "{side}");
    }
    out.push_str(&status(s.to_move(), s.outcome()));
    out
}

/// "A to move", or how the game ended.
fn status(to_move: Option<Player>, outcome: Option<tsoro_engine::Outcome>) -> String {
    match (to_move, outcome) {
        (_, Some(o)) => match o.winner {
            Some(w) => format!("{w} wins ({}) after {} turns\n", o.reason, o.turns),
            None => format!("draw ({}) after {} turns\n", o.reason, o.turns),
        },
        (Some(p), None) => format!("{p} to move\n"),
        (None, None) => "over\n".into(),
    }
}

/// Channels of a line game's observation, each a plane over the board's points (in the
/// board's order).
pub const MORRIS_CHANNELS: [&str; 11] = [
    "1 at A's stones",
    "1 at B's stones",
    "1 at a cancelled pair (Dig Dig)",
    "1 everywhere when A is to move",
    "1 everywhere when B is to move",
    "stones in A's hand (everywhere)",
    "stones in B's hand (everywhere)",
    "takes the player to move owes (everywhere)",
    "1 at the stones A may move away from a line just made (stage 1)",
    "1 at the stones B may move away from a line just made (stage 1)",
    "1 everywhere when the player to move is placing",
];

impl Codec for MorrisGame {
    type Memo = ();

    fn num_actions(&self) -> u32 {
        let p = self.board().len() as u32;
        p * p + 2 * p + 1
    }

    fn encode(&self, a: MorrisAction) -> Option<u32> {
        let b = self.board();
        let p = b.len() as u32;
        let at = |s: Square| b.index_of(s).map(|i| i as u32);
        Some(match a {
            MorrisAction::Place(x) => at(x)?,
            MorrisAction::Take(x) => p + at(x)?,
            MorrisAction::Pass => 2 * p,
            MorrisAction::Move(x, y) => 2 * p + 1 + at(x)? * p + at(y)?,
        })
    }

    fn decode(&self, id: u32) -> Option<MorrisAction> {
        let b = self.board();
        let p = b.len() as u32;
        let sq = |i: u32| b.square(i as usize);
        Some(match id {
            i if i < p => MorrisAction::Place(sq(i)),
            i if i < 2 * p => MorrisAction::Take(sq(i - p)),
            i if i == 2 * p => MorrisAction::Pass,
            i if i < self.num_actions() => {
                let k = i - 2 * p - 1;
                MorrisAction::Move(sq(k / p), sq(k % p))
            }
            _ => return None,
        })
    }

    fn apply_noting(&self, s: &mut MorrisState, a: MorrisAction) {
        self.apply_unchecked(s, a);
    }

    fn observation_shape(&self) -> Vec<usize> {
        vec![MORRIS_CHANNELS.len(), self.board().len()]
    }

    fn observe(&self, s: &MorrisState, _legal: &[MorrisAction], _memo: (), out: &mut [f32]) {
        let p = self.board().len();
        let mut fill = |c: usize, v: f32| out[c * p..(c + 1) * p].fill(v);
        let mover = s.to_move();
        match mover {
            Some(Player::A) => fill(3, 1.0),
            Some(Player::B) => fill(4, 1.0),
            None => {}
        }
        fill(5, s.hand(Player::A) as f32);
        fill(6, s.hand(Player::B) as f32);
        fill(7, s.takes_owed() as f32);
        if mover.is_some_and(|m| self.placing(s, m)) {
            fill(10, 1.0);
        }
        let masks = [
            (0, s.stones(Player::A)),
            (1, s.stones(Player::B)),
            (2, s.cancelled()),
            (8, s.fresh(Player::A) & s.stones(Player::A)),
            (9, s.fresh(Player::B) & s.stones(Player::B)),
        ];
        for (c, m) in masks {
            for (i, v) in out[c * p..(c + 1) * p].iter_mut().enumerate() {
                if m >> i & 1 == 1 {
                    *v = 1.0;
                }
            }
        }
    }

    fn render(&self, s: &MorrisState) -> String {
        let b = self.board();
        let template = match b.kind {
            BoardKind::Twelve => TWELVE,
            BoardKind::Square => SQUARE,
            BoardKind::SquarePlain => SQUARE_PLAIN,
            BoardKind::Triangle => TRIANGLE,
        };
        let mut out = template.to_string();
        for (i, sq) in b.points.iter().enumerate() {
            let mark = if s.stones(Player::A) >> i & 1 == 1 {
                "AA"
            } else if s.stones(Player::B) >> i & 1 == 1 {
                "BB"
            } else if s.cancelled() >> i & 1 == 1 {
                "xx"
            } else {
                continue;
            };
            out = out.replace(&sq.to_string(), mark);
        }
        out.push_str(&format!(
            "hand: A {}, B {}\n",
            s.hand(Player::A),
            s.hand(Player::B)
        ));
        out.push_str(&status(s.to_move(), s.outcome()));
        out
    }
}

/// The boards as the README draws them; a point's name is replaced by `AA`, `BB` (a stone)
/// or `xx` (a cancelled pair).
const TWELVE: &str = "\
7  a7-----------d7-----------g7
6  |   b6-------d6-------f6   |
5  |   |   c5---d5---e5   |   |
4  a4--b4--c4        e4--f4--g4
3  |   |   c3---d3---e3   |   |
2  |   b2-------d2-------f2   |
1  a1-----------d1-----------g1
   a   b   c    d    e   f   g
   (corners joined by diagonals: a1-b2-c3, g1-f2-e3, g7-f6-e5, a7-b6-c5)
";
const SQUARE: &str = "\
3  a3--b3--c3
   | \\ | / |
2  a2--b2--c2
   | / | \\ |
1  a1--b1--c1
   a   b   c
";
const SQUARE_PLAIN: &str = "\
3  a3--b3--c3
   |   |   |
2  a2--b2--c2
   |   |   |
1  a1--b1--c1
   a   b   c
";
const TRIANGLE: &str = "\
3          c3
          / | \\
2       b2--c2--d2
       /    |    \\
1    a1-----c1-----e1
     a   b  c  d   e
";

#[cfg(test)]
mod tests {
    use super::*;
    use tsoro_engine::catalogue::{self, Model, Params};

    /// Every id decodes to an action that encodes back to it, on every board size of every
    /// ruleset's samples, and the texts are distinct.
    #[test]
    fn ids_round_trip() {
        for def in catalogue::all() {
            for params in def.param_samples() {
                let Ok(Model::Game(g)) = def.build_model(&params) else {
                    continue;
                };
                tsoro_engine::with_game!(&g, g => {
                    let names = g.names();
                    assert_eq!(names.len() as u32, g.num_actions(), "{}", def.id);
                    for id in 0..g.num_actions() {
                        let a = g.decode(id).expect("in range");
                        assert_eq!(g.encode(a), Some(id));
                        assert_eq!(names[&normalize(&a.to_string())], id);
                    }
                    assert!(g.decode(g.num_actions()).is_none());
                });
            }
        }
        let _ = Params::new();
    }
}
