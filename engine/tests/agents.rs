//! Agents: only legal actions, reproducible per seed, and stronger than random.

use tsoro_engine::agents::{Agent, AgentSpec};
use tsoro_engine::catalogue::{self, Params};
use tsoro_engine::rng::Rng;
use tsoro_engine::sim::{SimOptions, SimSpec, simulate_any};
use tsoro_engine::sowing::{Action, BoardView, SowingGame};
use tsoro_engine::{ActionList, AnyGame, Game, Hole, Player};

fn game(id: &str) -> SowingGame {
    let Ok(AnyGame::Sowing(g)) = catalogue::get(id).unwrap().build(&Params::new()) else {
        panic!("{id} is not a sowing game")
    };
    g
}

/// Plays a whole game between two agents, checking every action is legal; returns the actions.
fn play_checked(g: &SowingGame, specs: [AgentSpec; 2], seed: u64) -> Vec<Action> {
    let mut agents: [Box<dyn Agent<SowingGame>>; 2] = [specs[0].build(), specs[1].build()];
    let mut rng = Rng::from_seed(seed);
    let mut s = g.initial_state();
    let mut trail = vec![];
    let mut legal = ActionList::new();
    while let Some(p) = g.to_move(&s) {
        g.legal_actions(&s, &mut legal);
        let a = agents[p.index()].choose(g, &s, &mut rng);
        assert!(legal.contains(&a), "{a} is not legal: {legal:?}");
        g.apply_unchecked(&mut s, a);
        trail.push(a);
        assert!(trail.len() < 20_000);
    }
    trail
}

#[test]
fn agents_play_only_legal_actions_and_are_reproducible() {
    let specs: Vec<AgentSpec> = [
        "random",
        "greedy",
        "alphabeta:2",
        "alphabeta:2:mobility",
        "alphabeta:n300:mobility",
        "alphabeta:n300:mixed",
        "mcts:40",
    ]
    .iter()
    .map(|s| s.parse().unwrap())
    .collect();
    for id in [
        "tsoro-matthews-basic",
        "tsoro-matthews-v1-v5-v6",
        "tsoro-matthews-v7",
        "njombwa-sanderson-gambit",
        "tsoro-ludii-misoro",
    ] {
        let g = game(id);
        for (i, &a) in specs.iter().enumerate() {
            let b = specs[(i + 1) % specs.len()];
            let one = play_checked(&g, [a, b], 11 + i as u64);
            let two = play_checked(&g, [a, b], 11 + i as u64);
            assert_eq!(one, two, "{id}: {a} vs {b} differs for one seed");
        }
    }
}

#[test]
fn greedy_takes_the_biggest_capture() {
    let g = game("tsoro-matthews-basic");
    // ii,5 (two stones) ends in empty ii,3 facing 1 + 2; ii,8 (two stones) ends in empty ii,6
    // facing 4 + 4.
    let b = BoardView {
        i: vec![1, 0, 0, 0, 0, 0, 0, 0],
        ii: vec![0, 0, 0, 1, 2, 0, 1, 2],
        iii: vec![0, 0, 1, 0, 0, 4, 0, 0],
        iv: vec![0, 0, 2, 0, 0, 4, 0, 0],
    };
    let s = g.setup(&b, Player::A).unwrap();
    let mut greedy = AgentSpec::Greedy.build::<SowingGame>();
    for seed in 0..10 {
        let a = greedy.choose(&g, &s, &mut Rng::from_seed(seed));
        assert_eq!(a, Action::Sow("ii,8".parse::<Hole>().unwrap()));
    }
}

fn wins_against_random(agent: &str, games: u64) -> u64 {
    let g = catalogue::get("tsoro-matthews-basic")
        .unwrap()
        .build(&Params::new())
        .unwrap();
    let spec = SimSpec {
        agents: [agent.parse().unwrap(), AgentSpec::Random],
        games: 0..games,
        seed: 2026,
        swap_seats: true,
        opening_plies: 0,
    };
    let s = simulate_any(&g, &spec, &SimOptions::default(), &mut |_| {}).unwrap();
    let st = s.stats();
    eprintln!(
        "{agent} vs random: {} wins of {games} (as A {}/{}, as B {}/{}), {} draws",
        st.agents[0].wins,
        st.agents[0].as_a.wins,
        st.agents[0].as_a.games,
        st.agents[0].as_b.wins,
        st.agents[0].as_b.games,
        st.draws.count
    );
    st.agents[0].wins
}

#[test]
fn alphabeta_4_beats_random_in_90_percent() {
    let w = wins_against_random("alphabeta:4", 200);
    assert!(w >= 180, "alphabeta:4 won {w} of 200");
}

#[test]
fn mcts_1000_beats_random_in_90_percent() {
    let w = wins_against_random("mcts:1000", 200);
    assert!(w >= 180, "mcts:1000 won {w} of 200");
}

#[test]
fn greedy_beats_random_more_often_than_not() {
    let w = wins_against_random("greedy", 400);
    assert!(w > 220, "greedy won {w} of 400");
}

/// Every agent plays only legal actions on the line games too, reproducibly, and the searching
/// agents beat random at tsoro yemutwelve.
#[test]
fn agents_play_line_games() {
    use tsoro_engine::morris::MorrisGame;
    let specs: Vec<AgentSpec> = ["random", "greedy", "alphabeta:2", "mcts:40"]
        .iter()
        .map(|s| s.parse().unwrap())
        .collect();
    for def in catalogue::all()
        .iter()
        .filter(|d| d.kind == catalogue::Kind::Morris)
    {
        let Ok(AnyGame::Morris(g)) = def.build(&Params::new()) else {
            panic!("{} is a line game", def.id)
        };
        for (i, &a) in specs.iter().enumerate() {
            let b = specs[(i + 1) % specs.len()];
            let play = |seed| {
                let mut agents: [Box<dyn Agent<MorrisGame>>; 2] = [a.build(), b.build()];
                let mut rng = Rng::from_seed(seed);
                let mut s = g.initial_state();
                let mut trail = vec![];
                let mut legal = ActionList::new();
                while let Some(p) = g.to_move(&s) {
                    g.legal_actions(&s, &mut legal);
                    let x = agents[p.index()].choose(&g, &s, &mut rng);
                    assert!(legal.contains(&x), "{}: {x} is not legal", def.id);
                    g.apply_unchecked(&mut s, x);
                    trail.push(x);
                }
                trail
            };
            assert_eq!(
                play(5 + i as u64),
                play(5 + i as u64),
                "{}: {a} vs {b}",
                def.id
            );
        }
    }
    for agent in ["alphabeta:2", "mcts:200"] {
        let g = catalogue::get("tsoro-yemutwelve-matthews")
            .unwrap()
            .build(&Params::new())
            .unwrap();
        let spec = SimSpec {
            agents: [agent.parse().unwrap(), AgentSpec::Random],
            games: 0..40,
            seed: 7,
            swap_seats: true,
            opening_plies: 0,
        };
        let st = simulate_any(&g, &spec, &SimOptions::default(), &mut |_| {})
            .unwrap()
            .stats();
        assert!(
            st.agents[0].wins >= 36,
            "{agent}: {} of 40",
            st.agents[0].wins
        );
    }
}

/// Positions reached by random play in a few rulesets (tsoro with heads, takes, njombwa).
fn positions() -> Vec<(SowingGame, tsoro_engine::sowing::SowingState)> {
    let mut out = vec![];
    for id in [
        "tsoro-ludii",
        "tsoro-matthews-v1-v5-v6",
        "tsoro-matthews-v7",
        "njombwa-ludii",
    ] {
        let g = game(id);
        let mut rng = Rng::from_seed(3);
        let mut s = g.initial_state();
        for step in 0..40 {
            let Some(a) = g.random_action(&s, &mut rng) else {
                break;
            };
            g.apply_unchecked(&mut s, a);
            if step % 8 == 7 && g.to_move(&s).is_some() {
                out.push((g.clone(), s.clone()));
            }
        }
    }
    out
}

/// The search's analysis chooses what the agent plays for the same generator, and does not
/// depend on the number of threads it is given (alpha-beta's root actions are shared among
/// them; MCTS searches on one).
#[test]
fn analysis_chooses_as_the_agent_and_ignores_the_thread_count() {
    use tsoro_engine::agents::search::analyse;
    let two = rayon::ThreadPoolBuilder::new()
        .num_threads(2)
        .build()
        .unwrap();
    let one = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .unwrap();
    for spec in [
        "mcts:3000",
        "alphabeta:2",
        "alphabeta:n2000:mobility",
        "greedy",
    ] {
        let spec: AgentSpec = spec.parse().unwrap();
        for (i, (g, s)) in positions().iter().enumerate() {
            let seed = 40 + i as u64;
            let chosen = spec
                .build::<SowingGame>()
                .choose(g, s, &mut Rng::from_seed(seed));
            let a1 = one.install(|| analyse(g, s, spec, &mut Rng::from_seed(seed)).unwrap());
            let a2 = two.install(|| analyse(g, s, spec, &mut Rng::from_seed(seed)).unwrap());
            assert_eq!(a1.action, chosen, "{spec} position {i}");
            assert_eq!(a1.action, a2.action, "{spec} position {i}");
            if !matches!(spec, AgentSpec::AlphaBeta { .. }) {
                // Alpha-beta's node count depends on how the root actions were shared.
                assert_eq!(a1, a2, "{spec} position {i}");
            }
            if let AgentSpec::Mcts { iterations, .. } = spec
                && !a1.candidates.is_empty()
            {
                let visits: u64 = a1.candidates.iter().filter_map(|c| c.visits).sum();
                assert_eq!(visits, iterations as u64, "every iteration backed up once");
            }
        }
    }
}

/// MCTS streams its rollouts through the game's player (the kernel's lanes, or the reference
/// one game at a time): whichever plays them, a search is reproducible per seed and backs up
/// every iteration exactly once.
#[test]
fn mcts_searches_are_reproducible_on_the_kernel_and_on_the_reference() {
    use tsoro_engine::agents::MctsAgent;
    let mut kinds = [0, 0];
    // Additional takes the taker may decline (Matthews' Variant 5 read so): off the kernel.
    let optional_takes: Params = [("takes_optional".to_string(), true.into())]
        .into_iter()
        .collect();
    for (id, params) in [
        ("tsoro-ludii", Params::new()),
        ("tsoro-matthews-v4", Params::new()),
        ("tsoro-matthews-v5", optional_takes),
        ("tsoro-ludii-baia", Params::new()),
        ("tsoro-ludii-reentered-captures", Params::new()),
    ] {
        let Ok(AnyGame::Sowing(g)) = catalogue::get(id).unwrap().build(&params) else {
            panic!("{id} is not a sowing game")
        };
        kinds[g.has_kernel() as usize] += 1;
        let agent = MctsAgent::new(4000, std::f64::consts::SQRT_2);
        // A position some moves in with a choice to make.
        let mut s = g.initial_state();
        let mut rng = Rng::from_seed(2);
        let mut steps = 0;
        while steps < 6 || g.legal_count(&s) < 2 {
            let a = g.random_action(&s, &mut rng).expect("a live game");
            g.apply_unchecked(&mut s, a);
            steps += 1;
        }
        let a = agent.analyse(&g, &s, &mut Rng::from_seed(11));
        let b = agent.analyse(&g, &s, &mut Rng::from_seed(11));
        assert_eq!(a, b, "{id}: the same seed, the same search");
        let visits: u64 = a.candidates.iter().filter_map(|c| c.visits).sum();
        assert_eq!(visits, 4000, "{id}: every iteration backed up once");
        let other = agent.analyse(&g, &s, &mut Rng::from_seed(12));
        assert_ne!(a.candidates, other.candidates, "{id}: the seed matters");
    }
    assert!(
        kinds[0] >= 1 && kinds[1] >= 1,
        "rulesets on both players: {kinds:?}"
    );
}

/// MCTS's rollouts run on the kernels: from the opening (and from a position some moves in)
/// of the rulesets whose search rates the README reports, the rollout game MCTS plays
/// (`Game::rollout_game`, cut `ROLLOUT_MOVES` past the root) is one the kernel's gate admits.
#[test]
fn mcts_rollouts_run_on_the_kernels() {
    use tsoro_engine::agents::ROLLOUT_MOVES;
    fn on_kernel<G: Game>(g: &G, id: &str) {
        let mut s = g.initial_state();
        let mut rng = Rng::from_seed(3);
        for _ in 0..3 {
            assert!(
                g.rollout_game(&s, ROLLOUT_MOVES).has_kernel(),
                "{id}: rollouts after {} turns",
                g.turns(&s)
            );
            for _ in 0..5 {
                if let Some(a) = g.random_action(&s, &mut rng) {
                    g.apply_unchecked(&mut s, a);
                }
            }
        }
    }
    for id in [
        "tsoro-ludii",
        "njombwa-ludii",
        "tsoro-yemutwelve-ludii",
        "dig-dig-ludii",
        "tsoro-yemutatu-ludii",
    ] {
        let g = catalogue::get(id).unwrap().build(&Params::new()).unwrap();
        tsoro_engine::with_game!(&g, g => on_kernel(g, id));
    }
}
