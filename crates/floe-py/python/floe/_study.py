"""The studies of one game each: the PushPush census and the solitaire experiments."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Dict, Iterable, List, Optional, Tuple, Union

import numpy as np

from . import _floe
from ._checks import Sheet, keywords, ranged, ranged_or_none, switch, texts, whole, whole_or_none, word
from ._common import (
    SVG,
    Duration,
    Memory,
    Progress,
    array,
    columns,
    limits,
    loads,
    ranks_of,
    report,
    reporting,
    same_arrays,
    same_rows,
)
from ._level import Level

if TYPE_CHECKING:  # pragma: no cover
    from typing_extensions import Unpack

#: The width of the census's difficulty bins over [0, 5] (the last bin includes 5).
DIFFICULTY_BIN = 0.1


class _Drawn:
    """A report whose figures travel drawn when it is pickled: what draws them is native and
    stays in this process."""

    def __getstate__(self) -> Dict[str, Any]:
        state = dict(self.__dict__)
        state["_drawn"], state["_figures"] = getattr(self, "figures"), None
        return state

    def __setstate__(self, state: Dict[str, Any]) -> None:
        self.__dict__.update(state)


class Census(_Drawn):
    """Every PushPush board of one size, classified by its fewest pushes (van der Velden's
    census, exact). The counts are NumPy ``int64`` arrays; the hardest boards are levels;
    the figures are the thesis's (Figures 11 and 13–15). Draws Figure 14 (boards by fewest
    pushes and blocks) in Jupyter. Pickles (its figures drawn) and compares: equal when the
    reports, the tables and the hardest boards are.
    """

    #: The tables, compared by :meth:`__eq__`.
    TABLES = (
        "by_pushes",
        "by_blocks",
        "solvable_by_blocks",
        "unsolvable_by_blocks",
        "difficulty_by_pushes",
        "difficulty_by_blocks",
    )

    def __init__(
        self,
        doc: str,
        arrays: List[Tuple[str, bytearray, List[int]]],
        hardest: List["_floe.Level"],
        figures: "_floe.Figures",
    ) -> None:
        #: The dict of ``floe census pushpush --json``.
        self.report: Dict[str, Any] = report(doc)
        a = {name: array(buf, "<i8", shape) for name, buf, shape in arrays}
        #: Boards per fewest pushes (index = pushes).
        self.by_pushes: np.ndarray = a["by_pushes"]
        #: ``by_blocks[b, p]``: solvable boards with ``b`` blocks that need ``p`` pushes.
        self.by_blocks: np.ndarray = a["by_blocks_pushes"]
        #: Solvable boards per number of blocks.
        self.solvable_by_blocks: np.ndarray = a["solvable_by_blocks"]
        #: Unsolvable boards per number of blocks.
        self.unsolvable_by_blocks: np.ndarray = a["unsolvable_by_blocks"]
        #: With ``difficulty``: ``[pushes, bin]`` boards per fewest pushes and difficulty
        #: bin (bins of :data:`DIFFICULTY_BIN` over [0, 5]; row 0 stays empty).
        self.difficulty_by_pushes: Optional[np.ndarray] = a.get("difficulty_by_pushes")
        #: With ``difficulty``: ``[blocks, bin]`` solvable boards per number of blocks and bin.
        self.difficulty_by_blocks: Optional[np.ndarray] = a.get("difficulty_by_blocks")
        #: Representatives of the hardest classes, each a PushPush level.
        self.hardest: List[Level] = [Level(n) for n in hardest]
        self._figures: Optional[_floe.Figures] = figures
        self._drawn: Optional[Dict[str, SVG]] = None

    @property
    def figures(self) -> Dict[str, SVG]:
        """The thesis's figures by name (``blocks``: Figure 11, ``pushes``,
        ``pushes-by-blocks``: Figure 14, and with ``difficulty`` ``difficulty-by-pushes`` and
        ``difficulty-by-blocks``: Figures 13 and 15), drawn when first asked for."""
        if self._drawn is None:
            drawn = self._figures.draw() if self._figures is not None else []
            self._drawn = {(s.lstrip("-") or "blocks"): SVG(svg) for s, svg in drawn}
        return self._drawn

    @property
    def boards(self) -> int:
        """Every board of the size."""
        return int(self.report["boards"])

    @property
    def unsolvable(self) -> int:
        """Boards with no solution."""
        return int(self.report["unsolvable"])

    @property
    def difficulty_bins(self) -> np.ndarray:
        """The left edges of the difficulty bins."""
        return np.arange(50) * DIFFICULTY_BIN

    def frame(self) -> Any:
        """Boards per number of blocks and fewest pushes, one row per number of blocks with
        the unsolvable boards last (a DataFrame with pandas)."""
        rows = []
        for b, row in enumerate(self.by_blocks):
            r: Dict[str, Any] = {"blocks": b}
            r.update({str(p): int(n) for p, n in enumerate(row)})
            r["unsolvable"] = int(self.unsolvable_by_blocks[b])
            rows.append(r)
        return columns([(k, [r[k] for r in rows]) for k in (rows[0] if rows else {})])

    def _repr_svg_(self) -> Optional[str]:
        return self.figures.get("pushes-by-blocks")

    def __repr__(self) -> str:
        r = self.report
        return (
            f"<floe.Census {r['rows']}x{r['cols']} {r['variant']}: {r['boards']:,} boards, "
            f"{r['unsolvable']:,} unsolvable, hardest {r['hardest']['pushes']} pushes>"
        )

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Census):
            return NotImplemented
        return (
            self.report == other.report
            and self.hardest == other.hardest
            and all(same_arrays(getattr(self, t), getattr(other, t)) for t in self.TABLES)
        )


@keywords
def census(
    rows: int,
    cols: int,
    *,
    k: int = 1,
    difficulty: bool = False,
    hardest: int = 10,
    max_states: Optional[int] = None,
    timeout: Optional[Duration] = None,
    max_memory: Optional[Memory] = None,
    progress: Progress = None,
) -> Census:
    """Every PushPush board of a size at once (``floe census pushpush``): fewest pushes,
    unsolvable boards, hardest boards (each solved alone as a check), equivalence classes,
    and with ``difficulty`` the thesis's difficulty of every solvable board.

    Raises:
        floe.LimitReached: a limit stopped it (a census reports nothing partial).

    ``progress`` (``True``, or a callable ``(done, total)``) hears the positions stored so far.
    """
    with reporting(progress, "census: positions") as report_to:
        return Census(
            *_floe.census(
                ranged("census.rows", rows),
                ranged("census.cols", cols),
                ranged("census.k", k),
                switch("difficulty", difficulty),
                whole("hardest", hardest),
                limits(max_states, timeout, max_memory, progress=report_to),
            )
        )


class Experiment(_Drawn):
    """A Monte Carlo experiment on solitaire challenge setups (Goadrich and Droscha's
    protocol): the command line's report, one row per challenge, and the paper's figures.
    Pickles (its figures drawn) and compares: equal when the reports and the rows are."""

    def __init__(self, doc: str, cols: List[Tuple[str, List[Any]]], figures: "_floe.Figures") -> None:
        #: The dict of ``floe experiment --json`` (one setup: its summary; ``compare``: the
        #: setups and their t-tests and Kruskal–Wallis; several sizes: the sweep).
        self.report: Any = loads(doc)
        #: One row per challenge: ``size``, ``setup``, ``challenge``, ``trial``, ``status``,
        #: ``limit``, ``solvable``, ``length``, ``dfs_length`` (the first solution a
        #: depth-first search finds), ``random_solvable``, ``random_end`` (``solved``,
        #: ``stuck``, ``revisit``, ``horizon``), ``random_moves``, ``states`` and the game's
        #: diagnostics (BoxOff ``pair_equality``; Pretzel ``ducking_crab``,
        #: ``duelling_deuces``; Fujisan ``connectivity``, ``counter_intuitive``,
        #: ``distinct_steps``). A pandas DataFrame when pandas is installed, else a list of
        #: dicts.
        self.challenges: Any = columns(cols)
        self._figures: Optional[_floe.Figures] = figures
        self._drawn: Optional[Dict[str, SVG]] = None

    @property
    def figures(self) -> Dict[str, SVG]:
        """The paper's figures by file name (box plots of the solvability over the trials,
        histograms of the solution lengths, the diagnostics by solvability, the sweeps),
        drawn when first asked for; none for an exact run."""
        if self._drawn is None:
            drawn = self._figures.draw() if self._figures is not None else []
            self._drawn = {name: SVG(svg) for name, svg in drawn}
        return self._drawn

    def __repr__(self) -> str:
        exact = self.report if isinstance(self.report, list) else [self.report]
        if exact and all(isinstance(x, dict) and "deals" in x for x in exact):
            runs = "; ".join(f"{x['size']} {x['setup']}, {x['deals']:,} deals" for x in exact)
            return f"<floe.Experiment exact: {runs}>"
        rows = self.challenges
        column = rows["setup"] if hasattr(rows, "columns") else [r["setup"] for r in rows]
        setups = ", ".join(sorted({str(s) for s in column}))
        game = str(self.report.get("game", "")) if isinstance(self.report, dict) else ""
        what = " ".join(w for w in (game, setups) if w)
        return f"<floe.Experiment {what}: {len(rows):,} challenges>"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Experiment):
            return NotImplemented
        return bool(self.report == other.report) and same_rows(self.challenges, other.challenges)


#: The keywords of each solitaire game's size, and the game whose they are.
_SIZE_OF = {"boxoff": ("rows", "cols", "colors"), "pretzel": ("suits", "ranks"), "fujisan": ()}
_TITLE = {"boxoff": "BoxOff", "pretzel": "Pretzel", "fujisan": "Fujisan"}


def _sheet(
    game: Any,
    rows: Any = None,
    cols: Any = None,
    colors: Any = None,
    suits: Any = None,
    ranks: Any = None,
    setup: Any = "shuffled",
) -> List[Tuple[str, str]]:
    """The game, board and setup of an experiment or its challenges, checked by type here and
    by range by the library's request, as the keyword texts it reads. A size keyword of
    another game is refused, as the command line refuses its flag; one not given takes the
    library's default (BoxOff 4 × 6 with 4 colours, Pretzel 4 suits of 4 ranks)."""
    g = word("game", game)
    given = {
        "rows": whole_or_none("rows", rows, 1),
        "cols": whole_or_none("cols", cols, 1),
        "colors": whole_or_none("colors", colors, 1),
        "suits": whole_or_none("suits", suits, 1),
        "ranks": None if ranks is None else ",".join(str(r) for r in ranks_of(ranks)),
    }
    takes = _SIZE_OF.get(g.strip().lower())
    if takes is not None:
        for name, value in given.items():
            if value is not None and name not in takes:
                owner = next(k for k, v in _SIZE_OF.items() if name in v)
                raise ValueError(f"{name} does not apply to {_TITLE[g.strip().lower()]}: it is a keyword of {_TITLE[owner]}")
    return texts(("game", g), *given.items(), ("setup", word("setup", setup)))


@keywords
def experiment(
    game: str,
    *,
    compare: Union[str, Iterable[str], None] = None,
    challenges: int = 1000,
    trials: int = 10,
    seed: int = 1,
    random_horizon: Optional[int] = None,
    threads: Optional[int] = None,
    exact: bool = False,
    max_states: Optional[int] = None,
    timeout: Optional[Duration] = None,
    max_memory: Optional[Memory] = None,
    progress: Progress = None,
    **sheet: Unpack[Sheet],
) -> Experiment:
    """The Monte Carlo experiments of the solitaire paper (``floe experiment``): ``challenges``
    challenges per setup in ``trials`` trials, each generated from its own seed, solved
    exactly and played once at random.

    Args:
        game: ``boxoff``, ``pretzel`` or ``fujisan``.
        rows, cols, colors: BoxOff's size (default 4, 6, 4); suits, ranks: Pretzel's
            (default 4, 4; ``ranks`` may be a list or ``"2-9"`` for a sweep); a size of
            another game is refused (see :class:`Sheet`).
        setup: the setup (default ``shuffled``; ``ltiles``, ``sequential``, ``banded``,
            ``piecepack``, ``piecepack-spec``, ``engraved``, ``dominoes``); ``compare``:
            several (or ``"all"``), tested against each other.
        random_horizon: the random player plays on through repeated positions up to so many
            moves; by default it gives up at the first move onto a position already visited
            in the game, as the authors' published programs do (``--random-horizon``).
        exact: enumerate every Pretzel deal instead of sampling (the report only).
        threads: worker threads (results do not depend on them).
        progress: ``True`` for a bar on standard error, or a callable ``(done, total)``
            told the challenges played of all the run's, a few times a second.
    """
    cmp: Optional[List[str]]
    if compare is None:
        cmp = None
    elif isinstance(compare, str):
        cmp = [c.strip() for c in compare.split(",") if c.strip()]
    elif isinstance(compare, Iterable):
        cmp = [word(f"compare[{i}]", c) for i, c in enumerate(compare)]
    else:
        raise TypeError(f"compare: setups (a list, or a text such as 'shuffled,ltiles'), not {type(compare).__name__}")
    if cmp is not None and not cmp:
        raise ValueError("compare: at least one setup (or None for the setup alone)")
    pairs = _sheet(game, **sheet)
    if cmp is not None:
        pairs = [p for p in pairs if p[0] != "setup"] + [("compare", ",".join(cmp))]
    exact = switch("exact", exact)
    pairs += texts(
        ("exact", exact or None),
        ("challenges", None if exact else ranged("experiment.challenges", challenges)),
        ("trials", None if exact else ranged("experiment.trials", trials)),
        ("seed", whole("seed", seed)),
        ("random_horizon", ranged_or_none("experiment.random_horizon", random_horizon)),
    )
    with reporting(progress, "experiment: challenges") as report_to:
        lim = limits(max_states, timeout, max_memory, progress=report_to)
        return Experiment(*_floe.experiment(pairs, ranged_or_none("experiment.threads", threads), lim))


@keywords
def challenges(
    game: str,
    n: int = 1,
    *,
    seed: int = 1,
    **sheet: Unpack[Sheet],
) -> List[Level]:
    """The first ``n`` challenges of an experiment as levels (``floe experiment
    --generate N``): the very challenges :func:`experiment` solves with the same seed; the
    size and setup as :func:`experiment`'s (:class:`Sheet`)."""
    pairs = _sheet(game, **sheet)
    pairs += texts(("seed", whole("seed", seed)), ("generate", whole("n", n, 1)))
    return [Level(x) for x in _floe.challenges(pairs)]
