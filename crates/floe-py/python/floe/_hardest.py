"""The hardest levels of a size (``floe hardest``)."""

from __future__ import annotations

from typing import Any, Dict, Optional

from . import _floe
from ._common import Duration, loads


def _opt(v: Optional[int]) -> Optional[int]:
    return None if v is None else int(v)


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
) -> Dict[str, Any]:
    """The levels of a ``rows × cols`` board whose optimal solution is the longest, hardest
    first, each verified by the exact solver: the dict of ``floe hardest --json``
    (``levels``: ``level`` (the level file's text), ``length``, ``moves``, …).

    ``game``: ``"icepath"`` (``rocks``), ``"ice"`` (``blocks``, ``targets``, at most
    ``walls`` walls and ``floor`` normal floor cells, ``rules``, ``by="difficulty"`` with
    ``factor``) or ``"pushpush"`` (``k``; from its census). The search is exact (every
    placement up to symmetry) unless ``anneal`` is set: simulated annealing from ``restarts``
    seeded restarts of ``steps`` steps each, reproducible under ``seed``; ``time`` bounds
    either (seconds, or text such as ``"30s"``)."""
    for name, v in (("rows", rows), ("cols", cols)):
        if not 1 <= int(v) <= 256:
            raise ValueError(f"{name}: 1 to 256")
    if not 1 <= int(top) <= 10_000:
        raise ValueError("top: 1 to 10,000")
    if not 1 <= int(restarts) <= 1_000_000:
        raise ValueError("restarts: 1 to 1,000,000")
    doc: Dict[str, Any] = loads(
        _floe.hardest(
            str(game),
            int(rows),
            int(cols),
            _opt(rocks),
            _opt(blocks),
            _opt(targets),
            _opt(walls),
            _opt(floor),
            None if rules is None else str(rules),
            None if k is None else str(int(k)),
            str(by),
            _opt(factor),
            bool(anneal),
            int(seed),
            int(restarts),
            int(steps),
            time,
            int(top),
        )
    )
    return doc
