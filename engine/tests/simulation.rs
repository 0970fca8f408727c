//! Simulation: reproducible per seed whatever the threads and slicing; statistics by hand.

use std::sync::Arc;
use tsoro_engine::agents::AgentSpec;
use tsoro_engine::catalogue::{self, Params};
use tsoro_engine::sim::{SimOptions, SimSpec, simulate_any};
use tsoro_engine::stats::{GameRecord, Summary, Winner};
use tsoro_engine::{EndReason, Player};

fn run(id: &str, games: std::ops::Range<u64>, threads: usize) -> (Vec<GameRecord>, Summary) {
    let g = catalogue::get(id).unwrap().build(&Params::new()).unwrap();
    let spec = SimSpec {
        agents: ["random".parse().unwrap(), "random".parse().unwrap()],
        games,
        seed: 7,
        swap_seats: true,
        opening_plies: 0,
    };
    let opts = SimOptions {
        threads,
        ..SimOptions::default()
    };
    let mut recs = vec![];
    let s = simulate_any(&g, &spec, &opts, &mut |r| recs.push(r.clone())).unwrap();
    (recs, s)
}

#[test]
fn same_seed_same_records_for_1_2_and_4_threads() {
    for id in [
        "tsoro-ludii",
        "tsoro-matthews-v1-v5-v6",
        "njombwa-sanderson-gambit",
    ] {
        let (r1, s1) = run(id, 0..1000, 1);
        let (r2, s2) = run(id, 0..1000, 2);
        let (r4, s4) = run(id, 0..1000, 4);
        assert_eq!(r1, r2, "{id}");
        assert_eq!(r1, r4, "{id}");
        assert_eq!(s1, s2);
        assert_eq!(s1, s4);
    }
}

#[test]
fn slices_give_the_records_of_one_run() {
    let (all, s_all) = run("tsoro-matthews-basic", 0..1000, 2);
    let (mut a, mut s_a) = run("tsoro-matthews-basic", 0..500, 2);
    let (b, s_b) = run("tsoro-matthews-basic", 500..1000, 1);
    a.extend(b);
    assert_eq!(all, a);
    // Folding the records again gives the run's aggregates...
    let mut refolded = Summary::new(s_all.agents.clone());
    for r in &all {
        refolded.add(r);
    }
    assert_eq!(refolded, s_all);
    // ...and so does merging the slices' aggregates, exactly (sums of fractions included).
    s_a.merge(&s_b);
    assert_eq!(s_a, s_all);
    assert_eq!(s_a.stats(), s_all.stats());
}

/// With `summary_only` the sink is never called and the summary is the one folded from the
/// records, on the fast path (random agents: the games make no records) and off it (the
/// reference, a searching agent), on sowing and line games, on one thread and two.
#[test]
fn summary_only_gives_the_summary_of_the_records() {
    let cases = [
        ("tsoro-ludii", "random", false, 3000),
        ("tsoro-yemutatu-ludii", "random", false, 3000),
        ("tsoro-yemutwelve-ludii", "random", false, 1500),
        ("dig-dig-ludii", "random", false, 600),
        ("tsoro-yemutwelve-ludii", "random", true, 300),
        ("tsoro-yemutatu-ludii", "greedy", false, 300),
    ];
    for (id, agent, reference, games) in cases {
        let g = catalogue::get(id).unwrap().build(&Params::new()).unwrap();
        let spec = SimSpec {
            agents: [agent.parse().unwrap(), AgentSpec::Random],
            games: 0..games,
            seed: 11,
            swap_seats: true,
            opening_plies: 0,
        };
        for threads in [1, 2] {
            let opts = SimOptions {
                threads,
                reference,
                ..SimOptions::default()
            };
            let mut refolded = Summary::new(spec.agents.map(|a| a.to_string()));
            let with_records = simulate_any(&g, &spec, &opts, &mut |r| refolded.add(r)).unwrap();
            assert_eq!(refolded, with_records, "{id}");
            let opts = SimOptions {
                summary_only: true,
                ..opts
            };
            let mut called = 0;
            let summary = simulate_any(&g, &spec, &opts, &mut |_| called += 1).unwrap();
            assert_eq!(called, 0, "{id}: the sink is not called");
            assert_eq!(summary, with_records, "{id} {agent} {threads} threads");
            assert_eq!(summary.games, games, "{id}");
        }
    }
}

#[test]
fn cancel_stops_early() {
    let g = catalogue::get("tsoro-ludii")
        .unwrap()
        .build(&Params::new())
        .unwrap();
    let cancel = Arc::new(std::sync::atomic::AtomicBool::new(true));
    let spec = SimSpec {
        agents: [AgentSpec::Random, AgentSpec::Random],
        games: 0..10_000,
        seed: 1,
        swap_seats: true,
        opening_plies: 0,
    };
    let opts = SimOptions {
        threads: 1,
        cancel: Some(cancel),
        ..SimOptions::default()
    };
    let err = simulate_any(&g, &spec, &opts, &mut |_| {}).unwrap_err();
    assert_eq!(err, tsoro_engine::sim::SimError::Cancelled { done: 0 });
}

/// On the fast path (random agents, chunks of games played by each thread without waiting for
/// the others) the sink receives the games in order, and a cancel set during the run ends it
/// with exactly the games the sink received; progress rises to the whole run when it is not
/// cancelled.
#[test]
fn the_fast_path_hands_on_games_in_order_and_stops_when_cancelled() {
    let g = catalogue::get("tsoro-ludii")
        .unwrap()
        .build(&Params::new())
        .unwrap();
    let spec = SimSpec {
        agents: [AgentSpec::Random, AgentSpec::Random],
        games: 0..200_000,
        seed: 3,
        swap_seats: true,
        opening_plies: 0,
    };
    let cancel = Arc::new(std::sync::atomic::AtomicBool::new(false));
    let opts = SimOptions {
        threads: 2,
        cancel: Some(cancel.clone()),
        ..SimOptions::default()
    };
    let mut seen = 0u64;
    let err = simulate_any(&g, &spec, &opts, &mut |r| {
        assert_eq!(r.game, seen, "in game order");
        seen += 1;
        if seen == 5000 {
            cancel.store(true, std::sync::atomic::Ordering::Relaxed);
        }
    })
    .unwrap_err();
    assert_eq!(err, tsoro_engine::sim::SimError::Cancelled { done: seen });
    assert!((5000..200_000).contains(&seen), "{seen}");

    let reports = Arc::new(std::sync::Mutex::new(vec![]));
    let log = reports.clone();
    let opts = SimOptions {
        threads: 2,
        progress: Some(Arc::new(move |done, total| {
            log.lock().unwrap().push((done, total))
        })),
        ..SimOptions::default()
    };
    let spec = SimSpec {
        games: 0..20_000,
        ..spec
    };
    let mut seen = 0u64;
    simulate_any(&g, &spec, &opts, &mut |r| {
        assert_eq!(r.game, seen, "in game order");
        seen += 1;
    })
    .unwrap();
    assert_eq!(seen, 20_000);
    let reports = reports.lock().unwrap();
    assert!(reports.windows(2).all(|w| w[0].0 < w[1].0), "{reports:?}");
    assert_eq!(reports.last(), Some(&(20_000, 20_000)));
}

/// A cancel set while searching agents think (a search that alone would take minutes) ends
/// the run within a moment, with no game of the interrupted batch handed on.
#[test]
fn cancel_reaches_inside_a_search() {
    let g = catalogue::get("tsoro-russ")
        .unwrap()
        .build(&Params::new())
        .unwrap();
    for agent in ["mcts:1000000", "alphabeta:8"] {
        let cancel = Arc::new(std::sync::atomic::AtomicBool::new(false));
        let spec = SimSpec {
            agents: [agent.parse().unwrap(), AgentSpec::Random],
            games: 0..4,
            seed: 1,
            swap_seats: true,
            opening_plies: 0,
        };
        let opts = SimOptions {
            threads: 2,
            cancel: Some(cancel.clone()),
            ..SimOptions::default()
        };
        let setter = std::thread::spawn(move || {
            std::thread::sleep(std::time::Duration::from_millis(300));
            cancel.store(true, std::sync::atomic::Ordering::Relaxed);
            std::time::Instant::now()
        });
        let mut seen = 0;
        let err = simulate_any(&g, &spec, &opts, &mut |_| seen += 1).unwrap_err();
        let stopped = setter.join().unwrap().elapsed();
        assert_eq!(
            err,
            tsoro_engine::sim::SimError::Cancelled { done: 0 },
            "{agent}"
        );
        assert_eq!(seen, 0, "{agent}: no cut-short game is recorded");
        assert!(
            stopped < std::time::Duration::from_secs(2),
            "{agent}: the run went on {stopped:?} after the cancel"
        );
    }
}

#[allow(clippy::too_many_arguments)]
fn rec(
    k: u64,
    a_index: u8,
    winner: Winner,
    reason: EndReason,
    turns: u32,
    moves: u32,
    actions: u32,
    legal: u64,
    multi: u32,
) -> GameRecord {
    GameRecord {
        game: k,
        seed: k,
        agent_a: Arc::from(if a_index == 0 { "x" } else { "y" }),
        agent_b: Arc::from(if a_index == 0 { "y" } else { "x" }),
        agent_a_index: a_index,
        first: Player::A,
        winner,
        reason,
        turns,
        actions,
        moves,
        captures_a: 1,
        captures_b: 0,
        stones_captured_a: 4,
        stones_captured_b: 0,
        stones_left_a: 10,
        stones_left_b: 6,
        longest_relay: 3,
        mean_branching: legal as f64 / actions as f64,
        legal_sum: legal,
        multi_decisions: multi,
    }
}

/// Five fixed records, every figure worked out by hand.
#[test]
fn statistics_by_hand() {
    let records = [
        rec(0, 0, Winner::A, EndReason::NoStones, 10, 20, 10, 40, 5),
        rec(1, 1, Winner::A, EndReason::NoStones, 20, 40, 20, 60, 10),
        rec(2, 0, Winner::B, EndReason::NoStones, 30, 30, 30, 30, 0),
        rec(3, 1, Winner::Draw, EndReason::TurnLimit, 40, 80, 40, 80, 20),
        rec(
            4,
            0,
            Winner::Draw,
            EndReason::EndlessSowing,
            50,
            100,
            25,
            50,
            25,
        ),
    ];
    let mut s = Summary::new(["x".into(), "y".into()]);
    for r in &records {
        s.add(r);
    }
    let st = s.stats();
    assert_eq!(st.games, 5);
    // Agent x: A in games 0, 2, 4; B in 1, 3. Wins: game 0 (as A). Agent y (B in 0, 2, 4;
    // A in 1, 3) wins game 1 (as A)
    // and game 2 (as B).
    assert_eq!(st.agents[0].wins, 1);
    assert_eq!(st.agents[1].wins, 2);
    assert_eq!((st.agents[0].as_a.games, st.agents[0].as_a.wins), (3, 1));
    assert_eq!((st.agents[1].as_b.games, st.agents[1].as_b.wins), (3, 1));
    assert_eq!((st.agents[1].as_a.games, st.agents[1].as_a.wins), (2, 1));
    assert_eq!(st.seat_a.count, 2);
    assert_eq!(st.seat_b.count, 1);
    assert_eq!(st.first_mover.count, 2);
    assert_eq!(st.draws.count, 2);
    // Turns 10..50: mean 30, sd sqrt(250) = 15.811, median 30, p10 10, p90 50.
    assert_eq!(st.turns.mean, 30.0);
    assert!((st.turns.sd - 250f64.sqrt()).abs() < 1e-12);
    assert_eq!((st.turns.median, st.turns.p10, st.turns.p90), (30, 10, 50));
    assert_eq!((st.turns.min, st.turns.max), (10, 50));
    assert_eq!(st.moves.mean, 54.0);
    // Branching: 260 legal over 125 decisions.
    assert!((st.branching - 260.0 / 125.0).abs() < 1e-12);
    // Ludii: AdvantageP1 = 2/5; P2 won 1/5: Balance = 1 - 0.2; Completion 3/5;
    // Drawishness: the endless-sowing draw (1/5); Timeouts: the turn-limit draw (1/5).
    let l = st.ludii;
    assert!((l.advantage_p1 - 0.4).abs() < 1e-12);
    assert!((l.balance - 0.8).abs() < 1e-12);
    assert!((l.completion - 0.6).abs() < 1e-12);
    assert!((l.drawishness - 0.2).abs() < 1e-12);
    assert!((l.timeouts - 0.2).abs() < 1e-12);
    assert_eq!(l.duration_turns, 30.0);
    assert_eq!(l.duration_moves, 54.0);
    // Per game (legal + forced moves) / moves: (40+10)/20, (60+20)/40, 30/30, (80+40)/80,
    // (50+75)/100 = 2.5, 2, 1, 1.5, 1.25 -> mean 1.65.
    assert!((l.branching_factor - 1.65).abs() < 1e-12);
    // Decision moves: 5/20, 10/40, 0/30, 20/80, 25/100 = .25,.25,0,.25,.25 -> 0.2.
    assert!((l.decision_moves - 0.2).abs() < 1e-12);
    assert_eq!(st.captures_per_game, [1.0, 0.0]);
    assert_eq!(st.stones_captured_per_game, [4.0, 0.0]);
}

#[test]
fn comparison_of_two_runs() {
    let (_, a) = run("tsoro-ludii", 0..400, 2);
    let (_, b) = run("tsoro-ludii-additional-capture", 0..400, 2);
    let c = tsoro_engine::stats::compare(&a.stats(), &b.stats());
    // Additional takes shorten games a lot.
    assert!(c.turns.diff > 0.0 && c.turns.ci.low > 0.0, "{c:?}");
    assert!(c.turns.p_value < 0.001);
    assert!(
        c.first_mover.ci.low <= c.first_mover.diff && c.first_mover.diff <= c.first_mover.ci.high
    );
}

/// The actions of game k of a run replay to exactly its record.
#[test]
fn a_game_s_actions_replay_to_its_record() {
    use tsoro_engine::sim::game_actions_any;
    let g = catalogue::get("tsoro-matthews-v1")
        .unwrap()
        .build(&Params::new())
        .unwrap();
    let spec = SimSpec {
        agents: ["random".parse().unwrap(), "greedy".parse().unwrap()],
        games: 0..6,
        seed: 5,
        swap_seats: true,
        opening_plies: 0,
    };
    let mut records = vec![];
    simulate_any(&g, &spec, &SimOptions::default(), &mut |r| {
        records.push(r.clone())
    })
    .unwrap();
    for r in &records {
        let actions = game_actions_any(&g, &spec, r.game);
        assert_eq!(actions.len() as u32, r.actions, "game {}", r.game);
        let out = tsoro_engine::replay::replay(&tsoro_engine::replay::ReplayRequest {
            ruleset: "tsoro-matthews-v1".into(),
            params: Params::new(),
            actions,
        })
        .unwrap();
        assert!(out.result.finished);
        assert_eq!(out.result.turns, r.turns, "game {}", r.game);
        assert_eq!(out.result.reason, Some(r.reason), "game {}", r.game);
    }
}

/// Two fixed-depth alpha-beta agents from the start position replay (nearly) one line: the
/// run says so in words, and counts few distinct games. With shared random openings the
/// warning goes, the games differ, and the two games of a seat-swapped pair start from the
/// same opening; a forced move is no opening choice; any thread count gives the same games.
#[test]
fn deterministic_pairings_are_warned_about_and_openings_make_distinct_games() {
    use tsoro_engine::sim::game_actions_any;
    use tsoro_engine::stats::distinct::{DistinctGames, replay_warning};
    let def = catalogue::get("tsoro-ludii").unwrap();
    let g = def.build(&def.parse_params(["holes=8"]).unwrap()).unwrap();
    let agents: [AgentSpec; 2] = [
        "alphabeta:2".parse().unwrap(),
        "alphabeta:2".parse().unwrap(),
    ];
    let play = |opening_plies: u32, threads: usize| {
        let spec = SimSpec {
            agents,
            games: 0..24,
            seed: 3,
            swap_seats: true,
            opening_plies,
        };
        let mut d = DistinctGames::default();
        let mut recs = vec![];
        simulate_any(
            &g,
            &spec,
            &SimOptions {
                threads,
                ..SimOptions::default()
            },
            &mut |r| {
                d.add(r);
                recs.push(r.clone());
            },
        )
        .unwrap();
        (d, recs, spec)
    };
    let warning = replay_warning(&agents, 0).expect("a warning in words");
    assert!(warning.contains("few lines those ties allow"), "{warning}");
    // (Ties broken at random may still make most games differ after their first moves, so
    // the count of distinct games is not what the warning rests on.)
    assert!(replay_warning(&agents, 4).is_none());
    assert!(replay_warning(&["mcts:50".parse().unwrap(), agents[1]], 0).is_none());
    let (opened, recs, spec) = play(4, 2);
    assert!(
        opened.distinct() > 12,
        "{} distinct of 24",
        opened.distinct()
    );
    assert!(!opened.sentence().contains("warning"));
    // A pair's two games open alike; pairs differ.
    let open = |k: u64| game_actions_any(&g, &spec, k)[..4].to_vec();
    assert_eq!(open(0), open(1));
    assert_eq!(open(6), open(7));
    assert_ne!(open(0), open(2));
    // The same games on one thread.
    let (_, again, _) = play(4, 1);
    assert_eq!(recs, again);
}
