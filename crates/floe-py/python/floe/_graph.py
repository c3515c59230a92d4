"""The state graph of a level as NumPy arrays (:class:`Graph`), made from the library's
``graph`` operation; :func:`floe.graph` and :meth:`floe.Level.graph` give it."""

from __future__ import annotations

import json
import numbers
from typing import Any, Dict, List, Optional, Tuple

import numpy as np

from . import _floe
from ._checks import PICK, amount, switch, whole, whole_or_none
from ._common import Duration, Memory, Progress, report, reporting



def _text(name: str, value: Any) -> Optional[str]:
    """A keyword as the text the library reads: ``None`` left out, switches as
    ``true``/``false``, whole numbers checked (a negative one is refused here, by name),
    durations and sizes as numbers or texts with a unit."""
    if value is None:
        return None
    if isinstance(value, (bool, np.bool_)):
        return "true" if value else "false"
    if isinstance(value, numbers.Integral):
        return str(whole(name, value))
    if isinstance(value, numbers.Real):
        return repr(float(value))
    if isinstance(value, str):
        return value
    if isinstance(value, (list, tuple, dict)):
        # a list of moves, a solve report: as the JSON the operation reads
        return json.dumps(value, default=lambda v: v.item() if isinstance(v, np.generic) else str(v))
    raise TypeError(f"{name}: a number, a switch, a text or a list, not {type(value).__name__}")


def run_native(operation: str, native: "_floe.Level", options: Dict[str, Any], progress: Progress = None) -> Dict[str, Any]:
    """Runs the library's operation on a native level, the keywords as the texts it reads;
    ``progress`` (see :data:`floe.Progress`) hears the positions it stores."""
    pairs: List[Tuple[str, str]] = []
    for key, value in options.items():
        text = _text(key, value)
        if text is not None:
            pairs.append((key, text))
    with reporting(progress, f"{operation}: positions") as report_to:
        doc = _floe.operation(operation, native, pairs, report_to)
    return report(doc)


class Graph:
    """The state graph of a level (:func:`graph`): every position reachable from the start,
    numbered breadth first (the start is 0), as NumPy arrays.

    - ``distance``: each position's distance from the start in moves (pushes), ``int32``;
    - ``solved``: whether each position is solved (bool mask); ``solvable``: whether a
      solved position can still be reached from it;
    - ``indptr``, ``indices``: the moves in compressed rows (the moves out of position ``i``
      lead to ``indices[indptr[i]:indptr[i + 1]]``); ``edges``: the same as an ``(E, 2)``
      array of (from, to);
    - ``positions``: each position in the game's text notation, as ``floe play`` shows it,
      under a ``Game:`` line with the game and its parameters, so that :func:`floe.load`
      reads it as a level of the same game (``None`` with ``positions=False``; a Fujisan
      position, which marks its priests, is no level file); ``moves``: each edge's move as ``floe.solve`` gives moves (with
      ``moves=True``);
    - ``depth``, ``nearest_solved``, ``complete``, ``limit``, ``report`` (the whole dict of
      ``floe graph --json`` without its arrays).

    :meth:`to_networkx` and :meth:`to_scipy` hand the graph to networkx and SciPy.
    """

    def __init__(self, doc: Dict[str, Any]) -> None:
        self.distance: np.ndarray = np.asarray(doc.pop("distance"), dtype=np.int32)
        self.solved: np.ndarray = np.asarray(doc.pop("solved"), dtype=bool)
        self.solvable: np.ndarray = np.asarray(doc.pop("solvable"), dtype=bool)
        self.indptr: np.ndarray = np.asarray(doc.pop("indptr"), dtype=np.int64)
        self.indices: np.ndarray = np.asarray(doc.pop("indices"), dtype=np.int32)
        self.positions: Optional[List[str]] = doc.pop("positions", None)
        self.moves: Optional[List[Any]] = doc.pop("moves", None)
        self.report: Dict[str, Any] = doc
        self.game: str = doc["game"]
        self.level: str = doc["level"]
        self.complete: bool = doc["complete"]
        self.limit: Optional[str] = doc["limit"]
        self.depth: Optional[int] = doc["depth"]
        self.nearest_solved: Optional[int] = doc["nearest_solved"]

    def __len__(self) -> int:
        return int(self.distance.shape[0])

    @property
    def edges(self) -> np.ndarray:
        """The moves as an ``(E, 2)`` array of (from, to) position numbers."""
        sources = np.repeat(np.arange(len(self), dtype=np.int32), np.diff(self.indptr))
        return np.stack([sources, self.indices], axis=1)

    def to_networkx(self) -> Any:
        """A ``networkx.DiGraph``: nodes numbered as here, with ``distance``, ``solved``,
        ``solvable`` and (when kept) ``position``; edges with ``move`` when kept. Needs
        networkx."""
        try:
            import networkx as nx  # type: ignore[import-untyped,import-not-found,unused-ignore]
        except ImportError as e:  # pragma: no cover - depends on the environment
            raise ImportError("Graph.to_networkx needs networkx: pip install networkx") from e
        g = nx.DiGraph(game=self.game, level=self.level)
        for i in range(len(self)):
            attrs: Dict[str, Any] = {
                "distance": int(self.distance[i]),
                "solved": bool(self.solved[i]),
                "solvable": bool(self.solvable[i]),
            }
            if self.positions is not None:
                attrs["position"] = self.positions[i]
            g.add_node(i, **attrs)
        for i, (u, v) in enumerate(self.edges.tolist()):
            if self.moves is not None:
                g.add_edge(u, v, move=self.moves[i])
            else:
                g.add_edge(u, v)
        return g

    def to_scipy(self) -> Any:
        """The adjacency matrix as a ``scipy.sparse.csr_array`` (1 where a move leads from
        row to column; several moves between the same two positions add up). Needs SciPy."""
        try:
            from scipy.sparse import csr_array  # type: ignore[import-untyped,import-not-found,unused-ignore]
        except ImportError as e:  # pragma: no cover - depends on the environment
            raise ImportError("Graph.to_scipy needs SciPy: pip install scipy") from e
        n = len(self)
        data = np.ones(len(self.indices), dtype=np.int32)
        m = csr_array((data, self.indices, self.indptr), shape=(n, n))
        m.sum_duplicates()
        return m

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Graph):
            return NotImplemented
        return (
            self.report.get("states") == other.report.get("states")
            and self.positions == other.positions
            and self.moves == other.moves
            and np.array_equal(self.distance, other.distance)
            and np.array_equal(self.solved, other.solved)
            and np.array_equal(self.indptr, other.indptr)
            and np.array_equal(self.indices, other.indices)
        )

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        if not self.complete:
            n = self.report["states"]
            return f"<floe.Graph {self.level}: stopped by {self.limit} after {n:,} position{'' if n == 1 else 's'}>"
        nearest = "none solvable" if self.nearest_solved is None else f"nearest solved {self.nearest_solved}"
        return (
            f"<floe.Graph {self.level} ({self.game}): {len(self):,} positions, "
            f"{len(self.indices):,} moves, farthest {self.depth}, {nearest}>"
        )


def graph_of(
    native: "_floe.Level",
    positions: bool,
    moves: bool,
    max_states: Optional[int],
    timeout: Optional[Duration],
    max_memory: Optional[Memory],
    force: bool,
    progress: Progress = None,
) -> Graph:
    """The :class:`Graph` of a native level, its keywords checked."""
    options: Dict[str, Any] = dict(
        positions=switch("positions", positions),
        moves=switch("moves", moves),
        max_states=whole_or_none("max_states", max_states),
        timeout=amount("timeout", timeout, "30s"),
        max_memory=amount("max_memory", max_memory, "8G"),
        force=switch("force", force),
    )
    pairs = [(k, t) for k, t in ((k, _text(k, v)) for k, v in options.items()) if t is not None]
    with reporting(progress, "graph: positions") as report_to:
        doc, (distance, solved, solvable, indptr, indices) = _floe.graph_arrays(native, pairs, report_to)
    d = report(doc)
    d["distance"] = np.frombuffer(distance, dtype="<u4").astype(np.int32)
    d["solved"] = np.frombuffer(solved, dtype=np.uint8).astype(bool)
    d["solvable"] = np.frombuffer(solvable, dtype=np.uint8).astype(bool)
    d["indptr"] = np.frombuffer(indptr, dtype="<u8").astype(np.int64)
    d["indices"] = np.frombuffer(indices, dtype="<u4").astype(np.int32)
    return Graph(d)
