use super::*;
use crate::ops::step::State;
use crate::ops::{level_of, Level, Request};
use crate::scene::plane_names;
use crate::search::Limits;
use std::collections::{HashMap, VecDeque};

fn table(level: &Level) -> Table {
    level.env_table(&Limits::default()).unwrap().unwrap()
}

fn bundled(file: &str, pick: &str) -> Level {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../levels");
    let text = std::fs::read_to_string(root.join(file)).unwrap();
    Request::from_text(text, file)
        .level(Some(pick))
        .resolve()
        .unwrap()
        .level
}

/// The observation of a state drawn from its scene, plane by plane, as the game lists them.
fn drawn(level: &Level, s: &State) -> Vec<u8> {
    let planes = level.game().info().capabilities.learning.unwrap().planes;
    let scene = s.scene();
    let cells = scene.rows * scene.cols;
    let mut out = vec![0u8; planes.len() * cells];
    for at in 0..cells {
        let piece = scene
            .pieces
            .iter()
            .find(|p| p.at == (at / scene.cols, at % scene.cols))
            .map(|p| p.kind);
        for name in plane_names(scene.ground[at], piece) {
            let p = planes.iter().position(|x| *x == name).unwrap();
            out[p * cells + at] = 1;
        }
    }
    out
}

/// Planes of the piece that walks (drawn where the first path to a position left it).
const ACTORS: [&str; 2] = ["player", "magician"];

/// Walks the table and the game's rules side by side from the start, breadth first: every
/// legal move of the rules is an action of the table leading to the position with the same
/// key, no other action is; each position's fewest moves to a solved one is a plain
/// breadth-first search's over the rules' positions; each observation is the scene's planes
/// (but for where a walking piece stands, which only its region decides).
fn agrees_with_the_rules(level: &Level) {
    let t = table(level);
    let planes = level.game().info().capabilities.learning.unwrap().planes;
    let cells = t.rows * t.cols;
    let start = level.start().unwrap();
    let mut of_key: HashMap<String, u32> = HashMap::new();
    let mut states: Vec<State> = vec![start.clone()];
    let mut children: Vec<Vec<usize>> = Vec::new();
    of_key.insert(start.key().to_string(), 0);
    let mut id_of: Vec<u32> = vec![0];
    let mut queue = VecDeque::from([0usize]);
    let mut seen_ids = vec![false; t.states()];
    seen_ids[0] = true;
    while let Some(i) = queue.pop_front() {
        let s = states[i].clone();
        let id = id_of[i];
        let mut obs = vec![0u8; t.obs_len()];
        t.observe(id, &mut obs);
        let want = drawn(level, &s);
        for (p, name) in planes.iter().enumerate() {
            let (a, b) = (
                &obs[p * cells..(p + 1) * cells],
                &want[p * cells..(p + 1) * cells],
            );
            if ACTORS.contains(name) {
                assert_eq!(
                    a.iter().filter(|&&x| x == 1).count(),
                    b.iter().filter(|&&x| x == 1).count(),
                    "{}: plane {name} of position {id}",
                    level.name()
                );
            } else {
                assert_eq!(a, b, "{}: plane {name} of position {id}", level.name());
            }
        }
        let mut mask = vec![0u8; t.actions];
        t.mask(id, &mut mask);
        let moves = s.moves().unwrap();
        let mut legal = vec![0u8; t.actions];
        let mut kids = Vec::new();
        for m in &moves {
            let a = level.action(m).unwrap();
            legal[a] = 1;
            let next = s.play(m).unwrap();
            let j = t.next(id, a as u32).unwrap();
            let k = match of_key.get(next.key()) {
                Some(&j0) => {
                    assert_eq!(j0, j, "{}: {m} from position {id}", level.name());
                    id_of.iter().position(|&x| x == j).unwrap()
                }
                None => {
                    of_key.insert(next.key().to_string(), j);
                    assert!(!seen_ids[j as usize], "two keys for position {j}");
                    seen_ids[j as usize] = true;
                    states.push(next);
                    id_of.push(j);
                    queue.push_back(states.len() - 1);
                    states.len() - 1
                }
            };
            kids.push(k);
        }
        assert_eq!(mask, legal, "{}: the mask of position {id}", level.name());
        if children.len() <= i {
            children.resize(i + 1, Vec::new());
        }
        children[i] = kids;
    }
    assert_eq!(states.len(), t.states(), "{}: positions", level.name());
    // the fewest moves to a solved position, by a plain breadth-first search from each
    children.resize(states.len(), Vec::new());
    for i in 0..states.len() {
        let mut dist = vec![u32::MAX; states.len()];
        dist[i] = 0;
        let mut q = VecDeque::from([i]);
        let mut found = -1i32;
        while let Some(u) = q.pop_front() {
            if states[u].solved() {
                found = dist[u] as i32;
                break;
            }
            for &v in &children[u] {
                if dist[v] == u32::MAX {
                    dist[v] = dist[u] + 1;
                    q.push_back(v);
                }
            }
        }
        assert_eq!(
            t.to_goal(id_of[i]),
            found,
            "{}: position {}",
            level.name(),
            id_of[i]
        );
    }
}

#[test]
fn every_position_of_small_rooms_agrees_with_the_rules() {
    for (file, pick) in [
        ("zelda.txt", "TPIBC3"),
        ("zelda.txt", "TPSPR1"),
        ("pushpush.txt", "1"),
        ("pushpush.txt", "2"),
        ("icepath.txt", "1"),
        ("icetower/two-fires.txt", "1"),
        ("icetower/fire-and-gold.txt", "1"),
        ("solitaire/boxoff-1.txt", "1"),
        ("solitaire/pretzel-1.txt", "1"),
        ("solitaire/fujisan-1.txt", "1"),
    ] {
        agrees_with_the_rules(&bundled(file, pick));
    }
    // the walking rule: the player's region is part of the position
    agrees_with_the_rules(&level_of(
        "ice",
        "Rules: walk\n#####\n#@$-#\n#-#.#\n#####\n",
    ));
}

#[test]
fn a_solved_start_and_an_unsolvable_level_have_their_distances() {
    let t = table(&level_of("pushpush", "@$--\n##-.\n"));
    assert_eq!(t.to_goal(0), 1);
    // a block against the wall: nothing can ever move it to the target
    let t = table(&level_of("ice", "$-#\n---\n.--\n"));
    assert!(t.distances().iter().any(|&d| d >= 0));
    let lost = table(&level_of("ice", "$#.\n"));
    assert!(
        lost.distances().iter().all(|&d| d == -1),
        "{:?}",
        lost.distances()
    );
}

/// The arrays of [`Out`] for `n` environments: obs, reward, terminated, truncated, mask,
/// distance, legal, level, steps.
type Arrays = (
    Vec<u8>,
    Vec<f64>,
    Vec<u8>,
    Vec<u8>,
    Vec<u8>,
    Vec<i32>,
    Vec<u8>,
    Vec<i32>,
    Vec<i32>,
);

fn out_for(t: &Table, n: usize) -> Arrays {
    (
        vec![0; n * t.obs_len()],
        vec![0.0; n],
        vec![0; n],
        vec![0; n],
        vec![0; n * t.actions],
        vec![0; n],
        vec![0; n],
        vec![0; n],
        vec![0; n],
    )
}

macro_rules! out {
    ($b:expr) => {
        Out {
            obs: &mut $b.0,
            reward: &mut $b.1,
            terminated: &mut $b.2,
            truncated: &mut $b.3,
            mask: &mut $b.4,
            distance: &mut $b.5,
            legal: &mut $b.6,
            level: &mut $b.7,
            steps: &mut $b.8,
            last: None,
        }
    };
}

#[test]
fn episodes_end_reward_and_start_again_on_the_next_step() {
    let t = Arc::new(table(&level_of("pushpush", "@$--\n##-.\n")));
    let options = Options {
        max_steps: 3,
        step_reward: -0.5,
        illegal_reward: -2.0,
        ..Options::default()
    };
    let mut envs = Envs::new(vec![t.clone(), t.clone()], 2, options, 7).unwrap();
    let mut b = out_for(&t, 2);
    envs.reset(None, None, &mut out!(b)).unwrap();
    assert_eq!(b.5, vec![1, 1]);
    // the one move pushes the block right, from (0, 1)
    let solve = Push::new(Pos::new(0, 1), Dir::Right).action(2, 4).unwrap() as i64;
    let wrong = Push::new(Pos::new(0, 1), Dir::Left).action(2, 4).unwrap() as i64;
    assert_eq!(b.4[solve as usize], 1);
    assert_eq!(b.4.iter().filter(|&&x| x == 1).count(), 2);
    envs.step(&[solve, wrong], &mut out!(b)).unwrap();
    assert_eq!((b.1[0], b.2[0], b.3[0], b.6[0], b.5[0]), (1.0, 1, 0, 1, 0));
    assert_eq!((b.1[1], b.2[1], b.3[1], b.6[1], b.5[1]), (-2.0, 0, 0, 0, 1));
    // the ended one starts again, whatever its action; the other runs out of steps
    envs.step(&[wrong, wrong], &mut out!(b)).unwrap();
    assert_eq!((b.1[0], b.2[0], b.3[0], b.5[0], b.8[0]), (0.0, 0, 0, 1, 0));
    envs.step(&[wrong, wrong], &mut out!(b)).unwrap();
    assert_eq!((b.2[1], b.3[1], b.8[1]), (0, 1, 3));
    // out of range: refused, nothing moves
    let e = envs.step(&[-1, 0], &mut out!(b)).unwrap_err().to_string();
    assert!(e.contains("action -1 of environment 0"), "{e}");
    let e = envs.step(&[0], &mut out!(b)).unwrap_err().to_string();
    assert!(e.contains("1 actions for 2"), "{e}");
}

#[test]
fn same_step_autoreset_keeps_the_last_observation() {
    let t = Arc::new(table(&level_of("pushpush", "@$--\n##-.\n")));
    let options = Options {
        autoreset: Autoreset::SameStep,
        ..Options::default()
    };
    let mut envs = Envs::new(vec![t.clone()], 1, options, 1).unwrap();
    let mut b = out_for(&t, 1);
    let (mut lo, mut ld, mut le) = (vec![0u8; t.obs_len()], vec![0i32], vec![0u8]);
    let (mut lm, mut ll, mut ls) = (vec![0u8; t.actions], vec![0i32], vec![0i32]);
    let mut o = out!(b);
    o.last = Some(Last {
        obs: &mut lo,
        distance: &mut ld,
        ended: &mut le,
        mask: &mut lm,
        level: &mut ll,
        steps: &mut ls,
    });
    envs.reset(None, None, &mut o).unwrap();
    let start = o.obs.to_vec();
    let solve = Push::new(Pos::new(0, 1), Dir::Right).action(2, 4).unwrap() as i64;
    envs.step(&[solve], &mut o).unwrap();
    assert_eq!((o.terminated[0], o.reward[0], o.distance[0]), (1, 1.0, 1));
    assert_eq!(o.obs, &start[..], "the new episode's observation");
    let l = o.last.as_ref().unwrap();
    assert_eq!(
        (l.ended[0], l.distance[0], l.steps[0], l.level[0]),
        (1, 0, 1, 0)
    );
    // the solved position has no move: its mask is empty
    assert!(l.mask.iter().all(|&x| x == 0));
    assert_ne!(l.obs, &start[..]);
}

#[test]
fn random_starts_are_playable_and_within_reach() {
    let t = Arc::new(table(&bundled("zelda.txt", "TPIBC3")));
    let options = Options {
        start: Start::Random {
            max_distance: Some(3),
        },
        ..Options::default()
    };
    let mut envs = Envs::new(vec![t.clone()], 300, options, 3).unwrap();
    let mut b = out_for(&t, 300);
    envs.reset(None, None, &mut out!(b)).unwrap();
    assert!(b.5.iter().all(|&d| (1..=3).contains(&d)), "{:?}", b.5);
    assert!(b.5.contains(&1) && b.5.contains(&3));
    let lost = Arc::new(table(&level_of("ice", "$#.\n")));
    let o = Options {
        start: Start::Random { max_distance: None },
        ..Options::default()
    };
    let e = Envs::new(vec![lost], 1, o, 1).unwrap_err().to_string();
    assert!(e.contains("none can be solved"), "{e}");
}

#[test]
fn a_pack_is_of_one_size_and_draws_its_levels() {
    let a = Arc::new(table(&bundled("zelda.txt", "TPSPR1")));
    let b = Arc::new(table(&bundled("zelda.txt", "TPSPR2")));
    let c = Arc::new(table(&bundled("zelda.txt", "TPIBC3")));
    let e = Envs::new(vec![a.clone(), c], 1, Options::default(), 1)
        .unwrap_err()
        .to_string();
    assert!(e.contains("one size"), "{e}");
    let mut envs = Envs::new(vec![a.clone(), b], 64, Options::default(), 1).unwrap();
    let mut buf = out_for(&a, 64);
    envs.reset(None, None, &mut out!(buf)).unwrap();
    assert!(buf.7.contains(&0) && buf.7.contains(&1));
    // the same seed, the same draws
    let level = buf.7.clone();
    envs.reset(None, None, &mut out!(buf)).unwrap();
    let mut again = Envs::new(envs.tables().to_vec(), 64, Options::default(), 1).unwrap();
    let mut buf2 = out_for(&a, 64);
    again.reset(None, None, &mut out!(buf2)).unwrap();
    assert_eq!(buf2.7, level);
}

use crate::grid::{Dir, Pos, Push};

#[test]
fn a_game_without_learning_or_a_limit_says_so() {
    let level = bundled("zelda.txt", "MCTOD");
    let stopped = level
        .env_table(&Limits {
            max_states: Some(1000),
            ..Limits::default()
        })
        .unwrap()
        .unwrap_err();
    assert_eq!(stopped.limit, "max-states");
}
