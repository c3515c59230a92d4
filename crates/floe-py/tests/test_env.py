"""Learning environments (``floe.env``, ``floe/Ice-v0`` …): Gymnasium's checks on every game,
fixed planes and actions, ``info["distance"]`` against a breadth-first search on every
position, the vector environment in one call (autoreset modes, packs, seeds), and arguments
refused by name."""

from __future__ import annotations

import collections
import pickle
import subprocess
import sys

import numpy as np
import pytest

import floe
from floe.env import Env, VectorEnv

from conftest import GAMES, ROOT, SAMPLES, ZELDA

gym = pytest.importorskip("gymnasium")
from gymnasium.utils.env_checker import check_env  # noqa: E402


def env_id(game: str) -> str:
    return f"floe/{floe.env.games()[game]['env']}-v0"


def test_every_game_with_an_encoding_is_registered():
    assert sorted(floe.env.ids()) == sorted(env_id(g) for g, _, _ in GAMES)
    for i in floe.env.ids():
        assert i in gym.envs.registry
    for g in floe.games():
        learning = g["capabilities"]["learning"]
        assert learning["planes"] and learning["actions"], g["name"]


@pytest.mark.parametrize("game, text, fewest", GAMES)
def test_check_env_passes_for_every_game(game, text, fewest):
    env = gym.make(env_id(game), level=text)
    check_env(env.unwrapped)
    u = env.unwrapped
    assert u.observation_space == gym.spaces.Box(0, 1, u.obs_shape, np.uint8)
    assert u.action_space == gym.spaces.Discrete(u.n_actions)
    assert u.channels == floe.env.games()[game]["planes"]
    obs, info = env.reset(seed=1)
    assert obs.shape == u.obs_shape and obs.dtype == np.uint8 and set(np.unique(obs)) <= {0, 1}
    assert info["distance"] == fewest and info["action_mask"].dtype == bool
    assert info["action_mask"].shape == (u.n_actions,) and info["action_mask"].any()
    # the registered episode length
    assert env.spec.max_episode_steps == floe.env.MAX_EPISODE_STEPS


def bfs_distances(level):
    """Every position's fewest moves to a solved one by a plain breadth-first search over the
    rules (floe.State), and a path of moves to each, keyed by the position's key."""
    start = level.start()
    path = {start.key: []}
    states = {start.key: start}
    kids = collections.defaultdict(list)
    queue = collections.deque([start])
    while queue:
        s = queue.popleft()
        for m in s.moves():
            t = s.play(m)
            kids[s.key].append(t.key)
            if t.key not in states:
                states[t.key] = t
                path[t.key] = path[s.key] + [m]
                queue.append(t)
    # one breadth-first search from the solved positions over the moves reversed
    back = collections.defaultdict(list)
    for k, ts in kids.items():
        for t in ts:
            back[t].append(k)
    dist = {k: -1 for k in states}
    frontier = [k for k, s in states.items() if s.solved()]
    for k in frontier:
        dist[k] = 0
    while frontier:
        nxt = []
        for x in frontier:
            for y in back[x]:
                if dist[y] < 0:
                    dist[y] = dist[x] + 1
                    nxt.append(y)
        frontier = nxt
    return states, path, dist


SMALL = [
    (ZELDA, "TPIBC3", None),
    (ZELDA, "TPSPR1", None),
    (ROOT / "levels" / "pushpush.txt", "one-way", None),
    (ROOT / "levels" / "pushpush.txt", "walled", None),
    (ROOT / "levels" / "icepath.txt", "first steps", None),
    (ROOT / "levels" / "icetower" / "two-fires.txt", None, None),
    (ROOT / "levels" / "solitaire" / "pretzel-1.txt", None, None),
    (ROOT / "levels" / "solitaire" / "boxoff-2.txt", None, None),
] + [(text, None, game) for game, text, _ in GAMES]


@pytest.mark.parametrize("src, pick, game", SMALL)
def test_the_distance_is_a_breadth_first_searchs_on_every_position(src, pick, game):
    level = floe.load(src, level=pick) if pick else floe.load(src)
    states, path, dist = bfs_distances(level)
    env = Env(level, max_steps=0)
    tab = env.tables[0]
    assert tab.states == len(states)
    for key, moves in path.items():
        if dist[key] == 0 or not states[key].moves():
            # no episode starts on a solved or stuck position: it is reached by a move
            continue
        _, info = env.reset(options={"moves": moves})
        assert info["distance"] == dist[key], (key, moves)
        # the mask holds exactly the rules' moves
        assert int(info["action_mask"].sum()) == len({str(m) for m in states[key].moves()})
    # the table's distances over every position: the same multiset
    assert tab.distances.dtype == np.int32 and not tab.distances.flags.writeable
    assert sorted(tab.distances.tolist()) == sorted(dist.values())


def test_a_step_is_the_rules_move():
    level = floe.load(ZELDA, level="TPIBC3")
    env = Env(level, max_steps=0)
    obs, info = env.reset(seed=0)
    s = level.start()
    rng = np.random.default_rng(5)
    for _ in range(200):
        legal = np.flatnonzero(info["action_mask"])
        a = int(rng.choice(legal))
        # the move of action a: the one whose number is a
        moves = {floe.env._floe.env_actions(level._native, __import__("json").dumps([m]), "m")[0]: m for m in s.moves()}
        assert set(moves) == set(legal.tolist())
        s = s.play(moves[a])
        obs, r, term, trunc, info = env.step(a)
        assert r == (1.0 if s.solved() else 0.0)
        # the blocks of the observation are the state's
        blocks = obs[env.channels.index("block")]
        arr = s.to_array()
        assert (blocks == (arr // 32 == 1)).all()
        if term:
            obs, info = env.reset()
            s = level.start()


def test_illegal_actions_change_nothing_and_earn_their_reward():
    env = Env(SAMPLES["pushpush"], illegal_reward=-1.0, step_reward=-0.01)
    obs, info = env.reset()
    bad = int(np.flatnonzero(~info["action_mask"])[0])
    obs2, r, term, trunc, info2 = env.step(bad)
    assert (r, term, trunc, info2["legal"]) == (-1.0, False, False, False)
    assert (obs2 == obs).all() and info2["distance"] == info["distance"] and info2["steps"] == 1
    good = int(np.flatnonzero(info["action_mask"])[0])
    _, r, term, _, info3 = env.step(good)
    assert (r, term, info3["legal"], info3["distance"]) == (1.0, True, True, 0)


def test_episodes_are_cut_by_max_episode_steps_and_max_steps():
    env = gym.make("floe/Ice-v0", level=ZELDA, pick="TPIBC3", max_episode_steps=3)
    env.reset(seed=2)
    for i in range(3):
        _, _, term, trunc, _ = env.step(int(np.flatnonzero(env.unwrapped.action_masks())[0]))
    assert trunc and not term
    own = Env(ZELDA, pick="TPIBC3", max_steps=2)
    own.reset()
    own.step(own.random_action())
    _, _, term, trunc, _ = own.step(own.random_action())
    assert trunc and own.steps == 2
    with pytest.raises(RuntimeError, match="reset"):
        own.step(0)


def test_levels_come_from_paths_texts_levels_and_packs():
    by_path = Env(ZELDA, pick="TPIBC3")
    by_level = Env(floe.load(ZELDA, level="TPIBC3"))
    by_text = Env(floe.load(ZELDA, level="TPIBC3").text())
    assert by_path.tables[0] is by_level.tables[0] is by_text.tables[0], "one table per level"
    with pytest.raises(ValueError, match="pick"):
        Env(ZELDA)
    with pytest.raises(ValueError, match="no level 'NOPE'"):
        Env(ZELDA, pick="NOPE")
    with pytest.raises(ValueError, match="1 to 14"):
        Env(ZELDA, pick=15)
    # a level of another game: the id that plays it, naming the level picked
    with pytest.raises(ValueError, match="floe/PushPush-v0"):
        gym.make("floe/Ice-v0", level=ROOT / "levels" / "pushpush.txt", pick="walled")
    with pytest.raises(ValueError, match="'TPIBC3' is a level of ice blocks: make floe/Ice-v0"):
        gym.make("floe/PushPush-v0", level=ZELDA, pick="TPIBC3")
    # moves as floe.solve gives them, or in the game's words
    words = Env(ZELDA, pick="TPIBC3")
    _, a = words.reset(options={"moves": ["0 4 down"]})
    _, b = words.reset(options={"moves": [{"row": 0, "col": 4, "dir": "down"}]})
    assert a["distance"] == b["distance"] and words.position != 0
    # a pack: every level of one size, drawn at each reset
    pack = Env(ZELDA, pick=["TPSPR1", "TPSPR2", "TPSPR3"])
    seen = {pack.reset(seed=s)[1]["level"] for s in range(30)}
    assert seen == {0, 1, 2}
    _, info = pack.reset(options={"level": 2})
    assert info["level"] == 2
    with pytest.raises(ValueError, match="one size"):
        Env(ZELDA, pick=["TPSPR1", "TPIBC3"])
    with pytest.raises(ValueError, match="the level is solved at its start: an episode needs a position"):
        Env("Title: done\n*-\n")
    room = Env(ZELDA, pick="OOTIC")
    solution = floe.solve(ZELDA, level="OOTIC")["moves"]
    with pytest.raises(ValueError, match="the level is solved at position"):
        room.reset(options={"moves": solution})


def test_a_graph_that_does_not_fit_is_refused_when_the_env_is_made():
    with pytest.raises(floe.LimitReached, match="does not fit") as e:
        Env(ZELDA, pick="MCTOD", max_states=1000)
    assert e.value.limit == "max-states"


def test_random_starts_and_curricula():
    env = Env(ZELDA, pick="TPIBC3", start="random", max_distance=3)
    ds = {env.reset(seed=s)[1]["distance"] for s in range(60)}
    assert ds == {1, 2, 3}
    with pytest.raises(ValueError, match="max_distance"):
        Env(ZELDA, pick="TPIBC3", max_distance=3)
    # the same seed, the same starts and the same random actions
    def run(seed):
        env.reset(seed=seed)
        return [env.position] + [env.random_action() for _ in range(5)]

    assert run(4) == run(4)


def vec(n, **kw):
    return gym.make_vec("floe/Ice-v0", num_envs=n, vectorization_mode="vector_entry_point", level=ZELDA, pick="TPIBC3", **kw)


def test_the_vector_env_steps_as_single_envs_do():
    n = 64
    envs = vec(n)
    assert isinstance(envs.unwrapped, VectorEnv) and envs.num_envs == n
    assert envs.single_observation_space.shape == (6, 5, 5) and envs.action_space.shape == (n,)
    obs, infos = envs.reset(seed=10)
    singles = [Env(ZELDA, pick="TPIBC3", max_steps=floe.env.MAX_EPISODE_STEPS) for _ in range(n)]
    for i, e in enumerate(singles):
        o, info = e.reset(seed=10 + i)
        assert (o == obs[i]).all() and info["distance"] == infos["distance"][i]
    autoreset = np.zeros(n, bool)
    rng = np.random.default_rng(0)
    for step in range(300):
        masks = infos["action_mask"]
        acts = np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in masks])
        obs, rew, term, trunc, infos = envs.step(acts)
        for i, e in enumerate(singles):
            if autoreset[i]:
                o, info = e.reset()
                r, t, u = 0.0, False, False
            else:
                o, r, t, u, info = e.step(int(acts[i]))
            assert (o == obs[i]).all() and r == rew[i] and t == term[i] and u == trunc[i], (step, i)
            assert info["distance"] == infos["distance"][i] and (info["action_mask"] == infos["action_mask"][i]).all()
        autoreset = term | trunc
    assert infos["_distance"].all() and infos["distance"].dtype == np.int32


def test_same_step_autoreset_keeps_the_final_observation():
    envs = vec(4, autoreset_mode=gym.vector.AutoresetMode.SAME_STEP, start="random", max_distance=1)
    assert envs.metadata["autoreset_mode"] == gym.vector.AutoresetMode.SAME_STEP
    obs, infos = envs.reset(seed=0)
    # one move from a solved position: the move that solves ends the episode
    tab = envs.unwrapped.tables[0]
    dist = tab.distances
    acts, ends = [], []
    for i in range(4):
        s = envs.unwrapped._native.at(i)[1]
        acts.append(next(int(a) for a in np.flatnonzero(infos["action_mask"][i]) if dist[tab.next(s, int(a))] == 0))
        ends.append(tab.next(s, acts[-1]))
    obs2, rew, term, trunc, infos2 = envs.step(np.array(acts))
    assert term.all() and (rew == 1.0).all()
    assert infos2["_final_obs"].all() and (infos2["final_info"]["distance"] == 0).all()
    # the observations are the new episodes', which are not solved
    assert (infos2["distance"] >= 1).all()
    # the final infos hold every key of a step's infos, as Gymnasium's own vector envs give
    fin = infos2["final_info"]
    assert {k for k in fin if not k.startswith("_")} == {"action_mask", "distance", "legal", "level", "steps"}
    assert (fin["steps"] == 1).all() and fin["_steps"].all()
    assert all((fin["action_mask"][i] == tab.mask(ends[i])).all() for i in range(4))


def test_disabled_autoreset_needs_a_reset_mask():
    envs = vec(2, autoreset_mode="Disabled", max_episode_steps=1)
    envs.reset(seed=0)
    _, _, term, trunc, _ = envs.step(envs.unwrapped.random_actions())
    assert (term | trunc).all()
    with pytest.raises(ValueError, match="reset it"):
        envs.step(np.zeros(2, np.int64))
    _, infos = envs.reset(options={"reset_mask": np.array([True, False])})
    # the infos are those of the environments reset
    assert infos["_distance"].tolist() == [True, False] and infos["_steps"].tolist() == [True, False]
    with pytest.raises(ValueError, match="environment 1's episode is over"):
        envs.step(np.zeros(2, np.int64))
    envs.reset(options={"reset_mask": np.array([False, True])})
    envs.step(np.zeros(2, np.int64))


def test_returned_arrays_are_the_callers():
    envs = VectorEnv(3, ZELDA, pick="TPIBC3")
    obs, infos = envs.reset(seed=1)
    first = obs.copy()
    obs2, *_ = envs.step(envs.random_actions())
    assert (obs == first).all(), "a step wrote into the last step's observation"
    assert obs2 is not obs
    # copy=False hands out the environments' own arrays, which the next step overwrites
    own = VectorEnv(3, ZELDA, pick="TPIBC3", copy=False)
    o1, _ = own.reset(seed=1)
    o2, *_ = own.step(own.random_actions())
    assert o1 is o2


def test_arguments_are_refused_by_name():
    env = Env(ZELDA, pick="TPIBC3")
    env.reset()
    for bad, err in [(1.5, TypeError), ("1", TypeError), (True, TypeError), (-1, ValueError), (100, ValueError), (2**70, ValueError)]:
        with pytest.raises(err, match="action"):
            env.step(bad)
    assert env.step(np.int64(3))[4]["steps"] == 1
    with pytest.raises(TypeError, match="max_steps"):
        Env(ZELDA, pick="TPIBC3", max_steps="10")
    with pytest.raises(ValueError, match="max_steps"):
        Env(ZELDA, pick="TPIBC3", max_steps=-1)
    with pytest.raises(TypeError, match="step_reward"):
        Env(ZELDA, pick="TPIBC3", step_reward="-1")
    with pytest.raises(ValueError, match="step_reward: a finite number"):
        Env(ZELDA, pick="TPIBC3", step_reward=float("nan"))
    with pytest.raises(TypeError, match="pik"):
        Env(ZELDA, pik="TPIBC3")
    with pytest.raises(ValueError, match="start"):
        Env(ZELDA, pick="TPIBC3", start="middle")
    with pytest.raises(TypeError, match="seed"):
        env.reset(seed="1")
    with pytest.raises(ValueError, match="seed"):
        env.reset(seed=-1)
    with pytest.raises(TypeError, match="options"):
        env.reset(options=[1])
    with pytest.raises(ValueError, match="'start' is not an option"):
        env.reset(options={"start": 1})
    with pytest.raises(ValueError, match="state"):
        env.reset(options={"state": 10**9})
    with pytest.raises(ValueError, match=r"options\['actions'\]\[0\]: action 0 is no move"):
        env.reset(options={"actions": [0]})
    with pytest.raises(TypeError, match="bytes"):
        Env(b"Title: x\n$-.\n")
    envs = VectorEnv(4, ZELDA, pick="TPIBC3")
    envs.reset()
    with pytest.raises(ValueError, match="shape"):
        envs.step(np.zeros(3, np.int64))
    with pytest.raises(TypeError, match="whole numbers"):
        envs.step(np.zeros(4))
    with pytest.raises(ValueError, match="action -1"):
        envs.step(np.array([0, 0, -1, 0]))
    with pytest.raises(ValueError, match="0 to 99"):
        envs.step(np.array([0, 0, 2**64 - 1, 0], dtype=np.uint64))
    with pytest.raises(ValueError, match="num_envs"):
        VectorEnv(0, ZELDA, pick="TPIBC3")
    with pytest.raises(ValueError, match="autoreset_mode"):
        VectorEnv(2, ZELDA, pick="TPIBC3", autoreset_mode="sometimes")


def test_pictures_of_positions():
    env = Env(ZELDA, pick="TPIBC3", render_mode="ansi")
    env.reset()
    text = env.render()
    assert text.count("$") == 3 and text.count(".") == 1
    pic = Env(ZELDA, pick="TPIBC3", render_mode="rgb_array")
    pic.reset()
    img = pic.render()
    assert img.shape == (5 * 16, 5 * 16, 3) and img.dtype == np.uint8
    assert Env(ZELDA, pick="TPIBC3").render() is None


def test_the_env_runs_without_gymnasium():
    code = (
        "import sys; sys.modules['gymnasium'] = None\n"
        "import floe; from floe.env import Env\n"
        f"env = Env({str(ZELDA)!r}, pick='TPIBC3', max_steps=2)\n"
        "obs, info = env.reset(seed=0); print(obs.shape, env.step(env.random_action())[1:4])\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "(6, 5, 5) (0.0, False, False)"


def test_tables_are_shared_and_freed():
    a = Env(ZELDA, pick="TPSPR2")
    b = VectorEnv(8, floe.load(ZELDA, level="TPSPR2"))
    assert a.tables[0] is b.tables[0]
    assert "TPSPR2" in repr(a.tables[0]) and a.tables[0].states == 1801
    # pickling a level still works; the environment is made again from its level
    assert pickle.loads(pickle.dumps(a.levels[0])) == a.levels[0]


def test_the_dataset_is_floe_learn_datas(cli, tmp_path):
    out = tmp_path / "d.tsv"
    exe = ROOT / "target" / "release" / "floe"
    p = subprocess.run([str(exe), "learn", "data", "--count", "3000", "--seed", "7", "--split-seed", "3", "--out", str(out)], capture_output=True, text=True)
    if p.returncode != 0 and "learn" in p.stderr:
        pytest.skip("the floe binary was built without the learn feature")
    assert p.returncode == 0, p.stderr
    d = floe.dataset("pushpush", rows=4, cols=4, count=3000, seed=7, split_seed=3)
    rows = [l.split("\t") for l in out.read_text().splitlines()[3:]]
    assert len(rows) == len(d["board"]) == 3000
    assert [r[1] for r in rows] == d["board"].tolist()
    assert [int(r[2]) for r in rows] == d["pushes"].tolist()
    assert [r[0] for r in rows] == d["split"].tolist()
    assert [r[4] for r in rows] == d["class"].tolist()
    for r, v in zip(rows, d["difficulty"]):
        assert (r[3] == "-" and np.isnan(v)) or abs(float(r[3]) - v) < 1e-5
    assert (d["solvable"] == (d["pushes"] >= 0)).all()
    # the observations are the environment's planes of each board
    for i in range(0, 3000, 301):
        text = "Game: pushpush\n" + d["board"][i].replace("/", "\n") + "\n"
        _, info = floe.env.Env(text).reset() if d["pushes"][i] > 0 else (None, None)
        if info is not None:
            o, _ = floe.env.Env(text).reset()
            assert (o == d["obs"][i]).all()
    assert list(d["planes"]) == floe.env.games()["pushpush"]["planes"]


def test_datasets_are_refused_for_games_that_draw_no_boards():
    with pytest.raises(floe.InvalidInput, match="floe.env.table"):
        floe.dataset("ice", count=10)
    with pytest.raises(ValueError, match="count"):
        floe.dataset("pushpush", count=0)
    with pytest.raises(TypeError, match="rows"):
        floe.dataset("pushpush", rows="4")
    with pytest.raises(floe.InvalidInput, match="2 to 32 cells"):
        floe.dataset("pushpush", rows=8, cols=8, count=1)


def test_the_learning_section_of_the_docs_runs(monkeypatch):
    import re

    doc = (ROOT / "docs" / "python.md").read_text()
    section = doc.split("## Learning", 1)[1].split("\n## ", 1)[0]
    blocks = re.findall(r"```python\n(.*?)```", section, re.S)
    assert len(blocks) >= 4
    monkeypatch.chdir(ROOT)
    ns: dict = {}
    for code in blocks:
        exec(compile(code, "docs/python.md (Learning)", "exec"), ns)
    # the worked example: the greedy policy of the learner plays the fewest pushes
    assert ns["solved"] and ns["pushes"] == floe.solve(ns["room"])["pushes"] == 11
    # the training set: every environment on a level of it, the held-out levels apart
    assert set(ns["infos"]["level"]) <= set(range(len(ns["train"]))) and len(ns["test"]) == 4
    assert ns["d"]["obs"].shape == (200_000, 5, 4, 4)


def test_tables_are_arrays_checked_by_name():
    t = floe.env.table(ZELDA, pick="TPIBC3")
    assert isinstance(t, floe.env.Table) and len(t) == t.states == 1242
    assert t.distances[0] == 11 and t.depths[0] == 0 and t.depths.max() == 17
    obs, mask = t.observation(0), t.mask(0)
    assert obs.shape == t.obs_shape and mask.dtype == bool and mask.sum() == len(t.moves(0))
    a = int(np.flatnonzero(mask)[0])
    assert t.next(0, a) == t.moves(0)[a]
    for bad in (-1, 10**9, 1.5):
        with pytest.raises((ValueError, TypeError), match="state"):
            t.next(bad, 0)
        with pytest.raises((ValueError, TypeError), match="state"):
            t.observation(bad)
    with pytest.raises(ValueError, match="action"):
        t.next(0, -1)
    with pytest.raises(ValueError, match="within"):
        t.playable(-1)
    assert t.playable() > t.playable(3) > 0
    with pytest.raises(ValueError, match="one level"):
        floe.env.table(ZELDA, pick="all")


def test_a_vector_env_starts_each_environment_where_asked():
    envs = VectorEnv(3, ZELDA, pick="TPIBC3")
    t = envs.tables[0]
    starts = [int(s) for s in np.flatnonzero(t.distances > 2)[:3]]
    envs.reset(options={"state": starts})
    assert [envs._native.at(i)[1] for i in range(3)] == starts
    with pytest.raises(ValueError, match="one per environment"):
        envs.reset(options={"state": starts[:2]})


def test_environments_copy_and_pickle_as_their_levels_and_options():
    import copy

    env = Env(ZELDA, pick="TPIBC3", step_reward=-0.5, max_steps=7)
    twin = pickle.loads(pickle.dumps(env))
    assert (twin.levels, twin.step_reward, twin.max_steps) == (env.levels, -0.5, 7)
    o1, _ = env.reset(seed=3)
    o2, _ = copy.deepcopy(env).reset(seed=3)
    assert (o1 == o2).all()
    v = copy.deepcopy(VectorEnv(4, ZELDA, pick="TPIBC3", autoreset_mode="same_step"))
    assert v.num_envs == 4 and v.metadata["autoreset_mode"] == gym.vector.AutoresetMode.SAME_STEP


def test_one_vector_env_is_stepped_by_one_thread_at_a_time():
    import threading

    envs = VectorEnv(256, ZELDA, pick="TPIBC3")
    envs.reset(seed=0)
    errors = []

    def run():
        try:
            for _ in range(300):
                envs.step(envs.random_actions())
        except RuntimeError as e:
            errors.append(str(e))

    ts = [threading.Thread(target=run) for _ in range(2)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    # either thread may be turned away, with a sentence that says why
    for e in errors:
        assert "one thread at a time" in e, e


def test_pretzel_is_drawn_with_its_cards():
    text = SAMPLES["pretzel"]
    env = Env(text, render_mode="ansi")
    env.reset()
    drawn = env.render()
    assert "2S" in drawn and "3H" in drawn and "--" in drawn


def test_an_id_plays_its_own_game():
    with pytest.raises(ValueError, match="floe/Ice-v0 plays ice blocks.*make floe/PushPush-v0"):
        gym.make("floe/Ice-v0", level=SAMPLES["pushpush"], game="pushpush")
