//! The database-free commands: replay, simulate, compare, rulesets.

use std::io::Write;
use std::process::{Command, Stdio};

fn tsoro(args: &[&str], stdin: &str) -> (i32, String, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_tsoro"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(stdin.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into(),
        String::from_utf8_lossy(&out.stderr).into(),
    )
}

#[test]
fn replay_writes_states_and_result() {
    let (code, out, _) = tsoro(
        &["replay"],
        r#"{"ruleset":"tsoro-ludii","params":{"holes":8},"actions":[{"sow":"i,6"},{"sow":"iv,8"}]}"#,
    );
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["states"].as_array().unwrap().len(), 3);
    assert_eq!(
        v["states"][0]["board"]["i"],
        serde_json::json!([2, 2, 2, 2, 2, 2, 2, 2])
    );
    assert_eq!(v["states"][2]["to_move"], "A");
    assert_eq!(v["result"]["turns"], 2);
}

#[test]
fn replay_names_the_illegal_action() {
    let (code, out, _) = tsoro(
        &["replay"],
        r#"{"ruleset":"tsoro-ludii","actions":[{"sow":"i,6"},{"sow":"i,6"}]}"#,
    );
    assert_ne!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["index"], 1);
    assert!(
        v["legal"]
            .as_array()
            .unwrap()
            .contains(&serde_json::json!({"sow": "iv,8"}))
    );
}

#[test]
fn simulate_csv_and_summary() {
    let dir = tempfile::tempdir().unwrap();
    let games = dir.path().join("games.csv");
    let summary = dir.path().join("summary.csv");
    let (code, out, err) = tsoro(
        &[
            "simulate",
            "--ruleset",
            "tsoro-matthews-basic",
            "--games",
            "200",
            "--seed",
            "3",
            "--csv",
            games.to_str().unwrap(),
            "--summary",
            summary.to_str().unwrap(),
            "--json",
        ],
        "",
    );
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["stats"]["games"], 200);
    let mut rdr = csv::Reader::from_path(&games).unwrap();
    let headers = rdr.headers().unwrap().clone();
    assert_eq!(&headers[0], "game");
    assert!(headers.iter().any(|h| h == "winner"));
    let rows: Vec<csv::StringRecord> = rdr.records().map(|r| r.unwrap()).collect();
    assert_eq!(rows.len(), 200);
    let wi = headers.iter().position(|h| h == "winner").unwrap();
    let a_wins = rows.iter().filter(|r| &r[wi] == "A").count();
    assert_eq!(serde_json::json!(a_wins), v["stats"]["seat_a"]["count"]);
    let mut s = csv::Reader::from_path(&summary).unwrap();
    assert!(s.records().count() > 20);
    // Same seed, same numbers.
    let (_, out2, _) = tsoro(
        &[
            "simulate",
            "--ruleset",
            "tsoro-matthews-basic",
            "--games",
            "200",
            "--seed",
            "3",
            "--json",
            "--threads",
            "1",
        ],
        "",
    );
    let v2: serde_json::Value = serde_json::from_str(&out2).unwrap();
    assert_eq!(v["stats"], v2["stats"]);
}

#[test]
fn bad_input_exits_2_listing_what_is_valid() {
    let (code, _, err) = tsoro(&["simulate", "--ruleset", "nope"], "");
    assert_eq!(code, 2);
    assert!(err.contains("tsoro-matthews-basic"), "{err}");
    let (code, _, err) = tsoro(
        &[
            "simulate",
            "--ruleset",
            "tsoro-ludii",
            "--param",
            "holes=99",
        ],
        "",
    );
    assert_eq!(code, 2);
    assert!(err.contains("6..=21"), "{err}");
    let (code, _, err) = tsoro(
        &[
            "simulate",
            "--ruleset",
            "tsoro-ludii",
            "--agents",
            "random,wizard",
        ],
        "",
    );
    assert_eq!(code, 2);
    assert!(err.contains("alphabeta"), "{err}");
    assert_eq!(err.lines().count(), 1, "one line: {err}");
}

#[test]
fn compare_prints_differences() {
    let (code, out, err) = tsoro(
        &[
            "compare",
            "--rulesets",
            "tsoro-ludii,tsoro-ludii-additional-capture",
            "--games",
            "300",
            "--seed",
            "1",
        ],
        "",
    );
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("Δ mean turns"), "{out}");
    assert!(out.contains("tsoro-ludii-additional-capture"));
}

/// The first mover's and Ludii's balance figures are the game's only when one agent plays
/// both seats: with two agents `simulate` and `compare` print each agent's score and wins in
/// each seat instead, and say why.
#[test]
fn balance_figures_only_when_one_agent_plays_both_seats() {
    let balance = [
        "first mover wins",
        "seat A / seat B wins",
        "Ludii Balance",
        "Ludii AdvantageP1",
    ];
    let simulate = |agents: &str| {
        let (code, out, err) = tsoro(
            &[
                "simulate",
                "--ruleset",
                "tsoro-ludii",
                "--games",
                "40",
                "--agents",
                agents,
            ],
            "",
        );
        assert_eq!(code, 0, "{err}");
        out
    };
    let mixed = simulate("random,greedy");
    for absent in balance {
        assert!(!mixed.contains(absent), "{absent}: {mixed}");
    }
    for present in [
        "agent 1 score",
        "agent 2 wins as A / as B",
        "describe the game only",
    ] {
        assert!(mixed.contains(present), "{present}: {mixed}");
    }
    let same = simulate("random");
    for present in balance {
        assert!(same.contains(present), "{present}: {same}");
    }
    assert!(!same.contains("describe the game only"), "{same}");
    let (code, out, err) = tsoro(
        &[
            "compare",
            "--rulesets",
            "tsoro-ludii,tsoro-ludii-additional-capture",
            "--games",
            "40",
            "--agents",
            "greedy,random",
        ],
        "",
    );
    assert_eq!(code, 0, "{err}");
    assert!(
        !out.contains("first-mover") && !out.contains("Ludii Balance"),
        "{out}"
    );
    assert!(out.contains("Δ agent 1 win rate"), "{out}");
}

/// Every command that writes to standard output ends quietly when its reader goes away
/// (`tsoro rulesets | head`): no panic, no message, killed by SIGPIPE as Unix tools are.
#[test]
fn a_closed_pipe_ends_a_command_quietly() {
    use std::io::Read;
    use std::os::unix::process::ExitStatusExt;
    for args in [
        &["rulesets"][..],
        &["rulesets", "--json"],
        &[
            "simulate",
            "--ruleset",
            "tsoro-ludii",
            "--games",
            "300",
            "--json",
        ],
        &[
            "compare",
            "--rulesets",
            "tsoro-ludii,tsoro-matthews-basic",
            "--games",
            "50",
        ],
        &["openapi", "--out", "-"],
        // Not on any list: every command but serve, worker and migrate.
        &[
            "search",
            "--ruleset",
            "tsoro-matthews-v7",
            "--agent",
            "greedy",
        ],
        &["simulate", "--ruleset", "nhodo-matthews", "--games", "50"],
    ] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_tsoro"))
            .args(args)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        // Read one byte, as `head -c 1` would, then close the pipe.
        let mut stdout = child.stdout.take().unwrap();
        let mut one = [0u8; 1];
        stdout.read_exact(&mut one).unwrap();
        drop(stdout);
        let mut err = String::new();
        child
            .stderr
            .take()
            .unwrap()
            .read_to_string(&mut err)
            .unwrap();
        let status = child.wait().unwrap();
        assert!(!err.contains("panicked"), "{args:?}: {err}");
        assert!(err.is_empty(), "{args:?} says nothing: {err}");
        assert!(
            status.success() || status.signal() == Some(13),
            "{args:?}: {status:?}"
        );
    }
}

#[test]
fn rulesets_lists_parameters() {
    let (code, out, _) = tsoro(&["rulesets"], "");
    assert_eq!(code, 0);
    assert!(out.contains("tsoro-matthews-v7"));
    assert!(out.contains("holes = 8 (int: 6..=21)"), "{out}");
    let cited = format!(
        "sources: matthews-1964; {} rules cited",
        tsoro_engine::sowing::RULE_FIELDS.len()
    );
    assert!(out.contains(&cited), "{out}");
    let (code, out, _) = tsoro(&["rulesets", "--json"], "");
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let v7 = v
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["id"] == "tsoro-matthews-v7")
        .unwrap();
    // Variant 7's compulsory opening is a reconstruction (one kind per value), resting on
    // Matthews' Variant 7 passage.
    assert_eq!(
        v7["citations"]["opening"]["evidence"],
        serde_json::json!(["matthews-1964-tsoro-v7"])
    );
    assert!(v7["citations"]["opening"]["reconstructed"].is_string());
    assert!(
        v7["citations"]["layout"]["reconstructed"]
            .as_str()
            .unwrap()
            .contains("Diagram B")
    );
}

#[test]
fn line_games_replay_and_simulate() {
    // Board B of tsoro yemutatu: B makes the line b2-c2-d2 after A's slip.
    let actions = r#"[{"place":"a1"},{"place":"b2"},{"place":"e1"},{"place":"d2"},{"place":"c2"},{"place":"c1"},{"move":["c2","c3"]},{"move":["c1","c2"]}]"#;
    let (code, out, err) = tsoro(
        &["replay"],
        &format!(r#"{{"ruleset":"tsoro-yemutatu-matthews-b","actions":{actions}}}"#),
    );
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["result"]["winner"], "B");
    assert_eq!(v["result"]["reason"], "line");
    assert_eq!(
        v["states"][7]["legal"],
        serde_json::json!([{"move":["c1","c2"]},{"move":["b2","c2"]},{"move":["d2","c2"]}])
    );
    let (code, out, err) = tsoro(
        &[
            "simulate",
            "--ruleset",
            "dig-dig-matthews",
            "--games",
            "50",
            "--json",
        ],
        "",
    );
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["stats"]["games"], 50);
}

#[test]
fn nhodo_simulates_without_agents() {
    let dir = tempfile::tempdir().unwrap();
    let csv_path = dir.path().join("nhodo.csv");
    let args = [
        "simulate",
        "--ruleset",
        "nhodo-matthews",
        "--param",
        "players=3",
        "--param",
        "first_skill=100",
        "--games",
        "40",
        "--seed",
        "5",
        "--json",
        "--csv",
    ];
    let mut all: Vec<&str> = args.to_vec();
    all.push(csv_path.to_str().unwrap());
    let (code, out, err) = tsoro(&all, "");
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    // A perfect first player eats everyone in her first turn.
    assert_eq!(v["stats"]["wins"][0]["count"], 40);
    let mut r = csv::Reader::from_path(&csv_path).unwrap();
    let rows: Vec<csv::StringRecord> = r.records().map(|x| x.unwrap()).collect();
    assert_eq!(rows.len(), 40);
    assert_eq!(
        r.headers().unwrap(),
        vec![
            "game", "seed", "winner", "reason", "turns", "throws", "eaten"
        ]
    );
    assert!(rows.iter().all(|row| &row[2] == "1" && &row[6] == "2 3"));
    // Agents do not apply to a game without decisions, and it cannot be compared as one.
    let (code, _, err) = tsoro(
        &[
            "simulate",
            "--ruleset",
            "nhodo-matthews",
            "--agents",
            "greedy",
        ],
        "",
    );
    assert_eq!(code, 2);
    assert!(err.contains("no decisions"), "{err}");
}

/// `tsoro simulate` plays random agents on the fast kernel; `--reference` plays every game
/// action by action through the reference rules. On every shipped ruleset (and Ludii's tsoro
/// on 21 holes a row) the two write the same `games.csv`, byte for byte, and the same summary.
#[test]
fn simulate_reference_writes_the_same_records_on_every_ruleset() {
    let dir = tempfile::tempdir().unwrap();
    let mut cases: Vec<(String, Vec<String>)> = tsoro_engine::catalogue::all()
        .iter()
        .filter(|d| d.kind != tsoro_engine::catalogue::Kind::Nhodo)
        .map(|d| (d.id.clone(), vec![]))
        .collect();
    assert!(cases.len() >= 20, "every shipped ruleset: {}", cases.len());
    cases.push((
        "tsoro-ludii".into(),
        vec!["--param".into(), "holes=21".into()],
    ));
    for (id, extra) in &cases {
        let mut outputs = vec![];
        for reference in [false, true] {
            let csv = dir.path().join(format!("{id}-{reference}.csv"));
            let summary = dir.path().join(format!("{id}-{reference}-summary.csv"));
            let mut args = vec![
                "simulate",
                "--ruleset",
                id,
                "--games",
                "300",
                "--seed",
                "11",
                "--threads",
                "2",
                "--csv",
                csv.to_str().unwrap(),
                "--summary",
                summary.to_str().unwrap(),
            ];
            args.extend(extra.iter().map(String::as_str));
            if reference {
                args.push("--reference");
            }
            let (code, out, err) = tsoro(&args, "");
            assert_eq!(code, 0, "{id} {extra:?}: {err}");
            let records = std::fs::read(&csv).unwrap();
            assert!(records.len() > 300 * 40, "{id}: a record per game");
            outputs.push((records, std::fs::read(&summary).unwrap(), out));
        }
        assert!(
            outputs[0] == outputs[1],
            "{id} {extra:?}: the kernel and the reference differ"
        );
    }
}

/// `tsoro search` analyses a position reached by actions: the agent's choice, its view of
/// each candidate, and its speed; bad input exits 2 with one line.
#[test]
fn search_prints_the_choice_and_the_candidates() {
    // One search after A's first move, on one thread or two.
    let search = |threads: &str| {
        tsoro(
            &[
                "search",
                "--ruleset",
                "tsoro-ludii",
                "--actions",
                r#"[{"sow":"i,6"}]"#,
                "--agent",
                "mcts:2000",
                "--threads",
                threads,
                "--json",
            ],
            "",
        )
    };
    let (code, out, err) = search("1");
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["to_move"], "B");
    assert_eq!(v["iterations"], 2000);
    // Iterations per CPU-second (the process's CPU time), the wall time named as such: no
    // bare "seconds" that a loaded machine would inflate.
    let per_cpu = v["iterations_per_cpu_second"].as_u64().unwrap();
    let (cpu, wall) = (
        v["cpu_seconds"].as_f64().unwrap(),
        v["wall_seconds"].as_f64().unwrap(),
    );
    assert!(per_cpu > 0 && cpu > 0.0 && wall > 0.0, "{v}");
    assert!(((2000.0 / cpu) - per_cpu as f64).abs() <= 1.0, "{v}");
    assert!(v.get("seconds").is_none() && v.get("iterations_per_second").is_none());
    let candidates = v["candidates"].as_array().unwrap();
    assert!(candidates.len() > 1);
    let visits: u64 = candidates
        .iter()
        .map(|c| c["visits"].as_u64().unwrap())
        .sum();
    assert_eq!(visits, 2000);
    let most = candidates
        .iter()
        .max_by_key(|c| c["visits"].as_u64().unwrap())
        .unwrap();
    assert_eq!(
        most["visits"],
        candidates
            .iter()
            .find(|c| c["action"] == v["action"])
            .unwrap()["visits"],
        "plays a most visited action"
    );
    // The same search on two threads: the same choice and statistics.
    let (_, out2, _) = search("2");
    let v2: serde_json::Value = serde_json::from_str(&out2).unwrap();
    assert_eq!(
        (&v["action"], &v["candidates"]),
        (&v2["action"], &v2["candidates"])
    );
    let (code, out, _) = tsoro(
        &[
            "search",
            "--ruleset",
            "tsoro-matthews-v7",
            "--agent",
            "greedy",
        ],
        "",
    );
    assert_eq!(code, 0);
    assert!(out.contains("greedy plays"), "{out}");
    for bad in [
        vec!["search", "--ruleset", "nope", "--agent", "greedy"],
        vec!["search", "--ruleset", "tsoro-ludii", "--agent", "mcts:0"],
        vec![
            "search",
            "--ruleset",
            "tsoro-ludii",
            "--agent",
            "greedy",
            "--actions",
            r#"[{"sow":"iv,1"}]"#,
        ],
    ] {
        let (code, _, err) = tsoro(&bad, "");
        assert_eq!(code, 2, "{bad:?}");
        assert_eq!(err.trim().lines().count(), 1, "{bad:?}: {err}");
    }
}

#[test]
fn tournament_writes_games_and_ratings_the_same_on_any_thread_count() {
    let dir = tempfile::tempdir().unwrap();
    let mut csvs = vec![];
    for threads in ["1", "2"] {
        let out_dir = dir.path().join(threads);
        let (code, out, err) = tsoro(
            &[
                "tournament",
                "--ruleset",
                "tsoro-ludii",
                "--param",
                "holes=8",
                "--agents",
                "random,greedy,alphabeta:1",
                "--pairs",
                "3",
                "--seed",
                "4",
                "--opening-plies",
                "2",
                "--bootstrap",
                "100",
                "--threads",
                threads,
                "--json",
                "--csv",
                out_dir.to_str().unwrap(),
            ],
            "",
        );
        assert_eq!(code, 0, "{err}");
        let v: serde_json::Value = serde_json::from_str(&out).unwrap();
        assert_eq!(v["games"], 36, "six pairings of three pairs of two games");
        assert_eq!(
            v["seed"], "4",
            "a 64-bit integer as a string, as the service writes it"
        );
        assert_eq!(v["report"]["ratings"].as_array().unwrap().len(), 3);
        assert_eq!(v["report"]["pairings"].as_array().unwrap().len(), 6);
        assert!(v["report"]["first_move_elo"]["ci"]["low"].is_number());
        assert!(v["time"][2]["ms_per_decision"].as_f64().unwrap() > 0.0);
        // Each pairing's two sides, as the pairing names them, with their CPU in its games.
        let sides = v["pairing_time"].as_array().unwrap();
        assert_eq!(sides.len(), 6);
        for (p, pair) in v["report"]["pairings"]
            .as_array()
            .unwrap()
            .iter()
            .enumerate()
        {
            assert_eq!(sides[p][0]["agent"], pair["agents"][0]);
            assert_eq!(sides[p][1]["agent"], pair["agents"][1]);
            assert!(sides[p][1]["decisions"].as_u64().unwrap() > 0);
        }
        let games = std::fs::read_to_string(out_dir.join("games.csv")).unwrap();
        let ratings = std::fs::read_to_string(out_dir.join("ratings.csv")).unwrap();
        assert_eq!(games.lines().count(), 37);
        assert_eq!(
            ratings.lines().count(),
            5,
            "a header, three agents, the first move"
        );
        csvs.push((games, ratings));
    }
    assert_eq!(csvs[0], csvs[1]);
}

#[test]
fn tournament_names_an_unknown_agent() {
    let (code, _, err) = tsoro(
        &[
            "tournament",
            "--ruleset",
            "tsoro-ludii",
            "--agents",
            "random,wizard",
        ],
        "",
    );
    assert_eq!(code, 2);
    assert!(err.contains("--agents: unknown agent \"wizard\""), "{err}");
}

#[test]
fn ladder_reports_its_rungs_and_refuses_a_range_that_does_not_double() {
    let (code, _, err) = tsoro(
        &[
            "ladder",
            "--ruleset",
            "tsoro-ludii",
            "--from",
            "16",
            "--to",
            "100",
        ],
        "",
    );
    assert_eq!(code, 2);
    assert!(err.starts_with("error: --to: 100 is not 16"), "{err}");
    let (code, _, err) = tsoro(
        &[
            "ladder",
            "--ruleset",
            "tsoro-ludii",
            "--family",
            "minimax",
            "--from",
            "1",
            "--to",
            "2",
        ],
        "",
    );
    assert_eq!(code, 2);
    assert!(err.starts_with("error: --family:"), "{err}");
    let (code, out, err) = tsoro(
        &[
            "ladder",
            "--ruleset",
            "tsoro-ludii",
            "--param",
            "holes=8",
            "--from",
            "2",
            "--to",
            "8",
            "--pairs",
            "3",
            "--bootstrap",
            "50",
        ],
        "",
    );
    assert_eq!(code, 0, "{err}");
    for level in ["mcts:2", "mcts:4", "mcts:8"] {
        assert!(out.contains(level), "{out}");
    }
    // Three pairs can never show flatness (an equivalence test needs 30 or more).
    assert!(out.contains("flat"), "{out}");
    assert!(!out.contains("flattens from"), "{out}");
    let (code, out, _) = tsoro(
        &[
            "ladder",
            "--ruleset",
            "tsoro-ludii",
            "--from",
            "2",
            "--to",
            "4",
            "--pairs",
            "2",
            "--json",
        ],
        "",
    );
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["seed"], "0");
    let rungs = v["ladder"]["rungs"].as_array().unwrap();
    assert_eq!(rungs.len(), 2);
    assert_eq!(rungs[1]["skill"]["games"], 4);
    assert!(rungs[0]["first_player"]["ci"]["high"].is_number());
}

/// `tsoro search` and the service's agent move (`POST .../agent-move`, whose handler calls
/// `choose_move`) ask the engine one question the same way: the same seed and actions give
/// the same move, for an agent whose choice depends on the seed.
#[test]
fn search_and_agent_move_play_the_same_move_for_a_seed() {
    let actions = r#"[{"sow":"i,6"},{"sow":"iv,8"}]"#;
    let parsed: Vec<serde_json::Value> = serde_json::from_str(actions).unwrap();
    let mut seen = std::collections::BTreeSet::new();
    for seed in 0..8u64 {
        for agent in ["random", "mcts:50"] {
            let (code, out, err) = tsoro(
                &[
                    "search",
                    "--ruleset",
                    "tsoro-ludii",
                    "--actions",
                    actions,
                    "--agent",
                    agent,
                    "--seed",
                    &seed.to_string(),
                    "--json",
                ],
                "",
            );
            assert_eq!(code, 0, "{err}");
            let v: serde_json::Value = serde_json::from_str(&out).unwrap();
            let served = tsoro_api::play::choose_move(
                "tsoro-ludii",
                &Default::default(),
                &parsed,
                agent.parse().unwrap(),
                seed,
            )
            .unwrap();
            assert_eq!(v["action"], served, "{agent}, seed {seed}");
            if agent == "random" {
                seen.insert(served.to_string());
            }
        }
    }
    assert!(seen.len() > 1, "the seed chooses the random move: {seen:?}");
}

/// `tsoro clusters prune` (issue 46, item 8): under a root of its own, clusters whose data
/// directory is gone or taken by another are removed and listed; the one in use and the one
/// with no data directory recorded are kept.
#[test]
fn clusters_prune_removes_those_left_behind_and_keeps_the_rest() {
    let root = tempfile::tempdir().unwrap();
    let dirs = tempfile::tempdir().unwrap();
    let make = |name: &str, id: &str, data: Option<&std::path::Path>| {
        let c = root.path().join(name);
        std::fs::create_dir_all(c.join("base")).unwrap();
        std::fs::write(c.with_extension("id"), format!("{id}\n")).unwrap();
        if let Some(d) = data {
            std::fs::write(c.with_extension("path"), format!("{}\n", d.display())).unwrap();
        }
        c
    };
    let live = dirs.path().join("live");
    std::fs::create_dir_all(&live).unwrap();
    std::fs::write(live.join("tsoro-data-dir-id"), "aaa\n").unwrap();
    let kept = make("00000000000000aa", "aaa", Some(&live));
    let gone = make("00000000000000bb", "bbb", Some(&dirs.path().join("gone")));
    let unknown = make("00000000000000cc", "ccc", None);
    let run = |args: &[&str]| {
        let out = crate::helpers::tsoro()
            .args(["clusters"])
            .args(args)
            .env("TSORO_CLUSTERS_ROOT", root.path())
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout).to_string()
    };
    let dry = run(&["prune", "--dry-run"]);
    assert!(
        dry.contains(&format!("would remove {}", gone.display())),
        "{dry}"
    );
    assert!(gone.exists());
    let pruned = run(&["prune"]);
    assert_eq!(pruned.lines().count(), 1, "{pruned}");
    assert!(
        pruned.starts_with(&format!("removed {}", gone.display())),
        "{pruned}"
    );
    assert!(pruned.contains("its data directory is gone"), "{pruned}");
    assert!(!gone.exists() && !gone.with_extension("id").exists());
    assert!(kept.exists() && unknown.exists());
    let listed = run(&["list"]);
    assert_eq!(listed.lines().count(), 2, "{listed}");
    assert!(listed.contains("in use"), "{listed}");
}
