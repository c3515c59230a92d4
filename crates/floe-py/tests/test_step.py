"""A level played one move at a time (floe.State, Level.start); and the research tour of
docs/python.md, executed. The learning environments are test_env.py's."""

from __future__ import annotations

import os
import pickle
import re

import numpy as np
import pytest

import floe

from conftest import GAMES, ROOT, ZELDA


def bundled_level(name: str) -> floe.Level:
    return floe.load(floe.collections()[name], level=1)


BUNDLED = ["zelda", "pushpush", "icepath", "icetower/fire-and-gold", "solitaire/boxoff-1", "solitaire/pretzel-1", "solitaire/fujisan-1"]


@pytest.mark.parametrize("name", BUNDLED)
def test_every_bundled_game_steps(name):
    level = bundled_level(name)
    s = level.start()
    assert isinstance(s, floe.State) and s.level == level and s.depth == 0 and s.moves_played == []
    moves = s.moves()
    assert moves, name
    after = s.play(moves[0])
    assert after != s or after.key == s.key
    assert after.depth == 1 and after.moves_played == [moves[0]]
    assert s.depth == 0, "playing changes nothing of the state it was played on"
    a = after.to_array()
    assert a.shape == level.shape and a.dtype == np.uint16
    assert {int(x) % 32 for x in a.ravel()} <= set(floe.GROUNDS)
    assert after.svg().startswith("<svg") and after._repr_svg_().startswith("<svg")
    assert level.name in repr(after) and "after 1 move" in repr(after)
    assert isinstance(after.text(), str) and str(after) == after.text()


@pytest.mark.parametrize("game,text,fewest", GAMES, ids=[g[0] for g in GAMES])
def test_a_solution_played_move_by_move_solves(game, text, fewest):
    level = floe.load(text)
    sol = floe.solve(level)
    assert sol["solved"] and len(sol["moves"]) == fewest
    s = level.start()
    assert not s.solved()
    for m in sol["moves"]:
        assert m in s.moves(), (m, s.moves())
        s = s.play(m)
    assert s.solved()
    assert s.moves_played == sol["moves"]
    # the same in one call, and the boards of the solve are the states' texts
    assert level.start().play_moves(sol["moves"]) == s == level.start().play_moves(sol)
    assert s.text() == sol.boards()[-1]


def test_an_illegal_move_raises_value_error_with_the_rules_reason():
    s = floe.load(GAMES[1][1]).start()  # PushPush: @$-- / ##-.
    (only,) = s.moves()
    done = s.play(only)
    assert done.solved() and done.moves() == [] or only not in done.moves()
    with pytest.raises(ValueError, match="illegal"):
        done.play(only)
    with pytest.raises(floe.InvalidInput):
        done.play(only)
    with pytest.raises(ValueError):
        s.play({"row": 0, "col": 0, "dir": "sideways"})
    with pytest.raises(ValueError):
        s.play("not a move at all")
    # a move of another game
    ice = floe.load(GAMES[0][1]).start()
    with pytest.raises(ValueError):
        s.play(ice.moves()[0])
    with pytest.raises(ValueError, match="moves\\[1\\]"):
        s.play_moves([only, only])
    with pytest.raises(floe.ParseError, match="moves\\[0\\]") as e:
        s.play_moves(["up"])
    assert e.value.line == 1


def test_moves_are_the_engines_and_a_pruned_move_still_plays():
    # ice blocks: every push the rules allow is listed
    s = floe.load(ZELDA, level="TPIBC3").start()
    rows, cols = s.level.shape
    allowed = []
    for r in range(rows):
        for c in range(cols):
            for d in ("up", "down", "left", "right"):
                try:
                    s.play({"row": r, "col": c, "dir": d})
                    allowed.append({"col": c, "dir": d, "row": r})
                except ValueError:
                    pass
    key = lambda m: (m["row"], m["col"], m["dir"])  # noqa: E731
    assert sorted(map(key, s.moves())) == sorted(map(key, allowed))
    # Ice Tower's engine leaves out a push into a dead position; the rules play it
    t = bundled_level("icetower/fire-and-gold").start()
    dead = {"row": 2, "col": 3, "dir": "left"}
    assert dead not in t.moves()
    after = t.play(dead)
    assert after.depth == 1 and not floe.solve(after.text(), game="icetower")["solved"]


def test_wrong_types_raise_type_error_naming_the_argument():
    s = floe.load(GAMES[1][1]).start()
    with pytest.raises(TypeError, match="move"):
        s.play(0)
    with pytest.raises(TypeError, match="move"):
        s.play(None)
    with pytest.raises(TypeError, match="moves"):
        s.play_moves("3 4 up")
    with pytest.raises(TypeError, match="cell"):
        s.svg(cell="big")
    with pytest.raises(TypeError, match="coords"):
        s.svg(coords="yes")


def test_floe_start_picks_a_level_as_load_does():
    s = floe.start(ZELDA, level="TPIBC3")
    assert s == floe.load(ZELDA, level="TPIBC3").start() and s.level.name == "TPIBC3"
    # a move in the game's text form
    assert s.play("0 4 down") == s.play({"row": 0, "col": 4, "dir": "down"})
    with pytest.raises(ValueError, match="dynamic"):
        floe.start("Game: icetower\n########\n#@ > $*#\n########\n")


def test_states_compare_hash_and_pickle_by_position():
    level = floe.load(ZELDA, level="TPIBC3")
    s = level.start()
    a = s.play(s.moves()[0])
    b = level.start().play(level.start().moves()[0])
    assert a == b and hash(a) == hash(b) and a is not b
    assert a != s and len({s, a, b}) == 2
    # the same level read again: equal states
    assert floe.load(ZELDA, level="TPIBC3").start() == s
    # another level's start is another state
    assert floe.load(ZELDA, level="TPIBC2").start() != s
    for x in (s, a):
        back = pickle.loads(pickle.dumps(x))
        assert back == x and back.moves_played == x.moves_played and back.level == x.level
        assert np.array_equal(back.to_array(), x.to_array())
    assert s != "a state" and (s == 1) is False


def test_to_array_codes():
    s = floe.load(GAMES[1][1]).start()  # @$-- / ##-.
    a = s.to_array()
    assert a.shape == (2, 4)
    player, block = a[0, 0], a[0, 1]
    assert floe.PIECES[int(player) // 32] == "player" and floe.PIECES[int(block) // 32] == "block"
    assert floe.GROUNDS[int(a[1, 0]) % 32] == "wall"
    # a copy per call, writable
    a[0, 0] = 0
    assert s.to_array()[0, 0] == player


def _tour_blocks() -> list[str]:
    doc = (ROOT / "docs" / "python.md").read_text()
    section = doc.split("## A research tour", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"```python\n(.*?)```", section, re.S)


def test_the_research_tour_runs(tmp_path, monkeypatch):
    pytest.importorskip("networkx")
    pytest.importorskip("matplotlib")
    import matplotlib

    matplotlib.use("Agg")
    blocks = _tour_blocks()
    assert len(blocks) >= 3
    monkeypatch.chdir(ROOT)
    monkeypatch.setenv("FLOE_TOUR_OUT", str(tmp_path))
    ns: dict = {}
    for code in blocks:
        exec(compile(code, "docs/python.md (research tour)", "exec"), ns)
    assert ns["g"].number_of_nodes() == 1242
    assert os.path.exists(tmp_path / "census.png")


def test_a_move_costs_the_same_at_any_depth_and_travels_by_its_moves():
    # (a state once copied its whole history at every move: 20 ms a move at depth 5,000)
    import pickle
    import time

    s = floe.load(ZELDA, level="TPIBC3").start()
    rng = np.random.default_rng(1)
    for _ in range(3000):
        ms = s.moves()
        s = s.play(ms[int(rng.integers(len(ms)))])
    t = time.perf_counter()
    for _ in range(50):
        s.play(s.moves()[0])
    per_move = (time.perf_counter() - t) / 50
    assert per_move < 0.005, per_move
    t = time.perf_counter()
    back = pickle.loads(pickle.dumps(s))
    assert back == s and back.depth == 3000
    assert time.perf_counter() - t < 2.0


def test_numpy_numbers_in_a_move_are_numbers():
    s = floe.load(ZELDA, level="OOTIC").start()
    m = s.moves()[0]
    npm = {k: (np.int64(v) if isinstance(v, int) else v) for k, v in m.items()}
    assert s.play(npm) == s.play(m)
