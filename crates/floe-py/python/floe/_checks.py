"""The checks every call makes of its arguments before the native part sees them: whole
numbers that are whole and in range, switches that are switches, and the keywords that pick
a level. A wrong type is a ``TypeError``, a value out of range a ``ValueError``; both name
the argument, so that ``except ValueError`` catches every bad value (never an
``OverflowError`` from the native part) and a typo says which keyword."""

from __future__ import annotations

import difflib
import functools
import inspect
import json
import numbers
import os
from typing import Any, Callable, Dict, Iterable, List, Mapping, Optional, Tuple, TypedDict, TypeVar, Union, cast

import numpy as np

from . import _floe

#: The largest value of the native part's 32- and 64-bit counts.
U32 = 2**32 - 1
U64 = 2**64 - 1


def _shown(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _range(lo: int, hi: int, v: int) -> str:
    if hi >= U64 and v < lo:
        return f"{lo} or more"
    return f"{lo:,} to {hi:,}"


def whole(name: str, value: Any, lo: int = 0, hi: int = U64) -> int:
    """``value`` as a whole number from ``lo`` to ``hi``: ``True``, ``4.5`` or ``"4"`` are
    refused (``TypeError``), so are numbers out of range (``ValueError``)."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{name}: a whole number, not {type(value).__name__} {_shown(value)}")
    v = int(value)
    if not lo <= v <= hi:
        raise ValueError(f"{name}: {_range(lo, hi, v)} (not {v:,})")
    return v


#: The ranges of keywords by ``call.keyword`` (``"hardest.restarts"`` → ``(1, 1_000_000)``),
#: as the library writes them once for the command line's flags and these checks.
RANGES: Dict[str, Tuple[int, int]] = dict(_floe.ranges())


def ranged(key: str, value: Any) -> int:
    """:func:`whole` within the library's range of ``key`` (``call.keyword``), the message
    naming the keyword."""
    lo, hi = RANGES[key]
    return whole(key.split(".", 1)[1], value, lo, hi)


def ranged_or_none(key: str, value: Any) -> Optional[int]:
    """:func:`ranged`, or ``None`` for ``None``."""
    return None if value is None else ranged(key, value)


def whole_or_none(name: str, value: Any, lo: int = 0, hi: int = U64) -> Optional[int]:
    """:func:`whole`, or ``None`` for ``None``."""
    return None if value is None else whole(name, value, lo, hi)


def wholes(name: str, values: Any, lo: int = 0, hi: int = U64) -> List[int]:
    """A list of whole numbers (one number alone is a list of one)."""
    if isinstance(values, numbers.Integral) and not isinstance(values, bool):
        return [whole(name, values, lo, hi)]
    if isinstance(values, (str, bytes)) or not isinstance(values, Iterable):
        raise TypeError(f"{name}: whole numbers, not {type(values).__name__} {_shown(values)}")
    out = [whole(f"{name}[{i}]", v, lo, hi) for i, v in enumerate(values)]
    if not out:
        raise ValueError(f"{name}: at least one")
    return out


def switch(name: str, value: Any) -> bool:
    """``value`` as a switch: ``True`` or ``False`` (``0`` and ``1`` too, NumPy's booleans)."""
    if isinstance(value, (bool, np.bool_)):
        return bool(value)
    if isinstance(value, numbers.Integral) and int(value) in (0, 1):
        return bool(value)
    raise TypeError(f"{name}: True or False, not {type(value).__name__} {_shown(value)}")


def amount(name: str, value: Any, example: str) -> Union[int, float, str, None]:
    """A duration or a memory size as the native part reads it: a number (NumPy's too) or a
    text with a unit (``example``), or ``None``."""
    if value is None or isinstance(value, str):
        return value
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name}: a number or a text such as {example!r}, not {type(value).__name__}")
    if value < 0:
        raise ValueError(f"{name}: at least 0, not {value}")
    return int(value) if isinstance(value, numbers.Integral) else float(value)


def path_or_none(name: str, value: Any) -> Optional[str]:
    """A file's path (``str`` or ``os.PathLike``), or ``None``."""
    if value is None:
        return None
    if isinstance(value, (str, os.PathLike)):
        return os.fspath(value)
    raise TypeError(f"{name}: a path (str or os.PathLike), not {type(value).__name__} {_shown(value)}")


def ordered(lo_name: str, lo: int, hi_name: str, hi: int) -> None:
    """Refuses a range with nothing in it (``min_size=5, max_size=3``)."""
    if lo > hi:
        raise ValueError(f"{lo_name} {lo} is more than {hi_name} {hi}: nothing lies between them")


def word(name: str, value: Any, choices: Optional[Iterable[str]] = None) -> str:
    """``value`` as a text, one of ``choices`` when they are given."""
    if not isinstance(value, str):
        raise TypeError(f"{name}: a text, not {type(value).__name__} {_shown(value)}")
    if choices is not None:
        allowed = list(choices)
        if value not in allowed:
            raise ValueError(f"{name}: {', '.join(allowed)} (not {value!r})")
    return value


def word_or_none(name: str, value: Any, choices: Optional[Iterable[str]] = None) -> Optional[str]:
    """:func:`word`, or ``None`` for ``None``."""
    return None if value is None else word(name, value, choices)


class Pick(TypedDict, total=False):
    """The keywords that pick a level of a file and configure it (as :func:`floe.load`):
    every call on a level takes them besides its own, and type checkers know them."""

    level: Union[int, str, None]
    game: Optional[str]
    format: Optional[str]
    rules: Optional[str]
    k: Union[int, str, None]
    dynamic: bool
    params: Any
    name: Optional[str]


def _game_params() -> Dict[str, Any]:
    """Every game parameter of the library's registry (``floe games --json``), each once in
    the registry's order: its name and its kind (``"flag"``, ``{"int": {"min", "max"}}`` or
    ``{"choice": [...]}``). A new game's parameter is a keyword of every call on a level
    with no line here."""
    out: Dict[str, Any] = {}
    for g in json.loads(_floe.games_json()):
        for p in g["params"]:
            out.setdefault(p["name"], p["kind"])
    return out


#: The games' parameters by name, with their kinds (from the registry).
GAME_PARAMS: Dict[str, Any] = _game_params()

#: The keywords of :class:`Pick`, which every call on a level takes besides its own: the
#: level's, and the games' parameters of the registry (type checkers know those
#: :class:`Pick` lists; any other is taken as well, and by ``params=``).
PICK = ("level", "game", "format", *GAME_PARAMS, "params", "name")


class Sheet(TypedDict, total=False):
    """The size and setup of a solitaire experiment and of its challenges
    (:func:`floe.experiment`, :func:`floe.challenges`): BoxOff's ``rows``, ``cols``,
    ``colors`` (default 4 × 6, 4 colours), Pretzel's ``suits`` and ``ranks`` (default 4 and
    4; ``ranks`` a number, a list or ``"2-9"``), and the ``setup`` (default ``shuffled``).
    A size of another game than the one named is refused."""

    rows: int
    cols: int
    colors: int
    suits: int
    ranks: Union[int, str, Iterable[int]]
    setup: str


#: The keywords of :class:`Sheet`.
SHEET = ("rows", "cols", "colors", "suits", "ranks", "setup")


F = TypeVar("F", bound=Callable[..., Any])


def keywords(call: F) -> F:
    """``call`` with its keywords checked before it runs: a keyword it does not take is a
    ``TypeError`` that names the call (``solve()``, ``Level.reach()``), the keyword, the
    nearest one it takes and all of them. A call with ``**pick: Unpack[Pick]`` takes the
    keywords of :data:`PICK` besides its own, one with ``**sheet: Unpack[Sheet]`` those of
    :data:`SHEET`, one with ``**game_params`` the games' parameters of the registry
    (:data:`GAME_PARAMS`) besides those it names."""
    params = inspect.signature(call).parameters.values()
    own = [p.name for p in params if p.kind in (p.KEYWORD_ONLY, p.POSITIONAL_OR_KEYWORD) and p.name != "self"]
    rest = [p for p in params if p.kind is p.VAR_KEYWORD]
    known = own + [
        k
        for p in rest
        for k in (GAME_PARAMS if p.name == "game_params" else SHEET if "Sheet" in str(p.annotation) else PICK)
        if k not in own
    ]
    name = call.__qualname__

    @functools.wraps(call)
    def checked(*args: Any, **kw: Any) -> Any:
        for key in kw:
            if key not in known:
                near = difflib.get_close_matches(key, known, n=1)
                hint = f" (did you mean {near[0]!r}?)" if near else ""
                raise TypeError(
                    f"{name}() got an unexpected keyword argument {key!r}{hint}; it takes " + ", ".join(known)
                )
        return call(*args, **kw)

    return cast(F, checked)


def pick_types(pick: Mapping[str, Any]) -> None:
    """The values of the keywords that pick a level, checked by type."""
    lv = pick.get("level")
    if lv is not None and (isinstance(lv, (bool, np.bool_)) or not isinstance(lv, (numbers.Integral, str))):
        raise TypeError(f"level: a 1-based number or a title, not {type(lv).__name__} {_shown(lv)}")
    for key in ("game", "format", "name"):
        word_or_none(key, pick.get(key))
    for key, kind in GAME_PARAMS.items():
        value = pick.get(key)
        if value is None:
            continue
        if kind == "flag":
            switch(key, value)
        elif isinstance(kind, dict) and "int" in kind:
            if not isinstance(value, str):
                whole(key, value)
        else:
            word(key, value)


def texts(*given: Tuple[str, Any]) -> List[Tuple[str, str]]:
    """Keywords checked by type as the texts the library's request reads: ``None`` left out
    (the library's default), switches as ``true``/``false``, numbers as digits."""
    out: List[Tuple[str, str]] = []
    for name, value in given:
        if value is None:
            continue
        if isinstance(value, bool):
            out.append((name, "true" if value else "false"))
        else:
            out.append((name, str(value)))
    return out


def cell_size(cell: Optional[int]) -> int:
    """A picture's cell size in pixels (4 to 200), or 0 for the game's own."""
    if cell is None:
        return 0
    return ranged("solve.cell", cell)
