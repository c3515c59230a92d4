"""What lets floe's objects travel: pickled to disk or to another process (as
``concurrent.futures.ProcessPoolExecutor`` and ``multiprocessing`` do), and compared.

A level pickles as its text, game, name, parameters, file and index, and is read back from
them; a solution as its level, its report and what its replay showed (boards, steps, note),
its pictures drawn again from its moves. The pickles name the functions of this module, so
they read back wherever the same ``floe`` is installed. (The two functions that rebuild a
level and a solution are in ``_level``, beside the classes they make.)
"""

from __future__ import annotations

import json
from typing import Any, Dict, List, Optional, Tuple

from . import _floe

#: What makes two levels the same level: game, name, text without its comment lines,
#: parameters (as sorted JSON).
Key = Tuple[str, str, str, str]


def level_key(level: Any) -> Key:
    """The level's game, name, text and parameters: equal levels have equal keys. Comment
    lines (``; …``) do not count: a level read from a file of its own and from a pack with
    a note above it is one level."""
    text = "".join(line for line in level.text().splitlines(keepends=True) if not line.lstrip().startswith(";"))
    return (level.game, level.name, text, json.dumps(level.params, sort_keys=True))


def level_state(level: Any) -> Tuple[str, str, str, Dict[str, Any], str, int, bool]:
    """What ``_level.rebuilt_level`` needs: text, game, name, parameters, file, index, and
    whether it is an empty board given by its size."""
    n = level._native
    return (level.text(), level.game, level.name, level.params, level.file, level.index, n.empty)


class Kept:
    """What a solution's replay showed, kept when it travelled, in place of the native
    part: the report's text, the boards, the steps and the note; pictures are drawn again
    from the moves."""

    __slots__ = ("_level", "_doc", "_boards", "_steps", "_note", "_moves", "_solved")

    def __init__(
        self, level: Any, doc: str, boards: List[str], steps: List[str], note: Optional[str]
    ) -> None:
        self._level = level
        self._doc = doc
        self._boards = list(boards)
        self._steps = list(steps)
        self._note = note
        r = json.loads(doc)
        self._moves: str = json.dumps(r.get("moves", []))
        self._solved = bool(r.get("solved"))

    def json(self) -> str:
        return self._doc

    def boards(self) -> List[str]:
        return list(self._boards)

    def steps(self) -> List[str]:
        return list(self._steps)

    def note(self) -> Optional[str]:
        return self._note

    def svg(self, kind: str = "arrows", coords: bool = False, cell: int = 0) -> Optional[str]:
        if not self._solved:
            return None
        return _floe.story_svg(self._level._native, self._moves, kind, coords, cell)


def solution_state(s: Any) -> Tuple[Any, Dict[str, Any], str, List[str], List[str], Optional[str]]:
    """What ``_level.rebuilt_solution`` needs: the level, the dict, the report's text, the
    boards, the steps and the note."""
    n = s._native
    return (s.level, dict(s), n.json(), n.boards(), n.steps(), n.note())
