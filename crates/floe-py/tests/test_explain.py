"""floe.explain: why a position is lost, from a level with moves or from a State."""

import pytest

import floe

PUSHPUSH = "Game: pushpush\n@$--.\n-----\n-$---\n"


def test_a_lost_start_has_its_core_and_its_sentence():
    e = floe.explain("$--.\n.---\n")
    assert e["standing"] == "lost" and e["lost_from_start"] and e["lost_at"] is None
    core = e["core"]
    assert core["kind"] == "targets" and core["smallest"] and core["pieces"] == 2
    assert [(c["row"], c["col"]) for c in core["cells"]] == [(0, 3), (1, 0)]
    assert e["sentence"] == "These two targets cannot all get blocks. The level cannot be solved from its start."


def test_a_state_brings_its_moves_and_the_push_that_lost_it_is_named():
    state = floe.load(PUSHPUSH).start().play("0 1 right")
    e = floe.explain(state)
    assert e["played"] == 1 and e["standing"] == "lost"
    assert e["lost_at"]["index"] == 1 and e["lost_at"]["undo"] == 1
    assert e["lost_at"]["played"] == {"row": 0, "col": 1, "dir": "right"}
    assert [(c["row"], c["col"]) for c in e["core"]["cells"]] == [(0, 4)]
    assert e["sentence"].endswith("Push 1, (0, 1) right, lost it: Undo saves it.")
    # the same by a level and its moves, as a list or a text
    assert floe.explain(PUSHPUSH, moves=state.moves_played)["core"] == e["core"]
    assert floe.explain(PUSHPUSH, moves="0 1 right")["lost_at"] == e["lost_at"]
    assert floe.explain(PUSHPUSH, moves=["0 1 right"])["lost_at"] == e["lost_at"]
    # and through the list of operations
    assert floe.run("explain", PUSHPUSH, moves=state.moves_played)["core"] == e["core"]
    # the start: solved (the robot walks round)
    assert floe.explain(floe.load(PUSHPUSH).start())["standing"] == "solved"


def test_a_position_still_solvable_says_how_far():
    e = floe.explain("$---\n---.\n")
    assert (e["standing"], e["to_go"], e["core"]) == ("solvable", 2, None)


def test_wrong_calls_are_told():
    state = floe.load(PUSHPUSH).start()
    with pytest.raises(TypeError, match="a State brings its level"):
        floe.explain(state, moves=[])
    with pytest.raises(TypeError, match="^moves: "):
        floe.explain(PUSHPUSH, moves=3)
    for bad, err in [(0, ValueError), (-1, ValueError), (10**10, ValueError), (1.5, TypeError), ("9", TypeError)]:
        with pytest.raises(err, match="^subsets: "):
            floe.explain(PUSHPUSH, subsets=bad)
    with pytest.raises(ValueError, match="illegal"):
        floe.explain(PUSHPUSH, moves="0 1 up")
    with pytest.raises(TypeError, match="unexpected keyword argument 'subset'"):
        floe.explain(PUSHPUSH, subset=3)


def test_a_cap_on_sets_gives_a_dead_set_not_proved_smallest():
    tower = "#########\n#*  %  *#\n#   @   #\n#########\n"
    e = floe.explain(tower, game="icetower", subsets=2)
    assert e["core"]["smallest"] is False and e["core"]["stopped"] == "subsets"
    assert "perhaps fewer" in e["sentence"]
    assert floe.explain(tower, game="icetower")["core"]["smallest"] is True
