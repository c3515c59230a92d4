"""Every argument checked before the work starts, the way people get them wrong: a typo in
a keyword, a float where a count goes, a negative number, a number past 2**64, a text for a
switch. Each is a TypeError (wrong type or keyword) or a ValueError (out of range) that
names the argument, never an OverflowError from the native part."""

import pytest

import floe

from conftest import ZELDA


def test_a_typo_in_a_keyword_names_the_public_call_and_the_nearest_keyword():
    with pytest.raises(TypeError) as e:
        floe.solve(ZELDA, levle="OOSSAS")
    msg = str(e.value)
    assert msg.startswith("solve() got an unexpected keyword argument 'levle'"), msg
    assert "did you mean 'level'?" in msg and "seed" in msg and "_level" not in msg
    for call in (floe.space, floe.analyze, floe.render, floe.reach_report, floe.profile):
        with pytest.raises(TypeError, match=rf"^{call.__name__}\(\) got an unexpected keyword argument 'gmae'"):
            call(ZELDA, gmae="ice")
    with pytest.raises(TypeError, match="did you mean 'max_states'"):
        floe.bench_solvers(ZELDA, maxstates=3)


@pytest.mark.parametrize(
    "call, name",
    [
        (lambda v: floe.space(rows=5, cols=5, blocks=v), "blocks"),
        (lambda v: floe.space(rows=v, cols=5, blocks=2), "rows"),
        (lambda v: floe.solve(ZELDA, level="OOSSAS", seed=v), "seed"),
        (lambda v: floe.solve(ZELDA, level="OOSSAS", max_moves=v), "max_moves"),
        (lambda v: floe.solve(ZELDA, level="OOSSAS", factor=v), "factor"),
        (lambda v: floe.solve(ZELDA, level="OOSSAS", max_states=v), "max_states"),
        (lambda v: floe.census(v, 4), "rows"),
        (lambda v: floe.census(4, 4, hardest=v), "hardest"),
        (lambda v: floe.generate(5, 5, count=v), "count"),
        (lambda v: floe.generate(5, 5, max_pushes=v), "max_pushes"),
        (lambda v: floe.hardest("icepath", v, 4, rocks=2), "rows"),
        (lambda v: floe.experiment("boxoff", challenges=v), "challenges"),
        (lambda v: floe.reach(4, 4, v), "blocks"),
        (lambda v: floe.reach_table(3, 4, blocks=[3, v]), r"blocks\[1\]"),
        (lambda v: floe.load(ZELDA, level="OOSSAS").svg(cell=v), "cell"),
    ],
)
def test_numbers_out_of_range_and_of_the_wrong_type_name_the_argument(call, name):
    for bad in (-2, 2**70):
        with pytest.raises(ValueError, match=rf"^{name}: "):
            call(bad)
    for bad in (4.5, "3", True):
        with pytest.raises(TypeError, match=rf"^{name}: a whole number, not "):
            call(bad)


def test_a_bad_value_is_a_value_error_never_an_overflow():
    try:
        floe.space(rows=5, cols=5, blocks=-2)
    except ValueError as e:
        assert str(e) == "blocks: 0 or more (not -2)"
    else:
        pytest.fail("blocks=-2 was not refused")
    with pytest.raises(ValueError, match=r"^max_moves: 0 to 4,294,967,295 \(not 4,294,967,296\)$"):
        floe.solve(ZELDA, level="OOSSAS", max_moves=2**32)


def test_switches_and_words_are_checked():
    with pytest.raises(TypeError, match="^force: True or False, not str"):
        floe.space(rows=3, cols=3, blocks=1, force="yes")
    with pytest.raises(ValueError, match="^count: pushes, attempts"):
        floe.solve(ZELDA, level="OOSSAS", count="draws")
    with pytest.raises(TypeError, match="^timeout: a number or a text"):
        floe.solve(ZELDA, level="OOSSAS", timeout=[1])
    with pytest.raises(ValueError, match="^ranks: whole numbers such as"):
        floe.experiment("pretzel", ranks="2-x")
    # numbers of NumPy are numbers
    import numpy as np

    assert floe.space(rows=np.int64(3), cols=3, blocks=np.uint8(1))["states"] > 0


def test_every_call_names_a_typo_and_the_nearest_keyword():
    for call, kw, near in [
        (lambda **k: floe.load(ZELDA, **k), "levle", "level"),
        (lambda **k: floe.levels(ZELDA, **k), "gmae", "game"),
        (lambda **k: floe.census(4, 4, **k), "max_state", "max_states"),
        (lambda **k: floe.generate(5, 5, **k), "seeds", "seed"),
        (lambda **k: floe.hardest("icepath", 3, 3, **k), "rock", "rocks"),
        (lambda **k: floe.experiment("boxoff", **k), "challenge", "challenges"),
        (lambda **k: floe.reach_table(3, 4, **k), "block", "blocks"),
        (lambda **k: floe.load(ZELDA, level="OOSSAS").reach(**k), "max_state", "max_states"),
        (lambda **k: floe.load(ZELDA, level="OOSSAS").svg(**k), "cells", "cell"),
    ]:
        with pytest.raises(TypeError, match=rf"got an unexpected keyword argument '{kw}' \(did you mean '{near}'\?\)"):
            call(**{kw: 1})


def test_numbers_of_numpy_count_everywhere():
    import numpy as np

    assert floe.reach(np.int64(4), 4, 2).shape == (4, 4)
    r = floe.solve(ZELDA, level="OOSSAS", timeout=np.int64(5), max_memory=np.float32(4))
    assert r["pushes"] == 9
    assert floe.space(rows=3, cols=3, blocks=1, force=np.bool_(True))["complete"]
    moves = [{"row": np.int64(m["row"]), "col": np.int64(m["col"]), "dir": m["dir"]} for m in r["moves"]]
    assert floe.verify(ZELDA, moves, level="OOSSAS")["error"] is None


def test_calls_that_would_compute_nothing_are_refused():
    with pytest.raises(ValueError, match="^compare: at least one setup"):
        floe.experiment("boxoff", compare=[], challenges=5)
    with pytest.raises(ValueError, match="^min_size 5 is more than max_size 3"):
        floe.reach_table(5, 3, [2])
    with pytest.raises(ValueError, match="^seed: 0 to 18,446,744,073,709,551,615 "):
        floe.solve(ZELDA, level="OOSSAS", seed=2**64)


def test_wrong_types_name_their_argument():
    for call, name in [
        (lambda: floe.load(ZELDA, level=True), "level"),
        (lambda: floe.load(ZELDA, level=4.5), "level"),
        (lambda: floe.load(ZELDA, name=3), "name"),
        (lambda: floe.experiment("boxoff", setup=None), "setup"),
        (lambda: floe.experiment("boxoff", compare=3), "compare"),
        (lambda: floe.render(ZELDA, level="OOSSAS", coords="yes"), "coords"),
        (lambda: floe.solve(ZELDA, level="OOSSAS", svg=3), "svg"),
        (lambda: floe.verify(ZELDA, None, level="OOSSAS"), "moves"),
        (lambda: floe.reach(4.5, 4, 2), "rows"),
        (lambda: floe.space(ZELDA, level="OOSSAS", k=4.5), "k"),
    ]:
        with pytest.raises(TypeError, match=rf"^{name}: "):
            call()


# one call per range the library lists (floe._floe.ranges(), the command line's flags too):
# the value past its end is refused by name, the value at its end is not refused by the check
RANGED_CALLS = {
    "hardest.rows": lambda v: floe.hardest("icepath", v, 1, rocks=0, top=1),
    "hardest.cols": lambda v: floe.hardest("icepath", 1, v, rocks=0, top=1),
    "hardest.restarts": lambda v: floe.hardest("ice", 3, 3, blocks=1, anneal=True, restarts=v, steps=1),
    "hardest.top": lambda v: floe.hardest("ice", 3, 3, blocks=1, top=v),
    "hardest.steps": lambda v: floe.hardest("ice", 3, 3, blocks=1, anneal=True, steps=v),
    "bench_solvers.runs": lambda v: floe.bench_solvers("$---\n---.\n", algo="random", runs=v),
    "generate_report.samples": lambda v: floe.generate_report([(4, 4)], [1], [2], samples=v),
    "experiment.threads": lambda v: floe.experiment("boxoff", challenges=1, trials=1, threads=v),
    "experiment.challenges": lambda v: floe.experiment("boxoff", challenges=v, trials=1),
    "experiment.trials": lambda v: floe.experiment("boxoff", challenges=1, trials=v),
    "experiment.random_horizon": lambda v: floe.experiment("boxoff", challenges=1, trials=1, random_horizon=v),
    "census.rows": lambda v: floe.census(v, 1),
    "census.cols": lambda v: floe.census(1, v),
    "census.k": lambda v: floe.census(2, 2, k=v),
    "space_table.max_rows": lambda v: floe.space_table(v, 2, 1),
    "space_table.max_cols": lambda v: floe.space_table(2, v, 1),
    "space_table.max_blocks": lambda v: floe.space_table(2, 2, v),
    "reach_table.min_size": lambda v: floe.reach_table(v, 3, (1,)),
    "reach_table.max_size": lambda v: floe.reach_table(3, v, (1,)),
    "patterns_table.min_size": lambda v: floe.patterns_table(v, 3, (1,)),
    "patterns_table.max_size": lambda v: floe.patterns_table(3, v, (1,)),
    "strip_table.max_width": lambda v: floe.strip_table((2,), v, (1,)),
    "generate.rows": lambda v: floe.generate(v, 4),
    "generate.cols": lambda v: floe.generate(4, v),
    "generate.targets": lambda v: floe.generate(4, 4, targets=v),
    "generate.max_blocks": lambda v: floe.generate(4, 4, max_blocks=v),
    "generate.count": lambda v: floe.generate(4, 4, count=v),
    "solve.cell": lambda v: floe.solve("$---\n---.\n").svg(cell=v),
    "explain.subsets": lambda v: floe.explain("$---\n---.\n", subsets=v),
}


def test_every_library_range_has_a_call_here():
    from floe import _floe

    assert sorted(RANGED_CALLS) == sorted(k for k, _ in _floe.ranges())


@pytest.mark.parametrize("key", sorted(RANGED_CALLS))
def test_a_value_past_the_library_range_is_refused_by_name(key):
    from floe import _floe

    lo, hi = dict(_floe.ranges())[key]
    name = key.split(".", 1)[1]
    for bad in [hi + 1] + ([lo - 1] if lo > 0 else []):
        with pytest.raises(ValueError, match=rf"^{name}\b") as e:
            RANGED_CALLS[key](bad)
        assert f"{lo:,} to {hi:,} (not {bad:,})" in str(e.value), str(e.value)


def test_the_library_messages_name_keywords_not_command_line_flags():
    # the operations are shared with the command line; their messages reach Python in its words
    with pytest.raises(floe.InvalidInput) as e:
        floe.load(ZELDA)
    assert "pick one with level=N or level=NAME" in str(e.value) and "--" not in str(e.value)
    with pytest.raises(floe.InvalidInput, match=r"^targets=0: "):
        floe.hardest("ice", rows=5, cols=5, blocks=2, targets=0)
    with pytest.raises(floe.InvalidInput, match=r"^blocks does not apply to the ice path"):
        floe.hardest("icepath", rows=4, cols=4, blocks=2)
    with pytest.raises(floe.InvalidInput, match=r"use anneal$"):
        floe.hardest("icepath", rows=12, cols=12, rocks=3)


def test_the_users_own_texts_stay_as_given_and_time_is_named_time():
    with pytest.raises(floe.InvalidInput) as e:
        floe.load(ZELDA, level="--x")
    assert "'--x'" in str(e.value), str(e.value)
    with pytest.raises(ValueError, match=r"^time: "):
        floe.hardest("icepath", 9, 9, rocks=3, anneal=True, time="-1s")


def test_unbounded_keywords_and_unreadable_sources_are_refused_in_words(tmp_path):
    # before: generate(candidate_states=3) tried a million candidates, each dropped
    with pytest.raises(floe.InvalidInput, match=r"^candidate_states 3 is too few for levels of 3 or more pushes"):
        floe.generate(6, 6, candidate_states=3)
    with pytest.raises(floe.InvalidInput, match=r"^a 1×1 board has no level of 3 or more pushes"):
        floe.generate(1, 1)
    # before: FileNotFoundError naming "" or a one-line level without a word on text
    with pytest.raises(ValueError, match="an empty string is neither a path nor a level's text"):
        floe.load("")
    with pytest.raises(FileNotFoundError, match=r"a level's text needs a line break") as e:
        floe.load("$-.")
    assert e.value.filename == "$-."
    # before: serde's "unknown variant `north` … 1:16"
    s = floe.load(ZELDA, level="OOSSAS").start()
    with pytest.raises(floe.InvalidInput) as e2:
        s.play({"dir": "north"})
    said = str(e2.value)
    assert said.startswith("{'dir': 'north'} is not a move of this game: unknown value `north`"), said
    assert "a move of this game looks like {" in said and "1:16" not in said, said
    with pytest.raises(floe.InvalidInput, match=r"^moves\[1\]: \{'dir': 'x'\} is not a move"):
        s.play_moves([s.moves()[0], {"dir": "x"}])
