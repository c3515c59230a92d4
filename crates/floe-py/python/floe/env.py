"""A level as a reinforcement-learning environment with the API of Gymnasium's ``Env``
(``reset`` and ``step``), written without Gymnasium: nothing here imports it, so the
environment works where it is not installed, and code written for Gymnasium drives it.

>>> import floe
>>> from floe.env import Env
>>> env = Env(floe.collections()["pushpush"], level=1, max_steps=50)
>>> obs, info = env.reset(seed=0)
>>> obs, reward, terminated, truncated, info = env.step(0)

An action is the index of a move in ``info["moves"]`` (the legal moves of the current
state, :meth:`floe.State.moves`) or a move itself; the observation is the position as
:meth:`floe.State.to_array` gives it. The reward is 1.0 for the move that solves the level
and ``step_reward`` (0.0 by default; give a negative one to favour short solutions) for
every other move. An episode ends (``terminated``) when the level is solved or when no move
is left (in Ice Tower, none that can still lead to a solution); it is cut short
(``truncated``) after ``max_steps`` moves.
"""

from __future__ import annotations

import math
import numbers
from typing import TYPE_CHECKING, Any, Dict, List, Optional, Tuple

import numpy as np

from ._checks import keywords, whole, whole_or_none
from ._level import Level, Source, _level
from ._state import State, start_of

if TYPE_CHECKING:  # pragma: no cover
    from typing_extensions import Unpack

    from ._checks import Pick

__all__ = ["Env"]

#: What ``step`` returns: observation, reward, terminated, truncated, info.
StepResult = Tuple[np.ndarray, float, bool, bool, Dict[str, Any]]


class Env:
    """A level of any game as an environment: :meth:`reset` starts an episode at the
    level's start, :meth:`step` plays one move.

    Args:
        level: a path, a level file's text, or a :class:`floe.Level` (``level=``,
            ``game=``, ``rules=``, … pick and configure it as in :func:`floe.load`).
        max_steps: the moves of an episode before it is cut short (``truncated``); at
            least 1.
        step_reward: the reward of a move that does not solve the level (a number).

    Attributes:
        state: the current :class:`floe.State` (``None`` before :meth:`reset`).
        np_random: a NumPy ``Generator`` seeded by ``reset(seed=…)``, for the caller's
            random choices (:meth:`sample`).
    """

    metadata: Dict[str, Any] = {"render_modes": ["ansi", "svg"]}

    level: Level
    max_steps: int
    step_reward: float
    state: Optional[State]
    steps: int
    np_random: np.random.Generator
    _start: State
    _done: bool

    @keywords
    def __init__(
        self,
        level: Source,
        /,
        *,
        max_steps: int = 200,
        step_reward: float = 0.0,
        **pick: "Unpack[Pick]",
    ) -> None:
        self.level = _level(level, **pick)
        self.max_steps = whole("max_steps", max_steps, 1)
        if isinstance(step_reward, bool) or not isinstance(step_reward, numbers.Real):
            raise TypeError(f"step_reward: a number, not {type(step_reward).__name__} {step_reward!r}")
        self.step_reward = float(step_reward)
        if not math.isfinite(self.step_reward):
            raise ValueError(f"step_reward: a finite number, not {self.step_reward}")
        self._start = start_of(self.level)
        self.state = None
        self.steps = 0
        self._done = True
        self.np_random = np.random.default_rng()

    @property
    def observation_shape(self) -> Tuple[int, int]:
        """The shape of every observation: ``(rows, cols)`` of the level's picture."""
        rows, cols = self._start.to_array().shape
        return (int(rows), int(cols))

    def _info(self, s: State) -> Dict[str, Any]:
        moves = s.moves()
        return {"moves": moves, "solved": s.solved(), "steps": self.steps, "stuck": not moves and not s.solved()}

    def reset(self, *, seed: Optional[int] = None, options: Optional[Dict[str, Any]] = None) -> Tuple[np.ndarray, Dict[str, Any]]:
        """Starts an episode at the level's start.

        Args:
            seed: seeds :attr:`np_random` (the level itself has no chance in it).
            options: ``{"moves": [...]}`` starts the episode after these moves instead.

        Returns:
            ``(observation, info)``: ``info`` holds ``moves`` (the legal moves, which the
            actions index), ``solved``, ``stuck`` (no move can be played and the level is
            not solved) and ``steps``.

        Raises:
            ValueError: the position is already solved, or no move can be played from it:
                there is no episode to play.
        """
        seed = whole_or_none("seed", seed)
        if seed is not None:
            self.np_random = np.random.default_rng(seed)
        if options is not None and not isinstance(options, dict):
            raise TypeError(f"options: a dict, not {type(options).__name__}")
        opts = dict(options or {})
        unknown = sorted(set(opts) - {"moves"})
        if unknown:
            raise ValueError(f"options: {', '.join(map(repr, unknown))} is not an option; the option is 'moves'")
        s = self._start
        if opts.get("moves"):
            s = s.play_moves(opts["moves"])
        info = self._info(s)
        if s.solved() or info["stuck"]:
            where = "after the moves of options" if opts.get("moves") else "at the level's start"
            why = "the level is solved" if s.solved() else "no move can be played"
            raise ValueError(f"{why} {where}: an episode needs a position to play from")
        self.state, self.steps = s, 0
        self._done = False
        return s.to_array(), info

    def step(self, action: Any) -> StepResult:
        """Plays one move.

        Args:
            action: the index of a move in the last ``info["moves"]`` (a whole number, NumPy's
                too), or a move as :meth:`floe.State.moves` gives them.

        Returns:
            ``(observation, reward, terminated, truncated, info)``.

        Raises:
            RuntimeError: no episode is running (call :meth:`reset`).
            ValueError: an index out of range, or an illegal move.
            TypeError: an action that is neither an index nor a move.
        """
        if self.state is None or self._done:
            raise RuntimeError("the episode is over (or never began): call reset() first")
        s = self.state
        if isinstance(action, (numbers.Integral, np.integer)) and not isinstance(action, (bool, np.bool_)):
            moves = s.moves()
            i = int(action)
            if not 0 <= i < len(moves):
                raise ValueError(f"action: an index of the {len(moves)} legal moves (0 to {len(moves) - 1}), not {i}")
            move: Any = moves[i]
        elif isinstance(action, (dict, str)):
            move = action
        else:
            raise TypeError(f"action: the index of a legal move or a move, not {type(action).__name__} {action!r}")
        s = s.play(move)
        self.state = s
        self.steps += 1
        info = self._info(s)
        terminated = s.solved() or info["stuck"]
        truncated = not terminated and self.steps >= self.max_steps
        self._done = terminated or truncated
        reward = 1.0 if s.solved() else self.step_reward
        return s.to_array(), reward, terminated, truncated, info

    def sample(self) -> int:
        """A random legal action (an index), drawn with :attr:`np_random`."""
        if self.state is None:
            raise RuntimeError("no episode is running: call reset() first")
        n = len(self.state.moves())
        if n == 0:
            raise ValueError("no move can be played here")
        return int(self.np_random.integers(n))

    def legal_actions(self) -> List[int]:
        """The actions that can be played now: ``range(len(info["moves"]))`` as a list."""
        return [] if self.state is None else list(range(len(self.state.moves())))

    def render(self, mode: str = "ansi") -> Any:
        """The current position: its text (``ansi``) or an SVG picture (``svg``)."""
        if self.state is None:
            raise RuntimeError("no episode is running: call reset() first")
        if mode == "ansi":
            return self.state.text()
        if mode == "svg":
            return self.state.svg()
        raise ValueError(f"mode: 'ansi' or 'svg', not {mode!r}")

    def close(self) -> None:
        """Nothing to release (Gymnasium's API)."""

    def __repr__(self) -> str:
        return f"<floe.env.Env of {self.level.game} level {self.level.name!r}, max_steps={self.max_steps}>"
