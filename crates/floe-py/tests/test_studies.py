"""The PushPush census (arrays, hardest boards as levels), the solitaire experiments
(DataFrames, or lists without pandas), generation: against the command line and the
reference figures."""

from __future__ import annotations

import math

import numpy as np
import pytest

import floe

from conftest import without_time


def test_census_4x4_reference_figures(cli):
    c = floe.census(4, 4)
    # the thesis's 4×4 figures (crates/floe/tests/pushpush.rs)
    assert (c.boards, c.unsolvable) == (7_864_320, 3_668_048)
    assert c.by_pushes.dtype == np.int64
    assert (c.by_pushes[0], c.by_pushes[1]) == (2_424_312, 1_356_840)
    assert c.by_pushes.sum() + c.unsolvable == c.boards
    assert c.by_blocks.shape == (16, len(c.by_pushes))
    assert (c.solvable_by_blocks[0], c.unsolvable_by_blocks[0]) == (240, 0)
    assert (c.solvable_by_blocks[15], c.unsolvable_by_blocks[15]) == (0, 240)
    assert np.array_equal(c.by_blocks.sum(axis=0), c.by_pushes)
    assert np.array_equal(c.by_blocks.sum(axis=1), c.solvable_by_blocks)
    assert c.difficulty_by_pushes is None
    theirs = cli("census", "pushpush", "--rows", "4", "--cols", "4")
    assert without_time(c.report) == without_time(theirs)
    # every hardest board is a PushPush level that needs exactly that many pushes
    pushes = c.report["hardest"]["pushes"]
    assert len(c.hardest) == len(c.report["hardest"]["boards"]) == min(10, c.report["hardest"]["classes"])
    for lv in c.hardest:
        assert lv.game == "pushpush"
        assert floe.solve(lv)["pushes"] == pushes
    assert set(c.figures) == {"blocks", "pushes", "pushes-by-blocks"}
    assert c._repr_svg_().startswith("<svg")
    frame = c.frame()
    rows = frame.to_dict("records") if hasattr(frame, "to_dict") else frame
    assert sum(r["unsolvable"] for r in rows) == c.unsolvable
    assert "4x4" in repr(c)


def test_census_with_difficulty_and_k(cli):
    c = floe.census(3, 4, difficulty=True, k=0, hardest=2)
    assert c.report["variant"] == "PushPush-*"
    assert c.difficulty_by_pushes.shape[1] == 50 and c.difficulty_bins.shape == (50,)
    assert c.difficulty_by_pushes[1:].sum() == c.by_pushes[1:].sum()
    assert "difficulty-by-pushes" in c.figures and len(c.hardest) <= 2
    theirs = cli("census", "pushpush", "--rows", "3", "--cols", "4", "--difficulty", "--k", "0", "--hardest", "2")
    assert without_time(c.report) == without_time(theirs)


def test_census_limits_and_ranges():
    with pytest.raises(floe.LimitReached) as e:
        floe.census(4, 4, max_states=10)
    assert e.value.limit == "max-states"
    with pytest.raises(ValueError):
        floe.census(0, 4)
    with pytest.raises(ValueError):
        floe.census(6, 6)  # 36 cells: more than 32


def test_experiment_gives_the_report_and_a_frame_per_challenge(cli):
    e = floe.experiment("boxoff", challenges=60, trials=3, seed=2)
    theirs = cli("experiment", "boxoff", "--challenges", "60", "--trials", "3", "--seed", "2")
    assert without_time(e.report) == without_time(theirs)
    df = e.challenges
    assert len(df) == 60 and list(df.columns)[:4] == ["size", "setup", "challenge", "trial"]
    assert "pair_equality" in df.columns
    assert df["solvable"].mean() == pytest.approx(e.report["solvable"])
    assert df["random_solvable"].mean() == pytest.approx(e.report["random_solvable"])
    assert sorted(df["trial"].unique()) == [0, 1, 2]
    assert all(name.endswith(".svg") for name in e.figures)


def test_experiment_compare_and_sweep(cli):
    e = floe.experiment("pretzel", ranks="3-4", compare="all", challenges=40, trials=2)
    theirs = cli("experiment", "pretzel", "--ranks", "3-4", "--compare", "all", "--challenges", "40", "--trials", "2")
    assert without_time(e.report) == without_time(theirs)
    assert set(e.challenges["size"]) == {s["size"] for s in e.report["sweep"]}
    assert {"ducking_crab", "duelling_deuces"} <= set(e.challenges.columns)
    f = floe.experiment("fujisan", setup="dominoes", challenges=20, trials=2)
    assert {"connectivity", "counter_intuitive", "distinct_steps"} <= set(f.challenges.columns)
    solved = f.challenges[f.challenges["solvable"]]
    assert (solved["dfs_length"] >= solved["length"]).all()
    assert solved["dfs_length"].mean() == pytest.approx(f.report["dfs_first_length"]["mean"])
    assert f.report["random_player"] == "revisit" and f.report["random_horizon"] is None
    ends = f.challenges["random_end"].value_counts().to_dict()
    assert ends == {k: v for k, v in f.report["random_endings"].items() if v}
    g = floe.experiment("fujisan", setup="dominoes", challenges=20, trials=2, random_horizon=1000)
    theirs = cli("experiment", "fujisan", "--setup", "dominoes", "--challenges", "20", "--trials", "2",
                 "--random-horizon", "1000")
    assert without_time(g.report) == without_time(theirs) and g.report["random_horizon"] == 1000
    assert set(g.challenges["random_end"]) <= {"solved", "stuck", "horizon"}
    # the same moves are drawn: a game the authors' player solves, the capped one solves too
    assert (g.challenges["random_solvable"] | ~f.challenges["random_solvable"]).all()
    with pytest.raises(ValueError):
        floe.experiment("fujisan", random_horizon=0)
    x = floe.experiment("pretzel", suits=2, ranks=3, exact=True)
    theirs = cli("experiment", "pretzel", "--suits", "2", "--ranks", "3", "--exact")
    assert without_time(x.report) == without_time(theirs) and len(x.challenges) == 0
    with pytest.raises(floe.InvalidInput):
        floe.experiment("boxoff", challenges=2, trials=5)
    with pytest.raises(floe.InvalidInput):
        floe.experiment("chess")


def test_without_pandas_the_challenges_are_plain_lists(no_pandas):
    e = floe.experiment("boxoff", challenges=10, trials=2)
    assert isinstance(e.challenges, list) and len(e.challenges) == 10
    assert set(e.challenges[0]) >= {"size", "setup", "challenge", "solvable", "length"}


def test_challenges_are_the_experiments_own(cli, tmp_path):
    lv = floe.challenges("boxoff", 3, setup="ltiles")
    assert [x.game for x in lv] == ["boxoff"] * 3
    theirs = cli("experiment", "boxoff", "--setup", "ltiles", "--generate", "3")
    assert [x.text() for x in lv] == [t["text"].rstrip("\n") + "\n" for t in theirs]
    assert floe.solve(lv[0])["game"] == "boxoff"


def test_generate_gives_the_command_lines_levels(cli):
    g = floe.generate(6, 6, targets=2, count=2, seed=7, min_pushes=4)
    theirs = cli("generate", "--rows", "6", "--cols", "6", "--targets", "2", "--count", "2", "--seed", "7", "--min-pushes", "4")
    assert g.report == theirs and g.complete and len(g) == 2
    for lv, fig in zip(g, g.report["levels"]):
        assert floe.solve(lv)["pushes"] == fig["verified"]["pushes"]
    assert floe.levels(g.text)[1].text() == g[1].text()
    rep = floe.generate_report([(5, 5)], [1], [4], samples=5)
    rows = rep.to_dict("records") if hasattr(rep, "to_dict") else rep
    assert rows[0]["levels"] == 5
    with pytest.raises(floe.InvalidInput):
        floe.generate(5, 5, min_pushes=5, max_pushes=3)


def test_hardest_matches_the_command_line(cli):
    doc = floe.hardest("icepath", 4, 4, rocks=2, top=2)
    args = ("hardest", "icepath", "--rows", "4", "--cols", "4", "--rocks", "2", "--top", "2")
    assert without_time(doc) == without_time(cli(*args))
    assert doc["levels"][0]["length"] == 7 and doc["exhaustive"] is True
    # every level is a level file that solves in its length
    for entry in doc["levels"]:
        assert floe.solve(entry["level"])["length"] == entry["length"]
    ice = floe.hardest("ice", 3, 3, blocks=2, walls=1, by="difficulty", top=1)
    assert ice["levels"][0]["difficulty"] >= ice["levels"][0]["length"]
    a = floe.hardest("icepath", 5, 5, rocks=3, anneal=True, seed=4, restarts=2, steps=500)
    b = floe.hardest("icepath", 5, 5, rocks=3, anneal=True, seed=4, restarts=2, steps=500)
    assert [x["level"] for x in a["levels"]] == [x["level"] for x in b["levels"]]
    with pytest.raises(floe.InvalidInput):
        floe.hardest("icepath", 3, 3, rocks=8)
    with pytest.raises(ValueError):
        floe.hardest("ice", 0, 3)


def test_a_size_of_another_solitaire_game_is_refused_as_the_command_line_refuses_it():
    for call, said in [
        (lambda: floe.challenges("fujisan", 1, rows=3), "^rows does not apply to Fujisan: it is a keyword of BoxOff"),
        (lambda: floe.challenges("pretzel", 1, colors=2), "^colors does not apply to Pretzel: it is a keyword of BoxOff"),
        (lambda: floe.experiment("boxoff", suits=7, challenges=4, trials=2), "^suits does not apply to BoxOff"),
    ]:
        with pytest.raises(ValueError, match=said):
            call()
    # the ranges are the library's, said before the work starts
    with pytest.raises(ValueError, match="^ranks: 2 to 13"):
        floe.challenges("pretzel", 1, ranks=1)
    with pytest.raises(ValueError, match="^challenges: 1 to "):
        floe.experiment("boxoff", challenges=0)
