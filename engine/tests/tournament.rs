//! Tournaments: reproducible on any thread count, the seat-swapped pairs share their
//! openings, and stronger agents score as they should on tsoro 4x8.

use tsoro_engine::AnyGame;
use tsoro_engine::agents::AgentSpec;
use tsoro_engine::catalogue;
use tsoro_engine::tournament::report::{games_csv, ratings_csv, report};
use tsoro_engine::tournament::{
    TournamentError, TournamentGame, TournamentOptions, TournamentSpec, ladder, play_any,
    play_range_any,
};

fn tsoro_4x8() -> AnyGame {
    let def = catalogue::get("tsoro-ludii").unwrap();
    let params = def.parse_params(["holes=8"]).unwrap();
    def.build(&params).unwrap()
}

fn agents(names: &[&str]) -> Vec<AgentSpec> {
    names.iter().map(|n| n.parse().unwrap()).collect()
}

fn threads(n: usize) -> TournamentOptions {
    TournamentOptions {
        threads: n,
        ..TournamentOptions::default()
    }
}

#[test]
fn the_same_games_and_ratings_on_one_and_two_threads() {
    let g = tsoro_4x8();
    let spec = TournamentSpec::round_robin(
        agents(&[
            "random",
            "greedy",
            "alphabeta:2:mobility",
            "alphabeta:n500:mobility",
            "mcts:40",
        ]),
        3,
        17,
        2,
    );
    let one = play_any(&g, &spec, &threads(1)).unwrap();
    let two = play_any(&g, &spec, &threads(2)).unwrap();
    assert_eq!(one.games, two.games);
    assert_eq!(one.games.len() as u64, spec.games());
    let r1 = report(&spec, &one.games, 200);
    let r2 = report(&spec, &two.games, 200);
    assert_eq!(games_csv(&spec, &one.games), games_csv(&spec, &two.games));
    assert_eq!(ratings_csv(&r1), ratings_csv(&r2));
    assert_eq!(
        serde_json::to_string(&r1).unwrap(),
        serde_json::to_string(&r2).unwrap()
    );
    // Every agent made its decisions, and their time was measured.
    for t in &one.time {
        assert!(t.decisions > 0, "{t:?}");
    }
    // Another seed, other games.
    let other = TournamentSpec {
        seed: 18,
        ..spec.clone()
    };
    assert_ne!(play_any(&g, &other, &threads(2)).unwrap().games, one.games);
}

#[test]
fn each_pairing_s_time_is_what_its_two_sides_spent_in_its_games() {
    let g = tsoro_4x8();
    let spec = TournamentSpec::round_robin(agents(&["random", "alphabeta:3"]), 3, 5, 2);
    let run = play_any(&g, &spec, &threads(2)).unwrap();
    assert_eq!(run.pairing_time.len(), spec.pairings.len());
    for (p, (pair, sides)) in spec.pairings.iter().zip(&run.pairing_time).enumerate() {
        // The sides are named as the pairing names them, and between them made every
        // decision of the pairing's games.
        for (a, t) in pair.iter().zip(sides) {
            assert_eq!(t.agent, spec.agents[*a].to_string());
        }
        let made: u64 = run
            .games
            .iter()
            .filter(|x| x.pairing == p)
            .map(|x| u64::from(x.decisions))
            .sum();
        assert_eq!(sides[0].decisions + sides[1].decisions, made, "pairing {p}");
    }
    // An agent's overall time is the sum of its sides' in every pairing it played.
    for (i, t) in run.time.iter().enumerate() {
        let (n, secs) = spec
            .pairings
            .iter()
            .zip(&run.pairing_time)
            .flat_map(|(pair, sides)| pair.iter().zip(sides))
            .filter(|(a, _)| **a == i)
            .fold((0, 0.0), |(n, s), (_, x)| (n + x.decisions, s + x.seconds));
        assert_eq!(n, t.decisions, "{t:?}");
        assert!(
            (secs - t.seconds).abs() <= 1e-9 * t.seconds.max(1.0),
            "{t:?}"
        );
    }
    // Between random and a search, the search is the side that spends (first named: random).
    let cross = spec.pairings.iter().position(|[a, b]| a != b).unwrap();
    let [random, search] = &run.pairing_time[cross];
    assert_eq!(random.agent, "random");
    assert!(
        search.ms_per_decision > random.ms_per_decision,
        "{random:?} {search:?}"
    );
}

#[test]
fn ranges_cut_anywhere_give_the_tournament_s_games() {
    let g = tsoro_4x8();
    let spec = TournamentSpec::round_robin(agents(&["random", "greedy", "mcts:20"]), 3, 5, 1);
    let whole = play_any(&g, &spec, &threads(2)).unwrap();
    // Chunks as a job's workers cut them: uneven, across pairs and pairings.
    let mut cut: Vec<TournamentGame> = vec![];
    let mut decisions = vec![0u64; spec.agents.len()];
    let mut start = 0;
    for len in [5, 1, 7, 2, 100] {
        let end = (start + len).min(spec.games());
        let part = play_range_any(&g, &spec, start..end, &threads(1)).unwrap();
        assert_eq!(part.games.len() as u64, end - start);
        for (d, t) in decisions.iter_mut().zip(&part.time) {
            *d += t.decisions;
        }
        cut.extend(part.games);
        start = end;
    }
    assert_eq!(cut, whole.games);
    let whole_decisions: Vec<u64> = whole.time.iter().map(|t| t.decisions).collect();
    assert_eq!(decisions, whole_decisions);
    // A game reads back from its JSON (as a job stores it).
    let line = serde_json::to_string(&cut[3]).unwrap();
    assert_eq!(
        serde_json::from_str::<TournamentGame>(&line).unwrap(),
        cut[3]
    );
}

#[test]
fn both_games_of_a_pair_share_their_opening_with_the_seats_swapped() {
    let g = tsoro_4x8();
    let spec = TournamentSpec::round_robin(agents(&["random", "greedy"]), 4, 5, 6);
    let run = play_any(&g, &spec, &threads(2)).unwrap();
    for pair in run.games.chunks(2) {
        let (a, b) = (&pair[0], &pair[1]);
        assert_eq!((a.pairing, a.pair, a.seed), (b.pairing, b.pair, b.seed));
        assert_eq!((a.game, b.game), (0, 1));
        assert_eq!((a.first, a.second), (b.second, b.first));
        assert_eq!(a.opening_plies, 6);
        assert_eq!(b.opening_plies, 6);
    }
    // The opening is the pair's: replaying it gives one position for both games (greedy is
    // not random, so two games that agree on the whole record started alike at least).
    let seeds: std::collections::BTreeSet<u64> = run.games.iter().map(|g| g.seed).collect();
    assert_eq!(seeds.len() as u64, spec.pairings.len() as u64 * spec.pairs);
}

#[test]
fn strong_mcts_beats_random_and_weak_mcts_on_tsoro_4x8() {
    let g = tsoro_4x8();
    let spec = TournamentSpec {
        agents: agents(&["random", "mcts:30", "mcts:1000"]),
        pairings: vec![[2, 0], [2, 1], [1, 0]],
        pairs: 20,
        seed: 3,
        opening_plies: 0,
    };
    let run = play_any(&g, &spec, &TournamentOptions::default()).unwrap();
    let r = report(&spec, &run.games, 200);
    let vs_random = &r.pairings[0].first_agent;
    let vs_weak = &r.pairings[1].first_agent;
    assert_eq!(vs_random.games, 40);
    assert!(vs_random.score > 0.9, "mcts:1000 vs random: {vs_random:?}");
    // mcts:30's score against mcts:1000 is the complement: 1 - vs_weak.score.
    assert!(vs_weak.score > 0.5, "mcts:1000 vs mcts:30: {vs_weak:?}");
    eprintln!("{vs_random:?}\n{vs_weak:?}\n{:?}", r.ratings);
    // The ratings order them.
    assert!(r.ratings[2].elo > r.ratings[1].elo && r.ratings[1].elo > r.ratings[0].elo);
}

#[test]
fn bad_tournaments_are_refused_naming_what_is_wrong() {
    let g = tsoro_4x8();
    let mut spec = TournamentSpec::round_robin(agents(&["random", "greedy"]), 0, 1, 0);
    assert_eq!(
        play_any(&g, &spec, &threads(1)).unwrap_err(),
        TournamentError::Pairs(0)
    );
    spec.pairs = 1;
    spec.pairings = vec![[0, 0], [1, 1]];
    let e = play_any(&g, &spec, &threads(1)).unwrap_err();
    assert!(e.to_string().starts_with("agents:"), "{e}");
    spec.opening_plies = 1000;
    spec.pairings = vec![[0, 1]];
    assert!(matches!(
        play_any(&g, &spec, &threads(1)),
        Err(TournamentError::OpeningPlies(1000))
    ));
}

#[test]
fn a_ladder_doubles_and_refuses_ranges_its_syntax_does_not_allow() {
    let l = ladder::levels("mcts", 16, 128).unwrap();
    let names: Vec<String> = l.iter().map(|a| a.to_string()).collect();
    assert_eq!(names, ["mcts:16", "mcts:32", "mcts:64", "mcts:128"]);
    for (family, from, to, arg) in [
        ("mcts", 16, 100, "to"),
        ("mcts", 0, 16, "from"),
        ("mcts", 16, 16, "to"),
        ("mcts", 16, 2_097_152, "to"),
        ("alphabeta", 2, 9, "to"),
        ("minimax", 1, 2, "family"),
    ] {
        let e = ladder::levels(family, from, to).unwrap_err().to_string();
        assert!(
            e.starts_with(&format!("{arg}:")),
            "{family} {from} {to}: {e}"
        );
    }
    let g = tsoro_4x8();
    let spec = ladder::spec(ladder::levels("mcts", 4, 16).unwrap(), 4, 9, 0);
    assert_eq!(spec.pairings, vec![[0, 0], [1, 0], [1, 1], [2, 1], [2, 2]]);
    let run = play_any(&g, &spec, &threads(2)).unwrap();
    let t = report(&spec, &run.games, 100);
    let l = ladder::report(&spec, &t);
    assert_eq!(l.rungs.len(), 3);
    assert!(l.rungs[0].skill.is_none());
    assert_eq!(l.rungs[2].skill.as_ref().unwrap().games, 8);
    for r in &l.rungs {
        assert_eq!(r.first_player.games, 8);
        assert!((r.draws + r.decisive - 1.0).abs() < 1e-12);
    }
    // The sentence and the CSV's `flat` column say where the trace flattens, if it does.
    let csv = ladder::ladder_csv(&l);
    let rows: Vec<Vec<&str>> = csv
        .lines()
        .skip(1)
        .map(|r| r.split(',').collect())
        .collect();
    assert_eq!(rows.len(), 3);
    let header: Vec<&str> = csv.lines().next().unwrap().split(',').collect();
    let col = |name: &str| header.iter().position(|h| *h == name).unwrap();
    assert!(rows.iter().all(|r| r.len() == header.len()));
    assert_eq!(rows[0][col("skill")], "");
    assert_eq!(rows[2][col("skill_games")], "8");
    assert_eq!(rows[1][col("agent")], "mcts:8");
    let flat: Vec<bool> = rows.iter().map(|r| r[col("flat")] == "true").collect();
    match &l.flat_from {
        Some(a) => {
            assert!(
                l.verdict.contains(&format!("flattens from {a}")),
                "{}",
                l.verdict
            );
            let at = l.rungs.iter().position(|r| &r.agent == a).unwrap();
            assert!(at >= 1);
            assert_eq!(flat, (0..3).map(|i| i >= at).collect::<Vec<_>>());
        }
        None => {
            // 4 pairs show no equivalence: either a gain is detected or the sentence says
            // what would go unseen.
            assert!(
                l.verdict.contains("has not flattened") || l.verdict.contains("would go unseen"),
                "{}",
                l.verdict
            );
            assert_eq!(flat, [false; 3]);
        }
    }
}
