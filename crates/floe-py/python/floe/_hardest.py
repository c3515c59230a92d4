"""The hardest levels of a size (``floe hardest``)."""

from __future__ import annotations

from typing import Any, Dict, Optional

from . import _floe
from ._checks import amount, keywords, ranged, switch, whole, whole_or_none
from ._common import Duration, Progress, loads, reporting


@keywords
def hardest(
    game: str,
    rows: int,
    cols: int,
    *,
    rocks: Optional[int] = None,
    blocks: Optional[int] = None,
    targets: Optional[int] = None,
    walls: Optional[int] = None,
    floor: Optional[int] = None,
    rules: Optional[str] = None,
    k: Optional[int] = None,
    by: str = "length",
    factor: Optional[int] = None,
    anneal: bool = False,
    seed: int = 1,
    restarts: int = 8,
    steps: int = 20_000,
    time: Optional[Duration] = None,
    top: int = 5,
    progress: Progress = None,
) -> Dict[str, Any]:
    """The levels of a ``rows × cols`` board whose optimal solution is the longest, hardest
    first, each verified by the exact solver: the dict of ``floe hardest --json``
    (``levels``: ``level`` (the level file's text), ``length``, ``moves``, …).

    ``game``: ``"icepath"`` (``rocks``), ``"ice"`` (``blocks``, ``targets``, at most
    ``walls`` walls and ``floor`` normal floor cells, ``rules``, ``by="difficulty"`` with
    ``factor``) or ``"pushpush"`` (``k``; from its census; ``blocks`` keeps the boards with
    exactly that many blocks). The search is exact (every
    placement up to symmetry) unless ``anneal`` is set: simulated annealing from ``restarts``
    seeded restarts of ``steps`` steps each, reproducible under ``seed``; ``time`` bounds
    either (seconds, or text such as ``"30s"``).

    ``progress``: ``True`` for a bar on standard error, or a callable hearing ``(done,
    total)``: the exact search's parts (placements that share their first pieces), the
    annealing's steps or, with ``time``, milliseconds of it; PushPush's census its push steps
    (``total`` None until the end). The last call has ``done == total``."""
    unit = "ms of time" if time is not None else "steps" if anneal else "parts"
    if str(game).strip().lower().startswith("pushpush"):
        unit = "census push steps"
    with reporting(progress, f"hardest: {unit}") as report_to:
        doc: Dict[str, Any] = loads(
            _floe.hardest(
                str(game),
                ranged("hardest.rows", rows),
                ranged("hardest.cols", cols),
                whole_or_none("rocks", rocks),
                whole_or_none("blocks", blocks),
                whole_or_none("targets", targets),
                whole_or_none("walls", walls),
                whole_or_none("floor", floor),
                None if rules is None else str(rules),
                None if k is None else str(whole("k", k)),
                str(by),
                whole_or_none("factor", factor),
                switch("anneal", anneal),
                whole("seed", seed),
                ranged("hardest.restarts", restarts),
                ranged("hardest.steps", steps),
                amount("time", time, "30s"),
                ranged("hardest.top", top),
                report_to,
            )
        )
    return doc
