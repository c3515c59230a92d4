"""space, analyze, reach (NumPy arrays), the theses' tables, profiles: the values of the
command line and the reference figures."""

from __future__ import annotations

import math

import numpy as np
import pytest

import floe

from conftest import GAMES, ZELDA, without_time


def test_space_of_a_level_and_of_an_empty_board(cli):
    s = floe.space(ZELDA, level="OOSSAS")
    assert s["states"] == 5_477 and s["complete"] is True  # the spec's figure
    assert sum(s["histogram"]) == s["states"]
    assert without_time(s) == without_time(cli("space", "levels/zelda.txt", "--level", "OOSSAS"))
    e = floe.space(rows=6, cols=6, blocks=5)
    assert without_time(e) == without_time(cli("space", "--rows", "6", "--cols", "6", "--blocks", "5"))
    lim = floe.space(rows=6, cols=6, blocks=5, max_states=1000)
    assert (lim["complete"], lim["limit"]) == (False, "max-states")
    with pytest.raises(TypeError):
        floe.space(ZELDA, rows=3, cols=3, blocks=2)
    with pytest.raises(TypeError):
        floe.space(rows=3)


def test_a_run_that_cannot_fit_is_refused_unless_forced():
    with pytest.raises(floe.InvalidInput, match="memory budget"):
        floe.space(rows=9, cols=9, blocks=9, max_memory="64M")
    r = floe.space(rows=9, cols=9, blocks=9, max_memory="64M", timeout="50ms")
    assert r["complete"] is False


@pytest.mark.parametrize("game,text,moves", GAMES)
def test_space_and_analyze_on_every_game(game, text, moves):
    s = floe.space(text)
    assert s["game"] == game and s["complete"] and s["states"] >= 1
    a = floe.analyze(text)
    assert a["game"] == game and a["complete"] and a["states"] == s["states"]


def test_analyze_against_the_command_line(cli):
    ours = floe.analyze(ZELDA, level="OOSSAS")
    assert without_time(ours) == without_time(cli("analyze", "levels/zelda.txt", "--level", "OOSSAS"))
    assert ours["solvable_from_start"] is True and ours["unsolvable_states"] > 0


def test_reach_is_an_array_with_nan_where_no_block_rests():
    a = floe.reach(4, 4, 3)
    assert isinstance(a, np.ndarray) and a.dtype == np.float64 and a.shape == (4, 4)
    # van den Akker's Table 2 (spec/ice-blocks.md)
    assert a.tolist() == [[0, 0, 0, 2], [3, 3, 5, 4], [3, 3, 5, 4], [1, 1, 1, 2]]
    assert floe.reach(5, 5, 3).max() == 10
    big = floe.reach(10, 10, 4)
    assert big.shape == (10, 10) and np.nanmax(big) == 23
    assert round(float(np.nanmean(big)), 2) == 9.96
    a[0, 0] = 7  # a writable array of its own
    lv = floe.reach(ZELDA, level="TPSPR1")
    assert lv.shape == (6, 5) and np.isnan(lv).any()
    assert np.array_equal(np.isnan(lv), np.isnan(floe.load(ZELDA, level="TPSPR1").reach()))


def test_reach_report_is_the_command_lines_json(cli):
    r = floe.reach_report(rows=5, cols=5, blocks=3)
    assert without_time(r) == without_time(cli("reach", "--rows", "5", "--cols", "5", "--blocks", "3"))
    r = floe.reach_report(ZELDA, level="TPSPR1")
    theirs = cli("reach", "levels/zelda.txt", "--level", "TPSPR1")
    assert without_time(r) == without_time(theirs) and r["level"] == "TPSPR1"
    arr = floe.reach(ZELDA, level="TPSPR1")
    for row, want in zip(arr.tolist(), r["moves"]):
        assert [None if math.isnan(x) else int(x) for x in row] == want
    with pytest.raises(floe.InvalidInput, match="ice blocks"):
        floe.reach("Game: pushpush\n@$-.\n")
    lim = floe.reach_report(rows=6, cols=6, blocks=4, max_states=10)
    assert (lim["complete"], lim["limit"]) == (False, "max-states")


def test_the_theses_tables_match_the_command_line(cli):
    ours = floe.space_table(4, 5, 3)
    theirs = cli("table", "space", "--max-rows", "4", "--max-cols", "5", "--max-blocks", "3")
    assert without_time(ours) == without_time(theirs)
    a2 = ours["formulas"][0]
    assert a2["formula"].startswith("A(2") and a2["checked"] >= 1
    ours = floe.reach_table(3, 6, [3, 4])
    theirs = cli("table", "reach", "--min-size", "3", "--max-size", "6", "--blocks", "3,4")
    assert without_time(ours) == without_time(theirs)
    six = next(t for t in ours["tables"] if (t["rows"], t["blocks"]) == (6, 3))
    # van den Akker's 6×6 table with 3 blocks (crates/floe/tests/analysis.rs)
    assert six["moves"][2] == [6, 8, 9, 13, 10, 7]
    with pytest.raises(ValueError):
        floe.space_table(1, 5, 3)


def test_strip_and_pattern_tables_match_the_command_line(cli):
    ours = floe.strip_table([2, 3], 10, [3])
    theirs = cli("table", "strip", "--heights", "2,3", "--max-width", "10", "--blocks", "3")
    assert without_time(ours) == without_time(theirs)
    two = ours["series"][0]
    assert two["hardest"][:4] == [[3, 1], [4, 2], [5, 4], [6, 4]]
    rows = floe.patterns_table(3, 5, [3, 4])
    theirs = cli("table", "patterns", "--min-size", "3", "--max-size", "5", "--blocks", "3,4")
    records = rows.to_dict("records") if hasattr(rows, "to_dict") else rows
    assert without_time(records) == without_time(theirs)
    assert {"train", "zigzag", "pushes"} <= set(records[0])


def test_profile_kluivers_figures(cli):
    p = floe.profile(ZELDA, level="TPSPR1", factors=[0, 5, 100])
    # at factor 0 the least difficulty is the distance: the depth of the space
    assert p.complete and p.report["states"] == 173 and p.report["factors"][0]["max"] == 11
    theirs = cli("profile", "levels/zelda.txt", "--level", "TPSPR1", "--factors", "0,5,100")
    assert without_time(p.report) == without_time(theirs)
    assert p._repr_svg_().startswith("<svg") and p.svg() == p._repr_svg_()
    assert p.csv().startswith("factor,difficulty,normalised,positions,cumulative\n")
    f = p.frame()
    rows = f.to_dict("records") if hasattr(f, "to_dict") else f
    assert rows[-1]["cumulative"] == p.report["states"]


def test_heatmap_draws_a_table():
    svg = floe.heatmap(floe.reach(6, 6, 3), title="6×6, 3 blocks")
    assert svg.startswith("<svg") and "6×6, 3 blocks" in svg
    with pytest.raises(ValueError):
        floe.heatmap([1, 2, 3])
