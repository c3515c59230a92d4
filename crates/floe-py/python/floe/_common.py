"""What every call shares: where a level comes from, game parameters, limits, pictures,
arrays and tables."""

from __future__ import annotations

import contextlib
import errno
import inspect
import json
import os
import sys
from typing import Any, Callable, Dict, Iterable, Iterator, List, Mapping, Optional, Tuple, Union, cast

import numpy as np

from ._checks import GAME_PARAMS, U32, amount, switch, texts, whole, whole_or_none, wholes

#: A duration as the command line writes it: seconds (``30``, ``1.5``) or a text with a unit
#: (``"500ms"``, ``"30s"``, ``"2m"``, ``"1h"``).
Duration = Union[int, float, str]

#: A memory size as the command line writes it: GiB (``8``, ``0.5``) or a text with a unit
#: (``"512M"``, ``"8G"``, ``"2T"``).
Memory = Union[int, float, str]

#: Game parameters beyond the named keywords: ``{"k": 2}`` or ``["k=2", "dynamic"]``.
Params = Union[Mapping[str, Any], Iterable[str], None]

#: The limits as the native part takes them: (max_states, timeout, max_memory, force).
Limits = Tuple[Optional[int], Optional[Duration], Optional[Memory], bool, Optional[Callable[[int, Optional[int]], Any]]]


def loads(text: str) -> Any:
    """A report's JSON text as Python values."""
    return json.loads(text)


def report(text: str) -> Dict[str, Any]:
    """A report (a JSON object) as a dict."""
    return cast(Dict[str, Any], json.loads(text))


class SVG(str):
    """An SVG document: a ``str`` that Jupyter draws (``_repr_svg_``)."""

    def _repr_svg_(self) -> str:
        return str(self)

    def save(self, path: "Union[str, os.PathLike[str]]") -> None:
        """Writes the picture to ``path``."""
        with open(path, "w", encoding="utf-8") as f:
            f.write(self)


def source_of(src: Any) -> Tuple[Optional[str], Optional[str]]:
    """``(path, text)`` of a source: ``os.PathLike`` is a path; a ``str`` with a line break is
    a level's text, any other ``str`` a path."""
    if isinstance(src, os.PathLike):
        return os.fspath(src), None
    if isinstance(src, str):
        if "\n" in src or "\r" in src:
            return None, src
        if src == "":
            raise ValueError("an empty string is neither a path nor a level's text")
        if not os.path.exists(src):
            raise FileNotFoundError(
                errno.ENOENT,
                f"no such file: {src!r} (a str without a line break is a path; a level's text "
                "needs a line break: add '\\n' to a one-line level)",
                src,
            )
        return src, None
    raise TypeError(
        f"a level is a path, a level's text or a floe.Level, not {type(src).__name__}"
    )


def param_list(named: Mapping[str, Any], params: Params = None) -> List[Tuple[str, str, str]]:
    """The game parameters as the native part takes them: (name, value, keyword). ``named``
    holds the keywords given (those that are games' parameters of the registry are taken; a
    flag given ``False`` or a ``None`` is not given), ``params`` any other."""
    out: List[Tuple[str, str, str]] = []
    for name in GAME_PARAMS:
        value = named.get(name)
        if value is None or value is False:
            continue
        if value is True:
            value = "true"
        out.append((name, str(value), f"{name}="))
    if params is None:
        return out
    if isinstance(params, str):
        params = [p for p in params.split(",") if p.strip()]
    if isinstance(params, Mapping):
        items: Iterable[Tuple[str, Any]] = params.items()
    else:
        items = [
            tuple(p.split("=", 1)) if "=" in p else (p, True)  # type: ignore[misc]
            for p in params
        ]
    for name, value in items:
        name = str(name).strip()
        if isinstance(value, bool):
            value = "true" if value else "false"
        out.append((name, str(value).strip(), f"params[{name!r}]"))
    return out


#: What ``progress=`` takes: ``True`` for a bar on standard error (tqdm's when tqdm is
#: installed), a callable ``(done, total)`` (``total`` is ``None`` when the work does not know
#: it: a search reports the positions it stored), or ``None``/``False`` for none.
Progress = Union[bool, Callable[[int, Optional[int]], Any], None]


class _Bar:
    """``progress=True``: tqdm's bar when tqdm is installed, else one line on standard error
    written over as the work goes (on a terminal; elsewhere, as a file, only its last state,
    once, when the work ends)."""

    def __init__(self, what: str) -> None:
        self.what = what
        self.last: Optional[str] = None
        self.shown = False
        self.live = sys.stderr.isatty()
        self.tqdm: Any = None
        try:
            from tqdm import tqdm  # type: ignore[import-untyped]
        except ImportError:
            return
        self.tqdm = tqdm(desc=what, file=sys.stderr, leave=False)

    def __call__(self, done: int, total: Optional[int]) -> None:
        if self.tqdm is not None:
            if total is not None and self.tqdm.total != total:
                self.tqdm.total = total
            self.tqdm.n = done
            self.tqdm.refresh()
            return
        of = f" of {total:,}" if total is not None else ""
        line = f"{self.what}: {done:,}{of}"
        if self.live:
            # written over the last one, the rest of a longer one cleared
            sys.stderr.write("\r" + line.ljust(len(self.last or "")))
            sys.stderr.flush()
            self.shown = True
        self.last = line

    def close(self) -> None:
        if self.tqdm is not None:
            self.tqdm.close()
        elif self.shown:
            sys.stderr.write("\n")
            sys.stderr.flush()
        elif self.last is not None:
            sys.stderr.write(self.last + "\n")
            sys.stderr.flush()


@contextlib.contextmanager
def reporting(progress: Progress, what: str) -> Iterator[Optional[Callable[[int, Optional[int]], Any]]]:
    """The callable a call hands the native part for ``progress`` (see :data:`Progress`);
    ``what`` names the work on the bar."""
    if progress is None or (isinstance(progress, (bool, np.bool_)) and not progress):
        yield None
    elif isinstance(progress, (bool, np.bool_)):
        bar = _Bar(what)
        try:
            yield bar
        finally:
            bar.close()
    elif callable(progress):
        try:
            inspect.signature(progress).bind(0, None)
        except TypeError as e:
            raise TypeError(f"progress: a callable taking (done, total); {e}") from None
        except ValueError:  # a builtin without a signature: trusted
            pass
        yield progress
    else:
        raise TypeError(f"progress: True, False, None or a callable (done, total), not {type(progress).__name__}")


def limits(
    max_states: Optional[int] = None,
    timeout: Optional[Duration] = None,
    max_memory: Optional[Memory] = None,
    force: bool = False,
    progress: Optional[Callable[[int, Optional[int]], Any]] = None,
) -> Limits:
    """The limits as the native part takes them, with the progress callable (from
    :func:`reporting`)."""
    return (
        whole_or_none("max_states", max_states),
        amount("timeout", timeout, "30s"),
        amount("max_memory", max_memory, "8G"),
        switch("force", force),
        progress,
    )


def limit_texts(
    max_states: Optional[int] = None,
    timeout: Optional[Duration] = None,
    max_memory: Optional[Memory] = None,
    force: bool = False,
) -> List[Tuple[str, str]]:
    """The limits checked by type as the texts the library's requests read (``None`` and a
    ``force`` off left out: the library's defaults)."""
    max_states, timeout, max_memory, force, _ = limits(max_states, timeout, max_memory, force)
    return texts(("max_states", max_states), ("timeout", timeout), ("max_memory", max_memory), ("force", force or None))


def array(buffer: bytearray, dtype: str, shape: Iterable[int]) -> np.ndarray:
    """A NumPy array over a native buffer (no copy; writable)."""
    return np.frombuffer(buffer, dtype=dtype).reshape(tuple(shape))


def same_arrays(a: Optional[np.ndarray], b: Optional[np.ndarray]) -> bool:
    """Whether two tables (or two absent ones) are the same: shape, type and values."""
    if a is None or b is None:
        return a is None and b is None
    return a.dtype == b.dtype and a.shape == b.shape and bool(np.array_equal(a, b))


def same_rows(a: Any, b: Any) -> bool:
    """Whether two tables of rows (DataFrames, or lists of dicts without pandas) are the
    same: columns, types and values, NaN where NaN is."""
    if hasattr(a, "equals") and hasattr(b, "equals"):
        return bool(a.equals(b)) and list(a.columns) == list(b.columns)
    if hasattr(a, "equals") or hasattr(b, "equals"):
        return False
    return bool(a == b)


def table(rows: List[Dict[str, Any]]) -> Any:
    """Rows as a pandas DataFrame when pandas is installed, else as they are."""
    try:
        import pandas as pd  # type: ignore[import-untyped,unused-ignore]
    except ImportError:
        return rows
    return pd.DataFrame(rows)


def columns(cols: List[Tuple[str, List[Any]]]) -> Any:
    """Columns as a pandas DataFrame when pandas is installed, else as a list of row dicts."""
    try:
        import pandas as pd  # type: ignore[import-untyped,unused-ignore]
    except ImportError:
        names = [n for n, _ in cols]
        n = len(cols[0][1]) if cols else 0
        return [{name: values[i] for name, values in cols} for i in range(n)] if names else []
    return pd.DataFrame(dict(cols))


def ranks_of(ranks: Union[int, str, Iterable[int]]) -> List[int]:
    """Pretzel ranks: ``4``, ``[4, 6, 8]`` or the command line's ``"2-9"`` / ``"4,6,8"``."""
    if isinstance(ranks, int) and not isinstance(ranks, bool):
        return [whole("ranks", ranks, 2, 13)]
    if isinstance(ranks, str):
        out: List[int] = []
        for part in (p.strip() for p in ranks.split(",")):
            if not part:
                continue
            if "-" in part or ".." in part:
                a, b = part.replace("..", "-").split("-", 1)
                lo, hi = _rank(a), _rank(b.lstrip("."))
                if lo > hi:
                    raise ValueError(f"ranks: '{part}' is not a range like 2-9")
                out.extend(range(lo, hi + 1))
            else:
                out.append(_rank(part))
        if not out:
            raise ValueError("ranks: none given")
        return out
    return wholes("ranks", ranks, 1, U32)


def _rank(text: str) -> int:
    """A rank of the ``ranks`` text, a whole number."""
    try:
        return whole("ranks", int(text.strip()), 1, U32)
    except ValueError:
        raise ValueError(f"ranks: whole numbers such as 4, 2-9 or 4,6,8 (not {text!r})") from None
