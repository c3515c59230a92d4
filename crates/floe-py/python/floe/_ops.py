"""The library's operations by name (:func:`run`, :func:`operations`) and the first of them,
the state graph of a level (:func:`graph`, :class:`Graph`, in ``_graph``).

An operation's keywords are read by the library's own request, the one the command line
(``floe graph``) and the web server (``/api/graph``) read: the same defaults, ranges and
messages. Its answer is the dict of the command's ``--json``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Dict, Optional, Union

from . import _floe
from ._checks import PICK, Pick, keywords, ranged
from ._common import Duration, Memory, Progress, limits
from ._graph import Graph, graph_of, run_native
from ._level import Level, Source, _level
from ._state import State

if TYPE_CHECKING:  # pragma: no cover
    from typing_extensions import Unpack

#: What the package exports of this file (``floe.graph``, …): a typed wrapper of a new
#: operation is its function below and its name here.
__all__ = ["run", "operations", "graph", "explain"]


def operations() -> Dict[str, Dict[str, Any]]:
    """The library's operations that :func:`run` takes by name: name → ``about`` (what it
    does) and ``keywords`` (what it takes besides the level's)."""
    return {name: {"about": about, "keywords": list(kws)} for name, about, kws in _floe.operations()}


def run(operation: str, level: Source, /, **options: Any) -> Dict[str, Any]:
    """Runs the library's operation ``operation`` (see :func:`operations`) on a level: the
    level's keywords (``level``, ``game``, ``rules``, …) pick it, the others are the
    operation's. Returns the dict of ``floe <operation> --json``. ``progress`` (``True`` or a
    callable) hears the positions stored, as :func:`floe.space`'s.

    >>> import floe
    >>> floe.run("graph", "$---\\n---.\\n", positions=False)["nearest_solved"]
    2
    """
    if not isinstance(operation, str):
        raise TypeError(f"operation: a name such as 'graph', not {type(operation).__name__}")
    pick = {k: options.pop(k) for k in PICK if k in options}
    progress = options.pop("progress", None)
    return run_native(operation, _level(level, **pick)._native, options, progress)


@keywords
def graph(
    level: Source,
    /,
    *,
    positions: bool = True,
    moves: bool = False,
    max_states: Optional[int] = None,
    timeout: Optional[Duration] = None,
    max_memory: Optional[Memory] = None,
    force: bool = False,
    progress: Progress = None,
    **pick: Unpack[Pick],
) -> Graph:
    """The whole state graph of a level of any game (``floe graph``) as a :class:`Graph` of
    NumPy arrays: each position's distance from the start, whether it is solved or can still
    be, the moves between positions, and each position's text (``positions=False`` leaves the
    texts out; ``moves=True`` keeps each edge's move).

    The graph is built whole or not at all: a limit (``max_states``, ``timeout``,
    ``max_memory``, by default three quarters of the memory available; the position texts
    are judged against it before they are made) that stops it gives a graph with
    ``complete`` False, ``limit`` saying which, ``depth`` None and empty arrays. (It is not refused
    before it starts: the games bound their positions by ranks, often a thousand times more
    than are reachable, and a graph's memory follows the positions reached.) ``progress``
    (``True`` or a callable) hears the positions stored, as :func:`floe.space`'s.

    >>> import floe
    >>> g = floe.graph("$---\\n---.\\n")
    >>> g.nearest_solved, g.positions[0]
    (2, 'Game: ice(rules=free)\\n$---\\n---.\\n')
    """
    lv = level if isinstance(level, Level) and not pick else _level(level, **pick)
    return graph_of(lv._native, positions, moves, max_states, timeout, max_memory, force, progress)


@keywords
def explain(
    position: Union[Source, State],
    /,
    *,
    moves: Any = None,
    subsets: int = 10_000,
    max_states: Optional[int] = None,
    timeout: Optional[Duration] = None,
    max_memory: Optional[Memory] = None,
    force: bool = False,
    progress: Progress = None,
    **pick: Unpack[Pick],
) -> Dict[str, Any]:
    """Why a position is lost (``floe explain``): a :class:`State` (the moves it was played
    with), or a level with ``moves`` played from its start (a list of moves as
    :meth:`State.moves` gives them or as the game's texts, a :class:`Solution`, JSON text or
    one move per line; none: the start itself).

    Returns the dict of ``floe explain --json``: ``standing`` (``"solved"``, ``"solvable"``
    with ``to_go``, ``"lost"`` or ``"unknown"`` with ``limit``); when lost, ``lost_at`` (the
    move that lost it: ``index`` from 1, ``played``, and ``undo``, the moves to take back to
    save it; ``None`` when ``lost_from_start``, or when a limit kept it hidden: ``limit`` then
    names it) and ``core``, the dead core: the fewest
    pieces (``kind``: blocks, targets, fires or rocks; ``cells``) that cannot be solved on
    their own, every smaller set of them solved alone by the exact solver (``smallest``
    False when ``subsets``, the most sets tried alone, or a limit stopped that proof first);
    ``sentence`` says it in words. The limits bound each solve, the ``timeout`` the whole.

    >>> import floe
    >>> e = floe.explain("$--.\\n.---\\n")
    >>> e["standing"], e["core"]["kind"], [(c["row"], c["col"]) for c in e["core"]["cells"]]
    ('lost', 'targets', [(0, 3), (1, 0)])
    >>> e["sentence"]
    'These two targets cannot all get blocks. The level cannot be solved from its start.'
    """
    if isinstance(position, State):
        if moves is not None or pick:
            given = ", ".join(["moves"] * (moves is not None) + list(pick))
            raise TypeError(f"explain(): a State brings its level and the moves played; {given} is for a level")
        lv, moves = position.level, position.moves_played
    else:
        lv = position if isinstance(position, Level) and not pick else _level(position, **pick)
    if moves is not None and not isinstance(moves, (str, list, tuple, dict)):
        raise TypeError(f"moves: a list of moves, a Solution or a solve report, or a text, not {type(moves).__name__}")
    if isinstance(moves, (list, tuple)) and moves and all(isinstance(m, str) for m in moves):
        moves = "\n".join(moves)  # each move in the game's words, as State.play takes it
    max_states, timeout, max_memory, force, _ = limits(max_states, timeout, max_memory, force)
    options = {
        "moves": moves["moves"] if isinstance(moves, dict) and "moves" in moves else moves,
        "subsets": ranged("explain.subsets", subsets),
        "max_states": max_states,
        "timeout": timeout,
        "max_memory": max_memory,
        "force": force or None,
    }
    return run_native("explain", lv._native, options, progress)
