"""Levels of every game, and what the game face does with them: solve, space, analyze,
verify, bench-solvers, pictures."""

from __future__ import annotations

import json
import os
from typing import TYPE_CHECKING, Any, Dict, List, Optional, Tuple, Union

import numpy as np

from . import _floe
from ._checks import Pick, U32, cell_size, keywords, ranged, path_or_none, pick_types, switch, texts, whole, whole_or_none, word, word_or_none
from ._common import (
    SVG,
    report,
    Duration,
    Limits,
    Memory,
    Params,
    Progress,
    reporting,
    array,
    limit_texts,
    limits,
    loads,
    param_list,
    source_of,
)
from ._graph import Graph, graph_of
from ._state import State, start_of
from ._travel import Kept, level_key, level_state, solution_state

if TYPE_CHECKING:  # pragma: no cover
    from typing_extensions import Unpack

#: A level file's path (``str`` or ``os.PathLike``) or its text (a ``str`` holding a line
#: break), or a :class:`floe.Level`.
Source = Union[str, "os.PathLike[str]", "Level"]

#: BasicMC's random games per candidate move and step by default (Kluiver's setting).
KLUIVER_PLAYOUTS = 250_000

#: What a random game's cap counts.
COUNTS = ("pushes", "attempts")


class Level:
    """A level of any game, named, with its parameters applied.

    Made by :func:`floe.load`, :func:`floe.levels`, the census (its hardest boards) and the
    generators; drawn inline in Jupyter. ``str(level)`` is the level alone as a file of its
    game, which :func:`floe.load` reads back. Levels are equal (and hash alike) when their
    game, name, text and parameters are; a level pickles (to another process, to disk) as
    its text, game, name, parameters, file and index.
    """

    __slots__ = ("_native",)

    def __init__(self, native: "_floe.Level") -> None:
        self._native = native

    @property
    def name(self) -> str:
        """The file's title for it, else ``level N`` in a file of several, else the file's
        name without its extension."""
        return self._native.name

    @property
    def title(self) -> Optional[str]:
        """Its title in the file, if it has one."""
        return self._native.title

    @property
    def game(self) -> str:
        """Its game's name (``ice``, ``pushpush``, ``icetower``, ``boxoff``, ``pretzel``,
        ``fujisan``, …; :func:`floe.games` lists them)."""
        return self._native.game

    @property
    def file(self) -> str:
        """The file it came from (``<text>`` for a text, ``empty board`` for a board given by
        its size)."""
        return self._native.file

    @property
    def index(self) -> int:
        """Its 0-based index in the file."""
        return self._native.index

    @property
    def params(self) -> Dict[str, Any]:
        """The parameters in force (``{"rules": "free"}``, ``{"k": 1}``, …)."""
        return report(self._native.params_json())

    @property
    def shape(self) -> "tuple[int, int]":
        """``(rows, cols)`` of the board."""
        return self._native.size()

    @property
    def description(self) -> str:
        """The level in a few words (size, pieces, parameters)."""
        return self._native.describe()

    def info(self) -> Dict[str, Any]:
        """Its entry of ``floe levels --json``: index (1-based), name, title, game, rows,
        cols, description, params."""
        return report(self._native.info_json())

    @keywords
    def text(self, format: Optional[str] = None) -> str:
        """The level alone as a file of its game (``format``: one of the game's formats,
        e.g. ``kluiver`` for ice blocks; default its first)."""
        return self._native.to_text(format)

    @keywords
    def configure(
        self,
        *,
        rules: Optional[str] = None,
        k: Optional[Union[int, str]] = None,
        dynamic: bool = False,
        params: Params = None,
        **game_params: Any,
    ) -> "Level":
        """The same level with other parameters (checked against the game's): ``rules``,
        ``k``, ``dynamic``, any other game parameter of the registry by its name, or
        ``params``."""
        named = dict(game_params, rules=rules, k=k, dynamic=dynamic)
        pick_types(named)
        return Level(self._native.configure(param_list(named, params)))

    @keywords
    def svg(self, *, coords: bool = False, cell: Optional[int] = None) -> SVG:
        """The start as an SVG picture (``floe render``): ``coords`` draws row and column
        numbers, ``cell`` is the cell size in pixels (4 to 200; default from the size)."""
        return SVG(self._native.svg(switch("coords", coords), cell_size(cell)))

    def _repr_svg_(self) -> str:
        return self._native.svg(False, 0)

    def __str__(self) -> str:
        return self.text()

    def __repr__(self) -> str:
        return repr(self._native)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Level):
            return NotImplemented
        return level_key(self) == level_key(other)

    def __hash__(self) -> int:
        return hash(level_key(self))

    def __reduce__(self) -> Any:
        return (rebuilt_level, level_state(self))

    def start(self) -> "State":
        """Its start, to play one move at a time: a :class:`floe.State` (refused with
        :class:`floe.InvalidInput` when its rules cannot be played with its parameters)."""
        return start_of(self)

    # What the game face does, with the keywords of the module's functions.

    def solve(self, **options: Any) -> "Solution":
        """:func:`floe.solve` on this level."""
        return solve(self, **options)

    def space(self, **options: Any) -> "Space":
        """:func:`floe.space` on this level."""
        return space(self, **options)

    def analyze(self, **options: Any) -> Dict[str, Any]:
        """:func:`floe.analyze` on this level."""
        return analyze(self, **options)

    @keywords
    def verify(self, moves: Any, *, factor: Optional[int] = None) -> Dict[str, Any]:
        """:func:`floe.verify` on this level."""
        return verify(self, moves, factor=factor)

    @keywords
    def reach(
        self,
        *,
        max_states: Optional[int] = None,
        timeout: Optional[Duration] = None,
        max_memory: Optional[Memory] = None,
        force: bool = False,
    ) -> np.ndarray:
        """:func:`floe.reach` on this level (ice blocks)."""
        return _reach(self, limits(max_states, timeout, max_memory, force))[1]

    def bench_solvers(self, **options: Any) -> Dict[str, Any]:
        """:func:`floe.bench_solvers` on this level."""
        return bench_solvers(self, **options)

    @keywords
    def graph(
        self,
        *,
        positions: bool = True,
        moves: bool = False,
        max_states: Optional[int] = None,
        timeout: Optional[Duration] = None,
        max_memory: Optional[Memory] = None,
        force: bool = False,
        progress: Progress = None,
    ) -> Graph:
        """:func:`floe.graph` on this level: its state graph as arrays."""
        return graph_of(self._native, positions, moves, max_states, timeout, max_memory, force, progress)


def _json_number(v: Any) -> Any:
    """NumPy's numbers in a move list as JSON numbers."""
    if isinstance(v, np.integer):
        return int(v)
    if isinstance(v, np.floating):
        return float(v)
    raise TypeError(f"moves: {type(v).__name__} {v!r} is not a move's value")


def _reach(level: Level, lim: Limits) -> Tuple[Dict[str, Any], np.ndarray]:
    """The reach table of a level: its report and the table as a 2-D array."""
    doc, buf, rows, cols = _floe.reach(level._native, lim)
    return report(doc), array(buf, "<f8", (rows, cols))


def _level(src: Source, **pick: Unpack[Pick]) -> Level:
    """The level a call names (as the command line's ``FILE -l LEVEL --game G …``)."""
    pick_types(pick)
    level, game, format = pick.get("level"), pick.get("game"), pick.get("format")
    plist = param_list(pick, pick.get("params"))
    if isinstance(src, Level):
        if level is not None or game is not None or format is not None:
            raise TypeError("level, game and format pick a level of a file; this is a Level")
        return Level(src._native.configure(plist)) if plist else src
    path, text = source_of(src)
    sel = None if level is None else str(level)
    return Level(_floe.resolve((path, text, pick.get("name"), game, format, plist), sel))


def _board(
    src: Optional[Source],
    rows: Optional[int],
    cols: Optional[int],
    blocks: Optional[int],
    **pick: Unpack[Pick],
) -> Level:
    """A level, or an empty ice board given by its size (``--rows R --cols C --blocks K``)."""
    if src is not None:
        if rows is not None or cols is not None or blocks is not None:
            raise TypeError("give a level, or rows, cols and blocks for an empty board; not both")
        return _level(src, **pick)
    if rows is None or cols is None or blocks is None:
        raise TypeError("give a level, or rows, cols and blocks for an empty board")
    pick_types(pick)
    if any(pick.get(x) is not None for x in ("level", "game", "format", "name")):
        raise TypeError("rows, cols and blocks make an empty ice block board: no level, game or format")
    plist = param_list(pick, pick.get("params"))
    return Level(_floe.empty_board(whole("rows", rows, 1), whole("cols", cols, 1), whole("blocks", blocks), plist))


@keywords
def load(
    source: Source,
    *,
    level: Optional[Union[int, str]] = None,
    game: Optional[str] = None,
    format: Optional[str] = None,
    rules: Optional[str] = None,
    k: Optional[Union[int, str]] = None,
    dynamic: bool = False,
    params: Params = None,
    name: Optional[str] = None,
    **game_params: Any,
) -> Level:
    """One level of a file, any game.

    Args:
        source: a path, or a level file's text (a ``str`` with a line break).
        level: which level: a 1-based number or a title; without it, the file's only level.
        game: the game or its spec (``"pushpush(k=2)"``); default: the file's ``Game:``
            line, else ice blocks.
        format: the file format, when it must not be detected (ice blocks: ``floe`` or
            ``kluiver``).
        rules, k, dynamic, params: the game's parameters (ice blocks' walking rule, the
            PushPush ``k``, Ice Tower's ``dynamic``, any other as ``{"name": value}``); any
            game parameter of the registry is also taken by its name (``**game_params``).
        name: the text's name in messages (default ``<text>``).

    Raises:
        floe.ParseError: the file does not parse (``file``, ``line``, ``col``).
        floe.InvalidInput: no such level, a parameter the game does not have, …
        OSError: the file cannot be read (``FileNotFoundError`` when it is missing).
    """
    return _level(
        source,
        level=level,
        game=game,
        format=format,
        rules=rules,
        k=k,
        dynamic=dynamic,
        params=params,
        name=name,
        **game_params,
    )


@keywords
def levels(
    source: Source,
    *,
    game: Optional[str] = None,
    format: Optional[str] = None,
    rules: Optional[str] = None,
    k: Optional[Union[int, str]] = None,
    dynamic: bool = False,
    params: Params = None,
    name: Optional[str] = None,
    **game_params: Any,
) -> List[Level]:
    """Every level of a file (``floe levels``), read at once: one error for the whole file
    if any level does not parse. Keywords as in :func:`load`."""
    named = dict(game_params, rules=rules, k=k, dynamic=dynamic)
    pick_types(dict(named, game=game, format=format, name=name))
    path, text = source_of(source)
    _, found = _floe.read((path, text, name, game, format, param_list(named, params)))
    return [Level(n) for n in found]


class Solution(dict):  # type: ignore[type-arg]
    """A solve's report: a ``dict`` with exactly the keys of ``floe solve --json`` (``game``,
    ``level``, ``params``, ``algorithm``, ``solved``, ``status``, ``limit``, ``moves``,
    ``length``, ``pushes``, ``difficulty``, ``lower_bound``, ``states``, ``expanded``,
    ``depth``, ``seconds``, ``details``), which also draws itself in Jupyter (the start with
    each move as a numbered arrow) and keeps the replayed solution for pictures and boards.
    It pickles as itself (to another process, to disk): the same dict, level, boards and
    pictures.
    """

    __slots__ = ("_native", "level")

    def __init__(self, native: "Union[_floe.Solved, Kept]", level: Level) -> None:
        super().__init__(report(native.json()))
        self._native = native
        #: The level that was solved.
        self.level = level

    def boards(self) -> List[str]:
        """The start and the position after each move, in the game's notation (the
        command line's ``--boards``; empty unless solved)."""
        return self._native.boards()

    def steps(self) -> List[str]:
        """One line per move, as the replay saw it."""
        return self._native.steps()

    def note(self) -> Optional[str]:
        """A sentence about the outcome, when there is one (why the start is dead, why a
        random run stopped)."""
        return self._native.note()

    @keywords
    def svg(self, kind: str = "arrows", *, coords: bool = False, cell: Optional[int] = None) -> Optional[SVG]:
        """The solution as a picture: ``arrows`` (the start with numbered arrows),
        ``frames`` (a board per move) or ``animate`` (SMIL, plays in a browser); ``None``
        unless solved."""
        s = self._native.svg(kind, coords, cell_size(cell))
        return None if s is None else SVG(s)

    def _repr_svg_(self) -> Optional[str]:
        return self._native.svg("arrows", False, 0)

    def to_json(self) -> str:
        """The report as the command line prints it."""
        return self._native.json()

    def __reduce__(self) -> Any:
        return (rebuilt_solution, solution_state(self))


@keywords
def solve(
    level: Source,
    /,
    *,
    algo: Optional[str] = None,
    factor: Optional[int] = None,
    max_moves: Optional[int] = None,
    playouts: int = KLUIVER_PLAYOUTS,
    seed: int = 1,
    count: str = "pushes",
    max_states: Optional[int] = None,
    timeout: Optional[Duration] = None,
    max_memory: Optional[Memory] = None,
    svg: "Optional[Union[str, os.PathLike[str]]]" = None,
    frames: bool = False,
    animate: bool = False,
    coords: bool = False,
    progress: Progress = None,
    **pick: Unpack[Pick],
) -> Solution:
    """Solves a level of any game (``floe solve``), the solution replayed by the game's rules.

    Args:
        level: a path, a level file's text, or a :class:`Level`; ``level=``, ``game=``,
            ``format=``, ``rules=``, ``k=``, ``dynamic=``, ``params=`` pick and configure it
            as in :func:`load`.
        algo: the game's exact searches (``bfs``, ``astar``, ``idastar``; ice blocks also
            ``difficulty``; BoxOff ``dfs``) or the randomised ``random`` and ``mc``; default
            the game's fastest exact search.
        factor: ice blocks: the block-change factor of the difficulty (default 5).
        max_moves, playouts, seed, count: the randomised solvers' move cap, BasicMC's games
            per move, the seed, and what the cap counts (``pushes`` or ``attempts``). With
            ``algo="astar"``, ``max_moves`` is the longest solution looked for: when there is
            none, the result is the proof that more are needed (``limit == "max-moves"``,
            ``lower_bound`` above the cap).
        max_states, timeout, max_memory: limits (``timeout=30``, ``"500ms"``;
            ``max_memory="8G"``; default budget: three quarters of the memory available).
        progress: ``True`` for a bar on standard error, or a callable ``(done, total)``
            told the positions stored so far (``total`` is ``None``), a few times a second.
        svg: write the solution's picture there (``frames``: a board per move;
            ``animate``: an animation; ``coords``: row and column numbers).

    Returns:
        a :class:`Solution`: a dict with exactly the keys of ``floe solve --json``. A limit
        is not an error: ``status`` is ``limit`` and ``limit`` says which.
    """
    lv = _level(level, **pick)
    frames, animate, coords = switch("frames", frames), switch("animate", animate), switch("coords", coords)
    svg = path_or_none("svg", svg)
    if frames and animate:
        raise TypeError("frames and animate are two kinds of picture: give one")
    if (frames or animate or coords) and svg is None:
        raise TypeError("frames, animate and coords draw the picture of svg=PATH")
    options = texts(
        ("algo", word_or_none("algo", algo)),
        ("factor", whole_or_none("factor", factor)),
        ("seed", whole("seed", seed)),
        ("max_moves", whole_or_none("max_moves", max_moves, 0, U32)),
        ("playouts", whole("playouts", playouts, 0, U32)),
        ("count", word("count", count, COUNTS)),
        *limit_texts(max_states, timeout, max_memory),
    )
    with reporting(progress, "solve: positions") as report_to:
        native = _floe.solve(lv._native, options, report_to)
    if svg is not None:
        kind = "frames" if frames else "animate" if animate else "arrows"
        native.write_svg(svg, kind, coords, 0)
    return Solution(native, lv)


class Space(dict):  # type: ignore[type-arg]
    """Every position reachable from a level's start: a ``dict`` with exactly the keys of
    ``floe space --json`` (``histogram`` is the JSON's list, as it always was), which also
    gives the histogram as a NumPy array, :attr:`by_moves`, as the census gives its counts.
    """

    __slots__ = ()

    @property
    def by_moves(self) -> np.ndarray:
        """``by_moves[m]``: positions first reached after ``m`` moves (the ``histogram``
        list as an ``int64`` array, made when asked for)."""
        return np.asarray(self["histogram"], dtype=np.int64)


@keywords
def space(
    level: Optional[Source] = None,
    /,
    *,
    rows: Optional[int] = None,
    cols: Optional[int] = None,
    blocks: Optional[int] = None,
    max_states: Optional[int] = None,
    timeout: Optional[Duration] = None,
    max_memory: Optional[Memory] = None,
    force: bool = False,
    progress: Progress = None,
    **pick: Unpack[Pick],
) -> Space:
    """Every position reachable from a level's start (``floe space``), any game, or an
    empty ice board given by ``rows``, ``cols`` and ``blocks``.

    Returns a :class:`Space`, the dict of ``floe space --json``: ``states``, ``depth``,
    ``histogram`` (positions per number of moves from the start, a list; ``.by_moves`` is
    the same as an ``int64`` array), ``complete``, ``limit``, … A run whose estimate does
    not fit the memory budget is refused (:class:`floe.InvalidInput`) unless ``force`` or a
    ``timeout`` or ``max_states`` bounds it. ``progress`` (``True``, or a callable
    ``(done, total)``) hears the positions stored so far.
    """
    lv = _board(level, rows, cols, blocks, **pick)
    options = limit_texts(max_states, timeout, max_memory, force)
    with reporting(progress, "space: positions") as report_to:
        return Space(report(_floe.operation("space", lv._native, options, report_to)))


@keywords
def analyze(
    level: Optional[Source] = None,
    /,
    *,
    rows: Optional[int] = None,
    cols: Optional[int] = None,
    blocks: Optional[int] = None,
    max_states: Optional[int] = None,
    timeout: Optional[Duration] = None,
    max_memory: Optional[Memory] = None,
    progress: Progress = None,
    **pick: Unpack[Pick],
) -> Dict[str, Any]:
    """Reversibility and dead ends of the whole state graph (``floe analyze``): the dict of
    ``floe analyze --json``; ``progress`` as :func:`space`'s."""
    lv = _board(level, rows, cols, blocks, **pick)
    options = limit_texts(max_states, timeout, max_memory)
    with reporting(progress, "analyze: positions") as report_to:
        return report(_floe.operation("analyze", lv._native, options, report_to))


@keywords
def verify(
    level: Source,
    moves: Any,
    /,
    *,
    factor: Optional[int] = None,
    **pick: Unpack[Pick],
) -> Dict[str, Any]:
    """Replays a move list on the game's rules (``floe verify``).

    ``moves`` is a list of the game's moves as JSON values (``{"row", "col", "dir"}`` for a
    push), a :class:`Solution` or a ``floe solve --json`` dict, JSON text, or the game's
    text form with one move per line. Returns the dict of ``floe verify --json``; an illegal
    move is not an exception but ``error`` (``{"move", "index", "reason"}``).
    """
    lv = _level(level, **pick)
    if isinstance(moves, str):
        text = moves
    elif isinstance(moves, (list, tuple, dict)):
        text = json.dumps(moves, default=_json_number)
    else:
        raise TypeError(
            f"moves: a list of moves, a Solution or a solve report, or a text, not {type(moves).__name__}"
        )
    options = texts(("moves", text), ("factor", whole_or_none("factor", factor)))
    return report(_floe.operation("verify", lv._native, options))


@keywords
def bench_solvers(
    level: Source,
    /,
    *,
    algo: str = "mc",
    runs: int = 100,
    seed: int = 1,
    max_moves: Optional[int] = None,
    playouts: int = KLUIVER_PLAYOUTS,
    count: str = "pushes",
    factor: Optional[int] = None,
    max_states: Optional[int] = None,
    timeout: Optional[Duration] = None,
    max_memory: Optional[Memory] = None,
    progress: Progress = None,
    **pick: Unpack[Pick],
) -> Dict[str, Any]:
    """A randomised solver (``random`` or ``mc``) run ``runs`` times (seeds ``seed``,
    ``seed + 1``, …) against the optimum (``floe bench-solvers``): its ``--json`` dict.
    ``progress`` (``True``, or a callable ``(done, total)``) hears the runs done of ``runs``."""
    lv = _level(level, **pick)
    with reporting(progress, "bench-solvers: runs") as report_to:
        return _bench(lv, algo, runs, seed, max_moves, playouts, count, factor, limits(max_states, timeout, max_memory, progress=report_to))


def _bench(lv: Level, algo: str, runs: int, seed: int, max_moves: Optional[int], playouts: int, count: str, factor: Optional[int], lim: Limits) -> Dict[str, Any]:
    max_states, timeout, max_memory, _, report_to = lim
    options = texts(
        ("algo", word("algo", algo)),
        ("runs", ranged("bench_solvers.runs", runs)),
        ("seed", whole("seed", seed)),
        ("max_moves", whole_or_none("max_moves", max_moves, 0, U32)),
        ("playouts", whole("playouts", playouts, 0, U32)),
        ("count", word("count", count, COUNTS)),
        ("factor", whole_or_none("factor", factor)),
        *limit_texts(max_states, timeout, max_memory),
    )
    return report(_floe.operation("bench-solvers", lv._native, options, report_to))


@keywords
def render(
    level: Source,
    /,
    *,
    coords: bool = False,
    cell: Optional[int] = None,
    **pick: Unpack[Pick],
) -> SVG:
    """A level of any game as an SVG picture (``floe render``)."""
    return _level(level, **pick).svg(coords=coords, cell=cell)


def games() -> List[Dict[str, Any]]:
    """The games floe knows (``floe games --json``), a dict each: ``name``, ``aliases``,
    ``title``, ``about``, ``rules`` (the goal and the moves in one or two sentences,
    ``"Goal: …"``), ``params``, ``formats``, ``move_word``, ``algorithms``, ``random_moves``,
    ``capabilities``, ``cells`` (the symbols a board is written with) and ``sample`` (a small
    level of the game, ``{"text", "fewest"}``: its text and the fewest moves that solve it)."""
    games: List[Dict[str, Any]] = loads(_floe.games_json())
    return games


def rebuilt_level(
    text: str, game: str, name: str, params: Dict[str, Any], file: str, index: int, empty: bool
) -> "Level":
    """A level read back from its text, with its game and parameters, under its name, file
    and index (the other half of ``Level.__reduce__``)."""
    native = _floe.resolve((None, text, file, game, None, []), None)
    # the text carries some parameters (ice blocks' Rules: line), not all (PushPush's k):
    # those it does not are set again, and only those, so that the text stays as it was
    read = json.loads(native.params_json())
    differ = {k: v for k, v in params.items() if v is not None and read.get(k) != v}
    if differ:
        native = native.configure(param_list({}, differ))
    return Level(_floe.placed(native, name, index, empty))


def rebuilt_solution(
    level: "Level",
    items: Dict[str, Any],
    doc: str,
    boards: List[str],
    steps: List[str],
    note: Optional[str],
) -> "Solution":
    """A solution as it was before it travelled (the other half of
    ``Solution.__reduce__``): the same dict, level, boards, steps, note and pictures."""
    s = Solution(Kept(level, doc, boards, steps, note), level)
    s.clear()
    s.update(items)
    return s


@keywords
def start(level: Source, /, **pick: Unpack[Pick]) -> State:
    """The start of a level (a path, a level file's text, or a :class:`Level`; picked and
    configured with ``level=``, ``game=``, ``rules=``, … as :func:`floe.load` does), to play
    one move at a time: :meth:`Level.start`."""
    return start_of(_level(level, **pick))
