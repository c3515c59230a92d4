"""Shared fixtures: the repository's levels, a small level of every game, and the `floe`
command-line binary the round-trip tests compare with."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

import floe

ROOT = Path(__file__).resolve().parents[3]
LEVELS = ROOT / "levels"
ZELDA = LEVELS / "zelda.txt"

#: (game, level text, fewest moves): each registered game's sample level (``sample`` of
#: ``floe.games()``, a file in the game's own folder), as `crates/floe-cli/tests/games.rs`
#: takes them: a new game is covered with nothing listed here.
GAMES = [(g["name"], g["sample"]["text"], g["sample"]["fewest"]) for g in floe.games()]
#: game → its sample level's text.
SAMPLES = {game: text for game, text, _ in GAMES}


def _cli() -> Path:
    """The `floe` binary: $FLOE_BIN, else target/release/floe (built when missing)."""
    given = os.environ.get("FLOE_BIN")
    if given:
        return Path(given)
    exe = ROOT / "target" / "release" / "floe"
    if not exe.exists():
        print("building the floe binary for the round-trip tests: cargo build --release -p floe-cli")
        subprocess.run(["cargo", "build", "--release", "-p", "floe-cli"], cwd=ROOT, check=True)
    return exe


@pytest.fixture(scope="session")
def cli():
    """Runs the command line with `--json` and returns its document."""
    exe = _cli()

    def run(*args: str, ok=(0,)) -> object:
        p = subprocess.run([str(exe), *args, "--json"], cwd=ROOT, capture_output=True, text=True)
        assert p.returncode in ok, p.stderr
        return json.loads(p.stdout)

    return run


@pytest.fixture
def game_files(tmp_path):
    """The level of every game as a file: [(game, path, fewest moves)]."""
    out = []
    for game, text, n in GAMES:
        p = tmp_path / f"{game}.txt"
        p.write_text(text)
        out.append((game, p, n))
    return out


@pytest.fixture
def no_pandas(monkeypatch):
    """An interpreter where ``import pandas`` fails."""
    import builtins

    real = builtins.__import__

    def refuse(name, *a, **k):
        if name == "pandas" or name.startswith("pandas."):
            raise ImportError("no pandas here")
        return real(name, *a, **k)

    monkeypatch.setattr(builtins, "__import__", refuse)


def without_time(doc):
    """A report without the fields that measure the run (seconds, memory)."""
    if isinstance(doc, dict):
        return {
            k: without_time(v)
            for k, v in doc.items()
            if k not in ("seconds", "graph_seconds", "elapsed_secs", "mean_secs", "index_bytes", "peak_rss_bytes", "peak_memory_bytes")
        }
    if isinstance(doc, list):
        return [without_time(v) for v in doc]
    return doc
