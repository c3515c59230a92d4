"""Progress: ``progress=True`` draws a bar on standard error, ``progress=callable`` hears
``(done, total)`` from the threads doing the work; a callable that raises does not stop it."""

from __future__ import annotations

import sys

import pytest

import floe

from conftest import without_time


def test_a_callable_hears_the_positions_of_a_search():
    calls = []
    r = floe.space(rows=7, cols=7, blocks=5, progress=lambda done, total: calls.append((done, total)))
    assert calls, "no report"
    assert all(total is None and 0 <= done <= r["states"] for done, total in calls[:-1])
    assert calls[-1] == (r["states"], r["states"])
    assert [d for d, _ in calls] == sorted(d for d, _ in calls)


def test_an_experiment_reports_its_challenges_to_the_last():
    calls = []
    e = floe.experiment("boxoff", challenges=40, trials=2, progress=lambda done, total: calls.append((done, total)))
    assert calls[0] == (0, 40) and calls[-1] == (40, 40)
    assert all(t == 40 and 0 <= d <= 40 for d, t in calls)
    # the figures do not depend on being watched
    assert without_time(e.report) == without_time(floe.experiment("boxoff", challenges=40, trials=2).report)


def test_true_draws_a_bar_on_standard_error(capfd):
    floe.experiment("boxoff", challenges=20, trials=2, progress=True)
    err = capfd.readouterr().err
    assert "experiment: challenges" in err and "20" in err


def test_a_callable_that_raises_is_reported_not_fatal(monkeypatch):
    seen = []
    monkeypatch.setattr(sys, "unraisablehook", lambda u: seen.append(u.exc_value))

    def broken(done, total):
        raise RuntimeError("boom")

    e = floe.experiment("boxoff", challenges=20, trials=2, progress=broken)
    assert len(e.challenges) == 20
    assert seen and all(isinstance(x, RuntimeError) for x in seen)


@pytest.mark.parametrize("bad", [3, "yes", [1]])
def test_anything_else_is_a_type_error_naming_progress(bad):
    with pytest.raises(TypeError, match="^progress: "):
        floe.space(rows=3, cols=3, blocks=1, progress=bad)


EMPTY = "$---\n---.\n"

# every call that can take long, with a callable: each ends with one call (done, done)
CALLS = {
    "solve": lambda p: floe.solve(EMPTY, progress=p),
    "space": lambda p: floe.space(rows=4, cols=4, blocks=2, progress=p),
    "analyze": lambda p: floe.analyze(EMPTY, progress=p),
    "bench_solvers": lambda p: floe.bench_solvers(EMPTY, algo="random", runs=3, progress=p),
    "census": lambda p: floe.census(3, 3, progress=p),
    "graph": lambda p: floe.graph(EMPTY, progress=p),
    "Level.graph": lambda p: floe.load(EMPTY).graph(progress=p),
    "run": lambda p: floe.run("graph", EMPTY, positions=False, progress=p),
    "reach": lambda p: floe.reach(5, 5, 3, progress=p),
    "reach_report": lambda p: floe.reach_report(rows=5, cols=5, blocks=3, progress=p),
    "profile": lambda p: floe.profile(EMPTY, factors=[0, 5], progress=p),
    "space_table": lambda p: floe.space_table(4, 4, 2, progress=p),
    "reach_table": lambda p: floe.reach_table(3, 4, (2,), progress=p),
    "strip_table": lambda p: floe.strip_table((2,), 5, (2,), compare_width=4, progress=p),
    "patterns_table": lambda p: floe.patterns_table(3, 4, (2,), progress=p),
    "generate": lambda p: floe.generate(5, 5, count=2, progress=p),
    "hardest exact": lambda p: floe.hardest("ice", 3, 4, blocks=2, progress=p),
    "hardest icepath": lambda p: floe.hardest("icepath", 4, 4, rocks=2, progress=p),
    "hardest anneal": lambda p: floe.hardest("ice", 4, 4, blocks=2, anneal=True, restarts=2, steps=300, progress=p),
    "hardest pushpush": lambda p: floe.hardest("pushpush", 3, 3, progress=p),
}


@pytest.mark.parametrize("name", sorted(CALLS))
def test_every_long_call_ends_with_done_equal_to_total(name):
    calls = []
    CALLS[name](lambda done, total: calls.append((done, total)))
    assert calls, "no report"
    done, total = calls[-1]
    assert done == total and done > 0, calls[-3:]
    # only the last call says the end, and the counts never go back
    assert all(t is None or d < t for d, t in calls[:-1]), calls
    assert [d for d, _ in calls] == sorted(d for d, _ in calls)


def test_counted_work_tells_its_total():
    calls = []
    floe.generate(5, 5, count=3, progress=lambda d, t: calls.append((d, t)))
    assert calls[-1] == (3, 3) and all(t == 3 for _, t in calls)
    calls.clear()
    r = floe.hardest("ice", 4, 4, blocks=2, anneal=True, restarts=2, steps=300, progress=lambda d, t: calls.append((d, t)))
    assert r["levels"] and calls[-1] == (600, 600)
    assert all(t == 600 for _, t in calls)


def test_an_anytime_search_tells_milliseconds_of_its_time():
    calls = []
    floe.hardest("ice", 4, 4, blocks=2, anneal=True, restarts=2, steps=200, time=0.6, progress=lambda d, t: calls.append((d, t)))
    assert len(calls) >= 2
    assert all(t == 600 for _, t in calls[:-1])
    done, total = calls[-1]
    assert done == total >= 600


def test_a_graph_tells_every_position_at_its_end():
    calls = []
    g = floe.graph(EMPTY, progress=lambda d, t: calls.append((d, t)))
    assert calls[-1] == (len(g), len(g))


def test_a_bar_for_hardest_and_generate(capfd):
    floe.hardest("ice", 3, 4, blocks=2, progress=True)
    floe.generate(5, 5, count=2, progress=True)
    err = capfd.readouterr().err
    assert "hardest" in err and "generate: levels" in err


def test_a_census_tells_its_push_steps_which_never_go_down():
    calls = []
    floe.census(3, 4, progress=lambda d, t: calls.append((d, t)))
    assert [d for d, _ in calls] == sorted(d for d, _ in calls)
    assert calls[-1][0] == calls[-1][1] and calls[-1][0] < 100  # steps, not positions


def test_a_callable_of_the_wrong_shape_is_refused_before_the_work():
    with pytest.raises(TypeError, match="^progress: a callable taking"):
        floe.space(rows=3, cols=3, blocks=1, progress=lambda done: None)


def test_a_refused_call_reports_nothing():
    calls = []
    with pytest.raises(ValueError):
        floe.bench_solvers("$---\n---.\n", algo="bfs", progress=lambda d, t: calls.append((d, t)))
    assert calls == []


def test_hardest_names_time_in_its_messages():
    with pytest.raises(TypeError, match="^time: "):
        floe.hardest("ice", 3, 3, blocks=1, time=True)
    with pytest.raises(ValueError, match="^time: "):
        floe.hardest("ice", 3, 3, blocks=1, time=-1)


def test_a_bar_off_a_terminal_is_one_line(capfd):
    try:
        import tqdm  # noqa: F401

        pytest.skip("tqdm draws the bar when it is installed")
    except ImportError:
        pass
    floe.hardest("ice", 4, 4, blocks=2, anneal=True, restarts=2, steps=2000, progress=True)
    err = capfd.readouterr().err
    assert "\r" not in err and err.count("hardest: steps") <= 1
