"""floe: solve, generate and analyse sliding-block puzzles (ice blocks, PushPush, Ice Tower,
the ice path) and solitaire challenges (BoxOff, Pretzel, Fujisan), from Python.

Every game comes through one interface: :func:`load` and :func:`levels` read a level file
(a path, or its text) of any game; :func:`solve`, :func:`space`, :func:`analyze`,
:func:`verify` and :func:`bench_solvers` work on a level of any game and return the dicts the
command line prints with ``--json`` (same keys, same values). The studies give arrays and
frames: :func:`reach` (a NumPy array), :func:`census` (PushPush, histograms as arrays),
:func:`experiment` (solitaire, a pandas DataFrame per challenge); :func:`hardest` finds the
levels of a size whose optimal solution is the longest. :meth:`Level.start` (or
:func:`start`) plays a level one move at a time (a :class:`State`, as OpenSpiel's states);
``floe.env`` holds learning environments with Gymnasium's API (registered as ``floe/Ice-v0``,
… when Gymnasium is installed): one-hot planes, a fixed action encoding with its mask, exact
distances to a solved position, vector environments stepped in one native call. Levels, solutions and
figures draw themselves in Jupyter; they and every report pickle and compare, so they travel
to other processes (``concurrent.futures``). :func:`collections` names the level files that
come with the package.

Long calls release the GIL and stop on Ctrl-C (``KeyboardInterrupt``) within a second.
Errors are exceptions: :class:`ParseError` (with ``file``, ``line``, ``col``),
:class:`InvalidInput`, ``OSError``, :class:`LimitReached`, :class:`InternalError`.
"""

from ._errors import FloeError, InternalError, InvalidInput, LimitReached, ParseError
from ._floe import __version__
from ._common import SVG
from ._level import (
    Level,
    Solution,
    Space,
    analyze,
    bench_solvers,
    games,
    levels,
    load,
    render,
    solve,
    space,
    start,
    verify,
)
from ._ice import (
    Generated,
    Profile,
    generate,
    generate_report,
    heatmap,
    profile,
    reach,
    reach_report,
    patterns_table,
    reach_table,
    space_table,
    strip_table,
)
from ._study import Census, Experiment, census, challenges, experiment
from ._hardest import hardest
from ._graph import Graph
from . import _ops
from ._ops import *  # noqa: F401,F403  (the operations' typed wrappers: _ops.__all__)
from ._bundled import collections
from ._state import GROUNDS, PIECES, State
from ._dataset import dataset
from . import env

if env.gymnasium_present():  # Gymnasium installed: floe/Ice-v0, … can be made
    env.register()

__all__ = [
    "__version__",
    "FloeError",
    "ParseError",
    "InvalidInput",
    "InternalError",
    "LimitReached",
    "SVG",
    "Level",
    "Solution",
    "Space",
    "collections",
    "load",
    "levels",
    "games",
    "solve",
    "space",
    "analyze",
    "verify",
    "bench_solvers",
    "render",
    "reach",
    "reach_report",
    "space_table",
    "reach_table",
    "strip_table",
    "patterns_table",
    "Profile",
    "profile",
    "Graph",
    "Generated",
    "generate",
    "generate_report",
    "heatmap",
    "Census",
    "census",
    "Experiment",
    "experiment",
    "challenges",
    "hardest",
    "State",
    "start",
    "GROUNDS",
    "PIECES",
    "env",
    "dataset",
]
__all__ += _ops.__all__
