"""The exceptions floe raises (re-exported by :mod:`floe`)."""

from __future__ import annotations


class FloeError(Exception):
    """Base of every error floe raises about its input or its work."""


class ParseError(FloeError, ValueError):
    """A level file (or move list) that does not parse.

    ``str(e)`` is ``file:line:col: message``, as the command line prints it; the parts are
    attributes.

    Attributes:
        file: the file's name as given (``<text>`` for a level given as a string).
        line: 1-based line.
        col: 1-based column, in characters.
        message: what is wrong.
    """

    file: str
    line: int
    col: int
    message: str


class InvalidInput(FloeError, ValueError):
    """Input that is well formed but not acceptable: a level that does not exist, a
    parameter a game does not have, a board too large, a run that cannot fit the memory
    budget."""


class InternalError(FloeError, RuntimeError):
    """A result failed its own check: a bug in floe, reported instead of a wrong answer."""


class LimitReached(FloeError):
    """A limit stopped a run that reports nothing partial (the PushPush census).

    Attributes:
        limit: ``max-states``, ``timeout``, ``max-memory``, ``interrupted`` or
            ``max-moves``.
    """

    limit: str
