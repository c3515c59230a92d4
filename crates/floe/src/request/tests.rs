use super::*;

fn pairs(q: &str) -> Vec<(String, String)> {
    q.split('&')
        .filter(|p| !p.is_empty())
        .map(|p| {
            let (k, v) = p.split_once('=').unwrap_or((p, ""));
            (k.to_string(), v.to_string())
        })
        .collect()
}

/// What `/api/solve` reads: the level's parameters and the solve's (its limits among them).
fn solve(q: &str) -> Result<(LevelPick, Solve, LimitArgs), String> {
    let (mut l, mut s) = (LevelPick::default(), Solve::default());
    read(
        &pairs(q),
        "/api/solve",
        &mut [&mut l, &mut s],
        &["job"],
        &["threads", "max_memory", "force"],
    )?;
    let m = s.limits.clone();
    Ok((l, s, m))
}

#[test]
fn parameters_fill_their_fields_with_dashes_or_underscores() {
    let (l, s, m) = solve("level=3&game=pushpush&k=2&param=x=1&algo=mc&max-states=100&timeout=500ms&seed=7&count=attempts&factor=9&dynamic").unwrap();
    assert_eq!(l.level.as_deref(), Some("3"));
    assert_eq!(l.game.game.as_deref(), Some("pushpush"));
    assert_eq!(l.game.named("k"), Some("2"));
    assert_eq!(l.game.params, vec!["x=1".to_string()]);
    assert_eq!(l.game.named("dynamic"), Some("true"));
    assert_eq!(s.algo.as_deref(), Some("mc"));
    assert_eq!(s.random.seed, 7);
    assert_eq!(s.random.count, crate::analysis::solvers::CapCount::Attempts);
    assert_eq!(s.factor, Some(9));
    assert_eq!(m.max_states, Some(100));
    assert_eq!(m.timeout, Some(Duration::from_millis(500)));
    let (_, s, m) = solve("max_states=5&job=a").unwrap();
    assert_eq!((m.max_states, s.random.seed), (Some(5), 1));
    assert_eq!(s.random.playouts, solve::PLAYOUTS);
}

#[test]
fn an_unknown_parameter_is_answered_with_those_taken() {
    let e = solve("levle=2").unwrap_err();
    // the games' parameters are the registry's
    let games: Vec<&str> = crate::games::params().iter().map(|(p, _)| p.name).collect();
    assert_eq!(
        e,
        format!(
            "unknown parameter 'levle' for /api/solve: it takes level, game, format, {}, \
             param, algo, max_moves, playouts, seed, count, factor, max_states, timeout, job",
            games.join(", ")
        )
    );
    // refused parameters are unknown here
    assert!(solve("threads=2")
        .unwrap_err()
        .starts_with("unknown parameter 'threads'"));
    assert!(solve("max_memory=1G")
        .unwrap_err()
        .starts_with("unknown parameter 'max_memory'"));
}

#[test]
fn a_bad_value_names_its_parameter_and_what_it_takes() {
    assert_eq!(
        solve("max_states=-3").unwrap_err(),
        "invalid value '-3' for 'max_states': a whole number from 0 to 18446744073709551615"
    );
    assert_eq!(
        solve("max-states=99999999999999999999").unwrap_err(),
        "invalid value '99999999999999999999' for 'max_states': a whole number from 0 to \
         18446744073709551615"
    );
    let e = solve("timeout=soon").unwrap_err();
    assert!(
        e.starts_with("invalid value 'soon' for 'timeout': 'soon' is not a duration"),
        "{e}"
    );
    let e = solve("dynamic=maybe").unwrap_err();
    assert!(
        e.starts_with("invalid value 'maybe' for 'dynamic': a switch"),
        "{e}"
    );
    let e = solve("count=some").unwrap_err();
    assert!(
        e.contains("'count'") && e.contains("pushes or attempts"),
        "{e}"
    );
    let mut r = Render::default();
    let e = read(&pairs("cell=900"), "/api/render", &mut [&mut r], &[], &[]).unwrap_err();
    assert_eq!(
        e,
        "invalid value '900' for 'cell': a whole number from 4 to 200"
    );
    read(
        &pairs("cell=40&coords=off"),
        "/api/render",
        &mut [&mut r],
        &[],
        &[],
    )
    .unwrap();
    assert_eq!((r.cell, r.coords), (Some(40), false));
}

#[test]
fn switches_take_the_usual_words() {
    for (v, on) in [
        ("", true),
        ("true", true),
        ("1", true),
        ("yes", true),
        ("on", true),
        ("false", false),
        ("0", false),
        ("no", false),
        ("off", false),
    ] {
        assert_eq!(value::switch(v), Ok(on), "{v}");
    }
    assert!(value::switch("2").is_err());
}

#[test]
fn requests_check_what_they_need() {
    let mut g = Generate::default();
    let e = read(&pairs("cols=6"), "/api/generate", &mut [&mut g], &[], &[]).unwrap_err();
    assert_eq!(
        e,
        "the following required arguments were not provided: rows"
    );
    let mut g = Generate::default();
    let e = read(
        &pairs("rows=-5&cols=6"),
        "/api/generate",
        &mut [&mut g],
        &[],
        &[],
    )
    .unwrap_err();
    assert_eq!(
        e,
        "invalid value '-5' for 'rows': a whole number from 1 to 1024"
    );
    let mut g = Generate::default();
    let e = read(
        &pairs("rows=5&cols=2000"),
        "/api/generate",
        &mut [&mut g],
        &[],
        &[],
    );
    assert_eq!(
        e.unwrap_err(),
        "invalid value '2000' for 'cols': a whole number from 1 to 1024"
    );
    let mut g = Generate::default();
    read(
        &pairs("rows=5&cols=6&unique"),
        "/api/generate",
        &mut [&mut g],
        &[],
        &[],
    )
    .unwrap();
    assert_eq!(
        (g.rows, g.cols, g.unique, g.count, g.min_pushes),
        (Some(5), Some(6), true, 1, 3)
    );
    let mut e = Experiment::default();
    let m = read(
        &pairs("game=pretzel&exact&trials=3"),
        "/api/experiment",
        &mut [&mut e],
        &[],
        &[],
    );
    assert_eq!(
        m.unwrap_err(),
        "the argument 'exact' cannot be used with 'trials'"
    );
    let mut e = Experiment::default();
    let m = read(&pairs("seed=2"), "/api/experiment", &mut [&mut e], &[], &[]);
    assert_eq!(
        m.unwrap_err(),
        "the following required arguments were not provided: game"
    );
    let b = EmptyBoard {
        rows: Some(3),
        ..EmptyBoard::default()
    };
    assert_eq!(
        b.size().unwrap_err(),
        "the following required arguments were not provided: cols, blocks"
    );
}

#[test]
fn game_parameters_are_named_as_the_front_end_names_them() {
    let g = GameArgs {
        params: vec!["x=1".into()],
        ..GameArgs::default()
    }
    .with("k", "2");
    let flags = format!("{:?}", g.params_named(Naming::Flags).unwrap());
    let query = format!("{:?}", g.params_named(Naming::Query).unwrap());
    assert!(
        flags.contains("--k") && flags.contains("--param x"),
        "{flags}"
    );
    assert!(
        !query.contains("--") && query.contains("param x"),
        "{query}"
    );
}

#[test]
fn json_requests_take_defaults_and_texts() {
    let s: Solve = serde_json::from_str(r#"{"algo": "mc", "seed": 4}"#).unwrap();
    assert_eq!(
        (s.random.seed, s.random.playouts, s.threads),
        (4, solve::PLAYOUTS, 1)
    );
    let l: LimitArgs = serde_json::from_str(r#"{"timeout": "2s", "max_memory": "1G"}"#).unwrap();
    assert_eq!(l.timeout, Some(Duration::from_secs(2)));
    assert_eq!(l.max_memory, Some(1 << 30));
    let e: Experiment = serde_json::from_str(r#"{"game": "pretzel", "ranks": "2-4"}"#).unwrap();
    assert_eq!(e.ranks, Ranks(vec![2, 3, 4]));
    assert_eq!(e.challenges, 1000);
}

#[test]
fn game_parameters_come_from_the_registry_in_json_and_on_the_command_line() {
    let l: LevelPick = serde_json::from_str(
        r#"{"level": "2", "game": "pushpush", "k": 2, "dynamic": true, "param": ["x=1"]}"#,
    )
    .unwrap();
    assert_eq!(l.level.as_deref(), Some("2"));
    assert_eq!(l.game.game.as_deref(), Some("pushpush"));
    assert_eq!(l.game.named("k"), Some("2"));
    assert_eq!(l.game.named("dynamic"), Some("true"));
    assert_eq!(l.game.params, ["x=1"]);
    // a flag given off is not given; a value of the wrong kind is named
    let g: GameArgs = serde_json::from_str(r#"{"dynamic": false, "rules": "walk"}"#).unwrap();
    assert_eq!(g.named, [("rules".to_string(), "walk".to_string())]);
    let e = serde_json::from_str::<GameArgs>(r#"{"dynamic": "maybe"}"#).unwrap_err();
    assert!(e.to_string().contains("dynamic: a switch"), "{e}");
    assert!(serde_json::from_str::<GameArgs>(r#"{"k": [1]}"#).is_err());
    // every parameter of the registry is a query parameter
    let mut names = Vec::new();
    GameArgs::default().names(&mut names);
    for (p, _) in crate::games::params() {
        assert!(names.contains(&p.name), "{}", p.name);
    }
    #[cfg(feature = "cli")]
    {
        use clap::{Args, FromArgMatches};
        let cmd = GameArgs::augment_args(clap::Command::new("t"));
        cmd.clone().debug_assert();
        let m = cmd
            .clone()
            .try_get_matches_from([
                "t",
                "--k",
                "3",
                "--dynamic",
                "--rules",
                "walk",
                "--param",
                "y=2",
            ])
            .unwrap();
        let g = GameArgs::from_arg_matches(&m).unwrap();
        assert_eq!(
            (g.named("k"), g.named("dynamic"), g.named("rules")),
            (Some("3"), Some("true"), Some("walk"))
        );
        assert_eq!(g.params, ["y=2"]);
        let help = cmd.clone().render_help().to_string();
        for (p, _) in crate::games::params() {
            assert!(help.contains(&format!("--{}", p.name)), "{help}");
        }
        assert!(help.contains("PushPush-k: the robot"), "{help}");
        let none = GameArgs::from_arg_matches(&cmd.try_get_matches_from(["t"]).unwrap()).unwrap();
        assert_eq!(none, GameArgs::default());
    }
}

#[test]
fn rank_lists() {
    assert_eq!(parse_ranks("2-9").unwrap().0, (2..=9).collect::<Vec<_>>());
    assert_eq!(parse_ranks("4,6,8").unwrap().0, vec![4, 6, 8]);
    assert_eq!(parse_ranks("3..5").unwrap().0, vec![3, 4, 5]);
    assert!(parse_ranks("9-2").is_err());
    assert!(parse_ranks("x").is_err());
    assert!(parse_setups("shuffled,ltiles").is_ok());
    assert!(parse_setups("shuffled,nope").is_err());
}

#[test]
fn a_parameter_given_twice_is_refused_but_param_repeats() {
    for q in [
        "level=3&level=4",
        "algo=bfs&algo=astar",
        "max_states=100&max-states=200",
        "job=a&job=b",
    ] {
        let e = solve(q).unwrap_err();
        assert!(e.ends_with("is given twice: give it once"), "{q}: {e}");
    }
    assert!(solve("level=3&max_states=100&max-states=200")
        .unwrap_err()
        .starts_with("'max_states' is given twice"));
    let (l, _, _) = solve("param=x=1&param=y=2").unwrap();
    assert_eq!(l.game.params, vec!["x=1".to_string(), "y=2".to_string()]);
}

#[test]
fn estimates_are_judged_alike_by_every_front_end() {
    let e = crate::search::Estimate {
        positions: 1 << 40,
        bound: (1u64 << 40) as f64,
        bytes: 1 << 50,
        seconds: 1e6,
        cores: 2,
    };
    let mut a = LimitArgs {
        max_memory: Some(1 << 30),
        ..LimitArgs::default()
    };
    let said = |n: Naming| a.judge("x", Some(e), n).unwrap_err().to_string();
    assert!(said(Naming::Flags)
        .contains("Give more with --max-memory, or start anyway with --force (or a --timeout)"));
    assert!(said(Naming::Query)
        .contains("Give more with max_memory, or start anyway with force=true (or a timeout)"));
    assert!(said(Naming::Keywords)
        .contains("Give more with max_memory, or start anyway with force=True (or a timeout)"));
    assert!(a.judge("x", None, Naming::Flags).unwrap().is_none());
    a.force = true;
    // insisting runs it, and a run this large is announced
    assert!(a.judge("x", Some(e), Naming::Flags).unwrap().is_some());
    a.force = false;
    a.max_states = Some(10);
    assert!(a.judge("x", Some(e), Naming::Flags).is_ok());
    assert_eq!(a.limits().max_memory, Some(1 << 30));
    // a small run within the budget is neither refused nor announced
    let small = crate::search::Estimate {
        bytes: 1 << 20,
        seconds: 0.1,
        ..e
    };
    assert!(a.judge("x", Some(small), Naming::Flags).unwrap().is_none());
}
