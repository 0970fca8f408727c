//! Agents: who chooses the actions. One trait for every game and every decision kind, each
//! agent named by a short string (`random`, `greedy`, `alphabeta:4`, `mcts:1000`).

mod alphabeta;
mod deepening;
mod greedy;
mod mcts;
mod random;
pub mod search;
pub mod stop;

pub use alphabeta::{AlphaBetaAgent, DEPTH_NODES};
pub use deepening::{DeepeningAgent, DeepeningPlayer};
pub use greedy::GreedyAgent;
pub use mcts::{MctsAgent, ROLLOUT_MOVES};
pub use random::RandomAgent;

use crate::game::Game;
use crate::rng::Rng;
use std::fmt;
use std::str::FromStr;
use thiserror::Error;

/// Chooses an action for the player to move.
pub trait Agent<G: Game>: Send {
    /// A legal action at `s`, which must not be over. All randomness comes from `rng`, so a
    /// game's record depends only on its seed.
    fn choose(&mut self, g: &G, s: &G::State, rng: &mut Rng) -> G::Action;
}

/// Keeps the best-scoring actions seen and draws one of them at random at the end.
pub(crate) struct Ties<A> {
    best: i32,
    ties: crate::game::ActionList<A>,
}

impl<A: Copy> Ties<A> {
    pub(crate) fn new() -> Self {
        Ties {
            best: i32::MIN,
            ties: crate::game::ActionList::new(),
        }
    }

    /// The best score so far (`i32::MIN` before any).
    pub(crate) fn best(&self) -> i32 {
        self.best
    }

    pub(crate) fn offer(&mut self, a: A, score: i32) {
        if score > self.best {
            self.best = score;
            self.ties.clear();
        }
        if score == self.best {
            self.ties.push(a);
        }
    }

    /// One of the best, uniformly at random. At least one action must have been offered.
    pub(crate) fn pick(&self, rng: &mut Rng) -> A {
        self.ties[rng.below(self.ties.len())]
    }
}

/// How a search agent scores a position that is not over.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Eval {
    /// Stones (pieces) on the board: one's own minus the opponent's.
    Material,
    /// Legal moves of the player to move minus the opponent's (Ludii's Tsoro agent uses
    /// alpha-beta with a mobility heuristic).
    Mobility,
    /// Legal moves and stones, each side's, one stone worth one move (tuned by tournaments
    /// on tsoro-ludii 4x8 against weights of 1/100, 3/10, 2 and 4 moves a stone).
    Mixed,
}

impl Eval {
    /// The evaluation by name, `material` when none.
    fn named(name: Option<&str>) -> Option<Eval> {
        match name {
            None | Some("material") => Some(Eval::Material),
            Some("mobility") => Some(Eval::Mobility),
            Some("mixed") => Some(Eval::Mixed),
            _ => None,
        }
    }

    /// The suffix a name writes for it.
    fn suffix(self) -> &'static str {
        match self {
            Eval::Material => "",
            Eval::Mobility => ":mobility",
            Eval::Mixed => ":mixed",
        }
    }
}

/// An agent by name: `random`, `greedy`, `alphabeta:D[:material|mobility|mixed]` (at most
/// [`DEPTH_NODES`] positions a decision, past which the decision is played as
/// `alphabeta:n100000[:eval]` plays it),
/// `mcts:N[:C]` (N iterations, exploration constant C, default √2); alpha-beta deepened one
/// turn at a time until a number of positions is searched, `alphabeta:nN[:eval]`; and with a
/// time budget per decision instead of a depth, a number of iterations or of positions,
/// `alphabeta:T[:eval]` (iterative deepening) and `mcts:T[:C]`, T in seconds (`0.1s`),
/// milliseconds (`250ms`, `0.15ms`) or microseconds (`150us`), whole microseconds.
///
/// A time budget makes an agent's choices depend on the machine and its load: games with
/// such agents are **not reproducible** from their seed ([`AgentSpec::reproducible`]). They
/// are for comparing strength per CPU-second; a budget of positions (`alphabeta:n5000`) is the
/// reproducible way to give a deepening search about a given CPU time.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum AgentSpec {
    /// Uniform over the legal actions.
    Random,
    /// The action that captures most stones this turn, ties broken at random.
    Greedy,
    /// Depth-limited negamax with alpha-beta pruning, depth counted in turns, at most
    /// [`DEPTH_NODES`] positions a decision: a decision that would search more is played as
    /// `alphabeta:n100000` plays it (see [`AlphaBetaAgent`]).
    AlphaBeta {
        /// Depth in turns.
        depth: u32,
        /// The evaluation at the leaves.
        eval: Eval,
    },
    /// UCT with random playouts.
    Mcts {
        /// Iterations per decision.
        iterations: u32,
        /// Exploration constant.
        c: f64,
    },
    /// Alpha-beta deepened one turn at a time until its budget per decision is spent, with
    /// a transposition table, killer moves, principal-variation windows and two turns of
    /// captures searched past the horizon (quiescence).
    Deepening {
        /// How much it searches per decision.
        budget: Budget,
        /// The evaluation at the leaves.
        eval: Eval,
    },
    /// UCT with random playouts, as many iterations as a time budget per decision allows.
    MctsTimed {
        /// Microseconds per decision.
        micros: u32,
        /// Exploration constant.
        c: f64,
    },
}

/// How much a deepening alpha-beta ([`AgentSpec::Deepening`]) searches per decision.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Budget {
    /// Microseconds of the thread's CPU time (not reproducible).
    Micros(u32),
    /// Positions searched, [`MAX_NODES`] at most (reproducible).
    Nodes(u32),
}

/// Longest time budget per decision, in microseconds (a minute).
pub const MAX_MICROS: u32 = 60_000_000;
/// Shortest time budget per decision, in microseconds.
pub const MIN_MICROS: u32 = 10;

/// A time per decision, `0.1s`, `250ms`, `0.15ms` or `150us`, in whole microseconds
/// ([`MIN_MICROS`] to [`MAX_MICROS`]); read as decimals, exactly.
fn parse_micros(text: &str) -> Option<u32> {
    let (number, places) = if let Some(n) = text.strip_suffix("us") {
        (n, 0)
    } else if let Some(n) = text.strip_suffix("ms") {
        (n, 3)
    } else {
        (text.strip_suffix('s')?, 6)
    };
    let (whole, fraction) = number.split_once('.').unwrap_or((number, ""));
    if !digits(whole) || !(fraction.is_empty() || digits(fraction)) || whole.len() > 9 {
        return None;
    }
    // Digits past the microsecond must be zeros.
    let (kept, past) = fraction.split_at(fraction.len().min(places));
    if past.bytes().any(|b| b != b'0') || number.ends_with('.') {
        return None;
    }
    let mut micros: u64 = whole.parse().ok()?;
    for _ in 0..places {
        micros *= 10;
    }
    let mut scale = 10u64.pow(places as u32);
    for b in kept.bytes() {
        scale /= 10;
        micros += (b - b'0') as u64 * scale;
    }
    (MIN_MICROS as u64..=MAX_MICROS as u64)
        .contains(&micros)
        .then_some(micros as u32)
}

/// A time per decision as written: `0.1s` for whole milliseconds, else `150us`.
fn show_micros(us: u32) -> String {
    if us.is_multiple_of(1000) {
        format!("{}s", us as f64 / 1e6)
    } else {
        format!("{us}us")
    }
}

/// A budget of positions, `n5000`: 1 to [`MAX_NODES`].
fn parse_nodes(text: &str) -> Option<u32> {
    let n = text.strip_prefix('n')?;
    let nodes: u32 = n.parse().ok().filter(|_| digits(n))?;
    (1..=MAX_NODES).contains(&nodes).then_some(nodes)
}

/// Deepest alpha-beta search a name may ask for.
pub const MAX_DEPTH: u32 = 8;
/// Most MCTS iterations a name may ask for.
pub const MAX_ITERATIONS: u32 = 1_000_000;
/// Most positions a deepening alpha-beta's budget may name (as many as MCTS iterations).
pub const MAX_NODES: u32 = MAX_ITERATIONS;

/// A regular expression (unanchored; the same in ECMA 262, as JSON Schema reads it, and in
/// Rust's and Python's engines) matching exactly the names of reproducible agents that
/// [`AgentSpec`] parses with a depth of at most `depth` and at most `iterations` MCTS
/// iterations or alpha-beta positions (`alphabeta:nN`): what a schema states of an agent. Time budgets (`mcts:1s`) are not matched,
/// since their games are not reproducible and the service refuses them.
pub fn name_pattern(depth: u32, iterations: u32) -> String {
    format!(
        "(random|greedy|alphabeta:(n{}|{})(:(material|mobility|mixed))?|mcts:{}(:{EXPLORATION})?)",
        whole_pattern(iterations),
        whole_pattern(depth),
        whole_pattern(iterations)
    )
}

/// An MCTS exploration constant as a name writes it: decimal digits, perhaps a fraction.
const EXPLORATION: &str = "[0-9]{1,9}([.][0-9]{1,9})?";

/// A regular expression matching exactly the decimal numbers 1 to `max` (leading zeros
/// allowed).
fn whole_pattern(max: u32) -> String {
    let s = max.to_string();
    let n = s.len();
    let mut alternatives = Vec::new();
    if n > 1 {
        alternatives.push(format!("[1-9][0-9]{{0,{}}}", n - 2));
    }
    for (i, d) in s.bytes().map(|b| b - b'0').enumerate() {
        let low = u8::from(i == 0);
        if d > low {
            let rest = n - i - 1;
            let tail = if rest > 0 {
                format!("[0-9]{{{rest}}}")
            } else {
                String::new()
            };
            alternatives.push(format!("{}[{low}-{}]{tail}", &s[..i], d - 1));
        }
    }
    alternatives.push(s);
    format!("0*({})", alternatives.join("|"))
}

/// Digits only (`u32::from_str` also takes a sign).
fn digits(t: &str) -> bool {
    !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit())
}

/// An exploration constant in the form [`EXPLORATION`] states.
fn exploration(t: &str) -> Option<f64> {
    let (whole, fraction) = t.split_once('.').unwrap_or((t, "1"));
    let written = digits(whole) && whole.len() <= 9 && digits(fraction) && fraction.len() <= 9;
    if written { t.parse().ok() } else { None }
}

/// Which agents a place takes: the deepest alpha-beta search, the most MCTS iterations, and
/// whether agents with a time budget per decision are taken (not where results must be the
/// same twice: jobs, and the service's agent move). What a place says it takes
/// ([`AgentBounds::describe`]) and what it takes ([`AgentBounds::admits`]) come from one
/// value, so they cannot disagree.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AgentBounds {
    /// Deepest alpha-beta search (1 to [`MAX_DEPTH`]).
    pub max_depth: u32,
    /// Most MCTS iterations (1 to [`MAX_ITERATIONS`]).
    pub max_iterations: u32,
    /// Whether agents with a time budget (`mcts:1s`, `alphabeta:0.1s`) are taken.
    pub timed: bool,
}

impl AgentBounds {
    /// Every agent the syntax names (the command line's tournaments, ladders and search).
    pub const ALL: AgentBounds = AgentBounds {
        max_depth: MAX_DEPTH,
        max_iterations: MAX_ITERATIONS,
        timed: true,
    };
    /// Every agent whose games are the same for the same seed on any machine (jobs and
    /// simulations).
    pub const REPRODUCIBLE: AgentBounds = AgentBounds {
        timed: false,
        ..AgentBounds::ALL
    };

    /// The agents taken, in one line: what error messages and help texts show.
    pub fn describe(&self) -> String {
        let mut out = format!(
            "random, greedy, alphabeta:D[:material|mobility|mixed] (D 1 to {}; a decision whose \
             depth would search more than {} positions is played as alphabeta:n{} plays it), \
             alphabeta:nN[:material|mobility|mixed] (deepening until N positions are searched, N 1 to \
             {}), mcts:N[:C] (N 1 to {}, C the exploration constant, default 1.414)",
            self.max_depth,
            alphabeta::DEPTH_NODES,
            alphabeta::DEPTH_NODES,
            self.max_iterations,
            self.max_iterations
        );
        if self.timed {
            out.push_str(&format!(
                "; with a time per decision instead (not reproducible): \
                 alphabeta:T[:material|mobility|mixed], mcts:T[:C] (T as 0.1s, 250ms or 150us, 10us \
                 to {})",
                show_micros(MAX_MICROS)
            ));
        } else {
            out.push_str("; a time per decision (mcts:1s) is not taken: not reproducible");
        }
        out
    }

    /// Whether `a` is taken.
    pub fn admits(&self, a: &AgentSpec) -> bool {
        match *a {
            AgentSpec::Random | AgentSpec::Greedy => true,
            AgentSpec::AlphaBeta { depth, .. } => depth <= self.max_depth,
            AgentSpec::Mcts { iterations, .. } => iterations <= self.max_iterations,
            AgentSpec::Deepening {
                budget: Budget::Nodes(nodes),
                ..
            } => nodes <= self.max_iterations,
            AgentSpec::Deepening { .. } | AgentSpec::MctsTimed { .. } => self.timed,
        }
    }

    /// The agent `text` names, if it is one this place takes; else why not, in one line
    /// ending with what is taken.
    pub fn parse(&self, text: &str) -> Result<AgentSpec, String> {
        match text.parse::<AgentSpec>() {
            Ok(a) if self.admits(&a) => Ok(a),
            Ok(a) if !a.reproducible() => Err(format!(
                "{a} has a time budget: its games are not reproducible from their seed; \
                 known here: {}",
                self.describe()
            )),
            Ok(a) => Err(format!(
                "{a} searches more than allowed here; known here: {}",
                self.describe()
            )),
            Err(e) => Err(format!("{e}; known: {}", self.describe())),
        }
    }
}

/// A name that is not an agent (what names are, see [`AgentBounds::describe`]).
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("unknown agent {0:?}")]
pub struct UnknownAgent(pub String);

impl FromStr for AgentSpec {
    type Err = UnknownAgent;
    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let bad = || UnknownAgent(text.to_string());
        let mut parts = text.split(':');
        let head = parts.next().unwrap_or_default();
        let rest: Vec<&str> = parts.collect();
        match (head, rest.as_slice()) {
            ("random", []) => Ok(AgentSpec::Random),
            ("greedy", []) => Ok(AgentSpec::Greedy),
            ("alphabeta", [b, more @ ..])
                if more.len() <= 1 && (b.starts_with('n') || parse_micros(b).is_some()) =>
            {
                let eval = Eval::named(more.first().copied()).ok_or_else(bad)?;
                let budget = match parse_micros(b) {
                    Some(us) => Budget::Micros(us),
                    None => Budget::Nodes(parse_nodes(b).ok_or_else(bad)?),
                };
                Ok(AgentSpec::Deepening { budget, eval })
            }
            ("alphabeta", [d, more @ ..]) if more.len() <= 1 => {
                let depth: u32 = d.parse().ok().filter(|_| digits(d)).ok_or_else(bad)?;
                if !(1..=MAX_DEPTH).contains(&depth) {
                    return Err(bad());
                }
                let eval = Eval::named(more.first().copied()).ok_or_else(bad)?;
                Ok(AgentSpec::AlphaBeta { depth, eval })
            }
            ("mcts", [n, more @ ..]) if more.len() <= 1 => {
                let c = match more.first() {
                    None => std::f64::consts::SQRT_2,
                    Some(c) => exploration(c).ok_or_else(bad)?,
                };
                if let Some(micros) = parse_micros(n) {
                    return Ok(AgentSpec::MctsTimed { micros, c });
                }
                let iterations: u32 = n.parse().ok().filter(|_| digits(n)).ok_or_else(bad)?;
                if !(1..=MAX_ITERATIONS).contains(&iterations) {
                    return Err(bad());
                }
                Ok(AgentSpec::Mcts { iterations, c })
            }
            _ => Err(bad()),
        }
    }
}

impl fmt::Display for AgentSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AgentSpec::Random => f.write_str("random"),
            AgentSpec::Greedy => f.write_str("greedy"),
            AgentSpec::AlphaBeta { depth, eval } => {
                write!(f, "alphabeta:{depth}{}", eval.suffix())
            }
            AgentSpec::Mcts { iterations, c } if *c == std::f64::consts::SQRT_2 => {
                write!(f, "mcts:{iterations}")
            }
            AgentSpec::Mcts { iterations, c } => write!(f, "mcts:{iterations}:{c}"),
            AgentSpec::Deepening { budget, eval } => {
                match budget {
                    Budget::Micros(us) => write!(f, "alphabeta:{}", show_micros(*us))?,
                    Budget::Nodes(n) => write!(f, "alphabeta:n{n}")?,
                }
                f.write_str(eval.suffix())
            }
            AgentSpec::MctsTimed { micros, c } if *c == std::f64::consts::SQRT_2 => {
                write!(f, "mcts:{}", show_micros(*micros))
            }
            AgentSpec::MctsTimed { micros, c } => write!(f, "mcts:{}:{c}", show_micros(*micros)),
        }
    }
}

impl AgentSpec {
    /// Whether games with this agent are the same for the same seed on every machine: not so
    /// for agents with a time budget.
    pub fn reproducible(&self) -> bool {
        !matches!(
            self,
            AgentSpec::Deepening {
                budget: Budget::Micros(_),
                ..
            } | AgentSpec::MctsTimed { .. }
        )
    }

    /// A fresh agent of this kind for game type `G`.
    pub fn build<G: Game + 'static>(&self) -> Box<dyn Agent<G>> {
        match *self {
            AgentSpec::Random => Box::new(RandomAgent),
            AgentSpec::Greedy => Box::new(GreedyAgent),
            AgentSpec::AlphaBeta { depth, eval } => Box::new(AlphaBetaAgent { depth, eval }),
            AgentSpec::Mcts { iterations, c } => Box::new(MctsAgent::new(iterations, c)),
            AgentSpec::Deepening { budget, eval } => {
                Box::new(DeepeningPlayer::<G>::new(DeepeningAgent::new(budget, eval)))
            }
            AgentSpec::MctsTimed { micros, c } => Box::new(MctsAgent::timed(micros, c)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    proptest::proptest! {
        /// The schema's pattern and the parser agree on every name: those it matches parse
        /// to a reproducible agent within the bounds, and those it does not are refused, out
        /// of the bounds, or have a time budget.
        #[test]
        fn the_name_pattern_is_exactly_what_parses(
            name in "(random|greedy|alphabeta:n?|mcts:|)[0-9+ .:a-z-]{0,12}",
            depth in 1u32..=MAX_DEPTH,
            iterations in proptest::sample::select(vec![1, 9, 10, 20_000, 99_999, MAX_ITERATIONS]),
        ) {
            let re = regex::Regex::new(&format!("^{}$", name_pattern(depth, iterations))).unwrap();
            let within = match name.parse::<AgentSpec>() {
                Ok(AgentSpec::AlphaBeta { depth: d, .. }) => d <= depth,
                Ok(AgentSpec::Mcts { iterations: n, .. }) => n <= iterations,
                Ok(AgentSpec::Deepening { budget: Budget::Nodes(n), .. }) => n <= iterations,
                Ok(AgentSpec::Deepening { .. } | AgentSpec::MctsTimed { .. }) => false,
                Ok(_) => true,
                Err(_) => false,
            };
            proptest::prop_assert_eq!(re.is_match(&name), within, "{}", name);
        }
    }

    #[test]
    fn the_name_pattern_takes_every_bound() {
        let re = regex::Regex::new(&format!("^{}$", name_pattern(6, 20_000))).unwrap();
        for name in [
            "random",
            "alphabeta:6",
            "alphabeta:06:mobility",
            "mcts:20000",
            "mcts:1:0.5",
            "mcts:19999",
            "alphabeta:n20000",
            "alphabeta:n0500:mobility",
        ] {
            assert!(re.is_match(name), "{name}");
            assert!(name.parse::<AgentSpec>().is_ok(), "{name}");
        }
        for name in [
            "alphabeta:7",
            "mcts:20001",
            "mcts:0",
            " random",
            "mcts:+5",
            "mcts:5:.5",
            "mcts:5:1e3",
            "mcts:1s",
            "alphabeta:250ms",
            "alphabeta:150us",
            "alphabeta:n20001",
            "alphabeta:n0",
            "alphabeta:n",
        ] {
            assert!(!re.is_match(name), "{name}");
        }
    }

    #[test]
    fn names_round_trip() {
        for name in [
            "random",
            "greedy",
            "alphabeta:4",
            "alphabeta:2:mobility",
            "mcts:1000",
            "mcts:50:0.5",
            "mcts:1s",
            "mcts:0.25s:0.5",
            "alphabeta:0.1s",
            "alphabeta:0.05s:mobility",
            "alphabeta:150us:mobility",
            "mcts:10us",
            "alphabeta:1001us",
            "alphabeta:n5000",
            "alphabeta:n1:mobility",
            "alphabeta:n1000000",
            "alphabeta:n1500:mixed",
            "alphabeta:3:mixed",
        ] {
            let a: AgentSpec = name.parse().unwrap();
            assert_eq!(a.to_string(), name);
        }
        for bad in [
            "",
            "rand",
            "alphabeta",
            "alphabeta:0",
            "alphabeta:9",
            "mcts:x",
            "mcts:10:-1",
            "greedy:2",
            "mcts:0s",
            "mcts:61s",
            "alphabeta:0.0000001s",
            "alphabeta:9us",
            "alphabeta:0.15us",
            "alphabeta:1.us",
            "alphabeta:.5ms",
            "alphabeta:+5ms",
            "alphabeta:5e2us",
            "alphabeta:60000001us",
            "alphabeta:n0",
            "alphabeta:n",
            "alphabeta:n+5",
            "alphabeta:n1000001",
            "alphabeta:n50:x",
            "alphabeta:N50",
            "alphabeta:1s:x",
            " random",
            "mcts:+5",
            "mcts:5:1e3",
            "mcts:5:inf",
        ] {
            assert!(bad.parse::<AgentSpec>().is_err(), "{bad}");
        }
        assert_eq!(
            "mcts:250ms".parse::<AgentSpec>().unwrap().to_string(),
            "mcts:0.25s"
        );
        for (fine, micros) in [
            ("alphabeta:0.15ms", 150),
            ("alphabeta:0.000150s", 150),
            ("alphabeta:150us", 150),
            ("alphabeta:2ms", 2000),
            ("alphabeta:0.0001s", 100),
            ("alphabeta:60s", MAX_MICROS),
        ] {
            assert_eq!(
                fine.parse::<AgentSpec>().unwrap(),
                AgentSpec::Deepening {
                    budget: Budget::Micros(micros),
                    eval: Eval::Material
                },
                "{fine}"
            );
        }
        assert_eq!(
            "alphabeta:0.15ms:mobility"
                .parse::<AgentSpec>()
                .unwrap()
                .to_string(),
            "alphabeta:150us:mobility"
        );
        assert!(!"mcts:1s".parse::<AgentSpec>().unwrap().reproducible());
        assert!(
            !"alphabeta:150us"
                .parse::<AgentSpec>()
                .unwrap()
                .reproducible()
        );
        assert!(
            "alphabeta:n150"
                .parse::<AgentSpec>()
                .unwrap()
                .reproducible()
        );
        assert!("mcts:1".parse::<AgentSpec>().unwrap().reproducible());
    }

    /// What a place says it takes is what it takes: at each bound stated, the agent at the
    /// bound is taken and the one past it refused; the time budgets the text shows are taken
    /// exactly where it shows them; and every refusal ends with the text.
    #[test]
    fn the_text_of_the_agents_taken_is_true_wherever_it_is_shown() {
        let play = AgentBounds {
            max_depth: 6,
            max_iterations: 20_000,
            timed: false,
        };
        for b in [AgentBounds::ALL, AgentBounds::REPRODUCIBLE, play] {
            let text = b.describe();
            assert!(text.contains(&format!("D 1 to {}", b.max_depth)), "{text}");
            assert!(
                text.contains(&format!("N 1 to {}", b.max_iterations)),
                "{text}"
            );
            let admits = |name: &str| b.parse(name).is_ok();
            for taken in ["random", "greedy", "alphabeta:1:mobility", "mcts:1:0.5"] {
                assert!(admits(taken), "{taken}: {text}");
            }
            assert!(admits(&format!("alphabeta:{}", b.max_depth)));
            assert!(!admits(&format!("alphabeta:{}", b.max_depth + 1)));
            assert!(admits(&format!("mcts:{}", b.max_iterations)));
            assert!(!admits(&format!("mcts:{}", b.max_iterations + 1)));
            assert!(admits(&format!("alphabeta:n{}:mixed", b.max_iterations)));
            assert!(!admits(&format!("alphabeta:n{}", b.max_iterations + 1)));
            // The time budgets: shown as taken exactly where they are.
            for timed in [
                "mcts:1s",
                "alphabeta:0.1s",
                "mcts:250ms:2",
                "alphabeta:60s:mobility",
            ] {
                assert_eq!(admits(timed), b.timed, "{timed}: {text}");
            }
            assert_eq!(
                text.contains("mcts:T[:C] (T as 0.1s, 250ms or 150us, 10us to 60s)"),
                b.timed
            );
            assert!(!admits("mcts:61s"));
            for refused in [
                "wizard",
                "mcts:1s",
                &format!("alphabeta:{}", b.max_depth + 1),
            ] {
                if let Err(e) = b.parse(refused) {
                    assert!(e.ends_with(&text), "{e}");
                }
            }
        }
    }
}
