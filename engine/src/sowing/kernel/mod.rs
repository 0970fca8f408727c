//! The fast kernel: random games played 64 at once in SIMD lanes, with exactly the results of
//! the reference ([`game`](super::game)) for the rules its gate ([`admits`]) lets in. Only the
//! fast path uses what is in here; the reference imports nothing from it.

mod lane_vec;
mod lanes;

pub(super) use lanes::play;

/// Whether the kernel plays games of these rules (its capability gate).
pub(super) fn admits(g: &super::SowingGame) -> bool {
    lanes::LaneRules::of(g).is_some()
}
