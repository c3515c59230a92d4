"""Levels of every game from a path or a string; errors as exceptions with file, line and
column; pictures."""

from __future__ import annotations

import pytest

import floe

from conftest import GAMES, LEVELS, ROOT, ZELDA


def test_every_game_is_known():
    names = [g["name"] for g in floe.games()]
    assert sorted(names) == sorted(g for g, _, _ in GAMES)
    first = floe.games()[0]
    assert {"name", "aliases", "title", "rules", "params", "algorithms", "formats", "capabilities"} <= set(first)
    # each game's goal and moves, for a player
    assert all(g["rules"].startswith("Goal: ") for g in floe.games())


@pytest.mark.parametrize("game,text,moves", GAMES)
def test_a_level_of_every_game_from_text_and_from_a_file(game, text, moves, tmp_path):
    a = floe.load(text)
    assert a.game == game and a.file == "<text>" and a.index == 0
    p = tmp_path / "x.txt"
    p.write_text(text)
    for src in (p, str(p)):
        b = floe.load(src)
        assert (b.game, b.name, b.title) == (a.game, a.name, a.title)
        assert b.file == str(p)
    # the level alone as a file of its game reads back the same
    again = floe.load(str(a))
    assert again.text() == a.text() and again.game == game
    assert isinstance(a.params, dict)
    rows, cols = a.shape
    assert rows >= 1 and cols >= 1
    assert a.description
    info = a.info()
    assert info == {
        "index": 1,
        "name": a.name,
        "title": a.title,
        "game": game,
        "rows": rows,
        "cols": cols,
        "description": a.description,
        "params": a.params,
    }
    assert repr(a).startswith("<floe level")


def test_levels_of_a_file_match_the_command_line(cli):
    for path in ("levels/zelda.txt", "levels/pushpush.txt", "levels/icepath.txt"):
        ours = [lv.info() for lv in floe.levels(LEVELS.parent / path)]
        assert ours == cli("levels", path)


def test_picking_a_level_by_number_or_title():
    by_title = floe.load(ZELDA, level="OOSSAS")
    all_ = floe.levels(ZELDA)
    assert by_title.name == "OOSSAS"
    by_number = floe.load(ZELDA, level=all_.index(next(l for l in all_ if l.name == "OOSSAS")) + 1)
    assert by_number.text() == by_title.text()
    assert floe.load(ZELDA, level="oossas").name == "OOSSAS"
    with pytest.raises(floe.InvalidInput, match="pick one"):
        floe.load(ZELDA)
    with pytest.raises(floe.InvalidInput):
        floe.load(ZELDA, level="no such room")


def test_parameters_as_keywords_and_as_params():
    text = "Game: pushpush\nTitle: tiny\n@$--\n##-.\n"
    assert floe.load(text).params == {"k": 1}
    assert floe.load(text, k=2).params == {"k": 2}
    assert floe.load(text, params={"k": 0}).params == {"k": 0}
    assert floe.load(text, params=["k=3"]).params == {"k": 3}
    assert floe.load(text, game="pushpush(k=2)").params == {"k": 2}
    lv = floe.load(ZELDA, level="OOSSAS", rules="walk")
    assert lv.params == {"rules": "walk"}
    assert lv.configure(rules="free").params == {"rules": "free"}
    with pytest.raises(floe.InvalidInput, match="k"):
        floe.load(ZELDA, level="OOSSAS", k=2)  # ice blocks have no k


def test_a_parse_error_carries_file_line_and_column(tmp_path):
    with pytest.raises(floe.ParseError) as e:
        floe.load("Title: bad\n$-?-\n")
    assert (e.value.file, e.value.line, e.value.col) == ("<text>", 2, 3)
    assert str(e.value).startswith("<text>:2:3: ")
    assert e.value.message in str(e.value)
    assert isinstance(e.value, ValueError) and isinstance(e.value, floe.FloeError)
    p = tmp_path / "broken.txt"
    p.write_text("Game: boxoff\n1 2\n3 x\n")
    with pytest.raises(floe.ParseError) as e:
        floe.levels(p)
    assert (e.value.file, e.value.line, e.value.col) == (str(p), 3, 3)
    with pytest.raises(floe.ParseError) as e:
        floe.load("Title: bad\n$-?-\n", name="mine.txt")
    assert e.value.file == "mine.txt"


def test_reading_errors_are_os_errors(tmp_path):
    missing = tmp_path / "missing.txt"
    with pytest.raises(FileNotFoundError) as e:
        floe.load(missing)
    assert e.value.filename == str(missing)
    with pytest.raises(OSError, match="directory"):
        floe.load(tmp_path)  # a directory is refused
    with pytest.raises(TypeError):
        floe.load(42)  # type: ignore[arg-type]


def test_levels_draw_themselves():
    lv = floe.load(ZELDA, level="TPIBC1")
    svg = lv._repr_svg_()
    assert svg.startswith("<svg") and svg.rstrip().endswith("</svg>")
    big = lv.svg(coords=True, cell=40)
    assert isinstance(big, floe.SVG) and big._repr_svg_() == big
    assert big != svg
    assert floe.render(ZELDA, level="TPIBC1") == svg
    with pytest.raises(ValueError):
        lv.svg(cell=1)
    for game, text, _ in GAMES:
        assert floe.load(text)._repr_svg_().startswith("<svg")


def test_formats():
    lv = floe.load(ZELDA, level="OOSSAS")
    k = lv.text("kluiver")
    assert floe.load(k, format="kluiver").shape == lv.shape
    with pytest.raises(floe.InvalidInput):
        lv.text("nope")


def test_a_level_is_equal_wherever_it_was_read_with_or_without_comments(tmp_path):
    pack = floe.load(ZELDA, level="OOSSAS")
    assert pack.text().startswith(";")
    own = tmp_path / "OOSSAS.txt"
    own.write_text("".join(l for l in pack.text().splitlines(keepends=True) if not l.startswith(";")))
    alone = floe.load(own)
    assert alone == pack and hash(alone) == hash(pack) and len({alone, pack}) == 1
    # Kluiver's own file of the room is the same level too
    kluiver = ROOT.parent / "shared" / "levels" / "kluiver-zelda" / "OOSSAS.txt"
    if kluiver.exists():
        assert floe.load(kluiver) == pack
    # a change of a cell is another level
    assert floe.load(own.read_text().replace("$", "-", 1)) != pack
