"""What the reports say: a repr for every one, the histogram of a space as an array too,
the statuses of a solve as the documentation names them."""

from __future__ import annotations

import re

import numpy as np
import pytest

import floe

from conftest import ROOT, ZELDA, without_time


def test_every_report_says_what_it_is():
    p = floe.profile(ZELDA, level="TPSPR1", factors=[0, 5])
    r = repr(p)
    assert r.startswith("<floe.Profile 'TPSPR1': ") and f"{p.report['states']:,} positions" in r
    assert all(f"at factor {f['factor']}" in r for f in p.report["factors"])
    stopped = floe.profile(ZELDA, level="TPSPR1", factors=[0], max_states=3)
    assert not stopped.complete and repr(stopped) == "<floe.Profile 'TPSPR1': incomplete, stopped by max-states>"
    e = floe.experiment("boxoff", compare="shuffled,ltiles", challenges=8, trials=2)
    assert repr(e) == "<floe.Experiment boxoff ltiles, shuffled: 16 challenges>"
    x = floe.experiment("pretzel", suits=2, ranks=3, exact=True)
    assert repr(x).startswith("<floe.Experiment exact: ") and " deals>" in repr(x)
    c = floe.census(3, 3, hardest=1)
    assert repr(c).startswith("<floe.Census 3x3 ")
    g = floe.generate(5, 5, count=1, seed=3)
    assert repr(g).startswith("<floe.Generated: 1 levels")
    assert repr(floe.load(ZELDA, level="OOSSAS")).startswith('<floe level "OOSSAS" (ice): 11×15 board')
    for report in (p, e, x, c, g):
        assert " object at 0x" not in repr(report)


def test_space_gives_its_histogram_as_an_array_too(cli):
    s = floe.space(ZELDA, level="OOSSAS")
    assert isinstance(s, dict) and isinstance(s, floe.Space)
    assert isinstance(s["histogram"], list)  # the JSON's value, as it always was
    assert s.by_moves.dtype == np.int64 and s.by_moves.tolist() == s["histogram"]
    assert s.by_moves.sum() == s["states"] and len(s.by_moves) == s["depth"] + 1
    theirs = cli("space", "levels/zelda.txt", "--level", "OOSSAS")
    assert list(s) == list(theirs) and s["histogram"] == theirs["histogram"]
    empty = floe.space(rows=3, cols=3, blocks=2)
    assert isinstance(empty, floe.Space) and empty.by_moves.sum() == empty["states"]


def test_the_statuses_of_a_solve_are_documented():
    source = (ROOT / "crates" / "floe" / "src" / "game" / "report.rs").read_text()
    names = re.findall(r'Status::\w+ => "([a-z-]+)"', source)
    assert set(names) == {"solved", "unsolvable", "limit", "gave-up"}
    doc = (ROOT / "docs" / "python.md").read_text()
    for name in names:
        assert re.search(rf"^\| `{name}` \|", doc, re.M), name
    # each of them, from a solve
    seen = {
        floe.solve(ZELDA, level="OOSSAS")["status"],
        floe.solve("Title: stuck\n$#\n#.\n")["status"],
        floe.solve(ZELDA, level="OOSSAS", max_states=5)["status"],
        floe.solve(ZELDA, level="OOSSAS", algo="random", max_moves=1)["status"],
    }
    assert seen == set(names)


def test_generate_reads_the_request_the_command_line_reads(cli):
    # the same request, defaults included (most blocks: the targets and two more, never more
    # than the cells), gives the same levels
    for kw, flags in [
        (dict(count=2, seed=3), ["--count", "2", "--seed", "3"]),
        (dict(targets=2, min_pushes=1), ["--targets", "2", "--min-pushes", "1"]),
    ]:
        # 1×3: two targets and the player fill the board, the blocks capped by its cells
        g = floe.generate(1 if "targets" in kw else 5, 3 if "targets" in kw else 5, **kw)
        size = ["--rows", "1", "--cols", "3"] if "targets" in kw else ["--rows", "5", "--cols", "5"]
        assert without_time(g.report) == without_time(cli("generate", *size, *flags))
    with pytest.raises(floe.InvalidInput, match="^max_pushes 2 is below min_pushes 3$"):
        floe.generate(5, 5, max_pushes=2)
    with pytest.raises(floe.InvalidInput, match=r"^factor 1000000001: at most 1000000000$"):
        floe.generate(5, 5, factor=10**9 + 1)
