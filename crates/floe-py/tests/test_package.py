"""The package as it is installed: its distribution's name, and the level collections it
carries, found from any directory."""

from __future__ import annotations

import importlib.metadata
import re
from pathlib import Path

import pytest

import floe

from conftest import LEVELS, ROOT, ZELDA

PACKAGE = Path(floe.__file__).resolve().parent


def test_the_distribution_is_floe_puzzles():
    # `floe` on the package index is another project: pip knows this one by its own name
    assert importlib.metadata.version("floe-puzzles") == floe.__version__
    assert importlib.metadata.metadata("floe-puzzles")["Name"] == "floe-puzzles"
    pyproject = (ROOT / "crates" / "floe-py" / "pyproject.toml").read_text()
    assert re.search(r'^name = "floe-puzzles"$', pyproject, re.M)
    assert 'module-name = "floe._floe"' in pyproject


def test_no_instructions_install_the_other_project():
    for doc in [ROOT / "README.md", ROOT / "BENCHMARKS.md", *ROOT.glob("docs/*.md"), ROOT / "crates/floe-py/README.md"]:
        text = doc.read_text()
        assert not re.search(r"pip install (-\S+ )*floe(?![-\w./])", text), doc


def repository_collections():
    """The repository's level files as `floe serve` bundles them: every .txt of levels/
    but the pictures of levels/images/, Zelda first."""
    names = sorted(p.relative_to(LEVELS).as_posix() for p in LEVELS.rglob("*.txt") if "images" not in p.parts)
    return sorted(names, key=lambda n: n != "zelda.txt")


def test_the_level_collections_come_with_the_package(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    found = floe.collections()
    expected = repository_collections()
    assert list(found) == [n[: -len(".txt")] for n in expected]
    assert list(found)[:2] == ["zelda", "empty"] and "icetower/fire-and-gold" in found
    assert "solitaire/boxoff-1" in found and not any(n.startswith("images") for n in found)
    for (name, path), file in zip(found.items(), expected):
        p = Path(path)
        assert p.is_absolute() and p.is_relative_to(PACKAGE / "levels"), path
        assert p.read_bytes() == (LEVELS / file).read_bytes(), name
        assert floe.levels(path), name
    lv = floe.load(floe.collections()["zelda"], level="OOSSAS")
    assert lv.name == "OOSSAS" and lv == floe.load(ZELDA, level="OOSSAS")
    assert floe.solve(floe.collections()["zelda"], level="OOSSAS")["pushes"] == 9
    assert floe.load(found["pushpush"], level="one-way").game == "pushpush"
    # a relative path does not work from here: the bundled one does
    with pytest.raises(FileNotFoundError):
        floe.load("levels/zelda.txt", level="OOSSAS")
