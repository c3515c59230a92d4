"""What only ice blocks have: reach tables, the theses' tables, difficulty profiles,
generated levels; and floe's heat map."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any, Dict, Iterable, Iterator, List, Optional, Sequence, Tuple, Union, overload

import numpy as np

from . import _floe
from ._checks import Pick, keywords, ordered, ranged, ranged_or_none, switch, texts, whole, whole_or_none, wholes
from ._common import SVG, Duration, Memory, Progress, limits, loads, report, reporting, table
from ._level import Level, Source, _board, _reach

if TYPE_CHECKING:  # pragma: no cover
    from typing_extensions import Unpack


@overload
def reach(
    rows: int,
    cols: int,
    blocks: int,
    /,
    *,
    rules: Optional[str] = None,
    max_states: Optional[int] = None,
    timeout: Optional[Duration] = None,
    max_memory: Optional[Memory] = None,
    force: bool = False,
    progress: Progress = None,
) -> np.ndarray: ...
@overload
def reach(
    rows: Source,
    /,
    *,
    max_states: Optional[int] = None,
    timeout: Optional[Duration] = None,
    max_memory: Optional[Memory] = None,
    force: bool = False,
    progress: Progress = None,
    **pick: Unpack[Pick],
) -> np.ndarray: ...
@keywords
def reach(
    rows: Any,
    cols: Optional[int] = None,
    blocks: Optional[int] = None,
    /,
    *,
    max_states: Optional[int] = None,
    timeout: Optional[Duration] = None,
    max_memory: Optional[Memory] = None,
    force: bool = False,
    progress: Progress = None,
    **pick: Unpack[Pick],
) -> np.ndarray:
    """Fewest pushes after which some block rests on each cell (``floe reach``, van den
    Akker's tables), as a 2-D ``float64`` NumPy array with NaN for cells no block can rest
    on.

    ``reach(rows, cols, blocks)`` is the empty board whose blocks start in the top row from
    the left; ``reach(level_or_path, level=…)`` an ice block level. A limit leaves upper
    bounds and may miss cells; :func:`reach_report` says whether the table is complete.
    ``progress`` as :func:`floe.space`'s.
    """
    a_level = isinstance(rows, (str, os.PathLike, Level))
    if a_level and (cols is not None or blocks is not None):
        raise TypeError("reach(rows, cols, blocks) or reach(level); not both")
    if a_level:
        lv = _board(rows, None, None, None, **pick)
    else:
        lv = _board(None, rows, cols, blocks, **pick)
    with reporting(progress, "reach: positions") as report_to:
        return _reach(lv, limits(max_states, timeout, max_memory, force, report_to))[1]


@keywords
def reach_report(
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
) -> Dict[str, Any]:
    """The reach table with its figures: the dict of ``floe reach --json`` (``rows``,
    ``cols``, ``blocks``, ``moves`` with ``None`` for unreachable cells, ``max``, ``mean``,
    ``states``, ``complete``, ``limit``, ``seconds``; ``level`` for a file's level).
    ``progress`` as :func:`floe.space`'s."""
    lv = _board(level, rows, cols, blocks, **pick)
    with reporting(progress, "reach: positions") as report_to:
        return _reach(lv, limits(max_states, timeout, max_memory, force, report_to))[0]


@keywords
def space_table(
    max_rows: int = 7,
    max_cols: int = 7,
    max_blocks: int = 8,
    *,
    max_states: Optional[int] = None,
    timeout: Optional[Duration] = None,
    max_memory: Optional[Memory] = None,
    force: bool = False,
    progress: Progress = None,
) -> Dict[str, Any]:
    """Reachable positions on empty boards m×n (2 ≤ m ≤ n) with 1 to ``max_blocks`` blocks
    (Kluiver's Table 1 and beyond), his closed forms checked: the dict of ``floe table space
    --json`` (``cells``, ``formulas``, ``complete``, ``seconds``, ``peak_rss_bytes``).
    ``pandas.DataFrame(t["cells"])`` makes it a frame. ``progress`` (``True`` or a
    callable) hears the cells done, ``(done, None)``, and last ``(done, done)``."""
    with reporting(progress, "space table: cells") as report_to:
        return report(
            _floe.space_table(
                ranged("space_table.max_rows", max_rows),
                ranged("space_table.max_cols", max_cols),
                ranged("space_table.max_blocks", max_blocks),
                limits(max_states, timeout, max_memory, force, report_to),
            )
        )


@keywords
def reach_table(
    min_size: int = 3,
    max_size: int = 10,
    blocks: Iterable[int] = (3, 4, 5),
    *,
    max_states: Optional[int] = None,
    timeout: Optional[Duration] = None,
    max_memory: Optional[Memory] = None,
    force: bool = False,
    progress: Progress = None,
) -> Dict[str, Any]:
    """Van den Akker's reach tables of empty square boards (his Tables 1–8, 10, 11): the
    dict of ``floe table reach --json`` (``tables``: one per size and block count with
    ``moves``, ``max``, ``mean``; ``complete``, ``seconds``). ``progress`` (``True`` or a
    callable) hears the boards done, ``(done, None)``, and last ``(done, done)``."""
    ordered("min_size", ranged("reach_table.min_size", min_size), "max_size", ranged("reach_table.max_size", max_size))
    with reporting(progress, "reach table: boards") as report_to:
        return report(
            _floe.square_table(
                "reach",
                whole("min_size", min_size),
                whole("max_size", max_size),
                wholes("blocks", blocks),
                limits(max_states, timeout, max_memory, force, report_to),
            )
        )


@keywords
def strip_table(
    heights: Iterable[int] = (2, 3),
    max_width: int = 20,
    blocks: Iterable[int] = (3, 4, 5, 6),
    *,
    compare_width: int = 15,
    max_states: Optional[int] = None,
    timeout: Optional[Duration] = None,
    max_memory: Optional[Memory] = None,
    progress: Progress = None,
) -> Dict[str, Any]:
    """Van den Akker's Tables 12 and 13: the hardest cell of h×n boards for every width,
    closed forms fitted and his pattern checked: the dict of ``floe table strip --json``
    (``series``: ``height``, ``blocks``, ``hardest`` as (width, pushes) pairs,
    ``closed_form``; ``thesis_pattern``; ``complete``; ``seconds``). ``progress`` (``True`` or a
    callable) hears the boards done, ``(done, None)``, and last ``(done, done)``."""
    with reporting(progress, "strip table: boards") as report_to:
        return report(
            _floe.strip_table(
                wholes("heights", heights),
                ranged("strip_table.max_width", max_width),
                wholes("blocks", blocks),
                whole("compare_width", compare_width),
                limits(max_states, timeout, max_memory, progress=report_to),
            )
        )


@keywords
def patterns_table(
    min_size: int = 3,
    max_size: int = 8,
    blocks: Iterable[int] = (3, 4, 5),
    *,
    max_states: Optional[int] = None,
    timeout: Optional[Duration] = None,
    max_memory: Optional[Memory] = None,
    progress: Progress = None,
) -> Any:
    """Van den Akker's Table 9: whether trains (and zigzags) are part of fastest ways to
    the hardest cells of empty square boards. One row per board (``rows``, ``cols``,
    ``blocks``, ``pushes``, ``cells``, ``train``, ``zigzag``, …: the rows of ``floe table
    patterns --json``), a DataFrame with pandas. ``progress`` (``True`` or a
    callable) hears the boards done, ``(done, None)``, and last ``(done, done)``."""
    ordered("min_size", ranged("patterns_table.min_size", min_size), "max_size", ranged("patterns_table.max_size", max_size))
    with reporting(progress, "patterns table: boards") as report_to:
        doc = _floe.square_table(
            "patterns",
            whole("min_size", min_size),
            whole("max_size", max_size),
            wholes("blocks", blocks),
            limits(max_states, timeout, max_memory, progress=report_to),
        )
    return table(loads(doc))


class Profile:
    """The least difficulty of every reachable position per block-change factor (Kluiver's
    Figures 19–27). Draws its figure in Jupyter; pickles and compares (equal when the
    reports, figures and tables are)."""

    __slots__ = ("report", "_svg", "_csv")

    def __init__(self, doc: str, svg: Optional[str], csv: Optional[str]) -> None:
        #: The dict of ``floe profile --json``.
        self.report: Dict[str, Any] = report(doc)
        self._svg = svg
        self._csv = csv

    @property
    def complete(self) -> bool:
        """Whether the whole state graph was built (else a limit stopped it)."""
        return bool(self.report["complete"])

    @keywords
    def svg(self) -> Optional[SVG]:
        """The cumulative curves, one per factor (``floe profile --svg``)."""
        return None if self._svg is None else SVG(self._svg)

    def csv(self) -> Optional[str]:
        """``factor,difficulty,normalised,positions,cumulative`` rows (``floe profile --csv``)."""
        return self._csv

    def frame(self) -> Any:
        """The histograms, one row per factor and difficulty (a DataFrame with pandas)."""
        rows: List[Dict[str, Any]] = []
        for f in self.report["factors"]:
            total = 0
            for d, n in enumerate(f["histogram"]):
                total += n
                rows.append(
                    {
                        "factor": f["factor"],
                        "difficulty": d,
                        "normalised": d / f["max"] if f["max"] else 0.0,
                        "positions": n,
                        "cumulative": total,
                    }
                )
        return table(rows)

    def _repr_svg_(self) -> Optional[str]:
        return self._svg

    def __repr__(self) -> str:
        r = self.report
        if not r["complete"]:
            return f"<floe.Profile {r['level']!r}: incomplete, stopped by {r['limit']}>"
        most = ", ".join(f"{f['max']:,} at factor {f['factor']}" for f in r["factors"])
        return f"<floe.Profile {r['level']!r}: {r['states']:,} positions, least difficulty up to {most}>"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Profile):
            return NotImplemented
        return (self.report, self._svg, self._csv) == (other.report, other._svg, other._csv)


@keywords
def profile(
    level: Source,
    /,
    *,
    factors: Sequence[int] = (0, 1, 2, 3, 4, 5, 100),
    max_states: Optional[int] = None,
    timeout: Optional[Duration] = None,
    max_memory: Optional[Memory] = None,
    progress: Progress = None,
    **pick: Unpack[Pick],
) -> Profile:
    """The least difficulty of every reachable position of an ice block level per
    block-change factor (``floe profile``); ``progress`` as :func:`floe.space`'s."""
    lv = _board(level, None, None, None, **pick)
    with reporting(progress, "profile: positions") as report_to:
        native = _floe.profile(lv._native, wholes("factors", factors), limits(max_states, timeout, max_memory, progress=report_to))
    return Profile(*native)


class Generated(Sequence[Level]):
    """Levels made by Kluiver's retrograde generator: a sequence of :class:`Level`, with the
    report and the file's text. Pickles and compares (equal when the reports, texts and
    levels are)."""

    def __init__(self, doc: str, text: str, levels: List["_floe.Level"]) -> None:
        #: The dict of ``floe generate --json``: ``complete``, ``count``, ``candidates``,
        #: ``levels`` (per level: ``candidate``, ``intended``, ``verified`` figures).
        self.report: Dict[str, Any] = report(doc)
        #: The levels as one file in the floe format, figures in each level's header.
        self.text: str = text
        self.levels: List[Level] = [Level(n) for n in levels]

    @property
    def complete(self) -> bool:
        """Whether as many levels as asked were found."""
        return bool(self.report["complete"])

    def __len__(self) -> int:
        return len(self.levels)

    def __getitem__(self, i: Any) -> Any:
        return self.levels[i]

    def __iter__(self) -> Iterator[Level]:
        return iter(self.levels)

    def save(self, path: "Union[str, os.PathLike[str]]") -> None:
        """Writes the levels as one file (``floe generate -o FILE``)."""
        with open(path, "w", encoding="utf-8") as f:
            f.write(self.text)

    def __repr__(self) -> str:
        return f"<floe.Generated: {len(self)} levels from {self.report['candidates']} candidates>"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Generated):
            return NotImplemented
        return (self.report, self.text, self.levels) == (other.report, other.text, other.levels)


@keywords
def generate(
    rows: int,
    cols: int,
    *,
    targets: int = 1,
    max_blocks: Optional[int] = None,
    min_pushes: int = 3,
    max_pushes: Optional[int] = None,
    min_difficulty: Optional[int] = None,
    factor: int = 5,
    unique: bool = False,
    walls: bool = False,
    count: int = 1,
    seed: int = 1,
    timeout: Optional[Duration] = None,
    candidate_states: int = 2_000_000,
    progress: Progress = None,
) -> Generated:
    """Ice block levels by Kluiver's retrograde generator, each verified by exact search
    (``floe generate``); the same seed gives the same levels. With a ``timeout``, fewer
    levels than asked may come back (``complete`` is then false). ``progress``: ``True`` for a
    bar on standard error, or a callable hearing ``(levels made, count)``."""
    pairs = texts(
        ("rows", ranged("generate.rows", rows)),
        ("cols", ranged("generate.cols", cols)),
        ("targets", ranged("generate.targets", targets)),
        ("max_blocks", ranged_or_none("generate.max_blocks", max_blocks)),
        ("min_pushes", whole("min_pushes", min_pushes)),
        ("max_pushes", whole_or_none("max_pushes", max_pushes)),
        ("min_difficulty", whole_or_none("min_difficulty", min_difficulty)),
        ("factor", whole("factor", factor)),
        ("unique", switch("unique", unique)),
        ("walls", switch("walls", walls)),
        ("count", ranged("generate.count", count)),
        ("seed", whole("seed", seed)),
        ("candidate_states", whole("candidate_states", candidate_states)),
    )
    with reporting(progress, "generate: levels") as report_to:
        native = _floe.generate(pairs, timeout, report_to)
    return Generated(*native)


@keywords
def generate_report(
    sizes: Iterable[Tuple[int, int]] = ((5, 5), (6, 6), (7, 7)),
    targets: Iterable[int] = (1, 2, 3),
    pushes: Iterable[int] = (4, 6, 8),
    *,
    extra_blocks: int = 2,
    samples: int = 100,
    seed: int = 1,
) -> Any:
    """How often the generator's intended pushes are the fewest, before and after the
    shortcut repair (``floe generate --report``): one row per setting (a DataFrame with
    pandas)."""
    return table(
        loads(
            _floe.generate_report(
                [(whole(f"sizes[{i}]", r, 1), whole(f"sizes[{i}]", c, 1)) for i, (r, c) in enumerate(sizes)],
                wholes("targets", targets),
                wholes("pushes", pushes),
                whole("extra_blocks", extra_blocks),
                ranged("generate_report.samples", samples),
                whole("seed", seed),
            )
        )
    )


@keywords
def heatmap(
    values: Any,
    *,
    title: str = "",
    x_label: str = "column",
    y_label: str = "row",
    value_label: str = "",
    log: bool = False,
) -> SVG:
    """A 2-D table (a NumPy array, NaN cells left blank) drawn as a heat map by floe's own
    plotter, row 0 at the top: how the notebooks show reach tables."""
    a = np.asarray(values, dtype=float)
    if a.ndim != 2:
        raise ValueError("a heat map needs a 2-D table")
    return SVG(_floe.heatmap(a.tolist(), title, x_label, y_label, value_label, switch("log", log)))
