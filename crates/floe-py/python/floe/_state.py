"""A level played one move at a time, as OpenSpiel's ``pyspiel`` plays a game: a
:class:`State` is a position with the moves that led to it; playing a move gives a new state.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any, Dict, List, Optional, Tuple

import numpy as np

from . import _floe
from ._checks import cell_size, keywords, switch
from ._common import SVG, array
from ._errors import InvalidInput
from ._travel import Key, level_key

if TYPE_CHECKING:  # pragma: no cover
    # a level is what floe.load gives (_level.Level, which imports this module to start one)
    Level = Any

#: What one cell's code is made of: ``code = GROUND_CODES * piece + ground``.
GROUND_CODES = 32

#: The ground part of a cell's code (``code % 32``).
GROUNDS: Dict[int, str] = {
    0: "blank",
    1: "ice",
    2: "floor",
    3: "wall",
    4: "target",
    5: "fire",
    6: "recycler",
    7: "arrow up",
    8: "arrow right",
    9: "arrow down",
    10: "arrow left",
    11: "dispenser",
    12: "table",
    13: "hole",
    14: "start",
    **{16 + v: f"space {v}" for v in range(16)},
}

#: The piece part of a cell's code (``code // 32``); tokens and cards are numbered after
#: these (see :meth:`State.to_array`).
PIECES: Dict[int, str] = {
    0: "none",
    1: "block",
    2: "golden",
    3: "player",
    4: "magician",
    5: "priest",
    **{5 + c: f"token {c}" for c in range(1, 10)},
}


def _shown(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _plain(value: Any) -> Any:
    """A NumPy scalar as the Python number or bool it holds (for ``json.dumps``)."""
    if isinstance(value, np.generic):
        return value.item()
    raise TypeError(f"Object of type {type(value).__name__} is not JSON serializable")


def _move_text(move: Any, name: str) -> str:
    """A move as the native part reads moves: a JSON list of one move, or the game's text."""
    if isinstance(move, str):
        if not move.strip():
            raise ValueError(f"{name}: an empty text is no move")
        return move
    if isinstance(move, dict):
        try:
            # NumPy's numbers are numbers here as everywhere
            return json.dumps([move], default=_plain)
        except (TypeError, ValueError) as e:
            raise TypeError(f"{name}: a move as State.moves() gives it, not {_shown(move)} ({e})") from None
    raise TypeError(
        f"{name}: a move as State.moves() gives it (a dict) or its text, not {type(move).__name__} {_shown(move)}"
    )


class State:
    """A position of a level with the moves played from its start to reach it.

    Made by :meth:`Level.start` (or :func:`floe.start`). A state never changes:
    :meth:`play` gives a new one. :meth:`moves` lists the legal moves, each a dict as
    :func:`floe.solve` gives moves; :meth:`solved` says whether the position solves the
    level; :meth:`to_array` gives the position as a NumPy array of cell codes. States are
    equal (and hash alike) when their levels are equal and their positions the same for
    the game's rules (the moves that led there do not count); a state pickles as its level
    and its moves, replayed when it is read back; it draws itself in Jupyter.
    """

    __slots__ = ("_native", "_level", "_moves", "_hash")

    def __init__(self, native: "_floe.State", level: Level) -> None:
        self._native = native
        self._level = level
        self._moves: Optional[List[Any]] = None
        self._hash: Optional[int] = None

    @property
    def level(self) -> Level:
        """The level it is a position of."""
        return self._level

    def moves(self) -> List[Any]:
        """The legal moves, in the engine's order, each as :func:`floe.solve` gives moves
        (for ice blocks and PushPush ``{"row": 3, "col": 4, "dir": "up"}``); empty when no
        move can be played. Each is checked by the game's rules. They are the moves the
        game's engine generates: Ice Tower's leaves out the pushes after which the level can
        no longer be solved (its dead positions), which :meth:`play` still plays."""
        if self._moves is None:
            self._moves = json.loads(self._native.moves_json())
        return [dict(m) if isinstance(m, dict) else m for m in self._moves]

    def play(self, move: Any) -> "State":
        """The state after ``move``, played by the game's rules (this state does not change).

        Args:
            move: a move as :meth:`moves` and :func:`floe.solve` give them (a dict), or the
                game's text form of one move (``"3 4 up"``).

        Raises:
            ValueError: an illegal move (:class:`floe.InvalidInput`, with the rules' reason)
                or one that does not read as a move of the game.
            TypeError: ``move`` is neither a dict nor a text.
        """
        return State(self._played(move, "move", "the move"), self._level)

    def _played(self, move: Any, name: str, shown: str) -> Any:
        """The native state after ``move``; a dict that does not read as a move of the game
        is said in words, with a move that does (not serde's column of a JSON text)."""
        try:
            return self._native.play(_move_text(move, name), shown)
        except ValueError as e:
            if not isinstance(move, dict) or type(e).__name__ != "ParseError":
                raise
            reason = str(e).split(": ", 1)[-1].replace("unknown variant", "unknown value")
            legal = self.moves()
            like = f"; a move of this game looks like {legal[0]!r}" if legal else ""
            raise InvalidInput(f"{move!r} is not a move of this game: {reason}{like}") from None

    def play_moves(self, moves: Any) -> "State":
        """The state after each move of ``moves`` in turn (a list of moves as :meth:`play`
        takes them, or a :class:`floe.Solution`, whose moves are played); the first illegal
        one raises ``ValueError`` with its place (``moves[3]: …``)."""
        if isinstance(moves, dict) and "moves" in moves:  # a floe.Solution
            moves = moves["moves"]
        if isinstance(moves, (str, bytes, dict)) or not hasattr(moves, "__iter__"):
            raise TypeError(f"moves: a list of moves, not {type(moves).__name__} {_shown(moves)}")
        s = self
        for i, m in enumerate(moves):
            try:
                s = State(s._played(m, f"moves[{i}]", "the move"), self._level)
            except ValueError as e:
                err = type(e)(f"moves[{i}]: {e}")
                err.__dict__.update(e.__dict__)
                raise err from None
        return s

    def solved(self) -> bool:
        """Whether the position solves the level."""
        return self._native.solved()

    @property
    def moves_played(self) -> List[Any]:
        """The moves played from the start to reach this state, in order."""
        played: List[Any] = json.loads(self._native.played_json())
        return played

    @property
    def depth(self) -> int:
        """How many moves were played from the start."""
        return self._native.played_count()

    @property
    def key(self) -> str:
        """The game's key of the position: two states of a level with the same key are the
        same position for the rules (in PushPush, where the robot stands within the region
        it can walk does not count)."""
        return self._native.key()

    def text(self) -> str:
        """The position in the game's notation (as :meth:`Solution.boards` gives them)."""
        return self._native.text()

    def to_array(self) -> np.ndarray:
        """The position as a ``(rows, cols)`` array of ``uint16`` cell codes, the shape of
        the level's picture (:attr:`Level.shape`). Each code is ``32 * piece + ground``:

        - ground (``code % 32``): 0 blank, 1 ice (also PushPush's and Ice Tower's floor), 2
          floor (normal floor, the ice path), 3 wall, 4 target, 5 fire, 6 recycler, 7–10 an
          arrow up, right, down, left, 11 dispenser, 12 table (BoxOff), 13 hole (Pretzel),
          14 a priest's start (Fujisan), 16 + v a mountain space of value v (Fujisan);
        - piece (``code // 32``): 0 none, 1 block, 2 golden ice, 3 player (PushPush's
          robot), 4 magician, 5 priest, 5 + c a BoxOff token of colour c (1–9), 16 + 13 ×
          suit + rank − 1 a Pretzel card (suit 0-based, rank 1 = ace).

        :data:`floe.GROUNDS` and :data:`floe.PIECES` name the codes."""
        rows, cols, buf = self._native.cells()
        return array(buf, "<u2", (rows, cols))

    @keywords
    def svg(self, *, coords: bool = False, cell: Optional[int] = None) -> SVG:
        """The position as an SVG picture (``coords``: row and column numbers; ``cell``: the
        cell size in pixels, 4 to 200)."""
        return SVG(self._native.svg(switch("coords", coords), cell_size(cell)))

    def render(self, *, coords: bool = False, cell: Optional[int] = None) -> SVG:
        """:meth:`svg`."""
        return self.svg(coords=coords, cell=cell)

    def _repr_svg_(self) -> str:
        return self._native.svg(False, 0)

    def __str__(self) -> str:
        return self.text()

    def __repr__(self) -> str:
        n = self.depth
        solved = ", solved" if self.solved() else ""
        return f"<floe.State of {self._level.game} level {self._level.name!r} after {n} move{'s' * (n != 1)}{solved}>"

    def _key(self) -> Tuple[Key, str]:
        return (level_key(self._level), self.key)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, State):
            return NotImplemented
        if self is other:
            return True
        return self.key == other.key and (self._level is other._level or self._key() == other._key())

    def __hash__(self) -> int:
        if self._hash is None:
            self._hash = hash(self._key())
        return self._hash

    def __reduce__(self) -> Any:
        return (rebuilt_state, (self._level, json.dumps(self.moves_played)))


def start_of(level: Level) -> State:
    """The start of ``level`` as a :class:`State`."""
    return State(_floe.start(level._native), level)


def rebuilt_state(level: Level, moves: str) -> State:
    """A state replayed from its level's start (the other half of ``State.__reduce__``)."""
    s = start_of(level)
    return s if moves == "[]" else State(s._native.play(moves, "the moves"), level)
