"""The state graph of a level as arrays (``floe.graph``), and the library's operations by
name (``floe.run``, ``floe.operations``): the figures of the command line, arrays that agree
with each other, networkx and SciPy, pickling, and arguments refused by name."""

import json
import pickle
import re

import numpy as np
import pytest

import floe

from conftest import GAMES, ZELDA


def test_a_room_has_its_published_figures_as_arrays():
    g = floe.graph(ZELDA, level="TPIBC3")
    assert (len(g), g.depth, g.nearest_solved) == (1242, 17, 11)
    assert g.complete and g.limit is None
    assert g.distance.dtype == np.int32 and g.solved.dtype == bool
    assert g.distance[0] == 0 and g.distance.max() == 17
    assert g.distance[g.solved].min() == 11
    # the depth histogram is floe.space's
    space = floe.space(ZELDA, level="TPIBC3")
    assert np.bincount(g.distance).tolist() == list(space["histogram"])
    # compressed rows and the edge list agree
    assert g.indptr[0] == 0 and g.indptr[-1] == len(g.indices) == g.report["edges"]
    assert g.edges.shape == (len(g.indices), 2)
    assert (g.edges[:, 1] == g.indices).all()
    # a solved position can reach one; the start can
    assert g.solvable[g.solved].all() and g.solvable[0]
    assert len(g.positions) == len(set(g.positions)) == 1242
    assert "1,242 positions" in repr(g) and "nearest solved 11" in repr(g)


def test_the_graph_is_the_command_lines(cli):
    g = floe.graph(ZELDA, level="TPIBC3", moves=True)
    doc = cli("graph", str(ZELDA), "--level", "TPIBC3", "--moves")
    assert g.distance.tolist() == doc["distance"] and g.indices.tolist() == doc["indices"]
    assert g.positions == doc["positions"] and g.moves == doc["moves"]
    # and floe.run gives the same dict
    assert floe.run("graph", ZELDA, level="TPIBC3", moves=True)["indices"] == doc["indices"]


@pytest.mark.parametrize("game, text, fewest", GAMES)
def test_every_game_gives_its_graph(game, text, fewest):
    g = floe.graph(text)
    assert g.complete and g.game == game
    # the nearest solved position is as far as the fewest moves
    assert g.nearest_solved == fewest
    assert len(g.positions) == len(g) and g.solvable[0]


def test_networkx_and_scipy_see_the_same_graph():
    nx = pytest.importorskip("networkx")
    g = floe.graph(ZELDA, level="TPIBC3", moves=True)
    d = g.to_networkx()
    assert d.number_of_nodes() == len(g)
    assert d.nodes[0]["distance"] == 0 and d.nodes[0]["position"] == g.positions[0]
    lengths = nx.single_source_shortest_path_length(d, 0)
    assert [lengths[i] for i in range(len(g))] == g.distance.tolist()
    scipy_sparse = pytest.importorskip("scipy.sparse")
    m = g.to_scipy()
    assert isinstance(m, scipy_sparse.csr_array) and m.shape == (len(g), len(g))
    assert m.nnz == d.number_of_edges()


def test_a_limit_gives_no_graph():
    g = floe.graph(ZELDA, level="TPIBC3", max_states=50)
    assert not g.complete and g.limit == "max-states" and len(g) == 0
    assert g.depth is None and g.indptr.tolist() == [0] and g.edges.shape == (0, 2)
    assert "stopped by max-states" in repr(g)
    g = floe.graph(ZELDA, level="MCTOD", max_memory="64M")
    assert not g.complete and g.limit == "max-memory"


def test_the_graph_travels_and_compares():
    g = floe.graph(ZELDA, level="TPIBC3", positions=False)
    assert g.positions is None
    h = pickle.loads(pickle.dumps(g))
    assert h == g and (h.distance == g.distance).all()
    assert floe.load(ZELDA, level="TPIBC3").graph(positions=False) == g


def test_arguments_are_refused_by_name():
    with pytest.raises(TypeError, match="did you mean 'positions'"):
        floe.graph(ZELDA, level="TPIBC3", postions=False)
    with pytest.raises(ValueError, match="max_states"):
        floe.graph(ZELDA, level="TPIBC3", max_states=-1)
    with pytest.raises(TypeError, match="moves"):
        floe.graph(ZELDA, level="TPIBC3", moves="yes")
    with pytest.raises(ValueError, match=r"unknown parameter 'levle' for floe.graph\(\): it takes positions, moves, .*, level, game"):
        floe.run("graph", ZELDA, level="TPIBC3", levle=3)
    every = re.escape(", ".join(floe.operations()))
    with pytest.raises(floe.InvalidInput, match=f"no operation is called 'grpah': the operations are {every}$"):
        floe.run("grpah", ZELDA, level="TPIBC3")
    # the same keywords as floe.graph's
    assert floe.run("graph", ZELDA, level="TPIBC3", positions=False).get("positions") is None


def test_operations_lists_what_run_takes():
    ops = floe.operations()
    assert "graph" in ops
    assert ops["graph"]["keywords"][:2] == ["positions", "moves"]
    assert "state graph" in ops["graph"]["about"]


def test_every_operation_runs_by_name_as_its_typed_call():
    tiny = "$---\n---.\n"
    solution = floe.solve(tiny)
    # the list's names, the command line's spelling or Python's
    for name in floe.operations():
        assert name.replace("_", "-") == name
    assert floe.run("bench_solvers", tiny, algo="random", runs=2)["runs"] == 2
    assert floe.run("bench-solvers", tiny, algo="random", runs=2)["runs"] == 2
    # moves cross as floe.verify takes them: a list, a solve report, a text
    for moves in (solution["moves"], solution, json.dumps(solution["moves"])):
        assert floe.run("verify", tiny, moves=moves) == floe.verify(tiny, solution["moves"])
    assert floe.run("verify", tiny, moves=[{"row": 0, "col": 0, "dir": "up"}])["error"]["index"] == 1
    assert floe.run("space", tiny)["states"] == floe.space(tiny)["states"]
    by_name, typed = floe.run("analyze", tiny), floe.analyze(tiny)
    for key in ("states", "sccs", "dead_ends", "solvable_from_start", "depth"):
        assert by_name[key] == typed[key], key


def test_the_graph_checks_its_limits_as_every_call_does():
    for bad, err in [("3", TypeError), (1.5, TypeError), (True, TypeError), (-1, ValueError)]:
        with pytest.raises(err, match="^max_states: "):
            floe.graph("$---\n---.\n", max_states=bad)
    with pytest.raises(TypeError, match="^timeout: "):
        floe.graph("$---\n---.\n", timeout=True)


def test_the_arrays_cross_as_buffers_with_the_json_reports_values():
    lv = floe.load(floe.collections()["zelda"], level="TPIBC3")
    g = floe.graph(lv, moves=True)
    doc = floe.run("graph", lv, moves=True)
    assert (g.distance.dtype, g.solved.dtype, g.indptr.dtype, g.indices.dtype) == (np.int32, np.bool_, np.int64, np.int32)
    assert g.distance.tolist() == doc["distance"] and g.solved.tolist() == doc["solved"]
    assert g.solvable.tolist() == doc["solvable"]
    assert g.indptr.tolist() == doc["indptr"] and g.indices.tolist() == doc["indices"]
    assert g.positions == doc["positions"] and g.moves == doc["moves"]
    assert len(g) == 1242 and g.depth == 17 and g.nearest_solved == 11
    g.distance[0] = 5  # writable, as before


@pytest.mark.parametrize("game, text, fewest", [g for g in GAMES if g[0] != "fujisan"])
def test_positions_carry_their_game(game, text, fewest):
    g = floe.graph(text)
    # a solved ice path position has the player on the exit, which its format cannot write
    unsolved = [k for k in range(len(g)) if not g.solved[k]]
    for k in (unsolved[0], unsolved[len(unsolved) // 2], unsolved[-1]):
        back = floe.load(g.positions[k])
        assert back.game == game, (k, g.positions[k])
        # read back, the position is the graph's: its own graph starts there
        assert floe.graph(back).positions[0] == g.positions[k]


def test_positions_keep_the_parameters_in_force():
    walk = floe.graph("Rules: walk\n@$-.\n")
    assert walk.positions[0].startswith("Game: ice(rules=walk)\n")
    k2 = floe.graph("Game: pushpush\n@$$-.\n", k=2)
    assert k2.positions[0].startswith("Game: pushpush(k=2)\n")
    assert floe.load(k2.positions[-1]).params["k"] == 2
