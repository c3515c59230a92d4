"""Objects that travel: levels, solutions and every report pickle and come back as what they
were, compare by what they hold, and cross to other processes (concurrent.futures)."""

from __future__ import annotations

import copy
import multiprocessing
import pickle
from concurrent.futures import ProcessPoolExecutor

import numpy as np
import pytest

import floe

from conftest import GAMES, ZELDA, without_time


def travelled(x):
    return pickle.loads(pickle.dumps(x))


def same_level(a: floe.Level, b: floe.Level) -> None:
    """Everything a level tells is the same."""
    assert (a.name, a.title, a.game, a.file, a.index, a.params) == (b.name, b.title, b.game, b.file, b.index, b.params)
    assert (a.text(), a.shape, a.description, a.info(), repr(a)) == (b.text(), b.shape, b.description, b.info(), repr(b))
    assert a.svg() == b.svg()


@pytest.mark.parametrize("game,text,moves", GAMES)
def test_a_level_of_every_game_pickles_and_compares(game, text, moves):
    lv = floe.load(text)
    assert floe.load(text) == lv and hash(floe.load(text)) == hash(lv)
    back = travelled(lv)
    assert type(back) is floe.Level and back == lv and hash(back) == hash(lv)
    same_level(back, lv)
    assert floe.solve(back)["length"] == moves
    assert copy.deepcopy(lv) == lv and copy.copy(lv) == lv


def test_levels_are_equal_when_game_name_text_and_parameters_are(tmp_path):
    a = floe.load(ZELDA, level="OOSSAS")
    assert a == floe.load(ZELDA, level="oossas") == floe.load(str(ZELDA), level=3)
    # read from another file, the same level is the same level
    p = tmp_path / "copy.txt"
    p.write_text(ZELDA.read_text())
    assert floe.load(p, level="OOSSAS") == a
    assert len({a, floe.load(ZELDA, level="OOSSAS"), floe.load(p, level="OOSSAS")}) == 1
    assert a != floe.load(ZELDA, level="MCTOD")
    assert a != a.configure(rules="walk") and a.configure(rules="walk") == a.configure(rules="walk")
    tiny = "Game: pushpush\nTitle: tiny\n@$--\n##-.\n"
    assert floe.load(tiny, k=2) != floe.load(tiny) and floe.load(tiny, k=2) == floe.load(tiny, k=2)
    assert a != "OOSSAS" and a != a.text() and a != None  # noqa: E711
    every = floe.levels(ZELDA)
    assert every == floe.levels(ZELDA) and len(set(every)) == len(every)
    assert {lv: lv.name for lv in every}[a] == "OOSSAS"


def test_a_level_keeps_its_name_file_index_and_parameters(tmp_path):
    # untitled levels of a file are named by their place; read back alone they would not be
    p = tmp_path / "boards.txt"
    p.write_text("Game: pushpush\n@$--\n##-.\n\n@$-\n#-.\n\n-@$\n.--\n")
    second = floe.load(p, level=2)
    assert (second.name, second.title, second.index) == ("level 2", None, 1)
    assert floe.load(second.text()).name != "level 2"
    back = travelled(second)
    same_level(back, second)
    assert floe.levels(p)[1] == back
    # a level configured on the way
    walk = floe.load(ZELDA, level="TPSPR1", rules="walk")
    same_level(travelled(walk), walk)
    k2 = floe.load("Game: pushpush\nTitle: tiny\n@$--\n##-.\n", k=2)
    same_level(travelled(k2), k2)
    assert travelled(k2).params == {"k": 2}
    # a level of a text with a name of its own
    named = floe.load("$---\n---.\n", name="mine.txt")
    same_level(travelled(named), named)


def test_levels_made_by_floe_pickle_too():
    c = floe.census(3, 3, hardest=2)
    for lv in c.hardest:
        same_level(travelled(lv), lv)
    for lv in floe.challenges("pretzel", 2) + floe.challenges("boxoff", 1) + floe.challenges("fujisan", 1):
        same_level(travelled(lv), lv)
    g = floe.generate(5, 5, count=1, seed=3)
    same_level(travelled(g[0]), g[0])


def test_an_empty_board_stays_an_empty_board():
    from floe._level import _board

    board = _board(None, 3, 4, 2)
    back = travelled(board)
    same_level(back, board)
    assert back._native.empty
    # the reach report of an empty board names no level
    assert without_time(floe.reach_report(back)) == without_time(floe.reach_report(board))
    assert "level" not in floe.reach_report(back)


@pytest.mark.parametrize("game,text,moves", GAMES)
def test_a_solution_of_every_game_pickles_as_itself(game, text, moves):
    r = floe.solve(text)
    back = travelled(r)
    assert type(back) is floe.Solution and back == r and list(back) == list(r)
    assert back.level == r.level
    assert (back.boards(), back.steps(), back.note(), back.to_json()) == (r.boards(), r.steps(), r.note(), r.to_json())
    for kind in ("arrows", "frames", "animate"):
        assert back.svg(kind) == r.svg(kind)
    assert back.svg(coords=True, cell=30) == r.svg(coords=True, cell=30)
    assert back._repr_svg_() == r._repr_svg_()
    assert floe.verify(back.level, back)["solved"]
    # and again: a solution that travelled travels
    assert travelled(back) == r and travelled(back).boards() == r.boards()
    assert copy.deepcopy(r) == r and copy.deepcopy(r).level == r.level


def test_a_solution_without_a_solution_travels_too():
    r = floe.solve(ZELDA, level="OOSSAS", algo="bfs", max_states=5)
    assert r["status"] == "limit"
    back = travelled(r)
    assert back == r and back.svg() is None and r.svg() is None and back.boards() == []
    gave_up = floe.solve(ZELDA, level="OOSSAS", algo="random", max_moves=1)
    assert gave_up["status"] == "gave-up"
    back = travelled(gave_up)
    assert back == gave_up and back.note() == gave_up.note() and back.svg() is None
    # the dict as it is now, not as it was solved
    r["mine"] = 1
    assert travelled(r)["mine"] == 1


def test_the_reports_pickle_and_compare():
    c = floe.census(3, 4, difficulty=True, hardest=2)
    back = travelled(c)
    assert type(back) is floe.Census and back == c
    assert back.figures == c.figures and back._repr_svg_() == c._repr_svg_()
    for t in floe.Census.TABLES:
        a, b = getattr(back, t), getattr(c, t)
        assert a.dtype == np.int64 and np.array_equal(a, b)
    assert back.hardest == c.hardest and repr(back) == repr(c)
    ours, theirs = back.frame(), c.frame()
    assert ours.equals(theirs) if hasattr(ours, "equals") else ours == theirs
    assert c != floe.census(3, 3) and travelled(back) == c

    e = floe.experiment("boxoff", challenges=12, trials=2)
    back = travelled(e)
    assert type(back) is floe.Experiment and back == e
    assert back.figures == e.figures and repr(back) == repr(e)
    assert e != floe.experiment("boxoff", challenges=12, trials=2, seed=2)

    p = floe.profile(ZELDA, level="TPSPR1", factors=[0, 5])
    back = travelled(p)
    assert type(back) is floe.Profile and back == p
    assert (back.svg(), back.csv(), repr(back)) == (p.svg(), p.csv(), repr(p))
    assert p != floe.profile(ZELDA, level="TPSPR1", factors=[0, 1])

    g = floe.generate(5, 5, count=2, seed=3)
    back = travelled(g)
    assert type(back) is floe.Generated and back == g
    assert list(back) == list(g) and back.text == g.text and repr(back) == repr(g)
    assert g != floe.generate(5, 5, count=2, seed=4)

    s = floe.space(ZELDA, level="OOSSAS")
    back = travelled(s)
    assert type(back) is floe.Space and back == s and np.array_equal(back.by_moves, s.by_moves)


def test_an_experiment_without_pandas_pickles_and_compares(no_pandas):
    e = floe.experiment("boxoff", challenges=6, trials=2)
    assert isinstance(e.challenges, list)
    assert travelled(e) == e and "boxoff" in repr(e)


def test_errors_pickle_with_their_attributes():
    with pytest.raises(floe.ParseError) as e:
        floe.load("Game: pushpush\n@$x\n")
    back = travelled(e.value)
    assert type(back) is floe.ParseError and str(back) == str(e.value)
    assert (back.file, back.line, back.col, back.message) == (e.value.file, e.value.line, e.value.col, e.value.message)
    with pytest.raises(floe.LimitReached) as lim:
        floe.census(4, 4, max_states=10)
    assert travelled(lim.value).limit == "max-states"


def test_solving_in_worker_processes_gives_the_answers_of_a_loop():
    rooms = floe.levels(ZELDA)[:4]
    plain = [floe.solve(lv) for lv in rooms]
    with pytest.raises(floe.ParseError) as here:
        floe.load("Game: pushpush\n@$x\n")
    # spawn: each worker starts afresh and gets the levels only as pickles
    with ProcessPoolExecutor(2, mp_context=multiprocessing.get_context("spawn")) as pool:
        found = list(pool.map(floe.solve, rooms))
        with pytest.raises(floe.ParseError) as e:
            pool.submit(floe.load, "Game: pushpush\n@$x\n").result()
    assert [type(r) for r in found] == [floe.Solution] * len(rooms)
    assert [without_time(dict(r)) for r in found] == [without_time(dict(r)) for r in plain]
    assert [r["status"] for r in found] == ["solved"] * len(rooms)
    assert [r.level for r in found] == rooms
    assert [r.boards() for r in found] == [r.boards() for r in plain]
    assert [r.svg() for r in found] == [r.svg() for r in plain]
    assert (e.value.file, e.value.line, e.value.col) == (here.value.file, here.value.line, here.value.col)
    assert str(e.value) == str(here.value)
