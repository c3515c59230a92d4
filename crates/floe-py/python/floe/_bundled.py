"""The level collections that come with the package: the repository's ``levels/``, copied
into ``floe/levels/`` when the package is built (``crates/floe-py/build.rs``)."""

from __future__ import annotations

import errno
from pathlib import Path
from typing import Dict

#: Where the collections are, inside the installed package.
LEVELS = Path(__file__).resolve().parent / "levels"


def collections() -> Dict[str, str]:
    """The level collections bundled with the package, by name: the path of each file.

    The names are the files of the repository's ``levels/`` without ``.txt``, as ``floe
    serve``'s page lists them (``zelda`` first, then ``empty``, ``icepath``,
    ``icetower/fire-and-gold``, ``pushpush``, ``solitaire/boxoff-1``, …). The paths are
    absolute, so ``floe.load(floe.collections()["zelda"], level="OOSSAS")`` works from any
    directory.

    Raises:
        FileNotFoundError: the package was built without them (a broken install).
    """
    if not LEVELS.is_dir():
        raise FileNotFoundError(
            errno.ENOENT, "the bundled level collections are missing from this install of floe-puzzles", str(LEVELS)
        )
    names = sorted(p.relative_to(LEVELS).as_posix() for p in LEVELS.rglob("*.txt"))
    names.sort(key=lambda n: n != "zelda.txt")
    return {n[: -len(".txt")]: str(LEVELS / n) for n in names}
