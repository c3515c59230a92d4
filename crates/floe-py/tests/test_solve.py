"""Solving with every algorithm and option of the command line, the dict against `floe solve
--json`, verify, bench-solvers, pictures of solutions."""

from __future__ import annotations

import json

import pytest

import floe

from conftest import GAMES, ZELDA, without_time

SOLVE_KEYS = [
    "game", "level", "params", "algorithm", "solved", "status", "limit", "moves", "length",
    "pushes", "difficulty", "lower_bound", "states", "expanded", "depth", "seconds", "details",
]


def algorithms(game):
    info = next(g for g in floe.games() if g["name"] == game)
    return [a["name"] for a in info["algorithms"]]


def test_solve_returns_exactly_the_keys_of_the_command_line():
    r = floe.solve(ZELDA, level="OOSSAS")
    assert isinstance(r, dict) and isinstance(r, floe.Solution)
    assert list(r) == SOLVE_KEYS
    # the spec's figures: 9 pushes, least difficulty 24 at factor 5
    assert (r["status"], r["solved"], r["pushes"], r["length"]) == ("solved", True, 9, 9)
    assert r["moves"][0].keys() == {"row", "col", "dir"}
    d = floe.solve(ZELDA, level="OOSSAS", algo="difficulty")
    assert (d["difficulty"]["value"], d["difficulty"]["block_changes"]) == (24, 3)
    assert floe.solve(ZELDA, level="OOSSAS", algo="difficulty", factor=0)["difficulty"]["factor"] == 0


@pytest.mark.parametrize("game,text,moves", GAMES)
def test_every_algorithm_of_every_game(game, text, moves):
    lv = floe.load(text)
    for algo in algorithms(game):
        r = lv.solve(algo=algo)
        assert (r["game"], r["algorithm"], r["status"]) == (game, algo, "solved"), algo
        assert r["length"] == moves, algo
        assert list(r) == SOLVE_KEYS
        v = floe.verify(lv, r)
        assert (v["valid"], v["solved"], v["length"]) == (True, True, moves)
    for algo in ("random", "mc"):
        r = lv.solve(algo=algo, seed=3, playouts=20, max_moves=50)
        assert r["algorithm"] == algo and r["status"] in ("solved", "gave-up")


@pytest.mark.parametrize("game,text,moves", GAMES)
def test_the_dict_is_the_command_lines_json(game, text, moves, tmp_path, cli):
    p = tmp_path / f"{game}.txt"
    p.write_text(text)
    for algo in [None, *algorithms(game)[1:2], "random"]:
        flags = [] if algo is None else ["--algo", algo]
        ours = floe.solve(p, algo=algo)
        theirs = cli("solve", str(p), *flags)
        assert list(ours) == list(theirs)
        assert without_time(dict(ours)) == without_time(theirs), algo
        assert json.loads(ours.to_json()) == dict(ours)


def test_round_trip_on_oossas_with_options(cli):
    args = {"algo": "difficulty", "factor": 3}
    ours = floe.solve("levels/zelda.txt", level="OOSSAS", **args)
    theirs = cli("solve", "levels/zelda.txt", "--level", "OOSSAS", "--algo", "difficulty", "--factor", "3")
    assert without_time(dict(ours)) == without_time(theirs)
    ours = floe.solve("levels/zelda.txt", level="TPIBC1", algo="mc", playouts=200, max_moves=15, seed=7)
    theirs = cli(
        "solve", "levels/zelda.txt", "--level", "TPIBC1", "--algo", "mc", "--playouts", "200",
        "--max-moves", "15", "--seed", "7",
    )
    assert without_time(dict(ours)) == without_time(theirs)
    ours = floe.solve("levels/pushpush.txt", level="walled", k=2)
    theirs = cli("solve", "levels/pushpush.txt", "--level", "walled", "--k", "2")
    assert without_time(dict(ours)) == without_time(theirs)


def test_limits_stop_a_solve_and_say_which():
    r = floe.solve(ZELDA, level="OOSSAS", max_states=50)
    assert (r["status"], r["limit"], r["solved"]) == ("limit", "max-states", False)
    assert r["moves"] == [] and r["lower_bound"] is not None
    r = floe.solve(ZELDA, level="MCTOD", algo="bfs", timeout=0)
    assert (r["status"], r["limit"]) == ("limit", "timeout")
    r = floe.solve(ZELDA, level="MCTOD", algo="bfs", timeout="0ms", max_memory="2G")
    assert r["limit"] == "timeout"
    with pytest.raises(ValueError, match="timeout"):
        floe.solve(ZELDA, level="OOSSAS", timeout="soon")
    with pytest.raises(ValueError, match="max_memory"):
        floe.solve(ZELDA, level="OOSSAS", max_memory="1K")
    with pytest.raises(ValueError):
        floe.solve(ZELDA, level="OOSSAS", max_states=-1)


def test_bad_options_are_refused_as_on_the_command_line():
    with pytest.raises(floe.InvalidInput, match="factor"):
        floe.solve("Game: pushpush\n@$-.\n", factor=3)
    with pytest.raises(floe.InvalidInput):
        floe.solve(ZELDA, level="OOSSAS", algo="quantum")
    with pytest.raises(ValueError):
        floe.solve(ZELDA, level="OOSSAS", count="sometimes")
    with pytest.raises(TypeError):
        floe.solve(ZELDA, level="OOSSAS", frames=True)  # no svg= to draw into
    with pytest.raises(TypeError):
        floe.solve(ZELDA, level="OOSSAS", color="blue")  # not an option


def test_an_unsolvable_level_and_a_proof():
    r = floe.solve("Title: stuck\n$#.\n")
    assert (r["status"], r["solved"]) == ("unsolvable", False)
    assert r._repr_svg_() is None and r.svg() is None and r.boards() == []


def test_solutions_draw_themselves_and_write_pictures(tmp_path):
    r = floe.solve(ZELDA, level="TPIBC1")
    assert r._repr_svg_().startswith("<svg")
    assert "<animate" in r.svg("animate")
    assert r.svg("frames") != r.svg("arrows")
    with pytest.raises(floe.InvalidInput):
        r.svg("sketch")
    boards = r.boards()
    assert len(boards) == r["length"] + 1 and len(r.steps()) == r["length"]
    assert r.level.name == "TPIBC1"
    out = tmp_path / "sol.svg"
    floe.solve(ZELDA, level="TPIBC1", svg=out, frames=True, coords=True)
    assert out.read_text().startswith("<svg")


def test_verify_names_the_first_illegal_move():
    good = floe.solve(ZELDA, level="OOSSAS")
    moves = list(good["moves"])
    moves[2] = {"row": 0, "col": 0, "dir": "up"}
    v = floe.verify(ZELDA, moves, level="OOSSAS")
    assert (v["valid"], v["error"]["index"]) == (False, 3)
    assert list(v) == ["game", "level", "params", "valid", "solved", "length", "pushes", "difficulty", "error"]
    text = "\n".join(f"{m['row']} {m['col']} {m['dir']}" for m in good["moves"])
    assert floe.verify(ZELDA, text, level="OOSSAS", factor=0)["solved"] is True
    with pytest.raises(floe.ParseError):
        floe.verify(ZELDA, "3 4 sideways", level="OOSSAS")


def test_bench_solvers_against_the_command_line(cli):
    ours = floe.bench_solvers(ZELDA, level="TPIBC1", algo="random", runs=5, max_moves=2000)
    theirs = cli("bench-solvers", "levels/zelda.txt", "--level", "TPIBC1", "--algo", "random", "--runs", "5", "--max-moves", "2000")
    assert without_time(ours) == without_time(theirs)
    with pytest.raises(ValueError):
        floe.bench_solvers(ZELDA, level="TPIBC1", algo="bfs")
