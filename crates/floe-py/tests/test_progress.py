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
    assert all(total is None and 0 <= done <= r["states"] for done, total in calls)
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
